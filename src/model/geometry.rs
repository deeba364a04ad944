//! Generalized grids: the cells, the values, and the units that must each hold every value once.

use std::fmt;
use std::num::NonZeroU16;
use std::sync::{Arc, OnceLock};

use itertools::Itertools;

use crate::error::GeometryError;
use crate::model::constraints::Constraint;
use crate::model::peers::Peers;

/// The largest grid side satdoku accepts. Values must fit in a `u16`, and
/// 1024² cells × 1024 values is already far past what fits in memory.
pub const MAX_SIZE: usize = 1024;

/// A cell of an n×n grid, by its row-major index (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u32);

impl Cell {
    /// The cell with row-major index `index`.
    ///
    /// # Panics
    /// When `index` is past 32 bits, where no grid has cells (the largest,
    /// [`MAX_SIZE`]², has about a million).
    pub fn from_index(index: usize) -> Cell {
        Cell(u32::try_from(index).expect("Cell::from_index: an index past 32 bits is in no grid"))
    }

    /// [`Cell::from_index`] for an index known to be below a grid's cell
    /// count (at most [`MAX_SIZE`]², which 32 bits hold): the loops over every
    /// cell, where the check costs.
    pub(crate) fn in_grid(index: usize) -> Cell {
        debug_assert!(index < MAX_SIZE * MAX_SIZE);
        Cell(index as u32)
    }

    /// The row-major index, 0-based.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A value of a grid: 1..=n. Held as the 1-based number people see, so that
/// `Option<Value>` (an empty or filled cell) costs two bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Value(NonZeroU16);

impl Value {
    /// The value numbered `number` (1-based) in a grid of side `n`, if 1 ≤ number ≤ n.
    pub fn new_checked(number: usize, n: usize) -> Option<Value> {
        if number == 0 || number > n || number > MAX_SIZE {
            return None;
        }
        NonZeroU16::new(number as u16).map(Value)
    }

    /// The value with 0-based index `index`. The caller guarantees `index < MAX_SIZE`.
    pub fn from_index(index: usize) -> Value {
        debug_assert!(index < MAX_SIZE);
        Value(NonZeroU16::new(index as u16 + 1).unwrap_or(NonZeroU16::MIN))
    }

    /// The number people see, 1-based.
    pub fn number(self) -> usize {
        self.0.get() as usize
    }

    /// The 0-based index.
    pub fn index(self) -> usize {
        self.0.get() as usize - 1
    }

    /// Every value of a grid of side `n`, in order.
    pub fn all(n: usize) -> impl Iterator<Item = Value> + Clone {
        (0..n.min(MAX_SIZE)).map(Value::from_index)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// What a unit is, for messages ("row 3", "box 7", "main diagonal").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box of R×C cells.
    Box,
    /// A jigsaw region.
    Region,
    /// The diagonal from r1c1 (X-sudoku).
    MainDiagonal,
    /// The diagonal from r1cn (X-sudoku).
    AntiDiagonal,
    /// A hyper window.
    Window,
    /// A region that hyper windows imply: the rows between the windows,
    /// or the columns between them, across one band of windows or across
    /// the other such rows or columns. See [`Variant::Hyper`].
    ImpliedWindow,
    /// A unit given as a list of cells.
    Extra,
    /// The cells in one position of every box (disjoint groups).
    DisjointGroup,
}

impl UnitKind {
    /// Whether units of this kind follow from the others rather than being
    /// rules of their own: every grid that keeps the stated units keeps
    /// them, so they help the search and the deductions and need no check.
    pub fn is_implied(self) -> bool {
        self == UnitKind::ImpliedWindow
    }
}

/// A set of n cells that must hold every value exactly once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    kind: UnitKind,
    /// 1-based number among the units of its kind.
    number: usize,
    cells: Vec<Cell>,
}

impl Unit {
    /// What the unit is.
    pub fn kind(&self) -> UnitKind {
        self.kind
    }

