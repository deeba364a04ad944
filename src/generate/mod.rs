//! Puzzle generation: random full grids close to uniform, proper and minimal
//! puzzles, a number of givens in a range, symmetric patterns of givens, and
//! random jigsaw layouts; every puzzle made is checked unique before it is
//! returned.
//!
//! How a puzzle is made (one try):
//! 1. a random full grid S ([`GridSampler`]);
//! 2. the cells (or, with a [`Symmetry`], the orbits of cells) in a random
//!    order; the shortest prefix of that order under which S is the only
//!    solution, found by binary search (uniqueness only grows with givens);
//!    that is a proper puzzle ([`Kind::Proper`]);
//! 3. for a minimal puzzle ([`Kind::Minimal`]), each given of the prefix in
//!    random order is dropped when S stays unique without it;
//! 4. for a number of givens in a range, random cells of S are added to a
//!    minimal puzzle up to the range; a minimal puzzle above the range is
//!    thrown away and the next try starts.
//!
//! Every question "unique?" is one call of one incremental varisat solver
//! ([`UniquenessChecker`]), with the givens as assumptions. From 16×16 on,
//! the questions of a minimal puzzle (steps 2 and 3) are bounded by
//! [`GenerateOptions::question_conflicts`]: one past it is taken as "not
//! unique", which keeps a given, so the puzzle stays proven unique but may
//! keep a given it could do without ([`Generated::unproven`]).

mod jigsaw;
mod rng;
mod sampler;
mod symmetry;
mod unique;

use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::enumerate::Search;
use crate::error::{GeometryError, InternalError};
use crate::model::geometry::{Cell, Geometry, Layout, Variant, MAX_SIZE};
use crate::model::puzzle::{Grid, Puzzle};
use crate::pipeline::SolveOptions;
use crate::solve::SolveError;

pub use jigsaw::random_regions;
use jigsaw::{
    random_regions_until, regions_for_grid, start_layout, start_regions, GRID_SWAPS_PER_CELL, GRID_WALK_MIN_SIDE,
};
pub use rng::Rng;
pub use sampler::GridSampler;
pub use symmetry::Symmetry;
pub use unique::{Minimized, UniquenessChecker};

/// The default of [`GenerateOptions::question_conflicts`]. A question on a
/// 16×16 takes about 0.1 ms a conflict; those of minimal 16×16 puzzles with
/// disjoint groups took up to 34,000 (3.6 s), where a plain 16×16's took at
/// most a few hundred.
pub const QUESTION_CONFLICTS: u64 = 1000;

/// The smallest side whose minimal puzzles' questions are bounded by
/// [`GenerateOptions::question_conflicts`]. Bounded answers need a fresh
/// solver for each grid (else they would depend on the puzzles made before,
/// and `--jobs` would change the puzzles): 5 ms for a 16×16, which makes
/// a minimal puzzle in 0.1 s or more, but 0.5 ms for a 9×9, whose minimal
/// puzzles take 3 ms, and whose questions take a few dozen conflicts.
pub const BOUNDED_FROM_SIDE: usize = 16;

/// What [`Generator`] makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Full grids.
    Solved,
    /// Puzzles with exactly one solution.
    Proper,
    /// Proper puzzles every given of which is needed: removing any one (any
    /// orbit, with a symmetry) leaves more than one solution.
    #[default]
    Minimal,
}

