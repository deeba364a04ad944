//! Pictures of grids as SVG: box or region borders, givens told apart from
//! solved digits, candidates as small digits, and cells to point at.

use svg::node::element::{Circle, Group, Line, Polyline, Rectangle, Text};
use svg::Document;

use crate::model::constraints::{Constraint, Line as GridLine, Relation};
use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry, Layout, Value, Variant};
use crate::model::puzzle::Grid;
use crate::text::format::symbol;
use crate::text::symbols::Alphabet;

/// The colours of a picture, in the spirit of the web solvers.
mod ink {
    pub const GIVEN: &str = "#000000";
    pub const SOLVED: &str = "#1a56c4";
    pub const FIXED: &str = "#1d7a32";
    pub const FIXED_FILL: &str = "#dff2e1";
    pub const CANDIDATE: &str = "#555555";
    pub const CONFLICT: &str = "#c41a1a";
    pub const CONFLICT_FILL: &str = "#f9d0d0";
    pub const MARKED_FILL: &str = "#fff2a8";
    pub const EXTRA_FILL: &str = "#e4e4e4";
    pub const THIN: &str = "#9a9a9a";
    /// Region shades for jigsaw grids: light, and told apart side by side.
    pub const REGIONS: [&str; 12] = [
        "#fde2e4", "#e2ece9", "#fff1c1", "#dbe7f6", "#eadcf5", "#d9f2d0", "#fbe3cf", "#d4eef4", "#f3e0ec", "#e9edc9",
        "#dfe3f7", "#f7e7d4",
    ];
}

/// A picture of one grid: build it with the `with_*` methods, then
/// [`Picture::to_svg`].
///
/// ```
/// use satdoku::{Alphabet, Geometry, Grid, Picture};
///
/// let geometry = Geometry::classic(4)?;
/// let givens = Grid::empty(4);
/// let svg = Picture::new(&geometry, &Alphabet::default()).with_givens(&givens).to_svg();
/// assert!(svg.starts_with("<svg"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Picture<'a> {
    geometry: &'a Geometry,
    alphabet: &'a Alphabet,
    givens: Option<&'a Grid>,
    solution: Option<&'a Grid>,
    candidates: Option<&'a Domains>,
    conflict: Vec<Cell>,
    marked: Vec<Cell>,
    caption: Option<String>,
}

