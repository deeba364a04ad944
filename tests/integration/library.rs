//! Library end-to-end: read the puzzles of tests/data and generated ones, solve
//! them, and check every solution with the independent checker.

use std::sync::Arc;

use satdoku::{
    count_up_to, read_all, solve, Alphabet, AmoEncoding, Encoding, Geometry, GeometrySpec, Grid, Layout, Outcome,
    Puzzle, SolveOptions, Value, Variant,
};
use satdoku::{solve_with_stats, Guess};

use crate::util::checker::{self, assert_solves, numbers, read_numbers, read_symbols, repo_path, side, Rng, Shape};

/// Solve `puzzle` with `options`; the solution as numbers (None when unsolvable).
fn solve_numbers(puzzle: &Puzzle, options: &SolveOptions) -> Option<Vec<usize>> {
    match solve(puzzle, options).unwrap_or_else(|e| panic!("internal error: {e}")) {
        Outcome::Solved(grid) => {
            assert!(grid.is_complete(), "a solution with empty cells");
            Some(numbers(&grid))
        }
        Outcome::Unsolvable(_) => None,
        Outcome::TimedOut => panic!("timed out without a time limit"),
    }
}

/// A puzzle of `geometry` with the givens `cells` (0 = empty), built without the parser.
fn puzzle_of(geometry: &Arc<Geometry>, cells: &[usize]) -> Puzzle {
    let n = geometry.size();
    let cells = cells.iter().map(|&v| if v == 0 { None } else { Value::new_checked(v, n) }).collect();
    Puzzle::new(Arc::clone(geometry), Grid::from_cells(n, cells).expect("n² cells")).expect("same size")
}

/// Every puzzle of a data file of one-puzzle-per-line (default alphabet):
/// the parser must read the same givens as the independent reader, and every
/// puzzle must be solved, correctly.
fn solve_line_file(name: &str) {
    let text = std::fs::read_to_string(checker::data_path(name)).unwrap();
    let lines = checker::data_lines(name);
    let entries = read_all(&text, name, &Alphabet::default(), &mut GeometrySpec::classic());
    assert_eq!(entries.len(), lines.len(), "{name}: one entry per puzzle line");
    for (i, (entry, line)) in entries.iter().zip(&lines).enumerate() {
        let givens = read_symbols(line);
        let n = side(givens.len());
        let puzzle = entry.puzzle.as_ref().unwrap_or_else(|e| panic!("{name} puzzle {}: {e}", i + 1));
        assert_eq!(numbers(puzzle.givens()), givens, "{name} puzzle {}: givens read differently", i + 1);
        let solution = solve_numbers(puzzle, &SolveOptions::default())
            .unwrap_or_else(|| panic!("{name} puzzle {}: said unsolvable", i + 1));
        assert_solves(&Shape::classic(n), &givens, &solution, &format!("{name} puzzle {}", i + 1));
    }
}

/// A file holding one grid as rows of whitespace-separated numbers.
fn solve_numbers_file(name: &str) {
    let text = std::fs::read_to_string(checker::data_path(name)).unwrap();
    let givens = read_numbers(&text);
    let n = side(givens.len());
    let entries = read_all(&text, name, &Alphabet::default(), &mut GeometrySpec::classic());
    assert_eq!(entries.len(), 1, "{name}: one puzzle");
    let puzzle = entries[0].puzzle.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(puzzle.size(), n);
    assert_eq!(numbers(puzzle.givens()), givens, "{name}: givens read differently");
    let solution = solve_numbers(puzzle, &SolveOptions::default()).unwrap_or_else(|| panic!("{name}: unsolvable"));
    assert_solves(&Shape::classic(n), &givens, &solution, name);
}

macro_rules! data_tests {
    ($($kind:ident $test:ident: $file:expr;)*) => {
        $(
            #[test]
            fn $test() {
                $kind($file);
            }
        )*
    };
}

