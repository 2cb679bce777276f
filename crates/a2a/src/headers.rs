//! Header names and the version negotiation rule.

/// The protocol version header every request carries.
pub const VERSION: &str = "A2A-Version";
/// Comma-separated extension URIs the client activates.
pub const EXTENSIONS: &str = "A2A-Extensions";
/// The only version we speak.
pub const SUPPORTED_VERSION: &str = "1.0";

/// Whether an `A2A-Version` header value names a version we support (`1.0`, `1.0.x`).
pub fn version_supported(value: &str) -> bool {
    let v = value.trim();
    v == SUPPORTED_VERSION
        || v.strip_prefix("1.0.")
            .is_some_and(|patch| !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()))
}

/// Splits an `A2A-Extensions` header into URIs (trimmed, empty entries dropped, deduplicated).
pub fn parse_extensions<'a>(values: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for value in values {
        for uri in value.split(',').map(str::trim).filter(|u| !u.is_empty()) {
            if !out.iter().any(|u| u == uri) {
                out.push(uri.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert!(version_supported("1.0"));
        assert!(version_supported(" 1.0 "));
        assert!(version_supported("1.0.1"));
        assert!(!version_supported("0.3"));
        assert!(!version_supported("1.0."));
        assert!(!version_supported("1.01"));
        assert!(!version_supported("2.0"));
        assert!(!version_supported(""));
    }

    #[test]
    fn extensions_split_and_dedupe() {
        let got = parse_extensions(["a, b,,a", " c "].into_iter());
        assert_eq!(got, vec!["a", "b", "c"]);
    }
}
