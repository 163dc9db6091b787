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
    /// The cards still to be drafted, ascending (Pro variant); empty when no draft is on.
    pub pool: &'a [Card],
}
