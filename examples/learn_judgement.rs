//! Trains and measures a variant's learnt judgement (src/variants/common/value.rs; the circle
//! game's and Take a Number's features in their variants' value.rs; docs/mcs.md, "Ninth round"
//! and "Tenth round"):
//!
//! ```text
//! cargo run --release --example learn_judgement -- train VARIANT SEATS DECISIONS ROLLOUTS EPOCHS OUT [DODGER% [search] | played=N]
//! cargo run --release --example learn_judgement -- regret VARIANT SEATS WEIGHTS [early|late]
//! cargo run --release --example learn_judgement -- cut VARIANT SEATS WEIGHTS [early|late]
//! cargo run --release --example learn_judgement -- speed VARIANT SEATS WEIGHTS
//! ```
//!
//! VARIANT is `circle` (the circle game) or `take-a-number`.
//!
//! `train`: decisions of random games at a table of SEATS, each with every legal action's
//! table after it and what ROLLOUTS random rollouts from it brought the deciding seat (the same
//! random choices for every action; to the game's end in the circle game, to the round's in
//! Take a Number, the search's horizons); the network learns each action's worth against the
//! decision's mean (what tells actions apart, not what the hands are worth), with Adam, and
//! writes its weights to OUT. With DODGER% the games the decisions are drawn from play that
//! percent of their moves by the dodger, the rest at random (the rollouts stay random: they
//! are what the search's rollouts measure; docs/mcs.md: tried, not kept). With `search` after
//! it the rollouts are played by the search's own rollout players at their defaults for the
//! table instead (docs/mcs.md, "Tenth round": tried, not kept). With `played=N` the games
//! the decisions are drawn from are played by a Monte Carlo search that sees every hand, N
//! random rollouts an action, so the tables are those of competent play (docs/mcs.md,
//! "Twelfth round": tried, not kept). The shipped weights,
//! one to three minutes each, byte for byte: the circle game's (src/variants/circle/weights/)
//! `train circle 2 40000 32 12` (two_seats.txt), `train circle 4 30000 16 10` (four_seats.txt),
//! and `train circle N 20000 16 10` for N = 3, 5, 6 (three_, five_, six_seats.txt); Take a
//! Number's (src/variants/take_a_number/weights/) `train take-a-number 4 30000 16 10`
//! (four_seats.txt).
//!
//! `regret`: on 200 decisions of seat 0 in random games at a table of SEATS, how much worse
//! than the best action (by 256 rollouts an action) the network's choice is, beside a choice
//! by 4 to 64 rollouts an action. `cut`: the same for rollouts cut short after the seat's
//! next moves or turns and judged there (docs/mcs.md, "Eleventh round": not kept). `speed`: a
//! judgement's time against a random move's.

use std::sync::Arc;
use take5::game::model::Model;
use take5::game::{Action, Discard, Seat, ToMove};
use take5::players::builtin::{Builtin, Strategy};
use take5::players::search::{McsOptions, Policies, rollout};
use take5::rng::{GameRng, Stream};
use take5::variants::circle::Circle;
use take5::variants::common::value::{Features, HIDDEN, ValueNet, fast_tanh, fast_tanh_slope};
use take5::variants::take_a_number::TakeANumber;
use take5::variants::{Variant, circle, take_a_number};

/// A variant with a learnt judgement, as training reads it: `R` inputs a part of the table,
/// `G` for the rest.
trait Learnable<const R: usize, const G: usize>: Model + Clone {
    const VARIANT: Variant;
    /// A game at a table of `seats`, waiting for its deal.
    fn table(seats: usize) -> Self;
    /// A decision is drawn from a game after at most this many moves.
    fn moves(seats: usize) -> u32;
    fn features(&self, me: Seat, out: &mut Features<R, G>);
    /// The seat's standing now (more is better), what the judgement adds to.
    fn standing(&self, me: Seat) -> f32;
}

