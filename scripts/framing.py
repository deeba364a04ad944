#!/usr/bin/env python3
"""Damaged runs of 9x9 puzzles, written a row a line with no blank line
between them, against `satdoku solve --format json`: how often a puzzle
nobody wrote is solved, and how often the records are not one a puzzle.

    scripts/framing.py SCENARIO [TRIES] [SEED] [BINARY]

SCENARIO is one of
  stray   a row of another puzzle inserted anywhere in one puzzle
  twice   a row of one puzzle typed twice (the copy right below it)
  lost    a row of one puzzle lost
  cut     one puzzle cut to a single row of its own
  two     two puzzles damaged, each by a stray row, a row typed twice or a
          row lost: the puzzles between them are shifted
  junk    two puzzles damaged as in `two`, and a line near a row's length
          that is no row (`1234567`, a date, `Grid 12`) between two puzzles

and may start with `csv-` (`csv-twice`): the rows as a spreadsheet saves
them, `,` between cells, an empty field for an empty cell, so that an
empty row is a row of only delimiters (which may as well be a blank line);
and with `mixed-` (`mixed-stray`, `csv-mixed-cut`): each puzzle, by a coin
toss, loses two givens, so that about half of them have several solutions.

The puzzles are the first 3,000 of ../shared/data/9x9/17-clue.txt and the
first 300 of forum-hardest-1905.txt. A solved record is a wrong answer
unless its solution keeps every given of some puzzle written, and so is an
unsolvable record, as every puzzle written has a solution. For `cut`, a
file also counts against the reader when it has not exactly one record a
puzzle. Files where an undamaged puzzle is not answered (reported instead)
are counted too: the price of reporting rather than guessing; and a panic
is reported and fails the run.
Measured numbers are in CHANGELOG.md and the issue notes.
"""

import json
import random
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "9x9"


# Lines near a 9x9 row's length that are no row: an index, a date, a title.
JUNK = ["1234567", "12345678", "2021-06-15", "12.05.2021", "Grid 12", "Puzzle 7", "#1234567", "-------"]


def puzzles(name, count):
    lines = (line.strip() for line in open(DATA / name))
    return [line[:81] for line in lines if line and not line.startswith("#")][:count]


def rows(puzzle):
    return [puzzle[r * 9:r * 9 + 9] for r in range(9)]


def keeps(solution, puzzle):
    return all(c in ".0" or c == s for c, s in zip(puzzle, solution))


def loosen(puzzle, rng):
    """The puzzle with two of its givens taken out."""
    cells = list(puzzle)
    for i in rng.sample([i for i, c in enumerate(cells) if c not in ".0"], 2):
        cells[i] = "."
    return "".join(cells)


def main():
    scenario = sys.argv[1]
    csv = scenario.startswith("csv-")
    scenario = scenario.removeprefix("csv-")
    mixed = scenario.startswith("mixed-")
    scenario = scenario.removeprefix("mixed-")
    tries = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    binary = sys.argv[4] if len(sys.argv) > 4 else "target/release/satdoku"
    pool = puzzles("17-clue.txt", 3000) + puzzles("forum-hardest-1905.txt", 300)
    wrong = miscounted = unanswered = panics = 0
    for _ in range(tries):
        low, high = {"cut": (2, 4), "two": (3, 6), "junk": (3, 6)}.get(scenario, (1, 3))
        chosen = rng.sample(pool, rng.randint(low, high))
        if mixed:
            chosen = [loosen(p, rng) if rng.random() < 0.5 else p for p in chosen]
        odd = rng.randrange(len(chosen))
        damaged = {odd: scenario}
        if scenario in ("two", "junk"):
            damaged = {i: rng.choice(["stray", "twice", "lost"]) for i in rng.sample(range(len(chosen)), 2)}
        junk_after = rng.randrange(len(chosen) - 1) if scenario == "junk" else None
        lines = []
        for i, puzzle in enumerate(chosen):
            block = rows(puzzle)
            damage = damaged.get(i)
            if damage == "stray":
                block.insert(rng.randint(0, 9), rows(rng.choice(pool))[rng.randrange(9)])
            elif damage == "twice":
                j = rng.randrange(9)
                block.insert(j, block[j])
            elif damage == "lost":
                del block[rng.randrange(9)]
            elif damage == "cut":
                block = [rng.choice(block)]
            if csv:
                block = [",".join("" if c in ".0" else c for c in row) for row in block]
            lines += block
            if i == junk_after:
                lines.append(rng.choice(JUNK))
        text = "\n".join(lines) + "\n"
        out = subprocess.run([binary, "solve", "--format", "json"], input=text, capture_output=True, text=True)
        if out.returncode == 101 or "panicked" in out.stderr:
            panics += 1
            print(f"PANIC in\n{text}", file=sys.stderr)
        records = [json.loads(line) for line in out.stdout.splitlines()]
        solved = [r for r in records if r["status"] == "solved"]
        unsolvable = any(r["status"] == "unsolvable" for r in records)
        if unsolvable or any(not any(keeps(r["solution"], p) for p in chosen) for r in solved):
            wrong += 1
            print(f"WRONG ANSWER in\n{text}", file=sys.stderr)
        whole = [p for i, p in enumerate(chosen) if i not in damaged]
        unanswered += not all(any(keeps(r["solution"], p) for r in solved) for p in whole)
        if scenario == "cut":
            miscounted += len(records) != len(chosen)
    print(f"{sys.argv[1]}, {tries} files: {wrong} with a wrong answer", end="")
    if scenario == "cut":
        print(f", {miscounted} not one record a puzzle", end="")
    print(f", {unanswered} with an undamaged puzzle not answered", end="")
    print(f", {panics} panics" if panics else "")
    sys.exit(1 if wrong or panics else 0)


if __name__ == "__main__":
    main()
