//! Boolean satisfiability solver.
use std::{
    io,
    sync::{
        atomic::{AtomicBool, AtomicU64},
        Arc,
    },
    time::Instant,
};

use partial_ref::{IntoPartialRef, IntoPartialRefMut, PartialRef};

use anyhow::Error;
use thiserror::Error;

use varisat_checker::ProofProcessor;
use varisat_dimacs::DimacsParser;
use varisat_formula::{CnfFormula, ExtendFormula, Lit, Var};

use crate::{
    assumptions::set_assumptions,
    config::SolverConfigUpdate,
    context::{config_changed, parts::*, Context},
    load::load_clause,
    proof,
    schedule::schedule_step,
    state::SatState,
    variables,
};

pub use crate::proof::ProofFormat;

/// Possible errors while solving a formula.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SolverError {
    #[error("The solver was interrupted")]
    Interrupted,
    #[error("Error in proof processor: {}", cause)]
    ProofProcessorError {
        #[source]
        cause: Error,
    },
    #[error("Error writing proof file: {}", cause)]
    ProofIoError {
        #[source]
        cause: io::Error,
    },
}

impl SolverError {
    /// Whether a Solver instance can be used after producing such an error.
    pub fn is_recoverable(&self) -> bool {
        match self {
            SolverError::Interrupted => true,
            _ => false,
        }
    }
}

/// A boolean satisfiability solver.
#[derive(Default)]
pub struct Solver<'a> {
    ctx: Box<Context<'a>>,
}

