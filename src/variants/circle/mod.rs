//! The circle game (rulebook 000: "Take 5!", Kramer's Hornochsen!), 2-6 players.
//!
//! The table cards, sorted, start the rows of a circle. Players take turns in seat order; a
//! turn places one to `cards_per_turn` cards one after another, each a decision of its own. A
//! number card goes onto the row whose final number is the highest below it (the row whose
//! final number is below it and whose clockwise neighbour's is above it), or onto the row with
//! the highest final number when it is below or above every final number. A special card goes
//! into any row without one of its kind and does not count towards the five. The fifth number
//! card takes the row, special cards included, and the row leaves the circle. The game ends
//! when the last number card is played; points are won: green minus red, plus 5 per "+5",
//! doubled per "x2", minus 10 per special card still in hand. The highest total wins.
//!
//! The rows are kept clockwise in `rows`. Their final numbers, read clockwise, always ascend
//! but for one step down (they start sorted; a card placed between two finals keeps the order;
//! a card beyond both ends goes onto the highest row, which becomes the lowest or stays the
//! highest; a row leaving keeps it), so the row "between" two final numbers is the one with
//! the highest final number below the card, as in classic ([`Rows::row_for`]).

pub mod description;
pub mod fixture;
pub mod value;

use super::common::deal::{check_cards, check_deal, check_dealing};
use super::common::rows::{Rows, row_for};
use crate::cards::{Card, Deck, Special};
use crate::game::clone_field_by_field;
use crate::game::house::{Arg, Hook, Hooks, HouseHooks, Table};
use crate::game::model::{Knowledge, Model, draw_hand_into, unseen_cards};
use crate::game::{
    Action, CircleTable, Deal, Decision, Emitter, Event, Game, Outcome, Points, RuleError, Seat,
    ToMove, View, check_seat,
};
use crate::game::{Illegal, SetupError};
use crate::rng::GameRng;
use crate::rules::{CircleDeal, CircleRules, GameEnd, Rules, RulesError};
use std::sync::Arc;

/// The default rules: the reconstructed 98-card deck, the rulebook's deal by player count,
/// a row taken by its 5th number card, up to 3 cards a turn, 2-6 players.
pub fn rules() -> Rules {
    let deal = [
        (2, 14, 7),
        (3, 12, 9),
        (4, 12, 12),
        (5, 12, 15),
        (6, 10, 15),
    ]
    .map(|(players, hand_size, rows)| CircleDeal {
        players,
        hand_size,
        rows,
    })
    .to_vec();
    Rules {
        deck: Deck::circle(),
        rows: 7,
        row_capacity: 4,
        hand_size: 14,
        min_players: 2,
        max_players: 6,
        end: GameEnd::Rounds(1),
        circle: Some(Box::new(CircleRules {
            deal,
            cards_per_turn: 3,
            plus: 5,
            times: 2,
            held_penalty: 10,
            green_multiplier: 1,
            red_multiplier: 1,
        })),
        ..Rules::classic()
    }
}

/// The row (by index in `ends`, the final numbers clockwise) a number card goes onto: the one
/// whose final number is the highest below it, or the one with the highest final number when
/// the card is below every final number. `ends` must not be empty.
pub fn row_for_number(ends: &[Card], card: Card) -> usize {
    row_for(ends, card).unwrap_or_else(|| {
        (0..ends.len())
            .max_by_key(|&r| ends[r])
            .expect("the game is over when no row is left")
    })
}

/// Whether final numbers `ends`, read clockwise, ascend around the circle: in order but for at
/// most one step down (as a dealt circle's do, and keep doing).
pub(crate) fn ascends_around(ends: &[Card]) -> bool {
    let descents = (0..ends.len())
        .filter(|&i| ends[i] > ends[(i + 1) % ends.len()])
        .count();
    descents <= 1
}

/// What taking `cards` with `specials` scores: their green bullheads (times
/// `green_multiplier`) minus their red ones (times `red_multiplier`), plus `plus` per "+5", the
/// result times `times` per "x2" (a negative result too).
pub fn taken_points(
    deck: &Deck,
    settings: &CircleRules,
    cards: impl IntoIterator<Item = Card>,
    specials: &[Special],
) -> Points {
    let points = cards.into_iter().map(|c| card_points(deck, settings, c));
    total_points(settings, points, specials)
}

/// What one card counts when taken: its green bullheads times `green_multiplier`, or minus its
/// red ones times `red_multiplier`.
pub(crate) fn card_points(deck: &Deck, settings: &CircleRules, card: Card) -> Points {
    let (green, red) = (settings.green_multiplier, settings.red_multiplier);
    let points = deck.points(card);
    points.saturating_mul(if points < 0 { red } else { green })
}

