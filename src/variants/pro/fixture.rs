//! The Pro variant's part in rule fixtures (docs/fixtures.md): a fixture with `steps` starts
//! with the draft; a question is asked at the classic table a Pro game plays once its hands are
//! drafted, with the deck cut for its seats.

use super::{Pro, table_rules};
use crate::cards::Card;
use crate::game::{Game, RuleError};
use crate::rules::Rules;
use crate::variants::classic::{Classic, Table};
use std::sync::Arc;

/// Why a Pro fixture with `steps` has no table to start from.
pub const NO_TABLE: &str = "a pro game starts with its draft: a pro fixture has no `setup` table \
                            (a `question` may have one)";

/// The classic game a Pro game of `rules` plays at `table` after its draft.
pub fn after_draft(rules: &Rules, table: &Table) -> Result<Classic, RuleError> {
    let seats = table.hands.len();
    Classic::from_table(Arc::new(table_rules(rules, seats)), table)
}

/// The cards each seat has taken this round (none while the hands are drafted).
pub fn piles(game: &Pro) -> Vec<Vec<Card>> {
    match game.drafting() {
        true => vec![Vec::new(); game.seats()],
        false => game.classic().piles().to_vec(),
    }
}
