//! Routing decisions. A router proposes; code validates every proposal against the
//! registry, and only a validated "route" dispatches. No fan-out, no fallback: a chosen
//! specialist that is not ready is reported unavailable, never replaced.
//!
//! Modes: `direct` sends everything to the Tutor; `mock` is a labelled keyword heuristic
//! over the registry's current skill tags (it proves the plumbing, not understanding).
//! A live model-backed router will plug in behind the same [`Decision`] type.

use std::sync::{Arc, Mutex};

use serde::Serialize;

use crate::config::RouterMode;
use crate::registry::{SpecialistView, Status};

/// What a router proposes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Route {
        specialist: String,
        skill: String,
        reason: String,
    },
    /// Ask the student: which of `options` (specialist ids) they mean, or, when empty,
    /// what they need at all. The Hub words the question (see `clarify`) unless the live
    /// router wrote one (`question`, at most [`crate::live::MAX_CLARIFY_CHARS`]).
    Clarify {
        options: Vec<String>,
        question: Option<String>,
    },
    Unsupported {
        reason: String,
    },
}

/// What code decided after checking the proposal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    Route {
        specialist: String,
        skill: String,
        reason: String,
    },
    /// Offer `options` (routable specialist ids; empty when nothing is routable). `tie`:
    /// the router hesitated between these, rather than finding the question too vague.
    Clarify {
        options: Vec<String>,
        tie: bool,
        /// The live router's wording (model text: never in telemetry).
        #[serde(skip)]
        question: Option<String>,
    },
    Unsupported {
        reason: String,
    },
    /// Supported, but the specialist for it is not ready.
    Unavailable {
        specialist: String,
        status: Status,
    },
}

impl Outcome {
    pub fn kind(&self) -> &'static str {
        match self {
            Outcome::Route { .. } => "route",
            Outcome::Clarify { .. } => "clarify",
            Outcome::Unsupported { .. } => "unsupported",
            Outcome::Unavailable { .. } => "unavailable",
        }
    }
}

const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "is", "are", "was", "be", "to", "of", "in", "on", "at", "for", "with", "and", "or",
    "but", "i", "me", "my", "you", "your", "we", "it", "its", "this", "that", "can", "could", "would",
    "should", "do", "does", "did", "how", "what", "when", "where", "which", "who", "why", "please", "help",
    "need", "want", "like", "about", "some", "any", "there", "here", "have", "has", "get", "give", "tell",
    "know", "am", "so", "if", "not", "no", "yes", "hi", "hello", "hey", "thanks", "thank", "from", "by",
    "as", "up", "out", "just", "also", "will",
];

/// Lowercase words without punctuation, naive plural stemming, stop words dropped.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let w = w.to_lowercase();
            match w.strip_suffix('s') {
                Some(stem) if stem.len() > 3 && !stem.ends_with('s') => stem.to_string(),
                _ => w,
            }
        })
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .collect()
}

/// A skill as the router matches it, tokenized once when its card is accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillIndex {
    pub id: String,
    /// Each tag's words (a multi-word tag matches when all its words are asked).
    pub tags: Vec<Vec<String>>,
    pub name_words: Vec<String>,
    /// As the card states them: what the live router is shown (as data).
    pub name: String,
    pub description: String,
    pub tag_list: Vec<String>,
    /// Name, description, tags and examples as written: the classifier's training texts.
    pub texts: Vec<String>,
}

/// Indexes a card's skills for routing.
pub fn index(skills: &[a2a::wire::AgentSkill]) -> Vec<SkillIndex> {
    skills
        .iter()
        .map(|s| SkillIndex {
            id: s.id.clone(),
            tags: s.tags.iter().map(|t| words(t)).filter(|w| !w.is_empty()).collect(),
            name_words: words(&s.name),
            name: s.name.clone(),
            description: s.description.clone(),
            tag_list: s.tags.clone(),
            texts: skill_texts(&s.name, &s.description, &s.tags, s.examples.as_deref().unwrap_or_default()),
        })
        .collect()
}

