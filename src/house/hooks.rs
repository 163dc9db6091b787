//! A script's hooks as [`HouseHooks`], and the read-only table view they are given.
//!
//! Only the hooks a script defines are held; the others return the engine's default at once,
//! without touching Lua. The view `t` is one Lua table per script whose fields are read from
//! the engine's [`TableView`] when (and only when) a hook reads them, so a hook that never looks
//! at the table costs nothing for it.

use super::Script;
use super::sandbox::{self, RowTaken, Sandbox, describe};
use super::settings::HOOKS;
use crate::cards::{Card, Deck};
use crate::game::house::{Answer, Arg, Hook, HookResult, HouseHooks, TableView};
use crate::game::{Points, Seat};
use crate::variants::Variant;
use mlua::{Error, Function, IntoLuaMulti, Lua, MultiValue, Value};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::ptr;
use std::rc::Rc;

/// One game's hooks.
pub(crate) struct LuaHooks {
    pub script: Rc<Script>,
    pub sandbox: Rc<Sandbox>,
    pub view: Rc<View>,
    /// The hook functions the script defines, by [`HOOKS`] index.
    pub hooks: [Option<Function>; HOOKS.len()],
    /// The same, wrapped for calls from take5 (see `callers` in sandbox.lua).
    pub callers: [Option<Function>; HOOKS.len()],
    /// `row_taken` as [`Sandbox::call_row_taken`] calls it.
    pub row_taken: Option<RefCell<RowTaken>>,
}

impl fmt::Debug for LuaHooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let defined: Vec<&str> = HOOKS
            .iter()
            .zip(&self.hooks)
            .filter(|(_, f)| f.is_some())
            .map(|(h, _)| h.name())
            .collect();
        f.debug_struct("LuaHooks")
            .field("script", &self.script.name)
            .field("hooks", &defined)
            .finish()
    }
}

const LOW_CARD: usize = 0;
pub(crate) const ROW_TAKEN: usize = 1;
const ROUND_END: usize = 2;
const GAME_OVER: usize = 3;
const _: () = assert!(matches!(HOOKS[GAME_OVER], Hook::GameOver));

impl LuaHooks {
    /// Calls hook `f` (wrapped by its caller in sandbox.lua) with the view first.
    #[inline]
    fn call(&self, table: &TableView, f: &Function, args: impl IntoLuaMulti) -> HookResult<Value> {
        self.call_holding_view(table, f, (&self.sandbox.view, args))
    }

    /// Calls `f`, a hook's caller that holds the view itself ([`Sandbox::caller`]), with the
    /// view readable and a fresh instruction budget.
    #[inline]
    fn call_holding_view(
        &self,
        table: &TableView,
        f: &Function,
        args: impl IntoLuaMulti,
    ) -> HookResult<Value> {
        self.enter(table, || f.call::<Value>(args))
    }

    /// Runs `call`, a call of a hook's caller, with the view readable and a fresh instruction
    /// budget.
    #[inline]
    fn enter(
        &self,
        table: &TableView,
        call: impl FnOnce() -> mlua::Result<Value>,
    ) -> HookResult<Value> {
        self.sandbox.reset();
        let slot = &self.view.slot;
        if slot.read.replace(false) {
            self.sandbox
                .forget
                .call::<()>(())
                .map_err(|e| sandbox::message(&e))?;
        }
        slot.enter(table, call).map_err(|e| {
            let message = self.sandbox.message_of(&e, &self.script.short_src);
            self.script.locate(message)
        })
    }

    /// A hook's answer that cannot be used, named with the line the hook is defined on.
    fn bad_answer(&self, hook: usize, problem: String) -> String {
        let line = self.hooks[hook]
            .as_ref()
            .and_then(|f| f.info().line_defined)
            .map(|l| format!(":{l}"))
            .unwrap_or_default();
        format!(
            "{}{line}: {} {problem}",
            self.script.short_src,
            HOOKS[hook].name()
        )
    }
}

