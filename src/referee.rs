//! The referee loop: deals, asks whoever must decide, applies, records, and survives players
//! that fail. It knows no variant: everything goes through [`Game`] and [`Player`].

use crate::game::house::{HouseError, HouseRules};
use crate::game::{Action, Deal, Event, EventSink, Game, Outcome, RuleError, Seat, ToMove};
use crate::players::builtin::fallback;
use crate::players::{Answer, Fault, Limit, Player};
use crate::record::{
    ClockLine, FaultLine, Header, HouseScript, Line, StopLine, TournamentGame, Writer,
};
use crate::rng::{GameRng, Stream};
use crate::rules::{Rules, RulesError};
use crate::seat::{Clock, FaultKind, GameStart, RunningClock};
use crate::variants::{AnyGame, Variant};
use std::fmt;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub variant: Variant,
    pub rules: Arc<Rules>,
    /// Seeds the deals and the built-in bots' choices.
    pub seed: u64,
    /// Games to play. Seats rotate from game to game, and each deal is played once from every
    /// rotation, so every player plays every deal from every seat.
    pub games: u64,
    /// Deals for rounds 1, 2, ... of every game, replacing the random ones (a replayed game);
    /// later rounds are dealt from the seed.
    pub deals: Vec<Deal>,
    /// Time a player has for each decision.
    pub timeout: Duration,
    /// Each player's game clock (by player, as `players`), none for a player held to
    /// `timeout` instead; empty when no player has one.
    pub clocks: Vec<Option<Clock>>,
    /// House rules' hooks, if any (their settings are already in `rules`).
    pub house: Option<MatchHouse>,
    /// The match is one game of a tournament: its record's header says which, and names the
    /// bots by their pool names (a match of one game).
    pub tournament: Option<TournamentGame>,
}

/// House rules for a match: where each game's hooks come from, and how records name them.
#[derive(Clone, Debug)]
pub struct MatchHouse {
    pub hooks: Rc<dyn HouseRules>,
    /// What each game's record header says of the rules.
    pub script: HouseScript,
}

/// What happened in one game.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub number: u64,
    /// The player (index into the match's players) at each seat.
    pub seating: Vec<usize>,
    pub outcome: Outcome,
    pub faults: Vec<FaultLine>,
}

/// Why a match could not go on. Player faults are not errors: they are recorded and played
/// around.
#[derive(Debug)]
pub enum RefereeError {
    Rules(RulesError),
    /// A scripted deal does not fit the rules.
    Deal {
        round: u32,
        error: RuleError,
    },
    /// The record could not be written.
    Record(io::Error),
    /// A house rule failed; the game stopped there.
    House(HouseError),
    /// House rules could not set up a game's hooks.
    HouseStart {
        game: u64,
        message: String,
    },
}

impl fmt::Display for RefereeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefereeError::Rules(e) => e.fmt(f),
            RefereeError::Deal { round, error } => write!(f, "deal for round {round}: {error}"),
            RefereeError::Record(e) => write!(f, "cannot write the record: {e}"),
            RefereeError::House(e) => e.fmt(f),
            RefereeError::HouseStart { game, message } => {
                write!(f, "house rules cannot start game {}: {message}", game + 1)
            }
        }
    }
}

impl std::error::Error for RefereeError {}

impl From<RulesError> for RefereeError {
    fn from(e: RulesError) -> Self {
        RefereeError::Rules(e)
    }
}

/// Which player sits at `seat` in game `game` of a match of `players`.
pub fn player_at(game: u64, seat: Seat, players: usize) -> usize {
    (seat + (game % players as u64) as usize) % players
}

/// Which deal game `game` plays: each deal is played once per seat rotation.
pub fn deal_number(game: u64, players: usize) -> u64 {
    game / players as u64
}

