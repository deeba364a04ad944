//! Propagation a person can follow: named deductions (singles, locked
//! candidates, naked and hidden subsets, failed probes), each with the
//! candidates it removes, at three levels of strength.
//!
//! The levels follow CLP(FD): `singles` is unit propagation on the CNF (what
//! `all_different` does), `subsets` adds the matching-based filtering of
//! `all_distinct` (Régin 1994: every naked and hidden subset of any size)
//! and locked candidates, and `probe` adds failed-literal probing. Each
//! level's fixpoint does not depend on the order the rules are tried in, so
//! the steps, replayed from the givens, reach exactly the state the level
//! reaches. This is for explanation, not speed: the solver's own
//! preparation is [`crate::reasoning::propagate::Propagator`].

use std::fmt::Write as _;
use std::time::Instant;

use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry, UnitKind, Value};
use crate::model::puzzle::Puzzle;
use crate::reasoning::alldiff::{AllDifferent, Explained};
use crate::reasoning::propagate::{find_clash, Contradiction, Propagator};
use crate::text::symbols::Alphabet;

/// How strong propagation is (`analyze --propagate LEVEL`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, strum::EnumString, strum::Display, strum::VariantNames)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum Level {
    /// Naked and hidden singles: unit propagation on the CNF, CLP(FD)'s `all_different`.
    Singles,
    /// Singles, locked candidates, and naked and hidden subsets of any size:
    /// CLP(FD)'s `all_distinct`.
    #[default]
    Subsets,
    /// Subsets, and failed-literal probing: a candidate whose placement
    /// leads singles to a contradiction is removed.
    Probe,
}

/// The rule behind one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deduction {
    /// The cell has one candidate left, which its peers lose.
    NakedSingle {
        /// The cell.
        cell: Cell,
        /// Its value.
        value: Value,
    },
    /// In the unit, the value fits only the cell: the cell takes it and its peers lose it.
    HiddenSingle {
        /// Index into [`Geometry::units`].
        unit: usize,
        /// The cell.
        cell: Cell,
        /// The value.
        value: Value,
    },
    /// In unit `within`, `value` fits only cells that also lie in unit
    /// `into`, so the rest of `into` loses it (pointing from a box,
    /// claiming from a row or column).
    Locked {
        /// The value.
        value: Value,
        /// Where it is confined, by index into [`Geometry::units`].
        within: usize,
        /// The unit whose other cells lose it.
        into: usize,
    },
    /// These cells of the unit have exactly these values between them: the
    /// unit's other cells lose them.
    NakedSubset {
        /// Index into [`Geometry::units`].
        unit: usize,
        /// The cells.
        cells: Vec<Cell>,
        /// Their candidates, together.
        values: Vec<Value>,
    },
    /// These values of the unit fit only these cells: the cells lose every other value.
    HiddenSubset {
        /// Index into [`Geometry::units`].
        unit: usize,
        /// The cells.
        cells: Vec<Cell>,
        /// The values.
        values: Vec<Value>,
    },
    /// Placing the value in the cell lets singles run into `contradiction`.
    FailedProbe {
        /// The cell.
        cell: Cell,
        /// The value tried.
        value: Value,
        /// What singles ran into.
        contradiction: Contradiction,
    },
}

/// One step: its rule and the candidates it removes, as (cell, value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deduced {
    /// The rule.
    pub deduction: Deduction,
    /// What it removes.
    pub removed: Vec<(Cell, Value)>,
    /// The round it belongs to: round 1 is the singles from the givens, each
    /// later round one sweep of the first stronger rule that finds something
    /// (every locked candidate, else every unit's subset, else one failed
    /// probe) and the singles that follow.
    pub round: usize,
}

/// What propagation at a [`Level`] derives, step by step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stepped {
    /// The candidates before the first step: the givens (and pencil marks),
    /// each given's value gone from its peers.
    pub start: Domains,
    /// The steps, in order.
    pub steps: Vec<Deduced>,
    /// The candidates at the end of each round but the last.
    pub rounds: Vec<Domains>,
    /// The candidates at the fixpoint, or the contradiction the steps ran into.
    pub outcome: Result<Domains, Contradiction>,
    /// Whether the fixpoint (or a contradiction) was reached before the deadline.
    pub complete: bool,
}

