//! Records rendered: as lines, grids, JSON Lines, f-puzzles strings or
//! pictures on stdout, and their messages on stderr.

use std::fmt::Write as _;

use anstyle::Style;
use serde_json::{Map, Value as Json};

use satdoku::format;
use satdoku::{Alphabet, CandidateCount, Cell, Count, Domains, Forced, Geometry, Grid, Layout, Picture, Puzzle};

use super::{Body, Format, Palette, Record, Status, StepLine};

/// Renders records in one format and alphabet.
#[derive(Clone)]
pub struct Renderer {
    pub format: Format,
    pub alphabet: Alphabet,
    /// The colours of the grid format on stdout.
    pub palette: Palette,
    /// The colours of messages on stderr.
    pub err_palette: Palette,
    /// `--out-dir`: pictures go to files in it, one per record (or per
    /// solution or step), named after the puzzle's index.
    pub out_dir: Option<crate::commands::files::OutDir>,
}

impl Renderer {
    /// The record as it goes to stdout.
    pub fn stdout(&self, record: &Record, out: &mut Vec<u8>) {
        let text = match self.format {
            Format::Json => {
                let mut line = self.json(record).to_string();
                line.push('\n');
                line
            }
            Format::Line => self.line(record),
            Format::Grid => self.grid(record),
            Format::Fpuzzles => self.fpuzzles(record),
            Format::Svg if self.out_dir.is_some() => return,
            Format::Svg => self.pictures(record).into_iter().map(|(_, svg)| svg + "\n").collect(),
        };
        out.extend_from_slice(text.as_bytes());
    }

    /// What the record says on stderr: bad input and errors, nothing else.
    pub fn stderr(&self, record: &Record, err: &mut Vec<u8>) {
        let prefix = self.err_palette.paint(Palette::CONFLICT, "satdoku:");
        let text = match (record.status, &record.error) {
            // A parse error names its own place.
            (Status::Invalid, Some(error)) => format!("{prefix} {error}\n"),
            (Status::Error, Some(error)) => format!("{prefix} {}: {error}\n", record.numbered.describe()),
            _ => return,
        };
        err.extend_from_slice(text.as_bytes());
    }

    fn line_of(&self, grid: &Grid) -> String {
        format::line(grid, &self.alphabet)
    }

