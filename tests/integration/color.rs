//! `--color`: the grid format colours givens, solved digits, fixed cells and
//! conflicts with the right escapes around the right cells, and no escape
//! at all under `never`, NO_COLOR, or into a pipe.

use crate::util::checker::{assert_solves, read_symbols, Shape};
use crate::util::{on_a_terminal, run, satdoku};

const PUZZLE: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const BOLD: &str = "\x1b[1m";
const CYAN: &str = "\x1b[36m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const RED: &str = "\x1b[31m";

/// One cell of a coloured grid: the escapes before its text, and the text.
#[derive(Debug)]
struct Painted {
    escapes: String,
    text: String,
}

/// The cells of the grid rows of `stdout` (lines with no `-+-` rule, after the header),
/// each with the escapes that open it.
fn painted_cells(stdout: &str) -> Vec<Painted> {
    let mut cells = Vec::new();
    // The grid: the lines after the header, up to the first blank line or
    // the first line that is no row of cells (analyze's residual form).
    let rows = stdout.lines().skip(1).take_while(|l| !l.is_empty() && !l.contains('∈'));
    for line in rows.filter(|l| !l.contains("-+-")) {
        for token in line.split(' ').filter(|t| !t.is_empty() && *t != "|") {
            let mut escapes = String::new();
            let mut rest = token;
            while let Some(tail) = rest.strip_prefix("\x1b[") {
                let end = tail.find('m').expect("an escape ends with m");
                escapes.push_str(&rest[..end + 3]);
                rest = &tail[end + 1..];
            }
            let text = rest.split('\x1b').next().unwrap_or("").to_string();
            if escapes.is_empty() {
                assert!(!rest.contains('\x1b'), "an escape after the text only: {token:?}");
            } else {
                assert!(rest.ends_with("\x1b[0m"), "a painted cell is reset at its end: {token:?}");
            }
            cells.push(Painted { escapes, text });
        }
    }
    cells
}

#[test]
fn solved_digits_and_givens_are_told_apart() {
    let r = run(&["solve", "--format", "grid", "--color", "always"], PUZZLE);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cells = painted_cells(&r.stdout);
    assert_eq!(cells.len(), 81, "{}", r.stdout);
    let solution: String = cells.iter().map(|c| c.text.as_str()).collect();
    let givens = read_symbols(PUZZLE);
    assert_solves(&Shape::classic(9), &givens, &read_symbols(&solution), "solve --color always");
    for (i, cell) in cells.iter().enumerate() {
        if givens[i] != 0 {
            assert_eq!(cell.escapes, BOLD, "given r{}c{}", i / 9 + 1, i % 9 + 1);
        } else {
            assert_eq!(cell.escapes, CYAN, "solved r{}c{}", i / 9 + 1, i % 9 + 1);
        }
    }
}

#[test]
fn analyze_colours_fixed_cells_and_candidates() {
    // Two solutions (columns 2 and 4 of the last rows take 1 and 3 either
    // way round); r3c3, r4c1 and r4c3 are fixed in both.
    let open = "123434122.......";
    let r = run(&["--box", "2x2", "analyze", "--format", "grid", "--color", "always"], open);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cells = painted_cells(&r.stdout);
    assert_eq!(cells.len(), 16, "{}", r.stdout);
    for (i, cell) in cells.iter().enumerate() {
        let given = open.as_bytes()[i] != b'.';
        let expected = match (given, cell.text.len()) {
            (true, _) => BOLD.to_string(),
            (false, 1) => format!("{BOLD}{GREEN}"),
            (false, _) => YELLOW.to_string(),
        };
        assert_eq!(cell.escapes, expected, "cell {i}: {:?}\n{}", cell.text, r.stdout);
    }
    let texts: Vec<&str> = cells.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts[8..], ["2", "13", "4", "13", "4", "13", "2", "13"], "{}", r.stdout);
}

#[test]
fn clashing_givens_are_marked_in_red() {
    let clash = format!("44{}", &PUZZLE[2..]);
    let r = run(&["solve", "--format", "grid", "--color", "always"], &clash);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.starts_with(&format!("{BOLD}{RED}unsolvable")), "{}", r.stdout);
    let cells = painted_cells(&r.stdout);
    assert_eq!(cells.len(), 81, "{}", r.stdout);
    for (i, cell) in cells.iter().enumerate() {
        let expected = match i {
            0 | 1 => format!("{BOLD}{RED}"),
            _ if clash.as_bytes()[i] != b'.' => BOLD.to_string(),
            _ => String::new(),
        };
        assert_eq!(cell.escapes, expected, "cell {i}");
    }
}

