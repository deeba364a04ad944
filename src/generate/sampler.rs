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
//!   depends only on the cells outside the block, so symmetry holds. Except
//!   on plain boxes and Latin squares, a block with one completion grows by
//!   a unit at a time, and the pick is kept only if it would have grown the
//!   same way (`block_move`).
//! - **A random symmetry of the grid**: a uniform element of a group of
//!   maps that carry grids to grids: relabellings of the values (all of
//!   them, or only v → n + 1 − v with the non-consecutive rule, none with
//!   clues), permutations of bands, stacks and the rows and columns within
//!   them (plain boxes and Latin squares), and the symmetries of the square
//!   that carry every unit and every neighbour rule onto itself. Drawn
//!   uniformly from a group, a move and its inverse are equally likely.
//!
//! The chain starts from the blank grid's solution (`solve`: the matchings
//! of a box layout, else the fill or varisat) and runs a fixed number of
//! steps (`steps`); how close it gets to uniform is measured, not proved:
//! on 4×4 (288 grids), Latin 4×4 (576), and grids with neighbour rules,
//! jigsaw regions and boxes of one row, a chi-squared test against the
//! uniform distribution passes (tests/integration/generate.rs).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::enumerate::Search;
use crate::model::geometry::{Cell, Geometry, Layout, Unit, Value, Variant};
use crate::model::puzzle::{Grid, Puzzle};
use crate::pipeline::{Encoding, SolveOptions};
use crate::solve::{solve, Outcome, SolveError};

use super::rng::Rng;
use super::symmetry::{preserving, Dihedral};

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
    /// The relabellings of the values that keep grids grids.
    relabel: Relabel,
    /// Whether a block with one completion grows (see `block_move`).
    grow: bool,
    /// Every grid of a small geometry with few of them, listed once: a
    /// sample is a uniform pick among them, no chain run (see `from_grid`).
    every: Option<Vec<Grid>>,
}

/// The relabellings of the values that carry every grid of a geometry to a
/// grid: a group, drawn from uniformly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Relabel {
    /// Only the identity: clues (cages, thermometers, dots ...) tie values down.
    None,
    /// The identity and v → n + 1 − v, which alone keep consecutive values
    /// consecutive (the path 1–2–…–n has no other automorphism).
    Reverse,
    /// Every permutation: units and the anti-knight and anti-king rules ask
    /// only that values differ.
    Any,
}

impl GridSampler {
    /// A sampler for `geometry`; `None` when the geometry has no full grid at
    /// all (a jigsaw layout can make one impossible).
    pub fn new(geometry: Arc<Geometry>) -> Result<Option<GridSampler>, SolveError> {
        GridSampler::new_until(geometry, None)
    }

