//! Where house rules step into a game. The engine calls these hooks only when a game has
//! them; each has a default that keeps the printed rules, so an implementation (a Lua script,
//! see `crate::house`) overrides only what it defines.

use super::{Points, RuleError, Seat};
use crate::cards::{Card, Special};
use crate::rules::Rules;
use std::fmt;

/// The whole table as the engine holds it, every hand included: what a hook's [`TableView`] is
/// made from (see [`Table::seen_by`]). Engines build it with [`table_view!`].
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
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

impl<'a> Table<'a> {
    /// The table as `seat` could see it (its own hand, and what is public: rows, piles, points,
    /// scores); `None` for a hook about every seat (`round_end`, `game_over`), which sees no
    /// hand.
    #[inline]
    pub fn seen_by(&self, seat: Option<Seat>) -> TableView<'a> {
        TableView {
            rules: self.rules,
            round: self.round,
            turn: self.turn,
            seats: self.hands.len(),
            seat,
            hand: seat.and_then(|s| self.hands.get(s)).map(Vec::as_slice),
            rows: self.rows,
            piles: self.piles,
            taken: self.taken,
            scores: self.scores,
        }
    }
}

/// A read-only look at the table for a hook, as the seat the hook concerns could see it: that
/// seat's own hand and the public table (rows, piles, points, scores), never another seat's
/// hand; a hook about every seat (`round_end`, `game_over`) sees no hand at all.
#[derive(Clone, Copy, Debug)]
pub struct TableView<'a> {
    pub rules: &'a Rules,
    pub round: u32,
    pub turn: u32,
    /// How many seats play.
    pub seats: usize,
    /// The seat the hook concerns, if it concerns one.
    pub seat: Option<Seat>,
    /// That seat's hand, lowest first.
    pub hand: Option<&'a [Card]>,
    pub rows: &'a [Vec<Card>],
    /// Cards taken this round, by seat.
    pub piles: &'a [Vec<Card>],
    /// Points taken this round, by seat.
    pub taken: &'a [Points],
    /// Totals from the rounds before this one, by seat.
    pub scores: &'a [Points],
}

/// The hooks, by name (as scripts and errors call them): the shared moments of every variant
/// (`low_card` to `game_over`), then the variants' own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    LowCard,
    RowTaken,
    RoundEnd,
    GameOver,
    /// Take a Number: a card sent to a seat's #-row.
    HashRow,
    /// Take a Number: a seat's #-row sent to its #-pile.
    HashPile,
    /// The anniversary variant: a special card played.
    SpecialPlayed,
    /// The anniversary variant: a swap of special cards.
    Swap,
    /// The circle game: a row collected (it leaves the circle), with its special cards.
    RowCollected,
    /// The circle game: a seat's final score.
    FinalScore,
    /// The Pro variant: a pick of the draft.
    DraftPick,
}

/// What a variant's own hook may answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Nothing: the hook only observes (it must return nil).
    Nothing,
    /// Whole points (or nil, which keeps the rules' points).
    Points,
}

impl Hook {
    /// Every hook, in the order scripts' hook lists give them.
    pub const ALL: [Hook; 11] = [
        Hook::LowCard,
        Hook::RowTaken,
        Hook::RoundEnd,
        Hook::GameOver,
        Hook::HashRow,
        Hook::HashPile,
        Hook::SpecialPlayed,
        Hook::Swap,
        Hook::RowCollected,
        Hook::FinalScore,
        Hook::DraftPick,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Hook::LowCard => "low_card",
            Hook::RowTaken => "row_taken",
            Hook::RoundEnd => "round_end",
            Hook::GameOver => "game_over",
            Hook::HashRow => "hash_row",
            Hook::HashPile => "hash_pile",
            Hook::SpecialPlayed => "special_played",
            Hook::Swap => "swap",
            Hook::RowCollected => "row_collected",
            Hook::FinalScore => "final_score",
            Hook::DraftPick => "draft_pick",
        }
    }

    /// What a variant's own hook may answer (`None` for the shared hooks, which have their own
    /// methods).
    pub fn answer(self) -> Option<Answer> {
        match self {
            Hook::LowCard | Hook::RowTaken | Hook::RoundEnd | Hook::GameOver => None,
            Hook::HashRow | Hook::HashPile | Hook::FinalScore => Some(Answer::Points),
            Hook::SpecialPlayed | Hook::Swap | Hook::RowCollected | Hook::DraftPick => {
                Some(Answer::Nothing)
            }
        }
    }
}

