//! Paired comparisons on duplicate deals (docs/tournaments.md): for two bots, each deal of a
//! table where both sat is one observation, its games (the deal's rotations or permutations)
//! taken together, so that the luck of the deal cancels. Everything is kept as integer counts,
//! so the figures do not depend on the order the deals come in, and the memory is a few counts
//! per pair, whatever the number of deals.

use super::sprt::{Sprt, elo_of_score};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};
use std::collections::BTreeMap;

/// One pair's deals so far; the pair is `(a, b)` in some fixed order, its figures `a`'s.
#[derive(Clone, Debug, Default)]
pub struct PairAcc {
    pub deals: u64,
    pub games: u64,
    /// Games `a` ranked ahead of `b`, behind it, and level with it.
    pub ahead: u64,
    pub behind: u64,
    pub level: u64,
    /// Deals by (games in the deal, half-points `a` took: 2 a game ahead, 1 level).
    scores: BTreeMap<(u32, u32), u64>,
    /// By games in the deal: deals, the sum of the deal's total difference (`a`'s totals minus
    /// `b`'s over its games), and the sum of its squares.
    differences: BTreeMap<u32, (u64, i64, i128)>,
}

/// One deal of one pair, while its games come in.
#[derive(Clone, Copy, Debug)]
pub struct DealAcc {
    pub games: u32,
    pub half_points: u32,
    pub ahead: u32,
    pub behind: u32,
    pub difference: i64,
}

impl DealAcc {
    pub fn new() -> DealAcc {
        DealAcc {
            games: 0,
            half_points: 0,
            ahead: 0,
            behind: 0,
            difference: 0,
        }
    }

    /// A game of the deal: `a`'s rank and total, `b`'s.
    pub fn add(&mut self, rank_a: u32, total_a: i32, rank_b: u32, total_b: i32) {
        self.games += 1;
        self.difference += i64::from(total_a) - i64::from(total_b);
        match rank_a.cmp(&rank_b) {
            std::cmp::Ordering::Less => {
                self.ahead += 1;
                self.half_points += 2;
            }
            std::cmp::Ordering::Greater => self.behind += 1,
            std::cmp::Ordering::Equal => self.half_points += 1,
        }
    }
}

impl Default for DealAcc {
    fn default() -> DealAcc {
        DealAcc::new()
    }
}

/// A pair's figures, the first bot's (`bot`) against the second's (`other`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairStats {
    pub bot: String,
    pub other: String,
    /// Deals both played (at one table), and the games of those deals.
    pub deals: u64,
    pub games: u64,
    /// Games `bot` ranked ahead of `other`, behind it, level with it.
    pub ahead: u64,
    pub behind: u64,
    pub level: u64,
    /// The mean over the deals of `bot`'s totals minus `other`'s over the deal's games, divided
    /// by its games (per game); and the half-width of its 95% interval: none under 2 deals, and
    /// none where every deal had the same difference (the interval is not defined by deals
    /// without spread: it would read ±0).
    pub mean_difference: f64,
    pub mean_difference_ci95: Option<f64>,
    /// Why `mean_difference_ci95` is none ([`ONE_DEAL`] or [`NO_SPREAD`]); left out of the
    /// JSON when there is an interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_difference_no_interval: Option<&'static str>,
    /// The share of points `bot` took (1 a game ahead, 1/2 level, 0 behind), the mean of the
    /// deals' scores.
    pub score: f64,
    /// The Elo difference of that score (logistic model): none at a score of 0 or 1 (it is
    /// infinite there) and under [`MIN_ELO_DEALS`] deals (too few to say).
    pub elo: Option<f64>,
    /// The ends of its 95% interval: the Elo of the score interval's ends, so not symmetric
    /// about `elo`. None where `elo` is none or every deal scored the same (no spread to
    /// measure, see `spread`); an end beyond a score of 0 or 1 is infinite, and none too.
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
    /// Whether the deals' scores differ (else the interval has no width to measure).
    #[serde(skip)]
    pub spread: bool,
    /// The likelihood of superiority: the chance that `bot` is the stronger, from the deals'
    /// scores (normal approximation).
    pub los: f64,
    /// How many deals had each score: `points` of `games` (1 a game ahead, 1/2 level).
    pub deal_scores: Vec<DealScore>,
}

/// Why a pair's mean difference has no interval: a single deal.
pub const ONE_DEAL: &str = "1 deal";
/// Why a pair's mean difference has no interval: its deals do not differ.
pub const NO_SPREAD: &str = "every deal had the same difference";

