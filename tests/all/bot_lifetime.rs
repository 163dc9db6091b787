//! No bot process outlives take5, and nothing piles up over many games: a bot that leaves
//! daemons behind (out of its process group with `setsid`, orphaned by a double fork) has them
//! killed with it at the end of each game, and a bot that ignores the end of its input dies
//! with take5 even when take5 is killed with SIGKILL.

use crate::common;

use common::{is_gone, line_count, proc_entries, wait_for_lines, wait_until};
use std::path::Path;
use std::process::{Child, Command, Stdio};

fn bot_script(name: &str) -> String {
    format!("{}/tests/bots/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The live processes whose command line is `sleep SECONDS` (the daemons of `daemon.sh`).
fn daemons(seconds: &str) -> Vec<i32> {
    let wanted = format!("sleep\0{seconds}\0");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == wanted.as_bytes())
                && !is_gone(*pid)
        })
        .collect()
}

/// (open files, threads, daemons alive) of take5 `child` once `results` holds `games` lines.
fn sample(child: &Child, results: &Path, games: usize, seconds: &str) -> (usize, usize, usize) {
    assert!(wait_for_lines(results, games), "game {games} never ended");
    let pid = child.id();
    (
        proc_entries(pid, "fd"),
        proc_entries(pid, "task"),
        daemons(seconds).len(),
    )
}

#[test]
fn a_daemonizing_bot_leaves_nothing_behind_over_500_games() {
    // A number no other process sleeps for: this test's daemons are found by it.
    let seconds = format!("9{}", std::process::id());
    let config = common::temp("daemons.yaml");
    let results = common::temp("daemons.jsonl");
    let _ = std::fs::remove_file(&results);
    std::fs::write(
        &config,
        format!(
            "bots:
  - {{name: daemon, player: 'sh {} {seconds}', timeout_ms: 600000}}
  - {{name: random, player: 'builtin:random'}}
seats: 2
deals: 250
seed: 7
format: round-robin
",
            bot_script("daemon.sh")
        ),
    )
    .unwrap();
    let mut take5 = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(["tournament", config.to_str().unwrap(), "--jobs", "1"])
        .arg("--results")
        .arg(&results)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let early = sample(&take5, &results, 20, &seconds);
    let late = sample(&take5, &results, 480, &seconds);
    eprintln!("(open files, threads, daemons): game 20 {early:?}, game 480 {late:?}");
    let status = take5.wait().unwrap();
    let left = daemons(&seconds);
    for pid in &left {
        // SAFETY: plain system call, to clean up after a failed test.
        unsafe { libc::kill(*pid, libc::SIGKILL) };
    }
    assert!(status.success(), "{status}");
    assert!(
        line_count(&results) >= 500,
        "{} lines",
        line_count(&results)
    );
    // At most the game in progress has a bot (and its files and daemons) at any moment.
    assert!(late.0 <= early.0 + 6, "open files: {early:?} then {late:?}");
    assert!(late.1 <= early.1 + 1, "threads: {early:?} then {late:?}");
    assert!(late.2 <= 2, "daemons alive: {early:?} then {late:?}");
    assert_eq!(left, Vec::<i32>::new(), "daemons left after the tournament");
}

#[test]
fn a_bot_that_ignores_the_end_of_its_input_dies_with_a_killed_take5() {
    let pid_file = common::temp("stubborn.pid");
    let _ = std::fs::remove_file(&pid_file);
    let player = format!("sh {} {}", bot_script("stubborn.sh"), pid_file.display());
    let mut take5 = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(["play", "--player", &player, "--player", "builtin:random"])
        .args(["--seed", "1", "--games", "1000000"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut bot = None;
    assert!(
        wait_until(|| {
            bot = std::fs::read_to_string(&pid_file)
                .ok()
                .and_then(|text| text.trim().parse::<i32>().ok());
            bot.is_some()
        }),
        "the bot never started"
    );
    let bot = bot.unwrap();
    take5.kill().unwrap(); // SIGKILL: no handler of take5 runs
    take5.wait().unwrap();
    let gone = wait_until(|| is_gone(bot));
    if !gone {
        // SAFETY: plain system call, to clean up after a failed test.
        unsafe { libc::kill(bot, libc::SIGKILL) };
    }
    assert!(gone, "bot {bot} outlived take5");
}

/// In a program that does not adopt orphans (a library user, this test), the daemons a running
/// bot started are below it in the process tree, so killing the bot kills them, though they
/// left its process group; and the bot's stderr thread ends though they hold the pipe open.
#[test]
fn killing_a_bot_kills_the_daemons_it_started() {
    use take5::players::process::{BotCommand, BotProcess};
    let seconds = format!("8{}", std::process::id());
    let cmd = BotCommand::new("sh", [bot_script("daemon.sh"), seconds.clone()]);
    let threads = proc_entries(std::process::id(), "task");
    let mut bot = BotProcess::spawn(&cmd).unwrap();
    assert!(wait_until(|| daemons(&seconds).len() == 2), "no daemons");
    bot.kill();
    assert!(wait_until(|| daemons(&seconds).is_empty()), "daemons left");
    assert!(
        wait_until(|| proc_entries(std::process::id(), "task") <= threads + 2),
        "threads left"
    );
}
