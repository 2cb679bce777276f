//! What the Hub strips from a specialist's events before relaying them.

use crate::{Data, Event};

/// Keys whose values are content (what people wrote), compared after lowercasing and
/// dropping `_` and `-`, so `message_text`, `messageText` and `Message-Text` all match.
const CONTENT_KEYS: &[&str] = &[
    "text",
    "question",
    "answer",
    "reply",
    "content",
    "values",
    "value",
    "form",
    "notes",
    "errordetail",
    "messagetext",
];

/// `event` with `data` carrying no content: under a content key (see the crate docs) a
/// string becomes `"[N chars redacted]"`, any other value but `null` becomes
/// `"[redacted]"`. Everything else is kept. The details are read in one pass, without a
/// tree; when no key names content they are passed on exactly as they were. Details that
/// cannot be read become `{}`.
pub fn redact(mut event: Event) -> Event {
    match rewrite(event.data.json()) {
        Some((_, false)) => {}
        Some((json, true)) => event.data = Data::from_json(json).unwrap_or_default(),
        None => event.data = Data::default(),
    }
    event
}

/// `json` with every content value redacted, written in one pass over the text (no tree):
/// whitespace outside strings is dropped, everything else (numbers as written, key order,
/// repeated keys) is copied as it is; and whether any value was redacted. `None` if the
/// text is not one JSON value.
fn rewrite(json: &str) -> Option<(String, bool)> {
    let mut r = Redactor {
        src: json,
        pos: 0,
        depth: 0,
        out: String::with_capacity(json.len() + 16),
        redacted: false,
    };
    r.value()?;
    r.whitespace();
    (r.pos == json.len()).then_some((r.out, r.redacted))
}

/// How deeply objects and arrays may nest (serde_json's own limit): the rewrite recurses
/// once per level, and a relayed event must not be able to exhaust the Hub's stack.
const MAX_DEPTH: usize = 128;

struct Redactor<'a> {
    src: &'a str,
    pos: usize,
    /// Objects and arrays open around `pos`.
    depth: usize,
    out: String,
    /// Whether a content value was met.
    redacted: bool,
}

impl<'a> Redactor<'a> {
    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    fn whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// Consumes `byte` (after whitespace) and writes it.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.whitespace();
        (self.peek()? == byte).then(|| {
            self.pos += 1;
            self.out.push(char::from(byte));
        })
    }

    fn value(&mut self) -> Option<()> {
        self.whitespace();
        match self.peek()? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => {
                let raw = self.string()?;
                self.out.push_str(raw);
                Some(())
            }
            _ => {
                let raw = self.scalar()?;
                self.out.push_str(raw);
                Some(())
            }
        }
    }

    fn object(&mut self) -> Option<()> {
        self.sequence(b'{', b'}', Self::member)
    }

    fn array(&mut self) -> Option<()> {
        self.sequence(b'[', b']', Self::value)
    }

    /// `open`, then `item`s separated by commas, then `close`.
    fn sequence(&mut self, open: u8, close: u8, item: fn(&mut Self) -> Option<()>) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.expect(open)?;
        self.whitespace();
        if self.peek()? != close {
            loop {
                item(self)?;
                self.whitespace();
                match self.peek()? {
                    b',' => self.expect(b',')?,
                    b if b == close => break,
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        self.expect(close)
    }

    /// `"key": value`, the value redacted when the key names content.
    fn member(&mut self) -> Option<()> {
        self.whitespace();
        let raw = self.string()?;
        let key = decode(raw)?;
        self.out.push_str(raw);
        self.expect(b':')?;
        if is_content_key(&key) { self.content() } else { self.value() }
    }

    /// A content value: a string becomes `"[N chars redacted]"`, `null` stays, anything
    /// else becomes `"[redacted]"` (read through to find its end, then dropped).
    fn content(&mut self) -> Option<()> {
        self.redacted = true;
        self.whitespace();
        match self.peek()? {
            b'"' => {
                let raw = self.string()?;
                let text = decode(raw)?;
                if is_placeholder(&text) {
                    // redacted already (by the agent's own feed): its count is the true one
                    self.out.push_str(raw);
                } else {
                    self.out.push_str(&format!("\"[{} chars redacted]\"", text.chars().count()));
                }
            }
            b'n' => {
                let raw = self.scalar()?;
                (raw == "null").then_some(())?;
                self.out.push_str(raw);
            }
            _ => {
                let mark = self.out.len();
                self.value()?;
                self.out.truncate(mark);
                self.out.push_str("\"[redacted]\"");
            }
        }
        Some(())
    }

    /// A string token, quotes included, as written.
    fn string(&mut self) -> Option<&'a str> {
        let bytes = self.src.as_bytes();
        let start = self.pos;
        (bytes.get(start) == Some(&b'"')).then_some(())?;
        let mut i = start + 1;
        loop {
            match *bytes.get(i)? {
                b'"' => break,
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        self.pos = i + 1;
        self.src.get(start..self.pos)
    }

    /// A number, `true`, `false` or `null`, as written.
    fn scalar(&mut self) -> Option<&'a str> {
        let start = self.pos;
        while let Some(b) = self.peek() {
            if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'{' | b'[' | b':') {
                break;
            }
            self.pos += 1;
        }
        let raw = self.src.get(start..self.pos)?;
        let valid = matches!(raw, "true" | "false" | "null")
            || (!raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)));
        valid.then_some(raw)
    }
}

