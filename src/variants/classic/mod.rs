//! Classic Take 5 / 6 nimmt! (rulebooks 001, 003 "Take 5", 004), driven entirely by [`Rules`].
//!
//! A round: deal, then turns until the hands are empty. In a turn everyone chooses a card face
//! down; the cards are revealed and placed in ascending order, each at the end of the row whose
//! end is the highest below it. A card that would exceed the row's capacity takes the row and
//! starts it again; a card below every row's end makes its player choose a row to take, at that
//! moment. After a round the bullheads taken are added to the totals; the game ends as
//! [`GameEnd`] says and the lowest total wins.

pub mod description;
pub mod fixture;

use super::common::board::{Board, board_accessors, board_game};
use super::common::deal::{check_cards, check_dealing, check_row_cards, check_table, lay_hands};
use super::common::judge::{Judged, check};
use super::common::reveal::{Placing, Reveal, SimultaneousTurn, TurnParts, turn_phases};
use crate::cards::Card;
use crate::game::SetupError;
use crate::game::house::{self, Arg, Hook, Hooks};
use crate::game::model::{
    Knowledge, Memory, Model, draw_hand_avoiding, draw_hand_into, unseen_cards_into,
};
use crate::game::{
    Action, Deal, Discard, Emitter, Event, Game, Outcome, Points, RuleError, Seat, TakeReason, View,
};
use crate::rng::GameRng;
use crate::rules::{Rules, RulesError};
use std::sync::Arc;

pub use super::common::deal::Table;

turn_phases!(Classic;);

/// The state of a classic game.
#[derive(Debug)]
pub struct Classic {
    /// The table: hands, rows, the cards and bullheads taken this round, the totals.
    board: Board,
    phase: Phase,
    /// This turn's cards, chosen, revealed and placed.
    reveal: Reveal,
    /// Every card of the deck, ascending: where each deal starts from.
    ordered_deck: Vec<Card>,
    /// Reused buffer the deal draws from.
    draw_pile: Vec<Card>,
    /// Reused bitset over the deck for sorting hands.
    hand_bits: Vec<u64>,
    /// Reused by [`Model::determinize_into`]: the table it lays out and the cards it draws from
    /// (empty until then; a copy has none).
    rebuild: Rebuild,
}

impl Classic {
    /// A new game waiting for its first deal.
    pub fn new(rules: Arc<Rules>, seats: usize) -> Result<Classic, RulesError> {
        rules.validate()?;
        rules.check_players(seats)?;
        let room = (rules.hand_size, rules.row_capacity + 1, rules.deck.len());
        Ok(Classic {
            phase: Phase::Deal,
            reveal: Reveal::new(seats),
            ordered_deck: rules.deck.cards().collect(),
            draw_pile: rules.deck.cards().collect(),
            hand_bits: vec![0; rules.deck.len().div_ceil(64)],
            rebuild: Rebuild::default(),
            board: Board::new(rules, seats, room),
        })
    }

    /// A game at an explicit table, with players about to choose their cards.
    pub fn from_table(rules: Arc<Rules>, table: &Table) -> Result<Classic, RuleError> {
        let seats = table.hands.len();
        let mut game = Classic::new(rules, seats)
            .map_err(|e| RuleError::Setup(SetupError::BadDeal(e.to_string())))?;
        game.lay_table(table)?;
        Ok(game)
    }

    /// Puts a table of this game's seats in place of its state, checked first, reusing its
    /// memory (a search lays out thousands a decision): the players about to choose.
    fn lay_table(&mut self, table: &Table) -> Result<(), RuleError> {
        let rules = &self.board.rules;
        check_table(rules, table, &vec![rules.row_capacity; rules.rows])?;
        self.board.round = table.round;
        self.board.turn = table.turn;
        lay_hands(table, &mut self.board.hands);
        self.board.rows.lay(&table.rows);
        for (seat, pile) in self.board.piles.iter_mut().enumerate() {
            pile.clone_from(&table.piles[seat]);
            self.board.taken[seat] = self.board.rules.deck.sum(pile) as Points;
        }
        self.board.scores.copy_from_slice(&table.scores);
        self.reveal.restart();
        self.phase = Phase::Choose;
        Ok(())
    }

    board_accessors!();

