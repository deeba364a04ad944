//! The integration tests, built as one binary (as ripgrep's `tests/integration`):
//! every test binary is another link step in CI. `util` holds the helpers and
//! the independent checker that every module shares.

mod util;

mod analyze;
mod cli;
mod color;
mod contract;
mod dimacs;
mod distributed;
mod enumerate;
mod explain;
mod external;
mod external_trust;
mod fuzz_regressions;
mod generate;
mod input_errors;
mod library;
mod limits;
mod new_user;
mod output_files;
mod parse;
mod pictures;
mod portfolio;
mod progress;
mod proofs;
mod resource_limits;
mod review_findings;
mod shell;
mod sparse;
mod steps;
mod trust;
mod variants;
