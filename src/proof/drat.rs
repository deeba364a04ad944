//! A forward DRAT checker: every lemma of a proof must be RUP (unit
//! propagation on the clauses so far, with the lemma's negation, reaches a
//! conflict) or RAT on its first literal, and the proof must reach the empty
//! clause. It shares nothing with the solver that wrote the proof, so an
//! "unsatisfiable" it accepts does not rest on that solver.
//!
//! Each check propagates from scratch with two watched literals per clause,
//! so deleting any clause, a reason included, is simply dropping it (as the
//! DRAT semantics says); unit clauses are asserted first every time.

use std::collections::HashMap;
use std::io::BufRead;
use std::time::Instant;

use thiserror::Error;

use crate::text::lines::{max_literal_line, read_line_within, Bounded};

/// Why a proof was rejected.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DratError {
    /// A line is not a clause of DIMACS numbers ending in 0 (in a binary
    /// proof, a clause is not written as one).
    #[error("proof {} {line}: {message}", if *binary { "clause" } else { "line" })]
    Syntax {
        /// 1-based line of a text proof, or clause of a binary one.
        line: usize,
        /// Whether the proof is binary.
        binary: bool,
        #[allow(missing_docs)]
        message: String,
    },
    /// A lemma that follows neither by unit propagation nor as RAT.
    #[error("proof {} {line}: the lemma {clause} is neither RUP nor RAT", if *binary { "clause" } else { "line" })]
    NotImplied {
        /// 1-based line of a text proof, or clause of a binary one.
        line: usize,
        /// Whether the proof is binary.
        binary: bool,
        /// The lemma, in DIMACS.
        clause: String,
    },
    /// The proof ends without the empty clause.
    #[error("the proof ends without deriving the empty clause ({lemmas} lemmas checked)")]
    Incomplete {
        /// Lemmas checked.
        lemmas: usize,
    },
    /// The deadline passed before the check ended.
    #[error("the proof was not checked within the time limit")]
    TimedOut,
    /// The proof could not be read.
    #[error("cannot read the proof: {0}")]
    Read(String),
    /// A formula naming a variable far past its own size: the checker's
    /// tables are sized by the largest variable, and one naming variable
    /// 2,000,000,000 must be an error, not an allocation of tens of gigabytes.
    #[error("formula clause {clause}: variable {variable} is past the formula's {literals} literals and the {} numbers more it may leave unused", MAX_NEW_VARS)]
    VariableTooLarge {
        /// 1-based index of the clause.
        clause: usize,
        #[allow(missing_docs)]
        variable: u32,
        /// Literals in the whole formula.
        literals: usize,
    },
    /// A clause of the formula holds 0 or `i32::MIN`, which is no literal.
    #[error("formula clause {clause}: {literal} is not a literal")]
    BadFormula {
        /// 1-based index of the clause.
        clause: usize,
        #[allow(missing_docs)]
        literal: i32,
    },
}

/// What a checked proof held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DratSummary {
    /// Lemmas checked (up to the empty clause).
    pub lemmas: usize,
    /// Clauses deleted.
    pub deletions: usize,
}

/// A literal as an index: 2·(var - 1) for positive, + 1 for negative.
fn index(lit: i32) -> usize {
    2 * (lit.unsigned_abs() as usize - 1) + usize::from(lit < 0)
}

/// A hash of a sorted clause.
fn key(sorted: &[i32]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    sorted.hash(&mut hasher);
    hasher.finish()
}

/// The clause database and the propagation state of one check.
struct Db {
    clauses: Vec<Vec<i32>>,
    live: Vec<bool>,
    /// Live clauses by a hash of their sorted literals, for deletion.
    by_key: HashMap<u64, Vec<usize>>,
    /// Per literal index: the clauses watching it (its first two literals).
    watches: Vec<Vec<usize>>,
    units: Vec<usize>,
    /// Per variable: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    trail: Vec<i32>,
    /// Whether an empty clause is in the database.
    empty: bool,
}

impl Db {
    fn new() -> Db {
        Db {
            clauses: Vec::new(),
            live: Vec::new(),
            by_key: HashMap::new(),
            watches: Vec::new(),
            units: Vec::new(),
            value: Vec::new(),
            trail: Vec::new(),
            empty: false,
        }
    }

    fn grow(&mut self, lits: &[i32]) {
        let vars = lits.iter().map(|l| l.unsigned_abs() as usize).max().unwrap_or(0);
        if vars > self.value.len() {
            self.value.resize(vars, 0);
            self.watches.resize(2 * vars, Vec::new());
        }
    }

