//! Parsers for both directions, built with nom 8. The referee parses [`FromBot`]; [`ToBot`] is
//! parsed by the round-trip tests and by bots written in Rust.
//!
//! Input is read leniently: a trailing `\r` or `\n`, blanks (spaces and tabs) before, between
//! and after the words, and `key=value` fields in any order, unknown ones ignored. A word ends
//! only at a blank or the end of the line, so `playx 5` and `play 5x` are both errors. Errors
//! say where (1-based byte column) and what was expected there.

use super::message::{ASKS, Ask, ErrorKind, EventLine, FromBot, GameInfo, Request, ToBot, When};
use crate::cards::{Card, Special};
use crate::game::{Event, SpecialPlay, TakeReason};
use crate::rules::GameEnd;
use nom::bytes::complete::{tag, take_till, take_till1, take_while};
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{cut, opt, recognize, value};
use nom::multi::{many0, separated_list1};
use nom::sequence::{preceded, separated_pair};
use nom::{IResult, Offset, Parser};
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

/// A line that is not a message: where, what would have been accepted there, and what was
/// there instead. Its [`Display`](fmt::Display) is one line, ready for an `error syntax` reply:
/// `expected a card number after "play" at column 6, found "5x"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based byte offset into the line.
    pub column: usize,
    /// What would have been accepted, e.g. `a card number after "play"`.
    pub expected: String,
    /// What was there: a quoted word (up to the next blank, shortened if long), `a space`,
    /// `a tab` or `the end of the line`.
    pub found: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected {} at column {}, found {}",
            self.expected, self.column, self.found
        )
    }
}

impl std::error::Error for ParseError {}

/// Parses a line from a bot.
pub fn from_bot(line: &str) -> Result<FromBot, ParseError> {
    match plain_answer(line) {
        Some(answer) => Ok(answer),
        None => run(line, from_bot_message),
    }
}

/// The usual answer to a request, `play 42` or `row 1` (or `pick`, `keep`, `cancel`): a keyword,
/// one space and up to four digits, read without the general parser, as it comes at every
/// decision on the referee's pipe loop. Any other line (a hello, other blanks, a longer or bad
/// number) is left to the general parser, which reads these lines the same way.
fn plain_answer(line: &str) -> Option<FromBot> {
    let line = line.trim_end_matches([' ', '\t', '\r', '\n']);
    let (keyword, digits) = line.split_once(' ')?;
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = digits
        .bytes()
        .fold(0u16, |n, digit| n * 10 + u16::from(digit - b'0'));
    plain_reply(keyword, n)
}

/// Parses a line from the referee.
pub fn to_bot(line: &str) -> Result<ToBot, ParseError> {
    run(line, to_bot_message)
}

impl FromStr for FromBot {
    type Err = ParseError;
    fn from_str(line: &str) -> Result<FromBot, ParseError> {
        from_bot(line)
    }
}

impl FromStr for ToBot {
    type Err = ParseError;
    fn from_str(line: &str) -> Result<ToBot, ParseError> {
        to_bot(line)
    }
}

/// Longest name a bot may give (and longest variant name read).
pub const MAX_NAME: usize = 40;

/// Whether `c` may appear in a bot's name: `A-Za-z0-9_.:+-`.
pub fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '+' | '-')
}

// ---------------------------------------------------------------------------------------------
// The error type the parsers share.

/// Where a parser failed and what it wanted. `at` is always a slice of the line being parsed.
#[derive(Debug)]
struct Fail<'a> {
    at: &'a str,
    expected: Cow<'static, str>,
}

impl<'a> nom::error::ParseError<&'a str> for Fail<'a> {
    fn from_error_kind(at: &'a str, kind: nom::error::ErrorKind) -> Fail<'a> {
        use nom::error::ErrorKind as K;
        let expected = match kind {
            K::Digit => "a number",
            K::Space => "a space",
            K::Eof => "the end of the line",
            _ => "something else",
        };
        Fail {
            at,
            expected: expected.into(),
        }
    }

    fn append(_: &'a str, _: nom::error::ErrorKind, other: Fail<'a>) -> Fail<'a> {
        other
    }

    fn from_char(at: &'a str, c: char) -> Fail<'a> {
        Fail {
            at,
            expected: format!("\"{c}\"").into(),
        }
    }
}

type Res<'a, T> = IResult<&'a str, T, Fail<'a>>;

fn fail<'a, T>(at: &'a str, expected: impl Into<Cow<'static, str>>) -> Res<'a, T> {
    Err(nom::Err::Error(Fail {
        at,
        expected: expected.into(),
    }))
}

/// Runs `p`; on any failure, reports `what` at the place `p` started.
fn expect<'a, T>(
    what: &'static str,
    mut p: impl Parser<&'a str, Output = T, Error = Fail<'a>>,
) -> impl Parser<&'a str, Output = T, Error = Fail<'a>> {
    move |i: &'a str| p.parse(i).map_err(|e| e.map(|_| Fail::new(i, what)))
}

/// Runs `p` on a whole word or value; if it fails or leaves anything, reports `what` at the
/// start.
fn whole<'a, T>(
    what: &'static str,
    mut p: impl Parser<&'a str, Output = T, Error = Fail<'a>>,
) -> impl Parser<&'a str, Output = T, Error = Fail<'a>> {
    move |i: &'a str| match p.parse(i) {
        Ok(("", v)) => Ok(("", v)),
        _ => fail(i, what),
    }
}

impl<'a> Fail<'a> {
    fn new(at: &'a str, expected: &'static str) -> Fail<'a> {
        Fail {
            at,
            expected: expected.into(),
        }
    }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Trims the line, runs `p`, and turns a failure into a [`ParseError`] on the whole line.
fn run<'a, T>(line: &'a str, p: impl FnOnce(&'a str) -> Res<'a, T>) -> Result<T, ParseError> {
    let body = line.trim_end_matches([' ', '\t', '\r', '\n']);
    let start = body.trim_start_matches(is_blank);
    let failure = match p(start) {
        Ok(("", v)) => return Ok(v),
        Ok((rest, _)) => Fail::new(rest.trim_start_matches(is_blank), "the end of the line"),
        Err(nom::Err::Error(f) | nom::Err::Failure(f)) => f,
        Err(nom::Err::Incomplete(_)) => unreachable!("only complete parsers are used"),
    };
    let offset = line.offset(failure.at);
    let there = &line[offset..];
    let word: String = there.chars().take_while(|&c| !is_blank(c)).collect();
    let found = if there.trim_end_matches([' ', '\t', '\r', '\n']).is_empty() {
        "the end of the line".to_string()
    } else if there.starts_with(' ') {
        "a space".to_string()
    } else if there.starts_with('\t') {
        "a tab".to_string()
    } else {
        const LONGEST: usize = 24;
        let word = word.trim_end_matches(['\r', '\n']);
        match word.char_indices().nth(LONGEST) {
            Some((cut, _)) => format!("{:?}...", &word[..cut]),
            None => format!("{word:?}"),
        }
    };
    Err(ParseError {
        column: offset + 1,
        expected: failure.expected.into_owned(),
        found,
    })
}

