//! `builtin:mcs` in process: how much a decision searches.

use std::sync::Arc;
use take5::cards::{Card, Special};
use take5::game::model::{Memory, Model};
use take5::game::{Action, Deal, Decision, Event, Game, ToMove};
use take5::players::Player;
use take5::players::builtin::{Builtin, Strategy, circle_prior, circle_value};
use take5::players::search::{
    DEFAULT_MIX, DEFAULT_RIVAL, McsOptions, McsPlayer, Style, Weights, default_mix, default_own,
};
use take5::rng::{GameRng, Stream};
use take5::rules::Rules;
use take5::seat::GameStart;
use take5::variants::Variant;
use take5::variants::circle::{self, Circle, CircleSetup};
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

/// Classic games of four (seat 0 watching, seat 1 the dodger, seats 2 and 3 at random) with
/// seat 0's reading of the others' play ([`Style`]) checked at each of its card choices: the
/// dodger is never taken for anything else, none of the cards it holds is ever ruled out of
/// its hand, and a hand rebuilt for seat 0 ([`Model::determinize`]) gives it none of the cards
/// ruled out; each random seat is found out within its game.
#[test]
fn the_dodger_is_read_from_its_play_and_its_hand_is_never_ruled_out() {
    let rules = Arc::new(Rules::classic());
    let lowest = rules.deck.lowest;
    let (mut ruled_out, mut rebuilt) = (0usize, 0usize);
    for number in 0..30u64 {
        let mut game = Classic::new(rules.clone(), 4).unwrap();
        let mut deal_rng = GameRng::new(number, Stream::Deal(0));
        let mut rng = GameRng::new(number, Stream::Deal(1));
        let strategies = [
            Strategy::Random,
            Strategy::Dodger,
            Strategy::Random,
            Strategy::Random,
        ];
        let mut bots: Vec<Builtin> = strategies
            .iter()
            .enumerate()
            .map(|(s, &strategy)| Builtin::new(strategy, number * 4 + s as u64))
            .collect();
        let mut style = Style::new(4);
        let mut memory = Memory::new(0, 4);
        let mut events: Vec<Event> = Vec::new();
        let mut out = Vec::new();
        while game.to_move() != ToMove::GameOver {
            if game.to_move() == ToMove::Deal {
                game.deal_random(&mut deal_rng, &mut events).unwrap();
            } else {
                let seat = (0..4).find(|&s| game.owes(s).is_some()).unwrap();
                let view = game.view(seat);
                if seat == 0 && view.decision == Some(Decision::PlayCard) {
                    style.before_reveal(&view);
                    assert_eq!(style.dodger_like(1), view.turn > 1, "game {number}");
                    style.rule_out(1, &rules, &mut out);
                    let held = game.view(1).hand.to_vec();
                    for card in &held {
                        assert!(
                            !out[usize::from(card.0 - lowest)],
                            "game {number}: {card:?}"
                        );
                    }
                    if view.turn > 1 {
                        memory.ruled_out = vec![Vec::new(), out.clone(), Vec::new(), Vec::new()];
                        let world = Classic::determinize(&rules, &view, &memory, &mut rng).unwrap();
                        for card in world.view(1).hand {
                            assert!(!out[usize::from(card.0 - lowest)], "game {number}");
                        }
                        let seen: Vec<Card> = view.rows.iter().flatten().copied().collect();
                        ruled_out += rules
                            .deck
                            .cards()
                            .filter(|c| out[usize::from(c.0 - lowest)] && !seen.contains(c))
                            .count();
                        rebuilt += 1;
                    }
                }
                let action = bots[seat].choose(&view);
                game.apply(seat, action, &mut events).unwrap();
            }
            for event in events.drain(..) {
                memory.observe(&event);
                if let Event::Reveal { cards, .. } = &event {
                    style.revealed(cards, 0);
                }
            }
        }
        for seat in [2, 3] {
            assert!(!style.dodger_like(seat), "game {number}: seat {seat}");
        }
        // The rollouts' model of each seat: the dodger keeps its share; a seat found out
        // loses it (`found=0`), to the safe-card player (`recast=100`, the default) or, with
        // `recast=0`, to the random one.
        let recast = McsOptions::default();
        let mut random = McsOptions::default();
        random.reading.recast = 0;
        let dodger = style.dodger_share(1, DEFAULT_MIX);
        assert_eq!(recast.shares(&style, 1), (dodger, 0), "game {number}");
        assert_eq!(random.shares(&style, 1), (dodger, 0), "game {number}");
        for seat in [2, 3] {
            let share = style.dodger_share(seat, DEFAULT_MIX);
            assert_eq!(recast.shares(&style, seat), (0, share), "game {number}");
            assert_eq!(random.shares(&style, seat), (0, 0), "game {number}");
        }
    }
    // The reading says something: on average many unseen cards a turn are ruled out.
    assert!(
        rebuilt > 0 && ruled_out / rebuilt >= 10,
        "{ruled_out} / {rebuilt}"
    );
}

