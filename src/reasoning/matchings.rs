//! Full grids of a box layout built from random perfect matchings: blank and
//! sparse grids of any side in milliseconds, where a cell-by-cell search
//! thrashes (a blank 81×81) and CDCL drowns in its formula.
//!
//! A grid with boxes of `rows × cols` cells is the same thing as two choices
//! per value `v` and box:
//! - the row of the box holding `v`. In each band (a row of boxes) and each
//!   of its rows, this assigns every value to one box and every box `cols`
//!   values: a matching of values into boxes of capacity `cols`;
//! - the column of the box holding `v`. In each stack (a column of boxes) and
//!   each of its columns, this assigns every value to one (box, row) of the
//!   stack, where the first choice put it, and every (box, row) one value: a
//!   perfect matching of values into the stack's (box, row) pairs.
//!
//! Rows, columns and boxes then hold every value once. On a blank grid both
//! bipartite graphs are regular, so each matching exists whatever was chosen
//! before (Hall's theorem: a regular bipartite graph has a perfect matching,
//! and taking one out leaves it regular): the construction never fails and
//! never backtracks. Which matching is taken is random (values and edges in
//! random order), so different seeds give different grids, and any grid of
//! the layout can come out. Givens and the candidates propagation left only
//! remove edges; then a matching may fail (the graphs are no longer
//! regular). A stack's columns are drawn most constrained first, and its
//! last two columns are placed exactly (their graph is a union of even
//! cycles). A stack whose first draw fails goes to a tabu search
//! ([`crate::reasoning::partialcol`]): with the values' rows fixed, a stack
//! is a list edge colouring of the rows and values, the stack's columns its
//! colours. Where the search gives up, the stack is drawn again, each column
//! until the columns left still have matchings, and a stack whose draws all
//! fail is handed to the CDCL solver, which places it exactly: the stacks are
//! independent problems of `n · cols²` variables, where the whole grid's
//! `n³` drown it. Where it finds no
//! completion (or gives up), the values' rows are kept and the cell-by-cell
//! search of [`crate::reasoning::fill`] places them (each cell then has
//! `cols` candidates at most), up to [`SEARCH_MAX_SIZE`]; else the whole
//! construction starts over, a bounded number of times.

use std::time::Instant;

use varisat::{ExtendFormula, Lit};

use crate::cnf::encode::{at_most_one, AmoEncoding};
use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry, Layout, UnitKind, Value};
use crate::reasoning::fill::{decide, fill, Fill};
use crate::reasoning::partialcol::{colour_edges, ListEdges};
use crate::rng::Rng;
use crate::sat::varisat::{new_solver, run};
use crate::sat::SatResult;

/// How many times one band's rows, or one stack's columns, are drawn before
/// the whole construction starts over.
const TRIES: u32 = 64;

/// How many times one column's matching is drawn in [`Weaver::stack`]
/// before the stack is drawn again, when it leaves a later column without
/// a perfect matching.
const LOOK_AHEAD: u32 = 256;

/// How many of the columns left the look-ahead checks after each draw (the
/// most constrained): all of a box layout's up to side 256, a bounded
/// share of a Latin square's one stack of n columns.
const LOOK_AHEAD_COLUMNS: usize = 16;

/// The widest boxes whose stacks [`Weaver::stack_exactly`] places where the
/// draws fail: a stack is `n · cols²` variables (a Latin square's one stack
/// is the whole grid).
const EXACT_MAX_COLS: usize = 32;

/// How much work [`Weaver::stack_by_search`] does, per edge of the stack (a
/// value in a box), before it gives up: (edge, colour) pairs looked at,
/// about 5 ns each. The stacks of 196–256 sides with 10% given took up to
/// about 2,200 an edge, a Latin square of 225 about 1,300.
const SEARCH_WORK_PER_EDGE: u64 = 20_000;

/// The most (edge, colour) pairs [`Weaver::stack_by_search`] takes on: the
/// tabu search's tables hold an entry for each, and a Latin square's one
/// stack has n³ of them (2^23 at 225×225; at 1000×1000, 6 GB of tables,
/// which aborted under a 4 GB limit when diagonals' cells were fixed).
const SEARCH_MAX_PAIRS: usize = 1 << 26;

/// How many conflicts [`Weaver::stack_exactly`] allows a stack before the
/// whole construction starts over.
const EXACT_CONFLICTS: u64 = 10_000;

/// The largest side the cell-by-cell search within the values' rows is
/// tried on (the search scans the grid at each decision: a sparse 144×144
/// was not filled in 40 s).
const SEARCH_MAX_SIZE: usize = 100;

