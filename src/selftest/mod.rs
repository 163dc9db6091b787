//! `take5 selftest`: a bot's compliance test. Scripted situations of each variant
//! ([`situations`]) are played by the normal referee through the normal pipe player, with a
//! probe around the player that watches every exchange: each answer must be accepted by the
//! game model at the first try (no `error` line but the one the test provokes) and come within
//! the time limit. The exchanges are sorted into a checklist (every kind of question, a low
//! card, a take, the last turn of a round, several games, an `error`, `bye`, the events), each
//! item PASS or FAIL with what was sent, what came back and what was expected. The lines are
//! those the pipe player logs (as with `take5 play --log-io`), read back after each exchange.

pub mod situations;

use crate::game::{Action, Decision, Event, Outcome, Refused, RuleError, Seat, View};
use crate::players::builtin::{Builtin, Strategy};
use crate::players::pipe::{IoLog, PipePlayer, StartupLimit};
use crate::players::process::BotCommand;
use crate::players::{Answer, Fault, Legality, Limit, Player};
use crate::referee::{MatchConfig, play_match};
use crate::seat::{FaultKind, GameStart, TimeLimits};
use crate::variants::Variant;
use serde::Serialize;
use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the `error` line of a provoked refusal says.
pub const REFUSAL: &str =
    "take5 selftest refuses the first answer to this request on purpose: answer it again";

/// How a self-test is run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The bot's command line.
    pub command: String,
    pub variants: Vec<Variant>,
    /// `--timeout`, `--startup-timeout`, `--clock`.
    pub limits: TimeLimits,
    /// Seeds the deals that are not scripted.
    pub seed: u64,
    /// Where the bots' lines are logged while the test runs (removed afterwards).
    pub scratch: PathBuf,
    /// With `--sandbox`: how the bot's processes are confined.
    pub sandbox: Option<crate::players::sandbox::Sandbox>,
}

/// A checklist item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    Handshake,
    Ask(&'static str),
    Take,
    LastTurn,
    Error,
    Games,
    Bye,
    Events,
}

impl Item {
    pub fn name(self) -> String {
        match self {
            Item::Handshake => "handshake".into(),
            Item::Ask("row") => "ask row (a low card)".into(),
            Item::Ask(kind) => format!("ask {kind}"),
            Item::Take => "a take (the next request after it)".into(),
            Item::LastTurn => "the last turn of a round (one card in hand)".into(),
            Item::Error => "an error line, answered again".into(),
            Item::Games => format!("{} games in a row", situations::GAMES_IN_A_ROW),
            Item::Bye => "bye (the bot exits by itself)".into(),
            Item::Events => "event lines".into(),
        }
    }

    /// The question a decision asks, as the protocol names it.
    fn ask(decision: Decision) -> Item {
        Item::Ask(match decision {
            Decision::PlayCard => "play",
            Decision::ChooseRow { .. } => "row",
            Decision::KeepCard => "keep",
            Decision::Pick => "pick",
            Decision::Place { .. } => "place",
            Decision::Special { .. } => "special",
            Decision::Cancel => "cancel",
            Decision::Swap => "swap",
        })
    }
}

/// The items of `variant`'s checklist, in order; those that every bot must meet in its
/// situations (the others are checked when the bot's own choices lead there).
pub fn items(variant: Variant) -> Vec<(Item, bool)> {
    let own = &variant.describe().selftest;
    let mut items = vec![(Item::Handshake, true)];
    items.extend(
        own.asks
            .iter()
            .map(|&(kind, required)| (Item::Ask(kind), required)),
    );
    items.extend([
        (Item::Take, own.takes),
        (Item::LastTurn, true),
        (Item::Error, true),
        (Item::Games, true),
        (Item::Bye, true),
        (Item::Events, true),
    ]);
    items
}

/// One item's result.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    pub variant: &'static str,
    pub item: String,
    pub status: Verdict,
    /// How often it was seen (a question answered, a game played).
    pub seen: u64,
    /// A note for people (what the bot said, or why it failed).
    pub detail: String,
    /// For a failure: the lines sent to the bot and those it sent back, in the order they
    /// went, and what was expected.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Said>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub expected: String,
}

/// A line of an exchange with the bot: `{"sent": "..."}` or `{"got": "..."}` in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Said {
    Sent(String),
    Got(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Verdict {
    Pass,
    Fail,
    /// Not reached by the bot's own choices, and not required.
    Skip,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::Skip => "SKIP",
        }
    }
}

/// Times, in milliseconds.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Times {
    pub count: usize,
    pub median_ms: f64,
    pub p95_ms: f64,
    pub max_ms: f64,
}

