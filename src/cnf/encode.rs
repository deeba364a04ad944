//! The CNF encoding: the extended encoding of a grid, full or reduced, written into any clause sink.
//!
//! Clause families (Lynce & Ouaknine 2006, "extended" encoding):
//! every cell has a value; a cell has at most one value; every unit has every
//! value; a unit has no value twice. The *full* encoding has a variable for
//! every (cell, value) and the givens as unit clauses. The *reduced* encoding
//! (Kwon & Jain 2006) has variables only for the candidates of undecided cells
//! and drops the clauses the decided cells satisfy.
//!
//! Variant constraints (cages, lines, dots, anti-knight ...) add their own
//! clause families over the same variables (see `encode/constraints.rs`).
//!
//! Clauses go into a [`varisat::ExtendFormula`]: a solver, a `CnfFormula`, or
//! the DIMACS writer, so every consumer sees the same encoding.

mod constraints;

use std::time::Instant;

use varisat::{ExtendFormula, Lit};

use crate::cnf::varmap::VarMap;
use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry};
use crate::model::puzzle::Grid;

/// How an at-most-one constraint over k literals is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, strum::EnumString, strum::Display, strum::VariantNames)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum AmoEncoding {
    /// Pairwise up to a size where that blows up, product above.
    #[default]
    Auto,
    /// k(k-1)/2 binary clauses, no new variables.
    Pairwise,
    /// Sinz's sequential counter (2005): k-1 new variables, 3k-4 clauses.
    #[strum(to_string = "sequential", serialize = "seq")]
    Sequential,
    /// Chen's product encoding (2010): 2√k new variables, about 2k + 4√k clauses.
    Product,
}

/// Up to this many literals, [`AmoEncoding::Auto`] writes pairwise clauses.
pub const AUTO_PAIRWISE_LIMIT: usize = 16;

impl AmoEncoding {
    /// The encoding actually used for `k` literals.
    pub fn resolve(self, k: usize) -> AmoEncoding {
        match self {
            AmoEncoding::Auto if k <= AUTO_PAIRWISE_LIMIT => AmoEncoding::Pairwise,
            AmoEncoding::Auto => AmoEncoding::Product,
            other => other,
        }
    }
}

/// Write "at most one of `lits` is true".
pub fn at_most_one(sink: &mut impl ExtendFormula, lits: &[Lit], encoding: AmoEncoding) {
    if lits.len() < 2 {
        return;
    }
    match encoding.resolve(lits.len()) {
        // The product of a handful of literals is no smaller than pairwise.
        AmoEncoding::Product if lits.len() <= 4 => at_most_one(sink, lits, AmoEncoding::Pairwise),
        AmoEncoding::Pairwise | AmoEncoding::Auto => {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    sink.add_clause(&[!a, !b]);
                }
            }
        }
        AmoEncoding::Sequential => {
            // s_i: "one of x_1..x_i is true".
            let k = lits.len();
            let s: Vec<Lit> = (0..k - 1).map(|_| sink.new_lit()).collect();
            sink.add_clause(&[!lits[0], s[0]]);
            for i in 1..k - 1 {
                sink.add_clause(&[!lits[i], s[i]]);
                sink.add_clause(&[!s[i - 1], s[i]]);
                sink.add_clause(&[!lits[i], !s[i - 1]]);
            }
            sink.add_clause(&[!lits[k - 1], !s[k - 2]]);
        }
        AmoEncoding::Product => {
            // Lay the literals out in a p×q grid; a true literal makes its row
            // and column true, and at most one row and one column may be.
            let k = lits.len();
            let p = (1..=k).find(|p| p * p >= k).unwrap_or(k);
            let q = k.div_ceil(p);
            let rows: Vec<Lit> = (0..k.div_ceil(q)).map(|_| sink.new_lit()).collect();
            let cols: Vec<Lit> = (0..q).map(|_| sink.new_lit()).collect();
            for (i, &x) in lits.iter().enumerate() {
                sink.add_clause(&[!x, rows[i / q]]);
                sink.add_clause(&[!x, cols[i % q]]);
            }
            at_most_one(sink, &rows, encoding);
            at_most_one(sink, &cols, encoding);
        }
    }
}

