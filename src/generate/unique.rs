//! Uniqueness under givens as assumptions: one incremental varisat solver
//! per geometry holds the blank grid's encoding; a solution is loaded as one
//! clause "some cell differs from it", and each question "is the solution
//! unique under these givens?" is one solve under the givens as assumptions.
//! Minimising a puzzle and finding its redundant givens both ask it.
//!
//! A question may be bounded by a number of conflicts: past it, it is left
//! unanswered, and callers take the answer that keeps the puzzle unique (the
//! given stays). Bounded answers depend on what the solver learnt before,
//! so a caller that wants the same answers whatever was asked before starts
//! from a fresh solver ([`UniquenessChecker::forget`]).

use std::sync::Arc;
use std::time::Instant;

use varisat::{ExtendFormula, Lit, Solver};

use crate::cnf::encode::{base_size, encode_base, encode_base_until, CnfSize, EncodeOptions};
use crate::cnf::varmap::VarMap;
use crate::cnf::Until;
use crate::error::InternalError;
use crate::model::geometry::{Cell, Geometry};
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::{verify, ViolationText};
use crate::reasoning::propagate::Propagator;
use crate::sat::varisat::{new_solver, run};
use crate::sat::{Model, SatResult};
use crate::solve::SolveError;

/// After this many solutions the solver is rebuilt, so that the clauses of
/// retired solutions (and what was learnt from them) do not pile up.
const SOLUTIONS_PER_SOLVER: usize = 64;

/// Answers "is this solution the only one under these givens?" for one
/// geometry, with one incremental solver.
///
/// ```
/// use std::sync::Arc;
/// use satdoku::{Cell, Geometry, UniquenessChecker, Value, Grid};
///
/// let geometry = Arc::new(Geometry::classic(4)?);
/// let rows = ["1234", "3412", "2143", "4321"];
/// let mut solution = Grid::empty(4);
/// for (i, ch) in rows.concat().chars().enumerate() {
///     solution.set(Cell::from_index(i), Value::new_checked(ch.to_digit(10).unwrap() as usize, 4));
/// }
/// let mut checker = UniquenessChecker::new(geometry);
/// checker.set_solution(&solution)?;
/// assert!(checker.is_unique(&(0..16).map(Cell::from_index).collect::<Vec<_>>())?);
/// assert!(!checker.is_unique(&[])?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct UniquenessChecker {
    geometry: Arc<Geometry>,
    solver: Solver<'static>,
    map: VarMap,
    solution: Option<Grid>,
    /// The literal "cell holds its value in the solution", per cell.
    solution_lits: Vec<Lit>,
    /// Switches on the clause "some cell differs from the solution".
    active: Option<Lit>,
    retired: usize,
    deadline: Option<Instant>,
    calls: u64,
    /// Whether a solution was loaded into the solver or a question asked
    /// of it since it was loaded with the blank grid.
    used: bool,
}

/// What a search for another solution found.
enum Found {
    /// Another solution, this model.
    Other(Model),
    /// None: the solution is the only one.
    None,
    /// No answer within the conflicts allowed.
    Unknown,
}

impl Found {
    /// Whether another solution was found; `None` when unknown.
    fn other(&self) -> Option<bool> {
        match self {
            Found::Other(_) => Some(true),
            Found::None => Some(false),
            Found::Unknown => None,
        }
    }
}

/// A minimised set of givens ([`UniquenessChecker::minimize_within`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimized {
    /// The groups kept, in the order given.
    pub kept: Vec<Vec<Cell>>,
    /// How many of them were kept because their question ran past the
    /// conflicts allowed, not because another solution was found without
    /// them: 0 when `kept` is proven minimal.
    pub unproven: usize,
}

impl UniquenessChecker {
    /// A checker for the puzzles of `geometry`; no solution loaded yet.
    pub fn new(geometry: Arc<Geometry>) -> UniquenessChecker {
        let (solver, map) = load(&geometry);
        UniquenessChecker::loaded(geometry, solver, map)
    }

    /// [`UniquenessChecker::new`], with every question answered by
    /// `deadline` (see [`UniquenessChecker::set_deadline`]); loading the
    /// grid's formula (gigabytes past 100×100) gives up at it too.
    pub fn with_deadline(geometry: Arc<Geometry>, deadline: Option<Instant>) -> Result<UniquenessChecker, SolveError> {
        let mut solver = new_solver();
        let mut until = Until::new(&mut solver, deadline);
        let map = encode_base_until(&geometry, EncodeOptions::default(), deadline, &mut until);
        let Some(map) = map.filter(|_| !until.passed()) else { return Err(SolveError::TimedOut) };
        let mut checker = UniquenessChecker::loaded(geometry, solver, map);
        checker.set_deadline(deadline);
        Ok(checker)
    }

