//! Progress: on stderr when stderr is a terminal (a bar with the count, the
//! rate and the time left), and nothing at all on stdout or into a pipe.
//! `SATDOKU_PROGRESS_DELAY_MS=0` shows it from the start, so that a short
//! test run would show it if it were shown.

use crate::util::checker::{data_lines, data_path};
use crate::util::satdoku;

/// `satdoku ARGS` on a terminal, progress shown at once.
fn on_a_terminal(args: &str) -> Option<String> {
    crate::util::on_a_terminal(args, &[("SATDOKU_PROGRESS_DELAY_MS", "0")])
}

#[test]
fn piped_runs_show_no_progress() {
    let file = data_path("17-clue-500.txt");
    for jobs in ["1", "2"] {
        let out = satdoku()
            .args(["solve", "--jobs", jobs])
            .arg(&file)
            .env("SATDOKU_PROGRESS_DELAY_MS", "0")
            .output()
            .unwrap();
        assert!(out.status.success());
        assert!(out.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(stdout.lines().count(), 500);
        assert!(stdout.lines().all(|l| l.len() == 81 && !l.contains('\x1b')), "progress in stdout");
    }
}

#[test]
fn a_terminal_shows_a_bar_and_stdout_stays_clean() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    // Larger than what is read at once (64 KiB): the bar moves by the bytes read.
    let file = dir.path().join("17-clue-2000.txt");
    std::fs::write(&file, std::fs::read_to_string(data_path("17-clue-500.txt")).unwrap().repeat(4)).unwrap();
    let Some(terminal) = on_a_terminal(&format!("solve --jobs 1 {} > {}", file.display(), out.display())) else {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return;
    };
    assert!(terminal.contains("puzzles") && terminal.contains("ETA"), "{terminal:?}");
    // The bar is cleared at the end: the last thing drawn erases the line.
    assert!(terminal.trim_end().ends_with("\x1b[2K") || terminal.ends_with("\r\x1b[2K"), "{terminal:?}");
    let stdout = std::fs::read_to_string(&out).unwrap();
    assert_eq!(stdout.lines().count(), 2000);
    assert!(stdout.lines().all(|l| l.len() == 81 && l.bytes().all(|b| b.is_ascii_digit())), "progress in stdout");
    // stdin: no size to measure, a spinner with the count.
    let spinner = on_a_terminal(&format!("solve --jobs 1 < {} > {}", file.display(), out.display())).unwrap();
    assert!(spinner.contains("puzzles") && !spinner.contains("ETA"), "{spinner:?}");
}

#[test]
fn generate_shows_a_bar_of_the_puzzles_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let Some(terminal) = on_a_terminal(&format!("generate --solved --count 6 --seed 7 > {}", out.display())) else {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return;
    };
    assert!(terminal.contains("/6 puzzles") && terminal.contains("ETA"), "{terminal:?}");
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 6, "six grids, nothing else on stdout");
    let piped = satdoku()
        .args(["generate", "--solved", "--count", "6", "--seed", "7"])
        .env("SATDOKU_PROGRESS_DELAY_MS", "0")
        .output()
        .unwrap();
    assert!(piped.status.success() && piped.stderr.is_empty(), "{}", String::from_utf8_lossy(&piped.stderr));
}

/// On one long puzzle the spinner shows the solver's conflicts, counted as
/// the search goes (the hard 25×25 puzzles of Gecode need thousands), on
/// one thread or racing on two: the reading is over at once there, and the
/// progress lasts until the answer (it once ended with the reading). Read
/// from a file, it is no bar at "100%, ETA 0s" (the bytes were all read):
/// a spinner, as on stdin.
#[test]
fn a_long_search_shows_its_conflicts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let file = dir.path().join("hard.txt");
    std::fs::write(&file, format!("{}\n", data_lines("gecode-25x25-hard.txt")[0])).unwrap();
    for (jobs, input) in [(1, "<"), (2, "")] {
        // Varisat takes half a minute over it: the time limit ends the test sooner.
        let args = format!(
            "solve --jobs {jobs} --no-pattern-guess --timeout 3 {input} {} > {} || true",
            file.display(),
            out.display()
        );
        let Some(terminal) = on_a_terminal(&args) else {
            eprintln!("skipped: no `script` (util-linux) to make a terminal");
            return;
        };
        let counts: Vec<u64> =
            terminal.split(" conflicts").filter_map(|before| before.rsplit(", ").next()?.trim().parse().ok()).collect();
        assert!(counts.iter().any(|&c| c > 0), "{args}: no conflict count on the terminal: {terminal:?}");
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "the count went down: {counts:?}");
        let searching = terminal.split_once(" conflicts").map_or("", |(_, after)| after);
        assert!(!terminal.contains("100%") && !searching.contains("ETA"), "{args}: a bar: {terminal:?}");
        let answer = std::fs::read_to_string(&out).unwrap();
        assert_eq!(answer.lines().count(), 1, "the record alone on stdout: {answer}");
    }
}

