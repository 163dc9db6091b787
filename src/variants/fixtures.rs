//! What a rule fixture (docs/fixtures.md) needs of each variant, reached by the fixture module
//! through this one file: the `setup` fields each variant adds, the checks that turn a `setup`
//! into the variant's table ([`Start`]), the table filled in for a question, the game built at
//! that table, and what the variant shows beyond the [`Game`](crate::game::Game) trait (its
//! piles and special cards). Each variant's own part is in its folder (`<variant>/fixture.rs`);
//! this is the only place that tells the variants apart for fixtures.
//!
//! Everything here is plain data and functions over the lower layers: errors name their place
//! as a [`Location`] in the fixture file, which the fixture loader turns into
//! `file:line:column` and a snippet.
//!
//! A new variant's fixture part: its own `setup` fields, if any, declared with
//! `setup_fields!` in `<variant>/fixture.rs` and added to [`SetupFile`] (and to the list an
//! unknown field's error gives); its table read from a [`TableInput`] (on
//! [`classic::fixture::table`] when it is a classic table with more); its case in [`Start`],
//! and its arm in each `match` below; its fields described in docs/fixtures.md.

use super::anniversary::{self, Anniversary, AnniversarySetup};
use super::circle::{self, Circle, CircleSetup};
use super::classic::{self, Classic, Table};
use super::pro;
use super::take_a_number::{self, NumberSetup, TakeANumber};
use super::{AnyGame, Variant};
use crate::cards::{Card, Special};
use crate::game::{Points, RuleError, Seat};
use crate::rng::{GameRng, Stream};
use crate::rules::Rules;
pub use anniversary::fixture::SpecialState;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_saphyr::{Location, Spanned};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, LazyLock};

/// A list of cards, each with where it is written.
pub type Cards = Vec<Spanned<Card>>;

/// A list of lists of cards (rows, hands, piles), each list and card with where it is written.
pub type CardLists = Spanned<Vec<Spanned<Cards>>>;

/// A `setup` that cannot be played: what is wrong, and where in the fixture file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    pub at: Location,
    pub message: String,
}

/// The error `message`, at where `spanned` is written.
pub fn fail<T, S>(spanned: &Spanned<S>, message: impl Into<String>) -> Result<T, SetupError> {
    Err(SetupError {
        at: spanned.referenced,
        message: message.into(),
    })
}

/// A list given by seat (hands, piles, scores, #-rows) must hold one entry a seat: says so
/// where the list is written otherwise. `what` names an entry, in the singular.
pub fn one_a_seat<T>(list: &Spanned<Vec<T>>, seats: usize, what: &str) -> Result<(), SetupError> {
    if list.value.len() == seats {
        return Ok(());
    }
    let given = crate::words::count(list.value.len(), what);
    fail(list, format!("{given} given for {seats} players"))
}

/// The table before the first step, as the fixture writes it: explicit, seeded, or absent (the
/// first step deals). The fields every variant reads come first; each variant's own are in its
/// group ([`SetupFields`]).
#[derive(Clone, Debug, Default)]
pub struct SetupFile {
    /// Deal round 1 at random from this match seed (as `take5 play --seed`).
    pub seed: Option<u64>,
    /// With `seed`: which deal of the match (`Stream::Deal(n)`), 0 unless given.
    pub deal_number: Option<u64>,
    pub round: Option<Spanned<u32>>,
    pub turn: Option<Spanned<u32>>,
    pub rows: Option<CardLists>,
    pub hands: Option<CardLists>,
    pub scores: Option<Spanned<Vec<Points>>>,
    pub piles: Option<CardLists>,
    /// The circle game: the special cards in each row, by row (none when left out). The
    /// anniversary variant: each seat's special cards, by seat (none when left out).
    pub specials: Option<Spanned<Vec<Spanned<Vec<Special>>>>>,
    pub circle: circle::fixture::Fields,
    pub take_a_number: take_a_number::fixture::Fields,
    pub anniversary: anniversary::fixture::Fields,
}

