//! The `classifier` (and `embed`) router: a model trained from every allowlisted
//! specialist's skills and the Hub's out-of-scope examples (crate `intent`) reads the
//! question; its verdict is a proposal like any other.

use crate::decision::{Decision, Scored, capability_list};
use crate::view::SpecialistView;

/// The classifier's training set over `view`: every skill of every allowlisted
/// specialist (the last good card's enabled skills, or the configured capability until
/// a card arrives) and the Hub's out-of-scope examples. Nothing else: a topic no
/// enabled skill offers is not learned for its specialist.
pub fn training(view: &[SpecialistView], out_of_scope: &[String]) -> intent::Training {
    let skills = view
        .iter()
        .flat_map(|s| {
            s.skills.iter().map(|k| intent::Skill {
                target: s.id.clone(),
                skill: k.id.clone(),
                texts: k.texts.clone(),
            })
        })
        .collect();
    intent::Training { skills, out_of_scope: out_of_scope.to_vec() }
}

/// The model's verdict on `question`, with its probability.
pub(super) fn classify(model: &intent::Model, question: &str, view: &[SpecialistView]) -> Scored {
    let p = model.decide(question);
    let name = if model.embedded() { "embed" } else { "classifier" };
    let decision = match p.verdict {
        intent::Verdict::Route { target, skill } => Decision::Route {
            reason: format!("{name}: {target}/{skill} at {:.2}", p.confidence.unwrap_or(0.0)),
            specialist: target,
            skill,
        },
        intent::Verdict::Clarify { options, .. } => Decision::Clarify { options, question: None },
        intent::Verdict::OutOfScope => Decision::Unsupported {
            reason: format!("{name}: out of scope; routable now: {}", capability_list(view)),
        },
    };
    Scored { decision, confidence: p.confidence }
}
