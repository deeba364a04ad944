#!/usr/bin/env bash
# Random puzzles near the hardness peak: a random full grid (`satdoku generate
# --solved`, seeded), a random share of its cells kept (30% to 60% in steps of
# 5%), five seeds each. Times, in the same run and one after the other:
#   satdoku     `satdoku solve -j1` (preparation, encoding, varisat, verification)
#   race        `satdoku solve -j2` on the one puzzle: two seeded solvers race
#   cadical     `cadical -q` on satdoku's own CNF (`satdoku dimacs`; writing it
#               is not counted)
# and prints the median and the worst time of each (an instance with no
# answer counts as TIMEOUT, the worst then reads "> TIMEOUT").
#
#   benches/hard.sh                                  (n = 25 36 49)
#   SIZES=36 PERCENTS="45 50" SEEDS="1 2 3" TIMEOUT=10 RACE=0 benches/hard.sh
#
# RACE=0 skips the race column, CADICAL=0 the CaDiCaL one. Needs /usr/bin/time
# (apt-get install time), cadical (apt-get install cadical) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${SIZES:-"25 36 49"}
percents=${PERCENTS:-"30 35 40 45 50 55 60"}
seeds=${SEEDS:-"1 2 3 4 5"}
timeout=${TIMEOUT:-10}
. benches/setup.sh

# seconds CMD...: wall seconds of CMD, or TIMEOUT when it gave no answer in time
seconds() {
    local code=0
    /usr/bin/time -f "%e" -o "$work/time" timeout "$timeout" "$@" > "$work/out" 2> /dev/null || code=$?
    # satdoku: 0 solved (1 would be unsolvable: not here); cadical: 10 SAT
    if [ "$code" = 0 ] || [ "$code" = 10 ]; then tail -1 "$work/time"; else echo "$timeout"; fi
}

# summary TIMES...: "median / worst", the worst marked when it timed out
summary() {
    printf '%s\n' "$@" | sort -g | awk -v t="$timeout" '
        { v[NR] = $1 }
        END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              w = v[NR]; ws = (w >= t) ? sprintf("> %d s", t) : sprintf("%.2f s", w)
              ms = (m >= t) ? sprintf("> %d s", t) : sprintf("%.2f s", m)
              printf "%s / %s", ms, ws }'
}

echo "Random puzzles: median / worst of ${seeds// /, } (seeds), ${timeout} s limit, $(date -u +%F)"
echo
header="| n | given | satdoku -j1"
rule="|---:|---:|---"
[ "${RACE:-1}" = 0 ] || { header="$header | satdoku -j2 (race)"; rule="$rule|---"; }
[ "${CADICAL:-1}" = 0 ] || { header="$header | CaDiCaL (satdoku's CNF)"; rule="$rule|---"; }
echo "$header |"
echo "$rule|"
for n in $sizes; do
    for seed in $seeds; do
        "$BIN" generate --solved --size "$n" --seed "$seed" > "$work/full-$seed.txt"
    done
    for percent in $percents; do
        one=() race=() cad=()
        for seed in $seeds; do
            benches/keep-share.py "$work/full-$seed.txt" "$n" "$percent" $((seed * 1000 + percent)) > "$work/puzzle.txt"
            one+=("$(seconds "$BIN" solve -j1 "$work/puzzle.txt")")
            [ "${RACE:-1}" = 0 ] || race+=("$(seconds "$BIN" solve -j2 "$work/puzzle.txt")")
            if [ "${CADICAL:-1}" != 0 ]; then
                "$BIN" dimacs "$work/puzzle.txt" > "$work/puzzle.cnf"
                cad+=("$(seconds cadical -q "$work/puzzle.cnf")")
            fi
        done
        row="| $n | $percent% | $(summary "${one[@]}")"
        [ "${RACE:-1}" = 0 ] || row="$row | $(summary "${race[@]}")"
        [ "${CADICAL:-1}" = 0 ] || row="$row | $(summary "${cad[@]}")"
        echo "$row |"
    done
done
