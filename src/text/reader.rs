//! Reading puzzle text, streamed: one entry per puzzle the input holds, whatever the input.
//!
//! The forms (`docs/formats.md` has the whole rules):
//! - a line of n² symbols (`.`, `0`, `_`, `*` empty; 1-9 then A-Z), maybe with
//!   a label before it (`Puzzle 3: 4..7…`) or fields after it (`…:1:…`);
//! - n rows of n symbols with any `|`, `+`, `-` and spaces between;
//! - rows (or one line) of whitespace-separated numbers, needed past n = 35;
//! - CSV with a header (`quizzes,solutions`, `id,puzzle,…`): the puzzle column;
//! - a pencil-mark line of n³ symbols (each cell's n candidates);
//! - `.sdk` files (`#A` lines, `[Puzzle]` and the sections it ignores);
//! - `#` comment lines, rules (`---+---`, `*-----*`), and title lines
//!   (`Grid 01`, `Sudoku #1`) that name the next puzzle.
//!
//! Framing, the promise: every line that is not blank, a comment, a rule, a
//! title or a header belongs to exactly one entry, in order. A line that
//! cannot start a puzzle is one invalid entry on its own; a block of rows
//! that breaks (a row of another length, a blank line, a title, the end)
//! is one invalid entry for the rows before the break, and the line that
//! broke it starts afresh. Puzzles written back to back with nothing between
//! them are read as a run and checked as a whole (see [`PuzzleReader`]).

use std::collections::VecDeque;
use std::io::BufRead;
use std::time::Duration;

use crate::enumerate::{Count, Search};
use crate::error::{echo, ParseError, ParseErrorKind, Position};
use crate::model::domains::Domains;
use crate::model::geometry::{Value, MAX_SIZE};
use crate::model::puzzle::{GeometrySpec, Grid, Puzzle};
use crate::pipeline::SolveOptions;
use crate::reasoning::propagate::Propagator;
use crate::text::symbols::{Alphabet, Symbol};

/// One puzzle of the input, read or not: every puzzle in the input gets one entry.
#[derive(Debug)]
pub struct Entry {
    /// Where the puzzle starts.
    pub position: Position,
    /// A title line before it (`Grid 01`), if any.
    pub name: Option<String>,
    /// The puzzle, or why it cannot be read.
    pub puzzle: Result<Puzzle, ParseError>,
}

/// The longest line read, in bytes. The largest grid written as numbers
/// (1024 × 1024 cells of up to four digits) takes about 5 MiB on one line;
/// the rest of a longer line is skipped unread, and the line is one invalid
/// entry.
pub const MAX_LINE: usize = 16 << 20;

/// The rows of an `.sdk` file's grids: the sections after its puzzle skip as many lines.
const SDK_ROWS: usize = 9;

/// Back-to-back rows of one length, with nothing between puzzles, are read
/// as a whole up to this many rows, or this many cells (then the next rows
/// start a new run): 65,536 rows of a 9×9, 10,000 of a 100×100.
const MAX_RUN_ROWS: usize = 1 << 16;
const MAX_RUN_CELLS: usize = 1 << 20;

/// A cell as written.
#[derive(Clone, Debug)]
struct Token {
    /// 1-based, in characters.
    column: u32,
    symbol: Symbol,
    text: TokenText,
}

/// What a cell looked like, for messages. A character needs no allocation,
/// which matters when reading a million puzzles.
#[derive(Clone, Debug)]
enum TokenText {
    Char(char),
    Word(Box<str>),
}

impl std::fmt::Display for TokenText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenText::Char(c) => write!(f, "{c}"),
            TokenText::Word(w) => f.write_str(&echo(w)),
        }
    }
}

/// The cells of one line, and how they were written.
#[derive(Clone, Debug, Default)]
struct Cells {
    tokens: Vec<Token>,
    /// Whitespace-separated numbers rather than one symbol per cell.
    words: bool,
    /// A label before the puzzle on the same line (`Puzzle 3: …`).
    label: Option<String>,
    /// Read from one field of a delimited line: a whole puzzle, never a row.
    field: bool,
    /// The empty field after the last cell that was taken for the end of a
    /// whole puzzle on one line (`…,7,9,`): kept, for a grid's row whose
    /// last cell it is after all (under a header of its columns).
    cut: Option<Box<Token>>,
    /// The line numbers k columns past an empty corner (`,1,2,…,9`): the
    /// header of a grid when k labelled rows follow, else a row.
    columns: Option<u16>,
    /// The delimiter between a spreadsheet row's fields.
    delimiter: Option<char>,
}

impl Cells {
    /// The cells of a line, read one symbol per character or word by word.
    fn new(tokens: Vec<Token>, words: bool) -> Cells {
        Cells { tokens, words, ..Cells::default() }
    }

    /// Whether the last cell is an empty field (`…,7,,`), which may be a
    /// delimiter after the last cell rather than a cell.
    fn ends_in_empty_field(&self) -> bool {
        matches!(self.tokens.last(), Some(Token { text: TokenText::Word(w), .. }) if w.is_empty())
    }

    /// Whether every cell is an empty field: a row of only delimiters.
    fn all_empty_fields(&self) -> bool {
        self.tokens.iter().all(|t| matches!(&t.text, TokenText::Word(w) if w.is_empty()))
    }
}

/// The last place in rows (each a row of only delimiters or not) where a
/// grid of k rows may end, reading them from the first as grids and blank
/// lines: after a row of only delimiters when one may end there (such a row
/// may also be a grid's empty first row, so a place right after it is the
/// safer cut).
fn last_grid_end(empty: &[bool], k: usize) -> usize {
    let mut ends = vec![false; empty.len() + 1];
    ends[0] = true;
    for i in 0..empty.len() {
        if ends[i] {
            ends[i + 1] |= empty[i];
            if i + k <= empty.len() {
                ends[i + k] = true;
            }
        }
    }
    let after_blank = (1..=empty.len()).rev().find(|&i| ends[i] && empty[i - 1]);
    after_blank.or_else(|| ends.iter().rposition(|&end| end)).unwrap_or(0)
}

/// Whether rows, each a row of only delimiters or not, make whole grids of
/// k rows, with rows of only delimiters between grids as blank lines. When
/// `more` rows may follow the list, a grid that runs past its end may be
/// whole.
fn whole_grids(empty: &[bool], k: usize, more: bool) -> bool {
    let end = empty.len();
    let mut whole = vec![more; end + 1];
    whole[end] = true;
    for i in (0..end).rev() {
        whole[i] = (empty[i] && whole[i + 1]) || whole.get(i + k).copied().unwrap_or(more);
    }
    whole[0]
}

/// A row label without the number that ends it: `Row 1` and `R1` give `Row`
/// and `R`, rows of one kind.
fn label_stem(label: &str) -> &str {
    label.trim_end_matches(|c: char| c.is_ascii_digit() || c.is_whitespace())
}

/// A labelled row as a row of its cells, its label dropped.
fn unlabel(kind: &mut LineKind) {
    if let LineKind::LabelledRow(_, cells) = kind {
        *kind = LineKind::Cells(std::mem::take(cells));
    }
}

#[derive(Debug)]
enum LineKind {
    Blank,
    /// A line of delimiters only (`,,,,,,,,`): what a spreadsheet writes for
    /// an empty row, between grids as inside one. Inside a puzzle begun
    /// above it, it is a row of empty cells; anywhere else (where a puzzle
    /// would start, or after a whole one) a blank line, so that puzzles
    /// never run into each other.
    Separator(Cells),
    Comment,
    Title(String),
    /// An `.sdk` section header: `[Puzzle]`, `[State]`, …
    Section(String),
    /// A CSV header: the column the puzzles are in (the first, unless it is
    /// named), and whether the header named it.
    Header(usize, bool),
    /// A spreadsheet's header over a grid that names its k columns past an
    /// empty corner (`,A,B,…`): each of the k rows below it starts with its
    /// label, a number too. (Numbered columns, `,1,2,…,9`, are a row of
    /// [`Cells`] that may be a header: see `Cells::columns`.)
    IndexHeader(usize),
    /// A spreadsheet's row after its label (`Row 1,5,3,,,7,,,,`): a row of
    /// a grid when k such rows of k cells make one, else a title.
    LabelledRow(String, Cells),
    /// A delimited line with a whole puzzle in one of its fields: each field
    /// with its 0-based column.
    Fields(Vec<(usize, String)>),
    /// Only separators: `------+------+------`, `*-----*`.
    Rule,
    Cells(Cells),
    /// Unreadable: bad bytes, a line too long, an I/O error.
    Broken(ParseErrorKind, Option<usize>),
}

/// Streams the puzzles of one input.
///
/// Framing: a line of n² cells is a puzzle; a line of k cells that is no
/// square starts a block of k rows; a line of m² cells could be either, and is
/// a row when the next m² − 1 lines are rows of its length (for m ≥ 4, only
/// when no further such line follows, as in a file of 4×4 puzzles) or when it
/// holds a value too large for an m×m grid. With a fixed size n (`--box`,
/// `--grid`, `--regions`) only n² (a puzzle) and n (a row) are accepted.
///
/// A block is n rows of n cells with nothing but rule lines between them.
/// Puzzles written back to back with no blank line, title or comment between
/// them form a run: when its rows are not a whole number of puzzles, the
/// reader finds which puzzle lacks (or has extra) rows by checking the
/// others' givens, reads the rest, and reports the odd one, or every puzzle
/// of the stretch it cannot tell apart, as invalid.
pub struct PuzzleReader<'a, R> {
    input: R,
    source: String,
    alphabet: &'a Alphabet,
    spec: &'a mut GeometrySpec,
    line_no: usize,
    pending: VecDeque<(usize, LineKind)>,
    ready: VecDeque<Entry>,
    /// Within a paragraph already found to hold one puzzle per line: that line length.
    line_mode: Option<usize>,
    title: Option<String>,
    /// In an `.sdk` section that holds no puzzle (`[State]`, `[PencilMarks]`,
    /// …): the lines of it still to skip.
    skipping: usize,
    /// The CSV column the puzzles are in, once a header said so.
    column: Option<usize>,
    /// Whether that header named the puzzle column.
    named: bool,
    finished: bool,
    /// Whether a row of only delimiters has been a blank line here (a file
    /// that parts its grids so), and the line of the last blank line.
    parted: bool,
    blank: usize,
    buf: Vec<u8>,
}

impl<'a, R: BufRead> PuzzleReader<'a, R> {
    /// Read puzzles from `input`, named `source` in messages.
    pub fn new(input: R, source: impl Into<String>, alphabet: &'a Alphabet, spec: &'a mut GeometrySpec) -> Self {
        PuzzleReader {
            input,
            source: source.into(),
            alphabet,
            spec,
            line_no: 0,
            pending: VecDeque::new(),
            ready: VecDeque::new(),
            line_mode: None,
            title: None,
            skipping: 0,
            column: None,
            named: false,
            finished: false,
            parted: false,
            blank: 0,
            buf: Vec::new(),
        }
    }

    /// Number the lines from `lines_before + 1`: the input is a chunk of a
    /// bigger one (GNU parallel `--pipe`), and messages and positions name
    /// the lines they have in the whole.
    pub fn starting_after_line(mut self, lines_before: usize) -> Self {
        self.line_no = lines_before;
        self
    }

    fn read_line(&mut self) -> Option<(usize, LineKind)> {
        if self.finished {
            return None;
        }
        self.buf.clear();
        match read_bounded_line(&mut self.input, &mut self.buf, MAX_LINE) {
            Ok(Line::End) => {
                self.finished = true;
                None
            }
            Ok(Line::TooLong) => {
                self.line_no += 1;
                Some((self.line_no, LineKind::Broken(ParseErrorKind::LineTooLong { limit: MAX_LINE }, None)))
            }
            Ok(Line::Read) => {
                self.line_no += 1;
                // A byte-order mark opens a file, and files joined by `cat`
                // keep each one's: it is no cell on any line.
                let bytes: &[u8] = self.buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&self.buf);
                let kind = match std::str::from_utf8(bytes) {
                    Ok(text) => {
                        let under = Under { csv: self.column.is_some(), named: self.named };
                        classify(text, self.alphabet, self.spec.fixed_size(), under)
                    }
                    Err(e) => {
                        let at = e.valid_up_to();
                        let column = String::from_utf8_lossy(&bytes[..at]).chars().count() + 1;
                        let byte = bytes[at];
                        LineKind::Broken(ParseErrorKind::BadByte { byte, what: "not UTF-8" }, Some(column))
                    }
                };
                Some((self.line_no, kind))
            }
            Err(e) => {
                self.finished = true;
                self.line_no += 1;
                Some((self.line_no, LineKind::Broken(ParseErrorKind::Io(e.to_string()), None)))
            }
        }
    }

    fn peek(&mut self, i: usize) -> Option<&(usize, LineKind)> {
        while self.pending.len() <= i {
            let line = self.read_line()?;
            self.pending.push_back(line);
        }
        self.pending.get(i)
    }

    fn next_line(&mut self) -> Option<(usize, LineKind)> {
        self.pending.pop_front().or_else(|| self.read_line())
    }

    fn at(&self, line: usize, column: Option<usize>) -> Position {
        Position { source: self.source.clone(), line, column }
    }

    fn error(&self, line: usize, column: Option<usize>, kind: ParseErrorKind) -> ParseError {
        ParseError { position: self.at(line, column), kind }
    }

    /// An entry that starts at `line`, named by the title before it.
    fn entry(&mut self, line: usize, label: Option<String>, puzzle: Result<Puzzle, ParseError>) -> Entry {
        let name = label.or_else(|| self.title.take());
        Entry { position: self.at(line, None), name, puzzle }
    }

    /// The side of a whole puzzle of `k` cells, if `k` is one.
    fn puzzle_side(&self, k: usize) -> Option<usize> {
        match self.spec.fixed_size() {
            Some(n) => (n.checked_mul(n) == Some(k)).then_some(n),
            None => exact_sqrt(k),
        }
    }
}

