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
//! Placement by least difference, the order of the revealed cards and the deal's checks are
//! the classic engine's ([`super::classic`]).

pub mod fixture;

use super::classic::{
    Table, check_cards, check_hands, check_round_and_rows, game_over, lay_out, order_by_card,
    row_for,
};
use crate::cards::Card;
use crate::cards::Deck;
use crate::game::clone_field_by_field;
use crate::game::house::{Arg, Hook, Hooks, HouseHooks, table_view};
use crate::game::model::{Memory, Model, draw_hand, unseen_cards};
use crate::game::{
    Action, Deal, Decision, Event, EventSink, Family, Game, NumberTable, Outcome, Points,
    RuleError, Seat, TakeReason, ToMove, View, check_seat, emit,
};
use crate::rng::GameRng;
use crate::rules::{Draft, GameEnd, Rules, RulesError, Ties};
use std::sync::Arc;

/// The default rules: 100 cards with the classic bullheads, 3 rows (holding 2, 3 and 4 cards),
/// 8 cards each, 2-4 players, two rounds.
pub fn rules() -> Rules {
    Rules {
        deck: Deck::classic(100),
        rows: 3,
        row_capacity: 4,
        hand_size: 8,
        min_players: 2,
        max_players: 4,
        end: GameEnd::Rounds(2),
        ties: Ties::Shared,
        draft: Draft::SeatOrder,
        circle: None,
        take_a_number: None,
        anniversary: None,
        pro: None,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Deal,
    /// Players choose; `pending` of them have not yet.
    Choose {
        pending: usize,
    },
    /// `seat`'s low card `card` waits for a row.
    ChooseRow {
        seat: Seat,
        card: Card,
    },
    /// `seat` took the cards in `keep_from` and chooses the one for its #-row.
    Keep {
        seat: Seat,
    },
    Over,
}

/// The state of a Take a Number game.
#[derive(Debug)]
pub struct TakeANumber {
    rules: Arc<Rules>,
    seats: usize,
    phase: Phase,
    round: u32,
    turn: u32,
    hands: Vec<Vec<Card>>,
    rows: Vec<Vec<Card>>,
    ends: Vec<Card>,
    /// The public table: row capacities, #-rows, #-pile and hand sizes, the cards taken
    /// waiting for the #-row choice.
    table: NumberTable,
    hash_piles: Vec<Vec<Card>>,
    /// The round's score so far, by seat: hand bullheads once, #-pile bullheads twice.
    taken: Vec<Points>,
    scores: Vec<Points>,
    chosen: Vec<Option<Card>>,
    revealed: Vec<Card>,
    order: Vec<Seat>,
    next: usize,
    ordered_deck: Vec<Card>,
    /// What a #-pile card's bullheads count, times ([`Rules::hash_pile_multiplier`]).
    hash_pile: Points,
    /// House rules' hooks, if any.
    house: Hooks,
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
        if dealt > rules.deck.len() {
            return Err(RulesError {
                setting: "deck",
                problem: format!(
                    "{seats} players need {dealt} cards, the deck has {}",
                    rules.deck.len()
                ),
            });
        }
        let capacities = row_capacities(&rules);
        let per_seat = || (0..seats).map(|_| Vec::new()).collect::<Vec<Vec<Card>>>();
        Ok(TakeANumber {
            seats,
            phase: Phase::Deal,
            round: 0,
            turn: 0,
            hands: per_seat(),
            rows: vec![Vec::new(); rules.rows],
            ends: vec![Card(0); rules.rows],
            table: NumberTable {
                capacities,
                hash_rows: per_seat(),
                hash_piles: vec![0; seats],
                hand_sizes: vec![0; seats],
                keep_from: Vec::new(),
            },
            hash_piles: per_seat(),
            taken: vec![0; seats],
            scores: vec![0; seats],
            chosen: vec![None; seats],
            revealed: Vec::with_capacity(seats),
            order: Vec::with_capacity(seats),
            next: 0,
            ordered_deck: rules.deck.cards().collect(),
            house: Hooks::default(),
            extra: vec![0; seats],
            hash_pile: rules.hash_pile_multiplier(),
            rules,
        })
    }

    /// A game at an explicit table, with players about to choose their cards. Each seat's
    /// `taken` is counted from its hand and #-pile as the engine counts it during a round.
    pub fn from_table(rules: Arc<Rules>, setup: &NumberSetup) -> Result<TakeANumber, RuleError> {
        let table = &setup.table;
        let seats = table.hands.len();
        let mut game =
            TakeANumber::new(rules, seats).map_err(|e| RuleError::BadDeal(e.to_string()))?;
        let bad = |why: String| Err(RuleError::BadDeal(why));
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
            check_hash_row(seat, hash_row).map_err(RuleError::BadDeal)?;
        }
        let all = (table.hands.iter().chain(&table.rows))
            .chain(&setup.hash_rows)
            .chain(&setup.hash_piles);
        check_cards(&game.rules, all.flatten().copied())?;
        game.round = table.round;
        game.turn = table.turn;
        lay_out(table, &mut game.hands, &mut game.rows, &mut game.ends);
        game.table.hash_rows.clone_from(&setup.hash_rows);
        game.hash_piles.clone_from(&setup.hash_piles);
        game.scores.copy_from_slice(&table.scores);
        for seat in 0..seats {
            game.update_seat(seat);
        }
        game.phase = Phase::Choose { pending: seats };
        Ok(game)
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn rows(&self) -> &[Vec<Card>] {
        &self.rows
    }

    pub fn hand(&self, seat: Seat) -> &[Card] {
        &self.hands[seat]
    }

    pub fn hash_rows(&self) -> &[Vec<Card>] {
        &self.table.hash_rows
    }

    pub fn hash_piles(&self) -> &[Vec<Card>] {
        &self.hash_piles
    }

    /// Cards taken and waiting for their taker's #-row choice.
    pub fn keep_from(&self) -> &[Card] {
        &self.table.keep_from
    }

    /// Cards played this turn but not yet in a row.
    pub fn unplaced(&self) -> Vec<Card> {
        match self.phase {
            Phase::Choose { .. } => self.chosen.iter().flatten().copied().collect(),
            Phase::ChooseRow { .. } => self.order[self.next..]
                .iter()
                .map(|&seat| self.revealed[seat])
                .collect(),
            // The taking card is already in its row.
            Phase::Keep { .. } => self.order[self.next + 1..]
                .iter()
                .map(|&seat| self.revealed[seat])
                .collect(),
            Phase::Deal | Phase::Over => Vec::new(),
        }
    }

    /// Every card of the round, once each, when the game is consistent: hands, centre rows,
    /// #-rows, #-piles, cards chosen or revealed but not placed, and taken cards waiting.
    pub fn cards_in_play(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self
            .hands
            .iter()
            .chain(&self.rows)
            .chain(&self.table.hash_rows)
            .chain(&self.hash_piles)
            .flatten()
            .copied()
            .collect();
        all.extend(self.unplaced());
        all.extend_from_slice(&self.table.keep_from);
        all
    }

    fn round_score(&self, seat: Seat) -> Points {
        let deck = &self.rules.deck;
        let piled = (deck.sum(&self.hash_piles[seat]) as Points).saturating_mul(self.hash_pile);
        let printed = (deck.sum(&self.hands[seat]) as Points).saturating_add(piled);
        // Checked when the extra points were added (see `take`).
        printed.saturating_add(self.extra[seat])
    }

    fn update_seat(&mut self, seat: Seat) {
        self.table.hand_sizes[seat] = self.hands[seat].len();
        self.table.hash_piles[seat] = self.hash_piles[seat].len();
        self.taken[seat] = self.round_score(seat);
    }

    fn place(&mut self, seat: Seat, card: Card, row: usize, events: &mut dyn EventSink) {
        self.rows[row].push(card);
        self.ends[row] = card;
        emit(events, || Event::Place { seat, card, row });
    }

    /// `seat` takes `row`: its cards wait in `keep_from`.
    fn take(&mut self, seat: Seat, row: usize, reason: TakeReason, events: &mut dyn EventSink) {
        let printed = self.rules.deck.sum(&self.rows[row]) as Points;
        let mut bullheads = printed;
        if self.house.any() {
            // The cards count where they go (hand, #-row); what the hook adds counts now.
            let (table, cards) = (table_view!(self, piles: hash_piles), &self.rows[row]);
            let extra = &mut self.extra[seat];
            bullheads = (self.house).row_taken_extra(&table, (seat, row, cards), printed, extra);
        }
        emit(events, || Event::Take {
            seat,
            row,
            cards: self.rows[row].clone(),
            bullheads,
            reason,
        });
        self.table.keep_from.clear();
        self.table.keep_from.append(&mut self.rows[row]);
    }

    /// After a take and the taking card's placement: one card taken goes to the #-row at once;
    /// several wait for the taker's choice. Returns whether resolution may go on.
    fn collect(&mut self, seat: Seat, events: &mut dyn EventSink) -> bool {
        if self.table.keep_from.len() == 1 {
            self.keep(seat, self.table.keep_from[0], events);
            true
        } else {
            self.phase = Phase::Keep { seat };
            false
        }
    }

    /// `card` (one of `keep_from`) goes to `seat`'s #-row, the rest into its hand.
    fn keep(&mut self, seat: Seat, card: Card, events: &mut dyn EventSink) {
        emit(events, || Event::Keep { seat, card });
        let hash_row = &mut self.table.hash_rows[seat];
        if hash_row.last().is_some_and(|&end| card < end) {
            emit(events, || Event::Pile {
                seat,
                cards: hash_row.clone(),
            });
            if self.house.any() {
                // What the cards will count at the end of the round (their bullheads times the
                // #-pile multiplier).
                let printed =
                    (self.rules.deck.sum(hash_row) as Points).saturating_mul(self.hash_pile);
                let (table, extra) = (table_view!(self, piles: hash_piles), &mut self.extra[seat]);
                let args = [Arg::Cards(hash_row), Arg::Number(printed.into())];
                (self.house).points(&table, (Hook::HashPile, seat), &args, printed, extra);
            }
            self.hash_piles[seat].append(hash_row);
        }
        hash_row.push(card);
        if self.house.any() {
            let (table, extra) = (table_view!(self, piles: hash_piles), &mut self.extra[seat]);
            let args = [Arg::Number(card.0.into())];
            (self.house).points(&table, (Hook::HashRow, seat), &args, 0, extra);
        }
        let hand = &mut self.hands[seat];
        hand.extend(self.table.keep_from.iter().filter(|&&c| c != card));
        hand.sort_unstable();
        self.table.keep_from.clear();
        self.update_seat(seat);
    }

    /// The row house rules' `low_card` gives `seat`'s low `card`, if it gives one.
    fn low_row_by_house(&mut self, seat: Seat, card: Card) -> Option<usize> {
        let row = self
            .house
            .low_card(&table_view!(self, piles: hash_piles), seat, card);
        self.house.latch(row, None)
    }

    /// Places revealed cards from `next` on, until a decision is due or the turn is done.
    fn resolve(&mut self, events: &mut dyn EventSink) {
        while self.next < self.order.len() {
            let seat = self.order[self.next];
            let card = self.revealed[seat];
            match row_for(&self.ends, card) {
                Some(row) => {
                    let full = self.rows[row].len() >= self.table.capacities[row];
                    if full {
                        self.take(seat, row, TakeReason::Full, events);
                    }
                    self.place(seat, card, row, events);
                    if full && !self.collect(seat, events) {
                        return;
                    }
                }
                None => match self.low_row_by_house(seat, card) {
                    Some(row) => {
                        self.take(seat, row, TakeReason::Low, events);
                        self.place(seat, card, row, events);
                        if !self.collect(seat, events) {
                            return;
                        }
                    }
                    None => {
                        self.phase = Phase::ChooseRow { seat, card };
                        return;
                    }
                },
            }
            self.next += 1;
        }
        self.end_turn(events);
    }

    fn end_turn(&mut self, events: &mut dyn EventSink) {
        self.revealed.clear();
        self.chosen.fill(None);
        if self.hands.iter().any(Vec::is_empty) {
            self.end_round(events);
        } else {
            self.turn += 1;
            self.phase = Phase::Choose {
                pending: self.seats,
            };
        }
    }

    fn end_round(&mut self, events: &mut dyn EventSink) {
        for seat in 0..self.seats {
            self.update_seat(seat);
        }
        let (rules, round) = (&self.rules, self.round);
        let end = self
            .house
            .latch_close_round(&table_view!(self, piles: hash_piles), |totals| {
                game_over(rules, totals, round)
            });
        self.taken = end.penalties;
        self.scores = end.totals;
        emit(events, || Event::RoundEnd {
            round: self.round,
            penalties: self.taken.clone(),
            totals: self.scores.clone(),
        });
        if end.over {
            self.phase = Phase::Over;
            emit(events, || {
                let Outcome { totals, winners } = self.outcome().expect("the game is over");
                Event::GameEnd { totals, winners }
            });
        } else {
            self.phase = Phase::Deal;
        }
    }

    /// Deals `cards`: hands in seat order, then the centre rows, then the #-rows.
    fn deal_from(&mut self, cards: impl Iterator<Item = Card>, events: &mut dyn EventSink) {
        let mut cards = cards;
        for hand in &mut self.hands {
            hand.clear();
            hand.extend(cards.by_ref().take(self.rules.hand_size));
            hand.sort_unstable();
        }
        for (row, end) in self.rows.iter_mut().zip(&mut self.ends) {
            row.clear();
            row.extend(cards.next());
            *end = row[0];
        }
        for hash_row in &mut self.table.hash_rows {
            hash_row.clear();
            hash_row.extend(cards.next());
        }
        for pile in &mut self.hash_piles {
            pile.clear();
        }
        self.table.keep_from.clear();
        self.round += 1;
        self.extra.fill(0);
        self.turn = 1;
        for seat in 0..self.seats {
            self.update_seat(seat);
        }
        self.phase = Phase::Choose {
            pending: self.seats,
        };
        emit(events, || Event::Deal {
            round: self.round,
            hands: self.hands.clone(),
            rows: self
                .rows
                .iter()
                .chain(&self.table.hash_rows)
                .map(|r| r[0])
                .collect(),
        });
    }

    /// The families of actions [`TakeANumber::validate`] judges itself: cards, rows and #-row
    /// cards.
    const JUDGED: &[Family] = &[Family::Cards, Family::Keep];

    fn validate(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::GameOver);
        }
        check_seat(seat, self.seats)?;
        match (self.phase, action) {
            (Phase::Deal, _) => Err(RuleError::DealFirst),
            (Phase::Over, _) => Err(RuleError::GameOver),
            (_, _) if let Some(refusal) = RuleError::not_asked(seat, action, Self::JUDGED) => {
                Err(refusal)
            }
            (Phase::Choose { .. }, Action::Play(card)) => {
                if self.chosen[seat].is_some() {
                    Err(RuleError::AlreadyChosen { seat })
                } else if self.hands[seat].binary_search(&card).is_err() {
                    Err(RuleError::NotInHand { seat, card })
                } else {
                    Ok(())
                }
            }
            (Phase::Choose { .. }, Action::TakeRow(_)) => Err(RuleError::NoRowChoiceDue { seat }),
            // Left: the #-row card (the families not judged here are refused above).
            (Phase::Choose { .. }, _) => Err(RuleError::NoKeepDue { seat }),
            (
                Phase::ChooseRow {
                    seat: waiting_for, ..
                }
                | Phase::Keep { seat: waiting_for },
                _,
            ) if seat != waiting_for => Err(RuleError::NotYourTurn { seat, waiting_for }),
            (Phase::ChooseRow { .. }, Action::TakeRow(row)) => {
                if row < self.rows.len() {
                    Ok(())
                } else {
                    Err(RuleError::NoSuchRow {
                        row,
                        rows: self.rows.len(),
                    })
                }
            }
            (Phase::ChooseRow { .. }, _) => Err(RuleError::RowChoiceDue { seat }),
            (Phase::Keep { .. }, Action::Keep(card)) => {
                if self.table.keep_from.contains(&card) {
                    Ok(())
                } else {
                    Err(RuleError::NotTaken { seat, card })
                }
            }
            (Phase::Keep { .. }, _) => Err(RuleError::KeepDue { seat }),
        }
    }

    fn check_dealing(&self) -> Result<(), RuleError> {
        match self.phase {
            Phase::Deal => Ok(()),
            Phase::Over => Err(RuleError::GameOver),
            _ => Err(RuleError::NotDealing),
        }
    }
}

