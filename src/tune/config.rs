//! The tuning's YAML file (docs/tuning.md), read with file:line:column errors: the player's
//! command (or built-in spec) with `{name}` for each parameter, the parameters' ranges and
//! start, the opponents at the table, the deals, and the SPSA gains (defaults from
//! [`super::spsa::Gains::new`]).

use super::spsa::{Gains, GivenGains};
use crate::players::PlayerSpec;
use crate::players::pipe::{DECISION_TIMEOUT_MS, STARTUP_TIMEOUT_MS};
use crate::seat::TimeLimits;
use crate::tournament::config::{self, Bot, BotEntry, Defaults, GameRules, Seatings, placed};
use crate::variants::Variant;
use crate::yaml::YamlError;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_saphyr::{Location, Spanned};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    player: Spanned<String>,
    params: Spanned<Params>,
    #[serde(default)]
    opponents: Vec<BotEntry>,
    #[serde(default)]
    variant: Variant,
    #[serde(default)]
    house: Option<PathBuf>,
    seed: u64,
    iterations: Spanned<u64>,
    #[serde(default = "one")]
    deals: Spanned<u64>,
    #[serde(default)]
    verify: u64,
    #[serde(default = "decision_default")]
    timeout_ms: Spanned<u64>,
    #[serde(default = "startup_default")]
    startup_timeout_ms: Spanned<u64>,
    /// The folder the tuned bot starts in, relative to the file.
    #[serde(default)]
    dir: Option<Spanned<PathBuf>>,
    #[serde(default)]
    seatings: Seatings,
    #[serde(default)]
    spsa: GivenGains,
}

fn one() -> Spanned<u64> {
    Spanned::new(1, Location::UNKNOWN, Location::UNKNOWN)
}
fn decision_default() -> Spanned<u64> {
    Spanned::new(DECISION_TIMEOUT_MS, Location::UNKNOWN, Location::UNKNOWN)
}
fn startup_default() -> Spanned<u64> {
    Spanned::new(STARTUP_TIMEOUT_MS, Location::UNKNOWN, Location::UNKNOWN)
}

/// A parameter as written: its range, its start, whether it is a whole number.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamEntry {
    min: Spanned<f64>,
    max: Spanned<f64>,
    start: Spanned<f64>,
    #[serde(default)]
    integer: bool,
}

/// The parameters in the order written (a YAML mapping, name to entry).
struct Params(Vec<(String, ParamEntry)>);

impl<'de> Deserialize<'de> for Params {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Params, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Params;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping of parameter names to {min, max, start, integer}")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Params, M::Error> {
                let mut params = Vec::new();
                while let Some((name, entry)) = map.next_entry()? {
                    params.push((name, entry));
                }
                Ok(Params(params))
            }
        }
        deserializer.deserialize_map(InOrder)
    }
}

/// A parameter to tune.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    pub name: String,
    pub min: f64,
    pub max: f64,
    pub start: f64,
    /// Played rounded to a whole number (it is tuned as a real number all the same).
    pub integer: bool,
}

impl Param {
    /// The value as the player's command gets it: a whole number, or a real with at most six
    /// decimals (`0.35`, `0.123457`).
    pub fn text(&self, value: f64) -> String {
        if self.integer {
            return format!("{}", value.round() as i64);
        }
        let text = format!("{value:.6}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        match text {
            "-0" => "0".to_string(),
            _ => text.to_string(),
        }
    }

    /// The value the player plays for `value`: its [`Param::text`] read back.
    pub fn played(&self, value: f64) -> f64 {
        self.text(value)
            .parse()
            .expect("a number's text reads back")
    }

    pub fn range(&self) -> f64 {
        self.max - self.min
    }
}

/// A tuning, checked.
#[derive(Clone, Debug)]
pub struct Tune {
    /// The player with `{name}` where each parameter's value goes.
    pub template: String,
    pub params: Vec<Param>,
    /// The other seats of the table, in seat order after the two tuned ones.
    pub opponents: Vec<Bot>,
    pub game: GameRules,
    pub seed: u64,
    pub iterations: u64,
    /// Deals each iteration plays (each in every seating).
    pub deals: u64,
    /// Deals of the verification at the end (0: none).
    pub verify: u64,
    pub seatings: Seatings,
    /// The tuned bot's time per decision and to start (it has no clock), its folder.
    pub limits: TimeLimits,
    pub dir: Option<PathBuf>,
    pub gains: Gains,
}