// ---------------------------------------------------------------------------------------------
// Words and values.

/// A word: everything up to the next blank.
fn word(i: &str) -> Res<'_, &str> {
    take_till1(is_blank).parse(i)
}

/// The single argument of `play` or `row`: a blank, then a word that `p` reads whole.
fn argument<'a, T>(
    i: &'a str,
    what: &'static str,
    p: impl Parser<&'a str, Output = T, Error = Fail<'a>>,
) -> Res<'a, T> {
    let Ok((rest, token)) = preceded(space1::<_, Fail>, word).parse(i) else {
        return fail(i, what);
    };
    let (_, v) = whole(what, p).parse(token)?;
    Ok((rest, v))
}

/// Nothing more on the line (the line is trimmed already), else `what` is reported at the
/// next word.
fn end<'a>(i: &'a str, what: &'static str) -> Res<'a, ()> {
    let (rest, _) = space0(i)?;
    if rest.is_empty() {
        Ok((rest, ()))
    } else {
        fail(rest, what)
    }
}

/// Decimal digits, with a `-` for a signed `T`, read as a `T` (leading zeros allowed); `what`
/// on failure.
fn number<'a, T: FromStr>(
    what: &'static str,
) -> impl Parser<&'a str, Output = T, Error = Fail<'a>> {
    move |i: &'a str| {
        let (rest, digits) = expect(what, recognize((opt(tag("-")), digit1))).parse(i)?;
        match digits.parse() {
            Ok(n) => Ok((rest, n)),
            Err(_) => fail(i, what),
        }
    }
}

fn card<'a>() -> impl Parser<&'a str, Output = Card, Error = Fail<'a>> {
    number("a card number").map(Card)
}

/// A whole value that is a card.
fn one_card<'a>() -> impl Parser<&'a str, Output = Card, Error = Fail<'a>> {
    whole("a card number", card())
}

/// A comma-separated list of `item`, maybe empty, making up a whole value.
fn list<'a, T>(
    item: impl Parser<&'a str, Output = T, Error = Fail<'a>>,
) -> impl Parser<&'a str, Output = Vec<T>, Error = Fail<'a>> {
    let mut items = separated_list1(char(','), cut(item));
    move |i: &'a str| {
        if i.is_empty() {
            return Ok((i, Vec::new()));
        }
        let (rest, v) = items.parse(i)?;
        if !rest.is_empty() {
            return fail(rest, "\",\" or the end of the list");
        }
        Ok((rest, v))
    }
}

/// Rows: at least one, separated by `/`, each a non-empty list of cards; a whole value.
fn rows<'a>() -> impl Parser<&'a str, Output = Vec<Vec<Card>>, Error = Fail<'a>> {
    let row = separated_list1(char(','), cut(card()));
    let mut rows = separated_list1(char('/'), cut(row));
    move |i: &'a str| {
        let (rest, v) = rows.parse(i)?;
        if !rest.is_empty() {
            return fail(rest, "\",\", \"/\" or the end of the rows");
        }
        Ok((rest, v))
    }
}

/// A name of 1 to [`MAX_NAME`] characters from `A-Za-z0-9_.:+-`; a whole value.
fn name<'a>(what: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Fail<'a>> {
    move |i: &'a str| {
        let (rest, name) = take_while(is_name_char).parse(i)?;
        if !rest.is_empty() {
            return fail(rest, "a name character (A-Z a-z 0-9 _ . : + -)");
        }
        if name.is_empty() {
            return fail(i, what);
        }
        if let Some((cut, _)) = name.char_indices().nth(MAX_NAME) {
            return fail(&i[cut..], "at most 40 characters in the name");
        }
        Ok((rest, name))
    }
}

fn game_end<'a>() -> impl Parser<&'a str, Output = GameEnd, Error = Fail<'a>> {
    whole(
        "score:<points> or rounds:<rounds>",
        preceded(tag("score:"), number(""))
            .map(GameEnd::TargetScore)
            .or(preceded(tag("rounds:"), number("")).map(GameEnd::Rounds)),
    )
}

/// A whole value that is a number.
fn scalar<'a, T: FromStr>(
    what: &'static str,
) -> impl Parser<&'a str, Output = T, Error = Fail<'a>> {
    whole(what, number(what))
}

// ---------------------------------------------------------------------------------------------
// key=value fields.

/// The `key=value` fields after a keyword, in any order.
struct Fields<'a> {
    list: Vec<(&'a str, &'a str)>,
    /// Where the fields end (the end of the line), for a missing field's error.
    end: &'a str,
}

fn fields(i: &str) -> Res<'_, Fields<'_>> {
    let field = expect(
        "a key=value field",
        separated_pair(
            take_till1(|c| is_blank(c) || c == '='),
            char('='),
            take_till(is_blank),
        ),
    );
    let (rest, list) = many0(preceded(space1, cut(field))).parse(i)?;
    for (n, (key, _)) in list.iter().enumerate() {
        if list[..n].iter().any(|(k, _)| k == key) {
            return fail(key, format!("one \"{key}=\" field only"));
        }
    }
    Ok((rest, Fields { list, end: rest }))
}

impl<'a> Fields<'a> {
    /// The field `key`, read whole by `p`; `what` names its value when it is missing.
    fn get<T>(
        &self,
        key: &'static str,
        what: &'static str,
        mut p: impl Parser<&'a str, Output = T, Error = Fail<'a>>,
    ) -> Result<T, nom::Err<Fail<'a>>> {
        let Some(&(_, value)) = self.list.iter().find(|(k, _)| *k == key) else {
            return Err(nom::Err::Error(Fail {
                at: self.end,
                expected: format!("a field {key}=<{what}>").into(),
            }));
        };
        match p.parse(value)? {
            ("", v) => Ok(v),
            (rest, _) => Err(nom::Err::Error(Fail {
                at: rest,
                expected: format!("the end of the {key}= field").into(),
            })),
        }
    }

    /// Whether the line has the field `key`.
    fn has(&self, key: &str) -> bool {
        self.list.iter().any(|(k, _)| *k == key)
    }

    /// The field `key` like [`Fields::get`], or the empty value when it is absent.
    fn optional<T: Default>(
        &self,
        key: &'static str,
        what: &'static str,
        p: impl Parser<&'a str, Output = T, Error = Fail<'a>>,
    ) -> Result<T, nom::Err<Fail<'a>>> {
        if self.has(key) {
            self.get(key, what, p)
        } else {
            Ok(T::default())
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Messages.

/// `a message: hello, play, ... or swap`: what a bot's line may start with.
static REPLY_WHAT: LazyLock<String> = LazyLock::new(|| {
    let mut keywords = Vec::new();
    for keyword in REPLY_KEYWORDS {
        if !keywords.contains(keyword) {
            keywords.push(*keyword);
        }
    }
    format!("a message: {}", one_of(&keywords))
});

/// `a message: hello, game, ... or bye`: what a referee's line may start with.
static TO_BOT_WHAT: LazyLock<String> =
    LazyLock::new(|| format!("a message: {}", one_of(ToBot::KEYWORDS)));

/// `an error kind: syntax, ... or version`: what the word after `error` may be.
static ERROR_WHAT: LazyLock<String> = LazyLock::new(|| {
    let names: Vec<&str> = ErrorKind::ALL.iter().map(|kind| kind.name()).collect();
    format!("an error kind: {}", one_of(&names))
});

/// The words as a choice: `a, b or c`.
fn one_of(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, others)) => format!("{} or {last}", others.join(", ")),
        None => String::new(),
    }
}

