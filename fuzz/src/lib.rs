//! What each fuzz target checks, one function per reader: whatever the bytes,
//! no panic, and whatever is read back obeys satdoku's promises.
//!
//! The fuzz targets in `fuzz_targets/` call these, and `tests/integration/fuzz_regressions.rs`
//! replays the saved crashes (`fuzz/regressions/<target>/`) through the same
//! functions, so a fixed crash stays fixed under `cargo test`.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use satdoku::cnf::{puzzle_cnf, read_cnf, read_model, write_cnf, Answer, CnfFile};
use satdoku::varisat::Solver;
use satdoku::{
    format, parse_grid_file, read_fpuzzles_entries, read_region_map, solve, verify, write_fpuzzles, Alphabet, Encoding,
    Geometry, GeometrySpec, Grid, Layout, Outcome, Puzzle, PuzzleReader, SolveError, SolveOptions, Variant,
};

/// Puzzles up to this side are solved, printed and written as CNF; bigger ones are only read.
const SOLVE_MAX_SIDE: usize = 16;
/// At most this many puzzles of one input are solved, to keep an execution short.
const SOLVE_MAX_PUZZLES: usize = 4;
/// A solve gives up after this long: a timeout is an answer, not a failure.
const SOLVE_TIMEOUT: Duration = Duration::from_millis(100);
/// varisat's search on a CNF read from the input stops after this many conflicts.
const CONFLICT_LIMIT: u64 = 2_000;
/// CNFs up to this many variables and clauses read from the input are solved and decoded.
const CNF_SOLVE_MAX: usize = 20_000;

/// The jigsaw grid of `encodings/`, as `--grid` would read it.
const JIGSAW_9: &str = include_str!("../../encodings/jigsaw-9.toml");

/// Puzzle text in every form the reader takes. The first byte chooses the
/// geometry (bits 0-2), the alphabet (bits 3-4) and the encoding used to
/// solve (bits 5-6); the rest is the text. Every puzzle read is printed, read
/// back from its own line, and (when small) solved, its solution checked.
pub fn puzzle_text(data: &[u8]) {
    let Some((&selector, mut text)) = data.split_first() else { return };
    let mut spec = match selector & 7 {
        0 => GeometrySpec::classic(),
        1 => GeometrySpec::latin(),
        2 => GeometrySpec::fixed(Arc::new(Geometry::classic(9).expect("9 has boxes"))),
        3 => GeometrySpec::fixed(Arc::new(parse_grid_file(JIGSAW_9, "jigsaw-9.toml").expect("a valid grid file"))),
        4 => GeometrySpec::classic().with_variants(&[Variant::X]),
        5 => GeometrySpec::classic().with_variants(&[Variant::Hyper]),
        6 => GeometrySpec::latin().with_variants(&[Variant::X]),
        _ => GeometrySpec::fixed(Arc::new(
            Geometry::new(6, Layout::Boxes { rows: 3, cols: 2 }, &[]).expect("3x2 boxes tile a 6x6 grid"),
        )),
    };
    let alphabet = match (selector >> 3) & 3 {
        0 | 1 => Alphabet::default(),
        2 => Alphabet::custom("①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯").expect("distinct symbols"),
        _ => {
            // The first line is the alphabet, as `--alphabet` would give it.
            let end = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
            let Ok(symbols) = std::str::from_utf8(&text[..end]) else { return };
            let Ok(alphabet) = Alphabet::custom(symbols) else { return };
            text = text.get(end + 1..).unwrap_or_default();
            alphabet
        }
    };
    let encoding = match (selector >> 5) & 3 {
        0 => Encoding::Full,
        1 => Encoding::Reduced,
        _ => Encoding::Propagated,
    };
    let options = SolveOptions { encoding, timeout: Some(SOLVE_TIMEOUT), ..SolveOptions::default() };
    // Read one byte at a time when asked, so that lines cross buffer boundaries.
    let entries: Vec<_> = if selector & 0x80 != 0 {
        PuzzleReader::new(std::io::BufReader::with_capacity(1, text), "fuzz.txt", &alphabet, &mut spec).collect()
    } else {
        PuzzleReader::new(text, "fuzz.txt", &alphabet, &mut spec).collect()
    };
    let mut solved = 0;
    for entry in entries {
        let _ = format!("{:?}", entry.name);
        let puzzle = match entry.puzzle {
            Ok(puzzle) => puzzle,
            Err(error) => {
                let _ = error.to_string();
                continue;
            }
        };
        let n = puzzle.size();
        assert_eq!(puzzle.geometry().size(), n, "a puzzle's grid and geometry differ in size");
        assert_eq!(puzzle.givens().cells().len(), n * n, "a puzzle of side {n} has not n² cells");
        if n > SOLVE_MAX_SIDE {
            continue;
        }
        read_back(&puzzle, &alphabet);
        let _ = format::pretty(puzzle.givens(), puzzle.geometry(), &alphabet);
        if solved < SOLVE_MAX_PUZZLES {
            solved += 1;
            check_solve(&puzzle, &options);
        }
    }
}

