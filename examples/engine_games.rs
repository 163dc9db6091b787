//! Plays a fixed number of in-process games (for profiling with callgrind or perf):
//! `cargo run --release --example engine_games -- 2000`, or with a house rules script:
//! `cargo run --release --example engine_games -- 2000 rules.lua`.

use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use take5::house::House;
use take5::players::Player;
use take5::players::builtin::{Builtin, Strategy};
use take5::referee::{MatchConfig, MatchHouse, play_match};
use take5::rules::Rules;
use take5::variants::Variant;

fn main() {
    let mut args = std::env::args().skip(1);
    let games = args.next().and_then(|n| n.parse().ok()).unwrap_or(2000);
    let mut config = MatchConfig {
        variant: Variant::Classic,
        rules: Arc::new(Rules::classic()),
        seed: 1,
        games,
        deals: Vec::new(),
        timeout: Duration::from_secs(1),
        clocks: Vec::new(),
        house: None,
        tournament: None,
    };
    if let Some(path) = args.next() {
        let house = House::load(&path).expect("a house rules script");
        config.rules = Arc::new(house.rules().clone());
        config.house = Some(MatchHouse {
            script: house.for_record(path),
            hooks: Rc::new(house),
        });
    }
    let mut players: Vec<Box<dyn Player>> = (0..4)
        .map(|_| Box::new(Builtin::new(Strategy::Random, 1)) as Box<dyn Player>)
        .collect();
    let mut bullheads = 0i64;
    let games = play_match(&config, &mut players, None, |r| {
        bullheads += i64::from(r.outcome.totals.iter().sum::<i32>());
        ControlFlow::Continue(())
    })
    .expect("a match");
    println!("{games} games, {bullheads} bullheads taken");
}
