//! The notation of grid definitions: cell names (`r4c5`), box shapes (`3x3`) and region maps.

use thiserror::Error;

use crate::error::{shown, GeometryError};
use crate::model::geometry::{Cell, MAX_SIZE};

/// `r4c5` (1-based) as a cell of a grid of side `n`.
pub fn parse_cell_name(name: &str, n: usize) -> Option<Cell> {
    let rest = name.strip_prefix(['r', 'R'])?;
    let (row, col) = rest.split_once(['c', 'C'])?;
    let (row, col) = (parse_digits(row)?, parse_digits(col)?);
    // No grid is larger: past it, the cell's index would wrap.
    (n <= MAX_SIZE).then_some(())?;
    (1..=n).contains(&row).then_some(())?;
    (1..=n).contains(&col).then_some(())?;
    Some(Cell::from_index((row - 1) * n + col - 1))
}

/// A number of a name (`r4c5`, `r3`) written in digits only: a sign, which
/// `str::parse` takes, is no part of a name (`r+1c+2` was r1c2).
pub(crate) fn parse_digits(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Parse a box shape `RxC` (also `R*C`, `RXC`): rows and columns of a box,
/// when both are numbers. Their product is the grid side: see
/// [`box_side`] before building a grid from them.
pub fn parse_box_shape(text: &str) -> Option<(usize, usize)> {
    let (r, c) = text.split_once(['x', 'X', '*', '×'])?;
    Some((r.trim().parse().ok()?, c.trim().parse().ok()?))
}

/// The side of a grid of `rows`×`cols` boxes, unless it is 0 (a box of no
/// rows or columns) or past [`MAX_SIZE`] (or past what a `usize` holds).
pub fn box_side(rows: usize, cols: usize) -> Result<usize, GeometryError> {
    match rows.checked_mul(cols) {
        Some(0) => Err(GeometryError::Size { n: 0 }),
        Some(n) if n <= MAX_SIZE => Ok(n),
        _ => Err(GeometryError::BoxesTooLarge { rows, cols }),
    }
}

/// Read a jigsaw region map: n² labels, one per cell, row-major. Labels are
/// single characters (whitespace, `|`, `+` and `-` between them are ignored),
/// or whitespace-separated words when any word is longer than one character.
/// A line that starts with `#` or `//` is a comment, and so is ` # …` after
/// the labels of a line, as in puzzle files.
/// Each distinct label becomes one region, numbered in order of first appearance.
///
/// Nothing is checked: see [`read_region_map`] for a map that must make a grid.
pub fn parse_region_map(text: &str) -> Vec<u32> {
    number_labels(read_labels(text, None).into_iter().map(|l| l.text).collect())
}

/// A region map that makes no grid: what is wrong, and where in the map.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct RegionMapError {
    /// Where in the map: 1-based line and column (in characters), and the
    /// byte offset in the text; `None` for the map as a whole (no labels).
    pub at: Option<MapPlace>,
    /// What is wrong, and what was expected.
    pub message: String,
}

/// A place in a region map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapPlace {
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters (a byte-order mark not counted).
    pub column: usize,
    /// In bytes, from the start of the text.
    pub offset: usize,
}

