//! `satdoku dimacs` and `satdoku decode` without external solvers: the CNF read
//! by varisat's own DIMACS parser, models solved by varisat, and bad models refused.

use std::path::{Path, PathBuf};

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use serde_json::Value as Json;
use varisat::dimacs::DimacsParser;
use varisat::{ExtendFormula, Lit, Solver};

use crate::util::checker::Shape;
use crate::util::grids::{check, data, puzzles, CASES};
use crate::util::{satdoku, write_file};

/// Every puzzle of a case file as CNF files, in a temporary directory.
fn cnf_files(file: &str, args: &[&str], extra: &[&str]) -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    satdoku().arg("dimacs").arg(data(file)).args(args).args(extra).arg("--out-dir").arg(dir.path()).assert().success();
    let files = (1..=puzzles(file).len()).map(|i| dir.path().join(format!("puzzle-{i:04}.cnf"))).collect();
    (dir, files)
}

/// The header's counts, and the clause lines actually there.
fn header_and_clause_lines(text: &str) -> ((usize, usize), usize) {
    let header = text.lines().find(|l| l.starts_with("p ")).expect("a p line");
    let words: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(&words[..2], ["p", "cnf"], "{header}");
    let counts = (words[2].parse().unwrap(), words[3].parse().unwrap());
    let clauses = text.lines().filter(|l| !l.starts_with('c') && !l.starts_with('p')).count();
    assert!(text.lines().filter(|l| !l.starts_with('c') && !l.starts_with('p')).all(|l| l.ends_with(" 0") || l == "0"));
    (counts, clauses)
}

/// A model of `cnf` found by varisat, as SAT-competition `v` lines.
pub(crate) fn varisat_model(cnf: &Path) -> (String, Vec<i64>) {
    let mut solver = Solver::new();
    let text = std::fs::read(cnf).unwrap();
    let formula = DimacsParser::parse(&text[..]).unwrap();
    solver.add_formula(&formula);
    // Pin every variable into the model, even one no clause mentions.
    let all = solver.new_lit();
    solver.add_clause(&[all]);
    assert!(solver.solve().unwrap());
    let lits: Vec<i64> = solver
        .model()
        .unwrap()
        .iter()
        .filter(|l| l.index() < formula.var_count())
        .map(|l: &Lit| l.to_dimacs() as i64)
        .collect();
    let body: Vec<String> = lits.iter().map(i64::to_string).collect();
    (format!("s SATISFIABLE\nv {} 0\n", body.join(" ")), lits)
}

fn decode(cnf: &Path, model: &str) -> assert_cmd::assert::Assert {
    satdoku().arg("decode").arg("--cnf").arg(cnf).args(["--format", "json"]).write_stdin(model).assert()
}

#[test]
fn cnf_parses_with_varisat_and_header_counts_match_for_every_geometry_and_encoding() {
    for (name, case) in CASES {
        let units = (case.shape)();
        for (encoding, amo) in [("full", "auto"), ("reduced", "sequential"), ("propagated", "product")] {
            let (_dir, files) = cnf_files(case.file, case.args, &["--encoding", encoding, "--amo", amo]);
            for (cnf, givens) in files.iter().zip(puzzles(case.file)) {
                let text = std::fs::read_to_string(cnf).unwrap();
                let ((vars, clauses), lines) = header_and_clause_lines(&text);
                assert_eq!(clauses, lines, "{name} {encoding}");
                let formula = DimacsParser::parse(text.as_bytes()).unwrap();
                assert_eq!((formula.var_count(), formula.len()), (vars, clauses), "{name} {encoding}");
                let mut solver = Solver::new();
                solver.add_dimacs_cnf(text.as_bytes()).unwrap();
                assert!(solver.solve().unwrap(), "{name} {encoding}");
                // The projection line lists cell variables, each once, all in range.
                let ind = text.lines().find(|l| l.starts_with("c ind ")).expect("a c ind line");
                let mut ind: Vec<usize> = ind[6..].split_whitespace().map(|w| w.parse().unwrap()).collect();
                assert_eq!(ind.pop(), Some(0));
                assert!(ind.windows(2).all(|w| w[0] < w[1]) && ind.iter().all(|&v| 1 <= v && v <= vars));
                if encoding == "full" {
                    let n = (givens.len() as f64).sqrt() as usize;
                    assert_eq!(ind.len(), n * n * n);
                }
                // varisat's model, decoded by satdoku through the comments alone.
                let (model, _) = varisat_model(cnf);
                let out = decode(cnf, &model).success().get_output().stdout.clone();
                let record: Json = serde_json::from_slice(&out).unwrap();
                assert_eq!(record["status"], "solved");
                check(&givens, record["solution"].as_str().unwrap(), &units).unwrap();
            }
        }
    }
}

