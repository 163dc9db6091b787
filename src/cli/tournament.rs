//! `take5 tournament` and `take5 stats` (docs/tournaments.md).

use super::{CliError, Status};
use crate::players::{GameStart, PlayerSpec};
use crate::tournament::results;
use crate::tournament::sprt::{Decision, Sprt};
use crate::tournament::{config, stats, stream};
use clap::{Args, ValueEnum};
use std::io::IsTerminal;
use std::path::PathBuf;
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
    /// The results file (one JSON line per game); by default CONFIG with `.results.jsonl`
    /// (needed without CONFIG).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Without CONFIG: a bot of the pool, `NAME=PLAYER` (PLAYER as for `take5 play --player`);
    /// repeat it for each bot.
    #[arg(long = "bot", value_name = "NAME=PLAYER", value_parser = parse_bot)]
    bots: Vec<(String, String)>,
    /// Without CONFIG: players at a table.
    #[arg(long, value_name = "N")]
    seats: Option<usize>,
    /// Without CONFIG: deals each table plays (default 1).
    #[arg(long, value_name = "N")]
    deals: Option<u64>,
    /// Without CONFIG: the variant (default classic).
    #[arg(long, value_enum)]
    variant: Option<crate::variants::Variant>,
    /// Without CONFIG: a house rules script.
    #[arg(long, value_name = "FILE")]
    house: Option<PathBuf>,
    /// Without CONFIG: the seed.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Without CONFIG: the time per decision (default 2000).
    #[arg(long, value_name = "MS")]
    timeout_ms: Option<u64>,
    /// Without CONFIG: which tables play: `round-robin`, `gauntlet:NAME` or `random:N` (the
    /// config file's `format`).
    #[arg(long, value_name = "TABLES", value_parser = parse_tables)]
    tables: Option<config::Format>,
    /// Without CONFIG: `rotations` (default) or `permutations`.
    #[arg(long, value_name = "SEATINGS", value_parser = parse_seatings)]
    seatings: Option<config::Seatings>,
    /// Write each game's lines to and from every command bot, and its stderr, into
    /// DIR/game-ID/NAME.log and DIR/game-ID/NAME.stderr.
    #[arg(long, value_name = "DIR")]
    log_io: Option<PathBuf>,
    /// Continue a run from its results file: the games in it are not played again.
    #[arg(long)]
    resume: bool,
    /// Games played at once, each on its own thread (default: the number of cores).
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    jobs: Option<u64>,
    /// How the statistics are printed.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
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

