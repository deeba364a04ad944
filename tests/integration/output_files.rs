//! The files the commands write into a directory or to a FILE (`--out-dir`,
//! `--proof-dir`, `dimacs --out`, `--proof`): never over an input file,
//! and never half-written under their own name, however satdoku ends.

use std::io::{BufRead, BufReader};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::checker::data_lines;

/// Puzzles with no solution: a 4x4 with 1 twice in row 1, and a 9x9
/// whose contradiction propagation does not see at once.
const UNSOLVABLE_4: &str = "11..............";
const UNSOLVABLE_9: &str = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.";

/// A unique 9x9 (top95's first).
fn unique_9() -> String {
    data_lines("top95.txt").remove(0)
}

/// satdoku with `args`, `{dir}` in them replaced by `dir`, stdin the file at
/// `stdin` (a shell's `< file`), and the limit `max_file` (RLIMIT_FSIZE) on
/// the size of any file it writes: a write past it ends satdoku (SIGXFSZ)
/// right there, mid-file, as a crash or a kill would.
fn satdoku_in(dir: &Path, args: &[&str], stdin: &Path, max_file: Option<u64>) -> Output {
    let args: Vec<String> = args.iter().map(|a| a.replace("{dir}", dir.to_str().unwrap())).collect();
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("satdoku"));
    command.args(&args).stdin(std::fs::File::open(stdin).unwrap());
    if let Some(bytes) = max_file {
        // SAFETY: setrlimit(2) is async-signal-safe and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
                match libc::setrlimit(libc::RLIMIT_FSIZE, &limit) {
                    0 => Ok(()),
                    _ => Err(std::io::Error::last_os_error()),
                }
            });
        }
    }
    command.output().unwrap()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// Every directory writer, and every name it gives a file: an input file
/// by that name in the directory (by any path, or on stdin, or linked to)
/// is refused with an error, and kept byte for byte; the batch goes on.
#[test]
fn directory_outputs_never_overwrite_an_input_file() {
    let unique = unique_9();
    // The input's name in {out}, what it holds, the arguments (the input,
    // {out}/NAME, last unless the arguments name it otherwise).
    let svg = ["--format", "svg", "--out-dir", "{out}"];
    let cases: &[(&str, &str, &[&str])] = &[
        ("puzzle-0001.cnf", UNSOLVABLE_9, &["solve", "--proof-dir", "{out}"]),
        ("puzzle-0001.drat", UNSOLVABLE_9, &["solve", "--proof-dir", "{out}"]),
        ("puzzle-0001.drat", &unique, &["count", "--proof-dir", "{out}"]),
        ("puzzle-0001.cnf", &unique, &["analyze", "--proof-dir", "{out}"]),
        ("puzzle-0001.cnf", &unique, &["dimacs", "--out-dir", "{out}"]),
        ("puzzle-0001.cnf", &unique, &["dimacs", "--out-dir", "{out}/.", "{dir}/../{base}/out/puzzle-0001.cnf"]),
        ("puzzle-0001.svg", &unique, &[&["solve"][..], &svg].concat()),
        ("puzzle-0001.svg", &unique, &[&["count"][..], &svg].concat()),
        ("puzzle-0001.svg", &unique, &[&["analyze"][..], &svg].concat()),
        ("puzzle-0001.svg", &unique, &[&["minimize"][..], &svg].concat()),
        ("puzzle-0001.svg", UNSOLVABLE_9, &[&["explain"][..], &svg].concat()),
        ("puzzle-0001-step-002.svg", &unique, &[&["analyze", "--steps"][..], &svg].concat()),
        ("puzzle-0001-2.svg", "................", &[&["solve", "--unique"][..], &svg].concat()),
        ("puzzle-0001-solution-2.svg", "................", &[&["solve", "--all", "--max", "3"][..], &svg].concat()),
    ];
    for &(name, text, args) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::create_dir(dir.join("out")).unwrap();
        let input = dir.join("out").join(name);
        std::fs::write(&input, format!("{text}\n")).unwrap();
        let base = dir.file_name().unwrap().to_str().unwrap();
        let named = args.iter().any(|a| a.contains("{base}"));
        let input_arg = format!("{{out}}/{name}");
        let args = args.iter().copied().chain((!named).then_some(input_arg.as_str()));
        let args: Vec<String> = args.map(|a| a.replace("{out}", "{dir}/out").replace("{base}", base)).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = satdoku_in(dir, &args, Path::new("/dev/null"), None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(&format!("/{name}: that is the input file")), "{args:?}: {stderr}");
        assert!(stderr.contains("which writing it would destroy"), "{args:?}: {stderr}");
        assert_eq!(std::fs::read_to_string(&input).unwrap(), format!("{text}\n"), "{args:?}");
        assert!(!names(&dir.join("out")).iter().any(|n| n.ends_with(".partial")), "{args:?}");
    }
}

