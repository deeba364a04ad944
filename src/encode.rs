//! The CNF encoding: the extended encoding of a grid, full or reduced, written into any clause sink.
//!
//! Clause families (Lynce & Ouaknine 2006, "extended" encoding):
//! every cell has a value; a cell has at most one value; every unit has every
//! value; a unit has no value twice. The *full* encoding has a variable for
//! every (cell, value) and the givens as unit clauses. The *reduced* encoding
//! (Kwon & Jain 2006) has variables only for the candidates of undecided cells
//! and drops the clauses the decided cells satisfy.
//!
//! Clauses go into a [`varisat::ExtendFormula`]: a solver, a `CnfFormula`, or
//! the DIMACS writer, so every consumer sees the same encoding.

use std::fmt;
use std::str::FromStr;

use varisat::{ExtendFormula, Lit, Var};

use crate::geometry::{Cell, Geometry, Value};
use crate::propagate::Domains;
use crate::puzzle::Grid;

/// How an at-most-one constraint over k literals is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AmoEncoding {
    /// Pairwise up to a size where that blows up, product above.
    #[default]
    Auto,
    /// k(k-1)/2 binary clauses, no new variables.
    Pairwise,
    /// Sinz's sequential counter (2005): k-1 new variables, 3k-4 clauses.
    Sequential,
    /// Chen's product encoding (2010): 2√k new variables, about 2k + 4√k clauses.
    Product,
}

/// Up to this many literals, [`AmoEncoding::Auto`] writes pairwise clauses.
pub const AUTO_PAIRWISE_LIMIT: usize = 16;

impl AmoEncoding {
    pub const NAMES: [&'static str; 4] = ["auto", "pairwise", "sequential", "product"];

    /// The encoding actually used for `k` literals.
    pub fn resolve(self, k: usize) -> AmoEncoding {
        match self {
            AmoEncoding::Auto if k <= AUTO_PAIRWISE_LIMIT => AmoEncoding::Pairwise,
            AmoEncoding::Auto => AmoEncoding::Product,
            other => other,
        }
    }
}

impl FromStr for AmoEncoding {
    type Err = String;

    fn from_str(s: &str) -> Result<AmoEncoding, String> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(AmoEncoding::Auto),
            "pairwise" => Ok(AmoEncoding::Pairwise),
            "sequential" | "seq" => Ok(AmoEncoding::Sequential),
            "product" => Ok(AmoEncoding::Product),
            _ => Err(format!("unknown at-most-one encoding '{s}' (expected {})", AmoEncoding::NAMES.join(", "))),
        }
    }
}

impl fmt::Display for AmoEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = [AmoEncoding::Auto, AmoEncoding::Pairwise, AmoEncoding::Sequential, AmoEncoding::Product]
            .iter()
            .position(|e| e == self)
            .unwrap_or(0);
        f.write_str(AmoEncoding::NAMES[i])
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

/// Which variable stands for which (cell, value): the one place that knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarMap {
    n: usize,
    /// Index of the first cell variable in the formula.
    offset: usize,
    layout: MapLayout,
    /// Cells that have no variable because their value is decided.
    decided: Grid,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum MapLayout {
    /// Variable `offset + cell·n + value` for every (cell, value).
    Regular,
    /// Variables for the candidates of undecided cells, in (cell, value) order:
    /// the candidates of cell c are `values[start[c]..start[c + 1]]`.
    Explicit { start: Vec<u32>, values: Vec<u16> },
}

impl VarMap {
    /// Every (cell, value) of a grid of side `n` has variable `offset + cell·n + value`.
    pub fn regular(n: usize, offset: usize) -> VarMap {
        VarMap { n, offset, layout: MapLayout::Regular, decided: Grid::empty(n) }
    }

    /// Variables for the candidates of the undecided cells of `domains`, from `offset`.
    pub fn reduced(domains: &Domains, offset: usize) -> VarMap {
        let n = domains.size();
        let mut start = Vec::with_capacity(n * n + 1);
        let mut values = Vec::new();
        let mut decided = Grid::empty(n);
        for i in 0..n * n {
            let cell = Cell::from_index(i);
            start.push(values.len() as u32);
            match domains.single(cell) {
                Some(v) => decided.set(cell, Some(v)),
                None => values.extend(domains.values(cell).map(|v| v.index() as u16)),
            }
        }
        start.push(values.len() as u32);
        VarMap { n, offset, layout: MapLayout::Explicit { start, values }, decided }
    }

    pub fn size(&self) -> usize {
        self.n
    }

    /// Index of the first cell variable.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// How many (cell, value) variables there are.
    pub fn cell_var_count(&self) -> usize {
        match &self.layout {
            MapLayout::Regular => self.n * self.n * self.n,
            MapLayout::Explicit { values, .. } => values.len(),
        }
    }

    /// Whether the map is `offset + cell·n + value` throughout.
    pub fn is_regular(&self) -> bool {
        matches!(self.layout, MapLayout::Regular)
    }

    /// The cells decided without a variable.
    pub fn decided(&self) -> &Grid {
        &self.decided
    }

    /// The variable of (cell, value), if it has one.
    pub fn var(&self, cell: Cell, value: Value) -> Option<Var> {
        let index = match &self.layout {
            MapLayout::Regular => (value.index() < self.n).then(|| cell.index() * self.n + value.index())?,
            MapLayout::Explicit { start, values } => {
                let (lo, hi) = (start[cell.index()] as usize, start[cell.index() + 1] as usize);
                lo + values[lo..hi].binary_search(&(value.index() as u16)).ok()?
            }
        };
        Some(Var::from_index(self.offset + index))
    }

