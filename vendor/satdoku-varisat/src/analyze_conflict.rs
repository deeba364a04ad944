//! Learns a new clause by analyzing a conflict.
use std::mem::swap;

use partial_ref::{partial, split_borrow, PartialRef};

use vec_mut_scan::VecMutScan;

use varisat_formula::{lit::LitIdx, Lit, Var};
use varisat_internal_proof::{clause_hash, lit_hash, ClauseHash};

use crate::{
    clause::ClauseRef,
    context::{parts::*, Context},
    prop::{Conflict, ImplGraph, Reason},
};

/// Temporaries for conflict analysis
#[derive(Default)]
pub struct AnalyzeConflict {
    /// This is the learned clause after analysis finishes.
    clause: Vec<Lit>,
    /// Number of literals in the current clause at the current level.
    current_level_count: usize,
    /// Variables in the current clause.
    var_flags: Vec<bool>,
    /// Entries to clean in `var_flags`.
    to_clean: Vec<Var>,
    /// Clauses to bump.
    involved: Vec<ClauseRef>,
    /// Hashes of all involved clauses needed to proof the minimized clause.
    clause_hashes: Vec<ClauseHash>,
    /// Clause hashes paired with the trail depth of the propagated lit.
    unordered_clause_hashes: Vec<(LitIdx, ClauseHash)>,
    /// The path of the DFS of recursive minimization: each literal being expanded, and how many
    /// literals of its reason are done.
    path: Vec<(Lit, usize)>,
    /// Variables known not to be implied by the clause being minimized.
    poisoned: Vec<bool>,
    /// Entries to clean in `poisoned`.
    to_unpoison: Vec<Var>,
    /// The marks of shrinking.
    blocks: Blocks,
}

/// The marks of shrinking one block of the learned clause.
#[derive(Default)]
struct Blocks {
    /// Variables of the decision level being shrunk that are resolved or still to be resolved.
    shrinkable: Vec<bool>,
    /// Entries to clean in `shrinkable`.
    to_unshrink: Vec<Var>,
    /// Clause hashes of the reasons resolved in shrinking the block, with trail depths.
    hashes: Vec<(LitIdx, ClauseHash)>,
}

impl AnalyzeConflict {
    /// Update structures for a new variable count.
    pub fn set_var_count(&mut self, count: usize) {
        self.var_flags.resize(count, false);
        self.poisoned.resize(count, false);
        self.blocks.shrinkable.resize(count, false);
    }

    /// The learned clause.
    pub fn clause(&self) -> &[Lit] {
        &self.clause
    }

    /// Long clauses involved in the conflict.
    pub fn involved(&self) -> &[ClauseRef] {
        &self.involved
    }

    /// Hashes of clauses involved in the proof of the learned clause.
    ///
    /// Hashes are in clause propagation order.
    pub fn clause_hashes(&self) -> &[ClauseHash] {
        &self.clause_hashes
    }

    /// The clause, the marks of the searches for literals it implies, and shrinking's marks.
    fn split_marks(
        &mut self,
        impl_graph: &ImplGraph,
        hashes_required: bool,
    ) -> (&mut Vec<Lit>, Marks<'_>, &mut Blocks) {
        let mut involved_levels = LevelAbstraction::default();
        for &lit in self.clause.iter() {
            involved_levels.add(impl_graph.level(lit.var()));
        }
        let marks = Marks {
            var_flags: &mut self.var_flags,
            to_clean: &mut self.to_clean,
            poisoned: &mut self.poisoned,
            to_unpoison: &mut self.to_unpoison,
            path: &mut self.path,
            clause_hashes: if hashes_required {
                Some(&mut self.unordered_clause_hashes)
            } else {
                None
            },
            involved_levels,
        };
        (&mut self.clause, marks, &mut self.blocks)
    }
}

