//! `take5 tune` (docs/tuning.md): a bot's parameters tuned by SPSA, each iteration a small
//! tournament on fresh duplicate deals; then the tuned values against the start.

use super::tournament::{
    Format, Games, STOP, duration, games_to_play, play_games, print, stop_on_interrupt, told,
};
use super::{CliError, Status};
use crate::tournament::config::Tournament;
use crate::tournament::paired::PairStats;
use crate::tournament::sprt::Sprt;
use crate::tournament::stats::{self, Stats};
use crate::tournament::{Dropouts, Run, results};
use crate::tune::state::{self, Step};
use crate::tune::{MINUS, Outcome, PLUS, START, TUNED, Tune};
use crate::visible::{visible, visible_lines};
use crate::words::count;
use clap::Args;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The tuning: a YAML file (docs/tuning.md): the player with `{name}` where each
    /// parameter's value goes, the parameters (min, max, start, integer), the opponents at the
    /// table, the seed, the iterations and the deals of each, the SPSA gains.
    config: PathBuf,
    /// The run's folder: its state (state.jsonl, a line per iteration), each iteration's games
    /// (iteration-K.jsonl, results files as `take5 tournament` writes them), the
    /// verification's (verify.jsonl), the trajectory (trajectory.txt) and its page
    /// (tune.html); by default CONFIG with `.tune`.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Continue a run from its folder: the iterations finished are not played again, nor the
    /// games already played of the one under way; the thetas are the same as an unbroken run's.
    #[arg(long)]
    resume: bool,
    /// Games played at once, each on its own thread with its own process of each command bot
    /// (default: the number of cores). The thetas do not depend on it.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    jobs: Option<u64>,
    /// At the end, play the tuned values against the start over N deals (each in every
    /// seating) and print the paired statistics: the config's `verify` (0: none).
    #[arg(long, value_name = "N")]
    verify: Option<u64>,
    /// With the verification: a sequential test of tuned against start, which ends it as soon
    /// as it decides: `elo0=E,elo1=E[,alpha=P,beta=P]`, as for `take5 tournament --sprt`.
    #[arg(long, value_name = "SETTINGS", value_parser = Sprt::parse)]
    sprt: Option<Sprt>,
}

/// The files of a run in its folder.
fn state_path(out: &Path) -> PathBuf {
    out.join("state.jsonl")
}

/// Iteration `k`'s (from 0) results file: `iteration-0001.jsonl`, numbered from 1, with as
/// many digits as the last one needs (four at least), so the files sort in order.
fn iteration_path(out: &Path, k: u64, iterations: u64) -> PathBuf {
    let width = iterations.to_string().len().max(4);
    out.join(format!("iteration-{:0width$}.jsonl", k + 1))
}

