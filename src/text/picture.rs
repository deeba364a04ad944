//! Pictures of grids as SVG: box or region borders, givens told apart from
//! solved digits, candidates as small digits, and cells to point at.

use svg::node::element::{Group, Line, Rectangle, Text};
use svg::Document;

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
    pub fn with_givens(self, givens: &'a Grid) -> Picture<'a> {
        Picture { givens: Some(givens), ..self }
    }

    /// A solution: its digits that are not givens drawn in blue.
    pub fn with_solution(self, solution: &'a Grid) -> Picture<'a> {
        Picture { solution: Some(solution), ..self }
    }

    /// Candidates: a cell with one is fixed (green on green), a cell with more
    /// shows them as small digits, each in its place of a √n×√n block.
    pub fn with_candidates(self, candidates: &'a Domains) -> Picture<'a> {
        Picture { candidates: Some(candidates), ..self }
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
        Picture { caption: Some(caption.into()), ..self }
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
        let margin = 12.0;
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
                Text::new(caption.clone())
                    .set("x", margin)
                    .set("y", margin + 14.0)
                    .set("font-size", 14)
                    .set("fill", "#222222"),
            );
        }
        let grid = Group::new().set("transform", format!("translate({margin} {})", margin + caption_height));
        let grid =
            grid.add(self.shading(size)).add(self.constraints(size)).add(self.lines(size)).add(self.digits(size));
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

    /// What constrains cells beyond their units: the diagonals of an X
    /// sudoku. Variant constraints (cages, thermometers, arrows, dots) are
    /// drawn here too, between the shading and the grid lines, once the
    /// geometry carries them.
    fn constraints(&self, size: f64) -> Group {
        let g = self.geometry;
        let side = size * g.size() as f64;
        let mut group =
            Group::new().set("stroke", "#7f9fd8").set("stroke-opacity", 0.5).set("stroke-width", size * 0.05);
        if g.variants().contains(&Variant::X) {
            group = group
                .add(Line::new().set("x1", 0).set("y1", 0).set("x2", side).set("y2", side))
                .add(Line::new().set("x1", side).set("y1", 0).set("x2", 0).set("y2", side));
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
                } else {
                    group = group.add(self.candidate_digits(domains, cell, size, conflict));
                }
            }
        }
        group
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
}
