//! The Hub's configuration: built-in localhost defaults, an optional `HUB_CONFIG` JSON
//! file, then single-value environment overrides. Validated once at startup.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use conf::{ConfError, check_local_url, env_bool, env_parse, load_file};
use serde::Deserialize;
use vocab::agents;

use specialists::default_specialists;
pub use specialists::{Capability, SpecialistConf};

mod specialists;

pub const DEFAULT_PORT: u16 = 41243;
/// How long a form reference may be used unless `HUB_FORM_TTL_MS` says otherwise.
pub(crate) const DEFAULT_FORM_TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// Why `ROUTER_MODE=embed` is refused by a build without the feature.
pub(crate) const EMBED_NEEDS_FEATURE: &str =
    "the embed router needs a build with the embed feature (cargo build --release --features embed)";

/// How the Hub decides where a question goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RouterMode {
    /// Everything to the Tutor (Parts 2–4 behaviour).
    Direct,
    /// A labelled keyword heuristic over the registry's current skill tags.
    Mock,
    /// A text classifier trained from the registry's current cards and the Hub's
    /// out-of-scope examples (crate `intent`).
    Classifier,
    /// The same classifier reading sentence embeddings (all-MiniLM-L6-v2) instead of
    /// TF-IDF: only in a build with the `embed` feature, with the model fetched.
    Embed,
    /// One structured model call per question (crate `llm`), checked by code; on a
    /// provider error the classifier decides and the reply says so.
    Live,
    /// The classifier when its confidence is at or above `ROUTER_HYBRID_THRESHOLD`, the
    /// live router below it.
    Hybrid,
}

impl RouterMode {
    /// Whether this mode trains a model from the cards.
    pub fn trains(self) -> bool {
        matches!(self, RouterMode::Classifier | RouterMode::Embed | RouterMode::Live | RouterMode::Hybrid)
    }

    /// Whether this mode may call a model.
    pub fn calls_model(self) -> bool {
        matches!(self, RouterMode::Live | RouterMode::Hybrid)
    }

    /// The name `ROUTER_MODE` takes.
    pub fn as_str(self) -> &'static str {
        match self {
            RouterMode::Direct => "direct",
            RouterMode::Mock => "mock",
            RouterMode::Classifier => "classifier",
            RouterMode::Embed => "embed",
            RouterMode::Live => "live",
            RouterMode::Hybrid => "hybrid",
        }
    }

    pub fn parse(mode: &str) -> Option<RouterMode> {
        match mode.trim() {
            "direct" => Some(RouterMode::Direct),
            "mock" => Some(RouterMode::Mock),
            "classifier" => Some(RouterMode::Classifier),
            "embed" => Some(RouterMode::Embed),
            "live" => Some(RouterMode::Live),
            "hybrid" => Some(RouterMode::Hybrid),
            _ => None,
        }
    }
}

/// Where the router's mode is set, to name in an error about it: `ROUTER_MODE`, else the
/// `HUB_CONFIG` file's `router` field (or the defaults').
pub(crate) fn router_origin(env: &dyn Fn(&str) -> Option<String>) -> (String, String) {
    if env("ROUTER_MODE").is_some() {
        return ("ROUTER_MODE".into(), String::new());
    }
    (config_source(env), "router".into())
}

/// Where the Hub's configuration comes from, as an error names it: the `HUB_CONFIG` file
/// or the built-in defaults.
fn config_source(env: &dyn Fn(&str) -> Option<String>) -> String {
    env("HUB_CONFIG").map(|p| format!("HUB_CONFIG={p}")).unwrap_or_else(|| "defaults".into())
}

