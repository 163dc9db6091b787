//! A line a bot sends: parsing it never panics, whatever it holds.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|line: &str| {
    let _ = take5::protocol::parse::from_bot(line);
});
