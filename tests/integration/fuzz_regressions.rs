//! Every input a fuzz target failed on, saved in `fuzz/regressions/<target>/`,
//! replayed through the target's own checks: a crash fixed stays fixed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

// The fuzz crate lives outside the workspace (it needs its own build flags);
// its checks are plain functions over bytes, so the tests compile them too.
#[path = "../../fuzz/src/lib.rs"]
mod fuzz_checks;

/// Run `check` on every file of `fuzz/regressions/<target>/`; name every file that panics.
fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries.map(|e| e.expect("a directory entry").path()).collect(),
        Err(_) => return,
    };
    files.sort();
    let failed: Vec<String> = files
        .iter()
        .filter(|path| {
            let data = std::fs::read(path).expect("a regression input");
            catch_unwind(AssertUnwindSafe(|| check(&data))).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(failed.is_empty(), "{} of {} inputs still fail: {}", failed.len(), files.len(), failed.join(", "));
}

#[test]
fn puzzle_text() {
    replay("puzzle_text", fuzz_checks::puzzle_text);
}

#[test]
fn puzzle_framing() {
    replay("puzzle_framing", fuzz_checks::puzzle_framing);
}

#[test]
fn grid_file() {
    replay("grid_file", fuzz_checks::grid_file);
}

#[test]
fn fpuzzles() {
    replay("fpuzzles", fuzz_checks::fpuzzles);
}

#[test]
fn region_map() {
    replay("region_map", fuzz_checks::region_map);
}

#[test]
fn dimacs_cnf() {
    replay("dimacs_cnf", fuzz_checks::dimacs_cnf);
}

#[test]
fn solver_output() {
    replay("solver_output", fuzz_checks::solver_output);
}
