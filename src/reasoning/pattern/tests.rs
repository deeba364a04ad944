//! The pattern guess ([`super::ValueGroups`] and its use in `solve_with_stats`),
//! checked against a model built here: shuffled pattern grids generated with
//! their true value groups, the groups a set of known cells shows computed by
//! a graph search of this file's own (not the library's union-find), the
//! shape checked piece by piece, and every solution checked with the
//! independent checker of the integration tests (tests/integration/util/checker.rs).

use crate::testing::checker as common;

use std::sync::Arc;

use common::{assert_solves, numbers, read_symbols, Rng, Shape};
use proptest::prelude::*;
use varisat::{ExtendFormula, Solver};

use super::{Axis, ValueGroups};
use crate::cnf::{encode_full, encode_reduced, AmoEncoding, EncodeOptions};
use crate::{
    solve_with_stats, Cell, Domains, Encoding, Geometry, Grid, Guess, Layout, Outcome, Puzzle, SolveOptions, Stats,
    Value,
};

const AXES: [Axis; 2] = [Axis::Columns, Axis::Rows];

/// The box shapes (rows × columns) of the generated grids.
const SHAPES: [(usize, usize); 8] = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 3), (3, 4), (4, 4)];

// ---------------------------------------------------------------------------
// The model: pieces, groups and the shape, from first principles.
// Grids are row-major values 1..=n, 0 = empty; groups are a label per value
// index (value k has index k - 1), compared only as partitions.

/// The cells a piece has along `axis`: `br` (box rows) cells for a column's
/// piece within a band, `bc` (box columns) for a row's piece within a stack.
fn piece_len(br: usize, bc: usize, axis: Axis) -> usize {
    match axis {
        Axis::Columns => br,
        Axis::Rows => bc,
    }
}

/// Every piece along `axis`, as row-major cell indices.
fn pieces(n: usize, br: usize, bc: usize, axis: Axis) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    match axis {
        Axis::Columns => {
            for col in 0..n {
                for band in 0..n / br {
                    out.push((0..br).map(|i| (band * br + i) * n + col).collect());
                }
            }
        }
        Axis::Rows => {
            for row in 0..n {
                for stack in 0..n / bc {
                    out.push((0..bc).map(|j| row * n + stack * bc + j).collect());
                }
            }
        }
    }
    out
}

/// The groups the filled cells show along `axis`: values linked when they
/// share a piece, groups the connected components (labelled by their
/// smallest value index); `None` unless every group has exactly a piece's
/// length of values.
fn shown_groups(n: usize, br: usize, bc: usize, cells: &[usize], axis: Axis) -> Option<Vec<usize>> {
    let mut linked = vec![vec![false; n]; n];
    for piece in pieces(n, br, bc, axis) {
        let values: Vec<usize> = piece.iter().map(|&i| cells[i]).filter(|&v| v != 0).map(|v| v - 1).collect();
        for &a in &values {
            for &b in &values {
                linked[a][b] = true;
            }
        }
    }
    let mut label = vec![usize::MAX; n];
    for start in 0..n {
        if label[start] != usize::MAX {
            continue;
        }
        label[start] = start;
        let (mut stack, mut members) = (vec![start], 0);
        while let Some(v) = stack.pop() {
            members += 1;
            for w in 0..n {
                if linked[v][w] && label[w] == usize::MAX {
                    label[w] = start;
                    stack.push(w);
                }
            }
        }
        if members != piece_len(br, bc, axis) {
            return None;
        }
    }
    Some(label)
}

/// Whether two labellings put the same values together.
fn same_partition(a: &[usize], b: &[usize]) -> bool {
    a.len() == b.len() && (0..a.len()).all(|i| (0..a.len()).all(|j| (a[i] == a[j]) == (b[i] == b[j])))
}

/// Whether a grid has the shape along `axis` for `groups`: every cell filled
/// and the values of each piece all of one group.
fn has_shape(n: usize, br: usize, bc: usize, cells: &[usize], axis: Axis, groups: &[usize]) -> bool {
    cells.iter().all(|&v| v != 0)
        && pieces(n, br, bc, axis)
            .iter()
            .all(|piece| piece.iter().all(|&i| groups[cells[i] - 1] == groups[cells[piece[0]] - 1]))
}

/// What `ValueGroups::find` should report for `cells`: each axis whose
/// pieces show groups, with them.
fn expected_groups(n: usize, br: usize, bc: usize, cells: &[usize]) -> Vec<(Axis, Vec<usize>)> {
    AXES.iter().filter_map(|&axis| shown_groups(n, br, bc, cells, axis).map(|g| (axis, g))).collect()
}

