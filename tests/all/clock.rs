//! Game clocks (`--clock BASE+INC`): a clocked bot plays on its clock, is told its time left on
//! each `ask`, and loses on time when it runs out. No test depends on timing beyond huge
//! margins: the fast bot has 10 s for a game it plays in well under one, the slow one sleeps a
//! minute against a clock of one second.

use crate::common::{build_c_example_bot, ok, take5, temp};
use std::path::Path;

/// The lines of every record in `folder` (a tournament's `--record` folder), by file.
fn records(folder: &Path) -> Vec<(std::path::PathBuf, String)> {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path, text)
        })
        .collect()
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The flags of a tournament of the shell bot on a clock of 10s+100ms against three built-in
/// bots at a 4-player classic table, its results in `results`, its records in `folder`.
fn clocked_tournament<'a>(results: &'a Path, folder: &'a Path, more: &[&'a str]) -> Vec<&'a str> {
    let mut flags = vec![
        "tournament",
        "--bot",
        "shell[clock=10s+100ms]=sh scripts/bots/shell_bot.sh",
        "--bot",
        "lowest=builtin:lowest",
        "--bot",
        "dodger=builtin:dodger",
        "--bot",
        "random=builtin:random",
        "--seats",
        "4",
        "--seed",
        "7",
        "--tables",
        "round-robin",
        "--results",
        results.to_str().unwrap(),
        "--record",
        folder.to_str().unwrap(),
    ];
    flags.extend(more);
    flags
}

