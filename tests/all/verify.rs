//! `verify` against games played in-process by the built-in bots: every honest record passes,
//! and each kind of tampering is caught at the line that was changed.

use std::io::Cursor;
use std::sync::Arc;
use take5::game::{Event, Game, ToMove};
use take5::players::builtin::{Builtin, Strategy};
use take5::record::{FORMAT, FaultLine, Header, Line, Writer};
use take5::rng::{GameRng, Stream};
use take5::rules::{GameEnd, Rules};
use take5::seat::FaultKind;
use take5::variants::Variant;
use take5::variants::classic::Classic;
use take5::verify::{VerifyError, verify_record};

/// Plays one game with random bots and returns its record lines (as text) and its totals.
fn play(seed: u64, game: u64, seats: usize, rules: Rules) -> (Vec<String>, Vec<i32>) {
    let rules = Arc::new(rules);
    let mut writer = Writer::new(Vec::new());
    let header = Header {
        format: FORMAT,
        game,
        variant: Variant::Classic,
        // Short games are not the classic game: their records have no seed (as if every deal
        // were given), which lets them set their own rules.
        seed: (rules.end == GameEnd::TargetScore(66)).then_some(seed),
        players: (0..seats).map(|s| format!("builtin:random#{s}")).collect(),
        hello_names: Vec::new(),
        rules: (*rules).clone(),
        house: None,
        given_deals: 0,
        given_deck: false,
        tournament: None,
        clocks: Vec::new(),
    };
    writer.write(&Line::Game(Box::new(header))).unwrap();
    let mut state = Classic::new(rules, seats).unwrap();
    // The referee's stream: each deal is played once per seat rotation.
    let mut dealer = GameRng::new(seed, Stream::Deal(game / seats as u64));
    let mut bots: Vec<Builtin> = (0..seats)
        .map(|s| Builtin::new(Strategy::Random, seed ^ (s as u64) << 32))
        .collect();
    let mut events = Vec::new();
    loop {
        match state.to_move() {
            ToMove::Deal => state.deal_random(&mut dealer, &mut events).unwrap(),
            ToMove::Everyone(_) => {
                for (seat, bot) in bots.iter_mut().enumerate() {
                    let action = bot.choose(&state.view(seat));
                    state.apply(seat, action, &mut events).unwrap();
                }
            }
            ToMove::Seat(seat, _) => {
                // A fault line now and then: verify must read past it.
                if seed.is_multiple_of(3) {
                    let view = state.view(seat);
                    let fault = FaultLine {
                        seat,
                        kind: FaultKind::Timeout,
                        detail: "no answer in 1s".into(),
                        round: view.round,
                        turn: view.turn,
                    };
                    writer.write(&Line::Fault(fault)).unwrap();
                }
                let action = bots[seat].choose(&state.view(seat));
                state.apply(seat, action, &mut events).unwrap();
            }
            ToMove::GameOver => break,
        }
        for event in events.drain(..) {
            writer.write(&Line::Event(event)).unwrap();
        }
    }
    let text = String::from_utf8(writer.into_inner()).unwrap();
    let totals = state.outcome().unwrap().totals;
    (text.lines().map(str::to_string).collect(), totals)
}

fn verify(lines: &[String]) -> Result<take5::verify::Summary, VerifyError> {
    verify_record(Cursor::new(lines.join("\n") + "\n"))
}

fn rules(rounds: Option<u32>) -> Rules {
    let mut rules = Rules::classic();
    if let Some(n) = rounds {
        rules.end = GameEnd::Rounds(n);
    }
    rules
}

/// The 1-based number of the first line whose `event` is `kind` (after line `after`).
fn find(lines: &[String], kind: &str, after: usize) -> usize {
    let tag = format!("\"event\":\"{kind}\"");
    after
        + 1
        + lines[after..]
            .iter()
            .position(|l| l.contains(&tag))
            .unwrap_or_else(|| panic!("no {kind} line after line {after}"))
}

fn edit(lines: &mut [String], number: usize, change: impl FnOnce(&mut serde_json::Value)) {
    let mut value: serde_json::Value = serde_json::from_str(&lines[number - 1]).unwrap();
    change(&mut value);
    lines[number - 1] = value.to_string();
}

#[test]
fn every_seeded_game_verifies() {
    for seed in 0..120u64 {
        let seats = 2 + (seed % 9) as usize;
        let (lines, totals) = play(seed, seed % 4, seats, rules(None));
        let summary = verify(&lines).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(summary.games.len(), 1);
        assert_eq!(summary.games[0].outcome.totals, totals, "seed {seed}");
        assert_eq!(summary.lines, lines.len());
        assert!(totals.iter().any(|&t| t >= 66), "seed {seed}: {totals:?}");
    }
}

#[test]
fn several_games_in_one_file_are_each_verified() {
    let mut lines = Vec::new();
    for game in 0..5 {
        lines.extend(play(99, game, 4, rules(Some(2))).0);
    }
    let summary = verify(&lines).unwrap();
    assert_eq!(summary.games.len(), 5);
    assert!(summary.games.iter().all(|g| g.rounds == 2));
    assert_eq!(
        summary.games.iter().map(|g| g.number).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4]
    );
}

#[test]
fn a_card_on_the_wrong_row_is_named() {
    let (mut lines, _) = play(7, 0, 5, rules(Some(1)));
    let n = find(&lines, "place", 0);
    let mut card = 0;
    let mut right = 0;
    edit(&mut lines, n, |v| {
        card = v["card"].as_u64().unwrap();
        right = v["row"].as_u64().unwrap();
        v["row"] = ((right + 1) % 4).into();
    });
    let e = verify(&lines).unwrap_err();
    assert_eq!(e.line, Some(n));
    assert_eq!(
        e.message,
        format!(
            "card {card} was placed on row {}, the rules put it on row {right}",
            (right + 1) % 4
        )
    );
    assert!(
        e.in_file("record.jsonl")
            .starts_with(&format!("record.jsonl:{n}: card "))
    );
}

