//! `take5 tournament` and `take5 stats` end to end: the Python bot in the pool, jobs that do not
//! change the results, a run killed with SIGKILL and resumed, and the worked example of
//! docs/tournaments.md.

use crate::common;

use common::{is_gone, ok, pids_in, take5, wait_for_lines, wait_until};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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

/// A fresh folder `name` holding the Python example bot as `here_bot.py`.
fn folder_with_python_bot(name: &str) -> PathBuf {
    let folder = temp(name);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bots/python_bot.py"),
        folder.join("here_bot.py"),
    )
    .unwrap();
    // The bot uses the Python kit, found next to it.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sdk/python/take5bot.py"),
        folder.join("take5bot.py"),
    )
    .unwrap();
    folder
}

/// The figures of bot `name` in printed JSON statistics.
fn bot_stats(stats: &serde_json::Value, name: &str) -> serde_json::Value {
    stats["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no bot {name} in {stats}"))
        .clone()
}

/// Asserts that no bot in printed JSON statistics had a fault.
fn no_faults(stats: &serde_json::Value) {
    for bot in stats["bots"].as_array().unwrap() {
        assert!(bot["faults"].as_object().unwrap().is_empty(), "{bot}");
    }
}

/// A results file's game lines (not its header), sorted, without their decision times (the
/// last field, which differs from run to run).
fn sorted_lines(path: &Path) -> Vec<String> {
    common::game_lines(path)
        .into_iter()
        .map(|l| match l.find(",\"times\":") {
            Some(at) => format!("{}}}", &l[..at]),
            None => l,
        })
        .collect()
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
    assert!(table.contains("\n24 games\n"), "{table}");
    assert!(table.contains("head to head"), "{table}");
    // Decision times, on request: the Python bot's, none for the built-ins.
    let timed = ok(&take5(&[
        "stats",
        results.to_str().unwrap(),
        "--format",
        "json",
        "--times",
    ]));
    let timed: serde_json::Value = serde_json::from_str(&timed).unwrap();
    let times = timed["times"].as_array().unwrap();
    assert_eq!(times.len(), 1, "{timed}");
    let python = &times[0];
    assert_eq!(python["name"], "python");
    assert!(python["decisions"].as_u64().unwrap() > 18 * 10, "{python}");
    let (mean, p95, max) = (
        python["mean_ms"].as_f64().unwrap(),
        python["p95_ms"].as_f64().unwrap(),
        python["max_ms"].as_f64().unwrap(),
    );
    assert!(0.0 < mean && mean <= max && p95 <= max, "{python}");
    let table = ok(&take5(&["stats", results.to_str().unwrap(), "--times"]));
    assert!(
        table.contains("decision times (command bots; ms):"),
        "{table}"
    );
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
    assert!(
        wait_for_lines(&killed, total / 3),
        "the run never wrote a third"
    );
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
    let block = |info: &str| common::doc_block(&page, info);
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

/// A value the file gives that the checks refuse is named where it is written, as a syntax
/// error is: `file:line:column:` after `take5:`.
#[test]
fn a_refused_value_names_its_line_and_column() {
    for (from, to, said) in [
        ("deals: 6", "deals: 0", "7:8: deals must be at least 1"),
        (
            "seats: 3",
            "seats: 9",
            "6:8: seats is 9 but the pool has 4 bots",
        ),
        (
            "name: dodger",
            "name: lowest",
            "5:12: two bots are named `lowest`",
        ),
        (
            "  - {name: lowest, player: 'builtin:lowest'}\n  \
             - {name: highest, player: 'builtin:highest'}\n  \
             - {name: dodger, player: 'builtin:dodger'}\n",
            "",
            "3:8: seats is 3 but the pool has 1 bot (",
        ),
    ] {
        assert!(BUILTINS.contains(from), "{from}");
        let config = write("refused.yaml", &BUILTINS.replace(from, to));
        let err = refused(&take5(&["tournament", config.to_str().unwrap()]));
        assert!(
            err.starts_with(&format!("take5: {}:{said}", config.display())),
            "{err}"
        );
    }
}

/// ` #` starts a YAML comment: names written `lowest #1` and `lowest #2` are both read as
/// `lowest`, and the error says the names need quotes, in a block or a flow mapping.
#[test]
fn a_name_with_a_comment_sign_is_said_to_need_quotes() {
    let block = BUILTINS
        .replace("  - {name: lowest, player: 'builtin:lowest'}\n", "")
        .replace(
            "  - {name: random,",
            "  - name: lowest #1\n    player: 'builtin:lowest'\n  - {name: random,",
        )
        .replace(
            "{name: dodger,",
            "{name: lowest #2, player: 'builtin:lowest'}\n  - {name: dodger,",
        );
    for (file, text) in [
        ("block.yaml", block.as_str()),
        (
            "flow.yaml",
            &BUILTINS.replace("name: dodger", "name: dodger #2"),
        ),
    ] {
        let config = write(file, text);
        let err = refused(&take5(&["tournament", config.to_str().unwrap()]));
        assert!(err.contains("needs quotes"), "{text}\n{err}");
    }
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
    assert_eq!(
        common::unsharded(&ok(&take5(&args)), &["1/4", "2/4", "3/4", "4/4"]),
        serde_json::from_str::<serde_json::Value>(&expected).unwrap()
    );
    // A shard's file is refused by another shard.
    let wrong = tournament(
        &config,
        Path::new(&files[0]),
        &["--shard", "2/4", "--resume"],
    );
    refused(&wrong);
}

#[test]
fn a_bot_that_fails_its_handshake_is_taken_out_after_three_starts_and_the_run_goes_on() {
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
    let output = tournament(&config, &results, &["--jobs", "1", "--format", "json"]);
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    // A run with a bot taken out fails (without --allow-dropouts), after its summary.
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("bot noisy taken out of the tournament after 3 failed starts in a row"),
        "{err}"
    );
    assert!(err.contains("handshake failed"), "{err}");
    let stats: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(stats["games"], 72);
    let noisy = bot_stats(&stats, "noisy");
    // Its three starts failed their handshakes (protocol faults); after them, each of its
    // games records that it was taken out (a crash).
    assert_eq!(noisy["faults"]["protocol"], 3, "{noisy}");
    assert_eq!(noisy["faults"]["crash"], 54 - 3, "{noisy}");
    // Taken out at its third game (id 20: the tables without it come first), the fallback's
    // from then on.
    assert_eq!(
        stats["dropouts"],
        serde_json::json!([{"bot": "noisy", "games": 54 - 2, "first_game": 20}])
    );
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
    assert!(wait_for_lines(&stopped, 5), "the run never wrote 5 lines");
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
  - {{name: py, player: \"{python}\", timeout_ms: 600000}}
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
    // A generous limit: a Python bot can take seconds to start on a loaded machine.
    let py = format!("py[timeout_ms=600000]={python}");
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
        "--jobs",
        "1",
    ]));
    assert_eq!(sorted_lines(&from_file), sorted_lines(&from_flags));
    // One job: the bot was started once, for game after game, and its log holds the six games
    // (1 table, 2 deals, 3 rotations), each after its `# game ID` line; built-in bots have none.
    let job = logs.join("job-1");
    let mut names: Vec<String> = std::fs::read_dir(&job)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["py.log", "py.stderr"], "{}", job.display());
    assert_eq!(
        std::fs::read_to_string(job.join("py.stderr")).unwrap(),
        "starting\n"
    );
    let log = std::fs::read_to_string(job.join("py.log")).unwrap();
    let lines: Vec<(f64, &str, &str)> = log
        .lines()
        .map(|l| {
            let mut words = l.trim_start().splitn(3, ' ');
            let at = words.next().unwrap().parse().unwrap();
            (at, words.next().unwrap(), words.next().unwrap_or(""))
        })
        .collect();
    assert!(lines[0].1 == "#" && lines[0].2 == "game 0", "{log}");
    assert!(
        lines[1].1 == ">" && lines[1].2.starts_with("hello"),
        "{log}"
    );
    assert!(
        lines[2].1 == "<" && lines[2].2.starts_with("hello"),
        "{log}"
    );
    let games: Vec<&str> = lines.iter().filter(|l| l.1 == "#").map(|l| l.2).collect();
    assert_eq!(
        games,
        ["game 0", "game 1", "game 2", "game 3", "game 4", "game 5"]
    );
    let hellos = lines
        .iter()
        .filter(|l| l.1 == ">" && l.2.starts_with("hello"));
    assert_eq!(hellos.count(), 1, "{log}");
    assert!(
        lines.iter().any(|l| l.1 == "<" && l.2.starts_with("play")),
        "{log}"
    );
    assert!(lines.last().unwrap().2.starts_with("bye"), "{log}");
    assert!(lines.windows(2).all(|w| w[0].0 <= w[1].0), "{log}");
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
    folder_with_python_bot("botdir");
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
    let quitter = bot_stats(&stats, "quitter");
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

