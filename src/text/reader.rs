//! Reading puzzle text: one puzzle per line, blocks of rows, or rows of numbers, streamed.
//!
//! The forms (see README):
//! - a line of n² symbols (`.`, `0`, `_` empty; 1-9 then A-Z);
//! - n rows of n symbols with any `|`, `+`, `-` and spaces between, a blank line or
//!   the n-th row ending the puzzle;
//! - rows (or one line) of whitespace-separated numbers, needed past n = 35;
//! - `#` comment lines; title lines such as Project Euler's `Grid 01`.
//!
//! Without a fixed size, a line of k = m² cells is ambiguous: a whole m×m puzzle
//! or the first row of a k×k one. It starts a block when the next k − 1 lines
//! have k cells too (for k ≥ 16, only if the block is not followed by yet another
//! such line, as in a file of 4×4 puzzles); otherwise it is a whole puzzle.

use std::collections::VecDeque;
use std::io::BufRead;

use crate::error::{ParseError, ParseErrorKind, Position};
use crate::model::geometry::{Value, MAX_SIZE};
use crate::model::puzzle::{GeometrySpec, Grid, Puzzle};
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

/// A cell as written.
#[derive(Clone, Debug)]
struct Token {
    column: usize,
    text: TokenText,
    symbol: Symbol,
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
            TokenText::Word(w) => f.write_str(w),
        }
    }
}

#[derive(Debug)]
enum LineKind {
    Blank,
    Comment,
    Title(String),
    /// Only separators: `------+------+------`.
    Rule,
    Cells(Vec<Token>),
    /// Unreadable bytes or an I/O error.
    Broken(String),
}

