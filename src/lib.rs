//! satdoku: Sudoku and its generalizations solved, counted and analyzed by SAT encoding.
//!
//! The pipeline: text is parsed into a [`Puzzle`] (a [`Geometry`] and its
//! givens); the givens are propagated and what is left is encoded into CNF;
//! varisat solves it; the model is decoded through the [`VarMap`] and verified
//! against every unit and every given before it is returned.
//!
//! ```
//! use satdoku::{read_all, solve, Alphabet, GeometrySpec, Outcome, SolveOptions};
//!
//! let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let mut spec = GeometrySpec::classic();
//! let entry = read_all(text, "example", &Alphabet::default(), &mut spec).remove(0);
//! let puzzle = entry.puzzle.unwrap();
//! match solve(&puzzle, &SolveOptions::default()).unwrap() {
//!     Outcome::Solved(grid) => println!("{}", satdoku::format::line(&grid, &Alphabet::default())),
//!     Outcome::Unsolvable(reason) => println!("no solution: {reason:?}"),
//!     Outcome::TimedOut => println!("no answer within SolveOptions::timeout"),
//! }
//! ```

pub mod alldiff;
pub mod analyze;
pub mod dimacs;
pub mod encode;
pub mod enumerate;
pub mod error;
pub mod external;
pub mod format;
pub mod geometry;
pub mod gridfile;
pub mod parse;
pub mod pattern;
pub mod propagate;
pub mod puzzle;
pub mod solve;
pub mod symbols;
#[cfg(test)]
mod testing;
pub mod verify;

pub use analyze::{analyze, Analysis, AnalyzeOptions};
pub use encode::{AmoEncoding, VarMap};
pub use enumerate::{count_up_to, Count, Search, Strategy};
pub use error::{GeometryError, GridFileError, InternalError, ParseError, Position};
pub use geometry::{Cell, Geometry, Layout, Unit, UnitKind, Value, Variant};
pub use parse::{read_all, Entry, PuzzleReader};
pub use puzzle::{GeometrySpec, Grid, Puzzle};
pub use solve::{solve, Encoding, Outcome, SolveOptions};
pub use symbols::Alphabet;
/// The varisat satdoku is built with (0.2.2 with target phases, rephasing,
/// `Solver::set_deadline` and `Solver::set_conflict_limit`, from
/// `vendor/varisat`): use it for the formulas and
/// solvers that meet satdoku's.
pub use varisat;
pub use verify::verify;
