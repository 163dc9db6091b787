//! Where house rules step into a game. The engine calls these hooks only when a game has
//! them; each has a default that keeps the printed rules, so an implementation (a Lua script,
//! see `crate::house`) overrides only what it defines.

use super::{Points, Seat};
use crate::cards::Card;
use crate::rules::Rules;
use std::fmt;

/// A read-only look at the whole table for a hook (house rules are the referee's own code, so
/// they see everything, hands included).
#[derive(Clone, Copy, Debug)]
pub struct TableView<'a> {
    pub rules: &'a Rules,
    pub round: u32,
    pub turn: u32,
    pub hands: &'a [Vec<Card>],
    pub rows: &'a [Vec<Card>],
    /// Cards taken this round, by seat.
    pub piles: &'a [Vec<Card>],
    /// Points taken this round, by seat.
    pub taken: &'a [Points],
    /// Totals from the rounds before this one, by seat.
    pub scores: &'a [Points],
}

/// The hooks, by name (as scripts and errors call them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    LowCard,
    RowTaken,
    RoundEnd,
    GameOver,
}

impl Hook {
    pub fn name(self) -> &'static str {
        match self {
            Hook::LowCard => "low_card",
            Hook::RowTaken => "row_taken",
            Hook::RoundEnd => "round_end",
            Hook::GameOver => "game_over",
        }
    }
}

/// A hook that failed: the game cannot go on (the state may be half-way through a step).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HouseError {
    pub hook: Hook,
    pub round: u32,
    pub turn: u32,
    /// What went wrong, with the script's name and line where there is one.
    pub message: String,
}

impl fmt::Display for HouseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "house rule hook `{}` failed in round {} turn {}: {}",
            self.hook.name(),
            self.round,
            self.turn,
            self.message
        )
    }
}

/// The result of a hook: `Err` carries what went wrong; the engine adds the hook and moment.
pub type HookResult<T> = Result<T, String>;

/// House rules' hooks into a game.
pub trait HouseHooks: fmt::Debug {
    /// `seat` played `card`, lower than every row's end: the row it must take, or `None` to let
    /// the player choose.
    fn low_card(
        &mut self,
        _table: &TableView,
        _seat: Seat,
        _card: Card,
    ) -> HookResult<Option<usize>> {
        Ok(None)
    }

    /// `seat` takes `row`, holding `cards` worth `bullheads`: what taking it costs.
    fn row_taken(
        &mut self,
        _table: &TableView,
        _seat: Seat,
        _row: usize,
        _cards: &[Card],
        bullheads: Points,
    ) -> HookResult<Points> {
        Ok(bullheads)
    }

    /// The round is over; `penalties` (by seat) are about to be added to the totals and may be
    /// changed.
    fn round_end(&mut self, _table: &TableView, _penalties: &mut [Points]) -> HookResult<()> {
        Ok(())
    }

    /// After a round, with the new `totals`: `Some(true)` ends the game, `Some(false)` goes on,
    /// `None` leaves it to the rules' own end condition.
    fn game_over(&mut self, _table: &TableView, _totals: &[Points]) -> HookResult<Option<bool>> {
        Ok(None)
    }
}

/// House rules for a whole match. Each game gets its hooks afresh, so a game plays out the same
/// whether it is the first of a match or replayed alone from its record.
pub trait HouseRules: fmt::Debug {
    /// The hooks for a new game; `None` when the rules have none (settings only), which keeps
    /// the engine on its fast path.
    fn new_game(&self) -> Result<Option<Box<dyn HouseHooks>>, String>;
}
