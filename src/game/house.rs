//! Where house rules step into a game. The engine calls these hooks only when a game has
//! them; each has a default that keeps the printed rules, so an implementation (a Lua script,
//! see `crate::house`) overrides only what it defines.

use super::{Points, RuleError, Seat};
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

/// The table as a hook sees it, from a game's fields `rules`, `round`, `turn`, `hands`, `rows`,
/// `piles` (or the field given), `taken` and `scores`. A macro, so the fields stay borrowed
/// apart from the game's [`Hooks`], which the call borrows mutably.
macro_rules! table_view {
    ($game:expr) => {
        $crate::game::house::table_view!($game, piles: piles)
    };
    ($game:expr, piles: $piles:ident) => {
        $crate::game::house::TableView {
            rules: &$game.rules,
            round: $game.round,
            turn: $game.turn,
            hands: &$game.hands,
            rows: &$game.rows,
            piles: &$game.$piles,
            taken: &$game.taken,
            scores: &$game.scores,
        }
    };
}
pub(crate) use table_view;

/// The most rounds a game has: it is over after this round whatever its rules, settings or
/// hooks say (a `game_over` that always answers `false`, a target no one reaches).
pub const MAX_ROUNDS: u32 = 100;

/// A game's house rule hooks, if it has any, and the shared moments they are called at: every
/// variant holds one and calls it where its rules reach the moment (a row taken, a low card, the
/// end of a round), so the calls, their checks and their errors live here once.
///
/// Engines whose steps cannot fail (a take that returns nothing) use the `latch_` forms: an
/// error is kept, the rules' answer used, and the engine's `apply` (or `deal`) returns the error
/// through [`Hooks::check`] when the action is done; the game cannot go on from there.
#[derive(Debug, Default)]
pub struct Hooks {
    hooks: Option<Box<dyn HouseHooks>>,
    failed: Option<RuleError>,
}

impl Hooks {
    pub fn set(&mut self, hooks: Option<Box<dyn HouseHooks>>) {
        self.hooks = hooks;
        self.failed = None;
    }

    /// The first error a `latch_` call kept, if any (then the game is stopped).
    #[inline(always)]
    pub fn check(&mut self) -> Result<(), RuleError> {
        match self.failed.take() {
            None => Ok(()),
            Some(error) => Err(error),
        }
    }

    fn latch<T>(&mut self, result: Result<T, RuleError>, default: T) -> T {
        match result {
            Ok(value) => value,
            Err(error) => {
                self.failed.get_or_insert(error);
                default
            }
        }
    }

    /// [`Hooks::row_taken`], an error kept.
    #[inline]
    pub fn latch_row_taken(
        &mut self,
        table: &TableView,
        seat: Seat,
        row: usize,
        cards: &[Card],
        bullheads: Points,
    ) -> Points {
        if self.hooks.is_none() {
            return bullheads;
        }
        let cost = self.row_taken(table, seat, row, cards, bullheads);
        self.latch(cost, bullheads)
    }

    /// [`Hooks::low_card`], an error kept.
    #[inline]
    pub fn latch_low_card(&mut self, table: &TableView, seat: Seat, card: Card) -> Option<usize> {
        self.hooks.as_ref()?;
        let row = self.low_card(table, seat, card);
        self.latch(row, None)
    }

    /// [`Hooks::end_round`], an error kept (the game is then over).
    pub fn latch_end_round(
        &mut self,
        table: &TableView,
        penalties: &mut [Points],
        totals: &mut [Points],
        over_by_rules: impl FnOnce(&[Points]) -> bool,
    ) -> bool {
        let over = self.end_round(table, penalties, totals, over_by_rules);
        self.latch(over, true)
    }

    /// Keeps a house rule error of `hook` found by the engine (an answer its rules cannot use).
    pub fn latch_error(&mut self, hook: Hook, round: u32, turn: u32, message: String) {
        self.failed
            .get_or_insert(error_at(hook, round, turn, message));
    }

    /// [`add_seat_points`], an error kept.
    #[inline]
    pub fn latch_add(&mut self, total: &mut Points, seat: Seat, points: i64, at: (Hook, u32, u32)) {
        let added = add_seat_points(total, seat, points, at);
        self.latch(added, ());
    }

    /// Whether the game has hooks (without them every call below returns the rules' answer at
    /// once).
    #[inline(always)]
    pub fn any(&self) -> bool {
        self.hooks.is_some()
    }

