//! Classic Take 5 / 6 nimmt! (rulebooks 001, 003 "Take 5", 004), driven entirely by [`Rules`].
//!
//! A round: deal, then turns until the hands are empty. In a turn everyone chooses a card face
//! down; the cards are revealed and placed in ascending order, each at the end of the row whose
//! end is the highest below it. A card that would exceed the row's capacity takes the row and
//! starts it again; a card below every row's end makes its player choose a row to take, at that
//! moment. After a round the bullheads taken are added to the totals; the game ends as
//! [`GameEnd`] says and the lowest total wins.

pub mod fixture;

use crate::cards::Card;
use crate::game::house::{self, Arg, Hook, Hooks, HouseHooks, add_seat_points, table_view};
use crate::game::model::{Memory, Model, draw_hand_avoiding, draw_hand_into, unseen_cards_into};
use crate::game::{
    Action, Deal, Decision, Discard, Emitter, Event, EventSink, Family, Game, Outcome, Points,
    RuleError, Seat, TakeReason, ToMove, View, check_seat,
};
use crate::rng::GameRng;
use crate::rules::{GameEnd, Rules, RulesError};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Deal,
    /// Players choose; `pending` of them have not yet.
    Choose {
        pending: usize,
    },
    /// Revealed cards are placed in ascending order; `seat`'s low card `card` waits for a row.
    ChooseRow {
        seat: Seat,
        card: Card,
    },
    Over,
}

/// A table in the middle of a round, given explicitly (fixtures, replays of real games).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub round: u32,
    pub turn: u32,
    pub hands: Vec<Vec<Card>>,
    pub rows: Vec<Vec<Card>>,
    /// Totals from earlier rounds, by seat.
    pub scores: Vec<Points>,
    /// Cards already taken this round, by seat.
    pub piles: Vec<Vec<Card>>,
}

/// The state of a classic game.
#[derive(Debug)]
pub struct Classic {
    rules: Arc<Rules>,
    seats: usize,
    phase: Phase,
    round: u32,
    turn: u32,
    hands: Vec<Vec<Card>>,
    rows: Vec<Vec<Card>>,
    /// The last card of each row (kept beside `rows` because placing a card only reads these).
    ends: Vec<Card>,
    /// Cards taken this round, by seat.
    piles: Vec<Vec<Card>>,
    /// Bullheads of `piles`, by seat.
    taken: Vec<Points>,
    /// Totals from the rounds before this one, by seat.
    scores: Vec<Points>,
    /// This turn's cards, by seat; a seat's entry means something once `chosen` says so.
    /// Kept by seat from the start, so the reveal copies nothing.
    played: Vec<Card>,
    /// Whether each seat has chosen its card this turn.
    chosen: Vec<bool>,
    /// Seats in the order their revealed cards are placed (ascending card).
    order: Vec<Seat>,
    /// Index in `order` of the next card to place.
    next: usize,
    /// Every card of the deck, ascending: where each deal starts from.
    ordered_deck: Vec<Card>,
    /// Reused buffer the deal draws from.
    draw_pile: Vec<Card>,
    /// Reused bitset over the deck for sorting hands.
    hand_bits: Vec<u64>,
    /// Reused by [`Model::determinize_into`]: the table it lays out and the cards it draws from
    /// (empty until then; a copy has none).
    rebuild: Rebuild,
    /// House rules' hooks, if any.
    house: Hooks,
}

impl Classic {
    /// A new game waiting for its first deal.
    pub fn new(rules: Arc<Rules>, seats: usize) -> Result<Classic, RulesError> {
        rules.validate()?;
        rules.check_players(seats)?;
        let per_seat = |capacity: usize| (0..seats).map(|_| Vec::with_capacity(capacity)).collect();
        Ok(Classic {
            seats,
            phase: Phase::Deal,
            round: 0,
            turn: 0,
            hands: per_seat(rules.hand_size),
            rows: (0..rules.rows)
                .map(|_| Vec::with_capacity(rules.row_capacity + 1))
                .collect(),
            ends: vec![Card(0); rules.rows],
            piles: per_seat(rules.deck.len()),
            taken: vec![0; seats],
            scores: vec![0; seats],
            played: vec![Card(0); seats],
            chosen: vec![false; seats],
            order: Vec::with_capacity(seats),
            next: 0,
            ordered_deck: rules.deck.cards().collect(),
            draw_pile: rules.deck.cards().collect(),
            hand_bits: vec![0; rules.deck.len().div_ceil(64)],
            rebuild: Rebuild::default(),
            house: Hooks::default(),
            rules,
        })
    }

