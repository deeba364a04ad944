//! Proofs that no (further) solution exists, which a DRAT checker can check
//! without trusting satdoku or varisat: unsolvable, unique, an exact count,
//! and every candidate `analyze` rules out (its fixed cells among them).
//!
//! Every claim is "this CNF is unsatisfiable": the full extended encoding of
//! the puzzle, givens as unit clauses, with no preprocessing at all (what
//! `satdoku dimacs --encoding full` writes), and the claim's clauses on top:
//! a blocking clause per solution found (unique, count), or one clause
//! saying "some ruled-out candidate holds" (analyze). varisat solves it
//! afresh, writing a DRAT proof as it goes. Proving over the unpropagated
//! encoding keeps propagation, probing and subset filtering out of what must
//! be trusted: the proof covers them because it never relies on them. It
//! costs one more solve of the full encoding (a few milliseconds at 9×9).
//! See docs/proofs.md.

pub(crate) mod drat;

use std::collections::HashSet;
use std::io::{self, Write};
use std::time::Instant;

use varisat::{ExtendFormula, Lit, ProofFormat};

use crate::cnf::dimacs::write_cnf_about;
use crate::cnf::{CnfSize, Until, VarMap};
use crate::error::InternalError;
use crate::model::domains::Domains;
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::ViolationText;
use crate::pipeline::{Prepared, PuzzleCnf, SolveOptions};
use crate::sat::varisat::new_solver;
use crate::solve::SolveError;

pub use drat::{check_drat, DratError, DratSummary};

/// What a proof shows: that the puzzle's CNF with the claim's clauses on top
/// has no model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The puzzle has no solution.
    Unsolvable,
    /// The puzzle has no solution but these (one for "unique", all of them
    /// for an exact count): each is blocked by a clause.
    Only(Vec<Grid>),
    /// No solution uses a candidate these domains leave out: one clause
    /// saying that some left-out candidate holds. A cell left one candidate
    /// is then fixed in every solution.
    Within(Domains),
}

impl Claim {
    /// The claim in words, for the CNF's comments.
    pub fn describe(&self) -> String {
        match self {
            Claim::Unsolvable => "the puzzle has no solution".into(),
            Claim::Only(grids) if grids.is_empty() => "the puzzle has no solution".into(),
            Claim::Only(grids) if grids.len() == 1 => "the puzzle has no solution but the one blocked".into(),
            Claim::Only(grids) => format!("the puzzle has exactly {} solutions (each blocked)", grids.len()),
            Claim::Within(_) => {
                "no solution uses a candidate analyze ruled out (one clause: some ruled-out candidate holds)".into()
            }
        }
    }
}

/// A claim's CNF and the DRAT proof that it is unsatisfiable.
pub struct Certificate {
    /// The formula: the puzzle's full encoding and the claim's clauses.
    pub cnf: PuzzleCnf,
    /// The claim.
    pub claim: Claim,
    /// The proof, in text DRAT (drat-trim's input format).
    pub drat: Vec<u8>,
}

impl Certificate {
    /// Write the CNF as self-describing DIMACS.
    pub fn write_cnf(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "c proof claim: {}", self.claim.describe())?;
        let about = "the puzzle's CNF and the claim's clauses, unsatisfiable as the DRAT proof beside it shows \
                     (drat-trim THIS_FILE PROOF); `satdoku decode` takes `satdoku dimacs`'s CNF, not this";
        write_cnf_about(out, &self.cnf, about)
    }

    /// The CNF's clauses in DIMACS numbers, for [`check_drat`].
    pub fn clauses(&self) -> Vec<Vec<i32>> {
        self.cnf.formula.iter().map(|c| c.iter().map(|l| l.to_dimacs() as i32).collect()).collect()
    }

    /// Check the proof with satdoku's own DRAT checker.
    pub fn check(&self) -> Result<DratSummary, DratError> {
        check_drat(&self.clauses(), self.drat.as_slice())
    }
}

