//! Every message of the protocol in short, made from the declarations ([`super::message`] and
//! [`crate::game::Event`]): docs/protocol.md holds this text, and a test keeps it the same.

use super::message::{
    ASK_FIELDS, ASK_KEYS, AskKey, ErrorKind, GAME_KEYS, REPLY_WORDS, SEEN_FIELDS, ToBot, When,
};
use crate::game::Event;
use std::fmt::Write;

/// The list of docs/protocol.md's "Every message, in short", in Markdown.
pub fn in_short() -> String {
    let mut out = String::new();
    let keys = |keys: &[&str]| -> String {
        keys.iter()
            .map(|key| format!("`{key}=`"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let words = |words: &[&str]| -> String {
        words
            .iter()
            .map(|word| format!("`{word}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(out, "- Lines from the referee: {}.", words(ToBot::KEYWORDS));
    let _ = writeln!(out, "- `game`: {}.", keys(GAME_KEYS));
    let asks: Vec<String> = ASK_FIELDS
        .iter()
        .map(|(word, fields)| match fields {
            [] => format!("`{word}`"),
            fields => format!("`{word}` (with {})", keys(fields)),
        })
        .collect();
    let _ = writeln!(out, "- `ask`: {}.", asks.join(", "));
    let keys_of_ask: Vec<String> = ASK_KEYS
        .iter()
        .map(|&key| match key {
            AskKey::Own { last: false } => "the ask's own fields (above)".to_string(),
            AskKey::Own { last: true } => {
                "those of its own fields that come after the table".to_string()
            }
            AskKey::Key(key, When::Always) => format!("`{key}=`"),
            AskKey::Key(key, when) => format!("`{key}=` ({})", on_line(when)),
        })
        .collect();
    let _ = writeln!(
        out,
        "- Every `ask` line's keys, in order: {}.",
        keys_of_ask.join(", ")
    );
    let events: Vec<String> = Event::FIELDS
        .iter()
        .map(|(name, fields)| {
            let seen = SEEN_FIELDS.iter().find(|(seen, _)| seen == name);
            let fields = seen.map_or(*fields, |(_, seen)| *seen);
            format!("`{name}` {}", keys(fields))
        })
        .collect();
    let _ = writeln!(out, "- `event`: {}.", events.join("; "));
    let kinds: Vec<&str> = ErrorKind::ALL.iter().map(|kind| kind.name()).collect();
    let _ = writeln!(out, "- `error`: {}.", words(&kinds));
    let _ = writeln!(out, "- Lines from the bot: {}.", words(REPLY_WORDS));
    out
}

/// When a key marked `if when` is on an `ask` line, in words (but [`When::Always`]).
fn on_line(when: When) -> &'static str {
    match when {
        When::Always => "always",
        When::NotDrafting => "not in `pick`",
        When::Keep => "in `keep`",
        When::Cancel => "in `cancel`",
        When::Number => "Take a Number",
        When::Circle => "the circle game",
        When::Specials => "anniversary",
        When::Clock => "with a clock",
    }
}
