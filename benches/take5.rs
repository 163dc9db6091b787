//! `cargo bench`: prints figures (never asserts a time; see README "Performance").
//!
//! - engine: 4-player classic games to 66 between built-in random bots, in-process, no record,
//!   through the real referee loop, on one core.

use std::sync::Arc;
use std::time::{Duration, Instant};
use take5::players::Player;
use take5::players::builtin::{Builtin, Strategy};
use take5::referee::{MatchConfig, play_match};
use take5::rules::Rules;
use take5::variants::Variant;

/// Runs `batch` repeatedly for about `budget` in five slices; returns the best slice's rate of
/// items per second (the least disturbed by whatever else the machine is doing).
fn rate(budget: Duration, mut batch: impl FnMut() -> u64) -> f64 {
    batch(); // warm up
    let mut best: f64 = 0.0;
    for _ in 0..5 {
        let start = Instant::now();
        let mut items = 0;
        while start.elapsed() < budget / 5 {
            items += batch();
        }
        best = best.max(items as f64 / start.elapsed().as_secs_f64());
    }
    best
}

fn engine_games_per_second(rules: Rules) -> f64 {
    let config = MatchConfig {
        variant: Variant::Classic,
        rules: Arc::new(rules),
        seed: 1,
        games: 200,
        deals: Vec::new(),
        timeout: Duration::from_secs(1),
        house: None,
    };
    let mut players: Vec<Box<dyn Player>> = (0..4)
        .map(|_| Box::new(Builtin::new(Strategy::Random, 1)) as Box<dyn Player>)
        .collect();
    rate(Duration::from_secs(3), || {
        play_match(&config, &mut players, None, |_| {}).expect("a match")
    })
}

fn main() {
    // `cargo bench` passes --bench; a filter argument selects benchmarks by name.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if wanted("engine") {
        let games = engine_games_per_second(Rules::classic());
        println!(
            "engine: {games:>10.0} games/s  (4 players, classic to 66, built-in random bots, one core, no record; target >= 150000)"
        );
    }
}
