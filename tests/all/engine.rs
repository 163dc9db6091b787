//! The classic engine against the rulebook, case by case, and an invariant over many games.

use crate::common;

use common::{cards, play, table_with, takes};

use std::sync::Arc;
use take5::cards::Card;
use take5::game::{Action, Decision, Event, Game, RuleError, SetupError, TakeReason, ToMove};
use take5::players::builtin::{Builtin, Strategy};
use take5::rng::{GameRng, Stream};
use take5::rules::{GameEnd, Rules, Ties};
use take5::variants::classic::Classic;

/// A classic table in round 1, turn 1, nobody having taken anything yet.
fn table(rows: &[&[u16]], hands: &[&[u16]]) -> Classic {
    table_with(Rules::classic(), rows, hands, &vec![0; hands.len()])
}

fn rows(game: &Classic) -> Vec<Vec<u16>> {
    game.rows()
        .iter()
        .map(|r| r.iter().map(|c| c.0).collect())
        .collect()
}

#[test]
fn a_card_goes_to_the_row_with_the_closest_lower_end() {
    let mut game = table(
        &[&[10], &[20], &[30], &[40]],
        &[&[35, 1], &[45, 2], &[21, 3]],
    );
    play(&mut game, &[35, 45, 21]);
    assert_eq!(
        rows(&game),
        [vec![10], vec![20, 21], vec![30, 35], vec![40, 45]]
    );
}

#[test]
fn a_card_goes_to_the_only_row_below_it() {
    let mut game = table(&[&[10], &[50], &[60], &[70]], &[&[20, 1], &[55, 2]]);
    let events = play(&mut game, &[20, 55]);
    assert!(takes(&events).is_empty());
    assert_eq!(
        rows(&game),
        [vec![10, 20], vec![50, 55], vec![60], vec![70]]
    );
}

#[test]
fn the_sixth_card_takes_five_and_starts_the_row() {
    let mut game = table(
        &[&[1, 2, 3, 4, 5], &[20], &[30], &[40]],
        &[&[6, 90], &[91, 92]],
    );
    let events = play(&mut game, &[6, 91]);
    // 1+1+1+1+2 bullheads.
    assert_eq!(takes(&events), [(0, 0, 6, TakeReason::Full)]);
    assert_eq!(rows(&game)[0], [6]);
    assert_eq!(game.taken(), [6, 0]);
    assert_eq!(game.piles()[0], cards(&[1, 2, 3, 4, 5]));
}

#[test]
fn a_low_card_may_take_a_one_card_row() {
    let mut game = table(
        &[&[10, 11, 12], &[55], &[30, 31], &[41]],
        &[&[3, 90], &[91, 92]],
    );
    play(&mut game, &[3, 91]);
    let view = game.view(0);
    assert_eq!(view.decision, Some(Decision::ChooseRow { card: Card(3) }));
    assert!(
        game.view(1).decision.is_none(),
        "only the low card's player decides"
    );
    let mut events = Vec::new();
    game.apply(0, Action::TakeRow(3), &mut events).unwrap();
    assert_eq!(takes(&events), [(0, 3, 1, TakeReason::Low)]);
    // 91 waited for the choice, then went on 55's row.
    assert_eq!(
        rows(&game),
        [vec![10, 11, 12], vec![55, 91], vec![30, 31], vec![3]]
    );
    assert_eq!(game.hand(1), cards(&[92]));
}

#[test]
fn a_low_card_may_take_a_full_row() {
    let mut game = table(
        &[&[10, 11, 12, 13, 14], &[50], &[60], &[70]],
        &[&[3, 90], &[91, 92]],
    );
    play(&mut game, &[3, 91]);
    let mut events = Vec::new();
    game.apply(0, Action::TakeRow(0), &mut events).unwrap();
    // 10 (3) + 11 (5) + 12 + 13 + 14.
    assert_eq!(takes(&events), [(0, 0, 11, TakeReason::Low)]);
    assert_eq!(rows(&game), [vec![3], vec![50], vec![60], vec![70, 91]]);
}

