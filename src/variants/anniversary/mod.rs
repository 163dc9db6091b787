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

use super::common::board::{Board, board_accessors, board_game};
use super::common::deal::{
    Table, check_cards, check_dealing, check_row_cards, check_table, lay_hands,
};
use super::common::judge::{Judged, check};
use super::common::reveal::{Placing, Reveal, SimultaneousTurn, TurnParts, turn_phases};
use crate::cards::{Card, Special};
use crate::game::clone_field_by_field;
use crate::game::house::{self, Arg, Hook, add_seat_points, table_view};
use crate::game::model::{Knowledge, Model, draw_hand, unseen_cards};
use crate::game::{
    Action, Deal, Decision, Emitter, Event, Family, Game, Outcome, Points, RuleError, Seat,
    SpecialDeal, SpecialPlay, SpecialTable, TakeReason, View,
};
use crate::game::{Illegal, SetupError};
use crate::rng::{GameRng, Stream};
use crate::rules::{AnniversaryRules, GameEnd, Rules, RulesError};
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
        hand_size: 12,
        max_players: 8,
        end: GameEnd::Rounds(2),
        // The special cards (4 of each kind), 3 dealt per seat and round, swapping allowed:
        // `AnniversaryRules::default()`, left out of records.
        ..Rules::classic()
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

turn_phases! {
    Anniversary;
    /// `seat`'s revealed `card` is about to be placed: a special card or a pass is due.
    Special { seat: Seat, card: Card } => (seat, Decision::Special { card }),
    /// `seat`, placing `card`, is about to take a row and may play Negative = Positive.
    Cancel { seat: Seat, card: Card, taking: Taking } => (seat, Decision::Cancel),
    /// `seat` took a row and may swap a special card.
    Swap { seat: Seat } => (seat, Decision::Swap),
}

/// The state of an anniversary game.
#[derive(Debug)]
pub struct Anniversary {
    /// The table: hands, rows, the cards taken this round (Negative = Positive changes the
    /// bullheads, not these) and their bullheads (after it), the totals.
    board: Board,
    phase: Phase,
    /// Each seat's special cards, sorted by kind (a seat sees only its own).
    special_hands: Vec<Vec<Special>>,
    /// What every seat may see of the special cards.
    table: SpecialTable,
    /// The face-down special deck, top card first.
    deck: Vec<Special>,
    /// Reshuffles the discard pile into a new deck (seeded by each deal). Boxed: a generator is
    /// large, and [`crate::variants::AnyGame`] is as large as its largest variant.
    reshuffler: Box<GameRng>,
    /// This turn's cards, chosen, revealed and placed.
    reveal: Reveal,
    ordered_deck: Vec<Card>,
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
        Ok(Anniversary {
            phase: Phase::Deal,
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
            reveal: Reveal::new(seats),
            ordered_deck: rules.deck.cards().collect(),
            board: Board::new(rules, seats, (0, 0, 0)),
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
        let (rows, limit) = (table.rows.len(), game.board.rules.rows);
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
            .map(|&seven| game.board.rules.row_capacity + usize::from(seven))
            .collect();
        check_table(&game.board.rules, table, &capacities)?;
        let in_hands = setup.specials.iter().flatten();
        check_kinds(in_hands.chain(&setup.special_deck).chain(&setup.discard))
            .map_err(SetupError::BadDeal)?;
        game.board.round = table.round;
        game.board.turn = table.turn;
        lay_hands(table, &mut game.board.hands);
        game.board.rows.lay(&table.rows);
        for seat in 0..seats {
            game.board.piles[seat].clone_from(&table.piles[seat]);
            game.board.taken[seat] = game.board.rules.deck.sum(&table.piles[seat]) as Points;
            for &special in &setup.specials[seat] {
                game.give(seat, special);
            }
        }
        game.board.scores.copy_from_slice(&table.scores);
        game.table.sevens = sevens;
        game.table.stops = stops;
        game.deck.clone_from(&setup.special_deck);
        game.table.deck = game.deck.len();
        game.table.discard.clone_from(&setup.discard);
        let placed = game.special_hands.iter().flatten().chain(&game.deck);
        let own = game.board.rules.anniversary_rules();
        check_copies(
            &own,
            (placed.chain(&game.table.discard).copied()).chain(game.on_table()),
        )?;
        *game.reshuffler = GameRng::new(setup.reshuffle_seed, Stream::Deal(0));
        game.phase = Phase::Choose;
        Ok(game)
    }

    board_accessors!();

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
        self.board.rows.len() > self.board.rules.rows
    }

