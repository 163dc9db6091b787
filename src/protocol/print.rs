//! Printers. Each appends one complete line, its `\n` included, to the caller's buffer and
//! allocates nothing else: the referee prints straight from the model ([`View`], [`Event`],
//! [`GameStart`]) on its pipe loop, reusing one `String` (clear it between lines, or let lines
//! pile up and write them at once).
//!
//! The printers of owned values ([`to_bot`], [`from_bot`]) write exactly the same text, through
//! the same code.

use super::message::{ErrorKind, EventLine, FromBot, GameInfo, Request, ToBot, VERSION, When};
use crate::cards::{Card, Special};
use crate::decimal::{Number, list};
use crate::game::{Action, Decision, Event, RuleError, Seat, SpecialPlay, TakeReason, View};
use crate::rules::{GameEnd, Rules};
use crate::seat::{ClockReading, GameStart};
use std::borrow::Cow;
use std::fmt::{self, Display, Write};
use std::sync::LazyLock;

/// `write!` into a `String`, which cannot fail.
macro_rules! put {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}

// ---------------------------------------------------------------------------------------------
// Referee to bot, from the model.

/// `hello version=1`: the referee's first line.
pub fn hello(out: &mut String) {
    to_bot(out, &ToBot::Hello { version: VERSION });
}

/// `game ...`: the game `start` begins, told to `start.seat`.
pub fn game(out: &mut String, start: &GameStart) {
    game_info(out, &GameInfo::from_start(start));
}

/// `error <kind> <text>`. Line breaks and other control characters in `text` become spaces and
/// surrounding blanks are dropped, so the line reads back as the same text.
///
/// The line of [`ToBot::Error`] (`super::message::to_bot_lines!`), with a text borrowed rather
/// than owned, so a refusal is told without an allocation: the declared line with an empty text
/// (which allocates nothing and prints nothing), then the text, which a line of words has last,
/// as the rest of the line.
pub fn error(out: &mut String, kind: ErrorKind, text: impl Display) {
    to_bot(
        out,
        &ToBot::Error {
            kind,
            text: String::new(),
        },
    );
    out.pop();
    rest_of_line(out, text);
    out.push('\n');
}

/// A text as the rest of a line, after a blank: line breaks and other control characters
/// become spaces, and surrounding blanks are dropped (with the blank before it if it is empty).
fn rest_of_line(out: &mut String, text: impl Display) {
    out.push(' ');
    let start = out.len();
    put!(OneLine(out), "{text}");
    let lead = out[start..].len() - out[start..].trim_start_matches(' ').len();
    out.drain(start..start + lead);
    // Drops the trailing blanks, and the separator too if the text was empty.
    out.truncate(out.trim_end_matches(' ').len());
}

/// `error <kind> <why> (<n> tries left)`: a refused reply, when the bot may answer again.
/// (After the last allowed reply the referee sends no error: it plays the fallback.)
pub fn refusal(out: &mut String, kind: ErrorKind, why: impl Display, tries_left: usize) {
    error(out, kind, Tries(why, tries_left));
}

/// `error illegal <rule error kind>: <rule error> (<n> tries left)`, e.g.
/// `error illegal not_in_hand: card 99 is not in seat 2's hand (2 tries left)`.
pub fn illegal(out: &mut String, rule: &RuleError, tries_left: usize) {
    refusal(
        out,
        ErrorKind::Illegal,
        format_args!("{}: {rule}", rule.kind()),
        tries_left,
    );
}

/// `bye`: the match is over.
pub fn bye(out: &mut String) {
    to_bot(out, &ToBot::Bye);
}

// ---------------------------------------------------------------------------------------------
// Bot to referee.

/// `hello version=1 name=<name>`: a bot's answer to the referee's hello. `name` should be 1 to
/// 40 characters of `A-Za-z0-9_.:+-` (not checked here).
pub fn bot_hello(out: &mut String, name: &str) {
    // Owns a copy of the name: a bot says hello once.
    from_bot(
        out,
        &FromBot::Hello {
            version: VERSION,
            name: name.to_string(),
            events: true,
        },
    );
}

/// `play <card>`.
pub fn play(out: &mut String, card: Card) {
    action(out, Action::Play(card));
}

/// `row <index>`.
pub fn row(out: &mut String, row: usize) {
    action(out, Action::TakeRow(row));
}

/// `pick <card>`.
pub fn pick(out: &mut String, card: Card) {
    action(out, Action::Pick(card));
}

/// `keep <card>`.
pub fn keep(out: &mut String, card: Card) {
    action(out, Action::Keep(card));
}

