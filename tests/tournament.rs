//! `take5 tournament` and `take5 stats` end to end: the Python bot in the pool, jobs that do not
//! change the results, a run killed with SIGKILL and resumed, and the worked example of
//! docs/tournaments.md.

mod common;

use common::{ok, take5};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh path for `name` (a file left by an earlier run is removed).
fn temp(name: &str) -> PathBuf {
    let path = common::temp(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn write(name: &str, text: &str) -> PathBuf {
    let path = temp(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The arguments of `take5 tournament config --results results`, then `extra`.
fn tournament_args<'a>(config: &'a Path, results: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "tournament",
        config.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args
}

/// Runs `take5 tournament config --results results`, then `extra`.
fn tournament(config: &Path, results: &Path, extra: &[&str]) -> Output {
    take5(&tournament_args(config, results, extra))
}

/// Asserts that take5 refused its input (exit status 2); returns what it said on stderr.
fn refused(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(2));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Waits (a minute at the most) until the results file at `path` holds `lines` lines.
fn wait_for_lines(path: &Path, lines: usize) {
    let start = Instant::now();
    while std::fs::read_to_string(path)
        .map(|t| t.lines().count())
        .unwrap_or(0)
        < lines
        && start.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Asserts that no bot in printed JSON statistics had a fault.
fn no_faults(stats: &serde_json::Value) {
    for bot in stats["bots"].as_array().unwrap() {
        assert!(bot["faults"].as_object().unwrap().is_empty(), "{bot}");
    }
}

/// A results file's lines, sorted (games finish in any order with several jobs).
fn sorted_lines(path: &Path) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines.sort_by_key(|l| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["game"].as_u64().unwrap()
    });
    lines
}

const BUILTINS: &str = "bots:
  - {name: random, player: 'builtin:random'}
  - {name: lowest, player: 'builtin:lowest'}
  - {name: highest, player: 'builtin:highest'}
  - {name: dodger, player: 'builtin:dodger'}
seats: 3
deals: 6
seed: 11
format: round-robin
";

fn python_pool(deals: u64) -> String {
    // The manifest directory, so the bot is found whatever the working directory.
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bots/python_bot.py");
    format!(
        "bots:
  - {{name: random, player: 'builtin:random'}}
  - {{name: lowest, player: 'builtin:lowest'}}
  - {{name: dodger, player: 'builtin:dodger'}}
  - {{name: python, player: 'python3 {}', timeout_ms: 600000}}
seats: 3
deals: {deals}
seed: 5
format: round-robin
",
        bot.display()
    )
}

#[test]
fn a_pool_with_the_python_bot_agrees_with_take5_stats() {
    let config = write("python.yaml", &python_pool(2));
    let results = temp("python.jsonl");
    let printed = ok(&tournament(
        &config,
        &results,
        &["--jobs", "2", "--format", "json"],
    ));
    let stats: serde_json::Value = serde_json::from_str(&printed).unwrap();
    // 4 tables of 3, 2 deals, 3 rotations.
    assert_eq!(stats["games"], 24);
    assert_eq!(sorted_lines(&results).len(), 24);
    for bot in stats["bots"].as_array().unwrap() {
        assert_eq!(bot["games"], 18, "{bot}");
    }
    no_faults(&stats);
    let recomputed = ok(&take5(&[
        "stats",
        results.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(printed, recomputed);
    let table = ok(&take5(&["stats", results.to_str().unwrap()]));
    assert!(table.starts_with("24 games\n"), "{table}");
    assert!(table.contains("head to head"), "{table}");
}

#[test]
fn the_number_of_jobs_does_not_change_the_results() {
    let config = write("jobs.yaml", BUILTINS);
    let mut runs = Vec::new();
    for jobs in ["1", "2", "3"] {
        let results = temp(&format!("jobs{jobs}.jsonl"));
        let printed = ok(&tournament(&config, &results, &["--jobs", jobs]));
        runs.push((printed, sorted_lines(&results)));
    }
    assert_eq!(runs[0].1.len(), 4 * 6 * 3);
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], runs[2]);
}

#[test]
fn a_results_file_is_not_overwritten_and_a_torn_line_is_replayed_on_resume() {
    let config = write("torn.yaml", BUILTINS);
    let whole = temp("torn-whole.jsonl");
    let expected = ok(&tournament(&config, &whole, &["--jobs", "2"]));
    let again = tournament(&config, &whole, &["--jobs", "2"]);
    assert!(refused(&again).contains("--resume"));
    // As a kill could leave it: some whole lines, then half of one.
    let lines = sorted_lines(&whole);
    let cut = temp("torn-cut.jsonl");
    let mut text: String = lines[..30].iter().map(|l| format!("{l}\n")).collect();
    text.push_str(&lines[30][..20]);
    std::fs::write(&cut, text).unwrap();
    let resume = ["--jobs", "2", "--resume"];
    assert_eq!(ok(&tournament(&config, &cut, &resume)), expected);
    assert_eq!(sorted_lines(&cut), lines);
    // Resuming a finished run plays nothing and prints the same.
    assert_eq!(ok(&tournament(&config, &cut, &resume)), expected);
    assert_eq!(sorted_lines(&cut), lines);
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_the_same_statistics() {
    let config = write("kill.yaml", &python_pool(3));
    let whole = temp("kill-whole.jsonl");
    let killed = temp("kill-killed.jsonl");
    let expected = ok(&tournament(&config, &whole, &["--jobs", "2"]));
    let mut child = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(tournament_args(&config, &killed, &["--jobs", "2"]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let total = 4 * 3 * 3;
    wait_for_lines(&killed, total / 3);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = std::fs::read_to_string(&killed).unwrap().lines().count();
    assert!(before < total, "the run finished before it was killed");
    let resumed = ok(&tournament(&config, &killed, &["--jobs", "2", "--resume"]));
    assert_eq!(resumed, expected);
    assert_eq!(sorted_lines(&killed), sorted_lines(&whole));
}

#[test]
fn the_worked_example_of_the_docs_holds() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tournaments.md"))
            .unwrap();
    let block = |info: &str| {
        let start = page
            .find(&format!("```{info}\n"))
            .unwrap_or_else(|| panic!("a ```{info} block"))
            + info.len()
            + 4;
        let end = start + page[start..].find("```").unwrap();
        page[start..end].to_string()
    };
    let config = write("example.yaml", &block("yaml example"));
    let results = temp("example.jsonl");
    let printed = ok(&tournament(&config, &results, &[]));
    assert_eq!(printed, block("text example-table"));
    let lines = sorted_lines(&results);
    assert_eq!(format!("{}\n", lines[0]), block("json example-line"));
    let csv = ok(&take5(&[
        "stats",
        results.to_str().unwrap(),
        "--format",
        "csv",
    ]));
    assert_eq!(csv, block("text example-csv"));
    // The same tournament from flags prints the same table.
    let flags_results = temp("example-flags.jsonl");
    let command =
        block("sh example-flags").replace("example-flags.jsonl", flags_results.to_str().unwrap());
    let words = shlex::split(command.trim()).unwrap();
    assert_eq!(words[0], "take5");
    let words: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    assert_eq!(ok(&take5(&words)), block("text example-table"));
}

#[test]
fn a_bad_config_names_file_line_and_column() {
    let config = write("bad.yaml", &BUILTINS.replace("seed: 11", "seed: eleven"));
    let err = refused(&take5(&["tournament", config.to_str().unwrap()]));
    assert!(err.contains("bad.yaml:8:7"), "{err}");
}

#[test]
fn shards_merged_give_the_statistics_of_one_run() {
    let config = write("shards.yaml", BUILTINS);
    let whole = temp("shards-whole.jsonl");
    let expected = ok(&tournament(&config, &whole, &["--format", "json"]));
    let mut files = Vec::new();
    for k in 1..=4 {
        let results = temp(&format!("shard{k}.jsonl"));
        let shard = format!("{k}/4");
        ok(&tournament(
            &config,
            &results,
            &["--shard", &shard, "--jobs", "1"],
        ));
        let lines = sorted_lines(&results);
        assert_eq!(lines.len(), 72 / 4, "shard {shard}");
        files.push(results.to_str().unwrap().to_string());
    }
    let mut args = vec!["stats", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(ok(&take5(&args)), expected);
    // A shard's file is refused by another shard.
    let wrong = tournament(
        &config,
        Path::new(&files[0]),
        &["--shard", "2/4", "--resume"],
    );
    refused(&wrong);
}

#[test]
fn a_bot_that_fails_its_handshake_stops_the_tournament_before_it_starts() {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/garbage.sh");
    let pool = BUILTINS.replace(
        "{name: dodger, player: 'builtin:dodger'}",
        &format!(
            "{{name: noisy, player: '{}', timeout_ms: 300}}",
            bot.display()
        ),
    );
    let config = write("handshake.yaml", &pool);
    let results = temp("handshake.jsonl");
    let err = refused(&tournament(&config, &results, &[]));
    assert!(err.contains("bot noisy ("), "{err}");
    assert!(err.contains("fails its handshake"), "{err}");
    assert_eq!(std::fs::read_to_string(&results).unwrap_or_default(), "");
}

#[test]
fn ctrl_c_finishes_the_games_under_way_and_resume_completes_the_run() {
    let config = write("sigint.yaml", &python_pool(3));
    let whole = temp("sigint-whole.jsonl");
    let stopped = temp("sigint-stopped.jsonl");
    let expected = ok(&tournament(&config, &whole, &[]));
    let child = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(tournament_args(&config, &stopped, &["--jobs", "2"]))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_lines(&stopped, 5);
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("interrupted:"), "{err}");
    let text = std::fs::read_to_string(&stopped).unwrap();
    assert!(text.ends_with('\n'), "only whole lines");
    assert!(text.lines().count() < 36, "it stopped early");
    let resumed = ok(&tournament(&config, &stopped, &["--resume"]));
    assert_eq!(resumed, expected);
    assert_eq!(sorted_lines(&stopped), sorted_lines(&whole));
}

#[test]
fn a_tournament_from_flags_plays_as_its_config_file_and_logs_every_line() {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bots/python_bot.py");
    // The bot says one line on stderr before it starts, to be found in its stderr file.
    let python = format!("sh -c 'echo starting >&2; exec python3 {}'", bot.display());
    let yaml = format!(
        "bots:
  - {{name: random, player: 'builtin:random'}}
  - {{name: lowest, player: 'builtin:lowest'}}
  - {{name: py, player: \"{python}\"}}
seats: 3
deals: 2
seed: 4
format: round-robin
"
    );
    let config = write("flags.yaml", &yaml);
    let from_file = temp("flags-file.jsonl");
    ok(&tournament(&config, &from_file, &[]));
    let from_flags = temp("flags-flags.jsonl");
    let logs = temp("flags-logs");
    let _ = std::fs::remove_dir_all(&logs);
    let py = format!("py={python}");
    ok(&take5(&[
        "tournament",
        "--bot",
        "random=builtin:random",
        "--bot",
        "lowest=builtin:lowest",
        "--bot",
        &py,
        "--seats",
        "3",
        "--deals",
        "2",
        "--seed",
        "4",
        "--tables",
        "round-robin",
        "--results",
        from_flags.to_str().unwrap(),
        "--log-io",
        logs.to_str().unwrap(),
    ]));
    assert_eq!(sorted_lines(&from_file), sorted_lines(&from_flags));
    // 1 table, 2 deals, 3 rotations: every game has the bot's io log and stderr file, and no
    // file for the built-in bots.
    for game in 0..6 {
        let dir = logs.join(format!("game-{game}"));
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["py.log", "py.stderr"], "{}", dir.display());
        assert_eq!(
            std::fs::read_to_string(dir.join("py.stderr")).unwrap(),
            "starting\n"
        );
        let log = std::fs::read_to_string(dir.join("py.log")).unwrap();
        let lines: Vec<(f64, &str, &str)> = log
            .lines()
            .map(|l| {
                let mut words = l.trim_start().splitn(3, ' ');
                let at = words.next().unwrap().parse().unwrap();
                (at, words.next().unwrap(), words.next().unwrap_or(""))
            })
            .collect();
        assert!(
            lines[0].1 == ">" && lines[0].2.starts_with("hello"),
            "{log}"
        );
        assert!(
            lines[1].1 == "<" && lines[1].2.starts_with("hello"),
            "{log}"
        );
        assert!(
            lines.iter().any(|l| l.1 == "<" && l.2.starts_with("play")),
            "{log}"
        );
        assert!(lines.last().unwrap().2.starts_with("bye"), "{log}");
        assert!(lines.windows(2).all(|w| w[0].0 <= w[1].0), "{log}");
    }
}

#[test]
fn flags_and_a_config_file_do_not_mix_and_flags_need_their_keys() {
    let config = write("mix.yaml", BUILTINS);
    let output = take5(&["tournament", config.to_str().unwrap(), "--seats", "2"]);
    assert!(refused(&output).contains("not both"));
    let output = take5(&["tournament", "--bot", "a=builtin:random", "--seats", "2"]);
    assert!(refused(&output).contains("--seed, --tables and --results"));
    let results = temp("flags-bad.jsonl");
    let output = take5(&[
        "tournament",
        "--bot",
        "a=builtin:random",
        "--bot",
        "b=builtin:random",
        "--seats",
        "3",
        "--seed",
        "1",
        "--tables",
        "round-robin",
        "--results",
        results.to_str().unwrap(),
    ]);
    let err = refused(&output);
    assert!(err.contains("command line: seats is 3"), "{err}");
}

#[test]
fn a_bot_starts_in_its_folder_and_a_missing_folder_is_named() {
    let folder = temp("botdir");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bots/python_bot.py"),
        folder.join("here_bot.py"),
    )
    .unwrap();
    // `here_bot.py` is found only from its folder.
    let pool = BUILTINS.replace(
        "{name: dodger, player: 'builtin:dodger'}",
        // A generous time limit: a Python bot may take seconds to start on a loaded machine.
        "{name: here, player: 'python3 here_bot.py', dir: botdir, timeout_ms: 600000}",
    );
    let config = write("dir.yaml", &pool);
    let results = temp("dir.jsonl");
    let printed = ok(&tournament(&config, &results, &["--format", "json"]));
    no_faults(&serde_json::from_str(&printed).unwrap());
    let config = write("nodir.yaml", &pool.replace("dir: botdir", "dir: nowhere"));
    let err = refused(&take5(&["tournament", config.to_str().unwrap()]));
    assert!(err.contains("nodir.yaml:5:54: bot here: dir `"), "{err}");
    assert!(err.contains("nowhere` is not a folder"), "{err}");
}

#[test]
fn the_summary_names_the_game_of_every_fault() {
    // Greets, so it passes the check before the tournament, then quits: a crash in each game.
    let pool = BUILTINS.replace(
        "{name: dodger, player: 'builtin:dodger'}",
        r#"{name: quitter, player: "sh -c 'read l; echo hello version=1 name=q; read l; exit 3'"}"#,
    );
    let config = write("faults.yaml", &pool);
    let results = temp("faults.jsonl");
    let printed = ok(&tournament(&config, &results, &["--format", "json"]));
    let stats: serde_json::Value = serde_json::from_str(&printed).unwrap();
    let quitter = stats["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "quitter")
        .unwrap()
        .clone();
    // Every game with the quitter at the table: tables 1, 2 and 3 of 4, 6 deals x 3 rotations.
    let expected: Vec<u64> = (18..72).collect();
    let games: Vec<u64> = quitter["fault_games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_u64().unwrap())
        .collect();
    assert_eq!(games, expected, "{quitter}");
    assert_eq!(quitter["faults"]["crash"], 54, "{quitter}");
    let table = ok(&take5(&["stats", results.to_str().unwrap()]));
    assert!(
        table.contains("crash 54 (games 18, 19, 20, 21, 22, ...)"),
        "{table}"
    );
}