#[test]
fn a_low_card_takes_the_row_a_later_card_then_lands_on() {
    // 5 and 8 are both below every row end; 5 comes first and its player chooses row 2, so 8
    // is no longer low and goes after 5.
    let mut game = table(&[&[10], &[20], &[30], &[40]], &[&[8, 90], &[5, 91]]);
    play(&mut game, &[8, 5]);
    assert_eq!(
        game.to_move(),
        ToMove::Seat(1, Decision::ChooseRow { card: Card(5) })
    );
    game.apply(1, Action::TakeRow(2), &mut Vec::new()).unwrap();
    assert_eq!(rows(&game), [vec![10], vec![20], vec![5, 8], vec![40]]);
    assert_eq!(game.taken(), [0, 3]);
    assert_eq!(game.to_move(), ToMove::Everyone(Decision::PlayCard));
}

#[test]
fn two_takes_in_one_turn() {
    let mut game = table(
        &[&[1, 2, 3, 4, 5], &[20, 21, 23, 24, 25], &[60], &[70]],
        &[&[6, 90], &[26, 91], &[61, 92]],
    );
    let events = play(&mut game, &[6, 26, 61]);
    // Row 1: 20 (3) + 21 (1) + 23 (1) + 24 (1) + 25 (2).
    assert_eq!(
        takes(&events),
        [(0, 0, 6, TakeReason::Full), (1, 1, 8, TakeReason::Full)]
    );
    assert_eq!(rows(&game), [vec![6], vec![26], vec![60, 61], vec![70]]);
}

#[test]
fn a_take_changes_where_a_later_card_goes() {
    // 35 would go after 34, but the low 5 takes 34's row first, so 35 goes after 30.
    let mut game = table(&[&[10], &[20], &[30], &[34]], &[&[5, 90], &[35, 91]]);
    play(&mut game, &[5, 35]);
    game.apply(0, Action::TakeRow(3), &mut Vec::new()).unwrap();
    assert_eq!(rows(&game), [vec![10], vec![20], vec![30, 35], vec![5]]);
}

/// Last turn of a round: seat 0 takes row 0 (6 bullheads) with its 6.
fn last_turn(scores: &[i32]) -> Classic {
    let hands: Vec<&[u16]> = [&[6u16][..], &[90], &[91], &[92]][..scores.len()].to_vec();
    table_with(
        Rules::classic(),
        &[&[1, 2, 3, 4, 5], &[20], &[30], &[40]],
        &hands,
        scores,
    )
}

#[test]
fn exactly_66_ends_the_game() {
    let mut game = last_turn(&[60, 10]);
    let events = play(&mut game, &[6, 90]);
    assert_eq!(game.to_move(), ToMove::GameOver);
    let outcome = game.outcome().unwrap();
    assert_eq!((outcome.totals, outcome.winners), (vec![66, 10], vec![1]));
    assert!(matches!(events.last(), Some(Event::GameEnd { .. })));
}

#[test]
fn below_66_the_next_round_is_dealt() {
    let mut game = last_turn(&[59, 10]);
    play(&mut game, &[6, 90]);
    assert_eq!(game.scores(), [65, 10]);
    assert_eq!(game.to_move(), ToMove::Deal);
    assert!(game.outcome().is_none());
}

#[test]
fn several_players_past_66_and_a_shared_win() {
    // Seat 0 takes the full row (6), seat 1's 21 goes on 20, seat 2's 91 on 40.
    let mut game = table_with(
        Rules::classic(),
        &[&[1, 2, 3, 4, 5], &[20], &[30], &[40]],
        &[&[6], &[21], &[91], &[41]],
        &[70, 80, 12, 12],
    );
    play(&mut game, &[6, 21, 91, 41]);
    let outcome = game.outcome().expect("over: three totals are past 66");
    assert_eq!(outcome.totals, [76, 80, 12, 12]);
    assert_eq!(outcome.winners, [2, 3]);
}

