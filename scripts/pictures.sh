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
echo "$first_top95" | "${satdoku[@]}" analyze --propagate singles --format svg > "$out/analyze.svg"
sed -n 3p tests/data/serg-40.txt | "${satdoku[@]}" analyze --format svg > "$out/serg-analyze.svg"
echo "$jigsaw" | "${satdoku[@]}" --grid encodings/jigsaw-9.toml solve --format svg > "$out/jigsaw.svg"
steps=$(mktemp -d)
echo "$first_top95" | "${satdoku[@]}" analyze --propagate singles --steps --format svg --out-dir "$steps"
cp "$steps/puzzle-0001-step-004.svg" "$out/step.svg"
rm -r "$steps"
echo "$first_top95" | "${satdoku[@]}" --grid tests/data/variants-picture.toml solve --format svg > "$out/variants.svg"
clash="44${first_top95:2}"
echo "$clash" | "${satdoku[@]}" solve --format svg > "$out/unsolvable.svg" || [ $? = 1 ]
ls -l "$out"
