//! The circle game through the binary: full games of 2 to 6 players between built-ins and the
//! example bots, their records verified, a tampered record refused, house rules refused, and a
//! failed bot's seat played by the fallback the same way every time.

use crate::common;

use common::{take5, temp};
use std::process::Command;

/// Plays `games` circle games between `players` with the record at `name`; checks the record
/// verifies and returns the summary printed.
fn play_and_verify(players: &[&str], games: &str, name: &str) -> String {
    let record = temp(name);
    let mut args = vec![
        "play",
        // Bots over pipes on a loaded machine: a limit no healthy bot meets by accident.
        "--timeout",
        "60000",
        "--variant",
        "circle",
        "--seed",
        "5",
        "--games",
        games,
    ];
    for p in players {
        args.extend(["--player", p]);
    }
    args.extend(["--record", record.to_str().unwrap()]);
    let out = take5(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains(r#""variant":"circle""#));
    let games: usize = games.parse().unwrap();
    assert_eq!(text.matches(r#"{"event":"game_end""#).count(), games);
    // With the rulebook's deal every row is taken by the end: one collect per table card.
    let rows = [0, 0, 7, 9, 12, 15, 15][players.len()];
    assert_eq!(text.matches(r#"{"event":"collect""#).count(), rows * games);
    verified(&record);
    String::from_utf8(out.stdout).unwrap()
}

/// `take5 play --variant circle` with `args` after it.
fn play(args: &[&str]) -> std::process::Output {
    take5(&[&["play", "--variant", "circle"], args].concat())
}

/// Asserts that `take5 play --variant circle` with `args` is refused as bad input, saying
/// `why`.
fn refused(args: &[&str], why: &str) {
    let out = play(args);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(why), "{stderr}");
}

fn have(program: &str) -> bool {
    let found = Command::new(program)
        .arg("-c")
        .arg("exit 0")
        .output()
        .is_ok();
    if !found {
        eprintln!("SKIPPED: {program} is not installed");
    }
    found
}

/// The faults column of `player`'s line in the summary (`-` for none; a bot is named by its
/// hello): the first line after the games that names the player, in the table of players.
fn faults(summary: &str, player: &str) -> String {
    let line = summary
        .lines()
        // The bots' table (after the paired one, which names players too).
        .skip_while(|l| !(l.starts_with("bot ") && l.ends_with("faults")))
        .find(|l| l.contains(player))
        .unwrap_or_else(|| panic!("{player} in {summary}"));
    line.split_whitespace().last().unwrap().to_string()
}

#[test]
fn built_ins_play_two_to_six_players_and_the_records_verify() {
    let all = [
        "builtin:random",
        "builtin:dodger",
        "builtin:lowest",
        "builtin:highest",
        "builtin:random",
        "builtin:dodger",
    ];
    for seats in 2..=6 {
        let summary = play_and_verify(&all[..seats], "2", &format!("builtins-{seats}.jsonl"));
        // The circle game's totals are points won: the summary says which total is better.
        assert!(
            summary.contains("mean total") && summary.contains("total: points, higher is better"),
            "{summary}"
        );
    }
}

#[test]
fn the_example_bots_play_two_and_six_player_games_without_faults() {
    if !have("python3") || !have("sh") {
        return;
    }
    let python = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/bots/python_bot.py");
    let shell = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/bots/shell_bot.sh");
    let (python, shell) = (format!("python3 {python}"), format!("sh {shell}"));
    let summary = play_and_verify(&[&python, &shell], "2", "bots-2.jsonl");
    assert_eq!(faults(&summary, "python_bot"), "-", "{summary}");
    assert_eq!(faults(&summary, "shell_bot"), "-", "{summary}");
    let six = [
        python.as_str(),
        shell.as_str(),
        "builtin:random",
        "builtin:dodger",
        "builtin:lowest",
        "builtin:highest",
    ];
    let summary = play_and_verify(&six, "1", "bots-6.jsonl");
    assert_eq!(faults(&summary, "python_bot"), "-", "{summary}");
    assert_eq!(faults(&summary, "shell_bot"), "-", "{summary}");
}

#[test]
fn seven_players_and_a_setting_the_circle_game_lacks_are_refused() {
    let random = ["--player", "builtin:random"];
    refused(&random.repeat(7), "7 players asked for");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/house/three_rounds.lua"
    );
    refused(
        &[&["--house", script][..], &random.repeat(2)].concat(),
        "setting rounds is not a setting of the circle variant: the circle game is one round",
    );
}

/// Plays one game of `builtin:dodger` against `builtin:random` with `args` added, recorded at
/// `name`; returns the record's path.
fn recorded(args: &[&str], name: &str) -> std::path::PathBuf {
    let record = temp(name);
    let players = ["--player", "builtin:dodger", "--player", "builtin:random"];
    let out = play(&[args, &players, &["--record", record.to_str().unwrap()]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    record
}

/// Asserts that `take5 verify` accepts the record at `record`; returns its text.
fn verified(record: &std::path::Path) -> String {
    let out = take5(&["verify", record.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    std::fs::read_to_string(record).unwrap()
}

/// A settings-only house script replaces the colours; the record names it and verifies.
#[test]
fn a_house_script_replaces_the_colours() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/house/circle_all_green.lua"
    );
    let text = verified(&recorded(
        &["--seed", "4", "--house", script],
        "house.jsonl",
    ));
    assert!(text.contains(r#""house":{"path":"#), "{text}");
    assert!(!text.contains(r#""red""#) && !text.contains(r#""points":-"#));
}

/// A record whose number card is placed on the wrong row is refused at that line.
#[test]
fn verify_names_a_card_placed_on_the_wrong_row() {
    let record = recorded(&["--seed", "8"], "tampered.jsonl");
    let mut lines: Vec<String> = verified(&record).lines().map(String::from).collect();
    let value = |l: &str| serde_json::from_str::<serde_json::Value>(l).unwrap();
    let at = (0..lines.len())
        .find(|&i| value(&lines[i])["event"] == "place" && value(&lines[i])["row"] != 0)
        .expect("a card placed beyond row 0");
    let mut place = value(&lines[at]);
    place["row"] = 0.into();
    lines[at] = place.to_string();
    std::fs::write(&record, lines.join("\n") + "\n").unwrap();
    let out = take5(&["verify", record.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&format!(":{}:", at + 1)), "{said}");
}

/// A deck file replaces the deck: here every card is green, so no row is worth less than
/// nothing, and the record carries the deck, so it verifies without the file.
#[test]
fn a_deck_file_replaces_the_colours() {
    let deck = temp("green.yaml");
    let bullheads = vec!["1"; 98].join(", ");
    std::fs::write(&deck, format!("lowest: 1\nbullheads: [{bullheads}]\n")).unwrap();
    let args = ["--seed", "2", "--deck", deck.to_str().unwrap()];
    let text = verified(&recorded(&args, "green.jsonl"));
    assert!(!text.contains(r#""red""#));
    assert!(
        !text.contains(r#""points":-"#),
        "no red card, no negative row"
    );
    std::fs::write(&deck, "lowest: 1\nbullheads: [1, 2]\nred: [7]\n").unwrap();
    refused(
        &[
            "--deck",
            deck.to_str().unwrap(),
            "--player",
            "builtin:random",
            "--player",
            "builtin:random",
        ],
        "red card 7 is not in the deck",
    );
}

/// A bot that fails is played by the referee's fallback; the record is the same each time and
/// verifies.
#[test]
fn the_fallback_plays_a_failed_seat_deterministically() {
    let run = |name: &str| {
        let record = temp(name);
        let out = play(&[
            "--seed",
            "9",
            "--player",
            "true",
            "--player",
            "builtin:dodger",
            "--player",
            "builtin:random",
            "--record",
            record.to_str().unwrap(),
            // `true` never greets: without the flag that is an error, not a game.
            "--handshake-fallback",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        verified(&record)
    };
    let (a, b) = (run("fallback-a.jsonl"), run("fallback-b.jsonl"));
    assert!(a.contains(r#""event":"fault""#));
    assert_eq!(a, b);
}

/// A record's header says what the game uses: the circle game's rows and hand size depend on
/// the number of players (the rulebook's deal table), for 2 to 6 players, with house rules too.
#[test]
fn the_header_gives_the_rows_and_hand_size_of_its_table() {
    let house = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/house/circle_all_green.lua"
    );
    for (players, rows, hand_size) in [
        (2, 7, 14),
        (3, 9, 12),
        (4, 12, 12),
        (5, 15, 12),
        (6, 15, 10),
    ] {
        for with_house in [false, true] {
            let record = temp(&format!("header-{players}-{with_house}.jsonl"));
            let mut args = vec!["--seed", "2", "--record", record.to_str().unwrap()];
            args.extend(std::iter::repeat_n(["--player", "builtin:random"], players).flatten());
            if with_house {
                args.extend(["--house", house]);
            }
            assert!(play(&args).status.success());
            let text = std::fs::read_to_string(&record).unwrap();
            let header: serde_json::Value =
                serde_json::from_str(text.lines().next().unwrap()).unwrap();
            let rules = &header["rules"];
            assert_eq!(rules["rows"], rows, "{players} players: {rules}");
            assert_eq!(rules["hand_size"], hand_size, "{players} players: {rules}");
            verified(&record);
        }
    }
}
