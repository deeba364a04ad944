//! `satdoku analyze`: the cells fixed in every solution, the exact candidates of the rest, or what propagation alone derives.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use strum::VariantNames;

use satdoku::{
    analyze, candidate_counts, propagation, residual, steps, Alphabet, AnalyzeOptions, Cell, Claim, Deduction, Domains,
    Geometry, Grid, Level, Puzzle, SolveError, SolveOptions, Step, StepText, Stepped, UniquenessChecker, Verdict,
    ViolationText,
};

use super::batch::{run, Numbered};
use super::minimize::{confirm_unique, with_checker};
use super::output::{Body, Emitter, Format, Record, Snapshot, Status, StepLine};
use super::solve::failure;
use super::{BatchArgs, EncodingArgs, GridArgs, ProofArgs};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Count solutions up to N (0: only say unique or multiple).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = super::parse_count_limit, allow_negative_numbers = true)]
    pub max: u64,
    /// Show only what propagation derives from the givens (no search): the
    /// residual candidates. LEVEL: singles (unit propagation), subsets
    /// (singles, locked candidates, naked and hidden subsets: all_distinct;
    /// the default) or probe (subsets and failed-literal probing). Given
    /// bare before a file (`--propagate FILE`), the level is subsets and the
    /// file is read.
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, default_missing_value = "subsets",
          value_parser = level_or_file)]
    pub propagate: Option<LevelOrFile>,
    /// Print the deductions of propagation (at --propagate's level, subsets
    /// by default) in order, each with what it removes, up to the solved grid
    /// or the point where search is needed.
    #[arg(long)]
    pub steps: bool,
    /// With --steps --format grid: the candidate grid after every round (a
    /// stronger step and the singles that follow it) or only at the end.
    // `conflicts_with_all`: what --steps conflicts with, spelled out, since
    // clap lets `requires` pass when one of those is given (clap-rs/clap#4520).
    #[arg(long, value_name = "WHEN", default_value = "end", value_parser = ["round", "end"], requires = "steps",
          conflicts_with_all = ["counts", "redundant"])]
    pub show_candidates: String,
    /// For each open cell and candidate, how many solutions hold it (each
    /// counted up to --max): which value would make the puzzle unique.
    #[arg(long, conflicts_with_all = ["propagate", "steps"])]
    pub counts: bool,
    #[command(flatten)]
    pub proofs: ProofArgs,
    /// Also list the redundant givens of a unique puzzle: each may be removed
    /// alone and the puzzle stays unique (JSON "redundant", cells as r1c2).
    #[arg(long, conflicts_with_all = ["propagate", "steps"])]
    pub redundant: bool,
}

/// The value after `--propagate`: its optional LEVEL takes the next word,
/// so a bare `--propagate` before a file takes the file's name; that name is
/// the first file then, at the default level.
#[derive(Clone, Debug)]
pub enum LevelOrFile {
    Level(Level),
    File(PathBuf),
}

/// Parse `--propagate`'s value: a level, or an existing file (a word that is
/// neither is refused with the levels, as a mistyped level would be).
fn level_or_file(word: &str) -> Result<LevelOrFile, String> {
    match word.parse::<Level>() {
        Ok(level) => Ok(LevelOrFile::Level(level)),
        Err(_) if word == "-" || Path::new(word).exists() => Ok(LevelOrFile::File(PathBuf::from(word))),
        Err(_) => Err(format!("'{word}' is not one of {:?} (nor a file to read)", Level::VARIANTS)),
    }
}

impl AnalyzeArgs {
    /// The level of `--propagate` (or of `--steps` alone), when either is given.
    fn propagate_level(&self) -> Option<Level> {
        match &self.propagate {
            Some(LevelOrFile::Level(level)) => Some(*level),
            Some(LevelOrFile::File(_)) => Some(Level::default()),
            None => self.steps.then(Level::default),
        }
    }

    /// The input files: a file `--propagate` took for its level comes first.
    fn files(&self) -> Vec<PathBuf> {
        let taken = match &self.propagate {
            Some(LevelOrFile::File(file)) => Some(file.clone()),
            _ => None,
        };
        taken.into_iter().chain(self.batch.files.iter().cloned()).collect()
    }
}

