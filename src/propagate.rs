//! Candidate sets and what unit propagation on the extended encoding derives from them.
//!
//! On the extended encoding (Lynce & Ouaknine 2006) unit propagation derives
//! exactly two things: a cell with one candidate left takes it (a *naked single*,
//! from the cell's at-least-one clause), and a value with one place left in a
//! unit goes there (a *hidden single*, from the unit's at-least-one clause);
//! each placement removes the value from the cell's peers (the at-most-one
//! clauses). Doing this on bitsets before the SAT solver sees the puzzle is
//! the "reduced" encoding of Kwon & Jain (2006) taken to its fixpoint.

use std::fmt;

use crate::geometry::{Cell, Geometry, Unit, Value};
use crate::puzzle::Grid;
use crate::symbols::Alphabet;

/// The candidate values of every cell, as a bitset per cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Domains {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl Domains {
    /// Every value possible in every cell of a grid of side `n`.
    pub fn full(n: usize) -> Domains {
        let words = n.div_ceil(64).max(1);
        let mut row = vec![0u64; words];
        for v in 0..n {
            row[v / 64] |= 1 << (v % 64);
        }
        let bits = row.iter().copied().cycle().take(words * n * n).collect();
        Domains { n, words, bits }
    }

    pub fn size(&self) -> usize {
        self.n
    }

    fn span(&self, cell: Cell) -> std::ops::Range<usize> {
        let start = cell.index() * self.words;
        start..start + self.words
    }

    pub fn contains(&self, cell: Cell, value: Value) -> bool {
        let i = value.index();
        self.bits[cell.index() * self.words + i / 64] & (1 << (i % 64)) != 0
    }

    /// Remove `value` from `cell`; whether it was there.
    pub fn remove(&mut self, cell: Cell, value: Value) -> bool {
        let i = value.index();
        let word = &mut self.bits[cell.index() * self.words + i / 64];
        let bit = 1 << (i % 64);
        let had = *word & bit != 0;
        *word &= !bit;
        had
    }

    /// Make `value` the only candidate of `cell`.
    pub fn fix(&mut self, cell: Cell, value: Value) {
        let span = self.span(cell);
        self.bits[span].fill(0);
        let i = value.index();
        self.bits[cell.index() * self.words + i / 64] |= 1 << (i % 64);
    }

    pub fn count(&self, cell: Cell) -> usize {
        self.bits[self.span(cell)].iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The value, if exactly one is left.
    pub fn single(&self, cell: Cell) -> Option<Value> {
        let mut found = None;
        for (w, &word) in self.bits[self.span(cell)].iter().enumerate() {
            if word == 0 {
                continue;
            }
            if found.is_some() || word.count_ones() != 1 {
                return None;
            }
            found = Some(Value::from_index(w * 64 + word.trailing_zeros() as usize));
        }
        found
    }

    /// The candidates of `cell`, in increasing order.
    pub fn values(&self, cell: Cell) -> impl Iterator<Item = Value> + '_ {
        self.bits[self.span(cell)].iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    Value::from_index(w * 64 + b)
                })
            })
        })
    }

    /// The grid of the cells with a single candidate.
    pub fn decided(&self) -> Grid {
        let mut grid = Grid::empty(self.n);
        for i in 0..self.n * self.n {
            let cell = Cell::from_index(i);
            grid.set(cell, self.single(cell));
        }
        grid
    }

    /// Whether every cell has exactly one candidate.
    pub fn is_solved(&self) -> bool {
        (0..self.n * self.n).all(|i| self.count(Cell::from_index(i)) == 1)
    }
}

/// Why propagation found that a puzzle has no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// A cell lost every candidate.
    EmptyCell { cell: Cell },
    /// A value has no place left in a unit.
    NoPlace { unit: usize, value: Value },
    /// Two givens of one unit hold the same value.
    Clash { unit: usize, value: Value, cells: (Cell, Cell) },
}

impl Contradiction {
    /// The reason in words, values written in `alphabet` as the puzzle was:
    /// `the givens clash: row 3 has 5 twice (r3c1 and r3c7)`.
    pub fn describe(&self, geometry: &Geometry, alphabet: &Alphabet) -> String {
        let symbol = |v: &Value| crate::format::symbol(Some(*v), geometry.size(), alphabet);
        match self {
            Contradiction::EmptyCell { cell } => format!("{} has no candidate left", geometry.cell_name(*cell)),
            Contradiction::NoPlace { unit, value } => {
                format!("{} has no place left in {}", symbol(value), geometry.units()[*unit])
            }
            Contradiction::Clash { unit, value, cells: (a, b) } => format!(
                "the givens clash: {} has {} twice ({} and {})",
                geometry.units()[*unit],
                symbol(value),
                geometry.cell_name(*a),
                geometry.cell_name(*b)
            ),
        }
    }
}

