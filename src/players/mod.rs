//! Players: one interface, several kinds (built-in bots, bots over pipes; the person at the
//! terminal is [`crate::show::human`], as it draws the table).
//! A player lives for a whole match and is told when each game starts and ends.

pub mod builtin;
pub mod pipe;
pub mod process;
pub mod reaper;
pub mod sandbox;
pub mod search;
pub mod tree;
mod watchdog;

use crate::game::{Action, Event, Outcome, RuleError, Seat, View};
use crate::seat::{ClockReading, FaultKind, GameStart};
use std::fmt;
use std::time::Duration;

/// The seed a bot is given for game `game` of a match seeded with `match_seed`, at `seat`: the
/// first 64 bits of the stream a built-in bot at that seat draws from
/// ([`crate::rng::Stream::Bot`]). A game thus depends on nothing but the match's seed and its
/// number, even for bots that draw random numbers.
pub fn bot_seed(match_seed: u64, game: u64, seat: Seat) -> u64 {
    let mut rng = crate::rng::GameRng::new(match_seed, crate::rng::Stream::Bot { game, seat });
    (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32())
}

/// A player's failure, with what the user needs to find its cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
    /// The player can no longer be asked anything in this game (dead, hung or out of sync);
    /// the fallback plays its seat until the game ends.
    pub disconnected: bool,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.detail)
    }
}

/// What a player's methods return. The fault is boxed because it is rare: a small result keeps
/// the answer of an in-process bot in registers on the referee's hot path.
pub type Answer<T> = Result<T, Box<Fault>>;

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>, disconnected: bool) -> Box<Fault> {
        Box::new(Fault {
            kind,
            detail: detail.into(),
            disconnected,
        })
    }
}

/// The time a player has for one decision: the per-decision limit (`--timeout`), or in a
/// clocked game the seat's time left and the margin, with the clock to tell the player
/// (`time_left_ms=` on a bot's `ask`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub time: Duration,
    pub clock: Option<ClockReading>,
}

impl Limit {
    /// A limit per decision, without a clock.
    pub fn per_decision(time: Duration) -> Limit {
        Limit { time, clock: None }
    }
}

/// Checks an action against the rules without applying it.
pub type Legality<'a> = &'a dyn Fn(Action) -> Result<(), RuleError>;

/// Anything that can sit at the table.
pub trait Player {
    /// The name shown in summaries and records.
    fn name(&self) -> &str;

    /// The name the player gave itself (a bot's `hello`), once it has: what a person reading
    /// a match's summary knows it by. Built-in players have none but [`Player::name`].
    fn own_name(&self) -> Option<&str> {
        None
    }

    /// Gets ready to play: a pipe bot that is not running is started and shakes hands here,
    /// so a bot that cannot can be told apart from one that faults during a game. The referee
    /// asks before each game, before the game's record header, which names the bots by their
    /// hellos ([`Player::own_name`]); `take5 play` before its first game too. Built-in players
    /// are ready.
    fn ready(&mut self) -> Answer<()> {
        Ok(())
    }

    /// A new game starts, once the player is [ready](Player::ready) (a pipe bot not started
    /// by then is started here).
    fn start_game(&mut self, start: &GameStart) -> Answer<()>;

    /// Whether [`Player::observe`] wants events (so a match of built-ins builds none).
    fn wants_events(&self) -> bool {
        false
    }

    /// Something happened; `seat` is this player's seat, for hiding what it may not see.
    fn observe(&mut self, _seat: Seat, _event: &Event) -> Answer<()> {
        Ok(())
    }

    /// Decides what `view.decision` asks, within `limit` (a bot is told its clock, if it has
    /// one). `legal` lets a player that can retry (a bot told its error) check a candidate
    /// first.
    fn decide(&mut self, view: &View, legal: Legality, limit: Limit) -> Answer<Action>;

