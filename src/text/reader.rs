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
//!
//! `line` says what a line is on its own; `sheet` settles the spreadsheet
//! readings that need the lines below it; the reader here frames lines into
//! entries.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::BufRead;
use std::time::{Duration, Instant};

use crate::enumerate::{Count, Search};
use crate::error::{echo, ParseError, ParseErrorKind, Position, Shift};
use crate::model::domains::Domains;
use crate::model::geometry::{Layout, Value, MAX_SIZE};
use crate::model::puzzle::{GeometrySpec, Grid, Puzzle};
use crate::pipeline::SolveOptions;
use crate::reasoning::propagate::Propagator;
use crate::text::decoded::Decoded;
use crate::text::fpuzzles::{read_fpuzzles_from, FpuzzlesError};
use crate::text::symbols::{Alphabet, Symbol};

mod line;
mod sheet;

use line::{
    candidate_words, cellish_count, classify, exact_sqrt, field_cells, fpuzzles_kind, has_word, is_text,
    is_whole_count, is_whole_field, json_line, later_field, letter_row, odd_row_length, read_bounded_line, undecorated,
    without_line_end, Cells, FpuzzlesLine, Header, JsonDepth, LaterField, Line, LineKind, Token, TokenText, Under,
    DAMAGED_CELLS, ENDLESS,
};
use sheet::{whole_grids, whole_grids_then, BlockStart, Labelled};

/// What lines of k = m² cells say of being rows of a k×k grid rather than
/// m×m puzzles one per line.
#[derive(Clone, Copy, Default)]
struct RowSigns {
    /// A value past m that a row of m² cells can hold: no m×m puzzle, so a
    /// row. A symbol past m² (`x`, 33, in `xxxxxxxxxxxxxxxx`) fits neither
    /// reading and tells nothing.
    too_big: bool,
    /// A value twice on a line: no row of a grid.
    repeats: bool,
    /// The givens. As many as k, of values 1..=m alone, make no k×k puzzle
    /// (it would leave k − m values free to swap): m×m puzzles.
    givens: usize,
}

impl RowSigns {
    fn of(tokens: &[Token], m: usize) -> RowSigns {
        let mut seen = vec![false; m + 1];
        let mut signs = RowSigns::default();
        for t in tokens {
            if let Symbol::Value(v) = t.symbol {
                signs.givens += 1;
                signs.too_big |= v > m && v <= m * m;
                signs.repeats |= v <= m && std::mem::replace(&mut seen[v], true);
            }
        }
        signs
    }

    fn add(&mut self, other: RowSigns) {
        self.too_big |= other.too_big;
        self.repeats |= other.repeats;
        self.givens += other.givens;
    }
}

/// The cells of a line that may hold two rows: its empty field at the end
/// taken for a delimiter closing a whole puzzle (`…,7,9,`) counts.
fn joined_count(cells: &Cells) -> usize {
    cells.tokens.len() + usize::from(cells.cut.is_some())
}

/// Whether the cells of a line could be two rows of n (2n cells, or 2n − 1
/// where the cells about the line end ran together): neither half repeats a
/// value (a 4×4 on one line repeats some, and is never rows).
fn two_rows(cells: &Cells, n: usize) -> bool {
    let repeats = |tokens: &[Token]| {
        let mut seen = std::collections::HashSet::new();
        tokens.iter().any(|t| matches!(t.symbol, Symbol::Value(v) if !seen.insert(v)))
    };
    let tokens = &cells.tokens;
    n >= 1 && tokens.len() > n && !repeats(&tokens[..n - 1]) && !repeats(&tokens[n..])
}

/// What a spreadsheet row's first field was read as, for the row under it
/// ([`PuzzleReader::first_cell_not_label`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum RowAbove {
    /// A cell, or a letter alone in rows that do not count from `A` (a
    /// cell as well, to the row under it).
    Cells,
    /// Labels of rows that count from `A` (or `a`), a labelled grid: the
    /// last, and the rows labelled so far (past the second, whatever
    /// letters follow: a labelled grid with a row lost or typed twice).
    Labels { last: char, rows: usize },
}

/// Whether a line of m² cells (`small` is m, see
/// [`PuzzleReader::small_side`]) is an m×m puzzle and no row: it repeats a
/// value, and all its values are 1..=m.
fn is_small_puzzle(tokens: &[Token], small: Option<usize>) -> bool {
    small.is_some_and(|m| {
        let signs = RowSigns::of(tokens, m);
        signs.repeats && !signs.too_big
    })
}

/// Whether a line of cells is a row of a block of n-cell rows: n cells, not
/// a field of a delimited line nor labelled, and no m×m puzzle of its own
/// ([`is_small_puzzle`]).
fn is_block_row(c: &Cells, n: usize, small: Option<usize>) -> bool {
    c.tokens.len() == n && !c.field && c.label.is_none() && !is_small_puzzle(&c.tokens, small)
}

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

/// The most lines after a CSV line that opens a quote that are read for the
/// one that closes it ([`PuzzleReader::join_quoted`]): a note's lines.
const QUOTED_LINES: usize = 64;

/// The most lines an f-puzzles JSON object is read over
/// ([`PuzzleReader::join_json`]): a pretty-printed 64×64 takes about 20,000.
const JSON_LINES: usize = 1 << 17;

/// The rows of an `.sdk` file's grids: the sections after its puzzle skip as many lines.
const SDK_ROWS: usize = 9;

/// Back-to-back rows of one length, with nothing between puzzles, are read
/// as a whole up to this many rows, or this many cells (then the next rows
/// start a new run): 65,536 rows of a 9×9, 10,000 of a 100×100.
const MAX_RUN_ROWS: usize = 1 << 16;
const MAX_RUN_CELLS: usize = 1 << 20;
/// The widest line, and the most lines, that a puzzle wrapped across lines
/// is looked for in ([`PuzzleReader::wrapped`]): mail clients and `fold`
/// wrap at 60 to 200 characters, and 16 lines hold a 36×36 at 81.
const WRAP_WIDTH: usize = 256;
const WRAP_LINES: usize = 16;
/// How many puzzles written wrong back to back (each with a row a few cells
/// short or long) a block's look-ahead follows before it takes the rows so
/// far as fitting: each one it follows is read to the next line that is no
/// row, so the cap keeps a file of them linear.
const MAX_DAMAGED_CHAIN: usize = 4;
/// How long the framing of back-to-back rows searches one reading of n rows
/// for whether it has exactly one solution.
const GUESS_TIME: Duration = Duration::from_millis(200);
/// How much longer than [`FRAMING_TIME`] the checks of a run's puzzles may
/// take, for each puzzle of the run (a hard 9×9 takes under a millisecond).
const PUZZLE_TIME: Duration = Duration::from_millis(5);
/// How long the framing looks for a reading that makes a lone odd row a row
/// too many of the puzzle beside it (all readings of a 9×9 take under a
/// millisecond; those of a 400×400 may take minutes).
const FRAMING_TIME: Duration = Duration::from_secs(1);

/// How many of the last lines read keep the column their text starts at
/// ([`LineStarts`]): a run of rows back to back ([`MAX_RUN_ROWS`]) with
/// rule lines between its rows, or the longest JSON object
/// ([`JSON_LINES`]), and more. An error about a line further back (a run
/// with comments between its rows) names the line alone. 2 MiB.
const LINE_STARTS_KEPT: usize = 1 << 19;

/// Where the text of each of the last [`LINE_STARTS_KEPT`] lines read
/// starts: the column of its first character that is not blank (1 for a
/// blank line). An error about a whole line (a stray line, a blank line
/// inside a grid, a row out of turn) is placed there, so every message says
/// `file:line:column`.
#[derive(Default)]
struct LineStarts {
    /// The line of `columns[0]`.
    first: usize,
    columns: VecDeque<u32>,
}

impl LineStarts {
    /// Line `line` starts at `column`; lines skipped since the last one
    /// recorded (a quoted field's or a JSON object's, joined to the line
    /// before) at column 1.
    fn record(&mut self, line: usize, column: usize) {
        if self.columns.is_empty() {
            self.first = line;
        }
        while self.first + self.columns.len() < line {
            self.columns.push_back(1);
        }
        if self.first + self.columns.len() == line {
            self.columns.push_back(u32::try_from(column).unwrap_or(u32::MAX));
        }
        while self.columns.len() > LINE_STARTS_KEPT {
            self.columns.pop_front();
            self.first += 1;
        }
    }

    /// The column where line `line` starts, if it was read lately.
    fn get(&self, line: usize) -> Option<usize> {
        let column = self.columns.get(line.checked_sub(self.first)?)?;
        Some(*column as usize)
    }
}

/// The column where a line's text starts: its first character that is not
/// blank (a no-break space is blank too), or 1 for a blank line. Bytes that
/// are no UTF-8 are text.
fn text_start(line: &[u8]) -> usize {
    let mut column = 1;
    for chunk in line.utf8_chunks() {
        for c in chunk.valid().chars() {
            if !c.is_whitespace() {
                return column;
            }
            column += 1;
        }
        if !chunk.invalid().is_empty() {
            return column;
        }
    }
    1
}

/// A line without the UTF-8 byte-order marks that open it.
fn unmarked(mut line: &[u8]) -> &[u8] {
    while let Some(rest) = line.strip_prefix(b"\xEF\xBB\xBF") {
        line = rest;
    }
    line
}

/// Drop the colour codes of a line (SGR escape sequences, `ESC [ 1;36 m`
/// or `ESC [ 38:5:196 m`, and the erase to the line's end, `ESC [ K`, that
/// `grep --color=always` writes after each), as a terminal shows it: grids
/// written with `--color always`, or kept from a terminal, read back as the
/// text they show. Columns in messages count what is left. Any other
/// escape stays, and is named.
fn drop_colours(line: &mut Vec<u8>) {
    if !line.contains(&0x1b) {
        return;
    }
    let mut kept = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        if line[i] == 0x1b && line.get(i + 1) == Some(&b'[') {
            let params = line[i + 2..].iter().take_while(|b| b.is_ascii_digit() || matches!(b, b';' | b':')).count();
            if matches!(line.get(i + 2 + params), Some(b'm' | b'K')) {
                i += 3 + params;
                continue;
            }
        }
        kept.push(line[i]);
        i += 1;
    }
    *line = kept;
}

/// Where the rows of a jigsaw file have their puzzle and their regions.
#[derive(Clone, Copy, Debug)]
struct JigsawRows {
    /// The line of the first such row.
    first: usize,
    /// The puzzle's field, from 0.
    puzzle: usize,
    /// The regions' field, from 1.
    regions: usize,
}

/// The column (from 1) just past a line's last field.
fn line_end(fields: &[(usize, String)]) -> usize {
    fields.last().map_or(1, |(column, field)| column + field.chars().count() + 1)
}

/// The time from now to `deadline`, zero once it is past.
fn time_left(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
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
    /// The input, decoded from UTF-16 where its byte-order mark says so.
    input: Decoded<R>,
    source: String,
    alphabet: &'a Alphabet,
    spec: &'a mut GeometrySpec,
    line_no: usize,
    pending: VecDeque<(usize, LineKind)>,
    ready: VecDeque<Entry>,
    /// Within a paragraph already found to hold one puzzle per line: that
    /// line length, and the delimiter between its cells (a tab-separated row
    /// of 16 cells is no 4×4 puzzle among 4×4s written on one line).
    line_mode: Option<(usize, Option<char>)>,
    /// The title waiting for the puzzle under it, and its line.
    title: Option<(usize, String)>,
    /// The last title that named a puzzle, cut at its numbers ([`Numbered`]):
    /// `Grid 01` in Project Euler's file, once its first grid is read.
    last_titled: Option<Numbered>,
    /// The title lines read, and the first one's line: what an input of no
    /// puzzle held instead.
    titles: (usize, usize),
    /// The comment lines that hold a whole puzzle after their `#` (`#1
    /// 4.....8.5…`), and the first one's line: an input of no puzzle may
    /// have been numbered so.
    commented: (usize, usize),
    /// The box rules drawn around the cells read lately.
    drawn: Drawn,
    /// The last line of a chain of grids spaced by bands, back to back,
    /// whose rows [`Self::spaced_grid`] found to be whole grids.
    spaced_through: usize,
    /// Whether an entry has been made: a puzzle, or a record of one.
    answered: bool,
    /// In an `.sdk` section that holds no puzzle (`[State]`, `[PencilMarks]`,
    /// …): the lines of it still to skip.
    skipping: usize,
    /// The CSV column the puzzles are in, once a header said so.
    column: Option<usize>,
    /// Whether that header named the puzzle column (or a row under it showed it).
    named: bool,
    /// The line of the first CSV header.
    header: Option<usize>,
    /// The first row of a jigsaw file (a row that brought its regions in a
    /// later field) and where: its line, its puzzle's field and its
    /// regions' field (0-based). A row of the same shape without regions
    /// after it is one cut short ([`ParseErrorKind::RegionsMissing`]).
    jigsaw_rows: Option<JigsawRows>,
    /// The CSV header's delimiter and its number of fields, once read: a
    /// field in quotes may go on over several lines ([`Self::join_quoted`]).
    csv: Option<(char, usize)>,
    /// Lines read ahead of their turn, as read: those after a quote that
    /// none of them closed.
    ahead: VecDeque<(std::io::Result<Line>, Vec<u8>)>,
    finished: bool,
    /// Whether a row of only delimiters has been a blank line here (a file
    /// that parts its grids so), and the line of the last blank line.
    parted: bool,
    blank: usize,
    /// The line and the fields of the last row of only delimiters read as
    /// a blank line: right above a grid, it says how the file parts its
    /// grids, and one as wide in that grid is no row of it.
    parting: Option<(usize, usize)>,
    /// The line of the last row of only delimiters that ended a run of
    /// whole grids, and their side: a blank line between grids for sure,
    /// not a grid's first row over a row too many; and its fields are as
    /// many as their rows' cells, its last no delimiter after a row.
    after_grids: Option<(usize, usize)>,
    /// The line last read as a stray line or a row written wrong inside a
    /// puzzle, and that puzzle's last line: rows right after it start where
    /// that puzzle was taken to end ([`Edges::behind`]).
    odd_line: Option<(usize, usize)>,
    buf: Vec<u8>,
    /// Where the lines read start, for the errors about a whole line.
    starts: LineStarts,
    /// The lines after a line that may be a row (see [`line::LetterRow`]),
    /// read to decide it, as [`classify`] sees them.
    held: VecDeque<Classified>,
    /// The rows just read (rules and comments between are fine).
    rows: Option<Stretch>,
    /// Whether the block under way was written with a label before each row
    /// (`R1,5,3,…`): a label there is no cell written wrong.
    labelled: bool,
    /// The last line classified, where it is a spreadsheet row: its
    /// delimiter, its fields, and what its first field is (see
    /// [`Self::first_cell_not_label`]).
    row_above: Option<(Option<char>, usize, RowAbove)>,
    /// The last line looked through for the end of a JSON object that did
    /// not end ([`Self::join_json`]).
    unclosed_to: usize,
    /// Whether the line read last was blank (or none was read): where rows
    /// typed without their last empty cells may start
    /// ([`Self::even_ragged_rows`]).
    after_blank: bool,
    /// The side of the puzzles of a run back to back found to have exactly
    /// one solution (a search told it, not a timeout): the input's puzzles
    /// of that side are proper, so after the last puzzle of a run a reading
    /// with one solution is better than one with several
    /// ([`Self::with_another_row_out`]).
    proper_seen: Option<usize>,
}

/// Rows read one after another: their length, how many, and the mark they
/// write for empty cells where it is no symbol (`*`, a letter), if any.
#[derive(Clone, Copy)]
struct Stretch {
    k: usize,
    count: usize,
    mark: Option<char>,
}

/// Where in a run a row holding a value is written twice, one right after
/// the other: `true` at the second copy. In one puzzle the two would repeat
/// their values down their columns. (Rows further apart may both be the
/// puzzles': files of puzzles from one generator repeat rows such as
/// `.......12` in every puzzle.)
/// The line of the first row of the grid under way in a run of grids of
/// n rows (none when the last grid is whole: the line past the input).
fn grid_start(rows: &[(usize, Vec<Token>)], n: usize) -> usize {
    rows.get(rows.len() - rows.len() % n).map_or(usize::MAX, |(line, _)| *line)
}

fn typed_twice(rows: &[(usize, Vec<Token>)]) -> Vec<bool> {
    (0..rows.len()).map(|i| copies_row_above(rows, i)).collect()
}

/// Whether row `i` holds a value and is the row above it again
/// ([`typed_twice`] at one row).
fn copies_row_above(rows: &[(usize, Vec<Token>)], i: usize) -> bool {
    i > 0 && rows[i].1.iter().any(|t| matches!(t.symbol, Symbol::Value(_))) && same_row(&rows[i - 1].1, &rows[i].1)
}

/// Whether two rows say the same, cell for cell (however each is written).
fn same_row(a: &[Token], b: &[Token]) -> bool {
    a.iter().map(|t| t.symbol).eq(b.iter().map(|t| t.symbol))
}

/// Whether a line of k cells is near a block's n, as a row written wrong
/// is (within n/3, at least 2), and no whole puzzle of its own.
fn near_width(k: usize, n: usize) -> bool {
    k.abs_diff(n) <= (n / 3).max(2) && !is_whole_count(k)
}

/// Whether a line of k cells may be a stray line inside a block of n, its
/// rows whole without it ([`PuzzleReader::stray_line_ahead`]): shorter (a
/// row begun, however far it got, and typed again), or longer and no whole
/// puzzle of its own (a line pasted in; a puzzle on one line keeps a record
/// of its own).
fn stray_width(k: usize, n: usize) -> bool {
    k < n || (k > n && !is_whole_count(k))
}

/// Which lines inside a block [`PuzzleReader::stray_line_ahead`] may take
/// for one that the block's rows make whole without.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stray {
    /// A blank line, or cells of any length but a row's ([`stray_width`]):
    /// inside the first block read.
    Any,
    /// A blank line, or cells near a row's length ([`near_width`]): inside
    /// a later puzzle of a run, where a short line (an index, `3`) may stand
    /// between puzzles damaged elsewhere, and the puzzles before it be no
    /// whole ones.
    Near,
    /// Cells of any length but a row's, no blank line: under a row of only
    /// delimiters that may itself be a blank line between grids.
    Cells,
}

/// The cells of a line that may be a stray line inside a grid
/// ([`PuzzleReader::stray_line_ahead`]): a row written wrong, or a row of
/// only delimiters of another width (`,,,,,,,,,,` among rows of twelve).
fn stray_length(kind: &LineKind) -> Option<usize> {
    match kind {
        LineKind::Separator(c) => Some(c.tokens.len()),
        kind => odd_row_length(kind),
    }
}

/// What a run shows of rows lost or doubled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Damage {
    /// Its rows make whole puzzles.
    None,
    /// One puzzle in it is a row short or long, or a lone row stands in it.
    One,
    /// More than that: rows lost or doubled in two places or more.
    Several,
}

impl Damage {
    /// The damage of a run read with pieces of these lengths that are no
    /// puzzle of n rows.
    fn of(odd: impl IntoIterator<Item = usize>, n: usize) -> Damage {
        let mut odd = odd.into_iter();
        match (odd.next(), odd.next()) {
            (None, _) => Damage::None,
            (Some(rows), None) if rows == 1 || rows + 1 == n || rows == n + 1 => Damage::One,
            _ => Damage::Several,
        }
    }
}

/// Lines right before and after a run, each taken to be a stray line or a
/// row written wrong of the puzzle next to the run: were it a line between
/// puzzles instead, the run would start or end elsewhere, so that end of it
/// fixes nothing ([`PuzzleReader::settle`]).
#[derive(Clone, Copy, Default)]
struct Edges {
    behind: Option<usize>,
    ahead: Option<usize>,
}

/// A piece of a run as framed: a puzzle's n rows from a first row, or rows
/// that make no puzzle, reported at a line.
enum Piece {
    Puzzle(usize),
    Odd(usize, ParseError),
}

/// A line as [`classify`] sees it.
struct Classified {
    line: usize,
    kind: LineKind,
    /// Its text, when it is a title or a rule of `*`s (either may be a row).
    text: Option<String>,
    /// Whether it has a character that may write empty cells where it is no
    /// symbol (`*`, a letter): only such a row's mark is looked for.
    marks: bool,
}

