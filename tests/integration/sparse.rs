//! Blank and sparse grids: solved by the construction from matchings (box
//! layouts), the seeded fill (then the CDCL search where they give up), every grid checked by the independent checker, and
//! different seeds give different grids, as a generator needs.

use std::sync::Arc;

use std::time::Duration;

use satdoku::{solve, Geometry, Grid, Layout, Outcome, Puzzle, SolveOptions, Value, Variant};

use crate::util::checker::{assert_solves, numbers, Rng, Shape};

fn solved(puzzle: &Puzzle, seed: u64) -> Vec<usize> {
    let options = SolveOptions { seed, ..SolveOptions::default() };
    match solve(puzzle, &options).unwrap() {
        Outcome::Solved(grid) => numbers(&grid),
        other => panic!("{other:?}"),
    }
}

fn puzzle(geometry: &Arc<Geometry>, cells: &[usize]) -> Puzzle {
    let n = geometry.size();
    let cells = cells.iter().map(|&v| if v == 0 { None } else { Value::new_checked(v, n) }).collect();
    Puzzle::new(Arc::clone(geometry), Grid::from_cells(n, cells).unwrap()).unwrap()
}

#[test]
fn blank_grids_are_solved_and_seeds_give_different_grids() {
    for (n, rows, cols) in [(12, 3, 4), (16, 4, 4), (25, 5, 5), (36, 6, 6), (100, 10, 10)] {
        let geometry = Arc::new(Geometry::classic(n).unwrap());
        let blank = vec![0; n * n];
        let p = puzzle(&geometry, &blank);
        let (a, b) = (solved(&p, 1), solved(&p, 2));
        let shape = Shape::boxes(n, rows, cols);
        assert_solves(&shape, &blank, &a, "blank, seed 1");
        assert_solves(&shape, &blank, &b, "blank, seed 2");
        assert_ne!(a, b, "{n}x{n}: seeds 1 and 2 gave one grid");
    }
}

/// Blank 81×81 and a Latin square: the matchings fill them too (the
/// cell-by-cell fill did not fill a blank 81×81 within 10 s).
#[test]
fn a_blank_81_and_a_blank_latin_square_are_solved() {
    let geometry = Arc::new(Geometry::classic(81).unwrap());
    let blank = vec![0; 81 * 81];
    let grid = solved(&puzzle(&geometry, &blank), 5);
    assert_solves(&Shape::boxes(81, 9, 9), &blank, &grid, "blank 81x81");
    let latin = Arc::new(Geometry::latin(13).unwrap());
    let blank = vec![0; 13 * 13];
    let (a, b) = (solved(&puzzle(&latin, &blank), 1), solved(&puzzle(&latin, &blank), 2));
    assert_solves(&Shape::latin(13), &blank, &a, "blank latin 13, seed 1");
    assert_solves(&Shape::latin(13), &blank, &b, "blank latin 13, seed 2");
    assert_ne!(a, b, "latin 13: seeds 1 and 2 gave one grid");
}

/// A blank 256×256, refused before as too large to encode: the matchings
/// build it without a formula.
#[test]
fn a_blank_256_is_solved_without_its_formula() {
    let geometry = Arc::new(Geometry::classic(256).unwrap());
    let blank = vec![0; 256 * 256];
    let grid = solved(&puzzle(&geometry, &blank), 3);
    assert_solves(&Shape::boxes(256, 16, 16), &blank, &grid, "blank 256x256");
}

/// Sparse 64×64 grids, where the matchings run out and the search within
/// the values' rows takes over (neither the fill nor CDCL solved the 5% and
/// 10% ones within 10 s before).
#[test]
fn sparse_64_grids_keep_their_givens() {
    let (n, shape) = (64, Shape::boxes(64, 8, 8));
    let geometry = Arc::new(Geometry::classic(n).unwrap());
    let full = solved(&puzzle(&geometry, &vec![0; n * n]), 9);
    let mut rng = Rng::new(5);
    for percent in [1, 5, 10] {
        let givens: Vec<usize> = full.iter().map(|&v| if rng.below(100) < percent { v } else { 0 }).collect();
        let solution = solved(&puzzle(&geometry, &givens), 4);
        assert_solves(&shape, &givens, &solution, &format!("64x64, {percent}% given"));
    }
}

#[test]
fn sparse_grids_keep_their_givens() {
    let (n, shape) = (36, Shape::boxes(36, 6, 6));
    let geometry = Arc::new(Geometry::classic(n).unwrap());
    let full = solved(&puzzle(&geometry, &vec![0; n * n]), 7);
    let mut rng = Rng::new(11);
    for percent in [1, 5, 10] {
        let givens: Vec<usize> = full.iter().map(|&v| if rng.below(100) < percent { v } else { 0 }).collect();
        let solution = solved(&puzzle(&geometry, &givens), 3);
        assert_solves(&shape, &givens, &solution, &format!("{percent}% given"));
    }
}

