//! `--proof` and `--proof-dir`: every proof checked by the tests' own DRAT
//! checker, every clause of its CNF justified by the rules of the grid (so
//! that refuting the CNF refutes the claim), the claim's clauses read back
//! and checked, and corrupted proofs rejected.

use std::collections::HashSet;
use std::path::Path;

use tempfile::TempDir;

use crate::util::brute::Brute;
use crate::util::checker::{assert_solves, data_lines, read_solution_line, read_symbols, Shape};
use crate::util::drat::{check, read_cnf};
use crate::util::{available, json_lines, run};

/// The variable of "cell c holds v" (c row-major from 0, v from 1) in the
/// regular map that `c map regular 1` announces.
fn var(n: usize, cell: usize, v: usize) -> i32 {
    (1 + cell * n + v - 1) as i32
}

/// Whether `clause` is one the rules of `shape` imply, with `givens`: a
/// given's unit clause, a cell's at-least-one or a unit's, or a pairwise
/// at-most-one of a cell or of a unit.
fn justified(shape: &Shape, givens: &[usize], clause: &[i32]) -> bool {
    let n = shape.n;
    let pair = |l: i32| {
        let k = l.unsigned_abs() as usize - 1;
        (k / n, k % n + 1)
    };
    let pairs: Vec<(usize, usize)> = clause.iter().map(|&l| pair(l)).collect();
    let positive = clause.iter().all(|&l| l > 0);
    let negative = clause.iter().all(|&l| l < 0);
    match clause.len() {
        1 if positive => givens[pairs[0].0] == pairs[0].1,
        2 if negative => {
            let ((a, u), (b, v)) = (pairs[0], pairs[1]);
            (a == b && u != v)
                || (u == v && a != b && shape.units.iter().any(|unit| unit.contains(&a) && unit.contains(&b)))
        }
        k if k == n && positive => {
            let cells: HashSet<usize> = pairs.iter().map(|p| p.0).collect();
            let values: HashSet<usize> = pairs.iter().map(|p| p.1).collect();
            (cells.len() == 1 && values.len() == n)
                || (values.len() == 1 && shape.units.iter().any(|u| u.iter().copied().collect::<HashSet<_>>() == cells))
        }
        _ => false,
    }
}

/// The CNF and proof a run wrote at `drat`: the clauses the rules justify
/// (checked), the rest (the claim's), and the proof checked.
fn read_proof(shape: &Shape, givens: &[usize], drat: &std::path::Path) -> (Vec<Vec<i32>>, Vec<Vec<i32>>, String) {
    let cnf_text = std::fs::read_to_string(drat.with_extension("cnf")).unwrap();
    assert!(cnf_text.contains("c map regular 1"), "the tests read the regular map");
    let proof = std::fs::read_to_string(drat).unwrap();
    let clauses = read_cnf(&cnf_text);
    let (base, claim): (Vec<Vec<i32>>, Vec<Vec<i32>>) =
        clauses.iter().cloned().partition(|c| justified(shape, givens, c));
    check(&clauses, &proof).unwrap_or_else(|e| panic!("{}: {e}", drat.display()));
    (base, claim, proof)
}

/// The grid a blocking clause blocks: every cell's value, from its negated literals.
fn blocked(n: usize, clause: &[i32]) -> Vec<usize> {
    let mut grid = vec![0; n * n];
    for &l in clause {
        assert!(l < 0, "a blocking clause is negative");
        let k = l.unsigned_abs() as usize - 1;
        assert_eq!(grid[k / n], 0, "two values for one cell");
        grid[k / n] = k % n + 1;
    }
    grid
}

/// The proof with its lemmas gone (deletions and the empty clause kept) must be rejected.
fn assert_corruptions_rejected(clauses: &[Vec<i32>], proof: &str) {
    let gutted: String =
        proof.lines().filter(|l| l.starts_with('d') || l.trim() == "0").map(|l| format!("{l}\n")).collect();
    assert!(check(clauses, &gutted).is_err(), "a proof without its lemmas was accepted");
}

