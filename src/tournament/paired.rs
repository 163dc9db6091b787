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
    /// by its games (per game); and the half-width of its 95% interval (none under 2 deals).
    pub mean_difference: f64,
    pub mean_difference_ci95: Option<f64>,
    /// The share of points `bot` took (1 a game ahead, 1/2 level, 0 behind), the mean of the
    /// deals' scores.
    pub score: f64,
    /// The Elo difference of that score (logistic model), none at a score of 0 or 1; the
    /// half-width of its 95% interval, none where the interval leaves (0, 1) or under 2 deals.
    pub elo: Option<f64>,
    pub elo_ci95: Option<f64>,
    /// The likelihood of superiority: the chance that `bot` is the stronger, from the deals'
    /// scores (normal approximation).
    pub los: f64,
    /// How many deals had each score: `points` of `games` (1 a game ahead, 1/2 level).
    pub deal_scores: Vec<DealScore>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DealScore {
    pub games: u32,
    pub points: f64,
    pub deals: u64,
}

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
        let elo = inside(score).then(|| elo_of_score(score));
        let elo_ci95 = (self.deals >= 2 && inside(low) && inside(high))
            .then(|| (elo_of_score(high) - elo_of_score(low)) / 2.0);
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
        let mean_difference_ci95 = (self.deals >= 2).then(|| {
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
            score,
            elo,
            elo_ci95,
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

    /// Four two-game deals scoring 1, 3/4, 1/2 and 1/2: score 11/16 = 0.6875, population
    /// variance ((5/16)^2 + (1/16)^2 + 2 (3/16)^2) / 4 = 44/1024, standard error
    /// sqrt(44/1024 / 4) = 0.10364; LOS = Phi((0.6875 - 0.5) / 0.10364) = Phi(1.80907) = 0.96478;
    /// Elo -400 log10(1/0.6875 - 1) = 136.97; the differences per game -10, -4, 0, 2: mean -3,
    /// sample standard deviation sqrt(((-7)^2 + (-1)^2 + 3^2 + 5^2) / 3) = 5.2915, half-width
    /// 1.95996 x 5.2915 / 2 = 5.1856.
    #[test]
    fn a_pair_is_scored_deal_by_deal() {
        let mut acc = PairAcc::default();
        acc.add(&deal(&[(1, 10, 2, 30), (1, 20, 2, 20)]));
        acc.add(&deal(&[(1, 10, 2, 18), (1, 5, 1, 5)]));
        acc.add(&deal(&[(1, 0, 2, 3), (2, 9, 1, 6)]));
        acc.add(&deal(&[(3, 30, 2, 26), (1, 8, 3, 8)]));
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
        let mut acc = PairAcc::default();
        for _ in 0..3 {
            acc.add(&deal(&[(1, 10, 2, 30), (1, 20, 2, 21)]));
        }
        let s = acc.stats("a", "b");
        assert_eq!(s.elo, None);
        assert_eq!(s.elo_ci95, None);
        assert_eq!(s.los, 1.0);
        // Every score of a two-game deal is listed for the SPRT, the empty ones with 0.
        assert_eq!(
            acc.score_counts(),
            [(0.0, 0), (0.25, 0), (0.5, 0), (0.75, 0), (1.0, 3)]
        );
    }
}
