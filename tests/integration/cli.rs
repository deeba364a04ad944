//! `satdoku solve` from the outside: inputs, formats, grid options, exit codes
//! and messages. Every solution printed is checked by the independent checker.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command as StdCommand, Stdio};

use serde_json::Value as Json;
use tempfile::TempDir;

use crate::util::checker::{self, assert_solves, read_numbers, read_solution_line, read_symbols, repo_path, Shape};
use crate::util::grids::shape_of_grid_file;
use crate::util::{json_lines, json_run, run, satdoku, write_file, Run};

const TOP1: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const TOP2: &str = "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....";
/// Two 5s in row 1 (r1c1 and r1c9).
const CLASH: &str = "5.......5........................................................................";

/// Check a JSON record is solved with a correct solution of `givens` on `shape`.
fn assert_json_solved(record: &Json, index: u64, shape: &Shape, givens: &[usize], alphabet: Option<&str>) {
    assert_eq!(record["index"], index, "{record}");
    assert_eq!(record["status"], "solved", "{record}");
    let solution = read_solution_line(record["solution"].as_str().expect("a solution string"), alphabet);
    assert_solves(shape, givens, &solution, &record.to_string());
}

// ---------- inputs ----------

#[test]
fn stdin_line_format_prints_checked_solutions() {
    let r = run(&["solve", "--format", "line"], &format!("{TOP1}\n{TOP2}\n"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    assert_solves(&Shape::classic(9), &read_symbols(TOP1), &read_solution_line(lines[0], None), "top1");
    assert_solves(&Shape::classic(9), &read_symbols(TOP2), &read_solution_line(lines[1], None), "top2");
    assert!(r.stderr.is_empty(), "nothing on stderr when all is well: {}", r.stderr);
}

#[test]
fn default_format_on_a_pipe_is_line() {
    let r = run(&["solve"], &format!("{TOP1}\n"));
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout.lines().count(), 1);
    assert_solves(&Shape::classic(9), &read_symbols(TOP1), &read_solution_line(&r.stdout, None), "top1");
}

#[test]
fn files_and_dash_in_order_with_running_index() {
    let dir = TempDir::new().unwrap();
    let a = write_file(&dir, "a.txt", &format!("# first file\n{TOP1}\n{TOP2}\n"));
    let b = write_file(&dir, "b.txt", &format!("{TOP2}\n"));
    let r = run(&["solve", "--format", "json", &a, "-", &b], &format!("{TOP1}\n"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let recs = json_lines(&r.stdout);
    let expected = [TOP1, TOP2, TOP1, TOP2];
    assert_eq!(recs.len(), expected.len());
    for (i, (rec, puzzle)) in recs.iter().zip(expected).enumerate() {
        assert_json_solved(rec, i as u64 + 1, &Shape::classic(9), &read_symbols(puzzle), None);
    }
}

#[test]
fn the_whole_top95_file() {
    let path = checker::data_path("top95.txt");
    let r = run(&["solve", "--format", "json", path.to_str().unwrap()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let recs = json_lines(&r.stdout);
    let lines = checker::data_lines("top95.txt");
    assert_eq!(recs.len(), lines.len());
    for (i, (rec, line)) in recs.iter().zip(&lines).enumerate() {
        assert_json_solved(rec, i as u64 + 1, &Shape::classic(9), &read_symbols(line), None);
    }
}

// ---------- formats ----------

#[test]
fn grid_format_draws_boxes_and_holds_the_solution() {
    let r = run(&["solve", "--format", "grid"], &format!("{TOP1}\n{TOP2}\n"));
    assert_eq!(r.code, 0);
    // Each record: a header line, then 9 rows and 2 rules, then a blank line.
    let blocks: Vec<&str> = r.stdout.split("\n\n").filter(|b| !b.trim().is_empty()).collect();
    assert_eq!(blocks.len(), 2, "{}", r.stdout);
    for (block, puzzle) in blocks.iter().zip([TOP1, TOP2]) {
        let lines: Vec<&str> = block.lines().collect();
        assert_eq!(lines.len(), 1 + 9 + 2, "{block}");
        let mut cells = Vec::new();
        for (k, line) in lines[1..].iter().enumerate() {
            if k == 3 || k == 7 {
                assert!(line.chars().all(|c| c == '-' || c == '+'), "a rule between bands: {line:?}");
                assert_eq!(line.matches('+').count(), 2, "{line:?}");
                continue;
            }
            assert_eq!(line.matches('|').count(), 2, "two borders between stacks: {line:?}");
            let bars: Vec<usize> = line.match_indices('|').map(|(i, _)| i).collect();
            let before: Vec<char> = line[..bars[0]].chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(before.len(), 3, "three cells before the first border: {line:?}");
            cells.extend(
                line.chars().filter(|c| !c.is_whitespace() && *c != '|').map(|c| checker::symbol_value(c).unwrap()),
            );
        }
        assert_solves(&Shape::classic(9), &read_symbols(puzzle), &cells, "grid format");
    }
}

#[test]
fn json_records_have_index_status_and_solution_or_error() {
    let input = format!("{TOP1}\n{CLASH}\n{}\n{TOP2}\n", &TOP1[..80]);
    let r = run(&["solve", "--format", "json"], &input);
    assert_eq!(r.code, 2, "bad input wins over unsolvable: {}", r.stderr);
    let recs = json_lines(&r.stdout);
    assert_eq!(recs.len(), 4, "{}", r.stdout);
    assert_json_solved(&recs[0], 1, &Shape::classic(9), &read_symbols(TOP1), None);
    assert_eq!(recs[1]["index"], 2);
    assert_eq!(recs[1]["status"], "unsolvable");
    assert!(recs[1].get("solution").is_none(), "{}", recs[1]);
    assert_eq!(recs[2]["index"], 3);
    assert_eq!(recs[2]["status"], "invalid");
    let error = recs[2]["error"].as_str().expect("an error message");
    assert!(error.contains(":3"), "the error names line 3: {error}");
    assert!(error.contains("80"), "the error says how many cells: {error}");
    assert_json_solved(&recs[3], 4, &Shape::classic(9), &read_symbols(TOP2), None);
}

// ---------- exit codes ----------

#[test]
fn exit_1_when_some_puzzle_has_no_solution_and_the_message_names_unit_and_value() {
    let r = run(&["solve", "--format", "line"], &format!("{TOP1}\n{CLASH}\n{TOP2}\n"));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", r.stdout);
    assert_solves(&Shape::classic(9), &read_symbols(TOP1), &read_solution_line(lines[0], None), "1");
    assert!(lines[1].contains("unsolvable"), "{}", lines[1]);
    assert!(lines[1].contains("puzzle 2"), "names the puzzle: {}", lines[1]);
    assert!(lines[1].contains("row 1"), "names the unit: {}", lines[1]);
    assert!(lines[1].contains('5'), "names the value: {}", lines[1]);
    assert_solves(&Shape::classic(9), &read_symbols(TOP2), &read_solution_line(lines[2], None), "3");
    // A clash in a column and in a box too.
    let mut column = ['.'; 81];
    column[4] = '7';
    column[76] = '7';
    let mut boxed = ['.'; 81];
    boxed[0] = '3';
    boxed[20] = '3';
    for (text, unit) in [(column, "column 5"), (boxed, "box 1")] {
        let text: String = text.iter().collect();
        let r = run(&["solve", "--format", "json"], &format!("{text}\n"));
        assert_eq!(r.code, 1);
        let rec = &json_lines(&r.stdout)[0];
        assert_eq!(rec["status"], "unsolvable");
        let why = rec.to_string();
        assert!(why.contains(unit), "names {unit}: {why}");
    }
    // Every command that says "unsolvable" says why, in the same words.
    for command in ["solve", "count", "analyze"] {
        let rec = &json_run(&[command, "--format", "json"], &format!("{CLASH}\n"), 1, 1)[0];
        assert_eq!(rec["status"], "unsolvable", "{command}");
        let reason = rec["reason"].as_str().unwrap_or_else(|| panic!("{command}: no reason: {rec}"));
        assert!(reason.contains("row 1") && reason.contains('5'), "{command}: {reason}");
    }
}

#[test]
fn unsolvable_without_a_clash_exits_1() {
    // No two givens clash, but r1c9 can hold nothing: row 1 has 1-8, column 9 has 9.
    let mut text = String::from("12345678.");
    text.push_str("........9");
    text.push_str(&".".repeat(63));
    let recs = json_run(&["solve", "--format", "json"], &format!("{text}\n"), 1, 1);
    assert_eq!(recs[0]["status"], "unsolvable");
}

#[test]
fn too_few_values_for_the_cells_is_named_in_the_reason() {
    // Latin 9: columns 1-5 hold 5-9 in rows 2-6, so r1c1 … r1c5 share only
    // 1-4. Each has four candidates (too many to probe), and every value
    // still has a place in row 1: only the all-different filter sees it.
    let rows = ["", "56789", "67895", "78956", "89567", "95678", "", "", ""];
    let text: String = rows.iter().map(|r| format!("{r:.<9}")).collect();
    let recs = json_run(&["solve", "--latin", "--format", "json"], &format!("{text}\n"), 1, 1);
    assert_eq!(recs[0]["status"], "unsolvable");
    assert_eq!(
        recs[0]["reason"],
        "in row 1, the 5 cells r1c1, r1c2, r1c3, r1c4, r1c5 have only 4 values between them (1, 2, 3, 4)",
        "{}",
        recs[0]
    );
}

#[test]
fn exit_0_on_empty_input() {
    let r = run(&["solve"], "");
    assert_eq!(r.code, 0);
    assert!(r.stdout.is_empty());
    let r = run(&["solve"], "# only a comment\n\n");
    assert_eq!(r.code, 0);
    assert!(r.stdout.is_empty());
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["solve", "--format", "yaml"], TOP1).code, 2);
    assert_eq!(run(&["solve", "--variant", "zigzag"], TOP1).code, 2);
    assert_eq!(run(&["solve", "--box", "3by3"], TOP1).code, 2);
    assert_eq!(run(&["frobnicate"], "").code, 2);
}

/// An option that needs another is refused without it, also beside an
/// option that conflicts with the one it needs (clap lets its `requires`
/// pass then, clap-rs/clap#4520: `solve --unique --max 3` ran with --max
/// unread).
#[test]
fn an_option_without_the_one_it_needs_is_refused() {
    for args in [
        &["solve", "--max", "3"][..],
        &["solve", "--unique", "--max", "3"],
        &["analyze", "--show-candidates", "round"],
        &["analyze", "--counts", "--show-candidates", "round"],
        &["analyze", "--redundant", "--show-candidates", "round"],
        &["solve", "--out-dir", "."],
    ] {
        let r = run(args, TOP1);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(
            r.stderr.contains("--max") || r.stderr.contains("--show-candidates") || r.stderr.contains("--out-dir"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

/// A negative number, a word or a number out of range where a number goes
/// is named with what is expected: `--timeout -1` was "unexpected argument
/// '-1' found" (and `-1e-9`, `-.5` and `-inf`, which clap does not take for
/// numbers, stayed so), `--jobs abc` and `generate -n -1` "invalid digit
/// found in string".
#[test]
fn a_wrong_number_for_an_option_says_what_is_expected() {
    for (args, expected) in [
        (&["solve", "--timeout", "-1"][..], "not a positive number of seconds"),
        (&["count", "--timeout", "-0.5"], "not a positive number of seconds"),
        (&["solve", "--timeout", "-1e-9"], "'-1e-9' is not a positive number of seconds"),
        (&["analyze", "--timeout", "-.5"], "'-.5' is not a positive number of seconds"),
        (&["explain", "--timeout", "-inf"], "'-inf' is not a positive number of seconds"),
        (&["solve", "--jobs", "99999999999999999999"], "'99999999999999999999' is too large for a number of threads"),
        (&["generate", "-n", "-1"], "'-1' is not a number of puzzles (expected 0 or more)"),
        (&["generate", "--seed", "-1"], "'-1' is not a seed (expected 0 to 9007199254740991)"),
        (
            &["generate", "--seed", "9007199254740992"],
            "'9007199254740992' is too large for a seed (expected 0 to 9007199254740991)",
        ),
        (&["generate", "--tries", "0"], "'0' is too small for a number of tries (expected 1 or more)"),
        (&["generate", "--size", "-9"], "'-9' is not a side (expected 1 to 1024)"),
        (&["generate", "--mix", "x"], "'x' is not a number of block moves (expected 0 or more)"),
        (&["minimize", "--seed", "-3"], "'-3' is not a seed (expected 0 or more)"),
        (&["dimacs", "--max-literals", "-5"], "'-5' is not a number of literals (expected 0 or more)"),
        (&["solve", "--first-line", "0"], "'0' is too small for a line number (expected 1 to"),
        (&["solve", "--first-index", "-2"], "'-2' is not an index (expected 1 to"),
        (&["solve", "--jobs", "-1"], "not a number of threads (expected 0 or more"),
        (&["solve", "-j", "abc"], "not a number of threads (expected 0 or more"),
        (&["generate", "--jobs", "-2"], "not a number of threads (expected 0 or more"),
        (&["count", "--max", "-1"], "not a number of solutions (expected 1 or more)"),
        (&["solve", "--all", "--max", "-3"], "not a number of solutions (expected 1 or more)"),
        (&["analyze", "--max", "-1"], "not a number of solutions (expected 0 or more)"),
    ] {
        assert_usage_error(args, expected);
    }
}

/// `args` are a usage error (exit 2, nothing on stdout) whose message holds `expected`.
fn assert_usage_error(args: &[&str], expected: &str) {
    let r = run(args, TOP1);
    assert_eq!(r.code, 2, "{args:?}");
    assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
    assert!(r.stderr.contains(expected), "{args:?}: {}", r.stderr);
    assert!(!r.stderr.contains("-- --"), "{args:?}: {}", r.stderr);
}

/// `--timeout` with its value left out, before another option, says so:
/// `generate --timeout --jobs 2` took `--jobs` for the seconds and said
/// "unexpected argument '2' found".
#[test]
fn an_option_where_the_timeout_goes_says_the_value_is_missing() {
    for (args, expected) in [
        (
            &["generate", "--timeout", "--jobs", "2"][..],
            "--timeout needs a value, and --jobs, given after it, is an option",
        ),
        (&["solve", "--timeout", "-j", "2"], "--timeout needs a value, and -j, given after it, is an option"),
        (&["count", "--timeout", "--max=3"], "--timeout needs a value, and --max, given after it"),
        (&["solve", "--timeout", "--box", "2x2"], "--timeout needs a value, and --box, given after it"),
    ] {
        assert_usage_error(args, expected);
    }
    // A number is still the timeout's, and named if it is wrong.
    assert_usage_error(&["solve", "--timeout", "-1", "--jobs", "1"], "'-1' is not a positive number of seconds");
}

/// An option of other commands, given to one that takes none of it, is
/// named with the commands that take it: it was clap's "unexpected
/// argument", with a tip to pass it as a file name (`-- --jobs`).
#[test]
fn an_option_of_another_command_names_the_commands_that_take_it() {
    for (args, expected) in [
        (
            &["dimacs", "--jobs", "2"][..],
            "--jobs is an option of `solve`, `count`, `analyze`, `explain`, `generate` and `minimize`, not of `dimacs`",
        ),
        (&["dimacs", "-j2"], "-j is an option of `solve`"),
        (&["dimacs", "--timeout=3"], "--timeout is an option of `solve`, `count`, `decode`,"),
        (&["generate", "--all"], "--all is an option of `solve`, not of `generate`"),
        (&["decode", "--all"], "--all is an option of `solve`, not of `decode`"),
    ] {
        assert_usage_error(args, expected);
    }
    // An option no command takes keeps clap's message and its suggestion,
    // and so does one clap finds a near name for (`--out-dir`), and one of
    // the command given before its name, not after.
    for (args, expected) in [
        (&["solve", "--frobnicate"][..], "unexpected argument '--frobnicate'"),
        (&["solve", "--out", "x.cnf"], "a similar argument exists: '--out-dir'"),
        (&["--jobs", "2", "solve"], "unexpected argument '--jobs'"),
    ] {
        assert_usage_error(args, expected);
    }
    // An argument that is no UTF-8 beside it is no panic (exit 101).
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = std::ffi::OsStr::from_bytes(b"\xff.txt");
        let out = satdoku().args(["solve", "--bogus"]).arg(bytes).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn timeout_gives_up_on_one_puzzle_and_the_batch_goes_on() {
    // A 25x25 that varisat needs many seconds for (about 19 s on the project
    // machine), between two that take milliseconds.
    let easy = checker::data_lines("gecode-25x25.txt");
    let hard = checker::data_lines("gecode-25x25-hard.txt").remove(0);
    let input = format!("{}\n{hard}\n{}\n", easy[0], easy[1]);
    let r = run(&["solve", "--timeout", "0.5", "--jobs", "1", "--format", "json"], &input);
    // A limit that did nothing would give three solved records.
    assert_eq!(r.code, 2, "{}", r.stderr);
    let recs = json_lines(&r.stdout);
    assert_eq!(recs.len(), 3, "{}", r.stdout);
    assert_json_solved(&recs[0], 1, &Shape::classic(25), &read_symbols(&easy[0]), None);
    assert_eq!(recs[1]["index"], 2);
    assert_eq!(recs[1]["status"], "error", "{}", recs[1]);
    assert!(recs[1]["error"].as_str().unwrap().contains("--timeout"), "{}", recs[1]);
    assert!(r.stderr.contains("puzzle 2") && r.stderr.contains("no answer within 0.5 s"), "{}", r.stderr);
    assert_json_solved(&recs[2], 3, &Shape::classic(25), &read_symbols(&easy[1]), None);
}

/// A signal ends satdoku with the records answered before it printed, each
/// whole: into a pipe they sat in stdout's buffer, and were lost (the
/// first 64 answered records, with the diagnostic of the 64th already on
/// stderr, and nothing on stdout).
/// `satdoku solve --format json --jobs JOBS` under way on `input`, its
/// stdin closed, its stdout and stderr piped.
fn solving_in_json(jobs: &str, input: &str) -> std::process::Child {
    let mut child = spawn_piped(&["solve", "--format", "json", "--jobs", jobs]);
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child
}

/// satdoku under way with `args`, its stdin, stdout and stderr piped.
fn spawn_piped(args: &[&str]) -> std::process::Child {
    StdCommand::new(assert_cmd::cargo::cargo_bin("satdoku"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// docs/cli.md: a script keeps satdoku open, writes a puzzle and two blank
/// lines, and reads its answer before it writes the next. After one blank
/// line a 4×4 on one line (16 cells, or 25 for a 5×5 with `--latin`) could
/// still be the first row of a 16×16 written with a blank line after each
/// row; the second ends any grid. Labelled rows (`A: 4 . . …`) got no answer
/// until stdin closed even so: their reading looked a line past the blank.
#[test]
fn a_script_gets_each_answer_before_it_writes_the_next_puzzle() {
    let spaced = |p: &str| p.chars().map(String::from).collect::<Vec<_>>().join(" ");
    let grid = |p: &str| {
        p.as_bytes().chunks(9).map(|row| String::from_utf8_lossy(row).into_owned()).collect::<Vec<_>>().join("\n")
    };
    let sixteen = checker::data_lines("gecode-16x16.txt");
    // Rows labelled as `first` labels the first row: `A: `, `1: `, `Row 1: `, `a) `.
    let labelled = |p: &str, first: &str| {
        let n = checker::side(p.len());
        let label = |i: usize| match first {
            "A: " => format!("{}: ", char::from(b'A' + i as u8)),
            "a) " => format!("{}) ", char::from(b'a' + i as u8)),
            "1: " => format!("{}: ", i + 1),
            _ => format!("Row {}: ", i + 1),
        };
        (0..n).map(|i| label(i) + &spaced(&p[i * n..(i + 1) * n])).collect::<Vec<_>>().join("\n")
    };
    let cases: Vec<(&[&str], Shape, [String; 2])> = vec![
        (&[], Shape::classic(4), ["1...2......3..4.".into(), ".2....1..3.....4".into()]),
        (&["--latin"], Shape::latin(5), ["1....2....3....4....5....".into(), "12.......3.....4.....5...".into()]),
        (
            &[],
            Shape::boxes(6, 2, 3),
            [spaced("..41.......2.2.4....65..1..6..4....."), spaced("1.....2.....3.....4.....5.....6.....")],
        ),
        (&[], Shape::classic(9), [TOP1.into(), spaced(TOP2)]),
        (&[], Shape::classic(9), [grid(TOP1), grid(TOP2)]),
        (&[], Shape::classic(16), [sixteen[0].clone(), sixteen[1].clone()]),
        (&[], Shape::classic(9), [labelled(TOP1, "A: "), labelled(TOP2, "Row 1: ")]),
        (&[], Shape::classic(4), [labelled("1...2......3..4.", "1: "), labelled(".2....1..3.....4", "a) ")]),
    ];
    for (options, shape, puzzles) in cases {
        let mut child = spawn_piped(&[&["solve", "--format", "json"], options].concat());
        let mut stdin = child.stdin.take().unwrap();
        let (answers, answered) = std::sync::mpsc::channel();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        std::thread::spawn(move || stdout.lines().map_while(Result::ok).try_for_each(|line| answers.send(line)));
        for (i, puzzle) in puzzles.iter().enumerate() {
            stdin.write_all(format!("{puzzle}\n\n\n").as_bytes()).unwrap();
            stdin.flush().unwrap();
            // Not a measure of speed: without the answer satdoku waits for
            // the script, and the script for satdoku, for ever.
            let answer = answered.recv_timeout(std::time::Duration::from_secs(60));
            let answer = answer.unwrap_or_else(|_| panic!("{options:?} {puzzle:?}: no answer while stdin is open"));
            let record: Json = serde_json::from_str(&answer).unwrap();
            let cells = puzzle.lines().map(|row| row.rsplit([':', ')']).next().unwrap()).collect::<String>();
            let givens: Vec<usize> = read_symbols(&cells.replace(' ', ""));
            assert_json_solved(&record, i as u64 + 1, &shape, &givens, None);
        }
        drop(stdin);
        assert!(child.wait().unwrap().success(), "{options:?}");
    }
}

#[test]
fn a_signal_prints_the_records_answered_before_it() {
    let easy: Vec<String> = checker::data_lines("17-clue-500.txt").into_iter().take(63).collect();
    let hard = checker::data_lines("gecode-25x25-hard.txt").remove(0);
    // 63 puzzles and a line that is none, two blank lines after it as a
    // script ends each puzzle (a line of 79 cells may be the first of a
    // puzzle wrapped across lines); once their records are out, a 25×25
    // that takes varisat seconds, kept from their chunk (the input pauses
    // before it).
    let first = format!("{}\n{}\n\n\n", easy.join("\n"), ".".repeat(79));
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        for jobs in ["1", "2"] {
            let mut child = spawn_piped(&["solve", "--format", "json", "--jobs", jobs]);
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(first.as_bytes()).unwrap();
            // The 64th record's diagnostic on stderr: the 64 records are written.
            let mut stderr = BufReader::new(child.stderr.take().unwrap());
            let mut line = String::new();
            while !line.contains("starts no puzzle") {
                line.clear();
                assert!(stderr.read_line(&mut line).unwrap() > 0, "satdoku ended first");
            }
            stdin.write_all(format!("{hard}\n").as_bytes()).unwrap();
            drop(stdin);
            std::thread::sleep(std::time::Duration::from_millis(300));
            // SAFETY: kill(2) on the child's own process id.
            assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
            let out = child.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(code), "signal {signal}, --jobs {jobs}");
            assert!(out.stdout.ends_with(b"\n"), "a record cut short: {}", String::from_utf8_lossy(&out.stdout));
            let recs = json_lines(&out.stdout);
            assert_eq!(recs.len(), 64, "signal {signal}, --jobs {jobs}");
            for (i, (rec, givens)) in recs.iter().zip(&easy).enumerate() {
                assert_json_solved(rec, i as u64 + 1, &Shape::classic(9), &read_symbols(givens), None);
            }
            assert_eq!(recs[63]["status"], "invalid", "{}", recs[63]);
        }
    }
}

/// With `--jobs` above 1 a chunk of 64 puzzles was printed only once all
/// of it was answered: a signal lost the records answered of the chunk under
/// way (all 20 here, before three puzzles of about 12 s each).
#[test]
fn a_signal_prints_the_records_answered_of_the_chunk_under_way() {
    let easy: Vec<String> = checker::data_lines("17-clue-500.txt").into_iter().take(20).collect();
    let hard = checker::data_lines("gecode-25x25-hard.txt").remove(0);
    let input = format!("{}\n{}", easy.join("\n"), format!("{hard}\n").repeat(3));
    let child = solving_in_json("2", &input);
    // Nothing shows how far a chunk is: 20 17-clue puzzles take milliseconds.
    std::thread::sleep(std::time::Duration::from_secs(3));
    // SAFETY: kill(2) on the child's own process id.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.ends_with(b"\n"), "a record cut short: {}", String::from_utf8_lossy(&out.stdout));
    let recs = json_lines(&out.stdout);
    assert!((20..23).contains(&recs.len()), "{} records", recs.len());
    for (i, rec) in recs.iter().enumerate() {
        match easy.get(i) {
            Some(givens) => assert_json_solved(rec, i as u64 + 1, &Shape::classic(9), &read_symbols(givens), None),
            // A machine fast enough to answer a hard one in time.
            None => assert_json_solved(rec, i as u64 + 1, &Shape::classic(25), &read_symbols(&hard), None),
        }
    }
}

// ---------- puzzle text forms ----------

fn block_of(line: &str) -> String {
    let mut out = String::new();
    for r in 0..9 {
        if r == 3 || r == 6 {
            out.push_str("------+-------+------\n");
        }
        for c in 0..9 {
            if c == 3 || c == 6 {
                out.push_str("| ");
            }
            out.push(line.as_bytes()[r * 9 + c] as char);
            out.push(' ');
        }
        out.push('\n');
    }
    out
}

#[test]
fn block_format_with_borders_crlf_and_bom() {
    let text = format!("\u{feff}{}\n{}", block_of(TOP1), block_of(TOP2)).replace('\n', "\r\n");
    let recs = json_run(&["solve", "--format", "json"], &text, 0, 2);
    assert_json_solved(&recs[0], 1, &Shape::classic(9), &read_symbols(TOP1), None);
    assert_json_solved(&recs[1], 2, &Shape::classic(9), &read_symbols(TOP2), None);
    // A BOM and CRLF on a line file too.
    let recs = json_run(&["solve", "--format", "json"], &format!("\u{feff}{TOP1}\r\n{TOP2}\r\n"), 0, 2);
    assert_json_solved(&recs[0], 1, &Shape::classic(9), &read_symbols(TOP1), None);
}

#[test]
fn block_format_without_spaces_and_with_digits_zero() {
    let rows: Vec<String> =
        TOP1.replace('.', "0").as_bytes().chunks(9).map(|c| String::from_utf8(c.to_vec()).unwrap()).collect();
    let recs = json_run(&["solve", "--format", "json"], &(rows.join("\n") + "\n"), 0, 1);
    assert_json_solved(&recs[0], 1, &Shape::classic(9), &read_symbols(TOP1), None);
}

/// Project Euler style: a "Grid NN" line, then 9 rows of digits, 0 empty.
/// (Our own puzzles, written here; Project Euler's file is never copied.)
#[test]
fn project_euler_style_input() {
    let mut text = String::new();
    for (k, p) in [TOP1, TOP2, TOP1].iter().enumerate() {
        text.push_str(&format!("Grid {:02}\n", k + 1));
        for row in p.replace('.', "0").as_bytes().chunks(9) {
            text.push_str(std::str::from_utf8(row).unwrap());
            text.push('\n');
        }
    }
    let recs = json_run(&["solve", "--format", "json"], &text, 0, 3);
    for (i, p) in [TOP1, TOP2, TOP1].iter().enumerate() {
        assert_json_solved(&recs[i], i as u64 + 1, &Shape::classic(9), &read_symbols(p), None);
    }
    // Optional cross-check against the real file, where it is present locally.
    if let Some(path) = checker::shared_data("9x9/euler-96.txt") {
        let r = run(&["solve", "--format", "json", path.to_str().unwrap()], "");
        assert_eq!(r.code, 0, "{}", r.stderr);
        let recs = json_lines(&r.stdout);
        let text = std::fs::read_to_string(&path).unwrap();
        let grids: Vec<Vec<usize>> = text
            .split("Grid")
            .filter(|g| !g.trim().is_empty())
            .map(|g| {
                g.lines().skip(1).flat_map(|l| l.trim().chars()).map(|c| checker::symbol_value(c).unwrap()).collect()
            })
            .collect();
        assert_eq!(recs.len(), grids.len());
        for (i, g) in grids.iter().enumerate() {
            assert_json_solved(&recs[i], i as u64 + 1, &Shape::classic(9), g, None);
        }
    }
}

#[test]
fn whitespace_separated_numbers() {
    // The 16×16 Kwon & Jain grid as rows of numbers, and the same 9×9 as one line of numbers.
    let path = checker::data_path("kwon-jain-table4-1.txt");
    let givens = read_numbers(&std::fs::read_to_string(&path).unwrap());
    let recs = json_run(&["solve", "--format", "json", path.to_str().unwrap()], "", 0, 1);
    assert_json_solved(&recs[0], 1, &Shape::classic(16), &givens, None);

    let nine: Vec<String> = read_symbols(TOP1).iter().map(|v| v.to_string()).collect();
    let rows: Vec<String> = nine.chunks(9).map(|r| r.join("  ")).collect();
    let recs = json_run(&["solve", "--format", "json"], &(rows.join("\n") + "\n"), 0, 1);
    assert_json_solved(&recs[0], 1, &Shape::classic(9), &read_symbols(TOP1), None);
}

/// Past n = 35 the solution line is numbers separated by spaces.
#[test]
fn thirty_six_by_thirty_six_in_numbers() {
    let path = checker::data_path("kwon-jain-table6-1.txt");
    let givens = read_numbers(&std::fs::read_to_string(&path).unwrap());
    let r = run(&["solve", "--format", "line", path.to_str().unwrap()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r.stdout.lines().next().unwrap();
    assert_eq!(line.split(' ').count(), 36 * 36, "numbers separated by single spaces");
    assert_solves(&Shape::classic(36), &givens, &read_solution_line(line, None), "36x36");
}

/// Kwon & Jain's 49×49 table7-4 was made from a pattern grid and its givens
/// show the groups: `--stats` says the guess solved it, and
/// `--no-pattern-guess` answers it without one. Both answers are checked.
#[test]
fn the_pattern_guess_is_reported_and_can_be_turned_off() {
    let path = checker::data_path("kwon-jain-table7-4.txt");
    let givens = read_numbers(&std::fs::read_to_string(&path).unwrap());
    for (extra, guessed) in [(None, true), (Some("--no-pattern-guess"), false)] {
        let mut args = vec!["solve", "--stats", "--format", "json", path.to_str().unwrap()];
        args.extend(extra);
        let r = run(&args, "");
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_json_solved(&json_lines(&r.stdout)[0], 1, &Shape::classic(49), &givens, None);
        assert_eq!(r.stderr.contains("pattern guess: solved"), guessed, "{extra:?}: {}", r.stderr);
        assert_eq!(r.stderr.contains("pattern guess"), guessed, "{extra:?}: {}", r.stderr);
    }
}

/// `--stats` says what varisat's search cost in conflicts when varisat
/// searched, and nothing of conflicts when the answer came from
/// preparation. The full encoding leaves the hardest of top95 to the solver
/// (it has conflicts); propagation and probing leave a 17-clue puzzle none.
#[test]
fn stats_count_the_conflicts_of_a_search() {
    let conflicts = |stderr: &str| -> Option<u64> {
        let (_, rest) = stderr.rsplit_once(" (")?;
        rest.split_once(" conflicts)")?.0.parse().ok()
    };
    let hard = checker::data_lines("top95.txt").into_iter().next().unwrap();
    let r = run(&["solve", "--stats", "--encoding", "full", "-j1"], &format!("{hard}\n"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(conflicts(&r.stderr).is_some_and(|c| c > 0), "{}", r.stderr);
    let easy = checker::data_lines("17-clue-500.txt").into_iter().next().unwrap();
    let r = run(&["solve", "--stats", "-j1"], &format!("{easy}\n"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("0 variables"), "solved in preparation: {}", r.stderr);
    assert!(!r.stderr.contains("conflicts"), "{}", r.stderr);
}

// ---------- grid options ----------

#[test]
fn box_shapes_decide_six_by_six_answers() {
    let lines = checker::data_lines("6x6-known-counts.txt");
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        let (r, c) = fields[1].split_once('x').unwrap();
        let shape = Shape::boxes(6, r.parse().unwrap(), c.parse().unwrap());
        let count: u64 = fields[2].parse().unwrap();
        let out = run(&["solve", "--format", "json", "--box", fields[1]], &format!("{}\n", fields[0]));
        let recs = json_lines(&out.stdout);
        assert_eq!(recs.len(), 1);
        if count == 0 {
            assert_eq!(out.code, 1, "{line}");
            assert_eq!(recs[0]["status"], "unsolvable", "{line}");
        } else {
            assert_eq!(out.code, 0, "{line}: {}", out.stderr);
            assert_json_solved(&recs[0], 1, &shape, &read_symbols(fields[0]), None);
        }
    }
    // Without --box, 6×6 means 2×3 boxes.
    let first = "....1..2...3.....4..56........34....";
    let out = run(&["solve", "--format", "json"], &format!("{first}\n"));
    assert_eq!(out.code, 0);
    assert_json_solved(&json_lines(&out.stdout)[0], 1, &Shape::boxes(6, 2, 3), &read_symbols(first), None);
}

#[test]
fn latin_squares_of_prime_and_other_sizes() {
    for n in [5usize, 7, 9] {
        let mut givens = vec![0; n * n];
        givens[0] = 1;
        givens[n + 1] = 2; // r2c2
        let text: String =
            givens.iter().map(|&v| if v == 0 { '.' } else { char::from_digit(v as u32, 10).unwrap() }).collect();
        let r = run(&["solve", "--format", "json", "--latin"], &format!("{text}\n"));
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_json_solved(&json_lines(&r.stdout)[0], 1, &Shape::latin(n), &givens, None);
    }
    // A Latin square is not a sudoku: a 9×9 Latin solution need not have valid boxes,
    // but a given pattern that breaks only a box is fine.
    let mut text = ['.'; 81];
    text[0] = '1';
    text[10] = '1'; // r2c2: same box, different row and column
    let text: String = text.iter().collect();
    assert_eq!(run(&["solve", "--latin"], &format!("{text}\n")).code, 0);
    assert_eq!(run(&["solve"], &format!("{text}\n")).code, 1);
}

const JIGSAW_6: &str = "AAABBB\nAACCBB\nDACCCB\nDDECFF\nDDEEFF\nDEEEFF\n";
const JIGSAW_6_PUZZLE: &str = "1.............2......3.............4";

fn jigsaw_6_shape() -> Shape {
    let map: Vec<usize> = JIGSAW_6.chars().filter(|c| !c.is_whitespace()).map(|c| c as usize).collect();
    Shape::jigsaw(6, &map)
}

#[test]
fn regions_as_a_map_string_and_as_a_file() {
    let dir = TempDir::new().unwrap();
    let file = write_file(&dir, "regions.txt", &format!("# six irregular regions\n{JIGSAW_6}"));
    let inline = JIGSAW_6.replace('\n', "");
    for regions in [inline.as_str(), file.as_str()] {
        let r = run(&["solve", "--format", "json", "--regions", regions], &format!("{JIGSAW_6_PUZZLE}\n"));
        assert_eq!(r.code, 0, "{regions}: {}", r.stderr);
        assert_json_solved(&json_lines(&r.stdout)[0], 1, &jigsaw_6_shape(), &read_symbols(JIGSAW_6_PUZZLE), None);
    }
    // Givens that clash in a region (r1c1 and r3c2 are both in region A) are unsolvable.
    let mut clash = vec!['.'; 36];
    clash[0] = '5';
    clash[13] = '5';
    let clash: String = clash.into_iter().collect();
    let r = run(&["solve", "--format", "json", "--regions", &inline], &format!("{clash}\n"));
    assert_eq!(r.code, 1);
    assert_eq!(json_lines(&r.stdout)[0]["status"], "unsolvable");
}

#[test]
fn regions_map_errors() {
    // Wrong length: 35 labels.
    let short = &JIGSAW_6.replace('\n', "")[1..];
    let r = run(&["solve", "--regions", short], &format!("{JIGSAW_6_PUZZLE}\n"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("35"), "says how many labels: {}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    // Wrong region sizes: A has 7 cells and B 5.
    let uneven = JIGSAW_6.replace('\n', "").replacen('B', "A", 1);
    let r = run(&["solve", "--regions", &uneven], &format!("{JIGSAW_6_PUZZLE}\n"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("region"), "{}", r.stderr);
    assert!(r.stderr.contains('7') || r.stderr.contains('5'), "says the wrong size: {}", r.stderr);
    // Too many labels: seven regions of a 6×6.
    let seven = JIGSAW_6.replace('\n', "").replacen('F', "G", 1);
    let r = run(&["solve", "--regions", &seven], &format!("{JIGSAW_6_PUZZLE}\n"));
    assert_eq!(r.code, 2);
    // A 9×9 puzzle with a 6×6 map: an error naming the puzzle, not a crash.
    let r = run(&["solve", "--format", "json", "--regions", &JIGSAW_6.replace('\n', "")], &format!("{TOP1}\n"));
    assert_eq!(r.code, 2);
    let recs = json_lines(&r.stdout);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["status"], "invalid");
    // A NUL in a map file (a binary file given by mistake) is no label: it
    // is named at its line and column (it was a seventh label: "7 different
    // labels, expected 6").
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("map.txt");
    let mut map = JIGSAW_6.to_string();
    let second = map.find('\n').unwrap() + 2;
    map.replace_range(second..second + 1, "\0");
    std::fs::write(&file, &map).unwrap();
    let r = run(&["solve", "--regions", file.to_str().unwrap()], &format!("{JIGSAW_6_PUZZLE}\n"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("map.txt:2:2: control character U+0000"), "{}", r.stderr);
}

#[test]
fn variants_x_and_hyper() {
    let cases: [(&[&str], Shape); 5] = [
        (&["--variant", "x"], Shape::classic(9).with_diagonals()),
        (&["--variant", "hyper"], Shape::classic(9).with_hyper_windows_9()),
        (&["--variant", "x", "--variant", "hyper"], Shape::classic(9).with_diagonals().with_hyper_windows_9()),
        // The other names and any case, as grid files read them (the
        // command line refused them).
        (&["--variant", "Diagonal"], Shape::classic(9).with_diagonals()),
        (&["--variant", "WINDOKU"], Shape::classic(9).with_hyper_windows_9()),
    ];
    let blank = ".".repeat(81);
    let mut seeded = vec!['.'; 81];
    seeded[40] = '5';
    seeded[0] = '9';
    let seeded: String = seeded.into_iter().collect();
    for (flags, shape) in cases {
        let mut args = vec!["solve", "--format", "json"];
        args.extend_from_slice(flags);
        let r = run(&args, &format!("{blank}\n{seeded}\n"));
        assert_eq!(r.code, 0, "{flags:?}: {}", r.stderr);
        let recs = json_lines(&r.stdout);
        assert_eq!(recs.len(), 2);
        assert_json_solved(&recs[0], 1, &shape, &[0; 81], None);
        assert_json_solved(&recs[1], 2, &shape, &read_symbols(&seeded), None);
    }
    // X on a diagonal clash: r1c1 = r5c5 = 3 is fine classic (different boxes? no:
    // same box) — use r1c1 and r9c9 instead: different row, column and box.
    let mut clash = vec!['.'; 81];
    clash[0] = '3';
    clash[80] = '3';
    let clash: String = clash.into_iter().collect();
    assert_eq!(run(&["solve"], &format!("{clash}\n")).code, 0);
    let r = run(&["solve", "--variant", "x", "--format", "json"], &format!("{clash}\n"));
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("diagonal"), "names the diagonal: {}", r.stdout);
    // Hyper on a size it is not defined for: a clear error.
    let r = run(&["solve", "--variant", "hyper"], &format!("{}\n", ".".repeat(36)));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("hyper"), "{}", r.stderr);
}

#[test]
fn every_grid_file_in_encodings_loads_and_solves() {
    let dir = repo_path("encodings");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        seen += 1;
        let shape = shape_of_grid_file(&path);
        let n = shape.n;
        // A blank puzzle, and one with a given 1 in the first cell; as a line for
        // n ≤ 35 and as a line of numbers beyond.
        let blank = ".".repeat(n * n);
        let mut one = vec!['.'; n * n];
        one[0] = '1';
        let one: String = one.into_iter().collect();
        let r = run(&["solve", "--format", "json", "--grid", path.to_str().unwrap()], &format!("{blank}\n{one}\n"));
        assert_eq!(r.code, 0, "{}: {}", path.display(), r.stderr);
        let recs = json_lines(&r.stdout);
        assert_eq!(recs.len(), 2, "{}", path.display());
        let mut g1 = vec![0; n * n];
        g1[0] = 1;
        assert_json_solved(&recs[0], 1, &shape, &vec![0; n * n], None);
        assert_json_solved(&recs[1], 2, &shape, &g1, None);
        // A puzzle of another size is an error for this definition, not a crash.
        let r = run(&["solve", "--format", "json", "--grid", path.to_str().unwrap()], &format!("{}\n", ".".repeat(49)));
        assert_eq!(r.code, 2, "{}", path.display());
        assert_eq!(json_lines(&r.stdout).len(), 1);
    }
    assert!(seen >= 8, "the shipped definitions: classic 4, 6, 9, 12, 16, 25, x 9, hyper 9, jigsaw 9");
}

#[test]
fn missing_grid_file_exits_2() {
    let r = run(&["solve", "--grid", "no/such/grid.toml"], TOP1);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no/such/grid.toml"), "{}", r.stderr);
}

#[test]
fn custom_symbols() {
    let alphabet = "0123456789ABCDEF";
    let chars: Vec<char> = alphabet.chars().collect();
    let lines = checker::data_lines("gecode-16x16.txt");
    let mut input = String::new();
    let mut all_givens = Vec::new();
    for line in lines.iter().take(3) {
        let givens = read_symbols(line);
        input.push_str(&givens.iter().map(|&v| if v == 0 { '.' } else { chars[v - 1] }).collect::<String>());
        input.push('\n');
        all_givens.push(givens);
    }
    let recs = json_run(&["solve", "--format", "json", "--symbols", alphabet], &input, 0, 3);
    for (i, g) in all_givens.iter().enumerate() {
        assert_json_solved(&recs[i], i as u64 + 1, &Shape::classic(16), g, Some(alphabet));
    }
    // A 4×4 with letters: values print as the letters.
    let r = run(&["solve", "--format", "line", "--symbols", "wxyz"], "w...\n..x.\n....\n...y\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let givens = [1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3];
    assert_solves(&Shape::classic(4), &givens, &read_solution_line(r.stdout.trim(), Some("wxyz")), "wxyz");
    // Digits outside the alphabet are errors.
    let r = run(&["solve", "--format", "json", "--symbols", "wxyz"], "1...\n....\n....\n....\n");
    assert_eq!(r.code, 2);
    // An alphabet with '.' is a usage error.
    assert_eq!(run(&["solve", "--symbols", "12.4"], "").code, 2);
}

/// `generate` and `decode` print grids they did not read: an alphabet too
/// short for the grid is an error there too (they printed numbers).
#[test]
fn a_short_alphabet_is_refused_by_generate_and_decode() {
    let r = run(&["generate", "--symbols", "ABCDEFGH", "--seed", "1"], "");
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(r.stderr.contains("--symbols gives 8 symbols, but a 9x9 grid has 9 values"), "{}", r.stderr);
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("p.cnf");
    let written = run(&["dimacs", "--out", cnf.to_str().unwrap()], "1...............\n");
    assert_eq!(written.code, 0, "{}", written.stderr);
    let r = run(&["decode", "--cnf", cnf.to_str().unwrap(), "--symbols", "wxy"], "s SATISFIABLE\n");
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("--symbols gives 3 symbols, but a 4x4 grid has 4 values"), "{}", r.stderr);
}

/// Symbols that satdoku's own output could not hold are refused: `,`, `;`
/// and `:` part fields (a 12×12 line with `,` in it read as 4×4 rows), puzzle
/// text has no control characters, XML no U+FFFE (a malformed picture), and
/// a combining accent or a zero-width space has no column to be seen in.
#[test]
fn symbols_that_would_not_read_back_are_refused() {
    let refused = [
        "ABCDEFGHJKL,",
        ";ABCDEFGHJKL",
        "ABCDEF:GHJKL",
        "ABCDEFGHJKL\u{1}",
        "ABCDEFGHJKL\u{FFFE}",
        "ABCDEFGHJKe\u{301}",
        "ABCDE\u{200B}FGHJKL",
    ];
    for alphabet in refused {
        let r = run(&["generate", "--solved", "--size", "12", "--seed", "1", "--symbols", alphabet], "");
        assert_eq!(r.code, 2, "{alphabet}: {}", r.stdout);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
        assert!(r.stderr.contains("cannot be a symbol"), "{}", r.stderr);
    }
}

/// A spreadsheet's rows in the symbols of `--symbols`, one a field, between
/// commas, semicolons or tabs, with or without row labels and a header of
/// the columns: one puzzle each. The first row was taken as a CSV header
/// and each row's first field as a 1×1 puzzle.
#[test]
fn spreadsheet_rows_in_symbols_are_rows() {
    const GIVENS: &str = "...b..ehd..c..h..g....a.c.i.ha..f....i.e..........i.ga.......f..........g.i...b.e";
    let alphabets =
        [("abcdefghi", GIVENS.to_string()), ("é€😀xyzwvu", GIVENS.chars().map(|c| to(c, "é€😀xyzwvu")).collect())];
    for (alphabet, givens) in alphabets {
        let cells: Vec<char> = givens.chars().collect();
        let rows: Vec<Vec<String>> = cells
            .chunks(9)
            .map(|row| row.iter().map(|&c| if c == '.' { String::new() } else { c.to_string() }).collect())
            .collect();
        let header = format!(",{}\n", alphabet.chars().map(String::from).collect::<Vec<_>>().join(","));
        let labelled: String =
            rows.iter().enumerate().map(|(r, row)| format!("R{},{}\n", r + 1, row.join(","))).collect();
        let inputs = [
            rows.iter().map(|row| row.join(",") + "\n").collect::<String>(),
            rows.iter().map(|row| row.join(";") + "\n").collect(),
            rows.iter().map(|row| row.join("\t") + "\n").collect(),
            header + &labelled,
        ];
        let expected: Vec<usize> =
            givens.chars().map(|c| alphabet.chars().position(|s| s == c).map_or(0, |p| p + 1)).collect();
        for input in inputs {
            let r = run(&["solve", "--symbols", alphabet], &input);
            assert_eq!(r.code, 0, "{input}\n{}{}", r.stdout, r.stderr);
            let lines: Vec<&str> = r.stdout.lines().collect();
            assert_eq!(lines.len(), 1, "{input}\n{}", r.stdout);
            let solution = read_solution_line(lines[0], Some(alphabet));
            assert_solves(&Shape::classic(9), &expected, &solution, &input);
        }
    }

    /// `c` of the alphabet `abcdefghi` in `alphabet` instead.
    fn to(c: char, alphabet: &str) -> char {
        match c {
            '.' => '.',
            c => alphabet.chars().nth(c as usize - 'a' as usize).unwrap(),
        }
    }
}

/// Under `--symbols` a puzzle reads as the same puzzle in digits does: a
/// comment after a row's cells, symbols that are rule marks elsewhere (`*`,
/// `=`, `'`, `~`), a spreadsheet row a field short, a header numbering the
/// columns. Each was lost, taken as a title or a rule, or made a record of
/// its own.
#[test]
fn symbols_frame_puzzles_as_digits_do() {
    let cases = [
        ("wxyz", "y z w x\nw x y z # hard\nx w z y\nz y x w\n"),
        ("*'~x", "*\t\t\t\n\t\t\t\n\t'\t\t\n\t\t\t~\n"),
        ("=~*'", "=~*'*'=~~='*'*~=\n"),
        ("wxyz", ",1,2,3,4\nR1,w,,,\nR2,y,z,w,x\nR3,x,y,,\nR4,,w,x,\n"),
    ];
    for (alphabet, input) in cases {
        let records = json_lines(&run(&["solve", "--symbols", alphabet, "--format", "json"], input).stdout);
        assert_eq!(records.len(), 1, "{input}: {records:?}");
        assert_eq!(records[0]["status"], "solved", "{input}: {records:?}");
        let solution = read_solution_line(records[0]["solution"].as_str().unwrap(), Some(alphabet));
        let givens: Vec<usize> = input
            .replace(" # hard", "")
            .lines()
            .filter(|l| !l.starts_with(','))
            .flat_map(|l| {
                let l = l.strip_prefix('R').map_or(l, |l| &l[2..]);
                match l.contains([',', '\t', ' ']) {
                    true => l.split([',', '\t', ' ']).map(String::from).collect::<Vec<_>>(),
                    false => l.chars().map(String::from).collect(),
                }
            })
            .map(|cell| alphabet.chars().position(|s| cell == s.to_string()).map_or(0, |p| p + 1))
            .collect();
        assert_solves(&Shape::classic(4), &givens, &solution, input);
    }
    // A row a field short is that puzzle's one error record, as `3,4,1` is.
    let r = run(&["solve", "--symbols", "wxyz", "--format", "json"], "w,x,y,z\ny,z,w\nx,w,z,y\nz,y,x,w\n");
    let records = json_lines(&r.stdout);
    assert_eq!(records.len(), 1, "{records:?}");
    assert!(
        records[0]["error"].as_str().unwrap().contains("row 2 of the puzzle that starts at line 1 has 3 cells"),
        "{records:?}"
    );
}

/// With a custom alphabet the clash message should name the value as the user wrote it.
#[test]
fn clash_message_uses_the_custom_symbol() {
    let mut text = vec!['.'; 16];
    text[0] = 'z';
    text[3] = 'z';
    let text: String = text.into_iter().collect();
    let r = run(&["solve", "--format", "json", "--symbols", "wxyz"], &format!("{text}\n"));
    assert_eq!(r.code, 1);
    let rec = &json_lines(&r.stdout)[0];
    let reason = rec.to_string();
    assert!(reason.contains("row 1"), "{reason}");
    assert!(reason.contains("has z twice") || reason.contains("'z'"), "names the value z, not its number: {reason}");
}

// ---------- bad input: message with position, batch goes on ----------

/// Run a batch `good, bad, good` and return the JSON records and stderr.
fn batch_with(bad: &str, args: &[&str]) -> (Run, Vec<Json>) {
    let dir = TempDir::new().unwrap();
    let file = write_file(&dir, "batch.txt", &format!("{TOP1}\n{bad}\n{TOP2}\n"));
    let mut all = vec!["solve", "--format", "json"];
    all.extend_from_slice(args);
    all.push(&file);
    let r = run(&all, "");
    let recs = json_lines(&r.stdout);
    (r, recs)
}

fn assert_bad_middle(r: &Run, recs: &[Json], expect_in_error: &[&str]) {
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(recs.len(), 3, "one record per puzzle: {}", r.stdout);
    assert_json_solved(&recs[0], 1, &Shape::classic(9), &read_symbols(TOP1), None);
    assert_eq!(recs[1]["index"], 2);
    assert_eq!(recs[1]["status"], "invalid");
    let error = recs[1]["error"].as_str().expect("error text");
    assert!(error.contains("batch.txt:2"), "file:line in {error}");
    for e in expect_in_error {
        assert!(error.contains(e), "{e:?} in {error}");
    }
    assert!(r.stderr.contains(error), "the message also on stderr: {}", r.stderr);
    assert_json_solved(&recs[2], 3, &Shape::classic(9), &read_symbols(TOP2), None);
}

#[test]
fn unknown_symbol_names_line_column_and_what_was_expected() {
    let bad = TOP1.replacen('8', "?", 1); // column 7
    let (r, recs) = batch_with(&bad, &[]);
    assert_bad_middle(&r, &recs, &["batch.txt:2:7", "'?'", "1-9"]);
}

#[test]
fn value_beyond_n_is_an_error() {
    // 'A' (10) in a 9×9.
    let bad = TOP1.replacen('5', "A", 1); // column 9
    let (r, recs) = batch_with(&bad, &[]);
    assert_bad_middle(&r, &recs, &["batch.txt:2:9", "'A'", "9x9"]);
    // '5' in a 4×4, line format.
    let r = run(&["solve", "--format", "json"], "1.5.............\n");
    assert_eq!(r.code, 2);
    let err = json_lines(&r.stdout)[0]["error"].as_str().unwrap().to_string();
    assert!(err.contains(":1:3"), "{err}");
    assert!(err.contains("1-4"), "expected 1-4: {err}");
    // A number past n in rows of numbers: 17 in a 16×16.
    let path = checker::data_path("kwon-jain-table4-1.txt");
    let text = std::fs::read_to_string(path).unwrap().replacen(" 12 ", " 17 ", 1);
    let r = run(&["solve", "--format", "json"], &text);
    assert_eq!(r.code, 2, "{}", r.stdout);
    let recs = json_lines(&r.stdout);
    assert_eq!(recs.len(), 1, "{}", r.stdout);
    assert!(recs[0]["error"].as_str().unwrap().contains("17"), "{}", recs[0]);
}

#[test]
fn non_square_cell_count_is_an_error() {
    let (r, recs) = batch_with(&TOP1[..80], &[]);
    assert_bad_middle(&r, &recs, &["80"]);
    let (r, recs) = batch_with(&format!("{TOP1}."), &[]);
    assert_bad_middle(&r, &recs, &["82"]);
}

#[test]
fn prime_n_without_latin_is_an_error_that_says_so() {
    let five = "1....\n.2...\n..3..\n...4.\n....5\n";
    let recs = json_run(&["solve", "--format", "json"], &format!("{TOP1}\n{five}\n{TOP2}\n"), 2, 3);
    assert_eq!(recs[1]["status"], "invalid");
    let err = recs[1]["error"].as_str().unwrap();
    assert!(err.contains("prime") && err.contains("--latin"), "{err}");
    assert!(err.contains("<stdin>:2"), "names line 2, where the 5x5 starts: {err}");
    assert_json_solved(&recs[2], 3, &Shape::classic(9), &read_symbols(TOP2), None);
}

#[test]
fn box_not_dividing_n() {
    // --box 2x3 fixes n = 6: a 9×9 puzzle does not fit, and says so.
    let recs = json_run(&["solve", "--format", "json", "--box", "2x3"], &format!("{TOP1}\n{}\n", ".".repeat(36)), 2, 2);
    assert_eq!(recs[0]["status"], "invalid");
    assert!(recs[0]["error"].as_str().unwrap().contains(":1"), "{}", recs[0]);
    assert_json_solved(&recs[1], 2, &Shape::boxes(6, 2, 3), &[0; 36], None);
    // A shape with a zero side is a usage error.
    assert_eq!(run(&["solve", "--box", "0x9"], TOP1).code, 2);
}

#[test]
fn short_block_is_one_invalid_record_and_the_batch_goes_on() {
    let rows: Vec<&str> = (0..9).map(|r| &TOP1[r * 9..r * 9 + 9]).collect();
    let text = format!("{}\n\n{}\n\n{TOP2}\n", rows[..5].join("\n"), rows.join("\n"));
    let r = run(&["solve", "--format", "json"], &text);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let recs = json_lines(&r.stdout);
    // 5 rows of 9 = 45 cells: one invalid puzzle (not five 9-cell puzzles).
    let statuses: Vec<&str> = recs.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["invalid", "solved", "solved"], "{}", r.stdout);
    assert_json_solved(&recs[1], 2, &Shape::classic(9), &read_symbols(TOP1), None);
    assert_json_solved(&recs[2], 3, &Shape::classic(9), &read_symbols(TOP2), None);
}

#[test]
fn a_missing_file_is_one_invalid_record_and_the_rest_is_solved() {
    let dir = TempDir::new().unwrap();
    let good = write_file(&dir, "good.txt", &format!("{TOP1}\n"));
    let missing = dir.path().join("missing.txt");
    let missing = missing.to_str().unwrap();
    let r = run(&["solve", "--format", "json", missing, &good], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("missing.txt: cannot open"), "{}", r.stderr);
    let recs = json_lines(&r.stdout);
    assert_eq!(recs.len(), 2, "{}", r.stdout);
    assert_eq!((recs[0]["index"].as_u64(), recs[0]["status"].as_str()), (Some(1), Some("invalid")), "{}", recs[0]);
    assert_eq!(recs[0]["source"], missing, "{}", recs[0]);
    assert_json_solved(&recs[1], 2, &Shape::classic(9), &read_symbols(TOP1), None);
}

#[test]
fn invalid_utf8_is_an_invalid_record() {
    let mut bytes = format!("{TOP1}\n").into_bytes();
    bytes.extend_from_slice(b"\xff\xfe\x00garbage\n");
    bytes.extend_from_slice(format!("{TOP2}\n").as_bytes());
    let out = satdoku().args(["solve", "--format", "json"]).write_stdin(bytes).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let recs = json_lines(out.stdout);
    let statuses: Vec<&str> = recs.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["solved", "invalid", "solved"]);
}

// ---------- a closed pipe ----------

#[test]
fn closed_pipe_exits_quietly() {
    let dir = TempDir::new().unwrap();
    let mut big = String::new();
    for _ in 0..60 {
        for line in checker::data_lines("top95.txt") {
            big.push_str(&line);
            big.push('\n');
        }
    }
    let file = write_file(&dir, "big.txt", &big);
    let (child, stdout, first) = first_line_of(&["solve", "--format", "line", &file]);
    drop(stdout); // `| head -1`
    let out = child.wait_with_output().unwrap();
    assert_solves(&Shape::classic(9), &read_symbols(TOP1), &read_solution_line(&first, None), "first line");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.is_empty(), "quiet: {stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// Started with stdout closed (`>&-`) or open for reading only (`1<file`),
/// satdoku says so and exits 2: Rust's runtime opens /dev/null over a closed
/// stdout and takes a write refused for a success, so the answers were lost
/// without a word, exit 0. Sent to /dev/null on purpose, or all to files,
/// the run is answered.
#[test]
fn a_closed_stdout_is_an_error() {
    let dir = TempDir::new().unwrap();
    let input = write_file(&dir, "in.txt", &format!("{TOP1}\n"));
    let run_with = |args: &str, redirect: &str| run_redirected(&format!("{args} '{input}'"), redirect);
    for (redirect, why) in [(">&-", "stdout is closed"), ("1<'{input}'", "stdout is open for reading only")] {
        let redirect = redirect.replace("{input}", &input);
        let out = run_with("solve", &redirect);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{redirect}: {stderr}");
        assert!(stderr.contains(why), "{redirect}: {stderr}");
    }
    let discarded = run_with("solve", ">/dev/null");
    assert_eq!(discarded.status.code(), Some(0), "{}", String::from_utf8_lossy(&discarded.stderr));
    assert!(discarded.stderr.is_empty(), "{}", String::from_utf8_lossy(&discarded.stderr));
    let out_dir = dir.path().join("out");
    let to_files = run_with(&format!("dimacs --out-dir '{}'", out_dir.display()), ">&-");
    assert_eq!(to_files.status.code(), Some(0), "{}", String::from_utf8_lossy(&to_files.stderr));
    assert!(out_dir.join("puzzle-0001.cnf").exists());
    // A file that is stdout is stdout: its CNF went to the runtime's
    // /dev/null without a word, exit 0.
    for stdout in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        let out = run_with(&format!("dimacs --out {stdout}"), ">&-");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stdout}: {stderr}");
        assert!(stderr.contains("it is stdout, which is closed"), "{stdout}: {stderr}");
    }
}

/// `--out /dev/stdout` into a pipe that closes (`| head -2`) ends quietly,
/// exit 0, as stdout itself does: it was "cannot write it: Broken pipe",
/// exit 2.
#[test]
fn a_closed_pipe_written_as_a_file_exits_quietly() {
    let dir = TempDir::new().unwrap();
    let input = write_file(&dir, "in.txt", &format!("{TOP1}\n"));
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("satdoku"))
        .args(["dimacs", "--out", "/dev/stdout", &input])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // closed before a byte is read
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "quiet: {stderr}");
}

/// satdoku run with `args` (shell words) and the shell redirection
/// `redirect`, which can close or reopen its standard streams.
fn run_redirected(args: &str, redirect: &str) -> std::process::Output {
    StdCommand::new("sh")
        .args(["-c", &format!("exec \"$0\" {args} {redirect}")])
        .arg(assert_cmd::cargo::cargo_bin("satdoku"))
        .output()
        .unwrap()
}

/// A closed stdin (`satdoku solve <&-`), or one open for writing only, or
/// a directory (`< dir`, named only as `Is a directory (os error 21)`), is
/// a missing input: one invalid record in its place, the other inputs still
/// answered, exit 2. Rust's runtime opens /dev/null over a closed stdin, so
/// it read as an empty input: no puzzle, exit 0. An empty stdin is still
/// that.
#[test]
fn a_closed_stdin_is_a_missing_input() {
    let dir = TempDir::new().unwrap();
    let input = write_file(&dir, "in.txt", &format!("{TOP1}\n"));
    let run_with = run_redirected;
    let cases = [
        ("<&-", "stdin is closed"),
        ("0>>'{input}'", "stdin is open for writing only"),
        ("<'{dir}'", "stdin is a directory"),
    ];
    for (redirect, why) in cases {
        let redirect = redirect.replace("{input}", &input).replace("{dir}", &dir.path().display().to_string());
        let out = run_with(&format!("solve --format json '{input}' - '{input}'"), &redirect);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{redirect}: {stderr}");
        let records: Vec<serde_json::Value> =
            String::from_utf8_lossy(&out.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
        let statuses: Vec<&str> = records.iter().map(|r| r["status"].as_str().unwrap()).collect();
        assert_eq!(statuses, ["solved", "invalid", "solved"], "{redirect}: {stderr}");
        assert!(records[1]["error"].as_str().unwrap().contains(why), "{redirect}: {}", records[1]);
        assert_solves(
            &Shape::classic(9),
            &read_symbols(TOP1),
            &read_solution_line(records[0]["solution"].as_str().unwrap(), None),
            "before",
        );

        let alone = run_with("count", &redirect);
        assert_eq!(alone.status.code(), Some(2), "{redirect}: {}", String::from_utf8_lossy(&alone.stderr));
        assert!(String::from_utf8_lossy(&alone.stderr).contains(why), "{redirect}");
    }
    let cnf = dir.path().join("in.cnf");
    let dimacs = run_with(&format!("dimacs '{input}' --out '{}'", cnf.display()), "");
    assert_eq!(dimacs.status.code(), Some(0), "{}", String::from_utf8_lossy(&dimacs.stderr));
    let decode = run_with(&format!("decode --cnf '{}'", cnf.display()), "<&-");
    assert_eq!(decode.status.code(), Some(2), "{}", String::from_utf8_lossy(&decode.stderr));
    assert!(String::from_utf8_lossy(&decode.stderr).contains("stdin is closed"));
    let empty = run_with("solve", "</dev/null");
    assert_eq!(empty.status.code(), Some(0), "{}", String::from_utf8_lossy(&empty.stderr));
}

/// satdoku run with `args`, its stdout a pipe: the child, that pipe, and
/// the first line read from it.
fn first_line_of(args: &[&str]) -> (std::process::Child, BufReader<std::process::ChildStdout>, String) {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("satdoku"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    (child, stdout, first)
}

/// A closed pipe ends the run at once, not after the search under way (a
/// red-team pass, 2026-11-28: `solve -j2 … | head -1` ran on until a hard
/// puzzle was done). Here the search is an external solver that never
/// answers, which ends with satdoku; satdoku exits 0, as into any closed pipe.
#[test]
fn a_closed_pipe_ends_a_long_search_at_once() {
    let dir = TempDir::new().unwrap();
    let pid_file = dir.path().join("solver.pid");
    let solver =
        write_file(&dir, "never.sh", &format!("#!/bin/sh\necho $$ > '{}'\nexec sleep 1000\n", pid_file.display()));
    std::fs::set_permissions(&solver, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    // One puzzle singles solve, then one that takes a search.
    let easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let hard = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    let file = write_file(&dir, "two.txt", &format!("{easy}\n{hard}\n"));
    let (mut child, stdout, first) = first_line_of(&["solve", "--format", "line", "--solver", &solver, &file]);
    assert_solves(&Shape::classic(9), &read_symbols(easy), &read_solution_line(&first, None), "first line");
    // The solver has started on the second puzzle.
    let start = std::time::Instant::now();
    while !pid_file.exists() && start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let solver_pid: i32 = std::fs::read_to_string(&pid_file).expect("the solver ran").trim().parse().unwrap();
    drop(stdout); // `| head -1`
                  // A guard against a hang, not a measure of time: the solver never answers.
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            panic!("satdoku still runs with its stdout closed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
    // The solver's process group was ended with it (a zombie of it counts as ended).
    let gone = |pid: i32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map_or(true, |stat| stat.rsplit(") ").next().is_some_and(|rest| rest.starts_with('Z')))
    };
    let start = std::time::Instant::now();
    while !gone(solver_pid) && start.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(gone(solver_pid), "the external solver outlived satdoku");
}

/// A script that writes a puzzle (and a blank line, which ends it: a line of
/// 81 cells could be the first row of an 81×81) and waits for its answer
/// gets it before it writes the next, into a pipe, on one thread or several.
/// Records used to wait in stdout's buffer, and a parallel run waited for a
/// chunk of 64 puzzles: the script and satdoku each waited for the other.
/// A line that repeats a value is a puzzle and no row whatever follows it,
/// so it needs no blank line after it (the reader looked at the next line
/// before answering it).
#[test]
fn each_puzzle_written_to_stdin_is_answered_before_the_next_is_written() {
    let puzzles = checker::data_lines("17-clue-500.txt");
    for (jobs, end) in [("1", "\n\n"), ("2", "\n\n"), ("1", "\n"), ("2", "\n")] {
        let mut child = spawn_piped(&["solve", "--format", "line", "--jobs", jobs]);
        let mut stdin = child.stdin.take().unwrap();
        // Lines read on a thread of their own: a deadline instead of a hang.
        let (tx, answers) = std::sync::mpsc::channel();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        std::thread::spawn(move || stdout.lines().map_while(Result::ok).try_for_each(|line| tx.send(line)));
        for puzzle in &puzzles[..3] {
            write!(stdin, "{puzzle}{end}").unwrap();
            stdin.flush().unwrap();
            let answer = answers.recv_timeout(std::time::Duration::from_secs(60));
            let Ok(answer) = answer else {
                let _ = child.kill();
                panic!("--jobs {jobs}, {end:?} after each: no answer while stdin stays open");
            };
            assert_solves(&Shape::classic(9), &read_symbols(puzzle), &read_solution_line(&answer, None), puzzle);
        }
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(answers.try_recv().is_err(), "one record a puzzle");
    }
}

/// `--jobs`: several chunks of puzzles answered on several threads still come
/// out one record per puzzle, in input order, each solution checked, and the
/// same as on one thread; an invalid and an unsolvable puzzle mid-batch keep
/// their places.
#[test]
fn parallel_batches_keep_input_order() {
    let puzzles = checker::data_lines("17-clue-500.txt");
    let mut lines: Vec<String> = puzzles.iter().take(300).cloned().collect();
    lines.insert(97, TOP1[..80].to_string());
    lines.insert(201, CLASH.to_string());
    let input = lines.join("\n") + "\n";
    let one = run(&["solve", "--format", "json", "--jobs", "1"], &input);
    let three = run(&["solve", "--format", "json", "--jobs", "3"], &input);
    assert_eq!(three.code, 2, "{}", three.stderr);
    assert_eq!(three.stdout, one.stdout, "the same records whatever the number of threads");
    let recs = json_lines(&three.stdout);
    assert_eq!(recs.len(), lines.len());
    for (k, (rec, line)) in recs.iter().zip(&lines).enumerate() {
        match k {
            97 => assert_eq!(rec["status"], "invalid", "{rec}"),
            201 => assert_eq!(rec["status"], "unsolvable", "{rec}"),
            _ => assert_json_solved(rec, k as u64 + 1, &Shape::classic(9), &read_symbols(line), None),
        }
    }
}
