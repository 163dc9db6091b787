//! The strength benchmark of a search bot (docs/mcs.md, "The gauntlet"): one measured player
//! (by default `builtin:mcs`) against a pool of opponents of many styles, at every table the
//! search must be strong at, on duplicate deals from fixed seeds, so that no single model of
//! an opponent can be fitted to it. Each table is a match whose every deal is played once from
//! every rotation of the seats; the measured player's seats are compared with each opponent's
//! (`paired`: the difference of totals a game, deal by deal, with its 95% interval), and the
//! measured player's decisions are timed on one core.
//!
//! Two seed ranges: the tuning seeds, to choose settings on, and the held-out seeds, for the
//! final figures only (a setting chosen on the seeds it is measured on looks better than it
//! is). Table `i` plays seed `range + i`.

use super::paired::{DealAcc, PairAcc, PairStats};
use crate::game::{Action, Event, Outcome, Seat, View};
use crate::house::sandbox::thread_cpu_time;
use crate::players::pipe::StartupLimit;
use crate::players::search::default_steps;
use crate::players::{Answer, Legality, Limit, Player, PlayerSpec};
use crate::referee::{MatchConfig, play_match};
use crate::seat::GameStart;
use crate::variants::Variant;
use std::cell::Cell;
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

/// The first seed of the tuning range: settings are chosen on these.
pub const TUNING_SEEDS: u64 = 100;
/// The first seed of the held-out range: used only for the final figures.
pub const HELD_OUT_SEEDS: u64 = 900;

/// The plain Monte Carlo search: uniform random rollouts, no model of anyone, each action
/// judged by its own rollouts (`tree=0`: no tree in Pro at two seats), every legal action
/// searched (`prior=0`: no variant's prior narrows them, as the circle game's does by default
/// since the fourth round, docs/mcs.md), a rollout's end scored as every round measured it
/// (`versus=0:rival=50`: not by the others' mean, as classic's default at six seats is since
/// the sixth round), no safe player in its rollouts (`safe=0`, classic's default at six
/// seats being half since the seventh; `own_safe=0`, the circle game's default at two to
/// four seats being all since the thirteenth), no learnt judgement (`judge=0`, the circle
/// game's default since the ninth).
pub const PLAIN_MC: &str = "builtin:mcs:own=random:policy=random:mix=0:infer=0:tree=0:prior=0:versus=0:rival=50:safe=0:own_safe=0:judge=0";
/// `builtin:mcs`'s defaults of 2026-12-01 (the dodger in its rollouts, seats read as the
/// dodger, half the rival's points against its own at every table of three or more, no
/// safe-card player, no learnt judgement), spelt out so that the spec keeps naming them when
/// the defaults change.
pub const MCS_DEC1: &str = "builtin:mcs:own=dodger:policy=random:mix=50:infer=1:versus=0:rival=50:found=100:safe=0:own_safe=0:judge=0";
/// The bots of other styles (scripts/bots, on the Python kit) and the kit's example bot.
pub const EXAMPLE_PY: &str = "python3 sdk/python/example_bot.py";
pub const PLAIN_PY: &str = "python3 scripts/bots/python_bot.py";
pub const CAUTIOUS_PY: &str = "python3 scripts/bots/cautious_bot.py";
pub const LOOKAHEAD_PY: &str = "python3 scripts/bots/lookahead_bot.py";
pub const HIGH_EARLY_PY: &str = "python3 scripts/bots/high_early_bot.py";

