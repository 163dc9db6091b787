//! The checks of a deal and of a table given explicitly (fixtures, a search's rebuilt game):
//! every card in the deck and in one place, a hand for every seat, rows in order. Their
//! messages are the `bad_deal` errors players and fixtures see.

use crate::cards::Card;
use crate::game::{Deal, Points, RuleError, ToMove};
use crate::game::{Illegal, SetupError};
use crate::rules::Rules;
use crate::words::count;
use serde::{Deserialize, Serialize};

/// A table in the middle of a round, given explicitly (fixtures, replays of real games).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub round: u32,
    pub turn: u32,
    pub hands: Vec<Vec<Card>>,
    pub rows: Vec<Vec<Card>>,
    /// Totals from earlier rounds, by seat.
    pub scores: Vec<Points>,
    /// Cards already taken this round, by seat.
    pub piles: Vec<Vec<Card>>,
}

/// A game may be dealt when it waits for a deal (`to_move`, what it says): otherwise it is
/// over, or in the middle of a round.
pub fn check_dealing(to_move: ToMove) -> Result<(), RuleError> {
    match to_move {
        ToMove::Deal => Ok(()),
        ToMove::GameOver => Err(Illegal::GameOver.into()),
        _ => Err(SetupError::NotDealing.into()),
    }
}

/// A deal given to a game that says `to_move`: the game must wait for it
/// ([`check_dealing`]), and it must hold a hand for every one of `seats`, each of `hand_size`
/// cards.
pub fn check_deal(
    to_move: ToMove,
    deal: &Deal,
    (seats, hand_size): (usize, usize),
) -> Result<(), RuleError> {
    check_dealing(to_move)?;
    if deal.hands.len() != seats {
        return Err(SetupError::BadDeal(format!(
            "{} for {seats} seats",
            count(deal.hands.len(), "hand")
        ))
        .into());
    }
    match deal
        .hands
        .iter()
        .enumerate()
        .find(|(_, h)| h.len() != hand_size)
    {
        Some((seat, hand)) => Err(SetupError::BadDeal(format!(
            "seat {seat} has {}, the rules deal {hand_size}",
            count(hand.len(), "card")
        ))
        .into()),
        None => Ok(()),
    }
}

/// A deal must start each of the rules' `rows` with one card.
pub fn check_row_cards(deal: &Deal, rows: usize) -> Result<(), RuleError> {
    if deal.rows.len() == rows {
        Ok(())
    } else {
        Err(SetupError::BadDeal(format!(
            "{}, the rules have {rows}",
            count(deal.rows.len(), "row")
        ))
        .into())
    }
}

/// Every card must be in the deck and appear once.
pub fn check_cards(rules: &Rules, cards: impl Iterator<Item = Card>) -> Result<(), RuleError> {
    let mut seen = vec![false; rules.deck.len()];
    for card in cards {
        if !rules.deck.contains(card) {
            return Err(SetupError::BadDeal(format!(
                "card {card} is not in the deck ({} to {})",
                rules.deck.lowest,
                rules.deck.highest()
            ))
            .into());
        }
        let slot = &mut seen[usize::from(card.0 - rules.deck.lowest)];
        if *slot {
            return Err(SetupError::BadDeal(format!("card {card} appears twice")).into());
        }
        *slot = true;
    }
    Ok(())
}

/// What an explicit table must hold besides its hands and piles: round and turn from 1, and a
/// row for each of `capacities` (the cards each row holds before the next card takes it), each
/// ascending and holding 1 to its capacity.
pub fn check_round_and_rows(table: &Table, capacities: &[usize]) -> Result<(), RuleError> {
    let bad = |why: String| Err(SetupError::BadDeal(why).into());
    if table.round == 0 || table.turn == 0 {
        return bad("round and turn count from 1".into());
    }
    if table.rows.len() != capacities.len() {
        return bad(format!(
            "{} given, the rules have {}",
            count(table.rows.len(), "row"),
            capacities.len()
        ));
    }
    for (i, (row, &capacity)) in table.rows.iter().zip(capacities).enumerate() {
        if row.is_empty() || row.len() > capacity {
            return bad(format!(
                "row {i} holds {}; it holds 1 to {capacity}",
                count(row.len(), "card")
            ));
        }
        if row.windows(2).any(|w| w[0] >= w[1]) {
            return bad(format!("row {i} is not in ascending order"));
        }
    }
    Ok(())
}

/// What a classic table must hold, its rows holding up to `capacities` (by row): a score and a
/// pile for each hand, hands of the same size (at least one card), round, turn and rows as
/// [`check_round_and_rows`] says, and every card in the deck and in one place.
pub fn check_table(rules: &Rules, table: &Table, capacities: &[usize]) -> Result<(), RuleError> {
    let seats = table.hands.len();
    let bad = |why: String| Err(SetupError::BadDeal(why).into());
    if table.scores.len() != seats || table.piles.len() != seats {
        return bad(format!(
            "{seats} hands but {} scores and {} piles",
            table.scores.len(),
            table.piles.len()
        ));
    }
    let hand_len = table.hands[0].len();
    if hand_len == 0 || table.hands.iter().any(|h| h.len() != hand_len) {
        return bad("every hand must hold the same number of cards, at least 1".into());
    }
    check_round_and_rows(table, capacities)?;
    let all = table.hands.iter().chain(&table.rows).chain(&table.piles);
    check_cards(rules, all.flatten().copied())
}

/// Puts a checked table's hands in place, each sorted, reusing their memory.
pub fn lay_hands(table: &Table, hands: &mut [Vec<Card>]) {
    for (hand, given) in hands.iter_mut().zip(&table.hands) {
        hand.clone_from(given);
        hand.sort_unstable();
    }
}