/// Known puzzles among junk. The first byte chooses: bit 0, a blank line on
/// either side of each known puzzle, or (set) none and the junk on one line;
/// bit 1, a fixed 9×9 grid (`--box 3x3`) rather than sizes inferred. The rest,
/// cut at each 0xFF byte, gives the pieces of junk; a known puzzle goes after
/// each. Whatever the junk, each known puzzle must be read as itself, as the
/// entry that starts on its first line (issue 15: a line that cannot begin a
/// consistent block is one invalid record, and the next line starts afresh;
/// a block never borrows rows across a blank line or from the next puzzle).
/// Next to junk, only one-line puzzles of 9×9 and more are known, among
/// fewer than 80 lines, so that junk cannot begin a consistent block that holds one.
pub fn puzzle_framing(data: &[u8]) {
    let Some((&selector, data)) = data.split_first() else { return };
    let adjacent = selector & 1 != 0;
    let fixed = selector & 2 != 0;
    let known: Vec<&(&str, Grid)> = known_puzzles()
        .iter()
        .filter(|(text, givens)| {
            !(adjacent && (text.contains('\n') || givens.size() < 9)) && !(fixed && givens.size() != 9)
        })
        .collect();
    // docs/formats.md: these `.sdk` sections are skipped, up to the next blank line.
    let skipped = |line: &[u8]| {
        let line = String::from_utf8_lossy(line).trim().to_ascii_lowercase();
        ["[state]", "[pencilmarks]", "[colours]"].contains(&line.as_str())
    };
    if data.split(|&b| matches!(b, b'\n' | b'\r' | 0x0b | 0xFF)).any(skipped) {
        return;
    }
    // docs/formats.md: under a CSV header, a quote that a later line closes
    // makes a note of the lines between, up to a blank line; junk right
    // against the puzzles could so take one into a note.
    if adjacent && data.contains(&b'"') {
        return;
    }
    let (pieces, gap): (usize, &[u8]) = if adjacent { (32, b"\n") } else { (64, b"\n\n") };
    let mut text = Vec::new();
    let mut inserted = Vec::new();
    for (i, junk) in data.split(|&b| b == 0xFF).take(pieces).enumerate() {
        if adjacent {
            text.extend(junk.iter().map(|&b| if matches!(b, b'\n' | b'\r' | 0x0b) { b' ' } else { b }));
        } else {
            text.extend_from_slice(junk);
        }
        text.extend_from_slice(gap);
        let (puzzle, givens) = known[i % known.len()];
        inserted.push((1 + line_ends(&text), puzzle, givens));
        text.extend_from_slice(puzzle.as_bytes());
        text.extend_from_slice(gap);
    }
    // docs/formats.md: text whose first two characters are ASCII with a NUL
    // beside each is UTF-16 without its mark, and the whole input is read so.
    let text_byte = |b: u8| b.is_ascii_graphic() || matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    if let [a, 0, b, 0, ..] | [0, a, 0, b, ..] = text[..] {
        if text_byte(a) && text_byte(b) {
            return;
        }
    }
    let alphabet = Alphabet::default();
    let mut spec = if fixed {
        GeometrySpec::fixed(Arc::new(Geometry::classic(9).expect("9 has boxes")))
    } else {
        GeometrySpec::classic()
    };
    let entries: Vec<_> = PuzzleReader::new(&text[..], "fuzz.txt", &alphabet, &mut spec).collect();
    for (line, puzzle, givens) in inserted {
        let Some(entry) = entries.iter().find(|e| e.position.line == line) else {
            panic!("no entry starts on line {line}, where the known puzzle {puzzle:?} is");
        };
        match &entry.puzzle {
            Ok(read) => assert_eq!(read.givens(), givens, "line {line}: the known puzzle {puzzle:?} reads as another"),
            Err(error) => panic!("line {line}: the known puzzle {puzzle:?} does not read: {error}"),
        }
    }
}

