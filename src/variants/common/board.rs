//! What every engine keeps on the table, in one layout: the rules and seats, the round and
//! turn, the hands, the rows, the cards and points taken this round, the totals and the house
//! rules' hooks. An engine holds a [`Board`] beside what its variant adds; the accessors, the
//! view's common part, a new game's reset and the `Game` methods that only read the board are
//! written here once ([`board_accessors!`], [`board_game!`]).

use super::deal::check_deal;
use super::rows::Rows;
use super::scoring::{self, game_over};
use crate::cards::Card;
use crate::game::house::{Hook, Hooks, add_seat_points, table_view};
use crate::game::{
    Action, Deal, Decision, Emitter, Event, Outcome, Points, RuleError, Seat, TakeReason, ToMove,
    View,
};
use crate::rules::Rules;
use std::sync::Arc;

/// The table every engine plays on (see the module's doc).
#[derive(Debug)]
pub struct Board {
    pub rules: Arc<Rules>,
    pub seats: usize,
    /// Round, from 1 (0 before the first deal).
    pub round: u32,
    /// Turn within the round, from 1.
    pub turn: u32,
    /// Each seat's hand, ascending.
    pub hands: Vec<Vec<Card>>,
    pub rows: Rows,
    /// Cards taken this round, by seat (Take a Number: the #-piles; the circle game: the
    /// collected cards).
    pub piles: Vec<Vec<Card>>,
    /// Points taken this round, by seat (the circle game: the points so far).
    pub taken: Vec<Points>,
    /// Totals from the rounds before this one, by seat.
    pub scores: Vec<Points>,
    /// House rules' hooks, if any.
    pub house: Hooks,
}

/// A copy plays by the rules' settings alone: house rules' hooks are not copied (see
/// `Model`). `clone_from` reuses the copy's memory (a search copies games many times a
/// decision) and leaves shared rules as they are.
impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            rules: self.rules.clone(),
            seats: self.seats,
            round: self.round,
            turn: self.turn,
            hands: self.hands.clone(),
            rows: self.rows.clone(),
            piles: self.piles.clone(),
            taken: self.taken.clone(),
            scores: self.scores.clone(),
            house: Hooks::default(),
        }
    }

    fn clone_from(&mut self, source: &Board) {
        if !Arc::ptr_eq(&self.rules, &source.rules) {
            self.rules.clone_from(&source.rules);
        }
        self.seats = source.seats;
        self.round = source.round;
        self.turn = source.turn;
        self.hands.clone_from(&source.hands);
        self.rows.clone_from(&source.rows);
        self.piles.clone_from(&source.piles);
        self.taken.clone_from(&source.taken);
        self.scores.clone_from(&source.scores);
        self.house = Hooks::default();
    }
}

impl Board {
    /// An empty table for `seats` under `rules`, before the first deal: room for `hand`
    /// cards in each hand, `row` in each of the rules' rows and `pile` in each pile.
    pub fn new(rules: Arc<Rules>, seats: usize, (hand, row, pile): (usize, usize, usize)) -> Board {
        let per_seat = |room: usize| (0..seats).map(|_| Vec::with_capacity(room)).collect();
        Board {
            seats,
            round: 0,
            turn: 0,
            hands: per_seat(hand),
            rows: Rows::new(rules.rows, row),
            piles: per_seat(pile),
            taken: vec![0; seats],
            scores: vec![0; seats],
            house: Hooks::default(),
            rules,
        }
    }

