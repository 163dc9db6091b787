//! Game records: JSON Lines, one object per line, tagged by `"event"` (docs/records.md).
//! A record is a `game` header followed by the model's [`Event`]s and the referee's `fault`s
//! (and, for a game the referee had to stop, a closing `stopped` line); a file may hold several
//! games one after another.
//!
//! Records are written by a [`Writer`] and read as a stream, never whole, so that a record of a
//! million games reads in the memory of one line (or of one game):
//!
//! - [`open`] opens a record file (or `-`, standard input), plain or compressed: a zstd or gzip
//!   stream is recognised by its first bytes, whatever the file's name. [`Writer::create`]
//!   writes a file compressed when its name ends in `.zst` or `.gz`.
//! - [`LineReader`] hands out its lines one at a time, numbered from 1, each at most
//!   [`MAX_LINE`] bytes (a longer one is an error naming its line).
//! - [`Games`] hands out whole games, one at a time (a header and the lines up to the next one),
//!   and [`Games::skip_to`] moves to game N without parsing the lines in between: this is the
//!   reader for showing or replaying one game of a large record.
//!
//! ```
//! use take5::record::{Games, LineReader};
//! let text = "{\"event\":\"game\",\"format\":1,\"game\":0,\"variant\":\"classic\",\
//!     \"players\":[\"a\",\"b\"],\"rules\":{\"deck\":{\"lowest\":1,\"bullheads\":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]},\
//!     \"rows\":4,\"row_capacity\":5,\"hand_size\":10,\"min_players\":2,\"max_players\":10,\
//!     \"end\":{\"target_score\":66},\"ties\":\"shared\"}}\n\
//!     {\"event\":\"game_end\",\"totals\":[0,0],\"winners\":[0,1]}\n";
//! let mut games = Games::new(LineReader::new(text.as_bytes()));
//! let game = games.next_game().unwrap().unwrap();
//! assert_eq!((game.header.game, game.line, game.lines.len()), (0, 1, 1));
//! assert!(games.next_game().unwrap().is_none());
//! ```

use crate::cards::Special;
use crate::game::{Action, Deal, Event, Outcome, Seat, SpecialPlay};
use crate::rules::Rules;
use crate::seat::{Clock, FaultKind};
use crate::variants::Variant;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

/// The record format version written in every header by default: version 1, every event of
/// the game on a line of its own.
pub const FORMAT: u32 = 1;

/// The compact record format (docs/records.md, "Compact records"): the same header, then the
/// players' answers, a turn a line (`[27,24,22,2]`), a `deal` line only for a round that was
/// given, and the `game_end` line; everything that follows from the rules is left out, and
/// `take5 verify` derives it again.
pub const FORMAT_COMPACT: u32 = 2;

/// The record format named on the command line: `1` (or `json`) or `2` (or `compact`).
pub fn parse_format(text: &str) -> Result<u32, String> {
    match text {
        "1" | "json" => Ok(FORMAT),
        "2" | "compact" => Ok(FORMAT_COMPACT),
        _ => Err(format!(
            "`{text}` is no record format: 1 (or json: a line per event) or 2 (or compact: a \
             line per turn)"
        )),
    }
}

/// The keys of a game's header, declared once, in the order they are written: from here come
/// [`Header`], the form it is read in (`read as`: a compact header may leave out `rules`) and
/// the writer's header ([`Writer`], serde_json's layout without serde). A key `= default` is
/// left out when it holds its default (none, 0, false) and read as the default when absent,
/// so a key added later this way keeps older records readable and their lines unchanged.
/// `["..."]` is what docs/records.md's table says of the key ([`lines_table`]).
macro_rules! header_keys {
    ($then:ident) => {
        $then! {
            format: u32 ["1; 2 for a [compact record](#compact-records-format-2)"],
            /// The game's number in its match, from 0.
            game: u64 ["its number in the match, from 0"],
            variant: Variant
                ["`\"classic\"`, `\"pro\"`, `\"take-a-number\"`, `\"circle\"` or `\"anniversary\"`"],
            /// The match seed; absent when every deal was given explicitly.
            seed: Option<u64> = default ["the match seed; left out when every deal is given"],
            /// The player at each seat, by name.
            players: Vec<String> ["a name per seat: a bot's command line, `builtin:...`"],
            /// The name the player at each seat gave itself in its `hello` (a bot's), none
            /// where it gave none; left out when no seat has one.
            hello_names: Vec<Option<String>> = default
                ["the name the player at each seat gave itself in its `hello`, `null` for a seat \
                  whose player gave none: a built-in bot, a person, a bot that has never \
                  greeted; a bot restarted keeps the name of its last hello; left out when no \
                  seat has one, as in a record of built-in bots and in records written before \
                  December 2026; `take5 show` names the seats by it"],
            rules: Rules [read as Option<Rules>] ["every rule setting, see below"],
            /// The house rule script the game was played with, if any (docs/house-rules.md).
            house: Option<HouseScript> = default
                ["the house rule script the game was played with, see below; left out without one"],
            /// How many rounds, from round 1, were dealt as given (`take5 play --deal`) rather
            /// than from the seed; 0 (and left out) when the seed dealt every round.
            given_deals: u32 = default
                ["how many rounds, from round 1, were dealt as given with `take5 play --deal` \
                  rather than from the seed; left out when 0"],
            /// The deck was given (`take5 play --deck`) instead of the variant's; left out when
            /// not.
            given_deck: bool = default
                ["`true` when the deck was given with `--deck`; left out otherwise"],
            /// Which game of a tournament this is, and its bots' pool names (`take5 tournament
            /// --record`); left out of other records.
            tournament: Option<TournamentGame> = default
                ["in a record written by `take5 tournament --record`, and by the replay command \
                  it prints: `{\"game\":ID,\"bots\":[NAME,...]}`, the game's id in the \
                  tournament and the pool name of the bot at each seat, as many as `players`; \
                  left out of any other record; see \
                  [Records of a tournament](#records-of-a-tournament)"],
            /// Each seat's game clock (`--clock`), none for a seat without one; left out when
            /// no seat has one.
            clocks: Vec<Option<Clock>> = default
                ["in a clocked game (`--clock`, docs/play.md): each seat's clock, \
                  `{\"base_ms\":10000,\"increment_ms\":100,\"margin_ms\":50}` (`margin_ms` left \
                  out when 0), `null` for a seat without one; left out when no seat has one. A \
                  clocked record holds times measured as it was played (its `clock` lines)"],
        }
    };
}

/// The type a header's key is read as: its own, or the one after `read as`.
macro_rules! read_as {
    ($ty:ty) => {
        $ty
    };
    ($ty:ty, $read:ty) => {
        $read
    };
}