impl Times {
    fn of(mut times: Vec<Duration>) -> Times {
        if times.is_empty() {
            return Times::default();
        }
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        // The nearest rank: the smallest time at or above the given share of the times.
        let rank = |share: f64| times[((share * times.len() as f64).ceil() as usize).max(1) - 1];
        Times {
            count: times.len(),
            median_ms: ms(rank(0.5)),
            p95_ms: ms(rank(0.95)),
            max_ms: ms(times[times.len() - 1]),
        }
    }
}

/// The whole result.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub bot: String,
    /// The time limits the bot was held to, in milliseconds: each decision, each start.
    pub timeout_ms: u64,
    pub startup_timeout_ms: u64,
    /// With `--clock`: the clock the bot played on instead of `timeout_ms`, `BASE+INC` in
    /// milliseconds (absent without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    pub passed: bool,
    pub checks: Vec<Check>,
    /// Each decision: from writing the request to reading the answer.
    pub decisions: Times,
    /// Each start of the program: from starting it to its `hello`.
    pub startup: Times,
}

/// Runs the self-test. An error is a bot that cannot be started at all, or a broken
/// situation (a bug of take5's, named).
pub fn run(config: &Config) -> Result<Report, String> {
    std::fs::create_dir_all(&config.scratch)
        .map_err(|e| format!("cannot create {}: {e}", config.scratch.display()))?;
    let result = run_in(config);
    let _ = std::fs::remove_dir_all(&config.scratch);
    result
}

fn run_in(config: &Config) -> Result<Report, String> {
    let mut checks = Vec::new();
    let mut decisions = Vec::new();
    let mut startup = Vec::new();
    for &variant in &config.variants {
        let tally = Rc::new(RefCell::new(Tally::default()));
        for (n, situation) in situations::situations(variant).into_iter().enumerate() {
            if tally.borrow().given_up {
                // A bot that let a time limit pass would let it pass again: the variant's
                // other situations would each cost a limit (or several) to learn nothing.
                break;
            }
            let prefix = config.scratch.join(format!("{}-{n}", variant.name()));
            let probe = Probe::new(config, &prefix, situation.refuse_first, tally.clone())?;
            let match_config = MatchConfig {
                variant,
                rules: Arc::new(situation.rules),
                seed: config.seed,
                games: situation.games,
                deals: situation.deals,
                timeout: config.limits.decision,
                // The probe (the bot) sits at seat 0, the built-in bot is not timed.
                clocks: vec![config.limits.clock, None],
                house: None,
                tournament: None,
            };
            let mut players: Vec<Box<dyn Player>> = vec![
                Box::new(probe),
                Box::new(Builtin::new(Strategy::Lowest, config.seed)),
            ];
            tally.borrow_mut().games_wanted = situation.games;
            play_match(&match_config, &mut players, None, |_| {
                ControlFlow::Continue(())
            })
            .map_err(|e| {
                format!(
                    "selftest situation {} {}: {e}",
                    variant.name(),
                    situation.name
                )
            })?;
        }
        let mut tally = tally.borrow_mut();
        decisions.append(&mut tally.decisions);
        startup.append(&mut tally.startup);
        for (item, required) in items(variant) {
            checks.push(tally.check(variant, item, required));
        }
    }
    Ok(Report {
        bot: config.command.clone(),
        timeout_ms: config.limits.decision.as_millis() as u64,
        startup_timeout_ms: config.limits.startup.as_millis() as u64,
        clock: config.limits.clock.map(|c| c.spec()),
        passed: checks.iter().all(|c| c.status != Verdict::Fail),
        checks,
        decisions: Times::of(decisions),
        startup: Times::of(startup),
    })
}

/// What the probes of one variant saw.
#[derive(Default)]
struct Tally {
    seen: Vec<Seen>,
    decisions: Vec<Duration>,
    startup: Vec<Duration>,
    games_wanted: u64,
    /// The bot let a time limit pass: it is asked nothing more in this variant.
    given_up: bool,
}

/// One item as seen so far: how often it passed, its first failure, a note for people.
struct Seen {
    item: Item,
    passes: u64,
    failure: Option<Failure>,
    note: String,
}

#[derive(Clone, Debug)]
struct Failure {
    why: String,
    lines: Vec<Said>,
    expected: String,
}

impl Tally {
    fn entry(&mut self, item: Item) -> &mut Seen {
        let at = match self.seen.iter().position(|e| e.item == item) {
            Some(at) => at,
            None => {
                self.seen.push(Seen {
                    item,
                    passes: 0,
                    failure: None,
                    note: String::new(),
                });
                self.seen.len() - 1
            }
        };
        &mut self.seen[at]
    }

