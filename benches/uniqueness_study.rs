//! Where uniqueness sets in: for each grid, the fraction of random k-subsets
//! of random full grids that leave the grid unique, for every k, with Wilson
//! 95% intervals; and the number of givens of random minimal puzzles.
//! Writes CSV files and an SVG plot (plotters); prints a Markdown summary.
//!
//! Run by `scripts/uniqueness-study.sh [--scale F] [--seed S] [--out DIR] [--only NAME]`
//! (`cargo bench --bench uniqueness_study -- ...`). `--scale 10` takes ten
//! times the samples.
//!
//! One trial: a random grid S (satdoku's sampler), the cells in random order,
//! and the shortest prefix k* of that order under which S is unique (binary
//! search over one incremental solver: uniqueness only grows with givens).
//! The first k cells of a random order are a uniform random k-subset, so the
//! share of trials with k* ≤ k estimates, for every k at once, the chance
//! that k random givens of a random grid make a proper puzzle.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use plotters::prelude::*;

use satdoku::{
    random_regions, Cell, GenerateOptions, Generator, Geometry, GridSampler, Layout, Layouts, Rng, UniquenessChecker,
};

struct Case {
    name: &'static str,
    n: usize,
    jigsaw: bool,
    /// Trials of the k-subset curve and minimal puzzles, at scale 1.
    trials: usize,
    minimal: usize,
}

const CASES: [Case; 6] = [
    Case { name: "4x4", n: 4, jigsaw: false, trials: 4000, minimal: 4000 },
    Case { name: "6x6", n: 6, jigsaw: false, trials: 2000, minimal: 2000 },
    Case { name: "9x9", n: 9, jigsaw: false, trials: 1000, minimal: 1000 },
    Case { name: "16x16", n: 16, jigsaw: false, trials: 40, minimal: 20 },
    Case { name: "jigsaw 6x6", n: 6, jigsaw: true, trials: 1000, minimal: 1000 },
    Case { name: "jigsaw 9x9", n: 9, jigsaw: true, trials: 300, minimal: 300 },
];

struct Args {
    scale: f64,
    seed: u64,
    out: PathBuf,
    only: Option<String>,
}

fn parse_args() -> Args {
    let mut args = Args { scale: 1.0, seed: 2012, out: PathBuf::from("docs/uniqueness"), only: None };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--scale" => args.scale = value().parse().expect("--scale F: a number"),
            "--seed" => args.seed = value().parse().expect("--seed S: a number"),
            "--out" => args.out = PathBuf::from(value()),
            "--only" => args.only = Some(value()),
            // cargo bench passes --bench.
            "--bench" => {}
            other => panic!("unknown argument {other}: expected --scale F, --seed S, --out DIR, --only NAME"),
        }
    }
    args
}

/// A geometry for trial `index`: the case's grid, or a random jigsaw layout with a solution.
fn sampler_for(case: &Case, rng: &mut Rng) -> GridSampler {
    loop {
        let geometry = if case.jigsaw {
            Geometry::new(case.n, Layout::Regions(random_regions(case.n, rng)), &[]).expect("a layout of n regions")
        } else {
            Geometry::classic(case.n).expect("a square side")
        };
        if let Some(sampler) = GridSampler::new(Arc::new(geometry)).expect("the blank grid solves") {
            return sampler;
        }
    }
}

