//! The 6 nimmt! anniversary variant (rulebook 003, "6 nimmt! Anniversary Variant With New
//! Special Cards"), 2-8 players: the classic game over two rounds, plus 28 special cards (4 each
//! of 5th Row, 7 nimmt!, Insert, Replace, Shift, Stop, Negative = Positive).
//!
//! Each seat gets 12 number cards and 3 special cards; the other special cards are a face-down
//! deck. Turns go as in classic; each time a revealed card is about to be placed, its player may
//! play one special card ([`Decision::Special`], asked only when it holds one it may play now).
//! When a seat is about to take a row and holds Negative = Positive it is asked whether to use it
//! ([`Decision::Cancel`]); after taking a row it may swap a special card for the top of the deck
//! ([`Decision::Swap`]). In round 2 every number card is dealt again, and each seat gets three
//! more special cards (fewer when the deck is short). Every ruling is in docs/rulings.md. House
//! rules may change the special deck, the cards dealt per round and whether swapping is allowed
//! ([`crate::rules::AnniversaryRules`]).
//!
//! Placement by least difference, the order of the revealed cards and the deal's checks are the
//! classic engine's ([`super::classic`]).

pub mod fixture;

use super::classic::{
    Table, check_cards, check_hands, check_table, game_over, lay_out, order_by_card, row_for,
};
use crate::cards::{Card, Deck, Special};
use crate::game::clone_field_by_field;
use crate::game::house::{Arg, Hook, Hooks, HouseHooks, add_seat_points, table_view};
use crate::game::model::{Memory, Model, draw_hand, unseen_cards};
use crate::game::{
    Action, Deal, Decision, Event, EventSink, Family, Game, Outcome, Points, RuleError, Seat,
    SpecialDeal, SpecialPlay, SpecialTable, TakeReason, ToMove, View, check_seat, emit,
};
use crate::rng::{GameRng, Stream};
use crate::rules::{AnniversaryRules, Draft, GameEnd, Rules, RulesError, Ties};
use std::sync::Arc;

/// Rows a Stop card may block at the same time.
pub const MAX_STOPS: usize = 2;

/// The default rules: 104 cards, 4 rows of 5, 12 cards each, 2-8 players, two rounds.
pub fn rules() -> Rules {
    Rules {
        deck: Deck::classic(104),
        rows: 4,
        row_capacity: 5,
        hand_size: 12,
        min_players: 2,
        max_players: 8,
        end: GameEnd::Rounds(2),
        ties: Ties::Shared,
        draft: Draft::SeatOrder,
        circle: None,
        // The special cards (4 of each kind), 3 dealt per seat and round, swapping allowed:
        // `AnniversaryRules::default()`, left out of records.
        take_a_number: None,
        anniversary: None,
        pro: None,
    }
}

/// An anniversary table in the middle of a round, given explicitly (fixtures): the classic
/// table and where the special cards are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnniversarySetup {
    /// Round, turn, hands, rows, piles and earlier totals, as classic's. One row more than the
    /// rules have means a 5th Row card is on the table: the last row is the 5th row.
    pub table: Table,
    /// Each seat's special cards, in any order.
    pub specials: Vec<Vec<Special>>,
    /// The face-down special deck, top card first.
    pub special_deck: Vec<Special>,
    /// The discard pile, oldest first.
    pub discard: Vec<Special>,
    /// The rows with a Stop card.
    pub stops: Vec<usize>,
    /// The rows with a 7 nimmt! card.
    pub sevens: Vec<usize>,
    /// Seeds the generator that reshuffles the discard pile, as a deal's [`SpecialDeal::seed`].
    pub reshuffle_seed: u64,
}

/// Special cards must be the anniversary variant's kinds (not the circle game's). Says which is
/// not.
pub fn check_kinds<'a>(specials: impl IntoIterator<Item = &'a Special>) -> Result<(), String> {
    match specials
        .into_iter()
        .find(|s| !Special::ANNIVERSARY.contains(s))
    {
        Some(other) => Err(format!(
            "{other} is not one of the anniversary variant's special cards"
        )),
        None => Ok(()),
    }
}

/// A scripted first round (`take5 play --deal`) must deal the variant's setup: three special
/// cards to each seat (`specials_dealt`), the other special cards (of the 28, or of the deck
/// the rules give) as the deck. A fixture may give any special cards instead, to set up a
/// situation; this is for games that claim to be the rules'.
pub fn check_first_deal(rules: &Rules, deal: &Deal) -> Result<(), String> {
    let own = rules.anniversary_rules();
    let Some(specials) = &deal.specials else {
        return Err(format!(
            "the anniversary variant deals {} special cards to each seat in round 1, and the \
             others as the deck: give them as `specials: {{hands: [...], deck: [...]}}`",
            own.specials_dealt
        ));
    };
    let dealt = own
        .specials_dealt
        .min(own.deck_size() / specials.hands.len().max(1));
    if let Some((seat, hand)) = specials
        .hands
        .iter()
        .enumerate()
        .find(|(_, hand)| hand.len() != dealt)
    {
        return Err(format!(
            "seat {seat} gets {} special cards, the anniversary variant deals {dealt} to each \
             seat in round 1",
            hand.len()
        ));
    }
    let all = own.deck_size();
    let given = specials.hands.iter().map(Vec::len).sum::<usize>() + specials.deck.len();
    if given != all {
        return Err(format!(
            "{given} special cards given (the hands and the deck), the anniversary variant has \
             {all} ({})",
            copies_list(&own)
        ));
    }
    let all = specials.hands.iter().flatten().chain(&specials.deck);
    check_copies(&own, all.copied()).map_err(|e| e.to_string())
}

/// "4 fifth_row, 4 seven_nimmt, ...": the special deck the rules give.
fn copies_list(own: &AnniversaryRules) -> String {
    let kinds = own.specials.iter().map(|(s, n)| format!("{n} {s}"));
    kinds.collect::<Vec<_>>().join(", ")
}

/// At most as many of each kind among `all` as the special deck has (4 by default): the
/// special cards of every place (the hands, the deck, the discard pile and the table), all of
/// the anniversary's kinds.
fn check_copies(
    own: &AnniversaryRules,
    all: impl Iterator<Item = Special>,
) -> Result<(), RuleError> {
    let mut counts = [0; Special::ANNIVERSARY.len()];
    for special in all {
        counts[special as usize] += 1;
    }
    match Special::ANNIVERSARY
        .iter()
        .find(|&&s| counts[s as usize] > own.copies(s))
    {
        Some(special) => Err(RuleError::BadDeal(format!(
            "{} {special} cards among the hands, the deck, the discard pile and the table; \
             there are {}",
            counts[*special as usize],
            own.copies(*special)
        ))),
        None => Ok(()),
    }
}

/// The rows of `rows` under a `card` (a Stop or a 7 nimmt!), by row, from the rows `marked`
/// names: each in range, none twice (one card of a kind per row). Otherwise the index in
/// `marked` of the first wrong entry, and why.
pub fn marked_rows(
    marked: &[usize],
    rows: usize,
    card: &str,
) -> Result<Vec<bool>, (usize, String)> {
    let mut marks = vec![false; rows];
    for (i, &row) in marked.iter().enumerate() {
        match marks.get_mut(row) {
            None => {
                let why = format!(
                    "a {card} card on row {row}, and the rows are 0 to {}",
                    rows - 1
                );
                return Err((i, why));
            }
            Some(true) => return Err((i, format!("two {card} cards on row {row}"))),
            Some(mark) => *mark = true,
        }
    }
    Ok(marks)
}

/// `stops` rows blocked at once among `rows`: at most [`MAX_STOPS`], and one row stays open
/// (a Stop is refused otherwise, and every take lifts them all).
pub fn check_stops(stops: usize, rows: usize) -> Result<(), String> {
    if stops > MAX_STOPS {
        Err(format!(
            "{stops} rows blocked by Stop cards: at most {MAX_STOPS} are at once"
        ))
    } else if stops >= rows {
        Err("every row is blocked by a Stop card: one always stays open".into())
    } else {
        Ok(())
    }
}

/// How the card being placed takes a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Taking {
    /// The card would be one too many for `row` (`Full`), or it is a low card and its player
    /// chose `row` (`Low`): the card starts the row again.
    End { row: usize, reason: TakeReason },
    /// Insert into a full row: the card goes to place `at`, the row is taken and its last card
    /// starts it again.
    Insert { row: usize, at: usize },
}