    /// A game at an explicit table, with players about to choose their cards.
    pub fn from_table(rules: Arc<Rules>, table: &Table) -> Result<Classic, RuleError> {
        let seats = table.hands.len();
        let mut game = Classic::new(rules, seats).map_err(|e| RuleError::BadDeal(e.to_string()))?;
        game.lay_table(table)?;
        Ok(game)
    }

    /// Puts a table of this game's seats in place of its state, checked first, reusing its
    /// memory (a search lays out thousands a decision): the players about to choose.
    fn lay_table(&mut self, table: &Table) -> Result<(), RuleError> {
        let rules = &self.rules;
        check_table(rules, table, &vec![rules.row_capacity; rules.rows])?;
        self.round = table.round;
        self.turn = table.turn;
        lay_out(table, &mut self.hands, &mut self.rows, &mut self.ends);
        for (seat, pile) in self.piles.iter_mut().enumerate() {
            pile.clone_from(&table.piles[seat]);
            self.taken[seat] = self.rules.deck.sum(pile) as Points;
        }
        self.scores.copy_from_slice(&table.scores);
        self.played.fill(Card(0));
        self.chosen.fill(false);
        self.order.clear();
        self.next = 0;
        self.phase = Phase::Choose {
            pending: self.seats,
        };
        Ok(())
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

    /// Cards taken this round, by seat.
    pub fn piles(&self) -> &[Vec<Card>] {
        &self.piles
    }

    /// Bullheads taken this round, by seat.
    pub fn taken(&self) -> &[Points] {
        &self.taken
    }

    /// Totals from completed rounds, by seat.
    pub fn scores(&self) -> &[Points] {
        &self.scores
    }

    /// House rules' `draft_pick` for the Pro variant, which drafts the hands of this game's
    /// next round: `seat` picked `card`, `pool` is left; the hooks see the `drafted` hands (the
    /// picker's own), no rows, and the scores so far. A failed hook is the error.
    pub(crate) fn observe_pick(
        &mut self,
        drafted: &[Vec<Card>],
        (seat, card): (Seat, Card),
        pool: &[Card],
    ) -> Result<(), RuleError> {
        if !self.house.any() {
            return Ok(());
        }
        let table = house::Table {
            rules: &self.rules,
            round: self.round + 1,
            turn: 0,
            hands: drafted,
            rows: &[],
            piles: &self.piles,
            taken: &self.taken,
            scores: &self.scores,
        };
        let args = [Arg::Number(card.0.into()), Arg::Cards(pool)];
        (self.house).observe(&table, Hook::DraftPick, seat, &args);
        self.house.check()
    }

    /// Cards played this turn but not yet in a row: chosen face down, or revealed and waiting
    /// for their turn to be placed.
    pub fn unplaced(&self) -> Vec<Card> {
        match self.phase {
            Phase::Choose { .. } => (0..self.seats)
                .filter(|&seat| self.chosen[seat])
                .map(|seat| self.played[seat])
                .collect(),
            Phase::ChooseRow { .. } => self.order[self.next..]
                .iter()
                .map(|&seat| self.played[seat])
                .collect(),
            Phase::Deal | Phase::Over => Vec::new(),
        }
    }

    /// This turn's cards by seat while they are face up (a low card waits for its row), else
    /// empty.
    #[inline]
    fn revealed(&self) -> &[Card] {
        match self.phase {
            Phase::ChooseRow { .. } => &self.played,
            _ => &[],
        }
    }

    /// The row a card goes to: the one whose end is the highest card below it; `None` for a
    /// card below every row's end.
    #[inline]
    fn row_for(&self, card: Card) -> Option<usize> {
        row_for(&self.ends, card)
    }

    fn take(
        &mut self,
        seat: Seat,
        row: usize,
        reason: TakeReason,
        events: &mut Emitter,
    ) -> Result<(), RuleError> {
        let mut bullheads = self.rules.deck.sum(&self.rows[row]) as Points;
        if self.house.any() {
            // The hook sees the row being taken in the table, and its cards (no copy needed).
            let cards = &self.rows[row];
            bullheads = (self.house).row_taken(&table_view!(self), seat, row, cards, bullheads)?;
        }
        events.emit(|| Event::Take {
            seat,
            row,
            cards: self.rows[row].clone(),
            bullheads,
            reason,
        });
        let at = (Hook::RowTaken, self.round, self.turn);
        add_seat_points(&mut self.taken[seat], seat, bullheads.into(), at)?;
        self.piles[seat].extend_from_slice(&self.rows[row]);
        self.rows[row].clear();
        Ok(())
    }

    fn place(&mut self, seat: Seat, card: Card, row: usize, events: &mut Emitter) {
        self.rows[row].push(card);
        self.ends[row] = card;
        events.emit(|| Event::Place { seat, card, row });
    }

    /// Places revealed cards from `next` on, until a low card needs its player's choice or the
    /// turn is done.
    fn resolve(&mut self, events: &mut Emitter) -> Result<(), RuleError> {
        let capacity = self.rules.row_capacity;
        while self.next < self.order.len() {
            let seat = self.order[self.next];
            let card = self.played[seat];
            match self.row_for(card) {
                Some(row) => {
                    if self.rows[row].len() >= capacity {
                        self.take(seat, row, TakeReason::Full, events)?;
                    }
                    self.place(seat, card, row, events);
                }
                None => {
                    if !self.low_card(seat, card, events)? {
                        self.phase = Phase::ChooseRow { seat, card };
                        return Ok(());
                    }
                }
            }
            self.next += 1;
        }
        self.end_turn(events)
    }

    /// `seat`'s `card` is below every row's end: house rules may choose its row (then it is
    /// placed, and this returns true); otherwise its player must (false).
    #[inline(never)]
    fn low_card(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut Emitter,
    ) -> Result<bool, RuleError> {
        match self.house.low_card(&table_view!(self), seat, card)? {
            Some(row) => {
                self.take(seat, row, TakeReason::Low, events)?;
                self.place(seat, card, row, events);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn end_turn(&mut self, events: &mut Emitter) -> Result<(), RuleError> {
        self.chosen.fill(false);
        if self.hands[0].is_empty() {
            self.end_round(events)
        } else {
            self.turn += 1;
            self.phase = Phase::Choose {
                pending: self.seats,
            };
            Ok(())
        }
    }

    fn end_round(&mut self, events: &mut Emitter) -> Result<(), RuleError> {
        let (rules, round) = (&self.rules, self.round);
        let end = self
            .house
            .close_round(&table_view!(self), |totals| game_over(rules, totals, round))?;
        self.taken = end.penalties;
        self.scores = end.totals;
        events.emit(|| Event::RoundEnd {
            round: self.round,
            penalties: self.taken.clone(),
            totals: self.scores.clone(),
        });
        if end.over {
            self.phase = Phase::Over;
            events.emit(|| {
                let Outcome { totals, winners } = self.outcome().expect("the game is over");
                Event::GameEnd { totals, winners }
            });
        } else {
            self.phase = Phase::Deal;
        }
        Ok(())
    }

    /// Starts a round with the hands and rows already in place.
    fn start_round(&mut self, events: &mut Emitter) {
        self.round += 1;
        self.turn = 1;
        for pile in &mut self.piles {
            pile.clear();
        }
        self.taken.fill(0);
        self.phase = Phase::Choose {
            pending: self.seats,
        };
        events.emit(|| Event::Deal {
            round: self.round,
            hands: self.hands.clone(),
            rows: self.rows.iter().map(|r| r[0]).collect(),
        });
    }

    /// Deals `cards` in the order given (each hand in seat order, then one card per row),
    /// sorting each hand as it goes: its cards become bits of a bitset over the deck, read back
    /// in ascending order (cheaper than a comparison sort of each hand).
    fn deal_sorted(&mut self, cards: &[Card]) {
        let lowest = self.rules.deck.lowest;
        let bits = &mut self.hand_bits;
        let (hands, rows) = cards.split_at(self.seats * self.rules.hand_size);
        for (hand, dealt) in self
            .hands
            .iter_mut()
            .zip(hands.chunks(self.rules.hand_size))
        {
            bits.fill(0);
            for card in dealt {
                let i = usize::from(card.0 - lowest);
                bits[i / 64] |= 1 << (i % 64);
            }
            hand.clear();
            for (w, &word) in bits.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let i = w * 64 + word.trailing_zeros() as usize;
                    hand.push(Card(lowest + i as u16));
                    word &= word - 1;
                }
            }
        }
        for ((row, end), &card) in self.rows.iter_mut().zip(&mut self.ends).zip(rows) {
            row.clear();
            row.push(card);
            *end = card;
        }
    }

    fn deal_from(&mut self, cards: impl Iterator<Item = Card>) {
        let mut cards = cards;
        for hand in &mut self.hands {
            hand.clear();
            hand.extend(cards.by_ref().take(self.rules.hand_size));
        }
        for (row, end) in self.rows.iter_mut().zip(&mut self.ends) {
            row.clear();
            row.extend(cards.next());
            *end = row[0];
        }
    }
}

impl Classic {
    /// The last card of the turn is chosen: reveal them all and place them. Kept out of
    /// [`Game::apply`] so that the common case there (a card chosen, others still to choose)
    /// stays a small function.
    #[inline(never)]
    fn reveal(&mut self, events: &mut dyn EventSink) -> Result<(), RuleError> {
        let events = &mut Emitter::new(events);
        order_by_card(&self.played, &mut self.order);
        self.next = 0;
        events.emit(|| Event::Reveal {
            round: self.round,
            turn: self.turn,
            cards: self.played.clone(),
        });
        self.resolve(events)
    }

    /// `seat`'s low `card` takes `row` and starts it again; the turn's placing goes on.
    #[inline(never)]
    fn take_low_row(
        &mut self,
        seat: Seat,
        card: Card,
        row: usize,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        let events = &mut Emitter::new(events);
        self.take(seat, row, TakeReason::Low, events)?;
        self.place(seat, card, row, events);
        self.next += 1;
        self.resolve(events)
    }

    /// Checks an action; for a card, returns where it is in the hand. Inlined so its result
    /// stays in registers on the hot path, which tries the legal actions first and leaves
    /// telling what is wrong with an illegal one to [`Classic::judge`].
    #[inline(always)]
    fn validate(&self, seat: Seat, action: Action) -> Result<usize, RuleError> {
        match (self.phase, action) {
            (Phase::Choose { .. }, Action::Play(card)) if self.chosen.get(seat) == Some(&false) => {
                if let Some(at) = place_in_hand(&self.hands[seat], card) {
                    return Ok(at);
                }
            }
            (
                Phase::ChooseRow {
                    seat: waiting_for, ..
                },
                Action::TakeRow(row),
            ) if seat == waiting_for && row < self.rows.len() => {
                return Ok(row);
            }
            _ => {}
        }
        self.judge(seat, action)
    }

    /// The families of actions [`Classic::judge`] judges itself: cards and rows, and the #-row
    /// card, which it refuses as Take a Number does outside a keep (not due while cards are
    /// chosen, a row choice due while one is).
    const JUDGED: &[Family] = &[Family::Cards, Family::Keep];

    /// The complete check of an action, with the reason an illegal one is refused.
    #[cold]
    #[inline(never)]
    fn judge(&self, seat: Seat, action: Action) -> Result<usize, RuleError> {
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
                if self.chosen[seat] {
                    Err(RuleError::AlreadyChosen { seat })
                } else {
                    place_in_hand(&self.hands[seat], card)
                        .ok_or(RuleError::NotInHand { seat, card })
                }
            }
            (Phase::Choose { .. }, Action::TakeRow(_)) => Err(RuleError::NoRowChoiceDue { seat }),
            // Left: the #-row card (the families not judged here are refused above).
            (Phase::Choose { .. }, _) => Err(RuleError::NoKeepDue { seat }),
            (
                Phase::ChooseRow {
                    seat: waiting_for, ..
                },
                _,
            ) if seat != waiting_for => Err(RuleError::NotYourTurn { seat, waiting_for }),
            (Phase::ChooseRow { .. }, Action::TakeRow(row)) => {
                if row < self.rows.len() {
                    Ok(row)
                } else {
                    Err(RuleError::NoSuchRow {
                        row,
                        rows: self.rows.len(),
                    })
                }
            }
            (Phase::ChooseRow { .. }, _) => Err(RuleError::RowChoiceDue { seat }),
        }
    }
}

