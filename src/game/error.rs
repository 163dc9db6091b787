use super::house::HouseError;
use super::{Action, Family, Seat};
use crate::cards::{Card, Special};
use std::fmt;

/// Declares an error enum whose kinds, the stable snake_case names fixtures, records and the
/// protocol use, come from its variants' names (`NotInHand` is `not_in_hand`): `kind()`, and
/// `KINDS` in declaration order. No list of names is kept by hand.
macro_rules! with_kinds {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident $({ $($field:ident: $field_type:ty),* $(,)? })? $(($($tuple:ty),*))?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub enum $name {
            $(
                $(#[$variant_meta])*
                $variant $({ $($field: $field_type),* })? $(($($tuple),*))?
            ),*
        }

        impl $name {
            /// Every kind, in declaration order.
            pub const KINDS: &'static [&'static str] = &[$(snake_case!($variant)),*];

            /// A stable, machine-readable name for the kind.
            pub fn kind(&self) -> &'static str {
                match self {
                    $($name::$variant { .. } => snake_case!($variant),)*
                }
            }
        }
    };
}

/// The snake_case form of an identifier (`NoSuchSeat` -> `no_such_seat`), as a `&'static str`
/// built at compile time.
macro_rules! snake_case {
    ($name:ident) => {{
        const NAME: &str = stringify!($name);
        const BYTES: [u8; snake_len(NAME)] = snake_bytes(NAME);
        const SNAKE: &str = match std::str::from_utf8(&BYTES) {
            Ok(snake) => snake,
            Err(_) => panic!("an identifier is ASCII"),
        };
        SNAKE
    }};
}

/// The length of `name` in snake_case: an underscore before each capital but the first.
const fn snake_len(name: &str) -> usize {
    let bytes = name.as_bytes();
    let mut len = bytes.len();
    let mut i = 1;
    while i < bytes.len() {
        if bytes[i].is_ascii_uppercase() {
            len += 1;
        }
        i += 1;
    }
    len
}

/// `name` in snake_case, `N` ([`snake_len`]) bytes long.
const fn snake_bytes<const N: usize>(name: &str) -> [u8; N] {
    let bytes = name.as_bytes();
    let mut out = [0u8; N];
    let (mut i, mut o) = (0, 0);
    while i < bytes.len() {
        if bytes[i].is_ascii_uppercase() {
            if i > 0 {
                out[o] = b'_';
                o += 1;
            }
            out[o] = bytes[i].to_ascii_lowercase();
        } else {
            out[o] = bytes[i];
        }
        o += 1;
        i += 1;
    }
    out
}

/// Why an action or a deal is not taken. The state is unchanged when one is returned, except
/// after a house rule's failure. Each kind of cause is a type of its own: an action the rules do
/// not allow ([`Illegal`]), a deal that does not fit ([`SetupError`]), a house script that failed
/// ([`HouseError`]), the referee's own refusal ([`Refused`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    Illegal(Illegal),
    Setup(SetupError),
    /// A house rule failed. Unlike the other errors, the game may be half-way through a step
    /// and cannot go on.
    House(Box<HouseError>),
    Refused(Refused),
}

with_kinds! {
    /// An action the rules do not allow now.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Illegal {
    /// The game is over; nothing more can happen.
    GameOver,
    /// There is no such seat.
    NoSuchSeat { seat: Seat, seats: usize },
    /// Cards must be dealt before anyone acts.
    DealFirst,
    /// `seat` acted while another seat must decide.
    NotYourTurn { seat: Seat, waiting_for: Seat },
    /// `seat` already chose a card this turn.
    AlreadyChosen { seat: Seat },
    /// The card is not in the seat's hand (never dealt to it, or already played).
    NotInHand { seat: Seat, card: Card },
    /// A row choice was sent but no low card is waiting for one.
    NoRowChoiceDue { seat: Seat },
    /// A card was played while a row choice is due.
    RowChoiceDue { seat: Seat },
    /// There is no row with this index.
    NoSuchRow { row: usize, rows: usize },
    /// The card picked is not in the draft pool (Pro variant: already taken, or not in the game).
    NotInPool { seat: Seat, card: Card },
    /// A pick was sent but no draft is on.
    NoPickDue { seat: Seat },
    /// A card or a row was sent while a pick is due.
    PickDue { seat: Seat },
    /// Take a Number: a #-row card was sent but no taken cards wait for one.
    NoKeepDue { seat: Seat },
    /// Take a Number: something else was sent while `seat` must choose its #-row card.
    KeepDue { seat: Seat },
    /// Take a Number: the card kept for the #-row is not among the cards just taken.
    NotTaken { seat: Seat, card: Card },
    /// A circle-game move (a special card, the end of a turn) in another variant.
    NoCircleTurn { seat: Seat },
    /// The circle game: something other than a placement or the end of the turn was sent.
    CircleTurnDue { seat: Seat },
    /// The seat holds no such special card (the circle game, the anniversary variant).
    SpecialNotInHand { seat: Seat, special: Special },
    /// The circle game: the row already holds a special card of this kind.
    SpecialInRow { row: usize, special: Special },
    /// The circle game: a turn cannot end before a card is placed.
    NothingPlaced { seat: Seat },
    /// Anniversary: a special card, a pass, a cancel or a swap was sent but no such question is
    /// due.
    NoSpecialDue { seat: Seat },
    /// Anniversary: something else was sent while `seat` must answer a special-card question.
    SpecialDue { seat: Seat },
    /// Anniversary: the special card cannot be played so (a third Stop, a 5th Row when there
    /// are five, a card that breaks a row's ascending order, ...).
    BadSpecial {
        seat: Seat,
        special: Special,
        why: String,
    },
    /// Anniversary: the row is blocked by a Stop card (it cannot be taken).
    RowStopped { row: usize },
    }
}

