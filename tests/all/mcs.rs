//! `builtin:mcs` through the command line: its games in every variant are recorded and verify,
//! the same seed gives the same record, and a bad option is a usage error naming it.

use crate::common;

use common::{ok, take5, temp};

/// Plays two games of `variant` with a small search at the first seat; returns the record.
fn record(variant: &str, name: &str) -> String {
    record_with(variant, name, "builtin:mcs:rollouts=40")
}

/// Plays two games of `variant` with `mcs` at the first seat; returns the record.
fn record_with(variant: &str, name: &str, mcs: &str) -> String {
    let path = temp(name);
    let path = path.to_str().unwrap();
    let mut args = vec!["play", "--variant", variant, "--games", "2", "--seed", "5"];
    args.extend(["--player", mcs, "--player", "builtin:dodger"]);
    args.extend(["--player", "builtin:random", "--quiet", "--record", path]);
    ok(&take5(&args));
    ok(&take5(&["verify", path]));
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn games_with_mcs_verify_in_every_variant_and_replay_from_the_seed() {
    for variant in ["classic", "pro", "take-a-number", "circle", "anniversary"] {
        let first = record(variant, &format!("mcs-{variant}-1.jsonl"));
        let again = record(variant, &format!("mcs-{variant}-2.jsonl"));
        assert!(
            first.contains("builtin:mcs:rollouts=40"),
            "{variant}: {first}"
        );
        assert_eq!(first, again, "{variant}: the same seed gave another record");
    }
}

#[test]
fn a_budget_counted_in_steps_replays_from_the_seed() {
    for variant in ["classic", "anniversary"] {
        let mcs = "builtin:mcs:steps=1500";
        let first = record_with(variant, &format!("mcs-steps-{variant}-1.jsonl"), mcs);
        let again = record_with(variant, &format!("mcs-steps-{variant}-2.jsonl"), mcs);
        assert!(first.contains(mcs), "{variant}: {first}");
        assert_eq!(first, again, "{variant}: the same seed gave another record");
    }
}

#[test]
fn a_bad_mcs_option_is_a_usage_error_that_names_it() {
    for (spec, expected) in [
        ("builtin:mcs:speed=3", "unknown mcs option `speed`"),
        ("builtin:mcs:rollouts=many", "`many` is not a whole number"),
        ("builtin:mcs:own=clever", "no built-in bot `clever`"),
        ("builtin:mcs:rollouts", "expected name=value"),
    ] {
        let output = take5(&["play", "--player", spec, "--player", "builtin:dodger"]);
        assert_eq!(output.status.code(), Some(2), "{spec}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{spec}: {stderr}");
    }
}