/// [`taken_points`] of cards already counted one by one (`points`, in order).
pub(crate) fn total_points(
    settings: &CircleRules,
    points: impl Iterator<Item = Points>,
    specials: &[Special],
) -> Points {
    let count = |kind: Special| specials.iter().filter(|&&s| s == kind).count() as u32;
    // Saturating: a house deck or setting with huge numbers must not overflow.
    let green_minus_red: Points = points.fold(0, Points::saturating_add);
    green_minus_red
        .saturating_add(
            settings
                .plus
                .saturating_mul(count(Special::PlusFive) as Points),
        )
        .saturating_mul(settings.times.saturating_pow(count(Special::Double)))
}

/// Every card's [`card_points`], looked up by number, made once for a game: its piles are
/// summed after every placement, and [`Deck::points`] finds a red card by a search.
#[derive(Clone, Debug)]
pub(super) struct CardPoints {
    lowest: u16,
    points: Arc<[Points]>,
}

impl CardPoints {
    fn new(deck: &Deck, settings: &CircleRules) -> CardPoints {
        let points = deck.cards().map(|c| card_points(deck, settings, c));
        CardPoints {
            lowest: deck.lowest,
            points: points.collect(),
        }
    }

    /// [`taken_points`] of `cards` and `specials`.
    pub(super) fn taken(
        &self,
        settings: &CircleRules,
        cards: &[Card],
        specials: &[Special],
    ) -> Points {
        let points = cards
            .iter()
            .map(|c| self.points[usize::from(c.0 - self.lowest)]);
        total_points(settings, points, specials)
    }
}

/// A circle table to start from (fixtures): rows clockwise with their special cards, hands,
/// the special cards each seat holds, and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CircleSetup {
    pub rows: Vec<Vec<Card>>,
    pub row_specials: Vec<Vec<Special>>,
    pub hands: Vec<Vec<Card>>,
    pub held: Vec<Vec<Special>>,
    pub first: Seat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Deal,
    /// `seat` places; it has placed `placed` cards this turn.
    Turn {
        seat: Seat,
        placed: u8,
    },
    Over,
}

/// The state of a circle game.
#[derive(Debug)]
pub struct Circle {
    rules: Arc<Rules>,
    settings: CircleRules,
    /// What each card counts when taken, from the rules' deck and settings.
    card_points: CardPoints,
    seats: usize,
    hand_size: usize,
    row_count: usize,
    phase: Phase,
    /// Turns from 1, counted over the whole game.
    turn: u32,
    hands: Vec<Vec<Card>>,
    /// The circle, clockwise.
    rows: Rows,
    /// Special cards in the rows, held special cards, hand sizes, whose turn.
    table: CircleTable,
    piles: Vec<Vec<Card>>,
    pile_specials: Vec<Vec<Special>>,
    /// Points so far, by seat (the score the game would end with now).
    points: Vec<Points>,
    /// Totals of earlier rounds: there are none, so zeros.
    no_scores: Vec<Points>,
    ordered_deck: Vec<Card>,
    /// House rules' hooks, if any.
    house: Hooks,
    /// Points house rules added, by seat (a `row_taken` answer beyond the row's points).
    extra: Vec<Points>,
}

/// The table as a hook sees it (one round; the collected cards as the piles, the points so far
/// as `taken`).
macro_rules! circle_view {
    ($game:expr) => {
        Table {
            rules: &$game.rules,
            round: 1,
            turn: $game.turn,
            hands: &$game.hands,
            rows: &$game.rows,
            piles: &$game.piles,
            taken: &$game.points,
            scores: &$game.no_scores,
        }
    };
}

impl Circle {
    /// A new game waiting for its deal.
    pub fn new(rules: Arc<Rules>, seats: usize) -> Result<Circle, RulesError> {
        rules.validate()?;
        rules.check_players(seats)?;
        let Some(settings) = rules.circle.as_deref().cloned() else {
            return Err(RulesError {
                setting: "circle",
                problem: "the circle game needs its settings (deal by players, special cards)"
                    .into(),
            });
        };
        let (hand_size, row_count) = rules.deal_size(seats);
        fn per_seat<T>(seats: usize) -> Vec<Vec<T>> {
            (0..seats).map(|_| Vec::new()).collect()
        }
        let mut game = Circle {
            card_points: CardPoints::new(&rules.deck, &settings),
            settings,
            seats,
            hand_size,
            row_count,
            phase: Phase::Deal,
            turn: 0,
            hands: per_seat(seats),
            rows: Rows::new(0, 0),
            table: CircleTable {
                row_specials: Vec::with_capacity(row_count),
                held: per_seat(seats),
                hand_sizes: vec![0; seats],
            },
            piles: per_seat(seats),
            pile_specials: per_seat(seats),
            points: vec![0; seats],
            no_scores: vec![0; seats],
            ordered_deck: rules.deck.cards().collect(),
            house: Hooks::default(),
            extra: vec![0; seats],
            rules,
        };
        game.restart();
        Ok(game)
    }

