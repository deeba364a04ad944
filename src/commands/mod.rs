//! The commands, and what they share: the grid options (resolved once), the
//! options of every batch, and enum names for clap.

pub mod analyze;
pub mod batch;
pub mod count;
pub mod decode;
pub mod dimacs;
pub mod explain;
pub mod files;
pub mod generate;
pub mod minimize;
pub mod output;
pub mod progress;
pub mod shell;
pub mod solve;
pub mod streams;

use std::ffi::OsStr;
use std::io;
use std::marker::PhantomData;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;

use satdoku::{
    box_side, load_grid_file, not_utf8_at, parse_box_shape, read_fpuzzles_entries, read_region_map, read_text_file,
    Alphabet, AmoEncoding, Encoding, Entry, Geometry, GeometryError, GeometrySpec, Layout, SolveOptions, Variant,
    DEFAULT_MAX_LITERALS,
};

use files::{Inputs, OutDir};
use output::{ColorChoice, Format, Renderer};

/// A value parser for an enum named by `strum`: its names listed in `--help`
/// and shell completions, and read as `strum` reads them, in any case and
/// with the other names it knows (`--variant nonconsecutive`, `windoku`), as
/// grid files read them.
pub fn names<T: strum::VariantNames + FromStr + Clone + Send + Sync + 'static>() -> impl TypedValueParser<Value = T> {
    StrumNames(PhantomData)
}

#[derive(Clone)]
struct StrumNames<T>(PhantomData<T>);

impl<T: strum::VariantNames + FromStr + Clone + Send + Sync + 'static> TypedValueParser for StrumNames<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<T, clap::Error> {
        if let Some(parsed) = value.to_str().and_then(|name| name.parse::<T>().ok()) {
            return Ok(parsed);
        }
        // Not a name: clap's own error, which lists the names and suggests
        // the nearest.
        PossibleValuesParser::new(T::VARIANTS).parse_ref(cmd, arg, value).and_then(|name| {
            // A listed name always parses; should one not, say so, not panic.
            name.parse::<T>().map_err(|_| clap::Error::raw(clap::error::ErrorKind::InvalidValue, name))
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(T::VARIANTS.iter().map(PossibleValue::new)))
    }
}

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
    /// Global rules: x (both main diagonals), hyper (the windows between the boxes),
    /// anti-knight, anti-king, non-consecutive, disjoint-groups. Repeatable.
    #[arg(long = "variant", value_name = "NAME", global = true, value_parser = names::<Variant>())]
    pub variants: Vec<Variant>,
    /// A grid definition file (see encodings/).
    #[arg(long, value_name = "FILE", global = true, conflicts_with_all = ["box_shape", "latin", "regions", "variants"])]
    pub grid: Option<PathBuf>,
    /// An f-puzzles puzzle: its JSON, the compressed string f-puzzles and
    /// SudokuPad share, or a URL holding one, or a file holding any of these.
    /// Grid, regions, constraints and givens all come from it (no puzzle files).
    #[arg(long, value_name = "TEXT_OR_FILE", global = true,
          conflicts_with_all = ["box_shape", "latin", "regions", "variants", "grid"])]
    pub fpuzzles: Option<String>,
    /// The symbols of values 1, 2, ... (e.g. 0123456789ABCDEF); then only '.' is empty.
    #[arg(long, value_name = "ALPHABET", global = true)]
    pub symbols: Option<String>,
}

impl GridArgs {
    /// The first grid option given, as written on the command line.
    pub fn first_given(&self) -> Option<&'static str> {
        let given = [
            ("--box", self.box_shape.is_some()),
            ("--latin", self.latin),
            ("--regions", self.regions.is_some()),
            ("--variant", !self.variants.is_empty()),
            ("--grid", self.grid.is_some()),
            ("--fpuzzles", self.fpuzzles.is_some()),
            ("--symbols", self.symbols.is_some()),
        ];
        given.into_iter().find_map(|(option, given)| given.then_some(option))
    }
}

