//! DIMACS CNF, both ways: self-describing CNF files written, and read back.
//!
//! A CNF written here opens with comment lines that say everything needed to
//! turn a model back into a grid, so `satdoku decode` needs nothing but the CNF:
//!
//! ```text
//! c satdoku 0.1.0                     the writer and its version
//! c encoding full amo auto            how the clauses were made (for people)
//! c size 9                            n: an n×n grid, values 1..n
//! c boxes 3x3                         or `c latin`, or n lines `c regions 1 1 2 …` (region of each cell)
//! c variant x                         one line per variant: x, hyper, anti-knight, …
//! c unit r1c1 r2c3 …                  one line per extra unit
//! c constraint killer 10 r1c1 r1c2    one line per variant clue (docs/variants.md)
//! c givens 4.....8.5.3…               the givens, in line format ('.' empty, 1-9 then A-Z, numbers past 35)
//! c candidates r1c2 1 3 7             a pencil-mark puzzle: the values a cell may take, one line per cell
//! c map regular 1                     variable 1 + n²(r-1) + n(c-1) + (v-1) means "rRcC holds v"
//! c map explicit 1                    or: first cell variable, then
//! c decided 4..7…                     the cells decided without a variable, and
//! c var 17 r1c3=2                     each cell variable with its meaning
//! c ind 1 2 … 0                       the cell variables, for projected model counters
//! p cnf 729 11988
//! ```

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Instant;

use thiserror::Error;
use varisat::dimacs::{write_dimacs_clauses, write_dimacs_header, DimacsHeader};
use varisat::{CnfFormula, ExtendFormula, Var};

use crate::cnf::varmap::VarMap;
use crate::error::{echo, GeometryError, Position};
use crate::model::constraints::Constraint;
use crate::model::domains::Domains;
use crate::model::geometry::{Cell, Geometry, Layout, Value, Variant};
use crate::model::puzzle::{Grid, Puzzle};
use crate::model::verify::ViolationText;
use crate::pipeline::{PuzzleCnf, SolveOptions};
use crate::sat::output::{check_model, tokens, ModelError};
use crate::sat::{confirm_unsat, Claimant, Model, SatResult};
use crate::solve::{Outcome, SolveError};
use crate::text::decoded::Decoded;
use crate::text::notation::{parse_box_shape, parse_cell_name, parse_digits};
use crate::text::symbols::Alphabet;

/// The version written in the `c satdoku` line.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Write `cnf` as DIMACS, its comments describing its puzzle and the variable map.
pub fn write_cnf(out: &mut impl Write, cnf: &PuzzleCnf) -> io::Result<()> {
    write_cnf_about(out, cnf, "a puzzle as CNF; `satdoku decode --cnf THIS_FILE MODEL` turns a model into its grid")
}

/// [`write_cnf`], its first `c about:` line saying what the file is for
/// (a proof's CNF is not one to decode).
pub(crate) fn write_cnf_about(out: &mut impl Write, cnf: &PuzzleCnf, about: &str) -> io::Result<()> {
    let (puzzle, map) = (&cnf.puzzle, &cnf.map);
    let geometry = puzzle.geometry();
    let n = geometry.size();
    writeln!(out, "c satdoku {VERSION}")?;
    writeln!(out, "c about: {about}")?;
    writeln!(out, "c encoding {} amo {}", cnf.encoding, cnf.amo)?;
    if let Some(reason) = &cnf.unsolvable {
        writeln!(out, "c about: unsatisfiable: {}", reason.describe(geometry, &Alphabet::default()))?;
    }
    if cnf.guessed {
        writeln!(out, "c about: with a pattern guess: its models are the puzzle's solutions of one shape only")?;
    }
    writeln!(out, "c size {n}")?;
    match geometry.layout() {
        Layout::Boxes { rows, cols } => writeln!(out, "c boxes {rows}x{cols}")?,
        Layout::Latin => writeln!(out, "c latin")?,
        Layout::Regions(regions) => {
            for row in regions.chunks(n) {
                let labels: Vec<String> = row.iter().map(|r| (r + 1).to_string()).collect();
                writeln!(out, "c regions {}", labels.join(" "))?;
            }
        }
    }
    for variant in geometry.variants() {
        writeln!(out, "c variant {variant}")?;
    }
    for unit in geometry.extra_units() {
        let cells: Vec<String> = unit.iter().map(|&c| geometry.cell_name(c)).collect();
        writeln!(out, "c unit {}", cells.join(" "))?;
    }
    for constraint in geometry.constraints() {
        writeln!(out, "c constraint {}", constraint.text(n))?;
    }
    writeln!(out, "c givens {}", grid_text(puzzle.givens()))?;
    if let Some(candidates) = puzzle.candidates() {
        for cell in geometry.cells().filter(|&cell| candidates.count(cell) < n) {
            let values: Vec<String> = candidates.values(cell).map(|v| v.to_string()).collect();
            writeln!(out, "c candidates {} {}", geometry.cell_name(cell), values.join(" "))?;
        }
    }
    let first = map.offset() + 1;
    if map.is_regular() {
        writeln!(out, "c map regular {first}")?;
        writeln!(out, "c about: variable {first} + {}(r-1) + {n}(c-1) + (v-1) means \"rRcC holds v\"", n * n)?;
    } else {
        writeln!(out, "c map explicit {first}")?;
        writeln!(out, "c decided {}", grid_text(map.decided()))?;
        for cell in geometry.cells() {
            for (value, var) in map.cell_vars(cell) {
                writeln!(out, "c var {} {}={value}", var.to_dimacs(), geometry.cell_name(cell))?;
            }
        }
    }
    write!(out, "c ind")?;
    for var in first..first + map.cell_var_count() {
        write!(out, " {var}")?;
    }
    writeln!(out, " 0")?;
    write_dimacs_header(out, DimacsHeader { var_count: cnf.formula.var_count(), clause_count: cnf.formula.len() })?;
    write_dimacs_clauses(out, cnf.formula.iter())
}

