//! Propagation and failed-literal probing on grids of side up to 16, one
//! machine word of candidates a cell.
//!
//! The same deductions as [`Propagator::propagate`] and [`Propagator::probe`]
//! (naked and hidden singles; failed-literal probing with lifting on the cells
//! of few candidates), on a flat array of words and the geometry's [`Peers`].
//! A probe works on a copy of the words (81 of them on a 9×9) instead of
//! keeping a trail to undo, and lifting is a word-wise union of the copies.
//! On a batch of 17-clue 9×9s that halves the instructions of the whole
//! solve; the general propagator's per-value place counts pay off on big
//! grids.
//!
//! It says only which candidates are left, or that there is no solution; the
//! general propagator says why (see [`crate::pipeline`]).
//!
//! [`Propagator::propagate`]: crate::reasoning::propagate::Propagator::propagate
//! [`Propagator::probe`]: crate::reasoning::propagate::Propagator::probe

use std::time::Instant;

use crate::model::domains::Domains;
use crate::model::peers::Peers;
use crate::model::puzzle::Puzzle;

/// The widest grid this module prepares. Past it the general propagator,
/// whose work follows the removals rather than rescanning units, is faster:
/// with this module on every side up to 64, Kwon & Jain's 25×25 puzzles took
/// 14% more instructions, their 36×36 61% and their 49×49 85% more
/// (callgrind, `satdoku solve -j1`), while Gecode's 16×16 took 41% fewer.
pub(crate) const MAX_SIDE: usize = 16;

/// What preparation found.
pub(crate) enum Prepared {
    /// A probe decided every cell: a model of the units (still to be verified).
    Model(Domains),
    /// The candidates left, at the fixpoint of singles and probing.
    Open(Domains),
    /// There is no solution.
    Refuted,
}

/// Singles, then probing on cells of at most `max_candidates` candidates,
/// from the puzzle's givens and pencil marks. With `stop_at_model`, a probe
/// that decides every cell is returned at once. `None` where the grid is
/// wider than [`MAX_SIDE`]. Probing stops at `deadline`, leaving what it has
/// removed so far (each removal is sound on its own).
pub(crate) fn prepare(
    puzzle: &Puzzle,
    max_candidates: usize,
    stop_at_model: bool,
    deadline: Option<Instant>,
) -> Option<Prepared> {
    let geometry = puzzle.geometry();
    if geometry.size() > MAX_SIDE {
        return None;
    }
    let peers = geometry.peers()?;
    let givens = puzzle.givens().cells();
    // The values the givens hold in each unit, built a unit at a time; a
    // value given twice in a unit is a contradiction.
    let mut held = vec![0u64; peers.unit_count()];
    for (c, value) in givens.iter().enumerate() {
        let Some(value) = value else { continue };
        for &u in peers.units_of(c as u32) {
            if held[u as usize] & 1 << value.index() != 0 {
                return Some(Prepared::Refuted);
            }
            held[u as usize] |= 1 << value.index();
        }
    }
    // Each given alone in its cell and gone from its peers; each open cell
    // keeps the values its units' givens leave (and its pencil marks allow).
    let mut cand: Vec<u64> = givens
        .iter()
        .enumerate()
        .map(|(c, v)| match v {
            Some(v) => 1 << v.index(),
            None => peers.units_of(c as u32).iter().fold(peers.full(), |d, &u| d & !held[u as usize]),
        })
        .collect();
    if let Some(marks) = puzzle.candidates() {
        cand.iter_mut().zip(&marks.bits).for_each(|(d, &m)| *d &= m);
    }
    let (n, words) = (geometry.size(), 1);
    let mut singles = Singles::new(peers);
    // The givens are placed already; every other cell may be a single.
    singles.everything_changed(&cand, |c| givens[c as usize].is_none());
    if cand.contains(&0) || !singles.propagate(&mut cand) {
        return Some(Prepared::Refuted);
    }
    let mut probe = Probe { singles, scratch: vec![0; cand.len()], union: vec![0; cand.len()] };
    Some(match probe.run(&mut cand, max_candidates, stop_at_model, deadline) {
        Probed::Refuted => Prepared::Refuted,
        Probed::Model(model) => Prepared::Model(Domains { n, words, bits: model }),
        Probed::Open => Prepared::Open(Domains { n, words, bits: cand }),
    })
}

enum Probed {
    Refuted,
    Model(Vec<u64>),
    Open,
}

/// Failed-literal probing: the singles propagator and the scratch space.
struct Probe<'p> {
    singles: Singles<'p>,
    /// The words of the branch being probed.
    scratch: Vec<u64>,
    /// What the successful branches of the probed cell kept, between them.
    union: Vec<u64>,
}

