#!/usr/bin/env bash
# `analyze` of sparse and loose grids (docs/performance.md, "Counting,
# enumerating and analyzing them"): a random full grid (`satdoku generate
# --solved --size N --seed SEED`), a random share of its cells kept, and the
# time of `satdoku analyze -j1 --max 0` on it (every cell's exact candidates,
# no count). Prints a Markdown table; with BASE set, each cell reads
# "BASE's time → BIN's time", the two run one after the other.
#
#   benches/analyze-sparse.sh                  (n = 25 36 49 64; 1, 5, 10, 20, 40% given)
#   SIZES=36 PERCENTS="10 20" TIMEOUT=30 BASE=/path/to/old/satdoku benches/analyze-sparse.sh
#
# Each command runs for at most TIMEOUT seconds (default 60). Needs
# /usr/bin/time (apt-get install time) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${SIZES:-"25 36 49 64"}
percents=${PERCENTS:-"1 5 10 20 40"}
seed=${SEED:-7}
timeout=${TIMEOUT:-60}
. benches/setup.sh

# seconds BINARY: "1.23 s" for analyze of the puzzle, or "> TIMEOUT s"
seconds() {
    local code=0
    /usr/bin/time -f "%e" -o "$work/time" timeout "$timeout" "$1" analyze -j1 --max 0 "$work/puzzle.txt" \
        > /dev/null 2>&1 || code=$?
    if [ "$code" = 0 ]; then printf '%.2f s' "$(tail -1 "$work/time")"; else echo "> $timeout s"; fi
}

echo "\`satdoku analyze -j1 --max 0\`, ${timeout} s each, full grids of seed $seed ($(date -u +%F))"
echo
header="| n" rule="|---:"
for percent in $percents; do header="$header | $percent% given"; rule="$rule|---"; done
echo "$header |"
echo "$rule|"
for n in $sizes; do
    "$BIN" generate --solved --size "$n" --seed "$seed" > "$work/full.txt"
    row="| $n"
    for percent in $percents; do
        benches/keep-share.py "$work/full.txt" "$n" "$percent" $((n * 100 + percent)) > "$work/puzzle.txt"
        after=$(seconds "$BIN")
        if [ -n "${BASE:-}" ]; then row="$row | $(seconds "$BASE") → $after"; else row="$row | $after"; fi
    done
    echo "$row |"
done