/// Plays a whole match; `on_game` gets each game's report as soon as it is over (a match may be
/// long, so reports are not kept here) and may stop the match there (`ControlFlow::Break`: the
/// caller can no longer use the reports, e.g. its reader is gone). Returns the number of games
/// played.
pub fn play_match(
    config: &MatchConfig,
    players: &mut [Box<dyn Player>],
    mut record: Option<&mut Writer<Box<dyn Write>>>,
    mut on_game: impl FnMut(GameReport) -> ControlFlow<()>,
) -> Result<u64, RefereeError> {
    let seats = players.len();
    config.rules.check_players(seats)?;
    let mut game = config.variant.new_game(config.rules.clone(), seats)?;
    // One generator for the deals, moved to each game's stream (no new key per game).
    let mut deal_rng = GameRng::new(config.seed, Stream::Deal(0));
    let result = (|| {
        for number in 0..config.games {
            if number > 0 {
                game.restart();
            }
            let seating: Vec<usize> = (0..seats).map(|s| player_at(number, s, seats)).collect();
            let mut table: Vec<&mut dyn Player> = Vec::with_capacity(seats);
            // Hand out the players in seat order without aliasing them.
            let mut by_index: Vec<Option<&mut Box<dyn Player>>> =
                players.iter_mut().map(Some).collect();
            for &p in &seating {
                table.push(by_index[p].take().expect("a player sits once").as_mut());
            }
            // Each player gets ready (a bot not running is started and greets) before the
            // header is written, which names the bots by their hellos; a failure is the game's
            // fault, recorded after the header.
            let readiness: Vec<Answer<()>> = table.iter_mut().map(|p| p.ready()).collect();
            if let Some(record) = record.as_deref_mut() {
                let header = Header {
                    format: record.format(),
                    game: number,
                    variant: config.variant,
                    seed: Some(config.seed),
                    players: table.iter().map(|p| p.name().to_string()).collect(),
                    hello_names: hello_names(&table),
                    rules: config.rules.at_table(seats),
                    house: config.house.as_ref().map(|h| h.script.clone()),
                    given_deals: config.deals.len().try_into().unwrap_or(u32::MAX),
                    // A house script's deck is checked against the script.
                    given_deck: config.house.is_none()
                        && config.rules.deck != config.variant.rules().deck,
                    tournament: config.tournament.clone(),
                    // Left out when no seat has a clock: a record without one stays as it was.
                    clocks: if config.clocks.iter().any(Option::is_some) {
                        seating.iter().map(|&p| config.clocks[p]).collect()
                    } else {
                        Vec::new()
                    },
                };
                record
                    .write(&Line::Game(Box::new(header)))
                    .map_err(RefereeError::Record)?;
            }
            if let Some(house) = &config.house {
                let hooks = house.hooks.new_game().map_err(|message| {
                    stopped(
                        record.as_deref_mut(),
                        RefereeError::HouseStart {
                            game: number,
                            message,
                        },
                    )
                })?;
                game.set_house(hooks);
            }
            deal_rng.restart(Stream::Deal(deal_number(number, seats)));
            let mut dealer = Dealer {
                rng: &mut deal_rng,
                scripted: &config.deals,
            };
            let mut referee = Referee {
                game: &mut game,
                players: table,
                disconnected: vec![false; seats],
                observers: vec![false; seats],
                faults: Vec::new(),
                record: record.as_deref_mut(),
                timeout: config.timeout,
                clocks: seating
                    .iter()
                    .map(|&p| {
                        let clock = *config.clocks.get(p)?;
                        clock.map(RunningClock::new)
                    })
                    .collect(),
                seed: config.seed,
                step: StepEvents {
                    events: Vec::new(),
                    wanted: false,
                },
            };
            let outcome = referee
                .play(number, config.variant, readiness, &mut dealer)
                .map_err(|error| stopped(referee.record.as_deref_mut(), error))?;
            let report = GameReport {
                number,
                seating,
                outcome,
                faults: referee.faults,
            };
            if on_game(report).is_break() {
                return Ok(number + 1);
            }
        }
        Ok(config.games)
    })();
    for player in players.iter_mut() {
        player.finish();
    }
    result
}

/// The name each seat's player gave itself (a bot's `hello`), none where it gave none; empty
/// when no seat has one, so that a record of built-in bots leaves the key out.
fn hello_names(table: &[&mut dyn Player]) -> Vec<Option<String>> {
    let names: Vec<Option<String>> = table
        .iter()
        .map(|p| p.own_name().map(str::to_string))
        .collect();
    if names.iter().all(Option::is_none) {
        return Vec::new();
    }
    names
}