data_tests! {
    solve_line_file top95: "top95.txt";
    solve_line_file seventeen_clue_500: "17-clue-500.txt";
    solve_line_file tdoku_forum_hardest_100: "tdoku-forum-hardest-100.txt";
    solve_line_file gecode_9x9: "gecode-9x9.txt";
    solve_line_file gecode_16x16: "gecode-16x16.txt";
    solve_line_file gecode_25x25: "gecode-25x25.txt";
    solve_numbers_file kwon_jain_table3_1: "kwon-jain-table3-1.txt";
    solve_numbers_file kwon_jain_table3_12: "kwon-jain-table3-12.txt";
    solve_numbers_file kwon_jain_table4_0: "kwon-jain-table4-0.txt";
    solve_numbers_file kwon_jain_table4_1: "kwon-jain-table4-1.txt";
    solve_numbers_file kwon_jain_table4_2: "kwon-jain-table4-2.txt";
    solve_numbers_file kwon_jain_table5_1: "kwon-jain-table5-1.txt";
    solve_numbers_file kwon_jain_table5_2: "kwon-jain-table5-2.txt";
    solve_numbers_file kwon_jain_table6_1: "kwon-jain-table6-1.txt";
    solve_numbers_file kwon_jain_table7_1: "kwon-jain-table7-1.txt";
    solve_numbers_file kwon_jain_table7_4: "kwon-jain-table7-4.txt";
}

/// tdoku's counted set: count 0 must be unsolvable, count 1 must give the
/// published solution, and every count ≥ 1 must solve (checked).
#[test]
fn tdoku_counted() {
    let lines = checker::data_lines("tdoku-counted.txt");
    assert!(lines.len() >= 40);
    let (mut zero, mut one, mut many) = (0, 0, 0);
    for (i, line) in lines.iter().enumerate() {
        let fields: Vec<&str> = line.split(':').collect();
        let (text, count) = (fields[0], fields[1].parse::<u64>().unwrap());
        let published = fields.get(2).map(|s| read_symbols(s)).unwrap_or_default();
        let givens = read_symbols(text);
        let mut entries = read_all(text, "counted", &Alphabet::default(), &mut GeometrySpec::classic());
        assert_eq!(entries.len(), 1);
        let puzzle = entries.remove(0).puzzle.unwrap();
        assert_eq!(numbers(puzzle.givens()), givens);
        let what = format!("counted line {} (count {count})", i + 1);
        match (count, solve_numbers(&puzzle, &SolveOptions::default())) {
            (0, None) => zero += 1,
            (0, Some(s)) => panic!("{what}: published as unsolvable, solved as {s:?}"),
            (_, None) => panic!("{what}: said unsolvable"),
            (c, Some(s)) => {
                assert_solves(&Shape::classic(9), &givens, &s, &what);
                if c == 1 {
                    assert_eq!(published.len(), 81, "{what}: a unique puzzle has its solution published");
                    assert_eq!(s, published, "{what}: unique, but not the published solution");
                    one += 1;
                } else {
                    many += 1;
                }
            }
        }
        // The published solution itself passes the independent checker.
        if count > 0 && !published.is_empty() {
            assert_solves(&Shape::classic(9), &givens, &published, &format!("{what}: published"));
        }
        let counted = count_up_to(&puzzle, 2, &SolveOptions::default()).unwrap();
        assert_eq!(counted.count, count.min(2), "{what}: count_up_to(2)");
        assert_eq!(counted.capped, count >= 2, "{what}: capped");
    }
    assert!(zero > 0 && one > 0 && many > 0, "the set has all three kinds");
}