/// Puzzles still being answered once every byte is read: their count, by
/// the spinner (the bar stood at 100% while a batch of hard puzzles went on).
#[test]
fn puzzles_read_at_once_show_how_many_are_answered() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let file = dir.path().join("hard.txt");
    let hard = data_lines("gecode-25x25-hard.txt");
    std::fs::write(&file, format!("{}\n{}\n", hard[0], hard[0])).unwrap();
    let args = format!("solve --jobs 1 --no-pattern-guess --timeout 2 {} > {} || true", file.display(), out.display());
    let Some(terminal) = on_a_terminal(&args) else {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return;
    };
    assert!(terminal.contains(", 1 answered"), "{terminal:?}");
    let searching = terminal.split_once(" answered").map_or("", |(_, after)| after);
    assert!(!terminal.contains("100%") && !searching.contains("ETA"), "a bar: {terminal:?}");
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 2);
}

/// The bar's colours follow `--color` and NO_COLOR, for stderr, whatever
/// stdout is.
#[test]
fn the_bar_is_coloured_as_stderr_is() {
    let dir = tempfile::tempdir().unwrap();
    // Larger than what is read at once: a bar, not the spinner of a file read whole.
    let file = dir.path().join("17-clue-2000.txt");
    std::fs::write(&file, std::fs::read_to_string(data_path("17-clue-500.txt")).unwrap().repeat(4)).unwrap();
    let out = dir.path().join("out.txt");
    let colours = |args: &str, env: &[(&str, &str)]| {
        let env = [&[("SATDOKU_PROGRESS_DELAY_MS", "0")][..], env].concat();
        let command = format!("solve --jobs 1 {args} {} > {}", file.display(), out.display());
        let terminal = crate::util::on_a_terminal(&command, &env)?;
        assert!(terminal.contains("puzzles"), "no bar: {terminal:?}");
        Some(terminal.contains("\x1b[36m") || terminal.contains("\x1b[34m"))
    };
    let Some(auto) = colours("", &[]) else {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return;
    };
    assert!(auto, "stdout into a file, stderr a terminal: the bar is coloured");
    assert_eq!(colours("--color never", &[]), Some(false));
    assert_eq!(colours("", &[("NO_COLOR", "1")]), Some(false));
}

/// A signal clears the bar before the exit, as the end of a run does: the
/// prompt after it does not land on a stale bar.
#[test]
fn a_signal_clears_the_bar() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hard.txt");
    std::fs::write(&file, format!("{}\n", data_lines("gecode-25x25-hard.txt")[0])).unwrap();
    let binary = assert_cmd::cargo::cargo_bin("satdoku");
    let command = format!(
        "stty cols 200 2>/dev/null; {} solve --jobs 1 --no-pattern-guess {} > /dev/null & p=$!; sleep 1; kill -INT $p; wait $p; echo \"after $?\"",
        binary.display(),
        file.display()
    );
    if !crate::util::available("script") {
        return;
    }
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("TERM", "xterm")
        .env("SATDOKU_PROGRESS_DELAY_MS", "0")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let terminal = String::from_utf8_lossy(&out.stdout);
    assert!(terminal.contains("conflicts"), "no bar: {terminal:?}");
    let (bar, cleared, after) = (terminal.rfind("conflicts"), terminal.rfind("\x1b[2K"), terminal.find("after 130"));
    assert!(after.is_some() && bar < cleared, "the bar was left: {terminal:?}");
}

/// Puzzles typed or pasted on a terminal: a hint says how a puzzle is
/// answered (the reader looks a line past it), and no spinner redraws over the line being
/// typed. The answer is checked as any other.
#[test]
fn puzzles_typed_on_a_terminal_get_a_hint_and_no_spinner() {
    use crate::util::checker::{assert_solves, read_symbols, Shape};
    if !crate::util::available("script") {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return;
    }
    let puzzle = data_lines("17-clue-500.txt")[0].clone();
    let binary = assert_cmd::cargo::cargo_bin("satdoku");
    let mut script = std::process::Command::new("script")
        .args(["-qec", &format!("{} solve --format line", binary.display()), "/dev/null"])
        .env("TERM", "xterm")
        .env("SATDOKU_PROGRESS_DELAY_MS", "0")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // script passes its stdin to the terminal, and its end as the end.
    use std::io::Write as _;
    script.stdin.take().unwrap().write_all(format!("{puzzle}\n").as_bytes()).unwrap();
    let out = script.wait_with_output().unwrap();
    let terminal = String::from_utf8_lossy(&out.stdout);
    let hint = "reading puzzles from the terminal: type or paste them; a blank line after one answers it, Ctrl-D ends";
    assert!(terminal.contains(hint), "{terminal:?}");
    assert!(!terminal.contains("\x1b[2K") && !terminal.contains("00:00:0"), "a spinner: {terminal:?}");
    let answer = terminal.lines().map(str::trim_end).find(|l| l.len() == 81 && !l.contains('.')).expect("an answer");
    assert_solves(&Shape::classic(9), &read_symbols(&puzzle), &read_symbols(answer), "typed");
}