/// Propagate `puzzle` at `level`, every step recorded, stopping at
/// `deadline` (then [`Stepped::complete`] is false).
pub fn steps(puzzle: &Puzzle, level: Level, deadline: Option<Instant>) -> Stepped {
    let geometry = puzzle.geometry();
    let start = puzzle.initial_domains();
    let mut run = Stepper::new(geometry, start.clone());
    let outcome = match find_clash(geometry, puzzle.givens()) {
        Some(clash) => Err(clash),
        None => run.run(level, deadline),
    };
    let complete = *outcome.as_ref().unwrap_or(&true);
    Stepped { start, steps: run.steps, rounds: run.rounds, outcome: outcome.map(|_| run.domains), complete }
}

/// A step found, before it is applied: its rule and its removals.
type Found = (Deduction, Vec<(Cell, Value)>);

struct Stepper<'g> {
    geometry: &'g Geometry,
    domains: Domains,
    /// Cells whose value is gone from their peers.
    placed: Vec<bool>,
    /// Cells and (unit, value) pairs to look at for singles.
    cells: Vec<Cell>,
    places: Vec<(usize, Value)>,
    steps: Vec<Deduced>,
    rounds: Vec<Domains>,
    round: usize,
}

impl<'g> Stepper<'g> {
    fn new(geometry: &'g Geometry, domains: Domains) -> Stepper<'g> {
        let n = geometry.size();
        let mut placed = vec![false; geometry.cell_count()];
        // A decided cell whose value no peer has is placed already (the givens).
        for cell in geometry.cells() {
            if let Some(v) = domains.single(cell) {
                placed[cell.index()] = peers(geometry, cell).all(|p| !domains.contains(p, v));
            }
        }
        let places = (0..geometry.units().len()).flat_map(|u| Value::all(n).map(move |v| (u, v))).collect();
        Stepper {
            geometry,
            domains,
            placed,
            cells: geometry.cells().collect(),
            places,
            steps: Vec::new(),
            rounds: Vec::new(),
            round: 1,
        }
    }

    /// Run to the fixpoint of `level`, or to `deadline`; whether the fixpoint was reached.
    fn run(&mut self, level: Level, deadline: Option<Instant>) -> Result<bool, Contradiction> {
        if let Some(cell) = self.geometry.cells().find(|&c| self.domains.count(c) == 0) {
            return Err(Contradiction::EmptyCell { cell });
        }
        let mut filter = AllDifferent::new();
        let units = self.geometry.units();
        // Boxes first (pointing), then rows and columns (claiming), then the rest.
        let mut order: Vec<usize> = (0..units.len()).collect();
        order.sort_by_key(|&u| units[u].kind() != UnitKind::Box);
        loop {
            self.singles()?;
            if level == Level::Singles || self.domains.is_solved() {
                return Ok(true);
            }
            if past(deadline) {
                return Ok(false);
            }
            // One sweep of the first stronger rule that finds anything:
            // each step is found on the candidates as the steps before it left them.
            let before = self.steps.len();
            self.rounds.push(self.domains.clone());
            self.round += 1;
            for &within in &order {
                for value in Value::all(self.geometry.size()) {
                    if let Some((deduction, removed)) = self.locked(within, value) {
                        self.apply(deduction, removed)?;
                    }
                }
            }
            if self.steps.len() == before {
                for unit in 0..units.len() {
                    if past(deadline) {
                        return Ok(false);
                    }
                    if let Some((deduction, removed)) = self.subset(unit, &mut filter)? {
                        self.apply(deduction, removed)?;
                    }
                }
            }
            if self.steps.len() == before && level == Level::Probe {
                match self.probe(deadline) {
                    Probed::Found((deduction, removed)) => self.apply(deduction, removed)?,
                    Probed::Nothing => {}
                    Probed::Stopped => {
                        self.rounds.pop();
                        self.round -= 1;
                        return Ok(false);
                    }
                }
            }
            if self.steps.len() == before {
                self.rounds.pop();
                self.round -= 1;
                return Ok(true);
            }
        }
    }

    /// Record a step and remove its candidates; a cell left empty is a contradiction.
    fn apply(&mut self, deduction: Deduction, removed: Vec<(Cell, Value)>) -> Result<(), Contradiction> {
        for &(cell, value) in &removed {
            self.domains.remove(cell, value);
            self.cells.push(cell);
            for &u in self.geometry.units_of(cell) {
                self.places.push((u as usize, value));
            }
        }
        let emptied = removed.iter().map(|&(c, _)| c).find(|&c| self.domains.count(c) == 0);
        self.steps.push(Deduced { deduction, removed, round: self.round });
        match emptied {
            Some(cell) => Err(Contradiction::EmptyCell { cell }),
            None => Ok(()),
        }
    }

    /// Naked and hidden singles to their fixpoint.
    fn singles(&mut self) -> Result<(), Contradiction> {
        loop {
            if let Some(cell) = self.cells.pop() {
                if self.placed[cell.index()] {
                    continue;
                }
                let Some(value) = self.domains.single(cell) else { continue };
                self.placed[cell.index()] = true;
                let removed = self.peers_with(cell, value);
                if !removed.is_empty() {
                    self.apply(Deduction::NakedSingle { cell, value }, removed)?;
                }
                continue;
            }
            let Some((unit, value)) = self.places.pop() else { return Ok(()) };
            let mut holders = self.geometry.units()[unit].cells().iter().filter(|&&c| self.domains.contains(c, value));
            let (Some(&cell), None) = (holders.next(), holders.next()) else {
                if self.geometry.units()[unit].cells().iter().all(|&c| !self.domains.contains(c, value)) {
                    return Err(Contradiction::NoPlace { unit, value });
                }
                continue;
            };
            if self.domains.count(cell) == 1 {
                continue;
            }
            let mut removed: Vec<(Cell, Value)> =
                self.domains.values(cell).filter(|&v| v != value).map(|v| (cell, v)).collect();
            removed.extend(self.peers_with(cell, value));
            self.placed[cell.index()] = true;
            self.apply(Deduction::HiddenSingle { unit, cell, value }, removed)?;
        }
    }

    /// The peers of `cell` that have `value`, as removals.
    fn peers_with(&self, cell: Cell, value: Value) -> Vec<(Cell, Value)> {
        let mut found: Vec<(Cell, Value)> =
            peers(self.geometry, cell).filter(|&p| self.domains.contains(p, value)).map(|p| (p, value)).collect();
        found.sort();
        found.dedup();
        found
    }

    /// The locked candidate of `value` in unit `within`, if it removes something.
    fn locked(&self, within: usize, value: Value) -> Option<Found> {
        let geometry = self.geometry;
        let units = geometry.units();
        let holders: Vec<Cell> =
            units[within].cells().iter().copied().filter(|&c| self.domains.contains(c, value)).collect();
        if holders.len() < 2 {
            return None;
        }
        let in_unit = |c: Cell, u: usize| geometry.units_of(c).contains(&(u as u32));
        for &into in geometry.units_of(holders[0]) {
            let into = into as usize;
            if into == within || !holders.iter().all(|&c| in_unit(c, into)) {
                continue;
            }
            let removed: Vec<(Cell, Value)> = units[into]
                .cells()
                .iter()
                .filter(|&&c| self.domains.contains(c, value) && !in_unit(c, within))
                .map(|&c| (c, value))
                .collect();
            if !removed.is_empty() {
                return Some((Deduction::Locked { value, within, into }, removed));
            }
        }
        None
    }

    /// The naked or hidden subset of `unit` that removes something, named by
    /// the smaller side (a naked pair rather than a hidden septuple), as the
    /// steps so far show the candidates. A "subset" of one cell is a single
    /// the sweep's removals made: singles name it next.
    ///
    /// [`AllDifferent::explain`] takes the unit's decided cells as placed,
    /// but a sweep's removals can decide a cell whose value its peers keep
    /// until singles run: in this unit that value is still a candidate of
    /// the cells it leaves out. The naked side then counts such decided
    /// cells in (a naked triple becomes a quad with the decided cell), and
    /// the hidden side, which no decided value touches, leaves their values
    /// out.
    fn subset(&self, unit: usize, filter: &mut AllDifferent) -> Result<Option<Found>, Contradiction> {
        let unit_cells = self.geometry.units()[unit].cells();
        match filter.explain(unit_cells, &self.domains) {
            None => Ok(None),
            Some(Explained::Hall { cells, values: _ }) => {
                let (cells, values) = self.as_shown(unit_cells, cells);
                Err(Contradiction::Hall { unit, cells, values })
            }
            Some(Explained::Subset { cells, values, open, mut removals }) => {
                let others: Vec<Cell> = open.iter().copied().filter(|c| !cells.contains(c)).collect();
                if cells.len().min(others.len()) < 2 {
                    return Ok(None);
                }
                removals.sort();
                let decided: Vec<Value> = unit_cells.iter().filter_map(|&c| self.domains.single(c)).collect();
                let (naked, shown) = self.as_shown(unit_cells, cells);
                let deduction = if naked.len() <= others.len() {
                    Deduction::NakedSubset { unit, cells: naked, values: shown }
                } else {
                    let mut rest: Vec<Value> = others
                        .iter()
                        .flat_map(|&c| self.domains.values(c))
                        .filter(|v| !values.contains(v) && !decided.contains(v))
                        .collect();
                    rest.sort();
                    rest.dedup();
                    Deduction::HiddenSubset { unit, cells: others, values: rest }
                };
                Ok(Some((deduction, removals)))
            }
        }
    }

    /// `cells` of a unit and the unit's decided cells whose value one of them
    /// still has, in the unit's order, with every value they have between them.
    fn as_shown(&self, unit_cells: &[Cell], mut cells: Vec<Cell>) -> (Vec<Cell>, Vec<Value>) {
        let decided: Vec<Cell> = unit_cells
            .iter()
            .copied()
            .filter(|d| !cells.contains(d))
            .filter(|&d| self.domains.single(d).is_some_and(|v| cells.iter().any(|&c| self.domains.contains(c, v))))
            .collect();
        cells.extend(decided);
        cells.sort_by_key(|c| unit_cells.iter().position(|u| u == c));
        let mut values: Vec<Value> = cells.iter().flat_map(|&c| self.domains.values(c)).collect();
        values.sort();
        values.dedup();
        (cells, values)
    }

    /// The first candidate whose placement makes singles fail.
    /// One pass over every candidate of every open cell (on a blank 49×49,
    /// minutes), so the deadline is looked at before each cell.
    fn probe(&self, deadline: Option<Instant>) -> Probed {
        // One propagator, each probe undone through its trail: a fresh one
        // per probe cost a copy of the whole grid's candidates, minutes a
        // cell on a blank 400×400, and the clock was read between cells only.
        let mut p = Propagator::with_domains(self.geometry, self.domains.clone());
        p.start_trail();
        if let Err(contradiction) = p.propagate() {
            // Not at a fixpoint, and contradictory: any probe fails.
            let Some(cell) = self.geometry.cells().find(|&c| self.domains.count(c) > 1) else { return Probed::Nothing };
            let value = self.domains.values(cell).next().expect("two candidates");
            return Probed::Found((Deduction::FailedProbe { cell, value, contradiction }, vec![(cell, value)]));
        }
        let start = p.mark();
        for cell in self.geometry.cells().filter(|&c| self.domains.count(c) > 1) {
            for value in self.domains.values(cell) {
                if past(deadline) {
                    return Probed::Stopped;
                }
                let probed = p.assign(cell, value).and_then(|()| p.propagate());
                p.undo_to(start);
                if let Err(contradiction) = probed {
                    return Probed::Found((Deduction::FailedProbe { cell, value, contradiction }, vec![(cell, value)]));
                }
            }
        }
        Probed::Nothing
    }
}

/// What a pass of probing came to.
enum Probed {
    Found(Found),
    Nothing,
    /// The deadline passed first.
    Stopped,
}

fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// The cells that share a unit with `cell` (each once per unit).
fn peers(geometry: &Geometry, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
    geometry
        .units_of(cell)
        .iter()
        .flat_map(move |&u| geometry.units()[u as usize].cells().iter().copied())
        .filter(move |&p| p != cell)
}

/// The name of a subset of `k` cells.
fn subset_name(k: usize) -> String {
    match k {
        1 => "single".into(),
        2 => "pair".into(),
        3 => "triple".into(),
        4 => "quad".into(),
        k => format!("subset of {k}"),
    }
}

impl Deduced {
    /// The step in words, values written in `alphabet`:
    /// `naked pair r1c2 r1c5 {3,5} in row 1: removes 3 from r1c7; 5 from r1c7 r1c8`.
    pub fn describe(&self, geometry: &Geometry, alphabet: &Alphabet) -> String {
        let n = geometry.size();
        let symbol = |v: Value| crate::text::format::symbol(Some(v), n, alphabet);
        let names = |cells: &[Cell]| cells.iter().map(|&c| geometry.cell_name(c)).collect::<Vec<_>>().join(" ");
        let set = |values: &[Value]| values.iter().map(|&v| symbol(v)).collect::<Vec<_>>().join(",");
        let units = geometry.units();
        let mut text = match &self.deduction {
            Deduction::NakedSingle { cell, value } => {
                format!("naked single {} = {}", geometry.cell_name(*cell), symbol(*value))
            }
            Deduction::HiddenSingle { unit, cell, value } => {
                format!("hidden single {} in {} at {}", symbol(*value), units[*unit], geometry.cell_name(*cell))
            }
            Deduction::Locked { value, within, into } => {
                let rule = match (units[*within].kind(), units[*into].kind()) {
                    (UnitKind::Box, UnitKind::Row | UnitKind::Column) => "pointing",
                    (UnitKind::Row | UnitKind::Column, UnitKind::Box) => "claiming",
                    _ => "locked",
                };
                format!("{rule} {} in {} → {}", symbol(*value), units[*within], units[*into])
            }
            Deduction::NakedSubset { unit, cells, values } => {
                format!("naked {} {} {{{}}} in {}", subset_name(cells.len()), names(cells), set(values), units[*unit])
            }
            Deduction::HiddenSubset { unit, cells, values } => {
                format!("hidden {} {} {{{}}} in {}", subset_name(cells.len()), names(cells), set(values), units[*unit])
            }
            Deduction::FailedProbe { cell, value, contradiction } => format!(
                "failed probe {} = {} ({})",
                geometry.cell_name(*cell),
                symbol(*value),
                contradiction.describe(geometry, alphabet)
            ),
        };
        // The removals grouped by value, values with the same cells together:
        // `removes 1,7 from r2c5; 5 from r7c5 r8c5`.
        let mut values: Vec<Value> = self.removed.iter().map(|&(_, v)| v).collect();
        values.sort();
        values.dedup();
        let mut groups: Vec<(Vec<Value>, Vec<Cell>)> = Vec::new();
        for value in values {
            let mut cells: Vec<Cell> = self.removed.iter().filter(|&&(_, v)| v == value).map(|&(c, _)| c).collect();
            cells.sort();
            match groups.iter_mut().find(|(_, c)| *c == cells) {
                Some((values, _)) => values.push(value),
                None => groups.push((vec![value], cells)),
            }
        }
        text.push_str(": removes ");
        for (k, (values, cells)) in groups.iter().enumerate() {
            let _ = write!(text, "{}{} from {}", if k > 0 { "; " } else { "" }, set(values), names(cells));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::Geometry;
    use crate::testing::puzzle;

    #[test]
    fn a_naked_pair_is_named_with_its_removals() {
        // Latin 4: columns 1 and 2 hold 3 and 4, so r1c1 and r1c2 are a naked
        // pair {1, 2}, and r1c3 and r1c4 can only be 3 or 4.
        let p = puzzle(Geometry::latin(4).unwrap(), "....34..43......");
        let run = steps(&p, Level::Subsets, None);
        let texts: Vec<String> = run.steps.iter().map(|s| s.describe(p.geometry(), &Alphabet::default())).collect();
        assert!(
            texts.iter().any(|t| t.starts_with("naked pair r1c1 r1c2 {1,2} in row 1: removes 1,2 from r1c3 r1c4")),
            "{texts:?}"
        );
        assert!(run.outcome.is_ok());
    }

    #[test]
    fn singles_reach_the_fixpoint_of_unit_propagation() {
        let hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let p = puzzle(Geometry::classic(9).unwrap(), hard);
        let run = steps(&p, Level::Singles, None);
        assert_eq!(run.outcome, crate::reasoning::propagate::propagate_puzzle(&p));
        let subsets = steps(&p, Level::Subsets, None).outcome.unwrap();
        let singles = run.outcome.unwrap();
        for cell in p.geometry().cells() {
            assert!(subsets.values(cell).all(|v| singles.contains(cell, v)));
        }
    }
}
