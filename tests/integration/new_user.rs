//! What a red-team pass found a new user's tools write and type (2026-11-28):
//! each test failed on the main of that day. A puzzle saved by R, Python,
//! Notepad, PowerShell or copied from a web page is one record, solved and
//! checked by the independent checker; a mistake gets one message that says
//! what to do.

use tempfile::TempDir;

use crate::util::checker::{assert_solves, read_solution_line, read_symbols, Shape};
use crate::util::{json_lines, run, satdoku, write_file};

const TOP1: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const TOP2: &str = "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....";

/// Solve `input` (bytes, from a file) as JSON and check it is exactly `puzzles`, solved.
fn solves_as(input: &[u8], puzzles: &[&str]) {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("puzzles.txt");
    std::fs::write(&path, input).unwrap();
    let out = satdoku().args(["solve", "--format", "json"]).arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), puzzles.len(), "{records:?}");
    for (record, puzzle) in records.iter().zip(puzzles) {
        assert_eq!(record["status"], "solved", "{record}");
        let solution = read_solution_line(record["solution"].as_str().unwrap(), None);
        assert_solves(&Shape::classic(9), &read_symbols(puzzle), &solution, &record.to_string());
    }
}

#[test]
fn csv_with_every_field_quoted_is_one_record_a_row() {
    // R's write.csv (row names), and Python's csv.QUOTE_ALL.
    let r = format!("\"\",\"quizzes\",\"solutions\"\n\"1\",\"{TOP1}\",\"\"\n\"2\",\"{TOP2}\",\"\"\n");
    let python = format!("\"quizzes\",\"solutions\"\r\n\"{TOP1}\",\"\"\r\n\"{TOP2}\",\"\"\r\n");
    solves_as(r.as_bytes(), &[TOP1, TOP2]);
    solves_as(python.as_bytes(), &[TOP1, TOP2]);
}

#[test]
fn a_utf16_file_is_read_as_its_text() {
    // What PowerShell 5's `>` and Notepad's "Unicode" write.
    let text = format!("# two puzzles\r\n{TOP1}\r\n{TOP2}\r\n");
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    solves_as(&bytes, &[TOP1, TOP2]);
}

#[test]
fn a_grid_drawn_with_box_drawing_characters_is_one_record() {
    let mut text = String::from("┌───────┬───────┬───────┐\n");
    for r in 0..9 {
        let row: Vec<String> = (0..3)
            .map(|b| TOP1[r * 9 + b * 3..r * 9 + b * 3 + 3].chars().map(String::from).collect::<Vec<_>>().join(" "))
            .collect();
        text += &format!("│ {} │\n", row.join(" │ "));
        if r == 2 || r == 5 {
            text += "├───────┼───────┼───────┤\n";
        }
    }
    text += "└───────┴───────┴───────┘\n";
    // A comment saved in Latin-1, and DOS's Ctrl-Z at the end.
    let mut bytes = b"# caf\xe9\n".to_vec();
    bytes.extend(text.as_bytes());
    bytes.extend(format!("\n{TOP2}\r\n\u{1a}").as_bytes());
    solves_as(&bytes, &[TOP1, TOP2]);
}

#[test]
fn a_puzzle_typed_as_a_file_name_says_how_to_give_it() {
    let r = run(&["solve", TOP1], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot open") && r.stderr.contains("| satdoku solve"), "{}", r.stderr);
    // A missing file that is no puzzle gets no such advice.
    let r = run(&["solve", "puzzles.txt"], "");
    assert!(r.stderr.contains("cannot open") && !r.stderr.contains("| satdoku solve"), "{}", r.stderr);
}

#[test]
fn a_puzzle_file_or_binary_given_to_grid_says_what_a_grid_file_is() {
    let dir = TempDir::new().unwrap();
    let puzzle = write_file(&dir, "top.txt", &format!("{TOP1}\n"));
    let r = run(&["solve", "--grid", &puzzle, &puzzle], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("top.txt:1:") && r.stderr.contains("no grid file"), "{}", r.stderr);
    let binary = dir.path().join("grid.bin");
    std::fs::write(&binary, b"size = 9\n\xff\xfe").unwrap();
    let r = run(&["solve", "--grid", binary.to_str().unwrap(), &puzzle], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("grid.bin:2:1: byte 0xff is not UTF-8"), "{}", r.stderr);
}

#[test]
fn options_that_make_no_grid_at_any_size_are_one_usage_error() {
    let r =
        run(&["solve", "--latin", "--variant", "disjoint-groups", "--format", "json"], &format!("{TOP1}\n{TOP2}\n"));
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty(), "no record per puzzle: {}", r.stdout);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("disjoint groups need boxes"), "{}", r.stderr);
}

