//! `satdoku dimacs`: the self-describing DIMACS CNF of a puzzle, on stdout, in a file, or one file per puzzle.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;

use satdoku::cnf::{puzzle_cnf, write_cnf, AmoEncoding, PuzzleCnf};
use satdoku::{Alphabet, Encoding, Puzzle, SolveOptions, DEFAULT_MAX_LITERALS};

use super::batch::{for_each_puzzle, STDOUT};
use super::files::{self, OutDir};
use super::{names, GridArgs};

#[derive(Args, Debug)]
pub struct DimacsArgs {
    /// Puzzle files (stdin when none or "-").
    pub files: Vec<PathBuf>,
    /// Write the CNF to FILE instead of stdout.
    #[arg(long, value_name = "FILE", conflicts_with = "out_dir")]
    pub out: Option<PathBuf>,
    /// Write one CNF per puzzle into DIR, as puzzle-0001.cnf, puzzle-0002.cnf, … (needed for several puzzles).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// full (the blank grid plus the givens as unit clauses: the same variables for every
    /// puzzle of a grid), reduced (Kwon & Jain), or propagated (singles, probing and subsets first, then reduced).
    #[arg(long, value_name = "KIND", default_value = "full", value_parser = names::<Encoding>())]
    pub encoding: Encoding,
    /// At-most-one encoding: auto, pairwise, sequential or product.
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = names::<AmoEncoding>())]
    pub amo: AmoEncoding,
    /// Refuse a CNF of more than N literals (all clauses together): the memory it takes.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_LITERALS, value_parser = super::whole::<u64>("a number of literals", 0..=u64::MAX, ""), allow_negative_numbers = true)]
    pub max_literals: u64,
}

pub fn run_dimacs(args: &DimacsArgs, grid: &GridArgs) -> Result<u8> {
    let mut invalid = false;
    let options = SolveOptions {
        encoding: args.encoding,
        amo: args.amo,
        max_literals: args.max_literals,
        ..SolveOptions::default()
    };
    let mut setup = grid.resolve()?;
    let alphabet = setup.alphabet.clone();
    let alphabet = &alphabet;
    let inputs = super::inputs(&args.files, grid);
    let out_dir = match &args.out_dir {
        Some(dir) => Some(OutDir::create("--out-dir", dir, &inputs)?),
        None => None,
    };
    if let Some(out) = &args.out {
        inputs.refuse("--out", out)?;
        files::check_writable(out).map_err(|e| anyhow::anyhow!("--out {e}"))?;
    }
    // Without --out-dir, hold the first puzzle until the input shows it is the only one.
    let mut single: Option<(String, Puzzle)> = None;
    for_each_puzzle(&args.files, &mut setup, |numbered| {
        let name = numbered.describe();
        let puzzle = match numbered.entry.puzzle {
            Ok(puzzle) => puzzle,
            Err(e) => {
                let _ = writeln!(io::stderr(), "satdoku: {e}");
                invalid = true;
                return Ok(());
            }
        };
        if let Some(dir) = &out_dir {
            let file = format!("puzzle-{:04}.cnf", numbered.index);
            // One puzzle too large for a CNF, or whose file is an input
            // file, is reported, and the batch goes on.
            let refused = dir.refuse(&file).map_err(|e| e.to_string());
            match refused.and_then(|()| puzzle_cnf(&puzzle, &options).map_err(|e| e.to_string())) {
                Ok(cnf) => Ok(dir.write(&file, |out| write_puzzle(out, &name, &cnf, alphabet))?),
                Err(e) => {
                    let _ = writeln!(io::stderr(), "satdoku: {name}: {e}");
                    invalid = true;
                    Ok(())
                }
            }
        } else if single.is_some() {
            bail!("{name} is a second puzzle, but a CNF holds one: use --out-dir DIR for one file per puzzle")
        } else {
            single = Some((name, puzzle));
            Ok(())
        }
    })?;
    match (single, &args.out) {
        (Some((name, puzzle)), out) => {
            let cnf = puzzle_cnf(&puzzle, &options).with_context(|| name.clone())?;
            match out {
                Some(path) => {
                    files::write_file("--out", path, &inputs, |out| write_puzzle(out, &name, &cnf, alphabet))?
                }
                None => {
                    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
                    write_puzzle(&mut out, &name, &cnf, alphabet).context(STDOUT)?;
                    out.flush().context(STDOUT)?;
                }
            }
        }
        (None, _) if args.out_dir.is_none() && !invalid => bail!("no puzzle in the input"),
        (None, _) => {}
    }
    Ok(if invalid { 2 } else { 0 })
}

fn write_puzzle(out: &mut impl Write, name: &str, cnf: &PuzzleCnf, alphabet: &Alphabet) -> io::Result<()> {
    if let Some(reason) = &cnf.unsolvable {
        let reason = reason.describe(cnf.puzzle.geometry(), alphabet);
        let _ = writeln!(
            io::stderr(),
            "satdoku: {name}: no solution ({reason}); wrote the full encoding, which solvers find unsatisfiable"
        );
    }
    write_cnf(out, cnf)
}
