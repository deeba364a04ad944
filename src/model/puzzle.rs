//! Grids of values and puzzles: a geometry plus its givens.

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::GeometryError;
use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry, Layout, Value, Variant};
use crate::model::verify::{verify, Violation};

/// An n×n grid of values, some cells possibly empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    n: usize,
    cells: Vec<Option<Value>>,
}

impl Grid {
    /// An empty grid of side `n`.
    ///
    /// # Panics
    /// If `n` is past [`MAX_SIZE`](crate::MAX_SIZE): such a grid was an
    /// allocation of terabytes, and an abort.
    pub fn empty(n: usize) -> Grid {
        assert!(n <= crate::MAX_SIZE, "Grid::empty: side {n} is past MAX_SIZE ({})", crate::MAX_SIZE);
        Grid { n, cells: vec![None; n * n] }
    }

    /// A grid from its cells in row-major order; `None` unless there are n² of them.
    pub fn from_cells(n: usize, cells: Vec<Option<Value>>) -> Option<Grid> {
        (Some(cells.len()) == n.checked_mul(n) && cells.iter().flatten().all(|v| v.number() <= n))
            .then_some(Grid { n, cells })
    }

    /// The side n.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The value of `cell`, if it has one.
    ///
    /// # Panics
    /// When `cell` is outside the grid.
    pub fn get(&self, cell: Cell) -> Option<Value> {
        self.cells[cell.index()]
    }

    /// Fill or empty `cell`.
    ///
    /// # Panics
    /// When `cell` is outside the grid, or `value` is past its side (a 9 in
    /// a 4×4): a grid holds only its own values, as [`Grid::from_cells`] checks.
    pub fn set(&mut self, cell: Cell, value: Option<Value>) {
        if let Some(value) = value {
            assert!(value.number() <= self.n, "Grid::set: {value} is no value of a {0}x{0} grid", self.n);
        }
        self.cells[cell.index()] = value;
    }

    /// Every cell, row-major.
    pub fn cells(&self) -> &[Option<Value>] {
        &self.cells
    }

    /// The filled cells and their values.
    pub fn filled(&self) -> impl Iterator<Item = (Cell, Value)> + '_ {
        self.cells.iter().enumerate().filter_map(|(i, v)| v.map(|v| (Cell::from_index(i), v)))
    }

    /// How many cells are filled.
    pub fn filled_count(&self) -> usize {
        self.cells.iter().filter(|v| v.is_some()).count()
    }

    /// Whether every cell is filled.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }
}

/// A puzzle: the grid it is played on, its givens, and (for a pencil-mark
/// puzzle) the candidates each cell may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    geometry: Arc<Geometry>,
    givens: Grid,
    candidates: Option<Arc<Domains>>,
}

impl Puzzle {
    /// A puzzle; `None` when the givens' size differs from the geometry's.
    pub fn new(geometry: Arc<Geometry>, givens: Grid) -> Option<Puzzle> {
        (geometry.size() == givens.size()).then_some(Puzzle { geometry, givens, candidates: None })
    }

    /// A pencil-mark puzzle: every solution holds, in each cell, one of its
    /// `candidates` (and the givens); `None` when the sizes differ.
    pub fn with_candidates(geometry: Arc<Geometry>, givens: Grid, candidates: Domains) -> Option<Puzzle> {
        let sizes = geometry.size() == givens.size() && geometry.size() == candidates.size();
        sizes.then(|| Puzzle { geometry, givens, candidates: Some(Arc::new(candidates)) })
    }

    /// The candidates of a pencil-mark puzzle.
    pub fn candidates(&self) -> Option<&Domains> {
        self.candidates.as_deref()
    }

    /// Check that `solution` solves the puzzle: every unit holds each value
    /// once, every given is kept, every cell holds one of its candidates.
    pub fn check(&self, solution: &Grid) -> Result<(), Violation> {
        verify(&self.geometry, &self.givens, solution)?;
        match &self.candidates {
            Some(candidates) => match self.geometry.cells().find_map(|cell| {
                solution.get(cell).filter(|&value| !candidates.contains(cell, value)).map(|value| (cell, value))
            }) {
                Some((cell, value)) => Err(Violation::NotACandidate { cell, value }),
                None => Ok(()),
            },
            None => Ok(()),
        }
    }

