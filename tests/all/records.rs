//! Records at scale (issue 20) and what verify requires of a header (issue 19.15): the fast
//! line writer writes what serde writes, compressed records read back, verify streams (several
//! files, standard input, a line too long named), and a record is the rulebook game of its seed.

use crate::common;

use common::{ok, take5, temp};
use std::io::Write;
use std::ops::ControlFlow;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;
use take5::players::Player;
use take5::players::builtin::{Builtin, Strategy};
use take5::record::{Games, Line, LineReader, MAX_LINE, Writer};
use take5::referee::{MatchConfig, play_match};
use take5::variants::Variant;
use take5::verify::verify_record;

/// The record of `games` games of `variant` between `seats` built-in random bots.
fn record(variant: Variant, seats: usize, games: u64, seed: u64) -> String {
    record_in(variant, seats, games, seed, take5::record::FORMAT)
}

/// [`record`] in record format `format`.
fn record_in(variant: Variant, seats: usize, games: u64, seed: u64, format: u32) -> String {
    let config = MatchConfig {
        variant,
        rules: Arc::new(variant.rules()),
        seed,
        games,
        deals: Vec::new(),
        timeout: Duration::from_secs(5),
        clocks: Vec::new(),
        house: None,
        tournament: None,
    };
    let path = temp(&format!("{}-{seats}-{seed}-{format}.jsonl", variant.name()));
    let mut writer = Writer::create(&path).unwrap().with_format(format);
    let mut players: Vec<Box<dyn Player>> = (0..seats)
        .map(|_| Box::new(Builtin::new(Strategy::Random, seed)) as Box<dyn Player>)
        .collect();
    play_match(&config, &mut players, Some(&mut writer), |_| {
        ControlFlow::Continue(())
    })
    .unwrap();
    writer.finish().unwrap();
    std::fs::read_to_string(&path).unwrap()
}

/// Every variant (a new one is covered by registering it).
const VARIANTS: &[Variant] = Variant::ALL;

