//! A rating list over many results (docs/tournaments.md, "A rating list"): each bot's
//! maximum-likelihood Elo under the Plackett-Luce model of a game's finishing order, with a 95%
//! interval from the observed information, as BayesElo and Ordo give for engine lists.
//!
//! A finishing order (best first) has the probability `prod_t w[o_t] / sum_{s >= t} w[o_s]`,
//! `w = 10^(elo / 400)`: with two seats, the logistic Elo model of the paired statistics. Bots
//! that share a rank take every order among themselves with equal weight (each of the `k!`
//! orders of `k` tied bots counts `1 / k!` of the game), as a level game counts half a win and
//! half a loss. The games are kept as the distinct orders seen and their counts, so the memory
//! grows with the bots and tables, not with the games.

use super::paired::z95;
use super::results::GameResult;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// Elo per unit of natural log-strength: `elo = K ln w`.
const K: f64 = 400.0 / std::f64::consts::LN_10;

/// The most bots rated together.
pub const MAX_BOTS: usize = 1000;

/// The most Newton steps taken; from all ratings at 0 it converges in a few dozen.
const MAX_STEPS: usize = 200;

/// The games of a rating list, as the finishing orders seen.
#[derive(Default)]
pub struct Games {
    names: Vec<String>,
    index: HashMap<String, usize>,
    /// Per bot, the games it played.
    played: Vec<u64>,
    /// A finishing order as `(rank, bot)` by rank (then bot), and the games that ended so.
    orders: BTreeMap<Vec<(u32, u32)>, u64>,
    games: u64,
}

/// The bot whose rating is fixed, and at what.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Anchor {
    pub bot: String,
    pub elo: f64,
}

/// The rating list, best first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    pub games: u64,
    /// None: the ratings are about their mean, 0.
    pub anchor: Option<Anchor>,
    pub bots: Vec<Rated>,
}

/// One bot's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rated {
    pub name: String,
    pub games: u64,
    pub elo: f64,
    /// The 95% interval: `elo` -/+ 1.95996 standard errors (the anchor's has no width).
    pub elo_low: f64,
    pub elo_high: f64,
}