/// Learns a new clause by analyzing a conflict.
///
/// Returns the lowest decision level that makes the learned clause asserting.
pub fn analyze_conflict<'a>(
    mut ctx: partial!(
        Context<'a>,
        mut AnalyzeConflictP,
        mut VsidsP,
        ClauseAllocP,
        ImplGraphP,
        ProofP<'a>,
        SolverConfigP,
        TrailP,
    ),
    conflict: Conflict,
) -> usize {
    split_borrow!(lit_ctx = &(ClauseAllocP) ctx);

    {
        let analyze = ctx.part_mut(AnalyzeConflictP);

        analyze.clause.clear();
        analyze.involved.clear();
        analyze.clause_hashes.clear();
        analyze.unordered_clause_hashes.clear();
        analyze.current_level_count = 0;
    }

    // We start with all the literals of the conflicted clause
    let conflict_lits = conflict.lits(&lit_ctx);

    if ctx.part(ProofP).clause_hashes_required() {
        ctx.part_mut(AnalyzeConflictP)
            .clause_hashes
            .push(clause_hash(conflict_lits));
    }

    if ctx.part(TrailP).current_level() == 0 {
        // Conflict with no decisions, generate empty clause
        return 0;
    }

    for &lit in conflict_lits {
        add_literal(ctx.borrow(), lit);
    }

    if let Conflict::Long(cref) = conflict {
        ctx.part_mut(AnalyzeConflictP).involved.push(cref);
    }

    // To get rid of all but one literal of the current level, we resolve the clause with the reason
    // for those literals. The correct order for this is reverse chronological.

    split_borrow!(ctx_trail = &(TrailP) ctx);
    // split_borrow!(ctx_analyze = &(mut AnalyzeConflictP) ctx);

    for &lit in ctx_trail.part(TrailP).trail().iter().rev() {
        let analyze = ctx.part_mut(AnalyzeConflictP);
        let lit_present = &mut analyze.var_flags[lit.index()];
        // Is the lit present in the current clause?
        if *lit_present {
            *lit_present = false;
            analyze.current_level_count -= 1;
            if analyze.current_level_count == 0 {
                // lit is the last literal of the current level present in the current clause,
                // therefore the resulting clause will assert !lit so we put in position 0
                analyze.clause.push(!lit);
                let end = analyze.clause.len() - 1;
                analyze.clause.swap(0, end);

                break;
            } else {
                // We removed the literal and now add its reason.
                let (graph, mut ctx) = ctx.split_part(ImplGraphP);

                let reason = graph.reason(lit.var());

                let lits = reason.lits(&lit_ctx);

                if ctx.part(ProofP).clause_hashes_required() && !reason.is_unit() {
                    let hash = clause_hash(lits) ^ lit_hash(lit);
                    ctx.part_mut(AnalyzeConflictP).clause_hashes.push(hash);
                }

                for &lit in lits {
                    add_literal(ctx.borrow(), lit);
                }

                if let Reason::Long(cref) = reason {
                    ctx.part_mut(AnalyzeConflictP).involved.push(*cref);
                }
            }
        }
    }

    #[cfg(test)]
    let unminimized = ctx.part(AnalyzeConflictP).clause.clone();

    // This needs var_flags set and keeps some var_fags set.
    minimize_clause(ctx.borrow());

    #[cfg(test)]
    check_minimization(ctx.borrow(), &unminimized);

    let shrink = ctx.part(SolverConfigP).shrink;
    if shrink > 0 {
        // This needs the var_flags and poison marks that minimization leaves.
        shrink_clause(ctx.borrow(), shrink);

        #[cfg(test)]
        check_shrinking(ctx.borrow(), &unminimized);
    }

    let (analyze, mut ctx) = ctx.split_part_mut(AnalyzeConflictP);

    for var in analyze.to_unpoison.drain(..) {
        analyze.poisoned[var.index()] = false;
    }

    if ctx.part(ProofP).clause_hashes_required() {
        // Clause minimization cannot give us clause hashes in propagation order, so we need to sort
        // them. Clauses used during minimization (and shrinking, which also resolves only on
        // literals of lower levels) propagte before clauses used during initial analysis. The clauses during initial analysis are discovered in reverse propagation
        // order. This means we can sort the minimization clauses in reverse order, append them to
        // the initial clauses and then reverse the order of all clauses.
        analyze
            .unordered_clause_hashes
            .sort_unstable_by_key(|&(depth, _)| !depth);

        analyze
            .unordered_clause_hashes
            .dedup_by_key(|&mut (depth, _)| depth);

        analyze.clause_hashes.extend(
            analyze
                .unordered_clause_hashes
                .iter()
                .map(|&(_, hash)| hash),
        );
        analyze.clause_hashes.reverse();
    }

    for var in analyze.to_clean.drain(..) {
        analyze.var_flags[var.index()] = false;
    }

    // We find the highest level literal besides the asserted literal and move it into position 1.
    // This is important to ensure the watchlist constraints are not violated on backtracking.
    let mut backtrack_to = 0;

    if analyze.clause.len() > 1 {
        let (prefix, rest) = analyze.clause.split_at_mut(2);
        let lit_1 = &mut prefix[1];
        backtrack_to = ctx.part(ImplGraphP).level(lit_1.var());
        for lit in rest.iter_mut() {
            let lit_level = ctx.part(ImplGraphP).level(lit.var());
            if lit_level > backtrack_to {
                backtrack_to = lit_level;
                swap(lit_1, lit);
            }
        }
    }

    ctx.part_mut(VsidsP).decay();

    backtrack_to
}

