//! Enumeration and counting against known counts and an independent brute-force counter.
//!
//! The rules a solution must keep (rows, columns, boxes, regions, diagonals)
//! come from the independent checker in `tests/common`, so that the checker
//! and the brute-force counter share no code with the library they judge.

use crate::util::checker as common;

use std::collections::HashSet;
use std::sync::Arc;

use assert_cmd::Command;
use common::{Rng, Shape};
use satdoku::{count_up_to, Geometry, Grid, Layout, Puzzle, Search, SolveOptions, Strategy, Value, Variant};

/// The units of a grid (from the independent checker in `tests/common`),
/// with a brute-force enumerator over them.
struct Rules {
    n: usize,
    shape: Shape,
}

impl Rules {
    fn new(n: usize, third: Third, x: bool) -> Rules {
        let shape = match third {
            Third::None => Shape::latin(n),
            Third::Boxes(rows, cols) => Shape::boxes(n, rows, cols),
            Third::Regions(ref map) => Shape::jigsaw(n, map),
        };
        let shape = if x { shape.with_diagonals() } else { shape };
        Rules { n, shape }
    }

    /// Whether `grid` (values 1..=n) fills every unit with every value and keeps the givens.
    fn is_solution(&self, givens: &[u8], grid: &[u8]) -> bool {
        let wide = |cells: &[u8]| cells.iter().map(|&v| v as usize).collect::<Vec<_>>();
        common::check(&self.shape, &wide(givens), &wide(grid)).is_ok()
    }

    /// Every solution, by plain backtracking over the cells in order; None when
    /// there are more than `limit` or the search takes over a million steps.
    fn brute_force(&self, givens: &[u8], limit: usize) -> Option<HashSet<Vec<u8>>> {
        let (found, complete) = self.search(givens, limit + 1);
        complete.then_some(found)
    }

    /// The first solution in backtracking order, if one turns up within the steps.
    fn first(&self, givens: &[u8]) -> Option<Vec<u8>> {
        self.search(givens, 1).0.into_iter().next()
    }

    /// Solutions until `stop` of them are found; whether the search ran to its end.
    fn search(&self, givens: &[u8], stop: usize) -> (HashSet<Vec<u8>>, bool) {
        let mut of_cell = vec![Vec::new(); self.n * self.n];
        for (u, unit) in self.shape.units.iter().enumerate() {
            for &c in unit {
                of_cell[c].push(u);
            }
        }
        let mut used = vec![0u64; self.shape.units.len()];
        for (c, &g) in givens.iter().enumerate() {
            if g != 0 {
                for &u in &of_cell[c] {
                    if used[u] & (1 << g) != 0 {
                        return (HashSet::new(), true);
                    }
                    used[u] |= 1 << g;
                }
            }
        }
        let mut grid = givens.to_vec();
        let mut found = HashSet::new();
        let mut steps = 1_000_000;
        let complete = self.fill(0, &mut grid, &mut used, &of_cell, &mut found, (stop, &mut steps));
        (found, complete)
    }