    /// House rules' `draft_pick` for the Pro variant, which drafts the hands of this game's
    /// next round: `seat` picked `card`, `pool` is left; the hooks see the `drafted` hands (the
    /// picker's own), no rows, and the scores so far. A failed hook is the error.
    pub(crate) fn observe_pick(
        &mut self,
        drafted: &[Vec<Card>],
        (seat, card): (Seat, Card),
        pool: &[Card],
    ) -> Result<(), RuleError> {
        if !self.board.house.any() {
            return Ok(());
        }
        let table = house::Table {
            rules: &self.board.rules,
            round: self.board.round + 1,
            turn: 0,
            hands: drafted,
            rows: &[],
            piles: &self.board.piles,
            taken: &self.board.taken,
            scores: &self.board.scores,
        };
        let args = [Arg::Number(card.0.into()), Arg::Cards(pool)];
        (self.board.house).observe(&table, Hook::DraftPick, seat, &args)
    }

    /// Cards played this turn but not yet in a row: chosen face down, or revealed and waiting
    /// for their turn to be placed.
    pub fn unplaced(&self) -> Vec<Card> {
        match self.phase {
            Phase::Choose => self.reveal.chosen_cards().collect(),
            Phase::ChooseRow { .. } => self.reveal.to_place(0).collect(),
            Phase::Deal | Phase::Over => Vec::new(),
        }
    }

    #[inline]
    fn place(&mut self, seat: Seat, card: Card, row: usize, events: &mut Emitter) {
        self.board.rows.place(row, card);
        events.emit(|| Event::Place { seat, card, row });
    }

    /// Starts a round with the hands and rows already in place.
    fn start_round(&mut self, events: &mut Emitter) {
        self.board.start_round();
        self.phase = Phase::Choose;
        events.emit(|| Event::Deal {
            round: self.board.round,
            hands: self.board.hands.clone(),
            rows: self.board.rows.iter().map(|r| r[0]).collect(),
        });
    }

    /// Deals `cards` in the order given (each hand in seat order, then one card per row),
    /// sorting each hand as it goes: its cards become bits of a bitset over the deck, read back
    /// in ascending order (cheaper than a comparison sort of each hand).
    fn deal_sorted(&mut self, cards: &[Card]) {
        let lowest = self.board.rules.deck.lowest;
        let bits = &mut self.hand_bits;
        let (hands, rows) = cards.split_at(self.board.seats * self.board.rules.hand_size);
        for (hand, dealt) in self
            .board
            .hands
            .iter_mut()
            .zip(hands.chunks(self.board.rules.hand_size))
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
        self.board.rows.deal(rows.iter().copied());
    }

    fn deal_from(&mut self, cards: impl Iterator<Item = Card>) {
        let mut cards = cards;
        for hand in &mut self.board.hands {
            hand.clear();
            hand.extend(cards.by_ref().take(self.board.rules.hand_size));
        }
        self.board.rows.deal(cards);
    }
}

impl Classic {
    /// Checks an action; for a card, returns where it is in the hand. Inlined so its result
    /// stays in registers on the hot path.
    #[inline(always)]
    fn validate(&self, seat: Seat, action: Action) -> Result<usize, RuleError> {
        check(
            self.parts(),
            self.to_move(),
            (seat, action),
            &Judged::CARDS_AND_KEEP,
            || unreachable!("classic asks no question of its own"),
        )
    }
}

impl SimultaneousTurn for Classic {
    /// `seat`'s `card` goes onto the row below it by least difference, which it takes when
    /// full; a low card's row is chosen by house rules or, now due, by its player.
    #[inline]
    fn place_next(&mut self, next: (Seat, Card), events: &mut Emitter) -> Placing {
        let (seat, card) = next;
        match self.board.rows.row_for(card) {
            Some(row) => {
                if self.board.rows.is_full(row, self.board.rules.row_capacity) {
                    self.board
                        .take_to_pile((seat, row, TakeReason::Full), events)?;
                }
                self.place(seat, card, row, events);
                Ok(true)
            }
            None => self.low_card(seat, card, events),
        }
    }

