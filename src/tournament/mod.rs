//! Tournaments (docs/tournaments.md): a pool of bots, a schedule of games, results that survive
//! a killed run, games played on several threads, and statistics over the results.
//!
//! A tournament is a list of *tables* (which bots sit together), each playing the same `deals`,
//! each deal once per rotation of the seats, or per permutation (duplicate deals, so the luck of
//! the deal cancels out). Game `id` is `(table * deals + deal) * arrangements + rotation`. Every
//! game is played as the one game of a match seeded from the tournament's seed and the deal
//! only (built-in bots are made for it; command bots get their `seed=` from that seed), so a
//! game's result does not depend on which thread plays it, nor on what was played before. The
//! schedule is worked out game by game ([`Tournament::game`]), never made whole. Each job keeps
//! one process per command bot, restarted after a failure, for game after game.

pub mod book;
pub mod config;
pub mod gauntlet;
pub mod paired;
pub mod ratings;
pub mod records;
pub mod replay;
pub mod results;
pub mod sprt;
pub mod stats;
pub mod stream;
pub mod timing;

use crate::game::Outcome;
use crate::house::House;
use crate::players::builtin::Builtin;
use crate::players::pipe::{IoLog, PipePlayer, StartupLimit};
use crate::players::process::BotCommand;
use crate::players::{Answer, Fault, Legality, Limit, Player, PlayerSpec};
use crate::record::{FaultLine, TournamentGame, Writer};
use crate::referee::{MatchConfig, MatchHouse, RefereeError, play_match, player_at};
use crate::rng::{GameRng, Stream};
use crate::seat::{FaultKind, GameStart, TimeLimits};
use config::{Seatings, Tournament};
use results::GameResult;
use std::cell::RefCell;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    pub id: u64,
    pub table: u64,
    pub deal: u64,
    pub rotation: u64,
    /// The pool index of the bot at each seat.
    pub seating: Vec<usize>,
}

impl Tournament {
    /// The number of games in the whole schedule ([`config`] checked that it fits).
    pub fn games(&self) -> u64 {
        (self.tables.len() as u64)
            .checked_mul(self.deals)
            .and_then(|n| n.checked_mul(self.arrangements()))
            .expect("the configuration's checks keep the number of games in 64 bits")
    }

    /// The seed of deal `deal`: the book's, or the tournament seed's ([`deal_seed`]).
    pub fn game_seed(&self, deal: u64) -> u64 {
        match &self.book {
            Some(book) => book.seeds[deal as usize],
            None => deal_seed(self.seed, deal),
        }
    }

    /// The seatings each deal is played in: `seats` rotations, or `seats!` permutations.
    pub fn arrangements(&self) -> u64 {
        match self.seatings {
            Seatings::Rotations => self.seats as u64,
            Seatings::Permutations => (1..=self.seats as u64).product(),
        }
    }

    /// Game `id` of the schedule: its table, deal, rotation and seating. The seating of rotation
    /// `r` is the referee's ([`player_at`]): seat `s` holds the table's bot `(s + r) % seats`.
    /// With permutations, `rotation` is the number of the permutation of the table's bots in
    /// lexicographic order (0 the table's own order).
    pub fn game(&self, id: u64) -> Scheduled {
        let arrangements = self.arrangements();
        let rotation = id % arrangements;
        let deal = (id / arrangements) % self.deals;
        let table = id / arrangements / self.deals;
        let bots = &self.tables[table as usize];
        let seating = match self.seatings {
            Seatings::Rotations => (0..self.seats)
                .map(|seat| bots[player_at(rotation, seat, self.seats)])
                .collect(),
            Seatings::Permutations => permutation(bots, rotation),
        };
        Scheduled {
            id,
            table,
            deal,
            rotation,
            seating,
        }
    }
}

/// Permutation number `n` (from 0, lexicographic order of positions) of `items`.
fn permutation(items: &[usize], mut n: u64) -> Vec<usize> {
    let mut left = items.to_vec();
    let mut out = Vec::with_capacity(items.len());
    while !left.is_empty() {
        let block: u64 = (1..left.len() as u64).product();
        out.push(left.remove((n / block) as usize));
        n %= block;
    }
    out
}