/// The cells the reduced encoding knows before search: the givens, and each
/// empty cell whose row, column and box givens leave it one value (one pass,
/// nothing propagated further), computed from the checker's units.
fn known_after_givens(shape: &Shape, givens: &[usize]) -> Vec<usize> {
    let n = shape.n;
    let mut known = givens.to_vec();
    for cell in 0..n * n {
        if givens[cell] != 0 {
            continue;
        }
        let mut open = vec![true; n + 1];
        for unit in shape.units.iter().filter(|u| u.contains(&cell)) {
            for &peer in unit {
                open[givens[peer]] = false;
            }
        }
        let left: Vec<usize> = (1..=n).filter(|&v| open[v]).collect();
        if let [only] = left[..] {
            known[cell] = only;
        }
    }
    known
}

// ---------------------------------------------------------------------------
// The library's side.

fn geometry(br: usize, bc: usize) -> Arc<Geometry> {
    Arc::new(Geometry::new(br * bc, Layout::Boxes { rows: br, cols: bc }, &[]).expect("a box geometry"))
}

fn grid_of(n: usize, cells: &[usize]) -> Grid {
    let cells = cells.iter().map(|&v| if v == 0 { None } else { Some(Value::new_checked(v, n).expect("1..=n")) });
    Grid::from_cells(n, cells.collect()).expect("n² cells")
}

fn puzzle_of(geometry: &Arc<Geometry>, cells: &[usize]) -> Puzzle {
    Puzzle::new(Arc::clone(geometry), grid_of(geometry.size(), cells)).expect("same size")
}

/// A `ValueGroups` as a labelling by value index, after checking that its
/// numbering is the one it documents (0..count, count = n / piece length).
fn labels(groups: &ValueGroups, n: usize, br: usize, bc: usize) -> Vec<usize> {
    let labels: Vec<usize> = (1..=n).map(|k| groups.group_of(Value::new_checked(k, n).unwrap())).collect();
    let count = n / piece_len(br, bc, groups.axis());
    assert_eq!(groups.count(), count, "{:?}: groups counted", groups.axis());
    for g in 0..count {
        let members = labels.iter().filter(|&&l| l == g).count();
        assert_eq!(members, piece_len(br, bc, groups.axis()), "{:?}: group {g} of {labels:?}", groups.axis());
    }
    labels
}

/// What `ValueGroups::find` reports for `cells`, as (axis, labels).
fn reported_groups(geometry: &Geometry, br: usize, bc: usize, cells: &[usize]) -> Vec<(Axis, Vec<usize>)> {
    let n = geometry.size();
    ValueGroups::find(geometry, &grid_of(n, cells)).iter().map(|g| (g.axis(), labels(g, n, br, bc))).collect()
}

/// The reported groups must be the expected ones: the same axes, each once,
/// with the same partition.
fn assert_same_groups(reported: &[(Axis, Vec<usize>)], expected: &[(Axis, Vec<usize>)], what: &str) {
    let axes = |groups: &[(Axis, Vec<usize>)]| AXES.map(|a| groups.iter().filter(|(axis, _)| *axis == a).count());
    assert_eq!(axes(reported), axes(expected), "{what}: axes reported {reported:?}, expected {expected:?}");
    for (axis, groups) in expected {
        let (_, found) = reported.iter().find(|(a, _)| a == axis).unwrap();
        assert!(same_partition(found, groups), "{what}: {axis:?} groups {found:?}, expected {groups:?}");
    }
}

/// Solve; the solution as numbers and the stats. Anything but a solution panics.
fn solve_ok(puzzle: &Puzzle, encoding: Encoding, pattern_guess: bool, what: &str) -> (Vec<usize>, Stats) {
    let options = SolveOptions { encoding, pattern_guess, ..SolveOptions::default() };
    match solve_with_stats(puzzle, &options, None) {
        Ok((Outcome::Solved(grid), stats)) => (numbers(&grid), stats),
        Ok((outcome, stats)) => panic!("{what} ({encoding}, guess {pattern_guess}): {outcome:?}, {stats:?}"),
        Err(e) => panic!("{what} ({encoding}, guess {pattern_guess}): internal error: {e}"),
    }
}

// ---------------------------------------------------------------------------
// The generator.

/// A shuffled pattern grid and what the test knows of it.
#[derive(Debug)]
struct PatternGrid {
    br: usize,
    bc: usize,
    cells: Vec<usize>,
    /// The axis along which its pieces hold whole groups.
    axis: Axis,
    /// The true groups, by value index.
    groups: Vec<usize>,
}