pub fn run_analyze(args: &AnalyzeArgs, grid: &GridArgs) -> Result<u8> {
    let mut setup = args.batch.setup(grid)?;
    let inputs = super::inputs(&args.files(), grid);
    let renderer = args.batch.renderer(&setup, &inputs)?;
    let options = AnalyzeOptions { solve: args.encoding.options(&args.batch), count_limit: args.max };
    let proofs = args.proofs.prepare(&inputs)?;
    let summary = run(&args.files(), &mut setup, renderer, args.batch.jobs(), |numbered, out| {
        let puzzle = match &numbered.entry.puzzle {
            Ok(p) => p,
            Err(e) => return out.emit(Record::failed(numbered, Status::Invalid, e)),
        };
        if let Some(level) = args.propagate_level() {
            let deadline = args.batch.timeout.and_then(|t| Instant::now().checked_add(t));
            let rounds = args.show_candidates == "round";
            let record = propagate_one(&args.batch, numbered, puzzle, (level, deadline), (args.steps, rounds), out);
            // What it claims, proved as without `--propagate`: the candidates
            // it ruled out, or that there is no solution.
            let claim = match &record.body {
                _ if !proofs.wanted() || record.status == Status::Error => None,
                Body::Analysis { domains: Some(domains), .. } => ruled_out(puzzle, domains),
                _ => (record.status == Status::Unsolvable).then_some(Claim::Unsolvable),
            };
            let record = match claim {
                Some(claim) => record.proved(|| proofs.write(numbered, puzzle, claim, &options.solve)),
                None => record,
            };
            return out.emit(record);
        }
        let start = Instant::now();
        // The whole puzzle's limit: the redundant givens come out of it too.
        let deadline = args.batch.timeout.and_then(|t| start.checked_add(t));
        // --redundant takes the blank grid's whole formula, whatever
        // propagation leaves of the puzzle's: refused first.
        if args.redundant {
            let limit = options.solve.max_literals;
            if let Err(e) = UniquenessChecker::check_size(puzzle.geometry(), limit, deadline) {
                return out.emit(failure(&args.batch, numbered, e));
            }
        }
        let analysis = match analyze(puzzle, &options) {
            Ok(a) => a,
            Err(e) => return out.emit(failure(&args.batch, numbered, e)),
        };
        if args.encoding.stats {
            let s = analysis.stats;
            out.note(&format!(
                "{}: {}: {} variables, {} clauses; {} models, {} pairs refuted; {:.3} ms",
                numbered.describe(),
                puzzle.geometry().describe(),
                s.variables,
                s.clauses,
                s.models,
                s.refuted,
                start.elapsed().as_secs_f64() * 1e3
            ))?;
        }
        let (record, claim) = match (analysis.candidates, analysis.verdict) {
            (Some(domains), verdict) if verdict != Verdict::Unsolvable => {
                let status = if verdict == Verdict::Unique { Status::Unique } else { Status::Multiple };
                let claim = ruled_out(puzzle, &domains);
                // A given of a pencil-mark puzzle is a cell with one candidate:
                // removing it alone means nothing, so say so rather than guess.
                if args.redundant && puzzle.candidates().is_some() {
                    let error = "pencil marks: --redundant removes givens of puzzles without candidate lists";
                    return out.emit(Record::failed(numbered, Status::Error, error));
                }
                let alphabet = &out.renderer.alphabet;
                let residual = (verdict == Verdict::Multiple).then(|| {
                    let links = residual(puzzle.geometry(), &domains);
                    links.iter().map(|l| l.describe(puzzle.geometry(), &domains, alphabet)).collect()
                });
                let counts = match args.counts {
                    false => None,
                    true => match candidate_counts(puzzle, &domains, args.max.max(1), &options.solve) {
                        Ok(counts) => Some(counts),
                        Err(e) => return out.emit(failure(&args.batch, numbered, e)),
                    },
                };
                let redundant = match (args.redundant, verdict) {
                    (true, Verdict::Unique) => {
                        match redundant_givens(puzzle, &domains.decided(), &options.solve, deadline) {
                            Ok(cells) => Some(cells),
                            Err(e) => return out.emit(failure(&args.batch, numbered, e)),
                        }
                    }
                    _ => None,
                };
                let body = Body::Analysis {
                    domains: Some(domains),
                    count: Some(analysis.count),
                    steps: None,
                    counts,
                    residual,
                };
                (Record { redundant, ..Record::new(numbered, status) }.with_body(body), claim)
            }
            _ => {
                let body = Body::Analysis {
                    domains: None,
                    count: Some(analysis.count),
                    steps: None,
                    counts: None,
                    residual: None,
                };
                (
                    Record::unsolvable(numbered, analysis.reason.as_ref(), &out.renderer.alphabet).with_body(body),
                    Some(Claim::Unsolvable),
                )
            }
        };
        let record = match claim.filter(|_| proofs.wanted()) {
            Some(claim) => record.proved(|| proofs.write(numbered, puzzle, claim, &options.solve)),
            None => record,
        };
        out.emit(record)
    })?;
    Ok(summary.code())
}

