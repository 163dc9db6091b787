//! Statistics over game results: per bot, and head to head (docs/tournaments.md). They depend
//! only on the set of results: games are taken in order of their id, whatever order they were
//! played or merged in.

use super::results::GameResult;
use serde::Serialize;
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One bot's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotStats {
    pub name: String,
    pub games: u64,
    pub mean_penalty: f64,
    /// Half the width of the 95% confidence interval of the mean (normal approximation,
    /// 1.96 standard errors); none under two games.
    pub ci95: Option<f64>,
    pub win_rate: f64,
    pub mean_rank: f64,
    /// Weng-Lin rating (skillratings, default configuration): mu and sigma.
    pub rating: f64,
    pub uncertainty: f64,
    /// Faults by kind (crash, timeout, illegal, protocol).
    pub faults: BTreeMap<String, u64>,
    /// The ids of the games where it faulted.
    pub fault_games: Vec<u64>,
}

/// How two bots did in the games they played together.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeadToHead {
    pub bot: String,
    pub other: String,
    pub games: u64,
    /// Games `bot` ranked better than `other`, worse, and the same.
    pub ahead: u64,
    pub behind: u64,
    pub level: u64,
}

/// The statistics of a set of results; bots by rating, best first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub games: u64,
    pub bots: Vec<BotStats>,
    pub head_to_head: Vec<HeadToHead>,
}

#[derive(Default)]
struct Acc {
    games: u64,
    sum: f64,
    sum_sq: f64,
    wins: u64,
    ranks: u64,
    rating: WengLinRating,
    faults: BTreeMap<String, u64>,
    fault_games: Vec<u64>,
}

/// Merges results (from several files, say): sorted by game id; a game given twice must be
/// the same game.
pub fn merge(sets: Vec<Vec<GameResult>>) -> Result<Vec<GameResult>, String> {
    let mut all: Vec<GameResult> = sets.into_iter().flatten().collect();
    all.sort_by_key(|r| r.game);
    let mut merged: Vec<GameResult> = Vec::with_capacity(all.len());
    for result in all {
        match merged.last() {
            Some(last) if last.game == result.game => {
                if *last != result {
                    return Err(format!(
                        "game {} is given twice with different results (results of different tournaments?)",
                        result.game
                    ));
                }
            }
            _ => merged.push(result),
        }
    }
    Ok(merged)
}

/// Computes the statistics of `results`, which must be sorted by game id (see [`merge`]).
pub fn compute(results: &[GameResult]) -> Stats {
    let mut acc = Accumulator::default();
    for game in results {
        acc.add(game);
    }
    acc.finish()
}

/// Statistics built game by game, in order of game id, keeping nothing per game: the memory
/// stays flat however many games are added.
#[derive(Default)]
pub struct Accumulator {
    games: u64,
    bots: BTreeMap<String, Acc>,
    pairs: BTreeMap<(String, String), [u64; 3]>,
    config: WengLinConfig,
}

impl Accumulator {
    fn bot(&mut self, name: &str) -> &mut Acc {
        if !self.bots.contains_key(name) {
            self.bots.insert(name.to_string(), Acc::default());
        }
        self.bots.get_mut(name).expect("just inserted")
    }

    /// Adds the next game (games must come in order of their id).
    pub fn add(&mut self, game: &GameResult) {
        self.games += 1;
        for (seat, name) in game.seating.iter().enumerate() {
            let a = self.bot(name);
            let total = f64::from(game.totals[seat]);
            a.games += 1;
            a.sum += total;
            a.sum_sq += total * total;
            a.wins += u64::from(game.winners.contains(&seat));
            a.ranks += u64::from(game.ranks[seat]);
        }
        for fault in &game.faults {
            let a = self.bot(&game.seating[fault.seat]);
            *a.faults.entry(fault.kind.name().to_string()).or_default() += 1;
            if a.fault_games.last() != Some(&game.game) {
                a.fault_games.push(game.game);
            }
        }
        let teams: Vec<[WengLinRating; 1]> = game
            .seating
            .iter()
            .map(|n| [self.bots[n.as_str()].rating])
            .collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&game.ranks)
            .map(|(team, &rank)| (&team[..], MultiTeamOutcome::new(rank as usize)))
            .collect();
        let rated = weng_lin_multi_team(&ranked, &self.config);
        for (name, new) in game.seating.iter().zip(rated) {
            self.bot(name).rating = new[0];
        }
        for (i, a) in game.seating.iter().enumerate() {
            for (j, b) in game.seating.iter().enumerate() {
                if i == j {
                    continue;
                }
                let k = match game.ranks[i].cmp(&game.ranks[j]) {
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Greater => 1,
                    std::cmp::Ordering::Equal => 2,
                };
                match self.pairs.get_mut(&(a.clone(), b.clone())) {
                    Some(pair) => pair[k] += 1,
                    None => {
                        let mut pair = [0; 3];
                        pair[k] = 1;
                        self.pairs.insert((a.clone(), b.clone()), pair);
                    }
                }
            }
        }
    }

    pub fn finish(self) -> Stats {
        let mut bots: Vec<BotStats> = self
            .bots
            .into_iter()
            .map(|(name, a)| {
                let n = a.games as f64;
                let mean = a.sum / n;
                let ci95 = (a.games >= 2).then(|| {
                    let variance = ((a.sum_sq - n * mean * mean) / (n - 1.0)).max(0.0);
                    1.96 * (variance / n).sqrt()
                });
                BotStats {
                    name,
                    games: a.games,
                    mean_penalty: mean,
                    ci95,
                    win_rate: a.wins as f64 / n,
                    mean_rank: a.ranks as f64 / n,
                    rating: a.rating.rating,
                    uncertainty: a.rating.uncertainty,
                    faults: a.faults,
                    fault_games: a.fault_games,
                }
            })
            .collect();
        bots.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.name.cmp(&b.name)));
        let head_to_head = self
            .pairs
            .into_iter()
            .map(|((bot, other), [ahead, behind, level])| HeadToHead {
                bot,
                other,
                games: ahead + behind + level,
                ahead,
                behind,
                level,
            })
            .collect();
        Stats {
            games: self.games,
            bots,
            head_to_head,
        }
    }
}

