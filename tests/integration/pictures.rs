//! `--format svg`: every kind of picture renders with a real renderer
//! (rsvg-convert, Debian `librsvg2-bin`) into a PNG that is not blank, givens
//! and solved digits are drawn in their own inks, in the right cells, and the
//! digits drawn are a solution by the independent checker.

use std::io::Cursor;
use std::path::Path;
use std::process::Command;

use crate::util::checker::{assert_solves, data_path, read_symbols, repo_path, Shape};
use crate::util::run;

const PUZZLE: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A rendered picture: RGBA pixels.
struct Png {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

impl Png {
    fn pixel(&self, x: usize, y: usize) -> [u8; 4] {
        let i = (y * self.width + x) * 4;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }

    /// How many pixels of the square (x0, y0)–(x1, y1) `is` holds for.
    fn count(&self, (x0, y0, x1, y1): (usize, usize, usize, usize), is: impl Fn([u8; 4]) -> bool) -> usize {
        (y0..y1).flat_map(|y| (x0..x1).map(move |x| (x, y))).filter(|&(x, y)| is(self.pixel(x, y))).count()
    }
}

fn has_rsvg() -> bool {
    crate::util::available("rsvg-convert")
}

/// Render `svg` with rsvg-convert and decode the PNG; check that it is not
/// blank (its pixels vary, and some are dark).
fn render(svg: &str, what: &str) -> Png {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.svg");
    std::fs::write(&path, svg).unwrap();
    render_file(&path, what)
}

fn render_file(path: &Path, what: &str) -> Png {
    let out = Command::new("rsvg-convert").arg("--background-color=white").arg(path).output().unwrap();
    assert!(out.status.success(), "{what}: rsvg-convert: {}", String::from_utf8_lossy(&out.stderr));
    let mut decoder = png::Decoder::new(Cursor::new(out.stdout));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().unwrap();
    let mut rgba = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut rgba).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba, "{what}");
    let png = Png { width: info.width as usize, height: info.height as usize, rgba };
    let all = (0, 0, png.width, png.height);
    let dark = png.count(all, |[r, g, b, _]| r < 60 && g < 60 && b < 60);
    let white = png.count(all, |[r, g, b, _]| r > 245 && g > 245 && b > 245);
    let pixels = png.width * png.height;
    assert!(png.width >= 100 && png.height >= 100, "{what}: {}x{}", png.width, png.height);
    assert!(dark > pixels / 100, "{what}: only {dark} dark pixels of {pixels}: blank?");
    assert!(white > pixels / 10, "{what}: only {white} white pixels of {pixels}");
    png
}

/// The texts of an SVG: (x, y, fill of the nearest enclosing element that
/// sets one, text) for each `<text>`.
fn texts(svg: &str) -> Vec<(f64, f64, String, String)> {
    let mut found = Vec::new();
    let mut fills: Vec<Option<String>> = Vec::new();
    let attribute = |tag: &str, name: &str| {
        let key = format!(" {name}=\"");
        tag.find(&key).map(|i| tag[i + key.len()..].split('"').next().unwrap_or("").to_string())
    };
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').unwrap() + start;
        let tag = &rest[start..=end];
        rest = &rest[end + 1..];
        if tag.starts_with("</g") {
            fills.pop();
        } else if tag.starts_with("<g") && !tag.ends_with("/>") {
            fills.push(attribute(tag, "fill"));
        } else if tag.starts_with("<text") {
            let content = rest[..rest.find("</text>").unwrap()].trim().to_string();
            let fill =
                attribute(tag, "fill").or_else(|| fills.iter().rev().flatten().next().cloned()).unwrap_or_default();
            let number = |name| attribute(tag, name).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN);
            found.push((number("x"), number("y"), fill, content));
        }
    }
    found
}