    fn json(&self, record: &Record) -> Json {
        let mut object = Map::new();
        object.insert("index".into(), record.numbered.index.into());
        object.insert("status".into(), serde_json::to_value(record.status).unwrap_or(Json::Null));
        let mut put = |key: &str, value: Json| {
            object.insert(key.into(), value);
        };
        match &record.body {
            Body::Empty => {}
            Body::Solution { grid, number } => {
                put("solution", self.line_of(grid).into());
                if let Some(number) = number {
                    put("number", (*number).into());
                }
            }
            Body::Solutions { first, second } => {
                put("solution", self.line_of(first).into());
                if let Some(second) = second {
                    put("solutions", vec![self.line_of(first), self.line_of(second)].into());
                }
            }
            Body::Count(count) => put_count(&mut put, count),
            Body::Explanation { core, forced } => {
                let geometry = record.geometry.as_deref();
                let names = |cells: &[Cell]| -> Json {
                    cells.iter().map(|&c| geometry.map_or(String::new(), |g| g.cell_name(c))).collect::<Vec<_>>().into()
                };
                if let Some(core) = core {
                    put("givens", names(core));
                }
                if !forced.is_empty() {
                    let n = geometry.map_or(0, Geometry::size);
                    let symbol = |v: satdoku::Value| format::symbol(Some(v), n, &self.alphabet);
                    let items: Vec<Json> = forced
                        .iter()
                        .map(|(cell, why)| {
                            let mut item = Map::new();
                            item.insert("cell".into(), geometry.map_or(String::new(), |g| g.cell_name(*cell)).into());
                            match why {
                                Forced::Given(v) => {
                                    item.insert("value".into(), symbol(*v).into());
                                    item.insert("given".into(), true.into());
                                }
                                Forced::By { value, givens } => {
                                    item.insert("value".into(), symbol(*value).into());
                                    item.insert("givens".into(), names(givens));
                                }
                                Forced::Open(a, b) => {
                                    item.insert("open".into(), vec![symbol(*a), symbol(*b)].into());
                                }
                                Forced::Unsolvable => {}
                            }
                            Json::Object(item)
                        })
                        .collect();
                    put("forced", items.into());
                }
            }
            Body::Puzzle(body) => {
                put("puzzle", self.line_of(&body.puzzle).into());
                put("givens", body.puzzle.filled_count().into());
                put("solution", self.line_of(&body.solution).into());
                if let Some(removed) = body.removed {
                    put("removed", removed.into());
                }
                if let Some((minimal, unproven)) = body.minimal {
                    put("minimal", minimal.into());
                    if unproven > 0 {
                        put("unproven", unproven.into());
                    }
                }
                if let Some(seed) = body.seed {
                    put("seed", seed.into());
                }
                if let Some(geometry) = &record.geometry {
                    if let Layout::Regions(map) = geometry.layout() {
                        put("regions", format::region_map(map, geometry.size()).into());
                    }
                }
            }
            Body::Analysis { domains, count, steps, counts, residual } => {
                if let (Some(counts), Some(geometry)) = (counts, &record.geometry) {
                    let items: Vec<Json> = counts
                        .iter()
                        .map(|c| {
                            let mut item = Map::new();
                            item.insert("cell".into(), geometry.cell_name(c.cell).into());
                            item.insert(
                                "value".into(),
                                format::symbol(Some(c.value), geometry.size(), &self.alphabet).into(),
                            );
                            item.insert("count".into(), c.count.count.into());
                            if c.count.capped {
                                item.insert("capped".into(), true.into());
                            }
                            Json::Object(item)
                        })
                        .collect();
                    put("counts", items.into());
                }
                if let Some(residual) = residual {
                    put("residual", residual.clone().into());
                }
                if let Some(domains) = domains {
                    put("fixed", self.line_of(&domains.decided()).into());
                    put("candidates", candidate_strings(domains, &self.alphabet).into());
                }
                if let Some(count) = count {
                    put_count(&mut put, count);
                }
                if let Some(steps) = steps {
                    let texts: Vec<Json> = steps
                        .iter()
                        .filter_map(|s| match s {
                            StepLine::Text(text) => Some(text.clone().into()),
                            StepLine::Grid(_) => None,
                        })
                        .collect();
                    put("steps", texts.into());
                }
            }
        }
        if let Some(redundant) = &record.redundant {
            put("redundant", redundant.clone().into());
        }
        for (key, value) in [
            ("reason", &record.reason),
            ("error", &record.error),
            ("name", &record.numbered.entry.name),
            ("proof", &record.proof),
        ] {
            if let Some(value) = value {
                put(key, value.clone().into());
            }
        }
        put("source", record.numbered.entry.position.to_string().into());
        Json::Object(object)
    }

    fn line(&self, record: &Record) -> String {
        let mut text = match (&record.body, record.shown()) {
            (_, Status::Invalid | Status::Error) => record.message(),
            // `solve --all`: a comment line (which puzzle text skips) before each puzzle's solutions.
            (Body::Solution { grid, number: Some(1) }, _) => {
                format!("# {}\n{}", record.numbered.describe(), self.line_of(grid))
            }
            (Body::Solution { grid, .. }, _) => self.line_of(grid),
            (Body::Solutions { first, second: None }, _) => format!("unique {}", self.line_of(first)),
            (Body::Solutions { first, second: Some(second) }, _) => {
                format!("multiple {} {}", self.line_of(first), self.line_of(second))
            }
            (Body::Count(count), _) => count_text(count),
            (Body::Explanation { core: Some(core), .. }, _) => match record.numbered.entry.puzzle.as_ref() {
                Ok(puzzle) => self.line_of(&only(puzzle.givens(), core)),
                Err(_) => record.message(),
            },
            (Body::Explanation { core: None, forced }, _) => match &record.geometry {
                Some(geometry) if !forced.is_empty() => forced
                    .iter()
                    .map(|(cell, why)| self.forced_text(geometry, *cell, why))
                    .collect::<Vec<_>>()
                    .join("; "),
                _ => format!("{}: has a solution (--cell CELL says why a cell is forced)", record.numbered.describe()),
            },
            (Body::Puzzle(body), _) => self.line_of(&body.puzzle),
            (Body::Analysis { steps: Some(steps), .. }, _) => return self.steps(record, steps),
            (Body::Analysis { domains: Some(domains), .. }, _) => self.line_of(&domains.decided()),
            (Body::Empty | Body::Analysis { domains: None, .. }, _) => record.message(),
        };
        text.push('\n');
        text
    }

