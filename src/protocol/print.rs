//! Printers. Each appends one complete line, its `\n` included, to the caller's buffer and
//! allocates nothing else: the referee prints straight from the model ([`View`], [`Event`],
//! [`GameStart`]) on its pipe loop, reusing one `String` (clear it between lines, or let lines
//! pile up and write them at once).
//!
//! The printers of owned values ([`to_bot`], [`from_bot`]) write exactly the same text, through
//! the same code.

use super::message::{ErrorKind, EventLine, FromBot, GameInfo, Request, ToBot, VERSION};
use crate::cards::{Card, Special};
use crate::decimal::{Number, list};
use crate::game::{
    Action, CircleTable, Decision, Event, Points, RuleError, Seat, SpecialPlay, TakeReason, View,
};
use crate::rules::{GameEnd, Rules};
use crate::seat::GameStart;
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
    hello_line(out, VERSION);
}

/// `game ...`: the game `start` begins, told to `start.seat`.
pub fn game(out: &mut String, start: &GameStart) {
    game_info(out, &GameInfo::from_start(start));
}

/// `ask play ...`, `ask row ...`, `ask pick ...` or `ask keep ...`: the decision `view` owes.
///
/// Panics if `view.decision` is `None` (there is nothing to ask).
pub fn ask(out: &mut String, view: &View) {
    let decision = view
        .decision
        .expect("print::ask: the view owes no decision");
    match (decision, view.circle) {
        (Decision::Place { .. }, Some(circle)) => place_line(out, decision, view, circle),
        _ => ask_line(out, decision, view),
    }
}

/// `error <kind> <text>`. Line breaks and other control characters in `text` become spaces and
/// surrounding blanks are dropped, so the line reads back as the same text.
pub fn error(out: &mut String, kind: ErrorKind, text: impl Display) {
    out.push_str("error ");
    out.push_str(kind.name());
    out.push(' ');
    let start = out.len();
    put!(OneLine(out), "{text}");
    let lead = out[start..].len() - out[start..].trim_start_matches(' ').len();
    out.drain(start..start + lead);
    // Drops the trailing blanks, and the separator too if the text was empty.
    out.truncate(out.trim_end_matches(' ').len());
    out.push('\n');
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
    out.push_str("bye\n");
}

// ---------------------------------------------------------------------------------------------
// Bot to referee.

/// `hello version=1 name=<name>`: a bot's answer to the referee's hello. `name` should be 1 to
/// 40 characters of `A-Za-z0-9_.:+-` (not checked here).
pub fn bot_hello(out: &mut String, name: &str) {
    bot_hello_line(out, VERSION, name, true);
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

/// An argument of a reply, after a blank.
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
        out.push(' ');
        out.push_str(self.name());
    }
}

impl Argument for SpecialPlay {
    fn print_argument(&self, out: &mut String) {
        out.push(' ');
        play_words(out, *self, ' ');
    }
}

