//! The circle game's learnt judgement of a table ([`Model::judged`]): what the rest of the game
//! is worth to a seat (its points less the others' mean still to come) when every seat plays
//! at random from here, which is what the search's rollouts measure, one noisy sample at a
//! time. One small network, shared by every row, judges each row (its cards and special cards,
//! how near it is to being taken, the cards each side holds that land on it, its neighbours),
//! and a linear term the rest (special cards held, hands); the table's worth is their sum.
//!
//! A network for each table size, its weights shipped as text beside this file (`weights/`),
//! trained by `examples/circle_value.rs` on the actions of random games' decisions, each
//! action's worth measured by rollouts (docs/mcs.md, "Ninth round").
//!
//! [`Model::judged`]: crate::game::model::Model::judged

use super::{Circle, Phase, row_for_number, taken_points};
use crate::cards::Special;
use crate::game::Seat;
use smallvec::SmallVec;
use std::sync::LazyLock;

/// What the network reads of each row, of the rest of the table, and its hidden units.
pub const ROW_FEATURES: usize = 52;
pub const GLOBAL_FEATURES: usize = 12;
pub const HIDDEN: usize = 32;

/// The most rows a dealt circle has (5 and 6 players), kept without allocating.
const ROWS: usize = 16;

/// The hands' cards that land on a row: a key by where each would leave the row's final number,
/// and whose it is (1 the seat's, -1 another's).
type Landing = SmallVec<[(u16, f32); 8]>;

/// A table as the network reads it, for one seat.
#[derive(Clone, Debug, Default)]
pub struct Features {
    pub rows: SmallVec<[[f32; ROW_FEATURES]; ROWS]>,
    pub global: [f32; GLOBAL_FEATURES],
}

/// The network's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueNet {
    pub w1: [[f32; ROW_FEATURES]; HIDDEN],
    pub b1: [f32; HIDDEN],
    pub w2: [f32; HIDDEN],
    pub global: [f32; GLOBAL_FEATURES],
}

impl ValueNet {
    /// Every weight 0 (training starts from its own draw).
    pub fn zero() -> ValueNet {
        ValueNet {
            w1: [[0.0; ROW_FEATURES]; HIDDEN],
            b1: [0.0; HIDDEN],
            w2: [0.0; HIDDEN],
            global: [0.0; GLOBAL_FEATURES],
        }
    }

    /// The worth of `features`' table, in points to come.
    pub fn evaluate(&self, features: &Features) -> f32 {
        let mut sum: f32 = dot(&self.global, &features.global);
        for row in &features.rows {
            for h in 0..HIDDEN {
                sum += self.w2[h] * fast_tanh(dot(&self.w1[h], row) + self.b1[h]);
            }
        }
        sum
    }

    /// The weights as whitespace-separated numbers (w1 by hidden unit, b1, w2, global).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for h in 0..HIDDEN {
            push_line(&mut out, &self.w1[h]);
        }
        push_line(&mut out, &self.b1);
        push_line(&mut out, &self.w2);
        push_line(&mut out, &self.global);
        out
    }

    /// Reads [`ValueNet::to_text`]'s numbers.
    pub fn from_text(text: &str) -> Option<ValueNet> {
        let mut numbers = text.split_whitespace().map(|n| n.parse::<f32>().ok());
        let mut net = ValueNet::zero();
        for h in 0..HIDDEN {
            for w in &mut net.w1[h] {
                *w = numbers.next()??;
            }
        }
        for w in net.b1.iter_mut().chain(&mut net.w2).chain(&mut net.global) {
            *w = numbers.next()??;
        }
        numbers.next().is_none().then_some(net)
    }
}

fn push_line(out: &mut String, weights: &[f32]) {
    let line: Vec<String> = weights.iter().map(|w| format!("{w}")).collect();
    out.push_str(&line.join(" "));
    out.push('\n');
}

