//! `satdoku analyze`: not built yet.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;

use super::{GridArgs, Status};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Input files.
    pub files: Vec<PathBuf>,
}

pub fn run(_args: &AnalyzeArgs, _grid: &GridArgs) -> Result<Status> {
    bail!("`satdoku analyze` is not implemented yet")
}