/// Where `card` is in the sorted `hand`, if it is there: the count of lower cards, found by
/// the standard library's binary search (branch-free, so the CPU has no exit to mispredict,
/// and fewer steps than counting every card).
#[inline(always)]
fn place_in_hand(hand: &[Card], card: Card) -> Option<usize> {
    let at = hand.partition_point(|&c| c < card);
    (hand.get(at) == Some(&card)).then_some(at)
}

/// The row a card goes to by least difference: the one whose end (`ends`, by row) is the
/// highest card below it; `None` for a card below every row's end. Shared by the variants that
/// place cards like classic.
#[inline]
pub(crate) fn row_for(ends: &[Card], card: Card) -> Option<usize> {
    // The highest end below the card leaves the smallest gap `card - end - 1`; an end above
    // the card wraps around to a huge gap. Keeping the smallest compiles to conditional moves:
    // whether an end is below a random card is a branch the CPU would mispredict.
    let mut best = 0;
    let mut best_gap = u32::MAX;
    for (i, &end) in ends.iter().enumerate() {
        let gap = u32::from(card.0)
            .wrapping_sub(u32::from(end.0))
            .wrapping_sub(1);
        if gap < best_gap {
            best = i;
            best_gap = gap;
        }
    }
    (best_gap < u32::from(card.0)).then_some(best)
}

