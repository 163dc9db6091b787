//! What a search needs of a game besides [`Game`] (OpenSpiel's `LegalActions`, `Clone` and
//! `ResampleFromInfostate`): the legal actions of a decision, a cheap copy, and a game rebuilt
//! from one seat's view with the cards it cannot see drawn from a generator. `builtin:mcs` is
//! written against these calls only; so can anyone using take5 as a library.

use super::{Action, Event, Game, RuleError, Seat, SpecialPlay, View};
use crate::cards::{Card, Special};
use crate::rng::GameRng;
use crate::rules::Rules;
use smallvec::{SmallVec, smallvec};
use std::sync::Arc;

/// A game a search can copy, ask for its legal actions, and rebuild from one seat's knowledge.
///
/// `Clone` copies the whole state; `clone_from` reuses the memory of the copy it overwrites (a
/// search copies a game per rollout). House rules' hooks live in an interpreter and are not
/// copied: a copy plays by the rules' settings alone, as a pipe bot sees them.
pub trait Model: Game + Clone + 'static {
    /// Appends to `out` every action `seat` may take now: each one applies, and any other is
    /// refused ([`Game::check`]). Nothing when the seat owes no decision.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>);

    /// A game `view`'s seat cannot tell from the real one: everything in the view as it is,
    /// and each card the seat has not seen (the others' hands, what is still face down) drawn
    /// from `rng` among the cards that `view` and `memory` leave unaccounted for. `rules` are
    /// the view's rules, shared. The game waits for the decision the view asks (or, between
    /// decisions, for the seats to choose).
    #[inline]
    fn determinize(
        rules: &Arc<Rules>,
        view: &View,
        memory: &Memory,
        rng: &mut GameRng,
    ) -> Result<Self, RuleError> {
        Self::resample(
            &Knowledge {
                rules,
                view,
                memory,
            },
            rng,
        )
    }

    /// [`Model::determinize`] into this game, reusing its memory where the variant can (a
    /// search rebuilds thousands of games a decision): the same game from the same draws.
    #[inline]
    fn determinize_into(
        &mut self,
        rules: &Arc<Rules>,
        view: &View,
        memory: &Memory,
        rng: &mut GameRng,
    ) -> Result<(), RuleError> {
        self.resample_into(
            &Knowledge {
                rules,
                view,
                memory,
            },
            rng,
        )
    }

    /// A learnt judgement of this table for `seat`, where the variant has one for the table's
    /// size: the points (or, lower being better, minus the penalties) it can expect to end
    /// the game with less the others' mean, and what the judgement costs in a search's steps
    /// (the circle game's networks: [`crate::variants::circle::value`]).
    fn judged(&self, _seat: Seat) -> Option<(f64, u64)> {
        None
    }

    /// What [`Model::determinize`] does: the variant's own part, from what the seat knows.
    fn resample(known: &Knowledge, rng: &mut GameRng) -> Result<Self, RuleError>;

    /// What [`Model::determinize_into`] does; by default a new game from
    /// [`Model::resample`].
    fn resample_into(&mut self, known: &Knowledge, rng: &mut GameRng) -> Result<(), RuleError> {
        *self = Self::resample(known, rng)?;
        Ok(())
    }
}

/// What one seat knows of a game (OpenSpiel's information state): the rules, its view, and
/// what it has seen of the round besides. A determinization draws a game from it.
#[derive(Clone, Copy, Debug)]
pub struct Knowledge<'a> {
    /// The view's rules, shared.
    pub rules: &'a Arc<Rules>,
    pub view: &'a View<'a>,
    pub memory: &'a Memory,
}

/// What a seat has seen of the current round besides its view: what a pipe bot learns from the
/// event lines (the public events, and of a deal only its own hand). Fed with every event a
/// player observes; it keeps only what its seat may know.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// The seat whose knowledge this is.
    pub seat: Seat,
    /// Number cards taken from rows this round, in the order taken (out of play, or, in Take a
    /// Number, back in the taker's hand; the circle game's collected rows too).
    pub taken: Vec<Card>,
    /// Cards revealed this round, by turn and seat.
    pub revealed: Vec<Card>,
    /// Pro draft: the cards each seat picked this round, by seat.
    pub picks: Vec<Vec<Card>>,
    /// Take a Number: the cards that went onto each seat's #-pile this round, by seat.
    pub piled: Vec<Vec<Card>>,
    /// The circle game: the number and special cards each seat collected, by seat.
    pub collected: Vec<(Vec<Card>, Vec<Special>)>,
    /// The anniversary variant's Replace cards played this turn: the seat, the card it revealed
    /// (back in its hand) and the card it placed instead.
    pub replaced: Vec<(Seat, Card, Card)>,
    /// Cards known to be in a seat's hand this round (a Replace card sent them back), by seat,
    /// until it plays them again.
    pub returned: Vec<(Seat, Card)>,
    /// Not seen but inferred, by a model of how the others play (a search sets it before it
    /// determinizes): by seat, the cards taken not to be in that seat's hand, indexed from the
    /// deck's lowest card; empty for a seat with none ruled out. Classic draws a seat's hand
    /// from the other cards while there are enough ([`draw_hand_avoiding`]).
    pub ruled_out: Vec<Vec<bool>>,
}

