//! The anniversary variant end to end: `take5 play` between built-ins, its records verified,
//! and an edited record refused; a game set up from an explicit table (fixtures' `setup`).

use crate::common;

use common::{ok, take5, temp};
use std::sync::Arc;
use take5::cards::{Card, Special};
use take5::game::{Decision, Event, Game, RuleError, SetupError, ToMove};
use take5::players::builtin::{Builtin, Strategy};
use take5::rng::{GameRng, Stream};
use take5::rules::Rules;
use take5::variants::anniversary::{Anniversary, AnniversarySetup, rules};
use take5::variants::classic::Table;

/// Plays `games` games of `seats` built-ins with `--record`; returns the record.
fn record(seats: usize, games: &str, name: &str) -> String {
    let strategies = ["dodger", "random", "lowest", "highest"];
    let mut args = vec![
        "play".to_string(),
        "--variant".into(),
        "anniversary".into(),
        "--seed".into(),
        "11".into(),
        "--games".into(),
        games.into(),
        "--record".into(),
    ];
    let path = temp(name);
    args.push(path.display().to_string());
    for seat in 0..seats {
        args.push("-p".into());
        args.push(format!("builtin:{}", strategies[seat % strategies.len()]));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(&take5(&args));
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn games_of_2_to_8_built_ins_play_and_verify() {
    for seats in 2..=8 {
        let name = format!("anniversary-{seats}.jsonl");
        let text = record(seats, "2", &name);
        let events = |name: &str| text.matches(&format!("\"event\":\"{name}\"")).count();
        assert_eq!(events("game_end"), 2, "{seats} seats");
        assert_eq!(events("specials"), 4, "{seats} seats: one per round");
        assert!(
            events("special") > 0,
            "{seats} seats: no special card played"
        );
        let printed = ok(&take5(&["verify", &temp(&name).display().to_string()]));
        assert!(printed.starts_with("OK "), "{printed}");
    }
}

#[test]
fn the_same_seed_gives_the_same_record() {
    assert_eq!(
        record(5, "1", "same-a.jsonl"),
        record(5, "1", "same-b.jsonl")
    );
}

#[test]
fn an_edited_special_card_line_is_refused() {
    let text = record(3, "1", "edited.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("\"event\":\"special\""))
        .expect("a special card line");
    // Say a different seat played it: that seat was not asked.
    let line = lines[at];
    let seat = line.split("\"seat\":").nth(1).unwrap().as_bytes()[0] - b'0';
    let other = (seat + 1) % 3;
    let edited = line.replace(&format!("\"seat\":{seat}"), &format!("\"seat\":{other}"));
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[at] = edited;
    let path = temp("edited-bad.jsonl");
    std::fs::write(&path, changed.join("\n") + "\n").unwrap();
    let output = take5(&["verify", &path.display().to_string()]);
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stdout).to_string()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(said.contains(&format!(":{}:", at + 1)), "{said}");
}

/// The example bots play whole games of 2 and 8 players without a refused reply, and the
/// records verify.
#[test]
fn the_example_bots_play_without_faults() {
    let bots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bots");
    let python = bots.join("python_bot.py").display().to_string();
    let shell = bots.join("shell_bot.sh").display().to_string();
    for seats in [2, 8] {
        let path = temp(&format!("bots-{seats}.jsonl")).display().to_string();
        let logs = temp(&format!("bots-{seats}-io"));
        let logs_arg = logs.display().to_string();
        let mut args = vec![
            "play",
            "--variant",
            "anniversary",
            "--seed",
            "5",
            "--games",
            "2",
            "--timeout",
            "60000",
            "--record",
            &path,
            "--log-io",
            &logs_arg,
        ];
        for seat in 0..seats {
            args.push("-p");
            args.push(if seat % 2 == 0 { &python } else { &shell });
        }
        ok(&take5(&args));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("\"event\":\"fault\""),
            "{seats} seats: a fault"
        );
        assert!(
            text.contains("\"event\":\"special\""),
            "{seats} seats: no special card"
        );
        assert_eq!(text.matches("\"event\":\"game_end\"").count(), 2);
        assert!(ok(&take5(&["verify", &path])).starts_with("OK "));
        let mut lines_read = 0;
        let mut folders = vec![logs];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e == "log") {
                    let log = std::fs::read_to_string(&path).unwrap();
                    lines_read += log.lines().count();
                    assert!(
                        !log.contains("> error"),
                        "{}: a refused reply",
                        path.display()
                    );
                }
            }
        }
        assert!(lines_read > 100, "{seats} seats: {lines_read} logged lines");
    }
}

