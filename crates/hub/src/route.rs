//! The router: proposes where a question goes. Each mode lives in a file of its own —
//! `direct` (everything to the Tutor), `mock` (a labelled keyword heuristic over the
//! registry's skill tags), `classifier` (a text classifier trained from the cards; in
//! `embed` mode over sentence embeddings) and `live` (one model call, checked by code;
//! `hybrid` asks it only when the classifier is unsure). A router proposes; code validates
//! every proposal against the registry (`decision::validate`).
//!
//! The router is given what it runs on ([`RouterParts`]: its model client and encoder are
//! built by [`RouterParts::load`], so the configuration stays data).

mod classifier;
mod direct;
pub(crate) mod live;
pub(crate) mod mock;

use std::sync::{Arc, Mutex};

use conf::ConfError;

use crate::config::{Config, RouterMode};
use crate::decision::{Decision, Scored};
use crate::view::{SkillIndex, SpecialistView};

pub use classifier::training;
pub use live::{ModelCall, hybrid_sends};

/// What a router runs on: its mode and data, and the handles built from configuration.
pub struct RouterParts {
    pub mode: RouterMode,
    /// The Hub's out-of-scope examples (the classifier's "none of these").
    pub out_of_scope: Vec<String>,
    /// `hybrid`: the classifier answers at or above this confidence.
    pub threshold: f32,
    /// The model the live router asks.
    pub model: llm::Model,
    /// The live router's client (`live`, `hybrid`); `None` in the other modes, or when its
    /// client could not be built (every question then falls back, with that code).
    pub llm: Option<Arc<dyn llm::Llm>>,
    /// The sentence encoder of the `embed` mode.
    #[cfg(feature = "embed")]
    pub encoder: Option<Arc<intent::embed::Encoder>>,
}

impl RouterParts {
    /// The data of `config` for a router in `mode`, with no model client and no encoder.
    pub fn of(mode: RouterMode, config: &Config) -> RouterParts {
        RouterParts {
            mode,
            out_of_scope: config.out_of_scope.clone(),
            threshold: config.hybrid_threshold,
            model: config.live.as_ref().map(|s| s.model).unwrap_or_default(),
            llm: None,
            #[cfg(feature = "embed")]
            encoder: None,
        }
    }

    /// Everything `config`'s router needs, built: the live router's client (one that
    /// cannot be built is logged; every question then falls back to the classifier with
    /// that code) and the `embed` mode's encoder (a model that cannot be loaded is a
    /// configuration error).
    /// `env`: the lookup `config` was read with, to name where the mode was set in an error.
    pub fn load(config: &Config, env: &dyn Fn(&str) -> Option<String>) -> Result<RouterParts, ConfError> {
        let mut parts = RouterParts::of(config.router, config);
        if config.router.calls_model()
            && let Some(setup) = &config.live
        {
            match setup.client() {
                Ok(client) => parts.llm = Some(Arc::new(client)),
                Err(e) => {
                    tracing::error!(code = e.code.as_str(), "the live router's client could not be built")
                }
            }
        }
        if config.router == RouterMode::Embed {
            parts.load_encoder(config, env)?;
        }
        Ok(parts)
    }

