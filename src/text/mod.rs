//! Text in and out: the alphabet, reading puzzles, printing grids, grid definition files, cell notation.

pub(crate) mod decoded;
pub mod format;
pub(crate) mod fpuzzles;
pub(crate) mod gridfile;
pub(crate) mod lines;
pub(crate) mod notation;
pub(crate) mod picture;
pub(crate) mod reader;
pub(crate) mod symbols;