    /// The candidates the givens (and pencil marks) leave: each given's value
    /// gone from its peers, nothing more.
    pub fn initial_domains(&self) -> Domains {
        let mut domains = Domains::after_givens(&self.geometry, &self.givens);
        if let Some(candidates) = &self.candidates {
            domains.restrict(candidates);
        }
        domains
    }

    /// The grid it is played on.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    /// Its givens.
    pub fn givens(&self) -> &Grid {
        &self.givens
    }

    /// The side n.
    pub fn size(&self) -> usize {
        self.geometry.size()
    }
}

/// How to build the geometry of a puzzle whose size is known only once it is
/// read: the options `--box`, `--latin`, `--regions`, `--variant` and `--grid`.
#[derive(Clone, Debug, Default)]
pub struct GeometrySpec {
    /// A definition with a fixed size (`--grid`, `--regions`, `--box`).
    fixed: Option<Arc<Geometry>>,
    /// What fixed it, for messages (`--regions map.txt`).
    fixed_by: Option<String>,
    latin: bool,
    variants: Vec<Variant>,
    /// The geometries built, by size and box shape (rows, columns); (0, 0)
    /// for Latin squares.
    cache: HashMap<(usize, usize, usize), Arc<Geometry>>,
}

impl GeometrySpec {
    /// Classic boxes of the default shape for whatever size the puzzle has.
    pub fn classic() -> GeometrySpec {
        GeometrySpec::default()
    }

    /// Latin squares of whatever size the puzzle has.
    pub fn latin() -> GeometrySpec {
        GeometrySpec { latin: true, ..GeometrySpec::default() }
    }

    /// Always this geometry; puzzles of another size are refused.
    pub fn fixed(geometry: Arc<Geometry>) -> GeometrySpec {
        GeometrySpec { fixed: Some(geometry), ..GeometrySpec::default() }
    }

    /// Add the units of `variants` to every inferred geometry.
    pub fn with_variants(mut self, variants: &[Variant]) -> GeometrySpec {
        self.variants = variants.to_vec();
        self.cache.clear();
        self
    }

    /// Whether a puzzle that brings its own regions (a row of a jigsaw
    /// file) keeps them: not when the spec fixes the layout (`--box`,
    /// `--latin`, `--regions`, `--grid`), which then wins.
    pub fn takes_row_regions(&self) -> bool {
        self.fixed.is_none() && !self.latin
    }

    /// A jigsaw of side `n` with these regions (0-based, row-major), for a
    /// puzzle that brings its own, with the spec's variants (see
    /// [`Self::takes_row_regions`]).
    pub fn jigsaw(&self, n: usize, regions: Vec<u32>) -> Result<Arc<Geometry>, GeometryError> {
        Geometry::new(n, Layout::Regions(regions), &self.variants).map(Arc::new)
    }

    /// Whether every puzzle is a Latin square (`--latin`), whatever its side.
    pub(crate) fn is_latin(&self) -> bool {
        self.latin
    }

    /// The size every puzzle must have, when the definition fixes it.
    pub fn fixed_size(&self) -> Option<usize> {
        self.fixed.as_ref().map(|g| g.size())
    }

    /// Name what fixed the geometry (`--regions map.txt`), for messages
    /// about puzzles of another size.
    pub fn fixed_by(mut self, source: impl Into<String>) -> GeometrySpec {
        self.fixed_by = Some(source.into());
        self
    }