#[test]
fn a_bot_that_crashes_every_50th_game_is_started_10_times_in_500_games_and_none_outlives_take5() {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/crash_every_50.py");
    let starts = temp("crasher-starts.txt");
    let pool = format!(
        "bots:
  - {{name: crasher, player: 'python3 {} {}', timeout_ms: 10000}}
  - {{name: lowest, player: 'builtin:lowest'}}
seats: 2
deals: 250
seed: 3
format: round-robin
",
        bot.display(),
        starts.display()
    );
    let config = write("crasher.yaml", &pool);
    let results = temp("crasher.jsonl");
    let printed = ok(&tournament(
        &config,
        &results,
        &["--jobs", "1", "--format", "json"],
    ));
    let stats: serde_json::Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(stats["games"], 500);
    let crasher = bot_stats(&stats, "crasher");
    // Each process crashes at the start of its 50th game: games 50, 100, ..., 500 (ids 49, 99,
    // ..., 499), each a crash fault, and a new process starts the next game: 10 processes in
    // all (the issue's "about 11" counted the old extra handshake process), not 500.
    assert_eq!(crasher["faults"]["crash"], 10, "{crasher}");
    let fault_games: Vec<u64> = (1..=10).map(|k| 50 * k - 1).collect();
    assert_eq!(crasher["fault_games"], serde_json::json!(fault_games));
    let pids: Vec<i32> = pids_in(&starts);
    assert_eq!(pids.len(), 10, "{pids:?}");
    for pid in pids {
        assert!(is_gone(pid), "bot process {pid} outlived take5");
    }
}

