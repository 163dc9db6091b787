//! `builtin:mcs` in process: how much a decision searches.

use std::sync::Arc;
use take5::cards::Card;
use take5::game::{Action, Deal, Decision, Event, Game, ToMove};
use take5::players::search::{McsOptions, McsPlayer};
use take5::players::{GameStart, Player};
use take5::rules::Rules;
use take5::variants::Variant;
use take5::variants::classic::Classic;

/// A classic game of four seats dealt `hands` over rows starting 10, 22, 31 and 45 (3, 5, 1 and
/// 2 bullheads), with `mcs` at seat 0 told of the deal.
fn dealt(hands: Vec<Vec<Card>>, mcs: &mut McsPlayer) -> Classic {
    let mut rules = Rules::classic();
    rules.hand_size = hands[0].len();
    let rules = Arc::new(rules);
    let mut game = Classic::new(rules.clone(), 4).unwrap();
    let start = GameStart {
        number: 0,
        variant: Variant::Classic,
        rules: &rules,
        seats: 4,
        seat: 0,
        time_ms: 1000,
        seed: 1,
    };
    mcs.start_game(&start).unwrap();
    let rows = [10, 22, 31, 45].map(Card).to_vec();
    let mut events: Vec<Event> = Vec::new();
    game.deal(
        &Deal {
            hands,
            rows,
            specials: None,
        },
        &mut events,
    )
    .unwrap();
    for event in &events {
        mcs.observe(0, event).unwrap();
    }
    game
}

fn hands(cards: [&[u16]; 4]) -> Vec<Vec<Card>> {
    cards
        .iter()
        .map(|hand| hand.iter().copied().map(Card).collect())
        .collect()
}

#[test]
fn a_decision_whose_futures_hold_no_chance_is_played_out_once() {
    // The round's last turn: seat 0's 5 is below every row, and once it has taken a row the
    // others' cards land with no choice left and nothing hidden: one rollout per row settles
    // it (another would be the same), where the budget would buy thousands.
    let mut mcs = McsPlayer::new(McsOptions::default(), 1);
    let mut game = dealt(hands([&[5], &[50], &[60], &[70]]), &mut mcs);
    let mut events: Vec<Event> = Vec::new();
    for seat in 0..4 {
        let card = game.view(seat).hand[0];
        game.apply(seat, Action::Play(card), &mut events).unwrap();
    }
    for event in &events {
        mcs.observe(0, event).unwrap();
    }
    assert!(matches!(
        game.to_move(),
        ToMove::Seat(0, Decision::ChooseRow { .. })
    ));
    // The row of 31 costs 1 bullhead, the others 2 to 5.
    assert_eq!(mcs.choose(&game.view(0)), Action::TakeRow(2));
    assert_eq!(mcs.searched().rollouts, 4);
}

#[test]
fn a_decision_with_cards_unseen_spends_its_budget() {
    // The first of two turns: the others' second cards are unseen, so the search draws them
    // again and again.
    let mut mcs = McsPlayer::new(McsOptions::default(), 1);
    let game = dealt(hands([&[5, 80], &[50, 51], &[60, 61], &[70, 71]]), &mut mcs);
    mcs.choose(&game.view(0));
    let searched = mcs.searched();
    assert!(searched.rollouts > 1000, "{searched:?}");
    assert!(searched.steps >= 40_000, "{searched:?}");
}