    /// A game at an explicit table, `setup.first` to place (fixtures). The final numbers must
    /// read clockwise as a circle in ascending order (as a dealt circle always does).
    pub fn from_setup(rules: Arc<Rules>, setup: &CircleSetup) -> Result<Circle, RuleError> {
        let seats = setup.hands.len();
        let bad = |why: String| Err(SetupError::BadDeal(why).into());
        let mut game = Circle::new(rules, seats)
            .map_err(|e| RuleError::Setup(SetupError::BadDeal(e.to_string())))?;
        if setup.held.len() != seats {
            return bad(format!(
                "special cards given for {}, the hands for {seats}",
                crate::words::count(setup.held.len(), "seat")
            ));
        }
        if setup.row_specials.len() != setup.rows.len() {
            return bad(format!(
                "special cards given for {}, there are {}",
                crate::words::count(setup.row_specials.len(), "row"),
                setup.rows.len()
            ));
        }
        if setup.first >= seats {
            return bad(format!(
                "seat {} cannot start: there are {seats}",
                setup.first
            ));
        }
        let cards = setup.hands.iter().chain(&setup.rows).flatten().copied();
        check_cards(&game.rules, cards)?;
        for (i, row) in setup.rows.iter().enumerate() {
            if row.is_empty() || row.len() > game.rules.row_capacity {
                return bad(format!(
                    "row {i} holds {} number cards; a row holds 1 to {}",
                    row.len(),
                    game.rules.row_capacity
                ));
            }
        }
        for (i, specials) in setup.row_specials.iter().enumerate() {
            if let Some(&twice) = Special::CIRCLE
                .iter()
                .find(|&&s| specials.iter().filter(|&&t| t == s).count() > 1)
            {
                return bad(format!("row {i} holds two {twice} cards"));
            }
        }
        let ends: Vec<Card> = setup.rows.iter().map(|r| r[r.len() - 1]).collect();
        if !ascends_around(&ends) {
            return bad(
                "the rows' final numbers, read clockwise, must ascend around the circle \
                 (as the dealt circle does)"
                    .into(),
            );
        }
        game.hands = setup.hands.clone();
        for hand in &mut game.hands {
            hand.sort_unstable();
        }
        game.rows.lay(&setup.rows);
        game.table.row_specials = setup.row_specials.clone();
        game.table.held = setup.held.clone();
        for held in &mut game.table.held {
            held.sort_unstable();
        }
        game.turn = 0;
        game.update_all();
        game.next_turn(setup.first, &mut Emitter::new(&mut Vec::new()))?;
        Ok(game)
    }

    /// The circle's rows, clockwise.
    pub fn rows(&self) -> &[Vec<Card>] {
        &self.rows
    }

    /// The special cards in each row.
    pub fn row_specials(&self) -> &[Vec<Special>] {
        &self.table.row_specials
    }

    /// The special cards each seat holds.
    pub fn held(&self) -> &[Vec<Special>] {
        &self.table.held
    }

    /// The number cards each seat has taken.
    pub fn piles(&self) -> &[Vec<Card>] {
        &self.piles
    }

    /// The special cards each seat has taken.
    pub fn pile_specials(&self) -> &[Vec<Special>] {
        &self.pile_specials
    }

    /// Every number card on the table, in hands and in piles: each card dealt, once.
    pub fn cards_in_play(&self) -> Vec<Card> {
        self.hands
            .iter()
            .chain(&self.rows)
            .chain(&self.piles)
            .flatten()
            .copied()
            .collect()
    }

    /// `seat`'s points now: what its pile scores, minus `held_penalty` per special card in
    /// hand.
    fn score(&self, seat: Seat) -> Points {
        let (pile, specials) = (&self.piles[seat], &self.pile_specials[seat]);
        let held = self.settings.held_penalty * self.table.held[seat].len() as Points;
        // The extra points were checked when they were added (see `place_number`).
        self.card_points.taken(&self.settings, pile, specials) - held + self.extra[seat]
    }

    fn update_all(&mut self) {
        for seat in 0..self.seats {
            self.update_seat(seat);
        }
    }

    /// A placement changes the placing seat's hand, pile and special cards only.
    fn update_seat(&mut self, seat: Seat) {
        self.table.hand_sizes[seat] = self.hands[seat].len();
        self.points[seat] = self.score(seat);
    }

    /// Whether `seat` has a card it may place: a number card, or a special card some row
    /// lacks.
    fn can_place(&self, seat: Seat) -> bool {
        (!self.hands[seat].is_empty() && !self.rows.is_empty())
            || self.table.held[seat]
                .iter()
                .any(|&s| self.table.row_specials.iter().any(|r| !r.contains(&s)))
    }