    fn fpuzzles(&self, record: &Record) -> String {
        let Ok(puzzle) = &record.numbered.entry.puzzle else { return self.line(record) };
        // A puzzle made or minimised is written to be played: its givens only.
        let made = match &record.body {
            Body::Puzzle(body) => Puzzle::new(puzzle.geometry().clone(), body.puzzle.clone()),
            _ => None,
        };
        if let Some(made) = made {
            return self.fpuzzles_string(record, &made, None);
        }
        let grid = match &record.body {
            Body::Solution { grid, .. } | Body::Solutions { first: grid, .. } => Some(grid.clone()),
            Body::Analysis { domains: Some(domains), steps: None, .. } => Some(domains.decided()),
            _ => None,
        };
        match (grid, record.shown()) {
            (_, Status::Invalid | Status::Error) | (None, _) => self.line(record),
            (Some(grid), _) => self.fpuzzles_string(record, puzzle, Some(&grid)),
        }
    }

    /// `puzzle` (with `grid` filled in) as an f-puzzles string; what
    /// f-puzzles cannot hold is said on stderr, and the record written as a line.
    fn fpuzzles_string(&self, record: &Record, puzzle: &Puzzle, grid: Option<&Grid>) -> String {
        match satdoku::write_fpuzzles(puzzle, grid) {
            Ok(text) => format!("{text}\n"),
            Err(e) => {
                eprintln!("satdoku: {}: no f-puzzles string: {e}", record.numbered.entry.position);
                self.line(record)
            }
        }
    }

    fn grid(&self, record: &Record) -> String {
        let header = match (&record.body, record.shown()) {
            (Body::Empty | Body::Analysis { domains: None, steps: None, .. }, _)
            | (_, Status::Invalid | Status::Error) => record.painted_message(self.palette),
            (Body::Solution { number: Some(k), .. }, _) => format!("{}: solution {k}", record.numbered.describe()),
            (Body::Solution { number: None, .. }, _) => record.numbered.describe(),
            (Body::Count(count), _) => format!("{}: {}", record.numbered.describe(), count_text(count)),
            (Body::Puzzle(_), Status::Solved) => format!("{}: full grid", record.numbered.describe()),
            (Body::Explanation { core: Some(core), .. }, _) if core.is_empty() => format!(
                "{}: unsolvable: the grid's rules alone have no solution, without any given",
                record.numbered.describe()
            ),
            (Body::Explanation { core: Some(core), .. }, _) if core.len() == 1 => {
                format!("{}: unsolvable: this given alone has no solution (in parentheses)", record.numbered.describe())
            }
            (Body::Explanation { core: Some(core), .. }, _) => format!(
                "{}: unsolvable: these {} givens have no solution together (in parentheses)",
                record.numbered.describe(),
                core.len()
            ),
            (Body::Explanation { core: None, forced }, _) if forced.is_empty() => {
                format!("{}: has a solution (--cell CELL says why a cell is forced)", record.numbered.describe())
            }
            (Body::Explanation { core: None, .. }, _) => record.numbered.describe(),
            (Body::Puzzle(body), _) => {
                format!("{}: {} givens", record.numbered.describe(), body.puzzle.filled_count())
            }
            (Body::Analysis { steps: Some(steps), .. }, _) => return self.steps(record, steps),
            (Body::Analysis { count: Some(count), .. }, status) => {
                let mut header = format!("{}: {}", record.numbered.describe(), analysis_text(status, count));
                if let Some(redundant) = &record.redundant {
                    let _ = write!(header, "; redundant givens: {}", redundant.join(" "));
                }
                header
            }
            (_, status) => {
                let status: &str = status.into();
                format!("{}: {status}", record.numbered.describe())
            }
        };
        let mut text = header;
        text.push('\n');
        let failed = matches!(record.shown(), Status::Invalid | Status::Error);
        if let Some(geometry) = record.geometry.as_ref().filter(|_| !failed) {
            match &record.body {
                Body::Solution { grid, .. } => text.push_str(&self.solution_grid(record, grid, geometry)),
                Body::Solutions { first, second } => {
                    text.push_str(&self.solution_grid(record, first, geometry));
                    if let Some(second) = second {
                        text.push('\n');
                        text.push_str(&self.solution_grid(record, second, geometry));
                    }
                }
                Body::Analysis { domains: Some(domains), counts, residual, .. } => {
                    text.push_str(&self.candidate_grid(record, domains, geometry));
                    for line in residual.iter().flatten() {
                        let _ = writeln!(text, "{line}");
                    }
                    text.push_str(&self.counts_text(geometry, counts.as_deref().unwrap_or(&[])));
                }
                Body::Explanation { core, forced } => {
                    if let (Ok(puzzle), Some(core)) = (record.numbered.entry.puzzle.as_ref(), core) {
                        text.push_str(&self.marked(puzzle.givens(), geometry, core, None));
                    }
                    for (cell, why) in forced {
                        let _ = writeln!(text, "{}", self.forced_text(geometry, *cell, why));
                        if let (Ok(puzzle), Forced::By { value, givens }) = (record.numbered.entry.puzzle.as_ref(), why)
                        {
                            text.push_str(&self.marked(puzzle.givens(), geometry, givens, Some((*cell, *value))));
                        }
                    }
                }
                // No solution because of these cells: the givens, those cells marked.
                Body::Empty | Body::Analysis { domains: None, .. } if !record.conflict.is_empty() => {
                    if let Some(givens) = record.givens() {
                        text.push_str(&self.solution_grid(record, givens, geometry));
                    }
                }
                Body::Puzzle(body) => text.push_str(&format::pretty(&body.puzzle, geometry, &self.alphabet)),
                Body::Empty | Body::Count(_) | Body::Analysis { domains: None, .. } => {}
            }
            // Cages, lines and dots do not fit between the digits of a text
            // grid: each clue is a line under it, with its cells (SVG draws them).
            let drew_grid = matches!(
                record.body,
                Body::Solution { .. }
                    | Body::Solutions { .. }
                    | Body::Analysis { domains: Some(_), .. }
                    | Body::Puzzle(_)
            );
            if drew_grid {
                for constraint in geometry.constraints() {
                    let _ = writeln!(text, "clue: {}", constraint.text(geometry.size()));
                }
            }
        }
        if !matches!(record.body, Body::Count(_)) {
            text.push('\n');
        }
        text
    }

