//! One verified solution of a puzzle: prepare it, guess its shape where the
//! known cells show one, then search the whole formula, on varisat or an
//! external solver.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::cnf::encode::CnfSize;
use crate::error::InternalError;
use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Value};
use crate::model::puzzle::{Grid, Puzzle};
use crate::pipeline::{checked, Goal, Prepared, SolveOptions};
use crate::reasoning::fill::{fill, Fill};
use crate::reasoning::matchings::{cells_around, weave, weave_around, weaves};
use crate::reasoning::pattern::pattern_grids;
use crate::reasoning::propagate::{Contradiction, Propagator};
use crate::sat::external::{External, ExternalError, ExternalSolver};
use crate::sat::output::ModelError;
use crate::sat::portfolio::Portfolio;
use crate::sat::varisat::Varisat;
use crate::sat::{confirm_unsat, Backend, Claimant, Limits, SatResult};

/// What a puzzle comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A verified solution.
    Solved(Grid),
    /// No solution, with the reason when one is known without search
    /// (clashing givens, a cell or value with no place left); see
    /// [`Contradiction::describe`] for it in words.
    Unsolvable(Option<Contradiction>),
    /// No answer within [`SolveOptions::timeout`].
    TimedOut,
}

/// Why a puzzle got no answer at all.
#[derive(Debug, Error)]
pub enum SolveError {
    /// No answer within [`SolveOptions::timeout`] (enumeration and analysis;
    /// [`solve`] answers [`Outcome::TimedOut`]).
    #[error("no answer within the time limit")]
    TimedOut,
    /// An external solver could not be run, or gave an unusable answer.
    #[error(transparent)]
    External(#[from] ExternalError),
    /// An external solver, or an answer given to `decode`, said
    /// unsatisfiable, and varisat found a solution of the same formula.
    #[error("{claimant} says the puzzle has no solution, but varisat found one: {}", .claimant.is_wrong())]
    Refuted {
        /// Who was wrong.
        claimant: Claimant,
        /// The verified solution varisat found.
        solution: Box<Grid>,
    },
    /// An external solver, or an answer given to `decode`, said
    /// unsatisfiable, and varisat could not confirm it within the time
    /// limit: no answer is printed.
    #[error("{claimant} says the puzzle has no solution, which varisat could not confirm within the time limit")]
    Unconfirmed {
        /// Whose claim stands unconfirmed.
        claimant: Claimant,
    },
    /// An external solver said unsatisfiable, and satdoku's DRAT checker
    /// rejected the proof it wrote: no answer is printed.
    #[error("{claimant} says the puzzle has no solution, but its DRAT proof is rejected: {error}")]
    ProofRejected {
        /// Whose proof.
        claimant: Claimant,
        /// What the checker found.
        error: String,
    },
    /// A CNF read back (`decode`) whose clauses have a model that is no
    /// solution of the puzzle in its comments: the file was edited.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The CNF would be past [`SolveOptions::max_literals`]: refused before
    /// anything was allocated for it.
    #[error("too large: the CNF would have {}, past the limit of {limit} literal{} (--max-literals); give more givens, or raise the limit", size_text(size), if *limit == 1 { "" } else { "s" })]
    TooLarge {
        /// The size the CNF would have (for a refusal on its variables alone,
        /// their count as a floor on the literals).
        size: CnfSize,
        /// [`SolveOptions::max_literals`].
        limit: u64,
    },
    /// The uniqueness checker of `minimize`, `analyze --redundant` and
    /// `generate` ([`crate::UniquenessChecker`]) would be past
    /// [`SolveOptions::max_literals`]: its CNF is the blank grid's whole
    /// encoding, whatever the givens. Refused before anything was built.
    #[error("too large: removing givens takes the whole grid's CNF, which would have {}, past the limit of {limit} literal{} (--max-literals); raise the limit", size_text(size), if *limit == 1 { "" } else { "s" })]
    GridTooLarge {
        /// The size the grid's CNF would have (as for [`SolveError::TooLarge`]).
        size: CnfSize,
        /// [`SolveOptions::max_literals`].
        limit: u64,
    },
    /// A count without a limit whose puzzle has more solutions than a count
    /// can hold: renaming the values no given holds, where the rules only
    /// ask cells to differ, gives `free!` of them from one, past 2⁶⁴.
    #[error("more solutions than a count can hold: the {free} values no given holds can be renamed in {free}! ways, past 2^64, each renaming of a solution another; count up to a limit (--max N)")]
    Uncountable {
        /// How many values are free.
        free: usize,
    },
    /// A count without a limit whose solutions, by an estimate after it
    /// had counted `counted`, are too many to count in any time one waits.
    #[error("too many solutions to count: about {} by an estimate from random descents of the search, after {counted} counted; count up to a limit (--max N) or give a time limit (--timeout SECS)", power_of_ten(*estimate))]
    TooManyToCount {
        /// Solutions counted when the estimate was made.
        counted: u64,
        /// The estimated count.
        estimate: f64,
    },
    /// Arguments that do not fit each other: candidates of another size
    /// than the puzzle's, a claim about a grid that is no solution of it.
    /// The caller's mistake; nothing was done.
    #[error("{0}")]
    Mismatch(String),
    /// A bug in satdoku.
    #[error(transparent)]
    Internal(#[from] InternalError),
}

/// A large number as 6.7e21 is written for people: `6.7·10^21`.
fn power_of_ten(x: f64) -> String {
    let exponent = x.log10().floor();
    format!("{:.1}·10^{exponent}", x / 10f64.powf(exponent))
}

/// A CNF's size in words; one known only by its variables is a floor.
fn size_text(size: &CnfSize) -> String {
    match size.clauses {
        0 if size.variables == 0 => {
            format!("more than {} literals, or sum states to build them (counting stopped there)", size.literals)
        }
        0 => format!("at least {} literals (one for each of its {} variables)", size.literals, size.variables),
        clauses => format!("{} literals in {clauses} clauses over {} variables", size.literals, size.variables),
    }
}

/// Sizes and times of one solve, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Variables over every formula searched: two formulas when a pattern guess came to nothing.
    pub variables: usize,
    /// Clauses over every formula searched.
    pub clauses: usize,
    /// Time spent preparing and encoding.
    pub encode: Duration,
    /// Time spent in the SAT solver.
    pub solve: Duration,
    /// Conflicts of varisat's search, over every formula searched (in a race,
    /// the winner's): what the search cost, the same on every machine and
    /// however busy it is. `None` when varisat did not search: the answer
    /// came from preparation or from an external solver.
    pub conflicts: Option<u64>,
    /// What became of the pattern guess.
    pub guess: Guess,
}

impl Stats {
    /// Count `conflicts` more of varisat's.
    pub(crate) fn add_conflicts(&mut self, conflicts: u64) {
        self.conflicts = Some(self.conflicts.unwrap_or(0) + conflicts);
    }
}

/// What became of the pattern guess ([`SolveOptions::pattern_guess`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Guess {
    /// Not made: off, not needed, or the known cells show no groups.
    #[default]
    None,
    /// A solution of the guessed shape was found.
    Found,
    /// No solution has the guessed shape; the whole search followed.
    Refuted,
    /// No answer within [`GUESS_CONFLICTS`] (the whole search followed), or
    /// before the time limit (the outcome is [`Outcome::TimedOut`]).
    GaveUp,
}