/// The grid options resolved: how puzzles are read and what they are played on.
pub struct Setup {
    pub spec: GeometrySpec,
    pub alphabet: Alphabet,
    /// The puzzles `--fpuzzles` gives (each read, or why not), answered
    /// instead of the files'.
    pub input: Option<Vec<Entry>>,
    /// Where stdin sits in a bigger input, when it is one chunk of it.
    pub chunk: Chunk,
}

impl Setup {
    /// The one grid of `--fpuzzles`, for the commands that take a grid
    /// rather than puzzles (`generate`, `decode`): an error when it holds
    /// no puzzle that reads, or several.
    pub fn one_fpuzzles_grid(&self) -> Result<()> {
        match self.input.as_deref() {
            None => Ok(()),
            Some([entry]) => match &entry.puzzle {
                Ok(_) => Ok(()),
                Err(e) => Err(anyhow::anyhow!("{e}")),
            },
            Some(entries) => bail!("--fpuzzles: {} puzzles, where this command takes one grid", entries.len()),
        }
    }

    /// A `--symbols` alphabet too short for a grid of side `n` is an error,
    /// for the commands that print grids they did not read (`generate`,
    /// `decode`); the reader says so of every puzzle it reads.
    pub fn check_alphabet(&self, n: usize) -> Result<()> {
        self.alphabet.check_side(n).map_err(|kind| anyhow::anyhow!("{kind}"))
    }
}

/// `--stdin-name`, `--first-line`, `--first-index`: stdin as one chunk of a
/// bigger file (GNU parallel `--pipe`, a cluster's pipe operator), so that
/// records name the file, line and index they would in one run over it.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// The name stdin's records carry in `source`.
    pub stdin_name: String,
    /// Lines before stdin's first line.
    pub lines_before: usize,
    /// Puzzles before the first one read.
    pub puzzles_before: usize,
}

impl Default for Chunk {
    fn default() -> Chunk {
        Chunk { stdin_name: "<stdin>".into(), lines_before: 0, puzzles_before: 0 }
    }
}

