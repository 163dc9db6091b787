//! SPSA (simultaneous perturbation stochastic approximation, J. C. Spall), as the chess engines'
//! tuners use it: every parameter is perturbed at once, by `+c_k` or `-c_k` of its range at
//! random, the two sides play each other on the same deals, and every parameter steps by the
//! result, in the direction of its own perturbation. The formulas are in docs/tuning.md.
//!
//! Everything is in shares of each parameter's range (`u = (theta - min) / (max - min)`), so one
//! set of gains serves parameters of any scale.

use super::config::Param;
use crate::rng::{GameRng, Stream};
use serde::{Deserialize, Serialize};
use serde_saphyr::{Location, Spanned};

/// The gains: at iteration `k` (from 0) the perturbation is `c_k = c / (k + 1)^gamma` of each
/// range and the step's gain `a_k = a / (k + 1 + A)^alpha`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gains {
    pub a: f64,
    pub c: f64,
    #[serde(rename = "A")]
    pub big_a: f64,
    pub alpha: f64,
    pub gamma: f64,
}

/// The gains as a file gives them (`spsa:`), each optional.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GivenGains {
    a: Option<Spanned<f64>>,
    c: Option<Spanned<f64>>,
    #[serde(rename = "A")]
    big_a: Option<Spanned<f64>>,
    alpha: Option<Spanned<f64>>,
    gamma: Option<Spanned<f64>>,
}

/// Spall's exponents, which the chess tuners keep.
pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;
/// The first perturbation, as a share of each range.
pub const C: f64 = 0.1;

impl Gains {
    /// The gains of a run of `iterations`, from what is given: `c` 0.1 (a tenth of each range),
    /// `A` a tenth of the iterations, `alpha` 0.602, `gamma` 0.101, and `a = 2 c^2 (1 + A)^alpha`,
    /// so that a first iteration in which one side takes every point moves each parameter by
    /// `c` (its perturbation).
    pub fn new(iterations: u64, given: &GivenGains) -> Result<Gains, (Location, String)> {
        let value =
            |g: &Option<Spanned<f64>>, default: f64| g.as_ref().map_or(default, |s| s.value);
        let c = value(&given.c, C);
        let big_a = value(&given.big_a, iterations as f64 / 10.0);
        let alpha = value(&given.alpha, ALPHA);
        let gamma = value(&given.gamma, GAMMA);
        let a = value(&given.a, 2.0 * c * c * (1.0 + big_a).powf(alpha));
        let checks: [(&Option<Spanned<f64>>, f64, bool, &str); 5] = [
            (
                &given.c,
                c,
                c > 0.0 && c <= 0.5,
                "c (a share of each range) must be above 0 and at most 0.5",
            ),
            (&given.big_a, big_a, big_a >= 0.0, "A must be at least 0"),
            (&given.alpha, alpha, alpha > 0.0, "alpha must be above 0"),
            (
                &given.gamma,
                gamma,
                gamma >= 0.0,
                "gamma must be at least 0",
            ),
            (&given.a, a, a > 0.0, "a must be above 0"),
        ];
        for (written, value, fits, rule) in checks {
            if !(value.is_finite() && fits) {
                let place = written.as_ref().map_or(Location::UNKNOWN, |s| s.referenced);
                return Err((place, format!("spsa: {rule} (it is {value})")));
            }
        }
        Ok(Gains {
            a,
            c,
            big_a,
            alpha,
            gamma,
        })
    }

    /// `c_k`: the perturbation at iteration `k`, as a share of each range.
    pub fn c_at(&self, k: u64) -> f64 {
        self.c / ((k + 1) as f64).powf(self.gamma)
    }

    /// `a_k`: the step's gain at iteration `k`.
    pub fn a_at(&self, k: u64) -> f64 {
        self.a / ((k + 1) as f64 + self.big_a).powf(self.alpha)
    }
}

/// What iteration `k` of a tuning seeded with `seed` draws: the seed of its deals, and each
/// parameter's direction (+1 or -1). From stream `Tune(k)` of the seed: its first 64 bits, then
/// one `below(2)` per parameter (0: -1, 1: +1).
pub fn draws(seed: u64, k: u64, params: usize) -> (u64, Vec<i8>) {
    let mut rng = GameRng::new(seed, Stream::Tune(k));
    let deals = (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32());
    let delta = (0..params)
        .map(|_| if rng.below(2) == 0 { -1 } else { 1 })
        .collect();
    (deals, delta)
}

/// The number of the stream the verification's seed comes from (no iteration's).
pub const VERIFY_STREAM: u64 = (1 << 62) - 1;

/// The seed of the verification's deals: the first 64 bits of stream `Tune(2^62 - 1)`.
pub fn verify_seed(seed: u64) -> u64 {
    let mut rng = GameRng::new(seed, Stream::Tune(VERIFY_STREAM));
    (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32())
}

/// Each parameter's perturbation at iteration `k`, as a share of its range: `c_k`, but for a
/// whole-number parameter at least half a unit, so that its two sides always play values one
/// apart at least (round(x + 1/2) - round(x - 1/2) = 1).
pub fn perturbations(gains: &Gains, k: u64, params: &[Param]) -> Vec<f64> {
    let c = gains.c_at(k);
    params
        .iter()
        .map(|p| if p.integer { c.max(0.5 / p.range()) } else { c })
        .collect()
}

