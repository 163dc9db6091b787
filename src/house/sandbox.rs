//! The Lua state a house rule script runs in: only the table, string, math, utf8 and coroutine
//! libraries, no way to load code or reach the machine, a memory limit, and an instruction
//! budget for each call (the script's top level, each `bullheads` call, each hook call).
//!
//! The budget is counted by a global count hook, so it also fires inside coroutines (a hook set
//! with `set_hook` is per thread and would not). Once a call's budget is spent, every further
//! tick raises the error again and the sandbox's `pcall`, `xpcall` and `coroutine.resume`
//! re-raise it, so no script can catch its way past the budget.
//!
//! What the count hook cannot see is closed off or charged: `__gc` finalizers and `__close`
//! handlers (which Lua may run with hooks off) are refused by the sandbox's `setmetatable`; the
//! C functions of the string, table and utf8 libraries are charged for their work through
//! the sandbox's `charge`, and Lua patterns are matched by Lua code (sandbox.lua) so every step
//! of their backtracking is counted. The few VM instructions whose work grows with a string's
//! length (`..`, comparing long strings) are caught by a limit on the processor time a call may
//! use, checked at each tick of the count hook ([`CALL_TIME_LIMIT`]); a legitimate script meets
//! the instruction budget long before it. Reading a script has one budget in all ([`READ_BUDGET`]).

use crate::cards::Card;
use crate::visible::visible_lines;
use mlua::chunk::ChunkMode;
use mlua::state::{GcGenParams, GcMode};
use mlua::{
    Error, Function, HookTriggers, Lua, LuaOptions, RegistryKey, StdLib, Table, Value, VmState,
    ffi, prelude::*,
};
use std::cell::Cell;
use std::ffi::c_int;
use std::ptr;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Memory a script's Lua state may hold.
pub const MEMORY_LIMIT: usize = 64 << 20;

/// Lua instructions one call may run (about 0.05 s in a release build).
pub const INSTRUCTION_BUDGET: u64 = 10_000_000;

/// Lua instructions reading a script may run in all: its top level and every call of its
/// `bullheads` and `red` functions together.
pub const READ_BUDGET: u64 = 5 * INSTRUCTION_BUDGET;

/// The processor time one call may use (its thread's, so a loaded machine does not shorten it),
/// checked at each tick of the count hook: the limit for work the instruction count does not see
/// (a `..` of long strings in a loop). A legitimate call meets the instruction budget long
/// before: 10,000,000 instructions take about 0.05 s in a release build, a few times that in
/// the tests' build (its Lua is optimised too, see Cargo.toml), whose limit is 5 s.
pub const CALL_TIME_LIMIT: Duration = if cfg!(debug_assertions) {
    Duration::from_secs(5)
} else {
    Duration::from_secs(1)
};

/// How long a call runs before its processor time is counted: the limit is on what it uses
/// after that, so a call is stopped once it has used between [`CALL_TIME_LIMIT`] and this much
/// more.
const CPU_COUNTED_AFTER: Duration = Duration::from_millis(100);

/// The processor time the calling thread has used so far.
pub fn thread_cpu_time() -> Duration {
    // SAFETY: clock_gettime only fills the timespec we own.
    let t = unsafe {
        let mut t: libc::timespec = std::mem::zeroed();
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t);
        t
    };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The budget is checked every this many instructions.
const BUDGET_STEP: u32 = 1000;

/// Lua's name for the sandbox's own code (sandbox.lua), which messages skip to the script.
const PRELUDE_NAME: &str = "take5 sandbox";

const PRELUDE: &str = include_str!("sandbox.lua");

/// A sandboxed Lua state and what take5 needs from its prelude.
pub(crate) struct Sandbox {
    pub lua: Lua,
    budget: Rc<Budget>,
    /// Runs a compiled script's top level in fresh globals.
    run: Function,
    /// The table view hooks get, and what resets it between calls (see sandbox.lua).
    pub view: Table,
    pub forget: Function,
    pub set_view: Function,
    /// By hook name, a function that wraps the hook for calls from take5.
    pub callers: Table,
    /// The state's main thread, for [`Sandbox::call_row_taken`].
    main: *mut ffi::lua_State,
    /// The view in the registry, for [`Sandbox::call_row_taken`].
    view_key: RegistryKey,
    /// [`new_cards`], which makes a game's `cards` table for `row_taken`.
    new_cards: Function,
}