/// Whether a key marked `default` is left out of a written header: when it holds its default.
macro_rules! default_left_out {
    ($value:expr) => {
        false
    };
    ($value:expr, default) => {
        is_default(&$value)
    };
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// A header's key as read ([`HeaderText`]) made the key it is: the same value, or (`rules`)
/// the rules found for the header, in `rules`.
trait Resolve<T> {
    fn resolve(self, rules: &mut Option<Rules>) -> T;
}

impl<T> Resolve<T> for T {
    fn resolve(self, _: &mut Option<Rules>) -> T {
        self
    }
}

impl Resolve<Rules> for Option<Rules> {
    fn resolve(self, rules: &mut Option<Rules>) -> Rules {
        rules.take().expect("a header's rules are found once")
    }
}

/// Declares [`Header`], [`HeaderText`] and the header's writer from [`header_keys!`].
macro_rules! define_header {
    ($( $(#[doc = $doc:literal])* $key:ident: $ty:ty $(= $default:ident)? $([read as $read:ty])? [$note:literal], )*) => {
        /// The first line of each game.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields, try_from = "HeaderText")]
        pub struct Header {
            $(
                $(#[doc = $doc])*
                $(#[serde($default, skip_serializing_if = "is_default")])?
                pub $key: $ty,
            )*
        }

        /// A header as it is read: a compact (format 2) header leaves out `rules` when they
        /// are the variant's at its table.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct HeaderText {
            $(
                $(#[serde($default)])?
                $key: read_as!($ty $(, $read)?),
            )*
        }

        impl Header {
            /// The header's keys, in the order they are written.
            pub const KEYS: &'static [&'static str] = &[$(stringify!($key)),*];
        }

        impl Documented for Header {
            const FIELDS: &'static [(&'static str, &'static str)] = &[$((stringify!($key), $note)),*];
        }

        impl TryFrom<HeaderText> for Header {
            type Error = String;

            fn try_from(mut h: HeaderText) -> Result<Header, String> {
                let mut rules = Some(match h.rules.take() {
                    Some(rules) => rules,
                    None if h.format >= FORMAT_COMPACT => {
                        h.variant.rules().at_table(h.players.len())
                    }
                    None => return Err("missing field `rules`".into()),
                });
                if let Some(t) = &h.tournament
                    && t.bots.len() != h.players.len()
                {
                    return Err(format!(
                        "`tournament.bots` names the bot of each of the {} seats, not {}",
                        h.players.len(),
                        t.bots.len()
                    ));
                }
                if !h.clocks.is_empty() && h.clocks.len() != h.players.len() {
                    return Err(format!(
                        "`clocks` has a clock (or null) for each of the {} seats, not {}",
                        h.players.len(),
                        h.clocks.len()
                    ));
                }
                if !h.hello_names.is_empty() && h.hello_names.len() != h.players.len() {
                    return Err(format!(
                        "`hello_names` has a name (or null) for each of the {} seats, not {}",
                        h.players.len(),
                        h.hello_names.len()
                    ));
                }
                Ok(Header {
                    $( $key: Resolve::resolve(h.$key, &mut rules), )*
                })
            }
        }

        impl HeaderKeys<'_> {
            /// Writes every key of `header` that is written, `,"key":value` each.
            fn write(&mut self, header: &Header) -> io::Result<()> {
                $(
                    if !(default_left_out!(header.$key $(, $default)?)
                        || HeaderValue::left_out(&header.$key, self))
                    {
                        self.buf.push_str(concat!(",\"", stringify!($key), "\":"));
                        HeaderValue::write(&header.$key, self)?;
                    }
                )*
                Ok(())
            }
        }
    };
}
header_keys!(define_header);

/// A tournament's game, as its record's header names it (docs/records.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentGame {
    /// The game's id in the tournament (its results line's `game`; `game` of the header stays
    /// its number in its match, 0, from which the deal is made).
    pub game: u64,
    /// The pool's name of the bot at each seat.
    pub bots: Vec<String>,
}

impl Header {
    /// The number a game is found by (`take5 show --game`): its id in its tournament, or its
    /// number in its match.
    pub fn id(&self) -> u64 {
        self.tournament.as_ref().map_or(self.game, |t| t.game)
    }

    /// The name of the player at each seat, as a person knows it: its pool name in a
    /// tournament, else the name it gave in its `hello`, else the one it played under.
    pub fn names(&self) -> Vec<String> {
        if let Some(t) = &self.tournament {
            return t.bots.clone();
        }
        let hello = |seat: usize| self.hello_names.get(seat).cloned().flatten();
        (self.players.iter().enumerate())
            .map(|(seat, player)| hello(seat).unwrap_or_else(|| player.clone()))
            .collect()
    }
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

/// The fields of a line of the referee's own, declared once: the struct (read and written by
/// serde) and, for docs/records.md's table, what each field holds (`["..."]`, if anything).
macro_rules! referee_line_fields {
    ($(#[$attr:meta])* $Name:ident { $( $field:ident: $ty:ty $([$note:literal])?, )* }) => {
        $(#[$attr])*
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $Name {
            $( pub $field: $ty, )*
        }

        impl Documented for $Name {
            const FIELDS: &'static [(&'static str, &'static str)] =
                &[$((stringify!($field), concat!("" $(, $note)?))),*];
        }
    };
}

referee_line_fields! {
    /// A player's fault, as the referee saw it.
    FaultLine {
        seat: Seat,
        kind: FaultKind ["`crash`, `timeout`, `illegal`, `protocol`, `clock` (lost on time)"],
        detail: String,
        round: u32,
        turn: u32,
    }
}

referee_line_fields! {
    /// A clocked seat's decision, timed: its clock when it was asked and the time it took, as
    /// the referee measured them.
    ClockLine {
        seat: Seat,
        round: u32,
        turn: u32,
        left_us: u64 ["the time left on the seat's clock when it was asked, in microseconds; its \
                       `ask` said `time_left_ms=`, this in milliseconds, rounded down"],
        took_us: u64 ["the time the decision took, measured by the referee from the `ask` \
                       written to the answer read, in microseconds"],
    }
}

referee_line_fields! {
    /// Why the referee stopped a game before its end (a house rule failed, a scripted deal was
    /// refused): the game's last line.
    StopLine {
        reason: String,
    }
}

/// A line's fields and what docs/records.md's table says each holds (empty: nothing more than
/// its name).
trait Documented {
    const FIELDS: &'static [(&'static str, &'static str)];
}

impl<T: Documented> Documented for Box<T> {
    const FIELDS: &'static [(&'static str, &'static str)] = T::FIELDS;
}

/// A row of docs/records.md's table: the line's `"event"`, its fields with what each holds, and
/// when it is written.
type TableRow = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
);

macro_rules! event_rows {
    ($( $name:literal [$($field:ident [$($note:literal)?])*] $written:literal )*) => {
        /// The events' rows of docs/records.md's table, in the order of their declaration.
        const EVENT_ROWS: &[TableRow] = &[$(
            ($name, &[$((stringify!($field), concat!("" $(, $note)?))),*], $written),
        )*];
    };
}
crate::game::events!(notes event_rows);

/// docs/records.md's table of the lines of a record (format 1), in Markdown, made from the
/// declarations: the header first, then the events, then the referee's other lines. The page
/// holds this text, and a test keeps it the same.
pub fn lines_table() -> String {
    let (header, others) = REFEREE_ROWS.split_at(1);
    let mut out = String::from("| `event` | fields | written |\n| --- | --- | --- |\n");
    for (name, fields, written) in header.iter().chain(EVENT_ROWS).chain(others) {
        let fields: Vec<String> = fields
            .iter()
            .map(|(field, note)| match note {
                &"" => format!("`{field}`"),
                note => format!("`{field}` ({note})"),
            })
            .collect();
        out.push_str(&format!(
            "| `{name}` | {} | {written} |\n",
            fields.join(", ")
        ));
    }
    out
}

/// The referee's own lines of a record, declared once: the [`Line`] variant, what it holds, its
/// `"event"` tag and when it is written. From here come [`Line`], the names [`Line::parse`]
/// reads as the referee's, their serde forms (read owned, written borrowed) and their rows of
/// docs/records.md's table ([`lines_table`]; the header's first); the model's events serialize
/// themselves with the same tag.
macro_rules! referee_lines {
    ($( $(#[$attr:meta])* $Variant:ident($ty:ty) $name:literal written $written:literal, )*) => {
        /// One line of a record.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Line {
            $( $(#[$attr])* $Variant($ty), )*
            Event(Event),
            /// A compact record's turn line: the answers the players gave, in the order the
            /// referee asked for them (docs/records.md, "Compact records").
            Turn(Answers),
        }

        /// The tags of the referee's lines.
        const REFEREE_LINES: &[&str] = &[$($name),*];

        /// The referee's lines' rows of docs/records.md's table.
        const REFEREE_ROWS: &[TableRow] =
            &[$(($name, <$ty as Documented>::FIELDS, $written)),*];

        #[derive(Deserialize)]
        #[serde(tag = "event")]
        enum RefereeLine {
            $( #[serde(rename = $name)] $Variant($ty), )*
        }

        impl From<RefereeLine> for Line {
            fn from(line: RefereeLine) -> Line {
                match line {
                    $( RefereeLine::$Variant(x) => Line::$Variant(x), )*
                }
            }
        }

        #[derive(Serialize)]
        #[serde(tag = "event")]
        enum RefereeLineRef<'a> {
            $( #[serde(rename = $name)] $Variant(&'a $ty), )*
        }

        impl Serialize for Line {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $( Line::$Variant(x) => RefereeLineRef::$Variant(x).serialize(s), )*
                    Line::Event(e) => e.serialize(s),
                    Line::Turn(answers) => answers.as_slice().serialize(s),
                }
            }
        }
    };
}

referee_lines! {
    /// A header, boxed: it is much larger than the other lines, which are moved about by the
    /// million.
    Game(Box<Header>) "game" written "first line of each game",
    Fault(FaultLine) "fault"
        written "when a player fails; the referee then plays its fallback (the lowest card, or \
                 the cheapest row, the first of equals; in a Pro draft the lowest card of the \
                 pool, and `turn` is 0; in Take a Number the lowest of the cards taken for the \
                 #-row)",
    Clock(ClockLine) "clock"
        written "in a clocked game, for each decision of a seat with a clock (a built-in bot's \
                 are not timed), before its answer is applied and before a `fault` of kind \
                 `clock` when its time ran out: the time left then drops to 0 and the fallback \
                 plays the seat for the rest of the game. Otherwise the time left at the seat's \
                 next decision is this one's, less `took_us` (not below 0), plus the increment. \
                 Its times are measured, not drawn from the seed: a clocked record is the same \
                 game from the same seed only if every answer is",
    /// The game's last line when the referee stopped it.
    Stopped(StopLine) "stopped"
        written "the last line of a game the referee had to stop before its end: a house rule \
                 script failed (its error, with the script's file and line), or a scripted deal \
                 was refused; `take5 play` then exits with status 2",
}

/// The answers of a turn line: held in place up to 8 (a turn of up to six seats and its rows:
/// a million turn lines read without a million allocations).
pub type Answers = smallvec::SmallVec<[Answer; 8]>;

/// One answer of a compact record's turn line. What a number is follows from the question the
/// rules ask at that point: a card to play, pick, keep or cancel, or a low card's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A card, or a row (`1`, `17`).
    Number(u32),
    /// Anniversary: no special card played, cancelled or swapped (`"pass"`).
    Pass,
    /// The circle game: the seat ends its turn (`"end"`).
    EndTurn,
    /// Anniversary: the special card given for the top of the deck (`"stop"`).
    Swap(Special),
    /// Anniversary: a special card played (`{"special":"stop","row":1}`, the `special` line's
    /// `play`).
    Special(SpecialPlay),
    /// The circle game: a special card put into a row (`{"special":"x2","row":1}`).
    PlaceSpecial { special: Special, row: u16 },
}

impl Answer {
    /// The answer that records `action`.
    pub fn of(action: Action) -> Answer {
        match action {
            Action::Play(card) | Action::Keep(card) | Action::Pick(card) | Action::Cancel(card) => {
                Answer::Number(u32::from(card.0))
            }
            Action::TakeRow(row) => Answer::Number(row.try_into().unwrap_or(u32::MAX)),
            Action::PlaceSpecial { special, row } => Answer::PlaceSpecial {
                special,
                row: row.try_into().unwrap_or(u16::MAX),
            },
            Action::EndTurn => Answer::EndTurn,
            Action::Special(play) => Answer::Special(play),
            Action::Pass => Answer::Pass,
            Action::Swap(special) => Answer::Swap(special),
        }
    }

    /// Reads one answer from its JSON value, or says why it is none.
    fn from_value(value: serde_json::Value) -> Result<Answer, String> {
        use serde_json::Value;
        match value {
            Value::Number(n) => n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(Answer::Number)
                .ok_or_else(|| format!("{n} is no card or row (a whole number from 0)")),
            Value::String(s) if s == "pass" => Ok(Answer::Pass),
            Value::String(s) if s == "end" => Ok(Answer::EndTurn),
            Value::String(s) => serde_json::from_value::<Special>(Value::String(s.clone()))
                .map(Answer::Swap)
                .map_err(|_| {
                    format!("\"{s}\" is no answer (\"pass\", \"end\" or a special card's name)")
                }),
            Value::Object(map) => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Placed {
                    special: Special,
                    row: u16,
                }
                let text = Value::Object(map).to_string();
                if let Ok(placed) = serde_json::from_str::<Placed>(&text)
                    && matches!(placed.special, Special::Double | Special::PlusFive)
                {
                    return Ok(Answer::PlaceSpecial {
                        special: placed.special,
                        row: placed.row,
                    });
                }
                serde_json::from_str::<SpecialPlay>(&text)
                    .map(Answer::Special)
                    .map_err(|e| format!("{text} is no special card played: {e}"))
            }
            other => Err(format!(
                "{other} is no answer (a number, a string or a special card's object)"
            )),
        }
    }
}

impl Serialize for Answer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        match self {
            Answer::Number(n) => s.serialize_u32(*n),
            Answer::Pass => s.serialize_str("pass"),
            Answer::EndTurn => s.serialize_str("end"),
            Answer::Swap(special) => special.serialize(s),
            Answer::Special(play) => play.serialize(s),
            Answer::PlaceSpecial { special, row } => {
                let mut placed = s.serialize_struct("PlaceSpecial", 2)?;
                placed.serialize_field("special", special)?;
                placed.serialize_field("row", row)?;
                placed.end()
            }
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
        if text.trim_start().starts_with('[') {
            return Line::parse_turn(text, number);
        }
        // The lines take5 writes, read without serde; any other layout goes through serde.
        if let Some(event) = json::read_event(text) {
            return Ok(Line::Event(event));
        }
        let error = |e: serde_json::Error| ParseError {
            line: number,
            column: e.column(),
            message: e.to_string(),
        };
        // A header as take5 writes it, read as the struct it is (serde reads a tagged enum
        // through a buffer of its own): one a game, but the largest line.
        if let Some(rest) = text.strip_prefix("{\"event\":\"game\",")
            && let Ok(header) = serde_json::from_str::<Header>(&format!("{{{rest}"))
        {
            return Ok(Line::Game(Box::new(header)));
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(error)?;
        let tag = value.get("event").and_then(|t| t.as_str()).unwrap_or("");
        let line = if REFEREE_LINES.contains(&tag) {
            serde_json::from_value::<RefereeLine>(value).map(Line::from)
        } else {
            serde_json::from_value::<Event>(value).map(Line::Event)
        };
        line.map_err(|e| ParseError {
            line: number,
            column: 1,
            message: e.to_string(),
        })
    }
}

impl Line {
    /// A compact record's turn line: a JSON array of answers.
    fn parse_turn(text: &str, number: usize) -> Result<Line, ParseError> {
        if let Some(answers) = json::read_numbers(text.as_bytes()) {
            return Ok(Line::Turn(answers));
        }
        let values: Vec<serde_json::Value> =
            serde_json::from_str(text).map_err(|e| ParseError {
                line: number,
                column: e.column(),
                message: format!("a turn line is a JSON array of answers: {e}"),
            })?;
        let answers = values
            .into_iter()
            .enumerate()
            .map(|(i, value)| {
                Answer::from_value(value).map_err(|message| ParseError {
                    line: number,
                    column: 1,
                    message: format!("answer {} of the turn line: {message}", i + 1),
                })
            })
            .collect::<Result<Answers, _>>()?;
        Ok(Line::Turn(answers))
    }
}

/// The longest line a record may have, in bytes (8 MiB: a header with a deck of 65,535 cards
/// takes about 200 KB). Readers refuse a longer line, naming it, rather than hold it.
pub const MAX_LINE: usize = 8 << 20;

/// How a record file is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain JSON Lines.
    None,
    /// A zstd stream (`.zst`), compressed at level 1: on records it is both faster and smaller
    /// than zstd's default level 3 (docs/performance.md).
    Zstd,
    /// A gzip stream (`.gz`), compressed at level 1 (the default level 6 is 4x slower for a
    /// record 40% smaller: zstd is the choice for size).
    Gzip,
}

impl Compression {
    /// The compression a record written to `path` gets, from its name: `.zst`, `.gz`, or none.
    pub fn for_path(path: &Path) -> Compression {
        match path.extension().and_then(|e| e.to_str()) {
            Some("zst") => Compression::Zstd,
            Some("gz") => Compression::Gzip,
            _ => Compression::None,
        }
    }

    /// The compression of a stream starting with `bytes` (its magic number), or none. A zstd
    /// stream starts with a frame, or with a skippable frame (magic 0x184D2A50 to 0x184D2A5F,
    /// little-endian: metadata a decoder passes over).
    pub fn sniff(bytes: &[u8]) -> Compression {
        let skippable = matches!(bytes, [low, 0x2a, 0x4d, 0x18, ..] if low & 0xf0 == 0x50);
        if bytes.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) || skippable {
            Compression::Zstd
        } else if bytes.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else {
            Compression::None
        }
    }
}

/// Opens a record for reading: the file at `path`, or standard input for `-`. A zstd or gzip
/// stream (several concatenated frames or members too) is decompressed as it is read, whatever
/// the file's name.
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead>> {
    if path == Path::new("-") {
        return decompressed(Box::new(io::stdin().lock()));
    }
    decompressed(Box::new(BufReader::with_capacity(
        1 << 16,
        File::open(path)?,
    )))
}

/// `input`, decompressed if it starts like a zstd or gzip stream.
pub fn decompressed(mut input: Box<dyn BufRead>) -> io::Result<Box<dyn BufRead>> {
    // A magic number is at most 4 bytes; fill_buf may return fewer only at the end.
    let kind = Compression::sniff(input.fill_buf()?);
    Ok(match kind {
        Compression::None => input,
        Compression::Zstd => Box::new(BufReader::with_capacity(
            1 << 16,
            zstd::stream::read::Decoder::with_buffer(input)?,
        )),
        Compression::Gzip => Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(input),
        )),
    })
}