/// A dot product in four running sums (in a fixed order, so the same on every machine),
/// which the compiler turns into vector instructions where one sum in order would not.
fn dot<const N: usize>(a: &[f32; N], b: &[f32; N]) -> f32 {
    let mut sums = [0.0f32; 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let rest: f32 = (a4.remainder().iter().zip(b4.remainder()))
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a4.zip(b4) {
        for i in 0..4 {
            sums[i] += x[i] * y[i];
        }
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + rest
}

impl Circle {
    /// The table as [`ValueNet`] reads it for `me` (every hand is read: a determinization's).
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
            let worth = taken_points(deck, &self.settings, cards.iter().copied(), specials);
            let printed = taken_points(deck, &self.settings, cards.iter().copied(), &[]);
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

/// The shipped networks, by the table size each was trained for, read once.
static NETWORKS: LazyLock<Vec<(usize, ValueNet)>> = LazyLock::new(|| {
    [
        (2, include_str!("weights/two_seats.txt")),
        (3, include_str!("weights/three_seats.txt")),
        (4, include_str!("weights/four_seats.txt")),
        (5, include_str!("weights/five_seats.txt")),
        (6, include_str!("weights/six_seats.txt")),
    ]
    .map(|(seats, text)| {
        (
            seats,
            ValueNet::from_text(text).expect("whole shipped weights"),
        )
    })
    .to_vec()
});

/// The network for a table of `seats`, if there is one.
pub fn network(seats: usize) -> Option<&'static ValueNet> {
    NETWORKS
        .iter()
        .find(|(s, _)| *s == seats)
        .map(|(_, net)| net)
}

/// What a judgement counts in steps by the rows it reads: a row's network is about two random
/// moves' time (15 at seven rows, measured by `examples/circle_value.rs speed`).
pub fn judgement_steps(rows: usize) -> u64 {
    2 + 2 * rows as u64
}

/// The network's activation: tanh's rational approximation x(27 + x²)/(27 + 9x²), ±1 from
/// |x| = 3 on (within 0.024 of tanh; the network is trained with it). The library's tanh was
/// half a judgement's time, and this one is plain arithmetic, the same on every machine.
#[inline]
pub fn fast_tanh(x: f32) -> f32 {
    let x = x.clamp(-3.0, 3.0);
    let x2 = x * x;
    x * (27.0 + x2) / (27.0 + 9.0 * x2)
}

/// [`fast_tanh`]'s slope at `x` (for training).
pub fn fast_tanh_slope(x: f32) -> f32 {
    if x.abs() >= 3.0 {
        return 0.0;
    }
    let x2 = x * x;
    let d = 27.0 + 9.0 * x2;
    ((27.0 + 3.0 * x2) * d - 18.0 * x2 * (27.0 + x2)) / (d * d)
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
            assert_eq!(ValueNet::from_text(&net.to_text()).as_ref(), Some(net));
        }
        for seats in [0, 1, 7] {
            assert!(network(seats).is_none(), "{seats} seats");
        }
    }

    #[test]
    fn weights_of_another_shape_or_not_numbers_are_refused() {
        let text = network(2).expect("a network").to_text();
        let mut numbers: Vec<&str> = text.split_whitespace().collect();
        assert!(ValueNet::from_text(&numbers[1..].join(" ")).is_none());
        assert!(ValueNet::from_text(&format!("{text} 1.5")).is_none());
        numbers[7] = "seven";
        assert!(ValueNet::from_text(&numbers.join(" ")).is_none());
        assert!(ValueNet::from_text("").is_none());
    }

    #[test]
    fn the_activation_is_near_tanh_odd_and_its_slope_its_derivative() {
        for i in -600..=600 {
            let x = i as f32 / 100.0;
            assert!((fast_tanh(x) - x.tanh()).abs() < 0.024, "{x}");
            assert_eq!(fast_tanh(-x), -fast_tanh(x));
            assert!(fast_tanh(x).abs() <= 1.0 + 1e-6);
            if x.abs() < 2.99 {
                let h = 1e-3;
                let slope = (fast_tanh(x + h) - fast_tanh(x - h)) / (2.0 * h);
                assert!((fast_tanh_slope(x) - slope).abs() < 1e-2, "{x}");
            } else if x.abs() > 3.0 {
                assert_eq!(fast_tanh_slope(x), 0.0);
            }
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
