//! `satdoku analyze` end to end, checked against an independent brute-force enumerator and replay of `--steps`.

use std::collections::HashMap;

use crate::util::brute::Brute;
use crate::util::checker::{assert_solves, data_lines, read_symbols, Shape};
use crate::util::{json_lines, run};

/// A grid as this test sees it: side n and the units of the independent
/// checker, with the names a person reads them by, and brute force over them.
struct Geo {
    n: usize,
    brute: Brute,
    /// Unit names ("row 3", "box 2"), for the replay of `--steps`.
    names: HashMap<String, usize>,
}

impl Geo {
    fn new(n: usize, boxes: Option<(usize, usize)>, regions: Option<&str>, x: bool) -> Geo {
        // Regions are numbered in the order their labels first appear.
        let mut labels: Vec<char> = Vec::new();
        let map: Vec<usize> = regions
            .unwrap_or_default()
            .chars()
            .map(|ch| {
                if !labels.contains(&ch) {
                    labels.push(ch);
                }
                labels.iter().position(|&l| l == ch).unwrap()
            })
            .collect();
        let (shape, third) = match (boxes, regions) {
            (Some((br, bc)), _) => (Shape::boxes(n, br, bc), "box"),
            (None, Some(_)) => (Shape::jigsaw(n, &map), "region"),
            (None, None) => (Shape::latin(n), ""),
        };
        let shape = if x { shape.with_diagonals() } else { shape };
        let mut names = HashMap::new();
        for k in 0..n {
            names.insert(format!("row {}", k + 1), k);
            names.insert(format!("column {}", k + 1), n + k);
            if !third.is_empty() {
                names.insert(format!("{third} {}", k + 1), 2 * n + k);
            }
        }
        if x {
            names.insert("main diagonal".into(), shape.units.len() - 2);
            names.insert("anti-diagonal".into(), shape.units.len() - 1);
        }
        Geo { n, brute: Brute::new(shape), names }
    }

    fn classic(n: usize, br: usize, bc: usize) -> Geo {
        Geo::new(n, Some((br, bc)), None, false)
    }

    fn units(&self) -> &[Vec<usize>] {
        &self.brute.shape().units
    }
}

fn mask_of(candidates: &str) -> u64 {
    candidates.chars().map(|ch| 1u64 << (ch.to_digit(36).unwrap() - 1)).sum()
}

/// Run `analyze --format json` on one puzzle and compare it with brute force.
fn check(geo: &Geo, puzzle: &str, grid_args: &[&str]) {
    check_with(geo, puzzle, grid_args, "100000");
}

/// [`check`], counting up to `max` (the rest of the candidates are each
/// shown by a solution of their own).
fn check_with(geo: &Geo, puzzle: &str, grid_args: &[&str], max: &str) {
    let mut args = vec!["analyze", "--format", "json", "--max", max];
    args.extend_from_slice(grid_args);
    let r = run(&args, &format!("{puzzle}\n"));
    let record = &json_lines(&r.stdout)[0];
    let (union, count) = geo.brute.candidates(&read_symbols(puzzle));
    let count = count.min(max.parse().unwrap());
    assert_eq!(record["count"], count, "{puzzle}: {record}");
    if count == 0 {
        assert_eq!(record["status"], "unsolvable", "{puzzle}");
        assert_eq!(r.code, 1);
        return;
    }
    assert_eq!(r.code, 0);
    assert_eq!(record["status"], if count == 1 { "unique" } else { "multiple" }, "{puzzle}");
    let candidates: Vec<u64> =
        record["candidates"].as_array().unwrap().iter().map(|c| mask_of(c.as_str().unwrap())).collect();
    assert_eq!(candidates, union, "{puzzle}: candidates");
    let fixed: Vec<char> = record["fixed"].as_str().unwrap().chars().collect();
    for (c, &m) in union.iter().enumerate() {
        let expected = if m.count_ones() == 1 { std::char::from_digit(m.trailing_zeros() + 1, 36) } else { Some('.') };
        assert_eq!(Some(fixed[c].to_ascii_lowercase()), expected, "{puzzle}: fixed cell {c}");
    }
}

#[test]
fn candidates_match_brute_force_on_4x4() {
    let geo = Geo::classic(4, 2, 2);
    for puzzle in [
        "................",
        "1...............",
        "1..........2....",
        "12..........3...",
        "1.2.............",
        "12..34..........",
    ] {
        check(&geo, puzzle, &[]);
    }
}