    /// The turn goes to `from` or the first seat after it, clockwise, that can place a card;
    /// the game is over when no number card is left (or no row), or nobody can place.
    fn next_turn(&mut self, from: Seat, events: &mut Emitter) -> Result<(), RuleError> {
        let number_cards_left = self.hands.iter().any(|h| !h.is_empty()) && !self.rows.is_empty();
        let next = (0..self.seats)
            .map(|i| (from + i) % self.seats)
            .find(|&s| self.can_place(s));
        match next {
            Some(seat) if number_cards_left => {
                self.turn += 1;
                self.phase = Phase::Turn { seat, placed: 0 };
            }
            _ => {
                self.phase = Phase::Over;
                self.update_all();
                if self.house.any() {
                    // Each seat's final score, then the one round's end.
                    for seat in 0..self.seats {
                        let (table, extra) = (circle_view!(self), &mut self.extra[seat]);
                        let score = self.points[seat];
                        let args = [Arg::Number(score.into())];
                        (self.house).points(
                            &table,
                            (Hook::FinalScore, seat),
                            &args,
                            score,
                            extra,
                        )?;
                    }
                    self.update_all();
                    // The one round ends: round_end may change the points; the game is over
                    // whatever game_over says (no card is left to play).
                    let end = self.house.close_round(&circle_view!(self), |_| true)?;
                    self.points = end.totals;
                }
                events.emit(|| Event::GameEnd {
                    totals: self.points.clone(),
                    winners: Outcome::highest_wins(&self.points).winners,
                });
            }
        }
        Ok(())
    }

    /// After `seat`'s placement number `placed`: its turn goes on, or passes (and
    /// [`Circle::next_turn`] ends the game once the last number card is played).
    fn placed(&mut self, seat: Seat, placed: u8, events: &mut Emitter) -> Result<(), RuleError> {
        let last_card = self.hands.iter().all(Vec::is_empty);
        if last_card || placed >= self.settings.cards_per_turn || !self.can_place(seat) {
            self.next_turn((seat + 1) % self.seats, events)
        } else {
            self.phase = Phase::Turn { seat, placed };
            Ok(())
        }
    }

    fn place_number(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut Emitter,
    ) -> Result<(), RuleError> {
        let hand = &mut self.hands[seat];
        hand.remove(hand.binary_search(&card).expect("validated"));
        let row = row_for_number(self.rows.ends(), card);
        self.rows.place(row, card);
        events.emit(|| Event::Place { seat, card, row });
        if self.rows[row].len() > self.rules.row_capacity {
            if self.house.any() {
                let printed = (self.card_points).taken(&self.settings, &self.rows[row], &[]);
                let (table, cards) = (circle_view!(self), &self.rows[row]);
                let extra = &mut self.extra[seat];
                (self.house).row_taken_extra(&table, (seat, row, cards), printed, extra)?;
            }
            let cards = self.rows.remove(row);
            let specials = self.table.row_specials.remove(row);
            let (points, settings) = (&self.card_points, &self.settings);
            events.emit(|| Event::Collect {
                seat,
                row,
                cards: cards.clone(),
                specials: specials.clone(),
                points: points.taken(settings, &cards, &[]),
            });
            if self.house.any() {
                // The row has left the circle (it is no longer in `t.rows`).
                let points = points.taken(settings, &cards, &specials);
                let args = [
                    Arg::Number(row as i64),
                    Arg::Cards(&cards),
                    Arg::Specials(&specials),
                    Arg::Number(points.into()),
                ];
                (self.house).observe(&circle_view!(self), Hook::RowCollected, seat, &args)?;
            }
            self.piles[seat].extend(cards);
            self.pile_specials[seat].extend(specials);
            self.update_seat(seat);
        } else {
            // Nothing taken: only the hand changed (the points are worked out again from the
            // whole pile only when it grows, the hot path of a search's rollouts).
            self.table.hand_sizes[seat] = self.hands[seat].len();
        }
        Ok(())
    }

    fn place_special(&mut self, seat: Seat, special: Special, row: usize, events: &mut Emitter) {
        let held = &mut self.table.held[seat];
        held.remove(held.iter().position(|&s| s == special).expect("validated"));
        self.table.row_specials[row].push(special);
        events.emit(|| Event::PlaceSpecial { seat, special, row });
        self.update_seat(seat);
    }

