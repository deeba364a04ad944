//! Every solution of a puzzle, each verified, each once: enumeration and counting.
//!
//! Plain enumeration with varisat (solve, block the model with a clause over
//! the free cells' variables, solve again) runs at about 5,000 solutions/s on
//! a 9×9 and keeps every blocking clause. The default [`Strategy::Branch`]
//! instead splits the search space on assumptions, cube-and-conquer style:
//! branch on a cell with fewest candidates, propagate naked and hidden singles
//! (what unit propagation on the extended encoding derives) on bitsets, and
//! yield a leaf that propagation fully decides without any SAT call. The
//! branches partition the space, so nothing is lost or repeated and nothing
//! needs blocking: memory is one candidate set per open branch. varisat is
//! asked, under the branch decisions as assumptions, only when the bitset
//! search keeps hitting dead ends: an unsatisfiable answer prunes the rest of
//! a branch, a satisfiable one hands over a solution that guides the value
//! order straight to it.
//!
//! Where values are interchangeable ([`crate::model::renaming`]), the first
//! solution's renamings come right after it, each verified, without a
//! search; either engine's later solutions that are among them are skipped.

use std::time::Instant;

use varisat::{ExtendFormula, Lit, Solver};

use crate::cnf::varmap::VarMap;
use crate::error::InternalError;
use crate::model::constraints::Constraint;
use crate::model::geometry::{Cell, Geometry, Value};
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::renaming::{FreeValues, Orbit};
use crate::model::verify::verify;
use crate::pipeline::{checked, Goal, Prepared, SolveOptions, PROBE_CANDIDATES};
use crate::reasoning::propagate::{Contradiction, Propagator};
use crate::reasoning::small::{Node, Pending, Tables};
use crate::rng::Rng;
use crate::sat::varisat::{head_for, run, Loaded};
use crate::sat::SatResult;
use crate::solve::{enumeration_seed, SolveError, Stats};

/// How [`Search`] finds the next solution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// Branch on assumptions with bitset propagation; varisat prunes subtrees
    /// that keep failing. Grids up to 64×64; larger ones use [`Strategy::Blocking`].
    #[default]
    Branch,
    /// One incremental varisat solver; each solution is blocked by a clause
    /// over the variables of the cells the givens leave free. The clauses stay
    /// until the search ends.
    Blocking,
}

/// How many dead ends the bitset search may meet before it asks varisat
/// about the rest of a branch. A dead end costs about a microsecond on a
/// 9×9 and a SAT call a few hundred, so the calls stay a small share of the time.
const DEAD_END_BUDGET: u64 = 512;

/// The solutions of a puzzle, each verified against the puzzle before it is
/// yielded, each exactly once. `take(n)` stops early; the search does no work
/// beyond the solution asked for. Past [`SolveOptions::timeout`] (counted
/// from [`Search::new`]) it yields [`SolveError::TimedOut`] and ends.
pub struct Search {
    /// The puzzle prepared for every solution; `None` when preparation showed
    /// there is none.
    prepared: Option<Prepared>,
    engine: Engine,
    /// Why there is no solution, when propagation alone showed it.
    reason: Option<Contradiction>,
    deadline: Option<Instant>,
    stats: Stats,
    /// Solutions yielded.
    found: u64,
    /// The last solution found, verified: filled in place, so that counting
    /// allocates nothing per solution.
    solution: Grid,
    /// The renamings of the first solution, where values are interchangeable
    /// ([`FreeValues`]): yielded right after it, and skipped when the engine
    /// finds them again. With 7 or more free values they outnumber `--max
    /// 1000`, and the engine is never asked for a second solution.
    orbit: Option<Orbit>,
}

enum Engine {
    /// Nothing (more) to find.
    Done,
    /// Could not start: the error, to be yielded once.
    Failed(Option<SolveError>),
    Branch(Box<Brancher>),
    Blocking(Box<Blocker>),
}

impl Search {
    /// Search with the default [`Strategy`].
    pub fn new(puzzle: &Puzzle, options: &SolveOptions) -> Search {
        Search::with_strategy(puzzle, options, Strategy::default())
    }

    /// Search with `strategy`.
    pub fn with_strategy(puzzle: &Puzzle, options: &SolveOptions, strategy: Strategy) -> Search {
        let start = Instant::now();
        let deadline = options.deadline(start);
        let goal = match effective(strategy, puzzle.geometry()) {
            Strategy::Branch => Goal::Branch,
            Strategy::Blocking => Goal::All,
        };
        let search = match Prepared::for_goal(puzzle, options, goal, deadline) {
            Ok(prepared) => match enumeration_seed(&prepared, options, deadline) {
                Ok(seed) => Search::prepared(prepared, strategy, deadline).seeded(seed.as_ref()),
                Err(error) => Search::failed(prepared, deadline, error.into()),
            },
            Err(reason) => Search {
                prepared: None,
                engine: Engine::Done,
                reason: Some(reason),
                deadline,
                stats: Stats::default(),
                found: 0,
                solution: Grid::empty(0),
                orbit: None,
            },
        };
        Search { stats: Stats { encode: start.elapsed(), ..search.stats }, ..search }
    }

    /// Search the solutions of a puzzle already prepared for all of them.
    pub(crate) fn prepared(prepared: Prepared, strategy: Strategy, deadline: Option<Instant>) -> Search {
        let geometry = prepared.puzzle().geometry();
        let strategy = effective(strategy, geometry);
        let stats = Stats::default();
        let tables = match strategy {
            Strategy::Branch => Tables::new(geometry),
            Strategy::Blocking => None,
        };
        let engine = match tables {
            Some(tables) => {
                let domains = prepared.domains();
                let root = geometry.cells().map(|c| domains.values(c).fold(0, |m, v| m | 1 << v.index())).collect();
                match Brancher::new(tables, root) {
                    Some(brancher) => Engine::Branch(Box::new(brancher)),
                    None => Engine::Done,
                }
            }
            None => Engine::Blocking(Box::default()),
        };
        let solution = Grid::empty(geometry.size());
        Search { prepared: Some(prepared), engine, reason: None, deadline, stats, found: 0, solution, orbit: None }
    }

