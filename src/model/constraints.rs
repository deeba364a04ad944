//! Variant constraints beyond units: cages, lines, dots and the rest, each with its rule.
//!
//! A [`Constraint`] is one clue of a variant puzzle (a killer cage, a
//! thermometer, a kropki dot ...); the global rules (anti-knight, anti-king,
//! non-consecutive, disjoint groups) are [`crate::Variant`]s. Each constraint
//! knows its rule ([`Constraint::holds`], what the verifier asks), its text
//! form (what DIMACS comments carry, read back by [`Constraint::parse`]) and
//! the checks that refuse a clue no grid can satisfy ([`Constraint::validate`]).
//! The rules are written out in `docs/variants.md`.

use std::fmt;

use crate::model::geometry::{Cell, Value};
use crate::text::notation::{parse_cell_name, parse_digits};

/// How the two cells of a dot relate; also what a negative constraint forbids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    /// The values differ by exactly d (a white kropki dot is d = 1).
    Difference(u32),
    /// One value is r times the other (a black kropki dot is r = 2).
    Ratio(u32),
    /// The values sum to s (X is 10, V is 5).
    Sum(u32),
}

impl Relation {
    /// Whether values `a` and `b` (1-based numbers) stand in this relation.
    pub fn holds(self, a: u32, b: u32) -> bool {
        match self {
            Relation::Difference(d) => a.abs_diff(b) == d,
            Relation::Ratio(r) => a == r.saturating_mul(b) || b == r.saturating_mul(a),
            Relation::Sum(s) => a + b == s,
        }
    }

    /// The family's name, as in the text form.
    fn family(self) -> &'static str {
        match self {
            Relation::Difference(_) => "difference",
            Relation::Ratio(_) => "ratio",
            Relation::Sum(_) => "sum",
        }
    }

    fn value(self) -> u32 {
        match self {
            Relation::Difference(v) | Relation::Ratio(v) | Relation::Sum(v) => v,
        }
    }

    /// Whether a dot of `other` spares a pair from a negative constraint of
    /// this relation: kropki dots (differences and ratios) spare each
    /// other's pairs, as f-puzzles and Rangsk's solver read them; XV marks
    /// spare XV's.
    fn spared_by(self, other: Relation) -> bool {
        matches!(self, Relation::Sum(_)) == matches!(other, Relation::Sum(_))
    }
}

/// A row or a column, 0-based: where a sandwich clue sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// A row.
    Row(usize),
    /// A column.
    Column(usize),
}

impl Line {
    /// Its n cells, in order (left to right, top to bottom).
    pub fn cells(self, n: usize) -> Vec<Cell> {
        match self {
            Line::Row(r) => (0..n).map(|c| Cell::from_index(r * n + c)).collect(),
            Line::Column(c) => (0..n).map(|r| Cell::from_index(r * n + c)).collect(),
        }
    }

    /// `r3` or `c3` (1-based) in a grid of side `n`.
    pub fn parse(text: &str, n: usize) -> Option<Line> {
        let (kind, number) = text.split_at_checked(1)?;
        // Digits only: `r+1` was r1.
        let number = parse_digits(number)?;
        (1..=n).contains(&number).then_some(())?;
        match kind {
            "r" | "R" => Some(Line::Row(number - 1)),
            "c" | "C" => Some(Line::Column(number - 1)),
            _ => None,
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Row(r) => write!(f, "r{}", r + 1),
            Line::Column(c) => write!(f, "c{}", c + 1),
        }
    }
}