    /// [`UniquenessChecker::with_deadline`], refused with
    /// [`SolveError::GridTooLarge`] when the grid's formula would be past
    /// `max_literals` ([`crate::SolveOptions::max_literals`]): see
    /// [`UniquenessChecker::check_size`].
    pub fn with_limits(
        geometry: Arc<Geometry>,
        deadline: Option<Instant>,
        max_literals: u64,
    ) -> Result<UniquenessChecker, SolveError> {
        UniquenessChecker::check_size(&geometry, max_literals, deadline)?;
        UniquenessChecker::with_deadline(geometry, deadline)
    }

    /// Refuse a checker for `geometry` whose formula (the blank grid's full
    /// encoding, whatever the givens: O(n⁴) literals, gigabytes past
    /// 100×100) would be past `max_literals`, before anything is built for
    /// it: the count stops at the limit, and at `deadline`
    /// ([`SolveError::TimedOut`]). A puzzle that propagation solves needs no
    /// formula to be solved, but still this one to have its givens removed.
    pub fn check_size(geometry: &Geometry, max_literals: u64, deadline: Option<Instant>) -> Result<(), SolveError> {
        let n = geometry.size() as u64;
        let variables = n * n * n;
        // The variables alone: a blank 1024×1024 has a billion.
        if variables > max_literals {
            let size = CnfSize { variables, clauses: 0, literals: variables };
            return Err(SolveError::GridTooLarge { size, limit: max_literals });
        }
        let sizer = base_size(geometry, EncodeOptions::default(), max_literals, deadline);
        if sizer.late {
            return Err(SolveError::TimedOut);
        }
        let size = match sizer.stopped {
            // Counting stopped at the limit: its count is a floor.
            true => CnfSize { variables: 0, clauses: 0, literals: sizer.size.literals },
            false => sizer.size,
        };
        match size.literals > max_literals {
            true => Err(SolveError::GridTooLarge { size, limit: max_literals }),
            false => Ok(()),
        }
    }

    fn loaded(geometry: Arc<Geometry>, solver: Solver<'static>, map: VarMap) -> UniquenessChecker {
        UniquenessChecker {
            geometry,
            solver,
            map,
            solution: None,
            solution_lits: Vec::new(),
            active: None,
            retired: 0,
            deadline: None,
            calls: 0,
            used: false,
        }
    }

    /// Start again from a fresh solver holding the blank grid's encoding:
    /// what earlier questions taught it (learnt clauses, decision order) is
    /// dropped, so that questions bounded by conflicts get the same answers
    /// whatever was asked before. No solution is loaded after it. A solver
    /// still as loaded is kept.
    pub fn forget(&mut self) {
        if self.used {
            (self.solver, self.map) = load(&self.geometry);
            self.solver.set_deadline(self.deadline);
            self.used = false;
        }
        (self.active, self.solution, self.retired) = (None, None, 0);
        self.solution_lits.clear();
    }

