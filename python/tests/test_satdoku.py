"""The Python package: every answer checked by a checker written here, from
the rules, counts against known counts, errors as exceptions."""

import itertools
import os

import pytest

import satdoku

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
JIGSAW_MAP = "AAABBBAACCBBDACCCBDDECFFDDEEFFDEEEFF"


def units(n, box=None, regions=None):
    """The rows, columns and boxes (or regions) of an n x n grid."""
    cells = [[(r, c) for c in range(n)] for r in range(n)]
    found = [row for row in cells] + [[(r, c) for r in range(n)] for c in range(n)]
    if regions is not None:
        by_label = {}
        for i, label in enumerate(regions):
            by_label.setdefault(label, []).append((i // n, i % n))
        found += list(by_label.values())
    elif box is not None:
        br, bc = box
        for r0 in range(0, n, br):
            for c0 in range(0, n, bc):
                found.append([(r0 + r, c0 + c) for r in range(br) for c in range(bc)])
    return found


def givens_of(text, n):
    symbols = [ch for ch in text if not ch.isspace()]
    return [[0 if ch in "._0" else int(ch, 36) for ch in symbols[r * n:(r + 1) * n]] for r in range(n)]


def check(grid, givens, all_units):
    n = len(givens)
    assert len(grid) == n and all(len(row) == n for row in grid)
    for r, c in itertools.product(range(n), range(n)):
        if givens[r][c]:
            assert grid[r][c] == givens[r][c], (r, c)
    for unit in all_units:
        assert sorted(grid[r][c] for r, c in unit) == list(range(1, n + 1)), unit


def test_solve_a_string():
    grid = satdoku.solve(PUZZLE)
    check(grid, givens_of(PUZZLE, 9), units(9, box=(3, 3)))
    assert satdoku.to_line(grid)[0] == "4" and len(satdoku.to_line(grid)) == 81


def test_solve_a_list_of_lists_with_grid_options():
    rows = [[1, 0, 0, 0, 0, 0], [0] * 6, [0] * 6, [0] * 6, [0] * 6, [0, 0, 0, 0, 0, 6]]
    grid = satdoku.solve(rows, box="3x2")
    check(grid, rows, units(6, box=(3, 2)))
    jigsaw = "1.............2......3.............4"
    grid = satdoku.solve(jigsaw, regions=JIGSAW_MAP)
    check(grid, givens_of(jigsaw, 6), units(6, regions=JIGSAW_MAP))
    latin = satdoku.solve([[1, None, None], [None] * 3, [None] * 3], latin=True)
    check(latin, [[1, 0, 0], [0] * 3, [0] * 3], units(3))
    # Ints are values, whatever the symbols (they were read back as symbols:
    # '0' is not a symbol of "123456789", and a 16x16 was 16 puzzles).
    rows = givens_of(PUZZLE, 9)
    for symbols in ["123456789", "ABCDEFGHI"]:
        check(satdoku.solve(rows, symbols=symbols), rows, units(9, box=(3, 3)))
    sixteen = [[0] * 16 for _ in range(16)]
    sixteen[0][0], sixteen[15][15] = 16, 1
    check(satdoku.solve(sixteen, symbols="0123456789ABCDEF"), sixteen, units(16, box=(4, 4)))


def test_unsolvable_is_none():
    clash = "44" + PUZZLE[2:]
    assert satdoku.solve(clash) is None
    result = satdoku.analyze(clash)
    assert result["status"] == "unsolvable" and result["count"] == 0
    assert "r1c1" in result["reason"]


def test_count_against_known_counts():
    assert satdoku.count("." * 16) == 288
    assert satdoku.count("." * 9, latin=True) == 12
    assert satdoku.count("." * 16, max=10) == 10
    assert satdoku.count(PUZZLE) == 1


def test_solutions_iterate_each_once_and_all_check():
    found = list(satdoku.solutions("." * 16))
    assert len(found) == 288
    assert len({satdoku.to_line(g) for g in found}) == 288
    for grid in found:
        check(grid, [[0] * 4] * 4, units(4, box=(2, 2)))
    first = list(itertools.islice(satdoku.solutions("." * 36), 5))
    assert len(first) == 5


def test_analyze_candidates_are_the_union_of_the_solutions():
    puzzle = "123434122......."
    result = satdoku.analyze(puzzle)
    solutions = list(satdoku.solutions(puzzle))
    assert result["status"] == "multiple" and result["count"] == len(solutions) == 2
    for r, c in itertools.product(range(4), range(4)):
        union = sorted({s[r][c] for s in solutions})
        assert result["candidates"][r][c] == union
        assert result["fixed"][r][c] == (union[0] if len(union) == 1 else 0)


def test_dimacs_is_a_cnf_of_the_puzzle():
    cnf = satdoku.dimacs(PUZZLE)
    header = next(line for line in cnf.splitlines() if line.startswith("p cnf"))
    variables, clauses = map(int, header.split()[2:])
    assert variables == 729
    body = [line for line in cnf.splitlines() if line and line[0] not in "cp"]
    assert len(body) == clauses and all(line.endswith(" 0") for line in body)
    assert len(satdoku.dimacs(PUZZLE, encoding="propagated")) < len(cnf)


def test_errors_are_exceptions():
    with pytest.raises(satdoku.PuzzleError) as bad:
        satdoku.solve("12x")
    assert "<puzzle>:1" in str(bad.value)
    assert isinstance(bad.value, ValueError)
    with pytest.raises(satdoku.PuzzleError):
        satdoku.solve("")
    with pytest.raises(satdoku.PuzzleError):
        satdoku.solve(PUZZLE + "\n" + PUZZLE)
    with pytest.raises(satdoku.PuzzleError):
        satdoku.solve(PUZZLE, box="2x5")
    # Rows of ints: the row of another length, the value out of range, named.
    with pytest.raises(satdoku.PuzzleError) as bad:
        satdoku.solve([[1, 2, 3], [1], [2, 3, 1]], latin=True)
    assert "row 2 has 1 value" in str(bad.value)
    with pytest.raises(satdoku.PuzzleError) as bad:
        satdoku.solve([[0, 0, 0, 0], [0, 0, 5, 0], [0] * 4, [0] * 4])
    assert "r2c3" in str(bad.value)
    with pytest.raises(satdoku.PuzzleError):
        satdoku.solve([])
    with pytest.raises(satdoku.PuzzleError) as bad:
        satdoku.solve(PUZZLE, variants=["nonsense"])
    assert "anti-knight" in str(bad.value) and "disjoint-groups" in str(bad.value)
    # As on the command line: a Latin square has no boxes, and a count needs a cap of 1 or more.
    with pytest.raises(satdoku.PuzzleError):
        satdoku.solve("." * 16, latin=True, box="2x2")
    # A grid file holds the whole grid, and regions take the boxes' place:
    # an option dropped gave the count without it (288 for the X 4x4's 48).
    classic4 = os.path.join(REPO, "encodings", "classic-4.toml")
    for extra in [dict(variants="x"), dict(box="2x2"), dict(regions="AABBAABBCCDDCCDD")]:
        with pytest.raises(satdoku.PuzzleError) as bad:
            satdoku.count("." * 16, grid=classic4, **extra)
        assert "do not go together" in str(bad.value)
    with pytest.raises(satdoku.PuzzleError):
        satdoku.count("." * 16, regions="AABBAABBCCDDCCDD", box="1x4")
    assert satdoku.count("." * 16, regions="AABBAABBCCDDCCDD", variants="x") == 48
    with pytest.raises(ValueError):
        satdoku.count("." * 16, max=0)
    with pytest.raises(ValueError):
        satdoku.solve(PUZZLE, timeout=-1)
    with pytest.raises(TypeError):
        satdoku.solve(PUZZLE, colour="red")
    with pytest.raises(TypeError):
        satdoku.solve(42)
    with pytest.raises(ValueError):
        satdoku.dimacs(PUZZLE, encoding="clever")


def test_a_timeout_is_a_timeout_error():
    # Listing every solution of a blank 9x9 cannot end in 10 ms.
    with pytest.raises(TimeoutError):
        satdoku.count("." * 81, timeout=0.01)
    # One past what a duration holds is no limit (it was "expected a positive number").
    assert satdoku.count("." * 16, timeout=1e300) == 288


def test_variants():
    blank = "." * 81
    grid = satdoku.solve(blank, variants="x")
    diagonals = [[(i, i) for i in range(9)], [(i, 8 - i) for i in range(9)]]
    check(grid, [[0] * 9] * 9, units(9, box=(3, 3)) + diagonals)
