//! Printing grids: one line, or a pretty grid with box borders.

use std::fmt::Write as _;

use crate::model::geometry::{Geometry, Layout, Value};
use crate::model::puzzle::Grid;
use crate::text::symbols::Alphabet;

/// The symbol of a value in a grid of side `n`: its alphabet character, or its
/// number when the alphabet does not cover the grid (then every value is a number).
pub fn symbol(value: Option<Value>, n: usize, alphabet: &Alphabet) -> String {
    match value {
        None => alphabet.empty_symbol().to_string(),
        Some(v) if alphabet.covers(n) => alphabet.symbol(v).map_or_else(|| v.number().to_string(), String::from),
        Some(v) => v.number().to_string(),
    }
}

/// The grid on one line: `4..7...` (n ≤ alphabet size), else numbers separated by spaces.
pub fn line(grid: &Grid, alphabet: &Alphabet) -> String {
    let cells = grid.cells().iter();
    if alphabet.covers(grid.size()) {
        let empty = alphabet.empty_symbol();
        cells.map(|&v| v.and_then(|v| alphabet.symbol(v)).unwrap_or(empty)).collect()
    } else {
        let mut out = String::with_capacity(grid.size() * grid.size() * 4);
        for (i, &v) in cells.enumerate() {
            if i > 0 {
                out.push(' ');
            }
            match v {
                Some(v) => write!(out, "{}", v.number()).unwrap_or(()),
                None => out.push('.'),
            }
        }
        out
    }
}

/// The grid as rows, with `|` and `-+-` between boxes. Jigsaw and Latin grids
/// get plain rows. Every row ends with a newline.
///
/// # Panics
/// When the grid's side is not the geometry's.
pub fn pretty(grid: &Grid, geometry: &Geometry, alphabet: &Alphabet) -> String {
    let (n, side) = (grid.size(), geometry.size());
    assert_eq!(n, side, "pretty: a {n}x{n} grid on a {side}x{side} geometry");
    pretty_cells(geometry, |i| symbol(grid.cells()[i], grid.size(), alphabet))
}

/// Rows of arbitrary cell texts (padded to the widest), with box borders. A
/// jigsaw grid shows its region map to the right of each row instead
/// (`a`-`z`, then region numbers), since irregular borders do not fit a text grid.
pub fn pretty_cells(geometry: &Geometry, text: impl Fn(usize) -> String) -> String {
    pretty_painted(geometry, text, |_, padded| padded)
}

/// [`pretty_cells`], each cell's text passed through `paint` (its index, the
/// text) after its width is taken: for colour, which takes no room.
pub fn pretty_painted(
    geometry: &Geometry,
    text: impl Fn(usize) -> String,
    paint: impl Fn(usize, String) -> String,
) -> String {
    let n = geometry.size();
    let texts: Vec<String> = (0..n * n).map(text).collect();
    let width = texts.iter().map(|t| t.chars().count()).max().unwrap_or(1);
    let (box_rows, box_cols) = match geometry.layout() {
        Layout::Boxes { rows, cols } if *rows < n && *cols < n => (*rows, *cols),
        _ => (n, n),
    };
    let segment = "-".repeat(box_cols * (width + 1) - 1);
    let rule = vec![segment; n / box_cols].join("-+-");
    let mut out = String::new();
    for r in 0..n {
        if r > 0 && r % box_rows == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        for c in 0..n {
            if c > 0 {
                out.push(' ');
                if c % box_cols == 0 {
                    out.push_str("| ");
                }
            }
            let text = &texts[r * n + c];
            out.extend(std::iter::repeat_n(' ', width - text.chars().count()));
            out.push_str(&paint(r * n + c, text.clone()));
        }
        if let Layout::Regions(map) = geometry.layout() {
            out.push_str("    ");
            let labels: Vec<String> = map[r * n..(r + 1) * n]
                .iter()
                .map(|&region| match char::from_u32('a' as u32 + region) {
                    Some(letter) if region < 26 => letter.to_string(),
                    _ => (region + 1).to_string(),
                })
                .collect();
            out.push_str(&labels.join(" "));
        }
        out.push('\n');
    }
    out
}

/// A jigsaw region map on one line, as `--regions` reads it: a letter per
/// cell (`a`-`z`, then `A`-`Z`) for up to 52 regions, else region numbers
/// (1-based) separated by spaces.
pub fn region_map(map: &[u32], n: usize) -> String {
    if n <= 52 {
        map.iter()
            .map(|&r| match r {
                0..=25 => char::from(b'a' + r as u8),
                _ => char::from(b'A' + (r - 26) as u8),
            })
            .collect()
    } else {
        map.iter().map(|r| (r + 1).to_string()).collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(n: usize, numbers: &[usize]) -> Grid {
        Grid::from_cells(n, numbers.iter().map(|&d| Value::new_checked(d, n)).collect()).unwrap()
    }

    #[test]
    fn line_uses_symbols_then_numbers() {
        let a = Alphabet::default();
        assert_eq!(line(&grid(4, &[1, 0, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]), &a), "1.34...........2");
        let mut big = Grid::empty(36);
        big.set(crate::model::geometry::Cell::from_index(1), Value::new_checked(36, 36));
        assert!(line(&big, &a).starts_with(". 36 . ."));
    }

    #[test]
    fn past_the_alphabet_every_value_is_a_number() {
        let mut big = Grid::empty(36);
        big.set(crate::model::geometry::Cell::from_index(0), Value::new_checked(12, 36));
        let g = Geometry::latin(36).unwrap();
        assert!(
            pretty(&big, &g, &Alphabet::default()).starts_with("12  ."),
            "{}",
            pretty(&big, &g, &Alphabet::default())
        );
        assert_eq!(symbol(Value::new_checked(12, 16), 16, &Alphabet::default()), "C");
    }

    #[test]
    fn pretty_shows_a_jigsaw_region_map_beside_each_row() {
        let g = Geometry::new(4, Layout::Regions(vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]), &[]).unwrap();
        let text = pretty(&grid(4, &[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]), &g, &Alphabet::default());
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[0], "1 2 3 4    a a b b");
        assert_eq!(rows[2], "2 1 4 3    c d d d");
    }

    #[test]
    fn pretty_draws_box_borders() {
        let g = Geometry::classic(4).unwrap();
        let text = pretty(&grid(4, &[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]), &g, &Alphabet::default());
        assert_eq!(text, "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n");
    }
}
