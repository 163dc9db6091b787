//! Tuning a bot's parameters with SPSA on duplicate deals (`take5 tune`, docs/tuning.md).
//!
//! Each iteration is a small tournament of the tournament module's kind: the bot at theta moved
//! one way (`plus`) and the other (`minus`) at one table with the opponents, on fresh deals,
//! each deal in every seating; what plus took from minus steps theta. The state file
//! ([`state`]) holds a line per iteration; each iteration's games are a results file of their
//! own, so a killed run resumes inside an iteration as a tournament does. At the end the tuned
//! values play the start (`tuned` and `start`) over the verification's deals.

pub mod config;
pub mod spsa;
pub mod state;

use crate::players::PlayerSpec;
use crate::tournament::config::{Bot, Format, Tournament};
use crate::tournament::stats::Stats;
pub use config::{Param, Tune};
use serde::{Deserialize, Serialize};
use state::Step;

/// The names the two sides of an iteration and the two bots of the verification have in the
/// results files' pools.
pub const PLUS: &str = "plus";
pub const MINUS: &str = "minus";
pub const TUNED: &str = "tuned";
pub const START: &str = "start";

/// What iteration `k` (from 0) plays, from theta before it.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    pub k: u64,
    /// The seed of its deals.
    pub seed: u64,
    pub sides: Sides,
}

/// Theta moved one way and the other: what an iteration plays (its step in the state file
/// holds it too).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sides {
    /// The parameters before it.
    pub theta: Vec<f64>,
    /// Each parameter's direction (+1, -1) and perturbation, as a share of its range.
    pub delta: Vec<i8>,
    pub c: Vec<f64>,
    /// The values the two sides play.
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// How the pair plus against minus did over an iteration's games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Their games, and how often plus ranked ahead of minus, behind it, level.
    pub games: u64,
    pub ahead: u64,
    pub behind: u64,
    pub level: u64,
    /// Plus's total minus minus's, per game, over the deals (negative is better where lower
    /// totals are).
    pub difference: f64,
}

impl Outcome {
    /// Bot `bot`'s side of the pair `bot`, `other` in `stats`, if they met.
    pub fn of(stats: &Stats, bot: &str, other: &str) -> Option<Outcome> {
        let pair = stats
            .pairs
            .iter()
            .find(|p| (p.bot == bot && p.other == other) || (p.bot == other && p.other == bot))?;
        let flipped = pair.bot != bot;
        let (ahead, behind) = match flipped {
            false => (pair.ahead, pair.behind),
            true => (pair.behind, pair.ahead),
        };
        Some(Outcome {
            games: pair.games,
            ahead,
            behind,
            level: pair.level,
            difference: if flipped {
                -pair.mean_difference
            } else {
                pair.mean_difference
            },
        })
    }
}

impl Tune {
    /// Iteration `k`, from `theta`.
    pub fn iteration(&self, k: u64, theta: &[f64]) -> Iteration {
        let (seed, delta) = spsa::draws(self.seed, k, self.params.len());
        let c = spsa::perturbations(&self.gains, k, &self.params);
        let (plus, minus) = spsa::sides(&self.params, theta, &c, &delta);
        Iteration {
            k,
            seed,
            sides: Sides {
                theta: theta.to_vec(),
                delta,
                c,
                plus: self.played(&plus),
                minus: self.played(&minus),
            },
        }
    }

    /// The step of `iteration` with its `outcome`: the line of the state file.
    pub fn step(&self, iteration: &Iteration, outcome: &Outcome) -> Step {
        let result = spsa::result(outcome.ahead, outcome.behind, outcome.games);
        let next = spsa::step(
            &self.gains,
            iteration.k,
            &self.params,
            &iteration.sides.theta,
            &iteration.sides.c,
            &iteration.sides.delta,
            result,
        );
        Step {
            iteration: iteration.k + 1,
            sides: iteration.sides.clone(),
            outcome: *outcome,
            next,
        }
    }

    /// Theta after the finished `steps` of a state file, computed again from their games'
    /// counts (so a resumed run goes on from the very theta an unbroken one had); an error
    /// names a step that is not this tuning's.
    pub fn replay(&self, steps: &[Step]) -> Result<Vec<f64>, String> {
        let mut theta = self.starts();
        for (k, step) in steps.iter().enumerate() {
            let iteration = self.iteration(k as u64, &theta);
            let close = |a: &[f64], b: &[f64]| {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|(x, y)| (x - y).abs() <= 1e-9 * (1.0 + x.abs()))
            };
            if step.iteration != k as u64 + 1
                || step.sides.delta != iteration.sides.delta
                || !close(&step.sides.plus, &iteration.sides.plus)
                || !close(&step.sides.minus, &iteration.sides.minus)
            {
                return Err(format!(
                    "line {} (iteration {}) is not this tuning's iteration {}: it played plus {:?} and minus {:?}, this tuning plays {:?} and {:?}",
                    k + 2,
                    step.iteration,
                    k + 1,
                    step.sides.plus,
                    step.sides.minus,
                    iteration.sides.plus,
                    iteration.sides.minus
                ));
            }
            theta = self.step(&iteration, &step.outcome).next;
        }
        Ok(theta)
    }

    /// The tournament of `iteration`: plus and minus with the opponents at one table.
    pub fn iteration_tournament(&self, iteration: &Iteration) -> Result<Tournament, String> {
        self.tournament(
            iteration.seed,
            self.deals,
            [
                (PLUS, &iteration.sides.plus),
                (MINUS, &iteration.sides.minus),
            ],
        )
    }

    /// The verification's tournament: the tuned values against the start over `deals`.
    pub fn verification(&self, tuned: &[f64], deals: u64) -> Result<Tournament, String> {
        let (tuned, start) = (self.played(tuned), self.played(&self.starts()));
        self.tournament(
            spsa::verify_seed(self.seed),
            deals,
            [(TUNED, &tuned), (START, &start)],
        )
    }

    /// One table: the two bots of `sides` (a name, the values it plays), then the opponents;
    /// `deals` deals of `seed`.
    fn tournament(
        &self,
        seed: u64,
        deals: u64,
        sides: [(&str, &Vec<f64>); 2],
    ) -> Result<Tournament, String> {
        let mut pool = Vec::with_capacity(self.seats());
        for (name, values) in sides {
            let player = self.player_for(values);
            pool.push(Bot {
                name: name.to_string(),
                player: PlayerSpec::parse(&player)
                    .map_err(|e| format!("{name} ({player}): {e}"))?,
                limits: self.limits,
                dir: self.dir.clone(),
                sandbox: None,
            });
        }
        pool.extend(self.opponents.iter().cloned());
        let seats = pool.len();
        Ok(Tournament {
            pool,
            seats,
            deals,
            game: self.game.clone(),
            seed,
            // Every bot at the one table: a round robin of the pool at its size.
            format: Format::RoundRobin,
            seatings: self.seatings,
            tables: vec![(0..seats).collect()],
            book: None,
        })
    }
}