impl Tune {
    /// The player for `values` (one per parameter): the template with each `{name}` replaced.
    pub fn player_for(&self, values: &[f64]) -> String {
        substitute(&self.template, |name| {
            let i = self.params.iter().position(|p| p.name == name)?;
            Some(self.params[i].text(values[i]))
        })
    }

    /// The values of `values` as the player plays them.
    pub fn played(&self, values: &[f64]) -> Vec<f64> {
        self.params
            .iter()
            .zip(values)
            .map(|(p, &v)| p.played(v))
            .collect()
    }

    /// `rival 23.4, mix 71`: each parameter's value, as played.
    pub fn values_text(&self, values: &[f64]) -> String {
        self.params
            .iter()
            .zip(values)
            .map(|(p, &v)| format!("{} {}", p.name, p.text(v)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn starts(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    /// The seats at the table: the two tuned bots and the opponents.
    pub fn seats(&self) -> usize {
        2 + self.opponents.len()
    }
}

/// The names between braces in `template` (`{risk}`: letters, digits and `_`), each replaced
/// by what `value` gives for it (a name it gives nothing for is left as it is).
fn substitute(template: &str, mut value: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match placeholder(after).and_then(|name| Some((name, value(name)?))) {
            Some((name, text)) => {
                out.push_str(&text);
                rest = &after[name.len() + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The name of a placeholder that starts `text` (just after its `{`), if one does.
fn placeholder(text: &str) -> Option<&str> {
    let close = text.find('}')?;
    let name = &text[..close];
    let fits = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    fits.then_some(name)
}

/// Every placeholder's name in `template`, in order.
fn placeholders(template: &str) -> Vec<String> {
    let mut names = Vec::new();
    substitute(template, |name| {
        names.push(name.to_string());
        None
    });
    names
}

/// The names the tuned bot's two sides and the verification's two bots have in the results
/// files' pools: no opponent may take them.
pub const RESERVED: [&str; 4] = ["plus", "minus", "tuned", "start"];

/// Reads and checks a tuning file; paths in it are relative to it.
pub fn load(path: &Path) -> Result<Tune, String> {
    crate::input::parse_file(path, crate::input::TOURNAMENT, parse)
}

/// Parses a tuning file's text; `path` names it in errors.
pub fn parse(text: &str, path: &Path) -> Result<Tune, String> {
    let file: File = crate::yaml::parse(text, path).map_err(|e: YamlError| e.to_string())?;
    build(file, text, path)
}

fn build(file: File, text: &str, path: &Path) -> Result<Tune, String> {
    let base = path.parent();
    let fail = |message: String| format!("{}: {message}", path.display());
    let fail_at = |place: Location, message: String| placed(path, place, message);
    let mut params: Vec<Param> = Vec::new();
    for (name, entry) in &file.params.value.0 {
        let at = entry.min.referenced;
        let fits = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !fits {
            return Err(fail_at(
                file.params.referenced,
                format!(
                    "parameter `{name}`: a name is letters, digits and `_` (it is written `{{{name}}}` in player)"
                ),
            ));
        }
        let (min, max, start) = (entry.min.value, entry.max.value, entry.start.value);
        if !(min.is_finite() && max.is_finite() && min < max) {
            return Err(fail_at(
                at,
                format!("parameter {name}: min ({min}) must be below max ({max})"),
            ));
        }
        if !(min..=max).contains(&start) {
            return Err(fail_at(
                entry.start.referenced,
                format!("parameter {name}: start ({start}) is outside min..max ({min}..{max})"),
            ));
        }
        if entry.integer {
            for (value, place) in [
                (min, entry.min.referenced),
                (max, entry.max.referenced),
                (start, entry.start.referenced),
            ] {
                if value.fract() != 0.0 {
                    return Err(fail_at(
                        place,
                        format!(
                            "parameter {name} is an integer one: {value} is not a whole number"
                        ),
                    ));
                }
            }
        }
        params.push(Param {
            name: name.clone(),
            min,
            max,
            start,
            integer: entry.integer,
        });
    }
    let player_at = file.player.referenced;
    if params.is_empty() {
        return Err(fail_at(
            file.params.referenced,
            "params: give at least one parameter to tune".into(),
        ));
    }
    let named = placeholders(&file.player.value);
    for name in &named {
        if !params.iter().any(|p| &p.name == name) {
            let known: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
            return Err(fail_at(
                player_at,
                format!(
                    "player: `{{{name}}}` names no parameter (params: {})",
                    known.join(", ")
                ),
            ));
        }
    }
    if let Some(unused) = params.iter().find(|p| !named.contains(&p.name)) {
        return Err(fail_at(
            player_at,
            format!(
                "parameter {} is not in player: write `{{{}}}` where its value goes",
                unused.name, unused.name
            ),
        ));
    }
    let defaults = Defaults {
        timeout_ms: file.timeout_ms.value,
        startup_timeout_ms: file.startup_timeout_ms.value,
        clock: None,
        clock_margin_ms: 0,
    };
    for (value, place, key) in [
        (
            file.timeout_ms.value,
            file.timeout_ms.referenced,
            "timeout_ms",
        ),
        (
            file.startup_timeout_ms.value,
            file.startup_timeout_ms.referenced,
            "startup_timeout_ms",
        ),
    ] {
        if value == 0 {
            return Err(fail_at(place, format!("{key} must be > 0")));
        }
    }
    let mut opponents: Vec<Bot> = Vec::new();
    for entry in &file.opponents {
        let bot = config::check_bot(entry, defaults, &opponents, text, path, base, None)?;
        if RESERVED.contains(&bot.name.as_str()) {
            return Err(fail(format!(
                "opponent `{}`: the names {} are the tuned bot's in the results files",
                bot.name,
                RESERVED.join(", ")
            )));
        }
        opponents.push(bot);
    }
    let dir = match &file.dir {
        Some(dir) => Some(config::folder(dir, base, "tuned", path)?),
        None => None,
    };
    for (key, value) in [("iterations", &file.iterations), ("deals", &file.deals)] {
        if value.value == 0 {
            return Err(fail_at(
                value.referenced,
                format!("{key} must be at least 1"),
            ));
        }
    }
    let game = config::house_rules(file.variant, file.house.as_ref(), base).map_err(fail)?;
    game.rules.check_players(2 + opponents.len()).map_err(|e| {
        fail(format!(
            "the table of the two tuned bots and the {}: {e}",
            crate::words::count(opponents.len(), "opponent")
        ))
    })?;
    let gains = Gains::new(file.iterations.value, &file.spsa)
        .map_err(|(place, message)| fail_at(place, message))?;
    let tune = Tune {
        template: file.player.value.clone(),
        params,
        opponents,
        game,
        seed: file.seed,
        iterations: file.iterations.value,
        deals: file.deals.value,
        verify: file.verify,
        seatings: file.seatings,
        limits: TimeLimits {
            decision: Duration::from_millis(file.timeout_ms.value),
            startup: Duration::from_millis(file.startup_timeout_ms.value),
            clock: None,
        },
        dir,
        gains,
    };
    // The player must be one at the start and at both ends of every range.
    let ends = [
        tune.starts(),
        tune.params.iter().map(|p| p.min).collect(),
        tune.params.iter().map(|p| p.max).collect(),
    ];
    for values in ends {
        let player = tune.player_for(&values);
        PlayerSpec::parse(&player).map_err(|e| {
            fail_at(
                player_at,
                format!("player: with {}: {e}", tune.values_text(&values)),
            )
        })?;
    }
    Ok(tune)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_names_in_braces_and_other_braces_stay() {
        let text = "bot --x {risk} --y={depth}{depth} {not a name} {} {a-b}";
        assert_eq!(placeholders(text), ["risk", "depth", "depth"]);
        let filled = substitute(text, |name| (name == "risk").then(|| "0.5".to_string()));
        assert_eq!(
            filled,
            "bot --x 0.5 --y={depth}{depth} {not a name} {} {a-b}"
        );
    }

    #[test]
    fn values_are_written_as_whole_numbers_or_six_decimals_at_most() {
        let real = Param {
            name: "x".into(),
            min: 0.0,
            max: 1.0,
            start: 0.5,
            integer: false,
        };
        assert_eq!(real.text(0.35), "0.35");
        assert_eq!(real.text(0.1234567), "0.123457");
        assert_eq!(real.text(1.0), "1");
        assert_eq!(real.text(-0.0000001), "0");
        let whole = Param {
            integer: true,
            ..real
        };
        assert_eq!(whole.text(2.5), "3");
        assert_eq!(whole.text(41.49), "41");
        assert_eq!(whole.played(41.51), 42.0);
    }
}
