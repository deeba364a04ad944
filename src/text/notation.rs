//! The notation of grid definitions: cell names (`r4c5`), box shapes (`3x3`) and region maps.

use crate::error::GeometryError;
use crate::model::geometry::{Cell, MAX_SIZE};

/// `r4c5` (1-based) as a cell of a grid of side `n`.
pub fn parse_cell_name(name: &str, n: usize) -> Option<Cell> {
    let rest = name.strip_prefix(['r', 'R'])?;
    let (row, col) = rest.split_once(['c', 'C'])?;
    let (row, col): (usize, usize) = (row.parse().ok()?, col.parse().ok()?);
    (1..=n).contains(&row).then_some(())?;
    (1..=n).contains(&col).then_some(())?;
    Some(Cell::from_index((row - 1) * n + col - 1))
}

/// Parse a box shape `RxC` (also `R*C`, `RXC`): rows and columns of a box,
/// when both are numbers. Their product is the grid side: see
/// [`box_side`] before building a grid from them.
pub fn parse_box_shape(text: &str) -> Option<(usize, usize)> {
    let (r, c) = text.split_once(['x', 'X', '*', '×'])?;
    Some((r.trim().parse().ok()?, c.trim().parse().ok()?))
}

/// The side of a grid of `rows`×`cols` boxes, unless it is past [`MAX_SIZE`]
/// (or past what a `usize` holds).
pub fn box_side(rows: usize, cols: usize) -> Result<usize, GeometryError> {
    match rows.checked_mul(cols) {
        Some(n) if n <= MAX_SIZE => Ok(n),
        _ => Err(GeometryError::BoxesTooLarge { rows, cols }),
    }
}

/// Read a jigsaw region map: n² labels, one per cell, row-major. Labels are
/// single characters (whitespace, `|`, `+` and `-` between them are ignored),
/// or whitespace-separated words when any word is longer than one character.
/// Each distinct label becomes one region, numbered in order of first appearance.
pub fn parse_region_map(text: &str) -> Vec<u32> {
    number_labels(read_labels(text, None))
}

/// [`parse_region_map`] for a grid of side `n`: characters or words,
/// whichever makes n² labels; when neither does, whichever comes nearer, so
/// that the error of a map one character short counts characters (a
/// 15-character map in four words has 15 labels, not 4).
pub fn parse_region_map_of_side(text: &str, n: usize) -> Vec<u32> {
    number_labels(read_labels(text, Some(n * n)))
}

/// The first character of a region map that can be no label: a control
/// character other than whitespace (a NUL of a binary file, an escape), as
/// (line, column, character), both 1-based, the column in characters.
pub fn find_control_character(text: &str) -> Option<(usize, usize, char)> {
    text.lines().enumerate().find_map(|(line, l)| {
        let (column, ch) = l.chars().enumerate().find(|&(_, ch)| ch.is_control() && !ch.is_whitespace())?;
        Some((line + 1, column + 1, ch))
    })
}

/// The labels of a region map, characters or words (see [`parse_region_map`]),
/// the reading with `expected` labels first when that is known.
fn read_labels(text: &str, expected: Option<usize>) -> Vec<String> {
    let words: Vec<&str> = text
        .trim_start_matches('\u{FEFF}')
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .filter(|w| !w.chars().all(is_separator))
        .collect();
    let chars: Vec<String> =
        words.iter().flat_map(|w| w.chars()).filter(|&ch| !is_separator(ch)).map(String::from).collect();
    let owned = |words: &[&str]| words.iter().map(|w| w.to_string()).collect();
    if let Some(expected) = expected {
        let off = |count: usize| count.abs_diff(expected);
        // Words are no other reading than characters unless some are longer.
        let words_differ = words.len() != chars.len();
        return if words_differ && off(words.len()) < off(chars.len()) { owned(&words) } else { chars };
    }
    // Single characters when they make n rows of n, one line, or n² spaced
    // labels; otherwise every word is a label ("10 10 11 11 ...").
    let n = (0..=chars.len()).find(|n| n * n >= chars.len()).unwrap_or(0);
    // Words only when there is a square number of them, some longer than one
    // character; else characters, so a map one label short says "35 labels".
    let square_words = (0..=words.len()).find(|m| m * m >= words.len()).is_some_and(|m| m * m == words.len());
    if n * n == chars.len() && [1, n, chars.len()].contains(&words.len()) {
        chars
    } else if words.len() > 1 && square_words && words.iter().any(|w| w.chars().count() > 1) {
        owned(&words)
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

    /// A NUL or an escape is no label; tabs, CRs and byte-order marks are
    /// not control characters of a map.
    #[test]
    fn control_characters_are_found_where_they_are() {
        assert_eq!(find_control_character("AAB\nA\u{0}BB"), Some((2, 2, '\u{0}')));
        assert_eq!(find_control_character("AB\u{1b}[0m\nAB"), Some((1, 3, '\u{1b}')));
        assert_eq!(find_control_character("\u{FEFF}AA\tBB\r\nAA BB\rCC"), None);
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
