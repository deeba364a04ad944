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

use crate::cnf::encode::{
    base_size, encode_full_until, encode_reduced_until, reduced_size, AmoEncoding, CnfSize, EncodeOptions,
};
use crate::cnf::varmap::VarMap;
use crate::error::InternalError;
use crate::model::domains::Domains;
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::ViolationText;
use crate::reasoning::pattern::ValueGroups;
use crate::reasoning::propagate::{find_clash, Contradiction, Propagator};
use crate::reasoning::small;
use crate::sat::Model;
use crate::solve::SolveError;

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
    /// Whether [`crate::solve()`] first looks for a solution shaped like a
    /// shuffled pattern grid, when the known cells show that shape's value
    /// groups; on by default. Enumeration, counting and analysis never guess.
    pub pattern_guess: bool,
    /// The largest CNF encoded, in literals over all its clauses: a puzzle
    /// whose CNF would be larger is refused with [`SolveError::TooLarge`]
    /// before anything is allocated for it. The default,
    /// [`DEFAULT_MAX_LITERALS`], keeps varisat within about 2 GB.
    pub max_literals: u64,
    /// How many differently seeded varisat solvers race on a puzzle's search
    /// in [`crate::solve()`], one thread each: the first verified answer wins
    /// and the others are stopped at once. 1, the default, is one solver on
    /// the calling thread. Each solver holds its own copy of the formula, so
    /// memory grows with it. Enumeration, counting, analysis and an external
    /// solver search with one.
    pub portfolio: usize,
    /// Seeds the randomized parts of [`crate::solve()`]: the fill of sparse
    /// grids and the racers' decision orders. The same seed gives the same
    /// answer; another seed may give another solution (random full grids
    /// for a generator).
    pub seed: u64,
}

/// The default of [`SolveOptions::max_literals`]: 100 million. varisat holds
/// a formula in about 20 bytes a literal (blank 100×100 Latin: 20.4 million
/// literals, 0.44 GB once loaded and searching), a `CnfFormula` in about 11.
/// The largest formula the shared instances need is rkkautsar-225-1's, 7.8
/// million; the full encoding of a blank 144×144, 82 million.
pub const DEFAULT_MAX_LITERALS: u64 = 100_000_000;

/// Whether `candidates` are far past what `max_literals` lets be encoded, and
/// many: a grid refused as it is, without probing or subset filtering, which
/// would take minutes on a blank 1000×1000 (a billion candidates) for a
/// formula that is refused anyway. Up to 2²⁰ candidates (a blank 100×100)
/// they are cheap, and a puzzle they settle needs no formula, whatever the
/// limit: `--max-literals 100` refused a 9×9 that probing solves.
fn past_encoding(candidates: u64, max_literals: u64) -> bool {
    candidates / 2 > max_literals && candidates > 1 << 20
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            encoding: Encoding::default(),
            amo: AmoEncoding::default(),
            timeout: None,
            pattern_guess: true,
            max_literals: DEFAULT_MAX_LITERALS,
            portfolio: 1,
            seed: 0,
        }
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
    /// Every solution, for the bitset search of [`crate::Strategy::Branch`]:
    /// as [`Goal::All`], but on grids up to 9×9 singles only.
    Branch,
}

