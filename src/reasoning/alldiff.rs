//! Régin's filtering for "all different": in a unit of n cells and n values,
//! a candidate survives only if some assignment of the unit's cells to
//! distinct values uses it.
//!
//! This is what every naked and hidden subset (pairs, triples, …, of any size)
//! removes, at once: the unit's cells and values form a bipartite graph, a
//! solution of the unit is a perfect matching, and an edge lies in some
//! perfect matching exactly when it is in the one at hand or on an
//! alternating cycle, that is, when its ends fall in one strongly connected
//! component of the matching's residual graph (Régin 1994). Unit propagation
//! on the CNF derives none of it beyond singles.

use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Value};

const NONE: u32 = u32::MAX;

/// What filtering one unit found.
#[derive(Debug, PartialEq, Eq)]
pub enum Filtered {
    /// Candidates no assignment of the unit uses, as (cell, value).
    Removals(Vec<(Cell, Value)>),
    /// No assignment exists: these cells have only these values between them,
    /// fewer values than cells.
    Hall { cells: Vec<Cell>, values: Vec<Value> },
}

/// What [`AllDifferent::explain`] found in one unit.
#[derive(Debug, PartialEq, Eq)]
pub enum Explained {
    /// These cells have only these values between them, fewer than cells.
    Hall { cells: Vec<Cell>, values: Vec<Value> },
    /// A naked subset: `cells` hold exactly `values` between them, so the
    /// other cells of `open` (the unit's undecided cells) lose `removals`.
    Subset { cells: Vec<Cell>, values: Vec<Value>, open: Vec<Cell>, removals: Vec<(Cell, Value)> },
}

/// Filters units one after another, reusing its buffers.
#[derive(Default)]
pub struct AllDifferent {
    /// The unit's undecided cells, and its values no decided cell holds.
    cells: Vec<Cell>,
    values: Vec<Value>,
    /// Value index → local value index, or NONE.
    local: Vec<u32>,
    /// The candidates of each local cell, as local values (compressed rows).
    start: Vec<u32>,
    edges: Vec<u32>,
    mate_of_cell: Vec<u32>,
    mate_of_value: Vec<u32>,
    /// Depth-first search scratch: a stamp per cell and a stack of (cell, next edge).
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<(u32, u32)>,
    /// Tarjan's scratch.
    order: Vec<u32>,
    low: Vec<u32>,
    component: Vec<u32>,
    open: Vec<u32>,
}

impl AllDifferent {
    pub fn new() -> AllDifferent {
        AllDifferent::default()
    }

    /// Filter the unit made of `unit_cells` against `domains`. Decided cells
    /// (one candidate) are taken as placed; call at a propagation fixpoint,
    /// where their values are gone from the other cells.
    pub fn filter(&mut self, unit_cells: &[Cell], domains: &Domains) -> Filtered {
        let n = domains.size();
        self.load(unit_cells, domains, n);
        if self.values.len() != self.cells.len() {
            // Two decided cells share a value: not a propagation fixpoint,
            // and propagation will find the clash itself.
            return Filtered::Removals(Vec::new());
        }
        if let Some(root) = self.match_all() {
            return self.hall(root);
        }
        self.components();
        let mut removals = Vec::new();
        for c in 0..self.cells.len() {
            for &v in &self.edges[self.start[c] as usize..self.start[c + 1] as usize] {
                let mate = self.mate_of_value[v as usize];
                if mate != c as u32 && self.component[c] != self.component[mate as usize] {
                    removals.push((self.cells[c], self.values[v as usize]));
                }
            }
        }
        Filtered::Removals(removals)
    }

    /// Filter as [`AllDifferent::filter`], and explain the removals by the
    /// smallest naked subset behind one of them: cells whose candidates
    /// between them are exactly as many values, which no other cell of the
    /// unit can then hold. `None` when the unit loses nothing.
    pub fn explain(&mut self, unit_cells: &[Cell], domains: &Domains) -> Option<Explained> {
        let n = domains.size();
        self.load(unit_cells, domains, n);
        if self.values.len() != self.cells.len() {
            return None;
        }
        if let Some(root) = self.match_all() {
            let Filtered::Hall { cells, values } = self.hall(root) else { return None };
            return Some(Explained::Hall { cells, values });
        }
        self.components();
        // For a removal (c, v), the cells reachable from v's mate (cell →
        // the mate of each of its candidates) hold exactly their mates' values
        // and do not reach c: a naked subset that takes v from c.
        let mut best: Option<Vec<u32>> = None;
        for c in 0..self.cells.len() {
            for e in self.start[c] as usize..self.start[c + 1] as usize {
                let mate = self.mate_of_value[self.edges[e] as usize];
                if mate == c as u32 || self.component[c] == self.component[mate as usize] {
                    continue;
                }
                let reached = self.reachable(mate);
                if best.as_ref().is_none_or(|b| reached.len() < b.len()) {
                    best = Some(reached);
                }
            }
        }
        let best = best?;
        let cells: Vec<Cell> = best.iter().map(|&c| self.cells[c as usize]).collect();
        let mut values: Vec<Value> =
            best.iter().map(|&c| self.values[self.mate_of_cell[c as usize] as usize]).collect();
        values.sort();
        let open: Vec<Cell> = self.cells.clone();
        let removals = open
            .iter()
            .filter(|c| !cells.contains(c))
            .flat_map(|&c| values.iter().filter(move |&&v| domains.contains(c, v)).map(move |&v| (c, v)))
            .collect();
        Some(Explained::Subset { cells, values, open, removals })
    }

