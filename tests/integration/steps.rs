//! `analyze --steps` and `--propagate subsets|probe`: every step read back from
//! its words and its reason checked on candidates kept here, the replay
//! reaching exactly the `--propagate` state, that state a fixpoint of every
//! rule, and nothing a solution uses ever removed.

use std::collections::HashMap;

use crate::util::brute::Brute;
use crate::util::checker::{assert_solves, data_lines, read_symbols, symbol_value, Shape};
use crate::util::{json_lines, run};

/// A grid of the independent checker with its units' names.
struct Geo {
    n: usize,
    brute: Brute,
    names: HashMap<String, usize>,
}

impl Geo {
    fn new(shape: Shape, boxes: bool) -> Geo {
        let n = shape.n;
        let mut names = HashMap::new();
        for k in 0..n {
            names.insert(format!("row {}", k + 1), k);
            names.insert(format!("column {}", k + 1), n + k);
            if boxes {
                names.insert(format!("box {}", k + 1), 2 * n + k);
            }
        }
        Geo { n, brute: Brute::new(shape), names }
    }

    fn units(&self) -> &[Vec<usize>] {
        &self.brute.shape().units
    }

    fn unit(&self, name: &str) -> &[usize] {
        &self.units()[*self.names.get(name.trim()).unwrap_or_else(|| panic!("unit {name:?}"))]
    }

    fn cell(&self, name: &str) -> usize {
        let (r, c) = name.trim().trim_start_matches('r').split_once('c').unwrap();
        (r.parse::<usize>().unwrap() - 1) * self.n + c.parse::<usize>().unwrap() - 1
    }

    fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", cell / self.n + 1, cell % self.n + 1)
    }

    /// The cells named in `text` (`r1c2 r1c5` or `r1c2, r1c5`), other words skipped.
    fn cells(&self, text: &str) -> Vec<usize> {
        text.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| {
                t.starts_with('r') && t[1..].contains('c') && t[1..].split('c').all(|p| p.parse::<usize>().is_ok())
            })
            .map(|t| self.cell(t))
            .collect()
    }
}

/// One value's bit, from its symbol in the default alphabet (`7`, `B`).
fn value_bit(symbol: &str) -> u64 {
    let mut chars = symbol.trim().chars();
    let (Some(ch), None) = (chars.next(), chars.next()) else { panic!("not one symbol: {symbol:?}") };
    match symbol_value(ch) {
        Some(v) if v > 0 => 1 << (v - 1),
        _ => panic!("not a value: {symbol:?}"),
    }
}

/// One value's bit, from its number (the singles level writes `16`, not `G`).
fn number_bit(number: &str) -> u64 {
    1 << (number.trim().parse::<usize>().unwrap_or_else(|_| panic!("not a number: {number:?}")) - 1)
}

/// A set of values: `{3,5}`, `3,5` or `1, 2`.
fn bits(values: &str) -> u64 {
    values.trim_matches(|c| c == '{' || c == '}').split(',').map(value_bit).sum()
}

fn mask_of(candidates: &str) -> u64 {
    candidates.chars().map(|c| value_bit(&c.to_string())).sum()
}

/// The removals of a step: `1,7 from r2c5; 5 from r7c5 r8c5`, as (cell, bit).
fn removals(geo: &Geo, text: &str) -> Vec<(usize, u64)> {
    let mut out = Vec::new();
    for group in text.split("; ") {
        let (values, cells) = group.split_once(" from ").unwrap();
        for c in geo.cells(cells) {
            for v in values.split(',') {
                out.push((c, bits(v)));
            }
        }
    }
    out
}

/// The candidates a level's steps start from: each given decided and, above
/// singles (whose steps name the givens' eliminations too), its value gone
/// from its peers.
fn start(geo: &Geo, givens: &[usize], eliminated: bool) -> Vec<u64> {
    let full = (1u64 << geo.n) - 1;
    let mut d: Vec<u64> = givens.iter().map(|&v| if v == 0 { full } else { 1 << (v - 1) }).collect();
    for (c, &v) in givens.iter().enumerate() {
        if v != 0 && eliminated {
            for p in geo.brute.peers(c) {
                d[p] &= !(1 << (v - 1));
            }
        }
    }
    d
}

fn holders(d: &[u64], unit: &[usize], bit: u64) -> Vec<usize> {
    unit.iter().copied().filter(|&c| d[c] & bit != 0).collect()
}

