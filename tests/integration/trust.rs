//! The record contract from the outside (issue 15): one record per input
//! puzzle, in order, whatever the input; every answer verified; never a panic
//! or an abort; one behaviour of the shared options in every command. Every
//! solution is checked by the independent checker.

use std::io::Write;
use std::process::{Command as StdCommand, Stdio};

use serde_json::Value as Json;

use crate::util::checker::{assert_solves, read_solution_line, read_symbols, Shape};
use crate::util::{json_lines, run, write_file};

const TOP: [&str; 3] = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
];
/// A 9×9 with a few givens: hundreds of thousands of solutions.
const NEARLY_BLANK: &str = "1...............................................................................2";

fn status(record: &Json) -> &str {
    record["status"].as_str().expect("every record has a status")
}

/// Every record has index, status and source; the indexes count 1, 2, ….
fn assert_contract(records: &[Json]) {
    for (k, record) in records.iter().enumerate() {
        assert_eq!(record["index"], k + 1, "{record}");
        assert!(record["status"].is_string() && record["source"].is_string(), "{record}");
    }
}

/// The three puzzles with `junk` after the first, through `command`: four
/// records, the junk one invalid and blaming its own line, the others right.
#[test]
fn a_junk_line_is_one_invalid_record_in_every_command() {
    for junk in ["12345", "1 2 3 4 5 6 7 8 9 10 11", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"] {
        let input = format!("{}\n{junk}\n{}\n{}\n", TOP[0], TOP[1], TOP[2]);
        for command in ["solve", "count", "analyze"] {
            let r = run(&[command, "--format", "json"], &input);
            let records = json_lines(&r.stdout);
            assert_contract(&records);
            let statuses: Vec<&str> = records.iter().map(status).collect();
            let expected = match command {
                "solve" => ["solved", "invalid", "solved", "solved"],
                _ => ["unique", "invalid", "unique", "unique"],
            };
            assert_eq!(statuses, expected, "{command} with {junk:?}: {}", r.stdout);
            assert_eq!(records[1]["source"], "<stdin>:2", "{command}: the junk line is blamed: {}", records[1]);
            assert_eq!(r.code, 2, "{command}: bad input exits 2");
        }
        let dir = tempfile::tempdir().unwrap();
        let r = run(&["dimacs", "--out-dir", dir.path().to_str().unwrap()], &input);
        assert_eq!(r.code, 2, "{junk:?}: {}", r.stderr);
        let written: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(written.len(), 3, "dimacs writes the three puzzles: {written:?}");
        assert!(dir.path().join("puzzle-0004.cnf").exists(), "the last is still the fourth record");
    }
}

#[test]
fn titles_and_csv_headers_make_no_record() {
    let input = format!(
        "Sudoku #1\n{}\nThis is a sudoku collection\nquizzes,solutions\n{},{}\n",
        TOP[0],
        TOP[1].replace('.', "0"),
        "1".repeat(81)
    );
    let r = run(&["solve", "--format", "json"], &input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let records = json_lines(&r.stdout);
    assert_eq!(records.len(), 2, "{}", r.stdout);
    assert_eq!(records[0]["name"], "Sudoku #1");
    for (record, puzzle) in records.iter().zip(TOP) {
        let solution = read_solution_line(record["solution"].as_str().unwrap(), None);
        assert_solves(&Shape::classic(9), &read_symbols(puzzle), &solution, puzzle);
    }
}

/// Back-to-back blocks, one a row short: no record is a grid that is not in the input.
#[test]
fn a_block_a_row_short_among_blocks_back_to_back_is_reported_and_nothing_else_changes() {
    let mut lines = Vec::new();
    for (k, puzzle) in TOP.iter().enumerate() {
        for r in 0..9 {
            if !(k == 1 && r == 3) {
                lines.push(puzzle[r * 9..r * 9 + 9].to_string());
            }
        }
    }
    let r = run(&["solve", "--format", "json"], &(lines.join("\n") + "\n"));
    let records = json_lines(&r.stdout);
    assert_contract(&records);
    assert_eq!(records.iter().map(status).collect::<Vec<_>>(), ["solved", "invalid", "solved"], "{}", r.stdout);
    for k in [0, 2] {
        let solution = read_solution_line(records[k]["solution"].as_str().unwrap(), None);
        assert_solves(&Shape::classic(9), &read_symbols(TOP[k]), &solution, TOP[k]);
    }
    assert!(records[1]["error"].as_str().unwrap().contains("8 rows"), "{}", records[1]);
}

#[test]
fn max_zero_is_a_usage_error() {
    for args in [&["solve", "--all", "--max", "0"][..], &["count", "--max", "0"]] {
        let r = run(args, TOP[0]);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stdout.is_empty(), "{args:?}: no record, least of all `unsolvable`: {}", r.stdout);
        assert!(r.stderr.contains("--max"), "{}", r.stderr);
    }
}