impl Learnable<{ circle::value::ROW_FEATURES }, { circle::value::GLOBAL_FEATURES }> for Circle {
    const VARIANT: Variant = Variant::Circle;
    fn table(seats: usize) -> Circle {
        Circle::new(Arc::new(circle::rules()), seats).expect("a circle game")
    }
    fn moves(seats: usize) -> u32 {
        if seats == 2 { 45 } else { 22 * seats as u32 }
    }
    fn features(&self, me: Seat, out: &mut circle::value::Features) {
        self.value_features(me, out);
    }
    fn standing(&self, me: Seat) -> f32 {
        Circle::standing(self, me)
    }
}

impl Learnable<{ take_a_number::value::ROW_FEATURES }, { take_a_number::value::GLOBAL_FEATURES }>
    for TakeANumber
{
    const VARIANT: Variant = Variant::TakeANumber;
    fn table(seats: usize) -> TakeANumber {
        let rules = Arc::new(take_a_number::rules());
        TakeANumber::new(rules, seats).expect("a Take a Number game")
    }
    // About a round's moves (the rollouts end with the round, as the search's).
    fn moves(seats: usize) -> u32 {
        12 * seats as u32
    }
    fn features(&self, me: Seat, out: &mut take_a_number::value::Features) {
        self.value_features(me, out);
    }
    fn standing(&self, me: Seat) -> f32 {
        TakeANumber::standing(self, me)
    }
}

/// A table as the network reads it, and the worth it should give it.
struct Sample<const R: usize, const G: usize> {
    features: Features<R, G>,
    target: f32,
}

/// The seat that decides next in `game`, if any (during a simultaneous turn, the first that
/// has not chosen); `actions` is left holding its legal actions.
fn deciding<M: Model>(game: &M, actions: &mut Vec<Action>) -> Option<Seat> {
    actions.clear();
    match game.to_move() {
        ToMove::Seat(seat, _) => {
            game.legal_actions(seat, actions);
            Some(seat)
        }
        ToMove::Everyone(_) => (0..game.seats()).find(|&seat| {
            game.legal_actions(seat, actions);
            !actions.is_empty()
        }),
        ToMove::Deal | ToMove::GameOver => None,
    }
}

/// Plays `game` at random from `rng` for at most `limit` moves, or until a deal is due or the
/// game is over.
fn random_moves<M: Model>(game: &mut M, rng: &mut GameRng, actions: &mut Vec<Action>, limit: u32) {
    let mut moves = 0;
    while let Some(seat) = deciding(game, actions) {
        if moves == limit {
            return;
        }
        moves += 1;
        let action = actions[rng.below(actions.len() as u32) as usize];
        game.apply(seat, action, &mut Discard)
            .expect("a legal action");
    }
}

/// Plays `game` for at most `limit` moves, or until a deal is due or the game is over, each
/// move chosen by a Monte Carlo search that sees every hand: the action whose `per_action`
/// random rollouts (the same for every action) bring the deciding seat most.
fn searched_moves<M: Learnable<R, G>, const R: usize, const G: usize>(
    game: &mut M,
    rng: &mut GameRng,
    actions: &mut Vec<Action>,
    limit: u32,
    per_action: usize,
) {
    let mut scratch = Vec::new();
    for _ in 0..limit {
        let Some(seat) = deciding(game, actions) else {
            return;
        };
        let futures: Vec<u64> = (0..per_action).map(|_| u64::from(rng.next_u32())).collect();
        let mut best = (f32::NEG_INFINITY, actions[0]);
        for &action in actions.iter() {
            let mut after = game.clone();
            after.apply(seat, action, &mut Discard).expect("legal");
            let mut sum = 0.0;
            for &future in &futures {
                let mut played = after.clone();
                let mut rng = GameRng::new(future, Stream::Tune(8));
                random_moves(&mut played, &mut rng, &mut scratch, u32::MAX);
                sum += played.standing(seat);
            }
            if sum > best.0 {
                best = (sum, action);
            }
        }
        game.apply(seat, best.1, &mut Discard)
            .expect("a legal action");
    }
}