    /// What `seat` sees of the board, deciding `decision`, with the turn's `revealed` cards;
    /// nothing of any variant's own table (a variant adds its own to this).
    #[inline(always)]
    pub fn view<'a>(
        &'a self,
        seat: Seat,
        decision: Option<Decision>,
        revealed: &'a [Card],
    ) -> View<'a> {
        View {
            rules: &self.rules,
            seat,
            seats: self.seats,
            round: self.round,
            turn: self.turn,
            decision,
            hand: &self.hands[seat],
            rows: &self.rows,
            scores: &self.scores,
            taken: &self.taken,
            revealed,
            pool: &[],
            number: None,
            circle: None,
            specials: None,
            special_hand: &[],
        }
    }

    /// The legal actions of `seat`'s `decision` onto `out` when it is a card to play or a row
    /// to take; any other decision (one of the variant's own) is returned, for the variant to
    /// answer.
    pub fn actions(
        &self,
        seat: Seat,
        decision: Option<Decision>,
        out: &mut Vec<Action>,
    ) -> Option<Decision> {
        match decision {
            Some(Decision::PlayCard) => self.play_actions(seat, out),
            Some(Decision::ChooseRow { .. }) => self.row_actions(out),
            own => return own,
        }
        None
    }

    /// Every card of `seat`'s hand, as the action that plays it, onto `out`.
    pub fn play_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.extend(self.hands[seat].iter().map(|&card| Action::Play(card)));
    }

    /// Every row, as the action that takes it, onto `out`.
    pub fn row_actions(&self, out: &mut Vec<Action>) {
        out.extend((0..self.rows.len()).map(Action::TakeRow));
    }

    /// A new game at the same table: no round played, no points, no cards taken (the hands
    /// and rows are refilled by the deal).
    pub fn restart(&mut self) {
        self.round = 0;
        self.turn = 0;
        self.scores.fill(0);
        self.taken.fill(0);
        self.piles.iter_mut().for_each(Vec::clear);
    }

    /// A new round starts: the round after this one, at its first turn, nothing taken yet.
    pub fn start_round(&mut self) {
        self.round += 1;
        self.turn = 1;
        self.piles.iter_mut().for_each(Vec::clear);
        self.taken.fill(0);
    }

    /// The outcome of a game played in rounds once it is `over`: the lowest total wins, ties
    /// broken as the rules say.
    pub fn lowest_wins(&self, over: bool) -> Option<Outcome> {
        over.then(|| Outcome::of(&self.scores, &self.taken, self.rules.ties))
    }

    /// A deal given to this table while its game says `to_move`: due, and with a hand of the
    /// rules' size for every seat ([`check_deal`]).
    pub fn check_deal(&self, to_move: ToMove, deal: &Deal) -> Result<(), RuleError> {
        check_deal(to_move, deal, (self.seats, self.rules.hand_size))
    }

    /// `seat` takes `row` for `reason`, reported as a take: returns what the take is worth, its
    /// cards' bullheads or house rules' `row_taken` answer. With `extra` (an engine that counts
    /// the cards where they go), what the answer adds to the bullheads goes there. The cards
    /// stay in the row (the hook sees them in the table): where they go is the engine's.
    /// Always inlined: out of line, its answer came back through memory at every take
    /// (docs/performance.md, "The in-process engine, measured").
    #[inline(always)]
    pub fn take_row(
        &mut self,
        (seat, row, reason): (Seat, usize, TakeReason),
        extra: Option<&mut Points>,
        events: &mut Emitter,
    ) -> Result<Points, RuleError> {
        let printed = self.rules.deck.sum(&self.rows[row]) as Points;
        let mut bullheads = printed;
        if self.house.any() {
            let (table, cards) = (table_view!(self), &self.rows[row]);
            bullheads = match extra {
                None => (self.house).row_taken(&table, seat, row, cards, printed)?,
                Some(extra) => {
                    (self.house).row_taken_extra(&table, (seat, row, cards), printed, extra)?
                }
            };
        }
        events.emit(|| Event::Take {
            seat,
            row,
            cards: self.rows[row].clone(),
            bullheads,
            reason,
        });
        Ok(bullheads)
    }

    /// [`Board::take_row`] onto `seat`'s pile: the cards go there, what they are worth onto the
    /// seat's points this round, and the row is empty until a card starts it again.
    #[inline]
    pub fn take_to_pile(
        &mut self,
        (seat, row, reason): (Seat, usize, TakeReason),
        events: &mut Emitter,
    ) -> Result<(), RuleError> {
        let worth = self.take_row((seat, row, reason), None, events)?;
        let at = (Hook::RowTaken, self.round, self.turn);
        add_seat_points(&mut self.taken[seat], seat, worth.into(), at)?;
        self.piles[seat].extend_from_slice(&self.rows[row]);
        self.rows.clear(row);
        Ok(())
    }
}

/// Where a game goes when a turn's cards are all placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The next turn of the round.
    Turn,
    /// The round is over: the next deal.
    Deal,
    /// The round is over, and the game.
    Over,
}

impl Board {
    /// A turn's cards are all placed: the next turn starts, or, after the `last` turn of the
    /// round, the round ends ([`Board::close_round`]).
    pub fn after_turn(&mut self, last: bool, events: &mut Emitter) -> Result<Next, RuleError> {
        if last {
            self.close_round(events)
        } else {
            self.turn += 1;
            Ok(Next::Turn)
        }
    }

