//! Fuzz target: see `satdoku_fuzz::grid_file`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| satdoku_fuzz::grid_file(data));
