//! Take a Number (X nimmt!, Kramer and Staupe 2016; rulebook 003, "Take a Number"), 2-4 players.
//!
//! Three centre rows, whose row cards say 3, 4 and 5: a row is taken by its 3rd, 4th or 5th card,
//! so it holds 2, 3 or 4 cards before the card that takes it (row `i` of `rows` holds
//! `row_capacity - (rows - 1 - i)`, or as house rules' `takes_at` says, [`Rules::takes_at`]). Each seat has a personal #-row. A round: one card starts
//! each centre row and each #-row, eight cards in each hand; then turns as in classic (choose
//! face down, reveal, place in ascending order by least difference, a low card takes a row of
//! its player's choice). The taker keeps one of the cards taken for its #-row (asked when it
//! took more than one) and the others go into its hand. A kept card lower than the #-row's end
//! sends the #-row to the #-pile first. The round ends after a turn at whose end some hand is
//! empty (see docs/rulings.md); hand cards count their bullheads once, #-pile cards twice
//! ([`Rules::hash_pile_multiplier`]), #-row cards nothing. Two rounds, lowest total wins.
//!
//! The turn (choose, reveal, place lowest first), the rows (placement by least difference),
//! the round's end and the deal's checks are the shared mechanics of [`super::common`].

pub mod description;
pub mod fixture;
pub mod value;

use super::common::board::{Board, board_accessors, board_game};
use super::common::deal::{Table, check_cards, check_dealing, check_round_and_rows, lay_hands};
use super::common::judge::{Judged, check};
use super::common::reveal::{Placing, Reveal, SimultaneousTurn, TurnParts, turn_phases};
use crate::cards::Card;
use crate::cards::Deck;
use crate::game::clone_field_by_field;
use crate::game::house::{Arg, Hook, table_view};
use crate::game::model::{Knowledge, Model, draw_hand, unseen_cards};
use crate::game::{
    Action, Deal, Decision, Emitter, Event, Game, NumberTable, Outcome, Points, RuleError, Seat,
    TakeReason, View,
};
use crate::game::{Illegal, SetupError};
use crate::rng::GameRng;
use crate::rules::{GameEnd, Rules, RulesError};
use std::sync::Arc;

/// The default rules: 100 cards with the classic bullheads, 3 rows (holding 2, 3 and 4 cards),
/// 8 cards each, 2-4 players, two rounds.
pub fn rules() -> Rules {
    Rules {
        deck: Deck::classic(100),
        rows: 3,
        row_capacity: 4,
        hand_size: 8,
        max_players: 4,
        end: GameEnd::Rounds(2),
        ..Rules::classic()
    }
}

/// Cards each centre row holds before the card that takes it, by row: one less than the card
/// count at which it takes ([`Rules::takes_at`]; by default row `i` holds
/// `row_capacity - (rows - 1 - i)`, 2, 3 and 4 with the default rules). Assumes every row
/// holds a card, which [`TakeANumber::new`] checks.
pub fn row_capacities(rules: &Rules) -> Vec<usize> {
    rules.takes_at().iter().map(|n| n - 1).collect()
}

/// A #-row as play leaves it: at least its dealt card, ascending (a lower card kept starts a
/// new one). Says what is wrong with `seat`'s otherwise.
pub fn check_hash_row(seat: Seat, hash_row: &[Card]) -> Result<(), String> {
    if hash_row.is_empty() {
        return Err(format!(
            "seat {seat}'s #-row is empty: it holds a card from the deal on"
        ));
    }
    if hash_row.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!(
            "seat {seat}'s #-row is not in ascending order (a lower card starts a new #-row)"
        ));
    }
    Ok(())
}

/// A Take a Number table in the middle of a round, given explicitly (fixtures): the classic
/// table and what Take a Number adds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberSetup {
    /// Round, turn, hands, centre rows and earlier totals. Hands may differ in size (taken
    /// cards go into the hand); `piles` must be empty: Take a Number keeps no pile of taken
    /// cards, its #-piles are `hash_piles`.
    pub table: Table,
    /// Every seat's #-row, ascending.
    pub hash_rows: Vec<Vec<Card>>,
    /// The cards in every seat's #-pile.
    pub hash_piles: Vec<Vec<Card>>,
}

