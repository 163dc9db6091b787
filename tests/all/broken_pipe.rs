//! `take5 ... | head -1`: a reader that closes take5's stdout early ends take5 quietly, as Unix
//! tools do (exit 0, nothing on stderr). Each command prints more than a pipe holds, so take5
//! is still writing when the reader goes.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn first_line_then_close(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(!line.is_empty(), "{args:?} printed something");
    // The reader (and the pipe's only read end) is gone here.
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{args:?}: {:?} {stderr}",
        output.status
    );
    assert_eq!(stderr, "", "{args:?}");
}

#[test]
fn play_into_a_closed_pipe_exits_quietly() {
    first_line_then_close(&[
        "play",
        "--player",
        "builtin:random",
        "--player",
        "builtin:dodger",
        "--games",
        "3000",
        "--seed",
        "1",
    ]);
}

#[test]
fn play_with_a_bot_into_a_closed_pipe_exits_quietly() {
    // The bot's games are short to print, so many of them fill the pipe.
    first_line_then_close(&[
        "play",
        "--player",
        "sh scripts/bots/shell_bot.sh",
        "--player",
        "builtin:dodger",
        "--games",
        "3000",
        "--seed",
        "1",
        "--variant",
        "circle",
    ]);
}

#[test]
fn check_into_a_closed_pipe_exits_quietly() {
    first_line_then_close(&["check", "--transcript", "fixtures/"]);
}
