//! The files the commands write into a directory or to a FILE (`--out-dir`,
//! `--proof-dir`, `dimacs --out`, `--proof`): never over an input file.

use std::path::Path;
use std::process::{Command, Output};

use crate::util::checker::data_lines;

/// A 9x9 with no solution, whose contradiction propagation does not see at once.
const UNSOLVABLE_9: &str = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.";

/// A unique 9x9 (top95's first).
fn unique_9() -> String {
    data_lines("top95.txt").remove(0)
}

/// satdoku with `args`, `{dir}` in them replaced by `dir`, stdin the file at
/// `stdin` (a shell's `< file`).
fn satdoku_in(dir: &Path, args: &[&str], stdin: &Path) -> Output {
    let args: Vec<String> = args.iter().map(|a| a.replace("{dir}", dir.to_str().unwrap())).collect();
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("satdoku"));
    command.args(&args).stdin(std::fs::File::open(stdin).unwrap()).output().unwrap()
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
        let out = satdoku_in(dir, &args, Path::new("/dev/null"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(&format!("/{name}: that is the input file")), "{args:?}: {stderr}");
        assert!(stderr.contains("which writing it would destroy"), "{args:?}: {stderr}");
        assert_eq!(std::fs::read_to_string(&input).unwrap(), format!("{text}\n"), "{args:?}");
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
        let out = satdoku_in(dir, &args, if stdin { &link } else { Path::new("/dev/null") });
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
        let out = satdoku_in(dir, &args, Path::new("/dev/null"));
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
    let text = std::fs::read_to_string(path).unwrap();
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
        _ => true,
    }
}