/// The lines 0..n in blocks of `block`, blocks shuffled and lines within each.
fn shuffled_lines(rng: &mut Rng, n: usize, block: usize) -> Vec<usize> {
    let mut blocks: Vec<usize> = (0..n / block).collect();
    rng.shuffle(&mut blocks);
    let mut lines = Vec::new();
    for b in blocks {
        let mut within: Vec<usize> = (0..block).collect();
        rng.shuffle(&mut within);
        lines.extend(within.into_iter().map(|i| b * block + i));
    }
    lines
}

/// A pattern grid for boxes of `br` × `bc`, shuffled. Not transposed: the
/// pattern of R×C = br×bc boxes, `(C·(r mod R) + ⌊r/R⌋ + c) mod n`, whose
/// value v is in group v mod C, one group to each column's piece of a band.
/// Transposed: the pattern of R×C = bc×br boxes with rows and columns
/// swapped (so its boxes are br×bc), groups v mod br, one to each row's
/// piece of a stack.
fn pattern_grid(rng: &mut Rng, br: usize, bc: usize, transposed: bool) -> PatternGrid {
    let n = br * bc;
    let (r_, c_) = if transposed { (bc, br) } else { (br, bc) };
    let base = |r: usize, c: usize| (c_ * (r % r_) + r / r_ + c) % n;
    let raw = |r: usize, c: usize| if transposed { base(c, r) } else { base(r, c) };
    let rows = shuffled_lines(rng, n, br);
    let cols = shuffled_lines(rng, n, bc);
    let mut relabel: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut relabel);
    let mut cells = vec![0; n * n];
    for r in 0..n {
        for c in 0..n {
            cells[r * n + c] = relabel[raw(rows[r], cols[c])] + 1;
        }
    }
    let mut groups = vec![0; n];
    for v in 0..n {
        groups[relabel[v]] = v % c_;
    }
    let axis = if transposed { Axis::Rows } else { Axis::Columns };
    PatternGrid { br, bc, cells, axis, groups }
}

/// The generator's own claims, checked without the library: a valid grid,
/// with the shape for its groups (C groups of R values, or R of C).
fn check_generated(p: &PatternGrid) {
    let n = p.br * p.bc;
    assert_solves(&Shape::boxes(n, p.br, p.bc), &vec![0; n * n], &p.cells, "generated pattern grid");
    let size = piece_len(p.br, p.bc, p.axis);
    for g in 0..n / size {
        assert_eq!(p.groups.iter().filter(|&&l| l == g).count(), size, "group {g} of {:?}", p.groups);
    }
    assert!(has_shape(n, p.br, p.bc, &p.cells, p.axis, &p.groups), "generated grid without its shape: {p:?}");
    let shown = shown_groups(n, p.br, p.bc, &p.cells, p.axis).expect("a complete pattern grid shows its groups");
    assert!(same_partition(&shown, &p.groups), "{p:?}: the model shows {shown:?}");
}

/// Blank each cell of `cells` with probability `percent`/100.
fn blank(rng: &mut Rng, cells: &[usize], percent: usize) -> Vec<usize> {
    cells.iter().map(|&v| if rng.below(100) < percent { 0 } else { v }).collect()
}

// ---------------------------------------------------------------------------
// ValueGroups::find and fits on complete and partial grids.

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A complete shuffled pattern grid shows its true groups on its axis
    /// (and `find` reports exactly the axes the model finds), and fits them;
    /// with two values of different groups swapped everywhere it is still a
    /// valid grid but no longer fits those groups.
    #[test]
    fn find_reports_the_true_groups_of_a_complete_pattern_grid(
        shape in 0..SHAPES.len(),
        transposed: bool,
        seed: u64,
    ) {
        let (br, bc) = SHAPES[shape];
        let n = br * bc;
        let mut rng = Rng::new(seed);
        let p = pattern_grid(&mut rng, br, bc, transposed);
        check_generated(&p);
        let geometry = geometry(br, bc);
        let grid = grid_of(n, &p.cells);

        let reported = reported_groups(&geometry, br, bc, &p.cells);
        assert_same_groups(&reported, &expected_groups(n, br, bc, &p.cells), "complete pattern grid");
        let (_, found) = reported.iter().find(|(a, _)| *a == p.axis).expect("the true axis is reported");
        prop_assert!(same_partition(found, &p.groups), "found {:?}, true {:?}", found, p.groups);
        let found_groups = ValueGroups::find(&geometry, &grid);
        for groups in &found_groups {
            prop_assert!(groups.fits(&geometry, &grid), "{:?} does not fit its own grid", groups.axis());
        }

        // Swap a value with one of another group: a valid grid, not of the shape.
        let a = rng.below(n);
        let b = (0..n).map(|i| (a + 1 + i) % n).find(|&b| p.groups[b] != p.groups[a]).unwrap();
        let swapped: Vec<usize> = p
            .cells
            .iter()
            .map(|&v| if v == a + 1 { b + 1 } else if v == b + 1 { a + 1 } else { v })
            .collect();
        assert_solves(&Shape::boxes(n, br, bc), &vec![0; n * n], &swapped, "swapped grid");
        prop_assert!(!has_shape(n, br, bc, &swapped, p.axis, &p.groups));
        let true_groups = found_groups.iter().find(|g| g.axis() == p.axis).unwrap();
        prop_assert!(!true_groups.fits(&geometry, &grid_of(n, &swapped)), "fits a grid whose pieces mix groups");
        // (The swapped grid is itself a relabelled pattern grid: find sees its
        // groups, with a and b exchanged.)
        assert_same_groups(
            &reported_groups(&geometry, br, bc, &swapped),
            &expected_groups(n, br, bc, &swapped),
            "swapped grid",
        );
    }

    /// On a partial grid `find` reports what the model's graph search shows,
    /// and on the true axis that can only be the true partition.
    #[test]
    fn find_on_known_cells_agrees_with_the_model(
        shape in 0..SHAPES.len(),
        transposed: bool,
        seed: u64,
        percent in 0usize..=95,
    ) {
        let (br, bc) = SHAPES[shape];
        let n = br * bc;
        let mut rng = Rng::new(seed);
        let p = pattern_grid(&mut rng, br, bc, transposed);
        let known = blank(&mut rng, &p.cells, percent);
        let expected = expected_groups(n, br, bc, &known);
        assert_same_groups(&reported_groups(&geometry(br, bc), br, bc, &known), &expected, "partial pattern grid");
        if let Some((_, shown)) = expected.iter().find(|(a, _)| *a == p.axis) {
            prop_assert!(same_partition(shown, &p.groups), "shown {:?}, true {:?}", shown, p.groups);
        }
    }
}

