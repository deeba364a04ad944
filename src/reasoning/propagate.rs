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
use std::time::Instant;

use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry, Value, MAX_SIZE};
use crate::model::puzzle::{Grid, Puzzle};
use crate::reasoning::alldiff::{AllDifferent, Filtered};
use crate::text::symbols::Alphabet;

/// Why propagation found that a puzzle has no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
///
/// `unit` is an index into [`crate::Geometry::units`].
pub enum Contradiction {
    /// A cell lost every candidate.
    EmptyCell {
        /// The cell.
        cell: Cell,
    },
    /// A value has no place left in a unit.
    NoPlace {
        #[allow(missing_docs)]
        unit: usize,
        /// The value.
        value: Value,
    },
    /// Two givens of one unit hold the same value.
    Clash {
        #[allow(missing_docs)]
        unit: usize,
        /// The value.
        value: Value,
        /// The two givens.
        cells: (Cell, Cell),
    },
    /// These cells of a unit have fewer candidate values between them than
    /// there are cells.
    Hall {
        #[allow(missing_docs)]
        unit: usize,
        /// The cells.
        cells: Vec<Cell>,
        /// Every candidate they have between them.
        values: Vec<Value>,
    },
}

impl Contradiction {
    /// The cells this contradiction is about (none for a value with no place
    /// in a unit), for pointing at them in a picture of the grid.
    pub fn cells(&self) -> Vec<Cell> {
        match self {
            Contradiction::EmptyCell { cell } => vec![*cell],
            Contradiction::NoPlace { .. } => Vec::new(),
            Contradiction::Clash { cells: (a, b), .. } => vec![*a, *b],
            Contradiction::Hall { cells, .. } => cells.clone(),
        }
    }

    /// The reason in words, values written in `alphabet` as the puzzle was:
    /// `the givens clash: row 3 has 5 twice (r3c1 and r3c7)`.
    pub fn describe(&self, geometry: &Geometry, alphabet: &Alphabet) -> String {
        let symbol = |v: &Value| crate::text::format::symbol(Some(*v), geometry.size(), alphabet);
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
            Contradiction::Hall { unit, cells, values } => {
                let cells: Vec<String> = cells.iter().map(|&c| geometry.cell_name(c)).collect();
                let values: Vec<String> = values.iter().map(symbol).collect();
                format!(
                    "in {}, the {} cells {} have only {} values between them ({})",
                    geometry.units()[*unit],
                    cells.len(),
                    cells.join(", "),
                    values.len(),
                    values.join(", ")
                )
            }
        }
    }
}

/// One deduction, for `analyze --steps`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The cell has only this candidate left.
    NakedSingle {
        /// The cell.
        cell: Cell,
        /// Its value.
        value: Value,
    },
    /// In this unit, the value fits only this cell.
    HiddenSingle {
        /// The unit, by index into [`crate::Geometry::units`].
        unit: usize,
        /// The cell.
        cell: Cell,
        /// The value.
        value: Value,
    },
    /// Placing `because` removed the value from these peers.
    Eliminate {
        /// The cell placed.
        because: Cell,
        /// Its value.
        value: Value,
        /// The peers that lost it.
        cells: Vec<Cell>,
    },
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

const PLACES_SHIFT: u32 = 48;
const PLACES_SUM: u64 = (1 << PLACES_SHIFT) - 1;
// The sum of a unit's cell indices stays below n³, and the count at most n.
const _: () = assert!((MAX_SIZE as u64).pow(3) <= PLACES_SUM && MAX_SIZE < 1 << (64 - PLACES_SHIFT));

/// One place more (or less) for a value in a unit: the cell `cell`.
fn place(cell: usize) -> u64 {
    (1 << PLACES_SHIFT) + cell as u64
}

/// Call `f(unit, value)` for every candidate `value` among `bits` of domain
/// word `i` (of `words` per cell), once for each unit of that word's cell.
fn for_each_place(geometry: &Geometry, words: usize, i: usize, mut bits: u64, mut f: impl FnMut(u32, usize)) {
    let units = geometry.units_of(Cell::from_index(i / words));
    while bits != 0 {
        let value = (i % words) * 64 + bits.trailing_zeros() as usize;
        bits &= bits - 1;
        for &u in units {
            f(u, value);
        }
    }
}

