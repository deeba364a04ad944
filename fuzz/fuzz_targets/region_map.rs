//! Fuzz target: see `satdoku_fuzz::region_map`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| satdoku_fuzz::region_map(data));