fn from_bot_message(i: &str) -> Res<'_, FromBot> {
    let what = REPLY_WHAT.as_str();
    let (rest, keyword) = expect(what, word).parse(i)?;
    match reply(keyword, rest) {
        Some(parsed) => parsed,
        None => fail(i, what),
    }
}

/// The single argument of a reply, read whole after a blank by its field parser ([`Value`]).
trait ReplyArgument: Value {
    /// A reply's line after its keyword (`rest`), made into a reply by `reply`; `what` names
    /// the argument in an error.
    fn reply<'a>(
        rest: &'a str,
        what: &'static str,
        reply: fn(Self) -> FromBot,
    ) -> Res<'a, FromBot> {
        let (rest, argument) = argument(rest, what, Self::parser(what))?;
        Ok((rest, reply(argument)))
    }

    /// The argument a plain answer's number `n` is (see [`plain_answer`]), if it is a number.
    fn plain(_: u16) -> Option<Self> {
        None
    }
}

impl ReplyArgument for Card {
    fn plain(n: u16) -> Option<Card> {
        Some(Card(n))
    }
}

impl ReplyArgument for usize {
    fn plain(n: u16) -> Option<usize> {
        Some(usize::from(n))
    }
}

impl ReplyArgument for Special {}

/// `special` replies of both kinds (the anniversary's and the circle game's) are read by
/// [`special_reply`].
impl ReplyArgument for SpecialPlay {
    fn reply<'a>(
        rest: &'a str,
        _: &'static str,
        _: fn(SpecialPlay) -> FromBot,
    ) -> Res<'a, FromBot> {
        special_reply(rest)
    }
}

macro_rules! reply_parser {
    (
        $(#[$hello_attr:meta])* Hello { $( $(#[doc = $doc:literal])* $key:ident: $kty:ty [$hole:literal, $kwhat:literal] $(= $left_out:literal)? ),* } $hello:literal $hello_words:literal;
        $(
            $(#[$attr:meta])*
            $Variant:ident $( ($ty:ty) )? $( { $($field:ident : $fty:ty),* } )? $keyword:literal $words:literal $what:literal = $Action:ident,
        )*
    ) => {
        /// The keywords of a bot's lines, in the order of their declaration (`special` twice).
        const REPLY_KEYWORDS: &[&str] = &[$hello, $($keyword),*];

        /// The line `keyword`'s rest after the keyword; `None` for no keyword of a bot's line.
        /// The hello's fields are read in the order of their declaration (the first missing or
        /// wrong one is named), one left out at its value read as that value.
        // Two replies share `special`: the first reads both.
        #[allow(unreachable_patterns)]
        fn reply<'a>(keyword: &str, rest: &'a str) -> Option<Res<'a, FromBot>> {
            Some(match keyword {
                $hello => (|| {
                    let (rest, fields) = fields(rest)?;
                    let f = &fields;
                    Ok((rest, FromBot::Hello {
                        $( $key: reply_parser!(@field f $key $kty [$hole, $kwhat] $($left_out)?), )*
                    }))
                })(),
                $( $keyword => (|| {
                    let (rest, reply) =
                        reply_parser!(@reply rest $what [$( ($ty) )? $( { $($field: $fty),* } )?] FromBot::$Variant)?;
                    let (rest, ()) = end(
                        rest,
                        reply_parser!(@end $keyword $words [$( ($ty) )? $( { $($field: $fty),* } )?]),
                    )?;
                    Ok((rest, reply))
                })(), )*
                _ => return None,
            })
        }

        /// The reply a plain answer (`keyword`, one space, a number `n`) is, if any.
        #[allow(unreachable_patterns)]
        fn plain_reply(keyword: &str, n: u16) -> Option<FromBot> {
            match keyword {
                $( $keyword => reply_parser!(@plain n [$( ($ty) )? $( { $($field: $fty),* } )?] FromBot::$Variant), )*
                _ => None,
            }
        }
    };
    (@reply $rest:ident $what:literal [] $reply:path) => { Ok::<_, nom::Err<Fail>>(($rest, $reply)) };
    (@reply $rest:ident $what:literal [($ty:ty)] $reply:path) => {
        <$ty as ReplyArgument>::reply($rest, $what, $reply)
    };
    (@reply $rest:ident $what:literal [{ $($field:ident: $ty:ty),* }] $reply:path) => {
        special_reply($rest)
    };
    (@end $keyword:literal $words:literal [{ $($field:ident: $ty:ty),* }]) => {
        "the end of the line after the special card's arguments"
    };
    (@end $keyword:literal $words:literal [($ty:ty)]) => {
        reply_parser!(@end_of $keyword $words $ty)
    };
    (@end $keyword:literal $words:literal []) => {
        concat!("the end of the line after \"", $words, "\"")
    };
    (@end_of $keyword:literal $words:literal $ty:ty) => {
        if $keyword == "special" {
            "the end of the line after the special card's arguments"
        } else {
            concat!("the end of the line after \"", $words, "\"")
        }
    };
    (@field $f:ident $key:ident $ty:ty [$hole:literal, $what:literal]) => {
        <$ty as Value>::parse($f, stringify!($key), $hole, $what)?
    };
    (@field $f:ident $key:ident $ty:ty [$hole:literal, $what:literal] $left_out:literal) => {
        if $f.has(stringify!($key)) {
            <$ty as Value>::parse($f, stringify!($key), $hole, $what)?
        } else {
            $left_out
        }
    };
    (@plain $n:ident [($ty:ty)] $reply:path) => { <$ty as ReplyArgument>::plain($n).map($reply) };
    (@plain $n:ident [$($shape:tt)?] $reply:path) => { None };
}
super::message::replies!(reply_parser);

/// A word its type names (`from_name`): a special card's (`fifth_row`, `stop`, ...), a take's
/// reason (`full`, `low`); `what` says what was expected.
fn named<'a, T>(
    what: &'static str,
    from_name: fn(&str) -> Option<T>,
) -> impl Parser<&'a str, Output = T, Error = Fail<'a>> {
    move |i: &'a str| {
        let (rest, name) =
            take_while(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                .parse(i)?;
        match from_name(name) {
            Some(named) => Ok((rest, named)),
            None => fail(i, what),
        }
    }
}

