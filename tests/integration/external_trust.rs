//! What satdoku believes from outside, and what it leaves behind: claims of
//! "unsatisfiable" from external solvers and from `decode`'s input are
//! confirmed by varisat; `decode`'s grid options are checked against the
//! CNF; a solver's whole process group is ended at `--timeout` and on a
//! signal, with satdoku's temporary files; a missing solver is found before
//! any puzzle is read; what a solver leaves to be read (its answer, its
//! proof) is read only as a regular file and only as far as an answer can
//! need. The solvers here are fake ones, `sh` scripts.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value as Json;

use crate::util::checker::{self, repo_path, Shape};
use crate::util::grids::{check, data, puzzles};
use crate::util::{json_lines, satdoku};

/// Says "unsatisfiable" to anything, the way a solver does (exit 20).
const LIAR: &str = "sh -c 'echo s UNSATISFIABLE; exit 20'";

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `solve --solver COMMAND --format json` on `file`; the full encoding takes
/// every puzzle to the solver (propagation would answer many alone).
fn solve_with(command: &str, file: &Path, extra: &[&str]) -> Output {
    satdoku()
        .arg("solve")
        .arg(file)
        .args(["--solver", command, "--format", "json", "--encoding", "full"])
        .args(extra)
        .output()
        .unwrap()
}

// --- "unsatisfiable" from an external solver -------------------------------

#[test]
fn a_lying_solver_is_refuted_on_satisfiable_puzzles() {
    let out = solve_with(LIAR, &checker::data_path("top95.txt"), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), 95);
    for (i, record) in records.iter().enumerate() {
        assert_eq!(record["index"], i + 1);
        assert_refuted(record, "`sh`", "`sh` is wrong");
    }
}

/// An error record saying that `claimant` claimed no solution, that varisat
/// found one, and `wrong`.
fn assert_refuted(record: &Json, claimant: &str, wrong: &str) {
    assert_eq!(record["status"], "error", "{record}");
    let error = record["error"].as_str().unwrap();
    assert!(error.contains(&format!("{claimant} says the puzzle has no solution")), "{error}");
    assert!(error.contains("varisat found one") && error.contains(wrong), "{error}");
}

#[test]
fn a_lying_solver_on_unsolvable_puzzles_is_confirmed() {
    let out = solve_with(LIAR, &data("unsolvable-9.txt"), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), puzzles("unsolvable-9.txt").len());
    assert!(records.iter().all(|r| r["status"] == "unsolvable"), "{records:?}");
}

/// The first puzzle of gecode-25x25-hard.txt: propagation leaves it to the
/// solver within milliseconds, and varisat needs many seconds for it.
fn hard_25() -> String {
    checker::data_lines("gecode-25x25-hard.txt").remove(0)
}

#[test]
fn a_claim_varisat_cannot_confirm_in_time_is_an_error() {
    let out = satdoku()
        .args(["solve", "--solver", LIAR, "--format", "json", "--timeout", "1"])
        .write_stdin(hard_25())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["status"], "error");
    let error = records[0]["error"].as_str().unwrap();
    assert!(error.contains("`sh` says the puzzle has no solution, which varisat could not confirm"), "{error}");
}

// --- "unsatisfiable" given to decode ---------------------------------------

/// The CNF of `givens` (`extra`: grid and encoding options), in `dir`.
fn cnf_of(dir: &Path, givens: &str, extra: &[&str]) -> PathBuf {
    let cnf = dir.join("puzzle.cnf");
    satdoku().arg("dimacs").args(extra).arg("--out").arg(&cnf).write_stdin(givens).assert().success();
    cnf
}

fn decode(cnf: &Path, answer: &str, extra: &[&str]) -> Output {
    satdoku().arg("decode").arg("--cnf").arg(cnf).args(extra).write_stdin(answer).output().unwrap()
}

