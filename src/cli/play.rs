//! `take5 play`: a match between players, with a summary and an optional record.

use super::tournament::{Format, Progress};
use super::{CliError, Status};
use crate::cards::Deck;
use crate::game::{Deal, Discard, Game};
use crate::house::House;
use crate::players::pipe::{DECISION_TIMEOUT_MS, STARTUP_TIMEOUT_MS, StartupLimit};
use crate::players::process::logs;
use crate::players::{Player, PlayerSpec};
use crate::record::{TournamentGame, Writer};
use crate::referee::{GameReport, MatchConfig, MatchHouse, play_match};
use crate::rules::Draft;
use crate::seat::{Clock, FaultKind};
use crate::tournament::results::GameResult;
use crate::tournament::stats::Accumulator;
use crate::variants::Variant;
use crate::visible::{visible, visible_lines};
use clap::Args;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// A player: builtin:random|lowest|highest|dodger, builtin:mcs (the search bot, with
    /// options as `builtin:mcs:steps=N`: docs/mcs.md), `human` (you, at this terminal;
    /// `human:MS` with MS milliseconds for each answer), or a bot's command line (split like a
    /// shell would, without running one). One per seat, in seat order.
    #[arg(long = "player", short = 'p', value_name = "SPEC", required = true,
          value_parser = SeatSpec::parse)]
    players: Vec<SeatSpec>,
    /// The variant to play.
    #[arg(long, value_enum, default_value = "classic")]
    variant: Variant,
    /// Seed for the deals and the built-in bots (random when not given; the summary shows it).
    #[arg(long)]
    seed: Option<u64>,
    /// Games to play; seats rotate so each player plays each deal from each seat.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Write the game record(s) here as JSON Lines (docs/records.md), compressed with zstd
    /// when FILE ends in `.zst`, with gzip when it ends in `.gz`.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// The record's format: 1 (or `json`: a line per event, the default) or 2 (or `compact`: a
    /// line per turn with the players' answers; docs/records.md).
    #[arg(long, value_name = "FORMAT", default_value = "1", value_parser = crate::record::parse_format)]
    record_format: u32,
    /// YAML file with the deal of each round (hands and starting rows), to replay a real game.
    #[arg(long, value_name = "FILE")]
    deal: Option<PathBuf>,
    /// Time limit per decision, in milliseconds (`--timeout-ms` is the same, as in `take5
    /// tournament`).
    #[arg(long, visible_alias = "timeout-ms", value_name = "MS", default_value_t = DECISION_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    #[command(flatten)]
    clock: ClockArgs,
    /// Time limit for a bot's start (from starting its program to its `hello`, and again for a
    /// bot started anew after a crash), in milliseconds, apart from the time per decision.
    #[arg(long, value_name = "MS", default_value_t = STARTUP_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    startup_timeout: u64,
    /// House rules: a Lua script with settings and hooks (docs/house-rules.md). Records name
    /// it with its hash.
    #[arg(long, value_name = "FILE")]
    house: Option<PathBuf>,
    /// YAML file with the number cards and their bullheads (`lowest`, `bullheads` and, for the
    /// circle game, `red`: the cards whose bullheads are red), replacing the variant's deck.
    /// Records hold the deck, so they verify without the file.
    #[arg(long, value_name = "FILE")]
    deck: Option<PathBuf>,
    /// The Pro variant's pick order in the draft: `seat_order` (the default: one card at a time,
    /// seat 0 first) or `snake` (there and back). Records hold it.
    #[arg(long, value_enum, value_name = "ORDER")]
    draft: Option<Draft>,
    /// Write every line sent to and received from each bot, and its stderr, into
    /// DIR/player-N.log and DIR/player-N.stderr (N: the player's place in the `--player`s, from
    /// 0 as seats are counted: its seat in the first game), for the whole match, times from its
    /// start.
    #[arg(long, value_name = "DIR")]
    log_io: Option<PathBuf>,
    /// Print only the match summary, not each game (with a progress line on stderr on long
    /// matches).
    #[arg(long, short)]
    quiet: bool,
    /// Play on when a bot fails its handshake before the first game: the fallback plays its
    /// seat and the failure is a fault in the results. Without it such a bot is an error
    /// (exit 2, with the bot's command and the last lines of its stderr).
    #[arg(long)]
    handshake_fallback: bool,
    /// The folder the I-th `--player` (from 0: its seat in the first game), a bot's command,
    /// starts in, rather than the current one; repeat it for each such bot.
    #[arg(long, value_name = "I=DIR", value_parser = parse_player_dir)]
    player_dir: Vec<(usize, PathBuf)>,
    #[arg(long, value_name = "SETTINGS", num_args = 0..=1, require_equals = true,
          default_missing_value = "", value_parser = super::sandbox::parse,
          help = super::sandbox::help())]
    sandbox: Option<crate::players::sandbox::Sandbox>,
    /// The I-th `--player` (from 0), a bot's command, confined with these settings rather than
    /// `--sandbox`'s (`I=` alone: the defaults), as `take5 tournament --replay` gives a game
    /// whose bots had sandboxes of their own (docs/sandbox.md); repeat it for each such bot.
    #[arg(long, value_name = "I=SETTINGS", value_parser = parse_player_sandbox)]
    player_sandbox: Vec<(usize, crate::players::sandbox::Sandbox)>,
    /// Record the game as game ID of a tournament, its bots named by `--pool-name` (the
    /// header's `tournament`, docs/records.md): the command `take5 tournament ... --replay ID`
    /// prints. One game.
    #[arg(long, value_name = "ID", requires = "pool_names")]
    tournament_game: Option<u64>,
    /// With --tournament-game: the pool name of the bot of each `--player`, in their order.
    #[arg(long = "pool-name", value_name = "NAME", requires = "tournament_game")]
    pool_names: Vec<String>,
    /// How the summary is printed: `table`, or `json` or `csv` (the statistics of `take5 stats`,
    /// and only them: no per-game lines).
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
}

