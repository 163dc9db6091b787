use super::house::HouseError;
use super::{Action, Family, Seat};
use crate::cards::{Card, Special};
use std::fmt;

/// Why an action is not allowed. The state is unchanged when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// The game is over; nothing more can happen.
    GameOver,
    /// There is no such seat.
    NoSuchSeat { seat: Seat, seats: usize },
    /// Cards must be dealt before anyone acts.
    DealFirst,
    /// A deal was given while the round is being played.
    NotDealing,
    /// The deal given does not fit the rules (wrong counts, unknown or repeated cards).
    BadDeal(String),
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
    /// A house rule failed. Unlike the other errors, the game may be half-way through a step
    /// and cannot go on.
    House(Box<HouseError>),
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
    /// Not a rule: the referee refused a legal action for a reason of its own, given in `why`
    /// (`take5 selftest` refuses a first answer on purpose, to see a bot answer again).
    Refused { why: String },
}

impl RuleError {
    /// Every [`RuleError::kind`], in declaration order (fixtures name the error they expect).
    pub const KINDS: [&'static str; 28] = [
        "game_over",
        "no_such_seat",
        "deal_first",
        "not_dealing",
        "bad_deal",
        "not_your_turn",
        "already_chosen",
        "not_in_hand",
        "no_row_choice_due",
        "row_choice_due",
        "no_such_row",
        "not_in_pool",
        "no_pick_due",
        "pick_due",
        "house_rule",
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
        "refused",
    ];

    /// A stable, machine-readable name for the kind (used in fixtures, records and the protocol).
    pub fn kind(&self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::NoSuchSeat { .. } => "no_such_seat",
            RuleError::DealFirst => "deal_first",
            RuleError::NotDealing => "not_dealing",
            RuleError::BadDeal(_) => "bad_deal",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::AlreadyChosen { .. } => "already_chosen",
            RuleError::NotInHand { .. } => "not_in_hand",
            RuleError::NoRowChoiceDue { .. } => "no_row_choice_due",
            RuleError::RowChoiceDue { .. } => "row_choice_due",
            RuleError::NoSuchRow { .. } => "no_such_row",
            RuleError::NotInPool { .. } => "not_in_pool",
            RuleError::NoPickDue { .. } => "no_pick_due",
            RuleError::PickDue { .. } => "pick_due",
            RuleError::House(_) => "house_rule",
            RuleError::NoKeepDue { .. } => "no_keep_due",
            RuleError::KeepDue { .. } => "keep_due",
            RuleError::NotTaken { .. } => "not_taken",
            RuleError::NoCircleTurn { .. } => "no_circle_turn",
            RuleError::CircleTurnDue { .. } => "circle_turn_due",
            RuleError::SpecialNotInHand { .. } => "special_not_in_hand",
            RuleError::SpecialInRow { .. } => "special_in_row",
            RuleError::NothingPlaced { .. } => "nothing_placed",
            RuleError::NoSpecialDue { .. } => "no_special_due",
            RuleError::SpecialDue { .. } => "special_due",
            RuleError::BadSpecial { .. } => "bad_special",
            RuleError::RowStopped { .. } => "row_stopped",
            RuleError::Refused { .. } => "refused",
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::GameOver => write!(f, "the game is over"),
            RuleError::NoSuchSeat { seat, seats } => {
                write!(f, "there is no seat {seat} (seats are 0 to {})", seats - 1)
            }
            RuleError::DealFirst => write!(f, "the cards must be dealt first"),
            RuleError::NotDealing => write!(f, "a round is in play; no deal is due"),
            RuleError::BadDeal(why) => write!(f, "bad deal: {why}"),
            RuleError::NotYourTurn { seat, waiting_for } => {
                write!(
                    f,
                    "seat {seat} may not act now: waiting for seat {waiting_for}"
                )
            }
            RuleError::AlreadyChosen { seat } => {
                write!(f, "seat {seat} has already chosen a card this turn")
            }
            RuleError::NotInHand { seat, card } => {
                write!(f, "card {card} is not in seat {seat}'s hand")
            }
            RuleError::NoRowChoiceDue { seat } => {
                write!(f, "seat {seat} chose a row, but no row choice is due")
            }
            RuleError::RowChoiceDue { seat } => {
                write!(
                    f,
                    "seat {seat} must choose a row to take before anything else"
                )
            }
            RuleError::NoSuchRow { row, rows } => {
                write!(f, "there is no row {row} (rows are 0 to {})", rows - 1)
            }
            RuleError::NotInPool { seat, card } => {
                write!(
                    f,
                    "seat {seat} cannot pick card {card}: it is not in the pool"
                )
            }
            RuleError::NoPickDue { seat } => {
                write!(f, "seat {seat} picked a card, but no draft is on")
            }
            RuleError::PickDue { seat } => {
                write!(f, "seat {seat} must pick a card from the pool")
            }
            RuleError::House(error) => error.fmt(f),
            RuleError::NoKeepDue { seat } => {
                write!(
                    f,
                    "seat {seat} chose a #-row card, but no taken cards wait for one"
                )
            }
            RuleError::KeepDue { seat } => {
                write!(
                    f,
                    "seat {seat} must choose which taken card goes to its #-row"
                )
            }
            RuleError::NotTaken { seat, card } => {
                write!(
                    f,
                    "card {card} is not among the cards seat {seat} just took"
                )
            }
            RuleError::NoCircleTurn { seat } => write!(
                f,
                "seat {seat} sent a circle-game move (a special card or the end of a turn), \
                 but this is not the circle game"
            ),
            RuleError::CircleTurnDue { seat } => {
                write!(f, "seat {seat} must place a card or end its turn")
            }
            RuleError::SpecialNotInHand { seat, special } => {
                write!(f, "special card {special} is not in seat {seat}'s hand")
            }
            RuleError::SpecialInRow { row, special } => {
                write!(f, "row {row} already holds a {special} card")
            }
            RuleError::NothingPlaced { seat } => {
                write!(f, "seat {seat} must place a card before ending its turn")
            }
            RuleError::NoSpecialDue { seat } => {
                write!(
                    f,
                    "seat {seat} answered a special-card question, but none is due"
                )
            }
            RuleError::SpecialDue { seat } => {
                write!(f, "seat {seat} must answer its special-card question first")
            }
            RuleError::BadSpecial { seat, special, why } => {
                write!(f, "seat {seat} cannot play {special}: {why}")
            }
            RuleError::RowStopped { row } => {
                write!(f, "row {row} is blocked by a Stop card")
            }
            RuleError::Refused { why } => f.write_str(why),
        }
    }
}

