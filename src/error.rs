//! The errors of the library: each says what was wrong, where, and what was expected.

use std::fmt;

use thiserror::Error;

/// A grid definition that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
///
/// In every variant, `n` is the grid side.
pub enum GeometryError {
    /// The side is 0 or past [`crate::MAX_SIZE`].
    #[error("a grid side of {n} is out of range (expected 1 to {max})", max = crate::model::geometry::MAX_SIZE)]
    Size {
        #[allow(missing_docs)]
        n: usize,
    },
    /// A prime side has no box shape but 1×n.
    #[error(
        "{n} is prime, so a {n}x{n} grid has no boxes (use --latin for a Latin square, or --regions for a jigsaw)"
    )]
    Prime {
        #[allow(missing_docs)]
        n: usize,
    },
    /// Boxes of `rows`×`cols` cells do not tile the grid.
    #[error("boxes of {rows}x{cols} do not tile a {n}x{n} grid (expected R x C = {n})")]
    BoxShape {
        #[allow(missing_docs)]
        n: usize,
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        cols: usize,
    },
    /// A region map with `found` labels where `expected` (n²) were needed.
    #[error("the region map has {found} labels, expected {expected} (one per cell of the {n}x{n} grid)")]
    RegionsLength {
        #[allow(missing_docs)]
        n: usize,
        /// n².
        expected: usize,
        /// The labels in the map.
        found: usize,
    },
    /// A region map with `found` different labels where n were needed.
    #[error("the region map has {found} different labels, expected {n} (one per region)")]
    RegionCount {
        #[allow(missing_docs)]
        n: usize,
        /// The different labels in the map.
        found: usize,
    },
    /// A region of `size` cells where n were needed.
    #[error("region {region} (in order of first appearance) has {size} cells, expected {n}")]
    RegionSize {
        /// 1-based, in order of first appearance in the map.
        region: usize,
        /// Its cells.
        size: usize,
        #[allow(missing_docs)]
        n: usize,
    },
    /// Hyper windows need n = b².
    #[error("hyper windows are defined for n = b² (4, 9, 16, 25, ...), not for n = {n}")]
    Hyper {
        #[allow(missing_docs)]
        n: usize,
    },
    /// An extra unit that is not n distinct cells of the grid.
    #[error("extra unit {unit} has {size} distinct cells inside the grid, expected {n}")]
    ExtraUnit {
        /// 1-based, in the order given.
        unit: usize,
        #[allow(missing_docs)]
        n: usize,
        /// Its distinct cells inside the grid.
        size: usize,
    },
    /// A puzzle whose size is not the grid definition's.
    #[error("a {found}x{found} puzzle does not fit this {expected}x{expected} grid definition")]
    SizeMismatch {
        /// The definition's side.
        expected: usize,
        /// The puzzle's side.
        found: usize,
    },
}

/// Where in the input something was found: `file:line:column`, `file:line`,
/// or `file` for the input as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The input's name: a path, or `<stdin>`.
    pub source: String,
    /// 1-based; 0 for the input as a whole.
    pub line: usize,
    /// 1-based, in characters.
    pub column: Option<usize>,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}", self.source),
            (line, Some(column)) => write!(f, "{}:{line}:{column}", self.source),
            (line, None) => write!(f, "{}:{line}", self.source),
        }
    }
}

/// Puzzle text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{position}: {kind}")]
pub struct ParseError {
    /// Where: the line, and the column of the cell at fault when there is one.
    pub position: Position,
    /// What.
    pub kind: ParseErrorKind,
}

/// What is wrong with puzzle text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    /// A character that is no symbol, empty mark or separator.
    #[error("'{symbol}' is not a puzzle symbol (expected {expected})")]
    UnknownSymbol {
        /// The cell as written.
        symbol: String,
        /// What the grid takes, in words.
        expected: String,
    },
    /// A symbol of a value past the grid's side.
    #[error("'{symbol}' is not a symbol of this {n}x{n} grid (expected {expected})")]
    ValueOutOfRange {
        /// The cell as written.
        symbol: String,
        /// The grid side.
        n: usize,
        /// What the grid takes, in words.
        expected: String,
    },
    /// A line of cells that is no n².
    #[error("{count} cells on one line is not a square number (expected n² cells, or n rows of n)")]
    NotSquare {
        /// The cells on the line.
        count: usize,
    },
    /// A row of another length than the puzzle's.
    #[error("a row of {found} cells, expected {expected}")]
    RowLength {
        /// The cells of the row.
        found: usize,
        /// The cells of a row of this puzzle.
        expected: usize,
    },
    /// A block of rows that ends too soon.
    #[error("the puzzle ends after {found} rows, expected {expected}")]
    MissingRows {
        /// The rows read.
        found: usize,
        /// The rows of this puzzle.
        expected: usize,
    },
    /// The puzzle's size does not make a grid of the options.
    #[error("{0}")]
    Geometry(GeometryError),
    /// The input cannot be read: a missing file, bad bytes.
    #[error("{0}")]
    Io(String),
}

/// A grid definition file (`--grid`) that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GridFileError {
    /// Not the TOML a grid definition is written in.
    #[error("{path}: {message}")]
    Syntax {
        /// The file.
        path: String,
        /// What is wrong, and where.
        message: String,
    },
    /// A definition that makes no grid.
    #[error("{path}: {source}")]
    Geometry {
        /// The file.
        path: String,
        /// Why the grid cannot be built.
        #[source]
        source: GeometryError,
    },
    /// The file cannot be read.
    #[error("{path}: cannot read: {message}")]
    Io {
        /// The file.
        path: String,
        /// The system's message.
        message: String,
    },
}

/// An internal contradiction: a model that does not decode to a valid grid.
/// Seeing one is a bug in satdoku, never a property of the puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("internal error: {0} (this is a bug in satdoku; please report it with the puzzle)")]
pub struct InternalError(pub String);
