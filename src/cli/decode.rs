//! `satdoku decode`: not built yet.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;

use super::{GridArgs, Status};

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// Input files.
    pub files: Vec<PathBuf>,
}

pub fn run(_args: &DecodeArgs, _grid: &GridArgs) -> Result<Status> {
    bail!("`satdoku decode` is not implemented yet")
}
