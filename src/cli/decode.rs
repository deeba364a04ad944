//! `satdoku decode`: an external solver's answer to a `satdoku dimacs` CNF, back into a verified grid.

use std::fs::File;
use std::io::{self, BufReader};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;

use satdoku::dimacs::{decode_model, read_cnf, read_model, Answer};
use satdoku::format::{self, Format};

use super::{FormatArgs, GridArgs, Output, Status};

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The CNF the model answers, as written by `satdoku dimacs` (its comments describe the puzzle).
    #[arg(long, value_name = "CNF")]
    pub cnf: PathBuf,
    /// The solver's answer: SAT-competition output, a MiniSat result file, or literals (stdin when absent or "-").
    pub model: Option<PathBuf>,
    #[command(flatten)]
    pub format: FormatArgs,
}

#[derive(Serialize)]
struct Record {
    index: usize,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    source: String,
}

pub fn run(args: &DecodeArgs, grid: &GridArgs) -> Result<Status> {
    let (_, alphabet) = grid.resolve()?;
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
    let mut out = Output::new(args.format.format(), alphabet);
    let mut status = Status::default();
    match answer {
        Answer::Unsatisfiable => {
            status.unsolvable = true;
            match out.format {
                Format::Json => out.json(&Record { index: 1, status: "unsolvable", solution: None, source })?,
                Format::Line | Format::Grid => out.line(&format!("unsolvable: {source}"))?,
            }
        }
        Answer::Satisfiable(model) => {
            let grid = decode_model(&cnf, &model, &source)?;
            let line = format::line(&grid, &out.alphabet);
            match out.format {
                Format::Json => out.json(&Record { index: 1, status: "solved", solution: Some(line), source })?,
                Format::Line => out.line(&line)?,
                Format::Grid => {
                    let text = format::pretty(&grid, &cnf.geometry, &out.alphabet);
                    out.text(&text)?;
                }
            }
        }
    }
    out.flush()?;
    Ok(status)
}