/// A variant's own `setup` fields: each optional, each with where it is written. Declared with
/// `setup_fields!`.
pub trait SetupFields: Default {
    /// The fields' names in the fixture file.
    const NAMES: &'static [&'static str];
    /// Reads the value of field `key` if it is one of these; says whether it was.
    fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error>;
    /// Where the first of these fields that is given is written; `None` when none is.
    fn given(&self) -> Option<Location>;
}

/// Declares a struct of a variant's own `setup` fields (each an `Option<Spanned<T>>`) and its
/// [`SetupFields`].
macro_rules! setup_fields {
    ($(#[$meta:meta])* pub struct $name:ident {
        $($(#[$doc:meta])* $field:ident: $ty:ty,)*
    }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default)]
        pub struct $name {
            $($(#[$doc])* pub $field: Option<serde_saphyr::Spanned<$ty>>,)*
        }

        impl $crate::variants::fixtures::SetupFields for $name {
            const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];

            fn read<'de, A: serde::de::MapAccess<'de>>(
                &mut self,
                key: &str,
                map: &mut A,
            ) -> Result<bool, A::Error> {
                match key {
                    $(stringify!($field) => {
                        if self.$field.is_some() {
                            return Err(serde::de::Error::duplicate_field(stringify!($field)));
                        }
                        self.$field = Some(map.next_value()?);
                    })*
                    _ => return Ok(false),
                }
                Ok(true)
            }

            fn given(&self) -> Option<serde_saphyr::Location> {
                None$(.or(self.$field.as_ref().map(|f| f.referenced)))*
            }
        }
    };
}
pub(crate) use setup_fields;

/// The fields of every `setup`, before the variants' own.
const COMMON_FIELDS: [&str; 9] = [
    "seed",
    "deal_number",
    "round",
    "turn",
    "rows",
    "hands",
    "scores",
    "piles",
    "specials",
];

/// Every `setup` field, as an unknown field's error lists them.
static SETUP_FIELDS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    [
        &COMMON_FIELDS[..],
        circle::fixture::Fields::NAMES,
        take_a_number::fixture::Fields::NAMES,
        anniversary::fixture::Fields::NAMES,
    ]
    .concat()
});

impl<'de> Deserialize<'de> for SetupFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// A `setup` key, refused (as a derived struct refuses it) when no variant reads it.
        struct Key;
        impl<'de> DeserializeSeed<'de> for Key {
            type Value = String;
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
                d.deserialize_identifier(self)
            }
        }
        impl Visitor<'_> for Key {
            type Value = String;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("field identifier")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<String, E> {
                let fields: &'static [&'static str] = &SETUP_FIELDS;
                match fields.contains(&key) {
                    true => Ok(key.to_string()),
                    false => Err(E::unknown_field(key, fields)),
                }
            }
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SetupFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("struct SetupFile")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SetupFile, A::Error> {
                fn once<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
                    slot: &mut Option<T>,
                    key: &'static str,
                    map: &mut A,
                ) -> Result<(), A::Error> {
                    if slot.is_some() {
                        return Err(de::Error::duplicate_field(key));
                    }
                    *slot = Some(map.next_value()?);
                    Ok(())
                }
                let mut s = SetupFile::default();
                while let Some(key) = map.next_key_seed(Key)? {
                    let m = &mut map;
                    match key.as_str() {
                        "seed" => once(&mut s.seed, "seed", m)?,
                        "deal_number" => once(&mut s.deal_number, "deal_number", m)?,
                        "round" => once(&mut s.round, "round", m)?,
                        "turn" => once(&mut s.turn, "turn", m)?,
                        "rows" => once(&mut s.rows, "rows", m)?,
                        "hands" => once(&mut s.hands, "hands", m)?,
                        "scores" => once(&mut s.scores, "scores", m)?,
                        "piles" => once(&mut s.piles, "piles", m)?,
                        "specials" => once(&mut s.specials, "specials", m)?,
                        key => {
                            let read = s.circle.read(key, m)?
                                || s.take_a_number.read(key, m)?
                                || s.anniversary.read(key, m)?;
                            // A name in the list that no group reads (a group left out above).
                            if !read {
                                return Err(de::Error::unknown_field(key, &SETUP_FIELDS));
                            }
                        }
                    }
                }
                Ok(s)
            }
        }
        d.deserialize_struct("SetupFile", &SETUP_FIELDS, V)
    }
}