#[test]
fn decode_confirms_an_unsatisfiable_answer() {
    let dir = tempfile::tempdir().unwrap();
    for givens in puzzles("unsolvable-9.txt") {
        let cnf = cnf_of(dir.path(), &givens, &[]);
        let out = decode(&cnf, "s UNSATISFIABLE\n", &["--format", "json"]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(json_lines(&out.stdout)[0]["status"], "unsolvable");
    }
}

#[test]
fn decode_refutes_a_wrong_unsatisfiable_answer() {
    let dir = tempfile::tempdir().unwrap();
    for givens in puzzles("classic-9.txt") {
        let cnf = cnf_of(dir.path(), &givens, &[]);
        for answer in ["s UNSATISFIABLE\n", "UNSAT\n"] {
            let out = decode(&cnf, answer, &["--format", "json"]);
            assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
            assert_refuted(&json_lines(&out.stdout)[0], "the answer in <stdin>", "the answer is wrong");
        }
    }
}

/// Clauses edited to contradict each other do not make the puzzle in the
/// comments unsolvable: the claim is checked against the puzzle itself.
#[test]
fn decode_refutes_an_unsatisfiable_answer_to_edited_clauses() {
    let dir = tempfile::tempdir().unwrap();
    let givens = &puzzles("classic-9.txt")[0];
    let cnf = cnf_of(dir.path(), givens, &[]);
    let text = std::fs::read_to_string(&cnf).unwrap();
    let mut edited = String::new();
    for line in text.lines() {
        match line.strip_prefix("p cnf ") {
            Some(counts) => {
                let (vars, clauses) = counts.split_once(' ').unwrap();
                let clauses: usize = clauses.trim().parse().unwrap();
                edited.push_str(&format!("p cnf {vars} {}\n", clauses + 2));
            }
            None => edited.push_str(&format!("{line}\n")),
        }
    }
    edited.push_str("1 0\n-1 0\n");
    std::fs::write(&cnf, edited).unwrap();
    let out = decode(&cnf, "s UNSATISFIABLE\n", &["--format", "json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_refuted(&json_lines(&out.stdout)[0], "the answer in <stdin>", "the answer is wrong");
}

#[test]
fn decode_with_too_short_a_timeout_to_confirm_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = cnf_of(dir.path(), &hard_25(), &["--encoding", "propagated"]);
    let out = decode(&cnf, "s UNSATISFIABLE\n", &["--format", "json", "--timeout", "0.5"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let record = &json_lines(&out.stdout)[0];
    assert_eq!(record["status"], "error", "{record}");
    assert!(record["error"].as_str().unwrap().contains("varisat could not confirm within the time limit"), "{record}");
}

// --- decode's grid options --------------------------------------------------

/// A model of `cnf` found by varisat in this test, as SAT-competition output.
fn model_of(cnf: &Path) -> String {
    let text = std::fs::read(cnf).unwrap();
    let formula = satdoku::varisat::dimacs::DimacsParser::parse(&text[..]).unwrap();
    let mut solver = satdoku::varisat::Solver::new();
    solver.add_formula(&formula);
    assert!(solver.solve().unwrap());
    let literals: Vec<String> = solver.model().unwrap().iter().map(|l| l.to_dimacs().to_string()).collect();
    format!("s SATISFIABLE\nv {} 0\n", literals.join(" "))
}

#[test]
fn decode_refuses_grid_options_that_differ_from_the_cnf() {
    let dir = tempfile::tempdir().unwrap();
    let givens = &puzzles("classic-9.txt")[0];
    let cnf = cnf_of(dir.path(), givens, &[]);
    let model = model_of(&cnf);
    let hyper = repo_path("encodings/hyper-9.toml").display().to_string();
    let cases: [&[&str]; 5] =
        [&["--variant", "hyper"], &["--latin"], &["--box", "2x3"], &["--grid", &hyper], &["--variant", "x"]];
    for options in cases {
        let out = decode(&cnf, &model, options);
        assert_eq!(out.status.code(), Some(2), "{options:?}");
        assert!(out.stdout.is_empty(), "{options:?}: {}", String::from_utf8_lossy(&out.stdout));
        let stderr = stderr(&out);
        assert!(
            stderr.contains("the CNF's comments describe 9x9, 3x3 boxes, but the grid options ask for"),
            "{stderr}"
        );
    }
    let stderr = stderr(&decode(&cnf, &model, &["--variant", "hyper"]));
    assert!(stderr.contains("ask for 9x9, 3x3 boxes, hyper"), "{stderr}");
}

#[test]
fn decode_refuses_rules_beyond_units_that_differ_from_the_cnf() {
    // Rules between neighbours and clues are no units: options that add
    // them, or change a clue, ask for another puzzle than the CNF's, whose
    // solution may break them.
    let dir = tempfile::tempdir().unwrap();
    let toml = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let cages = toml(
        "cages.toml",
        "size = 4\n[[killer]]\ncells = \"r1c1 r1c2\"\nsum = 3\n[[killer]]\ncells = \"r4c3 r4c4\"\nsum = 7\n",
    );
    let reordered = toml(
        "reordered.toml",
        "size = 4\n[[killer]]\ncells = \"r4c4 r4c3\"\nsum = 7\n[[killer]]\ncells = \"r1c2 r1c1\"\nsum = 3\n",
    );
    let other_sum = toml(
        "other.toml",
        "size = 4\n[[killer]]\ncells = \"r1c1 r1c2\"\nsum = 7\n[[killer]]\ncells = \"r4c3 r4c4\"\nsum = 7\n",
    );
    let anti_king = toml("anti-king.toml", "size = 4\nanti_king = true\n");

    let blank = ".".repeat(16);
    let plain = cnf_of(dir.path(), &blank, &[]);
    let model = model_of(&plain);
    let cases: [(&[&str], &str); 4] = [
        (&["--variant", "anti-knight"], "anti-knight"),
        (&["--variant", "non-consecutive"], "non-consecutive"),
        (&["--grid", &anti_king], "anti-king"),
        (&["--grid", &cages], "2 constraints"),
    ];
    for (options, asked) in cases {
        let out = decode(&plain, &model, options);
        assert_eq!(out.status.code(), Some(2), "{options:?}");
        assert!(out.stdout.is_empty(), "{options:?}: {}", String::from_utf8_lossy(&out.stdout));
        let stderr = stderr(&out);
        assert!(
            stderr.contains("the CNF's comments describe 4x4, 2x2 boxes, but the grid options ask for"),
            "{stderr}"
        );
        assert!(stderr.contains(asked), "{options:?}: {stderr}");
    }

    let caged = dir.path().join("caged");
    std::fs::create_dir(&caged).unwrap();
    let cnf = cnf_of(&caged, &blank, &["--grid", &cages]);
    let model = model_of(&cnf);
    let out = decode(&cnf, &model, &["--grid", &other_sum]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("with other clues"), "{}", stderr(&out));
    // The same clues in another order, their cells too, are the same puzzle.
    for options in [&["--grid", &cages][..], &["--grid", &reordered], &[]] {
        let out = decode(&cnf, &model, options);
        assert!(out.status.success(), "{options:?}: {}", stderr(&out));
        let solution: Vec<u32> =
            String::from_utf8_lossy(&out.stdout).trim().chars().map(|c| c.to_digit(10).unwrap()).collect();
        check(&blank, String::from_utf8_lossy(&out.stdout).trim(), &Shape::boxes(4, 2, 2)).unwrap();
        assert_eq!((solution[0] + solution[1], solution[14] + solution[15]), (3, 7), "{solution:?}");
    }
}

#[test]
fn decode_takes_grid_options_that_describe_the_cnf() {
    let dir = tempfile::tempdir().unwrap();
    // Options that say what the CNF says, in other words: the hyper windows
    // as a variant, or as extra units in a grid file.
    let givens = &puzzles("hyper-9.txt")[0];
    let shape = Shape::boxes(9, 3, 3).with_hyper_windows_9();
    let cnf = cnf_of(dir.path(), givens, &["--variant", "hyper"]);
    let model = model_of(&cnf);
    let windoku = repo_path("encodings/windoku-extra-9.toml").display().to_string();
    let hyper = repo_path("encodings/hyper-9.toml").display().to_string();
    let cases: [&[&str]; 4] =
        [&["--variant", "hyper"], &["--box", "3x3", "--variant", "hyper"], &["--grid", &windoku], &["--grid", &hyper]];
    for options in cases {
        let out = decode(&cnf, &model, options);
        assert!(out.status.success(), "{options:?}: {}", stderr(&out));
        let solution = String::from_utf8_lossy(&out.stdout);
        check(givens, solution.trim(), &shape).unwrap_or_else(|e| panic!("{options:?}: {e}"));
    }
}

#[test]
fn decode_in_grid_format_prints_the_header_line() {
    let dir = tempfile::tempdir().unwrap();
    let givens = &puzzles("classic-9.txt")[0];
    let cnf = cnf_of(dir.path(), givens, &[]);
    let model_file = dir.path().join("answer.txt");
    std::fs::write(&model_file, model_of(&cnf)).unwrap();
    let out =
        satdoku().arg("decode").arg("--cnf").arg(&cnf).arg(&model_file).args(["--format", "grid"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(format!("puzzle 1 ({})", model_file.display()).as_str()), "{text}");
    let cells: String = lines.flat_map(|l| l.chars()).filter(char::is_ascii_digit).collect();
    check(givens, &cells, &Shape::boxes(9, 3, 3)).unwrap();

    let unsolvable = &puzzles("unsolvable-9.txt")[0];
    let cnf = cnf_of(dir.path(), unsolvable, &[]);
    let out = decode(&cnf, "s UNSATISFIABLE\n", &["--format", "grid"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().next(), Some("unsolvable: puzzle 1 (<stdin>)"));
}

// --- a missing solver --------------------------------------------------------

#[test]
fn a_solver_that_cannot_run_is_one_error_before_any_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let not_executable = dir.path().join("solver.sh");
    std::fs::write(&not_executable, "#!/bin/sh\nexit 20\n").unwrap();
    let missing = dir.path().join("no-such-solver");
    let cases = [
        (
            "no-such-sat-solver -q".to_string(),
            "cannot run 'no-such-sat-solver': command not found (is it installed and on PATH?)".to_string(),
        ),
        (missing.display().to_string(), format!("cannot run '{}': no such file", missing.display())),
        (
            not_executable.display().to_string(),
            format!("cannot run '{}': not an executable file", not_executable.display()),
        ),
        (dir.path().display().to_string(), format!("cannot run '{}': not an executable file", dir.path().display())),
    ];
    for (command, message) in cases {
        // A puzzle the solver would get, and no record of it: the check comes first.
        let out = satdoku()
            .args(["solve", "--solver", &command, "--encoding", "full", "--format", "json"])
            .write_stdin(puzzles("classic-9.txt")[0].clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        let stderr = stderr(&out);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with(&format!("satdoku: {message}")), "{stderr}");
    }
}

// --- process groups, signals and temporary files -----------------------------

/// Whether process `pid` runs. A zombie has ended: where init does not reap
/// (some containers), orphans stay zombies.
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit(") ").next().is_some_and(|state| !state.starts_with('Z')))
}

/// Assert that process `pid` ends: at once, but for the moment the kernel
/// takes to carry out a SIGKILL sent just before.
fn assert_ended(pid: u32) {
    let start = Instant::now();
    while alive(pid) {
        assert!(start.elapsed() < Duration::from_secs(10), "process {pid} of the solver's group still runs");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A fake solver in `dir`: a wrapper script that writes its own process id
/// (its group's) and its background child's to `dir/pids`, then does `then`.
fn wrapper(dir: &Path, then: &str) -> String {
    let script = dir.join("solver.sh");
    let pids = dir.join("pids");
    let text = format!("echo $$ >> '{0}'\nsleep 100 &\necho $! >> '{0}'\n{then}\n", pids.display());
    std::fs::write(&script, text).unwrap();
    // Run through sh: a script just written may not be executed while another
    // test's fork holds it open ("text file busy").
    format!("sh '{}'", script.display())
}

/// The process ids the wrapper wrote, once both are there.
fn wrapper_pids(dir: &Path) -> Vec<u32> {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(dir.join("pids")).unwrap_or_default();
        let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
        if pids.len() >= 2 {
            return pids;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "the fake solver never started: {text:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The entries of a folder.
fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

/// `solve --solver` with the fake solver `wrapper(…, then)` on one puzzle,
/// TMPDIR a fresh folder: the error of its record, once every process of
/// the solver's group has ended and the folder is empty again.
fn solve_with_wrapper(then: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let solver = wrapper(dir.path(), then);
    let out = satdoku()
        .env("TMPDIR", tmp.path())
        .args(["solve", "--solver", &solver, "--format", "json", "--encoding", "full"])
        .args(extra)
        .write_stdin(puzzles("classic-9.txt")[0].clone())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    for pid in wrapper_pids(dir.path()) {
        assert_ended(pid);
    }
    assert_eq!(entries(tmp.path()), Vec::<String>::new(), "temporary files left behind");
    json_lines(&out.stdout)[0]["error"].as_str().unwrap().to_string()
}

#[test]
fn a_timeout_ends_the_solver_s_whole_process_group() {
    let error = solve_with_wrapper("wait", &["--timeout", "0.5"]);
    assert!(error.contains("gave no answer within 0.5 s and was stopped"), "{error}");
}

#[test]
fn what_a_solver_leaves_running_is_ended_with_it() {
    // Answers at once (a lie, refuted), leaving `sleep 100` behind.
    let error = solve_with_wrapper("echo s UNSATISFIABLE; exit 20", &[]);
    assert!(error.contains("varisat found one"), "{error}");
}

/// Start `solve --solver` on a puzzle the fake solver hangs on, send
/// `signal` to satdoku once the solver runs: satdoku's exit code, after
/// checking that the solver's group and every temporary file are gone.
fn interrupted(signal: i32) -> Option<i32> {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let solver = wrapper(dir.path(), "wait");
    let input = dir.path().join("puzzles.txt");
    std::fs::write(&input, puzzles("classic-9.txt").join("\n")).unwrap();
    let child = Command::new(assert_cmd::cargo::cargo_bin("satdoku"))
        .env("TMPDIR", tmp.path())
        .args(["solve", "--solver", &solver, "--encoding", "full", "--format", "json"])
        .arg(&input)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wrapper_pids(dir.path());
    assert!(entries(tmp.path()).iter().any(|e| e.starts_with("satdoku-")), "no temporary folder while it runs");
    // SAFETY: kill(2) on the child's own process id.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let out = child.wait_with_output().unwrap();
    // Every solver started (one per worker thread), each with its child.
    for pid in wrapper_pids(dir.path()) {
        assert_ended(pid);
    }
    assert_eq!(entries(tmp.path()), Vec::<String>::new(), "temporary files left behind");
    assert!(out.stdout.is_empty(), "records after the signal: {}", String::from_utf8_lossy(&out.stdout));
    out.status.code()
}

#[test]
fn sigterm_ends_the_solver_and_removes_temporary_files() {
    assert_eq!(interrupted(libc::SIGTERM), Some(143));
}

#[test]
fn ctrl_c_ends_the_solver_and_removes_temporary_files() {
    assert_eq!(interrupted(libc::SIGINT), Some(130));
}

/// SIGKILL reaches no handler, yet the solver satdoku started dies with it
/// (Linux's parent-death signal): a solver that would run for 100 s is gone
/// once satdoku is.
#[cfg(target_os = "linux")]
#[test]
fn sigkill_of_satdoku_ends_its_solver() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let solver = format!("sh -c 'echo $$ > \"{}\"; exec sleep 100'", pid_file.display());
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("satdoku"))
        .env("TMPDIR", tmp.path())
        .args(["solve", "-j1", "--solver", &solver, "--encoding", "full"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{}", puzzles("classic-9.txt")[0]).unwrap();
    drop(stdin);
    let start = Instant::now();
    let pid = loop {
        let text = std::fs::read_to_string(&pid_file).unwrap_or_default();
        if let Ok(pid) = text.trim().parse::<u32>() {
            break pid;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "the fake solver never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert_ended(pid);
}

// --- what a solver leaves to be read -----------------------------------------

/// `solve --solver COMMAND` on one puzzle, TMPDIR a fresh folder, within a
/// minute (waiting for ever is the failure these tests look for): the error
/// of its record, exit 2, once the folder is empty again.
fn solve_left(command: &str) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let out = satdoku()
        .env("TMPDIR", tmp.path())
        .args(["solve", "--solver", command, "--format", "json", "--encoding", "full"])
        .write_stdin(puzzles("classic-9.txt")[0].clone())
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap_or_else(|e| panic!("{command}: {e}"));
    assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
    assert_eq!(entries(tmp.path()), Vec::<String>::new(), "{command}: temporary files left behind");
    json_lines(&out.stdout)[0]["error"].as_str().unwrap().to_string()
}

/// A FIFO where satdoku reads would block it for ever on opening it (no
/// one writes): its result file, satdoku's own file of its stdout (next to
/// the CNF), its proof, the file of its stderr read for a failure's last
/// line. Each is refused, or passed over, at once.
#[test]
fn a_fifo_left_where_satdoku_reads_is_refused_not_waited_on() {
    let in_place = |file: &str, then: &str| format!("sh -c 'rm -f \"{file}\"; mkfifo \"{file}\"; {then}' sh {{cnf}}");
    let result = in_place("$2", "exit 10") + " {result}";
    let error = solve_left(&result);
    assert!(error.contains("left a FIFO where its result file should be, not a regular file"), "{error}");
    let stdout = in_place("$(dirname \"$1\")/stdout", "exit 10");
    let error = solve_left(&stdout);
    assert!(error.contains("left a FIFO where its stdout file should be"), "{error}");
    let proof = in_place("$2", "echo s UNSATISFIABLE; exit 20") + " {proof}";
    let error = solve_left(&proof);
    assert!(error.contains("its DRAT proof is rejected: the proof is a FIFO, not a regular file"), "{error}");
    let stderr = in_place("$(dirname \"$1\")/stderr", "exit 3");
    let error = solve_left(&stderr);
    assert!(error.contains("failed: exit code 3"), "{error}");
}

/// An answer or a proof that never ends: `/dev/zero` is refused as a
/// device, and a file of a terabyte of NULs (sparse: it takes no room)
/// is an error once its first line is longer than any answer (as a proof,
/// at its first byte, which starts no binary clause), rather than read
/// into memory until satdoku aborts; so is a proof's line or binary clause
/// longer than any clause.
#[test]
fn an_endless_answer_or_proof_is_an_error_not_memory_filled() {
    let error = solve_left("sh -c 'rm -f \"$2\"; ln -s /dev/zero \"$2\"; exit 10' sh {cnf} {result}");
    assert!(error.contains("left a character device where its result file should be"), "{error}");
    let huge = |then: &str| format!("sh -c 'rm -f \"$2\"; truncate -s 1T \"$2\"; {then}' sh {{cnf}}");
    let error = solve_left(&(huge("exit 10") + " {result}"));
    assert!(error.contains("result file:1: a line longer than") && error.contains("than an answer for"), "{error}");
    // NULs are no text: read as a binary proof, whose first clause starts
    // with neither `a` nor `d`.
    let error = solve_left(&(huge("echo s UNSATISFIABLE; exit 20") + " {proof}"));
    assert!(error.contains("its DRAT proof is rejected: proof clause 1: byte 0x00 starts no clause"), "{error}");
    // A text line, and a binary clause, longer than any clause (the
    // formula's variables and the 2^20 more a proof may add).
    let long = |write: &str| format!("sh -c '{write} > \"$2\"; echo s UNSATISFIABLE; exit 20' sh {{cnf}} {{proof}}");
    let error = solve_left(&long("yes 1 | tr -d \"\\n\" | head -c 30000000"));
    assert!(error.contains("its DRAT proof is rejected: proof line 1: longer than"), "{error}");
    let error = solve_left(&long("{ printf a; head -c 2000000 /dev/zero | tr \"\\0\" \"\\2\"; }"));
    assert!(error.contains("its DRAT proof is rejected: proof clause 1: more than"), "{error}");
}
