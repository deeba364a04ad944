//! Propagation and failed-literal probing on grids of side up to 16, one
//! machine word of candidates a cell; and the engine under them, which the
//! counting search (`src/enumerate.rs`) runs on as well.
//!
//! The same deductions as [`Propagator::propagate`] and [`Propagator::probe`]
//! (naked and hidden singles; failed-literal probing with lifting on the cells
//! of few candidates), on flat arrays and the geometry's [`Peers`]: per cell
//! a word of candidates, per unit and value a count of places and the sum of
//! their cell indices (the last place of a value is that sum: a hidden single
//! needs no scan). A probe works on a copy of the node (81 words and 243
//! counts on a 9×9) instead of keeping a trail to undo, and lifting is a
//! word-wise union of the copies. On a batch of 17-clue 9×9s that halves the
//! instructions of the whole solve; on big grids the general propagator,
//! whose trail costs what a probe touched, wins.
//!
//! It says only which candidates are left, or that there is no solution; the
//! general propagator says why (see [`crate::pipeline`]).
//!
//! [`Propagator::propagate`]: crate::reasoning::propagate::Propagator::propagate
//! [`Propagator::probe`]: crate::reasoning::propagate::Propagator::probe

use std::sync::Arc;
use std::time::Instant;

use crate::model::domains::Domains;
use crate::model::geometry::Geometry;
use crate::model::peers::Peers;
use crate::model::puzzle::Puzzle;

/// The widest grid this module prepares. Past it the general propagator,
/// whose probes cost what they touch rather than a copy of the grid, is
/// faster: with a first version of this module on every side up to 64, Kwon
/// & Jain's 25×25 puzzles took 14% more instructions, their 36×36 61% and
/// their 49×49 85% more (callgrind, `satdoku solve -j1`), while Gecode's
/// 16×16 take a third fewer.
pub(crate) const MAX_SIDE: usize = 16;