/// Ends a stopped game's record with a `stopped` line saying why (unless writing the record is
/// what failed), so the record says why it ends there; gives back `error`, the cause.
fn stopped(record: Option<&mut Writer<Box<dyn Write>>>, error: RefereeError) -> RefereeError {
    if let Some(record) = record
        && !matches!(error, RefereeError::Record(_))
    {
        let reason = error.to_string();
        // The cause matters more than a record that cannot take one more line.
        let _ = record.write(&Line::Stopped(StopLine { reason }));
    }
    error
}

/// Deals each round: the scripted deal for it if there is one, else from the seeded stream.
struct Dealer<'a> {
    rng: &'a mut GameRng,
    scripted: &'a [Deal],
}

struct Referee<'a, 'r> {
    game: &'a mut AnyGame,
    players: Vec<&'a mut dyn Player>,
    disconnected: Vec<bool>,
    /// The seats whose players follow the game's events (and are still connected), asked once
    /// a game rather than at every event.
    observers: Vec<bool>,
    faults: Vec<FaultLine>,
    record: Option<&'r mut Writer<Box<dyn Write>>>,
    timeout: Duration,
    /// Each seat's clock in this game, if it has one.
    clocks: Vec<Option<RunningClock>>,
    /// The match's seed (each bot's `seed=` comes from it).
    seed: u64,
    step: StepEvents,
}

/// The time for a clocked seat's next decision: what is left, and the margin; the bot is told
/// what is left.
fn clock_limit(clock: &RunningClock) -> Limit {
    Limit {
        time: Duration::from_micros(clock.left_us) + Duration::from_millis(clock.clock.margin_ms),
        clock: Some(clock.reading()),
    }
}

/// [`Referee::answered`]'s writing: `action`, the answer at `(round, turn)`, onto a compact
/// `record`.
#[inline(never)]
fn write_action(
    record: &mut Writer<Box<dyn Write>>,
    (round, turn): (u32, u32),
    action: Action,
) -> Result<(), RefereeError> {
    record
        .action(round, turn, action)
        .map_err(RefereeError::Record)
}

/// The events of the last step, collected only when someone wants them (a record, or a player
/// that follows the game), so a match of built-ins builds none.
struct StepEvents {
    events: Vec<Event>,
    wanted: bool,
}

impl EventSink for StepEvents {
    fn enabled(&self) -> bool {
        self.wanted
    }
    fn push(&mut self, event: Event) {
        self.events.push(event);
    }
}

impl Referee<'_, '_> {
    /// Plays game `number`; `readiness` is each seat's [`Player::ready`]: a seat that is not
    /// ready is not started, its failure is its fault.
    fn play(
        &mut self,
        number: u64,
        variant: Variant,
        readiness: Vec<Answer<()>>,
        dealer: &mut Dealer,
    ) -> Result<Outcome, RefereeError> {
        let seats = self.players.len();
        for (seat, ready) in readiness.into_iter().enumerate() {
            let start = GameStart {
                number,
                variant,
                rules: self.game.rules(),
                seats,
                seat,
                // A clocked seat's first decision may take its whole clock.
                time_ms: match &self.clocks[seat] {
                    Some(clock) => clock.clock.base_ms,
                    None => self.timeout.as_millis() as u64,
                },
                seed: crate::players::bot_seed(self.seed, number, seat),
            };
            if let Err(fault) = ready.and_then(|()| self.players[seat].start_game(&start)) {
                self.fault(seat, *fault)?;
            }
        }
        for seat in 0..seats {
            self.observers[seat] = !self.disconnected[seat] && self.players[seat].wants_events();
        }
        self.step.wanted = self.record.as_ref().is_some_and(|r| r.wants_events())
            || self.observers.contains(&true);
        let mut round = 0;
        loop {
            match self.game.to_move() {
                ToMove::Deal => {
                    round += 1;
                    let sink = &mut self.step;
                    let scripted = dealer.scripted.get(round - 1);
                    match scripted {
                        Some(deal) => self.game.deal(deal, sink),
                        None => self.game.deal_random(dealer.rng, sink),
                    }
                    .map_err(|error| RefereeError::Deal {
                        round: round as u32,
                        error,
                    })?;
                    // A compact record holds a given deal; the seed's it leaves to verify.
                    if let (Some(deal), Some(record)) = (scripted, self.record.as_deref_mut()) {
                        record
                            .dealt(round as u32, deal)
                            .map_err(RefereeError::Record)?;
                    }
                }
                ToMove::Everyone(_) => {
                    for seat in 0..seats {
                        self.decide(seat)?;
                        if !self.step.events.is_empty() {
                            self.publish()?;
                        }
                    }
                }
                ToMove::Seat(seat, _) => self.decide(seat)?,
                ToMove::GameOver => break,
            }
            if !self.step.events.is_empty() {
                self.publish()?;
            }
        }
        let outcome = self.game.outcome().expect("the game is over");
        if let Some(record) = self.record.as_deref_mut() {
            record.game_over(&outcome).map_err(RefereeError::Record)?;
        }
        for player in &mut self.players {
            player.end_game(&outcome);
        }
        Ok(outcome)
    }