/// The special deck's order is checked: a record whose round 1 deck is edited fails at the
/// round 2 deal (its `specials` line, next, says the cards come from another deck).
#[test]
fn an_edited_special_deck_is_refused_at_the_next_deal() {
    let text = record(2, "1", "deck.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .iter()
        .position(|l| l.contains("\"event\":\"specials\""))
        .expect("a specials line");
    let line = lines[first];
    // Move the deck's top card to the bottom.
    let start = line.find("\"deck\":[").unwrap() + "\"deck\":[".len();
    let end = start + line[start..].find(']').unwrap();
    let mut deck: Vec<&str> = line[start..end].split(',').collect();
    deck.rotate_left(1);
    let edited = format!("{}{}{}", &line[..start], deck.join(","), &line[end..]);
    assert_ne!(edited, line);
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[first] = edited;
    let second = lines
        .iter()
        .rposition(|l| l.contains("\"event\":\"specials\""))
        .unwrap();
    assert_ne!(first, second);
    // As it stands, the record's round 1 deck is not the one its seed deals.
    let path = temp("deck-seeded.jsonl");
    std::fs::write(&path, changed.join("\n") + "\n").unwrap();
    let output = take5(&["verify", &path.display().to_string()]);
    let said = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(said.contains(&format!(":{}:", first + 1)), "{said}");
    // Said to be given (`--deal`), its deals are replayed as they stand: the edit shows at the
    // next deal.
    let header = &mut changed[0];
    assert_eq!(header.pop(), Some('}'));
    header.push_str(",\"given_deals\":2}");
    let path = temp("deck-bad.jsonl");
    std::fs::write(&path, changed.join("\n") + "\n").unwrap();
    let output = take5(&["verify", &path.display().to_string()]);
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stdout).to_string();
    // The deal line, just before the round 2 `specials` line.
    assert!(said.contains(&format!(":{}:", second)), "{said}");
    assert!(said.contains("must be the deck as it stands"), "{said}");
}

// ---------------------------------------------------------------------------------------------
// A table set up explicitly (fixtures' `setup`).

/// The table `game` shows when a turn starts, as a setup; `reshuffle_seed` is the seed the
/// round's deal gave.
fn setup_of(game: &Anniversary, reshuffle_seed: u64) -> AnniversarySetup {
    let seats = game.seats();
    let view = game.view(0);
    let table = game.specials();
    let marked = |marks: &[bool]| (0..marks.len()).filter(|&r| marks[r]).collect();
    AnniversarySetup {
        table: Table {
            round: view.round,
            turn: view.turn,
            hands: (0..seats).map(|s| game.view(s).hand.to_vec()).collect(),
            rows: game.rows().to_vec(),
            scores: view.scores.to_vec(),
            piles: game.piles().to_vec(),
        },
        specials: game.special_hands().to_vec(),
        special_deck: game.special_deck().to_vec(),
        discard: table.discard.clone(),
        stops: marked(&table.stops),
        sevens: marked(&table.sevens),
        reshuffle_seed,
    }
}