#[test]
fn unique_proofs_block_the_solution_and_check() {
    let dir = TempDir::new().unwrap();
    let shape = Shape::classic(9);
    for (k, puzzle) in data_lines("top95.txt").iter().step_by(24).enumerate() {
        let drat = dir.path().join(format!("p{k}.drat"));
        let r = run(
            &["solve", "--unique", "--amo", "pairwise", "--format", "json", "--proof", drat.to_str().unwrap()],
            puzzle,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let record = &json_lines(&r.stdout)[0];
        assert_eq!(record["status"], "unique");
        assert_eq!(record["proof"], drat.to_str().unwrap());
        let solution = read_solution_line(record["solution"].as_str().unwrap(), None);
        let givens = read_symbols(puzzle);
        assert_solves(&shape, &givens, &solution, puzzle);
        let (base, claim, proof) = read_proof(&shape, &givens, &drat);
        // The one clause beyond the rules blocks the solution printed.
        assert_eq!(claim.len(), 1, "{puzzle}");
        assert_eq!(blocked(9, &claim[0]), solution, "{puzzle}");
        // The solution satisfies every other clause: the base is the puzzle's.
        for c in &base {
            assert!(c.iter().any(|&l| (l > 0)
                == (solution[(l.unsigned_abs() as usize - 1) / 9] == (l.unsigned_abs() as usize - 1) % 9 + 1)));
        }
        assert_corruptions_rejected(&[base.clone(), claim].concat(), &proof);
        // Without the blocking clause the formula has a model: the same proof must fail.
        assert!(check(&base, &proof).is_err(), "{puzzle}: a proof of a satisfiable formula was accepted");
    }
}

#[test]
fn unsolvable_proofs_need_no_claim_clause() {
    let dir = TempDir::new().unwrap();
    // A clash; and from tdoku's counted puzzles one with no solution that
    // propagation does not see (the solver has to search).
    let cases = [
        "11.......................................................................................",
        "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.",
    ];
    let shape = Shape::classic(9);
    for (k, puzzle) in cases.iter().enumerate() {
        let puzzle = &puzzle[..81];
        let r = run(
            &["solve", "--amo", "pairwise", "--format", "json", "--proof-dir", dir.path().to_str().unwrap()],
            puzzle,
        );
        assert_eq!(r.code, 1, "{}", r.stderr);
        let record = &json_lines(&r.stdout)[0];
        assert_eq!(record["status"], "unsolvable");
        let drat = dir.path().join("puzzle-0001.drat");
        assert_eq!(record["proof"], drat.to_str().unwrap(), "{k}");
        let givens = read_symbols(puzzle);
        let (base, claim, proof) = read_proof(&shape, &givens, &drat);
        assert!(claim.is_empty(), "{claim:?}");
        if k == 1 {
            assert!(Brute::new(shape.clone()).candidates(&givens).1 == 0);
            assert_corruptions_rejected(&base, &proof);
        }
    }
}

#[test]
fn count_proofs_block_every_solution() {
    let dir = TempDir::new().unwrap();
    let shape = Shape::boxes(6, 2, 3);
    let brute = Brute::new(shape.clone());
    let puzzles = [
        "1.....2..3.....4....5.6...........1.",
        "......3..1.....5.2..4....6..........",
        "1.2.3.4.5.6..........................",
    ];
    for puzzle in &puzzles[..2] {
        let path = dir.path().to_str().unwrap();
        let r = run(&["count", "--box", "2x3", "--amo", "pairwise", "--format", "json", "--proof-dir", path], puzzle);
        let record = &json_lines(&r.stdout)[0];
        let count = record["count"].as_u64().unwrap();
        let givens = read_symbols(puzzle);
        let (_, want) = brute.candidates(&givens);
        assert_eq!(count, want, "{puzzle}");
        let (_, claim, _) = read_proof(&shape, &givens, &dir.path().join("puzzle-0001.drat"));
        // One blocking clause per solution, each a different solution.
        assert_eq!(claim.len() as u64, count);
        let grids: HashSet<Vec<usize>> = claim.iter().map(|c| blocked(6, c)).collect();
        assert_eq!(grids.len() as u64, count);
        for grid in &grids {
            assert_solves(&shape, &givens, grid, puzzle);
        }
    }
    // A capped count claims nothing exact: no proof.
    let r = run(
        &["count", "--box", "2x3", "--max", "2", "--format", "json", "--proof-dir", dir.path().to_str().unwrap()],
        puzzles[2],
    );
    assert!(json_lines(&r.stdout)[0].get("proof").is_none(), "{}", r.stdout);
}

#[test]
fn analyze_proofs_rule_out_exactly_the_missing_candidates() {
    let dir = TempDir::new().unwrap();
    let shape = Shape::classic(9);
    let serg = data_lines("serg-40.txt");
    for puzzle in serg.iter().step_by(13) {
        let drat = dir.path().join("a.drat");
        let r = run(&["analyze", "--amo", "pairwise", "--format", "json", "--proof", drat.to_str().unwrap()], puzzle);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let record = &json_lines(&r.stdout)[0];
        let candidates: Vec<String> =
            record["candidates"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
        let givens = read_symbols(puzzle);
        let (_, claim, _) = read_proof(&shape, &givens, &drat);
        assert_eq!(claim.len(), 1);
        // The claim clause: every candidate missing from the record, and nothing else.
        let mut missing: Vec<i32> = Vec::new();
        for (cell, cands) in candidates.iter().enumerate() {
            for v in 1..=9 {
                if !cands.contains(char::from_digit(v as u32, 10).unwrap()) {
                    missing.push(var(9, cell, v));
                }
            }
        }
        let mut got = claim[0].clone();
        got.sort_unstable();
        assert_eq!(got, missing, "{puzzle}");
    }
}

/// A listing run to its end claims there is no other solution: with
/// `--proof` its last record names the proof, whose claim blocks exactly
/// the solutions listed. A listing cut short by `--max` claims nothing.
#[test]
fn a_whole_listing_proves_there_is_no_other_solution() {
    let dir = TempDir::new().unwrap();
    let shape = Shape::classic(4);
    let puzzle = "1..........2....";
    let drat = dir.path().join("all.drat");
    let r =
        run(&["solve", "--all", "--amo", "pairwise", "--format", "json", "--proof", drat.to_str().unwrap()], puzzle);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let records = json_lines(&r.stdout);
    let givens = read_symbols(puzzle);
    let mut listed: Vec<Vec<usize>> = records
        .iter()
        .map(|record| read_solution_line(record["solution"].as_str().unwrap(), None))
        .inspect(|solution| assert_solves(&shape, &givens, solution, puzzle))
        .collect();
    assert_eq!(listed.len(), Brute::new(shape.clone()).count_up_to(&givens, usize::MAX), "{puzzle}");
    let (last, rest) = records.split_last().unwrap();
    assert_eq!(last["proof"], drat.to_str().unwrap());
    assert!(rest.iter().all(|record| record.get("proof").is_none()));
    let (_, claim, _) = read_proof(&shape, &givens, &drat);
    let mut blocked: Vec<Vec<usize>> = claim.iter().map(|clause| blocked(4, clause)).collect();
    listed.sort();
    blocked.sort();
    assert_eq!(blocked, listed);

    let capped = dir.path().join("capped.drat");
    let r = run(&["solve", "--all", "--max", "5", "--format", "json", "--proof", capped.to_str().unwrap()], puzzle);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json_lines(&r.stdout).len(), 5);
    assert!(!capped.exists(), "a listing cut short claims nothing");
}

/// `analyze --propagate` claims what propagation alone shows, and proves it
/// as `analyze` does: the candidates it ruled out (all but the solution's
/// where it solves the puzzle), or that there is no solution.
#[test]
fn propagation_proves_what_it_claims() {
    let dir = TempDir::new().unwrap();
    let shape = Shape::classic(9);
    let top95 = data_lines("top95.txt");
    let clash = format!("55{}", ".".repeat(79));
    for level in ["singles", "subsets", "probe"] {
        for puzzle in [&top95[0], &top95[40], &clash] {
            let drat = dir.path().join(format!("{level}.drat"));
            let args = ["analyze", "--propagate", level, "--amo", "pairwise", "--format", "json", "--proof"];
            let r = run(&[&args[..], &[drat.to_str().unwrap()]].concat(), puzzle);
            let record = &json_lines(&r.stdout)[0];
            assert_eq!(record["proof"], drat.to_str().unwrap(), "{level} {puzzle}: {}", r.stdout);
            let givens = read_symbols(puzzle);
            let (_, claim, _) = read_proof(&shape, &givens, &drat);
            if record["status"] == "unsolvable" {
                assert_eq!(r.code, 1);
                assert!(claim.is_empty(), "{level} {puzzle}");
                continue;
            }
            assert_eq!(r.code, 0, "{}", r.stderr);
            let candidates: Vec<&str> =
                record["candidates"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
            let mut missing: Vec<i32> = Vec::new();
            for (cell, cands) in candidates.iter().enumerate() {
                for v in 1..=9 {
                    if !cands.contains(char::from_digit(v as u32, 10).unwrap()) {
                        missing.push(var(9, cell, v));
                    }
                }
            }
            assert_eq!(claim.len(), 1, "{level} {puzzle}");
            let mut got = claim[0].clone();
            got.sort_unstable();
            assert_eq!(got, missing, "{level} {puzzle}");
        }
    }
}

#[test]
fn proof_file_takes_one_puzzle() {
    let dir = TempDir::new().unwrap();
    let drat = dir.path().join("one.drat");
    let two = "11..............\n22..............\n";
    let r = run(&["solve", "--format", "json", "--proof", drat.to_str().unwrap()], two);
    let records = json_lines(&r.stdout);
    assert_eq!(records[0]["status"], "unsolvable");
    assert_eq!(records[1]["status"], "error");
    assert!(records[1]["error"].as_str().unwrap().contains("--proof-dir"), "{}", r.stdout);
    assert_eq!(r.code, 2);
    // The CNF would overwrite its proof.
    let r = run(&["solve", "--proof", dir.path().join("x.cnf").to_str().unwrap()], "11..............\n");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("extension .cnf"), "{}", r.stderr);
}

/// A program named `cadical` in `dir` (so satdoku asks it for a proof) that
/// runs `body` with the arguments satdoku gave, then keeps a copy of the CNF
/// and the proof (its last two arguments) in `dir`.
fn wrapper(dir: &TempDir, body: &str) -> String {
    let path = dir.path().join("cadical");
    let keep = dir.path().display();
    let script = format!(
        "#!/bin/sh\nfor a; do cnf=$proof; proof=$a; done\n{body}\ncode=$?\ncp \"$cnf\" {keep}/kept-$$.cnf\ncp \"$proof\" {keep}/kept-$$.drat 2>/dev/null\nexit $code\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// CaDiCaL is given a proof path, and its "unsatisfiable" stands on the
/// proof. A command that names `{proof}` itself gets no `--no-binary`:
/// CaDiCaL then writes binary DRAT, which is read as such (it had been
/// refused as "not UTF-8 text", an `error` for each unsolvable puzzle).
#[test]
fn cadical_proofs_of_unsolvable_puzzles_are_checked() {
    if !available("cadical") {
        return;
    }
    for binary in [false, true] {
        let dir = TempDir::new().unwrap();
        let solver = wrapper(&dir, "cadical -q \"$@\"");
        let command = if binary { format!("{solver} {{cnf}} {{proof}}") } else { solver };
        let puzzles = data_lines("dimacs/unsolvable-9.txt");
        let r = run(&["solve", "--solver", &command, "--encoding", "full", "--format", "json"], &puzzles.join("\n"));
        assert_eq!(r.code, 1, "{command}: {}", r.stderr);
        assert!(json_lines(&r.stdout).iter().all(|rec| rec["status"] == "unsolvable"), "{}", r.stdout);
        // The proofs cadical wrote (binary decoded here) pass the tests' checker too.
        let mut checked = 0;
        for entry in std::fs::read_dir(dir.path()).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "drat") {
                let clauses = read_cnf(&std::fs::read_to_string(path.with_extension("cnf")).unwrap());
                let proof = std::fs::read(&path).unwrap();
                assert_eq!(proof.first() == Some(&b'a'), binary, "{}", path.display());
                let text = if binary { binary_to_text(&proof) } else { String::from_utf8(proof).unwrap() };
                check(&clauses, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                checked += 1;
            }
        }
        assert_eq!(checked, puzzles.len());
    }
}

/// A binary DRAT proof as text: `a` or `d`, then each literal l as the
/// number 2|l| + (l < 0) in 7-bit groups, low first, then a 0.
fn binary_to_text(proof: &[u8]) -> String {
    let mut text = String::new();
    let mut bytes = proof.iter();
    while let Some(&kind) = bytes.next() {
        text += if kind == b'd' { "d " } else { "" };
        loop {
            let (mut number, mut shift) = (0u64, 0);
            loop {
                let byte = *bytes.next().expect("a whole clause");
                number |= u64::from(byte & 0x7f) << shift;
                shift += 7;
                if byte & 0x80 == 0 {
                    break;
                }
            }
            if number == 0 {
                text += "0\n";
                break;
            }
            let sign = if number & 1 == 1 { "-" } else { "" };
            text += &format!("{sign}{} ", number >> 1);
        }
    }
    text
}

#[test]
fn a_solver_whose_proof_fails_gets_no_unsolvable() {
    let dir = TempDir::new().unwrap();
    // Claims unsatisfiable for everything, with a proof of nothing, in
    // text or in binary (`a`, then the 0 that ends the empty clause).
    let text = wrapper(&dir, "echo 0 > \"$proof\"; echo s UNSATISFIABLE; exit 20");
    let binary = dir.path().join("binary-liar");
    std::fs::copy(&text, &binary).unwrap();
    let script = std::fs::read_to_string(&binary).unwrap().replace("echo 0 >", "printf 'a\\000' >");
    std::fs::write(&binary, script).unwrap();
    let hard = &data_lines("top95.txt")[0];
    let unsolvable = &data_lines("dimacs/unsolvable-9.txt")[0];
    let liars = [text, format!("{} {{cnf}} {{proof}}", binary.display())];
    for (liar, puzzle) in liars.iter().flat_map(|liar| [(liar, hard), (liar, unsolvable)]) {
        let r = run(&["solve", "--solver", liar, "--encoding", "full", "--format", "json"], puzzle);
        assert_eq!(r.code, 2, "{}", r.stdout);
        let record = &json_lines(&r.stdout)[0];
        assert_eq!(record["status"], "error");
        assert!(record["error"].as_str().unwrap().contains("its DRAT proof is rejected"), "{record}");
    }
}

/// An output file that is an input file is refused before anything is
/// written: `--proof` naming the puzzle file, or its CNF (`FILE.cnf`)
/// naming it, and `dimacs --out` naming it; the file on stdin, and the
/// files of `--grid` and `--regions`, too. The input is left whole.
#[test]
fn outputs_never_overwrite_an_input_file() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = "11..............\n";
    let grid = std::fs::read_to_string(crate::util::checker::repo_path("encodings/classic-4.toml")).unwrap();
    let map = "1122\n1122\n3344\n3344\n";
    // The file written, what it holds, whether it is stdin, the arguments.
    for (name, text, stdin, args) in [
        ("p.txt", puzzle, false, vec!["solve", "--proof", "{dir}/p.txt", "{dir}/p.txt"]),
        ("p.cnf", puzzle, false, vec!["solve", "--proof", "{dir}/p.drat", "{dir}/p.cnf"]),
        ("q.txt", puzzle, false, vec!["count", "--proof", "{dir}/./q.txt", "{dir}/q.txt"]),
        ("p.txt", puzzle, false, vec!["dimacs", "{dir}/p.txt", "--out", "{dir}/../{base}/p.txt"]),
        ("p.txt", puzzle, true, vec!["solve", "--unique", "--proof", "{dir}/p.txt"]),
        ("p.txt", puzzle, true, vec!["dimacs", "-", "--out", "{dir}/p.txt"]),
        ("g.toml", &grid, false, vec!["solve", "--grid", "{dir}/g.toml", "--proof", "{dir}/g.toml"]),
        ("m.txt", map, false, vec!["analyze", "--regions", "{dir}/m.txt", "--proof", "{dir}/m.txt"]),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let base = dir.path().file_name().unwrap().to_str().unwrap();
        let args: Vec<String> =
            args.iter().map(|a| a.replace("{dir}", dir.path().to_str().unwrap()).replace("{base}", base)).collect();
        // The file itself on stdin (`< p.txt`), not a pipe of its text.
        let out = with_stdin(&args, if stdin { path.as_path() } else { Path::new("/dev/null") });
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("which writing it would destroy"), "{args:?}: {stderr}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{args:?}");
    }
    // Not files: writing /dev/null destroys nothing, though stdin reads it
    // too (and `--fpuzzles` reads no stdin at all).
    let fpuzzles = dir.path().join("f.json");
    std::fs::write(&fpuzzles, r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#)
        .unwrap();
    for args in [
        vec!["dimacs", "--out", "/dev/null", "-"],
        vec!["dimacs", "--fpuzzles", fpuzzles.to_str().unwrap(), "--out", "/dev/null"],
    ] {
        let out = with_stdin(&args, Path::new("/dev/null"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("would destroy"), "{args:?}: {stderr}");
    }
}

/// Run `satdoku` with the file at `stdin` as its standard input, as a shell's
/// `< file` gives it (the `run` helpers pipe text instead).
fn with_stdin(args: &[impl AsRef<std::ffi::OsStr>], stdin: &Path) -> std::process::Output {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("satdoku"))
        .args(args)
        .stdin(std::fs::File::open(stdin).unwrap())
        .output()
        .unwrap()
}

/// `--timeout` bounds every step of a proof, not only varisat's search:
/// the blank 5x5 Latin square has 161,280 solutions, and a count's proof
/// spent a minute comparing each with all before it (a quadratic check for
/// twice the same grid) before the deadline reached the solver. The run is
/// killed past 30 s, which it took twice over before; it must end on its own
/// with the record that says why there is no proof.
#[test]
fn a_count_proof_stops_at_its_timeout() {
    let dir = TempDir::new().unwrap();
    let drat = dir.path().join("l5.drat");
    let args = ["count", "--latin", "--timeout", "3", "--format", "json", "--proof", drat.to_str().unwrap()];
    let out = crate::util::satdoku()
        .args(args)
        .write_stdin(".........................\n")
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "killed, or ended otherwise: {stderr}");
    let record = &json_lines(&out.stdout)[0];
    assert_eq!(record["status"], "error", "{record}");
    assert_eq!(record["error"], "no proof within --timeout", "{record}");
    assert!(!drat.exists() && !drat.with_extension("cnf").exists());
}