/// The pair `--sprt` tests in `tournament`: the one named, or the pool's two.
fn sprt_pair(
    tournament: &config::Tournament,
    named: &Option<(String, String)>,
) -> Result<(String, String), String> {
    let names: Vec<&str> = tournament.pool.iter().map(|b| b.name.as_str()).collect();
    let (a, b) = match named {
        Some(pair) => pair.clone(),
        None if names.len() == 2 => {
            let first = match &tournament.format {
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

/// `NAME=PLAYER`.
fn parse_bot(text: &str) -> Result<(String, String), String> {
    let (name, player) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not NAME=PLAYER (e.g. r=builtin:random)"))?;
    Ok((name.to_string(), player.to_string()))
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
    let flags_given = !args.bots.is_empty()
        || args.seats.is_some()
        || args.deals.is_some()
        || args.variant.is_some()
        || args.house.is_some()
        || args.seed.is_some()
        || args.timeout_ms.is_some()
        || args.tables.is_some()
        || args.seatings.is_some();
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
    if args.bots.is_empty() {
        return Err(usage(
            "give a tournament: CONFIG, or --bot NAME=PLAYER (several)",
        ));
    }
    let (Some(seats), Some(seed), Some(tables), Some(results)) =
        (args.seats, args.seed, &args.tables, &args.results)
    else {
        return Err(usage(
            "a tournament from flags needs --seats, --seed, --tables and --results",
        ));
    };
    let tournament = config::from_flags(config::Flags {
        bots: args.bots.clone(),
        seats,
        deals: args.deals.unwrap_or(1),
        variant: args.variant.unwrap_or(crate::variants::Variant::Classic),
        house: args.house.clone(),
        seed,
        timeout_ms: args.timeout_ms.unwrap_or(2000),
        format: tables.clone(),
        seatings: args.seatings.unwrap_or_default(),
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
    /// Lines of each file read ahead to put its games in order of id (a file further out of
    /// order is refused).
    #[arg(long, value_name = "LINES", default_value_t = stream::WINDOW)]
    window: usize,
    /// Run the sequential test of `take5 tournament --sprt` over the results, deal by deal
    /// (needs --sprt-pair).
    #[arg(long, value_name = "SETTINGS", value_parser = Sprt::parse, requires = "sprt_pair")]
    sprt: Option<Sprt>,
    /// The two bots of the test, `BOT,OTHER`.
    #[arg(long, value_name = "BOT,OTHER", value_parser = parse_pair, requires = "sprt")]
    sprt_pair: Option<(String, String)>,
}

pub fn run(args: &TournamentArgs) -> Result<Status, CliError> {
    crate::players::process::live_groups::kill_bots_on_signal();
    let (tournament, path) = tournament_of(args)?;
    let sprt = match args.sprt {
        Some(test) => {
            if args.shard.is_some() {
                return Err(CliError::input(
                    "--sprt decides from every game in order: it does not go with --shard",
                ));
            }
            let (a, b) = sprt_pair(&tournament, &args.sprt_pair).map_err(CliError::input)?;
            Some((test, a, b))
        }
        None if args.sprt_pair.is_some() => {
            return Err(CliError::input("--sprt-pair goes with --sprt"));
        }
        None => None,
    };
    let (file, done) = results::open(&path, args.resume).map_err(CliError::input)?;
    let total = tournament.games();
    let mut finished = vec![false; total as usize];
    for result in &done {
        let fits = result.game < total && {
            let game = tournament.game(result.game);
            let names: Vec<&str> = game
                .seating
                .iter()
                .map(|&b| tournament.pool[b].name.as_str())
                .collect();
            result.seating == names && result.deal == game.deal
        };
        let in_shard = args.shard.is_none_or(|(k, n)| result.game % n == k - 1);
        if !fits || !in_shard {
            return Err(CliError::input(format!(
                "{}: game {} is not one of this tournament's (another config, seed or shard?)",
                path.display(),
                result.game
            )));
        }
        finished[result.game as usize] = true;
    }
    let mut todo: Vec<u64> = (0..total)
        .filter(|&id| !finished[id as usize])
        .filter(|&id| args.shard.is_none_or(|(k, n)| id % n == k - 1))
        .collect();
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let shard = args
        .shard
        .map_or(String::new(), |(k, n)| format!(", shard {k}/{n}"));
    eprintln!(
        "take5: {} games ({} tables x {} deals x {} {}{shard}), {} to play on {jobs} job{}, results in {}",
        total,
        tournament.tables.len(),
        tournament.deals,
        tournament.arrangements(),
        match tournament.seatings {
            config::Seatings::Rotations => "rotations",
            config::Seatings::Permutations => "permutations",
        },
        todo.len(),
        if jobs == 1 { "" } else { "s" },
        path.display()
    );
    if !todo.is_empty() {
        check_handshakes(&tournament).map_err(CliError::input)?;
    }
    let stop = &STOP;
    stop_on_interrupt();
    // The file and the results so far, shared by the jobs: a line is written whole, in one
    // call, under the lock.
    // Statistics are built as the games come, in order of id, so the memory stays flat.
    let (first, step) = args.shard.map_or((0, 1), |(k, n)| (k - 1, n));
    let acc = match &sprt {
        Some((test, a, b)) => stats::Accumulator::with_sprt(*test, a, b),
        None => stats::Accumulator::default(),
    };
    let mut in_order = stats::InOrder::with(first, step, total, tournament.arrangements(), acc);
    for result in done {
        in_order.push(result);
    }
    let decided = |in_order: &stats::InOrder| {
        in_order
            .accumulator()
            .decision()
            .is_some_and(|d| d != Decision::Continue)
    };
    if decided(&in_order) {
        // A test that decided in an earlier run: nothing more to play.
        todo.clear();
    }
    let shared = Mutex::new((file, in_order, Progress::new(todo.len() as u64)));
    crate::tournament::play(
        &tournament,
        &todo,
        jobs,
        args.log_io.as_deref(),
        stop,
        |result| {
            let mut guard = shared.lock().unwrap_or_else(|p| p.into_inner());
            let (file, in_order, progress) = &mut *guard;
            results::append(file, &result)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            in_order.push(result);
            if decided(in_order) {
                // The games under way finish and are written; no other starts.
                stop.store(true, Ordering::SeqCst);
            }
            progress.note = in_order.accumulator().sprt_line();
            progress.game_done();
            Ok(())
        },
    )
    .map_err(CliError::input)?;
    let (_, in_order, progress) = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    progress.finish();
    if stop.load(Ordering::SeqCst) && !decided(&in_order) {
        return Err(CliError {
            message: format!(
                "interrupted: {} of {} games played this run, the games under way finished; continue with --resume",
                progress.done,
                todo.len()
            ),
            status: Status::Failed,
        });
    }
    print(&in_order.finish(), args.format);
    Ok(Status::Passed)
}

pub fn run_stats(args: &StatsArgs) -> Result<Status, CliError> {
    let mut acc = match (&args.sprt, &args.sprt_pair) {
        (Some(test), Some((a, b))) => stats::Accumulator::with_sprt(*test, a, b),
        _ => stats::Accumulator::default(),
    };
    stream::merge(&args.results, args.window, |result| acc.add(result)).map_err(CliError::input)?;
    let stats = acc.finish();
    if let Some((a, b)) = &args.sprt_pair {
        for name in [a, b] {
            if !stats.bots.iter().any(|bot| &bot.name == name) {
                return Err(CliError::input(format!(
                    "--sprt-pair: no bot named `{name}` in the results"
                )));
            }
        }
    }
    print(&stats, args.format);
    Ok(Status::Passed)
}

/// Set by the first Ctrl-C: the jobs start no new game.
static STOP: AtomicBool = AtomicBool::new(false);

/// The first Ctrl-C (SIGINT) stops the run cleanly: the games under way finish and are written,
/// no other starts. A second one kills the bots and ends the process at once, as in `take5 play`.
/// SIGTERM and SIGHUP keep `take5 play`'s handling (kill the bots, end at once).
fn stop_on_interrupt() {
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

/// Starts every command bot of the pool once and greets it, as a game would: a bot that cannot
/// start or fails its handshake stops the tournament before its first game, named.
fn check_handshakes(tournament: &config::Tournament) -> Result<(), String> {
    for bot in &tournament.pool {
        let PlayerSpec::Command(command) = &bot.player else {
            continue;
        };
        let failed = |why: String| format!("bot {} (`{command}`): {why}", bot.name);
        let launch = crate::players::Launch {
            dir: bot.dir.clone(),
            log: None,
        };
        let mut player = bot
            .player
            .create_with(tournament.seed, bot.timeout, &launch)
            .map_err(failed)?;
        let start = GameStart {
            number: 0,
            variant: tournament.variant,
            rules: &tournament.rules,
            seats: tournament.seats,
            seat: 0,
        };
        let result = player.start_game(&start);
        player.finish();
        result.map_err(|fault| failed(format!("fails its handshake: {fault}")))?;
    }
    Ok(())
}

/// Games done, rate and time left on stderr: a line redrawn in place on a terminal (five times a
/// second at most), else a plain line every ten seconds.
pub(super) struct Progress {
    todo: u64,
    done: u64,
    start: Instant,
    shown: Instant,
    terminal: bool,
    /// Said after the rest (the sequential test's LLR and bounds).
    note: Option<String>,
}

impl Progress {
    pub(super) fn new(todo: u64) -> Progress {
        let now = Instant::now();
        Progress {
            todo,
            done: 0,
            start: now,
            shown: now,
            terminal: std::io::stderr().is_terminal(),
            note: None,
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
        let secs = self.start.elapsed().as_secs_f64();
        let rate = self.done as f64 / secs.max(1e-9);
        let left = (self.todo - self.done) as f64 / rate.max(1e-9);
        let note = self
            .note
            .as_ref()
            .map_or(String::new(), |n| format!(", {n}"));
        format!(
            "{}/{} games, {rate:.1} games/s, {:.0}s left{note}",
            self.done, self.todo, left
        )
    }

    fn show(&self) {
        if self.terminal {
            eprint!("\r\x1b[K{}", self.line());
        } else {
            eprintln!("take5: {}", self.line());
        }
    }

    pub(super) fn finish(&self) {
        if self.terminal && self.done > 0 {
            eprintln!("\r\x1b[K{}", self.line());
        }
    }
}

fn print(stats: &stats::Stats, format: Format) {
    match format {
        Format::Table => print!("{}", stats.table()),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(stats).expect("stats serialize")
        ),
        Format::Csv => print!("{}", stats.csv()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_values_parse() {
        assert_eq!(
            parse_bot("py=python3 bot.py --x=1").unwrap(),
            ("py".to_string(), "python3 bot.py --x=1".to_string())
        );
        assert!(parse_bot("builtin:random").is_err());
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
}
