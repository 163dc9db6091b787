//! A script's settings, read once at load and applied to a variant's default [`Rules`].

use super::sandbox::{self, Sandbox, describe};
use crate::cards::{Deck, classic_bullheads};
use crate::game::house::{Hook, MAX_ROUNDS};
use crate::rules::{Draft, GameEnd, Rules, RulesError, Ties};
use crate::variants::Variant;
use mlua::{Function, Table, Value};

/// The settings a script may give, in the order they are applied.
pub const SETTINGS: [&str; 12] = [
    "deck",
    "bullheads",
    "rows",
    "row_capacity",
    "hand_size",
    "min_players",
    "max_players",
    "target_score",
    "rounds",
    "ties",
    "draft",
    "red",
];

/// The hooks a script may define.
pub const HOOKS: [Hook; Hook::ALL.len()] = Hook::ALL;

/// Why a script's table cannot be used; the caller adds the script's name.
pub type Problem = String;

/// Reads the table a script returned: the rules it makes of `defaults`, and which hooks it
/// defines (by [`HOOKS`] index).
pub fn read(
    sandbox: &Sandbox,
    returned: &Table,
    defaults: Rules,
) -> Result<(Rules, [bool; HOOKS.len()], Vec<&'static str>), Problem> {
    let mut hooks = [false; HOOKS.len()];
    let mut given: Vec<(&'static str, Value)> = Vec::new();
    for pair in returned.pairs::<Value, Value>() {
        let (key, value) = pair.map_err(|e| sandbox::message(&e))?;
        let name = match &key {
            Value::String(s) => s.to_string_lossy(),
            other => {
                return Err(format!(
                    "the returned table has a key {}; settings and hooks are named, e.g. `rows = 5`",
                    describe(other)
                ));
            }
        };
        if let Some(i) = HOOKS.iter().position(|h| h.name() == name) {
            if !value.is_function() {
                return Err(format!(
                    "hook {name} must be a function, got {}",
                    describe(&value)
                ));
            }
            hooks[i] = true;
        } else if let Some(&setting) = SETTINGS.iter().find(|&&s| s == name) {
            given.push((setting, value));
        } else {
            return Err(format!(
                "unknown setting `{name}` (settings: {}; hooks: {})",
                SETTINGS.join(", "),
                HOOKS.map(Hook::name).join(", ")
            ));
        }
    }
    given.sort_by_key(|(name, _)| SETTINGS.iter().position(|s| s == name));
    let names = given.iter().map(|(name, _)| *name).collect();
    let mut rules = defaults;
    let mut end_setting = None;
    for (name, value) in given {
        let fail = |problem: String| format!("setting {name}: {problem}");
        match name {
            "deck" => rules.deck = deck(&rules.deck, &value).map_err(fail)?,
            "bullheads" => bullheads(sandbox, &mut rules.deck, value).map_err(fail)?,
            "rows" => rules.rows = count(&value, 1).map_err(fail)?,
            "row_capacity" => rules.row_capacity = count(&value, 1).map_err(fail)?,
            "hand_size" => rules.hand_size = count(&value, 1).map_err(fail)?,
            "min_players" => rules.min_players = count(&value, 1).map_err(fail)?,
            "max_players" => rules.max_players = count(&value, 1).map_err(fail)?,
            "target_score" | "rounds" => {
                if let Some(other) = end_setting {
                    return Err(format!(
                        "settings {other} and {name}: give one of them (the game ends by score or \
                         after a number of rounds)"
                    ));
                }
                end_setting = Some(name);
                rules.end = if name == "rounds" {
                    GameEnd::Rounds(whole(&value, 1, i64::from(MAX_ROUNDS)).map_err(|e| {
                        fail(format!("{e} (a game has at most {MAX_ROUNDS} rounds)"))
                    })? as u32)
                } else {
                    GameEnd::TargetScore(whole(&value, 1, i64::from(i32::MAX)).map_err(fail)? as u32)
                };
            }
            "ties" => rules.ties = ties(&value).map_err(fail)?,
            "draft" => rules.draft = draft(&value).map_err(fail)?,
            "red" => rules.deck.red = red(sandbox, &rules.deck, value).map_err(fail)?,
            _ => unreachable!("every setting is handled"),
        }
    }
    rules
        .validate()
        .map_err(|e| explain(e, end_setting.unwrap_or("target_score")))?;
    Ok((rules, hooks, names))
}

/// A rule check that failed, named by the script's settings.
fn explain(error: RulesError, end_setting: &str) -> Problem {
    match error.setting {
        "end" => format!("setting {end_setting}: {}", error.problem),
        "players" | "deck" if error.problem.contains("need") => format!(
            "settings deck, hand_size, rows and max_players do not fit together: {} (lower \
             max_players, hand_size or rows, or give a larger deck)",
            error.problem
        ),
        setting => format!("setting {setting}: {}", error.problem),
    }
}

/// A whole number in `min..=max` (a float with no fraction counts: Lua's `/` makes floats).
fn whole(value: &Value, min: i64, max: i64) -> Result<i64, String> {
    let n = match *value {
        Value::Integer(i) => i,
        Value::Number(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i64,
        _ => return Err(format!("must be a whole number, got {}", describe(value))),
    };
    if n < min {
        Err(format!("must be at least {min}, got {n}"))
    } else if n > max {
        Err(format!("must be at most {max}, got {n}"))
    } else {
        Ok(n)
    }
}

/// A count of rows, cards or players.
fn count(value: &Value, min: i64) -> Result<usize, String> {
    whole(value, min, i64::from(u16::MAX)).map(|n| n as usize)
}

fn deck(current: &Deck, value: &Value) -> Result<Deck, String> {
    let Value::Table(table) = value else {
        return Err(format!(
            "must be a table like {{lowest = 1, highest = 104}}, got {}",
            describe(value)
        ));
    };
    let mut lowest = i64::from(current.lowest);
    let mut highest = i64::from(current.highest());
    for pair in table.pairs::<Value, Value>() {
        let (key, value) = pair.map_err(|e| sandbox::message(&e))?;
        match &key {
            Value::String(s) if s == "lowest" => {
                lowest = whole(&value, 1, i64::from(u16::MAX)).map_err(|e| format!("lowest {e}"))?
            }
            Value::String(s) if s == "highest" => {
                highest =
                    whole(&value, 1, i64::from(u16::MAX)).map_err(|e| format!("highest {e}"))?
            }
            other => {
                return Err(format!(
                    "unknown field {} (a deck has lowest and highest)",
                    describe(other)
                ));
            }
        }
    }
    if highest < lowest {
        return Err(format!(
            "highest ({highest}) must be at least lowest ({lowest})"
        ));
    }
    // Cards keep their printed bullheads unless the `bullheads` setting says otherwise.
    Ok(Deck {
        lowest: lowest as u16,
        bullheads: (lowest..=highest)
            .map(|n| classic_bullheads(n as u16))
            .collect(),
        red: Vec::new(),
    })
}

fn bullheads(sandbox: &Sandbox, deck: &mut Deck, value: Value) -> Result<(), String> {
    let range = || format!("{} to {}", deck.lowest, deck.highest());
    match value {
        Value::Table(table) => {
            let mut given = Vec::new();
            for pair in table.pairs::<Value, Value>() {
                let (key, value) = pair.map_err(|e| sandbox::message(&e))?;
                let card = whole(&key, 0, i64::from(u16::MAX))
                    .map_err(|e| format!("a key {e} (keys are card numbers)"))?
                    as u16;
                if !deck.contains(crate::cards::Card(card)) {
                    return Err(format!("card {card} is not in the deck ({})", range()));
                }
                let n = whole(&value, 0, 255).map_err(|e| format!("card {card} {e}"))?;
                given.push((card, n as u8));
            }
            for (card, n) in given {
                deck.bullheads[usize::from(card - deck.lowest)] = n;
            }
            Ok(())
        }
        Value::Function(f) => {
            for card in deck.lowest..=deck.highest() {
                let n = call(sandbox, &f, card)?;
                if let Some(n) = n {
                    deck.bullheads[usize::from(card - deck.lowest)] = n;
                }
            }
            Ok(())
        }
        other => Err(format!(
            "must be a table {{[card] = bullheads, ...}} or a function(card), got {}",
            describe(&other)
        )),
    }
}

/// The circle game's red cards: a list `{5, 10, ...}` of card numbers, or a `function(card)`
/// answering whether the card's bullheads are red. Sorted, each card once.
fn red(sandbox: &Sandbox, deck: &Deck, value: Value) -> Result<Vec<crate::cards::Card>, String> {
    let mut red = Vec::new();
    match value {
        Value::Table(table) => {
            for item in table.sequence_values::<Value>() {
                let item = item.map_err(|e| sandbox::message(&e))?;
                let card = whole(&item, 0, i64::from(u16::MAX))
                    .map_err(|e| format!("a card {e} (the list holds card numbers)"))?
                    as u16;
                if !deck.contains(crate::cards::Card(card)) {
                    return Err(format!(
                        "card {card} is not in the deck ({} to {})",
                        deck.lowest,
                        deck.highest()
                    ));
                }
                red.push(crate::cards::Card(card));
            }
        }
        Value::Function(f) => {
            for card in deck.cards() {
                sandbox.reset();
                let answer: Value = f
                    .call(card.0)
                    .map_err(|e| format!("{} (card {card})", sandbox::message(&e)))?;
                match answer {
                    Value::Boolean(true) => red.push(card),
                    Value::Boolean(false) | Value::Nil => {}
                    other => {
                        return Err(format!(
                            "the function's answer for card {card} must be true or false, got {}",
                            describe(&other)
                        ));
                    }
                }
            }
        }
        other => {
            return Err(format!(
                "must be a list {{card, ...}} or a function(card) answering true or false, got {}",
                describe(&other)
            ));
        }
    }
    red.sort_unstable();
    red.dedup();
    Ok(red)
}

/// Calls a `bullheads` function for one card (with a budget of its own).
fn call(sandbox: &Sandbox, f: &Function, card: u16) -> Result<Option<u8>, String> {
    sandbox.reset();
    let value: Value = f
        .call(card)
        .map_err(|e| format!("{} (card {card})", sandbox::message(&e)))?;
    if value.is_nil() {
        return Ok(None);
    }
    let n =
        whole(&value, 0, 255).map_err(|e| format!("the function's answer for card {card} {e}"))?;
    Ok(Some(n as u8))
}

fn draft(value: &Value) -> Result<Draft, String> {
    match value {
        Value::String(s) if s == "seat_order" => Ok(Draft::SeatOrder),
        Value::String(s) if s == "snake" => Ok(Draft::Snake),
        other => Err(format!(
            "must be \"seat_order\" or \"snake\", got {}",
            describe(other)
        )),
    }
}

fn ties(value: &Value) -> Result<Ties, String> {
    match value {
        Value::String(s) if s == "shared" => Ok(Ties::Shared),
        Value::String(s) if s == "fewest_in_last_round" => Ok(Ties::FewestInLastRound),
        other => Err(format!(
            "must be \"shared\" or \"fewest_in_last_round\", got {}",
            describe(other)
        )),
    }
}

/// Why `setting` is not one of `variant`'s, if it is not: `draft` is the Pro variant's, `red`
/// the circle game's, and the circle game deals by player count and plays one round, so it has
/// no `rows`, `hand_size`, `target_score`, `rounds` or `ties`.
pub fn foreign(setting: &str, variant: Variant) -> Option<String> {
    let why = match (setting, variant) {
        ("draft", Variant::Pro) | ("red", Variant::Circle) => return None,
        ("draft", _) => "it is the pro variant's (its draft order); other variants deal",
        ("red", _) => "it is the circle game's (its red bullheads)",
        ("rows" | "hand_size", Variant::Circle) => {
            "the circle game deals its hands and rows by the number of players"
        }
        ("target_score" | "rounds" | "ties", Variant::Circle) => {
            "the circle game is one round and the highest score wins"
        }
        _ => return None,
    };
    Some(format!(
        "setting {setting} is not a setting of the {} variant: {why}",
        variant.name()
    ))
}