#[test]
fn count_records_say_what_the_count_means() {
    let input = format!("{}\n{NEARLY_BLANK}\n11{}\n", TOP[0], &TOP[0][2..]);
    let r = run(&["count", "--format", "json", "--max", "5"], &input);
    let records = json_lines(&r.stdout);
    assert_contract(&records);
    assert_eq!(records.iter().map(status).collect::<Vec<_>>(), ["unique", "multiple", "unsolvable"]);
    assert_eq!((records[1]["count"].as_u64(), records[1]["capped"].as_bool()), (Some(5), Some(true)));
    assert_eq!(records[2]["count"], 0);
    assert_eq!(r.code, 1);
}

/// `--timeout` bounds every command, and the batch goes on.
#[test]
fn timeout_bounds_all_unique_count_and_analyze() {
    let input = format!("{NEARLY_BLANK}\n{}\n", TOP[1]);
    for args in [
        &["count", "--timeout", "0.3"][..],
        &["solve", "--all", "--timeout", "0.3"],
        &["analyze", "--timeout", "0.3", "--max", "1000000000"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--format", "json", "--jobs", "1"]);
        let r = run(&args, &input);
        let records = json_lines(&r.stdout);
        let last_of_first = records.iter().rposition(|r| r["index"] == 1).expect("a record of puzzle 1");
        let first = &records[last_of_first];
        assert_eq!(status(first), "error", "{args:?}: {first}");
        assert!(first["error"].as_str().unwrap().contains("no answer within 0.3 s (--timeout)"), "{first}");
        let second = records.last().unwrap();
        assert_eq!((second["index"].as_u64(), status(second) != "error"), (Some(2), true), "{args:?}: {second}");
        assert_eq!(r.code, 2, "{args:?}");
    }
    // --unique on a puzzle whose second solution takes long is bounded too:
    // here the limit is long enough, and the answer stays right.
    let r = run(&["solve", "--unique", "--timeout", "30", "--format", "json"], TOP[0]);
    assert_eq!(status(&json_lines(&r.stdout)[0]), "unique");
}

#[test]
fn solve_all_in_line_format_marks_each_puzzle() {
    let two = "1234341221434321\n12..............\n";
    let r = run(&["solve", "--all", "--format", "line"], two);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "# puzzle 1 (<stdin>:1)", "{}", r.stdout);
    assert_eq!(lines[1], "1234341221434321");
    assert_eq!(lines[2], "# puzzle 2 (<stdin>:2)", "{}", r.stdout);
    let solutions: Vec<&str> = lines[3..].to_vec();
    assert!(solutions.len() > 1 && solutions.iter().all(|l| l.starts_with("12")), "{}", r.stdout);
    // The output reads back as puzzles: the marks are comments.
    let again = run(&["count", "--format", "json"], &r.stdout);
    assert_eq!(json_lines(&again.stdout).len(), 1 + solutions.len(), "{}", again.stderr);
}