/// The side of a cell and the top left corner of the grid, from the thick
/// border drawn around it (the last `<rect>` with fill none).
fn grid_frame(svg: &str, n: usize) -> (f64, f64, f64) {
    let translate = svg.split("translate(").nth(1).unwrap().split(')').next().unwrap();
    let mut parts = translate.split_whitespace().map(|v| v.parse::<f64>().unwrap());
    let (x, y) = (parts.next().unwrap(), parts.next().unwrap());
    let border = svg
        .split("<rect")
        .map(|r| r.split('>').next().unwrap())
        .filter(|r| r.contains("fill=\"none\""))
        .last()
        .unwrap();
    let width: f64 = border.split(" width=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
    (width / n as f64, x, y)
}

/// The big digits of a picture, by cell: (symbol, fill), from the SVG's text
/// positions (a big digit sits at the middle of its cell).
fn digits_by_cell(svg: &str, n: usize) -> Vec<Option<(String, String)>> {
    let (size, _, _) = grid_frame(svg, n);
    let mut cells = vec![None; n * n];
    for (x, y, fill, text) in texts(svg).into_iter().skip(1) {
        let (c, r) = (x / size - 0.5, y / size - 0.5);
        if (c - c.round()).abs() < 1e-6 && (r - r.round()).abs() < 1e-6 {
            let i = r.round() as usize * n + c.round() as usize;
            assert!(cells[i].is_none(), "two digits in cell {i}");
            cells[i] = Some((text, fill));
        }
    }
    cells
}

#[test]
fn a_solution_is_drawn_givens_black_and_solved_digits_blue() {
    if !has_rsvg() {
        eprintln!("skipped: rendering SVG needs rsvg-convert (Debian package librsvg2-bin)");
        return;
    }
    let r = run(&["solve", "--format", "svg"], PUZZLE);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cells = digits_by_cell(&r.stdout, 9);
    let drawn: String = cells.iter().map(|c| c.as_ref().map_or(".", |(t, _)| t.as_str())).collect();
    let givens = read_symbols(PUZZLE);
    assert_solves(&Shape::classic(9), &givens, &read_symbols(&drawn), "the digits of the picture");
    let (size, x0, y0) = grid_frame(&r.stdout, 9);
    let png = render(&r.stdout, "solve");
    for (i, cell) in cells.iter().enumerate() {
        let (_, fill) = cell.as_ref().unwrap();
        // The middle of the cell, clear of its borders.
        let (x, y) = (x0 + (i % 9) as f64 * size, y0 + (i / 9) as f64 * size);
        let inner = (
            (x + size * 0.2) as usize,
            (y + size * 0.2) as usize,
            (x + size * 0.8) as usize,
            (y + size * 0.8) as usize,
        );
        let black = png.count(inner, |[r, g, b, _]| r < 50 && g < 50 && b < 50);
        let blue = png.count(inner, |[r, g, b, _]| b > 150 && r < 90 && g < 130);
        if givens[i] != 0 {
            assert!(black > 20 && blue == 0, "given r{}c{}: {black} black, {blue} blue ({fill})", i / 9 + 1, i % 9 + 1);
        } else {
            assert!(
                blue > 20 && black == 0,
                "solved r{}c{}: {black} black, {blue} blue ({fill})",
                i / 9 + 1,
                i % 9 + 1
            );
        }
    }
}

#[test]
fn candidates_fixed_cells_and_conflicts_render() {
    if !has_rsvg() {
        eprintln!("skipped: rendering SVG needs rsvg-convert (Debian package librsvg2-bin)");
        return;
    }
    // Two solutions: r3c2, r3c4, r4c2, r4c4 keep 1 and 3; r3c3, r4c1, r4c3 are fixed.
    let r = run(&["--box", "2x2", "analyze", "--format", "svg"], "123434122.......");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let small: Vec<(f64, f64, String, String)> =
        texts(&r.stdout).into_iter().skip(1).filter(|(_, _, fill, _)| fill == "#555555").collect();
    let candidates: String = small.iter().map(|t| t.3.as_str()).collect();
    assert_eq!(candidates, "13131313", "the candidates of the four open cells, in order");
    let cells = digits_by_cell(&r.stdout, 4);
    let fixed: Vec<usize> = (0..16).filter(|&i| cells[i].as_ref().is_some_and(|(_, f)| f == "#1d7a32")).collect();
    assert_eq!(fixed, [10, 12, 14], "fixed cells in green");
    let png = render(&r.stdout, "analyze");
    let green = png.count((0, 0, png.width, png.height), |[r, g, b, _]| g > 200 && r < 240 && b < 240 && g > r + 10);
    assert!(green > 100, "fixed cells are shaded: {green} green pixels");

    let clash = format!("44{}", &PUZZLE[2..]);
    let r = run(&["solve", "--format", "svg"], &clash);
    assert_eq!(r.code, 1);
    let cells = digits_by_cell(&r.stdout, 9);
    assert_eq!(cells[0].as_ref().unwrap().1, "#c41a1a");
    assert_eq!(cells[1].as_ref().unwrap().1, "#c41a1a");
    assert!(cells[2..].iter().flatten().all(|(_, fill)| fill == "#000000"), "only the clash in red");
    let png = render(&r.stdout, "unsolvable");
    let red = png.count((0, 0, png.width, png.height), |[r, g, b, _]| r > 180 && g < 80 && b < 80);
    assert!(red > 50, "{red} red pixels");
}

#[test]
fn every_kind_of_picture_renders() {
    if !has_rsvg() {
        eprintln!("skipped: rendering SVG needs rsvg-convert (Debian package librsvg2-bin)");
        return;
    }
    let jigsaw = std::fs::read_to_string(data_path("dimacs/jigsaw-9.txt")).unwrap();
    let jigsaw_grid = repo_path("encodings/jigsaw-9.toml");
    let jigsaw_grid = jigsaw_grid.to_str().unwrap();
    let blank16 = ".".repeat(256);
    let blank9 = ".".repeat(81);
    let cases: Vec<(Vec<&str>, &str, i32)> = vec![
        (vec!["--grid", jigsaw_grid, "solve", "--format", "svg"], jigsaw.lines().find(|l| l.len() == 81).unwrap(), 0),
        (vec!["--variant", "hyper", "analyze", "--propagate", "--format", "svg"], &blank9, 0),
        (vec!["solve", "--unique", "--format", "svg"], PUZZLE, 0),
        (vec!["count", "--format", "svg"], PUZZLE, 0),
        (vec!["solve", "--format", "svg"], &blank16, 0),
        (vec!["--latin", "solve", "--format", "svg"], "1...............", 0),
    ];
    for (args, input, code) in &cases {
        let r = run(args, input);
        assert_eq!(r.code, *code, "{args:?}: {}", r.stderr);
        let png = render(&r.stdout, &format!("{args:?}"));
        if args.contains(&"--grid") {
            // Jigsaw regions are shaded: pixels that are neither white nor grey nor ink.
            let tinted = png.count((0, 0, png.width, png.height), |[r, g, b, _]| {
                let (hi, lo) = (r.max(g).max(b), r.min(g).min(b));
                hi > 200 && hi - lo > 15
            });
            assert!(tinted > png.width * png.height / 4, "jigsaw shading: {tinted}");
        }
    }
    // X: a blank X-sudoku has solutions; its diagonals are drawn.
    let x = run(&["--variant", "x", "solve", "--format", "svg"], &".".repeat(81));
    assert_eq!(x.code, 0, "{}", x.stderr);
    assert_eq!(x.stdout.matches("<line").count(), 2 + 2 * 9 * 8, "two diagonals and the cell edges");
    render(&x.stdout, "x");
}

#[test]
fn a_batch_writes_one_file_per_puzzle_and_per_step() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pictures");
    let out_dir = out.to_str().unwrap();
    let input = format!("{PUZZLE}\n12x\n{}\n", &PUZZLE.replace('4', "."));
    let r = run(&["solve", "--format", "svg", "--out-dir", out_dir, "--jobs", "2"], &input);
    assert_eq!(r.code, 2, "one invalid line: {}", r.stderr);
    assert!(r.stdout.is_empty(), "pictures go to files: {}", r.stdout);
    let mut names: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["puzzle-0001.svg", "puzzle-0003.svg"], "no picture for the invalid record");

    // Unit propagation: a picture once the givens are placed, then one per
    // placement; the steps in words say how many.
    let steps = dir.path().join("steps");
    let args = ["analyze", "--propagate", "singles", "--steps", "--format"];
    // PUZZLE's solution with every third cell blank: singles solve it.
    let solved = "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
    let easy: String = solved.chars().enumerate().map(|(i, ch)| if i % 3 == 0 { '.' } else { ch }).collect();
    let r = run(&[&args[..], &["svg", "--out-dir", steps.to_str().unwrap()]].concat(), &easy);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let count = std::fs::read_dir(&steps).unwrap().count();
    let words = run(&[&args[..], &["line"]].concat(), &easy).stdout;
    let placements = words.lines().filter(|l| l.starts_with("naked single") || l.starts_with("hidden single")).count();
    assert!(placements > 10, "{words}");
    assert_eq!(count, placements + 1, "{words}");
    if has_rsvg() {
        render_file(&steps.join("puzzle-0001-step-001.svg"), "first step");
        render_file(&steps.join(format!("puzzle-0001-step-{count:03}.svg")), "last step");
    }
    // Stronger levels: a picture after each round.
    let rounds = dir.path().join("rounds");
    let r = run(&["analyze", "--steps", "--format", "svg", "--out-dir", rounds.to_str().unwrap()], PUZZLE);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let count = std::fs::read_dir(&rounds).unwrap().count();
    assert!(count >= 1);
    if has_rsvg() {
        render_file(&rounds.join(format!("puzzle-0001-step-{count:03}.svg")), "last round");
    }
    let bad = run(&["solve", "--format", "json", "--out-dir", out_dir], PUZZLE);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--format svg"), "{}", bad.stderr);
}

