//! Variant 9×9s: time to solve, and to solve and prove the solution unique
//! (two solutions asked for, one found), for the examples in `encodings/variants/`.
//!
//! `cargo bench --bench variants`. Each puzzle is read once; the time is the
//! whole pipeline (preparation, encoding, search, verification).

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};

use satdoku::{parse_grid_file, read_all, solve, Alphabet, GeometrySpec, Outcome, Puzzle, Search, SolveOptions};

/// The examples: (name, puzzle).
fn examples() -> Vec<(String, Puzzle)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("encodings/variants");
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "toml")) {
        let geometry = parse_grid_file(&std::fs::read_to_string(&path).unwrap(), "bench").unwrap();
        let givens = std::fs::read_to_string(path.with_extension("txt")).unwrap();
        let mut spec = GeometrySpec::fixed(Arc::new(geometry));
        let puzzle = read_all(&givens, "bench", &Alphabet::default(), &mut spec).remove(0).puzzle.unwrap();
        out.push((path.file_stem().unwrap().to_string_lossy().into_owned(), puzzle));
    }
    out
}

fn variants(c: &mut Criterion) {
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("variants");
    for (name, puzzle) in examples() {
        group.bench_function(format!("solve/{name}"), |b| {
            b.iter(|| assert!(matches!(solve(black_box(&puzzle), &options), Ok(Outcome::Solved(_)))))
        });
        group.bench_function(format!("unique/{name}"), |b| {
            b.iter(|| assert_eq!(Search::new(black_box(&puzzle), &options).take(2).count(), 1))
        });
    }
    group.finish();
}

criterion_group!(benches, variants);
criterion_main!(benches);
