//! `satdoku explain`: every minimal set of givens checked by brute force (no
//! solution with them, a solution once any one is removed), and every forcing
//! set checked the same way (the cell can hold nothing else with them, and
//! can once any one is removed).

use crate::util::brute::Brute;
use crate::util::checker::{data_lines, read_symbols, symbol_value, Shape};
use crate::util::oracle::Oracle;
use crate::util::{available, json_lines, json_run, run};

/// Row-major cell index of `r1c2`.
fn cell(n: usize, name: &str) -> usize {
    let (r, c) = name.trim_start_matches('r').split_once('c').unwrap();
    (r.parse::<usize>().unwrap() - 1) * n + c.parse::<usize>().unwrap() - 1
}

/// The givens of `puzzle` at `cells` only.
fn only(puzzle: &[usize], cells: &[usize]) -> Vec<usize> {
    (0..puzzle.len()).map(|c| if cells.contains(&c) { puzzle[c] } else { 0 }).collect()
}

fn names(n: usize, json: &serde_json::Value) -> Vec<usize> {
    json.as_array().unwrap().iter().map(|c| cell(n, c.as_str().unwrap())).collect()
}

/// Asks `explain` why `puzzle` has no solution and checks the set it names
/// with `solve` (a solution of the puzzle's shape with some givens, if any):
/// those givens alone have none, and with any one of them removed they have.
fn assert_conflict_is_minimal(n: usize, puzzle: &str, solve: impl Fn(&[usize]) -> Option<Vec<usize>>) {
    let givens = read_symbols(puzzle);
    let record = &json_run(&["explain", "--format", "json"], puzzle, 1, 1)[0];
    assert_eq!(record["status"], "unsolvable", "{puzzle}");
    let core = names(n, &record["givens"]);
    assert!(core.iter().all(|&c| givens[c] != 0), "{puzzle}: not all givens");
    assert!(solve(&only(&givens, &core)).is_none(), "{puzzle}: the subset has a solution");
    for &drop in &core {
        let rest: Vec<usize> = core.iter().copied().filter(|&c| c != drop).collect();
        assert!(solve(&only(&givens, &rest)).is_some(), "{puzzle}: the subset without {drop} still fails");
    }
}

#[test]
fn conflicting_givens_are_a_minimal_unsolvable_subset() {
    let brute = Brute::new(Shape::classic(9));
    let mut puzzles = data_lines("dimacs/unsolvable-9.txt");
    // Two givens that clash, among others.
    puzzles.push(format!("5.....5..{}", &data_lines("top95.txt")[0][9..]));
    for puzzle in &puzzles {
        assert_conflict_is_minimal(9, puzzle, |g| brute.any(g));
    }
}

/// 16×16 puzzles made unsolvable by one more given that clashes with no
/// given in its units: the conflict is a deduction, found by the shrink by
/// propagation and the solver of `explain`'s big-grid path, and checked by
/// CaDiCaL (see the forcing test below).
#[test]
fn conflicting_givens_of_16x16_grids_are_a_minimal_unsolvable_subset() {
    if !available("cadical") {
        return;
    }
    let shape = Shape::classic(16);
    let oracle = Oracle::new(shape.clone());
    for puzzle in data_lines("gecode-16x16.txt").iter().take(3) {
        let mut givens = read_symbols(puzzle);
        let solution = oracle.solve(&givens, &[]).unwrap();
        let units_of = |c: usize| shape.units.iter().filter(move |u| u.contains(&c));
        let no_clash = |c: usize, v: usize| units_of(c).all(|u| u.iter().all(|&d| givens[d] != v));
        let (c, v) = (0..256)
            .filter(|&c| givens[c] == 0)
            .flat_map(|c| (1..=16).map(move |v| (c, v)))
            .find(|&(c, v)| v != solution[c] && no_clash(c, v))
            .expect("an open cell with a value no given of its units has");
        givens[c] = v;
        let text: String =
            givens.iter().map(|&v| char::from_digit(v as u32, 17).unwrap().to_ascii_uppercase()).collect();
        assert_conflict_is_minimal(16, &text, |g| oracle.solve(g, &[]));
    }
}