impl Taking {
    fn row(self) -> usize {
        match self {
            Taking::End { row, .. } | Taking::Insert { row, .. } => row,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Deal,
    /// Players choose; `pending` of them have not yet.
    Choose {
        pending: usize,
    },
    /// `seat`'s revealed `card` is about to be placed: a special card or a pass is due.
    Special {
        seat: Seat,
        card: Card,
    },
    /// `seat`'s low card `card` waits for a row.
    ChooseRow {
        seat: Seat,
        card: Card,
    },
    /// `seat`, placing `card`, is about to take a row and may play Negative = Positive.
    Cancel {
        seat: Seat,
        card: Card,
        taking: Taking,
    },
    /// `seat` took a row and may swap a special card.
    Swap {
        seat: Seat,
    },
    Over,
}

/// The state of an anniversary game.
#[derive(Debug)]
pub struct Anniversary {
    rules: Arc<Rules>,
    seats: usize,
    phase: Phase,
    round: u32,
    turn: u32,
    hands: Vec<Vec<Card>>,
    rows: Vec<Vec<Card>>,
    /// Each seat's special cards, sorted by kind (a seat sees only its own).
    special_hands: Vec<Vec<Special>>,
    /// What every seat may see of the special cards.
    table: SpecialTable,
    /// The face-down special deck, top card first.
    deck: Vec<Special>,
    /// Reshuffles the discard pile into a new deck (seeded by each deal). Boxed: a generator is
    /// large, and [`crate::variants::AnyGame`] is as large as its largest variant.
    reshuffler: Box<GameRng>,
    /// Cards taken this round, by seat.
    piles: Vec<Vec<Card>>,
    /// Bullheads taken this round (after Negative = Positive), by seat.
    taken: Vec<Points>,
    scores: Vec<Points>,
    /// This turn's cards by seat; meaningful for seats `chosen` says.
    played: Vec<Card>,
    chosen: Vec<bool>,
    /// Whether the turn's cards are face up.
    revealed: bool,
    order: Vec<Seat>,
    next: usize,
    ordered_deck: Vec<Card>,
    /// House rules' hooks, if any.
    house: Hooks,
}

/// Whether `card` may go to place `at` of `row` and keep it ascending.
fn fits(row: &[Card], at: usize, card: Card) -> bool {
    at <= row.len() && (at == 0 || row[at - 1] < card) && (at == row.len() || card < row[at])
}

/// Checks `play` by the seat of `view` for its revealed `card`: the seat must hold the special
/// card, and the arguments must fit the table (docs/rulings.md lists why each is refused).
pub fn check_play(view: &View, card: Card, play: SpecialPlay) -> Result<(), RuleError> {
    match refusal(view, card, play) {
        None => Ok(()),
        Some(why) => Err(why.rule_error(view.seat, play.card())),
    }
}

/// Why a special card cannot be played so. Kept apart from its message, so that listing the
/// legal plays ([`legal_plays`]) formats nothing.
#[derive(Clone, Copy, Debug)]
enum Refusal {
    NotHeld,
    NoSuchRow { row: usize, rows: usize },
    NotInHand(Card),
    FiveRows,
    Stopped(usize),
    StoppedAlready(usize),
    SevenAlready(usize),
    NotAscending { card: Card, row: usize, at: usize },
    InNoRow(Card),
    SameRow { card: Card, row: usize },
    OnlyCard { card: Card, row: usize },
    Full(usize),
    TooManyStops,
    LastOpenRow,
}

impl Refusal {
    fn rule_error(self, seat: Seat, special: Special) -> RuleError {
        let why = match self {
            Refusal::NotHeld => return RuleError::SpecialNotInHand { seat, special },
            Refusal::NoSuchRow { row, rows } => return RuleError::NoSuchRow { row, rows },
            Refusal::NotInHand(card) => return RuleError::NotInHand { seat, card },
            Refusal::FiveRows => "there are five rows already".to_string(),
            Refusal::Stopped(row) => format!("row {row} is blocked by a Stop card"),
            Refusal::StoppedAlready(row) => format!("row {row} is blocked already"),
            Refusal::SevenAlready(row) => format!("row {row} has a 7 nimmt! card already"),
            Refusal::NotAscending { card, row, at } => {
                format!("{card} at place {at} of row {row} breaks its ascending order")
            }
            Refusal::InNoRow(card) => format!("{card} is in no row"),
            Refusal::SameRow { card, row } => format!("{card} is in row {row} already"),
            Refusal::OnlyCard { card, row } => format!("{card} is the only card of row {row}"),
            Refusal::Full(row) => format!("row {row} is full"),
            Refusal::TooManyStops => format!("{MAX_STOPS} rows are blocked already"),
            Refusal::LastOpenRow => "it would block the last open row".to_string(),
        };
        RuleError::BadSpecial { seat, special, why }
    }
}

/// Why the seat of `view` cannot play `play` for its revealed `card`; `None` if it can.
fn refusal(view: &View, card: Card, play: SpecialPlay) -> Option<Refusal> {
    if !view.special_hand.contains(&play.card()) {
        return Some(Refusal::NotHeld);
    }
    let rows = view.rows.len();
    let open = |row: usize| {
        if row >= rows {
            Some(Refusal::NoSuchRow { row, rows })
        } else if view.stopped(row) {
            Some(Refusal::Stopped(row))
        } else {
            None
        }
    };
    let ascending = |card: Card, row: usize, at: usize| {
        (!fits(&view.rows[row], at, card)).then_some(Refusal::NotAscending { card, row, at })
    };
    match play {
        SpecialPlay::FifthRow => (rows > view.rules.rows).then_some(Refusal::FiveRows),
        SpecialPlay::SevenNimmt { row } => {
            let row = usize::from(row);
            open(row).or_else(|| {
                (view.capacity(row) > view.rules.row_capacity).then_some(Refusal::SevenAlready(row))
            })
        }
        SpecialPlay::Insert { row, at } => {
            let (row, at) = (usize::from(row), usize::from(at));
            open(row).or_else(|| ascending(card, row, at))
        }
        SpecialPlay::Replace { card: instead } => view
            .hand
            .binary_search(&instead)
            .is_err()
            .then_some(Refusal::NotInHand(instead)),
        SpecialPlay::Shift {
            card: moved,
            row: to,
            at,
        } => {
            let (to, at) = (usize::from(to), usize::from(at));
            let Some(from) = view.rows.iter().position(|r| r.contains(&moved)) else {
                return Some(Refusal::InNoRow(moved));
            };
            open(from)
                .or_else(|| open(to))
                .or_else(|| {
                    (from == to).then_some(Refusal::SameRow {
                        card: moved,
                        row: to,
                    })
                })
                .or_else(|| {
                    (view.rows[from].len() == 1).then_some(Refusal::OnlyCard {
                        card: moved,
                        row: from,
                    })
                })
                .or_else(|| (view.rows[to].len() >= view.capacity(to)).then_some(Refusal::Full(to)))
                .or_else(|| ascending(moved, to, at))
        }
        SpecialPlay::Stop { row } => {
            let stops = (0..rows).filter(|&r| view.stopped(r)).count();
            match open(usize::from(row)) {
                Some(Refusal::Stopped(row)) => Some(Refusal::StoppedAlready(row)),
                Some(other) => Some(other),
                None if stops >= MAX_STOPS => Some(Refusal::TooManyStops),
                None if stops + 1 >= rows => Some(Refusal::LastOpenRow),
                None => None,
            }
        }
    }
}

/// Every legal way for the seat of `view` to play `special` before placing its revealed
/// `card`, lazily (Negative = Positive is never played here: it is played while taking).
pub fn legal_plays<'v>(
    view: &'v View,
    card: Card,
    special: Special,
) -> impl Iterator<Item = SpecialPlay> + 'v {
    let rows = view.rows.len();
    let at_rows = move |make: fn(u8) -> SpecialPlay| (0..rows).map(move |row| make(byte(row)));
    let candidates: Box<dyn Iterator<Item = SpecialPlay> + 'v> = match special {
        Special::FifthRow => Box::new(std::iter::once(SpecialPlay::FifthRow)),
        Special::SevenNimmt => Box::new(at_rows(|row| SpecialPlay::SevenNimmt { row })),
        Special::Stop => Box::new(at_rows(|row| SpecialPlay::Stop { row })),
        Special::Insert => Box::new((0..rows).flat_map(move |row| {
            // The one place where the card fits.
            let at = view.rows[row].partition_point(|&c| c < card);
            std::iter::once(SpecialPlay::Insert {
                row: byte(row),
                at: byte(at),
            })
        })),
        Special::Replace => Box::new(
            view.hand
                .iter()
                .map(|&instead| SpecialPlay::Replace { card: instead }),
        ),
        Special::Shift => {
            // Only from an open row of two cards or more, to another open row with room: the
            // other candidates would all be refused.
            let from = (0..rows).filter(move |&r| !view.stopped(r) && view.rows[r].len() > 1);
            let to = move |from: usize| {
                (0..rows).filter(move |&r| {
                    r != from && !view.stopped(r) && view.rows[r].len() < view.capacity(r)
                })
            };
            Box::new(from.flat_map(move |from| {
                view.rows[from].iter().flat_map(move |&moved| {
                    to(from).map(move |row| SpecialPlay::Shift {
                        card: moved,
                        row: byte(row),
                        at: byte(view.rows[row].partition_point(|&c| c < moved)),
                    })
                })
            }))
        }
        // Negative = Positive is played while taking; x2 and +5 are the circle game's.
        Special::NegativePositive | Special::Double | Special::PlusFive => {
            Box::new(std::iter::empty())
        }
    };
    candidates.filter(move |&play| refusal(view, card, play).is_none())
}

/// A row or a place as a special card play names it: [`Anniversary::new`] refuses rules with
/// rows or places past a byte.
pub(crate) fn byte(n: usize) -> u8 {
    u8::try_from(n).expect("rows and places below 256 (Anniversary::new)")
}