    /// The local cells reachable from `root` in the residual graph, sorted.
    fn reachable(&mut self, root: u32) -> Vec<u32> {
        self.stamp += 1;
        let mut found = vec![root];
        self.seen[root as usize] = self.stamp;
        let mut next = 0;
        while next < found.len() {
            let c = found[next] as usize;
            next += 1;
            for &v in &self.edges[self.start[c] as usize..self.start[c + 1] as usize] {
                let w = self.mate_of_value[v as usize];
                if self.seen[w as usize] != self.stamp {
                    self.seen[w as usize] = self.stamp;
                    found.push(w);
                }
            }
        }
        found.sort_unstable();
        found
    }

    fn load(&mut self, unit_cells: &[Cell], domains: &Domains, n: usize) {
        self.cells.clear();
        self.values.clear();
        self.local.clear();
        self.local.resize(n, 0);
        // Mark the decided values, then number the others.
        for &cell in unit_cells {
            match domains.single(cell) {
                Some(value) => self.local[value.index()] = NONE,
                None => self.cells.push(cell),
            }
        }
        for i in 0..n {
            if self.local[i] != NONE {
                self.local[i] = self.values.len() as u32;
                self.values.push(Value::from_index(i));
            }
        }
        self.start.clear();
        self.edges.clear();
        self.start.push(0);
        for &cell in &self.cells {
            let local = &self.local;
            self.edges.extend(domains.values(cell).map(|v| local[v.index()]).filter(|&v| v != NONE));
            self.start.push(self.edges.len() as u32);
        }
        let k = self.cells.len();
        self.mate_of_cell.clear();
        self.mate_of_cell.resize(k, NONE);
        self.mate_of_value.clear();
        self.mate_of_value.resize(self.values.len(), NONE);
        self.seen.clear();
        self.seen.resize(k, 0);
        self.stamp = 0;
    }

    /// A matching of every cell, greedy first, then by augmenting paths. The
    /// cell that cannot be matched, if any (its search is left in `seen`).
    fn match_all(&mut self) -> Option<u32> {
        for c in 0..self.cells.len() {
            let edges = &self.edges[self.start[c] as usize..self.start[c + 1] as usize];
            if let Some(&v) = edges.iter().find(|&&v| self.mate_of_value[v as usize] == NONE) {
                self.mate_of_cell[c] = v;
                self.mate_of_value[v as usize] = c as u32;
            }
        }
        (0..self.cells.len() as u32).find(|&c| self.mate_of_cell[c as usize] == NONE && !self.augment(c))
    }

    /// Kuhn's search for an augmenting path from the unmatched cell `root`.
    fn augment(&mut self, root: u32) -> bool {
        self.stamp += 1;
        self.seen[root as usize] = self.stamp;
        self.stack.clear();
        self.stack.push((root, self.start[root as usize]));
        while let Some(top) = self.stack.last_mut() {
            let (c, next) = *top;
            if next == self.start[c as usize + 1] {
                self.stack.pop();
                continue;
            }
            top.1 += 1;
            let v = self.edges[next as usize];
            let mate = self.mate_of_value[v as usize];
            if mate == NONE {
                // Each cell on the stack takes the value its last edge led to.
                for &(c, next) in &self.stack {
                    let v = self.edges[next as usize - 1];
                    self.mate_of_cell[c as usize] = v;
                    self.mate_of_value[v as usize] = c;
                }
                return true;
            }
            if self.seen[mate as usize] != self.stamp {
                self.seen[mate as usize] = self.stamp;
                self.stack.push((mate, self.start[mate as usize]));
            }
        }
        false
    }

