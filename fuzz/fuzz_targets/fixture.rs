//! A fixture file: loading it never panics; one that loads also runs without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|text: &str| {
    if let Ok(fixture) = take5::fixture::parse(text, Path::new("fuzz.yaml")) {
        let _ = take5::fixture::run(&fixture);
    }
});
