//! Solver configuration.
#![allow(non_local_definitions)] // DocDefault (varisat-internal-macros 0.2.2) derives inside a const block.
use varisat_internal_macros::{ConfigUpdate, DocDefault};

/// Configurable parameters used during solving.
#[derive(DocDefault, ConfigUpdate)]
pub struct SolverConfig {
    /// Multiplicative decay for the VSIDS decision heuristic.
    ///
    /// [default: 0.95]  [range: 0.5..1.0]
    pub vsids_decay: f32,

    /// Multiplicative decay for clause activities.
    ///
    /// [default: 0.999]  [range: 0.5..1.0]
    pub clause_activity_decay: f32,

    /// Number of conflicts between local clause reductions.
    ///
    /// [default: 15000]  [range: 1..]
    pub reduce_locals_interval: u64,

    /// Number of conflicts between mid clause reductions.
    ///
    /// [default: 10000]  [range: 1..]
    pub reduce_mids_interval: u64,

    /// Scaling factor for luby sequence based restarts (number of conflicts).
    ///
    /// [default: 128]  [range: 1..]
    pub luby_restart_interval_scale: u64,

    /// Conflicts after which decisions follow target phases: a variable's value in the longest
    /// conflict-free assignment since the last rephase, instead of its last value (CaDiCaL's
    /// stable mode). `u64::MAX` for never.
    ///
    /// [default: u64::MAX]  [range: 0..]
    pub target_phases_after: u64,

    /// Conflicts before the first rephase, 0 for none; the k-th follows k times as many
    /// conflicts later. A rephase resets the saved phases to all false, all true, or the best
    /// assignment seen, in the order O I (B O B I)*, and forgets the target phases.
    ///
    /// [default: 0]  [range: 0..]
    pub rephase_interval: u64,

    /// Learned-clause shrinking (Feng & Bacchus, "Efficient All-UIP Learned Clause
    /// Minimization", SAT 2021; Kissat's `shrink`): after minimization, the literals of each
    /// lower decision level of the learned clause are replaced by one literal, the level's block
    /// UIP, where one is found. 0: off; 1: resolving along binary reasons only; 2: along any
    /// reason whose literals of lower levels are in the clause or known to be implied by it;
    /// 3: also along reasons with lower-level literals that minimization shows implied.
    ///
    /// [default: 0]  [range: 0..=3]
    pub shrink: u8,
}
