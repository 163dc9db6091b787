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

/// The gauntlet's quick mode (the strength benchmark's smoke test, docs/mcs.md): every table
/// plays its deal from every rotation with every opponent of the pool, Python bots included,
/// without a fault, and gives a paired figure for each distinct opponent, from one game per
/// pair of the measured player's and the opponent's seats per rotation.
#[test]
fn the_gauntlets_quick_mode_plays_every_table() {
    use take5::tournament::gauntlet::{Settings, run_table, tables};
    // A thousandth of each search's budget: this test checks that every table is played and
    // counted, not how well (the quick mode's hundredth took 40 s of a debug build).
    let settings = Settings {
        scale: 1000,
        ..Settings::quick("builtin:mcs")
    };
    let tables = tables();
    for (i, table) in tables.iter().enumerate() {
        let result = run_table(table, i as u64, &settings).unwrap_or_else(|e| panic!("{e}"));
        let seats = table.seats() as u64;
        let mut opponents: Vec<_> = result.pairs.iter().map(|p| p.other.clone()).collect();
        opponents.dedup();
        assert_eq!(opponents.len(), result.pairs.len(), "{}", table.name);
        let pairings: u64 = result
            .pairs
            .iter()
            .map(|p| p.games / seats / table.measured as u64)
            .sum();
        assert_eq!(pairings, table.opponents.len() as u64, "{}", table.name);
        for pair in &result.pairs {
            assert_eq!(pair.deals, 1, "{}", table.name);
            assert_eq!(pair.ahead + pair.behind + pair.level, pair.games);
        }
        assert!(result.decisions > 0, "{}", table.name);
        assert_eq!(result.high_wins, table.name.starts_with("circle"));
        assert!(result.text().contains(&table.name));
    }
}

/// A table of the gauntlet replays from its seed: the same figures twice.
#[test]
fn a_gauntlet_table_replays_from_its_seed() {
    use take5::tournament::gauntlet::{Settings, run_table, tables};
    let settings = Settings::quick("builtin:mcs");
    let table = tables()
        .into_iter()
        .find(|t| t.name == "classic-4p-old-target")
        .unwrap();
    let once = run_table(&table, 3, &settings).unwrap();
    let again = run_table(&table, 3, &settings).unwrap();
    assert_eq!(once.pairs, again.pairs);
    assert_eq!(once.decisions, again.decisions);
}
