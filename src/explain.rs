//! Why a puzzle has no solution, and why a cell is forced: minimal sets of
//! givens, found with the givens as assumptions on one incremental varisat
//! solver.
//!
//! The solver holds the puzzle's rules alone (the full encoding with no
//! givens, pencil marks kept). Solving under every given as an assumption,
//! varisat names a subset of them that already fails (its failed core). Why
//! a cell is forced is the same question with the cell's other values as one
//! more assumption that always stays.
//!
//! The core is then made minimal, so that no given of the result can be
//! removed: a minimal unsatisfiable subset of the givens (a MUS). When unit
//! propagation (singles, then naked and hidden subsets) refutes the core, as
//! it does for almost every conflict and forced cell, QuickXplain (Junker
//! 2004) first shrinks it to a subset that propagation still refutes, with
//! no solver call; each given of that subset is then tried without it by the
//! whole pipeline (preparation, constructions, then this solver, formula
//! already loaded), which answers a sparse grid at once where CDCL alone
//! searched. Otherwise deletion runs on the solver: each given of the core
//! is dropped when the rest still fails (taking the smaller core that call
//! names) and kept when a model appears.

use std::sync::Arc;
use std::time::Instant;

use varisat::{Lit, Solver};

use crate::cnf::varmap::VarMap;
use crate::cnf::Until;
use crate::error::InternalError;
use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Value};
use crate::model::puzzle::{Grid, Puzzle};
use crate::pipeline::{checked, Prepared, SolveOptions};
use crate::reasoning::pattern::ValueGroups;
use crate::reasoning::propagate::Propagator;
use crate::sat::varisat::{new_solver, run};
use crate::sat::{Backend, Limits, SatResult};
use crate::solve::{solve_on, Outcome, SolveError, Stats};

/// Why a cell holds its value in every solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forced {
    /// The cell is a given.
    Given(Value),
    /// The cell holds `value` in every solution, and `givens` (a minimal
    /// set) already force it: with them alone, the cell can hold nothing else.
    By {
        /// The value.
        value: Value,
        /// The givens that force it.
        givens: Vec<Cell>,
    },
    /// The cell takes different values in different solutions; two of them.
    Open(Value, Value),
    /// The puzzle has no solution.
    Unsolvable,
}

/// The explainer's solver as a search back end: a prepared puzzle's decided
/// cells (and the excluded candidate) as assumptions on the rules it holds.
/// What preparation excluded beyond them follows from them, so it need not
/// be assumed.
struct OnLoadedSolver<'a> {
    solver: &'a mut Solver<'static>,
    map: &'a VarMap,
    excluded: Option<(Cell, Value)>,
}

impl Backend for OnLoadedSolver<'_> {
    fn search(
        &mut self,
        prepared: &Prepared,
        _guesses: &[ValueGroups],
        limits: Limits,
        _stats: &mut Stats,
    ) -> Result<SatResult, SolveError> {
        let lit =
            |cell, value| self.map.var(cell, value).ok_or_else(|| InternalError("a cell without its variable".into()));
        let mut assumptions = Vec::new();
        for cell in prepared.puzzle().geometry().cells() {
            if let Some(value) = prepared.domains().single(cell) {
                assumptions.push(lit(cell, value)?.positive());
            }
        }
        if let Some((cell, value)) = self.excluded {
            assumptions.push(lit(cell, value)?.negative());
        }
        self.solver.set_deadline(limits.deadline);
        self.solver.set_conflict_limit(limits.conflicts.map(|c| self.solver.conflicts().saturating_add(c)));
        self.solver.assume(&assumptions);
        let result = run(self.solver);
        self.solver.set_conflict_limit(None);
        Ok(match result? {
            SatResult::Sat(model) => {
                let grid = self.map.decode(prepared.puzzle().geometry(), |v| model.value(v) == Some(true));
                SatResult::Sat(checked(prepared.puzzle(), grid.map_err(InternalError)?)?)
            }
            SatResult::Unsat => SatResult::Unsat,
            SatResult::Interrupted => SatResult::Interrupted,
        })
    }

    fn claimant(&self) -> Option<&str> {
        None
    }
}

/// The smallest side whose cores are shrunk by propagation and tried by the
/// whole pipeline ([`Explainer::shrink_by_propagation`]); smaller grids keep
/// to the incremental solver (100 9×9s, nine cells each: 1.0 s, against
/// 1.8 s through the pipeline).
const PROPAGATION_MIN_SIZE: usize = 16;

