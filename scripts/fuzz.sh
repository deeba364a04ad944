#!/usr/bin/env bash
# Fuzz every reader of satdoku with libFuzzer, on the stable toolchain
# (cargo-fuzz without a sanitizer: `-s none`). See fuzz/README.md.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   fuzz each target (default 600 s, every target)
#   scripts/fuzz.sh --replay [TARGET...]               run each committed corpus once, no fuzzing
#   scripts/fuzz.sh --merge [TARGET...]                add to fuzz/corpus/TARGET what fuzz/corpus-work/TARGET
#                                                      covers beyond it (the seeds keep their names)
#
# Each run is held to issue 15's limit: 4 GB of address space (ulimit -v) and
# of resident memory (-rss_limit_mb), so an input that makes satdoku allocate
# past it is a crash. (libFuzzer's -malloc_limit_mb needs a sanitizer's malloc
# hooks; without one, ulimit -v is what catches a single huge allocation.)
# New inputs go to fuzz/corpus-work/TARGET (not committed; see --merge),
# crashes to fuzz/artifacts/TARGET.
# Exits 1 when any target crashed, timed out or ran out of memory.
set -euo pipefail
cd "$(dirname "$0")/.."

MEMORY_MB=4096
# A panic prints its backtrace before libFuzzer saves the input.
export RUST_BACKTRACE=1
mode=fuzz
seconds=600
if [ "${1:-}" = "--replay" ] || [ "${1:-}" = "--merge" ]; then
    mode=${1#--}
    shift
elif [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(puzzle_text puzzle_framing grid_file fpuzzles region_map dimacs_cnf solver_output)
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: cargo-fuzz is missing: cargo install cargo-fuzz --locked" >&2
    exit 2
fi
cargo fuzz build -s none
bin_dir="fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release"

failed=()
summary=()
for target in "${targets[@]}"; do
    mkdir -p "fuzz/artifacts/$target" "fuzz/corpus-work/$target"
    log="fuzz/artifacts/$target/last-run.log"
    args=(-rss_limit_mb=$MEMORY_MB -timeout=30 -print_final_stats=1
        "-artifact_prefix=fuzz/artifacts/$target/" "-dict=fuzz/dict/$target.dict")
    case $target in
        # Room for 25x25 grids in rows of numbers, for CNFs of 4x4 grids and f-puzzles JSON of 16x16 ones.
        puzzle_text | dimacs_cnf | fpuzzles) args+=(-max_len=16384) ;;
        *) args+=(-max_len=4096) ;;
    esac
    if [ $mode = replay ]; then
        corpora=("fuzz/corpus/$target")
        args+=(-runs=0)
    elif [ $mode = merge ]; then
        corpora=("fuzz/corpus/$target" "fuzz/corpus-work/$target")
        args+=(-merge=1 -use_counters=0)
    else
        corpora=("fuzz/corpus-work/$target" "fuzz/corpus/$target")
        args+=(-max_total_time="$seconds")
    fi
    echo "== $target" >&2
    status=0
    (ulimit -v $((MEMORY_MB * 1024)) && exec "$bin_dir/$target" "${args[@]}" "${corpora[@]}") >"$log" 2>&1 || status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    if [ "$status" -eq 0 ]; then
        summary+=("$(printf '%-14s ok     %10s runs  cov %s' "$target" "${execs:-?}" "${cov:-?}")")
    else
        failed+=("$target")
        summary+=("$(printf '%-14s FAILED %10s runs  cov %s  (exit %s; see %s)' "$target" "${execs:-?}" "${cov:-?}" "$status" "$log")")
        # The panic and the input that caused it, for the CI log.
        grep -E "panicked at|^ERROR|^SUMMARY|Test unit written|^Base64" "$log" | head -20 >&2 || true
    fi
done

echo "== summary ($(if [ $mode = fuzz ]; then echo "${seconds} s per target"; else echo "corpus $mode"; fi))"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "failed: ${failed[*]}; replay a crash with: cargo fuzz run -s none TARGET fuzz/artifacts/TARGET/crash-..." >&2
    exit 1
fi
