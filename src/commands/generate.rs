//! `satdoku generate`: random full grids, proper and minimal puzzles, of any grid satdoku solves.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;

use satdoku::{
    Entry, GenerateError, GenerateOptions, Generator, Geometry, Kind, Layout, Layouts, Position, SolveError, Symmetry,
};

use super::batch::{run_indexed, Numbered};
use super::files::{self, WriteError};
use super::output::{Body, ColorChoice, Format, PuzzleBody, Record, Status};
use super::{names, whole, GridArgs};

/// The largest `--seed`: 2^53 − 1, the largest integer that JSON readers
/// holding numbers as doubles (jq, JavaScript) read back exactly; a seed
/// past it, read back from a record, made other puzzles.
const MAX_SEED: u64 = (1 << 53) - 1;

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// How many puzzles (or grids) to make.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1, value_parser = whole::<u64>("a number of puzzles", 0..=u64::MAX, ""), allow_negative_numbers = true)]
    pub count: u64,
    /// The seed of the random choices: the same seed and options make the
    /// same puzzles, whatever --jobs. Below 2^53, so that any JSON reader
    /// keeps it exact (JSON records carry the seed). Default: from the clock.
    #[arg(long, value_name = "S", value_parser = whole::<u64>("a seed", 0..=MAX_SEED, ""), allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// The side n, where no grid option gives it (default 9). With
    /// `--regions random`, the side of the random jigsaw.
    #[arg(long, value_name = "N", value_parser = whole::<usize>("a side", 1..=satdoku::MAX_SIZE as u64, ""), allow_negative_numbers = true)]
    pub size: Option<usize>,
    /// Full grids, no givens removed.
    #[arg(long, conflicts_with_all = ["proper", "givens"])]
    pub solved: bool,
    /// Proper puzzles (one solution) without minimising them: faster, a few more givens.
    #[arg(long)]
    pub proper: bool,
    /// The number of givens, K or a range K..L: givens are added to a minimal
    /// puzzle up to K; minimal puzzles above L are thrown away.
    #[arg(long, value_name = "K|K..L", value_parser = parse_givens)]
    pub givens: Option<RangeInclusive<usize>>,
    /// The symmetry of the pattern of givens.
    #[arg(long, value_name = "KIND", default_value = "none", value_parser = names::<Symmetry>())]
    pub symmetry: Symmetry,
    /// Grids tried per puzzle before a range of givens is given up.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = whole::<usize>("a number of tries", 1..=u64::MAX, ""), allow_negative_numbers = true)]
    pub tries: usize,
    /// Block moves of the grid sampler per grid (default 3n; more: closer to uniform, slower).
    #[arg(long, value_name = "N", value_parser = whole::<usize>("a number of block moves", 0..=u64::MAX, ""), allow_negative_numbers = true)]
    pub mix: Option<usize>,
    /// Also write the region map of each random jigsaw (`--regions random`)
    /// to FILE, one line per puzzle, as `--regions` reads it.
    #[arg(long, value_name = "FILE")]
    pub regions_out: Option<PathBuf>,
    /// line, grid, json (JSON Lines), fpuzzles (f-puzzles and SudokuPad strings) or svg (pictures). Default: grid on a terminal, else line.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// With --format svg: write one picture per puzzle into DIR, as
    /// puzzle-0001.svg, ..., instead of to stdout.
    #[arg(long, value_name = "DIR", requires = "format")]
    pub out_dir: Option<PathBuf>,
    /// Colour in the grid format: auto (on a terminal, unless NO_COLOR is
    /// set), always or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Make puzzles on N threads (0 or none: every core); the output is the same.
    #[arg(long, short = 'j', value_name = "N", value_parser = super::parse_jobs, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// Print the time each puzzle took, and the grids tried, to stderr.
    #[arg(long)]
    pub stats: bool,
    /// Give up on a puzzle after SECS seconds: an `error` record, and the run goes on.
    #[arg(long, value_name = "SECS", value_parser = super::parse_timeout, allow_hyphen_values = true)]
    pub timeout: Option<std::time::Duration>,
    /// From 16x16 on, the conflicts the solver may spend on one question
    /// "is this given needed?" of a minimal puzzle before the given is kept
    /// unproven (--stats counts them): the puzzle is still proven unique,
    /// but may have a given it could do without. 0: no limit, every minimal
    /// puzzle proven minimal, however long it takes.
    #[arg(long, value_name = "N", default_value_t = satdoku::QUESTION_CONFLICTS, value_parser = whole::<u64>("a number of conflicts", 0..=u64::MAX, ""), allow_negative_numbers = true)]
    pub question_conflicts: u64,
    /// Refuse to make puzzles whose uniqueness checker (the blank grid's
    /// whole CNF, O(n^4)) would have more than N literals: the memory it
    /// takes (about 20 bytes a literal in varisat). Full grids need none.
    #[arg(long, value_name = "N", default_value_t = satdoku::DEFAULT_MAX_LITERALS, value_parser = whole::<u64>("a number of literals", 0..=u64::MAX, ""), allow_negative_numbers = true)]
    pub max_literals: u64,
}

