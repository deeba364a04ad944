//! Grid definition files (`--grid FILE`, the files in `encodings/`): TOML naming a size, a layout, extra units and variant constraints.
//!
//! ```toml
//! name = "X-sudoku"
//! size = 9
//! boxes = "3x3"          # or: latin = true, or: regions = """...""" (n rows of n labels)
//! variants = ["x"]       # "x", "hyper", "anti-knight", "anti-king", "non-consecutive", "disjoint-groups"
//! extra_units = ["r1c1 r2c2 r3c3 ..."]   # any further units, as cell names
//! anti_knight = true     # also anti_king, non_consecutive, disjoint_groups,
//!                        # kropki_negative, xv_negative
//! odd = "r1c1 r5c5"      # and even = "..."
//! [[killer]]             # and little_killer, thermo, arrow, kropki, xv, difference,
//! cells = "r1c1 r1c2"    # ratio, renban, whisper, palindrome, sandwich, extra_region:
//! sum = 10               # see docs/variants.md
//! ```

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::decoded::{not_utf8_at, read_text_file};
use crate::error::{echo, GeometryError, GridFileError};
use crate::model::constraints::{side_by_side, Constraint, Line, Relation};
use crate::model::geometry::{default_box, Cell, Geometry, Layout, Variant};
use crate::text::notation::{parse_box_shape, parse_cell_name, read_region_map};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    #[allow(dead_code)]
    name: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    size: Spanned<usize>,
    boxes: Option<Spanned<String>>,
    latin: Option<Spanned<bool>>,
    regions: Option<Spanned<String>>,
    #[serde(default)]
    variants: Vec<Spanned<String>>,
    #[serde(default)]
    extra_units: Vec<Spanned<String>>,
    anti_knight: Option<Spanned<bool>>,
    anti_king: Option<Spanned<bool>>,
    non_consecutive: Option<Spanned<bool>>,
    disjoint_groups: Option<Spanned<bool>>,
    #[serde(default)]
    kropki_negative: bool,
    #[serde(default)]
    xv_negative: bool,
    odd: Option<Spanned<String>>,
    even: Option<Spanned<String>>,
    #[serde(default)]
    killer: Vec<Spanned<Cage>>,
    #[serde(default)]
    little_killer: Vec<Spanned<Sum>>,
    #[serde(default)]
    thermo: Vec<Spanned<Cells>>,
    #[serde(default)]
    arrow: Vec<Spanned<Arrow>>,
    #[serde(default)]
    kropki: Vec<Spanned<Kind>>,
    #[serde(default)]
    xv: Vec<Spanned<Kind>>,
    #[serde(default)]
    difference: Vec<Spanned<Dot>>,
    #[serde(default)]
    ratio: Vec<Spanned<Dot>>,
    #[serde(default)]
    renban: Vec<Spanned<Cells>>,
    #[serde(default)]
    whisper: Vec<Spanned<Cells>>,
    #[serde(default)]
    palindrome: Vec<Spanned<Cells>>,
    #[serde(default)]
    sandwich: Vec<Spanned<Sandwich>>,
    #[serde(default)]
    extra_region: Vec<Spanned<Cells>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cells {
    cells: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cage {
    cells: Spanned<String>,
    sum: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sum {
    cells: Spanned<String>,
    sum: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Arrow {
    circle: Spanned<String>,
    cells: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Kind {
    cells: Spanned<String>,
    kind: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Dot {
    cells: Spanned<String>,
    value: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sandwich {
    line: Spanned<String>,
    sum: u32,
}

/// Read a grid definition from the file at `path`.
pub fn load_grid_file(path: &Path) -> Result<Geometry, GridFileError> {
    let name = path.display().to_string();
    let bytes = read_text_file(path).map_err(|e| GridFileError::Io { path: name.clone(), message: e.to_string() })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, column, byte) = not_utf8_at(&e);
        let message = format!("byte 0x{byte:02x} is not UTF-8 (a grid file is TOML text, as in encodings/)");
        GridFileError::At { path: name.clone(), line, column, message }
    })?;
    parse_grid_file(&text, &name)
}

/// The name of a single table's header at the start of `text` (`[killer]`
/// gives `killer`; `[[killer]]`, an array of tables, gives none).
fn single_table(text: &str) -> Option<&str> {
    let line = text.lines().next()?.trim();
    let name = line.strip_prefix('[')?.split(']').next()?.trim();
    (!line.starts_with("[[") && !name.is_empty()).then_some(name)
}

/// A TOML reader's message about the value at `offset`, with the table and
/// key it is in (`killer: sum: …`): serde's words name neither.
fn in_table(text: &str, offset: usize, message: &str) -> String {
    let before = &text[..offset.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    // The table of the line (a header at `offset` is its own table's).
    let table = text[..line_start + line.len()]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|header| header.trim_start_matches('[').split(']').next().unwrap_or("").trim());
    // The key of a `key = value` line, when the value is at fault.
    let key = line
        .split_once('=')
        .filter(|(key, _)| line_start + key.len() < offset)
        .map(|(key, _)| key.trim())
        .filter(|key| !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-'));
    let context: Vec<&str> = table.into_iter().chain(key).collect();
    match context.is_empty() {
        true => message.to_string(),
        false => format!("{}: {message}", context.join(": ")),
    }
}

/// What is missing where TOML's reader stops at `offset` (the file ends
/// after `key =`, or inside a list): the value after `=`, or the `]` of
/// the list open there, named at the line its `[` is on.
fn cut_short(text: &str, offset: usize) -> Option<String> {
    let mut open: Vec<usize> = Vec::new();
    let mut last = None;
    let before = &text[..offset.min(text.len())];
    let mut chars = before.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => {
                chars.by_ref().find(|&(_, c)| c == '\n');
                continue;
            }
            // A multi-line string (`"""…"""`, `\'\'\'…\'\'\'`) goes on over line ends.
            '"' | '\'' if before[i..].starts_with(&c.to_string().repeat(3)) => {
                let quotes = c.to_string().repeat(3);
                let end = before[i + 3..].find(&quotes).map_or(before.len(), |at| i + 3 + at + 3);
                while chars.next_if(|&(j, _)| j < end).is_some() {}
            }
            '"' | '\'' => {
                let mut escaped = false;
                chars.by_ref().find(|&(_, x)| {
                    let end = x == c && !escaped || x == '\n';
                    escaped = c == '"' && x == '\\' && !escaped;
                    end
                });
            }
            '[' => open.push(i),
            ']' => {
                open.pop();
            }
            _ => {}
        }
        if !c.is_whitespace() {
            last = Some(c);
        }
    }
    match (last, open.first()) {
        (Some('='), _) => Some(
            "no value after `=` (expected a number, a string in quotes, true or false, or a list in [ ])".to_string(),
        ),
        (_, Some(&at)) => Some(format!(
            "the list opened at line {} is not closed (expected `]`)",
            text[..at].matches('\n').count() + 1
        )),
        _ => None,
    }
}

/// serde's name of a number type in words: `expected u32` says little to
/// someone writing a grid file; nor does TOML's "number too large" say
/// what would do.
fn readable(message: &str) -> String {
    [
        ("expected u32", "expected a whole number from 0 to 4294967295"),
        ("expected u64", "expected a whole number, 0 or more"),
        ("expected usize", "expected a whole number, 0 or more"),
        ("number too large to fit in target type", "a number past 2^63 (expected a whole number, 0 or more)"),
    ]
    .iter()
    .fold(message.to_string(), |m, (serde, words)| m.replace(serde, words))
}

/// Read a grid definition from TOML text (`name` is used in messages).
pub fn parse_grid_file(text: &str, name: &str) -> Result<Geometry, GridFileError> {
    let syntax = |message: String| GridFileError::Syntax { path: name.to_string(), message };
    // Where the text of a string value starts in the file, when it is
    // written there as is: no escapes, and for a multi-line string its first
    // line break (no part of the value) skipped.
    let raw_start = |value: &Spanned<String>| -> Option<usize> {
        let start = value.span().start;
        let (quote, rest) = ["\"\"\"", "'''", "\"", "'"]
            .iter()
            .find_map(|q| text.get(start..)?.strip_prefix(q).map(|rest| (q.len(), rest)))?;
        let skip = match quote {
            3 if rest.starts_with("\r\n") => 2,
            3 if rest.starts_with('\n') => 1,
            _ => 0,
        };
        let from = start + quote + skip;
        (text.get(from..from + value.get_ref().len()) == Some(value.get_ref().as_str())).then_some(from)
    };
    // Where a byte offset is, as file:line:column.
    let at = |offset: usize, message: String| {
        let before = &text[..offset.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        GridFileError::At { path: name.to_string(), line, column, message }
    };
    let file: GridFile = toml::from_str(text).map_err(|e| match e.span() {
        Some(span) => {
            let message = e.message().trim_end().replace('\n', " ");
            // A control character says only "invalid basic string" (or
            // nothing, in a comment): named, as region maps name one.
            match text.get(span.start..).and_then(|rest| rest.chars().next()) {
                Some(ch) if ch.is_control() && !matches!(ch, '\t' | '\n') => {
                    let what = format!(
                        "control character U+{:04X} (TOML takes none but tab in strings and comments)",
                        ch as u32
                    );
                    at(span.start, if message.is_empty() { what } else { format!("{message}: {what}") })
                }
                _ => match single_table(text.get(span.start..).unwrap_or("")) {
                    // `[killer]` where each clue is a `[[killer]]`: serde's
                    // words name neither the table nor the fix.
                    Some(table) if message.contains("expected a sequence") => at(
                        span.start,
                        format!("[{table}] is one table, and {table} is a list of clues: write [[{table}]] above each clue ({message})"),
                    ),
                    // Puzzle text given to `--grid` (no `key = value` in it):
                    // TOML's words about the first character say nothing of that.
                    _ if !text.lines().any(|line| line.contains('=')) => at(
                        span.start,
                        format!("{} (this is no grid file, whose lines are TOML such as `size = 9`, as in encodings/; puzzles go after the options)", readable(&message)),
                    ),
                    _ => {
                    // At the file's end TOML's reader may say nothing at all, and
                    // of `key =` with nothing after it, that a quote was expected.
                    let rest = text.get(span.start..).and_then(|rest| rest.lines().next()).unwrap_or("").trim();
                    let message = match cut_short(text, span.start) {
                        Some(missing) if message.is_empty() || missing.starts_with("no value") && (rest.is_empty() || rest.starts_with('#')) => missing,
                        None if message.is_empty() => "the entry is cut short (expected `key = value`)".to_string(),
                        _ => message,
                    };
                        at(span.start, in_table(text, span.start, &readable(&message)))
                    }
                },
            }
        }
        None => syntax(e.to_string().trim_end().replace('\n', " ")),
    })?;
    let geometry_error = |error: GeometryError| GridFileError::Geometry { path: name.to_string(), error };
    let n = *file.size.get_ref();
    // Cell names are read against n: it must be a size first.
    if n == 0 || n > crate::model::geometry::MAX_SIZE {
        return Err(at(file.size.span().start, GeometryError::Size { n }.to_string()));
    }
    let latin = file.latin.as_ref().filter(|l| *l.get_ref());
    let disjoint = file.disjoint_groups.as_ref().filter(|d| *d.get_ref());
    // Where each layout key was given; the second one is the mistake.
    let mut layouts: Vec<usize> = [
        file.boxes.as_ref().map(|b| b.span().start),
        latin.map(|l| l.span().start),
        file.regions.as_ref().map(|r| r.span().start),
    ]
    .into_iter()
    .flatten()
    .collect();
    layouts.sort_unstable();
    if let Some(&second) = layouts.get(1) {
        return Err(at(second, "give at most one of `boxes`, `latin` and `regions`".into()));
    }
    let layout = if let Some(shape) = &file.boxes {
        let (rows, cols) = parse_box_shape(shape.get_ref()).ok_or_else(|| {
            at(shape.span().start, format!("boxes = \"{}\" is not of the form \"RxC\"", echo(shape.get_ref())))
        })?;
        Layout::Boxes { rows, cols }
    } else if latin.is_some() {
        Layout::Latin
    } else if let Some(map) = &file.regions {
        // At the label at fault when the map is written as is; else at the
        // string, naming the map's own line and column.
        let labels = read_region_map(map.get_ref(), Some(n)).map_err(|e| match (e.at, raw_start(map)) {
            (Some(place), Some(from)) => at(from + place.offset, e.message),
            (Some(place), None) => at(
                map.span().start,
                format!("the region map, its line {}, column {}: {}", place.line, place.column, e.message),
            ),
            (None, _) => at(map.span().start, e.message),
        })?;
        Layout::Regions(labels)
    } else {
        let (rows, cols) = default_box(n).map_err(|e| at(file.size.span().start, e.to_string()))?;
        Layout::Boxes { rows, cols }
    };
    // Each variant with where it was named (for the errors of the grid they make).
    let named = file
        .variants
        .iter()
        .map(|v| {
            let variant = v.get_ref().parse::<Variant>().map_err(|_| {
                let names = Variant::names().join(", ");
                let message = format!("unknown variant \"{}\" (expected one of {names})", echo(v.get_ref()));
                at(v.span().start, message)
            })?;
            Ok((variant, v.span().start))
        })
        .collect::<Result<Vec<_>, GridFileError>>()?;
    let mut variants: Vec<Variant> = named.iter().map(|&(variant, _)| variant).collect();
    let flags = [
        ("anti_knight", &file.anti_knight, Variant::AntiKnight),
        ("anti_king", &file.anti_king, Variant::AntiKing),
        ("non_consecutive", &file.non_consecutive, Variant::NonConsecutive),
        ("disjoint_groups", &file.disjoint_groups, Variant::DisjointGroups),
    ];
    for (key, flag, variant) in flags {
        match flag.as_ref().map(|f| (*f.get_ref(), f.span().start)) {
            Some((true, _)) => variants.push(variant),
            // `variants = ["anti-knight"]` and `anti_knight = false`: which
            // was meant is not for satdoku to guess.
            Some((false, at_flag)) if variants.contains(&variant) => {
                let message = format!("{key} = false, but variants names \"{variant}\" (give one of the two)");
                return Err(at(at_flag, message));
            }
            _ => {}
        }
    }
    // Each clue with its table's name and the place of its cells (or line),
    // checked there.
    let mut clues: Vec<(usize, &str, Constraint)> = Vec::new();
    // Where a word of a string value starts (exact for a string written
    // without escapes), else where the value does.
    let word_at =
        |value: &Spanned<String>, index: usize| raw_start(value).map_or(value.span().start, |from| from + index);
    let cells = |value: &Spanned<String>, key: &str| {
        cell_list(value.get_ref(), n).map_err(|(index, w)| {
            let message = format!("{key}: '{}' is not a cell of a {n}x{n} grid (expected rRcC, 1-based)", echo(&w));
            at(word_at(value, index), message)
        })
    };
    let mut extra = file.extra_units.iter().map(|unit| cells(unit, "extra_units")).collect::<Result<Vec<_>, _>>()?;
    // Where each extra unit was written, in the order they reach the
    // geometry: `extra_units` first, then the regions of n cells.
    let mut extra_at: Vec<usize> = file.extra_units.iter().map(|unit| unit.span().start).collect();
    for (key, list, odd) in [("odd", &file.odd, true), ("even", &file.even, false)] {
        if let Some(list) = list {
            let cells = cells(list, key)?;
            clues.push((
                list.span().start,
                key,
                if odd { Constraint::Odd { cells } } else { Constraint::Even { cells } },
            ));
        }
    }
    for t in &file.killer {
        let c = t.get_ref();
        clues.push((
            c.cells.span().start,
            "killer",
            Constraint::Killer { cells: cells(&c.cells, "killer")?, sum: c.sum },
        ));
    }
    for t in &file.little_killer {
        let c = t.get_ref();
        let cells = cells(&c.cells, "little_killer")?;
        clues.push((c.cells.span().start, "little_killer", Constraint::LittleKiller { cells, sum: c.sum }));
    }
    for t in &file.arrow {
        let c = t.get_ref();
        let (circle, line) = (cells(&c.circle, "arrow")?, cells(&c.cells, "arrow")?);
        // A circle that is none (empty, or a pill of cells apart or too
        // many, or on a grid past 9×9) is named where it is written, not at
        // the line.
        let no_circle =
            circle.is_empty() || circle.len() > 3 || !side_by_side(&circle, n) || (circle.len() > 1 && n > 9);
        let place = if no_circle { &c.circle } else { &c.cells };
        clues.push((place.span().start, "arrow", Constraint::Arrow { circle, cells: line }));
    }
    let pair = |value: &Spanned<String>, key: &str| -> Result<[Cell; 2], GridFileError> {
        let list = cells(value, key)?;
        list.try_into()
            .map_err(|l: Vec<Cell>| at(value.span().start, format!("{key}: a dot joins 2 cells, not {}", l.len())))
    };
    for (key, list) in [("kropki", &file.kropki), ("xv", &file.xv)] {
        for t in list {
            let c = t.get_ref();
            let relation = match (key, c.kind.get_ref().to_ascii_lowercase().as_str()) {
                ("kropki", "white") => Relation::Difference(1),
                ("kropki", "black") => Relation::Ratio(2),
                ("xv", "x") => Relation::Sum(10),
                ("xv", "v") => Relation::Sum(5),
                (_, other) => {
                    let expected = if key == "kropki" { "\"white\" or \"black\"" } else { "\"x\" or \"v\"" };
                    return Err(at(
                        c.kind.span().start,
                        format!("{key}: no kind \"{}\" (expected {expected})", echo(other)),
                    ));
                }
            };
            clues.push((c.cells.span().start, key, Constraint::Dot { relation, cells: pair(&c.cells, key)? }));
        }
    }
    for (key, list, ratio) in [("difference", &file.difference, false), ("ratio", &file.ratio, true)] {
        for t in list {
            let c = t.get_ref();
            let relation = match ratio {
                false => Relation::Difference(c.value.unwrap_or(1)),
                true => Relation::Ratio(c.value.unwrap_or(2)),
            };
            clues.push((c.cells.span().start, key, Constraint::Dot { relation, cells: pair(&c.cells, key)? }));
        }
    }
    for t in &file.sandwich {
        let c = t.get_ref();
        let o = c.line.span().start;
        let line = Line::parse(c.line.get_ref().trim(), n).ok_or_else(|| {
            at(
                o,
                format!(
                    "sandwich: line \"{}\" is no row or column of a {n}x{n} grid (expected r1 to r{n} or c1 to c{n})",
                    echo(c.line.get_ref())
                ),
            )
        })?;
        clues.push((o, "sandwich", Constraint::Sandwich { line, sum: c.sum }));
    }
    type Make = fn(Vec<Cell>) -> Constraint;
    let lines: [(&str, &Vec<Spanned<Cells>>, Make); 4] = [
        ("thermo", &file.thermo, |cells| Constraint::Thermo { cells }),
        ("renban", &file.renban, |cells| Constraint::Renban { cells }),
        ("whisper", &file.whisper, |cells| Constraint::Whisper { cells }),
        ("palindrome", &file.palindrome, |cells| Constraint::Palindrome { cells }),
    ];
    for (key, list, make) in lines {
        for t in list {
            let value = &t.get_ref().cells;
            clues.push((value.span().start, key, make(cells(value, key)?)));
        }
    }
    for t in &file.extra_region {
        let value = &t.get_ref().cells;
        let region = cells(value, "extra_region")?;
        // A region of n cells is a unit; a smaller one, cells of distinct
        // values. A unit is checked as a clue first, so that a repeated cell
        // is named where it is written (it was "extra unit 1 has 3 distinct
        // cells", placed by an `extra_units` the file may not have).
        if region.len() == n {
            let unit = Constraint::Killer { cells: region.clone(), sum: None };
            unit.validate(n).map_err(|message| at(value.span().start, format!("extra_region: {message}")))?;
            extra.push(region);
            extra_at.push(value.span().start);
        } else {
            clues.push((value.span().start, "extra_region", Constraint::Killer { cells: region, sum: None }));
        }
    }
    if file.kropki_negative {
        // A pair with either dot is exempt from both (1 and 2 take either dot).
        let relations = vec![Relation::Difference(1), Relation::Ratio(2)];
        clues.push((0, "kropki_negative", Constraint::Negative { relations }));
    }
    if file.xv_negative {
        clues.push((0, "xv_negative", Constraint::Negative { relations: vec![Relation::Sum(5), Relation::Sum(10)] }));
    }
    for (offset, key, clue) in &clues {
        clue.validate(n).map_err(|message| at(*offset, format!("{key}: {message}")))?;
    }
    let constraints = clues.into_iter().map(|(_, _, c)| c).collect();
    // A grid that cannot be built is said at the key that asked for it.
    let variant_at = |variant: Variant| named.iter().find(|&&(v, _)| v == variant).map(|&(_, offset)| offset);
    let place = |error: &GeometryError| -> Option<usize> {
        match error {
            GeometryError::Prime { .. } | GeometryError::BoxShape { .. } | GeometryError::BoxesTooLarge { .. } => {
                file.boxes.as_ref().map(|b| b.span().start).or(Some(file.size.span().start))
            }
            GeometryError::RegionsLength { .. }
            | GeometryError::RegionCount { .. }
            | GeometryError::RegionSize { .. } => file.regions.as_ref().map(|r| r.span().start),
            GeometryError::DisjointGroups => {
                disjoint.map(|d| d.span().start).or_else(|| variant_at(Variant::DisjointGroups))
            }
            GeometryError::Hyper { .. } => variant_at(Variant::Hyper),
            GeometryError::ExtraUnit { unit, .. } => extra_at.get(unit - 1).copied(),
            _ => None,
        }
    };
    Geometry::with_extra_units(n, layout, &variants, extra).and_then(|g| g.with_constraints(constraints)).map_err(
        |error| match place(&error) {
            Some(offset) => at(offset, error.to_string()),
            None => geometry_error(error),
        },
    )
}

/// Cells written `r1c2`, separated by spaces or commas; otherwise the first
/// word that is no cell, with its byte index in `text`.
fn cell_list(text: &str, n: usize) -> Result<Vec<Cell>, (usize, String)> {
    let apart = |c: char| c.is_whitespace() || c == ',';
    text.split(apart)
        .filter(|w| !w.is_empty())
        .map(|w| {
            // `w` is a slice of `text`: its index is where it starts.
            let index = w.as_ptr() as usize - text.as_ptr() as usize;
            parse_cell_name(w, n).ok_or_else(|| (index, w.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::UnitKind;

    #[test]
    fn reads_boxes_variants_and_extra_units() {
        let g = parse_grid_file(
            "size = 4\nboxes = \"2x2\"\nvariants = [\"x\"]\nextra_units = [\"r1c1 r1c2 r2c1 r2c2\"]\n",
            "t",
        )
        .unwrap();
        assert_eq!(g.units().len(), 4 * 3 + 2 + 1);
        assert_eq!(g.units().last().unwrap().kind(), UnitKind::Extra);
    }

    #[test]
    fn reads_jigsaw_regions() {
        let g = parse_grid_file("size = 4\nregions = \"\"\"\naabb\naabb\nccdd\nccdd\n\"\"\"\n", "t").unwrap();
        assert!(matches!(g.layout(), Layout::Regions(_)));
    }

    #[test]
    fn errors_name_the_file_and_the_problem() {
        let e = parse_grid_file("size = 9\nboxes = \"2x4\"\n", "nine.toml").unwrap_err();
        assert_eq!(e.to_string(), "nine.toml:2:9: boxes of 2x4 do not tile a 9x9 grid (expected R x C = 9)");
        let e = parse_grid_file("size = 9\nbox = \"3x3\"\n", "nine.toml").unwrap_err();
        assert!(e.to_string().starts_with("nine.toml:2:1: unknown field `box`"), "{e}");
        let e = parse_grid_file("size = 4\nextra_units = [\"r1c1 r9c9\"]\n", "t").unwrap_err();
        assert!(e.to_string().contains("'r9c9' is not a cell"), "{e}");
        // A value of the wrong type, or a key missing, in a clue: the table
        // and the key are named, the type in words (serde's said neither).
        let e = parse_grid_file("size = 4\n[[killer]] # a\ncells = \"r1c1 r1c2\"\nsum = \"3\"\n", "t").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t:4:7: killer: sum: invalid type: string \"3\", expected a whole number from 0 to 4294967295"
        );
        // A pill on a grid past 9×9 is named at its circle, not its line.
        let e =
            parse_grid_file("size = 16\n[[arrow]]\ncircle = \"r1c1 r1c2\"\ncells = \"r2c1 r3c1\"\n", "t").unwrap_err();
        assert!(e.to_string().starts_with("t:3:10: arrow: a pill"), "{e}");
        // Too large for the key, or for any number TOML reads.
        let e = parse_grid_file("size = 4\n[[killer]]\ncells = \"r1c1 r1c2\"\nsum = 4294967296\n", "t").unwrap_err();
        assert!(e.to_string().ends_with("expected a whole number from 0 to 4294967295"), "{e}");
        let e = parse_grid_file("size = 4\n[[killer]]\ncells = \"r1c1 r1c2\"\nsum = 99999999999999999999\n", "t")
            .unwrap_err();
        assert_eq!(e.to_string(), "t:4:7: killer: sum: a number past 2^63 (expected a whole number, 0 or more)");
        let e = parse_grid_file("size = 4\n[[thermo]]\ncells = [\"r1c1\", \"r1c2\"]\n", "t").unwrap_err();
        assert_eq!(e.to_string(), "t:3:9: thermo: cells: invalid type: sequence, expected a string");
        let e = parse_grid_file("size = 4\n[[killer]]\nsum = 3\n", "t").unwrap_err();
        assert_eq!(e.to_string(), "t:2:1: killer: missing field `cells`");
        let e = parse_grid_file("size = \"4\"\n", "t").unwrap_err();
        assert_eq!(e.to_string(), "t:1:8: size: invalid type: string \"4\", expected a whole number, 0 or more");
        // `[killer]` for `[[killer]]` said only "invalid type: map, expected a sequence".
        let e = parse_grid_file("size = 4\n[killer]\ncells = \"r1c1 r1c2\"\nsum = 3\n", "t").unwrap_err();
        assert!(
            e.to_string().starts_with("t:2:1: [killer] is one table, and killer is a list of clues: write [[killer]]"),
            "{e}"
        );
        // Cut short at the file's end, TOML's reader said nothing ("t:1:7: size: ").
        let no_value = "no value after `=` (expected a number, a string in quotes, true or false, or a list in [ ])";
        for (text, want) in [
            ("size =".to_string(), format!("t:1:7: size: {no_value}")),
            ("size = 9\nname = ".to_string(), format!("t:2:8: name: {no_value}")),
            ("size = 9\n[[killer]]\ncells = \n".to_string(), format!("t:3:9: killer: cells: {no_value}")),
            ("size = 9\n[[killer]]\ncells = # r1c1\n".to_string(), format!("t:3:9: killer: cells: {no_value}")),
            (
                "size = 9\nextra_units = [\n  \"r1c1 r2c2\", # ]\n  # \"r3c3\"".to_string(),
                "t:4:11: the list opened at line 2 is not closed (expected `]`)".to_string(),
            ),
            // Brackets inside a multi-line string are none.
            (
                "size = 9\nname = \"\"\"a [\nb ] ]\"\"\"\nextra_units = [\n  \"r1c1 r2c2\", # x".to_string(),
                "t:5:19: the list opened at line 4 is not closed (expected `]`)".to_string(),
            ),
        ] {
            let e = parse_grid_file(&text, "t").unwrap_err();
            assert_eq!(e.to_string(), want, "{text:?}");
        }
    }

    /// Errors of the layout, the variants and the extra units named the file
    /// only: each now says the line and column of the key that asked for it.
    #[test]
    fn layout_errors_say_where() {
        let regions = "regions = \"\"\"\naabb\naabb\nccdd\ncddd\n\"\"\"\n";
        let cases = [
            ("size = 4\nboxes = \"2x2\"\nlatin = true\n", "t:3:9: give at most one"),
            ("size = 4\nboxes = \"2by2\"\n", "t:2:9: boxes = \"2by2\""),
            ("size = 0\n", "t:1:8: a grid side of 0"),
            ("size = 7\n", "t:1:8: 7 is prime"),
            ("size = 4\nlatin = true\ndisjoint_groups = true\n", "t:3:19: disjoint groups need boxes"),
            (
                "size = 4\nvariants = [\"anti-knight\"]\nanti_knight = false\n",
                "t:3:15: anti_knight = false, but variants names \"anti-knight\"",
            ),
            ("size = 6\nvariants = [\"x\", \"hyper\"]\n", "t:2:18: hyper windows"),
            ("size = 4\nvariants = [\"x\", \"foo\"]\n", "t:2:18: unknown variant \"foo\""),
            ("size = 4\nextra_units = [\"r1c1 r2c2 r3c3 r4c4\", \"r1c1 r1c1\"]\n", "t:2:39: extra unit 2 has 1"),
            // A region of n cells with a cell twice was "t: extra unit 1 has
            // 3 distinct cells", with no place and a key the file lacks.
            ("size = 4\n[[extra_region]]\ncells = \"r1c1 r1c1 r2c2 r3c3\"\n", "t:3:9: extra_region: cell r1c1 appears twice"),
            (
                "size = 4\nextra_units = [\"r1c1 r1c2 r2c1 r2c2\"]\n[[extra_region]]\ncells = \"r1c1 r1c1 r2c2 r3c3\"\n",
                "t:4:9: extra_region: cell r1c1 appears twice",
            ),
            // A region map's error is at the label at fault (it was at the
            // string, "region 3 (in order of first appearance)"): the fifth d.
            (&format!("size = 4\n{regions}"), "t:6:4: region 'd' has 5 cells, expected 4"),
            // 15 characters in four words: the count is of characters, and
            // the place where the 16th is missing.
            ("size = 4\nregions = \"aabb aabb ccdd cdd\"\n", "t:2:30: the region map has 15 labels, expected 16"),
            ("size = 4\nregions = \"aabb aabb ccdd ccdde\"\n", "t:2:31: the region map has 17 labels, expected 16"),
            ("size = 4\nregions = \"aabb aabb ccdd ccde\"\n", "t:2:30: label 'e' is region 5 of 5, expected 4"),
            // An escape: the place is the map's own, at the string.
            ("size = 4\nregions = \"aabb\\naabb\\nccdd\\nccde\"\n", "t:2:11: the region map, its line 4, column 4: label 'e'"),
            // Rows of 4 and 12 labels make 16, but draw no 4x4.
            (
                "size = 4\nregions = \"aabb\\naabb ccdd ccdd\"\n",
                "t:2:11: the region map, its line 2, column 6: a row of 12 labels where the map's other rows have 4",
            ),
            ("size = 4\nregions = \"aabb\\u0007 aabb ccdd ccdd\"\n", "t:2:11: the region map, its line 1, column 5: control character U+0007"),
            // Comments in the map, as in puzzle files, are no labels.
            ("size = 4\nregions = \"\"\"\n# jigsaw\naabb # top\naabb\nccdd\ncddd\n\"\"\"\n", "t:7:4: region 'd' has 5 cells"),
        ];
        for (text, says) in cases {
            let e = parse_grid_file(text, "t").unwrap_err().to_string();
            assert!(e.starts_with(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn reads_every_constraint_of_the_issue() {
        let text = r#"
size = 9
boxes = "3x3"
anti_knight = true
anti_king = true
non_consecutive = true
odd = "r1c1 r5c5"
even = "r9c9"
[[killer]]
cells = "r1c1 r1c2 r2c1"
sum = 10
[[little_killer]]
cells = "r1c2 r2c3 r3c4"
sum = 12
[[thermo]]
cells = "r4c4 r4c5 r4c6"      # bulb first
[[arrow]]
circle = "r7c1"
cells = "r8c2 r9c3"
[[kropki]]
cells = "r2c2 r2c3"
kind = "white"
[[xv]]
cells = "r3c3 r3c4"
kind = "x"
[[renban]]
cells = "r5c1 r5c2 r5c3"
[[whisper]]
cells = "r6c1 r6c2"
[[palindrome]]
cells = "r1c9 r2c9 r3c9"
[[sandwich]]
line = "r1"
sum = 15
"#;
        let g = parse_grid_file(text, "t").unwrap();
        assert_eq!(g.variants(), &[Variant::AntiKnight, Variant::AntiKing, Variant::NonConsecutive]);
        assert_eq!(g.constraints().len(), 12);
    }

    #[test]
    fn bad_clues_are_named_with_their_line() {
        let cases = [
            ("size = 4\n[[killer]]\ncells = \"r1c1 r5c1\"\n", "t:3:15: killer: 'r5c1' is not a cell"),
            ("size = 4\n\n[[killer]]\ncells = \"r1c1 r1c2\"\nsum = 9\n", "t:4:9: killer: no 2 distinct values"),
            (
                "size = 4\n[[thermo]]\ncells = \"r1c1 r1c2 r1c3 r1c4 r2c4\"\n",
                "t:3:9: thermo: a thermometer needs 1 to 4",
            ),
            (
                "size = 4\n[[arrow]]\ncircle = \"r1c1\"\ncells = \"r1c1 r1c2\"\n",
                "t:4:9: arrow: the circle's cell r1c1 is on its own arrow",
            ),
            (
                "size = 4\n[[arrow]]\ncircle = \"\"\ncells = \"r2c1\"\n",
                "t:3:10: arrow: an arrow needs a circle and at least one cell on it",
            ),
            // A pill is its digits side by side; cells apart are named at the circle.
            (
                "size = 4\n[[arrow]]\ncircle = \"r1c1 r3c3\"\ncells = \"r2c2\"\n",
                "t:3:10: arrow: the pill r1c1 r3c3 is not one row or column of neighbouring cells",
            ),
            (
                "size = 4\n[[arrow]]\ncircle = \"r1c1 r2c2\"\ncells = \"r3c3\"\n",
                "t:3:10: arrow: the pill r1c1 r2c2 is not one row or column",
            ),
            ("size = 4\n[[killer]]\ncells = \"r1c1\"\nsumm = 3\n", "unknown field `summ`"),
            (
                "size = 4\n[[kropki]]\ncells = \"r1c1 r1c2\"\nkind = \"grey\"\n",
                "t:4:8: kropki: no kind \"grey\" (expected \"white\" or \"black\")",
            ),
            ("size = 4\nodd = \"r1c1 r0c1\"\n", "t:2:13: odd: 'r0c1' is not a cell"),
            // A dot's own name, not the relation it stands for; the cells where they are written.
            (
                "size = 4\n[[kropki]]\ncells = \"r1c1 r2c2\"\nkind = \"white\"\n",
                "t:3:9: kropki: r1c1 and r2c2 are not orthogonal neighbours",
            ),
            ("size = 4\nextra_units = [\"r1c1 r2c2 r3c3 r9c9\"]\n", "t:2:32: extra_units: 'r9c9' is not a cell"),
            // A control character is named (it was "invalid basic string", or nothing in a comment).
            ("size = 4\nname = \"a\u{1}b\"\n", "t:2:10: invalid basic string: control character U+0001"),
            ("size = 4\nname = 'a\u{1b}b'\n", "t:2:10: invalid literal string: control character U+001B"),
            ("size = 4\n# co\u{7}mment\n", "t:2:5: control character U+0007"),
            // A sign is no part of a cell or line name (`r+1c+2` was r1c2, `r+1` r1).
            ("size = 4\n[[killer]]\ncells = \"r1c1 r+1c+2\"\n", "t:3:15: killer: 'r+1c+2' is not a cell"),
            ("size = 4\n[[sandwich]]\nline = \"r+1\"\nsum = 0\n", "t:3:8: sandwich: line \"r+1\" is no row or column"),
            // An escape in the string: the word's column is unsure, so the value's.
            ("size = 4\n[[killer]]\ncells = \"r1c1\\tr1c9\"\n", "t:3:9: killer: 'r1c9' is not a cell"),
        ];
        for (text, expected) in cases {
            let e = parse_grid_file(text, "t").unwrap_err().to_string();
            assert!(e.contains(expected), "{text}: {e}");
        }
    }
}