    /// Its n cells.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            UnitKind::Row => write!(f, "row {}", self.number),
            UnitKind::Column => write!(f, "column {}", self.number),
            UnitKind::Box => write!(f, "box {}", self.number),
            UnitKind::Region => write!(f, "region {}", self.number),
            UnitKind::MainDiagonal => write!(f, "main diagonal"),
            UnitKind::AntiDiagonal => write!(f, "anti-diagonal"),
            UnitKind::Window => write!(f, "window {}", self.number),
            UnitKind::ImpliedWindow => write!(f, "implied window {}", self.number),
            UnitKind::Extra => write!(f, "extra unit {}", self.number),
            UnitKind::DisjointGroup => write!(f, "disjoint group {}", self.number),
        }
    }
}

/// How the grid is cut into its third family of units (besides rows and columns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Boxes of `rows` × `cols` cells.
    Boxes {
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        cols: usize,
    },
    /// No boxes: a Latin square.
    Latin,
    /// Jigsaw: the region index (0-based) of every cell, row-major.
    Regions(Vec<u32>),
}

/// Global rules laid over the layout: extra units (`x`, also `diagonal`;
/// `hyper`, also `windoku`; `disjoint-groups`) and rules between neighbours
/// (`anti-knight`, `anti-king`, `non-consecutive`). Names in any case.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, strum::EnumString, strum::Display, strum::VariantNames,
)]
#[strum(ascii_case_insensitive)]
pub enum Variant {
    /// X-sudoku: both main diagonals.
    #[strum(to_string = "x", serialize = "diagonal")]
    X,
    /// Hyper-sudoku (windoku): the b×b windows between the boxes, for n = b².
    /// The 2b - 1 pieces of the grid the windows' rows and columns cut out
    /// besides the windows hold every value once in every such grid, and
    /// are units too ([`UnitKind::ImpliedWindow`]).
    #[strum(to_string = "hyper", serialize = "windoku")]
    Hyper,
    /// Cells a chess knight's move apart hold different values.
    #[strum(to_string = "anti-knight", serialize = "antiknight")]
    AntiKnight,
    /// Cells a chess king's move apart hold different values.
    #[strum(to_string = "anti-king", serialize = "antiking")]
    AntiKing,
    /// Orthogonal neighbours never hold consecutive values.
    #[strum(to_string = "non-consecutive", serialize = "nonconsecutive")]
    NonConsecutive,
    /// The cells in the same position of every box form a unit (boxes only).
    #[strum(to_string = "disjoint-groups", serialize = "disjointgroups", serialize = "disjoint")]
    DisjointGroups,
}

impl Variant {
    /// The name of every variant, as it is written (`x`, `anti-knight`, …).
    pub fn names() -> &'static [&'static str] {
        <Variant as strum::VariantNames>::VARIANTS
    }

    /// Whether the variant is a rule between neighbouring cells (anti-knight,
    /// anti-king, non-consecutive) rather than units.
    pub fn between_neighbours(self) -> bool {
        matches!(self, Variant::AntiKnight | Variant::AntiKing | Variant::NonConsecutive)
    }
}

/// A generalized grid: its side n and its units. Everything downstream of the
/// geometry (encoding, propagation, verification) sees only the units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    n: usize,
    layout: Layout,
    variants: Vec<Variant>,
    extra: Vec<Vec<Cell>>,
    units: Vec<Unit>,
    /// For each cell, the indices of the units it belongs to.
    cell_units: Vec<Vec<u32>>,
    /// The variant clues beyond units (cages, lines, dots ...).
    constraints: Vec<Constraint>,
    /// The flat peer tables of the bitset searches, built on first use.
    peers: Cached<Option<Arc<Peers>>>,
}

/// A value derived from the rest of its owner, computed on first use; it
/// takes no part in comparisons (two equal geometries are equal whether or
/// not either has built it).
#[derive(Clone, Debug, Default)]
struct Cached<T>(OnceLock<T>);

impl<T> PartialEq for Cached<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Cached<T> {}

