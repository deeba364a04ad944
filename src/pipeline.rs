//! The pipeline every command walks: a puzzle is prepared once (its givens
//! propagated as far as the encoding asks), encoded into any clause sink, and
//! every model is decoded through the variable map and verified.
//!
//! ```text
//! Puzzle ──Prepared::new──▶ Prepared ──encode──▶ clauses + VarMap ──▶ a SAT back end
//!                                                                       │ model
//!          verified Grid ◀──────────── decode (VarMap, then verify) ◀──┘
//! ```

use std::time::{Duration, Instant};

use varisat::{CnfFormula, ExtendFormula};

use crate::cnf::encode::{encode_full, encode_reduced, AmoEncoding, EncodeOptions};
use crate::cnf::varmap::VarMap;
use crate::error::InternalError;
use crate::model::domains::Domains;
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::ViolationText;
use crate::reasoning::pattern::ValueGroups;
use crate::reasoning::propagate::{find_clash, Contradiction, Propagator};
use crate::sat::Model;

/// How much of the puzzle is settled before the SAT solver sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, strum::EnumString, strum::Display, strum::VariantNames)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum Encoding {
    /// The full extended encoding, givens as unit clauses; no preprocessing.
    Full,
    /// Kwon & Jain's reduced encoding: the givens' values removed from their peers.
    Reduced,
    /// Unit propagation (naked and hidden singles) to the fixpoint, failed-literal
    /// probing, and naked and hidden subsets (all-different filtering) first,
    /// then the reduced encoding of what is left.
    #[default]
    Propagated,
}

/// Options of the pipeline, shared by solving, enumeration, analysis and CNF output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// What is settled before the SAT solver sees the puzzle.
    pub encoding: Encoding,
    /// How at-most-one constraints are written.
    pub amo: AmoEncoding,
    /// Give up on a puzzle after this long. The clock starts before
    /// propagation: probing and subset filtering stop at the limit (what they
    /// removed so far stands), the encoding is skipped once it has passed, and
    /// varisat reads the clock at every conflict; enumeration and analysis
    /// read it as they go. Only the first propagation of the givens, which is
    /// linear in the grid, always runs to its end.
    pub timeout: Option<Duration>,
    /// Whether [`crate::solve`] first looks for a solution shaped like a
    /// shuffled pattern grid, when the known cells show that shape's value
    /// groups; on by default. Enumeration, counting and analysis never guess.
    pub pattern_guess: bool,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions { encoding: Encoding::default(), amo: AmoEncoding::default(), timeout: None, pattern_guess: true }
    }
}

impl SolveOptions {
    /// The moment [`SolveOptions::timeout`] runs out for work started at `start`
    /// (none for a limit too far ahead to represent).
    pub(crate) fn deadline(&self, start: Instant) -> Option<Instant> {
        self.timeout.and_then(|timeout| start.checked_add(timeout))
    }
}

/// Cells of up to this many candidates are probed. Measured on this machine
/// (instructions per puzzle, callgrind): 2 → 3 cuts 17-clue by 8% and
/// magictour-top1465 by 30%; 4 and more cost more than they save.
pub(crate) const PROBE_CANDIDATES: usize = 3;

/// What a preparation is for: how far propagation may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Goal {
    /// One solution: probing may stop at a branch that decides every cell and
    /// keep that model alone.
    One,
    /// Every solution: the candidates left keep every solution's values.
    All,
}

/// A puzzle ready for search: its givens propagated as far as the encoding
/// asks, the candidates left, and the options that say how to encode them.
/// Every command starts from one.
///
/// ```
/// use satdoku::{read_all, Alphabet, GeometrySpec, Prepared, SolveOptions};
///
/// let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// let puzzle = read_all(text, "hard", &Alphabet::default(), &mut GeometrySpec::classic()).remove(0).puzzle?;
/// let prepared = Prepared::new(&puzzle, &SolveOptions::default()).expect("propagation finds no contradiction");
/// let mut formula = satdoku::varisat::CnfFormula::new();
/// let map = prepared.encode(&mut formula);
/// // Only the candidates propagation left have a variable.
/// assert!(map.cell_var_count() < 81 * 9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Prepared {
    puzzle: Puzzle,
    options: SolveOptions,
    /// The encoding actually used: `Full` for a puzzle prepared with
    /// [`Prepared::unpropagated`].
    encoding: Encoding,
    /// The candidates left: at least the givens' values removed from their
    /// peers, so that a search can start from them whatever the encoding.
    domains: Domains,
}