/// `count` decisions of random games at a table of `seats`, each a group: every action's table
/// after it and the mean of what `rollouts` random rollouts (common random numbers) brought
/// the deciding seat after it.
fn decisions<M: Learnable<R, G>, const R: usize, const G: usize>(
    count: u64,
    seats: usize,
    seed: u64,
    rollouts: usize,
    (dodger, search, played_by_search): (u32, bool, usize),
) -> Vec<Vec<Sample<R, G>>> {
    let options = McsOptions::default().resolved(M::VARIANT, seats);
    let mut rng = GameRng::new(seed, Stream::Tune(6));
    let (mut actions, mut scratch) = (Vec::new(), Vec::new());
    let mut groups = Vec::new();
    let mut smart = Builtin::new(Strategy::Dodger, seed);
    while (groups.len() as u64) < count {
        let mut game = M::table(seats);
        game.deal_random(&mut rng, &mut Discard).expect("a deal");
        // A point of the game at random, up to about its last moves.
        let stop = rng.below(M::moves(seats));
        if played_by_search > 0 {
            searched_moves::<M, R, G>(&mut game, &mut rng, &mut scratch, stop, played_by_search);
        } else if dodger == 0 {
            random_moves(&mut game, &mut rng, &mut scratch, stop);
        } else {
            // Each move the dodger's `dodger` percent of the time, else at random.
            for _ in 0..stop {
                let Some(seat) = deciding(&game, &mut scratch) else {
                    break;
                };
                let action = if rng.below(100) < dodger {
                    smart.choose(&game.view(seat))
                } else {
                    scratch[rng.below(scratch.len() as u32) as usize]
                };
                game.apply(seat, action, &mut Discard)
                    .expect("a legal action");
            }
        }
        let Some(me) = deciding(&game, &mut actions) else {
            continue;
        };
        if actions.len() < 2 {
            continue;
        }
        let futures: Vec<u64> = (0..rollouts).map(|_| u64::from(rng.next_u32())).collect();
        let mut group = Vec::new();
        for &action in &actions {
            let mut after = game.clone();
            after.apply(me, action, &mut Discard).expect("legal");
            let now = after.standing(me);
            let mut features = Features::default();
            after.features(me, &mut features);
            let mut sum = 0.0;
            for &future in &futures {
                let mut played = after.clone();
                if search {
                    let mut policies = Policies::new(&options, future);
                    rollout(&mut played, &mut policies, me, game.view(me).round);
                } else {
                    let mut rng = GameRng::new(future, Stream::Tune(7));
                    random_moves(&mut played, &mut rng, &mut scratch, u32::MAX);
                }
                sum += played.standing(me) - now;
            }
            let target = sum / rollouts as f32;
            group.push(Sample { features, target });
        }
        groups.push(group);
    }
    groups
}

/// Adds the gradient of (y - target)² for `sample` into `grad` (laid out as
/// [`ValueNet::flatten`]).
fn gradient<const R: usize, const G: usize>(
    net: &ValueNet<R, G>,
    sample: &Sample<R, G>,
    grad: &mut [f32],
) {
    let y = net.evaluate(&sample.features);
    let e = 2.0 * (y - sample.target);
    let (b1, w2) = (HIDDEN * R, HIDDEN * R + HIDDEN);
    let global = w2 + HIDDEN;
    for row in &sample.features.rows {
        for h in 0..HIDDEN {
            let a: f32 = net.w1[h].iter().zip(row).map(|(w, x)| w * x).sum::<f32>() + net.b1[h];
            grad[w2 + h] += e * fast_tanh(a);
            let d = e * net.w2[h] * fast_tanh_slope(a);
            grad[b1 + h] += d;
            for (i, x) in row.iter().enumerate() {
                grad[h * R + i] += d * x;
            }
        }
    }
    for (i, x) in sample.features.global.iter().enumerate() {
        grad[global + i] += e * x;
    }
}

