//! `--max-literals` is checked against the formula a command really builds,
//! before it builds it, and `--timeout` is a timeout in every phase: what
//! the t59a tester found (4 GB and more past a limit of 1000 literals, "too
//! large" for a timeout, a count lost with its proof). Each test failed
//! before its fix.

use serde_json::Value as Json;

use crate::util::checker::{assert_solves, data_path, read_solution_line, Shape};
use crate::util::{json_run, run};

/// The first puzzle of the 17-clue set: propagation solves it, so its own
/// reduced CNF has no variable at all.
fn seventeen() -> String {
    let text = std::fs::read_to_string(data_path("17-clue-500.txt")).unwrap();
    text.lines().find(|l| !l.starts_with('#')).unwrap().to_string()
}

/// A blank n×n grid, rows of zeros.
fn blank(n: usize) -> String {
    vec!["0"; n * n].chunks(n).map(|row| row.join(" ") + "\n").collect()
}

fn error_of(record: &Json) -> &str {
    record["error"].as_str().unwrap_or_else(|| panic!("no error: {record}"))
}

/// `minimize` and `analyze --redundant` checked the limit on the puzzle's
/// reduced CNF (empty where propagation solves it), then built the blank
/// grid's whole formula to remove givens: past 4 GB on a 225×225 with
/// `--max-literals 1000`. That formula is what is checked now, first.
#[test]
fn removing_givens_checks_the_whole_grids_formula() {
    let puzzle = seventeen();
    for args in [&["minimize"][..], &["analyze", "--redundant"]] {
        let args = [args, &["--max-literals", "5000", "--format", "json"]].concat();
        let recs = json_run(&args, &puzzle, 2, 1);
        assert_eq!(recs[0]["status"], "error", "{args:?}: {}", recs[0]);
        let error = error_of(&recs[0]);
        assert!(error.starts_with("too large: removing givens takes the whole grid's CNF"), "{args:?}: {error}");
        assert!(error.contains("26244 literals") && error.contains("(--max-literals)"), "{args:?}: {error}");
    }
    // What needs no formula still answers under the same limit.
    let recs = json_run(&["analyze", "--max-literals", "5000", "--format", "json"], &puzzle, 0, 1);
    assert_eq!(recs[0]["status"], "unique", "{}", recs[0]);
}

/// `generate` had no `--max-literals`: its uniqueness checker (the blank
/// grid's whole formula) took past 4 GB at 256×256. It has the limit now,
/// and full grids, which need no checker, are made under any limit.
#[test]
fn generate_checks_its_formula_against_max_literals() {
    let recs = json_run(&["generate", "--seed", "1", "--max-literals", "5000", "--format", "json"], "", 2, 1);
    assert_eq!(recs[0]["status"], "error", "{}", recs[0]);
    let error = error_of(&recs[0]);
    assert!(error.starts_with("too large: ") && error.contains("(--max-literals)"), "{error}");
    let args = ["generate", "--solved", "--seed", "1", "--max-literals", "5000", "--format", "json"];
    let recs = json_run(&args, "", 0, 1);
    let grid = read_solution_line(recs[0]["solution"].as_str().unwrap(), None);
    assert_solves(&Shape::classic(9), &grid, &grid, "a full grid under a tight limit");
}

/// With the limit raised, `generate --size 625 --timeout 1` sized (and
/// before that, gave varisat) the 625×625's formula with no look at the
/// clock: past 4 GB, and no record, at 11 s. Sizing and building now stop
/// at the deadline, with the timeout's record.
#[test]
fn generate_honours_the_timeout_while_it_prepares() {
    let args = ["generate", "--size", "625", "--seed", "1", "--timeout", "0.2", "--max-literals", "1000000000000"];
    let recs = json_run(&[&args[..], &["--format", "json"]].concat(), "", 2, 1);
    assert_eq!(recs[0]["status"], "error", "{}", recs[0]);
    assert_eq!(error_of(&recs[0]), "no puzzle within 0.2 s (--timeout)");
}

/// A timeout that cut preparation short left more candidates than it
/// would have, and the size check then blamed the size: "too large ...
/// raise --max-literals" for a blank 100×100 that is counted in 0.06 s
/// without the timeout. It is a timeout (or, on a fast machine, the answer).
#[test]
fn a_short_timeout_is_a_timeout_not_a_size() {
    let grid = blank(100);
    for args in [&["count", "--max", "1"][..], &["solve", "--unique"]] {
        let args = [args, &["--timeout", "0.001", "--max-literals", "1000000", "--format", "json"]].concat();
        let r = run(&args, &grid);
        let rec: Json = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
        match rec["status"].as_str().unwrap() {
            "error" => {
                assert_eq!(r.code, 2);
                assert!(error_of(&rec).starts_with("no answer within 0.001 s (--timeout)"), "{args:?}: {rec}");
            }
            status => assert_eq!(status, "multiple", "{args:?}: {rec}"),
        }
    }
}

/// `count --proof-dir` held every solution before it checked the limit
/// (3.4 GB for a blank 6×6's 28 million), then dropped the count it had
/// made from the record. It stops keeping them once their blocking clauses
/// alone are past the limit, and the record keeps the count.
#[test]
fn a_count_too_large_to_prove_keeps_its_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("proofs");
    let args = ["count", "--max-literals", "1000", "--proof-dir", out.to_str().unwrap(), "--format", "json"];
    let recs = json_run(&args, "................\n", 2, 1);
    assert_eq!(recs[0]["status"], "error", "{}", recs[0]);
    assert_eq!(recs[0]["count"], 288, "{}", recs[0]);
    let error = error_of(&recs[0]);
    assert!(error.starts_with("no proof: too large: ") && error.contains("(--max-literals)"), "{error}");
    assert!(!out.join("puzzle-0001.drat").exists());
}

/// A count made in 0.3 s whose proof the timeout stopped was an error
/// record without its count: `{"status":"error","error":"no proof within
/// --timeout"}`. The count stays.
#[test]
fn a_count_whose_proof_times_out_keeps_its_count() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("lt.drat");
    let args = ["count", "--latin", "--timeout", "1", "--proof", proof.to_str().unwrap(), "--format", "json"];
    let grid = ".".repeat(25) + "\n";
    let r = run(&args, &grid);
    let rec: Json = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    match rec["status"].as_str().unwrap() {
        "error" if rec["error"] == "no proof within --timeout" => assert_eq!(rec["count"], 161280, "{rec}"),
        // Counting itself out of time (a slow machine): its own record, with what it counted.
        "error" => assert!(error_of(&rec).starts_with("no answer within 1 s (--timeout)"), "{rec}"),
        _ => panic!("a proof of 161,280 solutions is not made in a second: {rec}"),
    }
}

/// `analyze --timeout 2` on a blank 256×256 answered after 13 s: each
/// model's 255 renamings (65,536 cells each) were ticked off, and the
/// candidates looked at, with no look at the clock; a blank 1024×1024
/// printed nothing in 100 s. It is a timeout now.
#[test]
fn analyze_stops_at_the_timeout_on_a_blank_grid() {
    let recs = json_run(&["analyze", "--timeout", "0.3", "--format", "json"], &blank(256), 2, 1);
    assert_eq!(recs[0]["status"], "error", "{}", recs[0]);
    assert_eq!(error_of(&recs[0]), "no answer within 0.3 s (--timeout)");
}