/// One clue of a variant puzzle. Cells are listed in the clue's order (a
/// thermometer from its bulb, an arrow from the circle outwards).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// Killer cage: distinct values, summing to `sum` when there is one.
    Killer {
        /// The cage.
        cells: Vec<Cell>,
        /// Its total, if given.
        sum: Option<u32>,
    },
    /// Little killer: the cells (a diagonal) sum to `sum`; values may repeat.
    LittleKiller {
        /// The cells summed.
        cells: Vec<Cell>,
        /// Their total.
        sum: u32,
    },
    /// Thermometer: values strictly increase from the bulb (the first cell).
    Thermo {
        /// Bulb first.
        cells: Vec<Cell>,
    },
    /// Arrow: the cells on the arrow sum to the number in the circle; a circle
    /// of several cells (a pill) reads as a decimal number, digits in order.
    Arrow {
        /// The circle (or pill), most significant digit first.
        circle: Vec<Cell>,
        /// The arrow's cells.
        cells: Vec<Cell>,
    },
    /// A dot or mark between two cells: kropki (white, black), any
    /// difference or ratio, X and V.
    Dot {
        /// The relation the two values stand in.
        relation: Relation,
        /// The two cells.
        cells: [Cell; 2],
    },
    /// Every orthogonally adjacent pair without a dot stands in none of
    /// `relations` (kropki's and XV's negative constraint: any kropki,
    /// difference or ratio dot spares a pair from a difference or ratio
    /// negative; an X or V from a sum negative).
    Negative {
        /// The relations forbidden, all of one family.
        relations: Vec<Relation>,
    },
    /// Odd cells.
    Odd {
        /// The cells.
        cells: Vec<Cell>,
    },
    /// Even cells.
    Even {
        /// The cells.
        cells: Vec<Cell>,
    },
    /// Renban line: distinct values forming a run of consecutive numbers, in any order.
    Renban {
        /// The line.
        cells: Vec<Cell>,
    },
    /// German whispers: neighbours on the line differ by at least ⌈n/2⌉ (5 on a 9×9).
    Whisper {
        /// The line.
        cells: Vec<Cell>,
    },
    /// Palindrome: the line reads the same both ways.
    Palindrome {
        /// The line.
        cells: Vec<Cell>,
    },
    /// Sandwich: the values between the 1 and the n of the line sum to `sum`.
    Sandwich {
        /// The row or column.
        line: Line,
        /// The sum between the crusts.
        sum: u32,
    },
}

/// The least difference German whispers ask of neighbours on a grid of side n: ⌈n/2⌉.
pub fn whisper_gap(n: usize) -> u32 {
    n.div_ceil(2) as u32
}

