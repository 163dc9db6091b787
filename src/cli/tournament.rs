//! `take5 tournament` and `take5 stats` (docs/tournaments.md).

use super::{CliError, Status};
use crate::players::pipe::{DECISION_TIMEOUT_MS, STARTUP_TIMEOUT_MS};
use crate::tournament::results::{self, GameResult};
use crate::tournament::sprt::{Decision, Sprt};
use crate::tournament::timing::{BotTimes, Times};
use crate::tournament::{Dropouts, Run, Todo, config, ratings, records, stats, stream};
use crate::visible::{visible, visible_lines};
use crate::words::count;
use clap::{Args, ValueEnum};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How statistics are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Csv,
}

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The tournament: a YAML file (docs/tournaments.md). Or give it with `--bot` and the flags
    /// below instead (not both).
    config: Option<PathBuf>,
    /// The results file (a header line, then one JSON line per game; locked while the run
    /// lasts); by default CONFIG with `.results.jsonl`
    /// (needed without CONFIG).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    #[command(flatten)]
    flags: TournamentFlags,
    /// Write every line to and from each command bot, and its stderr, into DIR/job-J/NAME.log
    /// and DIR/job-J/NAME.stderr (J: the job, from 1), each game after a `# game ID` line.
    #[arg(long, value_name = "DIR")]
    log_io: Option<PathBuf>,
    /// Write the game records (JSON Lines, docs/records.md) of the games played into FILE, one
    /// after another in the order they finish, or, if it is a folder, each into
    /// FILE/game-ID.jsonl; `take5 verify` checks them.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// The records' format: 1 (or `json`: a line per event, the default) or 2 (or `compact`: a
    /// line per turn with the players' answers; docs/records.md).
    #[arg(long, value_name = "FORMAT", default_value = "1", value_parser = crate::record::parse_format)]
    record_format: u32,
    /// Continue a run from its results file: the games in it are not played again.
    #[arg(long)]
    resume: bool,
    /// Games played at once, each on its own thread with its own process of each command bot
    /// (default: the number of cores).
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    jobs: Option<u64>,
    /// How the statistics are printed.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Also print each command bot's decision times (mean, 95th percentile, maximum): they
    /// differ from run to run, so they are left out unless asked.
    #[arg(long)]
    times: bool,
    /// Play only the K-th of N disjoint slices of the tournament (the games whose id is K-1
    /// modulo N); `take5 stats` merges the slices' results files.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Run a sequential probability ratio test on two bots and stop when it decides:
    /// `elo0=E,elo1=E[,alpha=P,beta=P]` (alpha and beta 0.05 by default; docs/tournaments.md).
    #[arg(long, value_name = "SETTINGS", value_parser = Sprt::parse)]
    sprt: Option<Sprt>,
    /// The two bots of the test, `BOT,OTHER` (H1: BOT is the stronger); by default the pool's
    /// two bots (a gauntlet's own first).
    #[arg(long, value_name = "BOT,OTHER", value_parser = parse_pair)]
    sprt_pair: Option<(String, String)>,
    /// Play nothing: print the one `take5 play` command that plays game ID of this tournament
    /// again (its bots in their seats, seed, variant, house rules, limits, record format), its
    /// record byte for byte the game's in `--record` (written next to it, as replay-ID.jsonl).
    #[arg(long, value_name = "ID")]
    replay: Option<u64>,
    /// The event the tournament is played as: its name, written into the results' header
    /// and told by the reports (with --site and --date).
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    /// Where the event is played (with --event).
    #[arg(long, value_name = "SITE", requires = "event")]
    site: Option<String>,
    /// When the event is played, as text (e.g. 2026-12-02; with --event).
    #[arg(long, value_name = "DATE", requires = "event")]
    date: Option<String>,
    /// Every N games (counted in order of game id), print the bots' standings so far on
    /// stderr, as the end of the run prints them.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    report_every: Option<u64>,
    /// Exit 0 even when a bot was taken out of the tournament (after 3 failed starts in a row,
    /// the fallback playing its seat from then on); without it such a run exits 1, after its
    /// summary.
    #[arg(long)]
    allow_dropouts: bool,
    #[arg(long, value_name = "SETTINGS", num_args = 0..=1, require_equals = true,
          default_missing_value = "", value_parser = super::sandbox::parse,
          help = super::sandbox::help())]
    sandbox: Option<crate::players::sandbox::Sandbox>,
}

