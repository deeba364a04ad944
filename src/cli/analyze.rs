//! `satdoku analyze`: the cells fixed in every solution, the exact candidates of the rest, or what propagation alone derives.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use satdoku::analyze::{analyze, propagation, AnalyzeOptions, Status as Verdict};
use satdoku::format::{self, Format};
use satdoku::propagate::{Domains, StepText};
use satdoku::{Alphabet, Geometry, Puzzle};

use super::{describe, for_each_puzzle, EncodingArgs, FormatArgs, GridArgs, Numbered, Output, Status};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Puzzle files (stdin when none or "-").
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub format: FormatArgs,
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

/// One output record of `analyze`.
#[derive(Serialize, Default)]
struct Record {
    index: usize,
    /// unique | multiple | unsolvable; with --propagate or --steps:
    /// solved | open | unsolvable (what propagation alone reached).
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    candidates: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    capped: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    source: String,
}

pub fn run(args: &AnalyzeArgs, grid: &GridArgs) -> Result<Status> {
    let mut status = Status::default();
    let (_, alphabet) = grid.resolve()?;
    let mut out = Output::new(args.format.format(), alphabet);
    let options = AnalyzeOptions { solve: args.encoding.options(), count_limit: args.max };
    for_each_puzzle(&args.files, grid, &mut status, |status, numbered| {
        let record = Record {
            index: numbered.index,
            name: numbered.entry.name.clone(),
            source: numbered.entry.position.to_string(),
            ..Record::default()
        };
        let puzzle = match &numbered.entry.puzzle {
            Ok(p) => p,
            Err(e) => {
                eprintln!("satdoku: {e}");
                status.invalid = true;
                let record = Record { status: "invalid", error: Some(e.to_string()), ..record };
                return emit(&mut out, &numbered, record, None);
            }
        };
        if args.propagate || args.steps {
            return propagate_one(&mut out, &numbered, puzzle, args.steps, record, status);
        }
        let start = Instant::now();
        let analysis = match analyze(puzzle, &options) {
            Ok(a) => a,
            Err(internal) => {
                eprintln!("satdoku: {}: {internal}", describe(&numbered));
                status.invalid = true;
                let record = Record { status: "error", error: Some(internal.to_string()), ..record };
                return emit(&mut out, &numbered, record, None);
            }
        };
        if args.encoding.stats {
            let s = analysis.stats;
            eprintln!(
                "{}: {}: {} variables, {} clauses; {} models, {} pairs refuted; {:.3} ms",
                describe(&numbered),
                puzzle.geometry().describe(),
                s.variables,
                s.clauses,
                s.models,
                s.refuted,
                start.elapsed().as_secs_f64() * 1e3
            );
        }
        let record = match (&analysis.candidates, analysis.status) {
            (Some(domains), verdict) if verdict != Verdict::Unsolvable => Record {
                status: verdict.name(),
                fixed: Some(format::line(&domains.decided(), &out.alphabet)),
                candidates: Some(candidate_strings(domains, puzzle.geometry(), &out.alphabet)),
                count: Some(analysis.count.count),
                capped: analysis.count.capped,
                ..record
            },
            _ => {
                status.unsolvable = true;
                let reason = analysis.reason.as_ref().map(|c| c.describe(puzzle.geometry(), &out.alphabet));
                Record { status: "unsolvable", count: Some(0), reason, ..record }
            }
        };
        let shown = analysis.candidates.as_ref().map(|d| (d, &**puzzle.geometry()));
        emit(&mut out, &numbered, record, shown)
    })?;
    out.flush()?;
    Ok(status)
}