#[test]
fn a_wrong_score_is_named() {
    let (mut lines, _) = play(8, 0, 3, rules(Some(2)));
    let n = find(&lines, "round_end", 0);
    edit(&mut lines, n, |v| {
        let t = v["totals"][1].as_u64().unwrap();
        v["totals"][1] = (t + 1).into();
    });
    let e = verify(&lines).unwrap_err();
    assert_eq!(e.line, Some(n));
    assert!(
        e.message
            .starts_with("wrong score: round 1 ends with totals"),
        "{e}"
    );
}

#[test]
fn a_wrong_take_is_named() {
    // Find a game with a full-row take, and change its bullheads.
    for seed in 0..50 {
        let (mut lines, _) = play(seed, 0, 6, rules(Some(1)));
        let Some(i) = lines.iter().position(|l| l.contains("\"reason\":\"full\"")) else {
            continue;
        };
        edit(&mut lines, i + 1, |v| {
            let b = v["bullheads"].as_u64().unwrap();
            v["bullheads"] = (b + 2).into();
        });
        let e = verify(&lines).unwrap_err();
        assert_eq!(e.line, Some(i + 1));
        assert!(e.message.contains("bullheads, the record says"), "{e}");
        return;
    }
    panic!("no full row taken in 50 games");
}

#[test]
fn a_dropped_line_is_named() {
    let (mut lines, _) = play(9, 0, 4, rules(Some(1)));
    // Drop the first place line of the second turn: the line after it is then wrong.
    let second = find(&lines, "reveal", find(&lines, "reveal", 0));
    let n = find(&lines, "place", second);
    let dropped = lines.remove(n - 1);
    let e = verify(&lines).unwrap_err();
    assert_eq!(e.line, Some(n), "{e}");
    assert!(
        e.message.starts_with("a line is missing before this one"),
        "{e}"
    );
    let event: Event = serde_json::from_str(&dropped).unwrap();
    assert!(
        e.message.contains(&take5::fixture::report::event(&event)),
        "{e}"
    );
}

#[test]
fn a_missing_end_is_named() {
    let (mut lines, _) = play(10, 0, 3, rules(Some(1)));
    let game_end = lines.pop().unwrap();
    assert!(game_end.contains("game_end"));
    let e = verify(&lines).unwrap_err();
    assert_eq!(e.line, Some(lines.len()));
    assert!(e.message.contains("the rules emit `game over"), "{e}");
    lines.truncate(lines.len() - 3);
    let e = verify(&lines).unwrap_err();
    assert_eq!(e.line, Some(lines.len()));
    assert!(
        e.message.starts_with("a line is missing: the record ends"),
        "{e}"
    );
}

#[test]
fn an_extra_line_is_named() {
    let (mut lines, _) = play(11, 0, 3, rules(Some(1)));
    let n = find(&lines, "place", 0);
    lines.insert(n, lines[n - 1].clone());
    let e = verify(&lines).unwrap_err();
    assert_eq!(e.line, Some(n + 1), "{e}");
    let (mut lines, _) = play(11, 0, 3, rules(Some(1)));
    let extra = lines[lines.len() - 2].clone();
    lines.push(extra);
    let e = verify(&lines).unwrap_err();
    assert_eq!(e.line, Some(lines.len()));
    assert!(e.message.contains("the game is over"), "{e}");
}

#[test]
fn an_illegal_card_is_named() {
    let (mut lines, _) = play(12, 0, 4, rules(Some(1)));
    let deal: Event = serde_json::from_str(&lines[find(&lines, "deal", 0) - 1]).unwrap();
    let Event::Deal { rows, .. } = deal else {
        unreachable!()
    };
    let n = find(&lines, "reveal", 0);
    edit(&mut lines, n, |v| v["cards"][2] = rows[0].0.into());
    let e = verify(&lines).unwrap_err();
    assert_eq!(e.line, Some(n));
    assert_eq!(
        e.message,
        format!(
            "seat 2 cannot play {0}: not_in_hand: card {0} is not in seat 2's hand",
            rows[0]
        )
    );
}

#[test]
fn a_wrong_row_choice_is_named() {
    for seed in 0..50 {
        let (mut lines, _) = play(seed, 0, 5, rules(Some(1)));
        let Some(i) = lines.iter().position(|l| l.contains("\"reason\":\"low\"")) else {
            continue;
        };
        let mut seat = 0;
        edit(&mut lines, i + 1, |v| {
            seat = v["seat"].as_u64().unwrap();
            v["seat"] = ((seat + 1) % 5).into();
        });
        let e = verify(&lines).unwrap_err();
        assert_eq!(e.line, Some(i + 1));
        assert!(e.message.contains("not_your_turn"), "{e}");
        assert!(
            e.message.contains(&format!("waiting for seat {seat}")),
            "{e}"
        );
        return;
    }
    panic!("no low card in 50 games");
}

#[test]
fn records_that_are_not_records() {
    let e = verify_record(Cursor::new("{\"event\":\"place\"}\n")).unwrap_err();
    assert_eq!(e.line, Some(1));
    let e = verify_record(Cursor::new("not json\n")).unwrap_err();
    assert_eq!(e.line, Some(1));
    assert!(e.column.is_some());
    assert!(e.message.starts_with("not a record line"), "{e}");
    let (mut lines, _) = play(13, 0, 2, rules(Some(1)));
    lines.remove(0);
    let e = verify(&lines).unwrap_err();
    assert_eq!(e.line, Some(1));
    assert_eq!(e.message, "a record starts with a `game` line");
}
