//! A small DRAT checker for the tests, sharing no code with satdoku's or
//! varisat's: forward checking, every lemma RUP (unit propagation from
//! scratch over occurrence lists) or RAT on its first literal, up to the
//! empty clause. Slow but plain; the proofs it reads are small.

use std::collections::HashMap;

/// The clauses of a DIMACS CNF text (comments and the header skipped).
pub fn read_cnf(text: &str) -> Vec<Vec<i32>> {
    let mut clauses = Vec::new();
    let mut current = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('c') || line.starts_with('p') || line.is_empty() {
            continue;
        }
        for token in line.split_whitespace() {
            let lit: i32 = token.parse().unwrap_or_else(|_| panic!("not a literal: {token:?}"));
            if lit == 0 {
                clauses.push(std::mem::take(&mut current));
            } else {
                current.push(lit);
            }
        }
    }
    assert!(current.is_empty(), "a clause without its final 0");
    clauses
}

struct Checker {
    clauses: Vec<Vec<i32>>,
    live: Vec<bool>,
    /// Per literal (by `slot`): the clauses it occurs in.
    occurs: HashMap<i32, Vec<usize>>,
    by_key: HashMap<Vec<i32>, Vec<usize>>,
}

impl Checker {
    fn add(&mut self, clause: &[i32]) {
        let k = self.clauses.len();
        let mut key = clause.to_vec();
        key.sort_unstable();
        key.dedup();
        for &l in &key {
            self.occurs.entry(l).or_default().push(k);
        }
        self.by_key.entry(key.clone()).or_default().push(k);
        self.clauses.push(key);
        self.live.push(true);
    }

    fn delete(&mut self, clause: &[i32]) {
        let mut key = clause.to_vec();
        key.sort_unstable();
        key.dedup();
        if let Some(k) = self.by_key.get_mut(&key).and_then(|v| v.pop()) {
            self.live[k] = false;
        }
    }

    /// Whether unit propagation with `assumed` true reaches a conflict.
    fn propagates_to_conflict(&self, assumed: &[i32]) -> bool {
        let mut value: HashMap<i32, bool> = HashMap::new();
        let mut queue: Vec<i32> = Vec::new();
        let set = |lit: i32, value: &mut HashMap<i32, bool>, queue: &mut Vec<i32>| -> bool {
            match value.get(&lit.abs()) {
                Some(&v) => v == (lit > 0),
                None => {
                    value.insert(lit.abs(), lit > 0);
                    queue.push(lit);
                    true
                }
            }
        };
        for &lit in assumed {
            if !set(lit, &mut value, &mut queue) {
                return true;
            }
        }
        // Unit clauses, and the empty clause.
        for (k, clause) in self.clauses.iter().enumerate() {
            if !self.live[k] {
                continue;
            }
            if clause.is_empty() {
                return true;
            }
            if clause.len() == 1 && !set(clause[0], &mut value, &mut queue) {
                return true;
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let falsified = -queue[head];
            head += 1;
            for &k in self.occurs.get(&falsified).map(Vec::as_slice).unwrap_or(&[]) {
                if !self.live[k] {
                    continue;
                }
                let mut open = None;
                let mut open_count = 0;
                let mut satisfied = false;
                for &l in &self.clauses[k] {
                    match value.get(&l.abs()) {
                        Some(&v) if v == (l > 0) => {
                            satisfied = true;
                            break;
                        }
                        Some(_) => {}
                        None => {
                            open_count += 1;
                            open = Some(l);
                        }
                    }
                }
                if satisfied {
                    continue;
                }
                match (open_count, open) {
                    (0, _) => return true,
                    (1, Some(l)) if !set(l, &mut value, &mut queue) => return true,
                    _ => {}
                }
            }
        }
        false
    }

    fn rup(&self, lemma: &[i32]) -> bool {
        let negated: Vec<i32> = lemma.iter().map(|l| -l).collect();
        self.propagates_to_conflict(&negated)
    }

    fn rat(&self, lemma: &[i32]) -> bool {
        let Some(&pivot) = lemma.first() else { return false };
        self.occurs.get(&-pivot).map(Vec::as_slice).unwrap_or(&[]).iter().filter(|&&k| self.live[k]).all(|&k| {
            let mut resolvent = lemma.to_vec();
            resolvent.extend(self.clauses[k].iter().copied().filter(|&l| l != -pivot));
            resolvent.iter().any(|l| resolvent.contains(&-l)) || self.rup(&resolvent)
        })
    }
}

/// Check a text DRAT proof of `clauses`' unsatisfiability: Ok with the
/// number of lemmas, or the first lemma that fails.
pub fn check(clauses: &[Vec<i32>], proof: &str) -> Result<usize, String> {
    let mut checker = Checker { clauses: Vec::new(), live: Vec::new(), occurs: HashMap::new(), by_key: HashMap::new() };
    for clause in clauses {
        checker.add(clause);
    }
    let mut lemmas = 0;
    for (k, line) in proof.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let (delete, body) = match line.strip_prefix('d') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let mut lits: Vec<i32> = body
            .split_whitespace()
            .map(|t| t.parse().map_err(|_| format!("line {}: {t:?}", k + 1)))
            .collect::<Result<_, _>>()?;
        if lits.pop() != Some(0) || lits.contains(&0) {
            return Err(format!("line {}: not a clause ending in 0", k + 1));
        }
        if delete {
            checker.delete(&lits);
            continue;
        }
        if !checker.rup(&lits) && !checker.rat(&lits) {
            return Err(format!("line {}: lemma {lits:?} does not follow", k + 1));
        }
        lemmas += 1;
        if lits.is_empty() {
            return Ok(lemmas);
        }
        checker.add(&lits);
    }
    if checker.rup(&[]) {
        return Ok(lemmas);
    }
    Err(format!("no empty clause after {lemmas} lemmas"))
}