#[test]
fn the_fast_writer_writes_every_line_as_serde_does() {
    for &variant in VARIANTS {
        for seats in [2, 4] {
            let text = record(variant, seats, 4, 11);
            for (i, line) in text.lines().enumerate() {
                let parsed = Line::parse(line, i + 1).unwrap_or_else(|e| panic!("{e}"));
                let serde = serde_json::to_string(&parsed).unwrap();
                assert_eq!(line, serde, "{} line {}", variant.name(), i + 1);
                // And the fast reader reads what serde reads.
                if let Line::Event(event) = &parsed {
                    let by_serde: take5::game::Event = serde_json::from_str(line).unwrap();
                    assert_eq!(*event, by_serde, "{} line {}", variant.name(), i + 1);
                }
            }
            verify_record(text.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", variant.name()));
        }
    }
}

#[test]
fn lines_in_other_layouts_read_the_same_and_bad_ones_are_named() {
    let canonical = "{\"event\":\"take\",\"seat\":1,\"row\":0,\"cards\":[5,17],\"bullheads\":-3,\"reason\":\"low\"}";
    let spaced = "{ \"reason\": \"low\", \"event\": \"take\", \"seat\": 1, \"row\": 0, \"cards\": [5, 17], \"bullheads\": -3 }";
    assert_eq!(
        Line::parse(canonical, 1).unwrap(),
        Line::parse(spaced, 1).unwrap()
    );
    for bad in [
        "{\"event\":\"place\",\"seat\":1,\"card\":70000,\"row\":0}",
        "{\"event\":\"place\",\"seat\":01,\"card\":7,\"row\":0}",
        "{\"event\":\"place\",\"seat\":1,\"card\":7,\"row\":0}x",
        "{\"event\":\"place\",\"seat\":1,\"card\":7.5,\"row\":0}",
    ] {
        let e = Line::parse(bad, 3).unwrap_err();
        assert_eq!(e.line, 3, "{bad}");
    }
}

#[test]
fn compressed_records_are_written_and_verified() {
    let plain = temp("match.jsonl");
    let args = |path: &std::path::Path| {
        take5(&[
            "play",
            "-q",
            "--seed",
            "5",
            "--games",
            "30",
            "-p",
            "builtin:random",
            "-p",
            "builtin:lowest",
            "-p",
            "builtin:dodger",
            "--record",
            path.to_str().unwrap(),
        ])
    };
    common::ok(&args(&plain));
    let text = std::fs::read(&plain).unwrap();
    for name in ["match.jsonl.zst", "match.jsonl.gz"] {
        let path = temp(name);
        common::ok(&args(&path));
        let packed = std::fs::read(&path).unwrap();
        assert!(
            packed.len() * 4 < text.len(),
            "{name}: {} bytes",
            packed.len()
        );
        // The same lines, compressed: read back through the reader that verify uses.
        let mut unpacked = Vec::new();
        std::io::copy(&mut take5::record::open(&path).unwrap(), &mut unpacked).unwrap();
        assert_eq!(unpacked, text, "{name}");
        let out = common::ok(&take5(&["verify", path.to_str().unwrap()]));
        assert!(out.contains("30 games"), "{out}");
    }
}

#[test]
fn several_records_and_standard_input_verify_in_one_call() {
    let a = temp("a.jsonl");
    std::fs::write(&a, record(Variant::Classic, 3, 2, 1)).unwrap();
    let b = temp("b.jsonl.zst");
    common::ok(&take5(&[
        "play",
        "-q",
        "--games",
        "3",
        "-p",
        "builtin:random",
        "-p",
        "builtin:random",
        "--record",
        b.to_str().unwrap(),
    ]));
    let mut child = Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(["verify", a.to_str().unwrap(), "-", b.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Standard input gets the compressed record: it is recognised by its first bytes.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(&b).unwrap())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("a.jsonl  2 games"), "{text}");
    assert!(lines[1].starts_with("OK -  3 games"), "{text}");
    assert!(lines[2].contains("b.jsonl.zst  3 games"), "{text}");
}

#[test]
fn a_line_too_long_is_named_by_its_number() {
    let mut text = record(Variant::Classic, 2, 1, 3);
    let lines = text.lines().count();
    text.push_str(&" ".repeat(MAX_LINE + 10));
    text.push('\n');
    let e = verify_record(text.as_bytes()).unwrap_err();
    assert_eq!(e.line, Some(lines + 1), "{e}");
    assert!(e.message.contains("longer than"), "{e}");
}

#[test]
fn a_cut_compressed_record_is_refused() {
    let path = temp("cut.jsonl.zst");
    common::ok(&take5(&[
        "play",
        "-q",
        "--games",
        "20",
        "-p",
        "builtin:random",
        "-p",
        "builtin:random",
        "--record",
        path.to_str().unwrap(),
    ]));
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 9]).unwrap();
    let out = take5(&["verify", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // An error, on stderr, after the games before the cut were read.
    let text = String::from_utf8(out.stderr).unwrap();
    assert!(text.starts_with("take5: "), "{text}");
    assert!(text.contains("cannot read the record"), "{text}");
}

#[test]
fn games_are_read_one_at_a_time_and_skipped_to() {
    let text = record(Variant::Classic, 4, 9, 8);
    let mut games = Games::new(LineReader::new(text.as_bytes()));
    let mut count = 0;
    while let Some(game) = games.next_game().unwrap() {
        assert_eq!(game.header.game, count);
        assert!(matches!(
            game.lines.last(),
            Some((_, Line::Event(take5::game::Event::GameEnd { .. })))
        ));
        count += 1;
    }
    assert_eq!(count, 9);
    let mut games = Games::new(LineReader::new(text.as_bytes()));
    let seventh = games.skip_to(7).unwrap().unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("\"game\":7,"))
        .unwrap();
    assert_eq!((seventh.header.game, seventh.line), (7, line + 1));
    assert_eq!(games.next_game().unwrap().unwrap().header.game, 8);
    assert!(games.skip_to(3).unwrap().is_none());
}