/// Read a region map (see [`parse_region_map`]) that must make a jigsaw
/// grid: of side `n` when that is known, else of the side its labels make.
/// Every error names the place in the map at fault: a control character, a
/// row longer or shorter than the others, the first label past the n² of a
/// grid (or where the map ends short), the first cell of a region past n,
/// the first cell of a label past the n regions.
pub fn read_region_map(text: &str, n: Option<usize>) -> Result<Vec<u32>, RegionMapError> {
    if let Some((line, column, ch)) = find_control_character(text) {
        // Lines end at '\n' there too: the bytes of the lines before, then of the columns before.
        let before: usize = text.split_inclusive('\n').take(line - 1).map(str::len).sum();
        let line_text = text.split('\n').nth(line - 1).unwrap_or("");
        let offset = before + line_text.chars().take(column - 1).map(char::len_utf8).sum::<usize>();
        return Err(RegionMapError {
            at: Some(MapPlace { line, column, offset }),
            message: format!("control character U+{:04X} (expected one label per cell)", ch as u32),
        });
    }
    if let Some(n) = n.filter(|&n| n > MAX_SIZE) {
        let message = format!("a region map of side {n}, past the largest grid ({MAX_SIZE}x{MAX_SIZE})");
        return Err(RegionMapError { at: None, message });
    }
    let labels = read_labels(text, n.map(|n| n * n));
    let err = |label: &Label, message: String| RegionMapError { at: Some(label.place), message };
    let Some(last) = labels.last() else {
        return Err(RegionMapError {
            at: None,
            message:
                "no labels: every line of the map is blank or a comment (expected one label per cell of an n×n grid)"
                    .into(),
        });
    };
    // Just past the last label: where a missing one would go.
    let end = last.end();
    // `#` stuck to labels (`ab##`) is no comment, and no label either.
    if let Some((label, at)) = labels.iter().find_map(|l| Some((l, l.text.chars().position(|ch| ch == '#')?))) {
        let before = &label.text[..label.text.char_indices().nth(at).map_or(0, |(byte, _)| byte)];
        let place = MapPlace {
            line: label.place.line,
            column: label.place.column + at,
            offset: label.place.offset + before.len(),
        };
        return Err(RegionMapError {
            at: Some(place),
            message: "'#' is no label (a comment is a line that starts with '#', or ' # …' after the labels; expected one label per cell)".into(),
        });
    }
    if let Some(error) = uneven_row(&labels) {
        return Err(error);
    }
    let total = labels.len();
    let n = match n {
        Some(n) if total < n * n => {
            return Err(RegionMapError {
                at: Some(end),
                message: format!(
                    "the region map has {total} labels, expected {} (one per cell of the {n}x{n} grid): it ends here",
                    n * n
                ),
            })
        }
        Some(n) if total > n * n => {
            let message = format!("the region map has {total} labels, expected {} (one per cell of the {n}x{n} grid): this is the first past them", n * n);
            return Err(err(&labels[n * n], message));
        }
        Some(n) => n,
        None => side_of(&labels, end)?,
    };
    let numbers = number_labels(labels.iter().map(|l| l.text.clone()).collect());
    // A label past the n regions, at its first cell.
    if let Some(i) = numbers.iter().position(|&r| r as usize == n) {
        let found = numbers.iter().max().map_or(0, |&r| r as usize + 1);
        let message = format!(
            "label {} is region {} of {found}, expected {n} regions (one per value of the {n}x{n} grid)",
            shown(&labels[i].text),
            n + 1
        );
        return Err(err(&labels[i], message));
    }
    if let Some((i, size)) = oversized_region(&numbers, n) {
        let label = &labels[i];
        let message =
            format!("region {} has {size} cells, expected {n}: this is its first cell past {n}", shown(&label.text));
        return Err(err(label, message));
    }
    Ok(numbers)
}

/// In a map of n regions (numbered 0..n) over n² cells, the first cell
/// past n of a region too large, and that region's size: one region too
/// small makes another too large, and that is where the map can point.
pub(crate) fn oversized_region(map: &[u32], n: usize) -> Option<(usize, usize)> {
    let mut sizes = vec![0; n];
    map.iter().for_each(|&r| sizes[r as usize] += 1);
    let mut seen = vec![0; n];
    map.iter().enumerate().find_map(|(i, &r)| {
        seen[r as usize] += 1;
        (seen[r as usize] == n + 1).then(|| (i, sizes[r as usize]))
    })
}