#[test]
fn the_searching_seats_own_rollout_player_is_the_variants_default_unless_named() {
    // Pro hides nothing: random at every table; the circle game: random at two seats, and no
    // dodger among the others up to four, where the safe player makes every rollout move
    // (`own_safe`, `safe`: their own test below).
    assert_eq!(default_own(Variant::Circle, 2), Strategy::Random);
    for seats in 2..=4 {
        assert_eq!(default_mix(Variant::Circle, seats), 0);
    }
    for seats in [2, 4, 6] {
        assert_eq!(default_own(Variant::Pro, seats), Strategy::Random);
        assert_eq!(default_mix(Variant::Pro, seats), DEFAULT_MIX);
        if seats > 2 {
            assert_eq!(default_own(Variant::Circle, seats), Strategy::Dodger);
        }
        if seats > 4 {
            assert_eq!(default_mix(Variant::Circle, seats), DEFAULT_MIX);
        }
        for variant in [Variant::Classic, Variant::TakeANumber, Variant::Anniversary] {
            assert_eq!(default_own(variant, seats), Strategy::Dodger);
            assert_eq!(default_mix(variant, seats), DEFAULT_MIX);
        }
    }
    // The options leave them to the variant unless named, and say so in the name.
    let unnamed = McsOptions::parse("").unwrap();
    assert_eq!((unnamed.players.own, unnamed.players.mix), (None, None));
    let named = McsOptions::parse("own=dodger:mix=50").unwrap();
    assert_eq!(
        (named.players.own, named.players.mix),
        (Some(Strategy::Dodger), Some(50))
    );
    assert_eq!(named.spec(), "mcs:mix=50:own=dodger");
    let resolved = unnamed.resolved(Variant::Circle, 2).players;
    assert_eq!(
        (resolved.own, resolved.mix),
        (Some(Strategy::Random), Some(0))
    );
    // (The circle game's prior is filled in too: `prior=`, its own test below; the scoring's
    // weights, the others' mean at four seats, and the safe-card player's share: the tests
    // after it.)
    let mut prior = named;
    prior.shape.prior = Some(3);
    prior.shape.judge = Some(32);
    prior.players.safe = Some(0);
    prior.players.own_safe = Some(0);
    prior.weights = Weights {
        versus: Some(100),
        rival: Some(0),
    };
    assert_eq!(named.resolved(Variant::Circle, 5), prior);
}

/// Every variant but classic (whose defaults at six seats differ from its others).
const NOT_CLASSIC: [Variant; 4] = [
    Variant::Pro,
    Variant::TakeANumber,
    Variant::Circle,
    Variant::Anniversary,
];

