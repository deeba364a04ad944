//! The variable map: which variable stands for which (cell, value), the one place that knows.

use varisat::Var;

use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry, Value};
use crate::model::puzzle::Grid;

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

    /// The grid side n.
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