    fn validate(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        let (turn_seat, placed) = match self.phase {
            Phase::Deal => return Err(Illegal::DealFirst.into()),
            Phase::Over => return Err(Illegal::GameOver.into()),
            Phase::Turn { seat, placed } => (seat, placed),
        };
        check_seat(seat, self.seats)?;
        if seat != turn_seat {
            return Err(Illegal::NotYourTurn {
                seat,
                waiting_for: turn_seat,
            }
            .into());
        }
        match action {
            Action::Play(card) if self.hands[seat].binary_search(&card).is_err() => {
                Err(Illegal::NotInHand { seat, card }.into())
            }
            Action::Play(_) => Ok(()),
            Action::PlaceSpecial { special, .. } if !self.table.held[seat].contains(&special) => {
                Err(Illegal::SpecialNotInHand { seat, special }.into())
            }
            Action::PlaceSpecial { row, .. } if row >= self.rows.len() => Err(Illegal::NoSuchRow {
                row,
                rows: self.rows.len(),
            }
            .into()),
            Action::PlaceSpecial { special, row } => {
                if self.table.row_specials[row].contains(&special) {
                    Err(Illegal::SpecialInRow { row, special }.into())
                } else {
                    Ok(())
                }
            }
            Action::EndTurn if placed == 0 => Err(Illegal::NothingPlaced { seat }.into()),
            Action::EndTurn => Ok(()),
            Action::TakeRow(_)
            | Action::Keep(_)
            | Action::Pick(_)
            | Action::Special(_)
            | Action::Pass
            | Action::Cancel(_)
            | Action::Swap(_) => Err(Illegal::CircleTurnDue { seat }.into()),
        }
    }

    /// Deals `hands` and the table cards `row_cards` (sorted into the circle), one special
    /// card of each kind to every seat; seat 0 starts.
    fn deal_from(
        &mut self,
        hands: &[Vec<Card>],
        row_cards: &[Card],
        events: &mut Emitter,
    ) -> Result<(), RuleError> {
        for (hand, dealt) in self.hands.iter_mut().zip(hands) {
            hand.clear();
            hand.extend_from_slice(dealt);
            hand.sort_unstable();
        }
        let mut sorted = row_cards.to_vec();
        sorted.sort_unstable();
        self.rows.deal(sorted.iter().copied());
        self.table.row_specials.clear();
        self.table.row_specials.resize(sorted.len(), Vec::new());
        for held in &mut self.table.held {
            held.clear();
            held.extend(Special::CIRCLE);
        }
        self.turn = 0;
        self.update_all();
        events.emit(|| Event::Deal {
            round: 1,
            hands: self.hands.clone(),
            rows: sorted.clone(),
        });
        self.next_turn(0, events)
    }
}

impl Game for Circle {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::Deal => ToMove::Deal,
            Phase::Turn { seat, placed } => ToMove::Seat(seat, self.decision(placed)),
            Phase::Over => ToMove::GameOver,
        }
    }

    fn owes(&self, seat: Seat) -> Option<Decision> {
        match self.phase {
            Phase::Turn { seat: s, placed } if s == seat => Some(self.decision(placed)),
            _ => None,
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        self.validate(seat, action)
    }

    fn act(&mut self, seat: Seat, action: Action, events: &mut Emitter) -> Result<(), RuleError> {
        self.validate(seat, action)?;
        let Phase::Turn { placed, .. } = self.phase else {
            unreachable!("validate() admits actions only during a turn")
        };
        match action {
            Action::Play(card) => {
                self.place_number(seat, card, events)?;
                self.placed(seat, placed + 1, events)
            }
            Action::PlaceSpecial { special, row } => {
                self.place_special(seat, special, row, events);
                self.placed(seat, placed + 1, events)
            }
            Action::EndTurn => {
                events.emit(|| Event::EndTurn { seat });
                self.next_turn((seat + 1) % self.seats, events)
            }
            _ => unreachable!("validate() admits no other action"),
        }
    }

    /// A deal's `rows` are the table cards, in any order: they are sorted into the circle.
    fn deal_given(&mut self, deal: &Deal, events: &mut Emitter) -> Result<(), RuleError> {
        check_deal(self.to_move(), deal, (self.seats, self.hand_size))?;
        if deal.rows.len() != self.row_count {
            return Err(SetupError::BadDeal(format!(
                "{} table cards; the circle game deals {} for {} players",
                deal.rows.len(),
                self.row_count,
                self.seats
            ))
            .into());
        }
        check_cards(
            &self.rules,
            deal.hands.iter().flatten().chain(&deal.rows).copied(),
        )?;
        self.deal_from(&deal.hands, &deal.rows, events)
    }

    /// Draws the hands (seat by seat) and then the table cards from the shuffled deck, as Take
    /// a Number does; the rest of the deck is out of the game.
    fn deal_drawn(&mut self, rng: &mut GameRng, events: &mut Emitter) -> Result<(), RuleError> {
        check_dealing(self.to_move())?;
        let mut deck = self.ordered_deck.clone();
        let dealt = self.seats * self.hand_size + self.row_count;
        let cards = rng.draw_in_order(&mut deck, dealt);
        let (hand_cards, row_cards) = cards.split_at(self.seats * self.hand_size);
        let hands: Vec<Vec<Card>> = hand_cards
            .chunks(self.hand_size)
            .map(<[Card]>::to_vec)
            .collect();
        self.deal_from(&hands, row_cards, events)
    }

    fn view(&self, seat: Seat) -> View<'_> {
        View {
            rules: &self.rules,
            seat,
            seats: self.seats,
            round: 1,
            turn: self.turn,
            decision: self.owes(seat),
            hand: &self.hands[seat],
            rows: &self.rows,
            scores: &self.no_scores,
            taken: &self.points,
            revealed: &[],
            pool: &[],
            number: None,
            circle: Some(&self.table),
            specials: None,
            special_hand: &self.table.held[seat],
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| Outcome::highest_wins(&self.points))
    }

    fn set_house(&mut self, house: Option<Box<dyn HouseHooks>>) {
        self.house.set(house);
    }

    fn restart(&mut self) {
        self.phase = Phase::Deal;
        self.turn = 0;
        self.extra.fill(0);
        for seat in 0..self.seats {
            self.hands[seat].clear();
            self.piles[seat].clear();
            self.pile_specials[seat].clear();
            self.table.held[seat].clear();
        }
        self.rows.truncate(0);
        self.table.row_specials.clear();
        self.update_all();
    }
}

