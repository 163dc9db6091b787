//! The rows cards are placed on and taken from, in every variant: a card goes onto the row
//! whose last card is the highest below it (least difference), a row holding its capacity is
//! taken by the next card, a card below every row's last is a low card. The last card of each
//! row is kept beside the rows, because placing a card reads only those.

use crate::cards::Card;
use crate::game::clone_field_by_field;
use std::ops::Deref;

/// The rows on the table, in order, each ascending, and each row's last card. Read as a slice
/// of rows; changed only through its methods, which keep the last cards true.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Rows {
    rows: Vec<Vec<Card>>,
    /// The last card of each row (an empty row's is `Card(0)`, until a card starts it).
    ends: Vec<Card>,
}

// `clone_from` reuses the copy's memory (a search copies games many times a decision).
clone_field_by_field!(Rows { rows, ends });

impl Deref for Rows {
    type Target = [Vec<Card>];

    #[inline(always)]
    fn deref(&self) -> &[Vec<Card>] {
        &self.rows
    }
}

impl<'a> IntoIterator for &'a Rows {
    type Item = &'a Vec<Card>;
    type IntoIter = std::slice::Iter<'a, Vec<Card>>;

    fn into_iter(self) -> Self::IntoIter {
        self.rows.iter()
    }
}

impl Rows {
    /// `count` rows, empty until the deal, each with room for `room` cards.
    pub fn new(count: usize, room: usize) -> Rows {
        Rows {
            rows: (0..count).map(|_| Vec::with_capacity(room)).collect(),
            ends: vec![Card(0); count],
        }
    }

    /// Each row's last card, by row.
    #[inline]
    pub fn ends(&self) -> &[Card] {
        &self.ends
    }

    /// The row `card` goes onto by least difference; `None` for a low card (below every row's
    /// last card).
    #[inline]
    pub fn row_for(&self, card: Card) -> Option<usize> {
        row_for(&self.ends, card)
    }

    /// [`Rows::row_for`] among the rows `blocked` (by row) leaves open: a blocked row is never
    /// the row below a card.
    pub fn open_row_for(&self, card: Card, blocked: &[bool]) -> Option<usize> {
        let ends = self.ends.iter().zip(blocked);
        let (mut best, mut best_gap) = (0, u32::MAX);
        for (i, (&end, &blocked)) in ends.enumerate() {
            let gap = gap(end, card);
            if !blocked && gap < best_gap {
                best = i;
                best_gap = gap;
            }
        }
        (best_gap < u32::from(card.0)).then_some(best)
    }

    /// Whether `row` holds `capacity` cards (or more), so that the next card placed on it takes
    /// it.
    #[inline]
    pub fn is_full(&self, row: usize, capacity: usize) -> bool {
        self.rows[row].len() >= capacity
    }

    /// `card` goes onto the end of `row`.
    #[inline]
    pub fn place(&mut self, row: usize, card: Card) {
        self.rows[row].push(card);
        self.ends[row] = card;
    }

    /// `row` is taken: it is empty until a card starts it again ([`Rows::place`]).
    #[inline]
    pub fn clear(&mut self, row: usize) {
        self.rows[row].clear();
    }

    /// `row` is taken, its cards moved onto the end of `to`.
    pub fn take_into(&mut self, row: usize, to: &mut Vec<Card>) {
        to.append(&mut self.rows[row]);
    }

    /// A deal: a row for each of `cards`, started with it (the rows' memory reused).
    pub fn deal(&mut self, cards: impl IntoIterator<Item = Card>) {
        let mut count = 0;
        for card in cards {
            if count == self.rows.len() {
                self.rows.push(Vec::new());
                self.ends.push(card);
            }
            let row = &mut self.rows[count];
            row.clear();
            row.push(card);
            self.ends[count] = card;
            count += 1;
        }
        self.truncate(count);
    }

    /// The rows given (each ascending, none empty: checked before), in place of these.
    pub fn lay(&mut self, given: &[Vec<Card>]) {
        self.rows.resize_with(given.len(), Vec::new);
        self.ends.resize(given.len(), Card(0));
        for ((row, end), given) in self.rows.iter_mut().zip(&mut self.ends).zip(given) {
            row.clone_from(given);
            *end = given.last().copied().unwrap_or(Card(0));
        }
    }