/// Diagnostics on stderr come in input order at any --jobs.
#[test]
fn stderr_follows_input_order_with_several_threads() {
    let mut input = String::new();
    for k in 0..300 {
        input.push_str(if k % 3 == 1 { "12345\n" } else { TOP[k % 3] });
        input.push('\n');
    }
    let r = run(&["solve", "--jobs", "2", "--format", "json"], &input);
    let lines: Vec<usize> = r
        .stderr
        .lines()
        .map(|l| l.split(':').nth(2).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{l}")))
        .collect();
    assert_eq!(lines.len(), 100, "{}", r.stderr);
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "out of order: {lines:?}");
    assert_contract(&json_lines(&r.stdout));
}

/// Labelled spreadsheet rows that stop short of a grid are one invalid
/// record, as the same rows without labels are: they were titles, and the
/// last one named the next puzzle (no record, nothing said).
#[test]
fn labelled_rows_cut_short_are_one_record() {
    for (symbols, rows, next) in [
        (None, "R1,1,,,\nR2,3,4,1,2\nR3,2,3,,\n", "1234341221434321"),
        (Some("wxyz"), "R1,w,,,\nR2,y,z,w,x\nR3,x,y,,\n", "wxyzyzwxxwzyzyxw"),
    ] {
        for after in ["\n", "\nTotal,1,,,\n", ""] {
            let input = format!("{rows}{after}{next}\n");
            let mut args = vec!["solve", "--format", "json"];
            args.extend(symbols.iter().flat_map(|s| ["--symbols", *s]));
            let records = json_lines(&run(&args, &input).stdout);
            assert_contract(&records);
            let statuses: Vec<&str> = records.iter().map(status).collect();
            assert_eq!(statuses, ["invalid", "solved"], "{input}");
            assert_eq!(records[0]["source"], "<stdin>:1", "{input}");
            assert!(records[0]["error"].as_str().unwrap().contains("3 rows of 4 cells"), "{input}: {records:?}");
            // Only the line that is a title names the next puzzle, never a cut row.
            let name = records[1].get("name").and_then(Json::as_str);
            assert!(name.is_none_or(|name| name.starts_with("Total")), "{input}: {records:?}");
        }
    }
}

/// On a terminal, where stdout and stderr show together, each diagnostic
/// comes after the records before it and before its own, at any --jobs.
#[test]
fn a_terminal_shows_each_diagnostic_beside_its_record() {
    let mut input = String::new();
    for k in 0..300 {
        input.push_str(if k % 7 == 3 { "12345" } else { TOP[k % 3] });
        input.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(&dir, "batch.txt", &input);
    // `; true`: the bad lines make satdoku exit 2, which `script` passes on.
    // No progress bar among the lines, however slow the machine.
    const NO_BAR: &[(&str, &str)] = &[("SATDOKU_PROGRESS_DELAY_MS", "3600000")];
    let Some(shown) = crate::util::on_a_terminal(&format!("solve --jobs 2 --format line {file}; true"), NO_BAR) else {
        return;
    };
    let mut records = 0;
    let mut diagnostics = 0;
    for line in shown.lines().map(|l| l.trim_end_matches('\r')) {
        let plain: String = strip_escapes(line);
        if let Some(rest) = plain.strip_prefix("satdoku: ") {
            // The diagnostic of puzzle k (input line k) comes after k - 1 records.
            let number: usize =
                rest.split(':').nth(1).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{plain}"));
            assert_eq!(records + 1, number, "diagnostic for line {number} after {records} records:\n{shown}");
            diagnostics += 1;
        } else if !plain.is_empty() {
            records += 1;
        }
    }
    assert_eq!((records, diagnostics), (300, 43), "{shown}");
}

/// `line` without its ANSI colour escapes.
fn strip_escapes(line: &str) -> String {
    let mut plain = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(|c| c.is_ascii_alphabetic());
        } else {
            plain.push(c);
        }
    }
    plain
}