/// Replay the step lines on candidates `d`, built here from the givens,
/// checking each step's reason on the candidates the steps before it left
/// before its removals; then the contradiction they end in, if any, which
/// must hold on the replayed candidates (whether there was one).
fn replay(geo: &Geo, givens: &[usize], d: &mut [u64], steps: &str) -> bool {
    let n = geo.n;
    let full = (1u64 << n) - 1;
    for line in steps.lines() {
        if let Some(reason) = line.strip_prefix("contradiction: ") {
            check_contradiction(geo, givens, d, reason);
            return true;
        }
        // The singles level's words: a placement, then its eliminations.
        if let Some(rest) = line.strip_prefix("naked single: ") {
            let (c, v) = rest.split_once(" can only be ").unwrap();
            assert_eq!(d[geo.cell(c)], number_bit(v), "{line}");
            continue;
        }
        if let Some(rest) = line.strip_prefix("hidden single: in ") {
            let (rest, c) = rest.rsplit_once(" fits only ").unwrap();
            let (unit, v) = rest.rsplit_once(", ").unwrap();
            let (c, bit) = (geo.cell(c), number_bit(v));
            assert_eq!(holders(d, geo.unit(unit), bit), [c], "{line}");
            d[c] = bit;
            continue;
        }
        if let Some(rest) = line.strip_prefix("elimination: ") {
            let (placed, removed) = rest.split_once(" removes ").unwrap();
            let (c, v) = placed.split_once(" = ").unwrap();
            let (c, bit) = (geo.cell(c), number_bit(v));
            assert_eq!(d[c], bit, "{line}: {} is not decided", geo.cell_name(c));
            let peers = geo.brute.peers(c);
            let (v, cells) = removed.split_once(" from ").unwrap();
            assert_eq!(number_bit(v), bit, "{line}");
            for p in geo.cells(cells) {
                assert!(peers.contains(&p), "{line}: {} is no peer", geo.cell_name(p));
                assert!(d[p] & bit != 0, "{line}: {} has no {v}", geo.cell_name(p));
                d[p] &= !bit;
            }
            continue;
        }
        let Some((head, removed)) = line.rsplit_once(": removes ") else { continue };
        let removed = removals(geo, removed);
        // What the rule allows to be removed.
        let allowed: Vec<(usize, u64)> = if let Some(rest) = head.strip_prefix("naked single ") {
            let (c, v) = rest.split_once(" = ").unwrap();
            let (c, bit) = (geo.cell(c), value_bit(v));
            assert_eq!(d[c], bit, "{line}");
            geo.brute.peers(c).into_iter().map(|p| (p, bit)).collect()
        } else if let Some(rest) = head.strip_prefix("hidden single ") {
            let (v, rest) = rest.split_once(" in ").unwrap();
            let (unit, c) = rest.split_once(" at ").unwrap();
            let (c, bit) = (geo.cell(c), value_bit(v));
            assert_eq!(holders(d, geo.unit(unit), bit), [c], "{line}");
            let mut allowed: Vec<(usize, u64)> = geo.brute.peers(c).into_iter().map(|p| (p, bit)).collect();
            allowed.extend((0..n).map(|k| 1u64 << k).filter(|&b| b != bit).map(|b| (c, b)));
            allowed
        } else if let Some(rest) = ["pointing ", "claiming ", "locked "].iter().find_map(|rule| head.strip_prefix(rule))
        {
            let (v, rest) = rest.split_once(" in ").unwrap();
            let (within, into) = rest.split_once(" → ").unwrap();
            let (bit, within, into) = (value_bit(v), geo.unit(within), geo.unit(into));
            let places = holders(d, within, bit);
            assert!(places.len() >= 2 && places.iter().all(|c| into.contains(c)), "{line}");
            into.iter().filter(|c| !within.contains(c)).map(|&c| (c, bit)).collect()
        } else if let Some(rest) = head.strip_prefix("naked ").or_else(|| head.strip_prefix("hidden ")) {
            let (subset, unit) = rest.rsplit_once(" in ").unwrap();
            let (cells, values) = subset.split_once('{').unwrap();
            let (cells, set, unit) = (geo.cells(cells), bits(values), geo.unit(unit));
            assert!(cells.len() >= 2, "{line}");
            assert_eq!(cells.len(), set.count_ones() as usize, "{line}");
            assert!(cells.iter().all(|c| unit.contains(c)), "{line}");
            if head.starts_with("naked ") {
                assert_eq!(cells.iter().fold(0, |m, &c| m | d[c]), set, "{line}: the cells hold other values");
                unit.iter()
                    .filter(|c| !cells.contains(c))
                    .flat_map(|&c| bit_list(n, set).map(move |b| (c, b)))
                    .collect()
            } else {
                for b in bit_list(n, set) {
                    assert!(holders(d, unit, b).iter().all(|c| cells.contains(c)), "{line}: {b:b} fits elsewhere");
                }
                cells.iter().flat_map(|&c| bit_list(n, full & !set).map(move |b| (c, b))).collect()
            }
        } else if let Some(rest) = head.strip_prefix("failed probe ") {
            let (c, rest) = rest.split_once(" = ").unwrap();
            let bit = value_bit(rest.split_whitespace().next().unwrap());
            let c = geo.cell(c);
            assert!(singles_fail(geo, d, c, bit), "{line}: singles find no contradiction");
            vec![(c, bit)]
        } else {
            panic!("unknown step: {line}");
        };
        assert!(!removed.is_empty(), "{line}");
        for (c, bit) in removed {
            assert!(allowed.contains(&(c, bit)), "{line}: removal of {bit:b} from {c} not justified");
            assert!(d[c] & bit != 0, "{line}: {bit:b} is not a candidate of cell {c}");
            d[c] &= !bit;
        }
    }
    false
}

