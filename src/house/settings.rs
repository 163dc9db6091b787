//! A script's settings, read once at load and applied to a variant's default [`Rules`].

use super::sandbox::{self, Sandbox, describe};
use crate::cards::Special;
use crate::cards::{Deck, classic_bullheads};
use crate::game::house::{Hook, MAX_ROUNDS};
use crate::rules::{
    AnniversaryRules, CircleDeal, CircleRules, Draft, GameEnd, NumberRules, ProRules, Rules,
    RulesError, Ties,
};
use crate::variants::Variant;
use crate::variants::registry::OwnSettings;
use mlua::{Function, Table, Value};
use std::sync::LazyLock;

/// The settings every variant reads, in the order they are applied.
const SHARED: [&str; 10] = [
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
];

/// The settings a script may give, in the order they are applied: the shared ones, then each
/// variant's own, as its description names them (docs/house-rules.md, "Settings per variant";
/// `foreign` says whose).
pub static SETTINGS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let own = Variant::ALL
        .iter()
        .flat_map(|v| v.describe().house.settings);
    let own = own.flat_map(|group| group.names.iter().copied());
    SHARED.into_iter().chain(own).collect()
});

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
                // `swap` is the anniversary's hook; the setting that allows swaps is `swapping`.
                let hint = if name == "swap" && value.is_boolean() {
                    " (to allow or forbid swaps, give the setting `swapping`)"
                } else {
                    ""
                };
                return Err(format!(
                    "hook {name} must be a function, got {}{hint}",
                    describe(&value)
                ));
            }
            hooks[i] = true;
        } else if let Some(&setting) = SETTINGS.iter().find(|&&s| s == name) {
            given.push((setting, value));
        } else {
            // Shaped as a setting's problem, so the line that gives it is named too.
            return Err(format!(
                "setting {name}: unknown{} (settings: {}; hooks: {})",
                closest(&name).map_or(String::new(), |c| format!("; did you mean `{c}`?")),
                SETTINGS.join(", "),
                HOOKS.map(Hook::name).join(", ")
            ));
        }
    }
    given.sort_by_key(|(name, _)| SETTINGS.iter().position(|s| s == name));
    // Read over a variant's own rules (as every command reads a script), another variant's
    // setting is refused before it is applied: applied, it could make no sense of these rules.
    let variant = <Variant as clap::ValueEnum>::value_variants()
        .iter()
        .find(|v| v.rules() == defaults);
    let early = |v: Variant| {
        given
            .iter()
            .filter(|(s, _)| owner(s).is_some_and(|(_, own)| own.own_rules))
            .find_map(|(s, _)| foreign(s, v))
    };
    if let Some(why) = variant.and_then(|&v| early(v)) {
        return Err(why);
    }
    let names: Vec<&'static str> = given.iter().map(|(name, _)| *name).collect();
    let given_names = names.clone();
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
            "ties" => {
                let ties = [
                    ("shared", Ties::Shared),
                    ("fewest_in_last_round", Ties::FewestInLastRound),
                ];
                rules.ties = one_of(&value, &ties).map_err(fail)?
            }
            "draft" => {
                let drafts = [("seat_order", Draft::SeatOrder), ("snake", Draft::Snake)];
                rules.draft = one_of(&value, &drafts).map_err(fail)?
            }
            "red" => rules.deck.red = red(sandbox, &rules.deck, value).map_err(fail)?,
            "takes_at" => {
                if let Some(other) = given_names
                    .iter()
                    .find(|n| ["rows", "row_capacity"].contains(n))
                {
                    return Err(format!(
                        "settings {other} and takes_at: give takes_at alone (its length is the \
                         rows, its largest count less one the row capacity)"
                    ));
                }
                let takes_at = takes_at(&value).map_err(fail)?;
                rules.rows = takes_at.len();
                rules.row_capacity = takes_at.iter().max().map_or(1, |n| n - 1);
                number(&mut rules).takes_at = takes_at;
            }
            "hash_pile_multiplier" => {
                number(&mut rules).hash_pile_multiplier =
                    whole(&value, 0, 1000).map_err(fail)? as i32
            }
            "specials" => specials(anniversary(&mut rules), &value).map_err(fail)?,
            "specials_dealt" => {
                anniversary(&mut rules).specials_dealt = count(&value, 0).map_err(fail)?
            }
            "swapping" => anniversary(&mut rules).swap = boolean(&value).map_err(fail)?,
            "pro_deck" => rules.pro = Some(Box::new(pro_deck(&rules, &value).map_err(fail)?)),
            // The circle game's: other variants have no circle settings to change (and refuse
            // the script, `foreign`).
            _ => {
                if let Some(circle) = rules.circle.as_deref_mut() {
                    circle_setting(circle, name, &value).map_err(fail)?;
                }
            }
        }
    }
    // The defaults given back are no settings: left out of records as before.
    if rules
        .anniversary
        .as_deref()
        .is_some_and(|a| *a == AnniversaryRules::default())
    {
        rules.anniversary = None;
    }
    if rules.take_a_number.as_deref().is_some_and(|n| {
        n.hash_pile_multiplier == NumberRules::HASH_PILE_MULTIPLIER
            && n.takes_at == NumberRules::default_takes_at(rules.rows, rules.row_capacity)
    }) {
        rules.take_a_number = None;
    }
    if rules
        .pro
        .as_deref()
        .is_some_and(|p| (p.per_player, p.extra) == (rules.hand_size, rules.rows))
    {
        rules.pro = None;
    }
    let end_setting = end_setting.unwrap_or("target_score");
    rules
        .validate_settings()
        .map_err(|e| explain(e, end_setting))?;
    rules
        .check_players(rules.max_players)
        .map_err(|e| match e.setting {
            // The deck is too small for a full table: several settings share the blame.
            "deck" => format!(
                "settings deck, hand_size, rows and max_players do not fit together: {} (lower \
                 max_players, hand_size or rows, or give a larger deck)",
                e.problem
            ),
            _ => explain(e, end_setting),
        })?;
    Ok((rules, hooks, names))
}

