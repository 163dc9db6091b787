//! House rules in Lua (docs/house-rules.md): a script returns a table of settings, which change
//! a variant's [`Rules`], and hooks, which the engine calls at fixed points of a game.
//!
//! [`House::load`] reads a script once: it runs the script's top level, applies the settings
//! (computing the bullheads table, if the script gives one, there and then) and validates the
//! rules. Each game then gets its hooks from [`House::new_game`], which runs the script's top
//! level again in fresh globals, so a game plays out the same whether it is the first of a
//! match or replayed alone from its record. A script with settings only has no hooks at all,
//! and the engine keeps its fast path.
//!
//! Scripts run in a sandbox ([`sandbox`]): no files, no processes, no loading code, 64 MiB of
//! memory and an instruction budget per call.

mod hooks;
pub mod sandbox;
mod settings;

use crate::game::house::{HouseHooks, HouseRules};
use crate::record::HouseScript;
use crate::rules::Rules;
use hooks::{LuaHooks, View};
use mlua::{Function, Table, Value};
use sandbox::{Sandbox, describe};
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

pub use settings::{HOOKS, SETTINGS};

/// The largest house rule script take5 reads.
pub const MAX_SCRIPT_BYTES: usize = 1 << 20;

/// A house rule script that cannot be used, with its name and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The script, as it was named to take5.
    pub script: String,
    /// What is wrong; Lua's messages start with the script's name and line.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LoadError {}

/// A script's names: as given to take5, and as Lua's messages show it.
#[derive(Debug)]
pub(crate) struct Script {
    pub name: String,
    /// Lua's "printable" name, which starts its messages (`name`, or its end if it is long).
    pub short_src: String,
}

impl Script {
    /// `message` starting with the script's name (Lua's messages often have it already).
    pub fn locate(&self, message: String) -> String {
        if message.starts_with(&format!("{}:", self.short_src)) {
            message
        } else {
            format!("{}: {message}", self.short_src)
        }
    }
}

/// A loaded house rule script: its rules, and its hooks for each game.
pub struct House {
    script: Rc<Script>,
    sha256: String,
    rules: Rules,
    sandbox: Rc<Sandbox>,
    view: Rc<View>,
    /// The compiled script; each run takes its globals as the first argument.
    chunk: Function,
    /// The hooks the script defines, by [`HOOKS`] index.
    defined: [bool; HOOKS.len()],
    /// The settings the script gives.
    settings: Vec<&'static str>,
}

impl fmt::Debug for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("House")
            .field("script", &self.script.name)
            .field("sha256", &self.sha256)
            .field("hooks", &self.hooks())
            .finish_non_exhaustive()
    }
}

impl House {
    /// Loads a script over the classic rules.
    pub fn load(path: impl AsRef<Path>) -> Result<House, LoadError> {
        House::load_with(path, Rules::classic())
    }