/// How the game starts.
#[derive(Clone, Debug)]
pub enum Start {
    /// At an explicit table, players about to choose their cards.
    Table(Table),
    /// Round 1 dealt from `GameRng::new(seed, Stream::Deal(deal_number))`, the generator
    /// `take5 play --seed` uses for that deal; `deal: random` steps deal later rounds from it.
    Seeded { seed: u64, deal_number: u64 },
    /// Nothing dealt yet: the first step deals.
    Empty,
    /// The circle game at an explicit table.
    Circle(CircleSetup),
    /// Take a Number at an explicit table (with #-rows and #-piles), players about to choose.
    Number(NumberSetup),
    /// The anniversary variant at an explicit table (with the special cards), players about to
    /// choose.
    Anniversary(AnniversarySetup),
    /// The Pro variant at an explicit table after its draft (a question's only): the classic
    /// game a Pro game plays once its hands are drafted, with the deck cut for its seats
    /// ([`pro::table_rules`]).
    ProTable(Table),
}

impl Start {
    /// How the game starts, in words (a transcript's setup line).
    pub fn described(&self) -> String {
        match self {
            Start::Table(_) | Start::Number(_) | Start::Anniversary(_) => {
                "the table given".to_string()
            }
            Start::ProTable(_) => {
                "the table given, after the draft (the cards 1 to players x hand_size + rows)"
                    .into()
            }
            Start::Seeded { seed, deal_number } => {
                format!("round 1 dealt from seed {seed}, deal number {deal_number}")
            }
            Start::Empty => "nothing dealt yet".to_string(),
            Start::Circle(setup) => circle::fixture::described(setup),
        }
    }
}

/// Reads a setup's cards: each in the deck, none twice on the table.
pub struct CardReader<'r> {
    rules: &'r Rules,
    /// Where each card read so far is written.
    seen: HashMap<Card, Location>,
}

impl<'r> CardReader<'r> {
    pub fn new(rules: &'r Rules) -> CardReader<'r> {
        CardReader {
            rules,
            seen: HashMap::new(),
        }
    }

    pub fn cards(&mut self, list: &Cards) -> Result<Vec<Card>, SetupError> {
        list.iter()
            .map(|card| {
                let deck = &self.rules.deck;
                if !deck.contains(card.value) {
                    return fail(
                        card,
                        format!(
                            "card {} is not in the deck ({} to {})",
                            card.value,
                            deck.lowest,
                            deck.highest()
                        ),
                    );
                }
                if let Some(first) = self.seen.get(&card.value) {
                    return fail(
                        card,
                        format!(
                            "card {} is already on the table at {}:{}",
                            card.value,
                            first.line(),
                            first.column()
                        ),
                    );
                }
                if card.referenced.line() > 0 {
                    self.seen.insert(card.value, card.referenced);
                }
                Ok(card.value)
            })
            .collect()
    }

    /// The cards of each list, in order.
    pub fn lists(&mut self, lists: &CardLists) -> Result<Vec<Vec<Card>>, SetupError> {
        lists.value.iter().map(|l| self.cards(&l.value)).collect()
    }
}

/// A setup's table as given, for a variant's part to check and build.
pub struct TableInput<'a> {
    pub setup: &'a Spanned<SetupFile>,
    pub rows: &'a CardLists,
    pub hands: &'a CardLists,
    pub rules: &'a Arc<Rules>,
    pub seats: usize,
    /// Whether the fixture plays with a house script (which may end a game its own way).
    pub housed: bool,
    pub cards: CardReader<'a>,
}

