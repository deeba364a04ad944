//! `satdoku dimacs`: not built yet.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;

use super::{GridArgs, Status};

#[derive(Args, Debug)]
pub struct DimacsArgs {
    /// Input files.
    pub files: Vec<PathBuf>,
}

pub fn run(_args: &DimacsArgs, _grid: &GridArgs) -> Result<Status> {
    bail!("`satdoku dimacs` is not implemented yet")
}
