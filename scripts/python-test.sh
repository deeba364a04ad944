#!/usr/bin/env bash
# The Python package, end to end on a fresh machine with Rust and Python 3.8+:
# build the wheel with maturin, install it into a new virtual environment,
# and run pytest on python/tests. Usage: scripts/python-test.sh [VENV_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
venv=${1:-$(mktemp -d)/venv}
"$python" -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip
"$venv/bin/pip" install -q "maturin>=1.5,<2" pytest
# The extension's own target folder: it is its own workspace (python/Cargo.toml).
export CARGO_TARGET_DIR="$PWD/python/target"
rm -rf python/target/wheels
"$venv/bin/maturin" build --release --manifest-path python/Cargo.toml -i "$venv/bin/python" --quiet
"$venv/bin/pip" install -q --force-reinstall python/target/wheels/satdoku-*.whl
# From outside the source tree, so that the installed package is the one tested.
cd /
"$venv/bin/python" -m pytest -q "$OLDPWD/python/tests"
# The examples of docs/python.md, as written there.
"$venv/bin/python" -m doctest "$OLDPWD/docs/python.md"
"$venv/bin/python" - <<'PY'
import satdoku
grid = satdoku.solve("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
print(satdoku.to_line(grid))
PY
