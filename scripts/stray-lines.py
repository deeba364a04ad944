#!/usr/bin/env python3
"""Grids with a stray line inside, against `satdoku solve --format json`:
how often a grid is not one record, and how often a puzzle nobody wrote is
answered.

    scripts/stray-lines.py [TRIES] [SEED] [BINARY]

Each file holds three 9x9 grids from ../shared/data/9x9/17-clue.txt (many
with an empty first row), blank lines between, written plain (`4.....8.5`),
spaced (`4 . . . . . 8 . 5`) or as a spreadsheet saves them (`4,,,,,,8,,5`).
One grid gets a line of k cells (1 to 13, never 9) after one of its rows 1
to 8: the next row begun and cut, or random digits and empty cells. A file
counts against the reader when its records are not the two other grids read
as written and one `invalid` record for the damaged one, in order; and as a
wrong answer when a solution keeps no written grid's givens, or a record
says unsolvable. Measured numbers are in CHANGELOG.md.
"""
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "9x9"


def puzzles(count):
    lines = (line.strip() for line in open(DATA / "17-clue.txt"))
    return [line[:81] for line in lines if line and not line.startswith("#")][:count]


def written(cells, style):
    if style == "plain":
        return "".join(cells)
    if style == "spaced":
        return " ".join(cells)
    return ",".join("" if c == "." else c for c in cells)


def keeps(solution, puzzle):
    return all(c == "." or c == s for c, s in zip(puzzle, solution))


def main():
    tries = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    binary = sys.argv[3] if len(sys.argv) > 3 else "target/release/satdoku"
    pool = puzzles(2000)
    miscounted = wrong = 0
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "grids.txt"
        for _ in range(tries):
            style = rng.choice(["plain", "spaced", "csv"])
            chosen = rng.sample(pool, 3)
            grids = [[written(p[r * 9:r * 9 + 9], style) for r in range(9)] for p in chosen]
            damaged, after = rng.randrange(3), rng.randrange(1, 9)
            k = rng.choice([k for k in range(1, 14) if k != 9])
            if rng.random() < 0.5 and k < 9:
                cells = chosen[damaged][after * 9:after * 9 + k]
            else:
                cells = [rng.choice("123456789.") for _ in range(k)]
            grids[damaged].insert(after, written(cells, style))
            path.write_text("\n\n".join("\n".join(g) for g in grids) + "\n")
            out = subprocess.run([binary, "solve", "-j1", "--format", "json", str(path)],
                                 capture_output=True, text=True).stdout
            records = [json.loads(line) for line in out.splitlines() if line.strip()]
            if any(r["status"] == "unsolvable"
                   or (r["status"] == "solved" and not any(keeps(r["solution"], p) for p in chosen))
                   for r in records):
                wrong += 1
            expected = ["invalid" if i == damaged else "solved" for i in range(3)]
            read = [r["status"] for r in records]
            if read != expected or not all(keeps(r["solution"], p) for r, p in zip(records, chosen) if "solution" in r):
                miscounted += 1
    print(f"{tries} files: {miscounted} not one record a grid, {wrong} with a wrong answer")


if __name__ == "__main__":
    main()