/// The line ends in `text`, as the reader counts them: LF, CRLF, a lone
/// CR, or a vertical tab.
fn line_ends(text: &[u8]) -> usize {
    let lone_cr = text.windows(2).filter(|w| w[0] == b'\r' && w[1] != b'\n').count();
    let last_cr = usize::from(text.last() == Some(&b'\r'));
    text.iter().filter(|&&b| matches!(b, b'\n' | 0x0b)).count() + lone_cr + last_cr
}

/// The puzzles [`puzzle_framing`] hides among junk, one of each form, with their givens.
fn known_puzzles() -> &'static [(&'static str, Grid)] {
    const TEXTS: [&str; 6] = [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "1.3.....2..4....",
        "4 . . | . . . | 8 . 5\n. 3 . | . . . | . . .\n. . . | 7 . . | . . .\n------+-------+------\n\
         . 2 . | . . . | . 6 .\n. . . | . 8 . | 4 . .\n. . . | . 1 . | . . .\n------+-------+------\n\
         . . . | 6 . 3 | . 7 .\n5 . . | 2 . . | . . .\n1 . 4 | . . . | . . .",
        "0 0 0 9 8 0 0 0 0\n1 0 0 0 4 0 0 3 0\n0 0 0 0 0 1 9 0 7\n0 0 8 0 0 0 0 0 0\n0 7 0 0 0 0 0 1 3\n\
         0 0 3 6 0 0 0 0 0\n6 0 0 0 0 8 0 0 0\n0 0 0 0 0 0 6 4 0\n4 2 9 0 0 0 0 0 0",
        "..3.2.6..\n9..3.5..1\n..18.64..\n..81.29..\n7.......8\n..67.82..\n..26.95..\n8..2.3..9\n..5.1.3..",
        "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......\
         AE.964..G......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....\
         EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.",
    ];
    static KNOWN: OnceLock<Vec<(&str, Grid)>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        TEXTS
            .into_iter()
            .map(|text| {
                let mut spec = GeometrySpec::classic();
                let entry = PuzzleReader::new(text.as_bytes(), "known", &Alphabet::default(), &mut spec).next();
                let puzzle = entry.and_then(|e| e.puzzle.ok()).unwrap_or_else(|| panic!("{text:?} reads alone"));
                (text, puzzle.givens().clone())
            })
            .collect()
    })
}

/// A grid definition (`--grid FILE`) as TOML. A grid it defines gets its blank
/// puzzle solved and written as CNF, and the CNF read back must describe the same grid.
pub fn grid_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let geometry = match parse_grid_file(text, "fuzz.toml") {
        Ok(geometry) => geometry,
        Err(error) => {
            let _ = error.to_string();
            return;
        }
    };
    let n = geometry.size();
    let _ = geometry.describe();
    if n > SOLVE_MAX_SIDE {
        return;
    }
    let puzzle = Puzzle::new(Arc::new(geometry), Grid::empty(n)).expect("a blank grid of the geometry's size");
    let _ = format::pretty(puzzle.givens(), puzzle.geometry(), &Alphabet::default());
    check_solve(&puzzle, &SolveOptions { timeout: Some(SOLVE_TIMEOUT), ..SolveOptions::default() });
    cnf_round_trip(&puzzle);
}

