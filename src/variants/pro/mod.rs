//! The Pro variant (rulebook 003, "Pro Variant for 2–6 Players"): the classic game, but with
//! only the cards 1 to `players * hand_size + rows` (1-44 for four players), all known, and
//! hands drafted instead of dealt.
//!
//! At the start of every round the whole (cut) deck is spread face up as the pool; the seats
//! pick one card at a time, in the order [`Rules::draft`] gives (default: seat order), until
//! every hand is full. The cards left over start the rows, in ascending order (row 0 gets the
//! lowest); with a larger deck (house rules' `pro_deck`, [`Rules::pro_deck_size`]) the lowest
//! `rows` of them do and the others are out of the round. From there on it is the classic round, played by the [`Classic`] engine this state
//! wraps: the draft is the only thing this module adds (docs/rulings.md, "Pro variant").

pub mod description;
pub mod fixture;

use super::classic::Classic;
use crate::cards::{Card, Deck};
use crate::game::clone_field_by_field;
use crate::game::house::HouseHooks;
use crate::game::model::{Knowledge, Model, draw_hand, unseen_cards};
use crate::game::{
    Action, Deal, Decision, Emitter, Event, Family, Game, Outcome, Points, RuleError, Seat, ToMove,
    View, check_seat,
};
use crate::game::{Illegal, SetupError};
use crate::rng::GameRng;
use crate::rules::{Rules, RulesError};
use std::sync::Arc;

/// The state of a Pro game: a classic game, plus the draft that starts each of its rounds.
#[derive(Debug)]
pub struct Pro {
    classic: Classic,
    /// Cards not picked yet, ascending; empty when no draft is on.
    pool: Vec<Card>,
    /// The hands being drafted, by seat, ascending.
    hands: Vec<Vec<Card>>,
    /// Picks made so far in this draft.
    picks: usize,
    /// Bullheads taken during a draft: none, by seat.
    nothing_taken: Vec<Points>,
}

/// The Pro deck for `seats` players: the first `seats * hand_size + rows` cards of the deck, or
/// as many as the rules' `pro_deck` gives ([`Rules::pro_deck_size`]).
pub fn cut_deck(rules: &Rules, seats: usize) -> Deck {
    let cards = rules.pro_deck_size(seats);
    Deck {
        lowest: rules.deck.lowest,
        bullheads: rules.deck.bullheads[..cards.min(rules.deck.len())].to_vec(),
        red: Vec::new(),
    }
}

/// The rules of the classic game a Pro game of `seats` plays after its draft: the cut deck,
/// for exactly these seats (the deck is too small for more).
pub fn table_rules(rules: &Rules, seats: usize) -> Rules {
    Rules {
        deck: cut_deck(rules, seats),
        min_players: seats,
        max_players: seats,
        ..rules.clone()
    }
}

impl Pro {
    /// A new game whose first draft is about to start.
    pub fn new(rules: Arc<Rules>, seats: usize) -> Result<Pro, RulesError> {
        rules.validate()?;
        rules.check_players(seats)?;
        let cut = table_rules(&rules, seats);
        let hand_size = cut.hand_size;
        let mut pro = Pro {
            classic: Classic::new(Arc::new(cut), seats)?,
            pool: Vec::new(),
            hands: (0..seats).map(|_| Vec::with_capacity(hand_size)).collect(),
            picks: 0,
            nothing_taken: vec![0; seats],
        };
        pro.start_draft();
        Ok(pro)
    }

    /// The classic game inside (rows, hands and scores once a round is drafted).
    pub fn classic(&self) -> &Classic {
        &self.classic
    }

    /// The cards not picked yet, ascending (empty when no draft is on).
    pub fn pool(&self) -> &[Card] {
        &self.pool
    }

    /// The hands drafted so far, by seat (empty when no draft is on).
    pub fn drafted(&self) -> &[Vec<Card>] {
        &self.hands
    }

    /// Whether the seats are drafting (the classic game waits for its deal).
    pub fn drafting(&self) -> bool {
        self.classic.to_move() == ToMove::Deal
    }