/// The game lines of a results file as JSON, by game id.
fn games_of(path: &Path) -> Vec<serde_json::Value> {
    sorted_lines(path)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn resume_refuses_the_results_of_another_variant_seed_or_pool_naming_the_field() {
    let config = write("identity.yaml", BUILTINS);
    let results = temp("identity.jsonl");
    ok(&tournament(&config, &results, &["--jobs", "1"]));
    let first = std::fs::read_to_string(&results).unwrap();
    assert!(first.starts_with("{\"take5_results\":1,"), "{first}");
    let others = [
        ("seed", BUILTINS.replace("seed: 11", "seed: 12")),
        ("variant", format!("{BUILTINS}variant: pro\n")),
        (
            "pool.2.timeout_ms",
            BUILTINS.replace("'builtin:highest'}", "'builtin:highest', timeout_ms: 99}"),
        ),
        ("deals", BUILTINS.replace("deals: 6", "deals: 7")),
    ];
    for (field, text) in others {
        let other = write(&format!("identity-{field}.yaml"), &text);
        let err = refused(&tournament(&other, &results, &["--resume"]));
        assert!(
            err.contains("the results are of another tournament: its header's `")
                && err.contains(&format!("`{field}` is ")),
            "{field}: {err}"
        );
    }
    // Nothing was written to the file by the refused runs.
    assert_eq!(std::fs::read_to_string(&results).unwrap(), first);
}

#[test]
fn stats_refuses_two_tournaments_and_reads_a_file_without_header_with_a_warning() {
    let small = BUILTINS.replace("deals: 6", "deals: 1");
    let a = temp("two-a.jsonl");
    let b = temp("two-b.jsonl");
    ok(&tournament(&write("two-a.yaml", &small), &a, &[]));
    let other = small.replace("seed: 11", "seed: 12");
    ok(&tournament(&write("two-b.yaml", &other), &b, &[]));
    let output = take5(&["stats", a.to_str().unwrap(), b.to_str().unwrap()]);
    let err = refused(&output);
    assert!(
        err.contains("are results of different tournaments"),
        "{err}"
    );
    assert!(
        err.contains("`seed` is 11 in the first, 12 in the second"),
        "{err}"
    );
    // A file of an older take5 (no header) still reads, with a warning.
    let old = temp("two-old.jsonl");
    let lines: String = sorted_lines(&a).iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&old, lines).unwrap();
    let output = take5(&["stats", old.to_str().unwrap()]);
    let table = ok(&output);
    // It says that the tournament is not known, rather than make it up.
    assert!(
        table.starts_with("tournament: not known (the results have no header"),
        "{table}"
    );
    let figures = |path: &Path| {
        common::games_figures(&ok(&take5(&[
            "stats",
            path.to_str().unwrap(),
            "--format",
            "json",
        ])))
    };
    assert_eq!(figures(&old), figures(&a));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("warning:") && err.contains("no header"),
        "{err}"
    );
    // And resumes, with the same warning; the run knows what its tournament is.
    let output = tournament(&write("two-old.yaml", &small), &old, &["--resume"]);
    assert_eq!(ok(&output), ok(&take5(&["stats", a.to_str().unwrap()])));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("no header"), "{err}");
}

#[test]
fn a_second_writer_of_a_results_file_is_refused() {
    let config = write("lock.yaml", &BUILTINS.replace("deals: 6", "deals: 1"));
    let results = temp("lock.jsonl");
    ok(&tournament(&config, &results, &[]));
    let held = std::fs::OpenOptions::new()
        .append(true)
        .open(&results)
        .unwrap();
    held.lock().unwrap();
    let err = refused(&tournament(&config, &results, &["--resume"]));
    assert!(
        err.contains("is being written by another take5 (it holds the file's lock)"),
        "{err}"
    );
    drop(held);
    ok(&tournament(&config, &results, &["--resume"]));
}

#[test]
fn tournament_sizes_that_overflow_are_refused_and_a_huge_schedule_is_not_made_up_front() {
    for deals in ["6148914691236517206", "18446744073709551615"] {
        let config = write(
            "huge.yaml",
            &BUILTINS.replace("deals: 6", &format!("deals: {deals}")),
        );
        let err = refused(&tournament(&config, &temp("huge.jsonl"), &[]));
        assert!(
            err.contains(&format!(
                "deals is {deals}: tables x deals x seatings would be more than"
            )),
            "{err}"
        );
    }
    let random = BUILTINS.replace("round-robin", "{random: {tables: 1000000001}}");
    let err = refused(&tournament(
        &write("huge-tables.yaml", &random),
        &temp("huge.jsonl"),
        &[],
    ));
    assert!(err.contains("more than 1000000 tables"), "{err}");
    // 2^62 games: a shard of two of them plays at once, nothing is made per game of the
    // schedule.
    let pool = "bots:
  - {name: a, player: 'builtin:random'}
  - {name: b, player: 'builtin:lowest'}
seats: 2
deals: 2305843009213693952
seed: 1
format: round-robin
";
    let results = temp("huge-shard.jsonl");
    let output = tournament(
        &write("huge-shard.yaml", pool),
        &results,
        &["--shard", "1/2305843009213693952", "--format", "json"],
    );
    let stats: serde_json::Value = serde_json::from_str(&ok(&output)).unwrap();
    assert_eq!(stats["games"], 2);
    let ids: Vec<u64> = games_of(&results)
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [0, 2305843009213693952]);
}

/// Each game of a tournament's record file, by its id: the bytes of its lines.
fn games_by_id(record: &Path) -> std::collections::BTreeMap<u64, String> {
    let mut games = std::collections::BTreeMap::new();
    let mut current = None;
    for line in std::fs::read_to_string(record).unwrap().lines() {
        if line.starts_with("{\"event\":\"game\"") {
            let header: serde_json::Value = serde_json::from_str(line).unwrap();
            let id = header["tournament"]["game"]
                .as_u64()
                .expect("a tournament game");
            assert!(games.insert(id, String::new()).is_none(), "game {id} twice");
            current = Some(id);
        }
        let game = games.get_mut(&current.expect("a header first")).unwrap();
        game.push_str(line);
        game.push('\n');
    }
    games
}

