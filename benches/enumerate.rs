//! Enumeration speed: solutions per second on 9×9 puzzles with thousands of
//! solutions, the Latin squares of order 5, and counting serg-benchmark
//! against the specialized `sudoku` crate.
//!
//! `cargo bench --bench enumerate`. The 9×9 puzzles are made from tdoku's
//! counted puzzles in tests/data/counted.txt: each one with more than 500
//! solutions, less one given, keeping those with 2,000 to 20,000 solutions.
//! serg-benchmark is read from `../shared/data` (or the folder in
//! `SATDOKU_DATA`), and skipped with a note when it is not there; its first
//! 1,000 puzzles, or as many as `SATDOKU_SERG` says (10000: the whole file).

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use satdoku::{
    count_up_to, read_all, Alphabet, Geometry, GeometrySpec, Grid, Puzzle, Search, SolveOptions, Strategy, Value,
};

fn puzzle(geometry: Geometry, text: &str) -> Puzzle {
    let n = geometry.size();
    let cells = text.chars().map(|c| c.to_digit(10).and_then(|d| Value::new_checked(d as usize, n))).collect();
    let grid = Grid::from_cells(n, cells).expect("a puzzle of the right size");
    Puzzle::new(Arc::new(geometry), grid).expect("givens of the right size")
}

/// The derived 9×9 puzzles with their counts.
fn many_solution_puzzles() -> Vec<(Puzzle, u64)> {
    let text = include_str!("../tests/data/counted.txt");
    let options = SolveOptions::default();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split(':');
        let (Some(givens), Some(count)) = (fields.next(), fields.next()) else { continue };
        if count.parse::<u64>().unwrap_or(0) <= 500 {
            continue;
        }
        for i in givens.char_indices().filter(|&(_, ch)| ch != '.').map(|(i, _)| i) {
            let text = format!("{}.{}", &givens[..i], &givens[i + 1..]);
            let p = puzzle(Geometry::classic(9).expect("9x9"), &text);
            let c = count_up_to(&p, 20_001, &options).expect("count");
            if (2_000..=20_000).contains(&c.count) {
                out.push((p, c.count));
            }
        }
    }
    out
}

fn nine_by_nine(c: &mut Criterion) {
    let options = SolveOptions::default();
    let puzzles = many_solution_puzzles();
    // Eight of them, spread over the range, keep one run near a second.
    let step = (puzzles.len() / 8).max(1);
    let chosen: Vec<&(Puzzle, u64)> = puzzles.iter().step_by(step).take(8).collect();
    let total: u64 = chosen.iter().map(|(_, n)| n).sum();
    let mut group = c.benchmark_group("9x9-thousands");
    group.sample_size(10);
    group.throughput(Throughput::Elements(total));
    group.bench_function(BenchmarkId::new("branch", format!("{} puzzles, {total} solutions", chosen.len())), |b| {
        b.iter(|| {
            for (p, n) in &chosen {
                let c = Search::with_strategy(p, &options, Strategy::Branch).count_up_to(u64::MAX).expect("count");
                assert_eq!(c.count, *n);
                black_box(c);
            }
        })
    });
    // Plain blocking clauses, on the first puzzle only: it is slow.
    let (p, n) = chosen[0];
    group.throughput(Throughput::Elements(*n));
    group.bench_function(BenchmarkId::new("blocking", format!("1 puzzle, {n} solutions")), |b| {
        b.iter(|| {
            black_box(Search::with_strategy(p, &options, Strategy::Blocking).count_up_to(u64::MAX).expect("count"))
        })
    });
    group.finish();
}

fn latin_five(c: &mut Criterion) {
    let options = SolveOptions::default();
    let p = puzzle(Geometry::latin(5).expect("5x5"), &".".repeat(25));
    let mut group = c.benchmark_group("latin-5");
    group.sample_size(10);
    group.throughput(Throughput::Elements(161_280));
    group.bench_function("count", |b| {
        b.iter(|| {
            let c = count_up_to(&p, u64::MAX, &options).expect("count");
            assert_eq!(c.count, 161_280);
            black_box(c)
        })
    });
    group.finish();
}

/// The first 1,000 puzzles of serg-benchmark (9×9, each with 2 to over
/// 1,000 solutions; `SATDOKU_SERG` puzzles when set), counted up to 1,000 as `satdoku count --max 1000` does,
/// every solution verified; and by the `sudoku` crate's
/// `solutions_count_up_to(1000)`. Both must agree on every count.
fn serg(c: &mut Criterion) {
    let data = std::env::var_os("SATDOKU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    let path = data.join("9x9/serg-benchmark.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping serg-benchmark: {} not found", path.display());
        return;
    };
    let take = std::env::var("SATDOKU_SERG").ok().and_then(|n| n.parse().ok()).unwrap_or(1000);
    let lines: Vec<&str> = text.lines().take(take).collect();
    let puzzles: Vec<Puzzle> = read_all(&lines.join("\n"), "serg", &Alphabet::default(), &mut GeometrySpec::classic())
        .into_iter()
        .map(|e| e.puzzle.expect("serg-benchmark puzzles read"))
        .collect();
    let options = SolveOptions::default();
    let satdoku =
        || -> Vec<u64> { puzzles.iter().map(|p| count_up_to(p, 1000, &options).expect("count").count).collect() };
    let crate_counts = || -> Vec<u64> {
        let sudokus = lines.iter().map(|l| sudoku::Sudoku::from_str_line(l).expect("a 9x9 line"));
        sudokus.map(|s| s.solutions_count_up_to(1000) as u64).collect()
    };
    assert_eq!(satdoku(), crate_counts(), "satdoku and the sudoku crate disagree on a count");
    let mut group = c.benchmark_group("count serg-benchmark");
    group.sample_size(10);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    let name = format!("first {}, up to 1000", puzzles.len());
    group.bench_function(BenchmarkId::new("satdoku", &name), |b| b.iter(|| black_box(satdoku())));
    group.bench_function(BenchmarkId::new("sudoku crate", &name), |b| b.iter(|| black_box(crate_counts())));
    group.finish();
}

criterion_group!(benches, nine_by_nine, latin_five, serg);
criterion_main!(benches);