#[test]
fn classic_at_six_seats_and_others_at_four_score_a_rollout_by_the_others_mean() {
    // Classic at six seats, Take a Number and the circle game at four: the others' mean points
    // against its own, no rival; every other table half the rival's (docs/mcs.md, "Sixth round:
    // classic at six seats", "Seventh round"), unless the weights are named.
    use take5::players::search::default_weights;
    assert_eq!(default_weights(Variant::Classic, 6), (100, 0));
    for seats in 2..=5 {
        assert_eq!(default_weights(Variant::Classic, seats), (0, DEFAULT_RIVAL));
    }
    for variant in [Variant::TakeANumber, Variant::Circle] {
        assert_eq!(default_weights(variant, 4), (100, 0));
        for seats in 2..=3 {
            assert_eq!(default_weights(variant, seats), (0, DEFAULT_RIVAL));
        }
    }
    for variant in [Variant::Pro, Variant::Anniversary] {
        for seats in [2, 4, 6] {
            assert_eq!(default_weights(variant, seats), (0, DEFAULT_RIVAL));
        }
    }
    let unnamed = McsOptions::parse("").unwrap();
    assert_eq!(unnamed.weights, Weights::default());
    let weights = |o: &McsOptions, seats| {
        let w = o.resolved(Variant::Classic, seats).weights;
        (w.versus, w.rival)
    };
    assert_eq!(weights(&unnamed, 6), (Some(100), Some(0)));
    assert_eq!(weights(&unnamed, 5), (Some(0), Some(DEFAULT_RIVAL)));
    // Named, they hold at every table, and the spec says so.
    let named = McsOptions::parse("versus=0:rival=50").unwrap();
    assert_eq!(weights(&named, 6), (Some(0), Some(50)));
    assert_eq!(named.spec(), "mcs:versus=0:rival=50");
    // The defaults of 2026-12-01 name theirs: at six seats they play as they did.
    let dec1 = take5::tournament::gauntlet::MCS_DEC1;
    let dec1 = McsOptions::parse(dec1.strip_prefix("builtin:mcs").unwrap()).unwrap();
    assert_eq!(weights(&dec1, 6), (Some(0), Some(50)));
    // The plain search of the gauntlet names its weights too.
    let plain = take5::tournament::gauntlet::PLAIN_MC;
    let plain = McsOptions::parse(plain.strip_prefix("builtin:mcs").unwrap()).unwrap();
    let resolved = plain.resolved(Variant::TakeANumber, 4).weights;
    assert_eq!((resolved.versus, resolved.rival), (Some(0), Some(50)));
}

#[test]
fn classic_at_six_seats_gives_the_safe_card_player_half_the_others_non_dodger_play_unless_named() {
    // Classic at six seats: half of the other seats' rollout decisions not given to the dodger
    // play a safe card at random (docs/mcs.md, "Seventh round: classic at six seats"); every
    // other table none.
    use take5::players::search::{DEFAULT_SAFE, default_safe};
    use take5::tournament::gauntlet::{MCS_DEC1, PLAIN_MC};
    assert_eq!(DEFAULT_SAFE, 0);
    assert_eq!(default_safe(Variant::Classic, 6), 50);
    for seats in 2..=5 {
        assert_eq!(default_safe(Variant::Classic, seats), 0);
    }
    for variant in NOT_CLASSIC {
        for seats in [2, 4, 6] {
            // The circle game at two to four seats: every rollout decision the safe player's.
            let share = if variant == Variant::Circle && seats <= 4 {
                100
            } else {
                0
            };
            assert_eq!(
                default_safe(variant, seats),
                share,
                "{variant:?} at {seats}"
            );
        }
    }
    let safe = |o: &McsOptions, seats| o.resolved(Variant::Classic, seats).players.safe;
    let unnamed = McsOptions::parse("").unwrap();
    assert_eq!(unnamed.players.safe, None);
    assert_eq!(safe(&unnamed, 6), Some(50));
    assert_eq!(safe(&unnamed, 3), Some(0));
    // Named, it holds at every table, and the spec says so (0 too).
    let named = McsOptions::parse("safe=0").unwrap();
    assert_eq!(safe(&named, 6), Some(0));
    assert_eq!(named.spec(), "mcs:safe=0");
    // The shares a seat's rollout decisions get: a seat not found out keeps the table's.
    let style = Style::new(6);
    let resolved = unnamed.resolved(Variant::Classic, 6);
    assert_eq!(resolved.shares(&style, 1), (DEFAULT_MIX, 50));
    assert_eq!(
        unnamed.resolved(Variant::Classic, 5).shares(&style, 1),
        (DEFAULT_MIX, 0)
    );
    // The gauntlet's plain search and the defaults of 2026-12-01 name theirs: at six seats
    // they play as they did.
    for spec in [PLAIN_MC, MCS_DEC1] {
        let pinned = McsOptions::parse(spec.strip_prefix("builtin:mcs").unwrap()).unwrap();
        assert_eq!(safe(&pinned, 6), Some(0), "{spec}");
        let weights = pinned.resolved(Variant::Classic, 6).weights;
        assert_eq!(
            (weights.versus, weights.rival),
            (Some(0), Some(50)),
            "{spec}"
        );
    }
}

