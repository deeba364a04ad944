//! SAT back ends behind one seam: varisat in this process, or an external
//! DIMACS solver in another. "Guess, then the whole search" and "confirm an
//! unsatisfiable claim" are written once, over [`Backend`] (in the shape of
//! rustsat's `Solve` trait: a search that ends satisfiable, unsatisfiable or
//! interrupted).

pub(crate) mod cleanup;
pub(crate) mod external;
pub(crate) mod output;
pub(crate) mod portfolio;
pub(crate) mod varisat;

use std::fmt;
use std::time::Instant;

use ::varisat::{Lit, Var};

use crate::model::puzzle::Grid;
use crate::pipeline::Prepared;
use crate::reasoning::pattern::ValueGroups;
use crate::solve::{SolveError, Stats};

/// A variable assignment: the value of each variable of a formula, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    values: Vec<Option<bool>>,
}

impl Model {
    /// The value of `var`, if the model gives it one.
    pub fn value(&self, var: Var) -> Option<bool> {
        self.values.get(var.index()).copied().flatten()
    }

    /// How many variables the model covers.
    pub fn var_count(&self) -> usize {
        self.values.len()
    }

    pub(crate) fn from_values(values: Vec<Option<bool>>) -> Model {
        Model { values }
    }

    /// The model of a solver that lists the literals it made true.
    pub(crate) fn from_lits(lits: &[Lit]) -> Model {
        let count = lits.iter().map(|l| l.index() + 1).max().unwrap_or(0);
        let mut values = vec![None; count];
        for lit in lits {
            values[lit.index()] = Some(lit.is_positive());
        }
        Model { values }
    }
}

/// How one search ended: with the verified grid of a model (`T` = [`Grid`]),
/// or with the model itself (`T` = [`Model`]) before it is decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SatResult<T = Grid> {
    /// A model, or the verified grid it decodes to.
    Sat(T),
    /// No model, by the back end's account (see [`Backend::proved_unsat`]).
    Unsat,
    /// Out of time or conflicts before an answer.
    Interrupted,
}

/// What one search may spend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Limits {
    pub deadline: Option<Instant>,
    /// Conflicts, where the back end counts them (varisat).
    pub conflicts: Option<u64>,
}

/// A SAT back end: searches a prepared puzzle's formula.
pub(crate) trait Backend {
    /// Search the CNF of `prepared`, with `guesses` on top, within `limits`.
    /// Adds the formula's sizes and the time spent to `stats`.
    fn search(
        &mut self,
        prepared: &Prepared,
        guesses: &[ValueGroups],
        limits: Limits,
        stats: &mut Stats,
    ) -> Result<SatResult, SolveError>;

    /// The program that answers, for messages when its claim must be confirmed
    /// or is refuted: `None` when its "unsatisfiable" stands as it is (varisat
    /// in this process).
    fn claimant(&self) -> Option<&str>;

    /// Whether the last "unsatisfiable" came with a proof that satdoku's own
    /// DRAT checker accepted: it then stands without varisat's confirmation.
    fn proved_unsat(&self) -> bool {
        false
    }
}

/// Who says a formula is unsatisfiable: named when the claim is refuted or
/// cannot be confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claimant {
    /// An external solver that satdoku ran (`solve --solver`), as named.
    Program(String),
    /// An answer read from a file or stdin (`decode`), by the name of its source.
    Answer(String),
}

impl Claimant {
    /// Who is wrong when the claim is refuted: `` `cadical` is wrong ``.
    pub(crate) fn is_wrong(&self) -> String {
        match self {
            Claimant::Program(program) => format!("`{program}` is wrong"),
            Claimant::Answer(_) => "the answer is wrong".into(),
        }
    }
}

impl fmt::Display for Claimant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Claimant::Program(program) => write!(f, "`{program}`"),
            Claimant::Answer(source) => write!(f, "the answer in {source}"),
        }
    }
}

/// Confirm a claim of "unsatisfiable" from outside by what varisat found on
/// the same formula: the one policy for such claims (`solve --solver` and
/// `decode`). An unconfirmed claim is never printed as "unsolvable".
pub(crate) fn confirm_unsat(claimant: Claimant, varisat: SatResult) -> Result<(), SolveError> {
    match varisat {
        SatResult::Unsat => Ok(()),
        SatResult::Sat(solution) => Err(SolveError::Refuted { claimant, solution: Box::new(solution) }),
        SatResult::Interrupted => Err(SolveError::Unconfirmed { claimant }),
    }
}
