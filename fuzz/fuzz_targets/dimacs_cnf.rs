//! Fuzz target: see `satdoku_fuzz::dimacs_cnf`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| satdoku_fuzz::dimacs_cnf(data));