impl Probe<'_> {
    /// Failed-literal probing with lifting, repeated until a pass over the
    /// grid changes nothing: each candidate of a cell of 2 to
    /// `max_candidates` candidates is tried with propagation; what no
    /// successful branch keeps, anywhere in the grid, is removed.
    fn run(
        &mut self,
        cand: &mut [u64],
        max_candidates: usize,
        stop_at_model: bool,
        deadline: Option<Instant>,
    ) -> Probed {
        loop {
            let mut changed = false;
            for cell in 0..cand.len() {
                let count = cand[cell].count_ones() as usize;
                if count < 2 || count > max_candidates {
                    continue;
                }
                if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                    return Probed::Open;
                }
                self.union.fill(0);
                let mut successes = 0;
                let mut values = cand[cell];
                while values != 0 {
                    let bit = values & values.wrapping_neg();
                    values ^= bit;
                    let mut scratch = std::mem::take(&mut self.scratch);
                    scratch.copy_from_slice(cand);
                    scratch[cell] = bit;
                    self.singles.removed(cell as u32, cand[cell] & !bit, true);
                    let ok = self.singles.propagate(&mut scratch);
                    if ok && stop_at_model && scratch.iter().all(|d| d.is_power_of_two()) {
                        return Probed::Model(scratch);
                    }
                    if ok {
                        successes += 1;
                        self.union.iter_mut().zip(&scratch).for_each(|(u, &d)| *u |= d);
                    }
                    self.scratch = scratch;
                }
                if successes == 0 {
                    return Probed::Refuted;
                }
                let mut lifted = false;
                for (i, (word, &kept)) in cand.iter_mut().zip(&self.union).enumerate() {
                    let lost = *word & !kept;
                    if lost != 0 {
                        *word &= kept;
                        lifted = true;
                        self.singles.removed(i as u32, lost, word.is_power_of_two());
                    }
                }
                if lifted {
                    changed = true;
                    if !self.singles.propagate(cand) {
                        return Probed::Refuted;
                    }
                }
            }
            if !changed {
                return Probed::Open;
            }
        }
    }
}

/// Naked and hidden singles on one word a cell: the work follows the
/// removals. A cell down to one candidate is queued, its value to be removed
/// from its peers; a value removed from a cell is noted in the cell's units,
/// where it may now have one place left.
pub(crate) struct Singles<'p> {
    peers: &'p Peers,
    /// Cells newly down to one candidate, whose value is still in their peers.
    queue: Vec<u32>,
    /// Per unit, the values removed from its cells since it was last looked
    /// at; the units with any, as a stack.
    removed: Vec<u64>,
    stack: Vec<u32>,
}