/// `--clock` and `--clock-margin`, as `play`, `tournament` and `selftest` take them.
#[derive(Args, Debug, Clone, Copy)]
pub struct ClockArgs {
    /// A game clock for each bot instead of a limit per decision: BASE for the whole game and
    /// INC added after each decision (`10s+100ms`, `60000+500`: milliseconds, or a number with
    /// ms, s or m). Each `ask` tells the bot its time left (docs/protocol.md); a bot that runs
    /// out loses on time (a `clock` fault) and the fallback plays its seat to the end of the
    /// game. Built-in bots are not timed.
    #[arg(long, value_name = "BASE+INC", value_parser = Clock::parse,
          conflicts_with = "timeout")]
    pub clock: Option<Clock>,
    /// With --clock: the time in milliseconds a decision may run over the time left before it
    /// is a loss on time (the overhead of the pipes and of a loaded machine).
    #[arg(long, value_name = "MS", default_value_t = 0, requires = "clock")]
    pub clock_margin: u64,
}

impl ClockArgs {
    /// The clock the flags give, with its margin.
    pub fn clock(&self) -> Option<Clock> {
        self.clock.map(|clock| Clock {
            margin_ms: self.clock_margin,
            ..clock
        })
    }
}

/// Who plays a seat: a person at the terminal (`human`, or `human:MS` with that time for each
/// answer), or a bot.
#[derive(Clone, Debug)]
enum SeatSpec {
    Human(Option<Duration>),
    Bot(PlayerSpec),
}

impl SeatSpec {
    fn parse(spec: &str) -> Result<SeatSpec, String> {
        if spec == "human" {
            return Ok(SeatSpec::Human(None));
        }
        if let Some(ms) = spec.strip_prefix("human:") {
            return match ms.parse::<u64>() {
                Ok(ms) if ms > 0 => Ok(SeatSpec::Human(Some(Duration::from_millis(ms)))),
                _ => Err(format!(
                    "`{spec}`: after `human:` comes the time for each answer in milliseconds, \
                     e.g. human:60000"
                )),
            };
        }
        PlayerSpec::parse(spec).map(SeatSpec::Bot)
    }
}