impl std::error::Error for RuleError {}

impl RuleError {
    /// The refusal of `action` by `seat` in a variant that judges only the `judged` families of
    /// actions: a pick, a #-row card, a circle move or a special-card answer it never asks for
    /// is refused as not due. `None` for an action of a judged family, and for a card or a row
    /// (every variant judges those itself).
    pub fn not_asked(seat: Seat, action: Action, judged: &[Family]) -> Option<RuleError> {
        let family = action.family();
        if judged.contains(&family) {
            return None;
        }
        match family {
            Family::Cards => None,
            Family::Keep => Some(RuleError::NoKeepDue { seat }),
            Family::Pick => Some(RuleError::NoPickDue { seat }),
            Family::Circle => Some(RuleError::NoCircleTurn { seat }),
            Family::Special => Some(RuleError::NoSpecialDue { seat }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SpecialPlay;
    use crate::game::house::Hook;

    #[test]
    fn an_action_of_a_family_not_judged_is_refused_as_not_due() {
        let seat = 1;
        let cases = [
            (Action::Play(Card(1)), None),
            (Action::TakeRow(0), None),
            (Action::Keep(Card(1)), Some(RuleError::NoKeepDue { seat })),
            (Action::Pick(Card(1)), Some(RuleError::NoPickDue { seat })),
            (
                Action::PlaceSpecial {
                    special: Special::Double,
                    row: 0,
                },
                Some(RuleError::NoCircleTurn { seat }),
            ),
            (Action::EndTurn, Some(RuleError::NoCircleTurn { seat })),
            (
                Action::Special(SpecialPlay::Stop { row: 0 }),
                Some(RuleError::NoSpecialDue { seat }),
            ),
            (Action::Pass, Some(RuleError::NoSpecialDue { seat })),
            (
                Action::Cancel(Card(1)),
                Some(RuleError::NoSpecialDue { seat }),
            ),
            (
                Action::Swap(Special::Stop),
                Some(RuleError::NoSpecialDue { seat }),
            ),
        ];
        for (action, refusal) in cases {
            assert_eq!(
                RuleError::not_asked(seat, action, &[]),
                refusal,
                "{action:?}"
            );
            let judged = [action.family()];
            assert_eq!(
                RuleError::not_asked(seat, action, &judged),
                None,
                "{action:?}"
            );
        }
    }

    #[test]
    fn kinds_lists_every_kind() {
        // The match below stops compiling when a variant is added, so the samples stay whole.
        let samples = [
            RuleError::GameOver,
            RuleError::NoSuchSeat { seat: 0, seats: 1 },
            RuleError::DealFirst,
            RuleError::NotDealing,
            RuleError::BadDeal(String::new()),
            RuleError::NotYourTurn {
                seat: 0,
                waiting_for: 1,
            },
            RuleError::AlreadyChosen { seat: 0 },
            RuleError::NotInHand {
                seat: 0,
                card: Card(1),
            },
            RuleError::NoRowChoiceDue { seat: 0 },
            RuleError::RowChoiceDue { seat: 0 },
            RuleError::NoSuchRow { row: 0, rows: 1 },
            RuleError::NotInPool {
                seat: 0,
                card: Card(1),
            },
            RuleError::NoPickDue { seat: 0 },
            RuleError::PickDue { seat: 0 },
            RuleError::House(Box::new(HouseError {
                hook: Hook::LowCard,
                round: 1,
                turn: 1,
                message: String::new(),
            })),
            RuleError::NoKeepDue { seat: 0 },
            RuleError::KeepDue { seat: 0 },
            RuleError::NotTaken {
                seat: 0,
                card: Card(1),
            },
            RuleError::NoCircleTurn { seat: 0 },
            RuleError::CircleTurnDue { seat: 0 },
            RuleError::SpecialNotInHand {
                seat: 0,
                special: Special::Double,
            },
            RuleError::SpecialInRow {
                row: 0,
                special: Special::Double,
            },
            RuleError::NothingPlaced { seat: 0 },
            RuleError::NoSpecialDue { seat: 0 },
            RuleError::SpecialDue { seat: 0 },
            RuleError::BadSpecial {
                seat: 0,
                special: Special::Stop,
                why: String::new(),
            },
            RuleError::RowStopped { row: 0 },
            RuleError::Refused { why: String::new() },
        ];
        for sample in &samples {
            match sample {
                RuleError::GameOver
                | RuleError::NoSuchSeat { .. }
                | RuleError::DealFirst
                | RuleError::NotDealing
                | RuleError::BadDeal(_)
                | RuleError::NotYourTurn { .. }
                | RuleError::AlreadyChosen { .. }
                | RuleError::NotInHand { .. }
                | RuleError::NoRowChoiceDue { .. }
                | RuleError::RowChoiceDue { .. }
                | RuleError::NoSuchRow { .. }
                | RuleError::NotInPool { .. }
                | RuleError::NoPickDue { .. }
                | RuleError::PickDue { .. }
                | RuleError::House(_)
                | RuleError::NoKeepDue { .. }
                | RuleError::KeepDue { .. }
                | RuleError::NotTaken { .. }
                | RuleError::NoCircleTurn { .. }
                | RuleError::CircleTurnDue { .. }
                | RuleError::SpecialNotInHand { .. }
                | RuleError::SpecialInRow { .. }
                | RuleError::NothingPlaced { .. }
                | RuleError::NoSpecialDue { .. }
                | RuleError::SpecialDue { .. }
                | RuleError::BadSpecial { .. }
                | RuleError::RowStopped { .. }
                | RuleError::Refused { .. } => {}
            }
        }
        let kinds: Vec<&str> = samples.iter().map(RuleError::kind).collect();
        assert_eq!(kinds, RuleError::KINDS);
    }
}
