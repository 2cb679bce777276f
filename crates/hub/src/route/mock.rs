//! The `mock` router: a labelled keyword heuristic over the registry's current skill tags
//! (it proves the plumbing, not understanding). Its scoring also picks a skill for a
//! specialist the student named when asked which service they meant.

use crate::decision::{Decision, capability_list};
use crate::view::{SkillIndex, SpecialistView, words};

/// How well a question matches a skill: tags count most, name words less.
fn score(question: &[String], skill: &SkillIndex) -> usize {
    let tags = skill.tags.iter().filter(|t| t.iter().all(|w| question.contains(w))).count() * 3;
    let name = skill.name_words.iter().filter(|w| question.contains(w)).count() * 2;
    tags + name
}

/// The keyword heuristic's proposal for `question`.
pub(crate) fn decide(question: &str, view: &[SpecialistView]) -> Decision {
    let q = words(question);
    let mut best: Vec<(usize, &SpecialistView, &str)> = Vec::new(); // best skill per specialist
    for s in view {
        let top = s.skills.iter().map(|k| (score(&q, k), k.id.as_str())).max_by_key(|(sc, _)| *sc);
        if let Some((sc, skill)) = top.filter(|(sc, _)| *sc > 0) {
            best.push((sc, s, skill));
        }
    }
    best.sort_by_key(|b| std::cmp::Reverse(b.0));
    match best.as_slice() {
        [] if q.len() < 2 => Decision::Clarify { options: Vec::new(), question: None },
        [] => Decision::Unsupported {
            reason: format!(
                "mock keyword heuristic: no skill tag matched; routable now: {}",
                capability_list(view)
            ),
        },
        [(top, _, _), (second, _, _), ..] if top == second => Decision::Clarify {
            options: best.iter().take_while(|b| b.0 == *top).map(|b| b.1.id.clone()).collect(),
            question: None,
        },
        [(sc, s, skill), ..] => Decision::Route {
            specialist: s.id.clone(),
            skill: skill.to_string(),
            reason: format!("mock keyword heuristic: skill {skill} scored {sc}"),
        },
    }
}

/// The skill of `specialist` that best fits `question` (its first skill when none fits).
pub fn best_skill(question: &str, specialist: &SpecialistView) -> Option<String> {
    let q = words(question);
    let mut best: Option<(usize, &str)> = None;
    for k in specialist.skills.iter() {
        let sc = score(&q, k);
        if best.is_none_or(|(top, _)| sc > top) {
            best = Some((sc, k.id.as_str()));
        }
    }
    best.map(|(_, id)| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RouterMode;
    use crate::route::{Router, RouterParts};
    use crate::testing::{config, view};

    fn router(mode: RouterMode) -> Router {
        Router::new(RouterParts::of(mode, &config()))
    }

    #[test]
    fn mock_routes_by_tags() {
        let v = view();
        let d = router(RouterMode::Mock).decide("What's the derivative of x^2?", &v);
        assert!(matches!(&d, Decision::Route { specialist, .. } if specialist == "tutor"), "{d:?}");
        let d = router(RouterMode::Mock).decide("library opening hours on Monday", &v);
        assert!(matches!(&d, Decision::Route { skill, .. } if skill == "library-hours"), "{d:?}");
        assert!(matches!(
            router(RouterMode::Mock).decide("fix my kitchen sink please", &v),
            Decision::Unsupported { .. }
        ));
        assert_eq!(
            router(RouterMode::Mock).decide("hi", &v),
            Decision::Clarify { options: vec![], question: None }
        );
        let tie = router(RouterMode::Mock).decide("the price of a limit", &v);
        assert_eq!(
            tie,
            Decision::Clarify { options: vec!["tutor".into(), "library".into()], question: None }
        );
        assert_eq!(best_skill("the price of a limit", &v[1]).as_deref(), Some("printing"));
        assert_eq!(best_skill("something else", &v[1]).as_deref(), Some("library-hours"));
        let d = router(RouterMode::Direct).decide("library hours", &v);
        assert!(matches!(&d, Decision::Route { specialist, .. } if specialist == "tutor"));
    }
}
