//! Take a Number's learnt judgement of a table ([`Model::judged`]): what the rest of the round
//! is worth to a seat (the others' mean penalties less its own still to come) when every seat
//! plays at random from here, which is what the search's rollouts measure, one noisy sample at
//! a time. The shared network ([`crate::variants::common::value`]) judges each centre row (how
//! near it is to being taken, what it would cost, the cards chosen or still to place that land
//! on it, the hands' cards that do) and a linear term the rest (hands, #-row, the seat's card).
//!
//! A network for four seats, its weights shipped as text beside this file (`weights/`), trained
//! by `examples/learn_judgement.rs` on the actions of random games' decisions, each action's
//! worth measured by rollouts (docs/mcs.md, "Tenth round").
//!
//! [`Model::judged`]: crate::game::model::Model::judged

use super::{Phase, TakeANumber};
use crate::cards::Card;
use crate::game::Seat;
use crate::variants::common::rows::row_for;
use crate::variants::common::value::{self, Shipped, ValueNet};
use smallvec::SmallVec;
use std::sync::LazyLock;

/// What the network reads of each centre row and of the rest of the table.
pub const ROW_FEATURES: usize = 28;
pub const GLOBAL_FEATURES: usize = 14;

/// Take a Number's network, a part a centre row.
pub type NumberNet = ValueNet<ROW_FEATURES, GLOBAL_FEATURES>;
/// A table as [`NumberNet`] reads it, for one seat.
pub type Features = value::Features<ROW_FEATURES, GLOBAL_FEATURES>;

/// The centre rows the network reads (the rulebook's three).
const ROWS: usize = 3;