impl Geometry {
    /// A classic grid of side `n` with the default box shape: the most square
    /// R×C with R ≤ C and R·C = n (6 → 2×3, 12 → 3×4). A prime n has no
    /// boxes and is refused: ask for a Latin square instead.
    pub fn classic(n: usize) -> Result<Geometry, GeometryError> {
        let (rows, cols) = default_box(n)?;
        Geometry::new(n, Layout::Boxes { rows, cols }, &[])
    }

    /// A Latin square of side `n`: rows and columns only.
    pub fn latin(n: usize) -> Result<Geometry, GeometryError> {
        Geometry::new(n, Layout::Latin, &[])
    }

    /// A grid of side `n` with `layout` and the units of `variants` on top.
    pub fn new(n: usize, layout: Layout, variants: &[Variant]) -> Result<Geometry, GeometryError> {
        Geometry::with_extra_units(n, layout, variants, Vec::new())
    }

    /// As [`Geometry::new`], plus arbitrary extra units given as lists of cells.
    pub fn with_extra_units(
        n: usize,
        layout: Layout,
        variants: &[Variant],
        extra: Vec<Vec<Cell>>,
    ) -> Result<Geometry, GeometryError> {
        if n == 0 || n > MAX_SIZE {
            return Err(GeometryError::Size { n });
        }
        let cell = |r: usize, c: usize| Cell::from_index(r * n + c);
        let mut units = Vec::new();
        for r in 0..n {
            units.push(Unit { kind: UnitKind::Row, number: r + 1, cells: (0..n).map(|c| cell(r, c)).collect() });
        }
        for c in 0..n {
            units.push(Unit { kind: UnitKind::Column, number: c + 1, cells: (0..n).map(|r| cell(r, c)).collect() });
        }
        match &layout {
            Layout::Boxes { rows, cols } => {
                let (rows, cols) = (*rows, *cols);
                if rows == 0 || cols == 0 || rows.checked_mul(cols) != Some(n) {
                    return Err(GeometryError::BoxShape { n, rows, cols });
                }
                // Boxes in reading order: n/rows bands of n/cols boxes.
                for b in 0..n {
                    let (top, left) = ((b / (n / cols)) * rows, (b % (n / cols)) * cols);
                    units.push(Unit {
                        kind: UnitKind::Box,
                        number: b + 1,
                        cells: (0..n).map(|i| cell(top + i / cols, left + i % cols)).collect(),
                    });
                }
            }
            Layout::Latin => {}
            Layout::Regions(map) => {
                if map.len() != n * n {
                    return Err(GeometryError::RegionsLength { n, expected: n * n, found: map.len() });
                }
                let mut regions = vec![Vec::new(); n];
                for (i, &r) in map.iter().enumerate() {
                    let Some(region) = regions.get_mut(r as usize) else {
                        let found = map.iter().collect::<std::collections::BTreeSet<_>>().len();
                        return Err(GeometryError::RegionCount { n, found });
                    };
                    region.push(Cell::from_index(i));
                }
                for (r, cells) in regions.into_iter().enumerate() {
                    if cells.len() != n {
                        return Err(GeometryError::RegionSize { region: r + 1, size: cells.len(), n });
                    }
                    units.push(Unit { kind: UnitKind::Region, number: r + 1, cells });
                }
            }
        }
        let mut variants = variants.to_vec();
        variants.sort();
        variants.dedup();
        for &variant in &variants {
            match variant {
                Variant::X => {
                    units.push(Unit {
                        kind: UnitKind::MainDiagonal,
                        number: 1,
                        cells: (0..n).map(|i| cell(i, i)).collect(),
                    });
                    units.push(Unit {
                        kind: UnitKind::AntiDiagonal,
                        number: 1,
                        cells: (0..n).map(|i| cell(i, n - 1 - i)).collect(),
                    });
                }
                Variant::DisjointGroups => {
                    let Layout::Boxes { rows, cols } = layout else {
                        return Err(GeometryError::DisjointGroups);
                    };
                    // Group i: the i-th cell (reading order) of every box.
                    for i in 0..n {
                        let cells = (0..n)
                            .map(|b| {
                                let (top, left) = ((b / (n / cols)) * rows, (b % (n / cols)) * cols);
                                cell(top + i / cols, left + i % cols)
                            })
                            .collect();
                        units.push(Unit { kind: UnitKind::DisjointGroup, number: i + 1, cells });
                    }
                }
                // Rules between neighbours: no units.
                Variant::AntiKnight | Variant::AntiKing | Variant::NonConsecutive => {}
                Variant::Hyper => {
                    let b = (1..=n).find(|b| b * b >= n).unwrap_or(n);
                    if b * b != n || b < 2 {
                        return Err(GeometryError::Hyper { n });
                    }
                    // Windows sit one cell in from the edge and one cell apart:
                    // for 9×9 at rows/columns 2-4 and 6-8. Their bands of b
                    // rows (or columns) and the band of the b rows between
                    // them (for 9×9 rows 1, 5 and 9) cut the grid into n
                    // pieces: the windows and the implied windows.
                    let mut bands: Vec<Vec<usize>> = vec![(0..b).map(|k| k * (b + 1)).collect()];
                    bands.extend((0..b - 1).map(|k| (0..b).map(|i| 1 + k * (b + 1) + i).collect()));
                    let pieces = || bands.iter().enumerate().cartesian_product(bands.iter().enumerate());
                    let piece = |rows: &[usize], cols: &[usize]| -> Vec<Cell> {
                        rows.iter().cartesian_product(cols).map(|(&r, &c)| cell(r, c)).collect()
                    };
                    let windows = pieces().filter(|((i, _), (j, _))| *i > 0 && *j > 0);
                    for (number, ((_, rows), (_, cols))) in windows.enumerate() {
                        units.push(Unit { kind: UnitKind::Window, number: number + 1, cells: piece(rows, cols) });
                    }
                    // The columns of a band of windows hold each value b
                    // times, and its b - 1 windows once each: the rows
                    // between the windows hold it once more there. The same
                    // across, and so the rows between the windows, holding
                    // each value b times, hold it once where they cross the
                    // columns between them. Every grid keeps these pieces
                    // too; as units, they give propagation and the search
                    // the windoku solver's deductions: 300 9×9 puzzles took
                    // 5× fewer instructions, and a blank 25×25 7.4 s where
                    // it had no answer in 30 s (docs/performance.md).
                    let implied = pieces().filter(|((i, _), (j, _))| *i == 0 || *j == 0);
                    for (number, ((_, rows), (_, cols))) in implied.enumerate() {
                        units.push(Unit {
                            kind: UnitKind::ImpliedWindow,
                            number: number + 1,
                            cells: piece(rows, cols),
                        });
                    }
                }
            }
        }
        // An extra unit that is a diagonal (f-puzzles' `diagonal-` and
        // `diagonal+`) goes by that name in messages, as X-sudoku's do: "extra
        // unit 1" named nothing the user wrote.
        let main: Vec<Cell> = (0..n).map(|r| cell(r, r)).collect();
        let anti: Vec<Cell> = (0..n).map(|r| cell(r, n - 1 - r)).collect();
        for (i, cells) in extra.iter().enumerate() {
            let mut sorted = cells.clone();
            sorted.sort();
            sorted.dedup();
            if sorted.len() != n || sorted.iter().any(|c| c.index() >= n * n) {
                return Err(GeometryError::ExtraUnit { unit: i + 1, n, size: sorted.len() });
            }
            let kind = match &sorted {
                cells if *cells == main => UnitKind::MainDiagonal,
                cells if *cells == anti => UnitKind::AntiDiagonal,
                _ => UnitKind::Extra,
            };
            units.push(Unit { kind, number: i + 1, cells: sorted });
        }
        let mut cell_units = vec![Vec::new(); n * n];
        for (u, unit) in units.iter().enumerate() {
            for c in &unit.cells {
                cell_units[c.index()].push(u as u32);
            }
        }
        Ok(Geometry {
            n,
            layout,
            variants,
            extra,
            units,
            cell_units,
            constraints: Vec::new(),
            peers: Cached::default(),
        })
    }

