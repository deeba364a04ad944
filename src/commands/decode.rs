//! `satdoku decode`: an external solver's answer to a `satdoku dimacs` CNF, back into a verified grid.

use std::fs::File;
use std::io::{self, BufReader};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;

use satdoku::cnf::{read_cnf, read_model, Answer};
use satdoku::{Claimant, Entry};

use super::batch::Numbered;
use super::output::{Body, Emitter, Format, Record, Status};
use super::{parse_timeout, GridArgs};

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The CNF the model answers, as written by `satdoku dimacs` (its comments describe the puzzle).
    #[arg(long, value_name = "CNF")]
    pub cnf: PathBuf,
    /// The solver's answer: SAT-competition output, a MiniSat result file, or literals (stdin when absent or "-").
    pub model: Option<PathBuf>,
    /// line, grid or json (JSON Lines). Default: grid on a terminal, else line.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Give varisat SECS seconds to confirm an "unsatisfiable" answer; an
    /// answer it cannot confirm in time is an error. Default: no limit.
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
}

pub fn run_decode(args: &DecodeArgs, grid: &GridArgs) -> Result<u8> {
    let setup = grid.resolve()?;
    let cnf_name = args.cnf.display().to_string();
    let file = File::open(&args.cnf).with_context(|| format!("{cnf_name}: cannot open"))?;
    let cnf = read_cnf(BufReader::new(file), &cnf_name)?;
    let var_count = cnf.formula.var_count();
    let (answer, source) = match &args.model {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            let file = File::open(path).with_context(|| format!("{name}: cannot open"))?;
            (read_model(BufReader::new(file), &name, var_count)?, name)
        }
        _ => (read_model(io::stdin().lock(), "<stdin>", var_count)?, "<stdin>".to_string()),
    };
    let batch = super::BatchArgs { files: Vec::new(), format: args.format, jobs: None, timeout: None };
    let mut out = Emitter::direct(batch.renderer(&setup));
    let puzzle = cnf.puzzle.clone();
    let position = satdoku::Position { source: source.clone(), line: 0, column: None };
    let numbered = Numbered {
        index: 1,
        entry: Entry { position, name: None, puzzle: Ok(puzzle) },
        read: std::time::Duration::ZERO,
    };
    let record = match answer {
        // A claim, believed only when varisat finds no model either.
        Answer::Unsatisfiable => {
            let deadline = args.timeout.and_then(|timeout| Instant::now().checked_add(timeout));
            match cnf.confirm_unsat(Claimant::Answer(source), deadline) {
                Ok(()) => Record::new(&numbered, Status::Unsolvable),
                Err(e) => Record::failed(&numbered, Status::Error, e),
            }
        }
        Answer::Satisfiable(model) => {
            let grid = cnf.decode(&model, &source)?;
            Record::new(&numbered, Status::Solved).with_body(Body::Solution { grid, number: None })
        }
    };
    out.emit(record).context(super::batch::STDOUT)?;
    out.flush().context(super::batch::STDOUT)?;
    Ok(out.summary.code())
}
