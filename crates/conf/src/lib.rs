//! Configuration files. Each agent reads an optional JSON file named by an environment
//! variable (`HUB_CONFIG`, `TUTOR_CONFIG`, …) over built-in localhost defaults, then
//! single-value environment overrides. Everything is validated at startup; a bad file
//! stops the process with one message naming the file, the field and the problem.

use std::fmt;
use std::path::Path;

use serde::de::DeserializeOwned;

/// A configuration problem: where (file or variable), which field, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfError {
    pub source: String,
    pub field: String,
    pub problem: String,
}

impl ConfError {
    pub fn new(source: impl Into<String>, field: impl Into<String>, problem: impl Into<String>) -> Self {
        Self { source: source.into(), field: field.into(), problem: problem.into() }
    }
}

impl fmt::Display for ConfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}: {}", self.source, self.problem)
        } else {
            write!(f, "{}: field {}: {}", self.source, self.field, self.problem)
        }
    }
}

impl std::error::Error for ConfError {}

/// Largest configuration file read.
const MAX_FILE: u64 = 1024 * 1024;

/// Reads the file named by `var` (through `env`), if set. `None` when the variable is unset.
pub fn load_file<T: DeserializeOwned>(
    var: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<T>, ConfError> {
    let Some(path) = env(var) else { return Ok(None) };
    let source = format!("{var}={path}");
    let meta = std::fs::metadata(Path::new(&path)).map_err(|e| {
        ConfError::new(&source, "", format!("cannot read the file: {}", e.kind().to_string().to_lowercase()))
    })?;
    if meta.len() > MAX_FILE {
        return Err(ConfError::new(&source, "", "the file is larger than 1 MiB"));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| {
        ConfError::new(&source, "", format!("cannot read the file: {}", e.kind().to_string().to_lowercase()))
    })?;
    parse(&source, &text).map(Some)
}

/// Decodes JSON text, naming the field on failure.
pub fn parse<T: DeserializeOwned>(source: &str, text: &str) -> Result<T, ConfError> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let mut problem = inner.to_string();
        if let Some(cut) = problem.find(" at line ") {
            problem.truncate(cut);
        }
        // "." is the root; "?" is where a syntax error left no path.
        let field = if path == "." || path == "?" { String::new() } else { path };
        let problem = if inner.is_syntax() || inner.is_eof() {
            format!("not valid JSON ({problem}, line {} column {})", inner.line(), inner.column())
        } else {
            problem
        };
        ConfError::new(source, field, problem)
    })
}

/// Reads an override variable and parses it.
pub fn env_parse<T: std::str::FromStr>(
    var: &str,
    env: &dyn Fn(&str) -> Option<String>,
    what: &str,
) -> Result<Option<T>, ConfError> {
    match env(var) {
        None => Ok(None),
        Some(v) => {
            v.trim().parse().map(Some).map_err(|_| ConfError::new(var, "", format!("{v:?} is not {what}")))
        }
    }
}

/// `true` for 1/true/yes/on, `false` for 0/false/no/off.
pub fn env_bool(var: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<Option<bool>, ConfError> {
    match env(var).map(|v| v.trim().to_ascii_lowercase()) {
        None => Ok(None),
        Some(v) if ["1", "true", "yes", "on"].contains(&v.as_str()) => Ok(Some(true)),
        Some(v) if ["0", "false", "no", "off"].contains(&v.as_str()) => Ok(Some(false)),
        Some(v) => Err(ConfError::new(var, "", format!("{v:?} is not 0 or 1"))),
    }
}

/// Checks a base URL is `http://` on a loopback host with a port, without a path.
pub fn check_local_url(source: &str, field: &str, url: &str) -> Result<(), ConfError> {
    let bad = |p: &str| Err(ConfError::new(source, field, format!("{url:?} {p}")));
    let Some(rest) = url.strip_prefix("http://") else { return bad("must start with http://") };
    let hostport = rest.trim_end_matches('/');
    if hostport.contains('/') {
        return bad("must be a base URL without a path");
    }
    let Some((host, port)) = hostport.rsplit_once(':') else { return bad("must name a port") };
    if port.parse::<u16>().map_or(true, |p| p == 0) {
        return bad("must name a port between 1 and 65535");
    }
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if !loopback {
        return bad("must be on this machine (127.0.0.1, localhost or [::1])");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct C {
        port: u16,
        items: Vec<Item>,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        name: String,
    }

    #[test]
    fn errors_name_source_field_problem() {
        let e = parse::<C>("HUB_CONFIG=x.json", r#"{"port": 1, "items": [{"name": 5}]}"#).unwrap_err();
        assert_eq!(e.field, "items[0].name");
        assert!(e.to_string().starts_with("HUB_CONFIG=x.json: field items[0].name: invalid type"), "{e}");
        let e = parse::<C>("f", r#"{"port": 70000, "items": []}"#).unwrap_err();
        assert_eq!(e.field, "port");
        let e = parse::<C>("f", r#"{"port": 1, "items": [], "extra": 1}"#).unwrap_err();
        assert!(e.problem.contains("unknown field"), "{e}");
        let e = parse::<C>("f", "{").unwrap_err();
        assert!(e.problem.starts_with("not valid JSON"), "{e}");
        assert_eq!(e.field, "", "a syntax error names no field");
        assert!(!e.to_string().contains("field"), "{e}");
    }

    #[test]
    fn urls_and_env() {
        assert!(check_local_url("s", "f", "http://127.0.0.1:41241").is_ok());
        assert!(check_local_url("s", "f", "http://localhost:1/").is_ok());
        assert!(check_local_url("s", "f", "https://127.0.0.1:1").is_err());
        assert!(check_local_url("s", "f", "http://10.0.0.1:1").is_err());
        assert!(check_local_url("s", "f", "http://127.0.0.1").is_err());
        assert!(check_local_url("s", "f", "http://127.0.0.1:1/x").is_err());
        let env = |k: &str| (k == "B").then(|| "yes".to_string());
        assert_eq!(env_bool("B", &env).unwrap(), Some(true));
        assert_eq!(env_bool("C", &env).unwrap(), None);
        let env = |_: &str| Some("maybe".to_string());
        assert!(env_bool("B", &env).is_err());
        assert!(env_parse::<u64>("N", &env, "a number").is_err());
    }

    #[test]
    fn missing_file_is_clear() {
        let env = |_: &str| Some("/nonexistent/campus.json".to_string());
        let e = load_file::<C>("HUB_CONFIG", &env).unwrap_err();
        assert!(e.to_string().contains("HUB_CONFIG=/nonexistent/campus.json"), "{e}");
    }
}
