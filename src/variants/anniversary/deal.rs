//! The anniversary variant's deal: number cards as classic deals them, and the special cards:
//! three to each seat in round 1, the rest as the deck; later rounds from the deck as it stands.

use super::*;
use crate::game::SetupError;

/// A scripted first round (`take5 play --deal`) must deal the variant's setup: three special
/// cards to each seat (`specials_dealt`), the other special cards (of the 28, or of the deck
/// the rules give) as the deck. A fixture may give any special cards instead, to set up a
/// situation; this is for games that claim to be the rules'.
pub fn check_first_deal(rules: &Rules, deal: &Deal) -> Result<(), String> {
    let own = rules.anniversary_rules();
    let Some(specials) = &deal.specials else {
        return Err(format!(
            "the anniversary variant deals {} special cards to each seat in round 1, and the \
             others as the deck: give them as `specials: {{hands: [...], deck: [...]}}`",
            own.specials_dealt
        ));
    };
    let dealt = own
        .specials_dealt
        .min(own.deck_size() / specials.hands.len().max(1));
    if let Some((seat, hand)) = specials
        .hands
        .iter()
        .enumerate()
        .find(|(_, hand)| hand.len() != dealt)
    {
        return Err(format!(
            "seat {seat} gets {} special cards, the anniversary variant deals {dealt} to each \
             seat in round 1",
            hand.len()
        ));
    }
    let all = own.deck_size();
    let given = specials.hands.iter().map(Vec::len).sum::<usize>() + specials.deck.len();
    if given != all {
        return Err(format!(
            "{given} special cards given (the hands and the deck), the anniversary variant has \
             {all} ({})",
            copies_list(&own)
        ));
    }
    let all = specials.hands.iter().flatten().chain(&specials.deck);
    check_copies(&own, all.copied()).map_err(|e| e.to_string())
}

/// "4 fifth_row, 4 seven_nimmt, ...": the special deck the rules give.
fn copies_list(own: &AnniversaryRules) -> String {
    let kinds = own.specials.iter().map(|(s, n)| format!("{n} {s}"));
    kinds.collect::<Vec<_>>().join(", ")
}

/// At most as many of each kind among `all` as the special deck has (4 by default): the
/// special cards of every place (the hands, the deck, the discard pile and the table), all of
/// the anniversary's kinds.
pub(super) fn check_copies(
    own: &AnniversaryRules,
    all: impl Iterator<Item = Special>,
) -> Result<(), RuleError> {
    let mut counts = [0; Special::ANNIVERSARY.len()];
    for special in all {
        counts[special as usize] += 1;
    }
    match Special::ANNIVERSARY
        .iter()
        .find(|&&s| counts[s as usize] > own.copies(s))
    {
        Some(special) => Err(SetupError::BadDeal(format!(
            "{} {special} cards among the hands, the deck, the discard pile and the table; \
             there are {}",
            counts[*special as usize],
            own.copies(*special)
        ))
        .into()),
        None => Ok(()),
    }
}

impl Anniversary {
    /// The special cards of a deal must fit the deck: at most four of each kind among every
    /// seat's special cards (kept and new), the deck, the discard pile and the table. After the
    /// first round they must also come from the deck as it is (see [`Self::check_from_deck`]).
    pub(super) fn check_specials(&self, specials: &SpecialDeal) -> Result<(), RuleError> {
        if specials.hands.len() != self.board.seats {
            return Err(SetupError::BadDeal(format!(
                "{} for {} seats",
                crate::words::count(specials.hands.len(), "special hand"),
                self.board.seats
            ))
            .into());
        }
        check_kinds(specials.hands.iter().flatten().chain(&specials.deck))
            .map_err(SetupError::BadDeal)?;
        if self.board.round > 0 {
            self.check_from_deck(specials)?;
        }
        let all = self
            .special_hands
            .iter()
            .chain(&specials.hands)
            .flatten()
            .chain(&specials.deck)
            .chain(if specials.reshuffled {
                &[][..]
            } else {
                &self.table.discard
            })
            .copied()
            .chain(self.on_table());
        check_copies(&self.board.rules.anniversary_rules(), all)
    }

    /// How many special cards each seat gets for a later round: three (`specials_dealt`), or
    /// two, or one, or none, as the special cards left allow, the deck's and the discard pile's (which becomes the
    /// deck when the deck runs out, as for a swap). docs/rulings.md, "The round change".
    pub(super) fn specials_for_round(&self) -> usize {
        let left = self.deck.len() + self.table.discard.len();
        self.board
            .rules
            .specials_dealt()
            .min(left / self.board.seats)
    }

    /// Whether a later round's deal runs through the deck, so the discard pile, shuffled, goes
    /// under it first.
    pub(super) fn reshuffles_for_round(&self) -> bool {
        self.deck.len() < self.specials_for_round() * self.board.seats
    }

