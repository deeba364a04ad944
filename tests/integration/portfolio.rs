//! One puzzle, several solvers: `SolveOptions::portfolio` (and `solve --jobs N`
//! on an input of one puzzle) races differently seeded solvers. Every answer
//! is checked by the independent checker; "unsolvable" only where the data
//! says so; a time limit still ends the race.

use std::time::Duration;

use satdoku::{read_all, solve, Alphabet, Encoding, GeometrySpec, Outcome, Puzzle, SolveOptions};

use crate::util::checker::{self, assert_solves, numbers, read_solution_line, read_symbols, Shape};
use crate::util::{json_lines, run};

fn puzzle(line: &str) -> Puzzle {
    read_all(line, "race", &Alphabet::default(), &mut GeometrySpec::classic()).remove(0).puzzle.unwrap()
}

/// The reduced encoding leaves every puzzle but the easiest to the solvers,
/// so that the race runs.
fn race(solvers: usize) -> SolveOptions {
    SolveOptions { portfolio: solvers, encoding: Encoding::Reduced, ..SolveOptions::default() }
}

#[test]
fn every_answer_of_a_race_is_a_solution() {
    let mut lines = checker::data_lines("tdoku-forum-hardest-100.txt");
    lines.truncate(20);
    lines.extend(checker::data_lines("gecode-16x16.txt").into_iter().take(10));
    lines.extend(checker::data_lines("gecode-25x25.txt"));
    for (i, line) in lines.iter().enumerate() {
        for options in [race(2 + i % 3), SolveOptions { portfolio: 2, ..SolveOptions::default() }] {
            let p = puzzle(line);
            let Outcome::Solved(grid) = solve(&p, &options).unwrap() else { panic!("no solution: {line}") };
            let n = p.geometry().size();
            assert_solves(&Shape::classic(n), &read_symbols(line), &numbers(&grid), line);
        }
    }
}

/// A forum-hardest puzzle (each has exactly one solution) with one more
/// given that disagrees with that solution and clashes with no given: no
/// solution, and only search shows it.
fn refuted(line: &str) -> String {
    let p = puzzle(line);
    let Outcome::Solved(grid) = solve(&p, &SolveOptions::default()).unwrap() else { panic!("{line}") };
    let solution = numbers(&grid);
    let givens = read_symbols(line);
    let peers = |a: usize, b: usize| a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3);
    for cell in (0..81).filter(|&c| givens[c] == 0) {
        let clashes = |v: usize| (0..81).any(|o| peers(cell, o) && givens[o] == v);
        if let Some(v) = (1..=9).find(|&v| v != solution[cell] && !clashes(v)) {
            let mut text: Vec<char> = line.chars().collect();
            text[cell] = char::from_digit(v as u32, 10).unwrap();
            return text.into_iter().collect();
        }
    }
    panic!("every other value clashes: {line}")
}

#[test]
fn a_race_confirms_that_a_puzzle_has_no_solution() {
    for line in checker::data_lines("tdoku-forum-hardest-100.txt").iter().take(5) {
        let bad = refuted(line);
        for solvers in [2, 3] {
            let outcome = solve(&puzzle(&bad), &race(solvers)).unwrap();
            assert!(matches!(outcome, Outcome::Unsolvable(_)), "{bad}: {outcome:?}");
        }
    }
}

#[test]
fn a_time_limit_ends_a_race() {
    // varisat needs many seconds on this 25x25 (about 19 s on the project machine).
    let line = checker::data_lines("gecode-25x25-hard.txt").remove(0);
    let options = SolveOptions { portfolio: 2, timeout: Some(Duration::from_millis(300)), ..SolveOptions::default() };
    // A limit that did nothing would end in Solved.
    assert_eq!(solve(&puzzle(&line), &options).unwrap(), Outcome::TimedOut);
}

#[test]
fn solve_jobs_on_one_puzzle_races_and_prints_a_checked_answer() {
    for line in checker::data_lines("gecode-25x25.txt") {
        let r = run(&["solve", "--jobs", "2", "--encoding", "reduced", "--format", "json"], &line);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let recs = json_lines(&r.stdout);
        assert_eq!(recs.len(), 1, "{}", r.stdout);
        assert_eq!(recs[0]["status"], "solved", "{}", recs[0]);
        let solution = read_solution_line(recs[0]["solution"].as_str().unwrap(), None);
        assert_solves(&Shape::classic(25), &read_symbols(&line), &solution, &line);
    }
    let bad = refuted(&checker::data_lines("tdoku-forum-hardest-100.txt")[0]);
    let r = run(&["solve", "--jobs", "2", "--encoding", "reduced", "--format", "json"], &bad);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(json_lines(&r.stdout)[0]["status"], "unsolvable", "{}", r.stdout);
}

#[test]
fn solve_jobs_on_one_puzzle_stops_at_the_timeout() {
    let line = checker::data_lines("gecode-25x25-hard.txt").remove(0);
    let r = run(&["solve", "--jobs", "2", "--timeout", "0.5", "--format", "json"], &line);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let recs = json_lines(&r.stdout);
    assert_eq!(recs[0]["status"], "error", "{}", recs[0]);
    assert!(recs[0]["error"].as_str().unwrap().contains("--timeout"), "{}", recs[0]);
}