/// Parse `--givens K` or `K..L`.
fn parse_givens(text: &str) -> Result<RangeInclusive<usize>, String> {
    let number = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("'{t}' is not a number of givens"));
    let range = match text.split_once("..") {
        Some((lo, hi)) => number(lo)?..=number(hi.trim_start_matches('='))?,
        None => number(text)?..=number(text)?,
    };
    if range.is_empty() {
        return Err(format!("'{text}' is an empty range (expected K..L with K <= L)"));
    }
    Ok(range)
}

/// `--givens` as it was written: K, or K..L.
fn givens_text(range: &RangeInclusive<usize>) -> String {
    match range.start() == range.end() {
        true => range.start().to_string(),
        false => format!("{}..{}", range.start(), range.end()),
    }
}

/// A symmetric pattern of givens is a union of orbits of the symmetry (the
/// cells it maps onto each other): `--givens` counts no union of orbits
/// can make are a usage error, said at once rather than after every try
/// (rot90 on a 9×9 makes 4k or 4k + 1 givens, never 30).
fn check_symmetric_counts(range: &RangeInclusive<usize>, symmetry: Symmetry, n: usize) -> Result<()> {
    // The orbits depend on the cells' places alone, not on the units.
    let square = satdoku::Geometry::latin(n).with_context(|| format!("a {n}x{n} grid"))?;
    // How many orbits there are of each size (1, 2, 4 or 8 cells).
    let mut sizes = std::collections::BTreeMap::new();
    for orbit in symmetry.orbits(&square) {
        *sizes.entry(orbit.len()).or_insert(0usize) += 1;
    }
    // The counts that up to m orbits of s cells each add to those before:
    // k is one when some k − i·s (i ≤ m) was, the nearest such in k's
    // residue class mod s found in one pass (n² steps a size, not a step
    // per orbit and count).
    let mut reachable = vec![false; n * n + 1];
    reachable[0] = true;
    for (s, m) in sizes {
        let mut next = vec![false; reachable.len()];
        for residue in 0..s.min(reachable.len()) {
            let mut last = None;
            for (j, k) in (residue..reachable.len()).step_by(s).enumerate() {
                if reachable[k] {
                    last = Some(j);
                }
                next[k] = last.is_some_and(|l| j - l <= m);
            }
        }
        reachable = next;
    }
    if range.clone().any(|k| reachable.get(k) == Some(&true)) {
        return Ok(());
    }
    let below = (0..*range.start()).rev().find(|&k| reachable[k]);
    let above = (*range.end() + 1..=n * n).find(|&k| reachable[k]);
    let nearest: Vec<String> = below.into_iter().chain(above).map(|k| k.to_string()).collect();
    bail!(
        "--givens {}: --symmetry {symmetry} on a {n}x{n} grid makes no such count of givens (its cells come in orbits; the nearest counts are {})",
        givens_text(range),
        nearest.join(" and ")
    )
}

