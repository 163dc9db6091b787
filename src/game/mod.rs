//! The variant-independent game model: who must decide what, apply an action, what each player
//! may see, and the events a game record is made of. The referee, the players, the record and
//! the protocol work through this module only; a variant implements [`Game`].

/// `Clone` field by field, with a `clone_from` that reuses the copy's buffers: the search copies
/// a game many times a decision, and a derived `clone_from` makes every buffer anew. (A game's
/// house rule hooks are not copied: see [`house::Hooks`]'s `Clone`.) Given a struct's name and
/// its fields, or the whole declaration of a struct (which then names each field once).
macro_rules! clone_field_by_field {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$field_meta:meta])* $field_vis:vis $field:ident : $type:ty ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[$field_meta])* $field_vis $field: $type ),*
        }

        clone_field_by_field!($name { $($field),* });
    };
    ($name:ident { $($field:ident),* $(,)? }) => {
        impl Clone for $name {
            fn clone(&self) -> $name {
                $name { $($field: self.$field.clone()),* }
            }

            fn clone_from(&mut self, source: &$name) {
                $(self.$field.clone_from(&source.$field);)*
            }
        }
    };
}
pub(crate) use clone_field_by_field;

mod error;
mod event;
pub mod house;
pub mod model;
mod special;
mod view;

pub use error::{Illegal, Refused, RuleError, SetupError};
pub(crate) use event::events;
pub use event::{Discard, Emitter, Event, EventSink, TakeReason, emit};
pub use special::{SpecialDeal, SpecialPlay, SpecialTable};
pub use view::{CircleTable, NumberTable, View};

use crate::cards::{Card, Special};
use crate::rng::GameRng;
use crate::rules::{Rules, Ties};
use serde::{Deserialize, Serialize};

/// A seat at the table, from 0.
pub type Seat = usize;

/// Penalty points (bullheads). Signed, because a house rule may give a bonus.
pub type Points = i32;

/// What a player is asked to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "decision")]
pub enum Decision {
    /// Choose a card from the hand to play this turn (all players at once, face down).
    PlayCard,
    /// `card` is lower than every row's end: choose the row to take.
    ChooseRow { card: Card },
    /// Take a Number: the seat took the cards in [`View::keep_from`]; choose the one that goes
    /// to its #-row (the rest go into its hand).
    KeepCard,
    /// Draft (Pro variant): take one card from the face-up pool into the hand.
    Pick,
    /// The circle game: place a card (a number card from the hand, or a special card into a
    /// row), or end the turn once at least one card is placed. `placed` cards are placed this
    /// turn; `remaining` more may be.
    Place { placed: u8, remaining: u8 },
    /// Anniversary: `card`, revealed, is about to be placed; play a special card
    /// ([`Action::Special`]) or not ([`Action::Pass`]). Asked only when the seat holds a special
    /// card it may play now.
    Special { card: Card },
    /// Anniversary: the seat is about to take the cards in [`SpecialTable::taking`] and holds a
    /// Negative = Positive card: [`Action::Cancel`] one of them, or [`Action::Pass`].
    Cancel,
    /// Anniversary: the seat took a row and may swap one of its special cards for the top of the
    /// deck ([`Action::Swap`]) or not ([`Action::Pass`]).
    Swap,
}

/// Who must act next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToMove {
    /// Cards must be dealt for the next round (a chance node: the dealer acts).
    Deal,
    /// Every seat that has not chosen yet decides, without seeing the others' choices.
    Everyone(Decision),
    /// One seat decides, with the table as it stands.
    Seat(Seat, Decision),
    /// The game is over.
    GameOver,
}

/// A player's answer to a [`Decision`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Play this card from the hand.
    Play(Card),
    /// Take this row (from 0).
    TakeRow(usize),
    /// Take a Number: put this one of the cards just taken into the #-row.
    Keep(Card),
    /// Draft (Pro variant): take this card from the pool.
    Pick(Card),
    /// The circle game: put this special card from the hand into `row`.
    PlaceSpecial { special: Special, row: usize },
    /// The circle game: place no more cards this turn.
    EndTurn,
    /// Anniversary: play this special card before the revealed card is placed.
    Special(SpecialPlay),
    /// Anniversary: play no special card now (or swap none).
    Pass,
    /// Anniversary: Negative = Positive on this card of those about to be taken.
    Cancel(Card),
    /// Anniversary: give this special card for the top of the special deck.
    Swap(Special),
}

/// The cards for one round: each seat's hand and the first card of each row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deal {
    pub hands: Vec<Vec<Card>>,
    pub rows: Vec<Card>,
    /// Anniversary: the special cards dealt (none when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specials: Option<SpecialDeal>,
}

/// Final totals and the winners.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub totals: Vec<Points>,
    pub winners: Vec<Seat>,
}

impl Outcome {
    /// The outcome of final `totals`: the lowest total wins; `ties` says how a tie for it is
    /// broken, with `last_round` (the points of the last round, by seat) if need be.
    pub fn of(totals: &[Points], last_round: &[Points], ties: Ties) -> Outcome {
        let best = totals.iter().copied().min().unwrap_or_default();
        let mut winners: Vec<Seat> = (0..totals.len()).filter(|&s| totals[s] == best).collect();
        if ties == Ties::FewestInLastRound
            && let Some(fewest) = winners.iter().map(|&s| last_round[s]).min()
        {
            winners.retain(|&s| last_round[s] == fewest);
        }
        Outcome {
            totals: totals.to_vec(),
            winners,
        }
    }
}

impl Outcome {
    /// The outcome of final `totals` when points are won (the circle game): the highest total
    /// wins, and a tie for it is shared.
    pub fn highest_wins(totals: &[Points]) -> Outcome {
        let best = totals.iter().copied().max().unwrap_or_default();
        Outcome {
            totals: totals.to_vec(),
            winners: (0..totals.len()).filter(|&s| totals[s] == best).collect(),
        }
    }

