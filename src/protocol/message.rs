//! The messages as owned values: what a bot written in Rust reads and writes, and what the
//! round-trip tests compare. The referee itself prints straight from the model
//! ([`super::print`]) and only parses [`FromBot`].

use crate::cards::{Card, Deck, Special};
use crate::game::{
    Action, CircleTable, Decision, Event, NumberTable, Points, Seat, SpecialTable, View,
};
use crate::rules::{Rules, Ties};
use crate::seat::{ClockReading, GameStart};
use crate::variants::Variant;
use std::borrow::Cow;
use std::fmt;

/// The protocol version this crate speaks.
pub const VERSION: u32 = 1;

/// The longest reply line a bot may write, in bytes, not counting its line end (`\n` or `\r\n`):
/// the text a bot author composes, whatever line end its language writes (the pipe layer
/// enforces it, docs/protocol.md).
pub const MAX_REPLY_BYTES: usize = 1024;

/// Every line from a bot, declared once: its `hello`, then every reply to a request. The hello
/// has its keyword, its words (in docs/protocol.md's list and in the refusal of another line
/// for a hello) and its fields as `key=value`, each with the parser's placeholder and words,
/// and `= value` when it is left out at that value (and read as it when absent). A reply has
/// the [`FromBot`] variant and its arguments, its keyword, its words in an error (`expected the
/// end of the line after "play <card>"`) and the [`Action`] it gives (of the same shape). From
/// here come [`FromBot`], [`FromBot::keyword`], [`FromBot::from_action`], [`FromBot::action`],
/// the printer ([`super::print::from_bot`], [`super::print::action`]), the parser and
/// docs/protocol.md's list. `replies!(then)` hands the declaration to the macro `then`, which
/// matches:
///
/// ```text
/// $(#[$hello_attr:meta])* Hello { $( $(#[doc = $doc:literal])* $key:ident: $kty:ty [$hole:literal, $kwhat:literal] $(= $left_out:literal)? ),* } $hello:literal $hello_words:literal;
/// $( $(#[$attr:meta])* $Variant:ident $( ($ty:ty) )? $( { $($field:ident : $fty:ty),* } )? $keyword:literal $words:literal $what:literal
///        = $Action:ident, )*
/// ```
///
/// where a reply's shape is `(Type)` or `{ field: Type, ... }`, the same as the action's, or
/// nothing.
macro_rules! replies {
    ($then:ident) => {
        $then! {
            /// `hello version=1 name=<name> [events=no]`: the answer to the referee's hello.
            Hello {
                version: u32 ["version", "a version number"],
                name: String ["name", "a name"],
                /// False when the bot declines `event` lines (`events=no`: a stateless bot
                /// needs none).
                events: bool ["yes|no", "yes or no"] = true
            } "hello" "hello version=1 name=<name>";
            /// `play <card>`: the answer to `ask play` (and to `ask place`).
            Play($crate::cards::Card) "play" "play <card>"
                "a card number after \"play\"" = Play,
            /// `row <index>`: the answer to `ask row`.
            Row(usize) "row" "row <index>"
                "a row index after \"row\"" = TakeRow,
            /// `pick <card>`: the answer to `ask pick` (the Pro variant's draft).
            Pick($crate::cards::Card) "pick" "pick <card>"
                "a card number after \"pick\"" = Pick,
            /// `keep <card>`: the answer to `ask keep` (Take a Number).
            Keep($crate::cards::Card) "keep" "keep <card>"
                "a card number after \"keep\"" = Keep,
            /// `special <x2|plus5> <row>`: an answer to `ask place` (the circle game): this
            /// special card into that row.
            PlaceSpecial { special: $crate::cards::Special, row: usize } "special"
                "special <x2|plus5> <row>" "" = PlaceSpecial,
            /// `end`: an answer to `ask place` once a card is placed: the turn ends.
            End "end" "end" "" = EndTurn,
            /// `special <name> <arguments>` (anniversary): the answer to `ask special`, e.g.
            /// `special stop 2` or `special shift 11 2 0`.
            Special($crate::game::SpecialPlay) "special" "special <name> <arguments>" "" = Special,
            /// `pass` (anniversary): no special card, to `ask special`, `ask cancel` or `ask
            /// swap`.
            Pass "pass" "pass" "" = Pass,
            /// `cancel <card>` (anniversary): Negative = Positive, the answer to `ask cancel`.
            Cancel($crate::cards::Card) "cancel" "cancel <card>"
                "a card number after \"cancel\"" = Cancel,
            /// `swap <name>` (anniversary): the answer to `ask swap`.
            Swap($crate::cards::Special) "swap" "swap <name>"
                "a special card\'s name after \"swap\"" = Swap,
        }
    };
}
pub(crate) use replies;

/// A reply's or an action's pattern, binding its arguments (a single one as `$bind`), or its
/// value from them, for a shape of [`replies!`].
macro_rules! reply_shape {
    ($($path:ident)::+ [] $bind:ident) => { $($path)::+ };
    ($($path:ident)::+ [($ty:ty)] $bind:ident) => { $($path)::+($bind) };
    ($($path:ident)::+ [{ $($field:ident: $ty:ty),* }] $bind:ident) => {
        $($path)::+ { $($field),* }
    };
}
pub(crate) use reply_shape;