    /// A later round's special cards come from the top of the deck: each seat gets as many as
    /// the special cards left allow ([`Anniversary::specials_for_round`]), seat 0 first, and
    /// the rest is the new deck; when the deck runs out doing so (`reshuffled`), the discard
    /// pile, in some order, went under the deck first.
    pub(super) fn check_from_deck(&self, specials: &SpecialDeal) -> Result<(), RuleError> {
        let bad = |why: String| Err(SetupError::BadDeal(why).into());
        let each = self.specials_for_round();
        if specials.hands.iter().any(|h| h.len() != each) {
            return bad(format!(
                "every seat gets {each} special card{} this round ({} in the deck and {} in \
                 the discard pile for {} seats, {} each at most)",
                if each == 1 { "" } else { "s" },
                self.deck.len(),
                self.table.discard.len(),
                self.board.seats,
                self.board.rules.specials_dealt()
            ));
        }
        if specials.reshuffled != self.reshuffles_for_round() {
            return bad(if specials.reshuffled {
                "the discard pile goes under the deck only when the deck runs out while dealing"
                    .to_string()
            } else {
                "the deck runs out while dealing: the discard pile, shuffled, goes under it first"
                    .to_string()
            });
        }
        let given: Vec<Special> = specials
            .hands
            .iter()
            .flatten()
            .chain(&specials.deck)
            .copied()
            .collect();
        let kept = self.deck.len();
        let mut under = self.table.discard.clone();
        if !specials.reshuffled {
            under.clear();
        }
        let mut rest = given.get(kept..).unwrap_or_default().to_vec();
        under.sort_unstable();
        rest.sort_unstable();
        if given.get(..kept) != Some(&self.deck[..]) || rest != under {
            let names: Vec<&str> = self.deck.iter().map(|s| s.name()).collect();
            return bad(format!(
                "the special cards dealt (seat 0 first), then the new deck, must be the deck as \
                 it stands, top first: [{}]{}",
                names.join(", "),
                if specials.reshuffled {
                    format!(
                        ", then the discard pile's {} cards",
                        self.table.discard.len()
                    )
                } else {
                    String::new()
                }
            ));
        }
        Ok(())
    }

    /// A deal's `specials` are added to the seats' special cards and replace the deck; a deal
    /// without them deals no special cards and leaves the deck as it is.
    pub(super) fn deal_round(
        &mut self,
        deal: &Deal,
        events: &mut Emitter,
    ) -> Result<(), RuleError> {
        self.board.check_deal(self.to_move(), deal)?;
        check_row_cards(deal, self.board.rules.rows)?;
        let cards = deal.hands.iter().flatten().chain(&deal.rows).copied();
        check_cards(&self.board.rules, cards)?;
        match &deal.specials {
            Some(specials) => self.check_specials(specials)?,
            None if self.board.round > 0 && self.specials_for_round() > 0 => {
                return Err(SetupError::BadDeal(format!(
                    "round {} deals {} special cards to each seat from the deck, and the deal \
                     gives none",
                    self.board.round + 1,
                    self.specials_for_round()
                ))
                .into());
            }
            None => {}
        }
        for (hand, dealt) in self.board.hands.iter_mut().zip(&deal.hands) {
            hand.clone_from(dealt);
            hand.sort_unstable();
        }
        self.board.rows.deal(deal.rows.iter().copied());
        self.table.sevens = vec![false; self.board.rules.rows];
        self.table.stops = vec![false; self.board.rules.rows];
        self.table.taking.clear();
        for pile in &mut self.board.piles {
            pile.clear();
        }
        self.board.taken.fill(0);
        self.board.round += 1;
        self.board.turn = 1;
        self.phase = Phase::Choose;
        events.emit(|| Event::Deal {
            round: self.board.round,
            hands: self.board.hands.clone(),
            rows: deal.rows.clone(),
        });
        if let Some(specials) = &deal.specials {
            for (seat, dealt) in specials.hands.iter().enumerate() {
                for &special in dealt {
                    self.give(seat, special);
                }
            }
            self.deck.clone_from(&specials.deck);
            if specials.reshuffled {
                self.table.discard.clear();
            }
            self.table.deck = self.deck.len();
            *self.reshuffler = GameRng::new(specials.seed, Stream::Deal(0));
            events.emit(|| Event::Specials {
                round: self.board.round,
                hands: specials.hands.clone(),
                deck: specials.deck.clone(),
                reshuffled: specials.reshuffled,
                seed: specials.seed,
            });
        }
        Ok(())
    }

    /// Number cards as classic draws them; in round 1 the 28 special cards are shuffled into
    /// the deck (later, when the deck runs out while dealing, the discard pile is
    /// shuffled under it); each seat then gets up to three from its top, in seat order; a last
    /// draw seeds the reshuffles during play (docs/records.md).
    pub(super) fn deal_round_random(
        &mut self,
        rng: &mut GameRng,
        events: &mut Emitter,
    ) -> Result<(), RuleError> {
        check_dealing(self.to_move())?;
        let mut numbers = self.ordered_deck.clone();
        let hand_size = self.board.rules.hand_size;
        let dealt = self.board.seats * hand_size + self.board.rules.rows;
        let drawn = rng.draw_in_order(&mut numbers, dealt);
        let (hands, rows) = drawn.split_at(self.board.seats * hand_size);
        let mut reshuffled = false;
        let mut deck = if self.board.round == 0 {
            let mut fresh: Vec<Special> = self.board.rules.anniversary_rules().deck().collect();
            rng.shuffle(&mut fresh);
            fresh
        } else {
            let mut deck = self.deck.clone();
            if self.reshuffles_for_round() {
                // The deck runs out while dealing: the discard pile, shuffled, goes under
                // what is left of it (as for a swap).
                let mut pile = self.table.discard.clone();
                rng.shuffle(&mut pile);
                deck.extend(pile);
                reshuffled = true;
            }
            deck
        };
        let each = if self.board.round == 0 {
            self.board
                .rules
                .specials_dealt()
                .min(deck.len() / self.board.seats)
        } else {
            self.specials_for_round()
        };
        let special_hands = (0..self.board.seats)
            .map(|_| deck.drain(..each).collect())
            .collect();
        let seed = (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32());
        let deal = Deal {
            hands: hands.chunks(hand_size).map(<[Card]>::to_vec).collect(),
            rows: rows.to_vec(),
            specials: Some(SpecialDeal {
                hands: special_hands,
                deck,
                reshuffled,
                seed,
            }),
        };
        self.deal_round(&deal, events)
    }
}