    /// The embedding model for `ROUTER_MODE=embed`, from `EMBED_MODEL_DIR` (default
    /// `models/all-MiniLM-L6-v2`, where `scripts/fetch-minilm.sh` puts it).
    #[cfg(feature = "embed")]
    fn load_encoder(
        &mut self,
        config: &Config,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<(), ConfError> {
        let dir = config.embed_model_dir.clone().unwrap_or_else(|| intent::embed::DEFAULT_DIR.into());
        let encoder = intent::embed::Encoder::load(&dir).map_err(|e| {
            let (var, field) = crate::config::router_origin(env);
            ConfError::new(var, field, e.to_string())
        })?;
        self.encoder = Some(Arc::new(encoder));
        Ok(())
    }

    #[cfg(not(feature = "embed"))]
    fn load_encoder(
        &mut self,
        _config: &Config,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<(), ConfError> {
        let (var, field) = crate::config::router_origin(env);
        Err(ConfError::new(var, field, crate::config::EMBED_NEEDS_FEATURE))
    }
}

/// The Hub's router: the configured mode, and for the classifier the model trained from
/// the skills on the specialists' current cards and the Hub's out-of-scope examples.
/// Decisions read the model last installed; [`Router::retrain`] (the Hub calls it on a
/// blocking thread when the registry's skills change) trains a new one and swaps it in,
/// so no question waits for training. A decision meanwhile still reads the previous
/// model, and `validate` checks it against the current registry: a skill no longer on a
/// card is never dispatched.
pub struct Router {
    parts: RouterParts,
    /// The model decisions read; locked only to clone or swap the `Arc`.
    trained: Mutex<Option<Arc<Trained>>>,
    /// One training at a time.
    training: Mutex<()>,
    on_train: Option<Box<OnTrain>>,
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

/// A proposal and, when the model was asked, what that call did.
pub struct Decided {
    pub decision: Decision,
    /// The classifier's probability when it decided.
    pub confidence: Option<f32>,
    pub call: Option<ModelCall>,
}

impl Router {
    pub fn new(parts: RouterParts) -> Self {
        Self { parts, trained: Mutex::new(None), training: Mutex::new(()), on_train: None }
    }

    /// Calls `f` after each training (the Hub reports it as telemetry).
    pub fn on_train(mut self, f: impl Fn(&Trained) + Send + Sync + 'static) -> Self {
        self.on_train = Some(Box::new(f));
        self
    }

    pub fn mode(&self) -> RouterMode {
        self.parts.mode
    }

    /// Answers the live router's calls with `llm` (a mock, a replay, a recorder) instead
    /// of the configured client.
    pub fn with_llm(mut self, llm: Arc<dyn llm::Llm>) -> Self {
        self.parts.llm = Some(llm);
        self
    }

    /// The `hybrid` threshold.
    pub fn with_threshold(mut self, threshold: f32) -> Self {
        self.parts.threshold = threshold;
        self
    }

    pub fn threshold(&self) -> f32 {
        self.parts.threshold
    }

    /// The model the live router asks (for the startup line and metadata).
    pub fn model_id(&self) -> &'static str {
        self.parts.model.id()
    }

    /// Waits, when the skills in `view` changed and the retraining has not finished, for
    /// it (on a blocking thread), so no question is decided by a model of older skills.
    pub async fn catch_up(self: &Arc<Self>, view: &[SpecialistView]) {
        if self.mode().trains() && !self.is_current(view) {
            let (me, v) = (self.clone(), view.to_vec());
            if let Err(err) = tokio::task::spawn_blocking(move || me.retrain(&v)).await {
                tracing::warn!(error = %err, "router retraining failed; the previous model serves");
            }
        }
    }

    /// One proposal for `text`, as the Hub asks for it: the embed router on a blocking
    /// thread (a transformer pass must not hold up the runtime's workers, which carry
    /// heartbeats), the live and hybrid routers with at most one model call per question
    /// (after a failed call in `calls`, the classifier decides the rest), the others inline.
    pub async fn propose(
        self: &Arc<Self>,
        text: &str,
        view: &[SpecialistView],
        calls: &mut Vec<ModelCall>,
    ) -> Decision {
        match self.mode() {
            RouterMode::Embed => {
                let (me, text, view) = (self.clone(), text.to_string(), view.to_vec());
                tokio::task::spawn_blocking(move || me.decide(&text, &view)).await.unwrap_or_else(|e| {
                    tracing::error!(error = %e, "embed router failed; asking the student to say more");
                    Decision::Clarify { options: Vec::new(), question: None }
                })
            }
            mode if mode.calls_model() => {
                let allow = calls.iter().all(|c| c.error.is_none());
                let decided = self.decide_live(text, view, allow).await;
                calls.extend(decided.call);
                decided.decision
            }
            _ => self.decide(text, view),
        }
    }

    /// Proposes a destination, calling the model in `live` mode, and in `hybrid` mode when
    /// the classifier's confidence is below the threshold. `allow_model: false` decides
    /// with the classifier (a model call already failed for this question: no second
    /// call). A failed call (every code, one call, no retry) falls back to the classifier
    /// and is returned with its code. The other modes decide as [`Router::decide_scored`].
    pub async fn decide_live(&self, question: &str, view: &[SpecialistView], allow_model: bool) -> Decided {
        if !self.mode().calls_model() {
            let scored = self.decide_scored(question, view);
            return Decided { decision: scored.decision, confidence: scored.confidence, call: None };
        }
        let local = classifier::classify(&self.model(view), question, view);
        let send = allow_model
            && (self.mode() == RouterMode::Live || hybrid_sends(local.confidence, self.parts.threshold));
        if !send {
            return Decided { decision: local.decision, confidence: local.confidence, call: None };
        }
        let model = self.parts.model;
        let result = match &self.parts.llm {
            Some(llm) => live::decide(llm.as_ref(), model, question, view).await,
            None => Err(ModelCall::failed(model, llm::ErrorCode::ConnectionFailed)),
        };
        match result {
            Ok((decision, call)) => Decided { decision, confidence: None, call: Some(call) },
            Err(call) => {
                if self.parts.llm.is_some() {
                    tracing::warn!(
                        code = call.error.as_ref().map_or("-", |e| e.code.as_str()),
                        "live router failed; the classifier decided"
                    );
                }
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
        let model = Arc::new(self.train(&training(view, &self.parts.out_of_scope)));
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
        if let (RouterMode::Embed, Some(e)) = (self.parts.mode, &self.parts.encoder) {
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
        let decision = match self.parts.mode {
            RouterMode::Direct => direct::decide(view),
            RouterMode::Mock => mock::decide(question, view),
            RouterMode::Classifier | RouterMode::Embed | RouterMode::Live | RouterMode::Hybrid => {
                return classifier::classify(&self.model(view), question, view);
            }
        };
        Scored { decision, confidence: None }
    }
}