impl Games {
    fn bot(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name.to_string());
        self.played.push(0);
        self.index.insert(name.to_string(), self.names.len() - 1);
        self.names.len() - 1
    }

    /// Adds a game (in any order: the list depends on the set of games only).
    pub fn add(&mut self, game: &GameResult) {
        let mut order: Vec<(u32, u32)> = game
            .seating
            .iter()
            .zip(&game.ranks)
            .map(|(name, &rank)| (rank, self.bot(name) as u32))
            .collect();
        for &(_, b) in &order {
            self.played[b as usize] += 1;
        }
        order.sort_unstable();
        *self.orders.entry(order).or_default() += 1;
        self.games += 1;
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    /// The names of the bots, in the order they came.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The maximum-likelihood ratings, `anchor`'s fixed at its value (none: about their mean);
    /// an error when there is no maximum (a group of bots never finished behind the others).
    /// The figures depend on the set of games only, to the last bit: the bots are taken in
    /// order of name, the orders in their order.
    pub fn rate(&self, anchor: Option<&Anchor>) -> Result<Ratings, String> {
        let mut by_name: Vec<usize> = (0..self.names.len()).collect();
        by_name.sort_by(|&a, &b| self.names[a].cmp(&self.names[b]));
        let mut new_index = vec![0u32; by_name.len()];
        for (new, &old) in by_name.iter().enumerate() {
            new_index[old] = new as u32;
        }
        let mut sorted = Games {
            names: by_name.iter().map(|&i| self.names[i].clone()).collect(),
            played: by_name.iter().map(|&i| self.played[i]).collect(),
            games: self.games,
            ..Games::default()
        };
        for (i, name) in sorted.names.iter().enumerate() {
            sorted.index.insert(name.clone(), i);
        }
        for (order, &count) in &self.orders {
            let mut order: Vec<(u32, u32)> = order
                .iter()
                .map(|&(rank, b)| (rank, new_index[b as usize]))
                .collect();
            order.sort_unstable();
            *sorted.orders.entry(order).or_default() += count;
        }
        sorted.fit(anchor)
    }

    fn fit(&self, anchor: Option<&Anchor>) -> Result<Ratings, String> {
        let n = self.names.len();
        if n < 2 {
            return Err(format!(
                "a rating list needs two bots or more; the results have {n}"
            ));
        }
        if n > MAX_BOTS {
            return Err(format!(
                "a rating list of {n} bots: at most {MAX_BOTS} are rated (each step of the fit takes the cube of the bots' number)"
            ));
        }
        let fixed = match anchor {
            Some(a) => *self.index.get(&a.bot).ok_or_else(|| {
                format!(
                    "--anchor: no bot named `{}` in the results ({})",
                    a.bot,
                    self.names.join(", ")
                )
            })?,
            None => 0,
        };
        self.check_bounded()?;
        let mut theta = vec![0.0; n];
        let mut converged = false;
        for _ in 0..MAX_STEPS {
            let now = self.derivatives(&theta);
            let step = solve(&now.information(fixed), &now.gradient_without(fixed))
                .ok_or("the ratings' information matrix is singular")?;
            let step = with_index(step, fixed);
            // Backtracking: the log-likelihood is concave, so a short enough step climbs.
            let mut t = 1.0;
            let next = loop {
                let tried: Vec<f64> = theta.iter().zip(&step).map(|(x, d)| x + t * d).collect();
                if self.derivatives(&tried).log_likelihood >= now.log_likelihood - 1e-9 || t < 1e-6
                {
                    break tried;
                }
                t /= 2.0;
            };
            let moved = step.iter().map(|d| (t * d).abs()).fold(0.0, f64::max);
            theta = next;
            if moved < 1e-11 {
                converged = true;
                break;
            }
        }
        if !converged {
            return Err(format!("the ratings did not converge in {MAX_STEPS} steps"));
        }
        let information = self.derivatives(&theta).information(fixed);
        let covariance = with_index_matrix(
            inverse(&information).ok_or("the ratings' information matrix is singular")?,
            fixed,
        );
        let z = z95();
        let mean = theta.iter().sum::<f64>() / n as f64;
        let mut bots: Vec<Rated> = (0..n)
            .map(|i| {
                let (elo, variance) = match anchor {
                    Some(a) => (a.elo + K * (theta[i] - theta[fixed]), covariance[i][i]),
                    None => {
                        // Var(theta_i - mean): v' C v with v = e_i - 1/n.
                        let v: Vec<f64> = (0..n)
                            .map(|j| f64::from(u8::from(i == j)) - 1.0 / n as f64)
                            .collect();
                        let variance = (0..n)
                            .map(|j| v[j] * (0..n).map(|k| covariance[j][k] * v[k]).sum::<f64>())
                            .sum();
                        (K * (theta[i] - mean), variance)
                    }
                };
                let half = z * K * variance.max(0.0).sqrt();
                Rated {
                    name: self.names[i].clone(),
                    games: self.played[i],
                    elo,
                    elo_low: elo - half,
                    elo_high: elo + half,
                }
            })
            .collect();
        bots.sort_by(|a, b| b.elo.total_cmp(&a.elo).then_with(|| a.name.cmp(&b.name)));
        Ok(Ratings {
            games: self.games,
            anchor: anchor.cloned(),
            bots,
        })
    }

    /// Refuses games with no maximum likelihood: one exists when, however the bots are split
    /// in two, a bot of each part finished ahead of (or level with) one of the other at least
    /// once (Hunter 2004, assumption 1): the graph of "ahead or level" is strongly connected.
    fn check_bounded(&self) -> Result<(), String> {
        let n = self.names.len();
        let mut ahead = vec![vec![false; n]; n];
        for order in self.orders.keys() {
            for (i, &(rank_a, a)) in order.iter().enumerate() {
                for &(rank_b, b) in &order[i + 1..] {
                    ahead[a as usize][b as usize] = true;
                    if rank_a == rank_b {
                        ahead[b as usize][a as usize] = true;
                    }
                }
            }
        }
        // The bots that reach the first, and that the first reaches: all of them when the
        // graph is strongly connected.
        let reach = |forward: bool| {
            let mut seen = vec![false; n];
            let mut stack = vec![0];
            seen[0] = true;
            while let Some(a) = stack.pop() {
                for b in 0..n {
                    let edge = if forward { ahead[a][b] } else { ahead[b][a] };
                    if edge && !seen[b] {
                        seen[b] = true;
                        stack.push(b);
                    }
                }
            }
            seen
        };
        let (from, to) = (reach(true), reach(false));
        let names = |keep: &dyn Fn(usize) -> bool| {
            (0..n)
                .filter(|&i| keep(i))
                .map(|i| self.names[i].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        // The first bot's part: those it reaches and that reach it. Split from the rest,
        // either it never finished behind them or they never finished behind it.
        let (upper, lower) = if from.iter().all(|&x| x) && to.iter().all(|&x| x) {
            return Ok(());
        } else if !to.iter().all(|&x| x) {
            // Some bots never finished behind anyone that reaches the first one: those
            // reaching it are never beaten by the others.
            (names(&|i| to[i]), names(&|i| !to[i]))
        } else {
            (names(&|i| !from[i]), names(&|i| from[i]))
        };
        Err(format!(
            "no maximum-likelihood ratings: {upper} never finished behind (or level with) {lower} in the games given, so nothing bounds how much stronger they are: rate them apart, or add games where they meet"
        ))
    }

    /// The log-likelihood at `theta` (natural log-strengths), its gradient and its Hessian.
    fn derivatives(&self, theta: &[f64]) -> Derivatives {
        let n = theta.len();
        let mut d = Derivatives {
            log_likelihood: 0.0,
            gradient: vec![0.0; n],
            hessian: vec![vec![0.0; n]; n],
        };
        let mut set: Vec<usize> = Vec::new();
        for (order, &count) in &self.orders {
            let c = count as f64;
            for &(_, b) in order {
                d.log_likelihood += c * theta[b as usize];
                d.gradient[b as usize] += c;
            }
            let mut start = 0;
            while start < order.len() {
                let rank = order[start].0;
                let end = start + order[start..].iter().take_while(|o| o.0 == rank).count();
                let k = end - start;
                // The tied group start..end, over every order of it: at its m-th place the
                // bots left are the rest of the game but a uniform m-subset of the group.
                for mask in 0u32..(1 << k) - 1 {
                    let m = mask.count_ones() as usize;
                    let weight = c / binomial(k, m);
                    set.clear();
                    set.extend(
                        (start..end)
                            .filter(|&i| mask & (1 << (i - start)) == 0)
                            .chain(end..order.len())
                            .map(|i| order[i].1 as usize),
                    );
                    d.subtract_log_sum(&set, theta, weight);
                }
                start = end;
            }
        }
        d
    }
}

impl Ratings {
    /// How the ratings were made, in a line: the model, the ties, the anchor, the intervals.
    pub fn method(&self) -> String {
        let anchor = match &self.anchor {
            Some(a) => format!("anchor {} = {}", a.bot, a.elo),
            None => "no anchor (the ratings' mean is 0)".to_string(),
        };
        format!(
            "maximum-likelihood Elo (Plackett-Luce over each game's finishing order; tied bots take every order among them alike); {anchor}; 95% intervals from the observed information"
        )
    }

    /// `elo` as the list prints it: `+512.3`.
    pub fn elo_text(elo: f64) -> String {
        format!("{elo:+.1}")
    }

    /// A bot's interval as the list prints it: `[+470.1, +554.5]`, or `(anchor)`.
    pub fn interval_text(&self, bot: &Rated) -> String {
        if self.anchor.as_ref().is_some_and(|a| a.bot == bot.name) {
            "(anchor)".to_string()
        } else {
            format!(
                "[{}, {}]",
                Ratings::elo_text(bot.elo_low),
                Ratings::elo_text(bot.elo_high)
            )
        }
    }

    /// Per bot, best first, the list's cells: name, games, Elo, interval (as the text and the
    /// HTML report show them).
    pub fn rows(&self) -> Vec<[String; 4]> {
        self.bots
            .iter()
            .map(|b| {
                [
                    b.name.clone(),
                    b.games.to_string(),
                    Ratings::elo_text(b.elo),
                    self.interval_text(b),
                ]
            })
            .collect()
    }

    /// The list for the terminal, best first (names as they are: the caller makes them
    /// visible).
    pub fn table(&self) -> String {
        let mut out = format!(
            "rating list, {}: {}\n",
            crate::words::count(self.games, "game"),
            self.method()
        );
        let rows = self.rows();
        let head = ["bot", "games", "elo", "95% interval"].map(str::to_string);
        let width = |i: usize| {
            rows.iter()
                .chain([&head])
                .map(|r| crate::visible::visible(&r[i]).chars().count())
                .max()
                .unwrap_or(0)
        };
        let (w0, w1, w2) = (width(0), width(1), width(2));
        for r in [&head].into_iter().chain(&rows) {
            let name = crate::visible::visible(&r[0]);
            let _ = writeln!(out, "{name:<w0$}  {:>w1$}  {:>w2$}  {}", r[1], r[2], r[3]);
        }
        out
    }

    /// The list as CSV: `bot,games,elo,elo_low,elo_high`.
    pub fn csv(&self) -> String {
        let mut out = String::from("bot,games,elo,elo_low,elo_high\n");
        for b in &self.bots {
            let _ = writeln!(
                out,
                "{},{},{},{},{}",
                super::stats::csv_field(&b.name),
                b.games,
                b.elo,
                b.elo_low,
                b.elo_high
            );
        }
        out
    }
}

struct Derivatives {
    log_likelihood: f64,
    gradient: Vec<f64>,
    hessian: Vec<Vec<f64>>,
}

impl Derivatives {
    /// Adds `-weight ln sum_{j in set} e^theta_j` and its derivatives.
    fn subtract_log_sum(&mut self, set: &[usize], theta: &[f64], weight: f64) {
        let top = set
            .iter()
            .map(|&j| theta[j])
            .fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = set.iter().map(|&j| (theta[j] - top).exp()).sum();
        self.log_likelihood -= weight * (top + sum.ln());
        for &j in set {
            let p = (theta[j] - top).exp() / sum;
            self.gradient[j] -= weight * p;
            self.hessian[j][j] -= weight * p;
            for &l in set {
                self.hessian[j][l] += weight * p * (theta[l] - top).exp() / sum;
            }
        }
    }

    /// The observed information (minus the Hessian) without the fixed bot's row and column.
    fn information(&self, fixed: usize) -> Vec<Vec<f64>> {
        without(&self.hessian, fixed)
            .into_iter()
            .map(|row| without(&row, fixed).into_iter().map(|x| -x).collect())
            .collect()
    }

    fn gradient_without(&self, fixed: usize) -> Vec<f64> {
        without(&self.gradient, fixed)
    }
}

fn without<T: Clone>(items: &[T], index: usize) -> Vec<T> {
    let mut out = items.to_vec();
    out.remove(index);
    out
}

/// `v` with a 0 put back at `index`.
fn with_index(mut v: Vec<f64>, index: usize) -> Vec<f64> {
    v.insert(index, 0.0);
    v
}

/// `m` with a row and a column of 0 put back at `index`.
fn with_index_matrix(m: Vec<Vec<f64>>, index: usize) -> Vec<Vec<f64>> {
    let mut out: Vec<Vec<f64>> = m.into_iter().map(|row| with_index(row, index)).collect();
    out.insert(
        index,
        vec![0.0; out.first().map_or(1, Vec::len).max(index + 1)],
    );
    out
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The Cholesky factor `L` of a symmetric positive definite `a` (`a = L L'`); none if `a` is
/// not (to rounding). A few lines here rather than a linear algebra crate for one solve and
/// one inverse of a matrix the size of the pool.
fn cholesky(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = a[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i][i] = s.sqrt();
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    }
    Some(l)
}

/// Solves `L L' x = b`.
fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    x
}

fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    cholesky(a).map(|l| cholesky_solve(&l, b))
}