#[test]
fn a_tie_can_be_broken_by_the_last_round_when_the_rules_say_so() {
    let rules = Rules {
        ties: Ties::FewestInLastRound,
        ..Rules::classic()
    };
    // Seat 2 takes row 0 (6) to reach 12; seat 3 had 12 already and takes nothing.
    let mut game = table_with(
        rules,
        &[&[1, 2, 3, 4, 5], &[20], &[30], &[40]],
        &[&[21], &[41], &[6], &[31]],
        &[70, 80, 6, 12],
    );
    play(&mut game, &[21, 41, 6, 31]);
    assert_eq!(game.outcome().unwrap().winners, [3]);
}

#[test]
fn fixed_rounds_end_the_game_whatever_the_scores() {
    let rules = Rules {
        end: GameEnd::Rounds(1),
        ..Rules::classic()
    };
    let mut game = table_with(
        rules,
        &[&[10], &[20], &[30], &[40]],
        &[&[11], &[21]],
        &[0, 0],
    );
    play(&mut game, &[11, 21]);
    assert_eq!(game.outcome().unwrap().winners, [0, 1]);
}

#[test]
fn illegal_actions_are_refused_and_change_nothing() {
    let mut game = table(&[&[10], &[20], &[30], &[40]], &[&[5, 90], &[35, 91]]);
    let before = format!("{game:?}");
    fn refuse(game: &mut Classic, seat: usize, action: Action, expected: &str) {
        let before = format!("{game:?}");
        let mut events = Vec::new();
        let error = game.apply(seat, action, &mut events).unwrap_err();
        assert_eq!(error.kind(), expected, "{error}");
        assert!(events.is_empty());
        assert_eq!(
            format!("{game:?}"),
            before,
            "a refused action changed the game"
        );
    }
    let mut events = Vec::new();
    refuse(&mut game, 0, Action::Play(Card(35)), "not_in_hand");
    refuse(&mut game, 0, Action::TakeRow(0), "no_row_choice_due");
    refuse(&mut game, 2, Action::Play(Card(5)), "no_such_seat");
    assert_eq!(format!("{game:?}"), before);
    game.apply(0, Action::Play(Card(5)), &mut events).unwrap();
    refuse(&mut game, 0, Action::Play(Card(90)), "already_chosen");
    game.apply(1, Action::Play(Card(35)), &mut events).unwrap();
    refuse(&mut game, 1, Action::TakeRow(0), "not_your_turn");
    refuse(&mut game, 0, Action::TakeRow(4), "no_such_row");
    refuse(&mut game, 0, Action::Play(Card(90)), "row_choice_due");
    game.apply(0, Action::TakeRow(0), &mut events).unwrap();
    refuse(&mut game, 0, Action::Play(Card(5)), "not_in_hand");
}

#[test]
fn a_scripted_deal_is_checked() {
    let mut game = Classic::new(Arc::new(Rules::classic()), 2).unwrap();
    let mut deal = take5::game::Deal {
        hands: vec![
            cards(&(1..=10).collect::<Vec<_>>()),
            cards(&(11..=20).collect::<Vec<_>>()),
        ],
        rows: cards(&[21, 22, 23, 24]),
        specials: None,
    };
    deal.rows[3] = Card(5);
    let error = game.deal(&deal, &mut Vec::new()).unwrap_err();
    assert_eq!(
        error,
        RuleError::Setup(SetupError::BadDeal("card 5 appears twice".into()))
    );
    deal.rows[3] = Card(105);
    assert!(game.deal(&deal, &mut Vec::new()).is_err());
    deal.rows[3] = Card(24);
    game.deal(&deal, &mut Vec::new()).unwrap();
    assert_eq!(game.round(), 1);
}