    /// The cells the failed search from `root` reached, and their values:
    /// one value fewer than cells.
    fn hall(&self, root: u32) -> Filtered {
        debug_assert_eq!(self.seen[root as usize], self.stamp);
        let reached: Vec<usize> = (0..self.cells.len()).filter(|&c| self.seen[c] == self.stamp).collect();
        let mut values: Vec<u32> = reached
            .iter()
            .flat_map(|&c| self.edges[self.start[c] as usize..self.start[c + 1] as usize].iter().copied())
            .collect();
        values.sort_unstable();
        values.dedup();
        Filtered::Hall {
            cells: reached.iter().map(|&c| self.cells[c]).collect(),
            values: values.iter().map(|&v| self.values[v as usize]).collect(),
        }
    }

    /// Tarjan's strongly connected components of the residual graph, with
    /// each cell merged with its mate: cell c → the mate of each candidate of c.
    fn components(&mut self) {
        let k = self.cells.len();
        self.order.clear();
        self.order.resize(k, NONE);
        self.low.clear();
        self.low.resize(k, 0);
        self.component.clear();
        self.component.resize(k, NONE);
        self.open.clear();
        let (mut counter, mut components) = (0u32, 0u32);
        for root in 0..k as u32 {
            if self.order[root as usize] != NONE {
                continue;
            }
            self.stack.clear();
            self.stack.push((root, self.start[root as usize]));
            self.order[root as usize] = counter;
            self.low[root as usize] = counter;
            counter += 1;
            self.open.push(root);
            while let Some(top) = self.stack.last_mut() {
                let (c, next) = *top;
                if next < self.start[c as usize + 1] {
                    top.1 += 1;
                    let w = self.mate_of_value[self.edges[next as usize] as usize];
                    if self.order[w as usize] == NONE {
                        self.order[w as usize] = counter;
                        self.low[w as usize] = counter;
                        counter += 1;
                        self.open.push(w);
                        self.stack.push((w, self.start[w as usize]));
                    } else if self.component[w as usize] == NONE {
                        self.low[c as usize] = self.low[c as usize].min(self.order[w as usize]);
                    }
                    continue;
                }
                self.stack.pop();
                if let Some(&(parent, _)) = self.stack.last() {
                    self.low[parent as usize] = self.low[parent as usize].min(self.low[c as usize]);
                }
                if self.low[c as usize] == self.order[c as usize] {
                    while let Some(w) = self.open.pop() {
                        self.component[w as usize] = components;
                        if w == c {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use itertools::Itertools;

    /// Every assignment of distinct values to the cells, by brute force: the
    /// candidates some assignment uses, or None when there is none.
    fn brute_force(domains: &Domains, cells: &[Cell]) -> Option<Vec<(Cell, Value)>> {
        let n = domains.size();
        let mut used = std::collections::BTreeSet::new();
        for perm in (0..n).permutations(n) {
            if cells.iter().zip(&perm).all(|(&c, &v)| domains.contains(c, Value::from_index(v))) {
                used.extend(cells.iter().zip(&perm).map(|(&c, &v)| (c, Value::from_index(v))));
            }
        }
        let all = cells.iter().flat_map(|&c| domains.values(c).map(move |v| (c, v)));
        (!used.is_empty()).then(|| all.filter(|p| !used.contains(p)).collect())
    }

    #[test]
    fn filtering_keeps_exactly_the_candidates_some_assignment_uses() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut checked, mut infeasible) = (0, 0);
        for _ in 0..3000 {
            let n = 2 + (random() % 5) as usize;
            let cells: Vec<Cell> = (0..n).map(Cell::from_index).collect();
            let mut domains = Domains::full(n);
            for &c in &cells {
                for v in 0..n {
                    if random() % 100 < 45 {
                        domains.remove(c, Value::from_index(v));
                    }
                }
            }
            // The filter's precondition: no cell is empty, and decided cells'
            // values are gone from the others (a propagation fixpoint).
            let decided: Vec<(Cell, Value)> = cells.iter().filter_map(|&c| domains.single(c).map(|v| (c, v))).collect();
            if cells.iter().any(|&c| domains.count(c) == 0)
                || decided.iter().any(|&(c, v)| cells.iter().any(|&o| o != c && domains.contains(o, v)))
            {
                continue;
            }
            checked += 1;
            match (AllDifferent::new().filter(&cells, &domains), brute_force(&domains, &cells)) {
                (Filtered::Removals(mut got), Some(mut want)) => {
                    got.sort();
                    want.sort();
                    assert_eq!(got, want, "{domains:?}");
                }
                (Filtered::Hall { cells: hall, values }, None) => {
                    infeasible += 1;
                    assert_eq!(values.len() + 1, hall.len(), "{domains:?}");
                    for &c in &hall {
                        assert!(domains.values(c).all(|v| values.contains(&v)), "{domains:?}");
                    }
                }
                (got, want) => panic!("{domains:?}: filter {got:?}, brute force {want:?}"),
            }
        }
        assert!(checked > 500 && infeasible > 20, "{checked} checked, {infeasible} infeasible");
    }
}
