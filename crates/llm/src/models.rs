//! The models an agent may use, with their prices: the one table.

use std::fmt;

use conf::ConfError;

use crate::Usage;

/// How a model's thinking is turned as low as it goes ([`crate::Thinking::Off`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThinkingOff {
    /// `thinking: {"type": "disabled"}`.
    Disabled,
    /// `thinking: {"type": "between_tools"}`: `disabled` is refused with 400.
    BetweenTools,
    /// Thinking cannot be turned off (`disabled` is refused with 400): no `thinking` is
    /// sent and low effort keeps it short.
    AlwaysOn,
}

/// A higher price for prompts over a size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LongPrompt {
    pub over_input_tokens: u64,
    pub input_usd_per_mtok: f64,
    pub output_usd_per_mtok: f64,
}

/// One model an agent may choose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelSpec {
    /// The API's model id.
    pub id: &'static str,
    pub display_name: &'static str,
    /// US dollars per million input tokens (standard, no batch or cache).
    pub input_usd_per_mtok: f64,
    /// US dollars per million output tokens (thinking included).
    pub output_usd_per_mtok: f64,
    pub long_prompt: Option<LongPrompt>,
    pub thinking_off: ThinkingOff,
}

/// Every model Campus accepts, the default first. Prices: the provider's model pages
/// (Claude Haiku 5.5: "from $0.10 / $0.50", over 100,000 prompt tokens $0.50 / $2.50, as
/// the reference's smoke check also states, checked 2026-10-25; Sonnet 5.5 $2 / $10; Opus
/// 5.5 $4 / $20). Thinking: Haiku 5.5 accepts `disabled`; Sonnet 5.5 refuses it and takes
/// `between_tools`; Opus 5.5 always thinks (the models' "what's new" pages).
pub const MODELS: [ModelSpec; 3] = [
    ModelSpec {
        id: "claude-haiku-5-5",
        display_name: "Claude Haiku 5.5",
        input_usd_per_mtok: 0.10,
        output_usd_per_mtok: 0.50,
        long_prompt: Some(LongPrompt {
            over_input_tokens: 100_000,
            input_usd_per_mtok: 0.50,
            output_usd_per_mtok: 2.50,
        }),
        thinking_off: ThinkingOff::Disabled,
    },
    ModelSpec {
        id: "claude-sonnet-5-5",
        display_name: "Claude Sonnet 5.5",
        input_usd_per_mtok: 2.0,
        output_usd_per_mtok: 10.0,
        long_prompt: None,
        thinking_off: ThinkingOff::BetweenTools,
    },
    ModelSpec {
        id: "claude-opus-5-5",
        display_name: "Claude Opus 5.5",
        input_usd_per_mtok: 4.0,
        output_usd_per_mtok: 20.0,
        long_prompt: None,
        thinking_off: ThinkingOff::AlwaysOn,
    },
];

/// A model from [`MODELS`]: only a name in the table becomes one.
#[derive(Clone, Copy)]
pub struct Model(&'static ModelSpec);

/// `claude-haiku-5-5`.
pub const DEFAULT_MODEL: Model = Model(&MODELS[0]);

impl Model {
    /// The model named `name` exactly, if Campus accepts it.
    pub fn parse(name: &str) -> Option<Model> {
        MODELS.iter().find(|m| m.id == name).map(Model)
    }

    pub fn all() -> impl Iterator<Item = Model> {
        MODELS.iter().map(Model)
    }

    pub fn id(self) -> &'static str {
        self.0.id
    }

    pub fn spec(self) -> &'static ModelSpec {
        self.0
    }

    /// What `usage` costs on this model, in US dollars.
    pub fn cost_usd(self, usage: Usage) -> f64 {
        let spec = self.0;
        let (input, output) = match spec.long_prompt {
            Some(long) if usage.input_tokens > long.over_input_tokens => {
                (long.input_usd_per_mtok, long.output_usd_per_mtok)
            }
            _ => (spec.input_usd_per_mtok, spec.output_usd_per_mtok),
        };
        (usage.input_tokens as f64 * input + usage.output_tokens as f64 * output) / 1_000_000.0
    }

    /// The accepted names, for messages: `a, b or c`.
    pub fn names() -> String {
        let ids: Vec<&str> = MODELS.iter().map(|m| m.id).collect();
        match ids.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => ids.join(""),
        }
    }
}

