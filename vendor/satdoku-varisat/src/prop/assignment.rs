//! Partial assignment and backtracking.
use partial_ref::{partial, PartialRef};

use varisat_formula::{lit::LitIdx, Lit, Var};

use crate::{
    context::{parts::*, Context},
    decision::make_available,
};

use super::{graph::ImplNode, Reason};

/// Current partial assignment.
#[derive(Default)]
pub struct Assignment {
    /// The value of each variable's two literals, positive first: `[TRUE, FALSE]`, `[FALSE,
    /// TRUE]` or `[UNASSIGNED; 2]`. Read through [`Assignment::lit_values`], a literal's value
    /// is one byte at its code: one load, without the shift and the comparison with the
    /// literal's polarity that a table of variables needs.
    values: Vec<[u8; 2]>,
    last_value: Vec<bool>,
    /// Phases of the longest conflict-free assignment since the last rephase.
    target_value: Vec<bool>,
    /// Length of that assignment, 0 when there is none.
    target_assigned: usize,
    /// Whether target and best phases are kept and decided with.
    target_phases: bool,
    /// Phases of the longest conflict-free assignment since the last rephase to them.
    best_value: Vec<bool>,
    /// Length of that assignment.
    best_assigned: usize,
}

/// A reset of the saved phases, see [`Assignment::rephase`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rephase {
    /// Every variable false.
    Original,
    /// Every variable true.
    Inverted,
    /// The longest conflict-free assignment since the last `Best` rephase.
    Best,
}

// The bytes of `Option<bool>`'s values (`false`, `true`, then `None`), which lets
// `Assignment::lit_value` turn one into the other in few instructions.

/// The value of a false literal in [`Assignment::lit_values`].
pub const FALSE: u8 = 0;
/// The value of a true literal in [`Assignment::lit_values`].
pub const TRUE: u8 = 1;
/// The value of an unassigned literal in [`Assignment::lit_values`].
pub const UNASSIGNED: u8 = 2;

/// The values of a variable's two literals, positive first, for the variable's value.
#[inline(always)]
fn pair_of(value: Option<bool>) -> [u8; 2] {
    match value {
        None => [UNASSIGNED; 2],
        Some(true) => [TRUE, FALSE],
        Some(false) => [FALSE, TRUE],
    }
}

/// The values of a variable's two literals when `lit` is true.
#[inline(always)]
fn pair_with_true(lit: Lit) -> [u8; 2] {
    pair_of(Some(lit.is_positive()))
}

impl Assignment {
    /// Update structures for a new variable count.
    pub fn set_var_count(&mut self, count: usize) {
        self.values.resize(count, [UNASSIGNED; 2]);
        self.last_value.resize(count, false);
        self.target_value.resize(count, false);
        self.best_value.resize(count, false);
    }

    /// The number of variables.
    pub fn var_count(&self) -> usize {
        self.values.len()
    }

    /// Each literal's value (`TRUE`, `FALSE` or `UNASSIGNED`), indexed by its code.
    #[inline(always)]
    pub fn lit_values(&self) -> &[u8] {
        self.values.as_flattened()
    }

    /// Value assigned to a variable.
    pub fn var_value(&self, var: Var) -> Option<bool> {
        self.lit_value(var.positive())
    }

    /// Value last assigned to a variable.
    ///
    /// If the variable is currently assigned this returns the previously assigned value. If the
    /// variable was never assigned this returns false.
    pub fn last_var_value(&self, var: Var) -> bool {
        self.last_value[var.index()]
    }

    /// Save `value` as the variable's last value and as its target phase: what it is decided
    /// with until it is assigned another (or a rephase or a new target takes over). Without the
    /// target a kept target phase would decide instead, as after any search with target phases.
    pub fn set_phase(&mut self, var: Var, value: bool) {
        self.last_value[var.index()] = value;
        self.target_value[var.index()] = value;
    }

    /// The value to decide a variable with: its target phase when there is one, else its last
    /// value.
    pub fn decision_phase(&self, var: Var) -> bool {
        if self.target_assigned > 0 {
            self.target_value[var.index()]
        } else {
            self.last_value[var.index()]
        }
    }

    /// Start keeping target and best phases and deciding with the target phases.
    pub fn enable_target_phases(&mut self) {
        self.target_phases = true;
    }

    /// Record the phases if the conflict-free assignment of length `no_conflict_until` is the
    /// longest since the last rephase (target) or since the last rephase to the best (best).
    pub fn update_target_and_best(&mut self, no_conflict_until: usize) {
        if !self.target_phases {
            return;
        }
        if no_conflict_until > self.target_assigned {
            copy_phases(&self.values, &self.last_value, &mut self.target_value);
            self.target_assigned = no_conflict_until;
        }
        if no_conflict_until > self.best_assigned {
            copy_phases(&self.values, &self.last_value, &mut self.best_value);
            self.best_assigned = no_conflict_until;
        }
    }