    /// The row a card goes to by least difference among the rows no Stop blocks; `None` for a
    /// low card.
    fn target(&self, card: Card) -> Option<usize> {
        self.board.rows.open_row_for(card, &self.table.stops)
    }

    /// Places `seat`'s `card` by the normal rules; returns whether it is done.
    fn place(&mut self, seat: Seat, card: Card, events: &mut Emitter) -> Result<bool, RuleError> {
        match self.target(card) {
            None => self.low_card(seat, card, events),
            Some(row) if self.board.rows.is_full(row, self.capacity(row)) => {
                let reason = TakeReason::Full;
                self.begin_take(seat, card, Taking::End { row, reason }, events)
            }
            Some(row) => {
                self.board.rows.place(row, card);
                events.emit(|| Event::Place { seat, card, row });
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
                let mut cards = self.board.rows[row].clone();
                if five {
                    cards.push(card);
                    (cards, None)
                } else {
                    (cards, Some(card))
                }
            }
            Taking::Insert { row, at } => {
                let mut cards = self.board.rows[row].clone();
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
        events: &mut Emitter,
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
        events: &mut Emitter,
    ) -> Result<bool, RuleError> {
        let row = taking.row();
        let (cards, start) = self.cards_taken(card, taking);
        let mut bullheads = self.board.rules.deck.sum(&cards) as Points;
        if self.board.house.any() {
            // The hook sees the row still in the table.
            let printed = bullheads;
            bullheads = (self.board.house).row_taken(
                &table_view!(self.board),
                seat,
                row,
                &cards,
                printed,
            )?;
        }
        let reason = match taking {
            Taking::End { reason, .. } => reason,
            Taking::Insert { .. } => TakeReason::Full,
        };
        // The Negative = Positive card is played as the row is taken: its line comes first.
        let cancelled = cancel.map(|card| (card, self.board.rules.deck.bullheads(card) as Points));
        if let Some((card, bullheads)) = cancelled {
            self.remove(seat, Special::NegativePositive);
            self.table.discard.push(Special::NegativePositive);
            events.emit(|| Event::Cancel {
                seat,
                card,
                bullheads,
            });
            self.observe_special(seat, Special::NegativePositive, card)?;
        }
        let at = (Hook::RowTaken, self.board.round, self.board.turn);
        add_seat_points(&mut self.board.taken[seat], seat, bullheads.into(), at)?;
        self.board.piles[seat].extend_from_slice(&cards);
        events.emit(|| Event::Take {
            seat,
            row,
            cards,
            bullheads,
            reason,
        });
        if let Some((_, cancelled)) = cancelled {
            // The card's own bullheads go, and as many of the others; the surplus is lost.
            self.board.taken[seat] = (self.board.taken[seat] - 2 * cancelled).max(0);
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
                self.board.rows.clear(row);
                self.board.rows.place(row, start);
                if start == card {
                    events.emit(|| Event::Place { seat, card, row });
                }
            }
            None => {
                self.board.rows.remove(row);
                self.table.sevens.remove(row);
                self.table.stops.remove(row);
                self.table.discard.push(Special::FifthRow);
            }
        }
        if self.special_hands[seat].is_empty() || !self.board.rules.swaps() {
            Ok(true)
        } else {
            self.phase = Phase::Swap { seat };
            Ok(false)
        }
    }

    /// What the anniversary variant judges itself: cards, rows and the answers to
    /// special-card questions (not due while the cards are chosen).
    const JUDGED: Judged = Judged {
        families: &[Family::Cards, Family::Special],
        while_choosing: |seat| Illegal::NoSpecialDue { seat },
    };

    /// Checks an action; for a card, returns where it is in the hand. A row under a Stop card
    /// is not taken.
    fn validate(&self, seat: Seat, action: Action) -> Result<usize, RuleError> {
        let special = || self.judge_special(seat, action);
        let at = check(
            self.parts(),
            self.to_move(),
            (seat, action),
            &Self::JUDGED,
            special,
        )?;
        match (self.phase, action) {
            (Phase::ChooseRow { .. }, Action::TakeRow(row)) if self.table.stops[row] => {
                Err(Illegal::RowStopped { row }.into())
            }
            _ => Ok(at),
        }
    }

    /// An answer to a special-card question of `seat`'s, the seat asked.
    fn judge_special(&self, seat: Seat, action: Action) -> Result<usize, RuleError> {
        let special_answer = action.family() == Family::Special;
        match (self.phase, action) {
            (Phase::Special { card, .. }, Action::Special(play)) => {
                check_play(&self.view(seat), card, play).map(|()| 0)
            }
            (Phase::Cancel { .. }, Action::Cancel(card)) => {
                if !self.table.taking.contains(&card) {
                    Err(Illegal::NotTaken { seat, card }.into())
                } else {
                    Ok(0)
                }
            }
            (Phase::Swap { .. }, Action::Swap(special)) => {
                if self.holds(seat, special) {
                    Ok(0)
                } else {
                    Err(Illegal::SpecialNotInHand { seat, special }.into())
                }
            }
            (_, Action::Pass) => Ok(0),
            _ if special_answer => Err(Illegal::NoSpecialDue { seat }.into()),
            _ => Err(Illegal::SpecialDue { seat }.into()),
        }
    }
}

impl SimultaneousTurn for Anniversary {
    /// The special cards on the table go to the discard pile as the round ends.
    fn round_played(&mut self) {
        self.clear_table();
    }