impl Anniversary {
    /// A new game waiting for its first deal.
    pub fn new(rules: Arc<Rules>, seats: usize) -> Result<Anniversary, RulesError> {
        rules.validate()?;
        rules.check_players(seats)?;
        // A special card names a row (the 5th Row card's is `rows`) and a place in a row (up
        // to the row's length, one more than `row_capacity` under a 7 nimmt! card) in a byte.
        let byte = usize::from(u8::MAX);
        if rules.rows > byte {
            return Err(RulesError {
                setting: "rows",
                problem: format!("the anniversary variant has at most {byte} rows"),
            });
        }
        if rules.row_capacity >= byte {
            return Err(RulesError {
                setting: "row_capacity",
                problem: format!(
                    "the anniversary variant's rows hold at most {} cards",
                    byte - 1
                ),
            });
        }
        let per_seat = || (0..seats).map(|_| Vec::new()).collect::<Vec<_>>();
        Ok(Anniversary {
            seats,
            phase: Phase::Deal,
            round: 0,
            turn: 0,
            hands: per_seat(),
            rows: vec![Vec::new(); rules.rows],
            special_hands: vec![Vec::new(); seats],
            table: SpecialTable {
                hand_counts: vec![0; seats],
                sevens: vec![false; rules.rows],
                stops: vec![false; rules.rows],
                deck: 0,
                discard: Vec::new(),
                taking: Vec::new(),
            },
            deck: Vec::new(),
            reshuffler: Box::new(GameRng::new(0, Stream::Deal(0))),
            piles: per_seat(),
            taken: vec![0; seats],
            scores: vec![0; seats],
            played: vec![Card(0); seats],
            chosen: vec![false; seats],
            revealed: false,
            order: Vec::with_capacity(seats),
            next: 0,
            ordered_deck: rules.deck.cards().collect(),
            house: Hooks::default(),
            rules,
        })
    }