/// The tournament given by flags instead of CONFIG: the config file's keys ([`config::File`]).
#[derive(Args, Clone, Debug, Default, PartialEq)]
struct TournamentFlags {
    /// Without CONFIG: a bot of the pool, `NAME=PLAYER` (PLAYER as for `take5 play --player`),
    /// or with the options of a bot in the file,
    /// `NAME[timeout_ms=MS,startup_timeout_ms=MS,dir=DIR]=PLAYER`; repeat it for each bot.
    #[arg(long = "bot", value_name = "NAME=PLAYER", value_parser = config::BotEntry::parse_flag)]
    bots: Vec<config::BotEntry>,
    /// Without CONFIG: players at a table.
    #[arg(long, value_name = "N")]
    seats: Option<usize>,
    /// Without CONFIG: deals each table plays (default 1, or the book's with --deals-from).
    #[arg(long, value_name = "N")]
    deals: Option<u64>,
    /// Without CONFIG: play the deals of a deal book (`take5 deals` writes one), the config
    /// file's `deals_from`.
    #[arg(long, value_name = "BOOK")]
    deals_from: Option<PathBuf>,
    /// Without CONFIG: the variant (default classic).
    #[arg(long, value_enum)]
    variant: Option<crate::variants::Variant>,
    /// Without CONFIG: a house rules script.
    #[arg(long, value_name = "FILE")]
    house: Option<PathBuf>,
    /// Without CONFIG: the seed.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Without CONFIG: the time per decision, in milliseconds (default 2000), as for `take5
    /// play` (`--timeout-ms` is the same).
    #[arg(long = "timeout", visible_alias = "timeout-ms", value_name = "MS")]
    timeout_ms: Option<u64>,
    /// Without CONFIG: the time for each start of a bot, from starting its program to its
    /// `hello` (again after a crash), in milliseconds (default 10000), apart from the time per
    /// decision (the config file's `startup_timeout_ms`).
    #[arg(long = "startup-timeout", value_name = "MS")]
    startup_timeout_ms: Option<u64>,
    /// Without CONFIG: a game clock for every bot instead of a time per decision, BASE+INC as
    /// for `take5 play --clock` (`10s+100ms`); a bot's own `clock=` option replaces it (the
    /// config file's `clock`).
    #[arg(long, value_name = "BASE+INC", conflicts_with = "timeout_ms",
          value_parser = |s: &str| crate::seat::Clock::parse(s).map(|_| s.to_string()))]
    clock: Option<String>,
    /// Without CONFIG: for every bot with a clock (this one's or its own), the milliseconds a
    /// decision may run over it before it is a loss on time (the config file's
    /// `clock_margin_ms`).
    #[arg(long, value_name = "MS")]
    clock_margin: Option<u64>,
    /// Without CONFIG: which tables play: `round-robin`, `gauntlet:NAME` or `random:N` (the
    /// config file's `format`).
    #[arg(long, value_name = "TABLES", value_parser = parse_tables)]
    tables: Option<config::Format>,
    /// Without CONFIG: `rotations` (default) or `permutations`.
    #[arg(long, value_name = "SEATINGS", value_parser = parse_seatings)]
    seatings: Option<config::Seatings>,
}

/// `--window LINES`: at least one line.
fn parse_window(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err(format!(
            "the window holds at least 1 line of each file ({} by default)",
            stream::WINDOW
        )),
        Ok(lines) => Ok(lines),
        Err(_) => Err(format!("`{text}` is not a number of lines")),
    }
}

/// `BOT,OTHER`.
fn parse_pair(text: &str) -> Result<(String, String), String> {
    match text.split_once(',') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() && a != b => {
            Ok((a.to_string(), b.to_string()))
        }
        _ => Err(format!("`{text}` is not BOT,OTHER (two names of the pool)")),
    }
}

/// The pair `--sprt` tests: the one named, or the pool's two (`names`, a gauntlet's own bot
/// first).
fn sprt_pair(
    names: &[&str],
    format: &config::Format,
    named: &Option<(String, String)>,
) -> Result<(String, String), String> {
    let (a, b) = match named {
        Some(pair) => pair.clone(),
        None if names.len() == 2 => {
            let first = match format {
                config::Format::Gauntlet { bot } => bot.as_str(),
                _ => names[0],
            };
            let second = if first == names[0] {
                names[1]
            } else {
                names[0]
            };
            (first.to_string(), second.to_string())
        }
        None => {
            return Err(format!(
                "--sprt: the pool has {} bots: name the two to test with --sprt-pair BOT,OTHER",
                names.len()
            ));
        }
    };
    for name in [&a, &b] {
        if !names.contains(&name.as_str()) {
            return Err(format!(
                "--sprt-pair: no bot named `{name}` in the pool ({})",
                names.join(", ")
            ));
        }
    }
    Ok((a, b))
}

/// `round-robin`, `gauntlet:NAME`, `random:N`.
fn parse_tables(text: &str) -> Result<config::Format, String> {
    match text.split_once(':') {
        None if text == "round-robin" => Ok(config::Format::RoundRobin),
        Some(("gauntlet", bot)) if !bot.is_empty() => Ok(config::Format::Gauntlet {
            bot: bot.to_string(),
        }),
        Some(("random", n)) => n
            .parse()
            .map(|tables| config::Format::Random { tables })
            .map_err(|_| format!("random:{n}: `{n}` is not a number")),
        _ => Err(format!(
            "`{text}`: expected round-robin, gauntlet:NAME or random:N"
        )),
    }
}

fn parse_seatings(text: &str) -> Result<config::Seatings, String> {
    match text {
        "rotations" => Ok(config::Seatings::Rotations),
        "permutations" => Ok(config::Seatings::Permutations),
        _ => Err(format!("`{text}`: expected rotations or permutations")),
    }
}

/// The tournament of CONFIG, or of the flags, and its results file.
fn tournament_of(args: &TournamentArgs) -> Result<(config::Tournament, PathBuf), CliError> {
    let flags = &args.flags;
    let flags_given = *flags != TournamentFlags::default();
    let usage = |message: &str| CliError {
        message: message.to_string(),
        status: Status::Unreadable,
    };
    if let Some(path) = &args.config {
        if flags_given {
            return Err(usage(
                "give the tournament as CONFIG or with --bot and its flags, not both",
            ));
        }
        let results = args
            .results
            .clone()
            .unwrap_or_else(|| path.with_extension("results.jsonl"));
        return Ok((config::load(path).map_err(CliError::input)?, results));
    }
    if flags.bots.is_empty() {
        return Err(usage(
            "give a tournament: CONFIG, or --bot NAME=PLAYER (several)",
        ));
    }
    let (Some(seats), Some(seed), Some(tables), Some(results)) =
        (flags.seats, flags.seed, &flags.tables, &args.results)
    else {
        return Err(usage(
            "a tournament from flags needs --seats, --seed, --tables and --results",
        ));
    };
    let tournament = config::from_flags(config::File {
        bots: flags.bots.clone(),
        seats: config::unplaced(seats),
        deals: flags.deals.map(config::unplaced),
        deals_from: flags.deals_from.clone().map(config::unplaced),
        variant: flags.variant.unwrap_or_default(),
        house: flags.house.clone(),
        seed,
        timeout_ms: flags.timeout_ms.unwrap_or(DECISION_TIMEOUT_MS),
        startup_timeout_ms: flags.startup_timeout_ms.unwrap_or(STARTUP_TIMEOUT_MS),
        clock: flags.clock.clone().map(config::unplaced),
        clock_margin_ms: flags.clock_margin.unwrap_or(0),
        format: tables.clone(),
        seatings: flags.seatings.unwrap_or_default(),
        sandbox: None,
    })
    .map_err(CliError::input)?;
    Ok((tournament, results.clone()))
}

