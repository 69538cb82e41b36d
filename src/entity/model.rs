//! Model: a multinomial logistic regression, with a few hidden tanh units
//! beside its linear part, that scores a candidate string as not a name, a
//! person or a place from its book-level features (see
//! `recognize::features`). Trained offline by `zhnovel train` on books with
//! answer keys and shipped as text (`model/entity-model.tsv`), so what a
//! model learned can be read and diffed.
//!
//! Training is deterministic: full-batch gradient descent on standardized
//! features from zero linear weights and fixed pseudo-random hidden ones, a
//! fixed number of steps, the gradient summed over fixed blocks in order.

use std::fmt::Write as _;

/// The classes a model tells apart, in the order of its weight columns.
pub const CLASSES: [&str; 3] = ["none", "person", "place"];

/// Index of `none` in `CLASSES`.
pub const NONE: usize = 0;
pub const PERSON: usize = 1;
pub const PLACE: usize = 2;

/// The model shipped with zhnovel (see `model/README.md` for its training data).
pub const BUILTIN: &str = include_str!("../../model/entity-model.tsv");

/// Weights per class over standardized features.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Feature names, in the order the recognizer computes them.
    pub features: Vec<String>,
    /// Per feature: mean and scale used to standardize it.
    pub mean: Vec<f32>,
    pub scale: Vec<f32>,
    /// `weights[class][feature]`, then one bias per class.
    pub weights: Vec<Vec<f32>>,
    pub bias: Vec<f32>,
    /// Hidden units beside the linear part (none in a plain logistic
    /// regression): each reads the standardized features and adds
    /// `out[class] * tanh(bias + in · x)` to the class scores, so the model
    /// can weigh one feature by another (many cues, but a common word).
    pub hidden: Vec<Hidden>,
    /// Free-text lines saying what the model was trained on (kept as comments).
    pub provenance: Vec<String>,
    /// The hidden units' input weights by feature, then by unit
    /// (`pack_hidden`), made by `parse` and `train` from `hidden`.
    hidden_by_feature: Vec<f32>,
}

/// One hidden unit of a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Hidden {
    pub bias: f32,
    /// Weight per class of the unit's output.
    pub out: [f32; 3],
    /// Weight per feature (standardized).
    pub inp: Vec<f32>,
}

/// One training example.
#[derive(Debug, Clone)]
pub struct Example {
    pub features: Vec<f32>,
    pub class: usize,
    pub weight: f32,
}

impl Model {
    /// Class probabilities (softmax) of one feature vector.
    pub fn predict(&self, x: &[f32]) -> [f32; 3] {
        debug_assert_eq!(x.len(), self.features.len());
        let xs: Vec<f32> = x
            .iter()
            .enumerate()
            .map(|(j, &v)| (v - self.mean[j]) / self.scale[j])
            .collect();
        // Each sum adds its terms in feature order, as a plain loop per class
        // and per unit would (the same floating-point result), but the
        // sums are interleaved: one sum after another waits on each
        // addition, side by side they do not, and the units' sums run as
        // vector operations.
        let mut z = [self.bias[0], self.bias[1], self.bias[2]];
        for (j, &v) in xs.iter().enumerate() {
            for (zk, w) in z.iter_mut().zip(&self.weights) {
                *zk += w[j] * v;
            }
        }
        let units = self.hidden.len();
        if units > 0 {
            // -0.0: where `Iterator::sum` of f32 starts.
            let mut sums = vec![-0.0f32; units];
            for (&v, by_unit) in xs.iter().zip(self.hidden_by_feature.chunks_exact(units)) {
                let v = v.clamp(-HIDDEN_CLIP, HIDDEN_CLIP);
                for (s, &u) in sums.iter_mut().zip(by_unit) {
                    *s += u * v;
                }
            }
            for (h, s) in self.hidden.iter().zip(sums) {
                let a = (h.bias + s).tanh();
                for (k, zk) in z.iter_mut().enumerate() {
                    *zk += h.out[k] * a;
                }
            }
        }
        softmax(z)
    }