/// f-puzzles JSON, compressed strings and URLs (`--fpuzzles`), through
/// `read_fpuzzles_entries`. Each puzzle read that is small enough is written
/// back as f-puzzles JSON and must read back the same, and the first few are
/// solved, their solutions checked.
pub fn fpuzzles(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let options = SolveOptions { timeout: Some(SOLVE_TIMEOUT), ..SolveOptions::default() };
    let mut solved = 0;
    for entry in read_fpuzzles_entries(text, "fuzz.json") {
        let puzzle = match entry.puzzle {
            Ok(puzzle) => puzzle,
            Err(error) => {
                let _ = error.to_string();
                continue;
            }
        };
        let n = puzzle.size();
        assert_eq!(puzzle.geometry().size(), n, "a puzzle's grid and geometry differ in size");
        if n > SOLVE_MAX_SIDE {
            continue;
        }
        if let Ok(json) = write_fpuzzles(&puzzle, None) {
            let back: Vec<_> = read_fpuzzles_entries(&json, "written").into_iter().map(|e| e.puzzle).collect();
            match &back[..] {
                [Ok(back)] => {
                    assert_eq!(back.givens(), puzzle.givens(), "f-puzzles JSON written reads back as other givens")
                }
                other => panic!("f-puzzles JSON satdoku wrote reads as {other:?}: {json}"),
            }
        }
        if solved < SOLVE_MAX_PUZZLES {
            solved += 1;
            check_solve(&puzzle, &options);
        }
    }
}