/// What [`Explainer::shrink_by_propagation`] left: givens, and whether
/// propagation refutes them (else they are the solver's core as it was).
struct Propagated {
    lits: Vec<Lit>,
    refuted: bool,
}

/// One incremental solver over a puzzle's rules, its givens as assumptions.
pub struct Explainer {
    puzzle: Puzzle,
    solver: Solver<'static>,
    map: VarMap,
    /// Each given and its literal.
    givens: Vec<(Cell, Lit)>,
    /// Solver calls made.
    calls: usize,
    /// What the whole pipeline is asked with (see [`Explainer::satisfiable`]).
    options: SolveOptions,
    deadline: Option<Instant>,
}

impl Explainer {
    /// Load the rules of `puzzle` (without its givens) into a solver that
    /// gives up at the deadline of `options`' timeout from `start`.
    pub fn new(puzzle: &Puzzle, options: &SolveOptions, start: Instant) -> Result<Explainer, SolveError> {
        let geometry = Arc::clone(puzzle.geometry());
        let n = geometry.size();
        let rules = match puzzle.candidates() {
            Some(candidates) => Puzzle::with_candidates(geometry, Grid::empty(n), candidates.clone()),
            None => Puzzle::new(geometry, Grid::empty(n)),
        }
        .ok_or_else(|| InternalError("a puzzle of mismatched sizes".into()))?;
        let prepared = Prepared::unpropagated(&rules, options);
        let deadline = options.deadline(start);
        prepared.check_size_until(deadline)?;
        let mut solver = new_solver();
        solver.set_deadline(deadline);
        let mut until = Until::new(&mut solver, deadline);
        let map = prepared.encode_with(&[], &mut until, deadline);
        let Some(map) = map.filter(|_| !until.passed()) else { return Err(SolveError::TimedOut) };
        let mut givens = Vec::new();
        for (cell, value) in puzzle.givens().filled() {
            let var = map
                .var(cell, value)
                .ok_or_else(|| InternalError("the full encoding lacks a given's variable".into()))?;
            givens.push((cell, var.positive()));
        }
        Ok(Explainer { puzzle: puzzle.clone(), solver, map, givens, calls: 0, options: *options, deadline })
    }

    /// Solver calls made so far.
    pub fn calls(&self) -> usize {
        self.calls
    }

    /// Solve under `assumptions`: the model's grid, or the failed core.
    fn solve(&mut self, assumptions: &[Lit]) -> Result<Result<Grid, Vec<Lit>>, SolveError> {
        self.calls += 1;
        self.solver.assume(assumptions);
        match run(&mut self.solver)? {
            SatResult::Sat(model) => {
                let grid =
                    self.map.decode(self.puzzle.geometry(), |v| model.value(v) == Some(true)).map_err(InternalError)?;
                Ok(Ok(grid))
            }
            SatResult::Unsat => {
                let core = self.solver.failed_core().unwrap_or(assumptions).to_vec();
                Ok(Err(core))
            }
            SatResult::Interrupted => Err(SolveError::TimedOut),
        }
    }

    /// [`Explainer::solve`] under every given (and `more`): a model's grid
    /// is a solution of the puzzle, verified before anything is said of it.
    fn solve_puzzle(&mut self, more: Option<Lit>) -> Result<Result<Grid, Vec<Lit>>, SolveError> {
        let all: Vec<Lit> = self.givens.iter().map(|&(_, l)| l).chain(more).collect();
        Ok(match self.solve(&all)? {
            Ok(grid) => Ok(checked(&self.puzzle, grid)?),
            Err(core) => Err(core),
        })
    }