    fn add(&mut self, mut lits: Vec<i32>) {
        lits.sort_unstable();
        lits.dedup();
        // A tautology constrains nothing.
        if lits.iter().any(|l| lits.binary_search(&-l).is_ok()) {
            return;
        }
        self.grow(&lits);
        let k = self.clauses.len();
        self.by_key.entry(key(&lits)).or_default().push(k);
        match lits.len() {
            0 => self.empty = true,
            1 => self.units.push(k),
            _ => {
                self.watches[index(lits[0])].push(k);
                self.watches[index(lits[1])].push(k);
            }
        }
        self.clauses.push(lits);
        self.live.push(true);
    }

    fn delete(&mut self, mut lits: Vec<i32>) {
        lits.sort_unstable();
        lits.dedup();
        // The watch code reorders a clause's literals: compare them sorted.
        let (clauses, live) = (&self.clauses, &mut self.live);
        if let Some(ks) = self.by_key.get_mut(&key(&lits)) {
            let same = |k: usize| {
                let mut other = clauses[k].clone();
                other.sort_unstable();
                other == lits
            };
            if let Some(at) = ks.iter().rposition(|&k| live[k] && same(k)) {
                live[ks.swap_remove(at)] = false;
            }
        }
    }

    fn lit_value(&self, lit: i32) -> i8 {
        let v = self.value[lit.unsigned_abs() as usize - 1];
        if lit < 0 {
            -v
        } else {
            v
        }
    }

    /// Make `lit` true; false when it is already false (a conflict).
    fn assign(&mut self, lit: i32) -> bool {
        match self.lit_value(lit) {
            1 => true,
            -1 => false,
            _ => {
                self.value[lit.unsigned_abs() as usize - 1] = if lit < 0 { -1 } else { 1 };
                self.trail.push(lit);
                true
            }
        }
    }

    fn undo(&mut self) {
        for lit in self.trail.drain(..) {
            self.value[lit.unsigned_abs() as usize - 1] = 0;
        }
    }

    /// Whether unit propagation from the live unit clauses and `assumed`
    /// reaches a conflict. Leaves the assignment for the caller to undo.
    fn conflict(&mut self, assumed: &[i32]) -> bool {
        if self.empty {
            return true;
        }
        for k in 0..self.units.len() {
            let c = self.units[k];
            if self.live[c] && !self.assign(self.clauses[c][0]) {
                return true;
            }
        }
        for &lit in assumed {
            if !self.assign(lit) {
                return true;
            }
        }
        let mut head = 0;
        while head < self.trail.len() {
            let falsified = -self.trail[head];
            head += 1;
            let watchers = std::mem::take(&mut self.watches[index(falsified)]);
            let mut kept = Vec::with_capacity(watchers.len());
            let mut conflict = false;
            for (w, &c) in watchers.iter().enumerate() {
                if !self.live[c] {
                    continue;
                }
                if conflict {
                    kept.push(c);
                    continue;
                }
                let clause = &mut self.clauses[c];
                if clause[0] == falsified {
                    clause.swap(0, 1);
                }
                // clause[1] is the false watch; look for another.
                let first = clause[0];
                let replacement = (2..clause.len()).find(|&i| {
                    let l = clause[i];
                    let v = self.value[l.unsigned_abs() as usize - 1];
                    (if l < 0 { -v } else { v }) != -1
                });
                if let Some(i) = replacement {
                    let clause = &mut self.clauses[c];
                    clause.swap(1, i);
                    let new = clause[1];
                    self.watches[index(new)].push(c);
                    continue;
                }
                kept.push(c);
                if !self.assign(first) {
                    conflict = true;
                    kept.extend(watchers[w + 1..].iter().copied().filter(|&c| self.live[c]));
                    break;
                }
            }
            let rest = std::mem::replace(&mut self.watches[index(falsified)], kept);
            self.watches[index(falsified)].extend(rest);
            if conflict {
                return true;
            }
        }
        false
    }

    /// Whether `lemma` follows by unit propagation.
    fn rup(&mut self, lemma: &[i32]) -> bool {
        let negated: Vec<i32> = lemma.iter().map(|&l| -l).collect();
        let found = self.conflict(&negated);
        self.undo();
        found
    }

