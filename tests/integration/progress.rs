//! Progress: on stderr when stderr is a terminal (a bar with the count, the
//! rate and the time left), and nothing at all on stdout or into a pipe.
//! `SATDOKU_PROGRESS_DELAY_MS=0` shows it from the start, so that a short
//! test run would show it if it were shown.

use crate::util::checker::data_path;
use crate::util::satdoku;

/// Run `satdoku ARGS` with stderr (and stdout, unless redirected in `args`)
/// on a pseudo-terminal made by util-linux `script`; what the terminal got.
fn on_a_terminal(args: &str) -> Option<String> {
    let binary = assert_cmd::cargo::cargo_bin("satdoku");
    let command = format!("stty cols 120 2>/dev/null; {} {args}", binary.display());
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("SATDOKU_PROGRESS_DELAY_MS", "0")
        .env("TERM", "xterm")
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
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
    let file = data_path("17-clue-500.txt");
    let Some(terminal) = on_a_terminal(&format!("solve --jobs 1 {} > {}", file.display(), out.display())) else {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return;
    };
    assert!(terminal.contains("puzzles") && terminal.contains("ETA"), "{terminal:?}");
    // The bar is cleared at the end: the last thing drawn erases the line.
    assert!(terminal.trim_end().ends_with("\x1b[2K") || terminal.ends_with("\r\x1b[2K"), "{terminal:?}");
    let stdout = std::fs::read_to_string(&out).unwrap();
    assert_eq!(stdout.lines().count(), 500);
    assert!(stdout.lines().all(|l| l.len() == 81 && l.bytes().all(|b| b.is_ascii_digit())), "progress in stdout");
    // stdin: no size to measure, a spinner with the count.
    let spinner = on_a_terminal(&format!("solve --jobs 1 < {} > {}", file.display(), out.display())).unwrap();
    assert!(spinner.contains("puzzles") && !spinner.contains("ETA"), "{spinner:?}");
}