/// How many conflicts the search under a pattern guess may have before it is
/// dropped for the whole search: a count, so that the outcome is the same on
/// every machine.
///
/// The guesses met so far need few: rkkautsar-225-1 and the Kwon & Jain
/// instances whose givens show the groups are solved within 3 conflicts. A
/// guess is refuted only when the puzzle has no solution at all or its known
/// cells show groups by chance (cells taken from a grid of the shape agree
/// with it), which needs few known cells: small grids, where conflicts are
/// cheap. Where a guess is right but hard, this bounds the waste: on 225-1's
/// formula without the guess, the first 1,000 conflicts take 3.5 s.
pub const GUESS_CONFLICTS: u64 = 1_000;

/// Puzzles with at most this share of their cells given (in percent) are
/// first searched by [`crate::reasoning::matchings`] (box layouts) and
/// [`crate::reasoning::fill`]: blank and sparse grids, where the CDCL search
/// drowns in its formula (a blank 64×64: no answer in 150 s).
const FILL_GIVENS_PERCENT: usize = 10;

/// From this side on, plain layouts (rows, columns and boxes only) with up
/// to [`FILL_GIVENS_PERCENT_BIG`] given are searched by the construction
/// first too. Between 10% and 20% given, the CDCL search takes seconds
/// from 49×49 and gives no answer in 20 s from 64×64, where the
/// construction takes 0.01–1.2 s up to 100×100 (a random 15% and 20% of a
/// full grid, `benches/keep-share.py`); on 9×9 it is the construction that
/// can waste time (0.1 s on a puzzle of 15 givens that CDCL solves in
/// 1 ms), and on 25×25 neither is slow.
const FILL_BIG_MIN_SIDE: usize = 36;