/// Unit propagation to its fixpoint: naked and hidden singles, with the
/// eliminations they cause.
///
/// Each unit keeps, per value, how many of its cells still have the value as
/// a candidate and the sum of those cells' indices. A removal updates the
/// three or so counts it touches; a count that falls to one names the hidden
/// single's cell by its sum, and one that falls to zero is a contradiction.
/// The work follows the removals, not the grid size.
#[derive(Clone)]
pub struct Propagator<'g> {
    geometry: &'g Geometry,
    domains: Domains,
    /// Cells whose value has been removed from their peers.
    placed: Vec<bool>,
    placed_count: usize,
    queue: Vec<Cell>,
    /// Per (unit, value), at `unit * n + value`: the number of the unit's
    /// cells with the value as a candidate (the high 16 bits) and the sum of
    /// their indices (the low 48; below n³ ≤ 2³⁰ for n ≤ MAX_SIZE). One word,
    /// so a removal costs one memory access per unit.
    places: Vec<u64>,
    /// (unit, value) pairs whose count fell to one or none, to be looked at.
    scarce: Vec<(u32, u32)>,
    trace: Option<Vec<Step>>,
    /// While probing: the old value of every domain word changed (index, word),
    /// and the cells placed, so that a probe is undone at the cost of what it did.
    trail: Option<Vec<(u32, u64)>>,
    placed_trail: Vec<u32>,
    /// When probing and subset filtering stop early (see [`Propagator::set_deadline`]).
    deadline: Option<Instant>,
}