/// Asks `explain` why the open `cells` of `puzzle` (one solution) hold their
/// values, and checks every set it names with `solve`, a search for a
/// solution of the puzzle's shape with some givens and some values excluded:
/// with only those givens the cell can hold nothing else, and with any one of
/// them removed it can.
fn assert_forcing_sets_are_minimal(
    n: usize,
    puzzle: &str,
    cells: &[usize],
    solve: impl Fn(&[usize], &[(usize, usize)]) -> Option<Vec<usize>>,
) {
    let givens = read_symbols(puzzle);
    let solution = solve(&givens, &[]).unwrap();
    let mut args = vec!["explain".to_string(), "--format".into(), "json".into()];
    for &c in cells {
        args.extend(["--cell".into(), format!("r{}c{}", c / n + 1, c % n + 1)]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let record = &json_run(&args, puzzle, 0, 1)[0];
    let forced = record["forced"].as_array().unwrap();
    assert_eq!(forced.len(), cells.len());
    for (item, &c) in forced.iter().zip(cells) {
        // One solution: every cell is forced, to its value there.
        let symbol = item["value"].as_str().unwrap();
        let value = symbol_value(symbol.chars().next().unwrap()).filter(|_| symbol.len() == 1);
        assert_eq!(value, Some(solution[c]), "{puzzle}: {item}");
        let set = names(n, &item["givens"]);
        assert!(set.iter().all(|&g| givens[g] != 0), "{puzzle}: {item}: not all givens");
        let cannot_differ = |subset: &[usize]| solve(&only(&givens, subset), &[(c, solution[c])]).is_none();
        assert!(cannot_differ(&set), "{puzzle}: {item}: the set does not force the cell");
        for &drop in &set {
            let rest: Vec<usize> = set.iter().copied().filter(|&d| d != drop).collect();
            assert!(!cannot_differ(&rest), "{puzzle}: {item}: {drop} is not needed");
        }
    }
}

#[test]
fn forcing_givens_force_the_cell_and_each_is_needed() {
    let brute = Brute::new(Shape::classic(9));
    // Brute force proves each "cannot differ" by exhaustion: a few cells keep it quick.
    let solve = |givens: &[usize], excluded: &[(usize, usize)]| match *excluded {
        [] => brute.any(givens),
        [(c, v)] => (1..=9).filter(|&w| w != v).find_map(|w| {
            let mut g = givens.to_vec();
            g[c] = w;
            brute.any(&g)
        }),
        _ => unreachable!("one cell is explained at a time"),
    };
    for puzzle in &data_lines("clpfd-examples.txt") {
        let givens = read_symbols(puzzle);
        let open: Vec<usize> = (0..81).filter(|&c| givens[c] == 0).step_by(23).collect();
        assert_forcing_sets_are_minimal(9, puzzle, &open, solve);
    }
}

/// From 16×16 on, `explain` shrinks a set by propagation before the solver
/// tries each given (src/explain.rs): its sets must pass the same check. Some
/// take deductions brute force needs minutes for, so CaDiCaL answers here,
/// on a CNF of the tests' own, each answer checked (a solution by the
/// checker, "none" by its DRAT proof).
#[test]
fn forcing_givens_of_16x16_grids_force_the_cell_and_each_is_needed() {
    if !available("cadical") {
        return;
    }
    let oracle = Oracle::new(Shape::classic(16));
    for puzzle in data_lines("gecode-16x16.txt").iter().take(3) {
        let givens = read_symbols(puzzle);
        let open: Vec<usize> = (0..256).filter(|&c| givens[c] == 0).step_by(97).collect();
        assert_forcing_sets_are_minimal(16, puzzle, &open, |g, e| oracle.solve(g, e));
    }
}

#[test]
fn explain_names_a_cell_that_is_not_forced_or_given() {
    // Blank 4x4 but one given: r1c1 is a given, r4c4 takes several values.
    let record =
        &json_run(&["explain", "--cell", "r1c1", "--cell", "r4c4", "--format", "json"], "1...............\n", 0, 1)[0];
    assert_eq!(record["forced"][0]["given"], true);
    assert_eq!(record["forced"][1]["open"].as_array().unwrap().len(), 2);
    // A cell named twice is answered once (it got two different pairs).
    let args = ["explain", "--cell", "r4c4", "--cell", "R4C4", "--cell", "r4c4", "--format", "json"];
    let record = &json_run(&args, "1...............\n", 0, 1)[0];
    assert_eq!(record["forced"].as_array().unwrap().len(), 1, "{record}");
    let r = crate::util::run(&["explain", "--cell", "r5c1"], "1...............\n");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not a cell of this 4x4 grid"), "{}", r.stderr);
    // A 1×1's cell needs no given (this crashed: QuickXplain split nothing for ever).
    let r = crate::util::run(&["explain", "--cell", "r1c1"], ".\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("r1c1 = 1, forced by the rules alone"), "{}", r.stdout);
}

/// A pencil-mark puzzle is refused with a record that says why: its marks
/// are rules no printed set of givens shows. Row 1 limited to {1,2} by its
/// marks, no givens: `explain` said "these 0 givens have no solution" and
/// printed a blank 4×4, which has 288.
#[test]
fn pencil_marks_are_refused_not_explained_away() {
    let marks = format!("{}{}\n", "12..".repeat(4), "1234".repeat(12));
    let r = run(&["explain", "--format", "json"], &marks);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let records = json_lines(&r.stdout);
    assert_eq!(records.len(), 1, "{}", r.stdout);
    assert_eq!(records[0]["status"], "error", "{}", records[0]);
    assert!(records[0]["error"].as_str().unwrap().contains("pencil marks"), "{}", records[0]);
    // The same marks solved: no solution, as the marks leave 1 and 2 for four cells.
    let r = run(&["solve", "--format", "json"], &marks);
    assert_eq!(json_lines(&r.stdout)[0]["status"], "unsolvable", "{}", r.stdout);
}

/// A whole 25×25 with one given changed: the only minimal sets are the
/// changed given with a given of the same value in one of its units. Each
/// given of the core cost a solver call before propagation shrank it (a
/// 49×49 took 49 s); the set must still be one such pair.
#[test]
fn one_wrong_given_of_a_big_grid_is_named_with_its_clash() {
    let n = 25;
    let solution = |r: usize, c: usize| ((r % 5) * 5 + r / 5 + c) % n + 1;
    let mut givens: Vec<usize> = (0..n * n).map(|i| solution(i / n, i % n)).collect();
    let wrong = 7 * n + 11;
    givens[wrong] = givens[wrong] % n + 1;
    let text = givens.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ");
    let record = &json_run(&["explain", "--format", "json"], &text, 1, 1)[0];
    assert_eq!(record["status"], "unsolvable", "{record}");
    let core = names(n, &record["givens"]);
    assert_eq!(core.len(), 2, "{record}");
    assert!(core.contains(&wrong), "{record}");
    let other = core.iter().copied().find(|&c| c != wrong).unwrap();
    let unit = |c: usize| (c / n, c % n, (c / n / 5, c % n / 5));
    let ((r1, c1, b1), (r2, c2, b2)) = (unit(wrong), unit(other));
    assert!(r1 == r2 || c1 == c2 || b1 == b2, "{record}: not in one unit");
    assert_eq!(givens[wrong], givens[other], "{record}: different values");
}

/// Clues with no solution together, whatever the givens: the minimal set of
/// givens is empty, and the header says the rules alone have none (it said
/// "these 0 givens have no solution together").
#[test]
fn rules_with_no_solution_are_said_to_be_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    // One pair of cells summing to 3 and to 7.
    let grid = crate::util::write_file(
        &dir,
        "contra.toml",
        "size = 4\n[[killer]]\ncells = \"r1c1 r1c2\"\nsum = 3\n[[killer]]\ncells = \"r1c1 r1c2\"\nsum = 7\n",
    );
    let r = run(&["explain", "--grid", &grid, "--format", "grid"], &".".repeat(16));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let header = r.stdout.lines().next().unwrap_or_default();
    assert!(header.contains("unsolvable: the grid's rules alone have no solution"), "{}", r.stdout);
    let records = json_run(&["explain", "--grid", &grid, "--format", "json"], &".".repeat(16), 1, 1);
    assert_eq!(records[0]["givens"], serde_json::json!([]), "{}", records[0]);
}

/// One given with no solution, by the rules alone: the header says "this
/// given", not "these 1 givens".
#[test]
fn one_given_with_no_solution_is_said_in_the_singular() {
    let dir = tempfile::tempdir().unwrap();
    // An odd cell given 2.
    let grid = crate::util::write_file(&dir, "odd.toml", "size = 4\nodd = \"r1c1\"\n");
    let givens = format!("2{}", ".".repeat(15));
    let r = run(&["explain", "--grid", &grid, "--format", "grid"], &givens);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let header = r.stdout.lines().next().unwrap_or_default();
    assert!(header.ends_with("unsolvable: this given alone has no solution (in parentheses)"), "{}", r.stdout);
    let records = json_run(&["explain", "--grid", &grid, "--format", "json"], &givens, 1, 1);
    assert_eq!(records[0]["givens"], serde_json::json!(["r1c1"]), "{}", records[0]);
}

/// A cell written as one whose numbers fit no grid (past usize, even) is
/// not a cell of the puzzle's grid; it was said to be no cell name at all.
#[test]
fn explain_says_a_cell_is_out_of_the_grid_however_far() {
    for cell in ["r1c99999999999999999999", "r99999999999999999999c1", "r1c2000000", "r0c1"] {
        let r = crate::util::run(&["explain", "--cell", cell], "1...............\n");
        assert_eq!(r.code, 2, "{cell}");
        assert!(r.stderr.contains(&format!("--cell {cell}: not a cell of this 4x4 grid")), "{}", r.stderr);
    }
    let r = crate::util::run(&["explain", "--cell", "r1x2"], "1...............\n");
    assert!(r.stderr.contains("--cell r1x2: expected a cell such as r1c2"), "{}", r.stderr);
}
