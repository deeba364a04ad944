//! CaDiCaL's answer on a CNF written here from a checker [`Shape`], sharing
//! no code with satdoku's encoder: for questions plain backtracking cannot
//! settle in time (a forcing set of a 16×16 can need a deduction that took
//! [`super::brute::Brute`] over a minute). Neither answer is taken on trust:
//! a solution is checked by [`super::checker::check`], and "no solution"
//! needs CaDiCaL's DRAT proof to pass [`super::drat::check`] (or the
//! givens' direct consequences to clash, seen here without a solver). The
//! CNF is simplified by those consequences first: a third of the time.

use std::time::Duration;

use super::checker::{check, Shape};
use super::drat;

pub struct Oracle {
    shape: Shape,
}

/// The CNF of a question, simplified by what the givens and exclusions
/// decide: each variable's value where they decide it, and the clauses left.
struct Simplified {
    decided: Vec<Option<bool>>,
    clauses: Vec<Vec<i32>>,
}

impl Oracle {
    pub fn new(shape: Shape) -> Oracle {
        let n = shape.n;
        assert!(shape.units.iter().all(|u| u.len() == n), "test bug: each unit holds each value once, so n cells");
        Oracle { shape }
    }

    /// A solution that keeps `givens` (0 = empty) and puts no value `v` in
    /// cell `c` for each `(c, v)` of `excluded`; None when there is none.
    pub fn solve(&self, givens: &[usize], excluded: &[(usize, usize)]) -> Option<Vec<usize>> {
        let n = self.shape.n;
        // None: the givens' own consequences clash (two givens of a value in
        // a unit, a cell or a unit's value left no place), no solver needed.
        let Simplified { decided, clauses } = self.simplified(givens, excluded)?;
        let dir = tempfile::tempdir().unwrap();
        let (cnf, proof) = (dir.path().join("oracle.cnf"), dir.path().join("oracle.drat"));
        let mut text = format!("p cnf {} {}\n", n * n * n, clauses.len());
        for clause in &clauses {
            text.extend(clause.iter().map(|l| format!("{l} ")));
            text.push_str("0\n");
        }
        std::fs::write(&cnf, text).unwrap();
        let out = assert_cmd::Command::new("cadical")
            .args(["-q", "--no-binary"])
            .arg(&cnf)
            .arg(&proof)
            .timeout(Duration::from_secs(600))
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        match out.status.code() {
            Some(10) => {
                let mut solution = vec![0; n * n];
                let model = stdout.lines().filter_map(|l| l.strip_prefix("v "));
                let mut value = vec![false; n * n * n];
                for lit in model.flat_map(str::split_whitespace).map(|t| t.parse::<i64>().unwrap()) {
                    if lit > 0 {
                        value[lit as usize - 1] = true;
                    }
                }
                // A decided variable is in no clause: its value is the decided one.
                for (i, (&decided, &free)) in decided.iter().zip(&value).enumerate() {
                    if decided.unwrap_or(free) {
                        let (c, v) = (i / n, i % n + 1);
                        assert_eq!(solution[c], 0, "cadical's model puts two values in cell {c}");
                        solution[c] = v;
                    }
                }
                check(&self.shape, givens, &solution).unwrap_or_else(|e| panic!("cadical's model: {e}"));
                assert!(excluded.iter().all(|&(c, v)| solution[c] != v), "cadical's model takes an excluded value");
                Some(solution)
            }
            Some(20) => {
                let proof = std::fs::read_to_string(&proof).unwrap();
                drat::check(&clauses, &proof).unwrap_or_else(|e| panic!("cadical's proof of no solution: {e}"));
                None
            }
            _ => panic!("cadical: {}: {stdout}{}", out.status, String::from_utf8_lossy(&out.stderr)),
        }
    }

    /// Variable of value `v` (1..=n) in cell `c`.
    fn var(&self, c: usize, v: usize) -> i32 {
        (c * self.shape.n + v) as i32
    }

    /// Each cell holds one value and each unit each value once (both as "at
    /// least one" and pairwise "at most one"), the givens hold, the excluded
    /// values do not; simplified by those: a given's value true in its cell,
    /// false in its other values and in its peers, an excluded one false.
    /// Clauses a decided literal satisfies go, false literals leave the
    /// rest. None when two decisions clash or a clause loses every literal.
    fn simplified(&self, givens: &[usize], excluded: &[(usize, usize)]) -> Option<Simplified> {
        let n = self.shape.n;
        let mut decided: Vec<Option<bool>> = vec![None; n * n * n];
        let mut decide = |var: i32, value: bool| match decided[var as usize - 1].replace(value) {
            Some(earlier) => earlier == value,
            None => true,
        };
        let mut consistent = true;
        for (c, &g) in givens.iter().enumerate().filter(|&(_, &g)| g != 0) {
            for v in 1..=n {
                consistent &= decide(self.var(c, v), v == g);
            }
            for unit in self.shape.units.iter().filter(|u| u.contains(&c)) {
                for &p in unit.iter().filter(|&&p| p != c) {
                    consistent &= decide(self.var(p, g), false);
                }
            }
        }
        for &(c, v) in excluded {
            consistent &= decide(self.var(c, v), false);
        }
        if !consistent {
            return None;
        }
        let mut clauses = Vec::new();
        let mut exactly_one = |lits: Vec<i32>| {
            let value = |l: i32| decided[l.unsigned_abs() as usize - 1].map(|v| v == (l > 0));
            if lits.iter().any(|&l| value(l) == Some(true)) {
                // At least one holds; each pair of the others is false already.
                return true;
            }
            let open: Vec<i32> = lits.into_iter().filter(|&l| value(l).is_none()).collect();
            for (i, &a) in open.iter().enumerate() {
                clauses.extend(open[i + 1..].iter().map(|&b| vec![-a, -b]));
            }
            let placed = !open.is_empty();
            clauses.push(open);
            placed
        };
        let cells = (0..n * n).all(|c| exactly_one((1..=n).map(|v| self.var(c, v)).collect()));
        let units = self
            .shape
            .units
            .iter()
            .all(|unit| (1..=n).all(|v| exactly_one(unit.iter().map(|&c| self.var(c, v)).collect())));
        (cells && units).then_some(Simplified { decided, clauses })
    }
}
