//! `satdoku solve`: one verified solution per puzzle, every solution (`--all`), or a uniqueness check.

use std::collections::BTreeMap;
use std::io;
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use satdoku::external::{self, ExternalSolver};
use satdoku::format::{self, Format};
use satdoku::solve::{solve_with_stats, Outcome, SolveOptions};
use satdoku::Search;
use satdoku::{Alphabet, Grid, InternalError, Puzzle};

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
    /// Solve with N threads (default: every core; one with --all, --unique or --stats). Output stays in input order.
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Run this external SAT solver on each puzzle's CNF instead of varisat, e.g. "cadical" or
    /// "minisat" ({cnf} and {result} in ARGS: see the README).
    #[arg(long, value_name = "CMD [ARGS]", conflicts_with_all = ["all", "unique"])]
    pub solver: Option<String>,
    /// Give up on a puzzle after SECS seconds (with varisat, from the start of its
    /// propagation; with --solver, of the solver process); that puzzle is an error
    /// record, the batch goes on.
    #[arg(long, value_name = "SECS", conflicts_with_all = ["all", "unique"], value_parser = external::parse_timeout)]
    pub timeout: Option<Duration>,
    /// Do not first look for a solution shaped like a shuffled pattern grid
    /// (see the README, "Pattern guess").
    #[arg(long)]
    pub no_pattern_guess: bool,
}

impl SolveArgs {
    fn options(&self) -> SolveOptions {
        SolveOptions { timeout: self.timeout, pattern_guess: !self.no_pattern_guess, ..self.encoding.options() }
    }
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
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let external = args.solver.as_deref().map(ExternalSolver::parse).transpose()?.map(|s| s.with_timeout(args.timeout));
    // --all and --unique stream each puzzle's solutions as they come, and
    // --stats times each step of each puzzle in order: one thread.
    if jobs <= 1 || args.all || args.unique || args.encoding.stats {
        run_sequential(args, grid, external.as_ref())
    } else {
        run_parallel(args, grid, external.as_ref(), jobs)
    }
}

fn run_sequential(args: &SolveArgs, grid: &GridArgs, external: Option<&ExternalSolver>) -> Result<Status> {
    let mut status = Status::default();
    let (_, alphabet) = grid.resolve()?;
    let mut out = Output::new(args.format.format(), alphabet);
    let options = args.options();
    let mut last = Instant::now();
    for_each_puzzle(&args.files, grid, &mut status, |status, numbered| {
        let parse_time = last.elapsed();
        answer(args, &mut out, &options, external, &numbered, status, parse_time)?;
        last = Instant::now();
        Ok(())
    })?;
    out.flush()?;
    Ok(status)
}

/// `--jobs N`: the main thread reads, N workers (each making its own varisat
/// solvers, which are not `Send`) answer chunks of puzzles into buffers, a
/// writer prints the buffers in input order. At most `WINDOW` chunks per
/// worker are between reading and printing, so memory stays flat however long
/// the input is; chunks keep the hand-offs rare next to ~30 µs puzzles.
fn run_parallel(args: &SolveArgs, grid: &GridArgs, external: Option<&ExternalSolver>, jobs: usize) -> Result<Status> {
    const CHUNK: usize = 64;
    const WINDOW: usize = 4;
    let (_, alphabet) = grid.resolve()?;
    let format = args.format.format();
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, Vec<Numbered>)>(jobs);
    // Shared by the workers only: once they are all gone, sending fails instead of blocking.
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = mpsc::channel::<(usize, Vec<u8>)>();
    let (ticket_tx, ticket_rx) = mpsc::channel::<()>();
    for _ in 0..jobs * WINDOW {
        ticket_tx.send(())?;
    }
    let mut status = Status::default();
    std::thread::scope(|scope| -> Result<()> {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                let (job_rx, done_tx, alphabet) = (Arc::clone(&job_rx), done_tx.clone(), alphabet.clone());
                scope.spawn(move || -> Result<Status> {
                    let mut status = Status::default();
                    let mut out = Output::buffer(format, alphabet);
                    let options = args.options();
                    loop {
                        let job = job_rx.lock().map_err(|_| anyhow::anyhow!("a worker thread panicked"))?.recv();
                        let Ok((chunk, puzzles)) = job else { return Ok(status) };
                        for numbered in &puzzles {
                            answer(args, &mut out, &options, external, numbered, &mut status, Duration::ZERO)?;
                        }
                        if done_tx.send((chunk, out.take())).is_err() {
                            return Ok(status);
                        }
                    }
                })
            })
            .collect();
        drop(done_tx);
        drop(job_rx);
        let writer = scope.spawn(move || -> Result<()> {
            let mut out = Output::new(format, Alphabet::default());
            let mut pending = BTreeMap::new();
            let mut next = 0;
            for (chunk, bytes) in done_rx {
                pending.insert(chunk, bytes);
                while let Some(bytes) = pending.remove(&next) {
                    out.text(std::str::from_utf8(&bytes)?)?;
                    next += 1;
                    // The reader may go on; if it has stopped, nobody needs the ticket.
                    let _ = ticket_tx.send(());
                }
            }
            out.flush()?;
            Ok(())
        });
        let mut chunk = Vec::with_capacity(CHUNK);
        let mut chunks = 0;
        let mut send = |puzzles: Vec<Numbered>| -> Result<()> {
            // No ticket: the writer has stopped (stdout closed); stop reading.
            if ticket_rx.recv().is_err() || job_tx.send((chunks, puzzles)).is_err() {
                return Err(io::Error::from(io::ErrorKind::BrokenPipe).into());
            }
            chunks += 1;
            Ok(())
        };
        let mut read = for_each_puzzle(&args.files, grid, &mut status, |_, numbered| {
            chunk.push(numbered);
            if chunk.len() == CHUNK {
                send(std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK)))?;
            }
            Ok(())
        });
        if read.is_ok() && !chunk.is_empty() {
            read = send(chunk);
        }
        drop(job_tx);
        drop(ticket_rx);
        for worker in workers {
            status = status.merge(worker.join().map_err(|_| anyhow::anyhow!("a worker thread panicked"))??);
        }
        writer.join().map_err(|_| anyhow::anyhow!("the writer thread panicked"))??;
        read
    })?;
    Ok(status)
}

