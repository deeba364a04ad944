//! What the second red-team pass found in the errors of input: each message
//! says where (file:line:column, or the JSON path) and what was expected,
//! and nothing of the wrong shape is dropped. Each test failed before its fix.

use tempfile::TempDir;

use crate::util::{run, write_file};

/// A blank 4×4 puzzle: 288 solutions with 2×2 regions, the number of 4×4 sudokus.
const BLANK: &str = "................\n";
const TOP1: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// Run `args` on the blank 4×4; it must fail with exit 2 and say `says` on stderr.
fn refused(args: &[&str], says: &[&str]) {
    let r = run(args, BLANK);
    assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
    for s in says {
        assert!(r.stderr.contains(s), "{args:?}: expected {s:?} in {}", r.stderr);
    }
}

/// An `[[extra_region]]` of n cells with a cell twice was "FILE: extra unit 1
/// has 3 distinct cells", with no line or column and the name of a key the
/// file does not have (and "extra unit 2" beside one `extra_units` entry).
#[test]
fn an_extra_region_with_a_cell_twice_is_named_where_it_is_written() {
    let dir = TempDir::new().unwrap();
    let region = "[[extra_region]]\ncells = \"r1c1 r1c1 r2c2 r3c3\"\n";
    let alone = write_file(&dir, "dupregion.toml", &format!("size = 4\n{region}"));
    refused(&["count", "--grid", &alone], &["dupregion.toml:3:9: extra_region: cell r1c1 appears twice"]);
    let both = format!("size = 4\nextra_units = [\"r1c1 r1c2 r2c1 r2c2\"]\n{region}");
    let both = write_file(&dir, "both.toml", &both);
    refused(&["count", "--grid", &both], &["both.toml:4:9: extra_region: cell r1c1 appears twice"]);
}