/// A title cut at its numbers: the words around them, and the numbers
/// (`Grid 07` is `Grid ` and 7). Titles with the same words number the
/// puzzles of a file.
#[derive(Debug, PartialEq, Eq)]
struct Numbered {
    words: Vec<String>,
    /// Each number as its digits without leading zeros, compared by length
    /// first: by value, however long.
    numbers: Vec<(usize, String)>,
}

impl Numbered {
    /// `title` cut at its numbers, if it has one.
    fn of(title: &str) -> Option<Numbered> {
        if !title.bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        let (mut words, mut digits) = (vec![String::new()], Vec::<String>::new());
        let mut in_number = false;
        for c in title.chars() {
            match (c.is_ascii_digit(), in_number) {
                (true, false) => digits.push(c.to_string()),
                (true, true) => digits.last_mut().expect("a number under way").push(c),
                (false, true) => words.push(c.to_string()),
                (false, false) => words.last_mut().expect("one at least").push(c),
            }
            in_number = c.is_ascii_digit();
        }
        let numbers = digits.iter().map(|d| d.trim_start_matches('0')).map(|v| (v.len(), v.to_string())).collect();
        Some(Numbered { words, numbers })
    }

    /// Whether `later` is a title of the same words with higher numbers.
    fn before(&self, later: &Numbered) -> bool {
        self.words == later.words && self.numbers < later.numbers
    }
}

/// The `*`s of a rule line that may be an empty row.
fn stars(text: &str) -> usize {
    text.chars().filter(|&c| c == '*').count()
}

/// The most cells written side by side, with no space between: a puzzle
/// gone wrong has a whole puzzle's worth (`4:<80 cells>`), a date or an ID
/// a few (`Level 3 - 1234 5678 9012 3456`).
fn stuck_cells(tokens: &[Token]) -> usize {
    let mut columns = tokens.iter().map(|t| t.column);
    let Some(mut last) = columns.next() else { return 0 };
    let (mut run, mut most) = (1, 1);
    for column in columns {
        run = if column == last + 1 { run + 1 } else { 1 };
        most = most.max(run);
        last = column;
    }
    most
}

/// The mark a row writes for empty cells where it is no symbol: `*`, or a
/// letter no cell can be (`x` in `3x6x7xxxx`), or a glyph (`○`, `~`).
fn empty_mark(row: &Cells, alphabet: &Alphabet) -> Option<char> {
    let mark = |c: char| c.is_alphabetic() || !(c.is_alphanumeric() || c.is_control());
    row.tokens.iter().find_map(|t| match t.text {
        TokenText::Char(c) if c.is_ascii_digit() || c == '.' => None,
        TokenText::Char(c) if c == '*' || (mark(c) && t.symbol == Symbol::Unknown) => Some(c),
        TokenText::Char(c) if line::is_texty(c, alphabet) => Some(c),
        _ => None,
    })
}

/// Whether `c` is the letter `i` places (0-based) from `A`, or from `a`.
fn nth_letter(c: char, i: usize) -> bool {
    i < 26 && [b'A', b'a'].iter().any(|&a| c == char::from(a + i as u8))
}

/// The rows of a grid with coordinates, read ahead.
struct CoordinateRows {
    /// Each row's line and cells.
    rows: Vec<(usize, Vec<Token>)>,
    /// The line after them, as an offset from the next line to be taken
    /// (the lines looked at ahead: rules between them included).
    lines: usize,
    /// The first row a few cells too many or too few (its line, its
    /// number, its count, and the column of its first cell too many or just
    /// past its last), which makes the grid one invalid entry that names it.
    damaged: Option<(usize, usize, usize, Option<usize>)>,
}

/// The box rules drawn around the cells read lately: the lines that are
/// rules (`------+------`), and the columns of the `|` on lines of cells
/// (`4 . | . . | 8 .`). A grid's boxes are where they are drawn, so a 6×6
/// ruled every 2 columns and 3 rows has 3×2 boxes, not the default 2×3.
/// Lines far behind the one read are let go.
#[derive(Debug, Default)]
struct Drawn {
    rules: BTreeSet<usize>,
    bars: BTreeMap<usize, Vec<u32>>,
}

impl Drawn {
    /// Lines this far behind the last one read are no more looked at: past
    /// the longest run of rows that makes one stretch of puzzles.
    const KEPT: usize = 4 * MAX_RUN_ROWS;
    /// The most bars a line may have for its columns to be kept: boxes two
    /// cells wide in a row of 128.
    const MAX_BARS: usize = 65;

    fn rule(&mut self, line: usize) {
        self.rules.insert(line);
        self.let_go(line);
    }

    /// A line of cells, `text`: the 1-based columns of its vertical rules.
    fn cells(&mut self, line: usize, text: &[u8]) {
        if !text.iter().any(|&b| b == b'|' || b >= 0x80) {
            return;
        }
        let text = String::from_utf8_lossy(text);
        let bars: Vec<u32> =
            (1..).zip(text.chars()).filter(|&(_, c)| line::is_bar(c)).map(|(column, _)| column).collect();
        // A row drawn with more bars than this is past any box shape that
        // can be told from it: not kept, so that long lines of bars cost
        // no memory.
        if !bars.is_empty() && bars.len() <= Self::MAX_BARS {
            self.bars.insert(line, bars);
            self.let_go(line);
        }
    }

    fn let_go(&mut self, line: usize) {
        let Some(oldest) = line.checked_sub(Self::KEPT) else { return };
        while self.rules.first().is_some_and(|&l| l < oldest) {
            self.rules.pop_first();
        }
        while self.bars.first_key_value().is_some_and(|(&l, _)| l < oldest) {
            self.bars.pop_first();
        }
    }

    /// The boxes (rows, columns) the rules drawn in and around `rows`, the
    /// rows of a side-`n` grid, show: rule lines every h rows and `|` every
    /// w cells, or one of the two, the other side n / h or n / w; where the
    /// rule lines disagree with the `|` (not evenly drawn, or not boxes of
    /// n cells with them), the `|`. A row with no `|` tells nothing, and
    /// one whose `|` are some of the others' (one lost) keeps their width.
    /// `Ok(None)` where nothing is drawn, or no split of boxes;
    /// `Err(line)` where the rows' `|` disagree (one out of place, or a
    /// jigsaw's walls), the rule lines not telling either: `line` is the
    /// first row unlike the others.
    /// `column` tells where a cell of a row is (a token's, a candidate
    /// word's).
    fn boxes<T>(
        &self,
        n: usize,
        rows: &[(usize, Vec<T>)],
        column: impl Fn(&T) -> usize,
    ) -> Result<Option<(usize, usize)>, usize> {
        // Where the rules fall, 0 < k < n, every `step` apart.
        let step = |at: &[usize]| -> Result<Option<usize>, ()> {
            let Some(&first) = at.first() else { return Ok(None) };
            let even = n % first == 0 && at.iter().copied().eq((1..n / first).map(|k| k * first));
            even.then_some(Some(first)).ok_or(())
        };
        let between: Vec<usize> = (1..)
            .zip(rows.windows(2))
            .filter(|(_, pair)| self.rules.range(pair[0].0 + 1..pair[1].0).next().is_some())
            .map(|(k, _)| k)
            .collect();
        // Each row's `|`, as the number of cells before each; rows with none left out.
        let barred: Vec<(usize, Vec<usize>)> = rows
            .iter()
            .map(|(line, tokens)| {
                let bars = self.bars.get(line).map_or(&[][..], Vec::as_slice);
                let mut at: Vec<usize> = bars
                    .iter()
                    .map(|&bar| tokens.iter().filter(|t| column(t) < bar as usize).count())
                    .filter(|&k| 0 < k && k < n)
                    .collect();
                at.dedup();
                (*line, at)
            })
            .filter(|(_, at)| !at.is_empty())
            .collect();
        let across = match &barred[..] {
            [] => Ok(None),
            // Every row alike: a split that is no box shape's (`1 | 2345 | 6`) draws none.
            [(_, first), rest @ ..] if rest.iter().all(|(_, at)| at == first) => Ok(step(first).unwrap_or(None)),
            // Rows drawn unlike each other: the width some row draws whole,
            // whose places hold every other row's `|`.
            _ => (2..n)
                .filter(|w| n % w == 0)
                .find(|&w| {
                    let whole: Vec<usize> = (1..n / w).map(|k| k * w).collect();
                    let within = barred.iter().all(|(_, at)| at.iter().all(|k| k % w == 0));
                    within && barred.iter().any(|(_, at)| *at == whole)
                })
                .map(Some)
                .ok_or(()),
        };
        let down = step(&between);
        // The first row drawn unlike most.
        let unlike = || {
            let alike = |at: &Vec<usize>| barred.iter().filter(|(_, other)| other == at).count();
            let most = barred.iter().map(|(_, at)| at).max_by_key(|at| alike(at)).unwrap_or(&barred[0].1);
            barred.iter().find(|(_, at)| at != most).map_or(barred[0].0, |(line, _)| *line)
        };
        match (down, across) {
            // `|` drawn alike in every row, every w cells, fix the boxes'
            // width: a rule line out of place, lost or one too many, is one
            // line against n rows, and leaves them drawn (a 4×2's rows,
            // `|` every 2 cells, with a rule line after rows 4 and 6).
            (Ok(Some(h)), Ok(Some(w))) if h * w == n => Ok(Some((h, w))),
            (_, Ok(Some(w))) if 1 < w && w < n => Ok(Some((n / w, w))),
            (Ok(Some(_)), Ok(Some(_))) => Ok(None),
            (Ok(Some(h)), Ok(None)) => Ok(Some((h, n / h))),
            // The rows' `|` disagree: rule lines every h rows still tell.
            (Ok(Some(h)), Err(())) if 1 < h && h < n => Ok(Some((h, n / h))),
            (Ok(None), Ok(Some(w))) => Ok(Some((n / w, w))),
            (Ok(None) | Err(()), Ok(None)) => Ok(None),
            (_, Err(())) => Err(unlike()),
            // `|` after every cell (w = 1), the rule lines uneven.
            (Err(()), Ok(Some(_))) => Ok(None),
        }
    }
}

/// Whether the comment line `buf` holds a whole puzzle of one line after
/// its `#` and a number (`#1 4.....8.5.3…`, `# 3: 4.....8.5…`): m² cells,
/// some given, of a side the options allow.
fn holds_puzzle(buf: &[u8], alphabet: &Alphabet, spec: &mut GeometrySpec) -> bool {
    let Ok(text) = std::str::from_utf8(unmarked(buf)) else { return false };
    // Numbered by hand: the number, then `:`, `)` or a space (`#1 4.....`,
    // `# 3: 4.....`); a puzzle commented out whole is no such line.
    let text = text.trim_start().trim_start_matches(['#', '/']).trim_start();
    let number = text.trim_start_matches(|c: char| c.is_ascii_digit());
    if number.len() == text.len() || !number.starts_with([':', ')', ' ', '\t']) {
        return false;
    }
    let text = &number[1..];
    let under = Under::default();
    let LineKind::Cells(cells) = classify(text, alphabet, spec.fixed_size(), under) else { return false };
    let side = line::exact_sqrt(cells.tokens.len()).filter(|&m| m >= 4 && spec.geometry_for(m).is_ok());
    side.is_some() && cells.tokens.iter().any(|t| matches!(t.symbol, Symbol::Value(_)))
}

/// Whether each of `cells` is empty or a value of a grid of side `n`.
fn of_side(cells: &[Token], n: usize) -> bool {
    cells.iter().all(|t| matches!(t.symbol, Symbol::Empty) || matches!(t.symbol, Symbol::Value(v) if v <= n))
}

/// The side n of the grid with coordinates whose column header `header`
/// could be (`1 2 … n` or `A B …`, maybe under a mark in the corner), n
/// being `fixed` where an option set the side.
fn coordinate_header(header: &Cells, fixed: Option<usize>) -> Option<usize> {
    // 1 to n, or the letters from `A` or `a` on.
    let numbered = |tokens: &[Token]| {
        tokens.iter().enumerate().all(|(i, t)| match t.text {
            TokenText::Char(c) if nth_letter(c, i) => true,
            _ => matches!(t.symbol, Symbol::Value(v) if v == i + 1),
        })
    };
    let columns = match &header.tokens[..] {
        // A mark in the corner above the row labels (`x 1 2 … 9`, `/ A B
        // … I`): a character that is no cell of a grid a column wider,
        // as `.` and `0` are (`.12345678` over rows `1…`, `2…` is a
        // Latin square's first row).
        [corner, columns @ ..]
            if matches!(&corner.text, TokenText::Char(_))
                && !matches!(corner.symbol, Symbol::Empty)
                && !matches!(corner.symbol, Symbol::Value(v) if v <= columns.len() + 1)
                && numbered(columns) =>
        {
            columns
        }
        tokens => tokens,
    };
    let n = columns.len();
    if n < 4 || header.field || header.label.is_some() || !numbered(columns) || fixed.is_some_and(|f| f != n) {
        return None;
    }
    Some(n)
}

/// The cells of row `row` (0-based) of a grid with coordinates, after its
/// label (`A`, `a` or its number) when it starts with it, or marked off by
/// `:` or `)` (`marked`, as [`LineKind::LabelledRow`] has it: `1: 4.....8.5`).
/// They are read as words (`A 1 0 12 …`, `10 . F . …`) or a character a
/// cell (`A 4.....8.5`), whichever gives n cells that are all symbols, words
/// first; else the reading that gives n cells, else the row as it was read.
fn coordinate_row(
    cells: &Cells,
    marked: Option<&str>,
    row: usize,
    n: usize,
    alphabet: &Alphabet,
) -> Option<Vec<Token>> {
    // SudokuWiki letters its rows A to H, then J: `I` is passed over.
    let letter = |c: char| nth_letter(c, row) || (row >= 8 && nth_letter(c, row + 1));
    let is_label = |text: &str| {
        let mut chars = text.chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if letter(c)) || text.parse() == Ok(row + 1)
    };
    let words = line::word_cells(&cells.tokens, alphabet);
    let chars = line::char_cells(&cells.tokens, alphabet);
    let (end, after) = match marked {
        Some(label) if is_label(label) => (0, words),
        Some(_) => return None,
        None => {
            let (first, after) = words.split_first()?;
            // A label stuck to the cells (`A4.....8.5`) is its first character.
            match &first.text {
                TokenText::Word(w) if is_label(w) => (first.column + w.chars().count() as u32, after.to_vec()),
                _ if chars.first().is_some_and(|t| is_label(&t.text.to_string())) => (first.column + 1, Vec::new()),
                _ => return None,
            }
        }
    };
    let mut chars: Vec<Token> = chars.into_iter().filter(|t| t.column >= end).collect();
    let mut after = after;
    // The label again after the row (`A | 4 . . | … | A`).
    for cells in [&mut after, &mut chars] {
        if cells.len() == n + 1 && cells.last().is_some_and(|t| is_label(&t.text.to_string())) {
            cells.pop();
        }
    }
    let clean = |cells: &[Token]| cells.len() == n && cells.iter().all(|t| t.symbol != Symbol::Unknown);
    Some(if clean(&after) {
        after
    } else if clean(&chars) || (chars.len() == n && after.len() != n) {
        chars
    } else if after.len() == n || (cells.words && !after.is_empty()) {
        after
    } else {
        chars
    })
}

impl<'a, R: BufRead> PuzzleReader<'a, R> {
    /// Read puzzles from `input`, named `source` in messages.
    pub fn new(input: R, source: impl Into<String>, alphabet: &'a Alphabet, spec: &'a mut GeometrySpec) -> Self {
        PuzzleReader {
            input: Decoded::new(input),
            source: source.into(),
            alphabet,
            spec,
            line_no: 0,
            pending: VecDeque::new(),
            ready: VecDeque::new(),
            line_mode: None,
            title: None,
            last_titled: None,
            titles: (0, 0),
            commented: (0, 0),
            drawn: Drawn::default(),
            spaced_through: 0,
            answered: false,
            skipping: 0,
            column: None,
            named: false,
            header: None,
            jigsaw_rows: None,
            csv: None,
            ahead: VecDeque::new(),
            finished: false,
            parted: false,
            blank: 0,
            parting: None,
            after_grids: None,
            odd_line: None,
            buf: Vec::new(),
            starts: LineStarts::default(),
            held: VecDeque::new(),
            rows: None,
            labelled: false,
            row_above: None,
            unclosed_to: 0,
            after_blank: true,
            proper_seen: None,
        }
    }

    /// Number the lines from `lines_before + 1`: the input is a chunk of a
    /// bigger one (GNU parallel `--pipe`), and messages and positions name
    /// the lines they have in the whole.
    pub fn starting_after_line(mut self, lines_before: usize) -> Self {
        self.line_no = lines_before;
        self
    }

    /// The next line, and what it is among the lines around it: a title
    /// that may be a row with a letter for empty cells is one when no title
    /// looks so, inside a grid under way (for a row of only that letter,
    /// one whose rows write it), or when it starts one: the rows after it
    /// make whole grids with it. So is a rule line of only `*`s.
    fn read_line(&mut self) -> Option<(usize, LineKind)> {
        let Classified { line, kind, text, marks } = match self.held.pop_front() {
            Some(held) => held,
            None => self.classify_line()?,
        };
        let (kind, mark) = match (kind, text) {
            (LineKind::Title(title), Some(text)) => match letter_row(&text, self.alphabet, self.spec.fixed_size()) {
                Some(row) if row.sure || self.takes_row(row.k, row.mark, row.givens) => {
                    (LineKind::Cells(line::tokenize(&text, 0, self.alphabet)), Some(row.mark))
                }
                _ => (LineKind::Title(title), None),
            },
            // `*********` or `| * * * | * * * | * * * |`, a frame line, or
            // an empty row where the rows above write `*` for empty cells.
            (LineKind::Rule, Some(text)) => {
                let stars = stars(&text);
                match stars >= 4 && self.takes_row(stars, '*', false) {
                    true => (LineKind::Cells(line::tokenize(&text, 0, self.alphabet)), Some('*')),
                    false => (LineKind::Rule, None),
                }
            }
            // `___________` between the bands of a grid under way, of
            // another length than its rows: a rule, neither a row nor a
            // blank puzzle of `_`s.
            (LineKind::Cells(c), _)
                if self.rows.is_some_and(|s| s.count % s.k != 0 && s.k != c.tokens.len())
                    && c.tokens.len() > 1
                    && c.tokens.iter().all(|t| matches!(t.text, TokenText::Char('_'))) =>
            {
                (LineKind::Rule, None)
            }
            (kind, _) => (kind, None),
        };
        self.rows = match &kind {
            LineKind::Cells(c) if !c.field && c.label.is_none() => {
                let k = c.tokens.len();
                let before = self.rows.filter(|s| s.k == k);
                let mark = mark
                    .or(before.and_then(|s| s.mark))
                    .or_else(|| marks.then(|| empty_mark(c, self.alphabet)).flatten());
                Some(Stretch { k, count: before.map_or(0, |s| s.count) + 1, mark })
            }
            LineKind::Rule | LineKind::Comment => self.rows,
            _ => None,
        };
        Some((line, kind))
    }

    /// Whether a line that may be a row of k cells writing `mark` for empty
    /// ones (with `givens`, or all marks) is one: inside a grid under way
    /// (all marks: one whose rows write `mark`), or where the rows after it
    /// make whole grids with it. A line of marks above or below a whole grid
    /// (`*********` as a frame) is none.
    fn takes_row(&mut self, k: usize, mark: char, givens: bool) -> bool {
        if let Some(stretch) = self.rows.filter(|s| s.k == k && s.count % k != 0) {
            if givens || stretch.mark == Some(mark) {
                return true;
            }
        }
        self.rows_after(k, mark).is_some_and(|rows| (rows + 1) % k == 0)
    }

    /// The rows of k cells right after the line just read (rules and
    /// comments between), each a row or a line of `mark`s and cells that
    /// may be one; `None` when there are more than a few grids of them, or
    /// lines to look through (as many as a run of rows holds at most). The
    /// lines are held to be read next.
    fn rows_after(&mut self, k: usize, mark: char) -> Option<usize> {
        let fixed = self.spec.fixed_size();
        let most = (4 * k).min(MAX_RUN_CELLS / k).max(k);
        let (mut rows, mut i) = (0, 0);
        while rows <= most && i <= 2 * most {
            if self.held.len() == i {
                let Some(line) = self.classify_line() else { return Some(rows) };
                self.held.push_back(line);
            }
            let row = match (&self.held[i].kind, &self.held[i].text) {
                (LineKind::Cells(c), _) => c.tokens.len() == k && !c.field && c.label.is_none(),
                (LineKind::Title(_), Some(text)) => {
                    letter_row(text, self.alphabet, fixed).is_some_and(|r| r.mark == mark && r.k == k)
                }
                (LineKind::Rule, Some(text)) => mark == '*' && stars(text) == k,
                (LineKind::Rule | LineKind::Comment, _) => {
                    i += 1;
                    continue;
                }
                _ => false,
            };
            if !row {
                return Some(rows);
            }
            rows += 1;
            i += 1;
        }
        None
    }