    /// What chose a grid other than classic boxes of each puzzle's size,
    /// if anything did: the option that fixed it (`--box 2x3`), `--latin`,
    /// or the variants (`--variant x`).
    pub fn chosen_by(&self) -> Option<String> {
        if self.fixed.is_some() {
            return Some(self.fixed_by.clone().unwrap_or_else(|| "a fixed grid".into()));
        }
        if self.latin {
            return Some("--latin".into());
        }
        let variants: Vec<String> = self.variants.iter().map(|v| format!("--variant {v}")).collect();
        (!variants.is_empty()).then(|| variants.join(" "))
    }

    /// What fixed the geometry, when named.
    pub fn fixed_source(&self) -> Option<&str> {
        self.fixed_by.as_deref()
    }

    /// The geometry for a puzzle of side `n`.
    pub fn geometry_for(&mut self, n: usize) -> Result<Arc<Geometry>, GeometryError> {
        self.geometry_drawn(n, None)
    }

    /// The geometry for a puzzle of side `n` drawn with boxes of `drawn`
    /// (rows, columns), as its box rules show them (`|` every 2 columns,
    /// a rule line every 3 rows: 3×2 boxes in a 6×6). The options come
    /// first: a fixed grid or `--latin` is kept whatever was drawn, and
    /// with nothing drawn the boxes are the default shape.
    pub fn geometry_drawn(&mut self, n: usize, drawn: Option<(usize, usize)>) -> Result<Arc<Geometry>, GeometryError> {
        if let Some(g) = &self.fixed {
            if g.size() != n {
                return Err(GeometryError::SizeMismatch { expected: g.size(), found: n });
            }
            return Ok(Arc::clone(g));
        }
        let (rows, cols) = match (self.latin, drawn) {
            (true, _) => (0, 0),
            (false, Some((rows, cols))) if rows * cols == n && rows > 1 && cols > 1 => (rows, cols),
            (false, _) => crate::model::geometry::default_box(n)?,
        };
        if let Some(g) = self.cache.get(&(n, rows, cols)) {
            return Ok(Arc::clone(g));
        }
        let layout = if self.latin { Layout::Latin } else { Layout::Boxes { rows, cols } };
        let g = Arc::new(Geometry::new(n, layout, &self.variants)?);
        self.cache.insert((n, rows, cols), Arc::clone(&g));
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid holds only its own values: a 9 set in a 4×4 is refused where
    /// it is set (it was kept, and solving the puzzle panicked deep inside).
    /// Past MAX_SIZE a grid is refused (it was an allocation of terabytes
    /// and an abort), and cells whose count n² overflows make no grid.
    #[test]
    #[should_panic(expected = "Grid::empty: side 1000000 is past MAX_SIZE")]
    fn a_grid_past_the_largest_side_is_refused() {
        assert_eq!(Grid::from_cells(1 << 32, Vec::new()), None);
        Grid::empty(1_000_000);
    }

    #[test]
    #[should_panic(expected = "Grid::set: 9 is no value of a 4x4 grid")]
    fn a_value_past_the_side_is_refused_where_it_is_set() {
        let mut grid = Grid::empty(4);
        grid.set(Cell::from_index(0), Value::new_checked(4, 4));
        grid.set(Cell::from_index(1), Value::new_checked(9, 9));
    }

    #[test]
    fn spec_infers_and_caches_by_size() {
        let mut spec = GeometrySpec::classic();
        let a = spec.geometry_for(6).unwrap();
        assert_eq!(a.layout(), &Layout::Boxes { rows: 2, cols: 3 });
        assert!(Arc::ptr_eq(&a, &spec.geometry_for(6).unwrap()));
        assert!(matches!(spec.geometry_for(7), Err(GeometryError::Prime { n: 7 })));
        assert_eq!(GeometrySpec::latin().geometry_for(7).unwrap().layout(), &Layout::Latin);
    }

    #[test]
    fn fixed_spec_refuses_other_sizes() {
        let mut spec = GeometrySpec::fixed(Arc::new(Geometry::classic(9).unwrap()));
        assert!(spec.geometry_for(9).is_ok());
        assert!(matches!(spec.geometry_for(4), Err(GeometryError::SizeMismatch { expected: 9, found: 4 })));
    }
}