/// Every dealt card is in exactly one place (a hand, face down or waiting, a row, a pile)
/// after every step, over many seeded games of every size.
#[test]
fn every_card_is_in_exactly_one_place_after_every_step() {
    let rules = Arc::new(Rules::classic());
    for seed in 0..300u64 {
        let seats = 2 + (seed % 9) as usize;
        let mut game = Classic::new(rules.clone(), seats).unwrap();
        let mut rng = GameRng::new(seed, Stream::Deal(0));
        let mut bots: Vec<Builtin> = (0..seats)
            .map(|_| Builtin::new(Strategy::ALL[(seed % 4) as usize], seed))
            .collect();
        let mut steps = 0;
        loop {
            match game.to_move() {
                ToMove::Deal => game.deal_random(&mut rng, &mut Vec::new()).unwrap(),
                ToMove::Everyone(_) => {
                    let seat = (0..seats).find(|&s| game.owes(s).is_some()).unwrap();
                    let action = bots[seat].choose(&game.view(seat));
                    game.apply(seat, action, &mut Vec::new()).unwrap();
                }
                ToMove::Seat(seat, _) => {
                    let action = bots[seat].choose(&game.view(seat));
                    game.apply(seat, action, &mut Vec::new()).unwrap();
                }
                ToMove::GameOver => break,
            }
            steps += 1;
            if game.to_move() == ToMove::GameOver {
                break;
            }
            let mut seen = [0u8; 105];
            let places = (0..seats)
                .flat_map(|s| game.hand(s).iter().chain(&game.piles()[s]))
                .chain(game.rows().iter().flatten())
                .copied()
                .chain(game.unplaced());
            let mut count = 0;
            for card in places {
                seen[card.0 as usize] += 1;
                count += 1;
            }
            assert!(
                seen.iter().all(|&n| n <= 1),
                "seed {seed} step {steps}: a card is in two places"
            );
            assert_eq!(
                count,
                seats * 10 + 4,
                "seed {seed} step {steps}: a card went missing"
            );
        }
        assert!(game.scores().iter().any(|&s| s >= 66), "seed {seed}");
    }
}

mod house_hooks {
    use super::*;
    use take5::cards::Card;
    use take5::game::house::{HookResult, HouseHooks, TableView};
    use take5::game::{Points, Seat};

    /// A house rule set written in Rust, to pin where and how the engine calls the hooks.
    #[derive(Debug, Default)]
    struct Hooks {
        cheapest_low_row: bool,
        bonus_for_one_card_rows: bool,
        shoot_the_moon: bool,
        end_after_first_round: bool,
        fail_on_take: bool,
        low_row: Option<usize>,
    }

    impl HouseHooks for Hooks {
        fn low_card(&mut self, t: &TableView, _: Seat, _: Card) -> HookResult<Option<usize>> {
            if let Some(row) = self.low_row {
                return Ok(Some(row));
            }
            Ok(self.cheapest_low_row.then(|| {
                (0..t.rows.len())
                    .min_by_key(|&r| t.rules.deck.sum(&t.rows[r]))
                    .unwrap()
            }))
        }

        fn row_taken(
            &mut self,
            _: &TableView,
            _: Seat,
            _: usize,
            cards: &[Card],
            bullheads: Points,
        ) -> HookResult<Points> {
            if self.fail_on_take {
                return Err("rules.lua:3: attempt to index a nil value".into());
            }
            Ok(if self.bonus_for_one_card_rows && cards.len() == 1 {
                -bullheads
            } else {
                bullheads
            })
        }

        fn round_end(&mut self, _: &TableView, penalties: &mut [Points]) -> HookResult<()> {
            if self.shoot_the_moon {
                let total: Points = penalties.iter().sum();
                if let Some(moon) = penalties.iter().position(|&p| p == total && p > 0) {
                    for (seat, p) in penalties.iter_mut().enumerate() {
                        *p = if seat == moon { 0 } else { total };
                    }
                }
            }
            Ok(())
        }

