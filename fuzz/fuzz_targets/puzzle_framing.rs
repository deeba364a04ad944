//! Fuzz target: see `satdoku_fuzz::puzzle_framing`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| satdoku_fuzz::puzzle_framing(data));
