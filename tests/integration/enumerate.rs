//! Enumeration and counting against known counts and an independent brute-force counter.
//!
//! The rules a solution must keep (rows, columns, boxes, regions, diagonals)
//! come from the independent checker, and the brute-force counter runs over
//! them, so that neither shares code with the library they judge.

use std::collections::HashSet;
use std::sync::Arc;

use satdoku::{count_up_to, Geometry, Grid, Layout, Puzzle, Search, SolveOptions, Strategy, Value, Variant};

use crate::util::brute::Brute;
use crate::util::checker::{assert_solves, data_lines, numbers, read_solution_line, read_symbols, Rng, Shape};
use crate::util::{json_lines, json_run, run, satdoku};

/// The units of a grid, from the independent checker, with a brute-force
/// enumerator over them.
fn rules_for(n: usize, third: Third, x: bool) -> Brute {
    let shape = match third {
        Third::None => Shape::latin(n),
        Third::Boxes(rows, cols) => Shape::boxes(n, rows, cols),
        Third::Regions(ref map) => Shape::jigsaw(n, map),
    };
    Brute::new(if x { shape.with_diagonals() } else { shape })
}

#[derive(Clone)]
enum Third {
    None,
    Boxes(usize, usize),
    Regions(Vec<usize>),
}

fn geometry(n: usize, third: &Third, x: bool) -> Geometry {
    let variants: &[Variant] = if x { &[Variant::X] } else { &[] };
    let layout = match third {
        Third::None => Layout::Latin,
        Third::Boxes(rows, cols) => Layout::Boxes { rows: *rows, cols: *cols },
        Third::Regions(map) => Layout::Regions(map.iter().map(|&r| r as u32).collect()),
    };
    Geometry::new(n, layout, variants).unwrap()
}

fn puzzle(geometry: Geometry, givens: &[usize]) -> Puzzle {
    let n = geometry.size();
    let cells = givens.iter().map(|&g| Value::new_checked(g, n)).collect();
    Puzzle::new(Arc::new(geometry), Grid::from_cells(n, cells).unwrap()).unwrap()
}

/// Every solution the library yields, each checked by `rules`, all distinct.
fn solutions(puzzle: &Puzzle, rules: &Brute, givens: &[usize], strategy: Strategy) -> HashSet<Vec<usize>> {
    let mut seen = HashSet::new();
    for solution in Search::with_strategy(puzzle, &SolveOptions::default(), strategy) {
        let grid = numbers(&solution.unwrap());
        assert_solves(rules.shape(), givens, &grid, "not a solution");
        assert!(seen.insert(grid.clone()), "yielded twice: {grid:?}");
    }
    seen
}

fn count(puzzle: &Puzzle) -> u64 {
    let c = count_up_to(puzzle, u64::MAX, &SolveOptions::default()).unwrap();
    assert!(!c.capped);
    c.count
}

#[test]
fn empty_grids_have_their_known_counts() {
    let cases = [
        (4, Third::Boxes(2, 2), 288),
        (4, Third::None, 576),
        (3, Third::None, 12),
        // Latin squares of order 5 (OEIS A002860).
        (5, Third::None, 161_280),
    ];
    for (n, third, expected) in cases {
        let p = puzzle(geometry(n, &third, false), &vec![0; n * n]);
        assert_eq!(count(&p), expected, "{n}x{n}");
    }
    let rules = rules_for(4, Third::None, false);
    let p = puzzle(geometry(4, &Third::None, false), &[0; 16]);
    assert_eq!(solutions(&p, &rules, &[0; 16], Strategy::Branch).len(), 576);
}