/// The 6x6 puzzles with known counts under a given box shape.
#[test]
fn six_by_six_known_counts() {
    let lines = checker::data_lines("6x6-known-counts.txt");
    assert_eq!(lines.len(), 6);
    for line in &lines {
        let fields: Vec<&str> = line.split('\t').collect();
        let givens = read_symbols(fields[0]);
        let (r, c) = fields[1].split_once('x').unwrap();
        let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
        let count: u64 = fields[2].parse().unwrap();
        let geometry = Arc::new(Geometry::new(6, Layout::Boxes { rows: r, cols: c }, &[]).unwrap());
        let mut spec = GeometrySpec::fixed(Arc::clone(&geometry));
        let mut entries = read_all(fields[0], "6x6", &Alphabet::default(), &mut spec);
        assert_eq!(entries.len(), 1);
        let puzzle = entries.remove(0).puzzle.unwrap();
        assert_eq!(numbers(puzzle.givens()), givens);
        let what = format!("{} under {r}x{c} (count {count})", fields[0]);
        match solve_numbers(&puzzle, &SolveOptions::default()) {
            Some(s) => {
                assert!(count >= 1, "{what}: solved but published count is 0: {s:?}");
                assert_solves(&Shape::boxes(6, r, c), &givens, &s, &what);
            }
            None => assert_eq!(count, 0, "{what}: said unsolvable"),
        }
        let counted = count_up_to(&puzzle, 1000, &SolveOptions::default()).unwrap();
        assert_eq!((counted.count, counted.capped), (count, false), "{what}: count");
    }
}

/// Every encoding and at-most-one choice gives correct answers on hard 9×9s
/// and on a 16×16 (where Auto switches away from pairwise in some units).
#[test]
fn every_encoding_and_amo_solves() {
    let mut puzzles: Vec<String> = checker::data_lines("top95.txt").into_iter().take(12).collect();
    puzzles.extend(checker::data_lines("gecode-16x16.txt").into_iter().take(3));
    puzzles.extend(checker::data_lines("gecode-25x25.txt").into_iter().take(1));
    for encoding in [Encoding::Full, Encoding::Reduced, Encoding::Propagated] {
        for amo in [AmoEncoding::Auto, AmoEncoding::Pairwise, AmoEncoding::Sequential, AmoEncoding::Product] {
            let options = SolveOptions { encoding, amo, ..SolveOptions::default() };
            for (i, line) in puzzles.iter().enumerate() {
                let givens = read_symbols(line);
                let n = side(givens.len());
                if n == 25 && encoding == Encoding::Full && amo == AmoEncoding::Pairwise {
                    continue; // ~750k clauses: slow, and nothing a 16×16 does not show
                }
                let geometry = Arc::new(Geometry::classic(n).unwrap());
                let s = solve_numbers(&puzzle_of(&geometry, &givens), &options)
                    .unwrap_or_else(|| panic!("puzzle {i} unsolvable with {options:?}"));
                assert_solves(&Shape::classic(n), &givens, &s, &format!("puzzle {i} with {options:?}"));
            }
            // Clashing givens stay unsolvable under every option.
            let geometry = Arc::new(Geometry::classic(9).unwrap());
            let mut clash = vec![0; 81];
            clash[0] = 5;
            clash[8] = 5;
            assert_eq!(solve_numbers(&puzzle_of(&geometry, &clash), &options), None, "{options:?}");
        }
    }
}

/// A random solution of `geometry`: solve with one random given, so the
/// solver's own choice is relabelled; checked by the caller.
fn random_solution(geometry: &Arc<Geometry>, shape: &Shape, rng: &mut Rng) -> Vec<usize> {
    let n = geometry.size();
    let mut seed = vec![0; n * n];
    seed[rng.below(n * n)] = 1 + rng.below(n);
    let s = solve_numbers(&puzzle_of(geometry, &seed), &SolveOptions::default())
        .unwrap_or_else(|| panic!("{}: one given, yet unsolvable", geometry.describe()));
    assert_solves(shape, &seed, &s, &geometry.describe());
    // Relabel the values at random: still a solution.
    let mut perm: Vec<usize> = (1..=n).collect();
    rng.shuffle(&mut perm);
    s.iter().map(|&v| perm[v - 1]).collect()
}

/// Keep each cell of `solution` with probability `keep` percent.
fn thin(solution: &[usize], keep: usize, rng: &mut Rng) -> Vec<usize> {
    solution.iter().map(|&v| if rng.below(100) < keep { v } else { 0 }).collect()
}

