//! The Pro variant's draft, checked over many random drafts (a property test driven by take5's
//! own seeded generator): every card is in exactly one place at every moment of the draft, the
//! seats pick in the draft order, illegal picks change nothing, and every round is drafted.

use std::sync::Arc;
use take5::cards::Card;
use take5::game::{Action, Decision, Event, Game, Illegal, RuleError, ToMove};
use take5::rng::{GameRng, Stream};
use take5::rules::{Draft, Rules};
use take5::variants::pro::Pro;

fn pro(seats: usize, draft: Draft) -> Pro {
    Pro::new(
        Arc::new(Rules {
            draft,
            ..Rules::pro()
        }),
        seats,
    )
    .unwrap()
}

/// Each card of the (cut) deck is in the pool or in exactly one drafted hand, once.
fn assert_every_card_once(game: &Pro) {
    let deck = &game.rules().deck;
    let mut seen = vec![0; deck.len()];
    for &card in game.pool().iter().chain(game.drafted().iter().flatten()) {
        assert!(deck.contains(card), "{card} is not in the deck");
        seen[usize::from(card.0 - deck.lowest)] += 1;
    }
    assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
    assert!(game.pool().windows(2).all(|w| w[0] < w[1]));
    assert!(
        game.drafted()
            .iter()
            .all(|h| h.windows(2).all(|w| w[0] < w[1]))
    );
}

#[test]
fn the_deck_is_ten_cards_a_player_and_four() {
    for seats in 2..=6 {
        let game = pro(seats, Draft::SeatOrder);
        let cards: Vec<u16> = game.rules().deck.cards().map(|c| c.0).collect();
        assert_eq!(cards, (1..=(10 * seats as u16 + 4)).collect::<Vec<_>>());
        assert_eq!(game.pool().len(), 10 * seats + 4);
    }
    for seats in [1, 7] {
        assert!(Pro::new(Arc::new(Rules::pro()), seats).is_err());
    }
}

#[test]
fn every_card_is_in_exactly_one_place_during_the_draft() {
    for seed in 0..120u64 {
        let seats = 2 + (seed as usize % 5);
        let draft = if seed % 2 == 0 {
            Draft::SeatOrder
        } else {
            Draft::Snake
        };
        let mut game = pro(seats, draft);
        let mut rng = GameRng::new(seed, Stream::Bot { game: 0, seat: 0 });
        let mut events = Vec::new();
        for pick in 0..10 * seats {
            assert_every_card_once(&game);
            let seat = draft.seat(pick, seats);
            assert_eq!(game.to_move(), ToMove::Seat(seat, Decision::Pick));
            let pool = game.pool().to_vec();
            let hands = game.drafted().to_vec();
            // Refused: out of turn, a card not in the pool, a card played: nothing changes.
            let other = (seat + 1) % seats;
            let card = pool[rng.below(pool.len() as u32) as usize];
            assert!(matches!(
                game.apply(other, Action::Pick(card), &mut events),
                Err(RuleError::Illegal(Illegal::NotYourTurn { .. }))
            ));
            if let Some(&taken) = hands.iter().flatten().next() {
                assert_eq!(
                    game.check(seat, Action::Pick(taken)),
                    Err(Illegal::NotInPool { seat, card: taken }.into())
                );
            }
            assert_eq!(
                game.check(seat, Action::Play(card)),
                Err(Illegal::PickDue { seat }.into())
            );
            assert_eq!((game.pool(), game.drafted()), (&pool[..], &hands[..]));
            assert!(events.is_empty());
            game.apply(seat, Action::Pick(card), &mut events).unwrap();
            assert_eq!(events.remove(0), Event::Pick { seat, card });
        }
        // The draft is over: hands and the four leftover cards, ascending, as the rows.
        assert!(!game.drafting());
        let Some(Event::Deal { hands, rows, .. }) = events.pop() else {
            panic!("the last pick deals the round")
        };
        assert!(rows.windows(2).all(|w| w[0] < w[1]) && rows.len() == 4);
        let mut all: Vec<Card> = hands.iter().flatten().chain(&rows).copied().collect();
        all.sort();
        assert_eq!(all, game.rules().deck.cards().collect::<Vec<_>>());
        assert_eq!(game.to_move(), ToMove::Everyone(Decision::PlayCard));
        assert_eq!(
            game.check(0, Action::Pick(rows[0])),
            Err(Illegal::NoPickDue { seat: 0 }.into())
        );
    }
}

#[test]
fn snake_order_turns_back_at_the_ends() {
    let order: Vec<usize> = (0..9).map(|p| Draft::Snake.seat(p, 3)).collect();
    assert_eq!(order, [0, 1, 2, 2, 1, 0, 0, 1, 2]);
    let order: Vec<usize> = (0..6).map(|p| Draft::SeatOrder.seat(p, 3)).collect();
    assert_eq!(order, [0, 1, 2, 0, 1, 2]);
}

#[test]
fn every_round_is_drafted_again() {
    let mut game = pro(2, Draft::SeatOrder);
    let mut events = Vec::new();
    let mut rounds = 0;
    while game.to_move() != ToMove::GameOver {
        if game.drafting() {
            assert_eq!(game.pool().len(), 24, "a draft starts from the whole deck");
            for _ in 0..20 {
                let ToMove::Seat(seat, Decision::Pick) = game.to_move() else {
                    panic!("a pick is due")
                };
                let card = game.pool()[0];
                game.apply(seat, Action::Pick(card), &mut events).unwrap();
            }
            rounds += 1;
            continue;
        }
        for seat in 0..2 {
            let view = game.view(seat);
            if view.decision.is_some() {
                let action = take5::players::builtin::fallback(&view);
                game.apply(seat, action, &mut events).unwrap();
            }
        }
    }
    assert!(rounds >= 2, "{rounds} rounds");
    let deals = events
        .iter()
        .filter(|e| matches!(e, Event::Deal { .. }))
        .count();
    assert_eq!(deals, rounds);
}