fn inverse(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let l = cholesky(a)?;
    let n = a.len();
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|j| {
            let e: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == j))).collect();
            cholesky_solve(&l, &e)
        })
        .collect();
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seating: &[&str], ranks: &[u32]) -> GameResult {
        GameResult {
            game: 0,
            table: 0,
            deal: 0,
            rotation: 0,
            seed: None,
            seating: seating.iter().map(|s| s.to_string()).collect(),
            totals: ranks.iter().map(|&r| r as i32).collect(),
            ranks: ranks.to_vec(),
            winners: Vec::new(),
            faults: Vec::new(),
            times: None,
        }
    }

    /// With two seats the model is the logistic Elo of a score: 3 wins in 4 games is
    /// 400 log10(3), about 190.8 Elo, and a level game counts half a win.
    #[test]
    fn two_bots_are_rated_by_their_score() {
        let mut games = Games::default();
        for _ in 0..3 {
            games.add(&game(&["a", "b"], &[1, 2]));
        }
        games.add(&game(&["a", "b"], &[2, 1]));
        let anchor = Anchor {
            bot: "b".into(),
            elo: 0.0,
        };
        let r = games.rate(Some(&anchor)).unwrap();
        assert_eq!(r.bots[0].name, "a");
        assert!((r.bots[0].elo - 400.0 * 3f64.log10()).abs() < 1e-9, "{r:?}");
        assert_eq!((r.bots[1].elo, r.bots[1].elo_low), (0.0, 0.0));
        // Two level games more: a score of 4 of 6, twice as likely to win as to lose.
        games.add(&game(&["a", "b"], &[1, 1]));
        games.add(&game(&["b", "a"], &[1, 1]));
        let r = games.rate(Some(&anchor)).unwrap();
        let expected = 400.0 * 2f64.log10();
        assert!((r.bots[0].elo - expected).abs() < 1e-9, "{r:?}");
        // Without an anchor, about their mean.
        let r = games.rate(None).unwrap();
        assert!((r.bots[0].elo + r.bots[1].elo).abs() < 1e-9);
        assert!((r.bots[0].elo - r.bots[1].elo - expected).abs() < 1e-9);
    }

    #[test]
    fn a_bot_never_behind_has_no_maximum() {
        let mut games = Games::default();
        games.add(&game(&["a", "b", "c"], &[1, 2, 3]));
        games.add(&game(&["a", "c", "b"], &[1, 2, 3]));
        games.add(&game(&["c", "b", "a"], &[1, 2, 3]));
        assert!(games.rate(None).is_ok());
        let mut games = Games::default();
        games.add(&game(&["a", "b", "c"], &[1, 2, 3]));
        games.add(&game(&["a", "c", "b"], &[1, 2, 3]));
        games.add(&game(&["b", "c"], &[2, 1]));
        let error = games.rate(None).unwrap_err();
        assert!(
            error.starts_with(
                "no maximum-likelihood ratings: a never finished behind (or level with) b, c"
            ),
            "{error}"
        );
    }
}
