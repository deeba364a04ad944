//! f-puzzles puzzles, both ways: the JSON, the lz-string base64 string that
//! f-puzzles and SudokuPad share, and whole URLs (`...?load=N4Ig...`).
//!
//! Field names follow the f-puzzles format as other solvers read it
//! (`killercage`, `littlekillersum`, `thermometer`, `arrow`, `difference`,
//! `ratio`, `xv`, `negative` ...). A constraint satdoku does not support is
//! an error naming it, never dropped; cosmetic layers (`text`, `line`,
//! `circle`, `rectangle`, `cage`) and solver settings are ignored.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{json, Map, Value as Json};
use thiserror::Error;

use std::fmt;
use std::sync::Arc;

use crate::error::{echo, GeometryError, ParseError, ParseErrorKind, Position};
use crate::model::constraints::{side_by_side, Constraint, Line, Relation};
use crate::model::geometry::{default_box, Cell, Geometry, Layout, Value, Variant};
use crate::model::puzzle::{Grid, Puzzle};
use crate::text::notation::{oversized_region, parse_digits};
use crate::text::reader::Entry;

/// Why a text is no f-puzzles puzzle satdoku can read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FpuzzlesError {
    /// Not JSON, nor a compressed string or URL that decompresses to JSON.
    #[error("not an f-puzzles puzzle: {0}")]
    Decode(String),
    /// JSON that does not parse, at a line and column of its file.
    #[error("not an f-puzzles puzzle: {message} at line {line} column {column}")]
    Json {
        /// What is wrong.
        message: String,
        /// 1-based, of the file the JSON is in.
        line: usize,
        /// 1-based.
        column: usize,
    },
    /// Something wrong at a JSON path (`killercage[2].cells[0]`).
    #[error("f-puzzles {path}: {message}")]
    At {
        /// Where, as a JSON path.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// Keys that draw or configure but constrain nothing.
const IGNORED: &[&str] = &[
    "title",
    "author",
    "ruleset",
    "size",
    "grid",
    "solution",
    "text",
    "line",
    "circle",
    "rectangle",
    "cage",
    "disabledlogic",
    "truecandidatesoptions",
    "successMessage",
    "highlightConflicts",
];

/// The "lines" of a line or arrow clue: one or more, or an error (dropped,
/// the clue would leave a puzzle with more solutions than the one written).
fn lines<'a>(item: &'a Json, path: &str) -> Result<&'a [Json], FpuzzlesError> {
    match item.get("lines").and_then(Json::as_array) {
        Some(lines) if !lines.is_empty() => Ok(lines),
        _ => Err(at(format!("{path}.lines"), "expected a list of lines of cells")),
    }
}

/// A cell as f-puzzles names it: `R1C2`.
fn cell_name(cell: Cell, n: usize) -> String {
    format!("R{}C{}", cell.index() / n + 1, cell.index() % n + 1)
}

/// Why the circle `cells` of an f-puzzles arrow is no circle: a pill's
/// cells are its digits side by side, one row or column of orthogonal
/// neighbours; cells apart were read as a number all the same. Checked
/// before the arrow's own checks (which refuse it too) so that the error
/// points at the circle's `cells`, not at a line. `cells` are sorted.
fn pill_apart(cells: &[Cell], n: usize) -> Option<String> {
    debug_assert!(cells.is_sorted());
    // No cell, or one twice: the arrow's own checks say so.
    if cells.len() < 2 || cells.windows(2).any(|w| w[0] == w[1]) || side_by_side(cells, n) {
        return None;
    }
    let names: Vec<String> = cells.iter().map(|&c| cell_name(c, n)).collect();
    Some(format!(
        "the pill {} is not one row or column of neighbouring cells (expected a circle of 1 cell, or a pill of 2 or 3 cells side by side in a row or column)",
        names.join(" ")
    ))
}

/// The ratios f-puzzles' negative `ratio` forbids: those of the puzzle's
/// black dots (`dots`), or 2 when it has none; sorted, each once.
fn negative_ratios(mut dots: Vec<u32>) -> Vec<u32> {
    if dots.is_empty() {
        dots.push(2);
    }
    dots.sort_unstable();
    dots.dedup();
    dots
}

/// Whether `geometry`'s layout is f-puzzles' default boxes for its size
/// (anything else is written as each cell's region).
fn default_boxes(geometry: &Geometry) -> bool {
    matches!(geometry.layout(), Layout::Boxes { rows, cols } if default_box(geometry.size()).ok() == Some((*rows, *cols)))
}

fn at(path: impl Into<String>, message: impl Into<String>) -> FpuzzlesError {
    FpuzzlesError::At { path: path.into(), message: message.into() }
}

/// The JSON text of an f-puzzles puzzle given as JSON, a compressed string, or a URL holding one.
pub fn fpuzzles_json(text: &str) -> Result<String, FpuzzlesError> {
    decode(text).map(|(json, _)| json)
}

/// [`fpuzzles_json`], and whether the text was decompressed (for the
/// message when it is no JSON).
fn decode(text: &str) -> Result<(String, bool), FpuzzlesError> {
    let untrimmed = text.trim_start_matches('\u{feff}');
    let text = untrimmed.trim();
    let expected = "expected f-puzzles JSON, its compressed string N4Ig…, or a link holding one (?load=N4Ig…, sudokupad.app/fpuzzlesN4Ig…)";
    if text.is_empty() {
        return Err(FpuzzlesError::Decode(format!("the text is empty ({expected})")));
    }
    // JSON is read as JSON, whatever it holds: `[]` is no f-puzzles object,
    // which the reader says (it was decompressed to nothing, "EOF while parsing").
    // Untrimmed, so that the parser's lines and columns are the text's.
    if text.starts_with(['{', '[']) {
        return Ok((untrimmed.to_string(), false));
    }
    let follows = |rest: &str| {
        let rest = echo(rest);
        FpuzzlesError::Decode(format!("'{rest}' follows the compressed string (one puzzle a line)"))
    };
    let url = link_payload(text)?;
    let data = match url {
        Some(i) => text[i..].split(['&', '#', '?']).next().unwrap_or(""),
        // A word after a string that reads: named as what follows it.
        None => match text.split_once(char::is_whitespace) {
            Some((string, rest)) if decode(string).is_ok() => return Err(follows(rest.trim())),
            _ => text,
        },
    };
    // URLs may carry the base64 alphabet's '+', '/' and '=' percent-encoded, or '+' as a space.
    let data = data.replace("%2B", "+").replace("%2b", "+").replace("%2F", "/").replace("%2f", "/");
    let data = data.replace("%3D", "=").replace("%3d", "=");
    let data = if url.is_some() { data.replace(' ', "+") } else { data };
    match lz_str::decompress_from_base64(&data) {
        Some(wide) if !wide.is_empty() => {
            let json = String::from_utf16(&wide)
                .map_err(|_| FpuzzlesError::Decode("the decompressed text is not UTF-16".into()))?;
            // The decompressor stops at the string's end mark: text after it
            // (a second string, a word) would be dropped without a word.
            let whole = lz_str::compress_to_base64(json.as_str());
            let whole = whole.trim_end_matches('=');
            if let Some(rest) = data.strip_prefix(whole).map(|rest| rest.trim_start_matches('=')) {
                if !rest.is_empty() {
                    return Err(follows(rest));
                }
            }
            Ok((json, true))
        }
        // Other JSON (`null`, `42`, `"N4Ig…"`): the reader says it is no object.
        _ if serde_json::from_str::<Json>(text).is_ok() => Ok((text.to_string(), false)),
        _ if data.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=')) => {
            Err(FpuzzlesError::Decode(format!(
                "'{}' is base64 that does not decompress (an lz-string cut short or damaged?)",
                echo(&data)
            )))
        }
        _ => Err(FpuzzlesError::Decode(format!("'{}' is neither JSON nor lz-string base64 ({expected})", echo(&data)))),
    }
}

/// Where the compressed string of a link starts: after `load=` in an
/// f-puzzles link (`f-puzzles.com/?load=N4Ig…`), after the `fpuzzles` or
/// `fpuz` that marks one in a SudokuPad link (`sudokupad.app/fpuzzlesN4Ig…`).
/// A SudokuPad link without one (its own `scl…` and `ctc…` formats, or a
/// puzzle's short name on its server) is an error that says so.
fn link_payload(text: &str) -> Result<Option<usize>, FpuzzlesError> {
    let Some(host) = text.to_ascii_lowercase().find("sudokupad").map(|i| i + "sudokupad".len()) else {
        return Ok(text.find("load=").map(|i| i + "load=".len()));
    };
    match text[host..].find("fpuz").map(|i| host + i) {
        Some(mark) if text[mark..].starts_with("fpuzzles") => Ok(Some(mark + "fpuzzles".len())),
        Some(mark) => Ok(Some(mark + "fpuz".len())),
        None => Err(FpuzzlesError::Decode(format!(
            "'{}' is a SudokuPad link with no f-puzzles string in it (SudokuPad's own scl… and ctc… \
             formats and its short puzzle names are not read: share the puzzle as an f-puzzles link, \
             sudokupad.app/fpuzzlesN4Ig…, or from f-puzzles.com)",
            echo(text)
        ))),
    }
}

