//! `take5 play --variant pro` end to end: built-ins at 2 and 6 seats, the Python example bot, a
//! bot that never answers a pick well (the fallback picks for it); every record verifies.

use crate::common;

use common::{ok, take5, temp};
use std::path::PathBuf;
use std::process::Command;

/// Plays `players` at the Pro table, records, verifies; returns the summary and the record.
fn play_and_verify(name: &str, players: &[&str], games: &str) -> (String, String) {
    // Bots over pipes on a loaded machine: a limit no healthy bot meets by accident.
    play_and_verify_within(name, players, games, "60000")
}

/// [`play_and_verify`] with `timeout_ms` for each decision.
fn play_and_verify_within(
    name: &str,
    players: &[&str],
    games: &str,
    timeout_ms: &str,
) -> (String, String) {
    let record = temp(name);
    let mut args = vec![
        "play",
        "--variant",
        "pro",
        "--seed",
        "5",
        "--games",
        games,
        "--timeout",
        timeout_ms,
    ];
    for p in players {
        args.extend(["--player", p]);
    }
    args.extend(["--record", record.to_str().unwrap()]);
    let summary = ok(&take5(&args));
    ok(&take5(&["verify", record.to_str().unwrap()]));
    (summary, std::fs::read_to_string(&record).unwrap())
}

/// Every round of every game: `seats * 10` picks in the draft order, then its deal line.
fn check_drafts(record: &str, seats: usize) {
    let mut picks = 0;
    let mut rounds = 0;
    for line in record.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        match value["event"].as_str().unwrap() {
            "pick" => {
                assert_eq!(
                    value["seat"].as_u64().unwrap() as usize,
                    picks % seats,
                    "{line}"
                );
                let card = value["card"].as_u64().unwrap() as usize;
                assert!((1..=10 * seats + 4).contains(&card), "{line}");
                picks += 1;
            }
            "deal" => {
                assert_eq!(picks, 10 * seats, "{line}");
                picks = 0;
                rounds += 1;
                let rows: Vec<u64> = serde_json::from_value(value["rows"].clone()).unwrap();
                assert!(rows.windows(2).all(|w| w[0] < w[1]), "{line}");
            }
            "reveal" => assert_eq!(picks, 0, "a turn before the draft is over: {line}"),
            _ => {}
        }
    }
    assert!(rounds > 0);
}

