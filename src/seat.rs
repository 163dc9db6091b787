//! What the referee and a seat's player share besides the game itself: what a player learns
//! when a game starts ([`GameStart`]) and how a player failed ([`FaultKind`]). The protocol and
//! the record write both, the players and the referee use them: they live below all four (see
//! docs/architecture.md).

use crate::game::Seat;
use crate::rules::Rules;
use crate::variants::Variant;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// What a player learns when a game starts.
#[derive(Clone, Copy, Debug)]
pub struct GameStart<'a> {
    /// The game's number in the match, from 0.
    pub number: u64,
    pub variant: Variant,
    pub rules: &'a Rules,
    pub seats: usize,
    pub seat: Seat,
    /// The time limit per decision, in milliseconds (the `game` line's `time_ms=`).
    pub time_ms: u64,
    /// A seed for the bot's own randomness in this game (the `game` line's `seed=`): see
    /// [`crate::players::bot_seed`].
    pub seed: u64,
}

/// How a player failed. The referee records it and plays the fallback move for the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The bot exited, or its pipes closed.
    Crash,
    /// No answer within the time limit.
    Timeout,
    /// Well-formed answers that broke the rules, as many times as allowed.
    Illegal,
    /// Unreadable answers (garbage, wrong message, over-long line, invalid UTF-8, bad handshake).
    Protocol,
    /// Lost on time: a clocked seat's clock ran out (its time left and the margin) before it
    /// answered ([`Clock`]); the fallback plays its seat for the rest of the game.
    Clock,
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Timeout => "timeout",
            FaultKind::Illegal => "illegal",
            FaultKind::Protocol => "protocol",
            FaultKind::Clock => "clock",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A bot's time limits: for each decision, for each start (from starting its program to its
/// `hello`, again after a crash), and its game clock, held to instead of the limit per decision
/// when it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    pub decision: Duration,
    pub startup: Duration,
    pub clock: Option<Clock>,
}

/// A seat's game clock (`--clock BASE+INC`, docs/play.md): `base` for the whole game, and
/// `increment` added after each decision answered in time (Fischer's clock, as chess testers
/// set it); a decision may run `margin` over the time left (`--clock-margin`, the overhead of
/// the pipes and the process) before the seat loses on time. Only a player that is timed runs
/// it: built-in bots answer in well under a microsecond and are not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    pub base_ms: u64,
    pub increment_ms: u64,
    /// Time over the clock that is not yet a loss on time.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub margin_ms: u64,
}

fn is_zero(ms: &u64) -> bool {
    *ms == 0
}

impl Clock {
    /// Reads `BASE+INC` (`10s+100ms`, `60000+500`, `1m+0`): each a number of milliseconds, or
    /// a number with `ms`, `s` or `m`; the increment may be left out (`5s`: no increment). The
    /// error says what is wrong and where (its column in `spec`, from 1).
    pub fn parse(spec: &str) -> Result<Clock, String> {
        let (base, increment) = match spec.split_once('+') {
            Some((base, increment)) => (base, Some(increment)),
            None => (spec, None),
        };
        let base_ms = duration_ms(base).map_err(|why| {
            format!("clock `{spec}`: the base (column 1, `{base}`) {why}; e.g. 10s+100ms")
        })?;
        if base_ms == 0 {
            return Err(format!(
                "clock `{spec}`: the base (column 1) must be above 0; e.g. 10s+100ms"
            ));
        }
        let increment_ms = match increment {
            Some(increment) => duration_ms(increment).map_err(|why| {
                format!(
                    "clock `{spec}`: the increment (column {}, `{increment}`) {why}; e.g. 10s+100ms",
                    base.len() + 2
                )
            })?,
            None => 0,
        };
        Ok(Clock {
            base_ms,
            increment_ms,
            margin_ms: 0,
        })
    }

    /// `BASE+INC` in milliseconds, as [`Clock::parse`] reads it back (`10000+100`).
    pub fn spec(&self) -> String {
        format!("{}+{}", self.base_ms, self.increment_ms)
    }
}

/// A seat's clock as it runs through a game, in microseconds: the referee runs it as the game
/// is played, `take5 verify` again from a record's `clock` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunningClock {
    pub clock: Clock,
    /// The time left for the rest of the game.
    pub left_us: u64,
    /// The seat lost on time: its clock stopped (at 0) for the rest of the game.
    pub lost: bool,
}

impl RunningClock {
    /// A clock at the start of a game: the whole base left.
    pub fn new(clock: Clock) -> RunningClock {
        RunningClock {
            clock,
            left_us: clock.base_ms.saturating_mul(1000),
            lost: false,
        }
    }

    /// Runs the clock for a decision that took `took_us`: past the time left and the margin it
    /// is a loss on time (the clock stops at 0), else the time left goes down by `took_us` (not
    /// below 0) and up by the increment. Returns whether the seat lost on time.
    pub fn take(&mut self, took_us: u64) -> bool {
        let allowed_us = (self.left_us).saturating_add(self.clock.margin_ms.saturating_mul(1000));
        self.lost = took_us > allowed_us;
        self.left_us = if self.lost {
            0
        } else {
            (self.left_us.saturating_sub(took_us))
                .saturating_add(self.clock.increment_ms.saturating_mul(1000))
        };
        self.lost
    }

    /// What the seat's next `ask` tells it.
    pub fn reading(&self) -> ClockReading {
        ClockReading {
            left_ms: self.left_us / 1000,
            increment_ms: self.clock.increment_ms,
        }
    }
}

/// A time as `--clock` takes it: milliseconds, or a number with `ms`, `s` or `m`.
fn duration_ms(text: &str) -> Result<u64, String> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let (number, unit) = text.split_at(digits.len());
    let scale = match unit {
        "" | "ms" => 1,
        "s" => 1000,
        "m" => 60_000,
        _ => return Err(format!("has the unit `{unit}`, not ms, s or m")),
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err("is not a whole number with ms, s or m".into());
    }
    number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| "is too large".into())
}

/// A clocked seat's clock as an `ask` tells it (`time_left_ms=`, `increment_ms=`): the time
/// left for the rest of the game, this decision included, and what each answer in time adds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockReading {
    pub left_ms: u64,
    pub increment_ms: u64,
}