    /// [`GridSampler::new`], giving up at `deadline` (its first grid is a
    /// solved blank grid).
    pub(crate) fn new_until(
        geometry: Arc<Geometry>,
        deadline: Option<Instant>,
    ) -> Result<Option<GridSampler>, SolveError> {
        let n = geometry.size();
        let blank = Puzzle::new(Arc::clone(&geometry), Grid::empty(n)).expect("sizes match");
        let timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()).max(Duration::from_nanos(1)));
        match solve(&blank, &SolveOptions { timeout, ..SolveOptions::default() })? {
            Outcome::Solved(grid) => Ok(Some(GridSampler::from_grid(geometry, grid)?)),
            Outcome::Unsolvable(_) => Ok(None),
            Outcome::TimedOut => Err(SolveError::TimedOut),
        }
    }

    /// A sampler for `geometry` whose chain starts from `start`, a full grid
    /// of it (checked: an error if it is not one).
    pub(crate) fn from_grid(geometry: Arc<Geometry>, start: Grid) -> Result<GridSampler, SolveError> {
        let n = geometry.size();
        let blank = Puzzle::new(Arc::clone(&geometry), Grid::empty(n)).expect("sizes match");
        let start = crate::pipeline::checked(&blank, start)?;
        // Clues (cages, thermometers, dots...) tie cells and values down:
        // no cell map or value relabelling is sure to keep them, so their
        // grids move by block moves alone.
        let clues = !geometry.constraints().is_empty();
        let plain = geometry.variants().is_empty() && geometry.extra_units().is_empty() && !clues;
        let bands = match geometry.layout() {
            Layout::Boxes { rows, cols } if plain => Some((*rows, *cols)),
            Layout::Latin if plain => Some((n, n)),
            _ => None,
        };
        let dihedral = if clues { vec![Dihedral::IDENTITY] } else { preserving(&geometry) };
        let relabel = if clues {
            Relabel::None
        } else if geometry.variants().contains(&Variant::NonConsecutive) {
            Relabel::Reverse
        } else {
            Relabel::Any
        };
        // Where rows and columns may be permuted (plain boxes and Latin
        // squares), a symmetry move carries a grid far, and blocks of two or
        // three units mix them (the chi-squared tests): growing their blocks
        // made 3 to 4 times as many searches (1,000 9×9 grids took 1.04 s
        // instead of 0.24 s, 20 16×16 grids 0.19 s instead of 0.02 s).
        let grow = bands.is_none();
        // A small grid with few grids, except plain boxes and Latin squares:
        // all of them, for an exact draw. The chain's moves need not connect
        // every grid where symmetries are few (a 4×4 with XV clues reached 16
        // of its 32 grids, the block moves between its two halves all undone
        // by their back-check), nor mix fast (a 4×4 with two kropki dots: χ²
        // 468 on 23 degrees of freedom at 3n moves).
        let every = match grow && geometry.cell_count() <= WHOLE_GRID_CELLS {
            true => {
                let options = SolveOptions { encoding: Encoding::Reduced, ..SolveOptions::default() };
                let grids: Vec<Grid> =
                    Search::new(&blank, &options).take(WHOLE_GRID_CAP + 1).collect::<Result<_, _>>()?;
                (grids.len() <= WHOLE_GRID_CAP).then_some(grids)
            }
            false => None,
        };
        Ok(GridSampler { steps: default_steps(n), geometry, start, dihedral, bands, relabel, grow, every })
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
        self.sample_until(rng, None)
    }

    /// [`GridSampler::sample`], given up ([`SolveError::TimedOut`]) once
    /// `deadline` has passed: a move is checked against it before it is made.
    pub(crate) fn sample_until(&self, rng: &mut Rng, deadline: Option<Instant>) -> Result<Grid, SolveError> {
        if let Some(every) = &self.every {
            return self.verified(every[rng.below(every.len())].clone());
        }
        let mut grid = self.symmetry_move(&self.start, rng);
        for _ in 0..self.steps {
            if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                return Err(SolveError::TimedOut);
            }
            self.block_move(&mut grid, rng, deadline)?;
            grid = self.symmetry_move(&grid, rng);
        }
        self.verified(grid)
    }

    /// `grid`, checked to be a grid of the geometry.
    fn verified(&self, grid: Grid) -> Result<Grid, SolveError> {
        crate::pipeline::checked(
            &Puzzle::new(Arc::clone(&self.geometry), Grid::empty(self.geometry.size())).expect("sizes match"),
            grid,
        )
        .map_err(SolveError::from)
    }

    /// A uniformly random element of the grid's symmetry group applied to `grid`.
    ///
    /// The group is what `from_grid` found: with clues, only the identity.
    /// Not so for the neighbour rules, which [`Geometry::has_constraints`]
    /// counts: this returned early on it, and a 4×4 anti-knight grid (its
    /// 24 grids relabellings of one another, every block of a few units
    /// with one completion) never moved.
    fn symmetry_move(&self, grid: &Grid, rng: &mut Rng) -> Grid {
        if self.relabel == Relabel::None && self.bands.is_none() && self.dihedral.len() <= 1 {
            return grid.clone();
        }
        let n = self.geometry.size();
        let values = match self.relabel {
            Relabel::Any => rng.permutation(n),
            Relabel::Reverse if rng.below(2) == 1 => (0..n).rev().collect(),
            Relabel::Reverse | Relabel::None => (0..n).collect(),
        };
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

    /// Re-solve the cells of a few random units, and of more while those
    /// have no completion but the grid's own: a uniform pick among every
    /// completion of the rest, or no move when there are too many.
    ///
    /// The block grows one random unit at a time (a unit that adds cells)
    /// while it has a single completion, and stops at the first with two or
    /// more. Without that, a grid whose blocks of two or three units all
    /// have one completion never moves by blocks (every 4×4 anti-knight
    /// grid, many 9×9 anti-knight and non-consecutive ones), and 4×4 grids
    /// with few symmetries (a jigsaw, 1×4 boxes) mixed too slowly in 3n
    /// moves. The units drawn depend on the cells already blank, never on
    /// the values. Where the block stops does: the pick y among the
    /// completions of the last block B must stop at B too, so y is kept
    /// only when each smaller block passed on the way has one completion in
    /// y as it had in the grid x. Then x and y take the same path to B,
    /// agree outside it, have the same N completions there, and
    /// P(x→y) = P(y→x) = 1/N for every sequence of units: the move stays
    /// symmetric, and the uniform distribution stationary.
    ///
    /// Past 9×9, on a geometry of units only, the completions come from a
    /// search over the blank cells alone ([`completions`]); preparing and
    /// encoding the whole grid for them, as [`Search`] does, made a 225×225
    /// grid's 675 moves take 2.3 s instead of 1 s. On 9×9 and smaller, with
    /// blocks of up to three units and up to 256 completions, the bitset
    /// search of [`Search`] lists them faster (0.61 s against 0.86 s for
    /// 3,000 grids).
    fn block_move(&self, grid: &mut Grid, rng: &mut Rng, deadline: Option<Instant>) -> Result<(), SolveError> {
        let n = self.geometry.size();
        let units = self.geometry.units();
        let (first, cap) = if n <= 9 { (2 + rng.below(2), 256) } else { (2, 64) };
        let mut in_block = vec![false; self.geometry.cell_count()];
        // Blank the cells of a unit; whether any was not blank yet.
        let add = |in_block: &mut [bool], unit: &Unit| {
            let new = unit.cells().iter().any(|c| !in_block[c.index()]);
            unit.cells().iter().for_each(|c| in_block[c.index()] = true);
            new
        };
        for _ in 0..first {
            add(&mut in_block, &units[rng.below(units.len())]);
        }
        // The blocks passed, each with the grid's completion alone, and the
        // budget of its search.
        let mut passed: Vec<(Vec<Cell>, usize)> = Vec::new();
        loop {
            let blank: Vec<Cell> = self.geometry.cells().filter(|c| in_block[c.index()]).collect();
            let budget = if passed.is_empty() { usize::MAX } else { GROWN_BUDGET_PER_CELL * blank.len() };
            match self.complete(grid, &blank, (cap, budget), rng, deadline)? {
                Completed::TooMany => return Ok(()),
                Completed::Picked(picked) => {
                    for (block, budget) in &passed {
                        if self.complete(&picked, block, (1, *budget), rng, deadline)? != Completed::Only {
                            return Ok(());
                        }
                    }
                    *grid = picked;
                    return Ok(());
                }
                Completed::Only if !self.grow || blank.len() >= GROWN_CELLS.min(in_block.len()) => return Ok(()),
                Completed::Only => {
                    passed.push((blank, budget));
                    while !add(&mut in_block, &units[rng.below(units.len())]) {}
                }
            }
        }
    }

    /// The completions of `grid` with its `blank` cells (in cell order)
    /// emptied: the grid's own alone, more than `cap`, or a uniform pick.
    /// The search stops at `deadline`: a block of a 9×9 jigsaw with
    /// non-consecutive neighbours once searched for 30 s.
    fn complete(
        &self,
        grid: &Grid,
        blank: &[Cell],
        (cap, budget): (usize, usize),
        rng: &mut Rng,
        deadline: Option<Instant>,
    ) -> Result<Completed, SolveError> {
        let mut block = grid.clone();
        for &cell in blank {
            block.set(cell, None);
        }
        let mut pick = Pick::new(cap);
        if self.geometry.size() > 9 && !self.geometry.has_constraints() {
            let filled = |values: &[Value]| {
                let mut filled = grid.clone();
                for (&cell, &value) in blank.iter().zip(values) {
                    filled.set(cell, Some(value));
                }
                filled
            };
            if !completions(&self.geometry, &block, blank, budget, |values| pick.offer(|| filled(values), rng)) {
                return Ok(Completed::TooMany);
            }
        } else {
            let puzzle = Puzzle::new(Arc::clone(&self.geometry), block).expect("sizes match");
            // The reduced encoding: the bitset search of Search needs no more than
            // the givens' eliminations, and probing would cost more than it saves here.
            let timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()).max(Duration::from_nanos(1)));
            let options = SolveOptions { encoding: Encoding::Reduced, timeout, ..SolveOptions::default() };
            for completion in Search::new(&puzzle, &options) {
                let completion = completion?;
                if !pick.offer(|| completion, rng) {
                    break;
                }
            }
        }
        Ok(match (pick.offered, pick.chosen) {
            (_, None) => Completed::TooMany,
            (1, Some(_)) => Completed::Only,
            (_, Some(picked)) => Completed::Picked(picked),
        })
    }
}

