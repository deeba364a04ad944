//! Interchangeable values: where the rules only ask cells to differ, the
//! values no given holds can be renamed in a solution to give another.
//!
//! Units, X, hyper, jigsaw regions, disjoint groups, anti-knight and
//! anti-king only ask cells to differ, so a permutation of the values keeps
//! them; the givens are kept as long as the permutation moves only values
//! no given holds. Sums, order (non-consecutive, thermometers, …) and pencil
//! marks tell values apart, so a puzzle with any of them has no free values.
//! A full solution holds every value (each row does), so the `m!`
//! permutations of `m` free values turn it into `m!` distinct solutions: its
//! orbit. Orbits of different solutions are equal or disjoint.

use crate::model::geometry::{Value, Variant};
use crate::model::puzzle::{Grid, Puzzle};

/// The values of a puzzle that renaming may move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FreeValues {
    values: Vec<Value>,
    /// Where each value stands in `values`, if it is free.
    position: Vec<Option<usize>>,
}

impl FreeValues {
    /// The values no given holds where the rules only ask cells to differ;
    /// none otherwise.
    pub(crate) fn of(puzzle: &Puzzle) -> FreeValues {
        let geometry = puzzle.geometry();
        let n = geometry.size();
        let differ_only = geometry.constraints().is_empty()
            && puzzle.candidates().is_none()
            && geometry.variants().iter().all(|variant| match variant {
                Variant::X | Variant::Hyper | Variant::AntiKnight | Variant::AntiKing | Variant::DisjointGroups => true,
                Variant::NonConsecutive => false,
            });
        let mut given = vec![false; n];
        for (_, value) in puzzle.givens().filled() {
            given[value.index()] = true;
        }
        let values: Vec<Value> = match differ_only {
            true => Value::all(n).filter(|v| !given[v.index()]).collect(),
            false => Vec::new(),
        };
        let mut position = vec![None; n];
        for (i, v) in values.iter().enumerate() {
            position[v.index()] = Some(i);
        }
        FreeValues { values, position }
    }

    /// How many values are free.
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    /// `grid` with the `i`-th free value renamed to the `to(i)`-th. A
    /// solution stays one only when `to` is a permutation; the caller
    /// verifies what it keeps, like any model.
    pub(crate) fn renamed(&self, grid: &Grid, to: impl Fn(usize) -> usize) -> Grid {
        let mut renamed = grid.clone();
        for (cell, value) in grid.filled() {
            if let Some(i) = self.position[value.index()] {
                renamed.set(cell, Some(self.values[to(i)]));
            }
        }
        renamed
    }

    /// Whether some renaming of the free values turns `a` into `b`: the
    /// other values in the same cells, and the free ones matched one to one.
    pub(crate) fn same_orbit(&self, a: &Grid, b: &Grid) -> bool {
        let m = self.values.len();
        // to[i], from[j]: the free value i of `a` stands where `b` has j.
        let (mut to, mut from) = (vec![usize::MAX; m], vec![usize::MAX; m]);
        a.size() == b.size()
            && a.cells().iter().zip(b.cells()).all(|(&x, &y)| {
                let free = |v: Option<Value>| v.and_then(|v| self.position[v.index()]);
                match (free(x), free(y)) {
                    (None, None) => x == y,
                    (Some(i), Some(j)) if (to[i], from[j]) == (usize::MAX, usize::MAX) => {
                        (to[i], from[j]) = (j, i);
                        true
                    }
                    (Some(i), Some(j)) => to[i] == j,
                    _ => false,
                }
            })
    }
}

/// The solutions renaming gives from one: every permutation of the free
/// values but the identity, lazily (there are `m! - 1` of them), in
/// lexicographic order.
pub(crate) struct Orbit {
    free: FreeValues,
    /// `m!`, the number of solutions in the orbit; `None` past `u64::MAX`.
    size: Option<u64>,
    base: Grid,
    /// The permutation last yielded (the identity before the first).
    to: Vec<usize>,
    done: bool,
}

impl Orbit {
    /// The renamings of `base`, a solution of the puzzle `free` is of.
    pub(crate) fn new(free: FreeValues, base: Grid) -> Orbit {
        let to = (0..free.len()).collect();
        let size = (1..=free.len() as u64).try_fold(1u64, u64::checked_mul);
        Orbit { free, size, base, to, done: false }
    }

