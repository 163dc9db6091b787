//! The 6 nimmt! anniversary variant (rulebook 003, "6 nimmt! Anniversary Variant With New
//! Special Cards"), 2-8 players: the classic game over two rounds, plus 28 special cards (4 each
//! of 5th Row, 7 nimmt!, Insert, Replace, Shift, Stop, Negative = Positive).
//!
//! Each seat gets 12 number cards and 3 special cards; the other special cards are a face-down
//! deck. Turns go as in classic; each time a revealed card is about to be placed, its player may
//! play one special card ([`Decision::Special`], asked only when it holds one it may play now).
//! When a seat is about to take a row and holds Negative = Positive it is asked whether to use it
//! ([`Decision::Cancel`]); after taking a row it may swap a special card for the top of the deck
//! ([`Decision::Swap`]). In round 2 every number card is dealt again, and each seat gets three
//! more special cards (fewer when the deck is short). Every ruling is in docs/rulings.md. House
//! rules may change the special deck, the cards dealt per round and whether swapping is allowed
//! ([`crate::rules::AnniversaryRules`]).
//!
//! The turn (choose, reveal, place lowest first), the rows (placement by least difference),
//! the round's end and the deal's checks are the shared mechanics of [`super::common`].

pub mod description;
pub mod fixture;

use super::common::deal::{
    Table, check_cards, check_dealing, check_hands, check_row_cards, check_table, lay_hands,
};
use super::common::reveal::{Reveal, place_in_hand};
use super::common::rows::Rows;
use super::common::scoring::{self, game_over};
use crate::cards::{Card, Deck, Special};
use crate::game::clone_field_by_field;
use crate::game::house::{self, Arg, Hook, Hooks, HouseHooks, add_seat_points, table_view};
use crate::game::model::{Memory, Model, draw_hand, unseen_cards};
use crate::game::{
    Action, Deal, Decision, Emitter, Event, EventSink, Family, Game, Outcome, Points, RuleError,
    Seat, SpecialDeal, SpecialPlay, SpecialTable, TakeReason, ToMove, View, check_seat, emit,
};
use crate::game::{Illegal, SetupError};
use crate::rng::{GameRng, Stream};
use crate::rules::{AnniversaryRules, Draft, GameEnd, Rules, RulesError, Ties};
use std::sync::Arc;

mod deal;
mod model;
mod specials;
#[cfg(test)]
mod tests;

use deal::check_copies;
pub use deal::check_first_deal;
pub(crate) use specials::byte;
pub use specials::{MAX_STOPS, check_kinds, check_play, check_stops, legal_plays, marked_rows};

/// The default rules: 104 cards, 4 rows of 5, 12 cards each, 2-8 players, two rounds.
pub fn rules() -> Rules {
    Rules {
        deck: Deck::classic(104),
        rows: 4,
        row_capacity: 5,
        hand_size: 12,
        min_players: 2,
        max_players: 8,
        end: GameEnd::Rounds(2),
        ties: Ties::Shared,
        draft: Draft::SeatOrder,
        circle: None,
        // The special cards (4 of each kind), 3 dealt per seat and round, swapping allowed:
        // `AnniversaryRules::default()`, left out of records.
        take_a_number: None,
        anniversary: None,
        pro: None,
    }
}

/// An anniversary table in the middle of a round, given explicitly (fixtures): the classic
/// table and where the special cards are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnniversarySetup {
    /// Round, turn, hands, rows, piles and earlier totals, as classic's. One row more than the
    /// rules have means a 5th Row card is on the table: the last row is the 5th row.
    pub table: Table,
    /// Each seat's special cards, in any order.
    pub specials: Vec<Vec<Special>>,
    /// The face-down special deck, top card first.
    pub special_deck: Vec<Special>,
    /// The discard pile, oldest first.
    pub discard: Vec<Special>,
    /// The rows with a Stop card.
    pub stops: Vec<usize>,
    /// The rows with a 7 nimmt! card.
    pub sevens: Vec<usize>,
    /// Seeds the generator that reshuffles the discard pile, as a deal's [`SpecialDeal::seed`].
    pub reshuffle_seed: u64,
}