/// The input on stdin (`< out/puzzle-0001.cnf`), or a link in the
/// directory to an input elsewhere: refused too, and kept.
#[test]
fn an_input_on_stdin_or_linked_into_the_directory_is_kept() {
    let unique = unique_9();
    for (stdin, args) in [
        (true, vec!["dimacs", "--out-dir", "{dir}/out"]),
        (true, vec!["solve", "--format", "svg", "--out-dir", "{dir}/out"]),
        (false, vec!["dimacs", "--out-dir", "{dir}/out", "{dir}/p.txt"]),
        (false, vec!["solve", "--unique", "--proof-dir", "{dir}/out", "{dir}/p.txt"]),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::create_dir(dir.join("out")).unwrap();
        let written = if args.contains(&"svg") { "puzzle-0001.svg" } else { "puzzle-0001.cnf" };
        let (input, link) = (dir.join("p.txt"), dir.join("out").join(written));
        std::fs::write(&input, format!("{unique}\n")).unwrap();
        match stdin {
            true => std::fs::rename(&input, &link).unwrap(),
            false => std::os::unix::fs::symlink(&input, &link).unwrap(),
        }
        let out = satdoku_in(dir, &args, if stdin { &link } else { Path::new("/dev/null") }, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("which writing it would destroy"), "{args:?}: {stderr}");
        let kept = if stdin { &link } else { &input };
        assert_eq!(std::fs::read_to_string(kept).unwrap(), format!("{unique}\n"), "{args:?}");
        assert_eq!(link.is_symlink(), !stdin, "{args:?}");
    }
}

/// A refused file ends only its own puzzle: the others are written, and
/// the run exits 2.
#[test]
fn a_refused_file_ends_only_its_puzzle() {
    let unique = unique_9();
    for (args, ext) in [
        (vec!["dimacs", "--out-dir", "{dir}/out", "{dir}/a.txt", "{dir}/out/puzzle-0002.cnf"], "cnf"),
        (vec!["solve", "--format", "svg", "--out-dir", "{dir}/out", "{dir}/a.txt", "{dir}/out/puzzle-0002.svg"], "svg"),
        (vec!["solve", "--proof-dir", "{dir}/out", "{dir}/a.txt", "{dir}/out/puzzle-0002.cnf"], "cnf"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::create_dir(dir.join("out")).unwrap();
        let second = dir.join("out").join(format!("puzzle-0002.{ext}"));
        let text = if args.contains(&"--proof-dir") { UNSOLVABLE_9 } else { &unique };
        std::fs::write(dir.join("a.txt"), format!("{text}\n{text}\n")).unwrap();
        std::fs::write(&second, format!("{text}\n")).unwrap();
        let out = satdoku_in(dir, &args, Path::new("/dev/null"), None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        // Puzzle 2 (a.txt's second) is refused; 1 and 3 (the file itself) are written.
        assert!(stderr.contains("puzzle 2 ") && !stderr.contains("puzzle 1 "), "{args:?}: {stderr}");
        assert_eq!(std::fs::read_to_string(&second).unwrap(), format!("{text}\n"), "{args:?}");
        assert!(whole(&dir.join("out").join(format!("puzzle-0001.{ext}"))), "{args:?}");
        let third = dir.join("out").join(format!("puzzle-0003.{ext}"));
        assert!(third.exists(), "{args:?}: {:?}", names(&dir.join("out")));
    }
}

/// Whether the CNF at `path` is whole: as many clauses as its `p cnf` line says.
fn whole_cnf(path: &Path) -> bool {
    whole_cnf_text(&std::fs::read_to_string(path).unwrap())
}

/// Whether `text` is a whole CNF (see [`whole_cnf`]).
fn whole_cnf_text(text: &str) -> bool {
    let clauses = text.lines().filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.is_empty()).count();
    let header = text.lines().find(|l| l.starts_with("p cnf "));
    header.and_then(|h| h.split_whitespace().nth(3)).and_then(|n| n.parse::<usize>().ok()) == Some(clauses)
        && text.ends_with(" 0\n")
}

/// Whether the file at `path` is whole, as far as its kind shows.
fn whole(path: &Path) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some("cnf") => whole_cnf(path),
        Some("svg") => std::fs::read_to_string(path).unwrap().trim_end().ends_with("</svg>"),
        // A DRAT proof has no end to check: its CNF, written before it, must be whole.
        _ => true,
    }
}