/// Solve `givens` on `geometry`, expecting a solution, and check it against `shape`.
fn solve_and_check(geometry: &Arc<Geometry>, shape: &Shape, givens: &[usize], what: &str) -> Vec<usize> {
    let s = solve_numbers(&puzzle_of(geometry, givens), &SolveOptions::default())
        .unwrap_or_else(|| panic!("{what}: unsolvable, yet made from a solution"));
    assert_solves(shape, givens, &s, what);
    s
}

/// A random jigsaw layout with a known solution: start from a classic solution
/// and its boxes, then swap the regions of two cells holding the same value
/// (each region still holds every value once), many times over.
fn random_jigsaw(n: usize, rng: &mut Rng) -> (Vec<usize>, Vec<usize>) {
    let classic = Arc::new(Geometry::classic(n).unwrap());
    let solution = random_solution(&classic, &Shape::classic(n), rng);
    let (br, bc) = {
        let br = (1..=n).filter(|r| r * r <= n && n % r == 0).max().unwrap();
        (br, n / br)
    };
    let mut map: Vec<usize> = (0..n * n).map(|i| (i / n / br) * (n / bc) + (i % n) / bc).collect();
    // A few swaps: scattered random regions make hard puzzles (seconds each).
    for _ in 0..n * 2 {
        let a = rng.below(n * n);
        let b = rng.below(n * n);
        if solution[a] == solution[b] && map[a] != map[b] {
            map.swap(a, b);
        }
    }
    (map, solution)
}

#[test]
fn generated_jigsaw_puzzles_solve() {
    let mut rng = Rng::new(2);
    for (round, n) in [4, 6, 8, 9, 9, 9].into_iter().enumerate() {
        let (map, planted) = random_jigsaw(n, &mut rng);
        let labels: Vec<u32> = map.iter().map(|&l| l as u32).collect();
        let geometry = Arc::new(Geometry::new(n, Layout::Regions(labels), &[]).unwrap());
        let shape = Shape::jigsaw(n, &map);
        assert_solves(&shape, &vec![0; n * n], &planted, "the planted solution");
        let what = format!("round {round}: {n}x{n} jigsaw {map:?}");
        solve_and_check(&geometry, &shape, &vec![0; n * n], &format!("{what}, blank"));
        for keep in [40, 60, 80] {
            let givens = thin(&planted, keep, &mut rng);
            solve_and_check(&geometry, &shape, &givens, &format!("{what}, givens {givens:?}"));
        }
        // Jigsaw with the diagonals too, when the planted solution happens to fit.
        if n == 9 {
            let gx = Arc::new(Geometry::new(9, geometry.layout().clone(), &[Variant::X]).unwrap());
            let sx = Shape::jigsaw(9, &map).with_diagonals();
            if let Some(s) = solve_numbers(&puzzle_of(&gx, &[0; 81]), &SolveOptions::default()) {
                assert_solves(&sx, &[0; 81], &s, &format!("{what} + x"));
            }
        }
    }
}

#[test]
fn generated_x_and_hyper_puzzles_solve() {
    let mut rng = Rng::new(3);
    let kinds: [(&[Variant], Shape); 3] = [
        (&[Variant::X], Shape::classic(9).with_diagonals()),
        (&[Variant::Hyper], Shape::classic(9).with_hyper_windows_9()),
        (&[Variant::X, Variant::Hyper], Shape::classic(9).with_diagonals().with_hyper_windows_9()),
    ];
    for (variants, shape) in kinds {
        let geometry = Arc::new(Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, variants).unwrap());
        for round in 0..6 {
            let planted = random_solution(&geometry, &shape, &mut rng);
            assert_solves(&shape, &[0; 81], &planted, "planted");
            for keep in [25, 45] {
                let givens = thin(&planted, keep, &mut rng);
                solve_and_check(&geometry, &shape, &givens, &format!("{variants:?} round {round} {givens:?}"));
            }
        }
    }
    // X on other sizes: 4×4 (2×2 boxes), 6×6, 8×8 Latin, 16×16.
    for (n, layout) in [
        (4, Layout::Boxes { rows: 2, cols: 2 }),
        (6, Layout::Boxes { rows: 2, cols: 3 }),
        (8, Layout::Latin),
        (16, Layout::Boxes { rows: 4, cols: 4 }),
    ] {
        let shape = match &layout {
            Layout::Latin => Shape::latin(n).with_diagonals(),
            Layout::Boxes { rows, cols } => Shape::boxes(n, *rows, *cols).with_diagonals(),
            Layout::Regions(_) => unreachable!(),
        };
        let geometry = Arc::new(Geometry::new(n, layout, &[Variant::X]).unwrap());
        let planted = random_solution(&geometry, &shape, &mut rng);
        let givens = thin(&planted, 40, &mut rng);
        solve_and_check(&geometry, &shape, &givens, &format!("{n}x{n} X"));
    }
}

