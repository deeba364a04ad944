//! `satdoku solve`: one verified solution per puzzle, every solution (`--all`), or a uniqueness check.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use satdoku::format::{self, Format};
use satdoku::solve::{solve_with_stats, Outcome, SolveOptions};
use satdoku::Search;
use satdoku::{Grid, InternalError, Puzzle};

use super::{describe, for_each_puzzle, print_stats, EncodingArgs, FormatArgs, GridArgs, Numbered, Output, Status};

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Puzzle files (stdin when none or "-").
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Print every solution of each puzzle, as it is found.
    #[arg(long, conflicts_with = "unique")]
    pub all: bool,
    /// With --all: stop after N solutions of each puzzle.
    #[arg(long, value_name = "N", requires = "all")]
    pub max: Option<u64>,
    /// Say whether each puzzle has exactly one solution: unique, multiple (with two of them) or unsolvable.
    #[arg(long)]
    pub unique: bool,
}

/// One output record of `solve`.
#[derive(Serialize, Default)]
struct Record {
    index: usize,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    /// With --unique: the two solutions that show a puzzle is not unique.
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<[String; 2]>,
    /// With --all: which solution of the puzzle this is (1-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    number: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    source: String,
}

pub fn run(args: &SolveArgs, grid: &GridArgs) -> Result<Status> {
    let mut status = Status::default();
    let (_, alphabet) = grid.resolve()?;
    let mut out = Output::new(args.format.format(), alphabet);
    let options = args.encoding.options();
    let mut last = Instant::now();
    for_each_puzzle(&args.files, grid, &mut status, |status, numbered| {
        let parse_time = last.elapsed();
        let record = Record {
            index: numbered.index,
            name: numbered.entry.name.clone(),
            source: numbered.entry.position.to_string(),
            ..Record::default()
        };
        match &numbered.entry.puzzle {
            Err(e) => {
                eprintln!("satdoku: {e}");
                status.invalid = true;
                emit(&mut out, &numbered, Record { status: "invalid", error: Some(e.to_string()), ..record }, None)?;
            }
            Ok(puzzle) => {
                let result = if args.all {
                    solve_all(&mut out, &numbered, puzzle, &options, args.max, record, status)
                } else if args.unique {
                    solve_unique(&mut out, &numbered, puzzle, &options, record, status)
                } else {
                    solve_one(&mut out, &numbered, puzzle, &options, record, status, args.encoding.stats, parse_time)
                };
                if let Err(e) = result {
                    if let Some(internal) = e.downcast_ref::<InternalError>() {
                        eprintln!("satdoku: {}: {internal}", describe(&numbered));
                        status.invalid = true;
                        let record = Record {
                            index: numbered.index,
                            status: "error",
                            error: Some(internal.to_string()),
                            source: numbered.entry.position.to_string(),
                            ..Record::default()
                        };
                        emit(&mut out, &numbered, record, None)?;
                    } else {
                        return Err(e);
                    }
                }
            }
        }
        last = Instant::now();
        Ok(())
    })?;
    out.flush()?;
    Ok(status)
}

#[allow(clippy::too_many_arguments)]
fn solve_one(
    out: &mut Output,
    numbered: &Numbered,
    puzzle: &Puzzle,
    options: &SolveOptions,
    record: Record,
    status: &mut Status,
    stats: bool,
    parse_time: std::time::Duration,
) -> Result<()> {
    let (outcome, solve_stats) = solve_with_stats(puzzle, options)?;
    if stats {
        print_stats(numbered, puzzle.geometry(), parse_time, &solve_stats);
    }
    match outcome {
        Outcome::Solved(grid) => {
            let line = format::line(&grid, &out.alphabet);
            emit(out, numbered, Record { status: "solved", solution: Some(line), ..record }, Some((&grid, puzzle)))
        }
        Outcome::Unsolvable(reason) => {
            status.unsolvable = true;
            emit(out, numbered, Record { status: "unsolvable", reason, ..record }, None)
        }
    }
}

fn solve_all(
    out: &mut Output,
    numbered: &Numbered,
    puzzle: &Puzzle,
    options: &SolveOptions,
    max: Option<u64>,
    record: Record,
    status: &mut Status,
) -> Result<()> {
    let mut search = Search::new(puzzle, options);
    let mut found = 0;
    while max.is_none_or(|m| found < m) {
        let Some(grid) = search.next() else { break };
        let grid = grid?;
        found += 1;
        let line = format::line(&grid, &out.alphabet);
        let r = Record {
            status: "solved",
            solution: Some(line),
            number: Some(found),
            name: record.name.clone(),
            source: record.source.clone(),
            index: record.index,
            ..Record::default()
        };
        emit(out, numbered, r, Some((&grid, puzzle)))?;
    }
    if found == 0 {
        status.unsolvable = true;
        let reason = search.reason().map(String::from);
        emit(out, numbered, Record { status: "unsolvable", reason, ..record }, None)?;
    }
    Ok(())
}

fn solve_unique(
    out: &mut Output,
    numbered: &Numbered,
    puzzle: &Puzzle,
    options: &SolveOptions,
    record: Record,
    status: &mut Status,
) -> Result<()> {
    let mut search = Search::new(puzzle, options);
    let first: Vec<Grid> = search.by_ref().take(2).collect::<Result<_, InternalError>>()?;
    let line = |g: &Grid| format::line(g, &out.alphabet);
    let record = match first.as_slice() {
        [] => {
            status.unsolvable = true;
            Record { status: "unsolvable", reason: search.reason().map(String::from), ..record }
        }
        [one] => Record { status: "unique", solution: Some(line(one)), ..record },
        [a, b, ..] => {
            Record { status: "multiple", solution: Some(line(a)), solutions: Some([line(a), line(b)]), ..record }
        }
    };
    let shown = first.first().map(|g| (g, puzzle));
    emit(out, numbered, record, shown)?;
    if let (Format::Grid, Some(second)) = (out.format, first.get(1)) {
        out.text(&format::pretty(second, puzzle.geometry(), &out.alphabet))?;
        out.line("")?;
    }
    Ok(())
}

/// Write one record in the output format.
fn emit(out: &mut Output, numbered: &Numbered, record: Record, grid: Option<(&Grid, &Puzzle)>) -> Result<()> {
    match out.format {
        Format::Json => out.json(&record)?,
        Format::Line => {
            let text = match (record.status, &record.solution, &record.solutions) {
                ("solved", Some(s), _) => s.clone(),
                ("unique", Some(s), _) => format!("unique {s}"),
                ("multiple", _, Some([a, b])) => format!("multiple {a} {b}"),
                (status, _, _) => message(status, numbered, &record),
            };
            out.line(&text)?;
        }
        Format::Grid => {
            let header = match (record.status, record.number) {
                ("solved", Some(k)) => format!("{}: solution {k}", describe(numbered)),
                ("solved", None) => describe(numbered),
                ("unique" | "multiple", _) => format!("{}: {}", describe(numbered), record.status),
                (status, _) => message(status, numbered, &record),
            };
            out.line(&header)?;
            if let Some((grid, puzzle)) = grid {
                out.text(&format::pretty(grid, puzzle.geometry(), &out.alphabet))?;
            }
            out.line("")?;
        }
    }
    Ok(())
}

fn message(status: &str, numbered: &Numbered, record: &Record) -> String {
    let detail = record.reason.as_deref().or(record.error.as_deref());
    match detail {
        Some(d) => format!("{status}: {}: {d}", describe(numbered)),
        None => format!("{status}: {}", describe(numbered)),
    }
}