/// A coloured grid reads back as the grid it shows: solved again, each is
/// its own solution (it said "an escape character" at every row). The
/// escapes are dropped, not any other byte: a cursor move is still named.
#[test]
fn coloured_grids_read_back_as_the_text_they_show() {
    let puzzles = format!("{PUZZLE}\n{}\n", PUZZLE.replacen('4', ".", 1));
    let coloured = run(&["solve", "--format", "grid", "--color", "always"], &puzzles);
    assert_eq!(coloured.code, 0, "{}", coloured.stderr);
    assert!(coloured.stdout.contains(CYAN), "{}", coloured.stdout);
    let again = run(&["solve", "--format", "line", "--color", "never"], &coloured.stdout);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let solutions: Vec<&str> = again.stdout.lines().collect();
    assert_eq!(solutions.len(), 2, "{}", again.stdout);
    for (solution, puzzle) in solutions.iter().zip(puzzles.lines()) {
        assert_solves(&Shape::classic(9), &read_symbols(puzzle), &read_symbols(solution), "read back");
    }
    // `grep --color=always` marks a match with `ESC[01;31m ESC[K … ESC[m ESC[K`.
    let grepped = format!("\x1b[01;31m\x1b[K{}\x1b[m\x1b[K{}\n", &PUZZLE[..9], &PUZZLE[9..]);
    let again = run(&["solve", "--format", "line"], &grepped);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_solves(&Shape::classic(9), &read_symbols(PUZZLE), &read_symbols(again.stdout.trim()), "grep's colours");
    let moved = run(&["solve"], &format!("\x1b[2J{PUZZLE}\n"));
    assert_eq!(moved.code, 2);
    assert!(moved.stderr.contains("an escape character"), "{}", moved.stderr);
}

#[test]
fn errors_on_stderr_are_coloured_only_when_asked() {
    let r = run(&["solve", "--color", "always"], "12x\n");
    assert_eq!(r.code, 2);
    assert!(r.stderr.starts_with(&format!("{BOLD}{RED}satdoku:\x1b[0m ")), "{:?}", r.stderr);
    let r = run(&["solve", "--color", "never"], "12x\n");
    assert!(!r.stderr.contains('\x1b'), "{:?}", r.stderr);
}

#[test]
fn no_escapes_under_never_no_color_or_a_pipe() {
    let runs = [
        run(&["solve", "--format", "grid", "--color", "never"], PUZZLE),
        run(&["analyze", "--format", "grid"], PUZZLE),
        run(&["solve", "--format", "grid", "--color", "auto"], PUZZLE),
    ];
    for r in &runs {
        assert!(!r.stdout.contains('\x1b') && !r.stderr.contains('\x1b'), "{}", r.stdout);
    }
    // CLICOLOR_FORCE asks for colour even into a pipe; NO_COLOR wins over it.
    let forced =
        satdoku().args(["solve", "--format", "grid"]).env("CLICOLOR_FORCE", "1").write_stdin(PUZZLE).output().unwrap();
    assert!(String::from_utf8(forced.stdout).unwrap().contains(CYAN));
    let both = satdoku()
        .args(["solve", "--format", "grid"])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .write_stdin(PUZZLE)
        .output()
        .unwrap();
    assert!(!String::from_utf8(both.stdout).unwrap().contains('\x1b'));
    // CLICOLOR_FORCE=0 forces nothing (the CLICOLOR convention).
    let zero =
        satdoku().args(["solve", "--format", "grid"]).env("CLICOLOR_FORCE", "0").write_stdin(PUZZLE).output().unwrap();
    assert!(!String::from_utf8(zero.stdout).unwrap().contains('\x1b'));
    // Other formats are for programs: never coloured, whatever they print
    // (`analyze --steps` ends with a candidate grid in line format too).
    let programs = [
        (vec!["solve", "--format", "line"], PUZZLE),
        (vec!["analyze", "--steps", "--format", "line"], PUZZLE),
        (vec!["analyze", "--steps", "--format", "json"], PUZZLE),
        (vec!["--box", "2x2", "analyze", "--steps", "--format", "line"], "................\n"),
        (vec!["count", "--format", "line"], PUZZLE),
    ];
    for (args, input) in programs {
        let r = run(&[args.as_slice(), &["--color", "always"]].concat(), input);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(!r.stdout.contains('\x1b'), "{args:?}: {:?}", r.stdout);
    }
    // The same steps in grid format are coloured: the option is honoured there.
    let grid =
        run(&["--box", "2x2", "analyze", "--steps", "--format", "grid", "--color", "always"], "................\n");
    assert!(grid.stdout.contains('\x1b'), "{:?}", grid.stdout);
}

#[test]
fn a_terminal_gets_colour_unless_no_color() {
    let dir = tempfile::tempdir().unwrap();
    let file = crate::util::write_file(&dir, "p.txt", PUZZLE);
    let Some(coloured) = on_a_terminal(&format!("solve {file}"), &[]) else {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return;
    };
    assert!(coloured.contains(CYAN) && coloured.contains(BOLD), "{coloured:?}");
    let plain = on_a_terminal(&format!("solve {file}"), &[("NO_COLOR", "1")]).unwrap();
    assert!(!plain.contains('\x1b') && plain.contains("| "), "{plain:?}");
}