/// Where the grids come from.
#[derive(Clone, Debug)]
pub enum Layouts {
    /// Always this geometry.
    Fixed(Arc<Geometry>),
    /// A new random jigsaw layout of side `n` for every puzzle
    /// ([`random_regions`]), with the units of `variants` on top.
    RandomRegions {
        /// The side.
        n: usize,
        /// Extra units laid over the regions.
        variants: Vec<Variant>,
    },
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Full grids, proper or minimal puzzles.
    pub kind: Kind,
    /// The number of givens wanted (cells, not orbits).
    pub givens: Option<RangeInclusive<usize>>,
    /// The symmetry of the pattern of givens.
    pub symmetry: Symmetry,
    /// Block moves of the grid sampler per grid (`None`: its default, 3n).
    pub steps: Option<usize>,
    /// Grids tried per puzzle before giving up on a range of givens.
    pub tries: usize,
    /// Give up on a puzzle after this long ([`SolveError::TimedOut`]): read
    /// by the uniqueness questions and the final check, which are where the
    /// time goes on big grids.
    pub timeout: Option<Duration>,
    /// The conflicts varisat may spend on one question "unique?" of a
    /// minimal puzzle (not of a proper one) on grids from
    /// [`BOUNDED_FROM_SIDE`] on, before it is taken as "not unique": the
    /// given asked about is kept ([`Generated::unproven`]), and a prefix of
    /// the order of givens grows. `None`: every question is answered, and
    /// every minimal puzzle is proven minimal, however long it takes (a
    /// 16×16 with disjoint groups: up to 40 s; with X too, more than two
    /// minutes). Default:
    /// [`QUESTION_CONFLICTS`].
    pub question_conflicts: Option<u64>,
    /// The largest uniqueness checker built, in literals
    /// ([`SolveOptions::max_literals`], the same default): its formula is
    /// the blank grid's full encoding, O(n⁴) (a blank 256×256's is past 4
    /// GB), refused with [`SolveError::GridTooLarge`] before anything is built
    /// for it. Full grids ([`Kind::Solved`]) need none.
    pub max_literals: u64,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            kind: Kind::default(),
            givens: None,
            symmetry: Symmetry::None,
            steps: None,
            tries: 1000,
            timeout: None,
            question_conflicts: Some(QUESTION_CONFLICTS),
            max_literals: crate::pipeline::DEFAULT_MAX_LITERALS,
        }
    }
}

/// A puzzle made, with its one solution.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle: its grid (a random jigsaw layout included) and givens.
    pub puzzle: Puzzle,
    /// Its solution (for [`Kind::Solved`], the grid itself).
    pub solution: Grid,
    /// The grids tried before this one fitted (1 at best).
    pub tries: usize,
    /// The questions "unique?" put to the incremental solver.
    pub solver_calls: u64,
    /// The givens (orbits, with a symmetry) of a minimal puzzle kept
    /// because their question ran past [`GenerateOptions::question_conflicts`]:
    /// the puzzle may have fewer givens and stay unique. 0 for a proven
    /// minimal puzzle, a proper one, and a full grid.
    pub unproven: usize,
    /// Whether every given (orbit, with a symmetry) is shown needed: the
    /// puzzle loses its uniqueness without any one of them. `None` where
    /// no minimal puzzle was asked for (a proper one without `givens`, a
    /// full grid); `Some(false)` for a minimal puzzle with givens kept
    /// [`unproven`](Self::unproven), or with givens added up to
    /// [`GenerateOptions::givens`].
    pub minimal: Option<bool>,
}

/// Why no puzzle was made.
#[derive(Debug, Error)]
pub enum GenerateError {
    /// The geometry has no full grid, so no puzzle.
    #[error("the grid ({0}) has no solution at all, so no puzzle")]
    NoGrid(String),
    /// No jigsaw layout with a solution was found.
    #[error("no random {n}x{n} jigsaw layout with a solution in {tries} tries")]
    NoLayout {
        /// The side.
        n: usize,
        /// Layouts tried.
        tries: usize,
    },
    /// No puzzle had a number of givens in the range.
    #[error("no puzzle with {} givens in {tries} tries (the fewest were {fewest}; --tries gives more)", range_text(.wanted))]
    Unreachable {
        /// The range asked for.
        wanted: RangeInclusive<usize>,
        /// Grids tried.
        tries: usize,
        /// The fewest givens of a minimal puzzle met.
        fewest: usize,
    },
    /// The geometry could not be built.
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// A search failed (out of time, or a bug).
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// The fewest givens a proper puzzle of `geometry` can have, as far as it
/// is known, with the reason. Where every rule only keeps cells apart
/// (units, anti-knight, anti-king), two values that no given shows can
/// trade places in any solution, so a puzzle with one solution shows n − 1
/// of them at least. The classic 9×9 needs 17: McGuire, Tugemann and
/// Civario's exhaustive search found no puzzle with 16 (2012). Rules that
/// tell values apart (non-consecutive, clues) have no bound here: 0.
///
/// ```
/// use satdoku::{fewest_proper_givens, Geometry};
///
/// assert_eq!(fewest_proper_givens(&Geometry::classic(9)?).0, 17);
/// assert_eq!(fewest_proper_givens(&Geometry::latin(7)?).0, 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn fewest_proper_givens(geometry: &Geometry) -> (usize, &'static str) {
    let n = geometry.size();
    let apart = geometry.constraints().is_empty() && !geometry.variants().contains(&Variant::NonConsecutive);
    if !apart {
        return (0, "its rules tell values apart");
    }
    let classic = *geometry.layout() == (Layout::Boxes { rows: 3, cols: 3 })
        && geometry.variants().is_empty()
        && geometry.extra_units().is_empty();
    match classic {
        true => (17, "McGuire, Tugemann and Civario's exhaustive search (2012) found no classic 9x9 puzzle of 16 with one solution"),
        false => (n.saturating_sub(1), "with fewer, two values that no given shows could trade places in any solution"),
    }
}