    fn pass(&mut self, item: Item) {
        self.entry(item).passes += 1;
    }

    fn note(&mut self, item: Item, note: String) {
        let entry = self.entry(item);
        if entry.note.is_empty() {
            entry.note = note;
        }
    }

    fn fail(&mut self, item: Item, failure: Failure) {
        self.entry(item).failure.get_or_insert(failure);
    }

    fn check(&self, variant: Variant, item: Item, required: bool) -> Check {
        let seen = self.seen.iter().find(|e| e.item == item);
        let mut check = Check {
            variant: variant.name(),
            item: item.name(),
            status: Verdict::Pass,
            seen: seen.map_or(0, |s| s.passes),
            detail: seen.map(|s| s.note.clone()).unwrap_or_default(),
            lines: Vec::new(),
            expected: String::new(),
        };
        match seen.and_then(|s| s.failure.clone()) {
            Some(failure) => {
                check.status = Verdict::Fail;
                check.detail = failure.why;
                check.lines = failure.lines;
                check.expected = failure.expected;
            }
            None if check.seen == 0 && required => {
                check.status = Verdict::Fail;
                check.detail = if self.given_up {
                    "never reached: the bot was given up for this variant at its first timeout \
                     (see the other items)"
                        .into()
                } else if self.seen.iter().any(|s| s.failure.is_some()) {
                    "never reached: the bot failed before it (see the other items)".into()
                } else {
                    "never reached: the bot's choices led around every situation for it".into()
                };
            }
            None if check.seen == 0 => {
                check.status = Verdict::Skip;
                check.detail = if self.given_up {
                    "not asked: the bot was given up for this variant at its first timeout".into()
                } else {
                    "not asked: the bot's own choices never led there".into()
                };
            }
            None => {}
        }
        check
    }
}

/// The bot's player, watched: it forwards everything to the pipe player and sorts what
/// happened into the tally.
struct Probe {
    inner: PipePlayer,
    log: PathBuf,
    /// How much of the log has been read.
    read: usize,
    started: Instant,
    refuse_next: bool,
    tally: Rc<RefCell<Tally>>,
    seat: Seat,
    /// The game's number in the situation, from 0.
    game: u64,
    games_played: u64,
    /// The bot took cards and has not been asked since.
    took: bool,
    /// The bot failed in this situation (the items after a failure are not its fault).
    failed: bool,
    /// The start-up limit, named when the bot does not greet.
    startup: Duration,
}

impl Probe {
    fn new(
        config: &Config,
        prefix: &Path,
        refuse_first: bool,
        tally: Rc<RefCell<Tally>>,
    ) -> Result<Probe, String> {
        let mut command = BotCommand::parse(&config.command)?;
        let with = |end: &str| {
            let mut path = prefix.as_os_str().to_owned();
            path.push(end);
            PathBuf::from(path)
        };
        command.stderr_file = Some(with(".stderr"));
        command.sandbox.clone_from(&config.sandbox);
        let log = with(".log");
        let started = Instant::now();
        let io_log = IoLog::create(&log, started)
            .map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        let inner = PipePlayer::with_command(
            &config.command,
            command,
            StartupLimit::flag(config.limits.startup),
            Some(io_log),
        )?;
        Ok(Probe {
            inner,
            log,
            read: 0,
            started,
            refuse_next: refuse_first,
            tally,
            seat: 0,
            game: 0,
            games_played: 0,
            took: false,
            failed: false,
            startup: config.limits.startup,
        })
    }

    /// The lines logged since the last call: (direction, line).
    fn new_lines(&mut self) -> Vec<(char, String)> {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let fresh = text.get(self.read..).unwrap_or_default().to_string();
        self.read = text.len();
        fresh
            .lines()
            .filter_map(|line| {
                // "   0.001234 > ask play ...": the time, the direction, the line.
                let (_, rest) = line.trim_start().split_once(' ')?;
                let mut chars = rest.chars();
                let direction = chars.next()?;
                Some((direction, chars.as_str().trim_start().to_string()))
            })
            .collect()
    }

    /// The item a failure in this exchange goes to: in a game after the first, a question the
    /// bot answered well before and fails now is its handling of several games.
    fn blame(&self, item: Item) -> Item {
        let answered_before = self
            .tally
            .borrow()
            .seen
            .iter()
            .any(|s| s.item == item && s.passes > 0);
        if self.game > 0 && answered_before {
            Item::Games
        } else {
            item
        }
    }