/// Broken givens on a generated X-sudoku: two equal values on a diagonal.
#[test]
fn x_diagonal_clash_is_unsolvable() {
    let geometry = Arc::new(Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::X]).unwrap());
    let mut givens = vec![0; 81];
    givens[0] = 7; // r1c1
    givens[80] = 7; // r9c9: same main diagonal, different row, column and box
    assert_eq!(solve_numbers(&puzzle_of(&geometry, &givens), &SolveOptions::default()), None);
    // Without the X it is fine.
    let classic = Arc::new(Geometry::classic(9).unwrap());
    solve_and_check(&classic, &Shape::classic(9), &givens, "r1c1 = r9c9 = 7 classic");
    let mut givens = vec![0; 81];
    givens[8] = 3; // r1c9
    givens[72] = 3; // r9c1: the anti-diagonal
    assert_eq!(solve_numbers(&puzzle_of(&geometry, &givens), &SolveOptions::default()), None);
    let hyper = Arc::new(Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::Hyper]).unwrap());
    let mut givens = vec![0; 81];
    givens[10] = 4; // r2c2
    givens[30] = 4; // r4c4: same window (rows/cols 2-4), different box
    assert_eq!(solve_numbers(&puzzle_of(&hyper, &givens), &SolveOptions::default()), None);
    solve_and_check(&classic, &Shape::classic(9), &givens, "r2c2 = r4c4 = 4 classic");
}

/// Hand-written: a 6×6 jigsaw map and a 4×4 X puzzle, read through the parser.
#[test]
fn hand_written_jigsaw_and_x() {
    // Six irregular regions of six cells each.
    let map_text = "AAABBB\nAACCBB\nDACCCB\nDDECFF\nDDEEFF\nDEEEFF";
    let map: Vec<usize> = map_text.chars().filter(|c| !c.is_whitespace()).map(|c| c as usize).collect();
    let labels = satdoku::parse_region_map(map_text);
    let geometry = Arc::new(Geometry::new(6, Layout::Regions(labels), &[]).unwrap());
    let shape = Shape::jigsaw(6, &map);
    let mut spec = GeometrySpec::fixed(Arc::clone(&geometry));
    let text = "1.....\n......\n..2...\n...3..\n......\n.....4\n";
    let entries = read_all(text, "hand", &Alphabet::default(), &mut spec);
    assert_eq!(entries.len(), 1);
    let puzzle = entries[0].puzzle.as_ref().unwrap();
    let givens = read_symbols(&text.replace('\n', ""));
    assert_eq!(numbers(puzzle.givens()), givens);
    let s = solve_numbers(puzzle, &SolveOptions::default()).expect("solvable");
    assert_solves(&shape, &givens, &s, "hand jigsaw");

    // 4×4 X-sudoku (two solutions; either must satisfy the diagonals).
    let geometry = Arc::new(Geometry::new(4, Layout::Boxes { rows: 2, cols: 2 }, &[Variant::X]).unwrap());
    let mut spec = GeometrySpec::fixed(Arc::clone(&geometry));
    let text = "1...\n..3.\n....\n...."; // r1c1 = 1, r2c3 = 3
    let puzzle = read_all(text, "x4", &Alphabet::default(), &mut spec).remove(0).puzzle.unwrap();
    let givens = read_symbols(&text.replace('\n', ""));
    let s = solve_numbers(&puzzle, &SolveOptions::default()).expect("solvable");
    assert_solves(&Shape::classic(4).with_diagonals(), &givens, &s, "hand x 4x4");
}

