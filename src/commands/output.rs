//! The one output layer: typed records, rendered as lines, grids or JSON Lines
//! on stdout, with their diagnostics on stderr, and the exit code they add up to.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::sync::{mpsc, Arc, Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::{Duration, Instant};

use anstyle::{AnsiColor, Style};
use serde::Serialize;
use serde_json::{Map, Value as Json};

use satdoku::format;
use satdoku::{
    Alphabet, CandidateCount, Cell, Contradiction, Count, Domains, Forced, Geometry, Grid, Layout, Picture, Puzzle,
};

use super::batch::Numbered;

/// The output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per record: the grid in n² symbols (numbers past the
    /// alphabet), a count, or a message.
    Line,
    /// A grid with box borders under a header line, for people.
    Grid,
    /// JSON Lines, one object per record.
    Json,
    /// The f-puzzles (and SudokuPad) compressed string of the puzzle with
    /// its solution (or fixed cells) filled in; messages as in `line`.
    Fpuzzles,
    /// A picture (SVG) of each grid: one document per record on stdout,
    /// or one file per record with `--out-dir`.
    Svg,
}

/// `--color`: when grids and messages are coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// When the output is a terminal and NO_COLOR is unset (as ripgrep does;
    /// TERM=dumb and CLICOLOR=0 turn it off too, CLICOLOR_FORCE on).
    #[default]
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// The palette for text written to `stream`.
    pub fn palette(self, stream: &impl anstream::stream::RawStream) -> Palette {
        let on = match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never,
        };
        Palette { on }
    }
}

/// The colours of the grid format, or none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Palette {
    on: bool,
}

impl Palette {
    /// A given: bold, in the terminal's own colour.
    pub const GIVEN: Style = Style::new().bold();
    /// A digit the solver filled in.
    pub const SOLVED: Style = AnsiColor::Cyan.on_default();
    /// `analyze`: a cell fixed in every solution (not a given).
    pub const FIXED: Style = AnsiColor::Green.on_default().bold();
    /// `analyze`: the candidates of an open cell.
    pub const OPEN: Style = AnsiColor::Yellow.on_default();
    /// The cells a contradiction names, and what went wrong.
    pub const CONFLICT: Style = AnsiColor::Red.on_default().bold();

    /// This palette where `format` takes colour (the grid format), else
    /// none: `line` and `json` are for scripts, and SVG has its own colours.
    pub fn for_format(self, format: Format) -> Palette {
        Palette { on: self.on && format == Format::Grid }
    }

    /// `text` in `style`, or as it is when colour is off.
    pub fn paint(self, style: Style, text: &str) -> String {
        if self.on {
            format!("{style}{text}{style:#}")
        } else {
            text.to_string()
        }
    }
}

/// What became of one input puzzle: the `status` of its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, strum::IntoStaticStr)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Status {
    /// A verified solution (or, from `count`, at least one).
    Solved,
    /// Exactly one solution.
    Unique,
    /// Two or more solutions.
    Multiple,
    /// No solution, confirmed.
    Unsolvable,
    /// Propagation alone leaves cells open (`analyze --propagate`).
    Open,
    /// The input could not be read as a puzzle.
    Invalid,
    /// No answer: a time limit, an external solver's failure, or a bug.
    Error,
}

impl Status {
    /// The exit code a run with this record has at least: 2 for bad input or
    /// no answer, 1 for no solution, 0 otherwise.
    fn exit_code(self) -> u8 {
        match self {
            Status::Invalid | Status::Error => 2,
            Status::Unsolvable => 1,
            _ => 0,
        }
    }
}