/// Runs the command `take5 tournament ... --replay ID` printed (quietly), after checking that it
/// is one `take5 play` command; returns the record it names.
fn run_replay(printed: &str) -> PathBuf {
    let words = shlex::split(printed.trim()).unwrap();
    assert_eq!(printed.lines().count(), 1, "{printed}");
    assert_eq!(words[..2], ["take5", "play"], "{printed}");
    let record = PathBuf::from(&words[words.iter().position(|w| w == "--record").unwrap() + 1]);
    let _ = std::fs::remove_file(&record);
    let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    args.push("--quiet");
    ok(&take5(&args));
    record
}

/// The first line `take5 show` prints of game `id` of a tournament's record: its id, and its
/// bots by their pool names.
fn shown_title(record: &Path, id: u64, game: &serde_json::Value) -> String {
    let shown = ok(&take5(&[
        "show",
        record.to_str().unwrap(),
        "--game",
        &id.to_string(),
        "--plain",
    ]));
    let names: Vec<&str> = game["seating"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    let title = shown.lines().next().unwrap().to_string();
    assert_eq!(
        title,
        format!("game {id} of classic (3 players): {}", names.join(", "))
    );
    title
}

#[test]
fn every_game_of_a_record_file_is_shown_by_its_id_and_its_replay_command_gives_its_record() {
    let config = write("replay.yaml", &python_pool(1));
    let results = temp("replay.jsonl");
    // Its own folder: the replays are written next to the record.
    let folder = temp("replay-file");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let record = folder.join("games.jsonl");
    let record_arg = record.to_str().unwrap();
    ok(&tournament(
        &config,
        &results,
        &["--record", record_arg, "--jobs", "2"],
    ));
    ok(&take5(&["verify", record_arg]));
    let games = games_of(&results);
    assert_eq!(games.len(), 12);
    let recorded = games_by_id(&record);
    assert_eq!(
        recorded.keys().copied().collect::<Vec<_>>(),
        (0..12).collect::<Vec<_>>()
    );
    for game in &games {
        let id = game["game"].as_u64().unwrap();
        shown_title(&record, id, game);
        let printed = ok(&tournament(
            &config,
            &results,
            &["--record", record_arg, "--replay", &id.to_string()],
        ));
        let replay = run_replay(&printed);
        assert_eq!(replay, folder.join(format!("replay-{id}.jsonl")));
        assert_eq!(
            std::fs::read_to_string(&replay).unwrap(),
            recorded[&id],
            "game {id}"
        );
    }
}

#[test]
fn every_game_of_a_record_folder_is_shown_by_its_id_and_replays_to_its_record() {
    let config = write("replay.yaml", &python_pool(1));
    let results = temp("replay.jsonl");
    let records = temp("replay-records");
    let _ = std::fs::remove_dir_all(&records);
    std::fs::create_dir_all(&records).unwrap();
    let records_arg = records.to_str().unwrap();
    ok(&tournament(
        &config,
        &results,
        &[
            "--record",
            records_arg,
            "--jobs",
            "2",
            "--record-format",
            "compact",
        ],
    ));
    let games = games_of(&results);
    for game in &games {
        let id = game["game"].as_u64().unwrap();
        shown_title(&records, id, game);
    }
    for game in [&games[0], &games[7]] {
        let id = game["game"].as_u64().unwrap();
        let recorded = records.join(format!("game-{id}.jsonl"));
        ok(&take5(&["verify", recorded.to_str().unwrap()]));
        let printed = ok(&tournament(
            &config,
            &results,
            &[
                "--record",
                records_arg,
                "--record-format",
                "compact",
                "--replay",
                &id.to_string(),
            ],
        ));
        assert!(printed.contains(" --record-format 2 "), "{printed}");
        let replay = run_replay(&printed);
        assert_eq!(replay, records.join(format!("replay-{id}.jsonl")));
        assert_eq!(
            std::fs::read(&replay).unwrap(),
            std::fs::read(&recorded).unwrap(),
            "game {id}"
        );
    }
    // A folder is shown one game at a time, named by its id.
    let err = refused(&take5(&["show", records_arg]));
    assert!(
        err.contains("is a folder: name the tournament's game to show with --game ID"),
        "{err}"
    );
    let err = refused(&take5(&["show", records_arg, "--game", "12"]));
    assert!(
        err.contains("the folder holds no record of game 12"),
        "{err}"
    );
}

#[test]
fn a_game_with_house_rules_replays_to_its_record_naming_the_script_from_the_same_folder() {
    let root = temp("replay-house");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("rules")).unwrap();
    std::fs::create_dir_all(root.join("out")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/house/target_100.lua"),
        root.join("rules/target_100.lua"),
    )
    .unwrap();
    std::fs::write(
        root.join("pool.yaml"),
        "bots:
  - {name: r, player: 'builtin:random'}
  - {name: d, player: 'builtin:dodger'}
seats: 2
deals: 2
seed: 3
house: rules/target_100.lua
format: round-robin
",
    )
    .unwrap();
    let run = "take5 tournament pool.yaml --results out/r.jsonl --record out/games.jsonl --jobs 2";
    ok(&take5_in(&root, run));
    let recorded = games_by_id(&root.join("out/games.jsonl"));
    for id in 0..4 {
        let printed = ok(&take5_in(
            &root,
            &format!("take5 tournament pool.yaml --record out/games.jsonl --replay {id}"),
        ));
        assert!(
            printed.contains(" --house rules/target_100.lua "),
            "{printed}"
        );
        ok(&take5_in(&root, &printed));
        let replayed = std::fs::read_to_string(root.join(format!("out/replay-{id}.jsonl")));
        let replayed = replayed.unwrap();
        assert!(replayed.contains("\"house\":{\"path\":\"../rules/target_100.lua\""));
        assert_eq!(replayed, recorded[&id], "game {id}");
    }
}

