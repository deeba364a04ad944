//! Binary clauses.

use partial_ref::{partial, PartialRef};

use varisat_formula::Lit;
use varisat_internal_proof::{DeleteClauseProof, ProofStep};

use crate::{
    context::{parts::*, Context},
    proof,
};

/// Binary clauses: their count. Each literal's implications are kept next to its watches, in
/// [`Watchlists`](crate::prop::Watchlists) (see [`Watchlists::implied`](crate::prop::Watchlists::implied)).
#[derive(Default)]
pub struct BinaryClauses {
    count: usize,
}

/// Add a binary clause.
pub fn add_binary_clause(
    mut ctx: partial!(Context, mut BinaryClausesP, mut WatchlistsP),
    lits: [Lit; 2],
) {
    ctx.part_mut(WatchlistsP).add_binary_clause(lits);
    ctx.part_mut(BinaryClausesP).count += 1;
}

impl BinaryClauses {
    /// Number of binary clauses.
    pub fn count(&self) -> usize {
        self.count
    }
}

/// Remove binary clauses that have an assigned literal.
pub fn simplify_binary<'a>(
    mut ctx: partial!(Context<'a>, mut BinaryClausesP, mut ProofP<'a>, mut SolverStateP, mut WatchlistsP, AssignmentP, VariablesP),
) {
    let (binary_clauses, mut ctx) = ctx.split_part_mut(BinaryClausesP);
    let (watchlists, mut ctx) = ctx.split_part_mut(WatchlistsP);
    let (assignment, mut ctx) = ctx.split_part(AssignmentP);

    let mut double_count = 0;

    for (code, implied) in watchlists.implied_by_code_mut().enumerate() {
        let lit = Lit::from_code(code);

        if !assignment.lit_is_unk(lit) {
            if ctx.part(ProofP).is_active() {
                for &other_lit in implied.iter() {
                    // This check avoids deleting binary clauses twice if both literals are assigned.
                    if (!lit) < other_lit {
                        let lits = [!lit, other_lit];
                        proof::add_step(
                            ctx.borrow(),
                            true,
                            &ProofStep::DeleteClause {
                                clause: &lits[..],
                                proof: DeleteClauseProof::Satisfied,
                            },
                        );
                    }
                }
            }

            implied.clear();
        } else {
            implied.retain(|&other_lit| {
                let retain = assignment.lit_is_unk(other_lit);
                // This check avoids deleting binary clauses twice if both literals are assigned.
                // Most are kept: `retain` is looked at first, the proof only for those deleted.
                if !retain && ctx.part(ProofP).is_active() && (!lit) < other_lit {
                    let lits = [!lit, other_lit];
                    proof::add_step(
                        ctx.borrow(),
                        true,
                        &ProofStep::DeleteClause {
                            clause: &lits[..],
                            proof: DeleteClauseProof::Satisfied,
                        },
                    );
                }

                retain
            });

            double_count += implied.len();
        }
    }

    binary_clauses.count = double_count / 2;
}