impl PairStats {
    /// The mean difference for people: `-8.60 ±7.59` (with its 95% interval); where the deals
    /// had no spread, why there is no interval: `-10.50 (every deal had the same difference: no
    /// interval)`; from one deal the figure alone (its Elo says `too few deals`).
    pub fn difference_text(&self) -> String {
        let mean = self.mean_difference;
        match (self.mean_difference_ci95, self.mean_difference_no_interval) {
            (Some(ci), _) => format!("{mean:.2} ±{ci:.2}"),
            (None, Some(NO_SPREAD)) => format!("{mean:.2} ({NO_SPREAD}: no interval)"),
            (None, _) => format!("{mean:.2}"),
        }
    }

    /// The Elo for people: `+113.9 [+7.9, +246.6]` (its 95% interval, `+inf` for an end beyond
    /// a score of 1); `+inf` or `-inf` for a score of 1 or 0; `too few deals` under
    /// [`MIN_ELO_DEALS`]; no interval where every deal scored the same.
    pub fn elo_text(&self) -> String {
        if self.deals < MIN_ELO_DEALS {
            return "too few deals".to_string();
        }
        let Some(elo) = self.elo else {
            return if self.score >= 1.0 { "+inf" } else { "-inf" }.to_string();
        };
        if !self.spread {
            return format!("{elo:+.1}");
        }
        let end =
            |e: Option<f64>, beyond: &str| e.map_or(beyond.to_string(), |e| format!("{e:+.1}"));
        format!(
            "{elo:+.1} [{}, {}]",
            end(self.elo_low, "-inf"),
            end(self.elo_high, "+inf")
        )
    }

    /// The same pair's figures seen from `other`.
    pub fn flipped(&self) -> PairStats {
        let negated = |e: Option<f64>| e.map(|e| -e);
        PairStats {
            bot: self.other.clone(),
            other: self.bot.clone(),
            ahead: self.behind,
            behind: self.ahead,
            mean_difference: -self.mean_difference,
            score: 1.0 - self.score,
            elo: negated(self.elo),
            elo_low: negated(self.elo_high),
            elo_high: negated(self.elo_low),
            los: 1.0 - self.los,
            deal_scores: self
                .deal_scores
                .iter()
                .rev()
                .map(|d| DealScore {
                    points: f64::from(d.games) - d.points,
                    ..d.clone()
                })
                .collect(),
            ..self.clone()
        }
    }