impl Game for TakeANumber {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::Deal => ToMove::Deal,
            Phase::Choose { .. } => ToMove::Everyone(Decision::PlayCard),
            Phase::ChooseRow { seat, card } => ToMove::Seat(seat, Decision::ChooseRow { card }),
            Phase::Keep { seat } => ToMove::Seat(seat, Decision::KeepCard),
            Phase::Over => ToMove::GameOver,
        }
    }

    fn owes(&self, seat: Seat) -> Option<Decision> {
        match self.phase {
            Phase::Choose { .. } if self.chosen.get(seat) == Some(&None) => {
                Some(Decision::PlayCard)
            }
            Phase::ChooseRow { seat: s, card } if s == seat => Some(Decision::ChooseRow { card }),
            Phase::Keep { seat: s } if s == seat => Some(Decision::KeepCard),
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
            (Phase::Choose { pending }, Action::Play(card)) => {
                let hand = &mut self.hands[seat];
                let at = hand.binary_search(&card).expect("validated");
                hand.remove(at);
                self.chosen[seat] = Some(card);
                if pending > 1 {
                    self.phase = Phase::Choose {
                        pending: pending - 1,
                    };
                    return Ok(());
                }
                self.revealed.clear();
                self.revealed
                    .extend(self.chosen.iter().map(|c| c.expect("all chosen")));
                order_by_card(&self.revealed, &mut self.order);
                self.next = 0;
                for seat in 0..self.seats {
                    self.update_seat(seat);
                }
                emit(events, || Event::Reveal {
                    round: self.round,
                    turn: self.turn,
                    cards: self.revealed.clone(),
                });
                self.resolve(events);
            }
            (Phase::ChooseRow { card, .. }, Action::TakeRow(row)) => {
                self.take(seat, row, TakeReason::Low, events);
                self.place(seat, card, row, events);
                if self.collect(seat, events) {
                    self.next += 1;
                    self.resolve(events);
                }
            }
            (Phase::Keep { .. }, Action::Keep(card)) => {
                self.keep(seat, card, events);
                self.next += 1;
                self.resolve(events);
            }
            _ => unreachable!("validate() admits no other pair"),
        }
        self.house.check()
    }

    /// A deal's `rows` are the centre rows' first cards, then each seat's #-row card.
    fn deal(&mut self, deal: &Deal, events: &mut dyn EventSink) -> Result<(), RuleError> {
        self.check_dealing()?;
        check_hands(deal, self.seats, self.rules.hand_size)?;
        let bad = |why: String| Err(RuleError::BadDeal(why));
        let rows = self.rules.rows + self.seats;
        if deal.rows.len() != rows {
            return bad(format!(
                "{} row cards; Take a Number deals {} (the {} centre rows, then one #-row per seat)",
                deal.rows.len(),
                rows,
                self.rules.rows
            ));
        }
        let cards = deal.hands.iter().flatten().chain(&deal.rows).copied();
        check_cards(&self.rules, cards.clone())?;
        self.deal_from(cards, events);
        Ok(())
    }

    fn deal_random(
        &mut self,
        rng: &mut GameRng,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        self.check_dealing()?;
        let mut deck = self.ordered_deck.clone();
        let dealt = self.seats * self.rules.hand_size + self.rules.rows + self.seats;
        let cards = rng.draw_in_order(&mut deck, dealt);
        self.deal_from(cards.iter().copied(), events);
        Ok(())
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
            revealed: &self.revealed,
            pool: &[],
            number: Some(&self.table),
            circle: None,
            specials: None,
            special_hand: &[],
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
        self.phase = Phase::Deal;
        self.round = 0;
        self.turn = 0;
        self.scores.fill(0);
        self.taken.fill(0);
        self.extra.fill(0);
        self.chosen.fill(None);
        self.revealed.clear();
        self.order.clear();
        self.next = 0;
        self.table.keep_from.clear();
    }
}

