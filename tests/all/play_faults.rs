//! Misbehaving bots under `take5 play`: each game still finishes, the fault is recorded with its
//! kind, take5 exits 0, and no bot process (nor a child it started) is left running.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("take5-faults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Processes whose command line mentions `marker` and that are not zombies (a zombie has
/// exited; this machine's init may be slow to reap orphans).
fn live_processes_mentioning(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = entry.file_name().to_string_lossy().to_string();
        if !pid.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit(')')
            .next()
            .is_some_and(|s| s.trim_start().starts_with('Z'));
        if cmdline.contains(marker) && !zombie {
            found.push(format!("{pid}: {cmdline}"));
        }
    }
    found
}

/// Waits up to five seconds for `done` (a killed process takes a moment to die).
fn eventually(done: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while !done() {
        if start.elapsed() > Duration::from_secs(5) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

fn pid_is_gone(pid: &str) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.is_empty()
        || stat
            .rsplit(')')
            .next()
            .is_some_and(|s| s.trim_start().starts_with('Z'))
}

struct Played {
    faults: Vec<serde_json::Value>,
    summary: String,
    elapsed: Duration,
}

/// Plays one game: the misbehaving bot at seat 0 against a built-in.
fn play(mode: &str) -> Played {
    let dir = temp_dir();
    let record = dir.join(format!("{mode}.jsonl"));
    let marker = dir.join(format!("{mode}.pid"));
    let bot = format!(
        "python3 {} {mode} {}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/bots/misbehave.py")
            .display(),
        marker.display()
    );
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(["play", "--player", &bot, "--player", "builtin:lowest"])
        .args(["--seed", "5", "--timeout", "1500", "--record"])
        .arg(&record)
        // A bot that fails its first handshake is an error unless the match plays on.
        .args((mode == "badhello").then_some("--handshake-fallback"))
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let summary = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{mode}: take5 failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.last().unwrap()["event"],
        "game_end",
        "{mode}: the game finished"
    );
    let verified = Command::new(env!("CARGO_BIN_EXE_take5"))
        .arg("verify")
        .arg(&record)
        .output()
        .unwrap();
    assert!(verified.status.success(), "{mode}: the record verifies");
    let marker_text = marker.display().to_string();
    assert!(
        eventually(|| live_processes_mentioning(&marker_text).is_empty()),
        "{mode}: left running: {:?}",
        live_processes_mentioning(&marker_text)
    );
    if let Ok(child) = std::fs::read_to_string(&marker) {
        assert!(
            eventually(|| pid_is_gone(child.trim())),
            "{mode}: the bot's child {child} lingers"
        );
    }
    Played {
        faults: lines
            .into_iter()
            .filter(|l| l["event"] == "fault")
            .collect(),
        summary,
        elapsed,
    }
}

fn kinds(played: &Played) -> Vec<&str> {
    played
        .faults
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect()
}

#[test]
fn garbage_is_a_protocol_fault_at_every_decision_from_then_on() {
    let played = play("garbage");
    assert!(!played.faults.is_empty());
    assert!(
        kinds(&played).iter().all(|&k| k == "protocol"),
        "{:?}",
        played.faults
    );
    let detail = played.faults[0]["detail"].as_str().unwrap();
    assert!(detail.contains("3 replies refused"), "{detail}");
    assert!(
        played.summary.contains("fault: seat 0"),
        "{}",
        played.summary
    );
}

#[test]
fn a_10_mb_line_is_a_protocol_fault() {
    let played = play("longline");
    assert_eq!(kinds(&played)[0], "protocol");
    assert!(
        played.faults[0]["detail"]
            .as_str()
            .unwrap()
            .contains("1024")
    );
}

#[test]
fn invalid_utf8_is_a_protocol_fault() {
    let played = play("badutf8");
    assert_eq!(kinds(&played)[0], "protocol");
}

#[test]
fn illegal_cards_are_an_illegal_fault() {
    let played = play("illegal");
    assert_eq!(kinds(&played)[0], "illegal");
    let detail = played.faults[0]["detail"].as_str().unwrap();
    assert!(detail.contains("not_in_hand"), "{detail}");
}

