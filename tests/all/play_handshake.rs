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