/// Every f-puzzles puzzle of a text, each an [`Entry`] at its line of
/// `source`: JSON is one puzzle, else every line that is not blank or a
/// `#` comment holds one (a compressed string or a URL, as `satdoku
/// generate --format fpuzzles` writes them). A puzzle that cannot be read is
/// an entry that says why, in its place.
pub fn read_fpuzzles_entries(text: &str, source: &str) -> Vec<Entry> {
    // A puzzle's text starts at its line, so a JSON error names the file's line.
    let entry = |line: usize, text: &str| {
        let position = Position { source: source.to_string(), line, column: None };
        let puzzle = read_fpuzzles_from(text, line.max(1)).map_err(|e| {
            let position = match e {
                FpuzzlesError::Json { line, column, .. } => Position { line, column: Some(column), ..position.clone() },
                _ => position.clone(),
            };
            ParseError { position, kind: ParseErrorKind::Fpuzzles(e) }
        });
        Entry { position, name: None, puzzle }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Each line with its number and where it starts in the text.
    let starts = text.split_inclusive('\n').scan(0, |start, line| {
        let at = *start;
        *start += line.len();
        Some((at, line))
    });
    let lines = starts.enumerate().map(|(i, (at, line))| (i + 1, at, line.trim()));
    let mut lines = lines.filter(|(_, _, line)| !line.is_empty() && !line.starts_with('#')).peekable();
    match lines.peek() {
        None => vec![entry(0, text)],
        // JSON, after any comments above it, is the rest of the text.
        Some(&(line, at, first)) if first.starts_with(['{', '[']) => vec![entry(line, &text[at..])],
        Some(_) => lines.map(|(line, _, text)| entry(line, text)).collect(),
    }
}

/// The largest side read or written (f-puzzles itself goes to 16).
const MAX_SIDE: usize = 64;

/// Read an f-puzzles puzzle (JSON, compressed string or URL): its grid, regions, givens and constraints.
pub fn read_fpuzzles(text: &str) -> Result<Puzzle, FpuzzlesError> {
    read_fpuzzles_from(text, 1)
}

/// [`read_fpuzzles`] on a text that starts at line `first_line` of a file:
/// a JSON error names the file's line.
pub(crate) fn read_fpuzzles_from(text: &str, first_line: usize) -> Result<Puzzle, FpuzzlesError> {
    let (text, decompressed) = decode(text)?;
    let json = serde_json::from_str::<Checked>(&text).map(|checked| checked.0).map_err(|e| {
        let what =
            if decompressed { "the string decompresses to text that is not JSON" } else { "the JSON does not parse" };
        let message = e.to_string();
        // serde_json counts a column in bytes; satdoku's columns are characters.
        let column = text
            .lines()
            .nth(e.line().saturating_sub(1))
            .and_then(|line| line.get(..e.column().saturating_sub(1)))
            .map_or(e.column(), |before| before.chars().count() + 1);
        let line = e.line() + first_line - 1;
        // The message without serde_json's place, where the place is the
        // file's own (not in decompressed text).
        let bare = message
            .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
            .filter(|_| !decompressed && e.line() > 0);
        // Cut short: the input ends, or what follows is no part of it.
        if e.is_eof() && !decompressed {
            let message = bare.map_or(message.clone(), |bare| format!("{bare} at line {line} column {column}"));
            return FpuzzlesError::Decode(format!(
                "{what}: it stops before the object opened at line {first_line} closes ({message})"
            ));
        }
        // A fault in the file's own text is named where it is.
        match bare {
            Some(bare) => FpuzzlesError::Json { message: format!("{what}: {bare}"), line, column },
            None => FpuzzlesError::Decode(format!("{what}: {message}")),
        }
    })?;
    let object = json.as_object().ok_or_else(|| {
        at(
            "$",
            format!("expected a JSON object (an f-puzzles puzzle, {{\"size\": 9, \"grid\": …}}), not {}", shape(&json)),
        )
    })?;
    // Other JSON (a record of `--format json`, fed back) has neither.
    if !object.contains_key("size") && !object.contains_key("grid") {
        return Err(at(
            "$",
            "a JSON object with no \"size\" and no \"grid\" (expected an f-puzzles puzzle, {\"size\": 9, \"grid\": …})",
        ));
    }
    let n = match object.get("size") {
        Some(size) => size.as_u64().ok_or_else(|| {
            at(
                "size",
                format!("{} is no grid side (expected a whole number from 1 to {MAX_SIDE})", echo(&size.to_string())),
            )
        })?,
        None => {
            return Err(at("size", format!("missing (expected the grid side, a whole number from 1 to {MAX_SIDE})")))
        }
    } as usize;
    if !(1..=MAX_SIDE).contains(&n) {
        return Err(at("size", format!("{n} is no grid side satdoku reads from f-puzzles (1 to {MAX_SIDE})")));
    }
    let mut reader = Reader { n, variants: Vec::new(), extra: Vec::new(), constraints: Vec::new() };
    let (layout, givens) = reader.grid(object)?;
    // Every constraint satdoku lacks is named at once: a setter told of one
    // at a time learned of the next only from the next run.
    // A rule written wrong is said after them: fixed, the puzzle would
    // still not be read.
    let (mut unsupported, mut wrong) = (Vec::new(), None);
    for (key, value) in object {
        if IGNORED.contains(&key.as_str()) || is_empty(value) {
            continue;
        }
        match reader.constraint(key, value, object) {
            Ok(Rule::Read) => {}
            Ok(Rule::Unsupported) => unsupported.push(key.as_str()),
            Err(e) => {
                wrong.get_or_insert(e);
            }
        }
    }
    if let Some(&first) = unsupported.first() {
        let names: Vec<String> = unsupported.iter().map(|key| format!("`{}`", echo(key))).collect();
        let what = match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("constraints {} and {last} are", rest.join(", ")),
            _ => format!("constraint {} is", names[0]),
        };
        return Err(at(first, format!("the f-puzzles {what} not supported by satdoku")));
    }
    if let Some(e) = wrong {
        return Err(e);
    }
    let Reader { variants, extra, constraints, .. } = reader;
    let (extra_paths, extra): (Vec<String>, Vec<Vec<Cell>>) = extra.into_iter().unzip();
    // Regions, extra units and clues were checked where they are written;
    // what is left is said at the key that asked for it.
    let geometry = Geometry::with_extra_units(n, layout, &variants, extra)
        .and_then(|g| g.with_constraints(constraints))
        .map_err(|e| {
            let path = match &e {
                GeometryError::ExtraUnit { unit, .. } => extra_paths.get(unit - 1).map_or("$", String::as_str),
                GeometryError::DisjointGroups => "disjointgroups",
                _ => "$",
            };
            at(path, e.to_string())
        })?;
    Puzzle::new(Arc::new(geometry), givens).ok_or_else(|| at("grid", "the givens do not fit the grid"))
}

/// JSON read as serde_json reads it, but an object that writes a key twice
/// is an error: serde_json keeps the last, so `"size": 9, …, "size": 6`
/// read a 6x6 without a word.
struct Checked(Json);

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(CheckedVisitor).map(Checked)
    }
}

struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Json, E> {
        Ok(value.into())
    }

    fn visit_i64<E>(self, value: i64) -> Result<Json, E> {
        Ok(value.into())
    }

    fn visit_u64<E>(self, value: u64) -> Result<Json, E> {
        Ok(value.into())
    }

    fn visit_f64<E>(self, value: f64) -> Result<Json, E> {
        Ok(value.into())
    }

    fn visit_str<E>(self, value: &str) -> Result<Json, E> {
        Ok(value.into())
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(Checked(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!("the key \"{}\" is written twice in one object", echo(&key))));
            }
            let Checked(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Json::Object(object))
    }
}

/// What a JSON value is, for messages: `a string ("true")`, `a number (5)`.
fn shape(value: &Json) -> String {
    let text = echo(&value.to_string());
    match value {
        Json::Null => "null".into(),
        Json::Bool(_) => format!("a boolean ({text})"),
        Json::Number(_) => format!("a number ({text})"),
        Json::String(_) => format!("a string ({text})"),
        Json::Array(_) => format!("a list ({text})"),
        Json::Object(_) => format!("an object ({text})"),
    }
}

fn is_empty(value: &Json) -> bool {
    match value {
        Json::Null | Json::Bool(false) => true,
        Json::Array(a) => a.is_empty(),
        Json::String(s) => s.is_empty(),
        _ => false,
    }
}

/// Whether a key of the puzzle was a rule satdoku reads.
enum Rule {
    Read,
    Unsupported,
}

struct Reader {
    n: usize,
    variants: Vec<Variant>,
    /// Each extra unit with the JSON path it was written at.
    extra: Vec<(String, Vec<Cell>)>,
    constraints: Vec<Constraint>,
}

impl Reader {
    /// `R3C4` as a cell.
    fn cell(&self, value: &Json, path: &str) -> Result<Cell, FpuzzlesError> {
        let text = value.as_str().ok_or_else(|| at(path, "expected a cell name like \"R1C1\""))?;
        self.cell_at(text, path, false).map(|(r, c)| Cell::from_index(r as usize * self.n + c as usize))
    }

    /// `R3C4` as 0-based (row, column), one step outside the grid allowed when `outside`.
    fn cell_at(&self, text: &str, path: &str, outside: bool) -> Result<(i64, i64), FpuzzlesError> {
        let n = self.n;
        let bad = || at(path, format!("'{}' is not a cell of a {n}x{n} grid", echo(text)));
        let rest = text.strip_prefix(['R', 'r']).ok_or_else(bad)?;
        let (r, c) = rest.split_once(['C', 'c']).ok_or_else(bad)?;
        // Digits only: `R+1C1` was R1C1.
        let number = |x: &str| parse_digits(x).and_then(|x| i64::try_from(x).ok()).ok_or_else(bad);
        let (r, c) = (number(r)?, number(c)?);
        let range = if outside { 0..=self.n as i64 + 1 } else { 1..=self.n as i64 };
        if !range.contains(&r) || !range.contains(&c) {
            return Err(bad());
        }
        Ok((r - 1, c - 1))
    }

    fn cells(&self, value: &Json, path: &str) -> Result<Vec<Cell>, FpuzzlesError> {
        let list = value.as_array().ok_or_else(|| at(path, "expected a list of cells"))?;
        list.iter().enumerate().map(|(i, v)| self.cell(v, &format!("{path}[{i}]"))).collect()
    }