    /// A game at an explicit table, with players about to choose their cards. Each seat's
    /// `taken` is its pile's bullheads, as the engine counts a take (the table does not say
    /// whether Negative = Positive was played earlier in the round: it starts as if not).
    pub fn from_table(
        rules: Arc<Rules>,
        setup: &AnniversarySetup,
    ) -> Result<Anniversary, RuleError> {
        let table = &setup.table;
        let seats = table.hands.len();
        let mut game =
            Anniversary::new(rules, seats).map_err(|e| RuleError::BadDeal(e.to_string()))?;
        let bad = |why: String| Err(RuleError::BadDeal(why));
        if setup.specials.len() != seats {
            return bad(format!(
                "{seats} hands but special cards for {} seats",
                setup.specials.len()
            ));
        }
        let (rows, limit) = (table.rows.len(), game.rules.rows);
        if rows != limit && rows != limit + 1 {
            return bad(format!(
                "{rows} rows given, the rules have {limit} ({} with a 5th Row card)",
                limit + 1
            ));
        }
        let marks = |marked: &[usize], card: &str| {
            marked_rows(marked, rows, card).map_err(|(_, why)| RuleError::BadDeal(why))
        };
        let sevens = marks(&setup.sevens, "7 nimmt!")?;
        let stops = marks(&setup.stops, "Stop")?;
        check_stops(setup.stops.len(), rows).map_err(RuleError::BadDeal)?;
        // A row under a 7 nimmt! card holds one card more (as `View::capacity` counts it).
        let capacities: Vec<usize> = sevens
            .iter()
            .map(|&seven| game.rules.row_capacity + usize::from(seven))
            .collect();
        check_table(&game.rules, table, &capacities)?;
        let in_hands = setup.specials.iter().flatten();
        check_kinds(in_hands.chain(&setup.special_deck).chain(&setup.discard))
            .map_err(RuleError::BadDeal)?;
        game.round = table.round;
        game.turn = table.turn;
        game.rows = vec![Vec::new(); rows];
        // The anniversary keeps no row ends (a Stop changes which ends count).
        let mut ends = vec![Card(0); rows];
        lay_out(table, &mut game.hands, &mut game.rows, &mut ends);
        for seat in 0..seats {
            game.piles[seat].clone_from(&table.piles[seat]);
            game.taken[seat] = game.rules.deck.sum(&table.piles[seat]) as Points;
            for &special in &setup.specials[seat] {
                game.give(seat, special);
            }
        }
        game.scores.copy_from_slice(&table.scores);
        game.table.sevens = sevens;
        game.table.stops = stops;
        game.deck.clone_from(&setup.special_deck);
        game.table.deck = game.deck.len();
        game.table.discard.clone_from(&setup.discard);
        let placed = game.special_hands.iter().flatten().chain(&game.deck);
        let own = game.rules.anniversary_rules();
        check_copies(
            &own,
            (placed.chain(&game.table.discard).copied()).chain(game.on_table()),
        )?;
        *game.reshuffler = GameRng::new(setup.reshuffle_seed, Stream::Deal(0));
        game.phase = Phase::Choose { pending: seats };
        Ok(game)
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    pub fn rows(&self) -> &[Vec<Card>] {
        &self.rows
    }

    /// Cards taken this round, by seat (Negative = Positive changes the bullheads, not these).
    pub fn piles(&self) -> &[Vec<Card>] {
        &self.piles
    }

    /// Each seat's special cards, sorted by kind.
    pub fn special_hands(&self) -> &[Vec<Special>] {
        &self.special_hands
    }

    /// What every seat may see of the special cards.
    pub fn specials(&self) -> &SpecialTable {
        &self.table
    }

    /// The face-down special deck, top card first.
    pub fn special_deck(&self) -> &[Special] {
        &self.deck
    }

    /// A row's capacity: the cards it holds before the next card takes it.
    fn capacity(&self, row: usize) -> usize {
        self.view(0).capacity(row)
    }

    fn five_rows(&self) -> bool {
        self.rows.len() > self.rules.rows
    }

    /// The row a card goes to by least difference among the rows no Stop blocks; `None` for a
    /// low card.
    fn target(&self, card: Card) -> Option<usize> {
        // A blocked row's end is above every card, so it is never the row below a card.
        let ends: Vec<Card> = self
            .rows
            .iter()
            .zip(&self.table.stops)
            .map(|(row, &stop)| {
                if stop {
                    Card(u16::MAX)
                } else {
                    row[row.len() - 1]
                }
            })
            .collect();
        row_for(&ends, card)
    }

    fn holds(&self, seat: Seat, special: Special) -> bool {
        self.special_hands[seat].contains(&special)
    }

    fn give(&mut self, seat: Seat, special: Special) {
        let hand = &mut self.special_hands[seat];
        let at = hand.partition_point(|&s| s < special);
        hand.insert(at, special);
        self.table.hand_counts[seat] = hand.len();
    }

    fn remove(&mut self, seat: Seat, special: Special) {
        let hand = &mut self.special_hands[seat];
        let at = hand.iter().position(|&s| s == special).expect("checked");
        hand.remove(at);
        self.table.hand_counts[seat] = hand.len();
    }

    /// Whether `seat` holds a special card it could play before placing its revealed `card`.
    fn may_play_special(&self, seat: Seat, card: Card) -> bool {
        let view = self.view(seat);
        let hand = view.special_hand;
        // Kinds are sorted: try each kind once.
        hand.iter().enumerate().any(|(i, &special)| {
            (i == 0 || hand[i - 1] != special) && legal_plays(&view, card, special).next().is_some()
        })
    }

    /// Plays `play` for `seat`'s `card` and places the card; returns whether the placement is
    /// done (otherwise a decision is due).
    fn play_special(
        &mut self,
        seat: Seat,
        card: Card,
        play: SpecialPlay,
        events: &mut dyn EventSink,
    ) -> bool {
        let special = play.card();
        self.remove(seat, special);
        emit(events, || Event::Special { seat, card, play });
        self.observe_special(seat, special, card);
        match play {
            SpecialPlay::FifthRow => {
                // The card stays beside the 5th row until there are four rows again.
                self.rows.push(vec![card]);
                self.table.sevens.push(false);
                self.table.stops.push(false);
                let row = self.rows.len() - 1;
                emit(events, || Event::Place { seat, card, row });
                true
            }
            SpecialPlay::SevenNimmt { row } => {
                // The card stays in the row's 7th place until the row is taken.
                self.table.sevens[usize::from(row)] = true;
                self.place(seat, card, events)
            }
            SpecialPlay::Insert { row, at } => {
                let (row, at) = (usize::from(row), usize::from(at));
                self.table.discard.push(special);
                if self.rows[row].len() >= self.capacity(row) {
                    self.begin_take(seat, card, Taking::Insert { row, at }, events)
                } else {
                    self.rows[row].insert(at, card);
                    true
                }
            }
            SpecialPlay::Replace { card: instead } => {
                self.table.discard.push(special);
                let hand = &mut self.hands[seat];
                hand.retain(|&c| c != instead);
                let at = hand.partition_point(|&c| c < card);
                hand.insert(at, card);
                self.place(seat, instead, events)
            }
            SpecialPlay::Shift {
                card: moved,
                row: to,
                at,
            } => {
                self.table.discard.push(special);
                for row in &mut self.rows {
                    row.retain(|&c| c != moved);
                }
                self.rows[usize::from(to)].insert(usize::from(at), moved);
                self.place(seat, card, events)
            }
            SpecialPlay::Stop { row } => {
                // The card blocks the row until the next row is taken.
                self.table.stops[usize::from(row)] = true;
                self.place(seat, card, events)
            }
        }
    }

    /// The row house rules' `low_card` gives `seat`'s low `card`, if it gives one it may take
    /// (not a Stop row).
    fn low_row_by_house(&mut self, seat: Seat, card: Card) -> Option<usize> {
        let row = self.house.low_card(&table_view!(self), seat, card);
        match self.house.latch(row, None) {
            Some(row) if self.table.stops[row] => {
                let why = format!("chose row {row}, which a Stop card blocks");
                let (round, turn) = (self.round, self.turn);
                self.house.latch_error(Hook::LowCard, round, turn, why);
                None
            }
            row => row,
        }
    }

    /// Places `seat`'s `card` by the normal rules; returns whether it is done.
    fn place(&mut self, seat: Seat, card: Card, events: &mut dyn EventSink) -> bool {
        match self.target(card) {
            None => match self.low_row_by_house(seat, card) {
                Some(row) => {
                    let reason = TakeReason::Low;
                    self.begin_take(seat, card, Taking::End { row, reason }, events)
                }
                None => {
                    self.phase = Phase::ChooseRow { seat, card };
                    false
                }
            },
            Some(row) if self.rows[row].len() >= self.capacity(row) => {
                let reason = TakeReason::Full;
                self.begin_take(seat, card, Taking::End { row, reason }, events)
            }
            Some(row) => {
                self.rows[row].push(card);
                emit(events, || Event::Place { seat, card, row });
                true
            }
        }
    }

    /// The cards `seat` takes with `taking` while placing `card`, and the card that starts the
    /// row again (`None` when the row leaves the table: five rows become four).
    fn cards_taken(&self, card: Card, taking: Taking) -> (Vec<Card>, Option<Card>) {
        let five = self.five_rows();
        match taking {
            Taking::End { row, .. } => {
                let mut cards = self.rows[row].clone();
                if five {
                    cards.push(card);
                    (cards, None)
                } else {
                    (cards, Some(card))
                }
            }
            Taking::Insert { row, at } => {
                let mut cards = self.rows[row].clone();
                cards.insert(at, card);
                if five {
                    (cards, None)
                } else {
                    let last = cards.pop();
                    (cards, last)
                }
            }
        }
    }

    /// `seat` is about to take a row: asks about Negative = Positive if it holds one, else
    /// takes. Returns whether the placement is done.
    fn begin_take(
        &mut self,
        seat: Seat,
        card: Card,
        taking: Taking,
        events: &mut dyn EventSink,
    ) -> bool {
        if self.holds(seat, Special::NegativePositive) {
            self.table.taking = self.cards_taken(card, taking).0;
            self.phase = Phase::Cancel { seat, card, taking };
            false
        } else {
            self.take(seat, card, taking, None, events)
        }
    }

    /// `seat` takes a row while placing `card`, cancelling `cancel`'s bullheads if given; then
    /// the table loses its Stops (and the row its 7 nimmt!, five rows their 5th). Returns whether
    /// the placement is done (a swap may be due).
    fn take(
        &mut self,
        seat: Seat,
        card: Card,
        taking: Taking,
        cancel: Option<Card>,
        events: &mut dyn EventSink,
    ) -> bool {
        let row = taking.row();
        let (cards, start) = self.cards_taken(card, taking);
        let mut bullheads = self.rules.deck.sum(&cards) as Points;
        if self.house.any() {
            // The hook sees the row still in the table.
            let printed = bullheads;
            let cost = (self.house).row_taken(&table_view!(self), seat, row, &cards, printed);
            bullheads = self.house.latch(cost, printed);
        }
        let reason = match taking {
            Taking::End { reason, .. } => reason,
            Taking::Insert { .. } => TakeReason::Full,
        };
        // The Negative = Positive card is played as the row is taken: its line comes first.
        let cancelled = cancel.map(|card| (card, self.rules.deck.bullheads(card) as Points));
        if let Some((card, bullheads)) = cancelled {
            self.remove(seat, Special::NegativePositive);
            self.table.discard.push(Special::NegativePositive);
            emit(events, || Event::Cancel {
                seat,
                card,
                bullheads,
            });
            self.observe_special(seat, Special::NegativePositive, card);
        }
        let at = (Hook::RowTaken, self.round, self.turn);
        let added = add_seat_points(&mut self.taken[seat], seat, bullheads.into(), at);
        self.house.latch(added, ());
        self.piles[seat].extend_from_slice(&cards);
        emit(events, || Event::Take {
            seat,
            row,
            cards,
            bullheads,
            reason,
        });
        if let Some((_, cancelled)) = cancelled {
            // The card's own bullheads go, and as many of the others; the surplus is lost.
            self.taken[seat] = (self.taken[seat] - 2 * cancelled).max(0);
        }
        self.table.taking.clear();
        if self.table.sevens[row] {
            self.table.discard.push(Special::SevenNimmt);
        }
        for stop in &mut self.table.stops {
            if *stop {
                self.table.discard.push(Special::Stop);
                *stop = false;
            }
        }
        match start {
            Some(start) => {
                self.table.sevens[row] = false;
                self.rows[row].clear();
                self.rows[row].push(start);
                if start == card {
                    emit(events, || Event::Place { seat, card, row });
                }
            }
            None => {
                self.rows.remove(row);
                self.table.sevens.remove(row);
                self.table.stops.remove(row);
                self.table.discard.push(Special::FifthRow);
            }
        }
        if self.special_hands[seat].is_empty() || !self.rules.swaps() {
            true
        } else {
            self.phase = Phase::Swap { seat };
            false
        }
    }

    /// `seat` gives `special` to the discard pile and draws the top of the deck, reshuffling the
    /// discard pile into a new deck first if the deck is empty.
    fn swap(&mut self, seat: Seat, special: Special, events: &mut dyn EventSink) {
        self.remove(seat, special);
        self.table.discard.push(special);
        if self.deck.is_empty() {
            self.deck.append(&mut self.table.discard);
            self.reshuffler.shuffle(&mut self.deck);
            emit(events, || Event::Reshuffle {
                deck: self.deck.clone(),
            });
        }
        let drew = self.deck.remove(0);
        self.table.deck = self.deck.len();
        self.give(seat, drew);
        emit(events, || Event::Swap {
            seat,
            gave: special,
            drew,
        });
        if self.house.any() {
            let args = [Arg::Special(special), Arg::Special(drew)];
            (self.house).observe(&table_view!(self), Hook::Swap, seat, &args);
        }
    }

    /// House rules' `special_played`: `seat` played `special` on its number `card` (for
    /// Negative = Positive, the card whose bullheads it turns).
    fn observe_special(&mut self, seat: Seat, special: Special, card: Card) {
        if self.house.any() {
            let args = [Arg::Special(special), Arg::Number(card.0.into())];
            (self.house).observe(&table_view!(self), Hook::SpecialPlayed, seat, &args);
        }
    }

    /// Places revealed cards from `next` on, until a decision is due or the turn is done.
    fn resolve(&mut self, events: &mut dyn EventSink) {
        while self.next < self.order.len() {
            let seat = self.order[self.next];
            let card = self.played[seat];
            if self.may_play_special(seat, card) {
                self.phase = Phase::Special { seat, card };
                return;
            }
            if !self.place(seat, card, events) {
                return;
            }
            self.next += 1;
        }
        self.end_turn(events);
    }

    /// The placement of `order[next]` is done: on to the next card.
    fn placed(&mut self, done: bool, events: &mut dyn EventSink) {
        if done {
            self.next += 1;
            self.resolve(events);
        }
    }

    fn end_turn(&mut self, events: &mut dyn EventSink) {
        self.chosen.fill(false);
        self.revealed = false;
        if self.hands[0].is_empty() {
            self.end_round(events);
        } else {
            self.turn += 1;
            self.phase = Phase::Choose {
                pending: self.seats,
            };
        }
    }

    /// At the end of a round, the special cards on the table (7 nimmt!, Stop, 5th Row) go to
    /// the discard pile, row by row, 7 nimmt! before Stop, the 5th Row last; the 5th row (the
    /// last) leaves the table with its card.
    fn clear_table(&mut self) {
        for (seven, stop) in self.table.sevens.iter_mut().zip(&mut self.table.stops) {
            if *seven {
                self.table.discard.push(Special::SevenNimmt);
            }
            if *stop {
                self.table.discard.push(Special::Stop);
            }
            *seven = false;
            *stop = false;
        }
        if self.five_rows() {
            self.table.discard.push(Special::FifthRow);
            self.rows.truncate(self.rules.rows);
            self.table.sevens.truncate(self.rules.rows);
            self.table.stops.truncate(self.rules.rows);
        }
    }

    /// The special cards on the table.
    fn on_table(&self) -> impl Iterator<Item = Special> + '_ {
        let sevens = self.table.sevens.iter().filter(|&&s| s);
        let stops = self.table.stops.iter().filter(|&&s| s);
        let fifth = self.five_rows().then_some(Special::FifthRow);
        sevens
            .map(|_| Special::SevenNimmt)
            .chain(stops.map(|_| Special::Stop))
            .chain(fifth)
    }