    /// `analyze --steps` in line and grid format: the deductions in order,
    /// where they end, and the candidates left.
    fn steps(&self, record: &Record, steps: &[StepLine]) -> String {
        let mut text = format!("{}\n", record.numbered.describe());
        for step in steps {
            match (step, &record.geometry) {
                (StepLine::Text(step), _) => {
                    let _ = writeln!(text, "{step}");
                }
                (StepLine::Grid(domains), Some(geometry)) if self.format == Format::Grid => {
                    text.push_str(&self.candidate_grid(record, domains, geometry));
                    text.push('\n');
                }
                (StepLine::Grid(_), _) => {}
            }
        }
        let last = match (&record.body, record.shown()) {
            (_, Status::Solved) => "solved by propagation alone".to_string(),
            (Body::Analysis { domains: Some(domains), .. }, _) => {
                let open = (0..domains.size() * domains.size()).filter(|&i| domains.count(Cell::from_index(i)) > 1);
                format!("search needed: {} cells still open", open.count())
            }
            _ => format!("contradiction: {}", record.detail().unwrap_or("")),
        };
        let _ = writeln!(text, "{last}");
        if let (Body::Analysis { domains: Some(domains), .. }, Some(geometry)) = (&record.body, &record.geometry) {
            text.push_str(&self.candidate_grid(record, domains, geometry));
        }
        text.push('\n');
        text
    }

