//! `satdoku explain`: why a puzzle has no solution (a minimal set of givens
//! with none together), and why a cell is forced (`--cell`).

use anyhow::{bail, Result};
use clap::Args;

use satdoku::{parse_cell_name, Explainer, SolveError};

use super::batch::run;
use super::output::{Body, Record, Status};
use super::solve::failure;
use super::{BatchArgs, EncodingArgs, GridArgs};

#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Also say why this cell (e.g. r1c2) is forced: a minimal set of givens
    /// under which it can hold nothing else. Repeatable.
    #[arg(long, value_name = "CELL")]
    pub cell: Vec<String>,
}

pub fn run_explain(args: &ExplainArgs, grid: &GridArgs) -> Result<u8> {
    let mut setup = args.batch.setup(grid)?;
    let renderer = args.batch.renderer(&setup, &super::inputs(&args.batch.files, grid))?;
    let options = args.encoding.options(&args.batch);
    for name in &args.cell {
        // The grid's size is known only per puzzle, which says whether the
        // numbers fit it (r1c99999999999999999999 too); the form is checked here.
        if !has_cell_form(name) {
            bail!("--cell {name}: expected a cell such as r1c2");
        }
    }
    let summary = run(&args.batch.files, &mut setup, renderer, args.batch.jobs(), |numbered, out| {
        let puzzle = match &numbered.entry.puzzle {
            Ok(p) => p,
            Err(e) => return out.emit(Record::failed(numbered, Status::Invalid, e)),
        };
        // The marks would be rules that no printed set of givens shows: the
        // empty set "has no solution" where the marks alone have none.
        if puzzle.candidates().is_some() {
            let error = "pencil marks: explain names givens of puzzles without candidate lists";
            return out.emit(Record::failed(numbered, Status::Error, error));
        }
        let n = puzzle.size();
        let mut cells = Vec::new();
        for name in &args.cell {
            match parse_cell_name(name, n) {
                // A cell named twice (`r1c1`, `R1C1`) is answered once.
                Some(cell) if cells.contains(&cell) => {}
                Some(cell) => cells.push(cell),
                None => {
                    let error = format!("--cell {name}: not a cell of this {n}x{n} grid (rows and columns 1-{n})");
                    return out.emit(Record::failed(numbered, Status::Invalid, error));
                }
            }
        }
        let start = std::time::Instant::now();
        let explained = (|| -> Result<_, SolveError> {
            let mut explainer = Explainer::new(puzzle, &options, start)?;
            let core = explainer.conflicting_givens()?;
            let mut forced = Vec::new();
            if core.is_none() {
                for &cell in &cells {
                    forced.push((cell, explainer.forcing_givens(cell)?));
                }
            }
            Ok((core, forced))
        })();
        let (core, forced) = match explained {
            Ok(found) => found,
            Err(e) => return out.emit(failure(&args.batch, numbered, e)),
        };
        if args.encoding.stats {
            let ms = start.elapsed().as_secs_f64() * 1e3;
            let what = match &core {
                Some(core) => format!("{} givens clash", core.len()),
                None => format!("{} cells explained", forced.len()),
            };
            out.note(&format!("{}: {}: {what} in {ms:.3} ms", numbered.describe(), puzzle.geometry().describe()))?;
        }
        let status = if core.is_some() { Status::Unsolvable } else { Status::Solved };
        out.emit(Record::new(numbered, status).with_body(Body::Explanation { core, forced }))
    })?;
    Ok(summary.code())
}

/// Whether `name` is written as a cell is, `r` and digits, `c` and digits,
/// whatever the numbers.
fn has_cell_form(name: &str) -> bool {
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let rest = name.strip_prefix(['r', 'R']);
    rest.and_then(|rest| rest.split_once(['c', 'C'])).is_some_and(|(row, col)| digits(row) && digits(col))
}
