//! Measures `builtin:mcs` against `builtin:dodger` on duplicate deals (docs/mcs.md):
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

use std::cell::Cell;
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use take5::game::{Action, Event, Outcome, Seat, View};
use take5::players::pipe::StartupLimit;
use take5::players::{Answer, Legality, Player, PlayerSpec};
use take5::referee::{MatchConfig, play_match};
use take5::seat::GameStart;
use take5::variants::Variant;

/// A player that counts its decisions and the time they took.
struct Timed {
    inner: Box<dyn Player>,
    decisions: Rc<Cell<u64>>,
    time: Rc<Cell<Duration>>,
    slowest: Rc<Cell<Duration>>,
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
    fn decide(&mut self, view: &View, legal: Legality, limit: Duration) -> Answer<Action> {
        let start = cpu_time();
        let answer = self.inner.decide(view, legal, limit);
        let took = cpu_time().saturating_sub(start);
        self.decisions.set(self.decisions.get() + 1);
        self.time.set(self.time.get() + took);
        self.slowest.set(self.slowest.get().max(took));
        answer
    }
    fn end_game(&mut self, outcome: &Outcome) {
        self.inner.end_game(outcome)
    }
}

/// The CPU time this thread has used: a decision's cost on one core, whatever else the
/// machine is doing.
fn cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given; the clock id is a constant.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: mcs_strength VARIANT DEALS SEED PLAYER PLAYER [PLAYER...]";
    assert!(args.len() >= 5, "{usage}");
    let variant: Variant = clap::ValueEnum::from_str(&args[0], true).expect("a variant");
    let deals: u64 = args[1].parse().expect("DEALS: a number");
    let seed: u64 = args[2].parse().expect("SEED: a number");
    let specs = &args[3..];
    let seats = specs.len();
    let decisions = Rc::new(Cell::new(0));
    let time = Rc::new(Cell::new(Duration::ZERO));
    let slowest = Rc::new(Cell::new(Duration::ZERO));
    let mut players: Vec<Box<dyn Player>> = specs
        .iter()
        .map(|spec| {
            let spec = PlayerSpec::parse(spec).expect("a player spec");
            spec.create(seed, StartupLimit::flag(Duration::from_secs(5)))
                .expect("a player")
        })
        .collect();
    let first = players.remove(0);
    players.insert(
        0,
        Box::new(Timed {
            inner: first,
            decisions: decisions.clone(),
            time: time.clone(),
            slowest: slowest.clone(),
        }),
    );
    let config = MatchConfig {
        variant,
        rules: Arc::new(variant.rules()),
        seed,
        games: deals * seats as u64,
        deals: Vec::new(),
        timeout: Duration::from_secs(5),
        house: None,
        tournament: None,
    };
    let high_wins = variant == Variant::Circle;
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
    let d = decisions.get().max(1);
    println!(
        "  {}: {} decisions, {:.3} ms of CPU time each on average, slowest {:.3} ms",
        specs[0],
        d,
        time.get().as_secs_f64() * 1000.0 / d as f64,
        slowest.get().as_secs_f64() * 1000.0
    );
}