/// A full grid (every cell a single candidate) within `domains`, built by
/// matchings as the module says, seeded by `seed`; `None` when the geometry
/// has units besides rows, columns and boxes, or after `attempts`
/// constructions failed, or past the deadline. Not verified: the caller does.
pub(crate) fn weave(
    geometry: &Geometry,
    domains: &Domains,
    seed: u64,
    attempts: u32,
    deadline: Option<Instant>,
) -> Option<Domains> {
    let (rows, cols) = box_shape(geometry)?;
    let weaver = Weaver { geometry, domains, rows, cols };
    let mut rng = Rng::new(seed);
    for _ in 0..attempts {
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return None;
        }
        let Some(row_of) = weaver.rows_of_values(&mut rng) else { continue };
        if let Some(grid) = weaver.grid(&row_of, &mut rng, deadline) {
            return Some(grid);
        }
        // Givens left some column without a perfect matching: the values'
        // rows stand, the cell-by-cell search places them in their rows.
        if geometry.size() <= SEARCH_MAX_SIZE {
            let cells = geometry.cell_count() as u64;
            let within_rows = weaver.within_rows(&row_of);
            if let Fill::Filled(grid) = fill(geometry, &within_rows, rng.next(), (1, cells), deadline) {
                return Some(grid);
            }
        }
    }
    None
}

/// The largest share of the grid's cells (in percent) that the units besides
/// rows, columns and boxes may cover for [`weave_around`]: X-sudoku's two
/// diagonals from 25×25 on (49 of 625 cells, 7.8%). Hyper windows and
/// disjoint groups cover most of the grid, and these cells are decided by a
/// search that looks at the whole grid for each.
const AROUND_MAX_PERCENT: usize = 10;

/// [`weave`] on a box or Latin layout with units on top that cover few
/// cells (X-sudoku's diagonals: 2n of n² cells), where a blank 64×64
/// X-sudoku got no answer from the CDCL search in 30 s. The cells of those
/// units are decided first, by the cell-by-cell search on the whole
/// geometry, every unit and propagation over the whole grid included; then
/// the layout without those units is woven around them. The units on top
/// hold only decided cells, which the search made differ in each, so any
/// completion keeps them. `None` as [`weave`], and where the layout has
/// rules besides units, or the units on top cover more than
/// [`AROUND_MAX_PERCENT`] of the cells.
pub(crate) fn weave_around(
    geometry: &Geometry,
    domains: &Domains,
    seed: u64,
    attempts: u32,
    deadline: Option<Instant>,
) -> Option<Domains> {
    let cells = cells_around(geometry)?;
    let plain = Geometry::new(geometry.size(), geometry.layout().clone(), &[]).ok()?;
    let mut rng = Rng::new(seed);
    for _ in 0..attempts {
        // As many failed values as there are cells to decide: they are few.
        match decide(geometry, domains, &cells, rng.next(), (1, cells.len() as u64), deadline) {
            Fill::Filled(decided) => {
                if let Some(grid) = weave(&plain, &decided, rng.next(), 1, deadline) {
                    return Some(grid);
                }
            }
            Fill::GaveUp if deadline.is_none_or(|deadline| Instant::now() < deadline) => {}
            Fill::GaveUp | Fill::Exhausted => return None,
        }
    }
    None
}

/// The cells [`weave_around`] decides first: those of the units beyond
/// rows, columns and boxes, on a box or Latin layout with no other rules,
/// where they cover at most [`AROUND_MAX_PERCENT`] of the grid; `None`
/// where it does not apply.
pub(crate) fn cells_around(geometry: &Geometry) -> Option<Vec<Cell>> {
    // `has_constraints` counts the rules between neighbours too.
    if geometry.has_constraints() || !matches!(geometry.layout(), Layout::Boxes { .. } | Layout::Latin) {
        return None;
    }
    let mut cells: Vec<Cell> = geometry
        .units()
        .iter()
        .filter(|unit| !matches!(unit.kind(), UnitKind::Row | UnitKind::Column | UnitKind::Box))
        .flat_map(|unit| unit.cells().iter().copied())
        .collect();
    cells.sort_unstable_by_key(|cell| cell.index());
    cells.dedup();
    let few = !cells.is_empty() && cells.len() * 100 <= geometry.cell_count() * AROUND_MAX_PERCENT;
    few.then_some(cells)
}

/// Whether [`weave`] builds grids of `geometry`: its only units are rows,
/// columns and boxes.
pub(crate) fn weaves(geometry: &Geometry) -> bool {
    box_shape(geometry).is_some()
}

/// The box shape `rows × cols` of a grid whose only units are rows, columns
/// and boxes (a Latin square: boxes of one row).
fn box_shape(geometry: &Geometry) -> Option<(usize, usize)> {
    let plain = geometry.variants().is_empty() && geometry.extra_units().is_empty() && !geometry.has_constraints();
    match geometry.layout() {
        Layout::Boxes { rows, cols } if plain && rows * cols == geometry.size() => Some((*rows, *cols)),
        Layout::Latin if plain => Some((1, geometry.size())),
        _ => None,
    }
}

