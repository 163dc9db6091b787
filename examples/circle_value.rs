//! Trains and measures the circle game's learnt judgement (src/variants/circle/value.rs,
//! docs/mcs.md, "Ninth round"):
//!
//! ```text
//! cargo run --release --example circle_value -- train SEATS DECISIONS ROLLOUTS EPOCHS OUT [DODGER%]
//! cargo run --release --example circle_value -- regret WEIGHTS [early|late]
//! cargo run --release --example circle_value -- speed WEIGHTS
//! ```
//!
//! `train`: decisions of random games at a table of SEATS, each with every legal action's
//! table after it and what ROLLOUTS random rollouts from it brought the deciding seat (the same
//! random choices for every action); the network learns each action's worth against the
//! decision's mean (what tells actions apart, not what the hands are worth), with Adam, and
//! writes its weights to OUT. With DODGER% the games the decisions are drawn from play that
//! percent of their moves by the dodger, the rest at random (the rollouts stay random: they
//! are what the search's rollouts measure; docs/mcs.md: tried, not kept). The shipped weights (src/variants/circle/weights/), one to three
//! minutes each, byte for byte: `train 2 40000 32 12` (two_seats.txt), `train 4 30000 16 10`
//! (four_seats.txt), and `train N 20000 16 10` for N = 3, 5, 6 (three_, five_, six_seats.txt).
//!
//! `regret`: on 200 decisions of two-seat random games, how much worse than the best action
//! (by 256 rollouts an action) the network's choice is, beside a choice by 4 to 64 rollouts an
//! action. `speed`: a judgement's time against a random move's.

use std::sync::Arc;
use take5::game::model::Model;
use take5::game::{Action, Discard, Game, ToMove};
use take5::players::builtin::{Builtin, Strategy};
use take5::rng::{GameRng, Stream};
use take5::variants::circle::value::{
    Features, GLOBAL_FEATURES, HIDDEN, ROW_FEATURES, ValueNet, fast_tanh, fast_tanh_slope,
};
use take5::variants::circle::{Circle, rules};

/// A table as the network reads it, and the worth it should give it.
struct Sample {
    features: Features,
    target: f32,
}

/// Plays `game` at random from `rng` for at most `limit` moves, or to its end.
fn random_moves(game: &mut Circle, rng: &mut GameRng, actions: &mut Vec<Action>, limit: u32) {
    let mut moves = 0;
    while let ToMove::Seat(seat, _) = game.to_move() {
        if moves == limit {
            return;
        }
        moves += 1;
        actions.clear();
        game.legal_actions(seat, actions);
        let action = actions[rng.below(actions.len() as u32) as usize];
        game.apply(seat, action, &mut Discard)
            .expect("a legal action");
    }
}

/// `count` decisions of random games at a table of `seats`, each a group: every action's table
/// after it and the mean of what `rollouts` random rollouts (common random numbers) brought
/// the deciding seat after it.
fn decisions(
    count: u64,
    seats: usize,
    seed: u64,
    rollouts: usize,
    dodger: u32,
) -> Vec<Vec<Sample>> {
    let rules = Arc::new(rules());
    let mut rng = GameRng::new(seed, Stream::Tune(6));
    let (mut actions, mut scratch) = (Vec::new(), Vec::new());
    let mut groups = Vec::new();
    let mut smart = Builtin::new(Strategy::Dodger, seed);
    while (groups.len() as u64) < count {
        let mut game = Circle::new(rules.clone(), seats).expect("a circle game");
        game.deal_random(&mut rng, &mut Discard).expect("a deal");
        // A point of the game at random, up to about its last moves.
        let stop = rng.below(if seats == 2 { 45 } else { 22 * seats as u32 });
        if dodger == 0 {
            random_moves(&mut game, &mut rng, &mut scratch, stop);
        } else {
            // Each move the dodger's `dodger` percent of the time, else at random.
            for _ in 0..stop {
                let ToMove::Seat(seat, _) = game.to_move() else {
                    break;
                };
                let action = if rng.below(100) < dodger {
                    smart.choose(&game.view(seat))
                } else {
                    scratch.clear();
                    game.legal_actions(seat, &mut scratch);
                    scratch[rng.below(scratch.len() as u32) as usize]
                };
                game.apply(seat, action, &mut Discard)
                    .expect("a legal action");
            }
        }
        let ToMove::Seat(me, _) = game.to_move() else {
            continue;
        };
        actions.clear();
        game.legal_actions(me, &mut actions);
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
            after.value_features(me, &mut features);
            let mut sum = 0.0;
            for &future in &futures {
                let mut rollout = after.clone();
                let mut rng = GameRng::new(future, Stream::Tune(7));
                random_moves(&mut rollout, &mut rng, &mut scratch, u32::MAX);
                sum += rollout.standing(me) - now;
            }
            let target = sum / rollouts as f32;
            group.push(Sample { features, target });
        }
        groups.push(group);
    }
    groups
}

