//! The scripted situations of each variant: rules, scripted deals and how many games, built
//! from the game model's own types (a [`Deal`] is what `--deal` files and records hold). Each
//! situation is played by the normal referee with the bot at seat 0 of the first game and
//! `builtin:lowest` beside it; a situation that must reach a question whatever the bot answers
//! deals cards that force it (every card of the bot's hand below every row, say).

use crate::cards::{Card, Special};
use crate::game::{Deal, SpecialDeal};
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
    let forced = |name, deal| Situation {
        name,
        rules: short.clone(),
        deals: vec![deal],
        games: 1,
        refuse_first: false,
    };
    match variant {
        // Every card of the bot's hand is below every row: its first card is low, it chooses a
        // row and takes it.
        Variant::Classic => list.push(forced(
            "a low card",
            deal(&[range(1, 10), range(11, 20)], &[101, 102, 103, 104], None),
        )),
        Variant::TakeANumber => {
            // The rows' ends are 50, 60 and 70, the #-rows 1 and 2: every card of the bot's is
            // low.
            list.push(forced(
                "a low card",
                deal(&[range(3, 10), range(11, 18)], &[50, 60, 70, 1, 2], None),
            ));
            // builtin:lowest's 27 is placed first, after the 26 of row 0, which then holds the
            // two cards it takes; every card of the bot's goes after 27 and takes both: the bot
            // chooses which it keeps.
            let mut lowest = vec![27];
            lowest.extend(range(36, 42));
            list.push(forced(
                "cards to keep",
                deal(&[range(28, 35), lowest], &[26, 10, 6, 1, 2], None),
            ));
        }
        // The bot's low card with a Stop card to play first (or not), then a row it takes while
        // holding Negative = Positive, then the swap of a special card it still holds.
        Variant::Anniversary => {
            let hands = vec![
                vec![Special::NegativePositive, Special::Stop, Special::Stop],
                vec![Special::Replace; 3],
            ];
            list.push(forced(
                "special cards at a low card",
                deal(
                    &[range(1, 12), range(13, 24)],
                    &[101, 102, 103, 104],
                    Some(hands),
                ),
            ));
        }
        // The Pro variant drafts its hands (no deal to script) and the circle game asks one
        // kind of question: the games in a row show them all.
        Variant::Pro | Variant::Circle => {}
    }
    list.push(Situation {
        name: "an error to answer",
        rules: short,
        deals: Vec::new(),
        games: 1,
        refuse_first: true,
    });
    list
}

fn range(first: u16, last: u16) -> Vec<u16> {
    (first..=last).collect()
}

/// A deal of `hands` and `rows`, and for the anniversary variant the special cards `specials`
/// by seat (the rest of the special deck face down, in the order of the kinds).
fn deal(hands: &[Vec<u16>], rows: &[u16], specials: Option<Vec<Vec<Special>>>) -> Deal {
    let cards = |numbers: &[u16]| numbers.iter().map(|&n| Card(n)).collect::<Vec<_>>();
    Deal {
        hands: hands.iter().map(|h| cards(h)).collect(),
        rows: cards(rows),
        specials: specials.map(|hands| {
            let mut deck = Vec::new();
            for kind in Special::ANNIVERSARY {
                let dealt = hands.iter().flatten().filter(|&&s| s == kind).count();
                deck.extend(std::iter::repeat_n(kind, Special::COPIES - dealt));
            }
            SpecialDeal {
                hands,
                deck,
                reshuffled: false,
                seed: 0,
            }
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Discard, Game};
    use std::sync::Arc;

    #[test]
    fn every_scripted_deal_fits_its_rules() {
        for variant in super::super::VARIANTS {
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