/// Streams the puzzles of one input.
pub struct PuzzleReader<'a, R> {
    input: R,
    source: String,
    alphabet: &'a Alphabet,
    spec: &'a mut GeometrySpec,
    line_no: usize,
    pending: VecDeque<(usize, LineKind)>,
    /// Within a paragraph already found to hold one puzzle per line: that line length.
    line_mode: Option<usize>,
    title: Option<String>,
    finished: bool,
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
            line_mode: None,
            title: None,
            finished: false,
            buf: Vec::new(),
        }
    }

    fn read_line(&mut self) -> Option<(usize, LineKind)> {
        if self.finished {
            return None;
        }
        self.buf.clear();
        match self.input.read_until(b'\n', &mut self.buf) {
            Ok(0) => {
                self.finished = true;
                None
            }
            Ok(_) => {
                self.line_no += 1;
                let mut bytes: &[u8] = &self.buf;
                if self.line_no == 1 {
                    bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
                }
                let kind = match std::str::from_utf8(bytes) {
                    Ok(text) => classify(text, self.alphabet),
                    Err(e) => LineKind::Broken(format!("invalid UTF-8 at byte {}", e.valid_up_to() + 1)),
                };
                Some((self.line_no, kind))
            }
            Err(e) => {
                self.finished = true;
                self.line_no += 1;
                Some((self.line_no, LineKind::Broken(e.to_string())))
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

    /// Whether a line of `k` cells starts a block of k rows (rather than being a whole puzzle).
    fn starts_block(&mut self, k: usize, symbols: bool) -> bool {
        if let Some(n) = self.spec.fixed_size() {
            return k != n * n && k <= 2 * n;
        }
        if self.line_mode == Some(k) {
            return false;
        }
        // A row of single symbols cannot be wider than the alphabet.
        if k == 1 || k > MAX_SIZE || (symbols && k > self.alphabet.len()) {
            return false;
        }
        let m = (1..=k).find(|m| m * m >= k).unwrap_or(k);
        if m * m != k {
            return true;
        }
        // A whole m×m puzzle that this spec refuses anyway (a prime m without
        // --latin): two or more such rows ended by a blank line (or the end) are
        // a block cut short.
        let refused = self.spec.geometry_for(m).is_err();
        // Look ahead: k − 1 more rows of k cells (rules and comments between are fine).
        let (mut rows, mut i) = (1, 0);
        while rows < k {
            match self.peek(i) {
                Some((_, LineKind::Rule | LineKind::Comment)) => {}
                Some((_, LineKind::Cells(t))) if t.len() == k => rows += 1,
                Some((_, LineKind::Cells(_))) => return false,
                _ => return refused && rows >= 2,
            }
            i += 1;
        }
        if k < 16 {
            return true;
        }
        loop {
            match self.peek(i) {
                Some((_, LineKind::Rule | LineKind::Comment)) => i += 1,
                Some((_, LineKind::Cells(t))) => return t.len() != k,
                _ => return true,
            }
        }
    }

    fn finish(&mut self, line: usize, rows: usize, tokens: Vec<(usize, Token)>, error: Option<ParseError>) -> Entry {
        let name = self.title.take();
        let position = self.at(line, None);
        let puzzle = match error {
            Some(e) => Err(e),
            None => self.resolve(line, rows, &tokens),
        };
        Entry { position, name, puzzle }
    }

    /// Turn the tokens of a side-`n` puzzle into a puzzle of the spec's geometry.
    fn resolve(&mut self, line: usize, n: usize, tokens: &[(usize, Token)]) -> Result<Puzzle, ParseError> {
        let geometry = self
            .spec
            .geometry_for(n)
            .map_err(|e| ParseError { position: self.at(line, None), kind: ParseErrorKind::Geometry(e) })?;
        let mut cells = Vec::with_capacity(n * n);
        for (line, token) in tokens {
            let value = match token.symbol {
                Symbol::Empty => None,
                Symbol::Value(number) => match Value::new_checked(number, n) {
                    Some(v) => Some(v),
                    None => {
                        return Err(ParseError {
                            position: self.at(*line, Some(token.column)),
                            kind: ParseErrorKind::ValueOutOfRange {
                                symbol: token.text.to_string(),
                                n,
                                expected: self.alphabet.expected(n),
                            },
                        })
                    }
                },
                Symbol::Unknown => {
                    return Err(ParseError {
                        position: self.at(*line, Some(token.column)),
                        kind: ParseErrorKind::UnknownSymbol {
                            symbol: token.text.to_string(),
                            expected: self.alphabet.expected(n),
                        },
                    })
                }
            };
            cells.push(value);
        }
        let givens = Grid::from_cells(n, cells).ok_or_else(|| ParseError {
            position: self.at(line, None),
            kind: ParseErrorKind::NotSquare { count: tokens.len() },
        })?;
        Ok(Puzzle::new(geometry, givens).expect("geometry_for(n) has side n"))
    }
}

impl<R: BufRead> Iterator for PuzzleReader<'_, R> {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        loop {
            let (line, kind) = self.next_line()?;
            match kind {
                LineKind::Blank => {
                    self.line_mode = None;
                }
                LineKind::Comment | LineKind::Rule => {}
                LineKind::Title(title) => {
                    self.line_mode = None;
                    self.title = Some(title);
                }
                LineKind::Broken(message) => {
                    let error = ParseError { position: self.at(line, None), kind: ParseErrorKind::Io(message) };
                    return Some(self.finish(line, 0, Vec::new(), Some(error)));
                }
                LineKind::Cells(tokens) => {
                    let k = tokens.len();
                    let symbols = tokens.iter().all(|t| matches!(t.text, TokenText::Char(_)));
                    if !self.starts_block(k, symbols) {
                        self.line_mode = Some(k);
                        return Some(self.line_puzzle(line, tokens));
                    }
                    return Some(self.block_puzzle(line, tokens));
                }
            }
        }
    }
}

impl<R: BufRead> PuzzleReader<'_, R> {
    fn line_puzzle(&mut self, line: usize, tokens: Vec<Token>) -> Entry {
        let k = tokens.len();
        let n = (1..=k).find(|m| m * m >= k).unwrap_or(k);
        let error = match self.spec.fixed_size() {
            Some(fixed) if fixed * fixed != k => Some(ParseErrorKind::RowLength { found: k, expected: fixed * fixed }),
            _ if n * n != k => Some(ParseErrorKind::NotSquare { count: k }),
            _ => None,
        }
        .map(|kind| ParseError { position: self.at(line, None), kind });
        let tokens = tokens.into_iter().map(|t| (line, t)).collect();
        self.finish(line, n, tokens, error)
    }

    fn block_puzzle(&mut self, first: usize, row: Vec<Token>) -> Entry {
        let n = self.spec.fixed_size().unwrap_or(row.len());
        let mut error = None;
        if row.len() != n {
            error = Some(ParseError {
                position: self.at(first, None),
                kind: ParseErrorKind::RowLength { found: row.len(), expected: n },
            });
        }
        let mut tokens: Vec<(usize, Token)> = row.into_iter().map(|t| (first, t)).collect();
        let mut rows = 1;
        while rows < n {
            match self.peek(0) {
                Some((_, LineKind::Comment | LineKind::Rule)) => {
                    self.next_line();
                }
                Some((_, LineKind::Cells(_))) => {
                    let Some((line, LineKind::Cells(row))) = self.next_line() else { unreachable!() };
                    if row.len() != n && error.is_none() {
                        error = Some(ParseError {
                            position: self.at(line, None),
                            kind: ParseErrorKind::RowLength { found: row.len(), expected: n },
                        });
                    }
                    tokens.extend(row.into_iter().map(|t| (line, t)));
                    rows += 1;
                }
                _ => {
                    if error.is_none() {
                        let line = self.line_no.max(first);
                        error = Some(ParseError {
                            position: self.at(line, None),
                            kind: ParseErrorKind::MissingRows { found: rows, expected: n },
                        });
                    }
                    break;
                }
            }
        }
        self.finish(first, n, tokens, error)
    }
}