/// A grid in one token per cell-list: symbols up to n = 35, numbers past it.
fn grid_text(grid: &Grid) -> String {
    const SYMBOLS: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if grid.size() <= SYMBOLS.len() {
        grid.cells().iter().map(|v| v.map_or('.', |v| SYMBOLS[v.index()] as char)).collect()
    } else {
        let cells: Vec<String> =
            grid.cells().iter().map(|v| v.map_or(".".into(), |v| v.number().to_string())).collect();
        cells.join(" ")
    }
}

/// Read a grid of side `n` written by [`grid_text`].
fn parse_grid_text(text: &str, n: usize) -> Option<Grid> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let symbols: Vec<String> = if tokens.len() == 1 && n <= 35 {
        tokens[0].chars().map(String::from).collect()
    } else {
        tokens.iter().map(|t| t.to_string()).collect()
    };
    let cells = symbols
        .iter()
        .map(|s| match s.as_str() {
            "." => Some(None),
            s if s.len() == 1 && n <= 35 => {
                let value = s.chars().next()?.to_digit(36)? as usize;
                Value::new_checked(value, n).map(Some)
            }
            s => Value::new_checked(s.parse().ok()?, n).map(Some),
        })
        .collect::<Option<Vec<_>>>()?;
    Grid::from_cells(n, cells)
}

/// A CNF written by `satdoku dimacs`, read back: the puzzle, its variable map and its clauses.
pub struct CnfFile {
    /// The puzzle the comments describe.
    pub puzzle: Puzzle,
    /// Which variable is which (cell, value).
    pub map: VarMap,
    /// The clauses.
    pub formula: CnfFormula,
}

/// Why a CNF file cannot be read back.
#[derive(Debug, Error)]
///
/// `source_name` is the CNF's name in messages.
#[allow(missing_docs)] // the fields, named in each variant's message
pub enum CnfError {
    /// The file cannot be read.
    #[error("{source_name}: cannot read: {message}")]
    Io { source_name: String, message: String },
    /// Nothing but white space: the CNF was never written (a redirect that
    /// failed, a file truncated before use).
    #[error("{source_name}: empty: no CNF in it (expected the output of `satdoku dimacs`)")]
    Empty { source_name: String },
    /// No `c satdoku` line: written by something else.
    #[error("{source_name}: no `c satdoku` line before the `p cnf` header: this CNF was not written by `satdoku dimacs`, so its variables cannot be mapped to cells")]
    NotSatdoku { source_name: String },
    /// A satdoku comment line that cannot be read.
    #[error("{position}: {message}")]
    Comment { position: Position, message: String },
    /// A comment line that must be there is not.
    #[error("{source_name}: no `c {key}` line: {expected}")]
    Missing { source_name: String, key: &'static str, expected: &'static str },
    /// The comments describe no grid.
    #[error("{source_name}: the grid of the comments cannot be built: {error}")]
    Geometry { source_name: String, error: GeometryError },
    /// The `p cnf` line or the clauses are not DIMACS, or disagree with each other.
    #[error("{position}: {message}")]
    Dimacs { position: Position, message: String },
    /// The variable map names variables the header does not have.
    #[error("{source_name}: the variable map ({map_vars} cell variables from {first}) does not fit in the {var_count} variables of the header")]
    MapOutOfRange { source_name: String, first: usize, map_vars: usize, var_count: usize },
}

impl CnfFile {
    /// The verified grid of a model of this CNF: the model must satisfy every
    /// clause, and the grid it gives must be a solution of the puzzle in the
    /// comments. Either failing is bad input (`source_name` names the model):
    /// a wrong model, or a CNF whose clauses or comments were edited.
    pub fn decode(&self, model: &Model, source_name: &str) -> Result<Grid, ModelError> {
        check_model(&self.formula, model, source_name)?;
        let not_a_grid = |message: String| ModelError::NotAGrid { source_name: source_name.into(), message };
        let geometry = self.puzzle.geometry();
        let grid = self.map.decode(geometry, |v| model.value(v) == Some(true)).map_err(not_a_grid)?;
        self.puzzle.check(&grid).map_err(|v| {
            not_a_grid(format!(
                "the model satisfies the CNF, but its grid is not a solution of the puzzle in the CNF's comments ({}): were the comments or the clauses edited?",
                ViolationText(&v, geometry)
            ))
        })?;
        Ok(grid)
    }
}

impl CnfFile {
    /// Check `claimant`'s "unsatisfiable" until `deadline`. The claim is
    /// believed of the puzzle the comments describe, so varisat solves that
    /// puzzle itself, not the clauses beside the comments (which may have been
    /// edited): `Ok` when it has no solution; [`SolveError::Refuted`] with a
    /// verified solution; [`SolveError::Unconfirmed`] when time runs out.
    pub fn confirm_unsat(&self, claimant: Claimant, deadline: Option<Instant>) -> Result<(), SolveError> {
        let timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let options = SolveOptions { timeout, ..SolveOptions::default() };
        let found = match crate::solve::solve(&self.puzzle, &options) {
            Ok(Outcome::Solved(grid)) => SatResult::Sat(grid),
            Ok(Outcome::Unsolvable(_)) => SatResult::Unsat,
            Ok(Outcome::TimedOut) | Err(SolveError::TimedOut) => SatResult::Interrupted,
            Err(e) => return Err(e),
        };
        confirm_unsat(claimant, found)
    }
}

/// The most bytes [`read_cnf`] reads: about five times the CNF of the
/// default `--max-literals`, 100 million literals (8.5 bytes a literal in a
/// blank 64×64's CNF; a pipe or a device may not end).
pub const MAX_CNF_BYTES: u64 = 4 << 30;

