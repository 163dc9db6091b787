//! Helpers shared by the tests: tables written as plain numbers, and the take5 binary.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Arc;
use take5::cards::Card;
use take5::game::{Action, Event, Game, TakeReason};
use take5::rules::Rules;
use take5::variants::classic::{Classic, Table};

pub fn cards(numbers: &[u16]) -> Vec<Card> {
    numbers.iter().map(|&n| Card(n)).collect()
}

/// A table in round 1, turn 1 under `rules`, with these scores and nothing taken yet.
pub fn table_with(rules: Rules, rows: &[&[u16]], hands: &[&[u16]], scores: &[i32]) -> Classic {
    let table = Table {
        round: 1,
        turn: 1,
        hands: hands.iter().map(|h| cards(h)).collect(),
        rows: rows.iter().map(|r| cards(r)).collect(),
        scores: scores.to_vec(),
        piles: vec![Vec::new(); hands.len()],
    };
    Classic::from_table(Arc::new(rules), &table).expect("a valid table")
}

/// Every seat plays its card, in seat order; returns the events.
pub fn play(game: &mut Classic, played: &[u16]) -> Vec<Event> {
    let mut events = Vec::new();
    for (seat, &card) in played.iter().enumerate() {
        game.apply(seat, Action::Play(Card(card)), &mut events)
            .unwrap_or_else(|e| panic!("seat {seat} plays {card}: {e}"));
    }
    events
}

/// The takes among `events`: (seat, row, bullheads, reason).
pub fn takes(events: &[Event]) -> Vec<(usize, usize, i32, TakeReason)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Take {
                seat,
                row,
                bullheads,
                reason,
                ..
            } => Some((*seat, *row, *bullheads, *reason)),
            _ => None,
        })
        .collect()
}

/// Runs the take5 binary with `args`.
pub fn take5(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(args)
        .output()
        .expect("take5 runs")
}

