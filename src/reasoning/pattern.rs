//! The shape of a shuffled pattern grid, as a guess to try before the whole search.
//!
//! Big puzzles are often made from a pattern grid, because a random grid of
//! that size is hard to come by. For boxes of R×C the pattern puts
//! `(C·(r mod R) + ⌊r/R⌋ + c) mod n` in row r, column c. Shuffling rows within
//! bands, bands, columns within stacks and stacks, and relabeling the values,
//! keeps one trait of it: the values fall into C groups of R, and each column's
//! piece within a band (its R cells in one box) holds one whole group. A grid
//! transposed before the shuffle has the same trait along rows: R groups of C
//! values, one to each row's piece within a stack.
//!
//! The known cells show the groups: values that share a piece share a group.
//! When that partitions the values into groups of the right size on an axis,
//! [`ValueGroups::encode`] adds the trait as clauses. It is a guess, not a
//! consequence of the puzzle: a solution found with it is a solution (and is
//! verified like any other), but no solution with it says nothing about the
//! puzzle. On rkkautsar-225-1 the guess takes varisat from no answer in 25
//! minutes to about a second.

use varisat::{ExtendFormula, Lit, Var};

use crate::cnf::encode::{at_most_one, AmoEncoding};
use crate::cnf::varmap::VarMap;
use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry, Layout, Value};
use crate::model::puzzle::Grid;

/// Which pieces hold whole groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Each column's piece within a band: R cells, R values to a group.
    Columns,
    /// Each row's piece within a stack: C cells, C values to a group.
    Rows,
}

/// A partition of the values into groups, one group to each piece along an axis.
///
/// Along either axis the grid has n lines (the columns, or the rows), each cut
/// into as many pieces as there are groups, each piece `size` cells long; and
/// the lines come in blocks of that many too (the columns of a stack, the rows
/// of a band), so that the pieces of one box are the same piece of each line of
/// a block. The shape: every piece holds one whole group, so each group is once
/// in every line and once in every box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueGroups {
    axis: Axis,
    n: usize,
    /// Values to a group and cells to a piece.
    size: usize,
    /// The group of each value, by value index.
    group: Vec<u16>,
}

impl ValueGroups {
    /// The groups the `known` cells show, on each axis of a box layout where
    /// they partition the values into groups of the right size: none, one or both.
    pub fn find(geometry: &Geometry, known: &Grid) -> Vec<ValueGroups> {
        let Layout::Boxes { rows, cols } = *geometry.layout() else {
            return Vec::new();
        };
        [(Axis::Columns, rows), (Axis::Rows, cols)]
            .into_iter()
            .filter_map(|(axis, size)| ValueGroups::on_axis(geometry, known, axis, size))
            .collect()
    }

    /// [`ValueGroups::find`] on the cells known before search: the givens, and
    /// the cells `domains` decide.
    pub fn before_search(geometry: &Geometry, givens: &Grid, domains: &Domains) -> Vec<ValueGroups> {
        let mut known = domains.decided();
        givens.filled().for_each(|(cell, value)| known.set(cell, Some(value)));
        ValueGroups::find(geometry, &known)
    }

    fn on_axis(geometry: &Geometry, known: &Grid, axis: Axis, size: usize) -> Option<ValueGroups> {
        let n = geometry.size();
        // One cell to a piece or one piece to a line: every grid has the shape.
        if size < 2 || size == n {
            return None;
        }
        let mut sets = DisjointSets::new(n);
        for line in 0..n {
            for piece in 0..n / size {
                let mut first = None;
                for cell in piece_cells(geometry, axis, size, line, piece) {
                    if let Some(value) = known.get(cell) {
                        match first {
                            None => first = Some(value.index()),
                            Some(first) => sets.union(first, value.index()),
                        }
                    }
                }
            }
        }
        let mut roots: Vec<usize> = (0..n).map(|v| sets.find(v)).collect();
        let mut members = vec![0usize; n];
        roots.iter().for_each(|&root| members[root] += 1);
        if roots.iter().any(|&root| members[root] != size) {
            return None;
        }
        // Number the groups 0.. in order of their smallest value.
        let mut number = vec![u16::MAX; n];
        let mut next = 0;
        for root in roots.iter_mut() {
            if number[*root] == u16::MAX {
                number[*root] = next;
                next += 1;
            }
            *root = number[*root] as usize;
        }
        Some(ValueGroups { axis, n, size, group: roots.into_iter().map(|g| g as u16).collect() })
    }

    #[cfg(test)]
    pub fn axis(&self) -> Axis {
        self.axis
    }

    /// How many groups there are (and pieces to a line, and lines to a block).
    pub fn count(&self) -> usize {
        self.n / self.size
    }

    /// The group `value` is in.
    pub fn group_of(&self, value: Value) -> usize {
        self.group[value.index()] as usize
    }

