//! `satdoku explain`: every minimal set of givens checked by brute force (no
//! solution with them, a solution once any one is removed), and every forcing
//! set checked the same way (the cell can hold nothing else with them, and
//! can once any one is removed).

use crate::util::brute::Brute;
use crate::util::checker::{data_lines, read_symbols, Shape};
use crate::util::{json_lines, json_run, run};

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

#[test]
fn conflicting_givens_are_a_minimal_unsolvable_subset() {
    let brute = Brute::new(Shape::classic(9));
    let mut puzzles = data_lines("dimacs/unsolvable-9.txt");
    // Two givens that clash, among others.
    puzzles.push(format!("5.....5..{}", &data_lines("top95.txt")[0][9..]));
    for puzzle in &puzzles {
        let givens = read_symbols(puzzle);
        let record = &json_run(&["explain", "--format", "json"], puzzle, 1, 1)[0];
        assert_eq!(record["status"], "unsolvable", "{puzzle}");
        let core = names(9, &record["givens"]);
        assert!(core.iter().all(|&c| givens[c] != 0), "{puzzle}: not all givens");
        assert!(brute.any(&only(&givens, &core)).is_none(), "{puzzle}: the subset has a solution");
        for &drop in &core {
            let rest: Vec<usize> = core.iter().copied().filter(|&c| c != drop).collect();
            assert!(brute.any(&only(&givens, &rest)).is_some(), "{puzzle}: the subset without {drop} still fails");
        }
    }
}

#[test]
fn forcing_givens_force_the_cell_and_each_is_needed() {
    let brute = Brute::new(Shape::classic(9));
    // Brute force proves each "cannot differ" by exhaustion: a few cells keep it quick.
    let puzzles: Vec<String> = data_lines("clpfd-examples.txt");
    for puzzle in &puzzles {
        let givens = read_symbols(puzzle);
        let solution = brute.any(&givens).unwrap();
        let open: Vec<usize> = (0..81).filter(|&c| givens[c] == 0).step_by(23).collect();
        let names_asked: Vec<String> = open.iter().map(|&c| format!("r{}c{}", c / 9 + 1, c % 9 + 1)).collect();
        let mut args = vec!["explain", "--format", "json"];
        for name in &names_asked {
            args.extend(["--cell", name.as_str()]);
        }
        let record = &json_run(&args, puzzle, 0, 1)[0];
        let forced = record["forced"].as_array().unwrap();
        assert_eq!(forced.len(), open.len());
        for (item, &c) in forced.iter().zip(&open) {
            // These puzzles have one solution: every cell is forced, to its value there.
            let value: usize = item["value"].as_str().unwrap().parse().unwrap();
            assert_eq!(value, solution[c], "{puzzle}: {item}");
            let set = names(9, &item["givens"]);
            let cannot_differ = |subset: &[usize]| {
                (1..=9).filter(|&v| v != value).all(|v| {
                    let mut g = only(&givens, subset);
                    g[c] = v;
                    brute.any(&g).is_none()
                })
            };
            assert!(cannot_differ(&set), "{puzzle}: {item}: the set does not force the cell");
            for &drop in &set {
                let rest: Vec<usize> = set.iter().copied().filter(|&d| d != drop).collect();
                assert!(!cannot_differ(&rest), "{puzzle}: {item}: {drop} is not needed");
            }
        }
    }
}

#[test]
fn explain_names_a_cell_that_is_not_forced_or_given() {
    // Blank 4x4 but one given: r1c1 is a given, r4c4 takes several values.
    let record =
        &json_run(&["explain", "--cell", "r1c1", "--cell", "r4c4", "--format", "json"], "1...............\n", 0, 1)[0];
    assert_eq!(record["forced"][0]["given"], true);
    assert_eq!(record["forced"][1]["open"].as_array().unwrap().len(), 2);
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
