//! Take a Number (`--variant take-a-number`): the engine through the `Game` trait on explicit
//! deals, a property over random games, and `take5 play` / `take5 verify` end to end.

use crate::common;

use common::{take5, temp};
use std::process::Command;
use std::sync::Arc;
use take5::cards::Card;
use take5::game::{
    Action, Deal, Decision, Event, Game, Illegal, RuleError, SetupError, TakeReason, ToMove,
};
use take5::players::builtin::{Builtin, Strategy};
use take5::rng::{GameRng, Stream};
use take5::variants::Variant;
use take5::variants::classic::Table;
use take5::variants::take_a_number::{NumberSetup, TakeANumber, rules};

fn cards(numbers: &[u16]) -> Vec<Card> {
    numbers.iter().map(|&n| Card(n)).collect()
}

/// A two-player game dealt `hands`, centre rows starting with `rows` and #-rows with `hash`.
fn dealt(hands: [&[u16]; 2], rows: [u16; 3], hash: [u16; 2]) -> (TakeANumber, Vec<Event>) {
    let mut game = TakeANumber::new(Arc::new(rules()), 2).unwrap();
    let mut events = Vec::new();
    let deal = Deal {
        hands: hands.iter().map(|h| cards(h)).collect(),
        rows: cards(&[rows[0], rows[1], rows[2], hash[0], hash[1]]),
        specials: None,
    };
    game.deal(&deal, &mut events).unwrap();
    (game, events)
}

fn turn(game: &mut TakeANumber, played: [u16; 2]) -> Vec<Event> {
    let mut events = Vec::new();
    for (seat, card) in played.into_iter().enumerate() {
        game.apply(seat, Action::Play(Card(card)), &mut events)
            .unwrap();
    }
    events
}

/// Eight cards from `from` up, skipping none.
fn hand(from: u16) -> Vec<u16> {
    (from..from + 8).collect()
}

#[test]
fn the_deal_lists_centre_rows_then_hash_rows() {
    let (a, b) = (hand(20), hand(40));
    let (game, events) = dealt([&a, &b], [10, 30, 50], [5, 6]);
    assert_eq!(game.rows(), [cards(&[10]), cards(&[30]), cards(&[50])]);
    assert_eq!(game.hash_rows(), [cards(&[5]), cards(&[6])]);
    assert_eq!(
        events,
        [Event::Deal {
            round: 1,
            hands: vec![cards(&a), cards(&b)],
            rows: cards(&[10, 30, 50, 5, 6]),
        }]
    );
    let view = game.view(1);
    assert_eq!(view.number.unwrap().capacities, [2, 3, 4]);
    assert_eq!(view.hand_sizes(), [8, 8]);
    assert_eq!(view.hash_piles(), [0, 0]);
    // A deal without the #-row cards is refused.
    let mut fresh = TakeANumber::new(Arc::new(rules()), 2).unwrap();
    let short = Deal {
        hands: vec![cards(&a), cards(&b)],
        rows: cards(&[10, 30, 50]),
        specials: None,
    };
    assert!(matches!(
        fresh.deal(&short, &mut Vec::new()),
        Err(RuleError::Setup(SetupError::BadDeal(_)))
    ));
}