/// `--propagate` and `--steps`: unit propagation only.
fn propagate_one(
    out: &mut Output,
    numbered: &Numbered,
    puzzle: &Puzzle,
    steps: bool,
    record: Record,
    status: &mut Status,
) -> Result<()> {
    let geometry = puzzle.geometry();
    let result = propagation(puzzle, steps);
    let texts: Vec<String> = result.steps.iter().map(|s| StepText(s, geometry).to_string()).collect();
    let record = Record { steps: steps.then(|| texts.clone()), ..record };
    let (record, domains, last) = match &result.outcome {
        Ok(domains) => {
            let open = geometry.cells().filter(|&c| domains.count(c) > 1).count();
            // Propagation only fixes what every solution holds, so a fully
            // decided grid must be a solution: check it before saying so.
            let solved = open == 0;
            if solved {
                if let Err(v) = satdoku::verify(geometry, puzzle.givens(), &domains.decided()) {
                    let text = satdoku::verify::ViolationText(&v, geometry).to_string();
                    anyhow::bail!("internal error: propagation reached a grid that is not a solution: {text}");
                }
            }
            let last = if solved {
                "solved by propagation alone".to_string()
            } else {
                format!("search needed: {open} cells still open")
            };
            let record = Record {
                status: if solved { "solved" } else { "open" },
                fixed: Some(format::line(&domains.decided(), &out.alphabet)),
                candidates: Some(candidate_strings(domains, geometry, &out.alphabet)),
                ..record
            };
            (record, Some(domains), last)
        }
        Err(contradiction) => {
            status.unsolvable = true;
            let reason = contradiction.describe(geometry, &out.alphabet);
            let last = format!("contradiction: {reason}");
            (Record { status: "unsolvable", reason: Some(reason), ..record }, None, last)
        }
    };
    if steps && out.format != Format::Json {
        let header = describe(numbered);
        out.line(&header)?;
        for text in &texts {
            out.line(text)?;
        }
        out.line(&last)?;
        if let Some(domains) = domains {
            out.text(&candidate_grid(domains, geometry, &out.alphabet))?;
        }
        out.line("")?;
        return Ok(());
    }
    emit(out, numbered, record, domains.map(|d| (d, &**geometry)))
}

/// Write one record in the output format.
fn emit(out: &mut Output, numbered: &Numbered, record: Record, shown: Option<(&Domains, &Geometry)>) -> Result<()> {
    match out.format {
        Format::Json => out.json(&record)?,
        Format::Line => match &record.fixed {
            Some(fixed) => out.line(fixed)?,
            None => out.line(&message(numbered, &record))?,
        },
        Format::Grid => {
            let header = match (&record.fixed, record.count) {
                (Some(_), Some(count)) => {
                    let plural = if count == 1 { "" } else { "s" };
                    let more = if record.capped { "at least " } else { "" };
                    format!("{}: {}, {more}{count} solution{plural}", describe(numbered), record.status)
                }
                (Some(_), None) => format!("{}: {}", describe(numbered), record.status),
                (None, _) => message(numbered, &record),
            };
            out.line(&header)?;
            if let Some((domains, geometry)) = shown {
                out.text(&candidate_grid(domains, geometry, &out.alphabet))?;
            }
            out.line("")?;
        }
    }
    Ok(())
}

fn message(numbered: &Numbered, record: &Record) -> String {
    match record.reason.as_deref().or(record.error.as_deref()) {
        Some(d) => format!("{}: {}: {d}", record.status, describe(numbered)),
        None => format!("{}: {}", record.status, describe(numbered)),
    }
}

/// The candidates of one cell: its symbols run together, or numbers joined by
/// commas past the alphabet.
fn candidate_text(domains: &Domains, cell: satdoku::Cell, alphabet: &Alphabet) -> String {
    let symbols = domains.values(cell).map(|v| format::symbol(Some(v), domains.size(), alphabet));
    if alphabet.covers(domains.size()) {
        symbols.collect()
    } else {
        symbols.collect::<Vec<_>>().join(",")
    }
}

fn candidate_strings(domains: &Domains, geometry: &Geometry, alphabet: &Alphabet) -> Vec<String> {
    geometry.cells().map(|c| candidate_text(domains, c, alphabet)).collect()
}

/// The pencil-mark grid: a fixed cell shows its value, an open one its candidates.
fn candidate_grid(domains: &Domains, geometry: &Geometry, alphabet: &Alphabet) -> String {
    format::pretty_cells(geometry, |i| candidate_text(domains, satdoku::Cell::from_index(i), alphabet))
}
