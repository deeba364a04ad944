//! The test cases of the DIMACS round trip, and a checker of solutions that shares no code with satdoku.

#![allow(dead_code)]

use std::path::Path;

/// A data file of puzzles (one per line) and the grid options that go with it.
pub struct Case {
    pub file: &'static str,
    pub args: &'static [&'static str],
    pub units: fn() -> Vec<Vec<usize>>,
}

pub fn data(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dimacs").join(file).display().to_string()
}

pub fn repo_file(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path).display().to_string()
}

/// The puzzles of a data file: its lines that are not `#` comments.
pub fn puzzles(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(data(file)).unwrap();
    text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect()
}

/// Rows, columns and (optionally) boxes of `rows`×`cols`.
pub fn classic(n: usize, boxes: Option<(usize, usize)>) -> Vec<Vec<usize>> {
    let mut units = Vec::new();
    for i in 0..n {
        units.push((0..n).map(|j| i * n + j).collect());
        units.push((0..n).map(|j| j * n + i).collect());
    }
    if let Some((r, c)) = boxes {
        for top in (0..n).step_by(r) {
            for left in (0..n).step_by(c) {
                units.push((0..n).map(|k| (top + k / c) * n + left + k % c).collect());
            }
        }
    }
    units
}

pub fn x9() -> Vec<Vec<usize>> {
    let mut units = classic(9, Some((3, 3)));
    units.push((0..9).map(|i| i * 9 + i).collect());
    units.push((0..9).map(|i| i * 9 + 8 - i).collect());
    units
}

pub fn hyper9() -> Vec<Vec<usize>> {
    let mut units = classic(9, Some((3, 3)));
    for top in [1, 5] {
        for left in [1, 5] {
            units.push((0..9).map(|k| (top + k / 3) * 9 + left + k % 3).collect());
        }
    }
    units
}

/// The regions of encodings/jigsaw-9.toml: nine rows of nine digits.
pub fn jigsaw9() -> Vec<Vec<usize>> {
    let text = std::fs::read_to_string(repo_file("encodings/jigsaw-9.toml")).unwrap();
    let labels: Vec<char> = text
        .lines()
        .filter(|l| l.len() == 9 && l.chars().all(|c| c.is_ascii_digit()))
        .flat_map(|l| l.chars())
        .collect();
    assert_eq!(labels.len(), 81);
    let mut units = classic(9, None);
    for label in '1'..='9' {
        units.push((0..81).filter(|&i| labels[i] == label).collect());
    }
    units
}

pub const CASES: &[(&str, Case)] = &[
    ("classic_4", Case { file: "classic-4.txt", args: &[], units: || classic(4, Some((2, 2))) }),
    ("classic_6", Case { file: "classic-6.txt", args: &[], units: || classic(6, Some((2, 3))) }),
    ("classic_9", Case { file: "classic-9.txt", args: &[], units: || classic(9, Some((3, 3))) }),
    ("classic_16", Case { file: "classic-16.txt", args: &[], units: || classic(16, Some((4, 4))) }),
    ("latin_5", Case { file: "latin-5.txt", args: &["--latin"], units: || classic(5, None) }),
    ("jigsaw_9", Case { file: "jigsaw-9.txt", args: &["--grid", "encodings/jigsaw-9.toml"], units: jigsaw9 }),
    ("x_9", Case { file: "x-9.txt", args: &["--variant", "x"], units: x9 }),
    ("hyper_9", Case { file: "hyper-9.txt", args: &["--variant", "hyper"], units: hyper9 }),
];

pub fn case(name: &str) -> &'static Case {
    &CASES.iter().find(|(n, _)| *n == name).unwrap().1
}

/// A value from its symbol: 1-9 then A-Z; `.` and `0` empty.
fn value(c: char) -> Option<u32> {
    c.to_digit(36).filter(|&d| d > 0)
}

/// Check that `solution` fills every cell, keeps every given, and holds each value once in every unit.
pub fn check(givens: &str, solution: &str, units: &[Vec<usize>]) -> Result<(), String> {
    let cells: Vec<Option<u32>> = solution.chars().map(value).collect();
    let given: Vec<Option<u32>> = givens.chars().map(value).collect();
    let n = (1..).find(|n| n * n >= cells.len()).unwrap();
    if cells.len() != n * n || given.len() != cells.len() {
        return Err(format!("{} cells, givens have {}", cells.len(), given.len()));
    }
    for (i, (c, g)) in cells.iter().zip(&given).enumerate() {
        match (c, g) {
            (None, _) => return Err(format!("cell {i} empty")),
            (Some(v), _) if *v as usize > n => return Err(format!("cell {i} holds {v} > {n}")),
            (Some(v), Some(g)) if v != g => return Err(format!("cell {i} is given {g} but holds {v}")),
            _ => {}
        }
    }
    for unit in units {
        let mut seen: Vec<u32> = unit.iter().map(|&i| cells[i].unwrap()).collect();
        seen.sort();
        if seen != (1..=n as u32).collect::<Vec<_>>() {
            return Err(format!("unit {unit:?} holds {seen:?}"));
        }
    }
    Ok(())
}