/// What [`GridSampler::complete`] found.
#[derive(Debug, PartialEq, Eq)]
enum Completed {
    /// The grid's own completion, no other.
    Only,
    /// More than the cap.
    TooMany,
    /// One of two or more, picked uniformly (the grid's own, maybe).
    Picked(Grid),
}

/// A uniform pick among the items offered one by one (reservoir sampling),
/// or none when more than `cap` are offered.
struct Pick<T> {
    cap: usize,
    offered: usize,
    chosen: Option<T>,
}

impl<T> Pick<T> {
    fn new(cap: usize) -> Pick<T> {
        Pick { cap, offered: 0, chosen: None }
    }

    /// Offer one more item (made only if it is picked); false once more than
    /// `cap` were offered, when there is no pick and nothing more to offer.
    fn offer(&mut self, item: impl FnOnce() -> T, rng: &mut Rng) -> bool {
        self.offered += 1;
        if self.offered > self.cap {
            self.chosen = None;
            return false;
        }
        if rng.below(self.offered) == 0 {
            self.chosen = Some(item());
        }
        true
    }
}

/// Every completion of `grid` on its `blank` cells (in cell order), for a
/// geometry of units only, each given to `visit` (the values of `blank`, in
/// order) until it returns false: the same completions as [`Search`] lists
/// for the puzzle, without preparing and encoding a whole grid for a block
/// of a few units.
fn completions(
    geometry: &Geometry,
    grid: &Grid,
    blank: &[Cell],
    budget: usize,
    mut visit: impl FnMut(&[Value]) -> bool,
) -> bool {
    let n = geometry.size();
    // Each cell's place in `blank`, or NONE for a filled cell.
    const NONE: u32 = u32::MAX;
    let mut slot = vec![NONE; geometry.cell_count()];
    for (i, &cell) in blank.iter().enumerate() {
        slot[cell.index()] = i as u32;
    }
    let mut block = Block {
        candidates: Vec::with_capacity(blank.len()),
        blocked: Vec::with_capacity(blank.len()),
        live: Vec::with_capacity(blank.len()),
        peers: Vec::with_capacity(blank.len()),
        values: vec![None; blank.len()],
        out: Vec::with_capacity(blank.len()),
        budget,
        gave_up: false,
    };
    let mut used = vec![false; n];
    // The blank cell each blank cell was last listed as a peer of.
    let mut listed = vec![usize::MAX; blank.len()];
    for (i, &cell) in blank.iter().enumerate() {
        used.fill(false);
        let mut peers = Vec::new();
        for &unit in geometry.units_of(cell) {
            for &other in geometry.units()[unit as usize].cells() {
                match grid.get(other) {
                    Some(value) => used[value.index()] = true,
                    None => {
                        let j = slot[other.index()] as usize;
                        if j != i && listed[j] != i {
                            listed[j] = i;
                            peers.push(j);
                        }
                    }
                }
            }
        }
        let candidates: Vec<Value> = Value::all(n).filter(|v| !used[v.index()]).collect();
        block.live.push(candidates.len());
        block.blocked.push(vec![0; candidates.len()]);
        block.candidates.push(candidates);
        block.peers.push(peers);
    }
    block.search(&mut visit);
    !block.gave_up
}

