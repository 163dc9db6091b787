//! The scripted situations of each variant: rules, scripted deals and how many games, built
//! from the game model's own types (a [`Deal`] is what `--deal` files and records hold): those
//! of every variant, and the variant's own deals (its description's `selftest.forced`, in its
//! folder). Each situation is played by the normal referee with the bot at seat 0 of the first
//! game and `builtin:lowest` beside it; a situation that must reach a question whatever the bot
//! answers deals cards that force it (every card of the bot's hand below every row, say).

use crate::game::Deal;
use crate::rules::{GameEnd, Rules};
use crate::variants::Variant;

/// One situation: a short match the bot plays.
#[derive(Clone, Debug)]
pub struct Situation {
    /// What it is for, as the checklist says it.
    pub name: &'static str,
    pub rules: Rules,
    /// Deals for round 1, 2, ... (later rounds are dealt from the seed).
    pub deals: Vec<Deal>,
    pub games: u64,
    /// Refuse the bot's first answer on purpose, to see it answer the `error` line.
    pub refuse_first: bool,
}

/// Seats at the table in every situation: the bot and `builtin:lowest`.
pub const SEATS: usize = 2;

/// Games of the situation that checks a bot plays several games in a row.
pub const GAMES_IN_A_ROW: u64 = 3;

/// The situations for `variant`, in the order they are played.
pub fn situations(variant: Variant) -> Vec<Situation> {
    let rules = variant.rules();
    let mut list = vec![Situation {
        name: "three games in a row",
        rules: rules.clone(),
        deals: Vec::new(),
        games: GAMES_IN_A_ROW,
        refuse_first: false,
    }];
    let short = Rules {
        end: GameEnd::Rounds(1),
        ..rules
    };
    list.extend(
        (variant.describe().selftest.forced)()
            .into_iter()
            .map(|forced| Situation {
                name: forced.name,
                rules: short.clone(),
                deals: vec![forced.deal],
                games: 1,
                refuse_first: false,
            }),
    );
    list.push(Situation {
        name: "an error to answer",
        rules: short,
        deals: Vec::new(),
        games: 1,
        refuse_first: true,
    });
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Discard, Game};
    use std::sync::Arc;

    #[test]
    fn every_scripted_deal_fits_its_rules() {
        for &variant in Variant::ALL {
            for situation in situations(variant) {
                for deal in &situation.deals {
                    let mut game = variant
                        .new_game(Arc::new(situation.rules.clone()), SEATS)
                        .unwrap();
                    game.deal(deal, &mut Discard)
                        .unwrap_or_else(|e| panic!("{}: {}: {e}", variant.name(), situation.name));
                }
            }
        }
    }
}