/// Whether game `id` is in shard `K/N` (`None`: the whole tournament): its id is K-1 modulo N.
pub fn in_shard(id: u64, shard: Option<(u64, u64)>) -> bool {
    shard.is_none_or(|(k, n)| id % n == k - 1)
}

/// The seed of deal `deal`: the first 64 bits of stream `Deal(deal)` of the tournament's seed.
/// Every table plays the same deals; within a game, the referee deals from stream `Deal(0)` of
/// this seed and the built-in bots draw from its bot streams.
pub fn deal_seed(seed: u64, deal: u64) -> u64 {
    let mut rng = GameRng::new(seed, Stream::Deal(deal));
    (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32())
}

/// Failed starts in a row (the program cannot be started, or fails its handshake) after which a
/// bot is taken out of the tournament: its seat in later games is played by the fallback, each
/// such game recording a `crash` fault that says so.
pub const FAILED_STARTS: u32 = 3;

/// How the start-up limit of a tournament's bot is set, as a fault names it.
const STARTUP_SETTING: &str = "--startup-timeout or startup_timeout_ms";

/// How the fault of a taken-out bot begins: in the game of its last failed start (then that
/// failure follows), and in each later game (all of it).
fn taken_out() -> String {
    format!("taken out of the tournament after {FAILED_STARTS} failed starts in a row")
}

/// Whether `fault` says that its seat's bot was taken out of the tournament.
pub fn is_taken_out(fault: &FaultLine) -> bool {
    fault.detail.starts_with(&taken_out())
}

/// The bots taken out of a tournament (after [`FAILED_STARTS`] failed starts in a row), found
/// in its results, in the order of the games given.
#[derive(Debug, Default, serde::Serialize)]
pub struct Dropouts(Vec<Dropout>);

/// A bot taken out of a tournament.
#[derive(Debug, serde::Serialize)]
pub struct Dropout {
    /// Its pool name.
    pub bot: String,
    /// The games whose result includes the fallback's moves for it since it was taken out (the
    /// game of its last failed start included).
    pub games: u64,
    /// The first of those games (by id).
    pub first_game: u64,
}

impl Dropout {
    /// The dropout as the reports say it (the text's line after its table, the HTML report's
    /// warning): since when, and that the bot's figures include the fallback's games.
    pub fn sentence(&self) -> String {
        format!(
            "dropout: {} was taken out after {FAILED_STARTS} failed starts in a row, in game {}: the fallback played its seat in {}, which its figures include",
            self.bot,
            self.first_game,
            crate::words::count(self.games, "game"),
        )
    }
}