#[test]
fn candidates_match_brute_force_on_6x6_both_box_shapes() {
    let puzzles = [
        "1.....2..3.....4....5.6...........1.",
        "....1..2...3.....4..56..............",
        "1.2.3.......4.5.6...................",
    ];
    for puzzle in puzzles {
        check(&Geo::classic(6, 2, 3), puzzle, &["--box", "2x3"]);
        check(&Geo::classic(6, 3, 2), puzzle, &["--box", "3x2"]);
    }
}

/// Blank and sparse grids (at most 10% given) show most candidates with
/// constructed solutions, one with the cell holding the value each, not a
/// solver call each: counting stops at 2, so those solutions decide.
#[test]
fn candidates_of_sparse_grids_match_brute_force() {
    for puzzle in ["................", "1..............."] {
        check_with(&Geo::classic(4, 2, 2), puzzle, &[], "2");
    }
    for puzzle in ["1.....2..3..........................", "......1.......2.......3............."] {
        check_with(&Geo::classic(6, 2, 3), puzzle, &["--box", "2x3"], "2");
        check_with(&Geo::classic(6, 3, 2), puzzle, &["--box", "3x2"], "2");
    }
    check_with(&Geo::new(5, None, None, false), "12.......................", &["--latin"], "2");
}

#[test]
fn candidates_match_brute_force_on_latin_jigsaw_and_x() {
    let latin = Geo::new(5, None, None, false);
    check(&latin, "12...........3..........4", &["--latin"]);
    let map = "AAABBAABBBCCDDDCCDDECEEEE";
    let jigsaw = Geo::new(5, None, Some(map), false);
    for puzzle in ["1...........3............", "12.........3.........4...", "1.......2.........3......"] {
        check(&jigsaw, puzzle, &["--regions", map]);
    }
    let latin_x = Geo::new(5, None, None, true);
    check(&latin_x, "..3...1..........2.......", &["--latin", "--variant", "x"]);
    let x = Geo::new(4, Some((2, 2)), None, true);
    check(&x, "1...............", &["--variant", "x"]);
}

#[test]
fn candidates_match_brute_force_on_9x9_with_several_solutions() {
    let geo = Geo::classic(9, 3, 3);
    for puzzle in data_lines("serg-40.txt").iter().take(8) {
        check(&geo, puzzle, &[]);
    }
    // Counted puzzles of every kind: none, one, many solutions.
    for line in data_lines("analyze-counted.txt") {
        let fields: Vec<&str> = line.split(':').collect();
        if fields[1].parse::<u64>().unwrap() <= 1000 {
            check(&geo, fields[0], &[]);
        }
    }
}

#[test]
fn unique_puzzles_come_out_all_fixed_and_agree_with_solve() {
    let puzzles: String = data_lines("top95.txt").iter().take(20).map(|l| format!("{l}\n")).collect();
    let analyzed = run(&["analyze", "--format", "json"], &puzzles);
    assert_eq!(analyzed.code, 0);
    let solved = run(&["solve", "--format", "json"], &puzzles);
    let geo = Geo::classic(9, 3, 3);
    for ((a, s), puzzle) in json_lines(&analyzed.stdout).iter().zip(json_lines(&solved.stdout)).zip(puzzles.lines()) {
        assert_eq!(a["status"], "unique");
        assert_eq!(a["count"], 1);
        let fixed = a["fixed"].as_str().unwrap();
        assert!(!fixed.contains('.'));
        assert_eq!(fixed, s["solution"].as_str().unwrap());
        assert_solves(geo.brute.shape(), &read_symbols(puzzle), &read_symbols(fixed), puzzle);
    }
}

