//! `satdoku minimize`: remove givens while the puzzle stays unique, until every given left is needed.

use std::cell::RefCell;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;

use satdoku::{
    Alphabet, Cell, Geometry, Grid, InternalError, Puzzle, Rng, Search, SolveError, SolveOptions, UniquenessChecker,
};

use super::batch::{run, Numbered};
use super::output::{Body, Emitter, PuzzleBody, Record, Status};
use super::solve::failure;
use super::{whole, BatchArgs, EncodingArgs, GridArgs};

#[derive(Args, Debug)]
pub struct MinimizeArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Try the givens in a random order drawn from this seed (each puzzle its
    /// own), instead of reading order: different seeds, different minimal puzzles.
    #[arg(long, value_name = "S", value_parser = whole::<u64>("a seed", 0..=u64::MAX, ""), allow_negative_numbers = true)]
    pub seed: Option<u64>,
}

thread_local! {
    /// One incremental solver per geometry and thread.
    static CHECKERS: RefCell<Vec<UniquenessChecker>> = const { RefCell::new(Vec::new()) };
}

/// The checker of `puzzle`'s geometry on this thread, with `solution` loaded
/// and every question it is asked answered by `deadline` (each caller gives
/// its own: the checker outlives them, and `--redundant` once ran without one).
/// A checker whose formula would be past `max_literals` is refused before it is built.
pub fn with_checker<T>(
    puzzle: &Puzzle,
    solution: &Grid,
    (deadline, max_literals): (Option<std::time::Instant>, u64),
    f: impl FnOnce(&mut UniquenessChecker) -> Result<T, SolveError>,
) -> Result<T, SolveError> {
    CHECKERS.with(|checkers| {
        let mut checkers = checkers.borrow_mut();
        let i = match checkers.iter().position(|c| **c.geometry() == **puzzle.geometry()) {
            Some(i) => i,
            None => {
                let geometry = Arc::clone(puzzle.geometry());
                checkers.push(UniquenessChecker::with_limits(geometry, deadline, max_literals)?);
                checkers.len() - 1
            }
        };
        let checker = &mut checkers[i];
        checker.set_deadline(deadline);
        checker.set_solution(solution)?;
        f(checker)
    })
}

/// The uniqueness checker's answer checked another way, as `generate`
/// checks its puzzles: the enumeration (propagation, branching and a solver
/// of its own) finds `givens` to have `solution` and no other. `what` names
/// the puzzle in the error.
pub fn confirm_unique(
    geometry: &Arc<Geometry>,
    givens: Grid,
    solution: &Grid,
    options: &SolveOptions,
    what: &str,
) -> Result<(), SolveError> {
    let puzzle = Puzzle::new(Arc::clone(geometry), givens).expect("the puzzle's own geometry");
    let found: Vec<Grid> = Search::new(&puzzle, options).take(2).collect::<Result<_, _>>()?;
    match found.as_slice() {
        [one] if one == solution => Ok(()),
        _ => Err(InternalError(format!("{what} has {} solutions by enumeration", found.len())).into()),
    }
}

/// The one solution of `puzzle`; otherwise the record that says why not.
pub fn unique_solution<'a>(
    puzzle: &Puzzle,
    numbered: &'a Numbered,
    batch: &BatchArgs,
    options: &SolveOptions,
    alphabet: &Alphabet,
) -> Result<Grid, Box<Record<'a>>> {
    let mut search = Search::new(puzzle, options);
    let found: Result<Vec<Grid>, SolveError> = search.by_ref().take(2).collect();
    match found {
        Err(e) => Err(Box::new(failure(batch, numbered, e))),
        Ok(found) if found.len() == 1 => Ok(found.into_iter().next().expect("one")),
        // Why, where propagation showed it, as `solve` says.
        Ok(found) if found.is_empty() => Err(Box::new(Record::unsolvable(numbered, search.reason(), alphabet))),
        Ok(_) => Err(Box::new(Record {
            reason: Some("more than one solution: only a unique puzzle has givens to spare".into()),
            ..Record::new(numbered, Status::Multiple)
        })),
    }
}