    /// The low card starts the row again.
    #[inline]
    fn take_low_row(&mut self, next: (Seat, Card), row: usize, events: &mut Emitter) -> Placing {
        let (seat, card) = next;
        self.board
            .take_to_pile((seat, row, TakeReason::Low), events)?;
        self.place(seat, card, row, events);
        Ok(true)
    }
}

impl Game for Classic {
    board_game!();

    fn deal_given(&mut self, deal: &Deal, events: &mut Emitter) -> Result<(), RuleError> {
        self.board.check_deal(self.to_move(), deal)?;
        check_row_cards(deal, self.board.rules.rows)?;
        let cards = deal.hands.iter().flatten().chain(&deal.rows).copied();
        check_cards(&self.board.rules, cards.clone())?;
        self.deal_from(cards);
        for hand in &mut self.board.hands {
            hand.sort_unstable();
        }
        self.start_round(events);
        Ok(())
    }

    fn deal_drawn(&mut self, rng: &mut GameRng, events: &mut Emitter) -> Result<(), RuleError> {
        check_dealing(self.to_move())?;
        // Draw only the cards dealt: hands in seat order, then one card per row.
        let mut deck = std::mem::take(&mut self.draw_pile);
        deck.copy_from_slice(&self.ordered_deck);
        let dealt = self.board.seats * self.board.rules.hand_size + self.board.rules.rows;
        self.deal_sorted(rng.draw_in_order(&mut deck, dealt));
        self.draw_pile = deck;
        self.start_round(events);
        Ok(())
    }

    #[inline(always)]
    fn view(&self, seat: Seat) -> View<'_> {
        (self.board).view(seat, self.owes(seat), self.reveal.revealed())
    }

    fn restart(&mut self) {
        self.phase = Phase::Deal;
        self.board.restart();
        self.reveal.restart();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board.lowest_wins(self.phase == Phase::Over)
    }
}

/// A copy plays by the rules' settings alone: house rules' hooks live in an interpreter and are
/// not copied (see [`Model`]). `clone_from` reuses the copy's memory.
impl Clone for Classic {
    fn clone(&self) -> Classic {
        Classic {
            board: self.board.clone(),
            phase: self.phase,
            reveal: self.reveal.clone(),
            ordered_deck: self.ordered_deck.clone(),
            draw_pile: self.draw_pile.clone(),
            hand_bits: self.hand_bits.clone(),
            rebuild: Rebuild::default(),
        }
    }

    fn clone_from(&mut self, source: &Classic) {
        if !Arc::ptr_eq(&self.board.rules, &source.board.rules) {
            *self = source.clone();
            return;
        }
        self.board.clone_from(&source.board);
        self.phase = source.phase;
        self.reveal.clone_from(&source.reveal);
        // The deck buffers only matter at a deal, which starts from `ordered_deck` (the same
        // for the same rules).
    }
}

impl Model for Classic {
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        // Classic asks nothing but a card and a row.
        self.board.actions(seat, self.owes(seat), out);
    }

    /// The others' hands are drawn from the cards in no row, not in the seat's hand, not
    /// revealed and not taken this round.
    fn resample(known: &Knowledge, rng: &mut GameRng) -> Result<Classic, RuleError> {
        let (rules, view, memory) = (known.rules, known.view, known.memory);
        let mut rebuild = Rebuild::default();
        rebuild.draw(rules, view, memory, rng);
        let mut game = Classic::from_table(rules.clone(), &rebuild.table)?;
        game.replay_revealed(view)?;
        Ok(game)
    }

    fn resample_into(&mut self, known: &Knowledge, rng: &mut GameRng) -> Result<(), RuleError> {
        let (rules, view, memory) = (known.rules, known.view, known.memory);
        if !Arc::ptr_eq(&self.board.rules, rules) || self.board.seats != view.seats {
            *self = Classic::resample(known, rng)?;
            return Ok(());
        }
        let mut rebuild = std::mem::take(&mut self.rebuild);
        rebuild.draw(rules, view, memory, rng);
        self.board.house = Hooks::default();
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
        self.board.taken.copy_from_slice(view.taken);
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
        let mut game = Classic::new(rules, seats)
            .map_err(|e| RuleError::Setup(SetupError::BadDeal(e.to_string())))?;
        game.board.round = round;
        game.board.scores.copy_from_slice(scores);
        Ok(game)
    }
}
