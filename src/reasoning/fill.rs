//! A randomized depth-first search with propagation, for grids with few
//! givens: blank and sparse grids, where CDCL drowns in its own formula.
//!
//! A blank 100×100 has a million (cell, value) variables and a CNF of tens of
//! millions of literals; varisat needs seconds to load it and spends about a
//! millisecond on each conflict (blank 49×49: ~3,000 conflicts, 2–7 s). Yet
//! such a grid has solutions everywhere: deciding the cell with the fewest
//! candidates, a random value of it, and propagating naked and hidden singles
//! after each decision ([`Propagator`]) fills it with few backtracks. The
//! search is bounded; where it runs out (a puzzle near the hardness peak) the
//! CDCL search takes over. Seeded: the same seed, the same grid, and
//! different seeds give different grids (a generator's random full grids).

use std::time::Instant;

use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry, Value};
use crate::reasoning::propagate::Propagator;
use crate::rng::Rng;

/// One decision of the search: the cell, its values still to try (in the
/// random order drawn), and the trail mark to undo to before the next.
struct Decision {
    choices: Vec<(Cell, Value)>,
    mark: (usize, usize),
}

/// What the search came to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Fill {
    /// Every cell decided: a model of the candidates (still to be verified).
    Filled(Domains),
    /// Every branch failed: no solution (the search was complete).
    Exhausted,
    /// Out of backtracks, or past the deadline.
    GaveUp,
}

/// Search `domains` (at a propagation fixpoint or not) for a full grid,
/// seeded by `seed`: up to `attempts` searches from the start, each given up
/// after `backtracks` failed values (restarts: an early wrong decision is
/// rarely undone by backtracking).
pub(crate) fn fill(
    geometry: &Geometry,
    domains: &Domains,
    seed: u64,
    limits: (u32, u64),
    deadline: Option<Instant>,
) -> Fill {
    search(geometry, domains, None, seed, limits, deadline)
}

/// [`fill`], deciding only `cells`: done ([`Fill::Filled`], the other cells
/// as propagation leaves them) once each of them has one candidate. What is
/// decided holds in every unit, and propagation over the whole grid found
/// no contradiction in it; whether the rest completes is the caller's to
/// find out.
pub(crate) fn decide(
    geometry: &Geometry,
    domains: &Domains,
    cells: &[Cell],
    seed: u64,
    limits: (u32, u64),
    deadline: Option<Instant>,
) -> Fill {
    search(geometry, domains, Some(cells), seed, limits, deadline)
}

/// [`fill`] on every cell (`cells` `None`), or [`decide`] on some.
fn search(
    geometry: &Geometry,
    domains: &Domains,
    cells: Option<&[Cell]>,
    seed: u64,
    (attempts, backtracks): (u32, u64),
    deadline: Option<Instant>,
) -> Fill {
    let mut p = Propagator::with_domains(geometry, domains.clone());
    p.start_trail();
    if p.propagate().is_err() {
        return Fill::Exhausted;
    }
    let start = p.mark();
    let mut rng = Rng::new(seed);
    for _ in 0..attempts {
        p.undo_to(start);
        match attempt(geometry, cells, &mut p, &mut rng, backtracks, deadline) {
            Fill::GaveUp => continue,
            done => return done,
        }
    }
    Fill::GaveUp
}