#[test]
fn a_bot_in_a_folder_of_its_own_replays_there_and_other_time_limits_are_noted() {
    let folder = folder_with_python_bot("replay-dir");
    let slow = format!(
        "slow[timeout_ms=7000,dir={}]=python3 here_bot.py",
        folder.display()
    );
    let quick = format!(
        "quick=python3 {}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scripts/bots/python_bot.py")
            .display()
    );
    let results = temp("replay-dir.jsonl");
    let record = temp("replay-dir-games.jsonl");
    // Two command bots at a table, with other time limits, one in a folder of its own.
    let run = |more: &str| {
        let line = format!(
            "tournament --bot {} --bot {} --seats 2 --seed 1 --tables round-robin --results {} \
             --record {} {more}",
            shlex::try_quote(&slow).unwrap(),
            shlex::try_quote(&quick).unwrap(),
            shlex::try_quote(results.to_str().unwrap()).unwrap(),
            shlex::try_quote(record.to_str().unwrap()).unwrap(),
        );
        let words = shlex::split(&line).unwrap();
        take5(&words.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let out = run("--replay 1");
    assert!(!results.exists(), "--replay plays nothing");
    let printed = ok(&out);
    let seat_1 = format!(
        " --player 'python3 here_bot.py' --pool-name slow --player-dir {} --timeout 7000 ",
        shlex::try_quote(&format!("1={}", folder.display())).unwrap()
    );
    assert!(printed.contains(&seat_1), "{printed}");
    let notes = String::from_utf8_lossy(&out.stderr);
    assert!(
        notes.contains(
            "take5: note: the bots of game 1 have different limits, `take5 play` one: --timeout \
             is the largest (7000 ms)"
        ),
        "{notes}"
    );
    ok(&run("--jobs 2"));
    let replay = run_replay(&printed);
    assert_eq!(
        std::fs::read_to_string(replay).unwrap(),
        games_by_id(&record)[&1]
    );
    let err = refused(&run("--replay 2"));
    assert!(
        err.contains("--replay 2: this tournament has 2 games, ids 0 to 1"),
        "{err}"
    );
}

#[test]
fn take5_play_takes_a_pool_name_and_a_folder_per_player_and_refuses_what_does_not_fit() {
    let players = [
        "play",
        "--player",
        "builtin:random",
        "--player",
        "builtin:lowest",
    ];
    let with = |more: &[&str]| take5(&[&players[..], more].concat());
    let err = refused(&with(&["--tournament-game", "3", "--pool-name", "a"]));
    assert!(
        err.contains(
            "--tournament-game: 1 --pool-name for 2 --player: one for each, in their order"
        ),
        "{err}"
    );
    let both = [
        "--tournament-game",
        "3",
        "--pool-name",
        "a",
        "--pool-name",
        "b",
    ];
    let err = refused(&with(&[&both[..], &["--games", "2"]].concat()));
    assert!(
        err.contains("--tournament-game records one game of a tournament"),
        "{err}"
    );
    assert_eq!(
        with(&["--pool-name", "a", "--pool-name", "b"])
            .status
            .code(),
        Some(2)
    );
    let err = refused(&with(&["--player-dir", "1=."]));
    assert!(
        err.contains("--player-dir 1=.: --player 1 is no bot's command"),
        "{err}"
    );
    let err = refused(&with(&["--player-dir", "2=."]));
    assert!(
        err.contains("--player-dir 2=.: the players are 0 to 1"),
        "{err}"
    );
    // The summary names the bots as the pool does.
    let printed = ok(&with(&both));
    assert!(
        printed.contains("  seat 0  a ") && printed.contains("  seat 1  b "),
        "{printed}"
    );
}

/// Runs the command line `line` (`take5 ...`, as a doc writes it) in `folder`.
fn take5_in(folder: &Path, line: &str) -> Output {
    let words = shlex::split(line.trim()).unwrap();
    assert_eq!(words[0], "take5", "{line}");
    Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(&words[1..])
        .current_dir(folder)
        .output()
        .unwrap()
}

#[test]
fn the_docs_example_shows_game_7_of_the_record_by_its_id_and_replays_it_byte_for_byte() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/tournaments.md")).unwrap();
    let block = |info: &str| common::doc_block(&page, info);
    // The page's commands run in the folder of its files.
    let folder = temp("docs-record");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("tournament.yaml"), block("yaml example")).unwrap();
    let commands = block("sh example-record");
    let (run, show) = commands.trim_end().split_once('\n').unwrap();
    ok(&take5_in(&folder, run));
    let show = show
        .strip_suffix(" | head -1")
        .expect("the first line shown");
    let shown = ok(&take5_in(&folder, show));
    assert_eq!(
        format!("{}\n", shown.lines().next().unwrap()),
        block("text example-show")
    );
    let printed = ok(&take5_in(&folder, &block("sh example-replay-command")));
    assert_eq!(printed, block("text example-replay"));
    ok(&take5_in(&folder, &printed));
    let recorded = games_by_id(&folder.join("example-games.jsonl"));
    assert_eq!(recorded.len(), 120);
    let replayed = std::fs::read_to_string(folder.join("replay-7.jsonl")).unwrap();
    assert_eq!(replayed, recorded[&7]);
    // docs/records.md shows the same game's header, its rules shortened.
    let records_page = std::fs::read_to_string(root.join("docs/records.md")).unwrap();
    let header = replayed.lines().next().unwrap();
    let rules_start = header.find(",\"rules\":").unwrap();
    let rules_end = header.find(",\"tournament\":").unwrap();
    let shortened = format!(
        "{},\"rules\":{{...}}{}\n",
        &header[..rules_start],
        &header[rules_end..]
    );
    assert_eq!(
        shortened,
        common::doc_block(&records_page, "json tournament-header")
    );
}

