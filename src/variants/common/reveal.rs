//! The simultaneous turn of the games played in rows (classic, Pro, Take a Number, the
//! anniversary variant): every seat chooses a card face down; once the last has chosen, the
//! cards are revealed and placed one by one, lowest first. What placing a card does is the
//! variant's; whose card is next, and what a view shows of the turn, is [`Reveal`]'s.

use super::board::{Board, Next};
use crate::cards::Card;
use crate::game::house::table_view;
use crate::game::{Action, Illegal};
use crate::game::{Decision, Emitter, Event, RuleError, Seat, ToMove, clone_field_by_field};

/// A turn's cards, from the first chosen to the last placed.
#[derive(Debug)]
pub struct Reveal {
    /// This turn's cards, by seat; a seat's entry means something once `chosen` says so. Kept
    /// by seat from the start, so the reveal copies nothing.
    played: Vec<Card>,
    /// Whether each seat has chosen its card this turn.
    chosen: Vec<bool>,
    /// How many seats have not chosen yet.
    pending: usize,
    /// Whether the cards are face up (from the reveal to the end of the turn).
    face_up: bool,
    /// Seats in the order their revealed cards are placed (ascending card).
    order: Vec<Seat>,
    /// Index in `order` of the next card to place.
    next: usize,
}

// `clone_from` reuses the copy's memory (a search copies games many times a decision).
clone_field_by_field!(Reveal {
    played,
    chosen,
    pending,
    face_up,
    order,
    next,
});

impl Reveal {
    /// A turn at a table of `seats`, nobody having chosen.
    pub fn new(seats: usize) -> Reveal {
        Reveal {
            played: vec![Card(0); seats],
            chosen: vec![false; seats],
            pending: seats,
            face_up: false,
            order: Vec::with_capacity(seats),
            next: 0,
        }
    }

    /// Whether `seat` (any number) is at the table and has not chosen yet.
    #[inline]
    pub fn owes(&self, seat: Seat) -> bool {
        self.chosen.get(seat) == Some(&false)
    }

    /// The decision `seat` owes when its game says `to_move`: during the simultaneous turn,
    /// its card if it has not chosen it yet; otherwise the one seat's decision, if `seat` is
    /// that seat.
    #[inline(always)]
    pub fn decision(&self, to_move: ToMove, seat: Seat) -> Option<Decision> {
        match to_move {
            ToMove::Everyone(decision) if self.owes(seat) => Some(decision),
            ToMove::Seat(asked, decision) if asked == seat => Some(decision),
            _ => None,
        }
    }

    /// Whether `seat`, one of the table's, has chosen its card.
    #[inline]
    pub fn has_chosen(&self, seat: Seat) -> bool {
        self.chosen[seat]
    }

    /// Where `card` is in `seat`'s `hand` (sorted), if `seat` (one of the table's) may play it
    /// now: it has not chosen yet and holds the card.
    #[inline(always)]
    pub fn check_play(&self, seat: Seat, hand: &[Card], card: Card) -> Result<usize, RuleError> {
        if self.chosen[seat] {
            Err(Illegal::AlreadyChosen { seat }.into())
        } else {
            place_in_hand(hand, card).ok_or(RuleError::Illegal(Illegal::NotInHand { seat, card }))
        }
    }

    /// `seat` plays the card at `at` of its `hand` (as [`Reveal::check_play`] found it): the
    /// card leaves the hand, face down. Returns whether every seat has now chosen: then the
    /// cards are revealed ([`Reveal::reveal`]).
    #[inline]
    pub fn choose(&mut self, seat: Seat, hand: &mut Vec<Card>, at: usize) -> bool {
        self.played[seat] = hand[at];
        take_out(hand, at);
        self.chosen[seat] = true;
        self.pending -= 1;
        self.pending == 0
    }

    /// Turns the cards of turn `turn` of round `round` face up, in the order they are placed
    /// (the lowest first), and reports them.
    #[inline(always)]
    pub fn reveal(&mut self, (round, turn): (u32, u32), events: &mut Emitter) {
        self.face_up = true;
        order_by_card(&self.played, &mut self.order);
        self.next = 0;
        events.emit(|| Event::Reveal {
            round,
            turn,
            cards: self.played.clone(),
        });
    }