/// A line's number, and the line or why it is not a record line.
pub type Parsed = (usize, Result<Line, ParseError>);

/// Why a record's line could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The input failed (or a compressed stream is damaged or cut short) after `line` lines.
    Io { line: usize, error: io::Error },
    /// Line `line` is longer than [`MAX_LINE`].
    TooLong { line: usize },
    /// Line `line` is not UTF-8.
    NotText { line: usize },
}

impl ReadError {
    /// The line it is about (for an I/O error: the last line read whole, 0 before any).
    pub fn line(&self) -> usize {
        match self {
            ReadError::Io { line, .. }
            | ReadError::TooLong { line }
            | ReadError::NotText { line } => *line,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io { line, error } => {
                write!(f, "cannot read the record after line {line}: {error}")
            }
            ReadError::TooLong { line } => {
                write!(f, "{line}: the line is longer than {MAX_LINE} bytes")
            }
            ReadError::NotText { line } => write!(f, "{line}: the line is not UTF-8 text"),
        }
    }
}

impl std::error::Error for ReadError {}

/// A record's lines, one at a time, numbered from 1, each at most [`MAX_LINE`] bytes. Holds
/// one line's buffer, reused.
pub struct LineReader<R> {
    input: R,
    buf: Vec<u8>,
    number: usize,
    /// The last `game` header read, to read the next one that differs only in its game number
    /// from it without serde.
    last_header: HeaderCache,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> LineReader<R> {
        LineReader {
            input,
            buf: Vec::new(),
            number: 0,
            last_header: HeaderCache::default(),
        }
    }