impl Dropouts {
    /// Counts the taken-out faults of `result`.
    pub fn add(&mut self, result: &GameResult) {
        for fault in result.faults.iter().filter(|f| is_taken_out(f)) {
            let name = &result.seating[fault.seat];
            match self.0.iter_mut().find(|d| &d.bot == name) {
                Some(dropout) => {
                    dropout.games += 1;
                    dropout.first_game = dropout.first_game.min(result.game);
                }
                None => self.0.push(Dropout {
                    bot: name.clone(),
                    games: 1,
                    first_game: result.game,
                }),
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn list(&self) -> &[Dropout] {
        &self.0
    }
}

/// The games still to play: those of the shard (ids `first`, `first + step`, ... below `end`)
/// not in the results file yet, handed out one at a time to the jobs. Nothing is allocated
/// per game of the schedule, only per game already done.
pub struct Todo {
    next: AtomicU64,
    first: u64,
    step: u64,
    end: u64,
    /// The ids already played, sorted.
    done: Vec<u64>,
}

impl Todo {
    /// The games of `total` in shard `K/N` (all without one) but those in `done`.
    pub fn new(total: u64, shard: Option<(u64, u64)>, mut done: Vec<u64>) -> Todo {
        let (first, step) = shard.map_or((0, 1), |(k, n)| (k - 1, n));
        done.sort_unstable();
        done.dedup();
        Todo {
            next: AtomicU64::new(0),
            first,
            step: step.max(1),
            end: total,
            done,
        }
    }

    /// The games of the shard, played or not.
    pub fn in_shard(&self) -> u64 {
        if self.first >= self.end {
            return 0;
        }
        (self.end - self.first).div_ceil(self.step)
    }

    /// The games left to play.
    pub fn left(&self) -> u64 {
        self.in_shard() - self.done.len() as u64
    }

    /// The next game to play, if any.
    fn next(&self) -> Option<u64> {
        loop {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            let id = k
                .checked_mul(self.step)
                .and_then(|i| i.checked_add(self.first))
                .filter(|&id| id < self.end)?;
            if self.done.binary_search(&id).is_err() {
                return Some(id);
            }
        }
    }
}

/// How a run plays its games, besides the tournament.
pub struct Run<'a> {
    /// Games played at once, each job on its own thread with its own bot processes.
    pub jobs: usize,
    /// With `--log-io`: each job's command bots write their lines to `LOG_IO/job-J/NAME.log`
    /// and their stderr to `LOG_IO/job-J/NAME.stderr` (J from 1), each game's lines after a
    /// `# game ID` line.
    pub log_io: Option<&'a Path>,
    /// With `--record FILE`: each game's record is made (and handed over with its result);
    /// house scripts are named relative to FILE.
    pub record: Option<&'a Path>,
    /// The format of those records ([`crate::record::FORMAT`] or
    /// [`crate::record::FORMAT_COMPACT`]).
    pub record_format: u32,
    /// Set (by Ctrl-C): the jobs start no new game.
    pub stop: &'a AtomicBool,
}

/// The folder of job `job`'s logs with `--log-io DIR`.
fn job_log_dir(dir: &Path, job: usize) -> PathBuf {
    dir.join(format!("job-{job}"))
}

/// Where job `job`'s logs of bot `name` go with `--log-io DIR`: its lines, its stderr.
fn log_paths(dir: &Path, job: usize, name: &str) -> (PathBuf, PathBuf) {
    let dir = job_log_dir(dir, job);
    (
        dir.join(format!("{name}.log")),
        dir.join(format!("{name}.stderr")),
    )
}

/// Refuses the `--log-io DIR` logs a run of `jobs` jobs would write that exist already (unless
/// it `resume`s a run, whose logs it continues) or are symbolic links (a job's folder too):
/// logs are neither overwritten nor written through a link.
pub fn check_logs(
    tournament: &Tournament,
    dir: &Path,
    jobs: usize,
    resume: bool,
) -> Result<(), String> {
    for job in 1..=jobs {
        let folder = job_log_dir(dir, job);
        if std::fs::symlink_metadata(&folder).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "{} is a symbolic link: take5 does not follow links for its logs",
                folder.display()
            ));
        }
        for bot in &tournament.pool {
            if let PlayerSpec::Command(_) = bot.player {
                let (log, stderr) = log_paths(dir, job, &bot.name);
                crate::players::process::logs::refuse(&log, resume)?;
                crate::players::process::logs::refuse(&stderr, resume)?;
            }
        }
    }
    Ok(())
}

/// A game played: its result and, with [`Run::record`], its record (JSON Lines).
pub struct Finished {
    pub result: GameResult,
    pub record: Option<Vec<u8>>,
}

/// A command bot of the pool as one job keeps it: one process (restarted after a failure) for
/// game after game.
struct KeptBot {
    /// How its process is started, and where its `--log-io` log goes (times from the job's
    /// start).
    command: BotCommand,
    log: Option<(PathBuf, Instant)>,
    player: Option<PipePlayer>,
    /// Why the last start failed.
    last_failure: String,
    /// Set when the bot has just been taken out (for the job to say so once).
    taken_out_now: bool,
    /// Its decision times in the game under way.
    times: timing::SeatTimes,
}

/// What the jobs share of a command bot: its failed starts in a row (in any job; a good start
/// in any job ends the row) and whether it is taken out.
#[derive(Default)]
struct BotState {
    failed_starts: AtomicU32,
    out: AtomicBool,
}

/// A kept bot at one game's table: everything goes to the bot's process, but `finish`, which
/// does nothing (the job ends the process when it has no more games).
struct Kept {
    /// The tournament's id of the game (its `--log-io` log marks where each game starts).
    game: u64,
    spec: String,
    /// Its time per decision and for each start; whether it plays on a clock (the referee's
    /// limit then) rather than with a time per decision.
    limits: TimeLimits,
    slot: Rc<RefCell<KeptBot>>,
    /// Its starts and whether it is out, shared by the jobs.
    state: Arc<BotState>,
    /// The name the bot gave in its hello, once it has (kept here, out of the slot's cell).
    hello: Option<String>,
}