#[derive(Debug, Clone)]
pub struct Config {
    pub bind: SocketAddr,
    pub name: String,
    pub router: RouterMode,
    pub specialists: Vec<SpecialistConf>,
    pub heartbeat_interval: Duration,
    pub heartbeat_expiry: Duration,
    /// Relay specialists' telemetry without redaction (debugging only).
    pub show_content: bool,
    /// How long the Hub waits for a specialist's answer (`HUB_FORWARD_TIMEOUT_MS`).
    pub forward_timeout: Duration,
    /// How long a form reference may be used (`HUB_FORM_TTL_MS`, default 24 h).
    pub form_ttl: Duration,
    /// Questions no specialist here serves: the classifier's out-of-scope examples.
    pub out_of_scope: Vec<String>,
    /// `hybrid`: the classifier answers at or above this confidence, the model below it
    /// (`ROUTER_HYBRID_THRESHOLD`, file `hybridThreshold`; chosen on the dev set, see
    /// docs/router.md).
    pub hybrid_threshold: f32,
    /// The router's model, key and provider for `live` and `hybrid` (`HUB_MODEL`, the
    /// file's `model`, its key variable); `None` in the other modes.
    pub live: Option<llm::LiveSetup>,
    /// The sentence-embedding model's folder for the `embed` router (`EMBED_MODEL_DIR`;
    /// `None`: the fetch script's folder). Loaded by `RouterParts::load`, not here.
    pub embed_model_dir: Option<std::path::PathBuf>,
    /// Where the Hub's data file (`hub.sqlite3`) lives (`CAMPUS_DATA_DIR`, default `data`,
    /// relative to the working directory).
    pub data_dir: std::path::PathBuf,
}

/// The file's shape: every field optional, over the defaults.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct File {
    port: Option<u16>,
    name: Option<String>,
    router: Option<RouterMode>,
    specialists: Option<Vec<SpecialistConf>>,
    heartbeat_interval_ms: Option<u64>,
    heartbeat_expiry_ms: Option<u64>,
    show_content: Option<bool>,
    forward_timeout_ms: Option<u64>,
    out_of_scope: Option<Vec<String>>,
    hybrid_threshold: Option<f32>,
    model: Option<llm::ModelConfig>,
}

/// `ROUTER_HYBRID_THRESHOLD` unless set: on the dev-set sweep (docs/router.md) the
/// smallest share sent to the model above none; re-choose it from a real recording.
pub const DEFAULT_HYBRID_THRESHOLD: f32 = 0.5;

/// At most this many out-of-scope examples, each at most [`MAX_EXAMPLE_CHARS`].
pub(crate) const MAX_OUT_OF_SCOPE: usize = 400;
pub(crate) const MAX_EXAMPLE_CHARS: usize = 200;

