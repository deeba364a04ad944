//! The one output layer: typed records, rendered as lines, grids or JSON Lines
//! on stdout, with their diagnostics on stderr, and the exit code they add up to.
//! `render` turns a record into text; `sink` writes it, in input order.

use std::sync::Arc;

use anstyle::{AnsiColor, Style};
use serde::Serialize;

use satdoku::{Alphabet, CandidateCount, Cell, Contradiction, Count, Domains, Forced, Geometry, Grid};

use super::batch::Numbered;

mod render;
mod sink;

pub use render::Renderer;
pub use sink::{flush_on_signal, Emitter, Job, Stdout};

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
            ColorChoice::Auto => auto_color(stream),
        };
        Palette { on }
    }
}

/// `--color auto` on `stream`, as anstream decides it (NO_COLOR, CLICOLOR,
/// TERM, a terminal), except that `CLICOLOR_FORCE=0` forces nothing: only a
/// value other than 0 does, as the CLICOLOR convention says (anstream takes
/// any value).
fn auto_color(stream: &impl anstream::stream::RawStream) -> bool {
    let force = std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
    if anstyle_query::no_color() {
        return false;
    }
    if force {
        return true;
    }
    let clicolor = anstyle_query::clicolor();
    clicolor != Some(false)
        && stream.is_terminal()
        && (anstyle_query::term_supports_color() || clicolor == Some(true) || anstyle_query::is_ci())
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

    /// Whether it colours at all.
    pub fn is_on(self) -> bool {
        self.on
    }

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
    /// Whether every given is shown needed (`generate`, where a minimal
    /// puzzle was asked for), and how many were kept unproven.
    pub minimal: Option<(bool, usize)>,
}

/// One output record: the puzzle it answers, what became of it, what it carries.
pub struct Record<'a> {
    /// The puzzle as read: its index, name and place in the input.
    pub numbered: &'a Numbered,
    pub status: Status,
    /// The status of the answer an `error` record keeps (its proof could
    /// not be made): what the text formats show on stdout, the error going
    /// to stderr. JSON says `"error"` and keeps the answer beside it.
    pub answered: Option<Status>,
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
            answered: None,
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
    /// error record saying why there is none: the answer it proves (a
    /// count, a solution, candidates) is kept in it, found all the same.
    pub fn proved(self, write: impl FnOnce() -> Result<String, String>) -> Record<'a> {
        match write() {
            Ok(path) => Record { proof: Some(path), ..self },
            Err(error) => Record { status: Status::Error, answered: Some(self.status), error: Some(error), ..self },
        }
    }

    /// The status the text formats show: the answer's, where an error
    /// record keeps one.
    fn shown(&self) -> Status {
        self.answered.unwrap_or(self.status)
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

    /// The reason or the error. An answer whose proof failed shows its own
    /// reason: its error goes to stderr.
    fn detail(&self) -> Option<&str> {
        match (self.answered, self.status) {
            (Some(_), _) => self.reason.as_deref(),
            (None, Status::Error) => self.error.as_deref().or(self.reason.as_deref()),
            _ => self.reason.as_deref().or(self.error.as_deref()),
        }
    }

    /// `status: puzzle 3 (file:12): detail`.
    fn message(&self) -> String {
        self.painted_message(Palette::default())
    }

    /// [`Record::message`], a failure's status in the conflict colour.
    fn painted_message(&self, palette: Palette) -> String {
        let status: &str = self.shown().into();
        let status = match self.shown() {
            Status::Unsolvable | Status::Invalid | Status::Error => palette.paint(Palette::CONFLICT, status),
            _ => status.to_string(),
        };
        match self.detail() {
            Some(detail) => format!("{status}: {}: {detail}", self.numbered.describe()),
            None => format!("{status}: {}", self.numbered.describe()),
        }
    }
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
