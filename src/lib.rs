//! take5: a referee and rules-checker for Take 5 / 6 nimmt! and its variants.
//!
//! The rooms, each knowing only what it must:
//! - [`cards`], [`rules`]: cards and rule settings as plain data;
//! - [`game`]: the variant-independent model (who decides what, actions, events, views);
//! - [`variants`]: one module per variant, pure functions of the rules and a seeded [`rng`];
//! - [`protocol`]: the text protocol for bots (the only place that knows the lines);
//! - [`players`]: built-in bots and bots over pipes, behind one interface;
//! - [`referee`]: the loop that drives any variant with any players and records the game;
//! - [`record`]: game records as JSON Lines; [`verify`] re-checks them against the rules;
//! - [`fixture`]: rule fixtures (YAML scenarios) and their runner, for `take5 check`;
//! - [`tournament`]: a pool of bots over many games on several threads, results, statistics;
//! - [`selftest`]: a bot's compliance test, scripted situations of every variant;
//! - [`cli`]: the command line, one module per subcommand;
//! - [`input`]: reading input files within a size limit;
//! - [`visible`]: text from a bot or a file made safe to print on a terminal.

pub mod cards;
pub mod cli;
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
pub mod selftest;
pub mod show;
pub mod tournament;
pub mod variants;
pub mod verify;
pub mod visible;
pub mod yaml;
