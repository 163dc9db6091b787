use super::{Points, Seat, SpecialPlay};
use crate::cards::{Card, Special};
use serde::{Deserialize, Serialize};

/// Something that happened in a game. A game record is these, in order, one per line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// A round was dealt: every hand (the record sees all; players see only their own) and the
    /// first card of each row.
    Deal {
        round: u32,
        hands: Vec<Vec<Card>>,
        rows: Vec<Card>,
    },
    /// Draft (Pro variant): `seat` took `card` from the face-up pool (everyone sees it).
    Pick { seat: Seat, card: Card },
    /// Everyone has chosen; the cards of the turn, by seat, turn face up.
    Reveal {
        round: u32,
        turn: u32,
        cards: Vec<Card>,
    },
    /// `seat` took `row`: its `cards`, costing `bullheads` (their printed bullheads, unless a
    /// house rule prices the row otherwise).
    Take {
        seat: Seat,
        row: usize,
        cards: Vec<Card>,
        bullheads: Points,
        reason: TakeReason,
    },
    /// `card` of `seat` went to the end of `row`.
    Place { seat: Seat, card: Card, row: usize },
    /// Take a Number: `seat` put `card`, one of the cards it just took, at the end of its #-row;
    /// the other cards it took went into its hand.
    Keep { seat: Seat, card: Card },
    /// Take a Number: `seat`'s #-row (`cards`) went onto its #-pile, because the card it keeps
    /// is lower than the row's end.
    Pile { seat: Seat, cards: Vec<Card> },
    /// The round is over: bullheads taken this round and the totals after it, by seat.
    RoundEnd {
        round: u32,
        penalties: Vec<Points>,
        totals: Vec<Points>,
    },
    /// The game is over.
    GameEnd {
        totals: Vec<Points>,
        winners: Vec<Seat>,
    },
    /// The circle game: `seat` put `special` from its hand into `row`.
    PlaceSpecial {
        seat: Seat,
        special: Special,
        row: usize,
    },
    /// The circle game: `seat` placed the fifth number card in `row` and took it: its number
    /// `cards` (worth `points`, green minus red) and its `specials`. The row leaves the
    /// circle, so the rows after it move up by one.
    Collect {
        seat: Seat,
        row: usize,
        cards: Vec<Card>,
        specials: Vec<Special>,
        points: Points,
    },
    /// The circle game: `seat` ended its turn before placing as many cards as it may.
    EndTurn { seat: Seat },
    /// Anniversary, right after a round's `deal`: the special cards each seat received (players
    /// see only their own), the face-down deck after the deal (top first; players see its size),
    /// whether the discard pile was shuffled into it first, and the seed of the generator that
    /// reshuffles the discard pile during play.
    Specials {
        round: u32,
        hands: Vec<Vec<Special>>,
        deck: Vec<Special>,
        reshuffled: bool,
        seed: u64,
    },
    /// Anniversary: `seat` played a special card before placing its number card `card`.
    Special {
        seat: Seat,
        card: Card,
        play: SpecialPlay,
    },
    /// Anniversary: `seat`, about to take a row (the `take` line follows), played Negative =
    /// Positive on `card`, one of the cards taken: its `bullheads` count as plus, so twice as
    /// many come off the round's bullheads once the row is taken (not below 0).
    Cancel {
        seat: Seat,
        card: Card,
        bullheads: Points,
    },
    /// Anniversary: `seat`, having taken a row, gave `gave` to the discard pile and drew `drew`
    /// from the deck (players see what was drawn only for their own seat).
    Swap {
        seat: Seat,
        gave: Special,
        drew: Special,
    },
    /// Anniversary: the deck ran out; the discard pile was shuffled into this new deck (top first).
    Reshuffle { deck: Vec<Special> },
}

impl Event {
    /// The event's name, as records and the protocol write it.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Deal { .. } => "deal",
            Event::Pick { .. } => "pick",
            Event::Reveal { .. } => "reveal",
            Event::Take { .. } => "take",
            Event::Place { .. } => "place",
            Event::Keep { .. } => "keep",
            Event::Pile { .. } => "pile",
            Event::RoundEnd { .. } => "round_end",
            Event::GameEnd { .. } => "game_end",
            Event::PlaceSpecial { .. } => "place_special",
            Event::Collect { .. } => "collect",
            Event::EndTurn { .. } => "end_turn",
            Event::Specials { .. } => "specials",
            Event::Special { .. } => "special",
            Event::Cancel { .. } => "cancel",
            Event::Swap { .. } => "swap",
            Event::Reshuffle { .. } => "reshuffle",
        }
    }
}

/// Why a row was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TakeReason {
    /// The card would have been one too many for the row.
    Full,
    /// The card was lower than every row's end and its player chose this row.
    Low,
}

/// Where a game's events go. Building an event may allocate, so the engine asks first.
pub trait EventSink {
    /// Whether events are wanted at all (false skips building them).
    fn enabled(&self) -> bool;
    fn push(&mut self, event: Event);
}

impl EventSink for Vec<Event> {
    fn enabled(&self) -> bool {
        true
    }
    fn push(&mut self, event: Event) {
        Vec::push(self, event)
    }
}

/// Drops every event, so a game without a record or listening players builds none.
pub struct Discard;

impl EventSink for Discard {
    fn enabled(&self) -> bool {
        false
    }
    fn push(&mut self, _: Event) {}
}

/// An [`EventSink`] asked once whether it wants events. A step of a game emits several, and
/// asking once saves a virtual call per event in games nobody records.
pub struct Emitter<'a> {
    sink: &'a mut dyn EventSink,
    wanted: bool,
}

impl<'a> Emitter<'a> {
    #[inline]
    pub fn new(sink: &'a mut dyn EventSink) -> Emitter<'a> {
        let wanted = sink.enabled();
        Emitter { sink, wanted }
    }

    /// Builds and pushes an event only if the sink wants it.
    #[inline]
    pub fn emit(&mut self, event: impl FnOnce() -> Event) {
        if self.wanted {
            self.sink.push(event());
        }
    }
}

/// Builds and pushes an event only if the sink wants it.
#[inline]
pub fn emit(events: &mut dyn EventSink, event: impl FnOnce() -> Event) {
    if events.enabled() {
        events.push(event());
    }
}
