//! What makes an answer a finding: a 5xx the endpoint does not document, a refusal the
//! guard should have made and did not, or internals in the answer (panic text, source
//! paths, SQLite's words, a backtrace, a secret).

/// Text that only internals put in an answer. Matched case-insensitively, and only when
/// the request itself did not carry it (a server may repeat what it was sent).
const MARKERS: &[&str] = &[
    "panicked",
    "called `result::unwrap()`",
    "called `option::unwrap()`",
    "stack backtrace",
    "rust_backtrace",
    "/src/",
    "/.cargo/registry",
    "sqlite",
    "no such table",
];

/// How a request the guard must refuse may be answered: the guard's 400 and 403, or a
/// refusal made before any handler runs (a request whose head or body is over the limits,
/// or too slow).
const REFUSALS: &[u16] = &[400, 403, 408, 413, 414, 431];

/// What one answer was found to hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Finding {
    /// A 5xx the endpoint does not document.
    ServerError(u16),
    /// A request the local guard must refuse got through.
    NotRefused(u16),
    /// Internals in the answer: the marker found.
    Leak(String),
    /// A secret (an agent's key, the model key) in the answer: which one.
    Secret(String),
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::ServerError(s) => write!(f, "status {s}"),
            Finding::NotRefused(s) => write!(f, "not refused by the guard (status {s})"),
            Finding::Leak(m) => write!(f, "internals in the answer ({m:?})"),
            Finding::Secret(name) => write!(f, "a secret in the answer ({name})"),
        }
    }
}

/// A secret the answers must never hold: its name for the report, its text.
#[derive(Debug, Clone)]
pub(crate) struct Secret {
    pub(crate) name: String,
    pub(crate) value: String,
}

/// Checks one answer (`status`, its headers and body as text) to `request` (the body
/// and header values sent, joined). `must_refuse`: the guard should have answered 400
/// or 403. `allowed_5xx`: statuses the endpoint documents.
pub(crate) fn check(
    status: u16,
    answer: &[u8],
    request: &[u8],
    must_refuse: bool,
    allowed_5xx: &[u16],
    secrets: &[Secret],
) -> Vec<Finding> {
    let mut found = Vec::new();
    if must_refuse && !REFUSALS.contains(&status) {
        found.push(Finding::NotRefused(status));
    } else if status >= 500 && !allowed_5xx.contains(&status) {
        found.push(Finding::ServerError(status));
    }
    let answer = String::from_utf8_lossy(answer).to_lowercase();
    let request = String::from_utf8_lossy(request).to_lowercase();
    for marker in MARKERS {
        if answer.contains(marker) && !request.contains(marker) {
            found.push(Finding::Leak((*marker).to_string()));
        }
    }
    // a source location (`mod.rs:12`), not a field path a server names after the body's
    // own key (`rules[0].rs: unknown field`)
    let location = answer
        .match_indices(".rs:")
        .any(|(at, _)| answer[at + 4..].starts_with(|c: char| c.is_ascii_digit()));
    if location && !request.contains(".rs:") {
        found.push(Finding::Leak(".rs:<line>".to_string()));
    }
    for secret in secrets {
        let value = secret.value.to_lowercase();
        if !value.is_empty() && answer.contains(&value) {
            found.push(Finding::Secret(secret.name.clone()));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Vec<Secret> {
        vec![Secret { name: "tutor.key".into(), value: "Zm9vYmFyLXNlY3JldC1zZWVk".into() }]
    }

    #[test]
    fn a_clean_answer_is_no_finding() {
        let answer = br#"{"error":{"code":"bad_request","message":"field baseRevision: expected a number"}}"#;
        assert_eq!(check(400, answer, b"{}", false, &[], &key()), vec![]);
        assert_eq!(check(403, b"{}", b"", true, &[], &key()), vec![]);
    }

    #[test]
    fn planted_internals_are_findings() {
        let cases: [(&[u8], Finding); 6] = [
            (b"thread 'main' panicked at crates/hub/src/dev.rs:12:5", Finding::Leak("panicked".into())),
            (
                b"called `Result::unwrap()` on an `Err` value",
                Finding::Leak("called `result::unwrap()`".into()),
            ),
            (b"{\"message\":\"at /home/x/crates/a2a/src/server/mod.rs\"}", Finding::Leak("/src/".into())),
            (b"error: rusqlite: no such table: tasks", Finding::Leak("sqlite".into())),
            (b"stack backtrace:\n   0: std::rt", Finding::Leak("stack backtrace".into())),
            (b"{\"seed\":\"zm9vymfylxnly3jldc1zzwvk\"}", Finding::Secret("tutor.key".into())),
        ];
        for (answer, finding) in cases {
            let found = check(200, answer, b"{}", false, &[], &key());
            assert!(found.contains(&finding), "{} gave {found:?}", String::from_utf8_lossy(answer));
        }
    }

    #[test]
    fn a_planted_500_is_a_finding_unless_documented() {
        assert_eq!(check(500, b"", b"", false, &[], &[]), vec![Finding::ServerError(500)]);
        assert_eq!(check(502, b"", b"", false, &[502], &[]), vec![]);
        assert_eq!(check(200, b"ok", b"", true, &[], &[]), vec![Finding::NotRefused(200)]);
    }

    #[test]
    fn what_the_request_carried_may_come_back() {
        // a field path named after the body's own key is no source location
        let field = b"{\"message\":\"script: field rules[0].rs: unknown field `rs`\"}";
        assert_eq!(check(400, field, b"{\"rules\":[{\"rs\":1}]}", false, &[], &[]), vec![]);
        let located = check(500, b"at crates/llm/src/fake.rs:120:9", b"{}", false, &[500], &[]);
        assert!(located.contains(&Finding::Leak(".rs:<line>".into())), "{located:?}");
        let echoed = b"{\"message\":\"unknown field `/src/x.rs:1`\"}";
        assert_eq!(check(400, echoed, b"{\"/src/x.rs:1\":1}", false, &[], &[]), vec![]);
        // a secret never may
        let key = key();
        let sent = key[0].value.as_bytes();
        assert_eq!(check(400, sent, sent, false, &[], &key), vec![Finding::Secret("tutor.key".into())]);
    }
}
