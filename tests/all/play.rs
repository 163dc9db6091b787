//! `take5 play` end to end with built-in bots: determinism, records, rotation, deal files, flags.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `take5 play ARGS`.
fn take5(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_take5"))
        .arg("play")
        .args(args)
        .output()
        .expect("take5 runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("take5-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "take5 failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

const FOUR_RANDOM: [&str; 8] = [
    "--player",
    "builtin:random",
    "--player",
    "builtin:random",
    "--player",
    "builtin:random",
    "--player",
    "builtin:random",
];

fn play_seed_7(record: &Path) -> String {
    let mut args = FOUR_RANDOM.to_vec();
    args.extend(["--seed", "7", "--record", record.to_str().unwrap()]);
    stdout(&take5(&args))
}

#[test]
fn the_same_seed_gives_a_byte_identical_record() {
    let (a, b) = (temp("a.jsonl"), temp("b.jsonl"));
    let summary = play_seed_7(&a);
    play_seed_7(&b);
    let record = std::fs::read_to_string(&a).unwrap();
    assert_eq!(record, std::fs::read_to_string(&b).unwrap());
    // The game went to 66: its last round ends with someone at 66 or more.
    let last = record.lines().last().unwrap();
    assert!(last.starts_with(r#"{"event":"game_end""#), "{last}");
    // Pinned across machines and dependency upgrades: the deal stream and the bots' stream.
    let first_deal = record.lines().nth(1).unwrap();
    insta::assert_snapshot!("seed_7_first_deal", first_deal);
    insta::assert_snapshot!("seed_7_summary", summary);
}

#[test]
fn seats_rotate_so_each_player_plays_each_deal_from_each_seat() {
    let record = temp("rotation.jsonl");
    let out = stdout(&take5(&[
        "--player",
        "builtin:lowest",
        "--player",
        "builtin:dodger",
        "--player",
        "builtin:highest",
        "--games",
        "6",
        "--seed",
        "3",
        "--quiet",
        "--record",
        record.to_str().unwrap(),
    ]));
    assert!(out.contains("seed 3: 6 games"), "{out}");
    let text = std::fs::read_to_string(&record).unwrap();
    let headers: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["event"] == "game")
        .collect();
    let deals: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["event"] == "deal" && v["round"] == 1)
        .collect();
    assert_eq!(headers.len(), 6);
    let seating = |g: usize| headers[g]["players"].clone();
    assert_eq!(
        seating(0),
        serde_json::json!(["builtin:lowest", "builtin:dodger", "builtin:highest"])
    );
    assert_eq!(
        seating(1),
        serde_json::json!(["builtin:dodger", "builtin:highest", "builtin:lowest"])
    );
    assert_eq!(
        seating(2),
        serde_json::json!(["builtin:highest", "builtin:lowest", "builtin:dodger"])
    );
    // Games 0-2 share the first deal, games 3-5 the next one.
    assert_eq!(deals[0], deals[1]);
    assert_eq!(deals[1], deals[2]);
    assert_ne!(deals[2], deals[3]);
    assert_eq!(deals[3], deals[5]);
}

#[test]
fn a_deal_file_sets_the_hands_and_rows() {
    let deal = temp("deal.yaml");
    std::fs::write(
        &deal,
        "rounds:\n  - hands:\n      - [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n      - [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]\n    rows: [101, 102, 103, 104]\n",
    )
    .unwrap();
    let record = temp("dealt.jsonl");
    let printed = stdout(&take5(&[
        "--player",
        "builtin:lowest",
        "--player",
        "builtin:lowest",
        "--seed",
        "1",
        "--deal",
        deal.to_str().unwrap(),
        "--record",
        record.to_str().unwrap(),
    ]));
    // The summary says where the rounds the file does not give come from.
    let said = format!(
        "round 1 dealt from {}; any later round from seed 1",
        deal.display()
    );
    assert!(printed.contains(&said), "{printed}");
    let text = std::fs::read_to_string(&record).unwrap();
    let first_deal = text.lines().nth(1).unwrap();
    assert_eq!(
        first_deal,
        r#"{"event":"deal","round":1,"hands":[[1,2,3,4,5,6,7,8,9,10],[11,12,13,14,15,16,17,18,19,20]],"rows":[101,102,103,104]}"#
    );
}

#[test]
fn a_bad_deal_file_names_file_line_and_column() {
    let deal = temp("bad-deal.yaml");
    std::fs::write(&deal, "rounds:\n  - hands: [[1, 2]]\n    rowz: [3]\n").unwrap();
    let output = take5(&[
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
        stderr.contains(&format!("{}:3:5: unknown field `rowz`", deal.display())),
        "{stderr}"
    );
    // A deal that breaks the rules is refused before anything is played.
    std::fs::write(&deal, "rounds:\n  - hands: [[1, 2]]\n    rows: [3]\n").unwrap();
    let output = take5(&[
        "--player",
        "builtin:lowest",
        "--player",
        "builtin:lowest",
        "--deal",
        deal.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = format!("{}: round 1: bad deal: 1 hand for 2 seats", deal.display());
    assert!(stderr.contains(&expected), "{stderr}");
}

#[test]
fn bad_flags_are_refused_with_a_reason() {
    let cases: [(&[&str], &str); 6] = [
        (&["--player", "builtin:random"], "1 player asked for"),
        (
            &["--player", "builtin:nope", "--player", "builtin:random"],
            "unknown built-in bot `nope`",
        ),
        (
            &[
                "--player",
                "builtin:random",
                "--player",
                "builtin:random",
                "--games",
                "0",
            ],
            "--games",
        ),
        (
            &[
                "--player",
                "builtin:random",
                "--player",
                "builtin:random",
                "--seed",
                "x",
            ],
            "--seed",
        ),
        (
            &[
                "--player",
                "no-such-bot-program",
                "--player",
                "builtin:random",
            ],
            "cannot start `no-such-bot-program`",
        ),
        (
            &[
                "--player",
                "python3 'unbalanced",
                "--player",
                "builtin:random",
            ],
            "unbalanced quotes",
        ),
    ];
    for (args, expected) in cases {
        let mut full = vec!["play"];
        full.extend_from_slice(args);
        let output = Command::new(env!("CARGO_BIN_EXE_take5"))
            .args(&full)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn take5_verify_accepts_what_take5_play_records() {
    let record = temp("many.jsonl");
    let players = [
        "builtin:random",
        "builtin:dodger",
        "builtin:lowest",
        "builtin:highest",
        "builtin:random",
    ];
    for seats in [2, 5] {
        let mut args = vec![];
        for p in &players[..seats] {
            args.extend(["--player", p]);
        }
        args.extend(["--games", "10", "--seed", "11", "--quiet"]);
        args.extend(["--record", record.to_str().unwrap()]);
        stdout(&take5(&args));
        let output = Command::new(env!("CARGO_BIN_EXE_take5"))
            .args(["verify", record.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{seats} seats: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn log_io_writes_each_bots_lines_and_stderr_for_the_match() {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bots/python_bot.py");
    let python = format!("sh -c 'echo ready >&2; exec python3 {}'", bot.display());
    let logs = temp("log-io");
    let _ = std::fs::remove_dir_all(&logs);
    stdout(&take5(&[
        "--player",
        "builtin:random",
        "--player",
        &python,
        "--seed",
        "3",
        "--games",
        "2",
        "--quiet",
        "--timeout",
        "60000",
        "--log-io",
        logs.to_str().unwrap(),
    ]));
    let mut names: Vec<String> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["player-1.log", "player-1.stderr"]);
    assert_eq!(
        std::fs::read_to_string(logs.join("player-1.stderr")).unwrap(),
        "ready\n"
    );
    let log = std::fs::read_to_string(logs.join("player-1.log")).unwrap();
    let games = log.lines().filter(|l| l.contains(" > game ")).count();
    assert_eq!(games, 2, "{log}");
    assert!(log.lines().any(|l| l.contains(" < play ")), "{log}");
    assert!(log.lines().last().unwrap().ends_with("> bye"), "{log}");
}

/// A bot that declines events in its hello (the shell example bot does) gets none, only the
/// `game`, `ask` and `bye` lines, and plays whole games; another bot in the same match still
/// gets them.
#[test]
fn a_bot_that_declines_events_gets_none() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shell = format!("sh {}", root.join("scripts/bots/shell_bot.sh").display());
    let python = format!(
        "python3 {}",
        root.join("scripts/bots/python_bot.py").display()
    );
    let logs = temp("declines-events");
    let _ = std::fs::remove_dir_all(&logs);
    stdout(&take5(&[
        "--player",
        &shell,
        "--player",
        &python,
        "--seed",
        "5",
        "--games",
        "2",
        "--quiet",
        "--timeout",
        "60000",
        "--log-io",
        logs.to_str().unwrap(),
    ]));
    let shell_log = std::fs::read_to_string(logs.join("player-0.log")).unwrap();
    assert!(
        shell_log.contains(" < hello version=1 name=shell_bot events=no\n"),
        "{shell_log}"
    );
    let sent: Vec<&str> = shell_log
        .lines()
        .filter_map(|l| l.split_once(" > ").map(|(_, line)| line))
        .collect();
    assert!(sent.iter().all(|l| !l.starts_with("event")), "{shell_log}");
    assert_eq!(sent.iter().filter(|l| l.starts_with("game ")).count(), 2);
    assert!(sent.iter().filter(|l| l.starts_with("ask play")).count() >= 20);
    let python_log = std::fs::read_to_string(logs.join("player-1.log")).unwrap();
    assert!(python_log.contains(" > event deal "), "{python_log}");
}

/// One game of seed 1, 300 ms per decision, between `players` (in seat order) with `extra`
/// flags; what take5 printed.
fn one_quick_game(players: [&str; 2], extra: &[&str]) -> String {
    let mut args = vec![
        "--player",
        players[0],
        "--player",
        players[1],
        "--seed",
        "1",
        "--timeout",
        "300",
    ];
    args.extend(extra);
    stdout(&take5(&args))
}

/// A bot is known by the name it gave in its `hello`, in the game lines and the summary; its
/// command is told beside that name where a fault is.
#[test]
fn a_bot_is_named_by_its_hello_and_its_command_is_in_a_fault() {
    // Greets as `quiet_one`, then answers nothing: its first decision is a fault.
    let bot = "sh -c 'read l; echo hello version=1 name=quiet_one; exec sleep 600'";
    let text = one_quick_game(["builtin:lowest", bot], &[]);
    assert!(text.contains("\n  seat 1  quiet_one "), "{text}");
    assert!(
        text.contains(&format!("fault: seat 1 (quiet_one: {bot}) timeout")),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.starts_with("quiet_one ")),
        "the summary table names it so too:\n{text}"
    );
}

/// `--log-io` numbers its files as take5 numbers seats, from 0: the bot printed as `seat 1`
/// of the first game writes `player-1.log`.
#[test]
fn log_io_files_are_numbered_as_the_seats_of_the_first_game() {
    let logs = temp("log-io-seats");
    let _ = std::fs::remove_dir_all(&logs);
    let bot = "sh -c 'read l; echo hello version=1 name=second; exec sleep 600'";
    let text = one_quick_game(
        ["builtin:lowest", bot],
        &["--log-io", logs.to_str().unwrap()],
    );
    assert!(text.contains("\n  seat 1  second "), "{text}");
    let log = std::fs::read_to_string(logs.join("player-1.log")).unwrap();
    assert!(log.contains(" < hello version=1 name=second\n"), "{log}");
}

/// A bot that sent a reply that was refused and then fell silent: the fault names that reply,
/// the clue to what went wrong.
#[test]
fn a_fault_after_a_refused_reply_names_that_reply() {
    let bot = "sh -c 'read l; echo hello version=1 name=g; \
               while read l; do case $l in ask*) echo bananas; exec sleep 600;; esac; done'";
    let text = one_quick_game([bot, "builtin:lowest"], &[]);
    let fault = text
        .lines()
        .find(|l| l.starts_with("  fault: seat 0"))
        .unwrap_or_else(|| panic!("a fault:\n{text}"));
    assert!(fault.contains("timeout"), "{fault}");
    assert!(
        fault.contains("after its reply `bananas` was refused"),
        "{fault}"
    );
}
