//! The errors of the library: each says what was wrong, where, and what was expected.

use std::fmt;

use thiserror::Error;

/// A grid definition that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GeometryError {
    #[error("a grid side of {n} is out of range (expected 1 to {max})", max = crate::geometry::MAX_SIZE)]
    Size { n: usize },
    #[error(
        "{n} is prime, so a {n}x{n} grid has no boxes (use --latin for a Latin square, or --regions for a jigsaw)"
    )]
    Prime { n: usize },
    #[error("boxes of {rows}x{cols} do not tile a {n}x{n} grid (expected R x C = {n})")]
    BoxShape { n: usize, rows: usize, cols: usize },
    #[error("the region map has {found} labels, expected {expected} (one per cell of the {n}x{n} grid)")]
    RegionsLength { n: usize, expected: usize, found: usize },
    #[error("the region map has {found} different labels, expected {n} (one per region)")]
    RegionCount { n: usize, found: usize },
    #[error("region {region} (in order of first appearance) has {size} cells, expected {n}")]
    RegionSize { region: usize, size: usize, n: usize },
    #[error("hyper windows are defined for n = b² (4, 9, 16, 25, ...), not for n = {n}")]
    Hyper { n: usize },
    #[error("extra unit {unit} has {size} distinct cells inside the grid, expected {n}")]
    ExtraUnit { unit: usize, n: usize, size: usize },
    #[error("a {found}x{found} puzzle does not fit this {expected}x{expected} grid definition")]
    SizeMismatch { expected: usize, found: usize },
}

/// Where in the input something was found: `file:line:column`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub source: String,
    pub line: usize,
    pub column: Option<usize>,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "{}:{}:{}", self.source, self.line, column),
            None => write!(f, "{}:{}", self.source, self.line),
        }
    }
}

/// Puzzle text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{position}: {kind}")]
pub struct ParseError {
    pub position: Position,
    pub kind: ParseErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    #[error("'{symbol}' is not a puzzle symbol (expected {expected})")]
    UnknownSymbol { symbol: String, expected: String },
    #[error("'{symbol}' is not a symbol of this {n}x{n} grid (expected {expected})")]
    ValueOutOfRange { symbol: String, n: usize, expected: String },
    #[error("{count} cells on one line is not a square number (expected n² cells, or n rows of n)")]
    NotSquare { count: usize },
    #[error("a row of {found} cells, expected {expected}")]
    RowLength { found: usize, expected: usize },
    #[error("the puzzle ends after {found} rows, expected {expected}")]
    MissingRows { found: usize, expected: usize },
    #[error("{0}")]
    Geometry(GeometryError),
    #[error("{0}")]
    Io(String),
}

/// A grid definition file (`--grid`) that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GridFileError {
    #[error("{path}: {message}")]
    Syntax { path: String, message: String },
    #[error("{path}: {source}")]
    Geometry {
        path: String,
        #[source]
        source: GeometryError,
    },
    #[error("{path}: cannot read: {message}")]
    Io { path: String, message: String },
}

/// An internal contradiction: a model that does not decode to a valid grid.
/// Seeing one is a bug in satdoku, never a property of the puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("internal error: {0} (this is a bug in satdoku; please report it with the puzzle)")]
pub struct InternalError(pub String);