/// What a `setup` is read for: the variant, its rules, its seats, and whether a house script
/// plays (which may end a game its own way).
#[derive(Clone, Copy)]
pub struct SetupFor<'a> {
    pub variant: Variant,
    pub rules: &'a Arc<Rules>,
    pub seats: usize,
    pub housed: bool,
}

/// A setup's fields another variant reads, refused with where the first is written.
fn foreign_fields(variant: Variant, s: &SetupFile) -> Result<(), SetupError> {
    let refuse = |at: Location, message: &str| {
        Err(SetupError {
            at,
            message: message.into(),
        })
    };
    if variant != Variant::Circle
        && let Some(at) = s.circle.given()
    {
        return refuse(at, circle::fixture::ONLY);
    }
    if !matches!(variant, Variant::Circle | Variant::Anniversary)
        && let Some(specials) = &s.specials
    {
        return fail(
            specials,
            "`specials` sets up the circle game (by row) and the anniversary variant (by \
             seat) only",
        );
    }
    if variant != Variant::Anniversary
        && let Some(at) = s.anniversary.given()
    {
        return refuse(at, anniversary::fixture::ONLY);
    }
    if variant != Variant::TakeANumber
        && let Some(at) = s.take_a_number.given()
    {
        return refuse(at, take_a_number::fixture::ONLY);
    }
    Ok(())
}

/// The start a `setup` gives `variant`, checked (not yet by the engine).
fn setup(of: SetupFor, setup: &Spanned<SetupFile>) -> Result<Start, SetupError> {
    let SetupFor {
        variant,
        rules,
        seats,
        housed,
    } = of;
    let s = &setup.value;
    foreign_fields(variant, s)?;
    let explicit = s.round.is_some()
        || s.turn.is_some()
        || s.rows.is_some()
        || s.hands.is_some()
        || s.scores.is_some()
        || s.piles.is_some()
        || s.specials.is_some()
        || s.circle.given().is_some()
        || s.take_a_number.given().is_some()
        || s.anniversary.given().is_some();
    if let Some(seed) = s.seed {
        if explicit {
            return fail(
                setup,
                "a setup is either a `seed` or a table (`rows`, `hands`, ...), not both",
            );
        }
        return Ok(Start::Seeded {
            seed,
            deal_number: s.deal_number.unwrap_or(0),
        });
    }
    if s.deal_number.is_some() {
        return fail(setup, "`deal_number` needs a `seed`");
    }
    let (Some(rows), Some(hands)) = (&s.rows, &s.hands) else {
        return fail(
            setup,
            "a setup needs `rows` and `hands` (or a `seed` for a random deal)",
        );
    };
    let mut input = TableInput {
        setup,
        rows,
        hands,
        rules,
        seats,
        housed,
        cards: CardReader::new(rules),
    };
    match variant {
        Variant::Classic | Variant::Pro => {
            let shape = classic::fixture::TableShape::classic(rules);
            classic::fixture::table(&mut input, &shape).map(Start::Table)
        }
        Variant::TakeANumber => take_a_number::fixture::setup(&mut input).map(Start::Number),
        Variant::Circle => circle::fixture::setup(&mut input).map(Start::Circle),
        Variant::Anniversary => anniversary::fixture::setup(&mut input).map(Start::Anniversary),
    }
}

/// The start of a fixture with `steps` from its `setup`: checked, and accepted by the engine.
pub fn steps_start(of: SetupFor, setup: &Spanned<SetupFile>) -> Result<Start, SetupError> {
    let start = self::setup(of, setup)?;
    if let Start::Table(_) = &start
        && of.variant == Variant::Pro
    {
        return fail(setup, pro::fixture::NO_TABLE);
    }
    engine_accepts(&start, setup, of.rules)?;
    Ok(start)
}