/// An opponent of the pool: `mc` is a plain Monte Carlo search at that many times the
/// default steps of the table (worked out per table), else `spec` as it is.
#[derive(Clone, Debug, PartialEq)]
pub enum Opponent {
    Spec(&'static str),
    PlainMc(u64),
}

impl Opponent {
    /// Its player spec at a table of `variant` and `seats`, its steps divided by `scale`.
    fn spec(&self, variant: Variant, seats: usize, scale: u64) -> String {
        match self {
            Opponent::Spec(spec) => scale_spec(spec, variant, seats, scale),
            Opponent::PlainMc(times) => {
                let steps = (times * default_steps(variant, seats) / scale).max(1);
                format!("{PLAIN_MC}:steps={steps}")
            }
        }
    }
}

/// `spec` with its search's default budget divided by `scale`: a search with no budget given
/// gets `steps=` its default over `scale`; anything else is left as it is.
fn scale_spec(spec: &str, variant: Variant, seats: usize, scale: u64) -> String {
    let budgeted = ["steps=", "rollouts=", "ms="]
        .iter()
        .any(|b| spec.contains(b));
    if scale == 1 || !spec.starts_with("builtin:mcs") || budgeted {
        return spec.to_string();
    }
    let steps = (default_steps(variant, seats) / scale).max(1);
    format!("{spec}:steps={steps}")
}

/// The classic 2-player pool: every opponent the measured bot must be ahead of.
pub fn pool() -> Vec<Opponent> {
    vec![
        Opponent::PlainMc(10),
        Opponent::PlainMc(1),
        Opponent::Spec("builtin:random"),
        Opponent::Spec("builtin:lowest"),
        Opponent::Spec("builtin:highest"),
        Opponent::Spec("builtin:dodger"),
        Opponent::Spec(MCS_DEC1),
        Opponent::Spec("builtin:mcs:infer=0"),
        Opponent::Spec("builtin:mcs:rollouts=2000:infer=0"),
        Opponent::Spec("builtin:mcs:own=random"),
        Opponent::Spec("builtin:mcs:mix=100"),
        Opponent::Spec(EXAMPLE_PY),
        Opponent::Spec(PLAIN_PY),
        Opponent::Spec(CAUTIOUS_PY),
        Opponent::Spec(LOOKAHEAD_PY),
        Opponent::Spec(HIGH_EARLY_PY),
    ]
}

/// One table of the gauntlet: `measured` seats of the measured player, then the opponents.
#[derive(Clone, Debug)]
pub struct Table {
    pub name: String,
    pub variant: Variant,
    pub measured: usize,
    pub opponents: Vec<Opponent>,
}

impl Table {
    fn new(name: &str, variant: &str, measured: usize, opponents: Vec<Opponent>) -> Table {
        Table {
            name: name.to_string(),
            variant: Variant::from_name(variant).expect("a variant's name"),
            measured,
            opponents,
        }
    }

    pub fn seats(&self) -> usize {
        self.measured + self.opponents.len()
    }
}

/// Every table of issue 31's "Done when", in its order.
pub fn tables() -> Vec<Table> {
    use Opponent::{PlainMc, Spec};
    let mut tables = Vec::new();
    for opponent in pool() {
        let label = match &opponent {
            PlainMc(times) => format!("plain-mc-{times}x"),
            Spec(spec) => short_name(spec),
        };
        tables.push(Table::new(
            &format!("classic-2p-vs-{label}"),
            "classic",
            1,
            vec![opponent],
        ));
    }
    let two_mc10 = || vec![PlainMc(10), PlainMc(10)];
    tables.push(Table::new(
        "classic-4p-2v2-plain-mc-10x",
        "classic",
        2,
        two_mc10(),
    ));
    tables.push(Table::new(
        "classic-3p-mix",
        "classic",
        1,
        vec![PlainMc(10), Spec(LOOKAHEAD_PY)],
    ));
    tables.push(Table::new(
        "classic-5p-mix",
        "classic",
        1,
        vec![
            PlainMc(10),
            Spec(EXAMPLE_PY),
            Spec(CAUTIOUS_PY),
            Spec("builtin:dodger"),
        ],
    ));
    tables.push(Table::new(
        "classic-6p-mix",
        "classic",
        1,
        vec![
            PlainMc(10),
            Spec(MCS_DEC1),
            Spec(HIGH_EARLY_PY),
            Spec(PLAIN_PY),
            Spec("builtin:random"),
        ],
    ));
    for variant in ["pro", "take-a-number", "circle", "anniversary"] {
        tables.push(Table::new(
            &format!("{variant}-2p-vs-plain-mc-10x"),
            variant,
            1,
            vec![PlainMc(10)],
        ));
        tables.push(Table::new(
            &format!("{variant}-4p-2v2-plain-mc-10x"),
            variant,
            2,
            two_mc10(),
        ));
    }
    tables.push(Table::new(
        "classic-4p-old-target",
        "classic",
        1,
        vec![
            Spec("builtin:dodger"),
            Spec("builtin:random"),
            Spec("builtin:random"),
        ],
    ));
    tables
}

/// A short label for a spec: `builtin:` left out, a command by its script's name.
fn short_name(spec: &str) -> String {
    if spec == MCS_DEC1 {
        return "mcs-dec1".to_string();
    }
    if let Some(builtin) = spec.strip_prefix("builtin:") {
        return builtin.replace([':', '='], "-");
    }
    let script = spec.split_whitespace().last().unwrap_or(spec);
    let file = script.rsplit('/').next().unwrap_or(script);
    file.trim_end_matches(".py").replace('_', "-")
}

/// How a gauntlet is run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The measured player's spec.
    pub measured: String,
    /// The first seed of the range (table `i` plays `seeds + i`).
    pub seeds: u64,
    /// Deals per table.
    pub deals: u64,
    /// Every search's default budget is divided by this (1 for real figures; the quick mode's
    /// smoke test divides it so that a debug build gets through).
    pub scale: u64,
}

