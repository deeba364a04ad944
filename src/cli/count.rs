//! `satdoku count`: the number of solutions of each puzzle, capped by `--max`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use satdoku::count_up_to;
use satdoku::format::Format;

use super::{describe, for_each_puzzle, EncodingArgs, FormatArgs, GridArgs, Output, Status};

#[derive(Args, Debug)]
pub struct CountArgs {
    /// Puzzle files (stdin when none or "-").
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Stop counting each puzzle at N solutions.
    #[arg(long, value_name = "N")]
    pub max: Option<u64>,
}

#[derive(Serialize)]
struct Record {
    index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    capped: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    source: String,
}

pub fn run(args: &CountArgs, grid: &GridArgs) -> Result<Status> {
    let mut status = Status::default();
    let (_, alphabet) = grid.resolve()?;
    let mut out = Output::new(args.format.format(), alphabet);
    let options = args.encoding.options();
    let limit = args.max.unwrap_or(u64::MAX);
    for_each_puzzle(&args.files, grid, &mut status, |status, numbered| {
        let source = numbered.entry.position.to_string();
        let (record, text) = match &numbered.entry.puzzle {
            Err(e) => {
                eprintln!("satdoku: {e}");
                status.invalid = true;
                let text = format!("invalid: {}: {e}", describe(&numbered));
                (Record { index: numbered.index, count: None, capped: false, error: Some(e.to_string()), source }, text)
            }
            Ok(puzzle) => {
                let start = Instant::now();
                match count_up_to(puzzle, limit, &options) {
                    Ok(count) => {
                        if args.encoding.stats {
                            let ms = start.elapsed().as_secs_f64() * 1e3;
                            eprintln!(
                                "{}: {}: {} solutions in {ms:.3} ms",
                                describe(&numbered),
                                puzzle.geometry().describe(),
                                count.count
                            );
                        }
                        if count.count == 0 {
                            status.unsolvable = true;
                        }
                        let text =
                            if count.capped { format!("at least {}", count.count) } else { count.count.to_string() };
                        let record = Record {
                            index: numbered.index,
                            count: Some(count.count),
                            capped: count.capped,
                            error: None,
                            source,
                        };
                        (record, text)
                    }
                    // A bug shows in this puzzle's record; the batch goes on.
                    Err(internal) => {
                        eprintln!("satdoku: {}: {internal}", describe(&numbered));
                        status.invalid = true;
                        let text = format!("error: {}: {internal}", describe(&numbered));
                        let error = Some(internal.to_string());
                        (Record { index: numbered.index, count: None, capped: false, error, source }, text)
                    }
                }
            }
        };
        match out.format {
            Format::Json => out.json(&record)?,
            Format::Line => out.line(&text)?,
            Format::Grid => out.line(&format!("{}: {text}", describe(&numbered)))?,
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(status)
}
