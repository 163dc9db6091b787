//! Records at scale (issue 20) and what verify requires of a header (issue 19.15): the fast
//! line writer writes what serde writes, compressed records read back, verify streams (several
//! files, standard input, a line too long named), and a record is the rulebook game of its seed.

mod common;

use common::{take5, temp};
use std::io::Write;
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
    let config = MatchConfig {
        variant,
        rules: Arc::new(variant.rules()),
        seed,
        games,
        deals: Vec::new(),
        timeout: Duration::from_secs(5),
        house: None,
    };
    let path = temp(&format!("{}-{seats}-{seed}.jsonl", variant.name()));
    let mut writer = Writer::create(&path).unwrap();
    let mut players: Vec<Box<dyn Player>> = (0..seats)
        .map(|_| Box::new(Builtin::new(Strategy::Random, seed)) as Box<dyn Player>)
        .collect();
    play_match(&config, &mut players, Some(&mut writer), |_| {}).unwrap();
    writer.finish().unwrap();
    std::fs::read_to_string(&path).unwrap()
}

const VARIANTS: [Variant; 5] = [
    Variant::Classic,
    Variant::Pro,
    Variant::TakeANumber,
    Variant::Circle,
    Variant::Anniversary,
];

#[test]
fn the_fast_writer_writes_every_line_as_serde_does() {
    for variant in VARIANTS {
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
    let text = String::from_utf8(out.stdout).unwrap();
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
