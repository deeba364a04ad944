//! Solving with varisat: propagate, encode what is left, solve, decode, verify.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use varisat::config::SolverConfigUpdate;
use varisat::solver::SolverError;
use varisat::{ExtendFormula, Lit, Solver, Var};

use crate::encode::{encode_full, encode_reduced, AmoEncoding, EncodeOptions, VarMap};
use crate::error::InternalError;
use crate::geometry::Geometry;
use crate::pattern::ValueGroups;
use crate::propagate::{find_clash, Contradiction, Domains, Propagator};
use crate::puzzle::{Grid, Puzzle};
use crate::verify::{verify, ViolationText};

/// How much of the puzzle is settled before the SAT solver sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// The full extended encoding, givens as unit clauses; no preprocessing.
    Full,
    /// Kwon & Jain's reduced encoding: the givens' values removed from their peers.
    Reduced,
    /// Unit propagation (naked and hidden singles) to the fixpoint, failed-literal
    /// probing, and naked and hidden subsets (all-different filtering) first,
    /// then the reduced encoding of what is left.
    #[default]
    Propagated,
}

impl Encoding {
    pub const NAMES: [&'static str; 3] = ["full", "reduced", "propagated"];
}

impl FromStr for Encoding {
    type Err = String;

    fn from_str(s: &str) -> Result<Encoding, String> {
        match s.to_ascii_lowercase().as_str() {
            "full" => Ok(Encoding::Full),
            "reduced" => Ok(Encoding::Reduced),
            "propagated" => Ok(Encoding::Propagated),
            _ => Err(format!("unknown encoding '{s}' (expected {})", Encoding::NAMES.join(", "))),
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Encoding::Full => "full",
            Encoding::Reduced => "reduced",
            Encoding::Propagated => "propagated",
        })
    }
}

/// Options of the solving pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    pub encoding: Encoding,
    pub amo: AmoEncoding,
    /// Give up on a puzzle after this long and answer [`Outcome::TimedOut`]
    /// ([`solve`] only; enumeration, counting and analysis run to the end).
    /// The clock starts before propagation: probing and subset filtering stop
    /// at the limit (what they removed so far stands), the encoding is skipped
    /// once it has passed, and varisat reads the clock at every conflict. Only
    /// the first propagation of the givens, which is linear in the grid, always
    /// runs to its end.
    pub timeout: Option<Duration>,
    /// Whether [`solve`] first looks for a solution shaped like a shuffled
    /// pattern grid, when the known cells show that shape's value groups (see
    /// [`crate::pattern`]); on by default. Enumeration, counting and analysis
    /// never guess.
    pub pattern_guess: bool,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions { encoding: Encoding::default(), amo: AmoEncoding::default(), timeout: None, pattern_guess: true }
    }
}

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

/// Sizes and times of one solve, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Over every formula searched: two when a pattern guess came to nothing.
    pub variables: usize,
    pub clauses: usize,
    pub encode: Duration,
    pub solve: Duration,
    pub guess: Guess,
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

/// A clause sink that counts what passes through it.
pub struct Counting<'s, S> {
    pub sink: &'s mut S,
    pub clauses: usize,
    pub variables: usize,
}

impl<'s, S: ExtendFormula> Counting<'s, S> {
    pub fn new(sink: &'s mut S) -> Self {
        Counting { sink, clauses: 0, variables: 0 }
    }
}

impl<S: ExtendFormula> ExtendFormula for Counting<'_, S> {
    fn add_clause(&mut self, literals: &[Lit]) {
        self.clauses += 1;
        self.sink.add_clause(literals);
    }

    fn new_var(&mut self) -> Var {
        self.variables += 1;
        self.sink.new_var()
    }
}

/// Cells of up to this many candidates are probed. Measured on this machine
/// (instructions per puzzle, callgrind): 2 → 3 cuts 17-clue by 8% and
/// magictour-top1465 by 30%; 4 and more cost more than they save.
pub const PROBE_CANDIDATES: usize = 3;

/// The candidates left once `encoding` has settled what it settles, or the reason
/// there is no solution. Every solution of the puzzle keeps its values among
/// the candidates, so this is sound for enumeration and analysis too.
pub fn preprocess(geometry: &Geometry, givens: &Grid, encoding: Encoding) -> Result<Domains, Contradiction> {
    prepare(geometry, givens, encoding, false, None)
}

