//! The test cases of the DIMACS round trip, checked by the independent checker of `tests/common`.

#![allow(dead_code)]

use std::path::Path;

use super::checker::{self as common, Shape};

/// A data file of puzzles (one per line) and the grid options that go with it.
pub struct Case {
    pub file: &'static str,
    pub args: &'static [&'static str],
    pub shape: fn() -> Shape,
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

/// The regions of encodings/jigsaw-9.toml (nine rows of nine digits), read here.
pub fn jigsaw9() -> Shape {
    let text = std::fs::read_to_string(repo_file("encodings/jigsaw-9.toml")).unwrap();
    let labels: Vec<usize> = text
        .lines()
        .filter(|l| l.len() == 9 && l.chars().all(|c| c.is_ascii_digit()))
        .flat_map(|l| l.chars())
        .map(|c| c as usize - '0' as usize)
        .collect();
    assert_eq!(labels.len(), 81);
    Shape::jigsaw(9, &labels)
}

pub const CASES: &[(&str, Case)] = &[
    ("classic_4", Case { file: "classic-4.txt", args: &[], shape: || Shape::boxes(4, 2, 2) }),
    ("classic_6", Case { file: "classic-6.txt", args: &[], shape: || Shape::boxes(6, 2, 3) }),
    ("classic_9", Case { file: "classic-9.txt", args: &[], shape: || Shape::boxes(9, 3, 3) }),
    ("classic_16", Case { file: "classic-16.txt", args: &[], shape: || Shape::boxes(16, 4, 4) }),
    ("latin_5", Case { file: "latin-5.txt", args: &["--latin"], shape: || Shape::latin(5) }),
    ("jigsaw_9", Case { file: "jigsaw-9.txt", args: &["--grid", "encodings/jigsaw-9.toml"], shape: jigsaw9 }),
    ("x_9", Case { file: "x-9.txt", args: &["--variant", "x"], shape: || Shape::boxes(9, 3, 3).with_diagonals() }),
    (
        "hyper_9",
        Case {
            file: "hyper-9.txt",
            args: &["--variant", "hyper"],
            shape: || Shape::boxes(9, 3, 3).with_hyper_windows_9(),
        },
    ),
];

pub fn case(name: &str) -> &'static Case {
    &CASES.iter().find(|(n, _)| *n == name).unwrap().1
}

/// Check a solution line against the givens line with the independent checker of `tests/common`.
pub fn check(givens: &str, solution: &str, shape: &Shape) -> Result<(), String> {
    common::check(shape, &common::read_symbols(givens), &common::read_symbols(solution))
}