    /// Reset the saved phases and forget the target phases.
    pub fn rephase(&mut self, rephase: Rephase) {
        match rephase {
            Rephase::Original => self.last_value.fill(false),
            Rephase::Inverted => self.last_value.fill(true),
            Rephase::Best => {
                // Nothing recorded (target phases off): keep the saved phases.
                if self.best_assigned > 0 {
                    self.last_value.copy_from_slice(&self.best_value);
                }
                self.best_assigned = 0;
            }
        }
        self.target_assigned = 0;
    }

    /// Value assigned to a literal.
    pub fn lit_value(&self, lit: Lit) -> Option<bool> {
        match self.lit_values()[lit.code()] {
            FALSE => Some(false),
            TRUE => Some(true),
            _ => None,
        }
    }

    pub fn lit_is_true(&self, lit: Lit) -> bool {
        self.lit_values()[lit.code()] == TRUE
    }

    pub fn lit_is_false(&self, lit: Lit) -> bool {
        self.lit_values()[lit.code()] == FALSE
    }

    pub fn lit_is_unk(&self, lit: Lit) -> bool {
        self.lit_values()[lit.code()] == UNASSIGNED
    }

    #[inline(always)]
    pub fn assign_lit(&mut self, lit: Lit) {
        self.values[lit.index()] = pair_with_true(lit);
    }

    pub fn unassign_var(&mut self, var: Var) {
        self.values[var.index()] = [UNASSIGNED; 2];
    }

    /// Set the assigned/unassigned value of a variable.
    pub fn set_var(&mut self, var: Var, assignment: Option<bool>) {
        self.values[var.index()] = pair_of(assignment);
    }
}

/// Each variable's current value, or its last one when it is unassigned.
fn copy_phases(values: &[[u8; 2]], last_value: &[bool], phases: &mut [bool]) {
    for ((phase, &[positive, _]), &last) in phases.iter_mut().zip(values).zip(last_value) {
        *phase = match positive {
            TRUE => true,
            FALSE => false,
            _ => last,
        };
    }
}

/// Decision and propagation history.
#[derive(Default)]
pub struct Trail {
    /// Stack of all propagated and all enqueued assignments
    trail: Vec<Lit>,
    /// Next assignment in trail to propagate
    queue_head_pos: usize,
    /// Decision levels as trail indices.
    decisions: Vec<LitIdx>,
    /// Number of unit clauses removed from the trail.
    units_removed: usize,
}

impl Trail {
    /// Return the next assigned literal to propagate.
    pub fn queue_head(&self) -> Option<Lit> {
        self.trail.get(self.queue_head_pos).cloned()
    }

    ///  Return the next assigned literal to propagate and remove it from the queue.
    pub fn pop_queue(&mut self) -> Option<Lit> {
        let head = self.queue_head();
        if head.is_some() {
            self.queue_head_pos += 1;
        }
        head
    }

    /// Re-enqueue all assigned literals.
    pub fn reset_queue(&mut self) {
        self.queue_head_pos = 0;
    }

    /// Assigned literals in assignment order.
    pub fn trail(&self) -> &[Lit] {
        &self.trail
    }

    /// Clear the trail.
    ///
    /// This simply removes all entries without performing any backtracking. Can only be called with
    /// no active decisions.
    pub fn clear(&mut self) {
        assert!(self.decisions.is_empty());
        self.units_removed += self.trail.len();
        self.trail.clear();
        self.queue_head_pos = 0;
    }

    /// Start a new decision level.
    ///
    /// Does not enqueue the decision itself.
    pub fn new_decision_level(&mut self) {
        self.decisions.push(self.trail.len() as LitIdx)
    }

    /// Current decision level.
    pub fn current_level(&self) -> usize {
        self.decisions.len()
    }

    /// The number of assignments at level 0.
    pub fn top_level_assignment_count(&self) -> usize {
        self.assigned_before(self.decisions.first())
    }

    /// The number of assignments below the current decision level, units removed included: the
    /// assignment that propagated without conflict before the last decision.
    pub fn conflict_free_len(&self) -> usize {
        self.assigned_before(self.decisions.last())
    }

    /// The number of assignments before a decision level starts (all of them for none).
    fn assigned_before(&self, level_start: Option<&LitIdx>) -> usize {
        level_start
            .map(|&len| len as usize)
            .unwrap_or(self.trail.len())
            + self.units_removed
    }