/// The top row (row card 3) is taken by its 3rd card: it holds 2 before it.
#[test]
fn the_third_card_takes_the_3_row_and_the_taker_keeps_one() {
    // Seat 0 holds 11, 12, ...; seat 1 holds 60.. (never near row 0).
    let (mut game, _) = dealt([&hand(11), &hand(60)], [10, 30, 50], [1, 2]);
    turn(&mut game, [11, 60]);
    assert_eq!(game.rows()[0], cards(&[10, 11]));
    let events = turn(&mut game, [12, 61]);
    // 12 is the row's 3rd card: seat 0 takes 10 and 11 and must choose its #-row card.
    assert_eq!(
        events,
        [
            Event::Reveal {
                round: 1,
                turn: 2,
                cards: cards(&[12, 61]),
            },
            Event::Take {
                seat: 0,
                row: 0,
                cards: cards(&[10, 11]),
                bullheads: 8,
                reason: TakeReason::Full,
            },
            Event::Place {
                seat: 0,
                card: Card(12),
                row: 0,
            },
        ]
    );
    assert_eq!(game.to_move(), ToMove::Seat(0, Decision::KeepCard));
    assert_eq!(game.view(0).keep_from(), cards(&[10, 11]));
    assert!(game.view(1).keep_from().is_empty());
    // Only a taken card may be kept, and only by the taker.
    assert_eq!(
        game.check(0, Action::Keep(Card(12))),
        Err(Illegal::NotTaken {
            seat: 0,
            card: Card(12)
        }
        .into())
    );
    assert_eq!(
        game.check(1, Action::Keep(Card(10))),
        Err(Illegal::NotYourTurn {
            seat: 1,
            waiting_for: 0
        }
        .into())
    );
    assert_eq!(
        game.check(0, Action::Play(Card(13))),
        Err(Illegal::KeepDue { seat: 0 }.into())
    );
    let mut events = Vec::new();
    game.apply(0, Action::Keep(Card(11)), &mut events).unwrap();
    assert_eq!(
        events[0],
        Event::Keep {
            seat: 0,
            card: Card(11)
        }
    );
    assert_eq!(game.hash_rows()[0], cards(&[1, 11]));
    // 10 went into the hand, playable from the next turn.
    assert_eq!(game.hand(0), cards(&[10, 13, 14, 15, 16, 17, 18]));
    assert_eq!(game.to_move(), ToMove::Everyone(Decision::PlayCard));
}

#[test]
fn a_low_card_takes_the_row_of_its_players_choice_and_one_card_goes_to_the_hash_row() {
    let (mut game, _) = dealt(
        [&[3, 20, 21, 22, 23, 24, 25, 26], &hand(60)],
        [10, 30, 50],
        [1, 2],
    );
    turn(&mut game, [3, 60]);
    assert_eq!(
        game.to_move(),
        ToMove::Seat(0, Decision::ChooseRow { card: Card(3) })
    );
    let mut events = Vec::new();
    game.apply(0, Action::TakeRow(1), &mut events).unwrap();
    // One card taken: straight to the #-row, no question; 30 is above the #-row's end 1.
    assert_eq!(
        events[..3],
        [
            Event::Take {
                seat: 0,
                row: 1,
                cards: cards(&[30]),
                bullheads: 3,
                reason: TakeReason::Low,
            },
            Event::Place {
                seat: 0,
                card: Card(3),
                row: 1,
            },
            Event::Keep {
                seat: 0,
                card: Card(30)
            },
        ]
    );
    assert_eq!(game.hash_rows()[0], cards(&[1, 30]));
    assert_eq!(game.rows()[1], cards(&[3]));
    assert_eq!(game.hand(0).len(), 7);
}

#[test]
fn a_kept_card_below_the_hash_row_end_sends_the_row_to_the_pile() {
    // Seat 0's #-row starts at 90: any card it keeps from the low rows is lower.
    let (mut game, _) = dealt(
        [&[3, 20, 21, 22, 23, 24, 25, 26], &hand(60)],
        [10, 30, 50],
        [90, 2],
    );
    turn(&mut game, [3, 60]);
    let mut events = Vec::new();
    game.apply(0, Action::TakeRow(0), &mut events).unwrap();
    assert!(events.contains(&Event::Pile {
        seat: 0,
        cards: cards(&[90]),
    }));
    assert_eq!(game.hash_piles()[0], cards(&[90]));
    assert_eq!(game.hash_rows()[0], cards(&[10]));
    assert_eq!(game.view(1).hash_piles(), [1, 0]);
    // #-pile cards count twice: 90 has 3 bullheads.
    let hand_heads: i32 = game.hand(0).iter().map(|&c| bullheads(c)).sum();
    assert_eq!(game.view(0).taken[0], hand_heads + 6);
}

fn bullheads(card: Card) -> i32 {
    rules().deck.bullheads(card) as i32
}