/// Feeds an [`Accumulator`] games that arrive in any order (from several jobs), in order of
/// their id: the games `first`, `first + step`, ... below `end`. Only the games that arrived
/// ahead of their turn are kept (about as many as there are jobs).
pub struct InOrder {
    next: u64,
    step: u64,
    end: u64,
    waiting: BTreeMap<u64, GameResult>,
    acc: Accumulator,
}

impl InOrder {
    pub fn new(first: u64, step: u64, end: u64) -> InOrder {
        InOrder {
            next: first,
            step: step.max(1),
            end,
            waiting: BTreeMap::new(),
            acc: Accumulator::default(),
        }
    }

    pub fn push(&mut self, result: GameResult) {
        self.waiting.insert(result.game, result);
        while self.next < self.end {
            let Some(game) = self.waiting.remove(&self.next) else {
                break;
            };
            self.acc.add(&game);
            self.next += self.step;
        }
    }

    /// The statistics, once every game has arrived.
    pub fn finish(self) -> Stats {
        debug_assert!(self.waiting.is_empty(), "a game came twice or out of range");
        self.acc.finish()
    }
}

impl Stats {
    /// A table for the terminal: the bots, then head to head (row bot ahead of column bot, in
    /// percent of their games together).
    pub fn table(&self) -> String {
        let mut out = String::new();
        let width = self
            .bots
            .iter()
            .map(|b| b.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(4);
        let _ = writeln!(out, "{} games", self.games);
        let _ = writeln!(
            out,
            "{:<width$} {:>6} {:>16} {:>6} {:>6} {:>13}  faults",
            "bot", "games", "mean total", "wins", "rank", "rating"
        );
        for b in &self.bots {
            let ci = b.ci95.map_or("".to_string(), |c| format!(" ±{c:.2}"));
            let faults = if b.faults.is_empty() {
                "-".to_string()
            } else {
                let kinds: Vec<String> = b.faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
                let games: Vec<String> = b.fault_games.iter().take(5).map(u64::to_string).collect();
                let more = if b.fault_games.len() > 5 { ", ..." } else { "" };
                format!("{} (games {}{more})", kinds.join(", "), games.join(", "))
            };
            let _ = writeln!(
                out,
                "{:<width$} {:>6} {:>16} {:>5.1}% {:>6.2} {:>6.2} ±{:<5.2}  {faults}",
                b.name,
                b.games,
                format!("{:.2}{ci}", b.mean_penalty),
                100.0 * b.win_rate,
                b.mean_rank,
                b.rating,
                b.uncertainty,
            );
        }
        let _ = writeln!(
            out,
            "\nhead to head (row ahead of column, % of their games):"
        );
        let _ = write!(out, "{:<width$}", "");
        for b in &self.bots {
            let _ = write!(out, " {:>width$}", b.name);
        }
        let _ = writeln!(out);
        for a in &self.bots {
            let _ = write!(out, "{:<width$}", a.name);
            for b in &self.bots {
                let cell = self
                    .head_to_head
                    .iter()
                    .find(|h| h.bot == a.name && h.other == b.name)
                    .map_or("-".to_string(), |h| {
                        format!("{:.0}%", 100.0 * h.ahead as f64 / h.games as f64)
                    });
                let _ = write!(out, " {cell:>width$}");
            }
            let _ = writeln!(out);
        }
        out
    }

    /// The per-bot figures as CSV, one row per bot (faults by kind in four columns).
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "bot,games,mean_penalty,ci95,win_rate,mean_rank,rating,uncertainty,crash,timeout,illegal,protocol\n",
        );
        for b in &self.bots {
            let fault = |k: &str| b.faults.get(k).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(&b.name),
                b.games,
                b.mean_penalty,
                b.ci95.map_or(String::new(), |c| c.to_string()),
                b.win_rate,
                b.mean_rank,
                b.rating,
                b.uncertainty,
                fault("crash"),
                fault("timeout"),
                fault("illegal"),
                fault("protocol"),
            );
        }
        out
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