/// [`preprocess`]; with `first_model`, probing may stop at a branch that decides
/// every cell and return that one model, which is all a single solve needs.
/// Probing and subset filtering end early at `deadline`.
fn prepare(
    geometry: &Geometry,
    givens: &Grid,
    encoding: Encoding,
    first_model: bool,
    deadline: Option<Instant>,
) -> Result<Domains, Contradiction> {
    if encoding != Encoding::Propagated {
        // These encodings leave every contradiction but clashing givens to the solver.
        if let Some(clash) = find_clash(geometry, givens) {
            return Err(clash);
        }
    }
    match encoding {
        Encoding::Full => Ok(Domains::full(geometry.size())),
        // Kwon & Jain: only what the givens exclude directly.
        Encoding::Reduced => Ok(Domains::after_givens(geometry, givens)),
        Encoding::Propagated => {
            let mut p = Propagator::from_givens(geometry, givens)?;
            p.set_deadline(deadline);
            p.propagate()?;
            if !p.domains().is_solved() {
                // Failed-literal probing on cells of few candidates: it leaves
                // most 17-clue puzzles nothing to search.
                let found = p.probe(PROBE_CANDIDATES, first_model)?;
                if let Some(model) = found {
                    return Ok(model);
                }
                // Then naked and hidden subsets of every size, where probing
                // left the puzzle open: measured neutral on 9×9 (callgrind,
                // -1% on 17-clue, +4% on forum-hardest), 0.6 s → 0.4 s on
                // rkkautsar-81-1.
                if !p.domains().is_solved() {
                    p.propagate_subsets()?;
                }
            }
            Ok(p.into_domains())
        }
    }
}

/// Encode a puzzle into `sink` as `options` say.
pub fn encode_puzzle(
    geometry: &Geometry,
    givens: &Grid,
    domains: &Domains,
    options: &SolveOptions,
    sink: &mut impl ExtendFormula,
) -> VarMap {
    let encode_options = EncodeOptions { amo: options.amo };
    match options.encoding {
        Encoding::Full => encode_full(geometry, givens, encode_options, sink),
        Encoding::Reduced | Encoding::Propagated => encode_reduced(geometry, domains, encode_options, sink),
    }
}

/// Check a grid read from a model before anyone sees it.
pub fn checked(geometry: &Geometry, givens: &Grid, grid: Grid) -> Result<Grid, InternalError> {
    match verify(geometry, givens, &grid) {
        Ok(()) => Ok(grid),
        Err(v) => Err(InternalError(format!(
            "a model decoded to a grid that is not a solution: {}",
            ViolationText(&v, geometry)
        ))),
    }
}

/// A varisat solver set up for puzzles: CaDiCaL's stable mode in short.
///
/// Decisions follow target phases (each variable's value in the longest
/// conflict-free assignment since the last rephase), the phases are reset
/// now and then (all false, all true, the best assignment seen), and restarts
/// follow a Luby sequence in units of 1,024 conflicts. The first two are what
/// `vendor/varisat` adds to varisat 0.2.2. On the 18 hard 25×25 puzzles of
/// Gecode this takes the solver time from 178 s (three over 30 s) to 64 s,
/// and rkkautsar-64-1 from no answer in 15 minutes to 6.4–7.7 s (10–12 s
/// with the machine's other core busy).
pub fn new_solver<'a>() -> Solver<'a> {
    let mut solver = Solver::new();
    let mut config = SolverConfigUpdate::new();
    config.target_phases_after = Some(0);
    config.rephase_interval = Some(1000);
    config.luby_restart_interval_scale = Some(1024);
    solver.config(&config).expect("puzzle solver settings are within varisat's ranges");
    solver
}

/// Solve a puzzle: one verified solution, or why there is none.
pub fn solve(puzzle: &Puzzle, options: &SolveOptions) -> Result<Outcome, InternalError> {
    solve_with_stats(puzzle, options).map(|(outcome, _)| outcome)
}

/// [`solve`], with the sizes and times of the formula.
///
/// Each puzzle is propagated and probed first; most 9×9 puzzles end there.
/// What is left goes to a fresh varisat solver with the reduced encoding of
/// the candidates left. (A solver kept per geometry, holding the blank grid's
/// full encoding with each puzzle passed as assumptions, saves the clause
/// loading but was 3.7× slower on forum-hardest-1905 and no faster on 17-clue:
/// search under ~200 assumptions on the full formula costs more than loading
/// the small reduced one.)
///
/// When the known cells show the value groups of a shuffled pattern grid,
/// that shape is searched first, for up to [`GUESS_CONFLICTS`] conflicts: a
/// solution of it is a solution, and its absence sends the puzzle on to the
/// whole search (see [`crate::pattern`]).
pub fn solve_with_stats(puzzle: &Puzzle, options: &SolveOptions) -> Result<(Outcome, Stats), InternalError> {
    solve_guessing(puzzle, options, GUESS_CONFLICTS)
}

