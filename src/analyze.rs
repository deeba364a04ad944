//! What is certain in a puzzle: the backbone, every cell's exact candidates, and what propagation alone derives.
//!
//! The exact candidates of a cell are the values it takes in at least one
//! solution; the backbone is the cells left with one. Both come from one
//! incremental varisat solver over the propagated reduced encoding: every
//! model ticks off all the (cell, value) pairs it contains, and only the pairs
//! no model has shown yet are probed, each with one solve under the assumption
//! "cell = value". A refuted pair is then added as a unit clause, which is
//! sound (the formula implies it) and makes the later probes cheaper. Where
//! values are interchangeable, a model also ticks off the pairs of the
//! solutions renaming them gives ([`FreeValues`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use varisat::{ExtendFormula, Lit, Solver};

use crate::cnf::varmap::VarMap;
use crate::enumerate::{count_up_to, Count, Search, Strategy};
use crate::error::InternalError;
use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry, Value};
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::renaming::FreeValues;
use crate::pipeline::{checked, Goal, Prepared, SolveOptions};
use crate::reasoning::propagate::{find_clash, propagate_puzzle, Contradiction, Propagator, Step};
use crate::sat::varisat::{head_for, run, Loaded};
use crate::sat::SatResult;
use crate::solve::{enumeration_seed, sparse_solution, SolveError, INCREMENTAL_CONFLICTS};

/// What a puzzle's solutions come to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum Verdict {
    /// Exactly one solution.
    Unique,
    /// Two or more.
    Multiple,
    /// None.
    Unsolvable,
}

/// Options of [`analyze`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// The pipeline's options; [`SolveOptions::timeout`] bounds the whole analysis.
    pub solve: SolveOptions,
    /// Count solutions up to this many (0: do not count beyond what the
    /// verdict says).
    pub count_limit: u64,
}

impl Default for AnalyzeOptions {
    fn default() -> AnalyzeOptions {
        AnalyzeOptions { solve: SolveOptions::default(), count_limit: 1000 }
    }
}

/// How much work an analysis took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnalyzeStats {
    /// Variables of the formula.
    pub variables: usize,
    /// Clauses of the formula.
    pub clauses: usize,
    /// Solver calls that found a model.
    pub models: usize,
    /// Solver calls under an assumption that found none: pairs refuted.
    pub refuted: usize,
}

/// The result of [`analyze`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Unique, multiple or unsolvable.
    pub verdict: Verdict,
    /// Every cell's exact candidates; `None` when there is no solution.
    pub candidates: Option<Domains>,
    /// Why there is no solution, when propagation alone showed it.
    pub reason: Option<Contradiction>,
    /// The number of solutions, up to [`AnalyzeOptions::count_limit`]. For a
    /// limit of 0 or 1 the count is what the verdict proves: 0, 1, or 1
    /// capped (more than one), as `count_up_to(1)` says.
    pub count: Count,
    /// The work it took.
    pub stats: AnalyzeStats,
}

impl Analysis {
    /// The cells fixed in every solution (the backbone); empty where open.
    pub fn fixed(&self) -> Grid {
        match &self.candidates {
            Some(d) => d.decided(),
            None => Grid::empty(0),
        }
    }
}

