//! `TUTOR_MODE`: how the Tutor answers chat.

use conf::ConfError;

/// How the Tutor answers chat (`TUTOR_MODE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// The Part 1 fixed reply ([`crate::FIXED_REPLY`]) to every message.
    Fixed,
    /// The offline tutor: a small calculus course pack and a rule-based, numerically
    /// checked calculator; deterministic, no model, labelled on every answer.
    #[default]
    Mock,
    /// A model through the `llm` seam, bounded by the scope layers ([`crate::live`]).
    Live,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Fixed => "fixed",
            Mode::Mock => "mock",
            Mode::Live => "live",
        }
    }

    /// Reads `TUTOR_MODE` (default `mock`).
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Mode, ConfError> {
        let choices = [Mode::Fixed, Mode::Mock, Mode::Live].map(|m| (m.as_str(), m));
        conf::env_choice("TUTOR_MODE", env, &choices, Mode::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(v: Option<&str>) -> Result<Mode, ConfError> {
        let v = v.map(String::from);
        Mode::from_env(&move |k: &str| if k == "TUTOR_MODE" { v.clone() } else { None })
    }

    #[test]
    fn reads_the_mode() {
        assert_eq!(mode(None).unwrap(), Mode::Mock);
        assert_eq!(mode(Some("fixed")).unwrap(), Mode::Fixed);
        assert_eq!(mode(Some("mock")).unwrap(), Mode::Mock);
        assert_eq!(mode(Some("live")).unwrap(), Mode::Live);
        let other = mode(Some("magic")).unwrap_err();
        assert!(other.to_string().contains("fixed, mock or live"), "{other}");
    }
}
