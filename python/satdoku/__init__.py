"""satdoku: Sudoku and its generalizations solved, counted and analyzed by SAT.

    >>> import satdoku
    >>> grid = satdoku.solve("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    >>> grid[0]
    [4, 1, 7, 3, 6, 9, 8, 2, 5]

A puzzle is a string (any text satdoku reads: a line of n² symbols, rows of
symbols or numbers, ...) or a list of lists of ints (0 or None for empty).
Grid options, by keyword: box="2x3", latin=True, regions="AAAB...",
variants=["x"], grid="encodings/jigsaw-9.toml", symbols="0123456789ABCDEF",
timeout=seconds. Bad input raises PuzzleError (a ValueError) saying where
and what, a run out of time raises TimeoutError, anything else SolveError.
The Rust library does the work; these functions only translate.
"""

from ._satdoku import (
    PuzzleError,
    SolveError,
    Solutions,
    analyze,
    count,
    dimacs,
    solutions,
    solve,
    to_line,
)

__all__ = [
    "PuzzleError",
    "SolveError",
    "Solutions",
    "analyze",
    "count",
    "dimacs",
    "solutions",
    "solve",
    "to_line",
]