impl GridArgs {
    /// Read the grid definition files and build the geometry these options
    /// describe: once per run.
    pub fn resolve(&self) -> Result<Setup> {
        let alphabet = match &self.symbols {
            Some(s) => Alphabet::custom(s).map_err(|e| anyhow::anyhow!("--symbols: {e}"))?,
            None => Alphabet::default(),
        };
        let variants = &self.variants;
        if let Some(source) = &self.fpuzzles {
            // A puzzle is JSON, lz-string base64 (no `.`) or a link: a name
            // whose last part ends in an extension (`p.json`, `dir/p.fp`),
            // with none of a link's marks, is a file's.
            let extension = source.rsplit('/').next().and_then(|last| last.rsplit_once('.')).map(|(_, ext)| ext);
            let names_a_file = extension
                .is_some_and(|ext| (1..=8).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric()))
                && !source.contains(['?', '=', '{', ':'])
                && !source.contains(char::is_whitespace);
            let (text, name) = match named_text("--fpuzzles", source)? {
                Some(text) => (text, source.as_str()),
                None if names_a_file => bail!(
                    "--fpuzzles {source}: no such file (an f-puzzles puzzle is JSON, lz-string base64 or an f-puzzles URL; a file must exist)"
                ),
                None => (source.clone(), "--fpuzzles"),
            };
            let entries = read_fpuzzles_entries(&text, name);
            // The first puzzle's grid, for the commands that take one grid.
            let spec = match entries.iter().find_map(|e| e.puzzle.as_ref().ok()) {
                Some(puzzle) => GeometrySpec::fixed(Arc::clone(puzzle.geometry())),
                None => GeometrySpec::classic(),
            };
            let spec = spec.fixed_by("--fpuzzles");
            return Ok(Setup { spec, alphabet, input: Some(entries), chunk: Chunk::default() });
        }
        let spec = if let Some(path) = &self.grid {
            let geometry = match load_grid_file(path) {
                // A file it cannot open or read, named as the option's.
                Err(satdoku::GridFileError::Io { path, message }) => bail!("--grid {path}: cannot read: {message}"),
                geometry => geometry?,
            };
            GeometrySpec::fixed(Arc::new(geometry)).fixed_by(format!("--grid {}", path.display()))
        } else if let Some(map) = &self.regions {
            let path = Path::new(map);
            // A map, or a file holding one: what names a file must be one.
            let names_a_file = map.contains(['/', '\\'])
                || [".txt", ".map", ".regions", ".toml", ".csv"].iter().any(|ext| map.ends_with(ext));
            // A map of the largest grid, at most 1024² labels of four
            // characters and a space, fits well within a line's limit.
            let named = named_text("--regions", map)?;
            let from_file = named.is_some();
            let text = if let Some(text) = named {
                if text.len() > satdoku::MAX_LINE {
                    bail!(
                        "--regions {map}: {} bytes, more than any map holds (one of the largest grid, 1024x1024, fits in {} MiB)",
                        text.len(),
                        satdoku::MAX_LINE >> 20
                    );
                }
                text
            } else if names_a_file && !map.contains(char::is_whitespace) {
                bail!("--regions {map}: no such file (a map is n² labels, a file must exist)")
            } else {
                map.clone()
            };
            // Said where, as puzzle files are: `map.txt:2:6: …`, or the column of the argument.
            let labels = read_region_map(&text, None).map_err(|e| {
                let place = match (e.at, from_file) {
                    (None, true) => format!("--regions {map}"),
                    (None, false) => "--regions".to_string(),
                    (Some(at), true) => format!("--regions {map}:{}:{}", at.line, at.column),
                    (Some(at), false) if at.line == 1 => format!("--regions column {}", at.column),
                    (Some(at), false) => format!("--regions line {}, column {}", at.line, at.column),
                };
                // A short word that is no map may be a file's name mistyped.
                let no_file = match !path.exists() && map.chars().count() < 16 {
                    true => format!(" (nor is there a file named {map})"),
                    false => String::new(),
                };
                anyhow::anyhow!("{place}: {e}{no_file}")
            })?;
            let n = (1..=labels.len()).find(|n| n * n >= labels.len()).unwrap_or(0);
            let g = Geometry::new(n, Layout::Regions(labels), variants).context("--regions")?;
            let source = if from_file { format!("--regions {map}") } else { "--regions".to_string() };
            GeometrySpec::fixed(Arc::new(g)).fixed_by(source)
        } else if let Some(shape) = &self.box_shape {
            let Some((rows, cols)) = parse_box_shape(shape) else {
                // Digits either side that make no number: too many of them.
                let digits = |s: &str| !s.trim().is_empty() && s.trim().bytes().all(|b| b.is_ascii_digit());
                match shape.split_once(['x', 'X', '*', '×']) {
                    Some((r, c)) if digits(r) && digits(c) => {
                        bail!("--box {shape}: too large (a grid's side, R times C, is at most {})", satdoku::MAX_SIZE)
                    }
                    _ => bail!("--box {shape}: expected RxC, e.g. 2x3"),
                }
            };
            let n = box_side(rows, cols).with_context(|| format!("--box {shape}"))?;
            let g =
                Geometry::new(n, Layout::Boxes { rows, cols }, variants).with_context(|| format!("--box {shape}"))?;
            GeometrySpec::fixed(Arc::new(g)).fixed_by(format!("--box {shape}"))
        } else if self.latin {
            // At any size: a usage error once, not an invalid record per puzzle.
            if variants.contains(&Variant::DisjointGroups) {
                bail!("--latin --variant disjoint-groups: {}", GeometryError::DisjointGroups);
            }
            GeometrySpec::latin().with_variants(variants)
        } else {
            GeometrySpec::classic().with_variants(variants)
        };
        Ok(Setup { spec, alphabet, input: None, chunk: Chunk::default() })
    }
}

/// The options of the encoding.
#[derive(Args, Debug, Clone)]
pub struct EncodingArgs {
    /// At-most-one encoding: auto, pairwise, sequential or product.
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = names::<AmoEncoding>())]
    pub amo: AmoEncoding,
    /// full, reduced (Kwon & Jain), or propagated (singles, probing and subsets first, then reduced).
    #[arg(long, value_name = "KIND", default_value = "propagated", value_parser = names::<Encoding>())]
    pub encoding: Encoding,
    /// Print variables, clauses and times of each puzzle to stderr.
    #[arg(long)]
    pub stats: bool,
    /// Refuse a CNF of more than N literals (all clauses together): the
    /// memory it takes (about 20 bytes a literal in varisat).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_LITERALS, value_parser = whole::<u64>("a number of literals", 0..=u64::MAX, ""), allow_negative_numbers = true)]
    pub max_literals: u64,
}