    fn number(&self, value: Option<&Json>, path: &str) -> Result<Option<u32>, FpuzzlesError> {
        match value {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(s)) if s.trim().is_empty() => Ok(None),
            // Digits only: Rust's parse also takes "+3", which f-puzzles never writes.
            Some(Json::String(s)) => Some(s.trim())
                .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|t| t.parse().ok())
                .map(Some)
                .ok_or_else(|| at(path, format!("'{}' is not a number (a whole number below 2^32)", echo(s)))),
            Some(Json::Number(x)) => match x.as_u64() {
                Some(x) => u32::try_from(x).map(Some).map_err(|_| at(path, format!("{x} is too large"))),
                None => Err(at(path, "expected a whole number")),
            },
            Some(_) => Err(at(path, "expected a number")),
        }
    }

    /// The layout (boxes, or regions from the cells) and the givens.
    fn grid(&self, object: &Map<String, Json>) -> Result<(Layout, Grid), FpuzzlesError> {
        let n = self.n;
        let rows = object.get("grid").and_then(Json::as_array).ok_or_else(|| at("grid", "expected n rows of cells"))?;
        if rows.len() != n {
            return Err(at("grid", format!("{} rows, expected {n}", rows.len())));
        }
        let mut givens = Grid::empty(n);
        let mut regions: Vec<Option<u32>> = vec![None; n * n];
        let mut any_region = false;
        for (r, row) in rows.iter().enumerate() {
            let row = row.as_array().filter(|row| row.len() == n);
            let row = row.ok_or_else(|| at(format!("grid[{r}]"), format!("expected {n} cells")))?;
            for (c, cell) in row.iter().enumerate() {
                let path = format!("grid[{r}][{c}]");
                // A cell is an object, `{}` when empty: anything else (a bare
                // number) was read as an empty cell, its given dropped.
                if !cell.is_object() {
                    return Err(at(
                        path,
                        format!(
                            "expected a cell object such as {{\"value\": 5, \"given\": true}} or {{}}, not {}",
                            shape(cell)
                        ),
                    ));
                }
                // Given candidates are clues too: refused, not dropped.
                if cell.get("givenPencilMarks").is_some_and(|marks| !is_empty(marks)) {
                    return Err(at(
                        format!("{path}.givenPencilMarks"),
                        "given pencil marks are not supported by satdoku",
                    ));
                }
                // Givens only: values a solver (or satdoku's output) filled in are not clues.
                let value = self.number(cell.get("value"), &format!("{path}.value"))?.unwrap_or(0);
                // A flag of another shape (`"given": "true"`) was read as
                // false: the given dropped, more solutions than written.
                let given = match cell.get("given") {
                    None | Some(Json::Null) => false,
                    Some(Json::Bool(given)) => *given,
                    Some(other) => {
                        return Err(at(
                            format!("{path}.given"),
                            format!("expected true or false, not {}", shape(other)),
                        ))
                    }
                };
                // A given of 0, or one with no value, was dropped: the cell
                // empty, more solutions than written.
                if value == 0 && given {
                    return Err(match cell.get("value") {
                        Some(Json::Null) | None => {
                            at(format!("{path}.given"), format!("a given with no value (expected \"value\": 1 to {n})"))
                        }
                        Some(_) => at(format!("{path}.value"), format!("a given of 0 is no value (expected 1 to {n})")),
                    });
                }
                if value > 0 && given {
                    let value = Value::new_checked(value as usize, n).ok_or_else(|| {
                        at(format!("{path}.value"), format!("{value} is not a value of a {n}x{n} grid"))
                    })?;
                    givens.set(Cell::from_index(r * n + c), Some(value));
                }
                if let Some(region) = cell.get("region") {
                    any_region = true;
                    let number = region.as_u64().ok_or_else(|| {
                        at(
                            format!("{path}.region"),
                            format!("expected a region number (0 to n-1), not {}", shape(region)),
                        )
                    })?;
                    let region = Some(number).filter(|&x| (x as usize) < n).ok_or_else(|| {
                        at(format!("{path}.region"), "a cell outside every region is not supported (expected 0 to n-1)")
                    })?;
                    regions[r * n + c] = Some(region as u32);
                }
            }
        }
        let (box_rows, box_cols) = match default_box(n) {
            Ok(shape) => shape,
            Err(_) if any_region => (1, n),
            // Not the general advice (--latin, --regions): those options do
            // not combine with --fpuzzles, whose JSON holds the regions.
            Err(_) => {
                return Err(at(
                    "size",
                    format!(
                        "{n}x{n} has no boxes ({n} is prime): give each cell its `region` (0 to {}) in the JSON",
                        n - 1
                    ),
                ))
            }
        };
        if !any_region {
            return Ok((Layout::Boxes { rows: box_rows, cols: box_cols }, givens));
        }
        // Cells without a region field keep their default box.
        let default_box_of = |i: usize| ((i / n / box_rows) * (n / box_cols) + (i % n) / box_cols) as u32;
        let map: Vec<u32> = (0..n * n).map(|i| regions[i].unwrap_or_else(|| default_box_of(i))).collect();
        // A region of the wrong size is said at its first cell past n, with
        // the JSON's own number for it (the grid said "region 1 (in order of
        // first appearance)" at `$`). The n regions hold n² cells, so one
        // too small makes another too large.
        if let Some((i, size)) = oversized_region(&map, n) {
            let region = map[i];
            let path = format!("grid[{}][{}]", i / n, i % n);
            let (path, how) = match regions[i] {
                Some(_) => (format!("{path}.region"), ""),
                None => (path, ", as a cell with no region field keeps its default box"),
            };
            let message =
                format!("region {region} has {size} cells, expected {n}: this is its first cell past {n}{how}");
            return Err(at(path, message));
        }
        // Regions that are boxes, however numbered, are those boxes: the
        // default shape first (as when the regions are written out in
        // full), then any other (3×2 on a 6×6). Disjoint groups, which need
        // boxes, then hold.
        let default = default_box(n).ok().into_iter();
        let shapes = (2..n).filter(|r| n % r == 0).map(|r| (r, n / r));
        let boxes = default.chain(shapes).find(|&(rows, cols)| {
            let box_of = |i: usize| (i / n / rows) * (n / cols) + (i % n) / cols;
            let mut number = vec![None; n];
            (0..n * n).all(|i| *number[box_of(i)].get_or_insert(map[i]) == map[i])
                && number.iter().flatten().collect::<std::collections::BTreeSet<_>>().len() == n
        });
        Ok(match boxes {
            Some((rows, cols)) => (Layout::Boxes { rows, cols }, givens),
            None => (Layout::Regions(map), givens),
        })
    }

    fn constraint(&mut self, key: &str, value: &Json, object: &Map<String, Json>) -> Result<Rule, FpuzzlesError> {
        let n = self.n;
        // A rule of the wrong shape is refused: dropped, it would leave a
        // puzzle with more solutions than the one written.
        let list = || value.as_array().ok_or_else(|| at(key, "expected a list"));
        // The clues of a list, each an object: another item (a bare number)
        // had no fields, and a little killer or sandwich without a value is
        // an empty clue, so it was passed over without a word.
        let items = || {
            let list = list()?;
            if let Some((i, item)) = list.iter().enumerate().find(|(_, item)| !item.is_object()) {
                return Err(at(
                    format!("{key}[{i}]"),
                    format!("expected an object (a clue's fields), not {}", shape(item)),
                ));
            }
            Ok::<_, FpuzzlesError>(list.iter().enumerate())
        };
        let on = || value.as_bool().ok_or_else(|| at(key, "expected true or false"));
        let flag = |variant: Variant, this: &mut Reader| -> Result<(), FpuzzlesError> {
            if on()? {
                this.variants.push(variant);
            }
            Ok(())
        };
        match key {
            "antiknight" => flag(Variant::AntiKnight, self)?,
            "antiking" => flag(Variant::AntiKing, self)?,
            "disjointgroups" => flag(Variant::DisjointGroups, self)?,
            "diagonal+" | "diagonal-" => {
                if on()? {
                    let cells = (0..n).map(|i| match key {
                        "diagonal-" => Cell::from_index(i * n + i),
                        _ => Cell::from_index((n - 1 - i) * n + i),
                    });
                    self.extra.push((key.to_string(), cells.collect()));
                }
            }
            // f-puzzles' non-consecutive spares the pairs with a difference dot.
            "nonconsecutive" => {
                if on()? {
                    self.constraints.push(Constraint::Negative { relations: vec![Relation::Difference(1)] });
                }
            }
            "negative" => {
                for (i, kind) in list()?.iter().enumerate() {
                    match kind.as_str() {
                        Some("ratio") => {
                            let mut dots: Vec<u32> = Vec::new();
                            let ratio = object.get("ratio").and_then(Json::as_array).into_iter().flatten();
                            for (j, dot) in ratio.enumerate() {
                                dots.push(self.number(dot.get("value"), &format!("ratio[{j}].value"))?.unwrap_or(2));
                            }
                            let relations = negative_ratios(dots).into_iter().map(Relation::Ratio).collect();
                            self.constraints.push(Constraint::Negative { relations });
                        }
                        Some("xv") => self
                            .constraints
                            .push(Constraint::Negative { relations: vec![Relation::Sum(5), Relation::Sum(10)] }),
                        _ => {
                            return Err(at(
                                format!("negative[{i}]"),
                                format!(
                                    "the negative constraint {kind} is not supported (expected \"ratio\" or \"xv\")"
                                ),
                            ))
                        }
                    }
                }
            }
            "killercage" | "extraregion" => {
                for (i, item) in items()? {
                    let path = format!("{key}[{i}]");
                    let cells_path = format!("{path}.cells");
                    let cells = self.cells(item.get("cells").unwrap_or(&Json::Null), &cells_path)?;
                    if key == "extraregion" {
                        // A region of n cells is a unit, a smaller one cells
                        // of distinct values: either is checked here, where
                        // its cells are written (a repeated cell in a unit
                        // was "extra unit 1 has 3 distinct cells" at `$`).
                        let region = Constraint::Killer { cells, sum: None };
                        region.validate(n).map_err(|m| at(&cells_path, format!("extra region: {m}")))?;
                        match region {
                            Constraint::Killer { cells, .. } if cells.len() == n => {
                                self.extra.push((cells_path, cells))
                            }
                            region => self.constraints.push(region),
                        }
                    } else {
                        let sum = self.number(item.get("value"), &format!("{path}.value"))?;
                        self.push(Constraint::Killer { cells, sum }, &path)?;
                    }
                }
            }
            "littlekillersum" => {
                for (i, item) in items()? {
                    let path = format!("{key}[{i}]");
                    // No value is an arrow drawn without its sum: no clue. A
                    // sum of 0 is a clue no grid meets, checked below.
                    let Some(sum) = self.number(item.get("value"), &format!("{path}.value"))? else {
                        continue;
                    };
                    let clue = item.get("cell").and_then(Json::as_str).ok_or_else(|| at(&path, "expected a cell"))?;
                    let (mut r, mut c) = self.cell_at(clue, &format!("{path}.cell"), true)?;
                    let (dr, dc) = match item.get("direction").and_then(Json::as_str) {
                        Some("UR") => (-1, 1),
                        Some("UL") => (-1, -1),
                        Some("DR") => (1, 1),
                        Some("DL") => (1, -1),
                        _ => return Err(at(format!("{path}.direction"), "expected UR, UL, DR or DL")),
                    };
                    let inside = |r: i64, c: i64| r >= 0 && c >= 0 && r < n as i64 && c < n as i64;
                    // f-puzzles draws the clue outside the grid, by the
                    // diagonal's first cell; inside, no one meaning is right.
                    if inside(r, c) {
                        let message = format!(
                            "the clue at {clue} is inside the grid (expected a cell outside it, row or column 0 or {})",
                            n + 1
                        );
                        return Err(at(format!("{path}.cell"), message));
                    }
                    (r, c) = (r + dr, c + dc);
                    let mut cells = Vec::new();
                    while inside(r, c) {
                        cells.push(Cell::from_index(r as usize * n + c as usize));
                        (r, c) = (r + dr, c + dc);
                    }
                    if cells.is_empty() {
                        let direction = &item["direction"];
                        let message = format!(
                            "the clue at {clue} points {direction} past the {n}x{n} grid: its diagonal holds no cell (expected a direction into the grid)"
                        );
                        return Err(at(format!("{path}.direction"), message));
                    }
                    self.push(Constraint::LittleKiller { cells, sum }, &path)?;
                }
            }
            "arrow" => {
                for (i, item) in items()? {
                    let path = format!("{key}[{i}]");
                    let circle_path = format!("{path}.cells");
                    let mut circle = self.cells(item.get("cells").unwrap_or(&Json::Null), &circle_path)?;
                    // A pill's number reads left to right, top to bottom,
                    // whatever order the JSON lists its cells in.
                    circle.sort();
                    if let Some(message) = pill_apart(&circle, n) {
                        return Err(at(circle_path, message));
                    }
                    for (j, line) in lines(item, &path)?.iter().enumerate() {
                        let line_path = format!("{path}.lines[{j}]");
                        let mut cells = self.cells(line, &line_path)?;
                        // f-puzzles (and SudokuPad's strings) draw each line
                        // from a circle cell: that first cell is the circle's.
                        // A circle cell further on, or a cell twice, is a
                        // line no grid meets, refused by the arrow's own
                        // checks; it was dropped wherever it stood, and the
                        // line read as another clue.
                        if cells.first().is_some_and(|c| circle.contains(c)) {
                            cells.remove(0);
                        }
                        self.push(Constraint::Arrow { circle: circle.clone(), cells }, &line_path)?;
                    }
                }
            }
            "thermometer" | "palindrome" | "renban" | "whispers" => {
                for (i, item) in items()? {
                    let path = format!("{key}[{i}]");
                    // The gap f-puzzles means by default, written out, is that gap.
                    let gap = crate::model::constraints::whisper_gap(self.n);
                    if key == "whispers" {
                        if let Some(value) = self.number(item.get("value"), &format!("{path}.value"))? {
                            if value != gap {
                                let why = format!("whispers with a gap other than {gap} (the default of a {0}x{0} grid) are not supported", self.n);
                                return Err(at(format!("{path}.value"), why));
                            }
                        }
                    }
                    for (j, line) in lines(item, &path)?.iter().enumerate() {
                        let cells = self.cells(line, &format!("{path}.lines[{j}]"))?;
                        let constraint = match key {
                            "thermometer" => Constraint::Thermo { cells },
                            "palindrome" => Constraint::Palindrome { cells },
                            "renban" => Constraint::Renban { cells },
                            _ => Constraint::Whisper { cells },
                        };
                        self.push(constraint, &format!("{path}.lines[{j}]"))?;
                    }
                }
            }
            "difference" | "ratio" | "xv" => {
                for (i, item) in items()? {
                    let path = format!("{key}[{i}]");
                    let cells = self.cells(item.get("cells").unwrap_or(&Json::Null), &format!("{path}.cells"))?;
                    let cells: [Cell; 2] =
                        cells.try_into().map_err(|_| at(format!("{path}.cells"), "expected 2 cells"))?;
                    let value_path = format!("{path}.value");
                    let relation = match key {
                        "difference" => Relation::Difference(self.number(item.get("value"), &value_path)?.unwrap_or(1)),
                        "ratio" => Relation::Ratio(self.number(item.get("value"), &value_path)?.unwrap_or(2)),
                        _ => match item.get("value").and_then(Json::as_str) {
                            Some("X" | "x") => Relation::Sum(10),
                            Some("V" | "v") => Relation::Sum(5),
                            _ => return Err(at(format!("{path}.value"), "expected \"X\" or \"V\"")),
                        },
                    };
                    self.push(Constraint::Dot { relation, cells }, &path)?;
                }
            }
            "odd" | "even" => {
                for (i, item) in items()? {
                    let path = format!("{key}[{i}]");
                    let cell = self.cell(item.get("cell").unwrap_or(&Json::Null), &format!("{path}.cell"))?;
                    let constraint = match key {
                        "odd" => Constraint::Odd { cells: vec![cell] },
                        _ => Constraint::Even { cells: vec![cell] },
                    };
                    self.push(constraint, &path)?;
                }
            }
            "sandwichsum" => {
                for (i, item) in items()? {
                    let path = format!("{key}[{i}]");
                    let Some(sum) = self.number(item.get("value"), &format!("{path}.value"))? else { continue };
                    let clue = item.get("cell").and_then(Json::as_str).ok_or_else(|| at(&path, "expected a cell"))?;
                    let (r, c) = self.cell_at(clue, &format!("{path}.cell"), true)?;
                    let outside = |x: i64| x < 0 || x >= n as i64;
                    let line = match (outside(r), outside(c)) {
                        (false, true) => Line::Row(r as usize),
                        (true, false) => Line::Column(c as usize),
                        _ => {
                            return Err(at(
                                format!("{path}.cell"),
                                "a sandwich clue sits just outside one row or column",
                            ))
                        }
                    };
                    self.push(Constraint::Sandwich { line, sum }, &path)?;
                }
            }
            _ => return Ok(Rule::Unsupported),
        }
        Ok(Rule::Read)
    }

    fn push(&mut self, constraint: Constraint, path: &str) -> Result<(), FpuzzlesError> {
        constraint.validate(self.n).map_err(|m| at(path, format!("{}: {m}", constraint.kind())))?;
        self.constraints.push(constraint);
        Ok(())
    }
}

