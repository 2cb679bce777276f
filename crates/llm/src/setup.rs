//! What an agent's live mode reads at startup: its model, its key, the base URL.

use std::path::PathBuf;

use conf::ConfError;
use serde::{Deserialize, Serialize};

use crate::key::valid_var_name;
use crate::{
    Anthropic, AnthropicConfig, DEFAULT_KEY_VAR, LlmError, Model, base_url_from_env, choose_model, load_key,
};

/// The `model` section of an agent's configuration file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModelConfig {
    /// The model's id (default `claude-haiku-5-5`); `<AGENT>_MODEL` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The variable the agent reads its key from (default `ANTHROPIC_API_KEY`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_variable: Option<String>,
}

/// An agent's live model settings, read once at startup.
#[derive(Debug, Clone)]
pub struct LiveSetup {
    pub model: Model,
    /// The key's variable (the key itself is in `client`, never shown).
    pub key_variable: String,
    pub client: AnthropicConfig,
}

impl LiveSetup {
    /// Reads, for the agent called `agent` (`TUTOR`, `HUB`, …):
    /// - the model: `<AGENT>_MODEL`, else `config.name` (read from `config_source`), else
    ///   the default; anything not in [`crate::MODELS`] is an error naming the accepted ones;
    /// - the key: the variable `config.keyVariable` names (default `ANTHROPIC_API_KEY`) from
    ///   the environment, else from the file `<AGENT>_ENV_FILE` names, else `.env` in the
    ///   working directory; no key is not an error here (each call then fails with
    ///   `missing_credentials` and sends nothing);
    /// - the base URL: `ANTHROPIC_BASE_URL` (see [`base_url_from_env`]).
    pub fn from_env(
        agent: &str,
        config: &ModelConfig,
        config_source: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<LiveSetup, ConfError> {
        let model = choose_model(
            &format!("{agent}_MODEL"),
            config.name.as_deref().map(|name| (config_source, name)),
            env,
        )?;
        let key_variable = config.key_variable.clone().unwrap_or_else(|| DEFAULT_KEY_VAR.to_string());
        if !valid_var_name(&key_variable) {
            return Err(ConfError::new(
                config_source,
                "model.keyVariable",
                "is not a valid environment variable name",
            ));
        }
        let env_file = env(&format!("{agent}_ENV_FILE")).map_or_else(|| PathBuf::from(".env"), PathBuf::from);
        let key = load_key(&key_variable, env, &env_file)?;
        let base_url = base_url_from_env(env)?;
        Ok(LiveSetup { model, key_variable, client: AnthropicConfig::new(base_url, key) })
    }

    /// `configured`, `NOT SET`, or — when the model server is on this machine (`http://`,
    /// which only a loopback address may use: the fake Messages API) — `not needed`: a
    /// placeholder goes to that local server and no key leaves the machine. For the startup
    /// line (never the key).
    pub fn key_status(&self) -> &'static str {
        match &self.client.key {
            None => "NOT SET",
            Some(_) if self.on_this_machine() => "not needed (the model server is on this machine)",
            Some(_) => "configured",
        }
    }

    /// Whether the model server is on this machine (`http://`, which only a loopback
    /// address may use: the fake Messages API), so nothing this agent asks leaves it.
    pub fn on_this_machine(&self) -> bool {
        self.client.base_url.starts_with("http://")
    }

    pub fn client(&self) -> Result<Anthropic, LlmError> {
        Anthropic::new(self.client.clone())
    }
}