impl<R: BufRead> Iterator for PuzzleReader<'_, R> {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        loop {
            if let Some(entry) = self.ready.pop_front() {
                return Some(entry);
            }
            let (line, kind) = self.next_line()?;
            match kind {
                // A blank line, or a spreadsheet grid's empty first row: k − 1
                // more rows of its k cells follow, and no k-th.
                LineKind::Separator(mut cells) if self.skipping == 0 => {
                    self.line_mode = None;
                    let first_row = match self.peek(0) {
                        Some((_, LineKind::LabelledRow(..))) => self.labelled_block(&mut cells, None),
                        _ => {
                            self.drop_trailing_field(&mut cells);
                            self.first_row_of_block(line, &cells)
                        }
                    };
                    match first_row {
                        true => self.block(line, cells.tokens),
                        false => (self.parted, self.blank) = (true, line),
                    }
                }
                LineKind::Blank | LineKind::Separator(_) => {
                    self.line_mode = None;
                    self.skipping = 0;
                    self.blank = line;
                }
                LineKind::Comment | LineKind::Rule => {}
                LineKind::Section(name) => {
                    self.line_mode = None;
                    self.skipping = if name.eq_ignore_ascii_case("puzzle") { 0 } else { SDK_ROWS };
                }
                // The sections an `.sdk` file has after its puzzle: the
                // current state, pencil marks and colours, nine rows each.
                // A whole puzzle line is none of theirs: it ends them.
                LineKind::Cells(cells) if self.skipping > 0 && is_whole_count(cells.tokens.len()) => {
                    self.skipping = 0;
                    self.frame(line, cells);
                }
                _ if self.skipping > 0 => self.skipping -= 1,
                LineKind::Title(title) => {
                    self.line_mode = None;
                    self.title = Some(title);
                }
                LineKind::IndexHeader(k) => {
                    self.line_mode = None;
                    if let Some((line, first)) = self.indexed_block(k) {
                        self.block(line, first);
                    }
                }
                LineKind::LabelledRow(label, mut cells) => {
                    let k = cells.tokens.len();
                    if self.labelled_block(&mut cells, Some(&label)) {
                        self.block(line, cells.tokens);
                    } else if is_whole_count(k) {
                        // `Puzzle 3,5,3,,,7,…`: a puzzle on one line, named.
                        cells.label = Some(label);
                        self.frame(line, cells);
                    } else {
                        self.line_mode = None;
                        self.title = Some(label);
                    }
                }
                LineKind::Header(column, named) => {
                    self.line_mode = None;
                    self.column = Some(column);
                    self.named = named;
                }
                LineKind::Broken(kind, column) => {
                    let error = self.error(line, column, kind);
                    return Some(self.entry(line, None, Err(error)));
                }
                LineKind::Fields(fields) => {
                    let (alphabet, fixed) = (self.alphabet, self.spec.fixed_size());
                    // Without a header, the first field that holds a puzzle,
                    // whole or not: a damaged one is reported, never passed
                    // over for the solution after it.
                    let holds_puzzle =
                        |f: &str| is_whole_field(f, alphabet, fixed) || cellish_count(f) >= DAMAGED_CELLS;
                    let index = match self.column {
                        Some(column) => column,
                        None => fields.iter().position(|(_, f)| holds_puzzle(f.trim())).unwrap_or(0),
                    };
                    let Some((column, field)) = fields.get(index).filter(|(_, f)| !f.trim().is_empty()) else {
                        let at = fields.get(index).map(|(column, _)| column + 1);
                        let kind = ParseErrorKind::NoField { field: index + 1, fields: fields.len() };
                        return Some(self.entry(line, None, Err(self.error(line, at, kind))));
                    };
                    let indent = field.chars().count() - field.trim_start().chars().count();
                    let mut cells = field_cells(field.trim(), column + indent, alphabet);
                    cells.field = true;
                    // `Puzzle 3: 4..7…`: the words before the puzzle name it.
                    let before = fields.iter().take_while(|(c, _)| c < column).map(|(_, f)| f.trim());
                    let label = before.collect::<Vec<_>>().join(" ");
                    cells.label = is_text(&label, alphabet).then(|| echo(&label));
                    // A jigsaw file's row brings the puzzle's regions in a
                    // later field (janko.at's `id n givens regions solution`).
                    let regions =
                        fields[index + 1..].iter().find_map(|(_, f)| region_map(f.trim(), cells.tokens.len()));
                    match regions {
                        Some(regions) => self.jigsaw_row(line, cells, regions),
                        None => self.frame(line, cells),
                    }
                }
                LineKind::Cells(cells) => match cells.columns.and_then(|k| self.indexed_block(k.into())) {
                    Some((line, first)) => self.block(line, first),
                    None => self.frame(line, cells),
                },
            }
        }
    }
}