/// `K/N` with 1 <= K <= N.
fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not K/N (e.g. 2/4)"))?;
    let k: u64 = k.parse().map_err(|_| format!("`{k}` is not a number"))?;
    let n: u64 = n.parse().map_err(|_| format!("`{n}` is not a number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("shard {k}/{n}: need 1 <= K <= N"));
    }
    Ok((k, n))
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Results files of `take5 tournament`; several are merged (a game given twice is counted
    /// once).
    #[arg(required = true)]
    results: Vec<PathBuf>,
    /// How the statistics are printed.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Write one self-contained HTML report to stdout instead: what the tournament was, every
    /// two bots deal by deal, the sequential test's course (with --sprt), the decision times,
    /// the bots with their ratings over the games and their totals, and head to head.
    #[arg(long)]
    html: bool,
    /// Also print each command bot's decision times (as for `take5 tournament --times`).
    #[arg(long)]
    times: bool,
    /// Lines of each file read ahead to put its games in order of id (a file further out of
    /// order is refused).
    #[arg(long, value_name = "LINES", default_value_t = stream::WINDOW, value_parser = parse_window)]
    window: usize,
    /// Run the sequential test of `take5 tournament --sprt` over the results, deal by deal:
    /// the games after its decision are not counted, as in the run.
    #[arg(long, value_name = "SETTINGS", value_parser = Sprt::parse)]
    sprt: Option<Sprt>,
    /// The two bots of the test, `BOT,OTHER` (H1: BOT is the stronger); by default the pool's
    /// two bots, as the results' header names them (a gauntlet's own first).
    #[arg(long, value_name = "BOT,OTHER", value_parser = parse_pair, requires = "sprt")]
    sprt_pair: Option<(String, String)>,
    /// Print the rating list instead: each bot's maximum-likelihood Elo over every game of the
    /// files, which may be of several tournaments (a bot is known by its name), with its 95%
    /// interval (docs/tournaments.md, "A rating list"). The HTML report always has it.
    #[arg(long, conflicts_with_all = ["html", "sprt", "times"])]
    ratings: bool,
    /// The bot whose rating is fixed in the rating list, `BOT=ELO`: BOT a name in the results,
    /// or a player as the results' headers give it (`builtin:random=0`); without it the
    /// ratings' mean is 0.
    #[arg(long, value_name = "BOT=ELO", value_parser = parse_anchor)]
    anchor: Option<(String, f64)>,
}

/// `BOT=ELO`, the Elo a finite number.
fn parse_anchor(text: &str) -> Result<(String, f64), String> {
    let (bot, elo) = text
        .rsplit_once('=')
        .filter(|(bot, _)| !bot.is_empty())
        .ok_or_else(|| format!("`{text}` is not BOT=ELO (e.g. builtin:random=0)"))?;
    match elo.parse::<f64>() {
        Ok(elo) if elo.is_finite() => Ok((bot.to_string(), elo)),
        _ => Err(format!("`{elo}` is not a finite number of Elo")),
    }
}

pub fn run(args: &TournamentArgs) -> Result<Status, CliError> {
    crate::players::process::live_groups::kill_bots_on_signal();
    let (mut tournament, path) = tournament_of(args)?;
    if let Some(sandbox) = &args.sandbox {
        tournament.sandbox_all(sandbox);
    }
    if let Some(book) = &tournament.book
        && let Some(balanced) = &book.balanced
        && let Some(note) = balanced.not_for(
            tournament.game.variant.name(),
            tournament.seats,
            tournament.game.house.is_some()
                || *tournament.game.rules != tournament.game.variant.rules(),
        )
    {
        eprintln!("take5: note: {note}");
    }
    // The replay command is printed, not run: it carries the bots' sandboxes, and the
    // `take5 play` it is checks the machine when it runs.
    if let Some(id) = args.replay {
        return print_replay(&tournament, id, args);
    }
    if tournament.pool.iter().any(|bot| bot.sandbox.is_some()) {
        crate::players::sandbox::check().map_err(CliError::input)?;
    }
    let sprt = match args.sprt {
        Some(test) => {
            if args.shard.is_some() {
                return Err(CliError::input(
                    "--sprt decides from every game in order: it does not go with --shard",
                ));
            }
            let names: Vec<&str> = tournament.pool.iter().map(|b| b.name.as_str()).collect();
            let (a, b) =
                sprt_pair(&names, &tournament.format, &args.sprt_pair).map_err(CliError::input)?;
            Some((test, a, b))
        }
        None if args.sprt_pair.is_some() => {
            return Err(CliError::input("--sprt-pair goes with --sprt"));
        }
        None => None,
    };
    let mut header = results::Header::of(&tournament, args.shard);
    header.event = args.event.as_ref().map(|name| results::Event {
        name: name.clone(),
        site: args.site.clone(),
        date: args.date.clone(),
    });
    // A record is continued only with the results it goes with: with --resume of a results
    // file that holds something. Else records in it are refused, before the results file is
    // made (a refused run leaves nothing behind).
    let continued = args.resume && std::fs::metadata(&path).is_ok_and(|m| m.len() > 0);
    if let (Some(record), false) = (&args.record, continued) {
        records::refuse_existing(record, args.shard).map_err(CliError::input)?;
    }
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    if let Some(dir) = &args.log_io {
        crate::tournament::check_logs(&tournament, dir, jobs, args.resume)
            .map_err(CliError::input)?;
    }
    let opened = results::open(&path, args.resume, &header).map_err(CliError::input)?;
    if args.resume && opened.has_header {
        // The event is told, not compared: the file's is the run's.
        header.event = results::read_header(&path)
            .map_err(CliError::input)?
            .and_then(|h| h.event);
    }
    if let Some(warning) = &opened.warning {
        eprintln!("take5: warning: {}", visible_lines(warning));
    }
    let total = tournament.games();
    let todo = games_to_play(&tournament, &path, args.shard, &opened)?;
    let shard = args
        .shard
        .map_or(String::new(), |(k, n)| format!(", shard {k}/{n}"));
    eprintln!(
        "take5: {} ({} x {} x {}{shard}), {} to play on {}, results in {}",
        count(total, "game"),
        count(tournament.tables.len(), "table"),
        count(tournament.deals, "deal"),
        count(
            tournament.arrangements(),
            match tournament.seatings {
                config::Seatings::Rotations => "rotation",
                config::Seatings::Permutations => "permutation",
            }
        ),
        todo.left(),
        count(jobs, "job"),
        visible(&path.display().to_string())
    );
    // A folder gets one file per game, `game-ID.jsonl`; a file gets the games one after another.
    let record_dir = args.record.as_deref().filter(|path| path.is_dir());
    let record = match &args.record {
        Some(path) => {
            let opened = records::open(path, continued, &opened.done, args.shard)
                .map_err(CliError::input)?;
            if let Some(warning) = &opened.warning {
                eprintln!("take5: warning: {}", visible_lines(warning));
            }
            Some(opened.records)
        }
        None => None,
    };
    stop_on_interrupt();
    // Records name house scripts relative to the file they are in.
    let record_named_from = args.record.as_ref().map(|path| match record_dir {
        Some(dir) => records::path_in_dir(dir, 0),
        None => path.clone(),
    });
    let Played {
        in_order,
        dropouts,
        progress,
        interrupted,
    } = play_games(Games {
        tournament: &tournament,
        path: &path,
        opened,
        todo: &todo,
        shard: args.shard,
        sprt,
        record,
        run: Run {
            jobs,
            log_io: args.log_io.as_deref(),
            record: record_named_from.as_deref(),
            record_format: args.record_format,
            stop: &STOP,
        },
        progress: true,
        report_every: args.report_every,
    })?;
    if interrupted {
        return Err(CliError {
            message: format!(
                "interrupted: {} of {} games played this run, the games under way finished; continue with --resume",
                progress.done - progress.resumed,
                todo.left()
            ),
            status: Status::Failed,
        });
    }
    let identity = stats::Identity::of(std::slice::from_ref(&header));
    let times = args.times.then(|| in_order.times().finish());
    print(
        &mut io::stdout().lock(),
        &in_order.finish(),
        args.format,
        &told(identity.as_ref()),
        times.as_deref(),
        &dropouts,
    )?;
    super::logs_written()?;
    if !dropouts.is_empty() && !args.allow_dropouts {
        let names: Vec<&str> = dropouts.list().iter().map(|d| d.bot.as_str()).collect();
        let (bots, seats) = match names.len() {
            1 => ("bot was", "its seat"),
            _ => ("bots were", "their seats"),
        };
        return Err(CliError {
            message: format!(
                "{} {bots} taken out of the tournament ({}): the results are complete, but the fallback played {seats} (--allow-dropouts accepts such a run)",
                names.len(),
                names.join(", "),
            ),
            status: Status::Failed,
        });
    }
    Ok(Status::Passed)
}

/// The games of `tournament` (in `shard`) still to play, those in its results file `opened`
/// (at `path`) left out; a game in the file that is not one of the schedule's is refused.
pub(super) fn games_to_play(
    tournament: &config::Tournament,
    path: &Path,
    shard: Option<(u64, u64)>,
    opened: &results::Opened,
) -> Result<Todo, CliError> {
    for result in &opened.done {
        if let Some(why) = results::not_scheduled(tournament, shard, result, opened.has_header) {
            return Err(CliError::input(format!(
                "{}: game {} is not one of this tournament's: {why} (another config, seed or shard?)",
                path.display(),
                result.game
            )));
        }
    }
    Ok(Todo::new(
        tournament.games(),
        shard,
        opened.done.iter().map(|r| r.game).collect(),
    ))
}

/// A tournament's games to play into its results file: a run of `take5 tournament`, and each
/// iteration and the verification of `take5 tune`.
pub(super) struct Games<'a> {
    pub tournament: &'a config::Tournament,
    /// The results file, and what it held (its games are not played again).
    pub path: &'a Path,
    pub opened: results::Opened,
    pub todo: &'a Todo,
    pub shard: Option<(u64, u64)>,
    /// A sequential test of two bots, which stops the games when it decides.
    pub sprt: Option<(Sprt, String, String)>,
    /// Where the games' records go, if anywhere (`run.record` names the file).
    pub record: Option<records::Records>,
    pub run: Run<'a>,
    /// Whether the progress line is shown.
    pub progress: bool,
    /// Print the standings every this many games counted (`--report-every`).
    pub report_every: Option<u64>,
}