/// Whether singles, run here from `d` with `cell` taking `bit`, reach a cell
/// with no candidate or a value with no place in a unit: a failed probe.
fn singles_fail(geo: &Geo, d: &[u64], cell: usize, bit: u64) -> bool {
    let mut d = d.to_vec();
    d[cell] = bit;
    loop {
        let mut changed = false;
        for c in 0..d.len() {
            if d[c].count_ones() == 1 {
                for p in geo.brute.peers(c) {
                    if d[p] & d[c] != 0 {
                        d[p] &= !d[c];
                        changed = true;
                    }
                }
            }
        }
        for unit in geo.units() {
            for b in bit_list(geo.n, (1 << geo.n) - 1) {
                match holders(&d, unit, b)[..] {
                    [] => return true,
                    [c] if d[c] != b => {
                        d[c] = b;
                        changed = true;
                    }
                    _ => {}
                }
            }
        }
        if d.contains(&0) {
            return true;
        }
        if !changed {
            return false;
        }
    }
}

/// The reason a level gives for no solution, checked on the replayed candidates.
fn check_contradiction(geo: &Geo, givens: &[usize], d: &[u64], reason: &str) {
    if let Some(c) = reason.strip_suffix(" has no candidate left") {
        assert_eq!(d[geo.cell(c)], 0, "{reason}");
    } else if let Some((v, unit)) = reason.split_once(" has no place left in ") {
        assert!(holders(d, geo.unit(unit), value_bit(v)).is_empty(), "{reason}");
    } else if let Some(rest) = reason.strip_prefix("in ") {
        // `in row 1, the 3 cells r1c1, r1c2, r1c3 have only 2 values between them (1, 2)`
        let (unit, rest) = rest.split_once(", the ").unwrap();
        let (cells, values) = rest.split_once(" have only ").unwrap();
        let (_, set) = values.split_once(" between them ").unwrap();
        let (unit, set) = (geo.unit(unit), bits(set.trim_matches(|c| c == '(' || c == ')')));
        let cells = geo.cells(cells.split_once(" cells ").unwrap().1);
        assert!(cells.iter().all(|c| unit.contains(c)), "{reason}");
        assert_eq!(cells.iter().fold(0, |m, &c| m | d[c]), set, "{reason}: the cells hold other values");
        assert!((set.count_ones() as usize) < cells.len(), "{reason}");
    } else if let Some(rest) = reason.strip_prefix("the givens clash: ") {
        let (_, cells) = rest.rsplit_once(" (").unwrap();
        let (a, b) = cells.trim_end_matches(')').split_once(" and ").unwrap();
        let (a, b) = (geo.cell(a), geo.cell(b));
        assert!(givens[a] != 0 && givens[a] == givens[b] && geo.brute.peers(a).contains(&b), "{reason}");
    } else {
        panic!("unknown contradiction: {reason}");
    }
}

fn bit_list(n: usize, set: u64) -> impl Iterator<Item = u64> {
    (0..n).map(|k| 1u64 << k).filter(move |b| set & b != 0)
}

/// Whether the cells of `unit` can take distinct values from `d` with `cell` = `bit`.
fn unit_allows(d: &[u64], unit: &[usize], cell: usize, bit: u64) -> bool {
    fn assign(d: &[u64], cells: &[usize], used: u64) -> bool {
        match cells.split_first() {
            None => true,
            Some((&c, rest)) => {
                (0..64).map(|k| 1u64 << k).any(|b| d[c] & b != 0 && used & b == 0 && assign(d, rest, used | b))
            }
        }
    }
    let rest: Vec<usize> = unit.iter().copied().filter(|&c| c != cell).collect();
    assign(d, &rest, bit)
}

