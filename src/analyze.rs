//! What is certain in a puzzle: the backbone, every cell's exact candidates, and what propagation alone derives.
//!
//! The exact candidates of a cell are the values it takes in at least one
//! solution; the backbone is the cells left with one. Both come from one
//! incremental varisat solver over the propagated reduced encoding: every
//! model ticks off all the (cell, value) pairs it contains, and only the pairs
//! no model has shown yet are probed, each with one solve under the assumption
//! "cell = value". A refuted pair is then added as a unit clause, which is
//! sound (the formula implies it) and makes the later probes cheaper.

use std::fmt;

use varisat::{ExtendFormula, Lit, Solver};

use crate::encode::VarMap;
use crate::enumerate::Count;
use crate::error::InternalError;
use crate::geometry::{Cell, Geometry, Value};
use crate::propagate::{find_clash, Contradiction, Domains, Propagator, Step};
use crate::puzzle::{Grid, Puzzle};
use crate::solve::{checked, encode_puzzle, preprocess, Counting, SolveOptions};
use crate::verify::verify;

/// What a puzzle's solutions come to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Unique,
    Multiple,
    Unsolvable,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Options of [`analyze`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    pub solve: SolveOptions,
    /// Count solutions up to this many (0: do not count beyond what the
    /// status says).
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
    pub variables: usize,
    pub clauses: usize,
    /// Solver calls that found a model.
    pub models: usize,
    /// Solver calls under an assumption that found none: pairs refuted.
    pub refuted: usize,
}

/// The result of [`analyze`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub status: Status,
    /// Every cell's exact candidates; `None` when there is no solution.
    pub candidates: Option<Domains>,
    /// Why there is no solution, when propagation alone showed it.
    pub reason: Option<String>,
    /// The number of solutions, up to [`AnalyzeOptions::count_limit`]. For a
    /// limit of 0 the count is what the status proves (0, 1, or 2 capped).
    pub count: Count,
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

/// Nodes the bounded enumerations of [`analyze`] may visit: enough for a
/// thousand solutions of a loose 16×16, and a bound on hard grids where
/// depth-first search would run away.
const ENUMERATION_BUDGET: u64 = 200_000;

/// The backbone and exact candidates of a puzzle, every model they rest on verified.
pub fn analyze(puzzle: &Puzzle, options: &AnalyzeOptions) -> Result<Analysis, InternalError> {
    let geometry = puzzle.geometry();
    let givens = puzzle.givens();
    let mut stats = AnalyzeStats::default();
    let unsolvable = |reason: Option<String>, stats| Analysis {
        status: Status::Unsolvable,
        candidates: None,
        reason,
        count: Count { count: 0, capped: false },
        stats,
    };
    let domains = match preprocess(geometry, givens, options.solve.encoding) {
        Ok(d) => d,
        Err(reason) => return Ok(unsolvable(Some(reason), stats)),
    };
    let mut solver = Solver::new();
    let map = {
        let mut counting = Counting::new(&mut solver);
        let map = encode_puzzle(geometry, givens, &domains, &options.solve, &mut counting);
        stats.variables = counting.variables;
        stats.clauses = counting.clauses;
        map
    };
    // seen[i]: the i-th cell variable has been true in some verified model.
    let mut seen = vec![false; map.cell_var_count()];
    let mut first: Option<Grid> = None;
    let mut second = false;
    let mut record = |grid: Grid, seen: &mut Vec<bool>| {
        for (cell, value) in grid.filled() {
            if let Some(i) = map.var(cell, value).and_then(|v| v.index().checked_sub(map.offset())) {
                seen[i] = true;
            }
        }
        match &first {
            None => first = Some(grid),
            Some(f) => second |= *f != grid,
        }
    };
    match model(&mut solver, &map, geometry, givens, &[])? {
        Some(grid) => {
            stats.models += 1;
            record(grid, &mut seen);
        }
        None => return Ok(unsolvable(None, stats)),
    }
    // Solutions enumerated by a cheap search tick off candidates without a
    // solver call each, and count the solutions on the way.
    let mut known_count = None;
    let mut several = false;
    if geometry.size() <= 64 && options.count_limit >= 2 {
        let e = enumerate(geometry, givens, &domains, options.count_limit, ENUMERATION_BUDGET)?;
        for cell in geometry.cells() {
            for (value, var) in map.cell_vars(cell) {
                if e.union[cell.index()] & (1 << value.index()) != 0 {
                    seen[var.index() - map.offset()] = true;
                }
            }
        }
        several = e.count >= 2;
        if !e.out_of_budget {
            known_count = Some(Count { count: e.count, capped: e.count >= options.count_limit });
        }
    }
    for cell in geometry.cells() {
        let vars: Vec<_> = map.cell_vars(cell).collect();
        for (_, var) in vars {
            let i = var.index() - map.offset();
            if seen[i] {
                continue;
            }
            match model(&mut solver, &map, geometry, givens, &[var.positive()])? {
                Some(grid) => {
                    stats.models += 1;
                    record(grid, &mut seen);
                }
                None => {
                    stats.refuted += 1;
                    solver.add_clause(&[var.negative()]);
                }
            }
        }
    }
    let first = first.ok_or_else(|| InternalError("analyze lost its first model".into()))?;
    let candidates = exact_domains(geometry, &map, &seen, &first);
    let all_fixed = geometry.cells().all(|c| candidates.count(c) == 1);
    let second = second || several;
    if all_fixed == second {
        return Err(InternalError(format!(
            "analyze found {} but every cell {} fixed",
            if second { "two solutions" } else { "one solution" },
            if all_fixed { "is" } else { "is not" }
        )));
    }
    let (status, count) = if all_fixed {
        (Status::Unique, Count { count: 1, capped: false })
    } else if options.count_limit < 2 {
        (Status::Multiple, Count { count: 2, capped: true })
    } else {
        let count = match known_count {
            Some(c) => c,
            None if geometry.size() <= 64 => {
                let e = enumerate(geometry, givens, &candidates, options.count_limit, ENUMERATION_BUDGET)?;
                // Out of budget, the count is only a lower bound.
                Count { count: e.count.max(2), capped: e.out_of_budget || e.count >= options.count_limit }
            }
            None => count_with_propagator(geometry, givens, &candidates, options.count_limit)?,
        };
        (Status::Multiple, count)
    };
    Ok(Analysis { status, candidates: Some(candidates), reason: None, count, stats })
}

