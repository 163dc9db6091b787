//! A tournament file: checking it never panics (nor allocates the schedule's size up front).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|text: &str| {
    let _ = take5::tournament::config::parse(text, Path::new("/nonexistent/tournament.yaml"));
});