/// Where the encoder writes: any clause sink, or a [`Sizer`] that only
/// counts. At-most-one constraints go through here so that the sizer can
/// count them in closed form instead of writing k²/2 clauses to count them.
pub(crate) trait ClauseSink {
    fn clause(&mut self, literals: &[Lit]);
    fn amo(&mut self, literals: &[Lit], encoding: AmoEncoding);
    /// A new variable's positive literal (the constraints' auxiliary variables).
    fn fresh(&mut self) -> Lit;
    /// Whether `literals` more (or as many automaton edges, which take as much
    /// to build) are past what the sink wants, and it need see no more: a
    /// [`Sizer`] with a budget, asked by a clue whose encoding alone would
    /// take gigabytes to build before it is refused. The sink then counts
    /// them and stops. Writers want everything.
    fn past_budget(&mut self, _literals: u64) -> bool {
        false
    }
}

impl<S: ExtendFormula> ClauseSink for S {
    fn clause(&mut self, literals: &[Lit]) {
        self.add_clause(literals);
    }

    fn fresh(&mut self) -> Lit {
        self.new_lit()
    }

    fn amo(&mut self, literals: &[Lit], encoding: AmoEncoding) {
        at_most_one(self, literals, encoding);
    }
}

/// The size of a CNF: what it will take to hold it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnfSize {
    /// Variables.
    pub variables: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literals over all clauses: the measure of the memory a solver needs.
    pub literals: u64,
}

impl CnfSize {
    pub(crate) fn add(&mut self, other: CnfSize) {
        self.variables += other.variables;
        self.clauses += other.clauses;
        self.literals += other.literals;
    }

    /// The size of "at most one of k literals" as `encoding` writes it.
    pub(crate) fn at_most_one(k: usize, encoding: AmoEncoding) -> CnfSize {
        let k64 = k as u64;
        if k < 2 {
            return CnfSize::default();
        }
        match encoding.resolve(k) {
            AmoEncoding::Product if k <= 4 => CnfSize::at_most_one(k, AmoEncoding::Pairwise),
            AmoEncoding::Pairwise | AmoEncoding::Auto => {
                let pairs = k64 * (k64 - 1) / 2;
                CnfSize { variables: 0, clauses: pairs, literals: 2 * pairs }
            }
            AmoEncoding::Sequential => CnfSize { variables: k64 - 1, clauses: 3 * k64 - 4, literals: 6 * k64 - 8 },
            AmoEncoding::Product => {
                let p = (1..=k).find(|p| p * p >= k).unwrap_or(k);
                let q = k.div_ceil(p);
                let rows = k.div_ceil(q);
                let mut size = CnfSize { variables: (rows + q) as u64, clauses: 2 * k64, literals: 4 * k64 };
                size.add(CnfSize::at_most_one(rows, encoding));
                size.add(CnfSize::at_most_one(q, encoding));
                size
            }
        }
    }
}

/// A clause sink that only counts.
pub(crate) struct Sizer {
    pub size: CnfSize,
    /// Literals past which the count stops (`u64::MAX`: never).
    budget: u64,
    /// Whether it stopped: `size` is then a floor.
    pub stopped: bool,
    /// Whether the deadline stopped it: `size` is then a floor too.
    pub late: bool,
}

impl Sizer {
    pub fn with_budget(budget: u64) -> Sizer {
        Sizer { size: CnfSize::default(), budget, stopped: false, late: false }
    }
}

impl Default for Sizer {
    fn default() -> Sizer {
        Sizer::with_budget(u64::MAX)
    }
}

impl ClauseSink for Sizer {
    fn past_budget(&mut self, literals: u64) -> bool {
        if self.size.literals.saturating_add(literals) <= self.budget {
            return false;
        }
        self.size.literals = self.size.literals.saturating_add(literals);
        self.stopped = true;
        true
    }

    fn clause(&mut self, literals: &[Lit]) {
        self.size.clauses += 1;
        self.size.literals += literals.len() as u64;
    }

    fn amo(&mut self, literals: &[Lit], encoding: AmoEncoding) {
        self.size.add(CnfSize::at_most_one(literals.len(), encoding));
    }

    fn fresh(&mut self) -> Lit {
        // Only counted: the literal is never written anywhere.
        self.size.variables += 1;
        Lit::from_index(0, true)
    }
}

/// Which clauses to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EncodeOptions {
    /// How at-most-one constraints are written.
    pub amo: AmoEncoding,
}