    /// The turn's cards by seat while they are face up, else none: what every seat sees.
    #[inline]
    pub fn revealed(&self) -> &[Card] {
        if self.face_up { &self.played } else { &[] }
    }

    /// The next revealed card to place, with its seat; `None` once all are placed.
    #[inline]
    pub fn next(&self) -> Option<(Seat, Card)> {
        let &seat = self.order.get(self.next)?;
        Some((seat, self.played[seat]))
    }

    /// The card [`Reveal::next`] gave is placed: on to the one after it.
    #[inline]
    pub fn placed(&mut self) {
        self.next += 1;
    }

    /// The cards chosen so far, by seat.
    pub fn chosen_cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.chosen_by_seat().map(|(_, card)| card)
    }

    /// [`Reveal::chosen_cards`], each with its seat.
    fn chosen_by_seat(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        (self.played.iter().zip(&self.chosen).enumerate())
            .filter_map(|(seat, (&card, &chosen))| chosen.then_some((seat, card)))
    }

    /// The revealed cards not placed yet, from the `skip`th after the next (one being placed
    /// may already be in its row).
    pub fn to_place(&self, skip: usize) -> impl Iterator<Item = Card> + '_ {
        self.to_place_by_seat(skip).map(|(_, card)| card)
    }

    /// [`Reveal::to_place`]'s cards, each with its seat.
    pub fn to_place_by_seat(&self, skip: usize) -> impl Iterator<Item = (Seat, Card)> + '_ {
        let rest = self.order.get(self.next + skip..).unwrap_or_default();
        rest.iter().map(|&seat| (seat, self.played[seat]))
    }

    /// The cards chosen face down so far, each with its seat (none once they are revealed).
    pub fn face_down(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        self.chosen_by_seat().filter(|_| !self.face_up)
    }

    /// Every card is placed: a new turn, nobody having chosen.
    #[inline]
    pub fn end_turn(&mut self) {
        self.chosen.fill(false);
        self.pending = self.chosen.len();
        self.face_up = false;
    }

    /// A new game, or a table laid out afresh: nobody has chosen, nothing is revealed.
    pub fn restart(&mut self) {
        self.end_turn();
        self.order.clear();
        self.next = 0;
    }

    /// The turn as a view shows it while its cards are placed: `revealed` by seat (none: a
    /// turn before the reveal), the next card to place `seat`'s.
    pub fn restore(&mut self, revealed: &[Card], seat: Seat) {
        if revealed.is_empty() {
            self.restart();
            return;
        }
        self.played.copy_from_slice(revealed);
        self.chosen.fill(true);
        self.pending = 0;
        self.face_up = true;
        order_by_card(&self.played, &mut self.order);
        self.next = self.order.iter().position(|&s| s == seat).unwrap_or(0);
    }
}

/// Whether the card being placed is placed (if not, a decision about it is due and the placing
/// waits for it), or the error that stopped it.
pub type Placing = Result<bool, RuleError>;

/// An engine that plays the simultaneous turn: the cards are chosen, revealed and placed one
/// by one, lowest first, here; where a card goes is the engine's
/// ([`SimultaneousTurn::place_next`]), and so is what the end of a turn does.
pub trait SimultaneousTurn: TurnParts {
    /// Places `next`, the next revealed card with its seat (if a decision about it is due, the
    /// engine's phase says which, and the placing waits).
    fn place_next(&mut self, next: (Seat, Card), events: &mut Emitter) -> Placing;

    /// `next`, a low card with its seat, takes `row` (chosen by house rules or by its player)
    /// and is placed.
    fn take_low_row(&mut self, next: (Seat, Card), row: usize, events: &mut Emitter) -> Placing;

    /// The row house rules' `low_card` gives `seat`'s low `card`, if it gives one.
    fn low_row_by_house(&mut self, seat: Seat, card: Card) -> Result<Option<usize>, RuleError> {
        let board = self.table().0;
        board.house.low_card(&table_view!(board), seat, card)
    }

    /// `seat`'s `card` is below every row's end: house rules may choose the row it takes
    /// ([`SimultaneousTurn::take_low_row`]), otherwise its player must (now due).
    #[inline(never)]
    fn low_card(&mut self, seat: Seat, card: Card, events: &mut Emitter) -> Placing {
        match self.low_row_by_house(seat, card)? {
            Some(row) => self.take_low_row((seat, card), row, events),
            None => {
                self.row_due(seat, card);
                Ok(false)
            }
        }
    }