with_kinds! {
    /// A deal (the setup of a round) the game cannot take.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum SetupError {
    /// A deal was given while the round is being played.
    NotDealing,
    /// The deal given does not fit the rules (wrong counts, unknown or repeated cards).
    BadDeal(String),
    }
}

/// Not a rule: the referee refused a legal action for a reason of its own, given in `why`
/// (`take5 selftest` refuses a first answer on purpose, to see a bot answer again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub why: String,
}

impl RuleError {
    /// The kind of a house rule's failure.
    const HOUSE_RULE: &'static str = "house_rule";
    /// The kind of the referee's refusal.
    const REFUSED: &'static str = "refused";

    /// A stable, machine-readable name for the kind (used in fixtures, records and the protocol).
    pub fn kind(&self) -> &'static str {
        match self {
            RuleError::Illegal(e) => e.kind(),
            RuleError::Setup(e) => e.kind(),
            RuleError::House(_) => Self::HOUSE_RULE,
            RuleError::Refused(_) => Self::REFUSED,
        }
    }

    /// Every [`RuleError::kind`] (fixtures name the error they expect).
    pub fn kinds() -> impl Iterator<Item = &'static str> {
        Illegal::KINDS
            .iter()
            .chain(SetupError::KINDS)
            .copied()
            .chain([Self::HOUSE_RULE, Self::REFUSED])
    }
}

impl From<Illegal> for RuleError {
    fn from(e: Illegal) -> RuleError {
        RuleError::Illegal(e)
    }
}

impl From<SetupError> for RuleError {
    fn from(e: SetupError) -> RuleError {
        RuleError::Setup(e)
    }
}

impl From<HouseError> for RuleError {
    fn from(e: HouseError) -> RuleError {
        RuleError::House(Box::new(e))
    }
}

impl From<Refused> for RuleError {
    fn from(e: Refused) -> RuleError {
        RuleError::Refused(e)
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::Illegal(e) => e.fmt(f),
            RuleError::Setup(e) => e.fmt(f),
            RuleError::House(e) => e.fmt(f),
            RuleError::Refused(e) => f.write_str(&e.why),
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver => write!(f, "the game is over"),
            Illegal::NoSuchSeat { seat, seats } => {
                write!(f, "there is no seat {seat} (seats are 0 to {})", seats - 1)
            }
            Illegal::DealFirst => write!(f, "the cards must be dealt first"),
            Illegal::NotYourTurn { seat, waiting_for } => {
                write!(
                    f,
                    "seat {seat} may not act now: waiting for seat {waiting_for}"
                )
            }
            Illegal::AlreadyChosen { seat } => {
                write!(f, "seat {seat} has already chosen a card this turn")
            }
            Illegal::NotInHand { seat, card } => {
                write!(f, "card {card} is not in seat {seat}'s hand")
            }
            Illegal::NoRowChoiceDue { seat } => {
                write!(f, "seat {seat} chose a row, but no row choice is due")
            }
            Illegal::RowChoiceDue { seat } => {
                write!(
                    f,
                    "seat {seat} must choose a row to take before anything else"
                )
            }
            Illegal::NoSuchRow { row, rows } => {
                write!(f, "there is no row {row} (rows are 0 to {})", rows - 1)
            }
            Illegal::NotInPool { seat, card } => {
                write!(
                    f,
                    "seat {seat} cannot pick card {card}: it is not in the pool"
                )
            }
            Illegal::NoPickDue { seat } => {
                write!(f, "seat {seat} picked a card, but no draft is on")
            }
            Illegal::PickDue { seat } => {
                write!(f, "seat {seat} must pick a card from the pool")
            }
            Illegal::NoKeepDue { seat } => {
                write!(
                    f,
                    "seat {seat} chose a #-row card, but no taken cards wait for one"
                )
            }
            Illegal::KeepDue { seat } => {
                write!(
                    f,
                    "seat {seat} must choose which taken card goes to its #-row"
                )
            }
            Illegal::NotTaken { seat, card } => {
                write!(
                    f,
                    "card {card} is not among the cards seat {seat} just took"
                )
            }
            Illegal::NoCircleTurn { seat } => write!(
                f,
                "seat {seat} sent a circle-game move (a special card or the end of a turn), \
                 but this is not the circle game"
            ),
            Illegal::CircleTurnDue { seat } => {
                write!(f, "seat {seat} must place a card or end its turn")
            }
            Illegal::SpecialNotInHand { seat, special } => {
                write!(f, "special card {special} is not in seat {seat}'s hand")
            }
            Illegal::SpecialInRow { row, special } => {
                write!(f, "row {row} already holds a {special} card")
            }
            Illegal::NothingPlaced { seat } => {
                write!(f, "seat {seat} must place a card before ending its turn")
            }
            Illegal::NoSpecialDue { seat } => {
                write!(
                    f,
                    "seat {seat} answered a special-card question, but none is due"
                )
            }
            Illegal::SpecialDue { seat } => {
                write!(f, "seat {seat} must answer its special-card question first")
            }
            Illegal::BadSpecial { seat, special, why } => {
                write!(f, "seat {seat} cannot play {special}: {why}")
            }
            Illegal::RowStopped { row } => {
                write!(f, "row {row} is blocked by a Stop card")
            }
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::NotDealing => write!(f, "a round is in play; no deal is due"),
            SetupError::BadDeal(why) => write!(f, "bad deal: {why}"),
        }
    }
}