    /// Give up (with [`SolveError::TimedOut`]) on a question past `deadline`.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.solver.set_deadline(deadline);
    }

    /// The grid the checker is for.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    /// How many solver calls the checker has made.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// Ask about `solution` from now on. It must be a complete, valid grid.
    pub fn set_solution(&mut self, solution: &Grid) -> Result<(), InternalError> {
        if let Err(v) = verify(&self.geometry, &Grid::empty(self.geometry.size()), solution) {
            return Err(InternalError(format!("not a solution: {}", ViolationText(&v, &self.geometry))));
        }
        if !solution.is_complete() {
            return Err(InternalError("a solution to check uniqueness against has empty cells".into()));
        }
        if let Some(active) = self.active.take() {
            self.retired += 1;
            if self.retired >= SOLUTIONS_PER_SOLVER {
                (self.solver, self.map) = load(&self.geometry);
                self.solver.set_deadline(self.deadline);
                self.retired = 0;
            } else {
                self.solver.add_clause(&[!active]);
            }
        }
        self.solution_lits = solution
            .filled()
            .map(|(cell, value)| self.map.var(cell, value).map(|v| v.positive()))
            .collect::<Option<Vec<Lit>>>()
            .ok_or_else(|| InternalError("a value outside the grid's variables".into()))?;
        let active = self.solver.new_var().positive();
        let mut differs: Vec<Lit> = self.solution_lits.iter().map(|&l| !l).collect();
        differs.push(!active);
        self.solver.add_clause(&differs);
        self.used = true;
        self.active = Some(active);
        self.solution = Some(solution.clone());
        Ok(())
    }

    /// The solution loaded.
    pub fn solution(&self) -> Option<&Grid> {
        self.solution.as_ref()
    }

    /// Whether the solution is the only one with `givens` (its values in
    /// those cells) given.
    ///
    /// # Panics
    /// If a cell is not a cell of the grid.
    pub fn is_unique(&mut self, givens: &[Cell]) -> Result<bool, SolveError> {
        Ok(self.search(givens)?.is_none())
    }

    /// [`UniquenessChecker::is_unique`], given up after `conflicts`
    /// conflicts (none: never): `None` then.
    ///
    /// # Panics
    /// If a cell is not a cell of the grid.
    pub fn is_unique_within(&mut self, givens: &[Cell], conflicts: Option<u64>) -> Result<Option<bool>, SolveError> {
        let active = self.active()?;
        Ok(self.search_under(givens, active, conflicts)?.other().map(|other| !other))
    }

    /// Another solution with the same values in `givens`, verified; `None`
    /// when the solution is the only one.
    ///
    /// # Panics
    /// If a cell is not a cell of the grid.
    pub fn other_solution(&mut self, givens: &[Cell]) -> Result<Option<Grid>, SolveError> {
        let Some(model) = self.search(givens)? else { return Ok(None) };
        let grid = self.map.decode(&self.geometry, |v| model.value(v) == Some(true)).map_err(InternalError)?;
        self.check_other(givens.iter(), &grid)?;
        Ok(Some(grid))
    }

    /// Check that `other` is another solution with the solution's values in
    /// `givens`: it keeps them, breaks no rule, and is not the solution.
    fn check_other<'c>(&self, givens: impl Iterator<Item = &'c Cell>, other: &Grid) -> Result<(), SolveError> {
        let mut shown = Grid::empty(self.geometry.size());
        if let Some(solution) = &self.solution {
            givens.for_each(|&c| shown.set(c, solution.get(c)));
        }
        match verify(&self.geometry, &shown, other) {
            Ok(()) if Some(other) != self.solution.as_ref() => Ok(()),
            Ok(()) => Err(InternalError("the second solution found is the first".into()).into()),
            Err(v) => {
                let text = ViolationText(&v, &self.geometry);
                Err(InternalError(format!("a second solution that is no solution: {text}")).into())
            }
        }
    }

    /// The model of another solution under `givens`, if there is one.
    fn search(&mut self, givens: &[Cell]) -> Result<Option<Model>, SolveError> {
        let active = self.active()?;
        match self.search_under(givens, active, None)? {
            Found::Other(model) => Ok(Some(model)),
            Found::None => Ok(None),
            Found::Unknown => Err(InternalError("a search with no conflict limit stopped short".into()).into()),
        }
    }

    /// The literal that switches on "some cell differs from the solution".
    fn active(&self) -> Result<Lit, SolveError> {
        self.active.ok_or_else(|| InternalError("no solution loaded to check uniqueness against".into()).into())
    }

    /// Whether `group` is needed beside `others`, given that the solution is
    /// unique under both together: whether another solution agrees with it
    /// on `others`. Such a solution differs from it in `group` (else it would
    /// agree on both), so a group of one cell is asked as "this cell holds
    /// another value", a narrower search than "some cell differs" with the
    /// same answer (4 minimal 16×16 puzzles: 0.91 s of CPU against 1.04 s).
    /// `None` when the search ran past `conflicts`.
    fn needed(&mut self, others: &[Cell], group: &[Cell], conflicts: Option<u64>) -> Result<Option<bool>, SolveError> {
        Ok(self.without(others, group, conflicts)?.other())
    }

    /// [`Self::needed`], with the other solution's model where one is found.
    fn without(&mut self, others: &[Cell], group: &[Cell], conflicts: Option<u64>) -> Result<Found, SolveError> {
        let first = match group {
            [cell] => {
                self.active()?;
                !self.solution_lits[cell.index()]
            }
            _ => self.active()?,
        };
        self.search_under(others, first, conflicts)
    }

    /// A solution with `givens` and `first` true, if there is one, searched
    /// for up to `conflicts` conflicts (none: no limit).
    fn search_under(&mut self, givens: &[Cell], first: Lit, conflicts: Option<u64>) -> Result<Found, SolveError> {
        let mut assumptions = Vec::with_capacity(givens.len() + 1);
        assumptions.push(first);
        assumptions.extend(givens.iter().map(|c| self.solution_lits[c.index()]));
        self.solver.assume(&assumptions);
        self.calls += 1;
        // The limit counts the solver's conflicts since it was made.
        let limit = conflicts.map(|c| self.solver.conflicts().saturating_add(c));
        self.solver.set_conflict_limit(limit);
        let result = run(&mut self.solver);
        self.solver.set_conflict_limit(None);
        match result? {
            SatResult::Unsat => Ok(Found::None),
            SatResult::Sat(model) => Ok(Found::Other(model)),
            // The deadline first: past it, the puzzle is given up.
            SatResult::Interrupted if self.deadline.is_some_and(|d| Instant::now() >= d) => Err(SolveError::TimedOut),
            SatResult::Interrupted if limit.is_some_and(|l| self.solver.conflicts() >= l) => Ok(Found::Unknown),
            SatResult::Interrupted => Err(SolveError::TimedOut),
        }
    }

    /// Remove groups of givens while the solution stays unique, trying them
    /// in the order given; what is left is minimal: removing any group of it
    /// leaves another solution. (One pass suffices: a group that was needed
    /// stays needed once others are gone, since fewer givens allow more
    /// solutions.) `groups` must be unique together.
    ///
    /// # Panics
    /// If a cell is not a cell of the grid.
    pub fn minimize(&mut self, groups: &[Vec<Cell>]) -> Result<Vec<Vec<Cell>>, SolveError> {
        Ok(self.minimize_within(groups, None)?.kept)
    }

    /// [`UniquenessChecker::minimize`] with each question "is this group
    /// needed?" given up after `conflicts` conflicts (none: never), its
    /// group then kept: what is left is still unique together (a group goes
    /// only where the solver proved the solution unique without it), but
    /// minimal only where [`Minimized::unproven`] is 0.
    ///
    /// # Panics
    /// If a cell is not a cell of the grid.
    pub fn minimize_within(&mut self, groups: &[Vec<Cell>], conflicts: Option<u64>) -> Result<Minimized, SolveError> {
        let all: Vec<Cell> = groups.iter().flatten().copied().collect();
        if !self.is_unique(&all)? {
            return Err(InternalError("givens to minimise that are not unique together".into()).into());
        }
        let mut keep = vec![true; groups.len()];
        let mut unproven = 0;
        let mut givens = Vec::new();
        // Each group found needed, with the other solution that shows it.
        let mut shown: Vec<(usize, Grid)> = Vec::new();
        for i in 0..groups.len() {
            keep[i] = false;
            givens.clear();
            givens.extend(groups.iter().zip(&keep).filter(|(_, &k)| k).flat_map(|(g, _)| g.iter().copied()));
            // Givens that singles propagation from the others restores can
            // go without asking the solver.
            if self.implied(&givens, &groups[i]) {
                continue;
            }
            match self.without(&givens, &groups[i], conflicts)? {
                Found::None => {}
                Found::Other(model) => {
                    keep[i] = true;
                    let grid =
                        self.map.decode(&self.geometry, |v| model.value(v) == Some(true)).map_err(InternalError)?;
                    shown.push((i, grid));
                }
                Found::Unknown => (keep[i], unproven) = (true, unproven + 1),
            }
        }
        // Each needed group's other solution keeps every group kept but
        // that one (it kept the groups not yet asked about too, of which
        // the kept ones are a part): checked, so that "minimal" is no
        // word of the solver's alone.
        for (i, other) in &shown {
            let kept = groups.iter().enumerate().filter(|&(j, _)| keep[j] && j != *i);
            self.check_other(kept.flat_map(|(_, g)| g), other)?;
        }
        let kept = groups.iter().zip(&keep).filter(|(_, &k)| k).map(|(g, _)| g.clone()).collect();
        Ok(Minimized { kept, unproven })
    }

    /// Whether naked and hidden singles from `givens` decide every cell of
    /// `cells` (to the solution's values, the only ones they can take): then
    /// `cells` add nothing to `givens`.
    fn implied(&self, givens: &[Cell], cells: &[Cell]) -> bool {
        let Some(solution) = &self.solution else { return false };
        let mut grid = Grid::empty(self.geometry.size());
        givens.iter().for_each(|&c| grid.set(c, solution.get(c)));
        let Some(puzzle) = Puzzle::new(Arc::clone(&self.geometry), grid) else { return false };
        let Ok(mut propagator) = Propagator::from_puzzle(&puzzle) else { return false };
        propagator.propagate().is_ok() && cells.iter().all(|&c| propagator.domains().single(c).is_some())
    }

    /// The givens each of which may go alone with the solution staying
    /// unique (none when it is not unique under them all).
    ///
    /// # Panics
    /// If a cell is not a cell of the grid.
    pub fn redundant(&mut self, givens: &[Cell]) -> Result<Vec<Cell>, SolveError> {
        let mut redundant = Vec::new();
        if !self.is_unique(givens)? {
            return Ok(redundant);
        }
        let mut others = Vec::with_capacity(givens.len());
        for (i, &cell) in givens.iter().enumerate() {
            others.clear();
            others.extend(givens.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &c)| c));
            if self.needed(&others, &[cell], None)? == Some(false) {
                redundant.push(cell);
            }
        }
        Ok(redundant)
    }
}

