//! Python bindings of satdoku: puzzles and grid options in, grids, counts and
//! candidates out. The Rust library does all the work; this file only
//! translates between Python values and the library's types.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTimeoutError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use satdoku::cnf::{puzzle_cnf, write_cnf};
use satdoku::{
    box_side, load_grid_file, parse_box_shape, parse_region_map, read_all, Alphabet, AnalyzeOptions, Cell, Encoding,
    Geometry, GeometrySpec, Grid, Layout, Outcome, Puzzle, Search, SolveError as RustSolveError, SolveOptions, Value,
    Variant, Verdict,
};

create_exception!(
    _satdoku,
    PuzzleError,
    PyValueError,
    "Bad input: a puzzle that cannot be read, or grid options that do not describe its grid."
);
create_exception!(
    _satdoku,
    SolveError,
    PyRuntimeError,
    "No answer for a reason other than time: a bug, a refused size."
);

/// The grid options of a call, resolved as the command line resolves them.
struct Setup {
    spec: GeometrySpec,
    alphabet: Alphabet,
    options: SolveOptions,
}

/// Read the keyword options: box, latin, regions, variants, grid, symbols, timeout.
fn setup(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Setup> {
    let mut shape: Option<String> = None;
    let mut latin = false;
    let mut regions: Option<String> = None;
    let mut variants: Vec<Variant> = Vec::new();
    let mut grid_file: Option<String> = None;
    let mut symbols: Option<String> = None;
    let mut options = SolveOptions::default();
    if let Some(kwargs) = kwargs {
        for (key, value) in kwargs.iter() {
            let key: String = key.extract()?;
            if value.is_none() {
                continue;
            }
            match key.as_str() {
                "box" => shape = Some(value.extract()?),
                "latin" => latin = value.extract()?,
                "regions" => regions = Some(value.extract()?),
                "variants" | "variant" => {
                    let names: Vec<String> =
                        if value.is_instance_of::<PyString>() { vec![value.extract()?] } else { value.extract()? };
                    for name in names {
                        let variant = name.parse::<Variant>().map_err(|_| {
                            let names = Variant::names().join(", ");
                            PuzzleError::new_err(format!("variant '{name}': expected one of {names}"))
                        })?;
                        variants.push(variant);
                    }
                }
                "grid" => grid_file = Some(value.extract::<std::path::PathBuf>()?.display().to_string()),
                "symbols" => symbols = Some(value.extract()?),
                "timeout" => {
                    let seconds: f64 = value.extract()?;
                    if seconds.is_nan() || seconds <= 0.0 {
                        let message = format!("timeout {seconds}: expected a positive number of seconds");
                        return Err(PyValueError::new_err(message));
                    }
                    // Past what a duration holds (1e300, inf) is no limit at all.
                    options.timeout = match Duration::try_from_secs_f64(seconds) {
                        Ok(t) if t.is_zero() => {
                            return Err(PyValueError::new_err(format!("timeout {seconds}: less than a nanosecond")))
                        }
                        Ok(t) => Some(t),
                        Err(_) => None,
                    };
                }
                other => return Err(PyTypeError::new_err(format!("unexpected keyword argument '{other}'"))),
            }
        }
    }
    let alphabet = match &symbols {
        Some(s) => Alphabet::custom(s).map_err(|e| PuzzleError::new_err(format!("symbols: {e}")))?,
        None => Alphabet::default(),
    };
    let fixed = |geometry: Result<Geometry, String>| -> PyResult<GeometrySpec> {
        geometry.map(|g| GeometrySpec::fixed(Arc::new(g))).map_err(PuzzleError::new_err)
    };
    // As on the command line, an option another would drop is refused, not
    // ignored (a count of a classic 4×4 grid file with variants="x" was
    // 288, not 48): the first one given of those each refuses.
    let given = [
        ("grid", grid_file.is_some()),
        ("regions", regions.is_some()),
        ("box", shape.is_some()),
        ("variants", !variants.is_empty()),
    ];
    let first_of =
        |names: &[&str]| given.iter().find(|(name, set)| *set && names.contains(name)).map(|(name, _)| *name);
    let clash = [
        (latin, &["grid", "regions", "box"][..], "latin", "a Latin square has no boxes"),
        (
            grid_file.is_some(),
            &["regions", "box", "variants"][..],
            "grid",
            "the grid file describes the whole grid (its variants too)",
        ),
        (regions.is_some(), &["box"][..], "regions", "the regions take the boxes' place"),
    ];
    for (set, others, name, why) in clash {
        if let Some(other) = first_of(others).filter(|_| set) {
            return Err(PuzzleError::new_err(format!("{name} and {other} do not go together: {why}")));
        }
    }
    let spec = match (&grid_file, &regions, &shape, latin) {
        (Some(path), ..) => fixed(load_grid_file(Path::new(path)).map_err(|e| e.to_string()))?,
        (None, Some(map), ..) => {
            let labels = parse_region_map(map);
            let n = (1..=labels.len()).find(|n| n * n >= labels.len()).unwrap_or(0);
            if n == 0 || n * n != labels.len() {
                return Err(PuzzleError::new_err(format!("regions: {} labels is not a square number", labels.len())));
            }
            fixed(Geometry::new(n, Layout::Regions(labels), &variants).map_err(|e| format!("regions: {e}")))?
        }
        (None, None, Some(shape), _) => {
            let (rows, cols) = parse_box_shape(shape)
                .ok_or_else(|| PuzzleError::new_err(format!("box {shape}: expected RxC, e.g. 2x3")))?;
            let n = box_side(rows, cols).map_err(|e| PuzzleError::new_err(format!("box {shape}: {e}")))?;
            fixed(Geometry::new(n, Layout::Boxes { rows, cols }, &variants).map_err(|e| format!("box {shape}: {e}")))?
        }
        (None, None, None, true) => GeometrySpec::latin().with_variants(&variants),
        (None, None, None, false) => GeometrySpec::classic().with_variants(&variants),
    };
    Ok(Setup { spec, alphabet, options })
}

/// The one puzzle of `puzzle`: text as the command line reads it, or a list
/// of rows of ints ([`puzzle_of_rows`]).
fn read_puzzle(puzzle: &Bound<'_, PyAny>, setup: &mut Setup) -> PyResult<Puzzle> {
    let text = if let Ok(text) = puzzle.extract::<String>() {
        text
    } else if let Ok(rows) = puzzle.extract::<Vec<Vec<Option<usize>>>>() {
        return puzzle_of_rows(&rows, setup);
    } else {
        return Err(PyTypeError::new_err("a puzzle is a string or a list of lists of ints"));
    };
    let mut entries = read_all(&text, "<puzzle>", &setup.alphabet, &mut setup.spec);
    match entries.len() {
        1 => entries.remove(0).puzzle.map_err(|e| PuzzleError::new_err(e.to_string())),
        0 => Err(PuzzleError::new_err("no puzzle in the input")),
        k => Err(PuzzleError::new_err(format!("{k} puzzles in the input: pass one at a time"))),
    }
}

/// The puzzle of rows of ints ([`grid_of_rows`]) on the grid the options
/// describe. The values are numbers, not symbols: `symbols` has no say in
/// them.
fn puzzle_of_rows(rows: &[Vec<Option<usize>>], setup: &mut Setup) -> PyResult<Puzzle> {
    if rows.is_empty() {
        return Err(PuzzleError::new_err("no puzzle in the input: the list is empty"));
    }
    let givens = grid_of_rows(rows)?;
    let geometry = setup.spec.geometry_for(givens.size()).map_err(|e| PuzzleError::new_err(e.to_string()))?;
    Ok(Puzzle::new(geometry, givens).expect("geometry_for(n) has side n"))
}

/// The grid of n rows of n ints, each 1 to n, or 0 or None for an empty
/// cell; the row of another length, or the value out of range, named.
fn grid_of_rows(rows: &[Vec<Option<usize>>]) -> PyResult<Grid> {
    let n = rows.len();
    let mut cells = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        if row.len() != n {
            return Err(PuzzleError::new_err(format!(
                "row {} has {} value{} (expected {n}: a puzzle of {n} rows has {n} cells in each)",
                r + 1,
                row.len(),
                if row.len() == 1 { "" } else { "s" }
            )));
        }
        for (c, value) in row.iter().enumerate() {
            cells.push(match value.unwrap_or(0) {
                0 => None,
                v => Some(Value::new_checked(v, n).ok_or_else(|| {
                    PuzzleError::new_err(format!(
                        "r{}c{}: {v} is no value of a {n}x{n} grid (expected 1 to {n}, or 0 or None for an empty cell)",
                        r + 1,
                        c + 1
                    ))
                })?),
            });
        }
    }
    Grid::from_cells(n, cells).ok_or_else(|| PuzzleError::new_err(format!("not a grid of side {n}")))
}