#[test]
fn full_encoding_gives_every_puzzle_of_a_grid_the_same_variables() {
    let (_dir, files) = cnf_files("classic-9.txt", &[], &[]);
    let mut bases = Vec::new();
    for (cnf, givens) in files.iter().zip(puzzles("classic-9.txt")) {
        let text = std::fs::read_to_string(cnf).unwrap();
        let clauses: Vec<&str> = text.lines().filter(|l| !l.starts_with('c') && !l.starts_with('p')).collect();
        // The givens are the unit clauses: variable 81r + 9c + v (0-based r, c; v from 1).
        let mut units: Vec<i64> =
            clauses.iter().filter(|l| l.split(' ').count() == 2).map(|l| l[..l.len() - 2].parse().unwrap()).collect();
        let mut expected: Vec<i64> =
            givens.chars().enumerate().filter_map(|(i, c)| c.to_digit(10).map(|v| (i * 9) as i64 + v as i64)).collect();
        units.sort();
        expected.sort();
        assert_eq!(units, expected);
        bases.push(clauses.into_iter().filter(|l| l.split(' ').count() > 2).map(String::from).collect::<Vec<_>>());
    }
    assert!(bases.windows(2).all(|w| w[0] == w[1]), "the blank grid's clauses differ between puzzles");
}

#[test]
fn every_model_form_decodes() {
    let (_dir, files) = cnf_files("classic-4.txt", &[], &["--encoding", "reduced"]);
    let (_, lits) = varisat_model(&files[0]);
    let body: Vec<String> = lits.iter().map(i64::to_string).collect();
    let units = Shape::boxes(4, 2, 2);
    let givens = &puzzles("classic-4.txt")[0];
    let forms = [
        format!("c by a solver\ns SATISFIABLE\nv {}\nv {} 0\n", body[..3].join(" "), body[3..].join(" ")),
        format!("SAT\n{} 0\n", body.join(" ")),
        body.join("\n"),
    ];
    for form in forms {
        let out = decode(&files[0], &form).success().get_output().stdout.clone();
        let record: Json = serde_json::from_slice(&out).unwrap();
        check(givens, record["solution"].as_str().unwrap(), &units).unwrap();
    }
    // The puzzle has a solution: an "unsatisfiable" answer is refuted by varisat.
    for unsat in ["s UNSATISFIABLE\n", "UNSAT\n"] {
        let out = decode(&files[0], unsat).code(2).get_output().stdout.clone();
        let record: Json = serde_json::from_slice(&out).unwrap();
        assert_eq!(record["status"], "error");
        assert_eq!(record["index"], 1);
    }
}

/// An answer that cannot be read as a model of the CNF (garbled, cut off,
/// partial, a literal out of range) is an `invalid` record: decode's input
/// is bad. A whole model that is wrong (it breaks a clause) is an `error`,
/// as a refuted "unsatisfiable" is, and as `solve --solver` says of a wrong
/// model. Exit 2 both ways.
#[test]
fn malformed_models_are_errors_with_exit_2() {
    let (_dir, files) = cnf_files("classic-4.txt", &[], &[]);
    let cnf = &files[0];
    let (_, lits) = varisat_model(cnf);
    let line = |lits: &[i64]| lits.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
    let status = |model: &str, says: &str| {
        let out = decode(cnf, model).code(2).stderr(contains(says)).get_output().stdout.clone();
        let record: Json = serde_json::from_slice(&out).unwrap();
        record["status"].as_str().unwrap().to_string()
    };
    assert_eq!(status("", "<stdin>: no answer in it"), "invalid");
    assert_eq!(status("s SATISFIABLE\nv 1 -2 banana 0\n", "<stdin>:2:8: 'banana' is not a literal"), "invalid");
    assert_eq!(status("s UNKNOWN\n", "the solver gave no answer"), "invalid");
    assert_eq!(status(&format!("s SATISFIABLE\nv {}\n", line(&lits)), "does not end with 0"), "invalid");
    let out_of_range = format!("v {} 65 0\n", line(&lits));
    assert_eq!(status(&out_of_range, "literal 65 is out of range (the CNF has variables 1 to 64)"), "invalid");
    assert_eq!(status(&format!("v {} 0\n", line(&lits[..10])), "the model is partial: variable 11"), "invalid");
    // One cell variable flipped: a complete model that breaks a clause.
    let mut wrong = lits.clone();
    let flip = wrong.iter().position(|&l| l > 0).unwrap();
    wrong[flip] = -wrong[flip];
    assert_eq!(status(&format!("v {} 0\n", line(&wrong)), "the model violates clause"), "error");
    // The clauses stripped: a model of two cells swapped satisfies what is
    // left, and its grid breaks the rules the comments describe.
    let text = std::fs::read_to_string(cnf).unwrap();
    let stripped: String = text
        .lines()
        .filter(|l| l.starts_with('c') || l.starts_with('p'))
        .map(|l| match l.strip_prefix("p cnf ") {
            Some(counts) => format!("p cnf {} 0\n", counts.split_whitespace().next().unwrap()),
            None => format!("{l}\n"),
        })
        .collect();
    std::fs::write(cnf, stripped).unwrap();
    // Cells r1c1 and r1c2 (variables 1-4 and 5-8 of the full encoding's regular map) swapped.
    let swapped: Vec<i64> = (0..lits.len())
        .map(|i| {
            let from = if i < 4 {
                i + 4
            } else if i < 8 {
                i - 4
            } else {
                i
            };
            lits[from].signum() * (i as i64 + 1)
        })
        .collect();
    assert_eq!(status(&format!("v {} 0\n", line(&swapped)), "its grid is not a solution"), "error");
}

