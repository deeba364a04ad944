#!/usr/bin/env python3
"""python-sat on satdoku's CNF of the variant examples: time to solve and to
prove the solution unique (solve, block the cell variables of the model,
solve again: unsatisfiable), against `satdoku solve --unique` on the same puzzle.

    pip install python-sat
    cargo build --release
    scripts/variants-pysat.py [ENCODING]        # full (default), reduced or propagated

The CNF is written once per puzzle by `satdoku dimacs`; python-sat's time
counts loading the clauses into the solver and both solves, not the file
reading. satdoku's time is the whole command, process start included.
"""
import glob, os, subprocess, sys, tempfile, time

from pysat.formula import CNF
from pysat.solvers import Solver

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "satdoku")
ENCODING = sys.argv[1] if len(sys.argv) > 1 else "full"
REPEAT = 20


def cell_vars(path):
    with open(path) as f:
        for line in f:
            if line.startswith("c ind "):
                return [int(x) for x in line.split()[2:] if x != "0"]
    raise SystemExit(f"{path}: no `c ind` line")


def best(f):
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - start)
    return min(times) * 1000, sorted(times)[len(times) // 2] * 1000, result


print(f"| puzzle | CNF encoding | python-sat solve + unique (ms, min / median) | satdoku solve --unique, its default encoding (ms, min / median, whole process) |")
print("|---|---|---|---|")
for toml in sorted(glob.glob(os.path.join(ROOT, "encodings", "variants", "*.toml"))):
    givens = toml[:-5] + ".txt"
    name = os.path.basename(toml)[:-5]
    with tempfile.TemporaryDirectory() as tmp:
        cnf_path = os.path.join(tmp, "p.cnf")
        subprocess.run([BIN, "dimacs", "--grid", toml, givens, "--encoding", ENCODING, "--out", cnf_path], check=True)
        cnf = CNF(from_file=cnf_path)
        cells = cell_vars(cnf_path)
        for backend in ("cadical153", "glucose4"):
            def unique():
                with Solver(name=backend, bootstrap_with=cnf.clauses) as s:
                    assert s.solve()
                    model = s.get_model()
                    true = set(l for l in model if l > 0)
                    s.add_clause([-v for v in cells if v in true])
                    return not s.solve()
            lo, med, is_unique = best(unique)
            assert is_unique, name
            label = f"{backend}: {lo:.2f} / {med:.2f}"
            if backend == "cadical153":
                row_cadical = label
            else:
                row_glucose = label
        run = lambda: subprocess.run([BIN, "solve", "--unique", "--grid", toml, givens], capture_output=True, check=True)
        lo, med, _ = best(run)
        print(f"| {name} | {ENCODING} | {row_cadical}; {row_glucose} | {lo:.1f} / {med:.1f} |")