    /// The deals by score, from 0 to 1 in steps of a half-point, when every deal has the same
    /// number of games `n` (`2n + 1` counts: with two seats, fastchess's pentanomial counts);
    /// none when deals of different sizes were played (a run stopped inside a deal).
    pub fn deal_counts(&self) -> Option<Vec<u64>> {
        let games = self.deal_scores.first()?.games;
        if self.deal_scores.iter().any(|d| d.games != games) {
            return None;
        }
        let mut counts = vec![0; 2 * games as usize + 1];
        for d in &self.deal_scores {
            counts[(2.0 * d.points) as usize] += d.deals;
        }
        Some(counts)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DealScore {
    pub games: u32,
    pub points: f64,
    pub deals: u64,
}

/// The fewest deals a pair's Elo is given from: with one or two deals the score is mostly 0 or 1
/// (an infinite Elo) or has no spread (an interval of no width), which says nothing.
pub const MIN_ELO_DEALS: u64 = 3;

/// The quantile of the standard normal distribution for a two-sided 95% interval (1.95996...).
pub fn z95() -> f64 {
    Normal::standard().inverse_cdf(0.975)
}

impl PairAcc {
    /// Adds a finished deal.
    pub fn add(&mut self, deal: &DealAcc) {
        if deal.games == 0 {
            return;
        }
        self.deals += 1;
        self.games += u64::from(deal.games);
        self.ahead += u64::from(deal.ahead);
        self.behind += u64::from(deal.behind);
        self.level += u64::from(deal.games - deal.ahead - deal.behind);
        *self
            .scores
            .entry((deal.games, deal.half_points))
            .or_default() += 1;
        let d = self.differences.entry(deal.games).or_default();
        d.0 += 1;
        d.1 += deal.difference;
        d.2 += i128::from(deal.difference) * i128::from(deal.difference);
    }

    /// The same pair seen from `b`.
    pub fn flipped(&self) -> PairAcc {
        PairAcc {
            deals: self.deals,
            games: self.games,
            ahead: self.behind,
            behind: self.ahead,
            level: self.level,
            scores: self
                .scores
                .iter()
                .map(|(&(n, h), &c)| ((n, 2 * n - h), c))
                .collect(),
            differences: self
                .differences
                .iter()
                .map(|(&n, &(c, s, q))| (n, (c, -s, q)))
                .collect(),
        }
    }

    /// Every score a deal of the sizes seen could have, each with its deals (0 if none), for
    /// the SPRT ([`Sprt::llr`]).
    pub fn score_counts(&self) -> Vec<(f64, u64)> {
        let mut sizes: Vec<u32> = self.scores.keys().map(|&(n, _)| n).collect();
        sizes.dedup();
        let mut counts = Vec::new();
        for n in sizes {
            for h in 0..=2 * n {
                let c = self.scores.get(&(n, h)).copied().unwrap_or(0);
                counts.push((f64::from(h) / f64::from(2 * n), c));
            }
        }
        counts
    }

    /// The LLR of `test` over these deals.
    pub fn llr(&self, test: &Sprt) -> f64 {
        test.llr(&self.score_counts())
    }

    /// Whether every deal had the same difference per game, found from the integer sums (a
    /// variance in floating point would leave a trace of rounding, not 0): within deals of `g`
    /// games, `c` deals with differences summing to `s` and squares to `q` are alike when
    /// `c q = s^2`; deals of two sizes alike when `s / (c g)` is the same.
    fn same_difference_every_deal(&self) -> bool {
        let per_size = |(&g, &(c, s, q)): (&u32, &(u64, i64, i128))| {
            (i128::from(g), i128::from(c), i128::from(s), q)
        };
        let mut sizes = self.differences.iter().map(per_size);
        let Some(first) = sizes.next() else {
            return true;
        };
        let alike = |(_, c, s, q): (i128, i128, i128, i128)| c * q == s * s;
        // s1 / (c1 g1) = s2 / (c2 g2), without dividing.
        let same_mean = |(g1, c1, s1, _): (i128, i128, i128, i128),
                         (g2, c2, s2, _): (i128, i128, i128, i128)| {
            s1 * c2 * g2 == s2 * c1 * g1
        };
        alike(first) && sizes.all(|size| alike(size) && same_mean(first, size))
    }

    pub fn stats(&self, bot: &str, other: &str) -> PairStats {
        let n = self.deals as f64;
        let z = z95();
        // The deals' scores: their mean and (population) variance, as fastchess computes them
        // from pentanomial counts.
        let mut score = 0.0;
        for (&(games, h), &c) in &self.scores {
            score += c as f64 * f64::from(h) / f64::from(2 * games);
        }
        score /= n;
        let mut variance = 0.0;
        for (&(games, h), &c) in &self.scores {
            let x = f64::from(h) / f64::from(2 * games);
            variance += c as f64 * (x - score) * (x - score);
        }
        variance /= n;
        let se = (variance / n).sqrt();
        let (low, high) = (score - z * se, score + z * se);
        let inside = |s: f64| s > 0.0 && s < 1.0;
        let elo = (self.deals >= MIN_ELO_DEALS && inside(score)).then(|| elo_of_score(score));
        let spread = se > 0.0;
        let end = |s: f64| (elo.is_some() && spread && inside(s)).then(|| elo_of_score(s));
        let (elo_low, elo_high) = (end(low), end(high));
        let los = if se > 0.0 {
            Normal::standard().cdf((score - 0.5) / se)
        } else if score > 0.5 {
            1.0
        } else if score < 0.5 {
            0.0
        } else {
            0.5
        };
        // The deals' differences per game: d = difference / games.
        let (mut sum, mut sum_sq) = (0.0, 0.0);
        for (&games, &(_, s, q)) in &self.differences {
            let g = f64::from(games);
            sum += s as f64 / g;
            sum_sq += q as f64 / (g * g);
        }
        let mean = sum / n;
        let mean_difference_no_interval = if self.deals < 2 {
            Some(ONE_DEAL)
        } else if self.same_difference_every_deal() {
            Some(NO_SPREAD)
        } else {
            None
        };
        let mean_difference_ci95 = mean_difference_no_interval.is_none().then(|| {
            let variance = ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0);
            z * (variance / n).sqrt()
        });
        PairStats {
            bot: bot.to_string(),
            other: other.to_string(),
            deals: self.deals,
            games: self.games,
            ahead: self.ahead,
            behind: self.behind,
            level: self.level,
            mean_difference: mean,
            mean_difference_ci95,
            mean_difference_no_interval,
            score,
            elo,
            elo_low,
            elo_high,
            spread,
            los,
            deal_scores: self
                .scores
                .iter()
                .map(|(&(games, h), &deals)| DealScore {
                    games,
                    points: f64::from(h) / 2.0,
                    deals,
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(games: &[(u32, i32, u32, i32)]) -> DealAcc {
        let mut d = DealAcc::new();
        for &(ra, ta, rb, tb) in games {
            d.add(ra, ta, rb, tb);
        }
        d
    }

    /// A pair's accumulator over `deals`, each the games of one deal.
    fn pair(deals: &[&[(u32, i32, u32, i32)]]) -> PairAcc {
        let mut acc = PairAcc::default();
        for games in deals {
            acc.add(&deal(games));
        }
        acc
    }

    /// Four two-game deals scoring 1, 3/4, 1/2 and 1/2: score 11/16 = 0.6875, population
    /// variance ((5/16)^2 + (1/16)^2 + 2 (3/16)^2) / 4 = 44/1024, standard error
    /// sqrt(44/1024 / 4) = 0.10364; LOS = Phi((0.6875 - 0.5) / 0.10364) = Phi(1.80907) = 0.96478;
    /// Elo -400 log10(1/0.6875 - 1) = 136.97; the differences per game -10, -4, 0, 2: mean -3,
    /// sample standard deviation sqrt(((-7)^2 + (-1)^2 + 3^2 + 5^2) / 3) = 5.2915, half-width
    /// 1.95996 x 5.2915 / 2 = 5.1856.
    #[test]
    fn a_pair_is_scored_deal_by_deal() {
        let acc = pair(&[
            &[(1, 10, 2, 30), (1, 20, 2, 20)],
            &[(1, 10, 2, 18), (1, 5, 1, 5)],
            &[(1, 0, 2, 3), (2, 9, 1, 6)],
            &[(3, 30, 2, 26), (1, 8, 3, 8)],
        ]);
        let s = acc.stats("a", "b");
        assert_eq!(
            (s.deals, s.games, s.ahead, s.behind, s.level),
            (4, 8, 5, 2, 1)
        );
        assert!((s.score - 0.6875).abs() < 1e-12);
        assert!((s.los - 0.96478).abs() < 1e-5, "{}", s.los);
        assert!((s.elo.unwrap() - 136.97).abs() < 0.01, "{:?}", s.elo);
        assert!((s.mean_difference - -3.0).abs() < 1e-12);
        let ci = s.mean_difference_ci95.unwrap();
        assert!((ci - 5.1856).abs() < 1e-3, "{ci}");
        // Seen from b, everything turns round.
        let b = acc.flipped().stats("b", "a");
        assert!((b.score - 0.3125).abs() < 1e-12);
        assert!((b.los - (1.0 - s.los)).abs() < 1e-12);
        assert!((b.mean_difference - 3.0).abs() < 1e-12);
        assert_eq!((b.ahead, b.behind), (2, 5));
    }

    #[test]
    fn a_pair_that_always_wins_has_no_finite_elo_but_a_sure_los() {
        let acc = pair(&[&[(1, 10, 2, 30), (1, 20, 2, 21)][..]; 3]);
        let s = acc.stats("a", "b");
        assert_eq!(s.elo, None);
        assert_eq!((s.elo_low, s.elo_high), (None, None));
        assert_eq!(s.los, 1.0);
        // Every score of a two-game deal is listed for the SPRT, the empty ones with 0.
        assert_eq!(
            acc.score_counts(),
            [(0.0, 0), (0.25, 0), (0.5, 0), (0.75, 0), (1.0, 3)]
        );
    }

    /// One or two deals give no Elo ("too few deals"), never `+inf` or `±0.0`; from three on, an
    /// Elo with its interval as [low, high], not symmetric about it; no interval where every
    /// deal scored the same; `+inf` where every game was won.
    #[test]
    fn the_elo_is_said_from_three_deals_with_its_interval_as_two_ends() {
        let win = [(1, 10, 2, 30), (1, 20, 2, 21)];
        let split = [(1, 10, 2, 30), (2, 20, 1, 2)];
        let mut acc = PairAcc::default();
        acc.add(&deal(&win));
        assert_eq!(acc.stats("a", "b").elo_text(), "too few deals");
        acc.add(&deal(&win));
        let two = acc.stats("a", "b");
        assert_eq!((two.elo, two.elo_low, two.elo_high), (None, None, None));
        assert_eq!(two.elo_text(), "too few deals");
        acc.add(&deal(&win));
        assert_eq!(acc.stats("a", "b").elo_text(), "+inf");
        // Three deals alike at 3/4: an Elo, and no interval (it would be ±0.0).
        let alike = pair(&[&[(1, 10, 2, 30), (1, 5, 1, 5)][..]; 3]);
        let s = alike.stats("a", "b");
        assert_eq!((s.elo_low, s.elo_high), (None, None));
        assert_eq!(s.elo_text(), "+190.8");
        // Deals that differ: [low, high] around the Elo, further above it than below.
        let mixed = pair(&[&win, &split, &win, &split, &split]);
        let s = mixed.stats("a", "b");
        let (elo, low, high) = (s.elo.unwrap(), s.elo_low.unwrap(), s.elo_high.unwrap());
        assert!(low < elo && elo < high);
        assert!(high - elo > elo - low, "{low} {elo} {high}");
        assert_eq!(s.elo_text(), format!("{elo:+.1} [{low:+.1}, {high:+.1}]"));
        assert!(!s.elo_text().contains('±'));
        // Seven deals won and one split: the interval's top is beyond a score of 1.
        let mut most = pair(&[&win[..]; 7]);
        most.add(&deal(&split));
        let s = most.stats("a", "b");
        assert_eq!(s.elo_high, None);
        assert!(s.elo_text().ends_with(", +inf]"), "{}", s.elo_text());
    }

    /// Deals that all had the same difference give no interval (it would read `±0.00`, as if
    /// the difference were known exactly), and say why; one deal has none either (the JSON
    /// says why); one deal that differs gives the interval back. Deals of two sizes with one difference per game are
    /// alike too.
    #[test]
    fn deals_without_spread_give_the_difference_no_interval_and_say_why() {
        let win = [(1, 10, 2, 30), (1, 20, 2, 21)];
        let mut acc = PairAcc::default();
        acc.add(&deal(&win));
        let one = acc.stats("a", "b");
        assert_eq!(one.mean_difference_no_interval, Some(ONE_DEAL));
        assert_eq!(one.difference_text(), "-10.50");
        for _ in 0..4 {
            acc.add(&deal(&win));
        }
        let alike = acc.stats("a", "b");
        assert_eq!(alike.mean_difference_ci95, None);
        assert_eq!(alike.mean_difference_no_interval, Some(NO_SPREAD));
        assert_eq!(
            alike.difference_text(),
            "-10.50 (every deal had the same difference: no interval)"
        );
        let json = serde_json::to_value(&alike).unwrap();
        assert_eq!(json["mean_difference_ci95"], serde_json::Value::Null);
        assert_eq!(json["mean_difference_no_interval"], NO_SPREAD);
        // A deal of one game with the same difference per game (-10.5 needs two games: -7 and
        // -14 over 1 and 2 games are -7 a game both).
        let sizes = pair(&[&[(1, 3, 2, 10)], &[(1, 3, 2, 10), (1, 0, 2, 7)]]);
        assert_eq!(
            sizes.stats("a", "b").mean_difference_no_interval,
            Some(NO_SPREAD)
        );
        acc.add(&deal(&[(1, 10, 2, 30), (2, 20, 1, 2)]));
        let spread = acc.stats("a", "b");
        assert!(spread.mean_difference_ci95.unwrap() > 0.0);
        assert_eq!(spread.mean_difference_no_interval, None);
        assert!(
            serde_json::to_value(&spread)
                .unwrap()
                .get("mean_difference_no_interval")
                .is_none()
        );
        assert!(
            spread.difference_text().contains(" ±"),
            "{}",
            spread.difference_text()
        );
    }

    #[test]
    fn deals_are_counted_by_score_from_0_to_1() {
        let mut acc = pair(&[
            &[(1, 10, 2, 30), (1, 20, 2, 21)],
            &[(1, 10, 2, 30), (1, 5, 1, 5)],
            &[(2, 10, 1, 3), (2, 5, 1, 1)],
        ]);
        // Two seats: the pentanomial counts of 0, 1/4, 1/2, 3/4, 1.
        assert_eq!(acc.stats("a", "b").deal_counts(), Some(vec![1, 0, 0, 1, 1]));
        // A deal cut short (one game) among deals of two: no counts.
        acc.add(&deal(&[(1, 10, 2, 30)]));
        assert_eq!(acc.stats("a", "b").deal_counts(), None);
    }
}