#[test]
fn every_6x6_known_count() {
    let mut lines = 0;
    for line in data_lines("6x6-known-counts.txt") {
        let fields: Vec<&str> = line.split('\t').collect();
        let (rows, cols) = fields[1].split_once('x').unwrap();
        let third = Third::Boxes(rows.parse().unwrap(), cols.parse().unwrap());
        let expected: u64 = fields[2].trim().parse().unwrap();
        let givens = read_symbols(fields[0]);
        let p = puzzle(geometry(6, &third, false), &givens);
        let rules = rules_for(6, third, false);
        assert_eq!(count(&p), expected, "{line}");
        for strategy in [Strategy::Branch, Strategy::Blocking] {
            assert_eq!(solutions(&p, &rules, &givens, strategy).len() as u64, expected, "{line}");
        }
        lines += 1;
    }
    assert_eq!(lines, 6);
}

#[test]
fn every_counted_9x9() {
    let rules = rules_for(9, Third::Boxes(3, 3), false);
    let mut lines = 0;
    let mut most = 0;
    for line in data_lines("counted.txt") {
        let fields: Vec<&str> = line.split(':').collect();
        let givens = read_symbols(fields[0]);
        let expected: u64 = fields[1].parse().unwrap();
        let p = puzzle(Geometry::classic(9).unwrap(), &givens);
        let found = solutions(&p, &rules, &givens, Strategy::Branch);
        assert_eq!(found.len() as u64, expected, "{line}");
        assert_eq!(count(&p), expected, "{line}");
        if let Some(known) = fields.get(2) {
            assert!(found.contains(&read_symbols(known)), "the published solution is missing: {line}");
        }
        most = most.max(expected);
        lines += 1;
    }
    assert_eq!((lines, most), (43, 847));
}

fn random_regions(n: usize, rng: &mut Rng) -> Vec<usize> {
    'attempt: loop {
        let mut map = vec![usize::MAX; n * n];
        let mut cells: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut cells);
        let mut members: Vec<Vec<usize>> = Vec::new();
        for (r, &seed) in cells[..n].iter().enumerate() {
            map[seed] = r;
            members.push(vec![seed]);
        }
        for _ in 0..n * n - n {
            let open: Vec<usize> = (0..n).filter(|&r| members[r].len() < n).collect();
            let r = open[rng.below(open.len())];
            let mut frontier: Vec<usize> = Vec::new();
            for &c in &members[r] {
                let (row, col) = (c / n, c % n);
                if row > 0 {
                    frontier.push(c - n)
                }
                if row + 1 < n {
                    frontier.push(c + n)
                }
                if col > 0 {
                    frontier.push(c - 1)
                }
                if col + 1 < n {
                    frontier.push(c + 1)
                }
            }
            frontier.retain(|&c| map[c] == usize::MAX);
            if frontier.is_empty() {
                continue 'attempt;
            }
            let c = frontier[rng.below(frontier.len())];
            map[c] = r;
            members[r].push(c);
        }
        return map;
    }
}