/// What [`play_games`] played: the statistics in order of game id, the bots taken out, the
/// progress at the end, and whether Ctrl-C stopped it (not the test's decision).
pub(super) struct Played {
    pub in_order: stats::InOrder,
    pub dropouts: Dropouts,
    pub progress: Progress,
    pub interrupted: bool,
}

/// Plays `games`: each finished game's record and result line are written at once, under a
/// lock, and its result counted in order of id; the test, if any, stops the games (those under
/// way finish) as soon as it decides, and one that decided in the file plays nothing.
pub(super) fn play_games(games: Games) -> Result<Played, CliError> {
    let Games {
        tournament,
        path,
        opened,
        todo,
        shard,
        sprt,
        record,
        run,
        progress,
        report_every,
    } = games;
    let stop = run.stop;
    // Statistics are built as the games come, in order of id, so the memory stays flat.
    let (first, step) = shard.map_or((0, 1), |(k, n)| (k - 1, n));
    let acc = match &sprt {
        Some((test, a, b)) => stats::Accumulator::with_sprt(*test, a, b),
        None => stats::Accumulator::default(),
    }
    .of_variant(Some(tournament.game.variant));
    let total = tournament.games();
    let mut in_order = stats::InOrder::with(first, step, total, tournament.arrangements(), acc);
    let resumed = opened.done.len() as u64;
    let mut dropouts = Dropouts::default();
    for result in opened.done {
        dropouts.add(&result);
        in_order.push(result);
    }
    let decided = |in_order: &stats::InOrder| {
        in_order
            .accumulator()
            .decision()
            .is_some_and(|d| d != Decision::Continue)
    };
    // A test that decided in an earlier run has nothing more to play.
    if decided(&in_order) {
        stop.store(true, Ordering::SeqCst);
    }
    // The files and the results so far, shared by the jobs: a line is written whole, in one
    // call, under the lock.
    let shown = Progress::new(todo.in_shard(), resumed).shown(progress);
    let shared = Mutex::new((opened.file, record, in_order, shown, dropouts));
    let notice = |message: &str| {
        let guard = shared.lock().unwrap_or_else(|p| p.into_inner());
        guard.3.clear();
        // A notice may quote a bot (its stderr when it failed to start).
        eprintln!("take5: {}", visible_lines(message));
    };
    crate::tournament::play(tournament, todo, &run, notice, |finished| {
        let mut guard = shared.lock().unwrap_or_else(|p| p.into_inner());
        let (file, record, in_order, progress, dropouts) = &mut *guard;
        // The record first, then the result line: the results never hold a game whose record
        // is not whole (`--resume` cuts the record back to the results' games).
        if let (Some(lines), Some(record)) = (&finished.record, record.as_mut()) {
            record.write(finished.result.game, lines)?;
        }
        results::append(file, &finished.result)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        dropouts.add(&finished.result);
        in_order.push_with(finished.result, |acc| {
            if let Some(every) = report_every
                && acc.games() % every == 0
            {
                progress.clear();
                let standings = acc.clone().finish().standings();
                eprint!(
                    "take5: standings after {} of {}:{}",
                    count(acc.games(), "game"),
                    todo.in_shard(),
                    visible_lines(&standings)
                );
            }
        });
        if decided(in_order) {
            // The games under way finish and are written; no other starts.
            stop.store(true, Ordering::SeqCst);
        }
        progress.note = in_order.accumulator().sprt_line();
        progress.game_done();
        Ok(())
    })
    .map_err(CliError::input)?;
    let (_, _, in_order, progress, dropouts) =
        shared.into_inner().unwrap_or_else(|p| p.into_inner());
    let interrupted = stop.load(Ordering::SeqCst) && !decided(&in_order);
    progress.finish(interrupted);
    Ok(Played {
        in_order,
        dropouts,
        progress,
        interrupted,
    })
}