#[test]
fn bots_from_flags_take_their_time_limit_and_folder() {
    let folder = folder_with_python_bot("flagdir");
    let here = format!(
        "here[timeout_ms=7000,dir={}]=python3 here_bot.py",
        folder.display()
    );
    // A built-in and `here`, two seats, the time limit given by `timeout_flag`.
    let run = |here: &str, timeout_flag: &str, results: &Path| {
        take5(&[
            "tournament",
            "--bot",
            "r=builtin:random",
            "--bot",
            here,
            "--seats",
            "2",
            "--seed",
            "3",
            "--tables",
            "round-robin",
            timeout_flag,
            "900",
            "--results",
            results.to_str().unwrap(),
            "--format",
            "json",
        ])
    };
    let results = temp("flagdir.jsonl");
    let printed = ok(&run(&here, "--timeout", &results));
    no_faults(&serde_json::from_str(&printed).unwrap());
    let header: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&results)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(header["pool"][0]["timeout_ms"], 900);
    assert_eq!(header["pool"][1]["timeout_ms"], 7000);
    assert_eq!(header["pool"][1]["dir"], folder.display().to_string());
    // `--timeout-ms` is the same flag.
    let again = ok(&run(&here, "--timeout-ms", &temp("flagdir-2.jsonl")));
    assert_eq!(again, printed);
    let nowhere = "here[dir=nowhere-at-all]=python3 here_bot.py";
    let err = refused(&run(nowhere, "--timeout", &temp("flagdir-3.jsonl")));
    assert!(
        err.contains("command line: bot here: dir `nowhere-at-all` is not a folder"),
        "{err}"
    );
}

#[test]
fn no_bot_outlives_take5_stopped_by_ctrl_c_or_sigterm() {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/crash_every_50.py");
    for (name, signal) in [("sigint", libc::SIGINT), ("sigterm", libc::SIGTERM)] {
        let starts = temp(&format!("signal-{name}-starts.txt"));
        let pool = format!(
            "bots:
  - {{name: a, player: 'python3 {bot} {starts}', timeout_ms: 10000}}
  - {{name: b, player: 'python3 {bot} {starts}', timeout_ms: 10000}}
  - {{name: lowest, player: 'builtin:lowest'}}
seats: 3
deals: 100000
seed: 3
format: round-robin
",
            bot = bot.display(),
            starts = starts.display()
        );
        let config = write(&format!("signal-{name}.yaml"), &pool);
        let results = temp(&format!("signal-{name}.jsonl"));
        let child = Command::new(env!("CARGO_BIN_EXE_take5"))
            .args(tournament_args(&config, &results, &["--jobs", "2"]))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        assert!(wait_for_lines(&results, 10), "{name}: no 10 lines");
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let output = child.wait_with_output().unwrap();
        assert!(!output.status.success(), "{name}");
        let pids: Vec<i32> = pids_in(&starts);
        // Two bots on each of two jobs (a bot still starting up may not have written its pid:
        // Python can take seconds to start on a loaded machine).
        assert!((2..=4).contains(&pids.len()), "{name}: {pids:?}");
        // A killed process may take a moment to be gone: a generous limit, not a timing.
        wait_until(|| pids.iter().all(|&p| is_gone(p)));
        let alive: Vec<i32> = pids.iter().copied().filter(|&p| !is_gone(p)).collect();
        assert!(alive.is_empty(), "{name}: bots {alive:?} outlived take5");
    }
}

#[test]
fn resume_refuses_a_file_without_header_whose_games_are_of_another_seed_naming_the_game() {
    let small = BUILTINS.replace("deals: 6", "deals: 1");
    let played = temp("foreign-seed.jsonl");
    ok(&tournament(
        &write("foreign-seed.yaml", &small),
        &played,
        &[],
    ));
    // The same games without the header, as an older take5 wrote them, half of them.
    let old = temp("foreign-old.jsonl");
    let lines = sorted_lines(&played);
    let half: String = lines[..lines.len() / 2]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&old, &half).unwrap();
    let other = write("foreign-other.yaml", &small.replace("seed: 11", "seed: 12"));
    let err = refused(&tournament(&other, &old, &["--resume"]));
    assert!(
        err.contains("game 0 is not one of this tournament's: its seed is"),
        "{err}"
    );
    // Nothing was added to the file.
    assert_eq!(std::fs::read_to_string(&old).unwrap(), half);
    // A game with no seed cannot be checked without a header either.
    let seedless = temp("foreign-seedless.jsonl");
    let first = lines[0].replace(",\"seed\":", ",\"was_seed\":");
    let first = {
        let mut game: serde_json::Value = serde_json::from_str(&first).unwrap();
        game.as_object_mut().unwrap().remove("was_seed");
        game.to_string()
    };
    std::fs::write(&seedless, format!("{first}\n")).unwrap();
    let err = refused(&tournament(
        &write("foreign-same.yaml", &small),
        &seedless,
        &["--resume"],
    ));
    assert!(
        err.contains("game 0 is not one of this tournament's: it has no seed"),
        "{err}"
    );
}