impl TakeANumber {
    /// The table as [`NumberNet`] reads it for `me` (every hand is read: a determinization's).
    /// Another seat's card chosen face down counts as in its hand: the search's rebuilt games
    /// have not chosen the others' cards when the seat chooses its own.
    pub fn value_features(&self, me: Seat, out: &mut Features) {
        let deck = &self.board.rules.deck;
        let seats = self.board.seats;
        let others = (seats - 1).max(1) as f32;
        let ends = self.board.rows.ends();
        // The seat's card not yet in a row, the others' cards face up not yet in a row, and
        // the others' cards face down (counted as in their hands).
        let mut my_card = None;
        let mut placing: SmallVec<[Card; 8]> = SmallVec::new();
        let mut face_down: SmallVec<[(Seat, Card); 8]> = SmallVec::new();
        let face_up = match self.phase {
            Phase::Choose => {
                face_down.extend(self.reveal.face_down());
                None
            }
            Phase::ChooseRow { .. } => Some(0),
            // The taking card is already in its row.
            Phase::Keep { .. } => Some(1),
            Phase::Deal | Phase::Over => None,
        };
        if let Some(skip) = face_up {
            for (seat, card) in self.reveal.to_place_by_seat(skip) {
                if seat == me {
                    my_card = Some(card);
                } else {
                    placing.push(card);
                }
            }
        }
        if let Some(at) = face_down.iter().position(|&(seat, _)| seat == me) {
            my_card = Some(face_down.swap_remove(at).1);
        }
        // The hands' cards by the row they land on (`ROWS`: below every row).
        let mut mine = [0.0f32; ROWS + 1];
        let mut theirs = [0.0f32; ROWS + 1];
        let mut hand_points = [0.0f32; 2];
        let mut hand_sizes = [0.0f32; 2];
        let mut smallest_other = f32::MAX;
        let hash_end = self.table.hash_rows[me].last().copied();
        let mut below_hash = 0.0f32;
        let face_down_of = |seat: Seat| {
            (face_down.iter())
                .filter(move |&&(s, _)| s == seat)
                .map(|&(_, card)| card)
        };
        for seat in 0..seats {
            let hand = self.board.hands[seat]
                .iter()
                .copied()
                .chain(face_down_of(seat));
            let side = usize::from(seat != me);
            let mut size = 0.0;
            for card in hand {
                let row = row_for(ends, card).unwrap_or(ROWS);
                if side == 0 {
                    mine[row] += 1.0;
                    below_hash += f32::from(u8::from(hash_end.is_some_and(|end| card < end)));
                } else {
                    theirs[row] += 1.0 / others;
                }
                hand_points[side] += deck.bullheads(card) as f32;
                size += 1.0;
            }
            hand_sizes[side] += size;
            if side == 1 {
                smallest_other = smallest_other.min(size);
            }
        }
        let their_hand = hand_sizes[1] / others / 10.0;
        let their_points = hand_points[1] / others / 10.0;
        let my_hand = hand_sizes[0] / 10.0;
        let smallest_other = if seats > 1 {
            smallest_other / 10.0
        } else {
            0.0
        };
        let row_points: SmallVec<[f32; ROWS]> = (self.board.rows.iter())
            .map(|row| deck.sum(row) as f32)
            .collect();
        let cheapest = (0..row_points.len())
            .min_by(|&a, &b| row_points[a].total_cmp(&row_points[b]))
            .unwrap_or(0);
        let my_row = my_card.and_then(|card| row_for(ends, card));
        let my_low = my_card.is_some() && my_row.is_none();
        let choosing = f32::from(u8::from(self.phase == Phase::Choose && my_card.is_some()));
        let flag = |b: bool| f32::from(u8::from(b));
        out.rows.clear();
        for (r, row) in self.board.rows.iter().enumerate().take(ROWS) {
            let capacity = self.table.capacities[r];
            let room = capacity.saturating_sub(row.len()).min(3);
            let lands = my_row == Some(r);
            let here = |card: &&Card| row_for(ends, **card) == Some(r);
            let placing_here = placing.iter().filter(here).count();
            let below_mine = match my_card {
                Some(mine) if lands => placing.iter().filter(here).filter(|&&c| c < mine).count(),
                _ => 0,
            };
            let takes = lands && row.len() + below_mine >= capacity;
            let mut x = [0.0f32; ROW_FEATURES];
            x[room] = 1.0;
            x[4] = row_points[r] / 10.0;
            x[5] = row.len() as f32 / 4.0;
            x[6] = capacity as f32 / 4.0;
            x[7] = flag(lands);
            x[8] = match my_card {
                Some(card) if lands => f32::from(card.0 - ends[r].0) / 20.0,
                _ => 0.0,
            };
            x[9] = flag(takes);
            x[10] = below_mine as f32 / 2.0;
            x[11] = placing_here as f32 / 2.0;
            x[12] = mine[r] / 4.0;
            x[13] = theirs[r] / 4.0;
            x[14] = flag(r == cheapest);
            x[15] = flag(my_low && r == cheapest);
            x[16 + r] = 1.0;
            x[19] = flag(my_low);
            x[20] = my_hand;
            x[21] = their_hand;
            x[22] = choosing;
            x[23] = x[4] * x[9];
            x[24] = x[4] * x[7];
            x[25] = hand_points[0] / 10.0;
            x[26] = hash_end.map_or(0.0, |end| f32::from(end.0) / 100.0);
            x[27] = smallest_other;
            out.rows.push(x);
        }
        let my_card_points = my_card.map_or(0.0, |card| deck.bullheads(card) as f32);
        out.global = [
            1.0,
            my_hand,
            their_hand,
            smallest_other,
            hand_points[0] / 10.0,
            their_points,
            hash_end.map_or(0.0, |end| f32::from(end.0) / 100.0),
            self.table.hash_rows[me].len() as f32 / 5.0,
            below_hash / 5.0,
            my_card_points / 5.0,
            flag(my_low),
            flag(my_card.zip(hash_end).is_some_and(|(card, end)| card < end)),
            choosing,
            mine[ROWS] / 5.0,
        ];
    }

    /// The others' mean penalties less `me`'s, totals and this round's so far (more is
    /// better, as the circle game's points).
    pub fn standing(&self, me: Seat) -> f32 {
        let during = !matches!(self.phase, Phase::Deal | Phase::Over);
        let penalties = |s: Seat| {
            let taken = if during { self.board.taken[s] } else { 0 };
            i64::from(self.board.scores[s]) + i64::from(taken)
        };
        let seats = self.board.seats;
        let others: i64 = (0..seats).filter(|&s| s != me).map(penalties).sum();
        others as f32 / (seats - 1).max(1) as f32 - penalties(me) as f32
    }

    /// [`Model::judged`](crate::game::model::Model::judged): `me`'s standing now and the
    /// network's worth of the rest of the round, and its steps. The rounds' end is the
    /// search's horizon: a table between rounds, or at the end, is judged by its standing.
    pub fn judge(&self, me: Seat) -> Option<(f64, u64)> {
        let net = network(self.board.seats)?;
        if self.board.rows.len() != ROWS || self.table.capacities.len() != ROWS {
            return None;
        }
        if matches!(self.phase, Phase::Deal | Phase::Over) {
            return Some((f64::from(self.standing(me)), 1));
        }
        let mut features = Features::default();
        self.value_features(me, &mut features);
        let worth = self.standing(me) + net.evaluate(&features);
        Some((f64::from(worth), JUDGEMENT_STEPS))
    }
}

