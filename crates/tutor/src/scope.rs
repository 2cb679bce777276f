//! What the offline tutor will not take on: the skill policy's excluded areas (standalone
//! physics, home repair, library services, non-calculus maths), proofs and questions in
//! more than one variable. Detection is by words; a calculus cue (derivative, integral,
//! limit, rate of change, …) always keeps a question in.

use skills::Policy;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Area {
    Physics,
    HomeRepair,
    Library,
    OtherMaths,
}

impl Area {
    /// A word that names this area in a policy's `excluded` entry.
    fn policy_word(self) -> &'static str {
        match self {
            Area::Physics => "physics",
            Area::HomeRepair => "repair",
            Area::Library => "library",
            Area::OtherMaths => "math",
        }
    }

    fn plain_name(self) -> &'static str {
        match self {
            Area::Physics => "physics on its own",
            Area::HomeRepair => "home repair",
            Area::Library => "a library service",
            Area::OtherMaths => "maths outside calculus",
        }
    }
}

const CALCULUS_CUES: &[&str] = &[
    "deriv",
    "differentiat",
    "integra",
    "limit",
    "d/d",
    "∫",
    "slope",
    "tangent",
    "rate of change",
    "calculus",
    "optimi",
    "maxim",
    "minim",
    "area under",
    "rule",
    "dx",
    "implicit",
    "substitution",
    "fundamental theorem",
];

const PHYSICS: &[&str] = &[
    "physics",
    "force",
    "newton",
    "friction",
    "momentum",
    "voltage",
    "circuit",
    "resistor",
    "gravity",
    "projectile",
    "torque",
    "kinetic energy",
    "joule",
    "magnetic",
    "electric field",
    "ohm",
];
const REPAIR: &[&str] = &[
    "repair",
    "faucet",
    "leak",
    "plumb",
    "drywall",
    "roof",
    "furnace",
    "toilet",
    "sink",
    "fix my",
    "fix the",
    "broken door",
    "light switch",
    "paint my",
];
const LIBRARY: &[&str] = &[
    "library",
    "borrow",
    "study room",
    "book a room",
    "renew",
    "loan",
    "overdue",
    "librarian",
    "opening hours",
];
const OTHER_MATHS: &[&str] = &[
    "solve",
    "quadratic",
    "equation",
    "percent",
    "probability",
    "matrix",
    "matrices",
    "statistic",
    "geometry",
    "triangle",
    "factorise",
    "factorize",
    "prime number",
    "long division",
];

pub(crate) fn has_calculus_cue(lower: &str) -> bool {
    CALCULUS_CUES.iter().any(|c| lower.contains(c)) || crate::define::has_primes(lower)
}

/// The excluded area a question is clearly in, if any.
pub(crate) fn area(lower: &str) -> Option<Area> {
    if has_calculus_cue(lower) {
        return None;
    }
    let any = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if any(LIBRARY) {
        Some(Area::Library)
    } else if any(REPAIR) {
        Some(Area::HomeRepair)
    } else if any(PHYSICS) {
        Some(Area::Physics)
    } else if any(OTHER_MATHS) {
        Some(Area::OtherMaths)
    } else {
        None
    }
}

/// What the policy's enabled skills cover, as one phrase.
pub(crate) fn covered(policy: &Policy) -> String {
    let mut all: Vec<&str> = Vec::new();
    for s in &policy.skills {
        for a in &s.allowed_scope {
            if !all.contains(&a.as_str()) {
                all.push(a);
            }
        }
    }
    match all.as_slice() {
        [] => "calculus".into(),
        [one] => (*one).into(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The decline for `area`: named by the policy's own excluded entry when it has one.
pub(crate) fn decline(area: Area, policy: &Policy) -> String {
    let entry = policy
        .skills
        .iter()
        .flat_map(|s| s.excluded.iter())
        .find(|e| e.to_lowercase().contains(area.policy_word()));
    let what = match entry {
        Some(e) => format!("That looks like {} ({e} is outside my scope).", area.plain_name()),
        None => format!("That looks like {}, which I can't help with offline.", area.plain_name()),
    };
    format!("{what} I cover {}. Try: derivative of x^3*sin(x)", covered(policy))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calculus_cues_keep_a_question_in() {
        assert_eq!(area("how do i fix my leaking faucet"), Some(Area::HomeRepair));
        assert_eq!(area("solve 2x+3=7"), Some(Area::OtherMaths));
        assert_eq!(area("what force does a spring exert"), Some(Area::Physics));
        assert_eq!(area("can i renew my library loan"), Some(Area::Library));
        assert_eq!(area("derivative of x^2 at x=2"), None);
        assert_eq!(area("the rate of change of the force over time"), None);
    }
}