    /// Whether all assignments are processed.
    pub fn fully_propagated(&self) -> bool {
        self.queue_head_pos == self.trail.len()
    }
}

/// Enqueues the assignment of true to a literal.
///
/// This updates the assignment and trail, but does not perform any propagation. The literal has to
/// be unassigned when calling this.
pub fn enqueue_assignment(
    mut ctx: partial!(Context, mut AssignmentP, mut ImplGraphP, mut TrailP),
    lit: Lit,
    reason: Reason,
) {
    let assignment = ctx.part_mut(AssignmentP);
    debug_assert!(assignment.lit_value(lit) == None);

    assignment.assign_lit(lit);

    let (trail, mut ctx) = ctx.split_part_mut(TrailP);

    trail.trail.push(lit);

    let node = &mut ctx.part_mut(ImplGraphP).nodes[lit.index()];
    node.reason = reason;
    node.level = trail.decisions.len() as LitIdx;
    node.depth = trail.trail.len() as LitIdx;
}

/// Enqueues the assignment of true to each unassigned literal of `implied`, in order, each with
/// the binary clause `(!lit, implied)` as its reason: what propagating `lit` through its binary
/// clauses does.
///
/// Returns the first literal of `implied` that is already false (a conflict); those before it
/// stay enqueued. This is [`enqueue_assignment`] in a loop, with the assignment read once per
/// literal and the trail grown once per call: binary propagation is about a fifth of the solver's
/// time on satdoku's big grids.
pub fn enqueue_binary_implied(
    mut ctx: partial!(Context, mut AssignmentP, mut ImplGraphP, mut TrailP),
    lit: Lit,
    implied: &[Lit],
) -> Result<(), Lit> {
    let (assignment, mut ctx) = ctx.split_part_mut(AssignmentP);
    let (trail, mut ctx) = ctx.split_part_mut(TrailP);
    let nodes = &mut ctx.part_mut(ImplGraphP).nodes;

    let values = &mut assignment.values;
    let reason = Reason::Binary([!lit]);
    let level = trail.decisions.len() as LitIdx;
    trail.trail.reserve(implied.len());

    for &implied in implied {
        let value = values.as_flattened()[implied.code()];
        if value == UNASSIGNED {
            values[implied.index()] = pair_with_true(implied);
            trail.trail.push(implied);
            nodes[implied.index()] = ImplNode {
                reason,
                level,
                depth: trail.trail.len() as LitIdx,
            };
        } else if value != TRUE {
            return Err(implied);
        }
    }
    Ok(())
}

/// Undo all assignments in decision levels deeper than the given level.
pub fn backtrack(
    mut ctx: partial!(Context, mut AssignmentP, mut TrailP, mut VsidsP),
    level: usize,
) {
    let (assignment, mut ctx) = ctx.split_part_mut(AssignmentP);
    let (trail, mut ctx) = ctx.split_part_mut(TrailP);

    // level can actually be greater than the current level. This happens when restart is called
    // after a conflict backtracked into the assumptions, but before any assumption was reenqueued.
    // TODO should we update assumption_levels on backtracking instead of allowing this here?
    if level >= trail.decisions.len() {
        return;
    }

    let new_trail_len = trail.decisions[level] as usize;

    trail.queue_head_pos = new_trail_len;
    trail.decisions.truncate(level);

    let trail_end = &trail.trail[new_trail_len..];
    for &lit in trail_end {
        make_available(ctx.borrow(), lit.var());
        let values = &mut assignment.values[lit.index()];
        assignment.last_value[lit.index()] = values[0] == TRUE;
        *values = [UNASSIGNED; 2];
    }
    trail.trail.truncate(new_trail_len);
}

/// Undo all decisions and assumptions.
pub fn full_restart(
    mut ctx: partial!(
        Context,
        mut AssignmentP,
        mut AssumptionsP,
        mut TrailP,
        mut VsidsP,
    ),
) {
    ctx.part_mut(AssumptionsP).full_restart();
    backtrack(ctx.borrow(), 0);
}

/// Undo all decisions.
pub fn restart(
    mut ctx: partial!(
        Context,
        mut AssignmentP,
        mut TrailP,
        mut VsidsP,
        AssumptionsP
    ),
) {
    let level = ctx.part(AssumptionsP).assumption_levels();
    backtrack(ctx.borrow(), level);
}

#[cfg(test)]
mod value_tests {
    use super::*;