impl<R: BufRead> PuzzleReader<'_, R> {
    /// Decide what a line of cells starts, and read it: entries go to `ready`.
    fn frame(&mut self, line: usize, mut cells: Cells) {
        if let Some(puzzle) = self.candidate_grid(line, &cells).or_else(|| self.coordinate_grid(&cells)) {
            let entry = self.entry(line, cells.label, puzzle);
            return self.ready.push_back(entry);
        }
        self.drop_trailing_field(&mut cells);
        let k = cells.tokens.len();
        if self.is_index(&cells) {
            let number: String = cells.tokens.iter().map(|t| t.text.to_string()).collect();
            self.title = Some(number);
            return;
        }
        if let Some(m) = self.pencil_side(&cells) {
            // Each cell's m marks in place: value p + 1 at place p, or empty.
            let sets: Vec<Vec<usize>> = cells
                .tokens
                .chunks(m)
                .map(|marks| (1..=m).filter(|&v| !matches!(marks[v - 1].symbol, Symbol::Empty)).collect())
                .collect();
            let puzzle = self.marked_puzzle(line, m, sets.iter().map(Vec::as_slice));
            let entry = self.entry(line, cells.label, puzzle);
            return self.ready.push_back(entry);
        }
        if let Some(n) = self.puzzle_side(k) {
            if cells.field || self.spec.fixed_size().is_some() || !self.starts_block(k, &cells) {
                // Among lines of k cells (a file of puzzles one per line), it is one of them.
                let in_run = self.line_mode == Some(k)
                    || matches!(self.peek(0), Some((_, LineKind::Cells(c))) if c.tokens.len() == k);
                let row = !cells.field && !in_run && self.spec.fixed_size().is_none() && self.could_be_row(k, &cells);
                let rows = vec![(line, cells.tokens)];
                let puzzle = self.resolve(line, n, &rows);
                // Only a line that makes a grid sets the paragraph to one
                // puzzle per line: after a block broke, its other rows of m²
                // cells (no m×m grid) must not all turn into puzzles.
                if !matches!(&puzzle, Err(ParseError { kind: ParseErrorKind::Geometry(_), .. })) {
                    self.line_mode = Some(k);
                }
                let puzzle = puzzle.map_err(|mut e| {
                    // A lone row of a block (its puzzle cut short to one
                    // row) is as likely as a puzzle of a grid with no boxes.
                    if let (ParseErrorKind::Geometry(why), true) = (&e.kind, row) {
                        e.kind = ParseErrorKind::LoneLine { count: k, side: n, why: why.clone() };
                    }
                    e
                });
                let entry = self.entry(line, cells.label, puzzle);
                return self.ready.push_back(entry);
            }
        }
        let row_length = self.spec.fixed_size().unwrap_or(k);
        if !cells.field && k == row_length && self.could_be_row(k, &cells) && !self.spreadsheet_grid_below(&cells) {
            return self.block(line, cells.tokens);
        }
        // `4..7…é…`: a stray character on a line that is otherwise a whole
        // puzzle is named where it stands, not counted as one cell too many.
        let unknown = || cells.tokens.iter().find(|t| t.symbol == Symbol::Unknown);
        let known = cells.tokens.iter().filter(|t| t.symbol != Symbol::Unknown).count();
        let whole = self.puzzle_side(known).filter(|&n| n >= 4 || self.spec.fixed_size().is_some());
        if let (Some(n), Some(stray)) = (whole, unknown()) {
            let kind =
                ParseErrorKind::UnknownSymbol { symbol: stray.text.to_string(), expected: self.alphabet.expected(n) };
            let error = self.error(line, Some(stray.column as usize), kind);
            let entry = self.entry(line, cells.label, Err(error));
            return self.ready.push_back(entry);
        }
        let expected = match self.spec.fixed_size() {
            Some(n) => {
                let by = self.spec.fixed_source().map(|by| format!(", the {n}x{n} grid of {by}")).unwrap_or_default();
                format!("{} cells for a puzzle, or a row of {n}{by}", n * n)
            }
            None => "n² cells for a puzzle, or a row of n cells with n − 1 more rows below".into(),
        };
        let error = self.error(line, None, ParseErrorKind::NotAPuzzle { count: k, expected });
        let entry = self.entry(line, cells.label, Err(error));
        self.ready.push_back(entry);
    }

    /// Whether a row of only delimiters, of k fields, is the empty first row
    /// of a grid rather than a blank line: k − 1 rows of k cells follow it
    /// (rules skipped, rows of only delimiters counted), then no such row,
    /// or one of only delimiters (the next grid's empty first row); and the
    /// rows after it make no whole grids without it. When they do too (`S`
    /// for such a row: `S`, k − 1 rows, `S` is a grid with an empty first
    /// row or one with an empty last row), the reading whose givens
    /// propagation refutes is not taken; a row, when neither or both are.
    fn first_row_of_block(&mut self, line: usize, first: &Cells) -> bool {
        let k = first.tokens.len();
        if k < 2 {
            return false;
        }
        // The rows after it, rules skipped, up to a window of three grids:
        // whether each is a row of only delimiters.
        let window = 3 * k;
        let (mut empty, mut lines) = (Vec::new(), 0);
        while empty.len() < window {
            let header_below = self.labelled_row_at(lines + 1);
            match self.peek(lines) {
                Some((_, LineKind::Rule)) => {}
                // Another delimiter: rows of another grid (`;;;` above pasted tabs).
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if c.delimiter != first.delimiter => break,
                // Numbered columns with a labelled row below: another grid's header.
                Some((_, LineKind::Cells(c))) if c.columns.is_some() && header_below => break,
                Some((_, LineKind::Separator(c))) if c.tokens.len() == k && !c.field => empty.push(true),
                Some((_, LineKind::Cells(c))) if c.tokens.len() == k && !c.field => empty.push(false),
                _ => break,
            }
            lines += 1;
        }
        // k − 1 rows, then the end of the rows or a row of only delimiters.
        let short = empty.len() == k - 1 || empty.get(k - 1) == Some(&true);
        if !short {
            return false;
        }
        if !whole_grids(&empty, k, empty.len() == window) {
            return true;
        }
        // Both readings: the grid it starts, and the grid of the k rows after it.
        let below = self.pending.iter().take(lines).filter_map(|(at, kind)| match kind {
            LineKind::Cells(c) | LineKind::Separator(c) => Some((*at, c.tokens.clone())),
            _ => None,
        });
        let rows: Vec<(usize, Vec<Token>)> =
            std::iter::once((line, first.tokens.clone())).chain(below.take(k)).collect();
        let mut refuted = |rows: &[(usize, Vec<Token>)]| match self.resolve(rows[0].0, k, rows) {
            Ok(puzzle) => Propagator::from_puzzle(&puzzle).and_then(|mut p| p.propagate()).is_err(),
            Err(_) => true,
        };
        let first_refuted = refuted(&rows[..k]);
        let blank_refuted = rows.len() > k && refuted(&rows[1..=k]);
        // Neither refuted: a blank line in a file whose grids such rows
        // part, unless a blank line comes just before it (then it is the
        // next grid's empty first row).
        let parting = self.parted && self.blank + 1 != line;
        match (first_refuted, blank_refuted) {
            (false, false) => !parting,
            _ => !first_refuted || blank_refuted,
        }
    }

    /// The grid under a header of k numbered or named columns: k rows after
    /// it (rules skipped), each its label and k cells, or k cells and an
    /// empty field (a delimiter after the last cell). Their labels (and
    /// those empty fields) are dropped, and the first row is returned, at
    /// its line, to start the block; `None` (the header a title) when the
    /// rows below are no such grid.
    fn indexed_block(&mut self, k: usize) -> Option<(usize, Vec<Token>)> {
        // The cells of a row after its label, and whether its last is an empty field.
        fn cells_of(kind: &LineKind) -> Option<(usize, &Cells)> {
            match kind {
                LineKind::LabelledRow(_, c) => Some((c.tokens.len(), c)),
                LineKind::Cells(c) | LineKind::Separator(c) if !c.field && c.label.is_none() => {
                    Some(((c.tokens.len() + usize::from(c.cut.is_some())).checked_sub(1)?, c))
                }
                _ => None,
            }
        }
        let ends_empty = |c: &Cells| c.cut.is_some() || c.ends_in_empty_field();
        let (mut rows, mut lines, mut exact, mut trailing) = (0, 0, true, true);
        while rows < k {
            match self.peek(lines) {
                Some((_, LineKind::Rule)) => {}
                Some((_, kind)) => {
                    let (count, c) = cells_of(kind)?;
                    exact &= count == k;
                    trailing &= count == k + 1 && ends_empty(c);
                    if !(exact || trailing) {
                        return None;
                    }
                    rows += 1;
                }
                None => return None,
            }
            lines += 1;
        }
        for (_, kind) in self.pending.iter_mut().take(lines) {
            if let LineKind::Cells(c) | LineKind::Separator(c) = kind {
                c.tokens.remove(0);
                c.tokens.extend(c.cut.take().map(|token| *token));
            }
            unlabel(kind);
            if let (LineKind::Cells(c) | LineKind::Separator(c), true) = (kind, trailing && !exact) {
                c.tokens.pop();
            }
        }
        while matches!(self.peek(0), Some((_, LineKind::Rule))) {
            self.next_line();
        }
        match self.next_line() {
            Some((line, LineKind::Cells(c) | LineKind::Separator(c))) => Some((line, c.tokens)),
            _ => unreachable!("the first row was just read"),
        }
    }

    /// Whether the labelled row `first` and the labelled rows after it make
    /// a grid: k of k cells (rules between them skipped, a row of only
    /// delimiters an empty row), or k − 1 of them that each end in an empty
    /// field (a delimiter after the last cell: see
    /// [`PuzzleReader::drop_trailing_field`]). Their labels are dropped (and
    /// those empty fields), so that they read as the block's rows. `first`
    /// is a row with its `label`, or (`None`) a row of only delimiters, the
    /// grid's empty first row when no more labelled rows of its length
    /// follow the grid (else it is a blank line before a grid).
    fn labelled_block(&mut self, first: &mut Cells, label: Option<&str>) -> bool {
        let exact = label.is_none();
        let k = first.tokens.len();
        // The stretch of labelled rows and rows of only delimiters of k
        // cells, rules skipped: whether each is one of only delimiters, and
        // the lines up to its end.
        let window = (3 * k).max(1024);
        // A labelled row is a row, never a blank line; a row of only delimiters (`exact`) may be either.
        let (mut empty, mut ends, mut lines) = (vec![exact], vec![0], 0);
        let mut next_label = None;
        let mut all_end_empty = first.ends_in_empty_field();
        while empty.len() < window {
            match self.peek(lines) {
                Some((_, LineKind::Rule)) => {}
                // Another delimiter: another table's (`Printed 2024;01;15` above tabs).
                Some((_, LineKind::LabelledRow(_, c) | LineKind::Separator(c))) if c.delimiter != first.delimiter => {
                    break
                }
                Some((_, LineKind::LabelledRow(next, c))) if c.tokens.len() == k => {
                    next_label.get_or_insert_with(|| label_stem(next).to_string());
                    all_end_empty &= c.ends_in_empty_field();
                    empty.push(false);
                    ends.push(lines + 1);
                }
                Some((_, LineKind::Separator(c))) if c.tokens.len() == k => {
                    empty.push(true);
                    ends.push(lines + 1);
                }
                _ => break,
            }
            lines += 1;
        }
        let more = empty.len() == window;
        // Each row ending in an empty field, whole grids of k − 1 rows: a
        // delimiter after the last cell (rows of only delimiters between
        // grids blank lines), when k − 1 makes a grid.
        let trailing = k > 2
            && all_end_empty
            && empty.len() >= k - 1
            && whole_grids(&empty, k - 1, more)
            && self.spec.geometry_for(k - 1).is_ok();
        let rows = if trailing { k - 1 } else { k };
        // The rows after it make whole grids and not with it, and their
        // labels are of another kind: a title above them (`Total;;;;` above
        // `R1;1;;;`; `R1` above `R2` is their row).
        let other_kind = label.is_some_and(|label| next_label.as_deref() != Some(label_stem(label)));
        if empty.len() < rows
            || (other_kind && !whole_grids(&empty, rows, more) && whole_grids(&empty[1..], rows, more))
        {
            return false;
        }
        let lines = ends[rows - 1];
        if exact {
            let mut after = lines;
            while matches!(self.peek(after), Some((_, LineKind::Rule))) {
                after += 1;
            }
            if matches!(self.peek(after), Some((_, LineKind::LabelledRow(_, c))) if c.tokens.len() == k) {
                return false;
            }
        }
        for (_, kind) in self.pending.iter_mut().take(lines) {
            unlabel(kind);
            if let (LineKind::Cells(c) | LineKind::Separator(c), true) = (kind, trailing) {
                c.tokens.pop();
            }
        }
        if trailing {
            first.tokens.pop();
        }
        true
    }

    /// The stretch of spreadsheet rows of k fields and `delimiter` from the
    /// next line on (after `first`, a row of only delimiters or not, when
    /// given), rules skipped, each ending in an empty field, up to a window
    /// of many grids: whether each is a row of only delimiters, the lines it
    /// spans, and whether more may follow the window. `None` when a row
    /// fills its last field: that column is a grid's.
    fn trailing_stretch(
        &mut self,
        k: usize,
        delimiter: Option<char>,
        first: Option<bool>,
    ) -> Option<(Vec<bool>, Vec<usize>, bool)> {
        let row =
            |c: &Cells| c.words && !c.field && c.label.is_none() && c.tokens.len() == k && c.delimiter == delimiter;
        let window = (3 * k).max(1024);
        let (mut empty, mut lines): (Vec<bool>, usize) = (first.into_iter().collect(), 0);
        let mut ends = vec![0; empty.len()];
        while empty.len() < window {
            match self.peek(lines) {
                Some((_, LineKind::Rule)) => {}
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if row(c) && !c.ends_in_empty_field() => {
                    return None
                }
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if row(c) => {
                    empty.push(c.all_empty_fields());
                    ends.push(lines + 1);
                }
                _ => break,
            }
            lines += 1;
        }
        let more = empty.len() == window;
        Some((empty, ends, more))
    }

    /// Whether the line `ahead` lines on is a row that starts with a label
    /// (`Row 1,…`, or a number before its cells): what follows a header.
    fn labelled_row_at(&mut self, ahead: usize) -> bool {
        match self.peek(ahead) {
            Some((_, LineKind::LabelledRow(..))) => true,
            Some((_, LineKind::Cells(c))) => {
                c.words && matches!(c.tokens.first(), Some(t) if !matches!(&t.text, TokenText::Word(w) if w.is_empty()))
            }
            _ => false,
        }
    }

    /// Whether the row of only delimiters at the next line, of n fields,
    /// starts a grid: the rows from it (rules skipped) make whole grids of n
    /// rows with it as a row, and not without it.
    fn separator_starts_grid(&mut self, n: usize) -> bool {
        let (empty, more) = self.rows_ahead(n, 0, (3 * n).max(1024));
        empty.len() > 1 && empty[0] && !whole_grids(&empty[1..], n, more) && whole_grids(&empty, n, more)
    }

    /// Whether the lines right after a line of k cells, rows of a spreadsheet
    /// with another delimiter than its own (`2024;01;15` above rows of `,`
    /// or tabs), make whole grids without it: of k rows, or of k − 1 rows
    /// each ending in an empty field. The line is then none of theirs.
    fn spreadsheet_grid_below(&mut self, cells: &Cells) -> bool {
        let k = cells.tokens.len();
        let delimiter = match self.peek(0) {
            Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if c.tokens.len() == k => c.delimiter,
            _ => return false,
        };
        if delimiter.is_none() || delimiter == cells.delimiter {
            return false;
        }
        self.makes_whole_puzzles(k, 0, 0)
            || (k > 2
                && self.spec.geometry_for(k - 1).is_ok()
                && self
                    .trailing_stretch(k, delimiter, None)
                    .is_some_and(|(empty, _, more)| !empty.is_empty() && whole_grids(&empty, k - 1, more)))
    }

    /// Spreadsheet rows that each end in an empty field: k − 1 cells and a
    /// delimiter after the last, as a spreadsheet saves them once a cell
    /// further right was ever used (`5,3,,,7,,,,,`). They were read as rows
    /// of k cells, and nine such rows as a 10×10 block a row short. The last
    /// field of the row at hand and of the rows right after it is dropped
    /// when those rows make whole grids of k − 1 rows (rows of only
    /// delimiters between them blank lines; a k×k grid whose last column is
    /// empty keeps it, its k rows no whole grids of k − 1), or when the grid
    /// options fix the side at k − 1 (`--box`, `--grid`, `--regions`).
    fn drop_trailing_field(&mut self, cells: &mut Cells) {
        let k = cells.tokens.len();
        // Rows of another delimiter are another grid's (`;;;` above pasted tabs).
        let delimiter = cells.delimiter;
        if k < 3 || !cells.words || cells.field || cells.label.is_some() || !cells.ends_in_empty_field() {
            return;
        }
        let Some((empty, ends, more)) = self.trailing_stretch(k, delimiter, Some(cells.all_empty_fields())) else {
            return;
        };
        // A stretch past the window is dropped from up to the last place a
        // grid may end in it; the rest, from there, is decided again.
        let items = if more { last_grid_end(&empty, k - 1) } else { empty.len() };
        let lines = ends[..items].last().copied().unwrap_or(0);
        // A side of k − 1 that makes no grid (a prime without `--latin`),
        // or a value past it, keeps the column: a 4×4 whose last column is
        // empty is no 3×3, nor a 16×16 whose first row is empty a 15×15.
        let values = |c: &Cells| c.tokens.iter().any(|t| matches!(t.symbol, Symbol::Value(v) if v >= k));
        let too_big = values(cells)
            || self.pending.iter().take(lines).any(|(_, kind)| matches!(kind, LineKind::Cells(c) if values(c)));
        let short = match self.spec.fixed_size() {
            Some(n) => n + 1 == k,
            None => {
                !too_big
                    && empty.iter().any(|&empty| !empty)
                    && whole_grids(&empty, k - 1, more)
                    && self.spec.geometry_for(k - 1).is_ok()
            }
        };
        if !short {
            return;
        }
        cells.tokens.pop();
        for (_, kind) in self.pending.iter_mut().take(lines) {
            if let LineKind::Cells(c) | LineKind::Separator(c) = kind {
                c.tokens.pop();
            }
        }
    }

    /// A row of a jigsaw file: its puzzle's cells and its own regions. The
    /// grid options' layout (`--box`, `--latin`, `--regions`, `--grid`)
    /// wins over the row's regions.
    fn jigsaw_row(&mut self, line: usize, cells: Cells, regions: Vec<u32>) {
        let k = cells.tokens.len();
        let n = exact_sqrt(k).expect("a region map has n² cells");
        let Some(geometry) = self.spec.jigsaw(n, regions) else { return self.frame(line, cells) };
        let puzzle = geometry.map_err(|e| self.error(line, None, ParseErrorKind::Geometry(e))).and_then(|geometry| {
            let givens = self.givens(line, n, &[(line, cells.tokens)])?;
            Ok(Puzzle::new(geometry, givens).expect("the regions have side n"))
        });
        let entry = self.entry(line, cells.label, puzzle);
        self.ready.push_back(entry);
    }

    /// Whether a line is a number of its own (`1`, `2`, … `999`), numbering
    /// the puzzle on the line after it: a title, not a puzzle of one cell
    /// nor a lone row (lines of its length after it are rows or puzzles).
    fn is_index(&mut self, cells: &Cells) -> bool {
        let k = cells.tokens.len();
        let digits = cells.tokens.iter().all(|t| {
            matches!(t.text, TokenText::Char(c) if c.is_ascii_digit()) && !matches!(t.symbol, Symbol::Unknown)
        });
        let leading_zero = matches!(cells.tokens.first(), Some(t) if matches!(t.text, TokenText::Char('0')));
        if !(1..=3).contains(&k) || cells.words || cells.field || cells.label.is_some() || !digits || leading_zero {
            return false;
        }
        let columns: Vec<u32> = cells.tokens.iter().map(|t| t.column).collect();
        let together = columns.windows(2).all(|w| w[1] == w[0] + 1);
        // A puzzle follows it (a last `1` alone is a 1×1's solution, read back).
        let follows = match self.peek(0) {
            Some((_, LineKind::Cells(c))) => c.tokens.len() != k,
            Some((_, LineKind::Fields(_))) => true,
            _ => false,
        };
        together && follows
    }

    /// Whether `k` cells can be a row of a k×k grid: symbols only up to the
    /// alphabet's size, and a size satdoku takes.
    fn could_be_row(&self, k: usize, cells: &Cells) -> bool {
        (2..=MAX_SIZE).contains(&k) && (cells.words || k <= self.alphabet.len())
    }

    /// Whether a line of k = m² cells starts a block of k rows rather than
    /// being a whole m×m puzzle.
    fn starts_block(&mut self, k: usize, first: &Cells) -> bool {
        if self.line_mode == Some(k) || !self.could_be_row(k, first) {
            return false;
        }
        let m = exact_sqrt(k).unwrap_or(k);
        // A value past m, or no m×m grid to be had (a prime m without
        // `--latin`): no m×m puzzle, so a row.
        let too_big = |tokens: &[Token]| tokens.iter().any(|t| matches!(t.symbol, Symbol::Value(v) if v > m));
        let mut forced = too_big(&first.tokens) || self.spec.geometry_for(m).is_err();
        // A line that repeats a value is no row of a grid; nor do that many
        // givens of values 1..=m alone make a k×k puzzle (it would leave
        // k − m values free to swap): m×m puzzles, one per line.
        let repeats = |tokens: &[Token]| {
            let mut seen = vec![false; m + 1];
            tokens
                .iter()
                .any(|t| matches!(t.symbol, Symbol::Value(v) if v <= m && std::mem::replace(&mut seen[v], true)))
        };
        let givens = |tokens: &[Token]| tokens.iter().filter(|t| matches!(t.symbol, Symbol::Value(_))).count();
        let (mut clashing, mut total) = (repeats(&first.tokens), givens(&first.tokens));
        // Look ahead: k − 1 more rows of k cells (rules between are fine).
        let (mut rows, mut i) = (1, 0);
        while rows < k {
            match self.peek(i) {
                Some((_, LineKind::Rule)) => {}
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if c.tokens.len() == k && !c.field => {
                    forced |= too_big(&c.tokens);
                    clashing |= repeats(&c.tokens);
                    total += givens(&c.tokens);
                    rows += 1;
                }
                // Cut short: a block (reported as broken) only if a second
                // row follows; a lone line is a puzzle (and says what is
                // wrong). Or a row written wrong, the block's other rows
                // around it.
                _ => return forced && (rows >= 2 || self.damaged_row_ahead(k, rows, i)),
            }
            i += 1;
        }
        if forced {
            return true;
        }
        if clashing || total >= k {
            return false;
        }
        if k < 16 {
            return true;
        }
        // Yet another line of k cells: a file of m×m puzzles, one per line.
        loop {
            match self.peek(i) {
                Some((_, LineKind::Rule)) => i += 1,
                Some((_, LineKind::Cells(c))) => return c.tokens.len() != k,
                _ => return true,
            }
        }
    }

    /// Read the block that `first` (at `line`) starts: n rows of n cells. A
    /// block that breaks is one invalid entry, and the line that broke it is
    /// left to start afresh. A block followed at once by more rows of its
    /// length is the start of a run.
    fn block(&mut self, line: usize, first: Vec<Token>) {
        let n = first.len();
        let mut rows = vec![(line, first)];
        while rows.len() < n {
            match self.row_ahead(n) {
                Ok(row) => rows.push(row),
                Err(Some(_)) if self.damaged_row_ahead(n, rows.len(), 0) => {
                    return self.damaged_block(Some(line), rows.len(), n);
                }
                // The first row written wrong: the rows after it are of
                // another length m, and with it make whole puzzles of m rows.
                Err(Some(_)) if rows.len() == 1 && self.damaged_first_row(n).is_some() => {
                    let m = self.damaged_first_row(n).expect("just checked");
                    let (line, odd) = rows.remove(0);
                    let pending = (line, LineKind::Cells(Cells::new(odd, false)));
                    self.pending.push_front(pending);
                    return self.damaged_block(None, 0, m);
                }
                Err(broken) => {
                    let error = self.broken_block(line, rows.len(), n, broken);
                    let entry = self.entry(line, None, Err(error));
                    return self.ready.push_back(entry);
                }
            }
        }
        // More rows of this length right after: puzzles back to back.
        let most = MAX_RUN_ROWS.min(MAX_RUN_CELLS / n).max(n);
        let mut cut = true;
        while rows.len() < most - most % n {
            // A row of delimiters between whole puzzles parts them, unless
            // the rows after it make whole puzzles only with it as the next
            // one's empty first row.
            if rows.len() % n == 0
                && matches!(self.peek(0), Some((_, LineKind::Separator(_))))
                && !self.separator_starts_grid(n)
            {
                // A file that parts its grids with such rows.
                self.parted = true;
                cut = false;
                break;
            }
            match self.row_ahead(n) {
                Ok(row) => rows.push(row),
                // A row written wrong in a later puzzle of the run: the
                // whole puzzles before it, then that puzzle as one record.
                Err(Some(_)) if self.damaged_row_ahead(n, rows.len() % n, 0) => {
                    let partial = rows.split_off(rows.len() - rows.len() % n);
                    let first = partial.first().map(|(line, _)| *line);
                    if !self.misframed(&rows, n, false) {
                        self.run(rows, n);
                    }
                    return self.damaged_block(first, partial.len(), n);
                }
                Err(_) => {
                    cut = false;
                    break;
                }
            }
        }
        if rows.len() % n == 0 && self.misframed(&rows, n, cut) {
            return;
        }
        self.run(rows, n);
    }

    /// A run whose rows are a whole number of puzzles, yet one puzzle in it
    /// a row short and another a row long (or the run cut at its limit past
    /// a puzzle with a row too few or many): read in steps of n from the
    /// front, every puzzle after the first odd one would be made of two
    /// puzzles' rows. When some of them fail at once (propagation refutes
    /// them), the run is framed again, by dynamic programming over where each
    /// puzzle starts: a puzzle propagation refutes costs 4, a stretch of rows
    /// that is no puzzle costs 5 (so a lone refuted puzzle is read as it is,
    /// as two stretches would cost more, and a shift is undone where it
    /// makes three or more fail). Returns whether
    /// it framed the run (its entries are ready; rows left over at a cut go
    /// back to be read with what follows).
    fn misframed(&mut self, rows: &[(usize, Vec<Token>)], n: usize, cut: bool) -> bool {
        // Whether the n rows from `start` are refuted, each start checked once.
        let mut memo: Vec<Option<bool>> = vec![None; rows.len()];
        let mut refuted = |reader: &mut Self, start: usize| {
            *memo[start].get_or_insert_with(|| match reader.resolve(rows[start].0, n, &rows[start..start + n]) {
                Ok(puzzle) => Propagator::from_puzzle(&puzzle).and_then(|mut p| p.propagate()).is_err(),
                Err(_) => true,
            })
        };
        if !(0..rows.len() / n).any(|i| refuted(self, i * n)) {
            return false;
        }
        const REFUTED: usize = 4;
        const ODD: usize = 5;
        let total = rows.len();
        // cost[i]: the least cost of framing rows[i..]; step[i]: the rows the first piece takes.
        let mut cost = vec![0usize; total + 1];
        let mut step = vec![0usize; total + 1];
        for i in (0..total).rev() {
            let mut best = (usize::MAX, 0);
            if i + n <= total {
                let c = if refuted(self, i) { REFUTED } else { 0 };
                best = (c + cost[i + n], n);
            }
            for len in (1..2 * n).filter(|&len| len != n && i + len <= total) {
                if ODD + cost[i + len] < best.0 {
                    best = (ODD + cost[i + len], len);
                }
            }
            // The rows left at the end of a run cut at its limit: the next
            // rows may finish them.
            if cut && i + n > total && best.0 > 0 {
                best = (0, total - i);
            }
            (cost[i], step[i]) = best;
        }
        let aligned = (0..total / n).filter(|&i| refuted(self, i * n)).count() * REFUTED;
        if cost[0] >= aligned {
            return false;
        }
        // Where an odd stretch sits is told by the puzzles it would shift:
        // where moving it back past puzzles that read well either way costs
        // nothing, which of them is odd cannot be told, and none is read.
        let mut pieces = Vec::new();
        let mut i = 0;
        while i < total {
            pieces.push((i, step[i]));
            i += step[i];
        }
        let mut doubtful = vec![false; pieces.len()];
        for p in 0..pieces.len() {
            let (start, len) = pieces[p];
            let tail = cut && start + len == total && len < n;
            if len == n || tail {
                continue;
            }
            let mut q = p;
            while q > 0 && pieces[q - 1].1 == n && !doubtful[q - 1] {
                // The odd stretch before puzzle q − 1 instead: it and the
                // puzzles up to p are read len − n rows further on.
                let moved = pieces[q - 1].0 + len;
                if (0..p - q + 1).any(|t| refuted(self, moved + t * n)) {
                    break;
                }
                q -= 1;
            }
            doubtful[q..=p].fill(true);
        }
        for (p, &(i, len)) in pieces.iter().enumerate() {
            let line = rows[i].0;
            if doubtful[p] {
                // The stretch of doubtful pieces this one is in.
                let first = (0..=p).rev().take_while(|&r| doubtful[r]).last().unwrap_or(p);
                let last = (p..pieces.len()).take_while(|&r| doubtful[r]).last().unwrap_or(p);
                let (a, b) = (rows[pieces[first].0].0, rows[pieces[last].0 + pieces[last].1 - 1].0);
                let kind = ParseErrorKind::OddPuzzle { rows: len, n, stretch: (a, b), told: first == last };
                let error = self.error(line, None, kind);
                let entry = self.entry(line, None, Err(error));
                self.ready.push_back(entry);
                continue;
            }
            if len == n {
                let puzzle = self.resolve(line, n, &rows[i..i + n]);
                let entry = self.entry(line, None, puzzle);
                self.ready.push_back(entry);
            } else if cut && i + len == total && len < n {
                // Read again, with the rows after the cut.
                for (line, tokens) in rows[i..].iter().rev() {
                    let cells = Cells::new(tokens.clone(), false);
                    self.pending.push_front((*line, LineKind::Cells(cells)));
                }
            } else {
                unreachable!("an odd stretch is doubtful");
            }
        }
        true
    }

    /// The puzzle whose first `rows` rows (from line `first`; none: the
    /// next line is its first) are read and whose next line is a row written
    /// wrong ([`Self::damaged_row_ahead`]): that line and the rows after it
    /// up to the puzzle's n-th are taken, and the puzzle is one record.
    fn damaged_block(&mut self, first: Option<usize>, rows: usize, n: usize) {
        let Some((at, odd)) = self.next_line() else { unreachable!("just peeked") };
        let count = odd_row_length(&odd).expect("just peeked");
        for _ in rows + 1..n {
            self.row_ahead(n).expect("just peeked");
        }
        let first = first.unwrap_or(at);
        let error = self.error(at, None, ParseErrorKind::DamagedRow { first, row: rows + 1, count, n });
        let entry = self.entry(first, None, Err(error));
        self.ready.push_back(entry);
    }

    /// The side m of the block whose first row, a line of n cells just read,
    /// is written wrong: the next line is a row of m cells, m near n, and
    /// the rows of m cells from it, with that first line, make whole puzzles.
    fn damaged_first_row(&mut self, n: usize) -> Option<usize> {
        let Some((_, LineKind::Cells(next))) = self.peek(0) else { return None };
        let m = next.tokens.len();
        if next.field || next.label.is_some() || m == n || m.abs_diff(n) > (m / 3).max(2) || is_whole_count(n) {
            return None;
        }
        // Rows that make whole puzzles without it, or whole grids of m − 1
        // rows each ending in a delimiter: the line is none of theirs.
        let delimiter = next.delimiter;
        if self.makes_whole_puzzles(m, 0, 0)
            || self
                .trailing_stretch(m, delimiter, None)
                .is_some_and(|(empty, _, more)| !empty.is_empty() && whole_grids(&empty, m - 1, more))
        {
            return None;
        }
        self.makes_whole_puzzles(m, 1, 0).then_some(m)
    }

    /// Whether `before` rows and the rows of n cells from the line `ahead`
    /// lines on (rules skipped), up to the next line that is none, make
    /// whole puzzles of n rows (counted up to a run's limit).
    fn makes_whole_puzzles(&mut self, n: usize, before: usize, ahead: usize) -> bool {
        let (rows, _) = self.rows_ahead(n, ahead, (MAX_RUN_ROWS + 1).saturating_sub(before));
        let empty = [vec![false; before], rows].concat();
        empty.len() >= n && whole_grids(&empty, n, empty.len() > MAX_RUN_ROWS)
    }

    /// The rows of n cells from the line `ahead` lines on (rules skipped),
    /// up to the first line that is none and at most `cap` of them: whether
    /// each is a row of only delimiters (an empty row, or a blank line
    /// between puzzles), and whether more may follow the last.
    fn rows_ahead(&mut self, n: usize, ahead: usize, cap: usize) -> (Vec<bool>, bool) {
        let (mut empty, mut i) = (Vec::new(), ahead);
        while empty.len() < cap {
            match self.peek(i) {
                Some((_, LineKind::Rule)) => {}
                Some((_, LineKind::Cells(c))) if c.tokens.len() == n && !c.field && c.label.is_none() => {
                    empty.push(false)
                }
                Some((_, LineKind::Separator(c))) if c.tokens.len() == n => empty.push(true),
                _ => break,
            }
            i += 1;
        }
        let more = empty.len() == cap;
        (empty, more)
    }

    /// Whether the line `ahead` lines on (a line of cells of a length near
    /// n, after `rows` rows of a block of n) is a row of the block written wrong:
    /// the rows of n cells after it, up to the next line that is none, make
    /// the block whole and then whole puzzles (back to back). Otherwise the
    /// block ended short and the rows after the odd line are other puzzles'.
    fn damaged_row_ahead(&mut self, n: usize, rows: usize, ahead: usize) -> bool {
        // Near the block's length (a title may have it: `....8.4..  hard`),
        // and no whole puzzle of its own.
        let near =
            |(k, title): (usize, bool)| (k != n || title) && k.abs_diff(n) <= (n / 3).max(2) && !is_whole_count(k);
        let odd =
            self.peek(ahead).and_then(|(_, kind)| Some((odd_row_length(kind)?, matches!(kind, LineKind::Title(_)))));
        if !odd.is_some_and(near) {
            return false;
        }
        // Where a puzzle would start, rows that make whole puzzles without
        // it leave it a line of its own (`Page 2` above a grid whose last
        // row is empty, then a row of only delimiters).
        if rows == 0 && self.makes_whole_puzzles(n, 0, ahead + 1) {
            return false;
        }
        self.makes_whole_puzzles(n, rows + 1, ahead + 1)
    }

    /// The next row of a block of n-cell rows, rules skipped; or, leaving it
    /// unread, the line that is none (`None` at the end of the input).
    fn row_ahead(&mut self, n: usize) -> Result<(usize, Vec<Token>), Option<usize>> {
        loop {
            match self.peek(0) {
                Some((_, LineKind::Rule)) => {
                    self.next_line();
                }
                Some((_, LineKind::Cells(c) | LineKind::Separator(c)))
                    if c.tokens.len() == n && !c.field && c.label.is_none() =>
                {
                    let Some((line, LineKind::Cells(c) | LineKind::Separator(c))) = self.next_line() else {
                        unreachable!("just peeked")
                    };
                    return Ok((line, c.tokens));
                }
                Some((line, _)) => return Err(Some(*line)),
                None => return Err(None),
            }
        }
    }

    /// Why a block that started at `first` broke after `rows` rows, at line `at` (none: the end).
    fn broken_block(&mut self, first: usize, rows: usize, n: usize, at: Option<usize>) -> ParseError {
        let (line, what) = self.what_breaks(first, at);
        if rows == 1 {
            // A lone line: it is what is wrong, not the line after it.
            let next = if at.is_some() { format!("{what} (line {line})") } else { what };
            let expected = match self.spec.fixed_size() {
                Some(f) => {
                    format!("{} cells for a puzzle, or a row of {f} with {} more below, not {next}", f * f, f - 1)
                }
                None => format!("n² cells for a puzzle, or a row with {} more rows of {n} below, not {next}", n - 1),
            };
            return self.error(first, None, ParseErrorKind::NotAPuzzle { count: n, expected });
        }
        self.error(line, None, ParseErrorKind::BrokenBlock { first, rows, n, what })
    }

    /// The line that broke a block or grid that started at `first`, and
    /// what it is in words: the next line unread, at line `at` (none: the
    /// end of the input).
    fn what_breaks(&mut self, first: usize, at: Option<usize>) -> (usize, String) {
        let Some(line) = at else { return (self.line_no.max(first), "the end of the input".to_string()) };
        let what = match self.peek(0) {
            Some((_, LineKind::Blank)) => "a blank line".to_string(),
            Some((_, LineKind::Separator(_))) => {
                "a row of only delimiters (a blank line where no puzzle is under way)".to_string()
            }
            Some((_, LineKind::Cells(c))) => format!("a line of {} cells", c.tokens.len()),
            Some((_, LineKind::Title(_) | LineKind::Section(_) | LineKind::Header(..) | LineKind::IndexHeader(_))) => {
                "a title line".to_string()
            }
            Some((_, LineKind::LabelledRow(_, c))) => format!("a row of {} cells after its label", c.tokens.len()),
            Some((_, LineKind::Comment)) => "a comment line".to_string(),
            _ => "a line that is no row".to_string(),
        };
        (line, what)
    }

    /// Puzzles of n rows written back to back: `rows` is a whole number of
    /// them, or the run is checked for the one that is short or long.
    fn run(&mut self, rows: Vec<(usize, Vec<Token>)>, n: usize) {
        let (q, s) = (rows.len() / n, rows.len() % n);
        if s == 0 {
            for block in rows.chunks(n) {
                let line = block[0].0;
                let puzzle = self.resolve(line, n, block);
                let entry = self.entry(line, None, puzzle);
                self.ready.push_back(entry);
            }
            return;
        }
        // How wrong the n rows from `start` look as a puzzle: 0 for one with
        // exactly one solution (or too hard to tell within a moment), 1 for
        // one with none or several, 2 for one propagation refutes or that
        // does not read.
        let wrongness =
            |reader: &mut Self, start: usize| match reader.resolve(rows[start].0, n, &rows[start..start + n]) {
                Ok(puzzle) if Propagator::from_puzzle(&puzzle).and_then(|mut p| p.propagate()).is_ok() => {
                    let options = SolveOptions { timeout: Some(Duration::from_millis(200)), ..SolveOptions::default() };
                    match Search::new(&puzzle, &options).count_up_to(2) {
                        Ok(Count { count: 1, .. }) | Err(_) => 0,
                        Ok(_) => 1,
                    }
                }
                _ => 2,
            };
        // Aligned from the front (before the odd puzzle) and from the back (after it).
        let front: Vec<usize> = (0..q).map(|i| wrongness(self, i * n)).collect();
        let back: Vec<usize> = (0..q).map(|i| wrongness(self, i * n + s)).collect();
        // Refuted puzzles first (fewer is better), then proper ones (more is
        // better). Proper, not improper: the short reading has one more
        // puzzle of n rows to be improper, and sparse puzzles all are.
        let faults = |d: usize, skip: usize| {
            let blocks = front[..d].iter().chain(&back[d + skip..]);
            let refuted = blocks.clone().filter(|&&w| w == 2).count();
            let proper = blocks.filter(|&&w| w == 0).count();
            (refuted, std::cmp::Reverse(proper))
        };
        // One puzzle short (s rows, at position d of q + 1), or one long
        // (n + s rows, at position d of q): the fewest implausible puzzles
        // wins; on a tie, the reading with fewer rows amiss (n − s left out,
        // or s too many), and a short one when they are as many.
        let short = (0..=q).map(|d| faults(d, 0)).min().unwrap_or((0, std::cmp::Reverse(0)));
        let long = (0..q).map(|d| faults(d, 1)).min().unwrap_or((usize::MAX, std::cmp::Reverse(0)));
        let short_wins = short < long || (short == long && n - s <= s);
        let (odd_rows, skip, count) = if short_wins { (s, 0, q + 1) } else { (n + s, 1, q) };
        let best = if skip == 0 { short } else { long };
        let candidates: Vec<usize> = (0..count).filter(|&d| faults(d, skip) == best).collect();
        let (first_odd, last_odd) = (candidates[0], candidates[candidates.len() - 1]);
        let start_of = |slot: usize| if slot <= first_odd { slot * n } else { (slot - 1) * n + odd_rows };
        let span = |from: usize, to: usize| (rows[from].0, rows[to - 1].0);
        for slot in 0..count {
            let start = if slot < first_odd {
                slot * n
            } else if slot > last_odd {
                // After the odd puzzle: counted from the back.
                rows.len() - (count - slot) * n
            } else {
                start_of(slot)
            };
            let line = rows[start.min(rows.len() - 1)].0;
            let puzzle = if slot < first_odd || slot > last_odd {
                self.resolve(line, n, &rows[start..start + n])
            } else {
                let from = first_odd * n;
                let to = rows.len() - (count - 1 - last_odd) * n;
                let (a, b) = span(from, to);
                let kind = ParseErrorKind::Run {
                    rows: rows.len(),
                    n,
                    first: rows[0].0,
                    stretch: (a, b),
                    told: first_odd == last_odd,
                    odd_rows,
                };
                Err(self.error(a, None, kind))
            };
            let entry = self.entry(line, None, puzzle);
            self.ready.push_back(entry);
        }
    }

    /// The side m of a pencil-mark line (m³ cells, each cell's m candidates
    /// at their own places, at least one per cell), if it is one. Where m³
    /// is a square too (64 cells: 4×4 marks or an 8×8 puzzle; 729: 9×9 or
    /// 27×27), marks in place win: as a puzzle such a line is never valid
    /// (each of its columns can hold one value only, in one cell, which
    /// leaves fewer givens than the m² cells that each need one).
    fn pencil_side(&self, cells: &Cells) -> Option<usize> {
        if cells.words {
            return None;
        }
        let k = cells.tokens.len();
        let m = match self.spec.fixed_size() {
            Some(n) => (n.checked_pow(3) == Some(k)).then_some(n)?,
            None => (2..=self.alphabet.len()).find(|m| m * m * m >= k).filter(|m| m * m * m == k)?,
        };
        // Every cell keeps some candidate, each at its own place: a line of
        // dots alone is a blank 27×27, not a 9×9 with no candidate anywhere.
        let in_place = cells.tokens.chunks(m).all(|cell| {
            cell.iter().any(|t| !matches!(t.symbol, Symbol::Empty))
                && cell.iter().enumerate().all(|(p, t)| {
                    matches!(t.symbol, Symbol::Empty) || matches!(t.symbol, Symbol::Value(v) if v == p + 1)
                })
        });
        in_place.then_some(m)
    }

    /// A candidate grid (HoDoKu's and Simple Sudoku's pencil-mark grid), if
    /// `first` (at `line`) starts one: m rows of m words, rules between, each
    /// word a cell's candidates as digits 1..=m in increasing order, some
    /// cell with more than one. Its rows are taken from the input.
    ///
    /// A first row of m ≥ 4 such words, one of them with several digits,
    /// starts a candidate grid for sure: a row below with a bad word, or with
    /// a word too many or too few, is still a row of it, and the grid is one
    /// invalid record that names the first fault where it is, rather than
    /// rows read as puzzles of their own. A line that is no row of candidates
    /// at all ends the grid short and starts afresh.
    fn candidate_grid(&mut self, line: usize, first: &Cells) -> Option<Result<Puzzle, ParseError>> {
        if first.field || first.label.is_some() {
            return None;
        }
        let first_row = candidate_words(first)?;
        let m = first_row.len();
        if !(2..=9).contains(&m) || self.spec.fixed_size().is_some_and(|n| n != m) {
            return None;
        }
        if !first_row.iter().all(|w| w.fits(m)) {
            return None;
        }
        let sure = m >= 4 && first_row.iter().any(|w| w.digits.len() > 1);
        let mut rows = vec![(line, first_row)];
        let mut ahead = 0;
        while rows.len() < m {
            let row = match self.peek(ahead) {
                Some((_, LineKind::Rule)) => Ok(None),
                Some((at, LineKind::Cells(c))) if !c.field && c.label.is_none() => match candidate_words(c) {
                    Some(words) => Ok(Some((*at, words))),
                    None => Err(Some(*at)),
                },
                other => Err(other.map(|(at, _)| *at)),
            };
            let end = match row {
                Ok(None) => None,
                Ok(Some((at, words))) => {
                    let belongs = words.iter().filter(|w| w.fits(m)).count() * 2 >= m;
                    let whole = words.len() == m && words.iter().all(|w| w.fits(m));
                    if whole || (sure && belongs) {
                        rows.push((at, words));
                        None
                    } else {
                        Some(Some(at))
                    }
                }
                Err(at) => Some(at),
            };
            if let Some(at) = end {
                if !sure {
                    return None;
                }
                // The rows read are the grid's; the line that ended it starts afresh.
                for _ in 0..ahead {
                    self.next_line();
                }
                let (at, what) = self.what_breaks(line, at);
                let kind = ParseErrorKind::ShortCandidateGrid { first: line, rows: rows.len(), m, what };
                return Some(Err(self.error(at, None, kind)));
            }
            ahead += 1;
        }
        if rows.iter().flat_map(|(_, words)| words).all(|w| w.digits.len() == 1) {
            return None;
        }
        for _ in 0..ahead {
            self.next_line();
        }
        // The first fault, where it is: a row of the wrong length, or a bad word.
        for (index, (at, words)) in rows.iter().enumerate() {
            if words.len() != m {
                let kind = ParseErrorKind::CandidateRow { first: line, row: index + 1, count: words.len(), m };
                return Some(Err(self.error(*at, None, kind)));
            }
            if let Some(word) = words.iter().find(|w| !w.fits(m)) {
                let kind = ParseErrorKind::NotCandidates { word: word.text.clone(), m };
                return Some(Err(self.error(*at, Some(word.column), kind)));
            }
        }
        let sets: Vec<&[usize]> = rows.iter().flat_map(|(_, words)| words).map(|w| w.digits.as_slice()).collect();
        Some(self.marked_puzzle(line, m, sets.into_iter()))
    }

    /// A grid with coordinates, if `header` starts one: the column numbers
    /// 1 to n on a line, then n rows (rules between), each its label (`A`,
    /// `B`, … or `a`, `b`, … or 1, 2, …) and its n cells. The rows are taken
    /// from the input.
    fn coordinate_grid(&mut self, header: &Cells) -> Option<Result<Puzzle, ParseError>> {
        let n = header.tokens.len();
        let numbered =
            header.tokens.iter().enumerate().all(|(i, t)| matches!(t.symbol, Symbol::Value(v) if v == i + 1));
        if n < 4
            || header.field
            || header.label.is_some()
            || !numbered
            || self.spec.fixed_size().is_some_and(|f| f != n)
        {
            return None;
        }
        let label = |t: &Token, row: usize| match t.text {
            TokenText::Char(c) => [b'A', b'a'].iter().any(|&a| row < 26 && c == char::from(a + row as u8)),
            TokenText::Word(_) => false,
        } || matches!(t.symbol, Symbol::Value(v) if v == row + 1);
        let mut rows = Vec::with_capacity(n);
        let mut ahead = 0;
        while rows.len() < n {
            match self.peek(ahead)? {
                (_, LineKind::Rule) => {}
                (line, LineKind::Cells(c))
                    if !c.field && c.label.is_none() && c.tokens.len() == n + 1 && label(&c.tokens[0], rows.len()) =>
                {
                    rows.push((*line, c.tokens[1..].to_vec()));
                }
                _ => return None,
            }
            ahead += 1;
        }
        for _ in 0..ahead {
            self.next_line();
        }
        Some(self.resolve(rows[0].0, n, &rows))
    }

    /// A puzzle of each cell's candidates (values 1..=m, in cell order): a
    /// pencil-mark line's or a candidate grid's. A cell with one is a given.
    fn marked_puzzle<'s>(
        &mut self,
        line: usize,
        m: usize,
        cells: impl Iterator<Item = &'s [usize]>,
    ) -> Result<Puzzle, ParseError> {
        let geometry = self.spec.geometry_for(m).map_err(|e| self.error(line, None, ParseErrorKind::Geometry(e)))?;
        let mut candidates = Domains::full(m);
        let mut givens = Grid::empty(m);
        for (index, values) in cells.enumerate() {
            let cell = crate::model::geometry::Cell::from_index(index);
            for value in (1..=m).filter(|v| !values.contains(v)) {
                candidates.remove(cell, Value::from_index(value - 1));
            }
            if let [value] = values {
                givens.set(cell, Some(Value::from_index(value - 1)));
            }
        }
        Ok(Puzzle::with_candidates(geometry, givens, candidates).expect("geometry_for(m) has side m"))
    }

    /// Turn the rows of a side-`n` puzzle into a puzzle of the spec's geometry.
    fn resolve(&mut self, line: usize, n: usize, rows: &[(usize, Vec<Token>)]) -> Result<Puzzle, ParseError> {
        let geometry = self.spec.geometry_for(n).map_err(|e| self.error(line, None, ParseErrorKind::Geometry(e)))?;
        let givens = self.givens(line, n, rows)?;
        Ok(Puzzle::new(geometry, givens).expect("geometry_for(n) has side n"))
    }

    /// The givens of the rows of a side-`n` puzzle.
    fn givens(&self, line: usize, n: usize, rows: &[(usize, Vec<Token>)]) -> Result<Grid, ParseError> {
        if self.alphabet.is_custom() && self.alphabet.len() < n {
            return Err(self.error(line, None, ParseErrorKind::ShortAlphabet { symbols: self.alphabet.len(), n }));
        }
        let mut cells = Vec::with_capacity(n * n);
        for (line, tokens) in rows {
            for token in tokens {
                let value = match token.symbol {
                    Symbol::Empty => None,
                    Symbol::Value(number) => match Value::new_checked(number, n) {
                        Some(v) => Some(v),
                        None => {
                            let kind = ParseErrorKind::ValueOutOfRange {
                                symbol: token.text.to_string(),
                                n,
                                expected: self.alphabet.expected(n),
                            };
                            return Err(self.error(*line, Some(token.column as usize), kind));
                        }
                    },
                    Symbol::Unknown => {
                        let kind = ParseErrorKind::UnknownSymbol {
                            symbol: token.text.to_string(),
                            expected: self.alphabet.expected(n),
                        };
                        return Err(self.error(*line, Some(token.column as usize), kind));
                    }
                };
                cells.push(value);
            }
        }
        Ok(Grid::from_cells(n, cells).expect("n rows of n cells, each value checked against n"))
    }
}