macro_rules! reply_printer {
    ($(
        $(#[$attr:meta])*
        $Variant:ident $( ($ty:ty) )? $( { $($field:ident : $fty:ty),* } )? $keyword:literal $words:literal $what:literal = $Action:ident,
    )*) => {
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
    (@arguments $out:ident [] $bind:ident) => {};
    (@arguments $out:ident [($ty:ty)] $bind:ident) => { Argument::print_argument(&$bind, $out) };
    (@arguments $out:ident [{ $($field:ident: $ty:ty),* }] $bind:ident) => {
        $( Argument::print_argument(&$field, $out); )*
    };
}
super::message::replies!(reply_printer);

// ---------------------------------------------------------------------------------------------
// Owned messages.

/// Any line to a bot.
pub fn to_bot(out: &mut String, message: &ToBot) {
    match message {
        ToBot::Hello { version } => hello_line(out, *version),
        ToBot::Game(info) => game_info(out, info),
        ToBot::Event(line) => event_line(out, line),
        ToBot::Ask(request) => self::request(out, request),
        ToBot::Error { kind, text } => error(out, *kind, text),
        ToBot::Bye => bye(out),
    }
}

/// Any line from a bot.
pub fn from_bot(out: &mut String, message: &FromBot) {
    match (message, message.action()) {
        (_, Some(answer)) => action(out, answer),
        (
            FromBot::Hello {
                version,
                name,
                events,
            },
            None,
        ) => bot_hello_line(out, *version, name, *events),
        (_, None) => unreachable!("every reply but a hello gives an action"),
    }
}

macro_rules! game_printer {
    ($( $key:ident $(in $outer:ident)?: $ty:ty [$hole:literal, $what:literal] $(= $default:ident)?, )*) => {
        /// `game ...` from its fields, in the order of their declaration
        /// ([`super::message::game_fields!`]).
        pub fn game_info(out: &mut String, info: &GameInfo) {
            out.push_str("game");
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
    ask(out, &request.view(&ANY_RULES));
}

// ---------------------------------------------------------------------------------------------
// Events, from their declaration (`crate::game::events!`): `event <name>`, then each field as
// ` key=value` in the order of its declaration; an event a seat sees only in part prints what
// that seat sees.

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
    )*};
}
printed_numbers!(u8, u16, u32, u64, usize, i32, Card);

impl Value for TakeReason {
    fn print(&self, out: &mut String) {
        out.push_str(reason_name(*self));
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

fn hello_line(out: &mut String, version: u32) {
    put!(out, "hello version={version}\n");
}

fn bot_hello_line(out: &mut String, version: u32, name: &str, events: bool) {
    let declined = if events { "" } else { " events=no" };
    put!(out, "hello version={version} name={name}{declined}\n");
}

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

/// `ask ...` for `decision`, the one `view` owes, but `ask place` of the circle game.
#[inline(always)]
fn ask_line(out: &mut String, decision: Decision, view: &View) {
    let View {
        seat,
        round,
        turn,
        hand,
        rows,
        scores,
        taken,
        revealed,
        pool,
        ..
    } = *view;
    let (keep_from, hash_rows, hash_piles, hand_sizes) = (
        view.keep_from(),
        view.hash_rows(),
        view.hash_piles(),
        view.hand_sizes(),
    );
    let specials = view.specials.map(|t| (view.special_hand, t));
    // A circle request prints with `place_line`; without its table it has only these.
    ask_start(out, decision, seat, round);
    if let Decision::Pick = decision {
        // A draft has no turn and no rows yet: the line says what there is instead.
        out.push_str(" pool=");
        list(out, pool);
        out.push_str(" hand=");
        list(out, hand);
        out.push_str(" scores=");
        list(out, scores);
        out.push_str(" taken=");
        list(out, taken);
        out.push('\n');
        return;
    }
    out.push_str(" turn=");
    num(out, turn);
    if let Decision::ChooseRow { card } | Decision::Special { card } = decision {
        out.push_str(" card=");
        num(out, card);
    }
    if let Decision::KeepCard = decision {
        out.push_str(" cards=");
        list(out, keep_from);
    }
    if let (Decision::Cancel, Some((_, table))) = (decision, specials) {
        out.push_str(" cards=");
        list(out, &table.taking);
    }
    table_fields(out, hand, rows, (scores, taken));
    if let Decision::ChooseRow { .. }
    | Decision::KeepCard
    | Decision::Special { .. }
    | Decision::Cancel
    | Decision::Swap = decision
    {
        out.push_str(" revealed=");
        list(out, revealed);
    }
    if !hash_rows.is_empty() {
        out.push_str(" hashrows=");
        row_lists(out, hash_rows);
        out.push_str(" hashpiles=");
        list(out, hash_piles);
        out.push_str(" hands=");
        list(out, hand_sizes);
    }
    if let Some((own, table)) = specials {
        out.push_str(" specials=");
        names(out, own);
        out.push_str(" specialhands=");
        list(out, &table.hand_counts);
        out.push_str(" stops=");
        marked(out, &table.stops);
        out.push_str(" sevens=");
        marked(out, &table.sevens);
        out.push_str(" deck=");
        num(out, table.deck);
        out.push_str(" discard=");
        names(out, &table.discard);
    }
    out.push('\n');
}

/// `ask place ...` (the circle game): the usual fields, then how many cards are placed and may
/// still be placed this turn, the special cards in each row and in each seat's hand, and every
/// seat's number of cards.
#[inline(always)]
fn place_line(out: &mut String, decision: Decision, view: &View, circle: &CircleTable) {
    let Decision::Place { placed, remaining } = decision else {
        unreachable!("place_line prints ask place only")
    };
    ask_start(out, decision, view.seat, view.round);
    out.push_str(" turn=");
    num(out, view.turn);
    out.push_str(" placed=");
    num(out, placed);
    out.push_str(" remaining=");
    num(out, remaining);
    table_fields(out, view.hand, view.rows, (view.scores, view.taken));
    out.push_str(" rowspecials=");
    special_lists(out, &circle.row_specials);
    out.push_str(" held=");
    special_lists(out, &circle.held);
    out.push_str(" hands=");
    list(out, &circle.hand_sizes);
    out.push('\n');
}

/// `ask <word> seat=<seat> round=<round>`: how every ask line starts.
#[inline(always)]
fn ask_start(out: &mut String, decision: Decision, seat: Seat, round: u32) {
    out.push_str(super::message::ask_prefix(decision));
    num(out, seat);
    out.push_str(" round=");
    num(out, round);
}

/// ` hand=... rows=... scores=... taken=...`: the table as the seat sees it, in every ask line
/// but a draft's.
#[inline(always)]
fn table_fields(
    out: &mut String,
    hand: &[Card],
    rows: &[Vec<Card>],
    (scores, taken): (&[Points], &[Points]),
) {
    out.push_str(" hand=");
    list(out, hand);
    out.push_str(" rows=");
    row_lists(out, rows);
    out.push_str(" scores=");
    list(out, scores);
    out.push_str(" taken=");
    list(out, taken);
}

/// Rows of cards, each comma-separated, separated by `/`.
fn row_lists(out: &mut String, rows: &[Vec<Card>]) {
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        list(out, row);
    }
}

/// Special cards by name, comma-separated; nothing for none.
fn special_list(out: &mut String, specials: &[Special]) {
    for (i, special) in specials.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(special.name());
    }
}

/// Lists of special cards separated by `/` (one per row or seat; an empty one is nothing).
fn special_lists(out: &mut String, lists: &[Vec<Special>]) {
    for (i, specials) in lists.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        special_list(out, specials);
    }
}

/// The word for a take's reason.
pub(super) fn reason_name(reason: TakeReason) -> &'static str {
    match reason {
        TakeReason::Full => "full",
        TakeReason::Low => "low",
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
    use crate::game::Illegal;
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

    #[test]
    fn game_hello_bye() {
        let rules = Rules::classic();
        let start = GameStart {
            number: 3,
            variant: crate::variants::Variant::default(),
            rules: &rules,
            seats: 4,
            seat: 2,
            time_ms: 2000,
            seed: 99,
        };
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