/// One deduction, for `analyze --steps`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The cell has only this candidate left.
    NakedSingle { cell: Cell, value: Value },
    /// In this unit, the value fits only this cell.
    HiddenSingle { unit: usize, cell: Cell, value: Value },
    /// Placing `because` removed the value from these peers.
    Eliminate { because: Cell, value: Value, cells: Vec<Cell> },
}

/// A [`Step`] with the geometry it speaks of, printable in words.
pub struct StepText<'a>(pub &'a Step, pub &'a Geometry);

impl fmt::Display for StepText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.1;
        match self.0 {
            Step::NakedSingle { cell, value } => {
                write!(f, "naked single: {} can only be {value}", g.cell_name(*cell))
            }
            Step::HiddenSingle { unit, cell, value } => {
                write!(f, "hidden single: in {}, {value} fits only {}", g.units()[*unit], g.cell_name(*cell))
            }
            Step::Eliminate { because, value, cells } => {
                let names: Vec<String> = cells.iter().map(|&c| g.cell_name(c)).collect();
                write!(f, "elimination: {} = {value} removes {value} from {}", g.cell_name(*because), names.join(", "))
            }
        }
    }
}

/// The two givens that clash in a unit, if any.
pub fn find_clash(geometry: &Geometry, givens: &Grid) -> Option<Contradiction> {
    let n = geometry.size();
    let mut seen: Vec<Option<Cell>> = vec![None; n];
    for (u, unit) in geometry.units().iter().enumerate() {
        seen.fill(None);
        for &cell in unit.cells() {
            if let Some(v) = givens.get(cell) {
                if let Some(first) = seen[v.index()] {
                    return Some(Contradiction::Clash { unit: u, value: v, cells: (first, cell) });
                }
                seen[v.index()] = Some(cell);
            }
        }
    }
    None
}

/// Unit propagation to its fixpoint: naked and hidden singles, with the
/// eliminations they cause.
///
/// Only units that lost a candidate since they were last looked at are scanned
/// for hidden singles, so the work follows the changes, not the grid size.
#[derive(Clone)]
pub struct Propagator<'g> {
    geometry: &'g Geometry,
    domains: Domains,
    /// Cells whose value has been removed from their peers.
    placed: Vec<bool>,
    placed_count: usize,
    queue: Vec<Cell>,
    /// Units that lost a candidate since their last hidden-single scan.
    dirty: Vec<bool>,
    dirty_list: Vec<u32>,
    trace: Option<Vec<Step>>,
    /// While probing: the old value of every domain word changed (index, word),
    /// and the cells placed, so that a probe is undone at the cost of what it did.
    trail: Option<Vec<(u32, u64)>>,
    placed_trail: Vec<u32>,
    /// Scratch for the hidden-single scan.
    once: Vec<u64>,
    twice: Vec<u64>,
    fixed: Vec<u64>,
}