/// Seats by ascending revealed card, into `order` (seat order between equal cards). Each seat's
/// place is counted, without a branch: the cards are random, so the comparisons of a sort
/// would be branches the CPU mispredicts.
#[inline]
pub(crate) fn order_by_card(revealed: &[Card], order: &mut Vec<Seat>) {
    order.clear();
    order.extend(0..revealed.len());
    // Card and seat in one key, so equal cards keep seat order and no two keys are equal.
    let key = |seat: usize, card: Card| u64::from(card.0) << 32 | seat as u64;
    for (seat, &card) in revealed.iter().enumerate() {
        let mine = key(seat, card);
        let mut place = 0;
        for (other, &c) in revealed.iter().enumerate() {
            place += usize::from(key(other, c) < mine);
        }
        order[place] = seat;
    }
}

/// Whether the rules end the game after round `round`, with these totals.
pub(crate) fn game_over(rules: &Rules, totals: &[Points], round: u32) -> bool {
    match rules.end {
        GameEnd::TargetScore(target) => totals.iter().any(|&s| s >= target as Points),
        GameEnd::Rounds(rounds) => round >= rounds,
    }
}
/// Takes the card at `index` out of `hand`, keeping the others in order. Every card moves or
/// stays by a select over the whole hand: the loop's length is the hand's (the same for every
/// seat in a turn, so the CPU predicts it), where moving just the cards after `index` would
/// loop, or call `memmove`, for a random length.
#[inline]
fn take_out(hand: &mut Vec<Card>, index: usize) {
    let cards = hand.as_mut_slice();
    for i in 0..cards.len().saturating_sub(1) {
        cards[i] = cards[i + usize::from(i >= index)];
    }
    hand.pop();
}