#[test]
fn fixed_cells_agree_with_solve_all_and_count() {
    let geo = Geo::classic(9, 3, 3);
    for puzzle in data_lines("serg-40.txt").iter().skip(8).take(10) {
        let a = &json_lines(run(&["analyze", "--format", "json"], puzzle).stdout)[0];
        let c = &json_lines(run(&["count", "--format", "json", "--max", "1000"], puzzle).stdout)[0];
        assert_eq!(a["count"], c["count"], "{puzzle}");
        assert_eq!(a.get("capped"), c.get("capped"), "{puzzle}");
        // Every solution keeps the fixed cells and stays inside the candidates,
        // and every candidate is used by some solution.
        let all = run(&["solve", "--all", "--max", "1000", "--format", "line"], puzzle).stdout;
        let fixed = read_symbols(a["fixed"].as_str().unwrap());
        let candidates: Vec<u64> =
            a["candidates"].as_array().unwrap().iter().map(|c| mask_of(c.as_str().unwrap())).collect();
        let mut used = vec![0u64; 81];
        // `solve --all` marks each puzzle's solutions with a comment line first.
        for line in all.lines().filter(|l| !l.starts_with('#')) {
            let solution = read_symbols(line);
            assert_solves(geo.brute.shape(), &read_symbols(puzzle), &solution, line);
            for (cell, &v) in solution.iter().enumerate() {
                assert!(fixed[cell] == 0 || fixed[cell] == v, "{puzzle}: cell {cell}");
                used[cell] |= 1 << (v - 1);
            }
        }
        if a.get("capped").is_none() {
            assert_eq!(used, candidates, "{puzzle}");
        }
    }
}

#[test]
fn unsolvable_puzzles_say_so_with_exit_code_1() {
    let counted = data_lines("analyze-counted.txt");
    let none: Vec<&str> =
        counted.iter().filter(|l| l.split(':').nth(1) == Some("0")).map(|l| l.split(':').next().unwrap()).collect();
    assert!(!none.is_empty());
    let input: String = none.iter().map(|p| format!("{p}\n")).collect();
    let r = run(&["analyze", "--format", "json"], &input);
    assert_eq!(r.code, 1);
    for record in json_lines(&r.stdout) {
        assert_eq!(record["status"], "unsolvable");
        assert!(record.get("fixed").is_none());
    }
    let r = run(&["analyze", "--format", "line"], "11..............\n");
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("unsolvable") && r.stdout.contains("clash"), "{}", r.stdout);
}

#[test]
fn bad_input_exits_2() {
    let r = run(&["analyze"], "12x\n");
    assert_eq!(r.code, 2);
    assert!(!r.stderr.is_empty());
}

#[test]
fn line_and_grid_formats() {
    let r = run(&["analyze", "--format", "line"], "1..........2....\n");
    assert_eq!(r.code, 0);
    let (union, _) = Geo::classic(4, 2, 2).brute.candidates(&read_symbols("1..........2...."));
    let expected: String = union
        .iter()
        .map(|m| if m.count_ones() == 1 { std::char::from_digit(m.trailing_zeros() + 1, 10).unwrap() } else { '.' })
        .collect();
    assert_eq!(r.stdout.trim(), expected);
    let grid = run(&["analyze", "--format", "grid"], "1..........2....\n").stdout;
    let rows: Vec<&str> = grid.lines().collect();
    assert!(rows[0].contains("multiple"), "{grid}");
    // Four rows of cells plus the rule between the boxes.
    assert!(rows[3].contains('+'), "{grid}");
    let cells: Vec<&str> = rows[1..6]
        .iter()
        .filter(|r| !r.contains('+'))
        .flat_map(|r| r.split_whitespace())
        .filter(|t| *t != "|")
        .collect();
    let masks: Vec<u64> = cells.iter().map(|c| mask_of(c)).collect();
    assert_eq!(masks, union);
    // The header says what is known of the count, against brute force's:
    // all of it, at least the limit, or, where counting stops at 1 and two
    // solutions are known, more than one (it said "at least 1 solution").
    let (_, solutions) = Geo::classic(4, 2, 2).brute.candidates(&read_symbols("1..........2...."));
    assert!(solutions > 3, "{solutions}");
    let header = |max: &str| {
        let r = run(&["analyze", "--format", "grid", "--color", "never", "--max", max], "1..........2....\n");
        r.stdout.lines().next().unwrap_or_default().to_string()
    };
    assert!(header(&solutions.to_string()).ends_with(&format!(": multiple, {solutions} solutions")));
    assert!(header("3").ends_with(": multiple, at least 3 solutions"), "{}", header("3"));
    for max in ["0", "1"] {
        assert!(header(max).ends_with(": multiple, more than one solution"), "{}", header(max));
    }
}

