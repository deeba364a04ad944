#!/usr/bin/env python3
"""Solve a corpus of puzzles on a Dask cluster: each task pipes one range of
lines of a file every worker can read through `satdoku solve`, and the
records come back in input order, each naming its file, line and index as
one run over the whole file would.

    python scripts/dask_solve.py puzzles.txt > records.jsonl               # local processes
    python scripts/dask_solve.py puzzles.txt --scheduler tcp://head:8786   # a dask.distributed cluster

--first-index is right when every line of the file is one puzzle (strip
comments first: grep -v '^#'); `source` (file:line) is right in any case.
"""

import argparse
import itertools
import subprocess
import sys

import dask
import dask.bag as db


def solve_lines(task):
    """The JSON records of lines [start, start + count) of the file."""
    path, start, count, satdoku, extra = task
    with open(path, encoding="utf-8") as f:
        chunk = "".join(itertools.islice(f, start, start + count))
    first = str(start + 1)
    command = [satdoku, "solve", "--format", "json", "--jobs", "1", "--stdin-name", path,
               "--first-line", first, "--first-index", first, *extra]
    done = subprocess.run(command, input=chunk, capture_output=True, text=True, check=False)
    # 0: all solved, 1: some unsolvable, 2: some invalid; every puzzle still has its record.
    if done.returncode not in (0, 1, 2) or (done.returncode == 2 and not done.stdout):
        raise RuntimeError(f"{' '.join(command)}: exit {done.returncode}: {done.stderr}")
    return done.stdout.splitlines()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--lines", type=int, default=10_000, help="lines per task")
    parser.add_argument("--satdoku", default="satdoku", help="the satdoku binary, on every worker")
    parser.add_argument("--scheduler", help="a dask.distributed scheduler address (default: local processes)")
    # Anything else (after --) goes to satdoku: `-- --timeout 10`.
    args, extra = parser.parse_known_args()
    args.extra = [a for a in extra if a != "--"]
    with open(args.file, encoding="utf-8") as f:
        total = sum(1 for _ in f)
    tasks = [(args.file, start, args.lines, args.satdoku, args.extra) for start in range(0, total, args.lines)]
    records = db.from_sequence(tasks, npartitions=max(1, len(tasks))).map(solve_lines).flatten()
    if args.scheduler:
        from dask.distributed import Client  # pip install "dask[distributed]"

        Client(args.scheduler)
        lines = records.compute()
    else:
        with dask.config.set(scheduler="processes"):
            lines = records.compute()
    for line in lines:
        sys.stdout.write(line + "\n")


if __name__ == "__main__":
    main()
