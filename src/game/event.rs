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
///
/// For docs/records.md's table of the lines, a field may say what it holds (`["..."]` after
/// its words) and every event says when it is `written`; `events!(notes then)` hands `then`
/// each event as `$name:literal [$($field:ident [$($note:literal)?])*] $written:literal`.
macro_rules! events {
    ($($mode:ident)+) => {
        $crate::game::events! { @declared [$($mode)+]
            /// A round was dealt: every hand (the record sees all; players see only their own)
            /// and the first card of each row.
            Deal "deal" {
                round: u32 ["round", "a round number"],
                hands: Vec<Vec<$crate::cards::Card>> ["hands", "cards"]
                    ["a list per seat, each **in ascending order**"],
                rows: Vec<$crate::cards::Card> ["cards", "a card number"]
                    ["the first card of each row; in Take a Number the centre rows', then each \
                      seat's #-row card"],
            } => seen by viewer {
                round: u32 ["round", "a round number"] = round,
                hand: Vec<$crate::cards::Card> ["cards", "a card number"] = &hands[viewer],
                rows: Vec<$crate::cards::Card> ["cards", "a card number"] = rows,
            } written "at the start of each round (Pro variant: after the draft's last pick; the \
                       hands are the drafted ones and the rows the cards left over)"
            /// Draft (Pro variant): `seat` took `card` from the face-up pool (everyone sees it).
            Pick "pick" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                card: $crate::cards::Card ["card", "a card number"],
            } written "(Pro variant) each pick of the draft, in the draft's order"
            /// Everyone has chosen; the cards of the turn, by seat, turn face up.
            Reveal "reveal" {
                round: u32 ["round", "a round number"],
                turn: u32 ["turn", "a turn number"],
                cards: Vec<$crate::cards::Card> ["cards", "a card number"]
                    ["the card each seat chose, by seat"],
            } written "when every seat has chosen"
            /// `seat` took `row`: its `cards`, costing `bullheads` (their printed bullheads,
            /// unless a house rule prices the row otherwise).
            Take "take" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                row: usize ["row", "a row index"],
                cards: Vec<$crate::cards::Card> ["cards", "a card number"]
                    ["the row's cards, first to end"],
                bullheads: $crate::game::Points ["count", "a bullhead count"] ["their sum"],
                reason: $crate::game::TakeReason ["full|low", "full or low"]
                    ["`\"full\"`: the card would have been one too many; or `\"low\"`: the card \
                      is below every row's end and its player chose this row"],
            } written "before the `place` of the card that takes"
            /// `card` of `seat` went to the end of `row`.
            Place "place" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                card: $crate::cards::Card ["card", "a card number"],
                row: usize ["row", "a row index"],
            } written "for each revealed card, in ascending order of card"
            /// Take a Number: `seat` put `card`, one of the cards it just took, at the end of
            /// its #-row; the other cards it took went into its hand.
            Keep "keep" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                card: $crate::cards::Card ["card", "a card number"]
                    ["Take a Number: the card of those just taken that goes to the seat's #-row; \
                      the others go into its hand"],
            } written "after the `place` of the card that took, once the seat chose (or at once \
                       for a single card)"
            /// Take a Number: `seat`'s #-row (`cards`) went onto its #-pile, because the card
            /// it keeps is lower than the row's end.
            Pile "pile" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                cards: Vec<$crate::cards::Card> ["cards", "a card number"]
                    ["Take a Number: the seat's old #-row, sent to its #-pile because the kept \
                      card is lower than its end"],
            } written "right after that `keep`"
            /// The round is over: bullheads taken this round and the totals after it, by seat.
            RoundEnd "round_end" {
                round: u32 ["round", "a round number"],
                penalties: Vec<$crate::game::Points> ["numbers", "a bullhead count"]
                    ["bullheads taken this round, by seat"],
                totals: Vec<$crate::game::Points> ["numbers", "a score"]
                    ["after this round, by seat"],
            } written "after a round's last card"
            /// The game is over.
            GameEnd "game_end" {
                totals: Vec<$crate::game::Points> ["numbers", "a score"],
                winners: Vec<$crate::game::Seat> ["numbers", "a seat number"]
                    ["the seats with the lowest total; several on a tie"],
            } written "after the last `round_end`"
            /// The circle game: `seat` put `special` from its hand into `row`.
            PlaceSpecial "place_special" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                special: $crate::cards::Special ["x2|plus5", "x2 or plus5"]
                    ["`\"x2\"` or `\"plus5\"`"],
                row: usize ["row", "a row index"],
            } written "(the circle game) when a seat puts a special card into a row"
            /// The circle game: `seat` placed the fifth number card in `row` and took it: its
            /// number `cards` (worth `points`, green minus red) and its `specials`. The row
            /// leaves the circle, so the rows after it move up by one.
            Collect "collect" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                row: usize ["row", "a row index"],
                cards: Vec<$crate::cards::Card> ["cards", "a card number"]
                    ["the row's number cards, first to last"],
                specials: Vec<$crate::cards::Special> ["special cards", "x2 or plus5"]
                    ["its special cards, in the order they went in"],
                points: $crate::game::Points ["points", "a number of points"]
                    ["green minus red of the cards"],
            } written "(the circle game) right after the `place` of the fifth number card; the \
                       row then leaves the circle and the rows after it move up by one"
            /// The circle game: `seat` ended its turn before placing as many cards as it may.
            EndTurn "end_turn" {
                seat: $crate::game::Seat ["seat", "a seat number"],
            } written "(the circle game) when a seat ends its turn before placing as many cards \
                       as it may (a turn that ends by itself, after the last card allowed or when \
                       nothing more fits, has no line)"
            /// Anniversary, right after a round's `deal`: the special cards each seat received
            /// (players see only their own), the face-down deck after the deal (top first;
            /// players see its size), whether the discard pile was shuffled into it first, and
            /// the seed of the generator that reshuffles the discard pile during play.
            Specials "specials" {
                round: u32 ["round", "a round number"],
                hands: Vec<Vec<$crate::cards::Special>> ["names", "a special card's name"]
                    ["the special cards each seat received this round, by seat"],
                deck: Vec<$crate::cards::Special> ["names", "a special card's name"]
                    ["the face-down deck after the deal, top card first"],
                reshuffled: bool ["yes or no", "yes or no"]
                    ["whether the discard pile went into the deck first"],
                seed: u64 ["seed", "a seed"]
                    ["of the generator that reshuffles the discard pile during the round"],
            } => seen by viewer {
                round: u32 ["round", "a round number"] = round,
                hand: Vec<$crate::cards::Special> ["names", "a special card's name"] = &hands[viewer],
                deck: usize ["count", "a number of cards"] = deck.len(),
            } written "(anniversary) right after each `deal`"
            /// Anniversary: `seat` played a special card before placing its number card `card`.
            Special "special" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                card: $crate::cards::Card ["card", "a card number"]
                    ["the revealed card it is played before"],
                play: $crate::game::SpecialPlay ["special card played", "a special card played"]
                    ["`{\"special\": \"stop\", \"row\": 1}` and the like: the fixture's `play`, \
                      docs/fixtures.md"],
            } written "(anniversary) when a seat plays a special card, before its revealed card \
                       is placed"
            /// Anniversary: `seat`, about to take a row (the `take` line follows), played
            /// Negative = Positive on `card`, one of the cards taken: its `bullheads` count as
            /// plus, so twice as many come off the round's bullheads once the row is taken (not
            /// below 0).
            Cancel "cancel" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                card: $crate::cards::Card ["card", "a card number"]
                    ["one of the cards taken, on which Negative = Positive is played"],
                bullheads: $crate::game::Points ["count", "a bullhead count"]
                    ["its bullheads, which count as plus"],
            } written "(anniversary) as the seat takes a row: the `take` line follows"
            /// Anniversary: `seat`, having taken a row, gave `gave` to the discard pile and drew
            /// `drew` from the deck (players see what was drawn only for their own seat).
            Swap "swap" {
                seat: $crate::game::Seat ["seat", "a seat number"],
                gave: $crate::cards::Special ["name", "a special card's name"]
                    ["to the discard pile"],
                drew: $crate::cards::Special ["name", "a special card's name"]
                    ["from the top of the deck"],
            } => seen by viewer {
                seat: $crate::game::Seat ["seat", "a seat number"] = seat,
                gave: $crate::cards::Special ["name", "a special card's name"] = gave,
                drew: Option<$crate::cards::Special> ["name", "a special card's name"] =
                    (*seat == viewer).then_some(*drew),
            } written "(anniversary) after a take, when the seat swaps a special card"
            /// Anniversary: the deck ran out; the discard pile was shuffled into this new deck
            /// (top first).
            Reshuffle "reshuffle" {
                deck: Vec<$crate::cards::Special> ["names", "a special card's name"]
                    ["the discard pile, shuffled into a new deck, top first"],
            } => seen by viewer {
                cards: usize ["count", "a number of cards"] = deck.len(),
            } written "(anniversary) when the deck is empty at a swap; the `swap` line follows"
        }
    };
    // The declaration's grammar, read once: each event goes to `$then` in the compact form, or
    // with its notes.
    (@declared [$($mode:ident)+] $(
        $(#[$attr:meta])*
        $Variant:ident $name:literal {
            $( $field:ident : $ty:ty [$hole:literal, $what:literal] $([$note:literal])? ),* $(,)?
        }
        $( => seen by $viewer:ident {
            $( $seen:ident : $seen_ty:ty [$seen_hole:literal, $seen_what:literal] = $value:expr ),*
            $(,)?
        } )?
        written $written:literal
    )*) => {
        $crate::game::events! { @hand [$($mode)+]
            [$(
                $(#[$attr])* $Variant $name [$($field: $ty [$hole, $what])*]
                [$($viewer $($seen: $seen_ty [$seen_hole, $seen_what] = $value;)*)?]
            )*]
            [$( $name [$($field [$($note)?])*] $written )*]
        }
    };
    (@hand [$then:ident] [$($compact:tt)*] [$($notes:tt)*]) => {
        $then! { $($compact)* }
    };
    (@hand [notes $then:ident] [$($compact:tt)*] [$($notes:tt)*]) => {
        $then! { $($notes)* }
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

impl TakeReason {
    pub const ALL: [TakeReason; 2] = [TakeReason::Full, TakeReason::Low];

    /// The word in records and the protocol (serde's too: the record test that compares its
    /// writer with serde's keeps them the same).
    pub fn name(self) -> &'static str {
        match self {
            TakeReason::Full => "full",
            TakeReason::Low => "low",
        }
    }

    pub fn from_name(name: &str) -> Option<TakeReason> {
        TakeReason::ALL.into_iter().find(|r| r.name() == name)
    }
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

impl EventSink for std::collections::VecDeque<Event> {
    fn enabled(&self) -> bool {
        true
    }
    fn push(&mut self, event: Event) {
        self.push_back(event)
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