/// The search of [`completions`]: the blank cells' candidates, each blocked
/// by how many assigned peers hold it, and how many of each cell's are not.
struct Block {
    candidates: Vec<Vec<Value>>,
    blocked: Vec<Vec<u32>>,
    live: Vec<usize>,
    peers: Vec<Vec<usize>>,
    values: Vec<Option<Value>>,
    out: Vec<Value>,
    /// The values the search may still try.
    budget: usize,
    /// Whether it ran out of them.
    gave_up: bool,
}

impl Block {
    /// Decide the open cell with the fewest live candidates, each of them in
    /// turn (forward checking: a peer left with none ends the branch). False
    /// when `visit` asked to stop.
    fn search(&mut self, visit: &mut impl FnMut(&[Value]) -> bool) -> bool {
        let open = (0..self.values.len()).filter(|&i| self.values[i].is_none()).min_by_key(|&i| self.live[i]);
        let Some(i) = open else {
            self.out.clear();
            self.out.extend(self.values.iter().map(|v| v.expect("no open cell left")));
            return visit(&self.out);
        };
        for k in 0..self.candidates[i].len() {
            if self.blocked[i][k] > 0 {
                continue;
            }
            if self.budget == 0 {
                self.gave_up = true;
                return false;
            }
            self.budget -= 1;
            let value = self.candidates[i][k];
            self.values[i] = Some(value);
            let alive = self.block(i, value, true);
            let go_on = !alive || self.search(visit);
            self.block(i, value, false);
            self.values[i] = None;
            if !go_on {
                return false;
            }
        }
        true
    }