/// A rule check that failed, named by the script's settings.
fn explain(error: RulesError, end_setting: &str) -> Problem {
    match error.setting {
        "end" => format!("setting {end_setting}: {}", error.problem),
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

/// The value of `choices` that `value` names.
fn one_of<T: Copy>(value: &Value, choices: &[(&str, T)]) -> Result<T, String> {
    if let Value::String(s) = value
        && let Some(&(_, choice)) = choices.iter().find(|(name, _)| s == name)
    {
        return Ok(choice);
    }
    let names: Vec<String> = choices
        .iter()
        .map(|(name, _)| format!("\"{name}\""))
        .collect();
    Err(format!(
        "must be {}, got {}",
        names.join(" or "),
        describe(value)
    ))
}

/// The variant whose own setting `setting` is, and the group it is in (docs/house-rules.md,
/// "Settings per variant").
fn owner(setting: &str) -> Option<(Variant, &'static OwnSettings)> {
    Variant::ALL
        .iter()
        .find_map(|&v| v.describe().house.setting(setting).map(|own| (v, own)))
}

/// Why `setting` is not one of `variant`'s, if it is not: another variant's own setting (the
/// circle game's `red`, the Pro variant's `draft`), or a shared one the variant has no use for
/// (the circle game deals by player count and plays one round, so it has no `rows`,
/// `hand_size`, `target_score`, `rounds` or `ties`).
pub fn foreign(setting: &str, variant: Variant) -> Option<String> {
    let why = if let Some((owner, own)) = owner(setting) {
        if owner == variant {
            return None;
        }
        format!("it is {}", own.whose)
    } else {
        let unused = variant.describe().house.unused;
        let (_, why) = unused.iter().find(|(names, _)| names.contains(&setting))?;
        why.to_string()
    };
    Some(format!(
        "setting {setting} is not a setting of the {} variant: {why}",
        variant.name()
    ))
}

/// Take a Number's own settings, made from the rules so far if the script gave none yet.
fn number(rules: &mut Rules) -> &mut NumberRules {
    let (rows, capacity) = (rules.rows, rules.row_capacity);
    rules.take_a_number.get_or_insert_with(|| {
        Box::new(NumberRules {
            takes_at: NumberRules::default_takes_at(rows, capacity),
            hash_pile_multiplier: NumberRules::HASH_PILE_MULTIPLIER,
        })
    })
}

/// The anniversary variant's own settings, the rulebook's if the script gave none yet.
fn anniversary(rules: &mut Rules) -> &mut AnniversaryRules {
    rules.anniversary.get_or_insert_with(Box::default)
}

/// Take a Number's `takes_at`: a list `{3, 4, 5}`, a card count from 2 per row.
fn takes_at(value: &Value) -> Result<Vec<usize>, String> {
    let Value::Table(table) = value else {
        return Err(format!(
            "must be a list like {{3, 4, 5}} (the card count at which each row is taken), got {}",
            describe(value)
        ));
    };
    let mut counts = Vec::new();
    for (i, item) in table.clone().sequence_values::<Value>().enumerate() {
        let item = item.map_err(|e| sandbox::message(&e))?;
        counts.push(count(&item, 2).map_err(|e| format!("row {i} (entry {}) {e}", i + 1))?);
    }
    if counts.is_empty() || table.pairs::<Value, Value>().count() != counts.len() {
        return Err("must be a non-empty list like {3, 4, 5}, one count per row".into());
    }
    Ok(counts)
}

/// The anniversary variant's `specials`: `{shift = 0, stop = 6}`, copies of each kind named
/// (the kinds left out keep their count).
fn specials(own: &mut AnniversaryRules, value: &Value) -> Result<(), String> {
    let kinds = || Special::ANNIVERSARY.map(Special::name).join(", ");
    let Value::Table(table) = value else {
        return Err(format!(
            "must be a table like {{shift = 0}} (copies of each kind: {}), got {}",
            kinds(),
            describe(value)
        ));
    };
    for pair in table.pairs::<Value, Value>() {
        let (key, value) = pair.map_err(|e| sandbox::message(&e))?;
        let kind = match &key {
            Value::String(s) => Special::from_name(&s.to_string_lossy())
                .filter(|k| Special::ANNIVERSARY.contains(k)),
            _ => None,
        };
        let Some(kind) = kind else {
            return Err(format!(
                "unknown special card {} (the anniversary variant's: {})",
                describe(&key),
                kinds()
            ));
        };
        let n = whole(&value, 0, 255).map_err(|e| format!("{kind} {e}"))? as usize;
        let slot = own.specials.iter_mut().find(|(s, _)| *s == kind);
        slot.expect("every kind is listed").1 = n;
    }
    Ok(())
}

/// The Pro variant's `pro_deck`: `{per_player = 10, extra = 4}` (either may be left out:
/// `hand_size` and `rows`).
fn pro_deck(rules: &Rules, value: &Value) -> Result<ProRules, String> {
    let Value::Table(table) = value else {
        return Err(format!(
            "must be a table like {{per_player = 11, extra = 4}} (a deck of players x per_player \
             + extra cards), got {}",
            describe(value)
        ));
    };
    let mut deck = ProRules {
        per_player: rules.hand_size,
        extra: rules.rows,
    };
    for (field, value) in named_fields(table, &["per_player", "extra"], "pro_deck has")? {
        let n =
            count(&value, i64::from(field == "per_player")).map_err(|e| format!("{field} {e}"))?;
        match field {
            "per_player" => deck.per_player = n,
            _ => deck.extra = n,
        }
    }
    Ok(deck)
}

/// One of the circle game's settings.
fn circle_setting(circle: &mut CircleRules, name: &str, value: &Value) -> Result<(), String> {
    let points = |value: &Value| whole(value, -1000, 1000).map(|n| n as i32);
    match name {
        "deal" => deal(&mut circle.deal, value)?,
        "cards_per_turn" => circle.cards_per_turn = whole(value, 1, 255)? as u8,
        "plus5_points" => circle.plus = points(value)?,
        "x2_multiplier" => circle.times = points(value)?,
        "held_penalty" => circle.held_penalty = points(value)?,
        "green_multiplier" => circle.green_multiplier = points(value)?,
        "red_multiplier" => circle.red_multiplier = points(value)?,
        _ => unreachable!("every setting is handled"),
    }
    Ok(())
}

/// The circle game's `deal`: `{[4] = {hand_size = 10, rows = 12}, ...}`, by number of players
/// (the player counts left out keep theirs).
fn deal(deals: &mut Vec<CircleDeal>, value: &Value) -> Result<(), String> {
    let Value::Table(table) = value else {
        return Err(format!(
            "must be a table like {{[4] = {{hand_size = 10, rows = 12}}}} (by number of \
             players), got {}",
            describe(value)
        ));
    };
    let mut given = Vec::new();
    for pair in table.pairs::<Value, Value>() {
        let (key, value) = pair.map_err(|e| sandbox::message(&e))?;
        let players = count(&key, 1).map_err(|e| format!("a key {e} (keys are player counts)"))?;
        let Value::Table(fields) = value else {
            return Err(format!(
                "[{players}] must be a table {{hand_size = N, rows = M}}, got {}",
                describe(&value)
            ));
        };
        let old = deals.iter().find(|d| d.players == players);
        let mut one = old.copied().unwrap_or(CircleDeal {
            players,
            hand_size: 0,
            rows: 0,
        });
        let named = named_fields(&fields, &["hand_size", "rows"], "a deal has")
            .map_err(|e| format!("[{players}]: {e}"))?;
        for (field, value) in named {
            let n = count(&value, 1).map_err(|e| format!("[{players}] {field} {e}"))?;
            match field {
                "hand_size" => one.hand_size = n,
                _ => one.rows = n,
            }
        }
        if one.hand_size == 0 || one.rows == 0 {
            return Err(format!(
                "[{players}] gives no hand_size or rows, and the circle game has no deal for \
                 {players} players to keep them from"
            ));
        }
        given.push(one);
    }
    for one in given {
        match deals.iter_mut().find(|d| d.players == one.players) {
            Some(d) => *d = one,
            None => deals.push(one),
        }
    }
    deals.sort_by_key(|d| d.players);
    Ok(())
}

fn boolean(value: &Value) -> Result<bool, String> {
    match value {
        Value::Boolean(b) => Ok(*b),
        other => Err(format!("must be true or false, got {}", describe(other))),
    }
}

/// The fields of a table whose keys must be among `names`; another key is named in the error,
/// with `has` and the names (`unknown field "x" (a deal has hand_size and rows)`).
fn named_fields(
    table: &Table,
    names: &[&'static str],
    has: &str,
) -> Result<Vec<(&'static str, Value)>, String> {
    let mut fields = Vec::new();
    for pair in table.pairs::<Value, Value>() {
        let (key, value) = pair.map_err(|e| sandbox::message(&e))?;
        let name = match &key {
            Value::String(s) => names.iter().find(|&&n| s == n),
            _ => None,
        };
        match name {
            Some(&name) => fields.push((name, value)),
            None => {
                return Err(format!(
                    "unknown field {} ({has} {})",
                    describe(&key),
                    names.join(" and ")
                ));
            }
        }
    }
    Ok(fields)
}

/// The setting or hook whose name is closest to `typo`, if one is close enough to be meant.
fn closest(typo: &str) -> Option<&'static str> {
    SETTINGS
        .iter()
        .copied()
        .chain(HOOKS.map(Hook::name))
        .map(|name| (strsim::jaro_winkler(typo, name), name))
        .filter(|&(likeness, _)| likeness > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

/// `problem` with the line of the script where the setting it names is given (`name:LINE:`),
/// when it names one setting (`setting rows: ...`) that the script's text gives once on a line
/// of its own (`rows = 0`); else `problem` as it is. A problem that has a place in the script
/// already (a `bullheads` function's error) keeps it.
pub fn with_line(short_src: &str, source: &[u8], problem: Problem) -> Problem {
    let Some(name) = problem
        .strip_prefix("setting ")
        .and_then(|rest| rest.split([':', ' ']).next())
    else {
        return problem;
    };
    if problem.contains(&format!("{short_src}:")) {
        return problem;
    }
    let text = String::from_utf8_lossy(source);
    let gives = |line: &str| {
        let code = line.split("--").next().unwrap_or("");
        code.match_indices(name).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            let after = code[at + name.len()..].trim_start();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && after.starts_with('=')
                && !after.starts_with("==")
        })
    };
    match text.lines().position(gives) {
        Some(line) => format!("{short_src}:{}: {problem}", line + 1),
        None => problem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_is_matched_to_the_name_meant_and_nonsense_to_none() {
        assert_eq!(closest("hand_sise"), Some("hand_size"));
        assert_eq!(closest("row_capcity"), Some("row_capacity"));
        assert_eq!(closest("low_crad"), Some("low_card"));
        assert_eq!(closest("zzz"), None);
    }

    #[test]
    fn every_setting_is_named_once_and_the_unused_ones_are_shared() {
        for (i, name) in SETTINGS.iter().enumerate() {
            assert!(!SETTINGS[..i].contains(name), "{name} is named twice");
        }
        for &variant in Variant::ALL {
            let unused = variant.describe().house.unused.iter();
            for name in unused.flat_map(|(names, _)| *names) {
                assert!(SHARED.contains(name), "{}: {name}", variant.name());
            }
        }
    }
}