/// What a proof of `domains` covers: every candidate ruled out, when some is.
fn ruled_out(puzzle: &Puzzle, domains: &Domains) -> Option<Claim> {
    let n = puzzle.size();
    let some = puzzle.geometry().cells().any(|c| domains.count(c) < n);
    some.then(|| Claim::Within(domains.clone()))
}

/// The givens of a unique puzzle that may each go alone, named `r1c2`: one
/// incremental solver, each question the other givens as assumptions, all
/// of them answered by `deadline`. Each answer is checked another way, as
/// `minimize` checks the puzzle it leaves: the enumeration (propagation,
/// branching and a solver of its own) finds the puzzle without that given
/// to have the one solution, and no other.
fn redundant_givens(
    puzzle: &Puzzle,
    solution: &Grid,
    options: &SolveOptions,
    deadline: Option<Instant>,
) -> Result<Vec<String>, SolveError> {
    let givens: Vec<Cell> = puzzle.givens().filled().map(|(cell, _)| cell).collect();
    let limits = (deadline, options.max_literals);
    let cells = with_checker(puzzle, solution, limits, |checker| checker.redundant(&givens))?;
    for &cell in &cells {
        let mut without = puzzle.givens().clone();
        without.set(cell, None);
        let timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let options = SolveOptions { timeout, ..*options };
        let what = format!("the puzzle without its given at {}, called redundant,", puzzle.geometry().cell_name(cell));
        confirm_unique(puzzle.geometry(), without, solution, &options, &what)?;
    }
    Ok(cells.into_iter().map(|c| puzzle.geometry().cell_name(c)).collect())
}