/// Starts `take5 tournament config --results results` with `extra`, waits until the results
/// file holds `lines` lines, and kills it (SIGKILL); asserts it had not finished.
fn kill_after_lines(config: &Path, results: &Path, extra: &[&str], lines: usize, total: usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(tournament_args(config, results, extra))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(
        wait_for_lines(results, lines),
        "the run never wrote {lines} lines"
    );
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let written = std::fs::read_to_string(results).unwrap().lines().count();
    assert!(written < total + 1, "the run finished before it was killed");
}

/// The `player` of each bot of `python_pool`, by name.
fn python_pool_player(name: &str) -> String {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bots/python_bot.py");
    match name {
        "python" => format!("python3 {}", bot.display()),
        builtin => format!("builtin:{builtin}"),
    }
}

/// The seed and players of each game header of a record file, in order.
fn recorded_games(path: &Path) -> Vec<(u64, Vec<String>)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"event\":\"game\""))
        .map(|l| {
            let header: serde_json::Value = serde_json::from_str(l).unwrap();
            let players = header["players"].as_array().unwrap();
            (
                header["seed"].as_u64().unwrap(),
                players
                    .iter()
                    .map(|p| p.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect()
}

/// What the record of a results line should say: its seed and its bots' players.
fn expected_header(game: &serde_json::Value) -> (u64, Vec<String>) {
    let seating = game["seating"].as_array().unwrap();
    (
        game["seed"].as_u64().unwrap(),
        seating
            .iter()
            .map(|name| python_pool_player(name.as_str().unwrap()))
            .collect(),
    )
}

#[test]
fn a_record_file_killed_and_resumed_holds_every_game_of_the_results_once_and_verifies() {
    let config = write("record-kill.yaml", &python_pool(3));
    let results = temp("record-kill.jsonl");
    let record = temp("record-kill-games.jsonl");
    let total = 4 * 3 * 3;
    let extra = ["--jobs", "2", "--record", record.to_str().unwrap()];
    kill_after_lines(&config, &results, &extra, total / 3, total);
    let resumed: Vec<&str> = extra.iter().copied().chain(["--resume"]).collect();
    ok(&tournament(&config, &results, &resumed));
    // One for one, in the order of the results file (the order the games finished).
    let games: Vec<serde_json::Value> = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), total);
    let expected: Vec<_> = games.iter().map(expected_header).collect();
    assert_eq!(recorded_games(&record), expected);
    ok(&take5(&["verify", record.to_str().unwrap()]));
    // Without --resume, a record that holds games is not overwritten.
    let before = std::fs::read(&record).unwrap();
    let err = refused(&tournament(&config, &temp("record-kill-2.jsonl"), &extra));
    assert!(err.contains("exists: continue it with --resume"), "{err}");
    assert!(
        !temp("record-kill-2.jsonl").exists(),
        "a refused run made its results file"
    );
    assert_eq!(std::fs::read(&record).unwrap(), before);
}

#[test]
fn a_record_cut_in_the_middle_of_a_game_is_cut_back_to_the_results_on_resume() {
    let config = write("record-torn.yaml", BUILTINS);
    let results = temp("record-torn.jsonl");
    let record = temp("record-torn-games.jsonl");
    // One job: the games finish in the order of their ids, in both runs.
    let extra = ["--jobs", "1", "--record", record.to_str().unwrap()];
    ok(&tournament(&config, &results, &extra));
    let whole = std::fs::read(&record).unwrap();
    // As a kill leaves it: 10 results; the record with those 10 games, two more whole (their
    // result lines never written) and a part of the next.
    let text = std::fs::read_to_string(&results).unwrap();
    let kept: String = text.lines().take(11).map(|l| format!("{l}\n")).collect();
    std::fs::write(&results, kept).unwrap();
    let starts: Vec<usize> = String::from_utf8_lossy(&whole)
        .match_indices("{\"event\":\"game\"")
        .map(|(at, _)| at)
        .collect();
    std::fs::write(&record, &whole[..starts[12] + 30]).unwrap();
    let resumed: Vec<&str> = extra.iter().copied().chain(["--resume"]).collect();
    ok(&tournament(&config, &results, &resumed));
    assert_eq!(std::fs::read(&record).unwrap(), whole);
    ok(&take5(&["verify", record.to_str().unwrap()]));
}

#[test]
fn resume_refuses_a_record_whose_games_are_other_rotations_of_the_same_deals() {
    let config = write("record-swapped.yaml", BUILTINS);
    let results = temp("record-swapped.jsonl");
    let record = temp("record-swapped-games.jsonl");
    let extra = ["--jobs", "1", "--record", record.to_str().unwrap()];
    ok(&tournament(&config, &results, &extra));
    // Games 0 and 1 swapped: the same deal (seed) and seats, but not the results' games (one
    // job: the record holds the others in the order of their ids, as the results file).
    let mut games = games_by_id(&record);
    let (first, second) = (games.remove(&0).unwrap(), games.remove(&1).unwrap());
    let swapped: String = [second, first]
        .into_iter()
        .chain(games.into_values())
        .collect();
    std::fs::write(&record, &swapped).unwrap();
    let resumed: Vec<&str> = extra.iter().copied().chain(["--resume"]).collect();
    let err = refused(&tournament(&config, &results, &resumed));
    assert!(
        err.contains("the record's game 1 is not game 0 of the results file"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap(), swapped);
}

#[test]
fn a_record_folder_killed_and_resumed_holds_a_record_of_each_game_of_the_results() {
    let config = write("record-dir.yaml", &python_pool(3));
    let results = temp("record-dir.jsonl");
    let dir = temp("record-dir");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let total = 4 * 3 * 3;
    let extra = ["--jobs", "2", "--record", dir.to_str().unwrap()];
    kill_after_lines(&config, &results, &extra, total / 3, total);
    // A record cut short by the kill, as an older take5 could leave it.
    std::fs::write(dir.join("game-35.jsonl.part"), "{\"event\":\"ga").unwrap();
    let resumed: Vec<&str> = extra.iter().copied().chain(["--resume"]).collect();
    ok(&tournament(&config, &results, &resumed));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = (0..total).map(|id| format!("game-{id}.jsonl")).collect();
    expected.sort();
    assert_eq!(names, expected);
    for game in games_of(&results) {
        let path = dir.join(format!("game-{}.jsonl", game["game"]));
        assert_eq!(recorded_games(&path), [expected_header(&game)]);
        ok(&take5(&["verify", path.to_str().unwrap()]));
    }
    let err = refused(&tournament(&config, &temp("record-dir-2.jsonl"), &extra));
    assert!(err.contains("holds game records already"), "{err}");
}

/// Runs `take5 tournament config --results results` with `extra` where no file may grow past
/// `bytes` (writes past it fail, as on a full disk); asserts it ended with exit status 2 and
/// said it cannot write `full`.
fn tournament_on_a_full_disk(
    config: &Path,
    results: &Path,
    extra: &[&str],
    bytes: u64,
    full: &Path,
) {
    let output = common::take5_limited(
        &tournament_args(config, results, extra),
        libc::RLIMIT_FSIZE,
        bytes,
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("cannot write {}: File too large", full.display())),
        "{err}"
    );
}

#[test]
fn a_full_disk_under_the_results_ends_the_run_clearly_and_resume_completes_it() {
    let config = write("full-results.yaml", BUILTINS);
    let expected = ok(&tournament(&config, &temp("full-results-whole.jsonl"), &[]));
    let results = temp("full-results.jsonl");
    // 72 games of about 150 bytes after a header of about 1 KB: full after about 40.
    tournament_on_a_full_disk(&config, &results, &["--jobs", "2"], 7 << 10, &results);
    // Whole lines, the header's included (the last, cut short by the full disk, is not).
    let kept = std::fs::read_to_string(&results)
        .unwrap()
        .matches('\n')
        .count()
        - 1;
    assert!(kept > 0 && kept < 72, "{kept} games kept");
    assert_eq!(ok(&tournament(&config, &results, &["--resume"])), expected);
}

#[test]
fn a_full_disk_under_the_record_keeps_results_and_record_in_step_for_resume() {
    let config = write("full-record.yaml", BUILTINS);
    let results = temp("full-record.jsonl");
    let record = temp("full-record-games.jsonl");
    let extra = ["--jobs", "2", "--record", record.to_str().unwrap()];
    // A record of a game of built-ins takes about 10 KB: full after a few games.
    tournament_on_a_full_disk(&config, &results, &extra, 48 << 10, &record);
    let kept = common::game_lines(&results).len();
    assert!(kept > 0 && kept < 72, "{kept} games kept");
    let resumed: Vec<&str> = extra.iter().copied().chain(["--resume"]).collect();
    ok(&tournament(&config, &results, &resumed));
    let games = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"event\":\"game\""))
        .count();
    assert_eq!(games, 72);
    ok(&take5(&["verify", record.to_str().unwrap()]));
}