    /// Read a line and say what it is on its own.
    fn classify_line(&mut self) -> Option<Classified> {
        if self.finished {
            return None;
        }
        let read = match self.ahead.pop_front() {
            Some((read, line)) => {
                self.buf = line;
                read
            }
            None => {
                self.buf.clear();
                read_bounded_line(&mut self.input, &mut self.buf, MAX_LINE)
            }
        };
        match read {
            Ok(Line::End) => {
                self.finished = true;
                None
            }
            Ok(Line::TooLong) => {
                self.line_no += 1;
                let kind = LineKind::Broken(ParseErrorKind::LineTooLong { limit: MAX_LINE }, None);
                Some(Classified { line: self.line_no, kind, text: None, marks: false })
            }
            Ok(Line::Endless) => {
                self.finished = true;
                self.line_no += 1;
                let kind = LineKind::Broken(ParseErrorKind::EndlessLine { limit: ENDLESS }, None);
                Some(Classified { line: self.line_no, kind, text: None, marks: false })
            }
            Ok(Line::Read) => {
                self.line_no += 1;
                let line = self.line_no;
                drop_colours(&mut self.buf);
                self.starts.record(line, text_start(unmarked(&self.buf)));
                self.line_no += self.join_quoted();
                let blank = self.buf.iter().all(u8::is_ascii_whitespace);
                if self.after_blank && !blank && self.buf.len() < 1 << 12 {
                    self.even_ragged_rows();
                }
                self.after_blank = blank;
                // A byte-order mark opens a file, and files joined by `cat`
                // keep each one's (one that opened with one, joined, keeps
                // two): it is no cell on any line.
                let fpuzzles =
                    std::str::from_utf8(unmarked(&self.buf)).ok().and_then(|t| fpuzzles_kind(t, self.alphabet));
                if let Some(fpuzzles) = fpuzzles {
                    if fpuzzles == FpuzzlesLine::Json && self.line_no > self.unclosed_to {
                        self.line_no += self.join_json();
                    }
                    let text = String::from_utf8_lossy(unmarked(&self.buf)).into_owned();
                    return Some(Classified { line, kind: LineKind::Fpuzzles(text), text: None, marks: false });
                }
                let bytes: &[u8] = unmarked(&self.buf);
                let (kind, text, marks) = match std::str::from_utf8(bytes) {
                    Ok(text) => self.classify_text(text),
                    Err(e) => {
                        let at = e.valid_up_to();
                        let valid = std::str::from_utf8(&bytes[..at]).expect("UTF-8 up to there");
                        // Comments are words for people, in whatever their
                        // editor saves (`# café` in Latin-1): bytes that are
                        // no UTF-8 in a comment line, or in the comment after
                        // a line's cells (`… # très dur`), are read as the
                        // replacement character.
                        let start = valid.trim_start();
                        let comment = start.starts_with('#')
                            || start.starts_with("//")
                            || valid.contains(" #")
                            || valid.contains("\t#");
                        // So are a title's (`Puzzle café`, `Übung 3`): a
                        // line that reads as one with those bytes replaced,
                        // and has a word. Anywhere else they are named.
                        let lossy = String::from_utf8_lossy(bytes);
                        let read = self.classify_text(&lossy);
                        let title = matches!(read.0, LineKind::Title(_)) && has_word(&lossy);
                        if comment || title {
                            read
                        } else {
                            let column = valid.chars().count() + 1;
                            let byte = bytes[at];
                            let kind =
                                LineKind::Broken(ParseErrorKind::BadByte { byte, what: "not UTF-8" }, Some(column));
                            (kind, None, false)
                        }
                    }
                };
                let kind = self.first_cell_not_label(kind);
                match &kind {
                    LineKind::Rule => self.drawn.rule(line),
                    LineKind::Cells(_) => self.drawn.cells(line, unmarked(&self.buf)),
                    _ => {}
                }
                // Looked at only while the input has shown no puzzle: the
                // count is for an input of none.
                if matches!(kind, LineKind::Comment)
                    && !self.answered
                    && self.buf.len() >= 16
                    && holds_puzzle(&self.buf, self.alphabet, self.spec)
                {
                    if self.commented.0 == 0 {
                        self.commented.1 = line;
                    }
                    self.commented.0 += 1;
                }
                Some(Classified { line, kind, text, marks })
            }
            Err(e) => {
                self.finished = true;
                self.line_no += 1;
                let kind = LineKind::Broken(ParseErrorKind::Io(e.to_string()), None);
                Some(Classified { line: self.line_no, kind, text: None, marks: false })
            }
        }
    }

    /// A spreadsheet row whose first field is a letter alone that is a value
    /// of the row (`C,,,…` in a 16×16 written with letters past 9), read as
    /// the row's label: under a row of as many fields with no label, or
    /// with such a letter in rows that do not count from `A`, the letter is
    /// the row's first cell. As a label, the row was no row of its grid: a
    /// title, the grid lost. `A` (or `a`) stays a label, and so does `B`
    /// under it and every letter under those: a labelled grid's (the
    /// middle of a grid takes such a row as a row all the same, see
    /// `row_ahead`).
    fn first_cell_not_label(&mut self, kind: LineKind) -> LineKind {
        let fields = |c: &Cells| c.tokens.len() + usize::from(c.cut.is_some());
        let letter = |c: &Cells| match c.label_cell.as_deref() {
            Some(Token { text: TokenText::Word(w), symbol: Symbol::Value(_), .. }) => w.chars().next(),
            _ => None,
        };
        let kind = match kind {
            LineKind::LabelledRow(label, mut c) => {
                let first_cell = letter(&c).is_some_and(|l| {
                    let above_cells = |above: RowAbove| match above {
                        RowAbove::Cells => true,
                        // `A` then no `B`: that `A` was a cell too.
                        RowAbove::Labels { last, rows } => rows == 1 && u32::from(l) != u32::from(last) + 1,
                    };
                    !matches!(l, 'A' | 'a')
                        && matches!(self.row_above, Some((delimiter, k, above))
                            if delimiter == c.delimiter && k == fields(&c) + 1 && above_cells(above))
                });
                match (first_cell, c.label_cell.take()) {
                    (true, Some(first)) => {
                        c.tokens.insert(0, *first);
                        LineKind::Cells(c)
                    }
                    (_, label_cell) => {
                        c.label_cell = label_cell;
                        LineKind::LabelledRow(label, c)
                    }
                }
            }
            kind => kind,
        };
        self.row_above = match &kind {
            LineKind::Cells(c) | LineKind::Separator(c)
                if c.delimiter.is_some() && c.label.is_none() && c.columns.is_none() && !c.field =>
            {
                Some((c.delimiter, fields(c), RowAbove::Cells))
            }
            // Labels from `A` (or `a`) on: a labelled grid, whatever
            // letters its later rows have (a row lost, typed twice).
            LineKind::LabelledRow(_, c) if letter(c).is_some() => {
                let l = letter(c).expect("a letter");
                let above = match self.row_above {
                    _ if matches!(l, 'A' | 'a') => RowAbove::Labels { last: l, rows: 1 },
                    Some((_, _, RowAbove::Labels { last, rows }))
                        if rows > 1 || u32::from(l) == u32::from(last) + 1 =>
                    {
                        RowAbove::Labels { last: l, rows: rows + 1 }
                    }
                    _ => RowAbove::Cells,
                };
                Some((c.delimiter, fields(c) + 1, above))
            }
            _ => None,
        };
        kind
    }

    /// Under a CSV header, a line whose last field opens a quote and does
    /// not close it (`2,52…6…,"line one`) goes on over the lines after it, to
    /// the one that closes it: a note of several lines, as RFC 4180 and
    /// spreadsheets write it. They join it, each line break a space, where
    /// the whole is a row of the file (the header's fields, a puzzle in its
    /// column), and the count of lines joined is returned. If none of the
    /// next [`QUOTED_LINES`] closes it, one is blank or a row of its own (a
    /// quote typed by mistake), or the whole is no row (a title that opens
    /// a quote), the line stays as it is and they are read in their turn.
    fn join_quoted(&mut self) -> usize {
        let Some((delimiter, fields)) = self.csv else { return 0 };
        let open = |line: &[u8], open| std::str::from_utf8(line).is_ok_and(|t| line::ends_quoted(t, delimiter, open));
        if !open(&self.buf, false) {
            return 0;
        }
        let shape = (delimiter, fields, self.column.unwrap_or(0));
        let mut read = Vec::new();
        while read.len() < QUOTED_LINES {
            let (result, next) = self.ahead.pop_front().unwrap_or_else(|| {
                let mut next = Vec::new();
                (read_bounded_line(&mut self.input, &mut next, MAX_LINE), next)
            });
            let text = matches!(result, Ok(Line::Read)).then(|| std::str::from_utf8(&next).ok()).flatten();
            let note = |t: &&str| !t.trim().is_empty() && !line::is_csv_row(t, shape, self.alphabet);
            let Some(text) = text.filter(note) else {
                read.push((result, next));
                break;
            };
            let closes = !line::ends_quoted(text, delimiter, true);
            read.push((result, next));
            if closes {
                let mut joined = self.buf.clone();
                for (_, next) in &read {
                    joined.push(b' ');
                    joined.extend_from_slice(next);
                }
                let row = std::str::from_utf8(&joined).is_ok_and(|t| line::is_csv_row(t, shape, self.alphabet));
                if row && joined.len() <= MAX_LINE {
                    self.buf = joined;
                    return read.len();
                }
                break;
            }
        }
        for line in read.into_iter().rev() {
            self.ahead.push_front(line);
        }
        0
    }

    /// A JSON object that goes on past its first line (pretty-printed, as
    /// editors and f-puzzles' export write it): the lines after it, to the
    /// one that closes it, join it with their line breaks, and the count of
    /// lines joined is returned. An object cut short is one record up to
    /// where its JSON is seen to stop: another object opened where ours
    /// holds a key next, or at its first line's indent (in an object
    /// indented inside); or, read to the end of the input, a line of no
    /// JSON (a puzzle) or the end. Past [`JSON_LINES`] lines or
    /// [`MAX_LINE`] bytes with no such end, the line stays as it is (its
    /// entry says the JSON does not parse). The lines looked through are
    /// read in their turn, a JSON line among them alone (so that a file of
    /// such lines is read once, not once a line), except after the other
    /// object that ends a cut one: that object is read whole, and no line
    /// was looked through past it. So is the first object at the top among
    /// them where it closes among them (a whole object under a line that
    /// opened a list and never closed it, `{"grid":[`).
    fn join_json(&mut self) -> usize {
        let mut depth = JsonDepth::default();
        if depth.close(&self.buf).is_some() {
            return 0;
        }
        let indent = |line: &[u8]| line.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let top = indent(&self.buf);
        // Whether a line inside was indented past the first (pretty-printed:
        // an object at the first line's indent is then another).
        let mut indented = false;
        let (mut read, mut size) = (Vec::new(), self.buf.len());
        let mut another = false;
        while read.len() < JSON_LINES {
            let (result, next) = self.ahead.pop_front().unwrap_or_else(|| {
                let mut next = Vec::new();
                (read_bounded_line(&mut self.input, &mut next, MAX_LINE), next)
            });
            let readable = matches!(result, Ok(Line::Read));
            // Another object: `{` where ours holds a key next (one line of
            // it cut short, `{"size":4`, then the next), unless the line
            // before ends at a key's colon; or, in an object indented
            // inside, `{` at its first line's indent or less.
            let before: &[u8] = read.last().map_or(&self.buf, |(_, line): &(_, Vec<u8>)| line);
            let key_before = before.trim_ascii().ends_with(b":");
            let opens = readable && next.get(indent(&next)) == Some(&b'{');
            if opens && ((depth.in_object() && !key_before) || (indented && indent(&next) <= top)) {
                self.ahead.push_front((result, next));
                another = true;
                break;
            }
            indented |= readable && indent(&next) > top && !next.trim_ascii().is_empty();
            size += next.len() + 1;
            let closed = readable && depth.close(&next).is_some();
            read.push((result, next));
            if !readable || size > MAX_LINE {
                break;
            }
            // Closed only where every line up to the bracket is JSON's: a
            // `]` of junk below a puzzle closes no object opened above it.
            if closed {
                if read.iter().all(|(_, line)| json_line(line)) {
                    return self.join_lines(read);
                }
                break;
            }
        }
        // Cut short, where the end was seen: its lines are the JSON lines
        // up to the other object, or to the first line that is none.
        let seen_end = another || read.last().is_some_and(|(result, _)| !matches!(result, Ok(Line::Read)));
        // (A line that opens an object at the first line's indent or less
        // is another's, in any layout: never joined to one cut short.)
        let at_top = |line: &[u8]| line.get(indent(line)) == Some(&b'{') && indent(line) <= top;
        let ours = |(result, line): &(std::io::Result<Line>, Vec<u8>)| {
            matches!(result, Ok(Line::Read)) && json_line(line) && !at_top(line)
        };
        let k = read.iter().take_while(|line| ours(line)).count();
        if !another {
            // The lines looked through are read alone, up to another object
            // at the top that closes among them (a whole puzzle under one
            // cut short): that one is joined in its turn.
            let whole = |i: &usize| {
                let mut depth = JsonDepth::default();
                let lines = read[*i..].iter().take_while(|(_, line)| json_line(line));
                lines.map(|(_, line)| line).any(|line| depth.close(line).is_some())
            };
            let next = (k..read.len()).find(|&i| matches!(read[i].0, Ok(Line::Read)) && at_top(&read[i].1));
            self.unclosed_to = self.line_no + next.filter(whole).unwrap_or(read.len());
        }
        let joined = seen_end && size <= MAX_LINE;
        let tail = read.split_off(if joined { k } else { 0 });
        for line in tail.into_iter().rev() {
            self.ahead.push_front(line);
        }
        self.join_lines(read)
    }

    /// Join `lines` to the line read, each after a line break: how many.
    fn join_lines(&mut self, lines: Vec<(std::io::Result<Line>, Vec<u8>)>) -> usize {
        for (_, next) in &lines {
            self.buf.push(b'\n');
            self.buf.extend_from_slice(next);
        }
        lines.len()
    }

    /// What the CSV header read so far says of the lines below it.
    fn under(&self) -> Under {
        Under { named: self.named, shape: self.csv }
    }

