//! Statistics over game results: per bot, head to head, paired by deal (paired.rs), and a
//! sequential test of two bots (sprt.rs) (docs/tournaments.md). They depend only on the set of
//! results: games are taken in order of their id, whatever order they were played or merged in
//! (stream.rs puts results files in that order). Also the report of them for the terminal, in
//! the order of the HTML report (`show::tournament_report`): what the tournament was (its
//! results header's [`Identity`]), the pairs, the test, the decision times, the bots, head to
//! head.

use super::config::{Format, Seatings};
use super::paired::{DealAcc, PairAcc, PairStats, z95};
use super::results::{GameResult, Header, PoolBot};
use super::sprt::{Decision, Sprt};
use super::timing::{self, BotTimes, Times};
use crate::variants::Variant;
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
    /// The mean of its final totals (penalty points, or points won: see
    /// [`Stats::better_total`]).
    pub mean_total: f64,
    /// Half the width of the 95% confidence interval of the mean (normal approximation,
    /// 1.95996 standard errors); none under two games.
    pub ci95: Option<f64>,
    pub win_rate: f64,
    pub mean_rank: f64,
    /// Weng-Lin rating (skillratings, default configuration): mu and sigma.
    pub rating: f64,
    pub uncertainty: f64,
    /// Faults by kind (crash, timeout, illegal, protocol, clock).
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
    /// The games counted (in a run with a sequential test, those up to its decision).
    pub games: u64,
    /// Which totals are better: `lower` (penalty points) or `higher` (points won, the circle
    /// game); none when the variant is not known (a results file without a header).
    pub better_total: Option<&'static str>,
    #[serde(skip)]
    pub variant: Option<Variant>,
    pub bots: Vec<BotStats>,
    pub head_to_head: Vec<HeadToHead>,
    /// Every two bots that played a deal together, compared deal by deal (docs/tournaments.md);
    /// the better listed first, in the order of `bots`.
    pub pairs: Vec<PairStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtReport>,
}

impl HeadToHead {
    /// The share of their games together `bot` took, a game ranked ahead counting 1 and a level
    /// game 1/2 (as the paired score counts them).
    pub fn share(&self) -> f64 {
        (self.ahead as f64 + self.level as f64 / 2.0) / self.games as f64
    }
}

/// What a tournament was, as its results files' header says: the report's first block.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Identity {
    pub variant: Variant,
    pub seats: usize,
    pub deals: u64,
    pub seed: u64,
    /// `round-robin`, `gauntlet:NAME` or `random:N`, as `take5 tournament --tables` takes it.
    pub format: String,
    pub seatings: Seatings,
    pub bots: Vec<PoolBot>,
    pub house_sha256: Option<String>,
    /// The event the tournament was played as (`--event`, `--site`, `--date`), if said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<super::results::Event>,
    /// The SHA-256 of the deal book the deals came from, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub book_sha256: Option<String>,
    /// The shards the files hold (`K/N`); empty for a whole tournament.
    pub shards: Vec<String>,
    /// The take5 that started the (first) file.
    pub take5: String,
}

impl Identity {
    /// The identity of the tournament of `headers` (of the files merged: one tournament, see
    /// `take5 stats`), none without a header.
    pub fn of(headers: &[Header]) -> Option<Identity> {
        let first = headers.first()?;
        let mut shards: Vec<String> = headers.iter().filter_map(|h| h.shard.clone()).collect();
        shards.sort_by_key(|s| s.split('/').next().and_then(|k| k.parse::<u64>().ok()));
        shards.dedup();
        Some(Identity {
            variant: first.game.variant,
            seats: first.seats,
            deals: first.deals,
            seed: first.seed,
            format: match &first.format {
                Format::RoundRobin => "round-robin".to_string(),
                Format::Gauntlet { bot } => format!("gauntlet:{bot}"),
                Format::Random { tables } => format!("random:{tables}"),
            },
            seatings: first.seatings,
            bots: first.pool.clone(),
            house_sha256: first.game.house_sha256.clone(),
            book_sha256: first.book_sha256.clone(),
            event: first.event.clone(),
            shards,
            take5: first.take5.clone(),
        })
    }