fn is_separator(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, '|' | '+' | '-')
}

/// A title line: a word and a number, as Project Euler's `Grid 01`.
fn title(text: &str) -> Option<String> {
    let mut words = text.split_whitespace();
    let (word, number) = (words.next()?, words.next()?);
    let is_title = words.next().is_none()
        && word.len() > 1
        && word.chars().all(|c| c.is_ascii_alphabetic())
        && number.chars().all(|c| c.is_ascii_digit());
    is_title.then(|| text.trim().to_string())
}

fn classify(text: &str, alphabet: &Alphabet) -> LineKind {
    let text = text.trim_end_matches(['\n', '\r']);
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return LineKind::Blank;
    }
    if trimmed.starts_with('#') {
        return LineKind::Comment;
    }
    if let Some(t) = title(trimmed) {
        return LineKind::Title(t);
    }
    // Rows of whitespace-separated numbers: several words, all numbers or `.`,
    // at least one longer than a digit. With the default alphabet a row of
    // spaced single digits and dots reads the same either way, so it counts as
    // numbers too: a row of 64 dots is a row of a 64x64 grid, not a puzzle.
    let words: Vec<(usize, &str)> = words_with_columns(text);
    let numeric = |w: &str| w == "." || (!w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()));
    if words.len() >= 2
        && words.iter().all(|(_, w)| numeric(w))
        && (!alphabet.is_custom() || words.iter().any(|(_, w)| w.len() > 1))
    {
        let tokens = words
            .into_iter()
            .map(|(column, w)| {
                let symbol = match w.parse::<usize>() {
                    _ if w == "." => Symbol::Empty,
                    Ok(0) => Symbol::Empty,
                    Ok(v) => Symbol::Value(v),
                    Err(_) => Symbol::Value(usize::MAX),
                };
                Token { column, text: TokenText::Word(w.into()), symbol }
            })
            .collect();
        return LineKind::Cells(tokens);
    }
    let tokens: Vec<Token> = text
        .chars()
        .enumerate()
        .filter(|(_, ch)| !is_separator(*ch))
        .map(|(i, ch)| Token { column: i + 1, text: TokenText::Char(ch), symbol: alphabet.read(ch) })
        .collect();
    if tokens.is_empty() {
        LineKind::Rule
    } else {
        LineKind::Cells(tokens)
    }
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
mod tests {
    use super::*;
    use crate::model::geometry::Geometry;
    use std::sync::Arc;

    fn read(text: &str) -> Vec<Entry> {
        read_all(text, "t", &Alphabet::default(), &mut GeometrySpec::classic())
    }

    fn givens(entry: &Entry) -> String {
        let p = entry.puzzle.as_ref().unwrap();
        p.givens().cells().iter().map(|v| v.map_or('.', |v| char::from_digit(v.number() as u32, 36).unwrap())).collect()
    }

    const LINE: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn line_format_one_puzzle_per_line() {
        let entries = read(&format!("{LINE}\r\n# comment\n{}\n", LINE.replace('.', "0")));
        assert_eq!(entries.len(), 2);
        assert_eq!(givens(&entries[0]), LINE);
        assert_eq!(givens(&entries[1]), LINE);
        assert_eq!(entries[1].position.line, 3);
    }

    #[test]
    fn block_format_with_borders() {
        let block = "4 . . | . . . | 8 . 5\n. 3 . | . . . | . . .\n. . . | 7 . . | . . .\n------+-------+------\n\
                     . 2 . | . . . | . 6 .\n. . . | . 8 . | 4 . .\n. . . | . 1 . | . . .\n------+-------+------\n\
                     . . . | 6 . 3 | . 7 .\n5 . . | 2 . . | . . .\n1 . 4 | . . . | . . .\n";
        let entries = read(&format!("\u{feff}{block}\n{block}"));
        assert_eq!(entries.len(), 2);
        assert_eq!(givens(&entries[0]), LINE);
        assert_eq!(entries[1].position.line, 13);
    }