/// What a judgement counts in steps (measured by `examples/learn_judgement.rs speed`).
pub const JUDGEMENT_STEPS: u64 = 8;

/// The shipped networks, read once.
static NETWORKS: LazyLock<Shipped<ROW_FEATURES, GLOBAL_FEATURES>> =
    LazyLock::new(|| Shipped::read(&[(4, include_str!("weights/four_seats.txt"))]));

/// The network for a table of `seats`, if there is one.
pub fn network(seats: usize) -> Option<&'static NumberNet> {
    NETWORKS.for_seats(seats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::model::Model;
    use crate::game::{Action, Discard, Game, ToMove};
    use crate::variants::common::deal::Table;
    use crate::variants::take_a_number::{NumberSetup, rules};
    use std::sync::Arc;

    fn cards(numbers: &[u16]) -> Vec<Card> {
        numbers.iter().map(|&n| Card(n)).collect()
    }

    /// Four seats; row 0 (taken by its 3rd card) holds 10 and 11 (8 bullheads), rows 1 and 2
    /// one card each, 50 and 80. Seat 0 holds 12, which takes row 0, and 51 and 52, which land
    /// safely on row 1; the others hold cards that land on row 2.
    fn table() -> TakeANumber {
        let setup = NumberSetup {
            table: Table {
                round: 1,
                turn: 4,
                hands: vec![
                    cards(&[12, 51, 52]),
                    cards(&[81, 84, 87]),
                    cards(&[82, 85, 88]),
                    cards(&[83, 86, 89]),
                ],
                rows: vec![cards(&[10, 11]), cards(&[50]), cards(&[80])],
                scores: vec![0; 4],
                piles: vec![Vec::new(); 4],
            },
            hash_rows: vec![cards(&[1]), cards(&[2]), cards(&[3]), cards(&[4])],
            hash_piles: vec![Vec::new(); 4],
        };
        TakeANumber::from_table(Arc::new(rules()), &setup).expect("a table")
    }

    fn judged_after(card: u16) -> f64 {
        let mut game = table();
        let played = game.apply(0, Action::Play(Card(card)), &mut Discard);
        played.expect("a legal card");
        game.judged(0).expect("a judgement at four seats").0
    }

    #[test]
    fn the_shipped_network_is_whole_and_written_back_as_read() {
        let net = network(4).expect("a network");
        assert_eq!(NumberNet::from_text(&net.to_text()).as_ref(), Some(net));
        for seats in [1, 2, 3, 5] {
            assert!(network(seats).is_none(), "{seats} seats");
        }
    }

    #[test]
    fn a_card_that_takes_a_rich_row_is_judged_worse_than_one_that_lands_safely() {
        let (taking, safe) = (judged_after(12), judged_after(51));
        assert!(safe > taking + 2.0, "{safe} against {taking}");
    }

    #[test]
    fn a_card_chosen_face_down_by_another_seat_is_read_as_in_its_hand() {
        let mut game = table();
        let mut features = Features::default();
        game.value_features(0, &mut features);
        let before = features.clone();
        game.apply(1, Action::Play(Card(81)), &mut Discard)
            .expect("a legal card");
        game.value_features(0, &mut features);
        assert_eq!(features.rows, before.rows);
        assert_eq!(features.global, before.global);
    }

    #[test]
    fn a_table_between_rounds_is_judged_by_its_standing_alone() {
        let mut game = table();
        let mut actions = Vec::new();
        while matches!(game.to_move(), ToMove::Everyone(_) | ToMove::Seat(..)) {
            for seat in 0..4 {
                actions.clear();
                game.legal_actions(seat, &mut actions);
                if let Some(&action) = actions.first() {
                    game.apply(seat, action, &mut Discard).expect("legal");
                }
            }
        }
        assert_eq!(game.to_move(), ToMove::Deal);
        let (worth, _) = game.judged(0).expect("a judgement");
        assert_eq!(worth, f64::from(game.standing(0)));
        assert!(game.judged(0).is_some_and(|(_, steps)| steps == 1));
    }
}
