//! Take a Number's part in rule fixtures (docs/fixtures.md, "Take a Number"): a `setup` adds
//! every seat's #-row and #-pile to the classic table, whose rows take at their own counts and
//! whose hands may differ in size.

use super::{NumberSetup, TakeANumber, check_hash_row, row_capacities};
use crate::cards::Card;
use crate::variants::classic::fixture::{TableShape, table};
use crate::variants::fixtures::{
    Cards, SetupError, SetupFile, TableInput, fail, one_a_seat, setup_fields, spanned,
};
use serde_saphyr::Spanned;

setup_fields! {
    /// Take a Number's own `setup` fields.
    pub struct Fields {
        /// Every seat's #-row, by seat.
        hash_rows: Vec<Spanned<Cards>>,
        /// The cards in every seat's #-pile, by seat (none when left out).
        hash_piles: Vec<Spanned<Cards>>,
    }
}

/// Why another variant's `setup` cannot have these fields.
pub const ONLY: &str = "`hash_rows` and `hash_piles` set up Take a Number only";

/// A Take a Number table: the classic table (rows of the rules' capacities, hands of any size,
/// no `piles`) and each seat's #-row and #-pile.
pub fn setup(input: &mut TableInput) -> Result<NumberSetup, SetupError> {
    let (setup, rules, seats) = (input.setup, input.rules, input.seats);
    let s = &setup.value;
    if let Some(piles) = &s.piles {
        return fail(
            piles,
            "a take-a-number setup has no `piles`: taken cards go to the #-row and the hand; \
             give each seat's #-pile as `hash_piles`",
        );
    }
    // Its rows' capacities need rules the engine accepts.
    if let Err(e) = TakeANumber::new(rules.clone(), seats) {
        return fail(setup, format!("the engine refuses this setup: {e}"));
    }
    let shape = TableShape {
        extra_row: None,
        capacities: Box::new(|_| Ok(row_capacities(rules))),
        // Taken cards go into the hand.
        hands_differ: true,
    };
    let table = table(input, &shape)?;
    let Some(hash_rows) = &s.take_a_number.hash_rows else {
        return fail(
            setup,
            "a take-a-number setup needs `hash_rows`, every seat's #-row",
        );
    };
    one_a_seat(hash_rows, seats, "#-row")?;
    let mut number_rows = Vec::new();
    for (seat, hash_row) in hash_rows.value.iter().enumerate() {
        let row_cards = input.cards.cards(&hash_row.value)?;
        if let Err(why) = check_hash_row(seat, &row_cards) {
            return fail(hash_row, why);
        }
        number_rows.push(row_cards);
    }
    let hash_piles = match &s.take_a_number.hash_piles {
        None => vec![Vec::new(); seats],
        Some(piles) => {
            one_a_seat(piles, seats, "#-pile")?;
            input.cards.lists(piles)?
        }
    };
    Ok(NumberSetup {
        table,
        hash_rows: number_rows,
        hash_piles,
    })
}

/// A question's #-rows when its `setup` gives none: one of the `free` cards each, the lowest.
pub fn question_hash_rows(
    filled: &mut SetupFile,
    setup: &Spanned<SetupFile>,
    like: &Spanned<Card>,
    seats: usize,
    free: Vec<Card>,
) -> Result<(), SetupError> {
    if setup.value.take_a_number.hash_rows.is_some() {
        return Ok(());
    }
    if free.len() < seats {
        return fail(
            setup,
            "no free card is left for the #-rows: give `hash_rows`",
        );
    }
    let rows = free[..seats]
        .iter()
        .map(|&c| spanned(vec![spanned(c, like)], like));
    filled.take_a_number.hash_rows = Some(spanned(rows.collect(), like));
    Ok(())
}

/// The cards a deal gives after the hands: the centre `rows`' first cards, then each seat's
/// #-row card.
pub fn dealt_rows(rows: usize, seats: usize) -> usize {
    rows + seats
}
