//! Clauses: the encoding of a grid into any clause sink, the variable map,
//! and the DIMACS round trip (a self-describing CNF out, a solver's answer
//! back in, decoded and verified).
//!
//! ```
//! use satdoku::cnf::{puzzle_cnf, read_cnf, read_model, write_cnf, Answer};
//! use satdoku::{read_all, Alphabet, GeometrySpec, SolveOptions};
//!
//! let text = "1.3.....2..4....";
//! let puzzle = read_all(text, "4x4", &Alphabet::default(), &mut GeometrySpec::classic()).remove(0).puzzle?;
//! let mut dimacs = Vec::new();
//! write_cnf(&mut dimacs, &puzzle_cnf(&puzzle, &SolveOptions::default())?)?;
//! // ... an external solver runs on `dimacs` and prints a model; here, varisat:
//! let cnf = read_cnf(&dimacs[..], "puzzle.cnf")?;
//! let mut solver = satdoku::varisat::Solver::new();
//! solver.add_formula(&cnf.formula);
//! assert!(solver.solve()?);
//! let literals: Vec<String> = solver.model().unwrap().iter().map(|l| l.to_dimacs().to_string()).collect();
//! let output = format!("s SATISFIABLE\nv {} 0\n", literals.join(" "));
//! let Answer::Satisfiable(model) = read_model(output.as_bytes(), "solver output", cnf.formula.var_count())? else {
//!     unreachable!("the puzzle has a solution")
//! };
//! let grid = cnf.decode(&model, "solver output")?;
//! assert!(grid.is_complete());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod dimacs;
pub(crate) mod encode;
pub(crate) mod varmap;

pub use crate::pipeline::{puzzle_cnf, PuzzleCnf};
pub use crate::sat::output::{read_model, Answer, ModelError};
pub use crate::sat::Model;
pub use dimacs::{read_cnf, write_cnf, CnfError, CnfFile, VERSION};
pub use encode::{encode_base, encode_full, encode_reduced, AmoEncoding, CnfSize, EncodeOptions};
pub use varmap::VarMap;

use std::time::Instant;

use varisat::{ExtendFormula, Lit, Var};

/// A clause sink that counts what passes through it.
pub(crate) struct Counting<'s, S> {
    sink: &'s mut S,
    pub clauses: usize,
    pub variables: usize,
}

impl<'s, S: ExtendFormula> Counting<'s, S> {
    pub fn new(sink: &'s mut S) -> Self {
        Counting { sink, clauses: 0, variables: 0 }
    }
}

/// A clause sink that stops passing clauses on once `deadline` has passed
/// (read every 4,096 clauses): a formula of millions of clauses is not
/// loaded into a solver that has no time left to search it. Variables still
/// pass, so the variable map stays whole; [`Until::passed`] says whether
/// the formula was cut short.
pub(crate) struct Until<'s, S> {
    sink: &'s mut S,
    deadline: Option<Instant>,
    clauses: usize,
    passed: bool,
}

impl<'s, S: ExtendFormula> Until<'s, S> {
    pub fn new(sink: &'s mut S, deadline: Option<Instant>) -> Self {
        Until { sink, deadline, clauses: 0, passed: false }
    }

    /// Whether the deadline passed before every clause was added.
    pub fn passed(&self) -> bool {
        self.passed
    }
}

impl<S: ExtendFormula> ExtendFormula for Until<'_, S> {
    fn add_clause(&mut self, literals: &[Lit]) {
        if self.passed {
            return;
        }
        self.clauses += 1;
        if self.clauses % 4096 == 0 && self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            self.passed = true;
            return;
        }
        self.sink.add_clause(literals);
    }

    fn new_var(&mut self) -> Var {
        self.sink.new_var()
    }
}

impl<S: ExtendFormula> ExtendFormula for Counting<'_, S> {
    fn add_clause(&mut self, literals: &[Lit]) {
        self.clauses += 1;
        self.sink.add_clause(literals);
    }

    fn new_var(&mut self) -> Var {
        self.variables += 1;
        self.sink.new_var()
    }
}
