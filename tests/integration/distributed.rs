//! A corpus split into chunks (GNU parallel `--pipe`, a cluster's pipe
//! operator): with `--stdin-name`, `--first-line` and `--first-index`, the
//! chunks' records put together are the records of one run over the whole.

use std::process::Command;

use crate::util::checker::data_lines;
use crate::util::{json_lines, run, satdoku, write_file};

fn has_parallel() -> bool {
    crate::util::available("parallel")
}

/// `parallel --pipe -N LINES --keep-order ARGS… satdoku solve --format json`
/// over `file`, each chunk told where it starts.
fn parallel_solve(file: &str, lines: usize, parallel_args: &[&str]) -> (String, String) {
    let binary = assert_cmd::cargo::cargo_bin("satdoku");
    let start = format!("$(( ({{#}}-1)*{lines}+1 ))");
    let out = Command::new("parallel")
        .args(["--will-cite", "--pipe", "-N", &lines.to_string(), "--keep-order"])
        .args(parallel_args)
        .arg(binary)
        .args([
            "solve",
            "--format",
            "json",
            "--jobs",
            "1",
            "--stdin-name",
            file,
            "--first-line",
            &start,
            "--first-index",
            &start,
        ])
        .stdin(std::fs::File::open(file).unwrap())
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// 500 puzzles, one a line, with two bad lines among them.
fn corpus(dir: &tempfile::TempDir) -> String {
    let mut lines: Vec<String> = data_lines("17-clue-500.txt");
    lines.insert(137, "12x".into());
    lines.insert(301, "5.3.".into());
    write_file(dir, "corpus.txt", &(lines.join("\n") + "\n"))
}

/// The same lines, or the first that differs.
fn same_lines(got: &str, expected: &str, what: &str) {
    for (i, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
        assert_eq!(g, e, "{what}: line {}", i + 1);
    }
    assert_eq!(got.lines().count(), expected.lines().count(), "{what}: lines");
}

#[test]
fn four_workers_write_what_one_run_writes() {
    if !has_parallel() {
        eprintln!("skipped: needs GNU parallel (Debian package parallel)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = corpus(&dir);
    let one = run(&["solve", "--format", "json", &file], "");
    assert_eq!(one.code, 2, "two invalid lines");
    assert_eq!(json_lines(&one.stdout).len(), 502);
    let (four, stderr) = parallel_solve(&file, 50, &["-j4"]);
    same_lines(&four, &one.stdout, "4 workers, chunks of 50 lines");
    same_lines(&stderr, &one.stderr, "the same messages, naming the same lines");
    // --sshlogin: ':' is this machine, without ssh; 2/: runs two jobs on it.
    let (hosts, _) = parallel_solve(&file, 64, &["--sshlogin", "2/:"]);
    same_lines(&hosts, &one.stdout, "--sshlogin 2/:");
}

#[test]
fn a_chunk_names_its_file_lines_and_indexes() {
    let puzzles = data_lines("17-clue-500.txt");
    let chunk = format!("{}\n{}\n12x\n", puzzles[0], puzzles[1]);
    // Every command that reads puzzles (explain and minimize used to say
    // `<stdin>:1` and index 1).
    for command in ["solve", "count", "analyze", "explain", "minimize"] {
        let r = run(
            &[command, "--format", "json", "--stdin-name", "big.txt", "--first-line", "101", "--first-index", "51"],
            &chunk,
        );
        let records = json_lines(&r.stdout);
        let places: Vec<(u64, &str)> =
            records.iter().map(|r| (r["index"].as_u64().unwrap(), r["source"].as_str().unwrap())).collect();
        assert_eq!(places, [(51, "big.txt:101"), (52, "big.txt:102"), (53, "big.txt:103")], "{command}");
        assert!(records[2]["error"].as_str().unwrap().starts_with("big.txt:103:"), "{command}: {}", records[2]);
        assert!(r.stderr.contains("satdoku: big.txt:103:"), "{command}: {}", r.stderr);
    }
    // A file beside stdin keeps its own name and lines; only the index moves.
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(&dir, "p.txt", &chunk);
    let r = run(&["count", "--format", "json", "--first-line", "101", "--first-index", "51", &file, "-"], &chunk);
    let first = &json_lines(&r.stdout)[0];
    assert_eq!((first["index"].as_u64(), first["source"].as_str()), (Some(51), Some(&*format!("{file}:1"))));
    let fourth = &json_lines(&r.stdout)[3];
    assert_eq!((fourth["index"].as_u64(), fourth["source"].as_str()), (Some(54), Some("<stdin>:101")));
    // Without stdin, --first-line would place nothing: refused.
    let r = run(&["count", "--first-line", "101", &file], "");
    assert_eq!(r.code, 2, "{}", r.stderr);
    let bad = satdoku().args(["solve", "--first-line", "0"]).write_stdin("").output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// A name with a control character in it (a newline, an escape) is given
/// with the character as its code: a record stays one line, and no escape
/// sequence from a name reaches the terminal.
#[test]
fn names_are_given_without_control_characters() {
    let puzzles = data_lines("17-clue-500.txt");
    let chunk = format!("{}\n12x\n", puzzles[0]);
    let r = run(&["solve", "--stdin-name", "a\nb\u{1b}[2J"], &chunk);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    assert!(lines[1].contains("(aU+000AbU+001B[2J:2)"), "{}", lines[1]);
    assert!(!r.stderr.contains('\u{1b}'), "{}", r.stderr);
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(&dir, "p\nq.txt", &chunk);
    let r = run(&["solve", "--format", "json", &file], "");
    let records = json_lines(&r.stdout);
    let shown = file.replace('\n', "U+000A");
    assert_eq!(records[1]["source"].as_str(), Some(&*format!("{shown}:2")), "{}", records[1]);
}
