//! `satdoku solve`: one verified solution per puzzle, every solution (`--all`), or a uniqueness check.

use std::io;

use anyhow::Result;
use clap::Args;

use satdoku::{
    solve_with_stats, Claim, ExternalSolver, Guess, Outcome, Puzzle, Search, SolveError, SolveOptions, Stats,
};

use super::batch::{run, Numbered};
use super::output::{Body, Emitter, Record, Status};
use super::{parse_max, BatchArgs, Blocked, EncodingArgs, GridArgs, ProofArgs, Proofs};

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Print every solution of each puzzle, as it is found (one thread).
    #[arg(long, conflicts_with = "unique")]
    pub all: bool,
    /// With --all: stop after N (at least 1) solutions of each puzzle.
    // clap lets `requires` pass when what it requires conflicts with an
    // argument given (clap-rs/clap#4520): `--unique --max 3` ran, --max
    // unread. So the conflicts are spelled out.
    #[arg(long, value_name = "N", requires = "all", conflicts_with = "unique", value_parser = parse_max, allow_negative_numbers = true)]
    pub max: Option<u64>,
    /// Say whether each puzzle has exactly one solution: unique, multiple (with two of them) or unsolvable.
    #[arg(long)]
    pub unique: bool,
    /// Run this external SAT solver on each puzzle's CNF instead of varisat, e.g. "cadical" or
    /// "minisat". In ARGS, {cnf} is the CNF file (appended when not written) and {result} a file
    /// the solver writes its answer to (read instead of its stdout); exit codes 10 and 20 mean
    /// satisfiable and unsatisfiable.
    #[arg(long, value_name = "CMD [ARGS]", conflicts_with_all = ["all", "unique"])]
    pub solver: Option<String>,
    /// Do not first look, within a few conflicts, for a solution shaped like
    /// a shuffled pattern grid (how big puzzles are often made).
    #[arg(long)]
    pub no_pattern_guess: bool,
    #[command(flatten)]
    pub proofs: ProofArgs,
}

impl SolveArgs {
    fn options(&self) -> SolveOptions {
        SolveOptions { pattern_guess: !self.no_pattern_guess, ..self.encoding.options(&self.batch) }
    }
}

pub fn run_solve(args: &SolveArgs, grid: &GridArgs) -> Result<u8> {
    let mut setup = args.batch.setup(grid)?;
    let inputs = super::inputs(&args.batch.files, grid);
    let renderer = args.batch.renderer(&setup, &inputs)?;
    let external = args.solver.as_deref().map(external_solver).transpose()?;
    let proofs = args.proofs.prepare(&inputs)?;
    let options = args.options();
    // --all streams each puzzle's solutions as they come: one thread.
    let jobs = if args.all { 1 } else { args.batch.jobs() };
    let summary = run(&args.batch.files, &mut setup, renderer, jobs, |numbered, out| {
        answer(args, &proofs, &options, external.as_ref(), numbered, out)
    })?;
    Ok(summary.code())
}

/// The `--solver` command, checked once before any puzzle is read (a
/// missing program is one error, not one per puzzle). Ctrl-C and SIGTERM
/// end its runs and remove their files (`main` set them up).
fn external_solver(command: &str) -> Result<ExternalSolver> {
    let solver = ExternalSolver::parse(command)?;
    solver.locate()?;
    Ok(solver)
}

/// Answer one puzzle: its record(s).
fn answer(
    args: &SolveArgs,
    proofs: &Proofs,
    options: &SolveOptions,
    external: Option<&ExternalSolver>,
    numbered: &Numbered,
    out: &mut Emitter,
) -> io::Result<()> {
    let puzzle = match &numbered.entry.puzzle {
        Ok(puzzle) => puzzle,
        Err(e) => return out.emit(Record::failed(numbered, Status::Invalid, e)),
    };
    if args.all {
        return solve_all(args, proofs, numbered, puzzle, out);
    }
    if args.unique {
        return solve_unique(args, proofs, options, numbered, puzzle, out);
    }
    // The input's only puzzle gets every thread: a race of that many solvers.
    let options = SolveOptions { portfolio: numbered.threads, ..*options };
    let (outcome, stats) = match solve_with_stats(puzzle, &options, external) {
        Ok(result) => result,
        // One puzzle's failure (a solver missing, crashed, or wrong; a bug) ends only that puzzle.
        Err(e) => return out.emit(failure(&args.batch, numbered, e)),
    };
    if args.encoding.stats {
        out.note(&stats_line(numbered, puzzle.geometry().describe(), &stats))?;
    }
    let record = match outcome {
        Outcome::Solved(grid) => Record::new(numbered, Status::Solved).with_body(Body::Solution { grid, number: None }),
        Outcome::Unsolvable(reason) => {
            let record = Record::unsolvable(numbered, reason.as_ref(), &out.renderer.alphabet);
            prove(proofs, &options, numbered, puzzle, record, Claim::Unsolvable)
        }
        Outcome::TimedOut => {
            let error = match external {
                Some(solver) => {
                    let seconds = args.batch.timeout.map_or(0.0, |t| t.as_secs_f64());
                    format!("`{}` gave no answer within {seconds} s and was stopped (--timeout)", solver.program())
                }
                None => args.batch.timed_out(),
            };
            Record::failed(numbered, Status::Error, error)
        }
    };
    out.emit(record)
}

