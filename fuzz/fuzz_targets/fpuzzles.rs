//! Fuzz target: see `satdoku_fuzz::fpuzzles`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| satdoku_fuzz::fpuzzles(data));