/// satdoku ended in the middle of a file (a write past RLIMIT_FSIZE kills
/// it with SIGXFSZ, as a crash would): the file being written has no name
/// yet, the files before it are whole, and a file of that name written
/// before is as it was. Puzzle 1's files are small, puzzle 2's too big for
/// the limit. One job where a solve writes files: in a parallel run each
/// worker writes its puzzle's picture or proof as soon as it is answered,
/// puzzle 2's maybe before puzzle 1's, so which files are there at the
/// crash would be the order the workers ran in.
#[test]
fn a_file_cut_short_never_has_its_name() {
    // The limit: above a 4x4's files (5 kB CNF, 2 kB picture), below a 9x9's
    // (150 kB CNF, 8 kB picture).
    let (cnf_limit, svg_limit) = (32 << 10, 4 << 10);
    let cases: &[(&[&str], u64, &[&str])] = &[
        (&["dimacs", "--out-dir", "{dir}/out", "{dir}/in.txt"], cnf_limit, &["puzzle-0001.cnf"]),
        (
            &["solve", "-j1", "--format", "svg", "--out-dir", "{dir}/out", "{dir}/in.txt"],
            svg_limit,
            &["puzzle-0001.svg"],
        ),
        (
            &["solve", "-j1", "--proof-dir", "{dir}/out", "{dir}/in.txt"],
            cnf_limit,
            &["puzzle-0001.cnf", "puzzle-0001.drat"],
        ),
        (&["dimacs", "--out", "{dir}/out/old.cnf", "{dir}/in9.txt"], cnf_limit, &[]),
        (&["solve", "--proof", "{dir}/out/old.drat", "{dir}/in9.txt"], cnf_limit, &[]),
    ];
    for &(args, limit, written) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let out_dir = dir.join("out");
        std::fs::create_dir(&out_dir).unwrap();
        std::fs::write(dir.join("in.txt"), format!("{UNSOLVABLE_4}\n{UNSOLVABLE_9}\n")).unwrap();
        std::fs::write(dir.join("in9.txt"), format!("{UNSOLVABLE_9}\n")).unwrap();
        // What a run before left: kept whole until a new file replaces it whole.
        for old in ["old.cnf", "old.drat"] {
            std::fs::write(out_dir.join(old), "c an earlier run's file\np cnf 1 1\n1 0\n").unwrap();
        }
        let out = satdoku_in(dir, args, Path::new("/dev/null"), Some(limit));
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Killed by SIGXFSZ, or (where it is ignored) an error for the write.
        assert!(out.status.signal() == Some(libc::SIGXFSZ) || out.status.code() == Some(2), "{args:?}: {stderr}");
        let found = names(&out_dir);
        for name in written.iter().chain(&["old.cnf", "old.drat"]) {
            assert!(found.contains(&name.to_string()), "{args:?}: {found:?}");
        }
        for name in found.iter().filter(|n| !n.starts_with('.')) {
            assert!(whole(&out_dir.join(name)), "{args:?}: {name} is cut short");
            assert!(!name.starts_with("puzzle-0002"), "{args:?}: {found:?}");
        }
        for old in ["old.cnf", "old.drat"] {
            let text = std::fs::read_to_string(out_dir.join(old)).unwrap();
            assert_eq!(text, "c an earlier run's file\np cnf 1 1\n1 0\n", "{args:?}");
        }
    }
}