impl Memory {
    /// A memory for `seat` at a table of `seats`.
    pub fn new(seat: Seat, seats: usize) -> Memory {
        Memory {
            seat,
            picks: vec![Vec::new(); seats],
            piled: vec![Vec::new(); seats],
            collected: vec![(Vec::new(), Vec::new()); seats],
            ..Memory::default()
        }
    }

    /// Forgets the round (a new game starts).
    pub fn clear(&mut self) {
        self.forget_round_seen();
        self.picks.iter_mut().for_each(Vec::clear);
        for (cards, specials) in &mut self.collected {
            cards.clear();
            specials.clear();
        }
    }

    /// Forgets what was seen of the round's play: the cards taken, revealed, replaced, sent
    /// back, piled and ruled out.
    fn forget_round_seen(&mut self) {
        self.taken.clear();
        self.revealed.clear();
        self.replaced.clear();
        self.returned.clear();
        self.ruled_out.clear();
        self.piled.iter_mut().for_each(Vec::clear);
    }

    /// Takes in what `event` shows this seat.
    pub fn observe(&mut self, event: &Event) {
        match event {
            // A new round: what was seen of the last one no longer matters (the Pro draft's
            // picks are made before the deal and matter until the next draft).
            Event::Deal { .. } => self.forget_round_seen(),
            Event::RoundEnd { .. } => self.clear(),
            Event::Collect {
                seat,
                cards,
                specials,
                ..
            } => {
                self.taken.extend_from_slice(cards);
                if let Some((mine, theirs)) = self.collected.get_mut(*seat) {
                    mine.extend_from_slice(cards);
                    theirs.extend_from_slice(specials);
                }
            }
            Event::Pile { seat, cards } => {
                if let Some(piled) = self.piled.get_mut(*seat) {
                    piled.extend_from_slice(cards);
                }
            }
            Event::Pick { seat, card } => {
                if let Some(picks) = self.picks.get_mut(*seat) {
                    picks.push(*card);
                }
            }
            Event::Reveal { cards, .. } => {
                self.revealed.extend_from_slice(cards);
                self.replaced.clear();
                self.returned
                    .retain(|(seat, card)| cards.get(*seat) != Some(card));
            }
            Event::Special {
                seat,
                card,
                play: SpecialPlay::Replace { card: instead },
            } => {
                self.replaced.push((*seat, *card, *instead));
                // The card placed instead may be one sent back before.
                self.returned.retain(|&back| back != (*seat, *instead));
                self.returned.push((*seat, *card));
            }
            Event::Take { cards, .. } => self.taken.extend_from_slice(cards),
            _ => {}
        }
    }
}

/// Draws `count` cards for a hidden hand from `unseen` (which it reorders), ascending.
pub fn draw_hand(rng: &mut GameRng, unseen: &mut Vec<Card>, count: usize) -> Vec<Card> {
    let mut hand = Vec::with_capacity(count);
    draw_hand_into(rng, unseen, count, &mut hand);
    hand
}

/// [`draw_hand`] onto the end of `hand` (empty, to be the hand), reusing its memory.
pub fn draw_hand_into(
    rng: &mut GameRng,
    unseen: &mut Vec<Card>,
    count: usize,
    hand: &mut Vec<Card>,
) {
    let count = count.min(unseen.len());
    hand.extend_from_slice(rng.draw(unseen, count));
    unseen.truncate(unseen.len() - count);
    hand.sort_unstable();
}

/// [`draw_hand_into`], but from the cards of `unseen` that `ruled_out` (indexed from `rules`'
/// lowest card) leaves, as long as there are `count` of them; then from the others.
pub fn draw_hand_avoiding(
    rng: &mut GameRng,
    rules: &Rules,
    ruled_out: &[bool],
    unseen: &mut Vec<Card>,
    count: usize,
    hand: &mut Vec<Card>,
) {
    let lowest = rules.deck.lowest;
    let out = |card: Card| {
        let index = usize::from(card.0.wrapping_sub(lowest));
        ruled_out.get(index).copied().unwrap_or(false)
    };
    // The cards ruled out first, the others after them: the draws come from the end.
    let mut split = 0;
    for i in 0..unseen.len() {
        if out(unseen[i]) {
            unseen.swap(split, i);
            split += 1;
        }
    }
    let likely = (unseen.len() - split).min(count);
    hand.extend_from_slice(rng.draw(&mut unseen[split..], likely));
    unseen.truncate(unseen.len() - likely);
    draw_hand_into(rng, unseen, count - likely, hand);
}

/// The cards of `rules`' deck that are in none of `seen`, ascending.
pub fn unseen_cards<'a>(rules: &Rules, seen: impl IntoIterator<Item = &'a Card>) -> Vec<Card> {
    let mut unseen = Vec::new();
    unseen_cards_into(rules, seen, &mut unseen);
    unseen
}

/// [`unseen_cards`] into `unseen`, reusing its memory.
pub fn unseen_cards_into<'a>(
    rules: &Rules,
    seen: impl IntoIterator<Item = &'a Card>,
    unseen: &mut Vec<Card>,
) {
    let deck = &rules.deck;
    let mut out: SmallVec<[bool; 128]> = smallvec![true; deck.len()];
    for &card in seen {
        if deck.contains(card) {
            out[usize::from(card.0 - deck.lowest)] = false;
        }
    }
    unseen.clear();
    // At its final size at once (a collect would grow it five times over a full deck).
    unseen.reserve(deck.len());
    unseen.extend(
        deck.cards()
            .filter(|&c| out[usize::from(c.0 - deck.lowest)]),
    );
}