/// The engine must accept a table set up: its own checks, named at the `setup`.
fn engine_accepts(
    start: &Start,
    setup: &Spanned<SetupFile>,
    rules: &Arc<Rules>,
) -> Result<(), SetupError> {
    let refused = match start {
        Start::Circle(circle) => Circle::from_setup(rules.clone(), circle).err(),
        Start::Number(number) => TakeANumber::from_table(rules.clone(), number).err(),
        Start::Anniversary(table) => Anniversary::from_table(rules.clone(), table).err(),
        Start::Table(table) => Classic::from_table(rules.clone(), table).err(),
        Start::ProTable(table) => pro::fixture::after_draft(rules, table).err(),
        Start::Seeded { .. } | Start::Empty => None,
    };
    match refused {
        Some(e) => fail(setup, format!("the engine refuses this setup: {e}")),
        None => Ok(()),
    }
}

/// A question's `setup` leaves out what the question says itself (whose turn it is).
pub fn question_fields(s: &SetupFile) -> Result<(), SetupError> {
    circle::fixture::question_fields(s)
}

/// Why `variant` refuses `goes: low` in a question, if it does.
pub fn no_low_card(variant: Variant) -> Option<&'static str> {
    match variant {
        Variant::Circle => Some(circle::fixture::NO_LOW_CARD),
        _ => None,
    }
}

/// A question's table: the `setup`'s with the hands filled in when it gives none (the seat's
/// card in its hand, and every other seat one free card above it, the highest free ones, so
/// that they are placed after it; in Take a Number each #-row one of the lowest free cards
/// when `hash_rows` is left out; in the circle game, where it is the seat's turn, the others
/// hold one of the highest free cards each and play nothing), checked as any setup is and
/// accepted by the engine; and the other seats' cards, played after `seat`'s `card`. What is
/// filled in is named, in errors, at the question's card.
pub fn question(
    of: SetupFor,
    setup: &Spanned<SetupFile>,
    card: &Spanned<Card>,
    seat: Seat,
) -> Result<(Start, Vec<(Seat, Card)>), SetupError> {
    let SetupFor {
        variant,
        rules,
        seats,
        ..
    } = of;
    let s = &setup.value;
    let like = card;
    let card = card.value;
    let in_turns = variant == Variant::Circle;
    // A Pro table is the classic game the Pro state plays once its hands are drafted.
    let table_rules = match variant {
        Variant::Pro => Arc::new(pro::table_rules(rules, seats)),
        _ => rules.clone(),
    };
    let lists = [
        &s.rows,
        &s.hands,
        &s.piles,
        &s.take_a_number.hash_rows,
        &s.take_a_number.hash_piles,
    ];
    let mut used: HashSet<Card> = lists
        .into_iter()
        .flatten()
        .flat_map(|lists| &lists.value)
        .flat_map(|list| &list.value)
        .map(|card| card.value)
        .collect();
    used.insert(card);
    let free = |used: &HashSet<Card>| -> Vec<Card> {
        let deck = table_rules.deck.cards();
        deck.filter(|c| !used.contains(c)).collect()
    };
    if !table_rules.deck.contains(card) {
        return fail(
            like,
            format!(
                "card {card} is not in the deck ({} to {})",
                table_rules.deck.lowest,
                table_rules.deck.highest()
            ),
        );
    }
    let mut filled = s.clone();
    let others = match &s.hands {
        Some(hands) => {
            one_a_seat(hands, seats, "hand")?;
            let hand = &hands.value[seat];
            if !hand.value.iter().any(|c| c.value == card) {
                return fail(
                    like,
                    format!("card {card} is not in seat {seat}'s hand (the setup's `hands`)"),
                );
            }
            match in_turns {
                true => Vec::new(),
                false => classic::fixture::question_others(hands, seat, card)?,
            }
        }
        None if in_turns => {
            circle::fixture::question_hands(&mut filled, like, seat, seats, free(&used));
            Vec::new()
        }
        None => {
            let (free, hand_size) = (free(&used), table_rules.hand_size);
            let others =
                classic::fixture::question_hands(&mut filled, like, seat, seats, free, hand_size)?;
            used.extend(others.iter().map(|&(_, card)| card));
            others
        }
    };
    if variant == Variant::TakeANumber {
        take_a_number::fixture::question_hash_rows(&mut filled, setup, like, seats, free(&used))?;
    }
    if in_turns {
        circle::fixture::question_turn(&mut filled, like, seat);
    }
    let filled = Spanned::new(filled, setup.referenced, setup.defined);
    let table_of = SetupFor {
        rules: &table_rules,
        ..of
    };
    let start = match self::setup(table_of, &filled)? {
        Start::Table(table) if variant == Variant::Pro => Start::ProTable(table),
        start => start,
    };
    engine_accepts(&start, setup, rules)?;
    Ok((start, others))
}

