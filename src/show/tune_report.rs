//! The page of a tuning (`take5 tune`, `DIR/tune.html`, docs/tuning.md): what was tuned, each
//! parameter's course over the iterations (a chart each, with the values the two sides
//! played), the paired difference of the two sides over the iterations, every iteration in a
//! table, and the verification's verdict. One self-contained page, as the tournament's report,
//! whose style and chart helpers it shares (`report.css`, `charts.js`).

use super::html;
use crate::tournament::paired::PairStats;
use crate::tournament::results::PoolBot;
use crate::tune::state::Step;
use crate::tune::{Param, Tune};
use serde::Serialize;

#[derive(Serialize)]
struct Data<'a> {
    player: &'a str,
    variant: &'static str,
    seats: usize,
    opponents: Vec<PoolBot>,
    iterations: u64,
    deals: u64,
    seed: u64,
    gains: crate::tune::spsa::Gains,
    params: &'a [Param],
    steps: &'a [Step],
    /// The values after the last iteration, as played, and the player they make.
    tuned: Vec<f64>,
    tuned_player: String,
    verification: Option<Verification<'a>>,
}

#[derive(Serialize)]
struct Verification<'a> {
    /// The verdict's line, as the text says it.
    line: &'a str,
    pair: &'a PairStats,
    elo: String,
}

/// The page of `tune` after `steps`, with the verification's verdict line and pair (tuned's
/// side) if it ran.
pub fn page(tune: &Tune, steps: &[Step], verified: Option<&(String, PairStats)>) -> String {
    let theta = steps
        .last()
        .map_or_else(|| tune.starts(), |s| s.next.clone());
    let tuned = tune.played(&theta);
    let data = Data {
        player: &tune.template,
        variant: tune.game.variant.name(),
        seats: tune.seats(),
        opponents: tune.opponents.iter().map(PoolBot::of).collect(),
        iterations: tune.iterations,
        deals: tune.deals,
        seed: tune.seed,
        gains: tune.gains,
        params: &tune.params,
        steps,
        tuned_player: tune.player_for(&tuned),
        tuned,
        verification: verified.map(|(line, pair)| Verification {
            line,
            pair,
            elo: pair.elo_text(),
        }),
    };
    html::report(
        "take5 tuning",
        include_str!("tune_report.html"),
        include_str!("tune_report.js"),
        &data,
    )
}
