//! Statistics over game results: per bot, head to head, paired by deal (paired.rs), and a
//! sequential test of two bots (sprt.rs) (docs/tournaments.md). They depend only on the set of
//! results: games are taken in order of their id, whatever order they were played or merged in
//! (stream.rs puts results files in that order).

use super::paired::{DealAcc, PairAcc, PairStats, z95};
use super::results::GameResult;
use super::sprt::{Decision, Sprt};
use crate::visible::visible;
use serde::Serialize;
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// The most bots the terminal table shows head to head and paired by deal: a screenful. Past it
/// the grid is wider than a terminal and the pairs grow as the square of the bots, so the table
/// lists the bots and says where the pairs are (`--format json` or `csv`, `--html`).
pub const SCREENFUL_OF_BOTS: usize = 30;

/// One bot's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotStats {
    pub name: String,
    pub games: u64,
    pub mean_penalty: f64,
    /// Half the width of the 95% confidence interval of the mean (normal approximation,
    /// 1.95996 standard errors); none under two games.
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
    /// Every two bots that played a deal together, compared deal by deal (docs/tournaments.md);
    /// the better listed first, in the order of `bots`.
    pub pairs: Vec<PairStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtReport>,
}

/// Where a sequential test of two bots stands (or stopped).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    #[serde(flatten)]
    pub test: Sprt,
    /// Its bounds: H0 is accepted at an LLR at or below `lower`, H1 at or above `upper`.
    pub lower: f64,
    pub upper: f64,
    pub llr: f64,
    /// `H0`, `H1`, or `continue` (no decision when the deals ran out).
    pub decision: &'static str,
    /// The pair's figures over the deals the test had seen when it decided (or all of them):
    /// `pair.deals`, `pair.games`, `pair.elo`, `pair.los`, ...
    pub pair: PairStats,
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

/// A sequential test of two bots while the deals come in.
struct SprtState {
    test: Sprt,
    bot: String,
    other: String,
    llr: f64,
    decision: Decision,
    /// The pair's deals, `bot`'s side, when the test last looked (frozen once it decided).
    seen: PairAcc,
}

/// Statistics built game by game, in order of game id, keeping nothing per game: the memory
/// depends on the number of bots and pairs, not on the number of games. A deal's games are
/// consecutive in that order, so the deal under way is the only one kept open.
#[derive(Default)]
pub struct Accumulator {
    games: u64,
    names: Vec<String>,
    index: HashMap<String, usize>,
    bots: Vec<Acc>,
    /// By pair of bots (their indices, lower first), its side of the lower.
    pairs: HashMap<(usize, usize), PairAcc>,
    /// The deal under way: (table, deal), and its pairs so far.
    deal: Option<(u64, u64)>,
    open: Vec<((usize, usize), DealAcc)>,
    seats: Vec<usize>,
    sprt: Option<SprtState>,
    config: WengLinConfig,
}

impl Accumulator {
    /// An accumulator that also runs `test` on the pair `bot` against `other`, deal by deal.
    pub fn with_sprt(test: Sprt, bot: &str, other: &str) -> Accumulator {
        Accumulator {
            sprt: Some(SprtState {
                test,
                bot: bot.to_string(),
                other: other.to_string(),
                llr: 0.0,
                decision: Decision::Continue,
                seen: PairAcc::default(),
            }),
            ..Accumulator::default()
        }
    }

    fn bot(&mut self, name: &str) -> usize {
        // A pool is mostly a few bots: comparing names is quicker than hashing one.
        if self.names.len() <= 16 {
            if let Some(i) = self.names.iter().position(|n| n == name) {
                return i;
            }
        } else if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len();
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        self.bots.push(Acc::default());
        i
    }