turn_phases! {
    TakeANumber;
    /// `seat` took the cards in `keep_from` and chooses the one for its #-row.
    Keep { seat: Seat } => (seat, Decision::KeepCard),
}

/// The state of a Take a Number game.
#[derive(Debug)]
pub struct TakeANumber {
    /// The table: hands, centre rows, #-piles (as the piles), the round's score so far by
    /// seat (as the points taken: hand bullheads once, #-pile bullheads twice), the totals.
    board: Board,
    phase: Phase,
    /// The public table: row capacities, #-rows, #-pile and hand sizes, the cards taken
    /// waiting for the #-row choice.
    table: NumberTable,
    /// This turn's cards, chosen, revealed and placed.
    reveal: Reveal,
    ordered_deck: Vec<Card>,
    /// What a #-pile card's bullheads count, times ([`Rules::hash_pile_multiplier`]).
    hash_pile: Points,
    /// Points house rules added to this round's score, by seat (a `row_taken` answer beyond the
    /// row's bullheads).
    extra: Vec<Points>,
}

impl TakeANumber {
    /// A new game waiting for its first deal.
    pub fn new(rules: Arc<Rules>, seats: usize) -> Result<TakeANumber, RulesError> {
        rules.validate()?;
        rules.check_players(seats)?;
        if rules.take_a_number.is_none() && rules.row_capacity < rules.rows {
            return Err(RulesError {
                setting: "row_capacity",
                problem: format!(
                    "Take a Number's rows hold row_capacity - (rows - 1 - row) cards, so \
                     row_capacity must be at least rows ({})",
                    rules.rows
                ),
            });
        }
        let dealt = seats * rules.hand_size + rules.rows + seats;
        rules.check_deck_holds(dealt, || format!("{seats} players need {dealt} cards"))?;
        let capacities = row_capacities(&rules);
        Ok(TakeANumber {
            phase: Phase::Deal,
            table: NumberTable {
                capacities,
                hash_rows: vec![Vec::new(); seats],
                hash_piles: vec![0; seats],
                hand_sizes: vec![0; seats],
                keep_from: Vec::new(),
            },
            reveal: Reveal::new(seats),
            ordered_deck: rules.deck.cards().collect(),
            extra: vec![0; seats],
            hash_pile: rules.hash_pile_multiplier(),
            board: Board::new(rules, seats, (0, 0, 0)),
        })
    }

    /// A game at an explicit table, with players about to choose their cards. Each seat's
    /// `taken` is counted from its hand and #-pile as the engine counts it during a round.
    pub fn from_table(rules: Arc<Rules>, setup: &NumberSetup) -> Result<TakeANumber, RuleError> {
        let table = &setup.table;
        let seats = table.hands.len();
        let mut game = TakeANumber::new(rules, seats)
            .map_err(|e| RuleError::Setup(SetupError::BadDeal(e.to_string())))?;
        let bad = |why: String| Err(SetupError::BadDeal(why).into());
        if table.scores.len() != seats
            || setup.hash_rows.len() != seats
            || setup.hash_piles.len() != seats
        {
            return bad(format!(
                "{seats} hands but {} scores, {} #-rows and {} #-piles",
                table.scores.len(),
                setup.hash_rows.len(),
                setup.hash_piles.len()
            ));
        }
        if table.piles.iter().any(|pile| !pile.is_empty()) {
            return bad(
                "Take a Number keeps no pile of taken cards (they go to the #-row and the hand): \
                 give the #-piles as `hash_piles`"
                    .into(),
            );
        }
        if let Some(seat) = table.hands.iter().position(Vec::is_empty) {
            return bad(format!(
                "seat {seat}'s hand is empty: every hand holds a card when a turn starts (the \
                 round ends after a turn that empties one)"
            ));
        }
        check_round_and_rows(table, &game.table.capacities)?;
        for (seat, hash_row) in setup.hash_rows.iter().enumerate() {
            check_hash_row(seat, hash_row).map_err(SetupError::BadDeal)?;
        }
        let all = (table.hands.iter().chain(&table.rows))
            .chain(&setup.hash_rows)
            .chain(&setup.hash_piles);
        check_cards(&game.board.rules, all.flatten().copied())?;
        game.board.round = table.round;
        game.board.turn = table.turn;
        lay_hands(table, &mut game.board.hands);
        game.board.rows.lay(&table.rows);
        game.table.hash_rows.clone_from(&setup.hash_rows);
        game.board.piles.clone_from(&setup.hash_piles);
        game.board.scores.copy_from_slice(&table.scores);
        for seat in 0..seats {
            game.update_seat(seat);
        }
        game.phase = Phase::Choose;
        Ok(game)
    }