impl EncodingArgs {
    /// The pipeline's options, with the batch's time limit.
    pub fn options(&self, batch: &BatchArgs) -> SolveOptions {
        SolveOptions {
            encoding: self.encoding,
            amo: self.amo,
            timeout: batch.timeout,
            max_literals: self.max_literals,
            ..SolveOptions::default()
        }
    }
}

/// The options of every command that answers puzzles from files.
#[derive(Args, Debug, Clone)]
pub struct BatchArgs {
    /// Puzzle files (stdin when none or "-").
    pub files: Vec<PathBuf>,
    /// line, grid, json (JSON Lines), fpuzzles (f-puzzles and SudokuPad strings) or svg (pictures). Default: grid on a terminal, else line.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// With --format svg: write one picture per puzzle (per solution, per
    /// step) into DIR, as puzzle-0001.svg, ..., instead of to stdout.
    #[arg(long, value_name = "DIR", requires = "format")]
    pub out_dir: Option<PathBuf>,
    /// Colour in the grid format and messages: auto (on a terminal, unless
    /// NO_COLOR is set), always or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Answer with N threads; 0 or none: every core. More than the cores
    /// is capped at the cores (the work is the CPU's). Records stay in input
    /// order, stderr too.
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// Give up on a puzzle after SECS seconds, from the start of its
    /// propagation: it gets an `error` record, and the batch goes on.
    #[arg(long, value_name = "SECS", value_parser = parse_timeout, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// The name stdin goes by in records' `source` (default <stdin>): the
    /// file that a chunk on stdin was cut from (GNU parallel --pipe).
    #[arg(long, value_name = "NAME", help_heading = "Chunks of a bigger input")]
    pub stdin_name: Option<String>,
    /// The line number of stdin's first line in that file (default 1; at most 2^52, so that what follows stays exact in JSON readers).
    #[arg(long, value_name = "N", value_parser = whole::<u64>("a line number", 1..=MAX_START, ""), allow_negative_numbers = true, help_heading = "Chunks of a bigger input")]
    pub first_line: Option<u64>,
    /// The index of the first puzzle read (default 1; at most 2^52).
    #[arg(long, value_name = "N", value_parser = whole::<u64>("an index", 1..=MAX_START, ""), allow_negative_numbers = true, help_heading = "Chunks of a bigger input")]
    pub first_index: Option<u64>,
}

/// The directory an option names, made with its parents if it is not there;
/// a file of that name is "not a directory" (create_dir_all said "File exists").
pub fn create_dir(option: &str, dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("{option} {}: not a directory", dir.display());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("{option} {}: cannot create it", dir.display()))
}

/// `--out-dir DIR` of a command writing `format`: pictures only, the
/// directory made if it is not there, and none of the `inputs` written over.
pub fn out_dir(dir: Option<&Path>, format: Format, inputs: &Inputs) -> Result<Option<OutDir>> {
    match dir {
        Some(dir) if format != Format::Svg => {
            bail!("--out-dir {}: only pictures go to files (--format svg)", dir.display())
        }
        Some(dir) => Ok(Some(OutDir::create("--out-dir", dir, inputs)?)),
        None => Ok(None),
    }
}

/// How a command's records are rendered, from its `--format` (grid on a
/// terminal, else line), `--out-dir` (pictures only, none of them one of
/// the `inputs`) and `--color`.
pub fn renderer(
    format: Option<Format>,
    dir: Option<&Path>,
    color: ColorChoice,
    setup: &Setup,
    inputs: &Inputs,
) -> Result<Renderer> {
    let format = format.unwrap_or_else(|| {
        if std::io::IsTerminal::is_terminal(&io::stdout()) {
            Format::Grid
        } else {
            Format::Line
        }
    });
    let out_dir = out_dir(dir, format, inputs)?;
    let err_palette = color.palette(&io::stderr());
    progress::color_bars(err_palette);
    Ok(Renderer {
        format,
        alphabet: setup.alphabet.clone(),
        palette: color.palette(&io::stdout()).for_format(format),
        err_palette,
        out_dir,
    })
}