/// Why `hook` cannot be used with `variant`, if it is another variant's own hook (such a hook
/// would never be called).
pub(crate) fn foreign(hook: Hook, variant: Variant) -> Option<String> {
    let (own, moment) = Variant::ALL.iter().find_map(|&v| {
        let hooks = v.describe().house.hooks;
        hooks
            .iter()
            .find(|(h, _)| *h == hook)
            .map(|&(_, moment)| (v, moment))
    })?;
    (own != variant).then(|| {
        format!(
            "hook {} is not a hook of the {} variant: it is the {} variant's ({moment})",
            hook.name(),
            variant.name(),
            own.name()
        )
    })
}

/// `value` as an integer in `min..=max` (a float without fraction counts).
fn whole(value: &Value, min: i64, max: i64) -> Option<i64> {
    let n = match *value {
        Value::Integer(i) => i,
        Value::Number(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i64,
        _ => return None,
    };
    (min..=max).contains(&n).then_some(n)
}

fn points(value: &Value) -> Option<Points> {
    whole(value, i64::from(Points::MIN), i64::from(Points::MAX)).map(|n| n as Points)
}

impl HouseHooks for LuaHooks {
    fn low_card(&mut self, table: &TableView, seat: Seat, card: Card) -> HookResult<Option<usize>> {
        let Some(f) = &self.callers[LOW_CARD] else {
            return Ok(None);
        };
        let answer = self.call(table, f, (seat, card.0))?;
        if answer.is_nil() {
            return Ok(None);
        }
        let rows = table.rows.len();
        match whole(&answer, 0, i64::from(u32::MAX)) {
            Some(row) if (row as usize) < rows => Ok(Some(row as usize)),
            Some(row) => Err(self.bad_answer(
                LOW_CARD,
                format!(
                    "returned row {row}; rows are numbered from 0 to {} (t.rows[1] is row 0)",
                    rows - 1
                ),
            )),
            None => Err(self.bad_answer(
                LOW_CARD,
                format!(
                    "returned {}: it must return a row number (from 0) or nil",
                    describe(&answer)
                ),
            )),
        }
    }

    fn row_taken(
        &mut self,
        table: &TableView,
        seat: Seat,
        row: usize,
        cards: &[Card],
        bullheads: Points,
    ) -> HookResult<Points> {
        let Some(hook) = &self.row_taken else {
            return Ok(bullheads);
        };
        let args = (seat as i64, row as i64, i64::from(bullheads));
        let answer = self.enter(table, || {
            (self.sandbox).call_row_taken(&mut hook.borrow_mut(), args, cards)
        })?;
        if answer.is_nil() {
            return Ok(bullheads);
        }
        points(&answer).ok_or_else(|| {
            self.bad_answer(
                ROW_TAKEN,
                format!(
                    "returned {}: it must return whole points (from {} to {}) or nil",
                    describe(&answer),
                    Points::MIN,
                    Points::MAX
                ),
            )
        })
    }

    fn round_end(&mut self, table: &TableView, penalties: &mut [Points]) -> HookResult<()> {
        let Some(f) = &self.callers[ROUND_END] else {
            return Ok(());
        };
        let answer = self.call(table, f, Numbers(penalties))?;
        let result = match answer {
            Value::Table(t) => t,
            other => {
                return Err(self.bad_answer(
                    ROUND_END,
                    format!(
                        "returned {}: it must return the penalties (a sequence, one per seat) or nil",
                        describe(&other)
                    ),
                ));
            }
        };
        let seats = penalties.len();
        if result.raw_len() != seats {
            return Err(self.bad_answer(
                ROUND_END,
                format!(
                    "gave {} for {seats} seats",
                    crate::words::count_as(result.raw_len(), "penalty", "penalties")
                ),
            ));
        }
        for (i, penalty) in penalties.iter_mut().enumerate() {
            let value: Value = result.raw_get(i + 1).map_err(|e| sandbox::message(&e))?;
            *penalty = points(&value).ok_or_else(|| {
                self.bad_answer(
                    ROUND_END,
                    format!(
                        "gave seat {i} (index {}) the penalty {}: penalties are whole points",
                        i + 1,
                        describe(&value)
                    ),
                )
            })?;
        }
        Ok(())
    }

    fn game_over(&mut self, table: &TableView, totals: &[Points]) -> HookResult<Option<bool>> {
        let Some(f) = &self.callers[GAME_OVER] else {
            return Ok(None);
        };
        match self.call(table, f, Numbers(totals))? {
            Value::Nil => Ok(None),
            Value::Boolean(over) => Ok(Some(over)),
            other => Err(self.bad_answer(
                GAME_OVER,
                format!(
                    "returned {}: it must return true, false or nil",
                    describe(&other)
                ),
            )),
        }
    }

    fn moment(
        &mut self,
        table: &TableView,
        hook: Hook,
        seat: Seat,
        args: &[Arg],
    ) -> HookResult<Option<Points>> {
        let index = HOOKS
            .iter()
            .position(|&h| h == hook)
            .expect("every hook is listed");
        let Some(f) = &self.callers[index] else {
            return Ok(None);
        };
        let answer = self.call(table, f, (seat, Args(args)))?;
        match (hook.answer(), &answer) {
            (_, Value::Nil) => Ok(None),
            (Some(Answer::Points), _) => points(&answer).map(Some).ok_or_else(|| {
                self.bad_answer(
                    index,
                    format!(
                        "returned {}: it must return whole points (from {} to {}) or nil",
                        describe(&answer),
                        Points::MIN,
                        Points::MAX
                    ),
                )
            }),
            _ => Err(self.bad_answer(
                index,
                format!(
                    "returned {}: it only observes the game, so it must return nothing (nil)",
                    describe(&answer)
                ),
            )),
        }
    }
}

/// A variant's own hook's arguments: numbers as they are, special cards by name, lists as fresh
/// sequences.
struct Args<'a>(&'a [Arg<'a>]);

impl IntoLuaMulti for Args<'_> {
    fn into_lua_multi(self, lua: &Lua) -> mlua::Result<MultiValue> {
        self.0
            .iter()
            .map(|arg| {
                Ok(match *arg {
                    Arg::Number(n) => Value::Integer(n),
                    Arg::Cards(cards) => {
                        Value::Table(lua.create_sequence_from(cards.iter().map(|c| c.0))?)
                    }
                    Arg::Special(special) => Value::String(lua.create_string(special.name())?),
                    Arg::Specials(specials) => {
                        Value::Table(lua.create_sequence_from(specials.iter().map(|s| s.name()))?)
                    }
                })
            })
            .collect()
    }
}

/// Points passed to Lua as extra arguments.
struct Numbers<'a>(&'a [Points]);