/// What [`read_bounded_line`] found.
enum Line {
    Read,
    TooLong,
    End,
}

/// Read one line into `buf` (without its `\n`), or skip it, unstored, past
/// `limit` bytes.
fn read_bounded_line(input: &mut impl BufRead, buf: &mut Vec<u8>, limit: usize) -> std::io::Result<Line> {
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if !any {
                Line::End
            } else if too_long {
                Line::TooLong
            } else {
                Line::Read
            });
        }
        any = true;
        // A line ends at LF, CRLF, or a lone CR (classic Mac OS files).
        let (chunk, done) = match available.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => (&available[..i], Some((i + 1, available[i] == b'\r'))),
            None => (available, None),
        };
        if !too_long {
            if buf.len() + chunk.len() > limit {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        let used = done.map_or(available.len(), |(used, _)| used);
        input.consume(used);
        if let Some((_, cr)) = done {
            if cr {
                // The LF of a CRLF, perhaps in the next buffer.
                loop {
                    match input.fill_buf() {
                        Ok(bytes) => {
                            if bytes.first() == Some(&b'\n') {
                                input.consume(1);
                            }
                            break;
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e),
                    }
                }
            }
            return Ok(if too_long { Line::TooLong } else { Line::Read });
        }
    }
}

/// The cells of a line that may be a row written wrong: a line of cells
/// (not a field or a labelled puzzle), or a title that is cells (and box
/// rules) up to its first word (`....8.4..  hard`, `|4..|...|8.5| hard`).
fn odd_row_length(kind: &LineKind) -> Option<usize> {
    match kind {
        LineKind::Cells(c) if !c.field && c.label.is_none() => Some(c.tokens.len()),
        LineKind::Title(title) => {
            // The cells it starts with, box rules and spaces between, up to
            // what made it a title (`hard`, `(sic)`).
            let cell = |c: char| c.is_ascii_digit() || matches!(c, '.' | '_' | '*');
            let cells = title.chars().take_while(|&c| cell(c) || is_separator(c)).filter(|&c| cell(c)).count();
            (cells > 0).then_some(cells)
        }
        _ => None,
    }
}