    /// The number of the last line read (0 before the first).
    pub fn line_number(&self) -> usize {
        self.number
    }

    /// The next line that is not blank, without its line end, with its number; `None` at the
    /// end.
    pub fn next_line(&mut self) -> Result<Option<(usize, &str)>, ReadError> {
        loop {
            if !self.read_raw()? {
                return Ok(None);
            }
            if !self.buf.iter().all(u8::is_ascii_whitespace) {
                break;
            }
        }
        let line = self.number;
        text(&self.buf, line).map(|text| Some((line, text)))
    }

    /// The next line that is not blank, parsed ([`Line::parse`]), with its number; `None` at
    /// the end. A compact record's turn line of numbers is read from its bytes as they are.
    pub fn next_parsed(&mut self) -> Result<Option<Parsed>, ReadError> {
        loop {
            // Most lines lie whole in the input's buffer: read there, without copying the line.
            let line = self.number;
            let available = self
                .input
                .fill_buf()
                .map_err(|error| ReadError::Io { line, error })?;
            // A turn line: one pass finds the numbers and the line end.
            if let Some((answers, len)) = json::read_numbers_line(available) {
                self.input.consume(len);
                self.number += 1;
                return Ok(Some((self.number, Ok(Line::Turn(answers)))));
            }
            let Some(end) = memchr::memchr(b'\n', available).filter(|&end| end <= MAX_LINE + 1)
            else {
                break;
            };
            self.number += 1;
            let line = self.number;
            let mut bytes = &available[..end];
            if let [rest @ .., b'\r'] = bytes {
                bytes = rest;
            }
            let parsed = if bytes.len() > MAX_LINE {
                Err(ReadError::TooLong { line })
            } else if bytes.first() == Some(&b'[')
                && let Some(answers) = json::read_numbers(bytes)
            {
                Ok(Some(Ok(Line::Turn(answers))))
            } else if bytes.iter().all(u8::is_ascii_whitespace) {
                Ok(None)
            } else {
                text(bytes, line).map(|text| Some(self.last_header.parse(text, line)))
            };
            self.input.consume(end + 1);
            match parsed? {
                Some(parsed) => return Ok(Some((line, parsed))),
                None => continue,
            }
        }
        // A line the buffer does not hold whole (or the end): read into a buffer of its own.
        loop {
            if !self.read_raw()? {
                return Ok(None);
            }
            if self.buf.first() == Some(&b'[')
                && let Some(answers) = json::read_numbers(&self.buf)
            {
                return Ok(Some((self.number, Ok(Line::Turn(answers)))));
            }
            if !self.buf.iter().all(u8::is_ascii_whitespace) {
                break;
            }
        }
        let line = self.number;
        let text = text(&self.buf, line)?;
        Ok(Some((line, self.last_header.parse(text, line))))
    }

    /// Reads the next line's bytes into `buf` (without the line end); false at the end.
    fn read_raw(&mut self) -> Result<bool, ReadError> {
        self.buf.clear();
        let line = self.number;
        let io = |error| ReadError::Io { line, error };
        // Most lines lie whole in the input's buffer: one look for the line end, one copy.
        let available = self.input.fill_buf().map_err(io)?;
        if let Some(end) = memchr::memchr(b'\n', available)
            && end <= MAX_LINE + 1
        {
            self.buf.extend_from_slice(&available[..end]);
            self.input.consume(end + 1);
            self.number += 1;
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
            if self.buf.len() > MAX_LINE {
                return Err(ReadError::TooLong { line: self.number });
            }
            return Ok(true);
        }
        let read = (&mut self.input)
            .take(MAX_LINE as u64 + 2)
            .read_until(b'\n', &mut self.buf)
            .map_err(io)?;
        if read == 0 {
            return Ok(false);
        }
        self.number += 1;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        if self.buf.len() > MAX_LINE {
            return Err(ReadError::TooLong { line: self.number });
        }
        Ok(true)
    }

