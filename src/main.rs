//! The satdoku command line: arguments in, library calls, records out, exit code.

mod commands;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use commands::GridArgs;

/// Sudoku and its generalizations, solved by SAT: any size, boxes of R×C,
/// Latin squares, jigsaw regions, X and hyper variants.
#[derive(Parser, Debug)]
#[command(name = "satdoku", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    grid: GridArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve every puzzle (stdin when no FILE or "-").
    Solve(commands::solve::SolveArgs),
    /// Count the solutions of every puzzle (--max N caps the count).
    Count(commands::count::CountArgs),
    /// Write the DIMACS CNF of a puzzle.
    Dimacs(commands::dimacs::DimacsArgs),
    /// Read an external SAT solver's answer back into a grid.
    Decode(commands::decode::DecodeArgs),
    /// The cells fixed in every solution, and the candidates of the rest.
    Analyze(commands::analyze::AnalyzeArgs),
    /// Why a puzzle has no solution (a minimal set of givens), or why a cell is forced.
    Explain(commands::explain::ExplainArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Solve(args) => commands::solve::run_solve(args, &cli.grid),
        Command::Count(args) => commands::count::run_count(args, &cli.grid),
        Command::Dimacs(args) => commands::dimacs::run_dimacs(args, &cli.grid),
        Command::Decode(args) => commands::decode::run_decode(args, &cli.grid),
        Command::Analyze(args) => commands::analyze::run_analyze(args, &cli.grid),
        Command::Explain(args) => commands::explain::run_explain(args, &cli.grid),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if commands::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed stderr has nowhere to say so; the exit code still does.
            let _ = writeln!(std::io::stderr(), "satdoku: {e:#}");
            ExitCode::from(2)
        }
    }
}