#[test]
fn a_tournament_game_is_found_and_named_by_its_id_and_must_name_a_bot_per_seat() {
    let text = record(Variant::Classic, 2, 1, 6);
    let tournament = edit(&text, 1, |v| {
        v["tournament"] = serde_json::json!({"game": 5, "bots": ["alpha", "beta"]});
    });
    verify_record(tournament.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let mut games = Games::new(LineReader::new(tournament.as_bytes()));
    let found = games.skip_to(5).unwrap().expect("game 5");
    assert_eq!((found.header.game, found.header.id()), (0, 5));
    assert_eq!(found.header.names(), ["alpha", "beta"]);
    let mut games = Games::new(LineReader::new(tournament.as_bytes()));
    assert!(
        games.skip_to(0).unwrap().is_none(),
        "found by its match's number"
    );
    // A game cut short is named by its id in the tournament.
    let cut: String = tournament
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    let e = verify_record(cut.as_bytes()).unwrap_err();
    assert!(
        e.message.starts_with("game 5 (line 1) is unfinished"),
        "{e}"
    );
    let short = edit(&text, 1, |v| {
        v["tournament"] = serde_json::json!({"game": 5, "bots": ["alpha"]});
    });
    let e = verify_record(short.as_bytes()).unwrap_err();
    assert_eq!(e.line, Some(1), "{e}");
    assert!(
        e.message
            .contains("`tournament.bots` names the bot of each of the 2 seats, not 1"),
        "{e}"
    );
}

/// `text` with line `number` (from 1) changed by `change`.
fn edit(text: &str, number: usize, change: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut value: serde_json::Value = serde_json::from_str(&lines[number - 1]).unwrap();
    change(&mut value);
    lines[number - 1] = value.to_string();
    lines.join("\n") + "\n"
}

#[test]
fn a_deal_that_does_not_follow_from_the_seed_is_refused() {
    let text = record(Variant::Classic, 3, 1, 4);
    // Two cards of round 1 swapped between a hand and a row: a valid deal, not the seed's.
    let forged = edit(&text, 2, |v| {
        let hand = v["hands"][0][0].clone();
        v["hands"][0][0] = v["rows"][0].clone();
        v["rows"][0] = hand;
        let mut cards: Vec<u64> = v["hands"][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        cards.sort();
        v["hands"][0] = cards.into();
    });
    let e = verify_record(forged.as_bytes()).unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(
        e.message.starts_with("the deal differs: the record has ")
            && e.message.ends_with(" (round 1 from the header's seed 4)"),
        "{e}"
    );
    // The same deal, said to be given (`--deal`), is replayed as it stands.
    let given = edit(&forged, 1, |v| v["given_deals"] = 1.into());
    let e = verify_record(given.as_bytes()).unwrap_err();
    assert_ne!(e.line, Some(2), "{e}");
}

#[test]
fn a_header_whose_rules_are_not_its_variants_is_refused() {
    let text = record(Variant::Classic, 2, 1, 6);
    let forged = edit(&text, 1, |v| v["rules"]["deck"]["bullheads"][54] = 1.into());
    let e = verify_record(forged.as_bytes()).unwrap_err();
    assert_eq!(e.line, Some(1));
    assert_eq!(
        e.message,
        "the header's rules are not those of the classic variant: deck differs (a deck given \
         with --deck is marked `given_deck`)"
    );
    let forged = edit(&text, 1, |v| v["rules"]["row_capacity"] = 6.into());
    let e = verify_record(forged.as_bytes()).unwrap_err();
    assert!(e.message.ends_with("row_capacity differs"), "{e}");
}

#[test]
fn a_record_played_with_a_given_deck_says_so_and_verifies() {
    let deck = temp("deck.yaml");
    let bullheads = vec!["1"; 104].join(", ");
    std::fs::write(&deck, format!("lowest: 1\nbullheads: [{bullheads}]\n")).unwrap();
    let path = temp("deck.jsonl");
    common::ok(&take5(&[
        "play",
        "-q",
        "--games",
        "2",
        "-p",
        "builtin:random",
        "-p",
        "builtin:random",
        "--deck",
        deck.to_str().unwrap(),
        "--record",
        path.to_str().unwrap(),
    ]));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with(",\"given_deck\":true}")
    );
    common::ok(&take5(&["verify", path.to_str().unwrap()]));
}

#[test]
fn a_fault_after_the_game_end_is_refused() {
    let text = record(Variant::Classic, 2, 1, 2);
    let fault = "{\"event\":\"fault\",\"seat\":0,\"kind\":\"crash\",\"detail\":\"gone\",\
                 \"round\":5,\"turn\":10}";
    let forged = format!("{text}{fault}\n");
    let e = verify_record(forged.as_bytes()).unwrap_err();
    assert_eq!(e.line, Some(text.lines().count() + 1), "{e}");
    assert!(
        e.message
            .starts_with("a `fault` line after the end of game 0"),
        "{e}"
    );
}

// Record format 2, the compact records (docs/records.md, "Compact records").

const COMPACT: u32 = take5::record::FORMAT_COMPACT;

/// The games a record verified to, without the lines they are at.
fn games(summary: take5::verify::Summary) -> Vec<take5::verify::GameSummary> {
    let mut games = summary.games;
    for game in &mut games {
        game.line = 0;
    }
    games
}

/// A record's lines, parsed.
fn parsed(text: &str) -> Vec<(usize, Line)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            (
                i + 1,
                Line::parse(l, i + 1).unwrap_or_else(|e| panic!("{e}")),
            )
        })
        .collect()
}

