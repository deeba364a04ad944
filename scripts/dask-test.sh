#!/usr/bin/env bash
# The Dask recipe of docs/distributed.md, run locally: Dask from PyPI in a
# new virtual environment, a corpus split into tasks of 64 lines on local
# processes, and the records compared with one run of satdoku over the file.
# Usage: scripts/dask-test.sh [path/to/satdoku]   (default: a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then satdoku=$(realpath "$1"); else cargo build --release -q; satdoku=$PWD/target/release/satdoku; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${PYTHON:-python3}" -m venv "$work/venv"
"$work/venv/bin/pip" install -q dask
# One puzzle a line (no comments), and two bad lines among them.
grep -v '^#' tests/data/17-clue-500.txt | sed -e '100a 12x' -e '300a 5.3.' > "$work/corpus.txt"
"$satdoku" solve --format json "$work/corpus.txt" > "$work/one.jsonl" 2>/dev/null || [ $? = 2 ]
"$work/venv/bin/python" scripts/dask_solve.py "$work/corpus.txt" --lines 64 --satdoku "$satdoku" > "$work/dask.jsonl"
cmp "$work/one.jsonl" "$work/dask.jsonl"
echo "dask: $(wc -l < "$work/dask.jsonl") records, the same as one run"
# Line ends as satdoku counts them (CRLF, a lone CR, a vertical tab), blank
# lines where a task starts and inside one, a comment that is not UTF-8, and
# a task of titles alone: each record's source, status and answer as in one
# run (index counts puzzles, so it is not compared).
"$work/venv/bin/python" - "$work/corpus.txt" "$work/messy.txt" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().splitlines()
out = []
for i, line in enumerate(lines[:300]):
    end = [b"\n", b"\r\n", b"\r", b"\v"][i % 4] if i % 7 else b"\n"
    out.append(line + end)
    if i % 64 in (63, 20):
        out.append(b"\n")
out[100:100] = [b"# caf\xe9\n", b"Title one\n", b"Title two\n"]
out[192:192] = [b"Sudoku\n"] * 70
open(sys.argv[2], "wb").write(b"".join(out))
PY
"$satdoku" solve --format json "$work/messy.txt" > "$work/one.jsonl" 2>/dev/null || [ $? = 2 ]
"$work/venv/bin/python" scripts/dask_solve.py "$work/messy.txt" --lines 64 --satdoku "$satdoku" > "$work/dask.jsonl"
"$work/venv/bin/python" - "$work/one.jsonl" "$work/dask.jsonl" <<'PY'
import json, sys
one, dask = ([{k: v for k, v in json.loads(l).items() if k != "index"} for l in open(p)] for p in sys.argv[1:])
assert len(one) == 300 and one == dask, (len(one), len(dask), [(a, b) for a, b in zip(one, dask) if a != b][:2])
PY
echo "dask: the same records as one run, line ends of every kind, blank lines and non-UTF-8 bytes in the file"
# UTF-16, which satdoku reads, cannot be cut at byte line ends: refused, with what to do.
printf '\xff\xfe1\x00.\x00\n\x00' > "$work/utf16.txt"
if "$work/venv/bin/python" scripts/dask_solve.py "$work/utf16.txt" --satdoku "$satdoku" 2> "$work/err.txt"; then
  echo "dask: a UTF-16 file was cut as UTF-8" >&2; exit 1
fi
grep -q "iconv -f UTF-16" "$work/err.txt"