    /// Whether the line just read is possibly a `game` header: it holds the string `"game"`
    /// (every header does; no other line can, since a string inside one would be escaped).
    fn may_be_header(&self) -> bool {
        self.buf.windows(6).any(|w| w == b"\"game\"")
    }
}

/// A line's bytes as text: most lines are ASCII, which a quicker look than UTF-8's finds.
fn text(bytes: &[u8], line: usize) -> Result<&str, ReadError> {
    if bytes.is_ascii() {
        // SAFETY: ASCII is UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes).map_err(|_| ReadError::NotText { line })
}

/// The last `game` header a [`LineReader`] read with serde, and its line: the headers of a
/// match differ only in the game number (`{"event":"game","format":1,"game":N,...`), so a
/// header whose line is the same but for that number is the same header with that number,
/// without reading it again (serde takes some 26,000 instructions for a header with a deck).
#[derive(Default)]
struct HeaderCache {
    /// The line, and where its game number starts and ends.
    line: String,
    number: (usize, usize),
    header: Option<Header>,
}

impl HeaderCache {
    /// [`Line::parse`] of `text`, the header from the cache when only its number differs.
    #[inline(always)]
    fn parse(&mut self, text: &str, line: usize) -> Result<Line, ParseError> {
        if text.starts_with("{\"event\":\"game\",") {
            self.parse_header(text, line)
        } else {
            Line::parse(text, line)
        }
    }

    /// [`HeaderCache::parse`] of a line that may be a header.
    #[inline(never)]
    fn parse_header(&mut self, text: &str, line: usize) -> Result<Line, ParseError> {
        if let Some(header) = self.header.as_ref()
            && let Some((start, end)) = header_number(text)
            && (start, text.len() - end) == (self.number.0, self.line.len() - self.number.1)
            && text[..start] == self.line[..start]
            && text[end..] == self.line[self.number.1..]
            && let Ok(game) = text[start..end].parse::<u64>()
        {
            return Ok(Line::Game(Box::new(Header {
                game,
                ..header.clone()
            })));
        }
        let parsed = Line::parse(text, line);
        if let Ok(Line::Game(header)) = &parsed
            && let Some((start, end)) = header_number(text)
            && text[start..end].parse::<u64>() == Ok(header.game)
        {
            self.line.clear();
            self.line.push_str(text);
            self.number = (start, end);
            self.header = Some(Header::clone(header));
        }
        parsed
    }
}

/// Where the game number of a header written as take5 writes it starts and ends: the digits
/// after `{"event":"game","format":<digits>,"game":` (a JSON number: no leading zero, and a
/// `,` after it).
fn header_number(text: &str) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let mut i = "{\"event\":\"game\",\"format\":".len();
    if !text.starts_with("{\"event\":\"game\",\"format\":") {
        return None;
    }
    let digits = |from: usize| from + b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let format_end = digits(i);
    if format_end == i {
        return None;
    }
    i = format_end;
    let key = b",\"game\":";
    if !b[i..].starts_with(key) {
        return None;
    }
    let start = i + key.len();
    let end = digits(start);
    let number = &b[start..end];
    if number.is_empty() || (number.len() > 1 && number[0] == b'0') || b.get(end) != Some(&b',') {
        return None;
    }
    Some((start, end))
}

/// A line of a record that could not be read or is not a record line.
#[derive(Debug)]
pub enum GameError {
    Read(ReadError),
    Parse(ParseError),
    /// A line before the first `game` line.
    NoHeader {
        line: usize,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Read(e) => e.fmt(f),
            GameError::Parse(e) => write!(
                f,
                "{}:{}: not a record line: {}",
                e.line, e.column, e.message
            ),
            GameError::NoHeader { line } => {
                write!(f, "{line}: a record starts with a `game` line")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// One game of a record: its header and its other lines, each with its line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    /// The line of the header, from 1.
    pub line: usize,
    pub header: Header,
    /// The lines after the header, up to the next header or the end.
    pub lines: Vec<(usize, Line)>,
}

/// The games of a record, one at a time: memory holds one game, whatever the record's size.
///
/// ```no_run
/// // The 40,000th game of a compressed record.
/// let input = take5::record::open("big.jsonl.zst".as_ref())?;
/// let mut games = take5::record::Games::new(take5::record::LineReader::new(input));
/// let game = games.skip_to(39_999)?.expect("the record has 40,000 games");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Games<R> {
    lines: LineReader<R>,
    /// The next game's header, already read.
    next: Option<(usize, Header)>,
    started: bool,
}

impl<R: BufRead> Games<R> {
    pub fn new(lines: LineReader<R>) -> Games<R> {
        Games {
            lines,
            next: None,
            started: false,
        }
    }

    /// The next game, with every line parsed; `None` after the last.
    pub fn next_game(&mut self) -> Result<Option<RecordedGame>, GameError> {
        self.start()?;
        let Some((line, header)) = self.next.take() else {
            return Ok(None);
        };
        let mut lines = Vec::new();
        while let Some((number, line)) = self.lines.next_parsed().map_err(GameError::Read)? {
            match line.map_err(GameError::Parse)? {
                Line::Game(next) => {
                    self.next = Some((number, *next));
                    break;
                }
                other => lines.push((number, other)),
            }
        }
        Ok(Some(RecordedGame {
            line,
            header,
            lines,
        }))
    }

    /// The first game whose [`Header::id`] is `number` (its number in the match, or its id in
    /// its tournament), skipping the games before it: their lines are read but not parsed,
    /// except those that may be a header. `None` if no later game has that number.
    pub fn skip_to(&mut self, number: u64) -> Result<Option<RecordedGame>, GameError> {
        self.start()?;
        loop {
            match &self.next {
                None => return Ok(None),
                Some((_, header)) if header.id() == number => return self.next_game(),
                Some(_) => self.next = None,
            }
            self.next = self.next_header()?;
        }
    }

    /// Reads up to the first header.
    fn start(&mut self) -> Result<(), GameError> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        if let Some((number, text)) = self.lines.next_line().map_err(GameError::Read)? {
            match Line::parse(text, number).map_err(GameError::Parse)? {
                Line::Game(header) => self.next = Some((number, *header)),
                _ => return Err(GameError::NoHeader { line: number }),
            }
        }
        Ok(())
    }

    /// Skips to the next header line and parses it.
    fn next_header(&mut self) -> Result<Option<(usize, Header)>, GameError> {
        loop {
            if !self.lines.read_raw().map_err(GameError::Read)? {
                return Ok(None);
            }
            if !self.lines.may_be_header() {
                continue;
            }
            let number = self.lines.number;
            let text = std::str::from_utf8(&self.lines.buf)
                .map_err(|_| GameError::Read(ReadError::NotText { line: number }))?;
            if let Line::Game(header) = Line::parse(text, number).map_err(GameError::Parse)? {
                return Ok(Some((number, *header)));
            }
        }
    }
}

/// Writes a header's keys ([`header_keys!`]) into a record's buffer.
struct HeaderKeys<'a> {
    buf: &'a mut String,
    /// The JSON of the header's rules, kept from the last header.
    rules: &'a str,
    /// Whether `rules` is left out (a compact header at the variant's own rules).
    leave_out_rules: bool,
}

/// A header key's value, written as serde_json writes it.
trait HeaderValue {
    fn write(&self, keys: &mut HeaderKeys) -> io::Result<()>;

    /// Whether the key is left out whatever its declaration says.
    fn left_out(&self, _: &HeaderKeys) -> bool {
        false
    }
}