fn share(p: &Param, value: f64) -> f64 {
    (value - p.min) / p.range()
}

fn value(p: &Param, share: f64) -> f64 {
    p.min + share.clamp(0.0, 1.0) * p.range()
}

/// The two sides of `theta`: each parameter moved by its perturbation `c` (a share of its range)
/// in its direction `delta` (plus) and against it (minus), kept within its range.
pub fn sides(params: &[Param], theta: &[f64], c: &[f64], delta: &[i8]) -> (Vec<f64>, Vec<f64>) {
    let side = |sign: f64| -> Vec<f64> {
        params
            .iter()
            .enumerate()
            .map(|(i, p)| value(p, share(p, theta[i]) + sign * c[i] * f64::from(delta[i])))
            .collect()
    };
    (side(1.0), side(-1.0))
}

/// The next `theta` after iteration `k`: each parameter's share moves by
/// `a_k * result / (2 c_i) * delta_i`, kept within its range, where `result` is what plus took
/// from minus, per game, minus what minus took from plus (from -1 to 1: a game ranked ahead
/// counts 1, level 1/2).
pub fn step(
    gains: &Gains,
    k: u64,
    params: &[Param],
    theta: &[f64],
    c: &[f64],
    delta: &[i8],
    result: f64,
) -> Vec<f64> {
    let a = gains.a_at(k);
    params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let moved = share(p, theta[i]) + a * result / (2.0 * c[i]) * f64::from(delta[i]);
            value(p, moved)
        })
        .collect()
}

/// The result of an iteration from its games: `(ahead - behind) / games`, plus's games ranked
/// ahead of minus and behind it.
pub fn result(ahead: u64, behind: u64, games: u64) -> f64 {
    (ahead as f64 - behind as f64) / games as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(integer: bool, max: f64) -> Param {
        Param {
            name: "x".into(),
            min: 0.0,
            max,
            start: 0.0,
            integer,
        }
    }

    /// The defaults for 100 iterations: A = 10, a = 2 * 0.01 * 11^0.602 = 0.08478; at the
    /// first iteration a_0 = a / 11^0.602 = 0.02 and c_0 = 0.1, so a sweep (result 1) moves a
    /// parameter by a_0 / (2 c_0) = 0.1 of its range, its perturbation.
    #[test]
    fn the_default_gains_move_a_parameter_by_its_perturbation_after_a_sweep() {
        let g = Gains::new(100, &GivenGains::default()).unwrap();
        assert_eq!((g.c, g.big_a, g.alpha, g.gamma), (0.1, 10.0, 0.602, 0.101));
        assert!((g.a - 0.084_78).abs() < 1e-4, "{}", g.a);
        assert!((g.a_at(0) - 0.02).abs() < 1e-12);
        assert!((g.c_at(0) - 0.1).abs() < 1e-12);
        // c_99 = 0.1 / 100^0.101 = 0.0628.
        assert!((g.c_at(99) - 0.0628).abs() < 1e-4, "{}", g.c_at(99));
        let p = [param(false, 1.0)];
        let next = step(&g, 0, &p, &[0.5], &[0.1], &[1], 1.0);
        assert!((next[0] - 0.6).abs() < 1e-12, "{next:?}");
        // Against the direction, and kept within the range.
        let next = step(&g, 0, &p, &[0.05], &[0.1], &[1], -1.0);
        assert_eq!(next, [0.0]);
    }

    #[test]
    fn sides_stay_in_range_and_whole_parameters_differ_by_at_least_one() {
        let g = Gains::new(1000, &GivenGains::default()).unwrap();
        let p = [param(true, 6.0), param(false, 1.0)];
        let c = perturbations(&g, 999, &p);
        // c_999 = 0.1 / 1000^0.101 = 0.0498 of 6 is below half a unit: half a unit.
        assert!((c[0] - 0.5 / 6.0).abs() < 1e-12);
        assert!((c[1] - 0.0498).abs() < 1e-4);
        let (plus, minus) = sides(&p, &[3.0, 0.99], &c, &[-1, 1]);
        assert_eq!((plus[0].round(), minus[0].round()), (3.0, 4.0));
        assert_eq!(plus[1], 1.0);
        assert!((minus[1] - (0.99 - 0.0498)).abs() < 1e-4);
    }

    #[test]
    fn the_draws_depend_on_the_seed_and_the_iteration_only() {
        assert_eq!(draws(7, 3, 4), draws(7, 3, 4));
        assert_ne!(draws(7, 3, 4).0, draws(7, 4, 4).0);
        assert_ne!(draws(7, 3, 4).0, draws(8, 3, 4).0);
        // The first parameters' directions do not depend on how many there are.
        assert_eq!(draws(7, 3, 4).1[..2], draws(7, 3, 2).1[..]);
        assert_ne!(verify_seed(7), draws(7, 0, 0).0);
        let signs: Vec<i8> = (0..64).flat_map(|k| draws(1, k, 1).1).collect();
        assert!(signs.contains(&1) && signs.contains(&-1));
    }
}