/// `--replay ID`: prints the command that replays game `id`, its record written where the
/// tournament's records are (so that a house script is named from the same folder).
fn print_replay(
    tournament: &config::Tournament,
    id: u64,
    args: &TournamentArgs,
) -> Result<Status, CliError> {
    let name = format!("replay-{id}.jsonl");
    let record = match &args.record {
        Some(dir) if dir.is_dir() => dir.join(name),
        Some(file) => file.with_file_name(name),
        None => PathBuf::from(name),
    };
    let replay = crate::tournament::replay::command(tournament, id, args.record_format, &record)
        .map_err(CliError::input)?;
    for note in &replay.notes {
        eprintln!("take5: note: {}", visible_lines(note));
    }
    writeln!(io::stdout().lock(), "{}", replay.line())?;
    Ok(Status::Passed)
}

pub fn run_stats(args: &StatsArgs) -> Result<Status, CliError> {
    if args.ratings {
        return print_ratings(args);
    }
    if args.anchor.is_some() && !args.html {
        return Err(CliError::input(
            "--anchor fixes a bot of the rating list: it goes with --ratings or --html",
        ));
    }
    let headers = check_same_tournament(&args.results).map_err(CliError::input)?;
    let identity = stats::Identity::of(&headers);
    let variant = identity.as_ref().map(|i| i.variant);
    let sprt_pair = match (&args.sprt, &identity) {
        (None, _) => None,
        (Some(_), Some(identity)) => {
            let names: Vec<&str> = identity.bots.iter().map(|b| b.name.as_str()).collect();
            Some(
                sprt_pair(&names, &headers[0].format, &args.sprt_pair)
                    .map_err(CliError::input)?,
            )
        }
        (Some(_), None) => Some(args.sprt_pair.clone().ok_or_else(|| {
            CliError::input(
                "--sprt: the results have no header (written by an older take5) to name the pool's bots: name the two to test with --sprt-pair BOT,OTHER",
            )
        })?),
    };
    let mut acc = match (&args.sprt, &sprt_pair) {
        (Some(test), Some((a, b))) => stats::Accumulator::with_sprt(*test, a, b),
        _ => stats::Accumulator::default(),
    }
    .of_variant(variant);
    let mut times = Times::default();
    let mut dropouts = Dropouts::default();
    // The HTML report draws every game (ratings over the games): only it holds them all.
    let mut all: Vec<GameResult> = Vec::new();
    stream::merge(&args.results, args.window, |result| {
        if args.html {
            all.push(result.clone());
            return;
        }
        // Times of the games counted, as every other figure.
        if acc.add(result) && args.times {
            times.add(result);
        }
        dropouts.add(result);
    })
    .map_err(CliError::input)?;
    if args.html {
        let anchor = match &args.anchor {
            Some((spec, elo)) => {
                let mut names: Vec<String> = Vec::new();
                for name in all.iter().flat_map(|r| &r.seating) {
                    if !names.contains(name) {
                        names.push(name.clone());
                    }
                }
                let players = identity
                    .iter()
                    .flat_map(|i| &i.bots)
                    .map(|b| (b.name.as_str(), b.player.as_str()));
                Some(ratings::Anchor {
                    bot: anchor_bot(spec, &names, players).map_err(CliError::input)?,
                    elo: *elo,
                })
            }
            None => None,
        };
        let page =
            crate::show::tournament_report::page(&all, acc, identity.as_ref(), anchor.as_ref());
        write!(io::stdout().lock(), "{page}")?;
        return Ok(Status::Passed);
    }
    let stats = acc.finish();
    if let Some((a, b)) = &sprt_pair {
        for name in [a, b] {
            if !stats.bots.iter().any(|bot| &bot.name == name) {
                return Err(CliError::input(format!(
                    "--sprt-pair: no bot named `{name}` in the results"
                )));
            }
        }
    }
    let times = args.times.then(|| times.finish());
    print(
        &mut io::stdout().lock(),
        &stats,
        args.format,
        &told(identity.as_ref()),
        times.as_deref(),
        &dropouts,
    )?;
    Ok(Status::Passed)
}