impl<'a> Picture<'a> {
    /// An empty grid of `geometry`, symbols written in `alphabet`.
    pub fn new(geometry: &'a Geometry, alphabet: &'a Alphabet) -> Picture<'a> {
        Picture {
            geometry,
            alphabet,
            givens: None,
            solution: None,
            candidates: None,
            conflict: Vec::new(),
            marked: Vec::new(),
            caption: None,
        }
    }

    /// The givens: drawn bold and black.
    ///
    /// # Panics
    /// When the grid's side is not the geometry's.
    pub fn with_givens(self, givens: &'a Grid) -> Picture<'a> {
        self.fits("givens", givens.size());
        Picture { givens: Some(givens), ..self }
    }

    /// A solution: its digits that are not givens drawn in blue.
    ///
    /// # Panics
    /// When the grid's side is not the geometry's.
    pub fn with_solution(self, solution: &'a Grid) -> Picture<'a> {
        self.fits("solution", solution.size());
        Picture { solution: Some(solution), ..self }
    }

    /// Candidates: a cell with one is fixed (green on green), a cell with more
    /// shows them as small digits, each in its place of a √n×√n block.
    ///
    /// # Panics
    /// When the candidates' side is not the geometry's.
    pub fn with_candidates(self, candidates: &'a Domains) -> Picture<'a> {
        self.fits("candidates", candidates.size());
        Picture { candidates: Some(candidates), ..self }
    }

    fn fits(&self, what: &str, n: usize) {
        let side = self.geometry.size();
        assert_eq!(n, side, "Picture: {what} of a {n}x{n} grid on a {side}x{side} geometry");
    }

    /// Cells a contradiction names: drawn red on red.
    pub fn with_conflict(self, cells: Vec<Cell>) -> Picture<'a> {
        Picture { conflict: cells, ..self }
    }

    /// Cells to point at (the cell a step just placed): a yellow background.
    pub fn with_marked(self, cells: Vec<Cell>) -> Picture<'a> {
        Picture { marked: cells, ..self }
    }

    /// A line of text above the grid.
    pub fn with_caption(self, caption: impl Into<String>) -> Picture<'a> {
        Picture { caption: Some(xml_chars(&caption.into())), ..self }
    }

    /// The side of a cell in SVG units: big enough for candidates in a
    /// 9×9, smaller for big grids.
    fn cell_size(&self) -> f64 {
        let n = self.geometry.size() as f64;
        (540.0 / n).clamp(14.0, 60.0)
    }

    /// The picture as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let n = self.geometry.size();
        let size = self.cell_size();
        // Clues outside the grid (sandwich sums, little killers) need room.
        let outside = self
            .geometry
            .constraints()
            .iter()
            .any(|c| matches!(c, Constraint::Sandwich { .. } | Constraint::LittleKiller { .. }));
        let margin = if outside { 12.0 + size * 0.8 } else { 12.0 };
        let caption_height = if self.caption.is_some() { 28.0 } else { 0.0 };
        let side = size * n as f64;
        let (width, height) = (side + 2.0 * margin, side + 2.0 * margin + caption_height);
        let mut document = Document::new()
            .set("width", width)
            .set("height", height)
            .set("viewBox", (0, 0, width, height))
            .set("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif")
            .add(Rectangle::new().set("width", width).set("height", height).set("fill", "#ffffff"));
        if let Some(caption) = &self.caption {
            document = document.add(
                Text::new(caption.clone()).set("x", 12.0).set("y", 26.0).set("font-size", 14).set("fill", "#222222"),
            );
        }
        let grid = Group::new().set("transform", format!("translate({margin} {})", margin + caption_height));
        let grid = grid
            .add(self.shading(size))
            .add(self.constraints(size))
            .add(self.lines(size))
            .add(self.marks(size))
            .add(self.digits(size));
        document.add(grid).to_string()
    }

    /// Cell backgrounds: jigsaw regions, extra units, fixed cells, marks, conflicts.
    fn shading(&self, size: f64) -> Group {
        let g = self.geometry;
        let mut group = Group::new();
        let extra: Vec<bool> = {
            let mut inside = vec![false; g.cell_count()];
            // Hyper windows are shaded; diagonals are drawn as lines instead.
            if g.variants().contains(&Variant::Hyper) {
                for unit in g.extra_units() {
                    let on_diagonal = unit.iter().all(|&c| {
                        let (r, col) = g.row_col(c);
                        r == col || r + col + 1 == g.size()
                    });
                    if !on_diagonal {
                        unit.iter().for_each(|c| inside[c.index()] = true);
                    }
                }
            }
            inside
        };
        for cell in g.cells() {
            let fill = if self.conflict.contains(&cell) {
                Some(ink::CONFLICT_FILL)
            } else if self.marked.contains(&cell) {
                Some(ink::MARKED_FILL)
            } else if self.is_fixed(cell) {
                Some(ink::FIXED_FILL)
            } else if extra[cell.index()] {
                Some(ink::EXTRA_FILL)
            } else if let (Layout::Regions(_), Some(region)) = (g.layout(), g.region_of(cell)) {
                Some(ink::REGIONS[region % ink::REGIONS.len()])
            } else {
                None
            };
            if let Some(fill) = fill {
                let (r, c) = g.row_col(cell);
                group = group.add(
                    Rectangle::new()
                        .set("x", c as f64 * size)
                        .set("y", r as f64 * size)
                        .set("width", size)
                        .set("height", size)
                        .set("fill", fill),
                );
            }
        }
        group
    }

    /// What constrains cells beyond their units, drawn under the grid lines:
    /// the diagonals of an X sudoku, thermometers, arrows, and lines
    /// (renban purple, whispers green, palindromes grey), as the web tools draw them.
    fn constraints(&self, size: f64) -> Group {
        let g = self.geometry;
        let side = size * g.size() as f64;
        let mut group = Group::new();
        if g.variants().contains(&Variant::X) {
            group = group.add(
                Group::new()
                    .set("stroke", "#7f9fd8")
                    .set("stroke-opacity", 0.5)
                    .set("stroke-width", size * 0.05)
                    .add(Line::new().set("x1", 0).set("y1", 0).set("x2", side).set("y2", side))
                    .add(Line::new().set("x1", side).set("y1", 0).set("x2", 0).set("y2", side)),
            );
        }
        let center = |cell: Cell| {
            let (r, c) = g.row_col(cell);
            ((c as f64 + 0.5) * size, (r as f64 + 0.5) * size)
        };
        let path = |cells: &[Cell]| {
            cells.iter().map(|&c| center(c)).map(|(x, y)| format!("{x},{y}")).collect::<Vec<_>>().join(" ")
        };
        let line = |cells: &[Cell], colour: &str, width: f64| {
            Polyline::new()
                .set("points", path(cells))
                .set("fill", "none")
                .set("stroke", colour)
                .set("stroke-width", width)
                .set("stroke-linecap", "round")
                .set("stroke-linejoin", "round")
        };
        for constraint in g.constraints() {
            group = match constraint {
                Constraint::Thermo { cells } if !cells.is_empty() => {
                    let (x, y) = center(cells[0]);
                    group
                        .add(line(cells, "#c8c8c8", size * 0.28))
                        .add(Circle::new().set("cx", x).set("cy", y).set("r", size * 0.38).set("fill", "#c8c8c8"))
                }
                Constraint::Arrow { circle, cells } if !circle.is_empty() && !cells.is_empty() => {
                    let mut shaft = vec![circle[circle.len() - 1]];
                    shaft.extend(cells);
                    let head = arrow_head(center(shaft[shaft.len() - 2]), center(shaft[shaft.len() - 1]), size * 0.25);
                    let (x0, y0) = center(circle[0]);
                    let (x1, y1) = center(circle[circle.len() - 1]);
                    let r = size * 0.4;
                    let bulb = Rectangle::new()
                        .set("x", x0.min(x1) - r)
                        .set("y", y0.min(y1) - r)
                        .set("width", (x1 - x0).abs() + 2.0 * r)
                        .set("height", (y1 - y0).abs() + 2.0 * r)
                        .set("rx", r)
                        .set("fill", "#ffffff")
                        .set("stroke", "#9a9a9a")
                        .set("stroke-width", size * 0.05);
                    group
                        .add(line(&shaft, "#9a9a9a", size * 0.05))
                        .add(
                            Polyline::new()
                                .set("points", head)
                                .set("fill", "none")
                                .set("stroke", "#9a9a9a")
                                .set("stroke-width", size * 0.05),
                        )
                        .add(bulb)
                }
                Constraint::Renban { cells } => group.add(line(cells, "#d6b8f0", size * 0.22)),
                Constraint::Whisper { cells } => group.add(line(cells, "#9fe0a0", size * 0.22)),
                Constraint::Palindrome { cells } => group.add(line(cells, "#c8c8c8", size * 0.22)),
                Constraint::Odd { cells } => cells.iter().fold(group, |group, &cell| {
                    let (x, y) = center(cell);
                    group.add(Circle::new().set("cx", x).set("cy", y).set("r", size * 0.4).set("fill", "#e0e0e0"))
                }),
                Constraint::Even { cells } => cells.iter().fold(group, |group, &cell| {
                    let (x, y) = center(cell);
                    let half = size * 0.38;
                    group.add(
                        Rectangle::new()
                            .set("x", x - half)
                            .set("y", y - half)
                            .set("width", 2.0 * half)
                            .set("height", 2.0 * half)
                            .set("fill", "#e0e0e0"),
                    )
                }),
                _ => group,
            };
        }
        group
    }

    /// What is drawn over the grid lines: killer cages (dashed, the sum in
    /// the first corner), dots and marks between cells, and clues outside the
    /// grid (sandwich sums, little killers).
    fn marks(&self, size: f64) -> Group {
        let g = self.geometry;
        let n = g.size();
        let center = |cell: Cell| {
            let (r, c) = g.row_col(cell);
            ((c as f64 + 0.5) * size, (r as f64 + 0.5) * size)
        };
        let small = size * 0.24;
        let mut group = Group::new();
        for constraint in g.constraints() {
            group = match constraint {
                Constraint::Killer { cells, sum } => {
                    let inset = size * 0.08;
                    let inside = |r: isize, c: isize| {
                        r >= 0
                            && c >= 0
                            && (r as usize) < n
                            && (c as usize) < n
                            && cells.contains(&g.cell(r as usize, c as usize))
                    };
                    let mut cage = Group::new()
                        .set("stroke", "#333333")
                        .set("stroke-width", 1.2)
                        .set("stroke-dasharray", format!("{} {}", size * 0.08, size * 0.06));
                    for &cell in cells {
                        let (r, c) = g.row_col(cell);
                        let (r, c) = (r as isize, c as isize);
                        let (x0, y0) = (c as f64 * size + inset, r as f64 * size + inset);
                        let (x1, y1) = ((c + 1) as f64 * size - inset, (r + 1) as f64 * size - inset);
                        // Each side with no cage cell beyond it, stretched to meet the cage's next cells.
                        let (left, right) = (
                            if inside(r, c - 1) { x0 - 2.0 * inset } else { x0 },
                            if inside(r, c + 1) { x1 + 2.0 * inset } else { x1 },
                        );
                        let (top, bottom) = (
                            if inside(r - 1, c) { y0 - 2.0 * inset } else { y0 },
                            if inside(r + 1, c) { y1 + 2.0 * inset } else { y1 },
                        );
                        let edge = |x1: f64, y1: f64, x2: f64, y2: f64| {
                            Line::new().set("x1", x1).set("y1", y1).set("x2", x2).set("y2", y2)
                        };
                        if !inside(r - 1, c) {
                            cage = cage.add(edge(left, y0, right, y0));
                        }
                        if !inside(r + 1, c) {
                            cage = cage.add(edge(left, y1, right, y1));
                        }
                        if !inside(r, c - 1) {
                            cage = cage.add(edge(x0, top, x0, bottom));
                        }
                        if !inside(r, c + 1) {
                            cage = cage.add(edge(x1, top, x1, bottom));
                        }
                    }
                    let mut group = group.add(cage);
                    if let (Some(sum), Some(&first)) = (sum, cells.iter().min_by_key(|c| g.row_col(**c))) {
                        let (r, c) = g.row_col(first);
                        let (x, y) = (c as f64 * size + inset * 0.5, r as f64 * size + inset * 0.5);
                        let text = sum.to_string();
                        group = group
                            .add(
                                Rectangle::new()
                                    .set("x", x)
                                    .set("y", y)
                                    .set("width", small * 0.62 * text.len() as f64 + 2.0)
                                    .set("height", small * 1.05)
                                    .set("fill", "#ffffff"),
                            )
                            .add(
                                Text::new(text)
                                    .set("x", x + 1.0)
                                    .set("y", y + small * 0.85)
                                    .set("font-size", small)
                                    .set("fill", "#000000"),
                            );
                    }
                    group
                }
                Constraint::Dot { relation, cells: [a, b] } => {
                    let ((xa, ya), (xb, yb)) = (center(*a), center(*b));
                    let (x, y) = ((xa + xb) / 2.0, (ya + yb) / 2.0);
                    let (fill, label, round) = match relation {
                        Relation::Difference(1) => ("#ffffff", None, true),
                        Relation::Ratio(2) => ("#000000", None, true),
                        Relation::Difference(d) => ("#ffffff", Some(d.to_string()), true),
                        Relation::Ratio(k) => ("#000000", Some(k.to_string()), true),
                        Relation::Sum(10) => ("none", Some("X".to_string()), false),
                        Relation::Sum(5) => ("none", Some("V".to_string()), false),
                        Relation::Sum(s) => ("none", Some(s.to_string()), false),
                    };
                    // Letters and numbers want more room than a plain dot.
                    let r = if round && label.is_none() { size * 0.13 } else { size * 0.17 };
                    let mut mark = Group::new();
                    if round {
                        mark = mark.add(
                            Circle::new()
                                .set("cx", x)
                                .set("cy", y)
                                .set("r", r)
                                .set("fill", fill)
                                .set("stroke", "#000000")
                                .set("stroke-width", 1.2),
                        );
                    } else {
                        mark = mark.add(Circle::new().set("cx", x).set("cy", y).set("r", r).set("fill", "#ffffff"));
                    }
                    if let Some(label) = label {
                        let ink = if fill == "#000000" { "#ffffff" } else { "#000000" };
                        mark = mark.add(
                            Text::new(label)
                                .set("x", x)
                                .set("y", y)
                                .set("font-size", r * 1.6)
                                .set("font-weight", "bold")
                                .set("fill", ink)
                                .set("text-anchor", "middle")
                                .set("dominant-baseline", "central"),
                        );
                    }
                    group.add(mark)
                }
                Constraint::Sandwich { line, sum } => {
                    let (x, y) = match line {
                        GridLine::Row(r) => (-size * 0.45, (*r as f64 + 0.5) * size),
                        GridLine::Column(c) => ((*c as f64 + 0.5) * size, -size * 0.45),
                    };
                    group.add(outside_text(sum.to_string(), x, y, size * 0.4))
                }
                Constraint::LittleKiller { cells, sum } if !cells.is_empty() => {
                    // The clue sits one step before the diagonal's first cell, outside the grid.
                    let (x0, y0) = center(cells[0]);
                    let (dx, dy) = match cells.get(1) {
                        Some(&next) => {
                            let (x1, y1) = center(next);
                            (x1 - x0, y1 - y0)
                        }
                        None => (size, size),
                    };
                    let (x, y) = (x0 - dx * 0.85, y0 - dy * 0.85);
                    let head = arrow_head((x + dx * 0.25, y + dy * 0.25), (x + dx * 0.5, y + dy * 0.5), size * 0.12);
                    group.add(outside_text(sum.to_string(), x - dx * 0.1, y - dy * 0.1, size * 0.3)).add(
                        Polyline::new()
                            .set("points", head)
                            .set("fill", "none")
                            .set("stroke", "#000000")
                            .set("stroke-width", 1.2),
                    )
                }
                _ => group,
            };
        }
        group
    }

    /// Thin lines between cells, thick ones between boxes or regions and around the grid.
    fn lines(&self, size: f64) -> Group {
        let g = self.geometry;
        let n = g.size();
        let region = |r: usize, c: usize| g.region_of(g.cell(r, c));
        let thick = (size * 0.07).max(2.0);
        let mut thin = Group::new().set("stroke", ink::THIN).set("stroke-width", 1).set("stroke-linecap", "square");
        let mut bold =
            Group::new().set("stroke", ink::GIVEN).set("stroke-width", thick).set("stroke-linecap", "square");
        let at = |i: usize| i as f64 * size;
        for r in 0..n {
            for c in 0..n {
                // The edge to the right of (r, c), and the one below it.
                if c + 1 < n {
                    let line =
                        Line::new().set("x1", at(c + 1)).set("y1", at(r)).set("x2", at(c + 1)).set("y2", at(r + 1));
                    if region(r, c) != region(r, c + 1) {
                        bold = bold.add(line);
                    } else {
                        thin = thin.add(line);
                    }
                }
                if r + 1 < n {
                    let line =
                        Line::new().set("x1", at(c)).set("y1", at(r + 1)).set("x2", at(c + 1)).set("y2", at(r + 1));
                    if region(r, c) != region(r + 1, c) {
                        bold = bold.add(line);
                    } else {
                        thin = thin.add(line);
                    }
                }
            }
        }
        let border = Rectangle::new()
            .set("width", at(n))
            .set("height", at(n))
            .set("fill", "none")
            .set("stroke", ink::GIVEN)
            .set("stroke-width", thick * 1.4);
        Group::new().add(thin).add(bold).add(border)
    }

    /// A cell decided by the candidates that is not a given.
    fn is_fixed(&self, cell: Cell) -> bool {
        let given = self.givens.is_some_and(|g| g.get(cell).is_some());
        !given && self.solution.is_none() && self.candidates.is_some_and(|d| d.count(cell) == 1)
    }

    /// The digits: givens, solved digits, fixed cells, candidates.
    fn digits(&self, size: f64) -> Group {
        let g = self.geometry;
        let n = g.size();
        let big = size * 0.62;
        let mut group = Group::new().set("text-anchor", "middle").set("dominant-baseline", "central");
        let symbol = |v: Value| symbol(Some(v), n, self.alphabet);
        let digit = |text: String, x: f64, y: f64, font: f64, fill: &str, bold: bool| {
            let mut t = Text::new(text).set("x", x).set("y", y).set("font-size", font).set("fill", fill);
            if bold {
                t = t.set("font-weight", "bold");
            }
            t
        };
        for cell in g.cells() {
            let (r, c) = g.row_col(cell);
            let (x, y) = ((c as f64 + 0.5) * size, (r as f64 + 0.5) * size);
            let font = big / (symbol(Value::from_index(n - 1)).chars().count() as f64).max(1.0).sqrt();
            let conflict = self.conflict.contains(&cell);
            if let Some(v) = self.givens.and_then(|grid| grid.get(cell)) {
                let fill = if conflict { ink::CONFLICT } else { ink::GIVEN };
                group = group.add(digit(symbol(v), x, y, font, fill, true));
            } else if let Some(v) = self.solution.and_then(|grid| grid.get(cell)) {
                group = group.add(digit(symbol(v), x, y, font, ink::SOLVED, false));
            } else if let Some(domains) = self.candidates {
                if let Some(v) = domains.single(cell) {
                    group = group.add(digit(symbol(v), x, y, font, ink::FIXED, true));
                } else if self.candidates_legible(size) {
                    group = group.add(self.candidate_digits(domains, cell, size, conflict));
                }
            }
        }
        group
    }

    /// Whether candidates would be big enough to read (up to 49×49). Past
    /// that they are under 1.5 units tall, and there are n³ of them: an
    /// empty 225×225 took over 4 GB to draw and would write half a gigabyte.
    fn candidates_legible(&self, size: f64) -> bool {
        let n = self.geometry.size();
        let k = (1..=n).find(|k| k * k >= n).unwrap_or(n);
        size / k as f64 * 0.78 >= MIN_CANDIDATE_FONT
    }

    /// The candidates of an open cell, value k in place k of a k×k block.
    fn candidate_digits(&self, domains: &Domains, cell: Cell, size: f64, conflict: bool) -> Group {
        let n = self.geometry.size();
        let k = (1..=n).find(|k| k * k >= n).unwrap_or(n);
        let step = size / k as f64;
        let (r, c) = self.geometry.row_col(cell);
        let fill = if conflict { ink::CONFLICT } else { ink::CANDIDATE };
        let mut group = Group::new().set("font-size", step * 0.78).set("fill", fill);
        for v in domains.values(cell) {
            let i = v.index();
            let x = c as f64 * size + (i % k) as f64 * step + step / 2.0;
            let y = r as f64 * size + (i / k) as f64 * step + step / 2.0;
            group = group.add(Text::new(symbol(Some(v), n, self.alphabet)).set("x", x).set("y", y));
        }
        group
    }
}

