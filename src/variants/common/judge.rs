//! Why an action is refused in an engine that plays the simultaneous turn on rows (classic,
//! Take a Number, the anniversary variant): the refusals of the phases they share (a deal due,
//! the cards being chosen, a low card's row being chosen, the game over) are judged here once,
//! in one order; a variant judges only its own questions.

use super::board::Board;
use super::reveal::{Reveal, place_in_hand};
use crate::game::{Action, Decision, Family, Illegal, RuleError, Seat, ToMove, check_seat};

/// Where an engine's game stands, as far as judging an action goes: read from its
/// [`ToMove`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The next round's cards are due.
    Deal,
    /// Every seat chooses a card.
    Choose,
    /// `Seat`'s low card waits for the row it takes.
    Row(Seat),
    /// `Seat` answers a question of the variant's own.
    Own(Seat),
    /// The game is over.
    Over,
}

impl Stage {
    fn of(to_move: ToMove) -> Stage {
        match to_move {
            ToMove::Deal => Stage::Deal,
            ToMove::Everyone(_) => Stage::Choose,
            ToMove::Seat(seat, Decision::ChooseRow { .. }) => Stage::Row(seat),
            ToMove::Seat(seat, _) => Stage::Own(seat),
            ToMove::GameOver => Stage::Over,
        }
    }
}

/// What a variant adds to [`judge`]: the families of actions it judges itself (the others are
/// refused as not asked), and the refusal of one of its own answers while the cards are
/// chosen.
pub struct Judged {
    pub families: &'static [Family],
    pub while_choosing: fn(Seat) -> Illegal,
}

impl Judged {
    /// What classic and Take a Number judge themselves: cards and rows, and Take a Number's
    /// #-row card, not due while the cards are chosen (classic refuses it as Take a Number
    /// does outside a keep).
    pub const CARDS_AND_KEEP: Judged = Judged {
        families: &[Family::Cards, Family::Keep],
        while_choosing: |seat| Illegal::NoKeepDue { seat },
    };
}

/// The action being judged, by whom, and where its game stands.
struct Question<'a> {
    board: &'a Board,
    reveal: &'a Reveal,
    to_move: ToMove,
    seat: Seat,
    action: Action,
}

/// Checks `action` by `seat` when `to_move`: for a card, returns where it is in the hand; for a
/// row, the row. Inlined, so the legal cards and rows are let through on the hot path; the
/// rest (the variant's own answers, anything illegal) is [`judge`]d.
#[inline(always)]
pub fn check(
    (board, reveal): (&Board, &Reveal),
    to_move: ToMove,
    (seat, action): (Seat, Action),
    judged: &Judged,
    own: impl FnOnce() -> Result<usize, RuleError>,
) -> Result<usize, RuleError> {
    match (to_move, action) {
        (ToMove::Everyone(_), Action::Play(card)) if reveal.owes(seat) => {
            if let Some(at) = place_in_hand(&board.hands[seat], card) {
                return Ok(at);
            }
        }
        (ToMove::Seat(waiting_for, Decision::ChooseRow { .. }), Action::TakeRow(row))
            if seat == waiting_for && row < board.rows.len() =>
        {
            return Ok(row);
        }
        // The asked seat answering one of the variant's own questions with an action of a
        // family it judges: nothing shared refuses it (see `judge`), the variant judges it.
        (ToMove::Seat(waiting_for, decision), _)
            if seat == waiting_for
                && !matches!(decision, Decision::ChooseRow { .. })
                && judged.families.contains(&action.family()) =>
        {
            return own();
        }
        _ => {}
    }
    let question = Question {
        board,
        reveal,
        to_move,
        seat,
        action,
    };
    judge(question, judged, own)
}

/// The complete check of `action` by `seat` when `to_move`, with the reason an illegal one is
/// refused: for a card, where it is in the hand; for a row, the row. A question of the
/// variant's own, once its seat is the one asked, is `own`'s to judge.
#[cold]
#[inline(never)]
fn judge(
    question: Question,
    judged: &Judged,
    own: impl FnOnce() -> Result<usize, RuleError>,
) -> Result<usize, RuleError> {
    let Question {
        board,
        reveal,
        to_move,
        seat,
        action,
    } = question;
    let stage = Stage::of(to_move);
    if stage == Stage::Over {
        return Err(Illegal::GameOver.into());
    }
    check_seat(seat, board.seats)?;
    match (stage, action) {
        (Stage::Deal, _) => Err(Illegal::DealFirst.into()),
        (Stage::Over, _) => Err(Illegal::GameOver.into()),
        (_, _) if let Some(refusal) = Illegal::not_asked(seat, action, judged.families) => {
            Err(refusal.into())
        }
        (Stage::Choose, Action::Play(card)) => reveal.check_play(seat, &board.hands[seat], card),
        (Stage::Choose, Action::TakeRow(_)) => Err(Illegal::NoRowChoiceDue { seat }.into()),
        // Left: the variant's own families (the others are refused above).
        (Stage::Choose, _) => Err((judged.while_choosing)(seat).into()),
        (Stage::Row(waiting_for) | Stage::Own(waiting_for), _) if seat != waiting_for => {
            Err(Illegal::NotYourTurn { seat, waiting_for }.into())
        }
        (Stage::Row(_), Action::TakeRow(row)) => {
            let rows = board.rows.len();
            if row < rows {
                Ok(row)
            } else {
                Err(Illegal::NoSuchRow { row, rows }.into())
            }
        }
        (Stage::Row(_), _) => Err(Illegal::RowChoiceDue { seat }.into()),
        (Stage::Own(_), _) => own(),
    }
}
