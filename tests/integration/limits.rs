//! `--timeout` holds for every part of a command, and a common printed form
//! of big grids is read as one puzzle: what the fifth review hunt found.
//! Each test failed before its fix.

use crate::util::checker::{assert_solves, data_path, read_solution_line, Shape};
use crate::util::{json_run, run, satdoku};

/// `analyze --propagate probe` looked at the clock only between rounds, and
/// one round of probing a blank 49×49 takes minutes: `--timeout 1` ran for
/// four of them and answered. It now stops within the round, with the
/// timeout's error record. Probing has since become fast (a blank 100×100
/// takes about 4 s), so the test probes a blank 144×144, tens of seconds.
#[test]
fn probing_stops_at_the_timeout() {
    let blank = vec!["0"; 144 * 144].join(" ");
    let recs = json_run(&["analyze", "--propagate", "probe", "--timeout", "1", "--format", "json"], &blank, 2, 1);
    assert_eq!(recs[0]["status"], "error", "{}", recs[0]);
    assert!(recs[0]["error"].as_str().unwrap().contains("--timeout"), "{}", recs[0]);
}

/// `analyze --redundant` asked the incremental solver about every given
/// with no deadline: 130 s on a 25×25 with `--timeout 1`. The whole puzzle
/// now shares one deadline.
#[test]
fn redundant_givens_stop_at_the_timeout() {
    let text = std::fs::read_to_string(data_path("gecode-25x25.txt")).unwrap();
    let puzzle = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let args = ["analyze", "--redundant", "--timeout", "1", "--format", "json"];
    let recs = json_run(&args, puzzle, 2, 1);
    assert_eq!(recs[0]["status"], "error", "{}", recs[0]);
    assert!(recs[0]["error"].as_str().unwrap().contains("--timeout"), "{}", recs[0]);
}

/// The matchings that weave a blank Latin square looked at the clock only
/// between stacks, and a Latin square is one stack: a blank 768×768 with
/// `--timeout 0.5` took 12 s and printed its grid (tester t62c). Each
/// column, and the count of the stack's edges before them, now stops at
/// the deadline, and the puzzle gets the timeout's error record.
#[test]
fn weaving_a_big_latin_square_stops_at_the_timeout() {
    let blank = ".".repeat(768 * 768);
    let recs = json_run(&["solve", "--latin", "-j1", "--timeout", "0.5", "--format", "json"], &blank, 2, 1);
    assert_eq!(recs[0]["status"], "error", "{}", recs[0]);
    assert!(recs[0]["error"].as_str().unwrap().contains("--timeout"), "{}", recs[0]);
}

/// A 16×16 printed as rows of numbers with `|` between the boxes was read
/// as symbols (`14` two cells): 14 invalid records for one puzzle.
#[test]
fn rows_of_numbers_with_box_rules_are_one_puzzle() {
    // A valid 16×16 (row r, column c: ((r mod 4)·4 + r div 4 + c) mod 16 + 1), every third cell given.
    let solution = |r: usize, c: usize| ((r % 4) * 4 + r / 4 + c) % 16 + 1;
    let givens: Vec<usize> = (0..256).map(|i| if i % 3 == 0 { solution(i / 16, i % 16) } else { 0 }).collect();
    let mut text = String::new();
    for r in 0..16 {
        if r > 0 && r % 4 == 0 {
            text += "------------+-------------+-------------+------------\n";
        }
        let boxes: Vec<String> = (0..4)
            .map(|b| (0..4).map(|i| givens[r * 16 + b * 4 + i].to_string()).collect::<Vec<_>>().join(" "))
            .collect();
        text += &boxes.join(" | ");
        text += "\n";
    }
    let recs = json_run(&["solve", "--format", "json"], &text, 0, 1);
    let solved = read_solution_line(recs[0]["solution"].as_str().unwrap(), None);
    assert_solves(&Shape::boxes(16, 4, 4), &givens, &solved, "16x16 with box rules");
}

/// Help written into a full disk said nothing and exited 0, where every
/// command's output reports the error and exits 2.
#[test]
fn help_into_a_full_disk_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else { return };
    let bin = satdoku().get_program().to_owned();
    let out = std::process::Command::new(bin).arg("--help").stdout(full).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
}