/// Every line from the referee to a bot, declared once: the [`ToBot`] variant and what it
/// holds, and its keyword. A line of fields (`{ field: Type [hole, what] }`) has them as
/// `key=value`; `words` are its fields as words, the last one the rest of the line; a line of
/// one value (`(Type)`) is printed and read as that type's ([`super::print`]'s and
/// [`super::parse`]'s `LineBody`), after its keyword, which that type's `KEYWORD` holds
/// ([`GameInfo::KEYWORD`], [`EventLine::KEYWORD`], [`Request::KEYWORD`]; [`super::print::game`]
/// starts its line with it, [`super::print::event`] and [`super::print::ask`] with a literal
/// of their own, see there). From here come [`ToBot`],
/// [`ToBot::KEYWORDS`] (the parser's list of them), [`ToBot::keyword`], the printer of every
/// line ([`super::print::to_bot`]) and the parser's. `to_bot_lines!(then)` hands the declaration to the macro `then`, which
/// matches:
///
/// ```text
/// $( $(#[$attr:meta])* $Variant:ident $( ($ty:ty) )? $( { $($field:ident : $fty:ty $([$hole:literal, $what:literal])?),* } )? $keyword:literal $($words:ident)?, )*
/// ```
macro_rules! to_bot_lines {
    ($then:ident) => {
        $then! {
            /// `hello version=1`: the first line; the bot answers with its own hello.
            Hello { version: u32 ["version", "a version number"] } "hello",
            /// `game ...`: a game of the match starts. No reply.
            Game(GameInfo<'static>) "game",
            /// `event ...`: something happened, as this bot's seat may see it. No reply.
            Event(EventLine) "event",
            /// `ask ...`: a decision is due; exactly one reply.
            Ask(Request) "ask",
            /// `error <kind> <text>`: the last reply was refused; answer the same request again.
            Error { kind: ErrorKind, text: String } "error" words,
            /// `bye`: the match is over; the bot should exit.
            Bye "bye",
        }
    };
}
pub(crate) use to_bot_lines;

/// Declares [`ToBot`] from [`to_bot_lines!`].
macro_rules! define_to_bot {
    ($(
        $(#[$attr:meta])*
        $Variant:ident $( ($ty:ty) )? $( { $($field:ident : $fty:ty $([$hole:literal, $what:literal])?),* } )? $keyword:literal $($words:ident)?,
    )*) => {
        /// A line from the referee to a bot.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum ToBot {
            $( $(#[$attr])* $Variant $( ($ty) )? $( { $($field: $fty),* } )?, )*
        }

        $($(
            impl $ty {
                /// The keyword of the line that is this value.
                pub const KEYWORD: &'static str = $keyword;
            }
        )?)*

        impl ToBot {
            /// Every line's keyword, in the order of their declaration.
            pub const KEYWORDS: &'static [&'static str] = &[$($keyword),*];

            /// The line's keyword.
            #[allow(unused_variables)]
            pub fn keyword(&self) -> &'static str {
                match self {
                    $( reply_shape!(ToBot::$Variant [$( ($ty) )? $( { $($field: $fty),* } )?] argument) => $keyword, )*
                }
            }
        }
    };
}
to_bot_lines!(define_to_bot);

/// Declares [`FromBot`] and its conversions from [`replies!`].
macro_rules! define_replies {
    (
        $(#[$hello_attr:meta])* Hello { $( $(#[doc = $doc:literal])* $key:ident: $kty:ty [$hole:literal, $kwhat:literal] $(= $left_out:literal)? ),* } $hello:literal $hello_words:literal;
        $(
            $(#[$attr:meta])*
            $Variant:ident $( ($ty:ty) )? $( { $($field:ident : $fty:ty),* } )? $keyword:literal $words:literal $what:literal = $Action:ident,
        )*
    ) => {
        /// A line from a bot to the referee.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum FromBot {
            $(#[$hello_attr])*
            Hello { $( $(#[doc = $doc])* $key: $kty ),* },
            $( $(#[$attr])* $Variant $( ($ty) )? $( { $($field: $fty),* } )?, )*
        }

        /// The hello's shape (`hello version=1 name=<name>`).
        const HELLO_WORDS: &str = $hello_words;

        /// Every line's shape (`hello version=1 name=<name>`, `play <card>`), in the order of
        /// their declaration.
        pub(crate) const REPLY_WORDS: &[&str] = &[$hello_words, $($words),*];

        impl FromBot {
            /// The message's keyword.
            #[allow(unused_variables)]
            pub fn keyword(&self) -> &'static str {
                match self {
                    FromBot::Hello { .. } => $hello,
                    $( reply_shape!( FromBot::$Variant [$( ($ty) )? $( { $($field: $fty),* } )?] argument) => $keyword, )*
                }
            }

            /// The reply that gives `action`.
            pub fn from_action(action: Action) -> FromBot {
                match action {
                    $( reply_shape!( Action::$Action [$( ($ty) )? $( { $($field: $fty),* } )?] argument) => {
                        reply_shape!( FromBot::$Variant [$( ($ty) )? $( { $($field: $fty),* } )?] argument)
                    } )*
                }
            }

            /// The action this reply gives (whatever was asked); `None` for a hello.
            pub fn action(&self) -> Option<Action> {
                Some(match *self {
                    FromBot::Hello { .. } => return None,
                    $( reply_shape!( FromBot::$Variant [$( ($ty) )? $( { $($field: $fty),* } )?] argument) => {
                        reply_shape!( Action::$Action [$( ($ty) )? $( { $($field: $fty),* } )?] argument)
                    } )*
                })
            }
        }
    };
}
replies!(define_replies);

/// The `game` line's fields, declared once, in the order they are printed: each `key=`, the
/// [`GameInfo`] field it is (`in deck`: a field of the deck), its value's type, the parser's
/// placeholder and words for it (`a field seats=<count>`, `a number of seats`), and `= default`
/// when it is left out at its default (and read as the default when absent). From here come
/// [`GameInfo`] (its deck borrowed from the game it starts, see [`GameInfo::from_start`]), the
/// printer ([`super::print::game_info`]), the parser and the list of keys in docs/protocol.md.
/// `game_fields!(then)` hands the declaration to the macro `then`, which matches:
///
/// ```text
/// $( $(#[doc = $doc:literal])* $key:ident $(in $outer:ident)?: $ty:ty [$hole:literal, $what:literal] $(= $default:ident)?, )*
/// ```
macro_rules! game_fields {
    ($then:ident) => {
        $then! {
            /// The game's number in the match, from 0.
            number: u64 ["number", "a game number"],
            /// The variant's name (kept as text, so a bot built against an older take5 still
            /// reads it).
            variant: std::borrow::Cow<'info, str> ["name", "a variant name"],
            seats: usize ["count", "a number of seats"],
            /// The bot's own seat, from 0.
            seat: $crate::game::Seat ["seat", "a seat number"],
            rows: usize ["count", "a number of rows"],
            row_capacity: usize ["count", "a number of cards"],
            hand_size: usize ["count", "a number of cards"],
            end: $crate::rules::GameEnd ["score:<points>|rounds:<rounds>", "score:<points> or rounds:<rounds>"],
            lowest in deck: u16 ["card", "a card number"],
            bullheads in deck: Vec<u8> ["numbers", "a bullhead count"],
            /// The circle game's cards whose bullheads are red.
            red in deck: Vec<$crate::cards::Card> ["cards", "a card number"] = default,
            /// The time limit per decision (absent from lines of take5 before 0.2).
            time_ms: Option<u64> ["milliseconds", "a number"] = default,
            /// A seed for the bot's own randomness in this game (absent likewise).
            seed: Option<u64> ["seed", "a seed"] = default,
        }
    };
}
pub(crate) use game_fields;

/// Declares [`GameInfo`] and [`GameInfo::from_keys`] from [`game_fields!`]: each key a field,
/// but those `in deck`, which are the fields of its `deck`.
macro_rules! define_game_info {
    (@split [$($plain:tt)*] [$($own:ident)*] [$($deck:ident)*] [$($all:tt)*]) => {
        /// The fields of a `game` line: the table a game is played at. The referee's line
        /// borrows the variant's name and the deck from the game it starts
        /// ([`GameInfo::from_start`]); a parsed line owns them (`GameInfo<'static>`).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct GameInfo<'info> {
            $($plain)*
            /// `lowest=`, `bullheads=` and, in the circle game, `red=`.
            pub deck: Cow<'info, Deck>,
        }

        impl<'info> GameInfo<'info> {
            /// The fields from every key's value, in the order of their declaration.
            #[allow(clippy::too_many_arguments)]
            pub(crate) fn from_keys($($all)*) -> GameInfo<'info> {
                GameInfo {
                    $($own,)*
                    deck: Cow::Owned(Deck { $($deck),* }),
                }
            }
        }
    };
    (@split [$($plain:tt)*] [$($own:ident)*] [$($deck:ident)*] [$($all:tt)*]
        $(#[doc = $doc:literal])* $key:ident in deck: $ty:ty [$hole:literal, $what:literal] $(= $default:ident)?,
        $($rest:tt)*) => {
        define_game_info!(
            @split [$($plain)*] [$($own)*] [$($deck)* $key] [$($all)* $key: $ty,] $($rest)*
        );
    };
    (@split [$($plain:tt)*] [$($own:ident)*] [$($deck:ident)*] [$($all:tt)*]
        $(#[doc = $doc:literal])* $key:ident: $ty:ty [$hole:literal, $what:literal] $(= $default:ident)?,
        $($rest:tt)*) => {
        define_game_info!(
            @split [$($plain)* $(#[doc = $doc])* pub $key: $ty,] [$($own)* $key] [$($deck)*]
            [$($all)* $key: $ty,] $($rest)*
        );
    };
    ($($declared:tt)*) => {
        define_game_info!(@split [] [] [] [] $($declared)*);
    };
}
game_fields!(define_game_info);

macro_rules! game_keys {
    ($( $(#[doc = $doc:literal])* $key:ident $(in $outer:ident)?: $ty:ty [$hole:literal, $what:literal] $(= $default:ident)?, )*) => {
        /// The `game` line's keys, in order.
        pub(crate) const GAME_KEYS: &[&str] = &[$(stringify!($key)),*];
    };
}
game_fields!(game_keys);

/// Declares [`EventLine`] from the events' declaration (`crate::game::events!`).
macro_rules! event_line {
    ($( $(#[$attr:meta])* $Variant:ident $name:literal [$($field:ident: $ty:ty [$hole:literal, $what:literal])*] [$($viewer:ident $($seen:ident: $seen_ty:ty [$seen_hole:literal, $seen_what:literal] = $value:expr;)*)?] )*) => {
        /// An event as one seat sees it: the model's [`Event`], except that the events a seat
        /// sees only in part (a deal shows only that seat's hand) are lines of their own, with
        /// the fields of the protocol's line, e.g.
        /// `event deal round=1 hand=3,17,22 rows=12,40,77,91` (`rows`: the first card of each
        /// row) and, in the anniversary variant,
        /// `event specials round=1 hand=fifth_row,stop,insert deck=22` (the special cards the
        /// seat received and the deck's size), `event swap seat=1 gave=stop drew=insert`
        /// (`drew` only for the seat's own swap) and `event reshuffle cards=5` (the discard
        /// pile became a deck of that many cards).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum EventLine {
            /// Any other event, which every seat sees whole:
            /// `event reveal round=1 turn=1 cards=17,5,40,88` (cards by seat),
            /// `event take seat=1 row=2 cards=77,78 bullheads=2 reason=low`,
            /// `event place seat=1 card=5 row=2`,
            /// `event round_end round=1 penalties=5,0,3,2 totals=5,0,3,2`,
            /// `event game_end totals=5,0,3,2 winners=1`, ... (docs/protocol.md).
            Public(Event),
            $($(
                #[doc = concat!(
                    "[`Event::", stringify!($Variant), "`] as the seat `", stringify!($viewer),
                    "` sees it."
                )]
                $Variant { $( $seen: $seen_ty ),* },
            )?)*
        }

        /// Every event a seat sees only in part, and the fields of its line, in order.
        pub(crate) const SEEN_FIELDS: &[(&str, &[&str])] = &[$($(
            ($name, {
                // Only the events seen by a viewer have a line of their own.
                let _viewer = stringify!($viewer);
                &[$(stringify!($seen)),*]
            }),
        )?)*];

        impl EventLine {
            /// `event` as `seat` sees it.
            // The fields a seat does not see are bound and left unused.
            #[allow(unused_variables)]
            pub fn seen_by(seat: Seat, event: &Event) -> EventLine {
                match event {
                    $( Event::$Variant { $($field),* } => event_line!(
                        @seen seat event $Variant $([$viewer $($seen = $value)*])?
                    ), )*
                }
            }

            /// The word after `event`.
            pub fn name(&self) -> &'static str {
                match self {
                    EventLine::Public(event) => event.name(),
                    $($( EventLine::$Variant { $($seen: _),* } => $name, )?)*
                }
            }
        }
    };
    (@seen $seat:ident $event:ident $Variant:ident) => {
        EventLine::Public($event.clone())
    };
    (@seen $seat:ident $event:ident $Variant:ident [$viewer:ident $($seen:ident = $value:expr)*]) => {{
        let $viewer = $seat;
        EventLine::$Variant { $( $seen: $value.clone() ),* }
    }};
}
crate::game::events!(event_line);

/// Every request, declared once: the [`Ask`] variant and its fields, the word after `ask`, the
/// replies that answer it and the decision it asks for. A field is the decision's own (`card`,
/// `placed`), or a copy of the seat's view's (`= view.revealed`); each has its `key=`'s
/// placeholder and words for the parser, as the events' fields do. From here come [`Ask`],
/// [`Request::decision`], the ask of [`Request::from_view`], the word an `ask` line starts with
/// ([`ask_prefix`]), the parser's list of them ([`ASKS`]) and of each ask's own fields, and what
/// a refused reply is told was wanted ([`FromBot::answer`]). `asks!(then)` hands the
/// declaration to the macro `then`.
macro_rules! asks {
    ($then:ident) => {
        $crate::protocol::message::asks! { @declared $then
            /// `ask play`: choose a card from the hand.
            #[default]
            Play "play" "play <card>" = PlayCard,
            /// `ask row`: `card` is lower than every row's end; choose the row to take.
            /// `revealed` holds this turn's cards by seat.
            Row {
                card: $crate::cards::Card ["card", "a card number"],
                revealed: Vec<$crate::cards::Card> ["cards", "a card number"] = view.revealed last,
            } "row" "row <index>" = ChooseRow { card },
            /// `ask pick`: draft a card from `pool` (the Pro variant). The request's `turn` is
            /// 0 and its `rows` empty: the line has neither.
            Pick {
                pool: Vec<$crate::cards::Card> ["cards", "a card number"] = view.pool,
            } "pick" "pick <card>" = Pick,
            /// `ask keep` (Take a Number): the seat took the cards in the request's
            /// [`NumberTable::keep_from`] (`cards=`); choose the one for its #-row. `revealed`
            /// holds this turn's cards by seat.
            Keep {
                revealed: Vec<$crate::cards::Card> ["cards", "a card number"] = view.revealed last,
            } "keep" "keep <card>" = KeepCard,
            /// `ask place` (the circle game): place a card, or (once `placed` is above 0) end
            /// the turn; `remaining` more cards may be placed this turn. The request's `circle`
            /// holds the special cards in the rows and in the hands.
            Place {
                placed: u8 ["count", "a number of cards"],
                remaining: u8 ["count", "a number of cards"],
            } "place" "play <card>, special <x2|plus5> <row> or end" = Place { placed, remaining },
            /// `ask special` (anniversary): `card` is about to be placed; play a special card or
            /// pass.
            Special {
                card: $crate::cards::Card ["card", "a card number"],
                revealed: Vec<$crate::cards::Card> ["cards", "a card number"] = view.revealed last,
            } "special" "special <name> <arguments> or pass" = Special { card },
            /// `ask cancel` (anniversary): about to take the cards in the request's
            /// [`SpecialTable::taking`] (`cards=`); play Negative = Positive on one, or pass.
            Cancel {
                revealed: Vec<$crate::cards::Card> ["cards", "a card number"] = view.revealed last,
            } "cancel" "cancel <card> or pass" = Cancel,
            /// `ask swap` (anniversary): a row was taken; swap a special card or pass.
            Swap {
                revealed: Vec<$crate::cards::Card> ["cards", "a card number"] = view.revealed last,
            } "swap" "swap <name> or pass" = Swap,
        }
    };
    // The declaration's grammar, read once: each ask goes to `$then` in a compact form, matched
    // in one line.
    (@declared $then:ident $(
        $(#[$attr:meta])*
        $Variant:ident $({ $($field:ident: $ty:ty [$hole:literal, $what:literal] $(= view.$source:ident $($last:ident)?)?),* $(,)? })?
        $word:literal $wanted:literal = $Decision:ident $({ $($decided:ident),* })?,
    )*) => {
        $then! { $(
            $(#[$attr])* $Variant $({ $($field: $ty [$hole, $what] [$($source $($last)?)?])* })?
            $word $wanted = $Decision [$($($decided)*)?]
        )* }
    };
}
pub(crate) use asks;

/// An ask's field: the decision's own, or a copy of the view's.
macro_rules! ask_field {
    ($view:ident $field:ident) => {
        $field
    };
    ($view:ident $field:ident $source:ident $($last:ident)?) => {
        $view.$source.to_vec()
    };
}

/// Declares [`Ask`] and its words from [`asks!`].
macro_rules! define_asks {
    ($( $(#[$attr:meta])* $Variant:ident $({ $($field:ident: $ty:ty [$hole:literal, $what:literal] [$($source:ident $($last:ident)?)?])* })? $word:literal $wanted:literal = $Decision:ident [$($decided:ident)*] )*) => {
        /// What an `ask` line asks for.
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub enum Ask {
            $( $(#[$attr])* $Variant $({ $($field: $ty),* })?, )*
        }

        /// The words after `ask`, in the order of their declaration.
        pub(crate) const ASKS: &[&str] = &[$($word),*];

        /// Every ask's word and its own fields (`card=` of `ask row`), in order.
        pub(crate) const ASK_FIELDS: &[(&str, &[&str])] =
            &[$(($word, &[$($(stringify!($field)),*)?])),*];

        /// `ask <word>`: the start of the line that asks for `decision`. One literal, which
        /// the printer pushes at once: its keyword is written here rather than taken from
        /// [`Request::KEYWORD`] (a `const` cannot be joined into a literal), which costs the
        /// `ask` printer 2% more instructions when pushed apart, the `event` printer 9% (see
        /// `print::event`). The round-trip tests read every line back by the declared keyword.
        pub(crate) fn ask_prefix(decision: Decision) -> &'static str {
            match decision {
                $( Decision::$Decision { .. } => concat!("ask ", $word), )*
            }
        }

        /// `ask <word>` for `decision`, and the replies that answer it.
        fn asked_and_wanted(decision: Decision) -> (&'static str, &'static str) {
            (ask_prefix(decision), match decision {
                $( Decision::$Decision { .. } => $wanted, )*
            })
        }

        impl Ask {
            /// What `view` asks for, if its seat owes a decision.
            fn of_view(view: &View) -> Option<Ask> {
                Some(match view.decision? {
                    $( Decision::$Decision { $($decided),* } => Ask::$Variant {
                        $($( $field: ask_field!(view $field $($source $($last)?)?) ),*)?
                    }, )*
                })
            }

            /// The decision asked for.
            pub(crate) fn decision(&self) -> Decision {
                match *self {
                    $( Ask::$Variant { $($decided,)* .. } => Decision::$Decision { $($decided),* }, )*
                }
            }
        }
    };
}
asks!(define_asks);

/// Every key of an `ask` line but the ask's own ([`asks!`]), declared once, in the order they
/// are printed: where its value is (`view.turn`: the [`View`]'s and the [`Request`]'s field;
/// `number.`, `circle.`, `specials.`: a field of that table of theirs; `clock.`: the seat's
/// clock, which is no part of the [`View`] (the engine knows no time) but given beside it), its
/// `key=`, the type a parsed line holds, the parser's placeholder and words, `= default` when
/// the parser reads it as empty when it is absent, and when it is on the line (`if`: a [`When`];
/// a key of a table also needs the table). `[own first]` and `[own last]` are where the ask's
/// own fields go (those marked `last` in [`asks!`] after the table). From here come the printer
/// ([`super::print::ask`]), [`Request::from_view`], the parser's [`Request`] and
/// docs/protocol.md's list. `ask_keys!(then)` hands the declaration to the macro `then`, which
/// matches `$( [$($entry:tt)*] )*`, each entry being `own first`, `own last` or:
///
/// ```text
/// $group:ident . $field:ident $key:literal : $ty:ty [$hole:literal, $what:literal] $(= $default:ident)? if $When:ident
/// ```
macro_rules! ask_keys {
    ($then:ident) => {
        $then! {
            [view.seat "seat": $crate::game::Seat ["seat", "a seat number"] if Always]
            [view.round "round": u32 ["round", "a round number"] if Always]
            [view.turn "turn": u32 ["turn", "a turn number"] if NotDrafting]
            [own first]
            [number.keep_from "cards": Vec<$crate::cards::Card> ["cards", "a card number"] if Keep]
            [specials.taking "cards": Vec<$crate::cards::Card> ["cards", "a card number"] if Cancel]
            [view.hand "hand": Vec<$crate::cards::Card> ["cards", "a card number"] if Always]
            [view.rows "rows": Vec<Vec<$crate::cards::Card>> ["rows", "a card number"] if NotDrafting]
            [view.scores "scores": Vec<$crate::game::Points> ["numbers", "a score"] if Always]
            [view.taken "taken": Vec<$crate::game::Points> ["numbers", "a bullhead count"] if Always]
            [own last]
            [number.hash_rows "hashrows": Vec<Vec<$crate::cards::Card>> ["rows", "a card number"] = default if Number]
            [number.hash_piles "hashpiles": Vec<usize> ["numbers", "a count"] = default if Number]
            [number.hand_sizes "hands": Vec<usize> ["numbers", "a count"] = default if Number]
            [circle.row_specials "rowspecials": Vec<Vec<$crate::cards::Special>> ["special cards", "x2 or plus5"] if Circle]
            [circle.held "held": Vec<Vec<$crate::cards::Special>> ["special cards", "x2 or plus5"] if Circle]
            [circle.hand_sizes "hands": Vec<usize> ["numbers", "a count"] if Circle]
            [view.special_hand "specials": Vec<$crate::cards::Special> ["names", "a special card"] if Specials]
            [specials.hand_counts "specialhands": Vec<usize> ["numbers", "a count"] if Specials]
            [specials.stops "stops": Vec<bool> ["numbers", "a row index"] if Specials]
            [specials.sevens "sevens": Vec<bool> ["numbers", "a row index"] if Specials]
            [specials.deck "deck": usize ["count", "a number of cards"] if Specials]
            [specials.discard "discard": Vec<$crate::cards::Special> ["names", "a special card's name"] if Specials]
            [clock.left_ms "time_left_ms": u64 ["milliseconds", "a number"] if Clock]
            [clock.increment_ms "increment_ms": u64 ["milliseconds", "a number"] if Clock]
        }
    };
}
pub(crate) use ask_keys;

/// When a key of an `ask` line is on it (the `if` of [`ask_keys!`]). The printer and
/// [`Request::from_view`] ask [`When::printed`], the parser asks [`When::parsed`] of the line
/// (a table's by the key [`ask_keys!`] declares first in it), and docs/protocol.md's list says it
/// in words (`summary::on_line`): each a `match` of every condition, so the compiler keeps the
/// three in step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum When {
    /// On every line.
    Always,
    /// On every line but `ask pick`.
    NotDrafting,
    /// On `ask keep` (with Take a Number's table).
    Keep,
    /// On `ask cancel` (with the anniversary's table).
    Cancel,
    /// With Take a Number's table.
    Number,
    /// On `ask place`, the circle game's (with its table).
    Circle,
    /// With the anniversary's table.
    Specials,
    /// In a clocked game (`--clock`).
    Clock,
}

impl When {
    /// Whether the keys marked `if self` are on the line asking for `decision` of `view`, whose
    /// seat has `clock`; a key of a table also needs the table.
    #[inline(always)]
    pub(crate) fn printed(
        self,
        decision: Decision,
        view: &View,
        clock: Option<ClockReading>,
    ) -> bool {
        match self {
            When::Always => true,
            When::NotDrafting => !matches!(decision, Decision::Pick),
            When::Keep => matches!(decision, Decision::KeepCard),
            When::Cancel => matches!(decision, Decision::Cancel),
            When::Number => !view.hash_rows().is_empty(),
            When::Circle => matches!(decision, Decision::Place { .. }),
            When::Specials => view.specials.is_some(),
            When::Clock => clock.is_some(),
        }
    }

    /// Whether the keys marked `if self` are read from a parsed line asking for `decision`,
    /// where `has` tells whether the line has a key: [`When::printed`] as the line shows it. A
    /// table is on the line when its key is ([`When::table_key`]); Take a Number's also on
    /// `ask keep`, whose `cards=` are in it.
    #[inline(always)]
    pub(crate) fn parsed(self, decision: Decision, has: impl Fn(&str) -> bool) -> bool {
        match self {
            When::Always => true,
            When::NotDrafting => !matches!(decision, Decision::Pick),
            When::Keep => matches!(decision, Decision::KeepCard),
            When::Cancel => {
                matches!(decision, Decision::Cancel) && has(const { When::Specials.table_key() })
            }
            When::Number => {
                has(const { When::Number.table_key() }) || matches!(decision, Decision::KeepCard)
            }
            When::Circle => matches!(decision, Decision::Place { .. }),
            When::Specials => has(const { When::Specials.table_key() }),
            When::Clock => has(const { When::Clock.table_key() }),
        }
    }

    /// The key that tells a table is on a line, for a table's condition (`Number`, `Specials`,
    /// `Clock`): the first key of a table (not `view.`) declared with it in [`ask_keys!`]
    /// (`hashrows=`, `specialhands=`, `time_left_ms=`). Found at compile time: a condition with
    /// no such key does not compile.
    pub(crate) const fn table_key(self) -> &'static str {
        let mut i = 0;
        while i < TABLE_KEYS.len() {
            let (when, key) = TABLE_KEYS[i];
            if when as u8 == self as u8 {
                return key;
            }
            i += 1;
        }
        panic!("no key of a table is declared with this condition")
    }
}

/// An entry of [`ASK_KEYS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AskKey {
    /// Where the ask's own fields go: before the table, or (`last`) after it.
    Own { last: bool },
    /// A `key=` and when it is on the line.
    Key(&'static str, When),
}

macro_rules! ask_key_list {
    ($( [$($entry:tt)*] )*) => {
        /// Every key of an `ask` line but the ask's own, and when it is there, in order; and
        /// where the ask's own fields go.
        pub(crate) const ASK_KEYS: &[AskKey] = &[$( ask_key_list!(@entry $($entry)*), )*];

        /// The keys of the tables (all but `view.`'s), each with its condition, in order.
        const TABLE_KEYS: &[(When, &str)] = &{
            const ALL: &[(&str, When, &str)] = &[$( ask_key_list!(@group $($entry)*), )*];
            let mut keys = [(When::Always, ""); ALL.len()];
            let (mut i, mut n) = (0, 0);
            while i < ALL.len() {
                let (group, when, key) = ALL[i];
                if !matches!(group.as_bytes(), b"view") {
                    keys[n] = (when, key);
                    n += 1;
                }
                i += 1;
            }
            keys
        };
    };
    (@group own $place:ident) => {
        ("view", When::Always, "")
    };
    (@group $group:ident . $field:ident $key:literal : $ty:ty [$hole:literal, $what:literal] $(= $default:ident)? if $When:ident) => {
        (stringify!($group), When::$When, $key)
    };
    (@entry own first) => {
        AskKey::Own { last: false }
    };
    (@entry own last) => {
        AskKey::Own { last: true }
    };
    (@entry $group:ident . $field:ident $key:literal : $ty:ty [$hole:literal, $what:literal] $(= $default:ident)? if $When:ident) => {
        AskKey::Key($key, When::$When)
    };
}
ask_keys!(ask_key_list);

/// Declares [`Request::from_view`] from [`ask_keys!`]: each key the printer prints for the
/// view, copied, so the request is the one the parser reads from the printed line.
macro_rules! request_from_view {
    ($( [$($entry:tt)*] )*) => {
        impl Request {
            /// The request for what `view` asks; `None` if its seat owes no decision. It holds
            /// what the `ask` line tells (a parsed line is the same request): no clock, which
            /// the view has not, and no Take a Number `capacities`, which the line does not
            /// send.
            pub fn from_view(view: &View) -> Option<Request> {
                let decision = view.decision?;
                let mut request = Request {
                    ask: Ask::of_view(view)?,
                    ..Request::default()
                };
                $( request_from_view!(@entry request decision view $($entry)*); )*
                Some(request)
            }
        }
    };
    (@entry $request:ident $decision:ident $view:ident own $place:ident) => {};
    (@entry $request:ident $decision:ident $view:ident
        $group:ident . $field:ident $key:literal : $ty:ty [$hole:literal, $what:literal] $(= $default:ident)? if $When:ident) => {
        if When::$When.printed($decision, $view, None) {
            request_from_view!(@copy $request $view $group $field);
        }
    };
    (@copy $request:ident $view:ident view $field:ident) => {
        $request.$field = $view.$field.to_owned()
    };
    // A view has no clock.
    (@copy $request:ident $view:ident clock $field:ident) => {};
    (@copy $request:ident $view:ident $group:ident $field:ident) => {
        if let Some(table) = $view.$group {
            $request.$group.get_or_insert_with(Default::default).$field = table.$field.clone();
        }
    };
}
ask_keys!(request_from_view);

/// The fields of an `ask` line: everything a stateless bot needs to decide, the [`View`]'s
/// fields owned (the line's keys: [`ask_keys!`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    pub ask: Ask,
    pub seat: Seat,
    pub round: u32,
    pub turn: u32,
    /// The bot's hand, ascending.
    pub hand: Vec<Card>,
    /// The rows, each from its first card to its end.
    pub rows: Vec<Vec<Card>>,
    /// Totals of the completed rounds, by seat.
    pub scores: Vec<Points>,
    /// Bullheads taken this round, by seat.
    pub taken: Vec<Points>,
    /// Take a Number's fields: `hashrows=` (every seat's #-row), `hashpiles=` (the size of every
    /// seat's #-pile), `hands=` (how many cards every seat holds) and, in `ask keep`, `cards=`
    /// (the cards taken). `None` in a classic request (no such fields, not `ask keep`). The row
    /// capacities are not sent (see docs/protocol.md): `capacities` stays empty.
    pub number: Option<NumberTable>,
    /// The circle game's fields: `rowspecials=` (the special cards in each row), `held=` (the
    /// special cards every seat holds) and `hands=` (how many number cards every seat holds);
    /// whose turn it is is the asked seat. `None` in other variants.
    pub circle: Option<Box<CircleTable>>,
    /// The anniversary variant's fields: `specials=` (this seat's special cards, in
    /// `hands[seat]`; the other hands stay empty), `specialhands=`, `stops=`, `sevens=`,
    /// `deck=`, `discard=` and, in `ask cancel`, `cards=`. `None` for the other variants (boxed:
    /// it is large, and most requests have none).
    pub specials: Option<Box<SpecialTable>>,
    /// The anniversary variant's `specials=`: the seat's own special cards (in the circle game
    /// they are its entry of `circle.held`); empty otherwise.
    pub special_hand: Vec<Special>,
    /// In a clocked game (`--clock`), the seat's clock: `time_left_ms=` and `increment_ms=`;
    /// `None` without a clock (no such keys).
    pub clock: Option<ClockReading>,
}

/// Every kind of refusal, declared once: the [`ErrorKind`] and the word after `error`. From
/// here come [`ErrorKind::ALL`], [`ErrorKind::name`] and the parser's list of them.
macro_rules! error_kinds {
    ($( $(#[$attr:meta])* $Kind:ident $name:literal, )*) => {
        /// Why the referee refused a reply (the word after `error`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorKind {
            $( $(#[$attr])* $Kind, )*
        }

        impl ErrorKind {
            /// Every kind, in the order of their declaration.
            pub const ALL: [ErrorKind; [$($name),*].len()] = [$(ErrorKind::$Kind),*];

            /// The word on the line.
            pub fn name(self) -> &'static str {
                match self {
                    $( ErrorKind::$Kind => $name, )*
                }
            }
        }
    };
}

error_kinds! {
    /// The line is not a message.
    Syntax "syntax",
    /// A valid message that does not answer the request (`row 1` when asked to play).
    Unexpected "unexpected",
    /// The answer breaks the rules; the text starts with the rule error's kind.
    Illegal "illegal",
    /// The line is longer than [`MAX_REPLY_BYTES`].
    TooLong "too_long",
    /// The line is not valid UTF-8.
    Encoding "encoding",
    /// The hello names a version the referee does not speak.
    Version "version",
}

impl ErrorKind {
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A well-formed reply that does not answer what was asked; send it back with
/// [`super::print::refusal`] and its [`Mismatch::kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The wrong message: `got` (a keyword) where `wanted` (a message shape) answers `asked`
    /// (`hello`, `ask play`).
    Message {
        asked: &'static str,
        wanted: &'static str,
        got: &'static str,
    },
    /// A hello with a version this referee does not speak.
    Version { got: u32 },
}

impl Mismatch {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Mismatch::Message { .. } => ErrorKind::Unexpected,
            Mismatch::Version { .. } => ErrorKind::Version,
        }
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Message { asked, wanted, got } => {
                write!(
                    f,
                    "\"{got}\" does not answer \"{asked}\": expected \"{wanted}\""
                )
            }
            Mismatch::Version { got } => {
                write!(
                    f,
                    "version {got} is not spoken here: this referee speaks version {VERSION}"
                )
            }
        }
    }
}

impl FromBot {
    /// The action this reply gives in answer to `decision`, or why it does not answer it. Only
    /// the shape is checked here; whether the action is legal is the game's answer.
    pub fn answer(&self, decision: Decision) -> Result<Action, Mismatch> {
        if let Some(action) = self.action()
            && answers(decision, action)
        {
            return Ok(action);
        }
        let (asked, wanted) = asked_and_wanted(decision);
        Err(Mismatch::Message {
            asked,
            wanted,
            got: self.keyword(),
        })
    }

    /// The bot's name and whether it wants `event` lines, if this is an acceptable answer to
    /// the referee's `hello`.
    pub fn greeting(&self) -> Result<(&str, bool), Mismatch> {
        match self {
            FromBot::Hello {
                version,
                name,
                events,
            } if *version == VERSION => Ok((name, *events)),
            FromBot::Hello { version, .. } => Err(Mismatch::Version { got: *version }),
            _ => Err(Mismatch::Message {
                asked: ToBot::Hello { version: VERSION }.keyword(),
                wanted: HELLO_WORDS,
                got: self.keyword(),
            }),
        }
    }
}

/// Whether `action` is of a shape that answers `decision` (whether it is legal is the game's
/// answer).
fn answers(decision: Decision, action: Action) -> bool {
    matches!(
        (decision, action),
        (Decision::PlayCard, Action::Play(_))
            | (Decision::ChooseRow { .. }, Action::TakeRow(_))
            | (Decision::KeepCard, Action::Keep(_))
            | (Decision::Pick, Action::Pick(_))
            | (
                Decision::Place { .. },
                Action::Play(_) | Action::PlaceSpecial { .. } | Action::EndTurn
            )
            | (Decision::Special { .. }, Action::Special(_) | Action::Pass)
            | (Decision::Cancel, Action::Cancel(_) | Action::Pass)
            | (Decision::Swap, Action::Swap(_) | Action::Pass)
    )
}

impl GameInfo<'_> {
    /// The same fields, owning the variant's name and the deck.
    pub fn into_owned(self) -> GameInfo<'static> {
        GameInfo {
            variant: Cow::Owned(self.variant.into_owned()),
            deck: Cow::Owned(self.deck.into_owned()),
            ..self
        }
    }

    /// The `game` line the referee sends for `start`.
    pub fn from_start<'a>(start: &GameStart<'a>) -> GameInfo<'a> {
        let rules = start.rules;
        let (hand_size, rows) = rules.deal_size(start.seats);
        GameInfo {
            number: start.number,
            variant: Cow::Borrowed(start.variant.name()),
            seats: start.seats,
            seat: start.seat,
            rows,
            row_capacity: rules.row_capacity,
            hand_size,
            end: rules.end,
            deck: Cow::Borrowed(&rules.deck),
            time_ms: Some(start.time_ms),
            seed: Some(start.seed),
        }
    }

    /// Rules for this table, for a bot that wants to reuse take5's model (e.g. through
    /// [`Request::view`]). The protocol does not send the player limits or the tie rule, so
    /// `min_players` and `max_players` are the seats at this table and `ties` is
    /// [`crate::rules::Ties::Shared`]. Nor does it send the circle game's scoring of special cards or its
    /// cards per turn: a `variant=circle` table gets the variant's (which `take5 play` plays
    /// unless a house script changes them), dealing this table's `hand_size` and `rows`. The
    /// variants' own house settings (docs/house-rules.md) are not sent either.
    pub fn rules(&self) -> Rules {
        // What the line does not send is classic's: shared ties, the draft in seat order, no
        // variant's own rules.
        let mut rules = Rules {
            deck: self.deck.clone().into_owned(),
            rows: self.rows,
            row_capacity: self.row_capacity,
            hand_size: self.hand_size,
            min_players: self.seats,
            max_players: self.seats,
            end: self.end,
            ties: Ties::Shared,
            ..Rules::classic()
        };
        if let Some(variant) = Variant::from_name(&self.variant) {
            (variant.describe().told_rules)(&mut rules);
        }
        rules
    }
}

impl Request {
    pub fn decision(&self) -> Decision {
        self.ask.decision()
    }

    /// This turn's cards by seat: empty when asked to play.
    pub fn revealed(&self) -> &[Card] {
        match &self.ask {
            Ask::Play | Ask::Pick { .. } | Ask::Place { .. } => &[],
            Ask::Row { revealed, .. }
            | Ask::Keep { revealed, .. }
            | Ask::Special { revealed, .. }
            | Ask::Cancel { revealed }
            | Ask::Swap { revealed } => revealed,
        }
    }

    /// The cards taken, one to keep: empty unless asked to keep.
    pub fn keep_from(&self) -> &[Card] {
        match (&self.ask, &self.number) {
            (Ask::Keep { .. }, Some(number)) => &number.keep_from,
            _ => &[],
        }
    }

    /// The cards still to be drafted: empty unless asked to pick.
    pub fn pool(&self) -> &[Card] {
        match &self.ask {
            Ask::Pick { pool } => pool,
            _ => &[],
        }
    }

    /// The request as a model [`View`], so a Rust bot can reuse take5's policies (e.g.
    /// [`crate::players::builtin::dodger_card`]). `rules` come from [`GameInfo::rules`].
    pub fn view<'a>(&'a self, rules: &'a Rules) -> View<'a> {
        View {
            rules,
            seat: self.seat,
            seats: self.scores.len(),
            round: self.round,
            turn: self.turn,
            decision: Some(self.decision()),
            hand: &self.hand,
            rows: &self.rows,
            scores: &self.scores,
            taken: &self.taken,
            revealed: self.revealed(),
            number: self.number.as_ref(),
            pool: self.pool(),
            circle: self.circle.as_deref(),
            specials: self.specials.as_deref(),
            special_hand: match &self.circle {
                Some(circle) => circle.held.get(self.seat).map_or(&[], Vec::as_slice),
                None => &self.special_hand,
            },
        }
    }
}

impl fmt::Display for ToBot {
    /// The line, without its `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = String::new();
        super::print::to_bot(&mut line, self);
        f.write_str(line.trim_end_matches('\n'))
    }
}

impl fmt::Display for FromBot {
    /// The line, without its `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = String::new();
        super::print::from_bot(&mut line, self);
        f.write_str(line.trim_end_matches('\n'))
    }
}
