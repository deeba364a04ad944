//! What the soundness review of the variants, generate and certificates
//! merges found: each test failed on the merged main until its bug was fixed.

use std::os::unix::fs::PermissionsExt;

use tempfile::TempDir;

use crate::util::{json_lines, run, write_file};

/// The 4×4 grid every test below starts from, row-major.
const GRID: &str = "1234341221434321";

/// The orthogonal pairs of a 4×4 grid, as 0-based cell indices.
fn pairs() -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for r in 0..4 {
        for c in 0..4 {
            if c + 1 < 4 {
                pairs.push((r * 4 + c, r * 4 + c + 1));
            }
            if r + 1 < 4 {
                pairs.push((r * 4 + c, (r + 1) * 4 + c));
            }
        }
    }
    pairs
}

fn name(i: usize) -> String {
    format!("r{}c{}", i / 4 + 1, i % 4 + 1)
}

/// Issue 17: "a white dot means the two values differ by 1, a black dot means
/// one is twice the other ... no dot means neither relation holds". A pair
/// that carries a dot is not a pair without a dot, so the negative constraint
/// says nothing of it; in particular 1 and 2 (consecutive and 1:2) may sit on
/// a white dot, as in every kropki puzzle (either colour may go between 1 and 2).
///
/// The grid below gets a white dot on every consecutive pair (1-2 included)
/// and a black dot on every other 1:2 pair (2-4); it satisfies every rule, yet
/// `kropki_negative = true` makes satdoku call it unsolvable, because a
/// white-dotted pair is still held to "not 1:2" (and a black-dotted pair to
/// "not consecutive"): constraints.rs `negative_pairs` exempts only dots of
/// the same family, and gridfile.rs splits kropki's negative constraint in two.
#[test]
fn kropki_negative_lets_a_white_dot_sit_between_1_and_2() {
    let values: Vec<u32> = GRID.chars().map(|c| c.to_digit(10).unwrap()).collect();
    let mut toml = String::from("size = 4\nboxes = \"2x2\"\nkropki_negative = true\n");
    let mut white_on_1_2 = 0;
    for (a, b) in pairs() {
        let (x, y) = (values[a], values[b]);
        let kind = if x.abs_diff(y) == 1 {
            white_on_1_2 += usize::from(x.min(y) == 1 && x.max(y) == 2);
            "white"
        } else if x == 2 * y || y == 2 * x {
            "black"
        } else {
            // No dot: neither relation holds, as the rule asks.
            assert!(x.abs_diff(y) != 1 && x != 2 * y && y != 2 * x);
            continue;
        };
        toml.push_str(&format!("[[kropki]]\ncells = \"{} {}\"\nkind = \"{kind}\"\n", name(a), name(b)));
    }
    assert!(white_on_1_2 > 0, "the case needs a white dot between 1 and 2");
    let dir = TempDir::new().unwrap();
    let grid = write_file(&dir, "kropki.toml", &toml);
    let r = run(&["solve", "--grid", &grid, "--format", "json"], &format!("{GRID}\n"));
    let records = json_lines(&r.stdout);
    assert_eq!(records.len(), 1, "{}", r.stderr);
    assert_eq!(records[0]["status"], "solved", "{toml}\n{}", r.stdout);
    assert_eq!(r.code, 0);
}

/// `generate` with a clue that value relabelling or a reflection does not
/// keep (a thermometer, non-consecutive): the grid sampler's symmetry moves
/// (generate/sampler.rs `symmetry_move`) relabel values and reflect the grid
/// checking only the units, so the grids they make break the clue and the
/// verifier stops them as an internal error ("this is a bug in satdoku").
#[test]
fn generate_keeps_value_sensitive_constraints() {
    let dir = TempDir::new().unwrap();
    let grid = write_file(&dir, "thermo.toml", "size = 4\nboxes = \"2x2\"\n[[thermo]]\ncells = \"r1c1 r1c2\"\n");
    let r = run(&["generate", "--grid", &grid, "--count", "3", "--seed", "5", "--format", "json"], "");
    let records = json_lines(&r.stdout);
    assert_eq!(records.len(), 3, "{}", r.stderr);
    for record in &records {
        assert_eq!(record["status"], "unique", "{record}");
        let puzzle: Vec<char> = record["solution"].as_str().unwrap().chars().collect();
        assert!(puzzle[0] < puzzle[1], "the thermometer r1c1 < r1c2 does not hold: {record}");
    }
    assert_eq!(r.code, 0, "{}", r.stderr);

    let r = run(&["generate", "--variant", "non-consecutive", "--count", "1", "--seed", "3", "--format", "json"], "");
    let records = json_lines(&r.stdout);
    assert_eq!(records.len(), 1, "{}", r.stderr);
    assert_eq!(records[0]["status"], "unique", "{}", records[0]);
}

/// An external solver's DRAT proof is untrusted input. A lemma naming
/// variable 2,000,000,000 makes the checker (proof/drat.rs `Db::grow`)
/// allocate ~96 GB of watch lists: the allocation fails and the process
/// aborts, so the whole batch ends without a record (or, on a machine that
/// overcommits, runs out of memory). It should be a rejected proof: an error
/// record for this puzzle, the batch going on.
#[test]
fn a_proof_naming_a_huge_variable_is_rejected_not_an_abort() {
    let dir = TempDir::new().unwrap();
    let script = write_file(
        &dir,
        "huge-proof.sh",
        "#!/bin/sh\nprintf '2000000000 0\\n0\\n' > \"$2\"\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let command = format!("{script} {{cnf}} {{proof}}");
    let hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let args = ["solve", "--solver", &command, "--encoding", "full", "--no-pattern-guess", "--format", "json"];
    let r = run(&args, &format!("{hard}\n{hard}\n"));
    let records = json_lines(&r.stdout);
    assert_eq!(records.len(), 2, "one record per puzzle: {}", r.stderr);
    for record in &records {
        assert_eq!(record["status"], "error", "{record}");
    }
    assert_eq!(r.code, 2);
}