#[test]
fn shards_share_a_record_folder_and_a_resume_keeps_the_other_shard_s_records() {
    let config = write(
        "record-shards.yaml",
        &BUILTINS.replace("deals: 6", "deals: 1"),
    );
    let dir = temp("record-shards");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let record = ["--record", dir.to_str().unwrap()];
    for shard in ["1/2", "2/2"] {
        let results = temp(&format!("record-shards-{}.jsonl", &shard[..1]));
        let extra: Vec<&str> = record.iter().copied().chain(["--shard", shard]).collect();
        ok(&tournament(&config, &results, &extra));
        let resumed: Vec<&str> = extra.iter().copied().chain(["--resume"]).collect();
        ok(&tournament(&config, &results, &resumed));
    }
    let mut ids: Vec<u64> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name["game-".len()..name.len() - ".jsonl".len()]
                .parse()
                .unwrap()
        })
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..12).collect::<Vec<u64>>());
}

/// A tournament has no terminal seat: `human` as a bot's player is refused (rather than run as
/// a command named human), from flags and from a pool file.
#[test]
fn a_human_player_is_refused_in_a_tournament() {
    let results = temp("human.jsonl");
    for player in ["human", "human:60000"] {
        let bot = format!("h={player}");
        let output = take5(&[
            "tournament",
            "--bot",
            &bot,
            "--bot",
            "b=builtin:random",
            "--seats",
            "2",
            "--seed",
            "1",
            "--tables",
            "round-robin",
            "--results",
            results.to_str().unwrap(),
        ]);
        let err = refused(&output);
        assert!(
            err.contains(&format!(
                "command line: bot h: `{player}` is a person at the terminal, a seat only \
                 `take5 play` has"
            )),
            "{err}"
        );
    }
    let config = write(
        "human.yaml",
        "bots: [{name: h, player: human}, {name: b, player: 'builtin:random'}]\n\
         seats: 2\nseed: 1\nformat: round-robin\n",
    );
    let err = refused(&tournament(&config, &results, &[]));
    assert!(
        err.contains("human.yaml:1:15: bot h: `human` is a person at the terminal"),
        "{err}"
    );
    assert!(!results.exists());
}
