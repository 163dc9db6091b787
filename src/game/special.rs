//! The anniversary variant's special cards (rulebook 003, "6 nimmt! Anniversary Variant"): how
//! one is played with its arguments, how they are dealt, and the public table a seat sees of
//! them. The cards themselves are [`crate::cards::Special`].

use crate::cards::{Card, Special};
use serde::{Deserialize, Serialize};

/// A special card played before a number card is placed, with its arguments. Rows count from 0;
/// `at` is the place in the row the card goes to (0: before the row's first card), which must
/// keep the row ascending. Rows and places are bytes, so an [`crate::game::Action`] stays 16
/// bytes (the referee passes one per decision); the variant's rules keep them below 256. (Negative = Positive is played while taking: see
/// [`crate::game::Action::Cancel`].)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "special", deny_unknown_fields)]
pub enum SpecialPlay {
    /// The card played starts a 5th row.
    FifthRow,
    /// `row` is taken by its 7th card until it is taken.
    SevenNimmt { row: u8 },
    /// The card played goes to place `at` of `row` instead of its usual row.
    Insert { row: u8, at: u8 },
    /// The card played goes back to the hand; `card` from the hand is placed instead.
    Replace { card: Card },
    /// `card`, in some row, moves to place `at` of `row`; then the card played is placed.
    Shift { card: Card, row: u8, at: u8 },
    /// `row` is blocked until the next row is taken; then the card played is placed.
    Stop { row: u8 },
}

impl SpecialPlay {
    /// The special card this play uses.
    pub fn card(self) -> Special {
        match self {
            SpecialPlay::FifthRow => Special::FifthRow,
            SpecialPlay::SevenNimmt { .. } => Special::SevenNimmt,
            SpecialPlay::Insert { .. } => Special::Insert,
            SpecialPlay::Replace { .. } => Special::Replace,
            SpecialPlay::Shift { .. } => Special::Shift,
            SpecialPlay::Stop { .. } => Special::Stop,
        }
    }
}

/// The special cards of a deal: each seat's new cards, and the deck after dealing them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialDeal {
    /// The special cards each seat receives this round (added to those it kept), by seat.
    pub hands: Vec<Vec<Special>>,
    /// The face-down deck after the deal, top card first (replaces the deck).
    pub deck: Vec<Special>,
    /// Whether the discard pile went into the deck before the deal (it is then empty).
    #[serde(default)]
    pub reshuffled: bool,
    /// Seeds the generator that reshuffles the discard pile into a new deck (docs/records.md).
    #[serde(default)]
    pub seed: u64,
}

clone_field_by_field! {
    /// What every seat sees of the special cards besides its own hand (the anniversary variant).
    #[derive(Debug, Default, PartialEq, Eq)]
    pub struct SpecialTable {
        /// How many special cards each seat holds.
        pub hand_counts: Vec<usize>,
        /// Rows with a 7 nimmt! card (taken by their 7th card), by row.
        pub sevens: Vec<bool>,
        /// Rows with a Stop card (blocked), by row.
        pub stops: Vec<bool>,
        /// Cards in the face-down deck.
        pub deck: usize,
        /// The face-up discard pile, oldest first.
        pub discard: Vec<Special>,
        /// While a seat decides on Negative = Positive: the cards it is about to take.
        pub taking: Vec<Card>,
    }
}