    /// Loads a script over `defaults` (a variant's rules).
    pub fn load_with(path: impl AsRef<Path>, defaults: Rules) -> Result<House, LoadError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let source =
            crate::input::read(path, crate::input::HOUSE_SCRIPT).map_err(|e| LoadError {
                script: name.clone(),
                message: format!("cannot read {name}: {e}"),
            })?;
        House::from_source(&name, &source, defaults)
    }

    /// Loads a script from its text; `name` names it in messages.
    pub fn from_source(name: &str, source: &[u8], defaults: Rules) -> Result<House, LoadError> {
        let fail = |message: String| LoadError {
            script: name.to_string(),
            message,
        };
        let lua_fail = |e: mlua::Error| fail(format!("{name}: {}", sandbox::message(&e)));
        if source.starts_with(b"\x1bLua") {
            return Err(fail(format!(
                "{name}: is Lua bytecode; house rules must be Lua source"
            )));
        }
        if source.len() > MAX_SCRIPT_BYTES {
            return Err(fail(format!(
                "{name}: is larger than {} KiB, the most a house rule script may be",
                MAX_SCRIPT_BYTES >> 10
            )));
        }
        let sandbox = Sandbox::new(name).map_err(lua_fail)?;
        let chunk = sandbox
            .compile(name, source)
            .map_err(|e| fail(sandbox.compile_error(name, source, &e)))?;
        let script = Rc::new(Script {
            name: name.to_string(),
            short_src: chunk.info().short_src.unwrap_or_else(|| name.to_string()),
        });
        let located =
            |e: mlua::Error| fail(script.locate(sandbox.message_of(&e, &script.short_src)));
        sandbox.begin_read();
        let read = run(&sandbox, &chunk)
            .map_err(located)?
            .map_err(|got| fail(script.locate(got)))
            .and_then(|returned| {
                settings::read(&sandbox, &returned, defaults).map_err(|problem| {
                    let problem = settings::with_line(&script.short_src, source, problem);
                    fail(script.locate(problem))
                })
            });
        sandbox.end_read();
        let (rules, defined, settings) = read?;
        let view = View::new(&sandbox, &rules.deck).map_err(located)?;
        Ok(House {
            sha256: sha256_hex(source),
            script,
            rules,
            sandbox: Rc::new(sandbox),
            view: Rc::new(view),
            chunk,
            defined,
            settings,
        })
    }

    /// The script, as it was named to take5.
    pub fn script(&self) -> &str {
        &self.script.name
    }

    /// The SHA-256 of the script's text, in lowercase hex.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// The rules: the defaults with the script's settings applied.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether the script suits `variant`: every setting it gives must be one of the variant's
    /// (a script for the circle game's `red` cards is refused for classic, naming the setting
    /// and the variant), and so must every hook it defines (the shared hooks are called by every
    /// variant, a variant's own hooks by that variant only).
    pub fn check_variant(&self, variant: crate::variants::Variant) -> Result<(), String> {
        match self
            .settings
            .iter()
            .find_map(|s| settings::foreign(s, variant))
        {
            Some(why) => Err(format!("{}: {why}", self.script())),
            None => self.check_variant_hooks(variant),
        }
    }

    /// Whether every hook the script defines is called in `variant` (a variant's own hooks are
    /// refused for the others, naming the hook and its variant).
    fn check_variant_hooks(&self, variant: crate::variants::Variant) -> Result<(), String> {
        let mut defined = HOOKS.iter().zip(self.defined).filter(|(_, d)| *d);
        match defined.find_map(|(&hook, _)| hooks::foreign(hook, variant)) {
            Some(why) => Err(format!("{}: {why}", self.script())),
            None => Ok(()),
        }
    }

    /// The names of the hooks the script defines.
    pub fn hooks(&self) -> Vec<&'static str> {
        HOOKS
            .iter()
            .zip(self.defined)
            .filter(|(_, d)| *d)
            .map(|(h, _)| h.name())
            .collect()
    }

    /// What a record's header says of this script, with `path` as the header should give it
    /// (see [`path_for_record`]).
    pub fn for_record(&self, path: String) -> HouseScript {
        HouseScript {
            path,
            sha256: self.sha256.clone(),
        }
    }

    /// One game's hooks: the script's top level runs again in fresh globals, so nothing a
    /// previous game left behind is seen. `None` when the script defines no hook.
    pub fn new_game(&self) -> Result<Option<Box<dyn HouseHooks>>, LoadError> {
        if !self.defined.contains(&true) {
            return Ok(None);
        }
        let fail = |message: String| LoadError {
            script: self.script.name.clone(),
            message: self.script.locate(message),
        };
        let returned = run(&self.sandbox, &self.chunk)
            .map_err(|e| fail(sandbox::message(&e)))?
            .map_err(fail)?;
        let mut hooks: [Option<Function>; HOOKS.len()] = Default::default();
        let mut callers: [Option<Function>; HOOKS.len()] = Default::default();
        let mut row_taken = None;
        for (i, (slot, caller)) in hooks.iter_mut().zip(&mut callers).enumerate() {
            if self.defined[i] {
                let name = HOOKS[i].name();
                let value: Value = returned
                    .raw_get(name)
                    .map_err(|e| fail(sandbox::message(&e)))?;
                match value {
                    Value::Function(f) => {
                        let lua_fail = |e| fail(sandbox::message(&e));
                        if i == hooks::ROW_TAKEN {
                            let hook = self.sandbox.row_taken(&f).map_err(lua_fail)?;
                            row_taken = Some(RefCell::new(hook));
                        } else {
                            *caller = Some(self.sandbox.caller(name, &f).map_err(lua_fail)?);
                        }
                        *slot = Some(f);
                    }
                    other => {
                        return Err(fail(format!(
                            "hook {name} must be a function, got {} (the second run of the \
                             script gave something else than the first)",
                            describe(&other)
                        )));
                    }
                }
            }
        }
        Ok(Some(Box::new(LuaHooks {
            row_taken,
            script: self.script.clone(),
            sandbox: self.sandbox.clone(),
            view: self.view.clone(),
            hooks,
            callers,
        })))
    }
}