    /// A minimal subset of `candidates` that fails together with `fixed`,
    /// given that all of them together fail with failed core `core`.
    /// `excluded` is what `fixed` says (a cell that may not hold a value).
    fn minimise(
        &mut self,
        fixed: &[Lit],
        core: Vec<Lit>,
        excluded: Option<(Cell, Value)>,
    ) -> Result<Vec<Lit>, SolveError> {
        let core: Vec<Lit> = core.into_iter().filter(|l| !fixed.contains(l)).collect();
        // Below 16×16 the incremental solver answers each trial in
        // microseconds, less than the shrink and the pipeline take.
        let propagated = match self.puzzle.size() < PROPAGATION_MIN_SIZE {
            true => Propagated { lits: core, refuted: false },
            false => self.shrink_by_propagation(core, excluded)?,
        };
        let mut kept = propagated.lits;
        let mut i = 0;
        while i < kept.len() {
            let trial: Vec<Lit> = kept.iter().enumerate().filter(|&(k, _)| k != i).map(|(_, &l)| l).collect();
            if propagated.refuted {
                // Few givens of a big grid: the whole pipeline (preparation,
                // constructions, then this solver) answers such a sparse
                // grid at once, where the incremental solver alone may
                // search it for minutes.
                match self.satisfiable(&trial, excluded)? {
                    true => i += 1,
                    false => {
                        kept.remove(i);
                    }
                }
                continue;
            }
            match self.solve(&[fixed, &trial].concat())? {
                // Needed: without it there is a model.
                Ok(_) => i += 1,
                // Not needed; the new core may drop more than it.
                Err(core) => {
                    let without = kept.remove(i);
                    kept.retain(|l| core.contains(l));
                    debug_assert!(!kept.contains(&without));
                }
            }
        }
        // What propagation alone showed failing, confirmed by the pipeline
        // (where propagation refutes it too, at once) before it is printed.
        if propagated.refuted && self.satisfiable(&kept, excluded)? {
            return Err(InternalError("a set of givens propagation refuted has a solution".into()).into());
        }
        Ok(kept)
    }