impl<'a> Solver<'a> {
    /// Create a new solver.
    pub fn new() -> Solver<'a> {
        Solver::default()
    }

    /// Change the solver configuration.
    pub fn config(&mut self, config_update: &SolverConfigUpdate) -> Result<(), Error> {
        config_update.apply(&mut self.ctx.solver_config)?;
        let mut ctx = self.ctx.into_partial_ref_mut();
        config_changed(ctx.borrow(), config_update);
        Ok(())
    }

    /// Add a formula to the solver.
    pub fn add_formula(&mut self, formula: &CnfFormula) {
        let mut ctx = self.ctx.into_partial_ref_mut();
        for clause in formula.iter() {
            load_clause(ctx.borrow(), clause);
        }
    }

    /// Reads and adds a formula in DIMACS CNF format.
    ///
    /// Using this avoids creating a temporary [`CnfFormula`].
    pub fn add_dimacs_cnf(&mut self, input: impl io::Read) -> Result<(), Error> {
        let parser = DimacsParser::parse_incremental(input, |parser| {
            self.add_formula(&parser.take_formula());
            Ok(())
        })?;

        log::info!(
            "Parsed formula with {} variables and {} clauses",
            parser.var_count(),
            parser.clause_count()
        );

        Ok(())
    }

    /// Sets the "witness" sampling mode for a variable.
    pub fn witness_var(&mut self, var: Var) {
        // TODO add link to sampling mode section of the manual when written
        let mut ctx = self.ctx.into_partial_ref_mut();
        let global = variables::global_from_user(ctx.borrow(), var, false);
        variables::set_sampling_mode(ctx.borrow(), global, variables::data::SamplingMode::Witness);
    }

    /// Sets the "sample" sampling mode for a variable.
    pub fn sample_var(&mut self, var: Var) {
        // TODO add link to sampling mode section of the manual when written
        // TODO add warning about constrainig variables that previously were witness variables
        let mut ctx = self.ctx.into_partial_ref_mut();
        let global = variables::global_from_user(ctx.borrow(), var, false);
        variables::set_sampling_mode(ctx.borrow(), global, variables::data::SamplingMode::Sample);
    }

    /// Hide a variable.
    ///
    /// Turns a free variable into an existentially quantified variable. If the passed `Var` is used
    /// again after this call, it refers to a new variable not the previously hidden variable.
    pub fn hide_var(&mut self, var: Var) {
        // TODO add link to sampling mode section of the manual when written
        let mut ctx = self.ctx.into_partial_ref_mut();
        let global = variables::global_from_user(ctx.borrow(), var, false);
        variables::set_sampling_mode(ctx.borrow(), global, variables::data::SamplingMode::Hide);
    }

    /// Observe solver internal variables.
    ///
    /// This turns solver internal variables into witness variables. There is no guarantee that the
    /// newly visible variables correspond to previously hidden variables.
    ///
    /// Returns a list of newly visible variables.
    pub fn observe_internal_vars(&mut self) -> Vec<Var> {
        // TODO add link to sampling mode section of the manual when written
        let mut ctx = self.ctx.into_partial_ref_mut();
        variables::observe_internal_vars(ctx.borrow())
    }

    /// Give up the search at `deadline` (`None`: never, the default).
    ///
    /// The clock is read once per conflict. A search that reaches the deadline
    /// returns [`SolverError::Interrupted`] and leaves the solver usable: a
    /// later [`Solver::solve`] with a later deadline (or none) goes on from
    /// where this one stopped.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.ctx.solver_state.deadline = deadline;
    }

    /// Give up the search once this solver has had `limit` conflicts in all,
    /// counted over every [`Solver::solve`] since it was made (`None`: no
    /// limit, the default).
    ///
    /// Unlike a deadline, this stops at the same point on every machine. A
    /// search that reaches the limit returns [`SolverError::Interrupted`] and
    /// leaves the solver usable: a later [`Solver::solve`] with a higher limit
    /// (or none) goes on from where this one stopped.
    pub fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.ctx.solver_state.conflict_limit = limit;
    }

    /// The solver's own variable for `var`, if `var` is in a clause added so far.
    fn known_solver_var(&self, var: Var) -> Option<Var> {
        let variables = &self.ctx.variables;
        let global = variables.global_from_user().get(var)?;
        variables.solver_from_global().get(global)
    }

    /// Decide `lit`'s variable with `lit`'s polarity, until the search
    /// assigns it otherwise (its saved phase; varisat starts every variable
    /// at false). Between searches with target phases it is the variable's
    /// target phase too, so that it holds over the target the last search
    /// left; a rephase (see `SolverConfig::rephase_interval`) and a new
    /// target take over as usual. A variable in no clause added so far is
    /// left alone. Returns whether the phase was set.
    pub fn set_phase(&mut self, lit: Lit) -> bool {
        match self.known_solver_var(lit.var()) {
            Some(var) => {
                self.ctx.assignment.set_phase(var, lit.is_positive());
                true
            }
            None => false,
        }
    }

    /// Set `var`'s VSIDS activity: among free variables, the most active is
    /// decided first. Every variable starts at 0 and the first conflict bumps
    /// by 1.0 (then more and more), so activities below 1.0 set the order of
    /// the first decisions and are soon outweighed by conflicts. A variable
    /// in no clause added so far is left alone. Returns whether the activity
    /// was set.
    pub fn set_activity(&mut self, var: Var, activity: f32) -> bool {
        match self.known_solver_var(var) {
            Some(var) => {
                self.ctx.vsids.set_activity(var, activity);
                true
            }
            None => false,
        }
    }

    /// Give up the search once `flag` is set (`None`: never, the default).
    ///
    /// The flag is read once per conflict, so another thread can stop a
    /// search at once, for example the losers of a race between solvers
    /// once one has an answer. A search stopped this way returns
    /// [`SolverError::Interrupted`] and leaves the solver usable: a later
    /// [`Solver::solve`], once the flag is cleared (or replaced), goes on
    /// from where this one stopped.
    pub fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.ctx.solver_state.interrupt = flag;
    }

    /// Add one to `counter` at every conflict (`None`: count nothing, the
    /// default), so that another thread can show how far a long search has
    /// gone. Several solvers may share one counter.
    pub fn set_conflict_counter(&mut self, counter: Option<Arc<AtomicU64>>) {
        self.ctx.solver_state.conflict_counter = counter;
    }

    /// How many conflicts this solver has had, over every [`Solver::solve`]
    /// since it was made: what a search cost, the same on every machine.
    pub fn conflicts(&self) -> u64 {
        self.ctx.schedule.conflicts()
    }

    /// Check the satisfiability of the current formula.
    pub fn solve(&mut self) -> Result<bool, SolverError> {
        self.ctx.solver_state.solver_invoked = true;

        let mut ctx = self.ctx.into_partial_ref_mut();
        assert!(
            !ctx.part_mut(SolverStateP).state_is_invalid,
            "solve() called after encountering an unrecoverable error"
        );

        while schedule_step(ctx.borrow()) {}

        proof::solve_finished(ctx.borrow());

        self.check_for_solver_error()?;

        match self.ctx.solver_state.sat_state {
            SatState::Unknown => Err(SolverError::Interrupted),
            SatState::Sat => Ok(true),
            SatState::Unsat | SatState::UnsatUnderAssumptions => Ok(false),
        }
    }

    /// Check for asynchronously generated errors.
    ///
    /// To avoid threading errors out of deep call stacks, we have a solver_error field in the
    /// SolverState. This function takes and returns that error if present.
    fn check_for_solver_error(&mut self) -> Result<(), SolverError> {
        let mut ctx = self.ctx.into_partial_ref_mut();
        let error = ctx.part_mut(SolverStateP).solver_error.take();

        if let Some(error) = error {
            if !error.is_recoverable() {
                ctx.part_mut(SolverStateP).state_is_invalid = true;
            }
            Err(error)
        } else {
            Ok(())
        }
    }

    /// Assume given literals for future calls to solve.
    ///
    /// This replaces the current set of assumed literals.
    pub fn assume(&mut self, assumptions: &[Lit]) {
        let mut ctx = self.ctx.into_partial_ref_mut();
        set_assumptions(ctx.borrow(), assumptions);
    }

    /// Set of literals that satisfy the formula.
    pub fn model(&self) -> Option<Vec<Lit>> {
        let ctx = self.ctx.into_partial_ref();
        if ctx.part(SolverStateP).sat_state == SatState::Sat {
            Some(
                ctx.part(VariablesP)
                    .user_var_iter()
                    .flat_map(|user_var| {
                        let global_var = ctx
                            .part(VariablesP)
                            .global_from_user()
                            .get(user_var)
                            .expect("no existing global var for user var");
                        ctx.part(ModelP).assignment()[global_var.index()]
                            .map(|value| user_var.lit(value))
                    })
                    .collect(),
            )
        } else {
            None
        }
    }

    /// Subset of the assumptions that made the formula unsatisfiable.
    ///
    /// This is not guaranteed to be minimal and may just return all assumptions every time.
    pub fn failed_core(&self) -> Option<&[Lit]> {
        match self.ctx.solver_state.sat_state {
            SatState::UnsatUnderAssumptions => Some(self.ctx.assumptions.user_failed_core()),
            SatState::Unsat => Some(&[]),
            SatState::Unknown | SatState::Sat => None,
        }
    }

    /// Generate a proof of unsatisfiability during solving.
    ///
    /// This needs to be called before any clauses are added.
    pub fn write_proof(&mut self, target: impl io::Write + 'a, format: ProofFormat) {
        assert!(
            self.ctx.solver_state.formula_is_empty,
            "called after clauses were added"
        );
        self.ctx.proof.write_proof(target, format);
    }

    /// Stop generating a proof of unsatisfiability.
    ///
    /// This also flushes internal buffers and closes the target file.
    pub fn close_proof(&mut self) -> Result<(), SolverError> {
        let mut ctx = self.ctx.into_partial_ref_mut();
        proof::close_proof(ctx.borrow());
        self.check_for_solver_error()
    }

    /// Generate and check a proof on the fly.
    ///
    /// This needs to be called before any clauses are added.
    pub fn enable_self_checking(&mut self) {
        assert!(
            self.ctx.solver_state.formula_is_empty,
            "called after clauses were added"
        );
        self.ctx.proof.begin_checking();
    }

    /// Generate a proof and process it using a [`ProofProcessor`].
    ///
    /// This implicitly enables self checking.
    ///
    /// This needs to be called before any clauses are added.
    pub fn add_proof_processor(&mut self, processor: &'a mut dyn ProofProcessor) {
        assert!(
            self.ctx.solver_state.formula_is_empty,
            "called after clauses were added"
        );
        self.ctx.proof.add_processor(processor);
    }
}

