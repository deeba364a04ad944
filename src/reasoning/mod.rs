//! Deduction without search: unit propagation, all-different filtering, and the pattern guess.

pub(crate) mod alldiff;
pub(crate) mod fill;
pub(crate) mod matchings;
pub(crate) mod partialcol;
pub(crate) mod pattern;
pub(crate) mod propagate;
pub(crate) mod small;
pub(crate) mod steps;