/// Prove `claim` for `puzzle`: its CNF and a DRAT proof. A claim that does
/// not hold (the CNF has a model: a solvable puzzle claimed unsolvable, a
/// solution missing from [`Claim::Only`]) is [`SolveError::Mismatch`], found
/// by the search: the caller's mistake, no proof. A claim that cannot
/// be about this puzzle is [`SolveError::Mismatch`], before any work: grids
/// of [`Claim::Only`] that are not its solutions (an empty grid would block
/// nothing, its clause empty, and "prove" anything), or twice the same (the
/// count would be wrong); domains of [`Claim::Within`] of another size. A
/// CNF past `options`' [`SolveOptions::max_literals`], the claim's clauses
/// counted, is [`SolveError::TooLarge`], before it is built.
///
/// Every step stops at the deadline of `options`' timeout (from `start`),
/// with [`SolveError::TimedOut`]: checking the claim, building the CNF and
/// the claim's clauses, loading them, and the search. A count's claim
/// holds one grid per solution, and each step is at least linear in them.
pub fn prove(puzzle: &Puzzle, claim: Claim, options: &SolveOptions, start: Instant) -> Result<Certificate, SolveError> {
    let deadline = options.deadline(start);
    check_claim(puzzle, &claim, deadline)?;
    let prepared = Prepared::unpropagated(puzzle, options);
    prepared.check_size_with(claim_size(puzzle, &claim), deadline)?;
    let mut cnf = prepared.cnf_until(&[], deadline).ok_or(SolveError::TimedOut)?;
    add_claim(&mut cnf, &claim, deadline)?;
    let mut drat = Vec::new();
    {
        let mut solver = new_solver();
        solver.set_deadline(deadline);
        solver.write_proof(&mut drat, ProofFormat::Drat);
        // Loading millions of clauses takes seconds: it stops at the deadline too.
        let mut until = Until::new(&mut solver, deadline);
        for clause in cnf.formula.iter() {
            until.add_clause(clause);
        }
        if until.passed() {
            return Err(SolveError::TimedOut);
        }
        match solver.solve() {
            Ok(false) => {}
            Ok(true) => {
                return Err(SolveError::Mismatch(format!(
                    "no proof of a claim that does not hold: {} (the formula has a model)",
                    claim.describe()
                )))
            }
            Err(varisat::solver::SolverError::Interrupted) => return Err(SolveError::TimedOut),
            Err(e) => return Err(InternalError(format!("varisat failed while proving: {e}")).into()),
        }
        solver.close_proof().map_err(|e| InternalError(format!("varisat could not write the proof: {e}")))?;
    }
    Ok(Certificate { cnf, claim, drat })
}

/// How often the loops over a claim's grids read the clock.
const CLOCK_EVERY: usize = 1024;

/// Whether `deadline` has passed, read at every [`CLOCK_EVERY`]th `step`.
fn late(step: usize, deadline: Option<Instant>) -> bool {
    step % CLOCK_EVERY == 0 && deadline.is_some_and(|deadline| Instant::now() >= deadline)
}

/// Refuse a claim that cannot be about `puzzle` (see [`prove`]). The grids
/// are told apart by a hash set: comparing each with all before it took a
/// minute for the 161,280 solutions of a blank 5×5 Latin square.
fn check_claim(puzzle: &Puzzle, claim: &Claim, deadline: Option<Instant>) -> Result<(), SolveError> {
    match claim {
        Claim::Unsolvable | Claim::Within(_) => {}
        Claim::Only(grids) => {
            let mut seen: HashSet<&Grid> = HashSet::with_capacity(grids.len());
            for (k, grid) in grids.iter().enumerate() {
                if late(k, deadline) {
                    return Err(SolveError::TimedOut);
                }
                if let Err(violation) = puzzle.check(grid) {
                    let why = ViolationText(&violation, puzzle.geometry());
                    return Err(SolveError::Mismatch(format!("solution {} of the claim is no solution: {why}", k + 1)));
                }
                if !seen.insert(grid) {
                    return Err(SolveError::Mismatch(format!("solution {} of the claim is there twice", k + 1)));
                }
            }
        }
    }
    match claim {
        Claim::Within(domains) if domains.size() != puzzle.size() => {
            let (found, n) = (domains.size(), puzzle.size());
            Err(SolveError::Mismatch(format!("candidates of a {found}x{found} grid for a {n}x{n} puzzle")))
        }
        _ => Ok(()),
    }
}

/// The size of the clauses `claim` adds to the CNF of `puzzle` (a checked
/// claim): a blocking clause of a literal per cell for each grid of
/// [`Claim::Only`], one clause of every left-out candidate for
/// [`Claim::Within`].
fn claim_size(puzzle: &Puzzle, claim: &Claim) -> CnfSize {
    let geometry = puzzle.geometry();
    let (clauses, literals) = match claim {
        Claim::Unsolvable => (0, 0),
        Claim::Only(grids) => (grids.len() as u64, grids.len() as u64 * geometry.cell_count() as u64),
        Claim::Within(domains) => {
            let left_out = geometry.cells().map(|cell| (geometry.size() - domains.count(cell)) as u64);
            (1, left_out.sum())
        }
    };
    CnfSize { variables: 0, clauses, literals }
}

