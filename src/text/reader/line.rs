//! One line of input: read within a bound, and what it is on its own,
//! under the headers read so far (a title, a rule, a header, a row of
//! cells, a delimited line, …). What the lines around it make of it is the
//! reader's to decide.

use std::borrow::Cow;
use std::io::BufRead;

use itertools::Itertools;

use crate::error::{echo, ParseErrorKind};
use crate::model::geometry::MAX_SIZE;
use crate::text::notation::read_region_map;
use crate::text::symbols::{Alphabet, Symbol};

/// A cell as written.
#[derive(Clone, Debug)]
pub(super) struct Token {
    /// 1-based, in characters.
    pub(super) column: u32,
    pub(super) symbol: Symbol,
    pub(super) text: TokenText,
}

/// What a cell looked like, for messages. A character needs no allocation,
/// which matters when reading a million puzzles.
#[derive(Clone, Debug)]
pub(super) enum TokenText {
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
pub(super) struct Cells {
    pub(super) tokens: Vec<Token>,
    /// Whitespace-separated numbers rather than one symbol per cell.
    pub(super) words: bool,
    /// A label before the puzzle on the same line (`Puzzle 3: …`).
    pub(super) label: Option<String>,
    /// Read from one field of a delimited line: a whole puzzle, never a row.
    pub(super) field: bool,
    /// The empty field after the last cell that was taken for the end of a
    /// whole puzzle on one line (`…,7,9,`): kept, for a grid's row whose
    /// last cell it is after all (under a header of its columns).
    pub(super) cut: Option<Box<Token>>,
    /// The line numbers k columns past an empty corner (`,1,2,…,9`): the
    /// header of a grid when k labelled rows follow, else a row.
    pub(super) columns: Option<u16>,
    /// The delimiter between a spreadsheet row's fields.
    pub(super) delimiter: Option<char>,
    /// A spreadsheet row's label as a cell written wrong, when it is as
    /// short as a cell (`x,,,,6,…`): among unlabelled rows one cell longer
    /// than this one, it is that row's first cell.
    pub(super) label_cell: Option<Box<Token>>,
}

impl Cells {
    /// The cells of a line, read one symbol per character or word by word.
    pub(super) fn new(tokens: Vec<Token>, words: bool) -> Cells {
        Cells { tokens, words, ..Cells::default() }
    }

    /// Gives back the empty field after the last cell that was taken for the
    /// end of a whole puzzle on one line ([`Self::cut`]), if any.
    pub(super) fn uncut(&mut self) {
        self.tokens.extend(self.cut.take().map(|token| *token));
    }

    /// Whether the last cell is an empty field (`…,7,,`), which may be a
    /// delimiter after the last cell rather than a cell.
    pub(super) fn ends_in_empty_field(&self) -> bool {
        matches!(self.tokens.last(), Some(Token { text: TokenText::Word(w), .. }) if w.is_empty())
    }

    /// Whether every cell is an empty field: a row of only delimiters.
    pub(super) fn all_empty_fields(&self) -> bool {
        self.tokens.iter().all(|t| matches!(&t.text, TokenText::Word(w) if w.is_empty()))
    }
}

/// A CSV header: names separated by a delimiter.
#[derive(Debug)]
pub(super) struct Header {
    /// The column the puzzles are in: the first, unless one is named.
    pub(super) column: usize,
    /// Whether the header named it.
    pub(super) named: bool,
    /// How many fields it has, and what separates them.
    pub(super) fields: usize,
    pub(super) delimiter: char,
    /// The line as a title, for when no rows of as many fields follow it
    /// (`Week 12, puzzle 3 of 7`).
    pub(super) title: String,
}

#[derive(Debug)]
pub(super) enum LineKind {
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
    /// A CSV header (or, when no rows of fields follow it, a title).
    Header(Header),
    /// A spreadsheet's header over a grid that names its k columns past an
    /// empty corner (`,A,B,…`): each of the k rows below it starts with its
    /// label, a number too. (Numbered columns, `,1,2,…,9`, are a row of
    /// [`Cells`] that may be a header: see `Cells::columns`.)
    IndexHeader(usize),
    /// A spreadsheet's row after its label (`Row 1,5,3,,,7,,,,`, or `Row 1:
    /// 5 3 . . 7 …`): a row of a grid when k such rows of k cells make one,
    /// else a title: the label, or the whole line where the cells' `label`
    /// holds it.
    LabelledRow(String, Cells),
    /// A delimited line with a whole puzzle in one of its fields: each field
    /// with its 0-based column.
    Fields(Vec<(usize, String)>),
    /// Only separators: `------+------+------`, `*-----*`.
    Rule,
    Cells(Cells),
    /// Unreadable: bad bytes, a line too long, an I/O error.
    Broken(ParseErrorKind, Option<usize>),
    /// An f-puzzles puzzle ([`fpuzzles_kind`]): its text, JSON joined over
    /// the lines it takes.
    Fpuzzles(String),
}

/// What opens an f-puzzles puzzle, which is no puzzle text: a line that
/// opens a JSON object, or one that is a compressed string or a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FpuzzlesLine {
    /// `{"size":9,…}`, or `{` alone, as JSON pretty-printed starts: the
    /// object may go on over the lines after it.
    Json,
    /// `N4Ig…`, the lz-string base64 that f-puzzles and SudokuPad share, or
    /// a link holding it (`f-puzzles.com/?load=N4Ig…`,
    /// `sudokupad.app/fpuzzlesN4Ig…`): one line.
    Line,
}

/// Whether `text` (one line) opens an f-puzzles puzzle. A string is the
/// base64 of `{"`, so it starts `N4Ig`; it may still be a whole puzzle line
/// of a grid of 25 or more, when every character is a symbol of that grid
/// (base64's others, past `P`, `+` and `/`, are in nearly every string).
pub(super) fn fpuzzles_kind(text: &str, alphabet: &Alphabet) -> Option<FpuzzlesLine> {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix('{') {
        let rest = rest.trim_start();
        return (rest.is_empty() || rest.starts_with(['"', '}'])).then_some(FpuzzlesLine::Json);
    }
    let starts = |prefix: &str| text.get(..prefix.len()).is_some_and(|t| t.eq_ignore_ascii_case(prefix));
    if ["http", "www.", "f-puzzles", "sudokupad"].into_iter().any(starts) && !text.contains(char::is_whitespace) {
        let lower = text.to_ascii_lowercase();
        if lower.contains("f-puzzles") || lower.contains("sudokupad") {
            return Some(FpuzzlesLine::Line);
        }
    }
    let base64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=');
    if !text.starts_with("N4Ig") || text.len() < 16 || !text.chars().all(base64) {
        return None;
    }
    let puzzle_line = exact_sqrt(text.len()).is_some_and(|n| {
        text.chars()
            .all(|c| matches!(alphabet.read(c), Symbol::Value(v) if v <= n) || alphabet.read(c) == Symbol::Empty)
    });
    (!puzzle_line).then_some(FpuzzlesLine::Line)
}

/// Whether a line may be one of a JSON object written over several lines:
/// blank, or starting as a JSON value, a key or a separator does
/// (`{`, `]`, `"size": 9,`, `-1,`, `true`), and nothing else (not a
/// puzzle's line, `4..7…`): where an object cut short stops.
pub(super) fn json_line(line: &[u8]) -> bool {
    let text = line.trim_ascii();
    // A number first (`3,`, `1, 2]`, `2, 3], "given": false}`), as short
    // as JSON's in a puzzle: not a puzzle's digits and dots (`4..7…`,
    // `000000010…`, a 4×4's sixteen digits).
    let numbers = || {
        let text = String::from_utf8_lossy(text);
        let first = text.split([',', ']', '}']).next().unwrap_or_default().trim();
        first.len() <= 10 && first.parse::<f64>().is_ok()
    };
    match text.first() {
        None => true,
        Some(b'{' | b'}' | b'[' | b']' | b'"' | b',' | b':') => true,
        Some(b'-' | b'0'..=b'9') => numbers(),
        Some(_) => [&b"true"[..], b"false", b"null"].iter().any(|word| text.starts_with(word)),
    }
}

/// Reads JSON a line at a time for where the object it opens closes:
/// brackets counted, strings and their escapes skipped.
#[derive(Default)]
pub(super) struct JsonDepth {
    /// The brackets open, innermost last.
    open: Vec<u8>,
    string: bool,
    escaped: bool,
}

