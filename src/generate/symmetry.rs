//! Symmetries: of the pattern of givens (`--symmetry`), and the cell maps that
//! carry a grid's units onto themselves (used to move full grids around).

use crate::model::geometry::{Cell, Geometry};

/// The symmetry of the pattern of givens: a given's images are givens too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, strum::EnumString, strum::Display, strum::VariantNames)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum Symmetry {
    /// Any pattern.
    #[default]
    None,
    /// Half-turn rotation about the centre.
    Rot180,
    /// Quarter-turn rotation (so also the half turn).
    Rot90,
    /// Mirror image left to right.
    Mirror,
    /// Reflection in the main diagonal (r1c1 to rncn).
    Diagonal,
}

/// One of the eight symmetries of the square, as a map of (row, column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dihedral {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

impl Dihedral {
    pub(crate) const IDENTITY: Dihedral = Dihedral { transpose: false, flip_rows: false, flip_cols: false };

    /// All eight.
    pub(crate) fn all() -> impl Iterator<Item = Dihedral> {
        (0..8).map(|k| Dihedral { transpose: k & 1 != 0, flip_rows: k & 2 != 0, flip_cols: k & 4 != 0 })
    }

    pub(crate) fn apply(self, n: usize, (r, c): (usize, usize)) -> (usize, usize) {
        let (r, c) = if self.transpose { (c, r) } else { (r, c) };
        let r = if self.flip_rows { n - 1 - r } else { r };
        let c = if self.flip_cols { n - 1 - c } else { c };
        (r, c)
    }

    pub(crate) fn cell(self, geometry: &Geometry, cell: Cell) -> Cell {
        let (r, c) = self.apply(geometry.size(), geometry.row_col(cell));
        geometry.cell(r, c)
    }
}

impl Symmetry {
    /// The maps that generate the symmetry's group.
    fn generators(self) -> Vec<Dihedral> {
        let map = |transpose, flip_rows, flip_cols| Dihedral { transpose, flip_rows, flip_cols };
        match self {
            Symmetry::None => vec![],
            Symmetry::Rot180 => vec![map(false, true, true)],
            // (r, c) → (c, n-1-r): a quarter turn clockwise.
            Symmetry::Rot90 => vec![map(true, false, true)],
            Symmetry::Mirror => vec![map(false, false, true)],
            Symmetry::Diagonal => vec![map(true, false, false)],
        }
    }

    /// The cells of `geometry` in orbits: a cell and all its images, each
    /// orbit sorted, the orbits in the order of their first cell.
    pub fn orbits(self, geometry: &Geometry) -> Vec<Vec<Cell>> {
        let generators = self.generators();
        let mut seen = vec![false; geometry.cell_count()];
        let mut orbits = Vec::new();
        for start in geometry.cells() {
            if seen[start.index()] {
                continue;
            }
            seen[start.index()] = true;
            let mut orbit = vec![start];
            let mut i = 0;
            while i < orbit.len() {
                for g in &generators {
                    let image = g.cell(geometry, orbit[i]);
                    if !seen[image.index()] {
                        seen[image.index()] = true;
                        orbit.push(image);
                    }
                }
                i += 1;
            }
            orbit.sort();
            orbits.push(orbit);
        }
        orbits
    }
}

/// The symmetries of the square that carry every unit of `geometry` onto a
/// unit: a subgroup of the eight (all of them for classic, X and hyper
/// grids with square boxes; usually only the identity for a jigsaw).
pub(crate) fn unit_preserving(geometry: &Geometry) -> Vec<Dihedral> {
    let key = |cells: &mut Vec<usize>| {
        cells.sort_unstable();
        cells.clone()
    };
    let mut units: Vec<Vec<usize>> =
        geometry.units().iter().map(|u| key(&mut u.cells().iter().map(|c| c.index()).collect())).collect();
    units.sort();
    Dihedral::all()
        .filter(|&d| {
            let mut images: Vec<Vec<usize>> = geometry
                .units()
                .iter()
                .map(|u| key(&mut u.cells().iter().map(|&c| d.cell(geometry, c).index()).collect()))
                .collect();
            images.sort();
            images == units
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::{Layout, Variant};

    #[test]
    fn orbits_have_the_sizes_of_their_groups() {
        let g = Geometry::classic(9).unwrap();
        let sizes = |s: Symmetry| {
            let mut sizes: Vec<usize> = s.orbits(&g).iter().map(Vec::len).collect();
            sizes.sort();
            sizes.dedup();
            sizes
        };
        assert_eq!(Symmetry::None.orbits(&g).len(), 81);
        assert_eq!(Symmetry::Rot180.orbits(&g).len(), 41);
        assert_eq!(sizes(Symmetry::Rot90), vec![1, 4]);
        assert_eq!(Symmetry::Rot90.orbits(&g).len(), 21);
        assert_eq!(Symmetry::Mirror.orbits(&g).len(), 45);
        assert_eq!(Symmetry::Diagonal.orbits(&g).len(), 45);
    }

    #[test]
    fn unit_preserving_maps() {
        assert_eq!(unit_preserving(&Geometry::classic(9).unwrap()).len(), 8);
        assert_eq!(
            unit_preserving(&Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::X]).unwrap()).len(),
            8
        );
        // 2×3 boxes are not square: transposing makes 3×2 boxes.
        assert_eq!(unit_preserving(&Geometry::classic(6).unwrap()).len(), 4);
        assert_eq!(unit_preserving(&Geometry::latin(5).unwrap()).len(), 8);
    }
}
