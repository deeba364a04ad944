//! The variant constraints' clauses, written into the same sink as the units'.
//!
//! Three families (references in `docs/variants.md`):
//! - **Binary rules** (anti-knight, anti-king, non-consecutive, dots, XV,
//!   thermometers, whispers, palindromes, negative constraints): the direct
//!   encoding's conflict clauses `¬a=x ∨ ¬b=y` for each pair of values the
//!   rule forbids (Walsh 2000, "SAT v CSP"), or, where the rule forbids more
//!   pairs than 2n, the support encoding `¬a=x ∨ ⋁ b=y` over the values y
//!   that support x (Kasif 1990; Gent 2002), which unit propagation keeps
//!   arc consistent with n clauses each way.
//! - **Sets of values** (killer cages with a sum, renban): the cells are
//!   distinct (an at-most-one per value) and hold one of the value sets the
//!   clue allows, each set chosen by a selector variable (combinations
//!   enumerated, as killer solvers do).
//! - **Sums along cells** (little killers, arrows, sandwiches, and cages with
//!   too many combinations): a layered automaton over the cells (partial
//!   sums as states), encoded with state and transition variables after
//!   Bacchus 2007 ("GAC via unit propagation") and Quimper & Walsh 2006: unit
//!   propagation keeps every cell's candidates consistent with the sum.
//!
//! A cell decided before encoding (the reduced encoding) has no variable:
//! its literals are constants, and clauses they satisfy are dropped.

use std::collections::{BTreeMap, HashSet};
use std::ops::Not;
use std::time::Instant;

use varisat::Lit;

use super::{AmoEncoding, ClauseSink, EncodeOptions};
use crate::cnf::varmap::VarMap;
use crate::model::constraints::{cage_combinations, negative_pairs, whisper_gap, Constraint};
use crate::model::geometry::{Cell, Geometry, Value, Variant};

/// Up to this many value sets, a killer cage is encoded by its combinations;
/// past it, by the sum automaton (16×16 and larger cages can have thousands).
pub(crate) const CAGE_COMBINATIONS: usize = 64;

/// A literal of the encoding, or a constant where the cell is decided or the value excluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    True,
    False,
    Lit(Lit),
}

impl Not for Term {
    type Output = Term;
    fn not(self) -> Term {
        match self {
            Term::True => Term::False,
            Term::False => Term::True,
            Term::Lit(l) => Term::Lit(!l),
        }
    }
}

/// Writes constraint clauses over terms, dropping what constants settle.
struct Writer<'a, S> {
    sink: &'a mut S,
    map: &'a VarMap,
    n: usize,
    amo: AmoEncoding,
    buffer: Vec<Lit>,
    /// Where the time runs out: a clue whose encoding takes seconds to build
    /// (a sum along a long line of a big grid) stops there, and the formula
    /// is [`Writer::cut`] short.
    deadline: Option<Instant>,
    /// Whether a clue stopped at the deadline: the formula then lacks some of
    /// its clauses, and must not be solved.
    cut: bool,
}