    /// After a decision about the card being placed: once its placement is `done`, on to the
    /// next card.
    #[inline(never)]
    fn after_placing(&mut self, done: bool, events: &mut Emitter) -> Result<(), RuleError> {
        if done {
            self.table().1.placed();
            self.resolve(events)?;
        }
        Ok(())
    }

    /// `seat`'s reply to a question of the engine's own phases (`validate` admitted it); an
    /// engine that asks none has none.
    fn reply(
        &mut self,
        seat: Seat,
        action: Action,
        _events: &mut Emitter,
    ) -> Result<(), RuleError> {
        unreachable!("no question of its own was asked: seat {seat}, {action:?}")
    }

    /// Whether the turn just played was the round's last: by default, when the hands are
    /// empty.
    #[inline]
    fn last_turn(&mut self) -> bool {
        self.table().0.hands[0].is_empty()
    }

    /// What the engine does once the round's last turn is played, before the round is scored
    /// (nothing by default).
    #[inline]
    fn round_played(&mut self) {}

    /// Every card of the turn is placed: the next turn, or the round's end.
    fn end_turn(&mut self, events: &mut Emitter) -> Result<(), RuleError> {
        self.table().1.end_turn();
        let last = self.last_turn();
        if last {
            self.round_played();
        }
        let next = self.table().0.after_turn(last, events)?;
        self.go_on(next);
        Ok(())
    }

    /// Places the revealed cards from the next on, until a decision is due or the turn is done.
    #[inline]
    fn resolve(&mut self, events: &mut Emitter) -> Result<(), RuleError> {
        while let Some(next) = self.table().1.next() {
            if !self.place_next(next, events)? {
                return Ok(());
            }
            self.table().1.placed();
        }
        self.end_turn(events)
    }

    /// What the engine does once the cards are revealed, before they are placed (nothing by
    /// default).
    #[inline]
    fn revealed(&mut self) {}

    /// `seat` plays the card at `at` of its hand (as [`Reveal::check_play`] found it): the
    /// last card chosen reveals the turn's cards, and they are placed.
    #[inline(always)]
    fn choose(&mut self, seat: Seat, at: usize, events: &mut Emitter) -> Result<(), RuleError> {
        let (board, reveal) = self.table();
        if reveal.choose(seat, &mut board.hands[seat], at) {
            self.reveal_and_place(events)
        } else {
            Ok(())
        }
    }

    /// The last card of the turn is chosen: reveal them all and place them. Kept out of
    /// [`SimultaneousTurn::choose`] so that its common case (a card chosen, others still to
    /// choose) stays small.
    #[inline(never)]
    fn reveal_and_place(&mut self, events: &mut Emitter) -> Result<(), RuleError> {
        let (board, reveal) = self.table();
        reveal.reveal((board.round, board.turn), events);
        self.revealed();
        self.resolve(events)
    }
}

/// What [`SimultaneousTurn`] reads and sets of an engine, written by [`turn_phases!`].
pub trait TurnParts {
    /// The engine's board and its turn's cards.
    fn table(&mut self) -> (&mut Board, &mut Reveal);

    /// [`TurnParts::table`] to read.
    fn parts(&self) -> (&Board, &Reveal);

    /// The engine goes on to `next` (its phase for it).
    fn go_on(&mut self, next: Next);

    /// `seat`'s low `card` waits for its player to choose a row.
    fn row_due(&mut self, seat: Seat, card: Card);
}