/// What a record carries beyond its status.
pub enum Body {
    /// Nothing: bad input, an error or no solution (see [`Record::detail`]).
    Empty,
    /// One verified solution; `number` counts the solutions of `solve --all`.
    Solution { grid: Grid, number: Option<u64> },
    /// `solve --unique`: the solution, or two that show it is not unique.
    Solutions { first: Grid, second: Option<Grid> },
    /// `count`.
    Count(Count),
    /// `analyze`: every cell's candidates (none when there is no solution),
    /// with the count of solutions or with the deductions of propagation (`--steps`).
    Analysis {
        domains: Option<Domains>,
        count: Option<Count>,
        steps: Option<Vec<StepLine>>,
        /// `--counts`: how many solutions hold each candidate of each open cell.
        counts: Option<Vec<CandidateCount>>,
        /// For several solutions: the open cells and what links them, in words.
        residual: Option<Vec<String>>,
    },
    /// `explain`: a minimal set of givens with no solution together (none
    /// when there is a solution), and why each cell asked about is forced.
    Explanation { core: Option<Vec<Cell>>, forced: Vec<(Cell, Forced)> },
    /// `generate` and `minimize`: a puzzle with its one solution (a full grid
    /// from `generate --solved` is its own solution).
    Puzzle(Box<PuzzleBody>),
}

/// One line of `analyze --steps`: a deduction in words, or the candidate grid
/// at the end of a round (shown in grid format only).
pub enum StepLine {
    Text(String),
    Grid(Domains),
}

/// A puzzle made or minimised.
pub struct PuzzleBody {
    pub puzzle: Grid,
    pub solution: Grid,
    /// The seed that made it (`generate`).
    pub seed: Option<u64>,
    /// Givens removed (`minimize`).
    pub removed: Option<usize>,
}

/// One output record: the puzzle it answers, what became of it, what it carries.
pub struct Record<'a> {
    /// The puzzle as read: its index, name and place in the input.
    pub numbered: &'a Numbered,
    pub status: Status,
    pub body: Body,
    /// Why there is no solution, when known.
    pub reason: Option<String>,
    /// What went wrong, for invalid and error records.
    pub error: Option<String>,
    /// The grid the puzzle is played on, for drawing it.
    pub geometry: Option<Arc<Geometry>>,
    /// The DRAT proof written for the answer (`--proof`, `--proof-dir`).
    pub proof: Option<String>,
    /// `analyze --redundant`: the givens that may each go alone, the puzzle staying unique.
    pub redundant: Option<Vec<String>>,
    /// The cells the reason names (two clashing givens, say), marked in pictures.
    pub conflict: Vec<Cell>,
    /// `analyze --steps --format svg`: the candidates after each placement.
    pub snapshots: Vec<Snapshot>,
}

/// The candidates at one point of a propagation, for a picture.
pub struct Snapshot {
    /// What was just done, in words.
    pub caption: String,
    pub domains: Domains,
    /// The cell just placed, if any.
    pub marked: Option<Cell>,
}

impl<'a> Record<'a> {
    /// A record of `numbered` with `status` and nothing else yet.
    pub fn new(numbered: &'a Numbered, status: Status) -> Record<'a> {
        Record {
            numbered,
            status,
            body: Body::Empty,
            reason: None,
            error: None,
            geometry: numbered.entry.puzzle.as_ref().ok().map(|p| Arc::clone(p.geometry())),
            proof: None,
            redundant: None,
            conflict: Vec::new(),
            snapshots: Vec::new(),
        }
    }

    /// This record with the proof of its claim written by `write`, or an
    /// error record saying why there is none.
    pub fn proved(self, write: impl FnOnce() -> Result<String, String>) -> Record<'a> {
        match write() {
            Ok(path) => Record { proof: Some(path), ..self },
            Err(error) => Record::failed(self.numbered, Status::Error, error),
        }
    }