/// The largest `--first-line` and `--first-index`: 2^52, so that the line
/// numbers and indexes that follow neither wrap around (they did near
/// 2^64) nor lose digits in the JSON readers of JavaScript and jq, which
/// hold integers exactly up to 2^53: that leaves room for 2^52 more
/// records, a thousand years of them at 7 µs a puzzle. (A start of 2^53
/// gave the second record an index those readers took for the first's.)
const MAX_START: u64 = 1 << 52;

impl BatchArgs {
    /// The grid options resolved for a batch, with where stdin sits in a
    /// bigger input (`--stdin-name`, `--first-line`, `--first-index`): every
    /// command that reads puzzles starts here.
    pub fn setup(&self, grid: &GridArgs) -> Result<Setup> {
        // They place stdin in a bigger input: without it they would be ignored.
        let stdin = batch::reads_stdin(&self.files);
        let option = [("--stdin-name", self.stdin_name.is_some()), ("--first-line", self.first_line.is_some())]
            .into_iter()
            .find_map(|(option, given)| given.then_some(option));
        if let (Some(option), false) = (option, stdin) {
            bail!("{option} places stdin in a bigger input, but no puzzles are read from stdin here (give - among the files for stdin)");
        }
        let mut setup = grid.resolve()?;
        setup.chunk = Chunk {
            stdin_name: self.stdin_name.clone().unwrap_or_else(|| "<stdin>".into()),
            lines_before: self.first_line.map_or(0, |n| n as usize - 1),
            puzzles_before: self.first_index.map_or(0, |n| n as usize - 1),
        };
        Ok(setup)
    }

    /// How records are rendered; pictures go to files in `--out-dir`, none
    /// of them one of the `inputs`.
    pub fn renderer(&self, setup: &Setup, inputs: &Inputs) -> Result<Renderer> {
        renderer(self.format, self.out_dir.as_deref(), self.color, setup, inputs)
    }

    /// The threads to answer with: as asked, at most one per core.
    pub fn jobs(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        match self.jobs {
            None | Some(0) => cores,
            Some(jobs) => jobs.min(cores),
        }
    }

    /// The message of a puzzle that ran out of `--timeout`.
    pub fn timed_out(&self) -> String {
        let seconds = self.timeout.map_or(0.0, |t| t.as_secs_f64());
        format!("no answer within {seconds} s (--timeout)")
    }
}

/// `--proof FILE` and `--proof-dir DIR`: DRAT proofs of every claim that no
/// (further) solution exists.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Proofs")]
pub struct ProofArgs {
    /// Write a DRAT proof of the answer (unsolvable, unique, the exact count,
    /// the candidates ruled out) to FILE, and the CNF it refutes to FILE with
    /// the extension .cnf: check it with `drat-trim FILE.cnf FILE`. One puzzle.
    #[arg(long, value_name = "FILE", conflicts_with = "proof_dir")]
    pub proof: Option<PathBuf>,
    /// Write DIR/puzzle-0001.drat and DIR/puzzle-0001.cnf, … for every puzzle
    /// whose answer makes such a claim.
    #[arg(long, value_name = "DIR")]
    pub proof_dir: Option<PathBuf>,
}

impl ProofArgs {
    /// Check the paths once, before any puzzle: a FILE that is not its own
    /// CNF, neither of them one of the `inputs`, a DIR created if missing.
    pub fn prepare(&self, inputs: &Inputs) -> Result<Proofs> {
        if let Some(file) = &self.proof {
            if file.with_extension("cnf") == *file {
                bail!("--proof {}: the CNF goes to FILE with the extension .cnf; name the proof otherwise (e.g. proof.drat)", file.display());
            }
            let cnf = file.with_extension("cnf");
            inputs.refuse("--proof", file)?;
            inputs.refuse("--proof (its CNF)", &cnf)?;
            files::refuse_no_file("--proof", file)?;
            files::refuse_no_file("--proof (its CNF)", &cnf)?;
            // Said now, naming the user's path, not after solving, per puzzle.
            for path in [file, &cnf] {
                files::check_writable(path).map_err(|e| anyhow::anyhow!("--proof {e}"))?;
            }
        }
        let dir = match &self.proof_dir {
            Some(dir) => Some(OutDir::create("--proof-dir", dir, inputs)?),
            None => None,
        };
        Ok(Proofs { file: self.proof.clone(), dir, inputs: inputs.clone() })
    }
}