impl Kept {
    /// Starts the bot's process if it has none.
    fn process(&self, slot: &mut KeptBot) -> Result<(), String> {
        if slot.player.is_some() {
            return Ok(());
        }
        let log = match &slot.log {
            Some((path, start)) => Some(
                IoLog::append(path, *start)
                    .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
            ),
            None => None,
        };
        slot.player = Some(PipePlayer::with_command(
            &self.spec,
            slot.command.clone(),
            StartupLimit {
                time: self.limits.startup,
                setting: STARTUP_SETTING,
            },
            log,
        )?);
        Ok(())
    }
}

impl Player for Kept {
    fn name(&self) -> &str {
        &self.spec
    }
    fn own_name(&self) -> Option<&str> {
        self.hello.as_deref()
    }
    /// Starts the bot (if it is not running) and shakes hands: a failure counts as a failed
    /// start.
    fn ready(&mut self) -> Answer<()> {
        let mut slot = self.slot.borrow_mut();
        slot.times = timing::SeatTimes::default();
        if self.state.out.load(Ordering::Relaxed) {
            return Err(Fault::new(FaultKind::Crash, taken_out(), true));
        }
        let started = self
            .process(&mut slot)
            .map_err(|why| Fault::new(FaultKind::Crash, why, true))
            .and_then(|()| {
                let player = slot.player.as_mut().expect("started");
                player.note(&format!("game {}", self.game));
                player.ready()
            });
        self.hello = slot
            .player
            .as_ref()
            .and_then(|p| p.bot_name())
            .map(str::to_string);
        match started {
            Ok(()) => {
                self.state.failed_starts.store(0, Ordering::Relaxed);
                Ok(())
            }
            Err(mut fault) => {
                let failed = self.state.failed_starts.fetch_add(1, Ordering::Relaxed) + 1;
                slot.last_failure = fault.to_string();
                if failed >= FAILED_STARTS && !self.state.out.swap(true, Ordering::Relaxed) {
                    slot.taken_out_now = true;
                    // The results say so from this game on (see `is_taken_out`).
                    fault.detail = format!("{}; this start: {}", taken_out(), fault.detail);
                }
                Err(fault)
            }
        }
    }
    fn start_game(&mut self, start: &GameStart) -> Answer<()> {
        let start = GameStart {
            time_ms: match self.limits.clock {
                Some(_) => start.time_ms,
                None => self.limits.decision.as_millis() as u64,
            },
            ..*start
        };
        match &mut self.slot.borrow_mut().player {
            Some(player) => player.start_game(&start),
            None => Err(Fault::new(FaultKind::Crash, "not running", true)),
        }
    }
    fn wants_events(&self) -> bool {
        self.slot
            .borrow()
            .player
            .as_ref()
            .is_some_and(|p| p.wants_events())
    }
    fn observe(&mut self, seat: usize, event: &crate::game::Event) -> Answer<()> {
        match &mut self.slot.borrow_mut().player {
            Some(player) => player.observe(seat, event),
            None => Ok(()),
        }
    }
    fn decide(
        &mut self,
        view: &crate::game::View,
        legal: Legality,
        limit: Limit,
    ) -> Answer<crate::game::Action> {
        // A clocked bot has the referee's limit (its clock's); any other its own per decision.
        let limit = match limit.clock {
            Some(_) => limit,
            None => Limit::per_decision(self.limits.decision),
        };
        let slot = &mut *self.slot.borrow_mut();
        match &mut slot.player {
            Some(player) => {
                let asked = Instant::now();
                let answer = player.decide(view, legal, limit);
                slot.times.add(asked.elapsed());
                if let Some(clock) = limit.clock {
                    slot.times.left(clock.left_ms);
                }
                answer
            }
            None => Err(Fault::new(FaultKind::Crash, "not running", true)),
        }
    }
    fn end_game(&mut self, outcome: &Outcome) {
        if let Some(player) = &mut self.slot.borrow_mut().player {
            player.end_game(outcome);
        }
    }
    fn finish(&mut self) {
        // The process lives on for the job's next game.
    }
}

/// A buffer a game's record is written to, shared with the job that hands it over.
#[derive(Clone, Default)]
struct RecordBuffer(Rc<RefCell<Vec<u8>>>);