/// The last card of a hand, with nothing collected, ends the round after the turn; the other
/// players' revealed cards are still placed.
#[test]
fn the_round_ends_when_a_hand_runs_out_and_nothing_comes_back() {
    let (mut game, _) = dealt([&hand(11), &hand(31)], [10, 30, 50], [1, 2]);
    let mut turns = 0;
    while game.round() == 1 && game.to_move() != ToMove::GameOver {
        let played = [game.hand(0)[0].0, game.hand(1)[0].0];
        let mut events = turn(&mut game, played);
        while let ToMove::Seat(seat, decision) = game.to_move() {
            let action = match decision {
                Decision::KeepCard => Action::Keep(game.keep_from()[0]),
                Decision::ChooseRow { .. } => Action::TakeRow(0),
                Decision::PlayCard
                | Decision::Pick
                | Decision::Place { .. }
                | Decision::Special { .. }
                | Decision::Cancel
                | Decision::Swap => unreachable!(),
            };
            game.apply(seat, action, &mut events).unwrap();
        }
        turns += 1;
        if let Some(Event::RoundEnd { penalties, .. }) =
            events.iter().find(|e| matches!(e, Event::RoundEnd { .. }))
        {
            // Scoring: hand once, #-pile twice, #-row nothing.
            assert!(game.hand(0).is_empty() || game.hand(1).is_empty());
            assert_eq!(penalties.len(), 2);
            break;
        }
        assert!(turns < 60);
    }
    assert_eq!(game.to_move(), ToMove::Deal);
}

/// At every round end the penalties are the hand's bullheads once and the #-pile's twice; the
/// #-row's count nothing (checked against the table the round ends with, over random games).
#[test]
fn scoring_counts_hand_once_pile_twice_hash_row_never() {
    let mut game = TakeANumber::new(Arc::new(rules()), 3).unwrap();
    let mut rng = GameRng::new(1, Stream::Deal(0));
    let mut bots = [
        Builtin::new(Strategy::Random, 3),
        Builtin::new(Strategy::Dodger, 3),
        Builtin::new(Strategy::Highest, 3),
    ];
    let (mut rounds, mut piled, mut in_hand) = (0, false, false);
    for _ in 0..10 {
        game.restart();
        loop {
            match game.to_move() {
                ToMove::Deal => game.deal_random(&mut rng, &mut Vec::new()).unwrap(),
                ToMove::GameOver => break,
                _ => {
                    let seat = (0..3).find(|&s| game.owes(s).is_some()).unwrap();
                    let action = bots[seat].choose(&game.view(seat));
                    let mut events = Vec::new();
                    game.apply(seat, action, &mut events).unwrap();
                    let Some(Event::RoundEnd { penalties, .. }) =
                        events.iter().find(|e| matches!(e, Event::RoundEnd { .. }))
                    else {
                        continue;
                    };
                    let heads = |cs: &[Card]| cs.iter().map(|&c| bullheads(c)).sum::<i32>();
                    let expected: Vec<i32> = (0..3)
                        .map(|s| heads(game.hand(s)) + 2 * heads(&game.hash_piles()[s]))
                        .collect();
                    assert_eq!(penalties, &expected);
                    rounds += 1;
                    piled |= game.hash_piles().iter().any(|p| !p.is_empty());
                    in_hand |= (0..3).any(|s| !game.hand(s).is_empty());
                }
            }
        }
        assert_eq!(game.outcome().unwrap().totals.len(), 3);
    }
    assert_eq!(rounds, 20, "two rounds a game");
    assert!(piled && in_hand);
}

/// A game of `seats` waiting for its deal from `seed`, and built-in bots of several strategies
/// to play it.
fn random_game(seed: u64, seats: usize) -> (TakeANumber, GameRng, Vec<Builtin>) {
    let game = TakeANumber::new(Arc::new(rules()), seats).unwrap();
    let dealer = GameRng::new(seed, Stream::Deal(0));
    let bots = (0..seats)
        .map(|s| {
            Builtin::new(
                Strategy::ALL[(s + seed as usize) % Strategy::ALL.len()],
                seed,
            )
        })
        .collect();
    (game, dealer, bots)
}