fn range_text(range: &RangeInclusive<usize>) -> String {
    match range.start() == range.end() {
        true => range.start().to_string(),
        false => format!("{}..{}", range.start(), range.end()),
    }
}

/// Makes puzzles. The `index`-th puzzle of a run with a seed depends only on
/// the seed and the index (each draws from its own random stream), so a run
/// split over threads makes the same puzzles as one thread.
///
/// ```
/// use std::sync::Arc;
/// use satdoku::{count_up_to, GenerateOptions, Generator, Geometry, Layouts, SolveOptions};
///
/// let mut generator = Generator::new(Layouts::Fixed(Arc::new(Geometry::classic(9)?)), GenerateOptions::default());
/// let made = generator.generate(42, 1)?;
/// assert_eq!(count_up_to(&made.puzzle, 2, &SolveOptions::default())?.count, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Generator {
    layouts: Layouts,
    options: GenerateOptions,
    /// For a fixed geometry: its sampler, made on first use.
    sampler: Option<GridSampler>,
    /// For a fixed geometry: its checker, made on first use. Full grids need
    /// none, and its formula (the blank grid's full encoding, O(n⁴) clauses:
    /// `generate --solved --size 225` peaked at 4.5 GB with it) is what a
    /// generator of big full grids cannot afford.
    checker: Option<UniquenessChecker>,
}

impl Generator {
    /// A generator of puzzles of `layouts` as `options` say.
    pub fn new(layouts: Layouts, options: GenerateOptions) -> Generator {
        Generator { layouts, options, sampler: None, checker: None }
    }

    /// The `index`-th puzzle of a run seeded with `seed`.
    pub fn generate(&mut self, seed: u64, index: u64) -> Result<Generated, GenerateError> {
        let mut rng = Rng::for_item(seed, index);
        // `timeout` is per puzzle, from here.
        let deadline = self.options.timeout.and_then(|t| Instant::now().checked_add(t));
        match self.layouts.clone() {
            Layouts::Fixed(geometry) => {
                // The checker's size first: a refusal costs nothing, the sampler seconds.
                if self.options.kind != Kind::Solved && self.checker.is_none() {
                    UniquenessChecker::check_size(&geometry, self.options.max_literals, deadline)?;
                }
                if self.sampler.is_none() {
                    let sampler =
                        self.sampler(&geometry, deadline)?.ok_or_else(|| GenerateError::NoGrid(geometry.describe()))?;
                    self.sampler = Some(sampler);
                }
                let sampler = self.sampler.as_ref().expect("made above");
                if self.options.kind == Kind::Solved {
                    return full_grid(sampler, &mut rng, deadline);
                }
                if self.checker.is_none() {
                    let limit = self.options.max_literals;
                    self.checker = Some(UniquenessChecker::with_limits(Arc::clone(&geometry), deadline, limit)?);
                }
                let checker = self.checker.as_mut().expect("made above");
                make(sampler, checker, &self.options, &mut rng, deadline)
            }
            Layouts::RandomRegions { n, variants } => {
                if n == 0 || n > MAX_SIZE {
                    return Err(GeometryError::Size { n }.into());
                }
                if self.options.kind != Kind::Solved {
                    // The checker's size is the layout's side's alone (rows as the regions).
                    let rows =
                        Geometry::new(n, Layout::Regions((0..n * n).map(|c| (c / n) as u32).collect()), &variants)?;
                    UniquenessChecker::check_size(&rows, self.options.max_literals, deadline)?;
                }
                let (geometry, sampler) = match n < GRID_WALK_MIN_SIDE {
                    true => self.free_layout(n, &variants, &mut rng, deadline)?,
                    false => self.layout_with_grid(n, &variants, &mut rng, deadline)?,
                };
                if self.options.kind == Kind::Solved {
                    return full_grid(&sampler, &mut rng, deadline);
                }
                let mut checker = UniquenessChecker::with_limits(geometry, deadline, self.options.max_literals)?;
                make(&sampler, &mut checker, &self.options, &mut rng, deadline)
            }
        }
    }

