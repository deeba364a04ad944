//! Miscellaneous solver state.
use std::{
    sync::{
        atomic::{AtomicBool, AtomicU64},
        Arc,
    },
    time::Instant,
};

use crate::solver::SolverError;

/// Satisfiability state.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum SatState {
    Unknown,
    Sat,
    Unsat,
    UnsatUnderAssumptions,
}

impl Default for SatState {
    fn default() -> SatState {
        SatState::Unknown
    }
}

/// Miscellaneous solver state.
///
/// Anything larger or any larger group of related state variables should be moved into a separate
/// part of [`Context`](crate::context::Context).
pub struct SolverState {
    pub sat_state: SatState,
    pub formula_is_empty: bool,
    /// Whether solve was called at least once.
    pub solver_invoked: bool,
    pub state_is_invalid: bool,
    pub solver_error: Option<SolverError>,
    /// When the search gives up (see [`crate::Solver::set_deadline`]).
    pub deadline: Option<Instant>,
    /// How many conflicts the search may reach (see [`crate::Solver::set_conflict_limit`]).
    pub conflict_limit: Option<u64>,
    /// Set from outside to stop the search (see [`crate::Solver::set_interrupt`]).
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Counts every conflict, for others to read (see [`crate::Solver::set_conflict_counter`]).
    pub conflict_counter: Option<Arc<AtomicU64>>,
}

impl Default for SolverState {
    fn default() -> SolverState {
        SolverState {
            sat_state: SatState::Unknown,
            formula_is_empty: true,
            solver_invoked: false,
            state_is_invalid: false,
            solver_error: None,
            deadline: None,
            conflict_limit: None,
            interrupt: None,
            conflict_counter: None,
        }
    }
}
