//! The grid model: geometry (cells, values, units), grids and puzzles, candidate sets, and the verifier.

pub(crate) mod constraints;
pub(crate) mod domains;
pub(crate) mod geometry;
pub(crate) mod peers;
pub(crate) mod puzzle;
pub(crate) mod renaming;
pub(crate) mod verify;