    /// `seat` may play a special card before its `card` is placed (then its question is due);
    /// otherwise the card is placed.
    #[inline]
    fn place_next(&mut self, next: (Seat, Card), events: &mut Emitter) -> Placing {
        let (seat, card) = next;
        if self.may_play_special(seat, card) {
            self.phase = Phase::Special { seat, card };
            return Ok(false);
        }
        self.place(seat, card, events)
    }

    /// `seat` may play Negative = Positive before it takes the row.
    fn take_low_row(&mut self, next: (Seat, Card), row: usize, events: &mut Emitter) -> Placing {
        let (seat, card) = next;
        let reason = TakeReason::Low;
        self.begin_take(seat, card, Taking::End { row, reason }, events)
    }

    /// The row house rules' `low_card` gives `seat`'s low `card`, if it gives one it may take
    /// (not a Stop row).
    fn low_row_by_house(&mut self, seat: Seat, card: Card) -> Result<Option<usize>, RuleError> {
        match self
            .board
            .house
            .low_card(&table_view!(self.board), seat, card)?
        {
            Some(row) if self.table.stops[row] => {
                let why = format!("chose row {row}, which a Stop card blocks");
                Err(house::error_at(
                    Hook::LowCard,
                    self.board.round,
                    self.board.turn,
                    why,
                ))
            }
            row => Ok(row),
        }
    }

    /// `seat`'s answer to a special-card question.
    fn reply(&mut self, seat: Seat, action: Action, events: &mut Emitter) -> Result<(), RuleError> {
        match (self.phase, action) {
            (Phase::Special { card, .. }, Action::Special(play)) => {
                let done = self.play_special(seat, card, play, events)?;
                self.after_placing(done, events)
            }
            (Phase::Special { card, .. }, Action::Pass) => {
                let done = self.place(seat, card, events)?;
                self.after_placing(done, events)
            }
            (Phase::Cancel { card, taking, .. }, Action::Cancel(cancelled)) => {
                let done = self.take(seat, card, taking, Some(cancelled), events)?;
                self.after_placing(done, events)
            }
            (Phase::Cancel { card, taking, .. }, Action::Pass) => {
                let done = self.take(seat, card, taking, None, events)?;
                self.after_placing(done, events)
            }
            (Phase::Swap { .. }, Action::Swap(special)) => {
                self.swap(seat, special, events)?;
                self.after_placing(true, events)
            }
            (Phase::Swap { .. }, Action::Pass) => self.after_placing(true, events),
            _ => unreachable!("validate() admits no other pair"),
        }
    }
}

impl Game for Anniversary {
    board_game!();

    /// A deal's `specials` are added to the seats' special cards and replace the deck; a deal
    /// without them deals no special cards and leaves the deck as it is (see [`deal`]).
    fn deal_given(&mut self, deal: &Deal, events: &mut Emitter) -> Result<(), RuleError> {
        self.deal_round(deal, events)
    }

    fn deal_drawn(&mut self, rng: &mut GameRng, events: &mut Emitter) -> Result<(), RuleError> {
        self.deal_round_random(rng, events)
    }

    fn view(&self, seat: Seat) -> View<'_> {
        View {
            specials: Some(&self.table),
            special_hand: &self.special_hands[seat],
            ..(self.board).view(seat, self.owes(seat), self.reveal.revealed())
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board.lowest_wins(self.phase == Phase::Over)
    }

    fn restart(&mut self) {
        let seats = self.board.seats;
        *self = Anniversary::new(self.board.rules.clone(), seats).expect("the rules were valid");
    }
}

// A copy plays by the rules' settings alone (the house rule hooks are not copied: it is for
// search, see `Model`); `clone_from` reuses the copy's memory.
clone_field_by_field!(Anniversary {
    board,
    phase,
    special_hands,
    table,
    deck,
    reshuffler,
    reveal,
    ordered_deck,
});
