//! `satdoku decode`: an external solver's answer to a `satdoku dimacs` CNF, back into a verified grid.

use std::collections::BTreeSet;
use std::io::{self, BufReader};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;

use satdoku::cnf::{read_cnf, read_model, Answer, CnfFile};
use satdoku::{Claimant, Constraint, Entry, Geometry, GeometrySpec, Variant};

use super::batch::{open_file, Numbered};
use super::output::{Body, ColorChoice, Emitter, Format, Record, Status};
use super::{parse_timeout, GridArgs};

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The CNF the model answers, as written by `satdoku dimacs` (its comments describe the puzzle); "-" for stdin, the model then from a file.
    #[arg(long, value_name = "CNF")]
    pub cnf: PathBuf,
    /// The solver's answer: SAT-competition output, a MiniSat result file, or literals (stdin when absent or "-").
    pub model: Option<PathBuf>,
    /// line, grid, json (JSON Lines), fpuzzles or svg. Default: grid on a terminal, else line.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// With --format svg: write the picture into DIR, as puzzle-0001.svg,
    /// instead of to stdout.
    #[arg(long, value_name = "DIR", requires = "format")]
    pub out_dir: Option<PathBuf>,
    /// Colour in the grid format and messages: auto (on a terminal, unless
    /// NO_COLOR is set), always or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Give varisat SECS seconds to confirm an "unsatisfiable" answer; an
    /// answer it cannot confirm in time is an error. Default: no limit.
    #[arg(long, value_name = "SECS", value_parser = parse_timeout, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
}

pub fn run_decode(args: &DecodeArgs, grid: &GridArgs) -> Result<u8> {
    let mut setup = grid.resolve()?;
    setup.one_fpuzzles_grid()?;
    let model_on_stdin = args.model.as_ref().is_none_or(|path| path.as_os_str() == "-");
    let cnf_on_stdin = args.cnf.as_os_str() == "-";
    let cnf_name = if cnf_on_stdin { "<stdin>".to_string() } else { args.cnf.display().to_string() };
    let cnf = if cnf_on_stdin {
        if model_on_stdin {
            bail!("--cnf - and the answer both on stdin: name a file for one of them (the answer after --cnf)");
        }
        if let Some(why) = super::streams::stdin_unusable() {
            bail!("<stdin>: cannot read: stdin is {why} (expected the CNF on it, for --cnf -)");
        }
        read_cnf(io::stdin().lock(), "<stdin>")?
    } else {
        let file = open_file(&args.cnf).with_context(|| format!("{cnf_name}: cannot open"))?;
        read_cnf(BufReader::new(file), &cnf_name)?
    };

    check_grid_options(grid, &mut setup.spec, &cnf, &cnf_name)?;
    setup.check_alphabet(cnf.puzzle.size())?;
    let var_count = cnf.formula.var_count();
    // An answer that cannot be opened or read is the record's error: the
    // puzzle (the CNF's) is known, so a script still gets its one record.
    let (answer, source) = match &args.model {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            let answer = match open_file(path) {
                Ok(file) => read_model(BufReader::new(file), &name, var_count).map_err(|e| e.to_string()),
                Err(e) => Err(format!("{name}: cannot open: {e}")),
            };
            (answer, name)
        }
        _ => {
            let answer = match super::streams::stdin_unusable() {
                Some(why) => Err(format!("<stdin>: cannot read: stdin is {why} (expected the solver's answer on it)")),
                None => read_model(io::stdin().lock(), "<stdin>", var_count).map_err(|e| e.to_string()),
            };
            (answer, "<stdin>".to_string())
        }
    };
    let read = [Some(args.cnf.clone()), args.model.clone()].into_iter().flatten().collect::<Vec<_>>();
    let inputs = super::inputs(&read, grid);
    let mut out = Emitter::direct(super::renderer(args.format, args.out_dir.as_deref(), args.color, &setup, &inputs)?);
    let puzzle = cnf.puzzle.clone();
    let position = satdoku::Position { source: source.clone(), line: 0, column: None };
    let numbered = Numbered {
        index: 1,
        entry: Entry { position, name: None, puzzle: Ok(puzzle) },
        read: std::time::Duration::ZERO,
        threads: 1,
    };
    let record = match answer {
        Err(e) => Record::failed(&numbered, Status::Invalid, e),
        // A claim, believed only when varisat finds no model either.
        Ok(Answer::Unsatisfiable) => {
            let deadline = args.timeout.and_then(|timeout| Instant::now().checked_add(timeout));
            match cnf.confirm_unsat(Claimant::Answer(source), deadline) {
                Ok(()) => Record::new(&numbered, Status::Unsolvable),
                Err(e) => Record::failed(&numbered, Status::Error, e),
            }
        }
        // A model that breaks the CNF, or decodes to a grid that breaks a
        // rule, is a wrong answer: an error, as a refuted "unsatisfiable"
        // is, never printed as a solution.
        Ok(Answer::Satisfiable(model)) => match cnf.decode(&model, &source) {
            Ok(grid) => Record::new(&numbered, Status::Solved).with_body(Body::Solution { grid, number: None }),
            Err(e) => Record::failed(&numbered, Status::Error, format!("{e:#}")),
        },
    };
    out.emit(record).context(super::batch::STDOUT)?;
    out.flush().context(super::batch::STDOUT)?;
    Ok(out.summary.code())
}