    /// Reads a model written by `to_text`. `names` are the features the
    /// recognizer computes: a model for other features is an error.
    pub fn parse(text: &str, names: &[&str]) -> Result<Model, String> {
        let mut features = Vec::new();
        let mut mean = Vec::new();
        let mut scale = Vec::new();
        let mut weights = vec![Vec::new(); CLASSES.len()];
        let mut bias = vec![0f32; CLASSES.len()];
        let mut provenance = Vec::new();
        let mut hidden = Vec::new();
        let mut header_seen = false;
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            if let Some(c) = line.strip_prefix('#') {
                provenance.push(c.trim().to_string());
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            if !header_seen {
                let want = ["feature", "mean", "scale", "none", "person", "place"];
                if cols != want {
                    return Err(format!(
                        "line {n}: expected the header `{}`",
                        want.join("\\t")
                    ));
                }
                header_seen = true;
                continue;
            }
            if cols[0] == "(hidden)" {
                let nums: Result<Vec<f32>, _> =
                    cols[1..].iter().map(|s| s.parse::<f32>()).collect();
                let nums = nums.map_err(|_| format!("line {n}: a column is not a number"))?;
                if nums.len() != 4 + features.len() || nums.iter().any(|v| !v.is_finite()) {
                    return Err(format!(
                        "line {n}: a hidden unit needs a bias, 3 output weights and one finite weight per feature"
                    ));
                }
                hidden.push(Hidden {
                    bias: nums[0],
                    out: [nums[1], nums[2], nums[3]],
                    inp: nums[4..].to_vec(),
                });
                continue;
            }
            if cols.len() != 6 {
                return Err(format!("line {n}: expected 6 tab-separated columns"));
            }
            let nums: Result<Vec<f32>, _> = cols[1..].iter().map(|s| s.parse::<f32>()).collect();
            let nums = nums.map_err(|_| format!("line {n}: a column is not a number"))?;
            if nums.iter().any(|v| !v.is_finite()) {
                return Err(format!("line {n}: a number is not finite"));
            }
            if cols[0] == "(bias)" {
                bias.copy_from_slice(&nums[2..]);
                continue;
            }
            if nums[1] <= 0.0 {
                return Err(format!("line {n}: scale must be positive"));
            }
            features.push(cols[0].to_string());
            mean.push(nums[0]);
            scale.push(nums[1]);
            for (k, w) in weights.iter_mut().enumerate() {
                w.push(nums[2 + k]);
            }
        }
        if features != names {
            return Err(format!(
                "the model's features ({}) are not the recognizer's ({})",
                features.join(","),
                names.join(",")
            ));
        }
        Ok(Model {
            hidden_by_feature: pack_hidden(&hidden, features.len()),
            features,
            mean,
            scale,
            weights,
            bias,
            hidden,
            provenance,
        })
    }

