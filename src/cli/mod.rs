//! What every command shares: the grid options, reading the inputs, writing records, exit codes.

pub mod analyze;
pub mod count;
pub mod decode;
pub mod dimacs;
pub mod solve;

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;

use satdoku::encode::AmoEncoding;
use satdoku::format::Format;
use satdoku::geometry::{parse_box_shape, parse_region_map, Geometry, Layout, Variant};
use satdoku::solve::{Encoding, Guess, SolveOptions, Stats};
use satdoku::{gridfile, Alphabet, Entry, GeometrySpec, PuzzleReader};

/// The options that say what grid a puzzle is played on and how it is written.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Grid options (every command)")]
pub struct GridArgs {
    /// Boxes of R×C cells (R·C = n), e.g. 2x3 for 6×6. Default: the most square shape.
    #[arg(long = "box", value_name = "RxC", global = true)]
    pub box_shape: Option<String>,
    /// A Latin square: rows and columns only, no boxes.
    #[arg(long, global = true, conflicts_with_all = ["box_shape", "regions"])]
    pub latin: bool,
    /// Jigsaw regions: n² labels, one per cell (a map, or a file holding one).
    #[arg(long, value_name = "MAP_OR_FILE", global = true, conflicts_with = "box_shape")]
    pub regions: Option<String>,
    /// Extra units: x (both main diagonals), hyper (the windows between the boxes). Repeatable.
    #[arg(long = "variant", value_name = "x|hyper", global = true)]
    pub variants: Vec<String>,
    /// A grid definition file (see encodings/).
    #[arg(long, value_name = "FILE", global = true, conflicts_with_all = ["box_shape", "latin", "regions", "variants"])]
    pub grid: Option<PathBuf>,
    /// The symbols of values 1, 2, ... (e.g. 0123456789ABCDEF); then only '.' is empty.
    #[arg(long, value_name = "ALPHABET", global = true)]
    pub symbols: Option<String>,
}

impl GridArgs {
    /// The geometry spec and alphabet these options describe.
    pub fn resolve(&self) -> Result<(GeometrySpec, Alphabet)> {
        let alphabet = match &self.symbols {
            Some(s) => Alphabet::custom(s).map_err(|e| anyhow::anyhow!("--symbols: {e}"))?,
            None => Alphabet::default(),
        };
        let variants = self
            .variants
            .iter()
            .map(|v| {
                Variant::from_name(v).with_context(|| format!("--variant {v}: unknown variant (expected x or hyper)"))
            })
            .collect::<Result<Vec<_>>>()?;
        let spec = if let Some(path) = &self.grid {
            GeometrySpec::fixed(Arc::new(gridfile::load(path)?))
        } else if let Some(map) = &self.regions {
            let text = if Path::new(map).is_file() {
                std::fs::read_to_string(map).with_context(|| format!("--regions: cannot read {map}"))?
            } else {
                map.clone()
            };
            let labels = parse_region_map(&text);
            let n = (1..=labels.len()).find(|n| n * n >= labels.len()).unwrap_or(0);
            if n * n != labels.len() || n == 0 {
                bail!(
                    "--regions: {} labels is not a square number (expected one label per cell of an n×n grid)",
                    labels.len()
                );
            }
            let g = Geometry::new(n, Layout::Regions(labels), &variants).context("--regions")?;
            GeometrySpec::fixed(Arc::new(g))
        } else if let Some(shape) = &self.box_shape {
            let (rows, cols) =
                parse_box_shape(shape).with_context(|| format!("--box {shape}: expected RxC, e.g. 2x3"))?;
            let g = Geometry::new(rows * cols, Layout::Boxes { rows, cols }, &variants)
                .with_context(|| format!("--box {shape}"))?;
            GeometrySpec::fixed(Arc::new(g))
        } else if self.latin {
            GeometrySpec::latin().with_variants(&variants)
        } else {
            GeometrySpec::classic().with_variants(&variants)
        };
        Ok((spec, alphabet))
    }
}

/// The options of the encoding.
#[derive(Args, Debug, Clone, Default)]
pub struct EncodingArgs {
    /// At-most-one encoding: auto, pairwise, sequential or product.
    #[arg(long, value_name = "KIND", default_value = "auto")]
    pub amo: AmoEncoding,
    /// full, reduced (Kwon & Jain), or propagated (singles, probing and subsets first, then reduced).
    #[arg(long, value_name = "KIND", default_value = "propagated")]
    pub encoding: Encoding,
    /// Print variables, clauses and times of each puzzle to stderr.
    #[arg(long)]
    pub stats: bool,
}

impl EncodingArgs {
    pub fn options(&self) -> SolveOptions {
        SolveOptions { encoding: self.encoding, amo: self.amo, ..SolveOptions::default() }
    }
}

/// The output format option.
#[derive(Args, Debug, Clone, Default)]
pub struct FormatArgs {
    /// line, grid or json (JSON Lines). Default: grid on a terminal, else line.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

impl FormatArgs {
    pub fn format(&self) -> Format {
        self.format.unwrap_or_else(|| if io::stdout().is_terminal() { Format::Grid } else { Format::Line })
    }
}

/// What happened over a run, for the exit code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status {
    pub invalid: bool,
    pub unsolvable: bool,
}

impl Status {
    /// Both runs' news together.
    pub fn merge(self, other: Status) -> Status {
        Status { invalid: self.invalid || other.invalid, unsolvable: self.unsolvable || other.unsolvable }
    }

    /// 2 if any input was bad, else 1 if any puzzle had no solution, else 0.
    pub fn code(self) -> u8 {
        if self.invalid {
            2
        } else if self.unsolvable {
            1
        } else {
            0
        }
    }
}