/// Every card dealt is in exactly one place after every step: a hand, a centre row, a #-row, a
/// #-pile, on the table face down or revealed, or taken and waiting for the #-row choice.
#[test]
fn every_card_is_in_exactly_one_place_after_every_step() {
    for seed in 0..40u64 {
        let seats = 2 + (seed as usize % 3);
        let (mut game, mut dealer, mut bots) = random_game(seed, seats);
        let dealt = seats * 8 + 3 + seats;
        let mut steps = 0;
        loop {
            match game.to_move() {
                ToMove::Deal => game.deal_random(&mut dealer, &mut Vec::new()).unwrap(),
                ToMove::GameOver => break,
                _ => {
                    let seat = (0..seats).find(|&s| game.owes(s).is_some()).unwrap();
                    let action = bots[seat].choose(&game.view(seat));
                    game.apply(seat, action, &mut Vec::new()).unwrap();
                }
            }
            steps += 1;
            let mut all = game.cards_in_play();
            assert_eq!(all.len(), dealt, "seed {seed} step {steps}");
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), dealt, "seed {seed} step {steps}: a card twice");
            for (i, row) in game.rows().iter().enumerate() {
                assert!(row.len() <= i + 2, "seed {seed}: row {i} over capacity");
                assert!(row.windows(2).all(|w| w[0] < w[1]));
            }
            for row in game.hash_rows() {
                assert!(!row.is_empty() && row.windows(2).all(|w| w[0] < w[1]));
            }
            assert!(steps < 10_000);
        }
        assert!(game.outcome().is_some());
    }
}

// ---------------------------------------------------------------------------------------------
// A table set up explicitly (fixtures' `setup`).

/// The table `game` shows when a turn starts, as a setup.
fn setup_of(game: &TakeANumber) -> NumberSetup {
    let seats = game.seats();
    let view = game.view(0);
    NumberSetup {
        table: Table {
            round: game.round(),
            turn: game.turn(),
            hands: (0..seats).map(|s| game.hand(s).to_vec()).collect(),
            rows: game.rows().to_vec(),
            scores: view.scores.to_vec(),
            piles: vec![Vec::new(); seats],
        },
        hash_rows: game.hash_rows().to_vec(),
        hash_piles: game.hash_piles().to_vec(),
    }
}

