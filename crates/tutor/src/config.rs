//! The Tutor's configuration: plain data, read once from the environment.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The Tutor's port unless `PORT` says otherwise.
pub const DEFAULT_PORT: u16 = 41241;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub bind: SocketAddr,
}

#[derive(Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Default for Config {
    fn default() -> Self {
        Self { bind: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), DEFAULT_PORT) }
    }
}

impl Config {
    /// Built-in defaults overridden by `PORT` (0 picks a free port). `env` looks up a
    /// variable, so tests pass a map instead of touching the process environment.
    pub fn from_env(env: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let mut config = Self::default();
        if let Some(port) = env("PORT") {
            let port = port
                .trim()
                .parse::<u16>()
                .map_err(|_| ConfigError(format!("PORT: {port:?} is not a port number (0-65535)")))?;
            config.bind.set_port(port);
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_override() {
        assert_eq!(Config::from_env(|_| None).unwrap().bind.to_string(), "127.0.0.1:41241");
        let c = Config::from_env(|k| (k == "PORT").then(|| "0".to_string())).unwrap();
        assert_eq!(c.bind.port(), 0);
        let e = Config::from_env(|k| (k == "PORT").then(|| "http".to_string())).unwrap_err();
        assert!(e.0.starts_with("PORT:"), "{e}");
    }
}
