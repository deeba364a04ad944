//! Symmetries: of the pattern of givens (`--symmetry`), and the cell maps that
//! carry a grid's units onto themselves (used to move full grids around).

use std::collections::BTreeSet;

use crate::model::geometry::{Cell, Geometry, Unit, Variant};

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

/// The symmetries of the square that carry `geometry`'s grids to grids:
/// those that carry every unit onto a unit and every pair of cells a
/// neighbour rule relates onto a pair it relates. A subgroup of the eight:
/// all of them for classic, X and hyper grids with square boxes, and for the
/// neighbour rules (a knight's, a king's or an orthogonal step is one in
/// every symmetry of the square); usually only the identity for a jigsaw.
///
/// Units are compared as a set, each once: boxes of one row are the rows
/// again, and a grid with 1×n boxes is a Latin square, which transposing
/// keeps (compared as a list, its rows twice and columns once, it was not).
pub(crate) fn preserving(geometry: &Geometry) -> Vec<Dihedral> {
    let units = |d: Dihedral| -> BTreeSet<Vec<usize>> {
        let image = |unit: &Unit| {
            let mut cells: Vec<usize> = unit.cells().iter().map(|&c| d.cell(geometry, c).index()).collect();
            cells.sort_unstable();
            cells
        };
        geometry.units().iter().map(image).collect()
    };
    let pairs = |d: Dihedral| -> BTreeSet<(Variant, usize, usize)> {
        let rules = geometry.variants().iter().filter(|v| v.between_neighbours());
        let image = |variant: Variant, (a, b): (Cell, Cell)| {
            let (a, b) = (d.cell(geometry, a).index(), d.cell(geometry, b).index());
            (variant, a.min(b), a.max(b))
        };
        rules.flat_map(|&v| geometry.neighbour_pairs(v).into_iter().map(move |pair| image(v, pair))).collect()
    };
    let (units_kept, pairs_kept) = (units(Dihedral::IDENTITY), pairs(Dihedral::IDENTITY));
    Dihedral::all().filter(|&d| units(d) == units_kept && pairs(d) == pairs_kept).collect()
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
    fn preserving_maps() {
        let count = |layout, variants: &[Variant]| preserving(&Geometry::new(9, layout, variants).unwrap()).len();
        let boxes = || Layout::Boxes { rows: 3, cols: 3 };
        assert_eq!(preserving(&Geometry::classic(9).unwrap()).len(), 8);
        assert_eq!(count(boxes(), &[Variant::X]), 8);
        for rule in [Variant::AntiKnight, Variant::AntiKing, Variant::NonConsecutive] {
            assert_eq!(count(boxes(), &[rule]), 8, "{rule}");
        }
        // 2×3 boxes are not square: transposing makes 3×2 boxes.
        assert_eq!(preserving(&Geometry::classic(6).unwrap()).len(), 4);
        assert_eq!(preserving(&Geometry::latin(5).unwrap()).len(), 8);
        // Boxes of one row are the rows: a Latin square, with its eight.
        assert_eq!(count(Layout::Boxes { rows: 1, cols: 9 }, &[Variant::X]), 8);
        // A jigsaw whose regions the half turn alone keeps (it swaps the
        // first and last, the second and third).
        let map = "AAABABBBCCCDCDDD".bytes().map(|b| u32::from(b - b'A')).collect();
        let half_turn = Dihedral { transpose: false, flip_rows: true, flip_cols: true };
        assert_eq!(
            preserving(&Geometry::new(4, Layout::Regions(map), &[]).unwrap()),
            vec![Dihedral::IDENTITY, half_turn]
        );
    }
}