/// Solve under `assumptions`; the verified grid of the model, if any.
fn model(
    solver: &mut Solver,
    map: &VarMap,
    geometry: &Geometry,
    givens: &Grid,
    assumptions: &[Lit],
) -> Result<Option<Grid>, InternalError> {
    solver.assume(assumptions);
    let sat = solver.solve().map_err(|e| InternalError(format!("varisat failed: {e}")))?;
    if !sat {
        return Ok(None);
    }
    let model = solver.model().ok_or_else(|| InternalError("varisat said SAT but gave no model".into()))?;
    let grid =
        map.decode(geometry, |v| model.get(v.index()).is_some_and(|l| l.is_positive())).map_err(InternalError)?;
    checked(geometry, givens, grid).map(Some)
}

/// The candidate sets: a decided cell keeps its value, an open one the values seen in models.
fn exact_domains(geometry: &Geometry, map: &VarMap, seen: &[bool], solution: &Grid) -> Domains {
    let n = geometry.size();
    let mut domains = Domains::full(n);
    for cell in geometry.cells() {
        let mut vars = map.cell_vars(cell).peekable();
        if vars.peek().is_none() {
            // No variable: decided before encoding, so the solution holds its value.
            if let Some(v) = solution.get(cell) {
                domains.fix(cell, v);
            }
            continue;
        }
        let mut keep = vec![false; n];
        for (value, var) in vars {
            keep[value.index()] = seen[var.index() - map.offset()];
        }
        for value in Value::all(n) {
            if !keep[value.index()] {
                domains.remove(cell, value);
            }
        }
    }
    domains
}

/// Count the solutions inside `candidates` (which must contain them all) up to
/// `limit`: depth-first search on the open cell with fewest candidates, naked
/// singles propagated at every node. Each solution counted is verified.
pub fn count_solutions(
    geometry: &Geometry,
    givens: &Grid,
    candidates: &Domains,
    limit: u64,
) -> Result<Count, InternalError> {
    if geometry.size() > 64 {
        return count_with_propagator(geometry, givens, candidates, limit);
    }
    let e = enumerate(geometry, givens, candidates, limit, u64::MAX)?;
    Ok(Count { count: e.count, capped: e.count >= limit })
}

/// What a bounded depth-first enumeration found.
struct Enumerated {
    count: u64,
    /// Per cell, the values seen in the solutions found (bit v-1 for value v).
    union: Vec<u64>,
    /// Whether the search stopped at its node budget before it was done.
    out_of_budget: bool,
}

