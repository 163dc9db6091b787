//! The text protocol v1 between the referee and bots over pipes: one message per line, like UCI
//! or GTP (docs/protocol.md is the reference for bot authors). This is the only module that knows
//! the text. It knows the shape of the messages, not the rules: whether a move is legal is the
//! game model's answer.
//!
//! - [`message`]: the messages as owned values ([`ToBot`], [`FromBot`]);
//! - [`print`](mod@print): printers that append one line to a reusable `String`, straight from the model
//!   ([`crate::game::View`], [`crate::game::Event`], [`crate::seat::GameStart`]) or from the
//!   owned values;
//! - [`summary`]: every message in short, for docs/protocol.md;
//! - [`parse`]: nom parsers for both directions, with errors that say where and what was
//!   expected ([`ParseError`]).
//!
//! A referee's exchange with a bot, in short: [`print::hello`], then [`parse::from_bot`] the
//! answer and check it with [`FromBot::greeting`]; per game [`print::game`]; per event
//! [`print::event`]; per decision [`print::ask`], then [`parse::from_bot`] and
//! [`FromBot::answer`] the reply, and on a refusal [`print::error`] (or [`print::refusal`],
//! [`print::illegal`]) and read again; at the end [`print::bye`].

pub mod message;
pub mod parse;
pub mod print;
pub mod summary;

pub use message::{
    Ask, ErrorKind, EventLine, FromBot, GameInfo, MAX_REPLY_BYTES, Mismatch, Request, ToBot,
    VERSION,
};
pub use parse::ParseError;
