//! Property tests for puzzle text: whatever the input, no panic and one record
//! per puzzle-looking input; printing a grid and reading it back gives the grid.

use std::sync::Arc;

use proptest::prelude::*;
use satdoku::{read_all, Alphabet, Geometry, GeometrySpec, Grid, PuzzleReader, Value};

use crate::util::checker::{self, Shape};
use crate::util::{json_lines, run, satdoku};

const TOP: [&str; 4] = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
];

/// Read `bytes` with `spec`; every entry must be consistent, and small valid
/// puzzles must solve correctly (or be unsolvable).
fn read_bytes(bytes: &[u8], spec: &mut GeometrySpec, alphabet: &Alphabet) -> usize {
    let entries: Vec<_> = PuzzleReader::new(bytes, "p", alphabet, spec).collect();
    for e in &entries {
        if let Ok(p) = &e.puzzle {
            assert_eq!(p.givens().cells().len(), p.size() * p.size());
        }
        if let Err(err) = &e.puzzle {
            let text = err.to_string();
            assert!(text.starts_with("p:"), "an error names its source: {text}");
        }
    }
    entries.len()
}

/// One mutation of a puzzle line: replace, delete or insert a character.
fn mutate(line: &str, op: u8, pos: usize, ch: char) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    let pos = pos % (chars.len() + 1);
    match op % 3 {
        0 if pos < chars.len() => chars[pos] = ch,
        1 if pos < chars.len() => {
            chars.remove(pos);
        }
        _ => chars.insert(pos, ch),
    }
    let s: String = chars.into_iter().collect();
    // Keep it puzzle-looking: not a comment, not blank.
    if s.trim_start().starts_with('#') || s.trim().is_empty() {
        line.to_string()
    } else {
        s
    }
}

fn noise_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            '1', '9', '0', '.', '_', 'A', 'Z', 'z', '?', '|', '+', '-', ' ', '\t', '#', 'é', '\u{feff}'
        ]),
        // Vertical tab breaks a line too (a word processor's line break).
        any::<char>().prop_filter("no line breaks", |c| !matches!(c, '\n' | '\r' | '\u{b}')),
    ]
}

/// A puzzle of TOP by index, and maybe one mutation (operation, position, character).
type Pick = (usize, Option<(u8, usize, char)>);

fn line_mutations() -> impl Strategy<Value = Vec<Pick>> {
    prop::collection::vec((0..TOP.len(), prop::option::weighted(0.5, (0u8..3, 0usize..100, noise_char()))), 1..12)
}

/// The picked lines, mutated where the pick says so, and the text they make.
fn mutated_lines(picks: &[Pick]) -> (Vec<String>, String) {
    let lines: Vec<String> = picks
        .iter()
        .map(|(i, m)| match m {
            Some((op, pos, ch)) => mutate(TOP[*i], *op, *pos, *ch),
            None => TOP[*i].to_string(),
        })
        .collect();
    let text = lines.join("\n") + "\n";
    (lines, text)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        read_bytes(&bytes, &mut GeometrySpec::classic(), &Alphabet::default());
        read_bytes(&bytes, &mut GeometrySpec::latin(), &Alphabet::default());
        read_bytes(&bytes, &mut GeometrySpec::fixed(Arc::new(Geometry::classic(4).unwrap())), &Alphabet::default());
        read_bytes(&bytes, &mut GeometrySpec::classic(), &Alphabet::custom("0123456789ABCDEF").unwrap());
    }

    #[test]
    fn random_puzzle_like_text_never_panics(
        text in "([0-9A-Za-z._|+\\- #\t]{0,40}(\r?\n)?){0,30}"
    ) {
        read_bytes(text.as_bytes(), &mut GeometrySpec::classic(), &Alphabet::default());
        read_bytes(text.as_bytes(), &mut GeometrySpec::latin(), &Alphabet::default());
    }

    /// Lines of 9×9 puzzles, some mutated: one entry per line, in order; the
    /// untouched lines read exactly and solve correctly.
    #[test]
    fn near_valid_lines_give_one_record_each(picks in line_mutations()) {
        let (lines, text) = mutated_lines(&picks);
        let entries = read_all(&text, "p", &Alphabet::default(), &mut GeometrySpec::classic());
        prop_assert_eq!(entries.len(), lines.len(), "{}", text);
        for (k, (entry, line)) in entries.iter().zip(&lines).enumerate() {
            prop_assert_eq!(entry.position.line, k + 1);
            if TOP.contains(&line.as_str()) {
                let p = entry.puzzle.as_ref().unwrap();
                prop_assert_eq!(checker::numbers(p.givens()), checker::read_symbols(line));
            }
        }
    }

    /// 9×9 blocks separated by blank lines, one cell of one row mutated (kept
    /// a single visible cell): one entry per block.
    #[test]
    fn near_valid_blocks_give_one_record_each(
        picks in prop::collection::vec((0..TOP.len(), 0usize..81, prop::sample::select(vec!['?', 'Z', 'a', '0', '7', '%'])), 1..6),
    ) {
        let mut text = String::new();
        for (i, cell, ch) in &picks {
            let mut cells: Vec<char> = TOP[*i].chars().collect();
            cells[*cell] = *ch;
            for row in cells.chunks(9) {
                text.extend(row.iter());
                text.push('\n');
            }
            text.push('\n');
        }
        let entries = read_all(&text, "p", &Alphabet::default(), &mut GeometrySpec::classic());
        prop_assert_eq!(entries.len(), picks.len(), "{}", text);
    }

    /// Print any grid with `format::line`, read it back: the same grid. Sizes
    /// 1-35 print symbols, 36 and up numbers separated by spaces.
    #[test]
    fn line_format_round_trip(n in prop_oneof![1usize..=35, 36usize..=64], seed in any::<u64>(), fill in 0usize..=100) {
        let mut rng = checker::Rng::new(seed);
        let cells: Vec<Option<Value>> = (0..n * n)
            .map(|_| if rng.below(100) < fill { Value::new_checked(1 + rng.below(n), n) } else { None })
            .collect();
        let grid = Grid::from_cells(n, cells).unwrap();
        let alphabet = Alphabet::default();
        let text = satdoku::format::line(&grid, &alphabet);
        for mut spec in [GeometrySpec::latin(), GeometrySpec::fixed(Arc::new(Geometry::latin(n).unwrap()))] {
            let entries = read_all(&text, "rt", &alphabet, &mut spec);
            prop_assert_eq!(entries.len(), 1);
            let p = entries[0].puzzle.as_ref().map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(p.givens(), &grid);
        }
    }

    /// The same with a custom alphabet of the grid's size.
    #[test]
    fn custom_alphabet_round_trip(n in 1usize..=20, seed in any::<u64>()) {
        let pool: Vec<char> = "0123456789abcdefghijklmnopqrstuvwxyz".chars().collect();
        let mut rng = checker::Rng::new(seed);
        let mut symbols = pool.clone();
        rng.shuffle(&mut symbols);
        let symbols: String = symbols[..n].iter().collect();
        let alphabet = Alphabet::custom(&symbols).unwrap();
        let cells: Vec<Option<Value>> =
            (0..n * n).map(|_| if rng.below(2) == 0 { Value::new_checked(1 + rng.below(n), n) } else { None }).collect();
        let grid = Grid::from_cells(n, cells).unwrap();
        let text = satdoku::format::line(&grid, &alphabet);
        let entries = read_all(&text, "rt", &alphabet, &mut GeometrySpec::latin());
        prop_assert_eq!(entries.len(), 1);
        let p = entries[0].puzzle.as_ref().map_err(|e| TestCaseError::fail(format!("{symbols}: {e}")))?;
        prop_assert_eq!(p.givens(), &grid);
    }
}