impl IntoLuaMulti for Numbers<'_> {
    #[inline]
    fn into_lua_multi(self, _: &Lua) -> mlua::Result<MultiValue> {
        Ok(self.0.iter().map(|&p| Value::Integer(p.into())).collect())
    }
}

/// The read-only table view a script's hooks get as their first argument. Its Lua side is in
/// sandbox.lua; this is where it reads the game's arrays from, during a hook call.
pub(crate) struct View {
    slot: Rc<Slot>,
}

/// Where the view's Lua side finds the engine's table during a hook call.
struct Slot {
    /// The engine's view during a hook call, else null.
    view: Cell<*const TableView<'static>>,
    /// Whether the Lua side has kept fields read during the last call.
    read: Cell<bool>,
}

impl Slot {
    /// Runs `f` with `view` readable from Lua.
    #[inline]
    fn enter<R>(&self, view: &TableView<'_>, f: impl FnOnce() -> R) -> R {
        /// Clears the slot however `f` ends.
        struct Leave<'a>(&'a Cell<*const TableView<'static>>);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                self.0.set(ptr::null());
            }
        }
        self.view.set(ptr::from_ref(view).cast());
        let _leave = Leave(&self.view);
        f()
    }

    /// Runs `f` on the engine's view, if a hook call is under way.
    fn with<R>(&self, f: impl FnOnce(&TableView<'_>) -> R) -> Option<R> {
        let view = self.view.get();
        if view.is_null() {
            return None;
        }
        // SAFETY: the slot holds a pointer only while `enter` runs, and `enter`'s caller keeps
        // the view (and all it borrows) alive and unchanged until it returns. Lua code runs only
        // inside calls take5 makes, so a Lua callback that finds the pointer set runs inside
        // `enter`. `f` cannot keep the reference: its result type does not borrow from it.
        Some(f(unsafe { &*view }))
    }
}