/// The sparse big grids: a 144×144 and a Latin square of 225 with a
/// tenth of their cells given. Before the stacks' tabu search, neither got
/// an answer (puzzles of the same recipe, three seeds each: none in 10 s
/// and in 20 s): the draws failed on the stacks, and CDCL ran out of
/// conflicts on most of the 144×144's.
#[test]
fn sparse_big_grids_with_a_tenth_given_are_solved() {
    let cases = [
        (Geometry::classic(144).unwrap(), Shape::boxes(144, 12, 12)),
        (Geometry::latin(225).unwrap(), Shape::latin(225)),
    ];
    for (geometry, shape) in cases {
        let n = geometry.size();
        let geometry = Arc::new(geometry);
        let full = solved(&puzzle(&geometry, &vec![0; n * n]), 2);
        let mut rng = Rng::new(13);
        let givens: Vec<usize> = full.iter().map(|&v| if rng.below(10) == 0 { v } else { 0 }).collect();
        let solution = solved(&puzzle(&geometry, &givens), 6);
        assert_solves(&shape, &givens, &solution, &format!("{n}x{n}, 10% given"));
    }
}

/// X-sudoku's diagonals on blank and sparse grids: their cells are decided
/// first, then the box (or Latin) layout is woven around them. Before, a
/// blank 64×64 X-sudoku got no answer in 30 s, from varisat or from
/// CaDiCaL, nor did a blank 100×100 or a blank diagonal Latin square of 101.
/// Each grid is checked with both diagonals by the independent checker.
#[test]
fn blank_and_sparse_x_sudoku_grids_are_solved() {
    let x = [Variant::X];
    let cases = [
        (Geometry::new(64, Layout::Boxes { rows: 8, cols: 8 }, &x), Shape::boxes(64, 8, 8)),
        (Geometry::new(100, Layout::Boxes { rows: 10, cols: 10 }, &x), Shape::boxes(100, 10, 10)),
        (Geometry::new(101, Layout::Latin, &x), Shape::latin(101)),
    ];
    let solved = solved_within_a_minute;
    for (geometry, shape) in cases {
        let (geometry, shape) = (Arc::new(geometry.unwrap()), shape.with_diagonals());
        let n = geometry.size();
        let blank = vec![0; n * n];
        let (a, b) = (solved(&puzzle(&geometry, &blank), 1), solved(&puzzle(&geometry, &blank), 2));
        assert_solves(&shape, &blank, &a, &format!("blank {n}x{n} X, seed 1"));
        assert_solves(&shape, &blank, &b, &format!("blank {n}x{n} X, seed 2"));
        assert_ne!(a, b, "{n}x{n} X: seeds 1 and 2 gave one grid");
        let mut rng = Rng::new(n as u64);
        for percent in [1, 5, 10] {
            let givens = keep_share(&a, percent, &mut rng);
            let solution = solved(&puzzle(&geometry, &givens), 3);
            assert_solves(&shape, &givens, &solution, &format!("{n}x{n} X, {percent}% given"));
        }
    }
}

/// Between 10% and 20% given, plain grids from 36×36 and X-sudoku from
/// 49×49 are built by the construction too. With the construction stopping
/// at 10%, the CDCL search gave these no answer in 10 s (64×64, 15% and
/// 20% given; X-sudoku 64×64, 15%).
#[test]
fn grids_with_up_to_a_fifth_given_are_built_from_36() {
    let cases = [
        (Geometry::classic(64).unwrap(), Shape::boxes(64, 8, 8), &[15, 20][..]),
        (
            Geometry::new(64, Layout::Boxes { rows: 8, cols: 8 }, &[Variant::X]).unwrap(),
            Shape::boxes(64, 8, 8).with_diagonals(),
            &[15],
        ),
    ];
    for (geometry, shape, percents) in cases {
        let geometry = Arc::new(geometry);
        let n = geometry.size();
        let full = solved_within_a_minute(&puzzle(&geometry, &vec![0; n * n]), 4);
        let mut rng = Rng::new(17);
        for &percent in percents {
            let givens = keep_share(&full, percent, &mut rng);
            let solution = solved_within_a_minute(&puzzle(&geometry, &givens), 5);
            assert_solves(&shape, &givens, &solution, &format!("{}, {percent}% given", geometry.describe()));
        }
    }
}

/// A verified solution, with a timeout that turns a search that would run
/// for minutes into a failure.
fn solved_within_a_minute(puzzle: &Puzzle, seed: u64) -> Vec<usize> {
    let options = SolveOptions { seed, timeout: Some(Duration::from_secs(60)), ..SolveOptions::default() };
    match solve(puzzle, &options).unwrap() {
        Outcome::Solved(grid) => numbers(&grid),
        other => panic!("{}, {} given: {other:?}", puzzle.geometry().describe(), puzzle.givens().filled_count()),
    }
}

/// Exactly `percent` of `full`'s cells, drawn at random; the others blank.
fn keep_share(full: &[usize], percent: usize, rng: &mut Rng) -> Vec<usize> {
    let mut cells: Vec<usize> = (0..full.len()).collect();
    rng.shuffle(&mut cells);
    let mut givens = vec![0; full.len()];
    for &cell in &cells[..full.len() * percent / 100] {
        givens[cell] = full[cell];
    }
    givens
}