/// Enumerate up to `limit` solutions inside `candidates` (n ≤ 64), visiting at
/// most `budget` nodes. A plain bitmask search is far cheaper per node than
/// the general propagator.
fn enumerate(
    geometry: &Geometry,
    givens: &Grid,
    candidates: &Domains,
    limit: u64,
    budget: u64,
) -> Result<Enumerated, InternalError> {
    let mut peers: Vec<Vec<u32>> = Vec::with_capacity(geometry.cell_count());
    for cell in geometry.cells() {
        let mut p: Vec<u32> = geometry
            .units_of(cell)
            .iter()
            .flat_map(|&u| geometry.units()[u as usize].cells())
            .filter(|&&c| c != cell)
            .map(|c| c.index() as u32)
            .collect();
        p.sort_unstable();
        p.dedup();
        peers.push(p);
    }
    let mut masks: Vec<u64> = geometry.cells().map(|c| domains_mask(candidates, c)).collect();
    // The full encoding's domains do not hold the givens: put them in.
    for (cell, value) in givens.filled() {
        masks[cell.index()] &= 1 << value.index();
    }
    if masks.contains(&0) {
        return Ok(Enumerated { count: 0, union: vec![0; masks.len()], out_of_budget: false });
    }
    let mut counter =
        BitCounter { geometry, givens, peers, limit, count: 0, queue: Vec::new(), union: vec![0; masks.len()], budget };
    let singles: Vec<usize> = (0..masks.len()).filter(|&i| masks[i].count_ones() == 1).collect();
    if counter.settle(&mut masks, singles) {
        counter.search(masks)?;
    }
    Ok(Enumerated { count: counter.count, union: counter.union, out_of_budget: counter.budget == 0 })
}

fn domains_mask(domains: &Domains, cell: Cell) -> u64 {
    domains.values(cell).fold(0, |m, v| m | 1 << v.index())
}

struct BitCounter<'a> {
    geometry: &'a Geometry,
    givens: &'a Grid,
    peers: Vec<Vec<u32>>,
    limit: u64,
    count: u64,
    queue: Vec<usize>,
    union: Vec<u64>,
    /// Nodes left to visit.
    budget: u64,
}

impl BitCounter<'_> {
    /// Remove the value of each newly single cell from its peers, to the
    /// fixpoint. False on a contradiction.
    fn settle(&mut self, masks: &mut [u64], start: Vec<usize>) -> bool {
        self.queue.clear();
        self.queue.extend(start);
        while let Some(cell) = self.queue.pop() {
            let bit = masks[cell];
            for &p in &self.peers[cell] {
                let m = &mut masks[p as usize];
                if *m & bit != 0 {
                    *m &= !bit;
                    match m.count_ones() {
                        0 => return false,
                        1 => self.queue.push(p as usize),
                        _ => {}
                    }
                }
            }
        }
        true
    }

    /// Count below `masks`, whose singles are all settled. Stops at the limit.
    fn search(&mut self, masks: Vec<u64>) -> Result<(), InternalError> {
        if self.budget == 0 {
            return Ok(());
        }
        self.budget -= 1;
        let open = (0..masks.len()).filter(|&i| masks[i].count_ones() > 1).min_by_key(|&i| masks[i].count_ones());
        let Some(cell) = open else {
            let cells = masks.iter().map(|m| Some(Value::from_index(m.trailing_zeros() as usize))).collect();
            let grid = Grid::from_cells(self.geometry.size(), cells)
                .ok_or_else(|| InternalError("the solution counter built a grid of the wrong size".into()))?;
            verify(self.geometry, self.givens, &grid).map_err(|v| {
                InternalError(format!(
                    "the solution counter reached a grid that is not a solution: {}",
                    crate::verify::ViolationText(&v, self.geometry)
                ))
            })?;
            self.count += 1;
            for (u, m) in self.union.iter_mut().zip(&masks) {
                *u |= m;
            }
            return Ok(());
        };
        let mut rest = masks[cell];
        while rest != 0 && self.count < self.limit && self.budget > 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let mut child = masks.clone();
            child[cell] = bit;
            if self.settle(&mut child, vec![cell]) {
                self.search(child)?;
            }
        }
        Ok(())
    }
}

