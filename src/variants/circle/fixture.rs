//! The circle game's part in rule fixtures (docs/fixtures.md, "The circle game"): a `setup` is
//! a circle of rows (any number, each with its special cards), hands of any size, the special
//! cards each seat holds, and whose turn it is; a question's seat is the one whose turn it is.

use super::CircleSetup;
use crate::cards::{Card, Special};
use crate::game::Seat;
use crate::variants::fixtures::{
    SetupError, SetupFile, TableInput, fail, one_a_seat, setup_fields, spanned,
};
use serde_saphyr::Spanned;

setup_fields! {
    /// The circle game's own `setup` fields (with `specials`, which it reads by row).
    pub struct Fields {
        /// The special cards each seat holds (one of each when left out).
        held: Vec<Vec<Special>>,
        /// The seat whose turn it is (seat 0 when left out).
        first: Seat,
    }
}

/// Why another variant's `setup` cannot have these fields.
pub const ONLY: &str = "`held` and `first` set up the circle game only";

/// Why a question's card cannot be a low card here.
pub const NO_LOW_CARD: &str =
    "in the circle game every card has a row (the circle wraps around): `goes` is a row";

/// A circle table: rows clockwise (any number, each 1 to `row_capacity` number cards, in the
/// order they were placed), hands of any size, the special cards in the rows and in hand, and
/// whose turn it is. Round, turn, scores and piles are not set up.
pub fn setup(input: &mut TableInput) -> Result<CircleSetup, SetupError> {
    let (s, seats, hands) = (&input.setup.value, input.seats, input.hands);
    let not_circle = [
        s.round.as_ref().map(|f| f.referenced),
        s.turn.as_ref().map(|f| f.referenced),
        s.scores.as_ref().map(|f| f.referenced),
        s.piles.as_ref().map(|f| f.referenced),
    ];
    if let Some(at) = not_circle.into_iter().flatten().next() {
        return Err(SetupError {
            at,
            message: "a circle setup has `rows`, `hands`, `specials`, `held` and `first` only"
                .into(),
        });
    }
    one_a_seat(hands, seats, "hand")?;
    let rows = input.cards.lists(input.rows)?;
    let hands = input.cards.lists(hands)?;
    let row_specials = match &s.specials {
        None => vec![Vec::new(); rows.len()],
        Some(specials) if specials.value.len() != rows.len() => {
            return fail(
                specials,
                format!(
                    "special cards given for {}, the setup has {}",
                    crate::words::count(specials.value.len(), "row"),
                    rows.len()
                ),
            );
        }
        Some(specials) => specials.value.iter().map(|r| r.value.clone()).collect(),
    };
    let held = match &s.circle.held {
        None => vec![Special::CIRCLE.to_vec(); seats],
        Some(held) if held.value.len() != seats => {
            return fail(
                held,
                format!(
                    "special cards in hand given for {}, there are {seats}",
                    crate::words::count(held.value.len(), "seat")
                ),
            );
        }
        Some(held) => held.value.clone(),
    };
    Ok(CircleSetup {
        rows,
        row_specials,
        hands,
        held,
        first: s.circle.first.as_ref().map_or(0, |f| f.value),
    })
}

/// A question's `setup` has no `first`: the seat whose turn it is is the question's.
pub fn question_fields(s: &SetupFile) -> Result<(), SetupError> {
    match &s.circle.first {
        Some(first) => fail(
            first,
            "in a question the seat whose turn it is is the question's `seat`: leave `first` out",
        ),
        None => Ok(()),
    }
}

/// A question's hands when its `setup` gives none: `seat` holds `like`'s card, and the others,
/// who wait for their turns (a table where nobody else holds a card would end the game with
/// this one), one of the highest `free` cards each.
pub fn question_hands(
    filled: &mut SetupFile,
    like: &Spanned<Card>,
    seat: Seat,
    seats: usize,
    mut free: Vec<Card>,
) {
    let mut hands = vec![Vec::new(); seats];
    hands[seat].push(spanned(like.value, like));
    for (other, hand) in hands.iter_mut().enumerate() {
        if other != seat
            && let Some(highest) = free.pop()
        {
            hand.push(spanned(highest, like));
        }
    }
    let hands = hands.into_iter().map(|hand| spanned(hand, like));
    filled.hands = Some(spanned(hands.collect(), like));
}

/// A question's turn: its seat's.
pub fn question_turn(filled: &mut SetupFile, like: &Spanned<Card>, seat: Seat) {
    filled.circle.first = Some(spanned(seat, like));
}

/// How a circle table starts, in words.
pub fn described(setup: &CircleSetup) -> String {
    format!("the circle given, turns from seat {}", setup.first)
}
