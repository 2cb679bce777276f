//! The `direct` router: every question to the Tutor, whatever it asks.

use crate::decision::Decision;
use crate::view::SpecialistView;

pub(super) fn decide(view: &[SpecialistView]) -> Decision {
    match view.iter().find(|s| s.id == vocab::agents::TUTOR) {
        Some(t) => Decision::Route {
            specialist: t.id.clone(),
            skill: t.skills.first().map(|s| s.id.clone()).unwrap_or_default(),
            reason: "direct mode: everything goes to the tutor".into(),
        },
        None => Decision::Unsupported { reason: "direct mode, but no tutor is configured".into() },
    }
}
