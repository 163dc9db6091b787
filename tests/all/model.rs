//! The search model (src/game/model.rs), by properties over games played at random: every legal
//! action applies and every other action is refused; a determinized game shows its seat what the
//! real one shows, and deals the cards the seat cannot see from those unaccounted for.

use std::sync::Arc;
use take5::cards::{Card, Special};
use take5::game::model::{Memory, Model, draw_hand_avoiding};
use take5::game::{Action, Decision, Discard, Event, Game, Seat, SpecialPlay, ToMove, View};
use take5::players::builtin::{Builtin, Strategy};
use take5::rng::{GameRng, Stream};
use take5::rules::Rules;
use take5::variants::Variant;
use take5::variants::classic::Classic;

/// Every action a seat could try at this table, legal or not: each card of the deck and one
/// past it played, kept, picked or cancelled, each row and one past the last taken, every
/// special card placed in, played or swapped at every row and place that could be named.
fn universe(view: &View) -> Vec<Action> {
    let deck = &view.rules.deck;
    let mut all = vec![Action::EndTurn, Action::Pass];
    let cards: Vec<Card> = deck.cards().chain([Card(deck.highest() + 1)]).collect();
    let rows = view.rows.len() + 1;
    for &card in &cards {
        all.extend([
            Action::Play(card),
            Action::Keep(card),
            Action::Pick(card),
            Action::Cancel(card),
        ]);
    }
    all.extend((0..rows.max(2)).map(Action::TakeRow));
    let specials = Special::ANNIVERSARY.iter().chain(&Special::CIRCLE).copied();
    for special in specials {
        all.push(Action::Swap(special));
        all.extend((0..rows).map(|row| Action::PlaceSpecial { special, row }));
    }
    let max_len = view.rows.iter().map(Vec::len).max().unwrap_or(0) + 2;
    all.push(Action::Special(SpecialPlay::FifthRow));
    for row in 0..rows as u8 {
        all.push(Action::Special(SpecialPlay::SevenNimmt { row }));
        all.push(Action::Special(SpecialPlay::Stop { row }));
        for at in 0..max_len as u8 {
            all.push(Action::Special(SpecialPlay::Insert { row, at }));
        }
    }
    // Replace and Shift name cards: those the seat holds or sees in a row, and one it does not.
    let named = view.hand.iter().chain(view.rows.iter().flatten()).copied();
    for card in named.chain([Card(deck.highest() + 1)]) {
        all.push(Action::Special(SpecialPlay::Replace { card }));
        for row in 0..rows as u8 {
            for at in 0..max_len as u8 {
                all.push(Action::Special(SpecialPlay::Shift { card, row, at }));
            }
        }
    }
    all
}

/// Checks the legal actions of every seat that owes a decision in `game`.
fn check_legal_actions<G: Model>(game: &G, label: &str) -> usize {
    let mut checked = 0;
    for seat in 0..game.seats() {
        let mut legal = Vec::new();
        game.legal_actions(seat, &mut legal);
        let view = game.view(seat);
        assert_eq!(
            legal.is_empty(),
            view.decision.is_none(),
            "{label}: seat {seat} owes {:?} but has legal actions {legal:?}",
            view.decision
        );
        for &action in &legal {
            let mut copy = game.clone();
            copy.apply(seat, action, &mut Discard)
                .unwrap_or_else(|e| panic!("{label}: seat {seat}: legal {action:?} refused: {e}"));
        }
        for action in universe(&view) {
            let listed = legal.contains(&action);
            let accepted = game.check(seat, action).is_ok();
            assert_eq!(
                listed, accepted,
                "{label}: seat {seat}, {action:?}: listed {listed}, accepted {accepted}"
            );
            checked += 1;
        }
    }
    checked
}