/// The CNF's comments say what grid it is played on. Grid options (but for
/// `--symbols`, which only says how to print) must describe the same rules,
/// units and the rest, or they would be silently ignored: the grid decoded
/// is verified against the CNF's rules, not the options'.
fn check_grid_options(grid: &GridArgs, spec: &mut GeometrySpec, cnf: &CnfFile, cnf_name: &str) -> Result<()> {
    let given = grid.box_shape.is_some()
        || grid.latin
        || grid.regions.is_some()
        || !grid.variants.is_empty()
        || grid.grid.is_some();
    if !given {
        return Ok(());
    }
    let theirs = cnf.puzzle.geometry();
    let hint = "(decode reads the grid from the CNF: give no grid option, or those the CNF was written with)";
    match spec.geometry_for(theirs.size()) {
        Ok(asked) => match rules_apart(&asked, theirs) {
            None => Ok(()),
            Some(apart) => {
                let (theirs, asked) = (theirs.describe(), asked.describe());
                let other = if theirs == asked { format!(" with other {apart}") } else { String::new() };
                bail!(
                    "{cnf_name}: the CNF's comments describe {theirs}, but the grid options ask for {asked}{other} {hint}"
                )
            }
        },
        Err(e) => bail!(
            "{cnf_name}: the CNF's comments describe {}, but the grid options ask for another grid: {e} {hint}",
            theirs.describe()
        ),
    }
}

/// What sets two grids' rules apart, if anything: their units (however
/// described: hyper windows as a variant or as extra units alike), the
/// rules between neighbours (anti-knight, anti-king, non-consecutive), or
/// the clues (killer cages, thermometers, …, in any order).
fn rules_apart(a: &Geometry, b: &Geometry) -> Option<&'static str> {
    let neighbours = |g: &Geometry| -> BTreeSet<Variant> {
        g.variants().iter().copied().filter(|v| v.between_neighbours()).collect()
    };
    let clues = |g: &Geometry| -> Vec<String> {
        let mut texts: Vec<String> = g.constraints().iter().map(|c| canonical(c).text(g.size())).collect();
        texts.sort();
        texts
    };
    if !same_units(a, b) {
        Some("units")
    } else if neighbours(a) != neighbours(b) {
        Some("rules between neighbours")
    } else if clues(a) != clues(b) {
        Some("clues")
    } else {
        None
    }
}

/// A clue with its cells in one order where their order says nothing: a
/// cage's, a sum's, a renban's, the arrow's shaft, the two cells of a dot
/// (every relation of a dot holds either way round), odd and even cells, and
/// a whisper or palindrome read from either end. A thermometer's and a
/// circle's order is the clue.
fn canonical(clue: &Constraint) -> Constraint {
    let mut clue = clue.clone();
    match &mut clue {
        Constraint::Killer { cells, .. }
        | Constraint::LittleKiller { cells, .. }
        | Constraint::Arrow { cells, .. }
        | Constraint::Odd { cells }
        | Constraint::Even { cells }
        | Constraint::Renban { cells } => cells.sort(),
        Constraint::Dot { cells, .. } => cells.sort(),
        Constraint::Whisper { cells } | Constraint::Palindrome { cells } if cells.last() < cells.first() => {
            cells.reverse()
        }
        _ => {}
    }
    clue
}

/// Whether two grids have the same units, however they were described.
fn same_units(a: &Geometry, b: &Geometry) -> bool {
    let units = |g: &Geometry| -> BTreeSet<Vec<satdoku::Cell>> {
        g.units()
            .iter()
            .filter(|unit| !unit.kind().is_implied())
            .map(|unit| {
                let mut cells = unit.cells().to_vec();
                cells.sort();
                cells
            })
            .collect()
    };
    a.size() == b.size() && units(a) == units(b)
}
