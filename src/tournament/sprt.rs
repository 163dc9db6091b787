//! The sequential probability ratio test (SPRT) of one pair of bots over duplicate deals
//! (docs/tournaments.md), as the chess tools run it (fastchess's pentanomial model): each deal
//! the two bots played is one observation, scored by the share of points the first bot took from
//! the second over the deal's games (1 a game ranked ahead, 1/2 level, 0 behind). With two
//! seats a deal is two games and its score one of 0, 1/4, 1/2, 3/4, 1: fastchess's pentanomial
//! counts. With `n` games to a deal it is one of the `2n + 1` values `h / 2n`.
//!
//! The log-likelihood ratio is the generalized one of a multinomial distribution (M. Van den
//! Bergh, "Comparing the approximations for the generalized log likelihood ratio of a
//! multinomial distribution", Proposition 1.1) under the logistic Elo model: H0 says the
//! expected score is `score(elo0)`, H1 `score(elo1)`, `score(e) = 1 / (1 + 10^(-e/400))`.

use serde::Serialize;

/// The test's settings: the Elo difference under each hypothesis, and the error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Decision {
    /// Not yet (or the games ran out first).
    Continue,
    H0,
    H1,
}

impl Decision {
    pub fn name(self) -> &'static str {
        match self {
            Decision::Continue => "continue",
            Decision::H0 => "H0",
            Decision::H1 => "H1",
        }
    }
}

/// The largest Elo difference a test may name (either way): an expected score of 99.7%, far past
/// any pair a test is for. Further out the expected score rounds to 1 and the LLR is NaN, which
/// never decides.
pub const MAX_ELO: f64 = 1000.0;

/// The expected score of a bot `elo` Elo stronger than its opponent (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score (infinite at 0 and 1; 0, not -0, at 1/2).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

