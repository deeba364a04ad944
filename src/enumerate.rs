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

use std::time::Instant;

use varisat::{ExtendFormula, Lit, Solver};

use crate::cnf::varmap::VarMap;
use crate::error::InternalError;
use crate::model::geometry::{Cell, Geometry, Value};
use crate::model::peers::Peers;
use crate::model::puzzle::{Grid, Puzzle};
use crate::pipeline::{checked, Goal, Prepared, SolveOptions};
use crate::reasoning::propagate::Contradiction;
use crate::sat::varisat::{run, Loaded};
use crate::sat::SatResult;
use crate::solve::{SolveError, Stats};

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
            Ok(prepared) => Search::prepared(prepared, strategy, deadline),
            Err(reason) => Search {
                prepared: None,
                engine: Engine::Done,
                reason: Some(reason),
                deadline,
                stats: Stats::default(),
                found: 0,
                solution: Grid::empty(0),
            },
        };
        Search { stats: Stats { encode: start.elapsed(), ..search.stats }, ..search }
    }

    /// Search the solutions of a puzzle already prepared for all of them.
    pub(crate) fn prepared(prepared: Prepared, strategy: Strategy, deadline: Option<Instant>) -> Search {
        let geometry = prepared.puzzle().geometry();
        let strategy = effective(strategy, geometry);
        let mut stats = Stats::default();
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
            None => match Loaded::new(&prepared, &[], deadline) {
                Ok(Loaded { solver, map, variables, clauses }) => {
                    (stats.variables, stats.clauses) = (variables, clauses);
                    Engine::Blocking(Box::new(Blocker { solver, map }))
                }
                Err(error) => Engine::Failed(Some(error)),
            },
        };
        let solution = Grid::empty(geometry.size());
        Search { prepared: Some(prepared), engine, reason: None, deadline, stats, found: 0, solution }
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
        let found = match &mut self.engine {
            Engine::Done => Ok(false),
            Engine::Failed(error) => error.take().map_or(Ok(false), Err),
            Engine::Branch(b) => b.next(prepared, self.deadline, &mut self.stats, &mut self.solution),
            Engine::Blocking(b) => b.next(prepared.puzzle().geometry()).map(|grid| match grid {
                Some(grid) => {
                    self.solution = grid;
                    true
                }
                None => false,
            }),
        };
        if !found? {
            self.engine = Engine::Done;
            return Ok(false);
        }
        // `checked` takes the grid and hands it back when it is a solution.
        let grid = std::mem::replace(&mut self.solution, Grid::empty(0));
        self.solution = checked(prepared.puzzle(), grid)?;
        self.found += 1;
        Ok(true)
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
struct Blocker {
    solver: Solver<'static>,
    map: VarMap,
}

impl Blocker {
    fn next(&mut self, geometry: &Geometry) -> Result<Option<Grid>, SolveError> {
        let model = match run(&mut self.solver)? {
            SatResult::Sat(model) => model,
            SatResult::Unsat => return Ok(None),
            SatResult::Interrupted => return Err(SolveError::TimedOut),
        };
        let grid = self.map.decode(geometry, |v| model.value(v) == Some(true)).map_err(InternalError)?;
        // Block this solution over the free cells only: the decided ones have no
        // variable, and an empty clause (nothing free) ends the search.
        let block: Vec<Lit> = geometry
            .cells()
            .filter_map(|c| grid.get(c).and_then(|v| self.map.var(c, v)))
            .map(|v| v.negative())
            .collect();
        self.solver.add_clause(&block);
        Ok(Some(grid))
    }
}

/// The peers and units of a geometry ([`Peers`], shared by every puzzle of
/// it), for the hot loop.
struct Tables {
    n: u32,
    peers: Peers,
}

/// In [`Node::places`], the count of places above the sum of their cell
/// indices (at most 64 cells of index below 2^12).
const COUNT_SHIFT: u32 = 18;

