//! The integration tests, one program (as ripgrep does): a module per area, the shared helpers
//! in tests/common. One program links the dependencies once instead of once per file.

#[path = "../common/mod.rs"]
mod common;

mod anniversary;
mod architecture;
mod bot_lifetime;
mod broken_pipe;
mod circle;
mod cli;
mod completions;
mod corpus;
mod deal_book;
mod docs;
mod engine;
mod fixture_errors;
mod fixture_failures;
mod fixture_questions;
mod fixtures;
mod house;
mod house_hostile;
mod house_play;
mod house_settings;
mod kits;
mod limits;
mod log_io;
mod mcs;
mod mcs_search;
mod model;
mod play;
mod play_faults;
mod play_handshake;
mod play_pro;
mod pro;
mod process;
mod protocol;
mod protocol_alloc;
mod protocol_bots;
mod protocol_doc;
mod ratings;
mod readme;
mod records;
mod report;
mod selftest;
mod show;
mod show_page;
mod slurm;
mod standings;
mod startup;
mod stats;
mod take_a_number;
mod terminal_escapes;
mod tournament;
mod tune;
mod variant_rooms;
mod verify;