impl Default for Model {
    fn default() -> Self {
        DEFAULT_MODEL
    }
}

impl PartialEq for Model {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for Model {}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Model({})", self.0.id)
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.id)
    }
}

/// An agent's model: `var` (`TUTOR_MODEL`, …) if set, else the configuration's name
/// (`configured`: where it was read, the name), else [`DEFAULT_MODEL`]. Any other name
/// is a startup error naming the accepted ones; no other model is ever substituted.
pub fn choose_model(
    var: &str,
    configured: Option<(&str, &str)>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Model, ConfError> {
    let (source, field, name) = match (env(var).filter(|v| !v.trim().is_empty()), configured) {
        (Some(name), _) => (var.to_string(), "", name),
        (None, Some((source, name))) => (source.to_string(), "model.name", name.to_string()),
        (None, None) => return Ok(DEFAULT_MODEL),
    };
    Model::parse(name.trim()).ok_or_else(|| {
        ConfError::new(
            source,
            field,
            format!(
                "{name:?} is not a supported model; use {} (default {})",
                Model::names(),
                DEFAULT_MODEL.id()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_and_its_default() {
        assert_eq!(DEFAULT_MODEL.id(), "claude-haiku-5-5");
        assert_eq!(Model::default(), Model::parse("claude-haiku-5-5").unwrap());
        assert_eq!(Model::all().count(), 3);
        assert_eq!(Model::names(), "claude-haiku-5-5, claude-sonnet-5-5 or claude-opus-5-5");
        assert!(Model::parse("claude-haiku-4-5").is_none());
        assert!(Model::parse("CLAUDE-HAIKU-5-5").is_none(), "exact names only");
    }

    #[test]
    fn costs() {
        let haiku = DEFAULT_MODEL;
        let usage = Usage { input_tokens: 1_000_000, output_tokens: 1_000_000 };
        assert!((haiku.cost_usd(usage) - 3.0).abs() < 1e-9, "over 100K prompt tokens: 0.50 + 2.50");
        let small = Usage { input_tokens: 2_000, output_tokens: 800 };
        assert!((haiku.cost_usd(small) - 0.0006).abs() < 1e-12);
        let opus = Model::parse("claude-opus-5-5").unwrap();
        assert!((opus.cost_usd(small) - 0.024).abs() < 1e-12);
    }

    #[test]
    fn choosing_a_model() {
        let none = |_: &str| None;
        assert_eq!(choose_model("TUTOR_MODEL", None, &none).unwrap(), DEFAULT_MODEL);
        let cfg = Some(("TUTOR_CONFIG=t.json", "claude-sonnet-5-5"));
        assert_eq!(choose_model("TUTOR_MODEL", cfg, &none).unwrap().id(), "claude-sonnet-5-5");
        let env = |k: &str| (k == "TUTOR_MODEL").then(|| "claude-opus-5-5".to_string());
        assert_eq!(
            choose_model("TUTOR_MODEL", cfg, &env).unwrap().id(),
            "claude-opus-5-5",
            "the variable wins"
        );
        let env = |k: &str| (k == "TUTOR_MODEL").then(|| "gpt-5".to_string());
        let e = choose_model("TUTOR_MODEL", cfg, &env).unwrap_err();
        assert_eq!(
            e.to_string(),
            "TUTOR_MODEL: \"gpt-5\" is not a supported model; use claude-haiku-5-5, claude-sonnet-5-5 or claude-opus-5-5 (default claude-haiku-5-5)"
        );
        let e = choose_model("TUTOR_MODEL", Some(("TUTOR_CONFIG=t.json", "claude-haiku-4-5")), &none)
            .unwrap_err();
        assert_eq!(e.source, "TUTOR_CONFIG=t.json");
        assert_eq!(e.field, "model.name");
    }
}
