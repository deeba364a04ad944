//! The last check before any answer is printed: every unit holds each value once, every variant rule and clue holds, givens kept.

use std::fmt;

use crate::model::constraints::numbers;
use crate::model::geometry::{Cell, Geometry, Value, Variant};
use crate::model::puzzle::Grid;

/// Why a grid is not a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A grid of another side than the geometry's.
    WrongSize {
        /// The geometry's side.
        expected: usize,
        /// The grid's.
        found: usize,
    },
    /// A cell without a value.
    EmptyCell {
        /// The cell.
        cell: Cell,
    },
    /// A unit that holds a value twice.
    Repeated {
        /// The unit, by index into [`crate::Geometry::units`].
        unit: usize,
        /// The value.
        value: Value,
    },
    /// A value that is not among its cell's pencil marks.
    NotACandidate {
        /// The cell.
        cell: Cell,
        /// The value it holds.
        value: Value,
    },
    /// A rule between neighbours (anti-knight, anti-king, non-consecutive) broken by two cells.
    Neighbours {
        /// The rule.
        variant: Variant,
        /// The two cells.
        cells: [Cell; 2],
    },
    /// A variant clue that does not hold.
    Constraint {
        /// The clue, by index into [`crate::Geometry::constraints`].
        index: usize,
    },
    /// A given the grid does not keep.
    GivenChanged {
        /// The cell.
        cell: Cell,
        /// Its given.
        given: Value,
        /// What the grid holds there.
        found: Option<Value>,
    },
}

/// A [`Violation`] with its geometry, printable.
pub struct ViolationText<'a>(pub &'a Violation, pub &'a Geometry);

impl fmt::Display for ViolationText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.1;
        match self.0 {
            Violation::WrongSize { expected, found } => {
                write!(f, "a {found}x{found} grid where {expected}x{expected} was expected")
            }
            Violation::EmptyCell { cell } => write!(f, "{} is empty", g.cell_name(*cell)),
            Violation::Repeated { unit, value } => write!(f, "{} holds {value} more than once", g.units()[*unit]),
            Violation::NotACandidate { cell, value } => {
                write!(f, "{} holds {value}, which is not among its candidates", g.cell_name(*cell))
            }
            Violation::Neighbours { variant, cells } => {
                write!(f, "{} and {} break the {variant} rule", g.cell_name(cells[0]), g.cell_name(cells[1]))
            }
            Violation::Constraint { index } => {
                write!(f, "the constraint `{}` does not hold", g.constraints()[*index].text(g.size()))
            }
            Violation::GivenChanged { cell, given, found } => match found {
                Some(v) => write!(f, "{} is given as {given} but holds {v}", g.cell_name(*cell)),
                None => write!(f, "{} is given as {given} but is empty", g.cell_name(*cell)),
            },
        }
    }
}

/// Check that `solution` is a complete grid in which every unit of `geometry`
/// holds each value exactly once, and which keeps every given.
pub fn verify(geometry: &Geometry, givens: &Grid, solution: &Grid) -> Result<(), Violation> {
    let n = geometry.size();
    for grid in [givens, solution] {
        if grid.size() != n {
            return Err(Violation::WrongSize { expected: n, found: grid.size() });
        }
    }
    for cell in geometry.cells() {
        let found = solution.get(cell);
        if found.is_none() {
            return Err(Violation::EmptyCell { cell });
        }
        if let Some(given) = givens.get(cell) {
            if found != Some(given) {
                return Err(Violation::GivenChanged { cell, given, found });
            }
        }
    }
    let mut seen = vec![false; n];
    for (u, unit) in geometry.units().iter().enumerate() {
        // The rules as stated: implied units hold wherever they do.
        if unit.kind().is_implied() {
            continue;
        }
        seen.fill(false);
        for &cell in unit.cells() {
            let Some(value) = solution.get(cell) else { return Err(Violation::EmptyCell { cell }) };
            if std::mem::replace(&mut seen[value.index()], true) {
                return Err(Violation::Repeated { unit: u, value });
            }
        }
    }
    let values = numbers(solution.cells());
    for &variant in geometry.variants() {
        for (a, b) in geometry.neighbour_pairs(variant) {
            let (x, y) = (values[a.index()], values[b.index()]);
            let broken = match variant {
                Variant::NonConsecutive => x.abs_diff(y) == 1,
                _ => x == y,
            };
            if broken {
                return Err(Violation::Neighbours { variant, cells: [a, b] });
            }
        }
    }
    let constraints = geometry.constraints();
    if let Some(index) = constraints.iter().position(|c| !c.holds(&values, n, constraints)) {
        return Err(Violation::Constraint { index });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(text: &str) -> Grid {
        let cells = text
            .chars()
            .map(|c| c.to_digit(10).filter(|&d| d > 0).map(|d| Value::from_index(d as usize - 1)))
            .collect();
        Grid::from_cells(4, cells).unwrap()
    }

    #[test]
    fn accepts_a_solution_and_names_each_kind_of_violation() {
        let g = Geometry::classic(4).unwrap();
        let givens = grid("1...............");
        assert_eq!(verify(&g, &givens, &grid("1234341221434321")), Ok(()));
        assert_eq!(
            verify(&g, &givens, &grid("1234341221434320")),
            Err(Violation::EmptyCell { cell: Cell::from_index(15) })
        );
        let changed = verify(&g, &grid("2..............."), &grid("1234341221434321")).unwrap_err();
        assert_eq!(ViolationText(&changed, &g).to_string(), "r1c1 is given as 2 but holds 1");
        // A Latin square whose boxes repeat: rows and columns fine, box 1 not.
        let bad = verify(&g, &givens, &grid("1234234134124123")).unwrap_err();
        assert_eq!(ViolationText(&bad, &g).to_string(), "box 1 holds 2 more than once");
    }
}