#[test]
fn compact_records_of_every_variant_verify_to_the_games_of_their_format_1_records() {
    for &variant in VARIANTS {
        for seats in [2, 4] {
            let name = format!("{} at {seats}", variant.name());
            let full = record(variant, seats, 6, 13);
            let compact = record_in(variant, seats, 6, 13, COMPACT);
            // Each line reads back to itself, and serde writes its turn lines as the writer does.
            let mut again = Writer::new(Vec::new()).with_format(COMPACT);
            for (number, line) in parsed(&compact) {
                let text = compact.lines().nth(number - 1).unwrap();
                if let Line::Turn(_) = line {
                    assert_eq!(
                        serde_json::to_string(&line).unwrap(),
                        text,
                        "{name} {number}"
                    );
                }
                again.write(&line).unwrap();
            }
            assert_eq!(
                String::from_utf8(again.into_inner()).unwrap(),
                compact,
                "{name}"
            );
            let a = verify_record(full.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let b = verify_record(compact.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                games(a),
                games(b),
                "{name}: the same games, outcomes and faults"
            );
            assert!(
                compact.len() * 5 < full.len(),
                "{name}: {} bytes against {}",
                compact.len(),
                full.len()
            );
        }
    }
}

#[test]
fn a_compact_record_shows_the_steps_of_its_format_1_record() {
    use take5::show::{Hands, from_record};
    for &variant in VARIANTS {
        let steps = |text: &str| {
            let mut shown = from_record(&parsed(text), "".as_ref(), Hands::All, None).unwrap();
            for game in &mut shown {
                for step in &mut game.steps {
                    step.source.clear();
                }
            }
            shown
        };
        let full = steps(&record(variant, 3, 3, 5));
        let compact = steps(&record_in(variant, 3, 3, 5, COMPACT));
        assert_eq!(full, compact, "{}", variant.name());
    }
}

#[test]
fn the_same_seed_gives_a_byte_identical_compact_record() {
    let (a, b) = (temp("compact-a.jsonl"), temp("compact-b.jsonl"));
    let players = ["builtin:random", "builtin:dodger", "builtin:lowest"];
    let play = |path: &std::path::Path| play_recorded(&players, "7", &[], Some("compact"), path);
    assert!(play(&a).status.success());
    assert!(play(&b).status.success());
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap());
    // Pinned across machines and dependency upgrades, as the format 1 record of the seed is.
    insta::assert_snapshot!("compact_seed_7", text);
}

/// `take5 verify` of `text` in a file named `name`: its exit status and what it said.
fn verify_text(name: &str, text: &str) -> (Option<i32>, String) {
    let path = temp(name);
    std::fs::write(&path, text).unwrap();
    let out = take5(&["verify", path.to_str().unwrap()]);
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), said)
}

/// `text` with line `number` (from 1) replaced by `line`.
fn with_line(text: &str, number: usize, line: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines[number - 1] = line;
    lines.join("\n") + "\n"
}