    /// A search that yields `error` once: the seed's construction failed
    /// its verification (a bug).
    fn failed(prepared: Prepared, deadline: Option<Instant>, error: SolveError) -> Search {
        let solution = Grid::empty(prepared.puzzle().size());
        let engine = Engine::Failed(Some(error));
        let stats = Stats::default();
        Search { prepared: Some(prepared), engine, reason: None, deadline, stats, found: 0, solution, orbit: None }
    }

    /// Look for `seed`, a verified solution found another way, first: the
    /// bitset search tries its values first (as after a varisat answer);
    /// the blocking search yields it without a solver call, and decides
    /// its values first ([`head_for`]) when it goes on. Blank and sparse big
    /// grids, whose first solution the search alone may not find in
    /// minutes, then start at once; each later solution is searched as ever.
    pub(crate) fn seeded(mut self, seed: Option<&Grid>) -> Search {
        let Some(seed) = seed else { return self };
        match &mut self.engine {
            Engine::Branch(b) => {
                b.guide = Some(seed.cells().iter().map(|v| v.map_or(0, |v| 1 << v.index())).collect());
                b.ask_deepest = true;
            }
            Engine::Blocking(b) => b.seed = Some(seed.clone()),
            Engine::Done | Engine::Failed(_) => {}
        }
        self
    }

    /// With [`Strategy::Branch`]: ask varisat after `dead_ends` dead ends of the
    /// bitset search instead of the default 512 (for tuning, and for tests that
    /// drive the SAT path hard with 1).
    pub fn sat_after(mut self, dead_ends: u64) -> Search {
        if let Engine::Branch(b) = &mut self.engine {
            b.budget = dead_ends.max(1);
        }
        self
    }

    /// How many solutions the search has yielded so far.
    pub fn found(&self) -> u64 {
        self.found
    }

    /// Why the puzzle has no solution, when propagation alone showed it.
    pub fn reason(&self) -> Option<&Contradiction> {
        self.reason.as_ref()
    }

    /// Sizes of the SAT formula (zero while [`Strategy::Branch`] has not needed
    /// varisat) and the time spent, the solutions' verification included.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The next solution into `self.solution`, verified; false when there is none.
    fn find(&mut self) -> Result<bool, SolveError> {
        let Some(prepared) = &self.prepared else { return Ok(false) };
        if let Some(renamed) = self.orbit.as_mut().and_then(Iterator::next) {
            // A renaming costs a grid's copy and check; the clock is read
            // now and then, as the bitset search reads it.
            if self.found % 1024 == 0 && self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                return Err(SolveError::TimedOut);
            }
            self.solution = checked(prepared.puzzle(), renamed)?;
            self.found += 1;
            // The bitset search writes only the cells its root leaves open.
            if let Engine::Branch(b) = &mut self.engine {
                b.filled = false;
            }
            return Ok(true);
        }
        loop {
            let found = match &mut self.engine {
                Engine::Done => Ok(false),
                Engine::Failed(error) => error.take().map_or(Ok(false), Err),
                Engine::Branch(b) => b.next(prepared, self.deadline, &mut self.stats, &mut self.solution),
                Engine::Blocking(b) => b.next(prepared, self.deadline, &mut self.stats).map(|grid| match grid {
                    Some(grid) => {
                        self.solution = grid;
                        true
                    }
                    None => false,
                }),
            };
            if !found? {
                self.engine = Engine::Done;
                if self.found == 0 && self.reason.is_none() {
                    self.reason = why_none(prepared.puzzle(), self.deadline);
                }
                return Ok(false);
            }
            // Yielded already, as a renaming of the first solution.
            if self.orbit.as_ref().is_some_and(|orbit| orbit.contains(&self.solution)) {
                continue;
            }
            // `checked` takes the grid and hands it back when it is a solution.
            let grid = std::mem::replace(&mut self.solution, Grid::empty(0));
            self.solution = checked(prepared.puzzle(), grid)?;
            self.found += 1;
            if self.found == 1 {
                let free = FreeValues::of(prepared.puzzle());
                self.orbit = (free.len() >= 2).then(|| Orbit::new(free, self.solution.clone()));
            }
            return Ok(true);
        }
    }

    /// [`Search::find`], and after an error nothing more: a bug, or the time
    /// limit, after which nothing can be trusted.
    fn advance(&mut self) -> Result<bool, SolveError> {
        let found = self.find();
        if found.is_err() {
            self.engine = Engine::Done;
        }
        found
    }

    /// `work`, its time added to the search's. Counting reads the clock once
    /// for all its solutions: twice a solution cost 8% of `count` on
    /// serg-benchmark.
    fn timed<T>(&mut self, work: impl FnOnce(&mut Search) -> T) -> T {
        let start = Instant::now();
        let result = work(self);
        self.stats.solve += start.elapsed();
        result
    }
}

/// The strategy `geometry` allows: the bitset search knows units only
/// (variant constraints need the CNF) and values up to 64.
fn effective(strategy: Strategy, geometry: &Geometry) -> Strategy {
    match geometry.size() > 64 || geometry.has_constraints() {
        true => Strategy::Blocking,
        false => strategy,
    }
}

impl Iterator for Search {
    type Item = Result<Grid, SolveError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.timed(Search::advance) {
            Ok(found) => found.then(|| Ok(self.solution.clone())),
            Err(e) => Some(Err(e)),
        }
    }
}