    /// Asks `seat` for its decision, if it owes one, and applies it; a failed or illegal answer
    /// is recorded as a fault and the fallback is played instead.
    fn decide(&mut self, seat: Seat) -> Result<(), RefereeError> {
        let game = &*self.game;
        // The view says what the seat owes: asking the game separately would work it out twice.
        let view = game.view(seat);
        if view.decision.is_none() {
            return Ok(());
        }
        // Where a compact record puts the answer.
        let at = (view.round, view.turn);
        if !self.disconnected[seat] {
            let player = &mut *self.players[seat];
            // A built-in's answer goes straight to the game, on a path of its own: the clocks
            // are read only for the others (a built-in is never timed), and its action is not
            // merged with theirs, which took it through the stack three times on its way to the
            // game (docs/performance.md, "The in-process engine, measured").
            let fault = match player.as_builtin() {
                Some(builtin) => {
                    let action = builtin.choose(&view);
                    self.try_action(seat, at, action)?
                }
                None => {
                    let clock = self.clocks[seat];
                    let limit =
                        clock.map_or(Limit::per_decision(self.timeout), |c| clock_limit(&c));
                    let asked = clock.map(|_| Instant::now());
                    let answer = player.decide(&view, &|action| game.check(seat, action), limit);
                    let answer = match asked {
                        Some(asked) => self.timed(seat, at, asked.elapsed(), answer)?,
                        None => answer,
                    };
                    match answer {
                        Ok(action) => self.try_action(seat, at, action)?,
                        Err(fault) => Some(fault),
                    }
                }
            };
            match fault {
                Some(fault) => self.fault(seat, *fault)?,
                None => return Ok(()),
            }
        }
        let action = fallback(&self.game.view(seat));
        match self.game.apply(seat, action, &mut self.step) {
            Ok(()) => self.answered(at, action),
            Err(RuleError::House(error)) => Err(RefereeError::House(*error)),
            Err(error) => unreachable!("the fallback move is always legal: {error}"),
        }
    }

    /// Applies `seat`'s `action`, its answer at `at`: `None` once it is applied and recorded,
    /// else the seat's fault (an illegal action). Always inlined, so that each of
    /// [`Referee::decide`]'s paths hands its action to the game without a copy.
    #[inline(always)]
    fn try_action(
        &mut self,
        seat: Seat,
        at: (u32, u32),
        action: Action,
    ) -> Result<Option<Box<Fault>>, RefereeError> {
        match self.game.apply(seat, action, &mut self.step) {
            Ok(()) => self.answered(at, action).map(|()| None),
            Err(RuleError::House(error)) => Err(RefereeError::House(*error)),
            Err(error) => Ok(Some(Fault::new(
                FaultKind::Illegal,
                format!("{}: {error}", error.kind()),
                false,
            ))),
        }
    }