impl<S: ClauseSink> Writer<'_, S> {
    /// Whether the deadline has passed: then the clue being written stops,
    /// and the formula is cut short.
    fn late(&mut self) -> bool {
        self.cut |= self.deadline.is_some_and(|deadline| Instant::now() >= deadline);
        self.cut
    }

    /// "`cell` holds `number`" (1-based; anything outside 1..n is false).
    fn is(&self, cell: Cell, number: u32) -> Term {
        let Some(value) = Value::new_checked(number as usize, self.n) else { return Term::False };
        match self.map.decided().get(cell) {
            Some(v) if v == value => Term::True,
            Some(_) => Term::False,
            None => self.map.var(cell, value).map_or(Term::False, |var| Term::Lit(var.positive())),
        }
    }

    /// The clause "one of `terms`": nothing when a term is true, the literals otherwise.
    fn clause(&mut self, terms: impl IntoIterator<Item = Term>) {
        self.buffer.clear();
        for term in terms {
            match term {
                Term::True => return,
                Term::False => {}
                Term::Lit(l) => self.buffer.push(l),
            }
        }
        self.sink.clause(&self.buffer);
    }

    fn fresh(&mut self) -> Term {
        Term::Lit(self.sink.fresh())
    }

    /// At most one of `terms`.
    fn at_most_one(&mut self, terms: &[Term]) {
        let lits: Vec<Lit> = terms.iter().filter_map(|t| if let Term::Lit(l) = t { Some(*l) } else { None }).collect();
        match terms.iter().filter(|&&t| t == Term::True).count() {
            0 => self.sink.amo(&lits, self.amo),
            1 => lits.iter().for_each(|&l| self.sink.clause(&[!l])),
            _ => self.sink.clause(&[]),
        }
    }

    /// The binary rule `allows` between cells `a` and `b`: conflict clauses
    /// for up to 2n forbidden pairs, support clauses past that.
    fn pair(&mut self, a: Cell, b: Cell, allows: &dyn Fn(u32, u32) -> bool) {
        let n = self.n as u32;
        let forbidden: Vec<(u32, u32)> =
            (1..=n).flat_map(|x| (1..=n).map(move |y| (x, y))).filter(|&(x, y)| !allows(x, y)).collect();
        if forbidden.len() <= 2 * self.n {
            for (x, y) in forbidden {
                let (ta, tb) = (self.is(a, x), self.is(b, y));
                self.clause([!ta, !tb]);
            }
            return;
        }
        for x in 1..=n {
            let support: Vec<Term> = (1..=n).filter(|&y| allows(x, y)).map(|y| self.is(b, y)).collect();
            let ta = self.is(a, x);
            self.clause(std::iter::once(!ta).chain(support));
        }
        for y in 1..=n {
            let support: Vec<Term> = (1..=n).filter(|&x| allows(x, y)).map(|x| self.is(a, x)).collect();
            let tb = self.is(b, y);
            self.clause(std::iter::once(!tb).chain(support));
        }
    }

    /// `a` and `b` differ: n conflict clauses.
    fn differ(&mut self, a: Cell, b: Cell) {
        for x in 1..=self.n as u32 {
            let (ta, tb) = (self.is(a, x), self.is(b, x));
            self.clause([!ta, !tb]);
        }
    }

    /// The cells hold distinct values: an at-most-one per value.
    fn distinct(&mut self, cells: &[Cell]) {
        for v in 1..=self.n as u32 {
            let terms: Vec<Term> = cells.iter().map(|&c| self.is(c, v)).collect();
            self.at_most_one(&terms);
        }
    }

    /// The (distinct) cells hold exactly one of `sets` (sorted value lists of
    /// their length): a selector per set.
    fn one_of_sets(&mut self, cells: &[Cell], sets: &[Vec<u32>]) {
        self.distinct(cells);
        let selectors: Vec<Term> = match sets.len() {
            0 => return self.clause([]),
            1 => vec![Term::True],
            _ => sets.iter().map(|_| self.fresh()).collect(),
        };
        self.clause(selectors.iter().copied());
        self.at_most_one(&selectors);
        for (set, &selector) in sets.iter().zip(&selectors) {
            // The set chosen: each of its values somewhere in the cells.
            for &v in set {
                let holders: Vec<Term> = cells.iter().map(|&c| self.is(c, v)).collect();
                self.clause(std::iter::once(!selector).chain(holders));
            }
        }
        // A value taken: one of the sets holding it is chosen.
        for &cell in cells {
            for v in 1..=self.n as u32 {
                let chosen: Vec<Term> =
                    sets.iter().zip(&selectors).filter(|(set, _)| set.contains(&v)).map(|(_, &s)| s).collect();
                let term = self.is(cell, v);
                self.clause(std::iter::once(!term).chain(chosen));
            }
        }
    }

    /// A layered automaton over `cells`: from `start`, the value of cell i
    /// moves state s to `step(i, s, value)` (none: no move), and the last
    /// state must satisfy `accept`. States are the partial sums (or what the
    /// clue needs); only states reachable from the start and reaching an
    /// accepting state are kept.
    ///
    /// Only the states are held, never the edges: a sum along 80 cells of an
    /// 80×80 grid has 20 million edges, gigabytes as a list, and each layer's
    /// edges are found again from its states when they are written.
    fn automaton(
        &mut self,
        cells: &[Cell],
        start: i64,
        step: &dyn Fn(usize, i64, u32) -> Option<i64>,
        accept: &dyn Fn(i64) -> bool,
    ) {
        let k = cells.len();
        let n = self.n as u32;
        // The values of each cell the encoding leaves open.
        let values: Vec<Vec<u32>> =
            cells.iter().map(|&cell| (1..=n).filter(|&v| self.is(cell, v) != Term::False).collect()).collect();
        // Forward: the states reachable at each layer. Counting the edges
        // costs time as writing them would: a sink with a budget (the size
        // check) is told of them as they come, and counting stops past it.
        let mut states: Vec<Vec<i64>> = vec![vec![start]];
        let mut counted = 0u64;
        for i in 0..k {
            let mut next = Vec::new();
            for (j, &s) in states[i].iter().enumerate() {
                if j % 64 == 63 && (self.sink.past_budget(counted) || self.late()) {
                    return;
                }
                let before = next.len();
                next.extend(values[i].iter().filter_map(|&v| step(i, s, v)).filter(|&t| i + 1 < k || accept(t)));
                counted += (next.len() - before) as u64;
            }
            next.sort_unstable();
            next.dedup();
            states.push(next);
        }
        if self.sink.past_budget(counted) {
            return;
        }
        // Backward: keep the states that still lead to an accepting one.
        for i in (0..k).rev() {
            if self.late() {
                return;
            }
            let (now, later) = states.split_at_mut(i + 1);
            let alive = &later[0];
            now[i]
                .retain(|&s| values[i].iter().any(|&v| step(i, s, v).is_some_and(|t| alive.binary_search(&t).is_ok())));
        }
        if states[0].is_empty() {
            return self.clause([]);
        }
        // The edges of layer i, from its live states into the next layer's.
        let edges = |i: usize, states: &[Vec<i64>]| -> Vec<(i64, u32, i64)> {
            let mut edges = Vec::new();
            for &s in &states[i] {
                for &v in &values[i] {
                    if let Some(t) = step(i, s, v).filter(|t| states[i + 1].binary_search(t).is_ok()) {
                        edges.push((s, v, t));
                    }
                }
            }
            edges
        };
        // State variables for the inner layers with more than one state.
        let terms: Vec<BTreeMap<i64, Term>> = (0..=k)
            .map(|i| {
                let constant = i == 0 || i == k || states[i].len() == 1;
                states[i].iter().map(|&s| (s, if constant { Term::True } else { self.fresh() })).collect()
            })
            .collect();
        for (i, &cell) in cells.iter().enumerate() {
            if self.sink.past_budget(0) || self.late() {
                return;
            }
            let mut out: BTreeMap<i64, Vec<Term>> = BTreeMap::new();
            let mut into: BTreeMap<i64, Vec<Term>> = BTreeMap::new();
            let mut by_value: BTreeMap<u32, Vec<Term>> = BTreeMap::new();
            // The values whose only edge is the cell's literal itself.
            let mut aliased: HashSet<u32> = HashSet::new();
            for (s, v, t) in edges(i, &states) {
                let (from, to, x) = (terms[i][&s], terms[i + 1][&t], self.is(cell, v));
                // An edge whose ends are settled is its cell's literal itself
                // (one edge per value then: the start state is unique).
                let edge = if from == Term::True && to == Term::True {
                    aliased.insert(v);
                    x
                } else {
                    let edge = self.fresh();
                    self.clause([!edge, from]);
                    self.clause([!edge, to]);
                    self.clause([!edge, x]);
                    edge
                };
                out.entry(s).or_default().push(edge);
                into.entry(t).or_default().push(edge);
                by_value.entry(v).or_default().push(edge);
            }
            for (s, &q) in &terms[i] {
                let edges = out.remove(s).unwrap_or_default();
                self.clause(std::iter::once(!q).chain(edges));
            }
            if i + 1 < k {
                for (t, &q) in &terms[i + 1] {
                    let edges = into.remove(t).unwrap_or_default();
                    self.clause(std::iter::once(!q).chain(edges));
                }
            }
            for v in 1..=n {
                let x = self.is(cell, v);
                if x == Term::False {
                    continue;
                }
                if aliased.contains(&v) {
                    continue;
                }
                let edges = by_value.remove(&v).unwrap_or_default();
                self.clause(std::iter::once(!x).chain(edges));
            }
        }
    }

    /// The cells sum to `sum` (values may repeat).
    fn sum(&mut self, cells: &[Cell], sum: u32) {
        let (k, sum) = (cells.len() as i64, sum as i64);
        // Each cell still to come adds at least 1.
        let step = move |i: usize, s: i64, v: u32| {
            let t = s + v as i64;
            (t + (k - 1 - i as i64) <= sum).then_some(t)
        };
        self.automaton(cells, 0, &step, &|s| s == sum);
    }
}