#[test]
fn a_file_system_that_takes_no_files_is_not_called_missing() {
    if !std::path::Path::new("/proc/version").exists() {
        return;
    }
    let r = run(&["dimacs", "--out", "/proc/version"], &format!("{TOP1}\n"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("takes no new files") && !r.stderr.contains("no directory"), "{}", r.stderr);
}

/// `text` as Windows saves it: UTF-16 little-endian with its byte-order mark.
fn utf16(text: &str) -> Vec<u8> {
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    bytes
}

/// Notepad's UTF-8 with a byte-order mark, and PowerShell's UTF-16: the
/// files an option reads whole (f-puzzles JSON, grid files, region maps)
/// are read as puzzle files are. A JSON file with a comment above it is
/// read too, and a JSON error names the file's own line.
#[test]
fn files_that_options_read_are_read_as_saved_elsewhere() {
    let dir = TempDir::new().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    };
    let givens = read_symbols(TOP1);
    let grid: Vec<Vec<serde_json::Value>> = (0..9)
        .map(|r| {
            (0..9)
                .map(|c| match givens[r * 9 + c] {
                    0 => serde_json::json!({}),
                    v => serde_json::json!({ "value": v, "given": true }),
                })
                .collect()
        })
        .collect();
    let json = serde_json::json!({ "size": 9, "grid": grid }).to_string();
    let solved = |args: &[&str], shape: &Shape| {
        let r = run(&[&["solve", "--format", "line"], args].concat(), "");
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let solution = read_solution_line(r.stdout.trim(), None);
        assert_solves(shape, &givens, &solution, &format!("{args:?}"));
    };
    for (name, bytes) in [
        ("bom.json", [&b"\xEF\xBB\xBF"[..], json.as_bytes()].concat()),
        ("utf16.json", utf16(&json)),
        ("comment.json", format!("# from my collection\n\n{json}\n").into_bytes()),
    ] {
        solved(&["--fpuzzles", &write(name, &bytes)], &Shape::classic(9));
    }
    let broken = write("broken.json", b"# from my collection\n{\"size\": 9,\n  \"grid\": [}\n");
    let r = run(&["solve", "--fpuzzles", &broken], "");
    assert_eq!(r.code, 2);
    // Named where the fault is, the file's line 3 (not the JSON's line 2), and column 12.
    assert!(r.stderr.contains("broken.json:3:12: ") && r.stderr.contains("line 3 column 12"), "{}", r.stderr);

    // A grid file and a region map (the boxes, as labels) in UTF-16.
    let x = std::fs::read_to_string(crate::util::checker::repo_path("encodings/x-9.toml")).unwrap();
    let puzzle = write("puzzle.txt", format!("{TOP1}\n").as_bytes());
    // r1c1 and r9c1, one on each diagonal.
    let x_puzzle = format!("1{}2{}", ".".repeat(71), ".".repeat(8));
    let x_file = write("x-puzzle.txt", format!("{x_puzzle}\n").as_bytes());
    let r = run(&["solve", "--format", "line", "--grid", &write("x.toml", &utf16(&x)), &x_file], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let solution = read_solution_line(r.stdout.trim(), None);
    assert_solves(&Shape::classic(9).with_diagonals(), &read_symbols(&x_puzzle), &solution, "UTF-16 grid file");
    let map: String = (0..81).map(|i| char::from(b'a' + (i / 27 * 3 + i % 9 / 3) as u8)).collect();
    let r = run(&["solve", "--format", "line", "--regions", &write("map.txt", &utf16(&map)), &puzzle], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_solves(&Shape::classic(9), &givens, &read_solution_line(r.stdout.trim(), None), "UTF-16 map");
}

/// Two puzzles on one line, after a space, a tab or a comma, are a record
/// each: the second was passed over as the first's solution and lost with
/// exit 0. The first's solution, or a state of it, beside it stays a free
/// field, and a 16×16 written as sixteen words of sixteen cells (each a
/// 4×4 by its length) stays one puzzle.
#[test]
fn puzzles_side_by_side_on_a_line_are_a_record_each() {
    let solution = run(&["solve"], TOP1).stdout;
    let solution = solution.trim();
    // TOP1 with one more value of its solution: a state of it.
    let state: String =
        TOP1.chars().zip(solution.chars()).enumerate().map(|(i, (p, s))| if i == 1 { s } else { p }).collect();
    let lines = [
        format!("{TOP1} {TOP2}\n"),
        format!("{TOP2}\t{TOP1}\n"),
        format!("{TOP1},{TOP2}\n"),
        format!("0042 {TOP1} {TOP2} 3.5\n"),
    ];
    for line in &lines {
        let second = if line.starts_with(TOP2) { [TOP2, TOP1] } else { [TOP1, TOP2] };
        solves_as(line.as_bytes(), &second);
    }
    solves_as(format!("{TOP1} {TOP2} {TOP1} {TOP2}\n").as_bytes(), &[TOP1, TOP2, TOP1, TOP2]);
    solves_as(format!("{TOP1} {solution}\n{TOP1} {state}\n").as_bytes(), &[TOP1, TOP1]);
    // Each puzzle with its solution after it: the solutions are free fields.
    let top2 = run(&["solve"], TOP2).stdout;
    solves_as(format!("{TOP1} {solution} {TOP2} {}\n", top2.trim()).as_bytes(), &[TOP1, TOP2]);
    // What follows another field is free (tdoku's `puzzle:count:…`).
    solves_as(format!("{TOP1}:1:{TOP2}\n").as_bytes(), &[TOP1]);
    // The first is named by its label; a title that heads no puzzle after
    // them is still reported (the puzzle beside had cleared the count).
    let out = run(&["solve", "--format", "json"], &format!("Grid 01\n{TOP1} {TOP2}\nGrid 02\n"));
    assert_eq!(out.code, 2, "{}", out.stdout);
    let records = json_lines(out.stdout.as_bytes());
    let statuses: Vec<&str> = records.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["solved", "solved", "invalid"], "{}", out.stdout);
    assert!(records[2]["error"].as_str().unwrap().contains("'Grid 02' heads no puzzle"), "{}", records[2]);
    let out = run(&["solve", "--format", "json"], &format!("Puzzle 1: {TOP1} {TOP2}\n"));
    assert_eq!(json_lines(out.stdout.as_bytes())[0]["name"], "Puzzle 1", "{}", out.stdout);

    let r = run(&["generate", "--solved", "--size", "16", "--seed", "3"], "");
    let full = r.stdout.trim();
    let puzzle: String = full.chars().enumerate().map(|(i, c)| if i % 3 == 0 { '.' } else { c }).collect();
    let words: Vec<String> = puzzle.chars().collect::<Vec<_>>().chunks(16).map(|w| w.iter().collect()).collect();
    let out = run(&["solve", "--format", "json"], &format!("{}\n", words.join(" ")));
    let records = json_lines(out.stdout.as_bytes());
    assert_eq!(records.len(), 1, "{}", out.stdout);
    let solution = read_solution_line(records[0]["solution"].as_str().unwrap(), None);
    assert_solves(&Shape::classic(16), &read_symbols(&puzzle), &solution, "a 16x16 in words");
}