    /// Whether `lemma` is a resolution asymmetric tautology on its first literal.
    fn rat(&mut self, lemma: &[i32]) -> bool {
        let Some(&pivot) = lemma.first() else { return false };
        let partners: Vec<usize> =
            (0..self.clauses.len()).filter(|&c| self.live[c] && self.clauses[c].contains(&-pivot)).collect();
        partners.into_iter().all(|c| {
            let mut resolvent = lemma.to_vec();
            resolvent.extend(self.clauses[c].iter().copied().filter(|&l| l != -pivot));
            // A tautological resolvent holds trivially.
            resolvent.iter().any(|&l| resolvent.contains(&-l)) || self.rup(&resolvent)
        })
    }
}

/// How many variables past the formula's a proof may introduce (extended
/// resolution), and how many numbers a formula may leave unused past its
/// literal count; the checker's tables are sized by the largest variable.
pub const MAX_NEW_VARS: usize = 1 << 20;

/// Refuse a formula the checker cannot take: a clause holding 0 or
/// `i32::MIN`, or a variable far past the formula's size (its tables would
/// be sized by it). A formula of L literals names at most L variables; past
/// them it may leave [`MAX_NEW_VARS`] numbers unused, as a proof may add as
/// many.
fn check_formula(clauses: &[Vec<i32>]) -> Result<(), DratError> {
    let literals: usize = clauses.iter().map(Vec::len).sum();
    for (k, clause) in clauses.iter().enumerate() {
        if let Some(&literal) = clause.iter().find(|&&l| l == 0 || l == i32::MIN) {
            return Err(DratError::BadFormula { clause: k + 1, literal });
        }
        if let Some(l) = clause.iter().find(|l| l.unsigned_abs() as usize > literals + MAX_NEW_VARS) {
            return Err(DratError::VariableTooLarge { clause: k + 1, variable: l.unsigned_abs(), literals });
        }
    }
    Ok(())
}

/// Check a DRAT `proof`, text or binary, against `clauses` (DIMACS
/// literals, one clause per vector).
pub fn check_drat(clauses: &[Vec<i32>], proof: impl BufRead) -> Result<DratSummary, DratError> {
    check_drat_until(clauses, proof, None)
}

/// [`check_drat`] that gives up with [`DratError::TimedOut`] at `deadline`.
pub(crate) fn check_drat_until(
    clauses: &[Vec<i32>],
    proof: impl BufRead,
    deadline: Option<Instant>,
) -> Result<DratSummary, DratError> {
    check_formula(clauses)?;
    let mut db = Db::new();
    for clause in clauses {
        db.add(clause.clone());
    }
    // The tables grow with the largest variable: a proof may add variables
    // of its own, but one naming variable 2,000,000,000 must be an error,
    // not an allocation of tens of gigabytes.
    let formula_vars = clauses.iter().flatten().map(|l| l.unsigned_abs() as usize).max().unwrap_or(0);
    let mut steps = Steps::new(proof, formula_vars, deadline)?;
    let mut summary = DratSummary::default();
    // A formula that unit propagation alone refutes needs no lemma (a clash
    // of givens): say so at once rather than propagate again for every lemma.
    if db.rup(&[]) {
        return Ok(summary);
    }
    while let Some(Step { delete, lits }) = steps.next()? {
        if delete {
            db.delete(lits);
            summary.deletions += 1;
            continue;
        }
        db.grow(&lits);
        if !db.rup(&lits) && !db.rat(&lits) {
            let clause: Vec<String> = lits.iter().map(|l| l.to_string()).chain(["0".into()]).collect();
            return Err(DratError::NotImplied { line: steps.read, binary: steps.binary, clause: clause.join(" ") });
        }
        summary.lemmas += 1;
        if lits.is_empty() {
            return Ok(summary);
        }
        db.add(lits);
    }
    // The lemmas may have made the formula refutable by propagation alone.
    if db.rup(&[]) {
        return Ok(summary);
    }
    Err(DratError::Incomplete { lemmas: summary.lemmas })
}

/// One step of a proof: a lemma to check and add, or a clause to delete.
struct Step {
    delete: bool,
    lits: Vec<i32>,
}

/// The steps of a DRAT proof, read from its text form (`1 -2 0`, `d 1 -2
/// 0`, comment lines `c …`) or its binary form (CaDiCaL's and Kissat's
/// default: `a` or `d`, then each literal l as the variable-length number
/// 2|l| + (l < 0), 7 bits a byte, low bits first, then a 0 byte).
struct Steps<R> {
    proof: R,
    binary: bool,
    /// Lines (text) or clauses (binary) read so far: the 1-based place of
    /// the last step.
    read: usize,
    buf: Vec<u8>,
    /// The formula's largest variable, and the largest a proof may name.
    formula_vars: usize,
    max_var: usize,
    /// No lemma is longer than a clause of every variable; a longer one (an
    /// endless line, `/dev/zero`) is an error, not memory filled.
    max_line: usize,
    deadline: Option<Instant>,
}