/// Whether `k` cells on one line make a whole puzzle of side 4 or more.
fn is_whole_count(k: usize) -> bool {
    exact_sqrt(k).is_some_and(|m| m >= 4)
}

/// The square root of `k`, when `k` is a square.
fn exact_sqrt(k: usize) -> Option<usize> {
    let r = (k as f64).sqrt() as usize;
    (r.saturating_sub(1)..=r + 1).find(|&r| r.checked_mul(r) == Some(k))
}

/// Whether a line of digits, empty marks and dashes uses the dashes for
/// empty cells (`4-----8-5-3---…`, as some sites write puzzles): with them
/// as cells it is a whole puzzle, without them (as rules between boxes) it
/// is not, and it has a digit. A row with dashes between its boxes
/// (`123-456-789`, `1234-5678-9abc-defg`) is never a square number of
/// characters as long as a whole puzzle.
fn dashes_for_empty(text: &str) -> bool {
    let cellish = |b: u8| matches!(b, b'0'..=b'9' | b'.' | b'_');
    text.bytes().all(|b| cellish(b) || b == b'-')
        && text.bytes().any(|b| b.is_ascii_digit())
        && is_whole_count(text.len())
        && !is_whole_count(text.bytes().filter(|&b| b != b'-').count())
}

/// Separators between the cells of a row.
fn is_separator(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, '|' | '+' | '-')
}