/// Plain enumeration: solve, block, solve again.
#[derive(Default)]
struct Blocker {
    /// varisat holding the formula and the map of its variables, loaded
    /// when a solution is first asked of it.
    sat: Option<(Solver<'static>, VarMap)>,
    /// A solution found another way, yielded first without a solver.
    seed: Option<Grid>,
    /// The seed once yielded: blocked when the solver is loaded.
    yielded_seed: Option<Grid>,
}

impl Blocker {
    fn next(
        &mut self,
        prepared: &Prepared,
        deadline: Option<Instant>,
        stats: &mut Stats,
    ) -> Result<Option<Grid>, SolveError> {
        if let Some(seed) = self.seed.take() {
            self.yielded_seed = Some(seed.clone());
            return Ok(Some(seed));
        }
        let geometry = prepared.puzzle().geometry();
        if self.sat.is_none() {
            let Loaded { mut solver, map, variables, clauses } = Loaded::new(prepared, &[], deadline)?;
            (stats.variables, stats.clauses) = (variables, clauses);
            if let Some(seed) = self.yielded_seed.take() {
                head_for(&mut solver, &map, &seed);
                block(&mut solver, &map, geometry, &seed);
            }
            self.sat = Some((solver, map));
        }
        let (solver, map) =
            self.sat.as_mut().ok_or_else(|| InternalError("the blocking search lost its solver".into()))?;
        let result = run(solver);
        stats.conflicts = Some(solver.conflicts());
        let model = match result? {
            SatResult::Sat(model) => model,
            SatResult::Unsat => return Ok(None),
            SatResult::Interrupted => return Err(SolveError::TimedOut),
        };
        let grid = map.decode(geometry, |v| model.value(v) == Some(true)).map_err(InternalError)?;
        block(solver, map, geometry, &grid);
        Ok(Some(grid))
    }
}

/// Block `grid` over the free cells only: the decided ones have no
/// variable, and an empty clause (nothing free) ends the search.
fn block(solver: &mut Solver, map: &VarMap, geometry: &Geometry, grid: &Grid) {
    let clause: Vec<Lit> =
        geometry.cells().filter_map(|c| grid.get(c).and_then(|v| map.var(c, v))).map(|v| v.negative()).collect();
    solver.add_clause(&clause);
}

/// One open branch point: the candidates at a node and the values of its
/// branching cell not yet tried.
struct Frame {
    cell: u32,
    /// The value being explored below this frame (its bit), 0 before the first.
    active: u64,
    remaining: u64,
    /// varisat has said the untried values hold a solution; no need to ask again
    /// until `remaining` changes.
    checked: bool,
}

/// Depth-first search over cells, bitset propagation at each node.
struct Brancher {
    tables: Tables,
    /// `nodes[k]` is the node of `frames[k]`; one more slot is scratch for the child.
    nodes: Vec<Node>,
    frames: Vec<Frame>,
    /// The cells the root leaves open, in order: the only ones a branch may
    /// choose, and the only ones that differ between solutions.
    open: Vec<u32>,
    /// The grid solutions are written into holds the root's decided cells.
    filled: bool,
    pending: Pending,
    /// The root is itself a solution still to be yielded.
    root_solved: bool,
    dead_ends: u64,
    /// Nodes visited, to read the clock now and then.
    visited: u64,
    budget: u64,
    /// varisat, built on the first call: the formula and the map of its variables.
    sat: Option<(Solver<'static>, VarMap)>,
    /// A solution varisat found, to try its values first.
    guide: Option<Vec<u64>>,
    /// Ask varisat about the deepest branch with untried values, not the
    /// shallowest. Below a constructed solution of a sparse grid the next
    /// solutions are near, and a question about a shallow branch is a search
    /// of nearly the whole grid, the one CDCL takes seconds or minutes over
    /// (36×36s with 5% and 10% given counted to 1,000 in 0.4 and 0.6 s
    /// instead of 4.5 and 6.9 s). With more givens the shallow question
    /// prunes what the bitset search keeps failing in (25×25s at 30–40%
    /// given: 0.5–2.2 s asking the shallowest, no answer in 10 s the deepest).
    ask_deepest: bool,
}

impl Brancher {
    /// The search below `root`, propagated to its fixpoint first; `None` when
    /// that propagation fails (there is no solution).
    fn new(tables: Tables, root: Vec<u64>) -> Option<Brancher> {
        // Preparation may leave decided cells whose values are still in their
        // peers (the full encoding removes only the givens').
        let mut pending = tables.pending();
        let empty = root.contains(&0);
        let mut root = tables.node(root, &mut pending);
        if empty || !tables.propagate(&mut root, &mut pending) {
            return None;
        }
        let open = (0..root.cand.len() as u32).filter(|&c| !root.cand[c as usize].is_power_of_two()).collect();
        let mut b = Brancher {
            tables,
            nodes: Vec::new(),
            frames: Vec::new(),
            open,
            filled: false,
            pending,
            root_solved: false,
            dead_ends: 0,
            visited: 0,
            budget: DEAD_END_BUDGET,
            sat: None,
            guide: None,
            ask_deepest: false,
        };
        match b.tables.branch_cell(&root.cand, &b.open) {
            Some(cell) => {
                b.frames.push(Frame { cell, active: 0, remaining: root.cand[cell as usize], checked: false });
            }
            None => b.root_solved = true,
        }
        b.nodes.push(root);
        Some(b)
    }