/// The backbone and exact candidates of a puzzle, every model they rest on
/// verified. Past [`SolveOptions::timeout`] it gives up with [`SolveError::TimedOut`].
pub fn analyze(puzzle: &Puzzle, options: &AnalyzeOptions) -> Result<Analysis, SolveError> {
    let geometry = puzzle.geometry();
    let deadline = options.solve.deadline(Instant::now());
    let mut stats = AnalyzeStats::default();
    let unsolvable = |reason: Option<Contradiction>, stats| Analysis {
        verdict: Verdict::Unsolvable,
        candidates: None,
        reason,
        count: Count { count: 0, capped: false },
        stats,
    };
    let prepared = match Prepared::for_goal(puzzle, &options.solve, Goal::All, deadline) {
        Ok(prepared) => prepared,
        Err(reason) => return Ok(unsolvable(Some(reason), stats)),
    };
    // Propagation decided every cell: its one solution, verified, and
    // answered even past the time limit, as `solve` answers it (the first
    // propagation always runs to its end).
    if let Some(solution) = prepared.solution() {
        let mut witnesses = Witnesses::new(puzzle, prepared.domains(), None);
        witnesses.model(solution?)?;
        stats.models = witnesses.models;
        let (candidates, count) = (Some(witnesses.exact_domains()), Count { count: 1, capped: false });
        return Ok(Analysis { verdict: Verdict::Unique, candidates, reason: None, count, stats });
    }
    // A blank or sparse grid: its constructed solution first, where the
    // solver alone may search for minutes.
    let seed = enumeration_seed(&prepared, &options.solve, deadline)?;
    // The solver is loaded when a question needs it: a blank grid's
    // constructed solution and its renamings answer every candidate, where
    // loading a blank 100×100's 11.6 million clauses takes 2.4 s.
    let mut sat: Option<Loaded> = None;
    let domains = prepared.domains();
    let mut witnesses = Witnesses::new(puzzle, domains, deadline);
    let first_model = match &seed {
        Some(seed) => Some(seed.clone()),
        None => {
            let loaded = load(&mut sat, &prepared, None, deadline, &mut stats)?;
            model(&mut loaded.solver, &prepared, &loaded.map, &[])?
        }
    };
    match first_model {
        Some(grid) => witnesses.model(grid)?,
        None => return Ok(unsolvable(None, stats)),
    }
    // The first solutions of the enumeration engine (each verified) tick off
    // candidates without a solver call each, and count up to the limit.
    let count = match options.count_limit {
        0 | 1 => Count { count: 0, capped: true },
        limit => {
            let mut search = Search::prepared(prepared.clone(), Strategy::default(), deadline).seeded(seed.as_ref());
            // The one past the limit ticks off candidates too.
            search.count_each(limit, |grid| witnesses.enumerated(grid))?
        }
    };
    // What the last solver call and the last draw took; a draw counts as
    // a guess of 10 ms until one is made.
    let (mut solver_took, mut draw_took) = (Duration::ZERO, Duration::from_millis(10));
    for cell in geometry.cells() {
        // Every candidate seen is no solver call, and no look at the clock:
        // a blank 1024×1024 has a billion.
        if past(deadline) {
            return Err(SolveError::TimedOut);
        }
        'candidates: for value in domains.values(cell) {
            if witnesses.seen(cell, value) {
                continue;
            }
            // The construction, the cell holding the value, each draw its
            // own seed; timed, so that a quick one makes the next candidate
            // draw first.
            let draw_options =
                SolveOptions { seed: options.solve.seed.wrapping_add(witnesses.models as u64), ..options.solve };
            let draw = |draw_took: &mut Duration| {
                let start = Instant::now();
                let grid = sparse_solution(&prepared, &draw_options, deadline, Some((cell, value)));
                *draw_took = start.elapsed();
                grid
            };
            let grid = 'found: {
                // The draw first when the last one took less than the last
                // solver call: on a near-blank big grid a draw takes a
                // millisecond and a solver call many.
                let drew = draw_took < solver_took;
                if drew {
                    if let Some(grid) = draw(&mut draw_took)? {
                        break 'found grid;
                    }
                }
                // A question the solver does not settle within its conflicts
                // goes to the draw (unless it just failed); then to the
                // solver again, unbounded. Loading the solver counts as its
                // first call's time.
                let start = Instant::now();
                let Loaded { solver, map, .. } = load(&mut sat, &prepared, seed.as_ref(), deadline, &mut stats)?;
                let var = map.var(cell, value).ok_or_else(|| {
                    InternalError(format!("{value} in {} is unseen but has no variable", geometry.cell_name(cell)))
                })?;
                head_for_unseen(solver, map, geometry, domains, &witnesses);
                solver.set_conflict_limit(Some(solver.conflicts() + INCREMENTAL_CONFLICTS));
                let bounded = model(solver, &prepared, map, &[var.positive()]);
                solver.set_conflict_limit(None);
                solver_took = start.elapsed();
                let answer = match bounded {
                    Err(SolveError::TimedOut) if deadline.is_none_or(|d| Instant::now() < d) => {
                        if !drew {
                            if let Some(grid) = draw(&mut draw_took)? {
                                break 'found grid;
                            }
                        }
                        model(solver, &prepared, map, &[var.positive()])?
                    }
                    bounded => bounded?,
                };
                match answer {
                    Some(grid) => grid,
                    None => {
                        stats.refuted += 1;
                        solver.add_clause(&[var.negative()]);
                        continue 'candidates;
                    }
                }
            };
            witnesses.model(grid)?;
        }
    }
    stats.models = witnesses.models;
    let candidates = witnesses.exact_domains();
    let all_fixed = geometry.cells().all(|c| candidates.count(c) == 1);
    let second = witnesses.second || count.count >= 2;
    if all_fixed == second {
        return Err(InternalError(format!(
            "analyze found {} but every cell {} fixed",
            if second { "two solutions" } else { "one solution" },
            if all_fixed { "is" } else { "is not" }
        ))
        .into());
    }
    let (verdict, count) = if all_fixed {
        (Verdict::Unique, Count { count: 1, capped: false })
    } else if options.count_limit < 2 {
        (Verdict::Multiple, Count { count: 1, capped: true })
    } else {
        (Verdict::Multiple, count)
    };
    Ok(Analysis { verdict, candidates: Some(candidates), reason: None, count, stats })
}