    board_accessors!();

    pub fn hash_rows(&self) -> &[Vec<Card>] {
        &self.table.hash_rows
    }

    pub fn hash_piles(&self) -> &[Vec<Card>] {
        &self.board.piles
    }

    /// Cards taken and waiting for their taker's #-row choice.
    pub fn keep_from(&self) -> &[Card] {
        &self.table.keep_from
    }

    /// Cards played this turn but not yet in a row.
    pub fn unplaced(&self) -> Vec<Card> {
        match self.phase {
            Phase::Choose => self.reveal.chosen_cards().collect(),
            Phase::ChooseRow { .. } => self.reveal.to_place(0).collect(),
            // The taking card is already in its row.
            Phase::Keep { .. } => self.reveal.to_place(1).collect(),
            Phase::Deal | Phase::Over => Vec::new(),
        }
    }

    /// Every card of the round, once each, when the game is consistent: hands, centre rows,
    /// #-rows, #-piles, cards chosen or revealed but not placed, and taken cards waiting.
    pub fn cards_in_play(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self
            .board
            .hands
            .iter()
            .chain(&self.board.rows)
            .chain(&self.table.hash_rows)
            .chain(&self.board.piles)
            .flatten()
            .copied()
            .collect();
        all.extend(self.unplaced());
        all.extend_from_slice(&self.table.keep_from);
        all
    }

    fn round_score(&self, seat: Seat) -> Points {
        let deck = &self.board.rules.deck;
        let piled = (deck.sum(&self.board.piles[seat]) as Points).saturating_mul(self.hash_pile);
        let printed = (deck.sum(&self.board.hands[seat]) as Points).saturating_add(piled);
        // Checked when the extra points were added (see `take`).
        printed.saturating_add(self.extra[seat])
    }

    fn update_seat(&mut self, seat: Seat) {
        self.table.hand_sizes[seat] = self.board.hands[seat].len();
        self.table.hash_piles[seat] = self.board.piles[seat].len();
        self.board.taken[seat] = self.round_score(seat);
    }

    #[inline]
    fn place(&mut self, seat: Seat, card: Card, row: usize, events: &mut Emitter) {
        self.board.rows.place(row, card);
        events.emit(|| Event::Place { seat, card, row });
    }

    /// `seat` takes `row`: its cards wait in `keep_from`. They count where they go (hand,
    /// #-row); what house rules add to them counts now.
    fn take(
        &mut self,
        seat: Seat,
        row: usize,
        reason: TakeReason,
        events: &mut Emitter,
    ) -> Result<(), RuleError> {
        let extra = Some(&mut self.extra[seat]);
        self.board.take_row((seat, row, reason), extra, events)?;
        self.table.keep_from.clear();
        self.board.rows.take_into(row, &mut self.table.keep_from);
        Ok(())
    }

    /// After a take and the taking card's placement: one card taken goes to the #-row at once;
    /// several wait for the taker's choice. Returns whether resolution may go on.
    fn collect(&mut self, seat: Seat, events: &mut Emitter) -> Result<bool, RuleError> {
        if self.table.keep_from.len() == 1 {
            self.keep(seat, self.table.keep_from[0], events)?;
            Ok(true)
        } else {
            self.phase = Phase::Keep { seat };
            Ok(false)
        }
    }

