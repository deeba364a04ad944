//! What a review of the command-line contract against docs/cli.md found: each
//! test failed before its fix. Answers are checked by the independent checker.

use tempfile::TempDir;

use crate::util::checker::{assert_solves, data_path, read_solution_line, read_symbols, Shape};
use crate::util::{json_lines, json_run, run, write_file};

/// `--propagate`'s LEVEL is optional: given bare before a file, it took the
/// file's name as the level and refused the command. The file is read now,
/// at the default level; a word that is neither a level nor a file is still
/// refused, with the levels.
#[test]
fn a_bare_propagate_before_a_file_reads_the_file() {
    let file = data_path("top95.txt");
    let file = file.to_str().unwrap();
    let bare = run(&["analyze", "--propagate", file, "--format", "json"], "");
    let named = run(&["analyze", "--propagate=subsets", file, "--format", "json"], "");
    assert_eq!(bare.code, 0, "{}", bare.stderr);
    assert_eq!(bare.stdout, named.stdout);
    assert_eq!(json_lines(&bare.stdout).len(), 95);

    let typo = run(&["analyze", "--propagate", "singels", file], "");
    assert_eq!(typo.code, 2);
    assert!(typo.stdout.is_empty());
    assert!(typo.stderr.contains("singles") && typo.stderr.contains("probe"), "{}", typo.stderr);
}

/// `generate` and `minimize` took `--format fpuzzles` and printed plain
/// lines. Now the string holds the puzzle made, its givens only: read back,
/// it has one solution, and that solution keeps the puzzle's givens.
#[test]
fn generate_and_minimize_write_f_puzzles_strings_of_the_puzzle_made() {
    let line = run(&["generate", "--seed", "5", "--format", "line"], "");
    let string = run(&["generate", "--seed", "5", "--format", "fpuzzles"], "");
    assert_eq!(string.code, 0, "{}", string.stderr);
    let string = string.stdout.trim();
    assert!(string.starts_with("N4Ig"), "not an f-puzzles string: {string}");
    let givens = read_symbols(line.stdout.trim());

    let counted = json_run(&["count", "--fpuzzles", string, "--format", "json"], "", 0, 1);
    assert_eq!(counted[0]["count"], 1);
    let solved = json_run(&["solve", "--fpuzzles", string, "--format", "json"], "", 0, 1);
    let solution = read_solution_line(solved[0]["solution"].as_str().unwrap(), None);
    assert_solves(&Shape::classic(9), &givens, &solution, "generate --seed 5");
    // Givens only, read from the string's JSON here: every cell with a
    // value is a given of the puzzle made, and every given is there.
    let json = lz_str::decompress_from_base64(string).expect("an lz-string");
    let json: serde_json::Value = serde_json::from_str(&String::from_utf16(&json).unwrap()).unwrap();
    let cells: Vec<usize> = (0..81)
        .map(|i| {
            let cell = &json["grid"][i / 9][i % 9];
            let value = cell["value"].as_u64().unwrap_or(0) as usize;
            assert!(value == 0 || cell["given"] == true, "cell {i}: a value that is no given: {cell}");
            value
        })
        .collect();
    assert_eq!(cells, givens);

    let minimized = run(&["minimize", "--format", "fpuzzles"], line.stdout.trim());
    assert_eq!(minimized.code, 0, "{}", minimized.stderr);
    let counted = json_run(&["count", "--fpuzzles", minimized.stdout.trim(), "--format", "json"], "", 0, 1);
    assert_eq!(counted[0]["count"], 1);
}

/// `decode --format json` wrote no record when the answer could not be
/// read: now a script gets its one `invalid` record, saying what and where.
#[test]
fn decode_writes_an_invalid_record_for_an_answer_it_cannot_read() {
    let dir = TempDir::new().unwrap();
    let puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let cnf = run(&["dimacs"], puzzle);
    assert_eq!(cnf.code, 0);
    let cnf = write_file(&dir, "p.cnf", &cnf.stdout);
    let garbled = write_file(&dir, "garbled.ans", "s SATISFIABLE\nv 1 x 0\n");
    let missing = dir.path().join("missing.ans").display().to_string();
    let cases = [
        (&missing, "cannot open"),
        (&garbled, "garbled.ans:2:"),
        (&dir.path().display().to_string(), "is a directory"),
    ];
    for (answer, says) in cases {
        let records = json_run(&["decode", "--cnf", &cnf, answer, "--format", "json"], "", 2, 1);
        assert_eq!(records[0]["status"], "invalid", "{answer}");
        assert_eq!(records[0]["index"], 1);
        let error = records[0]["error"].as_str().unwrap();
        assert!(error.contains(says), "{answer}: {error}");
    }
}

/// A directory given as a puzzle file is a file that cannot be opened, as
/// the contract words it, not a read error at line 1.
#[test]
fn a_directory_as_a_puzzle_file_cannot_be_opened() {
    let dir = TempDir::new().unwrap();
    let name = dir.path().display().to_string();
    let records = json_run(&["solve", &name, "-", "--format", "json"], "1234341221434321", 2, 2);
    assert_eq!(records[0]["status"], "invalid");
    assert_eq!(records[0]["source"], name.as_str());
    assert!(records[0]["error"].as_str().unwrap().contains("cannot open: is a directory"), "{}", records[0]);
    assert_eq!(records[1]["status"], "solved");
}

/// The clock's seed was past 2⁵³, where JSON readers that hold numbers as
/// doubles (jq, JavaScript) round it: the seed read back made another puzzle.
#[test]
fn the_clock_seed_survives_a_json_reader_that_holds_doubles() {
    let made = json_run(&["generate", "--format", "json"], "", 0, 1);
    let seed = made[0]["seed"].as_u64().unwrap();
    assert!(seed < 1 << 53, "{seed}");
    // As a double and back: exact below 2⁵³.
    let read_back = (seed as f64) as u64;
    let again = json_run(&["generate", "--seed", &read_back.to_string(), "--format", "json"], "", 0, 1);
    assert_eq!(again[0]["puzzle"], made[0]["puzzle"]);
}

/// `count --timeout` kept its partial count only in JSON: the line format
/// printed the error alone. The message now says how many were counted.
#[test]
fn a_count_cut_by_its_timeout_says_how_many_it_counted_in_every_format() {
    let blank = ".".repeat(81);
    let line = run(&["count", "--timeout", "0.3", "--format", "line"], &blank);
    assert_eq!(line.code, 2);
    let counted: u64 = line
        .stdout
        .split("after counting ")
        .nth(1)
        .and_then(|rest| rest.trim().parse().ok())
        .unwrap_or_else(|| panic!("no partial count in {:?}", line.stdout));
    assert!(counted > 0);
    let json = json_run(&["count", "--timeout", "0.3", "--format", "json"], &blank, 2, 1);
    assert_eq!(json[0]["capped"], true);
    let error = json[0]["error"].as_str().unwrap();
    assert!(error.ends_with(&format!("after counting {}", json[0]["count"])), "{}", json[0]);
}