/// `generate --help` and `decode --help` say svg goes "one file per record
/// with `--out-dir`", and both refused the option.
#[test]
fn generate_and_decode_write_their_pictures_into_out_dir() {
    let dir = tempfile::tempdir().unwrap();
    let made = dir.path().join("made");
    let args = ["generate", "-n", "3", "--seed", "11", "--format"];
    let r = run(&[&args[..], &["svg", "--out-dir", made.to_str().unwrap()]].concat(), "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "pictures go to files: {}", r.stdout);
    assert_eq!(std::fs::read_dir(&made).unwrap().count(), 3);
    // Each file draws the givens of the puzzle the same seed makes.
    let lines = run(&[&args[..], &["line"]].concat(), "").stdout;
    for (i, puzzle) in lines.lines().enumerate() {
        let svg = std::fs::read_to_string(made.join(format!("puzzle-{:04}.svg", i + 1))).unwrap();
        let drawn: Vec<usize> =
            digits_by_cell(&svg, 9).into_iter().map(|d| d.map_or(0, |(digit, _)| digit.parse().unwrap())).collect();
        assert_eq!(drawn, read_symbols(puzzle), "puzzle {}", i + 1);
    }
    let bad = run(&[&args[..], &["json", "--out-dir", made.to_str().unwrap()]].concat(), "");
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--format svg"), "{}", bad.stderr);

    // decode: the solution of a CNF's model, drawn into a file.
    let cnf = dir.path().join("p.cnf");
    let r = run(&["dimacs", "--out", cnf.to_str().unwrap()], PUZZLE);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let model = crate::dimacs::varisat_model(&cnf).0;
    let drawn = dir.path().join("drawn");
    let r = run(
        &["decode", "--cnf", cnf.to_str().unwrap(), "--format", "svg", "--out-dir", drawn.to_str().unwrap()],
        &model,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "the picture goes to a file: {}", r.stdout);
    let svg = std::fs::read_to_string(drawn.join("puzzle-0001.svg")).unwrap();
    let solution: Vec<usize> = digits_by_cell(&svg, 9).into_iter().map(|d| d.unwrap().0.parse().unwrap()).collect();
    assert_solves(&Shape::classic(9), &read_symbols(PUZZLE), &solution, "decode --out-dir");
}

#[test]
fn variant_clues_are_drawn() {
    let grid = repo_path("tests/data/variants-picture.toml");
    let r = run(&["--grid", grid.to_str().unwrap(), "solve", "--format", "svg"], PUZZLE);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let svg = &r.stdout;
    let cells = digits_by_cell(svg, 9);
    let drawn: String = cells.iter().map(|c| c.as_ref().map_or(".", |(t, _)| t.as_str())).collect();
    assert_solves(&Shape::classic(9), &read_symbols(PUZZLE), &read_symbols(&drawn), "variant picture");
    // Thermometer, arrow, renban and whisper lines; the bulb, the arrow's circle.
    assert_eq!(svg.matches("<polyline").count(), 4 + 1 + 1, "four lines, an arrowhead, a little killer's arrow");
    assert!(svg.contains("fill=\"#c8c8c8\" r="), "a thermometer's bulb");
    assert!(svg.contains("rx="), "an arrow's circle");
    // Kropki: one black dot, one white; X and V; the killer, sandwich and little killer sums.
    let texts: Vec<String> = texts(svg).into_iter().map(|t| t.3).collect();
    for clue in ["X", "V", "11", "16", "22"] {
        assert!(texts.iter().any(|t| t == clue), "no {clue} among {texts:?}");
    }
    assert!(svg.contains("stroke-dasharray"), "a dashed killer cage");
    if !has_rsvg() {
        eprintln!("skipped: rendering SVG needs rsvg-convert (Debian package librsvg2-bin)");
        return;
    }
    let png = render(svg, "variants");
    let all = (0, 0, png.width, png.height);
    let purple = png.count(all, |[r, g, b, _]| b > 220 && r > 190 && g < 200 && r < 230);
    let green = png.count(all, |[r, g, b, _]| g > 200 && r < 180 && b < 180);
    assert!(purple > 200 && green > 200, "renban {purple}, whisper {green} pixels");
}

/// Candidates too small to read are not drawn: an empty 64×64 has 64³ of
/// them, 1.4 units tall (an empty 225×225 took over 4 GB to draw). A 36×36's
/// are still drawn, every one.
#[test]
fn candidates_of_big_grids_are_drawn_only_when_legible() {
    let empty = |n: usize| vec!["0"; n * n].join(" ");
    let r = run(&["analyze", "--propagate", "singles", "--format", "svg"], &empty(64));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(texts(&r.stdout).len(), 1, "the caption only");
    assert!(r.stdout.len() < 1_000_000, "{} bytes", r.stdout.len());
    let r = run(&["analyze", "--propagate", "singles", "--format", "svg"], &empty(36));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(texts(&r.stdout).len(), 1 + 36 * 36 * 36);
}

/// A title's U+FFFE (XML has no such character, even escaped) is written by
/// its code in the caption: the picture stays well-formed and renders.
#[test]
fn a_title_with_a_character_xml_lacks_still_makes_a_picture() {
    let r = run(&["solve", "--format", "svg"], &format!("Sudoku \u{FFFE} hard\n{PUZZLE}\n"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains('\u{FFFE}'), "{}", r.stdout);
    assert!(texts(&r.stdout)[0].3.contains("Sudoku U+FFFE hard"), "{}", r.stdout);
    if has_rsvg() {
        render(&r.stdout, "title");
    }
}