    /// The pictures of a record, each with the end of its file name
    /// (`puzzle-0003` and this): one for a solution, two for `--unique`'s
    /// two solutions, one per snapshot of `--steps`; none for bad input.
    pub fn pictures(&self, record: &Record) -> Vec<(String, String)> {
        let (Some(geometry), Some(givens)) = (&record.geometry, record.givens()) else { return Vec::new() };
        if matches!(record.shown(), Status::Invalid | Status::Error) {
            return Vec::new();
        }
        let status: &str = record.shown().into();
        let caption = match &record.body {
            Body::Solution { number: Some(k), .. } => format!("{}: solution {k}", record.numbered.describe()),
            Body::Count(count) => format!("{}: {}", record.numbered.describe(), count_text(count)),
            Body::Analysis { count: Some(count), domains: Some(_), .. } => {
                format!("{}: {}", record.numbered.describe(), analysis_text(record.shown(), count))
            }
            _ => match record.detail() {
                Some(detail) => format!("{}: {status}: {detail}", record.numbered.describe()),
                None => format!("{}: {status}", record.numbered.describe()),
            },
        };
        let picture = || {
            Picture::new(geometry, &self.alphabet)
                .with_givens(givens)
                .with_conflict(record.conflict.clone())
                .with_caption(caption.clone())
        };
        if !record.snapshots.is_empty() {
            let last = record.snapshots.len();
            return record
                .snapshots
                .iter()
                .enumerate()
                .map(|(i, snapshot)| {
                    let caption = format!("puzzle {}, {}/{last}: {}", record.numbered.index, i + 1, snapshot.caption);
                    let picture = Picture::new(geometry, &self.alphabet)
                        .with_givens(givens)
                        .with_candidates(&snapshot.domains)
                        .with_marked(snapshot.marked.into_iter().collect())
                        .with_caption(caption);
                    (format!("-step-{:03}", i + 1), picture.to_svg())
                })
                .collect();
        }
        match &record.body {
            Body::Solution { grid, number } => {
                let suffix = number.map_or(String::new(), |k| format!("-solution-{k}"));
                vec![(suffix, picture().with_solution(grid).to_svg())]
            }
            Body::Solutions { first, second } => {
                let mut pictures = vec![(String::new(), picture().with_solution(first).to_svg())];
                if let Some(second) = second {
                    pictures.push(("-2".into(), picture().with_solution(second).to_svg()));
                }
                pictures
            }
            Body::Analysis { domains: Some(domains), .. } => {
                vec![(String::new(), picture().with_candidates(domains).to_svg())]
            }
            // A puzzle made or minimised: its own givens, not those it was read with.
            Body::Puzzle(body) => {
                let picture = Picture::new(geometry, &self.alphabet).with_givens(&body.puzzle).with_caption(caption);
                vec![(String::new(), picture.to_svg())]
            }
            // The givens, those with no solution together marked.
            Body::Explanation { core, .. } => {
                vec![(String::new(), picture().with_marked(core.clone().unwrap_or_default()).to_svg())]
            }
            Body::Empty | Body::Count(_) | Body::Analysis { domains: None, .. } => {
                vec![(String::new(), picture().to_svg())]
            }
        }
    }

    /// The style of a cell: a conflict, a given, or else `other`.
    fn cell_style(&self, record: &Record, index: usize, other: Style) -> Style {
        let cell = Cell::from_index(index);
        if record.conflict.contains(&cell) {
            Palette::CONFLICT
        } else if record.givens().is_some_and(|g| g.get(cell).is_some()) {
            Palette::GIVEN
        } else {
            other
        }
    }

    /// A grid of digits: givens bold, solved digits coloured, conflicts marked.
    fn solution_grid(&self, record: &Record, grid: &Grid, geometry: &Geometry) -> String {
        let n = grid.size();
        format::pretty_painted(
            geometry,
            |i| format::symbol(grid.cells()[i], n, &self.alphabet),
            |i, text| match grid.cells()[i] {
                None if !record.conflict.contains(&Cell::from_index(i)) => text,
                _ => self.palette.paint(self.cell_style(record, i, Palette::SOLVED), &text),
            },
        )
    }

    /// The pencil-mark grid: a fixed cell shows its value, an open one its
    /// candidates; givens, fixed cells and open cells each in their colour.
    fn candidate_grid(&self, record: &Record, domains: &Domains, geometry: &Geometry) -> String {
        format::pretty_painted(
            geometry,
            |i| candidate_text(domains, Cell::from_index(i), &self.alphabet),
            |i, text| {
                let other = if domains.count(Cell::from_index(i)) == 1 { Palette::FIXED } else { Palette::OPEN };
                self.palette.paint(self.cell_style(record, i, other), &text)
            },
        )
    }
}

