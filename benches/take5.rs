//! `cargo bench`: prints figures (never asserts a time; see README "Performance").
//!
//! - engine: 4-player classic games to 66 between built-in random bots, in-process, no record,
//!   through the real referee loop, on one core.
//! - house: the same games with a house rule script (src/house): one with settings only (the
//!   classic values, so the games are the same), one with a `row_taken` hook called at every
//!   take (a rule that never fires in classic games, so again the games are the same), and one
//!   whose `row_taken` hook recomputes the row's bullheads card by card with `t.bullheads`.

use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use take5::house::House;
use take5::players::Player;
use take5::players::builtin::{Builtin, Strategy};
use take5::referee::{MatchConfig, MatchHouse, play_match};
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

fn engine_games_per_second(rules: Rules, house: Option<House>) -> f64 {
    let config = MatchConfig {
        variant: Variant::Classic,
        rules: Arc::new(house.as_ref().map_or(rules, |h| h.rules().clone())),
        seed: 1,
        games: 200,
        deals: Vec::new(),
        timeout: Duration::from_secs(1),
        house: house.map(|house| MatchHouse {
            script: house.for_record(house.script().to_string()),
            hooks: Rc::new(house),
        }),
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
    let mut plain = None;
    if wanted("engine") || wanted("house") {
        let games = engine_games_per_second(Rules::classic(), None);
        println!(
            "engine: {games:>10.0} games/s  (4 players, classic to 66, built-in random bots, one core, no record; target >= 150000)"
        );
        plain = Some(games);
    }
    if wanted("house") {
        let plain = plain.expect("measured above");
        let settings =
            House::from_source("settings.lua", SETTINGS_ONLY.as_bytes(), Rules::classic())
                .expect("the script loads");
        let games = engine_games_per_second(Rules::classic(), Some(settings));
        println!(
            "house settings: {games:>10.0} games/s  ({:.2}x the engine; a script with settings only; target >= 0.9x)",
            games / plain
        );
        let hook = House::from_source("row_taken.lua", ROW_TAKEN_HOOK.as_bytes(), Rules::classic())
            .expect("the script loads");
        let games = engine_games_per_second(Rules::classic(), Some(hook));
        println!(
            "house row_taken: {games:>10.0} games/s  ({:.2}x the engine; a Lua row_taken hook at every take; target >= 0.5x)",
            games / plain
        );
        let hook = House::from_source("per_card.lua", PER_CARD_HOOK.as_bytes(), Rules::classic())
            .expect("the script loads");
        let games = engine_games_per_second(Rules::classic(), Some(hook));
        println!(
            "house row_taken per card: {games:>10.0} games/s  ({:.2}x the engine; the hook calls t.bullheads for each card taken)",
            games / plain
        );
    }
}

/// Settings only: the classic values, so the games are the engine's own.
const SETTINGS_ONLY: &str = r#"
return {
  rows = 4, row_capacity = 5, hand_size = 10, target_score = 66, ties = "shared",
}
"#;

/// A hook at every take that never changes a classic game (a row holds 5 cards at most).
const ROW_TAKEN_HOOK: &str = r#"
return {
  row_taken = function(t, seat, row, cards, bullheads)
    if #cards > 5 then
      return 0
    end
    return bullheads
  end,
}
"#;

/// A hook at every take that recomputes what the engine would answer, card by card.
const PER_CARD_HOOK: &str = r#"
return {
  row_taken = function(t, seat, row, cards, bullheads)
    local n = 0
    for i = 1, #cards do
      n = n + t.bullheads(cards[i])
    end
    return n
  end,
}
"#;