/// `text` with the characters XML cannot hold, even escaped (controls
/// other than tab and line ends, U+FFFE, U+FFFF), written as their code, as
/// messages write them: a title line may carry them into a caption.
fn xml_chars(text: &str) -> String {
    let allowed = |c: char| {
        let bad_control = c.is_control() && !matches!(c, '\t' | '\n' | '\r');
        !bad_control && !matches!(c, '\u{FFFE}' | '\u{FFFF}')
    };
    text.chars().map(|c| if allowed(c) { c.to_string() } else { format!("U+{:04X}", c as u32) }).collect()
}

/// The smallest candidate font drawn, in SVG units (a 9×9's is 15.6).
const MIN_CANDIDATE_FONT: f64 = 1.5;

/// The two strokes of an arrowhead at `to`, pointing away from `from`.
fn arrow_head(from: (f64, f64), to: (f64, f64), length: f64) -> String {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let norm = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / norm, dy / norm);
    let back = (to.0 - ux * length, to.1 - uy * length);
    let (px, py) = (-uy * length * 0.6, ux * length * 0.6);
    format!("{},{} {},{} {},{}", back.0 + px, back.1 + py, to.0, to.1, back.0 - px, back.1 - py)
}

/// A clue written outside the grid.
fn outside_text(text: String, x: f64, y: f64, font: f64) -> Text {
    Text::new(text)
        .set("x", x)
        .set("y", y)
        .set("font-size", font)
        .set("fill", "#000000")
        .set("text-anchor", "middle")
        .set("dominant-baseline", "central")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jigsaw_grid_is_shaded_and_has_thick_lines_between_regions() {
        let g = Geometry::new(4, Layout::Regions(vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]), &[]).unwrap();
        let svg = Picture::new(&g, &Alphabet::default()).to_svg();
        // The background, a shade for each of the 16 cells, the border.
        assert_eq!(svg.matches("<rect").count(), 1 + 16 + 1, "{svg}");
        // Edges between cells of different regions: 4 upright, 6 across, of the 24 inner edges.
        let bold = svg.split("stroke=\"#000000\" stroke-linecap").nth(1).unwrap().split("</g>").next().unwrap();
        assert_eq!(bold.matches("<line").count(), 10, "{bold}");
    }

    #[test]
    fn candidates_sit_in_their_place() {
        let g = Geometry::classic(9).unwrap();
        let domains = Domains::full(9);
        let svg = Picture::new(&g, &Alphabet::default()).with_candidates(&domains).to_svg();
        assert_eq!(svg.matches("<text").count(), 81 * 9);
    }

    #[test]
    fn a_caption_holds_only_characters_xml_allows() {
        let g = Geometry::classic(4).unwrap();
        let svg = Picture::new(&g, &Alphabet::default()).with_caption("Sudoku \u{FFFE}\u{1} & <hard>").to_svg();
        assert!(svg.contains("Sudoku U+FFFEU+0001 &amp; &lt;hard&gt;"), "{svg}");
        assert!(!svg.contains('\u{FFFE}') && !svg.contains('\u{1}'), "{svg}");
    }

    #[test]
    fn candidates_too_small_to_read_are_left_out() {
        for (n, drawn) in [(49, 49 * 49 * 49), (64, 0)] {
            let g = Geometry::new(n, Layout::Latin, &[]).unwrap();
            let domains = Domains::full(n);
            let svg = Picture::new(&g, &Alphabet::default()).with_candidates(&domains).to_svg();
            assert_eq!(svg.matches("<text").count(), drawn, "{n}");
        }
    }
}