/// The f-puzzles JSON of `puzzle`, with `solution`'s values in the cells
/// the givens leave empty; an error for what f-puzzles cannot hold (a
/// little killer that stops short of the grid's edge).
///
/// Boxes of another shape than the default for the size are written as
/// each cell's region, and a Latin square as regions that are its rows
/// (the same rules: f-puzzles has no grid without regions).
/// A solution of another size than the puzzle, or a grid past 64×64 (what
/// [`read_fpuzzles`] reads), is an error.
pub fn fpuzzles_value(puzzle: &Puzzle, solution: Option<&Grid>) -> Result<Json, FpuzzlesError> {
    let geometry = puzzle.geometry();
    let n = geometry.size();
    // Given pencil marks restrict cells, and satdoku reads none back: the
    // puzzle written would have more solutions.
    if puzzle.candidates().is_some() {
        return Err(at("grid", "pencil marks have no f-puzzles form that satdoku reads back"));
    }
    // What satdoku cannot read back is not written (f-puzzles goes to 16).
    if !(1..=MAX_SIDE).contains(&n) {
        return Err(at("size", format!("{n} is no grid side satdoku writes to f-puzzles (1 to {MAX_SIDE})")));
    }
    if let Some(solution) = solution.filter(|s| s.size() != n) {
        let size = solution.size();
        return Err(at("grid", format!("the solution is a {size}x{size} grid, the puzzle a {n}x{n} one")));
    }
    let region = |cell: Cell| -> Option<usize> {
        match geometry.layout() {
            Layout::Regions(_) => geometry.region_of(cell),
            Layout::Boxes { .. } if !default_boxes(geometry) => geometry.region_of(cell),
            Layout::Boxes { .. } => None,
            Layout::Latin => Some(cell.index() / n),
        }
    };
    let name = |c: Cell| cell_name(c, n);
    let names = |cells: &[Cell]| cells.iter().map(|&c| name(c)).collect::<Vec<_>>();
    let grid: Vec<Json> = (0..n)
        .map(|r| {
            let row: Vec<Json> = (0..n)
                .map(|c| {
                    let cell = Cell::from_index(r * n + c);
                    let mut object = Map::new();
                    if let Some(v) = puzzle.givens().get(cell) {
                        object.insert("value".into(), v.number().into());
                        object.insert("given".into(), true.into());
                    } else if let Some(v) = solution.and_then(|s| s.get(cell)) {
                        object.insert("value".into(), v.number().into());
                    }
                    if let Some(region) = region(cell) {
                        object.insert("region".into(), region.into());
                    }
                    Json::Object(object)
                })
                .collect();
            Json::Array(row)
        })
        .collect();
    let mut out = Map::new();
    out.insert("size".into(), n.into());
    out.insert("grid".into(), grid.into());
    let mut push = |key: &str, item: Json| {
        if let Some(Json::Array(list)) = out.get_mut(key) {
            list.push(item);
        } else {
            out.insert(key.into(), Json::Array(vec![item]));
        }
    };
    for &variant in geometry.variants() {
        let key = match variant {
            Variant::AntiKnight => "antiknight",
            Variant::AntiKing => "antiking",
            Variant::DisjointGroups => "disjointgroups",
            Variant::NonConsecutive => "nonconsecutive",
            Variant::X => {
                push(
                    "extraregion",
                    json!({ "cells": names(&(0..n).map(|i| Cell::from_index(i * n + i)).collect::<Vec<_>>()) }),
                );
                push(
                    "extraregion",
                    json!({ "cells": names(&(0..n).map(|i| Cell::from_index(i * n + n - 1 - i)).collect::<Vec<_>>()) }),
                );
                continue;
            }
            Variant::Hyper => {
                for unit in geometry.units().iter().filter(|u| u.kind() == crate::model::geometry::UnitKind::Window) {
                    push("extraregion", json!({ "cells": names(unit.cells()) }));
                }
                continue;
            }
        };
        push(key, json!(true));
    }
    for unit in geometry.extra_units() {
        push("extraregion", json!({ "cells": names(unit) }));
    }
    refuse_unfaithful_rules(geometry)?;
    // Values of one list pushed as true booleans above are arrays; fix the flags.
    let mut negative: Vec<&str> = Vec::new();
    for constraint in geometry.constraints() {
        match constraint {
            Constraint::Killer { cells, sum } => {
                let mut cage = json!({ "cells": names(cells) });
                if let Some(sum) = sum {
                    cage["value"] = sum.to_string().into();
                }
                push("killercage", cage);
            }
            Constraint::LittleKiller { cells, sum } => {
                // The clue sits one step before the first cell, against the direction.
                let (first, second) = (cells[0].index(), cells.get(1).map_or(cells[0].index(), |c| c.index()));
                let (r, c) = ((first / n) as i64, (first % n) as i64);
                let inside = |r: i64, c: i64| (0..n as i64).contains(&r) && (0..n as i64).contains(&c);
                // A cell alone is a corner's diagonal of one cell (`R4C4`
                // from `R3C5` down-left): the direction with both ends out.
                let alone = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
                    .into_iter()
                    .find(|&(dr, dc)| !inside(r - dr, c - dc) && !inside(r + dr, c + dc))
                    .unwrap_or((1, 1));
                let (dr, dc) = if cells.len() > 1 { ((second / n) as i64 - r, (second % n) as i64 - c) } else { alone };
                // One diagonal run, each cell a diagonal step on from the one
                // before: the only shape f-puzzles has (a row, or a diagonal
                // with a gap, read back as another clue).
                let at_cell = |cell: &Cell| ((cell.index() / n) as i64, (cell.index() % n) as i64);
                let diagonal = dr.abs() == 1
                    && dc.abs() == 1
                    && cells.windows(2).all(|w| {
                        let ((r0, c0), (r1, c1)) = (at_cell(&w[0]), at_cell(&w[1]));
                        (r1 - r0, c1 - c0) == (dr, dc)
                    });
                if !diagonal {
                    let message = format!(
                        "a little killer over {} is not one diagonal run, the only kind f-puzzles has",
                        names(cells).join(" ")
                    );
                    return Err(at("littlekillersum", message));
                }
                // f-puzzles sums the whole diagonal, from outside the grid to its edge.
                let last = cells[cells.len() - 1].index();
                let (lr, lc) = ((last / n) as i64, (last % n) as i64);
                if inside(r - dr, c - dc) || inside(lr + dr, lc + dc) {
                    let message = format!(
                        "a little killer from {} to {} stops short of the grid's edge, and f-puzzles' runs from edge to edge",
                        name(cells[0]),
                        name(cells[cells.len() - 1])
                    );
                    return Err(at("littlekillersum", message));
                }
                let direction = format!("{}{}", if dr > 0 { "D" } else { "U" }, if dc > 0 { "R" } else { "L" });
                let cell = format!("R{}C{}", r - dr + 1, c - dc + 1);
                push("littlekillersum", json!({ "cell": cell, "direction": direction, "value": sum.to_string() }));
            }
            Constraint::Thermo { cells } => push("thermometer", json!({ "lines": [names(cells)] })),
            Constraint::Palindrome { cells } => push("palindrome", json!({ "lines": [names(cells)] })),
            Constraint::Renban { cells } => push("renban", json!({ "lines": [names(cells)] })),
            Constraint::Whisper { cells } => push("whispers", json!({ "lines": [names(cells)] })),
            Constraint::Arrow { circle, cells } => {
                if !circle.is_sorted() {
                    let message = format!(
                        "the pill {} reads its digits in that order, and f-puzzles reads a pill left to right, top to bottom",
                        names(circle).join(" ")
                    );
                    return Err(at("arrow", message));
                }
                let line: Vec<Cell> = circle.iter().take(1).chain(cells).copied().collect();
                push("arrow", json!({ "cells": names(circle), "lines": [names(&line)] }));
            }
            Constraint::Dot { relation, cells } => {
                let (key, value) = match relation {
                    Relation::Difference(d) => ("difference", d.to_string()),
                    Relation::Ratio(r) => ("ratio", r.to_string()),
                    Relation::Sum(10) => ("xv", "X".into()),
                    Relation::Sum(5) => ("xv", "V".into()),
                    Relation::Sum(s) => {
                        let message = format!(
                            "a sum of {s} on {}: f-puzzles' XV marks are sums of 10 and 5 only",
                            names(cells).join(" ")
                        );
                        return Err(at("xv", message));
                    }
                };
                push(key, json!({ "cells": names(cells), "value": value }));
            }
            Constraint::Odd { cells } => cells.iter().for_each(|&c| push("odd", json!({ "cell": name(c) }))),
            Constraint::Even { cells } => cells.iter().for_each(|&c| push("even", json!({ "cell": name(c) }))),
            Constraint::Sandwich { line, sum } => {
                let cell = match line {
                    Line::Row(r) => format!("R{}C0", r + 1),
                    Line::Column(c) => format!("R0C{}", c + 1),
                };
                push("sandwichsum", json!({ "cell": cell, "value": sum.to_string() }));
            }
            // f-puzzles has one negative constraint per family (a pair is
            // spared by a dot of that family only): each family is written.
            Constraint::Negative { relations } => {
                for relation in relations {
                    match relation {
                        Relation::Difference(_) => push("nonconsecutive", json!(true)),
                        Relation::Ratio(_) => negative.push("ratio"),
                        Relation::Sum(_) => negative.push("xv"),
                    }
                }
            }
        }
    }
    // Flags are booleans, not lists.
    for key in ["antiknight", "antiking", "disjointgroups", "nonconsecutive"] {
        if out.contains_key(key) {
            out.insert(key.into(), true.into());
        }
    }
    if !negative.is_empty() {
        negative.sort_unstable();
        negative.dedup();
        out.insert("negative".into(), negative.into());
    }
    Ok(Json::Object(out))
}