/// The construction's fixed inputs.
struct Weaver<'a> {
    geometry: &'a Geometry,
    domains: &'a Domains,
    rows: usize,
    cols: usize,
}

/// No row chosen yet (in [`Weaver::rows_of_values`]'s table).
const UNSET: u16 = u16::MAX;

impl Weaver<'_> {
    fn n(&self) -> usize {
        self.geometry.size()
    }

    /// Boxes across a band (and bands down the grid: `n / rows`).
    fn boxes_across(&self) -> usize {
        self.n() / self.cols
    }

    fn bands(&self) -> usize {
        self.n() / self.rows
    }

    /// The row (0-based, within its box) of each value in each box: indexed
    /// `[value * boxes + box]`, boxes row-major. Band by band, row by row.
    fn rows_of_values(&self, rng: &mut Rng) -> Option<Vec<u16>> {
        let (n, across) = (self.n(), self.boxes_across());
        let mut row_of = vec![UNSET; n * n];
        for band in 0..self.bands() {
            let drawn = (0..TRIES).any(|_| {
                for value in 0..n {
                    row_of[value * n + band * across..][..across].fill(UNSET);
                }
                (0..self.rows).all(|row| self.band_row(band, row, &mut row_of, rng))
            });
            if !drawn {
                return None;
            }
        }
        Some(row_of)
    }

    /// Assign every value a box of `band` for the band's row `row` (each box
    /// `cols` values), among boxes it has no row in yet and where some cell of
    /// that row may hold it. False when no such assignment exists.
    fn band_row(&self, band: usize, row: usize, row_of: &mut [u16], rng: &mut Rng) -> bool {
        let (n, across) = (self.n(), self.boxes_across());
        let r = band * self.rows + row;
        let edges: Vec<Vec<u32>> = (0..n)
            .map(|value| {
                let v = Value::from_index(value);
                let mut boxes: Vec<u32> = (0..across)
                    .filter(|&b| row_of[value * n + band * across + b] == UNSET)
                    .filter(|&b| {
                        (0..self.cols).any(|c| self.domains.contains(self.geometry.cell(r, b * self.cols + c), v))
                    })
                    .map(|b| b as u32)
                    .collect();
                rng.shuffle(&mut boxes);
                boxes
            })
            .collect();
        let Some(boxes) = match_all(&edges, across, self.cols, rng) else { return false };
        for (value, b) in boxes.into_iter().enumerate() {
            row_of[value * n + band * across + b as usize] = row as u16;
        }
        true
    }

    /// The grid from the rows of the values: stack by stack, column by
    /// column, every value a (box, row) of the stack where its row is.
    fn grid(&self, row_of: &[u16], rng: &mut Rng, deadline: Option<Instant>) -> Option<Domains> {
        let n = self.n();
        let mut grid = vec![0u16; n * n];
        for stack in 0..self.boxes_across() {
            // One draw without the look-ahead: cheap, and enough where the
            // givens are few and spread. Then the tabu search, which places
            // the stacks of 10% given in milliseconds where 64 draws fail
            // and CDCL runs out of conflicts; the draws and CDCL stay as the
            // fallback where it gives up.
            let placed = self.stack(stack, row_of, &mut grid, rng, false, deadline)
                || self.stack_by_search(stack, row_of, &mut grid, rng, deadline)
                || (1..TRIES).any(|_| self.stack(stack, row_of, &mut grid, rng, true, deadline))
                || self.cols <= EXACT_MAX_COLS && self.stack_exactly(stack, row_of, &mut grid, deadline);
            if !placed {
                return None;
            }
        }
        let mut domains = Domains::full(n);
        for (i, &value) in grid.iter().enumerate() {
            domains.fix(Cell::from_index(i), Value::from_index(value as usize));
        }
        Some(domains)
    }

    /// Fill the columns of `stack` in `grid` (values 0-based), one perfect
    /// matching of values into the stack's (box, row) pairs per column. A
    /// (box, row) pair of the stack is a row of the grid. The column with the
    /// fewest edges goes first; with `look_ahead`, its matching is drawn
    /// again, up to [`LOOK_AHEAD`] times, until the columns left still have
    /// one; the last two columns are placed exactly by [`Weaver::last_two`].
    /// False when the stack cannot be completed this way, or past the
    /// deadline (a Latin square's one stack of 1024 columns takes seconds).
    fn stack(
        &self,
        stack: usize,
        row_of: &[u16],
        grid: &mut [u16],
        rng: &mut Rng,
        look_ahead: bool,
        deadline: Option<Instant>,
    ) -> bool {
        let late = || deadline.is_some_and(|deadline| Instant::now() >= deadline);
        if late() {
            return false;
        }
        let (n, bands, cols) = (self.n(), self.bands(), self.cols);
        // Whether each value is placed in each box of the stack (by band).
        let mut placed = vec![false; n * bands];
        let mut open: Vec<usize> = (stack * cols..(stack + 1) * cols).collect();
        // The (value, row) edges of each column of the stack, kept up to date
        // as columns are placed.
        let mut edge_counts: Vec<usize> = Vec::with_capacity(open.len());
        for &c in &open {
            if late() {
                return false;
            }
            edge_counts.push((0..n).map(|value| self.rows_in_column(stack, c, row_of, &placed, value).count()).sum());
        }
        while !open.is_empty() {
            if late() {
                return false;
            }
            if let [a, b] = open[..] {
                let Some(cells) = self.last_two(stack, (a, b), row_of, &placed, rng) else { return false };
                for (value, r, c) in cells {
                    grid[r * n + c] = value as u16;
                }
                return true;
            }
            // The column with the fewest edges goes first: the last ones
            // drawn should be the ones with most room.
            open.sort_by_key(|&c| edge_counts[c - stack * cols]);
            let c = open.remove(0);
            // Each value has `open.len() + 1` boxes left in the stack, and each
            // row as many values. A column with all those edges still there
            // has a regular graph, which stays regular whatever matching is
            // taken from the others: it needs no look-ahead. The look-ahead
            // checks the others, the most constrained first, up to
            // `LOOK_AHEAD_COLUMNS` (all of a box layout's; a bounded share
            // of a Latin square's one stack of n columns).
            let full = n * (open.len() + 1);
            let watched: Vec<usize> = open
                .iter()
                .copied()
                .filter(|&later| look_ahead && edge_counts[later - stack * cols] < full)
                .take(LOOK_AHEAD_COLUMNS)
                .collect();
            let mut chosen = None;
            // The column's edges stay the same across redraws; only their order changes.
            let mut edges = self.column_edges(stack, c, row_of, &placed);
            for _ in 0..LOOK_AHEAD {
                if late() {
                    return false;
                }
                edges.iter_mut().for_each(|rows| rng.shuffle(rows));
                // `match_all` is exact: no matching now means none on a redraw.
                let Some(rows) = match_all(&edges, n, 1, rng) else { return false };
                let mut after = placed.clone();
                for (value, &r) in rows.iter().enumerate() {
                    after[value * bands + r as usize / self.rows] = true;
                }
                let fits = watched.is_empty()
                    || match open[..] {
                        [a, b] => self.last_two(stack, (a, b), row_of, &after, rng).is_some(),
                        _ => watched.iter().all(|&later| {
                            let edges = self.column_edges(stack, later, row_of, &after);
                            match_all(&edges, n, 1, rng).is_some()
                        }),
                    };
                if fits {
                    chosen = Some(rows);
                    break;
                }
            }
            let Some(rows) = chosen else { return false };
            for (value, r) in rows.into_iter().enumerate() {
                let r = r as usize;
                placed[value * bands + r / self.rows] = true;
                grid[r * n + c] = value as u16;
                // The value's edge in this row is gone from the other columns.
                for &later in &open {
                    if self.domains.contains(self.geometry.cell(r, later), Value::from_index(value)) {
                        edge_counts[later - stack * cols] -= 1;
                    }
                }
            }
        }
        true
    }

    /// Fill the columns of `stack` in `grid` by the tabu search of
    /// [`crate::reasoning::partialcol`]: rows and values are the vertices,
    /// each value's row in each box of the stack an edge, the stack's columns
    /// its colours. False when the search gives up (there may be no way).
    fn stack_by_search(
        &self,
        stack: usize,
        row_of: &[u16],
        grid: &mut [u16],
        rng: &mut Rng,
        deadline: Option<Instant>,
    ) -> bool {
        let (n, bands, cols) = (self.n(), self.bands(), self.cols);
        if n * bands * cols > SEARCH_MAX_PAIRS {
            return false;
        }
        let mut graph = ListEdges::new(cols);
        // Edge `value * bands + band`.
        for value in 0..n {
            for band in 0..bands {
                let r = self.row_in(row_of, value, band, stack);
                let v = Value::from_index(value);
                graph.push(
                    r,
                    value,
                    (0..cols).filter(|&j| self.domains.contains(self.geometry.cell(r, stack * cols + j), v)),
                );
            }
        }
        let budget = SEARCH_WORK_PER_EDGE * (n * bands) as u64;
        let Some(colours) = colour_edges(&graph, rng, budget, deadline) else { return false };
        for (e, &j) in colours.iter().enumerate() {
            let (value, band) = (e / bands, e % bands);
            grid[self.row_in(row_of, value, band, stack) * n + stack * cols + j as usize] = value as u16;
        }
        true
    }

    /// Fill the columns of `stack` in `grid` as [`Weaver::stack`] does, but
    /// exactly: the CDCL solver places every value of each row of the stack
    /// in one of the row's cells there, each value once in each column. False
    /// when that is impossible with these rows of the values (or the solver
    /// gave up: past the deadline or [`EXACT_CONFLICTS`]).
    fn stack_exactly(&self, stack: usize, row_of: &[u16], grid: &mut [u16], deadline: Option<Instant>) -> bool {
        let (n, bands, cols) = (self.n(), self.bands(), self.cols);
        // The values of each row of the stack (`cols` of them, by the rows'
        // matchings), and each value's place `k` among its row's.
        let mut values_of_row: Vec<Vec<usize>> = vec![Vec::with_capacity(cols); n];
        let mut place = vec![0; n * bands];
        for value in 0..n {
            for band in 0..bands {
                let r = self.row_in(row_of, value, band, stack);
                place[value * bands + band] = values_of_row[r].len();
                values_of_row[r].push(value);
            }
        }
        debug_assert!(values_of_row.iter().all(|values| values.len() == cols), "a box's row holds `cols` values");
        // `x(r, j, k)`: the `j`-th column of the stack holds row `r`'s `k`-th value.
        let x = |r: usize, j: usize, k: usize| Lit::from_index((r * cols + j) * cols + k, true);
        let allowed = |r: usize, j: usize, k: usize| {
            let cell = self.geometry.cell(r, stack * cols + j);
            self.domains.contains(cell, Value::from_index(values_of_row[r][k]))
        };
        let mut solver = new_solver();
        solver.set_deadline(deadline);
        solver.set_conflict_limit(Some(EXACT_CONFLICTS));
        // Pairwise: at most `EXACT_MAX_COLS` literals, and no fresh variables,
        // which varisat would number among the `x`s not yet written.
        let mut exactly_one = |lits: Vec<Lit>| {
            solver.add_clause(&lits);
            at_most_one(&mut solver, &lits, AmoEncoding::Pairwise);
        };
        for r in 0..n {
            for j in 0..cols {
                // Each cell one of its row's values...
                exactly_one((0..cols).filter(|&k| allowed(r, j, k)).map(|k| x(r, j, k)).collect());
            }
            for k in 0..cols {
                // ...and each of the row's values one cell.
                exactly_one((0..cols).filter(|&j| allowed(r, j, k)).map(|j| x(r, j, k)).collect());
            }
        }
        for value in 0..n {
            for j in 0..cols {
                // Each value once in each column: in one of its rows, one per box.
                exactly_one(
                    (0..bands)
                        .map(|band| (self.row_in(row_of, value, band, stack), band))
                        .filter(|&(r, band)| allowed(r, j, place[value * bands + band]))
                        .map(|(r, band)| x(r, j, place[value * bands + band]))
                        .collect(),
                );
            }
        }
        for r in 0..n {
            for j in 0..cols {
                for k in (0..cols).filter(|&k| !allowed(r, j, k)) {
                    solver.add_clause(&[!x(r, j, k)]);
                }
            }
        }
        let Ok(SatResult::Sat(model)) = run(&mut solver) else { return false };
        for r in 0..n {
            for j in 0..cols {
                let Some(k) = (0..cols).find(|&k| model.value(x(r, j, k).var()) == Some(true)) else { return false };
                grid[r * n + stack * cols + j] = values_of_row[r][k] as u16;
            }
        }
        true
    }

    /// The last two columns of `stack`, given the values `placed` in its
    /// boxes: (value, row, column) of each of their cells, or `None` when no
    /// completion exists. Every value then has two boxes left, so two rows,
    /// and every row two values: the graph of rows and values is 2-regular, a
    /// union of even cycles. Along a cycle the two columns must alternate,
    /// so each cycle has two colourings; one the candidates allow is taken
    /// at random. This is exact, not a draw: it finds a completion whenever
    /// one exists.
    fn last_two(
        &self,
        stack: usize,
        columns: (usize, usize),
        row_of: &[u16],
        placed: &[bool],
        rng: &mut Rng,
    ) -> Option<Vec<(usize, usize, usize)>> {
        let (n, bands) = (self.n(), self.bands());
        // Edge `2v + i`: value `v` in the row of its `i`-th unplaced box.
        let mut row_at = vec![0u32; 2 * n];
        let mut row_edges = vec![[NONE; 2]; n];
        for value in 0..n {
            let mut open = (0..bands).filter(|&band| !placed[value * bands + band]);
            for i in 0..2 {
                let band = open.next()?;
                let r = self.row_in(row_of, value, band, stack);
                let e = (2 * value + i) as u32;
                row_at[e as usize] = r as u32;
                *row_edges[r].iter_mut().find(|slot| **slot == NONE)? = e;
            }
            if open.next().is_some() {
                return None;
            }
        }
        let allowed = |e: u32, c: usize| {
            let cell = self.geometry.cell(row_at[e as usize] as usize, c);
            self.domains.contains(cell, Value::from_index(e as usize / 2))
        };
        let mut seen = vec![false; 2 * n];
        let mut cells = Vec::with_capacity(2 * n);
        let mut cycle = Vec::new();
        for start in 0..2 * n as u32 {
            if seen[start as usize] {
                continue;
            }
            cycle.clear();
            let mut e = start;
            loop {
                // Across the row to its other value, then across that value to its other row.
                let [a, b] = row_edges[row_at[e as usize] as usize];
                let other = if a == e { b } else { a };
                seen[e as usize] = true;
                seen[other as usize] = true;
                cycle.extend([e, other]);
                e = other ^ 1;
                if e == start {
                    break;
                }
            }
            // Even places of the cycle take one column, odd places the other.
            let fits = |(even, odd): (usize, usize)| {
                cycle.iter().enumerate().all(|(i, &e)| allowed(e, if i % 2 == 0 { even } else { odd }))
            };
            let colourings: Vec<(usize, usize)> =
                [columns, (columns.1, columns.0)].into_iter().filter(|&colouring| fits(colouring)).collect();
            let &(even, odd) = colourings.get(rng.below(colourings.len().max(1)))?;
            for (i, &e) in cycle.iter().enumerate() {
                cells.push((e as usize / 2, row_at[e as usize] as usize, if i % 2 == 0 { even } else { odd }));
            }
        }
        Some(cells)
    }

    /// For each value, the rows of the stack it may take in column `c`.
    fn column_edges(&self, stack: usize, c: usize, row_of: &[u16], placed: &[bool]) -> Vec<Vec<u32>> {
        (0..self.n()).map(|value| self.rows_in_column(stack, c, row_of, placed, value).collect()).collect()
    }

    /// The rows of the stack `value` may take in column `c`: in a box of the
    /// stack it is not `placed` in yet, in its row there, where the
    /// candidates allow it.
    fn rows_in_column<'a>(
        &'a self,
        stack: usize,
        c: usize,
        row_of: &'a [u16],
        placed: &'a [bool],
        value: usize,
    ) -> impl Iterator<Item = u32> + 'a {
        let bands = self.bands();
        (0..bands)
            .filter(move |&band| !placed[value * bands + band])
            .map(move |band| self.row_in(row_of, value, band, stack))
            .filter(move |&r| self.domains.contains(self.geometry.cell(r, c), Value::from_index(value)))
            .map(|r| r as u32)
    }

    /// The grid row of `value` in the box of `band` and `stack`, by `row_of`.
    fn row_in(&self, row_of: &[u16], value: usize, band: usize, stack: usize) -> usize {
        band * self.rows + row_of[value * self.n() + band * self.boxes_across() + stack] as usize
    }

    /// The candidates with each value kept to its row in every box.
    fn within_rows(&self, row_of: &[u16]) -> Domains {
        let (n, across) = (self.n(), self.boxes_across());
        let mut domains = self.domains.clone();
        for r in 0..n {
            for c in 0..n {
                let (cell, b) = (self.geometry.cell(r, c), (r / self.rows) * across + c / self.cols);
                for value in 0..n {
                    if row_of[value * n + b] as usize != r % self.rows {
                        domains.remove(cell, Value::from_index(value));
                    }
                }
            }
        }
        domains
    }
}