    /// What taking `row` (its `cards`, worth `bullheads`) costs `seat`: the rules' `bullheads`,
    /// or what `row_taken` says. The row is still in `table.rows`.
    #[inline]
    pub fn row_taken(
        &mut self,
        table: &TableView,
        seat: Seat,
        row: usize,
        cards: &[Card],
        bullheads: Points,
    ) -> Result<Points, RuleError> {
        match &mut self.hooks {
            None => Ok(bullheads),
            Some(hooks) => hooks
                .row_taken(table, seat, row, cards, bullheads)
                .map_err(|why| error(Hook::RowTaken, table, why)),
        }
    }

    /// The row `seat`'s low `card` takes if `low_card` chooses one (checked against the table's
    /// rows), else `None`: the player chooses.
    #[inline(never)]
    pub fn low_card(
        &mut self,
        table: &TableView,
        seat: Seat,
        card: Card,
    ) -> Result<Option<usize>, RuleError> {
        let Some(hooks) = &mut self.hooks else {
            return Ok(None);
        };
        match hooks.low_card(table, seat, card) {
            Ok(Some(row)) if row >= table.rows.len() => Err(error(
                Hook::LowCard,
                table,
                format!("chose row {row}; rows are 0 to {}", table.rows.len() - 1),
            )),
            Ok(answer) => Ok(answer),
            Err(why) => Err(error(Hook::LowCard, table, why)),
        }
    }

    /// The end of a round, the same for every variant: `round_end` may change the `penalties`
    /// (by seat), which are then added to `totals` (the totals before the round, checked: a total
    /// beyond the points a seat can hold is a house rule error), and the game is over when
    /// `game_over` says so, else when `over_by_rules(totals)` does, and in any case after
    /// [`MAX_ROUNDS`]. `table` is the table as the round left it.
    pub fn end_round(
        &mut self,
        table: &TableView,
        penalties: &mut [Points],
        totals: &mut [Points],
        over_by_rules: impl FnOnce(&[Points]) -> bool,
    ) -> Result<bool, RuleError> {
        if let Some(hooks) = &mut self.hooks {
            hooks
                .round_end(table, penalties)
                .map_err(|why| error(Hook::RoundEnd, table, why))?;
        }
        add_points(totals, penalties).map_err(|why| error(Hook::RoundEnd, table, why))?;
        let by_rules = over_by_rules(totals);
        let by_house = match &mut self.hooks {
            None => None,
            Some(hooks) => {
                let after = TableView {
                    scores: totals,
                    ..*table
                };
                hooks
                    .game_over(&after, totals)
                    .map_err(|why| error(Hook::GameOver, table, why))?
            }
        };
        Ok(by_house.unwrap_or(by_rules) || table.round >= MAX_ROUNDS)
    }
}

/// `points` added to `to`, seat by seat, checked: `Err` names the seat whose total overflows.
pub fn add_points(to: &mut [Points], points: &[Points]) -> Result<(), String> {
    for (seat, (total, &add)) in to.iter_mut().zip(points).enumerate() {
        *total = total.checked_add(add).ok_or_else(|| {
            format!(
                "seat {seat}'s total {total} and {add} more overflow the points a seat can hold \
                 ({} to {})",
                Points::MIN,
                Points::MAX
            )
        })?;
    }
    Ok(())
}

/// `points` added to `seat`'s `total` in round `round` turn `turn`, checked: an overflow is a
/// house rule error of `hook` (only house rules make points that large).
#[inline]
pub fn add_seat_points(
    total: &mut Points,
    seat: Seat,
    points: i64,
    (hook, round, turn): (Hook, u32, u32),
) -> Result<(), RuleError> {
    match Points::try_from(i64::from(*total) + points) {
        Ok(sum) => {
            *total = sum;
            Ok(())
        }
        Err(_) => Err(error_at(
            hook,
            round,
            turn,
            format!(
                "seat {seat} has {total} points this round and {points} more overflow the points a \
                 seat can hold ({} to {})",
                Points::MIN,
                Points::MAX
            ),
        )),
    }
}

fn error(hook: Hook, table: &TableView, message: String) -> RuleError {
    error_at(hook, table.round, table.turn, message)
}

fn error_at(hook: Hook, round: u32, turn: u32, message: String) -> RuleError {
    RuleError::House(Box::new(HouseError {
        hook,
        round,
        turn,
        message,
    }))
}