/// A fresh solver holding the blank grid's full encoding.
fn load(geometry: &Geometry) -> (Solver<'static>, VarMap) {
    let mut solver = new_solver();
    let map = encode_base(geometry, EncodeOptions::default(), &mut solver);
    (solver, map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GridSampler, Rng};
    use crate::model::geometry::Value;

    fn grid_4x4() -> Grid {
        let rows = "1234341221434321";
        let cells = rows.chars().map(|ch| Value::new_checked(ch.to_digit(10).unwrap() as usize, 4)).collect();
        Grid::from_cells(4, cells).unwrap()
    }

    /// A checker made with a deadline already past gives up before loading
    /// a 49×49's formula; with time to spare it answers as `new`'s does.
    #[test]
    fn loading_gives_up_at_the_deadline() {
        let past = Some(Instant::now() - std::time::Duration::from_secs(1));
        let big = Arc::new(Geometry::classic(49).unwrap());
        assert!(matches!(UniquenessChecker::with_deadline(big, past), Err(SolveError::TimedOut)));
        let later = Some(Instant::now() + std::time::Duration::from_secs(600));
        let mut checker = UniquenessChecker::with_deadline(Arc::new(Geometry::classic(4).unwrap()), later).unwrap();
        checker.set_solution(&grid_4x4()).unwrap();
        let all: Vec<Vec<Cell>> = grid_4x4().filled().map(|(cell, _)| vec![cell]).collect();
        let kept = checker.minimize(&all).unwrap();
        assert!(kept.len() < all.len());
    }

    /// The checker's formula is sized before it is built, against the
    /// limit, whatever the givens; the clock stops the sizing of a big one.
    #[test]
    fn the_checkers_formula_is_checked_against_the_limit() {
        let nine = Geometry::classic(9).unwrap();
        let refused = UniquenessChecker::check_size(&nine, 26_243, None);
        assert!(matches!(refused, Err(SolveError::GridTooLarge { size, limit: 26_243 }) if size.literals == 26_244));
        assert!(UniquenessChecker::check_size(&nine, 26_244, None).is_ok());
        // The variables alone: a billion, refused without counting a clause.
        let tight = UniquenessChecker::check_size(&Geometry::latin(1000).unwrap(), 1000, None);
        assert!(matches!(tight, Err(SolveError::GridTooLarge { size, .. }) if size.variables == 1_000_000_000));
        let past = Some(Instant::now() - std::time::Duration::from_secs(1));
        let late = UniquenessChecker::check_size(&Geometry::classic(144).unwrap(), u64::MAX, past);
        assert!(matches!(late, Err(SolveError::TimedOut)), "{late:?}");
        let with_limits = UniquenessChecker::with_limits(Arc::new(nine), None, 1000);
        assert!(matches!(with_limits, Err(SolveError::GridTooLarge { .. })));
    }

    /// A question past its conflicts is left unanswered and its group kept:
    /// with none allowed, only the groups singles propagation restores go,
    /// every other one is kept unproven, and what is left is still unique.
    #[test]
    fn questions_past_their_conflicts_keep_their_groups() {
        let geometry = Arc::new(Geometry::classic(9).unwrap());
        let sampler = GridSampler::new(Arc::clone(&geometry)).unwrap().unwrap();
        let mut checker = UniquenessChecker::new(geometry);
        checker.set_solution(&sampler.sample(&mut Rng::new(5)).unwrap()).unwrap();
        let all: Vec<Vec<Cell>> = (0..81).map(|i| vec![Cell::from_index(i)]).collect();
        assert_eq!(checker.is_unique_within(&[], Some(0)).unwrap(), None);
        assert_eq!(checker.is_unique_within(&[], None).unwrap(), Some(false));
        let bounded = checker.minimize_within(&all, Some(0)).unwrap();
        assert!(bounded.kept.len() < all.len());
        assert_eq!(bounded.unproven, bounded.kept.len());
        assert!(checker.is_unique(&bounded.kept.concat()).unwrap());
        let exact = checker.minimize_within(&all, None).unwrap();
        assert_eq!((exact.unproven, exact.kept), (0, checker.minimize(&all).unwrap()));
    }

    /// Bounded answers depend on what the solver learnt before; after
    /// `forget` they are a fresh checker's, whatever it was asked before.
    #[test]
    fn after_forget_bounded_answers_are_a_fresh_checkers() {
        let geometry = Arc::new(Geometry::classic(9).unwrap());
        let sampler = GridSampler::new(Arc::clone(&geometry)).unwrap().unwrap();
        let mut rng = Rng::new(9);
        let (first, second) = (sampler.sample(&mut rng).unwrap(), sampler.sample(&mut rng).unwrap());
        let mut order: Vec<Vec<Cell>> = (0..81).map(|i| vec![Cell::from_index(i)]).collect();
        rng.shuffle(&mut order);
        let mut fresh = UniquenessChecker::new(Arc::clone(&geometry));
        fresh.set_solution(&second).unwrap();
        // A prefix just unique, where the questions take some search.
        let k = (1..=81).find(|&k| fresh.is_unique(&order[..k].concat()).unwrap()).unwrap();
        let mut used = UniquenessChecker::new(geometry);
        let mut mixed = false;
        for conflicts in [1, 2, 4, 8, 16] {
            fresh.forget();
            fresh.set_solution(&second).unwrap();
            let expected = fresh.minimize_within(&order[..k], Some(conflicts)).unwrap();
            mixed |= expected.unproven > 0 && expected.unproven < expected.kept.len();
            used.set_solution(&first).unwrap();
            used.minimize(&order).unwrap();
            used.forget();
            assert!(used.is_unique(&[]).is_err(), "no solution loaded after forget");
            used.set_solution(&second).unwrap();
            assert_eq!(used.minimize_within(&order[..k], Some(conflicts)).unwrap(), expected, "{conflicts}");
        }
        assert!(mixed, "some bound left some questions unanswered, not all");
    }

    /// Each given's question is "another solution with this cell changed",
    /// which is only "another solution" when the givens are unique together:
    /// so givens that are not are refused by `minimize` and have no
    /// redundant given, rather than answers the narrower question gets wrong.
    #[test]
    fn givens_that_are_not_unique_together_are_refused_or_have_none_redundant() {
        let geometry = Arc::new(Geometry::classic(4).unwrap());
        let mut checker = UniquenessChecker::new(geometry);
        checker.set_solution(&grid_4x4()).unwrap();
        // The first row alone: many solutions, each keeping it.
        let row: Vec<Cell> = (0..4).map(Cell::from_index).collect();
        assert!(!checker.is_unique(&row).unwrap());
        assert_eq!(checker.redundant(&row).unwrap(), Vec::<Cell>::new());
        let groups: Vec<Vec<Cell>> = row.iter().map(|&c| vec![c]).collect();
        assert!(checker.minimize(&groups).is_err());
        // Every cell: unique; each cell alone may go (the other 15 decide it).
        let all: Vec<Cell> = (0..16).map(Cell::from_index).collect();
        assert_eq!(checker.redundant(&all).unwrap(), all);
        let minimal = checker.minimize(&all.iter().map(|&c| vec![c]).collect::<Vec<_>>()).unwrap();
        let kept: Vec<Cell> = minimal.into_iter().flatten().collect();
        assert!(checker.is_unique(&kept).unwrap());
        for i in 0..kept.len() {
            let others: Vec<Cell> = kept.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &c)| c).collect();
            assert!(!checker.is_unique(&others).unwrap(), "{:?} was not needed", kept[i]);
        }
    }
}