/// Random jigsaw and X puzzles, counted by the library and by brute force: the
/// same solutions, each checked, none twice.
#[test]
fn generated_jigsaw_and_x_puzzles_match_brute_force() {
    let mut rng = Rng::new(0x5eed_1234_abcd_0001);
    let mut nonzero = 0;
    for round in 0..60 {
        let n = 4 + round % 3;
        let x = round % 2 == 1;
        let third =
            if round % 5 == 4 && n != 5 { Third::Boxes(2, n / 2) } else { Third::Regions(random_regions(n, &mut rng)) };
        let rules = rules_for(n, third.clone(), x);
        let g = geometry(n, &third, x);
        // A full solution by brute force on an empty grid, then a random share of it as givens.
        let mut givens = vec![0; n * n];
        let Some(first) = rules.first(&givens) else {
            // No solution at all, or too long to find by brute force: the library must agree on none.
            if rules.solutions(&givens, 0).is_some() {
                assert_eq!(count(&puzzle(g, &givens)), 0, "round {round}");
            }
            continue;
        };
        let mut order: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut order);
        let keep = if n == 4 { rng.below(6) } else { n * n / 6 + rng.below(n) };
        for &c in &order[..keep] {
            givens[c] = first[c];
        }
        // A stray given now and then: counts of 0 matter too.
        if round % 7 == 3 {
            givens[order[keep]] = 1 + rng.below(n);
        }
        let expected = loop {
            if let Some(all) = rules.solutions(&givens, 2_000) {
                break all;
            }
            // Too many to enumerate quickly: give one more cell of the first solution.
            let more = order.iter().find(|&&c| givens[c] == 0).copied();
            match more {
                Some(c) => givens[c] = first[c],
                None => unreachable!("a full grid has at most one solution"),
            }
        };
        let p = puzzle(g, &givens);
        assert_eq!(solutions(&p, &rules, &givens, Strategy::Branch), expected, "round {round}");
        if expected.len() <= 300 {
            assert_eq!(solutions(&p, &rules, &givens, Strategy::Blocking), expected, "round {round}, blocking");
        }
        // varisat asked at every third dead end must not lose a solution either.
        let pruned: HashSet<Vec<usize>> =
            Search::new(&p, &SolveOptions::default()).sat_after(3).map(|s| numbers(&s.unwrap())).collect();
        assert_eq!(pruned, expected, "round {round}, sat_after(3)");
        assert_eq!(count(&p), expected.len() as u64, "round {round}");
        nonzero += usize::from(!expected.is_empty());
    }
    assert!(nonzero > 25, "too few puzzles with solutions: {nonzero}");
}

#[test]
fn take_stops_early_and_count_caps() {
    let p = puzzle(geometry(4, &Third::None, false), &[0; 16]);
    assert_eq!(Search::new(&p, &SolveOptions::default()).take(5).count(), 5);
    let c = count_up_to(&p, 100, &SolveOptions::default()).unwrap();
    assert_eq!((c.count, c.capped), (100, true));
}

// ---- the command line ----

#[test]
fn cli_all_streams_every_solution_checked() {
    // A 6x6 with 20 solutions under 3x2 boxes (known-counts), and one with none.
    let puzzles = ".....12....3..2.......45.16.........\n....1..2...3.....4..56........34....\n";
    let records = json_run(&["solve", "--all", "--box", "3x2", "--format", "json"], puzzles, 1, 21);
    let rules = rules_for(6, Third::Boxes(3, 2), false);
    let givens = read_symbols(".....12....3..2.......45.16.........");
    let mut seen = HashSet::new();
    for r in &records[..records.len() - 1] {
        assert_eq!(r["index"], 1);
        assert_eq!(r["status"], "solved");
        let grid = read_symbols(r["solution"].as_str().unwrap());
        assert_solves(rules.shape(), &givens, &grid, "--all");
        assert!(seen.insert(grid));
    }
    assert_eq!(seen.len(), 20);
    let last = &records[records.len() - 1];
    assert_eq!((last["index"].as_u64(), last["status"].as_str()), (Some(2), Some("unsolvable")));
}

/// Enumeration starts from a solution the construction finds: on a blank
/// 64×64 (the bitset search) and a blank 81×81 (varisat with blocking
/// clauses), neither search alone found a first solution in minutes, where
/// `solve` answers at once. `--timeout` turns a hang into a failure here.
#[test]
fn blank_big_grids_are_enumerated_from_a_constructed_solution() {
    for n in [64, 81] {
        let blank = vec!["0"; n * n].join(" ");
        let args = ["solve", "--all", "--max", "2", "--timeout", "120", "--format", "json"];
        let records = json_run(&args, &blank, 0, 2);
        let shape = Shape::classic(n);
        let grids: Vec<Vec<usize>> = records
            .iter()
            .map(|r| {
                assert_eq!(r["status"], "solved", "{n}×{n}: {r}");
                let grid = read_solution_line(r["solution"].as_str().unwrap(), None);
                assert_solves(&shape, &vec![0; n * n], &grid, "a blank grid's solution");
                grid
            })
            .collect();
        assert_ne!(grids[0], grids[1], "{n}×{n}: the same solution twice");
    }
}