    /// Adds the next game (games must come in order of their id).
    pub fn add(&mut self, game: &GameResult) {
        if self.deal != Some((game.table, game.deal)) {
            self.close_deal();
            self.deal = Some((game.table, game.deal));
        }
        self.games += 1;
        let mut seats = std::mem::take(&mut self.seats);
        seats.clear();
        seats.extend(game.seating.iter().map(|name| self.bot(name)));
        for (seat, &b) in seats.iter().enumerate() {
            let a = &mut self.bots[b];
            let total = f64::from(game.totals[seat]);
            a.games += 1;
            a.sum += total;
            a.sum_sq += total * total;
            a.wins += u64::from(game.winners.contains(&seat));
            a.ranks += u64::from(game.ranks[seat]);
        }
        for fault in &game.faults {
            let a = &mut self.bots[seats[fault.seat]];
            *a.faults.entry(fault.kind.name().to_string()).or_default() += 1;
            if a.fault_games.last() != Some(&game.game) {
                a.fault_games.push(game.game);
            }
        }
        let teams: Vec<[WengLinRating; 1]> = seats.iter().map(|&b| [self.bots[b].rating]).collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&game.ranks)
            .map(|(team, &rank)| (&team[..], MultiTeamOutcome::new(rank as usize)))
            .collect();
        let rated = weng_lin_multi_team(&ranked, &self.config);
        for (&b, new) in seats.iter().zip(rated) {
            self.bots[b].rating = new[0];
        }
        for i in 0..seats.len() {
            for j in i + 1..seats.len() {
                let (i, j) = if seats[i] < seats[j] { (i, j) } else { (j, i) };
                let key = (seats[i], seats[j]);
                let deal = match self.open.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, deal)) => deal,
                    None => {
                        self.open.push((key, DealAcc::new()));
                        &mut self.open.last_mut().expect("just pushed").1
                    }
                };
                deal.add(game.ranks[i], game.totals[i], game.ranks[j], game.totals[j]);
            }
        }
        self.seats = seats;
    }

    /// Ends the deal under way: its pairs are scored, and the test, if any, looks again. A deal
    /// also ends when a game of another comes, or at [`Accumulator::finish`]; a tournament calls
    /// this after a deal's last game so that the test decides as soon as it can.
    pub fn close_deal(&mut self) {
        self.deal = None;
        for (key, deal) in self.open.drain(..) {
            self.pairs.entry(key).or_default().add(&deal);
        }
        let Some(sprt) = &mut self.sprt else { return };
        if sprt.decision != Decision::Continue {
            return;
        }
        let (Some(&a), Some(&b)) = (self.index.get(&sprt.bot), self.index.get(&sprt.other)) else {
            return;
        };
        let Some(pair) = self.pairs.get(&(a.min(b), a.max(b))) else {
            return;
        };
        if pair.deals == sprt.seen.deals {
            return;
        }
        sprt.seen = if a < b { pair.clone() } else { pair.flipped() };
        sprt.llr = sprt.seen.llr(&sprt.test);
        sprt.decision = sprt.test.decide(sprt.llr);
    }

    /// The test's decision so far (none without a test).
    pub fn decision(&self) -> Option<Decision> {
        self.sprt.as_ref().map(|s| s.decision)
    }

    /// The test's state in a few words, for a progress line: `LLR 1.23 (-2.94, 2.94)`.
    pub fn sprt_line(&self) -> Option<String> {
        self.sprt.as_ref().map(|s| {
            format!(
                "LLR {:.2} ({:.2}, {:.2})",
                s.llr,
                s.test.lower(),
                s.test.upper()
            )
        })
    }

    pub fn finish(mut self) -> Stats {
        self.close_deal();
        let names = self.names;
        let mut bots: Vec<BotStats> = self
            .bots
            .into_iter()
            .zip(&names)
            .map(|(a, name)| {
                let n = a.games as f64;
                let mean = a.sum / n;
                let ci95 = (a.games >= 2).then(|| {
                    let variance = ((a.sum_sq - n * mean * mean) / (n - 1.0)).max(0.0);
                    z95() * (variance / n).sqrt()
                });
                BotStats {
                    name: name.clone(),
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
        let mut head_to_head = Vec::with_capacity(2 * self.pairs.len());
        for (&(a, b), pair) in &self.pairs {
            for (bot, other, p) in [(a, b, pair.clone()), (b, a, pair.flipped())] {
                head_to_head.push(HeadToHead {
                    bot: names[bot].clone(),
                    other: names[other].clone(),
                    games: p.games,
                    ahead: p.ahead,
                    behind: p.behind,
                    level: p.level,
                });
            }
        }
        head_to_head.sort_by(|x, y| (&x.bot, &x.other).cmp(&(&y.bot, &y.other)));
        let place: HashMap<&str, usize> = bots
            .iter()
            .enumerate()
            .map(|(i, b)| (b.name.as_str(), i))
            .collect();
        let mut pairs: Vec<(usize, usize, PairStats)> = self
            .pairs
            .iter()
            .map(|(&(a, b), pair)| {
                let (pa, pb) = (place[names[a].as_str()], place[names[b].as_str()]);
                if pa < pb {
                    (pa, pb, pair.stats(&names[a], &names[b]))
                } else {
                    (pb, pa, pair.flipped().stats(&names[b], &names[a]))
                }
            })
            .collect();
        pairs.sort_by_key(|&(a, b, _)| (a, b));
        let sprt = self.sprt.map(|s| SprtReport {
            test: s.test,
            lower: s.test.lower(),
            upper: s.test.upper(),
            llr: s.llr,
            decision: s.decision.name(),
            pair: s.seen.stats(&s.bot, &s.other),
        });
        Stats {
            games: self.games,
            bots,
            head_to_head,
            pairs: pairs.into_iter().map(|(_, _, p)| p).collect(),
            sprt,
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
    /// The games a deal has: its last one ends it (see [`Accumulator::close_deal`]).
    arrangements: u64,
    waiting: BTreeMap<u64, GameResult>,
    acc: Accumulator,
}

impl InOrder {
    pub fn new(first: u64, step: u64, end: u64) -> InOrder {
        InOrder::with(first, step, end, 0, Accumulator::default())
    }

    /// Like [`InOrder::new`], into `acc` (with a sequential test, say), ending a deal at its
    /// game of rotation `arrangements - 1`.
    pub fn with(first: u64, step: u64, end: u64, arrangements: u64, acc: Accumulator) -> InOrder {
        InOrder {
            next: first,
            step: step.max(1),
            end,
            arrangements,
            waiting: BTreeMap::new(),
            acc,
        }
    }

    pub fn push(&mut self, result: GameResult) {
        self.waiting.insert(result.game, result);
        while self.next < self.end {
            let Some(game) = self.waiting.remove(&self.next) else {
                break;
            };
            self.acc.add(&game);
            if game.rotation + 1 == self.arrangements {
                self.acc.close_deal();
            }
            self.next += self.step;
        }
    }

    /// The statistics so far (the test's decision, say).
    pub fn accumulator(&self) -> &Accumulator {
        &self.acc
    }

    /// The statistics of the games taken in order (a run stopped by its test leaves no gap:
    /// the games are started in order of id and those under way are finished).
    pub fn finish(self) -> Stats {
        debug_assert!(
            self.waiting.is_empty() || self.acc.decision().is_some(),
            "a game came twice or out of range"
        );
        self.acc.finish()
    }
}

impl Stats {
    /// A table for the terminal: the bots, then head to head (row bot ahead of column bot, in
    /// percent of their games together).
    pub fn table(&self) -> String {
        self.table_with("mean total")
    }

    /// The same, with another name for the mean total's column (`mean penalty`, say).
    pub fn table_with(&self, mean: &str) -> String {
        let mut out = String::new();
        let width = self
            .bots
            .iter()
            .map(|b| visible(&b.name).chars().count())
            .max()
            .unwrap_or(0)
            .max(4);
        let _ = writeln!(
            out,
            "{} game{}",
            self.games,
            if self.games == 1 { "" } else { "s" }
        );
        let _ = writeln!(
            out,
            "{:<width$} {:>6} {:>16} {:>6} {:>6} {:>13}  faults",
            "bot", "games", mean, "wins", "rank", "rating"
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
                visible(&b.name),
                b.games,
                format!("{:.2}{ci}", b.mean_penalty),
                100.0 * b.win_rate,
                b.mean_rank,
                b.rating,
                b.uncertainty,
            );
        }
        if self.bots.len() > SCREENFUL_OF_BOTS {
            let _ = writeln!(
                out,
                "\nhead to head and paired by deal: not printed for more than {SCREENFUL_OF_BOTS} \
                 bots (these are {}); `take5 stats RESULTS --format json` (or `--format csv`) \
                 lists every pair, `take5 stats RESULTS --html` draws them",
                self.bots.len()
            );
        } else {
            out.push_str(&self.head_to_head_table(width));
            if !self.pairs.is_empty() {
                out.push_str(&self.pairs_table(width));
            }
        }
        if let Some(sprt) = &self.sprt {
            let _ = writeln!(out, "\n{}", sprt.line());
        }
        out
    }

    /// Head to head as a grid, a bot per row and per column: the share of their games together
    /// where the row's bot ranked ahead.
    fn head_to_head_table(&self, width: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\nhead to head (row ahead of column, % of their games):"
        );
        let _ = write!(out, "{:<width$}", "");
        for b in &self.bots {
            let _ = write!(out, " {:>width$}", visible(&b.name));
        }
        let _ = writeln!(out);
        let by_pair: HashMap<(&str, &str), &HeadToHead> = self
            .head_to_head
            .iter()
            .map(|h| ((h.bot.as_str(), h.other.as_str()), h))
            .collect();
        for a in &self.bots {
            let _ = write!(out, "{:<width$}", visible(&a.name));
            for b in &self.bots {
                let cell = by_pair
                    .get(&(a.name.as_str(), b.name.as_str()))
                    .map_or("-".to_string(), |h| {
                        format!("{:.0}%", 100.0 * h.ahead as f64 / h.games as f64)
                    });
                let _ = write!(out, " {cell:>width$}");
            }
            let _ = writeln!(out);
        }
        out
    }

    /// The pairs, deal by deal: the first bot's mean difference per game, its score, Elo and
    /// LOS against the second.
    fn pairs_table(&self, width: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\npaired by deal (first bot against second; difference: its total minus the other's, per game):"
        );
        let _ = writeln!(
            out,
            "{:<width$} {:<width$} {:>6} {:>16} {:>6} {:>16} {:>6}",
            "bot", "other", "deals", "difference", "score", "elo", "los"
        );
        for p in &self.pairs {
            let _ = writeln!(
                out,
                "{:<width$} {:<width$} {:>6} {:>16} {:>5.1}% {:>16} {:>5.1}%",
                visible(&p.bot),
                visible(&p.other),
                p.deals,
                with_ci(p.mean_difference, p.mean_difference_ci95),
                100.0 * p.score,
                elo_text(p),
                100.0 * p.los,
            );
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
        out.push_str(
            "\nbot,other,deals,games,ahead,behind,level,mean_difference,mean_difference_ci95,score,elo,elo_ci95,los\n",
        );
        let opt = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
        for p in &self.pairs {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(&p.bot),
                csv_field(&p.other),
                p.deals,
                p.games,
                p.ahead,
                p.behind,
                p.level,
                p.mean_difference,
                opt(p.mean_difference_ci95),
                p.score,
                opt(p.elo),
                opt(p.elo_ci95),
                p.los,
            );
        }
        out
    }
}

impl SprtReport {
    /// The test in one line: `SPRT a against b (elo0 0, elo1 10, alpha 0.05, beta 0.05): H1
    /// accepted after 24 deals (48 games), LLR 2.96 (-2.94, 2.94), Elo +215.3 ±60.2, LOS 100.0%`.
    pub fn line(&self) -> String {
        let t = &self.test;
        let verdict = match self.decision {
            "continue" => format!("no decision after {} deals", self.pair.deals),
            d => format!("{d} accepted after {} deals", self.pair.deals),
        };
        format!(
            "SPRT {} against {} (elo0 {}, elo1 {}, alpha {}, beta {}): {verdict} ({} games), LLR {:.2} ({:.2}, {:.2}), Elo {}, LOS {:.1}%",
            self.pair.bot,
            self.pair.other,
            t.elo0,
            t.elo1,
            t.alpha,
            t.beta,
            self.pair.games,
            self.llr,
            self.lower,
            self.upper,
            elo_text(&self.pair),
            100.0 * self.pair.los,
        )
    }
}

/// `12.34 ±1.23`, or `12.34` without an interval.
fn with_ci(x: f64, ci: Option<f64>) -> String {
    match ci {
        Some(c) => format!("{x:.2} ±{c:.2}"),
        None => format!("{x:.2}"),
    }
}

/// A pair's Elo difference with its interval; `+inf`/`-inf` at a score of 1 or 0.
fn elo_text(p: &PairStats) -> String {
    match p.elo {
        Some(e) => match p.elo_ci95 {
            Some(c) => format!("{e:+.1} ±{c:.1}"),
            None => format!("{e:+.1}"),
        },
        None if p.score >= 1.0 => "+inf".to_string(),
        None => "-inf".to_string(),
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statistics of a ring of `bots` bots: each plays its neighbour one deal (two games).
    fn ring(bots: usize) -> Stats {
        let mut acc = Accumulator::default();
        for i in 0..bots {
            let (a, b) = (format!("bot{i}"), format!("bot{}", (i + 1) % bots));
            for (rotation, seating) in [vec![a.clone(), b.clone()], vec![b, a]]
                .into_iter()
                .enumerate()
            {
                acc.add(&GameResult {
                    game: 2 * i as u64 + rotation as u64,
                    table: i as u64,
                    deal: 0,
                    rotation: rotation as u64,
                    seed: None,
                    seating,
                    totals: vec![3, 5],
                    ranks: vec![1, 2],
                    winners: vec![0],
                    faults: Vec::new(),
                    times: None,
                });
            }
        }
        acc.finish()
    }

    /// A name with control characters is shown escaped, and its columns are as wide as it is
    /// shown: every row of each table puts its next column where the header does.
    #[test]
    fn a_name_with_control_characters_is_escaped_before_the_columns_are_measured() {
        let evil = "evil\x1b]0;t\x07";
        let mut acc = Accumulator::default();
        for (rotation, seating) in [["plain", evil], [evil, "plain"]].into_iter().enumerate() {
            acc.add(&GameResult {
                game: rotation as u64,
                table: 0,
                deal: 0,
                rotation: rotation as u64,
                seed: None,
                seating: seating.iter().map(|s| s.to_string()).collect(),
                totals: vec![3, 5],
                ranks: vec![1, 2],
                winners: vec![0],
                faults: Vec::new(),
                times: None,
            });
        }
        let table = acc.finish().table();
        assert!(
            !table.contains('\x1b') && !table.contains('\x07'),
            "{table}"
        );
        assert!(table.contains("evil\\x1b]0;t\\x07"), "{table}");
        let lines: Vec<&str> = table.lines().collect();
        let games_column = lines[1].find("games").unwrap() + "games".len();
        for row in &lines[2..4] {
            let figures = &row[..games_column];
            assert!(figures.ends_with(" 2"), "{row} under {}", lines[1]);
        }
    }

    #[test]
    fn a_screenful_of_bots_is_shown_head_to_head_and_paired() {
        let stats = ring(SCREENFUL_OF_BOTS);
        let table = stats.table();
        let grid = table
            .split("head to head (row ahead of column, % of their games):\n")
            .nth(1)
            .expect("the head-to-head grid");
        // Its header, then a row per bot, each a cell per bot.
        let rows: Vec<&str> = grid.lines().skip(1).take(SCREENFUL_OF_BOTS).collect();
        assert!(
            rows.iter()
                .all(|row| row.split_whitespace().count() == 1 + SCREENFUL_OF_BOTS)
        );
        // Each bot ranked ahead of each neighbour in one of their two games, and met no other.
        for row in &rows {
            let cells: Vec<&str> = row.split_whitespace().skip(1).collect();
            assert_eq!(cells.iter().filter(|&&c| c == "50%").count(), 2, "{row}");
            assert_eq!(
                cells.iter().filter(|&&c| c == "-").count(),
                SCREENFUL_OF_BOTS - 2
            );
        }
        assert!(table.contains("\npaired by deal"), "{table}");
        assert!(!table.contains("not printed"), "{table}");
    }

    #[test]
    fn past_a_screenful_the_table_lists_the_bots_and_says_where_the_pairs_are() {
        let stats = ring(2000);
        assert_eq!(stats.pairs.len(), 2000);
        let table = stats.table();
        let lines: Vec<&str> = table.lines().collect();
        // The count of games, the column names, a line per bot, a blank line, and the hint.
        assert_eq!(lines.len(), 2 + 2000 + 2, "{}", &table[..2000]);
        assert_eq!(lines[0], "4000 games");
        assert!(lines[2..2002].iter().all(|line| line.starts_with("bot")));
        let hint = lines[2003];
        for said in [
            "not printed for more than 30 bots (these are 2000)",
            "--format json",
            "--format csv",
            "--html",
        ] {
            assert!(hint.contains(said), "{hint}");
        }
    }
}
