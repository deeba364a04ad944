//! Variant rules for the tests, from the puzzles' rules and nothing of the
//! library's: each clue checked on a whole grid, written as a grid file (the
//! documented TOML syntax), and random clues, true of a hidden solution or not.
#![allow(dead_code)]

/// A cell, 0-based (row, column).
pub type Rc = (usize, usize);

/// One clue of a variant puzzle, in the tests' own terms.
#[derive(Clone, Debug)]
pub enum Clue {
    AntiKnight,
    AntiKing,
    NonConsecutive,
    Killer(Vec<Rc>, Option<usize>),
    LittleKiller(Vec<Rc>, usize),
    Thermo(Vec<Rc>),
    /// Circle (pill) cells, arrow cells.
    Arrow(Vec<Rc>, Vec<Rc>),
    White(Rc, Rc),
    Black(Rc, Rc),
    Difference(Rc, Rc, usize),
    Ratio(Rc, Rc, usize),
    X(Rc, Rc),
    V(Rc, Rc),
    KropkiNegative,
    XvNegative,
    Odd(Vec<Rc>),
    Even(Vec<Rc>),
    Renban(Vec<Rc>),
    Whisper(Vec<Rc>),
    Palindrome(Vec<Rc>),
    /// true: a row; the line's 0-based number; the sum.
    Sandwich(bool, usize, usize),
}

fn at(grid: &[usize], n: usize, (r, c): Rc) -> usize {
    grid[r * n + c]
}

fn orthogonal(n: usize) -> Vec<(Rc, Rc)> {
    let mut pairs = Vec::new();
    for r in 0..n {
        for c in 0..n {
            if c + 1 < n {
                pairs.push(((r, c), (r, c + 1)));
            }
            if r + 1 < n {
                pairs.push(((r, c), (r + 1, c)));
            }
        }
    }
    pairs
}

fn same_pair(a: (Rc, Rc), b: (Rc, Rc)) -> bool {
    a == b || (a.0 == b.1 && a.1 == b.0)
}

/// Whether every clue holds in `grid` (complete, values 1..=n, row-major).
pub fn all_hold(clues: &[Clue], grid: &[usize], n: usize) -> Result<(), String> {
    for clue in clues {
        if !holds(clue, clues, grid, n) {
            return Err(format!("{clue:?} does not hold"));
        }
    }
    Ok(())
}