/// The solutions a claim of "exactly these" blocks (an exact count, the
/// end of `solve --all`), kept while their blocking clauses, a literal a
/// cell each, stay within `--max-literals`: past it the proof is refused,
/// and they are let go as the search goes on (the 28 million grids of a
/// blank 6×6 took 3.4 GB).
pub struct Blocked {
    grids: Option<Vec<satdoku::Grid>>,
    count: u64,
    cells: u64,
    limit: u64,
}

impl Blocked {
    pub fn new(puzzle: &satdoku::Puzzle, options: &SolveOptions) -> Blocked {
        let cells = puzzle.geometry().cell_count() as u64;
        Blocked { grids: Some(Vec::new()), count: 0, cells, limit: options.max_literals }
    }

    /// One more solution.
    pub fn push(&mut self, grid: &satdoku::Grid) {
        self.count += 1;
        if self.count.saturating_mul(self.cells) > self.limit {
            self.grids = None;
        }
        if let Some(grids) = &mut self.grids {
            grids.push(grid.clone());
        }
    }

    /// The claim that there are no others, or why it has no proof.
    pub fn claim(self) -> std::result::Result<satdoku::Claim, String> {
        match self.grids {
            Some(grids) => Ok(satdoku::Claim::Only(grids)),
            None => Err(format!(
                "no proof: too large: its claim alone, a clause of {} literals blocking each of the {} solutions, would have {} literals, past the limit of {} (--max-literals)",
                self.cells,
                self.count,
                self.count.saturating_mul(self.cells),
                self.limit
            )),
        }
    }
}

/// Where the proofs go, the paths checked ([`ProofArgs::prepare`]).
pub struct Proofs {
    file: Option<PathBuf>,
    dir: Option<OutDir>,
    inputs: Inputs,
}

impl Proofs {
    /// Whether proofs are asked for.
    pub fn wanted(&self) -> bool {
        self.file.is_some() || self.dir.is_some()
    }

    /// Prove `claim` for the puzzle of `numbered` and write the proof and its
    /// CNF, each whole and neither over an input file: the path of the
    /// proof, or why there is none.
    pub fn write(
        &self,
        numbered: &batch::Numbered,
        puzzle: &satdoku::Puzzle,
        claim: satdoku::Claim,
        options: &SolveOptions,
    ) -> std::result::Result<String, String> {
        let (option, path) = match (&self.file, &self.dir) {
            (Some(file), _) if numbered.index == 1 => ("--proof", file.clone()),
            (Some(_), _) => {
                return Err("--proof FILE holds the proof of one puzzle: use --proof-dir DIR for several".into())
            }
            (None, Some(dir)) => ("--proof-dir", dir.join(&format!("puzzle-{:04}.drat", numbered.index))),
            (None, None) => return Err("no proof asked for".into()),
        };
        // Refused before the work of proving: in a --proof-dir, a name may
        // be taken by a link to /dev/stdout or a directory.
        let cnf = path.with_extension("cnf");
        for path in [&cnf, &path] {
            self.inputs.refuse(option, path).map_err(|e| e.to_string())?;
            files::refuse_no_file(option, path).map_err(|e| e.to_string())?;
        }
        // The proof's own --timeout, from its start, bounds every step of it,
        // writing the files too.
        let start = std::time::Instant::now();
        let deadline = options.timeout.and_then(|timeout| start.checked_add(timeout));
        let timed_out = || "no proof within --timeout".to_string();
        let certificate = satdoku::prove(puzzle, claim, options, start).map_err(|e| match e {
            satdoku::SolveError::TimedOut => timed_out(),
            // The claim is satdoku's own answer: if it does not hold, satdoku is wrong.
            satdoku::SolveError::Mismatch(why) => format!("no proof: {}", satdoku::InternalError(why)),
            e => format!("no proof: {e}"),
        })?;
        let staged = files::stage(option, &cnf, &self.inputs, |out| {
            certificate.write_cnf(&mut files::Deadlined::new(out, deadline))
        })
        .and_then(|cnf| {
            let drat = files::stage(option, &path, &self.inputs, |out| {
                io::Write::write_all(&mut files::Deadlined::new(out, deadline), &certificate.drat)
            })?;
            Ok([cnf, drat])
        });
        // Both named at once: a signal never leaves a proof beside another run's CNF.
        staged.and_then(|staged| files::commit(staged.into())).map_err(|e| match e.timed_out() {
            true => timed_out(),
            false => e.to_string(),
        })?;
        Ok(path.display().to_string())
    }
}

