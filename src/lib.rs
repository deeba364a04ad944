//! satdoku: Sudoku and its generalizations solved, counted and analyzed by SAT encoding.
//!
//! The pipeline: text is read into a [`Puzzle`] (a [`Geometry`] and its
//! givens); the puzzle is prepared once (its givens propagated as far as the
//! [`Encoding`] asks) and what is left is encoded into CNF; varisat, or an
//! [`ExternalSolver`], solves it; the model is decoded through the variable
//! map and verified against every unit and every given before it is returned.
//!
//! ```
//! use satdoku::{read_all, solve, Alphabet, GeometrySpec, Outcome, SolveOptions};
//!
//! let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let mut spec = GeometrySpec::classic();
//! let entry = read_all(text, "example", &Alphabet::default(), &mut spec).remove(0);
//! let puzzle = entry.puzzle?;
//! match solve(&puzzle, &SolveOptions::default())? {
//!     Outcome::Solved(grid) => println!("{}", satdoku::format::line(&grid, &Alphabet::default())),
//!     Outcome::Unsolvable(reason) => println!("no solution: {reason:?}"),
//!     Outcome::TimedOut => println!("no answer within SolveOptions::timeout"),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every solution of a puzzle, each verified, each once, with [`Search`]:
//!
//! ```
//! use satdoku::{Geometry, Grid, Puzzle, Search, SolveOptions};
//! use std::sync::Arc;
//!
//! // The blank 4×4 grid has 288 solutions.
//! let blank = Puzzle::new(Arc::new(Geometry::classic(4)?), Grid::empty(4)).expect("sizes match");
//! let count = Search::new(&blank, &SolveOptions::default()).count_up_to(1000)?;
//! assert_eq!((count.count, count.capped), (288, false));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod analyze;
pub mod cnf;
mod enumerate;
mod error;
mod explain;
mod generate;
mod model;
mod pipeline;
mod proof;
mod reasoning;
mod rng;
mod sat;
mod solve;
#[cfg(test)]
mod testing;
mod text;
// Unit tests that share the integration tests' checker name the crate as they do.
#[cfg(test)]
extern crate self as satdoku;

pub use analyze::{
    analyze, candidate_counts, propagation, residual, Analysis, AnalyzeOptions, AnalyzeStats, CandidateCount, Link,
    Propagation, Verdict,
};
pub use cnf::AmoEncoding;
pub use enumerate::{count_up_to, Count, Search, Strategy};
pub use error::{printable, GeometryError, GridFileError, InternalError, ParseError, ParseErrorKind, Position, Shift};
pub use explain::{Explainer, Forced};
pub use generate::{
    fewest_proper_givens, random_regions, GenerateError, GenerateOptions, Generated, Generator, GridSampler, Kind,
    Layouts, Minimized, Rng, Symmetry, UniquenessChecker, BOUNDED_FROM_SIDE, QUESTION_CONFLICTS,
};
pub use model::constraints::{Constraint, Line, Relation};
pub use model::domains::Domains;
pub use model::geometry::{Cell, Geometry, Layout, Unit, UnitKind, Value, Variant, MAX_SIZE};
pub use model::puzzle::{GeometrySpec, Grid, Puzzle};
pub use model::verify::{verify, Violation, ViolationText};
pub use pipeline::{Encoding, Prepared, SolveOptions, DEFAULT_MAX_LITERALS};
pub use proof::{check_drat, prove, Certificate, Claim, DratError, DratSummary};
pub use reasoning::propagate::{Contradiction, Step, StepText};
pub use reasoning::steps::{steps, Deduced, Deduction, Level, Stepped};
pub use sat::cleanup::{clean_up_on_signals, clean_up_on_signals_then, exit_cleanly};
pub use sat::external::{ExternalError, ExternalSolver};
pub use sat::varisat::conflicts_so_far;
pub use sat::Claimant;
pub use solve::{solve, solve_with_stats, Guess, Outcome, SolveError, Stats, GUESS_CONFLICTS};
pub use text::decoded::{not_utf8_at, read_text_file, MAX_TEXT_FILE};
pub use text::format;
pub use text::fpuzzles::{
    fpuzzles_json, fpuzzles_value, read_fpuzzles, read_fpuzzles_entries, write_fpuzzles, FpuzzlesError,
};
pub use text::gridfile::{load_grid_file, parse_grid_file};
pub use text::notation::{
    box_side, find_control_character, parse_box_shape, parse_cell_name, parse_region_map, read_region_map, MapPlace,
    RegionMapError,
};
pub use text::picture::Picture;
pub use text::reader::{read_all, Entry, PuzzleReader, MAX_LINE};
pub use text::symbols::Alphabet;
/// The varisat satdoku is built with (0.2.2 with target phases, rephasing,
/// `Solver::set_deadline` and `Solver::set_conflict_limit`, from
/// `vendor/satdoku-varisat`): use it for the formulas and solvers that meet satdoku's.
pub use varisat;

// docs/library.md's examples run as doctests, as the crate's own do.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
struct LibraryGuide;