/// Read a CNF written by `satdoku dimacs`; `source_name` names it in messages.
pub fn read_cnf(input: impl BufRead, source_name: &str) -> Result<CnfFile, CnfError> {
    // PowerShell 5's `>` writes UTF-16: `satdoku dimacs > puzzle.cnf` there.
    let mut input = io::Read::take(Decoded::new(input), MAX_CNF_BYTES + 1);
    let failed = |message: String| CnfError::Io { source_name: source_name.into(), message };
    let mut bytes = Vec::new();
    // The first line on its own: an input with no line end (`/dev/zero`) is no CNF.
    let line = crate::text::reader::MAX_LINE;
    io::Read::take(&mut input, line as u64).read_until(b'\n', &mut bytes).map_err(|e| failed(e.to_string()))?;
    if bytes.len() == line && !bytes.ends_with(b"\n") {
        return Err(failed(format!("no line end in the first {} MiB: not a CNF", line >> 20)));
    }
    io::Read::read_to_end(&mut input, &mut bytes).map_err(|e| failed(e.to_string()))?;
    if bytes.len() as u64 > MAX_CNF_BYTES {
        return Err(failed(format!("more than {} GiB, more than any CNF satdoku reads", MAX_CNF_BYTES >> 30)));
    }
    let bytes = bytes.strip_prefix(crate::sat::output::BOM).unwrap_or(&bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(CnfError::Empty { source_name: source_name.into() });
    }
    let comments = Comments::read(bytes, source_name)?;
    let formula = read_clauses(bytes, source_name)?;
    let (puzzle, map) = comments.build(source_name, formula.var_count())?;
    Ok(CnfFile { puzzle, map, formula })
}

/// The clauses of a CNF, after its `p cnf VARIABLES CLAUSES` line: literals
/// ended by 0, across lines as they like; `c` lines anywhere. A fault is
/// named at its line and column (varisat's `DimacsParser` names neither
/// column nor, for a wrong count, line), and no literal may name a variable
/// past the header's.
fn read_clauses(bytes: &[u8], source_name: &str) -> Result<CnfFormula, CnfError> {
    let fault = |offset: usize, message: String| CnfError::Dimacs {
        position: position_at(bytes, offset, source_name),
        message,
    };
    let mut formula = CnfFormula::new();
    let mut header: Option<Header> = None;
    let (mut clause, mut clauses, mut last_literal) = (Vec::new(), 0, 0);
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        if byte.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        // `c` and `p` lines start in column 1, as varisat reads them.
        if (byte == b'c' || byte == b'p') && (start == 0 || bytes[start - 1] == b'\n') {
            i = bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |end| start + end);
            if byte == b'p' {
                if let Some(first) = header {
                    let first = position_at(bytes, first.count_at, source_name).line;
                    return Err(fault(
                        start,
                        format!("a second `p` line (expected one only: the first is line {first})"),
                    ));
                }
                let line = String::from_utf8_lossy(&bytes[start..i]);
                let read = Header::read(&line).map_err(|(column, message)| fault(start + column, message))?;
                formula.set_var_count(read.vars);
                header = Some(Header { count_at: start + read.count_at, ..read });
            }
            continue;
        }
        let Some(Header { vars, .. }) = header else {
            let word = word_at(bytes, start);
            let message =
                format!("'{word}' comes before any `p cnf VARIABLES CLAUSES` line (expected that line first)");
            return Err(fault(start, message));
        };
        // A literal: `-`, if negated, then digits, then whitespace or the end.
        let negative = byte == b'-';
        i += usize::from(negative);
        let digits = i;
        let mut var = 0;
        while let Some(digit) = bytes.get(i).map(|b| b.wrapping_sub(b'0')).filter(|&d| d < 10) {
            // Held at `vars + 1` (at most `Var::max_count() + 1`): no overflow, and still past the header.
            var = (var * 10 + usize::from(digit)).min(vars + 1);
            i += 1;
        }
        if i == digits || bytes.get(i).is_some_and(|b| !b.is_ascii_whitespace()) {
            return Err(fault(
                start,
                format!("'{}' is not a literal (expected {})", word_at(bytes, start), literals(vars)),
            ));
        }
        if var == 0 {
            formula.add_clause(&clause);
            clause.clear();
            clauses += 1;
        } else if var > vars {
            return Err(fault(
                start,
                format!(
                    "literal '{}' names a variable past the {vars} of the `p cnf` line (expected {})",
                    word_at(bytes, start),
                    literals(vars)
                ),
            ));
        } else {
            clause.push(Var::from_index(var - 1).lit(!negative));
            last_literal = start;
        }
    }
    if !clause.is_empty() {
        return Err(fault(
            last_literal,
            format!(
                "the file ends inside a clause, after '{}' (expected 0 to end the clause: is the file cut off?)",
                word_at(bytes, last_literal)
            ),
        ));
    }
    let Some(header) = header else {
        let position = Position { source: source_name.into(), line: 0, column: None };
        return Err(CnfError::Dimacs {
            position,
            message: "no `p cnf VARIABLES CLAUSES` line (expected one after the comments, before the clauses)".into(),
        });
    };
    if clauses != header.clauses {
        let why = match clauses < header.clauses {
            true => "is the file cut off, or were clauses removed?",
            false => "were clauses added?",
        };
        let expected = header.clauses;
        let message =
            format!("the header says {expected} clauses, but the file has {clauses} (expected {expected}: {why})");
        return Err(fault(header.count_at, message));
    }
    Ok(formula)
}

/// What a literal may be in a CNF of `vars` variables, for a message.
fn literals(vars: usize) -> String {
    match vars {
        0 => "0, to end a clause: the header declares no variables".into(),
        _ => format!("a variable from 1 to {vars}, '-' before it for its negation, or 0 to end a clause"),
    }
}

/// A CNF's `p cnf VARIABLES CLAUSES` line.
#[derive(Clone, Copy)]
struct Header {
    vars: usize,
    clauses: usize,
    /// The byte offset of the clause count, which a wrong count is named at.
    count_at: usize,
}

