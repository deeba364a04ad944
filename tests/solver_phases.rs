//! The varisat fork in `vendor/varisat` (target phases, rephasing) must not
//! change any answer. satdoku's puzzles rarely take the 1,000 conflicts that
//! its first rephase waits for, so these formulas are solved with rephasing
//! and restarts every few conflicts, and checked against brute force.

use proptest::prelude::*;
use satdoku::solve::new_solver;
use varisat::config::SolverConfigUpdate;
use varisat::{CnfFormula, ExtendFormula, Lit, Solver};

/// satdoku's solver settings, with rephasing and restarts made frequent.
fn restless_solver<'a>() -> Solver<'a> {
    let mut solver = new_solver();
    let mut config = SolverConfigUpdate::new();
    config.rephase_interval = Some(3);
    config.luby_restart_interval_scale = Some(2);
    solver.config(&config).unwrap();
    solver
}

/// A clause as DIMACS numbers (1-based, negative for negated).
fn lits(clause: &[isize]) -> Vec<Lit> {
    clause.iter().map(|&n| Lit::from_dimacs(n)).collect()
}

fn satisfies(assignment: u32, clause: &[isize]) -> bool {
    clause.iter().any(|&n| (assignment >> (n.unsigned_abs() - 1) & 1 == 1) == (n > 0))
}

/// Whether some assignment of the first `vars` variables satisfies every clause.
fn brute_force(vars: usize, clauses: &[Vec<isize>]) -> bool {
    (0..1u32 << vars).any(|a| clauses.iter().all(|c| satisfies(a, c)))
}

/// Random 3-SAT over 12 variables near the threshold (4.26 clauses a variable):
/// about half are satisfiable, and each takes some conflicts.
fn three_sat() -> impl Strategy<Value = Vec<Vec<isize>>> {
    let literal = (1isize..=12, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
    prop::collection::vec(prop::collection::vec(literal, 3), 40..64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn answers_match_brute_force(clauses in three_sat()) {
        let mut solver = restless_solver();
        for clause in &clauses {
            solver.add_clause(&lits(clause));
        }
        let sat = solver.solve().unwrap();
        prop_assert_eq!(sat, brute_force(12, &clauses));
        if sat {
            let model = solver.model().unwrap();
            for clause in &clauses {
                prop_assert!(lits(clause).iter().any(|lit| model.contains(lit)), "model breaks {:?}", clause);
            }
        }
    }
}

/// Each pigeon in some hole, no two in one.
fn pigeonhole(pigeons: usize, holes: usize) -> (CnfFormula, impl Fn(usize, usize) -> Lit) {
    let var = move |p: usize, h: usize| Lit::from_dimacs((p * holes + h + 1) as isize);
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
    (formula, var)
}

/// One pigeon more than holes is unsatisfiable, and resolution needs
/// exponentially many steps to show it, so the refutation runs through
/// rephases of every kind. As many pigeons as holes fit, and the model
/// shows how.
#[test]
fn pigeonhole_through_many_rephases() {
    let (formula, _) = pigeonhole(8, 7);
    let mut solver = restless_solver();
    solver.add_formula(&formula);
    assert!(!solver.solve().unwrap());

    let (formula, var) = pigeonhole(7, 7);
    let mut solver = restless_solver();
    solver.add_formula(&formula);
    assert!(solver.solve().unwrap());
    let model = solver.model().unwrap();
    for h in 0..7 {
        let placed = (0..7).filter(|&p| model.contains(&var(p, h))).count();
        assert!(placed <= 1, "hole {h} holds {placed} pigeons");
    }
    for p in 0..7 {
        assert!((0..7).any(|h| model.contains(&var(p, h))), "pigeon {p} has no hole");
    }
}