/// The same through f-puzzles was at `$`, and so was a region of the wrong
/// size; a given written `"given": "true"` and a cell that is a bare number
/// were read as empty cells (288 solutions, the blank 4×4).
#[test]
fn f_puzzles_values_of_the_wrong_shape_are_named_by_their_path() {
    let dir = TempDir::new().unwrap();
    let row = "[{}, {}, {}, {}]";
    let grid = |first: &str| format!("[[{first}, {{}}, {{}}, {{}}], {row}, {row}, {row}]");
    let cases = [
        (
            format!(r#"{{"size": 4, "grid": {}, "extraregion": [{{"cells": ["R1C1", "R1C1", "R2C1", "R2C2"]}}]}}"#, grid("{}")),
            "f-puzzles extraregion[0].cells: extra region: cell r1c1 appears twice",
        ),
        (
            format!(r#"{{"size": 4, "grid": {}}}"#, grid(r#"{"value": 2, "given": "true"}"#)),
            "f-puzzles grid[0][0].given: expected true or false",
        ),
        (format!(r#"{{"size": 4, "grid": {}}}"#, grid("5")), "f-puzzles grid[0][0]: expected a cell object"),
        (
            r#"{"size": 4, "grid": [[{"region": 0}, {"region": 0}, {"region": 0}, {"region": 1}], [{"region": 0}, {"region": 0}, {"region": 1}, {"region": 1}], [{"region": 2}, {"region": 2}, {"region": 3}, {"region": 3}], [{"region": 2}, {"region": 2}, {"region": 3}, {"region": 3}]]}"#.to_string(),
            "f-puzzles grid[1][1].region: region 0 has 5 cells, expected 4",
        ),
    ];
    for (i, (json, says)) in cases.iter().enumerate() {
        let file = write_file(&dir, &format!("p{i}.json"), json);
        let r = run(&["count", "--format", "json", "--fpuzzles", &file], "");
        assert_eq!(r.code, 2, "{json}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{json}: expected {says:?} in {}", r.stderr);
        // The puzzle not read is one record that says why, as a puzzle file's would be.
        let records = crate::util::json_lines(&r.stdout);
        assert_eq!(records.len(), 1, "{}", r.stdout);
        assert_eq!(records[0]["status"], "invalid", "{}", r.stdout);
        assert!(records[0]["error"].as_str().unwrap().contains(says), "{}", r.stdout);
    }
}

/// `--regions` maps: comments are no labels (a trailing ` # comment` made
/// "24 labels is not a square number", a map of comments "0 labels"), and
/// every error names the file, line and column, or the argument's column.
#[test]
fn region_map_errors_say_where_and_comments_are_no_labels() {
    let dir = TempDir::new().unwrap();
    let commented = write_file(&dir, "map1.txt", "# a 4x4 of 2x2 boxes\naabb\naabb # comment\nccdd\nccdd\n");
    let r = run(&["count", "--regions", &commented], BLANK);
    assert_eq!((r.code, r.stdout.trim()), (0, "288"), "{}", r.stderr);
    let short = write_file(&dir, "short.txt", "aabb\naab # one short\nccdd\nccdd\n");
    refused(&["count", "--regions", &short], &["short.txt:2:4: a row of 3 labels", "other rows have 4"]);
    let empty = write_file(&dir, "empty.txt", "# nothing\n\n");
    refused(&["count", "--regions", &empty], &["empty.txt: no labels", "blank or a comment"]);
    refused(&["count", "--regions", "#aab#aabccddccdd"], &["--regions: no labels"]);
    // The fifth 'a', at its column of the argument.
    refused(&["count", "--regions", "aaabaabbccddccdd"], &["--regions column 6: region 'a' has 5 cells, expected 4"]);
    refused(&["count", "--regions", "aabbaabbccddccd"], &["--regions column 16: the map ends after 15 labels"]);
    refused(&["count", "--regions", "aabbaabbccddccde"], &["--regions column 16: label 'e' is region 5 of 5"]);
    // A file's name mistyped (no dot, no slash) is read as a map, and the
    // message says no file has that name either.
    refused(&["count", "--regions", "mymap"], &["--regions column 5:", "(nor is there a file named mymap)"]);
    // A file larger than any map is refused.
    let huge = write_file(&dir, "huge.txt", &"a".repeat(satdoku::MAX_LINE + 1));
    refused(&["count", "--regions", &huge], &["huge.txt: 16777217 bytes, more than any map holds"]);
    let fifth = write_file(&dir, "fifth.txt", "aabb\naabb\nccdd\nccde\n");
    refused(&["count", "--regions", &fifth], &["fifth.txt:4:4: label 'e' is region 5 of 5, expected 4 regions"]);
    // A row short and the next one long: 16 labels, but no 4x4 drawn (it was
    // read as a stream of labels, the regions other than the map shows).
    let ragged = write_file(&dir, "ragged.txt", "aabb\naab\nbccdd\nccdd\n");
    refused(&["count", "--regions", &ragged], &["ragged.txt:2:4: a row of 3 labels", "other rows have 4"]);
    // A puzzle of another size than the map's grid says which option fixed it.
    let map = write_file(&dir, "map.txt", "aabb\naabb\nccdd\nccdd\n");
    let r = run(&["solve", "--regions", &map], &format!("{}\n", ".".repeat(81)));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("expected 16 cells for a puzzle, or a row of 4, the 4x4 grid of --regions"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("map.txt"), "{}", r.stderr);
}

/// `--fpuzzles '[]'` and `--fpuzzles '!!!'` both said "the JSON does not
/// parse: EOF…"; a sign in a cell or line name was read (`r+1c+2` as r1c2,
/// `R+1C1` as R1C1, `r+1` as r1); a control character in a grid file said
/// only "invalid basic string".
#[test]
fn misleading_messages_say_what_is_wrong() {
    refused(&["count", "--fpuzzles", "[]"], &["f-puzzles $: expected a JSON object", "not a list ([])"]);
    refused(&["count", "--fpuzzles", "!!!"], &["'!!!' is neither JSON nor lz-string base64"]);
    let dir = TempDir::new().unwrap();
    let row = "[{}, {}, {}, {}]";
    let odd = format!(r#"{{"size": 4, "grid": [{row}, {row}, {row}, {row}], "odd": [{{"cell": "R+1C1"}}]}}"#);
    let odd = write_file(&dir, "odd.json", &odd);
    refused(&["count", "--fpuzzles", &odd], &["f-puzzles odd[0].cell: 'R+1C1' is not a cell"]);
    let signed = write_file(&dir, "signed.toml", "size = 4\n[[killer]]\ncells = \"r1c1 r+1c+2\"\nsum = 3\n");
    refused(&["count", "--grid", &signed], &["signed.toml:3:15: killer: 'r+1c+2' is not a cell"]);
    let sandwich = write_file(&dir, "sandwich.toml", "size = 4\n[[sandwich]]\nline = \"r+1\"\nsum = 0\n");
    refused(
        &["count", "--grid", &sandwich],
        &["sandwich.toml:3:8: sandwich: line \"r+1\" is no row or column of a 4x4 grid"],
    );
    let ctrl = write_file(&dir, "ctrl.toml", "size = 4\nname = \"a\u{1}b\"\n");
    refused(&["count", "--grid", &ctrl], &["ctrl.toml:2:10: invalid basic string: control character U+0001"]);
}

/// Text that holds no puzzle (every line read as a title) is bad input: the
/// rows of a puzzle the reader could not take as one must not pass with
/// exit 0 and nothing printed. Empty input is no news, and exits 0.
#[test]
fn text_with_no_puzzle_is_bad_input_and_empty_input_is_not() {
    for jobs in ["-j1", "-j2"] {
        for command in ["solve", "count", "analyze"] {
            let r = run(&[command, jobs], "Puzzles of the week\nSee you next week\n");
            assert_eq!(r.code, 2, "{command} {jobs}: {}", r.stderr);
            assert_eq!(r.stdout, "", "{command} {jobs}");
            let says = "no puzzle in the input: 2 lines of text, the first at <stdin>:1, read as titles";
            assert!(r.stderr.contains(says), "{command} {jobs}: {}", r.stderr);
            for empty in ["", "\n\n", "# nothing yet\n"] {
                let r = run(&[command, jobs], empty);
                assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{command} {jobs} {empty:?}: {}", r.stderr);
                assert!(r.stderr.contains("no puzzle in the input: only blank or comment lines"), "{}", r.stderr);
            }
            // Puzzles numbered `#1 …` by hand are comments as written, and
            // nothing was read of what was meant: that is said, exit 2.
            let numbered = format!("# from the forum\n#1 {TOP1}\n#2 {TOP1}\n");
            let r = run(&[command, jobs], &numbered);
            assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{command} {jobs}: {}", r.stderr);
            let says = "2 comment lines hold a whole puzzle after the `#`, the first at <stdin>:2";
            assert!(r.stderr.contains(says), "{command} {jobs}: {}", r.stderr);
            // A puzzle commented out whole, with no number, is left out on purpose.
            let r = run(&[command, jobs], &format!("#{TOP1}\n# {TOP1}\n"));
            assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{command} {jobs}: {}", r.stderr);
            // A CSV header with no rows under it is an empty table, and says so.
            let r = run(&[command, jobs], "# exported\nid,puzzle,solution\n");
            assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{command} {jobs}: {}", r.stderr);
            let says = "no puzzle in the input: only a CSV header, at <stdin>:2, and no rows under it";
            assert!(r.stderr.contains(says), "{command} {jobs}: {}", r.stderr);
        }
    }
    // Rows with a letter for empty cells are one record naming the letter.
    let rows = "6ooooo8o3\nooo1o8ooo\n4o9ooo1o5\noo6o7oooo\n7ooo3ooo1\noooo5o4oo\n3o4ooo9o6\nooo4o1ooo\n1o5ooooo2\n";
    let r = run(&["solve", "--format", "json"], rows);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let records = crate::util::json_lines(&r.stdout);
    assert_eq!(records.len(), 1, "{}", r.stdout);
    assert_eq!(records[0]["status"], "invalid");
    assert!(records[0]["error"].as_str().unwrap().starts_with("<stdin>:1:2: 'o' is not a symbol"), "{}", r.stdout);
}

/// One input of several that holds text and no puzzle gets an `invalid`
/// record in its place, as a file that cannot be opened does: it had been
/// passed over in silence behind the others' answers, exit 0 (a stray
/// UTF-16 mark, `FF FE`, before ASCII text made a puzzle file one such
/// line of text). A file of blank lines alone is still no news.
#[test]
fn an_input_of_several_that_holds_no_puzzle_has_a_record() {
    let dir = TempDir::new().unwrap();
    let words = write_file(&dir, "words.txt", "Puzzles of the week\nSee you next week\n");
    let numbered = write_file(&dir, "numbered.txt", &format!("#1 {TOP1}\n"));
    let blank = write_file(&dir, "blank.txt", "\n\n");
    let puzzle = write_file(&dir, "puzzle.txt", &format!("{TOP1}\n"));
    let marked = dir.path().join("marked.txt");
    std::fs::write(&marked, [&[0xFF, 0xFE, b'\n'][..], TOP1.as_bytes(), b"\n"].concat()).unwrap();
    let marked = marked.to_str().unwrap();
    for jobs in ["-j1", "-j2"] {
        let files = [words.as_str(), &puzzle, &blank, marked, &numbered, &puzzle];
        let r = run(&[&["solve", jobs, "--format", "json"][..], &files].concat(), "");
        assert_eq!(r.code, 2, "{jobs}: {}", r.stderr);
        let records = crate::util::json_lines(&r.stdout);
        let statuses: Vec<_> = records.iter().map(|r| r["status"].as_str().unwrap()).collect();
        assert_eq!(statuses, ["invalid", "solved", "invalid", "invalid", "solved"], "{jobs}: {}", r.stdout);
        for (record, file) in [(&records[0], &words), (&records[2], &marked.to_string()), (&records[3], &numbered)] {
            assert_eq!(record["source"], file.as_str(), "{}", r.stdout);
            assert!(record["error"].as_str().unwrap().contains("no puzzle in this input"), "{}", r.stdout);
        }
    }
}

/// What `--fpuzzles`, `--regions` and `--grid` name is read whatever it is,
/// a file, a pipe or a device: `--fpuzzles` read a pipe's path, a missing
/// file's name and a directory's as puzzle text ("'/dev/fd/63' is base64
/// that does not decompress"), `--regions` refused a pipe as "not a file",
/// and `--grid /dev/zero` and `decode --cnf /dev/zero` read until memory ran out.
#[test]
fn named_inputs_are_read_from_pipes_and_a_missing_file_or_a_directory_is_said_so() {
    let dir = TempDir::new().unwrap();
    let made = run(&["generate", "--size", "4", "--count", "1", "--seed", "1", "--format", "fpuzzles"], "");
    assert_eq!(made.code, 0, "{}", made.stderr);
    let file = write_file(&dir, "one.fp", &made.stdout);
    let from_file = run(&["solve", "--fpuzzles", &file], "");
    assert_eq!(from_file.code, 0, "{}", from_file.stderr);
    // Through a pipe: stdin is one.
    let piped = run(&["solve", "--fpuzzles", "/dev/stdin"], &made.stdout);
    assert_eq!((piped.code, &piped.stdout), (0, &from_file.stdout), "{}", piped.stderr);
    let blank = write_file(&dir, "blank.txt", BLANK);
    let map = run(&["count", "--regions", "/dev/stdin", &blank], "aabb\naabb\nccdd\nccdd\n");
    assert_eq!((map.code, map.stdout.trim()), (0, "288"), "{}", map.stderr);
    // A map through a pipe is named as a file is, where it is wrong.
    let bad = run(&["count", "--regions", "/dev/stdin", &blank], "aabb\naabb\nccdd\nccde\n");
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--regions /dev/stdin:4:4: label 'e'"), "{}", bad.stderr);
    // A link with no scheme is no file's name.
    let link = format!("sudokupad.app/fpuzzles{}", made.stdout.trim());
    let linked = run(&["solve", "--fpuzzles", &link], "");
    assert_eq!((linked.code, &linked.stdout), (0, &from_file.stdout), "{}", linked.stderr);
    let missing = dir.path().join("missing.fp").display().to_string();
    refused(&["solve", "--fpuzzles", &missing], &["missing.fp: no such file"]);
    let folder = dir.path().display().to_string();
    refused(&["solve", "--fpuzzles", &folder], &[": a directory, not a file"]);
    refused(&["count", "--regions", &folder], &[": a directory, not a file"]);
    // Endless: refused past what any such file holds.
    refused(&["count", "--grid", "/dev/zero"], &["/dev/zero", "more than 256 MiB"]);
    refused(&["solve", "--fpuzzles", "/dev/zero"], &["/dev/zero", "more than 256 MiB"]);
    refused(&["decode", "--cnf", "/dev/zero"], &["/dev/zero", "no line end in the first 16 MiB: not a CNF"]);
}

/// Options that would mean nothing where they are given are refused, each
/// named, rather than ignored: grid options to `man` and `completions`,
/// stdin's place in a bigger input where stdin is not read, a solver's
/// placeholder that is none; and a file option that names a directory is
/// named with its option.
#[test]
fn options_that_would_be_ignored_or_misread_are_refused_by_name() {
    let dir = TempDir::new().unwrap();
    let puzzle = write_file(&dir, "p.txt", BLANK);
    refused(&["man", "--box", "2x2"], &["--box is a grid option", "`man` reads none"]);
    refused(&["completions", "bash", "--latin"], &["--latin is a grid option", "`completions` reads none"]);
    refused(&["count", "--first-line", "7", &puzzle], &["--first-line places stdin", "no puzzles are read from stdin"]);
    refused(&["count", "--stdin-name", "big.txt", &puzzle], &["--stdin-name places stdin"]);
    let chunk = run(&["count", "--first-line", "7", "--format", "json", "-"], BLANK);
    assert_eq!(chunk.code, 0, "{}", chunk.stderr);
    assert!(chunk.stdout.contains("\"source\":\"<stdin>:7\""), "{}", chunk.stdout);
    refused(&["solve", "--solver", "cadical {unkown}", &puzzle], &["no placeholder {unkown}", "{cnf}"]);
    let folder = dir.path().display().to_string();
    refused(&["count", "--grid", &folder, &puzzle], &[&format!("--grid {folder}: cannot read")]);
    refused(&["dimacs", &puzzle, "--out", &folder], &[&format!("--out {folder}: that is a directory, not a file")]);
    refused(&["count", "--box", "18446744073709551617x1", &puzzle], &["too large", "at most 1024"]);
    refused(&["count", "--box", "3y3", &puzzle], &["expected RxC"]);
}