impl Sprt {
    /// `elo0=E,elo1=E[,alpha=P][,beta=P]` (alpha and beta 0.05 when not given), each key once,
    /// each Elo within [`MAX_ELO`] of 0.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, None, None);
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}` is not KEY=VALUE (e.g. elo0=0)"))?;
            let key = key.trim();
            let number: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("{key}: `{value}` is not a finite number"))?;
            let setting = match key {
                "elo0" => &mut elo0,
                "elo1" => &mut elo1,
                "alpha" => &mut alpha,
                "beta" => &mut beta,
                other => {
                    return Err(format!(
                        "`{other}` is not a setting of the test (elo0, elo1, alpha, beta)"
                    ));
                }
            };
            if key.starts_with("elo") && number.abs() > MAX_ELO {
                return Err(format!(
                    "{key} ({}) must be between -{MAX_ELO} and {MAX_ELO} (an Elo difference; \
                     {MAX_ELO} is an expected score of {:.1}%)",
                    value.trim(),
                    100.0 * score_of_elo(MAX_ELO)
                ));
            }
            if setting.replace(number).is_some() {
                return Err(format!("{key} is given twice"));
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("give both elo0 and elo1 (e.g. elo0=0,elo1=10)".to_string());
        };
        let sprt = Sprt {
            elo0,
            elo1,
            alpha: alpha.unwrap_or(0.05),
            beta: beta.unwrap_or(0.05),
        };
        sprt.check()?;
        Ok(sprt)
    }

    fn check(&self) -> Result<(), String> {
        if self.elo0 >= self.elo1 {
            return Err(format!(
                "elo0 ({}) must be below elo1 ({})",
                self.elo0, self.elo1
            ));
        }
        for (name, p) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(p > 0.0 && p < 1.0) {
                return Err(format!("{name} ({p}) must be between 0 and 1"));
            }
        }
        if self.alpha + self.beta >= 1.0 {
            return Err("alpha + beta must be below 1".to_string());
        }
        Ok(())
    }

    /// The LLR at or below which H0 is accepted: ln(beta / (1 - alpha)).
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR at or above which H1 is accepted: ln((1 - beta) / alpha).
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    pub fn decide(&self, llr: f64) -> Decision {
        if llr >= self.upper() {
            Decision::H1
        } else if llr <= self.lower() {
            Decision::H0
        } else {
            Decision::Continue
        }
    }

    /// The log-likelihood ratio of H1 against H0 given `counts`: how many deals had each score,
    /// as `(score, deals)`. Every score a deal could have must be listed, with 0 deals if none
    /// had it: like fastchess, a count of 0 is taken as 0.001, so that the most likely
    /// distribution under each hypothesis exists even when every deal scored the same.
    pub fn llr(&self, counts: &[(f64, u64)]) -> f64 {
        if counts.len() < 2 || counts.iter().all(|&(_, n)| n == 0) {
            return 0.0;
        }
        let regularized: Vec<f64> = counts
            .iter()
            .map(|&(_, n)| if n == 0 { 1e-3 } else { n as f64 })
            .collect();
        let total: f64 = regularized.iter().sum();
        let scores: Vec<f64> = counts.iter().map(|&(s, _)| s).collect();
        let probs: Vec<f64> = regularized.iter().map(|n| n / total).collect();
        let p0 = most_likely(&scores, &probs, score_of_elo(self.elo0));
        let p1 = most_likely(&scores, &probs, score_of_elo(self.elo1));
        total
            * probs
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(p, (a, b))| p * (b.ln() - a.ln()))
                .sum::<f64>()
    }
}

/// The distribution closest to the empirical `probs` over `scores` (most likely given the
/// observations) whose mean is `s`: `p_i / (1 + theta (a_i - s))`, theta the root of
/// `sum p_i (a_i - s) / (1 + theta (a_i - s)) = 0` (Van den Bergh's equations 1.2 and 1.3).
/// The sum falls from +inf to -inf over theta's interval, so bisection finds the root to the
/// last bit.
fn most_likely(scores: &[f64], probs: &[f64], s: f64) -> Vec<f64> {
    let f = |theta: f64| -> f64 {
        scores
            .iter()
            .zip(probs)
            .map(|(a, p)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = scores.iter().copied().fold(f64::INFINITY, f64::min);
    let (mut lo, mut hi) = (-1.0 / (max - s), -1.0 / (min - s));
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    scores
        .iter()
        .zip(probs)
        .map(|(a, p)| p / (1.0 + theta * (a - s)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `counts[h]` deals scored `h / (counts.len() - 1)`.
    fn llr(counts: &[u64], elo0: f64, elo1: f64) -> f64 {
        let k = (counts.len() - 1) as f64;
        let counts: Vec<(f64, u64)> = counts
            .iter()
            .enumerate()
            .map(|(h, &n)| (h as f64 / k, n))
            .collect();
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
        .llr(&counts)
    }

    /// The expected values come from scripts/sprt_reference.py, a separate Python
    /// implementation of the same published formula (Van den Bergh's Proposition 1.1 with
    /// fastchess's regularization of empty counts to 0.001, bisection to the last bit); run it to
    /// see them again. The first three are pentanomial counts (two seats, LL LD WL+DD WD WW),
    /// the last one a deal of three games (seven scores).
    #[test]
    fn the_llr_matches_an_independent_computation_of_the_published_formula() {
        let cases: [(&[u64], f64, f64, f64); 4] = [
            (&[5, 20, 50, 20, 5], 0.0, 5.0, -0.05173909209114538),
            (&[2, 10, 40, 30, 18], 0.0, 5.0, 1.1770790117248071),
            (&[0, 0, 0, 1, 30], 0.0, 10.0, 0.8794398493678152),
            (&[3, 7, 12, 20, 12, 9, 4], -5.0, 5.0, 0.26834925986352226),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let got = llr(counts, elo0, elo1);
            assert!(
                (got - expected).abs() < 1e-9,
                "{counts:?} [{elo0}, {elo1}]: {got} != {expected}"
            );
        }
    }

    #[test]
    fn bounds_are_walds_and_decide_at_them() {
        let sprt = Sprt::parse("elo0=0, elo1=5").unwrap();
        // ln(0.05 / 0.95) and ln(0.95 / 0.05), as the reference script prints.
        assert!((sprt.lower() - -2.9444389791664403).abs() < 1e-12);
        assert!((sprt.upper() - 2.9444389791664403).abs() < 1e-12);
        assert_eq!(sprt.decide(3.0), Decision::H1);
        assert_eq!(sprt.decide(-3.0), Decision::H0);
        assert_eq!(sprt.decide(0.5), Decision::Continue);
    }

    #[test]
    fn bad_settings_are_named() {
        for (text, said) in [
            ("elo0=5,elo1=0", "must be below elo1"),
            ("elo0=0", "give both"),
            ("elo0=0,elo1=5,alpha=1.5", "alpha (1.5)"),
            ("elo0=0,elo1=5,gamma=1", "`gamma` is not a setting"),
            ("elo0=x,elo1=5", "elo0: `x` is not a finite number"),
            ("elo0=0,elo1=NaN", "elo1: `NaN` is not a finite number"),
            ("elo0=-inf,elo1=5", "elo0: `-inf` is not a finite number"),
            (
                "elo0=0,elo1=1e308",
                "elo1 (1e308) must be between -1000 and 1000",
            ),
            (
                "elo0=-1001,elo1=0",
                "elo0 (-1001) must be between -1000 and 1000",
            ),
            ("elo0=0,elo1=5,elo1=10", "elo1 is given twice"),
            ("elo0=0,elo1=5,alpha=0.1,alpha=0.2", "alpha is given twice"),
            ("elo0=0,elo1=5,alpha=0.6,beta=0.5", "alpha + beta"),
        ] {
            let err = Sprt::parse(text).unwrap_err();
            assert!(err.contains(said), "{text}: {err}");
        }
    }

    /// At the largest Elo a test may name, the LLR is a number, and it decides.
    #[test]
    fn the_llr_at_the_largest_elo_decides() {
        let sprt = Sprt::parse(&format!("elo0=-{MAX_ELO},elo1={MAX_ELO}")).unwrap();
        for counts in [
            [0, 0, 0, 0, 40],
            [40, 0, 0, 0, 0],
            [1, 5, 20, 5, 1],
            [0, 0, 0, 1, 30],
        ] {
            let counts: Vec<(f64, u64)> = counts
                .iter()
                .enumerate()
                .map(|(h, &n)| (h as f64 / 4.0, n))
                .collect();
            assert!(sprt.llr(&counts).is_finite(), "{counts:?}");
        }
        let won: Vec<(f64, u64)> = (0..5)
            .map(|h| (h as f64 / 4.0, if h == 4 { 200 } else { 0 }))
            .collect();
        let tight = Sprt::parse(&format!("elo0=0,elo1={MAX_ELO}")).unwrap();
        assert_eq!(tight.decide(tight.llr(&won)), Decision::H1);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-15);
        for elo in [-300.0, -7.5, 0.0, 42.0, 200.0] {
            assert!((elo_of_score(score_of_elo(elo)) - elo).abs() < 1e-9);
        }
    }
}