/// Candidate bitsets replayed from the words of `--steps`, each reason checked.
fn replay(geo: &Geo, puzzle: &str, steps: &str) -> Vec<u64> {
    let n = geo.n;
    let full = (1u64 << n) - 1;
    let mut d: Vec<u64> = read_symbols(puzzle).iter().map(|&v| if v == 0 { full } else { 1 << (v - 1) }).collect();
    let cell = |name: &str| -> usize {
        let (r, c) = name.trim_start_matches('r').split_once('c').unwrap();
        (r.parse::<usize>().unwrap() - 1) * n + c.parse::<usize>().unwrap() - 1
    };
    for line in steps.lines() {
        if let Some(rest) = line.strip_prefix("naked single: ") {
            let (c, v) = rest.split_once(" can only be ").unwrap();
            assert_eq!(d[cell(c)], 1 << (v.parse::<u32>().unwrap() - 1), "{line}");
        } else if let Some(rest) = line.strip_prefix("hidden single: in ") {
            let (unit, rest) = rest.split_once(", ").unwrap();
            let (v, c) = rest.split_once(" fits only ").unwrap();
            let bit = 1u64 << (v.parse::<u32>().unwrap() - 1);
            let c = cell(c);
            let members = &geo.units()[geo.names[unit]];
            assert!(members.contains(&c), "{line}");
            for &m in members {
                assert_eq!(d[m] & bit != 0, m == c, "{line}: cell {m}");
            }
            d[c] = bit;
        } else if let Some(rest) = line.strip_prefix("elimination: ") {
            let (because, rest) = rest.split_once(" = ").unwrap();
            let (v, cells) = rest.split_once(" removes ").unwrap();
            let (_, cells) = cells.split_once(" from ").unwrap();
            let bit = 1u64 << (v.parse::<u32>().unwrap() - 1);
            let because = cell(because);
            assert_eq!(d[because], bit, "{line}");
            let peers = geo.brute.peers(because);
            for c in cells.split(", ").map(cell) {
                assert!(peers.contains(&c), "{line}");
                assert!(d[c] & bit != 0, "{line}");
                d[c] &= !bit;
            }
        }
    }
    d
}

/// Whether no naked or hidden single is left to use: where search must start.
fn at_fixpoint(geo: &Geo, d: &[u64]) -> bool {
    let settled = (0..d.len()).all(|c| d[c].count_ones() != 1 || geo.brute.peers(c).iter().all(|&p| d[p] & d[c] == 0));
    let no_hidden = geo.units().iter().all(|u| {
        (0..geo.n).all(|v| {
            let holders: Vec<usize> = u.iter().copied().filter(|&c| d[c] & (1 << v) != 0).collect();
            holders.len() != 1 || d[holders[0]].count_ones() == 1
        })
    });
    settled && no_hidden
}

#[test]
fn steps_replayed_from_the_givens_reach_the_propagated_grid() {
    let geo = Geo::classic(9, 3, 3);
    let (serg, top) = (data_lines("serg-40.txt"), data_lines("top95.txt"));
    let easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let puzzles: Vec<&str> = serg.iter().chain(&top).map(String::as_str).step_by(7).chain([easy]).collect();
    let mut solved = 0;
    for puzzle in puzzles {
        let r = run(&["analyze", "--steps", "--propagate", "singles", "--format", "line"], puzzle);
        assert_eq!(r.code, 0);
        let steps = r.stdout;
        let record = &json_lines(run(&["analyze", "--propagate", "singles", "--format", "json"], puzzle).stdout)[0];
        let expected: Vec<u64> =
            record["candidates"].as_array().unwrap().iter().map(|c| mask_of(c.as_str().unwrap())).collect();
        let replayed = replay(&geo, puzzle, &steps);
        assert_eq!(replayed, expected, "{puzzle}");
        assert!(at_fixpoint(&geo, &replayed), "{puzzle}: propagation stopped early");
        if replayed.iter().all(|m| m.count_ones() == 1) {
            solved += 1;
            assert!(steps.contains("solved by propagation alone"));
            assert_eq!(record["status"], "solved");
            let grid: Vec<usize> = replayed.iter().map(|m| m.trailing_zeros() as usize + 1).collect();
            assert_solves(geo.brute.shape(), &read_symbols(puzzle), &grid, puzzle);
        } else {
            assert!(steps.contains("search needed"));
            assert_eq!(record["status"], "open");
        }
    }
    assert!(solved >= 1);
}

#[test]
fn steps_end_at_a_contradiction() {
    let r = run(&["analyze", "--steps"], "11..............\n");
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("contradiction: the givens clash: row 1 has 1 twice"), "{}", r.stdout);
}