impl Settings {
    /// The smoke test (`--quick`): one deal a table, every search's budget a hundredth of its
    /// default, on the tuning seeds.
    pub fn quick(measured: &str) -> Settings {
        Settings {
            measured: measured.to_string(),
            seeds: TUNING_SEEDS,
            deals: 1,
            scale: 100,
        }
    }
}

/// What one table gave.
#[derive(Clone, Debug)]
pub struct TableResult {
    pub name: String,
    pub seed: u64,
    /// Points are won, not taken (the circle game): a positive difference is better.
    pub high_wins: bool,
    /// The measured player against each distinct opponent spec (its seats against theirs,
    /// every pair of seats a game).
    pub pairs: Vec<PairStats>,
    /// The measured player's decisions, their mean and slowest CPU time on one core.
    pub decisions: u64,
    pub mean: Duration,
    pub slowest: Duration,
}

/// A player that counts its decisions and the CPU time they took on one core (whatever else
/// the machine is doing), on a [`Clock`] it may share with other players.
pub struct Timed {
    inner: Box<dyn Player>,
    clock: Rc<Clock>,
}

impl Timed {
    pub fn new(inner: Box<dyn Player>, clock: Rc<Clock>) -> Timed {
        Timed { inner, clock }
    }
}

/// The decisions timed, their CPU time and the slowest.
#[derive(Default)]
pub struct Clock {
    decisions: Cell<u64>,
    time: Cell<Duration>,
    slowest: Cell<Duration>,
}

impl Clock {
    /// The decisions, their mean CPU time and the slowest one's.
    pub fn figures(&self) -> (u64, Duration, Duration) {
        let decisions = self.decisions.get();
        let mean = self.time.get().div_f64(decisions.max(1) as f64);
        (decisions, mean, self.slowest.get())
    }
}

impl Player for Timed {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start_game(&mut self, start: &GameStart) -> Answer<()> {
        self.inner.start_game(start)
    }
    fn wants_events(&self) -> bool {
        self.inner.wants_events()
    }
    fn observe(&mut self, seat: Seat, event: &Event) -> Answer<()> {
        self.inner.observe(seat, event)
    }
    fn decide(&mut self, view: &View, legal: Legality, limit: Limit) -> Answer<Action> {
        let start = thread_cpu_time();
        let answer = self.inner.decide(view, legal, limit);
        let took = thread_cpu_time().saturating_sub(start);
        let clock = &self.clock;
        clock.decisions.set(clock.decisions.get() + 1);
        clock.time.set(clock.time.get() + took);
        clock.slowest.set(clock.slowest.get().max(took));
        answer
    }
    fn end_game(&mut self, outcome: &Outcome) {
        self.inner.end_game(outcome)
    }
    fn finish(&mut self) {
        self.inner.finish()
    }
}