#[test]
fn silence_past_the_timeout_is_a_timeout_and_the_bot_is_stopped() {
    let played = play("silent");
    assert_eq!(
        kinds(&played),
        ["timeout"],
        "one fault; the fallback plays on"
    );
    assert!(
        played.elapsed < Duration::from_secs(20),
        "{:?}",
        played.elapsed
    );
}

#[test]
fn an_exit_in_the_middle_of_a_game_is_a_crash() {
    let played = play("exit");
    assert_eq!(kinds(&played), ["crash"]);
    let detail = played.faults[0]["detail"].as_str().unwrap();
    assert!(detail.contains("code 3"), "{detail}");
}

#[test]
fn a_bot_whose_child_lingers_leaves_nothing_behind() {
    let played = play("orphan");
    assert_eq!(kinds(&played), ["timeout"]);
}

#[test]
fn with_handshake_fallback_a_failed_handshake_is_a_fault_and_the_fallback_plays_the_game() {
    let played = play("badhello");
    assert_eq!(kinds(&played), ["protocol"]);
    let detail = played.faults[0]["detail"].as_str().unwrap();
    assert!(detail.contains("handshake failed"), "{detail}");
}

#[test]
fn the_python_example_bot_plays_a_10_player_game_with_the_whole_deck() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let record = temp_dir().join("python10.jsonl");
    let mut command = Command::new(env!("CARGO_BIN_EXE_take5"));
    command.arg("play").arg("--player").arg(format!(
        "python3 {}",
        root.join("scripts/bots/python_bot.py").display()
    ));
    for bot in [
        "random", "lowest", "highest", "dodger", "random", "lowest", "highest", "dodger", "random",
    ] {
        command.args(["--player", &format!("builtin:{bot}")]);
    }
    let output = command
        // A generous limit: a Python bot can take seconds to start on a loaded machine.
        .args(["--timeout", "600000", "--seed", "2", "--record"])
        .arg(&record)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(
        !text.contains(r#""event":"fault""#),
        "the example bot never faults"
    );
    let deal: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let dealt = deal["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_array().unwrap().len())
        .sum::<usize>()
        + deal["rows"].as_array().unwrap().len();
    assert_eq!(dealt, 104, "10 players use the whole deck");
}

#[test]
fn the_shell_example_bot_plays_a_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(env!("CARGO_BIN_EXE_take5"))
        .arg("play")
        .arg("--player")
        .arg(format!(
            "sh {}",
            root.join("scripts/bots/shell_bot.sh").display()
        ))
        .args(["--player", "builtin:dodger", "--seed", "4", "--games", "2"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary = String::from_utf8_lossy(&output.stdout);
    assert!(summary.contains("2 games"), "{summary}");
    assert!(!summary.contains("fault:"), "{summary}");
}

#[test]
fn take5_stopped_by_a_signal_takes_its_bots_with_it() {
    let dir = temp_dir();
    let marker = dir.join("signal.pid");
    let bot = format!(
        "python3 {} orphan {}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/bots/misbehave.py")
            .display(),
        marker.display()
    );
    let mut take5 = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args([
            "play",
            "--player",
            &bot,
            "--player",
            "builtin:lowest",
            "--timeout",
            "60000",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the bot hangs with its child started, then stop take5 as Ctrl-C would.
    let started = Instant::now();
    while !marker.exists() && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(marker.exists(), "the bot got to its third request");
    send_signal(take5.id() as i32, 2);
    let status = take5.wait().unwrap();
    assert!(!status.success());
    let marker_text = marker.display().to_string();
    assert!(
        eventually(|| live_processes_mentioning(&marker_text).is_empty()),
        "left running: {:?}",
        live_processes_mentioning(&marker_text)
    );
    let child = std::fs::read_to_string(&marker).unwrap();
    assert!(
        eventually(|| pid_is_gone(child.trim())),
        "the bot's child {child} lingers"
    );
}

/// Sends `signal` to `pid` with the `kill` command.
fn send_signal(pid: i32, signal: i32) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(status.success());
}