    /// The block for the terminal: a line of the settings, a line per bot.
    fn text(&self) -> String {
        let mut out = String::new();
        let seatings = match self.seatings {
            Seatings::Rotations => "rotation",
            Seatings::Permutations => "permutation",
        };
        let _ = writeln!(
            out,
            "tournament: {}, {} seats, {}, {} deal{} a table (each in every {seatings} of the seats), seed {}",
            self.variant.name(),
            self.seats,
            self.format,
            self.deals,
            if self.deals == 1 { "" } else { "s" },
            self.seed,
        );
        if let Some(event) = &self.event {
            let _ = writeln!(out, "event: {}", event.text());
        }
        if let Some(sha) = &self.house_sha256 {
            let _ = writeln!(out, "house rules: a script of SHA-256 {sha}");
        }
        if let Some(sha) = &self.book_sha256 {
            let _ = writeln!(out, "deals: from a deal book of SHA-256 {sha}");
        }
        if !self.shards.is_empty() {
            let _ = writeln!(out, "shards: {}", self.shards.join(", "));
        }
        let width = self
            .bots
            .iter()
            .map(|b| visible(&b.name).chars().count())
            .max()
            .unwrap_or(0);
        for bot in &self.bots {
            let dir = bot
                .dir
                .as_ref()
                .map_or(String::new(), |d| format!(", in {}", visible(d)));
            let limit = match &bot.clock {
                Some(clock) => format!("clock {} ms", visible(clock)),
                None => format!("{} ms a decision", bot.timeout_ms),
            };
            let _ = writeln!(
                out,
                "  {:<width$}  {} ({limit}{dir})",
                visible(&bot.name),
                visible(&bot.player),
            );
        }
        out
    }
}

/// What the report says of a tournament's identity: none for a match of `take5 play` (which
/// prints its own), unknown for results files without a header.
pub enum Told<'a> {
    Nothing,
    Unknown,
    Known(&'a Identity),
}

/// Said where the identity is not known.
pub const NO_IDENTITY: &str = "tournament: not known (the results have no header: written by an older take5); its variant, seats, deals, seed, format and bots are not said";

/// Where a sequential test of two bots stands (or stopped).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    #[serde(flatten)]
    pub test: Sprt,
    /// Its bounds: H0 is accepted at an LLR at or below `lower`, H1 at or above `upper`.
    pub lower: f64,
    pub upper: f64,
    pub llr: f64,
    /// The LLR after each of the pair's deals, up to the decision (at most [`COURSE_POINTS`]
    /// of them, evenly spaced, the last always kept): the report draws it.
    #[serde(skip)]
    pub course: Vec<LlrPoint>,
    /// Games in the results past the test's decision (finished by the jobs while it decided):
    /// not counted in any figure, so that every figure is of the same games.
    #[serde(skip)]
    pub after_decision: u64,
    /// `H0`, `H1`, or `continue` (no decision when the deals ran out).
    pub decision: &'static str,
    /// The pair's figures over the deals the test had seen when it decided (or all of them):
    /// `pair.deals`, `pair.games`, `pair.elo`, `pair.los`, ...
    pub pair: PairStats,
}

/// The LLR of a sequential test after the pair's `deals`-th deal (`games` of the pair by then).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LlrPoint {
    pub deals: u64,
    pub games: u64,
    pub llr: f64,
}

/// The most points of a test's course kept: past it, every other one is dropped (the memory
/// stays bounded whatever the deals).
pub const COURSE_POINTS: usize = 1000;

#[derive(Clone, Default)]
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
#[derive(Clone)]
struct SprtState {
    test: Sprt,
    bot: String,
    other: String,
    llr: f64,
    decision: Decision,
    /// The pair's deals, `bot`'s side, when the test last looked (frozen once it decided).
    seen: PairAcc,
    /// The LLR's course: a point every `every` deals of the pair.
    course: Vec<LlrPoint>,
    every: u64,
    /// Games that came after the decision (not counted).
    after_decision: u64,
}