/// Adds the gradient of a decision's error, each action's worth against the decision's mean,
/// into `grad`; returns the mean squared error.
fn group_gradient<const R: usize, const G: usize>(
    net: &ValueNet<R, G>,
    group: &[Sample<R, G>],
    grad: &mut [f32],
) -> f32 {
    let values: Vec<f32> = group.iter().map(|s| net.evaluate(&s.features)).collect();
    let n = group.len() as f32;
    let value_mean = values.iter().sum::<f32>() / n;
    let target_mean = group.iter().map(|s| s.target).sum::<f32>() / n;
    let mut loss = 0.0;
    for (sample, value) in group.iter().zip(&values) {
        let error = (value - value_mean) - (sample.target - target_mean);
        loss += error * error;
        // The errors sum to 0, so d(loss)/d(value) is 2 error: a plain squared error's
        // against value - error.
        let shifted = Sample {
            features: sample.features.clone(),
            target: value - error,
        };
        gradient(net, &shifted, grad);
    }
    loss / n
}

fn train<M: Learnable<R, G>, const R: usize, const G: usize>(
    seats: usize,
    count: u64,
    rollouts: usize,
    epochs: usize,
    out: &str,
    games: (u32, bool, usize),
) {
    let seed = 1;
    let mut train = decisions::<M, R, G>(count, seats, seed, rollouts, games);
    let test = decisions::<M, R, G>(count / 10, seats, seed + 1_000_000, rollouts, games);
    eprintln!(
        "{} decisions to learn from, {} to test",
        train.len(),
        test.len()
    );
    let parameters = ValueNet::<R, G>::PARAMETERS;
    let mut rng = GameRng::new(seed, Stream::Tune(2));
    let mut net = ValueNet::<R, G>::zero();
    for h in 0..HIDDEN {
        for w in &mut net.w1[h] {
            *w = (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.3;
        }
        net.w2[h] = (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.3;
    }
    let mut params = net.flatten();
    let (mut m, mut v, mut t) = (vec![0.0f32; parameters], vec![0.0f32; parameters], 0);
    let mut grad = vec![0.0f32; parameters];
    let test_loss = |net: &ValueNet<R, G>| {
        let mut g = vec![0.0f32; parameters];
        let sum: f64 = (test.iter())
            .map(|group| f64::from(group_gradient(net, group, &mut g)))
            .sum();
        sum / test.len() as f64
    };
    eprintln!(
        "test error of all-zero weights: {:.2}",
        test_loss(&ValueNet::zero())
    );
    for epoch in 0..epochs {
        rng.shuffle(&mut train);
        let rate = 0.003 * 0.7f32.powi(epoch as i32);
        let mut loss = 0.0f64;
        for chunk in train.chunks(8) {
            grad.fill(0.0);
            for group in chunk {
                loss += f64::from(group_gradient(&net, group, &mut grad));
            }
            t += 1;
            let (b1, b2) = (0.9f32, 0.999f32);
            for i in 0..parameters {
                let g = grad[i] / chunk.len() as f32;
                m[i] = b1 * m[i] + (1.0 - b1) * g;
                v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                let m_hat = m[i] / (1.0 - b1.powi(t));
                let v_hat = v[i] / (1.0 - b2.powi(t));
                params[i] -= rate * m_hat / (v_hat.sqrt() + 1e-8);
            }
            net = ValueNet::unflatten(&params);
        }
        eprintln!(
            "epoch {epoch}: error {:.2} learning, {:.2} on the test decisions",
            loss / train.len() as f64,
            test_loss(&net)
        );
    }
    std::fs::write(out, net.to_text()).expect("the weights written");
}

/// Decisions of seat 0 in random games at a table of `seats`, at a point drawn by `phase`.
fn decisions_of_seat_0<M: Learnable<R, G>, const R: usize, const G: usize>(
    seats: usize,
    count: usize,
    phase: &str,
) -> Vec<M> {
    let mut rng = GameRng::new(91, Stream::Tune(4));
    let (mut actions, mut scratch) = (Vec::new(), Vec::new());
    let mut games = Vec::new();
    let most = M::moves(seats);
    while games.len() < count {
        let mut game = M::table(seats);
        game.deal_random(&mut rng, &mut Discard).expect("a deal");
        let stop = match phase {
            "early" => rng.below(most / 4),
            "late" => most / 2 + rng.below(most / 2),
            _ => rng.below(most),
        };
        random_moves(&mut game, &mut rng, &mut scratch, stop);
        if deciding(&game, &mut actions) == Some(0) && actions.len() > 1 {
            games.push(game);
        }
    }
    games
}

/// What `net` judges `game` worth to seat 0 since its standing was `base`: its standing now,
/// and the network's worth of the rest while the game goes on.
fn judged_by<M: Learnable<R, G>, const R: usize, const G: usize>(
    net: &ValueNet<R, G>,
    game: &M,
    base: f32,
) -> f64 {
    let mut features = Features::default();
    game.features(0, &mut features);
    let rest = match game.to_move() {
        ToMove::Seat(..) | ToMove::Everyone(_) => net.evaluate(&features),
        _ => 0.0,
    };
    f64::from(game.standing(0) - base + rest)
}

fn regret<M: Learnable<R, G>, const R: usize, const G: usize>(
    seats: usize,
    net: &ValueNet<R, G>,
    phase: &str,
) {
    let (truth_rollouts, budgets) = (256, [4usize, 8, 16, 32, 64]);
    let mut by_rollouts = vec![0.0f64; budgets.len()];
    let mut by_network = 0.0f64;
    let (mut actions, mut scratch) = (Vec::new(), Vec::new());
    let games = decisions_of_seat_0::<M, R, G>(seats, 200, phase);
    for game in &games {
        actions.clear();
        game.legal_actions(0, &mut actions);
        let base = game.standing(0);
        let mut outcomes = vec![vec![0.0f64; truth_rollouts]; actions.len()];
        let mut judged = vec![0.0f64; actions.len()];
        for (a, &action) in actions.iter().enumerate() {
            let mut after = game.clone();
            after.apply(0, action, &mut Discard).expect("legal");
            for (j, outcome) in outcomes[a].iter_mut().enumerate() {
                let mut rollout = after.clone();
                let mut rng = GameRng::new(j as u64, Stream::Tune(5));
                random_moves(&mut rollout, &mut rng, &mut scratch, u32::MAX);
                *outcome = f64::from(rollout.standing(0) - base);
            }
            judged[a] = judged_by(net, &after, base);
        }
        let truth: Vec<f64> = (outcomes.iter())
            .map(|o| o.iter().sum::<f64>() / truth_rollouts as f64)
            .collect();
        let best = truth.iter().copied().fold(f64::MIN, f64::max);
        let loss = |scores: &[f64]| {
            let chosen = (0..scores.len())
                .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
                .expect("two actions or more");
            best - truth[chosen]
        };
        for (b, &n) in budgets.iter().enumerate() {
            // The last n of the truth's rollouts (256 are enough that sharing them matters
            // little).
            let sums: Vec<f64> = (outcomes.iter())
                .map(|o| o[truth_rollouts - n..].iter().sum())
                .collect();
            by_rollouts[b] += loss(&sums);
        }
        by_network += loss(&judged);
    }
    let count = games.len() as f64;
    for (b, n) in budgets.iter().enumerate() {
        println!(
            "{n:>3} rollouts an action: {:.2} points worse than the best",
            by_rollouts[b] / count
        );
    }
    println!(
        "the network:           {:.2} points worse than the best",
        by_network / count
    );
}

/// Rollouts cut short and judged (docs/mcs.md, "Eleventh round"): on the decisions of
/// `regret`, how much worse than the best action (by 256 whole rollouts an action) a choice by
/// N random rollouts an action is when each stops after seat 0's K-th move, or its K-th turn
/// (its move after which another seat decides), and the network judges the rest, beside whole
/// rollouts, each alone and with the network's judgement of the action's table counted as 32
/// rollouts beside them (the search's `judge=32`); and the moves each played (a judgement
/// is about 2 to 8 moves' time: `speed`).
fn cut<M: Learnable<R, G>, const R: usize, const G: usize>(
    seats: usize,
    net: &ValueNet<R, G>,
    phase: &str,
) {
    const TRUTH: usize = 256;
    // (K, whether K counts turns rather than moves); K = 0: whole rollouts.
    let depths = [
        (0u32, false),
        (1, false),
        (3, false),
        (1, true),
        (2, true),
        (3, true),
    ];
    let budgets = [4usize, 8, 16, 32];
    let most = *budgets.last().expect("budgets");
    // By depth, budget and with the judgement beside or not: the regret summed.
    let mut lost = vec![vec![[0.0f64; 2]; budgets.len()]; depths.len()];
    let mut moves = vec![0u64; depths.len()];
    let mut rollouts = 0u64;
    let (mut actions, mut scratch, mut next) = (Vec::new(), Vec::new(), Vec::new());
    let games = decisions_of_seat_0::<M, R, G>(seats, 200, phase);
    for game in &games {
        actions.clear();
        game.legal_actions(0, &mut actions);
        let base = game.standing(0);
        let mut truth = vec![0.0f64; actions.len()];
        let mut table = vec![0.0f64; actions.len()];
        rollouts += (actions.len() * most) as u64;
        // By depth, action and rollout: what it brought seat 0.
        let mut outcomes = vec![vec![vec![0.0f64; most]; actions.len()]; depths.len()];
        for (a, &action) in actions.iter().enumerate() {
            let mut after = game.clone();
            after.apply(0, action, &mut Discard).expect("legal");
            table[a] = judged_by(net, &after, base);
            for j in 0..TRUTH {
                let mut rollout = after.clone();
                let mut rng = GameRng::new(j as u64, Stream::Tune(5));
                random_moves(&mut rollout, &mut rng, &mut scratch, u32::MAX);
                truth[a] += f64::from(rollout.standing(0) - base) / TRUTH as f64;
            }
            for (d, &(depth, turns)) in depths.iter().enumerate() {
                for (j, outcome) in outcomes[d][a].iter_mut().enumerate() {
                    let mut rollout = after.clone();
                    let mut rng = GameRng::new(j as u64, Stream::Tune(9));
                    let mut own = 0;
                    while let Some(seat) = deciding(&rollout, &mut scratch) {
                        if depth > 0 && own == depth {
                            break;
                        }
                        let action = scratch[rng.below(scratch.len() as u32) as usize];
                        rollout.apply(seat, action, &mut Discard).expect("legal");
                        moves[d] += 1;
                        let mut counted = seat == 0;
                        if turns && counted {
                            counted = deciding(&rollout, &mut next) != Some(0);
                        }
                        own += u32::from(counted);
                    }
                    *outcome = judged_by(net, &rollout, base);
                }
            }
        }
        let best = truth.iter().copied().fold(f64::MIN, f64::max);
        for (d, by_action) in outcomes.iter().enumerate() {
            for (b, &n) in budgets.iter().enumerate() {
                for (with, beside) in [0.0, 32.0].into_iter().enumerate() {
                    let sums: Vec<f64> = (by_action.iter().zip(&table))
                        .map(|(o, t)| o[..n].iter().sum::<f64>() + beside * t)
                        .collect();
                    let chosen = (0..sums.len())
                        .max_by(|&x, &y| sums[x].total_cmp(&sums[y]))
                        .expect("two actions or more");
                    lost[d][b][with] += best - truth[chosen];
                }
            }
        }
    }
    let count = games.len() as f64;
    for (d, &(depth, turns)) in depths.iter().enumerate() {
        let length = moves[d] as f64 / rollouts as f64;
        let name = match (depth, turns) {
            (0, _) => "whole rollouts".to_string(),
            (k, false) => format!("cut after {k} own moves"),
            (k, true) => format!("cut after {k} own turns"),
        };
        let regrets: Vec<String> = (budgets.iter().zip(&lost[d]))
            .map(|(n, l)| format!("{n}: {:.2} / {:.2}", l[0] / count, l[1] / count))
            .collect();
        println!(
            "{name:<24} {length:5.1} moves a rollout; regret by rollouts an action (alone / \
             with the judgement as 32) {}",
            regrets.join(", ")
        );
    }
}

fn speed<M: Learnable<R, G>, const R: usize, const G: usize>(seats: usize, net: &ValueNet<R, G>) {
    let games = decisions_of_seat_0::<M, R, G>(seats, 2000, "any");
    let mut features = Features::default();
    let mut sum = 0.0;
    let start = std::time::Instant::now();
    for _ in 0..50 {
        for game in &games {
            game.features(0, &mut features);
            sum += net.evaluate(&features);
        }
    }
    let judgement = start.elapsed().as_secs_f64() / (50 * games.len()) as f64;
    let mut rng = GameRng::new(5, Stream::Tune(8));
    let mut actions = Vec::new();
    let (start, mut moves) = (std::time::Instant::now(), 0u64);
    for _ in 0..5 {
        for game in &games {
            let mut rollout = game.clone();
            while let Some(seat) = deciding(&rollout, &mut actions) {
                let action = actions[rng.below(actions.len() as u32) as usize];
                rollout
                    .apply(seat, action, &mut Discard)
                    .expect("a legal action");
                moves += 1;
            }
            sum += rollout.standing(0);
        }
    }
    let random_move = start.elapsed().as_secs_f64() / moves as f64;
    println!(
        "a judgement {:.0} ns, a random move {:.0} ns (a copy of the game a rollout included): \
         a judgement is {:.1} moves (checksum {sum})",
        judgement * 1e9,
        random_move * 1e9,
        judgement / random_move
    );
}

fn weights<const R: usize, const G: usize>(path: Option<&String>) -> ValueNet<R, G> {
    let path = path.expect("the weights' file");
    let text = std::fs::read_to_string(path).expect("the weights' file readable");
    ValueNet::from_text(&text).expect("the weights of this network")
}

/// Runs the command `args` (after the variant's name) for variant `M`.
/// How `train`'s games are played, from what follows OUT: `DODGER%` (else 0) or `played=N`
/// (else 0), and `search` after it.
fn games(args: &[String]) -> (u32, bool, usize) {
    let search = args.get(6).is_some_and(|a| a == "search");
    match args.get(5).map(String::as_str) {
        Some(arg) if arg.starts_with("played=") => {
            let rollouts = arg["played=".len()..].parse();
            (0, search, rollouts.expect("played=N: N rollouts an action"))
        }
        dodger => (dodger.and_then(|a| a.parse().ok()).unwrap_or(0), search, 0),
    }
}

fn run<M: Learnable<R, G>, const R: usize, const G: usize>(command: &str, args: &[String]) {
    let number = |i: usize| -> u64 {
        (args.get(i).and_then(|a| a.parse().ok()))
            .expect("train VARIANT SEATS DECISIONS ROLLOUTS EPOCHS OUT")
    };
    let seats = number(0) as usize;
    match command {
        "train" => train::<M, R, G>(
            seats,
            number(1),
            number(2) as usize,
            number(3) as usize,
            args.get(4).expect("the weights' file to write"),
            games(args),
        ),
        "regret" => regret::<M, R, G>(
            seats,
            &weights(args.get(1)),
            args.get(2).map_or("any", |p| p),
        ),
        "cut" => cut::<M, R, G>(
            seats,
            &weights(args.get(1)),
            args.get(2).map_or("any", |p| p),
        ),
        "speed" => speed::<M, R, G>(seats, &weights(args.get(1))),
        _ => eprintln!("usage: learn_judgement train|regret|cut|speed ... (see the file's head)"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, variant) = (args.first(), args.get(1));
    let (command, rest) = (
        command.map_or("", String::as_str),
        args.get(2..).unwrap_or(&[]),
    );
    match variant.map(String::as_str) {
        Some("circle") => {
            run::<Circle, { circle::value::ROW_FEATURES }, { circle::value::GLOBAL_FEATURES }>(
                command, rest,
            )
        }
        Some("take-a-number") => run::<
            TakeANumber,
            { take_a_number::value::ROW_FEATURES },
            { take_a_number::value::GLOBAL_FEATURES },
        >(command, rest),
        _ => eprintln!(
            "usage: learn_judgement train|regret|cut|speed circle|take-a-number ... (see the file's head)"
        ),
    }
}
