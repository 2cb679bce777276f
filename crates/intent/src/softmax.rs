//! Multinomial logistic regression on sparse vectors: L2-regularized, class-balanced
//! cross-entropy, minimized by full-batch Adam for a fixed number of steps (the loss is
//! convex and the data a few hundred short texts, so this is deterministic and takes
//! milliseconds), and a temperature fitted on cross-validated held-out scores so the
//! probabilities mean what they say.

use crate::features::Sparse;

#[derive(Debug, Clone)]
pub struct Softmax {
    classes: usize,
    dim: usize,
    /// `classes × dim`, row-major.
    weights: Vec<f32>,
    bias: Vec<f32>,
    temperature: f32,
}

#[derive(Debug, Clone, Copy)]
pub struct Fit {
    pub steps: usize,
    pub learning_rate: f32,
    /// L2 penalty on the weights (not the biases), divided by the number of groups present:
    /// each group's examples weigh 1/groups in all, so the penalty stays the same against
    /// each group's data however many services there are (with two services and out of
    /// scope, 0.0015 is the 0.0005 every figure before the Professor was measured with).
    pub l2: f32,
    /// Cross-validation folds for the temperature (0: none, temperature 1).
    pub folds: usize,
}

impl Default for Fit {
    fn default() -> Self {
        Self { steps: 80, learning_rate: 0.5, l2: 0.0015, folds: 3 }
    }
}

impl Fit {
    /// For dense unit-length embeddings: every feature is in every example, so the
    /// weights need more steps and a smaller step than over sparse TF-IDF.
    pub fn dense() -> Self {
        Self { steps: 200, learning_rate: 0.1, l2: 0.0015, folds: 3 }
    }
}

/// Probabilities from scores, in place.
pub fn softmax_in_place(z: &mut [f32]) {
    let max = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in z.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    for v in z.iter_mut() {
        *v /= sum;
    }
}

impl Softmax {
    /// Trains on `xs` labelled `ys` (each in `0..classes`). `group[class]` says which
    /// classes share weight: every group counts equally however many classes and
    /// examples it has (a specialist with four skills is not four times as likely).
    pub fn train(xs: &[Sparse], ys: &[usize], group: &[usize], dim: usize, fit: Fit) -> Self {
        // the model and its cross-validation folds are independent fits: side by side
        std::thread::scope(|s| {
            let temperature = (fit.folds >= 2 && xs.len() >= fit.folds * 2)
                .then(|| s.spawn(|| Self::cross_validated_temperature(xs, ys, group, dim, fit)));
            let mut model = Self::fit_weights(xs, ys, group, dim, fit);
            if let Some(t) = temperature {
                model.temperature = t.join().expect("a fold's fit does not panic");
            }
            model
        })
    }

