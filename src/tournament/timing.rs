//! How long each command bot took to decide: per seat of each game in the results file, and per
//! bot over a tournament (mean, 95th percentile and maximum; `--times`, docs/tournaments.md).
//! Times are measured by the referee's side, from the request written to the answer read, so
//! they include the pipe's round trip. Built-in bots are not timed (they answer in well under a
//! microsecond, and a clock read would cost more than their decision).

use super::results::GameResult;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

/// Buckets per doubling of the time: a bucket spans 19% (2^(1/4)) of its times.
const PER_DOUBLING: f64 = 4.0;

/// The decision times of one seat in one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatTimes {
    pub decisions: u64,
    /// Their sum and the longest, in microseconds.
    pub total_us: u64,
    pub max_us: u64,
    /// `[bucket, count]` pairs, ascending: bucket `b` holds the times `t` (in microseconds)
    /// with `floor(4 * log2(t + 1)) = b`.
    pub buckets: Vec<[u64; 2]>,
    /// With a clock (`--clock`): the least time left on it at any of its asks, in
    /// milliseconds; left out without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub least_left_ms: Option<u64>,
}

fn bucket(us: u64) -> u64 {
    ((us as f64 + 1.0).log2() * PER_DOUBLING).floor() as u64
}

/// The top of bucket `b` (microseconds): its times are below it, and at or above the top of
/// bucket `b - 1`.
fn bucket_top(b: u64) -> f64 {
    (2f64.powf((b + 1) as f64 / PER_DOUBLING) - 1.0).max(0.0)
}

impl SeatTimes {
    pub fn add(&mut self, took: Duration) {
        let us = took.as_micros().min(u128::from(u64::MAX)) as u64;
        self.decisions += 1;
        self.total_us = self.total_us.saturating_add(us);
        self.max_us = self.max_us.max(us);
        let b = bucket(us);
        match self.buckets.binary_search_by_key(&b, |p| p[0]) {
            Ok(i) => self.buckets[i][1] += 1,
            Err(i) => self.buckets.insert(i, [b, 1]),
        }
    }

    /// A clocked seat was asked with `ms` left on its clock.
    pub fn left(&mut self, ms: u64) {
        self.least_left_ms = Some(self.least_left_ms.map_or(ms, |least| least.min(ms)));
    }
}

/// One bot's decision times over the games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotTimes {
    pub name: String,
    pub decisions: u64,
    /// In milliseconds.
    pub mean_ms: f64,
    /// The 95th percentile, as the top of its bucket (at most 19% above the true one).
    pub p95_ms: f64,
    pub max_ms: f64,
    /// With a clock: the least time left on it at any ask, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub least_left_ms: Option<u64>,
}

/// The times of the bots over a set of games, in any order (sums, maxima and bucket counts).
#[derive(Default)]
pub struct Times {
    bots: BTreeMap<String, (SeatTimes, BTreeMap<u64, u64>)>,
}

impl Times {
    pub fn add(&mut self, game: &GameResult) {
        let Some(times) = &game.times else { return };
        for (name, seat) in game.seating.iter().zip(times) {
            let Some(seat) = seat else { continue };
            if !self.bots.contains_key(name) {
                self.bots.insert(name.clone(), Default::default());
            }
            let (all, buckets) = self.bots.get_mut(name).expect("just inserted");
            all.decisions += seat.decisions;
            all.total_us = all.total_us.saturating_add(seat.total_us);
            all.max_us = all.max_us.max(seat.max_us);
            if let Some(ms) = seat.least_left_ms {
                all.left(ms);
            }
            for &[b, n] in &seat.buckets {
                *buckets.entry(b).or_default() += n;
            }
        }
    }

    /// Per timed bot, by name.
    pub fn finish(&self) -> Vec<BotTimes> {
        self.bots
            .iter()
            .filter(|(_, (all, _))| all.decisions > 0)
            .map(|(name, (all, buckets))| {
                let wanted = (all.decisions as f64 * 0.95).ceil() as u64;
                let mut seen = 0;
                let p95 = buckets
                    .iter()
                    .find(|&(_, &n)| {
                        seen += n;
                        seen >= wanted
                    })
                    .map_or(0.0, |(&b, _)| bucket_top(b).min(all.max_us as f64));
                BotTimes {
                    name: name.clone(),
                    decisions: all.decisions,
                    mean_ms: all.total_us as f64 / all.decisions as f64 / 1000.0,
                    p95_ms: p95 / 1000.0,
                    max_ms: all.max_us as f64 / 1000.0,
                    least_left_ms: all.least_left_ms,
                }
            })
            .collect()
    }
}

/// The table's section: one line per timed bot; with a clocked bot, a column of the least time
/// left on its clock (`-` for a bot without one).
pub fn table(times: &[BotTimes]) -> String {
    let clocked = times.iter().any(|t| t.least_left_ms.is_some());
    let mut out = String::from("\ndecision times (command bots; ms):\n");
    let width = times
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let _ = write!(
        out,
        "{:<width$} {:>10} {:>10} {:>10} {:>10}",
        "bot", "decisions", "mean", "p95", "max"
    );
    let _ = writeln!(out, "{}", if clocked { "  least left" } else { "" });
    if times.is_empty() {
        out.push_str("(none: no command bot in these games, or no times in the results)\n");
    }
    for t in times {
        let _ = write!(
            out,
            "{:<width$} {:>10} {:>10.3} {:>10.3} {:>10.3}",
            t.name, t.decisions, t.mean_ms, t.p95_ms, t.max_ms
        );
        let least = match (clocked, t.least_left_ms) {
            (false, _) => String::new(),
            (true, Some(ms)) => format!(" {ms:>11}"),
            (true, None) => format!(" {:>11}", "-"),
        };
        let _ = writeln!(out, "{least}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_hold_their_times_and_the_percentile_is_a_bucket_top() {
        for us in [0, 1, 2, 3, 10, 999, 1000, 123_456, 10_000_000] {
            let b = bucket(us);
            assert!(us as f64 <= bucket_top(b) + 1e-9, "{us} in {b}");
            assert!(b == 0 || us as f64 >= bucket_top(b - 1), "{us} in {b}");
        }
        let mut seat = SeatTimes::default();
        for ms in 1..=100 {
            seat.add(Duration::from_millis(ms));
        }
        let game = GameResult {
            game: 0,
            table: 0,
            deal: 0,
            rotation: 0,
            seed: None,
            seating: vec!["bot".into(), "builtin".into()],
            totals: vec![0, 0],
            ranks: vec![1, 1],
            winners: vec![0, 1],
            faults: Vec::new(),
            times: Some(vec![Some(seat), None]),
        };
        let mut times = Times::default();
        times.add(&game);
        let [bot] = &times.finish()[..] else {
            panic!("one timed bot")
        };
        assert_eq!(bot.decisions, 100);
        assert!((bot.mean_ms - 50.5).abs() < 1e-9);
        assert_eq!(bot.max_ms, 100.0);
        // The 95th time is 95 ms: its bucket's top is within 19% above it.
        assert!(bot.p95_ms >= 95.0 && bot.p95_ms <= 95.0 * 1.19, "{bot:?}");
    }
}
