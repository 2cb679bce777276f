//! The figures of a run: accuracy with Wilson intervals, precision and recall, macro-F1,
//! wrong routes, calibration (ECE) and latency percentiles.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

/// One decision as measured: what was expected (after mapping unregistered services to
/// `unsupported`), what the router and validation did, its confidence and its time.
#[derive(Debug, Clone)]
pub(crate) struct Observed {
    pub(crate) expected: String,
    pub(crate) got: String,
    /// Whether `got` is a dispatch to a specialist.
    pub(crate) routed: bool,
    pub(crate) kind: String,
    pub(crate) lang: String,
    pub(crate) confidence: Option<f32>,
    pub(crate) took: Duration,
    /// Whether the model was asked.
    pub(crate) sent: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Rate {
    pub(crate) n: usize,
    pub(crate) correct: usize,
    pub(crate) rate: f64,
    /// Wilson 95% interval.
    pub(crate) low: f64,
    pub(crate) high: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct PrecisionRecall {
    pub(crate) precision: f64,
    pub(crate) recall: f64,
    pub(crate) predicted: usize,
    pub(crate) expected: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Figures {
    pub(crate) mode: String,
    pub(crate) accuracy: Rate,
    pub(crate) macro_f1: f64,
    pub(crate) by_kind: BTreeMap<String, Rate>,
    pub(crate) by_lang: BTreeMap<String, Rate>,
    pub(crate) clarify: PrecisionRecall,
    pub(crate) unsupported: PrecisionRecall,
    /// Dispatched to a specialist other than the expected one (or when none was).
    pub(crate) wrong_routes: usize,
    pub(crate) wrong_route_rate: f64,
    /// Expected calibration error over the decisions that carry a probability (10 bins).
    pub(crate) ece: Option<f64>,
    pub(crate) ece_n: usize,
    pub(crate) p50_micros: f64,
    pub(crate) p99_micros: f64,
    /// Questions the model was asked about, and their share.
    pub(crate) model_calls: usize,
    pub(crate) model_share: f64,
}

pub(crate) fn wilson(correct: usize, n: usize) -> Rate {
    if n == 0 {
        return Rate { n, correct, rate: 0.0, low: 0.0, high: 1.0 };
    }
    let (z, nf) = (1.96f64, n as f64);
    let p = correct as f64 / nf;
    let denom = 1.0 + z * z / nf;
    let center = (p + z * z / (2.0 * nf)) / denom;
    let half = z / denom * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt();
    Rate { n, correct, rate: p, low: (center - half).max(0.0), high: (center + half).min(1.0) }
}

pub(crate) fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

fn precision_recall(obs: &[Observed], label: &str) -> PrecisionRecall {
    let predicted = obs.iter().filter(|o| o.got == label).count();
    let expected = obs.iter().filter(|o| o.expected == label).count();
    let both = obs.iter().filter(|o| o.got == label && o.expected == label).count();
    PrecisionRecall { precision: ratio(both, predicted), recall: ratio(both, expected), predicted, expected }
}

fn percentile_micros(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1e6
}

/// The figures of a run.
pub(crate) fn figures(mode: &str, obs: &[Observed]) -> Figures {
    let right = |o: &&Observed| o.expected == o.got;
    let group = |key: fn(&Observed) -> &str| {
        let mut m: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for o in obs {
            let e = m.entry(key(o).to_string()).or_default();
            e.0 += usize::from(o.expected == o.got);
            e.1 += 1;
        }
        m.into_iter().map(|(k, (c, n))| (k, wilson(c, n))).collect()
    };
    let mut labels: Vec<&str> = obs.iter().flat_map(|o| [o.expected.as_str(), o.got.as_str()]).collect();
    labels.sort_unstable();
    labels.dedup();
    let f1s: Vec<f64> = labels
        .iter()
        .map(|l| {
            let pr = precision_recall(obs, l);
            if pr.precision + pr.recall == 0.0 {
                0.0
            } else {
                2.0 * pr.precision * pr.recall / (pr.precision + pr.recall)
            }
        })
        .collect();
    let wrong_routes = obs.iter().filter(|o| o.routed && o.got != o.expected).count();
    let scored: Vec<&Observed> = obs.iter().filter(|o| o.confidence.is_some()).collect();
    let ece = (!scored.is_empty()).then(|| {
        let mut bins = [(0usize, 0f64, 0usize); 10];
        for o in &scored {
            let c = f64::from(o.confidence.unwrap_or(0.0)).clamp(0.0, 1.0);
            let b = calibration_bin(c);
            bins[b].0 += 1;
            bins[b].1 += c;
            bins[b].2 += usize::from(o.expected == o.got);
        }
        bins.iter()
            .filter(|b| b.0 > 0)
            .map(|(n, conf, ok)| {
                (*n as f64 / scored.len() as f64) * (*ok as f64 / *n as f64 - conf / *n as f64).abs()
            })
            .sum()
    });
    let mut times: Vec<Duration> = obs.iter().map(|o| o.took).collect();
    times.sort_unstable();
    Figures {
        mode: mode.to_string(),
        accuracy: wilson(obs.iter().filter(right).count(), obs.len()),
        macro_f1: if f1s.is_empty() { 0.0 } else { f1s.iter().sum::<f64>() / f1s.len() as f64 },
        by_kind: group(|o| &o.kind),
        by_lang: group(|o| &o.lang),
        clarify: precision_recall(obs, "clarify"),
        unsupported: precision_recall(obs, "unsupported"),
        wrong_routes,
        wrong_route_rate: ratio(wrong_routes, obs.len()),
        ece,
        ece_n: scored.len(),
        p50_micros: percentile_micros(&times, 0.5),
        p99_micros: percentile_micros(&times, 0.99),
        model_calls: obs.iter().filter(|o| o.sent).count(),
        model_share: ratio(obs.iter().filter(|o| o.sent).count(), obs.len()),
    }
}

/// The tenth of [0, 1] a confidence falls in. Confidences are f32: 0.9 is 0.89999998 as
/// an f64, so the bin is taken a hair above it (0.9 is in bin 9, not 8).
fn calibration_bin(c: f64) -> usize {
    ((c * 10.0 + 1e-6) as usize).min(9)
}

pub(crate) fn pct(r: &Rate) -> String {
    format!(
        "{:5.1}%  [{:5.1}, {:5.1}]  {:>3}/{:<3}",
        r.rate * 100.0,
        r.low * 100.0,
        r.high * 100.0,
        r.correct,
        r.n
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_confidences_fall_in_their_own_tenth() {
        for (c, bin) in [(0.9f32, 9), (0.7, 7), (0.1, 1), (0.0, 0), (1.0, 9), (0.95, 9), (0.89, 8)] {
            assert_eq!(calibration_bin(f64::from(c)), bin, "{c}");
        }
    }

    fn o(expected: &str, got: &str, kind: &str, confidence: Option<f32>, micros: u64) -> Observed {
        Observed {
            expected: expected.into(),
            got: got.into(),
            routed: !matches!(got, "clarify" | "unsupported"),
            kind: kind.into(),
            lang: if kind == "mixed" { "es-en".into() } else { "en".into() },
            confidence,
            took: Duration::from_micros(micros),
            sent: false,
        }
    }

    /// Six decisions worked out by hand.
    #[test]
    fn figures_on_a_hand_computed_set() {
        let obs = [
            o("tutor", "tutor", "plain", Some(0.9), 10),
            o("tutor", "library", "plain", Some(0.6), 20),
            o("library", "library", "mixed", Some(0.8), 30),
            o("clarify", "clarify", "vague", None, 40),
            o("unsupported", "tutor", "plain", Some(0.7), 50),
            o("unsupported", "unsupported", "mixed", Some(0.9), 1000),
        ];
        let f = figures("classifier", &obs);
        assert_eq!((f.accuracy.correct, f.accuracy.n), (4, 6));
        // Wilson 95% for 4/6: (0.3000, 0.9032)
        assert!(
            (f.accuracy.low - 0.3000).abs() < 1e-3 && (f.accuracy.high - 0.9032).abs() < 1e-3,
            "{:?}",
            f.accuracy
        );
        // per label: tutor P 1/2 R 1/2 → F1 0.5; library P 1/2 R 1 → 2/3;
        // clarify 1; unsupported P 1 R 1/2 → 2/3; macro = (0.5 + 2/3 + 1 + 2/3) / 4
        assert!((f.macro_f1 - (0.5 + 2.0 / 3.0 + 1.0 + 2.0 / 3.0) / 4.0).abs() < 1e-9, "{}", f.macro_f1);
        assert_eq!(f.wrong_routes, 2);
        assert!((f.wrong_route_rate - 2.0 / 6.0).abs() < 1e-9);
        assert_eq!(f.by_kind["plain"].correct, 1);
        assert_eq!(f.by_kind["plain"].n, 3);
        assert_eq!((f.by_lang["es-en"].correct, f.by_lang["es-en"].n), (2, 2));
        assert_eq!(f.clarify, PrecisionRecall { precision: 1.0, recall: 1.0, predicted: 1, expected: 1 });
        assert_eq!(f.unsupported, PrecisionRecall { precision: 1.0, recall: 0.5, predicted: 1, expected: 2 });
        // bins: 0.9 ×2 (both right) → |1 − 0.9| · 2/5; 0.6 (wrong) → 0.6 · 1/5;
        // 0.8 (right) → 0.2 · 1/5; 0.7 (wrong) → 0.7 · 1/5
        let ece = 0.1 * 2.0 / 5.0 + 0.6 / 5.0 + 0.2 / 5.0 + 0.7 / 5.0;
        assert!((f.ece.unwrap() - ece).abs() < 1e-6, "{:?}", f.ece);
        assert_eq!(f.ece_n, 5);
        assert_eq!((f.p50_micros, f.p99_micros), (40.0, 1000.0));
    }

    #[test]
    fn wilson_edges() {
        let r = wilson(0, 0);
        assert_eq!((r.low, r.high), (0.0, 1.0));
        let r = wilson(10, 10);
        assert!(r.high == 1.0 && (r.low - 0.7225).abs() < 1e-3, "{r:?}");
    }
}