/// A count or an encoding the deadline stopped before its end.
#[derive(Debug)]
pub(crate) struct Late;

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
                let stop_at_model = goal == Goal::One && !geometry.has_constraints();
                // The bitset search refutes a failed literal as a dead end in about
                // a microsecond on a 9×9, less than probing costs: without probing
                // and subsets, `count --max 1000` on serg-benchmark runs 27% fewer
                // instructions (callgrind), 17-clue, forum-hardest and magictour
                // run faster too. On larger grids a dead end costs more and probing
                // pays (Kwon & Jain's table6-1, 36×36: 0.26 s without, 0.00 s with).
                let singles_only = goal == Goal::Branch && geometry.size() <= 9;
                let probe = if singles_only { 0 } else { PROBE_CANDIDATES };
                // Small grids: the same deductions on one word a cell (half the
                // instructions of a 17-clue batch); a contradiction is worded by
                // the general propagator below, which reaches the same fixpoint.
                let hopeless = past_encoding((geometry.cell_count() * geometry.size()) as u64, options.max_literals);
                let small = match hopeless {
                    false => small::prepare(puzzle, probe, stop_at_model, deadline),
                    true => None,
                };
                match small {
                    Some(small::Found::Model(model)) => return Ok(Prepared::with_domains(puzzle, options, model)),
                    Some(small::Found::Open(domains)) if domains.is_solved() || singles_only => {
                        return Ok(Prepared::with_domains(puzzle, options, domains))
                    }
                    Some(small::Found::Open(domains)) => {
                        let mut p = Propagator::with_domains(geometry, domains);
                        p.set_deadline(deadline);
                        p.propagate_subsets()?;
                        return Ok(Prepared::with_domains(puzzle, options, p.into_domains()));
                    }
                    Some(small::Found::Refuted) | None => {}
                }
                let mut p = Propagator::from_puzzle(puzzle)?;
                p.set_deadline(deadline);
                p.propagate()?;
                // A grid whose candidates alone are far past what can be encoded
                // (a blank 1000×1000 has a billion) is refused as it is: subset
                // filtering would take minutes to shave off a few.
                let left: u64 = geometry.cells().map(|c| p.domains().count(c) as u64).sum();
                let hopeless = past_encoding(left, options.max_literals);
                if !p.domains().is_solved() && !hopeless && !singles_only {
                    // Failed-literal probing on cells of few candidates: it leaves
                    // most 17-clue puzzles nothing to search.
                    // A model of the units alone may break a variant
                    // constraint: with those, probing only removes candidates
                    // (which the units alone refute, so every solution keeps its values).
                    if let Some(model) = p.probe(PROBE_CANDIDATES, stop_at_model)? {
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
        // Propagation sees the units only: where variant constraints may
        // still refute the one grid left, the solver (whose CNF has them) decides.
        if solved && self.puzzle.geometry().has_constraints() && self.puzzle.check(&self.domains.decided()).is_err() {
            return None;
        }
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
        self.encode_with(&[], sink, None).expect("no deadline: never cut short")
    }

    /// The CNF as a formula of its own.
    pub fn cnf(&self) -> PuzzleCnf {
        self.cnf_with(&[])
    }

    /// Write the CNF into `sink`, with `guesses` on top; the map of its cell
    /// variables, or `None` when a clue whose encoding takes seconds to build
    /// stopped at `deadline` (the sink's formula then lacks its clauses).
    pub(crate) fn encode_with(
        &self,
        guesses: &[ValueGroups],
        sink: &mut impl ExtendFormula,
        deadline: Option<Instant>,
    ) -> Option<VarMap> {
        let (geometry, givens) = (self.puzzle.geometry(), self.puzzle.givens());
        let options = EncodeOptions { amo: self.options.amo };
        let map = match self.encoding {
            Encoding::Full => {
                let map = encode_full_until(geometry, givens, options, deadline, sink)?;
                // Pencil marks: what a cell may not hold, as unit clauses.
                if let Some(candidates) = self.puzzle.candidates() {
                    for cell in geometry.cells() {
                        let excluded = map.cell_vars(cell).filter(|&(value, _)| !candidates.contains(cell, value));
                        excluded.for_each(|(_, var)| sink.add_clause(&[var.negative()]));
                    }
                }
                map
            }
            Encoding::Reduced | Encoding::Propagated => {
                encode_reduced_until(geometry, &self.domains, options, deadline, sink)?
            }
        };
        for groups in guesses {
            groups.encode(geometry, &map, self.options.amo, sink);
        }
        Some(map)
    }

    /// The CNF as a formula of its own, with `guesses` on top.
    pub(crate) fn cnf_with(&self, guesses: &[ValueGroups]) -> PuzzleCnf {
        self.cnf_until(guesses, None).expect("no deadline: never cut short")
    }

    /// [`Prepared::cnf_with`], or `None` when `deadline` cut it short (see
    /// [`Prepared::encode_with`]).
    pub(crate) fn cnf_until(&self, guesses: &[ValueGroups], deadline: Option<Instant>) -> Option<PuzzleCnf> {
        let mut formula = CnfFormula::new();
        let map = self.encode_with(guesses, &mut formula, deadline)?;
        Some(PuzzleCnf {
            puzzle: self.puzzle.clone(),
            formula,
            map,
            encoding: self.encoding,
            amo: self.options.amo,
            unsolvable: None,
            guessed: !guesses.is_empty(),
        })
    }

    /// The size of the CNF [`Prepared::encode`] writes, counted without writing it.
    pub fn cnf_size(&self) -> CnfSize {
        self.size_within(u64::MAX, None).expect("no deadline: never cut short").0
    }

    /// [`Prepared::cnf_size`], the count stopped once past `budget` literals:
    /// the size, and whether it is only a floor; [`Late`] when `deadline`
    /// stopped it first.
    fn size_within(&self, budget: u64, deadline: Option<Instant>) -> Result<(CnfSize, bool), Late> {
        let (geometry, options) = (self.puzzle.geometry(), EncodeOptions { amo: self.options.amo });
        match self.encoding {
            Encoding::Full => {
                let sizer = base_size(geometry, options, budget, deadline);
                let mut size = sizer.size;
                // The givens' unit clauses, and the pencil marks'.
                let excluded = self
                    .puzzle
                    .candidates()
                    .map_or(0, |c| geometry.cells().map(|cell| (geometry.size() - c.count(cell)) as u64).sum::<u64>());
                let units = self.puzzle.givens().filled_count() as u64 + excluded;
                size.clauses += units;
                size.literals += units;
                if sizer.late {
                    return Err(Late);
                }
                Ok((size, sizer.stopped))
            }
            Encoding::Reduced | Encoding::Propagated => {
                let sizer = reduced_size(geometry, &self.domains, options, budget, deadline);
                match sizer.late {
                    true => Err(Late),
                    false => Ok((sizer.size, sizer.stopped)),
                }
            }
        }
    }

    /// Refuse a CNF past [`SolveOptions::max_literals`], before it is written.
    pub(crate) fn check_size(&self) -> Result<(), SolveError> {
        self.check_size_until(None)
    }

    /// [`Prepared::check_size`], given up at `deadline`: counting a clue's
    /// encoding can take as long as writing it.
    pub(crate) fn check_size_until(&self, deadline: Option<Instant>) -> Result<(), SolveError> {
        self.check_size_with(CnfSize::default(), deadline)
    }

    /// [`Prepared::check_size_until`] for the CNF with `extra` clauses on
    /// top (a proof's claim: a blocking clause per solution of a count).
    pub(crate) fn check_size_with(&self, extra: CnfSize, deadline: Option<Instant>) -> Result<(), SolveError> {
        let (geometry, limit) = (self.puzzle.geometry(), self.options.max_literals);
        let n = geometry.size() as u64;
        // Cheap first: each variable is in its cell's clauses and its units',
        // at most 1 + 2n literals in each (an at-least-one and an at-most-one).
        let variables: u64 = match self.encoding {
            Encoding::Full => n * n * n,
            _ => geometry.cells().map(|c| self.domains.count(c) as u64).filter(|&k| k > 1).sum(),
        };
        let units = geometry.cells().map(|c| geometry.units_of(c).len() as u64).max().unwrap_or(0);
        // (The bound counts unit clauses only: variant constraints are counted exactly.)
        let bound = variables.saturating_mul(1 + 2 * n).saturating_mul(1 + units).saturating_add(extra.literals);
        if bound <= limit && !geometry.has_constraints() {
            return Ok(());
        }
        // Then exactly, when the variables alone do not settle it; a count
        // past the limit stops there (a sum clue's automaton on a 225×225
        // took gigabytes to count, and once aborted on memory).
        let size = match variables > limit {
            // The formula alone is past the limit: said as without a claim.
            true => CnfSize { variables, clauses: 0, literals: variables },
            false => match self.size_within(limit.saturating_sub(extra.literals), deadline) {
                Err(Late) => return Err(SolveError::TimedOut),
                Ok((mut size, false)) => {
                    size.add(extra);
                    size
                }
                Ok((size, true)) => CnfSize { variables: 0, clauses: 0, literals: size.literals + extra.literals },
            },
        };
        match size.literals > limit {
            // Past the deadline, preparation may have stopped short of its
            // end and left more candidates than it would have: a refusal on
            // their count would blame the size for what the clock did
            // (`count --timeout 0.01` on a blank 256×256 said "too large",
            // and answers in 1.4 s without the limit).
            true if deadline.is_some_and(|d| Instant::now() >= d) => Err(SolveError::TimedOut),
            true => Err(SolveError::TooLarge { size, limit }),
            false => Ok(()),
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
/// solver can confirm to be unsatisfiable. Refused past
/// [`SolveOptions::max_literals`].
pub fn puzzle_cnf(puzzle: &Puzzle, options: &SolveOptions) -> Result<PuzzleCnf, SolveError> {
    let (prepared, unsolvable) = match Prepared::new(puzzle, options) {
        Ok(prepared) => (prepared, None),
        Err(reason) => (Prepared::unpropagated(puzzle, options), Some(reason)),
    };
    prepared.check_size()?;
    Ok(PuzzleCnf { unsolvable, ..prepared.cnf() })
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;
    use crate::cnf::Counting;
    use crate::model::geometry::{Geometry, Layout, Value};

    proptest! {
        /// The size counted without writing is the size written: for every
        /// encoding and at-most-one kind, givens, pencil marks, 4×4 to 16×16.
        #[test]
        fn the_size_counted_is_the_size_written(
            kind in 0..4usize,
            seed: u64,
            encoding in prop::sample::select(vec![Encoding::Full, Encoding::Reduced, Encoding::Propagated]),
            amo in prop::sample::select(vec![AmoEncoding::Auto, AmoEncoding::Pairwise, AmoEncoding::Sequential, AmoEncoding::Product]),
        ) {
            let n = [4, 6, 9, 16][kind];
            let geometry = Arc::new(Geometry::classic(n).unwrap());
            let mut next = crate::testing::xorshift(seed);
            // A few givens from the pattern grid, and pencil marks that keep it.
            let Layout::Boxes { rows, cols } = *geometry.layout() else { unreachable!("classic grids have boxes") };
            let value = crate::testing::pattern(n, rows, cols);
            let mut givens = Grid::empty(n);
            let mut candidates = Domains::full(n);
            for cell in geometry.cells() {
                let (r, c) = geometry.row_col(cell);
                let solution = Value::from_index(value(r, c));
                match next() % 8 {
                    0 => givens.set(cell, Some(solution)),
                    1 => Value::all(n).filter(|&v| v != solution && next() % 2 == 0).for_each(|v| {
                        candidates.remove(cell, v);
                    }),
                    _ => {}
                }
            }
            let puzzle = Puzzle::with_candidates(Arc::clone(&geometry), givens, candidates).unwrap();
            let options = SolveOptions { encoding, amo, ..SolveOptions::default() };
            let prepared = Prepared::new(&puzzle, &options).expect("the pattern grid solves it");
            let mut formula = CnfFormula::new();
            let mut counting = Counting::new(&mut formula);
            prepared.encode(&mut counting);
            let (variables, clauses) = (counting.variables as u64, counting.clauses as u64);
            let literals: u64 = formula.iter().map(|c| c.len() as u64).sum();
            prop_assert_eq!(prepared.cnf_size(), CnfSize { variables, clauses, literals });
        }
    }

    /// With variant constraints too: the examples, every encoding and at-most-one kind.
    #[test]
    fn the_size_counted_is_the_size_written_with_variant_constraints() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("encodings/variants");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            seen += 1;
            let geometry = crate::text::gridfile::load_grid_file(&path).unwrap();
            let givens = std::fs::read_to_string(path.with_extension("txt")).unwrap();
            let cells = givens.trim().chars().map(|c| c.to_digit(10).and_then(|d| Value::new_checked(d as usize, 9)));
            let puzzle = Puzzle::new(Arc::new(geometry), Grid::from_cells(9, cells.collect()).unwrap()).unwrap();
            for encoding in [Encoding::Full, Encoding::Reduced, Encoding::Propagated] {
                for amo in [AmoEncoding::Pairwise, AmoEncoding::Sequential, AmoEncoding::Product] {
                    let options = SolveOptions { encoding, amo, ..SolveOptions::default() };
                    let prepared = Prepared::new(&puzzle, &options).unwrap();
                    let mut formula = CnfFormula::new();
                    let mut counting = Counting::new(&mut formula);
                    prepared.encode(&mut counting);
                    let (variables, clauses) = (counting.variables as u64, counting.clauses as u64);
                    let literals: u64 = formula.iter().map(|c| c.len() as u64).sum();
                    let written = CnfSize { variables, clauses, literals };
                    assert_eq!(prepared.cnf_size(), written, "{} {encoding} {amo}", path.display());
                }
            }
        }
        assert!(seen >= 5);
    }

    #[test]
    fn a_cnf_past_the_limit_is_refused_before_it_is_written() {
        let blank = Puzzle::new(Arc::new(Geometry::classic(9).unwrap()), Grid::empty(9)).unwrap();
        let prepared = Prepared::new(&blank, &SolveOptions::default()).unwrap();
        let literals = prepared.cnf_size().literals;
        let tight = SolveOptions { max_literals: literals - 1, ..SolveOptions::default() };
        let refused = Prepared::new(&blank, &tight).unwrap().check_size();
        assert!(matches!(refused, Err(SolveError::TooLarge { limit, .. }) if limit == literals - 1), "{refused:?}");
        let enough = SolveOptions { max_literals: literals, ..SolveOptions::default() };
        assert!(Prepared::new(&blank, &enough).unwrap().check_size().is_ok());
    }
}
