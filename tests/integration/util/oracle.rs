//! CaDiCaL's answer on a CNF written here from a checker [`Shape`], sharing
//! no code with satdoku's encoder: for questions plain backtracking cannot
//! settle in time (a forcing set of a 16×16 can need a deduction that took
//! [`super::brute::Brute`] over a minute). Neither answer is taken on trust:
//! a solution is checked by [`super::checker::check`], and "no solution"
//! needs CaDiCaL's DRAT proof to pass [`super::drat::check`].

use std::process::Command;

use super::checker::{check, Shape};
use super::drat;

pub struct Oracle {
    shape: Shape,
}

impl Oracle {
    pub fn new(shape: Shape) -> Oracle {
        Oracle { shape }
    }

    /// A solution that keeps `givens` (0 = empty) and puts no value `v` in
    /// cell `c` for each `(c, v)` of `excluded`; None when there is none.
    pub fn solve(&self, givens: &[usize], excluded: &[(usize, usize)]) -> Option<Vec<usize>> {
        let clauses = self.clauses(givens, excluded);
        let n = self.shape.n;
        let dir = tempfile::tempdir().unwrap();
        let (cnf, proof) = (dir.path().join("oracle.cnf"), dir.path().join("oracle.drat"));
        let mut text = format!("p cnf {} {}\n", n * n * n, clauses.len());
        for clause in &clauses {
            text.extend(clause.iter().map(|l| format!("{l} ")));
            text.push_str("0\n");
        }
        std::fs::write(&cnf, text).unwrap();
        let out = Command::new("cadical").args(["-q", "--no-binary"]).arg(&cnf).arg(&proof).output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        match out.status.code() {
            Some(10) => {
                let mut solution = vec![0; n * n];
                let model = stdout.lines().filter_map(|l| l.strip_prefix("v "));
                for lit in model.flat_map(str::split_whitespace).map(|t| t.parse::<i64>().unwrap()) {
                    if lit > 0 {
                        let (c, v) = ((lit as usize - 1) / n, (lit as usize - 1) % n + 1);
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
            _ => panic!("cadical: {}: {stdout}", out.status),
        }
    }

    /// Variable of value `v` (1..=n) in cell `c`.
    fn var(&self, c: usize, v: usize) -> i32 {
        (c * self.shape.n + v) as i32
    }

    /// Each cell holds one value and each unit each value once (both as "at
    /// least one" and pairwise "at most one"), the givens hold, the
    /// excluded values do not.
    fn clauses(&self, givens: &[usize], excluded: &[(usize, usize)]) -> Vec<Vec<i32>> {
        let n = self.shape.n;
        let mut clauses = Vec::new();
        let mut exactly_one = |lits: Vec<i32>| {
            for (i, &a) in lits.iter().enumerate() {
                clauses.extend(lits[i + 1..].iter().map(|&b| vec![-a, -b]));
            }
            clauses.push(lits);
        };
        for c in 0..n * n {
            exactly_one((1..=n).map(|v| self.var(c, v)).collect());
        }
        for unit in &self.shape.units {
            for v in 1..=n {
                exactly_one(unit.iter().map(|&c| self.var(c, v)).collect());
            }
        }
        clauses.extend(givens.iter().enumerate().filter(|&(_, &v)| v != 0).map(|(c, &v)| vec![self.var(c, v)]));
        clauses.extend(excluded.iter().map(|&(c, v)| vec![-self.var(c, v)]));
        clauses
    }
}
