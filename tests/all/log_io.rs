//! `--log-io DIR` (docs/tournaments.md, "Logs of what bots said"): logs are neither overwritten
//! nor written through a symbolic link, and a log that cannot be written (a full disk, here a
//! file-size limit) is named in a warning and ends the command with a non-zero exit status.

use crate::common;

use common::{ok, take5, take5_limited};
use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh, empty folder `name`.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = common::temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn python_bot() -> String {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bots/python_bot.py");
    format!("python3 {}", bot.display())
}

/// `take5 play` of `games` games, the Python bot (or `bot`) against a built-in, logging into
/// `dir`.
fn play_args(bot: &str, dir: &Path, games: &str) -> Vec<String> {
    [
        "play",
        "--player",
        bot,
        "--player",
        "builtin:random",
        "--games",
        games,
        "--quiet",
        "--log-io",
        dir.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn play_refuses_an_existing_log_and_a_link_and_writes_nothing_through_either() {
    let dir = fresh_dir("play-logs");
    let bot = python_bot();
    let args = play_args(&bot, &dir, "1");
    ok(&take5(&strs(&args)));
    let log = dir.join("player-0.log");
    let first = std::fs::read(&log).unwrap();
    let again = take5(&strs(&args));
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("player-0.log exists: take5 does not overwrite logs"),
        "{}",
        stderr(&again)
    );
    assert_eq!(std::fs::read(&log).unwrap(), first);
    // A link where a log goes (to a file the user may write, here another file of the test).
    let linked = fresh_dir("play-links");
    let target = common::temp("play-link-target");
    std::fs::write(&target, "precious\n").unwrap();
    std::os::unix::fs::symlink(&target, linked.join("player-0.stderr")).unwrap();
    let output = take5(&strs(&play_args(&bot, &linked, "1")));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("player-0.stderr is a symbolic link: take5 does not follow links"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
}

/// Runs take5 with `args` where no file may grow past `bytes` (a full disk, for its logs).
fn run_out_of_room(args: &[String], bytes: u64) -> Output {
    take5_limited(&strs(args), libc::RLIMIT_FSIZE, bytes)
        .output()
        .unwrap()
}

/// Asserts that take5 warned that it could not write the log `log`, and ended with exit status
/// 1 saying the logs were not all written.
fn said_lost(output: &Output, log: &Path) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let warning = format!("warning: cannot write {}: File too large", log.display());
    assert!(err.contains(&warning), "{err}");
    assert!(
        err.contains("the --log-io logs were not all written"),
        "{err}"
    );
}

#[test]
fn play_names_a_log_it_cannot_write_and_exits_non_zero() {
    let dir = fresh_dir("play-full");
    // Every file take5 writes stops at 16 KB: the log of 5 games is longer.
    let output = run_out_of_room(&play_args(&python_bot(), &dir, "5"), 16 << 10);
    said_lost(&output, &dir.join("player-0.log"));
    // The match itself was played and reported.
    assert!(String::from_utf8_lossy(&output.stdout).contains("5 games"));
}

#[test]
fn play_names_a_bot_s_stderr_log_it_cannot_write() {
    let dir = fresh_dir("play-stderr-full");
    // 64 KB on stderr at the start, past the 16 KB the files may take.
    let bot = format!(
        "sh -c 'head -c 65536 /dev/zero | tr \"\\0\" e >&2; exec {}'",
        python_bot()
    );
    let output = run_out_of_room(&play_args(&bot, &dir, "1"), 16 << 10);
    said_lost(&output, &dir.join("player-0.stderr"));
}

/// `take5 tournament` of the Python bot and two built-ins, two at a table, three deals (18
/// games), on one job,
/// logging into `dir`, then `extra`.
fn tournament_args(dir: &Path, results: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "tournament",
        "--bot",
        &format!("python={}", python_bot()),
        "--bot",
        "random=builtin:random",
        "--bot",
        "lowest=builtin:lowest",
        "--seats",
        "2",
        "--deals",
        "3",
        "--seed",
        "3",
        "--tables",
        "round-robin",
        "--jobs",
        "1",
        "--results",
        results.to_str().unwrap(),
        "--log-io",
        dir.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

#[test]
fn a_tournament_refuses_existing_logs_and_links_but_resume_continues_its_logs() {
    let dir = fresh_dir("tournament-logs");
    let results = common::temp("tournament-logs.jsonl");
    let _ = std::fs::remove_file(&results);
    ok(&take5(&strs(&tournament_args(&dir, &results, &[]))));
    let log = dir.join("job-1/python.log");
    let first = std::fs::read_to_string(&log).unwrap();
    // Another results file, the same logs: refused before anything is written.
    let other = common::temp("tournament-logs-2.jsonl");
    let _ = std::fs::remove_file(&other);
    let output = take5(&strs(&tournament_args(&dir, &other, &[])));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("python.log exists: take5 does not overwrite logs"),
        "{}",
        stderr(&output)
    );
    assert!(!other.exists());
    assert_eq!(std::fs::read_to_string(&log).unwrap(), first);
    // --resume continues the run's logs (nothing is left to play here: they stay as they are).
    ok(&take5(&strs(&tournament_args(
        &dir,
        &results,
        &["--resume"],
    ))));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), first);
    // A link is refused, resume or not.
    let linked = fresh_dir("tournament-links");
    std::fs::create_dir_all(linked.join("job-1")).unwrap();
    let target = common::temp("tournament-link-target");
    std::fs::write(&target, "precious\n").unwrap();
    std::os::unix::fs::symlink(&target, linked.join("job-1/python.log")).unwrap();
    let linked_results = common::temp("tournament-links.jsonl");
    let _ = std::fs::remove_file(&linked_results);
    for extra in [&[][..], &["--resume"][..]] {
        let output = take5(&strs(&tournament_args(&linked, &linked_results, extra)));
        assert_eq!(output.status.code(), Some(2));
        assert!(
            stderr(&output).contains("python.log is a symbolic link"),
            "{}",
            stderr(&output)
        );
    }
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
}

#[test]
fn a_tournament_names_a_log_it_cannot_write_keeps_every_result_and_exits_non_zero() {
    let dir = fresh_dir("tournament-full");
    let results = common::temp("tournament-full.jsonl");
    let _ = std::fs::remove_file(&results);
    // 24 KB per file: the results (18 games) fit, the Python bot's log of 12 games does not.
    let output = run_out_of_room(&tournament_args(&dir, &results, &[]), 24 << 10);
    said_lost(&output, &dir.join("job-1/python.log"));
    // Every game was played and kept, and the statistics printed.
    assert_eq!(common::game_lines(&results).len(), 18);
    assert!(String::from_utf8_lossy(&output.stdout).contains("python"));
}