/// Whether `clue` holds in `grid`; `all` are the puzzle's clues (the negative
/// constraints skip the pairs that carry a dot).
pub fn holds(clue: &Clue, all: &[Clue], grid: &[usize], n: usize) -> bool {
    let v = |rc: Rc| at(grid, n, rc);
    let values = |cells: &[Rc]| cells.iter().map(|&rc| v(rc)).collect::<Vec<_>>();
    let distinct = |vals: &[usize]| (0..vals.len()).all(|i| (0..i).all(|j| vals[i] != vals[j]));
    let chess = |moves: &[(isize, isize)], differ: &dyn Fn(usize, usize) -> bool| {
        (0..n as isize).all(|r| {
            (0..n as isize).all(|c| {
                moves.iter().all(|&(dr, dc)| {
                    let (r2, c2) = (r + dr, c + dc);
                    r2 < 0
                        || c2 < 0
                        || r2 >= n as isize
                        || c2 >= n as isize
                        || differ(v((r as usize, c as usize)), v((r2 as usize, c2 as usize)))
                })
            })
        })
    };
    match clue {
        Clue::AntiKnight => {
            chess(&[(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)], &|a, b| a != b)
        }
        Clue::AntiKing => chess(&[(1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (1, 0)], &|a, b| a != b),
        Clue::NonConsecutive => chess(&[(0, 1), (1, 0), (0, -1), (-1, 0)], &|a, b| a + 1 != b && b + 1 != a),
        Clue::Killer(cells, sum) => {
            let vals = values(cells);
            distinct(&vals) && sum.is_none_or(|s| vals.iter().sum::<usize>() == s)
        }
        Clue::LittleKiller(cells, sum) => values(cells).iter().sum::<usize>() == *sum,
        Clue::Thermo(cells) => values(cells).windows(2).all(|w| w[0] < w[1]),
        Clue::Arrow(circle, cells) => {
            let number = values(circle).iter().fold(0, |acc, &d| acc * 10 + d);
            values(cells).iter().sum::<usize>() == number
        }
        Clue::White(a, b) => v(*a).abs_diff(v(*b)) == 1,
        Clue::Black(a, b) => v(*a) == 2 * v(*b) || v(*b) == 2 * v(*a),
        Clue::Difference(a, b, d) => v(*a).abs_diff(v(*b)) == *d,
        Clue::Ratio(a, b, r) => v(*a) == r * v(*b) || v(*b) == r * v(*a),
        Clue::X(a, b) => v(*a) + v(*b) == 10,
        Clue::V(a, b) => v(*a) + v(*b) == 5,
        Clue::KropkiNegative => orthogonal(n).into_iter().all(|(a, b)| {
            // A pair without a dot (white, black, or any difference or ratio)
            // is neither consecutive nor 1:2.
            let dotted = all.iter().any(|c| match c {
                Clue::White(p, q) | Clue::Difference(p, q, _) | Clue::Black(p, q) | Clue::Ratio(p, q, _) => {
                    same_pair((*p, *q), (a, b))
                }
                _ => false,
            });
            let (x, y) = (v(a), v(b));
            dotted || (x.abs_diff(y) != 1 && x != 2 * y && y != 2 * x)
        }),
        Clue::XvNegative => orthogonal(n).into_iter().all(|(a, b)| {
            let marked = all.iter().any(|c| match c {
                Clue::X(p, q) | Clue::V(p, q) => same_pair((*p, *q), (a, b)),
                _ => false,
            });
            marked || (v(a) + v(b) != 10 && v(a) + v(b) != 5)
        }),
        Clue::Odd(cells) => values(cells).iter().all(|x| x % 2 == 1),
        Clue::Even(cells) => values(cells).iter().all(|x| x % 2 == 0),
        Clue::Renban(cells) => {
            let vals = values(cells);
            let (lo, hi) = (*vals.iter().min().unwrap(), *vals.iter().max().unwrap());
            distinct(&vals) && hi - lo + 1 == vals.len()
        }
        Clue::Whisper(cells) => values(cells).windows(2).all(|w| w[0].abs_diff(w[1]) >= n.div_ceil(2)),
        Clue::Palindrome(cells) => {
            let vals = values(cells);
            vals.iter().eq(vals.iter().rev())
        }
        Clue::Sandwich(row, i, sum) => {
            let line: Vec<usize> = (0..n).map(|j| if *row { v((*i, j)) } else { v((j, *i)) }).collect();
            let one = line.iter().position(|&x| x == 1).unwrap();
            let top = line.iter().position(|&x| x == n).unwrap();
            let (lo, hi) = (one.min(top), one.max(top));
            line[lo + 1..hi].iter().sum::<usize>() == *sum
        }
    }
}

fn names(cells: &[Rc]) -> String {
    cells.iter().map(|(r, c)| format!("r{}c{}", r + 1, c + 1)).collect::<Vec<_>>().join(" ")
}

/// A grid file of side `n` (boxes `rows`x`cols`) with `clues`, in the documented syntax.
pub fn grid_file(n: usize, rows: usize, cols: usize, clues: &[Clue]) -> String {
    let mut top = format!("size = {n}\nboxes = \"{rows}x{cols}\"\n");
    let mut tables = String::new();
    let mut odd = Vec::new();
    let mut even = Vec::new();
    for clue in clues {
        let t = match clue {
            Clue::AntiKnight => {
                top.push_str("anti_knight = true\n");
                continue;
            }
            Clue::AntiKing => {
                top.push_str("anti_king = true\n");
                continue;
            }
            Clue::NonConsecutive => {
                top.push_str("non_consecutive = true\n");
                continue;
            }
            Clue::KropkiNegative => {
                top.push_str("kropki_negative = true\n");
                continue;
            }
            Clue::XvNegative => {
                top.push_str("xv_negative = true\n");
                continue;
            }
            Clue::Odd(cells) => {
                odd.extend(cells.iter().copied());
                continue;
            }
            Clue::Even(cells) => {
                even.extend(cells.iter().copied());
                continue;
            }
            Clue::Killer(cells, Some(s)) => format!("[[killer]]\ncells = \"{}\"\nsum = {s}\n", names(cells)),
            Clue::Killer(cells, None) => format!("[[killer]]\ncells = \"{}\"\n", names(cells)),
            Clue::LittleKiller(cells, s) => format!("[[little_killer]]\ncells = \"{}\"\nsum = {s}\n", names(cells)),
            Clue::Thermo(cells) => format!("[[thermo]]\ncells = \"{}\"\n", names(cells)),
            Clue::Arrow(circle, cells) => {
                format!("[[arrow]]\ncircle = \"{}\"\ncells = \"{}\"\n", names(circle), names(cells))
            }
            Clue::White(a, b) => format!("[[kropki]]\ncells = \"{}\"\nkind = \"white\"\n", names(&[*a, *b])),
            Clue::Black(a, b) => format!("[[kropki]]\ncells = \"{}\"\nkind = \"black\"\n", names(&[*a, *b])),
            Clue::Difference(a, b, d) => format!("[[difference]]\ncells = \"{}\"\nvalue = {d}\n", names(&[*a, *b])),
            Clue::Ratio(a, b, r) => format!("[[ratio]]\ncells = \"{}\"\nvalue = {r}\n", names(&[*a, *b])),
            Clue::X(a, b) => format!("[[xv]]\ncells = \"{}\"\nkind = \"x\"\n", names(&[*a, *b])),
            Clue::V(a, b) => format!("[[xv]]\ncells = \"{}\"\nkind = \"v\"\n", names(&[*a, *b])),
            Clue::Renban(cells) => format!("[[renban]]\ncells = \"{}\"\n", names(cells)),
            Clue::Whisper(cells) => format!("[[whisper]]\ncells = \"{}\"\n", names(cells)),
            Clue::Palindrome(cells) => format!("[[palindrome]]\ncells = \"{}\"\n", names(cells)),
            Clue::Sandwich(row, i, s) => {
                format!("[[sandwich]]\nline = \"{}{}\"\nsum = {s}\n", if *row { 'r' } else { 'c' }, i + 1)
            }
        };
        tables.push_str(&t);
    }
    if !odd.is_empty() {
        top.push_str(&format!("odd = \"{}\"\n", names(&odd)));
    }
    if !even.is_empty() {
        top.push_str(&format!("even = \"{}\"\n", names(&even)));
    }
    top + &tables
}

/// The kinds of clue [`random_clue`] makes.
pub const KINDS: usize = 21;

/// A random clue of kind `kind` (0..KINDS) on a grid of side `n`: true of
/// `solution` when `truthful` (sums read from it), otherwise anything valid.
pub fn random_clue(kind: usize, n: usize, solution: &[usize], truthful: bool, rng: &mut super::checker::Rng) -> Clue {
    let v = |rc: Rc| solution[rc.0 * n + rc.1];
    let cell = |rng: &mut super::checker::Rng| (rng.below(n), rng.below(n));
    // A walk of `len` cells stepping to king neighbours, no cell twice (may end short).
    let walk = |rng: &mut super::checker::Rng, len: usize, orthogonal_only: bool| {
        let mut cells = vec![(rng.below(n), rng.below(n))];
        while cells.len() < len {
            let (r, c) = *cells.last().unwrap();
            let mut next = Vec::new();
            for dr in -1isize..=1 {
                for dc in -1isize..=1 {
                    if (dr, dc) == (0, 0) || (orthogonal_only && dr != 0 && dc != 0) {
                        continue;
                    }
                    let (r2, c2) = (r as isize + dr, c as isize + dc);
                    if r2 >= 0 && c2 >= 0 && r2 < n as isize && c2 < n as isize {
                        let rc = (r2 as usize, c2 as usize);
                        if !cells.contains(&rc) {
                            next.push(rc);
                        }
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            cells.push(next[rng.below(next.len())]);
        }
        cells
    };
    let neighbour = |rng: &mut super::checker::Rng| {
        let w = walk(rng, 2, true);
        (w[0], w[1])
    };
    let sum = |cells: &[Rc], rng: &mut super::checker::Rng| {
        if truthful {
            cells.iter().map(|&rc| v(rc)).sum()
        } else {
            cells.len() + rng.below(cells.len() * (n - 1) + 1)
        }
    };
    match kind {
        0 => Clue::AntiKnight,
        1 => Clue::AntiKing,
        2 => Clue::NonConsecutive,
        3 => {
            // A cage of distinct cells (from the solution, when truthful).
            let mut cells = {
                let len = 2 + rng.below(3);
                walk(rng, len, true)
            };
            if truthful {
                let mut seen = Vec::new();
                cells.retain(|&rc| {
                    let fresh = !seen.contains(&v(rc));
                    seen.push(v(rc));
                    fresh
                });
            }
            let cage_sum = if rng.below(4) == 0 { None } else { Some(sum(&cells, rng)) };
            let cage_sum = cage_sum.map(|s| if truthful { s } else { s.min(n * (n + 1) / 2) });
            Clue::Killer(cells, cage_sum)
        }
        4 => {
            let cells = {
                let len = 2 + rng.below(3);
                walk(rng, len, false)
            };
            let s = sum(&cells, rng);
            Clue::LittleKiller(cells, s)
        }
        5 => {
            let mut cells = {
                let len = 2 + rng.below(2);
                walk(rng, len, false)
            };
            if truthful {
                // Run the walk the way it rises, as far as it rises.
                if cells.len() > 1 && v(cells[0]) > v(cells[1]) {
                    cells.reverse();
                }
                let rising = 1 + cells.windows(2).take_while(|w| v(w[0]) < v(w[1])).count();
                cells.truncate(rising);
            }
            Clue::Thermo(cells)
        }
        6 => {
            let w = {
                let len = 2 + rng.below(3);
                walk(rng, len, false)
            };
            let (circle, cells) = w.split_at(1);
            if truthful && cells.iter().map(|&rc| v(rc)).sum::<usize>() != v(circle[0]) {
                // Keep the arrow short enough to be true: one cell equal to the circle is no arrow of a sudoku, so
                // fall back to a little killer read from the solution.
                let s = cells.iter().map(|&rc| v(rc)).sum();
                return Clue::LittleKiller(cells.to_vec(), s);
            }
            Clue::Arrow(circle.to_vec(), cells.to_vec())
        }
        7..=12 => {
            let (a, b) = neighbour(rng);
            let (x, y) = (v(a), v(b));
            let fits = |clue: &Clue| !truthful || holds(clue, &[], solution, n);
            let pick = match kind {
                7 => Clue::White(a, b),
                8 => Clue::Black(a, b),
                9 => Clue::Difference(a, b, if truthful { x.abs_diff(y) } else { 1 + rng.below(n - 1) }),
                10 => Clue::Ratio(
                    a,
                    b,
                    if truthful && x.max(y) % x.min(y) == 0 { x.max(y) / x.min(y) } else { 2 + rng.below(2) },
                ),
                11 => Clue::X(a, b),
                _ => Clue::V(a, b),
            };
            if fits(&pick) {
                pick
            } else {
                Clue::Difference(a, b, x.abs_diff(y))
            }
        }
        13 => Clue::KropkiNegative,
        14 => Clue::XvNegative,
        15 | 16 => {
            let cells: Vec<Rc> = (0..1 + rng.below(3)).map(|_| cell(rng)).collect::<Vec<_>>();
            let mut cells = cells;
            cells.sort();
            cells.dedup();
            let odd = if truthful { v(cells[0]) % 2 == 1 } else { kind == 15 };
            if truthful {
                cells.retain(|&rc| (v(rc) % 2 == 1) == odd);
            }
            if odd {
                Clue::Odd(cells)
            } else {
                Clue::Even(cells)
            }
        }
        17 => {
            let cells = {
                let len = 2 + rng.below(2);
                walk(rng, len, false)
            };
            if truthful && !holds(&Clue::Renban(cells.clone()), &[], solution, n) {
                return Clue::Killer(cells[..1].to_vec(), None);
            }
            Clue::Renban(cells)
        }
        18 => {
            let cells = {
                let len = 2 + rng.below(2);
                walk(rng, len, false)
            };
            if truthful && !holds(&Clue::Whisper(cells.clone()), &[], solution, n) {
                return Clue::Whisper(cells[..1].to_vec());
            }
            Clue::Whisper(cells)
        }
        19 => {
            let cells = {
                let len = 2 + rng.below(3);
                walk(rng, len, false)
            };
            if truthful && !holds(&Clue::Palindrome(cells.clone()), &[], solution, n) {
                return Clue::Palindrome(cells[..1].to_vec());
            }
            Clue::Palindrome(cells)
        }
        _ => {
            let (row, i) = (rng.below(2) == 0, rng.below(n));
            let s = if truthful {
                let probe = Clue::Sandwich(row, i, 0);
                (0..=n * n)
                    .find(|&s| holds(&Clue::Sandwich(row, i, s), &[], solution, n))
                    .unwrap_or_else(|| panic!("test bug: no sandwich sum for {probe:?}"))
            } else {
                rng.below((n - 2) * (n + 1) / 2 + 1)
            };
            Clue::Sandwich(row, i, s)
        }
    }
}

fn cell_of(name: &str) -> Rc {
    let (r, c) = name.trim_start_matches(['r', 'R']).split_once(['c', 'C']).expect("test data: rRcC");
    (r.parse::<usize>().unwrap() - 1, c.parse::<usize>().unwrap() - 1)
}

fn cells_of(text: &str) -> Vec<Rc> {
    text.split_whitespace().map(cell_of).collect()
}

/// The clues of a grid file, read here from its TOML (the documented syntax).
pub fn clues_of_grid_file(text: &str) -> Vec<Clue> {
    let doc: toml::Value = toml::from_str(text).unwrap();
    let mut clues = Vec::new();
    let flag = |key: &str| doc.get(key).and_then(|v| v.as_bool()) == Some(true);
    for (key, clue) in [
        ("anti_knight", Clue::AntiKnight),
        ("anti_king", Clue::AntiKing),
        ("non_consecutive", Clue::NonConsecutive),
        ("kropki_negative", Clue::KropkiNegative),
        ("xv_negative", Clue::XvNegative),
    ] {
        if flag(key) {
            clues.push(clue);
        }
    }
    if let Some(cells) = doc.get("odd").and_then(|v| v.as_str()) {
        clues.push(Clue::Odd(cells_of(cells)));
    }
    if let Some(cells) = doc.get("even").and_then(|v| v.as_str()) {
        clues.push(Clue::Even(cells_of(cells)));
    }
    let tables = |key: &str| doc.get(key).and_then(|v| v.as_array()).cloned().unwrap_or_default();
    let cells = |t: &toml::Value| cells_of(t["cells"].as_str().unwrap());
    let number = |t: &toml::Value, key: &str| t.get(key).and_then(|v| v.as_integer()).map(|v| v as usize);
    for t in tables("killer") {
        clues.push(Clue::Killer(cells(&t), number(&t, "sum")));
    }
    for t in tables("little_killer") {
        clues.push(Clue::LittleKiller(cells(&t), number(&t, "sum").unwrap()));
    }
    for t in tables("thermo") {
        clues.push(Clue::Thermo(cells(&t)));
    }
    for t in tables("arrow") {
        clues.push(Clue::Arrow(cells_of(t["circle"].as_str().unwrap()), cells(&t)));
    }
    for t in tables("kropki") {
        let c = cells(&t);
        clues.push(match t["kind"].as_str().unwrap() {
            "white" => Clue::White(c[0], c[1]),
            _ => Clue::Black(c[0], c[1]),
        });
    }
    for t in tables("xv") {
        let c = cells(&t);
        clues.push(match t["kind"].as_str().unwrap() {
            "x" => Clue::X(c[0], c[1]),
            _ => Clue::V(c[0], c[1]),
        });
    }
    for t in tables("difference") {
        let c = cells(&t);
        clues.push(Clue::Difference(c[0], c[1], number(&t, "value").unwrap_or(1)));
    }
    for t in tables("ratio") {
        let c = cells(&t);
        clues.push(Clue::Ratio(c[0], c[1], number(&t, "value").unwrap_or(2)));
    }
    for t in tables("renban") {
        clues.push(Clue::Renban(cells(&t)));
    }
    for t in tables("whisper") {
        clues.push(Clue::Whisper(cells(&t)));
    }
    for t in tables("palindrome") {
        clues.push(Clue::Palindrome(cells(&t)));
    }
    for t in tables("sandwich") {
        let line = t["line"].as_str().unwrap();
        let i = line[1..].parse::<usize>().unwrap() - 1;
        clues.push(Clue::Sandwich(line.starts_with('r'), i, number(&t, "sum").unwrap()));
    }
    clues
}