    /// The next solution into `out`; false when there is none.
    fn next(
        &mut self,
        prepared: &Prepared,
        deadline: Option<Instant>,
        stats: &mut Stats,
        out: &mut Grid,
    ) -> Result<bool, SolveError> {
        if self.root_solved {
            self.root_solved = false;
            self.fill(out, 0);
            return Ok(true);
        }
        loop {
            // Reading the clock at every node would cost more than the node.
            self.visited += 1;
            if self.visited % 1024 == 0 && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                return Err(SolveError::TimedOut);
            }
            let depth = self.frames.len();
            let Some(top) = self.frames.last_mut() else { return Ok(false) };
            if top.remaining == 0 {
                self.frames.pop();
                continue;
            }
            if self.dead_ends >= self.budget {
                self.dead_ends = 0;
                self.sat_check(prepared, deadline, stats)?;
                continue;
            }
            let cell = top.cell as usize;
            let guided = self.guide.as_ref().map_or(0, |g| g[cell] & top.remaining);
            let bit = if guided != 0 { guided } else { top.remaining & top.remaining.wrapping_neg() };
            top.remaining &= !bit;
            top.active = bit;
            top.checked = false;
            if self.nodes.len() == depth {
                self.nodes.push(self.nodes[depth - 1].clone());
            }
            let (parents, children) = self.nodes.split_at_mut(depth);
            let (parent, child) = (&parents[depth - 1], &mut children[0]);
            child.cand.copy_from_slice(&parent.cand);
            child.places.copy_from_slice(&parent.places);
            if !self.tables.decide(child, cell as u32, bit, &mut self.pending) {
                self.dead_ends += 1;
                continue;
            }
            match self.tables.branch_cell(&child.cand, &self.open) {
                None => {
                    self.dead_ends = 0;
                    self.fill(out, depth);
                    return Ok(true);
                }
                Some(next) => {
                    let remaining = child.cand[next as usize];
                    self.frames.push(Frame { cell: next, active: 0, remaining, checked: false });
                }
            }
        }
    }

    /// Ask varisat whether the untried values of the shallowest unasked frame
    /// (the deepest, with [`Brancher::ask_deepest`]) lead anywhere: the
    /// decisions above it as assumptions, its tried values excluded. No: drop
    /// them. Yes: follow the solution it found.
    fn sat_check(
        &mut self,
        prepared: &Prepared,
        deadline: Option<Instant>,
        stats: &mut Stats,
    ) -> Result<(), SolveError> {
        let unasked = |f: &Frame| f.remaining != 0 && !f.checked;
        let k = match self.ask_deepest {
            true => self.frames.iter().rposition(unasked),
            false => self.frames.iter().position(unasked),
        };
        let Some(k) = k else { return Ok(()) };
        if self.sat.is_none() {
            let Loaded { solver, map, variables, clauses } = Loaded::new(prepared, &[], deadline)?;
            (stats.variables, stats.clauses) = (variables, clauses);
            self.sat = Some((solver, map));
        }
        let Some((solver, map)) = self.sat.as_mut() else { return Ok(()) };
        let lit = |cell: u32, bit: u64| {
            map.var(Cell::from_index(cell as usize), Value::from_index(bit.trailing_zeros() as usize))
        };
        let mut assumptions: Vec<Lit> =
            self.frames[..k].iter().filter_map(|f| lit(f.cell, f.active)).map(|v| v.positive()).collect();
        let frame = &self.frames[k];
        let mut tried = self.nodes[k].cand[frame.cell as usize] & !frame.remaining;
        while tried != 0 {
            let bit = tried & tried.wrapping_neg();
            tried ^= bit;
            if let Some(v) = lit(frame.cell, bit) {
                assumptions.push(v.negative());
            }
        }
        solver.assume(&assumptions);
        let result = run(solver);
        stats.conflicts = Some(solver.conflicts());
        let model = match result? {
            SatResult::Sat(model) => model,
            SatResult::Unsat => {
                self.frames[k].remaining = 0;
                return Ok(());
            }
            SatResult::Interrupted => return Err(SolveError::TimedOut),
        };
        self.frames[k].checked = true;
        let grid = map.decode(prepared.puzzle().geometry(), |v| model.value(v) == Some(true)).map_err(InternalError)?;
        self.guide = Some(grid.cells().iter().map(|v| v.map_or(0, |v| 1 << v.index())).collect());
        Ok(())
    }
}

impl Brancher {
    /// Knuth's estimate of the solutions below the root ("Estimating the
    /// efficiency of backtrack programs", Math. Comp. 29, 1975): a descent
    /// branches where the search does, on the cell of fewest candidates,
    /// takes one of its d candidates at random, and is worth the product of
    /// the d where it ends in a solution, 0 where propagation fails. The
    /// mean worth of `descents` is an unbiased estimate of the count; it
    /// errs low far more often than high, its worth being in rare descents.
    fn estimated_count(&mut self, descents: u32, rng: &mut Rng) -> f64 {
        let mut total = 0.0;
        for _ in 0..descents {
            let mut node = self.nodes[0].clone();
            let mut worth = 1.0;
            let solved = loop {
                let Some(cell) = self.tables.branch_cell(&node.cand, &self.open) else { break true };
                let mut candidates = node.cand[cell as usize];
                worth *= f64::from(candidates.count_ones());
                for _ in 0..rng.below(candidates.count_ones() as usize) {
                    candidates &= candidates - 1;
                }
                let bit = candidates & candidates.wrapping_neg();
                if !self.tables.decide(&mut node, cell, bit, &mut self.pending) {
                    break false;
                }
            };
            total += if solved { worth } else { 0.0 };
        }
        total / f64::from(descents)
    }