pub fn run(args: &TuneArgs) -> Result<Status, CliError> {
    crate::players::process::live_groups::kill_bots_on_signal();
    let tune = crate::tune::config::load(&args.config).map_err(CliError::input)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.config.with_extension("tune"));
    let verify = args.verify.unwrap_or(tune.verify);
    if args.sprt.is_some() && verify == 0 {
        return Err(CliError::input(
            "--sprt tests the verification of the tuned values against the start: give it deals with --verify N (or the config's `verify`)",
        ));
    }
    std::fs::create_dir_all(&out)
        .map_err(|e| CliError::input(format!("cannot create {}: {e}", out.display())))?;
    let path = state_path(&out);
    let mut opened =
        state::open(&path, args.resume, &state::Header::of(&tune)).map_err(CliError::input)?;
    let mut theta = tune
        .replay(&opened.steps)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let done = opened.steps.len() as u64;
    let games = tune.deals
        * tune
            .iteration_tournament(&tune.iteration(0, &theta))
            .map_err(CliError::input)?
            .arrangements();
    eprintln!(
        "take5: tuning {} over {} of {} ({} each) at {} seats, {} to play on {}, in {}",
        tune.params
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        count(tune.iterations, "iteration"),
        count(tune.deals, "deal"),
        count(games, "game"),
        tune.seats(),
        count(tune.iterations - done.min(tune.iterations), "iteration"),
        count(jobs, "job"),
        visible(&out.display().to_string())
    );
    stop_on_interrupt();
    let start = Instant::now();
    for k in done..tune.iterations {
        let iteration = tune.iteration(k, &theta);
        let tournament = tune
            .iteration_tournament(&iteration)
            .map_err(CliError::input)?;
        let results = iteration_path(&out, k, tune.iterations);
        let Some(stats) = play_file(&tournament, &results, args.resume, jobs, None, false)? else {
            write_page(&tune, &opened.steps, None, &out)?;
            return Err(interrupted(&tune, k));
        };
        let outcome = Outcome::of(&stats, PLUS, MINUS).expect("plus and minus share the table");
        let step = tune.step(&iteration, &outcome);
        state::append(&mut opened.file, &step)
            .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))?;
        theta = step.next.clone();
        let elapsed = start.elapsed().as_secs_f64();
        let played = (k + 1 - done) as f64;
        let left = elapsed / played * (tune.iterations - k - 1) as f64;
        eprintln!(
            "take5: iteration {}/{}: plus {} against minus {}: {} of the points, {:+.2} a game; now {}; elapsed {}, left {}",
            k + 1,
            tune.iterations,
            tune.values_text(&step.sides.plus),
            tune.values_text(&step.sides.minus),
            percent(&step.outcome),
            step.outcome.difference,
            theta_text(&tune, &theta),
            duration(elapsed),
            duration(left)
        );
        opened.steps.push(step);
    }
    let trajectory = trajectory(&tune, &opened.steps, usize::MAX);
    std::fs::write(out.join("trajectory.txt"), &trajectory)
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", out.display())))?;
    let mut stdout = io::stdout().lock();
    write!(stdout, "{}", summary(&tune, &opened.steps, &theta))?;
    let verified = if verify > 0 {
        let tournament = tune.verification(&theta, verify).map_err(CliError::input)?;
        let results = out.join("verify.jsonl");
        eprintln!(
            "take5: verification: tuned against start over {} ({}), results in {}",
            count(verify, "deal"),
            count(tournament.games(), "game"),
            visible(&results.display().to_string())
        );
        let Some(stats) = play_file(&tournament, &results, args.resume, jobs, args.sprt, true)?
        else {
            write_page(&tune, &opened.steps, None, &out)?;
            return Err(CliError {
                message: "interrupted in the verification: continue with --resume".to_string(),
                status: Status::Failed,
            });
        };
        let identity = stats::Identity::of(&[results::Header::of(&tournament, None)]);
        writeln!(stdout, "\nverification:")?;
        print(
            &mut stdout,
            &stats,
            Format::Table,
            &told(identity.as_ref()),
            None,
            &Dropouts::default(),
        )?;
        let pair = tuned_pair(&stats);
        let line = verdict(&pair, &stats);
        writeln!(stdout, "\n{line}")?;
        Some((line, pair))
    } else {
        None
    };
    write_page(&tune, &opened.steps, verified.as_ref(), &out)?;
    Ok(Status::Passed)
}

/// The error of a run stopped by Ctrl-C in iteration `k`.
fn interrupted(tune: &Tune, k: u64) -> CliError {
    CliError {
        message: format!(
            "interrupted in iteration {} of {}, the games under way finished; continue with --resume",
            k + 1,
            tune.iterations
        ),
        status: Status::Failed,
    }
}

/// The share of the points plus took from minus: `56.3%`.
fn percent(outcome: &Outcome) -> String {
    let points = outcome.ahead as f64 + outcome.level as f64 / 2.0;
    format!("{:.1}%", 100.0 * points / outcome.games as f64)
}

/// A value of theta for people: as many decimals as its range needs for four figures.
fn shown(tune: &Tune, i: usize, value: f64) -> String {
    let range = tune.params[i].range();
    let decimals = (3 - range.log10().floor() as i32).max(0) as usize;
    format!("{value:.decimals$}")
}

/// `rival 23.4, mix 71.0`.
fn theta_text(tune: &Tune, theta: &[f64]) -> String {
    tune.params
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{} {}", p.name, shown(tune, i, theta[i])))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The trajectory as a table: the start, then theta after each iteration with what plus took
/// from minus and their difference; at most about `rows` rows (every n-th iteration, and the
/// last).
fn trajectory(tune: &Tune, steps: &[Step], rows: usize) -> String {
    let every = steps.len().div_ceil(rows.max(1)).max(1);
    let widths: Vec<usize> = tune
        .params
        .iter()
        .map(|p| p.name.chars().count().max(8))
        .collect();
    let mut out = String::new();
    let _ = write!(out, "iteration  plus took  difference");
    for (p, w) in tune.params.iter().zip(&widths) {
        let _ = write!(out, "  {:>w$}", p.name);
    }
    out.push('\n');
    let row = |out: &mut String, iteration: usize, step: Option<&Step>, theta: &[f64]| {
        let (took, difference) = match step {
            Some(s) => (percent(&s.outcome), format!("{:+.2}", s.outcome.difference)),
            None => ("-".to_string(), "-".to_string()),
        };
        let _ = write!(out, "{iteration:>9}  {took:>9}  {difference:>10}");
        for (i, w) in widths.iter().enumerate() {
            let _ = write!(out, "  {:>w$}", shown(tune, i, theta[i]));
        }
        out.push('\n');
    };
    row(&mut out, 0, None, &tune.starts());
    for (i, step) in steps.iter().enumerate() {
        if (i + 1) % every == 0 || i + 1 == steps.len() {
            row(&mut out, i + 1, Some(step), &step.next);
        }
    }
    out
}

/// What stdout gets once the iterations are done: what was tuned, the trajectory (about 20
/// rows), the start and the tuned values, and the player they make.
fn summary(tune: &Tune, steps: &[Step], theta: &[f64]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "tune: {}, {} seats ({}), {} of {} (each in every seating), seed {}",
        tune.game.variant.name(),
        tune.seats(),
        std::iter::once("plus, minus".to_string())
            .chain(
                tune.opponents
                    .iter()
                    .map(|b| format!("{} {}", b.name, b.player_text()))
            )
            .collect::<Vec<_>>()
            .join(", "),
        count(tune.iterations, "iteration"),
        count(tune.deals, "deal"),
        tune.seed
    );
    let _ = writeln!(out, "player: {}", tune.template);
    let g = &tune.gains;
    let _ = writeln!(
        out,
        "gains: a {:.5}, c {}, A {}, alpha {}, gamma {}\n",
        g.a, g.c, g.big_a, g.alpha, g.gamma
    );
    out.push_str(&trajectory(tune, steps, 20));
    let played = tune.played(theta);
    let _ = writeln!(out, "\nstart: {}", tune.values_text(&tune.starts()));
    let _ = writeln!(out, "tuned: {}", tune.values_text(&played));
    let _ = writeln!(out, "tuned player: {}", tune.player_for(&played));
    visible_lines(&out).into_owned()
}

