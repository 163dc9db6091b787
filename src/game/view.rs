use super::{Decision, Points, Seat, SpecialTable};
use crate::cards::{Card, Special};
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
    /// Take a Number's public table; `None` for classic. One pointer, so the classic view
    /// stays small (the referee builds one per decision). Read it through the methods below.
    pub number: Option<&'a NumberTable>,
    /// The circle game's public table; `None` for the other variants (one pointer, as
    /// `number`). `rows` are then the circle's rows, clockwise.
    pub circle: Option<&'a CircleTable>,
    /// The anniversary variant's special cards; `None` for the other variants. Read it through
    /// the methods below.
    pub specials: Option<&'a SpecialTable>,
    /// This seat's special cards (the anniversary variant, sorted by kind; the circle game);
    /// empty for the other variants. Only its own: the others' are not in this view.
    pub special_hand: &'a [Special],
}

clone_field_by_field! {
    /// What the circle game shows besides its rows.
    #[derive(Debug, Default, PartialEq, Eq)]
    pub struct CircleTable {
        /// The special cards in each row, by row (clockwise, as `View::rows`).
        pub row_specials: Vec<Vec<Special>>,
        /// The special cards each seat still holds, by seat (public: everyone sees what is placed).
        pub held: Vec<Vec<Special>>,
        /// How many number cards each seat holds.
        pub hand_sizes: Vec<usize>,
    }
}

clone_field_by_field! {
    /// What Take a Number shows besides the classic table.
    #[derive(Debug, Default, PartialEq, Eq)]
    pub struct NumberTable {
        /// Cards each row holds before the card that takes it, by row (empty: every row holds
        /// `rules.row_capacity`).
        pub capacities: Vec<usize>,
        /// Every seat's #-row, by seat.
        pub hash_rows: Vec<Vec<Card>>,
        /// How many cards each seat's #-pile holds.
        pub hash_piles: Vec<usize>,
        /// How many cards each seat holds in hand.
        pub hand_sizes: Vec<usize>,
        /// The cards just taken, while their taker chooses one for its #-row; otherwise empty.
        pub keep_from: Vec<Card>,
    }
}

impl<'a> View<'a> {
    /// The cards `row` holds before the next card takes it (one more under an anniversary
    /// 7 nimmt! card).
    #[inline]
    pub fn capacity(&self, row: usize) -> usize {
        let seven = self
            .specials
            .is_some_and(|t| t.sevens.get(row) == Some(&true));
        self.number
            .and_then(|n| n.capacities.get(row))
            .copied()
            .unwrap_or(self.rules.row_capacity)
            + usize::from(seven)
    }

    /// Take a Number: every seat's #-row; empty for classic.
    pub fn hash_rows(&self) -> &'a [Vec<Card>] {
        self.number.map_or(&[], |n| &n.hash_rows)
    }

    /// Take a Number: how many cards each seat's #-pile holds; empty for classic.
    pub fn hash_piles(&self) -> &'a [usize] {
        self.number.map_or(&[], |n| &n.hash_piles)
    }

    /// Take a Number: how many cards each seat holds; empty for classic.
    pub fn hand_sizes(&self) -> &'a [usize] {
        self.number.map_or(&[], |n| &n.hand_sizes)
    }

    /// Take a Number: the cards this seat just took, one of which it must keep for its #-row
    /// (during [`Decision::KeepCard`]); otherwise empty.
    pub fn keep_from(&self) -> &'a [Card] {
        match (self.decision, self.number) {
            (Some(Decision::KeepCard), Some(n)) => &n.keep_from,
            _ => &[],
        }
    }

    /// The circle game: the special cards in each row; empty for the other variants.
    pub fn row_specials(&self) -> &'a [Vec<Special>] {
        self.circle.map_or(&[], |c| &c.row_specials)
    }

    /// Anniversary: the rows blocked by a Stop card; `false` for each row otherwise.
    pub fn stopped(&self, row: usize) -> bool {
        self.specials
            .and_then(|t| t.stops.get(row))
            .copied()
            .unwrap_or(false)
    }

    /// Anniversary: during [`Decision::Cancel`], the cards this seat is about to take.
    pub fn taking(&self) -> &'a [Card] {
        match (self.decision, self.specials) {
            (Some(Decision::Cancel), Some(t)) => &t.taking,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_copied_onto_another_is_equal_and_keeps_the_copys_buffers() {
        let source = NumberTable {
            capacities: vec![5, 4, 3],
            hash_rows: vec![vec![Card(7), Card(9)], vec![Card(12)]],
            hash_piles: vec![1, 0],
            hand_sizes: vec![3, 3],
            keep_from: vec![Card(20)],
        };
        let mut copy = NumberTable {
            hash_rows: vec![Vec::with_capacity(8), Vec::with_capacity(8)],
            ..NumberTable::default()
        };
        let buffers: Vec<*const Card> = copy.hash_rows.iter().map(|r| r.as_ptr()).collect();
        copy.clone_from(&source);
        assert_eq!(copy, source);
        let after: Vec<*const Card> = copy.hash_rows.iter().map(|r| r.as_ptr()).collect();
        assert_eq!(after, buffers, "the #-rows were made anew");
        assert_eq!(source.clone(), source);
    }
}