/// The combinations (sets of distinct values, as sorted lists of 1-based
/// numbers) `k` cells of a killer cage can hold in a grid of side `n`, up to
/// `limit` of them; `None` when there are more.
pub fn cage_combinations(n: usize, k: usize, sum: u32, limit: usize) -> Option<Vec<Vec<u32>>> {
    fn walk(
        next: u32,
        n: u32,
        k: usize,
        left: u32,
        current: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
        limit: usize,
    ) -> bool {
        if current.len() == k {
            if left == 0 {
                if out.len() == limit {
                    return false;
                }
                out.push(current.clone());
            }
            return true;
        }
        let still = (k - current.len()) as u32;
        for v in next..=n {
            // The smallest sum of the cells still open, from v up: too big ends the loop.
            let least = still * v + still * (still - 1) / 2;
            if least > left {
                break;
            }
            // The largest, from n down: too small skips v.
            let most = still * n - still * (still - 1) / 2;
            if most < left {
                return true;
            }
            current.push(v);
            let fine = walk(v + 1, n, k, left - v, current, out, limit);
            current.pop();
            if !fine {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    walk(1, n as u32, k, sum, &mut Vec::new(), &mut out, limit).then_some(out)
}

/// The cells of a grid of side `n` orthogonally adjacent, each pair once (left one or upper one first).
pub fn orthogonal_pairs(n: usize) -> impl Iterator<Item = [Cell; 2]> {
    let cell = move |r: usize, c: usize| Cell::from_index(r * n + c);
    (0..n).flat_map(move |r| {
        (0..n).flat_map(move |c| {
            let right = (c + 1 < n).then(|| [cell(r, c), cell(r, c + 1)]);
            let down = (r + 1 < n).then(|| [cell(r, c), cell(r + 1, c)]);
            right.into_iter().chain(down)
        })
    })
}

fn sorted_pair(cells: [Cell; 2]) -> [Cell; 2] {
    if cells[0] <= cells[1] {
        cells
    } else {
        [cells[1], cells[0]]
    }
}

impl Constraint {
    /// Its kind, as in grid files and the text form: `killer`, `thermo` ...
    pub fn kind(&self) -> &'static str {
        match self {
            Constraint::Killer { .. } => "killer",
            Constraint::LittleKiller { .. } => "little-killer",
            Constraint::Thermo { .. } => "thermo",
            Constraint::Arrow { .. } => "arrow",
            Constraint::Dot { relation, .. } => relation.family(),
            Constraint::Negative { .. } => "negative",
            Constraint::Odd { .. } => "odd",
            Constraint::Even { .. } => "even",
            Constraint::Renban { .. } => "renban",
            Constraint::Whisper { .. } => "whisper",
            Constraint::Palindrome { .. } => "palindrome",
            Constraint::Sandwich { .. } => "sandwich",
        }
    }

    /// Every cell the clue names (for a sandwich, its line; none for a negative constraint).
    pub fn cells(&self, n: usize) -> Vec<Cell> {
        match self {
            Constraint::Killer { cells, .. }
            | Constraint::LittleKiller { cells, .. }
            | Constraint::Thermo { cells }
            | Constraint::Odd { cells }
            | Constraint::Even { cells }
            | Constraint::Renban { cells }
            | Constraint::Whisper { cells }
            | Constraint::Palindrome { cells } => cells.clone(),
            Constraint::Arrow { circle, cells } => circle.iter().chain(cells).copied().collect(),
            Constraint::Dot { cells, .. } => cells.to_vec(),
            Constraint::Negative { .. } => Vec::new(),
            Constraint::Sandwich { line, .. } => line.cells(n),
        }
    }

    /// Why no grid of side `n` can satisfy the clue, if none can: a cell
    /// twice, a sum no values make, a thermometer longer than n ...
    pub fn validate(&self, n: usize) -> Result<(), String> {
        let cells = self.cells(n);
        if cells.iter().any(|c| c.index() >= n * n) {
            return Err("a cell outside the grid".into());
        }
        if let Constraint::Arrow { circle, cells } = self {
            if let Some(c) = cells.iter().find(|c| circle.contains(c)) {
                return Err(format!("the circle's cell {} is on its own arrow", cell_name(*c, n)));
            }
        }
        let mut sorted = cells.clone();
        sorted.sort();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("cell {} appears twice", cell_name(w[0], n)));
        }
        let n32 = n as u32;
        let k = cells.len();
        match self {
            Constraint::Killer { cells, sum } => {
                if cells.is_empty() {
                    return Err("a cage needs at least one cell".into());
                }
                if k > n {
                    return Err(format!("{k} cells cannot hold distinct values 1 to {n}"));
                }
                if let Some(sum) = *sum {
                    if cage_combinations(n, k, sum, 1).is_some_and(|c| c.is_empty()) {
                        return Err(match k {
                            1 => format!("a cage of 1 cell holds a value from 1 to {n}, never {sum}"),
                            _ => format!("no {k} distinct values from 1 to {n} sum to {sum}"),
                        });
                    }
                }
            }
            Constraint::LittleKiller { cells, sum } => {
                let (least, most) = (cells.len() as u32, cells.len() as u32 * n32);
                if cells.is_empty() || !(least..=most).contains(sum) {
                    return Err(match k {
                        0 => "a little killer needs at least one cell".into(),
                        1 => format!("1 cell holds a value from 1 to {n}, never {sum}"),
                        _ => format!("{k} cells of values 1 to {n} cannot sum to {sum}"),
                    });
                }
            }
            Constraint::Thermo { cells } => {
                if cells.is_empty() || k > n {
                    return Err(format!("a thermometer needs 1 to {n} cells, not {k}"));
                }
            }
            Constraint::Arrow { circle, cells } => {
                if circle.is_empty() || cells.is_empty() {
                    return Err("an arrow needs a circle and at least one cell on it".into());
                }
                if circle.len() > 3 {
                    return Err(format!("a circle of {} cells (at most 3 digits)", circle.len()));
                }
                // A pill's cells are the digits of a decimal number: no cell
                // may hold a value of two digits.
                if circle.len() > 1 && n > 9 {
                    return Err(format!(
                        "a pill (a circle of {} cells) reads as a decimal number, one digit a cell: on a {n}x{n} grid a cell may hold {n}, so pills need a grid of at most 9x9",
                        circle.len()
                    ));
                }
                if circle.len() > 1 && !side_by_side(circle, n) {
                    let names: Vec<String> = circle.iter().map(|&c| cell_name(c, n)).collect();
                    return Err(format!(
                        "the pill {} is not one row or column of neighbouring cells (expected its 2 or 3 cells side by side)",
                        names.join(" ")
                    ));
                }
                // One cell holds a value up to n; a pill of 2 or 3 cells
                // reads as a number of as many digits.
                let most = match circle.len() {
                    1 => n32,
                    digits => (10u32.pow(digits as u32) - 1).min(circle_most(digits, n32)),
                };
                if cells.len() as u32 > most {
                    return Err(format!("an arrow of {} cells sums past what its circle can hold", cells.len()));
                }
            }
            Constraint::Dot { relation, cells } => {
                let possible = (1..=n32).any(|a| (1..=n32).any(|b| relation.holds(a, b)));
                if !possible || relation.value() == 0 {
                    return Err(format!("no two values from 1 to {n} have {}", relation_text(*relation)));
                }
                if *relation == Relation::Ratio(1) {
                    return Err("a ratio of 1 needs equal values, and neighbours in a row or column differ".into());
                }
                if !adjacent(cells[0], cells[1], n) {
                    return Err(format!(
                        "{} and {} are not orthogonal neighbours",
                        cell_name(cells[0], n),
                        cell_name(cells[1], n)
                    ));
                }
            }
            Constraint::Negative { relations } => {
                if relations.is_empty() {
                    return Err("a negative constraint needs relations".into());
                }
            }
            Constraint::Odd { cells } | Constraint::Even { cells } => {
                if cells.is_empty() {
                    return Err("no cells".into());
                }
                if matches!(self, Constraint::Even { .. }) && n < 2 {
                    return Err("a 1x1 grid has no even value".into());
                }
            }
            Constraint::Renban { cells } => {
                if cells.is_empty() || k > n {
                    return Err(format!("a renban line needs 1 to {n} cells, not {k}"));
                }
            }
            Constraint::Whisper { cells } | Constraint::Palindrome { cells } => {
                if cells.is_empty() {
                    return Err("a line needs at least 1 cell".into());
                }
                if matches!(self, Constraint::Whisper { .. }) && n < 2 && cells.len() > 1 {
                    return Err("a 1x1 grid has no whispers".into());
                }
            }
            Constraint::Sandwich { sum, .. } => {
                let most = n32.saturating_sub(2) * (n32 + 1) / 2;
                if n < 2 {
                    return Err(format!("a {n}x{n} line has no sandwich: its 1 and its {n} are one cell"));
                }
                if *sum > most {
                    return Err(format!("no sandwich of a {n}x{n} line sums to {sum} (at most {most})"));
                }
            }
        }
        if let Constraint::Thermo { cells } | Constraint::Whisper { cells } | Constraint::Palindrome { cells } = self {
            if let Some(w) = cells.windows(2).find(|w| !touching(w[0], w[1], n)) {
                return Err(format!("{} and {} are not neighbours on a line", cell_name(w[0], n), cell_name(w[1], n)));
            }
        }
        Ok(())
    }

    /// Whether `values` (the grid's values, row-major, 1-based numbers; 0 for
    /// an empty cell) satisfy the clue, in a grid of side `n`. Written from
    /// the rules, not from the encoding: the verifier's question.
    pub fn holds(&self, values: &[u32], n: usize, dots: &[Constraint]) -> bool {
        let at = |c: &Cell| values[c.index()];
        let line = |cells: &[Cell]| cells.iter().map(at).collect::<Vec<u32>>();
        match self {
            Constraint::Killer { cells, sum } => {
                let v = line(cells);
                distinct(&v) && sum.is_none_or(|s| v.iter().sum::<u32>() == s)
            }
            Constraint::LittleKiller { cells, sum } => line(cells).iter().sum::<u32>() == *sum,
            Constraint::Thermo { cells } => line(cells).windows(2).all(|w| w[0] < w[1]),
            Constraint::Arrow { circle, cells } => {
                let number = line(circle).iter().fold(0u64, |acc, &d| acc * 10 + d as u64);
                line(cells).iter().map(|&v| v as u64).sum::<u64>() == number
            }
            Constraint::Dot { relation, cells } => relation.holds(at(&cells[0]), at(&cells[1])),
            Constraint::Negative { relations } => negative_pairs(relations, n, dots)
                .iter()
                .all(|pair| !relations.iter().any(|r| r.holds(at(&pair[0]), at(&pair[1])))),
            Constraint::Odd { cells } => line(cells).iter().all(|v| v % 2 == 1),
            Constraint::Even { cells } => line(cells).iter().all(|v| v % 2 == 0),
            Constraint::Renban { cells } => {
                let v = line(cells);
                let (min, max) = (v.iter().min().copied().unwrap_or(0), v.iter().max().copied().unwrap_or(0));
                distinct(&v) && (max - min) as usize == v.len() - 1
            }
            Constraint::Whisper { cells } => line(cells).windows(2).all(|w| w[0].abs_diff(w[1]) >= whisper_gap(n)),
            Constraint::Palindrome { cells } => {
                let v = line(cells);
                v.iter().eq(v.iter().rev())
            }
            Constraint::Sandwich { line: l, sum } => {
                let v = line(&l.cells(n));
                let crusts: Vec<usize> = (0..n).filter(|&i| v[i] == 1 || v[i] == n as u32).collect();
                match crusts[..] {
                    [a, b] => v[a + 1..b].iter().sum::<u32>() == *sum,
                    _ => false,
                }
            }
        }
    }

    /// The clue in one line, as DIMACS comments carry it: `killer 10 r1c1 r1c2`,
    /// `arrow r7c1 r7c2 : r8c2 r9c3`, `sandwich r1 15`, `negative difference 1 ratio 2`.
    pub fn text(&self, n: usize) -> String {
        let names = |cells: &[Cell]| cells.iter().map(|&c| cell_name(c, n)).collect::<Vec<_>>().join(" ");
        match self {
            Constraint::Killer { cells, sum: Some(s) } => format!("killer {s} {}", names(cells)),
            Constraint::Killer { cells, sum: None } => format!("killer - {}", names(cells)),
            Constraint::LittleKiller { cells, sum } => format!("little-killer {sum} {}", names(cells)),
            Constraint::Arrow { circle, cells } => format!("arrow {} : {}", names(circle), names(cells)),
            Constraint::Dot { relation, cells } => {
                format!("{} {} {}", relation.family(), relation.value(), names(cells))
            }
            Constraint::Negative { relations } => {
                let parts: Vec<String> = relations.iter().map(|r| format!("{} {}", r.family(), r.value())).collect();
                format!("negative {}", parts.join(" "))
            }
            Constraint::Sandwich { line, sum } => format!("sandwich {line} {sum}"),
            Constraint::Thermo { cells }
            | Constraint::Odd { cells }
            | Constraint::Even { cells }
            | Constraint::Renban { cells }
            | Constraint::Whisper { cells }
            | Constraint::Palindrome { cells } => format!("{} {}", self.kind(), names(cells)),
        }
    }

    /// Read [`Constraint::text`] back, for a grid of side `n`; what is wrong otherwise.
    pub fn parse(text: &str, n: usize) -> Result<Constraint, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&kind, rest)) = words.split_first() else { return Err("no constraint".into()) };
        let cells = |words: &[&str]| -> Result<Vec<Cell>, String> {
            words
                .iter()
                .map(|w| {
                    parse_cell_name(w, n)
                        .ok_or_else(|| format!("'{}' is not a cell of a {n}x{n} grid (expected rRcC)", clip(w)))
                })
                .collect()
        };
        let number = |word: Option<&&str>| -> Result<u32, String> {
            let word = word.ok_or("a number is missing")?;
            word.parse().map_err(|_| format!("'{}' is not a number", clip(word)))
        };
        let relation = |family: &str, value: u32| match family {
            "difference" => Ok(Relation::Difference(value)),
            "ratio" => Ok(Relation::Ratio(value)),
            "sum" => Ok(Relation::Sum(value)),
            other => Err(format!("unknown relation '{}' (expected difference, ratio or sum)", clip(other))),
        };
        let constraint = match kind {
            "killer" => {
                let sum = match rest.first() {
                    Some(&"-") => None,
                    word => Some(number(word)?),
                };
                Constraint::Killer { cells: cells(rest.get(1..).unwrap_or(&[]))?, sum }
            }
            "little-killer" => {
                Constraint::LittleKiller { sum: number(rest.first())?, cells: cells(rest.get(1..).unwrap_or(&[]))? }
            }
            "arrow" => {
                let split = rest.iter().position(|&w| w == ":").ok_or("an arrow needs `circle : cells`")?;
                Constraint::Arrow { circle: cells(&rest[..split])?, cells: cells(&rest[split + 1..])? }
            }
            "difference" | "ratio" | "sum" => {
                let value = number(rest.first())?;
                let pair = cells(rest.get(1..).unwrap_or(&[]))?;
                let cells: [Cell; 2] = pair.try_into().map_err(|_| "a dot joins exactly 2 cells".to_string())?;
                Constraint::Dot { relation: relation(kind, value)?, cells }
            }
            "negative" => {
                let relations = rest
                    .chunks(2)
                    .map(|pair| relation(pair[0], number(pair.get(1))?))
                    .collect::<Result<Vec<_>, _>>()?;
                Constraint::Negative { relations }
            }
            "sandwich" => {
                let line = rest
                    .first()
                    .and_then(|w| Line::parse(w, n))
                    .ok_or("a sandwich needs a line r1 to rN or c1 to cN")?;
                Constraint::Sandwich { line, sum: number(rest.get(1))? }
            }
            "thermo" => Constraint::Thermo { cells: cells(rest)? },
            "odd" => Constraint::Odd { cells: cells(rest)? },
            "even" => Constraint::Even { cells: cells(rest)? },
            "renban" => Constraint::Renban { cells: cells(rest)? },
            "whisper" => Constraint::Whisper { cells: cells(rest)? },
            "palindrome" => Constraint::Palindrome { cells: cells(rest)? },
            other => return Err(format!("unknown constraint '{}'", clip(other))),
        };
        constraint.validate(n)?;
        Ok(constraint)
    }
}