    fn end_round(&mut self, events: &mut dyn EventSink) {
        self.clear_table();
        let (rules, round) = (&self.rules, self.round);
        let end = self
            .house
            .latch_close_round(&table_view!(self), |totals| game_over(rules, totals, round));
        self.taken = end.penalties;
        self.scores = end.totals;
        emit(events, || Event::RoundEnd {
            round: self.round,
            penalties: self.taken.clone(),
            totals: self.scores.clone(),
        });
        if end.over {
            self.phase = Phase::Over;
            emit(events, || {
                let Outcome { totals, winners } = self.outcome().expect("the game is over");
                Event::GameEnd { totals, winners }
            });
        } else {
            self.phase = Phase::Deal;
        }
    }

    /// The special cards of a deal must fit the deck: at most four of each kind among every
    /// seat's special cards (kept and new), the deck, the discard pile and the table. After the
    /// first round they must also come from the deck as it is (see [`Self::check_from_deck`]).
    fn check_specials(&self, specials: &SpecialDeal) -> Result<(), RuleError> {
        if specials.hands.len() != self.seats {
            return Err(RuleError::BadDeal(format!(
                "{} special hands for {} seats",
                specials.hands.len(),
                self.seats
            )));
        }
        check_kinds(specials.hands.iter().flatten().chain(&specials.deck))
            .map_err(RuleError::BadDeal)?;
        if self.round > 0 {
            self.check_from_deck(specials)?;
        }
        let all = self
            .special_hands
            .iter()
            .chain(&specials.hands)
            .flatten()
            .chain(&specials.deck)
            .chain(if specials.reshuffled {
                &[][..]
            } else {
                &self.table.discard
            })
            .copied()
            .chain(self.on_table());
        check_copies(&self.rules.anniversary_rules(), all)
    }

    /// How many special cards each seat gets for a later round: three (`specials_dealt`), or
    /// two, or one, or none, as the special cards left allow, the deck's and the discard pile's (which becomes the
    /// deck when the deck runs out, as for a swap). docs/rulings.md, "The round change".
    fn specials_for_round(&self) -> usize {
        let left = self.deck.len() + self.table.discard.len();
        self.rules.specials_dealt().min(left / self.seats)
    }

    /// Whether a later round's deal runs through the deck, so the discard pile, shuffled, goes
    /// under it first.
    fn reshuffles_for_round(&self) -> bool {
        self.deck.len() < self.specials_for_round() * self.seats
    }

    /// A later round's special cards come from the top of the deck: each seat gets as many as
    /// the special cards left allow ([`Anniversary::specials_for_round`]), seat 0 first, and
    /// the rest is the new deck; when the deck runs out doing so (`reshuffled`), the discard
    /// pile, in some order, went under the deck first.
    fn check_from_deck(&self, specials: &SpecialDeal) -> Result<(), RuleError> {
        let bad = |why: String| Err(RuleError::BadDeal(why));
        let each = self.specials_for_round();
        if specials.hands.iter().any(|h| h.len() != each) {
            return bad(format!(
                "every seat gets {each} special card{} this round ({} in the deck and {} in \
                 the discard pile for {} seats, {} each at most)",
                if each == 1 { "" } else { "s" },
                self.deck.len(),
                self.table.discard.len(),
                self.seats,
                self.rules.specials_dealt()
            ));
        }
        if specials.reshuffled != self.reshuffles_for_round() {
            return bad(if specials.reshuffled {
                "the discard pile goes under the deck only when the deck runs out while dealing"
                    .to_string()
            } else {
                "the deck runs out while dealing: the discard pile, shuffled, goes under it first"
                    .to_string()
            });
        }
        let given: Vec<Special> = specials
            .hands
            .iter()
            .flatten()
            .chain(&specials.deck)
            .copied()
            .collect();
        let kept = self.deck.len();
        let mut under = self.table.discard.clone();
        if !specials.reshuffled {
            under.clear();
        }
        let mut rest = given.get(kept..).unwrap_or_default().to_vec();
        under.sort_unstable();
        rest.sort_unstable();
        if given.get(..kept) != Some(&self.deck[..]) || rest != under {
            let names: Vec<&str> = self.deck.iter().map(|s| s.name()).collect();
            return bad(format!(
                "the special cards dealt (seat 0 first), then the new deck, must be the deck as \
                 it stands, top first: [{}]{}",
                names.join(", "),
                if specials.reshuffled {
                    format!(
                        ", then the discard pile's {} cards",
                        self.table.discard.len()
                    )
                } else {
                    String::new()
                }
            ));
        }
        Ok(())
    }

    fn check_dealing(&self) -> Result<(), RuleError> {
        match self.phase {
            Phase::Deal => Ok(()),
            Phase::Over => Err(RuleError::GameOver),
            _ => Err(RuleError::NotDealing),
        }
    }

    /// The families of actions [`Anniversary::validate`] judges itself: cards, rows and the
    /// answers to special-card questions.
    const JUDGED: &[Family] = &[Family::Cards, Family::Special];

    fn validate(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::GameOver);
        }
        check_seat(seat, self.seats)?;
        let special_answer = action.family() == Family::Special;
        match (self.phase, action) {
            (Phase::Deal, _) => Err(RuleError::DealFirst),
            (Phase::Over, _) => Err(RuleError::GameOver),
            (_, _) if let Some(refusal) = RuleError::not_asked(seat, action, Self::JUDGED) => {
                Err(refusal)
            }
            (Phase::Choose { .. }, Action::Play(card)) => {
                if self.chosen[seat] {
                    Err(RuleError::AlreadyChosen { seat })
                } else if self.hands[seat].binary_search(&card).is_err() {
                    Err(RuleError::NotInHand { seat, card })
                } else {
                    Ok(())
                }
            }
            (Phase::Choose { .. }, Action::TakeRow(_)) => Err(RuleError::NoRowChoiceDue { seat }),
            (Phase::Choose { .. }, _) => Err(RuleError::NoSpecialDue { seat }),
            (
                Phase::Special {
                    seat: waiting_for, ..
                }
                | Phase::ChooseRow {
                    seat: waiting_for, ..
                }
                | Phase::Cancel {
                    seat: waiting_for, ..
                }
                | Phase::Swap { seat: waiting_for },
                _,
            ) if seat != waiting_for => Err(RuleError::NotYourTurn { seat, waiting_for }),
            (Phase::ChooseRow { .. }, Action::TakeRow(row)) => {
                if row >= self.rows.len() {
                    Err(RuleError::NoSuchRow {
                        row,
                        rows: self.rows.len(),
                    })
                } else if self.table.stops[row] {
                    Err(RuleError::RowStopped { row })
                } else {
                    Ok(())
                }
            }
            (Phase::ChooseRow { .. }, _) => Err(RuleError::RowChoiceDue { seat }),
            (Phase::Special { card, .. }, Action::Special(play)) => {
                check_play(&self.view(seat), card, play)
            }
            (Phase::Cancel { .. }, Action::Cancel(card)) => {
                if !self.table.taking.contains(&card) {
                    Err(RuleError::NotTaken { seat, card })
                } else {
                    Ok(())
                }
            }
            (Phase::Swap { .. }, Action::Swap(special)) => {
                if self.holds(seat, special) {
                    Ok(())
                } else {
                    Err(RuleError::SpecialNotInHand { seat, special })
                }
            }
            (Phase::Special { .. } | Phase::Cancel { .. } | Phase::Swap { .. }, Action::Pass) => {
                Ok(())
            }
            (Phase::Special { .. } | Phase::Cancel { .. } | Phase::Swap { .. }, _)
                if special_answer =>
            {
                Err(RuleError::NoSpecialDue { seat })
            }
            (Phase::Special { .. } | Phase::Cancel { .. } | Phase::Swap { .. }, _) => {
                Err(RuleError::SpecialDue { seat })
            }
        }
    }
}