#[test]
fn the_circle_game_up_to_four_seats_gives_every_rollout_decision_to_the_safe_player_unless_named() {
    // At two to four circle seats the searching seat's own rollout decisions and the others'
    // are the safe player's, none the dodger's (docs/mcs.md, "Thirteenth round"); at every
    // other table `own` plays the searching seat's.
    use take5::players::search::{DEFAULT_OWN_SAFE, default_own_safe};
    use take5::tournament::gauntlet::{MCS_DEC1, PLAIN_MC};
    assert_eq!(DEFAULT_OWN_SAFE, 0);
    for variant in [
        Variant::Classic,
        Variant::Pro,
        Variant::TakeANumber,
        Variant::Anniversary,
    ] {
        for seats in [2, 4, 6] {
            assert_eq!(
                default_own_safe(variant, seats),
                0,
                "{variant:?} at {seats}"
            );
        }
    }
    for (seats, share) in [(2, 100), (3, 100), (4, 100), (5, 0), (6, 0)] {
        assert_eq!(default_own_safe(Variant::Circle, seats), share, "{seats}");
    }
    let players = |o: &McsOptions, seats| o.resolved(Variant::Circle, seats).players;
    let unnamed = McsOptions::parse("").unwrap();
    assert_eq!(unnamed.players.own_safe, None);
    let four = players(&unnamed, 4);
    assert_eq!(
        (four.mix, four.safe, four.own_safe),
        (Some(0), Some(100), Some(100))
    );
    let five = players(&unnamed, 5);
    assert_eq!(
        (five.mix, five.safe, five.own_safe),
        (Some(DEFAULT_MIX), Some(0), Some(0))
    );
    // Named, it holds at every table, and the spec says so (0 too).
    let named = McsOptions::parse("own_safe=0").unwrap();
    assert_eq!(players(&named, 2).own_safe, Some(0));
    assert_eq!(named.spec(), "mcs:own_safe=0");
    assert_eq!(
        McsOptions::parse("own_safe=250").unwrap().spec(),
        "mcs:own_safe=100"
    );
    // The gauntlet's plain search and the defaults of 2026-12-01 name theirs: at two and four
    // circle seats they play as they did.
    for spec in [PLAIN_MC, MCS_DEC1] {
        let pinned = McsOptions::parse(spec.strip_prefix("builtin:mcs").unwrap()).unwrap();
        for seats in [2, 4] {
            let both = players(&pinned, seats);
            assert_eq!((both.safe, both.own_safe), (Some(0), Some(0)), "{spec}");
        }
    }
}

#[test]
fn the_circle_games_prior_narrows_its_special_placements_unless_prior_is_0() {
    // The circle game searches its 3 best special-card placements by default, at every
    // table; no other variant has a prior, and `prior=0` searches every action.
    let unnamed = McsOptions::parse("").unwrap();
    assert_eq!(unnamed.shape.prior, None);
    for seats in [2, 4, 6] {
        assert_eq!(
            unnamed.resolved(Variant::Circle, seats).shape.prior,
            Some(3)
        );
        for variant in [Variant::Classic, Variant::Pro, Variant::TakeANumber] {
            assert_eq!(unnamed.resolved(variant, seats).shape.prior, Some(0));
        }
    }
    let every = McsOptions::parse("prior=0").unwrap();
    assert_eq!(every.shape.prior, Some(0));
    assert_eq!(every.spec(), "mcs:prior=0");
    assert_eq!(every.resolved(Variant::Circle, 2).shape.prior, Some(0));
    // The plain Monte Carlo search of the gauntlet searches every action.
    let plain = take5::tournament::gauntlet::PLAIN_MC;
    let plain = McsOptions::parse(plain.strip_prefix("builtin:mcs").unwrap()).unwrap();
    assert_eq!(plain.resolved(Variant::Circle, 2).shape.prior, Some(0));
}