/// Whether a proof that starts with `head` is binary, as drat-trim tells
/// them: a binary proof starts with `a` or `d`, and its numbers soon give a
/// byte that no text proof holds (a 0 ends every clause). A text proof may
/// open with a comment line, of any characters.
fn is_binary(head: &[u8]) -> bool {
    let text = |b: &u8| b.is_ascii_digit() || b" -\t\r\ncd".contains(b);
    head.first() == Some(&b'a') || (head.first() != Some(&b'c') && !head.iter().take(10).all(text))
}

impl<R: BufRead> Steps<R> {
    fn new(mut proof: R, formula_vars: usize, deadline: Option<Instant>) -> Result<Self, DratError> {
        let binary = is_binary(proof.fill_buf().map_err(|e| DratError::Read(e.to_string()))?);
        let max_var = formula_vars + MAX_NEW_VARS;
        let max_line = max_literal_line(max_var);
        Ok(Steps { proof, binary, read: 0, buf: Vec::new(), formula_vars, max_var, max_line, deadline })
    }

    fn syntax(&self, message: impl Into<String>) -> DratError {
        DratError::Syntax { line: self.read, binary: self.binary, message: message.into() }
    }

    /// The next step, or `None` at the end of the proof.
    fn next(&mut self) -> Result<Option<Step>, DratError> {
        loop {
            self.read += 1;
            // Every line counts toward the deadline: a proof of nothing but
            // comments or deletions may be long too.
            if self.read % 256 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(DratError::TimedOut);
            }
            if self.binary {
                return self.next_binary();
            }
            match read_line_within(&mut self.proof, &mut self.buf, self.max_line)
                .map_err(|e| DratError::Read(e.to_string()))?
            {
                Bounded::Line => {}
                Bounded::End => return Ok(None),
                Bounded::TooLong => {
                    return Err(self.syntax(format!("longer than {} bytes, more than any clause", self.max_line)))
                }
            }
            let Ok(line) = std::str::from_utf8(&self.buf) else { return Err(self.syntax("not UTF-8 text")) };
            let text = line.trim();
            if text.is_empty() || text.starts_with('c') {
                continue;
            }
            let (delete, body) = match text.strip_prefix('d') {
                Some(rest) => (true, rest),
                None => (false, text),
            };
            let numbers = body
                .split_whitespace()
                .map(|t| t.parse::<i32>().map_err(|_| format!("'{t}' is not a literal")))
                .collect::<Result<Vec<i32>, String>>()
                .map_err(|message| self.syntax(message))?;
            let Some((&0, lits)) = numbers.split_last() else {
                return Err(self.syntax("a clause must end with 0"));
            };
            if lits.iter().any(|&l| l == 0 || l == i32::MIN) {
                return Err(self.syntax("0 inside a clause"));
            }
            if let Some(&l) = lits.iter().find(|l| l.unsigned_abs() as usize > self.max_var) {
                return Err(self.past_the_formula(l.unsigned_abs() as usize));
            }
            return Ok(Some(Step { delete, lits: lits.to_vec() }));
        }
    }

    fn past_the_formula(&self, variable: usize) -> DratError {
        self.syntax(format!(
            "variable {variable} is past the formula's {} and the {MAX_NEW_VARS} a proof may add",
            self.formula_vars
        ))
    }

    /// [`Steps::next`] in a binary proof.
    fn next_binary(&mut self) -> Result<Option<Step>, DratError> {
        let delete = match self.byte()? {
            None => return Ok(None),
            Some(b'a') => false,
            Some(b'd') => true,
            Some(b) => return Err(self.syntax(format!("byte 0x{b:02x} starts no clause (expected 'a' or 'd')"))),
        };
        let mut lits = Vec::new();
        loop {
            let number = self.number()?;
            if number == 0 {
                return Ok(Some(Step { delete, lits }));
            }
            let variable = (number >> 1) as usize;
            if variable == 0 {
                return Err(self.syntax("0 inside a clause"));
            }
            if variable > self.max_var || i32::try_from(variable).is_err() {
                return Err(self.past_the_formula(variable));
            }
            if lits.len() == self.max_var {
                return Err(self.syntax(format!("more than {} literals, more than any clause", self.max_var)));
            }
            let literal = variable as i32; // checked just above
            lits.push(if number & 1 == 1 { -literal } else { literal });
        }
    }

    /// One variable-length number of a binary proof.
    fn number(&mut self) -> Result<u64, DratError> {
        let mut number = 0;
        for shift in (0..64).step_by(7) {
            let Some(byte) = self.byte()? else { return Err(self.syntax("the proof ends inside a clause")) };
            number |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(number);
            }
        }
        Err(self.syntax("a number longer than 64 bits"))
    }

    fn byte(&mut self) -> Result<Option<u8>, DratError> {
        let byte = loop {
            match self.proof.fill_buf() {
                Ok(bytes) => break bytes.first().copied(),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(DratError::Read(e.to_string())),
            }
        };
        if byte.is_some() {
            self.proof.consume(1);
        }
        Ok(byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every clause over three variables: unsatisfiable, and each clause is
    /// needed.
    fn all_eight() -> Vec<Vec<i32>> {
        (0..8).map(|m| (1..=3).map(|v| if m >> (v - 1) & 1 == 1 { v } else { -v }).collect()).collect()
    }

    #[test]
    fn a_variable_far_past_the_formula_is_an_error_not_an_allocation() {
        let proof = "2000000000 0\n0\n";
        let error = check_drat(&all_eight(), proof.as_bytes()).unwrap_err();
        assert!(matches!(error, DratError::Syntax { line: 1, .. }), "{error}");
        // A new variable within the allowance is fine (and here useless).
        let proof = format!("{} 1 2 0\n1 2 0\n1 0\n2 0\n0\n", 3 + MAX_NEW_VARS);
        assert!(check_drat(&all_eight(), proof.as_bytes()).is_ok());
    }

    /// A formula naming a variable far past its size is an error, not an
    /// allocation sized by it (variable 2,000,000,000 was 96 GB, an abort);
    /// a few numbers left unused are fine.
    #[test]
    fn a_variable_far_past_the_formula_s_size_is_an_error() {
        let far = vec![vec![2_000_000_000], vec![-2_000_000_000]];
        let error = check_drat(&far, "0\n".as_bytes()).unwrap_err();
        assert_eq!(error, DratError::VariableTooLarge { clause: 1, variable: 2_000_000_000, literals: 2 });
        // Two literals: variables up to 2 + MAX_NEW_VARS; three: 3 + MAX_NEW_VARS.
        let last = (2 + MAX_NEW_VARS) as i32;
        assert!(check_drat(&[vec![last], vec![-last]], "0\n".as_bytes()).is_ok());
        let past = vec![vec![1], vec![-1, last + 2]];
        assert!(matches!(check_drat(&past, "0\n".as_bytes()), Err(DratError::VariableTooLarge { clause: 2, .. })));
    }

    /// An endless proof line (`/dev/zero`) is an error once it is longer
    /// than any clause, and a line of no text is a syntax error.
    #[test]
    fn an_endless_or_binary_proof_line_is_an_error() {
        use std::io::Read;
        let endless = std::io::BufReader::new("1 2 0\n".as_bytes().chain(std::io::repeat(0)));
        let error = check_drat(&all_eight(), endless).unwrap_err();
        assert!(
            matches!(&error, DratError::Syntax { line: 2, message, .. } if message.contains("longer than")),
            "{error}"
        );
        // Past the first ten bytes, which tell a binary proof from text.
        let error = check_drat(&all_eight(), &b"1 2 0\n1 0\n\xff 0\n"[..]).unwrap_err();
        assert!(matches!(error, DratError::Syntax { line: 3, binary: false, .. }), "{error}");
    }

    /// A formula clause holding 0 or i32::MIN (which has no negation) is an
    /// error, not a panic.
    #[test]
    fn a_formula_clause_that_is_no_clause_is_an_error() {
        for literal in [0, i32::MIN] {
            let clauses = vec![vec![1], vec![2, literal]];
            assert_eq!(check_drat(&clauses, "0\n".as_bytes()), Err(DratError::BadFormula { clause: 2, literal }));
        }
    }

    #[test]
    fn a_resolution_proof_is_accepted() {
        let proof = "1 2 0\n1 0\n2 0\n0\n";
        assert!(check_drat(&all_eight(), proof.as_bytes()).is_ok());
        // A formula refuted by unit propagation needs no lemma.
        assert_eq!(check_drat(&[vec![1], vec![-1, 2], vec![-2]], "".as_bytes()), Ok(DratSummary::default()));
        // Without the lemmas, unit propagation alone finds nothing.
        assert_eq!(check_drat(&all_eight(), "".as_bytes()), Err(DratError::Incomplete { lemmas: 0 }));
    }

    /// A text proof written in binary DRAT: `a` or `d`, then each literal
    /// l as 2|l| + (l < 0) in 7-bit groups, low first (written here by hand,
    /// not by the reader's code), then a 0.
    fn binary(text: &str) -> Vec<u8> {
        let mut bytes = Vec::new();
        for line in text.lines() {
            let (kind, body) = line.strip_prefix("d ").map_or((b'a', line), |rest| (b'd', rest));
            bytes.push(kind);
            for literal in body.split_whitespace().map(|t| t.parse::<i64>().unwrap()) {
                let mut number = (2 * literal.unsigned_abs()) | u64::from(literal < 0);
                if literal == 0 {
                    number = 0;
                }
                while number >= 0x80 {
                    bytes.push((number & 0x7f) as u8 | 0x80);
                    number >>= 7;
                }
                bytes.push(number as u8);
            }
        }
        bytes
    }

    /// CaDiCaL and Kissat write binary proofs unless told `--no-binary`.
    #[test]
    fn binary_proofs_are_read_as_such() {
        let proof = "1 2 0\nd 1 2 3 0\n1 0\n2 0\n0\n";
        let summary = check_drat(&all_eight(), binary(proof).as_slice()).unwrap();
        assert_eq!(summary, DratSummary { lemmas: 4, deletions: 1 });
        // Variables past 63 take two bytes each.
        let wide: Vec<Vec<i32>> = all_eight().iter().map(|c| c.iter().map(|l| l * 100).collect()).collect();
        assert!(check_drat(&wide, binary("100 200 0\n100 0\n200 0\n0\n").as_slice()).is_ok());
        // A lemma that does not follow is named by its place among the clauses.
        let clauses: Vec<Vec<i32>> = all_eight().into_iter().filter(|c| c != &vec![1, 2, 3]).collect();
        let error = check_drat(&clauses, binary("d 1 2 -3 0\n1 0\n0\n").as_slice()).unwrap_err();
        assert_eq!(error, DratError::NotImplied { line: 2, binary: true, clause: "1 0".into() });
        assert_eq!(error.to_string(), "proof clause 2: the lemma 1 0 is neither RUP nor RAT");
        // Cut inside a clause, a byte that starts none, a variable far past the formula.
        let mut cut = binary(proof);
        cut.truncate(cut.len() - 3);
        for (bytes, message) in [
            (cut, "ends inside a clause"),
            (b"a\x02\x00\x07\x00".to_vec(), "byte 0x07 starts no clause"),
            (binary("2000000000 0\n"), "past the formula"),
            (b"a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01".to_vec(), "longer than 64 bits"),
        ] {
            let error = check_drat(&all_eight(), bytes.as_slice()).unwrap_err();
            assert!(
                matches!(&error, DratError::Syntax { binary: true, message: m, .. } if m.contains(message)),
                "{error}"
            );
        }
        // Text that opens with a comment of any characters stays text.
        assert!(check_drat(&all_eight(), "c written by \x01 a tool\n1 2 0\n1 0\n2 0\n0\n".as_bytes()).is_ok());
    }

    #[test]
    fn a_lemma_that_does_not_follow_is_rejected() {
        // 1 0 is RUP only after 1 2 0 (and 1 -2 0 is in the formula).
        let clauses: Vec<Vec<i32>> = all_eight().into_iter().filter(|c| c != &vec![1, 2, 3]).collect();
        let proof = "1 0\n0\n";
        assert!(matches!(check_drat(&clauses, proof.as_bytes()), Err(DratError::NotImplied { line: 1, .. })));
    }

    #[test]
    fn a_deleted_clause_no_longer_helps() {
        let proof = "d 1 2 3 0\n1 2 0\n";
        assert!(matches!(check_drat(&all_eight(), proof.as_bytes()), Err(DratError::NotImplied { line: 2, .. })));
    }

    #[test]
    fn rat_lemmas_are_accepted() {
        // x4 is a fresh variable: 4 0 is RAT (no clause holds -4).
        let proof = "4 0\n1 2 0\n1 0\n2 0\n0\n";
        assert!(check_drat(&all_eight(), proof.as_bytes()).is_ok());
    }
}