/// Ctrl-C while a file is being written: the file being written is
/// removed, not left under its name nor under its temporary one, and
/// every file that has its name is whole. (stderr is a pipe nobody reads:
/// once it is full, satdoku stops in the middle of a file, at the message
/// each unsolvable puzzle's CNF comes with, and waits there for the signal.)
#[test]
fn a_signal_leaves_no_file_half_written() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, out_dir) = (tmp.path().join("in.txt"), tmp.path().join("out"));
    std::fs::write(&input, format!("{UNSOLVABLE_4}\n").repeat(2000)).unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("satdoku"))
        .args(["dimacs", "--out-dir"])
        .args([&out_dir, &input])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A file under way: under its temporary name, or (as satdoku wrote
    // them before) under its own, cut short.
    let under_way =
        |dir: &PathBuf| dir.is_dir() && names(dir).iter().any(|n| n.ends_with(".partial") || !whole_cnf(&dir.join(n)));
    let start = Instant::now();
    while !under_way(&out_dir) {
        assert!(child.try_wait().unwrap().is_none(), "satdoku ended first: {:?}", names(&out_dir));
        assert!(start.elapsed() < Duration::from_secs(600), "no file under way: {:?}", names(&out_dir));
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: kill(2) on the child's own process id.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    // What it said before the signal, read now so that it can exit.
    let said = BufReader::new(child.stderr.take().unwrap()).lines().count();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{said} lines on stderr");
    let found = names(&out_dir);
    assert!(!found.is_empty());
    for name in &found {
        assert!(!name.ends_with(".partial"), "{found:?}");
        assert!(whole_cnf(&out_dir.join(name)), "{name} is cut short");
    }
}

/// A file that stands for satdoku's stdout (a shell's `> out.txt`), held
/// open by the test: what it holds afterwards is what was written to that
/// file, not to whatever has its name by then.
struct Stdout {
    file: std::fs::File,
    path: PathBuf,
}

impl Stdout {
    fn new(dir: &Path) -> Stdout {
        let path = dir.join("out.txt");
        let file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&path).unwrap();
        Stdout { file, path }
    }

    /// satdoku with `args`, `{dir}` in them replaced by `dir`, writing to this file.
    fn run(&self, dir: &Path, args: &[&str], stdin: &Path) -> Output {
        let args: Vec<String> = args.iter().map(|a| a.replace("{dir}", dir.to_str().unwrap())).collect();
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("satdoku"));
        command.args(&args).stdin(std::fs::File::open(stdin).unwrap());
        command.stdout(self.file.try_clone().unwrap()).output().unwrap()
    }

    /// What the file holds, read through the test's own handle; and that
    /// its path still names it (nothing was renamed over it).
    fn text(&self) -> String {
        use std::io::{Read, Seek};
        use std::os::unix::fs::MetadataExt;
        let named = std::fs::metadata(&self.path).unwrap();
        assert_eq!(named.ino(), self.file.metadata().unwrap().ino(), "{} was replaced", self.path.display());
        let mut text = String::new();
        let mut file = &self.file;
        file.seek(std::io::SeekFrom::Start(0)).unwrap();
        file.read_to_string(&mut text).unwrap();
        text
    }
}