/// A skill's training texts: its name, description, each tag and each example.
pub fn skill_texts(name: &str, description: &str, tags: &[String], examples: &[String]) -> Vec<String> {
    [name, description]
        .into_iter()
        .chain(tags.iter().map(String::as_str))
        .chain(examples.iter().map(String::as_str))
        .filter(|t| !t.trim().is_empty())
        .map(String::from)
        .collect()
}

/// How well a question matches a skill: tags count most, name words less.
fn score(question: &[String], skill: &SkillIndex) -> usize {
    let tags = skill.tags.iter().filter(|t| t.iter().all(|w| question.contains(w))).count() * 3;
    let name = skill.name_words.iter().filter(|w| question.contains(w)).count() * 2;
    tags + name
}

/// The Hub's router: the configured mode, and for the classifier the model trained from
/// the skills on the specialists' current cards and the Hub's out-of-scope examples.
/// Decisions read the model last installed; [`Router::retrain`] (the Hub calls it on a
/// blocking thread when the registry's skills change) trains a new one and swaps it in,
/// so no question waits for training. A decision meanwhile still reads the previous
/// model, and `validate` checks it against the current registry: a skill no longer on a
/// card is never dispatched.
pub struct Router {
    mode: RouterMode,
    out_of_scope: Vec<String>,
    /// The model decisions read; locked only to clone or swap the `Arc`.
    trained: Mutex<Option<Arc<Trained>>>,
    /// One training at a time.
    training: Mutex<()>,
    on_train: Option<Box<OnTrain>>,
    /// The live router's model (`live`, `hybrid`); `None` in the other modes, or when
    /// its client could not be built (every question then falls back, with that code).
    llm: Option<Arc<dyn llm::Llm>>,
    model: llm::Model,
    /// `hybrid`: the classifier answers at or above this confidence.
    threshold: f32,
    #[cfg(feature = "embed")]
    encoder: Option<Arc<intent::embed::Encoder>>,
}

type OnTrain = dyn Fn(&Trained) + Send + Sync;

/// A model and the skill lists it was trained from.
pub struct Trained {
    skills: Vec<Arc<Vec<SkillIndex>>>,
    pub model: Arc<intent::Model>,
    pub took: std::time::Duration,
}

impl Trained {
    /// Whether this model was trained from `view`'s skills (the same lists, or equal ones).
    fn fits(&self, view: &[SpecialistView]) -> bool {
        self.skills.len() == view.len()
            && self.skills.iter().zip(view).all(|(a, s)| Arc::ptr_eq(a, &s.skills) || **a == *s.skills)
    }
}

/// Whether the hybrid router asks the model: the classifier's confidence is below the
/// threshold (a rule's decision, which has none, counts as 0: only threshold 0 keeps it).
pub fn hybrid_sends(confidence: Option<f32>, threshold: f32) -> bool {
    confidence.unwrap_or(0.0) < threshold
}

/// A proposal and, when the model was asked, what that call did.
pub struct Decided {
    pub decision: Decision,
    /// The classifier's probability when it decided.
    pub confidence: Option<f32>,
    pub call: Option<crate::live::ModelCall>,
}

/// A proposal with the classifier's probability for what it acted on (`None` from the
/// mock and direct routers, and for the classifier's rule-based clarifying questions).
pub struct Scored {
    pub decision: Decision,
    pub confidence: Option<f32>,
}

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

impl Router {
    /// A router in `mode` with `config`'s out-of-scope examples.
    pub fn new(mode: RouterMode, config: &crate::Config) -> Self {
        Self {
            mode,
            out_of_scope: config.out_of_scope.clone(),
            trained: Mutex::new(None),
            training: Mutex::new(()),
            on_train: None,
            llm: config.live.as_ref().filter(|_| mode.calls_model()).and_then(|setup| match setup.client() {
                Ok(client) => Some(Arc::new(client) as Arc<dyn llm::Llm>),
                Err(e) => {
                    tracing::error!(code = e.code.as_str(), "the live router's client could not be built");
                    None
                }
            }),
            model: config.live.as_ref().map(|s| s.model).unwrap_or_default(),
            threshold: config.hybrid_threshold,
            #[cfg(feature = "embed")]
            encoder: config.encoder.clone(),
        }
    }