/// A special card's name (`fifth_row`, `stop`, ...), a whole word or value.
fn special_name<'a>(
    what: &'static str,
) -> impl Parser<&'a str, Output = Special, Error = Fail<'a>> {
    named(what, Special::from_name)
}

/// The words after `special`: a name and its arguments, each after a blank. The anniversary
/// variant's cards (`stop 2`, `insert 2 0`, `shift 11 2 0`, ...) answer `ask special`; the
/// circle game's (`x2 3`, `plus5 0`: the card and its row) answer `ask place`.
fn special_reply(i: &str) -> Res<'_, FromBot> {
    const NAME: &str = "a special card's name after \"special\": fifth_row, seven_nimmt, \
                        insert, replace, shift, stop, x2 or plus5";
    let (rest, special) = argument(i, NAME, special_name(NAME))?;
    let row = |i| argument(i, "a row index", number("a row index"));
    // An anniversary card's row and place are bytes (SpecialPlay).
    const ROW: &str = "a row index from 0 to 255";
    const AT: &str = "a place in the row from 0 to 255";
    let special_row = |i| argument(i, ROW, number(ROW));
    let at = |i| argument(i, AT, number(AT));
    let card_arg = |i| argument(i, "a card number", card());
    let (rest, play) = match special {
        Special::Double | Special::PlusFive => {
            let (rest, row) = row(rest)?;
            return Ok((rest, FromBot::PlaceSpecial { special, row }));
        }
        Special::FifthRow => (rest, SpecialPlay::FifthRow),
        Special::SevenNimmt | Special::Stop => {
            let (rest, row) = special_row(rest)?;
            let play = match special {
                Special::Stop => SpecialPlay::Stop { row },
                _ => SpecialPlay::SevenNimmt { row },
            };
            (rest, play)
        }
        Special::Insert => {
            let (rest, row) = special_row(rest)?;
            let (rest, at) = at(rest)?;
            (rest, SpecialPlay::Insert { row, at })
        }
        Special::Replace => {
            let (rest, card) = card_arg(rest)?;
            (rest, SpecialPlay::Replace { card })
        }
        Special::Shift => {
            let (rest, card) = card_arg(rest)?;
            let (rest, row) = special_row(rest)?;
            let (rest, at) = at(rest)?;
            (rest, SpecialPlay::Shift { card, row, at })
        }
        Special::NegativePositive => {
            return fail(
                i.trim_start_matches(is_blank),
                "a special card played before placing (negative_positive is played with \"cancel\")",
            );
        }
    };
    Ok((rest, FromBot::Special(play)))
}

/// A special card played, as an event's `play=` value: the name, then its arguments, each
/// after a `:` (`stop:2`, `insert:2:0`, `shift:11:2:0`, `fifth_row`).
fn special_play<'a>() -> impl Parser<&'a str, Output = SpecialPlay, Error = Fail<'a>> {
    |i: &'a str| {
        let mut parts = i.split(':');
        let name = parts.next().unwrap_or("");
        let args: Vec<&str> = parts.collect();
        let bad = || {
            fail(
                i,
                "a special card played: fifth_row, seven_nimmt:R, insert:R:P, replace:C, shift:C:R:P or \
                 stop:R (rows R and places P from 0 to 255)",
            )
        };
        let n = |k: usize| args.get(k).and_then(|a| a.parse::<u8>().ok());
        let c = |k: usize| args.get(k).and_then(|a| a.parse::<u16>().ok()).map(Card);
        let play = match (Special::from_name(name), args.len()) {
            (Some(Special::FifthRow), 0) => Some(SpecialPlay::FifthRow),
            (Some(Special::SevenNimmt), 1) => n(0).map(|row| SpecialPlay::SevenNimmt { row }),
            (Some(Special::Stop), 1) => n(0).map(|row| SpecialPlay::Stop { row }),
            (Some(Special::Insert), 2) => n(0)
                .zip(n(1))
                .map(|(row, at)| SpecialPlay::Insert { row, at }),
            (Some(Special::Replace), 1) => c(0).map(|card| SpecialPlay::Replace { card }),
            (Some(Special::Shift), 3) => c(0)
                .zip(n(1))
                .zip(n(2))
                .map(|((card, row), at)| SpecialPlay::Shift { card, row, at }),
            _ => None,
        };
        match play {
            Some(play) => Ok(("", play)),
            None => bad(),
        }
    }
}

macro_rules! to_bot_parser {
    ($(
        $(#[$attr:meta])*
        $Variant:ident $( ($ty:ty) )? $( { $($field:ident : $fty:ty $([$hole:literal, $what:literal])?),* } )? $keyword:literal $($words:ident)?,
    )*) => {
        /// A line from the referee, as [`super::message::to_bot_lines!`] declares it.
        fn to_bot_message(i: &str) -> Res<'_, ToBot> {
            let what = TO_BOT_WHAT.as_str();
            let (rest, keyword) = expect(what, word).parse(i)?;
            match keyword {
                $( $keyword => to_bot_parser!(
                    @body rest $Variant [$( ($ty) )? $( { $($field: $fty $([$hole, $what])?),* } )?] $($words)?
                ), )*
                _ => fail(i, what),
            }
        }
    };
    (@body $rest:ident $Variant:ident [($ty:ty)]) => {{
        let (rest, body) = <$ty as LineBody>::parse_line($rest)?;
        Ok((rest, ToBot::$Variant(body)))
    }};
    (@body $rest:ident $Variant:ident [{ $($field:ident: $fty:ty [$hole:literal, $what:literal]),* }]) => {{
        let (rest, f) = fields($rest)?;
        Ok((rest, ToBot::$Variant {
            $( $field: <$fty as Value>::parse(&f, stringify!($field), $hole, $what)? ),*
        }))
    }};
    (@body $rest:ident $Variant:ident [{ $($field:ident: $fty:ty),* }] words) => {{
        let rest = $rest;
        $( let (rest, $field) = <$fty as Word>::parse_word(rest)?; )*
        Ok((rest, ToBot::$Variant { $($field),* }))
    }};
    // A line of no fields: any `key=value` fields after its keyword are ignored.
    (@body $rest:ident $Variant:ident []) => {{
        let (rest, _) = fields($rest)?;
        Ok((rest, ToBot::$Variant))
    }};
}
super::message::to_bot_lines!(to_bot_parser);

/// A line that is one value (`game`, `event`, `ask`): its line after the keyword.
trait LineBody: Sized {
    fn parse_line(rest: &str) -> Res<'_, Self>;
}

impl LineBody for GameInfo<'static> {
    fn parse_line(rest: &str) -> Res<'_, Self> {
        let (rest, f) = fields(rest)?;
        Ok((rest, game_info(&f)?))
    }
}

impl LineBody for EventLine {
    fn parse_line(rest: &str) -> Res<'_, Self> {
        let what = EVENT_WHAT.as_str();
        let (rest, kind) = argument(rest, what, word)?;
        if !Event::NAMES.contains(&kind) {
            return fail(kind, what);
        }
        let (rest, f) = fields(rest)?;
        Ok((rest, event_line(kind, &f)?))
    }
}

