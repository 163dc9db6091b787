//! Built-in bots, played in-process. Each is a pure policy over the [`View`] a pipe bot would
//! get, so they are also reference answers for bot authors.

use super::{Answer, GameStart, Legality, Player};
use crate::cards::Card;
use crate::game::{Action, Decision, View};
use crate::rng::{GameRng, Stream};
use std::time::Duration;

/// The built-in strategies, named `builtin:<name>` on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Any card at random; a random row; in a draft, any card of the pool.
    Random,
    /// Always the lowest card; the cheapest row; in a draft, the lowest card of the pool. This
    /// is also the referee's fallback.
    Lowest,
    /// Always the highest card; the cheapest row; in a draft, the highest card of the pool.
    Highest,
    /// Plays the card least likely to take a row (see [`dodger_card`]); the cheapest row; in a
    /// draft, cheap cards spread over the range (see [`dodger_pick`]).
    Dodger,
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::Random,
        Strategy::Lowest,
        Strategy::Highest,
        Strategy::Dodger,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Lowest => "lowest",
            Strategy::Highest => "highest",
            Strategy::Dodger => "dodger",
        }
    }

    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// A built-in bot at one seat of a match.
pub struct Builtin {
    strategy: Strategy,
    name: String,
    /// Made from the match seed; moved to the stream of each game as it starts.
    rng: GameRng,
}

impl Builtin {
    /// `seed` is the match seed; each game's random choices come from their own stream of it.
    pub fn new(strategy: Strategy, seed: u64) -> Builtin {
        Builtin {
            strategy,
            name: format!("builtin:{}", strategy.name()),
            rng: GameRng::new(seed, Stream::Bot { game: 0, seat: 0 }),
        }
    }

    /// The decision, without the [`Player`] plumbing (used by benchmarks and the fallback).
    #[inline]
    pub fn choose(&mut self, view: &View) -> Action {
        match (self.strategy, view.decision) {
            (Strategy::Random, Some(Decision::PlayCard)) => {
                let i = self.rng.below(view.hand.len() as u32) as usize;
                Action::Play(view.hand[i])
            }
            (Strategy::Random, Some(Decision::ChooseRow { .. })) => {
                Action::TakeRow(self.rng.below(view.rows.len() as u32) as usize)
            }
            (Strategy::Random, Some(Decision::KeepCard)) => {
                let i = self.rng.below(view.keep_from().len() as u32) as usize;
                Action::Keep(view.keep_from()[i])
            }
            (Strategy::Highest, Some(Decision::KeepCard)) => {
                Action::Keep(*view.keep_from().last().expect("cards to keep from"))
            }
            (Strategy::Dodger, Some(Decision::KeepCard)) => Action::Keep(dodger_keep(view)),
            (Strategy::Highest, Some(Decision::PlayCard)) => {
                Action::Play(*view.hand.last().expect("a hand to play from"))
            }
            (Strategy::Dodger, Some(Decision::PlayCard)) => Action::Play(dodger_card(view)),
            (Strategy::Random, Some(Decision::Pick)) => {
                let i = self.rng.below(view.pool.len() as u32) as usize;
                Action::Pick(view.pool[i])
            }
            (Strategy::Highest, Some(Decision::Pick)) => {
                Action::Pick(*view.pool.last().expect("a pool to pick from"))
            }
            (Strategy::Dodger, Some(Decision::Pick)) => Action::Pick(dodger_pick(view)),
            _ => fallback(view),
        }
    }
}

impl Player for Builtin {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, start: &GameStart) -> Answer<()> {
        let stream = Stream::Bot {
            game: start.number,
            seat: start.seat,
        };
        // The generator was made from the same seed, so it only moves to the game's stream.
        self.rng.restart(stream);
        Ok(())
    }

    fn decide(&mut self, view: &View, _: Legality, _: Duration) -> Answer<Action> {
        Ok(self.choose(view))
    }
}

/// The referee's move for a seat whose player failed: the lowest card in hand, the row with
/// the fewest bullheads (the first such row on a tie), in a draft the lowest card of the pool,
/// or the first of the cards taken for the #-row (Take a Number). Deterministic, so records
/// stay replayable.
pub fn fallback(view: &View) -> Action {
    match view.decision {
        Some(Decision::ChooseRow { .. }) => Action::TakeRow(cheapest_row(view)),
        Some(Decision::KeepCard) => Action::Keep(*view.keep_from().first().expect("cards taken")),
        Some(Decision::Pick) => Action::Pick(*view.pool.first().expect("a pool to pick from")),
        _ => Action::Play(*view.hand.first().expect("a hand to play from")),
    }
}

/// The row with the fewest bullheads; the first one on a tie.
pub fn cheapest_row(view: &View) -> usize {
    let deck = &view.rules.deck;
    (0..view.rows.len())
        .min_by_key(|&r| deck.sum(&view.rows[r]))
        .expect("at least one row")
}

/// The dodger's pick in a draft: the card with the fewest bullheads, then the one farthest from
/// the cards already in hand (so the hand spreads over the range), then the lowest.
pub fn dodger_pick(view: &View) -> Card {
    let deck = &view.rules.deck;
    let distance = |card: Card| {
        view.hand
            .iter()
            .map(|c| c.0.abs_diff(card.0))
            .min()
            .unwrap_or(0)
    };
    *view
        .pool
        .iter()
        .min_by_key(|&&card| (deck.bullheads(card), std::cmp::Reverse(distance(card))))
        .expect("a pool to pick from")
}

/// The dodger's card: for each card, what it would cost if it were placed now (the row it would
/// fill, or the cheapest row for a low card) and how much room the row has left; the cheapest
/// card wins, then the one with most room, then the one closest to its row's end.
pub fn dodger_card(view: &View) -> Card {
    let deck = &view.rules.deck;
    let cheapest = deck.sum(&view.rows[cheapest_row(view)]);
    let score = |card: Card| {
        let target = view
            .rows
            .iter()
            .enumerate()
            .filter(|(_, row)| row[row.len() - 1] < card)
            .max_by_key(|(_, row)| row[row.len() - 1]);
        match target {
            // A low card costs the cheapest row, and gets to restart it.
            None => (cheapest, 0, u16::MAX),
            Some((r, row)) if row.len() >= view.capacity(r) => (deck.sum(row), 0, 0),
            Some((r, row)) => {
                let capacity = view.capacity(r);
                (
                    0,
                    capacity - row.len(),
                    u16::MAX - (card.0 - row[row.len() - 1].0),
                )
            }
        }
    };
    *view
        .hand
        .iter()
        .min_by_key(|&&card| {
            let (cost, room, closeness) = score(card);
            (cost, std::cmp::Reverse(room), std::cmp::Reverse(closeness))
        })
        .expect("a hand to play from")
}

/// The dodger's #-row card (Take a Number): the lowest card taken that the #-row can go on
/// with (above its end), so the row stays open to as many later cards as it can; when every card
/// taken is lower than the end (the #-row goes to the pile whichever is kept), the card with the
/// most bullheads, which the new #-row keeps safe instead of the hand. Ties go to the lower card.
pub fn dodger_keep(view: &View) -> Card {
    let end = view
        .hash_rows()
        .get(view.seat)
        .and_then(|row| row.last())
        .copied()
        .unwrap_or(Card(0));
    let deck = &view.rules.deck;
    if let Some(&card) = view.keep_from().iter().filter(|&&c| c > end).min() {
        return card;
    }
    *view
        .keep_from()
        .iter()
        .min_by_key(|&&c| (std::cmp::Reverse(deck.bullheads(c)), c))
        .expect("cards taken")
}
