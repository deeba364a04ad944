//! Brute force over the units of a [`Shape`] of the independent checker:
//! every solution by plain backtracking, sharing no code with the library it
//! judges. Values are 1..=n (n < 64), 0 is an empty cell.

use std::collections::HashSet;

use super::checker::Shape;

/// A grid's units with the bookkeeping of a backtracking search over them.
pub struct Brute {
    shape: Shape,
    /// The units each cell belongs to.
    of_cell: Vec<Vec<usize>>,
}

impl Brute {
    pub fn new(shape: Shape) -> Brute {
        assert!(shape.n < 64, "test bug: values are bits of a u64");
        let mut of_cell = vec![Vec::new(); shape.n * shape.n];
        for (u, unit) in shape.units.iter().enumerate() {
            for &c in unit {
                of_cell[c].push(u);
            }
        }
        Brute { shape, of_cell }
    }

    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The cells that share a unit with `cell`, in order.
    pub fn peers(&self, cell: usize) -> Vec<usize> {
        let mut p: Vec<usize> = self.of_cell[cell].iter().flat_map(|&u| self.shape.units[u].iter().copied()).collect();
        p.sort_unstable();
        p.dedup();
        p.retain(|&c| c != cell);
        p
    }

    /// Every solution, by plain backtracking over the cells in order; None when
    /// there are more than `limit` or the search takes over a million steps.
    pub fn solutions(&self, givens: &[usize], limit: usize) -> Option<HashSet<Vec<usize>>> {
        let (found, complete) = self.in_order(givens, limit + 1);
        complete.then_some(found)
    }

    /// The first solution in backtracking order, if one turns up within the steps.
    pub fn first(&self, givens: &[usize]) -> Option<Vec<usize>> {
        self.in_order(givens, 1).0.into_iter().next()
    }

    /// Every solution, the cell with the fewest values first: for each cell
    /// the values it takes in some solution (bit v - 1 for value v), and how
    /// many solutions there are.
    pub fn candidates(&self, givens: &[usize]) -> (Vec<u64>, u64) {
        let mut union = vec![0u64; givens.len()];
        let mut count = 0;
        if let Some(mut used) = self.used(givens) {
            let mut grid = givens.to_vec();
            self.fewest_first(&mut grid, &mut used, &mut |solution| {
                count += 1;
                for (c, &v) in solution.iter().enumerate() {
                    union[c] |= 1 << (v - 1);
                }
                true
            });
        }
        (union, count)
    }

    /// How many solutions, counting stopped at `limit`: the cell with the
    /// fewest values first.
    pub fn count_up_to(&self, givens: &[usize], limit: usize) -> usize {
        let Some(mut used) = self.used(givens) else { return 0 };
        let mut grid = givens.to_vec();
        let mut count = 0;
        self.fewest_first(&mut grid, &mut used, &mut |_| {
            count += 1;
            count < limit
        });
        count
    }

    /// The values each unit holds (bit v for value v), or None when two givens clash.
    fn used(&self, givens: &[usize]) -> Option<Vec<u64>> {
        let mut used = vec![0u64; self.shape.units.len()];
        for (c, &g) in givens.iter().enumerate() {
            if g != 0 {
                for &u in &self.of_cell[c] {
                    if used[u] & (1 << g) != 0 {
                        return None;
                    }
                    used[u] |= 1 << g;
                }
            }
        }
        Some(used)
    }

    fn allowed(&self, c: usize, v: usize, used: &[u64]) -> bool {
        self.of_cell[c].iter().all(|&u| used[u] & (1 << v) == 0)
    }

    fn set(&self, c: usize, v: usize, grid: &mut [usize], used: &mut [u64]) {
        grid[c] = v;
        for &u in &self.of_cell[c] {
            used[u] |= 1 << v;
        }
    }

    fn unset(&self, c: usize, v: usize, grid: &mut [usize], used: &mut [u64]) {
        grid[c] = 0;
        for &u in &self.of_cell[c] {
            used[u] &= !(1 << v);
        }
    }

    /// Solutions until `stop` of them are found; whether the search ran to its end.
    fn in_order(&self, givens: &[usize], stop: usize) -> (HashSet<Vec<usize>>, bool) {
        let Some(mut used) = self.used(givens) else {
            return (HashSet::new(), true);
        };
        let mut grid = givens.to_vec();
        let mut found = HashSet::new();
        let mut steps = 1_000_000;
        let complete = self.fill(0, &mut grid, &mut used, &mut found, (stop, &mut steps));
        (found, complete)
    }

    fn fill(
        &self,
        at: usize,
        grid: &mut Vec<usize>,
        used: &mut [u64],
        found: &mut HashSet<Vec<usize>>,
        (limit, steps): (usize, &mut u64),
    ) -> bool {
        if *steps == 0 {
            return false;
        }
        *steps -= 1;
        let Some(c) = (at..grid.len()).find(|&c| grid[c] == 0) else {
            found.insert(grid.clone());
            return found.len() < limit;
        };
        for v in 1..=self.shape.n {
            if !self.allowed(c, v, used) {
                continue;
            }
            self.set(c, v, grid, used);
            let ok = self.fill(c + 1, grid, used, found, (limit, &mut *steps));
            self.unset(c, v, grid, used);
            if !ok {
                return false;
            }
        }
        true
    }

    /// A solution, if there is one: the cell with the fewest values first,
    /// stopping at the first solution (no step limit).
    pub fn any(&self, givens: &[usize]) -> Option<Vec<usize>> {
        let mut used = self.used(givens)?;
        let mut grid = givens.to_vec();
        self.first_fewest(&mut grid, &mut used).then_some(grid)
    }

    fn first_fewest(&self, grid: &mut [usize], used: &mut [u64]) -> bool {
        // A value that fits no empty cell of a unit that lacks it: no solution.
        for (u, unit) in self.shape.units.iter().enumerate() {
            for v in (1..=self.shape.n).filter(|&v| used[u] & (1 << v) == 0) {
                if !unit.iter().any(|&c| grid[c] == 0 && self.allowed(c, v, used)) {
                    return false;
                }
            }
        }
        let Some((c, allowed)) = self.fewest_cell(grid, used) else { return true };
        for v in allowed {
            self.set(c, v, grid, used);
            if self.first_fewest(grid, used) {
                return true;
            }
            self.unset(c, v, grid, used);
        }
        false
    }

    /// Every solution below `grid`, the cell with the fewest values first,
    /// to `visit`, until it returns false; false once it has.
    fn fewest_first(&self, grid: &mut [usize], used: &mut [u64], visit: &mut dyn FnMut(&[usize]) -> bool) -> bool {
        let Some((c, allowed)) = self.fewest_cell(grid, used) else { return visit(grid) };
        for v in allowed {
            self.set(c, v, grid, used);
            let go_on = self.fewest_first(grid, used, visit);
            self.unset(c, v, grid, used);
            if !go_on {
                return false;
            }
        }
        true
    }

    /// The empty cell with the fewest values allowed, and those values; None
    /// when every cell is filled.
    fn fewest_cell(&self, grid: &[usize], used: &[u64]) -> Option<(usize, Vec<usize>)> {
        let mut best: Option<(usize, Vec<usize>)> = None;
        for c in (0..grid.len()).filter(|&c| grid[c] == 0) {
            let allowed: Vec<usize> = (1..=self.shape.n).filter(|&v| self.allowed(c, v, used)).collect();
            if best.as_ref().is_none_or(|(_, b)| allowed.len() < b.len()) {
                best = Some((c, allowed));
            }
        }
        best
    }
}
