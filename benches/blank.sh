#!/usr/bin/env bash
# Blank and sparse grids (docs/performance.md, "Blank and sparse grids"):
# time and peak memory of `satdoku solve -j1` on a blank n×n, then on
# puzzles keeping a random 1%, 5% and 10% of the cells of a full grid (the
# blank grid's solution; none when the blank grid got no answer). Prints a
# Markdown table.
#
#   benches/blank.sh                       (n = 9 16 25 36 49 64 81 100 144 225)
#   SIZES="49 64" TIMEOUT=10 SEED=1 BIN=/path/to/satdoku benches/blank.sh
#   VARIANT=x SIZES="25 64 100" benches/blank.sh    (X-sudoku: --variant x)
#
# Each command runs under a 4 GB address-space limit (ulimit -v) and TIMEOUT
# seconds (default 10). BIN compares another build in the same run. Needs
# /usr/bin/time (apt-get install time) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${SIZES:-"9 16 25 36 49 64 81 100 144 225"}
timeout=${TIMEOUT:-10}
seed=${SEED:-1}
variant=${VARIANT:+--variant $VARIANT}
. benches/setup.sh

# run FILE: "seconds peak_MB status" of one solve (status: solved, or why not)
run() {
    local status
    (ulimit -v 4194304; /usr/bin/time -f "%e %M" -o "$work/time" timeout "$timeout" \
        "$BIN" solve -j1 $variant --format json "$1" > "$work/out.json" 2> /dev/null) || true
    status=$(grep -o '"status":"[a-z]*"' "$work/out.json" | cut -d'"' -f4 || true)
    if [ -z "$status" ]; then status="no answer in $timeout s"; fi
    # A formula past --max-literals (the matchings and the fill gave up).
    if [ "$status" = error ] && grep -q '"error":"too large' "$work/out.json"; then status="too large"; fi
    read -r sec kb < <(tail -1 "$work/time" | grep -E '^[0-9.]+ [0-9]+$' || echo "$timeout 0")
    printf '%s %.0f %s\n' "$sec" "$((kb / 1024))" "$status"
}

# cell S: a time and memory cell of the table, or the reason there is none
cell() { awk -v s="$1" -v m="$2" -v st="$3" 'BEGIN { if (st == "solved") printf "%.2f s, %d MB", s, m; else printf "%s", st }'; }

echo "Blank and sparse grids, \`satdoku solve -j1${variant:+ $variant}\`, one thread, ${timeout} s and 4 GB each ($(date -u +%F))"
echo
echo "| n | blank | 1% given | 5% given | 10% given |"
echo "|---:|---|---|---|---|"
for n in $sizes; do
    python3 -c "n = $n; [print(' '.join(['0'] * n)) for _ in range(n)]" > "$work/blank.txt"
    read -r sec mb status < <(run "$work/blank.txt")
    row="| $n | $(cell "$sec" "$mb" "$status")"
    grep -o '"solution":"[^"]*"' "$work/out.json" | cut -d'"' -f4 > "$work/full.txt" || true
    for percent in 1 5 10; do
        if [ ! -s "$work/full.txt" ]; then row="$row | no full grid"; continue; fi
        benches/keep-share.py "$work/full.txt" "$n" "$percent" $((seed * 1000 + n)) > "$work/sparse.txt"
        read -r sec mb status < <(run "$work/sparse.txt")
        row="$row | $(cell "$sec" "$mb" "$status")"
    done
    echo "$row |"
done