/// One puzzle read from the inputs, numbered across all of them.
pub struct Numbered {
    /// 1-based position among all the puzzles of all inputs.
    pub index: usize,
    pub entry: Entry,
}

/// Read every puzzle of every input in order (stdin for none or `-`), calling
/// `each` on it. An input that cannot be opened is reported and skipped.
pub fn for_each_puzzle(
    files: &[PathBuf],
    grid: &GridArgs,
    status: &mut Status,
    mut each: impl FnMut(&mut Status, Numbered) -> Result<()>,
) -> Result<()> {
    let (mut spec, alphabet) = grid.resolve()?;
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut index = 0;
    let mut progress = Progress::new();
    for path in files {
        let (input, name): (Box<dyn BufRead>, String) = if path.as_os_str() == "-" {
            (Box::new(io::stdin().lock()), "<stdin>".into())
        } else {
            match File::open(path) {
                Ok(f) => (Box::new(BufReader::with_capacity(1 << 16, f)), path.display().to_string()),
                Err(e) => {
                    eprintln!("satdoku: {}: cannot open: {e}", path.display());
                    status.invalid = true;
                    continue;
                }
            }
        };
        for entry in PuzzleReader::new(input, name, &alphabet, &mut spec) {
            index += 1;
            each(status, Numbered { index, entry })?;
            progress.tick(index);
        }
    }
    progress.finish();
    Ok(())
}

/// A count of puzzles on stderr for long runs, only when stderr is a terminal
/// and stdout is not (records on a terminal would mix with it).
struct Progress {
    start: Instant,
    shown: Option<Instant>,
    enabled: bool,
}

impl Progress {
    fn new() -> Progress {
        let enabled = io::stderr().is_terminal() && !io::stdout().is_terminal();
        Progress { start: Instant::now(), shown: None, enabled }
    }

    fn tick(&mut self, puzzles: usize) {
        // Checking the clock on every puzzle would cost more than the puzzle.
        if !self.enabled || puzzles % 64 != 0 {
            return;
        }
        let now = Instant::now();
        let due = match self.shown {
            None => now.duration_since(self.start).as_secs_f64() >= 1.0,
            Some(last) => now.duration_since(last).as_secs_f64() >= 0.25,
        };
        if due {
            let rate = puzzles as f64 / now.duration_since(self.start).as_secs_f64();
            eprint!("\rsatdoku: {puzzles} puzzles read, {rate:.0} a second ");
            self.shown = Some(now);
        }
    }

    fn finish(&self) {
        if self.shown.is_some() {
            eprint!("\r\x1b[K");
        }
    }
}

/// Where records go: buffered stdout, or a buffer a worker thread fills.
pub struct Output {
    out: Sink,
    pub format: Format,
    pub alphabet: Alphabet,
    /// Flush after every record (stdout is a terminal someone reads live).
    eager: bool,
}

enum Sink {
    Stdout(io::BufWriter<io::StdoutLock<'static>>),
    Buffer(Vec<u8>),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(w) => w.write(buf),
            Sink::Buffer(v) => v.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::Buffer(v) => v.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.flush(),
            Sink::Buffer(_) => Ok(()),
        }
    }
}

impl Output {
    pub fn new(format: Format, alphabet: Alphabet) -> Output {
        let out = Sink::Stdout(io::BufWriter::with_capacity(1 << 16, io::stdout().lock()));
        Output { out, format, alphabet, eager: io::stdout().is_terminal() }
    }

    /// Records into memory, for a worker thread; see [`Output::take`].
    pub fn buffer(format: Format, alphabet: Alphabet) -> Output {
        Output { out: Sink::Buffer(Vec::new()), format, alphabet, eager: false }
    }

    /// What a buffer output holds, leaving it empty.
    pub fn take(&mut self) -> Vec<u8> {
        match &mut self.out {
            Sink::Buffer(v) => std::mem::take(v),
            Sink::Stdout(_) => Vec::new(),
        }
    }

    pub fn json(&mut self, record: &impl Serialize) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, record)?;
        self.line("")
    }

    pub fn line(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.write_all(b"\n")?;
        if self.eager {
            self.out.flush()?;
        }
        Ok(())
    }

    pub fn text(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())?;
        if self.eager {
            self.out.flush()?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// How a puzzle is named in messages: `puzzle 3 (file:12)` or `Grid 01 (file:12)`.
pub fn describe(numbered: &Numbered) -> String {
    match &numbered.entry.name {
        Some(name) => format!("puzzle {} \"{name}\" ({})", numbered.index, numbered.entry.position),
        None => format!("puzzle {} ({})", numbered.index, numbered.entry.position),
    }
}

/// `--stats` line for one puzzle.
pub fn print_stats(numbered: &Numbered, geometry: &Geometry, parse: std::time::Duration, stats: &Stats) {
    eprintln!(
        "{}: {}: {} variables, {} clauses; parse {:.3} ms, propagate and encode {:.3} ms, solve {:.3} ms{}",
        describe(numbered),
        geometry.describe(),
        stats.variables,
        stats.clauses,
        parse.as_secs_f64() * 1e3,
        stats.encode.as_secs_f64() * 1e3,
        stats.solve.as_secs_f64() * 1e3,
        match stats.guess {
            Guess::None => "",
            Guess::Found => "; pattern guess: solved",
            Guess::Refuted => "; pattern guess: no solution of that shape",
            Guess::GaveUp => "; pattern guess: given up",
        },
    );
}

/// Whether an error is a closed stdout (`| head`), which ends a run quietly.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|e| e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}