impl Prepared {
    /// Prepare `puzzle` as `options` say, keeping every solution among the
    /// candidates left; or say why it has no solution.
    pub fn new(puzzle: &Puzzle, options: &SolveOptions) -> Result<Prepared, Contradiction> {
        Prepared::for_goal(puzzle, options, Goal::All, None)
    }

    /// Prepare `puzzle` for `goal`, or say why it has no solution. Probing and
    /// subset filtering stop at `deadline`.
    pub(crate) fn for_goal(
        puzzle: &Puzzle,
        options: &SolveOptions,
        goal: Goal,
        deadline: Option<Instant>,
    ) -> Result<Prepared, Contradiction> {
        let (geometry, givens) = (puzzle.geometry(), puzzle.givens());
        let domains = match options.encoding {
            // These encodings leave every contradiction but clashing givens to the solver.
            Encoding::Full | Encoding::Reduced => {
                if let Some(clash) = find_clash(geometry, givens) {
                    return Err(clash);
                }
                // Kwon & Jain: only what the givens exclude directly.
                puzzle.initial_domains()
            }
            Encoding::Propagated => {
                let mut p = Propagator::from_puzzle(puzzle)?;
                p.set_deadline(deadline);
                p.propagate()?;
                if !p.domains().is_solved() {
                    // Failed-literal probing on cells of few candidates: it leaves
                    // most 17-clue puzzles nothing to search.
                    if let Some(model) = p.probe(PROBE_CANDIDATES, goal == Goal::One)? {
                        return Ok(Prepared::with_domains(puzzle, options, model));
                    }
                    // Then naked and hidden subsets of every size, where probing
                    // left the puzzle open: measured neutral on 9×9 (callgrind,
                    // -1% on 17-clue, +4% on forum-hardest), 0.6 s → 0.4 s on
                    // rkkautsar-81-1.
                    if !p.domains().is_solved() {
                        p.propagate_subsets()?;
                    }
                }
                p.into_domains()
            }
        };
        Ok(Prepared::with_domains(puzzle, options, domains))
    }

    /// `puzzle` with nothing settled, for the full encoding: what `satdoku
    /// dimacs` writes for a puzzle that preparation shows unsolvable, so that
    /// any solver can confirm it (a clash leaves no candidates to reduce to).
    pub(crate) fn unpropagated(puzzle: &Puzzle, options: &SolveOptions) -> Prepared {
        let options = SolveOptions { encoding: Encoding::Full, ..*options };
        Prepared::with_domains(puzzle, &options, puzzle.initial_domains())
    }