impl Config {
    /// Defaults, then `HUB_CONFIG`, then `PORT`, `ROUTER_MODE`, `TUTOR_URL`,
    /// `LIBRARY_URL`, `PROFESSOR_URL`, `HEARTBEAT_INTERVAL_MS`, `HEARTBEAT_EXPIRY_MS`, `ROUTER_HYBRID_THRESHOLD`,
    /// the live router's `HUB_MODEL`, key and `ANTHROPIC_BASE_URL`, `HUB_TELEMETRY_SHOW_CONTENT`, `HUB_FORWARD_TIMEOUT_MS`, `HUB_FORM_TTL_MS`, `CAMPUS_DATA_DIR`.
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Self, ConfError> {
        let file: File = load_file("HUB_CONFIG", env)?.unwrap_or_default();
        let source = config_source(env);
        let mut c = Config {
            bind: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), file.port.unwrap_or(DEFAULT_PORT)),
            name: file.name.unwrap_or_else(|| "Campus University (fictional demo)".into()),
            router: file.router.unwrap_or(RouterMode::Classifier),
            specialists: file.specialists.unwrap_or_else(default_specialists),
            heartbeat_interval: Duration::from_millis(file.heartbeat_interval_ms.unwrap_or(3_000)),
            heartbeat_expiry: Duration::from_millis(file.heartbeat_expiry_ms.unwrap_or(10_000)),
            show_content: file.show_content.unwrap_or(false),
            forward_timeout: Duration::from_millis(file.forward_timeout_ms.unwrap_or(30_000)),
            form_ttl: DEFAULT_FORM_TTL,
            out_of_scope: file.out_of_scope.unwrap_or_else(crate::out_of_scope::defaults),
            hybrid_threshold: file.hybrid_threshold.unwrap_or(DEFAULT_HYBRID_THRESHOLD),
            live: None,
            embed_model_dir: env("EMBED_MODEL_DIR").map(Into::into),
            data_dir: env("CAMPUS_DATA_DIR").unwrap_or_else(|| store::DEFAULT_DATA_DIR.into()).into(),
        };
        if let Some(port) = env_parse::<u16>("PORT", env, "a port number (0-65535)")? {
            c.bind.set_port(port);
        }
        if let Some(mode) = env("ROUTER_MODE") {
            c.router = RouterMode::parse(&mode).ok_or_else(|| {
                ConfError::new(
                    "ROUTER_MODE",
                    "",
                    format!(
                        "{:?} is not a router mode (classifier, mock, direct, embed, live or hybrid)",
                        mode.trim()
                    ),
                )
            })?;
        }
        for (var, id) in [
            ("TUTOR_URL", agents::TUTOR),
            ("LIBRARY_URL", agents::LIBRARY),
            ("PROFESSOR_URL", agents::PROFESSOR),
        ] {
            if let Some(url) = env(var) {
                check_local_url(var, "", &url)?;
                if let Some(s) = c.specialists.iter_mut().find(|s| s.id == id) {
                    s.endpoint = url.trim_end_matches('/').to_string();
                }
            }
        }
        if let Some(ms) = env_parse::<u64>("HEARTBEAT_INTERVAL_MS", env, "a number of milliseconds")? {
            c.heartbeat_interval = Duration::from_millis(ms);
        }
        if let Some(ms) = env_parse::<u64>("HEARTBEAT_EXPIRY_MS", env, "a number of milliseconds")? {
            c.heartbeat_expiry = Duration::from_millis(ms);
        }
        if let Some(ms) = env_parse::<u64>("HUB_FORWARD_TIMEOUT_MS", env, "a number of milliseconds")? {
            c.forward_timeout = Duration::from_millis(ms.max(1));
        }
        if let Some(ms) = env_parse::<u64>("HUB_FORM_TTL_MS", env, "a number of milliseconds")? {
            c.form_ttl = Duration::from_millis(ms.max(1));
        }
        if let Some(t) = env_parse::<f32>("ROUTER_HYBRID_THRESHOLD", env, "a number from 0 to 1")? {
            c.hybrid_threshold = t;
        }
        if !(0.0..=1.0).contains(&c.hybrid_threshold) {
            let (var, field) = if env("ROUTER_HYBRID_THRESHOLD").is_some() {
                ("ROUTER_HYBRID_THRESHOLD", "")
            } else {
                (source.as_str(), "hybridThreshold")
            };
            return Err(ConfError::new(var, field, "must be a number from 0 to 1"));
        }
        if c.router.calls_model() {
            let model = file.model.clone().unwrap_or_default();
            c.live = Some(llm::LiveSetup::from_env("HUB", &model, &source, env)?);
        }
        if let Some(show) = env_bool("HUB_TELEMETRY_SHOW_CONTENT", env)? {
            c.show_content = show;
        }
        c.validate(&source)?;
        // Heartbeat values may come from the file or the environment: name where.
        let from_env = env("HEARTBEAT_INTERVAL_MS").is_some() || env("HEARTBEAT_EXPIRY_MS").is_some();
        let (hb_source, interval_field, expiry_field) = if from_env {
            ("HEARTBEAT_INTERVAL_MS/HEARTBEAT_EXPIRY_MS", "", "")
        } else {
            (source.as_str(), "heartbeatIntervalMs", "heartbeatExpiryMs")
        };
        if c.heartbeat_interval.is_zero() {
            return Err(ConfError::new(hb_source, interval_field, "the heartbeat interval must be above 0"));
        }
        if c.heartbeat_expiry <= c.heartbeat_interval {
            return Err(ConfError::new(
                hb_source,
                expiry_field,
                "the expiry must be longer than the heartbeat interval",
            ));
        }
        if c.router == RouterMode::Embed && !cfg!(feature = "embed") {
            let (var, field) = router_origin(env);
            return Err(ConfError::new(var, field, EMBED_NEEDS_FEATURE));
        }
        Ok(c)
    }

    fn validate(&self, source: &str) -> Result<(), ConfError> {
        let err = |field: String, problem: &str| Err(ConfError::new(source, field, problem));
        if self.name.trim().is_empty() {
            return err("name".into(), "must not be empty");
        }
        if self.specialists.is_empty() {
            return err("specialists".into(), "must list at least one specialist");
        }
        for (i, s) in self.specialists.iter().enumerate() {
            let at = |f: &str| format!("specialists[{i}].{f}");
            let id_ok = !s.id.is_empty()
                && s.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !id_ok {
                return err(at("id"), "must be lowercase letters, digits and -");
            }
            if self.specialists[..i].iter().any(|o| o.id == s.id) {
                return err(at("id"), "another specialist already has this id");
            }
            if self.specialists[..i].iter().any(|o| o.capability.id == s.capability.id) {
                return err(at("capability.id"), "another specialist already serves this capability");
            }
            if s.card_name.trim().is_empty() {
                return err(at("cardName"), "must not be empty");
            }
            if s.capability.id.trim().is_empty() {
                return err(at("capability.id"), "must not be empty");
            }
            if s.capability.name.trim().is_empty() {
                return err(at("capability.name"), "must not be empty");
            }
            check_local_url(source, &at("endpoint"), &s.endpoint)?;
        }
        if self.out_of_scope.len() > MAX_OUT_OF_SCOPE {
            return err("outOfScope".into(), "at most 400 examples");
        }
        for (i, e) in self.out_of_scope.iter().enumerate() {
            if e.trim().is_empty() || e.chars().count() > MAX_EXAMPLE_CHARS {
                return err(format!("outOfScope[{i}]"), "must be 1 to 200 characters");
            }
        }
        Ok(())
    }

    pub fn specialist(&self, id: &str) -> Option<&SpecialistConf> {
        self.specialists.iter().find(|s| s.id == id)
    }

    /// `servedBy` of an answer the Hub gives itself.
    pub(crate) fn served_by_hub(&self) -> vocab::ServedBy {
        vocab::ServedBy::hub(&self.name)
    }

    /// The public name of the capability `specialist` serves (its id when unknown).
    pub(crate) fn display_name(&self, specialist: &str) -> String {
        self.specialist(specialist)
            .map(|s| s.capability.name.clone())
            .unwrap_or_else(|| specialist.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn defaults_and_overrides() {
        let c = Config::from_env(&env_of(&[])).unwrap();
        assert_eq!(c.bind.port(), 41243);
        assert_eq!(c.router, RouterMode::Classifier);
        assert_eq!(c.specialists.len(), 3);
        let professor = c.specialists.iter().find(|s| s.id == agents::PROFESSOR).expect("the professor");
        assert_eq!(
            (professor.capability.id.as_str(), professor.endpoint.as_str()),
            ("marketing", "http://127.0.0.1:41244")
        );
        let moved = Config::from_env(&env_of(&[("PROFESSOR_URL", "http://127.0.0.1:5002/")])).unwrap();
        assert!(
            moved
                .specialists
                .iter()
                .any(|s| s.id == agents::PROFESSOR && s.endpoint == "http://127.0.0.1:5002")
        );
        let c = Config::from_env(&env_of(&[
            ("ROUTER_MODE", "direct"),
            ("TUTOR_URL", "http://127.0.0.1:5000/"),
            ("HEARTBEAT_INTERVAL_MS", "100"),
            ("HEARTBEAT_EXPIRY_MS", "400"),
        ]))
        .unwrap();
        assert_eq!(c.router, RouterMode::Direct);
        assert_eq!(c.specialist("tutor").unwrap().endpoint, "http://127.0.0.1:5000");
        assert_eq!(c.heartbeat_expiry, Duration::from_millis(400));
    }

    #[test]
    fn bad_values_are_named() {
        #[cfg(not(feature = "embed"))]
        {
            let e = Config::from_env(&env_of(&[("ROUTER_MODE", "embed")])).unwrap_err().to_string();
            assert!(e.starts_with("ROUTER_MODE: ") && e.contains("--features embed"), "{e}");
        }
        #[cfg(feature = "embed")]
        {
            let c =
                Config::from_env(&env_of(&[("ROUTER_MODE", "embed"), ("EMBED_MODEL_DIR", "/nonexistent")]))
                    .unwrap();
            let e = crate::route::RouterParts::load(&c, &env_of(&[("ROUTER_MODE", "embed")]))
                .err()
                .unwrap()
                .to_string();
            assert!(e.starts_with("ROUTER_MODE: ") && e.contains("scripts/fetch-minilm.sh"), "{e}");
        }
        let e = Config::from_env(&env_of(&[("ROUTER_MODE", "psychic")])).unwrap_err();
        assert_eq!(e.source, "ROUTER_MODE");
        let e = Config::from_env(&env_of(&[("TUTOR_URL", "http://example.com:80")])).unwrap_err();
        assert_eq!(e.source, "TUTOR_URL");
        let e = Config::from_env(&env_of(&[("HEARTBEAT_INTERVAL_MS", "12000")])).unwrap_err();
        assert!(e.to_string().starts_with("HEARTBEAT_INTERVAL_MS/HEARTBEAT_EXPIRY_MS: the expiry"), "{e}");
    }
}