/// A valid classic solution of side n = br·bc by pattern (each row a cyclic
/// shift), shuffled: symbols relabelled, rows moved within their bands.
fn pattern_solution(n: usize, br: usize, bc: usize, rng: &mut Rng) -> Vec<usize> {
    let mut perm: Vec<usize> = (1..=n).collect();
    rng.shuffle(&mut perm);
    let mut rows: Vec<usize> = Vec::new();
    for band in 0..n / br {
        let mut within: Vec<usize> = (band * br..band * br + br).collect();
        rng.shuffle(&mut within);
        rows.extend(within);
    }
    let mut s = Vec::with_capacity(n * n);
    for &r in &rows {
        for c in 0..n {
            s.push(perm[(bc * (r % br) + r / br + c) % n]);
        }
    }
    s
}

/// Any n works: 1, 4, 6, 8, 10, 12, 16, 25 with symbols, 36 and 49 as rows of
/// numbers; givens taken from a valid grid, the rest solved.
#[test]
fn every_size_solves() {
    let mut rng = Rng::new(5);
    for n in [1, 4, 6, 8, 10, 12, 16, 25, 36, 49] {
        let shape = Shape::classic(n);
        let br = (1..=n).filter(|r| r * r <= n && n % r == 0).max().unwrap();
        let planted = pattern_solution(n, br, n / br, &mut rng);
        assert_solves(&shape, &vec![0; n * n], &planted, &format!("test bug: pattern {n}"));
        let givens = thin(&planted, if n > 25 { 70 } else { 45 }, &mut rng);
        // Write the puzzle as text the way a user would, and read it back.
        let text = if n <= 35 {
            givens.iter().map(|&v| if v == 0 { '.' } else { char::from_digit(v as u32, 36).unwrap() }).collect()
        } else {
            givens
                .chunks(n)
                .map(|row| row.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let entries = read_all(&text, "sized", &Alphabet::default(), &mut GeometrySpec::classic());
        assert_eq!(entries.len(), 1, "n = {n}");
        let puzzle = entries[0].puzzle.as_ref().unwrap_or_else(|e| panic!("n = {n}: {e}"));
        assert_eq!(puzzle.size(), n);
        assert_eq!(numbers(puzzle.givens()), givens, "n = {n}");
        let s = solve_numbers(puzzle, &SolveOptions::default()).unwrap_or_else(|| panic!("n = {n}: unsolvable"));
        assert_solves(&shape, &givens, &s, &format!("n = {n}"));
    }
    // A 4×4 and a 9×9 left blank.
    for n in [4, 9] {
        let geometry = Arc::new(Geometry::classic(n).unwrap());
        solve_and_check(&geometry, &Shape::classic(n), &vec![0; n * n], &format!("blank {n}"));
    }
}

/// Rows of numbers past n = 35 where every number happens to be one digit
/// (a sparse 36×36 or 49×49): still n rows of n numbers, not n little puzzles.
#[test]
fn rows_of_single_digit_numbers_past_35() {
    for n in [36usize, 49] {
        let mut givens = vec![0; n * n];
        for k in 0..9 {
            givens[k * n + (k * 5) % n] = k + 1;
        }
        let text: String = givens
            .chunks(n)
            .map(|row| row.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        let entries = read_all(&text, "sparse", &Alphabet::default(), &mut GeometrySpec::classic());
        assert_eq!(entries.len(), 1, "n = {n}: one puzzle, not {}", entries.len());
        let puzzle = entries[0].puzzle.as_ref().unwrap_or_else(|e| panic!("n = {n}: {e}"));
        assert_eq!(puzzle.size(), n);
        assert_eq!(numbers(puzzle.givens()), givens);
    }
}

/// Prime sizes are Latin squares: refused as classic, solved with the Latin spec.
#[test]
fn prime_sizes_need_latin() {
    let mut rng = Rng::new(7);
    for n in [2, 3, 5, 7, 11, 13] {
        let line = ".".repeat(n * n);
        let entries = read_all(&line, "prime", &Alphabet::default(), &mut GeometrySpec::classic());
        assert_eq!(entries.len(), 1);
        let e = entries[0].puzzle.as_ref().expect_err("a prime n is no classic grid");
        assert!(e.to_string().contains("prime"), "n = {n}: {e}");
        let geometry = Arc::new(Geometry::latin(n).unwrap());
        let planted = random_solution(&geometry, &Shape::latin(n), &mut rng);
        let givens = thin(&planted, 30, &mut rng);
        let text: String =
            givens.iter().map(|&v| if v == 0 { '.' } else { char::from_digit(v as u32, 36).unwrap() }).collect();
        let entries = read_all(&text, "prime", &Alphabet::default(), &mut GeometrySpec::latin());
        let puzzle = entries[0].puzzle.as_ref().unwrap();
        assert_eq!(numbers(puzzle.givens()), givens);
        let s = solve_numbers(puzzle, &SolveOptions::default()).unwrap();
        assert_solves(&Shape::latin(n), &givens, &s, &format!("latin {n}"));
    }
}

/// Custom alphabets: `0`-`F` for 16×16 (0 is a value), letters for 9×9, and non-ASCII.
#[test]
fn custom_alphabets() {
    let cases: [(&str, &str); 3] =
        [("0123456789ABCDEF", "gecode-16x16.txt"), ("abcdefghi", "top95.txt"), ("αβγδεζηθι", "gecode-9x9.txt")];
    for (symbols, file) in cases {
        let alphabet = Alphabet::custom(symbols).unwrap();
        let chars: Vec<char> = symbols.chars().collect();
        for line in checker::data_lines(file).iter().take(3) {
            let givens = read_symbols(line);
            let n = side(givens.len());
            let text: String = givens.iter().map(|&v| if v == 0 { '.' } else { chars[v - 1] }).collect();
            let entries = read_all(&text, "custom", &alphabet, &mut GeometrySpec::classic());
            assert_eq!(entries.len(), 1, "{symbols}");
            let puzzle = entries[0].puzzle.as_ref().unwrap_or_else(|e| panic!("{symbols}: {e}"));
            assert_eq!(numbers(puzzle.givens()), givens, "{symbols}: {text}");
            let Outcome::Solved(grid) = solve(puzzle, &SolveOptions::default()).unwrap() else {
                panic!("{symbols}: unsolvable")
            };
            let s = numbers(&grid);
            assert_solves(&Shape::classic(n), &givens, &s, symbols);
            // Printed with the alphabet, read back independently.
            let printed = satdoku::format::line(&grid, &alphabet);
            assert_eq!(checker::read_solution_line(&printed, Some(symbols)), s, "{symbols}: {printed}");
        }
    }
    // With a custom alphabet, '0' is a value, so a line of 0s is no longer blank.
    let alphabet = Alphabet::custom("0123").unwrap();
    let p = read_all("0...............", "z", &alphabet, &mut GeometrySpec::classic()).remove(0).puzzle.unwrap();
    assert_eq!(numbers(p.givens())[0], 1);
    // And an unknown symbol under that alphabet is an error, not a blank.
    assert!(read_all("4...............", "z", &alphabet, &mut GeometrySpec::classic()).remove(0).puzzle.is_err());
}

#[test]
fn a_time_limit_ends_a_long_search_with_timed_out() {
    // varisat needs many seconds on this 25x25 (about 19 s on the project machine).
    let line = checker::data_lines("gecode-25x25-hard.txt").remove(0);
    let mut spec = GeometrySpec::classic();
    let puzzle = read_all(&line, "hard", &Alphabet::default(), &mut spec).remove(0).puzzle.unwrap();
    let options = SolveOptions { timeout: Some(std::time::Duration::from_millis(300)), ..SolveOptions::default() };
    // A limit that did nothing would end in Solved.
    assert_eq!(solve(&puzzle, &options).unwrap(), Outcome::TimedOut);
}

#[test]
fn a_time_limit_of_zero_gives_only_what_propagation_finds() {
    let zero = SolveOptions { timeout: Some(std::time::Duration::ZERO), ..SolveOptions::default() };
    let classic = |text: &str| {
        let mut spec = GeometrySpec::classic();
        read_all(text, "zero", &Alphabet::default(), &mut spec).remove(0).puzzle.unwrap()
    };
    // Naked and hidden singles settle this one before the clock is read.
    let easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let Outcome::Solved(grid) = solve(&classic(easy), &zero).unwrap() else { panic!("singles solve it") };
    assert_solves(&Shape::classic(9), &read_symbols(easy), &numbers(&grid), "easy, no time");
    // This one needs probing, which a passed limit stops before it starts.
    let hard = classic("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......");
    assert_eq!(solve(&hard, &zero).unwrap(), Outcome::TimedOut);
    assert!(matches!(solve(&hard, &SolveOptions::default()).unwrap(), Outcome::Solved(_)));
}

#[test]
fn the_recorded_solution_of_225_1_is_a_solution() {
    // The README says rkkautsar-225-1 has a solution, the one Kissat found,
    // kept in benches/data. Check it against its givens and every unit, with
    // the independent checker.
    let solution =
        read_numbers(&std::fs::read_to_string(repo_path("benches/data/rkkautsar-225-1.solution.txt")).unwrap());
    let givens = read_numbers(&std::fs::read_to_string(checker::data_path("rkkautsar-225-1.txt")).unwrap());
    assert_solves(&Shape::classic(225), &givens, &solution, "rkkautsar-225-1");
}

#[test]
fn rkkautsar_225_1_is_solved_through_the_pattern_guess() {
    // Without the guess varisat has no answer in 25 minutes (README, "Pattern
    // guess"); with it, about a second (a few in a debug build).
    let name = "rkkautsar-225-1.txt";
    let text = std::fs::read_to_string(checker::data_path(name)).unwrap();
    let givens = read_numbers(&text);
    let entries = read_all(&text, name, &Alphabet::default(), &mut GeometrySpec::classic());
    let puzzle = entries[0].puzzle.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
    let (outcome, stats) = solve_with_stats(puzzle, &SolveOptions::default(), None).unwrap();
    let Outcome::Solved(grid) = outcome else { panic!("{name}: {outcome:?}") };
    assert_solves(&Shape::classic(225), &givens, &numbers(&grid), name);
    assert_eq!(stats.guess, Guess::Found);
}

/// Arguments outside the grid are refused, never read as something else
/// (a red-team pass of the library, 2026-11-28): a box of no rows made a
/// grid of side 0, a cell past the grid had a region, a cell index past 32
/// bits wrapped round to another cell, a value past the side was fixed in
/// a domain.
#[test]
fn arguments_outside_the_grid_are_refused() {
    use std::panic::catch_unwind;
    assert!(satdoku::box_side(0, 3).is_err());
    assert!(satdoku::box_side(0, 0).is_err());
    assert_eq!(satdoku::box_side(2, 3).ok(), Some(6));
    let g = Geometry::classic(4).unwrap();
    assert_eq!(g.region_of(satdoku::Cell::from_index(15)), Some(3));
    assert!(catch_unwind(|| g.region_of(satdoku::Cell::from_index(24))).is_err());
    assert!(catch_unwind(|| satdoku::Cell::from_index(1 << 32)).is_err());
    assert!(catch_unwind(|| {
        let mut domains = satdoku::Domains::full(4);
        domains.fix(satdoku::Cell::from_index(0), Value::new_checked(11, 16).unwrap());
    })
    .is_err());
}