/// A deal must hold a hand for every seat, each of the rules' size.
pub(crate) fn check_hands(deal: &Deal, seats: usize, hand_size: usize) -> Result<(), RuleError> {
    if deal.hands.len() != seats {
        return Err(RuleError::BadDeal(format!(
            "{} hands for {seats} seats",
            deal.hands.len()
        )));
    }
    match deal
        .hands
        .iter()
        .enumerate()
        .find(|(_, h)| h.len() != hand_size)
    {
        Some((seat, hand)) => Err(RuleError::BadDeal(format!(
            "seat {seat} has {} cards, the rules deal {hand_size}",
            hand.len()
        ))),
        None => Ok(()),
    }
}

/// What an explicit table must hold besides its hands and piles: round and turn from 1, and a
/// row for each of `capacities` (the cards each row holds before the next card takes it), each
/// ascending and holding 1 to its capacity.
pub(crate) fn check_round_and_rows(table: &Table, capacities: &[usize]) -> Result<(), RuleError> {
    let bad = |why: String| Err(RuleError::BadDeal(why));
    if table.round == 0 || table.turn == 0 {
        return bad("round and turn count from 1".into());
    }
    if table.rows.len() != capacities.len() {
        return bad(format!(
            "{} rows given, the rules have {}",
            table.rows.len(),
            capacities.len()
        ));
    }
    for (i, (row, &capacity)) in table.rows.iter().zip(capacities).enumerate() {
        if row.is_empty() || row.len() > capacity {
            return bad(format!(
                "row {i} holds {} cards; it holds 1 to {capacity}",
                row.len()
            ));
        }
        if row.windows(2).any(|w| w[0] >= w[1]) {
            return bad(format!("row {i} is not in ascending order"));
        }
    }
    Ok(())
}

/// What a classic table must hold, its rows holding up to `capacities` (by row): a score and a
/// pile for each hand, hands of the same size (at least one card), round, turn and rows as
/// [`check_round_and_rows`] says, and every card in the deck and in one place.
pub(crate) fn check_table(
    rules: &Rules,
    table: &Table,
    capacities: &[usize],
) -> Result<(), RuleError> {
    let seats = table.hands.len();
    let bad = |why: String| Err(RuleError::BadDeal(why));
    if table.scores.len() != seats || table.piles.len() != seats {
        return bad(format!(
            "{seats} hands but {} scores and {} piles",
            table.scores.len(),
            table.piles.len()
        ));
    }
    let hand_len = table.hands[0].len();
    if hand_len == 0 || table.hands.iter().any(|h| h.len() != hand_len) {
        return bad("every hand must hold the same number of cards, at least 1".into());
    }
    check_round_and_rows(table, capacities)?;
    let all = table.hands.iter().chain(&table.rows).chain(&table.piles);
    check_cards(rules, all.flatten().copied())
}