    /// This grid with the variant clues `constraints` on top; an error names
    /// the first clue no grid can satisfy (1-based among them).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use satdoku::{count_up_to, Constraint, Geometry, Grid, Puzzle, SolveOptions};
    ///
    /// // A 4x4 whose first row starts with a killer cage of 3: {1, 2} in some order.
    /// let cage = Constraint::parse("killer 3 r1c1 r1c2", 4)?;
    /// let geometry = Geometry::classic(4)?.with_constraints(vec![cage])?;
    /// let puzzle = Puzzle::new(Arc::new(geometry), Grid::empty(4)).expect("sizes match");
    /// // 288 grids, a sixth of them with {1, 2} in r1c1 and r1c2.
    /// assert_eq!(count_up_to(&puzzle, 1000, &SolveOptions::default())?.count, 48);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_constraints(mut self, constraints: Vec<Constraint>) -> Result<Geometry, GeometryError> {
        for (i, c) in constraints.iter().enumerate() {
            c.validate(self.n).map_err(|message| GeometryError::Constraint {
                number: i + 1,
                constraint: c.kind().to_string(),
                message,
            })?;
        }
        self.constraints = constraints;
        Ok(self)
    }

    /// The variant clues beyond units.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Whether anything but units constrains the grid (clues, or the rules
    /// between neighbours): what the unit-only shortcuts (bitset search,
    /// propagation's models) must then leave to the CNF.
    pub fn has_constraints(&self) -> bool {
        !self.constraints.is_empty() || self.variants.iter().any(|v| v.between_neighbours())
    }

    /// The peers and units as flat tables, for grids of side up to 64
    /// (built on first use, then shared by every puzzle of the geometry).
    pub(crate) fn peers(&self) -> Option<&Arc<Peers>> {
        self.peers.0.get_or_init(|| Peers::new(self).map(Arc::new)).as_ref()
    }

    /// The side: n×n cells, values 1..=n.
    pub fn size(&self) -> usize {
        self.n
    }

    /// n².
    pub fn cell_count(&self) -> usize {
        self.n * self.n
    }

    /// Boxes, Latin, or regions.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The variants whose units are laid over the layout.
    pub fn variants(&self) -> &[Variant] {
        &self.variants
    }

    /// The extra units given as cell lists (not those of the variants).
    pub fn extra_units(&self) -> &[Vec<Cell>] {
        &self.extra
    }

    /// Every unit: rows, columns, boxes or regions, then the variants' and the extra ones.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The indices (into [`Geometry::units`]) of the units `cell` is in.
    ///
    /// # Panics
    /// When `cell` is outside the grid.
    pub fn units_of(&self, cell: Cell) -> &[u32] {
        &self.cell_units[cell.index()]
    }

    /// Every cell, in row-major order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> {
        (0..self.cell_count()).map(Cell::in_grid)
    }

    /// The cell at `row`, `col` (0-based).
    pub fn cell(&self, row: usize, col: usize) -> Cell {
        Cell::from_index(row * self.n + col)
    }

    /// (row, column), 0-based.
    pub fn row_col(&self, cell: Cell) -> (usize, usize) {
        (cell.index() / self.n, cell.index() % self.n)
    }

    /// The pairs of cells a neighbour rule relates, each pair once: a
    /// knight's move apart (anti-knight), a king's move (anti-king), or
    /// orthogonally adjacent (non-consecutive); none for the other variants.
    pub fn neighbour_pairs(&self, variant: Variant) -> Vec<(Cell, Cell)> {
        let moves: &[(i64, i64)] = match variant {
            Variant::AntiKnight => &[(1, 2), (2, 1), (1, -2), (2, -1)],
            Variant::AntiKing => &[(1, 1), (1, -1), (0, 1), (1, 0)],
            Variant::NonConsecutive => &[(0, 1), (1, 0)],
            Variant::X | Variant::Hyper | Variant::DisjointGroups => &[],
        };
        let n = self.n as i64;
        let mut pairs = Vec::new();
        for a in self.cells() {
            let (r, c) = self.row_col(a);
            for &(dr, dc) in moves {
                let (r2, c2) = (r as i64 + dr, c as i64 + dc);
                if (0..n).contains(&r2) && (0..n).contains(&c2) {
                    pairs.push((a, self.cell(r2 as usize, c2 as usize)));
                }
            }
        }
        pairs
    }

    /// The cell's name as people write it: `r4c5` (1-based).
    pub fn cell_name(&self, cell: Cell) -> String {
        let (r, c) = self.row_col(cell);
        format!("r{}c{}", r + 1, c + 1)
    }

    /// A short description: `9x9, 3x3 boxes, x`.
    pub fn describe(&self) -> String {
        let mut s = format!("{0}x{0}", self.n);
        match &self.layout {
            Layout::Boxes { rows, cols } => s.push_str(&format!(", {rows}x{cols} boxes")),
            Layout::Latin => s.push_str(", latin"),
            Layout::Regions(_) => s.push_str(", jigsaw"),
        }
        for v in &self.variants {
            s.push_str(", ");
            s.push_str(&v.to_string());
        }
        let plural = |k: usize| if k == 1 { "" } else { "s" };
        if !self.extra.is_empty() {
            s.push_str(&format!(", {} extra unit{}", self.extra.len(), plural(self.extra.len())));
        }
        if !self.constraints.is_empty() {
            s.push_str(&format!(", {} constraint{}", self.constraints.len(), plural(self.constraints.len())));
        }
        s
    }

    /// The region (box or jigsaw region) of each cell, if the layout has one:
    /// what a grid printer draws borders around.
    ///
    /// # Panics
    /// When `cell` is outside the grid.
    pub fn region_of(&self, cell: Cell) -> Option<usize> {
        assert!(cell.index() < self.cell_count(), "Geometry::region_of: {cell:?} is outside the {0}x{0} grid", self.n);
        match &self.layout {
            Layout::Boxes { rows, cols } => {
                let (r, c) = self.row_col(cell);
                Some((r / rows) * (self.n / cols) + c / cols)
            }
            Layout::Latin => None,
            Layout::Regions(map) => Some(map[cell.index()] as usize),
        }
    }
}