/// Plays table number `index` of `settings`' seed range.
pub fn run_table(table: &Table, index: u64, settings: &Settings) -> Result<TableResult, String> {
    let (variant, seats) = (table.variant, table.seats());
    let seed = settings.seeds + index;
    let measured = scale_spec(&settings.measured, variant, seats, settings.scale);
    let mut specs = vec![measured; table.measured];
    specs.extend(
        table
            .opponents
            .iter()
            .map(|o| o.spec(variant, seats, settings.scale)),
    );
    let clock = Rc::new(Clock::default());
    let mut players = Vec::with_capacity(seats);
    for (i, spec) in specs.iter().enumerate() {
        let parsed = PlayerSpec::parse(spec).map_err(|e| format!("{spec}: {e}"))?;
        let player = parsed.create(seed, StartupLimit::flag(Duration::from_secs(60)))?;
        players.push(if i < table.measured {
            Box::new(Timed::new(player, clock.clone())) as Box<dyn Player>
        } else {
            player
        });
    }
    let rules = Arc::new(variant.rules());
    let high_wins = rules.circle.is_some();
    let config = MatchConfig {
        variant,
        rules,
        seed,
        games: settings.deals * seats as u64,
        deals: Vec::new(),
        timeout: Duration::from_secs(60),
        clocks: Vec::new(),
        house: None,
        tournament: None,
    };
    // The opponents by spec: each distinct spec is one pair with the measured player.
    let mut others: Vec<(String, Vec<usize>)> = Vec::new();
    for (p, spec) in specs.iter().enumerate().skip(table.measured) {
        match others.iter_mut().find(|(s, _)| s == spec) {
            Some((_, players)) => players.push(p),
            None => others.push((spec.clone(), vec![p])),
        }
    }
    let mut pairs = vec![PairAcc::default(); others.len()];
    let mut deal = vec![DealAcc::new(); others.len()];
    let mut faults = 0;
    play_match(&config, &mut players, None, |report| {
        faults += report.faults.len();
        let seat_of = |p: usize| report.seating.iter().position(|&q| q == p).unwrap();
        let totals = &report.outcome.totals;
        // Penalties count against (lower is better) except in the circle game.
        let points = |p: usize| {
            let t = totals[seat_of(p)];
            if high_wins { -t } else { t }
        };
        let rank = |p: usize| 1 + (0..seats).filter(|&q| points(q) < points(p)).count() as u32;
        for (k, (_, theirs)) in others.iter().enumerate() {
            for m in 0..table.measured {
                for &o in theirs {
                    deal[k].add(rank(m), totals[seat_of(m)], rank(o), totals[seat_of(o)]);
                }
            }
        }
        if (report.number + 1) % seats as u64 == 0 {
            for (pair, d) in pairs.iter_mut().zip(&mut deal) {
                pair.add(d);
                *d = DealAcc::new();
            }
        }
        ControlFlow::Continue(())
    })
    .map_err(|e| format!("{}: {e}", table.name))?;
    if faults > 0 {
        return Err(format!(
            "{}: {faults} faults (a bot failed; the figures would not be its play)",
            table.name
        ));
    }
    let (decisions, mean, slowest) = clock.figures();
    Ok(TableResult {
        name: table.name.clone(),
        seed,
        high_wins,
        pairs: pairs
            .iter()
            .zip(&others)
            .map(|(acc, (spec, _))| acc.stats(&specs[0], spec))
            .collect(),
        decisions,
        mean,
        slowest,
    })
}

impl TableResult {
    /// Whether the measured player is ahead of every opponent, each interval excluding 0.
    pub fn ahead_of_all(&self) -> bool {
        self.pairs.iter().all(|p| {
            let half = p.mean_difference_ci95.unwrap_or(f64::INFINITY);
            let d = if self.high_wins {
                -p.mean_difference
            } else {
                p.mean_difference
            };
            d + half < 0.0
        })
    }

    /// The table's lines: per opponent, the difference a game with its 95% interval and how
    /// often the measured player ranked ahead; then its CPU time per decision.
    pub fn text(&self) -> String {
        let better = if self.high_wins { "more" } else { "fewer" };
        let mut text = format!(
            "{} (seed {}, {} points is better): {}\n",
            self.name,
            self.seed,
            better,
            if self.ahead_of_all() {
                "ahead of every opponent"
            } else {
                "NOT ahead of every opponent"
            }
        );
        for p in &self.pairs {
            let interval = match p.mean_difference_ci95 {
                Some(half) => format!(
                    "[{:+.2}, {:+.2}]",
                    p.mean_difference - half,
                    p.mean_difference + half
                ),
                None => "[no interval]".to_string(),
            };
            text.push_str(&format!(
                "  vs {:<60} {:+7.2} {interval} a game, ahead {:5.1}%, {} deals\n",
                p.other,
                p.mean_difference,
                100.0 * p.ahead as f64 / p.games.max(1) as f64,
                p.deals
            ));
        }
        text.push_str(&format!(
            "  CPU per decision: {:.2} ms mean, {:.2} ms slowest ({} decisions)\n",
            self.mean.as_secs_f64() * 1000.0,
            self.slowest.as_secs_f64() * 1000.0,
            self.decisions
        ));
        text
    }
}
