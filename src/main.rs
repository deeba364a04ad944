//! The satdoku command line: arguments in, library calls, records out, exit code.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use cli::GridArgs;

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
    Solve(cli::solve::SolveArgs),
    /// Count the solutions of every puzzle (--max N caps the count).
    Count(cli::count::CountArgs),
    /// Write the DIMACS CNF of a puzzle.
    Dimacs(cli::dimacs::DimacsArgs),
    /// Read an external SAT solver's answer back into a grid.
    Decode(cli::decode::DecodeArgs),
    /// The cells fixed in every solution, and the candidates of the rest.
    Analyze(cli::analyze::AnalyzeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Solve(args) => cli::solve::run(args, &cli.grid),
        Command::Count(args) => cli::count::run(args, &cli.grid),
        Command::Dimacs(args) => cli::dimacs::run(args, &cli.grid),
        Command::Decode(args) => cli::decode::run(args, &cli.grid),
        Command::Analyze(args) => cli::analyze::run(args, &cli.grid),
    };
    match result {
        Ok(status) => ExitCode::from(status.code()),
        Err(e) if cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("satdoku: {e:#}");
            ExitCode::from(2)
        }
    }
}