impl Header {
    /// Read a `p` line; `count_at` is the offset in `line`. A fault is the
    /// byte offset of what is wrong (the line's end when a word is missing) and why.
    fn read(line: &str) -> Result<Header, (usize, String)> {
        const FORM: &str = "(expected `p cnf VARIABLES CLAUSES`)";
        let end = line.trim_end().len();
        let mut words = tokens(line);
        // The next word, where it is and what it reads as, or why not.
        let mut next = |what: &str, read: &dyn Fn(&str) -> Option<usize>| match words.next() {
            None => Err((end, format!("the `p` line ends before {what} {FORM}"))),
            Some((at, word)) => {
                read(word).map(|n| (at, n)).ok_or_else(|| (at, format!("'{}' is not {what} {FORM}", echo(word))))
            }
        };
        next("`p`", &|word| (word == "p").then_some(0))?;
        next("`cnf`", &|word| (word == "cnf").then_some(0))?;
        let (vars_at, vars) = next("a number of variables", &parse_digits)?;
        let (count_at, clauses) = next("a number of clauses", &parse_digits)?;
        if vars > Var::max_count() {
            let max = Var::max_count();
            return Err((vars_at, format!("{vars} variables, more than varisat takes (expected at most {max})")));
        }
        if let Some((at, word)) = words.next() {
            return Err((at, format!("'{}' after the number of clauses {FORM}", echo(word))));
        }
        Ok(Header { vars, clauses, count_at })
    }
}

/// Where byte `offset` of `bytes` is, for a message: its line, and its column in characters.
fn position_at(bytes: &[u8], offset: usize, source_name: &str) -> Position {
    let before = &bytes[..offset];
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |newline| newline + 1);
    Position {
        source: source_name.into(),
        line: 1 + before.iter().filter(|&&b| b == b'\n').count(),
        column: Some(String::from_utf8_lossy(&before[line_start..]).chars().count() + 1),
    }
}

/// The word that starts at byte `start`, as a message shows it.
fn word_at(bytes: &[u8], start: usize) -> String {
    let word = &bytes[start..];
    let end = word.iter().position(u8::is_ascii_whitespace).unwrap_or(word.len());
    echo(&String::from_utf8_lossy(&word[..end]))
}

/// The satdoku comment lines of a CNF, before they are checked against each other.
#[derive(Default)]
struct Comments {
    satdoku: bool,
    size: Option<(usize, usize)>,
    layout: Vec<(usize, Layout)>,
    regions: Vec<u32>,
    variants: Vec<Variant>,
    units: Vec<(usize, Vec<Cell>)>,
    unit_lines: Vec<(usize, String)>,
    constraint_lines: Vec<(usize, String)>,
    givens: Option<(usize, String)>,
    candidates: Vec<(usize, String)>,
    map: Option<(usize, bool, usize)>,
    decided: Option<(usize, String)>,
    vars: Vec<(usize, usize, String)>,
}