/// Asserts that take5 succeeded; returns what it printed.
pub fn ok(output: &Output) -> String {
    assert!(
        output.status.success(),
        "take5 failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A path for `name` in a temporary folder of this test (named after the test's thread, which
/// the test harness names after the test) and process: the tests share one program, so two
/// tests asking for the same name must not get the same file.
pub fn temp(name: &str) -> PathBuf {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("unnamed").replace("::", "-");
    let dir = std::env::temp_dir().join(format!(
        "take5-{}-{}-{test}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Whether process `pid` is gone for good. A reaped process no longer exists (ESRCH); an orphan
/// that was killed becomes a zombie of init, which some containers never reap, so
/// dead-but-unreaped ('Z' in /proc) counts as gone too.
pub fn is_gone(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    if unsafe { libc::kill(pid, 0) } == -1 {
        return std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next());
    matches!(state, Some('Z' | 'X') | None)
}

/// A fenced block of a Markdown page: its info string (`sh`, `yaml`, `text`, ...), its text
/// (the fence's indentation removed from each line) and the line its text starts on.
pub struct Block {
    pub info: String,
    pub text: String,
    pub line: usize,
}

/// The fenced blocks of the Markdown `page`, in order. The docs' worked examples are read with
/// this one reader, so every test sees the same blocks a reader does.
pub fn fenced_blocks(page: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, Block)> = None;
    for (i, line) in page.lines().enumerate() {
        let trimmed = line.trim_start();
        let fence = trimmed.strip_prefix("```");
        match (open.take(), fence) {
            (None, Some(info)) => {
                let block = Block {
                    info: info.trim().to_string(),
                    text: String::new(),
                    line: i + 2,
                };
                open = Some((line.len() - trimmed.len(), block));
            }
            (Some((_, block)), Some(_)) => blocks.push(block),
            (Some((indent, mut block)), None) => {
                block.text.push_str(line.get(indent..).unwrap_or(trimmed));
                block.text.push('\n');
                open = Some((indent, block));
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a fence is not closed");
    blocks
}

/// The texts of the blocks of `page` whose info string is `info`.
pub fn blocks_of(page: &str, info: &str) -> Vec<String> {
    fenced_blocks(page)
        .into_iter()
        .filter(|block| block.info == info)
        .map(|block| block.text)
        .collect()
}

/// The text of the first ```INFO block of a doc `page` (its worked examples, kept true by
/// tests).
pub fn doc_block(page: &str, info: &str) -> String {
    blocks_of(page, info)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("a ```{info} block"))
}

/// A generous bound for anything a test waits for (a loaded machine is slow; a failure shows
/// long before): tests poll for what they wait for, and no result depends on how long it took.
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(180);

/// Polls `done` until it holds, up to [`PATIENCE`]; false if it never did.
pub fn wait_until(mut done: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while !done() {
        if start.elapsed() > PATIENCE {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    true
}

/// How many lines the file at `path` holds (0 while it cannot be read).
pub fn line_count(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path)
        .map(|text| text.lines().count())
        .unwrap_or(0)
}

/// Waits until the file at `path` (a results file being written) holds `lines` lines; false if
/// it never did within [`PATIENCE`].
pub fn wait_for_lines(path: &std::path::Path, lines: usize) -> bool {
    wait_until(|| line_count(path) >= lines)
}

/// How many entries the folder `/proc/PID/what` has (open files: `fd`, threads: `task`).
pub fn proc_entries(pid: u32, what: &str) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/{what}"))
        .map(|entries| entries.count())
        .unwrap_or(0)
}

/// The process ids a test bot wrote to the file at `path`, one a line.
pub fn pids_in(path: &std::path::Path) -> Vec<i32> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

/// A results file's game lines as written (not its header), sorted by game (several jobs
/// finish games in any order).
pub fn game_lines(path: &std::path::Path) -> Vec<String> {
    let mut lines: Vec<(u64, String)> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("{\"take5_results\""))
        .map(|l| {
            let game: serde_json::Value = serde_json::from_str(l).unwrap();
            (game["game"].as_u64().unwrap(), l.to_string())
        })
        .collect();
    lines.sort_by_key(|(game, _)| *game);
    lines.into_iter().map(|(_, line)| line).collect()
}

/// The take5 binary, to run with `args` under a limit of `bytes` on `resource` (`setrlimit`):
/// `RLIMIT_FSIZE` makes every write past that size fail with EFBIG, as a full disk would fail
/// it (SIGXFSZ, which would kill the process, is ignored), without root.
pub fn take5_limited(args: &[&str], resource: libc::__rlimit_resource_t, bytes: u64) -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_take5"));
    command.args(args);
    // SAFETY: only async-signal-safe calls (setrlimit, signal) between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(resource, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    command
}

/// The player spec of tests/bots/misbehave.py in `mode` (`reply`: refused replies of `text`;
/// `stderr`: a crash after writing `text` to stderr) with `text`: its stderr, and its command
/// line (its name), hold `text`.
pub fn hostile_bot(mode: &str, text: &str) -> String {
    assert!(!text.contains('\''), "the text is quoted with '");
    format!(
        "python3 {}/tests/bots/misbehave.py {mode} '{text}'",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Plays a classic game with seed 3, recorded at `record`, between a bot whose refused replies
/// (from its third request on) are `reply`, one that writes `stderr` to its stderr and crashes
/// at its third request, and builtin:lowest; `more` flags. The bots' command lines (their
/// names) hold their texts.
pub fn hostile_game(reply: &str, stderr: &str, record: &std::path::Path, more: &[&str]) -> Output {
    let replying = hostile_bot("reply", reply);
    let crashing = hostile_bot("stderr", stderr);
    let mut args = vec!["play", "--player", &replying, "--player", &crashing];
    args.extend(["--player", "builtin:lowest", "--seed", "3"]);
    // A python bot may be slow to start on a loaded machine.
    args.extend(["--timeout", "60000", "--record", record.to_str().unwrap()]);
    args.extend(more);
    let output = take5(&args);
    ok(&output);
    output
}

/// Takes the `hello_names` key out of every game header of the record at `path`, as in a
/// record of a take5 from before it: a viewer then names the seats by their commands.
pub fn without_hello_names(path: &std::path::Path) {
    let mut text = std::fs::read_to_string(path).unwrap();
    // A hello's name holds no `]` (docs/protocol.md): the key ends at the first one.
    let key = ",\"hello_names\":[";
    while let Some(start) = text.find(key) {
        let end = start + text[start..].find(']').unwrap() + 1;
        text.replace_range(start..end, "");
    }
    std::fs::write(path, text).unwrap();
}

/// Runs a round-robin tournament of `bots` (`NAME=PLAYER`) at two seats over `deals` deals with
/// seed 1, its results in `results`, with `more` flags.
pub fn round_robin(bots: &[&str], deals: u32, results: &std::path::Path, more: &[&str]) -> Output {
    let mut args = vec!["tournament"];
    for bot in bots {
        args.extend(["--bot", bot]);
    }
    let deals = deals.to_string();
    args.extend(["--seats", "2", "--deals", &deals, "--seed", "1"]);
    args.extend([
        "--tables",
        "round-robin",
        "--results",
        results.to_str().unwrap(),
    ]);
    args.extend(more);
    take5(&args)
}

/// Statistics printed as JSON without what only the results' headers tell (`tournament`, and
/// `better_total`, which follows from its variant): the figures of the games alone, the same for
/// a file whose header was taken off.
pub fn games_figures(stats: &str) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(stats).unwrap();
    let map = value.as_object_mut().unwrap();
    map.remove("tournament");
    map.remove("better_total");
    value
}

/// Merged shards' statistics printed as JSON: that their `tournament` names the `shards`, and
/// the statistics without them, which are the whole run's.
pub fn unsharded(stats: &str, shards: &[&str]) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(stats).unwrap();
    let tournament = value["tournament"].as_object_mut().unwrap();
    assert_eq!(tournament["shards"], serde_json::json!(shards));
    tournament.insert("shards".to_string(), serde_json::json!([]));
    value
}

/// The bots' names of statistics printed as JSON, in their order (by rating).
pub fn bot_names(stats: &serde_json::Value) -> Vec<&str> {
    stats["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect()
}

/// A results file (its lines) of `bots` bots in a ring, each against its neighbour on one deal
/// of two games (both seatings), the first seat ahead each time; bots are named `b` and their
/// number in `digits` digits.
pub fn ring_of_bots(bots: usize, digits: usize) -> String {
    let mut text = String::new();
    for i in 0..bots {
        let (a, b) = (
            format!("b{i:0digits$}"),
            format!("b{:0digits$}", (i + 1) % bots),
        );
        for (rotation, seating) in [[&a, &b], [&b, &a]].iter().enumerate() {
            let line = serde_json::json!({
                "game": 2 * i + rotation, "table": i, "deal": 0, "rotation": rotation,
                "seating": seating, "totals": [3, 5], "ranks": [1, 2], "winners": [0],
                "faults": [],
            });
            text.push_str(&format!("{line}\n"));
        }
    }
    text
}

/// A fresh, empty folder `name` of this test (see [`temp`]).
pub fn fresh_folder(name: &str) -> PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The flags of the worked example of docs/tournaments.md: a round robin of the four built-in
/// bots, three at a table, ten deals, seed 2026 (120 games).
pub const ROUND_ROBIN_OF_FOUR: &[&str] = &[
    "--bot",
    "random=builtin:random",
    "--bot",
    "lowest=builtin:lowest",
    "--bot",
    "highest=builtin:highest",
    "--bot",
    "dodger=builtin:dodger",
    "--seats",
    "3",
    "--deals",
    "10",
    "--seed",
    "2026",
    "--tables",
    "round-robin",
];

/// Builds the C kit's example bot (sdk/c/example_bot.c) in `dir` with the command its README
/// gives, warnings made errors: the path of the program.
pub fn build_c_example_bot(dir: &std::path::Path) -> PathBuf {
    let sdk = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sdk/c");
    let readme = std::fs::read_to_string(sdk.join("README.md")).unwrap();
    let build = blocks_of(&readme, "sh")
        .iter()
        .flat_map(|block| block.lines().map(str::to_string).collect::<Vec<_>>())
        .find(|line| line.starts_with("cc "))
        .expect("sdk/c/README.md says how to build the bot with cc");
    let words = shlex::split(&build).unwrap();
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(sdk.join("example_bot.c"), dir.join("example_bot.c")).unwrap();
    let output = Command::new(&words[0])
        .args(&words[1..])
        .arg("-Werror")
        .current_dir(dir)
        .output()
        .expect("cc runs");
    assert!(
        output.status.success(),
        "{build}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    dir.join("example_bot")
}