/// The orthogonal pairs a negative constraint over `relations` covers: those
/// without a dot among `dots` that spares them (any kropki, difference or
/// ratio dot for differences and ratios; an X or V for sums).
pub fn negative_pairs(relations: &[Relation], n: usize, dots: &[Constraint]) -> Vec<[Cell; 2]> {
    let marked: std::collections::HashSet<[Cell; 2]> = dots
        .iter()
        .filter_map(|d| match d {
            Constraint::Dot { relation, cells } if relations.iter().any(|r| r.spared_by(*relation)) => {
                Some(sorted_pair(*cells))
            }
            _ => None,
        })
        .collect();
    orthogonal_pairs(n).filter(|p| !marked.contains(p)).collect()
}

/// The largest number a circle of `digits` cells of values 1..n reads as.
fn circle_most(digits: usize, n: u32) -> u32 {
    (0..digits).fold(0u32, |acc, _| acc.saturating_mul(10).saturating_add(n))
}

fn relation_text(relation: Relation) -> String {
    match relation {
        Relation::Difference(d) => format!("a difference of {d}"),
        Relation::Ratio(r) => format!("a ratio of {r}"),
        Relation::Sum(s) => format!("a sum of {s}"),
    }
}

fn distinct(values: &[u32]) -> bool {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[0] != w[1])
}

