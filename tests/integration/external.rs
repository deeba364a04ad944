//! Real SAT solvers on satdoku's CNF: dimacs → minisat / cadical / picosat → decode, and `solve --solver`.
//!
//! The solvers are installed by .ci/run. Without one, a test prints a note and
//! passes, except under CI=true, where a missing solver is a failure.

use std::path::Path;
use std::process::Command;

use crate::util::checker::{self, Shape};
use crate::util::grids::{case, check, data, puzzles};
use crate::util::{available, json_lines, satdoku};

const SOLVERS: [&str; 3] = ["minisat", "cadical", "picosat"];

/// Run `solver` on `cnf` as its users would, leaving its answer in `model`.
fn run_solver(solver: &str, cnf: &Path, model: &Path) {
    let status = match solver {
        "minisat" => Command::new("minisat").arg("-verb=0").arg(cnf).arg(model).output().unwrap().status,
        _ => {
            let out = Command::new(solver).arg(cnf).output().unwrap();
            std::fs::write(model, &out.stdout).unwrap();
            out.status
        }
    };
    assert!(matches!(status.code(), Some(10 | 20)), "{solver} on {}: {status}", cnf.display());
}

/// dimacs → each solver → decode, for every puzzle of a case, under two encodings.
fn round_trip(name: &str) {
    let case = case(name);
    let units = (case.shape)();
    let givens = puzzles(case.file);
    for solver in SOLVERS.into_iter().filter(|s| available(s)) {
        for encoding in ["full", "reduced"] {
            let dir = tempfile::tempdir().unwrap();
            satdoku()
                .arg("dimacs")
                .arg(data(case.file))
                .args(case.args)
                .args(["--encoding", encoding, "--out-dir"])
                .arg(dir.path())
                .assert()
                .success();
            for (i, givens) in givens.iter().enumerate() {
                let cnf = dir.path().join(format!("puzzle-{:04}.cnf", i + 1));
                let model = dir.path().join(format!("model-{}", i + 1));
                run_solver(solver, &cnf, &model);
                let out = satdoku()
                    .arg("decode")
                    .arg("--cnf")
                    .arg(&cnf)
                    .arg(&model)
                    .args(["--format", "json"])
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "{name} {solver} {encoding} {i}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let record = &json_lines(&out.stdout)[0];
                assert_eq!(record["status"], "solved");
                let solution = record["solution"].as_str().unwrap();
                check(givens, solution, &units).unwrap_or_else(|e| panic!("{name} {solver} {encoding}: {e}"));
            }
        }
    }
}

macro_rules! round_trips {
    ($($name:ident),*) => {$(
        #[test]
        fn $name() {
            round_trip(stringify!($name));
        }
    )*};
}

round_trips!(classic_4, classic_6, classic_9, classic_16, latin_5, jigsaw_9, x_9, hyper_9);

#[test]
fn unsolvable_puzzles_come_back_unsat_and_unsolvable() {
    let count = puzzles("unsolvable-9.txt").len();
    for solver in SOLVERS.into_iter().filter(|s| available(s)) {
        let dir = tempfile::tempdir().unwrap();
        satdoku().arg("dimacs").arg(data("unsolvable-9.txt")).arg("--out-dir").arg(dir.path()).assert().success();
        for i in 1..=count {
            let cnf = dir.path().join(format!("puzzle-{i:04}.cnf"));
            let model = dir.path().join("model");
            run_solver(solver, &cnf, &model);
            let text = std::fs::read_to_string(&model).unwrap();
            assert!(text.contains("UNSAT"), "{solver}: {text}");
            let out =
                satdoku().arg("decode").arg("--cnf").arg(&cnf).arg(&model).args(["--format", "json"]).output().unwrap();
            assert_eq!(out.status.code(), Some(1), "{solver}");
            assert_eq!(json_lines(&out.stdout)[0]["status"], "unsolvable");
        }
    }
}

/// `solve --solver CMD` on a case's file: every record solved and checked.
fn solve_with(command: &str, name: &str, extra: &[&str]) {
    let case = case(name);
    let units = (case.shape)();
    let givens = puzzles(case.file);
    let out = satdoku()
        .arg("solve")
        .arg(data(case.file))
        .args(case.args)
        .args(["--solver", command, "--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stderr));
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), givens.len());
    for (record, givens) in records.iter().zip(&givens) {
        assert_eq!(record["status"], "solved", "{command}: {record}");
        check(givens, record["solution"].as_str().unwrap(), &units).unwrap_or_else(|e| panic!("{command}: {e}"));
    }
}

