//! Helpers shared by the unit tests: grids and puzzles from short text.

use std::sync::Arc;

/// The independent checker of the integration tests, for unit tests that check solutions too.
#[path = "../tests/integration/util/checker.rs"]
pub(crate) mod checker;

use crate::model::geometry::{Geometry, Value};
use crate::model::puzzle::{Grid, Puzzle};

/// A grid from one base-36 digit per cell (`1`-`9`, then `a`-`z`; `.` or `0` empty).
pub(crate) fn grid(n: usize, text: &str) -> Grid {
    let cells =
        text.chars().map(|c| c.to_digit(36).filter(|&d| d > 0).map(|d| Value::from_index(d as usize - 1))).collect();
    Grid::from_cells(n, cells).expect("a test grid of n² cells")
}

/// The value index at row `r`, column `c` of the pattern grid of side `n` with
/// `rows`×`cols` boxes: every row, column and box holds each value once
/// (rows = 1, cols = n: a Latin square).
pub(crate) fn pattern(n: usize, rows: usize, cols: usize) -> impl Fn(usize, usize) -> usize {
    move |r, c| (cols * (r % rows) + r / rows + c) % n
}

/// A puzzle on `geometry` with the givens of [`grid`].
pub(crate) fn puzzle(geometry: Geometry, text: &str) -> Puzzle {
    let n = geometry.size();
    Puzzle::new(Arc::new(geometry), grid(n, text)).expect("givens of the geometry's size")
}

/// A small deterministic random generator (xorshift) from a proptest seed.
pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