    /// A new row after the others, started with `card`.
    pub fn push_row(&mut self, card: Card) {
        self.rows.push(vec![card]);
        self.ends.push(card);
    }

    /// `row` leaves the table; its cards are returned.
    pub fn remove(&mut self, row: usize) -> Vec<Card> {
        self.ends.remove(row);
        self.rows.remove(row)
    }

    /// The rows after the first `count` leave the table.
    pub fn truncate(&mut self, count: usize) {
        self.rows.truncate(count);
        self.ends.truncate(count);
    }

    /// `card` goes into `row` at place `at` (kept ascending by the caller).
    pub fn insert(&mut self, row: usize, at: usize, card: Card) {
        let cards = &mut self.rows[row];
        cards.insert(at, card);
        self.ends[row] = cards[cards.len() - 1];
    }

    /// `card` leaves the row it is in.
    pub fn remove_card(&mut self, card: Card) {
        for (row, end) in self.rows.iter_mut().zip(&mut self.ends) {
            row.retain(|&c| c != card);
            *end = row.last().copied().unwrap_or(Card(0));
        }
    }
}

/// `card - end - 1` as a wrapping count: the smallest for the highest end below the card, and
/// huge for an end above it.
#[inline(always)]
fn gap(end: Card, card: Card) -> u32 {
    u32::from(card.0)
        .wrapping_sub(u32::from(end.0))
        .wrapping_sub(1)
}

/// The row a card goes to by least difference: the one whose end (`ends`, by row) is the
/// highest card below it; `None` for a card below every row's end.
#[inline]
pub fn row_for(ends: &[Card], card: Card) -> Option<usize> {
    // The highest end below the card leaves the smallest gap; an end above the card wraps
    // around to a huge gap. Keeping the smallest compiles to conditional moves: whether an end
    // is below a random card is a branch the CPU would mispredict.
    let mut best = 0;
    let mut best_gap = u32::MAX;
    for (i, &end) in ends.iter().enumerate() {
        let gap = gap(end, card);
        if gap < best_gap {
            best = i;
            best_gap = gap;
        }
    }
    (best_gap < u32::from(card.0)).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(numbers: &[u16]) -> Vec<Card> {
        numbers.iter().map(|&n| Card(n)).collect()
    }

    /// A card goes where the difference is least; below every row it is a low card; a
    /// blocked row is passed over.
    #[test]
    fn a_card_goes_onto_the_row_whose_last_card_is_the_highest_below_it() {
        let mut rows = Rows::new(3, 6);
        rows.deal(cards(&[10, 30, 20]));
        assert_eq!(rows.row_for(Card(25)), Some(2));
        assert_eq!(rows.row_for(Card(31)), Some(1));
        assert_eq!(rows.row_for(Card(5)), None);
        assert_eq!(rows.open_row_for(Card(25), &[false, false, true]), Some(0));
        assert_eq!(rows.open_row_for(Card(15), &[true, false, false]), None);
        rows.place(2, Card(26));
        assert_eq!(rows.ends(), cards(&[10, 30, 26]));
        assert!(rows.is_full(2, 2) && !rows.is_full(2, 3));
    }

    /// Whatever changes the rows, each row's last card is the one the placing reads.
    #[test]
    fn the_last_cards_follow_every_change_of_the_rows() {
        let mut rows = Rows::new(2, 6);
        rows.lay(&[cards(&[3, 8]), cards(&[20])]);
        rows.push_row(Card(50));
        rows.insert(1, 1, Card(25));
        rows.remove_card(Card(8));
        assert_eq!(rows.ends(), cards(&[3, 25, 50]));
        let mut taken = Vec::new();
        rows.take_into(1, &mut taken);
        rows.place(1, Card(60));
        assert_eq!(
            (taken, rows.ends()),
            (cards(&[20, 25]), &cards(&[3, 60, 50])[..])
        );
        assert_eq!(rows.remove(0), cards(&[3]));
        rows.deal(cards(&[1, 2, 4]));
        assert_eq!((rows.len(), rows.ends()), (3, &cards(&[1, 2, 4])[..]));
    }
}
