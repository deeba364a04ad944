//! Enumeration speed: solutions per second on 9×9 puzzles with thousands of solutions, and the Latin squares of order 5.
//!
//! `cargo bench --bench enumerate`. The 9×9 puzzles are made from tdoku's
//! counted puzzles in tests/data/counted.txt: each one with more than 500
//! solutions, less one given, keeping those with 2,000 to 20,000 solutions.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use satdoku::{count_up_to, Geometry, Grid, Puzzle, Search, SolveOptions, Strategy, Value};

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

criterion_group!(benches, nine_by_nine, latin_five);
criterion_main!(benches);
