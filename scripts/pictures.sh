#!/usr/bin/env bash
# The pictures of docs/pictures/, made again from the current build:
# scripts/pictures.sh [path/to/satdoku]  (default: cargo run --release).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then satdoku=("$1"); else cargo build --release -q; satdoku=(target/release/satdoku); fi
out=docs/pictures
mkdir -p "$out"
first_top95=$(grep -v '^#' tests/data/top95.txt | head -1)
jigsaw=$(grep -v '^#' tests/data/dimacs/jigsaw-9.txt | grep -E '^.{81}$' | head -1)
echo "$first_top95" | "${satdoku[@]}" solve --format svg > "$out/solve.svg"
echo "$first_top95" | "${satdoku[@]}" analyze --propagate --format svg > "$out/analyze.svg"
echo "$jigsaw" | "${satdoku[@]}" --grid encodings/jigsaw-9.toml solve --format svg > "$out/jigsaw.svg"
steps=$(mktemp -d)
echo "$first_top95" | "${satdoku[@]}" analyze --steps --format svg --out-dir "$steps"
cp "$steps/puzzle-0001-step-004.svg" "$out/step.svg"
rm -r "$steps"
clash="44${first_top95:2}"
echo "$clash" | "${satdoku[@]}" solve --format svg > "$out/unsolvable.svg" || [ $? = 1 ]
if command -v rsvg-convert >/dev/null; then
    rsvg-convert --background-color=white "$out/solve.svg" -o "$out/solve.png"
fi
ls -l "$out"