/// The places of a value decided in its unit: never scarce again, however
/// many candidates its peers lose (at most 63 places of under 2^19 each).
const DECIDED: u32 = 1 << 30;

/// A node of the search tree.
#[derive(Clone, Debug)]
struct Node {
    /// Each cell's candidates, one bit per value.
    cand: Vec<u64>,
    /// For unit u and value v, at `u·n + v`: how many cells of the unit may
    /// hold v (above [`COUNT_SHIFT`]) and the sum of their indices, which is
    /// the index of the last place when one is left: a hidden single is found
    /// without scanning its unit. [`DECIDED`] once a cell holds v.
    places: Vec<u32>,
}

/// What [`Tables::propagate`] has still to do: cells newly decided, whose
/// value leaves their peers, and (u·n + v, v) for each unit u whose value v
/// fell to one place or none. Both empty between calls.
struct Pending {
    queue: Vec<u32>,
    scarce: Vec<(u32, u32)>,
}

impl Tables {
    /// The tables of `geometry`; `None` for a grid of side over 64.
    fn new(geometry: &Geometry) -> Option<Tables> {
        Some(Tables { n: geometry.size() as u32, peers: geometry.peers()?.clone() })
    }

    /// Nothing pending.
    fn pending(&self) -> Pending {
        Pending { queue: Vec::new(), scarce: Vec::new() }
    }

    /// The node of these candidates, not yet propagated, with everything
    /// pending that propagation must look at: every decided cell, and every
    /// value with one place or none in a unit.
    fn node(&self, cand: Vec<u64>, pending: &mut Pending) -> Node {
        let n = self.n;
        let mut places = vec![0u32; self.peers.unit_count() * n as usize];
        for (c, &d) in cand.iter().enumerate() {
            for &u in self.peers.units_of(c as u32) {
                let mut bits = d;
                while bits != 0 {
                    places[(u * n + bits.trailing_zeros()) as usize] += (1 << COUNT_SHIFT) + c as u32;
                    bits &= bits - 1;
                }
            }
        }
        let scarce = (0..places.len() as u32).filter(|&k| places[k as usize] >> COUNT_SHIFT <= 1);
        pending.scarce.extend(scarce.map(|k| (k, k % n)));
        pending.queue.extend((0..cand.len() as u32).filter(|&c| cand[c as usize].count_ones() == 1));
        Node { cand, places }
    }

    /// Cell `c` lost the values `lost`: one place fewer for each in each of its units.
    #[inline]
    fn lose(&self, places: &mut [u32], scarce: &mut Vec<(u32, u32)>, c: u32, mut lost: u64) {
        while lost != 0 {
            let v = lost.trailing_zeros();
            lost &= lost - 1;
            for &u in self.peers.units_of(c) {
                let k = u * self.n + v;
                let left = places[k as usize] - ((1 << COUNT_SHIFT) + c);
                places[k as usize] = left;
                if left >> COUNT_SHIFT <= 1 {
                    scarce.push((k, v));
                }
            }
        }
    }

    /// Give `cell` the value `bit` in a fixpoint, and propagate: false on a contradiction.
    fn decide(&self, node: &mut Node, cell: u32, bit: u64, pending: &mut Pending) -> bool {
        let lost = node.cand[cell as usize] & !bit;
        node.cand[cell as usize] = bit;
        self.lose(&mut node.places, &mut pending.scarce, cell, lost);
        pending.queue.push(cell);
        self.propagate(node, pending)
    }

    /// Naked and hidden singles to the fixpoint, from what is pending. False
    /// on a contradiction. Leaves nothing pending.
    fn propagate(&self, node: &mut Node, pending: &mut Pending) -> bool {
        let fixpoint = self.settle(node, pending);
        if !fixpoint {
            pending.queue.clear();
            pending.scarce.clear();
        }
        fixpoint
    }