impl LineBody for Request {
    fn parse_line(rest: &str) -> Res<'_, Self> {
        let what = ASK_WHAT.as_str();
        let (rest, kind) = argument(rest, what, word)?;
        if !ASKS.contains(&kind) {
            return fail(kind, what);
        }
        let (rest, f) = fields(rest)?;
        let ask = ask_fields(kind, &f)?;
        Ok((rest, request(ask, &f)?))
    }
}

/// A field of a line of words (`error <kind> <text>`), after blanks; a text is the rest of the
/// (trimmed) line.
trait Word: Sized {
    fn parse_word(rest: &str) -> Res<'_, Self>;
}

impl Word for ErrorKind {
    fn parse_word(rest: &str) -> Res<'_, Self> {
        let what = ERROR_WHAT.as_str();
        let (rest, name) = argument(rest, what, word)?;
        match ErrorKind::from_name(name) {
            Some(kind) => Ok((rest, kind)),
            None => fail(name, what),
        }
    }
}

impl Word for String {
    fn parse_word(rest: &str) -> Res<'_, Self> {
        let (text, _) = space0(rest)?;
        Ok(("", text.to_string()))
    }
}

/// A special card's name, `x2` or `plus5`.
fn special<'a>() -> impl Parser<&'a str, Output = Special, Error = Fail<'a>> {
    expect(
        "x2 or plus5",
        value(Special::Double, tag("x2")).or(value(Special::PlusFive, tag("plus5"))),
    )
}

/// Lists of special cards separated by `/`, each comma-separated and maybe empty; a whole
/// value (the empty value is one empty list).
fn special_lists<'a>() -> impl Parser<&'a str, Output = Vec<Vec<Special>>, Error = Fail<'a>> {
    move |i: &'a str| {
        let mut lists = Vec::new();
        for part in i.split('/') {
            let (_, specials) = list(special()).parse(part)?;
            lists.push(specials);
        }
        Ok(("", lists))
    }
}

macro_rules! request_parser {
    ($( [$($entry:tt)*] )*) => {
        /// The request of an `ask` line asking `ask`, from its keys in the order of their
        /// declaration ([`super::message::ask_keys!`]): the first missing or wrong one is named.
        /// A key marked `if when` is read when [`When::parsed`] says the line has it.
        fn request<'a>(ask: Ask, f: &Fields<'a>) -> Result<Request, nom::Err<Fail<'a>>> {
            let decision = ask.decision();
            let mut request = Request {
                ask,
                ..Request::default()
            };
            $( request_parser!(@entry f request decision $($entry)*); )*
            // A table's marks are by row: as many as there are rows.
            if let Some(table) = &mut request.specials {
                table.stops.resize(request.rows.len(), false);
                table.sevens.resize(request.rows.len(), false);
            }
            Ok(request)
        }
    };
    (@entry $f:ident $request:ident $decision:ident own $place:ident) => {};
    (@entry $f:ident $request:ident $decision:ident
        $group:ident . $field:ident $key:literal : $ty:ty [$hole:literal, $what:literal] $(= $default:ident)? if $When:ident) => {
        if When::$When.parsed($decision, |key| $f.has(key)) {
            let value = request_parser!(@value $f $key $ty [$hole, $what] $($default)?);
            (request_parser!(@in $request $group)).$field = value;
        }
    };
    (@value $f:ident $key:literal $ty:ty [$hole:literal, $what:literal]) => {
        <$ty as Value>::parse($f, $key, $hole, $what)?
    };
    (@value $f:ident $key:literal $ty:ty [$hole:literal, $what:literal] default) => {
        <$ty as Value>::parse_or_default($f, $key, $hole, $what)?
    };
    (@in $request:ident view) => {
        $request
    };
    (@in $request:ident $group:ident) => {
        $request.$group.get_or_insert_with(Default::default)
    };
}

super::message::ask_keys!(request_parser);

macro_rules! game_parser {
    ($( $(#[doc = $doc:literal])* $key:ident $(in $outer:ident)?: $ty:ty [$hole:literal, $what:literal] $(= $default:ident)?, )*) => {
        /// The `game` line's fields, in the order of their declaration
        /// ([`super::message::game_fields!`]): the first missing or wrong one is named.
        fn game_info<'a, 'info>(f: &Fields<'a>) -> Result<GameInfo<'info>, nom::Err<Fail<'a>>> {
            $(
                let $key = game_parser!(@value f $key $ty [$hole, $what] $($default)?);
            )*
            Ok(GameInfo::from_keys($($key),*))
        }
    };
    (@value $f:ident $key:ident $ty:ty [$hole:literal, $what:literal]) => {
        <$ty as Value>::parse($f, stringify!($key), $hole, $what)?
    };
    (@value $f:ident $key:ident $ty:ty [$hole:literal, $what:literal] default) => {
        <$ty as Value>::parse_or_default($f, stringify!($key), $hole, $what)?
    };
}
super::message::game_fields!(game_parser);

/// `play, row, ... or swap after "ask"`: what the word after `ask` may be.
static ASK_WHAT: LazyLock<String> = LazyLock::new(|| format!("{} after \"ask\"", one_of(ASKS)));

/// `an event: deal, pick, ... or reshuffle`: what the word after `event` may be.
static EVENT_WHAT: LazyLock<String> =
    LazyLock::new(|| format!("an event: {}", one_of(Event::NAMES)));

/// A field's value on a line, read whole.
trait Value: Sized {
    /// The value's parser; `what` names the value when it is wrong.
    fn parser<'a>(what: &'static str) -> impl Parser<&'a str, Output = Self, Error = Fail<'a>>;

    /// The field `key`; `hole` names its value when it is missing (`a field key=<hole>`), `what`
    /// when it is wrong.
    fn parse<'a>(
        f: &Fields<'a>,
        key: &'static str,
        hole: &'static str,
        what: &'static str,
    ) -> Result<Self, nom::Err<Fail<'a>>> {
        f.get(key, hole, Self::parser(what))
    }

    /// The field `key` like [`Value::parse`], or the default when it is absent.
    fn parse_or_default<'a>(
        f: &Fields<'a>,
        key: &'static str,
        hole: &'static str,
        what: &'static str,
    ) -> Result<Self, nom::Err<Fail<'a>>>
    where
        Self: Default,
    {
        f.optional(key, hole, Self::parser(what))
    }
}

macro_rules! parsed_numbers {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn parser<'a>(what: &'static str) -> impl Parser<&'a str, Output = $t, Error = Fail<'a>> {
                scalar(what)
            }
        }

        impl Value for Vec<$t> {
            fn parser<'a>(what: &'static str) -> impl Parser<&'a str, Output = Vec<$t>, Error = Fail<'a>> {
                list(number(what))
            }
        }
    )*};
}
parsed_numbers!(u8, u16, u32, u64, usize, i32);