    /// How many values are free.
    pub(crate) fn free_count(&self) -> usize {
        self.free.len()
    }

    /// How many solutions the orbit holds, `base` included; `None` past
    /// `u64::MAX` (21 free values or more).
    pub(crate) fn size(&self) -> Option<u64> {
        self.size
    }

    /// Whether `grid` is `base` or one of its renamings.
    pub(crate) fn contains(&self, grid: &Grid) -> bool {
        self.free.same_orbit(&self.base, grid)
    }
}

impl Iterator for Orbit {
    type Item = Grid;

    fn next(&mut self) -> Option<Grid> {
        if self.done || !next_permutation(&mut self.to) {
            self.done = true;
            return None;
        }
        let to = &self.to;
        Some(self.free.renamed(&self.base, |i| to[i]))
    }
}

/// Step `p` to the next permutation in lexicographic order; false (and `p`
/// unchanged) after the last.
fn next_permutation(p: &mut [usize]) -> bool {
    let Some(i) = p.windows(2).rposition(|w| w[0] < w[1]) else { return false };
    let j = p.iter().rposition(|&x| x > p[i]).expect("p[i + 1] is larger than p[i]");
    p.swap(i, j);
    p[i + 1..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::model::geometry::{Geometry, Layout};
    use crate::testing::{grid, puzzle};

    #[test]
    fn permutations_come_once_each_in_order() {
        let mut p = vec![0, 1, 2, 3];
        let mut seen = vec![p.clone()];
        while next_permutation(&mut p) {
            assert!(seen.last().unwrap() < &p, "{p:?} out of order");
            seen.push(p.clone());
        }
        assert_eq!(seen.len(), 24);
        assert_eq!(p, [3, 2, 1, 0]);
        assert!(!next_permutation(&mut []), "the empty permutation has a next");
    }

    #[test]
    fn an_orbit_is_every_renaming_once_each_a_solution() {
        // 1 and 4 given: 2 and 3 are free, as are all four of the blank grid.
        for (text, free, size) in [("1...........4...", 2, 2), ("................", 4, 24)] {
            let p = puzzle(Geometry::classic(4).unwrap(), text);
            let base = grid(4, "1234341221434321");
            let values = FreeValues::of(&p);
            assert_eq!(values.len(), free);
            let orbit = Orbit::new(values.clone(), base.clone());
            let grids: Vec<Grid> = std::iter::once(base.clone()).chain(orbit).collect();
            assert_eq!(grids.len(), size);
            assert_eq!(grids.iter().collect::<HashSet<_>>().len(), size, "a renaming came twice");
            for grid in &grids {
                assert_eq!(p.check(grid), Ok(()), "{grid:?}");
                assert!(values.same_orbit(&base, grid) && values.same_orbit(grid, &base));
            }
        }
    }

    #[test]
    fn grids_no_renaming_relates_are_in_other_orbits() {
        let p = puzzle(Geometry::classic(4).unwrap(), "1...............");
        let values = FreeValues::of(&p);
        let base = grid(4, "1234341221434321");
        // 2 and 3 swapped: a renaming. 1 moved, a given value where a free
        // one was, a free value become two: none.
        assert!(values.same_orbit(&base, &grid(4, "1324241331424231")));
        assert!(!values.same_orbit(&base, &grid(4, "2134431212433412")));
        assert!(!values.same_orbit(&base, &grid(4, "1234341221434312")));
        assert!(!values.same_orbit(&base, &grid(4, "1234341221434331")));
    }

    #[test]
    fn order_frees_nothing() {
        let free = |p: &Puzzle| FreeValues::of(p).values.iter().map(|v| v.number()).collect::<Vec<_>>();
        let knight = Geometry::new(5, Layout::Latin, &[Variant::AntiKnight]).unwrap();
        assert_eq!(free(&puzzle(knight, "1.2......................")), [3, 4, 5]);
        let ordered = Geometry::new(5, Layout::Latin, &[Variant::NonConsecutive]).unwrap();
        assert!(free(&puzzle(ordered, "1.2......................")).is_empty());
    }
}