const PARAMS: usize = HIDDEN * ROW_FEATURES + HIDDEN + HIDDEN + GLOBAL_FEATURES;

fn flatten(net: &ValueNet) -> Vec<f32> {
    let mut p = Vec::with_capacity(PARAMS);
    for h in 0..HIDDEN {
        p.extend_from_slice(&net.w1[h]);
    }
    p.extend_from_slice(&net.b1);
    p.extend_from_slice(&net.w2);
    p.extend_from_slice(&net.global);
    p
}

fn unflatten(p: &[f32]) -> ValueNet {
    let mut net = ValueNet::zero();
    let mut i = 0;
    for h in 0..HIDDEN {
        net.w1[h].copy_from_slice(&p[i..i + ROW_FEATURES]);
        i += ROW_FEATURES;
    }
    net.b1.copy_from_slice(&p[i..i + HIDDEN]);
    i += HIDDEN;
    net.w2.copy_from_slice(&p[i..i + HIDDEN]);
    i += HIDDEN;
    net.global.copy_from_slice(&p[i..i + GLOBAL_FEATURES]);
    net
}

/// Adds the gradient of (y - target)² for `sample` into `grad` (laid out as [`flatten`]).
fn gradient(net: &ValueNet, sample: &Sample, grad: &mut [f32]) {
    let y = net.evaluate(&sample.features);
    let e = 2.0 * (y - sample.target);
    let (b1, w2) = (HIDDEN * ROW_FEATURES, HIDDEN * ROW_FEATURES + HIDDEN);
    let global = w2 + HIDDEN;
    for row in &sample.features.rows {
        for h in 0..HIDDEN {
            let a: f32 = net.w1[h].iter().zip(row).map(|(w, x)| w * x).sum::<f32>() + net.b1[h];
            grad[w2 + h] += e * fast_tanh(a);
            let d = e * net.w2[h] * fast_tanh_slope(a);
            grad[b1 + h] += d;
            for (i, x) in row.iter().enumerate() {
                grad[h * ROW_FEATURES + i] += d * x;
            }
        }
    }
    for (i, x) in sample.features.global.iter().enumerate() {
        grad[global + i] += e * x;
    }
}