/// Have `solver` decide every pair no model has shown yet "holds", and
/// every pair one has shown "does not": the model it finds for one unseen
/// pair then shows as many others as it can. Left to its own phases (the
/// last model) it finds the solution nearest the last one, which shows
/// few: a 36×36 with a fifth of its cells given took 356 models, steered
/// 76; 15 16×16s with 5–40 givens 1.5 s, steered 0.6 s.
fn head_for_unseen(solver: &mut Solver, map: &VarMap, geometry: &Geometry, domains: &Domains, witnesses: &Witnesses) {
    for cell in geometry.cells() {
        for value in domains.values(cell) {
            if let Some(var) = map.var(cell, value) {
                solver.set_phase(if witnesses.seen(cell, value) { var.negative() } else { var.positive() });
            }
        }
    }
}

/// The verified solutions an analysis has found, as the (cell, value)
/// pairs they show.
struct Witnesses<'p> {
    puzzle: &'p Puzzle,
    domains: &'p Domains,
    free: FreeValues,
    /// seen[cell · n + value]: some verified solution has the value in the cell.
    seen: Vec<bool>,
    first: Option<Grid>,
    /// Two different solutions were found.
    second: bool,
    /// Solutions found as models of a question (a solver call or a draw).
    models: usize,
    /// Where ticking off renamings gives up.
    deadline: Option<Instant>,
}

/// Whether `deadline` has passed.
fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

impl<'p> Witnesses<'p> {
    fn new(puzzle: &'p Puzzle, domains: &'p Domains, deadline: Option<Instant>) -> Witnesses<'p> {
        let geometry = puzzle.geometry();
        Witnesses {
            deadline,
            puzzle,
            domains,
            free: FreeValues::of(puzzle),
            seen: vec![false; geometry.cell_count() * geometry.size()],
            first: None,
            second: false,
            models: 0,
        }
    }

    fn seen(&self, cell: Cell, value: Value) -> bool {
        self.seen[self.slot(cell, value)]
    }

    /// Where (cell, value) is in `seen`.
    fn slot(&self, cell: Cell, value: Value) -> usize {
        cell.index() * self.puzzle.geometry().size() + value.index()
    }

    /// A model found for a question. It ticks off its pairs, and so do the
    /// solutions renaming its free values gives: a model found for an
    /// unseen candidate then stands for m of them.
    fn model(&mut self, grid: Grid) -> Result<(), SolveError> {
        self.models += 1;
        self.tick(&grid)?;
        let m = self.free.len();
        for shift in 1..m {
            // A blank 256×256's model has 255 renamings of 65,536 cells each.
            if past(self.deadline) {
                return Err(SolveError::TimedOut);
            }
            let renamed = checked(self.puzzle, self.free.renamed(&grid, |i| (i + shift) % m))?;
            self.tick(&renamed)?;
        }
        Ok(())
    }

    /// The candidate sets: the values some verified solution holds.
    fn exact_domains(&self) -> Domains {
        let mut exact = self.domains.clone();
        for cell in self.puzzle.geometry().cells() {
            for value in self.domains.values(cell) {
                if !self.seen(cell, value) {
                    exact.remove(cell, value);
                }
            }
        }
        exact
    }

    /// A solution of the enumeration, there to be counted: it mostly
    /// repeats pairs already seen, so its renamings are not ticked off.
    fn enumerated(&mut self, grid: &Grid) -> Result<(), SolveError> {
        self.tick(grid)
    }

    /// Tick off the (cell, value) pairs of a verified solution. Each must
    /// be a candidate preparation left: any other would be a value
    /// propagation ruled out that a solution holds.
    fn tick(&mut self, solution: &Grid) -> Result<(), SolveError> {
        for (cell, value) in solution.filled() {
            if !self.domains.contains(cell, value) {
                return Err(InternalError(format!(
                    "a verified solution puts {value} in {}, a candidate preparation ruled out",
                    self.puzzle.geometry().cell_name(cell)
                ))
                .into());
            }
            let slot = self.slot(cell, value);
            self.seen[slot] = true;
        }
        match &self.first {
            None => self.first = Some(solution.clone()),
            Some(first) => self.second |= first != solution,
        }
        Ok(())
    }
}