/// The text of what `arg`, the value of `option`, names, if anything by
/// that name exists (`None` if not: the value is the text itself): a file,
/// a pipe (`<(…)`) or a device (`/dev/stdin`), read whole, UTF-8 or UTF-16
/// with its byte-order mark, up to [`satdoku::MAX_TEXT_FILE`] bytes. A
/// directory, or a byte that is no UTF-8 (named with its line and column),
/// is an error.
fn named_text(option: &str, arg: &str) -> Result<Option<String>> {
    let path = Path::new(arg);
    let Ok(meta) = std::fs::metadata(path) else { return Ok(None) };
    if meta.is_dir() {
        bail!("{option} {arg}: a directory, not a file");
    }
    let bytes = read_text_file(path).with_context(|| format!("{option} {arg}: cannot read it"))?;
    String::from_utf8(bytes).map(Some).map_err(|e| {
        let (line, column, byte) = not_utf8_at(&e);
        anyhow::anyhow!("{option} {arg}:{line}:{column}: byte 0x{byte:02x} is not UTF-8 (expected text)")
    })
}

/// Every file a command reads: its puzzle `files` (stdin, `-`, when there
/// are none) and the files the grid options name (`--grid`, and `--regions`
/// or `--fpuzzles` when they name a file): what no output may overwrite.
pub fn inputs(files: &[PathBuf], grid: &GridArgs) -> Inputs {
    // `--fpuzzles` holds its puzzle: stdin is then not read.
    let stdin = (files.is_empty() && grid.fpuzzles.is_none()).then(|| PathBuf::from("-"));
    let named = [grid.regions.as_ref(), grid.fpuzzles.as_ref()].into_iter().flatten().map(PathBuf::from);
    let named = named.filter(|path| path.is_file());
    let paths: Vec<PathBuf> = files.iter().cloned().chain(stdin).chain(grid.grid.clone()).chain(named).collect();
    Inputs::new(&paths)
}

/// Parse a `--max N`: a count of at least 1.
pub fn parse_max(text: &str) -> Result<u64, String> {
    match parse_limit(text, "1 or more")? {
        0 => Err("0 would count nothing: give at least 1".into()),
        n => Ok(n),
    }
}

/// Parse `analyze --max N`: a number of solutions, 0 or more.
pub fn parse_count_limit(text: &str) -> Result<u64, String> {
    parse_limit(text, "0 or more")
}

/// A number of solutions to stop at. One past any a count reaches (2^64 − 2
/// and up, however many digits) is that: `u64::MAX` itself means no limit
/// at all to a [`crate::enumerate::Search`], which refuses to count a grid
/// whose renamings alone outnumber it.
fn parse_limit(text: &str, expected: &str) -> Result<u64, String> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(n) => Ok(n.min(u64::MAX - 1)),
        Err(_) if digits => Ok(u64::MAX - 1),
        Err(_) => Err(format!("'{text}' is not a number of solutions (expected {expected})")),
    }
}

/// Parse `--jobs N`: a number of threads, 0 for every core.
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    whole("a number of threads", 0..=u64::MAX, "; 0: every core")(text)
}