impl<'a> Drop for Solver<'a> {
    fn drop(&mut self) {
        let _ = self.close_proof();
    }
}

impl<'a> ExtendFormula for Solver<'a> {
    /// Add a clause to the solver.
    fn add_clause(&mut self, clause: &[Lit]) {
        let mut ctx = self.ctx.into_partial_ref_mut();
        load_clause(ctx.borrow(), clause);
    }

    /// Add a new variable to the solver.
    fn new_var(&mut self) -> Var {
        self.ctx.solver_state.formula_is_empty = false;
        let mut ctx = self.ctx.into_partial_ref_mut();
        variables::new_user_var(ctx.borrow())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    use varisat_checker::{CheckedProofStep, CheckerData};
    use varisat_formula::{
        cnf_formula, lits,
        test::{sat_formula, sgen_unsat_formula},
    };

    use varisat_dimacs::write_dimacs;

    fn enable_test_schedule(solver: &mut Solver) {
        let mut config = SolverConfigUpdate::new();
        config.reduce_locals_interval = Some(150);
        config.reduce_mids_interval = Some(100);

        solver.config(&config).unwrap();
    }

    /// Decide with target phases from the first conflict on.
    fn enable_target_phases(solver: &mut Solver) {
        let mut config = SolverConfigUpdate::new();
        config.target_phases_after = Some(0);
        solver.config(&config).unwrap();
    }

    /// Decide with target phases from the first conflict on, and rephase
    /// after `interval` conflicts, then 2, 3, ... times as many more.
    fn enable_rephasing(solver: &mut Solver, interval: u64) {
        let mut config = SolverConfigUpdate::new();
        config.target_phases_after = Some(0);
        config.rephase_interval = Some(interval);
        solver.config(&config).unwrap();
    }

    /// Shrink learned clauses at the given level, deciding with target phases and rephasing
    /// every 1,000 conflicts as satdoku does.
    fn enable_shrinking(solver: &mut Solver, shrink: u8) {
        let mut config = SolverConfigUpdate::new();
        config.target_phases_after = Some(0);
        config.rephase_interval = Some(1000);
        config.shrink = Some(shrink);
        solver.config(&config).unwrap();
    }

    /// Random phases and activities (xorshift from `seed`) for the first `vars` variables.
    fn scramble(solver: &mut Solver, vars: usize, seed: u64) {
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for i in 0..vars {
            let var = Var::from_index(i);
            solver.set_phase(var.lit(next() % 2 == 0));
            solver.set_activity(var, (next() % 1000) as f32 / 1000.0);
        }
    }

    /// Solve in slices of 20 µs, resuming after each interrupt; from the
    /// 10,000th slice on without a deadline, so that the answer comes.
    fn solve_in_slices(solver: &mut Solver) -> bool {
        for slice in 0.. {
            let deadline = Instant::now() + std::time::Duration::from_micros(20);
            solver.set_deadline(if slice < 10_000 { Some(deadline) } else { None });
            match solver.solve() {
                Ok(sat) => return sat,
                Err(SolverError::Interrupted) => continue,
                Err(e) => panic!("{}", e),
            }
        }
        unreachable!()
    }

    /// Solve one conflict at a time, raising the conflict limit by one after
    /// each interrupt; how many interrupts there were, and the answer.
    fn solve_by_conflicts(solver: &mut Solver) -> (u64, bool) {
        for limit in 1.. {
            solver.set_conflict_limit(Some(limit));
            match solver.solve() {
                Ok(sat) => return (limit - 1, sat),
                Err(SolverError::Interrupted) => continue,
                Err(e) => panic!("{}", e),
            }
        }
        unreachable!()
    }

    /// The counter sees every conflict: as many as the conflict limit allows,
    /// across two searches and shared by two solvers; each solver's own
    /// count (`Solver::conflicts`) is its share.
    #[test]
    fn the_conflict_counter_counts_every_conflict() {
        let (pigeons, holes) = (9, 8);
        let var = |p: usize, h: usize| Lit::from_index(p * holes + h, true);
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
        let counter = Arc::new(AtomicU64::new(0));
        for limit in [100, 250] {
            let mut solver = Solver::new();
            solver.add_formula(&formula);
            solver.set_conflict_counter(Some(Arc::clone(&counter)));
            solver.set_conflict_limit(Some(limit));
            assert_eq!(solver.conflicts(), 0);
            assert!(matches!(solver.solve(), Err(SolverError::Interrupted)));
            assert_eq!(solver.conflicts(), limit);
        }
        assert_eq!(counter.load(std::sync::atomic::Ordering::Relaxed), 350);
    }

    /// Another thread stops a search that would take far longer: 13
    /// pigeons in 12 holes needs exponentially many conflicts.
    #[test]
    fn a_flag_set_by_another_thread_stops_the_search() {
        let (pigeons, holes) = (13, 12);
        let var = |p: usize, h: usize| Lit::from_index(p * holes + h, true);
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
        let mut solver = Solver::new();
        solver.add_formula(&formula);
        let flag = Arc::new(AtomicBool::new(false));
        solver.set_interrupt(Some(Arc::clone(&flag)));
        let setter = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        assert!(matches!(solver.solve(), Err(SolverError::Interrupted)));
        setter.join().unwrap();
    }

    #[test]
    #[should_panic(expected = "solve() called after encountering an unrecoverable error")]
    fn error_handling_proof_writing() {
        let mut output_buffer = [0u8; 4];
        let mut solver = Solver::new();
        let proof_output = std::io::Cursor::new(&mut output_buffer[..]);

        solver.write_proof(proof_output, ProofFormat::Varisat);

        solver.add_formula(&cnf_formula![
            -1, -2, -3; -1, -2, -4; -1, -2, -5; -1, -3, -4; -1, -3, -5; -1, -4, -5; -2, -3, -4;
            -2, -3, -5; -2, -4, -5; -3, -4, -5; 1, 2, 5; 1, 2, 3; 1, 2, 4; 1, 5, 3; 1, 5, 4;
            1, 3, 4; 2, 5, 3; 2, 5, 4; 2, 3, 4; 5, 3, 4;
        ]);

        let result = solver.solve();

        assert!(match result {
            Err(SolverError::ProofIoError { .. }) => true,
            _ => false,
        });

        let _ = solver.solve();
    }

    struct FailingProcessor;

    impl ProofProcessor for FailingProcessor {
        fn process_step(
            &mut self,
            _step: &CheckedProofStep,
            _data: CheckerData,
        ) -> Result<(), Error> {
            anyhow::bail!("failing processor");
        }
    }
    #[test]
    #[should_panic(expected = "solve() called after encountering an unrecoverable error")]
    fn error_handling_proof_processing() {
        let mut processor = FailingProcessor;

        let mut solver = Solver::new();

        solver.add_proof_processor(&mut processor);

        solver.add_formula(&cnf_formula![
            -1, -2, -3; -1, -2, -4; -1, -2, -5; -1, -3, -4; -1, -3, -5; -1, -4, -5; -2, -3, -4;
            -2, -3, -5; -2, -4, -5; -3, -4, -5; 1, 2, 5; 1, 2, 3; 1, 2, 4; 1, 5, 3; 1, 5, 4;
            1, 3, 4; 2, 5, 3; 2, 5, 4; 2, 3, 4; 5, 3, 4;
        ]);

        let result = solver.solve();

        assert!(match result {
            Err(SolverError::ProofProcessorError { cause }) => {
                format!("{}", cause) == "failing processor"
            }
            _ => false,
        });

        let _ = solver.solve();
    }

    #[test]
    #[should_panic(expected = "called after clauses were added")]
    fn write_proof_too_late() {
        let mut solver = Solver::new();
        solver.add_clause(&lits![1, 2, 3]);
        solver.write_proof(std::io::sink(), ProofFormat::Varisat);
    }

    #[test]
    #[should_panic(expected = "called after clauses were added")]
    fn add_proof_processor_too_late() {
        let mut processor = FailingProcessor;

        let mut solver = Solver::new();
        solver.add_clause(&lits![1, 2, 3]);

        solver.add_proof_processor(&mut processor);
    }

    #[test]
    #[should_panic(expected = "called after clauses were added")]
    fn enable_self_checking_too_late() {
        let mut solver = Solver::new();
        solver.add_clause(&lits![1, 2, 3]);

        solver.enable_self_checking();
    }

    #[test]
    fn self_check_duplicated_unit_clauses() {
        let mut solver = Solver::new();

        solver.enable_self_checking();

        solver.add_formula(&cnf_formula![
            4;
            4;
        ]);

        assert_eq!(solver.solve().ok(), Some(true));
    }

    proptest! {
        #[test]
        fn sgen_unsat(
            formula in sgen_unsat_formula(1..7usize),
            test_schedule in proptest::bool::ANY,
        ) {
            let mut solver = Solver::new();

            solver.add_formula(&formula);

            if test_schedule {
                enable_test_schedule(&mut solver);
            }

            prop_assert_eq!(solver.solve().ok(), Some(false));
        }

        #[test]
        fn sgen_unsat_checked(
            formula in sgen_unsat_formula(1..7usize),
            test_schedule in proptest::bool::ANY,
        ) {
            let mut solver = Solver::new();

            solver.enable_self_checking();

            solver.add_formula(&formula);

            if test_schedule {
                enable_test_schedule(&mut solver);
            }

            prop_assert_eq!(solver.solve().ok(), Some(false));
        }

        #[test]
        fn sat(
            formula in sat_formula(4..20usize, 10..100usize, 0.05..0.2, 0.9..1.0),
            test_schedule in proptest::bool::ANY,
        ) {
            let mut solver = Solver::new();

            solver.add_formula(&formula);

            if test_schedule {
                enable_test_schedule(&mut solver);
            }

            prop_assert_eq!(solver.solve().ok(), Some(true));

            let model = solver.model().unwrap();

            for clause in formula.iter() {
                prop_assert!(clause.iter().any(|lit| model.contains(lit)));
            }
        }

        /// Shrinking learned clauses keeps the answers right, and the
        /// self-checker accepts the clause hashes of every learned clause;
        /// under cfg(test) every shrunk clause is also checked to be implied
        /// (`analyze_conflict::check_shrinking`).
        #[test]
        fn sgen_unsat_shrinking(
            formula in sgen_unsat_formula(1..7usize),
            shrink in 1..=3u8,
            test_schedule in proptest::bool::ANY,
        ) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            enable_shrinking(&mut solver, shrink);
            if test_schedule {
                enable_test_schedule(&mut solver);
            }

            prop_assert_eq!(solver.solve().ok(), Some(false));
        }

        #[test]
        fn sat_shrinking(
            formula in sat_formula(4..20usize, 10..100usize, 0.05..0.2, 0.9..1.0),
            shrink in 1..=3u8,
        ) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            enable_shrinking(&mut solver, shrink);

            prop_assert_eq!(solver.solve().ok(), Some(true));

            let model = solver.model().unwrap();
            for clause in formula.iter() {
                prop_assert!(clause.iter().any(|lit| model.contains(lit)));
            }
        }

