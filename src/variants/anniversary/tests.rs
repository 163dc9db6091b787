use super::*;
use crate::cards::Deck;
use crate::game::{Illegal, SetupError, ToMove};

fn cards(numbers: &[u16]) -> Vec<Card> {
    numbers.iter().map(|&n| Card(n)).collect()
}

/// Rules with `hand_size` cards per hand (the rest are the variant's).
fn small(hand_size: usize) -> Arc<Rules> {
    Arc::new(Rules {
        hand_size,
        ..rules()
    })
}

#[test]
fn rows_and_places_past_a_byte_are_refused() {
    // Enough cards that only the rows' and places' limits refuse the rules.
    let big = |rows, row_capacity| {
        Arc::new(Rules {
            deck: Deck::classic(1000),
            rows,
            row_capacity,
            ..rules()
        })
    };
    assert!(Anniversary::new(big(255, 254), 2).is_ok());
    let refused = |rules| Anniversary::new(rules, 2).map(|_| ()).unwrap_err().setting;
    assert_eq!(refused(big(256, 5)), "rows");
    assert_eq!(refused(big(4, 255)), "row_capacity");
}

#[test]
fn a_deal_of_the_circle_games_special_cards_is_refused() {
    let mut game = Anniversary::new(small(1), 2).unwrap();
    let deal = Deal {
        hands: vec![cards(&[1]), cards(&[2])],
        rows: cards(&[3, 4, 5, 6]),
        specials: Some(SpecialDeal {
            hands: vec![vec![Special::Double], vec![Special::Stop]],
            deck: Vec::new(),
            reshuffled: false,
            seed: 0,
        }),
    };
    let refused = game.deal(&deal, &mut crate::game::Discard);
    assert_eq!(
        refused,
        Err(
            SetupError::BadDeal("x2 is not one of the anniversary variant's special cards".into())
                .into()
        )
    );
}

/// A game dealt `hands` and rows starting with `rows`, each seat given `specials` and the
/// deck `deck`.
fn dealt(
    hands: &[&[u16]],
    rows: [u16; 4],
    specials: &[&[Special]],
    deck: &[Special],
) -> Anniversary {
    let mut game = Anniversary::new(small(hands[0].len()), hands.len()).unwrap();
    let deal = Deal {
        hands: hands.iter().map(|h| cards(h)).collect(),
        rows: cards(&rows),
        specials: Some(SpecialDeal {
            hands: specials.iter().map(|s| s.to_vec()).collect(),
            deck: deck.to_vec(),
            reshuffled: false,
            seed: 7,
        }),
    };
    game.deal(&deal, &mut Vec::new()).unwrap();
    game
}

/// A two-seat game on the rows 10, 20, 30, 40, dealt `hands`, seat 0 holding `specials` and
/// the special deck empty, after each seat played its card of `plays`.
fn after_plays(hands: [[u16; 2]; 2], specials: &[Special], plays: [u16; 2]) -> Anniversary {
    let rows = [10, 20, 30, 40];
    let mut game = dealt(&[&hands[0], &hands[1]], rows, &[specials, &[]], &[]);
    for (seat, card) in plays.into_iter().enumerate() {
        act(&mut game, seat, Action::Play(Card(card)));
    }
    game
}

fn act(game: &mut Anniversary, seat: Seat, action: Action) -> Vec<Event> {
    let mut events = Vec::new();
    game.apply(seat, action, &mut events)
        .unwrap_or_else(|e| panic!("{action:?} by seat {seat}: {e}"));
    events
}

/// Every special card, wherever it is: hands, deck, discard, rows.
fn specials_in_play(game: &Anniversary) -> usize {
    let table = &game.table;
    let on_table = game.on_table().count();
    game.special_hands.iter().map(Vec::len).sum::<usize>()
        + game.deck.len()
        + table.discard.len()
        + on_table
}

/// Every action a seat could send now, legal or not (the engine sorts them out).
fn candidates(game: &Anniversary, seat: Seat) -> Vec<Action> {
    let view = game.view(seat);
    let mut all: Vec<Action> = view.hand.iter().map(|&c| Action::Play(c)).collect();
    all.extend((0..view.rows.len()).map(Action::TakeRow));
    all.push(Action::Pass);
    all.extend(view.taking().iter().map(|&c| Action::Cancel(c)));
    all.extend(view.special_hand.iter().map(|&s| Action::Swap(s)));
    if let Some(Decision::Special { card }) = view.decision {
        for &special in view.special_hand {
            all.extend(legal_plays(&view, card, special).map(Action::Special));
        }
    }
    all
}