macro_rules! header_numbers {
    ($($t:ty),*) => {$(
        impl HeaderValue for $t {
            fn write(&self, keys: &mut HeaderKeys) -> io::Result<()> {
                json::number(keys.buf, *self);
                Ok(())
            }
        }
    )*};
}
header_numbers!(u32, u64);

impl HeaderValue for bool {
    fn write(&self, keys: &mut HeaderKeys) -> io::Result<()> {
        keys.buf.push_str(if *self { "true" } else { "false" });
        Ok(())
    }
}

/// Written only when present (every optional key is declared `default`).
impl<T: HeaderValue> HeaderValue for Option<T> {
    fn write(&self, keys: &mut HeaderKeys) -> io::Result<()> {
        match self {
            Some(value) => value.write(keys),
            None => {
                keys.buf.push_str("null");
                Ok(())
            }
        }
    }
}

/// The rare keys, as serde writes them.
macro_rules! header_serialized {
    ($($t:ty),*) => {$(
        impl HeaderValue for $t {
            fn write(&self, keys: &mut HeaderKeys) -> io::Result<()> {
                keys.buf.push_str(&serde_json::to_string(self)?);
                Ok(())
            }
        }
    )*};
}
header_serialized!(
    Variant,
    Vec<String>,
    Vec<Option<String>>,
    HouseScript,
    TournamentGame,
    Vec<Option<Clock>>
);

/// The JSON kept from the last header.
impl HeaderValue for Rules {
    fn write(&self, keys: &mut HeaderKeys) -> io::Result<()> {
        keys.buf.push_str(keys.rules);
        Ok(())
    }

    fn left_out(&self, keys: &HeaderKeys) -> bool {
        keys.leave_out_rules
    }
}

/// Writes record lines. Lines are gathered in memory and written out at the end of each game
/// (its `game_end` or `stopped` line; then the file is flushed), when 64 KiB have gathered, and
/// when the writer is finished or dropped: a record never ends in the middle of a game that was
/// over, and costs few system calls. A compressed record is flushed at the same points, so what
/// was flushed can be decompressed even if take5 is killed later.
pub struct Writer<W: Write> {
    out: Option<Out<W>>,
    buf: String,
    /// The `rules` of the last header, and their JSON: the rules of a match's games are the
    /// same, so a header serializes them once.
    rules: Option<(Rules, String)>,
    /// The record format written: [`FORMAT`] or [`FORMAT_COMPACT`].
    format: u32,
    /// Compact records: whether the last rules are the variant's at the table (the header
    /// then leaves them out), for the variant and seats they were checked for.
    default_rules: Option<(Variant, usize, bool)>,
    /// Compact records: the round and turn of the turn line being written, if one is open (in
    /// `buf`, without its closing bracket).
    open_turn: Option<(u32, u32)>,
}

enum Out<W: Write> {
    Plain(W),
    Zstd(zstd::stream::write::Encoder<'static, W>),
    Gzip(flate2::write::GzEncoder<W>),
}

impl<W: Write> Out<W> {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Out::Plain(w) => w,
            Out::Zstd(w) => w,
            Out::Gzip(w) => w,
        }
    }

    fn finish(self) -> io::Result<W> {
        match self {
            Out::Plain(w) => Ok(w),
            Out::Zstd(w) => w.finish(),
            Out::Gzip(w) => w.finish(),
        }
    }
}

/// Lines gathered before they are written out.
const GATHER: usize = 1 << 16;

impl Writer<Box<dyn Write>> {
    /// Creates the record file `path`, compressed as its name says ([`Compression::for_path`]).
    pub fn create(path: &Path) -> io::Result<Writer<Box<dyn Write>>> {
        let file = File::create(path)?;
        Writer::compressed(
            Box::new(file) as Box<dyn Write>,
            Compression::for_path(path),
        )
    }
}

impl<W: Write> Writer<W> {
    /// A writer of plain JSON Lines.
    pub fn new(out: W) -> Writer<W> {
        let mut writer = Writer::new_plain_buffer();
        writer.out = Some(Out::Plain(out));
        writer
    }

    /// This writer, writing record format `format` ([`FORMAT`] or [`FORMAT_COMPACT`]).
    pub fn with_format(mut self, format: u32) -> Writer<W> {
        self.format = format;
        self
    }

    /// The record format written (the referee puts it in each header).
    pub fn format(&self) -> u32 {
        self.format
    }

    /// Whether the model's events are written ([`Writer::event`]): in format 1. A compact
    /// record holds the players' answers instead ([`Writer::action`]).
    pub fn wants_events(&self) -> bool {
        self.format == FORMAT
    }

    /// A writer of records compressed with `compression`.
    pub fn compressed(out: W, compression: Compression) -> io::Result<Writer<W>> {
        let out = match compression {
            Compression::None => Out::Plain(out),
            Compression::Zstd => Out::Zstd(zstd::stream::write::Encoder::new(out, 1)?),
            Compression::Gzip => Out::Gzip(flate2::write::GzEncoder::new(
                out,
                flate2::Compression::fast(),
            )),
        };
        let mut writer = Writer::new_plain_buffer();
        writer.out = Some(out);
        Ok(writer)
    }

    fn new_plain_buffer() -> Writer<W> {
        Writer {
            out: None,
            buf: String::with_capacity(GATHER + 4096),
            rules: None,
            format: FORMAT,
            default_rules: None,
            open_turn: None,
        }
    }

    /// Writes `line` as it is (a compact record's open turn line is ended first).
    pub fn write(&mut self, line: &Line) -> io::Result<()> {
        self.close_turn()?;
        match line {
            Line::Game(header) => self.header(header),
            Line::Event(event) => self.event_line(event),
            Line::Fault(_) | Line::Clock(_) => {
                self.buf.push_str(&serde_json::to_string(line)?);
                self.end_line(false)
            }
            Line::Stopped(_) => {
                self.buf.push_str(&serde_json::to_string(line)?);
                self.end_line(true)
            }
            Line::Turn(_) => {
                self.buf.push_str(&serde_json::to_string(line)?);
                self.end_line(false)
            }
        }
    }

    /// Writes a model event (the same line as `write(&Line::Event(..))`, without a copy) in a
    /// format 1 record; a compact record leaves events out.
    pub fn event(&mut self, event: &Event) -> io::Result<()> {
        if self.format != FORMAT {
            return Ok(());
        }
        self.event_line(event)
    }

    fn event_line(&mut self, event: &Event) -> io::Result<()> {
        json::event(&mut self.buf, event);
        self.end_line(matches!(event, Event::GameEnd { .. }))
    }

    /// A compact record: `action`, the answer of a seat at `round` and `turn` (as its view
    /// showed them), goes on the turn line (a new line when the turn is another). Format 1
    /// records write the events the action caused instead.
    pub fn action(&mut self, round: u32, turn: u32, action: Action) -> io::Result<()> {
        if self.format == FORMAT {
            return Ok(());
        }
        match self.open_turn {
            Some(at) if at == (round, turn) => self.buf.push(','),
            Some(_) => {
                self.close_turn()?;
                self.buf.push('[');
            }
            None => self.buf.push('['),
        }
        self.open_turn = Some((round, turn));
        match Answer::of(action) {
            Answer::Number(n) => json::number(&mut self.buf, n),
            other => self.buf.push_str(&serde_json::to_string(&other)?),
        }
        Ok(())
    }

    /// [`Writer::action`]'s common case, kept small enough to inline where answers are
    /// applied: a card played on the turn line already open (a compact record's answers but the
    /// first of each turn). `false`, writing nothing, in every other case: the caller then
    /// calls `action`.
    #[inline(always)]
    pub fn card_on_open_turn(&mut self, round: u32, turn: u32, action: Action) -> bool {
        let Action::Play(card) = action else {
            return false;
        };
        if self.open_turn != Some((round, turn)) {
            return false;
        }
        // The comma and the number in one store, as in a list.
        crate::decimal::Number::write_after(u32::from(card.0), &mut self.buf, b',');
        true
    }

