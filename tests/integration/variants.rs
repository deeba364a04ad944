//! Variant constraints against the rules: random clues of every kind, alone
//! and mixed, on 4×4 and 6×6 grids, counted by brute force over the tests'
//! own rules (util/rules.rs, util/brute.rs) and by the library under every
//! encoding and at-most-one kind; every solution checked; grid-file errors;
//! DIMACS comments that carry the clues; the example puzzles in `encodings/`.

use std::collections::HashSet;
use std::sync::Arc;

use satdoku::cnf::{puzzle_cnf, read_cnf, write_cnf};
use satdoku::{count_up_to, parse_grid_file, AmoEncoding, Encoding, Grid, Puzzle, Search, SolveOptions, Value};

use crate::util::brute::Brute;
use crate::util::checker::{check, numbers, Rng, Shape};
use crate::util::rules::{all_hold, grid_file, random_clue, Clue, KINDS};
use crate::util::{run, write_file};

/// A solved grid of `rows`x`cols` boxes: the pattern grid with its values relabelled.
fn hidden_solution(n: usize, rows: usize, cols: usize, rng: &mut Rng) -> Vec<usize> {
    let mut labels: Vec<usize> = (1..=n).collect();
    rng.shuffle(&mut labels);
    (0..n * n).map(|i| labels[(cols * ((i / n) % rows) + (i / n) / rows + i % n) % n]).collect()
}

fn puzzle_of(text: &str, givens: &[usize]) -> Option<Puzzle> {
    let geometry = parse_grid_file(text, "case.toml").ok()?;
    let n = geometry.size();
    let cells = givens.iter().map(|&g| Value::new_checked(g, n)).collect();
    Puzzle::new(Arc::new(geometry), Grid::from_cells(n, cells).unwrap())
}

const OPTIONS: [(Encoding, AmoEncoding); 5] = [
    (Encoding::Propagated, AmoEncoding::Auto),
    (Encoding::Full, AmoEncoding::Pairwise),
    (Encoding::Reduced, AmoEncoding::Sequential),
    (Encoding::Propagated, AmoEncoding::Product),
    (Encoding::Full, AmoEncoding::Product),
];

/// The library's count under every encoding, each equal to `expected`; every
/// solution of the default search checked against the units and the clues.
fn agree(puzzle: &Puzzle, shape: &Shape, clues: &[Clue], givens: &[usize], expected: usize, what: &str) {
    let n = shape.n;
    for (encoding, amo) in OPTIONS {
        let options = SolveOptions { encoding, amo, ..SolveOptions::default() };
        let count = count_up_to(puzzle, 100_000, &options).unwrap();
        assert_eq!(count.count as usize, expected, "{what}: {encoding} {amo}");
    }
    let mut seen = HashSet::new();
    for solution in Search::new(puzzle, &SolveOptions::default()) {
        let grid = numbers(&solution.unwrap());
        check(shape, givens, &grid).unwrap_or_else(|e| panic!("{what}: {e}"));
        all_hold(clues, &grid, n).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(seen.insert(grid), "{what}: a solution twice");
    }
    assert_eq!(seen.len(), expected, "{what}");
    // A solve agrees with the count.
    match satdoku::solve(puzzle, &SolveOptions::default()).unwrap() {
        satdoku::Outcome::Solved(grid) => {
            assert!(expected > 0, "{what}: solved where there is no solution");
            all_hold(clues, &numbers(&grid), n).unwrap();
        }
        satdoku::Outcome::Unsolvable(_) => assert_eq!(expected, 0, "{what}: unsolvable where there are solutions"),
        satdoku::Outcome::TimedOut => unreachable!("no time limit"),
    }
}

/// Random clue sets (one kind each, then mixes) on 4×4: the 288 grids filtered by the rules.
#[test]
fn every_kind_of_clue_counts_as_brute_force_on_4x4() {
    let shape = Shape::boxes(4, 2, 2);
    let all: Vec<Vec<usize>> = Brute::new(shape.clone()).solutions(&[0; 16], 1000).unwrap().into_iter().collect();
    assert_eq!(all.len(), 288);
    let mut rng = Rng::new(17);
    let (mut cases, mut nonzero) = (0, 0);
    for round in 0..3 * KINDS + 30 {
        let kinds: Vec<usize> = if round < 3 * KINDS {
            vec![round % KINDS]
        } else {
            (0..2 + rng.below(3)).map(|_| rng.below(KINDS)).collect()
        };
        let hidden = all[rng.below(all.len())].clone();
        let clues: Vec<Clue> = kinds.iter().map(|&k| random_clue(k, 4, &hidden, rng.below(3) > 0, &mut rng)).collect();
        let text = grid_file(4, 2, 2, &clues);
        let Some(puzzle) = puzzle_of(&text, &[0; 16]) else { continue };
        let expected = all.iter().filter(|g| all_hold(&clues, g, 4).is_ok()).count();
        agree(&puzzle, &shape, &clues, &[0; 16], expected, &text);
        cases += 1;
        nonzero += usize::from(expected > 0);
    }
    // The rounds must mostly make clues the library takes, and many with solutions.
    assert!(cases > 60 && nonzero > 30, "{cases} cases, {nonzero} with solutions");
}