    fn settle(&self, node: &mut Node, pending: &mut Pending) -> bool {
        let Node { cand, places } = node;
        let Pending { queue, scarce } = pending;
        loop {
            while let Some(c) = queue.pop() {
                let bit = cand[c as usize];
                let v = bit.trailing_zeros();
                for &u in self.peers.units_of(c) {
                    places[(u * self.n + v) as usize] = DECIDED;
                }
                for &p in self.peers.of(c) {
                    let d = cand[p as usize];
                    if d & bit != 0 {
                        let rest = d & !bit;
                        if rest == 0 {
                            return false;
                        }
                        cand[p as usize] = rest;
                        if rest & (rest - 1) == 0 {
                            queue.push(p);
                        }
                        self.lose(places, scarce, p, bit);
                    }
                }
            }
            let Some((k, v)) = scarce.pop() else { return true };
            let left = places[k as usize];
            match left >> COUNT_SHIFT {
                0 => return false,
                // The last place of the value: the sum of indices is its cell.
                1 => {
                    let c = left & ((1 << COUNT_SHIFT) - 1);
                    let bit = 1u64 << v;
                    let lost = cand[c as usize] & !bit;
                    // Already decided (and queued) when nothing else is left.
                    if lost != 0 {
                        cand[c as usize] = bit;
                        queue.push(c);
                        self.lose(places, scarce, c, lost);
                    }
                }
                // Decided since.
                _ => {}
            }
        }
    }