/// Puts a checked table's hands (sorted) and rows in place, with each row's end.
pub(crate) fn lay_out(
    table: &Table,
    hands: &mut [Vec<Card>],
    rows: &mut [Vec<Card>],
    ends: &mut [Card],
) {
    for (hand, given) in hands.iter_mut().zip(&table.hands) {
        hand.clone_from(given);
        hand.sort_unstable();
    }
    for ((row, end), given) in rows.iter_mut().zip(ends).zip(&table.rows) {
        row.clone_from(given);
        *end = given[given.len() - 1];
    }
}

/// Every card must be in the deck and appear once.
pub(crate) fn check_cards(
    rules: &Rules,
    cards: impl Iterator<Item = Card>,
) -> Result<(), RuleError> {
    let mut seen = vec![false; rules.deck.len()];
    for card in cards {
        if !rules.deck.contains(card) {
            return Err(RuleError::BadDeal(format!(
                "card {card} is not in the deck ({} to {})",
                rules.deck.lowest,
                rules.deck.highest()
            )));
        }
        let slot = &mut seen[usize::from(card.0 - rules.deck.lowest)];
        if *slot {
            return Err(RuleError::BadDeal(format!("card {card} appears twice")));
        }
        *slot = true;
    }
    Ok(())
}

impl Game for Classic {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn seats(&self) -> usize {
        self.seats
    }

    #[inline(always)]
    fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::Deal => ToMove::Deal,
            Phase::Choose { .. } => ToMove::Everyone(Decision::PlayCard),
            Phase::ChooseRow { seat, card } => ToMove::Seat(seat, Decision::ChooseRow { card }),
            Phase::Over => ToMove::GameOver,
        }
    }

    #[inline]
    fn owes(&self, seat: Seat) -> Option<Decision> {
        match self.phase {
            Phase::Choose { .. } if self.chosen.get(seat) == Some(&false) => {
                Some(Decision::PlayCard)
            }
            Phase::ChooseRow { seat: s, card } if s == seat => Some(Decision::ChooseRow { card }),
            _ => None,
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        self.validate(seat, action).map(drop)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        let index = self.validate(seat, action)?;
        match (self.phase, action) {
            (Phase::Choose { pending }, Action::Play(card)) => {
                take_out(&mut self.hands[seat], index);
                self.played[seat] = card;
                self.chosen[seat] = true;
                if pending > 1 {
                    self.phase = Phase::Choose {
                        pending: pending - 1,
                    };
                    return Ok(());
                }
                self.reveal(events)
            }
            (Phase::ChooseRow { card, .. }, Action::TakeRow(row)) => {
                self.take_low_row(seat, card, row, events)
            }
            _ => unreachable!("validate() admits no other pair"),
        }
    }

    fn deal(&mut self, deal: &Deal, events: &mut dyn EventSink) -> Result<(), RuleError> {
        if self.phase != Phase::Deal {
            return Err(if self.phase == Phase::Over {
                RuleError::GameOver
            } else {
                RuleError::NotDealing
            });
        }
        check_hands(deal, self.seats, self.rules.hand_size)?;
        let bad = |why: String| Err(RuleError::BadDeal(why));
        if deal.rows.len() != self.rules.rows {
            return bad(format!(
                "{} rows, the rules have {}",
                deal.rows.len(),
                self.rules.rows
            ));
        }
        let cards = deal.hands.iter().flatten().chain(&deal.rows).copied();
        check_cards(&self.rules, cards.clone())?;
        self.deal_from(cards);
        for hand in &mut self.hands {
            hand.sort_unstable();
        }
        self.start_round(&mut Emitter::new(events));
        Ok(())
    }

    fn deal_random(
        &mut self,
        rng: &mut GameRng,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        match self.phase {
            Phase::Deal => {}
            Phase::Over => return Err(RuleError::GameOver),
            _ => return Err(RuleError::NotDealing),
        }
        // Draw only the cards dealt: hands in seat order, then one card per row.
        let mut deck = std::mem::take(&mut self.draw_pile);
        deck.copy_from_slice(&self.ordered_deck);
        let dealt = self.seats * self.rules.hand_size + self.rules.rows;
        self.deal_sorted(rng.draw_in_order(&mut deck, dealt));
        self.draw_pile = deck;
        self.start_round(&mut Emitter::new(events));
        Ok(())
    }

    #[inline(always)]
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
            revealed: self.revealed(),
            pool: &[],
            number: None,
            circle: None,
            specials: None,
            special_hand: &[],
        }
    }

    fn restart(&mut self) {
        self.phase = Phase::Deal;
        self.round = 0;
        self.turn = 0;
        self.scores.fill(0);
        self.taken.fill(0);
        self.chosen.fill(false);
        self.order.clear();
        self.next = 0;
        for pile in &mut self.piles {
            pile.clear();
        }
        // Hands and rows are refilled by the deal.
    }

    fn set_house(&mut self, house: Option<Box<dyn HouseHooks>>) {
        self.house.set(house);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        Some(Outcome::of(&self.scores, &self.taken, self.rules.ties))
    }
}