impl std::io::Write for RecordBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What one job needs to play games: the house rules are loaded per job, since their hooks hold
/// Lua state that must not cross threads, and the command bots' processes, kept from game to
/// game.
struct Table<'a> {
    tournament: &'a Tournament,
    run: &'a Run<'a>,
    house: Option<MatchHouse>,
    /// Per pool index, the bot's process in this job, once started.
    kept: Vec<Rc<RefCell<KeptBot>>>,
    states: &'a [Arc<BotState>],
}

impl<'a> Table<'a> {
    fn new(
        tournament: &'a Tournament,
        run: &'a Run<'a>,
        states: &'a [Arc<BotState>],
        job: usize,
    ) -> Result<Table<'a>, String> {
        let house = match &tournament.game.house {
            Some(path) => {
                let house = House::load_with(path, tournament.game.variant.rules())
                    .map_err(|e| e.to_string())?;
                let named = match run.record {
                    Some(record) => crate::house::path_for_record(path, record),
                    None => house.script().to_string(),
                };
                Some(MatchHouse {
                    script: house.for_record(named),
                    hooks: Rc::new(house),
                })
            }
            None => None,
        };
        if let Some(dir) = run.log_io {
            let dir = job_log_dir(dir, job);
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let mut kept = Vec::with_capacity(tournament.pool.len());
        let start = Instant::now();
        for bot in &tournament.pool {
            // Built-in bots keep nothing; their command stays empty.
            let mut command = match &bot.player {
                PlayerSpec::Command(spec) => BotCommand::parse(spec)?,
                PlayerSpec::Builtin(_) | PlayerSpec::Mcs(_) => {
                    BotCommand::new("", Vec::<String>::new())
                }
            };
            command.dir.clone_from(&bot.dir);
            command.sandbox.clone_from(&bot.sandbox);
            let log = run.log_io.map(|dir| {
                let (log, stderr) = log_paths(dir, job, &bot.name);
                command.stderr_file = Some(stderr);
                (log, start)
            });
            kept.push(Rc::new(RefCell::new(KeptBot {
                command,
                log,
                player: None,
                last_failure: String::new(),
                taken_out_now: false,
                times: timing::SeatTimes::default(),
            })));
        }
        Ok(Table {
            tournament,
            run,
            house,
            kept,
            states,
        })
    }

    /// Plays game `id`: built-in bots are made for it, command bots are the job's kept
    /// processes. `notice` is told when a bot is taken out.
    fn play(&self, id: u64, notice: &(dyn Fn(&str) + Sync)) -> Result<Finished, String> {
        let t = self.tournament;
        let game = t.game(id);
        let seed = t.game_seed(game.deal);
        let mut players: Vec<Box<dyn Player>> = Vec::with_capacity(t.seats);
        for &b in &game.seating {
            let bot = &t.pool[b];
            let player: Box<dyn Player> = match &bot.player {
                PlayerSpec::Builtin(strategy) => Box::new(Builtin::new(*strategy, seed)),
                PlayerSpec::Mcs(options) => {
                    Box::new(crate::players::search::McsPlayer::new(*options, seed))
                }
                PlayerSpec::Command(spec) => Box::new(Kept {
                    game: id,
                    spec: spec.clone(),
                    limits: bot.limits,
                    slot: self.kept[b].clone(),
                    state: self.states[b].clone(),
                    hello: None,
                }),
            };
            players.push(player);
        }
        let config = MatchConfig {
            variant: t.game.variant,
            rules: t.game.rules.clone(),
            seed,
            games: 1,
            deals: Vec::new(),
            timeout: Duration::from_secs(1),
            clocks: game
                .seating
                .iter()
                .map(|&b| t.pool[b].limits.clock)
                .collect(),
            house: self.house.clone(),
            tournament: Some(TournamentGame {
                game: id,
                bots: game
                    .seating
                    .iter()
                    .map(|&b| t.pool[b].name.clone())
                    .collect(),
            }),
        };
        let buffer = self.run.record.map(|_| RecordBuffer::default());
        let mut writer = buffer.as_ref().map(|buffer| {
            Writer::new(Box::new(buffer.clone()) as Box<dyn std::io::Write>)
                .with_format(self.run.record_format)
        });
        let mut report = None;
        play_match(&config, &mut players, writer.as_mut(), |r| {
            report = Some(r);
            ControlFlow::Continue(())
        })
        .map_err(|e: RefereeError| format!("game {id}: {e}"))?;
        drop(players);
        let timed = game
            .seating
            .iter()
            .any(|&b| matches!(t.pool[b].player, PlayerSpec::Command(_)));
        let times = timed.then(|| {
            game.seating
                .iter()
                .map(|&b| match t.pool[b].player {
                    PlayerSpec::Command(_) => {
                        Some(std::mem::take(&mut self.kept[b].borrow_mut().times))
                    }
                    PlayerSpec::Builtin(_) | PlayerSpec::Mcs(_) => None,
                })
                .collect()
        });
        for (b, kept) in self.kept.iter().enumerate() {
            let mut kept = kept.borrow_mut();
            if std::mem::take(&mut kept.taken_out_now) {
                notice(&format!(
                    "bot {} taken out of the tournament after {FAILED_STARTS} failed starts in a row (the last: {}); the fallback plays its seat from now on",
                    t.pool[b].name, kept.last_failure
                ));
            }
        }
        let report = report.expect("one game was played");
        // play_match seats the players in the order given for its game 0.
        debug_assert_eq!(report.seating, (0..t.seats).collect::<Vec<_>>());
        drop(writer);
        let record = buffer.map(|buffer| buffer.0.take());
        Ok(Finished {
            result: GameResult::new(
                &game,
                seed,
                t.pool.iter().map(|b| b.name.as_str()),
                &report.outcome,
                report.faults,
                times,
            ),
            record,
        })
    }
}