/// Adds the gradient of a decision's error, each action's worth against the decision's mean,
/// into `grad`; returns the mean squared error.
fn group_gradient(net: &ValueNet, group: &[Sample], grad: &mut [f32]) -> f32 {
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

fn train(seats: usize, count: u64, rollouts: usize, epochs: usize, out: &str, dodger: u32) {
    let seed = 1;
    let mut train = decisions(count, seats, seed, rollouts, dodger);
    let test = decisions(count / 10, seats, seed + 1_000_000, rollouts, dodger);
    eprintln!(
        "{} decisions to learn from, {} to test",
        train.len(),
        test.len()
    );
    let mut rng = GameRng::new(seed, Stream::Tune(2));
    let mut net = ValueNet::zero();
    for h in 0..HIDDEN {
        for w in &mut net.w1[h] {
            *w = (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.3;
        }
        net.w2[h] = (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.3;
    }
    let mut params = flatten(&net);
    let (mut m, mut v, mut t) = (vec![0.0f32; PARAMS], vec![0.0f32; PARAMS], 0);
    let mut grad = vec![0.0f32; PARAMS];
    let test_loss = |net: &ValueNet| {
        let mut g = vec![0.0f32; PARAMS];
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
            for i in 0..PARAMS {
                let g = grad[i] / chunk.len() as f32;
                m[i] = b1 * m[i] + (1.0 - b1) * g;
                v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                let m_hat = m[i] / (1.0 - b1.powi(t));
                let v_hat = v[i] / (1.0 - b2.powi(t));
                params[i] -= rate * m_hat / (v_hat.sqrt() + 1e-8);
            }
            net = unflatten(&params);
        }
        eprintln!(
            "epoch {epoch}: error {:.2} learning, {:.2} on the test decisions",
            loss / train.len() as f64,
            test_loss(&net)
        );
    }
    std::fs::write(out, net.to_text()).expect("the weights written");
}

/// Decisions of seat 0 in two-seat random games, at a point drawn by `phase`.
fn decisions_of_seat_0(count: usize, phase: &str) -> Vec<Circle> {
    let rules = Arc::new(rules());
    let mut rng = GameRng::new(91, Stream::Tune(4));
    let (mut actions, mut scratch) = (Vec::new(), Vec::new());
    let mut games = Vec::new();
    while games.len() < count {
        let mut game = Circle::new(rules.clone(), 2).expect("a circle game");
        game.deal_random(&mut rng, &mut Discard).expect("a deal");
        let stop = match phase {
            "early" => rng.below(10),
            "late" => 20 + rng.below(25),
            _ => rng.below(40),
        };
        random_moves(&mut game, &mut rng, &mut scratch, stop);
        actions.clear();
        game.legal_actions(0, &mut actions);
        if matches!(game.to_move(), ToMove::Seat(0, _)) && actions.len() > 1 {
            games.push(game);
        }
    }
    games
}

fn regret(net: &ValueNet, phase: &str) {
    let (truth_rollouts, budgets) = (256, [4usize, 8, 16, 32, 64]);
    let mut by_rollouts = vec![0.0f64; budgets.len()];
    let mut by_network = 0.0f64;
    let (mut actions, mut scratch) = (Vec::new(), Vec::new());
    let games = decisions_of_seat_0(200, phase);
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
            let mut features = Features::default();
            after.value_features(0, &mut features);
            let rest = match after.to_move() {
                ToMove::Seat(..) => net.evaluate(&features),
                _ => 0.0,
            };
            judged[a] = f64::from(after.standing(0) - base + rest);
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

fn speed(net: &ValueNet) {
    let games = decisions_of_seat_0(2000, "any");
    let mut features = Features::default();
    let mut sum = 0.0;
    let start = std::time::Instant::now();
    for _ in 0..50 {
        for game in &games {
            game.value_features(0, &mut features);
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
            while let ToMove::Seat(seat, _) = rollout.to_move() {
                actions.clear();
                rollout.legal_actions(seat, &mut actions);
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

fn weights(path: Option<&String>) -> ValueNet {
    let path = path.expect("the weights' file");
    let text = std::fs::read_to_string(path).expect("the weights' file readable");
    ValueNet::from_text(&text).expect("the weights of this network")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> u64 {
        (args.get(i).and_then(|a| a.parse().ok()))
            .expect("train SEATS DECISIONS ROLLOUTS EPOCHS OUT")
    };
    match args.first().map(String::as_str) {
        Some("train") => train(
            number(1) as usize,
            number(2),
            number(3) as usize,
            number(4) as usize,
            args.get(5).expect("the weights' file to write"),
            args.get(6).and_then(|a| a.parse().ok()).unwrap_or(0),
        ),
        Some("regret") => regret(&weights(args.get(1)), args.get(2).map_or("any", |p| p)),
        Some("speed") => speed(&weights(args.get(1))),
        _ => eprintln!("usage: circle_value train|regret|speed ... (see the file's head)"),
    }
}