/// What a table set up from a game shows, against the game; `exact_taken` when no Negative =
/// Positive was played this round (the table cannot say it was: `taken` is then the piles'
/// bullheads, at least the game's).
fn assert_same_table(game: &Anniversary, copy: &Anniversary, exact_taken: bool, at: &str) {
    for seat in 0..game.seats() {
        let (a, b) = (game.view(seat), copy.view(seat));
        assert_eq!(
            (a.round, a.turn, a.decision),
            (b.round, b.turn, b.decision),
            "{at}"
        );
        assert_eq!(
            (a.hand, a.rows, a.scores),
            (b.hand, b.rows, b.scores),
            "{at}"
        );
        assert_eq!(
            (a.specials, a.special_hand),
            (b.specials, b.special_hand),
            "{at}"
        );
        if exact_taken {
            assert_eq!(a.taken, b.taken, "{at}");
        } else {
            assert!(a.taken.iter().zip(b.taken).all(|(a, b)| a <= b), "{at}");
        }
    }
    assert_eq!(game.piles(), copy.piles(), "{at}");
    assert_eq!(game.special_deck(), copy.special_deck(), "{at}");
}

/// A game rebuilt from its table at the start of any turn shows what the game shows and, when
/// the round so far had no Negative = Positive (which the table cannot show) and no reshuffle
/// (which moves the reshuffling generator on), plays on exactly as the game does to the round's
/// end: every rebuilt copy of the round is played in step with the game.
#[test]
fn a_game_set_up_from_its_table_plays_on_the_same() {
    let (mut checked, mut played_on) = (0, 0);
    // Tables with a Stop, a 7 nimmt! and a 5th row among those rebuilt.
    let mut seen = [false; 3];
    for seed in 0..16u64 {
        let seats = 2 + (seed as usize % 7);
        let mut game = Anniversary::new(Arc::new(rules()), seats).unwrap();
        let mut dealer = GameRng::new(seed, Stream::Deal(0));
        let mut bots: Vec<Builtin> = (0..seats)
            .map(|s| {
                Builtin::new(
                    Strategy::ALL[(s + seed as usize) % Strategy::ALL.len()],
                    seed,
                )
            })
            .collect();
        let (mut reshuffle_seed, mut cancelled, mut reshuffled) = (0, false, false);
        let mut copies: Vec<Anniversary> = Vec::new();
        loop {
            let at = format!(
                "seed {seed}, round {}, turn {}",
                game.round(),
                game.view(0).turn
            );
            match game.to_move() {
                ToMove::Deal => {
                    let mut events = Vec::new();
                    game.deal_random(&mut dealer, &mut events).unwrap();
                    for event in events {
                        if let Event::Specials { seed, .. } = event {
                            reshuffle_seed = seed;
                        }
                    }
                    (cancelled, reshuffled) = (false, false);
                    copies.clear();
                    continue;
                }
                ToMove::GameOver => break,
                ToMove::Everyone(_) if (0..seats).all(|s| game.owes(s).is_some()) => {
                    let copy = Anniversary::from_table(
                        Arc::new(rules()),
                        &setup_of(&game, reshuffle_seed),
                    )
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                    assert_same_table(&game, &copy, !cancelled, &at);
                    let table = game.specials();
                    seen[0] |= table.stops.contains(&true);
                    seen[1] |= table.sevens.contains(&true);
                    seen[2] |= game.rows().len() > rules().rows;
                    checked += 1;
                    if !cancelled && !reshuffled {
                        copies.push(copy);
                    }
                }
                _ => {}
            }
            let seat = (0..seats).find(|&s| game.owes(s).is_some()).unwrap();
            let action = bots[seat].choose(&game.view(seat));
            let mut played = Vec::new();
            game.apply(seat, action, &mut played).unwrap();
            cancelled |= played.iter().any(|e| matches!(e, Event::Cancel { .. }));
            reshuffled |= played.iter().any(|e| matches!(e, Event::Reshuffle { .. }));
            for copy in &mut copies {
                let mut replayed = Vec::new();
                copy.apply(seat, action, &mut replayed)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                assert_eq!(played, replayed, "{at}");
                assert_eq!(game.to_move(), copy.to_move(), "{at}");
                played_on += 1;
            }
            if game.to_move() == ToMove::GameOver {
                for copy in &copies {
                    assert_eq!(game.outcome(), copy.outcome(), "{at}");
                }
            }
        }
    }
    assert!(checked > 200 && played_on > 1000, "{checked} {played_on}");
    assert_eq!(seen, [true; 3], "stop, seven, fifth row");
}