/// Sparse 36×36s (2% and 10% given) are enumerated from a constructed
/// solution too, and the search asks varisat about its deepest open branch.
/// Before, listing 300 solutions of each took 64–118 s, nearly all of it in
/// varisat (303,200 conflicts for the first; now 0, 0 and 46): the bound on
/// its conflicts, a count of work the same on every machine, fails that
/// search. Each solution is checked, keeps the givens,
/// and is new.
#[test]
fn sparse_36x36s_are_enumerated_from_a_constructed_solution() {
    let shape = Shape::classic(36);
    for line in data_lines("sparse-36x36.txt") {
        let givens: Vec<usize> = line.split_whitespace().map(|w| w.parse().unwrap()).collect();
        let p = puzzle(Geometry::classic(36).unwrap(), &givens);
        let mut search = Search::new(&p, &SolveOptions::default());
        let mut seen = HashSet::new();
        for solution in search.by_ref().take(300) {
            let grid = numbers(&solution.unwrap());
            assert_solves(&shape, &givens, &grid, "a sparse 36×36's solution");
            assert!(seen.insert(grid), "a solution listed twice");
        }
        assert_eq!(seen.len(), 300);
        let conflicts = search.stats().conflicts.unwrap_or(0);
        assert!(conflicts <= 20_000, "{conflicts} conflicts for 300 solutions");
    }
}

/// Where the rules only ask cells to differ, the values no given holds
/// are interchangeable, and each renaming of a solution is another: a blank
/// 100×100's are listed, counted and analyzed without loading its 11.6
/// million clauses (`count --max 1000` gave no answer in 60 s before), and
/// a count without a limit, past 2⁶⁴ solutions, is an error rather than a
/// run without end.
#[test]
fn renamings_list_and_count_big_blank_grids_without_a_search() {
    let n = 100;
    let blank = vec!["0"; n * n].join(" ");
    let args = ["solve", "--all", "--max", "30", "--timeout", "120", "--format", "json"];
    let shape = Shape::classic(n);
    let mut seen = HashSet::new();
    for r in json_run(&args, &blank, 0, 30) {
        assert_eq!(r["status"], "solved", "{r}");
        let grid = read_solution_line(r["solution"].as_str().unwrap(), None);
        assert_solves(&shape, &vec![0; n * n], &grid, "a blank 100×100's solution");
        assert!(seen.insert(grid), "a solution listed twice");
    }
    let records = json_run(&["count", "--max", "1000", "--timeout", "120", "--format", "json"], &blank, 0, 1);
    assert_eq!((records[0]["count"].as_u64(), records[0]["capped"].as_bool()), (Some(1000), Some(true)));
    let records = json_run(&["analyze", "--timeout", "120", "--format", "json"], &blank, 0, 1);
    assert_eq!((records[0]["status"].as_str(), records[0]["count"].as_u64()), (Some("multiple"), Some(1000)));
    let candidates = records[0]["candidates"].as_array().unwrap();
    assert!(candidates.iter().all(|c| c.as_str().unwrap().split(',').count() == n), "a value ruled out");
    // Without a limit, with or without a proof of the count (which keeps
    // every solution: it ran out of memory).
    let dir = tempfile::TempDir::new().unwrap();
    let proof = dir.path().join("count.drat");
    for extra in [&[][..], &["--proof", proof.to_str().unwrap()]] {
        let args = [&["count", "--timeout", "120", "--format", "json"][..], extra].concat();
        let records = json_run(&args, &blank, 2, 1);
        assert_eq!(records[0]["status"], "error", "{args:?}");
        assert!(records[0]["error"].as_str().unwrap().contains("--max N"), "{args:?}: {}", records[0]);
    }
}

#[test]
fn cli_all_max_stops_each_puzzle() {
    let empty = ".".repeat(16);
    let records = json_run(&["solve", "--all", "--max", "3", "--format", "json"], &format!("{empty}\n{empty}\n"), 0, 6);
    let indices: Vec<u64> = records.iter().map(|r| r["index"].as_u64().unwrap()).collect();
    assert_eq!(indices, [1, 1, 1, 2, 2, 2]);
}