    /// Ends the open turn line, if any.
    fn close_turn(&mut self) -> io::Result<()> {
        if self.open_turn.take().is_some() {
            self.buf.push(']');
            self.end_line(false)?;
        }
        Ok(())
    }

    /// A compact record: round `round` was dealt as given (`take5 play --deal`), so its cards
    /// are written (a `deal` line, and the anniversary's `specials` line); the seed's deals are
    /// left out. Format 1 records have the deal among the events.
    pub fn dealt(&mut self, round: u32, deal: &Deal) -> io::Result<()> {
        if self.format == FORMAT {
            return Ok(());
        }
        self.close_turn()?;
        self.event_line(&Event::Deal {
            round,
            hands: deal.hands.clone(),
            rows: deal.rows.clone(),
        })?;
        if let Some(specials) = &deal.specials {
            self.event_line(&Event::Specials {
                round,
                hands: specials.hands.clone(),
                deck: specials.deck.clone(),
                reshuffled: specials.reshuffled,
                seed: specials.seed,
            })?;
        }
        Ok(())
    }

    /// A compact record: the game is over with `outcome` (its `game_end` line, which ends the
    /// game's lines). Format 1 records have it among the events.
    pub fn game_over(&mut self, outcome: &Outcome) -> io::Result<()> {
        if self.format == FORMAT {
            return Ok(());
        }
        self.close_turn()?;
        self.event_line(&Event::GameEnd {
            totals: outcome.totals.clone(),
            winners: outcome.winners.clone(),
        })
    }

    /// A header: as serde writes it, with the rules' JSON kept from the last header.
    fn header(&mut self, header: &Header) -> io::Result<()> {
        if self
            .rules
            .as_ref()
            .is_none_or(|(rules, _)| *rules != header.rules)
        {
            self.rules = Some((header.rules.clone(), serde_json::to_string(&header.rules)?));
            self.default_rules = None;
        }
        let seats = header.players.len();
        let compact = header.format >= FORMAT_COMPACT;
        if compact
            && self
                .default_rules
                .is_none_or(|(variant, s, _)| variant != header.variant || s != seats)
        {
            let default = header.variant.rules().at_table(seats) == header.rules;
            self.default_rules = Some((header.variant, seats, default));
        }
        // A compact header leaves out the variant's own rules (readers put them back).
        let leave_out = compact && self.default_rules.is_some_and(|(_, _, d)| d);
        let rules = &self.rules.as_ref().expect("just set").1;
        self.buf.push_str("{\"event\":\"game\"");
        HeaderKeys {
            buf: &mut self.buf,
            rules,
            leave_out_rules: leave_out,
        }
        .write(header)?;
        self.buf.push('}');
        self.end_line(false)
    }

    /// Ends the line just put into the buffer; writes the buffer out when it is full or `flush`
    /// (the end of a game), and then flushes.
    fn end_line(&mut self, flush: bool) -> io::Result<()> {
        self.buf.push('\n');
        if flush || self.buf.len() >= GATHER {
            self.write_out(flush)?;
        }
        Ok(())
    }

    fn write_out(&mut self, flush: bool) -> io::Result<()> {
        let out = self.out.as_mut().expect("not finished").writer();
        out.write_all(self.buf.as_bytes())?;
        self.buf.clear();
        if flush { out.flush() } else { Ok(()) }
    }

    /// Writes out every line and ends the compressed stream, if any; gives back the output.
    pub fn finish(mut self) -> io::Result<W> {
        self.close_turn()?;
        self.write_out(true)?;
        let out = self.out.take().expect("not finished").finish()?;
        Ok(out)
    }

    /// [`Writer::finish`] for an output that cannot fail (a `Vec<u8>`).
    pub fn into_inner(self) -> W {
        self.finish().expect("writing to memory does not fail")
    }
}

impl<W: Write> Drop for Writer<W> {
    /// Writes out what is left (a game that was stopped by an error), as far as it goes.
    fn drop(&mut self) {
        if self.out.is_some() {
            let _ = self.close_turn();
            let _ = self.write_out(true);
            if let Some(out) = self.out.take() {
                let _ = out.finish();
            }
        }
    }
}

/// The record lines of the hot events, written as serde_json writes them (field order,
/// no spaces), without serde: a record of built-in bots' games is written at several times
/// serde's speed. A test keeps the two equal for every event of every variant. The same
/// layout is read back without serde ([`read_event`]); any other layout of the same line (other
/// field order, spaces) is read by serde, with the same result.
mod json {
    use crate::cards::{Card, Special};
    use crate::decimal::{self, Number};
    use crate::game::{Event, SpecialPlay, TakeReason};

    /// Reads a line in exactly the layout [`event`] writes; `None` for any other line (which
    /// may still be a valid line: serde reads it then, and names what is wrong if it is not).
    pub fn read_event(line: &str) -> Option<Event> {
        let rest = line.strip_prefix("{\"event\":\"")?;
        // The name ends at an ASCII quote: a char boundary, so the name needs no UTF-8 check.
        let name_end = rest.bytes().position(|c| c == b'"')?;
        let mut p = Cursor {
            b: line.as_bytes(),
            i: 10 + name_end + 1,
        };
        read_fields(&rest[..name_end], &mut p)
    }