impl Circle {
    fn decision(&self, placed: u8) -> Decision {
        Decision::Place {
            placed,
            remaining: self.settings.cards_per_turn - placed,
        }
    }
}

// A copy plays by the rules' settings alone (the house rule hooks are not copied: it is for
// search, see `Model`); `clone_from` reuses the copy's memory.
clone_field_by_field!(Circle {
    rules,
    settings,
    card_points,
    seats,
    hand_size,
    row_count,
    phase,
    turn,
    hands,
    rows,
    table,
    piles,
    pile_specials,
    points,
    no_scores,
    ordered_deck,
    extra,
    house,
});

impl Model for Circle {
    fn judged(&self, seat: Seat) -> Option<(f64, u64)> {
        self.judge(seat)
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let Phase::Turn { seat: turn, placed } = self.phase else {
            return;
        };
        if seat != turn {
            return;
        }
        if !self.rows.is_empty() {
            out.extend(self.hands[seat].iter().map(|&card| Action::Play(card)));
        }
        let held = &self.table.held[seat];
        for (i, &special) in held.iter().enumerate() {
            if i > 0 && held[i - 1] == special {
                continue;
            }
            let open = self.table.row_specials.iter().enumerate();
            let rows = open.filter(|(_, in_row)| !in_row.contains(&special));
            out.extend(rows.map(|(row, _)| Action::PlaceSpecial { special, row }));
        }
        if placed > 0 {
            out.push(Action::EndTurn);
        }
    }

    /// Only the number cards in the others' hands are hidden (their sizes and every special
    /// card are public): they are drawn from the cards in no row, in no hand of the seat's and
    /// not collected. The collected piles come from the event lines (`memory`).
    fn resample(known: &Knowledge, rng: &mut GameRng) -> Result<Circle, RuleError> {
        let mut game = Circle::new(known.rules.clone(), known.view.seats)
            .map_err(|e| RuleError::Setup(SetupError::BadDeal(e.to_string())))?;
        game.lay_known(known, rng)?;
        Ok(game)
    }

    /// A search rebuilds thousands of games a decision: a game of the same rules and seats is
    /// laid again in place, its tables (the cards' points, the deck) kept.
    fn resample_into(&mut self, known: &Knowledge, rng: &mut GameRng) -> Result<(), RuleError> {
        if !Arc::ptr_eq(&self.rules, known.rules) || self.seats != known.view.seats {
            *self = Circle::resample(known, rng)?;
            return Ok(());
        }
        self.house = Hooks::default();
        self.restart();
        self.lay_known(known, rng)
    }
}

