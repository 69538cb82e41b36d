//! Model: a multinomial logistic regression that scores a candidate string as
//! not a name, a person or a place from its book-level features (see
//! `recognize::features`). Trained offline by `zhnovel train` on books with
//! answer keys and shipped as text (`model/entity-model.tsv`), so what a
//! model learned can be read and diffed.
//!
//! Training is deterministic: full-batch gradient descent from zero weights
//! on standardized features, a fixed number of steps, rows in a fixed order.

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
    /// Free-text lines saying what the model was trained on (kept as comments).
    pub provenance: Vec<String>,
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
        let mut z = [0f32; 3];
        for (k, zk) in z.iter_mut().enumerate() {
            let mut s = self.bias[k];
            for (j, &v) in x.iter().enumerate() {
                s += self.weights[k][j] * (v - self.mean[j]) / self.scale[j];
            }
            *zk = s;
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
            features,
            mean,
            scale,
            weights,
            bias,
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
        out
    }

    /// Trains a model by full-batch gradient descent on the weighted
    /// cross-entropy with an L2 penalty. Deterministic for the same examples.
    pub fn train(
        names: &[&str],
        examples: &[Example],
        steps: usize,
        l2: f32,
        provenance: Vec<String>,
    ) -> Model {
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
        let xs: Vec<Vec<f32>> = examples
            .iter()
            .map(|e| {
                e.features
                    .iter()
                    .enumerate()
                    .map(|(j, &v)| (v - mean[j]) / scale[j])
                    .collect()
            })
            .collect();
        let k = CLASSES.len();
        let mut w = vec![vec![0f64; d]; k];
        let mut b = vec![0f64; k];
        // Adam keeps one step size good for every feature scale.
        let (beta1, beta2, lr, eps) = (0.9f64, 0.999f64, 0.05f64, 1e-8f64);
        let mut mw = vec![vec![0f64; d]; k];
        let mut vw = vec![vec![0f64; d]; k];
        let mut mb = vec![0f64; k];
        let mut vb = vec![0f64; k];
        for t in 1..=steps {
            let mut gw = vec![vec![0f64; d]; k];
            let mut gb = vec![0f64; k];
            for (x, e) in xs.iter().zip(examples) {
                let mut z = [0f32; 3];
                for (c, zc) in z.iter_mut().enumerate() {
                    let mut s = b[c];
                    for (j, &v) in x.iter().enumerate() {
                        s += w[c][j] * v as f64;
                    }
                    *zc = s as f32;
                }
                let p = softmax(z);
                for c in 0..k {
                    let g = (p[c] as f64 - f64::from(u8::from(c == e.class))) * e.weight as f64;
                    gb[c] += g;
                    for (j, &v) in x.iter().enumerate() {
                        gw[c][j] += g * v as f64;
                    }
                }
            }
            let bc1 = 1.0 - beta1.powi(t as i32);
            let bc2 = 1.0 - beta2.powi(t as i32);
            for c in 0..k {
                for j in 0..d {
                    let g = gw[c][j] / total_w + l2 as f64 * w[c][j];
                    mw[c][j] = beta1 * mw[c][j] + (1.0 - beta1) * g;
                    vw[c][j] = beta2 * vw[c][j] + (1.0 - beta2) * g * g;
                    w[c][j] -= lr * (mw[c][j] / bc1) / ((vw[c][j] / bc2).sqrt() + eps);
                }
                let g = gb[c] / total_w;
                mb[c] = beta1 * mb[c] + (1.0 - beta1) * g;
                vb[c] = beta2 * vb[c] + (1.0 - beta2) * g * g;
                b[c] -= lr * (mb[c] / bc1) / ((vb[c] / bc2).sqrt() + eps);
            }
        }
        Model {
            features: names.iter().map(|s| s.to_string()).collect(),
            mean,
            scale,
            weights: w
                .into_iter()
                .map(|r| r.into_iter().map(|v| round6(v as f32)).collect())
                .collect(),
            bias: b.into_iter().map(|v| round6(v as f32)).collect(),
            provenance,
        }
    }
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
        let m = Model::train(&NAMES, &examples(), 300, 1e-4, vec!["test".into()]);
        let argmax = |p: [f32; 3]| (0..3).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap();
        assert_eq!(argmax(m.predict(&[3.0, 0.1])), PERSON);
        assert_eq!(argmax(m.predict(&[0.1, 3.0])), PLACE);
        assert_eq!(argmax(m.predict(&[0.0, 0.0])), NONE);
    }

    #[test]
    fn training_is_deterministic_and_text_round_trips() {
        let a = Model::train(&NAMES, &examples(), 50, 1e-3, vec!["x".into()]);
        let b = Model::train(&NAMES, &examples(), 50, 1e-3, vec!["x".into()]);
        assert_eq!(a.to_text(), b.to_text());
        let back = Model::parse(&a.to_text(), &NAMES).unwrap();
        assert_eq!(back.to_text(), a.to_text());
        assert_eq!(back.predict(&[2.0, 0.1]), a.predict(&[2.0, 0.1]));
    }

    #[test]
    fn a_model_for_other_features_or_a_bad_line_is_an_error() {
        let a = Model::train(&NAMES, &examples(), 5, 1e-3, vec![]);
        let err = Model::parse(&a.to_text(), &["a", "c"]).unwrap_err();
        assert!(err.contains("features"), "{err}");
        let bad = a.to_text().replace("\t1\t", "\tx\t");
        assert!(Model::parse(&bad, &NAMES).is_err());
        assert!(Model::parse("nonsense\n", &NAMES)
            .unwrap_err()
            .contains("header"));
    }
}