/// A rule line: only separators, or a run of dashes with box corners (`*`,
/// `.`, `'`, `:`) at its ends and joints.
fn is_rule(text: &str) -> bool {
    let frame = |ch: char| is_separator(ch) || matches!(ch, '=' | '*' | ':' | '\'' | '~');
    text.chars().all(frame) || (text.contains("--") && text.chars().all(|ch| frame(ch) || ch == '.' || ch == '_'))
}

/// Whether a run of letters is a word, not cells: two or more letters, one
/// of them lower-case and no cell (see [`is_text`]).
fn is_word(run: &str, alphabet: &Alphabet) -> bool {
    let texty = |c: char| match alphabet.is_custom() {
        true => c.is_lowercase() && alphabet.read(c) == Symbol::Unknown,
        false => c.is_lowercase() && !('a'..='g').contains(&c),
    };
    let lower = run.chars().filter(|c| c.is_lowercase()).count();
    run.chars().count() >= 2 && (run.chars().any(texty) || (lower >= 4 && !alphabet.is_custom()))
}

/// Whether a line reads as words rather than cells: a run of two or more
/// letters with a lower-case one that cannot be a cell (`Sudoku`, `Grid`,
/// `quizzes`), or mostly characters that are no cell at all.
///
/// With the default alphabet every letter is a symbol (A-Z are 10-35, in
/// either case), so a word counts as text when it has a lower-case letter
/// past `g` (the letters of a 16×16 grid are a-g) or four lower-case letters
/// in a row. With `--symbols`, a lower-case letter the alphabet lacks.
fn is_text(text: &str, alphabet: &Alphabet) -> bool {
    let wordy = text.split(|c: char| !c.is_alphabetic()).any(|word| is_word(word, alphabet));
    let visible: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let cells = visible.iter().filter(|&&c| alphabet.read(c) != Symbol::Unknown || is_separator(c)).count();
    wordy || cells * 2 < visible.len()
}

/// What the headers read so far say of the lines below them.
#[derive(Clone, Copy, Default)]
struct Under {
    /// A CSV header has been read: every delimited line is a row of fields.
    csv: bool,
    /// The header named the puzzle column (else a spreadsheet's grid may follow it).
    named: bool,
}

