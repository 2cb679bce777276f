//! `--sweep` (the hybrid's accuracy against its share sent to the model, by threshold)
//! and `--cv` (the classifier cross-validated on its own training texts).

use std::time::Instant;

use hub::{Router, SpecialistView};

use crate::eval::metrics::{Figures, Observed, figures, pct, ratio, wilson};
use crate::eval::observe::observed;
use crate::eval::set::Item;

/// Thresholds `--sweep` reports.
const SWEEP: [f32; 14] = [0.0, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0];

/// `--sweep`: each item decided once by the classifier and once by the live router;
/// for each threshold the hybrid takes the classifier's decision at or above it
/// ([`hub::hybrid_sends`], the Hub's own rule) and the live one below it.
pub(crate) async fn sweep(
    hybrid: &Router,
    live: &Router,
    config: &hub::Config,
    view: &[SpecialistView],
    items: &[Item],
    json: bool,
) -> anyhow::Result<()> {
    let mut pairs = Vec::with_capacity(items.len());
    for item in items {
        let started = Instant::now();
        let local = hybrid.decide_live(&item.text, view, false).await;
        let local = observed(item, local, started.elapsed(), config, view);
        let started = Instant::now();
        let model = live.decide_live(&item.text, view, true).await;
        let model = observed(item, model, started.elapsed(), config, view);
        pairs.push((local, model));
    }
    let rows: Vec<(f32, Figures)> = SWEEP
        .iter()
        .map(|&t| {
            let obs: Vec<Observed> = pairs
                .iter()
                .map(
                    |(local, model)| {
                        if hub::hybrid_sends(local.confidence, t) { model.clone() } else { local.clone() }
                    },
                )
                .collect();
            (t, figures("hybrid", &obs))
        })
        .collect();
    if json {
        let v: Vec<_> = rows
            .iter()
            .map(|(t, f)| serde_json::json!({"threshold": t, "accuracy": f.accuracy, "wrongRoutes": f.wrong_routes, "modelShare": f.model_share}))
            .collect();
        say!("{}", serde_json::to_string(&v)?);
        return Ok(());
    }
    say!("threshold  accuracy [Wilson 95%]          wrong routes  sent to the model");
    for (t, f) in &rows {
        say!(
            "{t:>9.2}  {}  {:>12}  {:>5.1}% ({})",
            pct(&f.accuracy),
            f.wrong_routes,
            f.model_share * 100.0,
            f.model_calls
        );
    }
    Ok(())
}

/// `--cv`: the classifier (default fit and rules) cross-validated on the training the
/// Hub would build from the default cards and its out-of-scope examples.
pub(crate) fn cross_validate(
    config: &hub::Config,
    view: &[SpecialistView],
    json: bool,
) -> anyhow::Result<()> {
    let training = hub::training(view, &config.out_of_scope);
    let (fit, rules) = (intent::softmax::Fit::default(), intent::Rules::default());
    let started = Instant::now();
    let folds = intent::cv::cross_validate(&training, fit, rules, CV_FOLDS);
    let skills = intent::cv::leave_skill_out(&training, fit, rules);
    let took = started.elapsed();
    let row = |s: &intent::cv::Score| (wilson(s.correct, s.n), s.wrong_routes);
    if json {
        let (f, s) = (row(&folds), row(&skills));
        let v = serde_json::json!({
            "folds": {"accuracy": f.0, "wrongRoutes": f.1},
            "skillHeldOut": {"accuracy": s.0, "wrongRoutes": s.1},
        });
        say!("{v}");
        return Ok(());
    }
    for (name, s) in [(format!("{CV_FOLDS}-fold"), &folds), ("skill held out".into(), &skills)] {
        let (r, wrong) = row(s);
        say!("{name:<16} {}  wrong routes {wrong} ({:.1}%)", pct(&r), ratio(wrong, s.n) * 100.0);
    }
    say!("took {:.1} s", took.as_secs_f64());
    Ok(())
}

const CV_FOLDS: usize = 10;