#[test]
fn counts_per_candidate_match_brute_force() {
    let geo = Geo::classic(6, 2, 3);
    for (puzzle, max) in [("1.....2..3.....4....5.6...........1.", 1000), ("......3..1.....5.2..4....6..........", 3)] {
        let record = &json_lines(
            run(&["analyze", "--box", "2x3", "--counts", "--max", &max.to_string(), "--format", "json"], puzzle).stdout,
        )[0];
        let givens = read_symbols(puzzle);
        let counts = record["counts"].as_array().unwrap();
        let candidates: Vec<u64> =
            record["candidates"].as_array().unwrap().iter().map(|c| mask_of(c.as_str().unwrap())).collect();
        let open: usize = candidates.iter().filter(|m| m.count_ones() > 1).map(|m| m.count_ones() as usize).sum();
        assert_eq!(counts.len(), open, "{puzzle}: one count per candidate of each open cell");
        for item in counts {
            let name = item["cell"].as_str().unwrap();
            let (r, c) = name.trim_start_matches('r').split_once('c').unwrap();
            let cell = (r.parse::<usize>().unwrap() - 1) * 6 + c.parse::<usize>().unwrap() - 1;
            let value: usize = item["value"].as_str().unwrap().parse().unwrap();
            let mut with = givens.clone();
            with[cell] = value;
            let (_, exact) = geo.brute.candidates(&with);
            let got = item["count"].as_u64().unwrap();
            assert_eq!(got, exact.min(max), "{puzzle}: {item}");
            assert_eq!(item.get("capped").is_some(), exact >= max, "{puzzle}: {item}");
        }
    }
}

#[test]
fn several_solutions_leave_a_residual_of_linked_open_cells() {
    let geo = Geo::classic(9, 3, 3);
    for puzzle in data_lines("serg-40.txt").iter().step_by(10) {
        let record = &json_lines(run(&["analyze", "--max", "2", "--format", "json"], puzzle).stdout)[0];
        assert_eq!(record["status"], "multiple");
        let candidates: Vec<String> =
            record["candidates"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
        let residual: Vec<&str> = record["residual"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
        // One line per unit with two or more open cells, naming exactly those, with their candidates.
        let mut expected: Vec<(usize, Vec<usize>)> = Vec::new();
        for (u, unit) in geo.units().iter().enumerate() {
            let open: Vec<usize> = unit.iter().copied().filter(|&c| candidates[c].len() > 1).collect();
            if open.len() >= 2 {
                expected.push((u, open));
            }
        }
        assert_eq!(residual.len(), expected.len(), "{puzzle}");
        for (line, (u, open)) in residual.iter().zip(&expected) {
            let (cells, unit) = line.rsplit_once(": ").unwrap();
            assert_eq!(geo.names[unit.trim_end_matches(" all different")], *u, "{line}");
            let parts: Vec<&str> = cells.split(", r").collect();
            assert_eq!(parts.len(), open.len(), "{line}");
            for (part, &c) in parts.iter().zip(open) {
                let (name, set) = part.split_once(" ∈ ").unwrap();
                assert_eq!(name.trim_start_matches('r'), format!("{}c{}", c / 9 + 1, c % 9 + 1), "{line}");
                assert_eq!(set.trim_matches(|ch| ch == '{' || ch == '}').replace(',', ""), candidates[c], "{line}");
            }
        }
    }
}

/// A puzzle the first propagation solves is answered past any time limit,
/// as `solve` and `count` answer it: `analyze --timeout 1e-9` made it an
/// `error` record, exit 2 (tester s65c, F4).
#[test]
fn a_puzzle_propagation_solves_is_analyzed_past_the_time_limit() {
    // Naked singles solve it.
    let easy = ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4\n";
    let records = json_lines(run(&["analyze", "--timeout", "1e-9", "--format", "json"], easy).stdout);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["status"], "unique", "{}", records[0]);
    assert_eq!(records[0]["count"], 1);
    let fixed = read_symbols(records[0]["fixed"].as_str().unwrap());
    assert_solves(&Shape::classic(9), &read_symbols(&easy.trim().replace('.', "0")), &fixed, "analyze --timeout");
    let r = run(&["analyze", "--timeout", "1e-9"], easy);
    assert_eq!(r.code, 0, "{}", r.stderr);
}