/// k* of each trial: the fewest first cells of a random order under which the grid is unique.
fn thresholds(case: &Case, trials: usize, seed: u64, threads: usize) -> Vec<usize> {
    let cells = case.n * case.n;
    let mut out = vec![0; trials];
    std::thread::scope(|scope| {
        let chunks: Vec<_> = out.chunks_mut(trials.div_ceil(threads).max(1)).enumerate().collect();
        let size = trials.div_ceil(threads).max(1);
        for (chunk, slots) in chunks {
            scope.spawn(move || {
                let mut fixed: Option<(GridSampler, UniquenessChecker)> = None;
                for (j, slot) in slots.iter_mut().enumerate() {
                    let mut rng = Rng::for_item(seed, (chunk * size + j) as u64);
                    let (sampler, checker) = match (&mut fixed, case.jigsaw) {
                        (Some(pair), false) => (&pair.0, &mut pair.1),
                        _ => {
                            let sampler = sampler_for(case, &mut rng);
                            let checker = UniquenessChecker::new(Arc::clone(sampler.geometry()));
                            fixed = Some((sampler, checker));
                            let pair = fixed.as_mut().expect("set");
                            (&pair.0, &mut pair.1)
                        }
                    };
                    let grid = sampler.sample(&mut rng).expect("a grid");
                    checker.set_solution(&grid).expect("a full grid");
                    let mut order: Vec<Cell> = (0..cells).map(Cell::from_index).collect();
                    rng.shuffle(&mut order);
                    let (mut lo, mut hi) = (0, cells);
                    while lo < hi {
                        let mid = (lo + hi) / 2;
                        if checker.is_unique(&order[..mid]).expect("an answer") {
                            hi = mid;
                        } else {
                            lo = mid + 1;
                        }
                    }
                    *slot = hi;
                }
            });
        }
    });
    out
}

/// The givens of random minimal puzzles.
fn minimal_givens(case: &Case, count: usize, seed: u64, threads: usize) -> Vec<usize> {
    let layouts = match case.jigsaw {
        true => Layouts::RandomRegions { n: case.n, variants: vec![] },
        false => Layouts::Fixed(Arc::new(Geometry::classic(case.n).expect("a square side"))),
    };
    let mut out = vec![0; count];
    let size = count.div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for (chunk, slots) in out.chunks_mut(size).enumerate() {
            let layouts = layouts.clone();
            scope.spawn(move || {
                let mut generator = Generator::new(layouts, GenerateOptions::default());
                for (j, slot) in slots.iter_mut().enumerate() {
                    let made = generator.generate(seed ^ 0x5EED, (chunk * size + j) as u64).expect("a puzzle");
                    *slot = made.puzzle.givens().filled_count();
                }
            });
        }
    });
    out
}