/// The most square box shape R×C, R ≤ C, R·C = n. Errors for a prime n (> 3)
/// where the only "box" would be a whole row.
pub fn default_box(n: usize) -> Result<(usize, usize), GeometryError> {
    if n == 0 || n > MAX_SIZE {
        return Err(GeometryError::Size { n });
    }
    if n == 1 {
        return Ok((1, 1));
    }
    let rows = (1..=n).take_while(|r| r * r <= n).filter(|r| n % r == 0).last().unwrap_or(1);
    if rows == 1 {
        return Err(GeometryError::Prime { n });
    }
    Ok((rows, n / rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::notation::parse_region_map;

    #[test]
    fn default_boxes_are_the_most_square_shape() {
        let cases = [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (10, (2, 5)), (12, (3, 4)), (16, (4, 4))];
        for (n, shape) in cases {
            assert_eq!(default_box(n).unwrap(), shape, "n = {n}");
        }
        assert!(matches!(default_box(7), Err(GeometryError::Prime { n: 7 })));
    }

    #[test]
    fn every_unit_has_n_distinct_cells() {
        let g = Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::X, Variant::Hyper]).unwrap();
        assert_eq!(g.units().len(), 9 * 3 + 2 + 4 + 5);
        for unit in g.units() {
            let mut cells = unit.cells().to_vec();
            cells.sort();
            cells.dedup();
            assert_eq!(cells.len(), 9, "{unit}");
        }
    }

    #[test]
    fn boxes_of_2x3_tile_a_6x6_grid() {
        let g = Geometry::new(6, Layout::Boxes { rows: 2, cols: 3 }, &[]).unwrap();
        let boxes: Vec<&Unit> = g.units().iter().filter(|u| u.kind() == UnitKind::Box).collect();
        assert_eq!(boxes.len(), 6);
        let second: Vec<usize> = boxes[1].cells().iter().map(|c| c.index()).collect();
        assert_eq!(second, vec![3, 4, 5, 9, 10, 11]);
    }

    #[test]
    fn hyper_windows_of_9x9_are_at_rows_and_columns_2_to_4_and_6_to_8() {
        let g = Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::Hyper]).unwrap();
        let windows: Vec<&Unit> = g.units().iter().filter(|u| u.kind() == UnitKind::Window).collect();
        assert_eq!(windows.len(), 4);
        let corners: Vec<(usize, usize)> = windows.iter().map(|w| g.row_col(w.cells()[0])).collect();
        assert_eq!(corners, vec![(1, 1), (1, 5), (5, 1), (5, 5)]);
        assert!(matches!(Geometry::new(6, Layout::Latin, &[Variant::Hyper]), Err(GeometryError::Hyper { n: 6 })));
    }

    #[test]
    fn windows_and_implied_windows_cut_the_grid_into_n_pieces() {
        for b in 2..=7 {
            let n = b * b;
            let g = Geometry::new(n, Layout::Latin, &[Variant::Hyper]).unwrap();
            let kinds = [UnitKind::Window, UnitKind::ImpliedWindow];
            let pieces: Vec<&Unit> = g.units().iter().filter(|u| kinds.contains(&u.kind())).collect();
            assert_eq!(pieces.len(), n, "n = {n}");
            assert_eq!(pieces.iter().filter(|u| u.kind().is_implied()).count(), 2 * b - 1, "n = {n}");
            let mut covered = vec![0; n * n];
            pieces.iter().flat_map(|u| u.cells()).for_each(|c| covered[c.index()] += 1);
            assert!(covered.iter().all(|&k| k == 1), "n = {n}: {covered:?}");
        }
        // 9×9: the rows 1, 5 and 9 across columns 1, 5 and 9, then across
        // the columns of the first windows.
        let g = Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::Hyper]).unwrap();
        let implied: Vec<&Unit> = g.units().iter().filter(|u| u.kind().is_implied()).collect();
        let names = |u: &Unit| u.cells().iter().map(|&c| g.cell_name(c)).collect::<Vec<_>>().join(" ");
        assert_eq!(names(implied[0]), "r1c1 r1c5 r1c9 r5c1 r5c5 r5c9 r9c1 r9c5 r9c9");
        assert_eq!(names(implied[1]), "r1c2 r1c3 r1c4 r5c2 r5c3 r5c4 r9c2 r9c3 r9c4");
        assert_eq!(implied[1].to_string(), "implied window 2");
    }

    #[test]
    fn bad_layouts_are_refused() {
        assert!(matches!(
            Geometry::new(9, Layout::Boxes { rows: 2, cols: 4 }, &[]),
            Err(GeometryError::BoxShape { .. })
        ));
        assert!(matches!(
            Geometry::new(4, Layout::Regions(vec![0; 15]), &[]),
            Err(GeometryError::RegionsLength { .. })
        ));
        let uneven = parse_region_map("0001 0011 2233 2233");
        assert!(matches!(Geometry::new(4, Layout::Regions(uneven), &[]), Err(GeometryError::RegionSize { .. })));
        // Too many labels: the error counts them all (it said 5, the first
        // label past the fourth).
        for (map, found) in [("abcdefghijklmnop", 16), ("aabbaabbCCDDccdd", 6)] {
            let error = Geometry::new(4, Layout::Regions(parse_region_map(map)), &[]).unwrap_err();
            assert_eq!(error, GeometryError::RegionCount { n: 4, found }, "{map}");
        }
    }
}
