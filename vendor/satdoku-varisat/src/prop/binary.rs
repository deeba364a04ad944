//! Propagation of binary clauses.
use partial_ref::{partial, PartialRef};

use varisat_formula::Lit;

use crate::context::{parts::*, Context};

use super::{assignment::enqueue_binary_implied, Conflict};

/// Propagate all literals implied by the given literal via binary clauses.
///
/// On conflict return the binary clause propgating the conflicting assignment.
pub fn propagate_binary(
    mut ctx: partial!(
        Context,
        mut AssignmentP,
        mut ImplGraphP,
        mut TrailP,
        WatchlistsP,
    ),
    lit: Lit,
) -> Result<(), Conflict> {
    let (watchlists, mut ctx) = ctx.split_part(WatchlistsP);

    enqueue_binary_implied(ctx.borrow(), lit, watchlists.implied(lit))
        .map_err(|implied| Conflict::Binary([implied, !lit]))
}