impl std::error::Error for RuleError {}
impl std::error::Error for Illegal {}
impl std::error::Error for SetupError {}

impl Illegal {
    /// The refusal of `action` by `seat` in a variant that judges only the `judged` families of
    /// actions: a pick, a #-row card, a circle move or a special-card answer it never asks for
    /// is refused as not due. `None` for an action of a judged family, and for a card or a row
    /// (every variant judges those itself).
    pub fn not_asked(seat: Seat, action: Action, judged: &[Family]) -> Option<Illegal> {
        let family = action.family();
        if judged.contains(&family) {
            return None;
        }
        match family {
            Family::Cards => None,
            Family::Keep => Some(Illegal::NoKeepDue { seat }),
            Family::Pick => Some(Illegal::NoPickDue { seat }),
            Family::Circle => Some(Illegal::NoCircleTurn { seat }),
            Family::Special => Some(Illegal::NoSpecialDue { seat }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SpecialPlay;

    #[test]
    fn an_action_of_a_family_not_judged_is_refused_as_not_due() {
        let seat = 1;
        let cases = [
            (Action::Play(Card(1)), None),
            (Action::TakeRow(0), None),
            (Action::Keep(Card(1)), Some(Illegal::NoKeepDue { seat })),
            (Action::Pick(Card(1)), Some(Illegal::NoPickDue { seat })),
            (
                Action::PlaceSpecial {
                    special: Special::Double,
                    row: 0,
                },
                Some(Illegal::NoCircleTurn { seat }),
            ),
            (Action::EndTurn, Some(Illegal::NoCircleTurn { seat })),
            (
                Action::Special(SpecialPlay::Stop { row: 0 }),
                Some(Illegal::NoSpecialDue { seat }),
            ),
            (Action::Pass, Some(Illegal::NoSpecialDue { seat })),
            (
                Action::Cancel(Card(1)),
                Some(Illegal::NoSpecialDue { seat }),
            ),
            (
                Action::Swap(Special::Stop),
                Some(Illegal::NoSpecialDue { seat }),
            ),
        ];
        for (action, refusal) in cases {
            assert_eq!(Illegal::not_asked(seat, action, &[]), refusal, "{action:?}");
            let judged = [action.family()];
            assert_eq!(
                Illegal::not_asked(seat, action, &judged),
                None,
                "{action:?}"
            );
        }
    }

    #[test]
    fn a_kind_is_its_variant_name_in_snake_case() {
        assert_eq!(Illegal::GameOver.kind(), "game_over");
        assert_eq!(
            Illegal::NotInHand {
                seat: 0,
                card: Card(1)
            }
            .kind(),
            "not_in_hand"
        );
        assert_eq!(
            Illegal::NoRowChoiceDue { seat: 0 }.kind(),
            "no_row_choice_due"
        );
        assert_eq!(SetupError::BadDeal(String::new()).kind(), "bad_deal");
        let refused = RuleError::Refused(Refused { why: String::new() });
        assert_eq!(refused.kind(), "refused");
    }

    #[test]
    fn the_kinds_are_the_fixtures_names_each_once() {
        // The names fixtures, records and the protocol have used since before the split.
        let names = [
            "game_over",
            "no_such_seat",
            "deal_first",
            "not_your_turn",
            "already_chosen",
            "not_in_hand",
            "no_row_choice_due",
            "row_choice_due",
            "no_such_row",
            "not_in_pool",
            "no_pick_due",
            "pick_due",
            "no_keep_due",
            "keep_due",
            "not_taken",
            "no_circle_turn",
            "circle_turn_due",
            "special_not_in_hand",
            "special_in_row",
            "nothing_placed",
            "no_special_due",
            "special_due",
            "bad_special",
            "row_stopped",
            "not_dealing",
            "bad_deal",
            "house_rule",
            "refused",
        ];
        let kinds: Vec<&str> = RuleError::kinds().collect();
        assert_eq!(kinds, names);
    }
}