fn solve_all(
    args: &SolveArgs,
    proofs: &Proofs,
    numbered: &Numbered,
    puzzle: &Puzzle,
    out: &mut Emitter,
) -> io::Result<()> {
    let options = args.options();
    let mut search = Search::new(puzzle, &options);
    let mut found = 0;
    // A listing run to its end claims there is no other solution, as a
    // count does: with proofs asked for, the last record waits for the end
    // to carry the proof that blocks every solution listed.
    let mut blocked = proofs.wanted().then(|| Blocked::new(puzzle, &options));
    let mut last: Option<Record> = None;
    let complete = loop {
        if args.max.is_some_and(|m| found >= m) {
            break false;
        }
        let grid = match search.next() {
            None => break true,
            Some(Ok(grid)) => grid,
            Some(Err(e)) => {
                if let Some(record) = last.take() {
                    out.emit(record)?;
                }
                return out.emit(failure(&args.batch, numbered, e));
            }
        };
        found += 1;
        if let Some(record) = last.take() {
            out.emit(record)?;
        }
        if let Some(blocked) = &mut blocked {
            blocked.push(&grid);
        }
        let record = Record::new(numbered, Status::Solved).with_body(Body::Solution { grid, number: Some(found) });
        match blocked {
            Some(_) => last = Some(record),
            None => out.emit(record)?,
        }
    };
    match (last, blocked) {
        (Some(record), Some(blocked)) if complete => out
            .emit(record.proved(|| blocked.claim().and_then(|claim| proofs.write(numbered, puzzle, claim, &options)))),
        (Some(record), _) => out.emit(record),
        (None, _) if found == 0 => {
            let record = unsolvable(numbered, &search, out);
            out.emit(prove(proofs, &options, numbered, puzzle, record, Claim::Unsolvable))
        }
        (None, _) => Ok(()),
    }
}

/// `record` with the proof of `claim` when proofs are asked for.
fn prove<'a>(
    proofs: &Proofs,
    options: &SolveOptions,
    numbered: &'a Numbered,
    puzzle: &Puzzle,
    record: Record<'a>,
    claim: Claim,
) -> Record<'a> {
    match proofs.wanted() {
        true => record.proved(|| proofs.write(numbered, puzzle, claim, options)),
        false => record,
    }
}

fn solve_unique(
    args: &SolveArgs,
    proofs: &Proofs,
    options: &SolveOptions,
    numbered: &Numbered,
    puzzle: &Puzzle,
    out: &mut Emitter,
) -> io::Result<()> {
    let mut search = Search::new(puzzle, options);
    let first: Vec<_> = match search.by_ref().take(2).collect::<Result<_, SolveError>>() {
        Ok(first) => first,
        Err(e) => return out.emit(failure(&args.batch, numbered, e)),
    };
    let mut solutions = first.into_iter();
    let record = match (solutions.next(), solutions.next()) {
        (None, _) => prove(proofs, options, numbered, puzzle, unsolvable(numbered, &search, out), Claim::Unsolvable),
        (Some(first), None) => {
            let claim = Claim::Only(vec![first.clone()]);
            let record = Record::new(numbered, Status::Unique).with_body(Body::Solutions { first, second: None });
            prove(proofs, options, numbered, puzzle, record, claim)
        }
        (Some(first), second) => Record::new(numbered, Status::Multiple).with_body(Body::Solutions { first, second }),
    };
    out.emit(record)
}

/// The error record of a puzzle that got no answer.
pub fn failure<'a>(batch: &BatchArgs, numbered: &'a Numbered, error: SolveError) -> Record<'a> {
    match error {
        SolveError::TimedOut => Record::failed(numbered, Status::Error, batch.timed_out()),
        error => Record::failed(numbered, Status::Error, error),
    }
}

/// The record of a search that found nothing.
fn unsolvable<'a>(numbered: &'a Numbered, search: &Search, out: &Emitter) -> Record<'a> {
    Record::unsolvable(numbered, search.reason(), &out.renderer.alphabet)
}

/// `--stats` line for one puzzle.
fn stats_line(numbered: &Numbered, geometry: String, stats: &Stats) -> String {
    format!(
        "{}: {}: {} variables, {} clauses; parse {:.3} ms, propagate and encode {:.3} ms, solve {:.3} ms{}{}",
        numbered.describe(),
        geometry,
        stats.variables,
        stats.clauses,
        numbered.read.as_secs_f64() * 1e3,
        stats.encode.as_secs_f64() * 1e3,
        stats.solve.as_secs_f64() * 1e3,
        match stats.conflicts {
            Some(conflicts) => format!(" ({conflicts} conflicts)"),
            None => String::new(),
        },
        match stats.guess {
            Guess::None => "",
            Guess::Found => "; pattern guess: solved",
            Guess::Refuted => "; pattern guess: no solution of that shape",
            Guess::GaveUp => "; pattern guess: given up",
        },
    )
}