/// Whether `text` is what redaction leaves (`[N chars redacted]`, `[redacted]`).
pub(crate) fn is_placeholder(text: &str) -> bool {
    if text == "[redacted]" {
        return true;
    }
    let Some(count) = text.strip_prefix('[').and_then(|t| t.strip_suffix(" chars redacted]")) else {
        return false;
    };
    !count.is_empty() && count.len() <= 20 && count.bytes().all(|b| b.is_ascii_digit())
}

/// A string token's text: borrowed when it has no escapes, decoded by serde_json when it has.
fn decode(raw: &str) -> Option<std::borrow::Cow<'_, str>> {
    let inner = raw.get(1..raw.len().checked_sub(1)?)?;
    if inner.contains('\\') {
        serde_json::from_str::<String>(raw).ok().map(std::borrow::Cow::Owned)
    } else {
        Some(std::borrow::Cow::Borrowed(inner))
    }
}

/// Whether `key` names content that [`redact`] removes.
pub fn is_content_key(key: &str) -> bool {
    if key.is_ascii() {
        // the common case, without decoding chars
        let normal = || key.bytes().filter(|b| *b != b'_' && *b != b'-').map(|b| b.to_ascii_lowercase());
        let len = normal().count();
        return CONTENT_KEYS.iter().any(|k| k.len() == len && normal().eq(k.bytes()));
    }
    let normal = || key.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase);
    CONTENT_KEYS.iter().any(|k| normal().eq(k.chars()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    // The tree-based redaction the one-pass rewrite must agree with.
    fn redact_value(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    if is_content_key(key) {
                        redact_content(value);
                    } else {
                        redact_value(value);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(redact_value),
            _ => {}
        }
    }

    fn redact_content(value: &mut Value) {
        match value {
            Value::Null => {}
            Value::String(s) if is_placeholder(s) => {}
            Value::String(s) => *value = Value::String(format!("[{} chars redacted]", s.chars().count())),
            _ => *value = Value::String("[redacted]".into()),
        }
    }
    use serde_json::json;

    fn event(data: Value) -> Event {
        Event {
            id: "b:7".into(),
            ts: 1,
            agent: "tutor".into(),
            kind: "message_received".into(),
            data: data.into(),
            relayed_from: Some("tutor".into()),
        }
    }

    #[test]
    fn strips_content_and_keeps_ids() {
        let original = event(json!({
            "messageId": "m-1",
            "contextId": "c-1",
            "skill": "calculus",
            "state": "completed",
            "parts": 2,
            "text": "what is the derivative of x²?",
            "message": {"role": "user", "messageText": "héllo", "parts": [{"text": "a\nb", "kind": "text"}]},
            "form": {"fields": [{"id": "name", "value": "Ada"}]},
            "answers": [{"fieldId": "age", "value": 36}, {"fieldId": "ok", "value": true}],
            "values": ["x", "y"],
            "error_detail": "stack trace",
            "notes": null,
        }));
        let redacted = redact(original.clone());
        assert_eq!(
            redacted.data.value(),
            json!({
                "messageId": "m-1",
                "contextId": "c-1",
                "skill": "calculus",
                "state": "completed",
                "parts": 2,
                "text": "[29 chars redacted]",
                "message": {"role": "user", "messageText": "[5 chars redacted]", "parts": [{"text": "[3 chars redacted]", "kind": "text"}]},
                "form": "[redacted]",
                "answers": [{"fieldId": "age", "value": "[redacted]"}, {"fieldId": "ok", "value": "[redacted]"}],
                "values": "[redacted]",
                "error_detail": "[11 chars redacted]",
                "notes": null,
            })
        );
        assert_eq!(
            (&redacted.id, redacted.ts, &redacted.agent, &redacted.kind, &redacted.relayed_from),
            (&original.id, original.ts, &original.agent, &original.kind, &original.relayed_from)
        );
    }

    /// A relayed event whose details are `json` as written.
    fn relayed(json: &str) -> Event {
        Event { data: Data::from_json(json.into()).unwrap(), ..event(json!({})) }
    }

    /// The rewritten text alone.
    fn redact_json(json: &str) -> Option<String> {
        rewrite(json).map(|(text, _)| text)
    }

    #[test]
    fn what_is_redacted_already_keeps_its_count_when_redacted_again() {
        // an agent's own feed redacts before the Hub relays: the count is the original's
        let once = redact(event(json!({"text": "what is a derivative?", "form": {"a": 1}})));
        assert_eq!(once.data.value(), json!({"text": "[21 chars redacted]", "form": "[redacted]"}));
        let twice = redact(once.clone());
        assert_eq!(twice.data.value(), once.data.value());
        for not_one in ["[x chars redacted]", "[12 chars redacted", "[] chars redacted]", "12 chars redacted"]
        {
            assert!(!is_placeholder(not_one), "{not_one}");
        }
    }

    #[test]
    fn details_without_content_keys_pass_as_they_are() {
        for json in [
            r#"{"messageId":"m","outcome":"route"}"#,
            r#"{"textLength":3}"#,
            r#"{"contextId":"c","skill":"calculus","count":2}"#,
        ] {
            let e = redact(relayed(json));
            assert_eq!(e.data.json(), json, "passed on as it is");
        }
        // every spelling of a content key, at any depth, is found and redacted
        for key in ["te_xt", "Message-Text", "ERROR_DETAIL", "e-r-r-o-r-d-e-t-a-i-l", "Values", "notes"] {
            let json = format!(r#"{{"a":1,"b":[{{"c":{{}}}},{{"{key}":"secret"}}],"d":2}}"#);
            let e = redact(relayed(&json));
            assert_eq!(e.data.value()["b"][1][key], "[6 chars redacted]", "{key}");
        }
        // a key written with escapes is read as the key it spells
        let escaped = r#"{"\u0074ext":"secret"}"#;
        let e = redact(relayed(escaped));
        assert_eq!(e.data.value()["text"], "[6 chars redacted]");
        // content words inside values, or inside longer keys, are not keys
        let words = r#"{"contextId": "text", "kind": ["reply", "notes"]}"#;
        let e = redact(relayed(words));
        assert_eq!(e.data.json(), words);
    }

    #[test]
    fn key_matching_ignores_case_and_separators() {
        for key in ["text", "TEXT", "message_text", "messageText", "Message-Text", "errorDetail", "Value"] {
            assert!(is_content_key(key), "{key}");
        }
        for key in ["textLength", "contextId", "messageId", "kind", "formId", "skill", "state", "context"] {
            assert!(!is_content_key(key), "{key}");
        }
        // a non-ASCII key is compared char by char after Unicode lowercasing
        for key in ["téxt", "text\u{200b}", "İtext", "ｔｅｘｔ"] {
            assert!(!is_content_key(key), "{key}");
        }
    }

    #[test]
    fn the_one_pass_rewrite_agrees_with_the_tree_on_every_combination() {
        let keys =
            ["text", "Message-Text", "te_xt", "\\u0074ext", "contextId", "values", "a", "notes", "ʞind"];
        let values = [
            r#""héllo\n\u00e9""#,
            "null",
            "-42",
            "1.5e3",
            "true",
            r#"[1, "x", {"reply": "hi", "n": null}]"#,
            r#"{"form": {"v": 1}, "k": "v", "inner": {"answer": false}}"#,
            r#""""#,
            r#""\ud83d\ude00 x""#,
            "[]",
            "{}",
        ];
        let mut checked = 0;
        for (i, k1) in keys.iter().enumerate() {
            for k2 in &keys[i + 1..] {
                for v1 in values {
                    for v2 in values {
                        for json in [
                            format!(r#"{{"{k1}":{v1},"{k2}":{v2}}}"#),
                            format!("[ {{ \"{k1}\" :\n{v1} }} , {{\"{k2}\":{v2}}} ]"),
                        ] {
                            let mut expected: Value = serde_json::from_str(&json).unwrap();
                            redact_value(&mut expected);
                            let got = redact_json(&json).unwrap_or_else(|| panic!("{json}"));
                            assert_eq!(serde_json::from_str::<Value>(&got).unwrap(), expected, "{json}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 36 * 11 * 11 * 2);
    }

    #[test]
    fn the_rewrite_copies_what_it_does_not_redact_as_written() {
        // a number no f64 holds, key order and a repeated key survive; whitespace goes
        let json = "{\"z\": 1e400, \"a\": [ 1.50 ],\n \"text\": \"ab\", \"text\": {\"x\": 1}}";
        assert_eq!(
            redact_json(json).unwrap(),
            r#"{"z":1e400,"a":[1.50],"text":"[2 chars redacted]","text":"[redacted]"}"#
        );
        let e = redact(relayed(json));
        assert!(e.data.json().starts_with(r#"{"z":1e400,"#), "{:?}", e.data);
        // what is not one JSON value is refused, and an event's details then become {}
        for bad in
            ["", "{", r#"{"text":"x""#, r#"{"a":1}}"#, r#"{"a" 1}"#, "[1,]", r#"{"a":tru}"#, r#""open"#]
        {
            assert_eq!(redact_json(bad), None, "{bad}");
        }
    }

    #[test]
    fn nesting_deeper_than_the_limit_is_refused_not_recursed_into() {
        let nested = |depth: usize, open: &str, close: &str| {
            format!(r#"{}{{"text":"secret"}}{}"#, open.repeat(depth - 1), close.repeat(depth - 1))
        };
        let ok = nested(MAX_DEPTH, "[", "]");
        assert!(redact_json(&ok).unwrap().contains("[6 chars redacted]"));
        assert_eq!(redact_json(&nested(MAX_DEPTH + 1, "[", "]")), None);
        assert_eq!(redact_json(&nested(MAX_DEPTH + 1, r#"{"a":"#, "}")), None);
        // far deeper than any stack could recurse: refused at once, and the event's
        // details become {} (Data itself accepts any depth)
        for (open, close) in [("[", "]"), (r#"{"a":"#, "}")] {
            let deep = nested(200_000, open, close);
            let e = redact(relayed(&deep));
            assert_eq!(e.data.json(), "{}");
        }
        // siblings do not add up: depth is nesting, not count
        let wide = format!("[{}]", vec![r#"[{"text":"x"}]"#; 1000].join(","));
        assert_eq!(redact_json(&wide).unwrap().matches("[1 chars redacted]").count(), 1000);
    }

    #[test]
    fn non_object_data_is_left_alone() {
        assert_eq!(redact(event(json!("plain"))).data.value(), json!("plain"));
        assert_eq!(
            redact(event(json!([{"reply": "hi"}]))).data.value(),
            json!([{"reply": "[2 chars redacted]"}])
        );
    }
}