/// [`solve_with_stats`], with the conflicts the pattern guess may take.
fn solve_guessing(
    puzzle: &Puzzle,
    options: &SolveOptions,
    guess_conflicts: u64,
) -> Result<(Outcome, Stats), InternalError> {
    let (geometry, givens) = (puzzle.geometry(), puzzle.givens());
    let start = Instant::now();
    // A limit too far ahead to represent is no limit.
    let deadline = options.timeout.and_then(|timeout| start.checked_add(timeout));
    let mut stats = Stats::default();
    let domains = match prepare(geometry, givens, options.encoding, true, deadline) {
        Ok(domains) => domains,
        Err(reason) => {
            stats.encode = start.elapsed();
            return Ok((Outcome::Unsolvable(Some(reason)), stats));
        }
    };
    // Propagation that reaches its fixpoint with every cell decided has found
    // the model itself; the verifier still has the last word.
    if options.encoding == Encoding::Propagated && domains.is_solved() {
        stats.encode = start.elapsed();
        return Ok((Outcome::Solved(checked(geometry, givens, domains.decided())?), stats));
    }
    let past_deadline = || deadline.is_some_and(|deadline| Instant::now() >= deadline);
    // Out of time already (probing and filtering stop there): no search.
    if past_deadline() {
        stats.encode = start.elapsed();
        return Ok((Outcome::TimedOut, stats));
    }
    // A guess at the shape of the solution first, when the known cells show one.
    let guesses =
        if options.pattern_guess { ValueGroups::before_search(geometry, givens, &domains) } else { Vec::new() };
    // Propagation and the guess; each search adds its encoding.
    stats.encode = start.elapsed();
    if !guesses.is_empty() {
        let limit = Some(guess_conflicts);
        match search(puzzle, &domains, options, &guesses, deadline, limit, &mut stats)? {
            Search::Found(grid) => {
                debug_assert!(guesses.iter().all(|groups| groups.fits(geometry, &grid)));
                stats.guess = Guess::Found;
                return Ok((Outcome::Solved(grid), stats));
            }
            Search::Exhausted => stats.guess = Guess::Refuted,
            Search::Interrupted => {
                stats.guess = Guess::GaveUp;
                if past_deadline() {
                    return Ok((Outcome::TimedOut, stats));
                }
            }
        }
    }
    let outcome = match search(puzzle, &domains, options, &[], deadline, None, &mut stats)? {
        Search::Found(grid) => Outcome::Solved(grid),
        Search::Exhausted => Outcome::Unsolvable(None),
        Search::Interrupted => Outcome::TimedOut,
    };
    Ok((outcome, stats))
}

/// How one search ended.
enum Search {
    Found(Grid),
    /// No solution (with the guesses, none of their shape).
    Exhausted,
    /// Out of time or conflicts.
    Interrupted,
}

/// Encode what `domains` leave open, with `guesses` on top, and search it
/// with a fresh solver until `deadline` or `conflict_limit`. Adds its sizes
/// and times to `stats`.
fn search(
    puzzle: &Puzzle,
    domains: &Domains,
    options: &SolveOptions,
    guesses: &[ValueGroups],
    deadline: Option<Instant>,
    conflict_limit: Option<u64>,
    stats: &mut Stats,
) -> Result<Search, InternalError> {
    let (geometry, givens) = (puzzle.geometry(), puzzle.givens());
    let start = Instant::now();
    let mut solver = new_solver();
    solver.set_deadline(deadline);
    solver.set_conflict_limit(conflict_limit);
    let mut counting = Counting::new(&mut solver);
    let map = encode_puzzle(geometry, givens, domains, options, &mut counting);
    for groups in guesses {
        groups.encode(geometry, &map, options.amo, &mut counting);
    }
    stats.variables += counting.variables;
    stats.clauses += counting.clauses;
    stats.encode += start.elapsed();
    let start = Instant::now();
    let result = solver.solve();
    stats.solve += start.elapsed();
    match result {
        Ok(true) => Ok(Search::Found(decode_model(&solver, &map, geometry, givens)?)),
        Ok(false) => Ok(Search::Exhausted),
        Err(SolverError::Interrupted) => Ok(Search::Interrupted),
        Err(e) => Err(InternalError(format!("varisat failed: {e}"))),
    }
}

/// The verified grid of the solver's current model.
pub fn decode_model(solver: &Solver, map: &VarMap, geometry: &Geometry, givens: &Grid) -> Result<Grid, InternalError> {
    let model = solver.model().ok_or_else(|| InternalError("varisat said SAT but gave no model".into()))?;
    let grid =
        map.decode(geometry, |v| model.get(v.index()).is_some_and(|l| l.is_positive())).map_err(InternalError)?;
    checked(geometry, givens, grid)
}

#[cfg(test)]
mod tests {
    use super::*;
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
            let (outcome, stats) = solve_with_stats(&p, &options).unwrap();
            let Outcome::Solved(grid) = outcome else { panic!("{outcome:?}") };
            assert_eq!(verify(p.geometry(), p.givens(), &grid), Ok(()));
            assert_eq!(stats.guess, guess);
        }
    }

    #[test]
    fn a_guess_out_of_conflicts_gives_way_to_the_whole_search() {
        let p = pattern_puzzle();
        let options = SolveOptions { encoding: Encoding::Reduced, ..SolveOptions::default() };
        let (outcome, stats) = solve_guessing(&p, &options, 0).unwrap();
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