    /// This player as a built-in bot, if it is one: the referee then asks it directly, inlined,
    /// rather than through the trait object (an answer returned through a dynamic call goes
    /// through memory, and reading it back stalls: a tenth of an in-process game's time).
    fn as_builtin(&mut self) -> Option<&mut builtin::Builtin> {
        None
    }

    /// The game is over.
    fn end_game(&mut self, _outcome: &Outcome) {}

    /// The match is over: say goodbye and release everything (processes included).
    fn finish(&mut self) {}
}

/// A player as named on the command line: `builtin:<strategy>` or a bot's command line (not
/// `human`, which `take5 play` reads before it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Builtin(builtin::Strategy),
    /// `builtin:mcs[:option=value...]`: the search bot ([`search::McsPlayer`]).
    Mcs(search::McsOptions),
    Command(String),
}

impl PlayerSpec {
    pub fn parse(spec: &str) -> Result<PlayerSpec, String> {
        if let Some(name) = spec.strip_prefix("builtin:") {
            if let Some(options) = builtin::mcs_options(name) {
                return search::McsOptions::parse(options).map(PlayerSpec::Mcs);
            }
            return builtin::Strategy::from_name(name)
                .map(PlayerSpec::Builtin)
                .ok_or_else(|| {
                    let known: Vec<_> = builtin::Strategy::ALL.iter().map(|s| s.name()).collect();
                    format!(
                        "unknown built-in bot `{name}` (known: builtin:{}, builtin:mcs)",
                        known.join(", builtin:")
                    )
                });
        }
        // `take5 play` seats a person for `human` before it gets here: anywhere else (a
        // tournament) there is no terminal seat, and a command named so would be a surprise.
        if spec == "human" || spec.starts_with("human:") {
            return Err(format!(
                "`{spec}` is a person at the terminal, a seat only `take5 play` has; a program \
                 named human is given by its path (`./human`)"
            ));
        }
        // Checked now so a bad command line is a usage error, not a fault in the first game.
        process::BotCommand::parse(spec)?;
        Ok(PlayerSpec::Command(spec.to_string()))
    }

    /// The player for a match seeded with `seed`; a bot gets `startup` for each handshake.
    pub fn create(
        &self,
        seed: u64,
        startup: pipe::StartupLimit,
    ) -> Result<Box<dyn Player>, String> {
        self.create_with(seed, startup, &Launch::default())
    }

    /// As [`PlayerSpec::create`], a bot started as `launch` says (built-in players ignore it).
    pub fn create_with(
        &self,
        seed: u64,
        startup: pipe::StartupLimit,
        launch: &Launch,
    ) -> Result<Box<dyn Player>, String> {
        match self {
            PlayerSpec::Builtin(strategy) => Ok(Box::new(builtin::Builtin::new(*strategy, seed))),
            PlayerSpec::Mcs(options) => Ok(Box::new(search::McsPlayer::new(*options, seed))),
            PlayerSpec::Command(spec) => {
                let mut command = process::BotCommand::parse(spec)?;
                command.dir.clone_from(&launch.dir);
                command.sandbox.clone_from(&launch.sandbox);
                let mut log = None;
                if let Some((prefix, start)) = &launch.log {
                    let with = |end: &str| {
                        let mut path = prefix.clone().into_os_string();
                        path.push(end);
                        std::path::PathBuf::from(path)
                    };
                    command.stderr_file = Some(with(".stderr"));
                    let path = with(".log");
                    log = Some(
                        pipe::IoLog::create(&path, *start)
                            .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
                    );
                }
                Ok(Box::new(pipe::PipePlayer::with_command(
                    spec, command, startup, log,
                )?))
            }
        }
    }
}

/// How a bot program is started, besides its command line.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// The folder it starts in.
    pub dir: Option<std::path::PathBuf>,
    /// With `--log-io`: its lines go to `PREFIX.log` and its stderr to `PREFIX.stderr`, times
    /// counted from the instant given (the game's start).
    pub log: Option<(std::path::PathBuf, std::time::Instant)>,
    /// With `--sandbox`: how its processes are confined.
    pub sandbox: Option<sandbox::Sandbox>,
}