/// A jigsaw region map (`--regions MAP`), through `read_region_map`. The first
/// byte, when not 0, is the side the map must have; a map that reads makes a
/// jigsaw grid (or a `GeometryError`), whose blank puzzle is solved when small.
pub fn region_map(data: &[u8]) {
    let Some((&side, data)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(data) else { return };
    let labels = match read_region_map(text, (side != 0).then_some(usize::from(side))) {
        Ok(labels) => labels,
        Err(error) => {
            let _ = error.to_string();
            return;
        }
    };
    let n = (1..=labels.len()).find(|n| n * n >= labels.len()).unwrap_or(0);
    let geometry = match Geometry::new(n, Layout::Regions(labels), &[]) {
        Ok(geometry) => geometry,
        Err(error) => {
            let _ = error.to_string();
            return;
        }
    };
    let _ = format::region_map(
        match geometry.layout() {
            Layout::Regions(map) => map,
            _ => panic!("a jigsaw geometry without its regions"),
        },
        n,
    );
    if n > SOLVE_MAX_SIDE {
        return;
    }
    let puzzle = Puzzle::new(Arc::new(geometry), Grid::empty(n)).expect("a blank grid of the geometry's size");
    check_solve(&puzzle, &SolveOptions { timeout: Some(SOLVE_TIMEOUT), ..SolveOptions::default() });
}

/// A CNF as `satdoku decode --cnf` reads it. One that reads is solved by
/// varisat (briefly) and its model decoded; a small puzzle is written again
/// and must read back the same.
pub fn dimacs_cnf(data: &[u8]) {
    let cnf = match read_cnf(data, "fuzz.cnf") {
        Ok(cnf) => cnf,
        Err(error) => {
            let _ = error.to_string();
            return;
        }
    };
    let n = cnf.puzzle.size();
    assert_eq!(cnf.puzzle.geometry().size(), n, "the CNF's grid and geometry differ in size");
    assert_eq!(cnf.map.size(), n, "the CNF's variable map and grid differ in size");
    if cnf.formula.var_count() <= CNF_SOLVE_MAX && cnf.formula.len() <= CNF_SOLVE_MAX {
        // Comments and clauses come from the input: decoding may fail, but not panic.
        let _ = solve_and_decode(&cnf);
    }
    if n <= SOLVE_MAX_SIDE {
        cnf_round_trip(&cnf.puzzle);
    }
}

/// A solver's output as `satdoku decode` reads it. The first byte's top bit
/// chooses the CNF it answers: clear, none (the byte is the variable count);
/// set, one of two fixed 4×4 CNFs (bit 0: a regular or an explicit variable
/// map), through which a model read is decoded and checked.
pub fn solver_output(data: &[u8]) {
    let Some((&selector, output)) = data.split_first() else { return };
    let cnf = (selector & 0x80 != 0).then(|| fixed_cnf(selector & 1 == 1));
    let var_count = cnf.map_or(usize::from(selector), |cnf| cnf.formula.var_count());
    let model = match read_model(output, "fuzz.out", var_count) {
        Ok(Answer::Satisfiable(model)) => model,
        Ok(Answer::Unsatisfiable) => return,
        Err(error) => {
            let _ = error.to_string();
            return;
        }
    };
    assert_eq!(model.var_count(), var_count, "a model read for {var_count} variables has another count");
    if let Some(cnf) = cnf {
        match cnf.decode(&model, "fuzz.out") {
            Ok(grid) => check_solution(&cnf.puzzle, &grid),
            Err(error) => {
                let _ = error.to_string();
            }
        }
    }
}

/// Solve `puzzle`; a solution must be one.
fn check_solve(puzzle: &Puzzle, options: &SolveOptions) {
    match solve(puzzle, options) {
        Ok(Outcome::Solved(grid)) => check_solution(puzzle, &grid),
        Ok(Outcome::Unsolvable(reason)) => {
            if let Some(reason) = reason {
                let _ = reason.describe(puzzle.geometry(), &Alphabet::default());
            }
        }
        // Out of time, or refused as too large before anything was allocated: answers, not failures.
        Ok(Outcome::TimedOut) | Err(SolveError::TimedOut | SolveError::TooLarge { .. }) => {}
        Err(error) => panic!("solving a puzzle read from text failed: {error}"),
    }
}

/// The puzzle's line, read back with the puzzle's own geometry, gives the same puzzle.
fn read_back(puzzle: &Puzzle, alphabet: &Alphabet) {
    let line = format::line(puzzle.givens(), alphabet);
    let mut spec = GeometrySpec::fixed(Arc::clone(puzzle.geometry()));
    let entries: Vec<_> = PuzzleReader::new(line.as_bytes(), "line", alphabet, &mut spec).collect();
    assert_eq!(entries.len(), 1, "the line {line:?} reads as {} puzzles", entries.len());
    match &entries[0].puzzle {
        Ok(back) => assert_eq!(back.givens(), puzzle.givens(), "the line {line:?} reads back as other givens"),
        Err(error) => panic!("the line {line:?} of a puzzle does not read back: {error}"),
    }
}

/// Written as DIMACS and read back, the puzzle is the same, and a model of
/// the CNF satdoku wrote decodes to a solution.
fn cnf_round_trip(puzzle: &Puzzle) {
    let encoding = if puzzle.size() <= 9 { Encoding::Propagated } else { Encoding::Full };
    let cnf = match puzzle_cnf(puzzle, &SolveOptions { encoding, ..SolveOptions::default() }) {
        Ok(cnf) => cnf,
        Err(SolveError::TooLarge { .. }) => return,
        Err(error) => panic!("a puzzle up to 16x16 gives no CNF: {error}"),
    };
    let mut dimacs = Vec::new();
    write_cnf(&mut dimacs, &cnf).expect("writing to memory");
    let back = match read_cnf(&dimacs[..], "round trip") {
        Ok(back) => back,
        Err(error) => panic!("a CNF satdoku wrote does not read back: {error}"),
    };
    assert_eq!(&back.puzzle, puzzle, "a CNF satdoku wrote reads back as another puzzle");
    if !cnf.guessed {
        if let Some(Err(error)) = solve_and_decode(&back) {
            panic!("a model of a CNF satdoku wrote does not decode: {error}");
        }
    }
}

/// varisat's model of the CNF (if it finds one within the conflict limit),
/// printed as a solver would, read back and decoded.
fn solve_and_decode(cnf: &CnfFile) -> Option<Result<Grid, String>> {
    let mut solver = Solver::new();
    solver.add_formula(&cnf.formula);
    solver.set_conflict_limit(Some(CONFLICT_LIMIT));
    if !matches!(solver.solve(), Ok(true)) {
        return None;
    }
    let var_count = cnf.formula.var_count();
    let mut values = vec![false; var_count];
    for lit in solver.model()? {
        values[lit.index()] = lit.is_positive();
    }
    let mut output = String::from("s SATISFIABLE\nv");
    for (i, value) in values.iter().enumerate() {
        output.push_str(&format!(" {}{}", if *value { "" } else { "-" }, i + 1));
    }
    output.push_str(" 0\n");
    let model = match read_model(output.as_bytes(), "varisat", var_count) {
        Ok(Answer::Satisfiable(model)) => model,
        other => panic!("a complete model as a solver prints it reads as {other:?}"),
    };
    Some(match cnf.decode(&model, "varisat") {
        Ok(grid) => {
            check_solution(&cnf.puzzle, &grid);
            Ok(grid)
        }
        Err(error) => Err(error.to_string()),
    })
}

/// One of two fixed 4×4 CNFs written by satdoku and read back: with a regular
/// variable map (the full encoding) or an explicit one (propagated).
fn fixed_cnf(explicit: bool) -> &'static CnfFile {
    static REGULAR: OnceLock<CnfFile> = OnceLock::new();
    static EXPLICIT: OnceLock<CnfFile> = OnceLock::new();
    let (cell, text, encoding) = if explicit {
        (&EXPLICIT, "1...............", Encoding::Propagated)
    } else {
        (&REGULAR, "1.3.....2..4....", Encoding::Full)
    };
    cell.get_or_init(|| {
        let mut spec = GeometrySpec::classic();
        let entry = PuzzleReader::new(text.as_bytes(), "4x4", &Alphabet::default(), &mut spec).next();
        let puzzle = entry.and_then(|e| e.puzzle.ok()).expect("a 4x4 puzzle");
        let mut dimacs = Vec::new();
        let options = SolveOptions { encoding, ..SolveOptions::default() };
        let cnf = puzzle_cnf(&puzzle, &options).unwrap_or_else(|e| panic!("the fixed CNF is built: {e}"));
        write_cnf(&mut dimacs, &cnf).expect("writing to memory");
        read_cnf(&dimacs[..], "4x4.cnf").unwrap_or_else(|e| panic!("the fixed CNF reads back: {e}"))
    })
}

/// An independent check of a solution: complete, every unit holds each value
/// once, every given kept; and satdoku's own `verify` agrees.
fn check_solution(puzzle: &Puzzle, grid: &Grid) {
    let n = puzzle.size();
    assert_eq!(grid.size(), n, "a solution of another size");
    assert!(grid.is_complete(), "a solution with an empty cell");
    for (cell, value) in puzzle.givens().filled() {
        assert_eq!(grid.get(cell), Some(value), "a solution that changes a given");
    }
    for unit in puzzle.geometry().units() {
        let mut seen = vec![false; n];
        for &cell in unit.cells() {
            let value = grid.get(cell).expect("complete").index();
            assert!(!seen[value], "a solution with a value twice in a unit");
            seen[value] = true;
        }
    }
    assert_eq!(verify(puzzle.geometry(), puzzle.givens(), grid), Ok(()), "verify refuses a checked solution");
}
