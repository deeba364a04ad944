//! Compute glue levels of clauses.
//!
//! The glue level of a propagating clause is the number of distinct decision levels of the clause's
//! variables. This is also called the literal block distance (LBD). For each clause the smallest
//! glue level observed is used as an indicator of how useful that clause is.

use partial_ref::{partial, PartialRef};

use varisat_formula::Lit;

use crate::context::{parts::*, Context};

/// Compute the glue level of a clause.
pub fn compute_glue(ctx: partial!(Context, mut TmpFlagsP, ImplGraphP), lits: &[Lit]) -> usize {
    compute_glue_below(ctx, lits, usize::MAX).expect("a clause has fewer levels than usize::MAX")
}

/// The glue level of a clause if it is below `bound`, `None` otherwise.
///
/// Gives what `compute_glue` does when that is below `bound`, but stops counting levels as soon
/// as `bound` of them are found: conflict analysis only wants to know whether a clause's glue went
/// down (most of the clauses it bumps are original clauses, whose glue is 0, and long ones).
pub fn compute_glue_below(
    mut ctx: partial!(Context, mut TmpFlagsP, ImplGraphP),
    lits: &[Lit],
    bound: usize,
) -> Option<usize> {
    let (tmp_flags, ctx) = ctx.split_part_mut(TmpFlagsP);
    let impl_graph = ctx.part(ImplGraphP);
    glue_below(
        &mut tmp_flags.flags,
        |lit| impl_graph.level(lit.var()),
        lits,
        bound,
    )
}

/// `compute_glue_below` over the decision levels given by `level`, with `flags` (all false, and
/// left so) to mark the levels seen.
#[inline(always)]
fn glue_below(
    flags: &mut [bool],
    level: impl Fn(Lit) -> usize,
    lits: &[Lit],
    bound: usize,
) -> Option<usize> {
    if bound == 0 {
        return None;
    }

    let mut glue = 0;
    // The literals whose levels are marked.
    let mut seen = lits.len();

    for (index, &lit) in lits.iter().enumerate() {
        let flag = &mut flags[level(lit)];
        if !*flag {
            *flag = true;
            glue += 1;
            if glue == bound {
                seen = index + 1;
                break;
            }
        }
    }

    for &lit in &lits[..seen] {
        flags[level(lit)] = false;
    }

    (glue < bound).then_some(glue)
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_glue_below_a_bound_is_the_glue_when_it_is_below(
            levels in prop::collection::vec(0..20usize, 40),
            codes in prop::collection::vec(0..80usize, 0..30),
            bound in 0..25usize,
        ) {
            let level = |lit: Lit| levels[lit.index()];
            let lits: Vec<Lit> = codes.iter().map(|&code| Lit::from_code(code)).collect();

            let mut distinct: Vec<usize> = lits.iter().map(|&lit| level(lit)).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let glue = distinct.len();

            let mut flags = vec![false; 20];
            let below = glue_below(&mut flags, level, &lits, bound);

            prop_assert_eq!(below, if glue < bound { Some(glue) } else { None });
            prop_assert!(flags.iter().all(|&flag| !flag));
        }
    }
}