pub fn run_generate(args: &GenerateArgs, grid: &GridArgs) -> Result<u8> {
    // `none`, the default, may be spelled out (a script looping over kinds).
    if args.solved && args.symmetry != Symmetry::None {
        bail!("--symmetry {}: full grids (--solved) have no pattern of givens", args.symmetry);
    }
    let random_regions = grid.regions.as_deref() == Some("random");
    let grid_args = GridArgs { regions: if random_regions { None } else { grid.regions.clone() }, ..grid.clone() };
    let mut setup = grid_args.resolve()?;
    setup.one_fpuzzles_grid()?;
    // The grid, or for random jigsaws one of their side (rows as regions):
    // what every layout shares.
    let (layouts, shape) = if random_regions {
        let n = args.size.unwrap_or(9);
        if n == 0 || n > 64 {
            bail!("--size {n}: random jigsaw layouts are made for sizes 1 to 64");
        }
        // The variants on any jigsaw of this side (rows as its regions): an
        // error every layout would meet is one usage error, not one a puzzle.
        let rows = (0..n * n).map(|cell| (cell / n) as u32).collect();
        let rows = Geometry::new(n, Layout::Regions(rows), &grid.variants)
            .with_context(|| format!("--regions random on a {n}x{n} grid"))?;
        (Layouts::RandomRegions { n, variants: grid.variants.clone() }, Arc::new(rows))
    } else {
        if args.regions_out.is_some() {
            bail!("--regions-out writes random layouts: give --regions random");
        }
        let n = match (setup.spec.fixed_size(), args.size) {
            (Some(n), Some(size)) if n != size => bail!("--size {size}: the grid options make a {n}x{n} grid"),
            (Some(n), _) => n,
            (None, size) => size.unwrap_or(9),
        };
        let geometry = setup.spec.geometry_for(n).with_context(|| format!("a {n}x{n} grid"))?;
        (Layouts::Fixed(Arc::clone(&geometry)), geometry)
    };
    // More givens than cells is no puzzle any grid tried could give.
    let n = shape.size();
    setup.check_alphabet(n)?;
    if let Some(range) = args.givens.as_ref().filter(|r| *r.start() > n * n) {
        bail!("--givens: {} or more givens, and a {n}x{n} grid has {} cells", range.start(), n * n);
    }
    if let Some(range) = &args.givens {
        check_symmetric_counts(range, args.symmetry, n)?;
        // A count no proper puzzle of the grid can have, said at once rather
        // than after every try (16x16 --givens 10: two minutes).
        let (fewest, why) = satdoku::fewest_proper_givens(&shape);
        if *range.end() < fewest {
            bail!(
                "--givens {}: a proper {n}x{n} puzzle of this grid has at least {fewest} givens; {why}",
                givens_text(range)
            );
        }
    }
    let kind = match (args.solved, args.proper) {
        (true, _) => Kind::Solved,
        (false, true) if args.givens.is_none() => Kind::Proper,
        _ => Kind::Minimal,
    };
    let options = GenerateOptions {
        kind,
        givens: args.givens.clone(),
        symmetry: args.symmetry,
        steps: args.mix,
        tries: args.tries,
        timeout: args.timeout,
        question_conflicts: Some(args.question_conflicts).filter(|&c| c > 0),
        max_literals: args.max_literals,
    };
    // A clock seed below 2⁵³: JSON readers that hold numbers as doubles (jq,
    // JavaScript) read the record's seed back exactly, to make it again.
    let seed = args.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        now.as_nanos() as u64 & MAX_SEED
    });
    let renderer =
        super::renderer(args.format, args.out_dir.as_deref(), args.color, &setup, &super::inputs(&[], grid))?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = match args.jobs {
        None | Some(0) => cores,
        Some(jobs) => jobs.min(cores),
    };
    let maps = match &args.regions_out {
        Some(path) => Some(Mutex::new(MapFile::create(path)?)),
        None => None,
    };
    let put_map = |i: u64, map: Option<String>| -> std::io::Result<()> {
        if let Some(maps) = &maps {
            maps.lock().map_err(|_| std::io::Error::other("a worker thread panicked"))?.put(i, map);
        }
        Ok(())
    };
    thread_local! {
        static GENERATOR: std::cell::RefCell<Option<Generator>> = const { std::cell::RefCell::new(None) };
    }
    let summary = run_indexed(args.count, renderer, jobs, |i, out| {
        let start = Instant::now();
        let made = GENERATOR.with(|cell| {
            let mut cell = cell.borrow_mut();
            let generator = cell.get_or_insert_with(|| Generator::new(layouts.clone(), options.clone()));
            generator.generate(seed, i)
        });
        let source = format!("seed {seed}");
        match made {
            Ok(made) => {
                let geometry = Arc::clone(made.puzzle.geometry());
                if let Layout::Regions(map) = geometry.layout() {
                    put_map(i, Some(satdoku::format::region_map(map, geometry.size())))?;
                }
                let (tries, calls, unproven) = (made.tries, made.solver_calls, made.unproven);
                let body = PuzzleBody {
                    puzzle: made.puzzle.givens().clone(),
                    solution: made.solution.clone(),
                    seed: Some(seed),
                    removed: None,
                    minimal: made.minimal.map(|minimal| (minimal, unproven)),
                };
                let entry =
                    Entry { position: Position { source, line: 0, column: None }, name: None, puzzle: Ok(made.puzzle) };
                let numbered = Numbered { index: i as usize + 1, entry, read: Default::default(), threads: 1 };
                let status = if kind == Kind::Solved { Status::Solved } else { Status::Unique };
                if args.stats {
                    let ms = start.elapsed().as_secs_f64() * 1e3;
                    let unproven = match unproven {
                        0 => String::new(),
                        k => format!(" ({k} kept unproven: question past --question-conflicts)"),
                    };
                    out.note(&format!(
                        "{}: {} givens{unproven}, {tries} grids tried, {calls} solver calls, {ms:.3} ms",
                        numbered.describe(),
                        body.puzzle.filled_count()
                    ))?;
                }
                out.emit(Record::new(&numbered, status).with_body(Body::Puzzle(Box::new(body))))
            }
            Err(e) => {
                let error = match e {
                    GenerateError::Solve(SolveError::TimedOut) => {
                        let seconds = args.timeout.map_or(0.0, |t| t.as_secs_f64());
                        format!("no puzzle within {seconds} s (--timeout)")
                    }
                    e => e.to_string(),
                };
                let position = Position { source, line: 0, column: None };
                let entry = Entry {
                    position: position.clone(),
                    name: None,
                    puzzle: Err(satdoku::ParseError { position, kind: satdoku::ParseErrorKind::Io(error.clone()) }),
                };
                let numbered = Numbered { index: i as usize + 1, entry, read: Default::default(), threads: 1 };
                put_map(i, None)?;
                out.emit(Record::failed(&numbered, Status::Error, error))
            }
        }
    })?;
    if let Some(maps) = maps {
        let maps = maps.into_inner().map_err(|_| anyhow::anyhow!("a worker thread panicked"))?;
        if let Some(e) = maps.failed {
            bail!("--regions-out {}: cannot write: {e}", maps.path.display());
        }
    }
    Ok(summary.code())
}

