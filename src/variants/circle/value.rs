//! The circle game's learnt judgement of a table ([`Model::judged`]): what the rest of the game
//! is worth to a seat (its points less the others' mean still to come) when every seat plays
//! at random from here, which is what the search's rollouts measure, one noisy sample at a
//! time. One small network, shared by every row, judges each row (its cards and special cards,
//! how near it is to being taken, the cards each side holds that land on it, its neighbours),
//! and a linear term the rest (special cards held, hands); the table's worth is their sum.
//!
//! A network for each table size, its weights shipped as text beside this file (`weights/`),
//! trained by `examples/learn_judgement.rs` on the actions of random games' decisions, each
//! action's worth measured by rollouts (docs/mcs.md, "Ninth round").
//!
//! [`Model::judged`]: crate::game::model::Model::judged

use super::{Circle, Phase, row_for_number};
use crate::cards::Special;
use crate::game::Seat;
use crate::variants::common::value::{self, Shipped, ValueNet};
use smallvec::SmallVec;
use std::sync::LazyLock;

/// What the network reads of each row and of the rest of the table.
pub const ROW_FEATURES: usize = 52;
pub const GLOBAL_FEATURES: usize = 12;

/// The circle game's network ([`crate::variants::common::value`]), a part a row.
pub type CircleNet = ValueNet<ROW_FEATURES, GLOBAL_FEATURES>;
/// A table as [`CircleNet`] reads it, for one seat.
pub type Features = value::Features<ROW_FEATURES, GLOBAL_FEATURES>;

/// The most rows a dealt circle has (5 and 6 players), kept without allocating.
const ROWS: usize = 16;

/// The hands' cards that land on a row: a key by where each would leave the row's final number,
/// and whose it is (1 the seat's, -1 another's).
type Landing = SmallVec<[(u16, f32); 8]>;