    /// Write the decided node `nodes[k]` into `grid`: every cell the first
    /// time, the root's open cells after that.
    fn fill(&mut self, grid: &mut Grid, k: usize) {
        let cand = &self.nodes[k].cand;
        let value = |c: usize| (cand[c] != 0).then(|| Value::from_index(cand[c].trailing_zeros() as usize));
        match self.filled {
            true => self.open.iter().for_each(|&c| grid.set(Cell::from_index(c as usize), value(c as usize))),
            false => (0..cand.len()).for_each(|c| grid.set(Cell::from_index(c), value(c))),
        }
        self.filled = true;
    }
}

/// The number of solutions, up to a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found, each verified.
    pub count: u64,
    /// Whether there are more: counting stopped at the limit, and a search
    /// past it found another solution (not counted). A count of exactly the
    /// limit is not capped.
    pub capped: bool,
}

/// Why `puzzle`, which the search found no solution for, has none, where
/// the whole propagation (singles, subsets and probing, as `solve` runs it)
/// shows it: the search's own preparation, singles alone on small grids,
/// may leave it to the search, which says no why (a pencil-mark puzzle).
fn why_none(puzzle: &Puzzle, deadline: Option<Instant>) -> Option<Contradiction> {
    let mut p = match Propagator::from_puzzle(puzzle) {
        Ok(p) => p,
        Err(reason) => return Some(reason),
    };
    p.set_deadline(deadline);
    let shown = p.propagate().and_then(|()| p.probe(PROBE_CANDIDATES, false)).and_then(|_| p.propagate_subsets());
    shown.err()
}

/// Count the solutions of `puzzle`, stopping at `limit` ([`Count::capped`]
/// where there are more). Every solution counted has been verified.
pub fn count_up_to(puzzle: &Puzzle, limit: u64, options: &SolveOptions) -> Result<Count, SolveError> {
    Search::new(puzzle, options).count_up_to(limit)
}

impl Search {
    /// The solutions left, counted up to `limit` ([`Search::check_countable`]
    /// after each), and whether there are more ([`Count::capped`]).
    pub fn count_up_to(&mut self, limit: u64) -> Result<Count, SolveError> {
        self.count_each(limit, |_| Ok(()))
    }

    /// [`Search::count_up_to`], each verified solution shown to `visit` as
    /// it is found, the one past `limit` that tells [`Count::capped`]
    /// included. An error from `visit` ends the count. The one counting
    /// loop: `count` keeps the solutions for a proof, `analyze` ticks off
    /// their candidates.
    pub fn count_each(
        &mut self,
        limit: u64,
        mut visit: impl FnMut(&Grid) -> Result<(), SolveError>,
    ) -> Result<Count, SolveError> {
        // Solutions before the estimate of a count without a limit: fewer
        // where each costs a solver call.
        let estimate_after = match self.engine {
            Engine::Blocking(_) => BLOCKING_ESTIMATE_AFTER,
            _ => ESTIMATE_AFTER,
        };
        self.timed(|search| {
            let mut count = 0;
            while count < limit {
                if !search.advance()? {
                    return Ok(Count { count, capped: false });
                }
                visit(&search.solution)?;
                count += 1;
                search.check_countable(limit)?;
                if limit == u64::MAX && count == estimate_after {
                    search.check_estimate()?;
                }
            }
            // One more tells a count the limit cut short from an exact one.
            let more = search.advance()?;
            if more {
                visit(&search.solution)?;
            }
            Ok(Count { count, capped: more })
        })
    }

    /// [`SolveError::Uncountable`] when counting up to `limit` could not
    /// end: no limit (`u64::MAX`), and the renamings of the first solution
    /// found alone outnumber it (21 or more values free). Every loop that
    /// counts solutions asks after each; the search is over once it says so.
    pub fn check_countable(&mut self, limit: u64) -> Result<(), SolveError> {
        match &self.orbit {
            Some(orbit) if limit == u64::MAX && orbit.size().is_none() => {
                let free = orbit.free_count();
                (self.engine, self.orbit) = (Engine::Done, None);
                Err(SolveError::Uncountable { free })
            }
            _ => Ok(()),
        }
    }

    /// [`SolveError::TooManyToCount`] when a count without a limit, past
    /// [`ESTIMATE_AFTER`] solutions ([`BLOCKING_ESTIMATE_AFTER`] by blocking
    /// clauses), has an estimated total too large to count; the search is
    /// over once it says so. The bitset search
    /// estimates by its own descents ([`Brancher::estimated_count`]) and is
    /// refused past [`COUNT_BEYOND`]; counting by blocking clauses, by
    /// descents of unit propagation ([`propagated_estimate`]), past
    /// [`BLOCKING_BEYOND`] solver calls (a solution and its renamings one
    /// call). A count with a time limit runs to it.
    fn check_estimate(&mut self) -> Result<(), SolveError> {
        if self.deadline.is_some() {
            return Ok(());
        }
        let estimate = match (&mut self.engine, &self.prepared) {
            (Engine::Branch(brancher), _) => {
                let estimate = brancher.estimated_count(ESTIMATE_DESCENTS, &mut Rng::new(0));
                (estimate > COUNT_BEYOND).then_some(estimate)
            }
            (Engine::Blocking(_), Some(prepared)) => {
                let estimate = propagated_estimate(prepared, ESTIMATE_DESCENTS, &mut Rng::new(0));
                let renamings = self.orbit.as_ref().and_then(Orbit::size).unwrap_or(1) as f64;
                (estimate / renamings > BLOCKING_BEYOND).then_some(estimate)
            }
            _ => None,
        };
        match estimate {
            Some(estimate) => {
                self.engine = Engine::Done;
                Err(SolveError::TooManyToCount { counted: self.found, estimate })
            }
            None => Ok(()),
        }
    }
}