    /// The round ends: house rules may change its penalties and end the game, the penalties
    /// go onto the totals, and the game is over as the rules say ([`scoring::close_round`]).
    pub fn close_round(&mut self, events: &mut Emitter) -> Result<Next, RuleError> {
        let (rules, round) = (&self.rules, self.round);
        let end = (self.house)
            .close_round(&table_view!(self), |totals| game_over(rules, totals, round))?;
        let (taken, scores) = (&mut self.taken, &mut self.scores);
        let over = scoring::close_round(end, (rules, round), taken, scores, events);
        Ok(if over { Next::Over } else { Next::Deal })
    }
}

/// The public accessors of an engine with a `board` ([`Board`]), inside its `impl`.
macro_rules! board_accessors {
    () => {
        /// Round, from 1 (0 before the first deal).
        pub fn round(&self) -> u32 {
            self.board.round
        }

        /// Turn within the round, from 1.
        pub fn turn(&self) -> u32 {
            self.board.turn
        }

        /// The rows, each from its first card to its end.
        pub fn rows(&self) -> &[Vec<$crate::cards::Card>] {
            &self.board.rows
        }

        /// `seat`'s hand, ascending.
        pub fn hand(&self, seat: $crate::game::Seat) -> &[$crate::cards::Card] {
            &self.board.hands[seat]
        }

        /// Cards taken this round, by seat.
        pub fn piles(&self) -> &[Vec<$crate::cards::Card>] {
            &self.board.piles
        }

        /// Points taken this round, by seat.
        pub fn taken(&self) -> &[$crate::game::Points] {
            &self.board.taken
        }

        /// Totals from completed rounds, by seat.
        pub fn scores(&self) -> &[$crate::game::Points] {
            &self.board.scores
        }
    };
}
pub(crate) use board_accessors;

/// The `Game` methods of an engine that plays the simultaneous turn on a `board` ([`Board`]),
/// inside its `impl Game`. The engine has a `reveal` ([`super::reveal::Reveal`]), a `phase`
/// (its [`turn_phases!`](super::reveal::turn_phases)), a
/// `validate(seat, action) -> Result<usize, RuleError>` (for a card, where it is in the hand)
/// and it plays [`super::reveal::SimultaneousTurn`]. The phase says who must act; a seat owes
/// what [`Game::to_move`](crate::game::Game::to_move) asks while it has not chosen its card; a
/// card chosen goes to the turn ([`super::reveal::SimultaneousTurn::choose`]), a low card's row
/// to [`super::reveal::SimultaneousTurn::take_low_row`], any other action to the engine's
/// [`super::reveal::SimultaneousTurn::reply`].
macro_rules! board_game {
    () => {
        #[inline(always)]
        fn to_move(&self) -> $crate::game::ToMove {
            self.phase.to_move()
        }

        fn act(
            &mut self,
            seat: $crate::game::Seat,
            action: $crate::game::Action,
            events: &mut $crate::game::Emitter,
        ) -> Result<(), $crate::game::RuleError> {
            use $crate::game::Action;
            use $crate::variants::common::reveal::SimultaneousTurn;
            // Validated in each arm: the shared check, inlined there, sees the phase this
            // match found, so the phase is matched once rather than again in the check.
            match (self.phase, action) {
                (Phase::Choose, Action::Play(_)) => {
                    let at = self.validate(seat, action)?;
                    self.choose(seat, at, events)
                }
                (Phase::ChooseRow { card, .. }, Action::TakeRow(row)) => {
                    self.validate(seat, action)?;
                    let done = self.take_low_row((seat, card), row, events)?;
                    self.after_placing(done, events)
                }
                _ => {
                    self.validate(seat, action)?;
                    self.reply(seat, action, events)
                }
            }
        }

        fn rules(&self) -> &$crate::rules::Rules {
            &self.board.rules
        }

        fn seats(&self) -> usize {
            self.board.seats
        }

        fn check(
            &self,
            seat: $crate::game::Seat,
            action: $crate::game::Action,
        ) -> Result<(), $crate::game::RuleError> {
            self.validate(seat, action).map(drop)
        }

        fn set_house(&mut self, house: Option<Box<dyn $crate::game::house::HouseHooks>>) {
            self.board.house.set(house);
        }

        #[inline]
        fn owes(&self, seat: $crate::game::Seat) -> Option<$crate::game::Decision> {
            // The cards being chosen, the common case, by one comparison: the match of
            // `to_move` over every phase is a jump table, and each decision asks.
            if self.phase == Phase::Choose {
                return self.reveal.decision(Phase::Choose.to_move(), seat);
            }
            self.reveal.decision(self.to_move(), seat)
        }
    };
}
pub(crate) use board_game;
