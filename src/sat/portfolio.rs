//! A race on one puzzle: several differently seeded varisat solvers search
//! the same formula, one thread each; the first verified answer wins and the
//! others are stopped at once.
//!
//! The hard searches are lotteries (rkkautsar-64-1 took 6–33 s, or more than
//! 40 s, with its clauses in different orders; see docs/performance.md), so
//! solvers that decide in different orders finish at very different times,
//! and the fastest of several draws is what a race gets.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use varisat::config::SolverConfigUpdate;
use varisat::Solver;

use crate::cnf::varmap::VarMap;
use crate::error::InternalError;
use crate::model::geometry::Geometry;
use crate::pipeline::Prepared;
use crate::reasoning::pattern::ValueGroups;
use crate::rng::Rng;
use crate::sat::varisat::{run, Loaded};
use crate::sat::{Backend, Limits, SatResult};
use crate::solve::{SolveError, Stats};

/// varisat as a [`Backend`] that races `solvers` differently seeded solvers,
/// one thread each; the first to answer wins. Solver 0 searches exactly as
/// [`crate::sat::varisat::Varisat`] does, so a race is never a worse draw
/// than one solver, only a dearer one (each solver holds its own copy of the
/// formula). Its "unsatisfiable" stands as it is.
pub(crate) struct Portfolio {
    pub solvers: usize,
    /// [`crate::SolveOptions::seed`]: with the racer's number, the seed of its order.
    pub seed: u64,
}

/// What one racer came to, with its sizes and times.
type Answer = (Result<SatResult, SolveError>, Stats);

impl Backend for Portfolio {
    fn search(
        &mut self,
        prepared: &Prepared,
        guesses: &[ValueGroups],
        limits: Limits,
        stats: &mut Stats,
    ) -> Result<SatResult, SolveError> {
        prepared.check_size_until(limits.deadline)?;
        let stop = Arc::new(AtomicBool::new(false));
        // The first definite answer (a verified grid, "unsatisfiable", or an error).
        let winner: Mutex<Option<Answer>> = Mutex::new(None);
        let mut interrupted = None;
        let seed = self.seed;
        std::thread::scope(|scope| {
            let mut racers = Vec::new();
            for index in 0..self.solvers.max(1) {
                let (stop, winner) = (Arc::clone(&stop), &winner);
                let racer = std::thread::Builder::new().spawn_scoped(scope, move || {
                    let answer = race_one(prepared, guesses, limits, (index, seed), &stop);
                    if matches!(answer.0, Ok(SatResult::Interrupted)) {
                        return Some(answer);
                    }
                    // A poisoned lock means another racer panicked: this answer still counts.
                    let mut first = winner.lock().unwrap_or_else(|e| e.into_inner());
                    if first.is_none() {
                        *first = Some(answer);
                        stop.store(true, Ordering::Relaxed);
                    }
                    None
                });
                match racer {
                    Ok(racer) => racers.push(racer),
                    // No more threads to be had: race with those there are.
                    Err(_) if !racers.is_empty() => break,
                    Err(e) => {
                        let error = InternalError(format!("cannot start a solver thread: {e}"));
                        *winner.lock().unwrap_or_else(|e| e.into_inner()) = Some((Err(error.into()), Stats::default()));
                    }
                }
            }
            for racer in racers {
                match racer.join() {
                    Ok(Some(answer)) => {
                        interrupted.get_or_insert(answer);
                    }
                    Ok(None) => {}
                    Err(_) => {
                        let error = InternalError("a solver thread panicked".into());
                        let mut first = winner.lock().unwrap_or_else(|e| e.into_inner());
                        first.get_or_insert((Err(error.into()), Stats::default()));
                    }
                }
            }
        });
        let winner = winner.into_inner().unwrap_or_else(|e| e.into_inner());
        let (result, racer_stats) = winner.or(interrupted).unwrap_or((Ok(SatResult::Interrupted), Stats::default()));
        stats.variables += racer_stats.variables;
        stats.clauses += racer_stats.clauses;
        stats.encode += racer_stats.encode;
        stats.solve += racer_stats.solve;
        if let Some(conflicts) = racer_stats.conflicts {
            stats.add_conflicts(conflicts);
        }
        result
    }

    fn claimant(&self) -> Option<&str> {
        None
    }
}

/// Racer `index`: load the formula into its own solver, seed it, search until
/// an answer, the limits, or `stop`; a model comes back decoded and verified.
fn race_one(
    prepared: &Prepared,
    guesses: &[ValueGroups],
    limits: Limits,
    (index, seed): (usize, u64),
    stop: &Arc<AtomicBool>,
) -> Answer {
    let mut stats = Stats::default();
    let start = Instant::now();
    let Loaded { mut solver, map, variables, clauses } = match Loaded::new(prepared, guesses, limits.deadline) {
        Ok(loaded) => loaded,
        Err(e) => return (Err(e), stats),
    };
    solver.set_conflict_limit(limits.conflicts);
    solver.set_interrupt(Some(Arc::clone(stop)));
    seed_racer(&mut solver, &map, prepared.puzzle().geometry(), index, seed);
    stats.variables = variables;
    stats.clauses = clauses;
    stats.encode = start.elapsed();
    let start = Instant::now();
    let result = run(&mut solver);
    stats.solve = start.elapsed();
    stats.conflicts = Some(solver.conflicts());
    let result = match result {
        Ok(SatResult::Sat(model)) => prepared.decode(&map, &model).map(SatResult::Sat).map_err(SolveError::from),
        Ok(SatResult::Unsat) => Ok(SatResult::Unsat),
        Ok(SatResult::Interrupted) => Ok(SatResult::Interrupted),
        Err(e) => Err(e.into()),
    };
    (result, stats)
}

/// Racer `index`'s way of searching. Racer 0 keeps satdoku's settings
/// untouched; every other one decides its cell variables first in an order of
/// its own (random activities, seeded by `seed` and its number), odd ones decide "the cell
/// holds the value" first where the others exclude values one by one, and
/// every third one restarts four times as often.
fn seed_racer(solver: &mut Solver, map: &VarMap, geometry: &Geometry, index: usize, seed: u64) {
    if index == 0 {
        return;
    }
    let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(index as u64));
    let holds = index % 2 == 1;
    for cell in geometry.cells() {
        for (_, var) in map.cell_vars(cell) {
            solver.set_activity(var, rng.unit());
            if holds {
                solver.set_phase(var.positive());
            }
        }
    }
    if index % 3 == 0 {
        let mut config = SolverConfigUpdate::new();
        config.luby_restart_interval_scale = Some(256);
        solver.config(&config).expect("a Luby scale of 256 is within varisat's range");
    }
}
