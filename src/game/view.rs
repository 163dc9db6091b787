use super::{Decision, Points, Seat};
use crate::cards::Card;
use crate::rules::Rules;

/// What one seat may see of the game: everything public plus its own hand. This is all a
/// stateless bot needs to decide.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    pub rules: &'a Rules,
    pub seat: Seat,
    pub seats: usize,
    /// Round, from 1.
    pub round: u32,
    /// Turn within the round, from 1.
    pub turn: u32,
    /// What this seat must decide now, if anything.
    pub decision: Option<Decision>,
    /// This seat's hand, ascending.
    pub hand: &'a [Card],
    /// The rows, each from its first card to its end.
    pub rows: &'a [Vec<Card>],
    /// Totals from the rounds before this one, by seat.
    pub scores: &'a [Points],
    /// Bullheads taken so far this round, by seat.
    pub taken: &'a [Points],
    /// The cards of this turn by seat once they are revealed; empty while players choose.
    pub revealed: &'a [Card],
    /// Cards each row holds before the card that takes it, by row; empty when every row holds
    /// `rules.row_capacity` (classic). See [`View::capacity`].
    pub capacities: &'a [usize],
    /// Take a Number: every seat's #-row, by seat; empty for classic.
    pub hash_rows: &'a [Vec<Card>],
    /// Take a Number: how many cards each seat's #-pile holds; empty for classic.
    pub hash_piles: &'a [usize],
    /// Take a Number: how many cards each seat holds in hand; empty for classic.
    pub hand_sizes: &'a [usize],
    /// Take a Number: the cards this seat just took, one of which it must keep for its #-row
    /// (during [`Decision::KeepCard`]); otherwise empty.
    pub keep_from: &'a [Card],
}

impl View<'_> {
    /// The cards `row` holds before the next card takes it.
    #[inline]
    pub fn capacity(&self, row: usize) -> usize {
        self.capacities
            .get(row)
            .copied()
            .unwrap_or(self.rules.row_capacity)
    }
}