/// One search of [`search`] from where `p` stands, over `cells` (all of
/// them where `None`).
fn attempt(
    geometry: &Geometry,
    cells: Option<&[Cell]>,
    p: &mut Propagator,
    rng: &mut Rng,
    backtracks: u64,
    deadline: Option<Instant>,
) -> Fill {
    let mut stack: Vec<Decision> = Vec::new();
    let mut failed = 0;
    let mut last = rng.below(cells.map_or(geometry.cell_count(), <[Cell]>::len));
    loop {
        let next = match cells {
            None if p.all_placed() => None,
            None => Some(fewest_candidates(geometry.cell_count(), Cell::from_index, p.domains(), last)),
            Some(cells) => {
                let k = fewest_candidates(cells.len(), |k| cells[k], p.domains(), last);
                cells.get(k).filter(|&&cell| p.domains().count(cell) > 1).map(|_| k)
            }
        };
        let Some(next) = next else {
            return Fill::Filled(p.domains().clone());
        };
        // The clock is read every 64 decisions: a decision costs far less.
        if stack.len() % 64 == 0 && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return Fill::GaveUp;
        }
        last = next;
        let cell = cells.map_or(Cell::from_index(next), |cells| cells[next]);
        let mut choices: Vec<(Cell, Value)> = p.domains().values(cell).map(|v| (cell, v)).collect();
        rng.shuffle(&mut choices);
        stack.push(Decision { choices, mark: p.mark() });
        // Try the next value of the deepest decision; backtrack while it has none.
        loop {
            let Some(top) = stack.last_mut() else { return Fill::Exhausted };
            let Some((cell, value)) = top.choices.pop() else {
                stack.pop();
                continue;
            };
            let mark = top.mark;
            p.undo_to(mark);
            if p.assign(cell, value).and_then(|()| p.propagate()).is_ok() {
                break;
            }
            failed += 1;
            if failed > backtracks {
                return Fill::GaveUp;
            }
        }
    }
}

/// Among the `len` cells `at(0)`, `at(1)`, …, the position of an undecided
/// one with the fewest candidates, the first found scanning from `start`
/// (the last decided: the tightest cells are near it); `start` itself where
/// every cell is decided. A cell of two ends the scan.
fn fewest_candidates(len: usize, at: impl Fn(usize) -> Cell, domains: &Domains, start: usize) -> usize {
    let mut best = (usize::MAX, start);
    for k in 0..len {
        let position = (start + k) % len;
        let count = domains.count(at(position));
        if count > 1 && count < best.0 {
            best = (count, position);
            if count == 2 {
                break;
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::puzzle::Grid;
    use crate::testing::checker::{check, Shape};

    fn numbers(grid: &Grid) -> Vec<usize> {
        grid.cells().iter().map(|v| v.map_or(0, |v| v.index() + 1)).collect()
    }

    fn filled(geometry: &Geometry, domains: &Domains, seed: u64) -> Vec<usize> {
        match fill(geometry, domains, seed, (1, 100_000), None) {
            Fill::Filled(model) => numbers(&model.decided()),
            other => panic!("{other:?}"),
        }
    }

    /// Blank grids of several shapes fill, every grid checked by the
    /// independent checker, and different seeds give different grids.
    #[test]
    fn blank_grids_fill_with_checked_grids_that_differ_by_seed() {
        for (n, rows, cols) in [(4, 2, 2), (6, 2, 3), (9, 3, 3), (12, 3, 4), (16, 4, 4), (25, 5, 5)] {
            let geometry = Geometry::classic(n).unwrap();
            let blank = Domains::full(n);
            let a = filled(&geometry, &blank, 1);
            let b = filled(&geometry, &blank, 2);
            let shape = Shape::boxes(n, rows, cols);
            check(&shape, &vec![0; n * n], &a).unwrap();
            check(&shape, &vec![0; n * n], &b).unwrap();
            assert_ne!(a, b, "{n}x{n}: two seeds, one grid");
        }
    }

    /// A search that must backtrack still ends right: three cells of a row
    /// with only 1 and 2 between them (singles do not see it) exhaust the
    /// search; with two such cells the grid fills, checked.
    #[test]
    fn exhausted_only_without_a_solution() {
        let geometry = Geometry::classic(9).unwrap();
        let shape = Shape::boxes(9, 3, 3);
        let narrowed = |cells: &[usize]| {
            let mut domains = Domains::full(9);
            for &cell in cells {
                for v in 2..9 {
                    domains.remove(Cell::from_index(cell), Value::from_index(v));
                }
            }
            domains
        };
        assert_eq!(fill(&geometry, &narrowed(&[0, 1, 2]), 7, (1, 1_000), None), Fill::Exhausted);
        let grid = filled(&geometry, &narrowed(&[0, 4]), 3);
        check(&shape, &vec![0; 81], &grid).unwrap();
        assert!(grid[0] <= 2 && grid[4] <= 2);
    }
}
