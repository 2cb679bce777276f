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
    let fail = |problem: String| ConfError::new(&source, "", problem);
    let meta = std::fs::metadata(Path::new(&path)).map_err(|e| fail(io_problem(&e)))?;
    if meta.is_dir() {
        return Err(fail("this is a directory, not a file".into()));
    }
    if meta.len() > MAX_FILE {
        return Err(fail("the file is larger than 1 MiB".into()));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| fail(io_problem(&e)))?;
    if text.trim().is_empty() {
        return Err(fail("the file is empty (write {} for the defaults)".into()));
    }
    parse(&source, &text).map(Some)
}

/// Why a file could not be read, in words.
fn io_problem(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => "the file does not exist".into(),
        ErrorKind::PermissionDenied => "the file cannot be read: permission denied".into(),
        ErrorKind::IsADirectory => "this is a directory, not a file".into(),
        ErrorKind::InvalidData => "the file is not UTF-8 text".into(),
        other => format!("the file cannot be read: {}", other.to_string().to_lowercase()),
    }
}

/// Decodes JSON text, naming the field on failure. A syntax error names the line and
/// column instead (its partial path would point at the wrong field).
pub fn parse<T: DeserializeOwned>(source: &str, text: &str) -> Result<T, ConfError> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let mut problem = inner.to_string();
        if let Some(cut) = problem.find(" at line ") {
            problem.truncate(cut);
        }
        if inner.is_syntax() || inner.is_eof() {
            let problem = problem.replace("EOF while parsing", "the text ends in the middle of");
            let problem =
                format!("not valid JSON at line {} column {}: {problem}", inner.line(), inner.column());
            return ConfError::new(source, "", problem);
        }
        // "." is the root.
        let field = if path == "." { String::new() } else { path };
        ConfError::new(source, field, humanize(&problem))
    })
}

/// serde's wording with Rust type names replaced by what they mean, and a hint when a
/// field was spelled in snake_case where the file takes camelCase.
fn humanize(problem: &str) -> String {
    const TYPES: [(&str, &str); 8] = [
        ("expected u16", "expected a whole number from 0 to 65535"),
        ("expected u32", "expected a whole number from 0 to 4294967295"),
        ("expected u64", "expected a whole number of 0 or more"),
        ("expected usize", "expected a whole number of 0 or more"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("expected a boolean", "expected true or false"),
    ];
    let mut out = problem.to_string();
    // "invalid type: string \"abc\", expected u16": say what kind of value came, never
    // the value itself (a body may carry text that is not ours to repeat)
    for lead in ["invalid type: ", "invalid value: "] {
        if let Some((got, expected)) = out.strip_prefix(lead).and_then(|r| r.split_once(", expected ")) {
            out = format!("expected {expected}, got {}", value_kind(got));
        }
    }
    // a struct read from a list ("invalid length 0, expected struct File with 8 elements")
    if out.contains("expected struct ") {
        out = "expected a JSON object".into();
    }
    out = out.replace("expected a sequence", "expected a list");
    for (rust, words) in TYPES {
        if let Some(at) = out.find(rust).filter(|at| {
            let end = at + rust.len();
            end == out.len() || out[end..].starts_with(',')
        }) {
            out = format!("{}{words}{}", &out[..at], &out[at + rust.len()..]);
        }
    }
    if let Some(name) = out.strip_prefix("unknown field `").and_then(|r| r.split('`').next()) {
        let camel = snake_to_camel(name);
        if camel != name && out.contains(&format!("`{camel}`")) {
            return format!("unknown field `{name}`: it is spelled `{camel}`");
        }
    }
    out
}

/// What kind of value serde found ("integer `-1`", "floating point `2.5`", "string \"…\""),
/// in words, without the value.
fn value_kind(got: &str) -> &'static str {
    let kind = got.split([' ', '`', '"']).next().unwrap_or(got);
    match kind {
        "integer" if got.contains("`-") => "a negative number",
        "integer" => "a whole number",
        "floating" => "a decimal number",
        "string" | "char" => "a string",
        "boolean" => "true or false",
        "map" => "an object",
        "sequence" => "a list",
        "unit" | "null" => "null",
        _ => "another kind of value",
    }
}