#[test]
fn cli_count_latin_and_caps() {
    satdoku().args(["count", "--latin"]).write_stdin("....\n....\n....\n....\n").assert().success().stdout("576\n");
    satdoku().args(["count", "--latin"]).write_stdin(".........\n").assert().success().stdout("12\n");
    satdoku().args(["count", "--max", "100"]).write_stdin(".".repeat(16)).assert().success().stdout("at least 100\n");
    let text = format!("{}\n{}\n", ".".repeat(16), "1234341221434321");
    let records = json_run(&["count", "--max", "100", "--format", "json"], &text, 0, 2);
    assert_eq!((records[0]["count"].as_u64(), records[0]["capped"].as_bool()), (Some(100), Some(true)));
    assert_eq!((records[1]["count"].as_u64(), records[1].get("capped")), (Some(1), None));
}

/// `--max` at a puzzle's known count gives that count, exactly: `capped`
/// means there are more. (A count that reached the limit was `capped`, so a
/// puzzle with exactly N solutions was "at least N", and `--max 1` could not
/// tell `unique` from `multiple`.) The known counts are tdoku's.
#[test]
fn a_max_the_count_reaches_is_no_cap() {
    for line in data_lines("counted.txt") {
        let fields: Vec<&str> = line.split(':').collect();
        let known: u64 = fields[1].parse().unwrap();
        let text = format!("{}\n", fields[0]);
        let (status, code) = match known {
            0 => ("unsolvable", 1),
            1 => ("unique", 0),
            _ => ("multiple", 0),
        };
        let maxes = [
            ("count", known),
            ("count", known.saturating_sub(1)),
            ("count", 1),
            ("analyze", known.max(2)),
            ("analyze", 1),
        ];
        for (command, max) in maxes.into_iter().filter(|&(_, max)| max > 0) {
            let records = json_run(&[command, "--max", &max.to_string(), "--format", "json"], &text, code, 1);
            let (count, capped) = (records[0]["count"].as_u64(), records[0]["capped"].as_bool());
            assert_eq!(
                (count, capped),
                (Some(max.min(known)), (max < known).then_some(true)),
                "{command} {max}: {line}"
            );
            assert_eq!(records[0]["status"], status, "{command} {max}: {line}");
        }
    }
}

/// A limit as large as a count can hold, or larger, is still a limit: never
/// the error that asks for one. (`--max 18446744073709551615` was taken for
/// no limit, and `analyze --max` with more digits was clap's own message.)
#[test]
fn the_largest_max_is_a_limit() {
    let blank = ".".repeat(625);
    for max in ["18446744073709551615", "99999999999999999999999"] {
        let records = json_run(&["count", "--max", max, "--timeout", "0.5", "--format", "json"], &blank, 2, 1);
        let error = records[0]["error"].as_str().unwrap();
        assert!(error.contains("--timeout") && !error.contains("--max"), "{max}: {}", records[0]);
        assert!(records[0]["count"].as_u64().unwrap() > 0, "{}", records[0]);
    }
    let records =
        json_run(&["analyze", "--max", "99999999999999999999999", "--format", "json"], "1234341221434321", 0, 1);
    assert_eq!(records[0]["status"], "unique");
    satdoku()
        .args(["analyze", "--max", "many"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("'many' is not a number of solutions (expected 0 or more)"));
}

#[test]
fn cli_count_unsolvable_and_invalid_exit_codes() {
    satdoku().arg("count").write_stdin("11..............\n").assert().code(1).stdout("0\n");
    satdoku().arg("count").write_stdin("1Z..............\n").assert().code(2);
}

#[test]
fn cli_unique_says_unique_multiple_or_unsolvable() {
    let puzzles = "....1..2...3.....4..56........34....\n.....12....3..2.......45.16.........\n..3...4.....2..3.5.....1.6.5.45...1.\n";
    let records = json_run(&["solve", "--unique", "--box", "3x2", "--format", "json"], puzzles, 1, 3);
    let statuses: Vec<&str> = records.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["unsolvable", "multiple", "unsolvable"]);
    let rules = rules_for(6, Third::Boxes(3, 2), false);
    let givens = read_symbols(".....12....3..2.......45.16.........");
    let two: Vec<Vec<usize>> =
        records[1]["solutions"].as_array().unwrap().iter().map(|s| read_symbols(s.as_str().unwrap())).collect();
    for g in &two {
        assert_solves(rules.shape(), &givens, g, "--unique, one of two");
    }
    assert_ne!(two[0], two[1]);

    let records = json_run(&["solve", "--unique", "--box", "2x3", "--format", "json"], puzzles, 0, 3);
    let rules = rules_for(6, Third::Boxes(2, 3), false);
    for (r, line) in records.iter().zip(puzzles.lines()) {
        assert_eq!(r["status"], "unique");
        assert_solves(rules.shape(), &read_symbols(line), &read_symbols(r["solution"].as_str().unwrap()), line);
    }
}