impl<'p> Singles<'p> {
    pub(crate) fn new(peers: &'p Peers) -> Singles<'p> {
        Singles { peers, queue: Vec::new(), removed: vec![0; peers.unit_count()], stack: Vec::new() }
    }

    /// `cell` lost the candidates `values` (and is down to one, if `single`).
    #[inline(always)]
    pub(crate) fn removed(&mut self, cell: u32, values: u64, single: bool) {
        if single {
            self.queue.push(cell);
        }
        for &u in self.peers.units_of(cell) {
            let removed = &mut self.removed[u as usize];
            if *removed == 0 {
                self.stack.push(u);
            }
            *removed |= values;
        }
    }

    /// Every cell may have changed: queue the decided ones that `unplaced`
    /// says still have their value in their peers, look at every value of
    /// every unit.
    pub(crate) fn everything_changed(&mut self, cand: &[u64], unplaced: impl Fn(u32) -> bool) {
        self.queue.extend((0..cand.len() as u32).filter(|&c| cand[c as usize].is_power_of_two() && unplaced(c)));
        self.removed.fill(self.peers.full());
        self.stack.clear();
        self.stack.extend((0..self.removed.len() as u32).rev());
    }

    /// Propagate every change since the last call to the fixpoint. False on a
    /// contradiction (a cell without candidates, or a value without a place in
    /// a unit); what was left to do is then dropped.
    pub(crate) fn propagate(&mut self, cand: &mut [u64]) -> bool {
        let ok = self.fixpoint(cand);
        if !ok {
            self.queue.clear();
            for u in self.stack.drain(..) {
                self.removed[u as usize] = 0;
            }
        }
        ok
    }

    fn fixpoint(&mut self, cand: &mut [u64]) -> bool {
        let peers = self.peers;
        let full = peers.full();
        loop {
            while let Some(c) = self.queue.pop() {
                let bit = cand[c as usize];
                for &p in peers.of(c) {
                    let d = cand[p as usize];
                    if d & bit != 0 {
                        let rest = d & !bit;
                        if rest == 0 {
                            return false;
                        }
                        cand[p as usize] = rest;
                        self.removed(p, bit, rest.is_power_of_two());
                    }
                }
                // In the cell's own units the value now has its one place.
                for &u in peers.units_of(c) {
                    self.removed[u as usize] &= !bit;
                }
            }
            let Some(u) = self.stack.pop() else { return true };
            let removed = std::mem::take(&mut self.removed[u as usize]);
            if removed == 0 {
                // Only placed values were noted here, and those were taken back.
                continue;
            }
            let unit = peers.unit(u);
            // The values seen once and more than once.
            let (mut once, mut twice) = (0u64, 0u64);
            for &c in unit {
                let d = cand[c as usize];
                twice |= once & d;
                once |= d;
            }
            if once != full {
                return false;
            }
            // A removed value seen once has one place left (unless that
            // place already holds it).
            let mut hidden = once & !twice & removed;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden ^= bit;
                // An earlier single of this unit may have taken this one's only place.
                let Some(&c) = unit.iter().find(|&&c| cand[c as usize] & bit != 0) else {
                    return false;
                };
                let d = cand[c as usize];
                if d != bit {
                    cand[c as usize] = bit;
                    self.removed(c, d & !bit, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;
    use crate::model::geometry::{Cell, Geometry, Layout, Value, Variant};
    use crate::model::puzzle::Grid;
    use crate::reasoning::propagate::Propagator;
    use crate::testing::{pattern, xorshift};

    /// The general propagator's singles and probing, without stopping at a model.
    fn general(puzzle: &Puzzle) -> Option<Domains> {
        let mut p = Propagator::from_puzzle(puzzle).ok()?;
        p.propagate().ok()?;
        p.probe(3, false).ok()?;
        Some(p.into_domains())
    }

    /// A puzzle on `geometry`: a few cells of a relabelled pattern grid of
    /// `rows`×`cols` boxes (every row, column and box right; diagonals not),
    /// one of them perhaps changed, so that some have no solution.
    fn puzzle(geometry: Geometry, rows: usize, seed: u64, keep: u64, corrupt: bool) -> Puzzle {
        let n = geometry.size();
        let mut random = xorshift(seed);
        let mut labels: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            labels.swap(i, random() as usize % (i + 1));
        }
        let solution = pattern(n, rows, n / rows);
        let mut givens = Grid::empty(n);
        for r in 0..n {
            for c in 0..n {
                if random() % 100 < keep {
                    givens.set(Cell::from_index(r * n + c), Some(Value::from_index(labels[solution(r, c)])));
                }
            }
        }
        if corrupt {
            let cell = Cell::from_index(random() as usize % (n * n));
            givens.set(cell, Some(Value::from_index(random() as usize % n)));
        }
        Puzzle::new(Arc::new(geometry), givens).expect("sizes match")
    }

    proptest! {
        /// The same deductions as the general propagator: the same candidates
        /// left, and a contradiction exactly where it finds one.
        #[test]
        fn agrees_with_the_general_propagator(
            shape in 0usize..6,
            seed in any::<u64>(),
            keep in 5u64..60,
            corrupt in any::<bool>(),
        ) {
            let (geometry, rows) = match shape {
                0 => (Geometry::classic(4).unwrap(), 2),
                1 => (Geometry::classic(6).unwrap(), 2),
                2 => (Geometry::classic(9).unwrap(), 3),
                3 => (Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::X]).unwrap(), 3),
                4 => (Geometry::latin(7).unwrap(), 1),
                _ => (Geometry::classic(16).unwrap(), 4),
            };
            let puzzle = puzzle(geometry, rows, seed, keep, corrupt);
            match (prepare(&puzzle, 3, false, None), general(&puzzle)) {
                (Some(Prepared::Open(small)), Some(general)) => prop_assert_eq!(small, general),
                (Some(Prepared::Refuted), None) => {}
                (Some(Prepared::Refuted), Some(_)) => prop_assert!(false, "refuted here only"),
                (Some(Prepared::Open(_)), None) => prop_assert!(false, "refuted by the general propagator only"),
                (Some(Prepared::Model(_)), _) => prop_assert!(false, "a model without stop_at_model"),
                (None, _) => prop_assert!(false, "a side of at most 16 is prepared here"),
            }
        }
    }

    #[test]
    fn a_model_found_by_probing_solves_the_puzzle() {
        let geometry = Arc::new(Geometry::classic(9).unwrap());
        // 17 givens: singles alone do not finish it, a probe does.
        let text = "...8.1..........435............7.8........1...2..3....6......75..34........2..6..";
        let givens = crate::testing::grid(9, text);
        let puzzle = Puzzle::new(geometry.clone(), givens.clone()).unwrap();
        let Some(Prepared::Model(model)) = prepare(&puzzle, 3, true, None) else { panic!("no model") };
        assert_eq!(crate::model::verify::verify(&geometry, &givens, &model.decided()), Ok(()));
    }

    #[test]
    fn wider_grids_are_left_to_the_general_propagator() {
        let puzzle = Puzzle::new(Arc::new(Geometry::classic(25).unwrap()), Grid::empty(25)).unwrap();
        assert!(prepare(&puzzle, 3, true, None).is_none());
    }
}