/// How the card being placed takes a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Taking {
    /// The card would be one too many for `row` (`Full`), or it is a low card and its player
    /// chose `row` (`Low`): the card starts the row again.
    End { row: usize, reason: TakeReason },
    /// Insert into a full row: the card goes to place `at`, the row is taken and its last card
    /// starts it again.
    Insert { row: usize, at: usize },
}

impl Taking {
    fn row(self) -> usize {
        match self {
            Taking::End { row, .. } | Taking::Insert { row, .. } => row,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Deal,
    /// Players choose (see [`Reveal`]).
    Choose,
    /// `seat`'s revealed `card` is about to be placed: a special card or a pass is due.
    Special {
        seat: Seat,
        card: Card,
    },
    /// `seat`'s low card `card` waits for a row.
    ChooseRow {
        seat: Seat,
        card: Card,
    },
    /// `seat`, placing `card`, is about to take a row and may play Negative = Positive.
    Cancel {
        seat: Seat,
        card: Card,
        taking: Taking,
    },
    /// `seat` took a row and may swap a special card.
    Swap {
        seat: Seat,
    },
    Over,
}

/// The state of an anniversary game.
#[derive(Debug)]
pub struct Anniversary {
    rules: Arc<Rules>,
    seats: usize,
    phase: Phase,
    round: u32,
    turn: u32,
    hands: Vec<Vec<Card>>,
    rows: Rows,
    /// Each seat's special cards, sorted by kind (a seat sees only its own).
    special_hands: Vec<Vec<Special>>,
    /// What every seat may see of the special cards.
    table: SpecialTable,
    /// The face-down special deck, top card first.
    deck: Vec<Special>,
    /// Reshuffles the discard pile into a new deck (seeded by each deal). Boxed: a generator is
    /// large, and [`crate::variants::AnyGame`] is as large as its largest variant.
    reshuffler: Box<GameRng>,
    /// Cards taken this round, by seat.
    piles: Vec<Vec<Card>>,
    /// Bullheads taken this round (after Negative = Positive), by seat.
    taken: Vec<Points>,
    scores: Vec<Points>,
    /// This turn's cards, chosen, revealed and placed.
    reveal: Reveal,
    ordered_deck: Vec<Card>,
    /// House rules' hooks, if any.
    house: Hooks,
}

impl Anniversary {
    /// A new game waiting for its first deal.
    pub fn new(rules: Arc<Rules>, seats: usize) -> Result<Anniversary, RulesError> {
        rules.validate()?;
        rules.check_players(seats)?;
        // A special card names a row (the 5th Row card's is `rows`) and a place in a row (up
        // to the row's length, one more than `row_capacity` under a 7 nimmt! card) in a byte.
        let byte = usize::from(u8::MAX);
        if rules.rows > byte {
            return Err(RulesError {
                setting: "rows",
                problem: format!("the anniversary variant has at most {byte} rows"),
            });
        }
        if rules.row_capacity >= byte {
            return Err(RulesError {
                setting: "row_capacity",
                problem: format!(
                    "the anniversary variant's rows hold at most {} cards",
                    byte - 1
                ),
            });
        }
        let per_seat = || (0..seats).map(|_| Vec::new()).collect::<Vec<_>>();
        Ok(Anniversary {
            seats,
            phase: Phase::Deal,
            round: 0,
            turn: 0,
            hands: per_seat(),
            rows: Rows::new(rules.rows, 0),
            special_hands: vec![Vec::new(); seats],
            table: SpecialTable {
                hand_counts: vec![0; seats],
                sevens: vec![false; rules.rows],
                stops: vec![false; rules.rows],
                deck: 0,
                discard: Vec::new(),
                taking: Vec::new(),
            },
            deck: Vec::new(),
            reshuffler: Box::new(GameRng::new(0, Stream::Deal(0))),
            piles: per_seat(),
            taken: vec![0; seats],
            scores: vec![0; seats],
            reveal: Reveal::new(seats),
            ordered_deck: rules.deck.cards().collect(),
            house: Hooks::default(),
            rules,
        })
    }

    /// A game at an explicit table, with players about to choose their cards. Each seat's
    /// `taken` is its pile's bullheads, as the engine counts a take (the table does not say
    /// whether Negative = Positive was played earlier in the round: it starts as if not).
    pub fn from_table(
        rules: Arc<Rules>,
        setup: &AnniversarySetup,
    ) -> Result<Anniversary, RuleError> {
        let table = &setup.table;
        let seats = table.hands.len();
        let mut game = Anniversary::new(rules, seats)
            .map_err(|e| RuleError::Setup(SetupError::BadDeal(e.to_string())))?;
        let bad = |why: String| Err(SetupError::BadDeal(why).into());
        if setup.specials.len() != seats {
            return bad(format!(
                "{seats} hands but special cards for {}",
                crate::words::count(setup.specials.len(), "seat")
            ));
        }
        let (rows, limit) = (table.rows.len(), game.rules.rows);
        if rows != limit && rows != limit + 1 {
            return bad(format!(
                "{} given, the rules have {limit} ({} with a 5th Row card)",
                crate::words::count(rows, "row"),
                limit + 1
            ));
        }
        let marks = |marked: &[usize], card: &str| {
            marked_rows(marked, rows, card)
                .map_err(|(_, why)| RuleError::Setup(SetupError::BadDeal(why)))
        };
        let sevens = marks(&setup.sevens, "7 nimmt!")?;
        let stops = marks(&setup.stops, "Stop")?;
        check_stops(setup.stops.len(), rows).map_err(SetupError::BadDeal)?;
        // A row under a 7 nimmt! card holds one card more (as `View::capacity` counts it).
        let capacities: Vec<usize> = sevens
            .iter()
            .map(|&seven| game.rules.row_capacity + usize::from(seven))
            .collect();
        check_table(&game.rules, table, &capacities)?;
        let in_hands = setup.specials.iter().flatten();
        check_kinds(in_hands.chain(&setup.special_deck).chain(&setup.discard))
            .map_err(SetupError::BadDeal)?;
        game.round = table.round;
        game.turn = table.turn;
        lay_hands(table, &mut game.hands);
        game.rows.lay(&table.rows);
        for seat in 0..seats {
            game.piles[seat].clone_from(&table.piles[seat]);
            game.taken[seat] = game.rules.deck.sum(&table.piles[seat]) as Points;
            for &special in &setup.specials[seat] {
                game.give(seat, special);
            }
        }
        game.scores.copy_from_slice(&table.scores);
        game.table.sevens = sevens;
        game.table.stops = stops;
        game.deck.clone_from(&setup.special_deck);
        game.table.deck = game.deck.len();
        game.table.discard.clone_from(&setup.discard);
        let placed = game.special_hands.iter().flatten().chain(&game.deck);
        let own = game.rules.anniversary_rules();
        check_copies(
            &own,
            (placed.chain(&game.table.discard).copied()).chain(game.on_table()),
        )?;
        *game.reshuffler = GameRng::new(setup.reshuffle_seed, Stream::Deal(0));
        game.phase = Phase::Choose;
        Ok(game)
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    pub fn rows(&self) -> &[Vec<Card>] {
        &self.rows
    }

    /// Cards taken this round, by seat (Negative = Positive changes the bullheads, not these).
    pub fn piles(&self) -> &[Vec<Card>] {
        &self.piles
    }

    /// Each seat's special cards, sorted by kind.
    pub fn special_hands(&self) -> &[Vec<Special>] {
        &self.special_hands
    }

    /// What every seat may see of the special cards.
    pub fn specials(&self) -> &SpecialTable {
        &self.table
    }

    /// The face-down special deck, top card first.
    pub fn special_deck(&self) -> &[Special] {
        &self.deck
    }

    /// A row's capacity: the cards it holds before the next card takes it.
    fn capacity(&self, row: usize) -> usize {
        self.view(0).capacity(row)
    }

    fn five_rows(&self) -> bool {
        self.rows.len() > self.rules.rows
    }

    /// The row a card goes to by least difference among the rows no Stop blocks; `None` for a
    /// low card.
    fn target(&self, card: Card) -> Option<usize> {
        self.rows.open_row_for(card, &self.table.stops)
    }

    /// The row house rules' `low_card` gives `seat`'s low `card`, if it gives one it may take
    /// (not a Stop row).
    fn low_row_by_house(&mut self, seat: Seat, card: Card) -> Result<Option<usize>, RuleError> {
        match self.house.low_card(&table_view!(self), seat, card)? {
            Some(row) if self.table.stops[row] => {
                let why = format!("chose row {row}, which a Stop card blocks");
                Err(house::error_at(Hook::LowCard, self.round, self.turn, why))
            }
            row => Ok(row),
        }
    }

    /// Places `seat`'s `card` by the normal rules; returns whether it is done.
    fn place(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut dyn EventSink,
    ) -> Result<bool, RuleError> {
        match self.target(card) {
            None => match self.low_row_by_house(seat, card)? {
                Some(row) => {
                    let reason = TakeReason::Low;
                    self.begin_take(seat, card, Taking::End { row, reason }, events)
                }
                None => {
                    self.phase = Phase::ChooseRow { seat, card };
                    Ok(false)
                }
            },
            Some(row) if self.rows.is_full(row, self.capacity(row)) => {
                let reason = TakeReason::Full;
                self.begin_take(seat, card, Taking::End { row, reason }, events)
            }
            Some(row) => {
                self.rows.place(row, card);
                emit(events, || Event::Place { seat, card, row });
                Ok(true)
            }
        }
    }

    /// The cards `seat` takes with `taking` while placing `card`, and the card that starts the
    /// row again (`None` when the row leaves the table: five rows become four).
    fn cards_taken(&self, card: Card, taking: Taking) -> (Vec<Card>, Option<Card>) {
        let five = self.five_rows();
        match taking {
            Taking::End { row, .. } => {
                let mut cards = self.rows[row].clone();
                if five {
                    cards.push(card);
                    (cards, None)
                } else {
                    (cards, Some(card))
                }
            }
            Taking::Insert { row, at } => {
                let mut cards = self.rows[row].clone();
                cards.insert(at, card);
                if five {
                    (cards, None)
                } else {
                    let last = cards.pop();
                    (cards, last)
                }
            }
        }
    }

    /// `seat` is about to take a row: asks about Negative = Positive if it holds one, else
    /// takes. Returns whether the placement is done.
    fn begin_take(
        &mut self,
        seat: Seat,
        card: Card,
        taking: Taking,
        events: &mut dyn EventSink,
    ) -> Result<bool, RuleError> {
        if self.holds(seat, Special::NegativePositive) {
            self.table.taking = self.cards_taken(card, taking).0;
            self.phase = Phase::Cancel { seat, card, taking };
            Ok(false)
        } else {
            self.take(seat, card, taking, None, events)
        }
    }

    /// `seat` takes a row while placing `card`, cancelling `cancel`'s bullheads if given; then
    /// the table loses its Stops (and the row its 7 nimmt!, five rows their 5th). Returns whether
    /// the placement is done (a swap may be due).
    fn take(
        &mut self,
        seat: Seat,
        card: Card,
        taking: Taking,
        cancel: Option<Card>,
        events: &mut dyn EventSink,
    ) -> Result<bool, RuleError> {
        let row = taking.row();
        let (cards, start) = self.cards_taken(card, taking);
        let mut bullheads = self.rules.deck.sum(&cards) as Points;
        if self.house.any() {
            // The hook sees the row still in the table.
            let printed = bullheads;
            bullheads = (self.house).row_taken(&table_view!(self), seat, row, &cards, printed)?;
        }
        let reason = match taking {
            Taking::End { reason, .. } => reason,
            Taking::Insert { .. } => TakeReason::Full,
        };
        // The Negative = Positive card is played as the row is taken: its line comes first.
        let cancelled = cancel.map(|card| (card, self.rules.deck.bullheads(card) as Points));
        if let Some((card, bullheads)) = cancelled {
            self.remove(seat, Special::NegativePositive);
            self.table.discard.push(Special::NegativePositive);
            emit(events, || Event::Cancel {
                seat,
                card,
                bullheads,
            });
            self.observe_special(seat, Special::NegativePositive, card)?;
        }
        let at = (Hook::RowTaken, self.round, self.turn);
        add_seat_points(&mut self.taken[seat], seat, bullheads.into(), at)?;
        self.piles[seat].extend_from_slice(&cards);
        emit(events, || Event::Take {
            seat,
            row,
            cards,
            bullheads,
            reason,
        });
        if let Some((_, cancelled)) = cancelled {
            // The card's own bullheads go, and as many of the others; the surplus is lost.
            self.taken[seat] = (self.taken[seat] - 2 * cancelled).max(0);
        }
        self.table.taking.clear();
        if self.table.sevens[row] {
            self.table.discard.push(Special::SevenNimmt);
        }
        for stop in &mut self.table.stops {
            if *stop {
                self.table.discard.push(Special::Stop);
                *stop = false;
            }
        }
        match start {
            Some(start) => {
                self.table.sevens[row] = false;
                self.rows.clear(row);
                self.rows.place(row, start);
                if start == card {
                    emit(events, || Event::Place { seat, card, row });
                }
            }
            None => {
                self.rows.remove(row);
                self.table.sevens.remove(row);
                self.table.stops.remove(row);
                self.table.discard.push(Special::FifthRow);
            }
        }
        if self.special_hands[seat].is_empty() || !self.rules.swaps() {
            Ok(true)
        } else {
            self.phase = Phase::Swap { seat };
            Ok(false)
        }
    }

    /// Places revealed cards from `next` on, until a decision is due or the turn is done.
    fn resolve(&mut self, events: &mut dyn EventSink) -> Result<(), RuleError> {
        while let Some((seat, card)) = self.reveal.next() {
            if self.may_play_special(seat, card) {
                self.phase = Phase::Special { seat, card };
                return Ok(());
            }
            if !self.place(seat, card, events)? {
                return Ok(());
            }
            self.reveal.placed();
        }
        self.end_turn(events)
    }

    /// The placement of `order[next]` is done: on to the next card.
    fn placed(&mut self, done: bool, events: &mut dyn EventSink) -> Result<(), RuleError> {
        if done {
            self.reveal.placed();
            self.resolve(events)?;
        }
        Ok(())
    }

    fn end_turn(&mut self, events: &mut dyn EventSink) -> Result<(), RuleError> {
        self.reveal.end_turn();
        if self.hands[0].is_empty() {
            self.end_round(events)
        } else {
            self.turn += 1;
            self.phase = Phase::Choose;
            Ok(())
        }
    }

    fn end_round(&mut self, events: &mut dyn EventSink) -> Result<(), RuleError> {
        self.clear_table();
        let (rules, round) = (&self.rules, self.round);
        let end = self
            .house
            .close_round(&table_view!(self), |totals| game_over(rules, totals, round))?;
        let (taken, scores, events) =
            (&mut self.taken, &mut self.scores, &mut Emitter::new(events));
        let over = scoring::close_round(end, (rules, round), taken, scores, events);
        self.phase = if over { Phase::Over } else { Phase::Deal };
        Ok(())
    }

    /// The families of actions [`Anniversary::validate`] judges itself: cards, rows and the
    /// answers to special-card questions.
    const JUDGED: &[Family] = &[Family::Cards, Family::Special];

    fn validate(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.phase == Phase::Over {
            return Err(Illegal::GameOver.into());
        }
        check_seat(seat, self.seats)?;
        let special_answer = action.family() == Family::Special;
        match (self.phase, action) {
            (Phase::Deal, _) => Err(Illegal::DealFirst.into()),
            (Phase::Over, _) => Err(Illegal::GameOver.into()),
            (_, _) if let Some(refusal) = Illegal::not_asked(seat, action, Self::JUDGED) => {
                Err(refusal.into())
            }
            (Phase::Choose, Action::Play(card)) => self
                .reveal
                .check_play(seat, &self.hands[seat], card)
                .map(drop),
            (Phase::Choose, Action::TakeRow(_)) => Err(Illegal::NoRowChoiceDue { seat }.into()),
            (Phase::Choose, _) => Err(Illegal::NoSpecialDue { seat }.into()),
            (
                Phase::Special {
                    seat: waiting_for, ..
                }
                | Phase::ChooseRow {
                    seat: waiting_for, ..
                }
                | Phase::Cancel {
                    seat: waiting_for, ..
                }
                | Phase::Swap { seat: waiting_for },
                _,
            ) if seat != waiting_for => Err(Illegal::NotYourTurn { seat, waiting_for }.into()),
            (Phase::ChooseRow { .. }, Action::TakeRow(row)) => {
                if row >= self.rows.len() {
                    Err(Illegal::NoSuchRow {
                        row,
                        rows: self.rows.len(),
                    }
                    .into())
                } else if self.table.stops[row] {
                    Err(Illegal::RowStopped { row }.into())
                } else {
                    Ok(())
                }
            }
            (Phase::ChooseRow { .. }, _) => Err(Illegal::RowChoiceDue { seat }.into()),
            (Phase::Special { card, .. }, Action::Special(play)) => {
                check_play(&self.view(seat), card, play)
            }
            (Phase::Cancel { .. }, Action::Cancel(card)) => {
                if !self.table.taking.contains(&card) {
                    Err(Illegal::NotTaken { seat, card }.into())
                } else {
                    Ok(())
                }
            }
            (Phase::Swap { .. }, Action::Swap(special)) => {
                if self.holds(seat, special) {
                    Ok(())
                } else {
                    Err(Illegal::SpecialNotInHand { seat, special }.into())
                }
            }
            (Phase::Special { .. } | Phase::Cancel { .. } | Phase::Swap { .. }, Action::Pass) => {
                Ok(())
            }
            (Phase::Special { .. } | Phase::Cancel { .. } | Phase::Swap { .. }, _)
                if special_answer =>
            {
                Err(Illegal::NoSpecialDue { seat }.into())
            }
            (Phase::Special { .. } | Phase::Cancel { .. } | Phase::Swap { .. }, _) => {
                Err(Illegal::SpecialDue { seat }.into())
            }
        }
    }
}

impl Game for Anniversary {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::Deal => ToMove::Deal,
            Phase::Choose => ToMove::Everyone(Decision::PlayCard),
            Phase::Over => ToMove::GameOver,
            Phase::Special { seat, .. }
            | Phase::ChooseRow { seat, .. }
            | Phase::Cancel { seat, .. }
            | Phase::Swap { seat } => ToMove::Seat(seat, self.owes(seat).expect("the seat owes")),
        }
    }

    fn owes(&self, seat: Seat) -> Option<Decision> {
        match self.phase {
            Phase::Choose if self.reveal.owes(seat) => Some(Decision::PlayCard),
            Phase::Special { seat: s, card } if s == seat => Some(Decision::Special { card }),
            Phase::ChooseRow { seat: s, card } if s == seat => Some(Decision::ChooseRow { card }),
            Phase::Cancel { seat: s, .. } if s == seat => Some(Decision::Cancel),
            Phase::Swap { seat: s } if s == seat => Some(Decision::Swap),
            _ => None,
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        self.validate(seat, action)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        self.validate(seat, action)?;
        match (self.phase, action) {
            (Phase::Choose, Action::Play(card)) => {
                let at = place_in_hand(&self.hands[seat], card).expect("validated");
                if !self.reveal.choose(seat, &mut self.hands[seat], at) {
                    return Ok(());
                }
                let turn = (self.round, self.turn);
                self.reveal.reveal(turn, &mut Emitter::new(events));
                self.resolve(events)
            }
            (Phase::Special { card, .. }, Action::Special(play)) => {
                let done = self.play_special(seat, card, play, events)?;
                self.placed(done, events)
            }
            (Phase::Special { card, .. }, Action::Pass) => {
                let done = self.place(seat, card, events)?;
                self.placed(done, events)
            }
            (Phase::ChooseRow { card, .. }, Action::TakeRow(row)) => {
                let reason = TakeReason::Low;
                let done = self.begin_take(seat, card, Taking::End { row, reason }, events)?;
                self.placed(done, events)
            }
            (Phase::Cancel { card, taking, .. }, Action::Cancel(cancelled)) => {
                let done = self.take(seat, card, taking, Some(cancelled), events)?;
                self.placed(done, events)
            }
            (Phase::Cancel { card, taking, .. }, Action::Pass) => {
                let done = self.take(seat, card, taking, None, events)?;
                self.placed(done, events)
            }
            (Phase::Swap { .. }, Action::Swap(special)) => {
                self.swap(seat, special, events)?;
                self.placed(true, events)
            }
            (Phase::Swap { .. }, Action::Pass) => self.placed(true, events),
            _ => unreachable!("validate() admits no other pair"),
        }
    }

    /// A deal's `specials` are added to the seats' special cards and replace the deck; a deal
    /// without them deals no special cards and leaves the deck as it is (see [`deal`]).
    fn deal(&mut self, deal: &Deal, events: &mut dyn EventSink) -> Result<(), RuleError> {
        self.deal_round(deal, events)
    }

    fn deal_random(
        &mut self,
        rng: &mut GameRng,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        self.deal_round_random(rng, events)
    }

    fn view(&self, seat: Seat) -> View<'_> {
        View {
            rules: &self.rules,
            seat,
            seats: self.seats,
            round: self.round,
            turn: self.turn,
            decision: self.owes(seat),
            hand: &self.hands[seat],
            rows: &self.rows,
            scores: &self.scores,
            taken: &self.taken,
            revealed: self.reveal.revealed(),
            pool: &[],
            number: None,
            circle: None,
            specials: Some(&self.table),
            special_hand: &self.special_hands[seat],
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        Some(Outcome::of(&self.scores, &self.taken, self.rules.ties))
    }

    fn set_house(&mut self, house: Option<Box<dyn HouseHooks>>) {
        self.house.set(house);
    }

    fn restart(&mut self) {
        let seats = self.seats;
        *self = Anniversary::new(self.rules.clone(), seats).expect("the rules were valid");
    }
}

// A copy plays by the rules' settings alone (the house rule hooks are not copied: it is for
// search, see `Model`); `clone_from` reuses the copy's memory.
clone_field_by_field!(Anniversary {
    rules,
    seats,
    phase,
    round,
    turn,
    hands,
    rows,
    special_hands,
    table,
    deck,
    reshuffler,
    piles,
    taken,
    scores,
    reveal,
    ordered_deck,
    house,
});
