//! Game records: JSON Lines, one object per line, tagged by `"event"` (docs/records.md).
//! A record is a `game` header followed by the model's [`Event`]s and the referee's `fault`s
//! (and, for a game the referee had to stop, a closing `stopped` line); a file may hold several
//! games one after another.

use crate::game::{Event, Seat};
use crate::players::FaultKind;
use crate::rules::Rules;
use crate::variants::Variant;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{self, BufRead, Write};

/// The record format version written in every header.
pub const FORMAT: u32 = 1;

/// The first line of each game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub format: u32,
    /// The game's number in its match, from 0.
    pub game: u64,
    pub variant: Variant,
    /// The match seed; absent when every deal was given explicitly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The player at each seat, by name.
    pub players: Vec<String>,
    pub rules: Rules,
    /// The house rule script the game was played with, if any (docs/house-rules.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub house: Option<HouseScript>,
}

/// A house rule script, as a record names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseScript {
    /// Where the script is, relative to the record file's folder ('/'-separated).
    pub path: String,
    /// The SHA-256 of the script's text, in lowercase hex: the record holds only for this text.
    pub sha256: String,
}

/// A player's fault, as the referee saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultLine {
    pub seat: Seat,
    pub kind: FaultKind,
    pub detail: String,
    pub round: u32,
    pub turn: u32,
}

/// Why the referee stopped a game before its end (a house rule failed, a scripted deal was
/// refused): the game's last line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopLine {
    pub reason: String,
}

/// One line of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Game(Header),
    Fault(FaultLine),
    Event(Event),
    Stopped(StopLine),
}

/// The referee's own lines; the model's events serialize themselves with the same tag.
#[derive(Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum RefereeLine {
    Game(Header),
    Fault(FaultLine),
    Stopped(StopLine),
}

#[derive(Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum RefereeLineRef<'a> {
    Game(&'a Header),
    Fault(&'a FaultLine),
    Stopped(&'a StopLine),
}

impl Serialize for Line {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Line::Game(h) => RefereeLineRef::Game(h).serialize(s),
            Line::Fault(f) => RefereeLineRef::Fault(f).serialize(s),
            Line::Stopped(stop) => RefereeLineRef::Stopped(stop).serialize(s),
            Line::Event(e) => e.serialize(s),
        }
    }
}

/// A line that is not a record line, with where it is.
#[derive(Debug)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl Line {
    /// Parses one line; `number` (from 1) is used in the error.
    pub fn parse(text: &str, number: usize) -> Result<Line, ParseError> {
        let error = |e: serde_json::Error| ParseError {
            line: number,
            column: e.column(),
            message: e.to_string(),
        };
        let value: serde_json::Value = serde_json::from_str(text).map_err(error)?;
        let tag = value.get("event").and_then(|t| t.as_str()).unwrap_or("");
        if ["game", "fault", "stopped"].contains(&tag) {
            serde_json::from_value::<RefereeLine>(value)
                .map(|l| match l {
                    RefereeLine::Game(h) => Line::Game(h),
                    RefereeLine::Fault(f) => Line::Fault(f),
                    RefereeLine::Stopped(stop) => Line::Stopped(stop),
                })
                .map_err(|e| ParseError {
                    line: number,
                    column: 1,
                    message: e.to_string(),
                })
        } else {
            serde_json::from_value::<Event>(value)
                .map(Line::Event)
                .map_err(|e| ParseError {
                    line: number,
                    column: 1,
                    message: e.to_string(),
                })
        }
    }
}

/// Reads every line of a record, numbered from 1. Blank lines are skipped.
pub fn read(input: impl BufRead) -> io::Result<Vec<(usize, Result<Line, ParseError>)>> {
    let mut lines = Vec::new();
    for (i, text) in input.lines().enumerate() {
        let text = text?;
        if !text.trim().is_empty() {
            lines.push((i + 1, Line::parse(&text, i + 1)));
        }
    }
    Ok(lines)
}

/// Writes record lines, flushing each so nothing already played is lost if take5 is stopped.
pub struct Writer<W: Write> {
    out: W,
}

impl<W: Write> Writer<W> {
    pub fn new(out: W) -> Writer<W> {
        Writer { out }
    }

    pub fn write(&mut self, line: &Line) -> io::Result<()> {
        self.write_json(line)
    }

    /// Writes a model event (the same line as `write(&Line::Event(..))`, without a copy).
    pub fn event(&mut self, event: &Event) -> io::Result<()> {
        self.write_json(event)
    }

    fn write_json(&mut self, value: &impl Serialize) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, value)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}