/// `--max-literals` bounds the whole CNF of a proof, the claim's blocking
/// clauses too (a count's proof wrote 33,002 literals under a limit of
/// 30,000). The size is read from the CNF written without a limit; at that
/// many literals it is written again, one fewer gets an error record and
/// no files.
#[test]
fn a_count_proof_counts_its_blocking_clauses_against_max_literals() {
    let dir = TempDir::new().unwrap();
    let puzzle = &data_lines("serg-40.txt")[1];
    let drat = dir.path().join("p.drat");
    let cnf = dir.path().join("p.cnf");
    let count = |limit: Option<usize>| {
        let limit = limit.map(|n| n.to_string());
        let mut args = vec!["count", "--format", "json", "--proof", drat.to_str().unwrap()];
        if let Some(limit) = &limit {
            args.extend(["--max-literals", limit]);
        }
        run(&args, puzzle)
    };
    let r = count(None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let solutions = json_lines(&r.stdout)[0]["count"].as_u64().unwrap() as usize;
    let clauses = read_cnf(&std::fs::read_to_string(&cnf).unwrap());
    let literals: usize = clauses.iter().map(Vec::len).sum();
    // The claim's clauses, a literal per cell each, are a good part of it.
    assert!(solutions > 1 && literals - 81 * solutions > 0, "{solutions} solutions, {literals} literals");
    std::fs::remove_file(&cnf).unwrap();
    std::fs::remove_file(&drat).unwrap();
    let r = count(Some(literals));
    assert_eq!(json_lines(&r.stdout)[0]["proof"], drat.to_str().unwrap(), "{}", r.stdout);
    assert_eq!(read_cnf(&std::fs::read_to_string(&cnf).unwrap()), clauses);
    std::fs::remove_file(&cnf).unwrap();
    std::fs::remove_file(&drat).unwrap();
    let r = count(Some(literals - 1));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let record = &json_lines(&r.stdout)[0];
    assert_eq!(record["status"], "error", "{record}");
    let error = record["error"].as_str().unwrap();
    assert!(error.starts_with("no proof: too large") && error.contains("--max-literals"), "{error}");
    assert!(!drat.exists() && !cnf.exists());
}

/// A proof that cannot be made (here past `--max-literals`) makes the record
/// an error, and the answer it proves stays in it: JSON kept it, but the
/// line and grid formats printed the error in its place, so `solve --all`
/// lost its last solution and `count` its count. They print the answer on
/// stdout, the error goes to stderr, and the exit code is 2.
#[test]
fn a_proof_that_cannot_be_made_keeps_the_answer_in_every_format() {
    let dir = TempDir::new().unwrap();
    let drat = dir.path().join("p.drat");
    let puzzle = "1234....2143....";
    let givens = read_symbols(puzzle);
    let brute = Brute::new(Shape::classic(4));
    let expected = brute.solutions(&givens, 100).unwrap();
    assert!(expected.len() > 1, "test bug: the puzzle should have several solutions");
    let failing = |command: &str, format: &str| {
        let args = [command, "--proof", drat.to_str().unwrap(), "--max-literals", "1", "--format", format];
        let mut args = args.to_vec();
        if command == "solve" {
            args.push("--all");
        }
        let r = run(&args, &format!("{puzzle}\n"));
        assert_eq!(r.code, 2, "{command} {format}: {}", r.stderr);
        assert!(r.stderr.contains("no proof: too large"), "{command} {format}: {}", r.stderr);
        assert!(!r.stdout.contains("no proof"), "{command} {format}: the error took the answer's place: {}", r.stdout);
        r.stdout
    };
    let listed: HashSet<Vec<usize>> =
        failing("solve", "line").lines().filter(|l| !l.starts_with('#')).map(|l| read_solution_line(l, None)).collect();
    for solution in &listed {
        assert_solves(&Shape::classic(4), &givens, solution, "solve --all");
    }
    assert_eq!(listed, expected);
    let grids = failing("solve", "grid");
    assert!(grids.contains(&format!("solution {}", expected.len())), "{grids}");
    assert_eq!(failing("count", "line").trim(), expected.len().to_string());
    let counted = failing("count", "grid");
    assert!(counted.trim().ends_with(&format!(": {}", expected.len())), "{counted}");
    assert!(!drat.exists());
}