/// `I=DIR`.
fn parse_player_dir(text: &str) -> Result<(usize, PathBuf), String> {
    match text.split_once('=') {
        Some((i, dir)) if !dir.is_empty() => i
            .parse()
            .map(|i| (i, PathBuf::from(dir)))
            .map_err(|_| format!("`{i}` is not a player's place among the --player (from 0)")),
        _ => Err(format!("`{text}` is not I=DIR")),
    }
}

/// `I=SETTINGS`.
fn parse_player_sandbox(text: &str) -> Result<(usize, crate::players::sandbox::Sandbox), String> {
    let Some((i, settings)) = text.split_once('=') else {
        return Err(format!("`{text}` is not I=SETTINGS (e.g. 1=memory_mb=512)"));
    };
    let i = i
        .parse()
        .map_err(|_| format!("`{i}` is not a player's place among the --player (from 0)"))?;
    Ok((i, super::sandbox::parse(settings)?))
}

/// The `--deal` file: the deal of rounds 1, 2, ... in order.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct DealFile {
    rounds: Vec<Deal>,
}

pub fn run(args: &PlayArgs) -> Result<Status, CliError> {
    crate::players::process::live_groups::kill_bots_on_signal();
    if args.sandbox.is_some() || !args.player_sandbox.is_empty() {
        crate::players::sandbox::check().map_err(CliError::input)?;
    }
    let seed = args.seed.unwrap_or_else(random_seed);
    let deals = match &args.deal {
        Some(path) => {
            crate::yaml::load::<DealFile>(path)
                .map_err(CliError::input)?
                .rounds
        }
        None => Vec::new(),
    };
    let house = match &args.house {
        Some(path) => Some(House::load_with(path, args.variant.rules()).map_err(CliError::input)?),
        None => None,
    };
    if let Some(house) = &house {
        house
            .check_variant(args.variant)
            .map_err(|e| CliError::input(format!("--house: {e}")))?;
    }
    let mut rules = house
        .as_ref()
        .map_or_else(|| args.variant.rules(), |h| h.rules().clone());
    if let Some(path) = &args.deck {
        if house.is_some() {
            return Err(CliError::input(
                "--deck: give the deck in the house script (`deck` and `bullheads`) instead",
            ));
        }
        rules.deck = crate::yaml::load::<Deck>(path).map_err(CliError::input)?;
        rules
            .validate()
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    }
    if let Some(draft) = args.draft {
        if !args.variant.describe().drafts {
            return Err(CliError::input(format!(
                "--draft: only the pro variant drafts its hands, not {}",
                args.variant.name()
            )));
        }
        if house.is_some() {
            return Err(CliError::input(
                "--draft: give the draft order in the house script (`draft`) instead",
            ));
        }
        rules.draft = draft;
    }
    rules
        .check_players(args.players.len())
        .map_err(|e| match &house {
            Some(house) => {
                CliError::input(format!("{e} (with the house rules of {})", house.script()))
            }
            None => CliError::input(e),
        })?;
    let rules = Arc::new(rules);
    // Check every scripted deal now, so a bad one never stops a game half-way.
    for (i, deal) in deals.iter().enumerate() {
        let mut game = args
            .variant
            .new_game(rules.clone(), args.players.len())
            .map_err(CliError::input)?;
        let path = args
            .deal
            .as_deref()
            .unwrap_or(Path::new("--deal"))
            .display();
        args.variant
            .check_given_deal(&rules, i as u32 + 1, deal)
            .map_err(|e| CliError::input(format!("{path}: round {}: {e}", i + 1)))?;
        game.deal(deal, &mut Discard)
            .map_err(|e| CliError::input(format!("{path}: round {}: {e}", i + 1)))?;
    }
    let scripted = deals.len();
    let tournament = match args.tournament_game {
        Some(_) if args.games != 1 => {
            return Err(CliError::input(
                "--tournament-game records one game of a tournament: --games is 1",
            ));
        }
        Some(_) if args.pool_names.len() != args.players.len() => {
            return Err(CliError::input(format!(
                "--tournament-game: {} --pool-name for {} --player: one for each, in their order",
                args.pool_names.len(),
                args.players.len()
            )));
        }
        Some(game) => Some(TournamentGame {
            game,
            bots: args.pool_names.clone(),
        }),
        None => None,
    };
    let config = MatchConfig {
        variant: args.variant,
        rules,
        seed,
        games: args.games,
        deals,
        timeout: Duration::from_millis(args.timeout),
        // A person (who has `human:MS` instead) and a built-in bot (which answers in well under
        // a microsecond) have no clock.
        clocks: match args.clock.clock() {
            Some(clock) => (args.players.iter())
                .map(|spec| match spec {
                    SeatSpec::Bot(PlayerSpec::Command(_) | PlayerSpec::Mcs(_)) => Some(clock),
                    SeatSpec::Bot(PlayerSpec::Builtin(_)) | SeatSpec::Human(_) => None,
                })
                .collect(),
            None => Vec::new(),
        },
        house: house.map(|house| {
            // The record names the script relative to itself, so the two can move together.
            let path = match (&args.record, &args.house) {
                (Some(record), Some(script)) => crate::house::path_for_record(script, record),
                _ => house.script().to_string(),
            };
            MatchHouse {
                script: house.for_record(path),
                hooks: Rc::new(house),
            }
        }),
        tournament,
    };
    if let Some(dir) = &args.log_io {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::input(format!("cannot create {}: {e}", dir.display())))?;
        // Logs are not overwritten, nor written through a link: refused before any bot starts.
        for (i, spec) in args.players.iter().enumerate() {
            if let SeatSpec::Bot(PlayerSpec::Command(_)) = spec {
                for end in ["log", "stderr"] {
                    let path = dir.join(format!("player-{i}.{end}"));
                    logs::refuse(&path, false).map_err(CliError::input)?;
                }
            }
        }
    }
    let per_player = args
        .player_dir
        .iter()
        .map(|(i, dir)| (*i, "--player-dir", dir.display().to_string()))
        .chain(args.player_sandbox.iter().map(|(i, sandbox)| {
            let settings = sandbox.settings().unwrap_or_default();
            (*i, "--player-sandbox", settings)
        }));
    for (i, flag, value) in per_player {
        let which = format!("{flag} {i}={value}");
        match args.players.get(i) {
            Some(SeatSpec::Bot(PlayerSpec::Command(_))) => {}
            Some(_) => {
                return Err(CliError::input(format!(
                    "{which}: --player {i} is no bot's command, it runs no process"
                )));
            }
            None => {
                return Err(CliError::input(format!(
                    "{which}: the players are 0 to {}, in the order of the --player",
                    args.players.len() - 1
                )));
            }
        }
    }
    for (i, dir) in &args.player_dir {
        if !dir.is_dir() {
            return Err(CliError::input(format!(
                "--player-dir {i}={}: no such folder",
                dir.display()
            )));
        }
    }
    for i in 0..args.players.len() {
        if args.player_dir.iter().filter(|(at, _)| *at == i).count() > 1 {
            return Err(CliError::input(format!(
                "--player-dir: player {i} is given a folder twice"
            )));
        }
        if args
            .player_sandbox
            .iter()
            .filter(|(at, _)| *at == i)
            .count()
            > 1
        {
            return Err(CliError::input(format!(
                "--player-sandbox: player {i} is given a sandbox twice"
            )));
        }
    }
    let start = std::time::Instant::now();
    let startup = StartupLimit::flag(Duration::from_millis(args.startup_timeout));
    let mut players: Vec<Box<dyn Player>> = args
        .players
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let launch = crate::players::Launch {
                dir: args
                    .player_dir
                    .iter()
                    .find(|(at, _)| *at == i)
                    .map(|(_, dir)| dir.clone()),
                log: args
                    .log_io
                    .as_ref()
                    .map(|dir| (dir.join(format!("player-{i}")), start)),
                sandbox: args
                    .player_sandbox
                    .iter()
                    .find(|(at, _)| *at == i)
                    .map(|(_, sandbox)| sandbox)
                    .or(args.sandbox.as_ref())
                    .cloned(),
            };
            match spec {
                SeatSpec::Human(limit) => crate::show::human::Human::at_terminal(*limit)
                    .map(|h| Box::new(h) as Box<dyn Player>),
                SeatSpec::Bot(spec) => spec.create_with(seed, startup, &launch),
            }
        })
        .collect::<Result<_, _>>()
        .map_err(CliError::input)?;
    // A bot that cannot even greet is a setup error, not a result of the match; with
    // --handshake-fallback its first game meets the failure again, as a fault.
    for (i, player) in players.iter_mut().enumerate() {
        if let Err(fault) = player.ready()
            && !args.handshake_fallback
        {
            return Err(CliError::input(format!(
                "the player at seat {i} (`{}`) failed its handshake, so no game was played \
                 (--handshake-fallback plays on with the fallback in its seat): {}",
                player.name(),
                fault.detail
            )));
        }
    }
    // A bot is known by the name it gave in its hello (a tournament's game: by its pool name);
    // its command is told with its faults.
    let names: Vec<Name> = players
        .iter()
        .enumerate()
        .map(|(i, p)| Name {
            own: match &config.tournament {
                Some(tournament) => tournament.bots[i].clone(),
                None => p.own_name().unwrap_or(p.name()).to_string(),
            },
            given: p.name().to_string(),
        })
        .collect();
    let mut record = match &args.record {
        Some(path) => {
            // Compressed when the name ends in .zst or .gz.
            let writer = Writer::create(path)
                .map_err(|e| CliError::input(format!("cannot create {}: {e}", path.display())))?;
            Some(writer.with_format(args.record_format))
        }
        None => None,
    };
    let table = args.format == Format::Table;
    let each_game = table && !args.quiet;
    let own: Vec<String> = names.iter().map(|n| n.own.clone()).collect();
    let labels = labels(&own);
    let mut stats = Accumulator::default().of_variant(Some(args.variant));
    // The games themselves are the progress when they are printed.
    let mut progress = (!each_game).then(|| Progress::new(args.games, 0));
    let mut faults = 0u64;
    let mut out = io::stdout().lock();
    // Stdout failing (its reader gone: `take5 play ... | head`) stops the match; the error
    // ends take5 (quietly, for a broken pipe).
    let mut unwritten: Option<io::Error> = None;
    let games = play_match(&config, &mut players, record.as_mut(), |report| {
        faults += report.faults.len() as u64;
        stats.add(&as_result(&report, &labels));
        if let Some(progress) = &mut progress {
            progress.game_done();
        }
        if each_game && let Err(e) = print_game(&mut out, &report, &names) {
            unwritten = Some(e);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    })
    .map_err(CliError::input)?;
    if let Some(e) = unwritten {
        return Err(e.into());
    }
    if let (Some(record), Some(path)) = (record, &args.record) {
        record
            .finish()
            .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))?;
    }
    // The bots are stopped (their stderr read to its end) before the logs are checked.
    drop(players);
    // A match too short to have shown progress ends without a last progress line.
    if let Some(progress) = progress.as_ref().filter(|p| p.any_shown()) {
        progress.finish(false);
    }
    let stats = stats.finish();
    match args.format {
        Format::Table => {
            writeln!(
                out,
                "seed {seed}: {games} game{} (replay with --seed {seed})",
                if games == 1 { "" } else { "s" }
            )?;
            if let Some(path) = &args.deal {
                // A file with fewer rounds than a game plays leaves the later ones to the seed.
                let rounds = match scripted {
                    1 => "round 1".to_string(),
                    n => format!("rounds 1-{n}"),
                };
                writeln!(
                    out,
                    "{rounds} dealt from {}; any later round from seed {seed}",
                    visible(&path.display().to_string())
                )?;
            }
            write!(out, "{}", visible_lines(&stats.table()))?;
            print_fault_note(&mut out, faults)?;
        }
        Format::Json => {
            #[derive(serde::Serialize)]
            struct Summary<'a> {
                seed: u64,
                #[serde(flatten)]
                stats: &'a crate::tournament::stats::Stats,
            }
            let summary = Summary {
                seed,
                stats: &stats,
            };
            super::write_json(&mut out, &summary)?;
        }
        Format::Csv => write!(out, "{}", visible_lines(&stats.csv()))?,
    }
    super::logs_written()?;
    Ok(Status::Passed)
}