    /// Calls `f` after each training (the Hub reports it as telemetry).
    pub fn on_train(mut self, f: impl Fn(&Trained) + Send + Sync + 'static) -> Self {
        self.on_train = Some(Box::new(f));
        self
    }

    pub fn mode(&self) -> RouterMode {
        self.mode
    }

    /// Answers the live router's calls with `llm` (a mock, a replay, a recorder) instead
    /// of the configured client.
    pub fn with_llm(mut self, llm: Arc<dyn llm::Llm>) -> Self {
        self.llm = Some(llm);
        self
    }

    /// The `hybrid` threshold.
    pub fn with_threshold(mut self, threshold: f32) -> Self {
        self.threshold = threshold;
        self
    }

    pub fn threshold(&self) -> f32 {
        self.threshold
    }

    /// The model the live router asks (for the startup line and metadata).
    pub fn model_id(&self) -> &'static str {
        self.model.id()
    }

    /// Proposes a destination, calling the model in `live` mode, and in `hybrid` mode when
    /// the classifier's confidence is below the threshold. `allow_model: false` decides
    /// with the classifier (a model call already failed for this question: no second
    /// call). A failed call (every code, one call, no retry) falls back to the classifier
    /// and is returned with its code. The other modes decide as [`Router::decide_scored`].
    pub async fn decide_live(&self, question: &str, view: &[SpecialistView], allow_model: bool) -> Decided {
        if !self.mode.calls_model() {
            let scored = self.decide_scored(question, view);
            return Decided { decision: scored.decision, confidence: scored.confidence, call: None };
        }
        let local = classify(&self.model(view), question, view);
        let send =
            allow_model && (self.mode == RouterMode::Live || hybrid_sends(local.confidence, self.threshold));
        if !send {
            return Decided { decision: local.decision, confidence: local.confidence, call: None };
        }
        let Some(llm) = &self.llm else {
            let call = crate::live::ModelCall {
                model: self.model.id().to_string(),
                latency_ms: 0,
                usage: None,
                request_id: None,
                error: Some(llm::LlmError::new(llm::ErrorCode::ConnectionFailed)),
            };
            return Decided { decision: local.decision, confidence: local.confidence, call: Some(call) };
        };
        match crate::live::decide(llm.as_ref(), self.model, question, view).await {
            Ok((decision, call)) => Decided { decision, confidence: None, call: Some(call) },
            Err(call) => {
                tracing::warn!(
                    code = call.error.as_ref().map_or("-", |e| e.code.as_str()),
                    "live router failed; the classifier decided"
                );
                Decided { decision: local.decision, confidence: local.confidence, call: Some(call) }
            }
        }
    }

    fn current(&self) -> Option<Arc<Trained>> {
        self.trained.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The model decisions read now; trained here only when there is none yet.
    pub fn model(&self, view: &[SpecialistView]) -> Arc<intent::Model> {
        if let Some(t) = self.current() {
            return t.model.clone();
        }
        self.retrain(view);
        self.current().map(|t| t.model.clone()).expect("trained above")
    }

    /// Whether the installed model was trained from `view`'s skills.
    pub fn is_current(&self, view: &[SpecialistView]) -> bool {
        self.current().is_some_and(|t| t.fits(view))
    }

    /// Trains a model for `view`'s skills and installs it, unless the installed one was
    /// trained from them. Blocks for the training (milliseconds; seconds for `embed`):
    /// call it off the async workers. Returns whether it trained.
    pub fn retrain(&self, view: &[SpecialistView]) -> bool {
        let _one = self.training.lock().unwrap_or_else(|p| p.into_inner());
        if self.is_current(view) {
            return false;
        }
        let started = std::time::Instant::now();
        let model = Arc::new(self.train(&training(view, &self.out_of_scope)));
        let trained = Trained {
            skills: view.iter().map(|s| s.skills.clone()).collect(),
            model,
            took: started.elapsed(),
        };
        if let Some(f) = &self.on_train {
            f(&trained);
        }
        *self.trained.lock().unwrap_or_else(|p| p.into_inner()) = Some(Arc::new(trained));
        true
    }

    /// The TF-IDF classifier, or in `embed` mode the one over sentence embeddings (the
    /// TF-IDF one serves, with a warning, if embedding the training texts fails).
    fn train(&self, t: &intent::Training) -> intent::Model {
        #[cfg(feature = "embed")]
        if let (RouterMode::Embed, Some(e)) = (self.mode, &self.encoder) {
            match intent::Model::train_embedded(t, e.clone()) {
                Ok(m) => return m,
                Err(err) => {
                    tracing::warn!(error = %err, "embed router untrained; the tf-idf classifier serves")
                }
            }
        }
        intent::Model::train(t)
    }

    /// Proposes a destination for `question` over `view` (every allowlisted specialist,
    /// ready or not, with its last good skills).
    pub fn decide(&self, question: &str, view: &[SpecialistView]) -> Decision {
        self.decide_scored(question, view).decision
    }

    pub fn decide_scored(&self, question: &str, view: &[SpecialistView]) -> Scored {
        let decision = match self.mode {
            RouterMode::Direct => match view.iter().find(|s| s.id == "tutor") {
                Some(t) => Decision::Route {
                    specialist: t.id.clone(),
                    skill: t.skills.first().map(|s| s.id.clone()).unwrap_or_default(),
                    reason: "direct mode: everything goes to the tutor".into(),
                },
                None => Decision::Unsupported { reason: "direct mode, but no tutor is configured".into() },
            },
            RouterMode::Mock => mock(question, view),
            RouterMode::Classifier | RouterMode::Embed | RouterMode::Live | RouterMode::Hybrid => {
                return classify(&self.model(view), question, view);
            }
        };
        Scored { decision, confidence: None }
    }
}