/// A game's `row_taken` hook, as [`Sandbox::call_row_taken`] calls it: the hook and the
/// `cards` table it is given, both in the registry. The table is refilled at each call: the
/// last call's cards are overwritten and any past the new count cleared, so no table is made
/// and none is left for the collector (a fresh table per call cost about a third of a call).
/// Its metatable's `__newindex` ([`let_go`]) takes itself off the table when a script adds a
/// key to it: a table without that metatable is the script's, and a fresh one takes its place.
pub(crate) struct RowTaken {
    hook: RegistryKey,
    cards: RegistryKey,
    /// The metatable that marks `cards` as take5's (kept alive here, compared by address).
    watch: Table,
    watch_at: *const std::ffi::c_void,
    /// Slots in the table's array part: the cards a call may write without the table growing.
    room: usize,
    /// How many cards the last call left in the table.
    last: usize,
}

/// How a raw `row_taken` call went: it ended with a status, or it needs its `cards` table made
/// afresh or grown first.
enum Raw {
    Ended(c_int),
    Fresh,
    Grow,
}

/// Slots in a fresh `cards` table: a classic row and the card that takes it, with room to spare.
const CARDS_ROOM: usize = 8;

/// Where [`Sandbox::call_row_taken`] leaves an answer or error it cannot read itself, for mlua
/// to read.
const RAW_RESULT: &str = "take5 raw result";
const RAW_RESULT_C: &std::ffi::CStr = c"take5 raw result";

struct Budget {
    /// Instructions the running call has used.
    used: Cell<u64>,
    /// Instructions counted since [`Sandbox::begin_read`]; limited by `total_limit`.
    total: Cell<u64>,
    total_limit: Cell<u64>,
    /// When the running call's first tick came (`None` before it).
    clock: Cell<Option<Instant>>,
    /// The thread's processor time once the running call has taken [`CPU_COUNTED_AFTER`] (`None`
    /// before): read then, not at the first tick, so that the short calls of every game make no
    /// system call for it.
    cpu_mark: Cell<Option<Duration>>,
    /// The script's line at the running call's last tick (0: none yet), for errors that come
    /// without one (running out of memory).
    line: Cell<usize>,
    spent: Cell<bool>,
}

impl Budget {
    /// Counts `n` instructions; what is exceeded, if anything.
    fn count(&self, n: u64) -> Option<String> {
        let used = self.used.get().saturating_add(n);
        self.used.set(used);
        let total = self.total.get().saturating_add(n);
        self.total.set(total);
        let why = if used > INSTRUCTION_BUDGET {
            format!(
                "instruction budget exceeded ({INSTRUCTION_BUDGET} Lua instructions per call; an \
                 endless loop?)"
            )
        } else if total > self.total_limit.get() {
            format!(
                "reading the script ran more than {READ_BUDGET} Lua instructions in all (its top \
                 level and its bullheads and red functions together)"
            )
        } else {
            let Some(start) = self.clock.get() else {
                self.clock.set(Some(Instant::now()));
                return None;
            };
            // The processor time is read (a system call) only in calls that have run a while.
            if start.elapsed() <= CPU_COUNTED_AFTER {
                return None;
            }
            let now = thread_cpu_time();
            let Some(mark) = self.cpu_mark.get() else {
                self.cpu_mark.set(Some(now));
                return None;
            };
            if now.saturating_sub(mark) <= CALL_TIME_LIMIT {
                return None;
            }
            format!(
                "time limit exceeded (a call may use {} s of processor time; long strings in a \
                 loop?)",
                CALL_TIME_LIMIT.as_secs()
            )
        };
        self.spent.set(true);
        Some(why)
    }
}

