//! Scheduling of processing and solving steps.
//!
//! The current implementation is temporary and will be replaced with something more flexible.
use std::{sync::atomic::Ordering, time::Instant};

use log::info;

use partial_ref::{partial, PartialRef};

use crate::{
    cdcl::conflict_step,
    clause::{
        collect_garbage,
        reduce::{reduce_locals, reduce_mids},
        Tier,
    },
    context::{parts::*, Context},
    prop::{restart, Rephase},
    state::SatState,
};

mod luby;

use luby::LubySequence;

/// Scheduling of processing and solving steps.
#[derive(Default)]
pub struct Schedule {
    conflicts: u64,
    next_restart: u64,
    restarts: u64,
    luby: LubySequence,
    rephases: u64,
    next_rephase: u64,
}

impl Schedule {
    /// Conflicts so far, over every search since the solver was made.
    pub fn conflicts(&self) -> u64 {
        self.conflicts
    }
}

/// The `k`-th rephase, counted from 1: all false, all true, then best, all false, best, all
/// true over and over.
fn nth_rephase(k: u64) -> Rephase {
    match k {
        1 => Rephase::Original,
        2 => Rephase::Inverted,
        k => [
            Rephase::Best,
            Rephase::Original,
            Rephase::Best,
            Rephase::Inverted,
        ][(k - 3) as usize % 4],
    }
}

/// Perform one step of the schedule.
pub fn schedule_step<'a>(
    mut ctx: partial!(
        Context<'a>,
        mut AnalyzeConflictP,
        mut AssignmentP,
        mut AssumptionsP,
        mut BinaryClausesP,
        mut ClauseActivityP,
        mut ClauseAllocP,
        mut ClauseDbP,
        mut ImplGraphP,
        mut ModelP,
        mut ProofP<'a>,
        mut ScheduleP,
        mut SolverStateP,
        mut TmpDataP,
        mut TmpFlagsP,
        mut TrailP,
        mut VariablesP,
        mut VsidsP,
        mut WatchlistsP,
        SolverConfigP,
    ),
) -> bool {
    let (schedule, mut ctx) = ctx.split_part_mut(ScheduleP);
    let (config, mut ctx) = ctx.split_part(SolverConfigP);

    let state = ctx.part(SolverStateP);
    if state.sat_state != SatState::Unknown
        || state.solver_error.is_some()
        || state
            .conflict_limit
            .is_some_and(|limit| schedule.conflicts >= limit)
        || state
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        || state
            .interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    {
        false
    } else {
        if schedule.conflicts > 0 && schedule.conflicts % 5000 == 0 {
            let db = ctx.part(ClauseDbP);
            let units = ctx.part(TrailP).top_level_assignment_count();
            info!(
                "confl: {}k rest: {} vars: {} bin: {} irred: {} core: {} mid: {} local: {}",
                schedule.conflicts / 1000,
                schedule.restarts,
                ctx.part(AssignmentP).var_count() - units,
                ctx.part(BinaryClausesP).count(),
                db.count_by_tier(Tier::Irred),
                db.count_by_tier(Tier::Core),
                db.count_by_tier(Tier::Mid),
                db.count_by_tier(Tier::Local)
            );
        }

        if schedule.next_restart == schedule.conflicts {
            restart(ctx.borrow());
            schedule.restarts += 1;
            schedule.next_restart += config.luby_restart_interval_scale * schedule.luby.advance();
        }

        if schedule.conflicts == config.target_phases_after {
            ctx.part_mut(AssignmentP).enable_target_phases();
        }

        if config.rephase_interval > 0 {
            if schedule.next_rephase == 0 {
                schedule.next_rephase = config.rephase_interval;
            }
            if schedule.conflicts == schedule.next_rephase {
                schedule.rephases += 1;
                ctx.part_mut(AssignmentP)
                    .rephase(nth_rephase(schedule.rephases));
                schedule.next_rephase += config.rephase_interval * (schedule.rephases + 1);
            }
        }

        if schedule.conflicts % config.reduce_locals_interval == 0 {
            reduce_locals(ctx.borrow());
        }
        if schedule.conflicts % config.reduce_mids_interval == 0 {
            reduce_mids(ctx.borrow());
        }

        collect_garbage(ctx.borrow());

        conflict_step(ctx.borrow());
        schedule.conflicts += 1;
        if let Some(counter) = &ctx.part(SolverStateP).conflict_counter {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rephases_go_original_inverted_then_best_original_best_inverted() {
        use Rephase::*;
        let order: Vec<Rephase> = (1..=10).map(nth_rephase).collect();
        assert_eq!(
            order,
            [Original, Inverted, Best, Original, Best, Inverted, Best, Original, Best, Inverted]
        );
    }
}