/// What preparation found.
pub(crate) enum Found {
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
) -> Option<Found> {
    let geometry = puzzle.geometry();
    if geometry.size() > MAX_SIDE {
        return None;
    }
    let tables = Tables::new(geometry)?;
    let peers = &tables.peers;
    let givens = puzzle.givens().cells();
    // The values the givens hold in each unit, built a unit at a time; a
    // value given twice in a unit is a contradiction.
    let mut held = vec![0u64; peers.unit_count()];
    for (c, value) in givens.iter().enumerate() {
        let Some(value) = value else { continue };
        for &u in peers.units_of(c as u32) {
            if held[u as usize] & 1 << value.index() != 0 {
                return Some(Found::Refuted);
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
    if cand.contains(&0) {
        return Some(Found::Refuted);
    }
    let mut pending = tables.pending();
    let mut root = tables.node(cand, &mut pending);
    if !tables.propagate(&mut root, &mut pending) {
        return Some(Found::Refuted);
    }
    let (n, words) = (geometry.size(), 1);
    let scratch = root.clone();
    let union = vec![0; root.cand.len()];
    let mut probe = Probe { tables: &tables, pending, scratch, union };
    Some(match probe.run(&mut root, max_candidates, stop_at_model, deadline) {
        Probed::Refuted => Found::Refuted,
        Probed::Model(model) => Found::Model(Domains { n, words, bits: model }),
        Probed::Open => Found::Open(Domains { n, words, bits: root.cand }),
    })
}

enum Probed {
    Refuted,
    Model(Vec<u64>),
    Open,
}

/// Failed-literal probing: the propagation tables and the scratch space.
struct Probe<'t> {
    tables: &'t Tables,
    pending: Pending,
    /// The node of the branch being probed.
    scratch: Node,
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
        root: &mut Node,
        max_candidates: usize,
        stop_at_model: bool,
        deadline: Option<Instant>,
    ) -> Probed {
        let tables = self.tables;
        loop {
            let mut changed = false;
            for cell in 0..root.cand.len() {
                let count = root.cand[cell].count_ones() as usize;
                if count < 2 || count > max_candidates {
                    continue;
                }
                if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                    return Probed::Open;
                }
                self.union.fill(0);
                let mut successes = 0;
                let mut values = root.cand[cell];
                while values != 0 {
                    let bit = values & values.wrapping_neg();
                    values ^= bit;
                    self.scratch.clone_from(root);
                    let ok = tables.decide(&mut self.scratch, cell as u32, bit, &mut self.pending);
                    if ok && stop_at_model && self.scratch.cand.iter().all(|d| d.is_power_of_two()) {
                        return Probed::Model(std::mem::take(&mut self.scratch.cand));
                    }
                    if ok {
                        successes += 1;
                        self.union.iter_mut().zip(&self.scratch.cand).for_each(|(u, &d)| *u |= d);
                    }
                }
                if successes == 0 {
                    return Probed::Refuted;
                }
                let mut lifted = false;
                let Node { cand, places } = root;
                for (i, (word, &kept)) in cand.iter_mut().zip(&self.union).enumerate() {
                    let lost = *word & !kept;
                    if lost != 0 {
                        *word &= kept;
                        lifted = true;
                        tables.lose(places, &mut self.pending.scarce, i as u32, lost);
                        if word.is_power_of_two() {
                            self.pending.queue.push(i as u32);
                        }
                    }
                }
                if lifted {
                    changed = true;
                    if !tables.propagate(root, &mut self.pending) {
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

/// The peers and units of a geometry ([`Peers`], shared by every puzzle of
/// it), for the hot loop.
pub(crate) struct Tables {
    n: u32,
    peers: Arc<Peers>,
}

/// In [`Node::places`], the count of places above the sum of their cell
/// indices (at most 64 cells of index below 2^12).
pub(crate) const COUNT_SHIFT: u32 = 18;

/// The places of a value decided in its unit: never scarce again, however
/// many candidates its peers lose (at most 63 places of under 2^19 each).
const DECIDED: u32 = 1 << 30;

/// A node of a search: candidates and place counts.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// Each cell's candidates, one bit per value.
    pub(crate) cand: Vec<u64>,
    /// For unit u and value v, at `u·n + v`: how many cells of the unit may
    /// hold v (above [`COUNT_SHIFT`]) and the sum of their indices, which is
    /// the index of the last place when one is left: a hidden single is found
    /// without scanning its unit. [`DECIDED`] once a cell holds v.
    pub(crate) places: Vec<u32>,
}

/// What [`Tables::propagate`] has still to do: cells newly decided, whose
/// value leaves their peers, and (u·n + v, v) for each unit u whose value v
/// fell to one place or none. Both empty between calls.
pub(crate) struct Pending {
    pub(crate) queue: Vec<u32>,
    pub(crate) scarce: Vec<(u32, u32)>,
}

impl Tables {
    /// The tables of `geometry`; `None` for a grid of side over 64.
    pub(crate) fn new(geometry: &Geometry) -> Option<Tables> {
        Some(Tables { n: geometry.size() as u32, peers: Arc::clone(geometry.peers()?) })
    }

    /// Nothing pending.
    pub(crate) fn pending(&self) -> Pending {
        Pending { queue: Vec::new(), scarce: Vec::new() }
    }

    /// The node of these candidates, not yet propagated, with everything
    /// pending that propagation must look at: every decided cell, and every
    /// value with one place or none in a unit.
    pub(crate) fn node(&self, cand: Vec<u64>, pending: &mut Pending) -> Node {
        let n = self.n;
        let mut places = vec![0u32; self.peers.unit_count() * n as usize];
        for (c, &d) in cand.iter().enumerate() {
            for &u in self.peers.units_of(c as u32) {
                let mut bits = d;
                while bits != 0 {
                    places[(u * n + bits.trailing_zeros()) as usize] += (1 << COUNT_SHIFT) + c as u32;
                    bits &= bits - 1;
                }
            }
        }
        let scarce = (0..places.len() as u32).filter(|&k| places[k as usize] >> COUNT_SHIFT <= 1);
        pending.scarce.extend(scarce.map(|k| (k, k % n)));
        pending.queue.extend((0..cand.len() as u32).filter(|&c| cand[c as usize].count_ones() == 1));
        Node { cand, places }
    }

    /// Cell `c` lost the values `lost`: one place fewer for each in each of its units.
    #[inline]
    pub(crate) fn lose(&self, places: &mut [u32], scarce: &mut Vec<(u32, u32)>, c: u32, mut lost: u64) {
        while lost != 0 {
            let v = lost.trailing_zeros();
            lost &= lost - 1;
            for &u in self.peers.units_of(c) {
                let k = u * self.n + v;
                let left = places[k as usize] - ((1 << COUNT_SHIFT) + c);
                places[k as usize] = left;
                if left >> COUNT_SHIFT <= 1 {
                    scarce.push((k, v));
                }
            }
        }
    }

    /// Give `cell` the value `bit` in a fixpoint, and propagate: false on a contradiction.
    pub(crate) fn decide(&self, node: &mut Node, cell: u32, bit: u64, pending: &mut Pending) -> bool {
        let lost = node.cand[cell as usize] & !bit;
        node.cand[cell as usize] = bit;
        self.lose(&mut node.places, &mut pending.scarce, cell, lost);
        pending.queue.push(cell);
        self.propagate(node, pending)
    }

    /// Naked and hidden singles to the fixpoint, from what is pending. False
    /// on a contradiction. Leaves nothing pending.
    pub(crate) fn propagate(&self, node: &mut Node, pending: &mut Pending) -> bool {
        let fixpoint = self.settle(node, pending);
        if !fixpoint {
            pending.queue.clear();
            pending.scarce.clear();
        }
        fixpoint
    }

    fn settle(&self, node: &mut Node, pending: &mut Pending) -> bool {
        let Node { cand, places } = node;
        let Pending { queue, scarce } = pending;
        loop {
            while let Some(c) = queue.pop() {
                let bit = cand[c as usize];
                let v = bit.trailing_zeros();
                for &u in self.peers.units_of(c) {
                    places[(u * self.n + v) as usize] = DECIDED;
                }
                for &p in self.peers.of(c) {
                    let d = cand[p as usize];
                    if d & bit != 0 {
                        let rest = d & !bit;
                        if rest == 0 {
                            return false;
                        }
                        cand[p as usize] = rest;
                        if rest & (rest - 1) == 0 {
                            queue.push(p);
                        }
                        self.lose(places, scarce, p, bit);
                    }
                }
            }
            let Some((k, v)) = scarce.pop() else { return true };
            let left = places[k as usize];
            match left >> COUNT_SHIFT {
                0 => return false,
                // The last place of the value: the sum of indices is its cell.
                1 => {
                    let c = left & ((1 << COUNT_SHIFT) - 1);
                    let bit = 1u64 << v;
                    let lost = cand[c as usize] & !bit;
                    // Already decided (and queued) when nothing else is left.
                    if lost != 0 {
                        cand[c as usize] = bit;
                        queue.push(c);
                        self.lose(places, scarce, c, lost);
                    }
                }
                // Decided since.
                _ => {}
            }
        }
    }

    /// The undecided cell of `cells` with fewest candidates, or None when
    /// every one is decided.
    pub(crate) fn branch_cell(&self, cand: &[u64], cells: &[u32]) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        for &i in cells {
            let d = cand[i as usize];
            // Without a popcount instruction in the baseline x86-64 target,
            // clearing the lowest bit twice tells decided and two-candidate
            // cells apart cheaply, and two is the fewest there can be.
            let rest = d & d.wrapping_sub(1);
            if rest == 0 {
                continue;
            }
            if rest & rest.wrapping_sub(1) == 0 {
                return Some(i);
            }
            let k = d.count_ones();
            if best.is_none_or(|(_, b)| k < b) {
                best = Some((i, k));
            }
        }
        best.map(|(c, _)| c)
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
                (Some(Found::Open(small)), Some(general)) => prop_assert_eq!(small, general),
                (Some(Found::Refuted), None) => {}
                (Some(Found::Refuted), Some(_)) => prop_assert!(false, "refuted here only"),
                (Some(Found::Open(_)), None) => prop_assert!(false, "refuted by the general propagator only"),
                (Some(Found::Model(_)), _) => prop_assert!(false, "a model without stop_at_model"),
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
        let Some(Found::Model(model)) = prepare(&puzzle, 3, true, None) else { panic!("no model") };
        assert_eq!(crate::model::verify::verify(&geometry, &givens, &model.decided()), Ok(()));
    }

    #[test]
    fn wider_grids_are_left_to_the_general_propagator() {
        let puzzle = Puzzle::new(Arc::new(Geometry::classic(25).unwrap()), Grid::empty(25)).unwrap();
        assert!(prepare(&puzzle, 3, true, None).is_none());
    }
}

#[cfg(test)]
mod agreement {
    //! The two propagation engines, [`Tables::propagate`] (one word a cell,
    //! for small grids and the counting search) and [`Propagator::propagate`]
    //! (for every grid), must reach the same fixpoint from any state: the
    //! same candidates, or both a contradiction. And [`Tables`], which keeps
    //! its place counts up to date incrementally, must reach from a decision
    //! in a fixpoint the fixpoint it reaches from scratch.

    use proptest::prelude::*;

    use super::{Node, Tables, COUNT_SHIFT};
    use crate::model::domains::Domains;
    use crate::model::geometry::{Geometry, Layout, Value, Variant};
    use crate::reasoning::propagate::Propagator;

    fn geometries() -> Vec<Geometry> {
        vec![
            Geometry::classic(4).unwrap(),
            Geometry::new(6, Layout::Boxes { rows: 2, cols: 3 }, &[]).unwrap(),
            Geometry::classic(9).unwrap(),
            Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::X, Variant::Hyper]).unwrap(),
            Geometry::latin(7).unwrap(),
            Geometry::classic(16).unwrap(),
        ]
    }

    /// A random state: each cell keeps a random nonempty subset of its
    /// values, most cells many, a share `singles` of them one.
    fn random_masks(geometry: &Geometry, seed: u64, singles: f64, cut: f64) -> Vec<u64> {
        let n = geometry.size();
        let mut next = crate::testing::xorshift(seed);
        let mut roll = move || (next() % 1000) as f64 / 1000.0;
        let mut masks = Vec::with_capacity(n * n);
        for _ in geometry.cells() {
            let one = 1u64 << ((roll() * n as f64) as usize).min(n - 1);
            let mask = if roll() < singles {
                one
            } else {
                let m = (0..n).filter(|_| roll() >= cut).fold(0, |m, v| m | 1 << v);
                if m == 0 {
                    one
                } else {
                    m
                }
            };
            masks.push(mask);
        }
        masks
    }

    /// The fixpoint of the counting engine from `masks`, as masks; None on a contradiction.
    fn counted(geometry: &Geometry, masks: &[u64]) -> Option<Vec<u64>> {
        let n = geometry.size();
        let mut domains = Domains::full(n);
        for cell in geometry.cells() {
            for v in (0..n).filter(|&v| masks[cell.index()] & 1 << v == 0) {
                domains.remove(cell, Value::from_index(v));
            }
        }
        let mut p = Propagator::with_domains(geometry, domains);
        p.propagate().ok()?;
        let d = p.into_domains();
        Some(geometry.cells().map(|cell| d.values(cell).fold(0, |acc, v| acc | 1 << v.index())).collect())
    }

    /// The fixpoint of the bitset engine from `masks`, every unit and value looked at.
    fn from_scratch(tables: &Tables, masks: Vec<u64>) -> Option<Node> {
        let mut pending = tables.pending();
        let mut node = tables.node(masks, &mut pending);
        tables.propagate(&mut node, &mut pending).then_some(node)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        #[test]
        fn bitset_and_counting_propagation_agree(kind in 0..6usize, seed: u64, singles in 0.0..0.5f64, cut in 0.0..0.6f64) {
            let geometry = &geometries()[kind];
            let masks = random_masks(geometry, seed, singles, cut);
            let expected = counted(geometry, &masks);
            let bitset = from_scratch(&Tables::new(geometry).unwrap(), masks).map(|node| node.cand);
            prop_assert_eq!(bitset, expected);
        }
    }

    /// The widest grid: 64 places of a value in a unit, cells up to 4,095;
    /// their count and index sum share a word without overflow.
    #[test]
    fn places_fit_the_widest_grid() {
        let geometry = Geometry::latin(64).unwrap();
        let tables = Tables::new(&geometry).unwrap();
        let mut pending = tables.pending();
        let mut node = tables.node(vec![u64::MAX; 64 * 64], &mut pending);
        assert!(pending.queue.is_empty() && pending.scarce.is_empty());
        for (u, unit) in geometry.units().iter().enumerate() {
            let sum: u32 = unit.cells().iter().map(|c| c.index() as u32).sum();
            for v in 0..64 {
                assert_eq!(node.places[u * 64 + v], 64 << COUNT_SHIFT | sum);
            }
        }
        // The last cell of row 63 decided: its column and row keep the
        // value once, there, and every other cell of both loses it.
        let last = 64 * 64 - 1;
        assert!(tables.decide(&mut node, last, 1 << 63, &mut pending));
        assert_eq!(node.cand[last as usize], 1 << 63);
        assert_eq!(node.cand[63], u64::MAX >> 1);
        assert_eq!(node.places[63 * 64 + 62], 63 << COUNT_SHIFT | (64 * 63..64 * 64 - 1).sum::<u32>());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

        /// Down a branch of decisions, as the search goes: each decision
        /// propagated from the fixpoint above it (the places of each value in
        /// each unit kept up to date, not recounted) reaches the fixpoint that
        /// propagation from scratch reaches, with the same places.
        #[test]
        fn incremental_propagation_reaches_the_fixpoint_from_scratch(kind in 0..7usize, seed: u64, cut in 0.0..0.3f64) {
            let geometry = if kind == 6 { Geometry::classic(25).unwrap() } else { geometries().swap_remove(kind) };
            let tables = Tables::new(&geometry).unwrap();
            let Some(mut state) = from_scratch(&tables, random_masks(&geometry, seed, 0.02, cut)) else { return Ok(()) };
            let mut next = crate::testing::xorshift(seed ^ 0x9e37_79b9_7f4a_7c15);
            let mut pending = tables.pending();
            let n = geometry.size() as u32;
            let cells: Vec<u32> = (0..state.cand.len() as u32).collect();
            while let Some(cell) = tables.branch_cell(&state.cand, &cells) {
                let values: Vec<u64> = (0..64).map(|v| 1u64 << v).filter(|&b| state.cand[cell as usize] & b != 0).collect();
                let bit = values[(next() % values.len() as u64) as usize];
                let mut masks = state.cand.clone();
                masks[cell as usize] = bit;
                prop_assert_eq!(counted(&geometry, &masks), from_scratch(&tables, masks.clone()).map(|node| node.cand));
                let expected = from_scratch(&tables, masks);
                let mut child = state.clone();
                let incremental = tables.decide(&mut child, cell, bit, &mut pending).then_some(child);
                prop_assert!(pending.queue.is_empty() && pending.scarce.is_empty());
                match (incremental, expected) {
                    (Some(child), Some(expected)) => {
                        prop_assert_eq!(&child.cand, &expected.cand);
                        // Recounted: the same places, or for a value some cell
                        // holds, that one place.
                        let recounted = tables.node(child.cand.clone(), &mut tables.pending()).places;
                        for (k, (&kept, &fresh)) in child.places.iter().zip(&recounted).enumerate() {
                            match kept >> COUNT_SHIFT <= n {
                                true => prop_assert_eq!(kept, fresh, "unit {}, value {}", k / n as usize, k % n as usize),
                                false => prop_assert_eq!(fresh >> COUNT_SHIFT, 1),
                            }
                        }
                        state = child;
                    }
                    (None, None) => break,
                    (incremental, expected) => prop_assert!(false, "incremental {incremental:?}, from scratch {expected:?}"),
                }
            }
        }
    }
}