    /// The undecided cell of `cells` with fewest candidates, or None when
    /// every one is decided.
    fn branch_cell(&self, cand: &[u64], cells: &[u32]) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        for &i in cells {
            let d = cand[i as usize];
            // Without a popcount instruction in the baseline x86-64 target,
            // clearing the lowest bit twice tells decided and two-candidate
            // cells apart cheaply, and two is the fewest there can be.
            let rest = d & d.wrapping_sub(1);
            if rest == 0 {
                continue;
            }
            if rest & rest.wrapping_sub(1) == 0 {
                return Some(i);
            }
            let k = d.count_ones();
            if best.is_none_or(|(_, b)| k < b) {
                best = Some((i, k));
            }
        }
        best.map(|(c, _)| c)
    }
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
    /// lead anywhere: the decisions above it as assumptions, its tried values
    /// excluded. No: drop them. Yes: follow the solution it found.
    fn sat_check(
        &mut self,
        prepared: &Prepared,
        deadline: Option<Instant>,
        stats: &mut Stats,
    ) -> Result<(), SolveError> {
        let Some(k) = self.frames.iter().position(|f| f.remaining != 0 && !f.checked) else { return Ok(()) };
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
        let model = match run(solver)? {
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
    /// Whether counting stopped at the limit (there may be more).
    pub capped: bool,
}

/// Count the solutions of `puzzle`, stopping at `limit`. Every solution counted
/// has been verified.
pub fn count_up_to(puzzle: &Puzzle, limit: u64, options: &SolveOptions) -> Result<Count, SolveError> {
    Search::new(puzzle, options).count_up_to(limit)
}

impl Search {
    /// The solutions left, counted up to `limit`.
    pub fn count_up_to(&mut self, limit: u64) -> Result<Count, SolveError> {
        self.timed(|search| {
            let mut count = 0;
            while count < limit {
                match search.advance()? {
                    true => count += 1,
                    false => return Ok(Count { count, capped: false }),
                }
            }
            Ok(Count { count, capped: true })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::encode::AmoEncoding;
    use crate::pipeline::Encoding;
    use crate::testing::puzzle;

    fn count_all(search: Search) -> u64 {
        search.map(|s| s.map(|_| 1)).sum::<Result<u64, _>>().unwrap()
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
                }
                // varisat asked at every dead end: pruning must not lose a solution.
                assert_eq!(count_all(Search::new(&p, &options).sat_after(1)), 288);
            }
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
        let clash = puzzle(g(), "11..............");
        let search = Search::new(&clash, &SolveOptions::default());
        assert!(matches!(search.reason(), Some(Contradiction::Clash { .. })));
        assert_eq!(count_all(search), 0);
        assert_eq!(count_up_to(&full, 0, &SolveOptions::default()).unwrap(), Count { count: 0, capped: true });
    }
}

#[cfg(test)]
mod agreement {
    //! The two propagation engines, [`Tables::propagate`] (bitsets, for the
    //! search tree) and [`Propagator::propagate`] (counted places, for
    //! preparation), must reach the same fixpoint from any state: the same
    //! candidates, or both a contradiction. And the bitset engine, which
    //! rescans only the units that lost a candidate, must reach from a
    //! decision in a fixpoint the fixpoint it reaches scanning every unit.

    use proptest::prelude::*;

    use super::{Node, Tables, COUNT_SHIFT};
    use crate::model::domains::Domains;
    use crate::model::geometry::{Geometry, Layout, Value, Variant};
    use crate::reasoning::propagate::Propagator;

    fn geometries() -> Vec<Geometry> {
        vec![
            Geometry::classic(4).unwrap(),
            Geometry::new(6, Layout::Boxes { rows: 2, cols: 3 }, &[]).unwrap(),
            Geometry::classic(9).unwrap(),
            Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::X, Variant::Hyper]).unwrap(),
            Geometry::latin(7).unwrap(),
            Geometry::classic(16).unwrap(),
        ]
    }

    /// A random state: each cell keeps a random nonempty subset of its
    /// values, most cells many, a share `singles` of them one.
    fn random_masks(geometry: &Geometry, seed: u64, singles: f64, cut: f64) -> Vec<u64> {
        let n = geometry.size();
        let mut next = crate::testing::xorshift(seed);
        let mut roll = move || (next() % 1000) as f64 / 1000.0;
        let mut masks = Vec::with_capacity(n * n);
        for _ in geometry.cells() {
            let one = 1u64 << ((roll() * n as f64) as usize).min(n - 1);
            let mask = if roll() < singles {
                one
            } else {
                let m = (0..n).filter(|_| roll() >= cut).fold(0, |m, v| m | 1 << v);
                if m == 0 {
                    one
                } else {
                    m
                }
            };
            masks.push(mask);
        }
        masks
    }

    /// The fixpoint of the counting engine from `masks`, as masks; None on a contradiction.
    fn counted(geometry: &Geometry, masks: &[u64]) -> Option<Vec<u64>> {
        let n = geometry.size();
        let mut domains = Domains::full(n);
        for cell in geometry.cells() {
            for v in (0..n).filter(|&v| masks[cell.index()] & 1 << v == 0) {
                domains.remove(cell, Value::from_index(v));
            }
        }
        let mut p = Propagator::with_domains(geometry, domains);
        p.propagate().ok()?;
        let d = p.into_domains();
        Some(geometry.cells().map(|cell| d.values(cell).fold(0, |acc, v| acc | 1 << v.index())).collect())
    }

    /// The fixpoint of the bitset engine from `masks`, every unit and value looked at.
    fn from_scratch(tables: &Tables, masks: Vec<u64>) -> Option<Node> {
        let mut pending = tables.pending();
        let mut node = tables.node(masks, &mut pending);
        tables.propagate(&mut node, &mut pending).then_some(node)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        #[test]
        fn bitset_and_counting_propagation_agree(kind in 0..6usize, seed: u64, singles in 0.0..0.5f64, cut in 0.0..0.6f64) {
            let geometry = &geometries()[kind];
            let masks = random_masks(geometry, seed, singles, cut);
            let expected = counted(geometry, &masks);
            let bitset = from_scratch(&Tables::new(geometry).unwrap(), masks).map(|node| node.cand);
            prop_assert_eq!(bitset, expected);
        }
    }

    /// The widest grid: 64 places of a value in a unit, cells up to 4,095;
    /// their count and index sum share a word without overflow.
    #[test]
    fn places_fit_the_widest_grid() {
        let geometry = Geometry::latin(64).unwrap();
        let tables = Tables::new(&geometry).unwrap();
        let mut pending = tables.pending();
        let mut node = tables.node(vec![u64::MAX; 64 * 64], &mut pending);
        assert!(pending.queue.is_empty() && pending.scarce.is_empty());
        for (u, unit) in geometry.units().iter().enumerate() {
            let sum: u32 = unit.cells().iter().map(|c| c.index() as u32).sum();
            for v in 0..64 {
                assert_eq!(node.places[u * 64 + v], 64 << COUNT_SHIFT | sum);
            }
        }
        // The last cell of row 63 decided: its column and row keep the
        // value once, there, and every other cell of both loses it.
        let last = 64 * 64 - 1;
        assert!(tables.decide(&mut node, last, 1 << 63, &mut pending));
        assert_eq!(node.cand[last as usize], 1 << 63);
        assert_eq!(node.cand[63], u64::MAX >> 1);
        assert_eq!(node.places[63 * 64 + 62], 63 << COUNT_SHIFT | (64 * 63..64 * 64 - 1).sum::<u32>());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

        /// Down a branch of decisions, as the search goes: each decision
        /// propagated from the fixpoint above it (the places of each value in
        /// each unit kept up to date, not recounted) reaches the fixpoint that
        /// propagation from scratch reaches, with the same places.
        #[test]
        fn incremental_propagation_reaches_the_fixpoint_from_scratch(kind in 0..7usize, seed: u64, cut in 0.0..0.3f64) {
            let geometry = if kind == 6 { Geometry::classic(25).unwrap() } else { geometries().swap_remove(kind) };
            let tables = Tables::new(&geometry).unwrap();
            let Some(mut state) = from_scratch(&tables, random_masks(&geometry, seed, 0.02, cut)) else { return Ok(()) };
            let mut next = crate::testing::xorshift(seed ^ 0x9e37_79b9_7f4a_7c15);
            let mut pending = tables.pending();
            let n = geometry.size() as u32;
            let cells: Vec<u32> = (0..state.cand.len() as u32).collect();
            while let Some(cell) = tables.branch_cell(&state.cand, &cells) {
                let values: Vec<u64> = (0..64).map(|v| 1u64 << v).filter(|&b| state.cand[cell as usize] & b != 0).collect();
                let bit = values[(next() % values.len() as u64) as usize];
                let mut masks = state.cand.clone();
                masks[cell as usize] = bit;
                prop_assert_eq!(counted(&geometry, &masks), from_scratch(&tables, masks.clone()).map(|node| node.cand));
                let expected = from_scratch(&tables, masks);
                let mut child = state.clone();
                let incremental = tables.decide(&mut child, cell, bit, &mut pending).then_some(child);
                prop_assert!(pending.queue.is_empty() && pending.scarce.is_empty());
                match (incremental, expected) {
                    (Some(child), Some(expected)) => {
                        prop_assert_eq!(&child.cand, &expected.cand);
                        // Recounted: the same places, or for a value some cell
                        // holds, that one place.
                        let recounted = tables.node(child.cand.clone(), &mut tables.pending()).places;
                        for (k, (&kept, &fresh)) in child.places.iter().zip(&recounted).enumerate() {
                            match kept >> COUNT_SHIFT <= n {
                                true => prop_assert_eq!(kept, fresh, "unit {}, value {}", k / n as usize, k % n as usize),
                                false => prop_assert_eq!(fresh >> COUNT_SHIFT, 1),
                            }
                        }
                        state = child;
                    }
                    (None, None) => break,
                    (incremental, expected) => prop_assert!(false, "incremental {incremental:?}, from scratch {expected:?}"),
                }
            }
        }
    }
}