impl Game for Anniversary {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::Deal => ToMove::Deal,
            Phase::Choose { .. } => ToMove::Everyone(Decision::PlayCard),
            Phase::Over => ToMove::GameOver,
            Phase::Special { seat, .. }
            | Phase::ChooseRow { seat, .. }
            | Phase::Cancel { seat, .. }
            | Phase::Swap { seat } => ToMove::Seat(seat, self.owes(seat).expect("the seat owes")),
        }
    }

    fn owes(&self, seat: Seat) -> Option<Decision> {
        match self.phase {
            Phase::Choose { .. } if self.chosen.get(seat) == Some(&false) => {
                Some(Decision::PlayCard)
            }
            Phase::Special { seat: s, card } if s == seat => Some(Decision::Special { card }),
            Phase::ChooseRow { seat: s, card } if s == seat => Some(Decision::ChooseRow { card }),
            Phase::Cancel { seat: s, .. } if s == seat => Some(Decision::Cancel),
            Phase::Swap { seat: s } if s == seat => Some(Decision::Swap),
            _ => None,
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        self.validate(seat, action)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        self.validate(seat, action)?;
        match (self.phase, action) {
            (Phase::Choose { pending }, Action::Play(card)) => {
                let hand = &mut self.hands[seat];
                let at = hand.binary_search(&card).expect("validated");
                hand.remove(at);
                self.played[seat] = card;
                self.chosen[seat] = true;
                if pending > 1 {
                    self.phase = Phase::Choose {
                        pending: pending - 1,
                    };
                    return Ok(());
                }
                self.revealed = true;
                order_by_card(&self.played, &mut self.order);
                self.next = 0;
                emit(events, || Event::Reveal {
                    round: self.round,
                    turn: self.turn,
                    cards: self.played.clone(),
                });
                self.resolve(events);
            }
            (Phase::Special { card, .. }, Action::Special(play)) => {
                let done = self.play_special(seat, card, play, events);
                self.placed(done, events);
            }
            (Phase::Special { card, .. }, Action::Pass) => {
                let done = self.place(seat, card, events);
                self.placed(done, events);
            }
            (Phase::ChooseRow { card, .. }, Action::TakeRow(row)) => {
                let reason = TakeReason::Low;
                let done = self.begin_take(seat, card, Taking::End { row, reason }, events);
                self.placed(done, events);
            }
            (Phase::Cancel { card, taking, .. }, Action::Cancel(cancelled)) => {
                let done = self.take(seat, card, taking, Some(cancelled), events);
                self.placed(done, events);
            }
            (Phase::Cancel { card, taking, .. }, Action::Pass) => {
                let done = self.take(seat, card, taking, None, events);
                self.placed(done, events);
            }
            (Phase::Swap { .. }, Action::Swap(special)) => {
                self.swap(seat, special, events);
                self.placed(true, events);
            }
            (Phase::Swap { .. }, Action::Pass) => self.placed(true, events),
            _ => unreachable!("validate() admits no other pair"),
        }
        self.house.check()
    }

    /// A deal's `specials` are added to the seats' special cards and replace the deck; a deal
    /// without them deals no special cards and leaves the deck as it is.
    fn deal(&mut self, deal: &Deal, events: &mut dyn EventSink) -> Result<(), RuleError> {
        self.check_dealing()?;
        check_hands(deal, self.seats, self.rules.hand_size)?;
        if deal.rows.len() != self.rules.rows {
            return Err(RuleError::BadDeal(format!(
                "{} rows, the rules have {}",
                deal.rows.len(),
                self.rules.rows
            )));
        }
        let cards = deal.hands.iter().flatten().chain(&deal.rows).copied();
        check_cards(&self.rules, cards)?;
        match &deal.specials {
            Some(specials) => self.check_specials(specials)?,
            None if self.round > 0 && self.specials_for_round() > 0 => {
                return Err(RuleError::BadDeal(format!(
                    "round {} deals {} special cards to each seat from the deck, and the deal \
                     gives none",
                    self.round + 1,
                    self.specials_for_round()
                )));
            }
            None => {}
        }
        for (hand, dealt) in self.hands.iter_mut().zip(&deal.hands) {
            hand.clone_from(dealt);
            hand.sort_unstable();
        }
        self.rows = deal.rows.iter().map(|&card| vec![card]).collect();
        self.table.sevens = vec![false; self.rules.rows];
        self.table.stops = vec![false; self.rules.rows];
        self.table.taking.clear();
        for pile in &mut self.piles {
            pile.clear();
        }
        self.taken.fill(0);
        self.round += 1;
        self.turn = 1;
        self.phase = Phase::Choose {
            pending: self.seats,
        };
        emit(events, || Event::Deal {
            round: self.round,
            hands: self.hands.clone(),
            rows: deal.rows.clone(),
        });
        if let Some(specials) = &deal.specials {
            for (seat, dealt) in specials.hands.iter().enumerate() {
                for &special in dealt {
                    self.give(seat, special);
                }
            }
            self.deck.clone_from(&specials.deck);
            if specials.reshuffled {
                self.table.discard.clear();
            }
            self.table.deck = self.deck.len();
            *self.reshuffler = GameRng::new(specials.seed, Stream::Deal(0));
            emit(events, || Event::Specials {
                round: self.round,
                hands: specials.hands.clone(),
                deck: specials.deck.clone(),
                reshuffled: specials.reshuffled,
                seed: specials.seed,
            });
        }
        Ok(())
    }

    /// Number cards as classic draws them; in round 1 the 28 special cards are shuffled into
    /// the deck (later, when the deck runs out while dealing, the discard pile is
    /// shuffled under it); each seat then gets up to three from its top, in seat order; a last
    /// draw seeds the reshuffles during play (docs/records.md).
    fn deal_random(
        &mut self,
        rng: &mut GameRng,
        events: &mut dyn EventSink,
    ) -> Result<(), RuleError> {
        self.check_dealing()?;
        let mut numbers = self.ordered_deck.clone();
        let hand_size = self.rules.hand_size;
        let dealt = self.seats * hand_size + self.rules.rows;
        let drawn = rng.draw_in_order(&mut numbers, dealt);
        let (hands, rows) = drawn.split_at(self.seats * hand_size);
        let mut reshuffled = false;
        let mut deck = if self.round == 0 {
            let mut fresh: Vec<Special> = self.rules.anniversary_rules().deck().collect();
            rng.shuffle(&mut fresh);
            fresh
        } else {
            let mut deck = self.deck.clone();
            if self.reshuffles_for_round() {
                // The deck runs out while dealing: the discard pile, shuffled, goes under
                // what is left of it (as for a swap).
                let mut pile = self.table.discard.clone();
                rng.shuffle(&mut pile);
                deck.extend(pile);
                reshuffled = true;
            }
            deck
        };
        let each = if self.round == 0 {
            self.rules.specials_dealt().min(deck.len() / self.seats)
        } else {
            self.specials_for_round()
        };
        let special_hands = (0..self.seats)
            .map(|_| deck.drain(..each).collect())
            .collect();
        let seed = (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32());
        let deal = Deal {
            hands: hands.chunks(hand_size).map(<[Card]>::to_vec).collect(),
            rows: rows.to_vec(),
            specials: Some(SpecialDeal {
                hands: special_hands,
                deck,
                reshuffled,
                seed,
            }),
        };
        self.deal(&deal, events)
    }

    fn view(&self, seat: Seat) -> View<'_> {
        View {
            rules: &self.rules,
            seat,
            seats: self.seats,
            round: self.round,
            turn: self.turn,
            decision: self.owes(seat),
            hand: &self.hands[seat],
            rows: &self.rows,
            scores: &self.scores,
            taken: &self.taken,
            revealed: if self.revealed { &self.played } else { &[] },
            pool: &[],
            number: None,
            circle: None,
            specials: Some(&self.table),
            special_hand: &self.special_hands[seat],
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        Some(Outcome::of(&self.scores, &self.taken, self.rules.ties))
    }

    fn set_house(&mut self, house: Option<Box<dyn HouseHooks>>) {
        self.house.set(house);
    }

    fn restart(&mut self) {
        let seats = self.seats;
        *self = Anniversary::new(self.rules.clone(), seats).expect("the rules were valid");
    }
}

// A copy plays by the rules' settings alone (the house rule hooks are not copied: it is for
// search, see `Model`); `clone_from` reuses the copy's memory.
clone_field_by_field!(Anniversary {
    rules,
    seats,
    phase,
    round,
    turn,
    hands,
    rows,
    special_hands,
    table,
    deck,
    reshuffler,
    piles,
    taken,
    scores,
    played,
    chosen,
    revealed,
    order,
    next,
    ordered_deck,
    house,
});