impl Drop for Table<'_> {
    /// The job is over: its bots are told `bye` and stopped.
    fn drop(&mut self) {
        for kept in &self.kept {
            if let Some(mut player) = kept.borrow_mut().player.take() {
                player.finish();
            }
        }
    }
}

/// Plays the games of `todo` as `run` says, handing each to `done` as soon as it is over, on
/// the thread that played it (so results cross no channel and wake no other thread; `done`
/// serializes what must be). Stops at the first error, or when `run.stop` is set, after the
/// games under way. `notice` gets messages for the user (a bot taken out).
pub fn play(
    tournament: &Tournament,
    todo: &Todo,
    run: &Run,
    notice: impl Fn(&str) + Sync,
    done: impl Fn(Finished) -> Result<(), String> + Sync,
) -> Result<(), String> {
    let first_error: Mutex<Option<String>> = Mutex::new(None);
    let fail = |e: String| {
        first_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert(e);
    };
    let failed = || {
        first_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    };
    let states: Vec<Arc<BotState>> = tournament
        .pool
        .iter()
        .map(|_| Arc::new(BotState::default()))
        .collect();
    let jobs = run.jobs.max(1).min(todo.left().max(1) as usize);
    std::thread::scope(|scope| {
        for job in 1..=jobs {
            let (done, fail, failed, states, notice) = (&done, &fail, &failed, &states, &notice);
            scope.spawn(move || {
                let table = match Table::new(tournament, run, states, job) {
                    Ok(table) => table,
                    Err(e) => return fail(e),
                };
                loop {
                    if run.stop.load(Ordering::Relaxed) || failed() {
                        return;
                    }
                    let Some(id) = todo.next() else { return };
                    if let Err(e) = table.play(id, notice).and_then(done) {
                        return fail(e);
                    }
                }
            });
        }
    });
    first_error
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(todo: &Todo) -> Vec<u64> {
        std::iter::from_fn(|| todo.next()).collect()
    }

    #[test]
    fn the_games_to_play_skip_those_done_and_keep_to_their_shard() {
        let todo = Todo::new(10, None, vec![7, 2, 2]);
        assert_eq!((todo.in_shard(), todo.left()), (10, 8));
        assert_eq!(all(&todo), [0, 1, 3, 4, 5, 6, 8, 9]);
        let shard = Todo::new(10, Some((2, 4)), vec![5]);
        assert_eq!((shard.in_shard(), shard.left()), (3, 2));
        assert_eq!(all(&shard), [1, 9]);
        // A shard past the end, and ids near the top of 64 bits: no overflow, nothing made.
        assert_eq!(Todo::new(3, Some((5, 5)), Vec::new()).in_shard(), 0);
        let huge = Todo::new(u64::MAX, Some((1, 1 << 62)), Vec::new());
        assert_eq!(all(&huge), [0, 1 << 62, 2 << 62, 3 << 62]);
    }
}