/// Where the running script is, as `name:line: `: the innermost frame of the script's own code
/// from stack level `from` on (the sandbox's frames and C functions are skipped); empty if
/// there is none.
pub(crate) fn script_at(lua: &Lua, from: usize) -> String {
    for level in from..from + 64 {
        let found = lua.inspect_stack(level, |debug| {
            let source = debug.source();
            match (source.short_src, debug.current_line()) {
                (Some(src), Some(line)) if src != PRELUDE_NAME => Some(format!("{src}:{line}: ")),
                _ => None,
            }
        });
        match found {
            None => break,
            Some(Some(at)) => return at,
            Some(None) => {}
        }
    }
    String::new()
}

impl Sandbox {
    /// A fresh state; `script` names the script in what it prints.
    pub fn new(script: &str) -> Result<Sandbox, Error> {
        let lua = Lua::new_with(
            StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE,
            LuaOptions::default(),
        )?;
        lua.set_memory_limit(MEMORY_LIMIT)?;
        // Hooks make short-lived tables (a `row_taken` call its `cards`), which a generational
        // collector frees in its minor collections without going over the rest of the heap.
        lua.gc_set_mode(GcMode::Generational(GcGenParams::default()));
        let budget = Rc::new(Budget {
            used: Cell::new(0),
            total: Cell::new(0),
            total_limit: Cell::new(u64::MAX),
            clock: Cell::new(None),
            cpu_mark: Cell::new(None),
            line: Cell::new(0),
            spent: Cell::new(false),
        });
        let counter = budget.clone();
        lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(BUDGET_STEP),
            move |lua, debug| match counter.count(u64::from(BUDGET_STEP)) {
                None => {
                    if debug.source().short_src.as_deref() != Some(PRELUDE_NAME) {
                        counter.line.set(debug.current_line().unwrap_or(0));
                    }
                    Ok(VmState::Continue)
                }
                // Level 0 is the function the hook interrupted.
                Some(why) => Err(Error::runtime(format!("{}{why}", script_at(lua, 0)))),
            },
        )?;
        let flag = budget.clone();
        let spent = lua.create_function(move |_, ()| Ok(flag.spent.get()))?;
        let meter = budget.clone();
        let charge =
            lua.create_function(move |lua, n: i64| match meter.count(n.max(0) as u64) {
                None => Ok(()),
                Some(why) => Err(Error::runtime(format!("{}{why}", script_at(lua, 1)))),
            })?;
        let name = script.to_string();
        let write = lua.create_function(move |_, text: LuaString| {
            eprintln!("{name}: {}", visible_lines(&text.to_string_lossy()));
            Ok(())
        })?;
        // A fresh budget (all of it) for the prelude.
        let exports: Table = lua
            .load(PRELUDE)
            .set_name(format!("={PRELUDE_NAME}"))
            .set_mode(ChunkMode::Text)
            .call((spent, write, charge))?;
        let main = Cell::new(std::ptr::null_mut());
        // SAFETY: the closure only reads the state's address.
        unsafe { lua.exec_raw::<()>((), |state| main.set(state))? };
        // The key exists from here on, so setting it never allocates (see `call_row_taken`).
        lua.set_named_registry_value(RAW_RESULT, false)?;
        Ok(Sandbox {
            main: main.get(),
            view_key: lua.create_registry_value(exports.get::<Table>("view")?)?,
            // SAFETY: `new_cards` is a C function of the Lua C API's kind (below).
            new_cards: unsafe { lua.create_c_function(new_cards)? },
            run: exports.get("run")?,
            view: exports.get("view")?,
            forget: exports.get("forget")?,
            set_view: exports.get("set_view")?,
            callers: exports.get("callers")?,
            budget,
            lua,
        })
    }

    /// Gives the next call its whole instruction budget.
    #[inline]
    pub fn reset(&self) {
        self.budget.used.set(0);
        self.budget.clock.set(None);
        self.budget.cpu_mark.set(None);
        self.budget.line.set(0);
        self.budget.spent.set(false);
    }

    /// [`message`] for an error of the last call of the script whose messages start with
    /// `short_src`: running out of memory, which Lua reports without a line, is placed at the
    /// script's line at the call's last tick of the count hook (if it had one).
    pub fn message_of(&self, error: &Error, short_src: &str) -> String {
        let text = message(error);
        match (error, self.budget.line.get()) {
            (Error::MemoryError(_), line) if line > 0 => format!("{short_src}:{line}: {text}"),
            _ => text,
        }
    }

    /// Starts reading a script: from here until [`Sandbox::end_read`], all calls together may
    /// run [`READ_BUDGET`] instructions.
    pub fn begin_read(&self) {
        self.budget.total.set(0);
        self.budget.total_limit.set(READ_BUDGET);
    }

    /// The script is read: calls have their own budgets only.
    pub fn end_read(&self) {
        self.budget.total_limit.set(u64::MAX);
    }

    /// Hook `name` (`hook`), wrapped for calls from take5: its caller from sandbox.lua, called
    /// with the view first (`row_taken`, which runs at every take, is called by
    /// [`Sandbox::call_row_taken`] instead).
    pub fn caller(&self, name: &str, hook: &Function) -> Result<Function, Error> {
        // The hooks without a wrapper (low_card and the variants' own) are called as they are.
        match self.callers.raw_get::<Option<Function>>(name)? {
            Some(wrap) => wrap.call(hook),
            None => Ok(hook.clone()),
        }
    }

    /// A game's `row_taken` hook for [`Sandbox::call_row_taken`], with a `cards` table and a
    /// metatable of its own (nothing a script does to them reaches the next game).
    pub fn row_taken(&self, hook: &Function) -> Result<RowTaken, Error> {
        let (cards, watch): (Table, Table) = self.new_cards.call(CARDS_ROOM)?;
        Ok(RowTaken {
            hook: self.lua.create_registry_value(hook)?,
            cards: self.lua.create_registry_value(cards)?,
            watch_at: watch.to_pointer(),
            watch,
            room: CARDS_ROOM,
            last: 0,
        })
    }

    /// Calls a game's `row_taken` hook as `hook(t, seat, row, cards, bullheads)` through Lua's
    /// C API rather than mlua's `Function::call`: the hook, the view and the arguments go
    /// straight onto the stack, the `cards` table is refilled in place, and a number comes back
    /// without a conversion (a call per take, where mlua's checks, its error handler and its
    /// value conversions cost about a tenth of the call, and a caller of its own, in C or Lua,
    /// a call level more). What it cannot read itself (an error, an answer that is not a number)
    /// is read through mlua.
    pub fn call_row_taken(
        &self,
        hook: &mut RowTaken,
        (seat, row, bullheads): (i64, i64, i64),
        cards: &[Card],
    ) -> Result<Value, Error> {
        let state = self.main;
        let count = cards.len();
        loop {
            // SAFETY: `main` is the state's main thread, and no Lua code runs while take5 calls a
            // hook (hooks are called from the engine, never from Lua), so its stack is take5's to
            // use above its top, which is restored before returning. Nothing here can raise a Lua
            // error outside the protected call: `lua_checkstack` answers 0 instead; pushing
            // numbers and registry values allocates nothing; `cards` is written only while it
            // carries the watch metatable and the cards fit its array part (`room`), so no
            // write makes it grow (a script that adds a key takes the metatable off first, see
            // `let_go`; removing keys never shrinks a table); and setting the registry's result
            // key, which exists, allocates nothing either.
            let status = unsafe {
                let top = ffi::lua_gettop(state);
                if ffi::lua_checkstack(state, 7) == 0 {
                    return Err(Error::runtime("the Lua stack cannot grow for a hook call"));
                }
                let registry_get = |key: &RegistryKey| {
                    ffi::lua_rawgeti(
                        state,
                        ffi::LUA_REGISTRYINDEX,
                        ffi::lua_Integer::from(key.id()),
                    )
                };
                registry_get(&hook.hook);
                registry_get(&self.view_key);
                ffi::lua_pushinteger(state, seat);
                ffi::lua_pushinteger(state, row);
                registry_get(&hook.cards);
                let table = ffi::lua_gettop(state);
                let watched = ffi::lua_getmetatable(state, table) != 0
                    && ffi::lua_topointer(state, -1) == hook.watch_at;
                if !watched || count > hook.room {
                    ffi::lua_settop(state, top);
                    if watched { Raw::Grow } else { Raw::Fresh }
                } else {
                    ffi::lua_settop(state, table);
                    for (i, card) in (1..).zip(cards) {
                        ffi::lua_pushinteger(state, ffi::lua_Integer::from(card.0));
                        ffi::lua_rawseti(state, table, i);
                    }
                    for i in count + 1..=hook.last {
                        ffi::lua_pushnil(state);
                        ffi::lua_rawseti(state, table, i as ffi::lua_Integer);
                    }
                    hook.last = count;
                    ffi::lua_pushinteger(state, bullheads);
                    let status = ffi::lua_pcall(state, 5, 1, 0);
                    let mut is_integer = 0;
                    let answer = match (status, ffi::lua_type(state, -1)) {
                        (ffi::LUA_OK, ffi::LUA_TNIL) => Some(Value::Nil),
                        (ffi::LUA_OK, ffi::LUA_TNUMBER) => {
                            let i = ffi::lua_tointegerx(state, -1, &mut is_integer);
                            Some(if is_integer != 0 {
                                Value::Integer(i)
                            } else {
                                Value::Number(ffi::lua_tonumberx(state, -1, ptr::null_mut()))
                            })
                        }
                        _ => None,
                    };
                    if answer.is_none() {
                        ffi::lua_setfield(state, ffi::LUA_REGISTRYINDEX, RAW_RESULT_C.as_ptr());
                    }
                    ffi::lua_settop(state, top);
                    if let Some(answer) = answer {
                        return Ok(answer);
                    }
                    Raw::Ended(status)
                }
            };
            // What allocates is done through mlua, which protects it; then the call again.
            match status {
                Raw::Ended(status) => return self.raw_result(status),
                // The table is the script's now: a fresh one.
                Raw::Fresh => {
                    let room = count.max(CARDS_ROOM);
                    let (fresh, _): (Table, Table) = self.new_cards.call((room, &hook.watch))?;
                    self.lua.replace_registry_value(&mut hook.cards, fresh)?;
                    hook.room = room;
                    hook.last = 0;
                }
                // More cards than the table has room for (a house rule's long rows): every key
                // up to `count` is set before the table grows, so the rehash that makes room
                // keeps all of them (a rehash drops keys whose value is nil), and writing them
                // later adds none.
                Raw::Grow => {
                    let table: Table = self.lua.registry_value(&hook.cards)?;
                    for i in 1..=count {
                        table.raw_set(i, 0)?;
                    }
                    hook.room = count;
                    hook.last = count;
                }
            }
        }
    }

    /// What a raw call ([`Sandbox::call_row_taken`]) ending with `status` left in the
    /// registry's result key: its answer or its error.
    fn raw_result(&self, status: c_int) -> Result<Value, Error> {
        let result: Value = self.lua.named_registry_value(RAW_RESULT)?;
        self.lua.set_named_registry_value(RAW_RESULT, false)?;
        match (status, result) {
            (ffi::LUA_OK, answer) => Ok(answer),
            (_, Value::Error(error)) => Err(*error),
            (ffi::LUA_ERRMEM, other) => Err(Error::MemoryError(describe(&other))),
            (_, Value::String(s)) => Err(Error::RuntimeError(s.to_string_lossy())),
            (_, other) => Err(Error::RuntimeError(describe(&other))),
        }
    }

    /// Runs `chunk` (from [`Sandbox::compile`]) in a fresh global table, with a whole budget.
    pub fn run(&self, chunk: &Function) -> Result<Value, Error> {
        self.reset();
        self.run.call(chunk)
    }

    /// Compiles a script (text only: bytecode is refused). Its top level sees `_ENV` as the
    /// first argument of each call, so every run gets its own globals and its own closures.
    pub fn compile(&self, name: &str, source: &[u8]) -> Result<Function, Error> {
        // `local _ENV = ...` on the first line keeps the script's line numbers.
        let mut text = b"local _ENV = ...; ".to_vec();
        text.extend_from_slice(source);
        self.lua
            .load(text)
            .set_name(format!("@{name}"))
            .set_mode(ChunkMode::Text)
            .set_environment(self.lua.create_table()?)
            .into_function()
    }
}