fn adjacent(a: Cell, b: Cell, n: usize) -> bool {
    let (ra, ca, rb, cb) = (a.index() / n, a.index() % n, b.index() / n, b.index() % n);
    ra.abs_diff(rb) + ca.abs_diff(cb) == 1
}

/// Whether `cells` lie side by side in one row or column, in any order:
/// the cells of a pill, its digits. Cells named twice are not.
pub fn side_by_side(cells: &[Cell], n: usize) -> bool {
    let mut sorted = cells.to_vec();
    sorted.sort();
    let row_col = |c: &Cell| (c.index() / n, c.index() % n);
    let one_line =
        |line: fn((usize, usize)) -> usize| sorted.iter().all(|c| line(row_col(c)) == line(row_col(&sorted[0])));
    (one_line(|(r, _)| r) || one_line(|(_, c)| c)) && sorted.windows(2).all(|w| adjacent(w[0], w[1], n))
}

/// Orthogonal or diagonal neighbours: how a line may step.
fn touching(a: Cell, b: Cell, n: usize) -> bool {
    let (ra, ca, rb, cb) = (a.index() / n, a.index() % n, b.index() / n, b.index() % n);
    a != b && ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1
}

fn cell_name(cell: Cell, n: usize) -> String {
    format!("r{}c{}", cell.index() / n + 1, cell.index() % n + 1)
}

