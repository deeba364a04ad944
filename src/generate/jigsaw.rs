//! Random jigsaw layouts: n connected regions of n cells each.
//!
//! A random walk on layouts: start from the boxes (rows for a prime n) and
//! swap many times a cell of one region with a cell of a neighbouring
//! region, keeping a swap only when both regions stay connected. Every
//! layout the walk visits has n regions of n connected cells. (Not every
//! such layout has a solution with its rows and columns; the generator
//! checks and draws again.)

use std::time::Instant;

use crate::model::geometry::default_box;

use super::rng::Rng;

/// Swap attempts per cell: enough for the boxes to be gone from sight.
const SWAPS_PER_CELL: usize = 30;

/// A random layout of `n` connected regions of `n` cells of an n×n grid:
/// the region (0-based) of every cell, row-major, regions numbered in order
/// of their first cell.
///
/// # Panics
/// If `n` is past [`MAX_SIZE`](crate::MAX_SIZE).
pub fn random_regions(n: usize, rng: &mut Rng) -> Vec<u32> {
    assert!(n <= crate::MAX_SIZE, "random_regions: side {n} is past MAX_SIZE ({})", crate::MAX_SIZE);
    random_regions_until(n, rng, None).expect("no deadline to pass")
}

/// [`random_regions`], given up (`None`) once `deadline` has passed. Each
/// swap looks at the two regions it touches alone (their cells kept in
/// lists), not the whole grid: half the time on 100×100 (1.0 s against 2.2 s
/// in the test build), and the same layouts.
pub(crate) fn random_regions_until(n: usize, rng: &mut Rng, deadline: Option<Instant>) -> Option<Vec<u32>> {
    let mut map: Vec<u32> = match default_box(n) {
        Ok((rows, cols)) if n > 1 => {
            (0..n * n).map(|i| ((i / n / rows) * (n / cols) + (i % n) / cols) as u32).collect()
        }
        _ => (0..n * n).map(|i| (i / n) as u32).collect(),
    };
    if n <= 2 {
        return Some(map);
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::with_capacity(n); n];
    for (cell, &region) in map.iter().enumerate() {
        members[region as usize].push(cell);
    }
    let mut search = Connectivity { seen: vec![0; n * n], stamp: 0, stack: Vec::new() };
    let mut candidates = Vec::new();
    for swap in 0..SWAPS_PER_CELL * n * n {
        if swap % 1024 == 0 && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return None;
        }
        let a = rng.below(n * n);
        let neighbours = neighbours(n, a);
        let b = neighbours[rng.below(neighbours.len())];
        let (ra, rb) = (map[a], map[b]);
        if ra == rb {
            continue;
        }
        // a goes to b's region; some cell of b's region that touches a's goes
        // back, drawn among them in row-major order.
        candidates.clear();
        candidates.extend(members[rb as usize].iter().copied().filter(|&c| neighbours_of_region(n, &map, c, ra, a)));
        if candidates.is_empty() {
            continue;
        }
        candidates.sort_unstable();
        let c = candidates[rng.below(candidates.len())];
        move_cell(&mut map, &mut members, a, rb);
        move_cell(&mut map, &mut members, c, ra);
        if !search.connected(n, &map, &members[ra as usize]) || !search.connected(n, &map, &members[rb as usize]) {
            move_cell(&mut map, &mut members, a, ra);
            move_cell(&mut map, &mut members, c, rb);
        }
    }
    renumber(&mut map);
    Some(map)
}

/// Move `cell` into region `to`, keeping the member lists.
fn move_cell(map: &mut [u32], members: &mut [Vec<usize>], cell: usize, to: u32) {
    let from = &mut members[map[cell] as usize];
    if let Some(k) = from.iter().position(|&c| c == cell) {
        from.swap_remove(k);
    }
    members[to as usize].push(cell);
    map[cell] = to;
}

/// A depth-first search over one region's cells, its marks reused from
/// search to search (a stamp per cell).
struct Connectivity {
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<usize>,
}

impl Connectivity {
    /// Whether `cells`, a whole region of `map`, are connected (side by side).
    fn connected(&mut self, n: usize, map: &[u32], cells: &[usize]) -> bool {
        let Some(&first) = cells.first() else { return true };
        let region = map[first];
        self.stamp += 1;
        self.stack.clear();
        self.stack.push(first);
        self.seen[first] = self.stamp;
        let mut reached = 0;
        while let Some(cell) = self.stack.pop() {
            reached += 1;
            for d in neighbours(n, cell) {
                if self.seen[d] != self.stamp && map[d] == region {
                    self.seen[d] = self.stamp;
                    self.stack.push(d);
                }
            }
        }
        reached == cells.len()
    }
}

/// Whether `cell` touches region `region` other than through `except`.
fn neighbours_of_region(n: usize, map: &[u32], cell: usize, region: u32, except: usize) -> bool {
    neighbours(n, cell).into_iter().any(|d| d != except && map[d] == region)
}

/// The cells beside `cell` (not diagonally).
fn neighbours(n: usize, cell: usize) -> Vec<usize> {
    let (r, c) = (cell / n, cell % n);
    let mut out = Vec::with_capacity(4);
    if r > 0 {
        out.push(cell - n);
    }
    if r + 1 < n {
        out.push(cell + n);
    }
    if c > 0 {
        out.push(cell - 1);
    }
    if c + 1 < n {
        out.push(cell + 1);
    }
    out
}

/// Whether the cells of `region` are connected (side by side): the plain
/// check the tests hold the walk's own to.
#[cfg(test)]
pub fn connected(n: usize, map: &[u32], region: u32) -> bool {
    let cells: Vec<usize> = (0..n * n).filter(|&c| map[c] == region).collect();
    let Some(&first) = cells.first() else { return true };
    let mut seen = vec![false; n * n];
    let mut stack = vec![first];
    seen[first] = true;
    let mut reached = 0;
    while let Some(cell) = stack.pop() {
        reached += 1;
        for d in neighbours(n, cell) {
            if !seen[d] && map[d] == region {
                seen[d] = true;
                stack.push(d);
            }
        }
    }
    reached == cells.len()
}

/// Number the regions in order of their first cell.
fn renumber(map: &mut [u32]) {
    let mut names: Vec<Option<u32>> = vec![None; map.len()];
    let mut next = 0;
    for label in map.iter_mut() {
        let name = names[*label as usize].get_or_insert_with(|| {
            next += 1;
            next - 1
        });
        *label = *name;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_have_n_connected_regions_of_n_cells() {
        for n in [3, 4, 5, 6, 7, 9] {
            let mut rng = Rng::new(n as u64);
            let map = random_regions(n, &mut rng);
            for region in 0..n as u32 {
                assert_eq!(map.iter().filter(|&&r| r == region).count(), n, "n = {n}");
                assert!(connected(n, &map, region), "n = {n}, region {region}");
            }
        }
    }
}