impl Circle {
    /// The table as [`CircleNet`] reads it for `me` (every hand is read: a determinization's).
    pub fn value_features(&self, me: Seat, out: &mut Features) {
        let deck = &self.rules.deck;
        let seats = self.seats;
        let others = (seats - 1).max(1) as f32;
        let (to_move, placed) = match self.phase {
            Phase::Turn { seat, placed } => (seat == me, f32::from(placed)),
            _ => (false, 0.0),
        };
        let placed = if to_move { placed / 3.0 } else { 0.0 };
        let ends = self.rows.ends();
        let count_rows = self.rows.len();
        let mut mine: SmallVec<[f32; ROWS]> = SmallVec::from_elem(0.0, count_rows);
        let mut theirs: SmallVec<[f32; ROWS]> = SmallVec::from_elem(0.0, count_rows);
        let mut hand_points = [0.0f32; 2];
        // By row, the owners of the hands' cards that land on it (1 mine, -1 another's), with
        // a key that orders them by where they would leave the row's final number.
        let mut owners: SmallVec<[Landing; ROWS]> =
            SmallVec::from_elem(SmallVec::new(), count_rows);
        let mut mine_points: SmallVec<[f32; ROWS]> = SmallVec::from_elem(0.0, count_rows);
        let mut theirs_points: SmallVec<[f32; ROWS]> = SmallVec::from_elem(0.0, count_rows);
        if count_rows > 0 {
            for (seat, hand) in self.hands.iter().enumerate() {
                let side = usize::from(seat != me);
                for &card in hand {
                    let row = row_for_number(ends, card);
                    let points = deck.points(card) as f32;
                    // The row with the highest final number also takes the cards below every
                    // final number: they come after the ones above it.
                    let key = if card > ends[row] {
                        card.0 + 1000
                    } else {
                        card.0
                    };
                    owners[row].push((key, if side == 0 { 1.0 } else { -1.0 }));
                    if side == 0 {
                        mine[row] += 1.0;
                        mine_points[row] += points;
                    } else {
                        theirs[row] += 1.0 / others;
                        theirs_points[row] += points / others;
                    }
                    hand_points[side] += points;
                }
            }
        }
        let hand_size = |side: bool| {
            let cards: usize = (0..seats)
                .filter(|&s| (s != me) == side)
                .map(|s| self.hands[s].len())
                .sum();
            cards as f32 / if side { others } else { 1.0 } / 14.0
        };
        let (my_hand, their_hand) = (hand_size(false), hand_size(true));
        let holds = |side: bool, kind: Special| {
            let count: usize = (0..seats)
                .filter(|&s| (s != me) == side)
                .map(|s| self.table.held[s].iter().filter(|&&k| k == kind).count())
                .sum();
            count as f32 / if side { others } else { 1.0 }
        };
        let held = [
            holds(false, Special::PlusFive),
            holds(false, Special::Double),
            holds(true, Special::PlusFive),
            holds(true, Special::Double),
        ];
        let highest = f32::from(deck.highest());
        out.rows.clear();
        for (r, cards) in self.rows.iter().enumerate() {
            let specials = &self.table.row_specials[r];
            let worth = self.card_points.taken(&self.settings, cards, specials);
            let printed = self.card_points.taken(&self.settings, cards, &[]);
            let n = cards.len();
            let has = |kind: Special| specials.contains(&kind);
            // The card values that land on the row: from its end up to the next end clockwise.
            let next = ends[(r + 1) % count_rows];
            let end = ends[r];
            let gap = if next > end {
                f32::from(next.0 - end.0)
            } else {
                highest - f32::from(end.0) + f32::from(next.0)
            };
            let need = (5 - n.min(4)) as f32;
            let mut x = [0.0f32; ROW_FEATURES];
            x[0] = worth as f32 / 10.0;
            x[1] = printed as f32 / 10.0;
            if (1..=4).contains(&n) {
                x[1 + n] = 1.0;
            }
            x[6] = f32::from(u8::from(has(Special::PlusFive)));
            x[7] = f32::from(u8::from(has(Special::Double)));
            x[8] = mine[r] / 3.0;
            x[9] = theirs[r] / 3.0;
            x[10] = gap / 20.0;
            x[11] = f32::from(u8::from(to_move));
            x[12] = placed;
            x[13] = my_hand;
            x[14] = their_hand;
            x[15] = if has(Special::PlusFive) { 0.0 } else { held[0] };
            x[16] = if has(Special::Double) { 0.0 } else { held[1] };
            x[17] = if has(Special::PlusFive) { 0.0 } else { held[2] };
            x[18] = if has(Special::Double) { 0.0 } else { held[3] };
            x[19] = count_rows as f32 / 7.0;
            x[20] = f32::from(u8::from(mine[r] >= need));
            x[21] = f32::from(u8::from(theirs[r] * others >= need));
            x[22] = mine_points[r] / 10.0;
            x[23] = theirs_points[r] / 10.0;
            // The row's worth where one side alone holds the cards that would take it.
            x[24] = x[0] * x[20];
            x[25] = x[0] * x[21];
            // Whose the first six of the cards landing on it are, from the one that would
            // leave the highest final number down (an owner's card there ends the row's span).
            let mut sorted = owners[r].clone();
            sorted.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
            for (i, &(_, owner)) in sorted.iter().take(6).enumerate() {
                x[26 + 3 * i] = f32::from(u8::from(owner > 0.0));
                x[27 + 3 * i] = f32::from(u8::from(owner < 0.0));
                x[28 + 3 * i] = owner * x[0];
            }
            out.rows.push(x);
        }
        // Each row's neighbours: a card placed on a row moves the cards between its old and
        // new final number to the row before it, and a row taken joins its neighbours' spans.
        for r in 0..count_rows {
            let before = (r + count_rows - 1) % count_rows;
            for (side, neighbour) in [(0, before), (1, (r + 1) % count_rows)] {
                let y = &out.rows[neighbour];
                let n = (2..6)
                    .position(|i| y[i] > 0.0)
                    .map_or(0.0, |i| i as f32 + 1.0);
                let (worth, mine, theirs) = (y[0], y[8], y[9]);
                let at = 44 + 4 * side;
                let x = &mut out.rows[r];
                x[at] = worth;
                x[at + 1] = n / 4.0;
                x[at + 2] = mine;
                x[at + 3] = theirs;
            }
        }
        out.global = [
            1.0,
            f32::from(u8::from(to_move)),
            placed,
            held[0],
            held[1],
            held[2],
            held[3],
            my_hand,
            their_hand,
            hand_points[0] / 10.0,
            hand_points[1] / 10.0,
            count_rows as f32 / 7.0,
        ];
    }

    /// `me`'s points less the others' mean, now.
    pub fn standing(&self, me: Seat) -> f32 {
        let others: i64 = (0..self.seats)
            .filter(|&s| s != me)
            .map(|s| i64::from(self.points[s]))
            .sum();
        self.points[me] as f32 - others as f32 / (self.seats - 1).max(1) as f32
    }