/// Refuse the rules f-puzzles would read back as other rules. Its
/// `nonconsecutive` spares every pair with a kropki dot (satdoku's global
/// non-consecutive spares none), and is a difference of 1 only; its
/// negative `ratio` forbids the ratios of the puzzle's black dots (2 when
/// there are none), and its negative `xv` both 5 and 10. Disjoint groups
/// need boxes, which a layout written as regions no longer has.
fn refuse_unfaithful_rules(geometry: &Geometry) -> Result<(), FpuzzlesError> {
    let dots: Vec<Relation> = geometry
        .constraints()
        .iter()
        .filter_map(|c| match c {
            Constraint::Dot { relation, .. } => Some(*relation),
            _ => None,
        })
        .collect();
    let kropki = dots.iter().any(|r| !matches!(r, Relation::Sum(_)));
    if geometry.variants().contains(&Variant::NonConsecutive) && kropki {
        return Err(at(
            "nonconsecutive",
            "f-puzzles' non-consecutive spares the pairs with a kropki dot, satdoku's none",
        ));
    }
    let ratios =
        negative_ratios(dots.iter().filter_map(|r| if let Relation::Ratio(k) = r { Some(*k) } else { None }).collect());
    for constraint in geometry.constraints() {
        let Constraint::Negative { relations } = constraint else { continue };
        let family = |f: fn(&Relation) -> Option<u32>| {
            let mut values: Vec<u32> = relations.iter().filter_map(f).collect();
            values.sort_unstable();
            values
        };
        let differences = family(|r| if let Relation::Difference(d) = r { Some(*d) } else { None });
        let negative_ratios = family(|r| if let Relation::Ratio(k) = r { Some(*k) } else { None });
        let sums = family(|r| if let Relation::Sum(s) = r { Some(*s) } else { None });
        let faithful = (differences.is_empty() || differences == [1])
            && (negative_ratios.is_empty() || negative_ratios == ratios)
            && (sums.is_empty() || sums == [5, 10]);
        if !faithful {
            let message = format!("{}: f-puzzles' negative constraints forbid a difference of 1, the ratios of the black dots, or sums of 5 and 10", constraint.text(geometry.size()));
            return Err(at("negative", message));
        }
    }
    if geometry.variants().contains(&Variant::DisjointGroups) && !default_boxes(geometry) {
        return Err(at(
            "disjointgroups",
            "disjoint groups need the default boxes in f-puzzles, and these are written as regions",
        ));
    }
    Ok(())
}