/// `take5 stats --ratings`: the rating list over the files. Files of one tournament (shards)
/// are merged as for the statistics; files of different tournaments each add their games, a
/// bot known by its name (which must be the same player in every header that has it).
fn print_ratings(args: &StatsArgs) -> Result<Status, CliError> {
    // The files by tournament, in the order first seen; a file without a header alone.
    let mut groups: Vec<(Option<results::Header>, Vec<PathBuf>)> = Vec::new();
    // Each name's player and the file whose header said it first.
    let mut players: Vec<(String, String, &Path)> = Vec::new();
    for path in &args.results {
        let header = results::read_header(path).map_err(CliError::input)?;
        if let Some(header) = &header {
            for bot in &header.pool {
                match players.iter().find(|(name, _, _)| name == &bot.name) {
                    Some((_, player, first)) if player != &bot.player => {
                        return Err(CliError::input(format!(
                            "a rating list knows a bot by its name, but `{}` is `{player}` in {} and `{}` in {}: rename one of them",
                            bot.name,
                            first.display(),
                            bot.player,
                            path.display()
                        )));
                    }
                    Some(_) => {}
                    None => players.push((bot.name.clone(), bot.player.clone(), path)),
                }
            }
        }
        let same = groups.iter_mut().find(|(h, _)| match (h, &header) {
            (Some(h), Some(header)) => h.differs(header, &["take5", "shard", "event"]).is_none(),
            _ => false,
        });
        match same {
            Some((_, paths)) => paths.push(path.clone()),
            None => groups.push((header, vec![path.clone()])),
        }
    }
    let mut games = ratings::Games::default();
    for (_, paths) in &groups {
        stream::merge(paths, args.window, |result| games.add(result)).map_err(CliError::input)?;
    }
    let anchor = match &args.anchor {
        Some((spec, elo)) => Some(ratings::Anchor {
            bot: anchor_bot(
                spec,
                games.names(),
                players.iter().map(|(n, p, _)| (n.as_str(), p.as_str())),
            )
            .map_err(CliError::input)?,
            elo: *elo,
        }),
        None => None,
    };
    let list = games.rate(anchor.as_ref()).map_err(CliError::input)?;
    let mut out = io::stdout().lock();
    match args.format {
        Format::Table => write!(
            out,
            "{} of {}\n{}",
            count(groups.len(), "tournament"),
            count(args.results.len(), "results file"),
            visible_lines(&list.table())
        )?,
        Format::Json => {
            let mut value = serde_json::to_value(&list).expect("ratings serialize");
            value["tournaments"] = groups.len().into();
            value["method"] = list.method().into();
            super::write_json(&mut out, &value)?;
        }
        Format::Csv => write!(out, "{}", visible_lines(&list.csv()))?,
    }
    Ok(Status::Passed)
}

/// The bot `--anchor` names: a bot of the results by its name, or the one bot whose player
/// (in the results' headers) is `spec`.
fn anchor_bot<'a>(
    spec: &str,
    names: &[String],
    players: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<String, String> {
    if names.iter().any(|n| n == spec) {
        return Ok(spec.to_string());
    }
    let playing: Vec<&str> = players
        .filter(|&(name, player)| player == spec && names.iter().any(|n| n == name))
        .map(|(name, _)| name)
        .collect();
    match playing[..] {
        [one] => Ok(one.to_string()),
        [] => Err(format!(
            "--anchor: no bot named `{spec}`, nor playing it, in the results ({})",
            names.join(", ")
        )),
        _ => Err(format!(
            "--anchor: {} bots play `{spec}` ({}): name one of them",
            playing.len(),
            playing.join(", ")
        )),
    }
}

/// What the report says of the tournament: what its header says, or that it has none.
pub(super) fn told(identity: Option<&stats::Identity>) -> stats::Told<'_> {
    match identity {
        Some(identity) => stats::Told::Known(identity),
        None => stats::Told::Unknown,
    }
}

