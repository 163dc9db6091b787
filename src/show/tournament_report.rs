//! A tournament's report page (`take5 stats --html`, docs/tournaments.md), in the order of the
//! text report: what the tournament was (and any bot taken out of it, whose figures include the
//! fallback's games: said at once, under the summary), every two bots deal by deal, the
//! sequential test's course, the decision times, the bots with their ratings over the games and
//! their totals, the rating list (maximum-likelihood Elo), and head to head. Figures the text
//! prints too (an Elo with its interval, a head-to-head share)
//! are computed here once, by the statistics' own functions, and drawn as they are.

use super::html;
use crate::tournament::ratings::{Anchor, Games};
use crate::tournament::results::GameResult;
use crate::tournament::stats::{
    Accumulator, Identity, LlrPoint, NO_IDENTITY, SCREENFUL_OF_BOTS, Stats,
};
use crate::tournament::timing::{BotTimes, Times};
use crate::tournament::{Dropout, Dropouts};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// The data the page draws from.
#[derive(Serialize)]
struct Data<'a> {
    /// None where the results have no header: `unknown` says so.
    identity: Option<&'a Identity>,
    unknown: &'static str,
    stats: &'a Stats,
    /// What a total is and which is better (`penalty, lower is better`).
    total_meaning: String,
    /// The bots taken out of the tournament, each with the text report's sentence for it.
    dropouts: Vec<DropoutShown<'a>>,
    /// Per pair of `stats.pairs`: its difference and Elo as the text prints them, its deals by
    /// score.
    pairs: Vec<PairShown>,
    sprt: Option<SprtShown<'a>>,
    /// The command bots' decision times (none timed: empty).
    times: Vec<BotTimes>,
    /// The games counted at each point of `ratings`.
    checkpoints: Vec<u64>,
    /// Per bot, in the order of `stats.bots`: its rating and uncertainty at each checkpoint
    /// (none before its first game).
    ratings: Vec<Series>,
    /// Per bot, in the order of `stats.bots`: its games' totals, total -> games.
    totals: Vec<BTreeMap<i32, u64>>,
    /// Head to head, a row and a column per bot in the order of `stats.bots`: the share the
    /// row's bot took of their games together, and those games (none where they never met).
    /// None past [`SCREENFUL_OF_BOTS`] bots, as in the text: the grid grows as their square
    /// (the paired table lists every pair that met).
    head_to_head: Option<Vec<Vec<Option<Met>>>>,
    screenful: usize,
    /// The rating list of the games counted, as `take5 stats --ratings` prints it, or why
    /// there is none.
    rating_list: Result<RatingList, String>,
}

/// The rating list as the text prints it: how it was made, and per bot, best first, its name,
/// games, Elo and interval.
#[derive(Serialize)]
struct RatingList {
    method: String,
    rows: Vec<[String; 4]>,
}

/// Head to head, one bot against another: the share of their games together the first took,
/// and those games.
type Met = (f64, u64);

#[derive(Serialize)]
struct DropoutShown<'a> {
    #[serde(flatten)]
    dropout: &'a Dropout,
    sentence: String,
}

#[derive(Serialize)]
struct PairShown {
    /// The mean difference with its interval, or why it has none, as the text prints it.
    difference: String,
    elo: String,
    deal_counts: Option<Vec<u64>>,
}

#[derive(Serialize)]
struct SprtShown<'a> {
    /// The test's line of the text report.
    line: String,
    course: &'a [LlrPoint],
    /// Games past the decision, not counted.
    after_decision: u64,
}

#[derive(Serialize)]
struct Series {
    name: String,
    points: Vec<Option<[f64; 2]>>,
}

/// The most points of the ratings' course: enough for a smooth line, few enough for a page.
const RATING_POINTS: usize = 200;

/// Points at which the ratings over the games are taken: at most [`RATING_POINTS`], the last
/// at `games`.
fn checkpoints(games: usize) -> Vec<usize> {
    let points = games.min(RATING_POINTS);
    (1..=points).map(|i| i * games / points).collect()
}

/// The report page of `results` (in order of game id), their statistics built by `acc` (with
/// its sequential test, if any, and its variant), of the tournament `identity` (none where the
/// results have no header).
pub fn page(
    results: &[GameResult],
    mut acc: Accumulator,
    identity: Option<&Identity>,
    anchor: Option<&Anchor>,
) -> String {
    let mut rated = Games::default();
    let marks = checkpoints(results.len());
    let mut next_mark = marks.iter().peekable();
    let mut at_marks: Vec<(u64, HashMap<String, [f64; 2]>)> = Vec::with_capacity(marks.len());
    let mut totals: HashMap<String, BTreeMap<i32, u64>> = HashMap::new();
    let mut times = Times::default();
    // Of every game given, as the text report counts them.
    let mut dropouts = Dropouts::default();
    for (i, result) in results.iter().enumerate() {
        dropouts.add(result);
        if acc.add(result) {
            rated.add(result);
            times.add(result);
            for (seat, name) in result.seating.iter().enumerate() {
                *totals
                    .entry(name.clone())
                    .or_default()
                    .entry(result.totals[seat])
                    .or_default() += 1;
            }
        }
        if next_mark.next_if(|&&m| m == i + 1).is_some()
            && at_marks
                .last()
                .is_none_or(|(games, _)| *games != acc.games())
        {
            let ratings = acc
                .ratings()
                .map(|(name, mu, sigma)| (name.to_string(), [mu, sigma]))
                .collect();
            at_marks.push((acc.games(), ratings));
        }
    }
    let stats = acc.finish();
    let ratings = stats
        .bots
        .iter()
        .map(|b| Series {
            name: b.name.clone(),
            points: at_marks
                .iter()
                .map(|(_, at)| at.get(&b.name).copied())
                .collect(),
        })
        .collect();
    let by_pair: HashMap<(&str, &str), (f64, u64)> = stats
        .head_to_head
        .iter()
        .map(|h| ((h.bot.as_str(), h.other.as_str()), (h.share(), h.games)))
        .collect();
    let head_to_head = (stats.bots.len() <= SCREENFUL_OF_BOTS).then(|| {
        stats
            .bots
            .iter()
            .map(|a| {
                stats
                    .bots
                    .iter()
                    .map(|b| by_pair.get(&(a.name.as_str(), b.name.as_str())).copied())
                    .collect()
            })
            .collect()
    });
    let data = Data {
        identity,
        unknown: NO_IDENTITY,
        total_meaning: stats.total_meaning(),
        dropouts: dropouts
            .list()
            .iter()
            .map(|dropout| DropoutShown {
                dropout,
                sentence: dropout.sentence(),
            })
            .collect(),
        pairs: stats
            .pairs
            .iter()
            .map(|p| PairShown {
                difference: p.difference_text(),
                elo: p.elo_text(),
                deal_counts: p.deal_counts(),
            })
            .collect(),
        sprt: stats.sprt.as_ref().map(|s| SprtShown {
            line: s.line(),
            course: &s.course,
            after_decision: s.after_decision,
        }),
        times: times.finish(),
        checkpoints: at_marks.iter().map(|(games, _)| *games).collect(),
        ratings,
        totals: stats
            .bots
            .iter()
            .map(|b| totals.remove(&b.name).unwrap_or_default())
            .collect(),
        head_to_head,
        screenful: SCREENFUL_OF_BOTS,
        rating_list: rated.rate(anchor).map(|list| RatingList {
            method: list.method(),
            rows: list.rows(),
        }),
        stats: &stats,
    };
    html::report(
        "take5 tournament report",
        include_str!("tournament_report.html"),
        include_str!("tournament_report.js"),
        &data,
    )
}