fn clip(text: &str) -> String {
    crate::error::echo(text).to_string()
}

/// The value numbers of a grid row-major, 0 for an empty cell.
pub(crate) fn numbers(cells: &[Option<Value>]) -> Vec<u32> {
    cells.iter().map(|v| v.map_or(0, |v| v.number() as u32)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cage_combinations_of_classic_cages() {
        assert_eq!(cage_combinations(9, 2, 3, 100).unwrap(), vec![vec![1, 2]]);
        assert_eq!(cage_combinations(9, 3, 24, 100).unwrap(), vec![vec![7, 8, 9]]);
        assert_eq!(cage_combinations(9, 2, 10, 100).unwrap().len(), 4);
        assert_eq!(cage_combinations(9, 9, 45, 100).unwrap().len(), 1);
        assert!(cage_combinations(9, 2, 18, 100).unwrap().is_empty());
        assert!(cage_combinations(9, 4, 20, 3).is_none());
    }

    #[test]
    fn text_round_trips() {
        let n = 9;
        for text in [
            "killer 10 r1c1 r1c2 r2c1",
            "killer - r1c1 r1c2",
            "little-killer 12 r1c2 r2c3 r3c4",
            "thermo r4c4 r4c5 r4c6",
            "arrow r7c1 r7c2 : r8c2 r9c3 r9c4",
            "difference 1 r2c2 r2c3",
            "ratio 2 r2c2 r3c2",
            "sum 10 r3c3 r3c4",
            "negative sum 5 sum 10",
            "negative difference 1 ratio 2",
            "odd r1c1 r5c5",
            "even r9c9",
            "renban r5c1 r5c2 r5c3",
            "whisper r6c1 r6c2",
            "palindrome r1c9 r2c9 r3c9",
            "sandwich c3 15",
        ] {
            let c = Constraint::parse(text, n).unwrap();
            assert_eq!(c.text(n), text);
        }
    }

    #[test]
    fn impossible_clues_are_refused() {
        let bad = [
            ("killer 50 r1c1 r1c2", "sum to 50"),
            ("thermo r1c1 r1c2 r1c3 r1c4 r2c4", "1 to 4 cells"),
            ("killer 3 r1c1 r1c1", "appears twice"),
            ("arrow r1c1 : r1c1", "on its own arrow"),
            ("difference 1 r1c1 r2c2", "not orthogonal"),
            ("ratio 9 r1c1 r1c2", "ratio of 9"),
            ("difference 0 r1c1 r1c2", "difference of 0"),
            ("ratio 1 r1c1 r2c1", "ratio of 1 needs equal values"),
        ];
        for (text, expected) in bad {
            let e = Constraint::parse(text, 4).unwrap_err();
            assert!(e.contains(expected), "{text}: {e}");
        }
    }

    #[test]
    fn an_arrow_is_as_long_as_its_circle_can_hold() {
        let arrow = |n: usize, circle: &str, k: usize| {
            let cells: Vec<String> = (0..k).map(|i| format!("r{}c{}", 2 + i / n, 1 + i % n)).collect();
            Constraint::parse(&format!("arrow {circle} : {}", cells.join(" ")), n)
        };
        // One cell of a 16×16 holds up to 16: ten cells of 1 fit (they were
        // refused, as if the circle held one digit).
        assert!(arrow(16, "r1c1", 10).is_ok());
        assert!(arrow(16, "r1c1", 16).is_ok());
        assert!(arrow(16, "r1c1", 17).unwrap_err().contains("sums past what its circle can hold"));
        assert!(arrow(9, "r1c1", 9).is_ok());
        assert!(arrow(9, "r1c1", 10).is_err());
        // A pill of two cells reads as two digits, one a cell: on a 9×9,
        // not past it (a cell of a 25×25 may hold 25, no digit).
        assert!(arrow(9, "r1c1 r1c2", 8).is_ok());
        assert!(arrow(25, "r1c1 r1c2", 23).unwrap_err().contains("pills need a grid of at most 9x9"));
    }

    #[test]
    fn a_pill_is_its_digits_side_by_side_in_a_row_or_column() {
        let pill = |circle: &str| Constraint::parse(&format!("arrow {circle} : r9c1 r9c2"), 9);
        for good in ["r1c1 r1c2", "r1c2 r1c1", "r1c1 r1c2 r1c3", "r4c5 r5c5 r6c5", "r6c5 r4c5 r5c5"] {
            assert!(pill(good).is_ok(), "{good}");
        }
        for apart in ["r1c1 r2c2", "r1c1 r1c3", "r1c1 r1c2 r2c2", "r1c1 r2c1 r4c1", "r1c9 r2c1"] {
            let error = pill(apart).unwrap_err();
            assert!(error.contains("is not one row or column of neighbouring cells"), "{apart}: {error}");
        }
    }
}