    /// Block (`on`) or unblock `value` in the open peers of cell `i`; whether
    /// every open peer still has a live candidate.
    fn block(&mut self, i: usize, value: Value, on: bool) -> bool {
        let mut alive = true;
        for p in 0..self.peers[i].len() {
            let j = self.peers[i][p];
            if self.values[j].is_some() {
                continue;
            }
            let Some(k) = self.candidates[j].iter().position(|&v| v == value) else { continue };
            let count = &mut self.blocked[j][k];
            if on {
                *count += 1;
                if *count == 1 {
                    self.live[j] -= 1;
                }
            } else {
                *count -= 1;
                if *count == 0 {
                    self.live[j] += 1;
                }
            }
            alive &= self.live[j] > 0;
        }
        alive
    }
}

/// The values the search of a grown block may try, per blank cell: past
/// them it gives up, and the block counts as one with too many completions.
const GROWN_BUDGET_PER_CELL: usize = 64;

/// A block of this many cells grows no more (nor a block that covers the
/// grid): past it each search of a block costs milliseconds, and without
/// this bound a random 64×64 jigsaw grid took 0.7 s instead of 0.27 s
/// (0.1 s with no growing at all).
const GROWN_CELLS: usize = 256;

/// Geometries of at most this many cells (6×6), where symmetries are few,
/// are drawn among all their grids when there are at most
/// [`WHOLE_GRID_CAP`], listed once per sampler: a search of 257 grids of a
/// 6×6 with killer cages takes about 13 ms, of a 9×9 about a second.
const WHOLE_GRID_CELLS: usize = 36;
const WHOLE_GRID_CAP: usize = 256;

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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// The completions the block search lists are exactly those [`Search`]
    /// enumerates for the same puzzle, on blocks of two and three random
    /// units of boxed, oblong, X, disjoint-groups and Latin grids.
    #[test]
    fn block_search_lists_the_same_completions_as_the_search() {
        let geometries = [
            Geometry::classic(9).unwrap(),
            Geometry::new(12, Layout::Boxes { rows: 3, cols: 4 }, &[]).unwrap(),
            Geometry::classic(16).unwrap(),
            Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::X, Variant::DisjointGroups]).unwrap(),
            Geometry::latin(7).unwrap(),
        ];
        let options = SolveOptions { encoding: Encoding::Reduced, ..SolveOptions::default() };
        let mut compared = 0;
        for geometry in geometries {
            let geometry = Arc::new(geometry);
            let sampler = GridSampler::new(Arc::clone(&geometry)).unwrap().unwrap();
            let mut rng = Rng::new(11);
            for round in 0..12 {
                let full = sampler.sample(&mut rng).unwrap();
                let mut block = full.clone();
                for _ in 0..2 + round % 2 {
                    let units = geometry.units();
                    for &cell in units[rng.below(units.len())].cells() {
                        block.set(cell, None);
                    }
                }
                let blank: Vec<Cell> = geometry.cells().filter(|&cell| block.get(cell).is_none()).collect();
                let mut listed = Vec::new();
                completions(&geometry, &block, &blank, usize::MAX, |values| {
                    listed.push(values.to_vec());
                    listed.len() <= 5000
                });
                let puzzle = Puzzle::new(Arc::clone(&geometry), block).unwrap();
                let mut searched: Vec<Vec<Value>> = Search::new(&puzzle, &options)
                    .take(5001)
                    .map(|grid| blank.iter().map(|&cell| grid.as_ref().unwrap().get(cell).unwrap()).collect())
                    .collect();
                if searched.len() > 5000 {
                    continue;
                }
                assert!(listed.contains(&blank.iter().map(|&cell| full.get(cell).unwrap()).collect()));
                listed.sort();
                searched.sort();
                assert_eq!(listed, searched, "{}: round {round}", geometry.describe());
                compared += 1;
            }
        }
        assert!(compared >= 40, "only {compared} blocks compared");
    }

    /// Block moves are symmetric, growing blocks included. From each grid x
    /// of a 4×4 jigsaw (144 grids) and of the Latin squares of order 4 with
    /// the anti-knight rule (96), 200 moves, T(x→y) of them to y:
    /// - the uniform distribution is stationary: each grid is arrived at
    ///   200 times, give or take (a chi-squared over the grids: the
    ///   arrivals at y are a sum of binomials, of variance under 200);
    /// - T(x→y) and T(y→x) are alike: given their sum, each is binomial
    ///   with p = 1/2, so (T(x→y) − T(y→x))² / (T(x→y) + T(y→x)) has mean 1
    ///   and variance under 2, and the sum over the pairs is tested as a
    ///   chi-squared.
    ///
    /// Keeping the pick without checking that it would have grown the same
    /// way fails both on the jigsaw: arrivals chi-squared 880 (critical
    /// 201), pairs 2,730 on 2,373 (critical 2,592).
    /// A block's completions are searched within the deadline: a 9×9
    /// jigsaw with non-consecutive neighbours once searched one for 30 s
    /// past `generate --timeout 20`.
    #[test]
    fn a_block_move_stops_at_the_deadline() {
        let geometry = Arc::new(Geometry::new(9, Layout::Latin, &[Variant::NonConsecutive]).unwrap());
        let sampler = GridSampler::new(Arc::clone(&geometry)).unwrap().unwrap();
        let mut grid = sampler.sample(&mut Rng::new(1)).unwrap();
        let past = Some(Instant::now() - Duration::from_secs(1));
        let moved = sampler.block_move(&mut grid, &mut Rng::new(2), past);
        assert!(matches!(moved, Err(SolveError::TimedOut)), "{moved:?}");
    }

    #[test]
    fn block_moves_are_symmetric() {
        const MOVES: u32 = 200;
        // The upper 0.1% of chi-squared with `df` degrees of freedom (Wilson–Hilferty).
        let critical = |df: usize| {
            let k = df as f64;
            k * (1.0 - 2.0 / (9.0 * k) + 3.0902 * (2.0 / (9.0 * k)).sqrt()).powi(3)
        };
        let jigsaw = "AAABABBBCCCDCDDD".bytes().map(|b| u32::from(b - b'A')).collect();
        for geometry in
            [Geometry::new(4, Layout::Regions(jigsaw), &[]), Geometry::new(4, Layout::Latin, &[Variant::AntiKnight])]
        {
            let geometry = Arc::new(geometry.unwrap());
            let what = geometry.describe();
            let sampler = GridSampler::new(Arc::clone(&geometry)).unwrap().unwrap();
            let blank = Puzzle::new(Arc::clone(&geometry), Grid::empty(4)).unwrap();
            let grids: Vec<Grid> = Search::new(&blank, &SolveOptions::default()).map(Result::unwrap).collect();
            let index: HashMap<&Grid, usize> = grids.iter().enumerate().map(|(i, grid)| (grid, i)).collect();
            let mut moves: HashMap<(usize, usize), u32> = HashMap::new();
            let mut rng = Rng::new(5);
            for (i, x) in grids.iter().enumerate() {
                for _ in 0..MOVES {
                    let mut y = x.clone();
                    sampler.block_move(&mut y, &mut rng, None).unwrap();
                    *moves.entry((i, index[&y])).or_insert(0) += 1;
                }
            }
            let mut arrivals = vec![0; grids.len()];
            moves.iter().for_each(|(&(_, y), &k)| arrivals[y] += k);
            let m = f64::from(MOVES);
            let chi: f64 = arrivals.iter().map(|&k| (f64::from(k) - m).powi(2) / m).sum();
            eprintln!("{what}: arrivals chi-squared {chi:.1} on {} grids", grids.len());
            assert!(chi < critical(grids.len() - 1), "{what}: arrivals chi-squared {chi:.1}");
            let (mut chi, mut pairs) = (0.0, 0);
            for (&(x, y), &a) in moves.iter().filter(|((x, y), _)| x != y) {
                let b = moves.get(&(y, x)).copied().unwrap_or(0);
                // Each pair once: from its first grid, or from the second when
                // the first never moved to it.
                if x < y || b == 0 {
                    chi += f64::from(a.abs_diff(b)).powi(2) / f64::from(a + b);
                    pairs += 1;
                }
            }
            eprintln!("{what}: pairs chi-squared {chi:.1} on {pairs} pairs");
            assert!(pairs >= 100, "{what}: moves between only {pairs} pairs of grids");
            assert!(chi < critical(pairs), "{what}: chi-squared {chi:.1} on {pairs} pairs");
        }
    }
}