fn cards(numbers: &[u16]) -> Vec<Card> {
    numbers.iter().map(|&n| Card(n)).collect()
}

/// A small two-player table: a 7 nimmt! on row 2 (six cards), a Stop on row 1, a pile each.
fn small_setup() -> AnniversarySetup {
    AnniversarySetup {
        table: Table {
            round: 1,
            turn: 11,
            hands: vec![cards(&[15, 60]), cards(&[50, 70])],
            rows: vec![
                cards(&[10]),
                cards(&[20, 22]),
                cards(&[30, 31, 32, 33, 34, 35]),
                cards(&[40]),
            ],
            scores: vec![4, 0],
            piles: vec![cards(&[55, 1]), Vec::new()],
        },
        specials: vec![vec![Special::Stop, Special::Insert], Vec::new()],
        special_deck: vec![Special::Shift, Special::Stop],
        discard: vec![Special::Replace],
        stops: vec![1],
        sevens: vec![2],
        reshuffle_seed: 3,
    }
}

/// The engine's refusal of `setup` changed by `change`, under `rules`.
fn refusal_under(rules: Rules, change: impl FnOnce(&mut AnniversarySetup)) -> String {
    let mut setup = small_setup();
    change(&mut setup);
    match Anniversary::from_table(Arc::new(rules), &setup) {
        Err(RuleError::Setup(SetupError::BadDeal(why))) => why,
        other => panic!("{other:?}"),
    }
}

fn refusal(change: impl FnOnce(&mut AnniversarySetup)) -> String {
    refusal_under(rules(), change)
}

#[test]
fn a_set_up_table_puts_the_special_cards_in_place() {
    let game = Anniversary::from_table(Arc::new(rules()), &small_setup()).unwrap();
    let view = game.view(0);
    // 55 and 1: 7 + 1 bullheads.
    assert_eq!(view.taken, [8, 0]);
    assert_eq!(view.special_hand, [Special::Insert, Special::Stop]);
    let table = game.specials();
    assert_eq!(table.hand_counts, [2, 0]);
    assert_eq!(table.deck, 2);
    assert_eq!(table.discard, [Special::Replace]);
    assert_eq!(table.stops, [false, true, false, false]);
    assert_eq!(table.sevens, [false, false, true, false]);
    // The row under the 7 nimmt! card is full at six.
    assert_eq!(view.capacity(2), 6);
    assert!(view.stopped(1));
    assert_eq!(game.special_deck(), [Special::Shift, Special::Stop]);
    assert_eq!(game.to_move(), ToMove::Everyone(Decision::PlayCard));
    // One row more than the rules' is the 5th row.
    let mut five = small_setup();
    five.table.rows.push(cards(&[80]));
    let game = Anniversary::from_table(Arc::new(rules()), &five).unwrap();
    assert_eq!(game.rows().len(), 5);
}

