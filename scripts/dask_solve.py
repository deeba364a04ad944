#!/usr/bin/env python3
"""Solve a corpus of puzzles on a Dask cluster: each task pipes one range of
lines of a file every worker can read through `satdoku solve`, and the
records come back in input order, each naming its file, line and index as
one run over the whole file would.

    python scripts/dask_solve.py puzzles.txt > records.jsonl               # local processes
    python scripts/dask_solve.py puzzles.txt --scheduler tcp://head:8786   # a dask.distributed cluster

--first-index is right when every line of the file is one puzzle (strip
comments first: grep -v '^#'); `source` (file:line) is right in any case:
the file is cut as bytes, at line ends as satdoku counts them (LF, CRLF, a
lone CR, a vertical tab), so blank lines and bytes that are not UTF-8 (in a
comment) are cut and counted as one run reads them.
"""

import argparse
import mmap
import re
import subprocess
import sys

import dask
import dask.bag as db


# The line ends satdoku counts, CRLF as one.
LINE_END = re.compile(rb"\r\n|[\n\r\v]")


def utf16(path):
    """Whether satdoku would read the file as UTF-16: a byte-order mark, or
    two ASCII characters first. Its line ends are two bytes each."""
    with open(path, "rb") as f:
        head = f.read(4)
    bom = head[:2] in (b"\xff\xfe", b"\xfe\xff")
    ascii_pairs = len(head) == 4 and ((head[1] == head[3] == 0) != (head[0] == head[2] == 0))
    return bom or ascii_pairs


def cuts(path, lines):
    """The tasks' stretches of the file: (byte offset, bytes, first line) of
    every `lines` lines, the last line with or without its line end."""
    stretches, start, first, seen = [], 0, 1, 0
    with open(path, "rb") as f:
        if f.seek(0, 2) == 0:
            return []
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as text:
            for end in LINE_END.finditer(text):
                seen += 1
                if seen % lines == 0:
                    stretches.append((start, end.end() - start, first))
                    start, first = end.end(), seen + 1
            if start < len(text):
                stretches.append((start, len(text) - start, first))
    return stretches


def solve_lines(task):
    """The JSON records of one stretch of the file."""
    path, offset, size, first, satdoku, extra = task
    with open(path, "rb") as f:
        f.seek(offset)
        chunk = f.read(size)
    command = [satdoku, "solve", "--format", "json", "--jobs", "1", "--stdin-name", path,
               "--first-line", str(first), "--first-index", str(first), *extra]
    done = subprocess.run(command, input=chunk, capture_output=True, check=False)
    # 0: all solved, 1: some unsolvable, 2: some invalid; every puzzle still
    # has its record. A stretch of titles alone has none, as in one run.
    no_puzzle = b"no puzzle in the input" in done.stderr
    if done.returncode not in (0, 1, 2) or (done.returncode == 2 and not done.stdout and not no_puzzle):
        raise RuntimeError(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.decode(errors='replace')}")
    return done.stdout.decode().splitlines()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--lines", type=int, default=10_000, help="lines per task")
    parser.add_argument("--satdoku", default="satdoku", help="the satdoku binary, on every worker")
    parser.add_argument("--scheduler", help="a dask.distributed scheduler address (default: local processes)")
    # Anything else (after --) goes to satdoku: `-- --timeout 10`.
    args, extra = parser.parse_known_args()
    args.extra = [a for a in extra if a != "--"]
    if utf16(args.file):
        sys.exit(f"{args.file}: UTF-16, which is cut here only as UTF-8: convert it first "
                 f"(iconv -f UTF-16 -t UTF-8 {args.file} > puzzles.txt)")
    tasks = [(args.file, *stretch, args.satdoku, args.extra) for stretch in cuts(args.file, args.lines)]
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
