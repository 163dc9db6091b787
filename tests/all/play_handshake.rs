//! A bot that never answers its handshake is an error of `take5 play`, not a result (unless
//! `--handshake-fallback` says to play on); a bot that faults during a game stays a result,
//! marked in the summary.

use crate::common;

use std::path::Path;

/// `take5 play` with a bot that cannot start against a built-in, and `extra` flags.
fn play_with_a_missing_bot(extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "play",
        "--player",
        "python3 /nonexistent.py",
        "--player",
        "builtin:random",
        "--seed",
        "1",
    ];
    args.extend(extra);
    common::take5(&args)
}

#[test]
fn a_bot_that_cannot_start_is_an_error_naming_its_command() {
    let output = play_with_a_missing_bot(&[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("`python3 /nonexistent.py`"), "{stderr}");
    assert!(stderr.contains("handshake"), "{stderr}");
    // The stderr tail: Python's own complaint.
    assert!(stderr.contains("nonexistent.py"), "{stderr}");
    assert!(output.stdout.is_empty(), "no game was played");
}

#[test]
fn with_handshake_fallback_the_match_is_played_and_the_fault_marked() {
    let output = play_with_a_missing_bot(&["--handshake-fallback"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains("fault: seat 0 (python3 /nonexistent.py) crash"),
        "{stdout}"
    );
    assert!(stdout.contains("note: 1 fault"), "{stdout}");
}

#[test]
fn a_bot_that_faults_during_a_game_is_a_result_marked_in_the_summary() {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/misbehave.py");
    let bot = format!("python3 {} garbage", bot.display());
    let output = common::take5(&[
        "play",
        "--player",
        &bot,
        "--player",
        "builtin:lowest",
        "--seed",
        "5",
        "--quiet",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("note: "), "{stdout}");
    assert!(stdout.contains("the fallback"), "{stdout}");
}

/// A bot that never greets, played on with `--handshake-fallback`, is tried again at each game
/// and faults there, recorded right after the game's header (which the bots greet before): the
/// header has no hello's name for it, the fallback plays its seat, and the record verifies.
#[test]
fn with_handshake_fallback_a_bot_that_never_greets_faults_in_each_game_after_its_header() {
    let record = common::temp("never.jsonl");
    let output = common::take5(&[
        "play",
        "--player",
        "sh -c 'while read line; do :; done'",
        "--player",
        "builtin:lowest",
        "--games",
        "2",
        "--seed",
        "1",
        // The bot never answers, however long it is given.
        "--startup-timeout",
        "500",
        "--handshake-fallback",
        "--record",
        record.to_str().unwrap(),
    ]);
    let stdout = common::ok(&output);
    assert!(stdout.contains("note: 2 faults"), "{stdout}");
    let text = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let headers: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i]["event"] == "game")
        .collect();
    assert_eq!(headers.len(), 2);
    for &at in &headers {
        let header = &lines[at];
        assert!(header.get("hello_names").is_none(), "{header}");
        // The seats rotate from game to game.
        let seat = header["players"]
            .as_array()
            .unwrap()
            .iter()
            .position(|p| p.as_str().unwrap().starts_with("sh -c"))
            .unwrap();
        let fault = &lines[at + 1];
        assert_eq!(fault["event"], "fault", "{text}");
        assert_eq!(
            (&fault["seat"], &fault["kind"]),
            (&seat.into(), &"timeout".into())
        );
        assert!(
            fault["detail"].as_str().unwrap().starts_with(
                "handshake failed: no hello within the start-up limit of 500 ms (--startup-timeout)"
            ),
            "{fault}"
        );
    }
    assert_eq!(text.matches("\"event\":\"fault\"").count(), 2, "{text}");
    assert!(common::ok(&common::take5(&["verify", record.to_str().unwrap()])).starts_with("OK "));
}