/// Every special card play with arguments in range, legal or not.
fn every_play(view: &View) -> Vec<SpecialPlay> {
    let rows = byte(view.rows.len() + 1);
    let mut all = vec![SpecialPlay::FifthRow];
    for row in 0..rows {
        all.push(SpecialPlay::SevenNimmt { row });
        all.push(SpecialPlay::Stop { row });
        for at in 0..8 {
            all.push(SpecialPlay::Insert { row, at });
            for &card in view.rows.iter().flatten() {
                all.push(SpecialPlay::Shift { card, row, at });
            }
        }
    }
    for &card in view.hand.iter().chain(&[Card(0)]) {
        all.push(SpecialPlay::Replace { card });
    }
    all
}

#[test]
fn random_games_of_2_to_8_players_end_with_every_card_accounted_for() {
    for seats in 2..=8 {
        let mut game = Anniversary::new(Arc::new(rules()), seats).unwrap();
        let mut rng = GameRng::new(seats as u64, Stream::Deal(0));
        let mut choices = GameRng::new(seats as u64, Stream::Bot { game: 0, seat: 0 });
        let mut specials_played = 0;
        loop {
            match game.to_move() {
                ToMove::Deal => game.deal_random(&mut rng, &mut Vec::new()).unwrap(),
                ToMove::GameOver => break,
                ToMove::Everyone(_) | ToMove::Seat(..) => {
                    let seat = (0..seats).find(|&s| game.owes(s).is_some()).unwrap();
                    let view = game.view(seat);
                    if let Some(Decision::Special { card }) = view.decision {
                        // The legal plays listed are exactly those the rules allow.
                        let mut listed: Vec<String> = Special::ANNIVERSARY
                            .iter()
                            .flat_map(|&s| legal_plays(&view, card, s))
                            .map(|p| format!("{p:?}"))
                            .collect();
                        let mut allowed: Vec<String> = every_play(&view)
                            .into_iter()
                            .filter(|&p| check_play(&view, card, p).is_ok())
                            .map(|p| format!("{p:?}"))
                            .collect();
                        listed.sort();
                        allowed.sort();
                        assert_eq!(listed, allowed);
                        assert!(!listed.is_empty(), "asked with nothing to play");
                    }
                    let legal: Vec<Action> = candidates(&game, seat)
                        .into_iter()
                        .filter(|&a| game.check(seat, a).is_ok())
                        .collect();
                    assert!(!legal.is_empty(), "seat {seat} has no legal action");
                    let action = legal[choices.below(legal.len() as u32) as usize];
                    if matches!(action, Action::Special(_) | Action::Cancel(_)) {
                        specials_played += 1;
                    }
                    act(&mut game, seat, action);
                }
            }
            assert_eq!(specials_in_play(&game), 28);
            let unplaced = match game.phase {
                Phase::Choose => game.reveal.chosen_cards().count(),
                Phase::Special { .. } | Phase::ChooseRow { .. } | Phase::Cancel { .. } => {
                    game.reveal.to_place(0).count()
                }
                Phase::Swap { .. } => game.reveal.to_place(1).count(),
                Phase::Deal | Phase::Over => 0,
            };
            let number_cards: usize = game.board.hands.iter().map(Vec::len).sum::<usize>()
                + game.board.rows.iter().map(Vec::len).sum::<usize>()
                + game.board.piles.iter().map(Vec::len).sum::<usize>()
                + unplaced;
            assert_eq!(number_cards, seats * 12 + 4);
            for (r, row) in game.board.rows.iter().enumerate() {
                assert!(row.windows(2).all(|w| w[0] < w[1]), "row {r}: {row:?}");
                assert!(row.len() <= game.capacity(r), "row {r}: {row:?}");
            }
        }
        assert!(
            specials_played > 0,
            "{seats} players played no special card"
        );
        assert_eq!(game.board.round, 2);
        assert!(game.outcome().is_some());
    }
}

#[test]
fn the_question_is_asked_only_with_a_playable_special_card() {
    // Only Negative = Positive in hand: nothing to play before placing.
    let game = after_plays([[11, 12], [21, 22]], &[Special::NegativePositive], [11, 21]);
    assert_eq!(game.board.rows[0], cards(&[10, 11]));
    assert_eq!(game.to_move(), ToMove::Everyone(Decision::PlayCard));
}

