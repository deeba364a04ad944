//! Grids for the tests: the cases of the DIMACS round trip, and grid
//! definition files read independently into the checker's units.

use std::path::{Path, PathBuf};

use super::checker::{self, data_lines, data_path, repo_path, Shape};

/// A data file of puzzles (one per line) and the grid options that go with it.
pub struct Case {
    pub file: &'static str,
    pub args: &'static [&'static str],
    pub shape: fn() -> Shape,
}

/// A file of the DIMACS cases, under tests/data/dimacs.
pub fn data(file: &str) -> PathBuf {
    data_path("dimacs").join(file)
}

/// The puzzles of a DIMACS case file: its lines that are not `#` comments.
pub fn puzzles(file: &str) -> Vec<String> {
    data_lines(&format!("dimacs/{file}"))
}

/// The units of encodings/jigsaw-9.toml, read here.
pub fn jigsaw9() -> Shape {
    shape_of_grid_file(&repo_path("encodings/jigsaw-9.toml"))
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

/// Check a solution line against the givens line with the independent checker.
pub fn check(givens: &str, solution: &str, shape: &Shape) -> Result<(), String> {
    checker::check(shape, &checker::read_symbols(givens), &checker::read_symbols(solution))
}

/// An independent reading of an encodings/*.toml file into units.
pub fn shape_of_grid_file(path: &Path) -> Shape {
    let text = std::fs::read_to_string(path).unwrap();
    let doc: toml::Value = toml::from_str(&text).unwrap();
    let n = doc["size"].as_integer().unwrap() as usize;
    let mut shape = if doc.get("latin").and_then(|v| v.as_bool()) == Some(true) {
        Shape::latin(n)
    } else if let Some(map) = doc.get("regions").and_then(|v| v.as_str()) {
        let labels: Vec<usize> =
            map.chars().filter(|c| !c.is_whitespace() && !"|+-".contains(*c)).map(|c| c as usize).collect();
        Shape::jigsaw(n, &labels)
    } else if let Some(b) = doc.get("boxes").and_then(|v| v.as_str()) {
        let (r, c) = b.split_once('x').unwrap();
        Shape::boxes(n, r.trim().parse().unwrap(), c.trim().parse().unwrap())
    } else {
        Shape::classic(n)
    };
    for v in doc.get("variants").and_then(|v| v.as_array()).into_iter().flatten() {
        shape = match v.as_str().unwrap() {
            "x" => shape.with_diagonals(),
            "hyper" => shape.with_hyper_windows_9(),
            other => panic!("test does not know variant {other}"),
        };
    }
    for unit in doc.get("extra_units").and_then(|v| v.as_array()).into_iter().flatten() {
        let cells = unit
            .as_str()
            .unwrap()
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(|w| {
                let (r, c) = w[1..].split_once('c').unwrap();
                (r.parse::<usize>().unwrap() - 1) * n + c.parse::<usize>().unwrap() - 1
            })
            .collect();
        shape.units.push(cells);
    }
    shape
}