/// Statistics built game by game, in order of game id, keeping nothing per game: the memory
/// depends on the number of bots and pairs, not on the number of games. A deal's games are
/// consecutive in that order, so the deal under way is the only one kept open.
#[derive(Clone, Default)]
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
    variant: Option<Variant>,
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
                course: Vec::new(),
                every: 1,
                after_decision: 0,
            }),
            ..Accumulator::default()
        }
    }

    /// The variant played, if known: it says which totals are better.
    pub fn of_variant(mut self, variant: Option<Variant>) -> Accumulator {
        self.variant = variant;
        self
    }

    /// The games counted so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Each bot's rating so far (mu, sigma), in the order the bots came.
    pub fn ratings(&self) -> impl Iterator<Item = (&str, f64, f64)> {
        self.names
            .iter()
            .zip(&self.bots)
            .map(|(name, a)| (name.as_str(), a.rating.rating, a.rating.uncertainty))
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

    /// Adds the next game (games must come in order of their id); whether it counts: a game
    /// that comes after the sequential test decided does not (the run had stopped starting
    /// games; it was under way).
    pub fn add(&mut self, game: &GameResult) -> bool {
        if self.deal != Some((game.table, game.deal)) {
            self.close_deal();
            self.deal = Some((game.table, game.deal));
        }
        if let Some(sprt) = &mut self.sprt
            && sprt.decision != Decision::Continue
        {
            sprt.after_decision += 1;
            return false;
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
        true
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
        let point = LlrPoint {
            deals: sprt.seen.deals,
            games: sprt.seen.games,
            llr: sprt.llr,
        };
        // The last point always stands for the latest; it is replaced unless it falls on the
        // spacing, and the spacing doubles when the course is full.
        if sprt
            .course
            .last()
            .is_some_and(|last| last.deals % sprt.every != 0)
        {
            sprt.course.pop();
        }
        sprt.course.push(point);
        if sprt.course.len() > COURSE_POINTS {
            sprt.every *= 2;
            let every = sprt.every;
            let last = sprt.course.pop();
            sprt.course.retain(|p| p.deals % every == 0);
            sprt.course.extend(last);
        }
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
                    mean_total: mean,
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
            course: s.course,
            after_decision: s.after_decision,
            decision: s.decision.name(),
            pair: s.seen.stats(&s.bot, &s.other),
        });
        let better_total = self.variant.map(|v| {
            if v.describe().highest_wins {
                "higher"
            } else {
                "lower"
            }
        });
        Stats {
            games: self.games,
            better_total,
            variant: self.variant,
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
    /// The decision times of the games counted.
    times: Times,
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
            times: Times::default(),
        }
    }

    pub fn push(&mut self, result: GameResult) {
        self.push_with(result, |_| {});
    }

    /// [`InOrder::push`], telling `each` of every game counted, in order, once it is.
    pub fn push_with(&mut self, result: GameResult, mut each: impl FnMut(&Accumulator)) {
        self.waiting.insert(result.game, result);
        while self.next < self.end {
            let Some(game) = self.waiting.remove(&self.next) else {
                break;
            };
            let counted = self.acc.add(&game);
            if counted {
                self.times.add(&game);
            }
            if game.rotation + 1 == self.arrangements {
                self.acc.close_deal();
            }
            if counted {
                each(&self.acc);
            }
            self.next += self.step;
        }
    }

    /// The statistics so far (the test's decision, say).
    pub fn accumulator(&self) -> &Accumulator {
        &self.acc
    }

    /// The decision times of the games counted so far (as every other figure: not those after
    /// a test's decision).
    pub fn times(&self) -> &Times {
        &self.times
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
    /// The statistics for the terminal, without a tournament's identity (a match of `take5
    /// play`, which says its own).
    pub fn table(&self) -> String {
        self.report(&Told::Nothing, None)
    }

    /// The report for the terminal, in the order of the HTML report: what the tournament was,
    /// the games, every two bots deal by deal (the headline), the sequential test, the decision
    /// times (if given), the bots, and head to head.
    pub fn report(&self, told: &Told, times: Option<&[BotTimes]>) -> String {
        let mut out = String::new();
        match told {
            Told::Nothing => {}
            Told::Unknown => {
                let _ = writeln!(out, "{NO_IDENTITY}");
            }
            Told::Known(identity) => out.push_str(&identity.text()),
        }
        let width = self.name_width();
        let _ = writeln!(
            out,
            "{} game{}",
            self.games,
            if self.games == 1 { "" } else { "s" }
        );
        let screenful = self.bots.len() <= SCREENFUL_OF_BOTS;
        if !screenful {
            let _ = writeln!(
                out,
                "\nhead to head and paired by deal: not printed for more than {SCREENFUL_OF_BOTS} \
                 bots (these are {}); `take5 stats RESULTS --format json` (or `--format csv`) \
                 lists every pair, `take5 stats RESULTS --html` draws them",
                self.bots.len()
            );
        } else if !self.pairs.is_empty() {
            out.push_str(&self.pairs_table(width));
        }
        if let Some(sprt) = &self.sprt {
            let _ = writeln!(out, "\n{}", sprt.line());
            if sprt.after_decision > 0 {
                let _ = writeln!(
                    out,
                    "{} game{} finished after the decision (under way on other jobs): not counted",
                    sprt.after_decision,
                    if sprt.after_decision == 1 { "" } else { "s" }
                );
            }
        }
        if let Some(times) = times {
            out.push_str(&timing::table(times));
        }
        out.push_str(&self.bots_table(width));
        if screenful {
            out.push_str(&self.head_to_head_table(width));
        }
        out
    }

    /// What a total is and which is better, as the tables say it: `penalty, lower is better`.
    pub fn total_meaning(&self) -> String {
        match (self.variant, self.better_total) {
            (Some(variant), Some(better)) => {
                format!("{}, {better} is better", variant.describe().total)
            }
            _ => "lower or higher is better as the variant has it (not known here)".to_string(),
        }
    }

    /// The bots' table alone, as the report has it: the standings `--report-every` prints
    /// during a run.
    pub fn standings(&self) -> String {
        self.bots_table(self.name_width())
    }

    /// The width of the name columns: the longest name as shown, at least 4.
    fn name_width(&self) -> usize {
        self.bots
            .iter()
            .map(|b| visible(&b.name).chars().count())
            .max()
            .unwrap_or(0)
            .max(4)
    }

    /// The bots, by rating, with the figures of each.
    fn bots_table(&self, width: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\nbots, by rating (best first); total: {}",
            self.total_meaning()
        );
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
                visible(&b.name),
                b.games,
                format!("{:.2}{ci}", b.mean_total),
                100.0 * b.win_rate,
                b.mean_rank,
                b.rating,
                b.uncertainty,
            );
        }
        out
    }

    /// Head to head as a grid, a bot per row and per column: the share of their games together
    /// the row's bot took ([`HeadToHead::share`]).
    fn head_to_head_table(&self, width: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\nhead to head (row against column: % of their games, a game ranked ahead 1, level 1/2):"
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
                    .map_or("-".to_string(), |h| format!("{:.0}%", 100.0 * h.share()));
                let _ = write!(out, " {cell:>width$}");
            }
            let _ = writeln!(out);
        }
        out
    }

    /// The pairs, deal by deal: the first bot's mean difference per game, its score, Elo with
    /// its interval, LOS, and its deals by score.
    fn pairs_table(&self, width: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\npaired by deal (first bot against second; difference: its total minus the other's, per game; \
             elo: with its 95% interval; deals by score: from 0 to 1 by half a game):"
        );
        let rows: Vec<[String; 6]> = self
            .pairs
            .iter()
            .map(|p| {
                [
                    p.deals.to_string(),
                    p.difference_text(),
                    format!("{:.1}%", 100.0 * p.score),
                    p.elo_text(),
                    format!("{:.1}%", 100.0 * p.los),
                    p.deal_counts().map_or("-".to_string(), |counts| {
                        counts
                            .iter()
                            .map(u64::to_string)
                            .collect::<Vec<_>>()
                            .join(" ")
                    }),
                ]
            })
            .collect();
        let heads = [
            "deals",
            "difference",
            "score",
            "elo",
            "los",
            "deals by score",
        ];
        let widths: Vec<usize> = (0..heads.len())
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([heads[i].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let head = heads.map(str::to_string);
        let lines = [("bot", "other", &head)].into_iter().chain(
            self.pairs
                .iter()
                .zip(&rows)
                .map(|(p, row)| (p.bot.as_str(), p.other.as_str(), row)),
        );
        for (bot, other, cells) in lines {
            let _ = write!(out, "{:<width$} {:<width$}", visible(bot), visible(other));
            for (i, cell) in cells.iter().enumerate() {
                let w = widths[i];
                // The last column is read from the left.
                if i + 1 == heads.len() {
                    let _ = write!(out, "  {cell}");
                } else {
                    let _ = write!(out, "  {cell:>w$}");
                }
            }
            let _ = writeln!(out);
        }
        out
    }

    /// The per-bot figures as CSV, one row per bot (faults by kind in five columns).
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "bot,games,mean_total,ci95,win_rate,mean_rank,rating,uncertainty,crash,timeout,illegal,protocol,clock\n",
        );
        for b in &self.bots {
            let fault = |k: &str| b.faults.get(k).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(&b.name),
                b.games,
                b.mean_total,
                b.ci95.map_or(String::new(), |c| c.to_string()),
                b.win_rate,
                b.mean_rank,
                b.rating,
                b.uncertainty,
                fault("crash"),
                fault("timeout"),
                fault("illegal"),
                fault("protocol"),
                fault("clock"),
            );
        }
        out.push_str(
            "\nbot,other,deals,games,ahead,behind,level,mean_difference,mean_difference_ci95,score,elo,elo_low,elo_high,los\n",
        );
        let opt = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
        for p in &self.pairs {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
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
                opt(p.elo_low),
                opt(p.elo_high),
                p.los,
            );
        }
        out
    }
}