/// Refuses results files of different tournaments (shards of one tournament are the same
/// tournament), naming the field that differs; warns of files without a header. The headers
/// found, in the order of the files.
fn check_same_tournament(paths: &[PathBuf]) -> Result<Vec<results::Header>, String> {
    let mut first: Option<(&Path, results::Header)> = None;
    let mut headers = Vec::new();
    for path in paths {
        let Some(header) = results::read_header(path)? else {
            eprintln!(
                "take5: warning: {}: no header (written by an older take5): whether its games are of the same tournament as the others is checked game by game only",
                visible(&path.display().to_string())
            );
            continue;
        };
        headers.push(header.clone());
        match &first {
            None => first = Some((path, header)),
            Some((first_path, first_header)) => {
                if let Some((field, theirs, ours)) =
                    first_header.differs(&header, &["take5", "shard", "event"])
                {
                    return Err(format!(
                        "{} and {} are results of different tournaments: `{field}` is {theirs} in the first, {ours} in the second",
                        first_path.display(),
                        path.display()
                    ));
                }
            }
        }
    }
    Ok(headers)
}

/// Set by the first Ctrl-C: the jobs start no new game.
pub(super) static STOP: AtomicBool = AtomicBool::new(false);

/// The first Ctrl-C (SIGINT) stops the run cleanly: the games under way finish and are written,
/// no other starts. A second one kills the bots and ends the process at once, as in `take5 play`.
/// SIGTERM and SIGHUP keep `take5 play`'s handling (kill the bots, end at once).
pub(super) fn stop_on_interrupt() {
    extern "C" fn on_interrupt(_signal: libc::c_int) {
        if STOP.swap(true, Ordering::SeqCst) {
            // Only async-signal-safe calls: the handler of `take5 play` is put back (with
            // `signal`), and it gets this second SIGINT as soon as this handler returns.
            crate::players::process::live_groups::kill_bots_on_signal();
            // SAFETY: a plain system call, allowed in a signal handler.
            unsafe { libc::raise(libc::SIGINT) };
        }
    }
    // SAFETY: installs a handler that only makes async-signal-safe calls.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as *const () as libc::sighandler_t,
        )
    };
}

/// Games done (those of the results file included) out of the whole tournament (or shard), the
/// rate, the time elapsed and the time left, on stderr: a line redrawn in place on a terminal
/// (five times a second at most), else a plain line every ten seconds; and a final line.
pub(super) struct Progress {
    total: u64,
    /// Games found in the results file when the run started.
    resumed: u64,
    done: u64,
    start: Instant,
    shown: Instant,
    terminal: bool,
    /// Said after the rest (the sequential test's LLR and bounds).
    pub(super) note: Option<String>,
    /// Whether a line was shown yet (a short match of `take5 play` shows none).
    any_shown: bool,
    /// Shows nothing (`take5 tune`'s iterations say a line each of their own instead).
    quiet: bool,
}

impl Progress {
    pub(super) fn new(total: u64, resumed: u64) -> Progress {
        let now = Instant::now();
        Progress {
            total,
            resumed,
            done: resumed,
            start: now,
            shown: now,
            terminal: std::io::stderr().is_terminal(),
            note: None,
            any_shown: false,
            quiet: false,
        }
    }

    /// The same progress, shown or not (`shown` false: nothing is printed).
    pub(super) fn shown(self, shown: bool) -> Progress {
        Progress {
            quiet: !shown,
            ..self
        }
    }

    pub(super) fn game_done(&mut self) {
        self.done += 1;
        let every = if self.terminal {
            Duration::from_millis(200)
        } else {
            Duration::from_secs(10)
        };
        if self.shown.elapsed() >= every {
            self.shown = Instant::now();
            self.show();
        }
    }

    fn line(&self) -> String {
        let line = progress_line(
            self.done,
            self.total,
            self.done - self.resumed,
            self.start.elapsed(),
        );
        match &self.note {
            Some(note) => format!("{line}, {note}"),
            None => line,
        }
    }

    fn show(&mut self) {
        if self.quiet {
            return;
        }
        self.any_shown = true;
        if self.terminal {
            eprint!("\r\x1b[K{}", self.line());
        } else {
            eprintln!("take5: {}", self.line());
        }
    }

    /// Clears a redrawn line, so that a message can be printed in its place.
    fn clear(&self) {
        if self.terminal && !self.quiet {
            eprint!("\r\x1b[K");
        }
    }

    /// The last line: where the run ended.
    /// Whether a progress line was shown during the run.
    pub(super) fn any_shown(&self) -> bool {
        self.any_shown
    }

    pub(super) fn finish(&self, interrupted: bool) {
        if self.quiet {
            return;
        }
        self.clear();
        let end = if interrupted { "stopped" } else { "done" };
        eprintln!("take5: {end}: {}", self.line());
    }
}

/// `done/total games (P%), R games/s, elapsed E, left L`: the rate is of the games played this
/// run (`played` in `elapsed`), with three significant digits from 0.001 to millions a second.
fn progress_line(done: u64, total: u64, played: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        played as f64 / secs
    } else {
        0.0
    };
    let left = if done >= total {
        duration(0.0)
    } else if rate > 0.0 {
        duration((total - done) as f64 / rate)
    } else {
        "?".to_string()
    };
    let percent = if total == 0 {
        100.0
    } else {
        100.0 * done as f64 / total as f64
    };
    format!(
        "{done}/{total} games ({percent:.1}%), {} games/s, elapsed {}, left {left}",
        significant(rate),
        duration(secs)
    )
}

/// `x` with three significant digits (no exponent): 0.000312, 0.312, 31.2, 312, 31200.
fn significant(x: f64) -> String {
    if x <= 0.0 || !x.is_finite() {
        return "0".to_string();
    }
    let digits = (2 - x.log10().floor() as i32).max(0) as usize;
    format!("{x:.digits$}")
}

