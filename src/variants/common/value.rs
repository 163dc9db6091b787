//! A learnt judgement of a table ([`Model::judged`]), the network every variant that has one
//! shares: one small network, shared by every part of the table the variant reads alike (the
//! circle game's rows, say), judges each part, and a linear term the rest; the table's worth
//! is their sum. What a variant reads of its table (the inputs, `R` a part and `G` the rest),
//! its weights and what the worth stands for are its own (src/variants/circle/value.rs,
//! src/variants/take_a_number/value.rs); the arithmetic is this file's, in a fixed order, so a
//! judgement is the same on every machine.
//!
//! Weights are trained by `examples/learn_judgement.rs` (docs/mcs.md, "Ninth round", "Tenth
//! round").
//!
//! [`Model::judged`]: crate::game::model::Model::judged

use smallvec::SmallVec;

/// The hidden units of the network a part.
pub const HIDDEN: usize = 32;

/// The most parts a table is read as, kept without allocating (a dealt circle's 16 rows).
const PARTS: usize = 16;

/// A table as a network reads it, for one seat: `R` inputs for each part, `G` for the rest.
#[derive(Clone, Debug)]
pub struct Features<const R: usize, const G: usize> {
    pub rows: SmallVec<[[f32; R]; PARTS]>,
    pub global: [f32; G],
}

impl<const R: usize, const G: usize> Default for Features<R, G> {
    fn default() -> Self {
        Features {
            rows: SmallVec::new(),
            global: [0.0; G],
        }
    }
}

/// A network's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueNet<const R: usize, const G: usize> {
    pub w1: [[f32; R]; HIDDEN],
    pub b1: [f32; HIDDEN],
    pub w2: [f32; HIDDEN],
    pub global: [f32; G],
}

impl<const R: usize, const G: usize> ValueNet<R, G> {
    /// How many weights it has.
    pub const PARAMETERS: usize = HIDDEN * R + HIDDEN + HIDDEN + G;

    /// Every weight 0 (training starts from its own draw).
    pub fn zero() -> Self {
        ValueNet {
            w1: [[0.0; R]; HIDDEN],
            b1: [0.0; HIDDEN],
            w2: [0.0; HIDDEN],
            global: [0.0; G],
        }
    }

    /// The worth of `features`' table.
    pub fn evaluate(&self, features: &Features<R, G>) -> f32 {
        let mut sum: f32 = dot(&self.global, &features.global);
        for row in &features.rows {
            for h in 0..HIDDEN {
                sum += self.w2[h] * fast_tanh(dot(&self.w1[h], row) + self.b1[h]);
            }
        }
        sum
    }

    /// The weights as whitespace-separated numbers (w1 by hidden unit, b1, w2, global).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for h in 0..HIDDEN {
            push_line(&mut out, &self.w1[h]);
        }
        push_line(&mut out, &self.b1);
        push_line(&mut out, &self.w2);
        push_line(&mut out, &self.global);
        out
    }

    /// Reads [`ValueNet::to_text`]'s numbers: `None` unless there are exactly as many as the
    /// network has weights, each a number.
    pub fn from_text(text: &str) -> Option<Self> {
        let numbers: Option<Vec<f32>> = text.split_whitespace().map(|n| n.parse().ok()).collect();
        let numbers = numbers.filter(|numbers| numbers.len() == Self::PARAMETERS)?;
        Some(Self::unflatten(&numbers))
    }

    /// The weights in one list, in [`ValueNet::to_text`]'s order (for training).
    pub fn flatten(&self) -> Vec<f32> {
        let mut p = Vec::with_capacity(Self::PARAMETERS);
        for h in 0..HIDDEN {
            p.extend_from_slice(&self.w1[h]);
        }
        p.extend_from_slice(&self.b1);
        p.extend_from_slice(&self.w2);
        p.extend_from_slice(&self.global);
        p
    }

    /// [`ValueNet::flatten`]'s inverse.
    pub fn unflatten(p: &[f32]) -> Self {
        let mut net = ValueNet::zero();
        let mut i = 0;
        for h in 0..HIDDEN {
            net.w1[h].copy_from_slice(&p[i..i + R]);
            i += R;
        }
        net.b1.copy_from_slice(&p[i..i + HIDDEN]);
        i += HIDDEN;
        net.w2.copy_from_slice(&p[i..i + HIDDEN]);
        i += HIDDEN;
        net.global.copy_from_slice(&p[i..i + G]);
        net
    }
}

/// A variant's shipped networks, by the table size each was trained for.
pub struct Shipped<const R: usize, const G: usize>(Vec<(usize, ValueNet<R, G>)>);

