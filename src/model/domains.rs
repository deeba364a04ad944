//! Candidate sets: the values each cell may still take, as a bitset per cell.

use crate::model::geometry::{Cell, Geometry, Value};
use crate::model::puzzle::Grid;

/// The candidate values of every cell, as a bitset per cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Domains {
    pub(crate) n: usize,
    /// Words of 64 bits per cell.
    pub(crate) words: usize,
    pub(crate) bits: Vec<u64>,
}

impl Domains {
    /// Every value possible in every cell of a grid of side `n`.
    ///
    /// # Panics
    /// If `n` is past [`MAX_SIZE`](crate::MAX_SIZE).
    pub fn full(n: usize) -> Domains {
        assert!(n <= crate::MAX_SIZE, "Domains::full: side {n} is past MAX_SIZE ({})", crate::MAX_SIZE);
        let words = n.div_ceil(64).max(1);
        let mut row = vec![0u64; words];
        for v in 0..n {
            row[v / 64] |= 1 << (v % 64);
        }
        let bits = row.iter().copied().cycle().take(words * n * n).collect();
        Domains { n, words, bits }
    }

    /// The grid side n.
    pub fn size(&self) -> usize {
        self.n
    }

    pub(crate) fn span(&self, cell: Cell) -> std::ops::Range<usize> {
        let start = cell.index() * self.words;
        start..start + self.words
    }

    /// Whether `value` is a candidate of `cell`.
    ///
    /// # Panics
    /// When `cell` is outside the grid. A value past the side is not checked
    /// here, where it costs: [`Domains::fix`] refuses one.
    pub fn contains(&self, cell: Cell, value: Value) -> bool {
        let i = value.index();
        self.bits[cell.index() * self.words + i / 64] & (1 << (i % 64)) != 0
    }

    /// Remove `value` from `cell`; whether it was there.
    ///
    /// # Panics
    /// When `cell` is outside the grid. A value past the side is not checked
    /// here, where it costs; it is in no domain, and removing it does nothing
    /// to the values of the grid.
    pub fn remove(&mut self, cell: Cell, value: Value) -> bool {
        let i = value.index();
        let word = &mut self.bits[cell.index() * self.words + i / 64];
        let bit = 1 << (i % 64);
        let had = *word & bit != 0;
        *word &= !bit;
        had
    }

    /// Make `value` the only candidate of `cell`.
    ///
    /// # Panics
    /// When `cell` is outside the grid, or `value` is past its side.
    pub fn fix(&mut self, cell: Cell, value: Value) {
        assert!(value.index() < self.n, "Domains::fix: {value} is no value of a {0}x{0} grid", self.n);
        let span = self.span(cell);
        self.bits[span].fill(0);
        let i = value.index();
        self.bits[cell.index() * self.words + i / 64] |= 1 << (i % 64);
    }

    /// How many candidates `cell` has.
    pub fn count(&self, cell: Cell) -> usize {
        if self.words == 1 {
            return self.bits[cell.index()].count_ones() as usize;
        }
        self.bits[self.span(cell)].iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The value, if exactly one is left.
    pub fn single(&self, cell: Cell) -> Option<Value> {
        if self.words == 1 {
            let word = self.bits[cell.index()];
            return word.is_power_of_two().then(|| Value::from_index(word.trailing_zeros() as usize));
        }
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
            let cell = Cell::in_grid(i);
            grid.set(cell, self.single(cell));
        }
        grid
    }

    /// The candidates the givens leave, each given's value gone from its
    /// peers and nothing more (Kwon & Jain's reduced encoding), built a unit at
    /// a time: each open cell keeps the values no given of its units holds.
    /// Clashing givens are not looked for.
    ///
    /// # Panics
    ///
    /// If `givens` is a grid of another side than `geometry`'s.
    pub fn after_givens(geometry: &Geometry, givens: &Grid) -> Domains {
        assert_eq!(givens.size(), geometry.size(), "givens of another side than the grid's");
        let mut domains = Domains::full(geometry.size());
        let words = domains.words;
        // The values the givens of each unit hold.
        let mut held = vec![0u64; geometry.units().len() * words];
        for (cell, value) in givens.filled() {
            for &u in geometry.units_of(cell) {
                held[u as usize * words + value.index() / 64] |= 1 << (value.index() % 64);
            }
        }
        for cell in geometry.cells() {
            if let Some(value) = givens.get(cell) {
                domains.fix(cell, value);
                continue;
            }
            let span = domains.span(cell);
            for &u in geometry.units_of(cell) {
                let unit_held = &held[u as usize * words..(u as usize + 1) * words];
                for (word, &h) in domains.bits[span.clone()].iter_mut().zip(unit_held) {
                    *word &= !h;
                }
            }
        }
        domains
    }

    /// Keep only the candidates `other` has too.
    pub fn restrict(&mut self, other: &Domains) {
        for (word, &keep) in self.bits.iter_mut().zip(&other.bits) {
            *word &= keep;
        }
    }

    /// Whether every cell has exactly one candidate.
    pub fn is_solved(&self) -> bool {
        if self.words == 1 {
            return self.bits.iter().all(|w| w.is_power_of_two());
        }
        (0..self.n * self.n).all(|i| self.count(Cell::in_grid(i)) == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::Layout;

    /// Givens of another side than the grid's are the caller's mistake,
    /// said as such: an empty 9×9 on a 4×4 grid gave a 4×4's candidates,
    /// and a filled one an index out of bounds.
    #[test]
    #[should_panic(expected = "givens of another side than the grid's")]
    fn givens_of_another_side_are_refused_by_name() {
        let geometry = Geometry::new(4, Layout::Boxes { rows: 2, cols: 2 }, &[]).unwrap();
        Domains::after_givens(&geometry, &Grid::empty(9));
    }
}
