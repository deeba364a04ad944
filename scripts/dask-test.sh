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