    /// Ranks by total, best first (fewest, or most in the circle game); the winners rank 1 (the rules break ties among equal totals,
    /// and a seat tied on total with a winner but not one itself ranks after the winners).
    pub fn ranks(&self) -> Vec<u32> {
        let totals = &self.totals;
        // Totals are penalties, lowest best, except in the circle game, where points are won and
        // the winners hold the highest total: the winners' total says which way is better.
        let highest_wins = self.winners.first().is_some_and(|&w| {
            totals.iter().all(|&t| t <= totals[w]) && totals.iter().any(|&t| t < totals[w])
        });
        let ahead = |a: i32, b: i32| if highest_wins { a > b } else { a < b };
        (0..totals.len())
            .map(|seat| {
                if self.winners.contains(&seat) {
                    return 1;
                }
                let better = (0..totals.len())
                    .filter(|&s| {
                        ahead(totals[s], totals[seat])
                            || (totals[s] == totals[seat] && self.winners.contains(&s))
                    })
                    .count();
                better as u32 + 1
            })
            .collect()
    }
}

/// One variant's game state. Pure: no I/O, no clock, randomness only from the generator given.
///
/// Every mutating method either applies fully and reports what happened to `events`, or returns
/// a [`RuleError`] and changes nothing.
pub trait Game {
    fn rules(&self) -> &Rules;
    fn seats(&self) -> usize;
    fn to_move(&self) -> ToMove;
    /// The decision `seat` owes now, if any (during [`ToMove::Everyone`], seats that have
    /// already chosen owe nothing).
    fn owes(&self, seat: Seat) -> Option<Decision>;
    /// Would `action` by `seat` be legal now?
    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError>;
    /// Applies `action` by `seat`, reporting what happens to `events`: [`Game::act`], whose
    /// events go through one [`Emitter`] (the sink is asked once whether it wants them).
    #[inline]
    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        self.act(seat, action, &mut Emitter::new(events))
    }
    /// What [`Game::apply`] does: the variant's own part of it.
    fn act(&mut self, seat: Seat, action: Action, events: &mut Emitter) -> Result<(), RuleError>;
    /// Deals the next round with the cards given (a replayed or scripted deal).
    #[inline]
    fn deal(&mut self, deal: &Deal, events: &mut dyn EventSink) -> Result<(), RuleError> {
        self.deal_given(deal, &mut Emitter::new(events))
    }
    /// What [`Game::deal`] does: the variant's own part of it.
    fn deal_given(&mut self, deal: &Deal, events: &mut Emitter) -> Result<(), RuleError>;
    /// Shuffles and deals the next round from `rng`.
    #[inline]
    fn deal_random(
        &mut self,
        rng: &mut GameRng,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        self.deal_drawn(rng, &mut Emitter::new(events))
    }
    /// What [`Game::deal_random`] does: the variant's own part of it.
    fn deal_drawn(&mut self, rng: &mut GameRng, events: &mut Emitter) -> Result<(), RuleError>;
    /// What `seat` may see: its own hand, never another's.
    fn view(&self, seat: Seat) -> View<'_>;
    /// Totals and winners once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Gives the game house rules' hooks (or takes them away).
    fn set_house(&mut self, house: Option<Box<dyn house::HouseHooks>>);
    /// Starts a new game with the same rules and seats, waiting for its first deal (reuses the
    /// memory of this one: a tournament plays many games).
    fn restart(&mut self);
}

/// The decisions an action can answer, grouped by the variant that asks them. A variant judges
/// the families it asks (and any it refuses in a way of its own) and refuses the others with
/// [`Illegal::not_asked`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// A card to play or a row to take ([`Action::Play`], [`Action::TakeRow`]).
    Cards,
    /// Take a Number's #-row card ([`Action::Keep`]).
    Keep,
    /// The Pro variant's draft ([`Action::Pick`]).
    Pick,
    /// The circle game's turn ([`Action::PlaceSpecial`], [`Action::EndTurn`]).
    Circle,
    /// The anniversary variant's special-card questions ([`Action::Special`], [`Action::Pass`],
    /// [`Action::Cancel`], [`Action::Swap`]).
    Special,
}

impl Action {
    /// The family of decisions this action answers.
    pub const fn family(self) -> Family {
        match self {
            Action::Play(_) | Action::TakeRow(_) => Family::Cards,
            Action::Keep(_) => Family::Keep,
            Action::Pick(_) => Family::Pick,
            Action::PlaceSpecial { .. } | Action::EndTurn => Family::Circle,
            Action::Special(_) | Action::Pass | Action::Cancel(_) | Action::Swap(_) => {
                Family::Special
            }
        }
    }
}

/// Checks that `seat` is one of the `seats` at the table.
pub const fn check_seat(seat: Seat, seats: usize) -> Result<(), RuleError> {
    if seat < seats {
        Ok(())
    } else {
        Err(RuleError::Illegal(Illegal::NoSuchSeat { seat, seats }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_put_winners_first() {
        let outcome = |totals: Vec<i32>, winners: Vec<usize>| Outcome { totals, winners };
        assert_eq!(
            outcome(vec![70, 12, 30, 12], vec![1, 3]).ranks(),
            [4, 1, 3, 1]
        );
        // Tied on total, the rules' tie-break picked seat 0.
        assert_eq!(outcome(vec![5, 5, 66], vec![0]).ranks(), [1, 2, 3]);
        // The circle game: points are won, the highest total wins.
        assert_eq!(outcome(vec![4, -18, 30, 4], vec![2]).ranks(), [2, 4, 1, 2]);
    }
}