/// The same for X-sudoku ([`crate::reasoning::matchings::weave_around`]):
/// at 36×36 with 15% and 20% given the diagonals and the givens fix a
/// quarter of the grid, and the construction took 1.5 and 2.7 s where CDCL
/// takes 0.3 and 0.2 s; from 49×49 it wins (0.1 and 2.3 s against 14 and
/// 3.7 s; 64×64 1 s against none in 20 s).
const AROUND_BIG_MIN_SIDE: usize = 49;

/// The share of [`FILL_BIG_MIN_SIDE`] and [`AROUND_BIG_MIN_SIDE`]. Past it
/// the construction wastes seconds where it fails (25% given: 1.3 s on a
/// 25×25, 7 s on a 49×49) on puzzles CDCL solves in 0.1–2 s. Other layouts
/// (jigsaws, hyper windows) keep [`FILL_GIVENS_PERCENT`]: not measured
/// between the two.
const FILL_GIVENS_PERCENT_BIG: usize = 20;

/// How many times the construction by matchings starts over before the
/// cell-by-cell fill is tried: on a blank grid it never fails; givens and
/// candidates remove edges, and a draw may then find no matching.
const WEAVE_ATTEMPTS: u32 = 16;

/// The largest side the cell-by-cell fill is tried on (grids the matchings
/// do not fill: jigsaws, extra units, unlucky givens): it fills blank grids
/// up to 64×64 (sometimes 81×81) and none past 100×100, where each of its
/// decisions scans the whole grid (a blank 1000×1000 would take minutes to
/// give up).
const FILL_MAX_SIZE: usize = 100;

/// How many times the fill starts over (with as many failed values as the
/// grid has cells each) before the CDCL search takes over.
const FILL_ATTEMPTS: u32 = 4;

/// Solve a puzzle with varisat: one verified solution, or why there is none.
pub fn solve(puzzle: &Puzzle, options: &SolveOptions) -> Result<Outcome, SolveError> {
    solve_with_stats(puzzle, options, None).map(|(outcome, _)| outcome)
}

/// [`solve`] on varisat, or on `external` when given, with the sizes and times of the formula.
///
/// Each puzzle is propagated and probed first; most 9×9 puzzles end there.
/// What is left goes to a fresh solver with the reduced encoding of the
/// candidates left. (A varisat solver kept per geometry, holding the blank
/// grid's full encoding with each puzzle passed as assumptions, saves the
/// clause loading but was 3.7× slower on forum-hardest-1905 and no faster on
/// 17-clue: search under ~200 assumptions on the full formula costs more than
/// loading the small reduced one.)
///
/// When the known cells show the value groups of a shuffled pattern grid,
/// that shape is searched first, for up to [`GUESS_CONFLICTS`] conflicts: a
/// solution of it is a solution, and its absence sends the puzzle on to the
/// whole search (see `reasoning::pattern`). An external solver's
/// "unsatisfiable" is confirmed by varisat on the same formula, within the
/// same time limit, before it is believed.
pub fn solve_with_stats(
    puzzle: &Puzzle,
    options: &SolveOptions,
    external: Option<&ExternalSolver>,
) -> Result<(Outcome, Stats), SolveError> {
    match external {
        None if options.portfolio > 1 => solve_on(
            &mut Portfolio { solvers: options.portfolio, seed: options.seed },
            puzzle,
            options,
            GUESS_CONFLICTS,
        ),
        None => solve_on(&mut Varisat, puzzle, options, GUESS_CONFLICTS),
        Some(solver) => solve_on(&mut External { solver, proved: false }, puzzle, options, GUESS_CONFLICTS),
    }
}