#[test]
fn a_bad_compact_line_is_named_with_its_file_line_and_what_is_wrong() {
    let text = record_in(Variant::Classic, 4, 1, 3, COMPACT);
    let lines: Vec<&str> = text.lines().collect();
    let end = lines.len();
    assert_eq!(verify_text("good.jsonl", &text).0, Some(0));
    // A card the seat does not hold.
    let (code, said) = verify_text("card.jsonl", &with_line(&text, 2, "[105,1,2,3]"));
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("card.jsonl:2: answer 1 of the line: seat 0 cannot play 105"),
        "{said}"
    );
    // Not a turn line at all.
    let (code, said) = verify_text("json.jsonl", &with_line(&text, 3, "[1,2,"));
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("json.jsonl:3:"), "{said}");
    assert!(
        said.contains("a turn line is a JSON array of answers"),
        "{said}"
    );
    // An answer of the wrong kind.
    let (code, said) = verify_text("kind.jsonl", &with_line(&text, 2, r#"["pass"]"#));
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("kind.jsonl:2: the rules wait for seat 0's card; the line has `\"pass\"`"),
        "{said}"
    );
    // Totals the rules do not give.
    let (code, said) = verify_text(
        "totals.jsonl",
        &with_line(
            &text,
            end,
            r#"{"event":"game_end","totals":[0,0,0,0],"winners":[0,1,2,3]}"#,
        ),
    );
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains(&format!(
            "totals.jsonl:{end}: wrong score: the game ends with totals 0 0 0 0 in the record"
        )),
        "{said}"
    );
    // The game_end line left out.
    let cut = lines[..end - 1].join("\n") + "\n";
    let (code, said) = verify_text("cut.jsonl", &cut);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("`game_end` line is not there"), "{said}");
    // A deal line for a round the seed deals.
    let deal = r#"{"event":"deal","round":1,"hands":[[1],[2],[3],[4]],"rows":[5,6,7,8]}"#;
    let (code, said) = verify_text("deal.jsonl", &with_line(&text, 2, deal));
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("deal.jsonl:2: round 1 is dealt by the header's seed 3"),
        "{said}"
    );
    // A format 1 line in a compact game.
    let place = r#"{"event":"place","seat":0,"card":5,"row":0}"#;
    let (code, said) = verify_text("place.jsonl", &with_line(&text, 2, place));
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("place.jsonl:2: a `place` line in a compact record"),
        "{said}"
    );
}

/// `take5 play` of `players` at `seed` with `more` options, recorded quietly to `record` (in
/// record format `format`, or the default).
fn play_recorded(
    players: &[&str],
    seed: &str,
    more: &[&str],
    format: Option<&str>,
    record: &std::path::Path,
) -> std::process::Output {
    let mut args = vec!["play"];
    for player in players {
        args.extend(["--player", player]);
    }
    args.extend(["--seed", seed]);
    args.extend(more);
    if let Some(format) = format {
        args.extend(["--record-format", format]);
    }
    args.extend(["--quiet", "--record", record.to_str().unwrap()]);
    take5(&args)
}