/// `value`, named where `like` is written (a value a question fills in).
pub fn spanned<T>(value: T, like: &Spanned<Card>) -> Spanned<T> {
    Spanned::new(value, like.referenced, like.defined)
}

/// How a deck given in a `deal` step is cut: each seat's hand size, and the cards after the
/// hands that start rows.
pub fn deal_shape(variant: Variant, rules: &Rules, seats: usize) -> (usize, usize) {
    let (hand_size, rows) = rules.deal_size(seats);
    match variant {
        Variant::TakeANumber => (hand_size, take_a_number::fixture::dealt_rows(rows, seats)),
        _ => (hand_size, rows),
    }
}

/// The game of `variant` at `start`, and the generator that deals its seeded first round (the
/// caller deals it, after setting its house rules). The error says why the engine refuses it.
pub fn new_game(
    variant: Variant,
    start: &Start,
    rules: &Arc<Rules>,
    seats: usize,
) -> Result<(AnyGame, Option<GameRng>), String> {
    let built = |game: Result<AnyGame, RuleError>| match game {
        Ok(game) => Ok((game, None)),
        Err(e) => Err(e.to_string()),
    };
    let new_game = || {
        variant
            .new_game(rules.clone(), seats)
            .map_err(|e| e.to_string())
    };
    match (start, variant) {
        (Start::ProTable(table), Variant::Pro) => {
            built(pro::fixture::after_draft(rules, table).map(AnyGame::Classic))
        }
        (Start::ProTable(_), _) => Err("only a pro question is set up after a draft".into()),
        (Start::Table(table), Variant::Classic) => {
            built(Classic::from_table(rules.clone(), table).map(AnyGame::Classic))
        }
        (Start::Circle(setup), Variant::Circle) => {
            built(Circle::from_setup(rules.clone(), setup).map(AnyGame::Circle))
        }
        (Start::Table(_) | Start::Seeded { .. }, Variant::Pro) => {
            Err("a pro game starts with its draft: a pro fixture has no setup".into())
        }
        (Start::Number(setup), Variant::TakeANumber) => {
            built(TakeANumber::from_table(rules.clone(), setup).map(AnyGame::TakeANumber))
        }
        (Start::Table(_), Variant::TakeANumber) => {
            Err("a take-a-number table is set up with its #-rows and #-piles".into())
        }
        (Start::Number(_), _) => Err("only Take a Number is set up with #-rows and #-piles".into()),
        (Start::Table(_), Variant::Circle) => Err("a circle table is set up as a circle".into()),
        (Start::Circle(_), _) => Err("only the circle game is set up as a circle".into()),
        (Start::Anniversary(setup), Variant::Anniversary) => {
            built(Anniversary::from_table(rules.clone(), setup).map(AnyGame::Anniversary))
        }
        (Start::Table(_), Variant::Anniversary) => {
            Err("an anniversary table is set up with its special cards".into())
        }
        (Start::Anniversary(_), _) => {
            Err("only the anniversary variant is set up with its special cards".into())
        }
        (Start::Seeded { seed, deal_number }, _) => {
            let rng = GameRng::new(*seed, Stream::Deal(*deal_number));
            Ok((new_game()?, Some(rng)))
        }
        (Start::Empty, _) => Ok((new_game()?, None)),
    }
}