/// `--proof` names a file, and its CNF goes beside it: what is no regular
/// file is refused before any puzzle, exit 2. `--proof /dev/stdout` with
/// stdout a file resolved to that file: the proof was renamed over the
/// records written to it, and its CNF made /dev/stdout.cnf. A missing
/// directory is said at the start too, naming the user's path (it was
/// said after solving, naming the hidden temporary file).
#[test]
fn a_proof_is_refused_where_no_file_can_be_written() {
    let (tmp, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let dir = tmp.path();
    let input = dir.join("p.txt");
    std::fs::write(&input, format!("{UNSOLVABLE_9}\n")).unwrap();
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for (proof, why) in [
        ("/dev/stdout", "no regular file"),
        ("/dev/fd/1", "no regular file"),
        ("/dev/null", "no regular file"),
        ("{dir}/fifo", "no regular file"),
        ("{dir}", "that is a directory"),
        ("{dir}/missing/p.drat", "there is no directory {dir}/missing"),
    ] {
        let stdout = Stdout::new(out.path());
        let output = stdout.run(dir, &["solve", "--format", "json", "--proof", proof, "{dir}/p.txt"], &input);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{proof}: {stderr}");
        let proof = proof.replace("{dir}", dir.to_str().unwrap());
        let why = why.replace("{dir}", dir.to_str().unwrap());
        assert!(stderr.contains(&format!("--proof {proof}: ")) && stderr.contains(&why), "{proof}: {stderr}");
        assert!(!stderr.contains(".partial"), "{stderr}");
        assert_eq!(stdout.text(), "", "{proof}");
        std::fs::remove_file(&stdout.path).unwrap();
    }
    assert!(!Path::new("/dev/stdout.cnf").exists() && !Path::new("/dev/null.cnf").exists());
    assert_eq!(names(dir), ["fifo", "p.txt"]);
}

/// Every other file goes through the same writer: a name that is a link
/// to a descriptor (/dev/stdout) is written in place, into the file the
/// descriptor has open, never resolved to that file's path and renamed
/// over it. `dimacs --out /dev/stdout > out.txt` writes the CNF into
/// out.txt; a link to /dev/stdout in an `--out-dir` is written through; in
/// a `--proof-dir` it is refused (a proof names a file), and the record
/// that says so is what stdout holds.
#[test]
fn a_link_to_a_descriptor_is_never_renamed_over() {
    let (tmp, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let dir = tmp.path();
    let input = dir.join("p.txt");
    std::fs::write(&input, format!("{UNSOLVABLE_9}\n")).unwrap();
    let linked = dir.join("d");
    std::fs::create_dir(&linked).unwrap();
    for name in ["puzzle-0001.cnf", "puzzle-0001.drat"] {
        std::os::unix::fs::symlink("/dev/stdout", linked.join(name)).unwrap();
    }
    for args in [
        vec!["dimacs", "--out", "/dev/stdout", "{dir}/p.txt"],
        vec!["dimacs", "--out", "/dev/fd/1", "{dir}/p.txt"],
        vec!["dimacs", "--out-dir", "{dir}/d", "{dir}/p.txt"],
    ] {
        let stdout = Stdout::new(out.path());
        let output = stdout.run(dir, &args, &input);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        let cnf = stdout.text();
        assert!(cnf.starts_with("c satdoku") && whole_cnf_text(&cnf), "{args:?}: {cnf}");
        std::fs::remove_file(&stdout.path).unwrap();
    }
    let stdout = Stdout::new(out.path());
    let output = stdout.run(dir, &["solve", "--format", "json", "--proof-dir", "{dir}/d", "{dir}/p.txt"], &input);
    assert_eq!(output.status.code(), Some(2));
    let records = crate::util::json_lines(stdout.text());
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["status"], "error");
    assert!(records[0]["error"].as_str().unwrap().contains("no regular file"), "{}", records[0]);
    assert_eq!(names(&linked), ["puzzle-0001.cnf", "puzzle-0001.drat"]);
    assert!(linked.join("puzzle-0001.cnf").is_symlink() && linked.join("puzzle-0001.drat").is_symlink());
}