    fn fit_weights(xs: &[Sparse], ys: &[usize], group: &[usize], dim: usize, fit: Fit) -> Self {
        let classes = group.len();
        let groups = group.iter().copied().max().map_or(0, |g| g + 1);
        let mut counts = vec![0usize; groups];
        for &y in ys {
            counts[group[y]] += 1;
        }
        let present = counts.iter().filter(|&&c| c > 0).count().max(1) as f32;
        let sample_weight: Vec<f32> = group
            .iter()
            .map(|&g| if counts[g] == 0 { 0.0 } else { 1.0 / (present * counts[g] as f32) })
            .collect();
        // per group's worth of data: a service more does not pull every other service's
        // weights harder
        let l2 = fit.l2 / present;
        let mut w = vec![0f32; classes * dim];
        let mut b = vec![0f32; classes];
        let (mut mw, mut vw) = (vec![0f32; w.len()], vec![0f32; w.len()]);
        let (mut mb, mut vb) = (vec![0f32; classes], vec![0f32; classes]);
        let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let mut gw = vec![0f32; w.len()];
        let mut gb = vec![0f32; classes];
        let mut z = vec![0f32; classes];
        for step in 1..=fit.steps {
            gw.iter_mut().for_each(|g| *g = 0.0);
            gb.iter_mut().for_each(|g| *g = 0.0);
            for (x, &y) in xs.iter().zip(ys) {
                scores(&w, &b, dim, x, &mut z);
                softmax_in_place(&mut z);
                let sw = sample_weight[y];
                for k in 0..classes {
                    let g = (z[k] - if k == y { 1.0 } else { 0.0 }) * sw;
                    if g == 0.0 {
                        continue;
                    }
                    gb[k] += g;
                    let row = &mut gw[k * dim..(k + 1) * dim];
                    for &(j, v) in x {
                        row[j as usize] += g * v;
                    }
                }
            }
            for (g, wv) in gw.iter_mut().zip(&w) {
                *g += l2 * wv;
            }
            let (c1, c2) = (1.0 - beta1.powi(step as i32), 1.0 - beta2.powi(step as i32));
            let adam = |p: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32]| {
                for i in 0..p.len() {
                    m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
                    v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
                    p[i] -= fit.learning_rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                }
            };
            adam(&mut w, &gw, &mut mw, &mut vw);
            adam(&mut b, &gb, &mut mb, &mut vb);
        }
        Self { classes, dim, weights: w, bias: b, temperature: 1.0 }
    }

    /// The temperature that best explains held-out labels: each example is scored by a
    /// model trained without its fold; a log-spaced search minimizes their log loss.
    fn cross_validated_temperature(
        xs: &[Sparse],
        ys: &[usize],
        group: &[usize],
        dim: usize,
        fit: Fit,
    ) -> f32 {
        let classes = group.len();
        let mut held: Vec<(Vec<f32>, usize)> = Vec::with_capacity(xs.len());
        // Stratified folds: the i-th example of each class goes to fold i mod folds.
        let mut seen = vec![0usize; classes];
        let fold_of: Vec<usize> = ys
            .iter()
            .map(|&y| {
                seen[y] += 1;
                seen[y] % fit.folds
            })
            .collect();
        let quick = Fit { folds: 0, ..fit };
        let fold = |f: usize| {
            let (train_x, train_y): (Vec<Sparse>, Vec<usize>) = xs
                .iter()
                .zip(ys)
                .zip(&fold_of)
                .filter(|(_, k)| **k != f)
                .map(|((x, y), _)| (x.clone(), *y))
                .unzip();
            let m = Self::fit_weights(&train_x, &train_y, group, dim, quick);
            let mut held = Vec::new();
            for ((x, &y), _) in xs.iter().zip(ys).zip(&fold_of).filter(|(_, k)| **k == f) {
                let mut z = vec![0f32; classes];
                scores(&m.weights, &m.bias, dim, x, &mut z);
                held.push((z, y));
            }
            held
        };
        // the folds fit side by side; their scores are kept in fold order
        std::thread::scope(|s| {
            let fits: Vec<_> = (0..fit.folds).map(|f| s.spawn(move || fold(f))).collect();
            for h in fits {
                held.extend(h.join().expect("a fold's fit does not panic"));
            }
        });
        let loss = |t: f32| -> f32 {
            held.iter()
                .map(|(z, y)| {
                    let mut p: Vec<f32> = z.iter().map(|v| v / t).collect();
                    softmax_in_place(&mut p);
                    -p[*y].max(1e-9).ln()
                })
                .sum()
        };
        (0..=40)
            .map(|i| 0.25 * 16f32.powf(i as f32 / 40.0))
            .min_by(|a, b| loss(*a).total_cmp(&loss(*b)))
            .unwrap_or(1.0)
    }

    pub fn temperature(&self) -> f32 {
        self.temperature
    }

    /// Calibrated class probabilities of `x`.
    pub fn probabilities(&self, x: &Sparse) -> Vec<f32> {
        let mut z = vec![0f32; self.classes];
        scores(&self.weights, &self.bias, self.dim, x, &mut z);
        for v in z.iter_mut() {
            *v /= self.temperature;
        }
        softmax_in_place(&mut z);
        z
    }
}

fn scores(w: &[f32], b: &[f32], dim: usize, x: &Sparse, out: &mut [f32]) {
    for (k, o) in out.iter_mut().enumerate() {
        let row = &w[k * dim..(k + 1) * dim];
        *o = b[k] + x.iter().map(|&(j, v)| row[j as usize] * v).sum::<f32>();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separable_data_is_learned_and_probabilities_sum_to_one() {
        // class 0 has feature 0, class 1 feature 1, class 2 feature 2 (with noise on 3)
        let xs: Vec<Sparse> = (0..30).map(|i| vec![((i % 3) as u32, 0.9), (3, 0.43)]).collect();
        let ys: Vec<usize> = (0..30).map(|i| i % 3).collect();
        let m = Softmax::train(&xs, &ys, &[0, 1, 2], 4, Fit::default());
        for k in 0..3 {
            let p = m.probabilities(&vec![(k as u32, 1.0)]);
            assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            assert!(p[k] > 0.8, "{k}: {p:?}");
        }
        // nothing known: close to uniform (balanced classes, no bias learned)
        let p = m.probabilities(&vec![]);
        assert!(p.iter().all(|v| (v - 1.0 / 3.0).abs() < 0.1), "{p:?}");
        assert!(m.temperature() > 0.0);
    }

    #[test]
    fn the_smaller_class_is_not_drowned_out() {
        let mut xs: Vec<Sparse> = (0..40).map(|_| vec![(0, 1.0)]).collect();
        let mut ys = vec![0; 40];
        xs.extend((0..4).map(|_| vec![(1u32, 1.0)]));
        ys.extend([1; 4]);
        let m = Softmax::train(&xs, &ys, &[0, 1], 2, Fit::default());
        assert!(m.probabilities(&vec![(1, 1.0)])[1] > 0.8);
    }
}