    fn failure(&mut self, lines: &[(char, String)], why: String, expected: String) -> Failure {
        // The event lines before a request are noise here; the request, its errors and the
        // game line are what the bot answered.
        let lines = lines
            .iter()
            .filter_map(|(d, l)| match d {
                '>' if l.starts_with("event ") => None,
                '>' => Some(Said::Sent(shorten(l))),
                _ => Some(Said::Got(shorten(l))),
            })
            .collect();
        self.failed = true;
        Failure {
            why,
            lines,
            expected,
        }
    }

    /// A fault for a request the probe does not pass on: the bot was given up for this variant.
    fn given_up(&self) -> Option<Box<Fault>> {
        self.tally.borrow().given_up.then(|| {
            Fault::new(
                FaultKind::Timeout,
                "given up for this variant at its first timeout",
                true,
            )
        })
    }

    /// A fault that is a time limit passed gives the bot up for the rest of the variant.
    fn give_up_at(&self, fault: &Fault) {
        if fault.kind == FaultKind::Timeout {
            self.tally.borrow_mut().given_up = true;
        }
    }
}

/// A line as a failure shows it: a long one (the `game` line's bullheads) cut.
fn shorten(line: &str) -> String {
    const LONG: usize = 200;
    match line.char_indices().nth(LONG) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.to_string(),
    }
}