#[test]
fn a_bot_with_a_clock_of_10s_plus_100ms_plays_a_4_player_classic_tournament() {
    let results = temp("clocked.results.jsonl");
    let folder = temp("clocked-records");
    std::fs::create_dir_all(&folder).unwrap();
    let output = take5(&clocked_tournament(
        &results,
        &folder,
        &["--times", "--jobs", "1"],
    ));
    let printed = ok(&output);
    // Four rotations of one deal, and no fault: the clock was never near its end.
    assert!(printed.contains("\n4 games\n"), "{printed}");
    assert!(
        printed.contains("  shell   sh scripts/bots/shell_bot.sh (clock 10000+100 ms)"),
        "{printed}"
    );
    let results_text = std::fs::read_to_string(&results).unwrap();
    assert!(!results_text.contains("\"kind\""), "{results_text}");
    // --times shows the least time left on the clocked bot's clock; the others have none.
    let times = printed
        .split("decision times")
        .nth(1)
        .expect("the times table");
    assert!(times.contains("least left"), "{times}");
    let shell = times.lines().find(|l| l.starts_with("shell ")).unwrap();
    let least: u64 = shell.split_whitespace().last().unwrap().parse().unwrap();
    // At most the base: the first ask had all of it (and no decision took 10 s).
    assert!(least > 0 && least <= 10_000, "{shell}");
    // The results' pool names the clock.
    assert!(
        results_text.contains("\"clock\":\"10000+100\""),
        "{results_text}"
    );
    // `take5 stats --times` has it too: the CSV's last column, the JSON's `least_left_ms`.
    let csv = ok(&take5(&[
        "stats",
        results.to_str().unwrap(),
        "--times",
        "--format",
        "csv",
    ]));
    let header = csv.lines().next().unwrap();
    assert!(header.ends_with(",max_ms,least_left_ms"), "{header}");
    let row = csv.lines().find(|l| l.starts_with("shell,")).unwrap();
    assert!(row.ends_with(&format!(",{least}")), "{row}");
    let json: serde_json::Value = serde_json::from_str(&ok(&take5(&[
        "stats",
        results.to_str().unwrap(),
        "--times",
        "--format",
        "json",
    ])))
    .unwrap();
    assert_eq!(json["times"][0]["least_left_ms"], least);
    let games = records(&folder);
    assert_eq!(games.len(), 4);
    for (path, text) in &games {
        ok(&take5(&["verify", path.to_str().unwrap()]));
        let lines = json_lines(text);
        let seat = lines[0]["tournament"]["bots"]
            .as_array()
            .unwrap()
            .iter()
            .position(|b| b == "shell")
            .unwrap();
        let clocks = lines[0]["clocks"].as_array().unwrap();
        for (s, clock) in clocks.iter().enumerate() {
            match s == seat {
                true => assert_eq!(
                    clock,
                    &serde_json::json!({"base_ms": 10000, "increment_ms": 100})
                ),
                false => assert!(clock.is_null(), "{clock}"),
            }
        }
        // A clock line for each of the shell bot's decisions: 10 a round.
        let timed: Vec<_> = lines.iter().filter(|l| l["event"] == "clock").collect();
        let rounds = lines.iter().filter(|l| l["event"] == "round_end").count();
        assert!(
            timed.len() >= 10 * rounds,
            "{} in {rounds} rounds",
            timed.len()
        );
        assert!(timed.iter().all(|l| l["seat"] == seat));
        assert_eq!(timed[0]["left_us"], 10_000_000);
    }
    // The replay command plays the game again on the same clock; its record verifies.
    let replay = take5(&clocked_tournament(&results, &folder, &["--replay", "2"]));
    let command = ok(&replay);
    assert!(command.contains(" --clock 10000+100 "), "{command}");
    assert!(!command.contains("--timeout "), "{command}");
    let notes = String::from_utf8_lossy(&replay.stderr);
    assert!(notes.contains("game 2 was played on a clock"), "{notes}");
    let words = shlex::split(command.trim()).unwrap();
    ok(&take5(
        &words[1..].iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    let replayed = folder.join("replay-2.jsonl");
    ok(&take5(&["verify", replayed.to_str().unwrap()]));
    let replayed = json_lines(&std::fs::read_to_string(&replayed).unwrap());
    let original = json_lines(&std::fs::read_to_string(folder.join("game-2.jsonl")).unwrap());
    assert_eq!(replayed[0]["clocks"], original[0]["clocks"]);
    // verify checks the clock's arithmetic: a time left the lines before do not give is refused.
    let (path, text) = &games[0];
    let doctored = text.replacen("\"left_us\":10000000", "\"left_us\":9000000", 1);
    assert_ne!(&doctored, text);
    let bad = temp("doctored.jsonl");
    std::fs::write(&bad, doctored).unwrap();
    let refused = take5(&["verify", bad.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1), "{path:?}");
    let said = String::from_utf8_lossy(&refused.stdout).to_string()
        + &String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("clock had 10000000 us left, not 9000000"),
        "{said}"
    );
}

#[test]
fn a_bot_that_sleeps_far_past_its_clock_loses_on_time_and_the_game_goes_on() {
    let record = temp("sleeper.jsonl");
    let output = take5(&[
        "play",
        "--player",
        "tests/bots/clock_sleeper.sh",
        "--player",
        "builtin:lowest",
        "--player",
        "builtin:dodger",
        "--player",
        "builtin:random",
        "--seed",
        "3",
        "--clock",
        "1s+0",
        "--record",
        record.to_str().unwrap(),
    ]);
    let printed = ok(&output);
    // The fault names the clock; the bot was told its clock on its ask (its stderr shows it).
    assert!(
        printed.contains("fault: seat 0 (sleeper: tests/bots/clock_sleeper.sh) clock in round 1 turn 1: lost on time"),
        "{printed}"
    );
    assert!(
        printed.contains("time_left_ms=1000 increment_ms=0"),
        "{printed}"
    );
    ok(&take5(&["verify", record.to_str().unwrap()]));
    let lines = json_lines(&std::fs::read_to_string(&record).unwrap());
    let faults: Vec<_> = lines.iter().filter(|l| l["event"] == "fault").collect();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0]["kind"], "clock");
    // Its only clock line measured the minute's sleep cut short at the clock's end: past the
    // second it had.
    let timed: Vec<_> = lines.iter().filter(|l| l["event"] == "clock").collect();
    assert_eq!(timed.len(), 1, "{timed:?}");
    assert!(timed[0]["took_us"].as_u64().unwrap() > 1_000_000);
    // docs/records.md shows these two lines (the times as measured once): the same keys, the
    // same seat, round, turn and kind.
    let page = std::fs::read_to_string("docs/records.md").unwrap();
    let shown = json_lines(&crate::common::doc_block(&page, "jsonl clocked"));
    let keys = |line: &serde_json::Value| -> Vec<String> {
        line.as_object().unwrap().keys().cloned().collect()
    };
    for (shown, recorded) in shown.iter().zip([timed[0], faults[0]]) {
        assert_eq!(keys(shown), keys(recorded));
        for key in ["event", "seat", "round", "turn", "kind", "left_us"] {
            assert_eq!(shown.get(key), recorded.get(key), "{key}");
        }
    }
    // `take5 show` tells the clock's times with the fault.
    let shown = ok(&take5(&["show", "--plain", record.to_str().unwrap()]));
    assert!(
        shown.contains("seat 0's clock: 1000 ms left, and it took 1"),
        "{shown}"
    );
    assert!(
        shown.contains("fault of seat 0: clock: lost on time"),
        "{shown}"
    );
    // The game went on to its end, the fallback playing seat 0's cards.
    let last = lines.last().unwrap();
    assert_eq!(last["event"], "game_end");
    let reveals = lines.iter().filter(|l| l["event"] == "reveal").count();
    assert!(reveals >= 10, "{reveals}");
}

