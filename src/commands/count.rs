//! `satdoku count`: the number of solutions of each puzzle, capped by `--max`.

use std::time::Instant;

use anyhow::Result;
use clap::Args;

use satdoku::{Count, Search, SolveError};

use super::batch::run;
use super::output::{Body, Record, Status};
use super::solve::failure;
use super::{parse_max, BatchArgs, Blocked, EncodingArgs, GridArgs, ProofArgs};

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Stop counting each puzzle at N (at least 1) solutions.
    #[arg(long, value_name = "N", value_parser = parse_max, allow_negative_numbers = true)]
    pub max: Option<u64>,
    #[command(flatten)]
    pub proofs: ProofArgs,
}

pub fn run_count(args: &CountArgs, grid: &GridArgs) -> Result<u8> {
    let mut setup = args.batch.setup(grid)?;
    let inputs = super::inputs(&args.batch.files, grid);
    let renderer = args.batch.renderer(&setup, &inputs)?;
    let options = args.encoding.options(&args.batch);
    let limit = args.max.unwrap_or(u64::MAX);
    let proofs = args.proofs.prepare(&inputs)?;
    let summary = run(&args.batch.files, &mut setup, renderer, args.batch.jobs(), |numbered, out| {
        let puzzle = match &numbered.entry.puzzle {
            Ok(puzzle) => puzzle,
            Err(e) => return out.emit(Record::failed(numbered, Status::Invalid, e)),
        };
        let start = Instant::now();
        let mut search = Search::new(puzzle, &options);
        // A proof of the exact count blocks every solution: keep them, while
        // their clauses stay within --max-literals.
        let mut blocked = Blocked::new(puzzle, &options);
        let counted = match proofs.wanted() {
            false => search.count_up_to(limit),
            // The solution past the limit is kept too; a capped count has no proof.
            true => search.count_each(limit, |solution| {
                blocked.push(solution);
                Ok(())
            }),
        };
        let count = match counted {
            Ok(count) => count,
            // Out of time: what was counted, as a lower bound, with the error.
            Err(SolveError::TimedOut) => {
                let counted = Count { count: search.found(), capped: true };
                // Said in the message too: the line format shows only that.
                let error = format!("{}, after counting {}", args.batch.timed_out(), counted.count);
                let record = Record::failed(numbered, Status::Error, error);
                return out.emit(record.with_body(Body::Count(counted)));
            }
            // A bug shows in this puzzle's record; the batch goes on.
            Err(e) => return out.emit(failure(&args.batch, numbered, e)),
        };
        if args.encoding.stats {
            let ms = start.elapsed().as_secs_f64() * 1e3;
            let geometry = puzzle.geometry().describe();
            out.note(&format!("{}: {geometry}: {} solutions in {ms:.3} ms", numbered.describe(), count.count))?;
        }
        let record = match status(&count) {
            // Why there is none, when propagation showed it, as `solve` says.
            Status::Unsolvable => Record::unsolvable(numbered, search.reason(), &out.renderer.alphabet),
            status => Record::new(numbered, status),
        };
        let record = record.with_body(Body::Count(count));
        let record = match (proofs.wanted(), count.capped) {
            (true, false) => {
                record.proved(|| blocked.claim().and_then(|claim| proofs.write(numbered, puzzle, claim, &options)))
            }
            _ => record,
        };
        out.emit(record)
    })?;
    Ok(summary.code())
}

/// What a count says of its puzzle.
fn status(count: &Count) -> Status {
    match (count.count, count.capped) {
        (0, _) => Status::Unsolvable,
        (1, false) => Status::Unique,
        _ => Status::Multiple,
    }
}