/// A grid as rows of ints, 0 where empty.
fn rows(grid: &Grid) -> Vec<Vec<usize>> {
    grid.cells().chunks(grid.size()).map(|row| row.iter().map(|v| v.map_or(0, Value::number)).collect()).collect()
}

fn solve_error(error: RustSolveError) -> PyErr {
    match error {
        RustSolveError::TimedOut => PyTimeoutError::new_err("no answer within the time limit"),
        other => SolveError::new_err(other.to_string()),
    }
}

/// Solve a puzzle: its solution as rows of ints, or None when it has none.
#[pyfunction]
#[pyo3(signature = (puzzle, **kwargs))]
fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<Vec<Vec<usize>>>> {
    let mut setup = setup(kwargs)?;
    let puzzle = read_puzzle(puzzle, &mut setup)?;
    let outcome = py.allow_threads(|| satdoku::solve(&puzzle, &setup.options)).map_err(solve_error)?;
    match outcome {
        Outcome::Solved(grid) => Ok(Some(rows(&grid))),
        Outcome::Unsolvable(_) => Ok(None),
        Outcome::TimedOut => Err(PyTimeoutError::new_err("no answer within the time limit")),
    }
}

/// Count the solutions of a puzzle, stopping at `max` when given.
#[pyfunction]
#[pyo3(signature = (puzzle, max=None, **kwargs))]
fn count(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    max: Option<u64>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<u64> {
    let mut setup = setup(kwargs)?;
    let puzzle = read_puzzle(puzzle, &mut setup)?;
    if max == Some(0) {
        return Err(PyValueError::new_err("max 0: expected at least 1 (a count stops once it reaches max)"));
    }
    let limit = max.unwrap_or(u64::MAX);
    let count = py.allow_threads(|| satdoku::count_up_to(&puzzle, limit, &setup.options)).map_err(solve_error)?;
    Ok(count.count)
}

/// What is certain in a puzzle: a dict with "status" ("unique", "multiple"
/// or "unsolvable"), "count" (up to `max`), "capped", "fixed" (rows, 0
/// where not fixed), "candidates" (rows of lists of values), and "reason"
/// when propagation shows there is no solution.
#[pyfunction]
#[pyo3(signature = (puzzle, max=1000, **kwargs))]
fn analyze<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    max: u64,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut setup = setup(kwargs)?;
    let puzzle = read_puzzle(puzzle, &mut setup)?;
    if max == 0 {
        return Err(PyValueError::new_err(
            "max 0: expected at least 1 (the count of solutions stops once it reaches max)",
        ));
    }
    let options = AnalyzeOptions { solve: setup.options, count_limit: max };
    let analysis = py.allow_threads(|| satdoku::analyze(&puzzle, &options)).map_err(solve_error)?;
    let out = PyDict::new(py);
    let status = match analysis.verdict {
        Verdict::Unique => "unique",
        Verdict::Multiple => "multiple",
        Verdict::Unsolvable => "unsolvable",
    };
    out.set_item("status", status)?;
    out.set_item("count", analysis.count.count)?;
    out.set_item("capped", analysis.count.capped)?;
    if let Some(domains) = &analysis.candidates {
        out.set_item("fixed", rows(&analysis.fixed()))?;
        let n = puzzle.size();
        let candidates: Vec<Vec<Vec<usize>>> = (0..n)
            .map(|r| (0..n).map(|c| domains.values(Cell::from_index(r * n + c)).map(Value::number).collect()).collect())
            .collect();
        out.set_item("candidates", candidates)?;
    }
    if let Some(reason) = &analysis.reason {
        out.set_item("reason", reason.describe(puzzle.geometry(), &setup.alphabet))?;
    }
    Ok(out)
}