    /// What a line of text is on its own, its text where a title or a rule
    /// of `*`s may be a row after all, and whether it may write empty cells
    /// with a mark (see [`Classified`]).
    fn classify_text(&self, text: &str) -> (LineKind, Option<String>, bool) {
        let kind = classify(text, self.alphabet, self.spec.fixed_size(), self.under());
        let text = without_line_end(text);
        let kept = match kind {
            LineKind::Title(_) => true,
            LineKind::Rule => text.chars().all(|c| matches!(c, '*' | '|') || c.is_whitespace()),
            _ => false,
        };
        // Past `9` (letters, `_`, `|`, any non-ASCII) or `*`; without an
        // early exit, so that it vectorizes.
        let marks = text.bytes().fold(false, |any, b| any | (b > b'9') | (b == b'*'));
        (kind, kept.then(|| text.to_string()), marks)
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

    /// An error at `line`, and at `column` where a cell is at fault; an
    /// error about the whole line is placed where the line's text starts.
    fn error(&self, line: usize, column: Option<usize>, kind: ParseErrorKind) -> ParseError {
        let column = column.or_else(|| self.starts.get(line));
        ParseError { position: self.at(line, column), kind }
    }

    /// An error at line `line`, or, `at_end`, at the end of the input
    /// after `line`, the last line read: no column there.
    fn error_or_end(&self, line: usize, at_end: bool, kind: ParseErrorKind) -> ParseError {
        match at_end {
            false => self.error(line, None, kind),
            true => ParseError { position: self.at(line, None), kind },
        }
    }

    /// An entry that starts at `line`, named by its label or else by the
    /// title before it. A title above a labelled puzzle heads it (`Set 1`
    /// over `Puzzle 1: …`) and names no later one, unless it stands for a
    /// puzzle lost ([`name_next`](Self::name_next)), whose entry goes to
    /// `ready` first: the caller puts this one after it.
    fn entry(&mut self, line: usize, label: Option<String>, puzzle: Result<Puzzle, ParseError>) -> Entry {
        let title = self.title.take();
        let name = match label {
            Some(label) => {
                if let Some(lost) = title.and_then(|(at, title)| self.lost(at, title, Some((line, &label)))) {
                    self.ready.push_back(lost);
                }
                Some(label)
            }
            None => title.map(|(_, title)| title),
        };
        self.last_titled = name.as_deref().and_then(Numbered::of);
        Entry { position: self.at(line, None), name, puzzle }
    }

    /// A title at `line`: the name of the puzzle after it. The title before
    /// it, if no puzzle took it, may stand for a puzzle lost
    /// ([`lost`](Self::lost)): that puzzle's `invalid` entry is returned.
    #[must_use]
    fn name_next(&mut self, line: usize, title: String) -> Option<Entry> {
        let title = undecorated(&title).to_string();
        let lost = self.title.take().and_then(|(at, before)| self.lost(at, before, Some((line, &title))));
        self.title = Some((line, title));
        if self.titles.0 == 0 {
            self.titles.1 = line;
        }
        self.titles.0 += 1;
        lost
    }

    /// At the end of the input: the title left without a puzzle, if it
    /// stands for a puzzle lost ([`lost`](Self::lost)), that puzzle's
    /// `invalid` entry.
    fn lost_at_end(&mut self) -> Option<Entry> {
        let (at, title) = self.title.take()?;
        self.lost(at, title, None)
    }

    /// The `invalid` entry of the puzzle that the title `title` at line
    /// `at` heads, where no puzzle is under it, and the titles count up in
    /// one form: the last title (or label) that named a puzzle, this one,
    /// and the title or label `next` that follows it (`Grid 01`'s puzzle,
    /// `Grid 02`, `Grid 03`; `None`: the end of the input, as in Project
    /// Euler's file cut after `Grid 50`).
    fn lost(&self, at: usize, title: String, next: Option<(usize, &str)>) -> Option<Entry> {
        let lost = Numbered::of(&title)?;
        let counts_up = self.last_titled.as_ref().is_some_and(|named| named.before(&lost))
            && next.is_none_or(|(_, next)| Numbered::of(next).is_some_and(|next| lost.before(&next)));
        counts_up.then(|| {
            let next = next.map(|(line, next)| (line, next.to_string()));
            let error = self.error(at, None, ParseErrorKind::NoPuzzleUnderTitle { title: title.clone(), next });
            Entry { position: self.at(at, None), name: Some(title), puzzle: Err(error) }
        })
    }

    /// The title lines read so far, and where the first one was: an input
    /// that held no puzzle says so (a file of rows that are no puzzle, read
    /// as titles, is bad input; an empty one is not).
    pub fn titles(&self) -> Option<(usize, Position)> {
        (self.titles.0 > 0).then(|| (self.titles.0, self.at(self.titles.1, None)))
    }

    /// How many comment lines held a whole puzzle after their `#`, and
    /// where the first was: an input of only comments names them.
    pub fn commented_puzzles(&self) -> Option<(usize, Position)> {
        (self.commented.0 > 0).then(|| (self.commented.0, self.at(self.commented.1, None)))
    }

    /// Where the first CSV header was, if one was read: an input of only a
    /// header holds no puzzle, and says so.
    pub fn header(&self) -> Option<Position> {
        self.header.map(|line| self.at(line, None))
    }

    /// The f-puzzles puzzle `text` (JSON from `line` on, a string or a
    /// link), read with its own grid and rules; an error where the options
    /// chose a grid (`--box`, `--latin`, `--variant`, …), which it would not
    /// keep to.
    fn fpuzzles(&self, line: usize, text: &str) -> Result<Puzzle, ParseError> {
        let kind = match self.spec.chosen_by() {
            Some(by) => ParseErrorKind::FpuzzlesWithGrid { by },
            // JSON's errors name lines: those of the input.
            None => match read_fpuzzles_from(text, line) {
                Ok(puzzle) => return Ok(puzzle),
                // A syntax error is named where it is.
                Err(error @ FpuzzlesError::Json { line, column, .. }) => {
                    return Err(self.error(line, Some(column), ParseErrorKind::Fpuzzles(error)))
                }
                Err(error) => ParseErrorKind::Fpuzzles(error),
            },
        };
        Err(self.error(line, None, kind))
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
                self.answered = true;
                return Some(entry);
            }
            let Some((line, kind)) = self.next_line() else { return self.lost_at_end() };
            match kind {
                // A blank line, or a spreadsheet grid's empty first row: k − 1
                // more rows of its k cells follow, and no k-th.
                LineKind::Separator(mut cells) if self.skipping == 0 => {
                    self.line_mode = None;
                    let written = cells.clone();
                    let start = match self.peek(0) {
                        Some((_, LineKind::LabelledRow(..))) => match self.labelled_block(line, &mut cells, None) {
                            Labelled::Block => BlockStart::Yes,
                            _ => BlockStart::No,
                        },
                        _ => {
                            // Right after grids of its width (a file that
                            // parts its grids so), its last field is a cell
                            // too: a 9×9's rows a row short, each with an
                            // empty last cell, are no 8×8.
                            let after_grids = self.after_grids == Some((line, cells.tokens.len()));
                            if !self.drop_cut_field(&mut cells, false) && !after_grids {
                                self.drop_trailing_field(&mut cells);
                            }
                            self.first_row_of_block(line, &cells)
                        }
                    };
                    match start {
                        BlockStart::Yes => self.block(line, cells.tokens),
                        BlockStart::OverStrayRow => self.block_over_stray_row(line, cells.tokens),
                        BlockStart::No => match self.damaged_grid_below(&written) {
                            // The grid's empty first row, a field lost or added.
                            Some(m) => {
                                self.pending.push_front((line, LineKind::Separator(written)));
                                self.damaged_block(None, 0, m);
                            }
                            None => {
                                (self.parted, self.blank) = (true, line);
                                self.parting = Some((line, written.tokens.len()));
                            }
                        },
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
                    if let Some(lost) = self.name_next(line, title) {
                        return Some(lost);
                    }
                }
                LineKind::IndexHeader(k) => {
                    self.line_mode = None;
                    if let Some((line, first)) = self.indexed_block(k) {
                        self.block(line, first);
                    }
                }
                LineKind::LabelledRow(label, mut cells) => {
                    let k = cells.tokens.len();
                    // A marked row (`Puzzle 3: …`, see `LineKind::LabelledRow`)
                    // is a puzzle on one line only when written a word a cell,
                    // or when its values fit its side (`Puzzle 3: 600 000 803
                    // …`): `Level 3 - 1234 5678 9012 3456` is a title.
                    let fits = exact_sqrt(k).is_some_and(|m| !RowSigns::of(&cells.tokens, m).too_big);
                    let marked = cells.label.is_some() && !cells.words && !fits;
                    // Its first cell written wrong (`x,,,,6,,,,3` above rows
                    // of 9 fields): the first row of a block, that cell named.
                    let cell_first = cells.label_cell.is_some()
                        && matches!(self.peek(0), Some((_, LineKind::Cells(c) | LineKind::Separator(c)))
                            if c.tokens.len() == k + 1 && c.delimiter == cells.delimiter && c.label.is_none());
                    let labelled = self.labelled_block(line, &mut cells, Some(&label));
                    if let Labelled::OutOfTurn(entry) = labelled {
                        self.ready.push_back(entry);
                    } else if let Labelled::Block = labelled {
                        self.block(line, cells.tokens);
                    } else if let (true, Some(first)) = (cell_first, cells.label_cell.take()) {
                        self.block(line, std::iter::once(*first).chain(cells.tokens).collect());
                    } else if (is_whole_count(k) && !marked) || stuck_cells(&cells.tokens) >= DAMAGED_CELLS {
                        // `Puzzle 3,5,3,,,7,…`: a puzzle on one line, named;
                        // `4:<80 cells>` a puzzle gone wrong, never a title.
                        cells.label = Some(label);
                        self.frame(line, cells);
                    } else {
                        // A title, all of it (`Level 3 - 2024 11 29`).
                        self.line_mode = None;
                        if let Some(lost) = self.name_next(line, cells.label.unwrap_or(label)) {
                            return Some(lost);
                        }
                    }
                }
                LineKind::Header(Header { column, named, fields, delimiter, title }) => {
                    self.line_mode = None;
                    let before = (self.column, self.named, self.csv);
                    (self.column, self.named, self.csv) = (Some(column), named, Some((delimiter, fields)));
                    // Words between commas that name no puzzle column and
                    // head no rows of fields are a title (the line after it
                    // is read as under the header, as a row would be). A
                    // spreadsheet's grid under it has as many columns (and
                    // maybe a column of labels).
                    let rows = match self.peek(0) {
                        Some((_, LineKind::Fields(_))) => true,
                        Some((_, LineKind::Cells(c) | LineKind::Separator(c) | LineKind::LabelledRow(_, c))) => {
                            c.field || (c.delimiter == Some(delimiter) && c.tokens.len().abs_diff(fields) <= 1)
                        }
                        _ => false,
                    };
                    if !named && !rows {
                        (self.column, self.named, self.csv) = before;
                        if let Some(lost) = self.name_next(line, title) {
                            return Some(lost);
                        }
                    } else {
                        self.header.get_or_insert(line);
                    }
                }
                LineKind::Broken(kind, column) => {
                    let error = self.error(line, column, kind);
                    return Some(self.entry(line, None, Err(error)));
                }
                LineKind::Fpuzzles(text) => {
                    self.line_mode = None;
                    let puzzle = self.fpuzzles(line, &text);
                    return Some(self.entry(line, None, puzzle));
                }
                LineKind::Fields(fields) => {
                    let (alphabet, fixed) = (self.alphabet, self.spec.fixed_size());
                    // Without a header, the first field that holds a puzzle,
                    // whole or not: a damaged one is reported, never passed
                    // over for the solution after it.
                    let holds_puzzle =
                        |f: &str| is_whole_field(f, alphabet, fixed) || cellish_count(f) >= DAMAGED_CELLS;
                    // Under a header that names no puzzle column (`id,text`),
                    // the first row that holds a puzzle tells the column.
                    let index = match (self.column, self.named) {
                        (Some(column), true) => column,
                        (header, _) => {
                            let found = fields.iter().position(|(_, f)| holds_puzzle(f.trim()));
                            if let (Some(column), Some(_)) = (found, header) {
                                (self.column, self.named) = (Some(column), true);
                            }
                            found.or(header).unwrap_or(0)
                        }
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
                    let label = undecorated(&label);
                    cells.label = is_text(label, alphabet).then(|| echo(label));
                    // A jigsaw file's row brings the puzzle's regions in a
                    // later field (janko.at's `id n givens regions solution`).
                    // The grid options' layout wins over it.
                    // The last field that holds anything may be regions cut short with the line.
                    let last = fields.iter().rposition(|(_, f)| !f.trim().is_empty());
                    let later = match self.spec.takes_row_regions() {
                        true => fields[index + 1..]
                            .iter()
                            .zip(index + 1..)
                            .map(|((column, f), i)| {
                                (column, i + 1, later_field(f, &cells.tokens, alphabet, Some(i) == last))
                            })
                            .find(|(_, _, later)| !matches!(later, LaterField::Other)),
                        false => None,
                    };
                    match later {
                        Some((_, field, LaterField::Regions(regions))) => {
                            self.jigsaw_rows.get_or_insert(JigsawRows { first: line, puzzle: index, regions: field });
                            self.jigsaw_row(line, cells, regions)
                        }
                        Some((column, field, LaterField::Wrong { at, count, message })) => {
                            let kind = ParseErrorKind::RegionsField { field, count, message };
                            let error = self.error(line, Some(column + at + 1), kind);
                            let entry = self.entry(line, cells.label, Err(error));
                            self.ready.push_back(entry);
                        }
                        None if let Some(JigsawRows { first, regions, .. }) = self
                            .jigsaw_rows
                            .filter(|rows| rows.puzzle == index && self.spec.takes_row_regions())
                            .filter(|_| line::cut_before_regions(&fields[index + 1..], cells.tokens.len())) =>
                        {
                            let kind = ParseErrorKind::RegionsMissing { field: regions, first };
                            let at = fields.get(regions - 1).map_or(line_end(&fields), |(column, _)| column + 1);
                            let error = self.error(line, Some(at), kind);
                            let entry = self.entry(line, cells.label, Err(error));
                            self.ready.push_back(entry);
                        }
                        _ => {
                            let beside = match self.header {
                                None => line::puzzles_beside(&fields[index + 1..], &cells.tokens, alphabet, fixed),
                                Some(_) => Vec::new(),
                            };
                            self.frame(line, cells);
                            // The puzzles beside it have no title of their
                            // own: a title that counts the puzzles still
                            // counts from the first (`Grid 02` with none).
                            let titled = self.last_titled.take();
                            for other in beside {
                                self.frame(line, other);
                            }
                            self.last_titled = titled;
                        }
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
        let grid = self
            .candidate_grid(line, &cells)
            .or_else(|| self.coordinate_grid(&cells))
            .or_else(|| self.label_led_grid(line, &cells));
        if let Some(puzzle) = grid {
            let entry = self.entry(line, cells.label, puzzle);
            return self.ready.push_back(entry);
        }
        self.drop_trailing_field(&mut cells);
        let k = cells.tokens.len();
        if let Some(rows) = self.spaced_grid(line, &cells) {
            let puzzle = self.resolve(line, k, &rows);
            let entry = self.entry(line, cells.label, puzzle);
            return self.ready.push_back(entry);
        }
        if self.is_index(&cells) {
            let number: String = cells.tokens.iter().map(|t| t.text.to_string()).collect();
            if let Some(lost) = self.name_next(line, number) {
                self.ready.push_back(lost);
            }
            return;
        }
        if let Some(m) = self.pencil_side(&cells) {
            // Each cell's m marks in place: value p + 1 at place p, or empty.
            let sets: Vec<Vec<usize>> = cells
                .tokens
                .chunks(m)
                .map(|marks| (1..=m).filter(|&v| !matches!(marks[v - 1].symbol, Symbol::Empty)).collect())
                .collect();
            let puzzle = self.marked_puzzle(line, m, None, sets.iter().map(Vec::as_slice));
            let entry = self.entry(line, cells.label, puzzle);
            return self.ready.push_back(entry);
        }
        if let Some(n) = self.joined_first_rows(&cells) {
            return self.joined_block(line, 0, n, line, &cells);
        }
        if let Some(n) = self.puzzle_side(k) {
            if cells.field || self.spec.fixed_size().is_some() || !self.starts_block(k, &cells) {
                let could_be_row = !cells.field && self.spec.fixed_size().is_none() && self.could_be_row(k, &cells);
                let delimiter = cells.delimiter;
                let rows = vec![(line, cells.tokens)];
                let puzzle = self.resolve(line, n, &rows);
                // Only a line that makes a grid sets the paragraph to one
                // puzzle per line: after a block broke, its other rows of m²
                // cells (no m×m grid) must not all turn into puzzles.
                if !matches!(&puzzle, Err(ParseError { kind: ParseErrorKind::Geometry(_), .. })) {
                    self.line_mode = Some((k, cells.delimiter));
                }
                // A lone row of a block (its puzzle cut short to one row) is
                // as likely as a puzzle of a grid with no boxes, when the
                // block's grid can be made (`--latin --variant
                // disjoint-groups` makes neither).
                // Among lines of k cells (a file of puzzles one per line),
                // it is one of them. The next line is looked at only here,
                // so that a puzzle typed or streamed is answered before the
                // next line comes.
                let row = could_be_row
                    && matches!(&puzzle, Err(ParseError { kind: ParseErrorKind::Geometry(_), .. }))
                    && self.spec.geometry_for(k).is_ok()
                    && self.line_mode != Some((k, delimiter))
                    && !matches!(self.peek(0), Some((_, LineKind::Cells(c))) if c.tokens.len() == k);
                let puzzle = puzzle.map_err(|mut e| {
                    if let (ParseErrorKind::Geometry(why), true) = (&e.kind, row) {
                        e.kind = ParseErrorKind::LoneLine { count: k, side: n, why: why.clone() };
                    }
                    e
                });
                let entry = self.entry(line, cells.label, puzzle);
                return self.ready.push_back(entry);
            }
        }
        // A row, not a whole puzzle: the empty field after its last cell is
        // its grid's, or the delimiter after every row of it.
        self.drop_cut_field(&mut cells, true);
        let k = cells.tokens.len();
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
        // `4..7x…`: so is a symbol of a larger grid among digits that make
        // a whole puzzle without it.
        if let Some((n, stray)) = self.past_side_stray(&cells.tokens) {
            let kind = ParseErrorKind::ValueOutOfRange {
                symbol: stray.text.to_string(),
                n,
                expected: self.alphabet.expected(n),
            };
            let error = self.error(line, Some(stray.column as usize), kind);
            let entry = self.entry(line, cells.label, Err(error));
            return self.ready.push_back(entry);
        }
        if let Some((ahead, cells)) = self.wrapped(k).filter(|_| self.spec.fixed_size().is_none()) {
            return self.wrapped_puzzle(line, ahead, cells);
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

    /// The first of the one or two cells of a line too long by them whose
    /// values are letters past the side n of the puzzle the other cells
    /// make (`x`, value 33, among the 81 cells of a 9×9), with n: a symbol
    /// typed into the puzzle, named where it stands. Digits are none: a
    /// 9×9 wrapped at 38 columns is no 6×6 with a `7` too many.
    fn past_side_stray<'t>(&self, tokens: &'t [Token]) -> Option<(usize, &'t Token)> {
        let past = |n: usize| tokens.iter().filter(move |t| matches!(t.symbol, Symbol::Value(v) if v > n.max(9)));
        (1..=2).find_map(|extra| {
            let n = self.puzzle_side(tokens.len().checked_sub(extra)?).filter(|&n| n >= 4)?;
            (past(n).count() == extra).then(|| past(n).next()).flatten().map(|stray| (n, stray))
        })
    }

    /// A row of a jigsaw file: its puzzle's cells and its own regions.
    fn jigsaw_row(&mut self, line: usize, cells: Cells, regions: Vec<u32>) {
        let k = cells.tokens.len();
        let n = exact_sqrt(k).expect("a region map has n² cells");
        let geometry = self.spec.jigsaw(n, regions);
        let puzzle = geometry.map_err(|e| self.error(line, None, ParseErrorKind::Geometry(e))).and_then(|geometry| {
            let givens = self.givens(line, n, &[(line, cells.tokens)])?;
            Ok(Puzzle::new(geometry, givens).expect("the regions have side n"))
        });
        let entry = self.entry(line, cells.label, puzzle);
        self.ready.push_back(entry);
    }

    /// Whether a line is a number of its own (`1`, `2`, … `999`) or one
    /// letter (`A`), numbering
    /// the puzzle on the line after it: a title, not a puzzle of one cell
    /// nor a lone row (lines of its length after it are rows or puzzles).
    fn is_index(&mut self, cells: &Cells) -> bool {
        let k = cells.tokens.len();
        // Digits, symbols of the alphabet or not (`--symbols ABCDEFGHI`),
        // or one letter (`A`, `-- B --`).
        // A digit of another script (`１`, `١`) is one too.
        let digit = |c: char| crate::text::symbols::ascii_form(c).is_ascii_digit();
        let digits = cells.tokens.iter().all(|t| matches!(t.text, TokenText::Char(c) if digit(c)))
            || matches!(&cells.tokens[..], [Token { text: TokenText::Char(c), .. }] if c.is_alphabetic());
        let zero = |c: char| crate::text::symbols::ascii_form(c) == '0';
        let leading_zero = matches!(cells.tokens.first(), Some(t) if matches!(t.text, TokenText::Char(c) if zero(c)));
        if !(1..=3).contains(&k) || cells.words || cells.field || cells.label.is_some() || !digits || leading_zero {
            return false;
        }
        let columns: Vec<u32> = cells.tokens.iter().map(|t| t.column).collect();
        let together = columns.windows(2).all(|w| w[1] == w[0] + 1);
        // A puzzle follows it, perhaps under a frame's top rule (a last `1`
        // alone is a 1×1's solution, read back).
        let mut i = 0;
        while matches!(self.peek(i), Some((_, LineKind::Rule))) {
            i += 1;
        }
        let follows = match self.peek(i) {
            Some((_, LineKind::Cells(c))) => c.tokens.len() != k,
            // A spreadsheet's grid, its first row empty (`,,,,,,,,`).
            Some((_, LineKind::Separator(c))) => c.tokens.len() > 3,
            Some((_, LineKind::Fields(_) | LineKind::LabelledRow(..) | LineKind::IndexHeader(_))) => true,
            _ => false,
        };
        together && follows
    }

    /// The rows of a grid written with a blank line after each row (as some
    /// web pages copy), or after each band of boxes: the line of k cells at
    /// `line` and the rows of k after it, in groups of as many, one blank
    /// line between, k in all, taken from the input. Never lines that are
    /// puzzles on their own (4×4s one per line, blank lines between) unless
    /// a value past their side makes them rows and none repeats a value.
    fn spaced_grid(&mut self, line: usize, first: &Cells) -> Option<Vec<(usize, Vec<Token>)>> {
        let k = first.tokens.len();
        let plain = |c: &Cells| c.tokens.len() == k && !c.field && c.label.is_none();
        let in_run = self.line_mode == Some((k, first.delimiter));
        if k < 4
            || in_run
            || !plain(first)
            || !self.could_be_row(k, first)
            || self.spec.fixed_size().is_some_and(|n| n != k)
        {
            return None;
        }
        // The lines ahead, rule lines skipped (a ruled grid may have a blank
        // line after a rule): rows of k cells, blank lines, and others.
        #[derive(PartialEq)]
        enum Ahead {
            Row,
            Blank,
            Other,
        }
        let blank = |reader: &mut Self, i: usize| matches!(reader.peek(i), Some((_, LineKind::Blank)));
        // `ruled`: a rule with a blank line on each side is one blank line
        // between rows, where a blank line comes after every row of a grid
        // drawn with `|`: `\r\r\n` line ends (a file converted to CRLF
        // twice) put one after every line, rules too. Elsewhere it is what
        // parts puzzles.
        let ahead = |reader: &mut Self, mut i: usize, ruled: bool| loop {
            let rule = matches!(reader.peek(i), Some((_, LineKind::Rule)));
            if ruled && rule && i > 0 && blank(reader, i - 1) && blank(reader, i + 1) {
                i += 2;
                continue;
            }
            match reader.peek(i) {
                Some((_, LineKind::Rule)) => i += 1,
                Some((_, LineKind::Cells(c))) if plain(c) => return (Ahead::Row, i),
                Some((_, LineKind::Blank)) => return (Ahead::Blank, i),
                _ => return (Ahead::Other, i),
            }
        };
        // Cheap first: a group that divides k, a blank line, a row of k.
        let (mut group, mut next) = (Vec::new(), ahead(self, 0, false));
        while next.0 == Ahead::Row && group.len() + 1 < k {
            group.push(next.1);
            next = ahead(self, next.1 + 1, false);
        }
        let band = group.len() + 1;
        // Only in a grid drawn with `|`, whose rules are its own: a line of
        // dashes between plain grids parts them, blank lines or not.
        let ruled = band == 1 && self.drawn.bars.contains_key(&line);
        if band == k || k % band != 0 || next.0 != Ahead::Blank || ahead(self, next.1 + 1, ruled).0 != Ahead::Row {
            return None;
        }
        // Then groups of that many rows, each after one blank line.
        let mut rows = vec![(line, first.tokens.clone())];
        for at in group {
            rows.push(self.spaced_row(at, k)?);
        }
        let mut i = next.1;
        while rows.len() < k {
            let (blank, at) = ahead(self, i, ruled);
            if blank != Ahead::Blank {
                return None;
            }
            i = at + 1;
            for _ in 0..band {
                let (row, at) = ahead(self, i, ruled);
                if row != Ahead::Row {
                    return None;
                }
                rows.push(self.spaced_row(at, k)?);
                i = at + 1;
            }
        }
        if let Some(m) = exact_sqrt(k).filter(|&m| self.spec.geometry_for(m).is_ok()) {
            let mut signs = RowSigns::default();
            rows.iter().for_each(|(_, tokens)| signs.add(RowSigns::of(tokens, m)));
            if !signs.too_big || signs.repeats {
                return None;
            }
        }
        // Grids so spaced may follow each other with no blank line between
        // (a 4×4's `2 rows, blank, 2 + 2 rows, blank, 2 rows`): where rows
        // follow its last group, the blocks from here to the chain's end
        // must add up to whole grids. A grid cut to its first half before
        // whole grids (`2 rows, blank, 4 rows, blank, 4 rows`) is not made
        // up from the next grid's rows, nor that one from the one after.
        // A chain longer than a run of rows is taken as it comes.
        if ahead(self, i, ruled).0 == Ahead::Row && line > self.spaced_through {
            let most = MAX_RUN_ROWS.min(MAX_RUN_CELLS / k).max(k);
            let (mut rest, mut j, mut end) = (0, i, i);
            while rest < most {
                match ahead(self, j, ruled) {
                    (Ahead::Row, at) => (rest, j, end) = (rest + 1, at + 1, at),
                    (Ahead::Blank, at) if ahead(self, at + 1, ruled).0 == Ahead::Row => j = at + 1,
                    _ => break,
                }
            }
            if rest < most && rest % k != 0 {
                return None;
            }
            self.spaced_through = self.peek(end).map_or(line, |(number, _)| *number);
        }
        for _ in 0..i {
            self.next_line();
        }
        Some(rows)
    }

    /// The row of k cells `i` lines ahead, for [`Self::spaced_grid`].
    fn spaced_row(&mut self, i: usize, k: usize) -> Option<(usize, Vec<Token>)> {
        match self.peek(i) {
            Some((line, LineKind::Cells(c))) if c.tokens.len() == k => Some((*line, c.tokens.clone())),
            _ => None,
        }
    }

    /// Whether `k` cells can be a row of a k×k grid: symbols only up to the
    /// alphabet's size, and a size satdoku takes.
    fn could_be_row(&self, k: usize, cells: &Cells) -> bool {
        (2..=MAX_SIZE).contains(&k) && (cells.words || k <= self.alphabet.len())
    }

    /// Whether a line of k = m² cells is a whole m×m puzzle whatever the
    /// lines after it are, labelled or not. In a run of m×m puzzles one per
    /// line, a line is one of them unless a value past m makes it none:
    /// then it may start a block, if the rows under it are no such puzzles
    /// either. A line that repeats only values 1..=m, where m×m puzzles can
    /// be, is one of them (a 9x9 block's first row with a value twice is
    /// that row).
    fn is_puzzle_of_run(&mut self, k: usize, first: &Cells) -> bool {
        let m = exact_sqrt(k).unwrap_or(k);
        let in_run = self.line_mode == Some((k, first.delimiter));
        (in_run && !RowSigns::of(&first.tokens, m).too_big) || is_small_puzzle(&first.tokens, self.small_side(k))
    }

    /// Whether a line of k = m² cells starts a block of k rows rather than
    /// being a whole m×m puzzle.
    fn starts_block(&mut self, k: usize, first: &Cells) -> bool {
        if !self.could_be_row(k, first) {
            return false;
        }
        let m = exact_sqrt(k).unwrap_or(k);
        let first_signs = RowSigns::of(&first.tokens, m);
        let in_run = self.line_mode == Some((k, first.delimiter));
        let small = self.small_side(k);
        if self.is_puzzle_of_run(k, first) {
            return false;
        }
        // A value past m, or no m×m grid to be had (a prime m without
        // `--latin`): no m×m puzzle, so a row.
        let no_small_grid = self.spec.geometry_for(m).is_err();
        let mut forced = first_signs.too_big || no_small_grid;
        let mut later_forced = no_small_grid;
        let (mut clashing, mut total) = (first_signs.repeats, first_signs.givens);
        // Look ahead: k − 1 more rows of k cells (rules between are fine),
        // up to a line that is a smaller puzzle and no row.
        let (mut rows, mut i) = (1, 0);
        while rows < k {
            match self.peek(i) {
                Some((_, LineKind::Rule)) => {}
                Some((_, LineKind::Cells(c) | LineKind::Separator(c)))
                    if c.tokens.len() == k && !c.field && !is_small_puzzle(&c.tokens, small) =>
                {
                    let signs = RowSigns::of(&c.tokens, m);
                    forced |= signs.too_big;
                    later_forced |= signs.too_big;
                    clashing |= signs.repeats;
                    total += signs.givens;
                    rows += 1;
                }
                // Cut short: a block (reported as broken) only if a row
                // after it holds a value past m too (or there is no m×m
                // grid): else the line with one is a puzzle written wrong
                // (junk, `5678567856785678`), and the lines after it the
                // next ones, never swallowed into its record. A lone line
                // is a puzzle (and says what is wrong), unless a row
                // written wrong follows, the block's other rows around it
                // (in a run of m×m puzzles, only with a value past m too).
                //
                // A row written wrong below (a number lost or doubled: 15
                // or 17 cells among rows of 16), the block's other rows
                // around it, is one of its rows too: a value past m in it
                // or in the rows after it makes these lines rows, as one
                // in a whole row would. Else a first row with no value past
                // m was a puzzle of its own, a puzzle nobody wrote.
                _ => {
                    if later_forced && rows > 1 {
                        return true;
                    }
                    // A blank or stray line inside the block: the k − rows
                    // rows it lacks come after it (then no more), and the
                    // first line or one of those holds a value past m. (In
                    // a run of m×m puzzles one per line, a paragraph of
                    // them.) Two rows on one line, the others around it.
                    if !in_run && self.joined_rows_ahead(k, rows, i) {
                        return true;
                    }
                    if !in_run
                        && self.stray_line_ahead(k, rows, i, Stray::Any)
                        && (forced || self.value_past_side_ahead(k, m, i))
                    {
                        return true;
                    }
                    let damaged = self.damaged_row_ahead(k, rows, i);
                    let later_forced = later_forced || (damaged && self.value_past_side_ahead(k, m, i));
                    let broken_block = match rows {
                        1 => (!in_run || later_forced) && damaged,
                        _ => later_forced,
                    };
                    return (forced || later_forced) && broken_block;
                }
            }
            i += 1;
        }
        if forced && !(in_run && clashing) {
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

    /// Whether the row written wrong `ahead` lines on, or a row of k = m²
    /// cells after it up to the block's k-th, holds a value past m (and no
    /// larger than k): no m×m puzzle's.
    fn value_past_side_ahead(&mut self, k: usize, m: usize, ahead: usize) -> bool {
        let past = |tokens: &[Token]| RowSigns::of(tokens, m).too_big;
        if matches!(self.peek(ahead), Some((_, LineKind::Cells(c))) if past(&c.tokens)) {
            return true;
        }
        let (mut rows, mut i) = (0, ahead + 1);
        while rows < k {
            match self.peek(i) {
                Some((_, LineKind::Rule)) => {}
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if c.tokens.len() == k => {
                    if past(&c.tokens) {
                        return true;
                    }
                    rows += 1;
                }
                _ => return false,
            }
            i += 1;
        }
        false
    }

    /// Read the block that `first` (at `line`) starts: n rows of n cells. A
    /// block that breaks is one invalid entry, and the line that broke it is
    /// left to start afresh. A block followed at once by more rows of its
    /// length is the start of a run.
    /// Where its rows were labelled (`labelled`), that holds for this block
    /// only.
    fn block(&mut self, line: usize, first: Vec<Token>) {
        self.block_rows(line, first, false);
        self.labelled = false;
    }

    /// [`block`](Self::block) where `first` is a row of only delimiters that
    /// heads a grid with a row too many ([`BlockStart::OverStrayRow`]): read
    /// as n + 1 rows, that grid is one record.
    fn block_over_stray_row(&mut self, line: usize, first: Vec<Token>) {
        self.block_rows(line, first, true);
        self.labelled = false;
    }

    /// [`block`](Self::block)'s work, every way out of it; `over_stray_row`
    /// as in [`block_over_stray_row`](Self::block_over_stray_row).
    fn block_rows(&mut self, line: usize, first: Vec<Token>, over_stray_row: bool) {
        // A block ends a paragraph's run of puzzles one per line: lines of
        // that length after it are framed afresh (rows of a 16x16 after
        // 4x4s one per line, then a 4x4 block).
        self.line_mode = None;
        let n = first.len();
        // Labelled rows were measured by their labels' grid, the delimiter
        // after each row with them.
        if !self.labelled {
            self.restore_cut_fields(n);
        }
        // Rows right after a puzzle read with a stray line or a row written
        // wrong start where that puzzle was taken to end.
        let behind = self.odd_line.take().filter(|&(_, last)| last + 1 == line).map(|(at, _)| at);
        let mut rows = vec![(line, first)];
        while rows.len() < n {
            // Another grid's header (`,1,2,…,8` over labelled rows) breaks
            // the block, though it has as many fields as its rows.
            let next = match self.grid_header_ahead() {
                Some(line) => Err(Some(line)),
                None => self.row_ahead(n),
            };
            match next {
                Ok(row) => rows.push(row),
                Err(Some(_))
                    if self.damaged_row_ahead(n, rows.len(), 0) || self.separator_row_ahead(n, rows.len(), line) =>
                {
                    return self.damaged_block(Some(line), rows.len(), n);
                }
                Err(Some(_)) if self.stray_line_ahead(n, rows.len(), 0, Stray::Any) => {
                    return self.stray_block(line, rows.len(), n);
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
                Err(Some(_)) if self.joined_rows_ahead(n, rows.len(), 0) => {
                    let Some((at, LineKind::Cells(cells))) = self.next_line() else { unreachable!("just peeked") };
                    return self.joined_block(line, rows.len(), n, at, &cells);
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
            // A grid over a stray row ends with its row too many: the rows
            // after it are the next grid's.
            if over_stray_row && rows.len() == n + 1 {
                break;
            }
            // A row of delimiters between whole puzzles parts them, unless
            // the rows after it make whole puzzles only with it as the next
            // one's empty first row. (One of another width is the next
            // grid's business.)
            // A row of delimiters after the last grid of its width may be
            // that grid's row too many (its empty row typed twice): a grid
            // alone is reported; in a run of grids, the row is one of the
            // run's, framed with the others (rule 5), as the row too many
            // may be an earlier grid's.
            if rows.len() % n == 0 && self.separator_ends_grid(&rows[rows.len() - n..], n) {
                if let Some((line, LineKind::Separator(c))) = self.next_line() {
                    rows.push((line, c.tokens));
                }
                if rows.len() == n + 1 {
                    let empty_row = rows[n].0;
                    return self.grid_with_row_too_many(rows, n, empty_row);
                }
                cut = false;
                break;
            }
            if rows.len() % n == 0
                && matches!(self.peek(0), Some((_, LineKind::Separator(c))) if c.tokens.len() == n)
                && !self.separator_starts_grid(n)
                && !self.separator_reads_as_row(n)
                && !self.separator_inside_run(&rows, n)
            {
                // A file that parts its grids with such rows.
                self.parted = true;
                self.after_grids = self.peek(0).map(|(line, _)| (*line, n));
                cut = false;
                break;
            }
            // A line that is no row of the block (`is_block_row`: a 4x4
            // on one line after a 16x16; another grid's header) ends the run
            // where a next puzzle would start, and breaks the puzzle under
            // way anywhere else.
            if self.grid_header_ahead().is_some() {
                cut = false;
                break;
            }
            match self.row_ahead(n) {
                Ok(row) => rows.push(row),
                // A row written wrong in a later puzzle of the run: the
                // whole puzzles before it, then that puzzle as one record.
                Err(Some(_))
                    if self.damaged_row_ahead(n, rows.len() % n, 0)
                        || self.separator_row_ahead(n, rows.len() % n, grid_start(&rows, n)) =>
                {
                    let partial = rows.split_off(rows.len() - rows.len() % n);
                    let first = partial.first().map(|(line, _)| *line);
                    if let Some(frames) = self.frames(&rows, n) {
                        self.read_frames(&rows, n, frames);
                    } else {
                        self.run_before(rows, n, behind);
                    }
                    return self.damaged_block(first, partial.len(), n);
                }
                // A line inside a later puzzle of the run, which is whole without it.
                Err(Some(_)) if self.stray_line_ahead(n, rows.len() % n, 0, Stray::Near) => {
                    let partial = rows.split_off(rows.len() - rows.len() % n);
                    self.run_before(rows, n, behind);
                    return self.stray_block(partial[0].0, partial.len(), n);
                }
                Err(_) => {
                    cut = false;
                    break;
                }
            }
        }
        if rows.len() == n + 1 && over_stray_row {
            return self.grid_with_row_too_many(rows, n, line);
        }
        if let Some(frames) = self.frames(&rows, n) {
            return self.read_frames(&rows, n, frames);
        }
        let edges = Edges { behind, ahead: self.odd_first_row_ahead(n) };
        if rows.len() % n == 0 && self.misframed(&rows, n, cut, edges) {
            return;
        }
        self.run(rows, n, Damage::None, edges);
    }

    /// The line ahead, after a run of puzzles of n rows, where it may be the
    /// next puzzle's first row written wrong: a line of cells near n (an
    /// index, a date) over a row of n. Read so, it is no line between
    /// puzzles, and the run's end is where the next one was taken to start.
    fn odd_first_row_ahead(&mut self, n: usize) -> Option<usize> {
        let odd = matches!(self.peek(0), Some((_, LineKind::Cells(c))) if c.tokens.len() != n && near_width(c.tokens.len(), n));
        let row = matches!(self.peek(1), Some((_, LineKind::Cells(c))) if c.tokens.len() == n);
        let line = self.peek(0).map(|(line, _)| *line);
        line.filter(|_| odd && row)
    }

    /// The whole puzzles of a run (`rows`) before a later puzzle of it that
    /// holds a row written wrong or a stray line, the line ahead: the run
    /// ends where that puzzle was taken to start, which no blank line or
    /// count of rows fixes, as the line ahead may instead stand between
    /// puzzles, the run's last one then a row long (a row typed twice) and
    /// the next a row short.
    fn run_before(&mut self, rows: Vec<(usize, Vec<Token>)>, n: usize, behind: Option<usize>) {
        let edges = Edges { behind, ahead: self.peek(0).map(|(line, _)| *line) };
        if !self.misframed(&rows, n, false, edges) {
            self.run(rows, n, Damage::One, edges);
        }
    }

    /// The n + 1 `rows` as one record: a grid with a row too many, the row
    /// of only delimiters at line `empty_row` one that reads as its first or
    /// last row ([`Self::separator_ends_grid`], [`BlockStart::OverStrayRow`]).
    fn grid_with_row_too_many(&mut self, grid: Vec<(usize, Vec<Token>)>, n: usize, empty_row: usize) {
        let (first, last) = (grid[0].0, grid[n].0);
        let kind = ParseErrorKind::RowTooMany { n, stretch: (first, last), empty_row };
        let error = self.error(first, None, kind);
        let entry = self.entry(first, None, Err(error));
        self.ready.push_back(entry);
    }

    /// The frames that part the rows of a run, where they tell its puzzles
    /// apart: each as the range of `rows` it holds. A grid drawn in a frame
    /// of its own, its bottom frame right above the next one's top frame
    /// (two rule lines or more between two rows), shows where each puzzle
    /// starts and ends, as no count of rows can once one frame holds a row
    /// too many or too few: so where some frame holds another number of
    /// rows than n, and at least as many hold n as not. Else (`None`: frames
    /// of n rows each, or double rules that part no puzzles, as between
    /// bands) the run is left to be framed by its rows.
    fn frames(&self, rows: &[(usize, Vec<Token>)], n: usize) -> Option<Vec<(usize, usize)>> {
        let parted = |a: usize, b: usize| self.drawn.rules.range(a + 1..b).nth(1).is_some();
        let mut edges = vec![0];
        edges.extend((1..rows.len()).filter(|&i| parted(rows[i - 1].0, rows[i].0)));
        edges.push(rows.len());
        let frames: Vec<(usize, usize)> = edges.windows(2).map(|pair| (pair[0], pair[1])).collect();
        let whole = frames.iter().filter(|(a, b)| b - a == n).count();
        (whole != frames.len() && 2 * whole >= frames.len()).then_some(frames)
    }

    /// Reads a run by its `frames` ([`Self::frames`]): each frame of n rows
    /// is a puzzle, a frame of a whole number of puzzles a run of its own,
    /// and any other frame an invalid record.
    fn read_frames(&mut self, rows: &[(usize, Vec<Token>)], n: usize, frames: Vec<(usize, usize)>) {
        for (a, b) in frames {
            let line = rows[a].0;
            if b - a == n {
                let puzzle = self.resolve(line, n, &rows[a..b]);
                let entry = self.entry(line, None, puzzle);
                self.ready.push_back(entry);
            } else if (b - a) % n == 0 {
                self.run(rows[a..b].to_vec(), n, Damage::None, Edges::default());
            } else {
                let kind = ParseErrorKind::FramedRows { rows: b - a, n, stretch: (line, rows[b - 1].0) };
                let entry = self.entry(line, None, Err(self.error(line, None, kind)));
                self.ready.push_back(entry);
            }
        }
    }

    /// Whether the row of only delimiters ahead, between whole puzzles,
    /// though the rows after it make whole puzzles without it, reads better
    /// as the next puzzle's empty first row: with it, the next n rows have
    /// exactly one solution, and without it not. In a file that writes
    /// empty rows so, a row too many in a later puzzle makes the rows add up
    /// without it, and every puzzle after it would be read a row on.
    fn separator_reads_as_row(&mut self, n: usize) -> bool {
        let mut ahead = Vec::with_capacity(n + 1);
        for i in 0..=n {
            match self.peek(i) {
                Some((line, LineKind::Cells(c) | LineKind::Separator(c))) if c.tokens.len() == n => {
                    ahead.push((*line, c.tokens.clone()));
                }
                _ => return false,
            }
        }
        self.told_wrongness(&ahead[..n], n, GUESS_TIME) == Some(0)
            && self.told_wrongness(&ahead[1..], n, GUESS_TIME) != Some(0)
    }

    /// Whether the row of only delimiters ahead, after the whole puzzles of
    /// a run (`rows`), is one of the run's rows, a row of one of its grids
    /// written empty, rather than a blank line: where the run's last puzzle
    /// has a row typed twice (so a row too many, and the rows after it are
    /// read a row on); or where that puzzle has not exactly one solution
    /// while some n rows across the row of delimiters have: the rows right
    /// before it, it, and the rows after it. A row lost earlier put that
    /// grid's first rows under the one before. Where the rows after it stop
    /// short of n − 1 (then a line that is no such row), the n rows across
    /// are those that make them whole; where they go on, any. (Readings
    /// shifted so of puzzles with many solutions have one next to never:
    /// see [`Self::shows_shift`].) Read as a blank line, both
    /// made a puzzle nobody wrote, called unsolvable, and the rows after it
    /// a grid cut short.
    fn separator_inside_run(&mut self, rows: &[(usize, Vec<Token>)], n: usize) -> bool {
        let last = &rows[rows.len() - n..];
        if typed_twice(last).contains(&true) {
            return true;
        }
        let Some((line, LineKind::Separator(c))) = self.peek(0) else { return false };
        let separator = (*line, c.tokens.clone());
        let mut after = Vec::new();
        for i in 1..n - 1 {
            match self.peek(i) {
                Some((line, LineKind::Cells(c))) if c.tokens.len() == n && !c.field && c.label.is_none() => {
                    after.push((*line, c.tokens.clone()));
                }
                _ => break,
            }
        }
        // Rows that go on past n − 2 (a labelled row or a whole puzzle on
        // one line of n cells ends them as any other line does).
        let goes_on = after.len() == n - 2
            && matches!(self.peek(after.len() + 1), Some((_, LineKind::Cells(c))) if c.tokens.len() == n);
        let borrowed = match goes_on {
            false => n - 1 - after.len()..n - after.len(),
            true => 1..n,
        };
        let deadline = Instant::now() + FRAMING_TIME;
        if after.is_empty() || self.wrongness(last, n, GUESS_TIME.min(time_left(deadline))) == 0 {
            return false;
        }
        borrowed.into_iter().any(|t| {
            let before = rows[rows.len() - t..].iter().cloned();
            let across: Vec<_> = before.chain([separator.clone()]).chain(after[..n - 1 - t].iter().cloned()).collect();
            let left = GUESS_TIME.min(time_left(deadline));
            !left.is_zero() && self.told_wrongness(&across, n, left) == Some(0)
        })
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
    /// back to be read with what follows). `edges` as in [`Self::settle`].
    fn misframed(&mut self, rows: &[(usize, Vec<Token>)], n: usize, cut: bool, edges: Edges) -> bool {
        // Whether the n rows from `start` are refuted, each start checked once.
        let mut memo: Vec<Option<bool>> = vec![None; rows.len()];
        let mut refuted = |reader: &mut Self, start: usize| {
            *memo[start].get_or_insert_with(|| match reader.resolve(rows[start].0, n, &rows[start..start + n]) {
                Ok(puzzle) => Propagator::from_puzzle(&puzzle).and_then(|mut p| p.propagate()).is_err(),
                // A cell that is no symbol is one wherever the puzzles
                // start: it tells nothing of the framing.
                Err(e) => {
                    !matches!(e.kind, ParseErrorKind::UnknownSymbol { .. } | ParseErrorKind::ValueOutOfRange { .. })
                }
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
        let mut read = Vec::with_capacity(pieces.len());
        for (p, &(i, len)) in pieces.iter().enumerate() {
            let line = rows[i].0;
            if doubtful[p] {
                // The stretch of doubtful pieces this one is in.
                let first = (0..=p).rev().take_while(|&r| doubtful[r]).last().unwrap_or(p);
                let last = (p..pieces.len()).take_while(|&r| doubtful[r]).last().unwrap_or(p);
                let (a, b) = (rows[pieces[first].0].0, rows[pieces[last].0 + pieces[last].1 - 1].0);
                let kind = ParseErrorKind::OddPuzzle { rows: len, n, stretch: (a, b), told: first == last };
                read.push(Piece::Odd(line, self.error(line, None, kind)));
            } else if len == n {
                read.push(Piece::Puzzle(i));
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
        // The odd stretches (a cut's rows left over go on, unread).
        let odd = pieces.iter().filter(|&&(i, len)| len != n && !(cut && i + len == total && len < n));
        let damage = Damage::of(odd.map(|&(_, len)| len), n);
        self.settle(rows, n, read, damage, Default::default(), edges);
        true
    }

    /// The puzzle whose first `rows` rows (from line `first`; none: the
    /// next line is its first) are read and whose next line is a row written
    /// wrong ([`Self::damaged_row_ahead`]): that line and the rows after it
    /// up to the puzzle's n-th are taken, and the puzzle is one record.
    fn damaged_block(&mut self, first: Option<usize>, rows: usize, n: usize) {
        let (at, count, column) =
            self.odd_line_and_rows(n, n.saturating_sub(rows + 1)).unwrap_or((first.unwrap_or(0), 0, None));
        let first = first.unwrap_or(at);
        let error = self.error(at, column, ParseErrorKind::DamagedRow { first, row: rows + 1, count, n });
        let entry = self.entry(first, None, Err(error));
        self.ready.push_back(entry);
    }

    /// Reads the line ahead, a block's line written wrong or stray, and the
    /// `left` rows of n cells after it (as many as there are): that line's
    /// number, its cells, and the column of its first cell past the n-th
    /// or just past its last ([`line::fault_column`]). Just peeked by the
    /// caller; were it not there, the caller still makes its record.
    fn odd_line_and_rows(&mut self, n: usize, left: usize) -> Option<(usize, usize, Option<usize>)> {
        let (at, odd) = self.next_line()?;
        let mut last = at;
        for _ in 0..left {
            match self.row_ahead(n) {
                Ok((line, _)) => last = line,
                Err(_) => break,
            }
        }
        self.odd_line = Some((at, last));
        Some((at, stray_length(&odd).unwrap_or_default(), line::line_fault_column(&odd, n)))
    }

    /// The cells of the line `ahead` lines on when, after `rows` rows of a block of
    /// n, it holds two of its rows (a line end lost: 2n cells, or 2n − 1
    /// fields where the fields on either side of it ran together), and
    /// exactly the n − `rows` − 2 rows the block lacks follow it, then no
    /// such row. (Read on its own, its 2n − 2 cells after a delimiter
    /// dropped were a 4×4 solved, a puzzle nobody wrote.)
    fn joined_rows_ahead(&mut self, n: usize, rows: usize, ahead: usize) -> bool {
        let Some((_, LineKind::Cells(c))) = self.peek(ahead) else { return false };
        let (count, k) = (joined_count(c), c.tokens.len());
        if c.field || c.label.is_some() || rows + 2 > n || !(2 * n - 1..=2 * n).contains(&count) || !two_rows(c, n) {
            return false;
        }
        let (after, more, end) = self.rows_ahead(n, ahead + 1, n - rows - 1);
        // The line starts a block of its own length (a grid cut short,
        // then a grid twice as wide): no rows of this one.
        let own_block = matches!(self.peek(end), Some((_, LineKind::Cells(c))) if c.tokens.len() == k);
        !more && after.len() == n - rows - 2 && !own_block
    }

    /// The side n of the block whose first two rows are the line just read
    /// (`cells`, `count` cells with a delimiter at its end it dropped), when
    /// exactly the n − 2 rows it lacks follow it ([`Self::joined_rows_ahead`]).
    fn joined_first_rows(&mut self, cells: &Cells) -> Option<usize> {
        if cells.field || cells.label.is_some() {
            return None;
        }
        let n = joined_count(cells).div_ceil(2);
        let fits = n >= 4 && self.spec.fixed_size().is_none_or(|f| f == n) && two_rows(cells, n);
        (fits && matches!(self.rows_ahead(n, 0, n - 1), (after, false, _) if after.len() == n - 2)).then_some(n)
    }

    /// The block of n-cell rows that starts at `first` with `rows` rows
    /// read, then the line `at` that holds two rows (`cells`), then its
    /// other rows: one invalid record, that line named, at the cell where
    /// the second row starts (or the field holding the end of one and the
    /// start of the other).
    fn joined_block(&mut self, first: usize, rows: usize, n: usize, at: usize, cells: &Cells) {
        for _ in 0..n - rows - 2 {
            if self.row_ahead(n).is_err() {
                break;
            }
        }
        let count = joined_count(cells);
        let column = line::fault_column(&cells.tokens, count - n);
        let error = self.error(at, column, ParseErrorKind::JoinedRows { first, row: rows + 1, count, n });
        let entry = self.entry(first, None, Err(error));
        self.ready.push_back(entry);
    }

    /// A puzzle on one line wrapped across lines at k cells a line (`fold
    /// -w 80` of an 81-cell line leaves a line of 80 and one of 1, and the
    /// one was read as a 1×1 puzzle): after the line of k cells just read
    /// (k no square: no puzzle), the lines ahead of k cells, then one shorter,
    /// that make a whole puzzle with them. The lines ahead to take, and the
    /// cells of all. A last line that is a whole puzzle itself (a junk line
    /// of 88 characters above an 81-cell puzzle) ends a wrapped puzzle only
    /// after three lines of k or more, and one that starts a block of its
    /// length (the next line as long) none. Lines of k that can be rows
    /// (`could_be_row`) never come here: a grid cut short is no wrapped
    /// puzzle.
    fn wrapped(&mut self, k: usize) -> Option<(usize, usize)> {
        if is_whole_count(k) || k > WRAP_WIDTH {
            return None;
        }
        for i in 0..WRAP_LINES {
            let Some((_, LineKind::Cells(c))) = self.peek(i) else { return None };
            let j = c.tokens.len();
            if c.field || c.label.is_some() || j > k {
                return None;
            }
            let cells = (1 + i) * k + j;
            if j < k {
                // Not the first row of a block of its length (a grid cut
                // short, then a narrower grid).
                let block = matches!(self.peek(i + 1), Some((_, LineKind::Cells(c))) if c.tokens.len() == j);
                let tail = !block && (!is_whole_count(j) || i >= 2);
                // Lines a cell or two short or long of a puzzle are such
                // puzzles written wrong, unless with the last they are it.
                let near = (k.saturating_sub(2)..=k + 2).find(|&c| is_whole_count(c));
                let whole = is_whole_count(cells) && near.is_none_or(|c| c == cells);
                return (tail && whole).then_some((i + 1, cells));
            }
        }
        None
    }

    /// One invalid record for the puzzle wrapped across lines from `line`
    /// ([`Self::wrapped`]): the `ahead` lines after it are taken.
    fn wrapped_puzzle(&mut self, line: usize, ahead: usize, cells: usize) {
        for _ in 0..ahead {
            self.next_line();
        }
        let side = exact_sqrt(cells).expect("a whole count");
        let kind = ParseErrorKind::WrappedPuzzle { first: line, lines: 1 + ahead, cells, side };
        let entry = self.entry(line, None, Err(self.error(line, None, kind)));
        self.ready.push_back(entry);
    }

    /// Whether the line `ahead` lines on, after `rows` rows (one or more) of
    /// a block of n, no row of it but a line of the `stray` kind, is a line
    /// inside the block that its rows make whole without: exactly the n −
    /// `rows` rows of n cells the block lacks follow it, then no such row. A
    /// row begun and typed again, however far it got, or a line pasted in.
    /// (Not where more rows follow: puzzles back to back may add up so only
    /// by another puzzle's stray row, and this line be its block's row
    /// written wrong.) Otherwise the block ends there, and its last rows,
    /// read on their own, were glued to the next puzzle's first rows across
    /// a blank line (a grid spaced by bands).
    fn stray_line_ahead(&mut self, n: usize, rows: usize, ahead: usize, stray: Stray) -> bool {
        let inside = match self.peek(ahead) {
            Some((_, LineKind::Blank)) => stray != Stray::Cells,
            Some((_, kind)) => stray_length(kind).is_some_and(|k| match stray {
                Stray::Near => near_width(k, n),
                Stray::Any | Stray::Cells => stray_width(k, n),
            }),
            None => false,
        };
        if rows == 0 || rows >= n || !inside {
            return false;
        }
        let (after, more, _) = self.rows_ahead(n, ahead + 1, n - rows + 1);
        !more && after.len() == n - rows
    }

    /// The block of n-cell rows that starts at `first` with `rows` rows
    /// read, then a stray line ([`Self::stray_line_ahead`]), then its other
    /// rows: one invalid record, that line named.
    fn stray_block(&mut self, first: usize, rows: usize, n: usize) {
        let blank = matches!(self.peek(0), Some((_, LineKind::Blank)));
        let (at, count, _) = self.odd_line_and_rows(n, n.saturating_sub(rows)).unwrap_or((first, 0, None));
        let kind = match blank {
            true => ParseErrorKind::BlankInGrid { first, n },
            false => ParseErrorKind::StrayLine { first, count, n },
        };
        let error = self.error(at, None, kind);
        let entry = self.entry(first, None, Err(error));
        self.ready.push_back(entry);
    }

    /// The side m of the block whose first row, a line of n cells just read,
    /// is written wrong: the next line is a row of m cells, m near n, and
    /// the rows of m cells from it, with that first line, make whole puzzles
    /// (up to a later puzzle's row written wrong, [`Self::fits_ahead`]).
    fn damaged_first_row(&mut self, n: usize) -> Option<usize> {
        let Some((line, LineKind::Cells(next))) = self.peek(0) else { return None };
        let m = next.tokens.len();
        if next.field || next.label.is_some() || m == n || m.abs_diff(n) > (m / 3).max(2) || is_whole_count(n) {
            return None;
        }
        let delimiter = next.delimiter;
        // The rows of a grid that starts with their labels (`A . . 4 1 . .`
        // under `1 2 3 4 5`): the labels make them one cell longer, and the
        // line above one row more, a block of the labelled rows' length.
        let (line, next) = (*line, next.clone());
        if self.label_led_rows(line, &next, 1).is_some() {
            return None;
        }
        // Lines of m = j² cells that are j×j puzzles one per line, as
        // `starts_block` tells them, are no rows of a block it would head.
        if let Some(j) = exact_sqrt(m).filter(|&j| j >= 2 && self.spec.geometry_for(j).is_ok()) {
            let (mut signs, mut i, mut rows) = (RowSigns::default(), 0, 0);
            while rows + 1 < m {
                match self.peek(i) {
                    Some((_, LineKind::Rule)) => {}
                    Some((_, LineKind::Cells(c))) if c.tokens.len() == m && !c.field && c.label.is_none() => {
                        signs.add(RowSigns::of(&c.tokens, j));
                        rows += 1;
                    }
                    _ => break,
                }
                i += 1;
            }
            if !signs.too_big && (signs.repeats || signs.givens >= m) {
                return None;
            }
        }
        if self.whole_without_line(m, delimiter) {
            return None;
        }
        self.fits_ahead(m, 1, 0, MAX_DAMAGED_CHAIN).then_some(m)
    }

    /// Whether the rows of m fields ahead make whole puzzles without the
    /// line just read, or whole grids of m − 1 rows each ending in a
    /// delimiter (grids that can be made: a 4×4's rows with an empty last
    /// cell are no 3×3's): that line is none of theirs.
    pub(super) fn whole_without_line(&mut self, m: usize, delimiter: Option<char>) -> bool {
        self.makes_whole_puzzles(m, 0, 0)
            || (m > 2
                && self.spec.geometry_for(m - 1).is_ok()
                && self
                    .trailing_stretch(m, delimiter, None)
                    .is_some_and(|(empty, _, more)| !empty.is_empty() && whole_grids(&empty, m - 1, more)))
    }

    /// The side m of the grid whose first row `separator` (a row of only
    /// delimiters, just read) is, written with a field lost or added: the
    /// rows below it, of the same delimiter, are m − 1 rows of m fields
    /// (then whole grids, or a later grid's row written wrong) and make no
    /// whole grids without it. Read as a blank line, it left a grid a row
    /// short, reported as one that broke at its end.
    fn damaged_grid_below(&mut self, separator: &Cells) -> Option<usize> {
        let Some((_, LineKind::Cells(next))) = self.peek(0) else { return None };
        let (k, m) = (separator.tokens.len(), next.tokens.len());
        if next.field || next.label.is_some() || next.delimiter != separator.delimiter || k == m || !near_width(k, m) {
            return None;
        }
        if self.whole_without_line(m, separator.delimiter) || self.parts_grids(k, 0, m - 1) {
            return None;
        }
        self.fits_ahead(m, 1, 0, MAX_DAMAGED_CHAIN).then_some(m)
    }

    /// Whether the line ahead is a row of only delimiters of another width
    /// than n, near it, that is a row written wrong of a block of n after
    /// its `rows` rows (none: the first row of the next grid of a run),
    /// the first of them at line `first`: an empty row with a field lost or
    /// added (`,,,,,,,` among rows of nine fields). The rows after it make
    /// the block whole, and then whole grids ([`Self::fits_ahead`]), and no
    /// such row parts the grids where that block would start or end (a
    /// file that parts its grids so, one of them a row short: see
    /// [`Self::parts_grids`]). Read as a blank line, it split a grid in two
    /// records.
    fn separator_row_ahead(&mut self, n: usize, rows: usize, first: usize) -> bool {
        let Some((_, LineKind::Separator(c))) = self.peek(0) else { return false };
        let k = c.tokens.len();
        let parted_above = rows > 0 && self.parting.is_some_and(|(at, width)| at + 1 == first && width == k);
        // Where a grid would start, rows that make whole grids without it
        // leave it a blank line.
        k != n
            && near_width(k, n)
            && !parted_above
            && !(rows == 0 && self.makes_whole_puzzles(n, 0, 1))
            && !self.parts_grids(k, 1, n - rows - 1)
            && self.fits_ahead(n, rows + 1, 1, MAX_DAMAGED_CHAIN)
    }

    /// Whether, past `after` rows from the line `from` lines on (rules
    /// skipped), the next line is a row of only delimiters of k fields, as
    /// the one at hand is: rows of only delimiters of that width part the
    /// file's grids, and the one at hand is no row of them.
    fn parts_grids(&mut self, k: usize, from: usize, after: usize) -> bool {
        let (mut i, mut rows) = (from, 0);
        loop {
            match self.peek(i) {
                Some((_, LineKind::Rule)) => {}
                Some((_, LineKind::Separator(c))) if rows == after => return c.tokens.len() == k,
                Some((_, LineKind::Cells(_) | LineKind::Separator(_))) if rows < after => rows += 1,
                _ => return false,
            }
            i += 1;
        }
    }

    /// Whether `before` rows and the rows of n cells from the line `ahead`
    /// lines on (rules skipped), up to the next line that is none, make
    /// whole puzzles of n rows (counted up to a run's limit).
    fn makes_whole_puzzles(&mut self, n: usize, before: usize, ahead: usize) -> bool {
        let (rows, _, _) = self.rows_ahead(n, ahead, (MAX_RUN_ROWS + 1).saturating_sub(before));
        let empty = [vec![false; before], rows].concat();
        empty.len() >= n && whole_grids(&empty, n, empty.len() > MAX_RUN_ROWS)
    }

    /// The rows of n cells from the line `ahead` lines on (rules skipped),
    /// up to the first line that is none and at most `cap` of them: whether
    /// each is a row of only delimiters (an empty row, or a blank line
    /// between puzzles), whether more may follow the last, and how many
    /// lines on the line after them is.
    fn rows_ahead(&mut self, n: usize, ahead: usize, cap: usize) -> (Vec<bool>, bool, usize) {
        let (mut empty, mut i, small) = (Vec::new(), ahead, self.small_side(n));
        while empty.len() < cap {
            match self.peek(i) {
                Some((_, LineKind::Rule)) => {}
                Some((_, LineKind::Cells(c))) if is_block_row(c, n, small) => empty.push(false),
                Some((_, LineKind::Separator(c))) if c.tokens.len() == n => empty.push(true),
                _ => break,
            }
            i += 1;
        }
        let more = empty.len() == cap;
        (empty, more, i)
    }

    /// Whether the line `ahead` lines on (a line of cells of a length near
    /// n, after `rows` rows of a block of n) is a row of the block written wrong:
    /// the rows of n cells after it, up to the next line that is none, make
    /// the block whole and then whole puzzles (back to back), or make it
    /// whole and stop at a row of a later puzzle written wrong (two damaged
    /// puzzles back to back). Otherwise the block ended short and the rows
    /// after the odd line are other puzzles'.
    fn damaged_row_ahead(&mut self, n: usize, rows: usize, ahead: usize) -> bool {
        self.damaged_rows_ahead(n, rows, ahead, MAX_DAMAGED_CHAIN)
    }

    /// [`Self::damaged_row_ahead`], following at most `chain` more puzzles
    /// written wrong back to back; past them, the rows so far fit.
    fn damaged_rows_ahead(&mut self, n: usize, rows: usize, ahead: usize, chain: usize) -> bool {
        // Near the block's length (a title may have it: `....8.4..  hard`),
        // and no whole puzzle of its own.
        let near = |(k, title): (usize, bool)| (k != n || title) && near_width(k, n);
        // A row of only delimiters with a field lost or added, with rows of
        // the block after it: a row of it (as the block's last row, it may
        // as well be a blank line after a grid: see `separator_row_ahead`).
        let length = |kind: &LineKind| match kind {
            LineKind::Separator(c) if rows > 0 && rows + 1 < n => Some(c.tokens.len()),
            kind => odd_row_length(kind),
        };
        let odd = self.peek(ahead).and_then(|(_, kind)| Some((length(kind)?, matches!(kind, LineKind::Title(_)))));
        if !odd.is_some_and(near) {
            return false;
        }
        // Where a puzzle would start, rows that make whole puzzles without
        // it leave it a line of its own (`Page 2` above a grid whose last
        // row is empty, then a row of only delimiters).
        if rows == 0 && self.makes_whole_puzzles(n, 0, ahead + 1) {
            return false;
        }
        self.fits_ahead(n, rows + 1, ahead + 1, chain)
    }

    /// Whether `before` rows of a block of n and the rows of n cells from
    /// the line `ahead` lines on make whole puzzles
    /// ([`Self::makes_whole_puzzles`]), or make the block whole and stop at
    /// a later puzzle's row written wrong (followed up to `chain` such
    /// puzzles on).
    fn fits_ahead(&mut self, n: usize, before: usize, ahead: usize, chain: usize) -> bool {
        if self.makes_whole_puzzles(n, before, ahead) {
            return true;
        }
        let (after, more, end) = self.rows_ahead(n, ahead, MAX_RUN_ROWS);
        if more || before + after.len() < n {
            return false;
        }
        // The block whole, then whole grids (rows of only delimiters between
        // them as blank lines), up to one under way at a row written wrong.
        let empty = [vec![false; before], after].concat();
        whole_grids_then(&empty, n, |r| chain == 0 || self.damaged_rows_ahead(n, r, end, chain - 1))
    }

    /// The next row of a block of n-cell rows, rules skipped; or, leaving it
    /// unread, the line that is none (`None` at the end of the input).
    fn row_ahead(&mut self, n: usize) -> Result<(usize, Vec<Token>), Option<usize>> {
        let small = self.small_side(n);
        let labelled = self.labelled;
        loop {
            match self.peek(0) {
                Some((_, LineKind::Rule)) => {
                    self.next_line();
                }
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if is_block_row(c, n, small) => {
                    let Some((line, LineKind::Cells(c) | LineKind::Separator(c))) = self.next_line() else {
                        unreachable!("just peeked")
                    };
                    return Ok((line, c.tokens));
                }
                // A row whose first cell, written wrong, reads as its label
                // (`x,,,,6,,,,3` among rows of 9 cells): that cell, named.
                Some((_, LineKind::LabelledRow(_, c)))
                    if !labelled && c.label_cell.is_some() && c.tokens.len() + 1 == n =>
                {
                    let Some((line, LineKind::LabelledRow(_, Cells { label_cell: Some(first), tokens, .. }))) =
                        self.next_line()
                    else {
                        unreachable!("just peeked")
                    };
                    return Ok((line, std::iter::once(*first).chain(tokens).collect()));
                }
                Some((line, _)) => return Err(Some(*line)),
                None => return Err(None),
            }
        }
    }

    /// The side m of the m×m puzzles that lines of n = m² cells may be, for
    /// n of 16 or more (a 4-cell line is no 2×2 puzzle), when such a grid can be made.
    fn small_side(&mut self, n: usize) -> Option<usize> {
        exact_sqrt(n).filter(|&m| m >= 4 && self.spec.geometry_for(m).is_ok())
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
        self.error_or_end(line, at.is_none(), ParseErrorKind::BrokenBlock { first, rows, n, what })
    }

    /// The line that broke a block or grid that started at `first`, and
    /// what it is in words: the next line unread, at line `at` (none: the
    /// end of the input).
    fn what_breaks(&mut self, first: usize, at: Option<usize>) -> (usize, String) {
        let Some(line) = at else { return (self.line_no.max(first), "the end of the input".to_string()) };
        let what = match self.peek(0) {
            Some((_, LineKind::Blank)) => "a blank line".to_string(),
            Some((_, LineKind::Separator(c))) => format!("a row of only delimiters ({} empty fields)", c.tokens.len()),
            Some((_, LineKind::Cells(c))) if c.columns.is_some() => "a header of numbered columns".to_string(),
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
    /// `edges` as in [`Self::settle`].
    fn run(&mut self, rows: Vec<(usize, Vec<Token>)>, n: usize, damage: Damage, edges: Edges) {
        let (q, s) = (rows.len() / n, rows.len() % n);
        if s == 0 {
            let pieces = (0..q).map(|i| Piece::Puzzle(i * n)).collect();
            return self.settle(&rows, n, pieces, damage, Default::default(), edges);
        }
        let block = |reader: &mut Self, start: usize| reader.told_wrongness(&rows[start..start + n], n, GUESS_TIME);
        // Aligned from the front (before the odd puzzle) and from the back
        // (after it); `None` where the search ran out of time, taken as 0.
        let front_told: Vec<Option<usize>> = (0..q).map(|i| block(self, i * n)).collect();
        let back_told: Vec<Option<usize>> = (0..q).map(|i| block(self, i * n + s)).collect();
        let front: Vec<usize> = front_told.iter().map(|w| w.unwrap_or(0)).collect();
        let back: Vec<usize> = back_told.iter().map(|w| w.unwrap_or(0)).collect();
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
        let (mut odd_rows, skip, mut count) = if short_wins { (s, 0, q + 1) } else { (n + s, 1, q) };
        let best = if skip == 0 { short } else { long };
        let candidates: Vec<usize> = (0..count).filter(|&d| faults(d, skip) == best).collect();
        let (mut first_odd, mut last_odd) = (candidates[0], candidates[candidates.len() - 1]);
        // A lone odd row beside a whole puzzle may be a row too many of that
        // puzzle (a row typed twice, a stray row): it is where the puzzle
        // reads better with some other of its n + 1 rows left out. Else a
        // stray row inside a puzzle cut that puzzle's first (or last) row
        // off, and the rest, read as a puzzle the user never wrote, was
        // solved. A puzzle cut short to one row, between two proper ones,
        // stays a record of its own: the rows around it read worse with it.
        // Where a neighbour reads as well either way, which puzzle the row
        // belongs to cannot be told: that neighbour is not read. A row
        // typed twice tells: it is a row too many of the puzzle its copy is
        // in (else both neighbours were reported, or, a blank row's copy
        // beside it, the row read as a stray one of its own).
        if short_wins && s == 1 && first_odd == last_odd {
            use std::cmp::Ordering::{Equal, Greater, Less};
            let d = first_odd;
            let odd = d * n;
            // A lone row at an end of the run (after its last puzzle: the
            // next puzzle's first row, its second broken; or before its
            // first: the last row of a puzzle broken above), where the
            // puzzle beside it has exactly one solution, and so do the
            // input's others of its side (another of this run, or one of a
            // run before): a reading of its rows with several is no better
            // than a refuted one. Not between two puzzles, where either may
            // be the one written with several solutions; and only from 9×9
            // up: a 4×4's or a 6×6's rows with a stray row among them have
            // one solution by chance.
            let input_proper = |told: &[Option<usize>]| self.proper_seen == Some(n) || told.contains(&Some(0));
            let proper_before =
                n >= 9 && q > 0 && d == q && front_told[q - 1] == Some(0) && input_proper(&front_told[..q - 1]);
            let proper_after = n >= 9 && q > 0 && d == 0 && back_told[0] == Some(0) && input_proper(&back_told[1..]);
            let (twin_before, twin_after) =
                (d > 0 && copies_row_above(&rows, odd), d < q && copies_row_above(&rows, odd + 1));
            // The previous puzzle's n rows and the odd row after them; the
            // next puzzle's n rows after the odd row.
            let (before, after) = match (twin_before, twin_after) {
                (true, false) => (Less, Greater),
                (false, true) => (Greater, Less),
                _ => (
                    if d > 0 {
                        self.with_another_row_out(&rows[odd - n..=odd], n, n, front[d - 1], proper_before)
                    } else {
                        Greater
                    },
                    if d < q {
                        self.with_another_row_out(&rows[odd..=odd + n], n, 0, back[d], proper_after)
                    } else {
                        Greater
                    },
                ),
            };
            match (before, after) {
                (Less, Greater) => ((odd_rows, count), (first_odd, last_odd)) = ((n + 1, q), (d - 1, d - 1)),
                (Greater, Less) => ((odd_rows, count), (first_odd, last_odd)) = ((n + 1, q), (d, d)),
                // A row too many of one puzzle, or of the other: both are reported.
                (Less, _) | (_, Less) => ((odd_rows, count), (first_odd, last_odd)) = ((n + 1, q), (d - 1, d)),
                _ => {
                    first_odd -= usize::from(before == Equal);
                    last_odd += usize::from(after == Equal);
                }
            }
        }
        let start_of = |slot: usize| if slot <= first_odd { slot * n } else { (slot - 1) * n + odd_rows };
        let span = |from: usize, to: usize| (rows[from].0, rows[to - 1].0);
        let mut pieces = Vec::with_capacity(count);
        for slot in 0..count {
            let start = if slot < first_odd {
                slot * n
            } else if slot > last_odd {
                // After the odd puzzle: counted from the back.
                rows.len() - (count - slot) * n
            } else {
                start_of(slot)
            };
            if slot < first_odd || slot > last_odd {
                pieces.push(Piece::Puzzle(start));
            } else {
                let line = rows[start.min(rows.len() - 1)].0;
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
                pieces.push(Piece::Odd(line, self.error(a, None, kind)));
            }
        }
        let known = (0..q).map(|i| (i * n, front[i])).chain((0..q).map(|i| (i * n + s, back[i]))).collect();
        self.settle(&rows, n, pieces, Damage::of([odd_rows], n), known, edges);
    }

    /// Reads the pieces a run was framed into: each puzzle of n rows, and
    /// the records of rows that make none.
    ///
    /// A row lost or doubled shifts where every puzzle after it starts, and
    /// a second one may shift them back: read in between, rows of two
    /// puzzles make one nobody wrote. Such a misreading seldom has exactly
    /// one solution, while the puzzle written, n rows on either side of it,
    /// often has. So a puzzle that has one solution as read is *firm*, and
    /// the others stand in stretches between firm ones (or odd pieces, or
    /// the run's ends). A lone puzzle with a firm one (or the run's end)
    /// right before and after it is read: those fix where it starts and
    /// ends, unless a row typed twice stands at that edge or inside it (a
    /// row lost on the way, where it still has n rows). Any other stretch
    /// is read as framed unless it shows a shift, and then it is reported:
    /// where the run shows `damage` or has firm puzzles, a row typed twice
    /// touching it, or n rows across it, starting where no puzzle was read,
    /// that have one solution; where the run's rows add up, two puzzles or
    /// more together among firm ones (nothing tells them from a shifted
    /// stretch); where it is damaged in more than one place, any. A run
    /// whose rows add up and that has no firm puzzle (a file of puzzles with
    /// many solutions) is read as written. `known` holds the
    /// [`wrongness`](Self::wrongness) of readings already made, by first
    /// row. Where a line at an edge of the run was taken to be inside the
    /// puzzle next to it (`edges`: a stray line, a row written wrong), that
    /// end of the run fixes nothing: a stretch there that is not firm is
    /// reported, as that line may stand between puzzles instead.
    fn settle(
        &mut self,
        rows: &[(usize, Vec<Token>)],
        n: usize,
        pieces: Vec<Piece>,
        damage: Damage,
        mut known: std::collections::HashMap<usize, usize>,
        edges: Edges,
    ) {
        let damaged = damage != Damage::None || edges.behind.is_some() || edges.ahead.is_some();
        let starts: Vec<Option<usize>> = pieces
            .iter()
            .map(|piece| match *piece {
                Piece::Puzzle(start) => Some(start),
                Piece::Odd(..) => None,
            })
            .collect();
        let puzzles = starts.iter().flatten().count();
        // One puzzle alone in its run is framed by the run's ends.
        let check = puzzles > 1 || (damaged && puzzles > 0);
        let deadline = Instant::now() + FRAMING_TIME + PUZZLE_TIME * puzzles as u32;
        let mut wrongness = |reader: &mut Self, start: usize| {
            *known.entry(start).or_insert_with(|| {
                let left = time_left(deadline);
                match reader.told_wrongness(&rows[start..start + n], n, GUESS_TIME.min(left)) {
                    // Past the time, what propagation leaves is taken as
                    // too hard to tell, as a search that runs out is.
                    Some(1) if left.is_zero() => 0,
                    w => w.unwrap_or(0),
                }
            })
        };
        let read: Vec<Option<usize>> = match check {
            true => starts.iter().map(|start| start.map(|start| wrongness(self, start))).collect(),
            false => vec![None; starts.len()],
        };
        // Whether the input's puzzles of this side are proper: one of the
        // run's firm puzzles, told by a search rather than a timeout.
        if n >= 9 && self.proper_seen != Some(n) {
            if let Some(p) = (0..starts.len()).find(|&p| read[p] == Some(0)) {
                let start = starts[p].expect("a puzzle");
                let left = GUESS_TIME.min(time_left(deadline));
                if !left.is_zero() && self.told_wrongness(&rows[start..start + n], n, left) == Some(0) {
                    self.proper_seen = Some(n);
                }
            }
        }
        let mixed = read.contains(&Some(0)) && read.iter().any(|&w| w.is_some_and(|w| w > 0));
        let firm = |p: usize| read[p] == Some(0);
        let read_at: Vec<usize> = starts.iter().flatten().copied().collect();
        // A row typed twice shifts the rows after it: where a puzzle ends
        // with one copy and the next starts with the other, that edge is
        // fixed by neither. A row and its copy both inside one puzzle, which
        // the copy refutes, are a row typed twice there; as the puzzle still
        // has n rows, a row was lost on the way, and its edges may be shifted.
        let twice = typed_twice(rows);
        let copy_inside = |start: usize| (start + 1..start + n).any(|i| twice[i]);
        // In a run whose rows add up and where no puzzle has one solution
        // (a file of puzzles with many), a shift shows only where a row is
        // typed twice, or where n rows a row or a few off have one
        // solution: a row lost and another doubled put the puzzles written
        // there. Else it is read as written. (Smaller grids than 9×9 have a
        // puzzle's last row and the next one's first the same by chance.)
        let copies = (1..rows.len()).any(|i| twice[i] && (n >= 9 || read_at.binary_search(&i).is_err()));
        let evidence = damaged
            || mixed
            || (check && copies)
            || (check && !read.contains(&Some(0)) && self.shows_shift(rows, n, &read_at, deadline));
        let twin = |at: usize| evidence && at < rows.len() && twice[at];
        // What shows each piece shifted, if anything does.
        let mut shifted: Vec<Option<Shift>> = vec![None; starts.len()];
        let mut p = 0;
        while p < starts.len() {
            if starts[p].is_none() || firm(p) || !check {
                p += 1;
                continue;
            }
            // The stretch of puzzles that are not firm, from piece p to piece q − 1.
            let q = (p..starts.len()).find(|&q| starts[q].is_none() || firm(q)).unwrap_or(starts.len());
            let (first, end) = (starts[p].expect("a puzzle"), starts[q - 1].expect("a puzzle") + n);
            let before = !twin(first) && if p == 0 { first == 0 && edges.behind.is_none() } else { firm(p - 1) };
            let after =
                !twin(end) && if q == starts.len() { end == rows.len() && edges.ahead.is_none() } else { firm(q) };
            if q - p > 1 || !(before && after) || (evidence && copy_inside(first)) {
                let mut shift = (first.max(1)..=end).find(|&i| twin(i)).map(|i| Shift::TypedTwice(rows[i].0));
                // The n rows across the stretch that start where no puzzle was read.
                let mut across = (first.saturating_sub(n - 1)..end.min(rows.len() - n + 1))
                    .filter(|start| read_at.binary_search(start).is_err());
                while shift.is_none() && evidence {
                    let Some(start) = across.next() else { break };
                    let left = time_left(deadline);
                    if left.is_zero() {
                        // Not told in time: where the run shows damage, not read.
                        shift = damaged.then_some(Shift::Untold);
                        break;
                    }
                    if self.told_wrongness(&rows[start..start + n], n, GUESS_TIME.min(left)) == Some(0) {
                        shift = Some(Shift::Found(rows[start].0));
                    }
                }
                // Among puzzles of one solution, two or more together that
                // have not are told from a shifted stretch by nothing: a row
                // lost from one and another doubled in the next leave no
                // puzzle written whole at any offset.
                if shift.is_none() && mixed && q - p > 1 && damage == Damage::None {
                    shift = Some(Shift::Among);
                }
                if shift.is_none() && damage == Damage::Several {
                    shift = Some(Shift::Several);
                }
                if shift.is_none() && q == starts.len() {
                    shift = edges.ahead.map(Shift::Between);
                }
                if shift.is_none() && p == 0 {
                    shift = edges.behind.map(Shift::Between);
                }
                shifted[p..q].fill(shift);
            }
            p = q;
        }
        for (p, piece) in pieces.into_iter().enumerate() {
            let (line, puzzle) = match piece {
                Piece::Odd(line, error) => (line, Err(error)),
                Piece::Puzzle(start) => {
                    let line = rows[start].0;
                    match (self.resolve(line, n, &rows[start..start + n]), shifted[p]) {
                        (Ok(_), Some(shift)) => {
                            let kind = ParseErrorKind::Unfenced {
                                n,
                                stretch: (line, rows[start + n - 1].0),
                                run: (rows[0].0, rows[rows.len() - 1].0),
                                refuted: read[p] == Some(2),
                                shift,
                            };
                            (line, Err(self.error(line, None, kind)))
                        }
                        (puzzle, _) => (line, puzzle),
                    }
                }
            };
            let entry = self.entry(line, None, puzzle);
            self.ready.push_back(entry);
        }
    }

    /// Whether n rows of a run read at `read_at`, starting where no puzzle
    /// was read and a row or a few off (not a whole band of boxes, which
    /// keeps every box and often reads), have exactly one solution, before
    /// `deadline`. 9×9s with several solutions back to back have none such
    /// (none of 80,000 readings across serg-benchmark's 10,000), so one is a
    /// puzzle written, shifted by rows lost or doubled. Smaller grids have
    /// them by chance (5 of 58 readings across 4×4s), so there nothing
    /// shows a shift.
    fn shows_shift(&mut self, rows: &[(usize, Vec<Token>)], n: usize, read_at: &[usize], deadline: Instant) -> bool {
        let Some(&first) = read_at.first().filter(|_| n >= 9) else { return false };
        let band = self.band_height(rows, first, n);
        for start in (0..=rows.len() - n).filter(|start| read_at.binary_search(start).is_err()) {
            let left = time_left(deadline);
            if left.is_zero() {
                return false;
            }
            let cuts = (start + n - first % n) % n % band != 0;
            if cuts && self.told_wrongness(&rows[start..start + n], n, GUESS_TIME.min(left)) == Some(0) {
                return true;
            }
        }
        false
    }

    /// The rows of a box of the puzzle whose n rows start at `first`: the
    /// shift, in rows, that keeps every box whole. A Latin square's is 1 (every
    /// shift keeps its units), a jigsaw's n (no shift does).
    fn band_height(&mut self, rows: &[(usize, Vec<Token>)], first: usize, n: usize) -> usize {
        match self.resolve(rows[first].0, n, &rows[first..first + n]) {
            Ok(puzzle) => match puzzle.geometry().layout() {
                Layout::Boxes { rows, .. } => *rows,
                Layout::Latin => 1,
                Layout::Regions(_) => n,
            },
            Err(_) => 1,
        }
    }

    /// How wrong n rows look as a puzzle: 0 for one with exactly one
    /// solution (or too hard to tell within `time`), 1 for one with none or
    /// several, 2 for one propagation refutes or that does not read. With no
    /// `time`, 1 stands for "0 or 1": propagation alone.
    fn wrongness(&mut self, block: &[(usize, Vec<Token>)], n: usize, time: Duration) -> usize {
        self.told_wrongness(block, n, time).unwrap_or(0)
    }

    /// [`wrongness`](Self::wrongness), or `None` where the search ran out of `time`.
    fn told_wrongness(&mut self, block: &[(usize, Vec<Token>)], n: usize, time: Duration) -> Option<usize> {
        match self.resolve(block[0].0, n, block) {
            Ok(puzzle) if Propagator::from_puzzle(&puzzle).and_then(|mut p| p.propagate()).is_ok() => {
                if time.is_zero() {
                    return Some(1);
                }
                let options = SolveOptions { timeout: Some(time), ..SolveOptions::default() };
                match Search::new(&puzzle, &options).count_up_to(1) {
                    Ok(Count { count: 1, capped: false }) => Some(0),
                    Ok(_) => Some(1),
                    Err(_) => None,
                }
            }
            _ => Some(2),
        }
    }

    /// How the n + 1 `rows` read as a puzzle with a row other than row
    /// `odd` (0-based) left out, against the n rows without it, which read
    /// as `displaced` ([`wrongness`](Self::wrongness)): `Less` where some
    /// reading is better, or is those same rows with a row typed twice left
    /// out (the odd row is a row too many of this puzzle); `Equal` where
    /// some reading that propagation does not refute is not better (it may
    /// be the puzzle written: improper, or unsolvable past propagation), or
    /// where that cannot be told within [`FRAMING_TIME`]; `Greater` only
    /// where every reading is refuted and the n rows are not. Where the
    /// input's puzzles are `proper` and so are the n rows, a reading with
    /// several solutions is no better than one refuted: a stray row inside
    /// the puzzle written seldom leaves exactly one solution.
    fn with_another_row_out(
        &mut self,
        rows: &[(usize, Vec<Token>)],
        n: usize,
        odd: usize,
        displaced: usize,
        proper: bool,
    ) -> std::cmp::Ordering {
        use std::cmp::Ordering::{Equal, Greater, Less};
        // Every reading that keeps a row with a value twice is refuted.
        let mut seen = std::collections::HashSet::new();
        if rows[odd].1.iter().any(|t| matches!(t.symbol, Symbol::Value(v) if !seen.insert(v))) {
            return if displaced == 2 { Equal } else { Greater };
        }
        let same = |a: usize, b: usize| same_row(&rows[a].1, &rows[b].1);
        // Only against an improper reading does a search tell better (one
        // solution) from as good: against a proper one any reading that is
        // not refuted is as good (the user's puzzle may be improper), unless
        // the input's puzzles are proper, and then a search tells as good
        // (one solution, or too hard to tell) from worse; against a refuted
        // one any reading that is not refuted is better.
        let improper_is_worse = proper && displaced == 0;
        let search = if displaced == 1 || improper_is_worse { GUESS_TIME } else { Duration::ZERO };
        let deadline = Instant::now() + FRAMING_TIME;
        let mut best = Greater;
        // The rows without row `left_out`: one row changes from one to the next.
        let mut kept = rows[1..].to_vec();
        for left_out in 0..rows.len() {
            if left_out > 0 {
                kept[left_out - 1] = rows[left_out - 1].clone();
            }
            if left_out == odd {
                continue;
            }
            // The same rows as without the odd row: a row typed twice. Two
            // blank rows are no evidence: the other readings decide.
            if (left_out.min(odd)..left_out.max(odd)).all(|i| same(i, i + 1)) {
                match rows[odd].1.iter().any(|t| matches!(t.symbol, Symbol::Value(_))) {
                    true => return Less,
                    false => continue,
                }
            }
            let left = time_left(deadline);
            if left.is_zero() {
                return Equal;
            }
            let wrongness = self.wrongness(&kept, n, search.min(left));
            if wrongness < displaced {
                return Less;
            }
            // A reading not refuted may be the puzzle written.
            if wrongness < 2 && !(improper_is_worse && wrongness == 1) {
                if displaced == 0 {
                    return Equal;
                }
                best = Equal;
            }
        }
        // Refuted, and so is every reading: which puzzle is refuted cannot be told.
        if displaced == 2 {
            Equal
        } else {
            best
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
                let (broken, what) = self.what_breaks(line, at);
                let kind = ParseErrorKind::ShortCandidateGrid { first: line, rows: rows.len(), m, what };
                return Some(Err(self.error_or_end(broken, at.is_none(), kind)));
            }
            ahead += 1;
        }
        if rows.iter().flat_map(|(_, words)| words).all(|w| w.digits.len() == 1) {
            return None;
        }
        // A ruled grid whose m-th row has one more row right under it, no
        // rule between, and then no row: a row too many (one typed twice, a
        // stray row). Its first m rows were read as the grid, and refuted.
        // Rows go on after a next grid's first row (grids back to back,
        // as `analyze --format grid` prints them, with no rule under).
        let ruled = self.drawn.rules.range(line..rows[m - 1].0).next().is_some();
        let row = |kind: Option<&(usize, LineKind)>| match kind {
            Some((at, LineKind::Cells(c))) if !c.field && c.label.is_none() => {
                candidate_words(c).filter(|words| words.len() == m && words.iter().all(|w| w.fits(m))).map(|_| *at)
            }
            _ => None,
        };
        let extra = row(self.peek(ahead)).filter(|_| ruled && sure);
        if let Some(last) = extra.filter(|_| row(self.peek(ahead + 1)).is_none()) {
            for _ in 0..=ahead {
                self.next_line();
            }
            let kind = ParseErrorKind::Run {
                rows: m + 1,
                n: m,
                first: line,
                stretch: (line, last),
                told: true,
                odd_rows: m + 1,
            };
            return Some(Err(self.error(line, None, kind)));
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
        let drawn = match self.drawn.boxes(m, &rows, |w| w.column) {
            Ok(drawn) => drawn,
            Err(at) => match self.boxes_unclear(line, m) {
                Some(kind) => return Some(Err(self.error(at, None, kind))),
                None => None,
            },
        };
        Some(self.marked_puzzle(line, m, drawn, sets.into_iter()))
    }

    /// A grid with coordinates, if `header` starts one: the column numbers
    /// 1 to n on a line (maybe after a mark in the corner), then n rows
    /// (rules between), each its label (`A`, `B`, … or `a`, `b`, … or 1, 2,
    /// …) and its n cells. The rows are taken from the input. A row with its label in place but a few cells too
    /// many or too few makes the grid one invalid entry that names it.
    fn coordinate_grid(&mut self, header: &Cells) -> Option<Result<Puzzle, ParseError>> {
        let n = coordinate_header(header, self.spec.fixed_size())?;
        let CoordinateRows { rows, lines: ahead, damaged } =
            self.coordinate_rows(n, Vec::with_capacity(n), 0, false)?;
        for _ in 0..ahead {
            self.next_line();
        }
        let first = rows[0].0;
        Some(match damaged {
            Some((line, row, count, column)) => {
                Err(self.error(line, column, ParseErrorKind::DamagedRow { first, row, count, n }))
            }
            None => self.resolve(first, n, &rows),
        })
    }

    /// Whether the next line is the column header of a grid with
    /// coordinates whose n rows follow, each its label and n symbols of
    /// the grid: such a header is never a row of a grid above it, though
    /// it may hold as many cells as that grid's rows (`1 2 3 4` after a
    /// 4x4, or `  1 2 … 9` after a 9x9).
    pub(super) fn coordinate_header_ahead(&mut self) -> bool {
        let fixed = self.spec.fixed_size();
        let Some(n) = (match self.peek(0) {
            Some((_, LineKind::Cells(c))) => coordinate_header(c, fixed),
            _ => None,
        }) else {
            return false;
        };
        self.coordinate_rows(n, Vec::with_capacity(n), 1, true).is_some_and(|rows| rows.damaged.is_none())
    }

    /// A grid whose rows start with their labels, no header above them
    /// (`A 4 . . . . . 8 . 5`, `B . 3 . …`, or numbered `1 4 . . …`), if
    /// `first` starts one: n rows of n symbols each after its label, and no
    /// row as long as `first` right after the n-th (with it they are a
    /// block of side n + 1 whose first column counts up).
    fn label_led_grid(&mut self, line: usize, first: &Cells) -> Option<Result<Puzzle, ParseError>> {
        let (n, CoordinateRows { rows, lines: ahead, damaged }) = self.label_led_rows(line, first, 0)?;
        for _ in 0..ahead {
            self.next_line();
        }
        Some(match damaged {
            Some((at, row, count, column)) => {
                Err(self.error(at, column, ParseErrorKind::DamagedRow { first: line, row, count, n }))
            }
            None => self.resolve(line, n, &rows),
        })
    }

    /// The side and rows of the grid [`Self::label_led_grid`] reads, the
    /// first row `first` (at `line`) and the others from the line `from`
    /// lines on, looked at ahead.
    fn label_led_rows(&mut self, line: usize, first: &Cells, from: usize) -> Option<(usize, CoordinateRows)> {
        // The first row's label: `A`, `a` or 1.
        let labelled = first.tokens.first().is_some_and(|t| match &t.text {
            TokenText::Char(c) => matches!(c, 'A' | 'a' | '1'),
            TokenText::Word(w) => matches!(&**w, "A" | "a" | "1"),
        });
        if first.field || first.label.is_some() || !labelled {
            return None;
        }
        let alphabet = self.alphabet;
        let sides = [line::word_cells(&first.tokens, alphabet).len(), line::char_cells(&first.tokens, alphabet).len()];
        // The cells after the label, and maybe the label again after them.
        let sides = sides.into_iter().flat_map(|k| [k.checked_sub(1), k.checked_sub(2)]).flatten();
        let fixed = self.spec.fixed_size();
        // The side is the first row's, or, where that row is written wrong,
        // the second's (`2 . 3 . …` the line after).
        let second = match self.peek(from) {
            Some((_, LineKind::Cells(c))) => {
                [line::word_cells(&c.tokens, alphabet).len(), line::char_cells(&c.tokens, alphabet).len()]
            }
            _ => [0, 0],
        };
        let second = second.into_iter().flat_map(|k| [k.checked_sub(1), k.checked_sub(2)]).flatten();
        // A side whose rows are all whole comes first, the first row's
        // before the second's, then one with a row written wrong.
        let sides = sides.chain(second).filter(|&n| n >= 4 && fixed.is_none_or(|f| f == n));
        let mut found = None;
        for n in itertools::Itertools::unique(sides) {
            let Some(cells) = coordinate_row(first, None, 0, n, alphabet).filter(|cells| of_side(cells, n)) else {
                continue;
            };
            match self.coordinate_rows(n, vec![(line, cells)], from, true) {
                Some(rows) if rows.damaged.is_none() => {
                    found = Some((n, rows));
                    break;
                }
                Some(rows) => {
                    found.get_or_insert((n, rows));
                }
                None => {}
            }
        }
        let (n, rows) = found?;
        // The next line goes on the block unless it starts another grid
        // with the same label.
        let label = |c: &Cells| c.tokens.first().map(|t| t.text.to_string());
        let block_goes_on = matches!(self.peek(rows.lines), Some((_, LineKind::Cells(c)))
            if c.tokens.len() == first.tokens.len() && label(c) != label(first));
        (!block_goes_on).then_some((n, rows))
    }

    /// The rows of a grid with coordinates after the `rows` read already,
    /// each its label and n cells, rules between them, looked at ahead from
    /// the line `from` lines on (the lines stay to be taken). `exact`:
    /// every cell is a value of the grid or empty, or there is no such grid.
    /// Either way a row or a few may be a few cells long or short
    /// (`damaged`), so long as most rows are n cells.
    fn coordinate_rows(
        &mut self,
        n: usize,
        mut rows: Vec<(usize, Vec<Token>)>,
        from: usize,
        exact: bool,
    ) -> Option<CoordinateRows> {
        let alphabet = self.alphabet;
        let mut ahead = from;
        while rows.len() < n {
            match self.peek(ahead)? {
                (_, LineKind::Rule) => {}
                (line, kind @ (LineKind::Cells(_) | LineKind::LabelledRow(..))) => {
                    let cells = match kind {
                        LineKind::Cells(c) if !c.field && c.label.is_none() => {
                            coordinate_row(c, None, rows.len(), n, alphabet)
                        }
                        LineKind::LabelledRow(label, c) if !exact => {
                            coordinate_row(c, Some(label), rows.len(), n, alphabet)
                        }
                        _ => None,
                    }?;
                    // Exact rows may be a few cells long or short, but each
                    // cell they hold is a symbol of the grid.
                    if (exact && !of_side(&cells, n)) || cells.len().abs_diff(n) > (n / 3).max(1) {
                        return None;
                    }
                    rows.push((*line, cells));
                }
                _ => return None,
            }
            ahead += 1;
        }
        // A row written wrong is a few cells long or short, and one among
        // rows of n: rows mostly of another length are no grid of this
        // header (`1 2 3 4 5` over rows of six).
        if rows.iter().any(|(_, cells)| cells.len().abs_diff(n) > (n / 3).max(1))
            || 2 * rows.iter().filter(|(_, cells)| cells.len() == n).count() <= rows.len()
        {
            return None;
        }
        let damaged = rows.iter().zip(1..).find(|((_, cells), _)| cells.len() != n);
        let damaged = damaged.map(|((line, cells), row)| (*line, row, cells.len(), line::fault_column(cells, n)));
        Some(CoordinateRows { rows, lines: ahead, damaged })
    }

    /// A puzzle of each cell's candidates (values 1..=m, in cell order): a
    /// pencil-mark line's or a candidate grid's. A cell with one is a given.
    fn marked_puzzle<'s>(
        &mut self,
        line: usize,
        m: usize,
        drawn: Option<(usize, usize)>,
        cells: impl Iterator<Item = &'s [usize]>,
    ) -> Result<Puzzle, ParseError> {
        let geometry =
            self.spec.geometry_drawn(m, drawn).map_err(|e| self.error(line, None, ParseErrorKind::Geometry(e)))?;
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

    /// Where a grid's rules show no one shape of boxes ([`Drawn::boxes`]),
    /// the error, if its boxes are the reader's to choose and a side-`n`
    /// grid has more than one shape of them; else the default shape, the
    /// only one (a 9×9's `|` out of place), or the options' grid, stands.
    fn boxes_unclear(&self, first: usize, n: usize) -> Option<ParseErrorKind> {
        let shapes: Vec<(usize, usize)> = (2..n).filter(|r| n % r == 0).map(|r| (r, n / r)).collect();
        let chosen = self.spec.fixed_size().is_some() || self.spec.is_latin();
        (!chosen && shapes.len() > 1).then_some(ParseErrorKind::BoxesUnclear { first, n, shapes })
    }

    /// Turn the rows of a side-`n` puzzle into a puzzle of the spec's geometry.
    fn resolve(&mut self, line: usize, n: usize, rows: &[(usize, Vec<Token>)]) -> Result<Puzzle, ParseError> {
        let boxes = match self.drawn.boxes(n, rows, |t| t.column as usize) {
            Ok(boxes) => boxes,
            Err(at) => match self.boxes_unclear(line, n) {
                Some(kind) => {
                    // A row's own fault first: a damaged row draws its `|` unlike the others.
                    self.givens(line, n, rows)?;
                    return Err(self.error(at, None, kind));
                }
                None => None,
            },
        };
        let geometry =
            self.spec.geometry_drawn(n, boxes).map_err(|e| self.error(line, None, ParseErrorKind::Geometry(e)))?;
        let givens = self.givens(line, n, rows)?;
        Ok(Puzzle::new(geometry, givens).expect("geometry_for(n) has side n"))
    }

    /// The givens of the rows of a side-`n` puzzle.
    fn givens(&self, line: usize, n: usize, rows: &[(usize, Vec<Token>)]) -> Result<Grid, ParseError> {
        if let Err(kind) = self.alphabet.check_side(n) {
            return Err(self.error(line, None, kind));
        }
        let mut cells = Vec::with_capacity(n * n);
        // A word is a number (a row of numbers, a spreadsheet's field),
        // unless `--symbols` gives the cells (`w,x,,z`).
        let numbers = !self.alphabet.is_custom();
        // A grid of numbers past 9 is one of numbers in every row. A row of
        // it with no number past 9 and a word that is no number (`0 0 x 0 …`)
        // was read a character a cell, where a letter is a value past 9: in
        // a 36×36, `x` would be a given 33. Among numbers, a character that
        // is no digit nor `.` is a cell written wrong.
        let number_grid = numbers
            && rows.iter().flat_map(|(_, tokens)| tokens).any(|token| match &token.text {
                TokenText::Word(w) => line::past_nine(w),
                TokenText::Char(_) => false,
            });
        if let Some(row) = self.numbers_read_as_digits(n, rows) {
            let words = line::word_cells(&rows[row].1, self.alphabet);
            let kind = ParseErrorKind::DamagedRow { first: rows[0].0, row: row + 1, count: words.len(), n };
            return Err(self.error(rows[row].0, line::fault_column(&words, n), kind));
        }
        if !number_grid {
            self.zeros_are_values(n, rows)?;
        }
        let symbol = |token: &Token| match token.text {
            TokenText::Char(ch) if number_grid => match ch.to_digit(10) {
                Some(0) => Symbol::Empty,
                Some(digit) => Symbol::Value(digit as usize),
                None if self.alphabet.read(ch) == Symbol::Empty => Symbol::Empty,
                None => Symbol::Unknown,
            },
            _ => token.symbol,
        };
        let expected = |token: &Token| match token.text {
            TokenText::Word(_) if numbers => Alphabet::expected_number(n),
            TokenText::Char(_) if number_grid => Alphabet::expected_number(n),
            _ => self.alphabet.expected(n),
        };
        for (line, tokens) in rows {
            for token in tokens {
                let value = match symbol(token) {
                    Symbol::Empty => None,
                    Symbol::Value(number) => match Value::new_checked(number, n) {
                        Some(v) => Some(v),
                        None => {
                            let kind = ParseErrorKind::ValueOutOfRange {
                                symbol: token.text.to_string(),
                                n,
                                expected: expected(token),
                            };
                            return Err(self.error(*line, Some(token.column as usize), kind));
                        }
                    },
                    Symbol::Unknown => {
                        let kind =
                            ParseErrorKind::UnknownSymbol { symbol: token.text.to_string(), expected: expected(token) };
                        return Err(self.error(*line, Some(token.column as usize), kind));
                    }
                };
                cells.push(value);
            }
        }
        Ok(Grid::from_cells(n, cells).expect("n rows of n cells, each value checked against n"))
    }

    /// The row (0-based) of a grid of side `n` past 9 that was read a
    /// character a cell though it is spaced numbers: a number past 9 (at
    /// most n) and a one-digit cell among its words (`12 0 0 0 | 3 0 0 0 |
    /// 0 0 0`). Box rules make a row with a number lost look like digit
    /// runs, and its digits added up to n: read so, `12` was the cells 1 and
    /// 2. As numbers it has fewer than n cells, a row written wrong, as it
    /// is without the rules. Digits run together (`0000050000000000`, `0000
    /// 0500 …`) are cells, as ever.
    fn numbers_read_as_digits(&self, n: usize, rows: &[(usize, Vec<Token>)]) -> Option<usize> {
        if n <= 9 || rows.len() != n || self.alphabet.is_custom() {
            return None;
        }
        rows.iter().position(|(_, tokens)| {
            if !tokens.iter().all(|t| matches!(t.text, TokenText::Char(_))) {
                return false;
            }
            let words = line::word_cells(tokens, self.alphabet);
            let words = words.iter().filter_map(|t| match &t.text {
                TokenText::Word(w) => Some(&**w),
                TokenText::Char(_) => None,
            });
            let number = |w: &str| line::past_nine(w) && w.parse::<usize>().is_ok_and(|v| v <= n);
            words.clone().any(number) && words.clone().any(|w| w.chars().count() == 1)
        })
    }

    /// Refuses a grid past 9×9 written with the digits from `0`, as `0`-`F`
    /// for a 16×16, which the default alphabet would read as another
    /// puzzle (its `0`s empty) and solve. It is taken for one when it writes
    /// its empty cells with another mark (`.`), never writes the default
    /// symbol of its largest value (`G`), and no row or column holds two
    /// `0`s (as empty cells they might). Cells written as numbers are left alone:
    /// there `0` is empty.
    fn zeros_are_values(&self, n: usize, rows: &[(usize, Vec<Token>)]) -> Result<(), ParseError> {
        if self.alphabet.is_custom() || n < 10 || !self.alphabet.covers(n) {
            return Ok(());
        }
        let cells: Vec<(usize, &Token)> =
            rows.iter().flat_map(|(line, tokens)| tokens.iter().map(move |token| (*line, token))).collect();
        if cells.len() != n * n {
            return Ok(());
        }
        let mut first_zero = None;
        let mut other_empty = None;
        let (mut in_row, mut in_column) = (vec![false; n], vec![false; n]);
        for (index, &(line, token)) in cells.iter().enumerate() {
            let TokenText::Char(ch) = token.text else { return Ok(()) };
            match self.alphabet.read(ch) {
                Symbol::Empty if ch == '0' => {
                    let (row, column) = (index / n, index % n);
                    if in_row[row] || in_column[column] {
                        return Ok(());
                    }
                    (in_row[row], in_column[column]) = (true, true);
                    first_zero.get_or_insert((line, token.column));
                }
                Symbol::Empty => {
                    other_empty.get_or_insert(ch);
                }
                Symbol::Value(v) if v == n => return Ok(()),
                _ => {}
            }
        }
        let (Some((line, column)), Some(empty)) = (first_zero, other_empty) else { return Ok(()) };
        let symbol = |value: usize| self.alphabet.symbol(Value::from_index(value - 1)).expect("covers n");
        let symbols: String = std::iter::once('0').chain((1..n).map(symbol)).collect();
        let kind =
            ParseErrorKind::ZeroAsValue { n, empty: empty.to_string(), last: symbol(n - 1), past: symbol(n), symbols };
        Err(self.error(line, Some(column as usize), kind))
    }
}

/// Read every puzzle of a string (named `source` in messages).
pub fn read_all(text: &str, source: &str, alphabet: &Alphabet, spec: &mut GeometrySpec) -> Vec<Entry> {
    PuzzleReader::new(text.as_bytes(), source, alphabet, spec).collect()
}

#[cfg(test)]
mod tests;
