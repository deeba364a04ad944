#!/usr/bin/env python3
"""Print a puzzle keeping a random share of a full grid's cells.

    benches/keep-share.py FULL N PERCENT SEED

FULL holds the grid on its first line, as `satdoku generate --solved` or
`solve --format line` writes it: digits and letters (sides up to 35) or
numbers separated by spaces. PERCENT of its N*N cells are kept, chosen by
Python's `random` seeded with SEED (an integer: the same seed, the same
cells); the rest print as 0. The puzzle prints as N rows of N numbers.
"""
import random
import sys

ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def main(path, n, percent, seed):
    text = open(path).readline().strip()
    values = [int(v) for v in text.split()] if " " in text else [ALPHABET.index(c) + 1 for c in text]
    if len(values) != n * n:
        sys.exit(f"{path}: {len(values)} cells on its first line, expected {n * n}")
    random.seed(seed)
    keep = set(random.sample(range(n * n), n * n * percent // 100))
    cells = [values[i] if i in keep else 0 for i in range(n * n)]
    for r in range(n):
        print(" ".join(str(v) for v in cells[r * n:(r + 1) * n]))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip())
    main(sys.argv[1], *(int(arg) for arg in sys.argv[2:]))