/// Add a literal to the current clause.
fn add_literal(
    mut ctx: partial!(
        Context,
        mut AnalyzeConflictP,
        mut VsidsP,
        ImplGraphP,
        TrailP
    ),
    lit: Lit,
) {
    let (analyze, mut ctx) = ctx.split_part_mut(AnalyzeConflictP);
    let lit_level = ctx.part(ImplGraphP).level(lit.var());
    // No need to add literals that are set by unit clauses or already present
    if lit_level > 0 && !analyze.var_flags[lit.index()] {
        ctx.part_mut(VsidsP).bump(lit.var());

        analyze.var_flags[lit.index()] = true;
        if lit_level == ctx.part(TrailP).current_level() {
            analyze.current_level_count += 1;
        } else {
            analyze.clause.push(lit);
            analyze.to_clean.push(lit.var());
        }
    }
}

/// A Bloom filter of levels.
#[derive(Default)]
struct LevelAbstraction {
    bits: u64,
}

impl LevelAbstraction {
    /// Add a level to the Bloom filter.
    pub fn add(&mut self, level: usize) {
        self.bits |= 1 << (level % 64)
    }

    /// Test whether a level could be in the Bloom filter.
    pub fn test(&self, level: usize) -> bool {
        self.bits & (1 << (level % 64)) != 0
    }
}

/// Performs recursive clause minimization.
///
/// **Note:** Requires AnalyzeConflict's var_flags to be set for exactly the variables of the
/// unminimized claused. This also sets some more var_flags, but lists them in to_clean, and
/// leaves poison marks, listed in to_unpoison, for shrinking to use.
///
/// This routine tries to remove some redundant literals of the learned clause. The idea is to
/// detect literals of the learned clause that are already implied by other literals of the clause.
///
/// This is done by performing a DFS in the implication graph (following edges in reverse) for each
/// literal (apart from the asserting one): see [`Marks::implied`].
#[inline(never)]
fn minimize_clause<'a>(
    mut ctx: partial!(
        Context<'a>,
        mut AnalyzeConflictP,
        mut VsidsP,
        ClauseAllocP,
        ImplGraphP,
        ProofP<'a>,
        TrailP,
    ),
) {
    let (analyze, mut ctx) = ctx.split_part_mut(AnalyzeConflictP);
    split_borrow!(lit_ctx = &(ClauseAllocP) ctx);
    let impl_graph = ctx.part(ImplGraphP);
    let hashes_required = ctx.part(ProofP).clause_hashes_required();

    let (clause, mut marks, _) = analyze.split_marks(impl_graph, hashes_required);

    let mut scan = VecMutScan::new(clause);

    // we always keep the first literal
    scan.next();

    while let Some(lit) = scan.next() {
        if marks.implied(impl_graph, &lit_ctx, !*lit) {
            lit.remove();
        }
    }
}

/// The marks that the searches for literals implied by one learned clause share, borrowed from
/// [`AnalyzeConflict`].
struct Marks<'s> {
    /// Set for the variables of the clause and those known to be implied by it.
    var_flags: &'s mut Vec<bool>,
    to_clean: &'s mut Vec<Var>,
    /// Set for variables known not to be implied by the clause.
    poisoned: &'s mut Vec<bool>,
    to_unpoison: &'s mut Vec<Var>,
    path: &'s mut Vec<(Lit, usize)>,
    /// Where the reasons of implied literals are listed, when the proof needs them.
    clause_hashes: Option<&'s mut Vec<(LitIdx, ClauseHash)>>,
    /// The decision levels of the clause, approximately.
    involved_levels: LevelAbstraction,
}