#[test]
fn compact_records_hold_given_deals_faults_house_rules_and_stops() {
    // A given deal is in the record; the rounds after it come from the seed.
    let deal = temp("compact-deal.yaml");
    std::fs::write(
        &deal,
        "rounds:\n  - hands:\n      - [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n      - [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]\n    rows: [101, 102, 103, 104]\n",
    )
    .unwrap();
    let dealt = temp("compact-dealt.jsonl");
    let out = play_recorded(
        &["builtin:random", "builtin:dodger"],
        "2",
        &["--deal", deal.to_str().unwrap()],
        Some("2"),
        &dealt,
    );
    ok(&out);
    let text = std::fs::read_to_string(&dealt).unwrap();
    let deals: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("\"event\":\"deal\""))
        .collect();
    assert_eq!(deals.len(), 1, "{text}");
    assert!(
        deals[0].starts_with(r#"{"event":"deal","round":1,"hands":[[1,2,3"#),
        "{text}"
    );
    assert_eq!(verify_text("dealt.jsonl", &text).0, Some(0));

    // A bot that plays cards it does not hold: its faults are recorded, the fallback's answers too.
    let bot = format!(
        "python3 {}/tests/bots/misbehave.py illegal",
        env!("CARGO_MANIFEST_DIR")
    );
    let faulty = temp("compact-faults.jsonl");
    let out = play_recorded(
        &[&bot, "builtin:lowest"],
        "5",
        &["--timeout", "60000"],
        Some("2"),
        &faulty,
    );
    ok(&out);
    let text = std::fs::read_to_string(&faulty).unwrap();
    assert!(text.contains("\"event\":\"fault\""), "{text}");
    let (code, said) = verify_text("faults.jsonl", &text);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains(&format!("1 game, {} lines", text.lines().count())),
        "{said}"
    );

    // A house script that chooses a low card's row: no row answer is recorded for it.
    let house = format!(
        "{}/scripts/house/cheapest_row.lua",
        env!("CARGO_MANIFEST_DIR")
    );
    let housed = temp("compact-house.jsonl");
    let out = play_recorded(
        &["builtin:random", "builtin:random", "builtin:random"],
        "4",
        &["--games", "3", "--house", &house],
        Some("2"),
        &housed,
    );
    ok(&out);
    let verified = take5(&["verify", housed.to_str().unwrap()]);
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stdout)
    );
    // The format 1 record of the same match verifies to the same games.
    let full = temp("compact-house-1.jsonl");
    assert!(
        play_recorded(
            &["builtin:random", "builtin:random", "builtin:random"],
            "4",
            &["--games", "3", "--house", &house],
            None,
            &full
        )
        .status
        .success()
    );
    let verified = |path: &std::path::Path| {
        let text = std::fs::read_to_string(path).unwrap();
        games(take5::verify::verify_lines_in(&parsed(&text), path.parent().unwrap()).unwrap())
    };
    assert_eq!(verified(&housed), verified(&full));

    // A house hook that fails stops the game: the answers up to there, then `stopped`.
    let failing = format!("{}/tests/house/hook_error.lua", env!("CARGO_MANIFEST_DIR"));
    let stopped = temp("compact-stopped.jsonl");
    let out = play_recorded(
        &["builtin:random", "builtin:random"],
        "1",
        &["--house", &failing],
        Some("2"),
        &stopped,
    );
    assert_eq!(out.status.code(), Some(2));
    let text = std::fs::read_to_string(&stopped).unwrap();
    let last = text.lines().count();
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with(r#"{"event":"stopped""#),
        "{text}"
    );
    let verified = take5(&["verify", stopped.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&verified.stdout).to_string()
        + &String::from_utf8_lossy(&verified.stderr);
    assert_eq!(verified.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!(
            "compact-stopped.jsonl:{last}: the referee stopped this game"
        )),
        "{said}"
    );
}