impl<'g> Propagator<'g> {
    /// Start from every value in every cell.
    pub fn new(geometry: &'g Geometry) -> Propagator<'g> {
        let n = geometry.size();
        let mut p = Propagator::empty(geometry, Domains::full(n));
        for (u, unit) in geometry.units().iter().enumerate() {
            let sum: u64 = unit.cells().iter().map(|c| c.index() as u64).sum();
            p.places[u * n..(u + 1) * n].fill(((unit.cells().len() as u64) << PLACES_SHIFT) + sum);
        }
        p
    }

    /// Start from given candidate sets.
    pub fn with_domains(geometry: &'g Geometry, domains: Domains) -> Propagator<'g> {
        let n = geometry.size();
        let words = domains.words;
        let mut p = Propagator::empty(geometry, domains);
        // The values of word `w` of a cell's candidates that are values of the grid.
        let values = |w: usize| match n - 64 * w {
            k if k >= 64 => u64::MAX,
            k => (1 << k) - 1,
        };
        for (u, unit) in geometry.units().iter().enumerate() {
            let counts = &mut p.places[u * n..(u + 1) * n];
            // A cell with more than half of the values is added to every
            // value at once and taken back from the values it lacks, so that
            // a blank 1024×1024 costs a pass over its units' cells, not over
            // their 3 billion candidates (10 s). The sums wrap on the way and
            // come out right.
            let mut every = 0u64;
            for &cell in unit.cells() {
                let add = place(cell.index());
                let bits = &p.domains.bits[cell.index() * words..(cell.index() + 1) * words];
                let most = 2 * bits.iter().map(|w| w.count_ones() as usize).sum::<usize>() > n;
                if most {
                    every = every.wrapping_add(add);
                }
                for (w, &word) in bits.iter().enumerate() {
                    let mut rest = if most { !word & values(w) } else { word };
                    while rest != 0 {
                        let count = &mut counts[64 * w + rest.trailing_zeros() as usize];
                        *count = if most { count.wrapping_sub(add) } else { count.wrapping_add(add) };
                        rest &= rest - 1;
                    }
                }
            }
            if every != 0 {
                for count in counts.iter_mut() {
                    *count = count.wrapping_add(every);
                }
            }
        }
        // Cells already down to one candidate, and values already down to one
        // place, still have to be propagated.
        for cell in geometry.cells() {
            if p.domains.count(cell) == 1 {
                p.queue.push(cell);
            }
        }
        for (k, &places) in p.places.iter().enumerate() {
            if places >> PLACES_SHIFT <= 1 {
                p.scarce.push(((k / n) as u32, (k % n) as u32));
            }
        }
        p
    }

    /// Start from the puzzle's givens (and pencil marks): as
    /// [`Propagator::new`] and [`Propagator::place_givens`] followed by the
    /// eliminations of [`Propagator::propagate`] would leave it (each given
    /// placed and its value gone from its peers), but built a unit at a time
    /// rather than a removal at a time ([`Domains::after_givens`]): 44 ms on
    /// rkkautsar-400-1, where placing the givens one by one and propagating
    /// takes 5.4 s to the 0.55 s this and propagating take. Call
    /// [`Propagator::propagate`] next for the singles. Clashing givens, and a
    /// cell the givens leave no value, are a contradiction.
    pub fn from_puzzle(puzzle: &'g Puzzle) -> Result<Propagator<'g>, Contradiction> {
        Propagator::starting_from(puzzle.geometry(), puzzle.givens(), puzzle.initial_domains())
    }

    /// [`Propagator::from_puzzle`] for bare givens.
    #[cfg(test)]
    pub fn from_givens(geometry: &'g Geometry, givens: &Grid) -> Result<Propagator<'g>, Contradiction> {
        Propagator::starting_from(geometry, givens, Domains::after_givens(geometry, givens))
    }

    /// Start from `domains`, which are `givens`' (with any further restriction).
    fn starting_from(geometry: &'g Geometry, givens: &Grid, domains: Domains) -> Result<Propagator<'g>, Contradiction> {
        if let Some(clash) = find_clash(geometry, givens) {
            return Err(clash);
        }
        if let Some(cell) = geometry.cells().find(|&cell| domains.count(cell) == 0) {
            return Err(Contradiction::EmptyCell { cell });
        }
        let mut p = Propagator::with_domains(geometry, domains);
        for (cell, _) in givens.filled() {
            p.placed[cell.index()] = true;
            p.placed_count += 1;
        }
        Ok(p)
    }

    fn empty(geometry: &'g Geometry, domains: Domains) -> Propagator<'g> {
        let counts = geometry.units().len() * geometry.size();
        Propagator {
            geometry,
            placed: vec![false; geometry.cell_count()],
            placed_count: 0,
            domains,
            queue: Vec::new(),
            places: vec![0; counts],
            scarce: Vec::new(),
            trace: None,
            trail: None,
            placed_trail: Vec::new(),
            deadline: None,
        }
    }

    /// Stop [`Propagator::probe`] and [`Propagator::propagate_subsets`] at
    /// `deadline`: what they removed so far stands (every removal is sound on
    /// its own), and the domains are left at a propagation fixpoint.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
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
        }
        self.queue.push(cell);
        Ok(())
    }

    /// Set domain word `i`, remembering the old one while probing, and count
    /// the candidates it loses out of their units.
    fn set_word(&mut self, i: usize, word: u64) {
        let old = self.domains.bits[i];
        if let Some(trail) = self.trail.as_mut() {
            trail.push((i as u32, old));
        }
        self.domains.bits[i] = word;
        let (n, words) = (self.domains.n, self.domains.words);
        let cell = i / words;
        for_each_place(self.geometry, words, i, old & !word, |u, value| {
            let k = u as usize * n + value;
            self.places[k] -= place(cell);
            if self.places[k] >> PLACES_SHIFT <= 1 {
                self.scarce.push((u, value as u32));
            }
        });
    }

    fn fix(&mut self, cell: Cell, value: Value) {
        let words = self.domains.words;
        for w in 0..words {
            let word = if w == value.index() / 64 { 1u64 << (value.index() % 64) } else { 0 };
            let i = cell.index() * words + w;
            if self.domains.bits[i] != word {
                self.set_word(i, word);
            }
        }
    }

    /// Remove `value` from `cell`'s candidates (a failed probe).
    pub fn exclude(&mut self, cell: Cell, value: Value) -> Result<(), Contradiction> {
        let i = cell.index() * self.domains.words + value.index() / 64;
        let bit = 1u64 << (value.index() % 64);
        if self.domains.bits[i] & bit != 0 {
            self.set_word(i, self.domains.bits[i] & !bit);
            match self.domains.count(cell) {
                0 => return Err(Contradiction::EmptyCell { cell }),
                1 => self.queue.push(cell),
                _ => {}
            }
        }
        Ok(())
    }

    /// Propagate to the fixpoint.
    pub fn propagate(&mut self) -> Result<(), Contradiction> {
        loop {
            self.eliminate()?;
            let Some((u, value)) = self.scarce.pop() else { return Ok(()) };
            self.hidden_single(u as usize, Value::from_index(value as usize))?;
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
                    if self.trace.is_some() {
                        removed.push(peer);
                    }
                    let left = if words == 1 {
                        self.domains.bits[peer.index()].count_ones() as usize
                    } else {
                        self.domains.count(peer)
                    };
                    match left {
                        0 => {
                            // The removal that empties the peer is named before the contradiction it is.
                            if let Some(trace) = self.trace.as_mut() {
                                trace.push(Step::Eliminate { because: cell, value, cells: removed });
                            }
                            return Err(Contradiction::EmptyCell { cell: peer });
                        }
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

    /// `value` has at most one place left in unit `u`: none is a
    /// contradiction, and one that is not yet decided takes the value.
    fn hidden_single(&mut self, u: usize, value: Value) -> Result<(), Contradiction> {
        let k = u * self.domains.n + value.index();
        match self.places[k] >> PLACES_SHIFT {
            0 => Err(Contradiction::NoPlace { unit: u, value }),
            1 => {
                let cell = Cell::from_index((self.places[k] & PLACES_SUM) as usize);
                if self.domains.count(cell) > 1 {
                    if let Some(trace) = self.trace.as_mut() {
                        trace.push(Step::HiddenSingle { unit: u, cell, value });
                    }
                    self.fix(cell, value);
                    self.queue.push(cell);
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Propagate, then filter every unit for "all different" (see
    /// [`crate::reasoning::alldiff`]) and propagate what that removes, until neither
    /// changes anything.
    pub fn propagate_subsets(&mut self) -> Result<(), Contradiction> {
        // The filter wants a fixpoint: propagate first, and after every unit
        // that lost candidates.
        self.propagate()?;
        let geometry = self.geometry;
        let mut filter = AllDifferent::new();
        loop {
            let mut changed = false;
            for (u, unit) in geometry.units().iter().enumerate() {
                if self.past_deadline() {
                    return Ok(());
                }
                match filter.filter(unit.cells(), &self.domains) {
                    Filtered::Hall { cells, values } => return Err(Contradiction::Hall { unit: u, cells, values }),
                    Filtered::Removals(removals) if removals.is_empty() => {}
                    Filtered::Removals(removals) => {
                        for (cell, value) in removals {
                            self.exclude(cell, value)?;
                        }
                        self.propagate()?;
                        changed = true;
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
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
                if self.past_deadline() {
                    return Ok(None);
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

    /// Start keeping a trail for a search that decides and backtracks
    /// (see [`crate::reasoning::fill`]): every change from here on can be
    /// taken back to a [`Propagator::mark`].
    pub(crate) fn start_trail(&mut self) {
        self.trail = Some(Vec::new());
        self.placed_trail.clear();
    }

    /// How far the trail has come: what [`Propagator::undo_to`] goes back to.
    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.trail.as_ref().map_or(0, Vec::len), self.placed_trail.len())
    }

    /// Take back every change since `mark` (of a trail started with
    /// [`Propagator::start_trail`]), and drop what was waiting to be propagated.
    pub(crate) fn undo_to(&mut self, (changes, placed): (usize, usize)) {
        let (n, words) = (self.domains.n, self.domains.words);
        if let Some(trail) = self.trail.as_mut() {
            for &(i, old) in trail[changes..].iter().rev() {
                let i = i as usize;
                let cell = i / words;
                for_each_place(self.geometry, words, i, old & !self.domains.bits[i], |u, value| {
                    self.places[u as usize * n + value] += place(cell);
                });
                self.domains.bits[i] = old;
            }
            trail.truncate(changes);
        }
        for &c in &self.placed_trail[placed..] {
            self.placed[c as usize] = false;
        }
        self.placed_count -= self.placed_trail.len() - placed;
        self.placed_trail.truncate(placed);
        self.queue.clear();
        self.scarce.clear();
    }

    /// Whether every cell is decided and its value removed from its peers.
    pub(crate) fn all_placed(&self) -> bool {
        self.placed_count == self.geometry.cell_count()
    }

    /// Take back everything since the trail was started.
    fn undo(&mut self) {
        let (n, words) = (self.domains.n, self.domains.words);
        if let Some(trail) = self.trail.take() {
            for &(i, old) in trail.iter().rev() {
                let i = i as usize;
                let cell = i / words;
                for_each_place(self.geometry, words, i, old & !self.domains.bits[i], |u, value| {
                    self.places[u as usize * n + value] += place(cell);
                });
                self.domains.bits[i] = old;
            }
        }
        for &c in &self.placed_trail {
            self.placed[c as usize] = false;
        }
        self.placed_count -= self.placed_trail.len();
        self.placed_trail.clear();
        self.queue.clear();
        self.scarce.clear();
    }
}

/// Propagate the givens of a puzzle: the candidates left, or why there is no solution.
#[cfg(test)]
pub fn propagate_givens(geometry: &Geometry, givens: &Grid) -> Result<Domains, Contradiction> {
    let mut p = Propagator::from_givens(geometry, givens)?;
    p.propagate()?;
    Ok(p.into_domains())
}

/// The candidates left after propagating a puzzle's givens, its pencil
/// marks taken in, or why there is no solution.
pub fn propagate_puzzle(puzzle: &Puzzle) -> Result<Domains, Contradiction> {
    let mut p = Propagator::from_puzzle(puzzle)?;
    p.propagate()?;
    Ok(p.into_domains())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::{Geometry, Layout, Variant};
    use crate::testing::{grid, pattern};

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
        assert_eq!(crate::model::verify::verify(&g, &grid(9, easy), &d.decided()), Ok(()));
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
    fn counts_of_places_survive_probing_and_undo() {
        // Probing assigns and undoes thousands of times; the counts kept per
        // unit and value must still match a count from scratch.
        let g = Geometry::classic(9).unwrap();
        let hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let mut p = Propagator::new(&g);
        p.place_givens(&grid(9, hard)).unwrap();
        p.propagate().unwrap();
        p.probe(9, false).unwrap();
        let recounted = Propagator::with_domains(&g, p.domains().clone());
        assert_eq!(p.places, recounted.places);
    }

    #[test]
    fn counts_of_places_survive_probing_on_several_words_per_cell() {
        // A 70x70 Latin square ((r + c) mod 70) without its last three rows:
        // each open cell has its column's three missing values, which probing
        // tries one by one. 70 values take two words per cell.
        let n = 70;
        let g = Geometry::latin(n).unwrap();
        let mut givens = Grid::empty(n);
        for cell in g.cells().take(n * (n - 3)) {
            let (r, c) = g.row_col(cell);
            givens.set(cell, Some(Value::from_index((r + c) % n)));
        }
        let mut p = Propagator::new(&g);
        p.place_givens(&givens).unwrap();
        p.propagate().unwrap();
        assert_eq!(p.domains().count(Cell::from_index(n * n - 1)), 3);
        p.probe(3, false).unwrap();
        let recounted = Propagator::with_domains(&g, p.domains().clone());
        assert_eq!(p.places, recounted.places);
    }

    #[test]
    fn subsets_remove_what_singles_cannot() {
        // Latin 4: columns 1 and 2 hold 3 and 4, so r1c1 and r1c2 are a naked
        // pair {1, 2}, and r1c3 and r1c4 can only be 3 or 4.
        let g = Geometry::latin(4).unwrap();
        let givens = grid(4, "....34..43......");
        let r1c3 = Cell::from_index(2);
        let mut p = Propagator::new(&g);
        p.place_givens(&givens).unwrap();
        p.propagate().unwrap();
        assert_eq!(p.domains().count(r1c3), 4);
        p.propagate_subsets().unwrap();
        let values: Vec<usize> = p.domains().values(r1c3).map(|v| v.number()).collect();
        assert_eq!(values, [3, 4]);
    }

    #[test]
    fn too_few_values_for_the_cells_is_a_contradiction_singles_miss() {
        // Latin 6: columns 1-3 hold 3, 4, 5 and 6 in rows 2-5, so r1c1, r1c2
        // and r1c3 share the two values 1 and 2. Every value still has a place
        // in row 1 and every cell a candidate, so singles see nothing.
        let g = Geometry::latin(6).unwrap();
        let rows = ["......", "345...", "456...", "563...", "634...", "......"];
        let mut p = Propagator::new(&g);
        p.place_givens(&grid(6, &rows.concat())).unwrap();
        p.propagate().unwrap();
        let e = p.propagate_subsets().unwrap_err();
        assert_eq!(
            e.describe(&g, &Alphabet::default()),
            "in row 1, the 3 cells r1c1, r1c2, r1c3 have only 2 values between them (1, 2)"
        );
    }

    proptest::proptest! {
        /// Building the propagator from the givens a unit at a time reaches the
        /// state that placing them one by one and propagating does: the same
        /// candidates, counts and placed cells, or a contradiction on both. And
        /// the candidates it starts from are those of removing each given's
        /// value from its peers.
        #[test]
        fn starting_from_the_givens_is_placing_them_one_by_one(
            kind in 0..6usize,
            seed: u64,
            keep in 0.0..1.0f64,
            noise in 0..3usize,
        ) {
            let (g, rows, cols) = match kind {
                0 => (Geometry::classic(9).unwrap(), 3, 3),
                1 => (Geometry::classic(6).unwrap(), 2, 3),
                2 => (Geometry::classic(16).unwrap(), 4, 4),
                3 => (Geometry::latin(70).unwrap(), 1, 70),
                4 => (Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::X]).unwrap(), 3, 3),
                _ => (Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::Hyper]).unwrap(), 3, 3),
            };
            let n = g.size();
            let value = pattern(n, rows, cols);
            let mut next = crate::testing::xorshift(seed);
            let mut givens = Grid::empty(n);
            for cell in g.cells() {
                let (r, c) = g.row_col(cell);
                if (next() % 1000) as f64 / 1000.0 < keep {
                    givens.set(cell, Some(Value::from_index(value(r, c))));
                }
            }
            // A few givens off the pattern: clashes and contradictions too.
            for _ in 0..noise {
                let cell = Cell::from_index(next() as usize % (n * n));
                givens.set(cell, Some(Value::from_index(next() as usize % n)));
            }

            if find_clash(&g, &givens).is_none() {
                // The reduced encoding's candidates: each given's value removed from its peers.
                let mut direct = Domains::full(n);
                for (cell, value) in givens.filled() {
                    direct.fix(cell, value);
                    for &u in g.units_of(cell) {
                        for &peer in g.units()[u as usize].cells() {
                            if peer != cell {
                                direct.remove(peer, value);
                            }
                        }
                    }
                }
                proptest::prop_assert_eq!(Domains::after_givens(&g, &givens), direct);
            }

            let mut one_by_one = Propagator::new(&g);
            let slow = one_by_one.place_givens(&givens).and_then(|()| one_by_one.propagate());
            let fast = Propagator::from_givens(&g, &givens).and_then(|mut p| p.propagate().map(|()| p));
            match (slow, fast) {
                (Ok(()), Ok(p)) => {
                    proptest::prop_assert_eq!(p.domains(), one_by_one.domains());
                    proptest::prop_assert_eq!(&p.places, &one_by_one.places);
                    proptest::prop_assert_eq!(&p.placed, &one_by_one.placed);
                    proptest::prop_assert_eq!(p.placed_count, one_by_one.placed_count);
                }
                (Err(_), Err(_)) => {}
                (slow, fast) => proptest::prop_assert!(false, "one by one: {:?}, from the givens: {:?}", slow, fast.map(|_| ())),
            }
        }
    }

    #[test]
    fn a_passed_deadline_stops_probing_and_subsets_where_they_are() {
        let g = Geometry::classic(9).unwrap();
        let hard = grid(9, "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......");
        let mut p = Propagator::from_givens(&g, &hard).unwrap();
        p.propagate().unwrap();
        let propagated = p.domains().clone();

        let mut late = p.clone();
        late.set_deadline(Some(Instant::now()));
        assert_eq!(late.probe(3, false), Ok(None));
        assert_eq!(late.domains(), &propagated);
        // Without the deadline, probing removes candidates here.
        p.probe(3, false).unwrap();
        assert_ne!(p.domains(), &propagated);

        // The naked pair of `subsets_remove_what_singles_cannot`.
        let g = Geometry::latin(4).unwrap();
        let mut p = Propagator::from_givens(&g, &grid(4, "....34..43......")).unwrap();
        p.propagate().unwrap();
        let propagated = p.domains().clone();
        let mut late = p.clone();
        late.set_deadline(Some(Instant::now()));
        late.propagate_subsets().unwrap();
        assert_eq!(late.domains(), &propagated);
        p.propagate_subsets().unwrap();
        assert_ne!(p.domains(), &propagated);
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
