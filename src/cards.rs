//! Cards and their bullheads, kept as data so variants and house rules can replace the table.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A number card. Only its number matters to the rules; its bullheads come from the [`Deck`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Card(pub u16);

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The number cards in play: a contiguous range starting at `lowest`, with the bullheads of each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deck {
    /// The lowest card number.
    pub lowest: u16,
    /// Bullheads of each card, from `lowest` upwards; the deck has one card per entry.
    pub bullheads: Vec<u8>,
    /// The circle game: the cards whose bullheads are red (penalty points); every other card's
    /// are green (points won). Empty, and left out of records, for the other variants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub red: Vec<Card>,
}

impl Deck {
    /// Cards `1..=highest` with the printed 6 nimmt! bullheads (see [`classic_bullheads`]).
    pub fn classic(highest: u16) -> Deck {
        Deck {
            lowest: 1,
            bullheads: (1..=highest).map(classic_bullheads).collect(),
            red: Vec::new(),
        }
    }

    /// The circle game's 98 cards, as reconstructed (docs/rulings.md, "Circle"): the cards
    /// with more than one bullhead in 6 nimmt! carry that many red ones, every other card one
    /// green bullhead, except [`CIRCLE_TWO_GREEN`], which carry two.
    pub fn circle() -> Deck {
        let highest = 98;
        let red: Vec<Card> = (1..=highest)
            .filter(|&n| classic_bullheads(n) > 1)
            .map(Card)
            .collect();
        let bullheads = (1..=highest)
            .map(|n| match classic_bullheads(n) {
                1 if CIRCLE_TWO_GREEN.contains(&n) => 2,
                heads => heads,
            })
            .collect();
        Deck {
            lowest: 1,
            bullheads,
            red,
        }
    }

    /// Whether `card`'s bullheads are red (the circle game's penalty points).
    #[inline]
    pub fn is_red(&self, card: Card) -> bool {
        self.red.binary_search(&card).is_ok()
    }

    /// The circle game's points of `card`: its green bullheads, or minus its red ones.
    #[inline]
    pub fn points(&self, card: Card) -> i32 {
        let heads = self.bullheads(card) as i32;
        if self.is_red(card) { -heads } else { heads }
    }

    pub fn len(&self) -> usize {
        self.bullheads.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bullheads.is_empty()
    }

    pub fn highest(&self) -> u16 {
        (usize::from(self.lowest) + self.bullheads.len() - 1) as u16
    }

    pub fn contains(&self, card: Card) -> bool {
        card.0 >= self.lowest && usize::from(card.0 - self.lowest) < self.bullheads.len()
    }

    /// Bullheads on `card`. The card must be in the deck (the engine validates cards on entry).
    #[inline]
    pub fn bullheads(&self, card: Card) -> u32 {
        u32::from(self.bullheads[usize::from(card.0 - self.lowest)])
    }

    /// Total bullheads of several cards.
    pub fn sum(&self, cards: &[Card]) -> u32 {
        cards.iter().map(|&c| self.bullheads(c)).sum()
    }

    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        (0..self.bullheads.len() as u16).map(|i| Card(self.lowest + i))
    }
}

/// The circle cards known to carry two green bullheads (seen in reviews; the seeds README).
pub const CIRCLE_TWO_GREEN: [u16; 2] = [42, 52];

/// A special card. It has no number. The anniversary variant (rulebook 003) deals the first
/// seven kinds, [`Special::COPIES`] of each; the circle game (rulebook 000) the last two, one of
/// each per player. One type for both, so a special card has one name everywhere (records,
/// fixtures, the protocol, rule errors); each variant refuses the kinds it does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Special {
    /// Anniversary: start a 5th row with the card played.
    FifthRow,
    /// Anniversary: a row is taken by its 7th card instead of its 6th.
    SevenNimmt,
    /// Anniversary: put the card played anywhere in a row, in ascending order.
    Insert,
    /// Anniversary: take the card played back and place another from the hand instead.
    Replace,
    /// Anniversary: move a number card to another row, in ascending order, before placing.
    Shift,
    /// Anniversary: block a row: nothing is added to it, removed from it or taken with it.
    Stop,
    /// Anniversary: while taking a row, one of its cards' bullheads count as plus.
    NegativePositive,
    /// Circle game, "x 2": doubles its taker's points.
    #[serde(rename = "x2")]
    Double,
    /// Circle game, "+ 5": 5 points for its taker.
    #[serde(rename = "plus5")]
    PlusFive,
}