/// `special <x2|plus5> <row>` (the circle game).
pub fn place_special(out: &mut String, special: Special, row: usize) {
    action(out, Action::PlaceSpecial { special, row });
}

/// `end` (the circle game: the turn ends).
pub fn end_turn(out: &mut String) {
    action(out, Action::EndTurn);
}

/// `special <name> <arguments>` (anniversary), e.g. `special shift 11 2 0`.
pub fn special(out: &mut String, play: SpecialPlay) {
    action(out, Action::Special(play));
}

/// `pass` (anniversary).
pub fn pass(out: &mut String) {
    action(out, Action::Pass);
}

/// `cancel <card>` (anniversary).
pub fn cancel(out: &mut String, card: Card) {
    action(out, Action::Cancel(card));
}

/// `swap <name>` (anniversary).
pub fn swap(out: &mut String, special: Special) {
    action(out, Action::Swap(special));
}

/// A word after a line's keyword, after a blank: a reply's argument, an error's kind (and its
/// text, the rest of the line).
trait Argument {
    fn print_argument(&self, out: &mut String);
}

impl Argument for Card {
    fn print_argument(&self, out: &mut String) {
        out.push(' ');
        num(out, *self);
    }
}

impl Argument for usize {
    fn print_argument(&self, out: &mut String) {
        out.push(' ');
        num(out, *self);
    }
}

impl Argument for Special {
    fn print_argument(&self, out: &mut String) {
        self.name().print_argument(out);
    }
}

/// A word as it is.
impl Argument for &str {
    fn print_argument(&self, out: &mut String) {
        out.push(' ');
        out.push_str(self);
    }
}

impl Argument for SpecialPlay {
    fn print_argument(&self, out: &mut String) {
        out.push(' ');
        play_words(out, *self, ' ');
    }
}