    /// `card` (one of `keep_from`) goes to `seat`'s #-row, the rest into its hand.
    fn keep(&mut self, seat: Seat, card: Card, events: &mut Emitter) -> Result<(), RuleError> {
        events.emit(|| Event::Keep { seat, card });
        let hash_row = &mut self.table.hash_rows[seat];
        if hash_row.last().is_some_and(|&end| card < end) {
            events.emit(|| Event::Pile {
                seat,
                cards: hash_row.clone(),
            });
            if self.board.house.any() {
                // What the cards will count at the end of the round (their bullheads times the
                // #-pile multiplier).
                let printed =
                    (self.board.rules.deck.sum(hash_row) as Points).saturating_mul(self.hash_pile);
                let (table, extra) = (table_view!(self.board), &mut self.extra[seat]);
                let args = [Arg::Cards(hash_row), Arg::Number(printed.into())];
                (self.board.house).points(&table, (Hook::HashPile, seat), &args, printed, extra)?;
            }
            self.board.piles[seat].append(hash_row);
        }
        hash_row.push(card);
        if self.board.house.any() {
            let (table, extra) = (table_view!(self.board), &mut self.extra[seat]);
            let args = [Arg::Number(card.0.into())];
            (self.board.house).points(&table, (Hook::HashRow, seat), &args, 0, extra)?;
        }
        let hand = &mut self.board.hands[seat];
        hand.extend(self.table.keep_from.iter().filter(|&&c| c != card));
        hand.sort_unstable();
        self.table.keep_from.clear();
        self.update_seat(seat);
        Ok(())
    }

    /// Deals `cards`: hands in seat order, then the centre rows, then the #-rows.
    fn deal_from(&mut self, cards: impl Iterator<Item = Card>, events: &mut Emitter) {
        let mut cards = cards;
        for hand in &mut self.board.hands {
            hand.clear();
            hand.extend(cards.by_ref().take(self.board.rules.hand_size));
            hand.sort_unstable();
        }
        self.board
            .rows
            .deal(cards.by_ref().take(self.board.rules.rows));
        for hash_row in &mut self.table.hash_rows {
            hash_row.clear();
            hash_row.extend(cards.next());
        }
        for pile in &mut self.board.piles {
            pile.clear();
        }
        self.table.keep_from.clear();
        self.board.round += 1;
        self.extra.fill(0);
        self.board.turn = 1;
        for seat in 0..self.board.seats {
            self.update_seat(seat);
        }
        self.phase = Phase::Choose;
        events.emit(|| Event::Deal {
            round: self.board.round,
            hands: self.board.hands.clone(),
            rows: self
                .board
                .rows
                .iter()
                .chain(&self.table.hash_rows)
                .map(|r| r[0])
                .collect(),
        });
    }

    /// Checks an action; for a card, returns where it is in the hand. A #-row card must be
    /// one of the cards taken.
    #[inline(always)]
    fn validate(&self, seat: Seat, action: Action) -> Result<usize, RuleError> {
        let keep = || match action {
            Action::Keep(card) if self.table.keep_from.contains(&card) => Ok(0),
            Action::Keep(card) => Err(Illegal::NotTaken { seat, card }.into()),
            _ => Err(Illegal::KeepDue { seat }.into()),
        };
        check(
            self.parts(),
            self.to_move(),
            (seat, action),
            &Judged::CARDS_AND_KEEP,
            keep,
        )
    }
}

impl SimultaneousTurn for TakeANumber {
    /// The round ends after a turn at whose end some hand is empty (see docs/rulings.md).
    fn last_turn(&mut self) -> bool {
        self.board.hands.iter().any(Vec::is_empty)
    }

    /// The round's score counts the hands as the round ends.
    fn round_played(&mut self) {
        for seat in 0..self.board.seats {
            self.update_seat(seat);
        }
    }

    /// Counts the hands (the cards chosen left them).
    fn revealed(&mut self) {
        for seat in 0..self.board.seats {
            self.update_seat(seat);
        }
    }