/// Random clue sets on 6×6 with givens: the brute-force solutions of the units filtered by the rules.
#[test]
fn every_kind_of_clue_counts_as_brute_force_on_6x6() {
    let shape = Shape::boxes(6, 2, 3);
    let brute = Brute::new(shape.clone());
    let mut rng = Rng::new(6);
    let (mut cases, mut nonzero) = (0, 0);
    for round in 0..2 * KINDS + 20 {
        // Few givens from a pattern grid, and one of the many grids they allow as the clues' hidden solution.
        let pattern = hidden_solution(6, 2, 3, &mut rng);
        let givens: Vec<usize> = pattern.iter().map(|&v| if rng.below(9) < 2 { v } else { 0 }).collect();
        let Some(units_only) = brute.solutions(&givens, 3_000) else { continue };
        let mut grids: Vec<&Vec<usize>> = units_only.iter().collect();
        grids.sort();
        let hidden = grids[rng.below(grids.len())].clone();
        let kinds: Vec<usize> = if round < 2 * KINDS {
            vec![round % KINDS]
        } else {
            (0..2 + rng.below(3)).map(|_| rng.below(KINDS)).collect()
        };
        let clues: Vec<Clue> = kinds.iter().map(|&k| random_clue(k, 6, &hidden, rng.below(4) > 0, &mut rng)).collect();
        let text = grid_file(6, 2, 3, &clues);
        let Some(puzzle) = puzzle_of(&text, &givens) else { continue };
        let expected = units_only.iter().filter(|g| all_hold(&clues, g, 6).is_ok()).count();
        agree(&puzzle, &shape, &clues, &givens, expected, &text);
        cases += 1;
        nonzero += usize::from(expected > 0);
    }
    assert!(cases > 30 && nonzero > 15, "{cases} cases, {nonzero} with solutions");
}

/// The DIMACS comments carry every clue: the puzzle read back is the one written.
#[test]
fn dimacs_comments_carry_every_clue() {
    let mut rng = Rng::new(99);
    let hidden = hidden_solution(6, 2, 3, &mut rng);
    let clues: Vec<Clue> = (0..KINDS).map(|k| random_clue(k, 6, &hidden, true, &mut rng)).collect();
    let text = grid_file(6, 2, 3, &clues);
    let puzzle = puzzle_of(&text, &[0; 36]).expect("truthful clues make a grid");
    for encoding in [Encoding::Full, Encoding::Propagated] {
        let options = SolveOptions { encoding, ..SolveOptions::default() };
        let mut dimacs = Vec::new();
        write_cnf(&mut dimacs, &puzzle_cnf(&puzzle, &options).unwrap()).unwrap();
        let back = read_cnf(&dimacs[..], "case.cnf").unwrap();
        assert_eq!(back.puzzle.geometry().as_ref(), puzzle.geometry().as_ref(), "{encoding}");
        assert!(String::from_utf8(dimacs).unwrap().contains("c constraint sandwich "));
    }
}

/// Bad grid files: exit 2, the file, the line and what is wrong.
#[test]
fn bad_grid_files_are_refused_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "size = 9\n[[killer]]\ncells = \"r1c1 r1c2\"\nsum = 18\n",
            ":2:1: killer: no 2 distinct values from 1 to 9 sum to 18",
        ),
        ("size = 9\n[[killer]]\ncells = \"r1c1 r10c2\"\n", ":2:1: 'r10c2' is not a cell of a 9x9 grid"),
        (
            "size = 4\n[[thermo]]\ncells = \"r1c1 r1c2 r1c3 r1c4 r2c4\"\n",
            ":2:1: thermo: a thermometer needs 1 to 4 cells, not 5",
        ),
        ("size = 9\n[[arrow]]\ncircle = \"r1c1\"\ncells = \"r1c1 r2c2\"\n", ":2:1: arrow: cell r1c1 appears twice"),
        ("size = 9\nanti_bishop = true\n", ":2:1: unknown field `anti_bishop`"),
        ("size = 9\n[[sandwich]]\nline = \"r0\"\nsum = 5\n", "sandwich line \"r0\""),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let path = write_file(&dir, &format!("bad{i}.toml"), text);
        let r = run(&["solve", "--grid", &path], &".".repeat(81));
        assert_eq!(r.code, 2, "{text}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("{path}{expected}")) || r.stderr.contains(expected), "{text}: {}", r.stderr);
    }
}

/// `--variant anti-knight|anti-king|non-consecutive` on the command line: the blank 4×4 and 6×6 counts
/// are the brute-force counts.
#[test]
fn command_line_variants_count_as_brute_force() {
    for (name, clue) in
        [("anti-knight", Clue::AntiKnight), ("anti-king", Clue::AntiKing), ("non-consecutive", Clue::NonConsecutive)]
    {
        let shape = Shape::boxes(4, 2, 2);
        let all = Brute::new(shape).solutions(&[0; 16], 1000).unwrap();
        let expected = all.iter().filter(|g| all_hold(std::slice::from_ref(&clue), g, 4).is_ok()).count();
        let r = run(&["count", "--variant", name, "--format", "json"], &".".repeat(16));
        let record: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
        assert_eq!(record["count"], expected as u64, "{name}: {}", r.stdout);
    }
}
