//! Helpers shared by the integration tests.

pub mod checker;
pub mod grids;