/// Every solution of a puzzle, one at a time, each verified and each once.
#[pyclass(unsendable, module = "satdoku")]
struct Solutions {
    search: Search,
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> PyResult<Option<Vec<Vec<usize>>>> {
        match self.search.next() {
            None => Ok(None),
            Some(Ok(grid)) => Ok(Some(rows(&grid))),
            Some(Err(e)) => Err(solve_error(e)),
        }
    }
}

/// An iterator over the solutions of a puzzle: `itertools.islice(satdoku.solutions(p), 10)`.
#[pyfunction]
#[pyo3(signature = (puzzle, **kwargs))]
fn solutions(puzzle: &Bound<'_, PyAny>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Solutions> {
    let mut setup = setup(kwargs)?;
    let puzzle = read_puzzle(puzzle, &mut setup)?;
    Ok(Solutions { search: Search::new(&puzzle, &setup.options) })
}

/// The self-describing DIMACS CNF of a puzzle (encoding "full", "reduced"
/// or "propagated"), as `satdoku dimacs` writes it.
#[pyfunction]
#[pyo3(signature = (puzzle, encoding="full", **kwargs))]
fn dimacs(puzzle: &Bound<'_, PyAny>, encoding: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    let mut setup = setup(kwargs)?;
    let puzzle = read_puzzle(puzzle, &mut setup)?;
    let encoding: Encoding = encoding
        .parse()
        .map_err(|_| PyValueError::new_err(format!("encoding '{encoding}': expected full, reduced or propagated")))?;
    let options = SolveOptions { encoding, ..setup.options };
    let cnf = puzzle_cnf(&puzzle, &options).map_err(solve_error)?;
    let mut out = Vec::new();
    write_cnf(&mut out, &cnf).map_err(|e| SolveError::new_err(e.to_string()))?;
    String::from_utf8(out).map_err(|e| SolveError::new_err(e.to_string()))
}

/// A grid (rows of ints, 0 empty) on one line, as `satdoku solve` prints it.
#[pyfunction]
#[pyo3(signature = (grid, symbols=None))]
fn to_line(grid: Vec<Vec<Option<usize>>>, symbols: Option<&str>) -> PyResult<String> {
    let grid = grid_of_rows(&grid)?;
    let alphabet = match symbols {
        Some(s) => Alphabet::custom(s).map_err(|e| PuzzleError::new_err(format!("symbols: {e}")))?,
        None => Alphabet::default(),
    };
    Ok(satdoku::format::line(&grid, &alphabet))
}

#[pymodule]
fn _satdoku(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(solutions, m)?)?;
    m.add_function(wrap_pyfunction!(dimacs, m)?)?;
    m.add_function(wrap_pyfunction!(to_line, m)?)?;
    m.add_class::<Solutions>()?;
    m.add("PuzzleError", m.py().get_type::<PuzzleError>())?;
    m.add("SolveError", m.py().get_type::<SolveError>())?;
    Ok(())
}
