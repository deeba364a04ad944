//! Helpers shared by the integration tests: the independent checker, the
//! grids of the DIMACS cases, a brute-force enumerator, and running the
//! `satdoku` binary and reading what it prints.

pub mod brute;
pub mod checker;
pub mod drat;
pub mod grids;
pub mod oracle;
pub mod rules;

use assert_cmd::Command;
use serde_json::Value as Json;
use tempfile::TempDir;

/// The `satdoku` binary, run from the repository root (so that `encodings/…`
/// and `tests/data/…` resolve whatever directory the tests start in).
pub fn satdoku() -> Command {
    let mut cmd = Command::cargo_bin("satdoku").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// What a run of `satdoku` left behind.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `satdoku` with `args` on `stdin`. It must exit (not be killed by a
/// signal, nor by the ten-minute guard that turns a hang into a failure
/// rather than a stuck CI run) and print UTF-8 on both streams.
pub fn run(args: &[&str], stdin: &str) -> Run {
    let guard = std::time::Duration::from_secs(600);
    let out = satdoku().args(args).write_stdin(stdin).timeout(guard).output().unwrap();
    Run {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    }
}

/// Run `args`, check the exit code, and read exactly `count` JSON records.
pub fn json_run(args: &[&str], stdin: &str, code: i32, count: usize) -> Vec<Json> {
    let r = run(args, stdin);
    assert_eq!(r.code, code, "{}", r.stderr);
    let recs = json_lines(&r.stdout);
    assert_eq!(recs.len(), count, "{}", r.stdout);
    recs
}

/// The JSON Lines of `stdout`: UTF-8, and every line one JSON value.
pub fn json_lines(stdout: impl AsRef<[u8]>) -> Vec<Json> {
    std::str::from_utf8(stdout.as_ref())
        .expect("UTF-8 stdout")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l:?}: {e}")))
        .collect()
}

/// Write `text` to the file `name` in `dir`; its path, for a command line.
pub fn write_file(dir: &TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Run `satdoku ARGS` (shell words: redirections allowed) with stdout and
/// stderr on a pseudo-terminal made by util-linux `script`, with `env` set
/// (and NO_COLOR unset): what the terminal showed, or None where `script`
/// is missing.
///
/// `script` now and then hands back nothing at all from a short command on
/// a loaded machine (its copy from the terminal races the command's end;
/// seen once in a full test run): an empty capture is taken again, up to
/// five times. A command that truly shows nothing still shows nothing.
pub fn on_a_terminal(args: &str, env: &[(&str, &str)]) -> Option<String> {
    if !available("script") {
        return None;
    }
    let binary = assert_cmd::cargo::cargo_bin("satdoku");
    let command = format!("stty cols 120 2>/dev/null; {} {args}", binary.display());
    let mut shown = String::new();
    for _ in 0..5 {
        let mut script = std::process::Command::new("script");
        script.args(["-qec", &command, "/dev/null"]).env_remove("NO_COLOR").env("TERM", "xterm");
        for (key, value) in env {
            script.env(key, value);
        }
        let out = script.current_dir(env!("CARGO_MANIFEST_DIR")).stdin(std::process::Stdio::null()).output().ok()?;
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
        shown = String::from_utf8_lossy(&out.stdout).into_owned();
        if !shown.is_empty() {
            break;
        }
    }
    Some(shown)
}

/// Whether `program` is on PATH. Tests that drive a program skip their part
/// without it, with a note; under CI=true (where `.ci/run` installs every
/// such program) a missing one fails the test instead.
pub fn available(program: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()));
    if !found {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{program} is not installed, and CI=true needs it");
        eprintln!("note: {program} is not installed; skipping its part of this test");
    }
    found
}