/// The players' names in the statistics: their own, or where two players share one,
/// `NAME#I` with I the player's place among the `--player`s (from 0).
fn labels(names: &[String]) -> Vec<String> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if names.iter().filter(|n| *n == name).count() > 1 {
                format!("{name}#{i}")
            } else {
                name.clone()
            }
        })
        .collect()
}

/// A game of the match as a tournament's result: one table, deal `number / players`, played
/// once per rotation of the seats.
fn as_result(report: &GameReport, labels: &[String]) -> GameResult {
    let players = labels.len();
    GameResult {
        game: report.number,
        table: 0,
        deal: crate::referee::deal_number(report.number, players),
        rotation: report.number % players as u64,
        seating: report.seating.iter().map(|&p| labels[p].clone()).collect(),
        totals: report.outcome.totals.clone(),
        ranks: report.outcome.ranks(),
        winners: report.outcome.winners.clone(),
        faults: report.faults.clone(),
        // A game of a match is replayed by the match's seed and its number, not a seed of its own.
        seed: None,
        times: None,
    }
}

/// A seed for a match that was not given one: the clock's nanoseconds.
fn random_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    now.as_nanos() as u64
}

/// A player's names: its own (a bot's hello), and as given on the command line (a bot's
/// command).
struct Name {
    own: String,
    given: String,
}