/// The `Phase` enum of `$engine`, an engine that plays the simultaneous turn: the phases every
/// such engine has (a deal due, the cards being chosen, a low card's row due, the game over),
/// then the variant's own, each given as its variant `=> (seat, decision)`, who must act in it
/// and what (the variant's fields are in scope there); who must act in every phase
/// (`Phase::to_move`); and the engine's [`TurnParts`] (its `board`, `reveal` and `phase`).
macro_rules! turn_phases {
    (
        $engine:ty;
        $(
            $(#[$doc:meta])*
            $own:ident { $($field:ident : $type:ty),* $(,)? } => $asked:expr
        ),* $(,)?
    ) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Phase {
            /// The next round's cards are due.
            Deal,
            /// Players choose (see [`Reveal`]).
            Choose,
            /// Revealed cards are placed in ascending order; `seat`'s low card `card` waits for
            /// a row.
            ChooseRow {
                seat: $crate::game::Seat,
                card: $crate::cards::Card,
            },
            /// The game is over.
            Over,
            $( $(#[$doc])* $own { $($field: $type),* }, )*
        }

        impl Phase {
            /// Who must act in this phase.
            #[inline(always)]
            #[allow(unused_variables)] // a variant's own phase need not name all its fields
            fn to_move(self) -> $crate::game::ToMove {
                use $crate::game::{Decision, ToMove};
                match self {
                    Phase::Deal => ToMove::Deal,
                    Phase::Choose => ToMove::Everyone(Decision::PlayCard),
                    Phase::ChooseRow { seat, card } => {
                        ToMove::Seat(seat, Decision::ChooseRow { card })
                    }
                    Phase::Over => ToMove::GameOver,
                    $(
                        Phase::$own { $($field),* } => {
                            let (seat, decision): ($crate::game::Seat, Decision) = $asked;
                            ToMove::Seat(seat, decision)
                        }
                    )*
                }
            }
        }

        impl $crate::variants::common::reveal::TurnParts for $engine {
            #[inline(always)]
            fn table(
                &mut self,
            ) -> (
                &mut $crate::variants::common::board::Board,
                &mut $crate::variants::common::reveal::Reveal,
            ) {
                (&mut self.board, &mut self.reveal)
            }

            #[inline(always)]
            fn parts(
                &self,
            ) -> (
                &$crate::variants::common::board::Board,
                &$crate::variants::common::reveal::Reveal,
            ) {
                (&self.board, &self.reveal)
            }

            #[inline]
            fn go_on(&mut self, next: $crate::variants::common::board::Next) {
                use $crate::variants::common::board::Next;
                self.phase = match next {
                    Next::Turn => Phase::Choose,
                    Next::Deal => Phase::Deal,
                    Next::Over => Phase::Over,
                };
            }

            #[inline]
            fn row_due(&mut self, seat: $crate::game::Seat, card: $crate::cards::Card) {
                self.phase = Phase::ChooseRow { seat, card };
            }
        }
    };
}
pub(crate) use turn_phases;

/// Where `card` is in the sorted `hand`, if it is there: the count of lower cards, found by
/// the standard library's binary search (branch-free, so the CPU has no exit to mispredict,
/// and fewer steps than counting every card).
#[inline(always)]
pub fn place_in_hand(hand: &[Card], card: Card) -> Option<usize> {
    let at = hand.partition_point(|&c| c < card);
    (hand.get(at) == Some(&card)).then_some(at)
}

/// Takes the card at `index` out of `hand`, keeping the others in order. Every card moves or
/// stays by a select over the whole hand: the loop's length is the hand's (the same for every
/// seat in a turn, so the CPU predicts it), where moving just the cards after `index` would
/// loop, or call `memmove`, for a random length. `Vec::remove` runs a third of the
/// instructions and is 20% slower by the clock in the engine benchmark (docs/performance.md,
/// "`cargo bench` side by side, the fifteenth and sixteenth sessions").
#[inline]
fn take_out(hand: &mut Vec<Card>, index: usize) {
    let cards = hand.as_mut_slice();
    for i in 0..cards.len().saturating_sub(1) {
        cards[i] = cards[i + usize::from(i >= index)];
    }
    hand.pop();
}

/// Seats by ascending revealed card, into `order` (seat order between equal cards). Each seat's
/// place is counted, without a branch: the cards are random, so the comparisons of a sort
/// would be branches the CPU mispredicts.
#[inline]
pub fn order_by_card(revealed: &[Card], order: &mut Vec<Seat>) {
    order.clear();
    order.extend(0..revealed.len());
    // Card and seat in one key, so equal cards keep seat order and no two keys are equal.
    let key = |seat: usize, card: Card| u64::from(card.0) << 32 | seat as u64;
    for (seat, &card) in revealed.iter().enumerate() {
        let mine = key(seat, card);
        let mut place = 0;
        for (other, &c) in revealed.iter().enumerate() {
            place += usize::from(key(other, c) < mine);
        }
        order[place] = seat;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;

    /// The counted order is a stable sort by card at any table size (equal cards included: a
    /// custom deck may repeat none, but the order must not depend on that).
    #[test]
    fn order_by_card_sorts_stably_at_every_table_size() {
        let mut rng = GameRng::new(5, crate::rng::Stream::Deal(0));
        let mut order = Vec::new();
        for seats in [1, 2, 4, 10, 17, 40] {
            for _ in 0..50 {
                let revealed: Vec<Card> = (0..seats).map(|_| Card(rng.below(30) as u16)).collect();
                order_by_card(&revealed, &mut order);
                let mut expected: Vec<Seat> = (0..seats).collect();
                expected.sort_by_key(|&seat| revealed[seat]);
                assert_eq!(order, expected, "{revealed:?}");
            }
        }
    }

    /// A turn: the cards stay face down until the last seat chooses, then come out lowest first.
    #[test]
    fn the_cards_are_revealed_when_the_last_seat_chooses_and_placed_lowest_first() {
        let mut turn = Reveal::new(3);
        let mut hands = [
            vec![Card(7), Card(9)],
            vec![Card(40)],
            vec![Card(3), Card(12)],
        ];
        assert_eq!(turn.check_play(1, &hands[1], Card(40)), Ok(0));
        assert!(!turn.choose(1, &mut hands[1], 0));
        assert!(!turn.choose(0, &mut hands[0], 0));
        assert_eq!(
            turn.check_play(0, &hands[0], Card(9)),
            Err(Illegal::AlreadyChosen { seat: 0 }.into())
        );
        let not_held = RuleError::Illegal(Illegal::NotInHand {
            seat: 2,
            card: Card(4),
        });
        assert_eq!(turn.check_play(2, &hands[2], Card(4)), Err(not_held));
        assert!(turn.revealed().is_empty());
        assert_eq!(turn.chosen_cards().collect::<Vec<_>>(), [Card(7), Card(40)]);
        assert!(turn.owes(2) && !turn.owes(1) && !turn.owes(3));
        assert!(turn.choose(2, &mut hands[2], 1));
        assert_eq!(hands, [vec![Card(9)], vec![], vec![Card(3)]]);
        let mut events = Vec::new();
        turn.reveal((1, 2), &mut Emitter::new(&mut events));
        let cards = vec![Card(7), Card(40), Card(12)];
        assert_eq!(
            events,
            [Event::Reveal {
                round: 1,
                turn: 2,
                cards: cards.clone()
            }]
        );
        assert_eq!(turn.revealed(), cards);
        let mut placed = Vec::new();
        while let Some(next) = turn.next() {
            placed.push(next);
            turn.placed();
        }
        assert_eq!(placed, [(0, Card(7)), (2, Card(12)), (1, Card(40))]);
        turn.end_turn();
        assert!(turn.revealed().is_empty() && turn.owes(0));
    }

    /// What a learnt judgement reads of a turn: the cards chosen face down, then those still to
    /// place, each with its seat.
    #[test]
    fn the_cards_still_to_place_and_those_face_down_are_told_with_their_seats() {
        let mut reveal = Reveal::new(3);
        let mut hands = [vec![Card(40)], vec![Card(7)], vec![Card(99)]];
        assert!(!reveal.choose(2, &mut hands[2], 0));
        assert!(!reveal.choose(0, &mut hands[0], 0));
        let face_down: Vec<_> = reveal.face_down().collect();
        assert_eq!(face_down, [(0, Card(40)), (2, Card(99))]);
        assert_eq!(
            reveal.chosen_cards().collect::<Vec<_>>(),
            [Card(40), Card(99)]
        );
        assert_eq!(reveal.to_place_by_seat(0).count(), 0);
        assert!(reveal.choose(1, &mut hands[1], 0));
        reveal.reveal((1, 1), &mut Emitter::new(&mut Vec::new()));
        assert_eq!(reveal.face_down().count(), 0);
        let order: Vec<_> = reveal.to_place_by_seat(0).collect();
        assert_eq!(order, [(1, Card(7)), (0, Card(40)), (2, Card(99))]);
        reveal.placed();
        // The card being placed may already be in its row: skip it.
        let rest: Vec<_> = reveal.to_place_by_seat(1).collect();
        assert_eq!(rest, [(2, Card(99))]);
        assert_eq!(reveal.to_place(0).collect::<Vec<_>>(), [Card(40), Card(99)]);
    }
}
