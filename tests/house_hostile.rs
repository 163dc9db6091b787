//! Hostile and broken house rule scripts (tests/house/*.lua) through `take5 play --house`: each
//! fails quickly, with a message naming the script, the line and what it tried, and take5 exits
//! 2 without a panic.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Runs `take5 play` with four built-in bots and `--house SCRIPT` (relative to the crate, so
/// messages show `tests/house/...`), plus `extra` flags; returns the output and how long it took.
fn play(script: &str, extra: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_take5"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["play", "--seed", "3", "--games", "2", "--house", script])
        .args(["-p", "builtin:random", "-p", "builtin:dodger"])
        .args(["-p", "builtin:lowest", "-p", "builtin:highest"])
        .args(extra)
        .output()
        .expect("take5 runs");
    (output, start.elapsed())
}

/// `take5 play --house tests/house/NAME` fails cleanly and says `expected` (each part, in order).
fn refused(name: &str, expected: &[&str]) -> String {
    let script = format!("tests/house/{name}");
    let (output, took) = play(&script, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    // Each stops within a second; the bound is generous for a loaded machine.
    assert!(took < Duration::from_secs(5), "{name} took {took:?}");
    let mut rest = stderr.as_str();
    for part in expected {
        let at = rest
            .find(part)
            .unwrap_or_else(|| panic!("{name}: `{part}` missing from: {stderr}"));
        rest = &rest[at + part.len()..];
    }
    stderr
}

const BUDGET: &str =
    "instruction budget exceeded (10000000 Lua instructions per call; an endless loop?)";

#[test]
fn an_endless_loop_at_the_top_level() {
    refused(
        "loop_top.lua",
        &["take5: tests/house/loop_top.lua:", BUDGET],
    );
}

#[test]
fn an_endless_loop_in_a_hook() {
    refused(
        "loop_hook.lua",
        &[
            "take5: house rule hook `row_taken` failed in round 1 turn ",
            ": tests/house/loop_hook.lua:",
            BUDGET,
        ],
    );
}

#[test]
fn an_endless_loop_that_catches_errors() {
    refused(
        "loop_pcall.lua",
        &[
            "house rule hook `row_taken` failed",
            "tests/house/loop_pcall.lua:",
            BUDGET,
        ],
    );
}

#[test]
fn an_endless_loop_in_a_coroutine() {
    refused(
        "loop_coroutine.lua",
        &[
            "house rule hook `round_end` failed in round 1 turn 10: ",
            BUDGET,
        ],
    );
}

#[test]
fn a_memory_bomb() {
    refused(
        "memory_bomb.lua",
        &[
            "house rule hook `row_taken` failed",
            "tests/house/memory_bomb.lua: not enough memory (a house rule script may use 64 MiB)",
        ],
    );
}

#[test]
fn os_execute() {
    refused(
        "os_execute.lua",
        &["take5: tests/house/os_execute.lua:2: os is not available in take5 house rules\n"],
    );
    assert!(
        !Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("take5-house-pwned")
            .exists()
    );
}

#[test]
fn io_open() {
    refused(
        "io_open.lua",
        &[
            "house rule hook `low_card` failed in round ",
            "tests/house/io_open.lua:4: io is not available in take5 house rules",
        ],
    );
}

#[test]
fn require() {
    refused(
        "require.lua",
        &[
            "tests/house/require.lua:2: require is not available in take5 house rules (house rules cannot load code)",
        ],
    );
}

#[test]
fn load_of_bytecode() {
    refused(
        "load_bytecode.lua",
        &[
            "tests/house/load_bytecode.lua:3: load is not available in take5 house rules (house rules cannot load code)",
        ],
    );
    refused(
        "string_dump.lua",
        &["tests/house/string_dump.lua:2: string.dump is not available in take5 house rules"],
    );
}

#[test]
fn a_bytecode_file() {
    let dir = std::env::temp_dir().join(format!("take5-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("compiled.lua");
    std::fs::write(&path, b"\x1bLua\x54\x00\x19\x93\r\n\x1a\n\x04\x08\x08").unwrap();
    let (output, _) = play(path.to_str().unwrap(), &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("compiled.lua: is Lua bytecode; house rules must be Lua source"),
        "{stderr}"
    );
}

#[test]
fn a_syntax_error_shows_file_and_line() {
    refused(
        "syntax_error.lua",
        &["take5: tests/house/syntax_error.lua:3: unexpected symbol near '='\n"],
    );
}

#[test]
fn an_error_in_a_hook_shows_hook_line_and_moment() {
    let stderr = refused(
        "hook_error.lua",
        &[
            "take5: house rule hook `row_taken` failed in round 1 turn ",
            ": tests/house/hook_error.lua:4: attempt to index a nil value (field 'top')\n",
        ],
    );
    assert_eq!(
        stderr.lines().count(),
        1,
        "one line, no traceback: {stderr}"
    );
}

#[test]
fn a_failed_game_leaves_its_record_readable() {
    let dir = std::env::temp_dir().join(format!("take5-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("failed.jsonl");
    let (output, _) = play(
        "tests/house/hook_error.lua",
        &["--record", record.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(2));
    let text = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<_> = text
        .lines()
        .enumerate()
        .map(|(i, l)| take5::record::Line::parse(l, i + 1).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert!(lines.len() > 2, "the header and the first turns are there");
    let take5::record::Line::Game(header) = &lines[0] else {
        panic!("a header first")
    };
    assert!(header.house.is_some());
    // The last line says why the game ends there, with the script's error.
    let Some(take5::record::Line::Stopped(stop)) = lines.last() else {
        panic!("a `stopped` line last: {text}")
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stop.reason.contains("hook_error.lua"), "{}", stop.reason);
    assert!(stderr.contains(&stop.reason), "{stderr}");
    // `take5 verify` replays what was played, then names the stop at its line.
    let verify = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(["verify", record.to_str().unwrap()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&verify.stdout).to_string()
        + &String::from_utf8_lossy(&verify.stderr);
    assert_eq!(verify.status.code(), Some(1), "{said}");
    let at = format!("failed.jsonl:{}", lines.len());
    assert!(said.contains(&at), "{said}");
    assert!(
        said.contains("the referee stopped this game before its end"),
        "{said}"
    );
}