impl View {
    pub fn new(sandbox: &Sandbox, deck: &Deck) -> Result<View, Error> {
        let lua = &sandbox.lua;
        let slot = Rc::new(Slot {
            view: Cell::new(ptr::null()),
            read: Cell::new(false),
        });
        let from = slot.clone();
        // fetch(name): a field's value, arrays as arguments: numbers as they are, lists of cards
        // as n, len_1, ..., len_n, cards... (see `lists` in sandbox.lua).
        let fetch = lua.create_function(move |lua, name: mlua::LuaString| {
            from.read.set(true);
            let values = from.with(|view| {
                let cards = |of: &[Vec<Card>]| {
                    let total: usize = of.iter().map(Vec::len).sum();
                    let mut values = MultiValue::with_capacity(1 + of.len() + total);
                    values.push_back(Value::Integer(of.len() as i64));
                    values.extend(of.iter().map(|list| Value::Integer(list.len() as i64)));
                    values.extend(of.iter().flatten().map(|c| Value::Integer(c.0.into())));
                    values
                };
                let points = |of: &[Points]| of.iter().map(|&p| Value::Integer(p.into())).collect();
                let one = |n: i64| MultiValue::from_iter([Value::Integer(n)]);
                match &*name.as_bytes() {
                    b"round" => one(view.round.into()),
                    b"turn" => one(view.turn.into()),
                    b"seats" => one(view.seats as i64),
                    b"rows" => cards(view.rows),
                    // Whether there is a hand (a hook about one seat), then its cards.
                    b"hand" => match view.hand {
                        Some(hand) => std::iter::once(Value::Boolean(true))
                            .chain(hand.iter().map(|c| Value::Integer(c.0.into())))
                            .collect(),
                        None => MultiValue::from_iter([Value::Boolean(false)]),
                    },
                    b"piles" => cards(view.piles),
                    b"taken" => points(view.taken),
                    b"scores" => points(view.scores),
                    _ => MultiValue::new(),
                }
            });
            values.ok_or_else(|| {
                script_error(
                    lua,
                    "the table view can be read only while a hook runs".into(),
                )
            })
        })?;
        let by_card = lua.create_table_with_capacity(0, deck.len())?;
        for card in deck.cards() {
            by_card.raw_set(card.0, deck.bullheads(card))?;
        }
        let red = lua.create_table_with_capacity(0, deck.red.len())?;
        for card in &deck.red {
            red.raw_set(card.0, true)?;
        }
        sandbox
            .set_view
            .call::<()>((fetch, by_card, deck.lowest, deck.highest(), red))?;
        Ok(View { slot })
    }
}

/// An error raised by take5 on behalf of the script line that called it.
fn script_error(lua: &Lua, message: String) -> Error {
    let at = lua
        .inspect_stack(1, |debug| {
            let source = debug.source();
            match (source.short_src, debug.current_line()) {
                (Some(src), Some(line)) => format!("{src}:{line}: "),
                _ => String::new(),
            }
        })
        .unwrap_or_default();
    Error::runtime(format!("{at}{message}"))
}