    /// The event `name`'s fields, each `,"key":value` in the order of their declaration, and
    /// the line's closing `}`. The event is built in each arm once the line is read whole, and
    /// not inlined: an event built after the arms, from whichever arm ran, cost about 60 more
    /// instructions a line (callgrind, docs/performance.md).
    macro_rules! json_reader {
        ($( $(#[$attr:meta])* $Variant:ident $name:literal [$($field:ident: $ty:ty [$hole:literal, $what:literal])*] [$($viewer:ident $($seen:ident: $seen_ty:ty [$seen_hole:literal, $seen_what:literal] = $value:expr;)*)?] )*) => {
            #[inline(never)]
            fn read_fields(name: &str, p: &mut Cursor) -> Option<Event> {
                match name {
                    $( $name => {
                        $(
                            p.lit(concat!(",\"", stringify!($field), "\":").as_bytes())?;
                            let $field = <$ty as Value>::read(p)?;
                        )*
                        p.end()?;
                        Some(Event::$Variant { $($field),* })
                    } )*
                    _ => None,
                }
            }
        };
    }
    crate::game::events!(json_reader);

    /// Reads a turn line of numbers only (`[27,24,22,2]`, as the writer writes it); `None` for
    /// any other line.
    pub fn read_numbers(line: &[u8]) -> Option<super::Answers> {
        turn_numbers(line).and_then(|(answers, end)| (end == line.len()).then_some(answers))
    }

    /// Reads a turn line of numbers at the start of `bytes` (an input's buffer), with its line
    /// end (`\n` or `\r\n`): the answers and the number of bytes the line takes with its end.
    /// `None` if the bytes start with no such line, or it does not end within them.
    pub fn read_numbers_line(bytes: &[u8]) -> Option<(super::Answers, usize)> {
        let (answers, end) = turn_numbers(bytes)?;
        match bytes.get(end) {
            Some(b'\n') => Some((answers, end + 1)),
            Some(b'\r') if bytes.get(end + 1) == Some(&b'\n') => Some((answers, end + 2)),
            _ => None,
        }
    }

    /// The numbers of a turn line at the start of `bytes` (`[27,24,22,2]`), in one pass, and
    /// where the line's `]` ends.
    #[inline(always)]
    fn turn_numbers(bytes: &[u8]) -> Option<(super::Answers, usize)> {
        if bytes.first() != Some(&b'[') {
            return None;
        }
        let mut answers = super::Answers::new();
        let mut i = 1;
        loop {
            let start = i;
            let mut n: u32 = 0;
            while let Some(&c) = bytes.get(i) {
                let digit = c.wrapping_sub(b'0');
                if digit > 9 {
                    break;
                }
                // At most 9 digits (no overflow: a longer number is read by serde).
                if i - start == 9 {
                    return None;
                }
                n = n * 10 + u32::from(digit);
                i += 1;
            }
            // No digits, or a leading zero (not JSON).
            if i == start || (i - start > 1 && bytes[start] == b'0') {
                return None;
            }
            answers.push(super::Answer::Number(n));
            match bytes.get(i) {
                Some(b',') => i += 1,
                Some(b']') => return Some((answers, i + 1)),
                _ => return None,
            }
        }
    }

    /// A reader of one line's bytes.
    struct Cursor<'a> {
        b: &'a [u8],
        i: usize,
    }

    impl<'a> Cursor<'a> {
        fn lit(&mut self, text: &[u8]) -> Option<()> {
            if self.b[self.i..].starts_with(text) {
                self.i += text.len();
                Some(())
            } else {
                None
            }
        }

        /// A JSON string without escapes (a name: `"full"`, `"stop"`), without its quotes.
        fn word(&mut self) -> Option<&'a str> {
            self.lit(b"\"")?;
            let len = self.b[self.i..].iter().position(|&c| c == b'"')?;
            let word = std::str::from_utf8(&self.b[self.i..self.i + len]).ok()?;
            self.i += len + 1;
            Some(word)
        }

        /// The line's last `}`, and nothing after it.
        fn end(&mut self) -> Option<()> {
            self.lit(b"}")?;
            (self.i == self.b.len()).then_some(())
        }

        /// A JSON number without sign, fraction or exponent (and no leading zero), as a u64.
        fn digits(&mut self) -> Option<u64> {
            let start = self.i;
            let mut n: u64 = 0;
            while let Some(&c) = self.b.get(self.i) {
                if !c.is_ascii_digit() {
                    break;
                }
                n = n.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
                self.i += 1;
            }
            let len = self.i - start;
            // No digits, or a leading zero (not JSON), or a fraction or exponent next.
            if len == 0
                || (len > 1 && self.b[start] == b'0')
                || matches!(self.b.get(self.i), Some(b'.' | b'e' | b'E'))
            {
                return None;
            }
            Some(n)
        }

        fn uint<T: TryFrom<u64>>(&mut self) -> Option<T> {
            T::try_from(self.digits()?).ok()
        }

        fn int(&mut self) -> Option<i32> {
            if self.lit(b"-").is_some() {
                let n = i64::try_from(self.digits()?).ok()?;
                i32::try_from(-n).ok()
            } else {
                self.uint()
            }
        }

        fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
            self.lit(b"[")?;
            // Room for a row's cards and more from the start: most lists of a record are a
            // turn's cards or a row's, and growing from 4 reallocated at each full row's take.
            let mut items = Vec::with_capacity(8);
            if self.lit(b"]").is_some() {
                return Some(items);
            }
            loop {
                items.push(item(self)?);
                match self.b.get(self.i) {
                    Some(b',') => self.i += 1,
                    Some(b']') => {
                        self.i += 1;
                        return Some(items);
                    }
                    _ => return None,
                }
            }
        }
    }

    /// A number, as JSON has it (see [`crate::decimal`]).
    #[inline(always)]
    pub fn number(buf: &mut String, n: impl Number) {
        n.write(buf);
    }

    #[inline(always)]
    fn numbers<T: Number>(buf: &mut String, items: &[T]) {
        buf.push('[');
        decimal::list(buf, items);
        buf.push(']');
    }

    #[inline(always)]
    fn cards(buf: &mut String, cards: &[Card]) {
        numbers(buf, cards);
    }

    /// A field's value in a record line, written and read in serde_json's layout.
    trait Value: Sized {
        fn write(&self, buf: &mut String);
        /// `None` if the value is not in the layout [`Value::write`] writes.
        fn read(p: &mut Cursor) -> Option<Self>;
        /// A list of these (a JSON array).
        #[inline(always)]
        fn write_list(items: &[Self], buf: &mut String) {
            buf.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    buf.push(',');
                }
                item.write(buf);
            }
            buf.push(']');
        }
    }

    macro_rules! numbers {
        ($($t:ty: $read:ident),*) => {$(
            impl Value for $t {
                #[inline(always)]
                fn write(&self, buf: &mut String) {
                    number(buf, *self);
                }
                #[inline(always)]
                fn read(p: &mut Cursor) -> Option<$t> {
                    p.$read()
                }
                #[inline(always)]
                fn write_list(items: &[$t], buf: &mut String) {
                    numbers(buf, items);
                }
            }
        )*};
    }
    numbers!(u32: uint, u64: uint, usize: uint, i32: int);

    impl Value for Card {
        #[inline(always)]
        fn write(&self, buf: &mut String) {
            number(buf, self.0);
        }
        #[inline(always)]
        fn read(p: &mut Cursor) -> Option<Card> {
            p.uint().map(Card)
        }
        #[inline(always)]
        fn write_list(items: &[Card], buf: &mut String) {
            cards(buf, items);
        }
    }

    impl<T: Value> Value for Vec<T> {
        #[inline(always)]
        fn write(&self, buf: &mut String) {
            T::write_list(self, buf);
        }
        #[inline(always)]
        fn read(p: &mut Cursor) -> Option<Vec<T>> {
            p.list(T::read)
        }
    }

    impl Value for bool {
        fn write(&self, buf: &mut String) {
            buf.push_str(if *self { "true" } else { "false" });
        }
        fn read(p: &mut Cursor) -> Option<bool> {
            if p.lit(b"true").is_some() {
                Some(true)
            } else {
                p.lit(b"false").map(|()| false)
            }
        }
    }

    impl Value for TakeReason {
        #[inline(always)]
        fn write(&self, buf: &mut String) {
            buf.push('"');
            buf.push_str(self.name());
            buf.push('"');
        }
        #[inline(always)]
        fn read(p: &mut Cursor) -> Option<TakeReason> {
            TakeReason::from_name(p.word()?)
        }
    }

    impl Value for Special {
        fn write(&self, buf: &mut String) {
            buf.push('"');
            buf.push_str(self.name());
            buf.push('"');
        }
        fn read(p: &mut Cursor) -> Option<Special> {
            Special::from_name(p.word()?)
        }
    }

    impl Value for SpecialPlay {
        /// As serde writes it: a rare line, not worth a writer of its own.
        fn write(&self, buf: &mut String) {
            buf.push_str(&serde_json::to_string(self).expect("a special card played serializes"));
        }
        /// Left to serde (the whole line).
        fn read(_: &mut Cursor) -> Option<SpecialPlay> {
            None
        }
    }

    /// Writes `event`'s line (without its line end): `{"event":"<name>"`, then each field
    /// `,"key":value` in the order of its declaration, as serde writes it.
    #[inline]
    pub fn event(buf: &mut String, event: &Event) {
        write_fields(buf, event);
        buf.push('}');
    }

    macro_rules! json_writer {
        ($( $(#[$attr:meta])* $Variant:ident $name:literal [$($field:ident: $ty:ty [$hole:literal, $what:literal])*] [$($viewer:ident $($seen:ident: $seen_ty:ty [$seen_hole:literal, $seen_what:literal] = $value:expr;)*)?] )*) => {
            #[inline(always)]
            fn write_fields(buf: &mut String, event: &Event) {
                match event {
                    $( Event::$Variant { $($field),* } => {
                        buf.push_str(concat!("{\"event\":\"", $name, "\""));
                        $(
                            buf.push_str(concat!(",\"", stringify!($field), "\":"));
                            Value::write($field, buf);
                        )*
                    } )*
                }
            }
        };
    }
    crate::game::events!(json_writer);
}
