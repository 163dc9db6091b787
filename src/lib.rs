//! take5: a referee and rules-checker for Take 5 / 6 nimmt! and its variants.
//!
//! The rooms, each knowing only what it must, in layers that import only downwards
//! (docs/architecture.md has the table, kept by `tests/all/architecture.rs`):
//! - [`cards`], [`rng`], [`input`], [`yaml`], [`decimal`], [`visible`], [`words`]: cards,
//!   randomness, bounded input, numbers written fast, text made safe to print on a terminal,
//!   counts with their nouns;
//! - [`rules`]: rule settings as plain data;
//! - [`game`]: the variant-independent model (who decides what, actions, events, views);
//! - [`variants`]: one module per variant, pure functions of the rules and a seeded [`rng`];
//! - [`seat`]: what a player learns when a game starts, and how a player failed;
//! - [`protocol`]: the text protocol for bots (the only place that knows the lines);
//!   [`record`]: game records as JSON Lines;
//! - [`players`]: built-in bots and bots over pipes, behind one interface;
//!   [`referee`]: the loop that drives any variant with any players and records the game;
//! - [`house`]: house rules in Lua; [`fixture`]: rule fixtures (YAML scenarios) and their
//!   runner, for `take5 check`; [`verify`] re-checks records against the rules; [`selftest`]: a
//!   bot's compliance test, scripted situations of every variant;
//! - [`tournament`]: a pool of bots over many games on several threads, results, statistics;
//!   [`tune`]: a bot's parameters tuned by SPSA on the tournament's duplicate deals;
//! - [`show`]: tables drawn for people (records, fixtures, reports) and the human seat;
//! - [`cli`]: the command line, one module per subcommand.

pub mod cards;
pub mod cli;
pub mod decimal;
pub mod fixture;
pub mod game;
pub mod house;
pub mod input;
pub mod players;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod rng;
pub mod rules;
pub mod seat;
pub mod selftest;
pub mod show;
pub mod tournament;
pub mod tune;
pub mod variants;
pub mod verify;
pub mod visible;
pub mod words;
pub mod yaml;
