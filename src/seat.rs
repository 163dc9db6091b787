//! What the referee and a seat's player share besides the game itself: what a player learns
//! when a game starts ([`GameStart`]) and how a player failed ([`FaultKind`]). The protocol and
//! the record write both, the players and the referee use them: they live below all four (see
//! docs/architecture.md).

use crate::game::Seat;
use crate::rules::Rules;
use crate::variants::Variant;
use serde::{Deserialize, Serialize};
use std::fmt;

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
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Timeout => "timeout",
            FaultKind::Illegal => "illegal",
            FaultKind::Protocol => "protocol",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