/// Prepare `puzzle`, then guess and search on `backend`, the guess given
/// `guess_conflicts` conflicts.
pub(crate) fn solve_on(
    backend: &mut impl Backend,
    puzzle: &Puzzle,
    options: &SolveOptions,
    guess_conflicts: u64,
) -> Result<(Outcome, Stats), SolveError> {
    let start = Instant::now();
    let deadline = options.deadline(start);
    let mut stats = Stats::default();
    let prepared = match Prepared::for_goal(puzzle, options, Goal::One, deadline) {
        Ok(prepared) => prepared,
        Err(reason) => {
            stats.encode = start.elapsed();
            return Ok((Outcome::Unsolvable(Some(reason)), stats));
        }
    };
    if let Some(solution) = prepared.solution() {
        stats.encode = start.elapsed();
        return Ok((Outcome::Solved(solution?), stats));
    }
    // Few givens: a randomized search with propagation, bounded, first.
    if let Some(outcome) = fill_sparse(puzzle, prepared.domains(), options, deadline) {
        stats.encode = start.elapsed();
        return Ok((outcome?, stats));
    }
    let past_deadline = || deadline.is_some_and(|deadline| Instant::now() >= deadline);
    // Out of time already (probing and filtering stop there): no search.
    if past_deadline() {
        stats.encode = start.elapsed();
        return Ok((Outcome::TimedOut, stats));
    }
    // A guess at the shape of the solution first, when the known cells show one.
    let guesses = if options.pattern_guess { prepared.guesses() } else { Vec::new() };
    // Propagation and the guess; each search adds its encoding.
    stats.encode = start.elapsed();
    if !guesses.is_empty() {
        let limits = Limits { deadline, conflicts: Some(guess_conflicts) };
        match backend.search(&prepared, &guesses, limits, &mut stats)? {
            SatResult::Sat(grid) => {
                debug_assert!(guesses.iter().all(|groups| groups.fits(puzzle.geometry(), &grid)));
                stats.guess = Guess::Found;
                return Ok((Outcome::Solved(grid), stats));
            }
            SatResult::Unsat => stats.guess = Guess::Refuted,
            SatResult::Interrupted => {
                stats.guess = Guess::GaveUp;
                if past_deadline() {
                    return Ok((Outcome::TimedOut, stats));
                }
            }
        }
    }
    let limits = Limits { deadline, conflicts: None };
    let outcome = match backend.search(&prepared, &[], limits, &mut stats)? {
        SatResult::Sat(grid) => Outcome::Solved(grid),
        SatResult::Unsat => {
            // A pattern guess's "unsatisfiable" (above) only sends the puzzle
            // here; this one would be printed, so an outsider's is checked.
            if let Some(program) = backend.claimant().filter(|_| !backend.proved_unsat()) {
                let claimant = Claimant::Program(program.to_string());
                confirm_unsat(claimant, Varisat.search(&prepared, &[], limits, &mut stats)?)?;
            }
            Outcome::Unsolvable(None)
        }
        SatResult::Interrupted => Outcome::TimedOut,
    };
    Ok((outcome, stats))
}

/// Try the construction of [`crate::reasoning::matchings`], then the fill of
/// [`crate::reasoning::fill`], on a prepared puzzle: a
/// verified solution, or nothing: go on to the CDCL search, which also has
/// the last word on a puzzle the fill found no solution of (varisat's
/// "unsatisfiable" is the one satdoku prints).
fn fill_sparse(
    puzzle: &Puzzle,
    domains: &Domains,
    options: &SolveOptions,
    deadline: Option<Instant>,
) -> Option<Result<Outcome, InternalError>> {
    let in_time = || deadline.is_none_or(|deadline| Instant::now() < deadline);
    constructed(puzzle, domains, options, deadline)
        .or_else(|| in_time().then(|| blank_pattern(puzzle, domains)).flatten().map(Ok))
}