/// `explain --stats` and `minimize --stats` were taken and printed nothing
/// (tester s65c, F3): a line per puzzle on stderr, stdout as without it.
#[test]
fn explain_and_minimize_stats_say_what_was_done_per_puzzle() {
    let clash = "11..............\n";
    let unique = "1.....3..4.....2\n";
    for (args, input, says) in [
        (&["explain", "--stats"][..], clash, "2 givens clash in "),
        (&["explain", "--stats", "--cell", "r1c2"], unique, "1 cells explained in "),
        (&["minimize", "--stats"], unique, " of 4 givens kept in "),
    ] {
        let with = satdoku().args(args).write_stdin(input).output().unwrap();
        let plain = satdoku().args(args.iter().filter(|a| **a != "--stats")).write_stdin(input).output().unwrap();
        assert_eq!(with.stdout, plain.stdout, "{args:?}");
        let err = String::from_utf8_lossy(&with.stderr);
        assert!(err.starts_with("puzzle 1 (<stdin>:1): 4x4, 2x2 boxes: ") && err.contains(says), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn count_stats_go_to_stderr_and_leave_stdout_alone() {
    let out = satdoku().args(["count", "--stats"]).write_stdin("................\n").output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "288");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("4x4") && err.contains("288 solutions"), "{err}");
}

/// Why a puzzle has no solution is said by every command where the whole
/// propagation shows it: `count` and `solve --unique` left `reason` out for
/// a pencil-mark puzzle that `solve` and `analyze` gave one for, their
/// search's preparation being singles alone (tester s65c, F5).
#[test]
fn every_command_says_why_a_pencil_mark_puzzle_has_no_solution() {
    // Top95's first puzzle as pencil marks, 1 (its solution's) taken out of r1c2.
    let puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let mut marks: String = puzzle
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(v) => (1..=9).map(|w| if w == v { c } else { '.' }).collect(),
            None => "123456789".to_string(),
        })
        .collect();
    marks.replace_range(9..10, ".");
    let input = format!("{marks}\n");
    let mut reasons = Vec::new();
    for args in [&["solve"][..], &["count"], &["solve", "--unique"], &["analyze"]] {
        let r = run(&[args, &["--format", "json"]].concat(), &input);
        let records = json_lines(&r.stdout);
        assert_eq!(records.len(), 1, "{args:?}: {}", r.stderr);
        assert_eq!(records[0]["status"], "unsolvable", "{args:?}: {}", records[0]);
        let reason = records[0]["reason"].as_str().unwrap_or_else(|| panic!("{args:?}: no reason: {}", records[0]));
        reasons.push(reason.to_string());
    }
    assert!(reasons.iter().all(|r| *r == reasons[0]), "{reasons:?}");
}