/// The full extended encoding of `geometry`, with `givens` as unit clauses.
/// Every puzzle of one geometry gets the same variables.
pub fn encode_full(
    geometry: &Geometry,
    givens: &Grid,
    options: EncodeOptions,
    sink: &mut impl ExtendFormula,
) -> VarMap {
    encode_full_until(geometry, givens, options, None, sink).expect("no deadline: never cut short")
}

/// [`encode_full`], or `None` when `deadline` cut it short (see
/// [`encode_base_until`]).
pub(crate) fn encode_full_until(
    geometry: &Geometry,
    givens: &Grid,
    options: EncodeOptions,
    deadline: Option<Instant>,
    sink: &mut impl ExtendFormula,
) -> Option<VarMap> {
    let map = encode_base_until(geometry, options, deadline, sink)?;
    for (cell, value) in givens.filled() {
        if let Some(var) = map.var(cell, value) {
            sink.add_clause(&[var.positive()]);
        }
    }
    Some(map)
}

/// The extended encoding of the blank grid: what every puzzle of `geometry` shares.
pub fn encode_base(geometry: &Geometry, options: EncodeOptions, sink: &mut impl ExtendFormula) -> VarMap {
    encode_base_until(geometry, options, None, sink).expect("no deadline: never cut short")
}

/// [`encode_base`], or `None` when a clue whose encoding takes seconds to
/// build (a sum along a long line) stopped at `deadline`: the sink then
/// holds a formula with clauses missing, not to be solved.
pub(crate) fn encode_base_until(
    geometry: &Geometry,
    options: EncodeOptions,
    deadline: Option<Instant>,
    sink: &mut impl ExtendFormula,
) -> Option<VarMap> {
    let n = geometry.size();
    let map = VarMap::regular(n, new_vars(sink, n * n * n));
    write_clauses(geometry, &map, options, deadline, sink).then_some(map)
}

/// The reduced encoding (Kwon & Jain 2006) over the candidates in `domains`:
/// variables only for undecided cells, and no clause a decided cell satisfies.
pub fn encode_reduced(
    geometry: &Geometry,
    domains: &Domains,
    options: EncodeOptions,
    sink: &mut impl ExtendFormula,
) -> VarMap {
    encode_reduced_until(geometry, domains, options, None, sink).expect("no deadline: never cut short")
}

/// [`encode_reduced`], or `None` when `deadline` cut it short (see
/// [`encode_base_until`]).
pub(crate) fn encode_reduced_until(
    geometry: &Geometry,
    domains: &Domains,
    options: EncodeOptions,
    deadline: Option<Instant>,
    sink: &mut impl ExtendFormula,
) -> Option<VarMap> {
    let count = (0..geometry.cell_count())
        .map(Cell::from_index)
        .filter(|&c| domains.single(c).is_none())
        .map(|c| domains.count(c))
        .sum();
    let map = VarMap::reduced(domains, new_vars(sink, count));
    write_clauses(geometry, &map, options, deadline, sink).then_some(map)
}

/// Allocate `count` consecutive variables; the index of the first.
fn new_vars(sink: &mut impl ExtendFormula, count: usize) -> usize {
    if count == 0 {
        return 0;
    }
    let first = sink.new_var().index();
    for _ in 1..count {
        sink.new_var();
    }
    first
}

/// The size of what [`encode_reduced`] writes for `domains`, without writing
/// it. Counting stops once it is past `budget` literals, where a clue's
/// encoding would take more to count than the limit it is checked against
/// (the sizer says so: its size is then a floor).
pub(crate) fn reduced_size(
    geometry: &Geometry,
    domains: &Domains,
    options: EncodeOptions,
    budget: u64,
    deadline: Option<Instant>,
) -> Sizer {
    let map = VarMap::reduced(domains, 0);
    let mut sizer = Sizer::with_budget(budget);
    sizer.late = !write_clauses(geometry, &map, options, deadline, &mut sizer);
    sizer.size.variables += map.cell_var_count() as u64;
    sizer
}

/// The size of what [`encode_base`] writes, without writing it; counting
/// may stop past `budget` literals (see [`reduced_size`]), or at
/// `deadline` ([`Sizer::late`]: the size is then a floor).
pub(crate) fn base_size(geometry: &Geometry, options: EncodeOptions, budget: u64, deadline: Option<Instant>) -> Sizer {
    let n = geometry.size();
    let map = VarMap::regular(n, 0);
    let mut sizer = Sizer::with_budget(budget);
    sizer.late = !write_clauses(geometry, &map, options, deadline, &mut sizer);
    sizer.size.variables += map.cell_var_count() as u64;
    sizer
}

