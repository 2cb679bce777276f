//! The command-line Student's configuration: where its one agent is, how long it waits,
//! and the file its own model's settings live in.

use crate::DEFAULT_HUB_URL;

/// The command-line Student's configuration: defaults, then an optional `STUDENT_CONFIG`
/// JSON file (`{"hubUrl": …, "timeoutMs": …}`), then `HUB_URL`, `STUDENT_TIMEOUT_MS`, and
/// `TUTOR_URL` (which asks the Tutor directly, as in Part 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The one agent this Student talks to.
    pub url: String,
    pub timeout: std::time::Duration,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct File {
    hub_url: Option<String>,
    timeout_ms: Option<u64>,
    /// The Student's own model in live mode (`STUDENT_MODE=live`).
    pub(crate) model: Option<llm::ModelConfig>,
}

/// The `STUDENT_CONFIG` file (or the defaults) and how errors name it.
pub(crate) fn load_file(env: &dyn Fn(&str) -> Option<String>) -> Result<(File, String), conf::ConfError> {
    let file: File = conf::load_file("STUDENT_CONFIG", env)?.unwrap_or_default();
    let source = env("STUDENT_CONFIG").map(|p| format!("STUDENT_CONFIG={p}")).unwrap_or_default();
    Ok((file, source))
}

impl Config {
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Self, conf::ConfError> {
        let (file, source) = load_file(env)?;
        let mut url = file.hub_url.unwrap_or_else(|| DEFAULT_HUB_URL.into());
        conf::check_local_url(&source, "hubUrl", &url)?;
        let mut timeout_ms = file.timeout_ms.unwrap_or(35_000);
        if timeout_ms == 0 {
            return Err(conf::ConfError::new(&source, "timeoutMs", "must be above 0"));
        }
        for var in ["HUB_URL", "TUTOR_URL"] {
            if let Some(v) = env(var) {
                conf::check_local_url(var, "", &v)?;
                url = v.trim_end_matches('/').to_string();
            }
        }
        if let Some(ms) = conf::env_parse::<u64>("STUDENT_TIMEOUT_MS", env, "a number of milliseconds")? {
            timeout_ms = ms.max(1);
        }
        Ok(Self { url, timeout: std::time::Duration::from_millis(timeout_ms) })
    }
}
