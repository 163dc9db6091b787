//! A line take5 sends to a bot (as a bot's own parser reads it): parsing it never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|line: &str| {
    let _ = take5::protocol::parse::to_bot(line);
});