/// What a closed or full stream does: never a panic.
#[test]
fn closed_and_full_streams_are_no_panic() {
    let bin = assert_cmd::cargo::cargo_bin("satdoku");
    // stderr closed at once (`2>&1 | head -1`): diagnostics are dropped, the run goes on.
    let mut child = StdCommand::new(&bin)
        .args(["solve", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let bad = "12345\n".repeat(2000);
    child.stdin.take().unwrap().write_all(bad.as_bytes()).unwrap();
    let code = child.wait().unwrap().code();
    assert_eq!(code, Some(2), "bad input exits 2, never 101 (a panic)");
    // A full stderr (`--stats 2>/dev/full`) and a full stdout.
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        let out = StdCommand::new(&bin)
            .args(["solve", "--stats"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(full)
            .spawn()
            .and_then(|mut c| {
                c.stdin.take().unwrap().write_all(TOP[0].as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "a full stderr is no error of the answer");
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = StdCommand::new(&bin)
            .args(["solve"])
            .stdin(Stdio::piped())
            .stdout(full)
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                c.stdin.take().unwrap().write_all(TOP[0].as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("cannot write to standard output"), "{stderr}");
    }
}

#[test]
fn sizes_from_the_command_line_are_checked() {
    let r = run(&["solve", "--box", "4294967296x4294967296"], TOP[0]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("4294967296x4294967296") && r.stderr.contains("past 1024"), "{}", r.stderr);
    let r = run(&["solve", "--jobs", "20000", "--format", "json"], &format!("{}\n{}\n", TOP[0], TOP[1]));
    assert_eq!((r.code, json_lines(&r.stdout).len()), (0, 2), "{}", r.stderr);
    let r = run(&["solve", "--regions", "maps/missing.txt"], TOP[0]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no such file"), "{}", r.stderr);
}

#[test]
fn errors_are_printed_once() {
    let dir = tempfile::tempdir().unwrap();
    let grid = write_file(&dir, "bad.toml", "size = 9\nboxes = \"2x4\"\n");
    let r = run(&["solve", "--grid", &grid], TOP[0]);
    assert_eq!(r.code, 2);
    let message = "boxes of 2x4 do not tile a 9x9 grid";
    assert_eq!(r.stderr.matches(message).count(), 1, "{}", r.stderr);
}

#[test]
fn bad_bytes_and_huge_lines_are_named_and_skipped() {
    let input = format!("{}\n12\0 34\n{}\n", TOP[0], TOP[1]);
    let r = run(&["solve", "--format", "json"], &input);
    let records = json_lines(&r.stdout);
    assert_eq!(records.iter().map(status).collect::<Vec<_>>(), ["solved", "invalid", "solved"]);
    assert!(records[1]["error"].as_str().unwrap().contains("NUL"), "{}", records[1]);
    // A 20 MB line: refused without being read whole, and what follows is read.
    let huge = format!("{}\n{}\n{}\n", TOP[0], "1".repeat(20 << 20), TOP[2]);
    let r = run(&["solve", "--format", "json"], &huge);
    let records = json_lines(&r.stdout);
    assert_eq!(records.iter().map(status).collect::<Vec<_>>(), ["solved", "invalid", "solved"]);
    assert!(records[1]["error"].as_str().unwrap().len() < 300, "the message does not echo the line");
}

#[test]
fn an_alphabet_shorter_than_the_grid_is_an_invalid_record() {
    let r =
        run(&["solve", "--symbols", "ABCD", "--format", "json"], &TOP[0].replace(|c: char| c.is_ascii_digit(), "A"));
    let records = json_lines(&r.stdout);
    assert_eq!(status(&records[0]), "invalid");
    assert!(records[0]["error"].as_str().unwrap().contains("4 symbols"), "{}", records[0]);
}

/// A blank 256×256 hyper-sudoku (the construction builds plain box grids,
/// and X-sudoku's around their diagonals, but hyper windows cover most of
/// the grid, so it goes to the CDCL search): refused as too large, with
/// the size it would take, before anything is allocated for its CNF (the
/// 1000×1000 is in `nothing_aborts_within_four_gigabytes`). A plain blank
/// 256×256 is solved (`sparse::a_blank_256_is_solved_without_its_formula`),
/// and a plain blank grid is analyzed without its formula
/// (`enumerate::renamings_list_and_count_big_blank_grids_without_a_search`).
#[test]
fn grids_too_large_to_encode_are_refused_with_their_size() {
    for (n, args) in [(256, &["solve", "--variant", "hyper"][..]), (256, &["analyze", "--variant", "hyper"])] {
        let blank = ".".repeat(n * n);
        let mut args = args.to_vec();
        args.extend(["--format", "json"]);
        let r = run(&args, &blank);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        let records = json_lines(&r.stdout);
        assert_eq!(status(&records[0]), "error");
        let error = records[0]["error"].as_str().unwrap();
        assert!(error.contains("too large") && error.contains("--max-literals"), "{error}");
    }
    // The limit is an option: a small one refuses a 9×9 too.
    let r = run(&["solve", "--encoding", "reduced", "--max-literals", "1000", "--format", "json"], TOP[0]);
    assert!(json_lines(&r.stdout)[0]["error"].as_str().unwrap().contains("too large"), "{}", r.stdout);
    // But a puzzle preparation solves needs no formula, whatever the limit
    // (`--max-literals 100` refused this one, which probing solves).
    let r = run(&["solve", "--max-literals", "100", "--format", "json"], TOP[0]);
    assert_eq!(status(&json_lines(&r.stdout)[0]), "solved", "{}", r.stdout);
    let solution = json_lines(&r.stdout)[0]["solution"].as_str().unwrap().to_string();
    crate::util::grids::check(TOP[0], &solution, &Shape::classic(9)).unwrap();
}

/// Within a 4 GB address space, the inputs that used to abort are refused
/// with an error record: a blank 1024×1024 hyper-sudoku (a plain one, or
/// an X-sudoku, is built from matchings: 8.6 s and 140 s for 1000×1000 in
/// a release build), a count of a blank 256×256 (its 256 free values alone
/// give 256! solutions), a 100 MB line.
#[test]
fn nothing_aborts_within_four_gigabytes() {
    let bin = assert_cmd::cargo::cargo_bin("satdoku");
    let cases: [(String, &[&str]); 3] = [
        (".".repeat(1024 * 1024), &["solve", "--variant", "hyper"]),
        (".".repeat(256 * 256), &["count"]),
        ("1".repeat(100 << 20), &["solve"]),
    ];
    for (input, args) in cases {
        let mut child = StdCommand::new("sh")
            .arg("-c")
            .arg("ulimit -v 4194304 && exec \"$0\" \"$@\"")
            .arg(&bin)
            .args(args)
            .args(["--format", "json"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let out = child.wait_with_output().unwrap();
        let _ = writer.join();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let records = json_lines(out.stdout);
        assert_eq!(records.len(), 1, "{args:?}");
        assert!(["error", "invalid"].contains(&status(&records[0])), "{args:?}: {}", records[0]);
    }
}

/// `analyze --redundant` on a pencil-mark puzzle (whose givens are cells
/// with one candidate) is an error record that says why, not an empty list.
#[test]
fn redundant_givens_of_pencil_marks_are_refused_not_guessed() {
    // The 4×4 1.3.....2..4.... in pencil marks: a given is its one value in
    // place, an open cell has every candidate.
    let marks: String = "1.3.....2..4...."
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(v) => (1..=4).map(|d| if d == v { char::from_digit(d, 10).unwrap() } else { '.' }).collect(),
            None => "1234".to_string(),
        })
        .collect();
    let r = run(&["analyze", "--redundant", "--box", "2x2", "--format", "json"], &format!("{marks}\n"));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let records = json_lines(&r.stdout);
    assert_eq!(records.len(), 1, "{}", r.stdout);
    assert_eq!(status(&records[0]), "error", "{}", records[0]);
    assert!(records[0]["error"].as_str().unwrap().contains("pencil marks"), "{}", records[0]);
    // Without --redundant the same puzzle is analysed.
    let r = run(&["analyze", "--box", "2x2", "--format", "json"], &format!("{marks}\n"));
    assert!(["unique", "multiple"].contains(&status(&json_lines(&r.stdout)[0])), "{}", r.stdout);
}