#[test]
fn solve_with_each_external_solver() {
    for solver in SOLVERS.into_iter().filter(|s| available(s)) {
        solve_with(solver, "classic_9", &[]);
        solve_with(solver, "jigsaw_9", &["--encoding", "full"]);
    }
    if available("minisat") {
        // MiniSat's result file named explicitly rather than found by name.
        solve_with("minisat -verb=0 {cnf} {result}", "x_9", &["--timeout", "60"]);
    }
    if available("cadical") {
        solve_with("cadical -q", "hyper_9", &["--encoding", "reduced", "--amo", "product"]);
    }
}

/// `--jobs 2` answers a few slow puzzles side by side (a batch of fewer
/// than 64 was one chunk, one puzzle after another on one thread): each
/// call of the solver waits, up to 5 s, to see another one running.
#[test]
fn jobs_answer_a_few_slow_puzzles_side_by_side() {
    if !available("cadical") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let marks = dir.path().join("marks");
    std::fs::create_dir(&marks).unwrap();
    let solver = dir.path().join("slow-solver");
    let script = format!(
        r#"#!/bin/sh
touch "{marks}/running.$$"
i=0
while [ $i -lt 50 ]; do
    if [ "$(ls "{marks}" | grep -c '^running\.')" -gt 1 ]; then touch "{marks}/overlap"; break; fi
    sleep 0.1; i=$((i+1))
done
rm -f "{marks}/running.$$"
for cnf; do :; done
exec cadical -q "$cnf"
"#,
        marks = marks.display()
    );
    std::fs::write(&solver, script).unwrap();
    std::fs::set_permissions(&solver, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let puzzles = checker::data_lines("17-clue-500.txt")[..4].join("\n") + "\n";
    let out = satdoku()
        .args(["solve", "--jobs", "2", "--encoding", "full", "--format", "json", "--solver"])
        .arg(&solver)
        .write_stdin(puzzles.clone())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), 4);
    for (record, givens) in records.iter().zip(puzzles.lines()) {
        let solution = record["solution"].as_str().unwrap_or_else(|| panic!("{record}"));
        check(givens, solution, &Shape::classic(9)).unwrap();
    }
    assert!(marks.join("overlap").exists(), "no two calls of the solver ran at once");
}

/// The pattern guess goes to external solvers too: Kwon & Jain's 49×49
/// table7-4 (every solver, with and without the guess) and rkkautsar-225-1,
/// which CaDiCaL answers only with it (README, "Pattern guess"). Every
/// answer is checked with the independent checker.
#[test]
fn external_solvers_get_the_pattern_guess() {
    let cases: [(&str, usize, &[&str]); 2] =
        [("kwon-jain-table7-4.txt", 49, &SOLVERS), ("rkkautsar-225-1.txt", 225, &["cadical"])];
    for (file, n, solvers) in cases {
        let path = checker::data_path(file);
        let givens = checker::read_numbers(&std::fs::read_to_string(&path).unwrap());
        for &solver in solvers.iter().filter(|s| available(s)) {
            for (extra, guessed) in [(None, true), (Some("--no-pattern-guess"), false)] {
                if n == 225 && !guessed {
                    continue; // no answer in 30 minutes
                }
                let mut cmd = satdoku();
                cmd.arg("solve").arg(&path).args(["--solver", solver, "--stats", "--format", "json"]).args(extra);
                let out = cmd.output().unwrap();
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success(), "{solver} {file} {extra:?}: {stderr}");
                let record = &json_lines(&out.stdout)[0];
                assert_eq!(record["status"], "solved", "{solver} {file}: {record}");
                let solution = checker::read_numbers(record["solution"].as_str().unwrap());
                checker::assert_solves(&Shape::classic(n), &givens, &solution, &format!("{solver} {file}"));
                assert_eq!(stderr.contains("pattern guess: solved"), guessed, "{solver} {file} {extra:?}: {stderr}");
            }
        }
    }
}