/// The compressed string f-puzzles and SudokuPad load (`?load=` in their
/// URLs); an error for what f-puzzles cannot hold (see [`fpuzzles_value`]).
pub fn write_fpuzzles(puzzle: &Puzzle, solution: Option<&Grid>) -> Result<String, FpuzzlesError> {
    Ok(lz_str::compress_to_base64(fpuzzles_value(puzzle, solution)?.to_string().as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::gridfile::parse_grid_file;

    /// A solution of another size was indexed out of bounds (a smaller
    /// one) or written into the grid (a larger one: 9s in a 4x4).
    #[test]
    fn a_solution_of_another_size_or_a_grid_too_big_is_an_error() {
        let puzzle = |n| Puzzle::new(Arc::new(Geometry::classic(n).unwrap()), Grid::empty(n)).unwrap();
        for (p, s) in [(9, 4), (4, 9)] {
            let e = fpuzzles_value(&puzzle(p), Some(&Grid::empty(s))).unwrap_err().to_string();
            assert!(e.contains(&format!("the solution is a {s}x{s} grid, the puzzle a {p}x{p} one")), "{e}");
        }
        let big = Puzzle::new(Arc::new(Geometry::new(65, Layout::Latin, &[]).unwrap()), Grid::empty(65)).unwrap();
        assert!(write_fpuzzles(&big, None).unwrap_err().to_string().contains("65 is no grid side"));
        assert!(write_fpuzzles(&puzzle(64), None).is_ok());
    }

    #[test]
    fn a_puzzle_round_trips_through_the_compressed_string() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/encodings/variants/lines-9.toml")).unwrap();
        let geometry = parse_grid_file(&text, "lines-9.toml").unwrap();
        let puzzle = Puzzle::new(Arc::new(geometry), Grid::empty(9)).unwrap();
        let string = write_fpuzzles(&puzzle, None).unwrap();
        let back = read_fpuzzles(&format!("https://www.f-puzzles.com/?load={string}")).unwrap();
        // The same clues, odd and even cells one by one.
        let single = |p: &Puzzle| {
            let mut list: Vec<String> = Vec::new();
            for c in p.geometry().constraints() {
                match c {
                    Constraint::Odd { cells } => cells.iter().for_each(|&c| list.push(format!("odd {c:?}"))),
                    Constraint::Even { cells } => cells.iter().for_each(|&c| list.push(format!("even {c:?}"))),
                    other => list.push(other.text(9)),
                }
            }
            list.sort();
            list
        };
        assert_eq!(single(&back), single(&puzzle));
        // SudokuPad's links to the same string read as the same puzzle.
        for link in [
            format!("https://sudokupad.app/fpuzzles{string}"),
            format!("https://beta.sudokupad.app/fpuz{string}?setting-nogrid=1"),
            format!("sudokupad.app/?puzzle=fpuzzles{string}"),
        ] {
            assert_eq!(single(&read_fpuzzles(&link).unwrap()), single(&puzzle), "{link}");
        }
        // Its own formats, and short names, are no f-puzzles strings: said so.
        for link in ["https://sudokupad.app/sclN4IgzglgXgpiBcA2", "https://sudokupad.app/k8kq4u6n7d"] {
            let error = read_fpuzzles(link).unwrap_err().to_string();
            assert!(error.contains("SudokuPad link with no f-puzzles string"), "{link}: {error}");
        }
    }

    /// f-puzzles' diagonals are named as X-sudoku's are in a clash's
    /// reason: a lone `diagonal-` was "extra unit 1".
    #[test]
    fn a_lone_diagonal_goes_by_its_name() {
        // Each diagonal's two ends, 0-based, given the same value.
        let cases =
            [("diagonal-", [(0, 0), (5, 5)], "main diagonal"), ("diagonal+", [(0, 5), (5, 0)], "anti-diagonal")];
        for (key, ends, name) in cases {
            let mut grid = vec![vec![json!({}); 6]; 6];
            for (r, c) in ends {
                grid[r][c] = json!({ "value": 1, "given": true });
            }
            let text = json!({ "size": 6, key: true, "grid": grid }).to_string();
            let puzzle = read_fpuzzles(&text).unwrap();
            let outcome = crate::solve(&puzzle, &crate::SolveOptions::default()).unwrap();
            let crate::Outcome::Unsolvable(Some(reason)) = outcome else { panic!("{key}: {outcome:?}") };
            let said = reason.describe(puzzle.geometry(), &crate::Alphabet::default());
            let [a, b] = ends.map(|(r, c)| format!("r{}c{}", r + 1, c + 1));
            assert_eq!(said, format!("the givens clash: {name} has 1 twice ({a} and {b})"), "{key}");
        }
    }

    #[test]
    fn unsupported_constraints_are_named() {
        let e = read_fpuzzles(r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"quadruple":[{"cells":["R1C1","R1C2","R2C1","R2C2"],"values":[1]}]}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f-puzzles quadruple: the f-puzzles constraint `quadruple` is not supported by satdoku"
        );
        // All of them at once, in the puzzle's order, at the first: one at a
        // time, a setter learned of the next only from the next run.
        let e = read_fpuzzles(r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"quadruple":[{"cells":["R1C1","R1C2","R2C1","R2C2"],"values":[1]}],"antiknight":true,"minimum":[{"cell":"R3C3"}],"betweenline":[{"lines":[["R1C1","R2C2","R3C3"]]}]}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f-puzzles quadruple: the f-puzzles constraints `quadruple`, `minimum` and `betweenline` are not supported by satdoku"
        );
        // Before a supported rule written wrong, which would only be fixed
        // for nothing (review s68).
        let e = read_fpuzzles(r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"killercage":[{"cells":["R1C1","R9C2"],"value":"3"}],"minimum":[{"cell":"R3C3"}]}"#).unwrap_err();
        assert_eq!(e.to_string(), "f-puzzles minimum: the f-puzzles constraint `minimum` is not supported by satdoku");
        let e = read_fpuzzles(r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"killercage":[{"cells":["R1C1","R5C2"],"value":"3"}]}"#).unwrap_err();
        assert_eq!(e.to_string(), "f-puzzles killercage[0].cells[1]: 'R5C2' is not a cell of a 4x4 grid");
    }

    /// Boxes of a shape other than the default, and a Latin square, keep
    /// their rules through f-puzzles (as regions): counted again, the same
    /// number of solutions (20 for this 6x6 with 3x2 boxes, against 1 with
    /// the default 2x3; 576 Latin squares of order 4, against 288 sudokus).
    #[test]
    fn box_shapes_and_latin_squares_round_trip() {
        use crate::enumerate::Search;
        let count = |p: &Puzzle| Search::new(p, &crate::SolveOptions::default()).count_up_to(1000).unwrap().count;
        let givens = |text: &str, n: usize| {
            let cells = text.chars().map(|c| c.to_digit(10).map(|v| Value::from_index(v as usize - 1))).collect();
            Grid::from_cells(n, cells).unwrap()
        };
        let cases = [
            (
                Geometry::new(6, Layout::Boxes { rows: 3, cols: 2 }, &[]).unwrap(),
                givens(".....12....3..2.......45.16.........", 6),
                20,
            ),
            (Geometry::new(4, Layout::Latin, &[]).unwrap(), Grid::empty(4), 576),
        ];
        for (geometry, givens, solutions) in cases {
            let puzzle = Puzzle::new(Arc::new(geometry), givens).unwrap();
            assert_eq!(count(&puzzle), solutions);
            let back = read_fpuzzles(&write_fpuzzles(&puzzle, None).unwrap()).unwrap();
            assert_eq!(count(&back), solutions, "{:?}", puzzle.geometry().layout());
        }
    }

    /// Every 4×4 sudoku grid (row-major values 1-4), by backtracking: the
    /// brute force the counts below are checked against.
    fn all_4x4_grids() -> Vec<Vec<usize>> {
        fn fill(cells: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            let k = cells.len();
            if k == 16 {
                out.push(cells.clone());
                return;
            }
            let (r, c) = (k / 4, k % 4);
            for v in 1..=4 {
                let clash = (0..k).any(|j| {
                    let (jr, jc) = (j / 4, j % 4);
                    cells[j] == v && (jr == r || jc == c || (jr / 2 == r / 2 && jc / 2 == c / 2))
                });
                if !clash {
                    cells.push(v);
                    fill(cells, out);
                    cells.pop();
                }
            }
        }
        let mut all = Vec::new();
        fill(&mut Vec::new(), &mut all);
        assert_eq!(all.len(), 288);
        all
    }

    /// Regions that are the default boxes (numbered in any order, as a
    /// program that writes every cell's region makes them) are the boxes:
    /// disjoint groups, which need boxes, are read (they were refused). The
    /// count is brute force's: the cells in one place of every box differ.
    #[test]
    fn regions_that_are_the_boxes_are_boxes() {
        use crate::enumerate::Search;
        let count = |p: &Puzzle| Search::new(p, &crate::SolveOptions::default()).count_up_to(1000).unwrap().count;
        let place = |i: usize| (i / 4 % 2) * 2 + i % 2;
        let expected = all_4x4_grids()
            .iter()
            .filter(|g| (0..16).all(|i| (0..i).all(|j| place(i) != place(j) || g[i] != g[j])))
            .count();
        let json = |region: &dyn Fn(usize) -> usize, rules: &str| {
            let cell = |i: usize| format!(r#"{{"region":{}}}"#, region(i));
            let rows: Vec<String> = (0..4)
                .map(|r| format!("[{}]", (0..4).map(|c| cell(r * 4 + c)).collect::<Vec<_>>().join(",")))
                .collect();
            format!(r#"{{"size":4,"grid":[{}]{rules}}}"#, rows.join(","))
        };
        // Box b (row-major) labelled 3 - b.
        let boxes = json(&|i| 3 - ((i / 8) * 2 + (i % 4) / 2), r#","disjointgroups":true"#);
        let puzzle = read_fpuzzles(&boxes).unwrap();
        assert_eq!(puzzle.geometry().layout(), &Layout::Boxes { rows: 2, cols: 2 });
        assert_eq!(count(&puzzle), expected as u64);
        // Regions that are not the boxes (the rows) stay regions, and refuse
        // disjoint groups.
        assert!(read_fpuzzles(&json(&|i| i / 4, r#","disjointgroups":true"#)).is_err());
        let rows = read_fpuzzles(&json(&|i| i / 4, "")).unwrap();
        assert!(matches!(rows.geometry().layout(), Layout::Regions(_)));
        // Boxes of another shape than the default (3×2 on a 6×6, whose
        // default is 2×3) are boxes too: disjoint groups were refused as
        // needing boxes.
        let cells: Vec<String> = (0..36).map(|i| format!(r#"{{"region":{}}}"#, (i / 18) * 3 + (i % 6) / 2)).collect();
        let rows: Vec<String> = cells.chunks(6).map(|row| format!("[{}]", row.join(","))).collect();
        let text = format!(r#"{{"size":6,"grid":[{}],"disjointgroups":true}}"#, rows.join(","));
        let puzzle = read_fpuzzles(&text).unwrap();
        assert_eq!(puzzle.geometry().layout(), &Layout::Boxes { rows: 3, cols: 2 });
        assert!(puzzle.geometry().variants().contains(&Variant::DisjointGroups));
    }

    /// A pill reads left to right, top to bottom in f-puzzles, whatever order
    /// its JSON lists the cells in (it was read in list order: 3 solutions
    /// for this 4×4 listed R1C2 first, against 4). The count is checked
    /// against brute force over all 288 4×4 grids. A pill not in reading
    /// order (from a grid file, where the order is the user's) has no
    /// f-puzzles form, and is refused rather than written as another number.
    #[test]
    fn a_pill_reads_left_to_right_whatever_the_json_order() {
        use crate::enumerate::Search;
        let count = |p: &Puzzle| Search::new(p, &crate::SolveOptions::default()).count_up_to(1000).unwrap().count;
        let all = all_4x4_grids();
        // Pill r1c1 r1c2; arrow r2c3 r3c4 r4c3 r3c2 (0-based cells 6, 11, 14, 9).
        let expected = all.iter().filter(|g| 10 * g[0] + g[1] == g[6] + g[11] + g[14] + g[9]).count() as u64;
        assert_eq!(expected, 4);
        let row = r#"[{},{},{},{}]"#;
        for circle in [r#""R1C1","R1C2""#, r#""R1C2","R1C1""#] {
            let json = format!(
                r#"{{"size":4,"grid":[{row},{row},{row},{row}],"arrow":[{{"cells":[{circle}],"lines":[["R1C2","R2C3","R3C4","R4C3","R3C2"]]}}]}}"#
            );
            assert_eq!(count(&read_fpuzzles(&json).unwrap()), expected, "{circle}");
        }
        let text = "size = 4\n[[arrow]]\ncircle = \"r1c2 r1c1\"\ncells = \"r2c3 r3c4 r4c3 r3c2\"\n";
        let puzzle = Puzzle::new(Arc::new(parse_grid_file(text, "pill.toml").unwrap()), Grid::empty(4)).unwrap();
        let error = write_fpuzzles(&puzzle, None).unwrap_err().to_string();
        assert!(error.contains("left to right, top to bottom"), "{error}");
        // A pill of cells apart is no pill, in a grid file as in f-puzzles.
        let text = "size = 4\n[[arrow]]\ncircle = \"r1c1 r2c2\"\ncells = \"r2c3 r3c4 r4c3 r3c2\"\n";
        let error = parse_grid_file(text, "pill.toml").unwrap_err().to_string();
        assert!(error.contains("the pill r1c1 r2c2 is not one row or column"), "{error}");
    }

    /// An f-puzzles arrow line starts at its circle: only that first cell
    /// is the circle's. A circle cell further on was dropped wherever it
    /// stood (circle R1C2 on R1C1 R1C2 R1C3 read as R1C1 + R1C3 = R1C2; a
    /// line back onto its circle read as R1C2 = R1C1), and a pill of cells
    /// apart read as a number: each is refused at its JSON path now, as a
    /// grid file refuses a circle on its own arrow. Well-formed arrows and
    /// pills are read, counted against brute force over all 288 4×4 grids.
    #[test]
    fn malformed_arrows_are_refused_not_read_as_other_clues() {
        use crate::enumerate::Search;
        let count = |p: &Puzzle| Search::new(p, &crate::SolveOptions::default()).count_up_to(1000).unwrap().count;
        let row = r#"[{},{},{},{}]"#;
        let arrow = |arrows: &str| format!(r#"{{"size":4,"grid":[{row},{row},{row},{row}],"arrow":[{arrows}]}}"#);
        let cases = [
            (
                r#"{"cells":["R1C2"],"lines":[["R1C1","R1C2","R1C3"]]}"#,
                "f-puzzles arrow[0].lines[0]: arrow: the circle's cell r1c2 is on its own arrow",
            ),
            (
                r#"{"cells":["R1C1"],"lines":[["R1C1","R1C2","R1C1"]]}"#,
                "f-puzzles arrow[0].lines[0]: arrow: the circle's cell r1c1 is on its own arrow",
            ),
            (
                r#"{"cells":["R1C1"],"lines":[["R1C1","R2C2"],["R1C1","R2C1","R3C1","R2C1"]]}"#,
                "f-puzzles arrow[0].lines[1]: arrow: cell r2c1 appears twice",
            ),
            (
                r#"{"cells":["R1C1","R1C2"],"lines":[["R1C2","R2C3","R1C1"]]}"#,
                "f-puzzles arrow[0].lines[0]: arrow: the circle's cell r1c1 is on its own arrow",
            ),
            (
                r#"{"cells":["R1C1","R4C4"],"lines":[["R1C1","R2C2"]]}"#,
                "f-puzzles arrow[0].cells: the pill R1C1 R4C4 is not one row or column of neighbouring cells",
            ),
            (
                r#"{"cells":["R2C2","R1C1","R1C2"],"lines":[["R2C2","R3C3"]]}"#,
                "f-puzzles arrow[0].cells: the pill R1C1 R1C2 R2C2 is not one row or column",
            ),
            (r#"{"cells":["R1C1","R1C3"],"lines":[["R1C1","R2C2"]]}"#, "f-puzzles arrow[0].cells: the pill R1C1 R1C3"),
        ];
        for (arrows, says) in cases {
            let error = read_fpuzzles(&arrow(arrows)).map(|_| ()).unwrap_err().to_string();
            assert!(error.contains(says), "{arrows}: {error}");
        }
        let all = all_4x4_grids();
        // Circle r1c1, arrow r2c2 r3c3 (0-based cells 0; 5, 10).
        let expected = all.iter().filter(|g| g[0] == g[5] + g[10]).count() as u64;
        assert!(expected > 0);
        let puzzle = read_fpuzzles(&arrow(r#"{"cells":["R1C1"],"lines":[["R1C1","R2C2","R3C3"]]}"#)).unwrap();
        assert_eq!(count(&puzzle), expected);
        // A pill down a column, r1c1 r2c1, listed bottom first, its line
        // leaving from r2c1: arrow r3c2 r4c3 r3c4 r2c3 (cells 9, 14, 11, 6).
        let expected = all.iter().filter(|g| 10 * g[0] + g[4] == g[9] + g[14] + g[11] + g[6]).count() as u64;
        assert!(expected > 0);
        let pill = r#"{"cells":["R2C1","R1C1"],"lines":[["R2C1","R3C2","R4C3","R3C4","R2C3"]]}"#;
        assert_eq!(count(&read_fpuzzles(&arrow(pill)).unwrap()), expected);
    }

    /// What f-puzzles cannot hold is refused, not written as another puzzle:
    /// a little killer that is no diagonal run (a bent one, one with a gap,
    /// both of which read back as other clues), a sum dot other than X and
    /// V (read back, refused), and pencil marks (dropped, 72 solutions
    /// became 288).
    #[test]
    fn clues_without_an_f_puzzles_form_are_refused() {
        let refused = |clue: &str| {
            let geometry = Geometry::latin(4).unwrap().with_constraints(vec![Constraint::parse(clue, 4).unwrap()]);
            let puzzle = Puzzle::new(Arc::new(geometry.unwrap()), Grid::empty(4)).unwrap();
            write_fpuzzles(&puzzle, None).map(|_| ()).unwrap_err().to_string()
        };
        assert!(refused("little-killer 3 r2c4 r1c3 r1c4").contains("not one diagonal run"));
        assert!(refused("little-killer 9 r1c1 r2c2 r4c4").contains("not one diagonal run"));
        assert!(refused("sum 3 r1c1 r1c2").contains("sums of 10 and 5 only"));
        let mut marks = crate::Domains::full(4);
        for v in 1..4 {
            marks.remove(Cell::from_index(0), Value::from_index(v));
        }
        let geometry = Arc::new(Geometry::classic(4).unwrap());
        let puzzle = Puzzle::with_candidates(geometry, Grid::empty(4), marks).unwrap();
        let error = write_fpuzzles(&puzzle, None).unwrap_err().to_string();
        assert!(error.contains("pencil marks"), "{error}");
        // A whole diagonal is still written, and reads back the same.
        let geometry = Geometry::latin(4).unwrap();
        let clue = Constraint::parse("little-killer 10 r1c1 r2c2 r3c3 r4c4", 4).unwrap();
        let puzzle = Puzzle::new(Arc::new(geometry.with_constraints(vec![clue.clone()]).unwrap()), Grid::empty(4));
        let back = read_fpuzzles(&write_fpuzzles(&puzzle.unwrap(), None).unwrap()).unwrap();
        assert_eq!(back.geometry().constraints(), &[clue]);
    }

    /// f-puzzles sums a little killer from the edge to the edge: one that
    /// stops short has no f-puzzles form, and is refused, not changed.
    #[test]
    fn a_little_killer_short_of_the_edge_is_refused() {
        let text = "size = 4\nboxes = \"2x2\"\n[[little_killer]]\ncells = \"r1c1 r2c2\"\nsum = 3\n";
        let puzzle = Puzzle::new(Arc::new(parse_grid_file(text, "lk.toml").unwrap()), Grid::empty(4)).unwrap();
        let error = write_fpuzzles(&puzzle, None).unwrap_err();
        assert!(error.to_string().contains("stops short of the grid's edge"), "{error}");
        let text = "size = 4\nboxes = \"2x2\"\n[[little_killer]]\ncells = \"r1c1 r2c2 r3c3 r4c4\"\nsum = 10\n";
        let puzzle = Puzzle::new(Arc::new(parse_grid_file(text, "lk.toml").unwrap()), Grid::empty(4)).unwrap();
        assert!(write_fpuzzles(&puzzle, None).is_ok());
        // A corner's diagonal of one cell runs edge to edge: it was refused
        // as stopping short (the direction guessed towards the grid).
        for corner in ["r1c1", "r1c4", "r4c1", "r4c4"] {
            let clue = Constraint::parse(&format!("little-killer 3 {corner}"), 4).unwrap();
            let geometry = Geometry::classic(4).unwrap().with_constraints(vec![clue.clone()]).unwrap();
            let puzzle = Puzzle::new(Arc::new(geometry), Grid::empty(4)).unwrap();
            let back = read_fpuzzles(&write_fpuzzles(&puzzle, None).unwrap()).unwrap();
            assert_eq!(back.geometry().constraints(), &[clue], "{corner}");
        }
    }

    /// Rules of the wrong shape were dropped without a word (a puzzle with
    /// more solutions than the one written), and numbers past 2³² wrapped
    /// around: each is refused now, saying where.
    #[test]
    fn malformed_rules_are_refused_not_dropped() {
        let row = r#"[{},{},{},{}]"#;
        let with = |extra: &str, first: &str| {
            format!(r#"{{"size":4,"grid":[[{first},{{}},{{}},{{}}],{row},{row},{row}]{extra}}}"#)
        };
        let cases = [
            (with("", r#"{"givenPencilMarks":[1]}"#), "grid[0][0].givenPencilMarks"),
            (with("", r#"{"value":4294967297,"given":true}"#), "grid[0][0].value: 4294967297 is too large"),
            (with(r#","killercage":[{"cells":["R1C1","R1C2"],"value":4294967299}]"#, "{}"), "killercage[0].value"),
            (with(r#","killercage":{"cells":["R1C1","R1C2"],"value":"3"}"#, "{}"), "killercage: expected a list"),
            (with(r#","thermometer":[{"cells":["R1C1","R1C2"]}]"#, "{}"), "thermometer[0].lines"),
            (with(r#","arrow":[{"cells":["R1C1"]}]"#, "{}"), "arrow[0].lines"),
            (with(r#","negative":"xv""#, "{}"), "negative: expected a list"),
            (with(r#","diagonal-":1"#, "{}"), "diagonal-: expected true or false"),
            (with(r#","antiknight":"true""#, "{}"), "antiknight: expected true or false"),
        ];
        for (json, says) in cases {
            let error = read_fpuzzles(&json).map(|_| ()).unwrap_err().to_string();
            assert!(error.contains(says), "{json}: {error}");
        }
        // The same rules well formed are read.
        assert!(read_fpuzzles(&with(r#","diagonal-":true,"negative":["xv"]"#, "{}")).is_ok());
    }

    /// Values of the wrong shape that were passed over without a word, each
    /// leaving a puzzle with more solutions than the one written (288, the
    /// blank 4x4, for the first two): each is now refused at its JSON path.
    #[test]
    fn values_of_the_wrong_shape_are_refused_where_they_are() {
        let row = r#"[{},{},{},{}]"#;
        let with = |extra: &str, first: &str| {
            format!(r#"{{"size":4,"grid":[[{first},{{}},{{}},{{}}],{row},{row},{row}]{extra}}}"#)
        };
        let cases = [
            (with("", r#"{"value":2,"given":"true"}"#), "f-puzzles grid[0][0].given: expected true or false"),
            (with("", r#"{"value":2,"given":1}"#), "f-puzzles grid[0][0].given: expected true or false"),
            (with("", "5"), "f-puzzles grid[0][0]: expected a cell object"),
            (with("", "null"), "f-puzzles grid[0][0]: expected a cell object"),
            (with(r#","littlekillersum":[5]"#, "{}"), "f-puzzles littlekillersum[0]: expected an object"),
            (
                with(r#","littlekillersum":[{"cell":"R2C2","direction":"DR","value":"3"}]"#, "{}"),
                "f-puzzles littlekillersum[0].cell: the clue at R2C2 is inside the grid",
            ),
            (
                with(r#","sandwichsum":[{"cell":"R0C1","value":"3"},"R1C0"]"#, "{}"),
                "f-puzzles sandwichsum[1]: expected an object",
            ),
            (with(r#","killercage":[["R1C1"]]"#, "{}"), "f-puzzles killercage[0]: expected an object"),
            // A little killer of 0 is a clue no grid meets, not an empty one.
            (
                with(r#","littlekillersum":[{"cell":"R0C0","direction":"DR","value":"0"}]"#, "{}"),
                "f-puzzles littlekillersum[0]: little-killer: 4 cells",
            ),
            (
                with(r#","ratio":[{"cells":["R1C1","R1C2"],"value":"x"}]"#, "{}"),
                "f-puzzles ratio[0].value: 'x' is not a number",
            ),
            // Digits only: a sign was read past ("+3" as 3).
            (
                with(r#","killercage":[{"cells":["R1C1","R1C2"],"value":"+3"}]"#, "{}"),
                "f-puzzles killercage[0].value: '+3' is not a number",
            ),
            // A sign is no part of a cell name (`R+1C1` was R1C1).
            (with(r#","odd":[{"cell":"R+1C1"}]"#, "{}"), "f-puzzles odd[0].cell: 'R+1C1' is not a cell"),
            (with(r#","sandwichsum":[{"cell":"R-0C1","value":"3"}]"#, "{}"), "f-puzzles sandwichsum[0].cell: 'R-0C1'"),
            // A given of 0 was an empty cell; a little killer pointing away
            // from the grid said "0 cells … cannot sum to 3".
            (with("", r#"{"value":0,"given":true}"#), "f-puzzles grid[0][0].value: a given of 0 is no value"),
            // A given with no value was an empty cell too.
            // Columns are characters, not bytes.
            (
                r#"{"size":4,"title":"ééééé","grid":[],}"#.to_string(),
                "not an f-puzzles puzzle: the JSON does not parse: trailing comma at line 1 column 37",
            ),
            // A key written twice was read as its last value.
            (
                r#"{"size":9,"grid":[],"size":4}"#.to_string(),
                "not an f-puzzles puzzle: the JSON does not parse: the key \"size\" is written twice in one object at line 1 column 26",
            ),
            (
                with(r#","odd":[{"cell":"R1C1","cell":"R2C2"}]"#, "{}"),
                "not an f-puzzles puzzle: the JSON does not parse: the key \"cell\" is written twice",
            ),
            (with("", r#"{"given":true}"#), "f-puzzles grid[0][0].given: a given with no value (expected \"value\": 1 to 4)"),
            (with("", r#"{"value":null,"given":true}"#), "f-puzzles grid[0][0].given: a given with no value"),
            (
                with("", r#"{"region":"a"}"#),
                "f-puzzles grid[0][0].region: expected a region number (0 to n-1), not a string",
            ),
            (with("", r#"{"region":4}"#), "f-puzzles grid[0][0].region: a cell outside every region"),
            (
                with(r#","littlekillersum":[{"cell":"R0C5","direction":"UR","value":"3"}]"#, "{}"),
                "f-puzzles littlekillersum[0].direction: the clue at R0C5 points \"UR\" past the 4x4 grid",
            ),
        ];
        for (json, says) in cases {
            let error = read_fpuzzles(&json).map(|_| ()).unwrap_err().to_string();
            assert!(error.starts_with(says), "{json}: {error}");
        }
        // What f-puzzles writes is still read: a given, a solver's value
        // (no clue), `"given": false`, a little killer drawn without a sum.
        let puzzle = read_fpuzzles(&with(
            r#","littlekillersum":[{"cell":"R0C0","direction":"DR","value":""}]"#,
            r#"{"value":2,"given":true}"#,
        ))
        .unwrap();
        assert_eq!(puzzle.givens().get(Cell::from_index(0)), Value::new_checked(2, 4));
        assert!(puzzle.geometry().constraints().is_empty());
        let puzzle = read_fpuzzles(&with("", r#"{"value":2,"given":false}"#)).unwrap();
        assert_eq!(puzzle.givens().get(Cell::from_index(0)), None);
    }

    /// `[]` and `!!!` both said "the JSON does not parse: EOF…": `[]` is JSON
    /// (no object), `!!!` neither JSON nor a compressed string.
    #[test]
    fn text_that_is_no_f_puzzles_object_says_what_it_is() {
        let cases = [
            ("[]", "f-puzzles $: expected a JSON object", "not a list ([])"),
            ("null", "f-puzzles $: expected a JSON object", "not null"),
            ("42", "f-puzzles $: expected a JSON object", "not a number (42)"),
            ("!!!", "not an f-puzzles puzzle: '!!!' is neither JSON nor lz-string base64", "?load="),
            ("", "not an f-puzzles puzzle: the text is empty", "?load="),
            ("N4Ig", "not an f-puzzles puzzle: 'N4Ig' is base64 that does not decompress", "cut short"),
            ("{\"size\":", "not an f-puzzles puzzle: the JSON does not parse", "EOF"),
            (
                "{\"index\":1,\"status\":\"solved\"}",
                "f-puzzles $: a JSON object with no \"size\" and no \"grid\"",
                "expected an f-puzzles puzzle",
            ),
            // A size that is no side says what it is and what would do.
            ("{\"size\":-4,\"grid\":[]}", "f-puzzles size: -4 is no grid side", "from 1 to 64"),
            ("{\"size\":4.5,\"grid\":[]}", "f-puzzles size: 4.5 is no grid side", "from 1 to 64"),
            ("{\"grid\":[]}", "f-puzzles size: missing", "the grid side"),
        ];
        for (text, starts, says) in cases {
            let error = read_fpuzzles(text).map(|_| ()).unwrap_err().to_string();
            assert!(error.starts_with(starts) && error.contains(says), "{text:?}: {error}");
        }
        // A compressed string of text that is no JSON says it was decompressed.
        let string = lz_str::compress_to_base64("size 4");
        let error = read_fpuzzles(&string).map(|_| ()).unwrap_err().to_string();
        assert!(error.contains("the string decompresses to text that is not JSON"), "{error}");
    }

    /// A region or an extra region that is wrong is said at the JSON path
    /// of the cell at fault (both were at `$`: "extra unit 1 has 3
    /// distinct cells", "region 1 (in order of first appearance) has 5
    /// cells"), a region by the number the JSON gives it.
    #[test]
    fn region_errors_name_their_path() {
        let row = r#"[{},{},{},{}]"#;
        let json = format!(
            r#"{{"size":4,"grid":[{row},{row},{row},{row}],"extraregion":[{{"cells":["R1C1","R1C1","R2C1","R2C2"]}}]}}"#
        );
        let error = read_fpuzzles(&json).map(|_| ()).unwrap_err().to_string();
        assert!(error.starts_with("f-puzzles extraregion[0].cells: extra region: cell r1c1 appears twice"), "{error}");
        // Region 0 takes r1c1-r1c3, r2c1 and r2c2: r2c2 is its fifth cell.
        let regions = [[0, 0, 0, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]];
        let rows: Vec<String> =
            regions.iter().map(|row| format!("[{}]", row.map(|r| format!(r#"{{"region":{r}}}"#)).join(","))).collect();
        let json = format!(r#"{{"size":4,"grid":[{}]}}"#, rows.join(","));
        let error = read_fpuzzles(&json).map(|_| ()).unwrap_err().to_string();
        assert!(error.starts_with("f-puzzles grid[1][1].region: region 0 has 5 cells, expected 4"), "{error}");
        // A prime size without regions: the advice is what the JSON needs,
        // not options that do not combine with --fpuzzles.
        let row = format!("[{}]", ["{}"; 5].join(","));
        let json = format!(r#"{{"size":5,"grid":[{}]}}"#, [row.as_str(); 5].join(","));
        let error = read_fpuzzles(&json).map(|_| ()).unwrap_err().to_string();
        assert!(error.contains("give each cell its `region` (0 to 4)") && !error.contains("--latin"), "{error}");
    }

    /// Negative rules and disjoint groups that f-puzzles would read back as
    /// other rules are refused, not written: its non-consecutive spares
    /// kropki pairs, its negative ratio forbids the black dots' ratios, and
    /// its disjoint groups need default boxes.
    /// A whisper's `value` that is the default gap written out reads as a
    /// whisper; another gap is refused, named where it is.
    #[test]
    fn whispers_take_their_default_gap_written_out() {
        let json = |value: u32| {
            format!(
                r#"{{"size":4,"grid":[{}],"whispers":[{{"lines":[["R1C1","R1C2","R1C3"]],"value":{value}}}]}}"#,
                [r#"[{},{},{},{}]"#; 4].join(",")
            )
        };
        let puzzle = read_fpuzzles(&json(2)).unwrap();
        assert!(matches!(puzzle.geometry().constraints(), [Constraint::Whisper { .. }]));
        let e = read_fpuzzles(&json(3)).unwrap_err().to_string();
        assert!(e.contains("whispers[0].value") && e.contains("a gap other than 2"), "{e}");
    }

    #[test]
    fn rules_f_puzzles_would_read_as_others_are_refused() {
        let refused = |text: &str| {
            let puzzle = Puzzle::new(Arc::new(parse_grid_file(text, "g.toml").unwrap()), Grid::empty(9)).unwrap();
            write_fpuzzles(&puzzle, None).map(|_| ()).unwrap_err().to_string()
        };
        let dot = "[[kropki]]\ncells = \"r1c1 r1c2\"\nkind = \"black\"\n";
        let e = refused(&format!("size = 9\nboxes = \"3x3\"\nnon_consecutive = true\n{dot}"));
        assert!(e.contains("nonconsecutive"), "{e}");
        let e =
            refused("size = 9\nboxes = \"3x3\"\nkropki_negative = true\n[[ratio]]\ncells = \"r1c1 r1c2\"\nvalue = 3\n");
        assert!(e.contains("negative"), "{e}");
        let geometry = Geometry::new(6, Layout::Boxes { rows: 3, cols: 2 }, &[Variant::DisjointGroups]).unwrap();
        let puzzle = Puzzle::new(Arc::new(geometry), Grid::empty(6)).unwrap();
        let e = write_fpuzzles(&puzzle, None).unwrap_err().to_string();
        assert!(e.contains("disjoint"), "{e}");
        // What reads back as written is still written.
        let kept =
            "size = 9\nboxes = \"3x3\"\nkropki_negative = true\n[[kropki]]\ncells = \"r1c1 r1c2\"\nkind = \"white\"\n";
        let puzzle = Puzzle::new(Arc::new(parse_grid_file(kept, "g.toml").unwrap()), Grid::empty(9)).unwrap();
        assert!(write_fpuzzles(&puzzle, None).is_ok());
    }
}
