//! Proof size and checking time: for every puzzle of each file given (by
//! default tests/data/top95.txt and tests/data/tdoku-forum-hardest-100.txt),
//! the DRAT proof of its answer ("unique": no solution but the one found;
//! "unsolvable"), written by varisat over the full encoding, then checked by
//! satdoku's own checker. Prints one row per file.
//!
//! ```sh
//! cargo bench --bench proofs                                   # the default sets
//! cargo bench --bench proofs -- ../shared/data/kwon-jain/table12-1.txt
//! ```

use std::time::{Duration, Instant};

use satdoku::{prove, read_all, Alphabet, Claim, GeometrySpec, Search, SolveOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let files = match args.is_empty() {
        true => vec!["tests/data/top95.txt".to_string(), "tests/data/tdoku-forum-hardest-100.txt".to_string()],
        false => args,
    };
    println!("| puzzles | claims | proof lemmas (median / max) | proof size (median / max) | CNF size (median) | prove (total) | check (total) | file |");
    println!("|---|---|---|---|---|---|---|---|");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let entries = read_all(&text, &file, &Alphabet::default(), &mut GeometrySpec::classic());
        let options = SolveOptions::default();
        let (mut lemmas, mut bytes, mut cnf_bytes) = (Vec::new(), Vec::new(), Vec::new());
        let (mut proving, mut checking) = (Duration::ZERO, Duration::ZERO);
        let mut claims = (0, 0);
        for entry in &entries {
            let Ok(puzzle) = &entry.puzzle else { continue };
            let found: Vec<_> = Search::new(puzzle, &options).take(2).collect::<Result<_, _>>().expect("a search");
            let claim = match found.len() {
                0 => {
                    claims.1 += 1;
                    Claim::Unsolvable
                }
                1 => {
                    claims.0 += 1;
                    Claim::Only(found)
                }
                _ => continue,
            };
            let start = Instant::now();
            let certificate = prove(puzzle, claim, &options, start).expect("a proof");
            proving += start.elapsed();
            let start = Instant::now();
            let summary = certificate.check().expect("the proof checks");
            checking += start.elapsed();
            lemmas.push(summary.lemmas);
            bytes.push(certificate.drat.len());
            let mut cnf = Vec::new();
            certificate.write_cnf(&mut cnf).expect("in memory");
            cnf_bytes.push(cnf.len());
        }
        let median = |v: &mut Vec<usize>| {
            v.sort_unstable();
            v.get(v.len() / 2).copied().unwrap_or(0)
        };
        let max_lemmas = lemmas.iter().copied().max().unwrap_or(0);
        let max_bytes = bytes.iter().copied().max().unwrap_or(0);
        println!(
            "| {} | {} unique, {} unsolvable | {} / {} | {} / {} | {} | {:.2} s | {:.2} s | {} |",
            entries.len(),
            claims.0,
            claims.1,
            median(&mut lemmas),
            max_lemmas,
            size(median(&mut bytes)),
            size(max_bytes),
            size(median(&mut cnf_bytes)),
            proving.as_secs_f64(),
            checking.as_secs_f64(),
            file
        );
    }
}

fn size(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MB", b as f64 / (1 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.0} kB", b as f64 / 1024.0),
        b => format!("{b} B"),
    }
}
