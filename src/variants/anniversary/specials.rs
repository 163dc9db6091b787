//! The anniversary variant's special cards: what each may do and when (checked from a seat's
//! view, so that listing the legal plays formats nothing), and how a play changes the table.

use super::*;
use crate::game::Illegal;

/// Rows a Stop card may block at the same time.
pub const MAX_STOPS: usize = 2;

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
            Refusal::NotHeld => {
                return RuleError::Illegal(Illegal::SpecialNotInHand { seat, special });
            }
            Refusal::NoSuchRow { row, rows } => {
                return RuleError::Illegal(Illegal::NoSuchRow { row, rows });
            }
            Refusal::NotInHand(card) => {
                return RuleError::Illegal(Illegal::NotInHand { seat, card });
            }
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
        RuleError::Illegal(Illegal::BadSpecial { seat, special, why })
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
    pub(super) fn holds(&self, seat: Seat, special: Special) -> bool {
        self.special_hands[seat].contains(&special)
    }

    pub(super) fn give(&mut self, seat: Seat, special: Special) {
        let hand = &mut self.special_hands[seat];
        let at = hand.partition_point(|&s| s < special);
        hand.insert(at, special);
        self.table.hand_counts[seat] = hand.len();
    }

    pub(super) fn remove(&mut self, seat: Seat, special: Special) {
        let hand = &mut self.special_hands[seat];
        let at = hand.iter().position(|&s| s == special).expect("checked");
        hand.remove(at);
        self.table.hand_counts[seat] = hand.len();
    }

    /// Whether `seat` holds a special card it could play before placing its revealed `card`.
    pub(super) fn may_play_special(&self, seat: Seat, card: Card) -> bool {
        let view = self.view(seat);
        let hand = view.special_hand;
        // Kinds are sorted: try each kind once.
        hand.iter().enumerate().any(|(i, &special)| {
            (i == 0 || hand[i - 1] != special) && legal_plays(&view, card, special).next().is_some()
        })
    }

    /// Plays `play` for `seat`'s `card` and places the card; returns whether the placement is
    /// done (otherwise a decision is due).
    pub(super) fn play_special(
        &mut self,
        seat: Seat,
        card: Card,
        play: SpecialPlay,
        events: &mut Emitter,
    ) -> Result<bool, RuleError> {
        let special = play.card();
        self.remove(seat, special);
        events.emit(|| Event::Special { seat, card, play });
        self.observe_special(seat, special, card)?;
        match play {
            SpecialPlay::FifthRow => {
                // The card stays beside the 5th row until there are four rows again.
                self.board.rows.push_row(card);
                self.table.sevens.push(false);
                self.table.stops.push(false);
                let row = self.board.rows.len() - 1;
                events.emit(|| Event::Place { seat, card, row });
                Ok(true)
            }
            SpecialPlay::SevenNimmt { row } => {
                // The card stays in the row's 7th place until the row is taken.
                self.table.sevens[usize::from(row)] = true;
                self.place(seat, card, events)
            }
            SpecialPlay::Insert { row, at } => {
                let (row, at) = (usize::from(row), usize::from(at));
                self.table.discard.push(special);
                if self.board.rows[row].len() >= self.capacity(row) {
                    self.begin_take(seat, card, Taking::Insert { row, at }, events)
                } else {
                    self.board.rows.insert(row, at, card);
                    Ok(true)
                }
            }
            SpecialPlay::Replace { card: instead } => {
                self.table.discard.push(special);
                let hand = &mut self.board.hands[seat];
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
                self.board.rows.remove_card(moved);
                self.board
                    .rows
                    .insert(usize::from(to), usize::from(at), moved);
                self.place(seat, card, events)
            }
            SpecialPlay::Stop { row } => {
                // The card blocks the row until the next row is taken.
                self.table.stops[usize::from(row)] = true;
                self.place(seat, card, events)
            }
        }
    }

    /// `seat` gives `special` to the discard pile and draws the top of the deck, reshuffling the
    /// discard pile into a new deck first if the deck is empty.
    pub(super) fn swap(
        &mut self,
        seat: Seat,
        special: Special,
        events: &mut Emitter,
    ) -> Result<(), RuleError> {
        self.remove(seat, special);
        self.table.discard.push(special);
        if self.deck.is_empty() {
            self.deck.append(&mut self.table.discard);
            self.reshuffler.shuffle(&mut self.deck);
            events.emit(|| Event::Reshuffle {
                deck: self.deck.clone(),
            });
        }
        let drew = self.deck.remove(0);
        self.table.deck = self.deck.len();
        self.give(seat, drew);
        events.emit(|| Event::Swap {
            seat,
            gave: special,
            drew,
        });
        if self.board.house.any() {
            let args = [Arg::Special(special), Arg::Special(drew)];
            (self.board.house).observe(&table_view!(self.board), Hook::Swap, seat, &args)?;
        }
        Ok(())
    }

    /// House rules' `special_played`: `seat` played `special` on its number `card` (for
    /// Negative = Positive, the card whose bullheads it turns).
    pub(super) fn observe_special(
        &mut self,
        seat: Seat,
        special: Special,
        card: Card,
    ) -> Result<(), RuleError> {
        if self.board.house.any() {
            let args = [Arg::Special(special), Arg::Number(card.0.into())];
            (self.board.house).observe(
                &table_view!(self.board),
                Hook::SpecialPlayed,
                seat,
                &args,
            )?;
        }
        Ok(())
    }

    /// At the end of a round, the special cards on the table (7 nimmt!, Stop, 5th Row) go to
    /// the discard pile, row by row, 7 nimmt! before Stop, the 5th Row last; the 5th row (the
    /// last) leaves the table with its card.
    pub(super) fn clear_table(&mut self) {
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
            self.board.rows.truncate(self.board.rules.rows);
            self.table.sevens.truncate(self.board.rules.rows);
            self.table.stops.truncate(self.board.rules.rows);
        }
    }

    /// The special cards on the table.
    pub(super) fn on_table(&self) -> impl Iterator<Item = Special> + '_ {
        let sevens = self.table.sevens.iter().filter(|&&s| s);
        let stops = self.table.stops.iter().filter(|&&s| s);
        let fifth = self.five_rows().then_some(Special::FifthRow);
        sevens
            .map(|_| Special::SevenNimmt)
            .chain(stops.map(|_| Special::Stop))
            .chain(fifth)
    }
}