/// The solver of `prepared`, loaded on the first call (heading for `seed`,
/// where there is one), its size in `stats`.
fn load<'s>(
    sat: &'s mut Option<Loaded>,
    prepared: &Prepared,
    seed: Option<&Grid>,
    deadline: Option<Instant>,
    stats: &mut AnalyzeStats,
) -> Result<&'s mut Loaded, SolveError> {
    if sat.is_none() {
        let mut loaded = Loaded::new(prepared, &[], deadline)?;
        (stats.variables, stats.clauses) = (loaded.variables, loaded.clauses);
        if let Some(seed) = seed {
            head_for(&mut loaded.solver, &loaded.map, seed);
        }
        *sat = Some(loaded);
    }
    sat.as_mut().ok_or_else(|| InternalError("analyze lost its solver".into()).into())
}

/// Solve under `assumptions`; the verified grid of the model, if any.
fn model(
    solver: &mut Solver,
    prepared: &Prepared,
    map: &VarMap,
    assumptions: &[Lit],
) -> Result<Option<Grid>, SolveError> {
    solver.assume(assumptions);
    match run(solver)? {
        SatResult::Sat(model) => Ok(Some(prepared.decode(map, &model)?)),
        SatResult::Unsat => Ok(None),
        SatResult::Interrupted => Err(SolveError::TimedOut),
    }
}

/// How many solutions put one candidate in one cell (`analyze --counts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CandidateCount {
    /// The cell.
    pub cell: Cell,
    /// The candidate.
    pub value: Value,
    /// The solutions with `value` in `cell`, up to the limit.
    pub count: Count,
}

/// For every open cell of `candidates` (more than one candidate) and each
/// of its candidates, how many solutions of `puzzle` hold it, counted up to
/// `limit` each (every solution counted is verified): a setter sees which
/// value would make the puzzle unique. Candidates of another size than the
/// puzzle's are [`SolveError::Mismatch`].
pub fn candidate_counts(
    puzzle: &Puzzle,
    candidates: &Domains,
    limit: u64,
    options: &SolveOptions,
) -> Result<Vec<CandidateCount>, SolveError> {
    let geometry = puzzle.geometry();
    if candidates.size() != puzzle.size() {
        let (found, n) = (candidates.size(), puzzle.size());
        return Err(SolveError::Mismatch(format!("candidates of a {found}x{found} grid for a {n}x{n} puzzle")));
    }
    let start = Instant::now();
    let mut counts = Vec::new();
    for cell in geometry.cells().filter(|&c| candidates.count(c) > 1) {
        for value in candidates.values(cell) {
            let mut givens = puzzle.givens().clone();
            givens.set(cell, Some(value));
            let with = match puzzle.candidates() {
                Some(marks) => Puzzle::with_candidates(Arc::clone(geometry), givens, marks.clone()),
                None => Puzzle::new(Arc::clone(geometry), givens),
            }
            .ok_or_else(|| InternalError("a puzzle of mismatched sizes".into()))?;
            // One clock for the whole: what is left of the timeout.
            let timeout = match options.deadline(start) {
                Some(deadline) => Some(deadline.checked_duration_since(Instant::now()).ok_or(SolveError::TimedOut)?),
                None => None,
            };
            let count = count_up_to(&with, limit, &SolveOptions { timeout, ..*options })?;
            counts.push(CandidateCount { cell, value, count });
        }
    }
    Ok(counts)
}