/// Wilson score interval for `x` successes in `n` trials, 95%.
fn wilson(x: usize, n: usize) -> (f64, f64) {
    let (x, n, z) = (x as f64, n as f64, 1.959964);
    let p = x / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

struct Result {
    name: &'static str,
    cells: usize,
    /// (k, unique, trials, low, high)
    curve: Vec<(usize, usize, usize, f64, f64)>,
    thresholds: Vec<usize>,
    minimal: Vec<usize>,
}

fn mean(values: &[usize]) -> f64 {
    values.iter().sum::<usize>() as f64 / values.len().max(1) as f64
}

fn quantile(sorted: &[usize], q: f64) -> usize {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let args = parse_args();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::fs::create_dir_all(&args.out).expect("the output folder");
    let mut results = Vec::new();
    for (i, case) in CASES.iter().enumerate() {
        if args.only.as_deref().is_some_and(|only| only != case.name) {
            continue;
        }
        let start = std::time::Instant::now();
        let trials = ((case.trials as f64 * args.scale).round() as usize).max(1);
        let minimal_count = ((case.minimal as f64 * args.scale).round() as usize).max(1);
        let seed = args.seed.wrapping_add(i as u64 * 1_000_003);
        let mut ks = thresholds(case, trials, seed, threads);
        ks.sort_unstable();
        let cells = case.n * case.n;
        let curve = (0..=cells)
            .map(|k| {
                let unique = ks.partition_point(|&t| t <= k);
                let (low, high) = wilson(unique, trials);
                (k, unique, trials, low, high)
            })
            .collect();
        let mut minimal = minimal_givens(case, minimal_count, seed, threads);
        minimal.sort_unstable();
        eprintln!(
            "{}: {trials} trials, {minimal_count} minimal puzzles, {:.1} s",
            case.name,
            start.elapsed().as_secs_f64()
        );
        results.push(Result { name: case.name, cells, curve, thresholds: ks, minimal });
    }
    write_csv(&args, &results);
    plot(&args, &results);
    print_summary(&args, &results);
}

fn write_csv(args: &Args, results: &[Result]) {
    let mut curve = String::from("grid,cells,givens,trials,unique,fraction,wilson_low,wilson_high\n");
    let mut minimal = String::from("grid,cells,givens,puzzles,count,fraction\n");
    for r in results {
        for &(k, unique, trials, low, high) in &r.curve {
            let fraction = unique as f64 / trials as f64;
            let _ = writeln!(curve, "{},{},{k},{trials},{unique},{fraction:.5},{low:.5},{high:.5}", r.name, r.cells);
        }
        let (lo, hi) = (r.minimal[0], r.minimal[r.minimal.len() - 1]);
        for givens in lo..=hi {
            let count = r.minimal.iter().filter(|&&g| g == givens).count();
            let fraction = count as f64 / r.minimal.len() as f64;
            let _ = writeln!(minimal, "{},{},{givens},{},{count},{fraction:.5}", r.name, r.cells, r.minimal.len());
        }
    }
    std::fs::write(args.out.join("unique-fraction.csv"), curve).expect("writing unique-fraction.csv");
    std::fs::write(args.out.join("minimal-givens.csv"), minimal).expect("writing minimal-givens.csv");
}

fn plot(args: &Args, results: &[Result]) {
    let path = args.out.join("uniqueness.svg");
    let root = SVGBackend::new(&path, (1200, 520)).into_drawing_area();
    root.fill(&WHITE).expect("drawing");
    let (left, right) = root.split_horizontally(600);
    let colors = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
    ];

    let mut chart = ChartBuilder::on(&left)
        .caption("Unique with k random givens of a random grid", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..1.0, 0.0..1.0)
        .expect("chart");
    chart.configure_mesh().x_desc("givens k / cells (n²)").y_desc("fraction unique (Wilson 95%)").draw().expect("mesh");
    for (r, color) in results.iter().zip(colors.iter().cycle()) {
        let cells = r.cells as f64;
        let line = r.curve.iter().map(|&(k, u, t, _, _)| (k as f64 / cells, u as f64 / t as f64));
        chart
            .draw_series(LineSeries::new(line, color.stroke_width(2)))
            .expect("series")
            .label(r.name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        for bound in [3, 4] {
            let band = r.curve.iter().map(move |c| (c.0 as f64 / cells, if bound == 3 { c.3 } else { c.4 }));
            chart.draw_series(LineSeries::new(band, color.mix(0.35))).expect("band");
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .expect("legend");

    let top = results
        .iter()
        .map(|r| {
            let most = r.minimal.iter().map(|&g| r.minimal.iter().filter(|&&h| h == g).count()).max().unwrap_or(0);
            most as f64 / r.minimal.len() as f64
        })
        .fold(0.0, f64::max);
    let mut chart = ChartBuilder::on(&right)
        .caption("Givens of random minimal puzzles", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..0.6, 0.0..(top * 1.1).max(0.05))
        .expect("chart");
    chart.configure_mesh().x_desc("givens / cells (n²)").y_desc("fraction of puzzles").draw().expect("mesh");
    for (r, color) in results.iter().zip(colors.iter().cycle()) {
        let cells = r.cells as f64;
        let (lo, hi) = (r.minimal[0], r.minimal[r.minimal.len() - 1]);
        let points: Vec<(f64, f64)> = (lo..=hi)
            .map(|g| (g as f64 / cells, r.minimal.iter().filter(|&&h| h == g).count() as f64 / r.minimal.len() as f64))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .expect("series")
            .label(format!("{} (mean {:.1})", r.name, mean(&r.minimal)))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        chart.draw_series(points.into_iter().map(|p| Circle::new(p, 3, color.filled()))).expect("points");
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .expect("legend");
    root.present().expect("writing the SVG");
}

fn print_summary(args: &Args, results: &[Result]) {
    println!("Seed {}, written to {}", args.seed, args.out.display());
    println!();
    println!("| grid | trials | k where 5% / 50% / 95% unique | minimal puzzles | givens: fewest | mean | most |");
    println!("|---|---:|---|---:|---:|---:|---:|");
    for r in results {
        let ks = &r.thresholds;
        println!(
            "| {} | {} | {} / {} / {} | {} | {} | {:.2} | {} |",
            r.name,
            ks.len(),
            quantile(ks, 0.05),
            quantile(ks, 0.5),
            quantile(ks, 0.95),
            r.minimal.len(),
            r.minimal[0],
            mean(&r.minimal),
            r.minimal[r.minimal.len() - 1]
        );
    }
}