impl Name {
    /// As a fault line names it: both names when they differ.
    fn in_full(&self) -> String {
        if self.own == self.given {
            self.own.clone()
        } else {
            format!("{}: {}", self.own, self.given)
        }
    }
}

/// Prints a game's totals and faults; the names (bot commands) and the faults' details (a bot's
/// reply, its stderr) are made [`visible`].
fn print_game(out: &mut impl Write, report: &GameReport, names: &[Name]) -> io::Result<()> {
    let full: Vec<String> = names
        .iter()
        .map(|n| visible(&n.in_full()).into_owned())
        .collect();
    let names: Vec<String> = names.iter().map(|n| visible(&n.own).into_owned()).collect();
    let width = name_width(&names);
    writeln!(out, "game {}:", report.number + 1)?;
    for (seat, &player) in report.seating.iter().enumerate() {
        let won = report.outcome.winners.contains(&seat);
        writeln!(
            out,
            "  seat {seat}  {:<width$} {:>5}{}",
            names[player],
            report.outcome.totals[seat],
            if won { "  winner" } else { "" }
        )?;
    }
    // Faults of a kind at a seat are told once, with their count and the first one's detail.
    let mut told: Vec<(usize, FaultKind)> = Vec::new();
    for fault in &report.faults {
        if told.contains(&(fault.seat, fault.kind)) {
            continue;
        }
        told.push((fault.seat, fault.kind));
        let count = report
            .faults
            .iter()
            .filter(|f| f.seat == fault.seat && f.kind == fault.kind)
            .count();
        let times = if count > 1 {
            format!(" x{count}, the first")
        } else {
            String::new()
        };
        writeln!(
            out,
            "  fault: seat {} ({}) {}{times} in round {} turn {}: {}",
            fault.seat,
            full[report.seating[fault.seat]],
            fault.kind,
            fault.round,
            fault.turn,
            visible_lines(&fault.detail)
        )?;
    }
    Ok(())
}

/// The width of the name column.
fn name_width(names: &[String]) -> usize {
    names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(6)
}

/// Says that the results of faulty bots include moves the fallback played for them.
fn print_fault_note(out: &mut impl Write, faults: u64) -> io::Result<()> {
    if faults > 0 {
        writeln!(
            out,
            "note: {faults} fault{}: the results of a faulty bot include the moves the fallback \
             played for it (each game's `fault:` lines say where)",
            if faults == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}