    /// The model as text: provenance comments, a header, one line per
    /// feature, then the biases.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for p in &self.provenance {
            let _ = writeln!(out, "# {p}");
        }
        out.push_str("feature\tmean\tscale\tnone\tperson\tplace\n");
        for (j, f) in self.features.iter().enumerate() {
            let _ = write!(out, "{f}\t{}\t{}", self.mean[j], self.scale[j]);
            for w in &self.weights {
                let _ = write!(out, "\t{}", w[j]);
            }
            out.push('\n');
        }
        let _ = write!(out, "(bias)\t0\t1");
        for b in &self.bias {
            let _ = write!(out, "\t{b}");
        }
        out.push('\n');
        // Hidden units after the features they read: bias, the three
        // output weights, then one weight per feature in the order above.
        for h in &self.hidden {
            let _ = write!(out, "(hidden)\t{}", h.bias);
            for v in h.out.iter().chain(&h.inp) {
                let _ = write!(out, "\t{v}");
            }
            out.push('\n');
        }
        out
    }

    /// Trains a model by full-batch gradient descent (Adam) on the weighted
    /// cross-entropy with an L2 penalty on the weights: the linear part
    /// from zero, and `hidden` tanh units from small fixed pseudo-random
    /// input weights (zero output weights, so training starts as the plain
    /// logistic regression). Deterministic for the same examples at any
    /// thread count: the gradient is summed over fixed blocks in order.
    pub fn train(
        names: &[&str],
        examples: &[Example],
        steps: usize,
        l2: f32,
        hidden: usize,
        provenance: Vec<String>,
    ) -> Model {
        use rayon::prelude::*;
        let d = names.len();
        let total_w: f64 = examples
            .iter()
            .map(|e| e.weight as f64)
            .sum::<f64>()
            .max(1e-9);
        let mut mean = vec![0f32; d];
        let mut scale = vec![1f32; d];
        for j in 0..d {
            let m: f64 = examples
                .iter()
                .map(|e| e.weight as f64 * e.features[j] as f64)
                .sum::<f64>()
                / total_w;
            let v: f64 = examples
                .iter()
                .map(|e| e.weight as f64 * (e.features[j] as f64 - m).powi(2))
                .sum::<f64>()
                / total_w;
            mean[j] = m as f32;
            scale[j] = if v.sqrt() > 1e-6 {
                v.sqrt() as f32
            } else {
                1.0
            };
        }
        let xs: Vec<Vec<f64>> = examples
            .iter()
            .map(|e| {
                e.features
                    .iter()
                    .enumerate()
                    .map(|(j, &v)| ((v - mean[j]) / scale[j]) as f64)
                    .collect()
            })
            .collect();
        let k = CLASSES.len();
        // Parameters in one vector: linear weights (k × d), class biases
        // (k), then per hidden unit its bias, k output weights, d input weights.
        let unit = 1 + k + d;
        let lin = k * d + k;
        let n_params = lin + hidden * unit;
        // One fit from the hidden units' starting weights of `member`.
        let fit = |member: u64| -> Vec<f64> {
            let mut theta = vec![0f64; n_params];
            let spread = 1.0 / (d as f64).sqrt();
            for h in 0..hidden {
                for j in 0..d {
                    theta[lin + h * unit + 1 + k + j] =
                        spread * (2.0 * unit_hash(member * 1_000_003 + h as u64, j as u64) - 1.0);
                }
            }
            let penalized: Vec<bool> = (0..n_params)
                .map(|i| {
                    if i < k * d {
                        true
                    } else if i < lin {
                        false
                    } else {
                        !(i - lin).is_multiple_of(unit)
                    }
                })
                .collect();
            let (beta1, beta2, lr, eps) = (0.9f64, 0.999f64, 0.05f64, 1e-8f64);
            let mut m1 = vec![0f64; n_params];
            let mut m2 = vec![0f64; n_params];
            const BLOCK: usize = 512;
            for t in 1..=steps {
                let theta_ref = &theta;
                let blocks: Vec<Vec<f64>> = xs
                    .par_chunks(BLOCK)
                    .zip(examples.par_chunks(BLOCK))
                    .map(|(xb, eb)| {
                        let mut g = vec![0f64; n_params];
                        let mut act = vec![0f64; hidden];
                        for (x, e) in xb.iter().zip(eb) {
                            let mut z = [0f64; 3];
                            for (c, zc) in z.iter_mut().enumerate() {
                                let w = &theta_ref[c * d..(c + 1) * d];
                                *zc = theta_ref[k * d + c]
                                    + w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>();
                            }
                            for (h, a) in act.iter_mut().enumerate() {
                                let u = &theta_ref[lin + h * unit..lin + (h + 1) * unit];
                                *a = (u[0]
                                    + u[1 + k..]
                                        .iter()
                                        .zip(x)
                                        .map(|(a, &b)| a * clip(b))
                                        .sum::<f64>())
                                .tanh();
                                for (c, zc) in z.iter_mut().enumerate() {
                                    *zc += u[1 + c] * *a;
                                }
                            }
                            let p = softmax([z[0] as f32, z[1] as f32, z[2] as f32]);
                            let gz: Vec<f64> = (0..k)
                                .map(|c| {
                                    (p[c] as f64 - f64::from(u8::from(c == e.class)))
                                        * e.weight as f64
                                })
                                .collect();
                            for c in 0..k {
                                for (gj, xj) in g[c * d..(c + 1) * d].iter_mut().zip(x) {
                                    *gj += gz[c] * xj;
                                }
                                g[k * d + c] += gz[c];
                            }
                            for (h, &a) in act.iter().enumerate() {
                                let base = lin + h * unit;
                                let mut back = 0.0;
                                for c in 0..k {
                                    g[base + 1 + c] += gz[c] * a;
                                    back += gz[c] * theta_ref[base + 1 + c];
                                }
                                let delta = back * (1.0 - a * a);
                                g[base] += delta;
                                for (gj, &xj) in g[base + 1 + k..base + unit].iter_mut().zip(x) {
                                    *gj += delta * clip(xj);
                                }
                            }
                        }
                        g
                    })
                    .collect();
                let mut grad = vec![0f64; n_params];
                for b in &blocks {
                    for (a, v) in grad.iter_mut().zip(b) {
                        *a += v;
                    }
                }
                let bc1 = 1.0 - beta1.powi(t as i32);
                let bc2 = 1.0 - beta2.powi(t as i32);
                for i in 0..n_params {
                    let mut g = grad[i] / total_w;
                    if penalized[i] {
                        g += l2 as f64 * theta[i];
                    }
                    m1[i] = beta1 * m1[i] + (1.0 - beta1) * g;
                    m2[i] = beta2 * m2[i] + (1.0 - beta2) * g * g;
                    theta[i] -= lr * (m1[i] / bc1) / ((m2[i] / bc2).sqrt() + eps);
                }
            }
            theta
        };
        // Several fits from different starting weights, averaged in the
        // logits: one model whose hidden units are all of theirs. A single
        // fit moves by a name or two per book when a few training examples
        // change; the average moves less.
        let members = if hidden == 0 { 1 } else { ENSEMBLE };
        let fits: Vec<Vec<f64>> = (0..members as u64).map(fit).collect();
        let share = 1.0 / members as f64;
        let mut theta = vec![0f64; lin];
        for f in &fits {
            for (t, v) in theta.iter_mut().zip(&f[..lin]) {
                *t += share * v;
            }
        }
        let r = |v: f64| round6(v as f32);
        let mut model = Model {
            features: names.iter().map(|s| s.to_string()).collect(),
            mean,
            scale,
            weights: (0..k)
                .map(|c| theta[c * d..(c + 1) * d].iter().map(|&v| r(v)).collect())
                .collect(),
            bias: (0..k).map(|c| r(theta[k * d + c])).collect(),
            hidden: fits
                .iter()
                .flat_map(|f| {
                    (0..hidden).map(move |h| {
                        let u = &f[lin + h * unit..lin + (h + 1) * unit];
                        Hidden {
                            bias: r(u[0]),
                            out: [r(share * u[1]), r(share * u[2]), r(share * u[3])],
                            inp: u[1 + k..].iter().map(|&v| r(v)).collect(),
                        }
                    })
                })
                .collect(),
            provenance,
            hidden_by_feature: Vec::new(),
        };
        model.hidden_by_feature = pack_hidden(&model.hidden, d);
        model
    }
}