    fn with_domains(puzzle: &Puzzle, options: &SolveOptions, domains: Domains) -> Prepared {
        Prepared { puzzle: puzzle.clone(), options: *options, encoding: options.encoding, domains }
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The candidates left after preparation.
    pub(crate) fn domains(&self) -> &Domains {
        &self.domains
    }

    /// The verified solution, when propagation decided every cell: propagation
    /// that reaches its fixpoint with every cell decided has found the model
    /// itself, but the verifier still has the last word. The other encodings
    /// leave every puzzle to the solver.
    pub(crate) fn solution(&self) -> Option<Result<Grid, InternalError>> {
        let solved = self.encoding == Encoding::Propagated && self.domains.is_solved();
        solved.then(|| checked(&self.puzzle, self.domains.decided()))
    }

    /// The pattern guesses the cells known before search allow
    /// ([`crate::reasoning::pattern`]): the givens, and for the encodings that
    /// settle cells, the cells they decided.
    pub(crate) fn guesses(&self) -> Vec<ValueGroups> {
        let (geometry, givens) = (self.puzzle.geometry(), self.puzzle.givens());
        match self.encoding {
            Encoding::Full => ValueGroups::find(geometry, givens),
            Encoding::Reduced | Encoding::Propagated => ValueGroups::before_search(geometry, givens, &self.domains),
        }
    }

    /// Write the CNF into `sink` (a solver, a `CnfFormula`, a counter of
    /// clauses); the map of its cell variables.
    pub fn encode(&self, sink: &mut impl ExtendFormula) -> VarMap {
        self.encode_with(&[], sink)
    }

    /// The CNF as a formula of its own.
    pub fn cnf(&self) -> PuzzleCnf {
        self.cnf_with(&[])
    }

    /// Write the CNF into `sink`, with `guesses` on top; the map of its cell variables.
    pub(crate) fn encode_with(&self, guesses: &[ValueGroups], sink: &mut impl ExtendFormula) -> VarMap {
        let (geometry, givens) = (self.puzzle.geometry(), self.puzzle.givens());
        let options = EncodeOptions { amo: self.options.amo };
        let map = match self.encoding {
            Encoding::Full => {
                let map = encode_full(geometry, givens, options, sink);
                // Pencil marks: what a cell may not hold, as unit clauses.
                if let Some(candidates) = self.puzzle.candidates() {
                    for cell in geometry.cells() {
                        let excluded = map.cell_vars(cell).filter(|&(value, _)| !candidates.contains(cell, value));
                        excluded.for_each(|(_, var)| sink.add_clause(&[var.negative()]));
                    }
                }
                map
            }
            Encoding::Reduced | Encoding::Propagated => encode_reduced(geometry, &self.domains, options, sink),
        };
        for groups in guesses {
            groups.encode(geometry, &map, self.options.amo, sink);
        }
        map
    }

    /// The CNF as a formula of its own, with `guesses` on top.
    pub(crate) fn cnf_with(&self, guesses: &[ValueGroups]) -> PuzzleCnf {
        let mut formula = CnfFormula::new();
        let map = self.encode_with(guesses, &mut formula);
        PuzzleCnf {
            puzzle: self.puzzle.clone(),
            formula,
            map,
            encoding: self.encoding,
            amo: self.options.amo,
            unsolvable: None,
            guessed: !guesses.is_empty(),
        }
    }

    /// The verified grid of a model of a CNF this wrote through `map`.
    pub(crate) fn decode(&self, map: &VarMap, model: &Model) -> Result<Grid, InternalError> {
        let grid = map.decode(self.puzzle.geometry(), |v| model.value(v) == Some(true)).map_err(InternalError)?;
        checked(&self.puzzle, grid)
    }
}

/// The CNF of one puzzle as a formula of its own, with what is needed to write
/// it as self-describing DIMACS and to read its models.
pub struct PuzzleCnf {
    /// The puzzle the formula encodes.
    pub puzzle: Puzzle,
    /// The clauses.
    pub formula: CnfFormula,
    /// Which variable is which (cell, value).
    pub map: VarMap,
    /// The encoding actually used: [`Encoding::Full`] when preparation found
    /// the puzzle unsolvable (there are then no candidates to reduce to).
    pub encoding: Encoding,
    /// How the at-most-one constraints were written.
    pub amo: AmoEncoding,
    /// Why the puzzle has no solution, when that is known without search.
    pub unsolvable: Option<Contradiction>,
    /// Whether the formula has a pattern guess on top: its models are the
    /// solutions of the guessed shape only.
    pub guessed: bool,
}

/// The CNF of `puzzle` as `options` say, every solution kept. A puzzle that
/// preparation shows to have no solution gets the full encoding, which any
/// solver can confirm to be unsatisfiable.
pub fn puzzle_cnf(puzzle: &Puzzle, options: &SolveOptions) -> PuzzleCnf {
    match Prepared::new(puzzle, options) {
        Ok(prepared) => prepared.cnf(),
        Err(reason) => PuzzleCnf { unsolvable: Some(reason), ..Prepared::unpropagated(puzzle, options).cnf() },
    }
}

/// Check a grid read from a model before anyone sees it.
pub(crate) fn checked(puzzle: &Puzzle, grid: Grid) -> Result<Grid, InternalError> {
    match puzzle.check(&grid) {
        Ok(()) => Ok(grid),
        Err(v) => Err(InternalError(format!(
            "a model decoded to a grid that is not a solution: {}",
            ViolationText(&v, puzzle.geometry())
        ))),
    }
}
