//! Fuzz target: see `satdoku_fuzz::solver_output`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| satdoku_fuzz::solver_output(data));
