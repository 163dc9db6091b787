//! The Lua state a house rule script runs in: only the table, string, math, utf8 and coroutine
//! libraries, no way to load code or reach the machine, a memory limit, and an instruction
//! budget for each call (the script's top level, each `bullheads` call, each hook call).
//!
//! The budget is counted by a global count hook, so it also fires inside coroutines (a hook set
//! with `set_hook` is per thread and would not). Once a call's budget is spent, every further
//! tick raises the error again and the sandbox's `pcall`, `xpcall` and `coroutine.resume`
//! re-raise it, so no script can catch its way past the budget.

use mlua::chunk::ChunkMode;
use mlua::state::{GcGenParams, GcMode};
use mlua::{
    Error, Function, HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState, ffi, prelude::*,
};
use std::cell::Cell;
use std::ffi::c_int;
use std::rc::Rc;

/// Memory a script's Lua state may hold.
pub const MEMORY_LIMIT: usize = 64 << 20;

/// Lua instructions one call may run (about 0.05 s in a release build).
pub const INSTRUCTION_BUDGET: u64 = 10_000_000;

/// The budget is checked every this many instructions.
const BUDGET_STEP: u32 = 1000;

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
}

#[derive(Default)]
struct Budget {
    used: Cell<u64>,
    spent: Cell<bool>,
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
        let budget = Rc::new(Budget::default());
        let counter = budget.clone();
        lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(BUDGET_STEP),
            move |_, debug| {
                let used = counter.used.get() + u64::from(BUDGET_STEP);
                counter.used.set(used);
                if used <= INSTRUCTION_BUDGET {
                    return Ok(VmState::Continue);
                }
                counter.spent.set(true);
                let source = debug.source();
                let at = match (source.short_src, debug.current_line()) {
                    (Some(src), Some(line)) => format!("{src}:{line}: "),
                    _ => String::new(),
                };
                Err(Error::runtime(format!(
                    "{at}instruction budget exceeded ({INSTRUCTION_BUDGET} Lua instructions per \
                     call; an endless loop?)"
                )))
            },
        )?;
        let flag = budget.clone();
        let spent = lua.create_function(move |_, ()| Ok(flag.spent.get()))?;
        let name = script.to_string();
        let write = lua.create_function(move |_, text: LuaString| {
            eprintln!("{name}: {}", text.to_string_lossy());
            Ok(())
        })?;
        // A fresh budget (all of it) for the prelude.
        let exports: Table = lua
            .load(PRELUDE)
            .set_name("=take5 sandbox")
            .set_mode(ChunkMode::Text)
            .call((spent, write))?;
        Ok(Sandbox {
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
        self.budget.spent.set(false);
    }

    /// Hook `name` (`hook`), wrapped for calls from take5: its caller from sandbox.lua, called
    /// with the view first; or for `row_taken`, which runs at every take, [`call_row_taken`]
    /// holding the hook and the view.
    pub fn caller(&self, name: &str, hook: &Function) -> Result<Function, Error> {
        if name == "row_taken" {
            // SAFETY: the closure takes its two upvalues from the stack, where `exec_raw` put
            // them, and leaves itself as the one result.
            return unsafe {
                self.lua.exec_raw((hook, &self.view), |state| {
                    ffi::lua_pushcclosure(state, call_row_taken, 2);
                })
            };
        }
        let wrap: Function = self.callers.raw_get(name)?;
        wrap.call(hook)
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

/// Calls a `row_taken` hook (the closure's first upvalue) as `hook(t, seat, row, cards,
/// bullheads)`, with the view (the second upvalue) as `t`, given `seat, row, bullheads` and the
/// cards as arguments. The `cards` sequence is made here rather than by a Lua caller, which
/// would cost a Lua call, varargs and a table grown to size, all of its instructions counted by
/// the budget's hook.
///
/// Errors (the hook's, the budget's, memory) unwind through this frame to the protected call
/// take5 made; it owns nothing that needs dropping.
unsafe extern "C-unwind" fn call_row_taken(state: *mut ffi::lua_State) -> c_int {
    const SEAT: c_int = 1;
    const ROW: c_int = 2;
    const BULLHEADS: c_int = 3;
    const FIRST_CARD: c_int = 4;
    // SAFETY: Lua calls this with its arguments on the stack and room for LUA_MINSTACK (20)
    // more values; it pushes 6 at most.
    unsafe {
        let cards = (ffi::lua_gettop(state) - FIRST_CARD + 1).max(0);
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(2));
        ffi::lua_pushvalue(state, SEAT);
        ffi::lua_pushvalue(state, ROW);
        ffi::lua_createtable(state, cards, 0);
        for i in 1..=cards {
            ffi::lua_pushvalue(state, FIRST_CARD - 1 + i);
            ffi::lua_rawseti(state, -2, ffi::lua_Integer::from(i));
        }
        ffi::lua_pushvalue(state, BULLHEADS);
        ffi::lua_call(state, 5, 1);
    }
    1
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