fn classify(model: &intent::Model, question: &str, view: &[SpecialistView]) -> Scored {
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

pub(crate) fn mock(question: &str, view: &[SpecialistView]) -> Decision {
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

pub(crate) fn capability_list(view: &[SpecialistView]) -> String {
    let caps: Vec<&str> = view.iter().filter(|s| s.routable()).map(|s| s.capability.as_str()).collect();
    if caps.is_empty() { "none".into() } else { caps.join(" and ") }
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

/// Checks a proposal against the registry view: only a registered specialist with that
/// skill on its current card is routed, and only when it is ready. Anything else fails
/// closed as unsupported; nothing is redirected. A clarifying question offers only
/// what is routable right now.
pub fn validate(decision: Decision, view: &[SpecialistView]) -> Outcome {
    match decision {
        Decision::Clarify { options, question } => {
            let routable = |id: &String| view.iter().any(|s| &s.id == id && s.routable());
            let tie = !options.is_empty();
            let options: Vec<String> = if tie {
                options.into_iter().filter(routable).collect()
            } else {
                view.iter().filter(|s| s.routable()).map(|s| s.id.clone()).collect()
            };
            Outcome::Clarify { tie: tie && options.len() > 1, options, question }
        }
        Decision::Unsupported { reason } => Outcome::Unsupported { reason },
        Decision::Route { specialist, skill, reason } => {
            let Some(s) = view.iter().find(|s| s.id == specialist) else {
                return Outcome::Unsupported {
                    reason: "the router chose a service that is not registered".into(),
                };
            };
            if s.status == Status::Disabled {
                return Outcome::Unavailable { specialist, status: Status::Disabled };
            }
            if !s.skills.is_empty() && !s.skills.iter().any(|k| k.id == skill) {
                return Outcome::Unsupported {
                    reason: "the router chose a skill the service does not offer".into(),
                };
            }
            if s.skills.is_empty() && s.status == Status::Ready {
                return Outcome::Unsupported { reason: "the service has no enabled skills".into() };
            }
            if s.status != Status::Ready {
                return Outcome::Unavailable { specialist, status: s.status };
            }
            Outcome::Route { specialist, skill, reason }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a::wire::AgentSkill;
    use std::sync::Arc;

    fn skill(id: &str, tags: &[&str]) -> AgentSkill {
        AgentSkill {
            id: id.into(),
            name: id.replace('-', " "),
            description: String::new(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            examples: None,
            input_modes: None,
            output_modes: None,
            security_requirements: None,
        }
    }

    fn config() -> crate::Config {
        crate::Config::from_env(&|_| None).unwrap()
    }

    fn skills(list: Vec<AgentSkill>) -> Arc<Vec<SkillIndex>> {
        Arc::new(index(&list))
    }

    fn view() -> Vec<SpecialistView> {
        vec![
            SpecialistView {
                id: "tutor".into(),
                name: "Tutor Agent".into(),
                capability: "tutoring".into(),
                status: Status::Ready,
                skills: skills(vec![skill(
                    "calculus-tutoring",
                    &["calculus", "derivative", "integral", "limit"],
                )]),
            },
            SpecialistView {
                id: "library".into(),
                name: "Library Agent".into(),
                capability: "library".into(),
                status: Status::Ready,
                skills: skills(vec![
                    skill("library-hours", &["hours", "opening"]),
                    skill("printing", &["print", "price"]),
                ]),
            },
        ]
    }

    #[test]
    fn mock_routes_by_tags() {
        let v = view();
        let d = Router::new(RouterMode::Mock, &config()).decide("What's the derivative of x^2?", &v);
        assert!(matches!(&d, Decision::Route { specialist, .. } if specialist == "tutor"), "{d:?}");
        let d = Router::new(RouterMode::Mock, &config()).decide("library opening hours on Monday", &v);
        assert!(matches!(&d, Decision::Route { skill, .. } if skill == "library-hours"), "{d:?}");
        assert!(matches!(
            Router::new(RouterMode::Mock, &config()).decide("fix my kitchen sink please", &v),
            Decision::Unsupported { .. }
        ));
        assert_eq!(
            Router::new(RouterMode::Mock, &config()).decide("hi", &v),
            Decision::Clarify { options: vec![], question: None }
        );
        let tie = Router::new(RouterMode::Mock, &config()).decide("the price of a limit", &v);
        assert_eq!(
            tie,
            Decision::Clarify { options: vec!["tutor".into(), "library".into()], question: None }
        );
        assert_eq!(best_skill("the price of a limit", &v[1]).as_deref(), Some("printing"));
        assert_eq!(best_skill("something else", &v[1]).as_deref(), Some("library-hours"));
        let d = Router::new(RouterMode::Direct, &config()).decide("library hours", &v);
        assert!(matches!(&d, Decision::Route { specialist, .. } if specialist == "tutor"));
    }

    #[test]
    fn validation_fails_closed_and_never_redirects() {
        let mut v = view();
        let forged =
            Decision::Route { specialist: "plumber".into(), skill: "pipes".into(), reason: String::new() };
        assert!(matches!(validate(forged, &v), Outcome::Unsupported { .. }));
        let wrong_skill =
            Decision::Route { specialist: "tutor".into(), skill: "printing".into(), reason: String::new() };
        assert!(matches!(validate(wrong_skill, &v), Outcome::Unsupported { .. }));
        v[1].status = Status::Stale;
        let d = Router::new(RouterMode::Mock, &config()).decide("library opening hours", &v);
        assert_eq!(
            validate(d, &v),
            Outcome::Unavailable { specialist: "library".into(), status: Status::Stale }
        );
    }

    #[test]
    fn clarifying_questions_offer_only_what_is_routable_now() {
        let mut v = view();
        let tie = || Decision::Clarify { options: vec!["tutor".into(), "library".into()], question: None };
        assert_eq!(
            validate(tie(), &v),
            Outcome::Clarify { options: vec!["tutor".into(), "library".into()], tie: true, question: None }
        );
        v[0].status = Status::Disabled;
        assert_eq!(
            validate(tie(), &v),
            Outcome::Clarify { options: vec!["library".into()], tie: false, question: None }
        );
        let vague = Decision::Clarify { options: vec![], question: None };
        assert_eq!(
            validate(vague.clone(), &v),
            Outcome::Clarify { options: vec!["library".into()], tie: false, question: None }
        );
        v[1].skills = skills(vec![]);
        assert_eq!(validate(vague, &v), Outcome::Clarify { options: vec![], tie: false, question: None });
        assert!(!v[1].routable(), "ready without enabled skills is not routable");
    }
}