#[test]
fn the_learnt_judgements_count_as_32_rollouts_where_there_is_a_network_unless_judge_is_0() {
    // By default the circle game's search counts its networks' judgement of the table each
    // action leaves as 32 rollouts (a network for each table size), Take a Number's at four
    // seats (its only network); classic and Pro have none, and `judge=0` turns it off.
    let unnamed = McsOptions::parse("").unwrap();
    assert_eq!(unnamed.shape.judge, None);
    for seats in [2, 3, 4, 6] {
        let circle = unnamed.resolved(Variant::Circle, seats).shape.judge;
        assert_eq!(circle, Some(32));
        let number = unnamed.resolved(Variant::TakeANumber, seats).shape.judge;
        assert_eq!(number, Some(if seats == 4 { 32 } else { 0 }));
        for variant in [Variant::Classic, Variant::Pro] {
            assert_eq!(unnamed.resolved(variant, seats).shape.judge, Some(0));
        }
    }
    let off = McsOptions::parse("judge=0").unwrap();
    assert_eq!(off.resolved(Variant::Circle, 2).shape.judge, Some(0));
    assert_eq!(off.resolved(Variant::TakeANumber, 4).shape.judge, Some(0));
    // Asked for at a table without a network, a judgement is simply not there: the option
    // is kept as given and the search rolls every action out.
    let asked = McsOptions::parse("judge=32").unwrap();
    assert_eq!(
        asked.resolved(Variant::TakeANumber, 2).shape.judge,
        Some(32)
    );
    // The plain Monte Carlo search of the gauntlet and the defaults of 2026-12-01 judge
    // nothing.
    for spec in [
        take5::tournament::gauntlet::PLAIN_MC,
        take5::tournament::gauntlet::MCS_DEC1,
    ] {
        let options = McsOptions::parse(spec.strip_prefix("builtin:mcs").unwrap()).unwrap();
        assert_eq!(options.resolved(Variant::Circle, 2).shape.judge, Some(0));
    }
}

fn numbers(numbers: &[u16]) -> Vec<Card> {
    numbers.iter().map(|&n| Card(n)).collect()
}

/// Rows 5, 10, 15, 20 (four red cards: the next card takes it), 40 and 70; seat 0 holds
/// 22 (takes the first row), 45 and 75, and one special card of each kind.
fn circle_game() -> Circle {
    let setup = CircleSetup {
        rows: vec![numbers(&[5, 10, 15, 20]), numbers(&[40]), numbers(&[70])],
        row_specials: vec![Vec::new(); 3],
        hands: vec![numbers(&[22, 45, 75]), numbers(&[90])],
        held: vec![Special::CIRCLE.to_vec(), Special::CIRCLE.to_vec()],
        first: 0,
    };
    Circle::from_setup(Arc::new(circle::rules()), &setup).unwrap()
}

#[test]
fn the_prior_keeps_every_number_card_and_the_best_special_placements() {
    let game = circle_game();
    let mut all = Vec::new();
    game.legal_actions(0, &mut all);
    let view = game.view(0);
    let specials = |actions: &[Action]| {
        let placements = actions
            .iter()
            .filter(|a| matches!(a, Action::PlaceSpecial { .. }));
        placements.copied().collect::<Vec<_>>()
    };
    assert_eq!(specials(&all).len(), 6, "two kinds into three rows");
    for keep in [1, 2, 6] {
        let mut kept = all.clone();
        circle_prior(&view, &mut kept, keep);
        let plays = |a: &[Action]| a.iter().filter(|a| matches!(a, Action::Play(_))).count();
        assert_eq!(plays(&kept), 3, "keep {keep}");
        assert_eq!(specials(&kept).len(), keep.min(6));
        // The placements kept are the ones the prior values most, all of them offered.
        let mut best = specials(&all);
        best.sort_by_key(|&a| std::cmp::Reverse(circle_value(&view, a)));
        let worst_kept = specials(&kept)
            .iter()
            .map(|&a| circle_value(&view, a))
            .min();
        assert_eq!(worst_kept, Some(circle_value(&view, best[keep.min(6) - 1])));
        assert!(kept.iter().all(|a| all.contains(a)));
    }
}

/// A Pro game of two seats, `mcs` at seat 0 (a small budget) against a random seat 1 from
/// `seed`: every action in order.
fn pro_duel(spec: &str, seed: u64) -> Vec<(usize, Action)> {
    let rules = Arc::new(Rules::pro());
    let game = take5::variants::pro::Pro::new(rules.clone(), 2).unwrap();
    duel(game, Variant::Pro, &rules, spec, seed)
}