/// The open cells of one unit and what still links them: they take
/// different values (`r1c2 ∈ {3,5}, r1c5 ∈ {3,5}: row 1 all different`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The unit, by index into [`Geometry::units`].
    pub unit: usize,
    /// Its open cells.
    pub cells: Vec<Cell>,
}

/// What is left of a puzzle with several solutions, in the shape of a
/// CLP(FD) residual goal: for every unit with two or more open cells of
/// `candidates`, those cells and their all-different constraint.
///
/// # Panics
/// When the candidates' side is not the geometry's.
pub fn residual(geometry: &Geometry, candidates: &Domains) -> Vec<Link> {
    let (n, side) = (candidates.size(), geometry.size());
    assert_eq!(n, side, "residual: candidates of a {n}x{n} grid on a {side}x{side} geometry");
    geometry
        .units()
        .iter()
        .enumerate()
        .filter_map(|(unit, u)| {
            let cells: Vec<Cell> = u.cells().iter().copied().filter(|&c| candidates.count(c) > 1).collect();
            (cells.len() >= 2).then_some(Link { unit, cells })
        })
        .collect()
}

impl Link {
    /// The link in words, values written in `alphabet`.
    pub fn describe(&self, geometry: &Geometry, candidates: &Domains, alphabet: &crate::Alphabet) -> String {
        let n = geometry.size();
        let cells: Vec<String> = self
            .cells
            .iter()
            .map(|&c| {
                let values: Vec<String> =
                    candidates.values(c).map(|v| crate::text::format::symbol(Some(v), n, alphabet)).collect();
                format!("{} ∈ {{{}}}", geometry.cell_name(c), values.join(","))
            })
            .collect();
        format!("{}: {} all different", cells.join(", "), geometry.units()[self.unit])
    }
}

/// What unit propagation alone derives from the givens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Propagation {
    /// The deductions in order (empty unless steps were asked for).
    pub steps: Vec<Step>,
    /// The residual domains, or the contradiction propagation ran into.
    pub outcome: Result<Domains, Contradiction>,
}

