//! Encoding and solving speed: 9×9 easy and hard (against the specialized `sudoku` crate), 16×16, 25×25.
//!
//! `cargo bench --bench solve`. The big puzzle sets are read from
//! `../shared/data` (or the folder in `SATDOKU_DATA`); a set that is not there
//! is skipped with a note. Throughput is per puzzle.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use varisat::CnfFormula;

use satdoku::cnf::{encode_base, EncodeOptions};
use satdoku::{read_all, solve_with_stats, Alphabet, Geometry, GeometrySpec, Outcome, Prepared, Puzzle, SolveOptions};

fn data_dir() -> PathBuf {
    std::env::var_os("SATDOKU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// The first `limit` lines of a shared data file, if it is there.
fn lines(path: &str, limit: usize) -> Option<Vec<String>> {
    let full = data_dir().join(path);
    match std::fs::read_to_string(&full) {
        Ok(text) => Some(text.lines().filter(|l| !l.starts_with('#')).take(limit).map(String::from).collect()),
        Err(_) => {
            eprintln!("skipping {}: not found", full.display());
            None
        }
    }
}

fn parse(lines: &[String]) -> Vec<Puzzle> {
    let text = lines.join("\n");
    read_all(&text, "bench", &Alphabet::default(), &mut GeometrySpec::classic())
        .into_iter()
        .filter_map(|e| e.puzzle.ok())
        .collect()
}

/// Gecode's instances of side `n` (`index n puzzle` lines).
fn gecode(n: usize) -> Vec<Puzzle> {
    let Some(lines) = lines("mixed/gecode.txt", usize::MAX) else { return Vec::new() };
    let wanted: Vec<String> = lines
        .iter()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let (_, size, puzzle) = (f.next()?, f.next()?, f.next()?);
            (size.parse() == Ok(n)).then(|| puzzle.to_string())
        })
        .collect();
    parse(&wanted)
}

fn solve_all(puzzles: &[Puzzle]) -> usize {
    let options = SolveOptions::default();
    puzzles.iter().filter(|p| matches!(solve_with_stats(p, &options, None), Ok((Outcome::Solved(_), _)))).count()
}

fn nine(c: &mut Criterion) {
    let sets = [
        ("17-clue", lines("9x9/17-clue.txt", 2000)),
        ("top95", lines("9x9/top95.txt", 95)),
        ("magictour", lines("9x9/magictour-top1465.txt", 300)),
        ("forum-hardest", lines("9x9/forum-hardest-1905.txt", 200)),
    ];
    let mut group = c.benchmark_group("solve 9x9");
    group.sample_size(10);
    for (name, lines) in sets {
        let Some(lines) = lines else { continue };
        let puzzles = parse(&lines);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_with_input(BenchmarkId::new("satdoku", name), &puzzles, |b, puzzles| {
            b.iter(|| assert_eq!(solve_all(black_box(puzzles)), puzzles.len()))
        });
        group.bench_with_input(BenchmarkId::new("sudoku crate", name), &lines, |b, lines| {
            b.iter(|| {
                let solved = lines
                    .iter()
                    .filter_map(|l| sudoku::Sudoku::from_str_line(l).ok())
                    .filter(|s| s.solution().is_some())
                    .count();
                assert_eq!(solved, lines.len());
            })
        });
    }
    group.finish();
}

/// The Kwon & Jain instances of one table (`kwon-jain/tableT-*.txt`, rows of numbers).
fn kwon_jain(table: usize) -> Vec<Puzzle> {
    let Ok(dir) = std::fs::read_dir(data_dir().join("kwon-jain")) else { return Vec::new() };
    let prefix = format!("table{table}-");
    let mut files: Vec<PathBuf> = dir
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|f| f.to_string_lossy().starts_with(&prefix)))
        .collect();
    files.sort();
    files.iter().filter_map(|f| std::fs::read_to_string(f).ok()).flat_map(|text| parse(&[text])).collect()
}

fn larger(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve larger");
    group.sample_size(10);
    // Gecode's 25×25 instances are left out: some take varisat 10 s and more
    // (see README, Speed); they would turn this into a benchmark of one puzzle.
    let sets = [("gecode 16x16", gecode(16)), ("kwon-jain 25x25", kwon_jain(5)), ("kwon-jain 36x36", kwon_jain(6))];
    for (name, puzzles) in sets {
        if puzzles.is_empty() {
            continue;
        }
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_with_input(BenchmarkId::new("satdoku", name), &puzzles, |b, puzzles| {
            b.iter(|| assert_eq!(solve_all(puzzles), puzzles.len()))
        });
    }
    group.finish();
}

fn encode(c: &mut Criterion) {
    let mut group = c.benchmark_group("encode");
    for n in [9, 16, 25] {
        let geometry = Geometry::classic(n).expect("a square size");
        group.bench_function(BenchmarkId::new("full blank grid", format!("{n}x{n}")), |b| {
            b.iter(|| {
                let mut f = CnfFormula::new();
                encode_base(&geometry, EncodeOptions::default(), &mut f);
                f.len()
            })
        });
    }
    let hard = parse(&["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......".into()]);
    group.bench_function("propagate and reduce 9x9 hard", |b| {
        b.iter(|| {
            let prepared = Prepared::new(&hard[0], &SolveOptions::default()).expect("solvable");
            let mut f = CnfFormula::new();
            prepared.encode(&mut f);
            f.len()
        })
    });
    group.finish();
}

criterion_group!(benches, nine, larger, encode);
criterion_main!(benches);