// A copy plays by the rules' settings alone (the house rule hooks are not copied: it is for
// search, see `Model`); `clone_from` reuses the copy's memory.
clone_field_by_field!(TakeANumber {
    rules,
    seats,
    phase,
    round,
    turn,
    hands,
    rows,
    ends,
    table,
    hash_piles,
    taken,
    scores,
    chosen,
    revealed,
    order,
    next,
    ordered_deck,
    extra,
    hash_pile,
    house,
});

impl Model for TakeANumber {
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        match self.phase {
            Phase::Choose { .. } if self.chosen.get(seat) == Some(&None) => {
                out.extend(self.hands[seat].iter().map(|&card| Action::Play(card)));
            }
            Phase::ChooseRow { seat: s, .. } if s == seat => {
                out.extend((0..self.rows.len()).map(Action::TakeRow));
            }
            Phase::Keep { seat: s } if s == seat => {
                out.extend(self.table.keep_from.iter().map(|&card| Action::Keep(card)));
            }
            _ => {}
        }
    }

    /// The table is public but for the hands and the #-piles: the #-piles' cards are known
    /// from the event lines (`memory`), and each other hand, of the size the table shows, is
    /// drawn from the cards in no row, #-row, #-pile or hand of the seat's (taken cards go back
    /// into their taker's hand, so they stay among the cards drawn). The state is laid out as
    /// the view shows it, mid-turn included (a row choice or a #-row card due).
    fn determinize(
        rules: &Arc<Rules>,
        view: &View,
        memory: &Memory,
        rng: &mut GameRng,
    ) -> Result<TakeANumber, RuleError> {
        let seats = view.seats;
        let number = view
            .number
            .ok_or_else(|| RuleError::BadDeal("not a Take a Number view".into()))?;
        let mut game = TakeANumber::new(rules.clone(), seats)
            .map_err(|e| RuleError::BadDeal(e.to_string()))?;
        let known_pile = |s: Seat| {
            let piled = memory.piled.get(s).map_or(&[][..], |p| &p[..]);
            (piled.len() == number.hash_piles.get(s).copied().unwrap_or(0)).then_some(piled)
        };
        let revealed = view.revealed;
        let seen = (view.hand.iter().chain(view.rows.iter().flatten()))
            .chain(number.hash_rows.iter().flatten())
            .chain(&number.keep_from)
            .chain(revealed)
            .chain((0..seats).filter_map(known_pile).flatten());
        let mut unseen = unseen_cards(rules, seen);
        for seat in 0..seats {
            game.hash_piles[seat] = match known_pile(seat) {
                Some(piled) => piled.to_vec(),
                None => draw_hand(rng, &mut unseen, number.hash_piles[seat]),
            };
            game.hands[seat] = match seat == view.seat {
                true => view.hand.to_vec(),
                false => draw_hand(rng, &mut unseen, number.hand_sizes[seat]),
            };
        }
        // A card placed this turn is in a row; one still to place is out of its hand.
        game.round = view.round;
        game.turn = view.turn;
        for (row, given) in game.rows.iter_mut().zip(view.rows) {
            row.clone_from(given);
        }
        for (end, row) in game.ends.iter_mut().zip(view.rows) {
            *end = *row
                .last()
                .ok_or_else(|| RuleError::BadDeal("an empty row".into()))?;
        }
        game.table.clone_from(number);
        game.taken.copy_from_slice(view.taken);
        game.scores.copy_from_slice(view.scores);
        game.revealed = revealed.to_vec();
        order_by_card(&game.revealed, &mut game.order);
        let next = game.order.iter().position(|&s| s == view.seat).unwrap_or(0);
        game.next = next;
        game.phase = match view.decision {
            Some(Decision::ChooseRow { card }) => Phase::ChooseRow {
                seat: view.seat,
                card,
            },
            Some(Decision::KeepCard) => Phase::Keep { seat: view.seat },
            _ => {
                // Choosing: a hand of the table's size holds the card chosen, if any.
                for seat in 0..seats {
                    if seat != view.seat && number.hand_sizes[seat] == 0 {
                        return Err(RuleError::BadDeal(format!("seat {seat} holds no card")));
                    }
                }
                game.revealed.clear();
                game.order.clear();
                game.next = 0;
                Phase::Choose { pending: seats }
            }
        };
        if !game.revealed.is_empty() {
            for (chosen, &card) in game.chosen.iter_mut().zip(&game.revealed) {
                *chosen = Some(card);
            }
        }
        Ok(game)
    }
}
