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