/// The value parser of an option taking a whole number of `what` within
/// `range`, whose errors say what is wrong and what is expected (clap's own
/// say "invalid digit found in string" of `-1`, and nothing of the range):
/// `'-1' is not a seed (expected 0 or more)`. `what` names the number with
/// its article; `note` follows the range in the message. (The options take
/// negative numbers as values, `allow_negative_numbers`, so that `-1`
/// reaches this check.)
pub fn whole<T: TryFrom<u64>>(
    what: &'static str,
    range: RangeInclusive<u64>,
    note: &'static str,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text| {
        let expected = match (*range.start(), *range.end()) {
            (lo, u64::MAX) => format!("{lo} or more"),
            (lo, hi) => format!("{lo} to {hi}"),
        };
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        match text.parse::<u64>() {
            Ok(n) if range.contains(&n) => T::try_from(n).map_err(|_| format!("'{text}' is too large for {what}")),
            Ok(n) if n < *range.start() => Err(format!("'{text}' is too small for {what} (expected {expected}{note})")),
            Ok(_) => Err(format!("'{text}' is too large for {what} (expected {expected}{note})")),
            Err(_) if digits => Err(format!("'{text}' is too large for {what}")),
            Err(_) => Err(format!("'{text}' is not {what} (expected {expected}{note})")),
        }
    }
}

/// Parse `--timeout SECS`: a positive number of seconds.
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 => match Duration::try_from_secs_f64(s) {
            // Below a nanosecond a duration is 0: "no answer within 0 s".
            Ok(d) if d.is_zero() => Err(format!("'{text}' seconds is less than a nanosecond")),
            Ok(d) => Ok(d),
            Err(_) => Err(format!("'{text}' seconds is more than a duration can hold")),
        },
        _ => Err(format!("'{text}' is not a positive number of seconds")),
    }
}

/// The guard of `mutex`, taken within `wait`, or none past it: a signal's
/// exit must not wait on a writer stuck on a pipe nobody reads. A thread
/// that panicked holding it left what it guards as usable as ever.
pub fn lock_within<T>(mutex: &Mutex<T>, wait: Duration) -> Option<MutexGuard<'_, T>> {
    let start = std::time::Instant::now();
    loop {
        match mutex.try_lock() {
            Ok(guard) => return Some(guard),
            Err(TryLockError::Poisoned(e)) => return Some(e.into_inner()),
            Err(TryLockError::WouldBlock) if start.elapsed() < wait => std::thread::sleep(Duration::from_millis(1)),
            Err(TryLockError::WouldBlock) => return None,
        }
    }
}

/// Whether an error is a closed stdout (`| head`), which ends a run
/// quietly, or a closed pipe written as a file (`--out /dev/stdout | head`).
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    let broken = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
    error.chain().any(|e| {
        e.downcast_ref::<io::Error>().is_some_and(broken)
            || matches!(e.downcast_ref::<files::WriteError>(), Some(files::WriteError::Io { error, .. }) if broken(error))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_refused_with_what_they_are_and_the_range() {
        let tries = whole::<usize>("a number of tries", 1..=u64::MAX, "");
        assert_eq!(tries("12"), Ok(12));
        assert_eq!(tries("0"), Err("'0' is too small for a number of tries (expected 1 or more)".into()));
        assert_eq!(tries("-1"), Err("'-1' is not a number of tries (expected 1 or more)".into()));
        assert_eq!(tries(""), Err("'' is not a number of tries (expected 1 or more)".into()));
        assert_eq!(tries("+3"), Ok(3));
        let seed = whole::<u64>("a seed", 0..=10, "; note");
        assert_eq!(seed("10"), Ok(10));
        assert_eq!(seed("11"), Err("'11' is too large for a seed (expected 0 to 10; note)".into()));
        assert_eq!(seed("99999999999999999999"), Err("'99999999999999999999' is too large for a seed".into()));
    }

    #[test]
    fn timeouts_are_positive_durations() {
        assert_eq!(parse_timeout("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_timeout("0").is_err());
        assert!(parse_timeout("soon").is_err());
        assert!(parse_timeout("1e30").is_err());
        assert!(parse_timeout("inf").is_err());
        assert!(parse_timeout("NaN").is_err());
        assert_eq!(parse_timeout("1e-10"), Err("'1e-10' seconds is less than a nanosecond".into()));
        assert_eq!(parse_timeout("1e-9"), Ok(Duration::from_nanos(1)));
    }
}