/// The values read by a parser of their own, whatever `what` says.
macro_rules! parsed_by {
    ($($t:ty = |$what:ident| $parser:expr;)*) => {$(
        impl Value for $t {
            fn parser<'a>($what: &'static str) -> impl Parser<&'a str, Output = $t, Error = Fail<'a>> {
                $parser
            }
        }
    )*};
}
parsed_by! {
    Card = |_what| one_card();
    Vec<Card> = |_what| list(card());
    TakeReason = |what| named(what, TakeReason::from_name);
    Special = |what| special_name(what);
    Vec<Special> = |what| list(special_name(what));
    SpecialPlay = |_what| special_play();

    GameEnd = |_what| game_end();
    Option<u64> = |what| scalar(what).map(Some);
}

/// A bot's name (its hello's `name=`).
impl Value for String {
    fn parser<'a>(what: &'static str) -> impl Parser<&'a str, Output = Self, Error = Fail<'a>> {
        name(what).map(str::to_string)
    }
}

/// `yes` or `no`.
impl Value for bool {
    fn parser<'a>(what: &'static str) -> impl Parser<&'a str, Output = Self, Error = Fail<'a>> {
        whole(what, value(true, tag("yes")).or(value(false, tag("no"))))
    }
}

/// A name, owned whatever the lifetime (a `game` line's `variant=`).
impl Value for Cow<'_, str> {
    fn parser<'a>(what: &'static str) -> impl Parser<&'a str, Output = Self, Error = Fail<'a>> {
        name(what).map(|name| Cow::Owned(name.to_string()))
    }
}

/// Rows of cards (`rows=`, `hashrows=`).
impl Value for Vec<Vec<Card>> {
    fn parser<'a>(_: &'static str) -> impl Parser<&'a str, Output = Self, Error = Fail<'a>> {
        rows()
    }
}

/// The special cards in each row or hand (`rowspecials=`, `held=`).
impl Value for Vec<Vec<Special>> {
    fn parser<'a>(_: &'static str) -> impl Parser<&'a str, Output = Self, Error = Fail<'a>> {
        special_lists()
    }
}

/// Rows marked (`stops=`, `sevens=`): the marked rows' indices, read as a mark by row up to the
/// highest (an index above 255 marks nothing: there are never so many rows); [`request`] gives
/// them as many marks as rows.
impl Value for Vec<bool> {
    fn parser<'a>(what: &'static str) -> impl Parser<&'a str, Output = Self, Error = Fail<'a>> {
        list(number::<usize>(what)).map(|marked| {
            let mut marks = Vec::new();
            for row in marked
                .into_iter()
                .filter(|&row| row <= usize::from(u8::MAX))
            {
                if marks.len() <= row {
                    marks.resize(row + 1, false);
                }
                marks[row] = true;
            }
            marks
        })
    }
}

/// An optional field (the anniversary's `drew=`): `None` when absent.
impl Value for Option<Special> {
    fn parser<'a>(
        what: &'static str,
    ) -> impl Parser<&'a str, Output = Option<Special>, Error = Fail<'a>> {
        special_name(what).map(Some)
    }

    fn parse<'a>(
        f: &Fields<'a>,
        key: &'static str,
        hole: &'static str,
        what: &'static str,
    ) -> Result<Option<Special>, nom::Err<Fail<'a>>> {
        f.optional(key, hole, Self::parser(what))
    }
}

macro_rules! ask_parser {
    ($( $(#[$attr:meta])* $Variant:ident $({ $($field:ident: $ty:ty [$hole:literal, $what:literal] [$($source:ident $($last:ident)?)?])* })? $word:literal $wanted:literal = $Decision:ident [$($decided:ident)*] )*) => {
        /// The ask `kind` (one of [`ASKS`]) with its own fields, in the order of their
        /// declaration ([`super::message::asks!`]): the first missing or wrong one is named.
        fn ask_fields<'a>(kind: &str, f: &Fields<'a>) -> Result<Ask, nom::Err<Fail<'a>>> {
            Ok(match kind {
                $( $word => Ask::$Variant {
                    $($( $field: <$ty as Value>::parse(f, stringify!($field), $hole, $what)? ),*)?
                }, )*
                _ => unreachable!("the word after `ask` is one of ASKS"),
            })
        }
    };
}
super::message::asks!(ask_parser);