    /// The seat whose pick is due, during a draft.
    fn picker(&self) -> Seat {
        let seats = self.classic.seats();
        self.classic.rules().draft.seat(self.picks, seats)
    }

    fn start_draft(&mut self) {
        self.pool.clear();
        self.pool.extend(self.classic.rules().deck.cards());
        for hand in &mut self.hands {
            hand.clear();
        }
        self.picks = 0;
    }

    /// The families of actions [`Pro::validate_pick`] judges itself: picks, and the classic
    /// game's cards, rows and #-row cards, refused while a pick is due.
    const JUDGED: &[Family] = &[Family::Cards, Family::Keep, Family::Pick];

    /// Checks a pick during a draft; returns where the card is in the pool.
    fn validate_pick(&self, seat: Seat, action: Action) -> Result<usize, RuleError> {
        check_seat(seat, self.classic.seats())?;
        let waiting_for = self.picker();
        if seat != waiting_for {
            return Err(Illegal::NotYourTurn { seat, waiting_for }.into());
        }
        match action {
            Action::Pick(card) => self
                .pool
                .binary_search(&card)
                .map_err(|_| RuleError::Illegal(Illegal::NotInPool { seat, card })),
            _ if let Some(refusal) = Illegal::not_asked(seat, action, Self::JUDGED) => {
                Err(refusal.into())
            }
            _ => Err(Illegal::PickDue { seat }.into()),
        }
    }

    fn not_dealt(&self) -> RuleError {
        if self.classic.to_move() == ToMove::GameOver {
            RuleError::Illegal(Illegal::GameOver)
        } else {
            RuleError::Setup(SetupError::BadDeal(
                "the pro variant drafts its hands: cards are picked, not dealt".into(),
            ))
        }
    }
}

impl Game for Pro {
    fn rules(&self) -> &Rules {
        self.classic.rules()
    }

    fn seats(&self) -> usize {
        self.classic.seats()
    }

    fn to_move(&self) -> ToMove {
        match self.classic.to_move() {
            ToMove::Deal => ToMove::Seat(self.picker(), Decision::Pick),
            other => other,
        }
    }

    fn owes(&self, seat: Seat) -> Option<Decision> {
        if self.drafting() {
            (seat == self.picker()).then_some(Decision::Pick)
        } else {
            self.classic.owes(seat)
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.drafting() {
            self.validate_pick(seat, action).map(drop)
        } else {
            self.classic.check(seat, action)
        }
    }

    fn act(&mut self, seat: Seat, action: Action, events: &mut Emitter) -> Result<(), RuleError> {
        if !self.drafting() {
            self.classic.act(seat, action, events)?;
            if self.drafting() {
                self.start_draft();
            }
            return Ok(());
        }
        let at = self.validate_pick(seat, action)?;
        let card = self.pool.remove(at);
        let hand = &mut self.hands[seat];
        let slot = hand.partition_point(|&c| c < card);
        hand.insert(slot, card);
        self.picks += 1;
        events.emit(|| Event::Pick { seat, card });
        (self.classic).observe_pick(&self.hands, (seat, card), &self.pool)?;
        let rules = self.classic.rules();
        if self.picks < self.classic.seats() * rules.hand_size {
            return Ok(());
        }
        // The hands are full: the leftover cards (ascending) start the rows; with a larger deck
        // (`pro_deck`) the lowest of them do, and the others are out of the round.
        self.pool.truncate(rules.rows);
        let deal = Deal {
            hands: std::mem::take(&mut self.hands),
            rows: std::mem::take(&mut self.pool),
            specials: None,
        };
        // Every card of the deck once, full hands, as many rows as the rules: always a deal.
        self.classic
            .deal_given(&deal, events)
            .expect("a finished draft is a valid deal");
        // Keep the buffers for the next draft.
        self.hands = deal.hands;
        self.pool = deal.rows;
        self.pool.clear();
        for hand in &mut self.hands {
            hand.clear();
        }
        Ok(())
    }

    fn deal_given(&mut self, _deal: &Deal, _events: &mut Emitter) -> Result<(), RuleError> {
        Err(self.not_dealt())
    }

    fn deal_drawn(&mut self, _rng: &mut GameRng, _events: &mut Emitter) -> Result<(), RuleError> {
        Err(self.not_dealt())
    }

    fn view(&self, seat: Seat) -> View<'_> {
        if !self.drafting() {
            return self.classic.view(seat);
        }
        // Between the classic game's rounds: its rules, seats and totals.
        View {
            round: self.classic.round() + 1,
            turn: 0,
            decision: self.owes(seat),
            hand: &self.hands[seat],
            rows: &[],
            taken: &self.nothing_taken,
            pool: &self.pool,
            ..self.classic.view(seat)
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.classic.outcome()
    }

    fn set_house(&mut self, house: Option<Box<dyn HouseHooks>>) {
        self.classic.set_house(house);
    }

    fn restart(&mut self) {
        self.classic.restart();
        self.start_draft();
    }
}

// A copy plays by the rules' settings alone (the house rule hooks are not copied: it is for
// search, see `Model`); `clone_from` reuses the copy's memory.
clone_field_by_field!(Pro {
    classic,
    pool,
    hands,
    picks,
    nothing_taken,
});

impl Model for Pro {
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if !self.drafting() {
            return self.classic.legal_actions(seat, out);
        }
        if seat == self.picker() {
            out.extend(self.pool.iter().map(|&card| Action::Pick(card)));
        }
    }

