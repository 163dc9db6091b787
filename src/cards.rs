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
}

impl Deck {
    /// Cards `1..=highest` with the printed 6 nimmt! bullheads (see [`classic_bullheads`]).
    pub fn classic(highest: u16) -> Deck {
        Deck {
            lowest: 1,
            bullheads: (1..=highest).map(classic_bullheads).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.bullheads.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bullheads.is_empty()
    }

    pub fn highest(&self) -> u16 {
        self.lowest + self.bullheads.len() as u16 - 1
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
}