    /// `seat`'s `card` goes onto the row below it by least difference, which it takes when it
    /// holds the row's capacity; a low card takes a row chosen by house rules or, now due, by
    /// its player. The taker then keeps one of the cards (its choice due if there are several).
    #[inline]
    fn place_next(&mut self, next: (Seat, Card), events: &mut Emitter) -> Placing {
        let (seat, card) = next;
        match self.board.rows.row_for(card) {
            Some(row) => {
                let full = self.board.rows.is_full(row, self.table.capacities[row]);
                if full {
                    self.take(seat, row, TakeReason::Full, events)?;
                }
                self.place(seat, card, row, events);
                Ok(!full || self.collect(seat, events)?)
            }
            None => self.low_card(seat, card, events),
        }
    }

    /// The taker then keeps one of the cards (its choice due if there are several).
    fn take_low_row(&mut self, next: (Seat, Card), row: usize, events: &mut Emitter) -> Placing {
        let (seat, card) = next;
        self.take(seat, row, TakeReason::Low, events)?;
        self.place(seat, card, row, events);
        self.collect(seat, events)
    }

    /// `seat`'s #-row card, of the cards it took.
    fn reply(&mut self, seat: Seat, action: Action, events: &mut Emitter) -> Result<(), RuleError> {
        match (self.phase, action) {
            (Phase::Keep { .. }, Action::Keep(card)) => {
                self.keep(seat, card, events)?;
                self.after_placing(true, events)
            }
            _ => unreachable!("validate() admits no other pair"),
        }
    }
}

impl Game for TakeANumber {
    board_game!();

    /// A deal's `rows` are the centre rows' first cards, then each seat's #-row card.
    fn deal_given(&mut self, deal: &Deal, events: &mut Emitter) -> Result<(), RuleError> {
        self.board.check_deal(self.to_move(), deal)?;
        let bad = |why: String| Err(SetupError::BadDeal(why).into());
        let rows = self.board.rules.rows + self.board.seats;
        if deal.rows.len() != rows {
            return bad(format!(
                "{} row cards; Take a Number deals {} (the {} centre rows, then one #-row per seat)",
                deal.rows.len(),
                rows,
                self.board.rules.rows
            ));
        }
        let cards = deal.hands.iter().flatten().chain(&deal.rows).copied();
        check_cards(&self.board.rules, cards.clone())?;
        self.deal_from(cards, events);
        Ok(())
    }

    fn deal_drawn(&mut self, rng: &mut GameRng, events: &mut Emitter) -> Result<(), RuleError> {
        check_dealing(self.to_move())?;
        let mut deck = self.ordered_deck.clone();
        let dealt = self.board.seats * self.board.rules.hand_size
            + self.board.rules.rows
            + self.board.seats;
        let cards = rng.draw_in_order(&mut deck, dealt);
        self.deal_from(cards.iter().copied(), events);
        Ok(())
    }

    fn view(&self, seat: Seat) -> View<'_> {
        View {
            number: Some(&self.table),
            ..(self.board).view(seat, self.owes(seat), self.reveal.revealed())
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board.lowest_wins(self.phase == Phase::Over)
    }

    fn restart(&mut self) {
        self.phase = Phase::Deal;
        self.board.restart();
        self.extra.fill(0);
        self.reveal.restart();
        self.table.keep_from.clear();
    }
}

// A copy plays by the rules' settings alone (the house rule hooks are not copied: it is for
// search, see `Model`); `clone_from` reuses the copy's memory.
clone_field_by_field!(TakeANumber {
    board,
    phase,
    table,
    reveal,
    ordered_deck,
    extra,
    hash_pile,
});

impl Model for TakeANumber {
    fn judged(&self, seat: Seat) -> Option<(f64, u64)> {
        self.judge(seat)
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if let Some(Decision::KeepCard) = self.board.actions(seat, self.owes(seat), out) {
            out.extend(self.table.keep_from.iter().map(|&card| Action::Keep(card)));
        }
    }