impl Model for Anniversary {
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let kinds = |held: &[Special]| {
            let mut kinds = held.to_vec();
            kinds.dedup();
            kinds
        };
        match self.phase {
            Phase::Choose { .. } if self.chosen.get(seat) == Some(&false) => {
                out.extend(self.hands[seat].iter().map(|&card| Action::Play(card)));
            }
            Phase::Special { seat: s, card } if s == seat => {
                out.push(Action::Pass);
                let view = self.view(seat);
                for special in kinds(&self.special_hands[seat]) {
                    out.extend(legal_plays(&view, card, special).map(Action::Special));
                }
            }
            Phase::ChooseRow { seat: s, .. } if s == seat => {
                let open = (0..self.rows.len()).filter(|&r| !self.table.stops[r]);
                out.extend(open.map(Action::TakeRow));
            }
            Phase::Cancel { seat: s, .. } if s == seat => {
                out.push(Action::Pass);
                let mut taking = self.table.taking.clone();
                taking.sort_unstable();
                taking.dedup();
                out.extend(taking.into_iter().map(Action::Cancel));
            }
            Phase::Swap { seat: s } if s == seat => {
                out.push(Action::Pass);
                out.extend(
                    kinds(&self.special_hands[seat])
                        .into_iter()
                        .map(Action::Swap),
                );
            }
            _ => {}
        }
    }

    /// Hidden are the others' number cards (drawn as in classic: from the cards in no row,
    /// not in the seat's hand, not revealed and not taken this round), their special cards
    /// and the order of the special deck (drawn from the special cards in no hand of the
    /// seat's, not on the table and not discarded; as many for each as the table shows). The
    /// state is laid out as the view shows it, mid-turn included; a row about to be taken
    /// (Negative = Positive due) is found among the rows by the cards the view says it takes.
    fn determinize(
        rules: &Arc<Rules>,
        view: &View,
        memory: &Memory,
        rng: &mut GameRng,
    ) -> Result<Anniversary, RuleError> {
        let seats = view.seats;
        let bad = |why: &str| RuleError::BadDeal(why.to_string());
        let table = view
            .specials
            .ok_or_else(|| bad("not an anniversary view"))?;
        let mut game = Anniversary::new(rules.clone(), seats)
            .map_err(|e| RuleError::BadDeal(e.to_string()))?;
        let revealed = view.revealed;
        // A Replace card this turn put another card in place of the one revealed (which went
        // back into its player's hand): the card being placed is seen too, so is no one's.
        // The cards a Replace sent back are known to be in their players' hands.
        let replaced = |s: Seat| {
            let found = memory.replaced.iter().find(|&&(by, ..)| by == s);
            found.map(|&(_, _, instead)| instead)
        };
        let instead = memory.replaced.iter().map(|(_, _, instead)| instead);
        let returned = memory.returned.iter().map(|(_, back)| back);
        let placing = match view.decision {
            Some(Decision::Special { card } | Decision::ChooseRow { card }) => Some(card),
            _ => None,
        };
        let seen = (view.hand.iter().chain(view.rows.iter().flatten()))
            .chain(revealed)
            .chain(&memory.taken)
            .chain(instead)
            .chain(returned)
            .chain(&placing);
        let mut unseen = unseen_cards(rules, seen);
        // The special cards no one is known to hold.
        let mut specials: Vec<Special> = rules.anniversary_rules().deck().collect();
        let five = (view.rows.len() > rules.rows).then_some(Special::FifthRow);
        fn marked(marks: &[bool], kind: Special) -> impl Iterator<Item = Special> + '_ {
            marks.iter().filter(|&&m| m).map(move |_| kind)
        }
        let out = (view.special_hand.iter().chain(&table.discard).copied())
            .chain(marked(&table.sevens, Special::SevenNimmt))
            .chain(marked(&table.stops, Special::Stop))
            .chain(five);
        for special in out {
            if let Some(at) = specials.iter().position(|&s| s == special) {
                specials.swap_remove(at);
            }
        }
        let hidden = table.deck
            + (0..seats)
                .filter(|&s| s != view.seat)
                .map(|s| table.hand_counts[s])
                .sum::<usize>();
        if specials.len() != hidden {
            return Err(bad("the special cards do not add up"));
        }
        rng.shuffle(&mut specials);
        for seat in 0..seats {
            if seat == view.seat {
                game.hands[seat] = view.hand.to_vec();
                game.special_hands[seat] = view.special_hand.to_vec();
            } else {
                // A seat holds the cards a Replace sent back, and the others drawn.
                let back = memory.returned.iter().filter(|&&(by, _)| by == seat);
                let mut hand: Vec<Card> = back.map(|&(_, card)| card).collect();
                let drawn = view.hand.len().saturating_sub(hand.len());
                hand.extend(draw_hand(rng, &mut unseen, drawn));
                hand.sort_unstable();
                game.hands[seat] = hand;
                let mut held = specials.split_off(specials.len() - table.hand_counts[seat]);
                held.sort_unstable();
                game.special_hands[seat] = held;
            }
        }
        game.deck = specials;
        game.table.clone_from(table);
        *game.reshuffler = GameRng::new(u64::from(rng.next_u32()), Stream::Deal(0));
        game.round = view.round;
        game.turn = view.turn;
        game.rows = view.rows.to_vec();
        game.taken.copy_from_slice(view.taken);
        game.scores.copy_from_slice(view.scores);
        let seat = view.seat;
        if !revealed.is_empty() {
            game.revealed = true;
            game.played.copy_from_slice(revealed);
            game.chosen.fill(true);
            order_by_card(&game.played, &mut game.order);
            game.next = game.order.iter().position(|&s| s == seat).unwrap_or(0);
        }
        game.phase = match view.decision {
            Some(Decision::Special { card }) => Phase::Special { seat, card },
            Some(Decision::ChooseRow { card }) => Phase::ChooseRow { seat, card },
            Some(Decision::Swap) => Phase::Swap { seat },
            Some(Decision::Cancel) => {
                let card = match replaced(seat) {
                    Some(instead) => instead,
                    None => *revealed.get(seat).ok_or_else(|| bad("no card revealed"))?,
                };
                let taking = game
                    .taking_of(card, &table.taking)
                    .ok_or_else(|| bad("no row the view takes"))?;
                Phase::Cancel { seat, card, taking }
            }
            _ => Phase::Choose { pending: seats },
        };
        Ok(game)
    }
}