/// The side n of a map whose labels are n² (no side given), or where it
/// goes wrong, its rows being of one length ([`uneven_row`] comes first):
/// a row missing or one too many, else where the map ends short of the
/// next square or the first label past the last one.
fn side_of(labels: &[Label], end: MapPlace) -> Result<usize, RegionMapError> {
    let total = labels.len();
    let n = (1..=total).find(|n| n * n >= total).unwrap_or(0);
    if n * n == total {
        return Ok(n);
    }
    let expected = "expected one label per cell of an n×n grid";
    let rows = rows_of(labels);
    if rows.len() > 1 {
        let common = rows[0].len();
        // Rows of k labels each, but not k of them: a row missing or one too many.
        let count = rows.len();
        let says = format!("{count} rows of {common} labels, expected {common} rows of {common} for a {common}x{common} grid ({total} labels in all, not a square number; {expected})");
        return Err(match rows.get(common) {
            Some(row) => {
                RegionMapError { at: Some(row[0].place), message: format!("{says}: this row is one too many") }
            }
            None => RegionMapError { at: Some(end), message: format!("{says}: the map ends here") },
        });
    }
    let below = (n - 1) * (n - 1);
    if n * n - total <= total - below {
        let message = format!(
            "the map ends after {total} labels, {} short of the {} of a {n}x{n} grid ({total} is not a square number; {expected})",
            n * n - total,
            n * n
        );
        Err(RegionMapError { at: Some(end), message })
    } else {
        let message = format!(
            "{total} labels, {} more than the {below} of a {m}x{m} grid: this is the first past them ({total} is not a square number; {expected})",
            total - below,
            m = n - 1
        );
        Err(RegionMapError { at: Some(labels[below].place), message })
    }
}

/// The labels of each line of a map, in order (lines with none left out).
fn rows_of(labels: &[Label]) -> Vec<&[Label]> {
    let mut rows = Vec::new();
    let mut start = 0;
    for i in 1..=labels.len() {
        if i == labels.len() || labels[i].place.line != labels[start].place.line {
            rows.push(&labels[start..i]);
            start = i;
        }
    }
    rows
}

/// The first row of a map of several rows whose length is not the others'
/// (the most common length, the first row's on a tie), whatever the total:
/// a row short and another long make n² labels, but not the grid drawn.
fn uneven_row(labels: &[Label]) -> Option<RegionMapError> {
    let rows = rows_of(labels);
    let common = rows
        .iter()
        .map(|r| r.len())
        .max_by_key(|&len| {
            (
                rows.iter().filter(|r| r.len() == len).count(),
                usize::MAX - rows.iter().position(|r| r.len() == len).unwrap_or(0),
            )
        })
        .unwrap_or(0);
    let row = rows.iter().find(|r| r.len() != common)?;
    let says = format!(
        "a row of {} labels where the map's other rows have {common} ({} labels in all; expected rows of equal length, one label per cell)",
        row.len(),
        labels.len()
    );
    Some(match row.get(common) {
        Some(extra) => {
            RegionMapError { at: Some(extra.place), message: format!("{says}: this is the first past {common}") }
        }
        None => {
            let place = row[row.len() - 1].end();
            RegionMapError { at: Some(place), message: format!("{says}: it ends here") }
        }
    })
}

/// The first character of a region map that can be no label: a control
/// character other than whitespace (a NUL of a binary file, an escape), as
/// (line, column, character), both 1-based, the column in characters.
/// Comments may hold any: a line that starts with `#` or `//`, and ` # …`
/// after the labels.
pub fn find_control_character(text: &str) -> Option<(usize, usize, char)> {
    text.lines().enumerate().find_map(|(line, l)| {
        let (column, ch) = labels_of(l).chars().enumerate().find(|&(_, ch)| ch.is_control() && !ch.is_whitespace())?;
        Some((line + 1, column + 1, ch))
    })
}

/// The part of a line of a region map that holds labels: none in a line
/// that starts with `#` or `//`, a comment, and what comes before ` # …`
/// (a comment after the labels).
fn labels_of(line: &str) -> &str {
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') || trimmed.starts_with("//") {
        return "";
    }
    match line.find(" #").or_else(|| line.find("\t#")) {
        Some(i) => &line[..i],
        None => line,
    }
}

/// A label of a region map and where it is written.
struct Label {
    text: String,
    place: MapPlace,
}

impl Label {
    /// Just past the label: where a label missing after it would be.
    fn end(&self) -> MapPlace {
        MapPlace {
            line: self.place.line,
            column: self.place.column + self.text.chars().count(),
            offset: self.place.offset + self.text.len(),
        }
    }
}