    /// [`Model::judged`](crate::game::model::Model::judged): `me`'s standing now and the
    /// network's worth of the rest, and its steps.
    pub fn judge(&self, me: Seat) -> Option<(f64, u64)> {
        let net = network(self.seats)?;
        if self.phase == Phase::Over {
            return Some((f64::from(self.standing(me)), 1));
        }
        let mut features = Features::default();
        self.value_features(me, &mut features);
        let worth = self.standing(me) + net.evaluate(&features);
        Some((f64::from(worth), judgement_steps(self.rows.len())))
    }
}

/// The shipped networks, read once.
static NETWORKS: LazyLock<Shipped<ROW_FEATURES, GLOBAL_FEATURES>> = LazyLock::new(|| {
    Shipped::read(&[
        (2, include_str!("weights/two_seats.txt")),
        (3, include_str!("weights/three_seats.txt")),
        (4, include_str!("weights/four_seats.txt")),
        (5, include_str!("weights/five_seats.txt")),
        (6, include_str!("weights/six_seats.txt")),
    ])
});

/// The network for a table of `seats`, if there is one.
pub fn network(seats: usize) -> Option<&'static CircleNet> {
    NETWORKS.for_seats(seats)
}

/// What a judgement counts in steps by the rows it reads: a row's network is about two random
/// moves' time (15 at seven rows, measured by `examples/learn_judgement.rs speed`).
pub fn judgement_steps(rows: usize) -> u64 {
    2 + 2 * rows as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use crate::game::model::Model;
    use crate::game::{Discard, Game, ToMove};
    use crate::variants::circle::{CircleSetup, rules};
    use std::sync::Arc;

    #[test]
    fn the_shipped_networks_are_whole_and_written_back_as_read() {
        for seats in 2..=6 {
            let net = network(seats).expect("a network");
            assert_eq!(CircleNet::from_text(&net.to_text()).as_ref(), Some(net));
        }
        for seats in [0, 1, 7] {
            assert!(network(seats).is_none(), "{seats} seats");
        }
    }

    /// Rows 1 2 3 4 (with a "+5" and an "x2": the card that takes it scores (4 + 1 + 5) x 2),
    /// 12, 24, 36, 48, 60 and 72; `taker` holds 7, the card that takes the first row, and 26,
    /// 38, 50, 62, 74; the other seat 14, 27, 39, 51, 63, 75; seat 0 places.
    fn rich_row_for(taker: Seat) -> Circle {
        let numbers = |numbers: &[u16]| numbers.iter().map(|&n| Card(n)).collect::<Vec<_>>();
        let mut hands = vec![numbers(&[14, 27, 39, 51, 63, 75]); 2];
        hands[taker] = numbers(&[7, 26, 38, 50, 62, 74]);
        let rows = [&[1, 2, 3, 4][..], &[12], &[24], &[36], &[48], &[60], &[72]];
        let setup = CircleSetup {
            rows: rows.iter().map(|row| numbers(row)).collect(),
            row_specials: std::iter::once(vec![Special::PlusFive, Special::Double])
                .chain(std::iter::repeat_n(Vec::new(), 6))
                .collect(),
            hands,
            held: vec![Vec::new(), Vec::new()],
            first: 0,
        };
        Circle::from_setup(Arc::new(rules()), &setup).expect("a table")
    }

    #[test]
    fn a_rich_row_the_seat_can_take_is_worth_more_than_one_the_other_can() {
        let mine = rich_row_for(0).judge(0).expect("a judgement").0;
        let theirs = rich_row_for(1).judge(0).expect("a judgement").0;
        // Whoever holds the 7 takes the row, 20 points, sooner or later (no other card lands
        // on it): to seat 0 the table is worth more when it holds the 7, and to seat 1 when
        // seat 1 does, though seat 0 places first.
        assert!(mine > theirs + 10.0, "{mine} against {theirs}");
        assert!(mine > 0.0 && theirs < 0.0, "{mine} and {theirs}");
        let (their_mine, their_theirs) = (rich_row_for(1).judge(1), rich_row_for(0).judge(1));
        let (their_mine, their_theirs) = (their_mine.expect("a").0, their_theirs.expect("a").0);
        assert!(
            their_mine > their_theirs + 10.0,
            "{their_mine} against {their_theirs}"
        );
    }

    #[test]
    fn a_finished_game_is_judged_by_its_points_alone() {
        let mut game = rich_row_for(0);
        let mut actions = Vec::new();
        while let ToMove::Seat(seat, _) = game.to_move() {
            actions.clear();
            game.legal_actions(seat, &mut actions);
            game.apply(seat, actions[0], &mut Discard).expect("legal");
        }
        let (worth, _) = game.judge(0).expect("a judgement");
        assert_eq!(worth, f64::from(game.standing(0)));
    }
}