/// What a line is, on its own, under the headers read so far.
fn classify(text: &str, alphabet: &Alphabet, fixed: Option<usize>, under: Under) -> LineKind {
    let text = text.trim_end_matches(['\n', '\r']);
    // The common case first: digits and empty marks alone, one symbol per
    // cell (a million puzzle lines go through here).
    if !alphabet.is_custom() && !text.is_empty() && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'.' | b'_')) {
        let tokens = text
            .chars()
            .enumerate()
            .map(|(i, ch)| Token { column: i as u32 + 1, text: TokenText::Char(ch), symbol: alphabet.read(ch) })
            .collect();
        return LineKind::Cells(Cells::new(tokens, false));
    }
    if !alphabet.is_custom() && dashes_for_empty(text) {
        let tokens = text
            .chars()
            .enumerate()
            .map(|(i, ch)| {
                let symbol = if ch == '-' { Symbol::Empty } else { alphabet.read(ch) };
                Token { column: i as u32 + 1, text: TokenText::Char(ch), symbol }
            })
            .collect();
        return LineKind::Cells(Cells::new(tokens, false));
    }
    if let Some((column, ch)) = text.chars().enumerate().find(|(_, c)| c.is_control() && *c != '\t') {
        let byte = u8::try_from(u32::from(ch)).unwrap_or(u8::MAX);
        return LineKind::Broken(ParseErrorKind::BadByte { byte, what: control_name(ch) }, Some(column + 1));
    }
    let trimmed = text.trim();
    if trimmed.is_empty() {
        // An empty row copied from a spreadsheet is its tabs: a separator.
        let row = (text.matches('\t').count() >= 3).then(|| delimited(text, alphabet, fixed, under)).flatten();
        return row.unwrap_or(LineKind::Blank);
    }
    if trimmed.starts_with('#') || trimmed.starts_with("//") {
        return LineKind::Comment;
    }
    // The sections of an `.sdk` file; any other bracketed line is a title.
    if let Some(name) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        const SDK: [&str; 5] = ["puzzle", "state", "pencilmarks", "colours", "colors"];
        if SDK.contains(&name.trim().to_ascii_lowercase().as_str()) {
            return LineKind::Section(name.trim().to_string());
        }
    }
    if is_rule(trimmed) {
        return LineKind::Rule;
    }
    // A comment after the cells: `4..7… # hard`.
    let text = match text.find(" #").or_else(|| text.find("\t#")) {
        Some(i) if !alphabet.is_custom() => &text[..i],
        _ => text,
    };
    if let Some(kind) = delimited(text, alphabet, fixed, under) {
        return kind;
    }
    let cells = tokenize(text, 0, alphabet);
    let whole = |k: usize| fixed.map_or(exact_sqrt(k).is_some(), |n| n.checked_mul(n) == Some(k) || n == k);
    if cells.tokens.iter().all(|t| t.symbol != Symbol::Unknown) && !is_text(text, alphabet) {
        // `0042 4..7… 3.5`: an index and a rating around a puzzle.
        if !cells.words && !whole(cells.tokens.len()) {
            if let Some(kind) = labelled(text, alphabet, fixed) {
                return kind;
            }
        }
        return LineKind::Cells(cells);
    }
    // A label and a puzzle: `Puzzle 3: 4..7…`, `0042 4..7… 3.5`.
    if let Some(kind) = labelled(text, alphabet, fixed) {
        return kind;
    }
    if is_text(text, alphabet) {
        if let Some((kind, column)) = stuck_word(text, alphabet, fixed) {
            return LineKind::Broken(kind, Some(column));
        }
        if let Some(cells) = damaged_puzzle(text, alphabet) {
            return LineKind::Cells(cells);
        }
        return LineKind::Title(echo(trimmed));
    }
    LineKind::Cells(cells)
}

/// The fewest digits and empty marks in one word that make a line a puzzle
/// gone wrong rather than a title: the cells of a 4×4, the smallest puzzle
/// written on one line.
const DAMAGED_CELLS: usize = 16;

/// The digits and empty marks (`.`, `_`, `*`) of `text`: how much of a puzzle it holds.
fn cellish_count(text: &str) -> usize {
    text.chars().filter(|&c| c.is_ascii_digit() || matches!(c, '.' | '_' | '*')).count()
}

/// A line that reads as words but holds a puzzle gone wrong (`Puzzle 1:
/// <80 cells>`, `<80 cells> hard`, `?` for empty, numbers with commas and a
/// word after them): the first whitespace-separated word with at least
/// [`DAMAGED_CELLS`] digits and empty marks, as cells, with the words before
/// it as its label. Such a line is a record (an invalid one, as framing
/// finds), never a title that would lose the puzzle without a word.
fn damaged_puzzle(text: &str, alphabet: &Alphabet) -> Option<Cells> {
    let words = words_with_columns(text);
    let &(column, word) = words.iter().find(|(_, w)| cellish_count(w) >= DAMAGED_CELLS)?;
    let mut cells = field_cells(word, column - 1, alphabet);
    let label = text[..text.find(word).unwrap_or(0)].trim().trim_end_matches(':').trim();
    cells.label = (!label.is_empty()).then(|| echo(label));
    Some(cells)
}

/// A whole puzzle with a word or punctuation stuck to it (`4..7…zz`,
/// `puzzle4..7…`, `4..7…(hard)`), which would read as a title: the first
/// such stretch, named at its 1-based column, when taking the words (as
/// [`is_text`] sees them) and every character that is no symbol out of a
/// piece of the line (split at whitespace, `,`, `;` and `:`) leaves a
/// whole puzzle. Box rules (`|`, `+`, `-`) go too, unnamed.
fn stuck_word(text: &str, alphabet: &Alphabet, fixed: Option<usize>) -> Option<(ParseErrorKind, usize)> {
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Part {
        Cell,
        Rule,
        Stray,
    }
    let chars: Vec<char> = text.chars().collect();
    let apart = |c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':');
    let mut start = 0;
    while start < chars.len() {
        let end = (start..chars.len()).find(|&i| apart(chars[i])).unwrap_or(chars.len());
        let mut parts: Vec<Part> = chars[start..end]
            .iter()
            .map(|&c| match alphabet.read(c) {
                Symbol::Unknown if is_separator(c) => Part::Rule,
                Symbol::Unknown => Part::Stray,
                _ => Part::Cell,
            })
            .collect();
        let mut i = start;
        while i < end {
            let run_end = (i..end).find(|&j| !chars[j].is_alphabetic()).unwrap_or(end);
            if run_end == i {
                i += 1;
                continue;
            }
            let run: String = chars[i..run_end].iter().collect();
            if is_word(&run, alphabet) {
                parts[i - start..run_end - start].fill(Part::Stray);
            }
            i = run_end;
        }
        // A `.` right before or after a stray stretch may be its punctuation
        // (`<81 cells>.txt`): tried as a cell first, then as part of it.
        let mut dotted = parts.clone();
        for j in 0..parts.len() {
            let beside = |k: Option<usize>| k.and_then(|k| parts.get(k)) == Some(&Part::Stray);
            if parts[j] == Part::Cell && chars[start + j] == '.' && (beside(j.checked_sub(1)) || beside(Some(j + 1))) {
                dotted[j] = Part::Stray;
            }
        }
        for parts in [parts, dotted] {
            let kept: String = (start..end).filter(|&j| parts[j - start] == Part::Cell).map(|j| chars[j]).collect();
            let first = parts.iter().position(|&p| p == Part::Stray);
            if let Some(first) = first.filter(|_| is_whole_puzzle(&kept, alphabet, fixed)) {
                let last = parts[first..].iter().position(|&p| p == Part::Cell).map_or(parts.len(), |p| first + p);
                let stray: String = chars[start + first..start + last].iter().collect();
                let side = fixed.or_else(|| exact_sqrt(kept.chars().count())).unwrap_or(0);
                let kind = ParseErrorKind::UnknownSymbol { symbol: stray, expected: alphabet.expected(side) };
                return Some((kind, start + first + 1));
            }
        }
        start = end + 1;
    }
    None
}

/// Names for the control characters messages mention.
fn control_name(ch: char) -> &'static str {
    match ch {
        '\0' => "a NUL byte",
        '\u{1b}' => "an escape character",
        _ => "a control character",
    }
}

/// A line of fields: CSV (`,` or `;`), or `:`-separated as tdoku's
/// `puzzle:count:solution`. A header names the puzzle column; in a row, the
/// puzzle is that column's field, or the first field that is a whole puzzle.
/// Numbers separated by commas alone are a row of numbers.
fn delimited(text: &str, alphabet: &Alphabet, fixed: Option<usize>, under: Under) -> Option<LineKind> {
    let csv = under.csv;
    let split = |delimiter: char| -> Vec<(usize, &str)> {
        let mut column = 0;
        text.split(delimiter)
            .map(|field| {
                let start = column;
                column += field.chars().count() + 1;
                (start, field)
            })
            .collect()
    };
    // Tab-separated fields, one of them a whole puzzle (as symbols, or as
    // numbers with commas: `id<TAB>n<TAB>2,1,0,4,…<TAB>…`). Tabs between
    // the numbers of a row are no fields.
    if text.contains('\t') {
        let fields = split('\t');
        if fields.iter().any(|(_, f)| is_whole_field(f.trim(), alphabet, fixed)) {
            return Some(LineKind::Fields(fields.into_iter().map(|(column, f)| (column, f.to_string())).collect()));
        }
        // A row copied from a spreadsheet: its cells between tabs.
        if let Some(row) = spreadsheet_row(&fields, '\t', alphabet, under) {
            return Some(row);
        }
    }
    let delimiter = [',', ';', ':'].into_iter().find(|&d| text.contains(d))?;
    let fields = split(delimiter);
    if fields.len() < 2 {
        return None;
    }
    if delimiter == ',' && fields.iter().all(|(_, f)| cell_number(f.trim())) {
        let cells = tokenize(&text.replace(',', " "), 0, alphabet);
        return Some(LineKind::Cells(Cells { delimiter: Some(','), ..cells }));
    }
    // A header that names no puzzle column (`C1,C2,…`) may head a
    // spreadsheet's grid.
    if let Some(row) = spreadsheet_row(&fields, delimiter, alphabet, under) {
        return Some(row);
    }
    let name = |f: &str| {
        let f = f.trim();
        f.chars().next().is_some_and(char::is_alphabetic)
            && f.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | ' ' | '-'))
            && !is_whole_puzzle(f, alphabet, fixed)
    };
    if delimiter != ':' && fields.iter().all(|(_, f)| name(f)) {
        const PUZZLE: [&str; 7] = ["quizzes", "quiz", "puzzle", "puzzles", "givens", "grid", "problem"];
        let column = fields.iter().position(|(_, f)| PUZZLE.contains(&f.trim().to_ascii_lowercase().as_str()));
        return Some(LineKind::Header(column.unwrap_or(0), column.is_some()));
    }
    // Under a CSV header every row is fields, its puzzle column empty or not.
    if !(csv && delimiter != ':') {
        fields.iter().find(|(_, f)| is_whole_puzzle(f.trim(), alphabet, fixed))?;
    }
    // A puzzle a stray delimiter cut in two, whose bigger part happens to be
    // a whole smaller puzzle (64 cells of an 81-cell line cut by a `:`): two
    // neighbouring fields of cells, one whole and one not, that joined back
    // (with or without a cell for the delimiter) make a whole bigger puzzle.
    // The part that is no whole puzzle is named, and nothing is read. A date
    // or a rating beside a puzzle joins back into no puzzle and is a field.
    let cells = |f: &str| {
        !f.is_empty() && !f.contains(char::is_whitespace) && f.chars().all(|c| alphabet.read(c) != Symbol::Unknown)
    };
    let square = |k: usize| exact_sqrt(k).is_some_and(|m| m >= 4);
    for pair in fields.windows(2) {
        let [(_, a), (_, b)] = [pair[0], pair[1]].map(|(column, f)| (column, f.trim()));
        let whole = [a, b].map(|f| is_whole_puzzle(f, alphabet, fixed));
        let joined = a.chars().count() + b.chars().count();
        if cells(a) && cells(b) && whole[0] != whole[1] && (square(joined) || square(joined + 1)) {
            let (column, field) = if whole[0] { pair[1] } else { pair[0] };
            let count = field.trim().chars().count();
            let indent = field.chars().count() - field.trim_start().chars().count();
            return Some(LineKind::Broken(ParseErrorKind::CutPuzzle { count, delimiter }, Some(column + indent + 1)));
        }
    }
    Some(LineKind::Fields(fields.into_iter().map(|(column, f)| (column, f.to_string())).collect()))
}