/// Every 4×4 grid (2×2 boxes), by backtracking over the checker's units.
fn all_4x4_grids() -> Vec<Vec<usize>> {
    fn extend(shape: &Shape, cells: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        let i = cells.len();
        if i == 16 {
            out.push(cells.clone());
            return;
        }
        for v in 1..=4 {
            let clash =
                shape.units.iter().filter(|u| u.contains(&i)).any(|u| u.iter().any(|&j| j < i && cells[j] == v));
            if !clash {
                cells.push(v);
                extend(shape, cells, out);
                cells.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(&Shape::boxes(4, 2, 2), &mut Vec::new(), &mut out);
    out
}

/// All 288 grids of 4×4: `find` agrees with the model on each, complete and
/// partly blanked, and `fits` agrees with the model for every grid against
/// every set of groups any grid shows.
#[test]
fn find_and_fits_agree_with_the_model_on_every_4x4_grid() {
    let grids = all_4x4_grids();
    assert_eq!(grids.len(), 288, "the number of 4×4 sudoku grids");
    let shape = Shape::boxes(4, 2, 2);
    let geometry = geometry(2, 2);
    let mut rng = Rng::new(4);
    let mut shown = Vec::new();
    for g in &grids {
        assert_solves(&shape, &[0; 16], g, "enumerated grid");
        let expected = expected_groups(4, 2, 2, g);
        assert_same_groups(&reported_groups(&geometry, 2, 2, g), &expected, &format!("grid {g:?}"));
        for found in ValueGroups::find(&geometry, &grid_of(4, g)) {
            shown.push(found);
        }
        for _ in 0..8 {
            let percent = 20 + rng.below(60);
            let known = blank(&mut rng, g, percent);
            let expected = expected_groups(4, 2, 2, &known);
            assert_same_groups(&reported_groups(&geometry, 2, 2, &known), &expected, &format!("known {known:?}"));
        }
    }
    // Every 4×4 grid has the shape on one axis or both: 96 on each axis
    // alone and 96 on both (counted by a separate Python enumeration too), so
    // grids that lack it are only found among the larger ones.
    let mut kinds = [[0; 2]; 2];
    for g in &grids {
        let on = |axis| shown_groups(4, 2, 2, g, axis).is_some() as usize;
        kinds[on(Axis::Columns)][on(Axis::Rows)] += 1;
    }
    assert_eq!(kinds, [[0, 96], [96, 96]], "4×4 grids by shape: [columns][rows]");
    assert_eq!(shown.len(), 96 * 4);
    for groups in &shown {
        let labels = labels(groups, 4, 2, 2);
        for g in &grids {
            assert_eq!(
                groups.fits(&geometry, &grid_of(4, g)),
                has_shape(4, 2, 2, g, groups.axis(), &labels),
                "fits {:?} {labels:?} on {g:?}",
                groups.axis()
            );
        }
    }
}

/// Solutions of real 9×9 puzzles are not pattern grids: the model finds no
/// groups on either axis, and neither does `find`, and no 9×9 pattern grid's
/// groups fit them.
#[test]
fn find_reports_nothing_on_grids_not_of_the_shape() {
    let geometry = geometry(3, 3);
    let shape = Shape::boxes(9, 3, 3);
    let mut rng = Rng::new(9);
    let patterns: Vec<ValueGroups> = (0..4)
        .flat_map(|i| {
            let p = pattern_grid(&mut rng, 3, 3, i % 2 == 1);
            ValueGroups::find(&geometry, &grid_of(9, &p.cells))
        })
        .collect();
    assert!(!patterns.is_empty());
    for (i, line) in common::data_lines("top95.txt").iter().take(6).enumerate() {
        let givens = read_symbols(line);
        let what = format!("top95 puzzle {}", i + 1);
        let (solution, _) = solve_ok(&puzzle_of(&geometry, &givens), Encoding::default(), false, &what);
        assert_solves(&shape, &givens, &solution, &what);
        for axis in AXES {
            let mixed = pieces(9, 3, 3, axis).iter().any(|piece| {
                let other = pieces(9, 3, 3, axis);
                other.iter().any(|q| {
                    let shared = piece.iter().filter(|&&i| q.iter().any(|&j| solution[j] == solution[i])).count();
                    shared != 0 && shared != piece.len()
                })
            });
            assert!(mixed, "{what}: the solution's {axis:?} pieces partition the values");
            assert_eq!(shown_groups(9, 3, 3, &solution, axis), None, "{what}: {axis:?}");
        }
        assert_eq!(ValueGroups::find(&geometry, &grid_of(9, &solution)), vec![], "{what}: groups found");
        for groups in &patterns {
            assert!(!groups.fits(&geometry, &grid_of(9, &solution)), "{what}: fits {groups:?}");
        }
    }
}

/// `ValueGroups::encode` admits exactly the completions of the shape: for
/// random 4×4 puzzles whose known cells show groups, each completion (among
/// all 288 grids) pinned by unit clauses on top of the puzzle's formula and
/// the guess is satisfiable if and only if the model says it has the shape on
/// every axis guessed. Over the full encoding (the givens known) and the
/// reduced one (the givens and the cells they leave one value, which have no
/// variables and reach the shape only through its clauses for decided cells),
/// with each at-most-one encoding.
#[test]
fn the_shape_clauses_admit_exactly_the_completions_of_the_shape() {
    let grids = all_4x4_grids();
    let shape = Shape::boxes(4, 2, 2);
    let geometry = geometry(2, 2);
    let mut rng = Rng::new(44);
    let (mut admitted, mut excluded) = (0, 0);
    for _ in 0..300 {
        let generating = &grids[rng.below(grids.len())];
        let percent = 40 + rng.below(45);
        let givens = blank(&mut rng, generating, percent);
        let completions: Vec<&Vec<usize>> =
            grids.iter().filter(|g| givens.iter().zip(g.iter()).all(|(&a, &b)| a == 0 || a == b)).collect();
        for reduced in [false, true] {
            let known = if reduced { known_after_givens(&shape, &givens) } else { givens.clone() };
            let guesses = ValueGroups::find(&geometry, &grid_of(4, &known));
            assert_same_groups(
                &guesses.iter().map(|g| (g.axis(), labels(g, 4, 2, 2))).collect::<Vec<_>>(),
                &expected_groups(4, 2, 2, &known),
                &format!("known {known:?}"),
            );
            if guesses.is_empty() {
                continue;
            }
            let amo = [AmoEncoding::Pairwise, AmoEncoding::Sequential, AmoEncoding::Product][rng.below(3)];
            for completion in &completions {
                let mut solver = Solver::new();
                let givens_grid = grid_of(4, &givens);
                let options = EncodeOptions { amo };
                let map = if reduced {
                    encode_reduced(&geometry, &Domains::after_givens(&geometry, &givens_grid), options, &mut solver)
                } else {
                    encode_full(&geometry, &givens_grid, options, &mut solver)
                };
                for groups in &guesses {
                    groups.encode(&geometry, &map, amo, &mut solver);
                }
                for (i, &v) in completion.iter().enumerate() {
                    let (cell, value) = (Cell::from_index(i), Value::new_checked(v, 4).unwrap());
                    match map.decided().get(cell) {
                        Some(decided) => assert_eq!(decided, value, "a decided cell of {givens:?} differs"),
                        None => {
                            let var = map.var(cell, value).expect("a completion's value has a variable");
                            solver.add_clause(&[var.positive()]);
                        }
                    }
                }
                let fits = guesses.iter().all(|g| has_shape(4, 2, 2, completion, g.axis(), &labels(g, 4, 2, 2)));
                let sat = solver.solve().expect("varisat");
                assert_eq!(
                    sat, fits,
                    "givens {givens:?} (reduced: {reduced}, {amo:?}), guesses {guesses:?}, completion {completion:?}"
                );
                if fits {
                    admitted += 1;
                } else {
                    excluded += 1;
                }
            }
        }
    }
    // Both sides were exercised.
    assert!(admitted > 50 && excluded > 50, "admitted {admitted}, excluded {excluded}");
}

// ---------------------------------------------------------------------------
// Solving puzzles made from pattern grids.

/// Check a solve's guess against the groups the solver could see: `known`
/// (the cells the encoding knows before search). No groups: no guess. Groups
/// that the generating grid fits: the guess must be found (the grid satisfies
/// the puzzle and the shape). A found guess: the solution has every shape guessed.
fn check_guess(p: &PatternGrid, known: &[usize], solution: &[usize], guess: Guess, what: &str) {
    let (br, bc) = (p.br, p.bc);
    let n = br * bc;
    let shown = expected_groups(n, br, bc, known);
    for (axis, groups) in &shown {
        if *axis == p.axis {
            // Each shown group lies within a true one and has its size.
            assert!(same_partition(groups, &p.groups), "{what}: shown {groups:?}, true {:?}", p.groups);
        }
    }
    if shown.is_empty() {
        assert_eq!(guess, Guess::None, "{what}: a guess without groups shown");
        return;
    }
    assert_ne!(guess, Guess::None, "{what}: groups shown ({shown:?}) but no guess");
    if shown.iter().all(|(axis, groups)| has_shape(n, br, bc, &p.cells, *axis, groups)) {
        assert_eq!(guess, Guess::Found, "{what}: the generating grid has the guessed shape {shown:?}");
    }
    if guess == Guess::Found {
        for (axis, groups) in &shown {
            assert!(has_shape(n, br, bc, solution, *axis, groups), "{what}: solution without the shape {axis:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A pattern grid with 20–75% of its cells blanked is solved by every
    /// encoding, with and without the guess; the guess is made exactly when
    /// the known cells show groups (for the encodings whose known cells the
    /// test can work out), and found whenever the generating grid has the
    /// shape guessed.
    #[test]
    fn a_blanked_pattern_grid_is_solved_with_and_without_the_guess(
        shape in 0..SHAPES.len(),
        transposed: bool,
        seed: u64,
        percent in 20usize..=75,
    ) {
        let (br, bc) = SHAPES[shape];
        let n = br * bc;
        let checker = Shape::boxes(n, br, bc);
        let mut rng = Rng::new(seed);
        let p = pattern_grid(&mut rng, br, bc, transposed);
        let givens = blank(&mut rng, &p.cells, percent);
        let puzzle = puzzle_of(&geometry(br, bc), &givens);
        let what = format!("{br}x{bc} {:?} seed {seed}, {percent}% blank", p.axis);

        // Reduced: the solver knows the givens and the cells they leave one value.
        let (solution, stats) = solve_ok(&puzzle, Encoding::Reduced, true, &what);
        assert_solves(&checker, &givens, &solution, &format!("{what}, reduced"));
        let known = known_after_givens(&checker, &givens);
        check_guess(&p, &known, &solution, stats.guess, &format!("{what}, reduced"));

        // Full: the solver knows the givens only.
        let (solution, stats) = solve_ok(&puzzle, Encoding::Full, true, &what);
        assert_solves(&checker, &givens, &solution, &format!("{what}, full"));
        check_guess(&p, &givens, &solution, stats.guess, &format!("{what}, full"));

        // The default (propagated): known cells unknown here; a found guess
        // still means a solution of some pattern shape.
        let (solution, stats) = solve_ok(&puzzle, Encoding::default(), true, &what);
        assert_solves(&checker, &givens, &solution, &format!("{what}, propagated"));
        if stats.guess == Guess::Found {
            prop_assert!(
                !expected_groups(n, br, bc, &solution).is_empty(),
                "{}: guess found, solution of no shape", what
            );
        }

        // Without the guess: never made, still right.
        for encoding in [Encoding::Reduced, Encoding::Full, Encoding::Propagated] {
            let (solution, stats) = solve_ok(&puzzle, encoding, false, &what);
            prop_assert_eq!(stats.guess, Guess::None, "{}, {}: guessed while off", what, encoding);
            assert_solves(&checker, &givens, &solution, &format!("{what}, {encoding}, no guess"));
        }
    }
}

#[test]
fn the_guess_is_on_by_default() {
    assert!(SolveOptions::default().pattern_guess);
}

// ---------------------------------------------------------------------------
// A guess refuted: known cells that show groups by chance.

/// A 4×4 puzzle's single completion, found among all 288 grids.
fn unique_completion(grids: &[Vec<usize>], givens: &[usize]) -> Vec<usize> {
    let completions: Vec<&Vec<usize>> =
        grids.iter().filter(|g| givens.iter().zip(g.iter()).all(|(&a, &b)| a == 0 || a == b)).collect();
    assert_eq!(completions.len(), 1, "completions of {givens:?}: {completions:?}");
    completions[0].clone()
}

/// The labels of a partition given as lists of values.
fn partition_of(n: usize, groups: &[&[usize]]) -> Vec<usize> {
    let mut labels = vec![usize::MAX; n];
    for (g, values) in groups.iter().enumerate() {
        for &v in *values {
            labels[v - 1] = g;
        }
    }
    assert!(labels.iter().all(|&l| l != usize::MAX));
    labels
}

/// `...3...21.34.4.1`: its givens show groups {2,3} {1,4} on the columns
/// axis, and its one completion does not have that shape. With the full
/// encoding the solver knows the givens alone, so it guesses that shape and
/// must refute it.
///
/// The reduced encoding knows more: r3c2 and r4c3 (1-based) are left only 2
/// by their units' givens, and those cells change the groups. On the columns
/// axis r3c2 puts 2 with 4 (c2 band 2 holds 2 and 4), merging everything into
/// one group of four: no columns guess. On the rows axis r3c1-2 become {1,2}
/// and r4c3-4 {2,1}, next to r3c3-4 = {3,4}: groups {1,2} {3,4}, which the
/// completion has. So under the reduced encoding the guess is a different,
/// right one and is found.
#[test]
fn a_chance_columns_guess_is_refuted_with_the_full_encoding() {
    let grids = all_4x4_grids();
    assert_eq!(grids.len(), 288);
    let shape = Shape::boxes(4, 2, 2);
    let geometry = geometry(2, 2);
    let givens = read_symbols("...3...21.34.4.1");
    let completion = unique_completion(&grids, &givens);

    // The givens alone: groups on the columns axis that the completion lacks.
    let columns = partition_of(4, &[&[2, 3], &[1, 4]]);
    let shown = expected_groups(4, 2, 2, &givens);
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_eq!(shown[0].0, Axis::Columns);
    assert!(same_partition(&shown[0].1, &columns), "{shown:?}");
    assert!(!has_shape(4, 2, 2, &completion, Axis::Columns, &columns));
    assert_same_groups(&reported_groups(&geometry, 2, 2, &givens), &shown, "givens");

    let puzzle = puzzle_of(&geometry, &givens);
    let (solution, stats) = solve_ok(&puzzle, Encoding::Full, true, "full");
    assert_eq!(stats.guess, Guess::Refuted, "{stats:?}");
    assert_solves(&shape, &givens, &solution, "full");
    assert_eq!(solution, completion);

    // What the reduced encoding knows, and the rows guess it makes.
    let known = known_after_givens(&shape, &givens);
    let decided: Vec<(usize, usize)> =
        (0..16).filter(|&i| givens[i] == 0 && known[i] != 0).map(|i| (i, known[i])).collect();
    assert_eq!(decided, vec![(9, 2), (14, 2)], "cells the givens leave one value");
    let rows = partition_of(4, &[&[1, 2], &[3, 4]]);
    let shown = expected_groups(4, 2, 2, &known);
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_eq!(shown[0].0, Axis::Rows);
    assert!(same_partition(&shown[0].1, &rows), "{shown:?}");
    assert!(has_shape(4, 2, 2, &completion, Axis::Rows, &rows));
    let (solution, stats) = solve_ok(&puzzle, Encoding::Reduced, true, "reduced");
    assert_eq!(stats.guess, Guess::Found, "{stats:?}");
    assert_eq!(solution, completion);

    let (solution, _) = solve_ok(&puzzle, Encoding::default(), true, "propagated");
    assert_eq!(solution, completion);
}

/// `1......2.34.....`: four givens, one completion. The givens alone show no
/// groups (no piece holds two of them), so the full encoding makes no guess;
/// the reduced encoding knows r1c3 = 3, r2c2 = 4, r3c1 = 2 and r3c4 = 1 too
/// (1-based), which make r3's pieces {2,3} and {4,1}, with 3 and 4 beside
/// the givens 1 and 2 in pieces of rows 1 and 2: groups {1,4} {2,3} on the
/// rows axis, a shape the completion lacks. The guess must be refuted and the
/// whole search find the completion.
#[test]
fn a_chance_rows_guess_is_refuted_with_the_reduced_encoding() {
    let grids = all_4x4_grids();
    let shape = Shape::boxes(4, 2, 2);
    let geometry = geometry(2, 2);
    let givens = read_symbols("1......2.34.....");
    let completion = unique_completion(&grids, &givens);

    assert_eq!(expected_groups(4, 2, 2, &givens), vec![], "groups in the givens");
    let puzzle = puzzle_of(&geometry, &givens);
    let (solution, stats) = solve_ok(&puzzle, Encoding::Full, true, "full");
    assert_eq!(stats.guess, Guess::None, "{stats:?}");
    assert_eq!(solution, completion);

    let known = known_after_givens(&shape, &givens);
    let decided: Vec<(usize, usize)> =
        (0..16).filter(|&i| givens[i] == 0 && known[i] != 0).map(|i| (i, known[i])).collect();
    assert_eq!(decided, vec![(2, 3), (5, 4), (8, 2), (11, 1)], "cells the givens leave one value");
    let rows = partition_of(4, &[&[1, 4], &[2, 3]]);
    let shown = expected_groups(4, 2, 2, &known);
    assert_eq!(shown.len(), 1, "known {known:?} show {shown:?}");
    assert_eq!(shown[0].0, Axis::Rows);
    assert!(same_partition(&shown[0].1, &rows), "{shown:?}");
    assert!(!has_shape(4, 2, 2, &completion, Axis::Rows, &rows));
    assert_same_groups(&reported_groups(&geometry, 2, 2, &known), &shown, "known");

    let (solution, stats) = solve_ok(&puzzle, Encoding::Reduced, true, "reduced");
    assert_eq!(stats.guess, Guess::Refuted, "{stats:?}");
    assert_solves(&shape, &givens, &solution, "reduced");
    assert_eq!(solution, completion);
}

// ---------------------------------------------------------------------------
// The pattern grids of a blank grid.

/// Each pattern grid is a full grid of its layout, by the independent
/// checker; on a blank grid whose rules one keeps (disjoint groups, which
/// the first keeps for any boxes, or anti-king) it is the answer, found
/// without a search. A blank 25×25 with disjoint groups had no answer in a
/// minute, from the fill nor from the CDCL search (a tester's).
#[test]
fn a_blank_grid_whose_rules_a_pattern_grid_keeps_is_solved_without_a_search() {
    use crate::Variant;
    for (br, bc) in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 5), (4, 4), (5, 5), (4, 6)] {
        let n = br * bc;
        let geometry = Geometry::new(n, Layout::Boxes { rows: br, cols: bc }, &[]).unwrap();
        let grids = super::pattern_grids(&geometry);
        assert_eq!(grids.len(), 2);
        for grid in &grids {
            assert_solves(&Shape::boxes(n, br, bc), &vec![0; n * n], &numbers(grid), &format!("{br}x{bc}"));
        }
        let variants: &[&[Variant]] = &[&[Variant::DisjointGroups], &[Variant::DisjointGroups, Variant::AntiKing]];
        // (Small grids with anti-king have no solution, or need a search.)
        for &variants in variants.iter().filter(|v| n >= 16 || v.len() == 1) {
            let geometry = Arc::new(Geometry::new(n, Layout::Boxes { rows: br, cols: bc }, variants).unwrap());
            let blank = Puzzle::new(geometry, Grid::empty(n)).unwrap();
            let what = format!("{br}x{bc} {variants:?}");
            let options = SolveOptions::default();
            let Ok((Outcome::Solved(grid), stats)) = solve_with_stats(&blank, &options, None) else {
                panic!("{what}: no solution")
            };
            let solution = numbers(&grid);
            let shape = Shape::boxes(n, br, bc).with_disjoint_groups(br, bc);
            assert_solves(&shape, &vec![0; n * n], &solution, &what);
            // Anti-king, checked here: no two cells that touch, even at a corner, alike.
            for (r, c) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
                for (dr, dc) in [(1, -1), (1, 0), (1, 1), (0, 1)] {
                    let (r2, c2) = (r as isize + dr, c as isize + dc);
                    if variants.contains(&Variant::AntiKing)
                        && (0..n as isize).contains(&r2)
                        && (0..n as isize).contains(&c2)
                    {
                        let other = solution[r2 as usize * n + c2 as usize];
                        assert_ne!(
                            solution[r * n + c],
                            other,
                            "{what}: r{}c{} and r{}c{}",
                            r + 1,
                            c + 1,
                            r2 + 1,
                            c2 + 1
                        );
                    }
                }
            }
            if n >= 16 {
                assert_eq!(stats.conflicts, None, "{what}: searched");
            }
        }
    }
    let latin = Geometry::new(7, Layout::Latin, &[]).unwrap();
    for grid in super::pattern_grids(&latin) {
        assert_solves(&Shape::latin(7), &[0; 49], &numbers(&grid), "latin 7");
    }
}