    #[test]
    fn euler_grids_read_with_their_titles() {
        let text = "Grid 01\n003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n005010300\nGrid 02\n200080300\n060070084\n030500209\n000105408\n000000000\n402706000\n301007040\n720040060\n004010003\n";
        let entries = read(text);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].name.as_deref(), Some("Grid 02"));
        assert!(givens(&entries[0]).starts_with("..3.2.6..9"));
    }

    #[test]
    fn rows_of_numbers() {
        let text = "1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 16\n".repeat(16);
        let entries = read(&text);
        assert_eq!(entries.len(), 1);
        let p = entries[0].puzzle.as_ref().unwrap();
        assert_eq!(p.size(), 16);
        assert_eq!(p.givens().cells()[15].unwrap().number(), 16);
    }

    #[test]
    fn a_first_row_of_dots_still_starts_a_big_block() {
        let blank = format!("{}\n", vec!["."; 36].join(" "));
        let row = format!("{}\n", (1..=36).map(|v| v.to_string()).collect::<Vec<_>>().join(" "));
        let entries = read(&(blank.repeat(35) + &row));
        assert_eq!(entries.len(), 1);
        let p = entries[0].puzzle.as_ref().unwrap();
        assert_eq!((p.size(), p.givens().filled_count()), (36, 36));
    }

    #[test]
    fn small_line_puzzles_are_not_mistaken_for_a_block() {
        let text = "1...\n".repeat(3) + &"...2..3.4..1....\n".repeat(20);
        let entries = read(&text);
        // Three 4-cell lines are not a 4x4 block (that needs four rows): each is
        // a 2x2 puzzle, which the classic spec refuses (2 is prime) but answers.
        assert_eq!(entries.len(), 3 + 20);
        assert!(entries[..3].iter().all(|e| e.puzzle.is_err()));
        assert!(entries[3..].iter().all(|e| e.puzzle.as_ref().unwrap().size() == 4));
    }

    #[test]
    fn errors_name_line_column_and_expectation() {
        let bad = LINE.replacen('8', "Z", 1);
        let entries = read(&format!("{LINE}\n{bad}\n{LINE}\n"));
        assert_eq!(entries.len(), 3);
        let e = entries[1].puzzle.as_ref().unwrap_err();
        assert_eq!(e.to_string(), "t:2:7: 'Z' is not a symbol of this 9x9 grid (expected 1-9, '.' or '0')");
        assert!(entries[2].puzzle.is_ok());
        let e = read(&LINE[..80]).remove(0).puzzle.unwrap_err();
        assert!(matches!(e.kind, ParseErrorKind::NotSquare { count: 80 }), "{e}");
        let e = read(&LINE.replacen('4', "?", 1)).remove(0).puzzle.unwrap_err();
        assert_eq!(e.position.column, Some(1));
        assert!(matches!(e.kind, ParseErrorKind::UnknownSymbol { .. }));
    }

    #[test]
    fn short_block_is_one_error_and_the_next_puzzle_survives() {
        let text = "12.456\n......\n\n".to_string() + &".".repeat(36) + "\n";
        let entries = read(&text);
        assert_eq!(entries.len(), 2);
        assert!(matches!(
            entries[0].puzzle.as_ref().unwrap_err().kind,
            ParseErrorKind::MissingRows { found: 2, expected: 6 }
        ));
        assert_eq!(entries[1].puzzle.as_ref().unwrap().size(), 6);
    }

    #[test]
    fn fixed_size_decides_line_or_block() {
        let mut spec = GeometrySpec::fixed(Arc::new(Geometry::latin(3).unwrap()));
        let entries = read_all("1..\n.2.\n..3\n", "t", &Alphabet::default(), &mut spec);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].puzzle.as_ref().unwrap().givens().filled_count(), 3);
        let entries = read_all("1...2...3\n", "t", &Alphabet::default(), &mut spec);
        assert_eq!(entries.len(), 1);
        assert!(entries[0].puzzle.is_ok());
    }

    #[test]
    fn invalid_utf8_is_an_error_not_a_panic() {
        let entries: Vec<Entry> =
            PuzzleReader::new(&b"\xff\xfe\n"[..], "t", &Alphabet::default(), &mut GeometrySpec::classic()).collect();
        assert_eq!(entries.len(), 1);
        assert!(matches!(entries[0].puzzle.as_ref().unwrap_err().kind, ParseErrorKind::Io(_)));
    }
}