/// The pair tuned against start in the verification's statistics, tuned's side.
fn tuned_pair(stats: &Stats) -> PairStats {
    let pair = stats
        .pairs
        .iter()
        .find(|p| (p.bot == TUNED && p.other == START) || (p.bot == START && p.other == TUNED))
        .expect("tuned and start share the table");
    if pair.bot == TUNED {
        pair.clone()
    } else {
        pair.flipped()
    }
}

/// The verdict of the verification in a line: `tuned against start over 100 deals (400
/// games): -1.23 ±0.91 a game (penalty, lower is better), score 54.1%, Elo +28.6 [+5.1,
/// +52.3], LOS 99.6%`.
fn verdict(pair: &PairStats, stats: &Stats) -> String {
    let ci = pair
        .mean_difference_ci95
        .map_or(String::new(), |ci| format!(" ±{ci:.2}"));
    format!(
        "tuned against start over {} ({}): {:+.2}{ci} a game ({}), score {:.1}%, Elo {}, LOS {:.1}%",
        count(pair.deals, "deal"),
        count(pair.games, "game"),
        pair.mean_difference,
        stats.total_meaning(),
        100.0 * pair.score,
        pair.elo_text(),
        100.0 * pair.los
    )
}

/// Writes the run's page, `DIR/tune.html`.
fn write_page(
    tune: &Tune,
    steps: &[Step],
    verified: Option<&(String, PairStats)>,
    out: &Path,
) -> Result<(), CliError> {
    let page = crate::show::tune_report::page(tune, steps, verified);
    let path = out.join("tune.html");
    std::fs::write(&path, page)
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))
}

/// Plays `tournament`'s games into the results file at `path` (continued with `resume`: its
/// games are not played again) on `jobs` jobs, as `take5 tournament` does, with `sprt` a test of
/// its first two bots that ends it when it decides, and with `progress` the tournament's
/// progress lines; its statistics, or none when Ctrl-C stopped it. A bot taken out of it (after
/// failed starts) is an error: its results would be the fallback's.
fn play_file(
    tournament: &Tournament,
    path: &Path,
    resume: bool,
    jobs: usize,
    sprt: Option<Sprt>,
    progress: bool,
) -> Result<Option<Stats>, CliError> {
    let opened = results::open(path, resume, &results::Header::of(tournament, None))
        .map_err(CliError::input)?;
    let todo = games_to_play(tournament, path, None, &opened)?;
    let (a, b) = (&tournament.pool[0].name, &tournament.pool[1].name);
    let played = play_games(Games {
        tournament,
        path,
        opened,
        todo: &todo,
        shard: None,
        sprt: sprt.map(|test| (test, a.clone(), b.clone())),
        record: None,
        run: Run {
            jobs,
            log_io: None,
            record: None,
            record_format: crate::record::FORMAT,
            stop: &STOP,
        },
        progress,
        report_every: None,
    })?;
    if played.interrupted {
        return Ok(None);
    }
    if let Some(dropout) = played.dropouts.list().first() {
        return Err(CliError::input(format!(
            "{}: bot {} was taken out after failing to start {} times in a row: its games are the fallback's, so the tuning cannot go on (see its faults in the results)",
            path.display(),
            dropout.bot,
            crate::tournament::FAILED_STARTS
        )));
    }
    Ok(Some(played.in_order.finish()))
}