/// Write the clauses of the geometry's neighbour rules and variant clues.
/// False when `deadline` cut it short (a clue's clauses are missing).
pub(super) fn write_constraints(
    geometry: &Geometry,
    map: &VarMap,
    options: EncodeOptions,
    deadline: Option<Instant>,
    sink: &mut impl ClauseSink,
) -> bool {
    let n = geometry.size();
    let mut w = Writer { sink, map, n, amo: options.amo, buffer: Vec::new(), deadline, cut: false };
    let share_unit = |a: Cell, b: Cell| geometry.units_of(a).iter().any(|u| geometry.units_of(b).contains(u));
    for &variant in geometry.variants() {
        for (a, b) in geometry.neighbour_pairs(variant) {
            match variant {
                Variant::NonConsecutive => {
                    for x in 1..n as u32 {
                        for (p, q) in [(x, x + 1), (x + 1, x)] {
                            let (ta, tb) = (w.is(a, p), w.is(b, q));
                            w.clause([!ta, !tb]);
                        }
                    }
                }
                // Cells of one unit differ already (a king's orthogonal moves).
                _ if share_unit(a, b) => {}
                _ => w.differ(a, b),
            }
        }
    }
    let constraints = geometry.constraints();
    for constraint in constraints {
        if w.cut {
            break;
        }
        match constraint {
            Constraint::Killer { cells, sum: None } => w.distinct(cells),
            Constraint::Killer { cells, sum: Some(sum) } => {
                match cage_combinations(n, cells.len(), *sum, CAGE_COMBINATIONS) {
                    Some(sets) => w.one_of_sets(cells, &sets),
                    None => {
                        w.distinct(cells);
                        w.sum(cells, *sum);
                    }
                }
            }
            Constraint::Renban { cells } => {
                let k = cells.len() as u32;
                let runs: Vec<Vec<u32>> = (1..=n as u32 + 1 - k).map(|m| (m..m + k).collect()).collect();
                w.one_of_sets(cells, &runs);
            }
            Constraint::LittleKiller { cells, sum } => w.sum(cells, *sum),
            Constraint::Arrow { circle, cells } => {
                let (digits, rest) = (circle.len(), cells.len() as i64);
                let all: Vec<Cell> = circle.iter().chain(cells).copied().collect();
                // Read the circle's number, then take each arrow cell off it;
                // each arrow cell still to come takes at least 1.
                let step = move |i: usize, s: i64, v: u32| {
                    if i < digits {
                        return Some(s * 10 + v as i64);
                    }
                    let t = s - v as i64;
                    let after = rest - 1 - (i - digits) as i64;
                    (t >= after).then_some(t)
                };
                w.automaton(&all, 0, &step, &|s| s == 0);
            }
            Constraint::Sandwich { line, sum } => {
                let (top, sum) = (n as u32, *sum as i64);
                // States: -1 before the first crust, the sum so far between
                // the crusts, -2 after the second.
                let step = move |_: usize, s: i64, v: u32| {
                    let crust = v == 1 || v == top;
                    match s {
                        -1 => Some(if crust { 0 } else { -1 }),
                        -2 => Some(-2),
                        s if crust => (s == sum).then_some(-2),
                        s => (s + v as i64 <= sum).then_some(s + v as i64),
                    }
                };
                w.automaton(&line.cells(n), -1, &step, &|s| s == -2);
            }
            Constraint::Thermo { cells } => {
                for pair in cells.windows(2) {
                    w.pair(pair[0], pair[1], &|x, y| x < y);
                }
            }
            Constraint::Whisper { cells } => {
                let gap = whisper_gap(n);
                for pair in cells.windows(2) {
                    w.pair(pair[0], pair[1], &|x, y| x.abs_diff(y) >= gap);
                }
            }
            Constraint::Palindrome { cells } => {
                for i in 0..cells.len() / 2 {
                    w.pair(cells[i], cells[cells.len() - 1 - i], &|x, y| x == y);
                }
            }
            Constraint::Dot { relation, cells } => w.pair(cells[0], cells[1], &|x, y| relation.holds(x, y)),
            Constraint::Negative { relations } => {
                for [a, b] in negative_pairs(relations, n, constraints) {
                    w.pair(a, b, &|x, y| !relations.iter().any(|r| r.holds(x, y)));
                }
            }
            Constraint::Odd { cells } | Constraint::Even { cells } => {
                let odd = matches!(constraint, Constraint::Odd { .. });
                for &cell in cells {
                    for v in (1..=n as u32).filter(|v| (v % 2 == 1) != odd) {
                        let t = w.is(cell, v);
                        w.clause([!t]);
                    }
                }
            }
        }
    }
    !w.cut
}