macro_rules! event_parser {
    ($( $(#[$attr:meta])* $Variant:ident $name:literal [$($field:ident: $ty:ty [$hole:literal, $what:literal])*] [$($viewer:ident $($seen:ident: $seen_ty:ty [$seen_hole:literal, $seen_what:literal] = $value:expr;)*)?] )*) => {
        /// The event `kind` (one of [`Event::NAMES`]) from its fields, in the order of their
        /// declaration (the first missing or wrong one is named); an event a seat sees only in
        /// part has the fields of what the seat sees.
        fn event_line<'a>(kind: &str, f: &Fields<'a>) -> Result<EventLine, nom::Err<Fail<'a>>> {
            Ok(match kind {
                $( $name => event_parser!(
                    @line f $Variant [$($field: $ty [$hole, $what])*]
                    $([$viewer $($seen: $seen_ty [$seen_hole, $seen_what])*])?
                ), )*
                _ => unreachable!("the word after `event` is one of Event::NAMES"),
            })
        }
    };
    (@line $f:ident $Variant:ident [$($field:ident: $ty:ty [$hole:literal, $what:literal])*]) => {
        EventLine::Public(Event::$Variant {
            $( $field: <$ty as Value>::parse($f, stringify!($field), $hole, $what)? ),*
        })
    };
    (@line $f:ident $Variant:ident [$($field:ident: $ty:ty [$hole:literal, $what:literal])*]
        [$viewer:ident $($seen:ident: $seen_ty:ty [$seen_hole:literal, $seen_what:literal])*]) => {
        EventLine::$Variant {
            $( $seen: <$seen_ty as Value>::parse($f, stringify!($seen), $seen_hole, $seen_what)? ),*
        }
    };
}
crate::game::events!(event_parser);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Decision;

    /// The error for a bot's line, as it would be sent back.
    fn bot_error(line: &str) -> String {
        from_bot(line).expect_err(line).to_string()
    }

    fn referee_error(line: &str) -> String {
        to_bot(line).expect_err(line).to_string()
    }

    #[test]
    fn a_table_is_told_by_the_first_key_declared_in_it_with_its_condition() {
        // The parser's `has` question of a line comes from the declaration (ask_keys!).
        assert_eq!(When::Number.table_key(), "hashrows");
        assert_eq!(When::Specials.table_key(), "specialhands");
        assert_eq!(When::Clock.table_key(), "time_left_ms");
        fn line(keys: &'static [&'static str]) -> impl Fn(&str) -> bool {
            move |key| keys.contains(&key)
        }
        // `ask keep` has Take a Number's table, with `hashrows=` or without; `ask cancel` has
        // its `cards=` only with the anniversary's table.
        assert!(When::Number.parsed(Decision::KeepCard, line(&[])));
        assert!(!When::Number.parsed(Decision::PlayCard, line(&["hashpiles"])));
        assert!(When::Number.parsed(Decision::PlayCard, line(&["hashrows"])));
        assert!(!When::Cancel.parsed(Decision::Cancel, line(&["specials"])));
        assert!(When::Cancel.parsed(Decision::Cancel, line(&["specialhands"])));
        assert!(When::Clock.parsed(Decision::Pick, line(&["time_left_ms"])));
    }

    #[test]
    fn bot_messages() {
        assert_eq!(from_bot("play 5"), Ok(FromBot::Play(Card(5))));
        assert_eq!(from_bot("row 0"), Ok(FromBot::Row(0)));
        assert_eq!(from_bot("pick 44"), Ok(FromBot::Pick(Card(44))));
        assert_eq!(
            from_bot("special x2 3"),
            Ok(FromBot::PlaceSpecial {
                special: Special::Double,
                row: 3
            })
        );
        assert_eq!(
            from_bot("special plus5 0"),
            Ok(FromBot::PlaceSpecial {
                special: Special::PlusFive,
                row: 0
            })
        );
        assert_eq!(from_bot("end"), Ok(FromBot::End));
        assert_eq!(
            bot_error("special x3 1"),
            "expected a special card's name after \"special\": fifth_row, seven_nimmt, insert, \
             replace, shift, stop, x2 or plus5 at column 9, found \"x3\""
        );
        assert_eq!(
            bot_error("special x2"),
            "expected a row index at column 11, found the end of the line"
        );
        assert_eq!(
            bot_error("end 1"),
            "expected the end of the line after \"end\" at column 5, found \"1\""
        );
        assert_eq!(
            from_bot("hello version=1 name=my-bot_2.0+x:y"),
            Ok(FromBot::Hello {
                version: 1,
                name: "my-bot_2.0+x:y".into(),
                events: true,
            })
        );
        // Fields in any order; unknown ones ignored, whatever their value.
        assert_eq!(
            from_bot("hello name=b author=someone@example.org version=1 x="),
            Ok(FromBot::Hello {
                version: 1,
                name: "b".into(),
                events: true,
            })
        );
        // A bot may decline the event lines.
        for (events, wanted) in [("yes", true), ("no", false)] {
            assert_eq!(
                from_bot(&format!("hello version=1 events={events} name=s")),
                Ok(FromBot::Hello {
                    version: 1,
                    name: "s".into(),
                    events: wanted,
                })
            );
        }
        assert_eq!(
            bot_error("hello version=1 name=s events=off"),
            "expected yes or no at column 31, found \"off\""
        );
    }

    #[test]
    fn the_plain_answer_reading_agrees_with_the_general_parser() {
        let mut plain = 0;
        for line in [
            "play 5",
            "play 0005",
            "row 3",
            "pick 9999",
            "keep 12",
            "play 5\r\n",
            "play 5 \t",
            "play 10000",
            "play 65536",
            "row 99999",
            "play -1",
            "play 5x",
            "play  5",
            " play 5",
            "plays 5",
            "play",
            "play ",
            "play 5 6",
            "Play 5",
            "row 1,2",
            "hello version=1",
        ] {
            if let Some(answer) = plain_answer(line) {
                plain += 1;
                assert_eq!(Ok(answer), run(line, from_bot_message), "{line:?}");
            }
        }
        assert_eq!(
            plain, 7,
            "the lines with a keyword, one space and 1-4 digits"
        );
    }

    #[test]
    fn lenient_blanks_and_line_ends() {
        for line in [
            "play 5\n",
            "play 5\r\n",
            "play 5\r",
            "play   5",
            "play\t5",
            " \tplay 5 \t ",
            "play 005",
        ] {
            assert_eq!(from_bot(line), Ok(FromBot::Play(Card(5))), "{line:?}");
        }
        assert_eq!(
            from_bot("  hello\tversion=1    name=x  \r\n"),
            Ok(FromBot::Hello {
                version: 1,
                name: "x".into(),
                events: true,
            })
        );
        assert_eq!(to_bot("bye\r\n"), Ok(ToBot::Bye));
        assert_eq!(
            to_bot("error  illegal   no_such_row: there  is no row 7 \r\n"),
            Ok(ToBot::Error {
                kind: ErrorKind::Illegal,
                text: "no_such_row: there  is no row 7".into()
            })
        );
    }

    #[test]
    fn words_end_only_at_blanks() {
        assert_eq!(
            bot_error("playx 5"),
            "expected a message: hello, play, row, pick, keep, special, end, pass, cancel or swap at column 1, found \"playx\""
        );
        assert_eq!(
            bot_error("play 5x"),
            "expected a card number after \"play\" at column 6, found \"5x\""
        );
        assert_eq!(
            bot_error("rowing 1"),
            "expected a message: hello, play, row, pick, keep, special, end, pass, cancel or swap at column 1, found \"rowing\""
        );
        assert_eq!(
            bot_error("row 1,2"),
            "expected a row index after \"row\" at column 5, found \"1,2\""
        );
        assert_eq!(
            bot_error("hellos version=1 name=x"),
            "expected a message: hello, play, row, pick, keep, special, end, pass, cancel or swap at column 1, found \"hellos\""
        );
    }

    #[test]
    fn errors_say_where_and_what() {
        let cases = [
            (
                "",
                1,
                "a message: hello, play, row, pick, keep, special, end, pass, cancel or swap",
                "the end of the line",
            ),
            (
                "  \r\n",
                1,
                "a message: hello, play, row, pick, keep, special, end, pass, cancel or swap",
                "the end of the line",
            ),
            (
                "PLAY 5",
                1,
                "a message: hello, play, row, pick, keep, special, end, pass, cancel or swap",
                "\"PLAY\"",
            ),
            (
                "play",
                5,
                "a card number after \"play\"",
                "the end of the line",
            ),
            (
                "play \r\n",
                5,
                "a card number after \"play\"",
                "the end of the line",
            ),
            ("play five", 6, "a card number after \"play\"", "\"five\""),
            ("play -5", 6, "a card number after \"play\"", "\"-5\""),
            ("play 65536", 6, "a card number after \"play\"", "\"65536\""),
            (
                "play 5 6",
                8,
                "the end of the line after \"play <card>\"",
                "\"6\"",
            ),
            (
                "play 5\t\tnow",
                9,
                "the end of the line after \"play <card>\"",
                "\"now\"",
            ),
            ("row", 4, "a row index after \"row\"", "the end of the line"),
            (
                "row 1 please",
                7,
                "the end of the line after \"row <index>\"",
                "\"please\"",
            ),
            (
                "hello version=1",
                16,
                "a field name=<name>",
                "the end of the line",
            ),
            (
                "hello name=x",
                13,
                "a field version=<version>",
                "the end of the line",
            ),
            (
                "hello version=one name=x",
                15,
                "a version number",
                "\"one\"",
            ),
            ("hello version=1 name=", 22, "a name", "the end of the line"),
            ("hello version=1 name= x=1", 22, "a name", "a space"),
            (
                "hello version=1 name=bad/name",
                25,
                "a name character (A-Z a-z 0-9 _ . : + -)",
                "\"/name\"",
            ),
            (
                "hello version=1 name=bot junk",
                26,
                "a key=value field",
                "\"junk\"",
            ),
            (
                "hello version=1 =x name=bot",
                17,
                "a key=value field",
                "\"=x\"",
            ),
            (
                "hello version=1 name=a version=1",
                24,
                "one \"version=\" field only",
                "\"version=1\"",
            ),
        ];
        for (line, column, expected, found) in cases {
            let e = from_bot(line).expect_err(line);
            assert_eq!(
                (e.column, e.expected.as_str(), e.found.as_str()),
                (column, expected, found),
                "{line:?}"
            );
        }
        let long = format!("hello version=1 name={}", "n".repeat(41));
        assert_eq!(
            bot_error(&long),
            "expected at most 40 characters in the name at column 62, found \"n\""
        );
        let huge = format!("play {}", "9".repeat(100));
        assert_eq!(
            bot_error(&huge),
            format!(
                "expected a card number after \"play\" at column 6, found \"{}\"...",
                "9".repeat(24)
            )
        );
    }

    #[test]
    fn referee_errors_point_inside_values() {
        let ask = "ask play seat=2 round=1 turn=3";
        let tail = "rows=12,13/40/77/91 scores=0,0 taken=0,0";
        let cases = [
            (
                format!("{ask} hand=3,17x {tail}"),
                "expected \",\" or the end of the list at column 41, found \"x\"",
            ),
            (
                format!("{ask} hand=3,,17 {tail}"),
                "expected a card number at column 39, found \",17\"",
            ),
            (
                format!("{ask} hand=3, {tail}"),
                "expected a card number at column 39, found a space",
            ),
            (
                format!("{ask} hand=3 rows=12,13//40 scores=0,0 taken=0,0"),
                "expected a card number at column 50, found \"/40\"",
            ),
            (
                format!("{ask} hand=3 rows= scores=0,0 taken=0,0"),
                "expected a card number at column 44, found a space",
            ),
            (
                format!("{ask} hand=3 rows=1;2 scores=0,0 taken=0,0"),
                "expected \",\", \"/\" or the end of the rows at column 45, found \";2\"",
            ),
            (
                format!("{ask} hand=3 {tail}").replace(" turn=3", ""),
                "expected a field turn=<turn> at column 72, found the end of the line",
            ),
        ];
        for (line, expected) in &cases {
            assert_eq!(referee_error(line), *expected, "{line:?}");
        }
        // A pick has a pool and no turn or rows; its fields are checked like the others'.
        assert_eq!(
            to_bot("ask pick seat=1 round=2 pool=1,5 hand= scores=3,4 taken=0,0"),
            Ok(ToBot::Ask(Request {
                ask: Ask::Pick {
                    pool: vec![Card(1), Card(5)]
                },
                seat: 1,
                round: 2,
                turn: 0,
                hand: vec![],
                rows: vec![],
                scores: vec![3, 4],
                taken: vec![0, 0],
                number: None,
                circle: None,
                specials: None,
                special_hand: vec![],
                clock: None,
            }))
        );
        assert_eq!(
            referee_error("ask pick seat=1 round=2 hand= scores=3,4 taken=0,0"),
            "expected a field pool=<cards> at column 51, found the end of the line"
        );
        assert_eq!(
            to_bot("event pick seat=1 card=7"),
            Ok(ToBot::Event(EventLine::Public(Event::Pick {
                seat: 1,
                card: Card(7)
            })))
        );
        assert_eq!(
            bot_error("pick"),
            "expected a card number after \"pick\" at column 5, found the end of the line"
        );
        assert_eq!(
            referee_error("ask dance seat=1"),
            "expected play, row, pick, keep, place, special, cancel or swap after \"ask\" at column 5, found \"dance\""
        );
        assert_eq!(
            bot_error("special stop x"),
            "expected a row index from 0 to 255 at column 14, found \"x\""
        );
        assert_eq!(
            bot_error("special negative_positive"),
            "expected a special card played before placing (negative_positive is played with \
             \"cancel\") at column 9, found \"negative_positive\""
        );
        assert_eq!(
            from_bot("special shift 11 2 0"),
            Ok(FromBot::Special(SpecialPlay::Shift {
                card: Card(11),
                row: 2,
                at: 0
            }))
        );
        assert_eq!(
            referee_error("event special seat=0 card=5 play=stop:x"),
            "expected a special card played: fifth_row, seven_nimmt:R, insert:R:P, replace:C, \
             shift:C:R:P or stop:R (rows R and places P from 0 to 255) at column 34, found \"stop:x\""
        );
        // An anniversary card's row and place are bytes: larger numbers are refused, not cut.
        assert_eq!(
            bot_error("special insert 1 256"),
            "expected a place in the row from 0 to 255 at column 18, found \"256\""
        );
        assert_eq!(
            bot_error("special shift 11 300 0"),
            "expected a row index from 0 to 255 at column 18, found \"300\""
        );
        assert_eq!(
            from_bot("special stop 255"),
            Ok(FromBot::Special(SpecialPlay::Stop { row: 255 }))
        );
        assert_eq!(
            referee_error("event special seat=0 card=5 play=insert:1:256"),
            "expected a special card played: fifth_row, seven_nimmt:R, insert:R:P, replace:C, \
             shift:C:R:P or stop:R (rows R and places P from 0 to 255) at column 34, found \
             \"insert:1:256\""
        );
        assert_eq!(
            referee_error("event shuffle round=1"),
            "expected an event: deal, pick, reveal, take, place, keep, pile, round_end, game_end, \
             place_special, collect, end_turn, specials, special, cancel, swap or reshuffle at \
             column 7, found \"shuffle\""
        );
        assert_eq!(
            referee_error("event take seat=1 row=2 cards=77,78 bullheads=2 reason=lo"),
            "expected full or low at column 56, found \"lo\""
        );
        assert_eq!(
            referee_error("error oops something"),
            "expected an error kind: syntax, unexpected, illegal, too_long, encoding or version \
             at column 7, found \"oops\""
        );
        assert_eq!(
            referee_error("byebye"),
            "expected a message: hello, game, event, ask, error or bye at column 1, \
             found \"byebye\""
        );
    }

    #[test]
    fn error_text_may_be_empty() {
        assert_eq!(
            to_bot("error syntax"),
            Ok(ToBot::Error {
                kind: ErrorKind::Syntax,
                text: String::new()
            })
        );
        assert_eq!(
            to_bot("error too_long \t"),
            Ok(ToBot::Error {
                kind: ErrorKind::TooLong,
                text: String::new()
            })
        );
    }
}