/// What a reply to `view`'s question must be.
fn expected(view: &View, limit: Duration) -> String {
    let list = |cards: &[crate::cards::Card]| {
        cards
            .iter()
            .map(|c| c.0.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let shape = match view.decision {
        Some(Decision::PlayCard) => format!("play <card>, a card of hand={}", list(view.hand)),
        Some(Decision::ChooseRow { .. }) => {
            format!(
                "row <index>, a row from 0 to {}",
                view.rows.len().saturating_sub(1)
            )
        }
        Some(Decision::KeepCard) => format!("keep <card>, one of cards={}", list(view.keep_from())),
        Some(Decision::Pick) => format!("pick <card>, a card of pool={}", list(view.pool)),
        Some(Decision::Place { .. }) => "play <card>, special <x2|plus5> <row> or end".into(),
        Some(Decision::Special { .. }) => "special <name> <arguments> or pass".into(),
        Some(Decision::Cancel) => format!(
            "cancel <card>, one of cards={}, or pass",
            list(view.taking())
        ),
        Some(Decision::Swap) => "swap <name> or pass".into(),
        None => "nothing".into(),
    };
    format!(
        "`{shape}`, legal, at the first try, within {} ms",
        limit.as_millis()
    )
}

impl Player for Probe {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn start_game(&mut self, start: &GameStart) -> Answer<()> {
        if let Some(fault) = self.given_up() {
            return Err(fault);
        }
        self.seat = start.seat;
        self.game = start.number;
        self.took = false;
        let new_process = !self.inner.greeted();
        let begun = Instant::now();
        let result = self.inner.start_game(start);
        if !new_process {
            return result;
        }
        // The first start counts from the program's start; a restart from now.
        let from = if start.number == 0 {
            self.started
        } else {
            begun
        };
        let item = self.blame(Item::Handshake);
        match &result {
            Ok(()) => {
                self.new_lines();
                let mut tally = self.tally.borrow_mut();
                tally.startup.push(from.elapsed());
                tally.pass(item);
                let name = self.inner.bot_name().unwrap_or_default().to_string();
                tally.note(Item::Handshake, format!("the bot calls itself {name}"));
                let events = if self.inner.wants_events() {
                    "takes them: they come before each request"
                } else {
                    "declines them (events=no): it decides from each request alone"
                };
                tally.note(Item::Events, events.to_string());
                tally.pass(Item::Events);
            }
            Err(fault) => {
                let lines = self.new_lines();
                let failure = self.failure(
                    &lines,
                    fault.to_string(),
                    format!(
                        "`hello version=1 name=<name>`, within the start-up limit of {} ms \
                         (--startup-timeout)",
                        self.startup.as_millis()
                    ),
                );
                self.tally.borrow_mut().fail(item, failure);
                self.give_up_at(fault);
            }
        }
        result
    }

    fn wants_events(&self) -> bool {
        // The probe watches every event; the bot gets them only if it wants them.
        true
    }

    fn observe(&mut self, seat: Seat, event: &Event) -> Answer<()> {
        if matches!(event, Event::Take { seat: s, .. } | Event::Collect { seat: s, .. } if *s == seat)
        {
            self.took = true;
        }
        if self.inner.wants_events() {
            self.inner.observe(seat, event)
        } else {
            Ok(())
        }
    }

    fn decide(&mut self, view: &View, legal: Legality, limit: Limit) -> Answer<Action> {
        if let Some(fault) = self.given_up() {
            return Err(fault);
        }
        let decision = view.decision.expect("asked only for a decision");
        let unasked_before = self.inner.unasked();
        let refuse = std::mem::take(&mut self.refuse_next);
        let refused = Cell::new(false);
        let guarded = |action: Action| {
            if refuse && !refused.replace(true) {
                return Err(RuleError::Refused(Refused {
                    why: REFUSAL.to_string(),
                }));
            }
            legal(action)
        };
        let begun = Instant::now();
        let answer = self.inner.decide(view, &guarded, limit);
        let time = begun.elapsed();
        let lines = self.new_lines();
        // Besides the error we provoke, any error line means a refused reply.
        let errors = lines
            .iter()
            .filter(|(d, l)| *d == '>' && l.starts_with("error "))
            .count();
        let refusals = errors.saturating_sub(usize::from(refuse && refused.get()));
        let mut items = vec![if refuse {
            Item::Error
        } else {
            Item::ask(decision)
        }];
        if matches!(decision, Decision::PlayCard | Decision::Place { .. }) && view.hand.len() == 1 {
            items.push(Item::LastTurn);
        }
        if std::mem::take(&mut self.took) && !refuse {
            items.push(Item::Take);
        }
        let mut why = match &answer {
            Err(fault) => Some(fault.to_string()),
            Ok(_) if refusals > 0 => Some(format!(
                "{refusals} repl{} refused before one was accepted",
                if refusals == 1 { "y was" } else { "ies were" }
            )),
            Ok(_) => None,
        };
        let unasked = self.inner.unasked() - unasked_before;
        if unasked > 0 {
            let note = format!(
                "the bot wrote {} nobody asked for: its stdout is for protocol lines only \
                 (notes go to stderr)",
                if unasked == 1 {
                    "a line".to_string()
                } else {
                    format!("{unasked} lines")
                }
            );
            why = Some(match why {
                Some(why) => format!("{note}\n{why}"),
                None => note,
            });
        }
        if let Err(fault) = &answer {
            self.give_up_at(fault);
        }
        match why {
            None => {
                let mut tally = self.tally.borrow_mut();
                tally.decisions.push(time);
                for item in items {
                    tally.pass(item);
                }
            }
            Some(why) => {
                let failure = self.failure(&lines, why, expected(view, limit.time));
                let blamed = self.blame(items[0]);
                self.tally.borrow_mut().fail(blamed, failure);
            }
        }
        answer
    }

    fn end_game(&mut self, outcome: &Outcome) {
        self.inner.end_game(outcome);
        self.games_played += 1;
        if std::mem::take(&mut self.took) && !self.failed {
            // The bot's take was the game's last step: there was nothing more to answer.
            self.tally.borrow_mut().pass(Item::Take);
        }
    }

    fn finish(&mut self) {
        self.inner.finish();
        let lines = self.new_lines();
        let mut tally = self.tally.borrow_mut();
        if tally.games_wanted > 1 && !self.failed && self.games_played == tally.games_wanted {
            tally.pass(Item::Games);
        }
        // A bot that was stopped for a fault got no `bye` (no exit status): nothing to judge.
        use std::os::unix::process::ExitStatusExt;
        match self.inner.exit_after_bye() {
            Some(status) if status.signal() != Some(libc::SIGKILL) => tally.pass(Item::Bye),
            Some(_) => tally.fail(
                Item::Bye,
                Failure {
                    why: "still running after bye: it was killed".into(),
                    lines: lines.into_iter().map(|(_, l)| Said::Sent(l)).collect(),
                    expected: "the bot exits on `bye` (or at the end of its input)".into(),
                },
            ),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_nearest_rank_percentiles() {
        let times = (1..=20).map(Duration::from_millis).collect();
        let times = Times::of(times);
        assert_eq!(times.count, 20);
        assert_eq!(times.median_ms, 10.0);
        assert_eq!(times.p95_ms, 19.0);
        assert_eq!(times.max_ms, 20.0);
        assert_eq!(Times::of(Vec::new()).count, 0);
    }

    #[test]
    fn every_variant_lists_each_of_its_questions_once() {
        for &variant in Variant::ALL {
            let items = items(variant);
            for (i, (item, _)) in items.iter().enumerate() {
                assert!(!items[..i].iter().any(|(seen, _)| seen == item), "{item:?}");
            }
            assert!(items.iter().any(|(item, _)| matches!(item, Item::Ask(_))));
        }
    }
}
