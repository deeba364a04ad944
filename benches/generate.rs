//! Generation speed, one thread: a proper minimal 9×9, a proper 16×16 and a
//! proper 25×25 (the bars of issue 19: 5 ms, 1 s, 10 s), and a full 9×9 grid.
//!
//! `cargo bench --bench generate`. Each iteration makes the next puzzle of
//! one seeded run (a new random grid each time), check of uniqueness by
//! enumeration included.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use satdoku::{GenerateOptions, Generator, Geometry, Kind, Layouts};

fn bench(c: &mut Criterion, name: &str, n: usize, kind: Kind, samples: usize) {
    let layouts = Layouts::Fixed(Arc::new(Geometry::classic(n).expect("a square side")));
    let mut generator = Generator::new(layouts, GenerateOptions { kind, ..GenerateOptions::default() });
    let mut index = 0;
    let mut group = c.benchmark_group("generate");
    group.sample_size(samples);
    if n > 9 {
        group.measurement_time(Duration::from_secs(if n > 16 { 60 } else { 20 }));
    }
    group.bench_function(name, |b| {
        b.iter(|| {
            index += 1;
            black_box(generator.generate(1, index).expect("a puzzle"))
        })
    });
    group.finish();
}

fn generate(c: &mut Criterion) {
    bench(c, "full grid 9x9", 9, Kind::Solved, 100);
    bench(c, "minimal 9x9", 9, Kind::Minimal, 100);
    bench(c, "proper 9x9", 9, Kind::Proper, 100);
    bench(c, "proper 16x16", 16, Kind::Proper, 10);
    bench(c, "proper 25x25", 25, Kind::Proper, 10);
}

criterion_group!(benches, generate);
criterion_main!(benches);
