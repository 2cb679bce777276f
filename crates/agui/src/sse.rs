//! Server-Sent Events framing: `id:` (kept frames only), one `data:` line of JSON, a blank line.

/// One frame: `id: <id>\n` when given, `data: <json>\n\n`. Text with line breaks
/// (serde_json's compact output has none) continues on further `data:` lines, which a
/// reader joins back with `\n`. An id with a line break, CR or NUL is left out.
pub fn frame(id: Option<&str>, json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 40);
    if let Some(id) = id.filter(|id| !id.contains(['\r', '\n', '\0'])) {
        out.push_str("id: ");
        out.push_str(id);
        out.push('\n');
    }
    for line in json.split(['\n', '\r']) {
        out.push_str("data: ");
        out.push_str(line);
        out.push('\n');
    }
    out.push('\n');
    out
}

/// A comment line (`: text`), ignored by every reader: heartbeats.
pub fn comment(text: &str) -> String {
    format!(": {}\n\n", text.replace(['\r', '\n'], " "))
}

/// The reconnect delay a reader should use, in milliseconds.
pub fn retry(ms: u64) -> String {
    format!("retry: {ms}\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames() {
        assert_eq!(frame(Some("b:1"), r#"{"a":1}"#), "id: b:1\ndata: {\"a\":1}\n\n");
        assert_eq!(frame(None, "{}"), "data: {}\n\n");
        assert_eq!(frame(Some("x\ny"), "{}"), "data: {}\n\n");
        assert_eq!(frame(None, "{\n}"), "data: {\ndata: }\n\n");
        assert_eq!(comment("hb"), ": hb\n\n");
        assert_eq!(retry(1000), "retry: 1000\n\n");
    }
}