impl<'s> Marks<'s> {
    /// Whether the assigned literal `lit` is implied by the literals of the clause, other than
    /// itself: its var_flags entry is not looked at.
    ///
    /// This is a DFS in the implication graph (following edges in reverse) from `lit`. The
    /// search doesn't expand literals already known to be implied by literals of the clause.
    /// When a decision literal that is not in the clause is found, `lit` is not implied.
    ///
    /// The search stops as soon as a literal of a decision level not present in the clause is
    /// found. If the DFS would be continued it would at some point reach the decision of that
    /// level. That decision belongs to a level not in the clause and thus itself can't be in the
    /// clause. Checking whether the decision level is among the clause's decision levels is done
    /// approximately using a Bloom filter.
    ///
    /// Work is never repeated across the DFS searches of one clause, as in MiniSat's and
    /// CaDiCaL's minimization. The DFS keeps the path from `lit` to the literal it expands. A
    /// literal whose implying literals all turned out implied by the clause is implied too: its
    /// var_flags entry is set (listed in to_clean), whether the DFS it was found in succeeds or
    /// not, and no later DFS expands it again. When the search hits a literal that is not
    /// implied, every literal on the path depends on it and is not implied either: those are
    /// marked in `poisoned` (listed in `to_unpoison`), and a later DFS that meets one of them
    /// stops at once. Both marks are exact while the clause stays as it is. Shrinking only
    /// makes the clause imply more: a literal found implied stays so, and a poison mark that
    /// has become stale only keeps a literal that could have gone.
    #[inline(always)]
    fn implied<'c>(
        &mut self,
        impl_graph: &ImplGraph,
        lit_ctx: &'c partial!('c Context, ClauseAllocP),
        lit: Lit,
    ) -> bool {
        if self.poisoned[lit.index()] || impl_graph.reason(lit.var()).is_unit() {
            return false;
        }

        // Each entry of the path is a literal being expanded and how many of its reason's
        // literals are done.
        self.path.clear();
        self.path.push((lit, 0));

        while let Some(&mut (implied, ref mut next)) = self.path.last_mut() {
            let reason = impl_graph.reason(implied.var());
            let lits = reason.lits(lit_ctx);

            if let Some(&reason_lit) = lits.get(*next) {
                *next += 1;
                let reason_level = impl_graph.level(reason_lit.var());

                if self.var_flags[reason_lit.index()] || reason_level == 0 {
                    // In the clause, known to be implied by it, or implied by unit clauses.
                    continue;
                }

                if self.poisoned[reason_lit.index()]
                    || impl_graph.reason(reason_lit.var()).is_unit()
                    || !self.involved_levels.test(reason_level)
                {
                    // reason_lit is known not to be implied, a decision not in the clause, or in
                    // a decision level known not to be in the clause: neither is anything on the
                    // path, which depends on it.
                    for &(on_path, _) in self.path.iter() {
                        if !self.poisoned[on_path.index()] {
                            self.poisoned[on_path.index()] = true;
                            self.to_unpoison.push(on_path.var());
                        }
                    }
                    return false;
                }

                self.path.push((!reason_lit, 0));
            } else {
                // Every literal implying this one is implied by the clause: so is this one.
                self.path.pop();

                if let Some(clause_hashes) = &mut self.clause_hashes {
                    let depth = impl_graph.depth(implied.var()) as LitIdx;
                    let hash = clause_hash(lits) ^ lit_hash(implied);
                    clause_hashes.push((depth, hash));
                }

                if !self.var_flags[implied.index()] {
                    self.var_flags[implied.index()] = true;
                    self.to_clean.push(implied.var());
                }
            }
        }

        true
    }
}