    /// Every way of reading a value agrees with the others, for both literals of each variable.
    fn check_values(a: &Assignment, expected: &[Option<bool>]) {
        assert_eq!(a.var_count(), expected.len());
        assert_eq!(a.lit_values().len(), 2 * expected.len());
        for (index, &value) in expected.iter().enumerate() {
            let var = Var::from_index(index);
            assert_eq!(a.var_value(var), value);
            for positive in [true, false] {
                let lit = var.lit(positive);
                let lit_value = value.map(|value| value == positive);
                assert_eq!(a.lit_value(lit), lit_value);
                assert_eq!(a.lit_is_true(lit), lit_value == Some(true));
                assert_eq!(a.lit_is_false(lit), lit_value == Some(false));
                assert_eq!(a.lit_is_unk(lit), lit_value.is_none());
                let byte = match lit_value {
                    Some(true) => TRUE,
                    Some(false) => FALSE,
                    None => UNASSIGNED,
                };
                assert_eq!(a.lit_values()[lit.code()], byte);
            }
        }
    }

    #[test]
    fn a_literal_reads_its_value_where_its_variable_was_assigned() {
        let mut a = Assignment::default();
        a.set_var_count(3);
        check_values(&a, &[None, None, None]);
        a.assign_lit(Var::from_index(0).lit(true));
        a.assign_lit(Var::from_index(2).lit(false));
        check_values(&a, &[Some(true), None, Some(false)]);
        a.set_var(Var::from_index(1), Some(false));
        a.set_var(Var::from_index(2), None);
        a.set_var_count(4);
        check_values(&a, &[Some(true), Some(false), None, None]);
        a.unassign_var(Var::from_index(0));
        a.set_var(Var::from_index(3), Some(true));
        check_values(&a, &[None, Some(false), None, Some(true)]);
    }
}

#[cfg(test)]
mod phase_tests {
    use super::*;

    fn var(i: usize) -> Var {
        Var::from_index(i)
    }

    /// Three variables: x0 = true and x1 = false assigned, x2 unassigned with last value true.
    fn assignment() -> Assignment {
        let mut a = Assignment::default();
        a.set_var_count(3);
        a.last_value[2] = true;
        a.assign_lit(var(0).lit(true));
        a.assign_lit(var(1).lit(false));
        a
    }

    #[test]
    fn target_phases_are_kept_only_once_enabled() {
        let mut a = assignment();
        a.update_target_and_best(2);
        assert_eq!(a.target_assigned, 0, "recorded while disabled");
        assert!(
            !a.decision_phase(var(0)),
            "without a target, the last value decides"
        );
        a.enable_target_phases();
        a.update_target_and_best(2);
        // Assigned variables give their values, unassigned ones their last values.
        assert_eq!(a.target_value, [true, false, true]);
        assert_eq!(a.best_value, [true, false, true]);
        assert!(a.decision_phase(var(0)) && !a.decision_phase(var(1)) && a.decision_phase(var(2)));
    }

    #[test]
    fn only_a_longer_conflict_free_assignment_replaces_the_target() {
        let mut a = assignment();
        a.enable_target_phases();
        a.update_target_and_best(2);
        a.set_var(var(0), Some(false));
        a.update_target_and_best(2);
        assert!(
            a.target_value[0],
            "an assignment no longer than the target replaced it"
        );
        a.update_target_and_best(3);
        assert!(!a.target_value[0] && !a.best_value[0]);
    }

    #[test]
    fn a_set_phase_decides_where_a_target_is_kept() {
        let mut a = assignment();
        a.enable_target_phases();
        a.update_target_and_best(2);
        a.set_phase(var(0), false);
        a.set_phase(var(2), false);
        assert!(
            !a.decision_phase(var(0)) && !a.decision_phase(var(2)),
            "the target overrode the set phase"
        );
        assert!(a.target_assigned > 0, "setting a phase forgot the target");
        assert!(!a.decision_phase(var(1)), "a phase not set changed");
    }

    #[test]
    fn rephasing_resets_the_saved_phases_and_forgets_the_target() {
        let mut a = assignment();
        a.enable_target_phases();
        a.update_target_and_best(2);
        a.rephase(Rephase::Original);
        assert_eq!(a.last_value, [false; 3]);
        assert_eq!(a.target_assigned, 0);
        assert!(
            !a.decision_phase(var(0)),
            "the forgotten target still decides"
        );
        a.rephase(Rephase::Inverted);
        assert_eq!(a.last_value, [true; 3]);
        a.rephase(Rephase::Best);
        assert_eq!(a.last_value, [true, false, true]);
        // The best is forgotten with its use: a second best rephase keeps the saved phases.
        a.rephase(Rephase::Original);
        a.rephase(Rephase::Best);
        assert_eq!(a.last_value, [false; 3]);
    }
}
