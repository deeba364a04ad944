//! An independent checker for the tests: units built here from first principles
//! (not from satdoku's geometry or verifier), puzzle text read here, and every
//! solution checked against them.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

/// The units of an n×n grid, each a list of row-major cell indices.
#[derive(Clone, Debug)]
pub struct Shape {
    pub n: usize,
    pub units: Vec<Vec<usize>>,
}

impl Shape {
    /// Rows and columns only (a Latin square).
    pub fn latin(n: usize) -> Shape {
        let mut units = Vec::new();
        for r in 0..n {
            units.push((0..n).map(|c| r * n + c).collect());
        }
        for c in 0..n {
            units.push((0..n).map(|r| r * n + c).collect());
        }
        Shape { n, units }
    }

    /// Rows, columns and boxes of `br` rows × `bc` columns.
    pub fn boxes(n: usize, br: usize, bc: usize) -> Shape {
        assert_eq!(br * bc, n, "test bug: {br}x{bc} boxes for n = {n}");
        let mut shape = Shape::latin(n);
        for top in (0..n).step_by(br) {
            for left in (0..n).step_by(bc) {
                let mut unit = Vec::new();
                for r in top..top + br {
                    for c in left..left + bc {
                        unit.push(r * n + c);
                    }
                }
                shape.units.push(unit);
            }
        }
        shape
    }

    /// Rows, columns and the boxes of the usual shape: the most square R×C, R ≤ C.
    pub fn classic(n: usize) -> Shape {
        let br = (1..=n).filter(|r| r * r <= n && n % r == 0).max().unwrap();
        Shape::boxes(n, br, n / br)
    }

    /// Rows, columns and one region per distinct label of `map` (row-major).
    pub fn jigsaw(n: usize, map: &[usize]) -> Shape {
        assert_eq!(map.len(), n * n);
        let mut shape = Shape::latin(n);
        let mut regions: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, &label) in map.iter().enumerate() {
            regions.entry(label).or_default().push(i);
        }
        let mut labels: Vec<usize> = regions.keys().copied().collect();
        labels.sort();
        for l in labels {
            shape.units.push(regions.remove(&l).unwrap());
        }
        shape
    }

    /// Add the two main diagonals (X-sudoku).
    pub fn with_diagonals(mut self) -> Shape {
        let n = self.n;
        self.units.push((0..n).map(|i| i * n + i).collect());
        self.units.push((0..n).map(|i| i * n + (n - 1 - i)).collect());
        self
    }

    /// Add the disjoint groups of boxes of `br` rows × `bc` columns: for each
    /// place in a box, the cells in that place of every box.
    pub fn with_disjoint_groups(mut self, br: usize, bc: usize) -> Shape {
        let n = self.n;
        assert_eq!(br * bc, n, "test bug: {br}x{bc} boxes for n = {n}");
        for (i, j) in (0..br).flat_map(|i| (0..bc).map(move |j| (i, j))) {
            let tops = (0..n).step_by(br);
            let unit = tops.flat_map(|top| (0..n).step_by(bc).map(move |left| (top + i) * n + left + j)).collect();
            self.units.push(unit);
        }
        self
    }

    /// Add the hyper windows of a 9×9 grid: 3×3 at rows/columns 2-4 and 6-8 (1-based).
    pub fn with_hyper_windows_9(self) -> Shape {
        assert_eq!(self.n, 9);
        self.with_hyper_windows()
    }

    /// Add the hyper windows of an n×n grid, n = b²: b×b, one cell in from
    /// the edge and one cell apart (the rules as stated: none of the pieces
    /// between them).
    pub fn with_hyper_windows(mut self) -> Shape {
        let n = self.n;
        let b = (1..=n).find(|b| b * b >= n).unwrap();
        assert_eq!(b * b, n, "test bug: hyper windows need n = b²");
        for top in (0..b - 1).map(|k| 1 + k * (b + 1)) {
            for left in (0..b - 1).map(|k| 1 + k * (b + 1)) {
                let unit = (top..top + b).flat_map(|r| (left..left + b).map(move |c| r * n + c)).collect();
                self.units.push(unit);
            }
        }
        self
    }
}

/// Check that `solution` (values 1..=n, row-major) is complete, that every unit
/// of `shape` holds each value exactly once, and that every given (0 = empty) is kept.
pub fn check(shape: &Shape, givens: &[usize], solution: &[usize]) -> Result<(), String> {
    let n = shape.n;
    if solution.len() != n * n {
        return Err(format!("solution has {} cells, expected {}", solution.len(), n * n));
    }
    if givens.len() != n * n {
        return Err(format!("givens have {} cells, expected {}", givens.len(), n * n));
    }
    for (i, &v) in solution.iter().enumerate() {
        if v == 0 || v > n {
            return Err(format!("cell {i} holds {v}, expected 1..={n}"));
        }
    }
    for (u, unit) in shape.units.iter().enumerate() {
        if unit.len() != n {
            return Err(format!("test bug: unit {u} has {} cells", unit.len()));
        }
        let mut seen = vec![false; n + 1];
        for &c in unit {
            let v = solution[c];
            if seen[v] {
                return Err(format!("unit {u} ({unit:?}) holds {v} twice"));
            }
            seen[v] = true;
        }
    }
    for (i, (&g, &s)) in givens.iter().zip(solution).enumerate() {
        if g != 0 && g != s {
            return Err(format!("given {g} at cell {i} became {s}"));
        }
    }
    Ok(())
}