    fn fill(
        &self,
        at: usize,
        grid: &mut Vec<u8>,
        used: &mut [u64],
        of_cell: &[Vec<usize>],
        found: &mut HashSet<Vec<u8>>,
        (limit, steps): (usize, &mut u64),
    ) -> bool {
        if *steps == 0 {
            return false;
        }
        *steps -= 1;
        let Some(c) = (at..grid.len()).find(|&c| grid[c] == 0) else {
            found.insert(grid.clone());
            return found.len() < limit;
        };
        for v in 1..=self.n as u8 {
            if of_cell[c].iter().any(|&u| used[u] & (1 << v) != 0) {
                continue;
            }
            grid[c] = v;
            for &u in &of_cell[c] {
                used[u] |= 1 << v;
            }
            let ok = self.fill(c + 1, grid, used, of_cell, found, (limit, &mut *steps));
            for &u in &of_cell[c] {
                used[u] &= !(1 << v);
            }
            grid[c] = 0;
            if !ok {
                return false;
            }
        }
        true
    }
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

fn puzzle(geometry: Geometry, givens: &[u8]) -> Puzzle {
    let n = geometry.size();
    let cells = givens.iter().map(|&g| Value::new_checked(g as usize, n)).collect();
    Puzzle::new(Arc::new(geometry), Grid::from_cells(n, cells).unwrap()).unwrap()
}

fn digits(text: &str) -> Vec<u8> {
    text.chars().map(|c| c.to_digit(10).unwrap_or(0) as u8).collect()
}

fn numbers(grid: &Grid) -> Vec<u8> {
    grid.cells().iter().map(|v| v.map_or(0, |v| v.number() as u8)).collect()
}

/// Every solution the library yields, each checked by `rules`, all distinct.
fn solutions(puzzle: &Puzzle, rules: &Rules, givens: &[u8], strategy: Strategy) -> HashSet<Vec<u8>> {
    let mut seen = HashSet::new();
    for solution in Search::with_strategy(puzzle, &SolveOptions::default(), strategy) {
        let grid = numbers(&solution.unwrap());
        assert!(rules.is_solution(givens, &grid), "not a solution: {grid:?}");
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
    let rules = Rules::new(4, Third::None, false);
    let p = puzzle(geometry(4, &Third::None, false), &[0; 16]);
    assert_eq!(solutions(&p, &rules, &[0; 16], Strategy::Branch).len(), 576);
}

#[test]
fn every_6x6_known_count() {
    let text = include_str!("../data/6x6-known-counts.txt");
    let mut lines = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (rows, cols) = fields[1].split_once('x').unwrap();
        let third = Third::Boxes(rows.parse().unwrap(), cols.parse().unwrap());
        let expected: u64 = fields[2].trim().parse().unwrap();
        let givens = digits(fields[0]);
        let p = puzzle(geometry(6, &third, false), &givens);
        let rules = Rules::new(6, third, false);
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
    let text = include_str!("../data/counted.txt");
    let rules = Rules::new(9, Third::Boxes(3, 3), false);
    let mut lines = 0;
    let mut most = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split(':').collect();
        let givens = digits(fields[0]);
        let expected: u64 = fields[1].parse().unwrap();
        let p = puzzle(Geometry::classic(9).unwrap(), &givens);
        let found = solutions(&p, &rules, &givens, Strategy::Branch);
        assert_eq!(found.len() as u64, expected, "{line}");
        assert_eq!(count(&p), expected, "{line}");
        if let Some(known) = fields.get(2) {
            assert!(found.contains(&digits(known)), "the published solution is missing: {line}");
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
        let rules = Rules::new(n, third.clone(), x);
        let g = geometry(n, &third, x);
        // A full solution by brute force on an empty grid, then a random share of it as givens.
        let mut givens = vec![0; n * n];
        let Some(first) = rules.first(&givens) else {
            // No solution at all, or too long to find by brute force: the library must agree on none.
            if rules.brute_force(&givens, 0).is_some() {
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
            givens[order[keep]] = 1 + rng.below(n) as u8;
        }
        let expected = loop {
            if let Some(all) = rules.brute_force(&givens, 2_000) {
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
        let pruned: HashSet<Vec<u8>> =
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

fn satdoku() -> Command {
    Command::cargo_bin("satdoku").unwrap()
}

/// Run satdoku with `args` on `stdin`, expect exit `code`, and read its JSON Lines.
fn run_json(args: &[&str], stdin: &str, code: i32) -> Vec<serde_json::Value> {
    let out = satdoku().args(args).write_stdin(stdin).assert().code(code).get_output().stdout.clone();
    String::from_utf8_lossy(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn cli_all_streams_every_solution_checked() {
    // A 6x6 with 20 solutions under 3x2 boxes (known-counts), and one with none.
    let puzzles = ".....12....3..2.......45.16.........\n....1..2...3.....4..56........34....\n";
    let records = run_json(&["solve", "--all", "--box", "3x2", "--format", "json"], puzzles, 1);
    let rules = Rules::new(6, Third::Boxes(3, 2), false);
    let givens = digits(".....12....3..2.......45.16.........");
    let mut seen = HashSet::new();
    for r in &records[..records.len() - 1] {
        assert_eq!(r["index"], 1);
        assert_eq!(r["status"], "solved");
        let grid = digits(r["solution"].as_str().unwrap());
        assert!(rules.is_solution(&givens, &grid));
        assert!(seen.insert(grid));
    }
    assert_eq!(seen.len(), 20);
    let last = &records[records.len() - 1];
    assert_eq!((last["index"].as_u64(), last["status"].as_str()), (Some(2), Some("unsolvable")));
}

#[test]
fn cli_all_max_stops_each_puzzle() {
    let empty = ".".repeat(16);
    let records = run_json(&["solve", "--all", "--max", "3", "--format", "json"], &format!("{empty}\n{empty}\n"), 0);
    let indices: Vec<u64> = records.iter().map(|r| r["index"].as_u64().unwrap()).collect();
    assert_eq!(indices, [1, 1, 1, 2, 2, 2]);
}

#[test]
fn cli_count_latin_and_caps() {
    satdoku().args(["count", "--latin"]).write_stdin("....\n....\n....\n....\n").assert().success().stdout("576\n");
    satdoku().args(["count", "--latin"]).write_stdin(".........\n").assert().success().stdout("12\n");
    satdoku().args(["count", "--max", "100"]).write_stdin(".".repeat(16)).assert().success().stdout("at least 100\n");
    let text = format!("{}\n{}\n", ".".repeat(16), "1234341221434321");
    let records = run_json(&["count", "--max", "100", "--format", "json"], &text, 0);
    assert_eq!((records[0]["count"].as_u64(), records[0]["capped"].as_bool()), (Some(100), Some(true)));
    assert_eq!((records[1]["count"].as_u64(), records[1].get("capped")), (Some(1), None));
}

#[test]
fn cli_count_unsolvable_and_invalid_exit_codes() {
    satdoku().arg("count").write_stdin("11..............\n").assert().code(1).stdout("0\n");
    satdoku().arg("count").write_stdin("1Z..............\n").assert().code(2);
}

#[test]
fn cli_unique_says_unique_multiple_or_unsolvable() {
    let puzzles = "....1..2...3.....4..56........34....\n.....12....3..2.......45.16.........\n..3...4.....2..3.5.....1.6.5.45...1.\n";
    let records = run_json(&["solve", "--unique", "--box", "3x2", "--format", "json"], puzzles, 1);
    let statuses: Vec<&str> = records.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["unsolvable", "multiple", "unsolvable"]);
    let rules = Rules::new(6, Third::Boxes(3, 2), false);
    let givens = digits(".....12....3..2.......45.16.........");
    let two: Vec<Vec<u8>> =
        records[1]["solutions"].as_array().unwrap().iter().map(|s| digits(s.as_str().unwrap())).collect();
    assert!(two.iter().all(|g| rules.is_solution(&givens, g)));
    assert_ne!(two[0], two[1]);

    let records = run_json(&["solve", "--unique", "--box", "2x3", "--format", "json"], puzzles, 0);
    let rules = Rules::new(6, Third::Boxes(2, 3), false);
    for (r, line) in records.iter().zip(puzzles.lines()) {
        assert_eq!(r["status"], "unique");
        assert!(rules.is_solution(&digits(line), &digits(r["solution"].as_str().unwrap())));
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
