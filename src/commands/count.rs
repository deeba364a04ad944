//! `satdoku count`: the number of solutions of each puzzle, capped by `--max`.

use std::time::Instant;

use anyhow::Result;
use clap::Args;

use satdoku::{Count, Search};

use super::batch::run;
use super::output::{Body, Record, Status};
use super::{BatchArgs, EncodingArgs, GridArgs};

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Stop counting each puzzle at N solutions.
    #[arg(long, value_name = "N")]
    pub max: Option<u64>,
}

pub fn run_count(args: &CountArgs, grid: &GridArgs) -> Result<u8> {
    let mut setup = grid.resolve()?;
    let renderer = args.batch.renderer(&setup);
    let options = args.encoding.options();
    let limit = args.max.unwrap_or(u64::MAX);
    let summary = run(&args.batch.files, &mut setup, renderer, args.batch.jobs(), |numbered, out| {
        let puzzle = match &numbered.entry.puzzle {
            Ok(puzzle) => puzzle,
            Err(e) => return out.emit(Record::failed(numbered, Status::Invalid, e)),
        };
        let start = Instant::now();
        let count = match Search::new(puzzle, &options).count_up_to(limit) {
            Ok(count) => count,
            // A bug shows in this puzzle's record; the batch goes on.
            Err(e) => return out.emit(Record::failed(numbered, Status::Error, e)),
        };
        if args.encoding.stats {
            let ms = start.elapsed().as_secs_f64() * 1e3;
            let geometry = puzzle.geometry().describe();
            out.note(&format!("{}: {geometry}: {} solutions in {ms:.3} ms", numbered.describe(), count.count))?;
        }
        out.emit(Record::new(numbered, status(&count)).with_body(Body::Count(count)))
    })?;
    Ok(summary.code())
}

/// What a count says of its puzzle.
fn status(count: &Count) -> Status {
    match (count.count, count.capped) {
        (0, false) => Status::Unsolvable,
        (1, false) => Status::Unique,
        (1, true) | (0, true) => Status::Solved,
        _ => Status::Multiple,
    }
}