/// A copy plays by the rules' settings alone: house rules' hooks live in an interpreter and are
/// not copied (see [`Model`]). `clone_from` reuses the copy's memory.
impl Clone for Classic {
    fn clone(&self) -> Classic {
        Classic {
            rules: self.rules.clone(),
            seats: self.seats,
            phase: self.phase,
            round: self.round,
            turn: self.turn,
            hands: self.hands.clone(),
            rows: self.rows.clone(),
            ends: self.ends.clone(),
            piles: self.piles.clone(),
            taken: self.taken.clone(),
            scores: self.scores.clone(),
            played: self.played.clone(),
            chosen: self.chosen.clone(),
            order: self.order.clone(),
            next: self.next,
            ordered_deck: self.ordered_deck.clone(),
            draw_pile: self.draw_pile.clone(),
            hand_bits: self.hand_bits.clone(),
            rebuild: Rebuild::default(),
            house: Hooks::default(),
        }
    }

    fn clone_from(&mut self, source: &Classic) {
        if !Arc::ptr_eq(&self.rules, &source.rules) {
            *self = source.clone();
            return;
        }
        self.seats = source.seats;
        self.phase = source.phase;
        self.round = source.round;
        self.turn = source.turn;
        self.hands.clone_from(&source.hands);
        self.rows.clone_from(&source.rows);
        self.ends.clone_from(&source.ends);
        self.piles.clone_from(&source.piles);
        self.taken.clone_from(&source.taken);
        self.scores.clone_from(&source.scores);
        self.played.clone_from(&source.played);
        self.chosen.clone_from(&source.chosen);
        self.order.clone_from(&source.order);
        self.next = source.next;
        // The deck buffers only matter at a deal, which starts from `ordered_deck` (the same
        // for the same rules).
        self.house = Hooks::default();
    }
}

impl Model for Classic {
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        match self.phase {
            Phase::Choose { .. } if self.chosen.get(seat) == Some(&false) => {
                out.extend(self.hands[seat].iter().map(|&card| Action::Play(card)));
            }
            Phase::ChooseRow { seat: s, .. } if s == seat => {
                out.extend((0..self.rows.len()).map(Action::TakeRow));
            }
            _ => {}
        }
    }

    /// The others' hands are drawn from the cards in no row, not in the seat's hand, not
    /// revealed and not taken this round.
    fn determinize(
        rules: &Arc<Rules>,
        view: &View,
        memory: &Memory,
        rng: &mut GameRng,
    ) -> Result<Classic, RuleError> {
        let mut rebuild = Rebuild::default();
        rebuild.draw(rules, view, memory, rng);
        let mut game = Classic::from_table(rules.clone(), &rebuild.table)?;
        game.replay_revealed(view)?;
        Ok(game)
    }

    fn determinize_into(
        &mut self,
        rules: &Arc<Rules>,
        view: &View,
        memory: &Memory,
        rng: &mut GameRng,
    ) -> Result<(), RuleError> {
        if !Arc::ptr_eq(&self.rules, rules) || self.seats != view.seats {
            *self = Classic::determinize(rules, view, memory, rng)?;
            return Ok(());
        }
        let mut rebuild = std::mem::take(&mut self.rebuild);
        rebuild.draw(rules, view, memory, rng);
        self.house = Hooks::default();
        let laid = self.lay_table(&rebuild.table);
        self.rebuild = rebuild;
        laid?;
        self.replay_revealed(view)
    }
}

/// What a determinization builds its game from, kept to be reused.
#[derive(Debug, Default)]
struct Rebuild {
    /// The table the view shows, with the hands drawn (see [`view_table`]).
    table: Table,
    /// The cards nobody is known to hold.
    unseen: Vec<Card>,
}

