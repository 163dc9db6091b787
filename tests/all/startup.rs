//! Start-up time apart from decision time: a bot has `--startup-timeout` (10 s by default) from
//! its start to its `hello`, each time it is started, and the decision limit for each decision;
//! a tournament whose bot never greets says so and exits non-zero unless `--allow-dropouts`.

use crate::common;

use common::{ok, take5};
use std::path::Path;

/// A bot that sleeps `seconds` before it starts `bot` (a command line): slow to start, quick to
/// decide.
fn slow_to_start(seconds: u32, bot: &str) -> String {
    format!("sh -c 'sleep {seconds}; exec {bot}'")
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

fn shell_bot() -> String {
    format!("sh {}", repo("scripts/bots/shell_bot.sh"))
}

/// The faults of bot `name` in printed JSON statistics.
fn faults(stats: &str, name: &str) -> serde_json::Value {
    let stats: serde_json::Value = serde_json::from_str(stats).unwrap();
    stats["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no bot {name} in {stats}"))["faults"]
        .clone()
}

#[test]
fn a_bot_that_takes_3_s_to_start_plays_its_games_under_the_default_limits() {
    // 3 s is more than the default decision limit (2000 ms), less than the start-up limit.
    let bot = slow_to_start(3, &shell_bot());
    let record = common::temp("slow.jsonl");
    let played = ok(&take5(&[
        "play",
        "--player",
        &bot,
        "--player",
        "builtin:lowest",
        "--games",
        "2",
        "--seed",
        "1",
        "--record",
        record.to_str().unwrap(),
    ]));
    assert!(!played.contains("fault:"), "{played}");
    let record = std::fs::read_to_string(&record).unwrap();
    assert_eq!(record.matches("\"event\":\"game_end\"").count(), 2);
    assert!(!record.contains("\"event\":\"fault\""), "{record}");
}

#[test]
fn a_bot_that_takes_3_s_to_start_plays_its_tournament_games_under_the_default_limits() {
    let bot = format!("slow={}", slow_to_start(3, &shell_bot()));
    let results = common::temp("slow.jsonl");
    let printed = ok(&common::round_robin(
        &[&bot, "lowest=builtin:lowest"],
        2,
        &results,
        &["--jobs", "1", "--format", "json"],
    ));
    for bot in ["slow", "lowest"] {
        assert_eq!(faults(&printed, bot), serde_json::json!({}), "{printed}");
    }
}

#[test]
fn a_slow_bot_started_again_after_a_crash_gets_the_start_up_limit_again() {
    // It crashes at its third request of each game: each game starts it anew, slowly.
    let quitter = format!("python3 {} exit", repo("tests/bots/misbehave.py"));
    let bot = format!("slow={}", slow_to_start(3, &quitter));
    let results = common::temp("restarted.jsonl");
    let printed = ok(&common::round_robin(
        &[&bot, "lowest=builtin:lowest"],
        1,
        &results,
        &["--jobs", "1", "--format", "json"],
    ));
    // One crash per game, and no failed handshake: the second start had its 10 s too.
    assert_eq!(
        faults(&printed, "slow"),
        serde_json::json!({"crash": 2}),
        "{printed}"
    );
    let lines = std::fs::read_to_string(&results).unwrap();
    assert!(!lines.contains("handshake failed"), "{lines}");
}

/// A round-robin of a bot that reads its input but never says hello (`never`, with `options`)
/// and a built-in, 4 games (2 deals at 2 seats), on one job, with `more` flags; and its results
/// file.
fn never_greets(options: &str, more: &[&str]) -> (std::process::Output, std::path::PathBuf) {
    let bot = format!("never{options}=sh -c 'while read line; do :; done'");
    let results = common::temp(&format!("never{options}.jsonl"));
    let _ = std::fs::remove_file(&results);
    let mut flags = vec!["--jobs", "1"];
    flags.extend(more);
    let output = common::round_robin(&[&bot, "lowest=builtin:lowest"], 2, &results, &flags);
    (output, results)
}

#[test]
fn a_bot_that_never_greets_makes_the_tournament_fail_naming_the_start_up_limit() {
    // A short limit: the bot never answers, however long it is given.
    let (output, results) = never_greets("", &["--startup-timeout", "500"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains(
            "handshake failed: no hello within the start-up limit of 500 ms \
             (--startup-timeout or startup_timeout_ms)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "take5: 1 bot was taken out of the tournament (never): the results are complete, \
             but the fallback played its seat (--allow-dropouts accepts such a run)"
        ),
        "{stderr}"
    );
    // Its third failed start (game 2) took it out; game 3 was the fallback's from the start.
    let dropout = "dropout: never was taken out after 3 failed starts in a row, in game 2: the \
                   fallback played its seat in 2 games, which its figures include";
    assert!(stdout.contains(dropout), "{stdout}");
    // The results say so to `take5 stats` too.
    let stats = ok(&take5(&["stats", results.to_str().unwrap()]));
    assert!(stats.contains(dropout), "{stats}");
}

#[test]
fn with_allow_dropouts_a_bot_that_never_greets_is_a_dropout_in_the_summary_and_the_run_passes() {
    // The limit as the bot's own option, as in a pool file.
    let (output, _) = never_greets(
        "[startup_timeout_ms=500]",
        &["--allow-dropouts", "--format", "json"],
    );
    let stats: serde_json::Value = serde_json::from_str(&ok(&output)).unwrap();
    assert_eq!(
        stats["dropouts"],
        serde_json::json!([{"bot": "never", "games": 2, "first_game": 2}])
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("start-up limit of 500 ms"), "{stderr}");
}