/// Knuth's estimate of the solutions of a prepared puzzle, for the search
/// by blocking clauses: `descents` random descents of unit propagation
/// from the prepared candidates, each deciding the cell of fewest
/// candidates, a random one of its d, until propagation fails or every
/// cell is decided. A descent is worth the product of the d where it ends
/// in a grid [`verify`] accepts (clues and neighbour rules, which
/// propagation does not see, checked there), 0 elsewhere; the mean is an
/// unbiased estimate that errs low far more often than high.
fn propagated_estimate(prepared: &Prepared, descents: u32, rng: &mut Rng) -> f64 {
    let puzzle = prepared.puzzle();
    let geometry = puzzle.geometry();
    let mut clues = Clues::of(geometry);
    let mut root = Propagator::with_domains(geometry, prepared.domains().clone());
    if root.propagate().and_then(|()| clues.filter(&mut root)).is_err() {
        return 0.0;
    }
    let (mut total, mut reached) = (0.0, false);
    for descent in 0..descents {
        // Where a hundred descents all fail (grids too large for random
        // choices to go through: every one on an 81×81, 9 ms each), more
        // would too, and the estimate is 0.
        if descent == GIVE_UP_AFTER && !reached {
            return 0.0;
        }
        let mut node = root.clone();
        let mut worth = 1.0;
        let solved = loop {
            let domains = node.domains();
            let open = geometry.cells().map(|cell| (domains.count(cell), cell)).filter(|&(count, _)| count > 1);
            let Some((count, cell)) = open.min_by_key(|&(count, _)| count) else { break true };
            worth *= count as f64;
            let value = domains.values(cell).nth(rng.below(count)).expect("count values");
            if node.assign(cell, value).and_then(|()| node.propagate()).and_then(|()| clues.filter(&mut node)).is_err()
            {
                break false;
            }
        };
        reached |= solved;
        if solved && verify(geometry, puzzle.givens(), &node.domains().decided()).is_ok() {
            total += worth;
        }
    }
    total / f64::from(descents)
}

/// The clues of a grid (cages, thermometers, arrows …) as a descent of
/// [`propagated_estimate`] filters them: unit propagation does not see
/// them, so random descents ended in grids that broke them, and the
/// estimate of a blank 9×9 with two small cages was 0 (no descent of 1,000
/// held both), the count without a limit running on for ever. Each clue of
/// few enough cell values keeps in each of its cells only the values that
/// some assignment of its cells that holds the clue uses: sound, as every
/// solution holds every clue, so the estimate stays unbiased.
struct Clues<'g> {
    geometry: &'g Geometry,
    /// Each clue's cells.
    cells: Vec<Vec<Cell>>,
    /// The candidates of each clue's cells when it was last filtered: it is
    /// filtered again only where they changed.
    seen: Vec<Vec<u64>>,
    /// The grid's values as [`Constraint::holds`] reads them (0 empty).
    values: Vec<u32>,
}

impl<'g> Clues<'g> {
    fn of(geometry: &'g Geometry) -> Clues<'g> {
        let n = geometry.size();
        // A negative constraint names no cells (it reads the whole grid),
        // and candidates past 64 do not fit the masks: none is filtered.
        let filtered = |clue: &Constraint| n <= 64 && !matches!(clue, Constraint::Negative { .. });
        let cells: Vec<Vec<Cell>> =
            geometry.constraints().iter().map(|clue| if filtered(clue) { clue.cells(n) } else { Vec::new() }).collect();
        let seen = cells.iter().map(|cells| vec![0; cells.len()]).collect();
        Clues { geometry, cells, seen, values: vec![0; n * n] }
    }

    /// Filter every clue whose cells' candidates changed, with propagation
    /// after each round, until none changes.
    fn filter(&mut self, node: &mut Propagator) -> Result<(), Contradiction> {
        let n = self.geometry.size();
        let mask = |node: &Propagator, cell: Cell| node.domains().values(cell).fold(0u64, |m, v| m | 1 << v.index());
        loop {
            let mut changed = false;
            for (k, clue) in self.geometry.constraints().iter().enumerate() {
                let cells = &self.cells[k];
                let now: Vec<u64> = cells.iter().map(|&cell| mask(node, cell)).collect();
                let tuples = now.iter().try_fold(1usize, |p, m| p.checked_mul(m.count_ones() as usize));
                if cells.is_empty() || now == self.seen[k] || tuples.is_none_or(|t| t > CLUE_TUPLES) {
                    continue;
                }
                // Every assignment of the clue's cells, odometer-wise.
                let lists: Vec<Vec<u32>> =
                    now.iter().map(|&m| (0..64).filter(|v| m >> v & 1 == 1).map(|v| v + 1).collect()).collect();
                let mut digits = vec![0; cells.len()];
                let mut used = vec![0u64; cells.len()];
                'tuples: loop {
                    for (i, &cell) in cells.iter().enumerate() {
                        self.values[cell.index()] = lists[i][digits[i]];
                    }
                    if clue.holds(&self.values, n, self.geometry.constraints()) {
                        for (i, list) in lists.iter().enumerate() {
                            used[i] |= 1 << (list[digits[i]] - 1);
                        }
                    }
                    for i in 0..cells.len() {
                        digits[i] += 1;
                        if digits[i] < lists[i].len() {
                            continue 'tuples;
                        }
                        digits[i] = 0;
                    }
                    break;
                }
                for &cell in cells {
                    self.values[cell.index()] = 0;
                }
                for (i, &cell) in cells.iter().enumerate() {
                    for v in lists[i].iter().filter(|&&v| used[i] >> (v - 1) & 1 == 0) {
                        node.exclude(cell, Value::from_index(*v as usize - 1))?;
                        changed = true;
                    }
                }
                self.seen[k] = cells.iter().map(|&cell| mask(node, cell)).collect();
            }
            if !changed {
                return Ok(());
            }
            node.propagate()?;
        }
    }
}

/// A clue is filtered in a descent only where its cells' candidates make at
/// most this many assignments (a cage of four cells of 8 candidates each).
const CLUE_TUPLES: usize = 4096;