/// No rule of the subsets level removes anything more from `d`.
fn at_subsets_fixpoint(geo: &Geo, d: &[u64]) -> Result<(), String> {
    for (c, &m) in d.iter().enumerate() {
        if m.count_ones() == 1 && geo.brute.peers(c).iter().any(|&p| d[p] & m != 0) {
            return Err(format!("naked single at {c}"));
        }
    }
    for (u, unit) in geo.units().iter().enumerate() {
        for &c in unit {
            for b in bit_list(geo.n, d[c]) {
                if !unit_allows(d, unit, c, b) {
                    return Err(format!("unit {u}: {b:b} in cell {c} fits no assignment"));
                }
            }
        }
        for b in bit_list(geo.n, (1 << geo.n) - 1) {
            let places: Vec<usize> = unit.iter().copied().filter(|&c| d[c] & b != 0).collect();
            if places.len() < 2 {
                continue;
            }
            for other in geo.units() {
                if other != unit
                    && places.iter().all(|c| other.contains(c))
                    && other.iter().any(|c| !unit.contains(c) && d[*c] & b != 0)
                {
                    return Err(format!("locked candidate {b:b} in unit {u}"));
                }
            }
        }
    }
    Ok(())
}

/// No naked or hidden single is left in `d`.
fn at_singles_fixpoint(geo: &Geo, d: &[u64]) -> Result<(), String> {
    for (c, &m) in d.iter().enumerate() {
        if m.count_ones() == 1 && geo.brute.peers(c).iter().any(|&p| d[p] & m != 0) {
            return Err(format!("naked single at {}", geo.cell_name(c)));
        }
    }
    for (u, unit) in geo.units().iter().enumerate() {
        for b in bit_list(geo.n, (1 << geo.n) - 1) {
            if let [c] = holders(d, unit, b)[..] {
                if d[c] != b {
                    return Err(format!("hidden single {b:b} in unit {u} at {}", geo.cell_name(c)));
                }
            }
        }
    }
    Ok(())
}

/// Run `--steps` and `--propagate` at `level`, replay the steps from the
/// givens, and check where they end: for a puzzle with solutions, at the
/// `--propagate` state, a fixpoint of the level's rules that keeps every
/// value a solution uses; for one without, in a contradiction that holds
/// on the replayed candidates, or (singles see only so far) an open state
/// as for a puzzle with solutions. Whether propagation solved the puzzle.
fn check(geo: &Geo, puzzle: &str, level: &str, grid_args: &[&str]) -> bool {
    let mut args = vec!["analyze", "--steps", "--propagate", level, "--format", "line"];
    args.extend(grid_args);
    let r = run(&args, puzzle);
    let givens = read_symbols(puzzle);
    // The values some solution uses: of every solution up to 9×9, of one
    // beyond (every solution of a 12×12 takes brute force seconds).
    let (union, count) = match geo.n {
        ..=9 => geo.brute.candidates(&givens),
        _ => match geo.brute.any(&givens) {
            Some(solution) => (solution.iter().map(|&v| 1 << (v - 1)).collect(), 1),
            None => (vec![0; givens.len()], 0),
        },
    };
    let mut replayed = start(geo, &givens, level != "singles");
    if replay(geo, &givens, &mut replayed, &r.stdout) {
        assert_eq!(r.code, 1, "{puzzle}: {}", r.stderr);
        assert_eq!(count, 0, "{puzzle}: a contradiction in a puzzle with a solution");
        return false;
    }
    assert_eq!(r.code, 0, "{puzzle}: {}", r.stderr);
    let mut args = vec!["analyze", "--propagate", level, "--format", "json"];
    args.extend(grid_args);
    let record = &json_lines(run(&args, puzzle).stdout)[0];
    let expected: Vec<u64> =
        record["candidates"].as_array().unwrap().iter().map(|c| mask_of(c.as_str().unwrap())).collect();
    assert_eq!(replayed, expected, "{puzzle}: the steps do not reach the --propagate state");
    let fixpoint = match level {
        "singles" => at_singles_fixpoint(geo, &replayed),
        _ => at_subsets_fixpoint(geo, &replayed),
    };
    fixpoint.unwrap_or_else(|e| panic!("{puzzle}: stopped early: {e}"));
    for (c, (&kept, &used)) in replayed.iter().zip(&union).enumerate() {
        assert_eq!(kept & used, used, "{puzzle}: cell {c} lost a value a solution uses");
    }
    let solved = replayed.iter().all(|m| m.count_ones() == 1);
    if solved {
        assert_eq!(record["status"], "solved");
        let grid: Vec<usize> = replayed.iter().map(|m| m.trailing_zeros() as usize + 1).collect();
        assert_solves(geo.brute.shape(), &givens, &grid, puzzle);
    } else {
        assert_eq!(record["status"], "open");
    }
    solved
}

