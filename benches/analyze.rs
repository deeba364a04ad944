//! Speed of `analyze`: µs per puzzle over tdoku's serg benchmark (9×9, several solutions each) and a loose 16×16.
//!
//! The data is read from ../shared/data by path (override with
//! SATDOKU_DATA=dir); a missing file skips its benchmark.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use satdoku::{analyze, AnalyzeOptions};
use satdoku::{read_all, Alphabet, GeometrySpec, Puzzle};

fn data_dir() -> PathBuf {
    std::env::var_os("SATDOKU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

fn load(text: &str, source: &str) -> Vec<Puzzle> {
    let mut spec = GeometrySpec::classic();
    read_all(text, source, &Alphabet::default(), &mut spec).into_iter().filter_map(|e| e.puzzle.ok()).collect()
}

/// Gecode's 16×16 instance 34 (unique) with every other given removed:
/// over a thousand solutions, some cells still fixed.
fn loose_16x16() -> Option<Puzzle> {
    let text = std::fs::read_to_string(data_dir().join("mixed/gecode.txt")).ok()?;
    let line = text.lines().find(|l| l.starts_with("34 16 "))?;
    let mut kept = 0;
    let givens: String = line[6..]
        .chars()
        .map(|ch| {
            if ch == '.' {
                return '.';
            }
            kept += 1;
            if kept % 2 == 0 {
                ch
            } else {
                '.'
            }
        })
        .collect();
    load(&givens, "gecode-34-loose").pop()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("analyze");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    let options = AnalyzeOptions::default();
    let no_count = AnalyzeOptions { count_limit: 0, ..AnalyzeOptions::default() };
    match std::fs::read_to_string(data_dir().join("9x9/serg-benchmark.txt")) {
        Ok(text) => {
            let puzzles = load(&text, "serg-benchmark.txt");
            // A slice keeps an iteration short; the whole file is measured by the CLI (README).
            let slice = &puzzles[..puzzles.len().min(500)];
            group.throughput(Throughput::Elements(slice.len() as u64));
            for (name, opts) in [("count-1000", &options), ("no-count", &no_count)] {
                group.bench_with_input(BenchmarkId::new("serg-500", name), slice, |b, slice| {
                    b.iter(|| slice.iter().map(|p| analyze(p, opts).map(|a| a.count.count).unwrap_or(0)).sum::<u64>())
                });
            }
        }
        Err(e) => eprintln!("skipping serg-benchmark: {e}"),
    }
    match loose_16x16() {
        Some(p) => {
            group.throughput(Throughput::Elements(1));
            for (name, opts) in [("count-1000", &options), ("no-count", &no_count)] {
                group.bench_with_input(BenchmarkId::new("16x16-loose", name), &p, |b, p| {
                    b.iter(|| analyze(p, opts).map(|a| a.count.count).unwrap_or(0))
                });
            }
        }
        None => eprintln!("skipping 16x16: ../shared/data/mixed/gecode.txt not found"),
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