impl Rebuild {
    /// Every seat's hand for a determinization of `view`: the seat's own, and the others'
    /// drawn from the cards in no row, not in its hand, not revealed and not taken this round;
    /// then the rest of the table `view` shows.
    fn draw(&mut self, rules: &Rules, view: &View, memory: &Memory, rng: &mut GameRng) {
        let seen = view
            .hand
            .iter()
            .chain(view.rows.iter().flatten())
            .chain(view.revealed)
            .chain(&memory.taken);
        unseen_cards_into(rules, seen, &mut self.unseen);
        let hands = &mut self.table.hands;
        hands.resize_with(view.seats, Vec::new);
        let ruled_out = |seat: Seat| memory.ruled_out.get(seat).filter(|out| !out.is_empty());
        // The hands with cards ruled out first, while the cards they may hold are still there.
        for (seat, hand) in hands.iter_mut().enumerate() {
            hand.clear();
            if seat == view.seat {
                hand.extend_from_slice(view.hand);
            } else if let Some(out) = ruled_out(seat) {
                let count = view.hand.len();
                draw_hand_avoiding(rng, rules, out, &mut self.unseen, count, hand);
            }
        }
        for (seat, hand) in hands.iter_mut().enumerate() {
            if seat != view.seat && ruled_out(seat).is_none() {
                draw_hand_into(rng, &mut self.unseen, view.hand.len(), hand);
            }
        }
        view_table(&mut self.table, view);
    }
}

/// The table `view` shows, into `table` whose hands are set: as it was before this turn's
/// revealed cards were played, which go back into the hands (see [`Classic::from_view`]).
fn view_table(table: &mut Table, view: &View) {
    for (hand, &card) in table.hands.iter_mut().zip(view.revealed) {
        hand.push(card);
        hand.sort_unstable();
    }
    table.round = view.round.max(1);
    table.turn = view.turn.max(1);
    table.rows.resize_with(view.rows.len(), Vec::new);
    for (row, shown) in table.rows.iter_mut().zip(view.rows) {
        row.clone_from(shown);
    }
    table.scores.clear();
    table.scores.extend_from_slice(view.scores);
    table.piles.resize_with(view.seats, Vec::new);
    table.piles.iter_mut().for_each(Vec::clear);
}

impl Classic {
    /// The game `view` shows, with these `hands` (by seat; the seat's own from the view): what
    /// [`Model::determinize`] builds once the hidden cards are chosen. While a low card waits
    /// for its row, the turn's revealed cards go back into the hands and are played again, so
    /// that the game built asks for the row.
    pub(crate) fn from_view(
        rules: &Arc<Rules>,
        view: &View,
        hands: Vec<Vec<Card>>,
    ) -> Result<Classic, RuleError> {
        let mut table = Table {
            hands,
            ..Table::default()
        };
        view_table(&mut table, view);
        let mut game = Classic::from_table(rules.clone(), &table)?;
        game.replay_revealed(view)?;
        Ok(game)
    }

    /// After [`view_table`]: the view's points taken this round, and its revealed cards played
    /// again.
    fn replay_revealed(&mut self, view: &View) -> Result<(), RuleError> {
        self.taken.copy_from_slice(view.taken);
        for (seat, &card) in view.revealed.iter().enumerate() {
            self.apply(seat, Action::Play(card), &mut Discard)?;
        }
        Ok(())
    }

    /// A game between rounds: `round` rounds played, these totals, waiting for the next deal
    /// (the Pro variant's draft builds one from a view).
    pub(crate) fn between_rounds(
        rules: Arc<Rules>,
        seats: usize,
        round: u32,
        scores: &[Points],
    ) -> Result<Classic, RuleError> {
        let mut game = Classic::new(rules, seats).map_err(|e| RuleError::BadDeal(e.to_string()))?;
        game.round = round;
        game.scores.copy_from_slice(scores);
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counted order is a stable sort by card at any table size (equal cards included: a
    /// custom deck may repeat none, but the order must not depend on that).
    #[test]
    fn order_by_card_sorts_stably_at_every_table_size() {
        let mut rng = GameRng::new(5, crate::rng::Stream::Deal(0));
        let mut order = Vec::new();
        for seats in [1, 2, 4, 10, 17, 40] {
            for _ in 0..50 {
                let revealed: Vec<Card> = (0..seats).map(|_| Card(rng.below(30) as u16)).collect();
                order_by_card(&revealed, &mut order);
                let mut expected: Vec<Seat> = (0..seats).collect();
                expected.sort_by_key(|&seat| revealed[seat]);
                assert_eq!(order, expected, "{revealed:?}");
            }
        }
    }
}
