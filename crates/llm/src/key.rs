//! The API key: read from the agent's own variable, else from a `.env` file; never printed.

use std::fmt;
use std::path::Path;

use conf::ConfError;

/// The variable an agent reads its key from unless its configuration names another.
pub const DEFAULT_KEY_VAR: &str = "ANTHROPIC_API_KEY";

/// Largest `.env` file read.
const MAX_ENV_FILE: u64 = 64 * 1024;
/// Longest key accepted.
const MAX_KEY: usize = 512;

/// An API key. Its `Debug` and `Display` never show it; only the live client reads it,
/// into a header marked sensitive.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// A key: 1 to 512 visible ASCII characters (what a header can carry), surrounding
    /// spaces dropped. The problem, never the key, on failure.
    pub fn new(key: &str) -> Result<ApiKey, &'static str> {
        let key = key.trim();
        if key.is_empty() {
            return Err("the key is empty");
        }
        if key.len() > MAX_KEY {
            return Err("the key is longer than 512 characters");
        }
        if !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("the key has characters other than visible ASCII");
        }
        Ok(ApiKey(key.to_string()))
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(redacted)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("redacted")
    }
}

/// Reads the key from `var` in the environment, else from `var=…` in `env_file` (a
/// missing file is no key). An exported variable wins over the file. `None`: no key
/// anywhere, which the client reports as `missing_credentials` on each call without
/// making a request.
pub fn load_key(
    var: &str,
    env: &dyn Fn(&str) -> Option<String>,
    env_file: &Path,
) -> Result<Option<ApiKey>, ConfError> {
    if !valid_var_name(var) {
        return Err(ConfError::new(var, "", "is not a valid environment variable name"));
    }
    if let Some(value) = env(var).filter(|v| !v.trim().is_empty()) {
        return ApiKey::new(&value).map(Some).map_err(|p| ConfError::new(var, "", p));
    }
    let source = format!("{var} in {}", env_file.display());
    let meta = match std::fs::metadata(env_file) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) => return Err(ConfError::new(source, "", "the file cannot be read")),
    };
    if meta.is_dir() {
        return Err(ConfError::new(source, "", "this is a directory, not a file"));
    }
    if meta.len() > MAX_ENV_FILE {
        return Err(ConfError::new(source, "", "the file is larger than 64 KiB"));
    }
    let text = std::fs::read_to_string(env_file)
        .map_err(|_| ConfError::new(&source, "", "the file cannot be read as UTF-8 text"))?;
    match dotenv_value(&text, var) {
        Some(value) => ApiKey::new(&value).map(Some).map_err(|p| ConfError::new(source, "", p)),
        None => Ok(None),
    }
}

pub(crate) fn valid_var_name(var: &str) -> bool {
    let mut chars = var.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The last non-empty `var=value` in `.env` text: `#` comments, blank lines and an
/// `export ` prefix allowed; a value in single or double quotes is taken as written, an
/// unquoted one up to a ` #` comment.
fn dotenv_value(text: &str, var: &str) -> Option<String> {
    let mut found = None;
    for line in text.lines() {
        let line = line.trim();
        let line = line.strip_prefix("export ").map_or(line, str::trim_start);
        let Some((name, value)) = line.split_once('=') else { continue };
        if name.trim() != var {
            continue;
        }
        let value = value.trim();
        let quoted = ['"', '\'']
            .into_iter()
            .find_map(|q| value.strip_prefix(q).and_then(|v| v.strip_suffix(q)).filter(|_| value.len() >= 2));
        let value = match quoted {
            Some(inner) => inner,
            None => value.split(" #").next().unwrap_or("").trim(),
        };
        found = Some(value.to_string());
    }
    found.filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotenv_lines() {
        let text = "# comment\nOTHER=x\nANTHROPIC_API_KEY=\n export ANTHROPIC_API_KEY = \"sk-quoted\" \n";
        assert_eq!(dotenv_value(text, "ANTHROPIC_API_KEY").as_deref(), Some("sk-quoted"));
        assert_eq!(dotenv_value("K=abc # note", "K").as_deref(), Some("abc"));
        assert_eq!(dotenv_value("K='a#b'", "K").as_deref(), Some("a#b"));
        assert_eq!(dotenv_value("K=", "K"), None, "an empty value is no key");
        assert_eq!(dotenv_value("KEY=1", "K"), None);
        assert_eq!(dotenv_value("K=\"", "K").as_deref(), Some("\""));
    }

    #[test]
    fn keys_are_checked_and_never_printed() {
        let key = ApiKey::new("  sk-test-123  ").unwrap();
        assert_eq!(key.expose(), "sk-test-123");
        assert_eq!(
            format!("{key:?} {key} {:?}", Some(&key)),
            "ApiKey(redacted) redacted Some(ApiKey(redacted))"
        );
        assert!(ApiKey::new("").is_err());
        assert!(ApiKey::new("sk bad").is_err());
        assert!(ApiKey::new("sk-é").is_err());
        assert!(ApiKey::new(&"k".repeat(513)).is_err());
        assert!(valid_var_name("TUTOR_ANTHROPIC_API_KEY"));
        assert!(!valid_var_name("1KEY") && !valid_var_name("A-B") && !valid_var_name(""));
    }
}