        /// Deciding with target phases from the first conflict on keeps the
        /// answers right, and the self-checker accepts every step.
        #[test]
        fn sgen_unsat_target_phases(
            formula in sgen_unsat_formula(1..7usize),
            test_schedule in proptest::bool::ANY,
        ) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            enable_target_phases(&mut solver);
            if test_schedule {
                enable_test_schedule(&mut solver);
            }

            prop_assert_eq!(solver.solve().ok(), Some(false));
        }

        #[test]
        fn sat_target_phases(formula in sat_formula(4..20usize, 10..100usize, 0.05..0.2, 0.9..1.0)) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            enable_target_phases(&mut solver);

            prop_assert_eq!(solver.solve().ok(), Some(true));

            let model = solver.model().unwrap();
            for clause in formula.iter() {
                prop_assert!(clause.iter().any(|lit| model.contains(lit)));
            }
        }

        /// Rephasing every few conflicts keeps the answers right, and the
        /// self-checker accepts every step.
        #[test]
        fn sgen_unsat_rephasing(
            formula in sgen_unsat_formula(1..7usize),
            interval in 1..4u64,
            test_schedule in proptest::bool::ANY,
        ) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            enable_rephasing(&mut solver, interval);
            if test_schedule {
                enable_test_schedule(&mut solver);
            }

            prop_assert_eq!(solver.solve().ok(), Some(false));
        }

        #[test]
        fn sat_rephasing(
            formula in sat_formula(4..20usize, 10..100usize, 0.05..0.2, 0.9..1.0),
            interval in 1..4u64,
        ) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            enable_rephasing(&mut solver, interval);

            prop_assert_eq!(solver.solve().ok(), Some(true));

            let model = solver.model().unwrap();
            for clause in formula.iter() {
                prop_assert!(clause.iter().any(|lit| model.contains(lit)));
            }
        }

        /// A deadline already passed stops the search before it starts; short
        /// deadlines stop it anywhere. Every search resumed after an interrupt
        /// still ends in the right answer, and the self-checker accepts every
        /// step taken across the interrupts.
        #[test]
        fn sgen_unsat_interrupted(
            formula in sgen_unsat_formula(1..7usize),
            test_schedule in proptest::bool::ANY,
        ) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            if test_schedule {
                enable_test_schedule(&mut solver);
            }

            solver.set_deadline(Some(Instant::now()));
            prop_assert!(matches!(solver.solve(), Err(SolverError::Interrupted)));
            prop_assert_eq!(solve_in_slices(&mut solver), false);
        }

        /// A limit of no conflicts stops the search before it starts, and an
        /// unsatisfiable formula without unit clauses needs a conflict to be
        /// refuted. Raised one conflict at a time, the search still ends in
        /// the right answer, and the self-checker accepts every step.
        #[test]
        fn sgen_unsat_conflict_limited(
            formula in sgen_unsat_formula(1..7usize),
            test_schedule in proptest::bool::ANY,
        ) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            if test_schedule {
                enable_test_schedule(&mut solver);
            }

            solver.set_conflict_limit(Some(0));
            prop_assert!(matches!(solver.solve(), Err(SolverError::Interrupted)));
            let (interrupts, sat) = solve_by_conflicts(&mut solver);
            prop_assert!(!sat);
            prop_assert!(interrupts >= 1);
        }

        #[test]
        fn sat_conflict_limited(formula in sat_formula(4..20usize, 10..100usize, 0.05..0.2, 0.9..1.0)) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);

            solver.set_conflict_limit(Some(0));
            prop_assert!(matches!(solver.solve(), Err(SolverError::Interrupted)));
            prop_assert!(solve_by_conflicts(&mut solver).1);

            let model = solver.model().unwrap();
            for clause in formula.iter() {
                prop_assert!(clause.iter().any(|lit| model.contains(lit)));
            }
        }

        /// A set flag stops the search before it starts; once it is
        /// cleared, the search goes on to the right answer, every step
        /// accepted by the self-checker.
        #[test]
        fn sgen_unsat_flag_interrupted(
            formula in sgen_unsat_formula(1..7usize),
            test_schedule in proptest::bool::ANY,
        ) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            if test_schedule {
                enable_test_schedule(&mut solver);
            }

            let flag = Arc::new(AtomicBool::new(true));
            solver.set_interrupt(Some(Arc::clone(&flag)));
            prop_assert!(matches!(solver.solve(), Err(SolverError::Interrupted)));
            flag.store(false, std::sync::atomic::Ordering::Relaxed);
            prop_assert_eq!(solver.solve().ok(), Some(false));
        }

        #[test]
        fn sat_flag_interrupted(formula in sat_formula(4..20usize, 10..100usize, 0.05..0.2, 0.9..1.0)) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);

            let flag = Arc::new(AtomicBool::new(true));
            solver.set_interrupt(Some(Arc::clone(&flag)));
            prop_assert!(matches!(solver.solve(), Err(SolverError::Interrupted)));
            solver.set_interrupt(None);
            prop_assert_eq!(solver.solve().ok(), Some(true));

            let model = solver.model().unwrap();
            for clause in formula.iter() {
                prop_assert!(clause.iter().any(|lit| model.contains(lit)));
            }
        }

        /// Phases that satisfy every clause of a formula of two-literal
        /// clauses over distinct variables are followed without a conflict:
        /// the model is the phases.
        #[test]
        fn phases_that_satisfy_the_formula_are_its_model(
            phases in proptest::collection::vec((proptest::bool::ANY, proptest::bool::ANY), 1..40),
        ) {
            let mut solver = Solver::new();
            let mut wanted = vec![];
            for (i, &(a, b)) in phases.iter().enumerate() {
                // Not both false: the clause (x ∨ y) holds.
                let (x, y) = (Lit::from_index(2 * i, true), Lit::from_index(2 * i + 1, true));
                let (a, b) = if !a && !b { (false, true) } else { (a, b) };
                solver.add_clause(&[x, y]);
                let (x, y) = (if a { x } else { !x }, if b { y } else { !y });
                prop_assert!(solver.set_phase(x));
                prop_assert!(solver.set_phase(y));
                wanted.push(x);
                wanted.push(y);
            }
            prop_assert!(!solver.set_phase(Lit::from_index(2 * phases.len(), true)));
            prop_assert_eq!(solver.solve().ok(), Some(true));
            let mut model = solver.model().unwrap();
            model.sort();
            wanted.sort();
            prop_assert_eq!(model, wanted);
        }

        /// With every pair of k variables in a clause (at most one false),
        /// the first decision (phase false) forces every other variable
        /// true: the one false variable is the most active.
        #[test]
        fn the_most_active_variable_is_decided_first(
            activities in proptest::collection::vec(0.0f32..1.0, 2..30),
        ) {
            let k = activities.len();
            let mut solver = Solver::new();
            for i in 0..k {
                for j in i + 1..k {
                    solver.add_clause(&[Lit::from_index(i, true), Lit::from_index(j, true)]);
                }
            }
            for (i, &activity) in activities.iter().enumerate() {
                prop_assert!(solver.set_activity(Var::from_index(i), activity));
            }
            prop_assert_eq!(solver.solve().ok(), Some(true));
            let model = solver.model().unwrap();
            let falses: Vec<usize> = model.iter().filter(|l| l.is_negative()).map(|l| l.index()).collect();
            prop_assert_eq!(falses.len(), 1);
            let most = activities.iter().cloned().fold(f32::MIN, f32::max);
            prop_assert_eq!(activities[falses[0]], most);
        }

        /// Random phases and activities change the search, never the answer.
        #[test]
        fn sgen_unsat_phases_and_activities(
            formula in sgen_unsat_formula(1..7usize),
            seed in proptest::num::u64::ANY,
        ) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            scramble(&mut solver, formula.var_count(), seed);
            prop_assert_eq!(solver.solve().ok(), Some(false));
        }

        #[test]
        fn sat_phases_and_activities(
            formula in sat_formula(4..20usize, 10..100usize, 0.05..0.2, 0.9..1.0),
            seed in proptest::num::u64::ANY,
        ) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);
            scramble(&mut solver, formula.var_count(), seed);
            prop_assert_eq!(solver.solve().ok(), Some(true));

            let model = solver.model().unwrap();
            for clause in formula.iter() {
                prop_assert!(clause.iter().any(|lit| model.contains(lit)));
            }
        }

        #[test]
        fn sat_interrupted(formula in sat_formula(4..20usize, 10..100usize, 0.05..0.2, 0.9..1.0)) {
            let mut solver = Solver::new();
            solver.enable_self_checking();
            solver.add_formula(&formula);

            solver.set_deadline(Some(Instant::now()));
            prop_assert!(matches!(solver.solve(), Err(SolverError::Interrupted)));
            prop_assert_eq!(solve_in_slices(&mut solver), true);

            let model = solver.model().unwrap();
            for clause in formula.iter() {
                prop_assert!(clause.iter().any(|lit| model.contains(lit)));
            }
        }

        #[test]
        fn sat_via_dimacs(formula in sat_formula(4..20usize, 10..100usize, 0.05..0.2, 0.9..1.0)) {
            let mut solver = Solver::new();

            let mut dimacs = vec![];

            write_dimacs(&mut dimacs, &formula).unwrap();

            solver.add_dimacs_cnf(&mut &dimacs[..]).unwrap();

            prop_assert_eq!(solver.solve().ok(), Some(true));

            let model = solver.model().unwrap();

            for clause in formula.iter() {
                prop_assert!(clause.iter().any(|lit| model.contains(lit)));
            }
        }

        #[test]
        fn sgen_unsat_incremental_clauses(formula in sgen_unsat_formula(1..7usize)) {
            let mut solver = Solver::new();

            let mut last_state = Some(true);

            for clause in formula.iter() {
                solver.add_clause(clause);

                let state = solver.solve().ok();
                if state != last_state {
                    prop_assert_eq!(state, Some(false));
                    prop_assert_eq!(last_state, Some(true));
                    last_state = state;
                }
            }

            prop_assert_eq!(last_state, Some(false));
        }
    }
}