    /// The line and the piece of a cell.
    fn piece_of(&self, geometry: &Geometry, cell: Cell) -> (usize, usize) {
        let (row, col) = geometry.row_col(cell);
        match self.axis {
            Axis::Columns => (col, row / self.size),
            Axis::Rows => (row, col / self.size),
        }
    }

    /// Whether a complete grid has the shape: every piece holds one group.
    pub fn fits(&self, geometry: &Geometry, grid: &Grid) -> bool {
        (0..self.n).all(|line| {
            (0..self.count()).all(|piece| {
                let mut groups = piece_cells(geometry, self.axis, self.size, line, piece)
                    .map(|cell| grid.get(cell).map(|value| self.group_of(value)));
                let first = groups.next().flatten();
                first.is_some() && groups.all(|group| group == first)
            })
        })
    }

    /// Add the shape to a puzzle's formula, over the cell variables of `map`.
    ///
    /// One new variable per piece and group says "this piece holds this
    /// group". A candidate implies its piece holds its value's group, and a
    /// decided cell fixes it. Exactly one group is in each piece, and each
    /// group is in exactly one piece of each line and of each box: the last
    /// two follow from the first, but stated they let the solver reason about
    /// pieces without going through the cells.
    pub fn encode(&self, geometry: &Geometry, map: &VarMap, amo: AmoEncoding, sink: &mut impl ExtendFormula) {
        let count = self.count();
        let first = sink.new_var().index();
        for _ in 1..self.n * count * count {
            sink.new_var();
        }
        let holds = |line: usize, piece: usize, group: usize| {
            Var::from_index(first + (line * count + piece) * count + group).positive()
        };
        for cell in geometry.cells() {
            let (line, piece) = self.piece_of(geometry, cell);
            match map.decided().get(cell) {
                Some(value) => sink.add_clause(&[holds(line, piece, self.group_of(value))]),
                None => {
                    for (value, var) in map.cell_vars(cell) {
                        sink.add_clause(&[var.negative(), holds(line, piece, self.group_of(value))]);
                    }
                }
            }
        }
        let mut exactly_one = |lits: Vec<Lit>| {
            sink.add_clause(&lits);
            at_most_one(sink, &lits, amo);
        };
        for line in 0..self.n {
            for piece in 0..count {
                exactly_one((0..count).map(|group| holds(line, piece, group)).collect());
            }
            for group in 0..count {
                exactly_one((0..count).map(|piece| holds(line, piece, group)).collect());
            }
        }
        for block in 0..self.n / count {
            for piece in 0..count {
                for group in 0..count {
                    exactly_one((0..count).map(|i| holds(block * count + i, piece, group)).collect());
                }
            }
        }
    }
}

/// The cells of one piece of one line.
fn piece_cells(
    geometry: &Geometry,
    axis: Axis,
    size: usize,
    line: usize,
    piece: usize,
) -> impl Iterator<Item = Cell> + '_ {
    (piece * size..(piece + 1) * size).map(move |i| match axis {
        Axis::Columns => geometry.cell(i, line),
        Axis::Rows => geometry.cell(line, i),
    })
}

/// Union-find over value indices, with path halving.
struct DisjointSets {
    parent: Vec<usize>,
}

impl DisjointSets {
    fn new(n: usize) -> DisjointSets {
        DisjointSets { parent: (0..n).collect() }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        self.parent[a] = b;
    }
}

/// The pattern grids of a box or Latin layout, unshuffled: for boxes of
/// R×C, `(C·(r mod R) + ⌊r/R⌋ + c) mod n` and the same along columns,
/// `(R·(c mod C) + ⌊c/C⌋ + r) mod n`; for a Latin square `(r + c) mod n`
/// and `(r − c) mod n`. Each is a full grid of the layout's rows, columns
/// and boxes; whether it keeps a geometry's other rules (extra units,
/// neighbour rules, clues) is the caller's to check. A blank grid whose
/// rules one keeps has it as a solution at once: the first of disjoint
/// groups is one (each box position holds `⌊r/R⌋ + C·⌊c/C⌋` plus a
/// constant), where a blank 25×25 with them had no answer from the
/// search in a minute.
pub(crate) fn pattern_grids(geometry: &Geometry) -> Vec<Grid> {
    let n = geometry.size();
    let grid = |value: &dyn Fn(usize, usize) -> usize| {
        let cells = (0..n * n).map(|i| Some(Value::from_index(value(i / n, i % n) % n))).collect();
        Grid::from_cells(n, cells).expect("n² cells")
    };
    match *geometry.layout() {
        Layout::Boxes { rows, cols } => {
            vec![grid(&|r, c| cols * (r % rows) + r / rows + c), grid(&|r, c| rows * (c % cols) + c / cols + r)]
        }
        Layout::Latin => vec![grid(&|r, c| r + c), grid(&|r, c| r + n - c)],
        Layout::Regions(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
