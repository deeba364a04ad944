//! varisat in this process: a solver set up for puzzles, and the back end that runs it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use varisat::config::SolverConfigUpdate;
use varisat::solver::SolverError;
use varisat::Solver;

use crate::cnf::varmap::VarMap;
use crate::cnf::{Counting, Until};
use crate::error::InternalError;
use crate::model::puzzle::Grid;
use crate::pipeline::Prepared;
use crate::reasoning::pattern::ValueGroups;
use crate::sat::{Backend, Limits, Model, SatResult};
use crate::solve::{SolveError, Stats};

/// A varisat solver set up for puzzles: CaDiCaL's stable mode in short.
///
/// Decisions follow target phases (each variable's value in the longest
/// conflict-free assignment since the last rephase), the phases are reset
/// now and then (all false, all true, the best assignment seen), and restarts
/// follow a Luby sequence in units of 1,024 conflicts. The first two are what
/// `vendor/satdoku-varisat` adds to varisat 0.2.2. On the 18 hard 25×25 puzzles of
/// Gecode this takes the solver time from 178 s (three over 30 s) to 64 s,
/// and rkkautsar-64-1 from no answer in 15 minutes to 6.4–7.7 s (10–12 s
/// with the machine's other core busy). Learned clauses are shrunk at
/// Kissat's level 2 (each decision level's literals replaced by its block
/// UIP where the reasons allow): shorter clauses, cheaper conflicts, and
/// rkkautsar-64-1 in 2.6 s of CPU time instead of 7.5 s (see
/// docs/performance.md).
pub fn new_solver<'a>() -> Solver<'a> {
    let mut solver = Solver::new();
    solver.set_conflict_counter(Some(Arc::clone(conflict_counter())));
    let mut config = SolverConfigUpdate::new();
    config.target_phases_after = Some(0);
    config.rephase_interval = Some(1000);
    config.luby_restart_interval_scale = Some(1024);
    config.shrink = Some(2);
    solver.config(&config).expect("puzzle solver settings are within varisat's ranges");
    solver
}

/// The counter every solver of [`new_solver`] adds its conflicts to.
fn conflict_counter() -> &'static Arc<AtomicU64> {
    static CONFLICTS: OnceLock<Arc<AtomicU64>> = OnceLock::new();
    CONFLICTS.get_or_init(|| Arc::new(AtomicU64::new(0)))
}

/// How many conflicts satdoku's varisat searches have had in this process so
/// far, over every thread: what a progress display shows of a long search.
pub fn conflicts_so_far() -> u64 {
    conflict_counter().load(Ordering::Relaxed)
}

/// A fresh solver holding a prepared puzzle's CNF.
pub(crate) struct Loaded {
    pub solver: Solver<'static>,
    /// The map of its cell variables.
    pub map: VarMap,
    pub variables: usize,
    pub clauses: usize,
}

impl Loaded {
    /// A fresh solver holding `prepared`'s CNF with `guesses` on top, that
    /// gives up at `deadline`; refused when the CNF would be too large.
    pub(crate) fn new(
        prepared: &Prepared,
        guesses: &[ValueGroups],
        deadline: Option<Instant>,
    ) -> Result<Loaded, SolveError> {
        prepared.check_size_until(deadline)?;
        let mut solver = new_solver();
        solver.set_deadline(deadline);
        // Loading a big formula takes seconds: it stops at the deadline too.
        let mut until = Until::new(&mut solver, deadline);
        let mut counting = Counting::new(&mut until);
        let map = prepared.encode_with(guesses, &mut counting, deadline);
        let (variables, clauses) = (counting.variables, counting.clauses);
        let Some(map) = map.filter(|_| !until.passed()) else { return Err(SolveError::TimedOut) };
        Ok(Loaded { solver, map, variables, clauses })
    }
}

/// Have `solver` (its cell variables mapped by `map`) head for `grid`, a
/// solution found another way: its values are decided first, true. The
/// auxiliary variables of the product at-most-one, decided before them at
/// their default false, would conflict with it; decided after, they follow
/// without conflict, so the first search meets none. Later searches start
/// from the phases it leaves, near this solution.
pub(crate) fn head_for(solver: &mut Solver, map: &VarMap, grid: &Grid) {
    for (cell, value) in grid.filled() {
        if let Some(var) = map.var(cell, value) {
            solver.set_phase(var.positive());
            solver.set_activity(var, 0.5);
        }
    }
}

/// Solve what `solver` holds (under its assumptions): the model, none, or
/// interrupted by its deadline or conflict limit.
pub(crate) fn run(solver: &mut Solver) -> Result<SatResult<Model>, InternalError> {
    match solver.solve() {
        Ok(true) => {
            let lits = solver.model().ok_or_else(|| InternalError("varisat said SAT but gave no model".into()))?;
            Ok(SatResult::Sat(Model::from_lits(&lits)))
        }
        Ok(false) => Ok(SatResult::Unsat),
        Err(SolverError::Interrupted) => Ok(SatResult::Interrupted),
        Err(e) => Err(InternalError(format!("varisat failed: {e}"))),
    }
}

/// varisat as a [`Backend`]: a fresh solver for every search. Its
/// "unsatisfiable" stands as it is.
#[derive(Default)]
pub(crate) struct Varisat;

