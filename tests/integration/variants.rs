//! Variant constraints against the rules: random clues of every kind, alone
//! and mixed, on 4×4 and 6×6 grids, counted by brute force over the tests'
//! own rules (util/rules.rs, util/brute.rs) and by the library under every
//! encoding and at-most-one kind; every solution checked; grid-file errors;
//! DIMACS comments that carry the clues; the example puzzles in `encodings/`.

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

use satdoku::cnf::{puzzle_cnf, read_cnf, write_cnf};
use satdoku::{count_up_to, parse_grid_file, AmoEncoding, Encoding, Grid, Puzzle, Search, SolveOptions, Value};

use crate::util::brute::Brute;
use crate::util::checker::repo_path;
use crate::util::checker::{check, numbers, read_symbols, Rng, Shape};
use crate::util::rules::{all_hold, clues_of_grid_file, grid_file, random_clue, Clue, KINDS};
use crate::util::{json_run, run, write_file};

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
/// solution of the default search checked against the units and the clues;
/// `analyze`'s candidates the union of the solutions.
fn agree(puzzle: &Puzzle, shape: &Shape, clues: &[Clue], givens: &[usize], expected: usize, what: &str) {
    let n = shape.n;
    let analysis = satdoku::analyze(puzzle, &satdoku::AnalyzeOptions::default()).unwrap();
    let analysed = analysis.candidates.map(|domains| {
        (0..n * n)
            .map(|i| {
                let cell = satdoku::Cell::from_index(i);
                (1..=n).filter(|&v| domains.contains(cell, Value::new_checked(v, n).unwrap())).collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    });
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
    let union: Option<Vec<Vec<usize>>> = (expected > 0).then(|| {
        (0..n * n)
            .map(|i| {
                let mut values: Vec<usize> = seen.iter().map(|g| g[i]).collect();
                values.sort_unstable();
                values.dedup();
                values
            })
            .collect()
    });
    assert_eq!(analysed, union, "{what}: analyze's candidates");
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
            ":3:9: killer: no 2 distinct values from 1 to 9 sum to 18",
        ),
        ("size = 9\n[[killer]]\ncells = \"r1c1 r10c2\"\n", ":3:15: killer: 'r10c2' is not a cell of a 9x9 grid"),
        (
            "size = 4\n[[thermo]]\ncells = \"r1c1 r1c2 r1c3 r1c4 r2c4\"\n",
            ":3:9: thermo: a thermometer needs 1 to 4 cells, not 5",
        ),
        (
            "size = 9\n[[arrow]]\ncircle = \"r1c1\"\ncells = \"r1c1 r2c2\"\n",
            ":4:9: arrow: the circle's cell r1c1 is on its own arrow",
        ),
        ("size = 9\nanti_bishop = true\n", ":2:1: unknown field `anti_bishop`"),
        (
            "size = 9\n[[sandwich]]\nline = \"r0\"\nsum = 5\n",
            ":3:8: sandwich: line \"r0\" is no row or column of a 9x9 grid (expected r1 to r9 or c1 to c9)",
        ),
        // One cell: said in the singular, and with what a cell can hold.
        (
            "size = 9\n[[killer]]\ncells = \"r1c1\"\nsum = 10\n",
            ":3:9: killer: a cage of 1 cell holds a value from 1 to 9, never 10",
        ),
        (
            "size = 9\n[[little_killer]]\ncells = \"r1c1\"\nsum = 10\n",
            ":3:9: little_killer: 1 cell holds a value from 1 to 9, never 10",
        ),
        (
            "size = 1\nlatin = true\n[[sandwich]]\nline = \"r1\"\nsum = 0\n",
            ":4:8: sandwich: a 1x1 line has no sandwich: its 1 and its 1 are one cell",
        ),
        (
            "size = 9\n[[kropki]]\ncells = \"r1c1 r1c2\"\nkind = \"grey\"\n",
            ":4:8: kropki: no kind \"grey\" (expected \"white\" or \"black\")",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let path = write_file(&dir, &format!("bad{i}.toml"), text);
        let cells = if text.starts_with("size = 1\n") { 1 } else { 81 };
        let r = run(&["solve", "--grid", &path], &".".repeat(cells));
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

/// `--variant hyper`: the library also makes units of the pieces between
/// the windows, which every hyper grid holds each value once in. The counts
/// under the stated windows alone (brute force) must stay: a blank 4×4, and
/// 9×9 puzzles cut from a hyper grid, values relabelled, down to 18 givens.
#[test]
fn hyper_counts_as_brute_force_over_the_stated_windows() {
    let count = |text: &str, puzzles: usize| -> Vec<u64> {
        let args = ["count", "--variant", "hyper", "--max", "1000000", "--format", "json"];
        json_run(&args, text, 0, puzzles).iter().map(|r| r["count"].as_u64().unwrap()).collect()
    };
    let blank = Brute::new(Shape::boxes(4, 2, 2).with_hyper_windows()).count_up_to(&[0; 16], 1_000_000);
    assert_eq!(count(&".".repeat(16), 1), [blank as u64]);

    let brute = Brute::new(Shape::classic(9).with_hyper_windows());
    let grid = brute.any(&[0; 81]).expect("a 9x9 hyper grid");
    let mut rng = Rng::new(14);
    let (mut text, mut expected) = (String::new(), Vec::new());
    for _ in 0..6 {
        let mut labels: Vec<usize> = (1..=9).collect();
        rng.shuffle(&mut labels);
        let mut givens: Vec<usize> = grid.iter().map(|&v| labels[v - 1]).collect();
        let mut cells: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut cells);
        cells[18..].iter().for_each(|&c| givens[c] = 0);
        expected.push(brute.count_up_to(&givens, 1_000_000) as u64);
        text += &givens.iter().map(|&v| if v == 0 { '.' } else { char::from(b'0' + v as u8) }).collect::<String>();
        text.push('\n');
    }
    assert!(expected.iter().all(|&c| c > 1 && c < 1_000_000), "the cases need several solutions: {expected:?}");
    assert_eq!(count(&text, 6), expected, "{text}");
}

/// `analyze` with those variants on a 5×5 Latin square holding only 1 and 2,
/// and with disjoint groups on a 4×4 holding only a 1: its candidates are the
/// values of the brute-force solutions. Values no given holds are
/// interchangeable under units, anti-knight and anti-king, and analyze
/// renames them to save solver calls; non-consecutive orders them, so it
/// must not.
#[test]
fn command_line_variants_analyze_as_brute_force() {
    let givens = "1.2......................";
    let all = Brute::new(Shape::latin(5)).solutions(&read_symbols(givens), 100_000).unwrap();
    for (name, clue) in
        [("anti-knight", Clue::AntiKnight), ("anti-king", Clue::AntiKing), ("non-consecutive", Clue::NonConsecutive)]
    {
        let kept: Vec<_> = all.iter().filter(|g| all_hold(std::slice::from_ref(&clue), g, 5).is_ok()).collect();
        assert!(kept.len() > 1, "{name}: the case needs several solutions, not {}", kept.len());
        let candidates: Vec<String> = (0..25)
            .map(|c| kept.iter().map(|g| g[c]).collect::<BTreeSet<_>>().iter().map(|v| v.to_string()).collect())
            .collect();
        let record = &json_run(&["analyze", "--latin", "--variant", name, "--format", "json"], givens, 0, 1)[0];
        assert_eq!(record["candidates"], serde_json::json!(candidates), "{name}: {record}");
    }
    // Disjoint groups are units: the cells in the same place of each 2×2 box.
    let mut shape = Shape::boxes(4, 2, 2);
    shape
        .units
        .extend((0..4).map(|place| (0..4).map(|b| (b / 2 * 2 + place / 2) * 4 + b % 2 * 2 + place % 2).collect()));
    let givens = "1...............";
    let (union, _) = Brute::new(shape).candidates(&read_symbols(givens));
    let candidates: Vec<String> =
        union.iter().map(|&m| (1..=4).filter(|v| m & (1 << (v - 1)) != 0).map(|v| v.to_string()).collect()).collect();
    let record = &json_run(&["analyze", "--variant", "disjoint-groups", "--format", "json"], givens, 0, 1)[0];
    assert_eq!(record["candidates"], serde_json::json!(candidates), "disjoint groups: {record}");
}

/// The example puzzles in `encodings/variants/`: (grid file, givens file, its clues read here).
fn examples() -> Vec<(String, String, Vec<Clue>)> {
    let dir = repo_path("encodings/variants");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) == Some("toml") {
            let clues = clues_of_grid_file(&std::fs::read_to_string(&path).unwrap());
            let givens = path.with_extension("txt");
            out.push((path.to_str().unwrap().to_string(), givens.to_str().unwrap().to_string(), clues));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 5, "the shipped variant examples");
    out
}

fn givens_of(path: &str) -> Vec<usize> {
    std::fs::read_to_string(path).unwrap().trim().chars().map(|c| c.to_digit(10).unwrap_or(0) as usize).collect()
}

fn assert_example_solution(solution: &str, givens: &[usize], clues: &[Clue], what: &str) {
    let grid: Vec<usize> = solution.chars().map(|c| c.to_digit(10).unwrap() as usize).collect();
    check(&Shape::boxes(9, 3, 3), givens, &grid).unwrap_or_else(|e| panic!("{what}: {e}"));
    all_hold(clues, &grid, 9).unwrap_or_else(|e| panic!("{what}: {e}"));
}

/// Every example has exactly one solution, which keeps every clue (read here
/// from the file); `analyze` fixes every cell; the same through f-puzzles.
#[test]
fn the_example_puzzles_are_unique_and_keep_every_clue() {
    for (grid, givens_file, clues) in examples() {
        let givens = givens_of(&givens_file);
        let recs = json_run(&["solve", "--unique", "--format", "json", "--grid", &grid, &givens_file], "", 0, 1);
        assert_eq!(recs[0]["status"], "unique", "{grid}");
        let solution = recs[0]["solution"].as_str().unwrap().to_string();
        assert_example_solution(&solution, &givens, &clues, &grid);
        let recs = json_run(&["analyze", "--format", "json", "--grid", &grid, &givens_file], "", 0, 1);
        assert_eq!(recs[0]["fixed"].as_str().unwrap(), solution, "{grid}");
        // Out to f-puzzles with the solution filled in, and back: the same puzzle.
        let r = run(&["solve", "--format", "fpuzzles", "--grid", &grid, &givens_file], "");
        assert_eq!(r.code, 0, "{}", r.stderr);
        let url = format!("https://www.f-puzzles.com/?load={}", r.stdout.trim());
        let recs = json_run(&["solve", "--unique", "--format", "json", "--fpuzzles", &url], "", 0, 1);
        assert_eq!(recs[0]["status"], "unique", "{grid} through f-puzzles");
        assert_example_solution(recs[0]["solution"].as_str().unwrap(), &givens, &clues, &grid);
    }
}

/// dimacs → an external solver → decode, and `solve --solver`, on the examples.
#[test]
fn external_solvers_solve_the_examples_through_the_cnf() {
    let installed = |program: &str| {
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
    };
    if !installed("minisat") {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true needs minisat");
        eprintln!("note: minisat is not installed; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (i, (grid, givens_file, clues)) in examples().into_iter().enumerate() {
        let givens = givens_of(&givens_file);
        for encoding in ["full", "propagated"] {
            let cnf = dir.path().join(format!("{i}-{encoding}.cnf"));
            let model = dir.path().join(format!("{i}-{encoding}.model"));
            let cnf = cnf.to_str().unwrap();
            let r = run(&["dimacs", "--grid", &grid, &givens_file, "--encoding", encoding, "--out", cnf], "");
            assert_eq!(r.code, 0, "{}", r.stderr);
            let status = std::process::Command::new("minisat").arg("-verb=0").arg(cnf).arg(&model).output().unwrap();
            assert_eq!(status.status.code(), Some(10), "{grid}");
            // decode reads the clues from the CNF's comments alone.
            let recs = json_run(&["decode", "--cnf", cnf, model.to_str().unwrap(), "--format", "json"], "", 0, 1);
            assert_example_solution(recs[0]["solution"].as_str().unwrap(), &givens, &clues, &grid);
        }
        let recs = json_run(
            &["solve", "--solver", "minisat -verb=0 {cnf} {result}", "--format", "json", "--grid", &grid, &givens_file],
            "",
            0,
            1,
        );
        assert_example_solution(recs[0]["solution"].as_str().unwrap(), &givens, &clues, &grid);
    }
}

/// f-puzzles input: JSON by hand, every field satdoku reads; unsupported constraints named; bad cells with their JSON path.
#[test]
fn fpuzzles_json_is_read_with_every_supported_field() {
    let dir = tempfile::tempdir().unwrap();
    // The clues are true of the pattern grid `hidden`; a third of it is given.
    let hidden: Vec<usize> = (0..36).map(|i| (3 * ((i / 6) % 2) + (i / 6) / 2 + i % 6) % 6 + 1).collect();
    let mut givens = vec![0; 36];
    let mut grid = vec![vec![serde_json::json!({}); 6]; 6];
    for i in (0..36).step_by(3) {
        givens[i] = hidden[i];
        grid[i / 6][i % 6] = serde_json::json!({ "value": hidden[i], "given": true });
    }
    // A solver's filled-in value is no given.
    grid[5][5] = serde_json::json!({ "value": 3 });
    let json = serde_json::json!({
        "size": 6, "grid": grid, "title": "t", "author": "a",
        "killercage": [{ "cells": ["R1C2", "R1C3"], "value": "5" }],
        "thermometer": [{ "lines": [["R3C1", "R3C2", "R3C3"]] }],
        "difference": [{ "cells": ["R6C2", "R6C3"] }],
        "ratio": [{ "cells": ["R2C6", "R3C6"], "value": "3" }],
        "xv": [{ "cells": ["R1C1", "R2C1"], "value": "V" }],
        "odd": [{ "cell": "R2C2" }],
        "even": [{ "cell": "R2C3" }],
        "littlekillersum": [{ "cell": "R0C4", "direction": "DR", "value": "8" }],
        "sandwichsum": [{ "cell": "R0C6", "value": "3" }],
        "arrow": [{ "cells": ["R4C6"], "lines": [["R4C6", "R5C5", "R6C4"]] }],
        "palindrome": [{ "lines": [["R1C6", "R2C5", "R3C5"]] }],
        "line": [{ "lines": [["R1C1", "R2C2"]], "outlineC": "#000" }],
    });
    let path = write_file(&dir, "p.json", &json.to_string());
    let r = run(&["count", "--format", "json", "--fpuzzles", &path], "");
    let record: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    let count = record["count"].as_u64().unwrap() as usize;
    // The same clues, counted by brute force over the rules.
    let clues = vec![
        Clue::Killer(vec![(0, 1), (0, 2)], Some(5)),
        Clue::Thermo(vec![(2, 0), (2, 1), (2, 2)]),
        Clue::Difference((5, 1), (5, 2), 1),
        Clue::Ratio((1, 5), (2, 5), 3),
        Clue::V((0, 0), (1, 0)),
        Clue::Odd(vec![(1, 1)]),
        Clue::Even(vec![(1, 2)]),
        Clue::LittleKiller(vec![(0, 4), (1, 5)], 8),
        Clue::Sandwich(false, 5, 3),
        Clue::Arrow(vec![(3, 5)], vec![(4, 4), (5, 3)]),
        Clue::Palindrome(vec![(0, 5), (1, 4), (2, 4)]),
    ];
    all_hold(&clues, &hidden, 6).expect("test bug: the clues are true of the hidden grid");
    let shape = Shape::boxes(6, 2, 3);
    let brute = Brute::new(shape).solutions(&givens, 100_000).expect("few enough grids");
    let expected = brute.iter().filter(|g| all_hold(&clues, g, 6).is_ok()).count();
    assert_eq!(count, expected);
    assert!(expected >= 1);
    // Unsupported constraints and bad cells: exit 2, named.
    for (field, value, message) in [
        ("quadruple", serde_json::json!([{ "cells": ["R1C1"], "values": [1] }]), "`quadruple` is not supported"),
        ("clone", serde_json::json!([{ "cells": ["R1C1"], "cloneCells": ["R2C2"] }]), "`clone` is not supported"),
        (
            "killercage",
            serde_json::json!([{ "cells": ["R1C1", "R9C9"] }]),
            "killercage[0].cells[1]: 'R9C9' is not a cell",
        ),
        ("negative", serde_json::json!(["difference"]), "negative[0]"),
    ] {
        let mut bad = json.clone();
        bad[field] = value;
        let path = write_file(&dir, "bad.json", &bad.to_string());
        let r = run(&["solve", "--fpuzzles", &path], "");
        assert_eq!(r.code, 2, "{field}");
        assert!(r.stderr.contains(message), "{field}: {}", r.stderr);
    }
    let r = run(&["solve", "--fpuzzles", "N4IgzglgXgpiBcBOANCA5gJwgEwQbT1AD"], "");
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// f-puzzles arrows that no drawing makes were read as other clues: a circle
/// cell anywhere on a line was dropped (circle R1C2 on R1C1 R1C2 R1C3 read
/// as R1C1 + R1C3 = R1C2), and a pill of cells apart read as a number. Each
/// is refused now, exit 2, at its JSON path; a line that starts at its
/// circle, and a pill side by side, are read, counted against brute force.
#[test]
fn fpuzzles_arrows_that_leave_their_circle_are_read_and_others_refused() {
    let dir = tempfile::tempdir().unwrap();
    let row = serde_json::json!([{}, {}, {}, {}]);
    let puzzle = |arrow: serde_json::Value| {
        serde_json::json!({ "size": 4, "grid": [row, row, row, row], "arrow": arrow }).to_string()
    };
    for (arrow, says) in [
        (
            serde_json::json!([{ "cells": ["R1C2"], "lines": [["R1C1", "R1C2", "R1C3"]] }]),
            "f-puzzles arrow[0].lines[0]: arrow: the circle's cell r1c2 is on its own arrow",
        ),
        (
            serde_json::json!([{ "cells": ["R1C1"], "lines": [["R1C1", "R1C2", "R1C1"]] }]),
            "f-puzzles arrow[0].lines[0]: arrow: the circle's cell r1c1 is on its own arrow",
        ),
        (
            serde_json::json!([{ "cells": ["R1C1"], "lines": [["R1C1", "R2C2"], ["R1C1", "R2C1", "R2C1"]] }]),
            "f-puzzles arrow[0].lines[1]: arrow: cell r2c1 appears twice",
        ),
        (
            serde_json::json!([{ "cells": ["R1C1", "R4C4"], "lines": [["R1C1", "R2C2"]] }]),
            "f-puzzles arrow[0].cells: the pill R1C1 R4C4 is not one row or column of neighbouring cells",
        ),
    ] {
        let path = write_file(&dir, "arrow.json", &puzzle(arrow.clone()));
        let r = run(&["count", "--fpuzzles", &path], "");
        assert_eq!(r.code, 2, "{arrow}: {}", r.stdout);
        assert!(r.stderr.contains(says), "{arrow}: {}", r.stderr);
    }
    // An arrow from r4c4, and a pill r1c1 r1c2 listed right to left whose
    // line leaves from r1c2.
    let arrows = serde_json::json!([
        { "cells": ["R4C4"], "lines": [["R4C4", "R3C3", "R2C3"]] },
        { "cells": ["R1C2", "R1C1"], "lines": [["R1C2", "R2C3", "R3C4", "R4C3", "R3C2"]] },
    ]);
    let path = write_file(&dir, "arrow.json", &puzzle(arrows));
    let records = json_run(&["count", "--format", "json", "--fpuzzles", &path], "", 0, 1);
    let clues = [
        Clue::Arrow(vec![(3, 3)], vec![(2, 2), (1, 2)]),
        Clue::Arrow(vec![(0, 0), (0, 1)], vec![(1, 2), (2, 3), (3, 2), (2, 1)]),
    ];
    let brute = Brute::new(Shape::boxes(4, 2, 2)).solutions(&[0; 16], 1000).expect("288 grids");
    let expected = brute.iter().filter(|g| all_hold(&clues, g, 4).is_ok()).count();
    assert!(expected > 0);
    assert_eq!(records[0]["count"], serde_json::json!(expected), "{}", records[0]);
}

/// A file of f-puzzles strings, one a line, as `generate --format fpuzzles`
/// writes it: each is a record, in order, a line that is no puzzle an
/// `invalid` record in its place. Only the first used to be read, and text
/// after a compressed string was dropped without a word.
#[test]
fn a_file_of_f_puzzles_strings_is_one_record_each() {
    let dir = tempfile::TempDir::new().unwrap();
    let args = ["generate", "--box", "2x2", "--count", "3", "--seed", "3", "--format"];
    let made = json_run(&[&args[..], &["json"]].concat(), "", 0, 3);
    let strings = run(&[&args[..], &["fpuzzles"]].concat(), "");
    let lines: Vec<&str> = strings.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", strings.stdout);
    let file = write_file(
        &dir,
        "three.txt",
        &format!("{}\nhello world\n\n# a comment\n{}\n{}\n", lines[0], lines[1], lines[2]),
    );
    let recs = json_run(&["solve", "--format", "json", "--fpuzzles", &file], "", 2, 4);
    let statuses: Vec<&str> = recs.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["solved", "invalid", "solved", "solved"]);
    let sources: Vec<&str> = recs.iter().map(|r| r["source"].as_str().unwrap()).collect();
    let at = |line: usize| format!("{file}:{line}");
    assert_eq!(sources, [at(1), at(2), at(5), at(6)]);
    // Each solution is its own puzzle's, checked against the givens and the rules.
    for (rec, puzzle) in [&recs[0], &recs[2], &recs[3]].into_iter().zip(&made) {
        let givens = read_symbols(puzzle["puzzle"].as_str().unwrap());
        let solution = read_symbols(rec["solution"].as_str().unwrap());
        check(&Shape::boxes(4, 2, 2), &givens, &solution).unwrap();
    }
    // Text after a compressed string is named, not dropped.
    for tail in ["xyz", " more", "=="] {
        let r = run(&["solve", "--format", "json", "--fpuzzles", &format!("{}{tail}", lines[0])], "");
        let recs = crate::util::json_lines(&r.stdout);
        match tail {
            "==" => assert_eq!((r.code, recs.len()), (0, 1), "padding is no text: {}", r.stderr),
            _ => {
                assert_eq!((r.code, recs.len(), recs[0]["status"].as_str()), (2, 1, Some("invalid")), "{tail}");
                assert!(r.stderr.contains("follows the compressed string"), "{tail}: {}", r.stderr);
            }
        }
    }
    // A `--symbols` alphabet too short for the grid: each puzzle says so, as a file's would.
    let recs = json_run(&["solve", "--format", "json", "--symbols", "AB", "--fpuzzles", &file], "", 2, 4);
    assert!(recs.iter().all(|r| r["error"].as_str().is_some_and(|e| e.contains("--symbols gives 2 symbols"))
        || r["source"] == at(2).as_str()));
    // A command that takes one grid refuses several.
    let r = run(&["generate", "--fpuzzles", &file], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--fpuzzles: 4 puzzles, where this command takes one grid"), "{}", r.stderr);
}

/// `generate` on a grid with variant clues: each puzzle's solution keeps every clue, and the puzzle is unique.
#[test]
fn generated_variant_puzzles_keep_their_clues_and_are_unique() {
    let grid = repo_path("encodings/variants/lines-9.toml").to_str().unwrap().to_string();
    let clues = clues_of_grid_file(&std::fs::read_to_string(&grid).unwrap());
    let recs = json_run(&["generate", "--grid", &grid, "--count", "2", "--seed", "5", "--format", "json"], "", 0, 2);
    for rec in &recs {
        let puzzle = rec["puzzle"].as_str().unwrap();
        let givens: Vec<usize> = puzzle.chars().map(|c| c.to_digit(10).unwrap_or(0) as usize).collect();
        assert_example_solution(rec["solution"].as_str().unwrap(), &givens, &clues, puzzle);
        let counted = json_run(&["count", "--format", "json", "--grid", &grid], puzzle, 0, 1);
        assert_eq!(counted[0]["count"], 1, "{puzzle}");
    }
}

/// Random clue sets on 4×4 through minisat: the CNF satdoku writes is
/// satisfiable exactly when brute force finds a solution, and the model
/// decodes to a grid that keeps every clue.
#[test]
fn random_clues_through_minisat_agree_with_brute_force() {
    let installed =
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("minisat").is_file()));
    if !installed {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true needs minisat");
        eprintln!("note: minisat is not installed; skipping");
        return;
    }
    let shape = Shape::boxes(4, 2, 2);
    let all: Vec<Vec<usize>> = Brute::new(shape.clone()).solutions(&[0; 16], 1000).unwrap().into_iter().collect();
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(23);
    let mut both = [0, 0];
    for round in 0..40 {
        let kinds: Vec<usize> = (0..1 + rng.below(3)).map(|_| rng.below(KINDS)).collect();
        let hidden = all[rng.below(all.len())].clone();
        let clues: Vec<Clue> = kinds.iter().map(|&k| random_clue(k, 4, &hidden, rng.below(3) > 0, &mut rng)).collect();
        let text = grid_file(4, 2, 2, &clues);
        let Some(puzzle) = puzzle_of(&text, &[0; 16]) else { continue };
        let expected = all.iter().filter(|g| all_hold(&clues, g, 4).is_ok()).count();
        let encoding = if round % 2 == 0 { Encoding::Full } else { Encoding::Propagated };
        let options = SolveOptions { encoding, ..SolveOptions::default() };
        let cnf_path = dir.path().join(format!("{round}.cnf"));
        let model_path = dir.path().join(format!("{round}.model"));
        let mut dimacs = Vec::new();
        write_cnf(&mut dimacs, &puzzle_cnf(&puzzle, &options).unwrap()).unwrap();
        std::fs::write(&cnf_path, &dimacs).unwrap();
        let out =
            std::process::Command::new("minisat").arg("-verb=0").arg(&cnf_path).arg(&model_path).output().unwrap();
        match out.status.code() {
            Some(10) => {
                assert!(expected > 0, "{text}: minisat found a model where there is no solution");
                let cnf = read_cnf(&dimacs[..], "case.cnf").unwrap();
                let answer = std::fs::read(&model_path).unwrap();
                let satdoku::cnf::Answer::Satisfiable(model) =
                    satdoku::cnf::read_model(&answer[..], "model", cnf.formula.var_count()).unwrap()
                else {
                    panic!("{text}: minisat said SAT but wrote no model")
                };
                let grid = numbers(&cnf.decode(&model, "model").unwrap());
                check(&shape, &[0; 16], &grid).unwrap();
                all_hold(&clues, &grid, 4).unwrap_or_else(|e| panic!("{text}: {e}"));
                both[0] += 1;
            }
            Some(20) => {
                assert_eq!(expected, 0, "{text}: minisat says unsatisfiable");
                both[1] += 1;
            }
            other => panic!("minisat: {other:?}"),
        }
    }
    assert!(both[0] > 5 && both[1] > 5, "{both:?}");
}

/// The text grid lists every clue under the grid, one line each, with its
/// cells: counted here from the grid files themselves.
#[test]
fn the_text_grid_lists_every_clue_under_it() {
    for name in ["killer-9", "anti-knight-thermo-arrow-9", "kropki-9", "lines-9", "xv-sandwich-9"] {
        let toml = std::fs::read_to_string(repo_path(&format!("encodings/variants/{name}.toml"))).unwrap();
        let tables = toml.lines().filter(|l| l.trim_start().starts_with("[[")).count();
        let grid = format!("encodings/variants/{name}.toml");
        let puzzle = std::fs::read_to_string(repo_path(&format!("encodings/variants/{name}.txt"))).unwrap();
        let r = run(&["--grid", &grid, "solve", "--format", "grid"], &puzzle);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let clues: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("clue: ")).collect();
        assert!(clues.len() >= tables, "{name}: {} clue lines for {tables} tables:\n{}", clues.len(), r.stdout);
        for cells in toml.lines().filter_map(|l| l.trim().strip_prefix("cells = \"")) {
            let cells = cells.split('"').next().unwrap();
            assert!(clues.iter().any(|c| c.ends_with(cells)), "{name}: no clue line for {cells}:\n{}", r.stdout);
        }
    }
}