/// `game`, of `variant` at two seats, played to its end: `mcs` at seat 0 (by `spec`) against a
/// random seat 1 from `seed`, the deals drawn from `seed`: every action in order.
fn duel<G: Game>(
    mut game: G,
    variant: Variant,
    rules: &Arc<Rules>,
    spec: &str,
    seed: u64,
) -> Vec<(usize, Action)> {
    let mut mcs = McsPlayer::new(McsOptions::parse(spec).unwrap(), seed);
    let mut other = Builtin::new(Strategy::Random, seed);
    let mut deals = GameRng::new(seed, Stream::Deal(0));
    let start = GameStart {
        number: 0,
        variant,
        rules,
        seats: 2,
        seat: 0,
        time_ms: 1000,
        seed,
    };
    mcs.start_game(&start).unwrap();
    let mut played = Vec::new();
    let mut searched = 0;
    while game.outcome().is_none() {
        let mut events: Vec<Event> = Vec::new();
        let seats: Vec<usize> = match game.to_move() {
            ToMove::Deal => {
                game.deal_random(&mut deals, &mut events).unwrap();
                Vec::new()
            }
            ToMove::Everyone(_) => (0..2).filter(|&s| game.owes(s).is_some()).collect(),
            ToMove::Seat(seat, _) => vec![seat],
            other => panic!("{other:?}"),
        };
        for event in &events {
            mcs.observe(0, event).unwrap();
        }
        for seat in seats {
            let action = if seat == 0 {
                let action = mcs.choose(&game.view(0));
                searched += mcs.searched().rollouts;
                action
            } else {
                other.choose(&game.view(1))
            };
            let mut events: Vec<Event> = Vec::new();
            game.apply(seat, action, &mut events).unwrap();
            for event in &events {
                mcs.observe(0, event).unwrap();
            }
            played.push((seat, action));
        }
    }
    assert!(searched > 0);
    played
}

#[test]
fn pro_at_two_seats_is_searched_by_a_tree_reproducibly_unless_told_not_to() {
    use take5::players::search::default_tree;
    assert!(default_tree(Variant::Pro, 2));
    for variant in [Variant::Classic, Variant::Circle, Variant::Anniversary] {
        assert!(!default_tree(variant, 2));
    }
    for seats in [3, 4, 6] {
        assert!(!default_tree(Variant::Pro, seats));
    }
    let flat = McsOptions::parse("tree=0").unwrap();
    assert_eq!(flat.shape.tree, Some(false));
    assert_eq!(flat.spec(), "mcs:tree=0");
    // The same seed, the same game; the flat search plays another.
    let tree = pro_duel("steps=2000", 7);
    assert_eq!(tree, pro_duel("steps=2000", 7));
    assert_ne!(tree, pro_duel("steps=2000:tree=0", 7));
}

/// Where something is hidden (Take a Number at two seats, by default), a tree over a
/// determinization a walk: its games are played to the end, each action legal (`apply`
/// refuses any other), the same from the same seed, and not the flat search's (`tree=0`).
#[test]
fn take_a_number_at_two_seats_is_searched_by_a_tree_of_determinizations_reproducibly() {
    use take5::players::search::default_tree;
    use take5::variants::take_a_number::{TakeANumber, rules};
    assert!(default_tree(Variant::TakeANumber, 2));
    assert!(!default_tree(Variant::TakeANumber, 3));
    let rules = Arc::new(rules());
    let play = |spec: &str| {
        let game = TakeANumber::new(rules.clone(), 2).unwrap();
        duel(game, Variant::TakeANumber, &rules, spec, 11)
    };
    let tree = play("steps=3000");
    assert_eq!(tree, play("steps=3000:tree=1"));
    assert_ne!(tree, play("steps=3000:tree=0"));
}