impl Comments {
    fn read(bytes: &[u8], source_name: &str) -> Result<Comments, CnfError> {
        let mut c = Comments::default();
        for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let line_no = i + 1;
            if line.first() == Some(&b'p') {
                break;
            }
            let Some(rest) = line.strip_prefix(b"c ") else { continue };
            let Ok(rest) = std::str::from_utf8(rest) else { continue };
            let rest = rest.trim_end();
            let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
            let value = value.trim();
            let error = |message: String| CnfError::Comment {
                position: Position { source: source_name.into(), line: line_no, column: None },
                message,
            };
            let number = |text: &str, what: &str| {
                text.parse::<usize>()
                    .map_err(|_| error(format!("`c {key}`: '{}' is not a number (expected {what})", echo(text))))
            };
            // A key that holds one value, written twice: the second was read
            // over the first without a word.
            let first_line = match key {
                "size" => c.size.map(|(line, _)| line),
                "givens" => c.givens.as_ref().map(|(line, _)| *line),
                "map" => c.map.map(|(line, ..)| line),
                "decided" => c.decided.as_ref().map(|(line, _)| *line),
                _ => None,
            };
            if let Some(first) = first_line {
                return Err(error(format!("a second `c {key}` line (expected one; line {first} gave one)")));
            }
            match key {
                "satdoku" => c.satdoku = true,
                "size" => c.size = Some((line_no, number(value, "the grid side n")?)),
                "boxes" => {
                    let (rows, cols) = parse_box_shape(value)
                        .ok_or_else(|| error(format!("`c boxes {}`: expected RxC, e.g. 3x3", echo(value))))?;
                    c.layout.push((line_no, Layout::Boxes { rows, cols }));
                }
                "latin" => c.layout.push((line_no, Layout::Latin)),
                "regions" => {
                    if c.regions.is_empty() {
                        c.layout.push((line_no, Layout::Regions(Vec::new())));
                    }
                    for word in value.split_whitespace() {
                        let r = u32::try_from(number(word, "a region number, 1 to n")?)
                            .ok()
                            .filter(|&r| r > 0)
                            .ok_or_else(|| error(format!("`c regions`: region {} (expected 1 to n)", echo(word))))?;
                        c.regions.push(r - 1);
                    }
                }
                "variant" => c.variants.push(value.parse::<Variant>().ok().ok_or_else(|| {
                    let names = Variant::names().join(", ");
                    error(format!("`c variant {}`: unknown variant (expected one of {names})", echo(value)))
                })?),
                "unit" => c.unit_lines.push((line_no, value.to_string())),
                "constraint" => c.constraint_lines.push((line_no, value.to_string())),
                "givens" => c.givens = Some((line_no, value.to_string())),
                "candidates" => c.candidates.push((line_no, value.to_string())),
                "map" => {
                    let (kind, first) = value.split_once(' ').unwrap_or((value, ""));
                    let regular = match kind {
                        "regular" => true,
                        "explicit" => false,
                        _ => {
                            return Err(error(format!(
                                "`c map {}`: expected `regular FIRST` or `explicit FIRST`",
                                echo(value)
                            )))
                        }
                    };
                    let first = number(first.trim(), "the first cell variable")?;
                    if first == 0 {
                        return Err(error("`c map`: variable 0 (variables start at 1)".into()));
                    }
                    c.map = Some((line_no, regular, first));
                }
                // A proof's CNF (`solve --proof`, `count --proof-dir`): its
                // clauses hold the claim's beside the puzzle's, so a
                // solver's answer to it is about the claim, not the puzzle
                // (its `s UNSATISFIABLE` proves the claim, and was called a
                // wrong answer where the puzzle has a solution).
                "proof" if value.starts_with("claim:") => {
                    return Err(error(format!(
                        "`c proof {}`: this is a proof's CNF, the puzzle's clauses and the claim's, and an answer to \
                         it is about the claim, not the puzzle (expected the CNF of `satdoku dimacs`; check a proof's \
                         CNF with its DRAT proof, as docs/proofs.md shows)",
                        echo(value)
                    )))
                }
                "decided" => c.decided = Some((line_no, value.to_string())),
                "var" => {
                    let (var, meaning) = value.split_once(' ').unwrap_or((value, ""));
                    c.vars.push((line_no, number(var, "a variable number")?, meaning.trim().to_string()));
                }
                // `c about:`, `c encoding`, `c ind` and anything else: for people or other tools.
                _ => {}
            }
        }
        if !c.satdoku {
            return Err(CnfError::NotSatdoku { source_name: source_name.into() });
        }
        Ok(c)
    }

    /// The grid, givens and variable map the comments describe, for a CNF of `var_count` variables.
    fn build(mut self, source_name: &str, var_count: usize) -> Result<(Puzzle, VarMap), CnfError> {
        // `FIRST` comes from the file and may be near `usize::MAX`: the sum is checked.
        let fits = |map: &VarMap| match map.offset().checked_add(map.cell_var_count()) {
            Some(end) if end <= var_count => Ok(()),
            _ => Err(CnfError::MapOutOfRange {
                source_name: source_name.into(),
                first: map.offset() + 1,
                map_vars: map.cell_var_count(),
                var_count,
            }),
        };
        let at = |line: usize, message: String| CnfError::Comment {
            position: Position { source: source_name.into(), line, column: None },
            message,
        };
        let missing = |key, expected| CnfError::Missing { source_name: source_name.into(), key, expected };
        let (_, n) = self.size.ok_or_else(|| missing("size", "the grid side"))?;
        if n == 0 || n > crate::model::geometry::MAX_SIZE {
            return Err(CnfError::Geometry { source_name: source_name.into(), error: GeometryError::Size { n } });
        }
        if self.layout.len() > 1 {
            return Err(at(
                self.layout[1].0,
                "a second layout line (expected one of `c boxes`, `c latin`, `c regions`)".into(),
            ));
        }
        let layout = match self.layout.pop() {
            Some((_, Layout::Regions(_))) => Layout::Regions(std::mem::take(&mut self.regions)),
            Some((_, layout)) => layout,
            None => return Err(missing("boxes", "one of `c boxes RxC`, `c latin` or `c regions`")),
        };
        for (line, text) in &self.unit_lines {
            let cells = text
                .split_whitespace()
                .map(|w| {
                    parse_cell_name(w, n).ok_or_else(|| {
                        at(*line, format!("`c unit`: '{}' is not a cell of a {n}x{n} grid (expected rRcC)", echo(w)))
                    })
                })
                .collect::<Result<Vec<Cell>, _>>()?;
            self.units.push((*line, cells));
        }
        let extra = self.units.into_iter().map(|(_, cells)| cells).collect();
        let constraints = self
            .constraint_lines
            .iter()
            .map(|(line, text)| {
                Constraint::parse(text, n)
                    .map_err(|message| at(*line, format!("`c constraint {}`: {message}", echo(text))))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let geometry = Geometry::with_extra_units(n, layout, &self.variants, extra)
            .and_then(|g| g.with_constraints(constraints))
            .map_err(|error| CnfError::Geometry { source_name: source_name.into(), error })?;
        let (givens_line, givens_text) = self.givens.ok_or_else(|| missing("givens", "the givens of the puzzle"))?;
        let givens = parse_grid_text(&givens_text, n).ok_or_else(|| {
            at(givens_line, format!("`c givens`: not a {n}x{n} grid (expected {} cells: '.' or a value)", n * n))
        })?;
        let candidates = read_candidates(&self.candidates, n, &at)?;
        let puzzle = match candidates {
            Some(candidates) => Puzzle::with_candidates(Arc::new(geometry), givens, candidates),
            None => Puzzle::new(Arc::new(geometry), givens),
        }
        .expect("the givens and candidates are read at the comments' size");
        let (map_line, regular, first) =
            self.map.ok_or_else(|| missing("map", "`c map regular FIRST` or `c map explicit FIRST`"))?;
        let offset = first - 1;
        if regular {
            let map = VarMap::regular(n, offset);
            fits(&map)?;
            return Ok((puzzle, map));
        }
        let (decided_line, decided_text) =
            self.decided.ok_or_else(|| missing("decided", "the cells an explicit map decides without a variable"))?;
        let decided = parse_grid_text(&decided_text, n).ok_or_else(|| {
            at(decided_line, format!("`c decided`: not a {n}x{n} grid (expected {} cells: '.' or a value)", n * n))
        })?;
        // Rebuild the candidates, then the map they give, and check it gives every listed variable.
        let mut listed: Vec<Vec<Value>> = vec![Vec::new(); n * n];
        let mut pairs = Vec::with_capacity(self.vars.len());
        for (line, var, meaning) in &self.vars {
            let (cell, value) = meaning
                .split_once('=')
                .and_then(|(cell, value)| {
                    Some((parse_cell_name(cell, n)?, Value::new_checked(value.parse().ok()?, n)?))
                })
                .ok_or_else(|| {
                    at(*line, format!("`c var {var} {}`: expected `c var NUMBER rRcC=VALUE`", echo(meaning)))
                })?;
            listed[cell.index()].push(value);
            pairs.push((*line, *var, cell, value));
        }
        let mut domains = Domains::full(n);
        for cell in puzzle.geometry().cells() {
            match decided.get(cell) {
                Some(v) => domains.fix(cell, v),
                None => Value::all(n).filter(|v| !listed[cell.index()].contains(v)).for_each(|v| {
                    domains.remove(cell, v);
                }),
            }
        }
        let map = VarMap::reduced(&domains, offset);
        fits(&map)?;
        for (line, var, cell, value) in &pairs {
            if map.var(*cell, *value).map(|v| v.index() + 1) != Some(*var) {
                return Err(at(*line, format!(
                    "`c var {var}`: the explicit map does not list its variables in order (expected cell variables numbered from {first} by cell, then value, with no gaps)"
                )));
            }
        }
        if pairs.len() != map.cell_var_count() {
            return Err(at(
                map_line,
                format!(
                    "the explicit map lists {} variables, but its cells have {} candidates",
                    pairs.len(),
                    map.cell_var_count()
                ),
            ));
        }
        Ok((puzzle, map))
    }
}

/// The pencil marks of the `c candidates` lines, if any.
fn read_candidates(
    lines: &[(usize, String)],
    n: usize,
    at: &impl Fn(usize, String) -> CnfError,
) -> Result<Option<Domains>, CnfError> {
    if lines.is_empty() {
        return Ok(None);
    }
    let mut domains = Domains::full(n);
    for (line, text) in lines {
        let mut words = text.split_whitespace();
        let expected = || at(*line, format!("`c candidates {}`: expected `c candidates rRcC VALUE...`", echo(text)));
        let cell = words.next().and_then(|w| parse_cell_name(w, n)).ok_or_else(expected)?;
        let values = words.map(|w| w.parse().ok().and_then(|v| Value::new_checked(v, n))).collect::<Option<Vec<_>>>();
        let values = values.ok_or_else(expected)?;
        for value in Value::all(n).filter(|v| !values.contains(v)) {
            domains.remove(cell, value);
        }
    }
    Ok(Some(domains))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{puzzle_cnf, Encoding, Prepared, SolveOptions};
    use crate::text::notation::parse_region_map;
    use std::sync::Arc;

    fn puzzle(geometry: Geometry, text: &str) -> Puzzle {
        let n = geometry.size();
        Puzzle::new(Arc::new(geometry), parse_grid_text(text, n).unwrap()).unwrap()
    }

    fn round_trip(p: &Puzzle, encoding: Encoding) -> (CnfFile, PuzzleCnf) {
        let options = SolveOptions { encoding, ..SolveOptions::default() };
        let cnf = puzzle_cnf(p, &options).unwrap();
        let mut text = Vec::new();
        write_cnf(&mut text, &cnf).unwrap();
        (read_cnf(&text[..], "t.cnf").unwrap(), cnf)
    }

    #[test]
    fn comments_rebuild_geometry_givens_and_map() {
        let regions = parse_region_map("aabb aabb ccdd ccdd");
        let g = Geometry::with_extra_units(
            4,
            Layout::Regions(regions),
            &[Variant::X],
            vec![vec![Cell::from_index(0), Cell::from_index(5), Cell::from_index(10), Cell::from_index(15)]],
        );
        // The diagonal extra unit duplicates x's main diagonal; fine for a round trip.
        let p = puzzle(g.unwrap(), "1...............");
        for encoding in [Encoding::Full, Encoding::Reduced, Encoding::Propagated] {
            let (back, cnf) = round_trip(&p, encoding);
            assert_eq!(&back.puzzle, &p);
            assert_eq!(back.map, cnf.map, "{encoding}");
            assert_eq!(back.formula.len(), cnf.formula.len());
        }
    }

    /// A second `c givens` (or `c size`, `c map`, `c decided`) line was
    /// read over the first without a word; a second `p` line was refused.
    #[test]
    fn a_comment_of_one_value_written_twice_is_refused() {
        let p = puzzle(Geometry::classic(4).unwrap(), "1...............");
        let cnf = puzzle_cnf(&p, &SolveOptions::default()).unwrap();
        let mut text = Vec::new();
        write_cnf(&mut text, &cnf).unwrap();
        let text = String::from_utf8(text).unwrap();
        for key in ["size", "givens", "map"] {
            let (at, line) = text.lines().enumerate().find(|(_, l)| l.starts_with(&format!("c {key} "))).unwrap();
            let twice = text.replacen(line, &format!("{line}\n{line}"), 1);
            let error = read_cnf(twice.as_bytes(), "t.cnf").map(|_| ()).unwrap_err().to_string();
            let want = format!("t.cnf:{}: a second `c {key}` line (expected one; line {} gave one)", at + 2, at + 1);
            assert_eq!(error, want);
        }
    }

    #[test]
    fn an_unsolvable_puzzle_is_refused_without_encoding_or_dumped_in_full() {
        // Two 1s in the first row: the givens clash.
        let p = puzzle(Geometry::classic(4).unwrap(), "11..............");
        let options = SolveOptions::default();
        let reason = Prepared::new(&p, &options).expect_err("a clash is found before encoding");
        assert!(reason.describe(p.geometry(), &Alphabet::default()).contains("row 1"));
        let cnf = puzzle_cnf(&p, &options).unwrap();
        assert_eq!(cnf.encoding, Encoding::Full);
        assert!(cnf.unsolvable.is_some());
        let mut solver = varisat::Solver::new();
        solver.add_formula(&cnf.formula);
        assert!(!solver.solve().unwrap(), "the dumped CNF must be unsatisfiable");
    }

    #[test]
    fn a_guessed_cnf_says_so_and_its_models_decode_to_solutions_of_the_shape() {
        // The 9×9 pattern grid with its second column of every stack blank.
        let value = crate::testing::pattern(9, 3, 3);
        let text: String =
            (0..81).map(|i| if i % 3 == 1 { '.' } else { char::from(b'1' + value(i / 9, i % 9) as u8) }).collect();
        let p = puzzle(Geometry::classic(9).unwrap(), &text);
        let options = SolveOptions { encoding: Encoding::Reduced, ..SolveOptions::default() };
        let prepared = Prepared::new(&p, &options).unwrap();
        let guesses = prepared.guesses();
        assert_eq!(guesses.len(), 1, "the givens show the column groups");
        let cnf = prepared.cnf_with(&guesses);
        assert!(cnf.guessed && !prepared.cnf().guessed);
        let mut text = Vec::new();
        write_cnf(&mut text, &cnf).unwrap();
        assert!(String::from_utf8_lossy(&text).contains("c about: with a pattern guess"));
        let back = read_cnf(&text[..], "t.cnf").unwrap();
        assert_eq!(back.map, cnf.map);
        // Saved by an editor that starts files with a byte-order mark: the same CNF.
        let marked = [crate::sat::output::BOM, &text[..]].concat();
        let again = read_cnf(&marked[..], "t.cnf").unwrap();
        assert_eq!((again.map, again.formula.var_count()), (back.map.clone(), back.formula.var_count()));
        // Written by PowerShell 5's `>`: UTF-16 with its mark, the same CNF.
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(String::from_utf8(text.clone()).unwrap().encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let again = read_cnf(&utf16[..], "t.cnf").unwrap();
        assert_eq!((again.map, again.formula.len()), (back.map.clone(), back.formula.len()));
        let mut solver = varisat::Solver::new();
        solver.add_formula(&back.formula);
        assert!(solver.solve().unwrap());
        let model = Model::from_lits(&solver.model().unwrap());
        let grid = back.decode(&model, "model").unwrap();
        assert!(guesses[0].fits(p.geometry(), &grid));
    }

    #[test]
    fn a_first_variable_near_the_end_of_usize_is_refused_not_overflowed() {
        // Found by the `dimacs_cnf` fuzz target: `FIRST - 1 + 64` overflowed.
        for (kind, extra) in [("regular", ""), ("explicit", "c decided ................\n")] {
            let text = format!(
                "c satdoku 0.1 amo au\nc size 4\nc boxes 2x2\nc givens 1.3.....2..4....\n{extra}\
                 c map {kind} {}\np cnf 48 1\n48 0\n",
                usize::MAX
            );
            match read_cnf(text.as_bytes(), "t.cnf") {
                Err(error) => assert!(matches!(error, CnfError::MapOutOfRange { .. }), "{kind}: {error}"),
                Ok(_) => panic!("{kind}: a map from variable {} cannot fit in 48 variables", usize::MAX),
            }
        }
    }

    /// The comments of a blank 4×4 (variables 1 to 64), so that the `p` line is line 6.
    const COMMENTS: &str = "c satdoku 0.1.0\nc size 4\nc boxes 2x2\nc givens ................\nc map regular 1\n";

    /// The message for a CNF of [`COMMENTS`] and `body`, which must be refused.
    fn refused(body: &str) -> String {
        match read_cnf(format!("{COMMENTS}{body}").as_bytes(), "t.cnf") {
            Err(error) => error.to_string(),
            Ok(_) => panic!("accepted: {body:?}"),
        }
    }

    #[track_caller]
    fn assert_refused(body: &str, at: &str, words: &[&str]) {
        let message = refused(body);
        assert!(message.starts_with(&format!("{at}: ")), "{body:?}: {message}");
        for word in words {
            assert!(message.contains(word), "{body:?}: {message} (expected {word:?})");
        }
    }

    /// A proof's CNF (its claim's clauses beside the puzzle's) is no CNF to
    /// decode an answer of: `s UNSATISFIABLE` to it proves the claim, and
    /// had been called a wrong answer for a puzzle with a solution.
    #[test]
    fn a_proofs_cnf_is_refused_with_its_claim_named() {
        let text = format!("c proof claim: the puzzle has no solution\n{COMMENTS}p cnf 64 1\n1 0\n");
        let message = read_cnf(text.as_bytes(), "t.cnf").err().expect("a proof's CNF refused").to_string();
        assert!(message.starts_with("t.cnf:1: `c proof claim: "), "{message}");
        assert!(message.contains("this is a proof's CNF"), "{message}");
        // A comment of people's that starts so is no claim.
        let text = format!("c proof of concept\n{COMMENTS}p cnf 64 1\n1 0\n");
        assert!(read_cnf(text.as_bytes(), "t.cnf").is_ok());
    }

    /// An empty CNF (a redirect that failed) is called empty, not a CNF
    /// of some other program's.
    #[test]
    fn an_empty_cnf_is_called_empty() {
        for text in ["", "\n\n", "\u{feff}", "  \r\n"] {
            let error = read_cnf(text.as_bytes(), "t.cnf").err().expect("an empty CNF refused");
            assert!(matches!(error, CnfError::Empty { .. }), "{text:?}: {error}");
            assert!(error.to_string().starts_with("t.cnf: empty"), "{error}");
        }
    }

    #[test]
    fn a_word_that_is_no_literal_is_named_where_it_is() {
        let expected = "(expected a variable from 1 to 64, '-' before it for its negation, or 0 to end a clause)";
        assert_refused("p cnf 64 2\n1 x2 0\n-3 4 0\n", "t.cnf:7:3", &["'x2' is not a literal", expected]);
        for word in ["2-", "--3", "-", "1.5", "+3", "é"] {
            assert_refused(
                &format!("p cnf 64 1\n1  {word} 0\n"),
                "t.cnf:7:4",
                &[&format!("'{word}' is not a literal")],
            );
        }
        // `c` starts a comment in column 1 only.
        assert_refused("p cnf 64 1\n1 2 c 0\n", "t.cnf:7:5", &["'c' is not a literal"]);
    }

    #[test]
    fn a_variable_past_the_header_is_named_where_it_is() {
        let words = [
            "literal '-65' names a variable past the 64 of the `p cnf` line",
            "(expected a variable from 1 to 64, '-' before it",
        ];
        assert_refused("p cnf 64 2\n1 2 0\n3\n  -65 0\n", "t.cnf:9:3", &words);
        // Past any integer: still a variable past the header's, not an overflow.
        let huge = "9".repeat(40);
        assert_refused(&format!("p cnf 64 1\n{huge} 0\n"), "t.cnf:7:1", &["names a variable past the 64"]);
        let none = "literal '1' names a variable past the 0 of the `p cnf` line (expected 0, to end a clause: the header declares no variables)";
        assert_refused("p cnf 0 0\n1 0\n", "t.cnf:7:1", &[none]);
    }

    #[test]
    fn a_missing_or_malformed_header_says_what_it_should_be() {
        let form = "(expected `p cnf VARIABLES CLAUSES`)";
        assert_refused(
            "1 2 0\n",
            "t.cnf:6:1",
            &["'1' comes before any `p cnf VARIABLES CLAUSES` line (expected that line first)"],
        );
        assert_refused("", "t.cnf", &["no `p cnf VARIABLES CLAUSES` line (expected one after the comments"]);
        assert_refused("pcnf 64 1\n1 0\n", "t.cnf:6:1", &["'pcnf' is not `p`", form]);
        assert_refused("p dnf 64 1\n1 0\n", "t.cnf:6:3", &["'dnf' is not `cnf`", form]);
        assert_refused("p\n1 0\n", "t.cnf:6:2", &["the `p` line ends before `cnf`", form]);
        assert_refused("p cnf x 1\n1 0\n", "t.cnf:6:7", &["'x' is not a number of variables", form]);
        assert_refused("p cnf -64 1\n1 0\n", "t.cnf:6:7", &["'-64' is not a number of variables", form]);
        assert_refused("p cnf 64\r\n1 0\n", "t.cnf:6:9", &["the `p` line ends before a number of clauses", form]);
        assert_refused("p cnf 64 +1\n1 0\n", "t.cnf:6:10", &["'+1' is not a number of clauses", form]);
        assert_refused("p cnf 64 1 1\n1 0\n", "t.cnf:6:12", &["'1' after the number of clauses", form]);
        let max = Var::max_count();
        assert_refused(
            &format!("p cnf {} 1\n1 0\n", max + 1),
            "t.cnf:6:7",
            &["variables, more than varisat takes", &format!("(expected at most {max})")],
        );
    }

    #[test]
    fn a_second_header_is_refused() {
        assert_refused(
            "p cnf 64 2\n1 0\np cnf 64 2\n2 0\n",
            "t.cnf:8:1",
            &["a second `p` line (expected one only: the first is line 6)"],
        );
    }

    #[test]
    fn a_clause_cut_off_at_the_end_says_the_file_may_be() {
        let words =
            ["the file ends inside a clause, after '-4'", "(expected 0 to end the clause: is the file cut off?)"];
        assert_refused("p cnf 64 2\n1 2 0\n3\n-4", "t.cnf:9:1", &words);
        assert_refused("p cnf 64 2\n1 2 0\n3 -4\nc a comment\n\n", "t.cnf:8:3", &words);
    }

    #[test]
    fn a_clause_count_unlike_the_headers_is_named_at_the_header() {
        assert_refused(
            "p cnf 64 3\n1 2 0\n-3 4 0\n",
            "t.cnf:6:10",
            &[
                "the header says 3 clauses, but the file has 2",
                "(expected 3: is the file cut off, or were clauses removed?)",
            ],
        );
        assert_refused(
            "p  cnf 64  1\n1 2 0\n0\n",
            "t.cnf:6:12",
            &["the header says 1 clauses, but the file has 2", "(expected 1: were clauses added?)"],
        );
    }

    #[test]
    fn clauses_are_read_across_lines_comments_tabs_and_carriage_returns() {
        let text = format!("{COMMENTS}p cnf 64 4\r\n1\t-2 0\r\nc a comment\n -3\n\n64 0 -0 0\n");
        let formula = read_cnf(text.as_bytes(), "t.cnf").unwrap().formula;
        let lit = |n: isize| varisat::Lit::from_dimacs(n);
        let expected: Vec<Vec<varisat::Lit>> = vec![vec![lit(1), lit(-2)], vec![lit(-3), lit(64)], vec![], vec![]];
        assert_eq!(formula.iter().map(<[_]>::to_vec).collect::<Vec<_>>(), expected);
        assert_eq!(formula.var_count(), 64);
    }

    /// Clause text: literals of variables 1 to 9, 0s, spaces, line ends and
    /// comment lines; with `faults`, also literals past 9, words that are no
    /// literal, words run together and a second header.
    fn clause_text(faults: bool) -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::strategy::Strategy;
        let (word, space) = if faults { ("-?[0-9]{1,2}|-|x|--1|1-|-0", "|\np cnf 9 2\n") } else { ("-?[1-9]", " ") };
        let word = proptest::prop_oneof![10 => "-?[1-9]", 5 => "0", 1 => word];
        let space = proptest::prop_oneof![12 => " ", 6 => "\n", 1 => "\r\n", 1 => "\nc x\n", 1 => space];
        // Text without faults closes its last clause. A file may end with a line end or without.
        (proptest::collection::vec((word, space), 0..40), proptest::bool::ANY).prop_map(move |(pairs, line_end)| {
            let text: String = pairs.into_iter().map(|(word, space)| word + &space).collect();
            let text = if faults { text } else { text + "0" };
            text.trim_end().to_string() + if line_end { "\n" } else { "" }
        })
    }

    proptest::proptest! {
        /// Clauses after a header: read as varisat's `DimacsParser` reads
        /// them, or refused where it refuses them. (It refuses a tab, which
        /// is whitespace here, and takes a lone `-` at the very end for nothing.)
        #[test]
        fn clauses_are_read_as_varisat_reads_them(body in proptest::prop_oneof![clause_text(false), clause_text(true)]) {
            let body = if body.ends_with('-') { body + "\n" } else { body };
            // The header counts the clauses there are, when varisat reads them, so that most texts are read.
            let mut varisat = varisat::dimacs::DimacsParser::new();
            let read = varisat.parse_chunk(body.as_bytes()).and_then(|()| varisat.eof());
            let text = format!("p cnf 9 {}\n{body}", read.map_or(2, |()| varisat.clause_count()));
            let ours = read_clauses(text.as_bytes(), "t.cnf").ok();
            let varisat = varisat::dimacs::DimacsParser::parse(text.as_bytes()).ok();
            proptest::prop_assert_eq!(ours, varisat, "{:?}", text);
        }

        #[test]
        fn no_clause_text_panics(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..100)) {
            let _ = read_clauses(&[b"p cnf 9 2\n", &bytes[..]].concat(), "t.cnf");
            let _ = read_clauses(&bytes, "t.cnf");
        }

        #[test]
        fn no_comment_text_panics(lines in proptest::collection::vec(
            "c (satdoku|size|boxes|latin|regions|variant|unit|givens|map|decided|var) [a-z0-9=. ]{0,12}", 0..10)) {
            let text = format!("{}\np cnf 3 1\n1 2 3 0\n", lines.join("\n"));
            let _ = read_cnf(text.as_bytes(), "t.cnf");
        }
    }
}