    /// The table is public but for the hands and the #-piles: the #-piles' cards are known
    /// from the event lines (`memory`), and each other hand, of the size the table shows, is
    /// drawn from the cards in no row, #-row, #-pile or hand of the seat's and not revealed and
    /// still to be placed this turn (taken cards go back into their taker's hand, so they stay
    /// among the cards drawn: a card revealed this turn as well, once placed). The state is laid
    /// out as the view shows it, mid-turn included (a row choice or a #-row card due).
    fn resample(known: &Knowledge, rng: &mut GameRng) -> Result<TakeANumber, RuleError> {
        let (rules, view, memory) = (known.rules, known.view, known.memory);
        let seats = view.seats;
        let number = view.number.ok_or_else(|| {
            RuleError::Setup(SetupError::BadDeal("not a Take a Number view".into()))
        })?;
        let mut game = TakeANumber::new(rules.clone(), seats)
            .map_err(|e| RuleError::Setup(SetupError::BadDeal(e.to_string())))?;
        let known_pile = |s: Seat| {
            let piled = memory.piled.get(s).map_or(&[][..], |p| &p[..]);
            (piled.len() == number.hash_piles.get(s).copied().unwrap_or(0)).then_some(piled)
        };
        let revealed = view.revealed;
        let seen = (view.hand.iter().chain(view.rows.iter().flatten()))
            .chain(number.hash_rows.iter().flatten())
            .chain(&number.keep_from)
            .chain(still_to_place(revealed, view.seat, view.decision))
            .chain((0..seats).filter_map(known_pile).flatten());
        let mut unseen = unseen_cards(rules, seen);
        for seat in 0..seats {
            game.board.piles[seat] = match known_pile(seat) {
                Some(piled) => piled.to_vec(),
                None => draw_hand(rng, &mut unseen, number.hash_piles[seat]),
            };
            game.board.hands[seat] = match seat == view.seat {
                true => view.hand.to_vec(),
                false => draw_hand(rng, &mut unseen, number.hand_sizes[seat]),
            };
        }
        // A card placed this turn is in a row; one still to place is out of its hand.
        game.board.round = view.round;
        game.board.turn = view.turn;
        if view.rows.iter().any(Vec::is_empty) {
            return Err(SetupError::BadDeal("an empty row".into()).into());
        }
        game.board.rows.lay(view.rows);
        game.table.clone_from(number);
        game.board.taken.copy_from_slice(view.taken);
        game.board.scores.copy_from_slice(view.scores);
        game.phase = match view.decision {
            Some(Decision::ChooseRow { card }) => {
                game.reveal.restore(revealed, view.seat);
                Phase::ChooseRow {
                    seat: view.seat,
                    card,
                }
            }
            Some(Decision::KeepCard) => {
                game.reveal.restore(revealed, view.seat);
                Phase::Keep { seat: view.seat }
            }
            _ => {
                // Choosing: a hand of the table's size holds the card chosen, if any.
                for seat in 0..seats {
                    if seat != view.seat && number.hand_sizes[seat] == 0 {
                        return Err(
                            SetupError::BadDeal(format!("seat {seat} holds no card")).into()
                        );
                    }
                }
                Phase::Choose
            }
        };
        Ok(game)
    }
}

/// Of a turn's `revealed` cards (by seat; empty before the reveal), those not placed yet when
/// `seat` decides: at a row choice or a #-row card, its own card is being placed, and the cards
/// above it are still to be (they are placed lowest first); a lower card is in a row, or was
/// taken back into a hand with the row it went into, so it is not known to be out of the hands.
fn still_to_place(
    revealed: &[Card],
    seat: Seat,
    decision: Option<Decision>,
) -> impl Iterator<Item = &Card> {
    let placing = match decision {
        Some(Decision::ChooseRow { .. } | Decision::KeepCard) => revealed.get(seat).copied(),
        _ => None,
    };
    // (No two cards are equal.)
    revealed
        .iter()
        .filter(move |&&card| placing.is_none_or(|p| card >= p))
}