#[test]
fn every_mcs_option_is_written_back_as_parsed_and_its_default_left_out() {
    use take5::tournament::gauntlet::{MCS_DEC1, PLAIN_MC};
    // Each option alone, at and off its default; the budget's three together (each is
    // written, whichever the search goes by); the percents above 100 taken as 100.
    for (given, written) in [
        ("", "mcs"),
        ("rollouts=2000:ms=50", "mcs:rollouts=2000:ms=50"),
        (
            "ms=50:steps=10:rollouts=2000",
            "mcs:rollouts=2000:steps=10:ms=50",
        ),
        ("steps=1500", "mcs:steps=1500"),
        ("policy=random", "mcs"),
        ("policy=dodger", "mcs:policy=dodger"),
        ("own=random", "mcs:own=random"),
        ("own=dodger", "mcs:own=dodger"),
        ("versus=0", "mcs:versus=0"),
        ("versus=250", "mcs:versus=250"),
        ("rival=50", "mcs:rival=50"),
        ("rival=0", "mcs:rival=0"),
        ("mix=50", "mcs:mix=50"),
        ("mix=150", "mcs:mix=100"),
        ("infer=1", "mcs"),
        ("infer=7", "mcs"),
        ("infer=0", "mcs:infer=0"),
        ("safe=0", "mcs:safe=0"),
        ("safe=20", "mcs:safe=20"),
        ("safe=300", "mcs:safe=100"),
        ("own_safe=0", "mcs:own_safe=0"),
        ("own_safe=300", "mcs:own_safe=100"),
        ("found=0", "mcs"),
        ("found=100", "mcs:found=100"),
        ("recast=100", "mcs"),
        ("recast=0", "mcs:recast=0"),
        ("tree=0", "mcs:tree=0"),
        ("tree=5", "mcs:tree=1"),
        ("prior=0", "mcs:prior=0"),
        ("prior=3", "mcs:prior=3"),
        ("judge=0", "mcs:judge=0"),
        ("judge=64", "mcs:judge=64"),
        (
            "prior=2:tree=1:recast=40:found=10:own_safe=6:safe=5:infer=0:rival=20:mix=30:versus=10:own=random:policy=dodger:ms=9:steps=8:rollouts=7",
            "mcs:rollouts=7:steps=8:ms=9:policy=dodger:versus=10:rival=20:mix=30:infer=0:safe=5:own_safe=6:found=10:recast=40:tree=1:prior=2:own=random",
        ),
        (
            PLAIN_MC.strip_prefix("builtin:mcs:").unwrap(),
            "mcs:versus=0:rival=50:mix=0:infer=0:safe=0:own_safe=0:tree=0:prior=0:judge=0:own=random",
        ),
        (
            MCS_DEC1.strip_prefix("builtin:mcs:").unwrap(),
            "mcs:versus=0:rival=50:mix=50:safe=0:own_safe=0:found=100:judge=0:own=dodger",
        ),
    ] {
        let parsed = McsOptions::parse(given).unwrap_or_else(|e| panic!("{given}: {e}"));
        assert_eq!(parsed.spec(), written, "{given}");
        let again = McsOptions::parse(written.strip_prefix("mcs").unwrap()).unwrap();
        assert_eq!(again, parsed, "{given}");
    }
    for (given, error) in [
        ("rollouts", "mcs option `rollouts`: expected name=value"),
        (
            "rollouts=0",
            "mcs option `rollouts`: `0` is not a whole number above 0",
        ),
        (
            "steps=0",
            "mcs option `steps`: `0` is not a whole number above 0",
        ),
        ("ms=0", "mcs option `ms`: `0` is not a whole number above 0"),
        (
            "steps=5000000000",
            "mcs option `steps`: `5000000000` is not a whole number above 0",
        ),
        (
            "mix=-1",
            "mcs option `mix`: `-1` is not a whole number above 0",
        ),
        (
            "policy=clever",
            "mcs option `policy`: no built-in bot `clever`",
        ),
        ("own=", "mcs option `own`: no built-in bot ``"),
        (
            "speed=3",
            "unknown mcs option `speed` (known: rollouts, steps, ms, policy, own, versus, mix, rival, infer, safe, own_safe, found, recast, tree, prior, judge)",
        ),
    ] {
        assert_eq!(McsOptions::parse(given), Err(error.to_string()), "{given}");
    }
}

