//! Random jigsaw layouts: n connected regions of n cells each.
//!
//! A random walk on layouts: start from the boxes (rows for a prime n) and
//! swap many times a cell of one region with a cell of a neighbouring
//! region, keeping a swap only when both regions stay connected. Every
//! layout the walk visits has n regions of n connected cells. (Not every
//! such layout has a solution with its rows and columns; the generator
//! checks and draws again.)

use crate::model::geometry::default_box;

use super::rng::Rng;

/// Swap attempts per cell: enough for the boxes to be gone from sight.
const SWAPS_PER_CELL: usize = 30;

/// A random layout of `n` connected regions of `n` cells of an n×n grid:
/// the region (0-based) of every cell, row-major, regions numbered in order
/// of their first cell.
pub fn random_regions(n: usize, rng: &mut Rng) -> Vec<u32> {
    let mut map: Vec<u32> = match default_box(n) {
        Ok((rows, cols)) if n > 1 => {
            (0..n * n).map(|i| ((i / n / rows) * (n / cols) + (i % n) / cols) as u32).collect()
        }
        _ => (0..n * n).map(|i| (i / n) as u32).collect(),
    };
    if n <= 2 {
        return map;
    }
    for _ in 0..SWAPS_PER_CELL * n * n {
        let a = rng.below(n * n);
        let neighbours = neighbours(n, a);
        let b = neighbours[rng.below(neighbours.len())];
        let (ra, rb) = (map[a], map[b]);
        if ra == rb {
            continue;
        }
        // a goes to b's region; some cell of b's region that touches a's goes back.
        let candidates: Vec<usize> =
            (0..n * n).filter(|&c| map[c] == rb && neighbours_of_region(n, &map, c, ra, a)).collect();
        if candidates.is_empty() {
            continue;
        }
        let c = candidates[rng.below(candidates.len())];
        map[a] = rb;
        map[c] = ra;
        if !connected(n, &map, ra) || !connected(n, &map, rb) {
            map[a] = ra;
            map[c] = rb;
        }
    }
    renumber(&mut map);
    map
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

/// Whether the cells of `region` are connected (side by side).
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