impl<const R: usize, const G: usize> Shipped<R, G> {
    /// Reads each table size's weights (the text shipped with the program: whole, or a bug).
    pub fn read(texts: &[(usize, &str)]) -> Self {
        let read = |&(seats, text): &(usize, &str)| {
            let net = ValueNet::from_text(text).expect("whole shipped weights");
            (seats, net)
        };
        Shipped(texts.iter().map(read).collect())
    }

    /// The network for a table of `seats`, if there is one.
    pub fn for_seats(&self, seats: usize) -> Option<&ValueNet<R, G>> {
        self.0.iter().find(|(s, _)| *s == seats).map(|(_, net)| net)
    }
}

fn push_line(out: &mut String, weights: &[f32]) {
    let line: Vec<String> = weights.iter().map(|w| format!("{w}")).collect();
    out.push_str(&line.join(" "));
    out.push('\n');
}

/// A dot product in four running sums (in a fixed order, so the same on every machine),
/// which the compiler turns into vector instructions where one sum in order would not.
fn dot<const N: usize>(a: &[f32; N], b: &[f32; N]) -> f32 {
    let mut sums = [0.0f32; 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let rest: f32 = (a4.remainder().iter().zip(b4.remainder()))
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a4.zip(b4) {
        for i in 0..4 {
            sums[i] += x[i] * y[i];
        }
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + rest
}

/// The network's activation: tanh's rational approximation x(27 + x²)/(27 + 9x²), ±1 from
/// |x| = 3 on (within 0.024 of tanh; the network is trained with it). The library's tanh was
/// half a judgement's time, and this one is plain arithmetic, the same on every machine.
#[inline]
pub fn fast_tanh(x: f32) -> f32 {
    let x = x.clamp(-3.0, 3.0);
    let x2 = x * x;
    x * (27.0 + x2) / (27.0 + 9.0 * x2)
}

/// [`fast_tanh`]'s slope at `x` (for training).
pub fn fast_tanh_slope(x: f32) -> f32 {
    if x.abs() >= 3.0 {
        return 0.0;
    }
    let x2 = x * x;
    let d = 27.0 + 9.0 * x2;
    ((27.0 + 3.0 * x2) * d - 18.0 * x2 * (27.0 + x2)) / (d * d)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Small = ValueNet<3, 2>;

    fn small() -> Small {
        let numbers: Vec<f32> = (0..Small::PARAMETERS)
            .map(|i| i as f32 / 50.0 - 1.0)
            .collect();
        Small::unflatten(&numbers)
    }

    #[test]
    fn weights_are_written_back_as_read_and_flattened_in_the_texts_order() {
        let net = small();
        assert_eq!(Small::from_text(&net.to_text()).as_ref(), Some(&net));
        let from_text: Vec<f32> = (net.to_text().split_whitespace())
            .map(|n| n.parse().expect("a number"))
            .collect();
        assert_eq!(from_text, net.flatten());
    }

    #[test]
    fn weights_of_another_shape_or_not_numbers_are_refused() {
        let text = small().to_text();
        let mut numbers: Vec<&str> = text.split_whitespace().collect();
        assert!(Small::from_text(&numbers[1..].join(" ")).is_none());
        assert!(Small::from_text(&format!("{text} 1.5")).is_none());
        numbers[7] = "seven";
        assert!(Small::from_text(&numbers.join(" ")).is_none());
        assert!(Small::from_text("").is_none());
    }

    #[test]
    fn a_table_is_worth_its_linear_term_and_each_parts_units() {
        let net = small();
        let mut features = Features::<3, 2> {
            global: [1.0, 2.0],
            ..Default::default()
        };
        assert_eq!(net.evaluate(&features), dot(&net.global, &features.global));
        features.rows.push([0.5, -0.25, 1.0]);
        let one = net.evaluate(&features);
        features.rows.push([0.5, -0.25, 1.0]);
        let linear = dot(&net.global, &features.global);
        assert!(((net.evaluate(&features) - linear) - 2.0 * (one - linear)).abs() < 1e-5);
    }

    #[test]
    fn the_activation_is_near_tanh_odd_and_its_slope_its_derivative() {
        for i in -600..=600 {
            let x = i as f32 / 100.0;
            assert!((fast_tanh(x) - x.tanh()).abs() < 0.024, "{x}");
            assert_eq!(fast_tanh(-x), -fast_tanh(x));
            assert!(fast_tanh(x).abs() <= 1.0 + 1e-6);
            if x.abs() < 2.99 {
                let h = 1e-3;
                let slope = (fast_tanh(x + h) - fast_tanh(x - h)) / (2.0 * h);
                assert!((fast_tanh_slope(x) - slope).abs() < 1e-2, "{x}");
            } else if x.abs() > 3.0 {
                assert_eq!(fast_tanh_slope(x), 0.0);
            }
        }
    }
}
