//! Measures `builtin:mcs` on duplicate deals (docs/mcs.md). Two modes:
//!
//! `cargo run --release --example mcs_strength -- gauntlet [--held-out | --seeds FIRST]
//! [--deals N] [--mcs SPEC] [--only TEXT] [--quick]` runs the gauntlet
//! (`take5::tournament::gauntlet`): every table of issue 31 (classic at 2 to 6 seats, Pro,
//! Take a Number, the circle game and the anniversary variant at 2 and 4, the old target), the
//! measured player (`--mcs`, default `builtin:mcs`) against a pool of opponents of many styles,
//! on the tuning seeds (100 + the table's number) or, with `--held-out`, on the held-out seeds
//! (900 + it), for the final figures only. `--seeds FIRST` plays another range (table `i`
//! plays seed `FIRST + i`: a held-out range of its own, once the first held-out deals of a
//! table are spent, declared before it is run; after `--quick`, which plays the tuning seeds).
//! `--only TEXT` plays the tables whose name holds TEXT; `--quick` is the smoke test: one deal
//! a table, every search's budget a hundredth of its default. Per table and opponent: the
//! paired difference a game with its 95% interval; the measured player's CPU per decision.
//!
//! `cargo run --release --example mcs_strength -- VARIANT DEALS SEED PLAYER...`
//!
//! e.g. `cargo run --release --example mcs_strength -- classic 200 1 builtin:mcs builtin:dodger
//! builtin:random builtin:random`. The first player is the one measured, the second the one it
//! is measured against. Each deal is played once from every seat rotation (so every player
//! plays every deal from every seat); the paired difference is the first player's total minus
//! the second's, averaged over a deal's rotations, with the 95% interval over the deals. It
//! also prints how often the first ranked ahead of the second, and the first player's CPU time
//! per decision (one core's time, however loaded the machine is). With `PER_DEAL=FILE` in the
//! environment it also writes each deal's paired difference to FILE, a line a deal, to compare
//! two settings deal by deal on the same seed.

use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use take5::players::pipe::StartupLimit;
use take5::players::{Player, PlayerSpec};
use take5::referee::{MatchConfig, play_match};
use take5::tournament::gauntlet::{Clock, Timed};
use take5::variants::Variant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("gauntlet") {
        return gauntlet(&args[1..]);
    }
    let usage = "usage: mcs_strength VARIANT DEALS SEED PLAYER PLAYER [PLAYER...]";
    assert!(args.len() >= 5, "{usage}");
    let variant: Variant = clap::ValueEnum::from_str(&args[0], true).expect("a variant");
    let deals: u64 = args[1].parse().expect("DEALS: a number");
    let seed: u64 = args[2].parse().expect("SEED: a number");
    let specs = &args[3..];
    let seats = specs.len();
    let clock = Rc::new(Clock::default());
    let mut players: Vec<Box<dyn Player>> = specs
        .iter()
        .map(|spec| {
            let spec = PlayerSpec::parse(spec).expect("a player spec");
            spec.create(seed, StartupLimit::flag(Duration::from_secs(5)))
                .expect("a player")
        })
        .collect();
    let first = players.remove(0);
    players.insert(0, Box::new(Timed::new(first, clock.clone())));
    let config = MatchConfig {
        variant,
        rules: Arc::new(variant.rules()),
        seed,
        games: deals * seats as u64,
        deals: Vec::new(),
        timeout: Duration::from_secs(5),
        clocks: Vec::new(),
        house: None,
        tournament: None,
    };
    let high_wins = config.rules.circle.is_some();
    let mut per_deal = vec![0.0f64; deals as usize];
    let (mut ahead, mut tied, mut games) = (0u64, 0u64, 0u64);
    let mut totals = vec![0.0f64; seats];
    play_match(&config, &mut players, None, |report| {
        let seat_of = |p: usize| report.seating.iter().position(|&q| q == p).unwrap();
        let total = |p: usize| f64::from(report.outcome.totals[seat_of(p)]);
        for (p, sum) in totals.iter_mut().enumerate() {
            *sum += total(p);
        }
        let diff = total(0) - total(1);
        per_deal[(report.number / seats as u64) as usize] += diff / seats as f64;
        games += 1;
        let better = if high_wins { diff > 0.0 } else { diff < 0.0 };
        ahead += u64::from(better);
        tied += u64::from(diff == 0.0);
        ControlFlow::Continue(())
    })
    .expect("a match");
    if let Ok(path) = std::env::var("PER_DEAL") {
        let text: String = per_deal.iter().map(|d| format!("{d}\n")).collect();
        std::fs::write(path, text).unwrap();
    }
    let n = per_deal.len() as f64;
    let mean = per_deal.iter().sum::<f64>() / n;
    let var = per_deal.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    println!(
        "{variant:?}, {seats} seats, {deals} deals x {seats} rotations = {games} games, seed {seed}"
    );
    for (spec, sum) in specs.iter().zip(&totals) {
        println!("  {spec:<28} mean total {:7.2}", sum / games as f64);
    }
    println!(
        "  {} - {}: {mean:+.2} a game, 95% interval [{:+.2}, {:+.2}]",
        specs[0],
        specs[1],
        mean - half,
        mean + half
    );
    println!(
        "  {} ahead of {} in {:.1}% of games ({:.1}% tied)",
        specs[0],
        specs[1],
        100.0 * ahead as f64 / games as f64,
        100.0 * tied as f64 / games as f64
    );
    let (decisions, mean, slowest) = clock.figures();
    println!(
        "  {}: {decisions} decisions, {:.3} ms of CPU time each on average, slowest {:.3} ms",
        specs[0],
        mean.as_secs_f64() * 1000.0,
        slowest.as_secs_f64() * 1000.0
    );
}

/// The gauntlet mode (see the top of this file).
fn gauntlet(args: &[String]) {
    use take5::tournament::gauntlet::{HELD_OUT_SEEDS, Settings, TUNING_SEEDS, run_table, tables};
    let mut settings = Settings {
        measured: "builtin:mcs".to_string(),
        seeds: TUNING_SEEDS,
        deals: 20,
        scale: 1,
    };
    let mut only = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().expect("a value after the option").clone();
        match arg.as_str() {
            "--held-out" => settings.seeds = HELD_OUT_SEEDS,
            "--seeds" => settings.seeds = value().parse().expect("--seeds: a number"),
            "--quick" => settings = Settings::quick(&settings.measured),
            "--deals" => settings.deals = value().parse().expect("--deals: a number"),
            "--mcs" => settings.measured = value(),
            "--only" => only.push(value()),
            other => panic!("gauntlet: unknown option `{other}`"),
        }
    }
    let range = match settings.seeds {
        HELD_OUT_SEEDS => "held-out seeds".to_string(),
        TUNING_SEEDS => "tuning seeds".to_string(),
        first => format!("seeds from {first}"),
    };
    println!(
        "gauntlet of {}, {}, {} deals a table{}",
        settings.measured,
        range,
        settings.deals,
        if settings.scale > 1 {
            ", budgets cut (quick)"
        } else {
            ""
        }
    );
    let mut behind = Vec::new();
    for (i, table) in tables().iter().enumerate() {
        if !only.is_empty() && !only.iter().any(|o| table.name.contains(o.as_str())) {
            continue;
        }
        let result = run_table(table, i as u64, &settings).unwrap_or_else(|e| panic!("{e}"));
        print!("{}", result.text());
        if !result.ahead_of_all() {
            behind.push(result.name);
        }
    }
    println!("tables not won (an interval reaching 0 or beyond): {behind:?}");
}