#[test]
fn two_builtins_draft_and_play_pro() {
    let (summary, record) =
        play_and_verify("two.jsonl", &["builtin:dodger", "builtin:random"], "2");
    assert!(summary.contains("2 games"), "{summary}");
    assert!(
        record
            .lines()
            .nth(1)
            .unwrap()
            .starts_with(r#"{"event":"pick","seat":0"#)
    );
    check_drafts(&record, 2);
}

#[test]
fn six_builtins_draft_and_play_pro() {
    let players = [
        "builtin:dodger",
        "builtin:random",
        "builtin:lowest",
        "builtin:highest",
        "builtin:dodger",
        "builtin:random",
    ];
    let (_, record) = play_and_verify("six.jsonl", &players, "1");
    check_drafts(&record, 6);
}

#[test]
fn seven_players_are_too_many_for_pro() {
    let mut args = vec!["play", "--variant", "pro"];
    for _ in 0..7 {
        args.extend(["--player", "builtin:lowest"]);
    }
    let output = take5(&args);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the rules allow 2 to 6"), "{stderr}");
}

#[test]
fn the_python_bot_drafts_without_faults() {
    let found = Command::new("python3").arg("--version").output();
    if !found.is_ok_and(|o| o.status.success()) {
        eprintln!("SKIPPED: python3 is not installed");
        return;
    }
    let bot = format!(
        "python3 {}",
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("scripts/bots/python_bot.py")
            .display()
    );
    let (summary, record) = play_and_verify(
        "python.jsonl",
        &[&bot, "builtin:dodger", "builtin:random"],
        "1",
    );
    assert!(!record.contains(r#""event":"fault""#), "{summary}");
    check_drafts(&record, 3);
}

#[test]
fn a_bot_that_cannot_pick_gets_the_fallback_pick() {
    // Greets, then answers every request with a card that is never in a pool.
    let bot = "sh -c 'while read -r l; do case $l in hello*) echo hello version=1 name=bad;; \
               ask*) echo pick 999;; esac; done'";
    // It never answers the `error` line, so each question ends at the time limit.
    let (_, record) =
        play_and_verify_within("fallback.jsonl", &[bot, "builtin:lowest"], "1", "2000");
    assert!(record.contains(r#""event":"fault""#));
    // Seat 0's first pick is the fallback's: the lowest card of the pool.
    let first_pick = record
        .lines()
        .find(|l| l.contains(r#""event":"pick""#))
        .unwrap();
    assert_eq!(first_pick, r#"{"event":"pick","seat":0,"card":1}"#);
}

#[test]
fn a_deal_file_is_refused_for_pro() {
    let deal = temp("deal.yaml");
    std::fs::write(
        &deal,
        "rounds:\n  - hands: [[1,2,3,4,5,6,7,8,9,10],[11,12,13,14,15,16,17,18,19,20]]\n    \
         rows: [21,22,23,24]\n",
    )
    .unwrap();
    let output = take5(&[
        "play",
        "--variant",
        "pro",
        "--player",
        "builtin:lowest",
        "--player",
        "builtin:lowest",
        "--deal",
        deal.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the pro variant drafts its hands"),
        "{stderr}"
    );
}

#[test]
fn verify_refuses_a_pick_of_a_card_already_taken() {
    let (_, record) = play_and_verify("tamper.jsonl", &["builtin:lowest", "builtin:lowest"], "1");
    // Seat 1's first pick (line 3) becomes seat 0's first card (1): no longer in the pool.
    let tampered: Vec<String> = record
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 2 {
                assert_eq!(l, r#"{"event":"pick","seat":1,"card":2}"#);
                r#"{"event":"pick","seat":1,"card":1}"#.to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    let path = temp("tampered.jsonl");
    std::fs::write(&path, tampered.join("\n") + "\n").unwrap();
    let output = take5(&["verify", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(":3: seat 1 cannot pick 1: not_in_pool"),
        "{stdout}"
    );
}

#[test]
fn pro_with_house_rules_verifies() {
    // The script's settings apply over the Pro rules, when played and when verified; five rows
    // make the deck 1 to 2 x 10 + 5.
    for script in ["target_100.lua", "five_rows.lua"] {
        let house = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("scripts/house")
            .join(script);
        let record = temp(&format!("house-{script}.jsonl"));
        ok(&take5(&[
            "play",
            "--variant",
            "pro",
            "--house",
            house.to_str().unwrap(),
            "--player",
            "builtin:dodger",
            "--player",
            "builtin:random",
            "--seed",
            "2",
            "--quiet",
            "--record",
            record.to_str().unwrap(),
        ]));
        ok(&take5(&["verify", record.to_str().unwrap()]));
        let text = std::fs::read_to_string(&record).unwrap();
        if script == "five_rows.lua" {
            let deal = text
                .lines()
                .find(|l| l.contains(r#""event":"deal""#))
                .unwrap();
            let value: serde_json::Value = serde_json::from_str(deal).unwrap();
            assert_eq!(value["rows"].as_array().unwrap().len(), 5, "{deal}");
        }
    }
}

/// The record's header says a snake draft, and the first seven picks of 3 seats go there and
/// back: 0, 1, 2, 2, 1, 0, 0.
fn assert_snake_draft(record: &std::path::Path) {
    ok(&take5(&["verify", record.to_str().unwrap()]));
    let text = std::fs::read_to_string(record).unwrap();
    assert!(text.lines().next().unwrap().contains(r#""draft":"snake""#));
    let seats: Vec<u64> = text
        .lines()
        .skip(1)
        .take(7)
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["seat"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(seats, [0, 1, 2, 2, 1, 0, 0]);
}

const THREE_LOWEST: [&str; 6] = [
    "--player",
    "builtin:lowest",
    "--player",
    "builtin:lowest",
    "--player",
    "builtin:lowest",
];

#[test]
fn a_house_script_may_set_a_snake_draft() {
    let script = temp("snake.lua");
    std::fs::write(&script, "return { draft = \"snake\" }\n").unwrap();
    let record = temp("snake.jsonl");
    let mut args = vec![
        "play",
        "--variant",
        "pro",
        "--house",
        script.to_str().unwrap(),
    ];
    args.extend(THREE_LOWEST);
    args.extend([
        "--seed",
        "1",
        "--quiet",
        "--record",
        record.to_str().unwrap(),
    ]);
    ok(&take5(&args));
    assert_snake_draft(&record);
}

#[test]
fn the_draft_flag_sets_a_snake_draft() {
    let record = temp("snake-flag.jsonl");
    let mut args = vec!["play", "--variant", "pro", "--draft", "snake"];
    args.extend(THREE_LOWEST);
    args.extend([
        "--seed",
        "1",
        "--quiet",
        "--record",
        record.to_str().unwrap(),
    ]);
    ok(&take5(&args));
    assert_snake_draft(&record);
}

#[test]
fn the_draft_flag_is_refused_outside_pro_and_with_a_house_script() {
    let refused = |extra: &[&str], expected: &str| {
        let mut args = vec!["play", "--draft", "snake"];
        args.extend(extra);
        args.extend(THREE_LOWEST);
        let output = take5(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    };
    refused(
        &["--variant", "classic"],
        "--draft: only the pro variant drafts its hands, not classic",
    );
    let script = temp("draft-flag.lua");
    std::fs::write(&script, "return { draft = \"snake\" }\n").unwrap();
    refused(
        &["--variant", "pro", "--house", script.to_str().unwrap()],
        "--draft: give the draft order in the house script (`draft`) instead",
    );
}

/// A Pro record whose `deal` line was changed (two seats' cards swapped) is refused with how it
/// differs from the deal the draft made: the first card where they part, and whose it is.
#[test]
fn a_changed_deal_line_is_reported_as_differing() {
    let record = temp("pro-changed-deal.jsonl");
    ok(&take5(&[
        "play",
        "--variant",
        "pro",
        "--player",
        "builtin:random",
        "--player",
        "builtin:lowest",
        "--seed",
        "3",
        "--record",
        record.to_str().unwrap(),
    ]));
    let text = std::fs::read_to_string(&record).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let at = lines
        .iter()
        .position(|l| l.contains(r#""event":"deal""#))
        .unwrap();
    let mut deal: serde_json::Value = serde_json::from_str(&lines[at]).unwrap();
    let hands = deal["hands"].as_array_mut().unwrap();
    let (first, second) = (hands[0][0].clone(), hands[1][0].clone());
    assert!(first.as_u64() < hands[0][1].as_u64() && second.as_u64() < hands[1][1].as_u64());
    // Seat 0's 1 and seat 1's 2 change places: both hands stay sorted.
    assert_eq!(
        (first.as_u64(), second.as_u64()),
        (Some(1), Some(2)),
        "{deal}"
    );
    hands[0][0] = second;
    hands[1][0] = first;
    lines[at] = deal.to_string();
    std::fs::write(&record, lines.join("\n") + "\n").unwrap();
    let output = take5(&["verify", record.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!(
            ":{}: the deal differs: the record has 2 as the 1st card of seat 0's hand, the \
             rules deal 1\n",
            at + 1
        )),
        "{said}"
    );
}