#[test]
fn subsets_alone_solve_the_clpfd_examples_that_all_distinct_solves() {
    let geo = Geo::new(Shape::classic(9), true);
    let puzzles = data_lines("clpfd-examples.txt");
    assert_eq!(puzzles.len(), 2);
    for puzzle in &puzzles {
        assert!(check(&geo, puzzle, "subsets", &[]), "{puzzle}: subsets left cells open");
        let singles = &json_lines(run(&["analyze", "--propagate", "singles", "--format", "json"], puzzle).stdout)[0];
        assert_eq!(singles["status"], "open", "{puzzle}: singles alone solve it (not a test of subsets)");
    }
}

#[test]
fn steps_at_every_level_replay_to_the_propagated_state() {
    let geo = Geo::new(Shape::classic(9), true);
    let (serg, top) = (data_lines("serg-40.txt"), data_lines("top95.txt"));
    let puzzles: Vec<&String> = serg.iter().step_by(8).chain(top.iter().step_by(19)).collect();
    for puzzle in puzzles {
        for level in ["subsets", "probe"] {
            check(&geo, puzzle, level, &[]);
        }
    }
}

#[test]
fn subset_steps_on_latin_squares_and_6x6() {
    let latin = Geo::new(Shape::latin(4), false);
    check(&latin, "....34..43......", "subsets", &["--latin"]);
    let six = Geo::new(Shape::boxes(6, 2, 3), true);
    for puzzle in ["1.....2..3.....4....5.6...........1.", "......3..1.....5.2..4....6.........."] {
        check(&six, puzzle, "subsets", &["--box", "2x3"]);
        check(&six, puzzle, "probe", &["--box", "2x3"]);
    }
}

#[test]
fn a_hall_contradiction_ends_the_steps() {
    // Latin 6: r1c1..r1c3 share the two values 1 and 2 (see the unit test of propagate.rs).
    let puzzle = ["......", "345...", "456...", "563...", "634...", "......"].concat();
    let r = run(&["analyze", "--steps", "--latin", "--format", "line"], &puzzle);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("have only 2 values between them"), "{}", r.stdout);
}

#[test]
fn grid_format_shows_the_candidates_after_each_round() {
    let puzzle = &data_lines("clpfd-examples.txt")[0];
    let each = run(&["analyze", "--steps", "--show-candidates", "round", "--format", "grid"], puzzle);
    let end = run(&["analyze", "--steps", "--format", "grid"], puzzle);
    let borders = |s: &str| s.lines().filter(|l| l.starts_with("---")).count();
    let stronger = end
        .stdout
        .lines()
        .filter(|l| !l.starts_with("naked single") && !l.starts_with("hidden single") && l.contains(": removes "))
        .count();
    assert!(stronger >= 1);
    // Two border lines per 9x9 grid: one grid at the end, one more per round
    // (a round holds one sweep of stronger steps, one or more).
    assert_eq!(borders(&end.stdout), 2);
    let rounds = borders(&each.stdout) / 2 - 1;
    assert!(rounds >= 2 && rounds <= stronger, "{rounds} rounds for {stronger} stronger steps: {}", each.stdout);
}

#[test]
fn every_step_follows_from_the_candidates_the_steps_before_it_leave() {
    // Each line's grid from its length: n×n, boxes of the default (most square) shape.
    let puzzles: Vec<(Geo, String)> = data_lines("steps-replay.txt")
        .into_iter()
        .map(|puzzle| {
            let shape = match puzzle.len() {
                36 => Shape::boxes(6, 2, 3),
                81 => Shape::classic(9),
                144 => Shape::boxes(12, 3, 4),
                256 => Shape::classic(16),
                len => panic!("test data: {len} cells"),
            };
            (Geo::new(shape, true), puzzle)
        })
        .collect();
    for level in ["singles", "subsets", "probe"] {
        for (geo, puzzle) in &puzzles {
            check(geo, puzzle, level, &[]);
        }
    }
}
