#!/usr/bin/env bash
# Where uniqueness sets in (docs/uniqueness.md): CSV files, an SVG plot and a
# Markdown summary, from one command on a fresh clone.
#
#   scripts/uniqueness-study.sh                  # a few minutes on 2 cores
#   scripts/uniqueness-study.sh --scale 10       # ten times the samples
#   scripts/uniqueness-study.sh --only 9x9 --out /tmp/study --seed 7
#
# Writes unique-fraction.csv, minimal-givens.csv and uniqueness.svg to
# docs/uniqueness/ (or --out DIR); the summary table goes to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --quiet --bench uniqueness_study -- "$@"