#[test]
fn a_bad_clock_is_refused_saying_what_and_where() {
    for (spec, said) in [
        (
            "10x+5",
            "clock `10x+5`: the base (column 1, `10x`) has the unit `x`, not ms, s or m",
        ),
        (
            "10s+fast",
            "clock `10s+fast`: the increment (column 5, `fast`) has the unit `fast`",
        ),
        (
            "0+100",
            "clock `0+100`: the base (column 1) must be above 0",
        ),
        ("+100", "the base (column 1, ``) is not a whole number"),
    ] {
        let output = take5(&[
            "play",
            "-p",
            "builtin:lowest",
            "-p",
            "builtin:dodger",
            "--clock",
            spec,
        ]);
        assert_eq!(output.status.code(), Some(2), "{spec}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("take5: "), "{stderr}");
        assert!(stderr.contains(said), "{spec}: {stderr}");
    }
    // In a tournament file the error names the file, line and column.
    let file = temp("bad-clock.yaml");
    std::fs::write(
        &file,
        "bots:\n  - name: a\n    player: builtin:lowest\n    clock: 5s+1h\n  - name: b\n    player: builtin:dodger\nseats: 2\nseed: 1\nformat: round-robin\n",
    )
    .unwrap();
    let output = take5(&["tournament", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bad-clock.yaml:4:12: bot a: clock `5s+1h`: the increment (column 4, `1h`) has the unit `h`"),
        "{stderr}"
    );
}

#[test]
fn the_kits_example_bots_play_on_a_clock() {
    let record = temp("kits.jsonl");
    // The C kit's bot reads no clock: the keys it does not know are ignored, as the protocol
    // asks.
    let c_bot = build_c_example_bot(&temp("c-kit-clock"));
    let output = take5(&[
        "play",
        "--player",
        "python3 sdk/python/example_bot.py",
        "--player",
        "node sdk/js/example_bot.mjs",
        "--player",
        "builtin:dodger",
        "--player",
        c_bot.to_str().unwrap(),
        "--seed",
        "11",
        "--clock",
        "60s+1s",
        "--clock-margin",
        "1000",
        "--record",
        record.to_str().unwrap(),
    ]);
    let printed = ok(&output);
    assert!(!printed.contains("fault:"), "{printed}");
    ok(&take5(&["verify", record.to_str().unwrap()]));
    let lines = json_lines(&std::fs::read_to_string(&record).unwrap());
    assert!(lines.iter().all(|l| l["event"] != "fault"));
    assert_eq!(
        lines[0]["clocks"][0],
        serde_json::json!({"base_ms": 60000, "increment_ms": 1000, "margin_ms": 1000})
    );
    // The program bots were timed at every decision (a card each turn, and each row they
    // chose), the built-in bot never.
    let timed = |seat: u64| {
        lines
            .iter()
            .filter(|l| l["event"] == "clock" && l["seat"] == seat)
            .count()
    };
    let rounds = lines.iter().filter(|l| l["event"] == "round_end").count();
    assert!(timed(0) >= 10 * rounds, "{} in {rounds} rounds", timed(0));
    assert!(timed(1) >= 10 * rounds, "{} in {rounds} rounds", timed(1));
    assert_eq!(timed(2), 0);
    assert!(timed(3) >= 10 * rounds, "{} in {rounds} rounds", timed(3));
}

#[test]
fn selftest_holds_a_bot_to_a_clock() {
    let output = take5(&[
        "selftest",
        "node sdk/js/example_bot.mjs",
        "--variant",
        "classic",
        "--clock",
        "60s+1s",
        "--format",
        "json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&ok(&output)).unwrap();
    assert_eq!(report["clock"], "60000+1000");
    assert_eq!(report["passed"], true, "{report}");
}

#[test]
fn a_pool_gives_its_clock_and_a_bot_its_own_for_time_odds() {
    let file = temp("odds.yaml");
    std::fs::write(
        &file,
        "bots:\n  - {name: quick, player: 'sh scripts/bots/shell_bot.sh', clock: 5s+50ms}\n  - {name: steady, player: 'sh scripts/bots/shell_bot.sh'}\n  - {name: lowest, player: 'builtin:lowest'}\nseats: 3\nseed: 4\nclock: 20s+200ms\nclock_margin_ms: 500\nformat: round-robin\n",
    )
    .unwrap();
    let results = temp("odds.results.jsonl");
    let folder = temp("odds-records");
    std::fs::create_dir_all(&folder).unwrap();
    let printed = ok(&take5(&[
        "tournament",
        file.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
        "--record",
        folder.to_str().unwrap(),
        "--record-format",
        "compact",
    ]));
    assert!(
        printed.contains("(clock 5000+50, margin 500 ms)"),
        "{printed}"
    );
    assert!(
        printed.contains("(clock 20000+200, margin 500 ms)"),
        "{printed}"
    );
    let clock = |base: u64, increment: u64| serde_json::json!({"base_ms": base, "increment_ms": increment, "margin_ms": 500});
    for (path, text) in records(&folder) {
        // Compact records verify with their clock lines among the turn lines.
        ok(&take5(&["verify", path.to_str().unwrap()]));
        let header = &json_lines(text.lines().next().unwrap())[0];
        let bots = header["tournament"]["bots"].as_array().unwrap();
        for (seat, bot) in bots.iter().enumerate() {
            let expected = match bot.as_str().unwrap() {
                "quick" => clock(5000, 50),
                "steady" => clock(20000, 200),
                _ => serde_json::Value::Null,
            };
            assert_eq!(header["clocks"][seat], expected, "{bot}");
        }
        assert!(text.contains("{\"event\":\"clock\""), "{text}");
    }
}

#[test]
fn a_clock_runs_down_by_each_decision_and_up_by_the_increment_and_stops_when_out() {
    use take5::seat::{Clock, ClockReading, RunningClock};
    let clock = Clock::parse("1s+100ms").unwrap();
    assert_eq!(
        (clock.base_ms, clock.increment_ms, clock.margin_ms),
        (1000, 100, 0)
    );
    assert_eq!(Clock::parse("60000+500").unwrap().spec(), "60000+500");
    assert_eq!(Clock::parse("2m").unwrap().spec(), "120000+0");
    let mut running = RunningClock::new(Clock {
        margin_ms: 50,
        ..clock
    });
    // 300 ms of 1000: 700 left, and 100 more.
    assert!(!running.take(300_000));
    assert_eq!(
        running.reading(),
        ClockReading {
            left_ms: 800,
            increment_ms: 100
        }
    );
    // 830 ms of 800 is within the margin of 50: not a loss, the clock at 0 and the increment.
    assert!(!running.take(830_000));
    assert_eq!(running.left_us, 100_000);
    // 150.001 ms of 100 and a margin of 50: lost on time, the clock stopped at 0.
    assert!(running.take(150_001));
    assert!(running.lost);
    assert_eq!(running.left_us, 0);
}