    /// A random jigsaw layout of the free walk ([`random_regions`]) that has
    /// a full grid, and its sampler: each layout's blank grid is solved, and
    /// another drawn where it has none.
    fn free_layout(
        &self,
        n: usize,
        variants: &[Variant],
        rng: &mut Rng,
        deadline: Option<Instant>,
    ) -> Result<(Arc<Geometry>, GridSampler), GenerateError> {
        const LAYOUT_TRIES: usize = 100;
        for _ in 0..LAYOUT_TRIES {
            let map = random_regions_until(n, rng, deadline).ok_or(SolveError::TimedOut)?;
            let geometry = Arc::new(Geometry::new(n, Layout::Regions(map), variants)?);
            if let Some(sampler) = self.sampler(&geometry, deadline)? {
                return Ok((geometry, sampler));
            }
        }
        Err(GenerateError::NoLayout { n, tries: LAYOUT_TRIES })
    }

    /// A random jigsaw layout walked with a full grid ([`regions_for_grid`]),
    /// and its sampler, started from that grid: a random grid of the boxes
    /// (rows for a prime n) first, from a sampler kept from puzzle to
    /// puzzle, then the walk, so that the grid is one of the layout's and no
    /// search is needed.
    fn layout_with_grid(
        &mut self,
        n: usize,
        variants: &[Variant],
        rng: &mut Rng,
        deadline: Option<Instant>,
    ) -> Result<(Arc<Geometry>, GridSampler), GenerateError> {
        if self.sampler.is_none() {
            let boxes = Arc::new(Geometry::new(n, start_layout(n), variants)?);
            let sampler = self.sampler(&boxes, deadline)?.ok_or_else(|| GenerateError::NoGrid(boxes.describe()))?;
            self.sampler = Some(sampler);
        }
        let grid = self.sampler.as_ref().expect("made above").sample_until(rng, deadline)?;
        let values: Vec<usize> = grid.cells().iter().map(|v| v.expect("a full grid").index()).collect();
        let map = regions_for_grid(start_regions(n), &values, GRID_SWAPS_PER_CELL, rng, deadline)
            .ok_or(SolveError::TimedOut)?;
        let geometry = Arc::new(Geometry::new(n, Layout::Regions(map), variants)?);
        let sampler = GridSampler::from_grid(Arc::clone(&geometry), grid)?;
        Ok((geometry, self.stepped(sampler)))
    }

    fn sampler(&self, geometry: &Arc<Geometry>, deadline: Option<Instant>) -> Result<Option<GridSampler>, SolveError> {
        Ok(GridSampler::new_until(Arc::clone(geometry), deadline)?.map(|sampler| self.stepped(sampler)))
    }

    /// `sampler` making the block moves the options ask for, if they ask.
    fn stepped(&self, sampler: GridSampler) -> GridSampler {
        match self.options.steps {
            Some(steps) => sampler.with_steps(steps),
            None => sampler,
        }
    }
}