/// Checks that a game determinized from `seat`'s view shows that view, and holds every card
/// once.
fn check_determinized<G: Model>(
    game: &G,
    rules: &Arc<Rules>,
    seat: Seat,
    memory: &Memory,
    rng: &mut GameRng,
    label: &str,
) {
    let view = game.view(seat);
    let draws = rng.clone();
    let world = G::determinize(rules, &view, memory, rng)
        .unwrap_or_else(|e| panic!("{label}: seat {seat}: cannot determinize: {e}"));
    check_determinized_into(&world, rules, &view, memory, draws, rng, label);
    let seen = world.view(seat);
    assert_eq!(seen.decision, view.decision, "{label}: decision");
    assert_eq!(seen.hand, view.hand, "{label}: hand");
    assert_eq!(seen.rows, view.rows, "{label}: rows");
    assert_eq!(seen.scores, view.scores, "{label}: scores");
    assert_eq!(seen.taken, view.taken, "{label}: taken");
    assert_eq!(seen.revealed, view.revealed, "{label}: revealed");
    assert_eq!(seen.pool, view.pool, "{label}: pool");
    assert_eq!(
        seen.special_hand, view.special_hand,
        "{label}: special hand"
    );
    assert_eq!(seen.number, view.number, "{label}: Take a Number's table");
    assert_eq!(seen.circle, view.circle, "{label}: the circle's table");
    assert_eq!(
        seen.specials, view.specials,
        "{label}: special cards' table"
    );
    assert_eq!(
        (seen.round, seen.turn),
        (view.round, view.turn),
        "{label}: round, turn"
    );
    // Every other seat holds as many cards as in the real game (a card chosen face down still
    // counts: the determinized game lets it choose again), and no card is in two places.
    let chosen = |g: &G, s: Seat| {
        usize::from(matches!(g.to_move(), ToMove::Everyone(_)) && g.owes(s).is_none())
    };
    for other in 0..game.seats() {
        let (real, built) = (game.view(other), world.view(other));
        assert_eq!(
            built.hand.len() + chosen(&world, other),
            real.hand.len() + chosen(game, other),
            "{label}: seat {other}'s hand size"
        );
        for card in built.hand.iter().filter(|_| other != seat) {
            assert!(!view.hand.contains(card), "{label}: {card} in two hands");
            assert!(
                !view.rows.iter().flatten().any(|c| c == card),
                "{label}: {card} in a row and a hand"
            );
        }
    }
    // The card being placed (the one revealed, or what a Replace card put in its place) is in
    // no hand; a card a Replace sent back is in its player's hand.
    let placing = match view.decision {
        Some(Decision::Special { card } | Decision::ChooseRow { card }) => Some(card),
        _ => None,
    };
    let instead = memory.replaced.iter().map(|&(_, _, instead)| instead);
    for card in instead.chain(placing) {
        for other in 0..game.seats() {
            assert!(
                !world.view(other).hand.contains(&card),
                "{label}: {card}, being placed or placed, in seat {other}'s hand"
            );
        }
    }
    for &(by, back) in &memory.returned {
        assert!(
            world.view(by).hand.contains(&back),
            "{label}: {back}, replaced, not back in seat {by}'s hand"
        );
    }
    // In Take a Number a card revealed this turn and placed before the seat's own may have gone
    // back into a hand with the row it was taken with.
    let own_card = match view.decision {
        Some(Decision::ChooseRow { .. } | Decision::KeepCard) => view.revealed.get(seat),
        _ => None,
    };
    let placed = |card: &Card| view.number.is_some() && own_card.is_some_and(|own| card < own);
    for other in (0..game.seats()).filter(|&s| s != seat) {
        for card in world.view(other).hand {
            let back = memory.returned.contains(&(other, *card)) || placed(card);
            // (In Take a Number taken cards go back into the taker's hand.)
            let taken = view.number.is_none() && memory.taken.contains(card);
            let gone = taken || view.revealed.contains(card) && !back;
            assert!(
                !gone,
                "{label}: {card}, revealed or taken, in seat {other}'s hand"
            );
        }
    }
    let mut hidden: Vec<Card> = (0..game.seats())
        .filter(|&s| s != seat)
        .flat_map(|s| world.view(s).hand.to_vec())
        .collect();
    let count = hidden.len();
    hidden.sort_unstable();
    hidden.dedup();
    assert_eq!(hidden.len(), count, "{label}: a card in two hidden hands");
    for (name, g) in [("real", game), ("determinized", &world)] {
        let mut all: Vec<Card> = (0..g.seats())
            .flat_map(|s| g.view(s).hand.to_vec())
            .collect();
        all.extend(g.view(seat).rows.iter().flatten());
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(
            all.len(),
            count,
            "{label}: {name} game: a card in two places"
        );
    }
}