    /// Runs `seat`'s clock for a decision that took `took` at `(round, turn)`, and records it:
    /// an answer past the time left and the margin is a loss on time (the seat's fault, the
    /// fallback plays for it to the end of the game), else the time left goes down by `took`
    /// and up by the increment.
    fn timed(
        &mut self,
        seat: Seat,
        (round, turn): (u32, u32),
        took: Duration,
        answer: Answer<Action>,
    ) -> Result<Answer<Action>, RefereeError> {
        let clock = self.clocks[seat]
            .as_mut()
            .expect("a timed seat has a clock");
        let took_us = took.as_micros().min(u128::from(u64::MAX)) as u64;
        let left_us = clock.left_us;
        let over = clock.take(took_us);
        // A bot that timed out ran past its limit (the time left and the margin) as the pipe
        // measured it, from a moment after `took` began: over in any case, and said so.
        let timed_out = matches!(&answer, Err(fault) if fault.kind == FaultKind::Timeout);
        let lost = over || timed_out;
        if lost {
            clock.left_us = 0;
            clock.lost = true;
        }
        let spec = clock.clock;
        if let Some(record) = self.record.as_deref_mut() {
            let line = ClockLine {
                seat,
                round,
                turn,
                left_us,
                took_us,
            };
            record
                .write(&Line::Clock(line))
                .map_err(RefereeError::Record)?;
        }
        if !lost {
            return Ok(answer);
        }
        let mut detail = format!(
            "lost on time: its clock ({} ms + {} ms a decision, margin {} ms) had {} ms left \
             and it {} after {} ms",
            spec.base_ms,
            spec.increment_ms,
            spec.margin_ms,
            left_us / 1000,
            if timed_out {
                "had not answered"
            } else {
                "answered"
            },
            took_us / 1000
        );
        if let Err(fault) = &answer {
            detail = format!("{detail}: {}", fault.detail);
        }
        Ok(Err(Fault::new(FaultKind::Clock, detail, true)))
    }

    /// Writes the answer just applied to a compact record, at the `(round, turn)` its seat saw.
    /// Inlined, the writing kept out of line but for its common case (a card on the turn line
    /// already open): a game without a record (the engine's) pays a test at each decision,
    /// where the call cost twenty instructions, and a compact record the call once a turn.
    #[inline(always)]
    fn answered(&mut self, at: (u32, u32), action: Action) -> Result<(), RefereeError> {
        let Some(record) = self.record.as_deref_mut() else {
            return Ok(());
        };
        if record.card_on_open_turn(at.0, at.1, action) {
            return Ok(());
        }
        write_action(record, at, action)
    }

    fn fault(&mut self, seat: Seat, fault: Fault) -> Result<(), RefereeError> {
        let view = self.game.view(seat);
        let line = FaultLine {
            seat,
            kind: fault.kind,
            detail: fault.detail,
            round: view.round,
            turn: view.turn,
        };
        if fault.disconnected {
            self.disconnected[seat] = true;
            self.observers[seat] = false;
        }
        if let Some(record) = self.record.as_deref_mut() {
            record
                .write(&Line::Fault(line.clone()))
                .map_err(RefereeError::Record)?;
        }
        self.faults.push(line);
        Ok(())
    }

    /// Sends the last step's events to the record and to the players who follow the game.
    fn publish(&mut self) -> Result<(), RefereeError> {
        let events = std::mem::take(&mut self.step.events);
        for event in &events {
            // A fault while the players see the game's end is recorded before its `game_end`
            // line, the game's last (docs/records.md).
            let last = matches!(event, Event::GameEnd { .. });
            if !last && let Some(record) = self.record.as_deref_mut() {
                record.event(event).map_err(RefereeError::Record)?;
            }
            for seat in 0..self.players.len() {
                if !self.observers[seat] {
                    continue;
                }
                if let Err(fault) = self.players[seat].observe(seat, event) {
                    self.fault(seat, *fault)?;
                }
            }
            if last && let Some(record) = self.record.as_deref_mut() {
                record.event(event).map_err(RefereeError::Record)?;
            }
        }
        self.step.events = events;
        self.step.events.clear();
        Ok(())
    }
}