    /// The (cell, value) of a variable, if it is a cell variable.
    pub fn pair(&self, var: Var) -> Option<(Cell, Value)> {
        let index = var.index().checked_sub(self.offset)?;
        if index >= self.cell_var_count() {
            return None;
        }
        match &self.layout {
            MapLayout::Regular => Some((Cell::from_index(index / self.n), Value::from_index(index % self.n))),
            MapLayout::Explicit { start, values } => {
                let cell = start.partition_point(|&s| s as usize <= index) - 1;
                Some((Cell::from_index(cell), Value::from_index(values[index] as usize)))
            }
        }
    }

    /// The variables of `cell`'s candidates, with their values.
    pub fn cell_vars(&self, cell: Cell) -> impl Iterator<Item = (Value, Var)> + '_ {
        let (range, values): (std::ops::Range<usize>, Option<&[u16]>) = match &self.layout {
            MapLayout::Regular => (cell.index() * self.n..(cell.index() + 1) * self.n, None),
            MapLayout::Explicit { start, values } => {
                (start[cell.index()] as usize..start[cell.index() + 1] as usize, Some(values))
            }
        };
        range.map(move |i| {
            let value = match values {
                Some(values) => Value::from_index(values[i] as usize),
                None => Value::from_index(i % self.n),
            };
            (value, Var::from_index(self.offset + i))
        })
    }

    /// Read a grid from a model: `is_true(var)` for each cell variable.
    /// Errors when a cell has no true variable or more than one.
    pub fn decode(&self, geometry: &Geometry, mut is_true: impl FnMut(Var) -> bool) -> Result<Grid, String> {
        let mut grid = self.decided.clone();
        for cell in geometry.cells() {
            if grid.get(cell).is_some() {
                continue;
            }
            let mut found = None;
            for (value, var) in self.cell_vars(cell) {
                if is_true(var) {
                    if let Some(other) = found {
                        return Err(format!("{} is both {other} and {value} in the model", geometry.cell_name(cell)));
                    }
                    found = Some(value);
                }
            }
            match found {
                Some(v) => grid.set(cell, Some(v)),
                None => return Err(format!("{} has no value in the model", geometry.cell_name(cell))),
            }
        }
        Ok(grid)
    }
}

/// Which clauses to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EncodeOptions {
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
    let map = encode_base(geometry, options, sink);
    for (cell, value) in givens.filled() {
        if let Some(var) = map.var(cell, value) {
            sink.add_clause(&[var.positive()]);
        }
    }
    map
}

/// The extended encoding of the blank grid: what every puzzle of `geometry` shares.
pub fn encode_base(geometry: &Geometry, options: EncodeOptions, sink: &mut impl ExtendFormula) -> VarMap {
    let n = geometry.size();
    let map = VarMap::regular(n, new_vars(sink, n * n * n));
    write_clauses(geometry, &map, options, sink);
    map
}

/// The reduced encoding (Kwon & Jain 2006) over the candidates in `domains`:
/// variables only for undecided cells, and no clause a decided cell satisfies.
pub fn encode_reduced(
    geometry: &Geometry,
    domains: &Domains,
    options: EncodeOptions,
    sink: &mut impl ExtendFormula,
) -> VarMap {
    let count = (0..geometry.cell_count())
        .map(Cell::from_index)
        .filter(|&c| domains.single(c).is_none())
        .map(|c| domains.count(c))
        .sum();
    let map = VarMap::reduced(domains, new_vars(sink, count));
    write_clauses(geometry, &map, options, sink);
    map
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

fn write_clauses(geometry: &Geometry, map: &VarMap, options: EncodeOptions, sink: &mut impl ExtendFormula) {
    let n = geometry.size();
    let mut lits: Vec<Lit> = Vec::with_capacity(n);
    for cell in geometry.cells() {
        if map.decided.get(cell).is_some() {
            continue;
        }
        lits.clear();
        lits.extend(map.cell_vars(cell).map(|(_, var)| var.positive()));
        sink.add_clause(&lits);
        at_most_one(sink, &lits, options.amo);
    }
    // Per unit, the literals of each value, and the decided cells holding it.
    let mut by_value: Vec<Vec<Lit>> = vec![Vec::new(); n];
    let mut holders = vec![0usize; n];
    for unit in geometry.units() {
        by_value.iter_mut().for_each(Vec::clear);
        holders.fill(0);
        for &cell in unit.cells() {
            match map.decided.get(cell) {
                Some(v) => holders[v.index()] += 1,
                None => map.cell_vars(cell).for_each(|(v, var)| by_value[v.index()].push(var.positive())),
            }
        }
        for (v, lits) in by_value.iter().enumerate() {
            match holders[v] {
                // Not yet placed: the unit needs it exactly once.
                0 => {
                    sink.add_clause(lits);
                    at_most_one(sink, lits, options.amo);
                }
                // Placed by a decided cell: nobody else in the unit may take it.
                1 => lits.iter().for_each(|&x| sink.add_clause(&[!x])),
                // Two decided cells hold it: no solution.
                _ => sink.add_clause(&[]),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
                assert_eq!(crate::verify::verify(&g, &Grid::empty(4), s), Ok(()));
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
}