macro_rules! reply_printer {
    (
        $(#[$hello_attr:meta])* Hello { $( $(#[doc = $doc:literal])* $key:ident: $kty:ty [$hole:literal, $kwhat:literal] $(= $left_out:literal)? ),* } $hello:literal $hello_words:literal;
        $(
            $(#[$attr:meta])*
            $Variant:ident $( ($ty:ty) )? $( { $($field:ident : $fty:ty),* } )? $keyword:literal $words:literal $what:literal = $Action:ident,
        )*
    ) => {
        /// Any line from a bot, as [`super::message::replies!`] declares it: the hello's fields
        /// as `key=value`, but those at the value they are left out at.
        pub fn from_bot(out: &mut String, message: &FromBot) {
            match message {
                FromBot::Hello { $($key),* } => {
                    out.push_str($hello);
                    $(
                        if !reply_printer!(@left_out $key $($left_out)?) {
                            Value::print_field($key, out, concat!(" ", stringify!($key), "="));
                        }
                    )*
                    out.push('\n');
                }
                reply => action(
                    out,
                    reply.action().expect("every line but a hello gives an action"),
                ),
            }
        }

        /// `play <card>`, `row <index>`, `pick <card>`, `keep <card>`, `special ...`, `end`,
        /// `pass`, `cancel <card>` or `swap <name>`, whichever gives `action`.
        pub fn action(out: &mut String, action: Action) {
            match action {
                $( super::message::reply_shape!( Action::$Action [$( ($ty) )? $( { $($field: $fty),* } )?] argument) => {
                    out.push_str($keyword);
                    reply_printer!(@arguments out [$( ($ty) )? $( { $($field: $fty),* } )?] argument);
                } )*
            }
            out.push('\n');
        }
    };
    (@left_out $key:ident) => { false };
    (@left_out $key:ident $value:literal) => { *$key == $value };
    (@arguments $out:ident [] $bind:ident) => {};
    (@arguments $out:ident [($ty:ty)] $bind:ident) => { Argument::print_argument(&$bind, $out) };
    (@arguments $out:ident [{ $($field:ident: $ty:ty),* }] $bind:ident) => {
        $( Argument::print_argument(&$field, $out); )*
    };
}
super::message::replies!(reply_printer);

// ---------------------------------------------------------------------------------------------
// Owned messages.

macro_rules! to_bot_printer {
    ($(
        $(#[$attr:meta])*
        $Variant:ident $( ($ty:ty) )? $( { $($field:ident : $fty:ty $([$hole:literal, $what:literal])?),* } )? $keyword:literal $($words:ident)?,
    )*) => {
        /// Any line to a bot, as [`super::message::to_bot_lines!`] declares it.
        pub fn to_bot(out: &mut String, message: &ToBot) {
            match message {
                $( super::message::reply_shape!(ToBot::$Variant [$( ($ty) )? $( { $($field: $fty),* } )?] body) => {
                    to_bot_printer!(
                        @body out $keyword [$( ($ty) )? $( { $($field $([$hole, $what])?),* } )?] body $($words)?
                    )
                } )*
            }
        }
    };
    (@body $out:ident $keyword:literal [($ty:ty)] $body:ident) => {
        LineBody::print_line($body, $out)
    };
    (@body $out:ident $keyword:literal [{ $($field:ident [$hole:literal, $what:literal]),* }] $body:ident) => {{
        $out.push_str($keyword);
        $( Value::print_field($field, $out, concat!(" ", stringify!($field), "=")); )*
        $out.push('\n');
    }};
    (@body $out:ident $keyword:literal [{ $($field:ident),* }] $body:ident words) => {{
        $out.push_str($keyword);
        $( Argument::print_argument($field, $out); )*
        $out.push('\n');
    }};
    (@body $out:ident $keyword:literal [] $body:ident) => {{
        $out.push_str($keyword);
        $out.push('\n');
    }};
}
super::message::to_bot_lines!(to_bot_printer);

/// A line that is one value (`game`, `event`, `ask`), printed whole by its own printer.
trait LineBody {
    fn print_line(&self, out: &mut String);
}

impl LineBody for GameInfo<'_> {
    fn print_line(&self, out: &mut String) {
        game_info(out, self);
    }
}

impl LineBody for EventLine {
    fn print_line(&self, out: &mut String) {
        event_line(out, self);
    }
}

impl LineBody for Request {
    fn print_line(&self, out: &mut String) {
        request(out, self);
    }
}

impl Argument for ErrorKind {
    fn print_argument(&self, out: &mut String) {
        self.name().print_argument(out);
    }
}

/// A text: the rest of the line (`error <kind> <text>`).
impl Argument for String {
    fn print_argument(&self, out: &mut String) {
        rest_of_line(out, self);
    }
}

macro_rules! game_printer {
    ($( $(#[doc = $doc:literal])* $key:ident $(in $outer:ident)?: $ty:ty [$hole:literal, $what:literal] $(= $default:ident)?, )*) => {
        /// `game ...` from its fields, in the order of their declaration
        /// ([`super::message::game_fields!`]).
        pub fn game_info(out: &mut String, info: &GameInfo) {
            out.push_str(GameInfo::KEYWORD);
            $(
                let value = &info $(.$outer)? .$key;
                if !game_printer!(@left_out value $($default)?) {
                    Value::print_field(value, out, concat!(" ", stringify!($key), "="));
                }
            )*
            out.push('\n');
        }
    };
    (@left_out $value:ident) => { false };
    (@left_out $value:ident default) => { is_default($value) };
}
super::message::game_fields!(game_printer);

/// `ask ...` from its fields.
pub fn request(out: &mut String, request: &Request) {
    // The printer reads no rules from the view.
    static ANY_RULES: LazyLock<Rules> = LazyLock::new(Rules::classic);
    ask_clocked(out, &request.view(&ANY_RULES), request.clock);
}

// ---------------------------------------------------------------------------------------------
// Events, from their declaration (`crate::game::events!`): `event <name>`, then each field as
// ` key=value` in the order of its declaration; an event a seat sees only in part prints what
// that seat sees. `event <name>` is one literal, pushed at once: its keyword is written here
// rather than taken from `EventLine::KEYWORD` (`to_bot_lines!`), as a `const` cannot be joined
// into a literal. Pushed apart, keyword, blank and name cost this printer 9% more instructions
// (135.6 against 128.1 million for the events and asks of 300 5-seat classic games under
// callgrind; the `ask` printer's share 60.4 against 59.4). The round-trip tests read every line
// back by the declared keyword, and `the_model_printers_start_with_the_declared_keywords`
// checks it.

/// A field's value on a line.
trait Value {
    fn print(&self, out: &mut String);

    /// ` key=value` (`key` is ` key=`).
    #[inline(always)]
    fn print_field(&self, out: &mut String, key: &str) {
        out.push_str(key);
        self.print(out);
    }
}

impl<T: Value + ?Sized> Value for &T {
    #[inline(always)]
    fn print(&self, out: &mut String) {
        (**self).print(out);
    }

    #[inline(always)]
    fn print_field(&self, out: &mut String, key: &str) {
        (**self).print_field(out, key);
    }
}

macro_rules! printed_numbers {
    ($($t:ty),*) => {$(
        impl Value for $t {
            #[inline(always)]
            fn print(&self, out: &mut String) {
                num(out, *self);
            }
        }

        impl Value for Vec<$t> {
            #[inline(always)]
            fn print(&self, out: &mut String) {
                list(out, self);
            }
        }

        impl Value for [$t] {
            #[inline(always)]
            fn print(&self, out: &mut String) {
                list(out, self);
            }
        }
    )*};
}
printed_numbers!(u8, u16, u32, u64, usize, i32, Card);

impl Value for String {
    fn print(&self, out: &mut String) {
        out.push_str(self);
    }
}

/// `yes` or `no`.
impl Value for bool {
    fn print(&self, out: &mut String) {
        out.push_str(if *self { "yes" } else { "no" });
    }
}

impl Value for TakeReason {
    fn print(&self, out: &mut String) {
        out.push_str(self.name());
    }
}

impl Value for Special {
    fn print(&self, out: &mut String) {
        out.push_str(self.name());
    }
}

impl Value for Vec<Special> {
    fn print(&self, out: &mut String) {
        names(out, self);
    }
}

impl Value for [Special] {
    fn print(&self, out: &mut String) {
        names(out, self);
    }
}

/// Rows of cards (`rows=`, `hashrows=`).
impl Value for [Vec<Card>] {
    fn print(&self, out: &mut String) {
        row_lists(out, self);
    }
}

impl Value for Vec<Vec<Card>> {
    fn print(&self, out: &mut String) {
        row_lists(out, self);
    }
}

/// The special cards in each row or hand (`rowspecials=`, `held=`).
impl Value for Vec<Vec<Special>> {
    fn print(&self, out: &mut String) {
        special_lists(out, self);
    }
}

/// Rows marked, by row (`stops=`, `sevens=`): the indices of the marked ones.
impl Value for Vec<bool> {
    fn print(&self, out: &mut String) {
        marked(out, self);
    }
}

/// Left out when absent (the anniversary's `drew=`, only for the seat's own swap).
impl<T: Value> Value for Option<T> {
    fn print(&self, out: &mut String) {
        if let Some(value) = self {
            value.print(out);
        }
    }

    fn print_field(&self, out: &mut String, key: &str) {
        if let Some(value) = self {
            value.print_field(out, key);
        }
    }
}

impl Value for Cow<'_, str> {
    fn print(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Value for GameEnd {
    fn print(&self, out: &mut String) {
        match *self {
            GameEnd::TargetScore(score) => put!(out, "score:{score}"),
            GameEnd::Rounds(rounds) => put!(out, "rounds:{rounds}"),
        }
    }
}

impl Value for SpecialPlay {
    fn print(&self, out: &mut String) {
        play_words(out, *self, ':');
    }
}

macro_rules! event_printers {
    ($( $(#[$attr:meta])* $Variant:ident $name:literal [$($field:ident: $ty:ty [$hole:literal, $what:literal])*] [$($viewer:ident $($seen:ident: $seen_ty:ty [$seen_hole:literal, $seen_what:literal] = $value:expr;)*)?] )*) => {
        /// `event ...`: `event` as `seat` may see it (a deal shows only that seat's hand).
        ///
        /// Panics if `event` is a deal without a hand for `seat`.
        // The fields a seat does not see are bound and left unused.
        #[allow(unused_variables)]
        pub fn event(out: &mut String, seat: Seat, event: &Event) {
            match event {
                $( Event::$Variant { $($field),* } => {
                    out.push_str(concat!("event ", $name));
                    event_printers!(
                        @seen out seat [$($field)*] $([$viewer $($seen = $value)*])?
                    );
                    out.push('\n');
                } )*
            }
        }

        /// An event every seat sees whole (anything but a deal and the anniversary's special
        /// card deals, swaps and reshuffles).
        #[allow(unused_variables)]
        fn public_event(out: &mut String, event: &Event) {
            match event {
                $( Event::$Variant { $($field),* } => {
                    event_printers!(@public out $name [$($field)*] $([$viewer])?);
                } )*
            }
        }

        /// `event ...` from its fields.
        pub fn event_line(out: &mut String, line: &EventLine) {
            match line {
                EventLine::Public(event) => public_event(out, event),
                $($( EventLine::$Variant { $($seen),* } => {
                    out.push_str(concat!("event ", $name));
                    $( Value::print_field($seen, out, concat!(" ", stringify!($seen), "=")); )*
                    out.push('\n');
                } )?)*
            }
        }
    };
    (@seen $out:ident $seat:ident [$($field:ident)*]) => {
        $( Value::print_field($field, $out, concat!(" ", stringify!($field), "=")); )*
    };
    (@seen $out:ident $seat:ident [$($field:ident)*] [$viewer:ident $($seen:ident = $value:expr)*]) => {
        let $viewer = $seat;
        $( Value::print_field(&$value, $out, concat!(" ", stringify!($seen), "=")); )*
    };
    (@public $out:ident $name:literal [$($field:ident)*]) => {
        $out.push_str(concat!("event ", $name));
        $( Value::print_field($field, $out, concat!(" ", stringify!($field), "=")); )*
        $out.push('\n');
    };
    (@public $out:ident $name:literal [$($field:ident)*] [$viewer:ident]) => {
        unreachable!("printed for one seat")
    };
}
crate::game::events!(event_printers);

// ---------------------------------------------------------------------------------------------
// The lines, from borrowed fields.

/// A special card played: its name, then its arguments, each after `sep` (a blank in a bot's
/// reply, `:` in an event's `play=`).
fn play_words(out: &mut String, play: SpecialPlay, sep: char) {
    out.push_str(play.card().name());
    let mut arg = |n: usize| {
        out.push(sep);
        num(out, n);
    };
    match play {
        SpecialPlay::FifthRow => {}
        SpecialPlay::SevenNimmt { row } | SpecialPlay::Stop { row } => arg(usize::from(row)),
        SpecialPlay::Insert { row, at } => {
            arg(usize::from(row));
            arg(usize::from(at));
        }
        SpecialPlay::Replace { card } => arg(usize::from(card.0)),
        SpecialPlay::Shift { card, row, at } => {
            arg(usize::from(card.0));
            arg(usize::from(row));
            arg(usize::from(at));
        }
    }
}

/// Special card names, comma-separated; nothing for none.
fn names(out: &mut String, specials: &[Special]) {
    for (i, special) in specials.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(special.name());
    }
}

/// Rows marked in `marks` (by row), as a list of row indices.
fn marked(out: &mut String, marks: &[bool]) {
    let mut first = true;
    for (row, &mark) in marks.iter().enumerate() {
        if mark {
            if !first {
                out.push(',');
            }
            num(out, row);
            first = false;
        }
    }
}

/// An ask's own field: whether it goes after the table, and its value (the decision's own, or
/// the view's).
macro_rules! own_field {
    (@last) => {
        false
    };
    (@last $source:ident) => {
        false
    };
    (@last $source:ident last) => {
        true
    };
    (@value $view:ident $field:ident) => {
        $field
    };
    (@value $view:ident $field:ident $source:ident) => {
        $view.$source
    };
}
macro_rules! own_fields_printer {
    ($( $(#[$attr:meta])* $Variant:ident $({ $($field:ident: $ty:ty [$hole:literal, $what:literal] [$($source:ident $($last:ident)?)?])* })? $word:literal $wanted:literal = $Decision:ident [$($decided:ident)*] )*) => {
        /// The ask's own fields on the line asking for `decision` ([`super::message::asks!`]):
        /// those before the table, or (`last`) those after it.
        #[inline(always)]
        fn own_fields(out: &mut String, decision: Decision, view: &View, last: bool) {
            match decision {
                $( Decision::$Decision { $($decided,)* .. } => {
                    $($(
                        if own_field!(@last $($source $($last)?)?) == last {
                            Value::print_field(
                                &own_field!(@value view $field $($source)?),
                                out,
                                concat!(" ", stringify!($field), "="),
                            );
                        }
                    )*)?
                } )*
            }
        }
    };
}
super::message::asks!(own_fields_printer);

macro_rules! ask_printer {
    ($( [$($entry:tt)*] )*) => {
        /// `ask ...`: the decision `view` owes, its keys in the order of their declaration
        /// ([`super::message::ask_keys!`]).
        ///
        /// Panics if `view.decision` is `None` (there is nothing to ask).
        pub fn ask(out: &mut String, view: &View) {
            ask_clocked(out, view, None);
        }

        /// `ask ...` as [`ask`] prints it, with a clocked seat's clock (`time_left_ms=`,
        /// `increment_ms=`) when it has one.
        pub fn ask_clocked(out: &mut String, view: &View, clock: Option<ClockReading>) {
            let decision = view
                .decision
                .expect("print::ask: the view owes no decision");
            out.push_str(super::message::ask_prefix(decision));
            $( ask_printer!(@entry out decision view clock $($entry)*); )*
            out.push('\n');
        }
    };
    (@entry $out:ident $decision:ident $view:ident $clock:ident own first) => {
        own_fields($out, $decision, $view, false)
    };
    (@entry $out:ident $decision:ident $view:ident $clock:ident own last) => {
        own_fields($out, $decision, $view, true)
    };
    (@entry $out:ident $decision:ident $view:ident $clock:ident
        $group:ident . $field:ident $key:literal : $ty:ty [$hole:literal, $what:literal] $(= $default:ident)? if $When:ident) => {
        if When::$When.printed($decision, $view, $clock) {
            ask_printer!(@value $out $view $clock $group $field concat!(" ", $key, "="))
        }
    };
    (@value $out:ident $view:ident $clock:ident view $field:ident $key:expr) => {
        Value::print_field(&$view.$field, $out, $key)
    };
    (@value $out:ident $view:ident $clock:ident clock $field:ident $key:expr) => {
        if let Some(clock) = &$clock {
            Value::print_field(&clock.$field, $out, $key)
        }
    };
    (@value $out:ident $view:ident $clock:ident $group:ident $field:ident $key:expr) => {
        if let Some(table) = $view.$group {
            Value::print_field(&table.$field, $out, $key)
        }
    };
}

super::message::ask_keys!(ask_printer);

/// Rows of cards, each comma-separated, separated by `/`.
fn row_lists(out: &mut String, rows: &[Vec<Card>]) {
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        list(out, row);
    }
}

/// Lists of special cards separated by `/` (one per row or seat; an empty one is nothing).
fn special_lists(out: &mut String, lists: &[Vec<Special>]) {
    for (i, specials) in lists.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        names(out, specials);
    }
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// Writes `n` in decimal.
fn num(out: &mut String, n: impl Number) {
    n.write(out);
}

/// Writes to a `String`, turning line breaks and other control characters into spaces.
struct OneLine<'a>(&'a mut String);

impl Write for OneLine<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if s.contains(char::is_control) {
            self.0
                .extend(s.chars().map(|c| if c.is_control() { ' ' } else { c }));
        } else {
            self.0.push_str(s);
        }
        Ok(())
    }
}

/// `<why> (<n> tries left)`.
struct Tries<T>(T, usize);

impl<T: Display> Display for Tries<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            0 => write!(f, "{} (no tries left)", self.0),
            1 => write!(f, "{} (1 try left)", self.0),
            n => write!(f, "{} ({n} tries left)", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Illegal, Points};
    use crate::rules::Rules;

    fn line(f: impl FnOnce(&mut String)) -> String {
        let mut out = String::new();
        f(&mut out);
        out
    }

    fn cards(numbers: &[u16]) -> Vec<Card> {
        numbers.iter().map(|&n| Card(n)).collect()
    }

    #[test]
    fn numbers_in_decimal_on_both_sides_of_the_small_path() {
        for n in [0u64, 9, 10, 99, 100, 999, 1000, 65_536, u64::MAX] {
            assert_eq!(line(|out| num(out, n)), n.to_string());
        }
        for n in [0u16, 9, 10, 99, 100, 999, 1000, u16::MAX] {
            assert_eq!(line(|out| num(out, n)), n.to_string());
        }
        for n in [i32::MIN, -1000, -1, 0, 1, 999, 1000, i32::MAX] {
            assert_eq!(line(|out| num(out, n)), n.to_string());
        }
        assert_eq!(line(|out| list(out, &[0u8, 5, 10, 255])), "0,5,10,255");
        // Every number of the table, and past it, alone and after a separator.
        let all: Vec<i32> = (-20..1200).collect();
        let joined: Vec<String> = all.iter().map(i32::to_string).collect();
        assert_eq!(line(|out| list(out, &all)), joined.join(","));
    }

    #[test]
    fn events_as_in_the_protocol_description() {
        // Each event, the seat it is printed for, and its line.
        let lines = [
            (
                Event::Deal {
                    round: 1,
                    hands: vec![cards(&[1, 2, 4]), cards(&[3, 17, 22])],
                    rows: cards(&[12, 40, 77, 91]),
                },
                1,
                "event deal round=1 hand=3,17,22 rows=12,40,77,91\n",
            ),
            (
                Event::Reveal {
                    round: 1,
                    turn: 1,
                    cards: cards(&[17, 5, 40, 88]),
                },
                0,
                "event reveal round=1 turn=1 cards=17,5,40,88\n",
            ),
            (
                Event::Take {
                    seat: 1,
                    row: 2,
                    cards: cards(&[77, 78]),
                    bullheads: 2,
                    reason: TakeReason::Low,
                },
                0,
                "event take seat=1 row=2 cards=77,78 bullheads=2 reason=low\n",
            ),
            (
                Event::Place {
                    seat: 1,
                    card: Card(5),
                    row: 2,
                },
                3,
                "event place seat=1 card=5 row=2\n",
            ),
            (
                Event::RoundEnd {
                    round: 1,
                    penalties: vec![5, 0, 3, 2],
                    totals: vec![5, 0, 3, 2],
                },
                0,
                "event round_end round=1 penalties=5,0,3,2 totals=5,0,3,2\n",
            ),
            (
                Event::GameEnd {
                    totals: vec![5, 0, 3, 2],
                    winners: vec![1],
                },
                0,
                "event game_end totals=5,0,3,2 winners=1\n",
            ),
        ];
        for (told, seat, text) in lines {
            assert_eq!(line(|o| event(o, seat, &told)), text);
        }
    }

    /// The view of `seat` (of `seats`) asked to play at turn 3 of round 1.
    fn asked_to_play<'a>(
        rules: &'a Rules,
        (seat, seats): (Seat, usize),
        hand: &'a [Card],
        rows: &'a [Vec<Card>],
        (scores, taken): (&'a [Points], &'a [Points]),
    ) -> View<'a> {
        View {
            rules,
            seat,
            seats,
            round: 1,
            turn: 3,
            decision: Some(Decision::PlayCard),
            hand,
            rows,
            scores,
            taken,
            revealed: &[],
            number: None,
            circle: None,
            specials: None,
            pool: &[],
            special_hand: &[],
        }
    }

    #[test]
    fn asks_as_in_the_protocol_description() {
        let rules = Rules::classic();
        let rows = vec![cards(&[12, 13]), cards(&[40]), cards(&[77]), cards(&[91])];
        let hand = cards(&[3, 17, 22]);
        let revealed = cards(&[17, 5, 40, 88]);
        let mut view = asked_to_play(&rules, (2, 4), &hand, &rows, (&[0, 0, 0, 0], &[0, 2, 0, 0]));
        assert_eq!(
            line(|o| ask(o, &view)),
            "ask play seat=2 round=1 turn=3 hand=3,17,22 rows=12,13/40/77/91 scores=0,0,0,0 \
             taken=0,2,0,0\n"
        );
        view.decision = Some(Decision::ChooseRow { card: Card(5) });
        view.revealed = &revealed;
        assert_eq!(
            line(|o| ask(o, &view)),
            "ask row seat=2 round=1 turn=3 card=5 hand=3,17,22 rows=12,13/40/77/91 \
             scores=0,0,0,0 taken=0,2,0,0 revealed=17,5,40,88\n"
        );
        // A draft (Pro variant): no turn and no rows yet, the pool instead.
        let pool = cards(&[1, 2, 4, 7]);
        view.decision = Some(Decision::Pick);
        view.revealed = &[];
        view.rows = &[];
        view.turn = 0;
        view.pool = &pool;
        view.hand = &[];
        assert_eq!(
            line(|o| ask(o, &view)),
            "ask pick seat=2 round=1 pool=1,2,4,7 hand= scores=0,0,0,0 taken=0,2,0,0\n"
        );
        assert_eq!(
            line(|o| public_event(
                o,
                &Event::Pick {
                    seat: 1,
                    card: Card(7)
                }
            )),
            "event pick seat=1 card=7\n"
        );
        assert_eq!(line(|o| action(o, Action::Pick(Card(7)))), "pick 7\n");
    }

    #[test]
    fn take_a_number_asks() {
        let rules = crate::variants::take_a_number::rules();
        let rows = vec![cards(&[12, 13]), cards(&[40]), cards(&[77])];
        let hand = cards(&[3, 17]);
        let mut number = crate::game::NumberTable {
            capacities: vec![2, 3, 4],
            hash_rows: vec![cards(&[5, 30]), cards(&[61])],
            hash_piles: vec![0, 3],
            hand_sizes: vec![2, 6],
            keep_from: cards(&[12, 13]),
        };
        let mut view = asked_to_play(&rules, (0, 2), &hand, &rows, (&[0, 0], &[2, 9]));
        view.number = Some(&number);
        assert_eq!(
            line(|o| ask(o, &view)),
            "ask play seat=0 round=1 turn=3 hand=3,17 rows=12,13/40/77 scores=0,0 taken=2,9 \
             hashrows=5,30/61 hashpiles=0,3 hands=2,6\n"
        );
        let revealed = cards(&[13, 70]);
        view.decision = Some(Decision::KeepCard);
        view.revealed = &revealed;
        assert_eq!(
            line(|o| ask(o, &view)),
            "ask keep seat=0 round=1 turn=3 cards=12,13 hand=3,17 rows=12,13/40/77 scores=0,0 \
             taken=2,9 revealed=13,70 hashrows=5,30/61 hashpiles=0,3 hands=2,6\n"
        );
        number.keep_from.clear();
        assert_eq!(line(|o| action(o, Action::Keep(Card(12)))), "keep 12\n");
        let keep = Event::Keep {
            seat: 1,
            card: Card(40),
        };
        assert_eq!(line(|o| event(o, 0, &keep)), "event keep seat=1 card=40\n");
        let pile = Event::Pile {
            seat: 1,
            cards: cards(&[12, 31]),
        };
        assert_eq!(
            line(|o| event(o, 0, &pile)),
            "event pile seat=1 cards=12,31\n"
        );
    }

    /// Game 3 of a classic match, told to seat 2 of 4.
    fn third_game(rules: &Rules) -> GameStart<'_> {
        GameStart {
            number: 3,
            variant: crate::variants::Variant::default(),
            rules,
            seats: 4,
            seat: 2,
            time_ms: 2000,
            seed: 99,
        }
    }

    #[test]
    fn game_hello_bye() {
        let rules = Rules::classic();
        let start = third_game(&rules);
        let text = line(|o| game(o, &start));
        assert!(
            text.starts_with(
                "game number=3 variant=classic seats=4 seat=2 rows=4 row_capacity=5 hand_size=10 \
                 end=score:66 lowest=1 bullheads=1,1,1,1,2,1,1,1,1,3,5,1,"
            ),
            "{text}"
        );
        assert!(
            text.ends_with(",2,1,1,1,5,3,1,1,1,1 time_ms=2000 seed=99\n"),
            "{text}"
        );
        assert_eq!(line(hello), "hello version=1\n");
        assert_eq!(line(bye), "bye\n");
        assert_eq!(
            line(|o| bot_hello(o, "dodger")),
            "hello version=1 name=dodger\n"
        );
        assert_eq!(line(|o| action(o, Action::Play(Card(7)))), "play 7\n");
        assert_eq!(line(|o| action(o, Action::TakeRow(3))), "row 3\n");
    }

    #[test]
    fn the_model_printers_start_with_the_declared_keywords() {
        let rules = Rules::classic();
        let start = third_game(&rules);
        assert!(line(|o| game(o, &start)).starts_with(&format!("{} ", GameInfo::KEYWORD)));
        let hand = cards(&[3]);
        let rows = vec![cards(&[12])];
        let mut view = asked_to_play(&rules, (0, 2), &hand, &rows, (&[0, 0], &[0, 0]));
        let revealed = cards(&[3, 5]);
        view.revealed = &revealed;
        for decision in [
            Decision::PlayCard,
            Decision::ChooseRow { card: Card(3) },
            Decision::Pick,
            Decision::KeepCard,
            Decision::Place {
                placed: 0,
                remaining: 1,
            },
            Decision::Special { card: Card(3) },
            Decision::Cancel,
            Decision::Swap,
        ] {
            view.decision = Some(decision);
            let text = line(|o| ask(o, &view));
            assert!(
                text.starts_with(&format!("{} ", Request::KEYWORD)),
                "{text}"
            );
        }
        let place = Event::Place {
            seat: 1,
            card: Card(5),
            row: 0,
        };
        let text = line(|o| event(o, 0, &place));
        assert!(
            text.starts_with(&format!("{} ", EventLine::KEYWORD)),
            "{text}"
        );
    }

    #[test]
    fn errors_are_one_tidy_line() {
        let rule = RuleError::Illegal(Illegal::NotInHand {
            seat: 2,
            card: Card(99),
        });
        assert_eq!(
            line(|o| illegal(o, &rule, 2)),
            "error illegal not_in_hand: card 99 is not in seat 2's hand (2 tries left)\n"
        );
        assert_eq!(
            line(|o| refusal(o, ErrorKind::Syntax, "expected x", 1)),
            "error syntax expected x (1 try left)\n"
        );
        assert_eq!(
            line(|o| error(o, ErrorKind::Encoding, "  two\nlines\r\n ")),
            "error encoding two lines\n"
        );
        assert_eq!(
            line(|o| error(o, ErrorKind::TooLong, "")),
            "error too_long\n"
        );
        assert_eq!(
            line(|o| error(o, ErrorKind::TooLong, " \n")),
            "error too_long\n"
        );
    }

    #[test]
    fn lines_append_to_the_buffer() {
        let mut out = String::with_capacity(256);
        hello(&mut out);
        play(&mut out, Card(5));
        let capacity = out.capacity();
        assert_eq!(out, "hello version=1\nplay 5\n");
        out.clear();
        row(&mut out, 1);
        assert_eq!((out.as_str(), out.capacity()), ("row 1\n", capacity));
    }
}