#[test]
fn compact_anniversary_records_hold_the_special_cards_answers() {
    let text = record_in(Variant::Anniversary, 4, 8, 21, COMPACT);
    // Special cards played, passes and swaps are answers of their own.
    assert!(text.contains(r#"{"special":"#), "special cards played");
    assert!(text.contains(r#""pass""#), "passes");
    verify_record(text.as_bytes()).unwrap();
    let circle = record_in(Variant::Circle, 3, 4, 21, COMPACT);
    assert!(
        circle.contains(r#""end""#)
            || circle.contains(r#"{"special":"x2""#)
            || circle.contains(r#"{"special":"plus5""#),
        "{circle}"
    );
    verify_record(circle.as_bytes()).unwrap();
}

#[test]
fn compact_records_compress_and_show_one_game() {
    let path = temp("compact-show.jsonl.zst");
    let players = ["builtin:random", "builtin:dodger"];
    let out = play_recorded(&players, "9", &["--games", "4"], Some("2"), &path);
    assert!(out.status.success());
    let verified = take5(&["verify", path.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&verified.stdout).contains("4 games"));
    let shown = take5(&["show", path.to_str().unwrap(), "--game", "3", "--plain"]);
    assert!(
        shown.status.success(),
        "{}",
        String::from_utf8_lossy(&shown.stderr)
    );
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.contains("game 3 of classic"), "{text}");
    assert!(text.contains("round 1, turn 1"), "{text}");
}

#[test]
fn the_compact_worked_example_is_the_format_1_example_game() {
    use take5::show::{Hands, from_record};
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/records.md")).unwrap();
    let full = common::doc_block(&page, "jsonl");
    let compact = common::doc_block(&page, "jsonl compact");
    // The same game: the same outcome and fault, the same steps shown.
    let a = verify_record(full.as_bytes()).unwrap();
    let b = verify_record(compact.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(games(a), games(b));
    let steps = |text: &str| {
        let mut shown = from_record(&parsed(text), "".as_ref(), Hands::All, None).unwrap();
        for step in &mut shown[0].steps {
            step.source.clear();
        }
        shown
    };
    assert_eq!(steps(&full), steps(&compact));
    // What the page says verify prints, for the record and two edits of it.
    let flat = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let (code, said) = verify_text("record.jsonl", &compact);
    assert_eq!(code, Some(0), "{said}");
    let ok = said
        .replace(
            &format!("{}", temp("record.jsonl").display()),
            "record.jsonl",
        )
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains(&format!("`{ok}`")),
        "the page should say `{ok}`"
    );
    let said = |number: usize, line: &str| {
        let e = verify_record(with_line(&compact, number, line).as_bytes()).unwrap_err();
        e.in_file("record.jsonl")
    };
    let score = said(
        12,
        r#"{"event":"game_end","totals":[1,21,0],"winners":[2]}"#,
    );
    assert!(
        flat.contains(&format!("`{score}`")),
        "the page should say `{score}`"
    );
    let row = said(4, "[5,28,34,7]");
    let claimed = "record.jsonl:4: answer 4 of the line: seat 0 cannot take row 7:";
    assert!(row.starts_with(claimed), "{row}");
    assert!(
        flat.contains(&format!("`{claimed} ...`")),
        "the page should say `{claimed} ...`"
    );
}

/// A seeded deal changed in one place is named at that place: the row, the seat's hand, the
/// special cards, each with the card the record has and the card the seed deals.
#[test]
fn a_changed_deal_names_the_first_card_where_it_differs() {
    let said = |text: &str| {
        verify_record(text.as_bytes())
            .unwrap_err()
            .in_file("r.jsonl")
    };
    let card = |v: &serde_json::Value| v.as_u64().unwrap();
    for variant in [Variant::Classic, Variant::TakeANumber, Variant::Circle] {
        let text = record(variant, 3, 1, 4);
        let deal: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
        let (r1, r2) = (card(&deal["rows"][1]), card(&deal["rows"][2]));
        // Rows 1 and 2 change places.
        let forged = edit(&text, 2, |v| {
            v["rows"][1] = r2.into();
            v["rows"][2] = r1.into();
        });
        assert_eq!(
            said(&forged),
            format!(
                "r.jsonl:2: the deal differs: the record has {r2} as the card of row 1, the \
                 rules deal {r1} (round 1 from the header's seed 4)"
            ),
            "{}",
            variant.name()
        );
        // Seat 2's last card becomes a card of nobody's: one past the deck, so it is in no
        // hand or row.
        let last = deal["hands"][2].as_array().unwrap().len() - 1;
        let was = card(&deal["hands"][2][last]);
        let forged = edit(&text, 2, |v| v["hands"][2][last] = 1000.into());
        assert_eq!(
            said(&forged),
            format!(
                "r.jsonl:2: the deal differs: the record has 1000 as the {} card of seat 2's \
                 hand, the rules deal {was} (round 1 from the header's seed 4)",
                ordinal(last + 1)
            ),
            "{}",
            variant.name()
        );
    }
    // The anniversary's special cards: seat 0's and seat 1's first ones change hands.
    let text = record(Variant::Anniversary, 2, 1, 5);
    let at = text
        .lines()
        .position(|l| l.contains("\"event\":\"specials\""))
        .unwrap()
        + 1;
    let line: serde_json::Value = serde_json::from_str(text.lines().nth(at - 1).unwrap()).unwrap();
    let (a, b) = (line["hands"][0][0].clone(), line["hands"][1][0].clone());
    assert_ne!(
        a, b,
        "seed 5 deals seats 0 and 1 other first special cards: {line}"
    );
    let forged = edit(&text, at, |v| {
        v["hands"][0][0] = b.clone();
        v["hands"][1][0] = a.clone();
    });
    assert_eq!(
        said(&forged),
        format!(
            "r.jsonl:{at}: the deal differs: the record has {} as the 1st card of seat 0's \
             special cards, the rules deal {}",
            b.as_str().unwrap(),
            a.as_str().unwrap()
        )
    );
}

/// `1st`, `2nd`, `3rd`, `4th`, ... (the positions here are below 11).
fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        _ => format!("{n}th"),
    }
}

/// Every line of `text` as [`LineReader::next_parsed`] reads it through a buffer of `capacity`
/// bytes, with its number.
fn read_through(text: &str, capacity: usize) -> Vec<(usize, String)> {
    let mut reader = LineReader::new(std::io::BufReader::with_capacity(capacity, text.as_bytes()));
    let mut read = Vec::new();
    while let Some((number, line)) = reader.next_parsed().expect("the text reads") {
        read.push((number, format!("{line:?}")));
    }
    read
}

#[test]
fn turn_lines_read_in_the_input_buffer_are_the_lines_parse_reads() {
    // A compact record, with the turn lines of other shapes the reader must take to serde
    // (leading zeros, ten digits, spaces, a `\r\n` line end, strings) or leave for the next
    // line (blank lines), read through buffers small enough that lines straddle their ends.
    let mut text = record_in(Variant::Classic, 4, 2, 7, 2);
    text.push_str("[01]\n[1234567890]\n[1, 2]\r\n[3,4]\r\n\n  \n[5]\r\r\n[]\n[\"pass\"]\n[7,]\n[8");
    let expected: Vec<(usize, String)> = text
        .split('\n')
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            (i + 1, format!("{:?}", Line::parse(l, i + 1)))
        })
        .collect();
    for capacity in [1, 2, 3, 5, 8, 13, 64, 1 << 16] {
        assert_eq!(
            read_through(&text, capacity),
            expected,
            "a buffer of {capacity} bytes"
        );
    }
}

#[test]
fn headers_that_differ_only_in_the_game_number_read_as_parse_reads_them() {
    // The reader reads a header the same as the last one but for its game number without serde:
    // every header must still be what `Line::parse` reads, with its own number, and a header
    // that differs elsewhere (its seed), or whose number is not a plain JSON number (a leading
    // zero, a fraction, one too large), read as serde reads it.
    let record = record(Variant::Classic, 4, 3, 7);
    let header = record.lines().next().expect("a header").to_string();
    assert!(header.starts_with("{\"event\":\"game\",\"format\":1,\"game\":0,"));
    let with = |from: &str, to: &str| header.replacen(from, to, 1);
    let mut text = record.clone();
    for line in [
        with("\"game\":0,", "\"game\":12,"),
        with("\"seed\":7", "\"seed\":8"),
        with("\"game\":0,", "\"game\":013,"),
        with("\"game\":0,", "\"game\":1.5,"),
        with("\"game\":0,", "\"game\":99999999999999999999,"),
        with("\"game\":0,", "\"game\":14,"),
        with("\"game\":0,", "\"game\": 15,"),
    ] {
        text.push_str(&line);
        text.push('\n');
    }
    let expected: Vec<(usize, String)> = (text.lines().enumerate())
        .map(|(i, l)| (i + 1, format!("{:?}", Line::parse(l, i + 1))))
        .collect();
    assert!(expected.iter().any(|(_, l)| l.contains("game: 14,")));
    for capacity in [7, 1 << 16] {
        assert_eq!(
            read_through(&text, capacity),
            expected,
            "a buffer of {capacity} bytes"
        );
    }
}

/// A zstd stream may start with a skippable frame (magic 0x184D2A50 to 0x184D2A5F, then its
/// length, then bytes a decoder passes over): such a record is decompressed, not read as text.
#[test]
fn a_zstd_record_starting_with_a_skippable_frame_verifies() {
    let packed = temp("packed.jsonl.zst");
    common::ok(&take5(&[
        "play",
        "-q",
        "--games",
        "3",
        "-p",
        "builtin:random",
        "-p",
        "builtin:random",
        "--record",
        packed.to_str().unwrap(),
    ]));
    let frames = std::fs::read(&packed).unwrap();
    for magic in [0x184D_2A50u32, 0x184D_2A5F] {
        let mut bytes = magic.to_le_bytes().to_vec();
        let note = b"written by another tool";
        bytes.extend_from_slice(&(note.len() as u32).to_le_bytes());
        bytes.extend_from_slice(note);
        bytes.extend_from_slice(&frames);
        let path = temp("skippable.jsonl.zst");
        std::fs::write(&path, bytes).unwrap();
        let out = common::ok(&take5(&["verify", path.to_str().unwrap()]));
        assert!(out.contains("3 games"), "{magic:#x}: {out}");
    }
}