/// Checks that [`Model::determinize_into`] a game already played on (a search reuses its games)
/// gives the game `determinize` gave, `world`, from the same `draws`, and draws as much.
fn check_determinized_into<G: Model>(
    world: &G,
    rules: &Arc<Rules>,
    view: &View,
    memory: &Memory,
    mut draws: GameRng,
    rng: &GameRng,
    label: &str,
) {
    let mut used = world.clone();
    let mut actions = Vec::new();
    for _ in 0..6 {
        let Some(seat) = (0..used.seats()).find(|&s| used.owes(s).is_some()) else {
            break;
        };
        actions.clear();
        used.legal_actions(seat, &mut actions);
        let last = *actions
            .last()
            .expect("a seat that owes a decision has an action");
        used.apply(seat, last, &mut Discard)
            .expect("a legal action applies");
    }
    used.determinize_into(rules, view, memory, &mut draws)
        .unwrap_or_else(|e| panic!("{label}: cannot determinize into a used game: {e}"));
    assert_eq!(
        draws.position(),
        rng.position(),
        "{label}: draws into a used game"
    );
    assert_eq!(used.to_move(), world.to_move(), "{label}: to move, reused");
    for s in 0..world.seats() {
        assert_eq!(
            format!("{:?}", used.view(s)),
            format!("{:?}", world.view(s)),
            "{label}: seat {s}'s view of the game determinized into a used one"
        );
    }
}

/// Plays game `number` of `G` by `strategies` (seat by seat, repeated round the table), its
/// events fed to each seat's memory, calling `at_decision` with the game, the seat that owes a
/// decision, its memory, a generator for rebuilding and the step, before the seat decides.
fn play_by<G: Model>(
    game: &mut G,
    number: u64,
    strategies: &[Strategy],
    mut at_decision: impl FnMut(&G, Seat, &Memory, &mut GameRng, usize),
) {
    let seats = game.seats();
    let mut deal_rng = GameRng::new(number, Stream::Deal(0));
    let mut rng = GameRng::new(number, Stream::Deal(1));
    let mut bots: Vec<Builtin> = (0..seats)
        .map(|s| Builtin::new(strategies[s % strategies.len()], number + s as u64))
        .collect();
    let mut memories: Vec<Memory> = (0..seats).map(|s| Memory::new(s, seats)).collect();
    let mut events: Vec<Event> = Vec::new();
    let mut steps = 0;
    while game.to_move() != ToMove::GameOver {
        if game.to_move() == ToMove::Deal {
            game.deal_random(&mut deal_rng, &mut events)
                .expect("a deal");
        } else {
            let seat = (0..seats)
                .find(|&s| game.owes(s).is_some())
                .expect("a seat owes");
            at_decision(game, seat, &memories[seat], &mut rng, steps);
            let action = bots[seat].choose(&game.view(seat));
            game.apply(seat, action, &mut events)
                .expect("the random bot plays legally");
        }
        for event in events.drain(..) {
            for memory in &mut memories {
                memory.observe(&event);
            }
        }
        steps += 1;
    }
}

/// Plays `games` games of `G` at random, checking both properties at every decision.
fn properties<G: Model>(
    make: impl Fn(Arc<Rules>, usize) -> G,
    variant: Variant,
    seats: usize,
    games: u64,
) {
    let rules = Arc::new(variant.rules());
    let mut checked = 0;
    for number in 0..games {
        let mut game = make(rules.clone(), seats);
        play_by(
            &mut game,
            number,
            &[Strategy::Random],
            |game, seat, memory, rng, steps| {
                let label = format!("{variant:?} game {number} step {steps}");
                checked += check_legal_actions(game, &label);
                let view_rules = Arc::new(game.view(seat).rules.clone());
                check_determinized(game, &view_rules, seat, memory, rng, &label);
            },
        );
    }
    assert!(checked > 0);
}

#[test]
fn classic_legal_actions_apply_and_determinized_games_match_the_view() {
    for seats in [2, 4, 10] {
        properties(
            |r, s| Classic::new(r, s).unwrap(),
            Variant::Classic,
            seats,
            3,
        );
    }
}

