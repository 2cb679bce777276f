//! Deciding as the Hub would: the registry the default cards make, the label an
//! expectation stands for there, and each item through the router, then validation.

use std::time::{Duration, Instant};

use hub::{Outcome, Router, SpecialistView, Status};

use crate::eval::metrics::Observed;
use crate::eval::set::Item;

/// What the Hub's registry would show with the default Tutor and Library registered and
/// ready: their cards' skills; any other allowlisted specialist is not connected.
pub(crate) fn default_view(config: &hub::Config) -> Vec<SpecialistView> {
    let base = "http://127.0.0.1:1";
    let card_skills = |id: &str| match id {
        tutor::IDENTITY => {
            Some(skills::build_card(&tutor::agent_card(base), &tutor::default_skills(), 1).skills)
        }
        library::IDENTITY => {
            Some(skills::build_card(&library::agent_card(base), &library::default_skill_set(), 1).skills)
        }
        professor::IDENTITY => {
            Some(skills::build_card(&professor::agent_card(base), &professor::default_skills(), 1).skills)
        }
        _ => None,
    };
    config
        .specialists
        .iter()
        .map(|s| {
            let (status, skills) = match card_skills(&s.id) {
                Some(list) => (Status::Ready, hub::index(&list)),
                None => (Status::Disconnected, Vec::new()),
            };
            SpecialistView {
                id: s.id.clone(),
                name: s.card_name.clone(),
                capability: s.capability.id.clone(),
                status,
                skills: std::sync::Arc::new(skills),
            }
        })
        .collect()
}

/// The label an expectation stands for here: a routable specialist's id (a capability
/// id counts as its specialist's), `clarify`, or otherwise `unsupported`.
fn effective(expected: &str, config: &hub::Config, view: &[SpecialistView]) -> String {
    let id = config
        .specialists
        .iter()
        .find(|s| s.id == expected || s.capability.id == expected)
        .map(|s| s.id.as_str());
    match id {
        Some(id) if view.iter().any(|s| s.id == id && s.routable()) => id.to_string(),
        _ if expected == "clarify" => "clarify".into(),
        _ => "unsupported".into(),
    }
}

/// Decides every item as the Hub would (router, then validation).
pub(crate) async fn observe(
    router: &Router,
    config: &hub::Config,
    view: &[SpecialistView],
    items: &[Item],
) -> Vec<Observed> {
    let mut obs = Vec::with_capacity(items.len());
    for item in items {
        let started = Instant::now();
        let decided = router.decide_live(&item.text, view, true).await;
        let took = started.elapsed();
        obs.push(observed(item, decided, took, config, view));
    }
    obs
}

pub(crate) fn observed(
    item: &Item,
    decided: hub::Decided,
    took: Duration,
    config: &hub::Config,
    view: &[SpecialistView],
) -> Observed {
    let sent = decided.call.is_some();
    let outcome = hub::validate(decided.decision, view);
    let (got, routed) = match &outcome {
        Outcome::Route { specialist, .. } | Outcome::Unavailable { specialist, .. } => {
            (specialist.clone(), true)
        }
        Outcome::Clarify { .. } => ("clarify".to_string(), false),
        Outcome::Unsupported { .. } => ("unsupported".to_string(), false),
        Outcome::Courtesy { .. } => ("courtesy".to_string(), false),
    };
    Observed {
        expected: effective(&item.expected, config, view),
        got,
        routed,
        kind: item.kind.clone(),
        lang: item.lang.clone(),
        confidence: decided.confidence,
        took,
        sent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capability_counts_as_its_specialist_and_an_unregistered_one_as_unsupported() {
        let config = hub::Config::from_env(&|_| None).unwrap();
        let view = default_view(&config);
        assert_eq!(effective("tutor", &config, &view), "tutor");
        assert_eq!(effective("tutoring", &config, &view), "tutor");
        assert_eq!(effective("marketing", &config, &view), "professor");
        assert_eq!(effective("clarify", &config, &view), "clarify");
        let without: Vec<SpecialistView> = view.into_iter().filter(|s| s.id != "professor").collect();
        assert_eq!(effective("marketing", &config, &without), "unsupported");
    }
}
