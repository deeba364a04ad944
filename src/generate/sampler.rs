//! Random full grids, close to uniform: a Markov chain whose stationary
//! distribution is exactly uniform over the grids of a geometry.
//!
//! Two kinds of move, each symmetric (the chance of going from grid x to
//! grid y is the chance of going from y to x), so the uniform distribution
//! is stationary (detailed balance):
//!
//! - **Re-solve a block** (a heat-bath, or block Gibbs, move): blank the
//!   cells of a few random units, list every completion of the rest, and
//!   pick one uniformly (reservoir sampling). x and y that agree outside the
//!   block have the same completions, so P(x→y) = P(y→x) = 1/N. When there
//!   are more than a cap of completions the move stays put; that test too
//!   depends only on the cells outside the block, so symmetry holds.
//! - **A random symmetry of the grid**: a uniform relabelling of the values,
//!   and, where the geometry allows, uniform permutations of bands, stacks
//!   and the rows and columns within them, and the symmetries of the square
//!   that carry units onto units. Drawn uniformly from a group, a move and
//!   its inverse are equally likely.
//!
//! The chain starts from a grid varisat finds and runs a fixed number of
//! steps (`steps`); how close it gets to uniform is measured, not proved:
//! on 4×4 (288 grids) and Latin 4×4 (576) a chi-squared test against the
//! uniform distribution passes (tests/integration/generate.rs), and the
//! same chain without its steps fails it.

use std::sync::Arc;

use crate::enumerate::Search;
use crate::model::geometry::{Geometry, Layout, Value};
use crate::model::puzzle::{Grid, Puzzle};
use crate::pipeline::SolveOptions;
use crate::solve::{solve, Outcome, SolveError};

use super::rng::Rng;
use super::symmetry::{unit_preserving, Dihedral};

/// Random full grids of one geometry.
///
/// ```
/// use std::sync::Arc;
/// use satdoku::{Geometry, GridSampler, Rng};
///
/// let sampler = GridSampler::new(Arc::new(Geometry::classic(9)?))?.expect("a 9x9 has grids");
/// let grid = sampler.sample(&mut Rng::new(1))?;
/// assert!(grid.is_complete());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct GridSampler {
    geometry: Arc<Geometry>,
    start: Grid,
    steps: usize,
    dihedral: Vec<Dihedral>,
    /// Rows per band and columns per stack, when rows may be permuted within
    /// bands and bands among themselves (and columns likewise).
    bands: Option<(usize, usize)>,
}

impl GridSampler {
    /// A sampler for `geometry`; `None` when the geometry has no full grid at
    /// all (a jigsaw layout can make one impossible).
    pub fn new(geometry: Arc<Geometry>) -> Result<Option<GridSampler>, SolveError> {
        let n = geometry.size();
        let blank = Puzzle::new(Arc::clone(&geometry), Grid::empty(n)).expect("sizes match");
        let start = match solve(&blank, &SolveOptions::default())? {
            Outcome::Solved(grid) => grid,
            Outcome::Unsolvable(_) => return Ok(None),
            Outcome::TimedOut => return Err(SolveError::TimedOut),
        };
        let plain = geometry.variants().is_empty() && geometry.extra_units().is_empty();
        let bands = match geometry.layout() {
            Layout::Boxes { rows, cols } if plain => Some((*rows, *cols)),
            Layout::Latin if plain => Some((n, n)),
            _ => None,
        };
        let dihedral = unit_preserving(&geometry);
        Ok(Some(GridSampler { steps: default_steps(n), geometry, start, dihedral, bands }))
    }

    /// The same sampler, making `steps` block moves per grid (0: only a random
    /// symmetry of one fixed grid, far from uniform).
    pub fn with_steps(self, steps: usize) -> GridSampler {
        GridSampler { steps, ..self }
    }

    /// The block moves made per grid.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The geometry.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    /// A random full grid, verified.
    pub fn sample(&self, rng: &mut Rng) -> Result<Grid, SolveError> {
        let mut grid = self.symmetry_move(&self.start, rng);
        for _ in 0..self.steps {
            self.block_move(&mut grid, rng)?;
            grid = self.symmetry_move(&grid, rng);
        }
        crate::pipeline::checked(
            &Puzzle::new(Arc::clone(&self.geometry), Grid::empty(self.geometry.size())).expect("sizes match"),
            grid,
        )
        .map_err(SolveError::from)
    }

    /// A uniformly random element of the grid's symmetry group applied to `grid`.
    fn symmetry_move(&self, grid: &Grid, rng: &mut Rng) -> Grid {
        // Variant clues (cages, dots, parity, sums ...) are not kept by
        // relabelling values or turning the grid: only block moves then.
        if self.geometry.has_constraints() {
            return grid.clone();
        }
        let n = self.geometry.size();
        let values = rng.permutation(n);
        let (rows, cols) = match self.bands {
            Some((r, c)) => (band_permutation(n, r, rng), band_permutation(n, c, rng)),
            None => ((0..n).collect(), (0..n).collect()),
        };
        let d = match self.dihedral.len() {
            0 => Dihedral::IDENTITY,
            k => self.dihedral[rng.below(k)],
        };
        let mut out = Grid::empty(n);
        for (r, &row) in rows.iter().enumerate() {
            for (c, &col) in cols.iter().enumerate() {
                let (sr, sc) = d.apply(n, (row, col));
                let value = grid.get(self.geometry.cell(sr, sc)).map(|v| Value::from_index(values[v.index()]));
                out.set(self.geometry.cell(r, c), value);
            }
        }
        out
    }

    /// Re-solve the cells of a few random units: a uniform pick among every
    /// completion of the rest, or no move when there are too many.
    fn block_move(&self, grid: &mut Grid, rng: &mut Rng) -> Result<(), SolveError> {
        let n = self.geometry.size();
        let units = self.geometry.units();
        let (count, cap) = if n <= 9 { (2 + rng.below(2), 256) } else { (2, 64) };
        let mut block = grid.clone();
        for _ in 0..count {
            for &cell in units[rng.below(units.len())].cells() {
                block.set(cell, None);
            }
        }
        let puzzle = Puzzle::new(Arc::clone(&self.geometry), block).expect("sizes match");
        let mut chosen = None;
        for (i, completion) in Search::new(&puzzle, &SolveOptions::default()).take(cap + 1).enumerate() {
            let completion = completion?;
            if i == cap {
                return Ok(());
            }
            if rng.below(i + 1) == 0 {
                chosen = Some(completion);
            }
        }
        if let Some(chosen) = chosen {
            *grid = chosen;
        }
        Ok(())
    }
}

/// Block moves per grid by default: 3n (a few moves per unit).
fn default_steps(n: usize) -> usize {
    3 * n
}

/// A uniform permutation of `0..n` that keeps blocks of `size` together:
/// the blocks permuted, and the members of each.
fn band_permutation(n: usize, size: usize, rng: &mut Rng) -> Vec<usize> {
    let bands = rng.permutation(n / size);
    let mut out = Vec::with_capacity(n);
    for &band in &bands {
        let inner = rng.permutation(size);
        out.extend(inner.iter().map(|&i| band * size + i));
    }
    out
}