#[test]
fn pro_legal_actions_apply_and_determinized_games_match_the_view() {
    use take5::variants::pro::Pro;
    for seats in [2, 4] {
        properties(|r, s| Pro::new(r, s).unwrap(), Variant::Pro, seats, 2);
    }
}

#[test]
fn take_a_number_legal_actions_apply_and_determinized_games_match_the_view() {
    use take5::variants::take_a_number::TakeANumber;
    for seats in [2, 4] {
        properties(
            |r, s| TakeANumber::new(r, s).unwrap(),
            Variant::TakeANumber,
            seats,
            2,
        );
    }
}

/// Take a Number: a card revealed this turn, placed before the deciding seat's own and taken
/// back into a hand with its row, is one a rebuilt game may deal to the others (it once counted
/// as seen, so no rebuilt game held it, though a seat did).
#[test]
fn take_a_number_deals_a_card_revealed_and_taken_back_this_turn() {
    use take5::variants::take_a_number::TakeANumber;
    let seats = 4;
    let rules = Arc::new(Variant::TakeANumber.rules());
    let mut found = 0;
    for number in 0..40 {
        let mut game = TakeANumber::new(rules.clone(), seats).unwrap();
        play_by(
            &mut game,
            number,
            &[Strategy::Random],
            |game, seat, memory, rng, _| {
                let view = game.view(seat);
                let mid_turn = matches!(
                    view.decision,
                    Some(Decision::ChooseRow { .. } | Decision::KeepCard)
                );
                // The cards revealed below the seat's own that some other seat holds again.
                let back: Vec<(Seat, Card)> = (0..seats)
                    .filter(|&s| s != seat && mid_turn)
                    .flat_map(|s| game.view(s).hand.to_vec().into_iter().map(move |c| (s, c)))
                    .filter(|(_, c)| view.revealed.contains(c) && *c < view.revealed[seat])
                    .collect();
                let view_rules = Arc::new(view.rules.clone());
                for (holder, card) in back {
                    let dealt = (0..500).any(|_| {
                        let world = TakeANumber::determinize(&view_rules, &view, memory, rng)
                            .expect("a rebuilt game");
                        (0..seats).any(|s| s != seat && world.view(s).hand.contains(&card))
                    });
                    assert!(
                        dealt,
                        "game {number}: {card}, back in seat {holder}'s hand, never dealt"
                    );
                    found += 1;
                }
            },
        );
    }
    assert!(
        found > 0,
        "no card revealed and taken back in the same turn"
    );
}

#[test]
fn circle_legal_actions_apply_and_determinized_games_match_the_view() {
    use take5::variants::circle::Circle;
    for seats in [2, 4] {
        properties(|r, s| Circle::new(r, s).unwrap(), Variant::Circle, seats, 2);
    }
}

#[test]
fn anniversary_legal_actions_apply_and_determinized_games_match_the_view() {
    use take5::variants::anniversary::Anniversary;
    for seats in [2, 4] {
        properties(
            |r, s| Anniversary::new(r, s).unwrap(),
            Variant::Anniversary,
            seats,
            2,
        );
    }
}

/// Games rebuilt from a seat's view at every decision in the middle of an anniversary turn
/// (special cards, Negative = Positive, swaps, a low card's row) play on to the round's end
/// with `builtin:mcs`'s rollout policies after each legal action: a rebuilt game is one the
/// rules engine can finish. A Replace card once left the card it placed out of the rebuilt
/// game's accounts, so it could be drawn into another hand too and end up in two rows.
#[test]
fn anniversary_games_rebuilt_mid_turn_play_on_to_the_round_end() {
    use take5::players::search::{McsOptions, Policies, rollout};
    use take5::variants::anniversary::Anniversary;
    let rules = Arc::new(Variant::Anniversary.rules());
    let mut rebuilt = 0;
    for seats in [2, 3, 5] {
        for number in 0..12u64 {
            let mut game = Anniversary::new(rules.clone(), seats).unwrap();
            let mut policies = Policies::new(&McsOptions::default(), number);
            // Random players play special cards at random (Replace among them), the dodger
            // sensibly.
            let strategies = [Strategy::Random, Strategy::Dodger];
            play_by(
                &mut game,
                number,
                &strategies,
                |game, seat, memory, rng, steps| {
                    let label = format!("{seats} seats, game {number}, step {steps}");
                    let view = game.view(seat);
                    let view_rules = Arc::new(view.rules.clone());
                    check_determinized(game, &view_rules, seat, memory, rng, &label);
                    if view.revealed.is_empty() {
                        return;
                    }
                    let world = Anniversary::determinize(&view_rules, &view, memory, rng)
                        .unwrap_or_else(|e| panic!("{label}: cannot determinize: {e}"));
                    let mut legal = Vec::new();
                    world.legal_actions(seat, &mut legal);
                    for &action in &legal {
                        let mut copy = world.clone();
                        copy.apply(seat, action, &mut Discard)
                            .unwrap_or_else(|e| panic!("{label}: {action:?} refused: {e}"));
                        rollout(&mut copy, &mut policies, seat, view.round);
                        let over = matches!(copy.to_move(), ToMove::Deal | ToMove::GameOver);
                        let next = copy.view(seat).round != view.round;
                        assert!(over || next, "{label}: {action:?}: the round did not end");
                    }
                    rebuilt += 1;
                },
            );
        }
    }
    assert!(rebuilt > 100, "only {rebuilt} mid-turn decisions rebuilt");
}

