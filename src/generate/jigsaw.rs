//! Random jigsaw layouts: n connected regions of n cells each.
//!
//! A random walk on layouts: start from the boxes (rows for a prime n) and
//! swap many times a cell of one region with a cell of a neighbouring
//! region, keeping a swap only when both regions stay connected. Every
//! layout the walk visits has n regions of n connected cells.
//!
//! Not every such layout has a full grid, and from 25×25 on, finding out
//! is a hard search: a blank random jigsaw 25×25 took varisat 18 s and
//! more than 30 s, and CaDiCaL 19 s and more than 60 s. So the generator
//! walks with a grid ([`regions_for_grid`]): it draws a full grid of the
//! boxes first, and swaps only two cells that hold the same value, so that
//! each region keeps one of every value. Every layout it visits comes with
//! a full grid, and no search is needed.

use std::time::Instant;

use crate::model::geometry::{default_box, Layout};

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
    let mut map = start_regions(n);
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

/// Where both walks start: the boxes of the default shape, or the rows
/// for a prime n ([`start_layout`]), as regions (0-based, row-major).
pub(crate) fn start_regions(n: usize) -> Vec<u32> {
    match start_layout(n) {
        Layout::Boxes { rows, cols } => {
            (0..n * n).map(|i| ((i / n / rows) * (n / cols) + (i % n) / cols) as u32).collect()
        }
        _ => (0..n * n).map(|i| (i / n) as u32).collect(),
    }
}

/// The layout of [`start_regions`]: its full grids are the grids the walk
/// with a grid starts from (for a prime n, Latin squares, whose rows are
/// the regions).
pub(crate) fn start_layout(n: usize) -> Layout {
    match default_box(n) {
        Ok((rows, cols)) if n > 1 => Layout::Boxes { rows, cols },
        _ => Layout::Latin,
    }
}

/// Swap attempts per cell of the walk with a grid. Its layouts stay near
/// the boxes, whatever the number: in the sum over regions of the most
/// cells any one box gives a region, 95–97% of a 25×25's or 36×36's cells
/// with 100, 300 or 1,000 swaps a cell, against 58% and 57% for the free
/// walk (ten seeds each; re-drawing the grid within the layout between
/// rounds of swaps, ten rounds, gave 95% and 97%). Few layouts hold a given
/// grid: those near its boxes.
pub(crate) const GRID_SWAPS_PER_CELL: usize = 100;

/// The side from which the generator walks with a grid: below it, the free
/// walk's layouts are solved blank in about a second at most (18×18 0.3 s,
/// 20×20 1 s), from it they take seconds to minutes (21×21 2 s; 24×24 and
/// 25×25 more than 30 s).
pub(crate) const GRID_WALK_MIN_SIDE: usize = 21;

/// A random layout of n connected regions of n cells, numbered as
/// [`random_regions`] numbers them, in which `grid` (the value index of
/// every cell, row-major) holds every value once in each region. `grid`
/// must hold every value once in each region of [`start_regions`]`(n)`,
/// where the walk starts: each swap exchanges two cells of the same value
/// between neighbouring regions, and is kept only when both stay
/// connected. `None` once `deadline` has passed.
pub(crate) fn regions_for_grid(
    mut map: Vec<u32>,
    grid: &[usize],
    swaps_per_cell: usize,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Option<Vec<u32>> {
    let n = (grid.len() as f64).sqrt().round() as usize;
    debug_assert_eq!(n * n, grid.len());
    let mut members: Vec<Vec<usize>> = vec![Vec::with_capacity(n); n];
    // The cell of each region holding each value: region * n + value.
    let mut holder = vec![usize::MAX; n * n];
    for (cell, &region) in map.iter().enumerate() {
        members[region as usize].push(cell);
        holder[region as usize * n + grid[cell]] = cell;
    }
    debug_assert!(!holder.contains(&usize::MAX), "the grid repeats a value in a start region");
    let mut search = Connectivity { seen: vec![0; n * n], stamp: 0, stack: Vec::new() };
    for swap in 0..swaps_per_cell * n * n {
        if swap % 1024 == 0 && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return None;
        }
        let a = rng.below(n * n);
        let neighbours = neighbours(n, a);
        let (ra, rb) = (map[a], map[neighbours[rng.below(neighbours.len())]]);
        // a goes to b's region, and that region's cell of a's value comes
        // back, where it touches a's region (a itself is leaving it).
        let c = holder[rb as usize * n + grid[a]];
        if ra == rb || !neighbours_of_region(n, &map, c, ra, a) {
            continue;
        }
        move_cell(&mut map, &mut members, a, rb);
        move_cell(&mut map, &mut members, c, ra);
        if search.connected(n, &map, &members[ra as usize]) && search.connected(n, &map, &members[rb as usize]) {
            holder[ra as usize * n + grid[a]] = c;
            holder[rb as usize * n + grid[a]] = a;
        } else {
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

    /// The walk with a grid: n connected regions of n cells, each holding
    /// every value of the grid once, and not the boxes it starts from.
    #[test]
    fn layouts_for_a_grid_hold_every_value_once_in_each_region() {
        for n in [4, 6, 9, 16, 25] {
            let geometry = std::sync::Arc::new(crate::Geometry::classic(n).unwrap());
            let sampler = crate::GridSampler::new(geometry).unwrap().expect("boxes have grids");
            let grid = sampler.sample(&mut Rng::new(n as u64)).unwrap();
            let grid: Vec<usize> = grid.cells().iter().map(|v| v.unwrap().index()).collect();
            let mut rng = Rng::new(n as u64);
            let map = regions_for_grid(start_regions(n), &grid, GRID_SWAPS_PER_CELL, &mut rng, None).unwrap();
            for region in 0..n as u32 {
                let cells: Vec<usize> = (0..n * n).filter(|&c| map[c] == region).collect();
                assert_eq!(cells.len(), n, "n = {n}, region {region}");
                assert!(connected(n, &map, region), "n = {n}, region {region}");
                let mut values: Vec<usize> = cells.iter().map(|&c| grid[c]).collect();
                values.sort_unstable();
                assert_eq!(values, (0..n).collect::<Vec<_>>(), "n = {n}, region {region}");
            }
            let mut boxes = start_regions(n);
            renumber(&mut boxes);
            assert!(n <= 4 || map != boxes, "n = {n}: the walk never moved");
        }
    }

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