impl HouseRules for House {
    fn new_game(&self) -> Result<Option<Box<dyn HouseHooks>>, String> {
        House::new_game(self).map_err(|e| e.message)
    }
}

/// Runs the script's top level in fresh globals; `Err` inside when it returns no table.
fn run(sandbox: &Sandbox, chunk: &Function) -> Result<Result<Table, String>, mlua::Error> {
    Ok(match sandbox.run(chunk)? {
        Value::Table(table) => Ok(table),
        other => Err(format!(
            "the script must return a table of settings and hooks, it returned {}",
            describe(&other)
        )),
    })
}

/// The SHA-256 of `bytes` in hex, as results and records name a file by it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How a record written to `record` names `script`: relative to the record's folder, so the
/// two can move together (absolute when no relative path exists).
pub fn path_for_record(script: &Path, record: &Path) -> String {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let script = absolute(script);
    let folder = absolute(record)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let relative = relative_path(&script, &folder).unwrap_or(script);
    relative.to_string_lossy().replace('\\', "/")
}

/// `path` relative to `base`, both absolute and free of `..` (else `None`).
fn relative_path(path: &Path, base: &Path) -> Option<PathBuf> {
    let plain = |p: &Path| {
        p.components()
            .all(|c| !matches!(c, Component::ParentDir | Component::CurDir))
    };
    if !plain(path) || !plain(base) {
        return None;
    }
    let (mut to, mut from) = (path.components().peekable(), base.components().peekable());
    if to.peek() != from.peek() {
        return None; // another root or drive
    }
    while let (Some(a), Some(b)) = (to.peek(), from.peek()) {
        if a != b {
            break;
        }
        to.next();
        from.next();
    }
    let mut relative: PathBuf = from.map(|_| Component::ParentDir).collect();
    relative.extend(to);
    Some(relative)
}

/// Loads the house rules a record's header names, for re-checking the record (`take5 verify`):
/// the script's path is relative to the record's folder, and its text must still have the hash
/// the record gives.
pub fn load_for_record(script: &HouseScript, record_dir: &Path) -> Result<House, LoadError> {
    load_for_record_with(script, record_dir, Rules::classic())
}

/// [`load_for_record`] over `defaults`, the rules of the record's variant (the script's
/// settings change those, as they did when the game was played).
pub fn load_for_record_with(
    script: &HouseScript,
    record_dir: &Path,
    defaults: Rules,
) -> Result<House, LoadError> {
    let path = record_dir.join(&script.path);
    let house = House::load_with(&path, defaults)?;
    if house.sha256 != script.sha256 {
        return Err(LoadError {
            script: house.script.name.clone(),
            message: format!(
                "{}: the script is not the one the record was played with: its sha256 differs \
                 from the record's (the file's is {}, the record's is {})",
                house.script.name, house.sha256, script.sha256
            ),
        });
    }
    Ok(house)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_for_records() {
        let rel = |p: &str, b: &str| relative_path(Path::new(p), Path::new(b)).unwrap();
        assert_eq!(rel("/a/b/c.lua", "/a/b"), Path::new("c.lua"));
        assert_eq!(rel("/a/s/c.lua", "/a/r"), Path::new("../s/c.lua"));
        assert_eq!(rel("/s/c.lua", "/r/x"), Path::new("../../s/c.lua"));
        assert!(relative_path(Path::new("/a/../c.lua"), Path::new("/a")).is_none());
    }

    #[test]
    fn the_hash_is_sha256() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
