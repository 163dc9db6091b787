//! Every input file has a size limit (docs/play.md, "Input limits"): a file past it, even one that
//! never ends like `/dev/zero`, is refused at once with exit status 2 and a message that names
//! the limit, and take5's memory stays bounded.

use crate::common;

use common::take5;
use std::process::Output;

/// Asserts that take5 refused its input with exit status 2 and said `says` on stdout or stderr.
fn refused(output: &Output, says: &str) {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(text.contains(says), "{text}");
}

const PLAYERS: [&str; 4] = ["--player", "builtin:random", "--player", "builtin:lowest"];

fn play_with(flag: &str, path: &str) -> Output {
    let mut args = vec!["play"];
    args.extend(PLAYERS);
    args.extend([flag, path]);
    take5(&args)
}

#[test]
fn verify_stops_at_an_endless_line() {
    refused(
        &take5(&["verify", "/dev/zero"]),
        "/dev/zero:1: the line is longer than 8388608 bytes, the longest a record line may be",
    );
}

#[test]
fn check_stops_at_the_fixture_limit() {
    refused(
        &take5(&["check", "/dev/zero"]),
        "/dev/zero: cannot read: too large: a fixture may hold at most 4 MiB",
    );
}

#[test]
fn tournament_stops_at_the_tournament_file_limit() {
    refused(
        &take5(&["tournament", "/dev/zero"]),
        "/dev/zero: cannot read: too large: a tournament file may hold at most 1 MiB",
    );
}

#[test]
fn deal_and_deck_files_stop_at_the_yaml_limit() {
    for flag in ["--deal", "--deck"] {
        refused(
            &play_with(flag, "/dev/zero"),
            "/dev/zero: cannot read: too large: a YAML input file may hold at most 4 MiB",
        );
    }
}

#[test]
fn a_house_script_stops_at_its_limit() {
    refused(
        &play_with("--house", "/dev/zero"),
        "cannot read /dev/zero: too large: a house rule script may hold at most 1 MiB",
    );
}

#[test]
fn a_record_naming_an_endless_house_script_is_refused() {
    let record = common::temp("endless-house.jsonl");
    let mut args = vec!["play"];
    args.extend(PLAYERS);
    let house = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/house/circle_all_green.lua"
    );
    let path = record.to_str().unwrap();
    args.extend([
        "--variant",
        "circle",
        "--seed",
        "3",
        "--house",
        house,
        "--record",
        path,
    ]);
    common::ok(&take5(&args));
    let text = std::fs::read_to_string(&record).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(header).unwrap();
    assert!(header["house"]["path"].is_string(), "{header}");
    // An absolute path stays as it is (others are relative to the record's folder).
    header["house"]["path"] = "/dev/zero".into();
    std::fs::write(&record, format!("{header}\n{rest}")).unwrap();
    refused(
        &take5(&["verify", path]),
        "too large: a house rule script may hold at most 1 MiB",
    );
}
