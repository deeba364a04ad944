//! The one output layer: typed records, rendered as lines, grids or JSON Lines
//! on stdout, with their diagnostics on stderr, and the exit code they add up to.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value as Json};

use satdoku::format;
use satdoku::{Alphabet, CandidateCount, Cell, Count, Domains, Forced, Geometry, Grid};

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
}

/// One line of `analyze --steps`: a deduction in words, or the candidate grid
/// at the end of a round (shown in grid format only).
pub enum StepLine {
    Text(String),
    Grid(Domains),
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
        let status: &str = self.status.into();
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
        };
        out.extend_from_slice(text.as_bytes());
    }

    /// What the record says on stderr: bad input and errors, nothing else.
    pub fn stderr(&self, record: &Record, err: &mut Vec<u8>) {
        let text = match (record.status, &record.error) {
            // A parse error names its own place.
            (Status::Invalid, Some(error)) => format!("satdoku: {error}\n"),
            (Status::Error, Some(error)) => format!("satdoku: {}: {error}\n", record.numbered.describe()),
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
            (Body::Analysis { steps: Some(steps), .. }, _) => return self.steps(record, steps),
            (Body::Analysis { domains: Some(domains), .. }, _) => self.line_of(&domains.decided()),
            (Body::Empty | Body::Analysis { domains: None, .. }, _) => record.message(),
        };
        text.push('\n');
        text
    }

    fn grid(&self, record: &Record) -> String {
        let header = match (&record.body, record.status) {
            (Body::Empty | Body::Analysis { domains: None, steps: None, .. }, _)
            | (_, Status::Invalid | Status::Error) => record.message(),
            (Body::Solution { number: Some(k), .. }, _) => format!("{}: solution {k}", record.numbered.describe()),
            (Body::Solution { number: None, .. }, _) => record.numbered.describe(),
            (Body::Count(count), _) => format!("{}: {}", record.numbered.describe(), count_text(count)),
            (Body::Explanation { core: Some(core), .. }, _) => format!(
                "{}: unsolvable: these {} givens have no solution together (in parentheses)",
                record.numbered.describe(),
                core.len()
            ),
            (Body::Explanation { core: None, forced }, _) if forced.is_empty() => {
                format!("{}: has a solution (--cell CELL says why a cell is forced)", record.numbered.describe())
            }
            (Body::Explanation { core: None, .. }, _) => record.numbered.describe(),
            (Body::Analysis { steps: Some(steps), .. }, _) => return self.steps(record, steps),
            (Body::Analysis { count: Some(count), .. }, status) => {
                let plural = if count.count == 1 { "" } else { "s" };
                let more = if count.capped { "at least " } else { "" };
                let status: &str = status.into();
                format!("{}: {status}, {more}{} solution{plural}", record.numbered.describe(), count.count)
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
                Body::Solution { grid, .. } => text.push_str(&format::pretty(grid, geometry, &self.alphabet)),
                Body::Solutions { first, second } => {
                    text.push_str(&format::pretty(first, geometry, &self.alphabet));
                    if let Some(second) = second {
                        text.push('\n');
                        text.push_str(&format::pretty(second, geometry, &self.alphabet));
                    }
                }
                Body::Analysis { domains: Some(domains), counts, residual, .. } => {
                    text.push_str(&candidate_grid(domains, geometry, &self.alphabet));
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
                Body::Empty | Body::Count(_) | Body::Analysis { domains: None, .. } => {}
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
                    text.push_str(&candidate_grid(domains, geometry, &self.alphabet));
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
            text.push_str(&candidate_grid(domains, geometry, &self.alphabet));
        }
        text.push('\n');
        text
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

/// The pencil-mark grid: a fixed cell shows its value, an open one its candidates.
fn candidate_grid(domains: &Domains, geometry: &Geometry, alphabet: &Alphabet) -> String {
    format::pretty_cells(geometry, |i| candidate_text(domains, Cell::from_index(i), alphabet))
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
/// to buffers a worker thread fills for the writer, which prints them in input
/// order.
pub struct Emitter {
    pub renderer: Renderer,
    sink: Sink,
    pub summary: Summary,
}

enum Sink {
    Direct(Stdout),
    Buffered { out: Vec<u8>, err: Vec<u8> },
}

impl Emitter {
    /// Records straight to stdout and stderr.
    pub fn direct(renderer: Renderer) -> Emitter {
        Emitter { renderer, sink: Sink::Direct(Stdout::new()), summary: Summary::default() }
    }

    /// Records kept in memory, for a worker thread; see [`Emitter::take`].
    pub fn buffered(renderer: Renderer) -> Emitter {
        Emitter { renderer, sink: Sink::Buffered { out: Vec::new(), err: Vec::new() }, summary: Summary::default() }
    }

    /// Render one record.
    pub fn emit(&mut self, record: Record) -> io::Result<()> {
        self.summary.add(record.status);
        match &mut self.sink {
            Sink::Direct(stdout) => {
                let (mut out, mut err) = (Vec::new(), Vec::new());
                self.renderer.stderr(&record, &mut err);
                self.renderer.stdout(&record, &mut out);
                stdout.write_record(&out, &err)
            }
            Sink::Buffered { out, err } => {
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
            Sink::Buffered { out: o, err: e } => {
                o.extend_from_slice(out);
                e.extend_from_slice(err);
                Ok(())
            }
        }
    }

    /// The stdout and stderr text kept so far, leaving the buffers empty.
    pub fn take(&mut self) -> (Vec<u8>, Vec<u8>) {
        match &mut self.sink {
            Sink::Direct(_) => (Vec::new(), Vec::new()),
            Sink::Buffered { out, err } => (std::mem::take(out), std::mem::take(err)),
        }
    }

    /// Flush what stdout holds.
    pub fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Direct(stdout) => stdout.flush(),
            Sink::Buffered { .. } => Ok(()),
        }
    }
}

/// Buffered stdout, flushed after every record when a person reads it live.
pub struct Stdout {
    out: io::BufWriter<io::StdoutLock<'static>>,
    eager: bool,
}

impl Stdout {
    pub fn new() -> Stdout {
        Stdout { out: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()), eager: io::stdout().is_terminal() }
    }

    /// Write one record's (or one chunk's) text: the diagnostics to stderr,
    /// the data to stdout.
    pub fn write_record(&mut self, out: &[u8], err: &[u8]) -> io::Result<()> {
        if !err.is_empty() {
            // On a terminal, what came before goes first.
            if self.eager {
                self.out.flush()?;
            }
            // Diagnostics that cannot be written (stderr closed) are dropped, not fatal.
            let _ = io::stderr().lock().write_all(err);
        }
        self.out.write_all(out)?;
        if self.eager {
            self.out.flush()?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