#[test]
fn the_judgements_first_pass_is_left_out_when_it_would_take_over_half_a_small_budget() {
    // The first decision of a two-seat circle game: 14 number cards and the prior's 3 special
    // placements. With 100 steps a first pass of judgements (even over one determinization)
    // would take more than half the budget, so there is none: each of the 5 stages of halving
    // rolls out every action still in play once (17, 9, 5, 3, 2), each judged beside; a pass
    // would have left 6 for the rollouts.
    let rules = Arc::new(circle::rules());
    let mut game = Circle::new(rules.clone(), 2).unwrap();
    let mut mcs = McsPlayer::new(McsOptions::parse("steps=100").unwrap(), 3);
    let start = GameStart {
        number: 0,
        variant: Variant::Circle,
        rules: &rules,
        seats: 2,
        seat: 0,
        time_ms: 1000,
        seed: 3,
    };
    mcs.start_game(&start).unwrap();
    let mut events: Vec<Event> = Vec::new();
    (game.deal_random(&mut GameRng::new(3, Stream::Deal(0)), &mut events)).unwrap();
    for event in &events {
        mcs.observe(0, event).unwrap();
    }
    let action = mcs.choose(&game.view(0));
    let mut legal = Vec::new();
    game.legal_actions(0, &mut legal);
    assert!(legal.contains(&action), "{action:?}");
    assert_eq!(mcs.searched().rollouts, 17 + 9 + 5 + 3 + 2);
}

#[test]
fn the_circle_games_safe_player_takes_the_best_paying_row_and_never_a_costly_one() {
    // The safe player of the circle game's rollouts (docs/mcs.md, "Thirteenth round"), at
    // every decision of random games of two and four seats, checked against the engine: each
    // number card played on a copy of the table shows whether it takes a row and what that
    // row is worth (its cards and special cards as a pile of their own: what the safe player,
    // like the dodger, judges a row by).
    use take5::players::builtin::{circle_moves, circle_random, circle_safe};
    use take5::variants::circle::taken_points;
    let rules = Arc::new(circle::rules());
    let settings = rules.circle.as_deref().unwrap();
    let (mut paying, mut avoided) = (0, 0);
    for seats in [2, 4] {
        for seed in 0..12 {
            let mut game = Circle::new(rules.clone(), seats).unwrap();
            let mut deals = GameRng::new(seed, Stream::Deal(0));
            let mut safe_rng = GameRng::new(seed, Stream::Deal(1));
            let mut random = Builtin::new(Strategy::Random, seed);
            while game.outcome().is_none() {
                let seat = match game.to_move() {
                    ToMove::Deal => {
                        game.deal_random(&mut deals, &mut Vec::<Event>::new())
                            .unwrap();
                        continue;
                    }
                    ToMove::Seat(seat, _) => seat,
                    other => panic!("{other:?}"),
                };
                let view = game.view(seat);
                let moves: Vec<Action> = circle_moves(&view).collect();
                // What each move takes: the points of the row it collects, if any.
                let taken = |action: Action| {
                    let mut copy = game.clone();
                    let mut events: Vec<Event> = Vec::new();
                    copy.apply(seat, action, &mut events).unwrap();
                    events.iter().find_map(|e| match e {
                        Event::Collect {
                            cards, specials, ..
                        } => Some(taken_points(&rules.deck, settings, cards.clone(), specials)),
                        _ => None,
                    })
                };
                let worths: Vec<Option<i32>> = moves.iter().map(|&a| taken(a)).collect();
                // The random move drawn without listing the moves is the listed one.
                let mut listed = safe_rng.clone();
                let count = moves.len() as u32;
                let drawn = circle_random(&view, &mut safe_rng.clone());
                assert_eq!(drawn, moves[listed.below(count) as usize], "{view:?}");
                let chosen = circle_safe(&view, &mut safe_rng);
                let at = moves
                    .iter()
                    .position(|&a| a == chosen)
                    .expect("a legal move");
                let best = worths.iter().flatten().copied().filter(|&w| w > 0).max();
                if let Some(best) = best {
                    // The first (lowest) card taking the row worth most.
                    let first = worths.iter().position(|&w| w == Some(best)).unwrap();
                    assert_eq!(at, first, "{view:?}");
                    paying += 1;
                } else if worths.iter().any(|w| w.is_none_or(|w| w >= 0)) {
                    assert!(worths[at].is_none_or(|w| w >= 0), "{view:?}");
                    avoided += usize::from(worths.iter().any(|w| w.is_some_and(|w| w < 0)));
                }
                let action = random.choose(&view);
                game.apply(seat, action, &mut Vec::<Event>::new()).unwrap();
            }
        }
    }
    // Both cases came up often enough to mean something.
    assert!(
        paying > 20 && avoided > 20,
        "{paying} paying, {avoided} avoided"
    );
}