/// [`count_solutions`] for grids past 64 values, on the general propagator.
fn count_with_propagator(
    geometry: &Geometry,
    givens: &Grid,
    candidates: &Domains,
    limit: u64,
) -> Result<Count, InternalError> {
    let mut count = 0;
    let mut stack = vec![candidates.clone()];
    while let Some(domains) = stack.pop() {
        let mut p = Propagator::with_domains(geometry, domains);
        // Requeue the decided cells so their values leave their peers.
        let decided: Vec<(Cell, Value)> = p.domains().decided().filled().collect();
        let ok = decided.iter().all(|&(c, v)| p.assign(c, v).is_ok()) && p.propagate().is_ok();
        if !ok {
            continue;
        }
        let domains = p.into_domains();
        let open = geometry.cells().filter(|&c| domains.count(c) > 1).min_by_key(|&c| domains.count(c));
        match open {
            None => {
                let grid = domains.decided();
                verify(geometry, givens, &grid).map_err(|v| {
                    InternalError(format!(
                        "the solution counter reached a grid that is not a solution: {}",
                        crate::verify::ViolationText(&v, geometry)
                    ))
                })?;
                count += 1;
                if count >= limit {
                    return Ok(Count { count, capped: true });
                }
            }
            Some(cell) => {
                let values: Vec<Value> = domains.values(cell).collect();
                for &value in values.iter().rev() {
                    let mut child = domains.clone();
                    child.fix(cell, value);
                    stack.push(child);
                }
            }
        }
    }
    Ok(Count { count, capped: false })
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
    if let Some(clash) = find_clash(geometry, puzzle.givens()) {
        return Propagation { steps: Vec::new(), outcome: Err(clash) };
    }
    let mut p = Propagator::new(geometry);
    if steps {
        p.record_steps();
    }
    let outcome = p.place_givens(puzzle.givens()).and_then(|()| p.propagate());
    let steps = p.steps().to_vec();
    Propagation { steps, outcome: outcome.map(|()| p.into_domains()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enumerate::{count_up_to, Search};
    use crate::geometry::Layout;
    use std::sync::Arc;

    fn puzzle(geometry: Geometry, text: &str) -> Puzzle {
        let n = geometry.size();
        let cells = text
            .chars()
            .map(|c| c.to_digit(36).filter(|&d| d > 0).map(|d| Value::from_index(d as usize - 1)))
            .collect();
        Puzzle::new(Arc::new(geometry), Grid::from_cells(n, cells).unwrap()).unwrap()
    }

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
        assert_eq!(a.status, Status::Multiple);
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
        assert_eq!(a.status, Status::Unique);
        assert!(a.fixed().is_complete());
        assert_eq!(verify(p.geometry(), p.givens(), &a.fixed()), Ok(()));
    }

    #[test]
    fn unsolvable_puzzles_say_so() {
        let clash = puzzle(Geometry::classic(4).unwrap(), "11..............");
        let a = analyze(&clash, &AnalyzeOptions::default()).unwrap();
        assert_eq!(a.status, Status::Unsolvable);
        assert!(a.reason.unwrap().contains("clash"));
        // From tdoku's counted test puzzles (count 0): propagation alone sees
        // nothing wrong, so this takes the solver.
        let text = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.";
        let p = puzzle(Geometry::classic(9).unwrap(), text);
        assert!(propagation(&p, false).outcome.is_ok());
        let a = analyze(&p, &AnalyzeOptions::default()).unwrap();
        assert_eq!(a.reason, None);
        assert_eq!(a.status, Status::Unsolvable);
        assert_eq!(a.count.count, 0);
    }

    #[test]
    fn count_limit_caps() {
        let p = puzzle(Geometry::classic(4).unwrap(), &".".repeat(16));
        let a = analyze(&p, &AnalyzeOptions { count_limit: 10, ..AnalyzeOptions::default() }).unwrap();
        assert_eq!(a.count, Count { count: 10, capped: true });
        let a = analyze(&p, &AnalyzeOptions { count_limit: 0, ..AnalyzeOptions::default() }).unwrap();
        assert_eq!(a.count, Count { count: 2, capped: true });
    }

    #[test]
    fn both_counters_agree() {
        for (g, text) in [
            (Geometry::classic(4).unwrap(), "1..........2...."),
            (Geometry::latin(5).unwrap(), "12...........3..........."),
        ] {
            let p = puzzle(g, text);
            let d = propagation(&p, false).outcome.unwrap();
            for limit in [1, 7, u64::MAX] {
                let a = count_solutions(p.geometry(), p.givens(), &d, limit).unwrap();
                let b = count_with_propagator(p.geometry(), p.givens(), &d, limit).unwrap();
                assert_eq!(a, b, "{text} up to {limit}");
                assert_eq!(a.count.min(limit), count_up_to(&p, limit, &SolveOptions::default()).unwrap().count);
            }
        }
    }

    #[test]
    fn propagation_steps_stop_where_search_starts() {
        let p = puzzle(Geometry::classic(4).unwrap(), "1..........2....");
        let prop = propagation(&p, true);
        let domains = prop.outcome.unwrap();
        assert!(!domains.is_solved());
        assert!(!prop.steps.is_empty());
    }
}