impl Special {
    /// The anniversary variant's kinds, in the order of the rulebook's list (and of a fresh deck).
    pub const ANNIVERSARY: [Special; 7] = [
        Special::FifthRow,
        Special::SevenNimmt,
        Special::Insert,
        Special::Replace,
        Special::Shift,
        Special::Stop,
        Special::NegativePositive,
    ];

    /// The circle game's kinds: each player gets one of each.
    pub const CIRCLE: [Special; 2] = [Special::Double, Special::PlusFive];

    /// Copies of each kind in the anniversary variant's deck.
    pub const COPIES: usize = 4;

    /// The name in fixtures, records and the protocol.
    pub fn name(self) -> &'static str {
        match self {
            Special::FifthRow => "fifth_row",
            Special::SevenNimmt => "seven_nimmt",
            Special::Insert => "insert",
            Special::Replace => "replace",
            Special::Shift => "shift",
            Special::Stop => "stop",
            Special::NegativePositive => "negative_positive",
            Special::Double => "x2",
            Special::PlusFive => "plus5",
        }
    }

    /// The name printed on the card, as the rulebooks write it (what a player calls it; the
    /// viewer draws it).
    pub fn printed_name(self) -> &'static str {
        match self {
            Special::FifthRow => "5th Row",
            Special::SevenNimmt => "7 nimmt!",
            Special::Insert => "Insert",
            Special::Replace => "Replace",
            Special::Shift => "Shift",
            Special::Stop => "Stop",
            Special::NegativePositive => "Negative = Positive",
            Special::Double => "x 2",
            Special::PlusFive => "+ 5",
        }
    }

    pub fn from_name(name: &str) -> Option<Special> {
        Special::ANNIVERSARY
            .into_iter()
            .chain(Special::CIRCLE)
            .find(|s| s.name() == name)
    }
}

impl fmt::Display for Special {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The bullheads printed on 6 nimmt! number cards: 55 has 7, other doublets (11, 22, ...) 5,
/// multiples of 10 have 3, other numbers ending in 5 have 2, every other card 1.
pub fn classic_bullheads(number: u16) -> u8 {
    let doublet = number.is_multiple_of(11) && (11..=99).contains(&number);
    match (doublet, number % 10) {
        (true, 5) => 7,
        (true, _) => 5,
        (false, 0) => 3,
        (false, 5) => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_deck_matches_the_published_counts() {
        let deck = Deck::classic(104);
        let count = |n: u32| deck.cards().filter(|&c| deck.bullheads(c) == n).count();
        assert_eq!(deck.len(), 104);
        assert_eq!(
            [count(1), count(2), count(3), count(5), count(7)],
            [76, 9, 10, 8, 1]
        );
        assert_eq!(deck.cards().map(|c| deck.bullheads(c)).sum::<u32>(), 171);
        assert_eq!(deck.bullheads(Card(55)), 7);
        assert_eq!(deck.bullheads(Card(100)), 3);
        assert!(!deck.contains(Card(0)) && !deck.contains(Card(105)));
    }

    #[test]
    fn circle_deck_agrees_with_every_card_seen() {
        let deck = Deck::circle();
        assert_eq!(deck.len(), 98);
        let points = |n: u16| deck.points(Card(n));
        for n in [4, 8, 31, 41, 48, 56, 61, 89, 94, 97] {
            assert_eq!(points(n), 1, "card {n}");
        }
        for (n, p) in [
            (42, 2),
            (52, 2),
            (33, -5),
            (66, -5),
            (88, -5),
            (70, -3),
            (90, -3),
        ] {
            assert_eq!(points(n), p, "card {n}");
        }
        assert_eq!(points(55), -7);
        assert_eq!(deck.red.len(), 26);
        assert!(deck.red.windows(2).all(|w| w[0] < w[1]), "red is sorted");
        let heads = |red: bool| {
            deck.cards()
                .filter(|&c| deck.is_red(c) == red)
                .map(|c| deck.bullheads(c))
                .collect::<Vec<_>>()
        };
        assert!(heads(false).iter().all(|&h| h == 1 || h == 2));
        assert!(heads(true).iter().all(|h| [2, 3, 5, 7].contains(h)));
    }
}