/// A random full grid: the puzzle of [`Kind::Solved`], at the first try.
fn full_grid(sampler: &GridSampler, rng: &mut Rng, deadline: Option<Instant>) -> Result<Generated, GenerateError> {
    let solution = sampler.sample_until(rng, deadline)?;
    let puzzle = Puzzle::new(Arc::clone(sampler.geometry()), solution.clone()).expect("sizes match");
    Ok(Generated { puzzle, solution, tries: 1, solver_calls: 0, unproven: 0, minimal: None })
}

/// One puzzle (not a full grid: [`full_grid`]): tries grids until one fits the options.
fn make(
    sampler: &GridSampler,
    checker: &mut UniquenessChecker,
    options: &GenerateOptions,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Generated, GenerateError> {
    let geometry = Arc::clone(sampler.geometry());
    checker.set_deadline(deadline);
    let minimal = options.kind == Kind::Minimal || options.givens.is_some();
    let conflicts = options.question_conflicts.filter(|_| minimal && geometry.size() >= BOUNDED_FROM_SIDE);
    let mut fewest = usize::MAX;
    let calls = checker.calls();
    for tries in 1..=options.tries.max(1) {
        let solution = sampler.sample_until(rng, deadline)?;
        if conflicts.is_some() {
            // Bounded answers from a solver that knows nothing of the grids before.
            checker.forget();
        }
        checker.set_solution(&solution).map_err(SolveError::from)?;
        let mut orbits = options.symmetry.orbits(&geometry);
        rng.shuffle(&mut orbits);
        let k = shortest_unique_prefix(checker, &orbits, conflicts)?;
        let mut givens: Vec<Vec<Cell>> = orbits[..k].to_vec();
        let mut unproven = 0;
        if minimal {
            // The last orbit of the prefix is needed (the prefix without it is
            // not unique, or not shown to be); the others go in random order.
            let last = givens.pop();
            rng.shuffle(&mut givens);
            givens.extend(last);
            let minimized = checker.minimize_within(&givens, conflicts)?;
            (givens, unproven) = (minimized.kept, minimized.unproven);
        }
        let count: usize = givens.iter().map(Vec::len).sum();
        fewest = fewest.min(count);
        if let Some(range) = &options.givens {
            if count > *range.end() {
                continue;
            }
            if count < *range.start() && !fill_up(&mut givens, &orbits, range, rng) {
                continue;
            }
        }
        let filled = givens.iter().map(Vec::len).sum::<usize>() > count;
        let mut grid = Grid::empty(geometry.size());
        for &cell in givens.iter().flatten() {
            grid.set(cell, solution.get(cell));
        }
        let puzzle = Puzzle::new(Arc::clone(&geometry), grid).expect("sizes match");
        check_unique(&puzzle, &solution, deadline, options.max_literals)?;
        let minimal = minimal.then_some(unproven == 0 && !filled);
        return Ok(Generated { puzzle, solution, tries, solver_calls: checker.calls() - calls, unproven, minimal });
    }
    Err(GenerateError::Unreachable {
        wanted: options.givens.clone().unwrap_or(0..=0),
        tries: options.tries.max(1),
        fewest,
    })
}

/// The fewest of the first orbits under which the solution is unique
/// (binary search: more givens never allow more solutions). A question
/// past `conflicts` is taken as "not unique": the prefix found is then
/// longer, but still proven unique (or all the orbits, a full grid).
fn shortest_unique_prefix(
    checker: &mut UniquenessChecker,
    orbits: &[Vec<Cell>],
    conflicts: Option<u64>,
) -> Result<usize, SolveError> {
    let (mut lo, mut hi) = (0, orbits.len());
    let mut cells = Vec::new();
    while lo < hi {
        let mid = (lo + hi) / 2;
        cells.clear();
        cells.extend(orbits[..mid].iter().flatten().copied());
        if checker.is_unique_within(&cells, conflicts)? == Some(true) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok(hi)
}

/// Add random orbits not yet given until the count is in `range`; false when
/// the orbits' sizes cannot land in it.
fn fill_up(givens: &mut Vec<Vec<Cell>>, orbits: &[Vec<Cell>], range: &RangeInclusive<usize>, rng: &mut Rng) -> bool {
    let mut count: usize = givens.iter().map(Vec::len).sum();
    let mut taken = vec![false; orbits.iter().flatten().count()];
    givens.iter().flatten().for_each(|c| taken[c.index()] = true);
    let mut rest: Vec<&Vec<Cell>> = orbits.iter().filter(|o| !taken[o[0].index()]).collect();
    rng.shuffle(&mut rest);
    for orbit in rest {
        if count >= *range.start() {
            break;
        }
        if count + orbit.len() <= *range.end() {
            count += orbit.len();
            givens.push(orbit.clone());
        }
    }
    range.contains(&count)
}

/// The generator's own answer checked another way: the enumeration of
/// [`Search`] (propagation, branching and a solver of its own) must find
/// `solution` and nothing else.
fn check_unique(
    puzzle: &Puzzle,
    solution: &Grid,
    deadline: Option<Instant>,
    max_literals: u64,
) -> Result<(), SolveError> {
    let timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()).max(Duration::from_millis(1)));
    let options = SolveOptions { timeout, max_literals, ..SolveOptions::default() };
    let found: Vec<Grid> = Search::new(puzzle, &options).take(2).collect::<Result<_, _>>()?;
    match found.as_slice() {
        [one] if one == solution => Ok(()),
        _ => Err(InternalError(format!(
            "a generated puzzle meant to have one solution has {} by enumeration",
            if found.len() == 2 { "two or more".to_string() } else { found.len().to_string() }
        ))
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::verify::verify;

    /// Full grids come from the sampler alone: no uniqueness checker (the
    /// blank grid's whole formula) is built for them, and the first puzzle
    /// asked of the same generator builds it.
    #[test]
    fn full_grids_build_no_uniqueness_checker() {
        let geometry = Arc::new(Geometry::classic(16).unwrap());
        let solved = GenerateOptions { kind: Kind::Solved, ..GenerateOptions::default() };
        let mut generator = Generator::new(Layouts::Fixed(Arc::clone(&geometry)), solved);
        for index in 0..3 {
            let made = generator.generate(7, index).unwrap();
            assert!(made.puzzle.givens().is_complete());
            assert_eq!(verify(&geometry, made.puzzle.givens(), &made.solution), Ok(()));
            assert_eq!((made.tries, made.solver_calls, made.unproven), (1, 0, 0));
        }
        assert!(generator.checker.is_none());
        generator.options.kind = Kind::Proper;
        generator.generate(7, 3).unwrap();
        assert!(generator.checker.is_some());
    }

    /// Below [`BOUNDED_FROM_SIDE`] every question is answered, whatever
    /// the bound: a 9×9 allowed no conflict makes the same proven minimal
    /// puzzles as one without a bound. From it on, the bound holds.
    #[test]
    fn questions_are_bounded_from_the_side_on() {
        let made = |n: usize, question_conflicts: Option<u64>| {
            let options = GenerateOptions { question_conflicts, ..GenerateOptions::default() };
            let mut generator = Generator::new(Layouts::Fixed(Arc::new(Geometry::classic(n).unwrap())), options);
            generator.generate(3, 0).unwrap()
        };
        let (bounded, exact) = (made(9, Some(0)), made(9, None));
        assert_eq!((bounded.puzzle.givens(), bounded.unproven), (exact.puzzle.givens(), 0));
        assert!(made(BOUNDED_FROM_SIDE, Some(0)).unproven > 0);
    }

    /// Random jigsaw layouts: a side past the largest is refused before any
    /// layout is drawn (2,000 ran for minutes), and the timeout bounds the
    /// walk that draws one (it was read only after it).
    #[test]
    fn random_layouts_are_bounded() {
        let layouts = |n| Layouts::RandomRegions { n, variants: Vec::new() };
        let mut huge = Generator::new(layouts(MAX_SIZE + 1), GenerateOptions::default());
        assert!(matches!(huge.generate(1, 0), Err(GenerateError::Geometry(GeometryError::Size { .. }))));
        let brief = GenerateOptions { timeout: Some(Duration::from_nanos(1)), ..GenerateOptions::default() };
        let mut generator = Generator::new(layouts(150), brief);
        assert!(matches!(generator.generate(1, 0), Err(GenerateError::Solve(SolveError::TimedOut))));
    }
}