/// Answer one puzzle into `out`: its record(s), and what it means for the exit code.
fn answer(
    args: &SolveArgs,
    out: &mut Output,
    options: &SolveOptions,
    external: Option<&ExternalSolver>,
    numbered: &Numbered,
    status: &mut Status,
    parse_time: Duration,
) -> Result<()> {
    let record = Record {
        index: numbered.index,
        name: numbered.entry.name.clone(),
        source: numbered.entry.position.to_string(),
        ..Record::default()
    };
    let puzzle = match &numbered.entry.puzzle {
        Ok(puzzle) => puzzle,
        Err(e) => {
            eprintln!("satdoku: {e}");
            status.invalid = true;
            return emit(out, numbered, Record { status: "invalid", error: Some(e.to_string()), ..record }, None);
        }
    };
    let result = if args.all {
        solve_all(out, numbered, puzzle, options, args.max, record, status)
    } else if args.unique {
        solve_unique(out, numbered, puzzle, options, record, status)
    } else {
        solve_one(out, numbered, puzzle, options, external, record, status, args.encoding.stats, parse_time)
    };
    match result {
        Err(e) if e.downcast_ref::<InternalError>().is_some() => {
            eprintln!("satdoku: {}: {e}", describe(numbered));
            status.invalid = true;
            let record = Record {
                index: numbered.index,
                status: "error",
                error: Some(e.to_string()),
                source: numbered.entry.position.to_string(),
                ..Record::default()
            };
            emit(out, numbered, record, None)
        }
        other => other,
    }
}

#[allow(clippy::too_many_arguments)]
fn solve_one(
    out: &mut Output,
    numbered: &Numbered,
    puzzle: &Puzzle,
    options: &SolveOptions,
    external: Option<&ExternalSolver>,
    record: Record,
    status: &mut Status,
    stats: bool,
    parse_time: std::time::Duration,
) -> Result<()> {
    let (outcome, solve_stats) = match external {
        None => solve_with_stats(puzzle, options)?,
        Some(solver) => match external::solve(puzzle, options, solver) {
            Ok(result) => result,
            Err(e) => {
                // One puzzle's solver failure (missing, crashed, timed out) ends only that puzzle.
                eprintln!("satdoku: {}: {e}", describe(numbered));
                status.invalid = true;
                return emit(out, numbered, Record { status: "error", error: Some(e.to_string()), ..record }, None);
            }
        },
    };
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
            let reason = reason.map(|c| c.describe(puzzle.geometry(), &out.alphabet));
            emit(out, numbered, Record { status: "unsolvable", reason, ..record }, None)
        }
        Outcome::TimedOut => {
            let seconds = options.timeout.map_or(0.0, |t| t.as_secs_f64());
            let error = format!("no answer within {seconds} s (--timeout)");
            eprintln!("satdoku: {}: {error}", describe(numbered));
            status.invalid = true;
            emit(out, numbered, Record { status: "error", error: Some(error), ..record }, None)
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
        let reason = search.reason().map(|c| c.describe(puzzle.geometry(), &out.alphabet));
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
            let reason = search.reason().map(|c| c.describe(puzzle.geometry(), &out.alphabet));
            Record { status: "unsolvable", reason, ..record }
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