        fn game_over(&mut self, _: &TableView, _: &[Points]) -> HookResult<Option<bool>> {
            Ok(self.end_after_first_round.then_some(true))
        }
    }

    fn with(hooks: Hooks, rows: &[&[u16]], hands: &[&[u16]]) -> Classic {
        let mut game = table(rows, hands);
        game.set_house(Some(Box::new(hooks)));
        game
    }

    #[test]
    fn a_low_card_hook_chooses_the_row_and_nobody_is_asked() {
        let hooks = Hooks {
            cheapest_low_row: true,
            ..Hooks::default()
        };
        let mut game = with(
            hooks,
            &[&[10], &[20], &[30, 31], &[41]],
            &[&[5, 90], &[50, 91]],
        );
        let events = play(&mut game, &[5, 50]);
        // Row 3 ([41], 1 bullhead) is the first cheapest; 10 and 20 have 3 each.
        assert_eq!(takes(&events), [(0, 3, 1, TakeReason::Low)]);
        assert_eq!(game.to_move(), ToMove::Everyone(Decision::PlayCard));
    }

    #[test]
    fn a_row_taken_hook_prices_the_row() {
        let hooks = Hooks {
            bonus_for_one_card_rows: true,
            cheapest_low_row: true,
            ..Hooks::default()
        };
        let mut game = with(
            hooks,
            &[&[10], &[20], &[30, 31], &[41]],
            &[&[5, 90], &[50, 91]],
        );
        let events = play(&mut game, &[5, 50]);
        assert_eq!(takes(&events), [(0, 3, -1, TakeReason::Low)]);
        assert_eq!(game.taken(), [-1, 0]);
    }

    #[test]
    fn round_end_and_game_over_hooks_change_the_scores_and_the_end() {
        let hooks = Hooks {
            shoot_the_moon: true,
            end_after_first_round: true,
            ..Hooks::default()
        };
        let mut game = with(
            hooks,
            &[&[1, 2, 3, 4, 5], &[20], &[30], &[40]],
            &[&[6], &[21]],
        );
        play(&mut game, &[6, 21]);
        // Seat 0 took every point of the round: it scores 0, the other seat gets the 6.
        let outcome = game
            .outcome()
            .expect("the hook ended the game after one round");
        assert_eq!(outcome.totals, [0, 6]);
        assert_eq!(outcome.winners, [0]);
    }

    #[test]
    fn a_failing_hook_is_a_house_rule_error_naming_hook_and_moment() {
        let hooks = Hooks {
            fail_on_take: true,
            ..Hooks::default()
        };
        let mut game = with(
            hooks,
            &[&[1, 2, 3, 4, 5], &[20], &[30], &[40]],
            &[&[6, 7], &[21, 22]],
        );
        game.apply(0, Action::Play(Card(6)), &mut Vec::new())
            .unwrap();
        let error = game
            .apply(1, Action::Play(Card(21)), &mut Vec::new())
            .unwrap_err();
        assert_eq!(error.kind(), "house_rule");
        assert_eq!(
            error.to_string(),
            "house rule hook `row_taken` failed in round 1 turn 1: rules.lua:3: attempt to index a nil value"
        );
    }

    #[test]
    fn a_low_card_hook_choosing_no_such_row_is_an_error() {
        let hooks = Hooks {
            low_row: Some(9),
            ..Hooks::default()
        };
        let mut game = with(hooks, &[&[10], &[20], &[30], &[40]], &[&[5, 90], &[50, 91]]);
        game.apply(0, Action::Play(Card(5)), &mut Vec::new())
            .unwrap();
        let error = game
            .apply(1, Action::Play(Card(50)), &mut Vec::new())
            .unwrap_err();
        assert!(
            error.to_string().contains("chose row 9; rows are 0 to 3"),
            "{error}"
        );
    }
}
