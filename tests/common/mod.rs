//! Helpers shared by the tests: tables written as plain numbers, and the take5 binary.
#![allow(dead_code)] // each test crate uses its own part of this module

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Arc;
use take5::cards::Card;
use take5::game::{Action, Event, Game, TakeReason};
use take5::rules::Rules;
use take5::variants::classic::{Classic, Table};

pub fn cards(numbers: &[u16]) -> Vec<Card> {
    numbers.iter().map(|&n| Card(n)).collect()
}

/// A table in round 1, turn 1 under `rules`, with these scores and nothing taken yet.
pub fn table_with(rules: Rules, rows: &[&[u16]], hands: &[&[u16]], scores: &[i32]) -> Classic {
    let table = Table {
        round: 1,
        turn: 1,
        hands: hands.iter().map(|h| cards(h)).collect(),
        rows: rows.iter().map(|r| cards(r)).collect(),
        scores: scores.to_vec(),
        piles: vec![Vec::new(); hands.len()],
    };
    Classic::from_table(Arc::new(rules), &table).expect("a valid table")
}

/// Every seat plays its card, in seat order; returns the events.
pub fn play(game: &mut Classic, played: &[u16]) -> Vec<Event> {
    let mut events = Vec::new();
    for (seat, &card) in played.iter().enumerate() {
        game.apply(seat, Action::Play(Card(card)), &mut events)
            .unwrap_or_else(|e| panic!("seat {seat} plays {card}: {e}"));
    }
    events
}

/// The takes among `events`: (seat, row, bullheads, reason).
pub fn takes(events: &[Event]) -> Vec<(usize, usize, i32, TakeReason)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Take {
                seat,
                row,
                bullheads,
                reason,
                ..
            } => Some((*seat, *row, *bullheads, *reason)),
            _ => None,
        })
        .collect()
}

/// Runs the take5 binary with `args`.
pub fn take5(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_take5"))
        .args(args)
        .output()
        .expect("take5 runs")
}

/// Asserts that take5 succeeded; returns what it printed.
pub fn ok(output: &Output) -> String {
    assert!(
        output.status.success(),
        "take5 failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A path for `name` in a temporary folder of this test binary and process.
pub fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "take5-{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