/// The `--regions-out` file: line k the region map of record k, written as
/// soon as the maps of the records before it are (an empty line for a
/// record with no puzzle), so that it keeps up with the records printed
/// when the run stops early (a closed pipe, a signal).
struct MapFile {
    file: std::fs::File,
    path: PathBuf,
    /// The record whose map is the next line.
    next: u64,
    /// Maps made ahead of it, on other threads.
    waiting: BTreeMap<u64, Option<String>>,
    /// The write that failed: no line is written after it, and the run
    /// ends with the error once every record is printed.
    failed: Option<std::io::Error>,
}

impl MapFile {
    fn create(path: &Path) -> Result<MapFile> {
        const OPTION: &str = "--regions-out";
        if path.is_dir() {
            bail!(WriteError::Directory { option: OPTION.into(), path: path.into() });
        }
        let failed = |e: WriteError| anyhow::anyhow!("{OPTION} {e}");
        files::check_writable(path).map_err(failed)?;
        let file = std::fs::File::create(path).map_err(|error| failed(WriteError::Io { path: path.into(), error }))?;
        Ok(MapFile { file, path: path.to_path_buf(), next: 0, waiting: BTreeMap::new(), failed: None })
    }

    /// The map of record `i` (0-based), none for a record with no puzzle.
    fn put(&mut self, i: u64, map: Option<String>) {
        if self.failed.is_some() {
            return;
        }
        self.waiting.insert(i, map);
        let mut lines = String::new();
        while let Some(map) = self.waiting.remove(&self.next) {
            lines.push_str(map.as_deref().unwrap_or(""));
            lines.push('\n');
            self.next += 1;
        }
        if let Err(e) = self.file.write_all(lines.as_bytes()) {
            self.failed = Some(e);
        }
    }
}