/// A game rebuilt from its table at the start of any turn shows what the game shows (the
/// round's `taken` counted as the engine counts it) and plays on exactly as it does.
#[test]
fn a_game_set_up_from_its_table_plays_on_the_same() {
    let mut checked = 0;
    for seed in 0..12u64 {
        let seats = 2 + (seed as usize % 3);
        let (mut game, mut dealer, mut bots) = random_game(seed, seats);
        let mut rebuilt: Option<TakeANumber> = None;
        loop {
            match game.to_move() {
                ToMove::Deal => {
                    game.deal_random(&mut dealer, &mut Vec::new()).unwrap();
                    rebuilt = None;
                    continue;
                }
                ToMove::GameOver => break,
                ToMove::Everyone(_) if (0..seats).all(|s| game.owes(s).is_some()) => {
                    let copy = TakeANumber::from_table(Arc::new(rules()), &setup_of(&game))
                        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                    for seat in 0..seats {
                        let (a, b) = (game.view(seat), copy.view(seat));
                        assert_eq!((a.round, a.turn, a.decision), (b.round, b.turn, b.decision));
                        assert_eq!((a.hand, a.rows), (b.hand, b.rows), "seed {seed}");
                        assert_eq!((a.scores, a.taken), (b.scores, b.taken), "seed {seed}");
                        assert_eq!(a.number, b.number, "seed {seed}");
                    }
                    assert_eq!(game.hash_piles(), copy.hash_piles());
                    checked += 1;
                    // Play the rest of the round on the first copy of the round only.
                    if rebuilt.is_none() {
                        rebuilt = Some(copy);
                    }
                }
                _ => {}
            }
            let seat = (0..seats).find(|&s| game.owes(s).is_some()).unwrap();
            let action = bots[seat].choose(&game.view(seat));
            let (mut played, mut replayed) = (Vec::new(), Vec::new());
            game.apply(seat, action, &mut played).unwrap();
            if let Some(copy) = &mut rebuilt {
                copy.apply(seat, action, &mut replayed).unwrap();
                assert_eq!(played, replayed, "seed {seed}");
                assert_eq!(game.to_move(), copy.to_move(), "seed {seed}");
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

/// A small two-player table: rows holding 2, 3 and 4 cards before their taker.
fn small_setup() -> NumberSetup {
    NumberSetup {
        table: Table {
            round: 1,
            turn: 5,
            hands: vec![cards(&[15, 60, 61]), cards(&[50])],
            rows: vec![cards(&[10, 11]), cards(&[20]), cards(&[30])],
            scores: vec![0, 0],
            piles: vec![Vec::new(), Vec::new()],
        },
        hash_rows: vec![cards(&[1, 2]), cards(&[3])],
        hash_piles: vec![cards(&[5]), Vec::new()],
    }
}

/// The engine's refusal of `setup` changed by `change`.
fn refusal(change: impl FnOnce(&mut NumberSetup)) -> String {
    let mut setup = small_setup();
    change(&mut setup);
    match TakeANumber::from_table(Arc::new(rules()), &setup) {
        Err(RuleError::Setup(SetupError::BadDeal(why))) => why,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_set_up_table_counts_taken_and_leaves_out_the_cards_in_no_place() {
    // As classic: cards in no place (here most of the deck) are out of the round.
    let game = TakeANumber::from_table(Arc::new(rules()), &small_setup()).unwrap();
    // 15 + 60 + 61 (2 + 3 + 1) and 5 on the #-pile twice (2 * 2); 50 (3).
    assert_eq!(game.view(0).taken, &[10, 3]);
    assert_eq!(game.view(0).hand_sizes(), &[3, 1]);
    assert_eq!(game.view(0).hash_piles(), &[1, 0]);
    assert_eq!(game.to_move(), ToMove::Everyone(Decision::PlayCard));
    assert_eq!((game.round(), game.turn()), (1, 5));
}

#[test]
fn a_bad_table_is_refused_with_what_is_wrong() {
    assert_eq!(
        refusal(|s| s.hash_piles[1].push(Card(61))),
        "card 61 appears twice"
    );
    assert_eq!(
        refusal(|s| s.hash_rows[1].push(Card(20))),
        "card 20 appears twice"
    );
    assert_eq!(
        refusal(|s| s.hash_rows.truncate(1)),
        "2 hands but 2 scores, 1 #-rows and 2 #-piles"
    );
    assert_eq!(
        refusal(|s| s.hash_piles.push(Vec::new())),
        "2 hands but 2 scores, 2 #-rows and 3 #-piles"
    );
    assert_eq!(
        refusal(|s| s.hash_rows[0].clear()),
        "seat 0's #-row is empty: it holds a card from the deal on"
    );
    assert_eq!(
        refusal(|s| s.hash_rows[0].reverse()),
        "seat 0's #-row is not in ascending order (a lower card starts a new #-row)"
    );
    assert_eq!(
        refusal(|s| s.table.piles[0].push(Card(99))),
        "Take a Number keeps no pile of taken cards (they go to the #-row and the hand): give \
         the #-piles as `hash_piles`"
    );
    assert_eq!(
        refusal(|s| s.table.hands[1].clear()),
        "seat 1's hand is empty: every hand holds a card when a turn starts (the round ends \
         after a turn that empties one)"
    );
    // Row 0 (row card 3) holds 2 cards before its taker, row 2 (row card 5) 4.
    assert_eq!(
        refusal(|s| s.table.rows[0].push(Card(12))),
        "row 0 holds 3 cards; it holds 1 to 2"
    );
    let mut full = small_setup();
    full.table.rows[2].extend(cards(&[31, 32, 33]));
    assert!(TakeANumber::from_table(Arc::new(rules()), &full).is_ok());
    assert_eq!(
        refusal(|s| s.table.rows[2].extend(cards(&[31, 32, 33, 34]))),
        "row 2 holds 5 cards; it holds 1 to 4"
    );
    assert_eq!(refusal(|s| s.table.turn = 0), "round and turn count from 1");
    assert_eq!(
        refusal(|s| s
            .table
            .hands
            .extend([cards(&[70]), cards(&[71]), cards(&[72])])),
        "rule setting `players`: 5 players asked for, the rules allow 2 to 4"
    );
}

// ---------------------------------------------------------------------------------------------
// take5 play and take5 verify.

fn play_and_verify(players: &[&str], name: &str) -> String {
    let record = temp(name);
    let mut args = vec![
        "play",
        // Bots over pipes on a loaded machine: a limit no healthy bot meets by accident.
        "--timeout",
        "60000",
        "--variant",
        "take-a-number",
        "--seed",
        "11",
        "--games",
        "4",
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
    assert!(text.contains(r#""variant":"take-a-number""#));
    assert_eq!(text.matches(r#"{"event":"game_end""#).count(), 4);
    assert_eq!(
        text.matches(r#"{"event":"round_end""#).count(),
        8,
        "two rounds a game"
    );
    assert!(text.contains(r#"{"event":"keep""#));
    let verified = take5(&["verify", record.to_str().unwrap()]);
    assert!(
        verified.status.success(),
        "{}{}",
        String::from_utf8_lossy(&verified.stdout),
        String::from_utf8_lossy(&verified.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn two_built_ins_play_and_the_record_verifies() {
    play_and_verify(&["builtin:random", "builtin:dodger"], "two.jsonl");
}

#[test]
fn four_built_ins_play_and_the_record_verifies() {
    let summary = play_and_verify(
        &[
            "builtin:random",
            "builtin:dodger",
            "builtin:lowest",
            "builtin:highest",
        ],
        "four.jsonl",
    );
    assert!(summary.contains("faults"));
}

#[test]
fn the_python_bot_plays_without_faults() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIPPED: python3 is not installed");
        return;
    }
    let bot = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/bots/python_bot.py");
    let player = format!("python3 {bot}");
    let summary = play_and_verify(&[&player, "builtin:dodger", "builtin:random"], "py.jsonl");
    // Its line in the table of players (by the name it gives in its hello), after the games;
    // `-` for no faults.
    let line = summary
        .lines()
        .skip_while(|l| !l.starts_with("seed "))
        .find(|l| l.starts_with("python_bot "))
        .unwrap_or_else(|| panic!("{summary}"));
    assert!(line.trim_end().ends_with(" -"), "faults: {line}");
}

#[test]
fn five_players_are_refused() {
    let p = ["--player", "builtin:random"];
    let mut args = vec!["play", "--variant", "take-a-number"];
    for _ in 0..5 {
        args.extend(p);
    }
    let out = take5(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(Variant::TakeANumber.new_game(Arc::new(rules()), 5).is_err());
}

#[test]
fn a_house_setting_of_another_variant_is_refused() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/house/circle_all_green.lua"
    );
    let out = take5(&[
        "play",
        "--variant",
        "take-a-number",
        "--house",
        script,
        "--player",
        "builtin:random",
        "--player",
        "builtin:random",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("setting red is not a setting of the take-a-number variant"),
        "{stderr}"
    );
}

/// A recorded #-row choice of a card that was not taken is named by `take5 verify`.
#[test]
fn verify_names_a_kept_card_that_was_not_taken() {
    let record = temp("tampered.jsonl");
    let out = take5(&[
        "play",
        "--variant",
        "take-a-number",
        "--seed",
        "3",
        "--player",
        "builtin:dodger",
        "--player",
        "builtin:random",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let mut lines: Vec<String> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let value = |l: &str| serde_json::from_str::<serde_json::Value>(l).unwrap();
    // The first keep that was a choice: two lines after a take of several cards.
    let at = (2..lines.len())
        .find(|&i| {
            let (take, keep) = (value(&lines[i - 2]), value(&lines[i]));
            take["event"] == "take"
                && take["cards"].as_array().unwrap().len() > 1
                && keep["event"] == "keep"
        })
        .expect("a #-row choice in the record");
    let placed = value(&lines[at - 1])["card"].clone();
    let mut keep = value(&lines[at]);
    keep["card"] = placed.clone();
    lines[at] = keep.to_string();
    std::fs::write(&record, lines.join("\n") + "\n").unwrap();
    let verified = take5(&["verify", record.to_str().unwrap()]);
    assert_eq!(verified.status.code(), Some(1));
    let said = String::from_utf8_lossy(&verified.stdout).to_string()
        + &String::from_utf8_lossy(&verified.stderr);
    assert!(
        said.contains(&format!(":{}: seat", at + 1)) && said.contains("not_taken"),
        "{said}"
    );
}

/// A bot that fails is played by the referee's fallback, #-row choices included; the record
/// is the same each time and verifies.
#[test]
fn the_fallback_plays_a_failed_seat_deterministically() {
    let run = |name: &str| {
        let record = temp(name);
        let out = take5(&[
            "play",
            "--variant",
            "take-a-number",
            "--seed",
            "9",
            "--games",
            "2",
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
        let verified = take5(&["verify", record.to_str().unwrap()]);
        assert!(verified.status.success());
        std::fs::read_to_string(&record).unwrap()
    };
    let (a, b) = (run("fallback-a.jsonl"), run("fallback-b.jsonl"));
    assert!(a.contains(r#""event":"fault""#));
    assert!(a.contains(r#""event":"keep""#));
    assert_eq!(a, b);
}