/// Propagate the givens of `puzzle` to the fixpoint, recording each deduction when `steps`.
pub fn propagation(puzzle: &Puzzle, steps: bool) -> Propagation {
    let geometry = puzzle.geometry();
    if !steps {
        return Propagation { steps: Vec::new(), outcome: propagate_puzzle(puzzle) };
    }
    // The steps name each given's eliminations, so the givens are placed one by one.
    if let Some(clash) = find_clash(geometry, puzzle.givens()) {
        return Propagation { steps: Vec::new(), outcome: Err(clash) };
    }
    let mut p = Propagator::new(geometry);
    p.record_steps();
    // Pencil marks are where the puzzle starts, not deductions.
    let pencil = puzzle.candidates().map_or(Ok(()), |candidates| {
        geometry.cells().try_for_each(|cell| {
            let excluded: Vec<_> = Value::all(geometry.size()).filter(|&v| !candidates.contains(cell, v)).collect();
            excluded.into_iter().try_for_each(|value| p.exclude(cell, value))
        })
    });
    let outcome = pencil.and_then(|()| p.place_givens(puzzle.givens())).and_then(|()| p.propagate());
    let steps = p.steps().to_vec();
    Propagation { steps, outcome: outcome.map(|()| p.into_domains()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::Layout;
    use crate::model::verify::verify;
    use crate::testing::puzzle;

    /// Candidates as the union over every solution the plain enumerator finds.
    fn union_of_solutions(p: &Puzzle) -> (Vec<Vec<bool>>, u64) {
        let n = p.size();
        let mut union = vec![vec![false; n]; n * n];
        let mut count = 0;
        for s in Search::new(p, &SolveOptions::default()) {
            let s = s.unwrap();
            for (c, v) in s.filled() {
                union[c.index()][v.index()] = true;
            }
            count += 1;
        }
        (union, count)
    }

    fn check_against_enumeration(p: &Puzzle) {
        let a = analyze(p, &AnalyzeOptions { count_limit: u64::MAX, ..AnalyzeOptions::default() }).unwrap();
        let (union, count) = union_of_solutions(p);
        assert_eq!(a.count, Count { count, capped: false }, "{:?}", p.givens());
        let d = a.candidates.expect("solvable");
        for cell in p.geometry().cells() {
            let got: Vec<bool> = Value::all(p.size()).map(|v| d.contains(cell, v)).collect();
            assert_eq!(got, union[cell.index()], "{}", p.geometry().cell_name(cell));
        }
    }

    #[test]
    fn blank_4x4_has_every_value_everywhere() {
        let p = puzzle(Geometry::classic(4).unwrap(), &".".repeat(16));
        let a = analyze(&p, &AnalyzeOptions::default()).unwrap();
        assert_eq!(a.verdict, Verdict::Multiple);
        assert_eq!(a.count, Count { count: 288, capped: false });
        assert_eq!(a.fixed().filled_count(), 0);
        check_against_enumeration(&p);
    }

    #[test]
    fn partial_grids_match_enumeration() {
        check_against_enumeration(&puzzle(Geometry::classic(4).unwrap(), "1..........2...."));
        check_against_enumeration(&puzzle(Geometry::latin(5).unwrap(), "12...........3..........."));
        check_against_enumeration(&puzzle(
            Geometry::new(6, Layout::Boxes { rows: 2, cols: 3 }, &[]).unwrap(),
            "1.....2..3.....4....5.6...........1.",
        ));
    }

    #[test]
    fn every_encoding_gives_the_same_candidates() {
        let p = puzzle(Geometry::classic(4).unwrap(), "1...........2...");
        let base = analyze(&p, &AnalyzeOptions::default()).unwrap();
        for encoding in [crate::Encoding::Full, crate::Encoding::Reduced] {
            let options =
                AnalyzeOptions { solve: SolveOptions { encoding, ..SolveOptions::default() }, count_limit: 5 };
            let a = analyze(&p, &options).unwrap();
            assert_eq!(a.candidates, base.candidates, "{encoding}");
            assert_eq!(a.count.count.min(5), count_up_to(&p, 5, &options.solve).unwrap().count);
        }
    }

    #[test]
    fn unique_puzzle_is_all_fixed() {
        let hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let p = puzzle(Geometry::classic(9).unwrap(), hard);
        let a = analyze(&p, &AnalyzeOptions::default()).unwrap();
        assert_eq!(a.verdict, Verdict::Unique);
        assert!(a.fixed().is_complete());
        assert_eq!(verify(p.geometry(), p.givens(), &a.fixed()), Ok(()));
    }

    #[test]
    fn unsolvable_puzzles_say_so() {
        let clash = puzzle(Geometry::classic(4).unwrap(), "11..............");
        let a = analyze(&clash, &AnalyzeOptions::default()).unwrap();
        assert_eq!(a.verdict, Verdict::Unsolvable);
        assert!(matches!(a.reason, Some(Contradiction::Clash { .. })), "{:?}", a.reason);
        // From tdoku's counted test puzzles (count 0): propagation alone sees
        // nothing wrong, so this takes the solver.
        let text = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.";
        let p = puzzle(Geometry::classic(9).unwrap(), text);
        assert!(propagation(&p, false).outcome.is_ok());
        let a = analyze(&p, &AnalyzeOptions::default()).unwrap();
        assert_eq!(a.reason, None);
        assert_eq!(a.verdict, Verdict::Unsolvable);
        assert_eq!(a.count.count, 0);
    }

    #[test]
    fn count_limit_caps() {
        let p = puzzle(Geometry::classic(4).unwrap(), &".".repeat(16));
        let a = analyze(&p, &AnalyzeOptions { count_limit: 10, ..AnalyzeOptions::default() }).unwrap();
        assert_eq!(a.count, Count { count: 10, capped: true });
        // Two solutions are known; whether there is a third is not.
        for count_limit in [0, 1] {
            let a = analyze(&p, &AnalyzeOptions { count_limit, ..AnalyzeOptions::default() }).unwrap();
            assert_eq!(a.count, Count { count: 1, capped: true });
        }
    }

    /// The free values are those no given holds, and only where renaming
    /// them keeps every rule; each shift of a solution is another solution.
    #[test]
    fn propagation_steps_stop_where_search_starts() {
        let p = puzzle(Geometry::classic(4).unwrap(), "1..........2....");
        let prop = propagation(&p, true);
        let domains = prop.outcome.unwrap();
        assert!(!domains.is_solved());
        assert!(!prop.steps.is_empty());
    }
}