    /// An `unsolvable` record of `numbered`, with the contradiction that shows it
    /// when there is one: its words, and the cells it names.
    pub fn unsolvable(
        numbered: &'a Numbered,
        contradiction: Option<&Contradiction>,
        alphabet: &Alphabet,
    ) -> Record<'a> {
        let mut record = Record::new(numbered, Status::Unsolvable);
        if let (Some(contradiction), Some(geometry)) = (contradiction, &record.geometry) {
            record.reason = Some(contradiction.describe(geometry, alphabet));
            record.conflict = contradiction.cells();
        }
        record
    }

    /// The givens of the puzzle, when it was read.
    fn givens(&self) -> Option<&Grid> {
        self.numbered.entry.puzzle.as_ref().ok().map(|p| p.givens())
    }

    /// An `invalid` or `error` record saying `error`.
    pub fn failed(numbered: &'a Numbered, status: Status, error: impl ToString) -> Record<'a> {
        Record { error: Some(error.to_string()), ..Record::new(numbered, status) }
    }

    pub fn with_body(self, body: Body) -> Record<'a> {
        Record { body, ..self }
    }

    /// The reason or the error.
    fn detail(&self) -> Option<&str> {
        self.reason.as_deref().or(self.error.as_deref())
    }

    /// `status: puzzle 3 (file:12): detail`.
    fn message(&self) -> String {
        self.painted_message(Palette::default())
    }

    /// [`Record::message`], a failure's status in the conflict colour.
    fn painted_message(&self, palette: Palette) -> String {
        let status: &str = self.status.into();
        let status = match self.status {
            Status::Unsolvable | Status::Invalid | Status::Error => palette.paint(Palette::CONFLICT, status),
            _ => status.to_string(),
        };
        match self.detail() {
            Some(detail) => format!("{status}: {}: {detail}", self.numbered.describe()),
            None => format!("{status}: {}", self.numbered.describe()),
        }
    }
}

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
    pub out_dir: Option<std::path::PathBuf>,
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
        let mut text = match (&record.body, record.status) {
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
        match (grid, record.status) {
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
        let header = match (&record.body, record.status) {
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
                let plural = if count.count == 1 { "" } else { "s" };
                let more = if count.capped { "at least " } else { "" };
                let status: &str = status.into();
                let mut header =
                    format!("{}: {status}, {more}{} solution{plural}", record.numbered.describe(), count.count);
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
        let failed = matches!(record.status, Status::Invalid | Status::Error);
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
        let last = match (&record.body, record.status) {
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
        if matches!(record.status, Status::Invalid | Status::Error) {
            return Vec::new();
        }
        let status: &str = record.status.into();
        let caption = match &record.body {
            Body::Solution { number: Some(k), .. } => format!("{}: solution {k}", record.numbered.describe()),
            Body::Count(count) => format!("{}: {}", record.numbered.describe(), count_text(count)),
            Body::Analysis { count: Some(count), domains: Some(_), .. } => {
                let plural = if count.count == 1 { "" } else { "s" };
                let more = if count.capped { "at least " } else { "" };
                format!("{}: {status}, {more}{} solution{plural}", record.numbered.describe(), count.count)
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

/// The exit code a run adds up to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    code: u8,
}

impl Summary {
    /// Take in one record's status.
    pub fn add(&mut self, status: Status) {
        self.code = self.code.max(status.exit_code());
    }

    /// 2 if any input was bad or got no answer, else 1 if any puzzle had no
    /// solution, else 0.
    pub fn code(self) -> u8 {
        self.code
    }

    /// Both runs' news together.
    pub fn merge(self, other: Summary) -> Summary {
        Summary { code: self.code.max(other.code) }
    }
}

/// Where a command's records go: rendered, straight to stdout and stderr, or
/// into the job a worker thread answers ([`Job`]), which the writer prints
/// in input order.
pub struct Emitter {
    pub renderer: Renderer,
    sink: Sink,
    pub summary: Summary,
}

enum Sink {
    Direct(Stdout),
    /// The job under way, none between jobs.
    Job(Option<Job>),
}

impl Emitter {
    /// Records straight to stdout and stderr.
    pub fn direct(renderer: Renderer) -> Emitter {
        Emitter { renderer, sink: Sink::Direct(Stdout::new()), summary: Summary::default() }
    }

    /// Records into the jobs of a worker thread: see [`Emitter::start`].
    pub fn for_jobs(renderer: Renderer) -> Emitter {
        Emitter { renderer, sink: Sink::Job(None), summary: Summary::default() }
    }

    /// Render the records from here on into `job`, until [`Emitter::finish`].
    pub fn start(&mut self, job: Job) {
        self.sink = Sink::Job(Some(job));
    }

    /// Mark the job under way done: every record of it is written.
    pub fn finish(&mut self) {
        if let Sink::Job(Some(job)) = &mut self.sink {
            lock(&job.0).done = true;
        }
        self.sink = Sink::Job(None);
    }

    /// Render one record.
    pub fn emit(&mut self, record: Record) -> io::Result<()> {
        self.summary.add(record.status);
        if let (Format::Svg, Some(dir)) = (self.renderer.format, &self.renderer.out_dir) {
            let mut failed = Vec::new();
            for (suffix, svg) in self.renderer.pictures(&record) {
                let path = dir.join(format!("puzzle-{:04}{suffix}.svg", record.numbered.index));
                if let Err(e) = std::fs::write(&path, svg) {
                    let _ = writeln!(failed, "satdoku: {}: cannot write: {e}", path.display());
                }
            }
            if !failed.is_empty() {
                self.summary.add(Status::Error);
                self.write(&[], &failed)?;
            }
        }
        match &mut self.sink {
            Sink::Direct(stdout) => {
                let (mut out, mut err) = (Vec::new(), Vec::new());
                self.renderer.stderr(&record, &mut err);
                self.renderer.stdout(&record, &mut out);
                stdout.write_record(&out, &err)
            }
            Sink::Job(job) => {
                let mut records = lock(&job.as_ref().expect("a job is under way").0);
                let JobRecords { out, err, .. } = &mut *records;
                self.renderer.stderr(&record, err);
                self.renderer.stdout(&record, out);
                Ok(())
            }
        }
    }

    /// A line for stderr only, in its place among the records (`--stats`).
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        self.write(&[], format!("{text}\n").as_bytes())
    }

    fn write(&mut self, out: &[u8], err: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Direct(stdout) => stdout.write_record(out, err),
            Sink::Job(job) => {
                let mut records = lock(&job.as_ref().expect("a job is under way").0);
                records.out.extend_from_slice(out);
                records.err.extend_from_slice(err);
                Ok(())
            }
        }
    }

    /// Flush what stdout holds.
    pub fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Direct(stdout) => stdout.flush(),
            Sink::Job(_) => Ok(()),
        }
    }
}

/// stdout's buffer, one for the process. Each record is written into it
/// whole under its lock, so that a signal can flush what was answered before
/// it ([`flush_on_signal`]) without ever cutting a record in two.
static BUFFER: Mutex<Option<io::BufWriter<io::Stdout>>> = Mutex::new(None);

/// The records of one job of a parallel run (a chunk of puzzles), written
/// record by record as its worker answers them.
#[derive(Clone, Default)]
pub struct Job(Arc<Mutex<JobRecords>>);

#[derive(Default)]
struct JobRecords {
    out: Vec<u8>,
    err: Vec<u8>,
    /// Every record of the job is written.
    done: bool,
}

/// The jobs of the parallel run under way made and not yet printed, by
/// number: the writer prints each once it is done, in order, and a signal
/// prints what is answered of the first of them too. There is one parallel
/// run at a time in a process.
static JOBS: Mutex<BTreeMap<usize, Job>> = Mutex::new(BTreeMap::new());

impl Job {
    /// Job `number` of the run, made in order 0, 1, …, before a worker has it.
    pub fn open(number: usize) -> Job {
        let job = Job::default();
        lock(&JOBS).insert(number, job.clone());
        job
    }

    /// Forget the jobs left unprinted (a run that ended on an error).
    pub fn close_all() {
        lock(&JOBS).clear();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How long a signal waits for the buffer, and then for its flush, before
/// satdoku exits without it: a writer blocked on a pipe nobody reads holds
/// the buffer, and must not keep the signal from ending satdoku.
const SIGNAL_FLUSH: Duration = Duration::from_millis(300);

/// Buffered stdout, flushed after every record when a person reads it live.
pub struct Stdout {
    eager: bool,
}

impl Stdout {
    pub fn new() -> Stdout {
        Stdout { eager: io::stdout().is_terminal() }
    }

    /// Write one record's (or one chunk's) text: the diagnostics to stderr,
    /// the data to stdout.
    pub fn write_record(&mut self, out: &[u8], err: &[u8]) -> io::Result<()> {
        if self.eager || !err.is_empty() {
            // What goes to a terminal goes around the progress bar.
            return super::progress::suspend(|| self.write_now(out, err));
        }
        self.write_now(out, err)
    }

    fn write_now(&mut self, out: &[u8], err: &[u8]) -> io::Result<()> {
        self.write_into(&mut lock(&BUFFER), out, err)
    }

    /// Print job `number` of a parallel run, done, and forget it. It leaves
    /// [`JOBS`] with stdout's buffer held, so that a signal finds it in one
    /// place or the other, never in neither nor in both.
    pub fn print_job(&mut self, number: usize) -> io::Result<()> {
        let Some(job) = lock(&JOBS).get(&number).cloned() else { return Ok(()) };
        // What goes to a terminal goes around the progress bar.
        let around_bar = self.eager || !lock(&job.0).err.is_empty();
        let mut print = || {
            let mut buffer = lock(&BUFFER);
            lock(&JOBS).remove(&number);
            let records = std::mem::take(&mut *lock(&job.0));
            self.write_into(&mut buffer, &records.out, &records.err)
        };
        match around_bar {
            true => super::progress::suspend(print),
            false => print(),
        }
    }

    fn write_into(&mut self, buffer: &mut Option<io::BufWriter<io::Stdout>>, out: &[u8], err: &[u8]) -> io::Result<()> {
        let buffer = buffer.get_or_insert_with(|| io::BufWriter::with_capacity(1 << 16, io::stdout()));
        if !err.is_empty() {
            // On a terminal, what came before goes first.
            if self.eager {
                buffer.flush()?;
            }
            // Diagnostics that cannot be written (stderr closed) are dropped, not fatal.
            let _ = io::stderr().lock().write_all(err);
        }
        buffer.write_all(out)?;
        if self.eager {
            buffer.flush()?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        lock(&BUFFER).as_mut().map_or(Ok(()), io::Write::flush)
    }
}

/// Flush the records written so far, whole, as a signal ends satdoku:
/// answered records are never lost to the buffer. A writer stuck on a full
/// pipe holds the buffer, and a flush into it would block too: past
/// [`SIGNAL_FLUSH`] for each, satdoku exits without them.
pub fn flush_on_signal() {
    let start = Instant::now();
    let mut buffer = loop {
        match BUFFER.try_lock() {
            Ok(buffer) => break buffer,
            Err(TryLockError::Poisoned(e)) => break e.into_inner(),
            Err(TryLockError::WouldBlock) if start.elapsed() < SIGNAL_FLUSH => {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(TryLockError::WouldBlock) => return,
        }
    };
    // The jobs of a parallel run not printed yet, in order, up to the first
    // one not done: the records answered of it so far.
    let (mut out, mut err) = (Vec::new(), Vec::new());
    for job in lock(&JOBS).values() {
        let records = lock(&job.0);
        out.extend_from_slice(&records.out);
        err.extend_from_slice(&records.err);
        if !records.done {
            break;
        }
    }
    let pending = match buffer.take() {
        None if out.is_empty() && err.is_empty() => None,
        pending => Some(pending.unwrap_or_else(|| io::BufWriter::new(io::stdout()))),
    };
    if let Some(mut pending) = pending {
        let (done, flushed) = mpsc::channel();
        // A flush blocked on the pipe stays behind on its own thread.
        let flusher = std::thread::Builder::new().spawn(move || {
            let _ = io::stderr().lock().write_all(&err);
            let _ = pending.write_all(&out);
            let _ = pending.flush();
            let _ = done.send(());
        });
        if flusher.is_ok() {
            let _ = flushed.recv_timeout(SIGNAL_FLUSH);
        }
    }
    // No record after the signal: the buffer stays locked until the exit.
    std::mem::forget(buffer);
}
