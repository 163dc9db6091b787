use serde::{Deserialize, Serialize};

/// Every event of a game, declared once: its name (as records and the protocol write it), its
/// fields in order (a record line's keys and the protocol's `key=`s), for each field the
/// protocol's placeholder and what its value is (`a field seat=<seat>`, `a seat number`: the
/// parser's words), and for an event a seat sees only in part, what it sees (`seen by viewer`:
/// the fields of its protocol line, each computed from the event's fields for seat `viewer`).
///
/// The enum, [`Event::name`] and [`Event::NAMES`] come from here, and so do, in the upper
/// layers, the record line's writer and reader (`record`), the protocol's printer, parser and
/// per-seat line ([`crate::protocol::EventLine`]). The declaration's grammar is read here only:
/// `events!(then)` hands every event to the macro `then` in one compact form, which `then`
/// matches with this line:
///
/// ```text
/// $( $(#[$attr:meta])* $Variant:ident $name:literal [$($field:ident: $ty:ty [$hole:literal, $what:literal])*] [$($viewer:ident $($seen:ident: $seen_ty:ty [$seen_hole:literal, $seen_what:literal] = $value:expr;)*)?] )*
/// ```
///
/// A seen field's `$value` is borrowed or copied from the event's fields (printing a line
/// allocates nothing); the per-seat line owns a `clone` of it.
macro_rules! events {
    ($then:ident) => {
        $crate::game::events! { @declared $then
            /// A round was dealt: every hand (the record sees all; players see only their own)
            /// and the first card of each row.
            Deal "deal" {
                round: u32 ["round", "a round number"],
                hands: Vec<Vec<$crate::cards::Card>> ["hands", "cards"],
                rows: Vec<$crate::cards::Card> ["cards", "a card number"],
            } => seen by viewer {
                round: u32 ["round", "a round number"] = round,
                hand: Vec<$crate::cards::Card> ["cards", "a card number"] = &hands[viewer],
                rows: Vec<$crate::cards::Card> ["cards", "a card number"] = rows,
            }
            /// Draft (Pro variant): `seat` took `card` from the face-up pool (everyone sees it).
            Pick "pick" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                card: $crate::cards::Card ["card", "a card number"],
            }
            /// Everyone has chosen; the cards of the turn, by seat, turn face up.
            Reveal "reveal" {
                round: u32 ["round", "a round number"],
                turn: u32 ["turn", "a turn number"],
                cards: Vec<$crate::cards::Card> ["cards", "a card number"],
            }
            /// `seat` took `row`: its `cards`, costing `bullheads` (their printed bullheads,
            /// unless a house rule prices the row otherwise).
            Take "take" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                row: usize ["row", "a row index"],
                cards: Vec<$crate::cards::Card> ["cards", "a card number"],
                bullheads: $crate::game::Points ["count", "a bullhead count"],
                reason: $crate::game::TakeReason ["full|low", "full or low"],
            }
            /// `card` of `seat` went to the end of `row`.
            Place "place" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                card: $crate::cards::Card ["card", "a card number"],
                row: usize ["row", "a row index"],
            }
            /// Take a Number: `seat` put `card`, one of the cards it just took, at the end of
            /// its #-row; the other cards it took went into its hand.
            Keep "keep" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                card: $crate::cards::Card ["card", "a card number"],
            }
            /// Take a Number: `seat`'s #-row (`cards`) went onto its #-pile, because the card
            /// it keeps is lower than the row's end.
            Pile "pile" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                cards: Vec<$crate::cards::Card> ["cards", "a card number"],
            }
            /// The round is over: bullheads taken this round and the totals after it, by seat.
            RoundEnd "round_end" {
                round: u32 ["round", "a round number"],
                penalties: Vec<$crate::game::Points> ["numbers", "a bullhead count"],
                totals: Vec<$crate::game::Points> ["numbers", "a score"],
            }
            /// The game is over.
            GameEnd "game_end" {
                totals: Vec<$crate::game::Points> ["numbers", "a score"],
                winners: Vec<$crate::game::Seat> ["numbers", "a seat number"],
            }
            /// The circle game: `seat` put `special` from its hand into `row`.
            PlaceSpecial "place_special" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                special: $crate::cards::Special ["x2|plus5", "x2 or plus5"],
                row: usize ["row", "a row index"],
            }
            /// The circle game: `seat` placed the fifth number card in `row` and took it: its
            /// number `cards` (worth `points`, green minus red) and its `specials`. The row
            /// leaves the circle, so the rows after it move up by one.
            Collect "collect" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                row: usize ["row", "a row index"],
                cards: Vec<$crate::cards::Card> ["cards", "a card number"],
                specials: Vec<$crate::cards::Special> ["special cards", "x2 or plus5"],
                points: $crate::game::Points ["points", "a number of points"],
            }
            /// The circle game: `seat` ended its turn before placing as many cards as it may.
            EndTurn "end_turn" {
                seat: $crate::game::Seat ["seat", "a seat number"],
            }
            /// Anniversary, right after a round's `deal`: the special cards each seat received
            /// (players see only their own), the face-down deck after the deal (top first;
            /// players see its size), whether the discard pile was shuffled into it first, and
            /// the seed of the generator that reshuffles the discard pile during play.
            Specials "specials" {
                round: u32 ["round", "a round number"],
                hands: Vec<Vec<$crate::cards::Special>> ["names", "a special card's name"],
                deck: Vec<$crate::cards::Special> ["names", "a special card's name"],
                reshuffled: bool ["yes or no", "yes or no"],
                seed: u64 ["seed", "a seed"],
            } => seen by viewer {
                round: u32 ["round", "a round number"] = round,
                hand: Vec<$crate::cards::Special> ["names", "a special card's name"] = &hands[viewer],
                deck: usize ["count", "a number of cards"] = deck.len(),
            }
            /// Anniversary: `seat` played a special card before placing its number card `card`.
            Special "special" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                card: $crate::cards::Card ["card", "a card number"],
                play: $crate::game::SpecialPlay ["special card played", "a special card played"],
            }
            /// Anniversary: `seat`, about to take a row (the `take` line follows), played
            /// Negative = Positive on `card`, one of the cards taken: its `bullheads` count as
            /// plus, so twice as many come off the round's bullheads once the row is taken (not
            /// below 0).
            Cancel "cancel" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                card: $crate::cards::Card ["card", "a card number"],
                bullheads: $crate::game::Points ["count", "a bullhead count"],
            }
            /// Anniversary: `seat`, having taken a row, gave `gave` to the discard pile and drew
            /// `drew` from the deck (players see what was drawn only for their own seat).
            Swap "swap" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                gave: $crate::cards::Special ["name", "a special card's name"],
                drew: $crate::cards::Special ["name", "a special card's name"],
            } => seen by viewer {
                seat: $crate::game::Seat ["seat", "a seat number"] = seat,
                gave: $crate::cards::Special ["name", "a special card's name"] = gave,
                drew: Option<$crate::cards::Special> ["name", "a special card's name"] =
                    (*seat == viewer).then_some(*drew),
            }
            /// Anniversary: the deck ran out; the discard pile was shuffled into this new deck
            /// (top first).
            Reshuffle "reshuffle" {
                deck: Vec<$crate::cards::Special> ["names", "a special card's name"],
            } => seen by viewer {
                cards: usize ["count", "a number of cards"] = deck.len(),
            }
        }
    };
    // The declaration's grammar, read once: each event goes to `$then` in the compact form.
    (@declared $then:ident $(
        $(#[$attr:meta])*
        $Variant:ident $name:literal {
            $( $field:ident : $ty:ty [$hole:literal, $what:literal] ),* $(,)?
        }
        $( => seen by $viewer:ident {
            $( $seen:ident : $seen_ty:ty [$seen_hole:literal, $seen_what:literal] = $value:expr ),*
            $(,)?
        } )?
    )*) => {
        $then! { $(
            $(#[$attr])* $Variant $name [$($field: $ty [$hole, $what])*]
            [$($viewer $($seen: $seen_ty [$seen_hole, $seen_what] = $value;)*)?]
        )* }
    };
}
pub(crate) use events;

/// Declares [`Event`], its names and its fields from [`events!`].
macro_rules! define_events {
    ($( $(#[$attr:meta])* $Variant:ident $name:literal [$($field:ident: $ty:ty [$hole:literal, $what:literal])*] [$($viewer:ident $($seen:ident: $seen_ty:ty [$seen_hole:literal, $seen_what:literal] = $value:expr;)*)?] )*) => {
        /// Something that happened in a game. A game record is these, in order, one per line.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(tag = "event", deny_unknown_fields)]
        pub enum Event {
            $(
                $(#[$attr])*
                #[serde(rename = $name)]
                $Variant { $( $field: $ty ),* },
            )*
        }

        impl Event {
            /// Every event's name, in the order of their declaration.
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            /// Every event's name and its fields (a record line's keys), in order.
            pub const FIELDS: &'static [(&'static str, &'static [&'static str])] =
                &[$(($name, &[$(stringify!($field)),*])),*];

            /// The event's name, as records and the protocol write it.
            pub fn name(&self) -> &'static str {
                match self {
                    $( Event::$Variant { .. } => $name, )*
                }
            }
        }
    };
}

events!(define_events);

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