/// `--propagate` and `--steps`: propagation only, at `level`; its record.
fn propagate_one<'a>(
    batch: &BatchArgs,
    numbered: &'a Numbered,
    puzzle: &Puzzle,
    (level, deadline): (Level, Option<Instant>),
    (with_steps, rounds): (bool, bool),
    out: &Emitter,
) -> Record<'a> {
    let geometry = puzzle.geometry();
    let pictures = with_steps && out.renderer.format == Format::Svg;
    let (texts, outcome, snapshots) = if level == Level::Singles {
        // Unit propagation as the solver runs it, with the steps it has always printed.
        let result = propagation(puzzle, with_steps);
        let texts = with_steps
            .then(|| result.steps.iter().map(|s| StepLine::Text(StepText(s, geometry).to_string())).collect());
        let shots = if pictures { snapshots(puzzle, &result.steps) } else { Vec::new() };
        (texts, result.outcome, shots)
    } else {
        let result = steps(puzzle, level, deadline);
        if !result.complete {
            return Record::failed(numbered, Status::Error, batch.timed_out());
        }
        let texts = with_steps.then(|| {
            let mut lines = Vec::new();
            let mut round = 1;
            for step in &result.steps {
                if rounds && step.round > round {
                    lines.push(StepLine::Grid(result.rounds[round - 1].clone()));
                    round = step.round;
                }
                lines.push(StepLine::Text(step.describe(geometry, &out.renderer.alphabet)));
            }
            lines
        });
        let shots = if pictures { level_snapshots(&result, geometry, &out.renderer.alphabet) } else { Vec::new() };
        (texts, result.outcome, shots)
    };
    let record = match outcome {
        Ok(domains) => {
            // Propagation only fixes what every solution holds, so a fully
            // decided grid must be a solution: check it before saying so.
            let solved = domains.is_solved();
            if solved {
                if let Err(v) = puzzle.check(&domains.decided()) {
                    // Propagation sees the units only: the one grid they leave
                    // may break a variant constraint, and then there is no solution.
                    if geometry.has_constraints() {
                        let reason = Some(format!(
                            "the only grid the units allow breaks a rule: {}",
                            ViolationText(&v, geometry)
                        ));
                        let body =
                            Body::Analysis { domains: None, count: None, steps: texts, counts: None, residual: None };
                        return Record { reason, ..Record::new(numbered, Status::Unsolvable) }.with_body(body);
                    }
                    let text = ViolationText(&v, geometry);
                    let error = format!("internal error: propagation reached a grid that is not a solution: {text}");
                    return Record::failed(numbered, Status::Error, error);
                }
            }
            let status = if solved { Status::Solved } else { Status::Open };
            let body =
                Body::Analysis { domains: Some(domains), count: None, steps: texts, counts: None, residual: None };
            Record { snapshots, ..Record::new(numbered, status).with_body(body) }
        }
        Err(contradiction) => {
            let body = Body::Analysis { domains: None, count: None, steps: texts, counts: None, residual: None };
            let record = Record::unsolvable(numbered, Some(&contradiction), &out.renderer.alphabet).with_body(body);
            Record { snapshots, ..record }
        }
    };
    record
}

/// The pictures of `--steps --format svg` above singles: the candidates
/// once the givens are placed, then after each cell a step places (with
/// what the subset steps before it removed).
fn level_snapshots(stepped: &Stepped, geometry: &Geometry, alphabet: &Alphabet) -> Vec<Snapshot> {
    let mut domains = stepped.start.clone();
    let mut shots = vec![Snapshot { caption: "the givens placed".into(), domains: domains.clone(), marked: None }];
    for step in &stepped.steps {
        for &(cell, value) in &step.removed {
            domains.remove(cell, value);
        }
        if let Deduction::NakedSingle { cell, .. } | Deduction::HiddenSingle { cell, .. } = step.deduction {
            let caption = step.describe(geometry, alphabet);
            shots.push(Snapshot { caption, domains: domains.clone(), marked: Some(cell) });
        }
    }
    shots
}

/// The candidates after the givens are placed, then after each cell the
/// steps place: the pictures of `--steps --format svg`, replayed from the
/// steps themselves.
fn snapshots(puzzle: &Puzzle, steps: &[Step]) -> Vec<Snapshot> {
    let geometry = puzzle.geometry();
    let mut domains = match puzzle.candidates() {
        Some(candidates) => candidates.clone(),
        None => satdoku::Domains::full(puzzle.size()),
    };
    let mut shots = Vec::new();
    let mut givens_placed = false;
    for step in steps {
        let placed = match step {
            Step::Eliminate { because, value, cells } => {
                domains.fix(*because, *value);
                cells.iter().for_each(|&c| {
                    domains.remove(c, *value);
                });
                None
            }
            Step::NakedSingle { cell, value } | Step::HiddenSingle { cell, value, .. } => {
                if !givens_placed {
                    shots.push(Snapshot {
                        caption: "the givens placed".into(),
                        domains: domains.clone(),
                        marked: None,
                    });
                    givens_placed = true;
                }
                domains.fix(*cell, *value);
                Some(*cell)
            }
        };
        if placed.is_some() {
            let caption = StepText(step, geometry).to_string();
            shots.push(Snapshot { caption, domains: domains.clone(), marked: placed });
        }
    }
    if !givens_placed {
        shots.push(Snapshot { caption: "the givens placed".into(), domains, marked: None });
    }
    shots
}