#[test]
fn stop_blocks_the_row_the_card_was_headed_to() {
    let mut game = after_plays([[15, 16], [45, 46]], &[Special::Stop], [15, 45]);
    assert_eq!(
        game.to_move(),
        ToMove::Seat(0, Decision::Special { card: Card(15) })
    );
    act(&mut game, 0, Action::Special(SpecialPlay::Stop { row: 0 }));
    // 15 is below every open row: a low card, and the stopped row cannot be taken.
    assert_eq!(
        game.to_move(),
        ToMove::Seat(0, Decision::ChooseRow { card: Card(15) })
    );
    assert_eq!(
        game.check(0, Action::TakeRow(0)),
        Err(Illegal::RowStopped { row: 0 }.into())
    );
    act(&mut game, 0, Action::TakeRow(1));
    // The take lifted the Stop.
    assert_eq!(game.table.stops, [false; 4]);
    assert_eq!(game.table.discard, [Special::Stop]);
    assert_eq!(game.board.rows[1], cards(&[15]));
}

#[test]
fn a_fifth_row_goes_when_a_row_is_taken_with_the_card_played() {
    let mut game = after_plays([[5, 50], [41, 60]], &[Special::FifthRow], [50, 41]);
    act(&mut game, 0, Action::Special(SpecialPlay::FifthRow));
    assert_eq!(game.board.rows.len(), 5);
    assert_eq!(game.board.rows[4], cards(&[50]));
    act(&mut game, 0, Action::Play(Card(5)));
    act(&mut game, 1, Action::Play(Card(60)));
    act(&mut game, 0, Action::TakeRow(1));
    assert_eq!(game.board.rows.len(), 4);
    assert_eq!(game.board.piles[0], cards(&[20, 5]));
    assert_eq!(game.table.discard, [Special::FifthRow]);
}

#[test]
fn negative_positive_cancels_no_more_than_was_taken() {
    let mut game = dealt(
        &[&[5, 6], &[41, 42]],
        [55, 20, 30, 40],
        &[&[Special::NegativePositive], &[]],
        &[],
    );
    act(&mut game, 0, Action::Play(Card(5)));
    act(&mut game, 1, Action::Play(Card(41)));
    act(&mut game, 0, Action::TakeRow(0));
    assert_eq!(game.to_move(), ToMove::Seat(0, Decision::Cancel));
    assert_eq!(game.view(0).taking(), cards(&[55]));
    let events = act(&mut game, 0, Action::Cancel(Card(55)));
    assert!(matches!(events[0], Event::Cancel { bullheads: 7, .. }));
    assert_eq!(game.board.taken[0], 0);
}

#[test]
fn a_swap_with_an_empty_deck_reshuffles_the_discard_pile() {
    let mut game = after_plays([[5, 6], [41, 42]], &[Special::Shift], [5, 41]);
    // Every row holds one card: Shift has nothing to move, so no special card question.
    act(&mut game, 0, Action::TakeRow(0));
    assert_eq!(game.to_move(), ToMove::Seat(0, Decision::Swap));
    let events = act(&mut game, 0, Action::Swap(Special::Shift));
    assert_eq!(
        events[..2],
        [
            Event::Reshuffle {
                deck: vec![Special::Shift]
            },
            Event::Swap {
                seat: 0,
                gave: Special::Shift,
                drew: Special::Shift
            }
        ]
    );
}

#[test]
fn shift_and_insert_keep_rows_ascending() {
    let mut game = after_plays(
        [[25, 26], [45, 46]],
        &[Special::Insert, Special::Shift],
        [25, 45],
    );
    let view = game.view(0);
    let inserts: Vec<_> = legal_plays(&view, Card(25), Special::Insert).collect();
    assert_eq!(inserts.len(), 4);
    assert!(matches!(
        check_play(&view, Card(25), SpecialPlay::Insert { row: 2, at: 1 }),
        Err(RuleError::Illegal(Illegal::BadSpecial { .. }))
    ));
    act(
        &mut game,
        0,
        Action::Special(SpecialPlay::Insert { row: 2, at: 0 }),
    );
    assert_eq!(game.board.rows[2], cards(&[25, 30]));
}