/// Panic with the puzzle when `check` fails.
pub fn assert_solves(shape: &Shape, givens: &[usize], solution: &[usize], what: &str) {
    if let Err(e) = check(shape, givens, solution) {
        panic!("{what}: wrong solution: {e}\n givens:   {givens:?}\n solution: {solution:?}");
    }
}

/// The default alphabet read independently: 1-9 then A-Z (either case) for
/// 10-35; `.`, `0`, `_` are 0 (empty). `None` for anything else.
pub fn symbol_value(ch: char) -> Option<usize> {
    match ch {
        // The default alphabet's empty marks.
        '.' | '0' | '_' | '*' => Some(0),
        '1'..='9' => Some(ch as usize - '0' as usize),
        'A'..='Z' => Some(ch as usize - 'A' as usize + 10),
        'a'..='z' => Some(ch as usize - 'a' as usize + 10),
        _ => None,
    }
}

/// A puzzle line of single symbols (default alphabet), 0 = empty.
pub fn read_symbols(line: &str) -> Vec<usize> {
    line.trim().chars().map(|ch| symbol_value(ch).unwrap_or_else(|| panic!("test data: bad symbol {ch:?}"))).collect()
}

/// A solution line as the CLI prints it: single symbols of `alphabet` (value k
/// is its k-th char), or numbers separated by spaces.
pub fn read_solution_line(line: &str, alphabet: Option<&str>) -> Vec<usize> {
    let line = line.trim();
    if line.contains(' ') {
        return line.split(' ').map(|w| w.parse().unwrap_or_else(|_| panic!("not a number: {w:?}"))).collect();
    }
    match alphabet {
        Some(a) => line
            .chars()
            .map(|ch| a.chars().position(|s| s == ch).map(|p| p + 1).unwrap_or_else(|| panic!("not a symbol: {ch:?}")))
            .collect(),
        None => read_symbols(line),
    }
}

/// Whitespace-separated numbers (`.` or 0 empty), all rows concatenated.
pub fn read_numbers(text: &str) -> Vec<usize> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .map(|w| if w == "." { 0 } else { w.parse().unwrap_or_else(|_| panic!("test data: bad number {w:?}")) })
        .collect()
}

/// The side of a grid with `cells` cells.
pub fn side(cells: usize) -> usize {
    let n = (cells as f64).sqrt().round() as usize;
    assert_eq!(n * n, cells, "test data: {cells} cells is not a square");
    n
}

/// A satdoku grid as plain numbers, 0 = empty.
pub fn numbers(grid: &satdoku::Grid) -> Vec<usize> {
    grid.cells().iter().map(|v| v.map_or(0, |v| v.number())).collect()
}

/// The lines of a test data file that are not comments or blank.
pub fn data_lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(data_path(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// A file under tests/data.
pub fn data_path(name: &str) -> PathBuf {
    repo_path("tests/data").join(name)
}

/// A path relative to the repository root, whatever the working directory.
pub fn repo_path(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A path under ../shared/data (for optional local cross-checks), if it exists.
pub fn shared_data(name: &str) -> Option<PathBuf> {
    let p = repo_path("../shared/data").join(name);
    p.exists().then_some(p)
}

/// A small deterministic random generator (xorshift), so tests repeat exactly.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod self_tests {
    use super::*;

    const SOLVED_4: [usize; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];

    #[test]
    fn checker_accepts_a_valid_grid_and_rejects_broken_ones() {
        let shape = Shape::classic(4);
        assert_eq!(shape.units.len(), 12);
        assert!(check(&shape, &[0; 16], &SOLVED_4).is_ok());
        let mut given = [0; 16];
        given[0] = 2;
        assert!(check(&shape, &given, &SOLVED_4).is_err());
        let mut swapped = SOLVED_4;
        swapped.swap(0, 1);
        assert!(check(&Shape::latin(4), &[0; 16], &swapped).is_err());
        // Valid as a Latin square but not with boxes.
        let latin = [1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3];
        assert!(check(&Shape::latin(4), &[0; 16], &latin).is_ok());
        assert!(check(&shape, &[0; 16], &latin).is_err());
        assert!(check(&shape, &[0; 16], &SOLVED_4[..15]).is_err());
        let mut zero = SOLVED_4;
        zero[5] = 0;
        assert!(check(&shape, &[0; 16], &zero).is_err());
        // The diagonals of SOLVED_4: 1,4,4,1 — not an X-sudoku.
        assert!(check(&shape.clone().with_diagonals(), &[0; 16], &SOLVED_4).is_err());
    }
}