/// Options that can never be met are usage errors at once: more givens
/// than cells (it ran 1,000 tries), no tries at all (ignored), and chunk
/// starts past 2^52 (the indexes wrapped to 0 near 2^64, and a start of
/// 2^53 gave its second record an index that JavaScript and jq read as the
/// first's).
#[test]
fn impossible_options_are_usage_errors() {
    for (args, says) in [
        (&["generate", "--givens", "100"][..], "a 9x9 grid has 81 cells"),
        (&["generate", "--givens", "82..90", "--box", "3x3"][..], "82 or more givens"),
        (&["generate", "--tries", "0"][..], "--tries"),
        (&["solve", "--first-index", "18446744073709551615"][..], "--first-index"),
        (&["count", "--first-line", "4503599627370497"][..], "--first-line"),
        (&["solve", "--first-index", "9007199254740992"][..], "--first-index"),
    ] {
        let r = run(args, "");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
    // The largest start is taken, and the records count on from it exactly,
    // also as the doubles of JavaScript and jq.
    let puzzle = ".".repeat(80) + "1";
    let two = format!("{puzzle}\n{puzzle}\n");
    let recs = json_run(&["solve", "--format", "json", "--first-index", "4503599627370496"], &two, 0, 2);
    let indexes: Vec<f64> = recs.iter().map(|r| r["index"].as_f64().unwrap()).collect();
    assert_eq!(indexes, [(1u64 << 52) as f64, ((1u64 << 52) + 1) as f64]);
    assert_ne!(indexes[0], indexes[1]);
}

/// `--out-dir` or `--proof-dir` naming a file said "File exists".
#[test]
fn a_directory_option_naming_a_file_says_so() {
    let dir = tempfile::TempDir::new().unwrap();
    let file = dir.path().join("taken");
    std::fs::write(&file, "").unwrap();
    let file = file.to_str().unwrap();
    let puzzle = ".".repeat(80) + "1";
    for args in [
        &["solve", "--format", "svg", "--out-dir", file][..],
        &["solve", "--proof-dir", file][..],
        &["dimacs", "--out-dir", file][..],
    ] {
        let r = run(args, &puzzle);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stderr.contains(&format!("{file}: not a directory")), "{args:?}: {}", r.stderr);
    }
}

/// `generate --timeout` holds while a grid is mixed: the mixing never read
/// the clock, so `--mix` past what a run can do ran for ever, and
/// `--solved` ignored the limit. Both give up now, with the timeout's
/// message. (The 300 s guard only keeps the old behaviour from hanging CI.)
#[test]
fn generating_stops_at_the_timeout() {
    for extra in [&[][..], &["--solved", "--size", "16"][..]] {
        let out = satdoku()
            .args(["generate", "--mix", "18446744073709551615", "--timeout", "0.5", "--seed", "1"])
            .args(extra)
            .timeout(std::time::Duration::from_secs(300))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains("no puzzle within 0.5 s (--timeout)"), "{extra:?}: {stderr}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stdout.lines().count(), 1, "{extra:?}: {stdout}");
        assert!(stdout.starts_with("error: puzzle 1 (seed 1): no puzzle within"), "{extra:?}: {stdout}");
    }
}

/// `analyze --propagate probe` made a fresh copy of the grid's candidates
/// for every probe, and read the clock between cells only: a blank 64×64
/// gave no answer in two minutes, and `--timeout 2` on a blank 400×400 ran
/// for 104 s. One propagator now probes through its trail: the 64×64 is
/// answered, probing removing nothing from a blank grid (every cell keeps
/// all 64 values), and the clock is read before every probe. (`run`'s guard
/// only keeps the old behaviour from hanging CI.)
#[test]
fn probing_a_big_blank_grid_is_answered() {
    let blank = vec!["0"; 64 * 64].join(" ");
    let record = &json_run(&["analyze", "--propagate", "probe", "--format", "json"], &blank, 0, 1)[0];
    assert_eq!(record["status"], "open", "{record}");
    let candidates = record["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 64 * 64);
    let all: Vec<String> = (1..=64).map(|v| v.to_string()).collect();
    assert!(candidates.iter().all(|c| c.as_str().unwrap().split(',').eq(all.iter().map(String::as_str))));
}

/// The size check of a sum clue counted its whole automaton: one sandwich
/// on a blank 225×225 built 4.5 GB of it and aborted on memory (exit 134).
/// Counting stops past `--max-literals` now, and the puzzle is refused.
#[test]
fn a_huge_sum_clue_is_refused_not_counted_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("sandwich.toml");
    std::fs::write(&grid, "size = 225\n[[sandwich]]\nline = \"r1\"\nsum = 10000\n").unwrap();
    let blank = vec!["0"; 225 * 225].join(" ");
    let record = &json_run(&["count", "--format", "json", "--grid", grid.to_str().unwrap()], &blank, 2, 1)[0];
    assert_eq!(record["status"], "error", "{record}");
    let error = record["error"].as_str().unwrap();
    assert!(error.contains("too large") && error.contains("counting stopped there"), "{error}");
}