/// The minimal cases behind a rebuilt anniversary game that once reached a card in two rows: a
/// Replace card sends the revealed card back into its player's hand (the memory knows it is
/// there, and that the card placed instead is no one's), and a later Replace may place that
/// very card (then it is in no hand again).
#[test]
fn a_replace_card_moves_cards_between_hand_and_table_in_the_memory() {
    let mut memory = Memory::new(1, 2);
    let replace = |seat, card: u16, instead: u16| Event::Special {
        seat,
        card: Card(card),
        play: SpecialPlay::Replace {
            card: Card(instead),
        },
    };
    let reveal = |cards: [u16; 2]| Event::Reveal {
        round: 1,
        turn: 1,
        cards: cards.map(Card).to_vec(),
    };
    memory.observe(&reveal([40, 7]));
    memory.observe(&replace(0, 40, 12));
    assert_eq!(memory.replaced, [(0, Card(40), Card(12))]);
    assert_eq!(memory.returned, [(0, Card(40))]);
    // The next turn: seat 0 reveals 30 and puts 40 in its place.
    memory.observe(&reveal([30, 8]));
    assert!(memory.replaced.is_empty());
    memory.observe(&replace(0, 30, 40));
    assert_eq!(memory.returned, [(0, Card(30))]);
    // Seat 0 plays 30 again: no card of its hand is known any more.
    memory.observe(&reveal([30, 9]));
    assert!(memory.returned.is_empty());
}

/// A hand drawn around cards ruled out: only from the others while there are enough of them,
/// then all of those and the rest from the cards ruled out; nothing lost or drawn twice.
#[test]
fn a_hand_is_drawn_from_the_cards_not_ruled_out_while_there_are_enough() {
    let rules = Rules::classic();
    let lowest = rules.deck.lowest;
    // Cards 1 to 20 unseen; 1 to 15 ruled out, so 16 to 20 are the likely ones.
    let ruled_out: Vec<bool> = rules.deck.cards().map(|c| c.0 <= 15).collect();
    assert!(ruled_out[usize::from(15 - lowest)] && !ruled_out[usize::from(16 - lowest)]);
    let likely: Vec<Card> = (16..=20).map(Card).collect();
    for count in [3, 5, 8] {
        for seed in 0..20 {
            let mut rng = GameRng::new(seed, Stream::Deal(0));
            let mut unseen: Vec<Card> = (1..=20).map(Card).collect();
            let mut hand = Vec::new();
            draw_hand_avoiding(&mut rng, &rules, &ruled_out, &mut unseen, count, &mut hand);
            assert_eq!(hand.len(), count);
            assert!(hand.is_sorted(), "{hand:?}");
            let from_likely = hand.iter().filter(|c| likely.contains(c)).count();
            assert_eq!(from_likely, count.min(likely.len()), "{count}: {hand:?}");
            let mut all: Vec<Card> = hand.iter().chain(&unseen).copied().collect();
            all.sort_unstable();
            assert_eq!(all, (1..=20).map(Card).collect::<Vec<_>>());
        }
    }
}