#[test]
fn a_bad_table_is_refused_with_what_is_wrong() {
    assert_eq!(
        refusal(|s| s.table.piles[1].push(Card(20))),
        "card 20 appears twice"
    );
    assert_eq!(
        refusal(|s| s.specials.truncate(1)),
        "2 hands but special cards for 1 seat"
    );
    assert_eq!(
        refusal(|s| s.table.rows.truncate(3)),
        "3 rows given, the rules have 4 (5 with a 5th Row card)"
    );
    assert_eq!(
        refusal(|s| s.table.rows.extend([cards(&[80]), cards(&[90])])),
        "6 rows given, the rules have 4 (5 with a 5th Row card)"
    );
    assert_eq!(
        refusal(|s| s.sevens.push(4)),
        "a 7 nimmt! card on row 4, and the rows are 0 to 3"
    );
    assert_eq!(refusal(|s| s.stops.push(1)), "two Stop cards on row 1");
    assert_eq!(
        refusal(|s| s.stops.extend([0, 3])),
        "3 rows blocked by Stop cards: at most 2 are at once"
    );
    let two_rows = Rules { rows: 2, ..rules() };
    assert_eq!(
        refusal_under(two_rows, |s| {
            s.table.rows.truncate(2);
            s.sevens.clear();
            s.stops = vec![0, 1];
        }),
        "every row is blocked by a Stop card: one always stays open"
    );
    // Without its 7 nimmt! card, row 2 holds one card too many; with it, one more is too many.
    assert_eq!(
        refusal(|s| s.sevens.clear()),
        "row 2 holds 6 cards; it holds 1 to 5"
    );
    assert_eq!(
        refusal(|s| s.table.rows[2].push(Card(36))),
        "row 2 holds 7 cards; it holds 1 to 6"
    );
    assert_eq!(
        refusal(|s| s.specials[1].push(Special::Double)),
        "x2 is not one of the anniversary variant's special cards"
    );
    assert_eq!(
        refusal(|s| s.discard.push(Special::PlusFive)),
        "plus5 is not one of the anniversary variant's special cards"
    );
    // Four Stop cards at most: one in hand, one in the deck, one on row 1, and two discarded.
    assert_eq!(
        refusal(|s| s.discard.extend([Special::Stop; 2])),
        "5 stop cards among the hands, the deck, the discard pile and the table; there are 4"
    );
    // A 5th row counts its 5th Row card.
    assert_eq!(
        refusal(|s| {
            s.table.rows.push(cards(&[80]));
            s.special_deck.extend([Special::FifthRow; 4]);
        }),
        "5 fifth_row cards among the hands, the deck, the discard pile and the table; there are 4"
    );
    assert_eq!(
        refusal(|s| s.table.hands[1].push(Card(71))),
        "every hand must hold the same number of cards, at least 1"
    );
    assert_eq!(
        refusal(|s| s.table.round = 0),
        "round and turn count from 1"
    );
    assert_eq!(
        refusal(|s| {
            let more = (0..9).map(|seat| cards(&[90 + seat]));
            s.table.hands = more.collect();
        }),
        "rule setting `players`: 9 players asked for, the rules allow 2 to 8"
    );
}

/// A `--deal` file for the anniversary variant deals the rulebook's setup: three special cards
/// to each seat in round 1 and the other 22 (for two seats) as the deck. A deal without special
/// cards, or with the wrong number for a seat, is refused (exit status 2), naming the round.
#[test]
fn a_deal_file_must_deal_the_special_cards_of_the_setup() {
    let deck = SPECIAL_DECK;
    let play = |name: &str, specials: &str| play_dealt(&deal_file(name, specials), &[]);
    let refused = |output: std::process::Output, says: &str| {
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
    };
    refused(
        play("no-specials.yaml", ""),
        "round 1: the anniversary variant deals 3 special cards to each seat in round 1",
    );
    refused(
        play(
            "two-specials.yaml",
            &format!(
                "      specials: {{hands: [[seven_nimmt, stop], [stop, negative_positive, \
                 replace]], deck: {deck}}}\n"
            ),
        ),
        "round 1: seat 0 gets 2 special cards, the anniversary variant deals 3 to each seat",
    );
    refused(
        play(
            "short-deck.yaml",
            "      specials: {hands: [[seven_nimmt, stop, stop], [stop, negative_positive, \
             replace]], deck: [insert]}\n",
        ),
        "round 1: 7 special cards given (the hands and the deck), the anniversary variant has 28",
    );
    ok(&play_dealt(&full_deal_file(), &[]));
}