/// The ways a line can hold one 9x9 puzzle, found without the reader: the
/// whole line with its spaces and box rules (`|+-`, box drawing) dropped, or one of its
/// words or fields (split at whitespace, `,`, `;`, `:`) as a label's or a
/// CSV row's puzzle; or, on a line of digits, empty marks and dashes alone,
/// the dashes as empty cells (`4-----8-5…`). Each reading is 81 cells of the
/// default alphabet. A byte-order mark opening the line is no cell.
fn whole_readings(line: &str) -> Vec<Vec<usize>> {
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    let cells = |text: &str| -> Option<Vec<usize>> {
        let values: Option<Vec<usize>> = text.chars().map(checker::symbol_value).collect();
        values.filter(|v| v.len() == 81 && v.iter().all(|&x| x <= 9))
    };
    // Box-drawing rules (`│`, `¦`, `─`, `┼`, …) are rules too (formats.md).
    let rule = |c: char| "|+-¦".contains(c) || ('\u{2500}'..='\u{257F}').contains(&c);
    let whole: String = line.chars().filter(|&c| !c.is_whitespace() && !rule(c)).collect();
    let dashed = match line.chars().all(|c| c.is_ascii_digit() || "._-".contains(c)) {
        true => line.replace('-', "."),
        false => String::new(),
    };
    std::iter::once(whole.as_str())
        .chain(std::iter::once(dashed.as_str()))
        .chain(line.split(|c: char| c.is_whitespace() || ",;:".contains(c)))
        .filter_map(cells)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The CLI on near-valid input: exits 0, 1 or 2, never panics, one JSON
    /// record per input line, in order, and every solution checked.
    #[test]
    fn cli_near_valid_lines(picks in line_mutations()) {
        let (lines, text) = mutated_lines(&picks);
        let r = run(&["solve", "--format", "json"], &text);
        prop_assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        prop_assert!([0, 1, 2].contains(&r.code));
        let recs = json_lines(&r.stdout);
        prop_assert_eq!(recs.len(), lines.len(), "{}", text);
        for (k, (rec, line)) in recs.iter().zip(&lines).enumerate() {
            prop_assert_eq!(&rec["index"], &serde_json::json!(k + 1));
            if rec["status"] == "solved" {
                let s = checker::read_solution_line(rec["solution"].as_str().unwrap(), None);
                let shape = Shape::classic(9);
                let readings = whole_readings(line);
                prop_assert!(!readings.is_empty(), "solved a line with no 81-cell reading: {:?}", line);
                prop_assert!(readings.iter().any(|givens| checker::check(&shape, givens, &s).is_ok()), "{} from {:?}", rec, line);
            }
        }
    }

    /// The CLI on random bytes: no panic, a known exit code.
    #[test]
    fn cli_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let out = satdoku().args(["solve", "--format", "json"]).write_stdin(bytes).timeout(std::time::Duration::from_secs(30)).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        prop_assert!(!stderr.contains("panicked"), "{}", stderr);
        prop_assert!([0, 1, 2].contains(&out.status.code().expect("not killed")));
        for rec in json_lines(&out.stdout) {
            prop_assert!(rec["index"].is_u64());
        }
    }
}
