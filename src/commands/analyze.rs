//! `satdoku analyze`: the cells fixed in every solution, the exact candidates of the rest, or what propagation alone derives.

use std::io;
use std::time::Instant;

use anyhow::Result;
use clap::Args;

use satdoku::{analyze, propagation, AnalyzeOptions, Puzzle, Step, StepText, Verdict, ViolationText};

use super::batch::{run, Numbered};
use super::output::{Body, Emitter, Format, Record, Snapshot, Status};
use super::solve::failure;
use super::{BatchArgs, EncodingArgs, GridArgs};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Count solutions up to N (0: only say unique or multiple).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max: u64,
    /// Show only what unit propagation derives from the givens (no search):
    /// the residual candidates.
    #[arg(long, conflicts_with = "steps")]
    pub propagate: bool,
    /// Print the deductions of unit propagation in order, with their reasons,
    /// up to the solved grid or the point where search is needed.
    #[arg(long)]
    pub steps: bool,
}

pub fn run_analyze(args: &AnalyzeArgs, grid: &GridArgs) -> Result<u8> {
    let mut setup = grid.resolve()?;
    setup.chunk = args.batch.chunk();
    let renderer = args.batch.renderer(&setup)?;
    let options = AnalyzeOptions { solve: args.encoding.options(&args.batch), count_limit: args.max };
    let summary = run(&args.batch.files, &mut setup, renderer, args.batch.jobs(), |numbered, out| {
        let puzzle = match &numbered.entry.puzzle {
            Ok(p) => p,
            Err(e) => return out.emit(Record::failed(numbered, Status::Invalid, e)),
        };
        if args.propagate || args.steps {
            return propagate_one(numbered, puzzle, args.steps, out);
        }
        let start = Instant::now();
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
        let record = match (analysis.candidates, analysis.verdict) {
            (Some(domains), verdict) if verdict != Verdict::Unsolvable => {
                let status = if verdict == Verdict::Unique { Status::Unique } else { Status::Multiple };
                let body = Body::Analysis { domains: Some(domains), count: Some(analysis.count), steps: None };
                Record::new(numbered, status).with_body(body)
            }
            _ => {
                let body = Body::Analysis { domains: None, count: Some(analysis.count), steps: None };
                Record::unsolvable(numbered, analysis.reason.as_ref(), &out.renderer.alphabet).with_body(body)
            }
        };
        out.emit(record)
    })?;
    Ok(summary.code())
}

/// `--propagate` and `--steps`: unit propagation only.
fn propagate_one(numbered: &Numbered, puzzle: &Puzzle, steps: bool, out: &mut Emitter) -> io::Result<()> {
    let geometry = puzzle.geometry();
    let result = propagation(puzzle, steps);
    let texts = steps.then(|| result.steps.iter().map(|s| StepText(s, geometry).to_string()).collect());
    let snapshots =
        if steps && out.renderer.format == Format::Svg { snapshots(puzzle, &result.steps) } else { Vec::new() };
    let record = match result.outcome {
        Ok(domains) => {
            // Propagation only fixes what every solution holds, so a fully
            // decided grid must be a solution: check it before saying so.
            let solved = domains.is_solved();
            if solved {
                if let Err(v) = puzzle.check(&domains.decided()) {
                    let text = ViolationText(&v, geometry);
                    let error = format!("internal error: propagation reached a grid that is not a solution: {text}");
                    return out.emit(Record::failed(numbered, Status::Error, error));
                }
            }
            let status = if solved { Status::Solved } else { Status::Open };
            let body = Body::Analysis { domains: Some(domains), count: None, steps: texts };
            Record { snapshots, ..Record::new(numbered, status).with_body(body) }
        }
        Err(contradiction) => {
            let body = Body::Analysis { domains: None, count: None, steps: texts };
            let record = Record::unsolvable(numbered, Some(&contradiction), &out.renderer.alphabet).with_body(body);
            Record { snapshots, ..record }
        }
    };
    out.emit(record)
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