/// The hidden units' input weights, feature by feature: for each feature,
/// its weight in every unit, in unit order (what `predict` reads).
fn pack_hidden(hidden: &[Hidden], features: usize) -> Vec<f32> {
    (0..features)
        .flat_map(|j| hidden.iter().map(move |h| h.inp[j]))
        .collect()
}

/// Fits averaged into one model when it has hidden units.
const ENSEMBLE: usize = 7;

/// How far (in standard deviations) a hidden unit reads a feature: a rare
/// feature's value can lie 30 deviations out, and a unit trained on the
/// usual range must not extrapolate there (the linear part reads it whole).
const HIDDEN_CLIP: f32 = 4.0;

fn clip(v: f64) -> f64 {
    v.clamp(-HIDDEN_CLIP as f64, HIDDEN_CLIP as f64)
}

/// A fixed pseudo-random number in [0, 1) for (a, b) (splitmix64).
fn unit_hash(a: u64, b: u64) -> f64 {
    let mut z = a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Six significant decimals: the text form stays short and diffs stay readable.
fn round6(v: f32) -> f32 {
    (v * 1e6).round() / 1e6
}

fn softmax(z: [f32; 3]) -> [f32; 3] {
    let m = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e = z.map(|v| (v - m).exp());
    let s: f32 = e.iter().sum();
    e.map(|v| v / s)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 2] = ["a", "b"];

    fn examples() -> Vec<Example> {
        // Class follows the larger of two features; `none` when both are small.
        let mut out = Vec::new();
        for i in 0..30 {
            let v = i as f32 / 10.0;
            out.push(Example {
                features: vec![v + 1.0, 0.1],
                class: PERSON,
                weight: 1.0,
            });
            out.push(Example {
                features: vec![0.1, v + 1.0],
                class: PLACE,
                weight: 1.0,
            });
            out.push(Example {
                features: vec![0.1 * v, 0.05 * v],
                class: NONE,
                weight: 1.0,
            });
        }
        out
    }

    #[test]
    fn a_tiny_training_run_learns_separable_classes() {
        let m = Model::train(&NAMES, &examples(), 300, 1e-4, 0, vec!["test".into()]);
        let argmax = |p: [f32; 3]| (0..3).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap();
        assert_eq!(argmax(m.predict(&[3.0, 0.1])), PERSON);
        assert_eq!(argmax(m.predict(&[0.1, 3.0])), PLACE);
        assert_eq!(argmax(m.predict(&[0.0, 0.0])), NONE);
    }

    #[test]
    fn training_is_deterministic_and_text_round_trips() {
        let a = Model::train(&NAMES, &examples(), 50, 1e-3, 2, vec!["x".into()]);
        let b = Model::train(&NAMES, &examples(), 50, 1e-3, 2, vec!["x".into()]);
        assert_eq!(a.to_text(), b.to_text());
        let back = Model::parse(&a.to_text(), &NAMES).unwrap();
        assert_eq!(back.to_text(), a.to_text());
        assert_eq!(back.predict(&[2.0, 0.1]), a.predict(&[2.0, 0.1]));
    }

    /// Person when exactly one of two features is high (many cues, or a
    /// name-like shape, but not a common word with both): no linear model
    /// separates it.
    fn exclusive_or() -> Vec<Example> {
        let mut out = Vec::new();
        for i in 0..400 {
            let a = (i % 2) as f32 + 0.05 * ((i / 2) % 5) as f32;
            let b = ((i / 10) % 2) as f32 + 0.05 * ((i / 20) % 5) as f32;
            let class = if (a > 0.5) != (b > 0.5) { PERSON } else { NONE };
            out.push(Example {
                features: vec![a, b],
                class,
                weight: 1.0,
            });
        }
        out
    }

    #[test]
    fn hidden_units_learn_what_a_linear_model_cannot() {
        let person = |m: &Model, x: [f32; 2]| {
            let p = m.predict(&x);
            p[PERSON] > p[NONE]
        };
        let cases = [
            ([1.0, 0.0], true),
            ([0.0, 1.0], true),
            ([0.0, 0.0], false),
            ([1.0, 1.0], false),
        ];
        let right = |m: &Model| {
            cases
                .iter()
                .filter(|(x, want)| person(m, *x) == *want)
                .count()
        };
        let linear = Model::train(&NAMES, &exclusive_or(), 300, 1e-4, 0, vec![]);
        let hidden = Model::train(&NAMES, &exclusive_or(), 300, 1e-4, 4, vec![]);
        assert!(right(&linear) < 4, "a linear model cannot get all four");
        assert_eq!(right(&hidden), 4);
        // The hidden units survive the text form.
        let back = Model::parse(&hidden.to_text(), &NAMES).unwrap();
        assert_eq!(back.hidden.len(), 4 * ENSEMBLE);
        assert_eq!(right(&back), 4);
    }

    #[test]
    fn training_is_the_same_at_any_thread_count() {
        // More examples than one gradient block, so the blocks run in parallel.
        let data: Vec<Example> = (0..3).flat_map(|_| exclusive_or()).collect();
        let at = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| Model::train(&NAMES, &data, 40, 1e-3, 3, vec![]).to_text())
        };
        assert_eq!(at(1), at(3));
    }

    #[test]
    fn a_model_for_other_features_or_a_bad_line_is_an_error() {
        let a = Model::train(&NAMES, &examples(), 5, 1e-3, 2, vec![]);
        let err = Model::parse(&a.to_text(), &["a", "c"]).unwrap_err();
        assert!(err.contains("features"), "{err}");
        let bad = a.to_text().replace("\t1\t", "\tx\t");
        assert!(Model::parse(&bad, &NAMES).is_err());
        let short = a.to_text().replace("(hidden)\t", "(hidden)\t1\t");
        assert!(Model::parse(&short, &NAMES)
            .unwrap_err()
            .contains("hidden unit"));
        assert!(Model::parse("nonsense\n", &NAMES)
            .unwrap_err()
            .contains("header"));
    }
}