impl Renderer {
    /// `--counts` in words, a line per open cell: `r1c2: 3 in 5 solutions, 5 in at least 10`.
    fn counts_text(&self, geometry: &Geometry, counts: &[CandidateCount]) -> String {
        let mut text = String::new();
        let mut k = 0;
        while k < counts.len() {
            let cell = counts[k].cell;
            let parts: Vec<String> = counts[k..]
                .iter()
                .take_while(|c| c.cell == cell)
                .map(|c| {
                    let plural = if c.count.count == 1 && !c.count.capped { "" } else { "s" };
                    let symbol = format::symbol(Some(c.value), geometry.size(), &self.alphabet);
                    format!("{symbol} in {} solution{plural}", count_text(&c.count))
                })
                .collect();
            k += parts.len();
            let _ = writeln!(text, "{}: {}", geometry.cell_name(cell), parts.join(", "));
        }
        text
    }

    /// Why a cell is forced, in words: `r1c4 = 1, forced by r2c2 r3c3`.
    fn forced_text(&self, geometry: &Geometry, cell: Cell, why: &Forced) -> String {
        let n = geometry.size();
        let name = geometry.cell_name(cell);
        let symbol = |v: satdoku::Value| format::symbol(Some(v), n, &self.alphabet);
        match why {
            Forced::Given(v) => format!("{name} = {}, a given", symbol(*v)),
            Forced::By { value, givens } if givens.is_empty() => {
                format!("{name} = {}, forced by the rules alone (no given)", symbol(*value))
            }
            Forced::By { value, givens } => {
                let names: Vec<String> = givens.iter().map(|&c| geometry.cell_name(c)).collect();
                format!("{name} = {}, forced by {} givens: {}", symbol(*value), givens.len(), names.join(" "))
            }
            Forced::Open(a, b) => {
                format!("{name} is not forced: it is {} in one solution, {} in another", symbol(*a), symbol(*b))
            }
            Forced::Unsolvable => format!("{name}: the puzzle has no solution"),
        }
    }

    /// The givens as a grid, those of `marked` in parentheses, and `cell`'s
    /// value in brackets.
    fn marked(
        &self,
        givens: &Grid,
        geometry: &Geometry,
        marked: &[Cell],
        cell: Option<(Cell, satdoku::Value)>,
    ) -> String {
        let n = geometry.size();
        format::pretty_cells(geometry, |i| {
            let c = Cell::from_index(i);
            match (givens.get(c), cell) {
                (_, Some((at, value))) if at == c => format!("[{}]", format::symbol(Some(value), n, &self.alphabet)),
                (Some(v), _) if marked.contains(&c) => format!("({})", format::symbol(Some(v), n, &self.alphabet)),
                (v, _) => format::symbol(v, n, &self.alphabet),
            }
        })
    }
}

/// The givens of `cells` alone.
fn only(givens: &Grid, cells: &[Cell]) -> Grid {
    let mut grid = Grid::empty(givens.size());
    for &cell in cells {
        grid.set(cell, givens.get(cell));
    }
    grid
}

fn put_count(put: &mut impl FnMut(&str, Json), count: &Count) {
    put("count", count.count.into());
    if count.capped {
        put("capped", true.into());
    }
}

/// An analysis's status and count: `unique, 1 solution`, `multiple, at
/// least 1000 solutions`; with `--max` 0 or 1, where the count stops at 1,
/// `multiple, more than one solution` (two are known).
fn analysis_text(status: Status, count: &Count) -> String {
    if status == Status::Multiple && count.count < 2 {
        return "multiple, more than one solution".to_string();
    }
    let status: &str = status.into();
    let plural = if count.count == 1 { "" } else { "s" };
    format!("{status}, {} solution{plural}", count_text(count))
}

/// `12`, or `at least 12` when counting stopped at the limit.
fn count_text(count: &Count) -> String {
    if count.capped {
        format!("at least {}", count.count)
    } else {
        count.count.to_string()
    }
}

/// The candidates of one cell: its symbols run together, or numbers joined by
/// commas past the alphabet.
fn candidate_text(domains: &Domains, cell: Cell, alphabet: &Alphabet) -> String {
    let symbols = domains.values(cell).map(|v| format::symbol(Some(v), domains.size(), alphabet));
    if alphabet.covers(domains.size()) {
        symbols.collect()
    } else {
        symbols.collect::<Vec<_>>().join(",")
    }
}

fn candidate_strings(domains: &Domains, alphabet: &Alphabet) -> Vec<String> {
    (0..domains.size() * domains.size()).map(|i| candidate_text(domains, Cell::from_index(i), alphabet)).collect()
}