/// Seconds as `1h02m03s`, `2m03s` or `3.4s`.
pub(super) fn duration(secs: f64) -> String {
    if secs < 60.0 {
        return format!("{secs:.1}s");
    }
    let s = secs.round() as u64;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}h{m:02}m{s:02}s")
    } else {
        format!("{m}m{s:02}s")
    }
}

/// Prints the statistics, with what the tournament was (`told`: a block of the table, a
/// `tournament` key of the JSON, null where the results have no header), and with `times` the
/// bots' decision times: a section of the table, a `times` key of the JSON, columns of the
/// CSV; and the bots taken out, if any: lines after the table, a `dropouts` key of the JSON,
/// lines on stderr with the CSV. The bots' names (from a results file, say) are made
/// [`visible_lines`] in the table and the CSV.
pub(super) fn print(
    out: &mut impl Write,
    stats: &stats::Stats,
    format: Format,
    told: &stats::Told,
    times: Option<&[BotTimes]>,
    dropouts: &Dropouts,
) -> io::Result<()> {
    match format {
        Format::Table => {
            write!(out, "{}", visible_lines(&stats.report(told, times)))?;
            if !dropouts.is_empty() {
                write!(out, "\n{}", visible_lines(&dropout_lines(dropouts)))?;
            }
        }
        Format::Json => {
            let mut value = serde_json::to_value(stats).expect("stats serialize");
            if let serde_json::Value::Object(map) = &mut value {
                let identity = match told {
                    stats::Told::Nothing => None,
                    stats::Told::Unknown => Some(serde_json::Value::Null),
                    stats::Told::Known(identity) => {
                        Some(serde_json::to_value(identity).expect("identity serialize"))
                    }
                };
                if let Some(identity) = identity {
                    map.insert("tournament".to_string(), identity);
                }
                if let Some(times) = times {
                    map.insert(
                        "times".to_string(),
                        serde_json::to_value(times).expect("times serialize"),
                    );
                }
                if !dropouts.is_empty() {
                    map.insert(
                        "dropouts".to_string(),
                        serde_json::to_value(dropouts).expect("dropouts serialize"),
                    );
                }
            }
            super::write_json(out, &value)?;
        }
        Format::Csv => {
            // The CSV stays one table: the dropouts are said beside it.
            for line in dropout_lines(dropouts).lines() {
                eprintln!("take5: {}", visible(line));
            }
            let csv = stats.csv();
            let csv = visible_lines(&csv);
            let Some(times) = times else {
                return write!(out, "{csv}");
            };
            // One row per bot, in the order of `stats.bots`: the times go at the ends (the least
            // time left on a clock too, when a bot had one).
            let clocked = times.iter().any(|t| t.least_left_ms.is_some());
            for (i, line) in csv.lines().enumerate() {
                let left = |t: Option<&BotTimes>| match (clocked, t.and_then(|t| t.least_left_ms)) {
                    (false, _) => String::new(),
                    (true, Some(ms)) => format!(",{ms}"),
                    (true, None) => ",".to_string(),
                };
                let extra = match i {
                    0 => format!(
                        ",decisions,mean_ms,p95_ms,max_ms{}",
                        if clocked { ",least_left_ms" } else { "" }
                    ),
                    _ => {
                        let t = (stats.bots.get(i - 1))
                            .and_then(|b| times.iter().find(|t| t.name == b.name));
                        t.map_or(",,,,".to_string(), |t| {
                            format!(",{},{},{},{}", t.decisions, t.mean_ms, t.p95_ms, t.max_ms)
                        }) + &left(t)
                    }
                };
                writeln!(out, "{line}{extra}")?;
            }
        }
    }
    Ok(())
}

/// A line per bot taken out of the tournament: since when, and that its figures include the
/// fallback's games.
fn dropout_lines(dropouts: &Dropouts) -> String {
    dropouts
        .list()
        .iter()
        .map(|d| d.sentence() + "\n")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_values_parse() {
        assert_eq!(
            parse_tables("round-robin").unwrap(),
            config::Format::RoundRobin
        );
        assert_eq!(
            parse_tables("gauntlet:py").unwrap(),
            config::Format::Gauntlet { bot: "py".into() }
        );
        assert_eq!(
            parse_tables("random:7").unwrap(),
            config::Format::Random { tables: 7 }
        );
        for bad in ["roundrobin", "gauntlet:", "random:x", "random"] {
            assert!(parse_tables(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_seatings("permutations").unwrap(),
            config::Seatings::Permutations
        );
        assert!(parse_seatings("rotation").is_err());
    }

    #[test]
    fn the_progress_line_reads_at_any_rate() {
        assert_eq!(significant(0.3), "0.300");
        assert_eq!(significant(0.000312), "0.000312");
        assert_eq!(significant(31.24), "31.2");
        assert_eq!(significant(100_000.0), "100000");
        assert_eq!(significant(0.0), "0");
        assert_eq!(duration(3.44), "3.4s");
        assert_eq!(duration(123.0), "2m03s");
        assert_eq!(duration(3723.0), "1h02m03s");
        // 30 games resumed, 3 played in 10 s: 0.3 games/s, 67 to go.
        assert_eq!(
            progress_line(33, 100, 3, Duration::from_secs(10)),
            "33/100 games (33.0%), 0.300 games/s, elapsed 10.0s, left 3m43s"
        );
        assert_eq!(
            progress_line(100, 100, 0, Duration::from_millis(5)),
            "100/100 games (100.0%), 0 games/s, elapsed 0.0s, left 0.0s"
        );
        assert_eq!(
            progress_line(1, 4, 0, Duration::ZERO),
            "1/4 games (25.0%), 0 games/s, elapsed 0.0s, left ?"
        );
    }
}