/// [`propagated_estimate`] gives up after this many descents if none has
/// decided every cell.
const GIVE_UP_AFTER: u32 = 100;

/// A count without a limit asks [`Search::check_estimate`] once, after
/// this many solutions (about 0.1 s of a blank 9×9's); fewer are counted
/// as they come.
const ESTIMATE_AFTER: u64 = 100_000;
/// The same for a count by blocking clauses, a solver call a solution
/// (renamings aside): about a third of a second of a 9×9 with two killer
/// cages, its estimate (1,000 descents) 0.1 s.
const BLOCKING_ESTIMATE_AFTER: u64 = 100;
/// The random descents of that estimate (about 10 ms on a blank 9×9).
const ESTIMATE_DESCENTS: u32 = 1_000;
/// Past this many estimated solutions a count without a limit is refused:
/// at a million solutions a second, that is more than a week of counting.
const COUNT_BEYOND: f64 = 1e12;
/// Past this many solver calls a count by blocking clauses is refused: at
/// about 300 a second (a 9×9 with two killer cages), more than nine hours,
/// each call's clause kept.
const BLOCKING_BEYOND: f64 = 1e7;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::encode::AmoEncoding;
    use crate::model::constraints::Constraint;
    use crate::pipeline::Encoding;
    use crate::testing::puzzle;

    fn count_all(search: Search) -> u64 {
        search.map(|s| s.map(|_| 1)).sum::<Result<u64, _>>().unwrap()
    }

    /// A count without a limit of more solutions than any wait allows (a
    /// blank 9×9: 6,670,903,752,021,072,936,960) is refused once 100,000
    /// are counted, its estimate near the true count; fewer are counted
    /// exactly (161,280 Latin squares of order 5), and a time limit runs
    /// the count to it.
    #[test]
    fn a_count_without_a_limit_refuses_what_would_not_end() {
        let blank = |g: Geometry| puzzle(g.clone(), &".".repeat(g.size() * g.size()));
        let options = SolveOptions::default();
        let error = count_up_to(&blank(Geometry::classic(9).unwrap()), u64::MAX, &options).unwrap_err();
        let SolveError::TooManyToCount { counted, estimate } = error else { panic!("{error}") };
        assert_eq!(counted, ESTIMATE_AFTER);
        assert!((6.67e20..6.67e22).contains(&estimate), "{estimate:e}");
        let latin = count_up_to(&blank(Geometry::latin(5).unwrap()), u64::MAX, &options).unwrap();
        assert_eq!(latin, Count { count: 161_280, capped: false });
        let timed = SolveOptions { timeout: Some(std::time::Duration::from_millis(300)), ..options };
        let error = count_up_to(&blank(Geometry::classic(9).unwrap()), u64::MAX, &timed).unwrap_err();
        assert!(matches!(error, SolveError::TimedOut), "{error}");
    }

    /// A count by blocking clauses (clues: no bitset search) estimates
    /// too, after 100 solutions, by descents of unit propagation whose
    /// grids are checked against the clues: a blank 9×9 with two killer
    /// cages (about 10¹⁹ solutions) had counted without end, and is
    /// refused; a Latin square of order 4 with a cage of sum 5 across its
    /// corners is counted exactly, as brute force over its 576 squares
    /// counts it. The estimates of blank grids (whose counts are known)
    /// are near them.
    #[test]
    fn a_count_by_blocking_clauses_refuses_what_would_not_end() {
        let at = |g: &Geometry, r: usize, c: usize| g.cell(r, c);
        let caged = |g: Geometry, cages: &[(&[(usize, usize)], u32)]| {
            let constraints = cages
                .iter()
                .map(|(cells, sum)| Constraint::Killer {
                    cells: cells.iter().map(|&(r, c)| at(&g, r, c)).collect(),
                    sum: Some(*sum),
                })
                .collect();
            let n = g.size();
            puzzle(g.with_constraints(constraints).unwrap(), &".".repeat(n * n))
        };
        let options = SolveOptions::default();
        let killer =
            caged(Geometry::classic(9).unwrap(), &[(&[(0, 0), (1, 0), (1, 1), (2, 1)], 18), (&[(4, 4), (4, 5)], 3)]);
        let error = count_up_to(&killer, u64::MAX, &options).unwrap_err();
        let SolveError::TooManyToCount { counted, estimate } = error else { panic!("{error}") };
        assert_eq!(counted, BLOCKING_ESTIMATE_AFTER);
        assert!(estimate > 1e15, "{estimate:e}");
        // Cages that a random descent of unit propagation almost never
        // holds both of (a third of a row summing to 6, a pair to 5): the
        // estimate was 0, and the count ran on for ever. The clues filtered
        // in each descent, it is near the count: the blank 9×9's, times the
        // chance that a row's first three cells are 1, 2 and 3 in some order
        // (3!/(9·8·7)), times the chance that two cells of a row sum to 5
        // (4/(9·8)).
        let tight = caged(Geometry::classic(9).unwrap(), &[(&[(0, 0), (0, 1), (0, 2)], 6), (&[(4, 4), (4, 5)], 5)]);
        let count = 6.67e21 * (6.0 / 504.0) * (4.0 / 72.0);
        let prepared = Prepared::new(&tight, &options).unwrap();
        let estimate = propagated_estimate(&prepared, ESTIMATE_DESCENTS, &mut Rng::new(0));
        assert!((count / 3.0..count * 3.0).contains(&estimate), "{estimate:e} for {count:e}");
        let error = count_up_to(&tight, u64::MAX, &options).unwrap_err();
        assert!(matches!(error, SolveError::TooManyToCount { .. }), "{error}");
        let corners = caged(Geometry::latin(4).unwrap(), &[(&[(0, 0), (3, 3)], 5)]);
        let squares = count_all(Search::new(&puzzle(Geometry::latin(4).unwrap(), &".".repeat(16)), &options));
        assert_eq!(squares, 576);
        let latin = Search::new(&puzzle(Geometry::latin(4).unwrap(), &".".repeat(16)), &options);
        let expected = latin
            .map(Result::unwrap)
            .filter(|g| g.cells()[0].unwrap().number() + g.cells()[15].unwrap().number() == 5)
            .count() as u64;
        assert!(expected > BLOCKING_ESTIMATE_AFTER, "{expected}");
        assert_eq!(count_up_to(&corners, u64::MAX, &options).unwrap(), Count { count: expected, capped: false });
        for (geometry, count) in
            [(Geometry::classic(6).unwrap(), 28_200_960.0), (Geometry::classic(9).unwrap(), 6.67e21)]
        {
            let blank = puzzle(geometry.clone(), &".".repeat(geometry.size().pow(2)));
            let prepared = Prepared::new(&blank, &options).unwrap();
            let estimate = propagated_estimate(&prepared, ESTIMATE_DESCENTS, &mut Rng::new(0));
            eprintln!("estimate {estimate:e}, count {count:e}");
            assert!((count / 3.0..count * 3.0).contains(&estimate), "{estimate:e} for {count:e}");
        }
    }

    #[test]
    fn blank_4x4_counts_288_under_every_strategy_and_encoding() {
        let p = puzzle(Geometry::classic(4).unwrap(), &".".repeat(16));
        for encoding in [Encoding::Full, Encoding::Reduced, Encoding::Propagated] {
            for amo in [AmoEncoding::Pairwise, AmoEncoding::Sequential] {
                let options = SolveOptions { encoding, amo, ..SolveOptions::default() };
                for strategy in [Strategy::Branch, Strategy::Blocking] {
                    assert_eq!(
                        Search::with_strategy(&p, &options, strategy).count_up_to(1000).unwrap(),
                        Count { count: 288, capped: false }
                    );
                    assert_eq!(
                        Search::with_strategy(&p, &options, strategy).count_up_to(10).unwrap(),
                        Count { count: 10, capped: true }
                    );
                    // A limit the count just reaches is no cap; one short of it is.
                    for (limit, capped) in [(288, false), (287, true)] {
                        assert_eq!(
                            Search::with_strategy(&p, &options, strategy).count_up_to(limit).unwrap(),
                            Count { count: limit, capped },
                        );
                    }
                }
                // varisat asked at every dead end: pruning must not lose a solution.
                assert_eq!(count_all(Search::new(&p, &options).sat_after(1)), 288);
            }
        }
    }

    #[test]
    fn count_each_shows_every_solution_counted_and_the_one_past_the_limit() {
        use crate::testing::checker::{check, numbers, Shape};
        let p = puzzle(Geometry::classic(4).unwrap(), &".".repeat(16));
        for strategy in [Strategy::Branch, Strategy::Blocking] {
            for (limit, shown) in [(1000, 288), (288, 288), (10, 11), (1, 2)] {
                let mut seen = std::collections::HashSet::new();
                let count = Search::with_strategy(&p, &SolveOptions::default(), strategy)
                    .count_each(limit, |grid| {
                        let cells = numbers(grid);
                        check(&Shape::classic(4), &[0; 16], &cells).map_err(InternalError)?;
                        assert!(seen.insert(cells), "{strategy:?}: a solution shown twice");
                        Ok(())
                    })
                    .unwrap();
                assert_eq!(count, Count { count: limit.min(288), capped: limit < 288 }, "{strategy:?}");
                assert_eq!(seen.len(), shown, "{strategy:?}, limit {limit}");
            }
            // The visitor's error ends the count at once.
            let mut shown = 0;
            let stopped = Search::with_strategy(&p, &SolveOptions::default(), strategy).count_each(100, |_| {
                shown += 1;
                match shown {
                    3 => Err(SolveError::Mismatch("stop".into())),
                    _ => Ok(()),
                }
            });
            assert!(matches!(stopped, Err(SolveError::Mismatch(_))), "{strategy:?}: {stopped:?}");
            assert_eq!(shown, 3, "{strategy:?}");
        }
    }

    #[test]
    fn sat_pruning_keeps_every_solution_of_a_many_solution_9x9() {
        // serg-benchmark style: a 9x9 with a few hundred solutions and many dead ends.
        let text = "8.........95.......76.........624798...713245...598136....5.467...4.2983......512";
        let p = puzzle(Geometry::classic(9).unwrap(), text);
        let options = SolveOptions::default();
        let plain = Search::with_strategy(&p, &options, Strategy::Blocking).count_up_to(u64::MAX).unwrap();
        assert!(!plain.capped && plain.count > 1);
        for budget in [1, 3, 50] {
            assert_eq!(count_all(Search::new(&p, &options).sat_after(budget)), plain.count, "budget {budget}");
        }
        assert_eq!(count_up_to(&p, u64::MAX, &options).unwrap(), plain);
    }

    #[test]
    fn solved_and_unsolvable_puzzles() {
        let g = || Geometry::classic(4).unwrap();
        // Fully given: one solution, yielded once.
        let full = puzzle(g(), "1234341221434321");
        assert_eq!(count_up_to(&full, 10, &SolveOptions::default()).unwrap(), Count { count: 1, capped: false });
        assert_eq!(count_up_to(&full, 1, &SolveOptions::default()).unwrap(), Count { count: 1, capped: false });
        let clash = puzzle(g(), "11..............");
        let search = Search::new(&clash, &SolveOptions::default());
        assert!(matches!(search.reason(), Some(Contradiction::Clash { .. })));
        assert_eq!(count_all(search), 0);
        assert_eq!(count_up_to(&full, 0, &SolveOptions::default()).unwrap(), Count { count: 0, capped: true });
    }
}