/// Round 1 of a two-seat anniversary deal file: the hands and rows.
const DEAL_HANDS: &str = "hands:
        - [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
        - [13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]
      rows: [101, 102, 103, 104]";

/// The 22 special cards left for the deck by the hands of [`full_deal_file`].
const SPECIAL_DECK: &str = "[fifth_row, fifth_row, fifth_row, fifth_row, seven_nimmt, \
    seven_nimmt, seven_nimmt, insert, insert, insert, insert, replace, replace, replace, shift, \
    shift, shift, shift, stop, stop, negative_positive, negative_positive]";

/// A `--deal` file `name` of round 1 with its `specials` line (empty: none).
fn deal_file(name: &str, specials: &str) -> std::path::PathBuf {
    let path = temp(name);
    std::fs::write(&path, format!("rounds:\n    - {DEAL_HANDS}\n{specials}")).unwrap();
    path
}

/// A deal file of the rulebook's setup: three special cards to each seat, 22 as the deck.
fn full_deal_file() -> std::path::PathBuf {
    deal_file(
        "full-specials.yaml",
        &format!(
            "      specials: {{hands: [[seven_nimmt, stop, stop], [negative_positive, \
             negative_positive, replace]], deck: {SPECIAL_DECK}}}\n"
        ),
    )
}

/// `take5 play` of the anniversary variant, lowest against highest, dealt from `deal`.
fn play_dealt(deal: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "play",
        "--variant",
        "anniversary",
        "--player",
        "builtin:lowest",
        "--player",
        "builtin:highest",
        "--deal",
        deal.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    take5(&args)
}

/// A record whose round 1 is given (not the seed's) must give each seat the special cards of
/// the setup, as `take5 play --deal` requires: a `specials` line with an empty hand, or four
/// cards for a seat, is refused at its deal, in both record formats.
#[test]
fn verify_refuses_a_given_first_deal_whose_special_hands_are_not_the_setup() {
    let deal = full_deal_file();
    for format in ["1", "2"] {
        let record = temp(&format!("given-{format}.jsonl"));
        let path = record.to_str().unwrap();
        ok(&play_dealt(
            &deal,
            &["--seed", "1", "--record", path, "--record-format", format],
        ));
        ok(&take5(&["verify", path]));
        let text = std::fs::read_to_string(&record).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let at = lines
            .iter()
            .position(|l| l.contains("\"event\":\"specials\""))
            .expect("a specials line");
        // The same six cards, dealt 0 and 6, then 2 and 4.
        for (hands, said) in [
            (
                serde_json::json!([
                    [],
                    [
                        "seven_nimmt",
                        "stop",
                        "stop",
                        "negative_positive",
                        "negative_positive",
                        "replace"
                    ]
                ]),
                "seat 0 gets 0 special cards",
            ),
            (
                serde_json::json!([
                    ["seven_nimmt", "stop"],
                    ["stop", "negative_positive", "negative_positive", "replace"]
                ]),
                "seat 0 gets 2 special cards",
            ),
        ] {
            let mut specials: serde_json::Value = serde_json::from_str(&lines[at]).unwrap();
            specials["hands"] = hands;
            lines[at] = specials.to_string();
            std::fs::write(&record, lines.join("\n") + "\n").unwrap();
            let output = take5(&["verify", path]);
            let out = String::from_utf8_lossy(&output.stdout).into_owned();
            assert_eq!(output.status.code(), Some(1), "format {format}: {out}");
            let expected = format!(
                "{path}:{at}: the deal of round 1 breaks the rules: {said}, the anniversary \
                 variant deals 3 to each seat in round 1"
            );
            assert!(out.contains(&expected), "format {format}: {out}");
        }
    }
}