    /// Every card is face up and every pick public, so each hand is known from the picks in
    /// `memory` (less the cards its seat revealed since); a hand the memory does not account
    /// for (a seat that joined late) is drawn from the cards no one is known to hold.
    fn resample(known: &Knowledge, rng: &mut GameRng) -> Result<Pro, RuleError> {
        let (rules, view, memory) = (known.rules, known.view, known.memory);
        let seats = view.seats;
        let drafting = view.rows.is_empty();
        // How many cards each seat holds now.
        let sizes: Vec<usize> = if drafting {
            let picked = rules.deck.len().saturating_sub(view.pool.len());
            (0..seats)
                .map(|s| {
                    (0..picked)
                        .filter(|&i| rules.draft.seat(i, seats) == s)
                        .count()
                })
                .collect()
        } else {
            vec![view.hand.len(); seats]
        };
        let known: Vec<Option<Vec<Card>>> = (0..seats)
            .map(|seat| {
                if seat == view.seat {
                    return Some(view.hand.to_vec());
                }
                let played = memory.revealed.iter().skip(seat).step_by(seats);
                let played: Vec<Card> = if drafting {
                    Vec::new()
                } else {
                    played.copied().collect()
                };
                let picks = memory.picks.get(seat)?;
                let hand: Vec<Card> = picks
                    .iter()
                    .filter(|c| !played.contains(c))
                    .copied()
                    .collect();
                (hand.len() == sizes[seat]).then_some(hand)
            })
            .collect();
        let seen = (view.pool.iter().chain(view.rows.iter().flatten()))
            .chain(view.revealed)
            .chain(&memory.taken)
            .chain(known.iter().flatten().flatten());
        let mut unseen = unseen_cards(rules, seen);
        let hands: Vec<Vec<Card>> = known
            .into_iter()
            .enumerate()
            .map(|(seat, hand)| hand.unwrap_or_else(|| draw_hand(rng, &mut unseen, sizes[seat])))
            .collect();
        let mut pro = Pro::new(rules.clone(), seats)
            .map_err(|e| RuleError::Setup(SetupError::BadDeal(e.to_string())))?;
        if drafting {
            let round = view.round.saturating_sub(1);
            pro.classic = Classic::between_rounds(rules.clone(), seats, round, view.scores)?;
            pro.pool = view.pool.to_vec();
            pro.picks = sizes.iter().sum();
            pro.hands = hands;
        } else {
            pro.classic = Classic::from_view(rules, view, hands)?;
        }
        Ok(pro)
    }
}