impl<'g> Propagator<'g> {
    /// Start from every value in every cell.
    pub fn new(geometry: &'g Geometry) -> Propagator<'g> {
        Propagator::with_domains(geometry, Domains::full(geometry.size()))
    }

    /// Start from given candidate sets.
    pub fn with_domains(geometry: &'g Geometry, domains: Domains) -> Propagator<'g> {
        let words = domains.words;
        let units = geometry.units().len();
        let mut p = Propagator {
            geometry,
            placed: vec![false; geometry.cell_count()],
            placed_count: 0,
            domains,
            queue: Vec::new(),
            dirty: vec![true; units],
            dirty_list: (0..units as u32).rev().collect(),
            trace: None,
            trail: None,
            placed_trail: Vec::new(),
            once: vec![0; words],
            twice: vec![0; words],
            fixed: vec![0; words],
        };
        // Cells already down to one candidate still have to be propagated.
        for cell in geometry.cells() {
            if p.domains.count(cell) == 1 {
                p.queue.push(cell);
            }
        }
        p
    }

    /// Record each deduction (for `--steps`).
    pub fn record_steps(&mut self) {
        self.trace = Some(Vec::new());
    }

    pub fn steps(&self) -> &[Step] {
        self.trace.as_deref().unwrap_or(&[])
    }

    pub fn domains(&self) -> &Domains {
        &self.domains
    }

    pub fn into_domains(self) -> Domains {
        self.domains
    }

    pub fn geometry(&self) -> &'g Geometry {
        self.geometry
    }

    /// Place the givens (each as a unit clause would). Clashing givens are a contradiction.
    pub fn place_givens(&mut self, givens: &Grid) -> Result<(), Contradiction> {
        if let Some(clash) = find_clash(self.geometry, givens) {
            return Err(clash);
        }
        for (cell, value) in givens.filled() {
            self.assign(cell, value)?;
        }
        Ok(())
    }

    /// Assume `value` in `cell` (a given, a decision or a probe).
    pub fn assign(&mut self, cell: Cell, value: Value) -> Result<(), Contradiction> {
        if !self.domains.contains(cell, value) {
            return Err(Contradiction::EmptyCell { cell });
        }
        if self.domains.count(cell) > 1 {
            self.fix(cell, value);
            self.touch(cell);
        }
        self.queue.push(cell);
        Ok(())
    }

    /// Set domain word `i`, remembering the old one while probing.
    fn set_word(&mut self, i: usize, word: u64) {
        if let Some(trail) = self.trail.as_mut() {
            trail.push((i as u32, self.domains.bits[i]));
        }
        self.domains.bits[i] = word;
    }

    fn fix(&mut self, cell: Cell, value: Value) {
        let words = self.domains.words;
        for w in 0..words {
            let word = if w == value.index() / 64 { 1u64 << (value.index() % 64) } else { 0 };
            self.set_word(cell.index() * words + w, word);
        }
    }

    /// Remove `value` from `cell`'s candidates (a failed probe).
    pub fn exclude(&mut self, cell: Cell, value: Value) -> Result<(), Contradiction> {
        let i = cell.index() * self.domains.words + value.index() / 64;
        let bit = 1u64 << (value.index() % 64);
        if self.domains.bits[i] & bit != 0 {
            self.set_word(i, self.domains.bits[i] & !bit);
            self.touch(cell);
            match self.domains.count(cell) {
                0 => return Err(Contradiction::EmptyCell { cell }),
                1 => self.queue.push(cell),
                _ => {}
            }
        }
        Ok(())
    }

    /// Mark the units of `cell` for a hidden-single scan.
    fn touch(&mut self, cell: Cell) {
        for &u in self.geometry.units_of(cell) {
            if !std::mem::replace(&mut self.dirty[u as usize], true) {
                self.dirty_list.push(u);
            }
        }
    }

    /// Propagate to the fixpoint.
    pub fn propagate(&mut self) -> Result<(), Contradiction> {
        loop {
            self.eliminate()?;
            let Some(u) = self.dirty_list.pop() else { return Ok(()) };
            self.dirty[u as usize] = false;
            self.hidden_singles(u as usize)?;
        }
    }

    /// Remove every placed value from its cell's peers; peers left with one
    /// candidate are placed in turn.
    fn eliminate(&mut self) -> Result<(), Contradiction> {
        let geometry = self.geometry;
        let words = self.domains.words;
        while let Some(cell) = self.queue.pop() {
            if self.placed[cell.index()] {
                continue;
            }
            let Some(value) = self.domains.single(cell) else {
                return Err(Contradiction::EmptyCell { cell });
            };
            self.placed[cell.index()] = true;
            self.placed_count += 1;
            if self.trail.is_some() {
                self.placed_trail.push(cell.index() as u32);
            }
            let (word, bit) = (value.index() / 64, 1u64 << (value.index() % 64));
            let mut removed = Vec::new();
            for &u in geometry.units_of(cell) {
                for &peer in geometry.units()[u as usize].cells() {
                    let i = peer.index() * words + word;
                    let w = self.domains.bits[i];
                    if w & bit == 0 || peer == cell {
                        continue;
                    }
                    self.set_word(i, w & !bit);
                    self.touch(peer);
                    if self.trace.is_some() {
                        removed.push(peer);
                    }
                    let left = if words == 1 {
                        self.domains.bits[peer.index()].count_ones() as usize
                    } else {
                        self.domains.count(peer)
                    };
                    match left {
                        0 => return Err(Contradiction::EmptyCell { cell: peer }),
                        1 => {
                            if let (Some(trace), Some(v)) = (self.trace.as_mut(), self.domains.single(peer)) {
                                trace.push(Step::Eliminate {
                                    because: cell,
                                    value,
                                    cells: std::mem::take(&mut removed),
                                });
                                trace.push(Step::NakedSingle { cell: peer, value: v });
                            }
                            self.queue.push(peer);
                        }
                        _ => {}
                    }
                }
            }
            if let Some(trace) = self.trace.as_mut() {
                if !removed.is_empty() {
                    trace.push(Step::Eliminate { because: cell, value, cells: removed });
                }
            }
        }
        Ok(())
    }

    /// Place every value that has one cell left in unit `u`; a value with no
    /// cell left is a contradiction.
    fn hidden_singles(&mut self, u: usize) -> Result<(), Contradiction> {
        let n = self.geometry.size();
        let words = self.domains.words;
        let unit = &self.geometry.units()[u];
        self.once.fill(0);
        self.twice.fill(0);
        // Values of decided cells are settled: only the other cells' candidates
        // can hold a hidden single.
        self.fixed.fill(0);
        for &cell in unit.cells() {
            let base = cell.index() * words;
            if words == 1 {
                let word = self.domains.bits[base];
                if word & (word.wrapping_sub(1)) == 0 {
                    self.fixed[0] |= word;
                } else {
                    self.twice[0] |= self.once[0] & word;
                    self.once[0] |= word;
                }
                continue;
            }
            if self.domains.count(cell) == 1 {
                (0..words).for_each(|w| self.fixed[w] |= self.domains.bits[base + w]);
                continue;
            }
            for w in 0..words {
                let word = self.domains.bits[base + w];
                self.twice[w] |= self.once[w] & word;
                self.once[w] |= word;
            }
        }
        for w in 0..words {
            let valid = if (w + 1) * 64 <= n { u64::MAX } else { (1u64 << (n - w * 64)) - 1 };
            let missing = valid & !(self.once[w] | self.fixed[w]);
            if missing != 0 {
                let value = Value::from_index(w * 64 + missing.trailing_zeros() as usize);
                return Err(Contradiction::NoPlace { unit: u, value });
            }
            let mut singles = self.once[w] & !self.twice[w] & !self.fixed[w];
            while singles != 0 {
                let value = Value::from_index(w * 64 + singles.trailing_zeros() as usize);
                singles &= singles - 1;
                // Fixing an earlier single of this scan may have taken the
                // only place of this one.
                let Some(cell) = place_of(unit, &self.domains, value) else {
                    return Err(Contradiction::NoPlace { unit: u, value });
                };
                if self.placed[cell.index()] || self.domains.count(cell) == 1 {
                    continue;
                }
                if let Some(trace) = self.trace.as_mut() {
                    trace.push(Step::HiddenSingle { unit: u, cell, value });
                }
                self.fix(cell, value);
                self.touch(cell);
                self.queue.push(cell);
            }
        }
        Ok(())
    }

    /// Failed-literal probing with lifting, on the cells with at most
    /// `max_candidates` candidates: try each candidate of such a cell and
    /// propagate; a candidate that fails is excluded, and a candidate that no
    /// successful branch keeps (anywhere in the grid) is excluded too.
    /// Repeats until nothing changes. With `stop_at_model`, a branch whose
    /// propagation decides every cell is a model and is returned at once (the
    /// caller verifies it); without, every solution keeps its values among the
    /// candidates left. Call after [`Propagator::propagate`].
    pub fn probe(&mut self, max_candidates: usize, stop_at_model: bool) -> Result<Option<Domains>, Contradiction> {
        let trace = self.trace.take();
        let result = self.probe_rounds(max_candidates, stop_at_model);
        self.trail = None;
        self.trace = trace;
        result
    }

    fn probe_rounds(&mut self, max_candidates: usize, stop_at_model: bool) -> Result<Option<Domains>, Contradiction> {
        let mut candidates = Vec::new();
        // Per domain word: the bits every successful branch of the probed cell
        // removed (lifting), and what the current branch removed, found
        // through the trail. `stamp` tells which branch last wrote `removed`.
        let len = self.domains.bits.len();
        let (mut lost, mut removed, mut stamp) = (vec![0u64; len], vec![0u64; len], vec![0u32; len]);
        let (mut lost_words, mut branch) = (Vec::new(), 0u32);
        loop {
            let mut changed = false;
            for cell in self.geometry.cells() {
                let count = self.domains.count(cell);
                if count < 2 || count > max_candidates {
                    continue;
                }
                candidates.clear();
                candidates.extend(self.domains.values(cell));
                let mut successes = 0;
                for &value in &candidates {
                    self.trail = Some(Vec::new());
                    let ok = self.assign(cell, value).and_then(|()| self.propagate()).is_ok();
                    if ok && stop_at_model && self.placed_count == self.geometry.cell_count() {
                        let model = self.domains.clone();
                        self.undo();
                        return Ok(Some(model));
                    }
                    if ok {
                        branch += 1;
                        // The first old value of a word is its value before the branch.
                        for &(i, old) in self.trail.iter().flatten() {
                            let i = i as usize;
                            if stamp[i] != branch {
                                stamp[i] = branch;
                                removed[i] = old & !self.domains.bits[i];
                                if successes == 0 {
                                    lost[i] = removed[i];
                                    lost_words.push(i);
                                }
                            }
                        }
                        if successes > 0 {
                            for &i in &lost_words {
                                lost[i] &= if stamp[i] == branch { removed[i] } else { 0 };
                            }
                        }
                        successes += 1;
                    }
                    self.undo();
                }
                if successes == 0 {
                    return Err(Contradiction::EmptyCell { cell });
                }
                // Whatever no successful branch kept cannot be part of any
                // solution; that includes the probed values whose branch failed.
                let words = self.domains.words;
                for i in std::mem::take(&mut lost_words) {
                    let mut bits = std::mem::take(&mut lost[i]);
                    while bits != 0 {
                        let value = Value::from_index((i % words) * 64 + bits.trailing_zeros() as usize);
                        bits &= bits - 1;
                        self.exclude(Cell::from_index(i / words), value)?;
                        changed = true;
                    }
                }
                if changed {
                    self.propagate()?;
                }
            }
            if !changed {
                return Ok(None);
            }
        }
    }

    /// Take back everything since the trail was started.
    fn undo(&mut self) {
        if let Some(trail) = self.trail.take() {
            for &(i, old) in trail.iter().rev() {
                self.domains.bits[i as usize] = old;
            }
        }
        for &c in &self.placed_trail {
            self.placed[c as usize] = false;
        }
        self.placed_count -= self.placed_trail.len();
        self.placed_trail.clear();
        self.queue.clear();
        for u in self.dirty_list.drain(..) {
            self.dirty[u as usize] = false;
        }
    }
}

fn place_of(unit: &Unit, domains: &Domains, value: Value) -> Option<Cell> {
    unit.cells().iter().copied().find(|&c| domains.contains(c, value))
}

/// Propagate the givens of a puzzle: the candidates left, or why there is no solution.
pub fn propagate_givens(geometry: &Geometry, givens: &Grid) -> Result<Domains, Contradiction> {
    let mut p = Propagator::new(geometry);
    p.place_givens(givens)?;
    p.propagate()?;
    Ok(p.into_domains())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::testing::grid;

    #[test]
    fn domains_bitset_operations() {
        let mut d = Domains::full(70);
        let c = Cell::from_index(5);
        assert_eq!(d.count(c), 70);
        assert!(d.remove(c, Value::from_index(65)));
        assert!(!d.remove(c, Value::from_index(65)));
        assert_eq!(d.count(c), 69);
        d.fix(c, Value::from_index(66));
        assert_eq!(d.single(c), Some(Value::from_index(66)));
        assert_eq!(d.values(c).collect::<Vec<_>>(), vec![Value::from_index(66)]);
        assert_eq!(d.count(Cell::from_index(6)), 70);
    }

    #[test]
    fn singles_solve_an_easy_puzzle() {
        let g = Geometry::classic(9).unwrap();
        let easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let d = propagate_givens(&g, &grid(9, easy)).unwrap();
        assert!(d.is_solved());
        assert_eq!(crate::verify::verify(&g, &grid(9, easy), &d.decided()), Ok(()));
    }

    #[test]
    fn hidden_single_is_found_and_recorded() {
        // Row 1 of a 4x4: 1 can go only in r1c4 once column 1..3 hold a 1 elsewhere.
        let g = Geometry::classic(4).unwrap();
        let givens = grid(4, ".....1....1.1...");
        let mut p = Propagator::new(&g);
        p.record_steps();
        p.place_givens(&givens).unwrap();
        p.propagate().unwrap();
        assert_eq!(p.domains().single(Cell::from_index(3)), Some(Value::from_index(0)));
    }

    #[test]
    fn clashing_givens_name_the_unit_and_value() {
        let g = Geometry::classic(9).unwrap();
        let givens = grid(9, &format!("5.....5..{}", ".".repeat(72)));
        let e = propagate_givens(&g, &givens).unwrap_err();
        assert_eq!(e.describe(&g, &Alphabet::default()), "the givens clash: row 1 has 5 twice (r1c1 and r1c7)");
    }

    #[test]
    fn contradiction_without_clash() {
        // r1c1 sees 1 and 2 in its row and 3, 4 in its column: no candidate.
        let g = Geometry::latin(4).unwrap();
        let givens = grid(4, ".12.3...4.......");
        assert!(matches!(
            propagate_givens(&g, &givens),
            Err(Contradiction::EmptyCell { .. } | Contradiction::NoPlace { .. })
        ));
    }
}