    /// Whether the givens of `lits` (with `excluded` out of its cell's
    /// candidates, and the puzzle's pencil marks) have a solution, by the
    /// whole pipeline: a verified solution, or "unsolvable" confirmed.
    fn satisfiable(&mut self, lits: &[Lit], excluded: Option<(Cell, Value)>) -> Result<bool, SolveError> {
        self.calls += 1;
        let n = self.puzzle.size();
        let givens = self.givens_at(self.cells_of(lits));
        let geometry = Arc::clone(self.puzzle.geometry());
        let subset = match (self.puzzle.candidates(), excluded) {
            (None, None) => Puzzle::new(geometry, givens),
            (marks, excluded) => {
                let mut candidates = marks.cloned().unwrap_or_else(|| Domains::full(n));
                if let Some((cell, value)) = excluded {
                    candidates.remove(cell, value);
                }
                Puzzle::with_candidates(geometry, givens, candidates)
            }
        }
        .ok_or_else(|| InternalError("a puzzle of mismatched sizes".into()))?;
        let timeout = match self.deadline {
            Some(deadline) => match deadline.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => Some(left),
                _ => return Err(SolveError::TimedOut),
            },
            None => None,
        };
        // The pipeline's preparation and constructions, then this explainer's
        // solver (its formula already loaded) rather than a fresh one.
        let mut backend = OnLoadedSolver { solver: &mut self.solver, map: &self.map, excluded };
        let options = SolveOptions { timeout, pattern_guess: false, portfolio: 1, ..self.options };
        match solve_on(&mut backend, &subset, &options, 0)?.0 {
            Outcome::Solved(_) => Ok(true),
            Outcome::Unsolvable(_) => Ok(false),
            Outcome::TimedOut => Err(SolveError::TimedOut),
        }
    }

    /// A subset of `core` that unit propagation on the units alone refutes
    /// (with `excluded` out), found by QuickXplain (Junker 2004) with
    /// propagation as its test; `core` as it is when propagation does not
    /// refute it. Propagation is cheap and sound (what it refutes has no
    /// solution), so the solver's deletion that follows has a few givens to
    /// try rather than the thousands of a core on a big grid: a 49×49 with
    /// one wrong given took minutes, a solver call for every given.
    fn shrink_by_propagation(&self, core: Vec<Lit>, excluded: Option<(Cell, Value)>) -> Result<Propagated, SolveError> {
        let cells: Vec<(Cell, Lit)> = self.givens.iter().copied().filter(|(_, l)| core.contains(l)).collect();
        if cells.len() != core.len() || !self.refuted(&cells, excluded)? {
            return Ok(Propagated { lits: core, refuted: false });
        }
        let lits = self.quick_xplain(&mut Vec::new(), false, &cells, excluded)?.into_iter().map(|(_, l)| l).collect();
        Ok(Propagated { lits, refuted: true })
    }

    /// QuickXplain: a subset of `candidates` minimal for propagation such
    /// that it and `base` are refuted, given that `base` and all of
    /// `candidates` are.
    fn quick_xplain(
        &self,
        base: &mut Vec<(Cell, Lit)>,
        base_grew: bool,
        candidates: &[(Cell, Lit)],
        excluded: Option<(Cell, Value)>,
    ) -> Result<Vec<(Cell, Lit)>, SolveError> {
        // Nothing to choose from (the rules alone refute): nothing needed.
        if candidates.is_empty() || base_grew && self.refuted(base, excluded)? {
            return Ok(Vec::new());
        }
        if candidates.len() == 1 {
            return Ok(candidates.to_vec());
        }
        let (first, second) = candidates.split_at(candidates.len() / 2);
        let mark = base.len();
        base.extend_from_slice(first);
        let from_second = self.quick_xplain(base, true, second, excluded)?;
        base.truncate(mark);
        base.extend_from_slice(&from_second);
        let from_first = self.quick_xplain(base, !from_second.is_empty(), first, excluded)?;
        base.truncate(mark);
        Ok(from_first.into_iter().chain(from_second).collect())
    }

    /// Whether propagation (singles and subsets, on the units alone) refutes
    /// the givens of `cells`, with `excluded` out of its cell's candidates.
    /// Past the deadline it is [`SolveError::TimedOut`], never a guess: a
    /// filter cut short refutes less, and QuickXplain needs a true answer.
    fn refuted(&self, cells: &[(Cell, Lit)], excluded: Option<(Cell, Value)>) -> Result<bool, SolveError> {
        let givens = self.givens_at(cells.iter().map(|&(cell, _)| cell));
        let subset = Puzzle::new(Arc::clone(self.puzzle.geometry()), givens)
            .ok_or_else(|| InternalError("a puzzle of mismatched sizes".into()))?;
        let refuted = match Propagator::from_puzzle(&subset) {
            Err(_) => true,
            Ok(mut p) => {
                p.set_deadline(self.deadline);
                let excluded_clash = excluded.is_some_and(|(cell, value)| p.exclude(cell, value).is_err());
                // Singles first, then every naked and hidden subset (Régin's filter).
                excluded_clash || p.propagate().is_err() || p.propagate_subsets().is_err()
            }
        };
        if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return Err(SolveError::TimedOut);
        }
        Ok(refuted)
    }

    /// The puzzle's givens at `cells` alone.
    fn givens_at(&self, cells: impl IntoIterator<Item = Cell>) -> Grid {
        let mut givens = Grid::empty(self.puzzle.size());
        for cell in cells {
            givens.set(cell, self.puzzle.givens().get(cell));
        }
        givens
    }

    fn cells_of(&self, lits: &[Lit]) -> Vec<Cell> {
        let mut cells: Vec<Cell> =
            self.givens.iter().filter(|(_, l)| lits.contains(l)).map(|&(cell, _)| cell).collect();
        cells.sort();
        cells
    }

    /// A minimal set of givens with no solution together, or `None` when the
    /// puzzle has a solution.
    pub fn conflicting_givens(&mut self) -> Result<Option<Vec<Cell>>, SolveError> {
        let core = match self.solve_puzzle(None)? {
            Ok(_) => return Ok(None),
            Err(core) => core,
        };
        let minimal = self.minimise(&[], core, None)?;
        Ok(Some(self.cells_of(&minimal)))
    }

    /// Why `cell` holds its value in every solution: a minimal set of givens
    /// that forces it.
    ///
    /// # Panics
    /// If `cell` is not a cell of the grid.
    pub fn forcing_givens(&mut self, cell: Cell) -> Result<Forced, SolveError> {
        if let Some(value) = self.puzzle.givens().get(cell) {
            return Ok(Forced::Given(value));
        }
        let solution = match self.solve_puzzle(None)? {
            Ok(grid) => grid,
            Err(_) => return Ok(Forced::Unsolvable),
        };
        let value = solution.get(cell).ok_or_else(|| InternalError("a model left a cell empty".into()))?;
        let var =
            self.map.var(cell, value).ok_or_else(|| InternalError("the full encoding lacks a variable".into()))?;
        let other = var.negative();
        let core = match self.solve_puzzle(Some(other))? {
            Ok(grid) => {
                let second = grid.get(cell).ok_or_else(|| InternalError("a model left a cell empty".into()))?;
                return Ok(Forced::Open(value, second));
            }
            Err(core) => core,
        };
        let minimal = self.minimise(&[other], core, Some((cell, value)))?;
        Ok(Forced::By { value, givens: self.cells_of(&minimal) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::Geometry;
    use crate::testing::puzzle;

    /// Loading a big grid's formula gives up at the deadline: a 49×49's
    /// (millions of clauses) with the time already spent is refused before
    /// it is loaded, not loaded in seconds and then found to be late. A
    /// 4×4's fits in the first 4,096 clauses, read before the clock.
    #[test]
    fn the_rules_are_not_loaded_past_the_deadline() {
        let options = SolveOptions { timeout: Some(std::time::Duration::from_millis(1)), ..SolveOptions::default() };
        let started = Instant::now() - std::time::Duration::from_secs(1);
        let big = puzzle(Geometry::classic(49).unwrap(), &".".repeat(49 * 49));
        assert!(matches!(Explainer::new(&big, &options, started), Err(SolveError::TimedOut)));
        let small = puzzle(Geometry::classic(4).unwrap(), "1...............");
        assert!(Explainer::new(&small, &options, started).is_ok());
    }

    #[test]
    fn clashing_givens_are_the_conflict() {
        let p = puzzle(Geometry::classic(9).unwrap(), &format!("5.....5..{}", "12".repeat(4) + &".".repeat(64)));
        let mut e = Explainer::new(&p, &SolveOptions::default(), Instant::now()).unwrap();
        let core = e.conflicting_givens().unwrap().unwrap();
        let names: Vec<String> = core.iter().map(|&c| p.geometry().cell_name(c)).collect();
        assert_eq!(names, ["r1c1", "r1c7"]);
    }

    #[test]
    fn a_hidden_single_is_forced_by_the_givens_that_make_it() {
        // 4x4: r1c4 must be 1: r2c2 takes 1 from box 1 (r1c1, r1c2), r3c3 from
        // column 3; r4c1 is not needed.
        let p = puzzle(Geometry::classic(4).unwrap(), ".....1....1.1...");
        let mut e = Explainer::new(&p, &SolveOptions::default(), Instant::now()).unwrap();
        match e.forcing_givens(Cell::from_index(3)).unwrap() {
            Forced::By { value, givens } => {
                assert_eq!(value.number(), 1);
                let names: Vec<String> = givens.iter().map(|&c| p.geometry().cell_name(c)).collect();
                assert_eq!(names, ["r2c2", "r3c3"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(e.forcing_givens(Cell::from_index(5)).unwrap(), Forced::Given(_)));
        assert!(matches!(e.forcing_givens(Cell::from_index(15)).unwrap(), Forced::Open(..)));
    }

    /// A 1×1 grid's one cell is forced by the rules alone: propagation
    /// refutes the empty set, and QuickXplain split it in two for ever
    /// (a stack overflow).
    #[test]
    fn a_cell_the_rules_force_needs_no_given() {
        let p = puzzle(Geometry::latin(1).unwrap(), ".");
        let mut e = Explainer::new(&p, &SolveOptions::default(), Instant::now()).unwrap();
        match e.forcing_givens(Cell::from_index(0)).unwrap() {
            Forced::By { value, givens } => assert_eq!((value.number(), givens.len()), (1, 0)),
            other => panic!("{other:?}"),
        }
        // The shrink itself (grids this small skip it): nothing needed.
        let one = (Cell::from_index(0), Value::from_index(0));
        let shrunk = e.shrink_by_propagation(Vec::new(), Some(one)).unwrap();
        assert!(shrunk.refuted && shrunk.lits.is_empty());
    }

    /// Past the deadline the propagation test is a timeout, not "not
    /// refuted": a filter cut short refutes less, and QuickXplain built on
    /// such an answer could keep a set of givens that does not fail.
    #[test]
    fn the_propagation_test_stops_at_the_deadline() {
        let p = puzzle(Geometry::classic(4).unwrap(), "11..............");
        let mut e = Explainer::new(&p, &SolveOptions::default(), Instant::now()).unwrap();
        let core: Vec<Lit> = e.givens.iter().map(|&(_, l)| l).collect();
        assert!(e.shrink_by_propagation(core.clone(), None).unwrap().refuted);
        e.deadline = Some(Instant::now() - std::time::Duration::from_secs(1));
        assert!(matches!(e.shrink_by_propagation(core, None), Err(SolveError::TimedOut)));
    }
}