/// A blank grid's pattern grid ([`pattern_grids`]) that keeps every rule
/// of it and every candidate of `domains`, where the constructions of
/// [`fill_sparse`] found none (or do not know the rules): disjoint groups,
/// anti-king, neighbour rules on a grid no construction weaves. Checked as
/// any solution is. Not past the deadline, where the construction stopped.
fn blank_pattern(puzzle: &Puzzle, domains: &Domains) -> Option<Outcome> {
    if puzzle.givens().filled_count() > 0 {
        return None;
    }
    let fits = |grid: &Grid| grid.filled().all(|(cell, value)| domains.contains(cell, value));
    let grid = pattern_grids(puzzle.geometry()).into_iter().find(|grid| fits(grid) && puzzle.check(grid).is_ok())?;
    Some(Outcome::Solved(grid))
}

/// The construction and the fill of [`fill_sparse`].
fn constructed(
    puzzle: &Puzzle,
    domains: &Domains,
    options: &SolveOptions,
    deadline: Option<Instant>,
) -> Option<Result<Outcome, InternalError>> {
    let geometry = puzzle.geometry();
    let cells = geometry.cell_count();
    // The fill knows units only: clues and neighbour rules are the CNF's.
    let n = geometry.size();
    // The size first: `cells_around` lists the geometry's cells.
    let big =
        (n >= FILL_BIG_MIN_SIDE && weaves(geometry)) || (n >= AROUND_BIG_MIN_SIDE && cells_around(geometry).is_some());
    let percent = if big { FILL_GIVENS_PERCENT_BIG } else { FILL_GIVENS_PERCENT };
    let sparse = puzzle.givens().filled_count() * 100 <= cells * percent;
    if !sparse || geometry.has_constraints() {
        return None;
    }
    let woven = weave(geometry, domains, options.seed, WEAVE_ATTEMPTS, deadline)
        .or_else(|| weave_around(geometry, domains, options.seed, WEAVE_ATTEMPTS, deadline));
    if let Some(model) = woven {
        return Some(checked(puzzle, model.decided()).map(Outcome::Solved));
    }
    if geometry.size() > FILL_MAX_SIZE {
        return None;
    }
    match fill(geometry, domains, options.seed, (FILL_ATTEMPTS, cells as u64), deadline) {
        Fill::Filled(model) => Some(checked(puzzle, model.decided()).map(Outcome::Solved)),
        Fill::Exhausted | Fill::GaveUp => None,
    }
}

/// Grids from this side on start an enumeration from a constructed
/// solution ([`enumeration_seed`]). From 36×36 the searches' first
/// solution is a lottery: 36×36s with 2% and 10% given took more than 30 s
/// and 10 s to count to 2, where the construction takes milliseconds. Below
/// 25×25 they find it at once, and the construction would only add its cost
/// (2 ms on a 9×9 with 8 givens).
const SEED_MIN_SIZE: usize = 25;

/// Where an enumeration (`count`, `solve --all`, `--unique`, `analyze`)
/// starts: a constructed solution of a blank or sparse big grid
/// ([`sparse_solution`]), whose first solution its searches alone may not
/// find in minutes; nothing below [`SEED_MIN_SIZE`].
pub(crate) fn enumeration_seed(
    prepared: &Prepared,
    options: &SolveOptions,
    deadline: Option<Instant>,
) -> Result<Option<Grid>, InternalError> {
    match prepared.puzzle().size() >= SEED_MIN_SIZE {
        true => sparse_solution(prepared, options, deadline, None),
        false => Ok(None),
    }
}

/// How many conflicts `analyze` gives its incremental solver on a
/// candidate before asking the construction instead: small grids answer
/// within a few (so they stay on the solver, microseconds a call),
/// near-blank big ones may take minutes.
pub(crate) const INCREMENTAL_CONFLICTS: u64 = 1_000;

