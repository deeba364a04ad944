//! Why a puzzle has no solution, and why a cell is forced: minimal sets of
//! givens, found with the givens as assumptions on one incremental varisat
//! solver.
//!
//! The solver holds the puzzle's rules alone (the full encoding with no
//! givens, pencil marks kept). Solving under every given as an assumption,
//! varisat names a subset of them that already fails (its failed core); then
//! deletion-based minimisation drops each given of that subset in turn and
//! keeps the drop when the rest still fails (taking the smaller core that
//! call names), so that no given of the result can be removed: a minimal
//! unsatisfiable subset of the givens (a MUS). Why a cell is forced is the
//! same question with the cell's other values as one more assumption that
//! always stays: a minimal set of givens under which the cell cannot differ.

use std::sync::Arc;
use std::time::Instant;

use varisat::{Lit, Solver};

use crate::cnf::varmap::VarMap;
use crate::cnf::Until;
use crate::error::InternalError;
use crate::model::geometry::{Cell, Value};
use crate::model::puzzle::{Grid, Puzzle};
use crate::pipeline::{Prepared, SolveOptions};
use crate::sat::varisat::{new_solver, run};
use crate::sat::SatResult;
use crate::solve::SolveError;

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

/// One incremental solver over a puzzle's rules, its givens as assumptions.
pub struct Explainer {
    puzzle: Puzzle,
    solver: Solver<'static>,
    map: VarMap,
    /// Each given and its literal.
    givens: Vec<(Cell, Lit)>,
    /// Solver calls made.
    calls: usize,
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
        prepared.check_size()?;
        let mut solver = new_solver();
        let deadline = options.deadline(start);
        solver.set_deadline(deadline);
        let mut until = Until::new(&mut solver, deadline);
        let map = prepared.encode(&mut until);
        if until.passed() {
            return Err(SolveError::TimedOut);
        }
        let mut givens = Vec::new();
        for (cell, value) in puzzle.givens().filled() {
            let var = map
                .var(cell, value)
                .ok_or_else(|| InternalError("the full encoding lacks a given's variable".into()))?;
            givens.push((cell, var.positive()));
        }
        Ok(Explainer { puzzle: puzzle.clone(), solver, map, givens, calls: 0 })
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

    /// A minimal subset of `candidates` that fails together with `fixed`,
    /// given that all of them together fail with failed core `core`.
    fn minimise(&mut self, fixed: &[Lit], core: Vec<Lit>) -> Result<Vec<Lit>, SolveError> {
        let mut kept: Vec<Lit> = core.into_iter().filter(|l| !fixed.contains(l)).collect();
        let mut i = 0;
        while i < kept.len() {
            let mut trial: Vec<Lit> = fixed.to_vec();
            trial.extend(kept.iter().enumerate().filter(|&(k, _)| k != i).map(|(_, &l)| l));
            match self.solve(&trial)? {
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
        Ok(kept)
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
        let all: Vec<Lit> = self.givens.iter().map(|&(_, l)| l).collect();
        let core = match self.solve(&all)? {
            Ok(_) => return Ok(None),
            Err(core) => core,
        };
        let minimal = self.minimise(&[], core)?;
        Ok(Some(self.cells_of(&minimal)))
    }

    /// Why `cell` holds its value in every solution: a minimal set of givens
    /// that forces it.
    pub fn forcing_givens(&mut self, cell: Cell) -> Result<Forced, SolveError> {
        if let Some(value) = self.puzzle.givens().get(cell) {
            return Ok(Forced::Given(value));
        }
        let all: Vec<Lit> = self.givens.iter().map(|&(_, l)| l).collect();
        let solution = match self.solve(&all)? {
            Ok(grid) => grid,
            Err(_) => return Ok(Forced::Unsolvable),
        };
        let value = solution.get(cell).ok_or_else(|| InternalError("a model left a cell empty".into()))?;
        let var =
            self.map.var(cell, value).ok_or_else(|| InternalError("the full encoding lacks a variable".into()))?;
        let other = var.negative();
        let mut assumptions = all;
        assumptions.push(other);
        let core = match self.solve(&assumptions)? {
            Ok(grid) => {
                let second = grid.get(cell).ok_or_else(|| InternalError("a model left a cell empty".into()))?;
                return Ok(Forced::Open(value, second));
            }
            Err(core) => core,
        };
        let minimal = self.minimise(&[other], core)?;
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
}