fn snake_to_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        match c {
            '_' => upper = true,
            c if upper => {
                out.extend(c.to_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
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

/// One of named `choices` (trimmed); unset or empty is `default`. The error names them
/// all: "must be a, b or c".
pub fn env_choice<T: Copy>(
    var: &str,
    env: &dyn Fn(&str) -> Option<String>,
    choices: &[(&str, T)],
    default: T,
) -> Result<T, ConfError> {
    let value = env(var);
    let value = value.as_deref().map(str::trim).unwrap_or("");
    if value.is_empty() {
        return Ok(default);
    }
    if let Some((_, choice)) = choices.iter().find(|(name, _)| *name == value) {
        return Ok(*choice);
    }
    let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
    let listed = match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    Err(ConfError::new(var, "", format!("must be {listed}")))
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
    /// A named choice, the default when unset or blank, and an error naming them all.
    #[test]
    fn env_choice_reads_a_name_and_lists_the_choices_when_wrong() {
        let choices = [("off", 0), ("mock", 1), ("live", 2)];
        let with = |v: Option<&'static str>| move |_: &str| v.map(str::to_string);
        assert_eq!(super::env_choice("M", &with(None), &choices, 0).unwrap(), 0);
        assert_eq!(super::env_choice("M", &with(Some("  ")), &choices, 1).unwrap(), 1);
        assert_eq!(super::env_choice("M", &with(Some(" live ")), &choices, 0).unwrap(), 2);
        let e = super::env_choice("M", &with(Some("Live")), &choices, 0).unwrap_err();
        assert_eq!(e.to_string(), super::ConfError::new("M", "", "must be off, mock or live").to_string());
        let e = super::env_choice("M", &with(Some("x")), &choices[1..], 1).unwrap_err();
        assert!(e.to_string().contains("must be mock or live"), "{e}");
    }

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
        assert_eq!(
            e.to_string(),
            "HUB_CONFIG=x.json: field items[0].name: expected a string, got a whole number"
        );
        let e = parse::<C>("f", r#"{"port": 70000, "items": []}"#).unwrap_err();
        assert_eq!(e.field, "port");
        let e = parse::<C>("f", r#"{"port": 1, "items": [], "extra": 1}"#).unwrap_err();
        assert!(e.problem.contains("unknown field"), "{e}");
        let e = parse::<C>("f", "{").unwrap_err();
        assert!(e.problem.starts_with("not valid JSON"), "{e}");
        assert_eq!(e.field, "", "a syntax error names no field");
        assert!(!e.to_string().contains("field"), "{e}");
        assert!(e.problem.ends_with("the text ends in the middle of an object"), "{e}");
        let e = parse::<C>("f", "{\"port\": 1,\n \"items\": [x]}").unwrap_err();
        assert_eq!(e.to_string(), "f: not valid JSON at line 2 column 12: expected value");
    }

    #[test]
    fn problems_are_worded_for_people() {
        let e = parse::<C>("f", r#"{"port": "high", "items": []}"#).unwrap_err();
        assert_eq!(e.problem, "expected a whole number from 0 to 65535, got a string", "{e}");
        let e = parse::<C>("f", r#"{"port": 70000, "items": []}"#).unwrap_err();
        assert_eq!(e.problem, "expected a whole number from 0 to 65535, got a whole number", "{e}");
        #[derive(Debug, Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        #[allow(dead_code)]
        struct Camel {
            base_revision: u64,
        }
        let e = parse::<Camel>("f", r#"{"base_revision": 1}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f: field base_revision: unknown field `base_revision`: it is spelled `baseRevision`"
        );
        let e = parse::<Camel>("f", r#"{}"#).unwrap_err();
        assert_eq!(e.to_string(), "f: missing field `baseRevision`", "named as the file spells it");
        // the value itself is never repeated, only its kind
        let e = parse::<Camel>("f", r#"{"baseRevision": "secret words"}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f: field baseRevision: expected a whole number of 0 or more, got a string"
        );
        let e = parse::<Camel>("f", r#"{"baseRevision": -4}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f: field baseRevision: expected a whole number of 0 or more, got a negative number"
        );
        let e = parse::<Camel>("f", r#"{"baseRevision": 2.5}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f: field baseRevision: expected a whole number of 0 or more, got a decimal number"
        );
        let e = parse::<C>("f", r#"{"port": 1, "items": {}}"#).unwrap_err();
        assert_eq!(e.to_string(), "f: field items: expected a list, got an object");
        for root in ["[]", "7", "\"text\""] {
            let e = parse::<Camel>("f", root).unwrap_err();
            assert_eq!(e.to_string(), "f: expected a JSON object", "{root}");
        }
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
    fn unreadable_files_say_why_in_one_line() {
        let load = |path: &str| {
            let path = path.to_string();
            load_file::<C>("HUB_CONFIG", &move |_| Some(path.clone())).unwrap_err().to_string()
        };
        assert_eq!(
            load("/nonexistent/campus.json"),
            "HUB_CONFIG=/nonexistent/campus.json: the file does not exist"
        );
        let dir = std::env::temp_dir();
        let shown = dir.to_string_lossy().to_string();
        assert_eq!(load(&shown), format!("HUB_CONFIG={shown}: this is a directory, not a file"));
        let empty = dir.join(format!("conf-empty-{}.json", std::process::id()));
        std::fs::write(&empty, "  \n").unwrap();
        let e = load(&empty.to_string_lossy());
        std::fs::write(&empty, [0xff, 0xfe]).unwrap();
        let binary = load(&empty.to_string_lossy());
        let _ = std::fs::remove_file(&empty);
        assert!(e.ends_with("the file is empty (write {} for the defaults)"), "{e}");
        assert!(binary.ends_with("the file is not UTF-8 text"), "{binary}");
    }
}