/// What a fixture can expect of a game beyond its [`View`](crate::game::View): the cards each
/// seat has taken this round and the variant's special cards.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// The cards each seat has taken this round (Take a Number: its #-pile).
    pub piles: Vec<Vec<Card>>,
    /// The circle game: the special cards in each row; empty otherwise.
    pub row_specials: Vec<Vec<Special>>,
    /// The circle game: the special cards each seat holds; empty otherwise.
    pub held: Vec<Vec<Special>>,
    /// The circle game: the special cards each seat has taken; empty otherwise.
    pub pile_specials: Vec<Vec<Special>>,
    /// The anniversary variant's special cards; `None` for the other variants.
    pub specials: Option<SpecialState>,
}

/// What `game` shows beyond its view, read off the variant.
pub fn extras(game: &AnyGame) -> Extras {
    match game {
        AnyGame::Classic(g) => Extras {
            piles: g.piles().to_vec(),
            ..Extras::default()
        },
        AnyGame::Pro(g) => Extras {
            piles: pro::fixture::piles(g),
            ..Extras::default()
        },
        AnyGame::TakeANumber(g) => Extras {
            // The #-piles are Take a Number's piles.
            piles: g.hash_piles().to_vec(),
            ..Extras::default()
        },
        AnyGame::Circle(g) => Extras {
            piles: g.piles().to_vec(),
            row_specials: g.row_specials().to_vec(),
            held: g.held().to_vec(),
            pile_specials: g.pile_specials().to_vec(),
            specials: None,
        },
        AnyGame::Anniversary(g) => Extras {
            piles: g.piles().to_vec(),
            specials: Some(SpecialState::of(g)),
            ..Extras::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(yaml: &str) -> Result<SetupFile, serde_saphyr::Error> {
        serde_saphyr::from_str(yaml)
    }

    fn place(at: Location) -> (u64, u64) {
        (at.line(), at.column())
    }

    #[test]
    fn each_variants_fields_are_read_into_its_group_with_their_places() {
        let s = parse("rows: [[1]]\nheld: [[x2]]\nhash_rows: [[5]]\nreshuffle_seed: 7\n").unwrap();
        assert_eq!(s.rows.map(|r| place(r.referenced)), Some((1, 7)));
        assert_eq!(s.circle.given().map(place), Some((2, 7)));
        assert_eq!(s.take_a_number.given().map(place), Some((3, 12)));
        assert_eq!(
            s.anniversary.reshuffle_seed.as_ref().map(|seed| seed.value),
            Some(7)
        );
        assert_eq!(s.anniversary.given().map(place), Some((4, 17)));
    }

    #[test]
    fn an_unknown_setup_field_is_named_with_every_field_common_ones_first() {
        let e = parse("rows: [[1]]\nhel: []\n").unwrap_err();
        assert_eq!(e.location().map(place), Some((2, 1)));
        assert!(
            e.without_snippet().to_string().starts_with(
                "unknown field `hel`, expected one of seed, deal_number, round, turn, rows, \
                 hands, scores, piles, specials, held, first, hash_rows, hash_piles, \
                 special_deck, discard, stops, sevens, reshuffle_seed"
            ),
            "{e}"
        );
    }

    #[test]
    fn another_variants_field_is_refused_where_it_is_written() {
        let text = "rows: [[10], [20], [30], [40]]\nhands: [[25], [50]]\nhash_piles: [[], []]\n";
        let setup = Spanned::new(parse(text).unwrap(), Location::UNKNOWN, Location::UNKNOWN);
        let rules = Arc::new(Variant::Classic.rules());
        let of = SetupFor {
            variant: Variant::Classic,
            rules: &rules,
            seats: 2,
            housed: false,
        };
        let e = self::setup(of, &setup).unwrap_err();
        assert_eq!(
            (place(e.at), e.message.as_str()),
            ((3, 13), take_a_number::fixture::ONLY)
        );
    }
}