/// No vertex (in [`match_all`]).
const NONE: u32 = u32::MAX;

/// A matching of every left vertex `u` into one of `edges[u]` (right
/// vertices, tried in that order), each right vertex taking up to `capacity`
/// left ones: greedy first, then a breadth-first augmenting path for each
/// vertex left over. `None` when no such matching exists (Hall's condition
/// fails: some left vertices have too few right ones between them).
fn match_all(edges: &[Vec<u32>], rights: usize, capacity: usize, rng: &mut Rng) -> Option<Vec<u32>> {
    let mut mate = vec![NONE; edges.len()];
    let mut holders: Vec<Vec<u32>> = vec![Vec::with_capacity(capacity); rights];
    let mut order: Vec<u32> = (0..edges.len() as u32).collect();
    rng.shuffle(&mut order);
    let mut left_over = Vec::new();
    for &u in &order {
        match edges[u as usize].iter().find(|&&r| holders[r as usize].len() < capacity) {
            Some(&r) => {
                mate[u as usize] = r;
                holders[r as usize].push(u);
            }
            None => left_over.push(u),
        }
    }
    // Breadth-first search over alternating paths; `from[r]`: the left vertex
    // that reached right vertex `r` and moves into it when the path is taken.
    let mut from = vec![NONE; rights];
    let mut seen_right = vec![0u32; rights];
    let mut seen_left = vec![0u32; edges.len()];
    let mut queue = Vec::new();
    for (stamp, start) in (1..).zip(left_over) {
        queue.clear();
        queue.push(start);
        seen_left[start as usize] = stamp;
        let mut head = 0;
        let free = 'search: loop {
            let &u = queue.get(head)?;
            head += 1;
            for &r in &edges[u as usize] {
                if seen_right[r as usize] == stamp || mate[u as usize] == r {
                    continue;
                }
                seen_right[r as usize] = stamp;
                from[r as usize] = u;
                if holders[r as usize].len() < capacity {
                    break 'search r;
                }
                for &w in &holders[r as usize] {
                    if seen_left[w as usize] != stamp {
                        seen_left[w as usize] = stamp;
                        queue.push(w);
                    }
                }
            }
        };
        // Take the path back: each left vertex moves into the right vertex it
        // reached, freeing the one it held for the vertex that reached that.
        let mut r = free;
        loop {
            let u = from[r as usize];
            let held = mate[u as usize];
            mate[u as usize] = r;
            holders[r as usize].push(u);
            if held == NONE {
                break;
            }
            let place = holders[held as usize].iter().position(|&w| w == u).expect("a holder of its mate");
            holders[held as usize].swap_remove(place);
            r = held;
        }
    }
    Some(mate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::puzzle::Grid;
    use crate::testing::checker::{check, Shape};

    fn numbers(grid: &Grid) -> Vec<usize> {
        grid.cells().iter().map(|v| v.map_or(0, |v| v.index() + 1)).collect()
    }

    fn numbers_of(domains: &Domains) -> Vec<usize> {
        numbers(&domains.decided())
    }

    fn woven(geometry: &Geometry, domains: &Domains, seed: u64) -> Vec<usize> {
        numbers_of(&weave(geometry, domains, seed, 1, None).expect("a blank grid never fails"))
    }

    /// Blank grids of square and oblong boxes, and Latin squares, fill at the
    /// first attempt (the construction cannot fail on them), every grid
    /// checked by the independent checker; different seeds, different grids.
    #[test]
    fn blank_grids_weave_at_once_and_differ_by_seed() {
        for (n, rows, cols) in [(1, 1, 1), (4, 2, 2), (6, 2, 3), (9, 3, 3), (12, 3, 4), (20, 4, 5), (36, 6, 6)] {
            let geometry = Geometry::new(n, Layout::Boxes { rows, cols }, &[]).unwrap();
            let shape = Shape::boxes(n, rows, cols);
            let grids: Vec<_> = (1..=3).map(|seed| woven(&geometry, &Domains::full(n), seed)).collect();
            for grid in &grids {
                check(&shape, &vec![0; n * n], grid).unwrap();
            }
            if n > 1 {
                assert!(grids[0] != grids[1] || grids[1] != grids[2], "{n}x{n}: three seeds, one grid");
            }
        }
        let latin = Geometry::latin(7).unwrap();
        let grid = woven(&latin, &Domains::full(7), 5);
        check(&Shape::latin(7), &vec![0; 49], &grid).unwrap();
    }

    /// A grid with every cell given weaves to itself: each matching has one
    /// edge per vertex, and the exact last two columns of each stack (all a
    /// stack has with boxes two columns wide) must find the one completion.
    #[test]
    fn a_full_grid_weaves_to_itself() {
        for (n, rows, cols) in [(4, 2, 2), (6, 3, 2), (9, 3, 3), (12, 4, 3), (16, 8, 2)] {
            let geometry = Geometry::new(n, Layout::Boxes { rows, cols }, &[]).unwrap();
            for seed in 1..=4 {
                let full = woven(&geometry, &Domains::full(n), seed);
                let mut domains = Domains::full(n);
                for (i, &v) in full.iter().enumerate() {
                    domains.fix(Cell::from_index(i), Value::from_index(v - 1));
                }
                assert_eq!(woven(&geometry, &domains, seed + 100), full, "{n}x{n}, seed {seed}");
            }
        }
    }

    /// Sparse big grids: a random full grid, a random 5–10% of its cells
    /// given, propagated as the solver does, then woven within 16 attempts.
    /// Before the stacks took their columns most constrained first, a
    /// 121×121 at 5% failed every attempt (and then drowned CDCL). A Latin
    /// square of 100 is one stack of 100 columns (before, only the
    /// cell-by-cell fallback wove it, in seconds). Before the tabu search
    /// placed the stacks, a 144×144 at 10% failed every attempt: the stacks'
    /// draws failed and CDCL ran out of conflicts. Checked independently,
    /// givens kept.
    #[test]
    fn sparse_grids_weave_with_their_givens_kept() {
        use crate::model::puzzle::Puzzle;
        use crate::pipeline::{Prepared, SolveOptions};
        use std::sync::Arc;
        let cases = [
            (Geometry::classic(36).unwrap(), Shape::boxes(36, 6, 6), 10),
            (Geometry::classic(121).unwrap(), Shape::boxes(121, 11, 11), 5),
            (Geometry::latin(100).unwrap(), Shape::latin(100), 5),
            (Geometry::classic(144).unwrap(), Shape::boxes(144, 12, 12), 10),
        ];
        for (geometry, shape, percent) in cases {
            let n = geometry.size();
            let geometry = Arc::new(geometry);
            for seed in 1..=2 {
                let full = woven(&geometry, &Domains::full(n), seed);
                let mut rng = Rng::new(seed);
                let mut givens = Grid::empty(n);
                let mut numbers = vec![0; n * n];
                for i in 0..n * n {
                    if rng.below(100) < percent {
                        givens.set(Cell::from_index(i), Some(Value::from_index(full[i] - 1)));
                        numbers[i] = full[i];
                    }
                }
                let puzzle = Puzzle::new(geometry.clone(), givens).unwrap();
                let prepared = Prepared::new(&puzzle, &SolveOptions::default()).unwrap();
                let grid = weave(&geometry, prepared.domains(), seed, 16, None)
                    .unwrap_or_else(|| panic!("{n}x{n} at {percent}%, seed {seed}: not woven"));
                check(&shape, &numbers, &numbers_of(&grid)).unwrap();
            }
        }
    }

    /// The exact placement of a stack, with the values' rows of a full grid
    /// and a third of its cells given: every stack completed, the grid
    /// checked independently with the givens kept. A cell given a value
    /// whose row in that box is another: no completion, and none claimed.
    /// Boxes 17 columns wide: past pairwise's usual limit, where a fresh
    /// variable of another encoding took the number of a placement's.
    #[test]
    fn a_stack_is_placed_exactly_within_the_values_rows() {
        for (n, rows, cols) in [(12, 3, 4), (16, 4, 4), (20, 5, 4), (34, 2, 17)] {
            let geometry = Geometry::new(n, Layout::Boxes { rows, cols }, &[]).unwrap();
            let full = woven(&geometry, &Domains::full(n), 7);
            let across = n / cols;
            let mut row_of = vec![UNSET; n * n];
            for (i, &v) in full.iter().enumerate() {
                let (r, c) = (i / n, i % n);
                row_of[(v - 1) * n + (r / rows) * across + c / cols] = (r % rows) as u16;
            }
            let mut domains = Domains::full(n);
            let mut givens = vec![0; n * n];
            let mut rng = Rng::new(n as u64);
            for i in (0..n * n).filter(|_| rng.below(3) == 0) {
                domains.fix(Cell::from_index(i), Value::from_index(full[i] - 1));
                givens[i] = full[i];
            }
            let weaver = Weaver { geometry: &geometry, domains: &domains, rows, cols };
            let mut grid = vec![0u16; n * n];
            for stack in 0..across {
                assert!(weaver.stack_exactly(stack, &row_of, &mut grid, None), "{n}x{n}, stack {stack}");
            }
            let numbers: Vec<usize> = grid.iter().map(|&v| v as usize + 1).collect();
            check(&Shape::boxes(n, rows, cols), &givens, &numbers).unwrap();

            // The value of cell (0, 0) given in row 1 of the first box.
            let wrong = (0..n).find(|&v| row_of[v * n] == 1).unwrap();
            domains.fix(geometry.cell(0, 0), Value::from_index(wrong));
            let weaver = Weaver { geometry: &geometry, domains: &domains, rows, cols };
            assert!(!weaver.stack_exactly(0, &row_of, &mut grid, None), "{n}x{n}: a completion claimed");
        }
    }

    /// A perfect matching is found where greedy choices block it, and none
    /// is claimed where Hall's condition fails.
    #[test]
    fn matchings_augment_and_fail_only_without_one() {
        // Left 0 takes right 0 first; left 1 has only right 0: the path moves 0 to 1.
        let edges = vec![vec![0, 1], vec![0]];
        for seed in 0..8 {
            assert_eq!(match_all(&edges, 2, 1, &mut Rng::new(seed)), Some(vec![1, 0]));
        }
        // Capacity 2: three left vertices into right 0 (room 2) and right 1.
        let edges = vec![vec![0], vec![0, 1], vec![0]];
        for seed in 0..8 {
            assert_eq!(match_all(&edges, 2, 2, &mut Rng::new(seed)), Some(vec![0, 1, 0]));
        }
        // Three left vertices, two right ones between them.
        let edges = vec![vec![0, 1], vec![1, 0], vec![0, 1]];
        assert_eq!(match_all(&edges, 3, 1, &mut Rng::new(1)), None);
    }

    /// Units beyond rows, columns and boxes: not this construction's.
    #[test]
    fn other_units_are_left_to_the_search() {
        use crate::model::geometry::Variant;
        let x = Geometry::new(9, Layout::Boxes { rows: 3, cols: 3 }, &[Variant::X]).unwrap();
        assert_eq!(weave(&x, &Domains::full(9), 1, 4, None), None);
    }
}