/// A refuted guess sends the puzzle on to its own CNF. `1......2.34.....`
/// (4×4) has one completion; under the reduced encoding its known cells show
/// row groups {1,4} {2,3}, which that completion lacks (src/reasoning/pattern/tests.rs
/// derives both by brute force).
#[test]
fn an_external_solver_refuting_the_guess_gets_the_puzzle_itself() {
    if !available("cadical") {
        return;
    }
    let givens = "1......2.34.....";
    let out = satdoku()
        .args(["solve", "--solver", "cadical", "--encoding", "reduced", "--stats", "--format", "json"])
        .write_stdin(format!("{givens}\n"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let record = &json_lines(&out.stdout)[0];
    assert_eq!(record["status"], "solved", "{record}");
    check(givens, record["solution"].as_str().unwrap(), &Shape::classic(4)).unwrap();
    assert!(stderr.contains("pattern guess: no solution of that shape"), "{stderr}");
    assert!(!stderr.contains("conflicts"), "varisat did not search: {stderr}");
}

#[test]
fn solve_with_an_external_solver_reports_unsolvable() {
    if !available("cadical") {
        return;
    }
    let out = satdoku()
        .arg("solve")
        .arg(data("unsolvable-9.txt"))
        .args(["--solver", "cadical", "--encoding", "full", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), puzzles("unsolvable-9.txt").len());
    assert!(records.iter().all(|r| r["status"] == "unsolvable"), "{records:?}");
}

/// Runs `solve --solver COMMAND` on puzzles that fail alike: each gets its
/// own error record and the batch goes on. Returns stderr. The full encoding
/// leaves every puzzle to the solver (propagation solves these alone).
fn failing_solver(command: &str, extra: &[&str]) -> String {
    let out = satdoku()
        .arg("solve")
        .arg(data("classic-9.txt"))
        .args(["--solver", command, "--format", "json", "--encoding", "full"])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{command}");
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), 3, "{command}: the batch must go on");
    for (i, record) in records.iter().enumerate() {
        assert_eq!(record["status"], "error", "{command}: {record}");
        assert_eq!(record["index"], i + 1);
    }
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A missing program is found before any puzzle is read: one message, exit 2, no records.
#[test]
fn a_missing_solver_is_one_error_before_any_puzzle() {
    let out = satdoku()
        .arg("solve")
        .arg(data("classic-9.txt"))
        .args(["--solver", "no-such-sat-solver --fast", "--format", "json", "--encoding", "full"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let expected = "satdoku: cannot run 'no-such-sat-solver': command not found (is it installed and on PATH?)\n";
    assert_eq!(stderr, expected);
}

#[test]
fn a_solver_past_its_timeout_is_stopped() {
    let stderr = failing_solver("sh -c 'sleep 30'", &["--timeout", "0.2"]);
    assert!(stderr.contains("gave no answer within 0.2 s and was stopped"), "{stderr}");
}

#[test]
fn a_crashing_solver_is_an_error() {
    let stderr = failing_solver("sh -c 'echo out of memory >&2; exit 3'", &[]);
    assert!(stderr.contains("exit code 3") && stderr.contains("out of memory"), "{stderr}");
    // The signal is named (it said only "killed by a signal").
    let stderr = failing_solver("sh -c 'kill -9 $$'", &[]);
    assert!(stderr.contains("killed by signal 9 (SIGKILL)"), "{stderr}");
    let stderr = failing_solver("sh -c 'kill -SEGV $$'", &[]);
    assert!(stderr.contains("killed by signal 11 (SIGSEGV)"), "{stderr}");
}

#[test]
fn unreadable_or_wrong_solver_output_is_an_error() {
    let stderr = failing_solver("sh -c 'echo hello; exit 10'", &[]);
    assert!(stderr.contains("unreadable answer from `sh`") && stderr.contains("'hello' is not a literal"), "{stderr}");
    // Exit code and output disagree.
    let stderr = failing_solver("sh -c 'echo s UNSATISFIABLE; exit 10'", &[]);
    assert!(stderr.contains("exited with 10 (satisfiable) but its output says unsatisfiable"), "{stderr}");
    // Every variable true: a model of the right size that breaks the clauses.
    let all_true = "sh -c 'echo s SATISFIABLE; echo v $(seq 1 729) 0; exit 10'";
    let stderr = failing_solver(all_true, &[]);
    assert!(stderr.contains("gave a wrong model") && stderr.contains("violates clause"), "{stderr}");
}