impl Circle {
    /// Lays the table `known` shows onto this game, just restarted, the other seats' hands
    /// drawn from the cards nobody is known to hold.
    fn lay_known(&mut self, known: &Knowledge, rng: &mut GameRng) -> Result<(), RuleError> {
        let (rules, view, memory) = (known.rules, known.view, known.memory);
        let table = view.circle.ok_or_else(|| {
            RuleError::Setup(SetupError::BadDeal("not a circle game's view".into()))
        })?;
        let Some(Decision::Place { placed, .. }) = view.decision else {
            return Err(SetupError::BadDeal("no placement due".into()).into());
        };
        let seen = (view.hand.iter().chain(view.rows.iter().flatten())).chain(&memory.taken);
        let mut unseen = unseen_cards(rules, seen);
        for seat in 0..self.seats {
            let hand = &mut self.hands[seat];
            match seat == view.seat {
                true => hand.extend_from_slice(view.hand),
                false => draw_hand_into(rng, &mut unseen, table.hand_sizes[seat], hand),
            }
            if let Some((cards, specials)) = memory.collected.get(seat) {
                self.piles[seat].clone_from(cards);
                self.pile_specials[seat].clone_from(specials);
            }
        }
        self.rows.lay(view.rows);
        self.table.clone_from(table);
        self.turn = view.turn;
        self.phase = Phase::Turn {
            seat: view.seat,
            placed,
        };
        self.update_all();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::builtin::circle_moves;
    use crate::rng::Stream;

    fn cards(numbers: &[u16]) -> Vec<Card> {
        numbers.iter().map(|&n| Card(n)).collect()
    }

    /// A circle with these rows (no special cards in them) and hands; every seat holds one
    /// special card of each kind; seat 0 places first.
    fn circle(rows: &[&[u16]], hands: &[&[u16]]) -> Circle {
        let setup = CircleSetup {
            rows: rows.iter().map(|r| cards(r)).collect(),
            row_specials: vec![Vec::new(); rows.len()],
            hands: hands.iter().map(|h| cards(h)).collect(),
            held: vec![Special::CIRCLE.to_vec(); hands.len()],
            first: 0,
        };
        Circle::from_setup(Arc::new(rules()), &setup).unwrap()
    }

    fn play(game: &mut Circle, seat: Seat, card: u16) -> Vec<Event> {
        let mut events = Vec::new();
        game.apply(seat, Action::Play(Card(card)), &mut events)
            .unwrap();
        events
    }

    #[test]
    fn a_games_table_of_card_points_scores_as_the_deck_does() {
        let deck = Deck::circle();
        let every: Vec<Card> = deck.cards().collect();
        let piles = [&every[..], &every[..5], &every[40..47], &[]];
        let specials = [
            &[][..],
            &[Special::PlusFive],
            &[Special::Double, Special::PlusFive, Special::Double],
        ];
        // The shipped settings, and multipliers a house rule may set, huge ones saturating.
        for (green, red, times) in [(1, 1, 2), (3, 2, -1), (i32::MAX / 50, 7, i32::MAX)] {
            let settings = CircleRules {
                green_multiplier: green,
                red_multiplier: red,
                times,
                ..*rules().circle.expect("circle settings")
            };
            let table = CardPoints::new(&deck, &settings);
            for (pile, specials) in piles.iter().flat_map(|p| specials.map(|s| (p, s))) {
                assert_eq!(
                    table.taken(&settings, pile, specials),
                    taken_points(&deck, &settings, pile.iter().copied(), specials),
                    "{green} {red} {times} {pile:?} {specials:?}"
                );
            }
        }
    }

    #[test]
    fn the_deal_follows_the_rulebooks_table() {
        for (seats, hand, rows) in [
            (2, 14, 7),
            (3, 12, 9),
            (4, 12, 12),
            (5, 12, 15),
            (6, 10, 15),
        ] {
            let mut game = Circle::new(Arc::new(rules()), seats).unwrap();
            let mut events = Vec::new();
            game.deal_random(&mut GameRng::new(3, Stream::Deal(0)), &mut events)
                .unwrap();
            assert!((0..seats).all(|s| game.hands[s].len() == hand));
            assert_eq!(game.rows.len(), rows);
            assert!(
                game.rows.ends().windows(2).all(|w| w[0] < w[1]),
                "sorted clockwise"
            );
            assert!(game.held().iter().all(|h| h == &Special::CIRCLE));
            assert_eq!(
                game.to_move(),
                ToMove::Seat(
                    0,
                    Decision::Place {
                        placed: 0,
                        remaining: 3
                    }
                )
            );
        }
    }

    #[test]
    fn a_card_goes_between_two_final_numbers_or_onto_the_highest() {
        // Rulebook example 1: 35 onto 23 (the next final is 43), 50 onto 49, 60 onto 55.
        let mut game = circle(&[&[23], &[43], &[49], &[55], &[80]], &[&[35, 50, 60], &[2]]);
        play(&mut game, 0, 35);
        play(&mut game, 0, 50);
        play(&mut game, 0, 60);
        assert_eq!(
            game.rows(),
            [
                cards(&[23, 35]),
                cards(&[43]),
                cards(&[49, 50]),
                cards(&[55, 60]),
                cards(&[80])
            ]
        );
        // Below every final number: onto the highest one, which then ends lowest.
        play(&mut game, 1, 2);
        assert_eq!(game.rows()[4], cards(&[80, 2]));
        assert_eq!(row_for_number(game.rows.ends(), Card(3)), 4);
        assert_eq!(row_for_number(game.rows.ends(), Card(70)), 3);
    }

    #[test]
    fn the_fifth_number_card_takes_the_row_and_it_leaves_the_circle() {
        let mut game = circle(&[&[10], &[30, 31, 32, 33], &[60]], &[&[34, 40, 61], &[11]]);
        let mut events = Vec::new();
        game.apply(
            0,
            Action::PlaceSpecial {
                special: Special::Double,
                row: 1,
            },
            &mut events,
        )
        .unwrap();
        let events = play(&mut game, 0, 34);
        assert_eq!(
            events[1],
            Event::Collect {
                seat: 0,
                row: 1,
                cards: cards(&[30, 31, 32, 33, 34]),
                specials: vec![Special::Double],
                // 30 carries 3 red, 33 five red, the others one green each.
                points: -3 + 1 + 1 - 5 + 1,
            }
        );
        assert_eq!(game.rows(), [cards(&[10]), cards(&[60])]);
        // 40 now goes onto 10: the row of 30-34 is gone.
        play(&mut game, 0, 40);
        assert_eq!(game.rows(), [cards(&[10, 40]), cards(&[60])]);
        // Doubled by the "x2", less 10 for the "+5" still in hand.
        assert_eq!(game.points[0], -5 * 2 - 10);
    }

    #[test]
    fn illegal_moves_change_nothing() {
        let mut game = circle(&[&[10], &[50]], &[&[20, 30, 40, 60], &[70]]);
        let mut events = Vec::new();
        // Each action is refused for its reason, and the rows stay as they were.
        let refuses = |game: &mut Circle, refusals: &[(Seat, Action, Illegal)]| {
            for &(seat, action, ref why) in refusals {
                let rows = game.rows.clone();
                let error = game.apply(seat, action, &mut Vec::new()).unwrap_err();
                assert_eq!(error, RuleError::Illegal(why.clone()), "{action:?}");
                assert_eq!(game.rows, rows);
            }
        };
        let x2 = |row| Action::PlaceSpecial {
            special: Special::Double,
            row,
        };
        let not_yours = |seat, waiting_for| Illegal::NotYourTurn { seat, waiting_for };
        let (seat, card, special) = (0, Card(70), Special::Double);
        refuses(
            &mut game,
            &[
                (0, Action::EndTurn, Illegal::NothingPlaced { seat }),
                (0, Action::Play(card), Illegal::NotInHand { seat, card }),
                (1, Action::Play(card), not_yours(1, 0)),
                (0, Action::TakeRow(0), Illegal::CircleTurnDue { seat }),
                (0, x2(2), Illegal::NoSuchRow { row: 2, rows: 2 }),
            ],
        );
        game.apply(0, x2(0), &mut events).unwrap();
        refuses(
            &mut game,
            &[(0, x2(1), Illegal::SpecialNotInHand { seat, special })],
        );
        for card in [20, 30] {
            game.apply(0, Action::Play(Card(card)), &mut events)
                .unwrap();
        }
        // Three cards placed: the turn has passed, so a fourth is not seat 0's to place.
        refuses(
            &mut game,
            &[
                (0, Action::Play(Card(40)), not_yours(0, 1)),
                (1, x2(0), Illegal::SpecialInRow { row: 0, special }),
            ],
        );
    }

    #[test]
    fn the_rulebooks_scoring_example() {
        // Example 4: five green, three red, an "x2" and a "+5" taken, a "+5" still in hand:
        // (5 - 3 + 5) x 2 - 10 = 4.
        let setup = CircleSetup {
            rows: vec![cards(&[41, 42, 48, 56])],
            row_specials: vec![Special::CIRCLE.to_vec()],
            hands: vec![cards(&[70]), Vec::new()],
            held: vec![vec![Special::PlusFive], Vec::new()],
            first: 0,
        };
        let mut game = Circle::from_setup(Arc::new(rules()), &setup).unwrap();
        let events = play(&mut game, 0, 70);
        assert_eq!(
            events.last(),
            Some(&Event::GameEnd {
                totals: vec![4, 0],
                winners: vec![0]
            })
        );
        assert_eq!(game.outcome(), Some(Outcome::highest_wins(&[4, 0])));
    }

    /// Random legal moves to the end, from many deals: every card stays somewhere once, the
    /// final numbers stay a circle in ascending order, and the game ends with every row taken
    /// and every hand empty.
    #[test]
    fn random_games_keep_every_card_and_end_with_the_last_number_card() {
        for seed in 0..60 {
            let seats = 2 + (seed as usize % 5);
            let mut game = Circle::new(Arc::new(rules()), seats).unwrap();
            let mut rng = GameRng::new(seed, Stream::Deal(0));
            game.deal_random(&mut rng, &mut Vec::new()).unwrap();
            let mut dealt = game.cards_in_play();
            dealt.sort_unstable();
            while let ToMove::Seat(seat, _) = game.to_move() {
                let moves: Vec<Action> = circle_moves(&game.view(seat)).collect();
                let action = moves[rng.below(moves.len() as u32) as usize];
                game.apply(seat, action, &mut Vec::new()).unwrap();
                let mut now = game.cards_in_play();
                now.sort_unstable();
                assert_eq!(now, dealt);
                assert!(ascends_around(game.rows.ends()), "{:?}", game.rows.ends());
            }
            assert_eq!(game.to_move(), ToMove::GameOver);
            assert!(game.rows.is_empty() && game.hands.iter().all(Vec::is_empty));
            let specials: usize = game
                .pile_specials()
                .iter()
                .chain(game.held())
                .map(Vec::len)
                .sum();
            assert_eq!(specials, 2 * seats);
        }
    }
}