/// Shrinks the minimized clause (Feng & Bacchus, "Efficient All-UIP Learned Clause
/// Minimization", SAT 2021, as in Kissat).
///
/// **Note:** Requires the var_flags and poison marks that [`minimize_clause`] leaves.
///
/// The literals of each decision level of the clause below the conflict's form a block. A
/// block of several literals is replaced by a single literal, the negation of the block's UIP:
/// the latest literal of its level on the trail through which every path from the level's
/// decision to the block's literals goes. It is found as the conflict's first UIP is, by
/// resolving the block's literals with their reasons in reverse trail order until one open
/// literal is left, but only through reasons whose literals of lower levels are in the clause
/// or known to be implied by it (`shrink` 2), or shown implied by minimization (`shrink` 3);
/// `shrink` 1 resolves along binary reasons only. Blocks are shrunk from the lowest level up,
/// so that the literals a shrunk block implies count as implied for the blocks above. A block
/// that cannot be shrunk stays as minimization left it (Kissat minimizes it again; here its
/// literals failed minimization already and stay poisoned, so that would find nothing new).
#[inline(never)]
fn shrink_clause<'a>(
    mut ctx: partial!(
        Context<'a>,
        mut AnalyzeConflictP,
        mut VsidsP,
        ClauseAllocP,
        ImplGraphP,
        ProofP<'a>,
        TrailP,
    ),
    shrink: u8,
) {
    let (analyze, mut ctx) = ctx.split_part_mut(AnalyzeConflictP);
    let (vsids, mut ctx) = ctx.split_part_mut(VsidsP);
    split_borrow!(lit_ctx = &(ClauseAllocP) ctx);
    let impl_graph = ctx.part(ImplGraphP);
    let trail = ctx.part(TrailP).trail();
    let hashes_required = ctx.part(ProofP).clause_hashes_required();

    let (clause, mut marks, blocks) = analyze.split_marks(impl_graph, hashes_required);

    clause[1..].sort_unstable_by_key(|lit| impl_graph.level(lit.var()));

    let mut kept = 1;
    let mut begin = 1;
    while begin < clause.len() {
        let level = impl_graph.level(clause[begin].var());
        let end = clause[begin..]
            .iter()
            .position(|lit| impl_graph.level(lit.var()) != level)
            .map_or(clause.len(), |len| begin + len);
        let block = &clause[begin..end];

        let mut uip = None;
        if block.len() > 1 {
            uip = blocks.uip(impl_graph, &lit_ctx, trail, &mut marks, block, shrink);
        }

        if let Some(uip) = uip {
            // Kissat bumps the UIP with the literals of the clause.
            if !block.contains(&!uip) {
                vsids.bump(uip.var());
            }
            if let Some(clause_hashes) = &mut marks.clause_hashes {
                clause_hashes.extend_from_slice(&blocks.hashes);
            }
            clause[kept] = !uip;
            kept += 1;
        } else {
            clause.copy_within(begin..end, kept);
            kept += end - begin;
        }
        begin = end;
    }
    clause.truncate(kept);
}

impl Blocks {
    /// The UIP of a block of the clause, literals all of one decision level, or `None` when
    /// shrinking finds none: see [`shrink_clause`].
    ///
    /// When there is one, the literals resolved on the way (the block's among them) are marked
    /// as implied by the clause with the UIP in it, and `hashes` lists their reasons.
    fn uip<'c>(
        &mut self,
        impl_graph: &ImplGraph,
        lit_ctx: &'c partial!('c Context, ClauseAllocP),
        trail: &[Lit],
        marks: &mut Marks,
        block: &[Lit],
        shrink: u8,
    ) -> Option<Lit> {
        let level = impl_graph.level(block[0].var());
        self.hashes.clear();
        let mut open = 0;
        let mut last = 0;
        for &lit in block {
            self.mark(lit);
            open += 1;
            last = last.max(impl_graph.depth(lit.var()));
        }

        // The trail depth of a literal is one more than its index on the trail.
        let mut index = last - 1;
        let mut uip = None;
        'resolve: loop {
            while !self.shrinkable[trail[index].index()] {
                index -= 1;
            }
            let lit = trail[index];
            if open == 1 {
                uip = Some(lit);
                break;
            }
            // With other literals of the block still open further down the trail, lit is not
            // the level's decision.
            let reason = impl_graph.reason(lit.var());
            debug_assert!(!reason.is_unit());
            if shrink == 1 && matches!(reason, Reason::Long(_)) {
                break;
            }
            let lits = reason.lits(lit_ctx);
            for &reason_lit in lits {
                let reason_level = impl_graph.level(reason_lit.var());
                if reason_level == 0 || self.shrinkable[reason_lit.index()] {
                    continue;
                }
                if reason_level < level {
                    if marks.var_flags[reason_lit.index()]
                        || (shrink >= 3 && marks.implied(impl_graph, lit_ctx, !reason_lit))
                    {
                        continue;
                    }
                    break 'resolve;
                }
                self.mark(reason_lit);
                open += 1;
            }
            if marks.clause_hashes.is_some() {
                let depth = impl_graph.depth(lit.var()) as LitIdx;
                self.hashes.push((depth, clause_hash(lits) ^ lit_hash(lit)));
            }
            open -= 1;
            index -= 1;
        }

        for var in self.to_unshrink.drain(..) {
            self.shrinkable[var.index()] = false;
            if uip.is_some() && !marks.var_flags[var.index()] {
                marks.var_flags[var.index()] = true;
                marks.to_clean.push(var);
            }
        }

        uip
    }

    /// Marks the literal's variable shrinkable.
    fn mark(&mut self, lit: Lit) {
        self.shrinkable[lit.index()] = true;
        self.to_unshrink.push(lit.var());
    }
}