impl Sandbox {
    /// A compile error of `source` as a user should read it, with the script's name and line.
    /// Lua's syntax errors carry them; the parser's "C stack overflow" and running out of memory
    /// do not, so the line is found as the first one at which compiling the script's first lines
    /// fails the same way (a binary search, a few compiles).
    pub fn compile_error(&self, name: &str, source: &[u8], error: &Error) -> String {
        let message = message(error);
        let lines: Vec<usize> = std::iter::once(0)
            .chain(
                source
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .chain(std::iter::once(source.len()))
            .collect();
        if message.starts_with(&format!("{name}:")) || lines.len() < 2 {
            return message;
        }
        let fails_by = |line: usize| {
            let end = lines[line.min(lines.len() - 1)];
            match self.compile(name, &source[..end]) {
                Err(e) => self::message(&e) == message,
                Ok(_) => false,
            }
        };
        // The smallest count of lines (1 to all) whose compile fails with `message`.
        let (mut low, mut high) = (1, lines.len() - 1);
        if !fails_by(high) {
            return format!("{name}: {message}");
        }
        while low < high {
            let mid = (low + high) / 2;
            if fails_by(mid) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        format!("{name}:{low}: {message}")
    }
}

/// `new_cards(room [, watch])`: a `cards` table for [`Sandbox::call_row_taken`], with `room`
/// slots in its array part, and its metatable: `watch` if given (a table that replaces one the
/// script took), else a fresh one whose `__newindex` is [`let_go`]. One C call rather than the
/// several calls through mlua (each a protected call of its own) it would take; a game starts
/// with it.
unsafe extern "C-unwind" fn new_cards(state: *mut ffi::lua_State) -> c_int {
    const ROOM: c_int = 1;
    const WATCH: c_int = 2;
    const CARDS: c_int = 3;
    // SAFETY: Lua calls this with `room [, watch]` on the stack (take5 does, through mlua) and
    // room for LUA_MINSTACK (20) more values; it pushes 3 beyond them at most.
    unsafe {
        ffi::lua_settop(state, 2);
        let room = ffi::lua_tointegerx(state, ROOM, ptr::null_mut());
        ffi::lua_createtable(state, c_int::try_from(room).unwrap_or(0), 0);
        if ffi::lua_type(state, WATCH) != ffi::LUA_TTABLE {
            ffi::lua_createtable(state, 0, 1);
            ffi::lua_pushcfunction(state, let_go);
            ffi::lua_setfield(state, -2, c"__newindex".as_ptr());
            ffi::lua_replace(state, WATCH);
        }
        ffi::lua_pushvalue(state, WATCH);
        ffi::lua_setmetatable(state, CARDS);
        ffi::lua_pushvalue(state, WATCH);
    }
    2
}

/// `__newindex(t, key, value)` of the `cards` table [`Sandbox::call_row_taken`] refills: a
/// script adds a key (a card past the last, a key of its own), so the table is the script's
/// from now on: its metatable goes, and the key is set as without it.
unsafe extern "C-unwind" fn let_go(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: Lua calls this with `t, key, value` on the stack.
    unsafe {
        ffi::lua_settop(state, 3);
        ffi::lua_pushnil(state);
        ffi::lua_setmetatable(state, 1);
        ffi::lua_rawset(state, 1);
    }
    0
}

/// What went wrong in Lua, as a user should read it: the message with the script's name and
/// line where Lua gave them, without Lua's stack traceback.
pub(crate) fn message(error: &Error) -> String {
    match error {
        Error::SyntaxError { message, .. } => message.clone(),
        Error::RuntimeError(message) => strip_traceback(message),
        Error::MemoryError(_) => format!(
            "not enough memory (a house rule script may use {} MiB)",
            MEMORY_LIMIT >> 20
        ),
        Error::CallbackError { cause, .. } => message(cause),
        Error::WithContext { cause, .. } => message(cause),
        other => strip_traceback(&other.to_string()),
    }
}

fn strip_traceback(message: &str) -> String {
    match message.find("\nstack traceback:") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

/// How a Lua value reads in an error message.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{:?}", s.to_string_lossy()),
        other => format!("a {}", other.type_name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lua code that runs every pattern function over pairs of subjects and patterns and
    /// returns the results as one string (errors as their message without a position).
    const PROBE: &str = r#"
local subjects = { "", "a", "hello world", "  key = value  ", "aaa", "x(y(z))w", "THE (quick) fox",
  "one, two,, three", "caf\195\169 42 -7.5e3", "[[nested]] %d", "abcabcabc", "\0zero\0" }
local patterns = { "", "a", "^a", "a$", "o", "%a+", "%d+", "[%a_][%w_]*", "(%w+)%s*=%s*(%w+)",
  "%s*(.-)%s*$", "()", "()a()", "%b()", "%f[%w]%w+", "[^,]*", ",,", ".-", ".-b", "a*", "a-",
  "a?b", "(a)(b)(c)%3%2%1", "(abc)%1", "[%]]", "[a-c]+", "[^%s]+", "%%", "%", "[a", "(a",
  "a)", "%1", "%g+", "%p", "%u%l+", "%x+", "%c", "[%d.-]+", "^$", "$", "%z", "((a)b)" }
local out = {}
local function add(...)
  local parts = table.pack(...)
  for i = 1, parts.n do
    parts[i] = tostring(parts[i])
  end
  out[#out + 1] = table.concat(parts, ",", 1, parts.n)
end
local function try(f, ...)
  local results = table.pack(pcall(f, ...))
  if not results[1] then
    add("error", (tostring(results[2]):gsub("^[^:]*:%d+: ", "")))
  else
    add(table.unpack(results, 2, results.n))
  end
end
for _, s in ipairs(subjects) do
  for _, p in ipairs(patterns) do
    try(string.find, s, p)
    try(string.find, s, p, 3)
    try(string.find, s, p, -2)
    try(string.match, s, p)
    try(string.gsub, s, p, "<%0>")
    try(string.gsub, s, p, "%%", 2)
    try(string.gsub, s, p, { a = "A", hello = 1 })
    try(string.gsub, s, p, function(c) if c == "" then return false end return #c end)
    try(function()
      local found = {}
      for a, b in string.gmatch(s, p) do
        found[#found + 1] = tostring(a) .. "/" .. tostring(b)
      end
      return table.concat(found, ";")
    end)
  end
end
return table.concat(out, "\n")
"#;

    #[test]
    fn the_lua_pattern_matcher_answers_as_the_c_one() {
        let plain = Lua::new();
        let reference: LuaString = plain.load(PROBE).set_name("@probe.lua").eval().unwrap();
        let reference = reference.to_string_lossy();
        let sandbox = Sandbox::new("probe.lua").unwrap();
        let chunk = sandbox.compile("probe.lua", PROBE.as_bytes()).unwrap();
        let Value::String(ours) = sandbox.run(&chunk).unwrap() else {
            panic!("a string")
        };
        let ours = ours.to_string_lossy();
        let (ours, reference): (Vec<&str>, Vec<&str>) =
            (ours.lines().collect(), reference.lines().collect());
        assert_eq!(ours.len(), reference.len());
        for (i, (a, b)) in ours.iter().zip(&reference).enumerate() {
            assert_eq!(a, b, "probe line {}", i + 1);
        }
    }
}