/// The time left before `deadline`, as a timeout (at least a nanosecond:
/// none would mean no limit).
pub fn remaining(deadline: Option<std::time::Instant>) -> Option<std::time::Duration> {
    deadline.map(|d| d.saturating_duration_since(std::time::Instant::now()).max(std::time::Duration::from_nanos(1)))
}

pub fn run_minimize(args: &MinimizeArgs, grid: &GridArgs) -> Result<u8> {
    let mut setup = args.batch.setup(grid)?;
    let renderer = args.batch.renderer(&setup, &super::inputs(&args.batch.files, grid))?;
    let summary = run(&args.batch.files, &mut setup, renderer, args.batch.jobs(), |numbered, out| {
        let puzzle = match &numbered.entry.puzzle {
            Ok(puzzle) => puzzle,
            Err(e) => return out.emit(Record::failed(numbered, Status::Invalid, e)),
        };
        minimize_one(args, numbered, puzzle, out)
    })?;
    Ok(summary.code())
}

fn minimize_one(args: &MinimizeArgs, numbered: &Numbered, puzzle: &Puzzle, out: &mut Emitter) -> std::io::Result<()> {
    if puzzle.candidates().is_some() {
        let error = "pencil marks: minimize removes givens of puzzles without candidate lists";
        return out.emit(Record::failed(numbered, Status::Error, error));
    }
    // One limit for the whole puzzle, from here: the search for its
    // solution, the checker's formula and the questions put to it.
    let start = std::time::Instant::now();
    let deadline = args.batch.timeout.and_then(|t| start.checked_add(t));
    let max_literals = args.encoding.max_literals;
    // Removing givens takes the blank grid's whole formula, whatever
    // propagation leaves of the puzzle's: refused first, before the search.
    if let Err(e) = UniquenessChecker::check_size(puzzle.geometry(), max_literals, deadline) {
        return out.emit(failure(&args.batch, numbered, e));
    }
    let options = SolveOptions { timeout: remaining(deadline), ..args.encoding.options(&args.batch) };
    let solution = match unique_solution(puzzle, numbered, &args.batch, &options, &out.renderer.alphabet) {
        Ok(solution) => solution,
        Err(record) => return out.emit(*record),
    };
    let mut givens: Vec<Vec<Cell>> = puzzle.givens().filled().map(|(cell, _)| vec![cell]).collect();
    if let Some(seed) = args.seed {
        Rng::for_item(seed, numbered.index as u64).shuffle(&mut givens);
    }
    let kept = match with_checker(puzzle, &solution, (deadline, max_literals), |checker| checker.minimize(&givens)) {
        Ok(kept) => kept,
        Err(e) => return out.emit(failure(&args.batch, numbered, e)),
    };
    let mut minimal = Grid::empty(puzzle.size());
    for &cell in kept.iter().flatten() {
        minimal.set(cell, solution.get(cell));
    }
    let options = SolveOptions { timeout: remaining(deadline), ..options };
    if let Err(e) = confirm_unique(puzzle.geometry(), minimal.clone(), &solution, &options, "the minimized puzzle") {
        return out.emit(failure(&args.batch, numbered, e));
    }
    let removed = givens.len() - kept.len();
    if args.encoding.stats {
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let geometry = puzzle.geometry().describe();
        let kept = kept.len();
        out.note(&format!(
            "{}: {geometry}: {kept} of {} givens kept in {ms:.3} ms",
            numbered.describe(),
            givens.len()
        ))?;
    }
    let body = PuzzleBody { puzzle: minimal, solution, seed: None, removed: Some(removed), minimal: None };
    out.emit(Record::new(numbered, Status::Unique).with_body(Body::Puzzle(Box::new(body))))
}