impl Backend for Varisat {
    fn search(
        &mut self,
        prepared: &Prepared,
        guesses: &[ValueGroups],
        limits: Limits,
        stats: &mut Stats,
    ) -> Result<SatResult, SolveError> {
        let start = Instant::now();
        let Loaded { mut solver, map, variables, clauses } = Loaded::new(prepared, guesses, limits.deadline)?;
        solver.set_conflict_limit(limits.conflicts);
        stats.variables += variables;
        stats.clauses += clauses;
        stats.encode += start.elapsed();
        let start = Instant::now();
        let result = run(&mut solver);
        stats.solve += start.elapsed();
        stats.add_conflicts(solver.conflicts());
        Ok(match result? {
            SatResult::Sat(model) => SatResult::Sat(prepared.decode(&map, &model)?),
            SatResult::Unsat => SatResult::Unsat,
            SatResult::Interrupted => SatResult::Interrupted,
        })
    }

    fn claimant(&self) -> Option<&str> {
        None
    }
}

#[cfg(test)]
mod tests {
    //! The varisat fork (target phases, rephasing) must not change any answer.
    //! satdoku's puzzles rarely take the 1,000 conflicts that its first
    //! rephase waits for, so these formulas are solved with rephasing and
    //! restarts every few conflicts, and checked against brute force.

    use super::*;
    use proptest::prelude::*;
    use varisat::config::SolverConfigUpdate;
    use varisat::{CnfFormula, ExtendFormula, Lit};

    /// satdoku's solver settings, with rephasing and restarts made frequent.
    fn restless_solver<'a>() -> Solver<'a> {
        let mut solver = new_solver();
        let mut config = SolverConfigUpdate::new();
        config.rephase_interval = Some(3);
        config.luby_restart_interval_scale = Some(2);
        solver.config(&config).unwrap();
        solver
    }

    /// A clause as DIMACS numbers (1-based, negative for negated).
    fn lits(clause: &[isize]) -> Vec<Lit> {
        clause.iter().map(|&n| Lit::from_dimacs(n)).collect()
    }

    fn satisfies(assignment: u32, clause: &[isize]) -> bool {
        clause.iter().any(|&n| (assignment >> (n.unsigned_abs() - 1) & 1 == 1) == (n > 0))
    }

    /// Whether some assignment of the first `vars` variables satisfies every clause.
    fn brute_force(vars: usize, clauses: &[Vec<isize>]) -> bool {
        (0..1u32 << vars).any(|a| clauses.iter().all(|c| satisfies(a, c)))
    }

    /// Random 3-SAT over 12 variables near the threshold (4.26 clauses a variable):
    /// about half are satisfiable, and each takes some conflicts.
    fn three_sat() -> impl Strategy<Value = Vec<Vec<isize>>> {
        let literal = (1isize..=12, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
        prop::collection::vec(prop::collection::vec(literal, 3), 40..64)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn answers_match_brute_force(clauses in three_sat()) {
            let mut solver = restless_solver();
            for clause in &clauses {
                solver.add_clause(&lits(clause));
            }
            let sat = solver.solve().unwrap();
            prop_assert_eq!(sat, brute_force(12, &clauses));
            if sat {
                let model = solver.model().unwrap();
                for clause in &clauses {
                    prop_assert!(lits(clause).iter().any(|lit| model.contains(lit)), "model breaks {:?}", clause);
                }
            }
        }
    }

    /// Each pigeon in some hole, no two in one.
    fn pigeonhole(pigeons: usize, holes: usize) -> (CnfFormula, impl Fn(usize, usize) -> Lit) {
        let var = move |p: usize, h: usize| Lit::from_dimacs((p * holes + h + 1) as isize);
        let mut formula = CnfFormula::new();
        for p in 0..pigeons {
            formula.add_clause(&(0..holes).map(|h| var(p, h)).collect::<Vec<_>>());
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    formula.add_clause(&[!var(p, h), !var(q, h)]);
                }
            }
        }
        (formula, var)
    }

    /// One pigeon more than holes is unsatisfiable, and resolution needs
    /// exponentially many steps to show it, so the refutation runs through
    /// rephases of every kind. As many pigeons as holes fit, and the model
    /// shows how.
    #[test]
    fn pigeonhole_through_many_rephases() {
        let (formula, _) = pigeonhole(8, 7);
        let mut solver = restless_solver();
        solver.add_formula(&formula);
        assert!(!solver.solve().unwrap());

        let (formula, var) = pigeonhole(7, 7);
        let mut solver = restless_solver();
        solver.add_formula(&formula);
        assert!(solver.solve().unwrap());
        let model = solver.model().unwrap();
        for h in 0..7 {
            let placed = (0..7).filter(|&p| model.contains(&var(p, h))).count();
            assert!(placed <= 1, "hole {h} holds {placed} pigeons");
        }
        for p in 0..7 {
            assert!((0..7).any(|h| model.contains(&var(p, h))), "pigeon {p} has no hole");
        }
    }

    /// Loading a big formula stops at the deadline: a blank 49×49's full
    /// encoding (millions of clauses) with the deadline already past is not
    /// loaded (it was, in seconds, and only the search then saw the time).
    #[test]
    fn loading_stops_at_the_deadline() {
        use crate::{Encoding, Geometry, Grid, Prepared, Puzzle, SolveOptions};
        let puzzle = Puzzle::new(std::sync::Arc::new(Geometry::classic(49).unwrap()), Grid::empty(49)).unwrap();
        let options = SolveOptions { encoding: Encoding::Full, ..SolveOptions::default() };
        let prepared = Prepared::new(&puzzle, &options).unwrap();
        let past = Some(Instant::now() - std::time::Duration::from_secs(1));
        assert!(matches!(Loaded::new(&prepared, &[], past), Err(SolveError::TimedOut)));
        let small = Puzzle::new(std::sync::Arc::new(Geometry::classic(4).unwrap()), Grid::empty(4)).unwrap();
        assert!(Loaded::new(&Prepared::new(&small, &options).unwrap(), &[], past).is_ok());
    }
}