/// Add the clauses of `claim` to `cnf` (see [`Claim`]), given up at `deadline`.
fn add_claim(cnf: &mut PuzzleCnf, claim: &Claim, deadline: Option<Instant>) -> Result<(), SolveError> {
    let lit = |map: &VarMap, cell, value| {
        map.var(cell, value).ok_or_else(|| InternalError("the full encoding lacks a variable".into()))
    };
    match claim {
        Claim::Unsolvable => {}
        Claim::Only(grids) => {
            for (k, grid) in grids.iter().enumerate() {
                if late(k, deadline) {
                    return Err(SolveError::TimedOut);
                }
                let block: Vec<Lit> = grid
                    .filled()
                    .map(|(cell, value)| Ok(lit(&cnf.map, cell, value)?.negative()))
                    .collect::<Result<_, InternalError>>()?;
                cnf.formula.add_clause(&block);
            }
        }
        Claim::Within(domains) => {
            let mut some: Vec<Lit> = Vec::new();
            for cell in cnf.puzzle.geometry().cells() {
                for (value, var) in cnf.map.cell_vars(cell) {
                    if !domains.contains(cell, value) {
                        some.push(var.positive());
                    }
                }
            }
            cnf.formula.add_clause(&some);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::Geometry;
    use crate::testing::puzzle;

    #[test]
    fn proofs_of_each_claim_pass_the_checker() {
        let hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let p = puzzle(Geometry::classic(9).unwrap(), hard);
        let solution = crate::solve::solve(&p, &SolveOptions::default()).unwrap();
        let crate::solve::Outcome::Solved(grid) = solution else { panic!("{solution:?}") };
        let start = Instant::now();
        let unique = prove(&p, Claim::Only(vec![grid.clone()]), &SolveOptions::default(), start).unwrap();
        assert!(unique.check().is_ok());
        // Its CNF is no CNF to decode an answer of, and does not say it is.
        let mut cnf = Vec::new();
        unique.write_cnf(&mut cnf).unwrap();
        let refused = crate::cnf::read_cnf(&cnf[..], "p.cnf").err().expect("a proof's CNF refused").to_string();
        assert!(refused.starts_with("p.cnf:1: `c proof claim: "), "{refused}");
        let text = String::from_utf8(cnf).unwrap();
        assert!(!text.contains("satdoku decode --cnf THIS_FILE"), "{text:.300}");
        let mut domains = Domains::full(9);
        for (cell, value) in grid.filled() {
            domains.fix(cell, value);
        }
        let fixed = prove(&p, Claim::Within(domains), &SolveOptions::default(), start).unwrap();
        assert!(fixed.check().is_ok());
        // A broken proof is rejected: the lemmas dropped, only the empty clause kept.
        let text = String::from_utf8(unique.drat.clone()).unwrap();
        let gutted: String =
            text.lines().filter(|l| l.starts_with('d') || l.trim() == "0").map(|l| format!("{l}\n")).collect();
        assert!(matches!(check_drat(&unique.clauses(), gutted.as_bytes()), Err(DratError::NotImplied { .. })));
        // And the proof does not prove the puzzle alone (it has a solution) unsolvable.
        let mut without_block = unique.clauses();
        without_block.pop();
        assert!(check_drat(&without_block, unique.drat.as_slice()).is_err());
    }

    /// A false claim is the caller's mistake, not a bug of satdoku's.
    #[test]
    fn a_false_claim_is_an_error() {
        let p = puzzle(Geometry::classic(4).unwrap(), &".".repeat(16));
        let proof = prove(&p, Claim::Unsolvable, &SolveOptions::default(), Instant::now());
        let Err(SolveError::Mismatch(why)) = proof else { panic!("{:?}", proof.err()) };
        assert_eq!(why, "no proof of a claim that does not hold: the puzzle has no solution (the formula has a model)");
    }

    /// A claim that cannot be about the puzzle is refused before any proof:
    /// an empty grid in `Only` made an empty blocking clause, and a
    /// "proof" that the blank 4×4 (288 solutions) has no other solution.
    #[test]
    fn a_claim_about_other_grids_is_refused() {
        let p = puzzle(Geometry::classic(4).unwrap(), &".".repeat(16));
        let full = puzzle(Geometry::classic(4).unwrap(), "1234341221434321").givens().clone();
        let mut half = full.clone();
        half.set(crate::Cell::from_index(0), None);
        let mut swapped = full.clone();
        swapped.set(crate::Cell::from_index(0), full.get(crate::Cell::from_index(1)));
        let refused = |claim: Claim| {
            matches!(prove(&p, claim, &SolveOptions::default(), Instant::now()), Err(SolveError::Mismatch(_)))
        };
        assert!(refused(Claim::Only(vec![Grid::empty(4)])));
        assert!(refused(Claim::Only(vec![Grid::empty(9)])));
        assert!(refused(Claim::Only(vec![half])));
        assert!(refused(Claim::Only(vec![swapped])));
        assert!(refused(Claim::Only(vec![full.clone(), full.clone()])));
        assert!(refused(Claim::Within(Domains::full(2))));
        // A claim about a solution that leaves others out is a false one.
        let claim = prove(&p, Claim::Only(vec![full]), &SolveOptions::default(), Instant::now());
        assert!(matches!(claim, Err(SolveError::Mismatch(_))), "{:?}", claim.err());
    }
}