/// A solution of a blank or sparse prepared puzzle by the construction or
/// the fill of [`fill_sparse`], when they find one, with `cell` holding
/// `value` when asked: where an enumeration starts (its CDCL search finds
/// no first solution of a blank 64×64 in minutes), and what `analyze`
/// tries for a candidate its solver did not settle quickly. Verified like
/// every solution; nothing when the puzzle is not sparse, has variant
/// constraints, or the draws fail.
pub(crate) fn sparse_solution(
    prepared: &Prepared,
    options: &SolveOptions,
    deadline: Option<Instant>,
    fixed: Option<(Cell, Value)>,
) -> Result<Option<Grid>, InternalError> {
    // The fixed value leaves its peers (and what follows from that) before
    // the draws: they take a candidate for possible, and one its peers still
    // hold sends them to the cell-by-cell fill (a sparse 36×36, 3.4 s
    // against 3 ms). A fixed value propagation refutes gets no draw.
    let domains = match fixed {
        None => Cow::Borrowed(prepared.domains()),
        Some((cell, value)) => {
            let geometry = prepared.puzzle().geometry();
            let mut propagator = Propagator::with_domains(geometry, prepared.domains().clone());
            if propagator.assign(cell, value).and_then(|()| propagator.propagate()).is_err() {
                return Ok(None);
            }
            Cow::Owned(propagator.into_domains())
        }
    };
    match fill_sparse(prepared.puzzle(), &domains, options, deadline).transpose()? {
        Some(Outcome::Solved(grid)) if fixed.is_none_or(|(cell, value)| grid.get(cell) == Some(value)) => {
            Ok(Some(grid))
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::encode::AmoEncoding;
    use crate::model::geometry::Geometry;
    use crate::model::verify::verify;
    use crate::pipeline::Encoding;
    use crate::testing;

    fn puzzle(n: usize, text: &str) -> Puzzle {
        testing::puzzle(Geometry::classic(n).unwrap(), text)
    }

    const HARD: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn every_encoding_solves_a_hard_puzzle() {
        let p = puzzle(9, HARD);
        for encoding in [Encoding::Full, Encoding::Reduced, Encoding::Propagated] {
            for amo in [AmoEncoding::Pairwise, AmoEncoding::Sequential, AmoEncoding::Product] {
                let options = SolveOptions { encoding, amo, ..SolveOptions::default() };
                let Outcome::Solved(grid) = solve(&p, &options).unwrap() else {
                    panic!("{encoding}/{amo}: no solution")
                };
                assert_eq!(verify(p.geometry(), p.givens(), &grid), Ok(()));
            }
        }
    }

    /// The 9×9 pattern grid, row-major, with every third cell of it blanked.
    fn pattern_puzzle() -> Puzzle {
        let value = testing::pattern(9, 3, 3);
        let text: String = (0..81)
            .map(|i| match i % 3 {
                1 => '.',
                _ => char::from_digit(value(i / 9, i % 9) as u32 + 1, 10).unwrap(),
            })
            .collect();
        puzzle(9, &text)
    }

    #[test]
    fn a_pattern_guess_is_made_where_the_givens_show_groups_and_only_when_asked() {
        let p = pattern_puzzle();
        // Reduced: no propagation, so the solver is reached.
        let on = SolveOptions { encoding: Encoding::Reduced, ..SolveOptions::default() };
        for (options, guess) in [(on, Guess::Found), (SolveOptions { pattern_guess: false, ..on }, Guess::None)] {
            let (outcome, stats) = solve_with_stats(&p, &options, None).unwrap();
            let Outcome::Solved(grid) = outcome else { panic!("{outcome:?}") };
            assert_eq!(verify(p.geometry(), p.givens(), &grid), Ok(()));
            assert_eq!(stats.guess, guess);
        }
    }

    #[test]
    fn a_guess_out_of_conflicts_gives_way_to_the_whole_search() {
        let p = pattern_puzzle();
        let options = SolveOptions { encoding: Encoding::Reduced, ..SolveOptions::default() };
        let (outcome, stats) = solve_on(&mut Varisat, &p, &options, 0).unwrap();
        let Outcome::Solved(grid) = outcome else { panic!("{outcome:?}") };
        assert_eq!(verify(p.geometry(), p.givens(), &grid), Ok(()));
        assert_eq!(stats.guess, Guess::GaveUp);
    }

    #[test]
    fn clashing_givens_are_unsolvable_with_a_reason() {
        let p = puzzle(4, "11..............");
        let outcome = solve(&p, &SolveOptions::default()).unwrap();
        let Outcome::Unsolvable(Some(reason)) = outcome else { panic!("{outcome:?}") };
        let text = reason.describe(p.geometry(), &crate::Alphabet::default());
        assert_eq!(text, "the givens clash: row 1 has 1 twice (r1c1 and r1c2)");
    }
}