impl SprtReport {
    /// The test in one line: `SPRT a against b (elo0 0, elo1 10, alpha 0.05, beta 0.05): H1
    /// accepted after 24 deals (48 games), LLR 2.96 (-2.94, 2.94), Elo +215.3 [+160.1, +290.4],
    /// LOS 100.0%`; the pair's Elo is the paired table's (the same games are counted).
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
            self.pair.elo_text(),
            100.0 * self.pair.los,
        )
    }
}

pub fn csv_field(s: &str) -> String {
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
        let head = lines
            .iter()
            .position(|l| l.starts_with("bot ") && l.contains("games"))
            .expect("the bots' column names");
        let games_column = lines[head].find("games").unwrap() + "games".len();
        for row in &lines[head + 1..head + 3] {
            let figures = &row[..games_column];
            assert!(figures.ends_with(" 2"), "{row} under {}", lines[head]);
        }
        // The paired table keeps its columns too: each row's `deals` ends where its head does.
        let head = lines
            .iter()
            .position(|l| l.starts_with("bot ") && l.contains("deals"))
            .expect("the pairs' column names");
        let deals_column = lines[head].find("deals").unwrap() + "deals".len();
        let row = lines[head + 1];
        assert!(
            row[..deals_column].ends_with(" 1"),
            "{row} under {}",
            lines[head]
        );
    }

    #[test]
    fn a_screenful_of_bots_is_shown_head_to_head_and_paired() {
        let stats = ring(SCREENFUL_OF_BOTS);
        let table = stats.table();
        let grid = table
            .split("head to head (row against column: % of their games, a game ranked ahead 1, level 1/2):\n")
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
        // The count of games, a blank line and the hint (where the pairs would be), a blank
        // line, the bots' heading, the column names, and a line per bot.
        assert_eq!(lines.len(), 6 + 2000, "{}", &table[..2000]);
        assert_eq!(lines[0], "4000 games");
        assert!(lines[6..].iter().all(|line| line.starts_with("bot")));
        let hint = lines[2];
        for said in [
            "not printed for more than 30 bots (these are 2000)",
            "--format json",
            "--format csv",
            "--html",
        ] {
            assert!(hint.contains(said), "{hint}");
        }
    }

    /// A game of a two-seat deal between `a` and `b`: `a`'s total and `b`'s (the lower ranks
    /// first).
    fn duel(game: u64, deal: u64, seating: [&str; 2], totals: [i32; 2]) -> GameResult {
        let ranks = match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Less => vec![1, 2],
            std::cmp::Ordering::Greater => vec![2, 1],
            std::cmp::Ordering::Equal => vec![1, 1],
        };
        GameResult {
            game,
            table: 0,
            deal,
            rotation: game % 2,
            seed: None,
            seating: seating.iter().map(|s| s.to_string()).collect(),
            winners: (0..2).filter(|&i| ranks[i] == 1).collect(),
            totals: totals.to_vec(),
            ranks,
            faults: Vec::new(),
            times: None,
        }
    }

    /// Level games count half in the text's grid as in the JSON's share (the HTML draws that
    /// share): one game ahead and one level is 75%, not 50%.
    #[test]
    fn a_level_game_counts_half_head_to_head() {
        let mut acc = Accumulator::default();
        acc.add(&duel(0, 0, ["a", "b"], [3, 5]));
        acc.add(&duel(1, 0, ["b", "a"], [4, 4]));
        let stats = acc.finish();
        let a = stats.head_to_head.iter().find(|h| h.bot == "a").unwrap();
        assert_eq!((a.ahead, a.behind, a.level), (1, 0, 1));
        assert_eq!(a.share(), 0.75);
        let table = stats.table();
        let grid = table.split("head to head").nth(1).unwrap();
        let row_a = grid.lines().find(|l| l.starts_with("a ")).unwrap();
        assert_eq!(
            row_a.split_whitespace().collect::<Vec<_>>(),
            ["a", "-", "75%"]
        );
    }

    /// With a test, the games after the deal that decided are not counted, so the pair's Elo
    /// in the paired table is the test's; the table says how many were left out.
    #[test]
    fn games_after_the_decision_are_not_counted_and_the_pair_has_one_elo() {
        let test = Sprt::parse("elo0=0,elo1=200").unwrap();
        let mut acc = Accumulator::with_sprt(test, "a", "b");
        let mut counted = 0;
        let mut game = 0;
        // `a` wins most deals: the test accepts H1 within these 60 deals.
        for deal in 0..60 {
            let second = if deal % 4 == 3 { [2, 9] } else { [9, 2] };
            for (seating, totals) in [(["a", "b"], [2, 9]), (["b", "a"], second)] {
                counted += u64::from(acc.add(&duel(game, deal, seating, totals)));
                game += 1;
            }
        }
        let stats = acc.finish();
        let sprt = stats.sprt.as_ref().unwrap();
        assert_eq!(sprt.decision, "H1", "{}", sprt.line());
        assert_eq!(stats.games, counted);
        assert_eq!(sprt.pair.games, counted);
        assert_eq!(sprt.after_decision, 120 - counted);
        assert!(sprt.after_decision > 0);
        let [pair] = &stats.pairs[..] else {
            panic!("one pair")
        };
        assert_eq!(pair, &sprt.pair);
        let table = stats.table();
        assert!(
            table.contains(&format!(
                "{} games finished after the decision (under way on other jobs): not counted",
                sprt.after_decision
            )),
            "{table}"
        );
        // Its course: from the first deal to the decision, the last point the decision's.
        let last = sprt.course.last().unwrap();
        assert_eq!((last.deals, last.llr), (sprt.pair.deals, sprt.llr));
        assert_eq!(sprt.course[0].deals, 1);
    }

    /// However many deals a test runs, its course keeps at most [`COURSE_POINTS`] points,
    /// evenly spaced, and the latest.
    #[test]
    fn the_course_of_a_long_test_stays_bounded() {
        // A test that never decides: both bots alike.
        let test = Sprt::parse("elo0=-1000,elo1=1000,alpha=0.0001,beta=0.0001").unwrap();
        let mut acc = Accumulator::with_sprt(test, "a", "b");
        let deals = 5000;
        for deal in 0..deals {
            acc.add(&duel(2 * deal, deal, ["a", "b"], [3, 5]));
            acc.add(&duel(2 * deal + 1, deal, ["b", "a"], [3, 5]));
        }
        let stats = acc.finish();
        let sprt = stats.sprt.unwrap();
        assert_eq!(sprt.decision, "continue");
        let course = &sprt.course;
        assert!(course.len() <= COURSE_POINTS + 1, "{}", course.len());
        assert!(course.len() > COURSE_POINTS / 4, "{}", course.len());
        assert_eq!(course.last().unwrap().deals, deals);
        let step = course[1].deals - course[0].deals;
        assert!(
            course[..course.len() - 1]
                .windows(2)
                .all(|w| w[1].deals - w[0].deals == step)
        );
    }
}