/// Checks the minimized clause against the definition of redundancy, computed afresh: a literal
/// of the learned clause (after the first) is dropped exactly when it was propagated and every
/// literal of its reason is at level 0, in the unminimized clause, or itself redundant. Every
/// conflict that the crate's tests analyze is checked.
#[cfg(test)]
fn check_minimization(
    mut ctx: partial!(Context, AnalyzeConflictP, ClauseAllocP, ImplGraphP),
    unminimized: &[Lit],
) {
    use std::collections::{HashMap, HashSet};

    use crate::prop::ImplGraph;

    fn redundant<'a>(
        graph: &ImplGraph,
        lit_ctx: &'a partial!('a Context, ClauseAllocP),
        in_clause: &HashSet<Var>,
        known: &mut HashMap<Var, bool>,
        lit: Lit,
    ) -> bool {
        if let Some(&answer) = known.get(&lit.var()) {
            return answer;
        }
        let reason = *graph.reason(lit.var());
        let answer = !reason.is_unit()
            && reason.lits(lit_ctx).iter().all(|&reason_lit| {
                graph.level(reason_lit.var()) == 0
                    || in_clause.contains(&reason_lit.var())
                    || redundant(graph, lit_ctx, in_clause, known, reason_lit)
            });
        known.insert(lit.var(), answer);
        answer
    }

    split_borrow!(lit_ctx = &(ClauseAllocP) ctx);
    let graph = ctx.part(ImplGraphP);
    let in_clause: HashSet<Var> = unminimized.iter().map(|lit| lit.var()).collect();
    let mut known = HashMap::new();
    let expected: Vec<Lit> = unminimized
        .iter()
        .enumerate()
        .filter(|&(index, &lit)| {
            index == 0 || !redundant(graph, &lit_ctx, &in_clause, &mut known, lit)
        })
        .map(|(_, &lit)| lit)
        .collect();
    assert_eq!(ctx.part(AnalyzeConflictP).clause(), &expected[..]);
}

/// Checks the shrunk clause against the clause of the first UIP, from the definition of
/// implication along the trail: assigning the shrunk clause's literals false and propagating
/// reasons in trail order must assign every literal of the unminimized clause false, so that
/// the shrunk clause is implied wherever that clause is. The first literal must stay, every
/// literal must be false under the trail and of a level of the unminimized clause, and the
/// clause may not have grown. Every conflict that the crate's tests analyze with shrinking on
/// is checked.
#[cfg(test)]
fn check_shrinking(
    mut ctx: partial!(Context, AnalyzeConflictP, ClauseAllocP, ImplGraphP, TrailP),
    unminimized: &[Lit],
) {
    use std::collections::HashSet;

    split_borrow!(lit_ctx = &(ClauseAllocP) ctx);
    let graph = ctx.part(ImplGraphP);
    let trail = ctx.part(TrailP).trail();
    let shrunk = ctx.part(AnalyzeConflictP).clause();

    assert_eq!(shrunk[0], unminimized[0]);
    assert!(shrunk.len() <= unminimized.len());
    let on_trail: HashSet<Lit> = trail.iter().cloned().collect();
    let levels: HashSet<usize> = unminimized
        .iter()
        .map(|lit| graph.level(lit.var()))
        .collect();
    for &lit in shrunk {
        assert!(
            on_trail.contains(&!lit),
            "{:?} is not false under the trail",
            lit
        );
        assert!(levels.contains(&graph.level(lit.var())));
    }

    let mut implied: HashSet<Lit> = shrunk.iter().map(|&lit| !lit).collect();
    for &lit in trail {
        let reason = graph.reason(lit.var());
        if graph.level(lit.var()) == 0
            || (!reason.is_unit()
                && reason
                    .lits(&lit_ctx)
                    .iter()
                    .all(|&reason_lit| implied.contains(&!reason_lit)))
        {
            implied.insert(lit);
        }
    }
    for &lit in unminimized {
        assert!(
            implied.contains(&!lit),
            "{:?} of the unminimized clause {:?} is not implied by the shrunk clause {:?}",
            lit,
            unminimized,
            shrunk
        );
    }
}