impl Anniversary {
    /// How placing `card` takes `cards` (what [`Anniversary::cards_taken`] gives), found among
    /// the rows: the end of a row (low when the card is below every open row's end, else full),
    /// or a row it was inserted into.
    fn taking_of(&self, card: Card, cards: &[Card]) -> Option<Taking> {
        let low = self.target(card).is_none();
        let reason = if low {
            TakeReason::Low
        } else {
            TakeReason::Full
        };
        (0..self.rows.len()).find_map(|row| {
            let end = Taking::End { row, reason };
            let at = self.rows[row].partition_point(|&c| c < card);
            let insert = Taking::Insert { row, at };
            [end, insert]
                .into_iter()
                .find(|&taking| self.cards_taken(card, taking).0 == cards)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(numbers: &[u16]) -> Vec<Card> {
        numbers.iter().map(|&n| Card(n)).collect()
    }

    /// Rules with `hand_size` cards per hand (the rest are the variant's).
    fn small(hand_size: usize) -> Arc<Rules> {
        Arc::new(Rules {
            hand_size,
            ..rules()
        })
    }

    #[test]
    fn rows_and_places_past_a_byte_are_refused() {
        // Enough cards that only the rows' and places' limits refuse the rules.
        let big = |rows, row_capacity| {
            Arc::new(Rules {
                deck: Deck::classic(1000),
                rows,
                row_capacity,
                ..rules()
            })
        };
        assert!(Anniversary::new(big(255, 254), 2).is_ok());
        let refused = |rules| Anniversary::new(rules, 2).map(|_| ()).unwrap_err().setting;
        assert_eq!(refused(big(256, 5)), "rows");
        assert_eq!(refused(big(4, 255)), "row_capacity");
    }

    #[test]
    fn a_deal_of_the_circle_games_special_cards_is_refused() {
        let mut game = Anniversary::new(small(1), 2).unwrap();
        let deal = Deal {
            hands: vec![cards(&[1]), cards(&[2])],
            rows: cards(&[3, 4, 5, 6]),
            specials: Some(SpecialDeal {
                hands: vec![vec![Special::Double], vec![Special::Stop]],
                deck: Vec::new(),
                reshuffled: false,
                seed: 0,
            }),
        };
        let refused = game.deal(&deal, &mut crate::game::Discard);
        assert_eq!(
            refused,
            Err(RuleError::BadDeal(
                "x2 is not one of the anniversary variant's special cards".into()
            ))
        );
    }

    /// A game dealt `hands` and rows starting with `rows`, each seat given `specials` and the
    /// deck `deck`.
    fn dealt(
        hands: &[&[u16]],
        rows: [u16; 4],
        specials: &[&[Special]],
        deck: &[Special],
    ) -> Anniversary {
        let mut game = Anniversary::new(small(hands[0].len()), hands.len()).unwrap();
        let deal = Deal {
            hands: hands.iter().map(|h| cards(h)).collect(),
            rows: cards(&rows),
            specials: Some(SpecialDeal {
                hands: specials.iter().map(|s| s.to_vec()).collect(),
                deck: deck.to_vec(),
                reshuffled: false,
                seed: 7,
            }),
        };
        game.deal(&deal, &mut Vec::new()).unwrap();
        game
    }

    fn act(game: &mut Anniversary, seat: Seat, action: Action) -> Vec<Event> {
        let mut events = Vec::new();
        game.apply(seat, action, &mut events)
            .unwrap_or_else(|e| panic!("{action:?} by seat {seat}: {e}"));
        events
    }

    /// Every special card, wherever it is: hands, deck, discard, rows.
    fn specials_in_play(game: &Anniversary) -> usize {
        let table = &game.table;
        let on_table = game.on_table().count();
        game.special_hands.iter().map(Vec::len).sum::<usize>()
            + game.deck.len()
            + table.discard.len()
            + on_table
    }

    /// Every action a seat could send now, legal or not (the engine sorts them out).
    fn candidates(game: &Anniversary, seat: Seat) -> Vec<Action> {
        let view = game.view(seat);
        let mut all: Vec<Action> = view.hand.iter().map(|&c| Action::Play(c)).collect();
        all.extend((0..view.rows.len()).map(Action::TakeRow));
        all.push(Action::Pass);
        all.extend(view.taking().iter().map(|&c| Action::Cancel(c)));
        all.extend(view.special_hand.iter().map(|&s| Action::Swap(s)));
        if let Some(Decision::Special { card }) = view.decision {
            for &special in view.special_hand {
                all.extend(legal_plays(&view, card, special).map(Action::Special));
            }
        }
        all
    }

    /// Every special card play with arguments in range, legal or not.
    fn every_play(view: &View) -> Vec<SpecialPlay> {
        let rows = byte(view.rows.len() + 1);
        let mut all = vec![SpecialPlay::FifthRow];
        for row in 0..rows {
            all.push(SpecialPlay::SevenNimmt { row });
            all.push(SpecialPlay::Stop { row });
            for at in 0..8 {
                all.push(SpecialPlay::Insert { row, at });
                for &card in view.rows.iter().flatten() {
                    all.push(SpecialPlay::Shift { card, row, at });
                }
            }
        }
        for &card in view.hand.iter().chain(&[Card(0)]) {
            all.push(SpecialPlay::Replace { card });
        }
        all
    }

    #[test]
    fn random_games_of_2_to_8_players_end_with_every_card_accounted_for() {
        for seats in 2..=8 {
            let mut game = Anniversary::new(Arc::new(rules()), seats).unwrap();
            let mut rng = GameRng::new(seats as u64, Stream::Deal(0));
            let mut choices = GameRng::new(seats as u64, Stream::Bot { game: 0, seat: 0 });
            let mut specials_played = 0;
            loop {
                match game.to_move() {
                    ToMove::Deal => game.deal_random(&mut rng, &mut Vec::new()).unwrap(),
                    ToMove::GameOver => break,
                    ToMove::Everyone(_) | ToMove::Seat(..) => {
                        let seat = (0..seats).find(|&s| game.owes(s).is_some()).unwrap();
                        let view = game.view(seat);
                        if let Some(Decision::Special { card }) = view.decision {
                            // The legal plays listed are exactly those the rules allow.
                            let mut listed: Vec<String> = Special::ANNIVERSARY
                                .iter()
                                .flat_map(|&s| legal_plays(&view, card, s))
                                .map(|p| format!("{p:?}"))
                                .collect();
                            let mut allowed: Vec<String> = every_play(&view)
                                .into_iter()
                                .filter(|&p| check_play(&view, card, p).is_ok())
                                .map(|p| format!("{p:?}"))
                                .collect();
                            listed.sort();
                            allowed.sort();
                            assert_eq!(listed, allowed);
                            assert!(!listed.is_empty(), "asked with nothing to play");
                        }
                        let legal: Vec<Action> = candidates(&game, seat)
                            .into_iter()
                            .filter(|&a| game.check(seat, a).is_ok())
                            .collect();
                        assert!(!legal.is_empty(), "seat {seat} has no legal action");
                        let action = legal[choices.below(legal.len() as u32) as usize];
                        if matches!(action, Action::Special(_) | Action::Cancel(_)) {
                            specials_played += 1;
                        }
                        act(&mut game, seat, action);
                    }
                }
                assert_eq!(specials_in_play(&game), 28);
                let unplaced = match game.phase {
                    Phase::Choose { .. } => game.chosen.iter().filter(|&&c| c).count(),
                    Phase::Special { .. } | Phase::ChooseRow { .. } | Phase::Cancel { .. } => {
                        game.order.len() - game.next
                    }
                    Phase::Swap { .. } => game.order.len() - game.next - 1,
                    Phase::Deal | Phase::Over => 0,
                };
                let number_cards: usize = game.hands.iter().map(Vec::len).sum::<usize>()
                    + game.rows.iter().map(Vec::len).sum::<usize>()
                    + game.piles.iter().map(Vec::len).sum::<usize>()
                    + unplaced;
                assert_eq!(number_cards, seats * 12 + 4);
                for (r, row) in game.rows.iter().enumerate() {
                    assert!(row.windows(2).all(|w| w[0] < w[1]), "row {r}: {row:?}");
                    assert!(row.len() <= game.capacity(r), "row {r}: {row:?}");
                }
            }
            assert!(
                specials_played > 0,
                "{seats} players played no special card"
            );
            assert_eq!(game.round, 2);
            assert!(game.outcome().is_some());
        }
    }

    #[test]
    fn the_question_is_asked_only_with_a_playable_special_card() {
        // Only Negative = Positive in hand: nothing to play before placing.
        let mut game = dealt(
            &[&[11, 12], &[21, 22]],
            [10, 20, 30, 40],
            &[&[Special::NegativePositive], &[]],
            &[],
        );
        act(&mut game, 0, Action::Play(Card(11)));
        act(&mut game, 1, Action::Play(Card(21)));
        assert_eq!(game.rows[0], cards(&[10, 11]));
        assert_eq!(game.to_move(), ToMove::Everyone(Decision::PlayCard));
    }

    #[test]
    fn stop_blocks_the_row_the_card_was_headed_to() {
        let mut game = dealt(
            &[&[15, 16], &[45, 46]],
            [10, 20, 30, 40],
            &[&[Special::Stop], &[]],
            &[],
        );
        act(&mut game, 0, Action::Play(Card(15)));
        act(&mut game, 1, Action::Play(Card(45)));
        assert_eq!(
            game.to_move(),
            ToMove::Seat(0, Decision::Special { card: Card(15) })
        );
        act(&mut game, 0, Action::Special(SpecialPlay::Stop { row: 0 }));
        // 15 is below every open row: a low card, and the stopped row cannot be taken.
        assert_eq!(
            game.to_move(),
            ToMove::Seat(0, Decision::ChooseRow { card: Card(15) })
        );
        assert_eq!(
            game.check(0, Action::TakeRow(0)),
            Err(RuleError::RowStopped { row: 0 })
        );
        act(&mut game, 0, Action::TakeRow(1));
        // The take lifted the Stop.
        assert_eq!(game.table.stops, [false; 4]);
        assert_eq!(game.table.discard, [Special::Stop]);
        assert_eq!(game.rows[1], cards(&[15]));
    }

    #[test]
    fn a_fifth_row_goes_when_a_row_is_taken_with_the_card_played() {
        let mut game = dealt(
            &[&[5, 50], &[41, 60]],
            [10, 20, 30, 40],
            &[&[Special::FifthRow], &[]],
            &[],
        );
        act(&mut game, 0, Action::Play(Card(50)));
        act(&mut game, 1, Action::Play(Card(41)));
        act(&mut game, 0, Action::Special(SpecialPlay::FifthRow));
        assert_eq!(game.rows.len(), 5);
        assert_eq!(game.rows[4], cards(&[50]));
        act(&mut game, 0, Action::Play(Card(5)));
        act(&mut game, 1, Action::Play(Card(60)));
        act(&mut game, 0, Action::TakeRow(1));
        assert_eq!(game.rows.len(), 4);
        assert_eq!(game.piles[0], cards(&[20, 5]));
        assert_eq!(game.table.discard, [Special::FifthRow]);
    }

    #[test]
    fn negative_positive_cancels_no_more_than_was_taken() {
        let mut game = dealt(
            &[&[5, 6], &[41, 42]],
            [55, 20, 30, 40],
            &[&[Special::NegativePositive], &[]],
            &[],
        );
        act(&mut game, 0, Action::Play(Card(5)));
        act(&mut game, 1, Action::Play(Card(41)));
        act(&mut game, 0, Action::TakeRow(0));
        assert_eq!(game.to_move(), ToMove::Seat(0, Decision::Cancel));
        assert_eq!(game.view(0).taking(), cards(&[55]));
        let events = act(&mut game, 0, Action::Cancel(Card(55)));
        assert!(matches!(events[0], Event::Cancel { bullheads: 7, .. }));
        assert_eq!(game.taken[0], 0);
    }

    #[test]
    fn a_swap_with_an_empty_deck_reshuffles_the_discard_pile() {
        let mut game = dealt(
            &[&[5, 6], &[41, 42]],
            [10, 20, 30, 40],
            &[&[Special::Shift], &[]],
            &[],
        );
        act(&mut game, 0, Action::Play(Card(5)));
        act(&mut game, 1, Action::Play(Card(41)));
        // Every row holds one card: Shift has nothing to move, so no special card question.
        act(&mut game, 0, Action::TakeRow(0));
        assert_eq!(game.to_move(), ToMove::Seat(0, Decision::Swap));
        let events = act(&mut game, 0, Action::Swap(Special::Shift));
        assert_eq!(
            events[..2],
            [
                Event::Reshuffle {
                    deck: vec![Special::Shift]
                },
                Event::Swap {
                    seat: 0,
                    gave: Special::Shift,
                    drew: Special::Shift
                }
            ]
        );
    }

    #[test]
    fn shift_and_insert_keep_rows_ascending() {
        let mut game = dealt(
            &[&[25, 26], &[45, 46]],
            [10, 20, 30, 40],
            &[&[Special::Insert, Special::Shift], &[]],
            &[],
        );
        act(&mut game, 0, Action::Play(Card(25)));
        act(&mut game, 1, Action::Play(Card(45)));
        let view = game.view(0);
        let inserts: Vec<_> = legal_plays(&view, Card(25), Special::Insert).collect();
        assert_eq!(inserts.len(), 4);
        assert!(matches!(
            check_play(&view, Card(25), SpecialPlay::Insert { row: 2, at: 1 }),
            Err(RuleError::BadSpecial { .. })
        ));
        act(
            &mut game,
            0,
            Action::Special(SpecialPlay::Insert { row: 2, at: 0 }),
        );
        assert_eq!(game.rows[2], cards(&[25, 30]));
    }
}