/// The labels of a region map, characters or words (see [`parse_region_map`]),
/// the reading with `expected` labels first when that is known.
fn read_labels(text: &str, expected: Option<usize>) -> Vec<Label> {
    let mut words: Vec<Label> = Vec::new();
    let mut offset = 0;
    for (index, line) in text.split('\n').enumerate() {
        let line_start = offset;
        offset += line.len() + 1;
        // A byte-order mark opens the file: no column of the map.
        let bom = if index == 0 && line.starts_with('\u{FEFF}') { '\u{FEFF}'.len_utf8() } else { 0 };
        let body = labels_of(&line[bom..]);
        let mut column = 0;
        let mut word: Option<(usize, usize)> = None; // (byte, column) where it starts
        for (byte, ch) in body.char_indices().chain(std::iter::once((body.len(), ' '))) {
            column += 1;
            match (ch.is_whitespace(), word) {
                (false, None) => word = Some((byte, column)),
                (true, Some((from, col))) => {
                    let text = &body[from..byte];
                    if !text.chars().all(is_separator) {
                        let place = MapPlace { line: index + 1, column: col, offset: line_start + bom + from };
                        words.push(Label { text: text.to_string(), place });
                    }
                    word = None;
                }
                _ => {}
            }
        }
    }
    let chars: Vec<Label> = words
        .iter()
        .flat_map(|w| {
            w.text.chars().scan((0, 0), |(bytes, columns), ch| {
                let place =
                    MapPlace { line: w.place.line, column: w.place.column + *columns, offset: w.place.offset + *bytes };
                *bytes += ch.len_utf8();
                *columns += 1;
                Some((ch, place))
            })
        })
        .filter(|&(ch, _)| !is_separator(ch))
        .map(|(ch, place)| Label { text: ch.to_string(), place })
        .collect();
    if let Some(expected) = expected {
        let off = |count: usize| count.abs_diff(expected);
        // Words are no other reading than characters unless some are longer.
        let words_differ = words.len() != chars.len();
        return if words_differ && off(words.len()) < off(chars.len()) { words } else { chars };
    }
    // Single characters when they make n rows of n, one line, or n² spaced
    // labels; otherwise every word is a label ("10 10 11 11 ...").
    let n = (0..=chars.len()).find(|n| n * n >= chars.len()).unwrap_or(0);
    // Words only when there is a square number of them, some longer than one
    // character; else characters, so a map one label short says "35 labels".
    // Rows of one word each are rows of characters, one of them short or
    // long (four such rows of 4, 3, 4, 4 were a 2x2 map of words).
    let square_words = (0..=words.len()).find(|m| m * m >= words.len()).is_some_and(|m| m * m == words.len());
    let word_per_line = words.windows(2).all(|w| w[0].place.line != w[1].place.line);
    if n * n == chars.len() && [1, n, chars.len()].contains(&words.len()) {
        chars
    } else if words.len() > 1 && square_words && !word_per_line && words.iter().any(|w| w.text.chars().count() > 1) {
        words
    } else {
        chars
    }
}

/// Each distinct label as a region number, in order of first appearance.
fn number_labels(labels: Vec<String>) -> Vec<u32> {
    let mut seen: Vec<String> = Vec::new();
    labels
        .into_iter()
        .map(|label| match seen.iter().position(|s| *s == label) {
            Some(i) => i as u32,
            None => {
                seen.push(label);
                (seen.len() - 1) as u32
            }
        })
        .collect()
}