/// An argument of a variant's own hook, after the view and the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg<'a> {
    /// A number (a card, a row, points).
    Number(i64),
    /// Cards, as a sequence.
    Cards(&'a [Card]),
    /// A special card, by its name in records.
    Special(Special),
    /// Special cards, as a sequence of their names.
    Specials(&'a [Special]),
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

    /// A variant's own moment `hook` ([`Hook::answer`] is `Some`) concerning `seat`, with
    /// `args`: `Some(points)` where the hook may answer points and does, else `None`.
    fn moment(
        &mut self,
        _table: &TableView,
        _hook: Hook,
        _seat: Seat,
        _args: &[Arg],
    ) -> HookResult<Option<Points>> {
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

/// The whole table (a [`Table`]), from a game's fields `rules`, `round`, `turn`, `hands`, `rows`,
/// `piles` (or the field given), `taken` and `scores`. A macro, so the fields stay borrowed
/// apart from the game's [`Hooks`], which the call borrows mutably.
macro_rules! table_view {
    ($game:expr) => {
        $crate::game::house::table_view!($game, piles: piles)
    };
    ($game:expr, piles: $piles:ident) => {
        $crate::game::house::Table {
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
/// A failing hook is the error of the step that called it, in every variant: the engine
/// returns it at once (`?`), and the game cannot go on from there (the state may be half-way
/// through the step; the events before the failure are reported).
#[derive(Debug, Default)]
pub struct Hooks {
    hooks: Option<Box<dyn HouseHooks>>,
}

/// A copy of a game plays by the rules' settings alone: the hooks live in an interpreter and
/// are not copied (a game's copies are for search, see [`crate::game::model::Model`]), so a copy
/// of `Hooks` has none.
impl Clone for Hooks {
    fn clone(&self) -> Hooks {
        Hooks::default()
    }
}

impl Hooks {
    pub fn set(&mut self, hooks: Option<Box<dyn HouseHooks>>) {
        self.hooks = hooks;
    }

    /// Whether the game has hooks (without them every call below returns the rules' answer at
    /// once).
    #[inline(always)]
    pub fn any(&self) -> bool {
        self.hooks.is_some()
    }

    /// Calls `hook` through `call` with the table as `seat` sees it (`None`: a hook about every
    /// seat), if the game has hooks; else `default` (the rules' answer).
    #[inline]
    fn call<T>(
        &mut self,
        hook: Hook,
        table: &Table,
        seat: Option<Seat>,
        default: T,
        call: impl FnOnce(&mut dyn HouseHooks, &TableView) -> HookResult<T>,
    ) -> Result<T, RuleError> {
        match &mut self.hooks {
            None => Ok(default),
            Some(hooks) => call(hooks.as_mut(), &table.seen_by(seat))
                .map_err(|why| error_at(hook, table.round, table.turn, why)),
        }
    }

    /// What `seat` taking `row` (its `cards`, still in `table.rows`, worth `bullheads` by the
    /// rules) costs: `row_taken`'s answer, else `bullheads`.
    #[inline]
    pub fn row_taken(
        &mut self,
        table: &Table,
        seat: Seat,
        row: usize,
        cards: &[Card],
        bullheads: Points,
    ) -> Result<Points, RuleError> {
        self.call(Hook::RowTaken, table, Some(seat), bullheads, |h, t| {
            h.row_taken(t, seat, row, cards, bullheads)
        })
    }

    /// [`Hooks::row_taken`] for engines that count a take's points elsewhere (Take a Number's
    /// hand and #-row, the circle game's pile): what the hook answers beyond `printed` is added
    /// to `extra` (the seat's points from house rules). Returns the points the take is worth.
    pub fn row_taken_extra(
        &mut self,
        table: &Table,
        (seat, row, cards): (Seat, usize, &[Card]),
        printed: Points,
        extra: &mut Points,
    ) -> Result<Points, RuleError> {
        let worth = self.row_taken(table, seat, row, cards, printed)?;
        add_extra(table, Hook::RowTaken, seat, extra, worth, printed)?;
        Ok(worth)
    }

    /// A variant's own moment `hook` that only observes ([`Answer::Nothing`]), about `seat`,
    /// with `args` (after the view and the seat).
    pub fn observe(
        &mut self,
        table: &Table,
        hook: Hook,
        seat: Seat,
        args: &[Arg],
    ) -> Result<(), RuleError> {
        debug_assert_eq!(hook.answer(), Some(Answer::Nothing));
        self.call(hook, table, Some(seat), None, |h, t| {
            h.moment(t, hook, seat, args)
        })?;
        Ok(())
    }

    /// A variant's own moment `hook` that answers points ([`Answer::Points`]), about `seat`, with
    /// `args`: `printed` (the rules' points) or the hook's answer, whose difference from
    /// `printed` is added to `extra`, the seat's points from house rules. Returns the points.
    pub fn points(
        &mut self,
        table: &Table,
        (hook, seat): (Hook, Seat),
        args: &[Arg],
        printed: Points,
        extra: &mut Points,
    ) -> Result<Points, RuleError> {
        debug_assert_eq!(hook.answer(), Some(Answer::Points));
        let answer = self.call(hook, table, Some(seat), None, |h, t| {
            h.moment(t, hook, seat, args)
        })?;
        let worth = answer.unwrap_or(printed);
        add_extra(table, hook, seat, extra, worth, printed)?;
        Ok(worth)
    }

    /// The row `seat`'s low `card` takes if `low_card` chooses one (checked against the table's
    /// rows), else `None`: the player chooses.
    #[inline(never)]
    pub fn low_card(
        &mut self,
        table: &Table,
        seat: Seat,
        card: Card,
    ) -> Result<Option<usize>, RuleError> {
        let row = self.call(Hook::LowCard, table, Some(seat), None, |h, t| {
            h.low_card(t, seat, card)
        })?;
        match row {
            Some(row) if row >= table.rows.len() => Err(error_at(
                Hook::LowCard,
                table.round,
                table.turn,
                format!("chose row {row}; rows are 0 to {}", table.rows.len() - 1),
            )),
            answer => Ok(answer),
        }
    }

    /// The end of a round, the same for every variant: `round_end` may change the `penalties`
    /// (by seat), which are then added to `totals` (the totals before the round, checked: a total
    /// beyond the points a seat can hold is a house rule error), and the game is over when
    /// `game_over` says so, else when `over_by_rules(totals)` does, and in any case after
    /// [`MAX_ROUNDS`]. `table` is the table as the round left it; neither hook sees a hand.
    pub fn end_round(
        &mut self,
        table: &Table,
        penalties: &mut [Points],
        totals: &mut [Points],
        over_by_rules: impl FnOnce(&[Points]) -> bool,
    ) -> Result<bool, RuleError> {
        self.call(Hook::RoundEnd, table, None, (), |h, t| {
            h.round_end(t, penalties)
        })?;
        add_points(totals, penalties)
            .map_err(|why| error_at(Hook::RoundEnd, table.round, table.turn, why))?;
        let by_rules = over_by_rules(totals);
        let after = Table {
            scores: totals,
            ..*table
        };
        let by_house = self.call(Hook::GameOver, &after, None, None, |h, t| {
            h.game_over(t, totals)
        })?;
        Ok(by_house.unwrap_or(by_rules) || table.round >= MAX_ROUNDS)
    }

    /// [`Hooks::end_round`] from the table's `taken` (the penalties) and `scores`: the round's
    /// penalties and the new totals, and whether the game is over.
    pub fn close_round(
        &mut self,
        table: &Table,
        over_by_rules: impl FnOnce(&[Points]) -> bool,
    ) -> Result<RoundScores, RuleError> {
        let mut penalties = table.taken.to_vec();
        let mut totals = table.scores.to_vec();
        let over = self.end_round(table, &mut penalties, &mut totals, over_by_rules)?;
        Ok(RoundScores {
            penalties,
            totals,
            over,
        })
    }
}

/// What the end of a round leaves: the penalties (by seat) as the hooks left them, the new
/// totals, and whether the game is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundScores {
    pub penalties: Vec<Points>,
    pub totals: Vec<Points>,
    pub over: bool,
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
    at: (Hook, u32, u32),
) -> Result<(), RuleError> {
    match Points::try_from(i64::from(*total) + points) {
        Ok(sum) => {
            *total = sum;
            Ok(())
        }
        Err(_) => Err(points_overflow(*total, seat, points, at)),
    }
}

/// The error of [`add_seat_points`], kept out of line so that the sum inlines into every take.
#[cold]
#[inline(never)]
fn points_overflow(
    total: Points,
    seat: Seat,
    points: i64,
    (hook, round, turn): (Hook, u32, u32),
) -> RuleError {
    error_at(
        hook,
        round,
        turn,
        format!(
            "seat {seat} has {} this round and {points} more overflow the points a seat can \
             hold ({} to {})",
            crate::words::count(total, "point"),
            Points::MIN,
            Points::MAX
        ),
    )
}

/// `worth - printed` added to `extra`, `seat`'s points from house rules (an overflow is an error
/// of `hook`).
fn add_extra(
    table: &Table,
    hook: Hook,
    seat: Seat,
    extra: &mut Points,
    worth: Points,
    printed: Points,
) -> Result<(), RuleError> {
    let more = i64::from(worth) - i64::from(printed);
    add_seat_points(extra, seat, more, (hook, table.round, table.turn))
}

/// The error of house rules' `hook` at round `round` turn `turn`: `message` says what went wrong
/// (or what the engine could not use of its answer).
pub fn error_at(hook: Hook, round: u32, turn: u32, message: String) -> RuleError {
    RuleError::House(Box::new(HouseError {
        hook,
        round,
        turn,
        message,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Observing;

    impl HouseHooks for Observing {}

    #[test]
    fn a_copy_of_a_games_hooks_has_none() {
        let mut hooks = Hooks::default();
        hooks.set(Some(Box::new(Observing)));
        assert!(hooks.any());
        assert!(!hooks.clone().any());
        let mut copy = Hooks::default();
        copy.clone_from(&hooks);
        assert!(!copy.any());
    }
}
