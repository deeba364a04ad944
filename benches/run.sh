#!/usr/bin/env bash
# Times whole `satdoku` commands on the shared puzzle data and prints Markdown
# tables: µs per puzzle on the 9×9 sets (one thread and all cores), and time
# and peak memory against the grid size on the big instances.
#
#   benches/run.sh [DATA_DIR]        (default: ../shared/data)
#   SETS=... SIZES=... TIMEOUT=60 JOBS=2 BIG=0 benches/run.sh
#   SOLVER="cadical --sat" SETS= SIZES= benches/run.sh
#
# SETS= or SIZES= (empty) skips that table. SOLVER runs every solve through
# `satdoku solve --solver SOLVER` (preprocessing by satdoku, search by SOLVER).
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}
jobs=${JOBS:-$(nproc)}
timeout=${TIMEOUT:-60}
sets=${SETS-"17-clue magictour-top1465 forum-hardest-1905"}
sizes=${SIZES-"kwon-jain/table3-1 kwon-jain/table4-1 kwon-jain/table5-1 kwon-jain/table6-1 kwon-jain/table7-1 kwon-jain/table8-1 kwon-jain/table9-1 kwon-jain/table10-1 kwon-jain/table12-2 kwon-jain/table15-1 big/rkkautsar-400-1"}

cargo build --release --quiet
bin=target/release/satdoku
solver=()
[ -z "${SOLVER:-}" ] || solver=(--solver "$SOLVER")
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

# run CMD...: prints "seconds peak_kB exit_code"
times=$(mktemp)
trap 'rm -f "$times"' EXIT
run() {
    : > "$times"
    /usr/bin/time -f "%e %M" -o "$times" timeout "$timeout" "$@" > /dev/null 2> /dev/null || true
    # A killed command (timeout) leaves a "Command terminated" line first.
    tail -1 "$times" | grep -E '^[0-9.]+ [0-9]+$' || echo "$timeout 0"
}

[ -z "${SOLVER:-}" ] || { echo "search by: $SOLVER"; echo; }
if [ -n "$sets" ]; then
    echo "9x9 sets, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
    echo
    echo "| set | puzzles | threads | seconds | µs per puzzle | peak MB |"
    echo "|---|---:|---:|---:|---:|---:|"
    for set in $sets; do
        file=$data/9x9/$set.txt
        [ -f "$file" ] || { echo "| $set | missing | | | | |"; continue; }
        count=$(grep -cv '^#' "$file")
        for threads in 1 "$jobs"; do
            read -r seconds kb < <(run "$bin" solve "${solver[@]}" --jobs "$threads" "$file")
            awk -v s="$set" -v c="$count" -v t="$threads" -v sec="$seconds" -v kb="$kb" \
                'BEGIN { printf "| %s | %d | %d | %.2f | %.0f | %.1f |\n", s, c, t, sec, sec * 1e6 / c, kb / 1024 }'
        done
    done
fi

if [ -n "$sizes" ]; then
    echo
    echo "Growth: one instance per size, one thread, ${timeout} s limit"
    echo
    echo "| n | instance | answer | seconds | peak MB |"
    echo "|---:|---|---|---:|---:|"
    for instance in $sizes; do
        file=$data/$instance.txt
        [ -f "$file" ] || { echo "| | $instance | missing | | |"; continue; }
        # The side: the words of the first row, or the root of a one-line puzzle's length.
        n=$(awk '!/^#/ { n = (NF > 1 ? NF : int(sqrt(length($0)))); print n; exit }' "$file")
        answer=$(timeout "$timeout" "$bin" solve "${solver[@]}" --jobs 1 --format json "$file" 2>/dev/null | grep -o '"status":"[a-z]*"' | cut -d'"' -f4 | head -1) || true
        read -r seconds kb < <(run "$bin" solve "${solver[@]}" --jobs 1 "$file")
        [ -n "$answer" ] || answer="no answer in ${timeout} s"
        awk -v n="$n" -v i="$instance" -v a="$answer" -v sec="$seconds" -v kb="$kb" \
            'BEGIN { printf "| %d | %s | %s | %.2f | %.0f |\n", n, i, a, sec, kb / 1024 }'
    done
fi

# Every big instance (BIG=0 skips this): answered or not within the limit.
if [ "${BIG:-1}" = 1 ]; then
    echo
    echo "Every instance of big/ and kwon-jain/ past 81x81, one thread, ${timeout} s limit"
    echo
    echo "| instance | answer | seconds | peak MB |"
    echo "|---|---|---:|---:|"
    for file in "$data"/big/*.txt "$data"/kwon-jain/table1[0-5]-*.txt; do
        [ -f "$file" ] || continue
        : > "$times"
        answer=$(/usr/bin/time -f "%e %M" -o "$times" timeout "$timeout" "$bin" solve "${solver[@]}" --jobs 1 --format json "$file" 2>/dev/null \
            | grep -o '"status":"[a-z]*"' | cut -d'"' -f4 | sort | uniq -c | awk '{printf "%s%s", sep, ($1 > 1 ? $1 " " : "") $2; sep=", "}') || true
        read -r seconds kb < <(tail -1 "$times" | grep -E '^[0-9.]+ [0-9]+$' || echo "$timeout 0")
        [ -n "$answer" ] || answer="no answer in ${timeout} s"
        awk -v i="${file#"$data"/}" -v a="$answer" -v sec="$seconds" -v kb="$kb" \
            'BEGIN { printf "| %s | %s | %.2f | %.0f |\n", i, a, sec, kb / 1024 }'
    done
fi