fn is_separator(ch: char) -> bool {
    matches!(ch, '|' | '+' | '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The map read for a grid of side `n`: characters or words, whichever
    /// makes n² labels; when neither does, whichever comes nearer.
    fn parse_region_map_of_side(text: &str, n: usize) -> Vec<u32> {
        number_labels(read_labels(text, Some(n * n)).into_iter().map(|l| l.text).collect())
    }

    /// A NUL or an escape is no label; tabs, CRs and byte-order marks are
    /// not control characters of a map.
    #[test]
    fn control_characters_are_found_where_they_are() {
        assert_eq!(find_control_character("AAB\nA\u{0}BB"), Some((2, 2, '\u{0}')));
        assert_eq!(find_control_character("AB\u{1b}[0m\nAB"), Some((1, 3, '\u{1b}')));
        assert_eq!(find_control_character("\u{FEFF}AA\tBB\r\nAA BB\rCC"), None);
        // Comments may hold any: a line's own, and one after the labels.
        assert_eq!(find_control_character("# map \u{1}\nAB # \u{1b}[0m\n// \u{7}\nAB"), None);
        assert_eq!(read_region_map("# map \u{1}\naabb # \u{1b}\naabb\nccdd\nccdd\n", Some(4)).map(|m| m[4]), Ok(0));
    }

    /// Comments are no labels, as in puzzle files: a ` # …` after a row was
    /// read as 8 more labels ("24 labels is not a square number"), and a
    /// map of comments had "0 labels", which is a square number.
    #[test]
    fn comments_in_a_map_are_no_labels() {
        let plain = parse_region_map("aabb\naabb\nccdd\nccdd");
        let commented = "# a jigsaw\n// 4x4\naabb\naabb # the top\nccdd\t# and\nccdd\n";
        assert_eq!(read_region_map(commented, None), Ok(plain.clone()));
        assert_eq!(parse_region_map(commented), plain);
        let e = read_region_map("# nothing\n\n// here\n", None).unwrap_err();
        assert_eq!(e.at, None);
        assert!(e.message.starts_with("no labels: every line of the map is blank or a comment"), "{e}");
        assert!(read_region_map("", Some(4)).unwrap_err().message.starts_with("no labels"));
    }

    /// Every error of a map says where in it (line, column, byte offset)
    /// and what was expected.
    #[test]
    fn map_errors_say_where() {
        let place = |line, column, offset| Some(MapPlace { line, column, offset });
        let cases = [
            // The fifth 'a' (region sizes were "region 1 (in order of first appearance)").
            (
                "aaab\naabb\nccdd\nccdd",
                None,
                place(2, 2, 6),
                "region 'a' has 5 cells, expected 4: this is its first cell past 4",
            ),
            // A row short: where its missing label goes.
            ("aabb\naab\nccdd\nccdd", None, place(2, 4, 8), "a row of 3 labels where the map's other rows have 4"),
            ("aabb\naabbc\nccdd\nccdd", None, place(2, 5, 9), "a row of 5 labels where the map's other rows have 4"),
            ("aabb\naabb\nccdd", None, place(3, 5, 14), "3 rows of 4 labels, expected 4 rows of 4"),
            // A row short and the next one long make 16 labels, but not the 4x4 drawn.
            ("aabb\naab\nbccdd\nccdd", None, place(2, 4, 8), "a row of 3 labels where the map's other rows have 4"),
            ("aabb\naab\nbccdd\nccdd", Some(4), place(2, 4, 8), "a row of 3 labels where the map's other rows have 4"),
            ("aabb\naabb\nccddc\ncdd", Some(4), place(3, 5, 14), "a row of 5 labels where the map's other rows have 4"),
            // One line: the end when a label is missing, the first past n² when one is too many.
            (
                "aabbaabbccddccd",
                None,
                place(1, 16, 15),
                "the map ends after 15 labels, 1 short of the 16 of a 4x4 grid",
            ),
            ("aabbaabbccddccdde", None, place(1, 17, 16), "17 labels, 1 more than the 16 of a 4x4 grid"),
            ("aabbaabbccddccde", None, place(1, 16, 15), "label 'e' is region 5 of 5, expected 4 regions"),
            ("aabbaabbccddccdd", Some(3), place(1, 10, 9), "the region map has 16 labels, expected 9"),
            ("a\u{7}bbaabbccddccdd", None, place(1, 2, 1), "control character U+0007"),
            // A '#' stuck to labels is neither a comment nor a label, in characters or in words.
            ("ab##\nab##\nabcc\nabcc", None, place(1, 3, 2), "'#' is no label"),
            ("éa b#\n", Some(2), place(1, 5, 5), "'#' is no label"),
            ("10 11 12# 13", None, place(1, 9, 8), "'#' is no label"),
            // Columns in characters, offsets in bytes; a byte-order mark is no column.
            ("\u{FEFF}ééb b\nééb b\n", Some(3), place(2, 6, 18), "the region map has 8 labels, expected 9"),
            ("\u{FEFF}abcde", Some(2), place(1, 5, 7), "the region map has 5 labels, expected 4"),
        ];
        for (map, n, at, says) in cases {
            let e = read_region_map(map, n).unwrap_err();
            assert_eq!((e.at, &e.message[..says.len().min(e.message.len())]), (at, says), "{map:?}: {e}");
        }
    }

    /// Whatever the text, no panic; a map read is one a grid is built from.
    #[test]
    fn any_map_reads_or_says_where() {
        let alphabet: Vec<char> = "aabbcd# \n|-/é\u{7}\u{FEFF}".chars().collect();
        let mut rng = crate::rng::Rng::new(7);
        let mut next = |m: usize| rng.below(m);
        for _ in 0..20_000 {
            let len = next(30);
            let text: String = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
            let side = [None, Some(2), Some(3)][next(3)];
            match read_region_map(&text, side) {
                Ok(map) => {
                    let n = (1..=map.len()).find(|n| n * n >= map.len()).unwrap_or(0);
                    assert!(side.is_none_or(|s| s == n), "{text:?}");
                    let g = crate::Geometry::new(n, crate::Layout::Regions(map), &[]);
                    assert!(g.is_ok(), "{text:?}: {g:?}");
                }
                Err(e) => {
                    assert!(
                        e.at.is_some_and(|at| at.offset <= text.len()) || e.message.starts_with("no labels"),
                        "{text:?}: {e}"
                    );
                    if e.message.starts_with("'#'") {
                        assert!(text[e.at.unwrap().offset..].starts_with('#'), "{text:?}: {e}");
                    }
                }
            }
        }
    }

    /// A sign is no part of a cell name (`r+1c+2` was read as r1c2).
    #[test]
    fn cell_names_are_digits_only() {
        assert_eq!(parse_cell_name("r1c2", 4), Some(Cell::from_index(1)));
        assert_eq!(parse_cell_name("R01C2", 4), Some(Cell::from_index(1)));
        // Past the largest grid no name is a cell (r3c1 of a side of 2^32 wrapped to r1c1).
        assert_eq!(parse_cell_name("r3c1", 1 << 32), None);
        assert!(read_region_map("AB", Some(1 << 32)).unwrap_err().message.contains("past the largest grid"));
        for name in ["r+1c+2", "r+1c2", "r1c+2", "r-1c2", "r1c", "rc1", "r 1c2", "r１c2"] {
            assert_eq!(parse_cell_name(name, 4), None, "{name}");
        }
    }

    #[test]
    fn region_maps_read_characters_or_words() {
        assert_eq!(parse_region_map("aabb\naabb\nccdd\nccdd"), vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]);
        assert_eq!(parse_region_map("10 10 11 11 10 10 11 11 12 12 13 13 12 12 13 13")[..4], [0, 0, 1, 1]);
    }

    #[test]
    fn a_known_side_picks_the_reading_that_fits_it() {
        // 16 characters in 4 words: the plain reading's guess too.
        assert_eq!(parse_region_map_of_side("aabb aabb ccdd ccdd", 4).len(), 16);
        // One character short: 15 labels, not the 4 words (a square number).
        assert_eq!(parse_region_map("aabb aabb ccdd cdd").len(), 4);
        assert_eq!(parse_region_map_of_side("aabb aabb ccdd cdd", 4).len(), 15);
        // Words of two characters each making a 4x4 map: 16 words, not 32 characters.
        let words = "10 10 11 11 10 10 11 11 12 12 13 13 12 12 13 13";
        assert_eq!(parse_region_map_of_side(words, 4), parse_region_map(words));
        // A file saved with a byte-order mark: the mark is no label.
        assert_eq!(parse_region_map("\u{FEFF}aabb aabb ccdd ccdd"), parse_region_map("aabb aabb ccdd ccdd"));
        // Eight two-character words: their 16 characters are the 4x4 map.
        assert_eq!(parse_region_map_of_side("ab ab cd cd ab ab cd cd", 4).len(), 16);
    }
}