#[test]
fn decode_refuses_a_cnf_it_did_not_write_and_reads_a_model_file() {
    let dir = tempfile::tempdir().unwrap();
    let plain = write_file(&dir, "plain.cnf", "p cnf 2 1\n1 2 0\n");
    decode(Path::new(&plain), "1 2 0").code(2).stderr(contains("not written by `satdoku dimacs`"));
    let (_d, files) = cnf_files("latin-5.txt", &["--latin"], &[]);
    let (model, _) = varisat_model(&files[0]);
    let model_path = write_file(&dir, "model.txt", &model);
    let out = satdoku()
        .arg("decode")
        .arg("--cnf")
        .arg(&files[0])
        .arg(&model_path)
        .args(["--format", "line"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let solution = String::from_utf8(out.stdout).unwrap();
    check(&puzzles("latin-5.txt")[0], solution.trim(), &Shape::latin(5)).unwrap();
    // The CNF on stdin (`--cnf -`), the model from its file; both on stdin
    // is refused, by name.
    let cnf = std::fs::read_to_string(&files[0]).unwrap();
    let out = satdoku()
        .args(["decode", "--cnf", "-", &model_path, "--format", "line"])
        .write_stdin(cnf.clone())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    check(&puzzles("latin-5.txt")[0], String::from_utf8(out.stdout).unwrap().trim(), &Shape::latin(5)).unwrap();
    for model in [&["-"][..], &[]] {
        let both = satdoku().args(["decode", "--cnf", "-"]).args(model).write_stdin(cnf.clone()).assert();
        both.code(2).stderr(contains("--cnf - and the answer both on stdin"));
    }
    satdoku()
        .arg("decode")
        .arg("--cnf")
        .arg(dir.path().join("missing.cnf"))
        .assert()
        .code(2)
        .stderr(contains("missing.cnf: cannot open"));
}

#[test]
fn a_cnf_cut_off_or_miscounted_is_refused_at_its_line_and_column() {
    let (dir, files) = cnf_files("classic-9.txt", &[], &[]);
    let text = std::fs::read_to_string(&files[0]).unwrap();
    // Cut before the last clause's 0, as a full disk or a killed writer may leave it.
    let body = text.trim_end().strip_suffix(" 0").unwrap();
    let (head, last) = body.rsplit_once('\n').unwrap();
    let (line, column) = (head.lines().count() + 1, last.rfind(' ').map_or(1, |space| space + 2));
    let cut = write_file(&dir, "cut.cnf", body);
    let expected = format!("cut.cnf:{line}:{column}: the file ends inside a clause, after '{}'", &last[column - 1..]);
    decode(Path::new(&cut), "v 1 0").code(2).stderr(contains(expected).and(contains("is the file cut off?")));
    // One clause more in the header than in the file: named at the header's count.
    let ((vars, clauses), _) = header_and_clause_lines(&text);
    let header = format!("p cnf {vars} {clauses}\n");
    let line = text[..text.find(&header).unwrap()].lines().count() + 1;
    let claimed = clauses + 1;
    let counted = write_file(&dir, "counted.cnf", &text.replace(&header, &format!("p cnf {vars} {claimed}\n")));
    let column = format!("p cnf {vars} ").len() + 1;
    let expected = format!(
        "counted.cnf:{line}:{column}: the header says {claimed} clauses, but the file has {clauses} (expected {claimed}:"
    );
    decode(Path::new(&counted), "v 1 0").code(2).stderr(contains(expected));
}

#[test]
fn several_puzzles_need_out_dir_and_one_goes_to_stdout_or_out() {
    satdoku()
        .arg("dimacs")
        .arg(data("classic-9.txt"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("puzzle 2").and(contains("--out-dir DIR")));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("one.cnf");
    satdoku().arg("dimacs").arg(data("classic-4.txt")).arg("--out").arg(&out).assert().success().stdout("");
    let stdout = satdoku().arg("dimacs").arg(data("classic-4.txt")).output().unwrap().stdout;
    assert_eq!(std::fs::read(&out).unwrap(), stdout);
    assert!(String::from_utf8(stdout).unwrap().starts_with("c satdoku "));
}