/// Whether `deadline` has passed.
fn late(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// False when `deadline` cut the clauses short. The clock is read after
/// every `WORK_A_LOOK` (cell, value) pairs looked at: the rules of a blank
/// 1024×1024 alone took 17 s to count, and gigabytes to write. A small
/// grid's rules (up to about 4 million pairs, a 100×100's) are written
/// whole whatever the time; a sink that wants them cut by the clock
/// ([`crate::cnf::Until`]) counts its clauses.
fn write_clauses(
    geometry: &Geometry,
    map: &VarMap,
    options: EncodeOptions,
    deadline: Option<Instant>,
    sink: &mut impl ClauseSink,
) -> bool {
    const WORK_A_LOOK: u64 = 1 << 22;
    let n = geometry.size();
    let (mut work, mut look_at) = (0u64, WORK_A_LOOK);
    let mut past = |pairs: usize| {
        work += pairs as u64;
        if work < look_at {
            return false;
        }
        look_at = work + WORK_A_LOOK;
        late(deadline)
    };
    let mut lits: Vec<Lit> = Vec::with_capacity(n);
    for cell in geometry.cells() {
        if past(n) {
            return false;
        }
        if map.decided().get(cell).is_some() {
            continue;
        }
        lits.clear();
        lits.extend(map.cell_vars(cell).map(|(_, var)| var.positive()));
        sink.clause(&lits);
        sink.amo(&lits, options.amo);
    }
    // Per unit, the literals of each value, and the decided cells holding it.
    let mut by_value: Vec<Vec<Lit>> = vec![Vec::new(); n];
    let mut holders = vec![0usize; n];
    for unit in geometry.units() {
        if past(n * unit.cells().len()) {
            return false;
        }
        by_value.iter_mut().for_each(Vec::clear);
        holders.fill(0);
        for &cell in unit.cells() {
            match map.decided().get(cell) {
                Some(v) => holders[v.index()] += 1,
                None => map.cell_vars(cell).for_each(|(v, var)| by_value[v.index()].push(var.positive())),
            }
        }
        for (v, lits) in by_value.iter().enumerate() {
            match holders[v] {
                // Not yet placed: the unit needs it exactly once.
                0 => {
                    sink.clause(lits);
                    sink.amo(lits, options.amo);
                }
                // Placed by a decided cell: nobody else in the unit may take it.
                1 => lits.iter().for_each(|&x| sink.clause(&[!x])),
                // Two decided cells hold it: no solution.
                _ => sink.clause(&[]),
            }
        }
    }
    constraints::write_constraints(geometry, map, options, deadline, sink)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::constraints::Constraint;
    use crate::model::geometry::Value;
    use varisat::{CnfFormula, Solver};

    fn solutions(formula: &CnfFormula, map: &VarMap, g: &Geometry, limit: usize) -> Vec<Grid> {
        let mut solver = Solver::new();
        solver.add_formula(formula);
        let mut found = Vec::new();
        while found.len() < limit && solver.solve().unwrap() {
            let model = solver.model().unwrap();
            let grid = map.decode(g, |v| model.get(v.index()).is_some_and(|l| l.is_positive())).unwrap();
            let block: Vec<Lit> =
                g.cells().filter_map(|c| map.var(c, grid.get(c).unwrap())).map(|v| v.negative()).collect();
            solver.add_clause(&block);
            found.push(grid);
        }
        found
    }

    #[test]
    fn every_amo_encoding_allows_exactly_the_sets_of_at_most_one() {
        for encoding in [AmoEncoding::Pairwise, AmoEncoding::Sequential, AmoEncoding::Product] {
            for k in 1..=12 {
                let mut f = CnfFormula::new();
                let xs: Vec<Lit> = (0..k).map(|_| f.new_lit()).collect();
                at_most_one(&mut f, &xs, encoding);
                // Count the assignments of xs that extend to a model: must be k + 1.
                let mut solver = Solver::new();
                solver.add_formula(&f);
                let mut count = 0;
                while solver.solve().unwrap() {
                    let model = solver.model().unwrap();
                    count += 1;
                    // varisat's model leaves out variables no clause mentions: those are free.
                    let block: Vec<Lit> = xs
                        .iter()
                        .map(|x| if model.get(x.index()).is_some_and(|l| l.is_positive()) { !*x } else { *x })
                        .collect();
                    solver.add_clause(&block);
                }
                assert_eq!(count, k + 1, "{encoding} with k = {k}");
            }
        }
    }

    #[test]
    fn full_encoding_of_blank_4x4_has_288_solutions_with_every_amo() {
        let g = Geometry::classic(4).unwrap();
        for amo in [AmoEncoding::Pairwise, AmoEncoding::Sequential, AmoEncoding::Product] {
            let mut f = CnfFormula::new();
            let map = encode_full(&g, &Grid::empty(4), EncodeOptions { amo }, &mut f);
            let all = solutions(&f, &map, &g, 1000);
            assert_eq!(all.len(), 288, "{amo}");
            for s in &all {
                assert_eq!(crate::model::verify::verify(&g, &Grid::empty(4), s), Ok(()));
            }
        }
    }

    #[test]
    fn reduced_encoding_has_no_variable_for_decided_cells() {
        let g = Geometry::classic(4).unwrap();
        let mut d = Domains::full(4);
        d.fix(Cell::from_index(0), Value::from_index(0));
        let mut f = CnfFormula::new();
        let map = encode_reduced(&g, &d, EncodeOptions::default(), &mut f);
        assert_eq!(map.cell_var_count(), 15 * 4);
        assert_eq!(map.var(Cell::from_index(0), Value::from_index(0)), None);
        let v = map.var(Cell::from_index(5), Value::from_index(2)).unwrap();
        assert_eq!(map.pair(v), Some((Cell::from_index(5), Value::from_index(2))));
        // r1c1 = 1 leaves 288 / 4 = 72 grids.
        assert_eq!(solutions(&f, &map, &g, 1000).len(), 72);
    }

    /// A Latin square of side `n` whose main diagonal sums to n(n+1)/2: a
    /// little killer whose automaton has about n²/2 states a layer.
    fn diagonal_sum(n: usize) -> Geometry {
        let cells: Vec<Cell> = (0..n).map(|i| Cell::from_index(i * n + i)).collect();
        let sum = (n * (n + 1) / 2) as u32;
        Geometry::latin(n).unwrap().with_constraints(vec![Constraint::LittleKiller { cells, sum }]).unwrap()
    }

    /// The clauses `encode_full_until` writes by `deadline`, and whether
    /// they are the whole formula.
    fn clauses_by(g: &Geometry, deadline: Option<Instant>) -> (usize, bool) {
        let mut f = CnfFormula::new();
        let map = encode_full_until(g, &Grid::empty(g.size()), EncodeOptions::default(), deadline, &mut f);
        (f.len(), map.is_some())
    }

    #[test]
    fn a_sum_clue_stops_at_the_deadline() {
        let g = diagonal_sum(24);
        let (units, _) = clauses_by(&Geometry::latin(24).unwrap(), None);
        let (whole, complete) = clauses_by(&g, None);
        assert!(complete && whole > units + 10_000, "{whole} against {units} without the clue");
        // Past the deadline the clue's automaton builds nothing more, and
        // the formula is no map: it lacks the clue.
        let past = Instant::now();
        assert_eq!(clauses_by(&g, Some(past)), (units, false));
        let later = Instant::now() + std::time::Duration::from_secs(3600);
        assert_eq!(clauses_by(&g, Some(later)), (whole, true));
        // Without a clue that takes long, nothing is cut, whatever the time.
        assert_eq!(clauses_by(&Geometry::latin(24).unwrap(), Some(past)), (units, true));
    }

    #[test]
    fn counting_a_sum_clue_stops_once_past_the_budget() {
        let g = diagonal_sum(24);
        let whole = base_size(&g, EncodeOptions::default(), u64::MAX, None);
        assert!(!whole.stopped);
        // A budget its edges fit within but its clauses do not: counting
        // stops within a layer of the budget, not at the end.
        let budget = whole.size.literals / 2;
        let cut = base_size(&g, EncodeOptions::default(), budget, None);
        assert!(cut.stopped && !cut.late);
        let layer = whole.size.literals / 24;
        assert!(cut.size.literals > budget && cut.size.literals <= budget + layer, "{:?}", cut.size);
    }
}