/// A row as a spreadsheet saves it: numbers separated by `,` or `;` (or
/// tabs, as a copied range pastes), an
/// empty field an empty cell (`5,3,,,7,,,,`), any field possibly in quotes
/// (`"5","",…`); a [`LineKind::Separator`] when every field is empty. Four
/// cells at least, so that a stray `1,,` is no row; never under a CSV
/// header that names the puzzle column, where an empty field is an empty
/// column, nor with `--symbols`, whose cells are no numbers. A row may
/// start with its label (`Row 1,5,3,…`, or any first field under an
/// [`LineKind::IndexHeader`]), and a header may number or name the columns.
fn spreadsheet_row(fields: &[(usize, &str)], delimiter: char, alphabet: &Alphabet, under: Under) -> Option<LineKind> {
    if under.named || alphabet.is_custom() || !matches!(delimiter, ',' | ';' | '\t') || fields.len() < 4 {
        return None;
    }
    let fields: Vec<(usize, &str)> = fields
        .iter()
        .map(|&(start, field)| {
            let indent = field.chars().count() - field.trim_start().chars().count();
            match field.trim().strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
                Some(inner) => (start + indent + 1, inner),
                None => (start, field),
            }
        })
        .collect();
    let all_empty = fields.iter().all(|(_, f)| f.trim().is_empty());
    // `,1,2,…,9` or `,A,B,…,I` over a grid: the corner empty, the columns
    // numbered in order or named. Numbers may be a row too.
    let mut header = None;
    if let Some(((_, corner), columns)) = fields.split_first().filter(|_| !all_empty && fields.len() > 4) {
        // A delimiter after the last name opens no column.
        let columns = match columns.split_last() {
            Some(((_, last), names)) if last.trim().is_empty() => names,
            _ => columns,
        };
        let numbered = columns.iter().enumerate().all(|(i, (_, f))| f.trim().parse() == Ok(i + 1));
        let named = columns.iter().all(|(_, f)| row_label(f.trim()));
        if corner.trim().is_empty() && columns.len() >= 4 && named {
            return Some(LineKind::IndexHeader(columns.len()));
        }
        if corner.trim().is_empty() && columns.len() >= 4 && numbered {
            header = u16::try_from(columns.len()).ok();
        }
    }
    // The row's label, before its cells.
    let label = match fields.first() {
        Some((_, first)) if row_label(first.trim()) && !all_empty => Some(first.trim()),
        _ => None,
    };
    let fields = &fields[usize::from(label.is_some())..];
    if fields.len() < 4 {
        return None;
    }
    let mut tokens: Vec<Token> = fields
        .iter()
        .map(|&(start, field)| {
            let word = field.trim();
            let indent = field.chars().count() - field.trim_start().chars().count();
            let symbol = match word.parse::<usize>() {
                _ if word.is_empty() || word == "." => Symbol::Empty,
                Ok(0) => Symbol::Empty,
                Ok(v) if cell_number(word) => Symbol::Value(v),
                _ => return None,
            };
            Some(Token { column: (start + indent + 1) as u32, text: TokenText::Word(word.into()), symbol })
        })
        .collect::<Option<_>>()?;
    // A whole puzzle on one line with a delimiter after its last cell
    // (`…,7,9,`): that delimiter ends the line, it opens no cell. (Three
    // such lines were read as rows of an 82×82 block: one record.)
    let cut = match fields.split_last() {
        Some(((_, last), cells)) if last.is_empty() && is_whole_count(cells.len()) => tokens.pop().map(Box::new),
        _ => None,
    };
    let cells = Cells { cut, columns: header, delimiter: Some(delimiter), ..Cells::new(tokens, true) };
    Some(match label {
        _ if all_empty => LineKind::Separator(cells),
        Some(label) => LineKind::LabelledRow(echo(label), cells),
        None => LineKind::Cells(cells),
    })
}

/// A spreadsheet row's label or a column's name: a short word that starts
/// with a letter (`Row 1`, `R1`, `A`, `C10`).
fn row_label(field: &str) -> bool {
    field.chars().next().is_some_and(|c| c.is_alphabetic())
        && field.chars().count() <= 12
        && field.chars().all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.'))
}

/// A value of a cell in a row of delimited numbers: `.`, or a number of at
/// most four digits (MAX_SIZE).
fn cell_number(w: &str) -> bool {
    w == "." || (!w.is_empty() && w.len() <= 4 && w.bytes().all(|b| b.is_ascii_digit()))
}

/// Numbers separated by commas alone (`2,1,0,4`, `.` for empty too).
fn comma_numbers(text: &str) -> bool {
    text.contains(',') && text.split(',').all(|w| cell_number(w.trim()))
}

/// Whether a field of a delimited line is one whole puzzle: of single
/// symbols, or numbers separated by commas.
fn is_whole_field(text: &str, alphabet: &Alphabet, fixed: Option<usize>) -> bool {
    let k = text.split(',').count();
    is_whole_puzzle(text, alphabet, fixed)
        || (comma_numbers(text) && fixed.map_or(is_whole_count(k), |n| n.checked_mul(n) == Some(k)))
}

/// The regions of a jigsaw of `k` = n² cells, if `field` is its map:
/// region numbers 0..n − 1 separated by commas, each n times (so never a
/// solution, whose values are 1..=n).
fn region_map(field: &str, k: usize) -> Option<Vec<u32>> {
    let n = exact_sqrt(k).filter(|&n| n >= 2)?;
    let map: Vec<u32> = field.split(',').map(|w| w.trim().parse::<u32>().ok()).collect::<Option<_>>()?;
    let mut sizes = vec![0; n];
    for &region in &map {
        *sizes.get_mut(region as usize)? += 1;
    }
    (map.len() == k && sizes.iter().all(|&size| size == n)).then_some(map)
}

/// The cells of a field or word (numbers separated by commas, or symbols),
/// whose first character is at 0-based column `offset` of its line.
fn field_cells(text: &str, offset: usize, alphabet: &Alphabet) -> Cells {
    let trimmed = text.trim_matches(|c| matches!(c, ',' | ';' | ':'));
    match comma_numbers(trimmed) {
        true => tokenize(&text.replace([',', ';', ':'], " "), offset, alphabet),
        false => tokenize(text, offset, alphabet),
    }
}

/// Whether `text` is one whole puzzle of single symbols: k = m² cells (m ≥ 4,
/// or the fixed size), every one a symbol or an empty mark.
fn is_whole_puzzle(text: &str, alphabet: &Alphabet, fixed: Option<usize>) -> bool {
    let k = text.chars().count();
    let side = match fixed {
        Some(n) => n.checked_mul(n) == Some(k),
        None => is_whole_count(k),
    };
    side && !text.contains(char::is_whitespace) && text.chars().all(|c| alphabet.read(c) != Symbol::Unknown)
}

/// A line with a word that is a whole puzzle and other words around it (a
/// label, an index, a rating, a solution): the first word that holds a
/// puzzle, whole or damaged (as [`damaged_puzzle`] sees one), as cells, the
/// words before it as the puzzle's name. A damaged one is the puzzle, to be
/// reported (its stray stretch named, where [`stuck_word`] finds one):
/// never a name, with the solution after it read in its place.
fn labelled(text: &str, alphabet: &Alphabet, fixed: Option<usize>) -> Option<LineKind> {
    let words = words_with_columns(text);
    let whole = words.iter().position(|(_, w)| is_whole_puzzle(w, alphabet, fixed))?;
    if let Some(&(column, word)) = words[..whole].iter().find(|(_, w)| cellish_count(w) >= DAMAGED_CELLS) {
        return match stuck_word(word, alphabet, fixed) {
            Some((kind, at)) => Some(LineKind::Broken(kind, Some(column - 1 + at))),
            None => damaged_puzzle(text, alphabet).map(LineKind::Cells),
        };
    }
    let (column, word) = words[whole];
    let label = text[..text.find(word).unwrap_or(0)].trim().trim_end_matches(':').trim();
    let mut cells = tokenize(word, column - 1, alphabet);
    cells.label = (!label.is_empty()).then(|| echo(label));
    Some(LineKind::Cells(cells))
}

/// The cells of `text`, whose first character is at 0-based column `offset`
/// of its line: rows of whitespace-separated numbers, or one cell per symbol.
fn tokenize(text: &str, offset: usize, alphabet: &Alphabet) -> Cells {
    // Rows of whitespace-separated numbers: several words, all numbers or `.`,
    // at least one longer than a digit. With the default alphabet a row of
    // spaced single digits and dots reads the same either way, so it counts as
    // numbers too: a row of 64 dots is a row of a 64x64 grid, not a puzzle.
    // Box rules (`|`) between the numbers are no part of them (`14 | 3`,
    // `14|3`) when every number could be a cell of a row that long: a line of
    // digit runs between bars (`| 1234 | 3412 |`) is one digit a cell.
    let ruled = text.contains('|');
    let words: Vec<(usize, &str)> = words_with_columns(text)
        .into_iter()
        .flat_map(|(column, word)| {
            let mut pieces = Vec::new();
            let mut at = column;
            for piece in word.split('|') {
                if !piece.is_empty() {
                    pieces.push((at, piece));
                }
                at += piece.chars().count() + 1;
            }
            pieces
        })
        .collect();
    let digits = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    // A negative number (`-1` for empty, as some programs write) is a word
    // of its own, named in the error: not a `-` box rule before a given.
    let negative = |w: &str| w.strip_prefix('-').is_some_and(digits);
    let numeric = |w: &str| w == "." || digits(w) || negative(w);
    let in_row = |w: &str| w == "." || negative(w) || w.parse::<usize>().is_ok_and(|v| v <= words.len());
    if words.len() >= 2
        && words.iter().all(|(_, w)| numeric(w))
        && (!ruled || words.iter().all(|(_, w)| in_row(w)))
        && (!alphabet.is_custom() || words.iter().any(|(_, w)| w.len() > 1))
    {
        let tokens = words
            .into_iter()
            .map(|(column, w)| {
                let symbol = match w.parse::<usize>() {
                    _ if w == "." => Symbol::Empty,
                    _ if negative(w) => Symbol::Unknown,
                    Ok(0) => Symbol::Empty,
                    Ok(v) => Symbol::Value(v),
                    Err(_) => Symbol::Value(usize::MAX),
                };
                Token { column: (offset + column) as u32, text: TokenText::Word(w.into()), symbol }
            })
            .collect();
        return Cells::new(tokens, true);
    }
    let tokens = text
        .chars()
        .enumerate()
        .filter(|(_, ch)| !is_separator(*ch))
        .map(|(i, ch)| Token { column: (offset + i + 1) as u32, text: TokenText::Char(ch), symbol: alphabet.read(ch) })
        .collect();
    Cells::new(tokens, false)
}

/// A word of a candidate grid's row, with its 1-based column.
struct CandidateWord {
    column: usize,
    text: String,
    /// Its digits 1-9, if it is all such digits in increasing order; else empty.
    digits: Vec<usize>,
}

impl CandidateWord {
    /// Whether it is a cell's candidates in an m×m grid: digits 1..=m in
    /// increasing order, as every tool writes them (so that a finished row,
    /// `3412`, is no cell's candidates).
    fn fits(&self, m: usize) -> bool {
        !self.digits.is_empty() && self.digits.iter().all(|&d| d <= m)
    }
}

/// The words of a candidate grid's row (split at whitespace and box rules;
/// characters side by side are one word), each with its digits if it is
/// digits 1-9 in increasing order; none for a line that is no such row even
/// with a fault (more than 18 words, or a word of more than 18 characters),
/// so that a line of a puzzle is given up at once.
fn candidate_words(cells: &Cells) -> Option<Vec<CandidateWord>> {
    const MOST: usize = 18;
    let mut words: Vec<CandidateWord> = Vec::new();
    let mut last_column = None;
    for token in &cells.tokens {
        let column = token.column as usize;
        let joined = matches!(token.text, TokenText::Char(_)) && last_column == Some(column - 1);
        last_column = matches!(token.text, TokenText::Char(_)).then_some(column);
        if !joined {
            if words.len() == MOST {
                return None;
            }
            words.push(CandidateWord { column, text: String::new(), digits: Vec::new() });
        }
        let word = words.last_mut().expect("a word was pushed");
        match &token.text {
            TokenText::Char(c) => word.text.push(*c),
            TokenText::Word(w) => word.text.push_str(w),
        }
        if word.text.chars().count() > MOST {
            return None;
        }
    }
    for word in &mut words {
        let digits: Option<Vec<usize>> = word.text.chars().map(|c| c.to_digit(10).map(|d| d as usize)).collect();
        if let Some(digits) = digits.filter(|d| d.iter().all(|&v| v >= 1) && d.windows(2).all(|w| w[0] < w[1])) {
            word.digits = digits;
        }
    }
    Some(words)
}

/// Whitespace-separated words with their 1-based character columns.
fn words_with_columns(text: &str) -> Vec<(usize, &str)> {
    let mut words = Vec::new();
    let mut start = None;
    let mut column = 0;
    for (i, ch) in text.char_indices() {
        column += 1;
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((i, column)),
            (true, Some((s, c))) => {
                words.push((c, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((s, c)) = start {
        words.push((c, &text[s..]));
    }
    words
}

/// Read every puzzle of a string (named `source` in messages).
pub fn read_all(text: &str, source: &str, alphabet: &Alphabet, spec: &mut GeometrySpec) -> Vec<Entry> {
    PuzzleReader::new(text.as_bytes(), source, alphabet, spec).collect()
}

#[cfg(test)]
mod tests;