impl JsonDepth {
    /// Read `text` on from where the last call stopped: the byte of `text`
    /// after the bracket that closes the first one opened, if it is there.
    pub(super) fn close(&mut self, text: &[u8]) -> Option<usize> {
        for (i, &b) in text.iter().enumerate() {
            match (self.string, b) {
                (true, _) if self.escaped => self.escaped = false,
                (true, b'\\') => self.escaped = true,
                (true, b'"') => self.string = false,
                (true, _) => {}
                (false, b'"') => self.string = true,
                (false, b'{' | b'[') => self.open.push(b),
                (false, b'}' | b']') => {
                    self.open.pop();
                    if self.open.is_empty() {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Whether the innermost bracket open is an object's: a line that
    /// starts with `{` then goes on no value of it (a key comes first).
    pub(super) fn in_object(&self) -> bool {
        self.open.last() == Some(&b'{') && !self.string
    }
}

/// What [`read_bounded_line`] found.
pub(super) enum Line {
    Read,
    TooLong,
    /// A line past [`ENDLESS`] bytes: reading stopped there.
    Endless,
    End,
}

/// The most of a line too long that is read on, looking for its end: an
/// input that has none (`/dev/zero`) must not be read for ever.
pub(super) const ENDLESS: u64 = 1 << 30;

/// The vertical tab, U+000B: a line break in a word processor's text.
const VERTICAL_TAB: u8 = 0x0b;

/// Read one line into `buf` (without its `\n`), or skip it, unstored, past
/// `limit` bytes; stop at [`ENDLESS`] bytes.
pub(super) fn read_bounded_line(input: &mut impl BufRead, buf: &mut Vec<u8>, limit: usize) -> std::io::Result<Line> {
    let mut too_long = false;
    let mut any = false;
    let mut read: u64 = 0;
    loop {
        if read > ENDLESS {
            return Ok(Line::Endless);
        }
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
        // A line ends at LF, CRLF, a lone CR (classic Mac OS files), or a
        // vertical tab (a word processor's line break within a paragraph).
        let (chunk, done) = match available.iter().position(|&b| matches!(b, b'\n' | b'\r' | VERTICAL_TAB)) {
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
        read += used as u64;
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
/// (not a field or a labelled puzzle), or a title that is a spreadsheet
/// row of too few fields to be read as one, its fields of at most two
/// digits or empty marks (`4,,` among a 4×4's rows of four fields; how
/// many fields is for the caller to weigh), or that is cells (and box
/// rules) up to its first word (`....8.4..  hard`, `|4..|...|8.5| hard`).
/// A row of only delimiters is none here: where it is a row written
/// wrong is for the reader to weigh (inside a grid, in
/// [`damaged_rows_ahead`](super::PuzzleReader::damaged_rows_ahead); as its
/// last row, in [`separator_row_ahead`](super::PuzzleReader::separator_row_ahead)).
pub(super) fn odd_row_length(kind: &LineKind) -> Option<usize> {
    match kind {
        LineKind::Cells(c) if !c.field && c.label.is_none() => Some(c.tokens.len()),
        LineKind::Title(title) => {
            let cell = |c: char| c.is_ascii_digit() || matches!(c, '.' | '_' | '*');
            for delimiter in [',', ';'] {
                let fields = title.split(delimiter);
                if title.contains(delimiter) && fields.clone().all(|f| f.len() <= 2 && f.chars().all(cell)) {
                    return Some(fields.count());
                }
            }
            // The cells it starts with, box rules and spaces between, up to
            // what made it a title (`hard`, `(sic)`).
            let cells = title.chars().take_while(|&c| cell(c) || is_separator(c)).filter(|&c| cell(c)).count();
            (cells > 0).then_some(cells)
        }
        _ => None,
    }
}

/// Where a row's cell `i` (from 0) is, for a row that should have `i`
/// cells: the column of its first cell too many, or, when it has no more
/// than `i`, the column just past its last cell, where the next was
/// expected.
pub(super) fn fault_column(tokens: &[Token], i: usize) -> Option<usize> {
    let column = match (tokens.get(i), tokens.last()) {
        (Some(surplus), _) => surplus.column as usize,
        (None, Some(last)) => {
            let width = match &last.text {
                TokenText::Char(_) => 1,
                TokenText::Word(w) => w.chars().count(),
            };
            last.column as usize + width
        }
        (None, None) => return None,
    };
    Some(column)
}

/// [`fault_column`] of a line read as a row, if it has cells.
pub(super) fn line_fault_column(kind: &LineKind, i: usize) -> Option<usize> {
    match kind {
        LineKind::Cells(c) | LineKind::Separator(c) | LineKind::LabelledRow(_, c) => fault_column(&c.tokens, i),
        _ => None,
    }
}

/// Whether `k` cells on one line make a whole puzzle of side 4 or more.
pub(super) fn is_whole_count(k: usize) -> bool {
    exact_sqrt(k).is_some_and(|m| m >= 4)
}

/// The square root of `k`, when `k` is a square.
pub(super) fn exact_sqrt(k: usize) -> Option<usize> {
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

/// Whether a row writes its empty cells as dashes (`4 - - 7`, `4-----8-5`):
/// digits, empty marks and dashes, one character a word or all in one
/// word, with a digit, and dashes where no box rule stands: two together,
/// or first or last in a spaced row. A row ruled between its boxes
/// (`12-34`, `1 2 - 3 4`) has single dashes between cells.
fn row_of_dashes_for_empty(text: &str) -> bool {
    let cellish = |c: char| c.is_ascii_digit() || matches!(c, '.' | '_' | '-');
    let words: Vec<&str> = text.split_whitespace().collect();
    let spaced = words.len() >= 4 && words.iter().all(|w| w.len() == 1);
    let dash = |w: &&str| *w == "-";
    text.chars().all(|c| cellish(c) || c.is_whitespace())
        && text.contains(|c: char| c.is_ascii_digit())
        && match spaced {
            true => {
                words.windows(2).any(|w| dash(&w[0]) && dash(&w[1]))
                    || words.first().is_some_and(dash)
                    || words.last().is_some_and(dash)
            }
            false => words.len() == 1 && text.contains("--"),
        }
}

/// A grid drawn with box-drawing characters, as terminals and web pages
/// print them (`│ 1 . │ . . │`, `├─────┼─────┤`, `║`, `╬`), is read as drawn
/// with `|`, `-` and `+`, character for character, so that columns stay
/// where they are; so are the dashes a word processor puts in a rule
/// (`–––+–––`) on a line with no letters, and full-width `｜`, `－`, `＋`. A character that is a symbol of
/// `--symbols` stays a cell. `None` where nothing is drawn so.
fn ascii_frame(text: &str, alphabet: &Alphabet) -> Option<String> {
    // Every character drawn so is past ASCII: most lines are over here.
    if text.is_ascii() {
        return None;
    }
    let rule = !text.contains(char::is_alphabetic);
    let frame = |c: char| -> Option<char> {
        if alphabet.read(c) != Symbol::Unknown {
            return None;
        }
        match c {
            c if c != '|' && is_bar(c) => Some('|'),
            '─' | '━' | '═' | '┄' | '┅' | '┈' | '┉' | '╌' | '╍' | '╴' | '╶' | '╸' | '╺' | '╼' | '╾' => {
                Some('-')
            }
            '\u{2500}'..='\u{257F}' => Some('+'),
            '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' | '－' if rule => Some('-'),
            // Full-width forms, as Japanese pages draw grids.
            '＋' => Some('+'),
            _ => None,
        }
    };
    text.chars().any(|c| frame(c).is_some()).then(|| text.chars().map(|c| frame(c).unwrap_or(c)).collect())
}

/// Whether `c` draws a vertical box rule: `|`, or a box-drawing character
/// read as one (`│`, `║`, …).
pub(super) fn is_bar(c: char) -> bool {
    matches!(c, '|' | '│' | '┃' | '║' | '┆' | '┇' | '┊' | '┋' | '╎' | '╏' | '¦' | '｜')
}

/// A line without its line end, and without a Ctrl-Z at its end, which ends
/// a file as DOS and old Windows programs wrote them.
pub(super) fn without_line_end(line: &str) -> &str {
    let text = line.trim_end_matches(['\n', '\r']);
    match text.strip_suffix('\u{1a}') {
        Some(text) => text.trim_end_matches(['\n', '\r', '\u{1a}']),
        None => text,
    }
}

/// Separators between the cells of a row.
fn is_separator(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, '|' | '+' | '-')
}

/// A rule line: only separators, or a run of dashes with box corners (`*`,
/// `.`, `'`, `:`) at its ends and joints.
fn is_rule(text: &str, alphabet: &Alphabet) -> bool {
    // A symbol of `--symbols` (`*`, `=`) is a cell, never a rule's mark.
    let frame = |ch: char| {
        is_separator(ch)
            || (matches!(ch, '=' | '*' | ':' | '\'' | '~') && !matches!(alphabet.read(ch), Symbol::Value(_)))
    };
    text.chars().all(frame) || (text.contains("--") && text.chars().all(|ch| frame(ch) || ch == '.' || ch == '_'))
}

/// Whether a run of letters is a word, not cells: two or more letters, one
/// of them lower-case and no cell (see [`is_text`]).
fn is_word(run: &str, alphabet: &Alphabet) -> bool {
    let lower = run.chars().filter(|c| c.is_lowercase()).count();
    run.chars().count() >= 2 && (run.chars().any(|c| is_texty(c, alphabet)) || (lower >= 4 && !alphabet.is_custom()))
}

/// Whether a letter makes a run of letters a word: a lower-case one that
/// cannot be a cell (past `g` with the default alphabet, whose 16×16 grids
/// use a-g; any the alphabet lacks with `--symbols`).
pub(super) fn is_texty(c: char, alphabet: &Alphabet) -> bool {
    match alphabet.is_custom() {
        true => c.is_lowercase() && alphabet.read(c) == Symbol::Unknown,
        false => c.is_lowercase() && !('a'..='g').contains(&c),
    }
}

/// Whether a line reads as words rather than cells: a run of two or more
/// letters with a lower-case one that cannot be a cell (`Sudoku`, `Grid`,
/// `quizzes`), or mostly characters that are no cell at all.
///
/// With the default alphabet every letter is a symbol (A-Z are 10-35, in
/// either case), so a word counts as text when it has a lower-case letter
/// past `g` (the letters of a 16×16 grid are a-g) or four lower-case letters
/// in a row. With `--symbols`, a lower-case letter the alphabet lacks.
/// Digits and empty marks count as cells, symbols of the alphabet or not:
/// `1 0 4 0 …` under `--symbols 123456789`, or `4?????8?5`, is a row whose
/// `0`s or `?`s are no symbols, to be named as such, not a title that would
/// lose the puzzle.
pub(super) fn is_text(text: &str, alphabet: &Alphabet) -> bool {
    let wordy = text.split(|c: char| !c.is_alphabetic()).any(|word| is_word(word, alphabet));
    let visible: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let cells =
        visible.iter().filter(|&&c| alphabet.read(c) != Symbol::Unknown || is_separator(c) || is_cellish(c)).count();
    wordy || cells * 2 < visible.len()
}

/// What the headers read so far say of the lines below them.
#[derive(Clone, Copy, Default)]
pub(super) struct Under {
    /// The header named the puzzle column (else a spreadsheet's grid may follow it).
    pub(super) named: bool,
    /// The CSV header's delimiter and its number of fields, once one has
    /// been read: every delimited line is then a row of fields, but a
    /// spreadsheet's row of another delimiter, or of more than one field
    /// more or fewer (and more filled than its first), is no row of the
    /// table under it, though that header named a column
    /// ([`spreadsheet_row`]).
    pub(super) shape: Option<(char, usize)>,
}

/// What a line is, on its own, under the headers read so far.
pub(super) fn classify(text: &str, alphabet: &Alphabet, fixed: Option<usize>, under: Under) -> LineKind {
    let text = without_line_end(text);
    // A line of fields is measured field by field, as it is read
    // ([`delimited`]): a CSV row's other fields may hold anything.
    if !text.contains(FIELD_DELIMITERS) {
        if let Some(kind) = past_any_grid(text, alphabet) {
            return kind;
        }
    }
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
    let drawn = ascii_frame(text, alphabet);
    let text = drawn.as_deref().unwrap_or(text);
    if !alphabet.is_custom() && (dashes_for_empty(text) || row_of_dashes_for_empty(text)) {
        let tokens = text
            .chars()
            .enumerate()
            .filter(|(_, ch)| !ch.is_whitespace())
            .map(|(i, ch)| {
                let symbol = if ch == '-' { Symbol::Empty } else { alphabet.read(ch) };
                Token { column: i as u32 + 1, text: TokenText::Char(ch), symbol }
            })
            .collect();
        return LineKind::Cells(Cells::new(tokens, false));
    }
    // A form feed (a page break) is white space, where it stands: most
    // often alone on its line, or before the first line of a page.
    let control = |c: char| c.is_control() && !matches!(c, '\t' | '\x0c');
    if let Some((column, ch)) = text.chars().enumerate().find(|&(_, c)| control(c)) {
        // Comments and titles may hold any bytes (an escape sequence saved
        // from a terminal, a bell), and so may the comment after a line's
        // cells and the fields beside a puzzle: the line is read with them
        // replaced, and that reading kept where they fall in no cell.
        let replaced: String = text.chars().map(|c| if control(c) { char::REPLACEMENT_CHARACTER } else { c }).collect();
        let read = classify(&replaced, alphabet, fixed, under);
        let clean =
            |cells: &Cells| cells.tokens.iter().all(|t| !t.text.to_string().contains(char::REPLACEMENT_CHARACTER));
        let kept = match &read {
            LineKind::Comment | LineKind::Fields(_) | LineKind::Header(_) => true,
            // A NUL is binary data, never a title's (`\xff\xfe\0garbage`).
            LineKind::Title(title) => has_word(title) && !text.contains('\0'),
            LineKind::Cells(cells) | LineKind::LabelledRow(_, cells) => clean(cells),
            _ => false,
        };
        if kept {
            return read;
        }
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
    // A line that is one quoted field (`"4..7…"`, `"puzzle"`: a CSV of one
    // column with every field quoted) is what its quotes hold, in place.
    if let Some(inner) = trimmed.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        if !inner.contains(['"', ',', ';', '\t']) {
            return classify(&text.replacen('"', " ", 2), alphabet, fixed, under);
        }
    }
    if is_rule(trimmed, alphabet) {
        return LineKind::Rule;
    }
    // A comment after the cells: `4..7… # hard`.
    // After rules alone, a title (`-- #7 --`). A puzzle after the `#` with
    // none before it is a label's number sign (`Puzzle #2 4..7…`), never a
    // comment that would lose the puzzle.
    let numbered = |i: usize| {
        let holds = |part: &str| part.split_whitespace().any(holds_damaged);
        !holds(&text[..i]) && holds(&text[i..])
    };
    let text = match text.find(" #").or_else(|| text.find("\t#")).filter(|&i| !numbered(i)) {
        Some(i) => {
            match text[..i].chars().any(|c| c.is_alphanumeric() || is_cellish(c) || alphabet.read(c) != Symbol::Unknown)
            {
                true => &text[..i],
                false => return LineKind::Title(echo(trimmed)),
            }
        }
        _ => text,
    };
    if let Some(kind) = delimited(text, alphabet, fixed, under) {
        return kind;
    }
    if let Some(kind) = past_any_grid(text, alphabet) {
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
        if !cells.words {
            if let Some(short) = number_beside_short_puzzle(text, alphabet, fixed, cells.tokens.len()) {
                return LineKind::Cells(short);
            }
            if let Some(puzzle) = puzzle_among_notes(text, alphabet).filter(|_| !whole(cells.tokens.len())) {
                return LineKind::Cells(puzzle);
            }
        }
        return LineKind::Cells(cells);
    }
    // A label and a puzzle: `Puzzle 3: 4..7…`, `0042 4..7… 3.5`.
    if let Some(kind) = labelled(text, alphabet, fixed) {
        return kind;
    }
    let text_line = is_text(text, alphabet);
    if text_line {
        if let Some((kind, column)) = stuck_word(text, alphabet, fixed) {
            return LineKind::Broken(kind, Some(column));
        }
        if let Some(cells) = damaged_puzzle(text, alphabet) {
            return LineKind::Cells(cells);
        }
    }
    if let Some(row) = marked_row(text, alphabet) {
        return row;
    }
    match text_line {
        true => LineKind::Title(echo(trimmed)),
        false if !whole(cells.tokens.len()) => LineKind::Cells(puzzle_among_notes(text, alphabet).unwrap_or(cells)),
        false => LineKind::Cells(cells),
    }
}

/// The most cells of a grid: 1024×1024.
const MOST_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// What parts a line into fields ([`delimited`]).
const FIELD_DELIMITERS: [char; 4] = [',', ';', ':', '\t'];

/// A line too long for the cells of any grid however it is read, a symbol a
/// cell or a word a cell, told by counting before its cells are read: a
/// 16 MiB line of `1 1 1 …` read as cells took 2 GB and 17 s to end as one
/// error. A word reading needs words as short as numbers and candidates are
/// (a label's few words aside); a symbol reading at most a grid's cells, or
/// the n³ symbols of pencil marks in an alphabet of n. A comment, and the
/// comment after a line's cells, count for nothing. A line of fields is
/// measured so only where it is read whole: a row of more unquoted fields
/// than any grid has cells, or no row of fields at all.
fn past_any_grid(text: &str, alphabet: &Alphabet) -> Option<LineKind> {
    if text.len() <= MOST_CELLS {
        return None;
    }
    /// The words and symbols of a label before a puzzle (`Puzzle 3 of 7:`).
    const LABEL: usize = 64;
    const LABEL_SYMBOLS: usize = 1024;
    /// The longest cell written as a word: a number, or a cell's candidates.
    const WORD: usize = 8;
    let start = text.trim_start();
    if start.starts_with('#') || start.starts_with("//") {
        return None;
    }
    let text = text.find(" #").or_else(|| text.find("\t#")).map_or(text, |i| &text[..i]);
    let delimiter = |c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|');
    let symbols = text.chars().filter(|&c| !delimiter(c) && !is_separator(c)).count();
    let words = text.split(delimiter).filter(|w| !w.is_empty()).count();
    let max = MOST_CELLS.max(alphabet.len().saturating_pow(3));
    let by_symbol = symbols <= max + LABEL_SYMBOLS;
    let by_word = words <= MOST_CELLS + LABEL && symbols <= WORD * words;
    (!by_symbol && !by_word).then_some(LineKind::Broken(ParseErrorKind::TooManyCells { symbols, words, max }, None))
}

/// The puzzle of a line that is one puzzle gone wrong among short notes (an
/// index, a rating, `;x`, a field after a tab; before it too, as its
/// label): the one word that holds a puzzle ([`holds_damaged`]), with the
/// words before it as its label and the words after it dropped, as a
/// rating beside a whole puzzle is. Read with its notes, the line was "a
/// line of 86 cells" that counted the rating's characters, and a stray
/// symbol in the puzzle was named nowhere. A word longer than a note, or
/// one of digits and empty marks as long as a row of the puzzle (its last
/// row set apart), is part of the line: no such reading.
fn puzzle_among_notes(text: &str, alphabet: &Alphabet) -> Option<Cells> {
    /// The longest note: a rating such as `7.1/1.2/1.2`, an index, a date.
    const NOTE: usize = 12;
    let words = words_with_columns(text);
    let (puzzles, notes): (Vec<_>, Vec<_>) = words.iter().partition(|(_, w)| holds_damaged(w));
    let (&[&(column, word)], false) = (puzzles.as_slice(), notes.is_empty()) else { return None };
    let row = (cellish_count(word) as f64).sqrt().round() as usize;
    let part = |w: &str| w.chars().count() > NOTE || (w.chars().all(is_cellish) && w.chars().count() >= row);
    if notes.iter().any(|(_, w)| part(w)) {
        return None;
    }
    let mut cells = tokenize(word, column - 1, alphabet);
    cells.label = label_before(text, column);
    Some(cells)
}

/// The fewest digits and empty marks in one word that make a line a puzzle
/// gone wrong rather than a title: the cells of a 4×4, the smallest puzzle
/// written on one line. A 4×4 short of a few cells has [`DAMAGED_SHORT`].
pub(super) const DAMAGED_CELLS: usize = 16;
const DAMAGED_SHORT: usize = 12;

/// Whether a word holds a puzzle gone wrong: [`DAMAGED_CELLS`] digits and
/// empty marks, or [`DAMAGED_SHORT`] that are four fifths of it and could
/// be a 4×4's (`3121..4..23..41`, a cell short: digits up to 4 and a mark
/// that is no digit; or [`four_by_four_a_cell_off`], `0` for empty; not an
/// ID, a date or a version number).
fn holds_damaged(word: &str) -> bool {
    let cells = cellish_count(word);
    let four = || {
        word.chars().all(|c| !c.is_ascii_digit() || c <= '4')
            && (word.chars().any(|c| matches!(c, '.' | '_' | '*' | '?')) || four_by_four_a_cell_off(word))
    };
    cells >= DAMAGED_CELLS || (cells >= DAMAGED_SHORT && cells * 5 >= word.chars().count() * 4 && four())
}

/// Whether a word of digits 0 to 4 is a 4×4 written with `0` for empty a
/// cell short or long (`000140030000010`): with an empty cell put in, or
/// a cell taken out, somewhere, its givens (three at least, and four
/// empty cells) clash in no row, column or box. An ID or a time stamp
/// (`20241201103000`, `000000001234`) is none.
fn four_by_four_a_cell_off(word: &str) -> bool {
    let digits: Vec<u8> = word.bytes().map(|b| b.wrapping_sub(b'0')).collect();
    if !matches!(digits.len(), 15 | 17) || digits.iter().any(|&d| d > 4) {
        return false;
    }
    let fits = |cells: &[u8]| {
        let givens = cells.iter().filter(|&&d| d > 0).count();
        let unit_clear = |unit: [usize; 4]| unit.iter().filter(|&&i| cells[i] > 0).map(|&i| cells[i]).all_unique();
        givens >= 3
            && 16 - givens >= 4
            && (0..4).all(|i| {
                let (band, stack) = (i / 2 * 2, i % 2 * 2);
                unit_clear([i * 4, i * 4 + 1, i * 4 + 2, i * 4 + 3])
                    && unit_clear([i, i + 4, i + 8, i + 12])
                    && unit_clear([0, 1, 4, 5].map(|c| (band * 4 + stack) + c))
            })
    };
    (0..=digits.len()).any(|at| {
        let mut cells = digits.clone();
        match digits.len() {
            15 => cells.insert(at, 0),
            _ if at < digits.len() => _ = cells.remove(at),
            _ => return false,
        }
        fits(&cells)
    })
}

/// The digits and empty marks (`.`, `_`, `*`, and `?` as some write an
/// empty cell) of `text`: how much of a puzzle it holds.
pub(super) fn cellish_count(text: &str) -> usize {
    text.chars().filter(|&c| is_cellish(c)).count()
}

/// Whether a character is a digit or an empty mark, whatever the alphabet
/// (`?` is none of satdoku's, but people write it for one; `·` and its
/// kin are the default alphabet's).
fn is_cellish(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '.' | '_' | '*' | '?') || crate::text::symbols::DOTS.contains(&c)
}

/// A line that reads as words but holds a puzzle gone wrong (`Puzzle 1:
/// <80 cells>`, `<80 cells> hard`, `?` for empty, numbers with commas and a
/// word after them): the first whitespace-separated word with at least
/// enough digits and empty marks ([`holds_damaged`]), as cells, with the words before
/// it as its label. Such a line is a record (an invalid one, as framing
/// finds), never a title that would lose the puzzle without a word.
fn damaged_puzzle(text: &str, alphabet: &Alphabet) -> Option<Cells> {
    let words = words_with_columns(text);
    let &(mut column, mut word) = words.iter().find(|(_, w)| holds_damaged(w))?;
    // `4:??16…`: a label stuck to the cells by its colon ends at the colon.
    if let Some((label, cells)) = word.rsplit_once(':').filter(|(_, cells)| holds_damaged(cells)) {
        column += label.chars().count() + 1;
        word = cells;
    }
    let mut cells = field_cells(word, column - 1, alphabet);
    cells.label = label_before(text, column);
    Some(cells)
}

/// The puzzle of a line of two or three words (apart by white space or a
/// rule `|`) whose `count` cells make a whole puzzle only with a number
/// shorter than a row before or after it, or one each side (`2 <80 cells>`,
/// `<80 cells> 4`, `2|<80 cells>`, `1 <78 cells> 12`): an index or a
/// rating beside a puzzle some cells short, not its first or last cells cut
/// off by a space, which no one writes. Read as cells, it was a puzzle
/// nobody wrote, and it was solved. The index is the puzzle's label; a
/// rating after it is dropped. A full grid (no empty cell) is left as it
/// is: `417 <78 digits>` is a grid with its first cells set apart.
fn number_beside_short_puzzle(text: &str, alphabet: &Alphabet, fixed: Option<usize>, count: usize) -> Option<Cells> {
    let side = match fixed {
        Some(n) => Some(n).filter(|&n| n.checked_mul(n) == Some(count))?,
        None => exact_sqrt(count)?,
    };
    if side < 4 {
        return None;
    }
    // Words apart by white space or a rule (`2 | <80 cells>`, `2|<80 cells>`).
    let words = ruled_words(text);
    let number = |w: &str| w.len() < side && w.bytes().all(|b| b.is_ascii_digit());
    let index = usize::from(words.len() >= 2 && number(words[0].1));
    let rating = usize::from(words.len() - index >= 2 && number(words[words.len() - 1].1));
    let &[(column, word)] = &words[index..words.len() - rating] else { return None };
    let mut cells = tokenize(word, column - 1, alphabet);
    cells.label = label_before(text, column);
    let empty = cells.tokens.iter().any(|t| t.symbol == Symbol::Empty);
    (index + rating > 0 && empty).then_some(cells)
}

/// The words before the puzzle at 1-based `column` of its line, as its
/// name: `Puzzle 3` of `Puzzle 3: 4..7…` or `Puzzle 3 - 4..7…`.
fn label_before(text: &str, column: usize) -> Option<String> {
    let before: String = text.chars().take(column - 1).collect();
    let label = undecorated(&before);
    (!label.is_empty()).then(|| echo(label))
}

/// A name without the rules and marks drawn around it: `Puzzle 5` of
/// `=== Puzzle 5 ===` or `Puzzle 5 -`; a name of only such marks is kept.
pub(super) fn undecorated(name: &str) -> &str {
    const MARKS: [char; 10] = [':', '-', '–', '—', '|', '=', '*', '~', '+', '"'];
    let bare = name.trim_matches(|c: char| MARKS.contains(&c) || c.is_whitespace());
    if bare.is_empty() {
        name.trim()
    } else {
        bare
    }
}

/// A line read as words that may be a row, or a whole puzzle, writing its
/// empty cells as one letter no cell can be (`6ooooo8o3`, `3 x 6 x 7 x x x x`
/// under `--symbols 123456789`): a run of that letter makes a word. Or as
/// another mark that is no symbol (`4 ○ ○ 7`, `4~~~~~8~5`), which makes the
/// line more marks than cells.
pub(super) struct LetterRow {
    /// Its cells (one a character, separators aside).
    pub(super) k: usize,
    /// The letter.
    pub(super) mark: char,
    /// Whether it has a given (else it is all letters, `xxxxxxxxx`).
    pub(super) givens: bool,
    /// Whether no title looks so: a given beside the letter (box rules
    /// between are fine: `1o8`, `12|xx`), or one character a word
    /// (`6 x x 3`), where a title has a word of its own (`12 mm`).
    pub(super) sure: bool,
}

/// The line as a [`LetterRow`], if it is one letter among cells (box rules
/// and spaces between), no symbol, as many as a whole puzzle (16 or more,
/// or n² with a fixed size n), or a row's worth (4 or more, or n) whose
/// givens are different values that fit it (`16x16` and `100x100` are not).
/// As cells, framing names the letter (`'o' is not a symbol of this 9x9
/// grid`) where a title would lose the puzzle.
pub(super) fn letter_row(text: &str, alphabet: &Alphabet, fixed: Option<usize>) -> Option<LetterRow> {
    let cells: Vec<char> = text.chars().filter(|&c| !is_separator(c)).collect();
    let cell = |c: char| is_cellish(c) || (alphabet.read(c) != Symbol::Unknown && !is_texty(c, alphabet));
    let (kept, marks): (Vec<char>, Vec<char>) = cells.iter().partition(|&&c| cell(c));
    // A letter, or a glyph some page writes for an empty cell (`○`, `□`,
    // `~`), twice at least: `100%` and `$1000` are no rows.
    let glyph = |m: char| !m.is_alphanumeric() && !m.is_control() && marks.len() >= 2;
    let mark = *marks.first().filter(|&&m| (m.is_alphabetic() || glyph(m)) && marks.iter().all(|&c| c == m))?;
    let k = cells.len();
    let whole = fixed.map_or(k >= 16 && is_whole_count(k), |n| n.checked_mul(n) == Some(k));
    let row = || {
        let mut seen = vec![false; k + 1];
        fixed.is_none_or(|n| n == k)
            && k >= 4
            && kept.iter().all(|&c| match alphabet.read(c) {
                Symbol::Value(v) if v <= k => !std::mem::replace(&mut seen[v], true),
                Symbol::Value(_) => false,
                Symbol::Empty | Symbol::Unknown => true,
            })
    };
    if !(whole || row()) {
        return None;
    }
    let chars: Vec<char> = text.chars().filter(|&c| c.is_whitespace() || !is_separator(c)).collect();
    let stuck = chars.windows(2).any(|w| (w[0] == mark && cell(w[1])) || (cell(w[0]) && w[1] == mark));
    let spaced = text.split_whitespace().all(|word| word.chars().count() == 1);
    let givens = !kept.is_empty();
    Some(LetterRow { k, mark, givens, sure: givens && (stuck || spaced) })
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

/// Whether `text` has a word: two letters together.
pub(super) fn has_word(text: &str) -> bool {
    text.chars().zip(text.chars().skip(1)).any(|(a, b)| a.is_alphabetic() && b.is_alphabetic())
}

/// Names for the control characters messages mention.
fn control_name(ch: char) -> &'static str {
    match ch {
        '\0' => "a NUL byte",
        '\u{1b}' => "an escape character",
        _ => "a control character",
    }
}

/// Whether a line of fields separated by `delimiter` ends inside a quoted
/// field, read as [`split_fields`] reads them: one that opens with `"` and
/// has not closed (`3,6…,"line one`). `open` says whether the line starts
/// inside one, carried over from the line before (RFC 4180's line breaks
/// in a field, as spreadsheets write a note of several lines).
pub(super) fn ends_quoted(text: &str, delimiter: char, open: bool) -> bool {
    let mut chars = text.chars().peekable();
    let (mut quoted, mut field_start) = (open, !open);
    loop {
        if quoted {
            match chars.next() {
                None => return true,
                Some('"') if chars.next_if_eq(&'"').is_some() => {}
                Some('"') => quoted = false,
                Some(_) => {}
            }
            continue;
        }
        if field_start {
            while chars.next_if_eq(&' ').is_some() {}
            field_start = false;
            if chars.next_if_eq(&'"').is_some() {
                quoted = true;
                continue;
            }
        }
        match chars.next() {
            None => return false,
            Some(c) => field_start = c == delimiter,
        }
    }
}

/// Whether a line is a row of a CSV file of `fields` fields with its
/// puzzle in field `column`: as many fields, that one a whole puzzle.
pub(super) fn is_csv_row(text: &str, (delimiter, fields, column): (char, usize, usize), alphabet: &Alphabet) -> bool {
    let split = split_fields(text, delimiter);
    split.len() == fields && split.get(column).is_some_and(|(_, f)| is_whole_field(f.trim(), alphabet, None))
}

/// The fields of a line between `delimiter`s, each with the 0-based column
/// its text starts at. A field that opens with `"` (after spaces) is quoted
/// as CSV writes it (R's `write.csv`, Python's `QUOTE_ALL`, spreadsheets'
/// exports): it runs to its closing quote, delimiters and all, `""` inside
/// is one `"`, and its text is what the quotes hold.
fn split_fields(text: &str, delimiter: char) -> Vec<(usize, Cow<'_, str>)> {
    let mut column = 0;
    if !text.contains('"') {
        return text
            .split(delimiter)
            .map(|field| {
                let start = column;
                column += field.chars().count() + 1;
                (start, Cow::Borrowed(field))
            })
            .collect();
    }
    let mut fields = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        let mut start = column;
        let mut field = String::new();
        while let Some(c) = chars.next_if(|&c| c == ' ') {
            field.push(c);
            column += 1;
        }
        if chars.next_if_eq(&'"').is_some() {
            column += 1;
            start = column;
            field.clear();
            while let Some(c) = chars.next() {
                column += 1;
                match c {
                    '"' if chars.next_if_eq(&'"').is_some() => {
                        column += 1;
                        field.push('"');
                    }
                    '"' => break,
                    c => field.push(c),
                }
            }
        }
        while let Some(c) = chars.next_if(|&c| c != delimiter) {
            field.push(c);
            column += 1;
        }
        fields.push((start, Cow::Owned(field)));
        if chars.next().is_none() {
            return fields;
        }
        column += 1;
    }
}

/// A table's header: the names of its columns (`id,puzzle,solution`), the
/// puzzle's column the one named so, else the first.
fn header(
    fields: &[(usize, &str)],
    delimiter: char,
    text: &str,
    alphabet: &Alphabet,
    fixed: Option<usize>,
) -> Option<LineKind> {
    let name = |f: &str| {
        let f = f.trim();
        f.chars().next().is_some_and(char::is_alphabetic)
            && f.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | ' ' | '-'))
            && !is_whole_puzzle(f, alphabet, fixed)
    };
    // R's `write.csv` heads its row names' column with an empty name.
    let unnamed_first = |i: usize, f: &str| i == 0 && f.trim().is_empty() && fields.len() > 2;
    if fields.len() < 2 || !fields.iter().enumerate().all(|(i, (_, f))| name(f) || unnamed_first(i, f)) {
        return None;
    }
    const PUZZLE: [&str; 7] = ["quizzes", "quiz", "puzzle", "puzzles", "givens", "grid", "problem"];
    let column = fields.iter().position(|(_, f)| PUZZLE.contains(&f.trim().to_ascii_lowercase().as_str()));
    let (column, named) = (column.unwrap_or(0), column.is_some());
    let title = echo(text.trim());
    Some(LineKind::Header(Header { column, named, fields: fields.len(), delimiter, title }))
}

/// A line of fields: CSV (`,` or `;`), or `:`-separated as tdoku's
/// `puzzle:count:solution`. A header names the puzzle column; in a row, the
/// puzzle is that column's field, or the first field that is a whole puzzle.
/// Numbers separated by commas alone are a row of numbers.
fn delimited(text: &str, alphabet: &Alphabet, fixed: Option<usize>, under: Under) -> Option<LineKind> {
    // More fields than any grid has cells, none quoted (`1,1,1,…`): no
    // table's row, its puzzle in a field; only a row of cells would do.
    if text.len() > MOST_CELLS && !text.contains('"') && text.matches(FIELD_DELIMITERS).count() > MOST_CELLS {
        if let Some(kind) = past_any_grid(text, alphabet) {
            return Some(kind);
        }
    }
    let csv = under.shape.is_some();
    let split = |delimiter: char| -> Vec<(usize, Cow<str>)> { split_fields(text, delimiter) };
    // Tab-separated fields, one of them a whole puzzle (as symbols, or as
    // numbers with commas: `id<TAB>n<TAB>2,1,0,4,…<TAB>…`). Tabs between
    // the numbers of a row are no fields, nor are tabs before or after the
    // text alone, white space an editor left (a 16×16's row with a tab after
    // it was a whole 4×4 in a field).
    if text.contains('\t') {
        let owned = split('\t');
        let fields: Vec<(usize, &str)> = owned.iter().map(|(column, f)| (*column, f.as_ref())).collect();
        let between = text.trim().contains('\t');
        if between && fields.iter().any(|(_, f)| is_whole_field(f.trim(), alphabet, fixed)) {
            return Some(LineKind::Fields(fields.into_iter().map(|(column, f)| (column, f.to_string())).collect()));
        }
        // A row copied from a spreadsheet: its cells between tabs. Not a
        // ruled grid's row whose spaces an editor made tabs
        // (`|\t5\t3\t.\t|…`), read as the spaced row is: its `|` part the
        // cells evenly, and no field is empty (an empty cell of a
        // spreadsheet's row, which a ruled row has not; a spreadsheet's row
        // with a given typed `|` stays one).
        let groups: Vec<usize> =
            fields.split(|(_, f)| f.trim() == "|").map(<[_]>::len).filter(|&len| len > 0).collect();
        let ruled = groups.len() > 1
            && groups.iter().all(|&len| len == groups[0])
            && fields.iter().all(|(_, f)| !f.trim().is_empty());
        if let Some(row) = spreadsheet_row(&fields, '\t', alphabet, under).filter(|_| !ruled) {
            return Some(row);
        }
        // A table's header, as a spreadsheet saves one as tab-separated
        // values (`id<TAB>solution<TAB>puzzle`).
        if let Some(header) = header(&fields, '\t', text, alphabet, fixed).filter(|_| between) {
            return Some(header);
        }
        // Under such a header, a row of about as many fields is the
        // table's, its puzzle field empty or not, as under a CSV header.
        if under.shape.is_some_and(|(delimiter, k)| delimiter == '\t' && fields.len().abs_diff(k) <= 1) {
            return Some(LineKind::Fields(fields.into_iter().map(|(column, f)| (column, f.to_string())).collect()));
        }
    }
    if let Some(fields) = spaced_fields(text, alphabet, fixed) {
        return Some(LineKind::Fields(fields));
    }
    let delimiter = [',', ';', ':'].into_iter().find(|&d| text.contains(d))?;
    let owned = split(delimiter);
    let fields: Vec<(usize, &str)> = owned.iter().map(|(column, f)| (*column, f.as_ref())).collect();
    if fields.len() < 2 {
        return None;
    }
    // (Quoted numbers, `"5","3",""`, are a spreadsheet's row, below.)
    let quoted = text.contains('"');
    if delimiter == ',' && !quoted && fields.iter().all(|(_, f)| cell_number(f.trim())) {
        let cells = tokenize(&text.replace(',', " "), 0, alphabet);
        return Some(LineKind::Cells(Cells { delimiter: Some(','), ..cells }));
    }
    // The same in the symbols of `--symbols` (`y,z,w`), however few.
    if delimiter == ',' && !quoted && fields.iter().all(|(_, f)| custom_symbol(f.trim(), alphabet)) {
        let cells = tokenize(&text.replace(',', " "), 0, alphabet);
        return Some(LineKind::Cells(Cells { delimiter: Some(','), ..cells }));
    }
    // A header that names no puzzle column (`C1,C2,…`) may head a
    // spreadsheet's grid.
    if let Some(row) = spreadsheet_row(&fields, delimiter, alphabet, under) {
        return Some(row);
    }
    if let Some(header) = header(&fields, delimiter, text, alphabet, fixed).filter(|_| delimiter != ':') {
        return Some(header);
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

/// The fields right after a line's puzzle (no CSV header over it) that
/// are puzzles of their own, as cells.
///
/// They are whole puzzles of its size with an empty cell, one after
/// another with nothing but full grids (their solutions) between, and one
/// of them is neither a state of the line's puzzle nor it a state of that
/// one (a value of one where the other has another, or a given of each the
/// other lacks). The puzzle's solution, or a state of it, beside it stays a
/// free field, and so does what follows another field (`4..7…:1:…`, a
/// comment's `# …`). Every value of the puzzles fits their side, none is
/// shaped as a region map ([`later_field`]), and the line's fields are no
/// bigger grid's rows written one after another (a 16×16's sixteen words
/// of sixteen cells, each a 4×4 by its length: k words of k cells).
pub(super) fn puzzles_beside(
    fields: &[(usize, String)],
    first: &[Token],
    alphabet: &Alphabet,
    fixed: Option<usize>,
) -> Vec<Cells> {
    let Some(n) = exact_sqrt(first.len()) else { return Vec::new() };
    let value = |t: &Token| match t.symbol {
        Symbol::Value(v) => Some(v),
        _ => None,
    };
    let fits = |tokens: &[Token]| tokens.iter().filter_map(value).all(|v| v <= n);
    let rows = fields.len() + 1 == first.len() && fields.iter().all(|(_, f)| f.trim().chars().count() == first.len());
    if !fits(first) || rows {
        return Vec::new();
    }
    // Most lines have none: a puzzle, its solution, a rating. Told at the
    // cost of a scan, before any field is read as cells.
    let open = |text: &str| match comma_numbers(text) {
        true => text.split(',').any(|p| matches!(p.trim(), "" | "0")),
        false => text.chars().any(|c| alphabet.read(c) == Symbol::Empty),
    };
    if !fields.iter().any(|(_, f)| open(f.trim()) && is_whole_field(f.trim(), alphabet, fixed)) {
        return Vec::new();
    }
    // The whole grids of the puzzle's size after it, up to another field:
    // the puzzles, and the solutions between them.
    let mut puzzles = Vec::new();
    for (column, field) in fields {
        let text = field.trim();
        let map = !matches!(later_field(text, first, alphabet, false), LaterField::Other);
        if map || !is_whole_field(text, alphabet, fixed) {
            break;
        }
        let indent = field.chars().count() - field.trim_start().chars().count();
        let cells = Cells { field: true, ..field_cells(text, column + indent, alphabet) };
        if cells.tokens.len() != first.len() || !fits(&cells.tokens) {
            break;
        }
        if cells.tokens.iter().any(|t| value(t).is_none()) {
            puzzles.push(cells);
        }
    }
    let apart = |cells: &Cells| {
        let pairs = || first.iter().zip(&cells.tokens).map(|(a, b)| (value(a), value(b)));
        let clash = pairs().any(|pair| matches!(pair, (Some(a), Some(b)) if a != b));
        let only_first = pairs().any(|pair| matches!(pair, (Some(_), None)));
        let only_other = pairs().any(|pair| matches!(pair, (None, Some(_))));
        clash || (only_first && only_other)
    };
    match puzzles.iter().any(apart) {
        true => puzzles,
        false => Vec::new(),
    }
}

/// Whether the fields after a jigsaw file's row's puzzle of `k` cells end
/// where its regions would be: none holds anything, or the one that does,
/// the last, is fewer than n labels of 0 to n − 1 ([`later_field`] names a
/// map cut after more). A classic row of such a file, its solution or a
/// word after its puzzle, is none.
pub(super) fn cut_before_regions(fields: &[(usize, String)], k: usize) -> bool {
    let Some(n) = exact_sqrt(k) else { return false };
    let filled: Vec<&str> = fields.iter().map(|(_, f)| f.trim()).filter(|f| !f.is_empty()).collect();
    match filled[..] {
        [] => true,
        [last] if fields.iter().rposition(|(_, f)| !f.trim().is_empty()) == Some(0) => {
            let labels: Vec<&str> = last.trim_end_matches(',').split(',').map(str::trim).collect();
            labels.len() < n && labels.iter().all(|l| l.parse::<usize>().is_ok_and(|v| v < n))
        }
        _ => false,
    }
}

/// A jigsaw file's row whose tabs became spaces, as an editor or a web
/// page copies it (janko.at's `id n givens regions solution source`): its
/// words, one a whole puzzle and a later one its regions (or regions
/// written wrong, or cut short with the line), or another puzzle
/// ([`puzzles_beside`]), are its fields, each with its 0-based column.
/// Read as a label before a puzzle, the regions were dropped and the
/// puzzle solved with boxes, a puzzle nobody wrote.
fn spaced_fields(text: &str, alphabet: &Alphabet, fixed: Option<usize>) -> Option<Vec<(usize, String)>> {
    if text.contains('\t') {
        return None;
    }
    let words = words_with_columns(text);
    let index = words.iter().position(|(_, w)| is_whole_field(w, alphabet, fixed))?;
    let (column, puzzle) = words[index];
    let givens = field_cells(puzzle, column - 1, alphabet).tokens;
    let last = words.len() - 1;
    let regions = (index + 1..words.len())
        .any(|i| !matches!(later_field(words[i].1, &givens, alphabet, i == last), LaterField::Other));
    let fields: Vec<(usize, String)> = words.iter().map(|&(column, word)| (column - 1, word.to_string())).collect();
    let beside = || !puzzles_beside(&fields[index + 1..], &givens, alphabet, fixed).is_empty();
    (regions || beside()).then_some(fields)
}

/// A row as a spreadsheet saves it: numbers separated by `,` or `;` (or
/// tabs, as a copied range pastes), an
/// empty field an empty cell (`5,3,,,7,,,,`), any field possibly in quotes
/// (`"5","",…`); a [`LineKind::Separator`] when every field is empty. Four
/// cells at least, so that a stray `1,,` is no row; never under a CSV
/// header that names the puzzle column, where an empty field is an empty
/// column, unless its fields are not the table's: of another delimiter,
/// or more than one more or fewer than the header's (a grid's rows of nine
/// cells under `id,puzzle`), with more in them than a first field (an id
/// before empty fields is the table's row that lacks its puzzle). With
/// `--symbols` the cells are its symbols, one a field (`w,x,,z`), not
/// numbers. A row may start with its label (`Row 1,5,3,…`,
/// or any first field under an [`LineKind::IndexHeader`]), and a header may
/// number or name the columns.
fn spreadsheet_row(fields: &[(usize, &str)], delimiter: char, alphabet: &Alphabet, under: Under) -> Option<LineKind> {
    // A row of the table: its width, or an id and nothing else (`7,,,`, the
    // puzzle missing), whatever its width.
    let id_only = fields
        .split_first()
        .is_some_and(|((_, id), rest)| !id.trim().is_empty() && rest.iter().all(|(_, f)| f.trim().is_empty()));
    let table_row = under.shape.is_none_or(|(d, k)| d == delimiter && (k.abs_diff(fields.len()) <= 1 || id_only));
    if (under.named && table_row) || !matches!(delimiter, ',' | ';' | '\t') || fields.len() < 4 {
        return None;
    }
    // A field of one symbol of `--symbols`: a cell, never a label or a
    // column's name (`w,x,y,z` is a row of a grid written in `wxyz`).
    let symbol = |field: &str| custom_symbol(field, alphabet);
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
        // Columns named by every symbol of `--symbols` in order: no row
        // (it would have a cell more than the alphabet has symbols).
        let named = match columns.iter().all(|(_, f)| symbol(f.trim())) {
            true => {
                columns.len() == alphabet.len()
                    && columns.iter().enumerate().all(|(i, (_, f))| {
                        f.trim().chars().next().map(|c| alphabet.read(c)) == Some(Symbol::Value(i + 1))
                    })
            }
            false => columns.iter().all(|(_, f)| row_label(f.trim())),
        };
        if corner.trim().is_empty() && columns.len() >= 4 && named {
            return Some(LineKind::IndexHeader(columns.len()));
        }
        if corner.trim().is_empty() && columns.len() >= 4 && numbered {
            // Numbers are no cells under `--symbols`: only a header.
            if alphabet.is_custom() && !columns.iter().any(|(_, f)| symbol(f.trim())) {
                return Some(LineKind::IndexHeader(columns.len()));
            }
            header = u16::try_from(columns.len()).ok();
        }
    }
    // The row's label, before its cells.
    let label = match fields.first() {
        Some((_, first)) if row_label(first.trim()) && !symbol(first.trim()) && !all_empty => Some(first.trim()),
        _ => None,
    };
    // A letter alone whose value fits a row of the line's fields (`A` to
    // `G` in a 16×16 written with letters past 9): a cell, not a word.
    let fitting_letter = |word: &str| {
        let mut chars = word.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() && !alphabet.is_custom() => match alphabet.read(c) {
                Symbol::Value(v) if v <= fields.len() => Some(Symbol::Value(v)),
                _ => None,
            },
            _ => None,
        }
    };
    let label_cell = match (label, fields.first()) {
        (Some(label), Some((start, field))) if label.chars().count() <= 4 => {
            let indent = field.chars().count() - field.trim_start().chars().count();
            let column = (start + indent + 1) as u32;
            let symbol = fitting_letter(label).unwrap_or(Symbol::Unknown);
            Some(Box::new(Token { column, text: TokenText::Word(label.into()), symbol }))
        }
        _ => None,
    };
    let fields = &fields[usize::from(label.is_some())..];
    if fields.len() < 4 {
        return None;
    }
    // A field of one mark that is no cell (`%`, `?`) is a cell written
    // wrong, to be named, while most of the row is cells: the row is not
    // lost as a title. So is a short word that is no number (`x`, `1O`,
    // `3.5`), while the row is mostly numbers that fit it: at most a
    // quarter of it.
    let mut strays = 0;
    let mut words = 0;
    let mut stray_word = |word: &str| {
        let short = word.chars().count() <= 4;
        words += usize::from(short);
        short.then_some(Symbol::Unknown)
    };
    let mut tokens: Vec<Token> = fields
        .iter()
        .map(|&(start, field)| {
            let word = field.trim();
            let indent = field.chars().count() - field.trim_start().chars().count();
            let mut chars = word.chars();
            let symbol = match word.parse::<usize>() {
                _ if word.is_empty() || word == "." => Symbol::Empty,
                _ if alphabet.is_custom() => match (chars.next(), chars.next()) {
                    (Some(c), None) if alphabet.read(c) != Symbol::Unknown => alphabet.read(c),
                    (Some(c), None) if !c.is_alphanumeric() && c != '"' => {
                        strays += 1;
                        Symbol::Unknown
                    }
                    _ => stray_word(word)?,
                },
                Ok(0) => Symbol::Empty,
                Ok(v) if cell_number(word) => Symbol::Value(v),
                _ => match (fitting_letter(word), chars.next(), chars.next()) {
                    (Some(letter), ..) => letter,
                    (None, Some(c), None) if !c.is_alphanumeric() && c != '"' => {
                        strays += 1;
                        match alphabet.read(c) {
                            Symbol::Empty => Symbol::Empty,
                            _ => Symbol::Unknown,
                        }
                    }
                    _ => stray_word(word)?,
                },
            };
            Some(Token { column: (start + indent + 1) as u32, text: TokenText::Word(word.into()), symbol })
        })
        .collect::<Option<_>>()?;
    // Words among numbers that a row cannot hold (`2024,11,29,ok`) are a title.
    let fits = |t: &Token| !matches!(t.symbol, Symbol::Value(v) if v > tokens.len());
    if (strays + words) * 2 > tokens.len() || words * 4 > tokens.len() || (words > 0 && !tokens.iter().all(fits)) {
        return None;
    }
    // A whole puzzle on one line with a delimiter after its last cell
    // (`…,7,9,`): that delimiter ends the line, it opens no cell. (Three
    // such lines were read as rows of an 82×82 block: one record.)
    let cut = match fields.split_last() {
        Some(((_, last), cells)) if last.is_empty() && is_whole_count(cells.len()) => tokens.pop().map(Box::new),
        _ => None,
    };
    let cells = Cells { cut, columns: header, delimiter: Some(delimiter), label_cell, ..Cells::new(tokens, true) };
    Some(match label {
        _ if all_empty => LineKind::Separator(cells),
        Some(label) => LineKind::LabelledRow(echo(label), cells),
        None => LineKind::Cells(cells),
    })
}

/// Whether `field` is one symbol of a `--symbols` alphabet, or its `.`.
fn custom_symbol(field: &str, alphabet: &Alphabet) -> bool {
    let mut chars = field.chars();
    alphabet.is_custom()
        && matches!((chars.next(), chars.next()), (Some(c), None) if alphabet.read(c) != Symbol::Unknown)
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
pub(super) fn is_whole_field(text: &str, alphabet: &Alphabet, fixed: Option<usize>) -> bool {
    let k = text.split(',').count();
    is_whole_puzzle(text, alphabet, fixed)
        || (comma_numbers(text) && fixed.map_or(is_whole_count(k), |n| n.checked_mul(n) == Some(k)))
}

/// What a field after a row's puzzle holds, read as a jigsaw file's
/// regions or solution (janko.at's `id n givens regions solution source`).
#[derive(Debug)]
pub(super) enum LaterField {
    /// No regions: not n² labels separated by commas that look like a map,
    /// or the puzzle's solution (n² values that keep its givens), or the
    /// puzzle again or a state of it (`0` empty).
    Other,
    /// The puzzle's regions, numbered 0..n in order of first appearance.
    Regions(Vec<u32>),
    /// n² labels, give or take a row, that are no region map of the puzzle
    /// (a region too large, a label missing or too many, regions numbered
    /// from 1), nor its solution.
    Wrong {
        /// Where, as a 0-based column in the field.
        at: usize,
        /// The field's labels.
        count: usize,
        /// What is wrong.
        message: String,
    },
}

/// Read `field` as [`LaterField`] for the puzzle of cells `givens` (n²).
/// Labels are numbers, `0` to n − 1 as janko.at writes them, or letters;
/// n values that keep the givens are the solution, and n values that do
/// not are named, not taken for regions numbered from 1: a solution
/// written wrong would make a jigsaw nobody set. The line's `last` field
/// may be regions cut short with the line: n or more labels `0` to n − 1,
/// a `0` among them, none on more than n cells, but not a whole map's.
pub(super) fn later_field(field: &str, givens: &[Token], alphabet: &Alphabet, last: bool) -> LaterField {
    let k = givens.len();
    let Some(n) = exact_sqrt(k).filter(|&n| n >= 2) else { return LaterField::Other };
    // Cut after a comma, the last field ends in one.
    let field = if last { field.trim_end().trim_end_matches(',') } else { field };
    let parts: Vec<&str> = field.split(',').map(str::trim).collect();
    let label = |p: &&str| !p.is_empty() && p.chars().count() <= 3 && p.chars().all(char::is_alphanumeric);
    if !parts.iter().all(label) {
        return LaterField::Other;
    }
    let cut = || {
        let numbers: Option<Vec<usize>> = parts.iter().map(|p| p.parse().ok().filter(|&v| v < n)).collect();
        numbers.is_some_and(|numbers| numbers.contains(&0) && numbers.iter().counts().values().all(|&c| c <= n))
    };
    if last && (n..k).contains(&parts.len()) && cut() {
        let message = format!(
            "the region map stops after {} labels, expected {k} (0 to {}, each {n} times; the line may be cut short)",
            parts.len(),
            n - 1
        );
        return LaterField::Wrong { at: field.trim_end().chars().count(), count: parts.len(), message };
    }
    if parts.len().abs_diff(k) > n {
        return LaterField::Other;
    }
    // Where each part starts in the field, in characters.
    let mut starts = Vec::with_capacity(parts.len());
    let mut at = 0;
    for part in field.split(',') {
        starts.push(at + part.chars().take_while(|c| c.is_whitespace()).count());
        at += part.chars().count() + 1;
    }
    let value = |p: &str| match p.parse::<usize>() {
        Ok(v) => Some(v),
        Err(_) => match alphabet.read(p.chars().next()?) {
            Symbol::Value(v) if p.chars().count() == 1 => Some(v),
            _ => None,
        },
    };
    let values: Option<Vec<usize>> = parts.iter().map(|p| value(p).filter(|v| (1..=n).contains(v))).collect();
    if let Some(values) = values.filter(|v| v.len() == k) {
        let clash = givens.iter().zip(&values).enumerate().find_map(|(i, (t, &v))| match t.symbol {
            Symbol::Value(given) if given != v => Some((i, given)),
            _ => None,
        });
        return match clash {
            None => LaterField::Other,
            Some((i, given)) => {
                let message = format!(
                    "its values 1 to {n} are not the puzzle's solution (r{}c{} is given {given}, here {}), and regions are numbered from 0 (0 to {}, each {n} times)",
                    i / n + 1,
                    i % n + 1,
                    values[i],
                    n - 1
                );
                LaterField::Wrong { at: starts[i], count: parts.len(), message }
            }
        };
    }
    // Labels that look like no map (about n of them, most about n times)
    // are none; a whole map is the regions.
    if !is_map(&parts, n) {
        return LaterField::Other;
    }
    let e = match read_region_map(&field.replace(',', " "), Some(n)) {
        Ok(map) => return LaterField::Regions(map),
        Err(e) => e,
    };
    // The puzzle again, or a state of it (`4,0,0,…`: 0 empty, the givens
    // kept), is no map written wrong.
    let numbers: Option<Vec<usize>> = parts.iter().map(|p| p.parse().ok().filter(|&v| v <= n)).collect();
    let kept =
        |numbers: &[usize]| givens.iter().zip(numbers).all(|(t, &v)| !matches!(t.symbol, Symbol::Value(g) if g != v));
    if numbers.is_some_and(|numbers| numbers.len() == k && kept(&numbers)) {
        return LaterField::Other;
    }
    let message = format!("no region map of the {n}x{n} puzzle: {}", e.message);
    LaterField::Wrong { at: e.at.map_or(0, |at| at.column - 1), count: parts.len(), message }
}

/// Whether `labels` look like a region map of side n, right or a little
/// wrong: n labels give or take one, all but two of them on n cells give or
/// take two.
fn is_map(labels: &[&str], n: usize) -> bool {
    let counts = labels.iter().counts();
    let about = |count: usize| count.abs_diff(n) <= 2;
    counts.len().abs_diff(n) <= 1 && counts.values().filter(|&&count| about(count)).count() + 2 >= counts.len()
}

/// The cells of a field or word (numbers separated by commas, or symbols),
/// whose first character is at 0-based column `offset` of its line.
pub(super) fn field_cells(text: &str, offset: usize, alphabet: &Alphabet) -> Cells {
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

/// A row after its label and a mark (`Row 1: 6 . . . . . 8 . 3`, `R1:
/// 600000803`, `Line 1 - 6.....8.3`, `A) 1 0 12 0 …`, `1: 530070000`): a
/// labelled row, as a spreadsheet writes one (`Row 1,6,,,…`), so that rows
/// labelled alike make a grid. Four cells at least, no words, and at most
/// a quarter of them no symbol: else the line is a title (`Puzzle 3: two
/// stars`).
fn marked_row(text: &str, alphabet: &Alphabet) -> Option<LineKind> {
    let (at, mark) = text.char_indices().find(|&(_, c)| matches!(c, ':' | '-' | ')'))?;
    // Letters and digits (`Row 1`, `R1`), never cells (`D..:...:H.E`).
    let label = text[..at].trim();
    let plain = label.chars().all(|c| c.is_alphanumeric() || c == ' ');
    // A row's number alone (`1:`, `12)`), its mark right after it; never
    // before a dash, which is a cell's (`5 -1 -1 …`, `1 - 12 - …`).
    let number = (1..=4).contains(&label.len())
        && label.bytes().all(|b| b.is_ascii_digit())
        && mark != '-'
        && !text[..at].ends_with(' ');
    if !(row_label(label) || number) || !plain || label.split_whitespace().count() > 2 {
        return None;
    }
    let after = at + mark.len_utf8();
    let rest = &text[after..];
    // Letters are symbols too (`from The Times`): words make a title.
    if is_text(rest, alphabet) {
        return None;
    }
    let cells = tokenize(rest, text[..after].chars().count(), alphabet);
    // A cell written wrong (`?`) is named where the rows make a grid.
    let unknown = cells.tokens.iter().filter(|t| t.symbol == Symbol::Unknown).count();
    (cells.tokens.len() >= 4 && 4 * unknown <= cells.tokens.len()).then(|| {
        let title = echo(text.trim());
        LineKind::LabelledRow(echo(label), Cells { label: Some(title), ..cells })
    })
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
    if let Some(&(column, word)) = words[..whole].iter().find(|(_, w)| holds_damaged(w)) {
        return match stuck_word(word, alphabet, fixed) {
            Some((kind, at)) => Some(LineKind::Broken(kind, Some(column - 1 + at))),
            None => damaged_puzzle(text, alphabet).map(LineKind::Cells),
        };
    }
    let (column, word) = words[whole];
    let mut cells = tokenize(word, column - 1, alphabet);
    cells.label = label_before(text, column);
    Some(LineKind::Cells(cells))
}

/// Whether a word is a number past 9 written plainly (`12`, not `012`):
/// what makes a row, and a grid, one of numbers.
pub(super) fn past_nine(word: &str) -> bool {
    word.len() > 1 && !word.starts_with('0') && word.bytes().all(|b| b.is_ascii_digit())
}

/// The cells of `text`, whose first character is at 0-based column `offset`
/// of its line: rows of whitespace-separated numbers, or one cell per symbol.
pub(super) fn tokenize(text: &str, offset: usize, alphabet: &Alphabet) -> Cells {
    // Rows of whitespace-separated numbers: several words, all numbers or `.`,
    // at least one longer than a digit. With the default alphabet a row of
    // spaced single digits and dots reads the same either way, so it counts as
    // numbers too: a row of 64 dots is a row of a 64x64 grid, not a puzzle.
    // Box rules (`|`) between the numbers are no part of them (`14 | 3`,
    // `14|3`) when every number could be a cell of a row that long: a line of
    // digit runs between bars (`| 1234 | 3412 |`) is one digit a cell.
    let ruled = text.contains('|');
    let words = ruled_words(text);
    let digits = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    // A negative number (`-1` for empty, as some programs write) is a word
    // of its own, named in the error: not a `-` box rule before a given.
    let negative = |w: &str| w.strip_prefix('-').is_some_and(digits);
    let numeric = |w: &str| w == "." || digits(w) || negative(w);
    let in_row = |w: &str| w == "." || negative(w) || w.parse::<usize>().is_ok_and(|v| v <= words.len());
    // An empty cell: `.`, or another mark the alphabet takes for one (`_`,
    // `*`; a row of them and digits alone reads a character a cell, below).
    let empty = |w: &str| {
        let mut chars = w.chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if alphabet.read(c) == Symbol::Empty)
    };
    // Two or three numbers are no row (a grid has four or more) and no
    // puzzle: digits in groups (`12 34`, `10 00`, `000 000 001`) are cells
    // side by side.
    // So are groups of one width past a digit whose numbers run past the
    // row's length and whose digits make a whole puzzle (`600 000 803 …`:
    // 27 groups of three, 81 cells).
    let width = words.first().map_or(0, |(_, w)| w.len());
    let grouped = (words.len() < 4 && words.iter().any(|(_, w)| w.len() > 1))
        || (width > 1
            && words.iter().all(|(_, w)| w.len() == width && digits(w))
            && words.iter().any(|(_, w)| w.parse::<usize>().is_ok_and(|v| v > words.len()))
            && is_whole_count(width * words.len()));
    // Leading zeros pad numbers to a width (`06`, `016`); far wider than
    // the row's values need (`0000 0000 0001 0000`), they are cells too.
    let padded_past = |w: &str| w.len() > 1 && w.starts_with('0') && w.len() > words.len().to_string().len() + 1;
    // A word that is no number in a row that is surely of numbers (`x`,
    // `1O`, `3.5` or `-` among 16) is a cell written wrong, an error at its
    // column: read a character a cell, the row would have a wrong length
    // and the error would name no cell. Surely: a number past 9 (not a
    // padded one: `01 02 03 04 05 AB` is a 12×12 row in pairs), every
    // number at most the row's length, and such words a quarter of the row
    // at most, each as short as a number (a whole puzzle after an index is
    // no cell) and the first no label (`A 10 0 …`).
    // One mark, the same word in two places or more (`1 x 12 x x …`, `1 _
    // 12 _ _ …`), is the row's empty cells however many, even first: a
    // label is there once.
    let stray = |w: &str| !numeric(w);
    let stray_words = words.iter().map(|(_, w)| *w).filter(|w| stray(w));
    let strays = stray_words.clone().count();
    let mark = strays >= 2 && stray_words.clone().all_equal() && stray_words.take(1).all(|w| w.chars().count() == 1);
    let surely_numbers = (4 * strays <= words.len() || mark)
        && words.iter().any(|(_, w)| past_nine(w))
        && words.iter().all(|(_, w)| if stray(w) { w.chars().count() <= 4 } else { in_row(w) })
        && !words.first().is_some_and(|(_, w)| stray(w) && w.starts_with(char::is_alphabetic) && !mark);
    if words.len() >= 2
        && !grouped
        && words.iter().all(|(_, w)| !padded_past(w))
        && ((strays == 0 && (!ruled || words.iter().all(|(_, w)| in_row(w)))) || surely_numbers)
        && (!alphabet.is_custom() || words.iter().any(|(_, w)| w.len() > 1))
    {
        let tokens = words
            .into_iter()
            .map(|(column, w)| {
                let symbol = match w.parse::<usize>() {
                    _ if empty(w) => Symbol::Empty,
                    _ if negative(w) || stray(w) => Symbol::Unknown,
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

/// The cells of a row read word by word, whichever way it was read:
/// characters side by side make one word. A word of one character is that
/// symbol, a longer one of digits a number (not under `--symbols`), any
/// other unknown.
pub(super) fn word_cells(tokens: &[Token], alphabet: &Alphabet) -> Vec<Token> {
    let mut words: Vec<(u32, String)> = Vec::new();
    let mut end = 0;
    for token in tokens {
        match (&token.text, words.last_mut()) {
            (TokenText::Char(ch), Some((_, word))) if token.column == end => word.push(*ch),
            (text, _) => words.push((token.column, text.to_string())),
        }
        end = token.column + 1;
    }
    let symbol = |word: &str| {
        let mut chars = word.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => alphabet.read(c),
            _ if alphabet.is_custom() || !word.bytes().all(|b| b.is_ascii_digit()) => Symbol::Unknown,
            _ => match word.parse::<usize>() {
                Ok(0) => Symbol::Empty,
                Ok(v) => Symbol::Value(v),
                Err(_) => Symbol::Value(usize::MAX),
            },
        }
    };
    words
        .into_iter()
        .map(|(column, word)| Token { column, symbol: symbol(&word), text: TokenText::Word(word.into()) })
        .collect()
}

/// The cells of a row read a character a cell, whichever way it was read.
pub(super) fn char_cells(tokens: &[Token], alphabet: &Alphabet) -> Vec<Token> {
    tokens
        .iter()
        .flat_map(|token| match &token.text {
            TokenText::Char(_) => vec![token.clone()],
            TokenText::Word(word) => (token.column..)
                .zip(word.chars())
                .map(|(column, ch)| Token { column, text: TokenText::Char(ch), symbol: alphabet.read(ch) })
                .collect(),
        })
        .collect()
}

/// A word of a candidate grid's row, with its 1-based column.
pub(super) struct CandidateWord {
    pub(super) column: usize,
    pub(super) text: String,
    /// Its digits 1-9, if it is all such digits in increasing order; else empty.
    pub(super) digits: Vec<usize>,
}

impl CandidateWord {
    /// Whether it is a cell's candidates in an m×m grid: digits 1..=m in
    /// increasing order, as every tool writes them (so that a finished row,
    /// `3412`, is no cell's candidates).
    pub(super) fn fits(&self, m: usize) -> bool {
        !self.digits.is_empty() && self.digits.iter().all(|&d| d <= m)
    }
}

/// The words of a candidate grid's row (split at whitespace and box rules;
/// characters side by side are one word), each with its digits if it is
/// digits 1-9 in increasing order; none for a line that is no such row even
/// with a fault (more than 18 words, or a word of more than 18 characters),
/// so that a line of a puzzle is given up at once.
pub(super) fn candidate_words(cells: &Cells) -> Option<Vec<CandidateWord>> {
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

/// The words of `text` apart by white space or a box rule `|` (`14 | 3`,
/// `14|3`), each with its 1-based column.
fn ruled_words(text: &str) -> Vec<(usize, &str)> {
    words_with_columns(text)
        .into_iter()
        .flat_map(|(column, word)| {
            word.split('|').scan(column, |at, piece| {
                let start = *at;
                *at += piece.chars().count() + 1;
                Some((start, piece))
            })
        })
        .filter(|(_, piece)| !piece.is_empty())
        .collect()
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
