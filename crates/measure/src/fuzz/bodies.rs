//! The fuzzer's bodies, each one a pure function of (seed, endpoint, index): a small
//! deterministic generator, and the kinds of body sent (valid, mutated, wrong but
//! well-formed JSON, garbage, random bytes, empty, oversize).

use serde_json::Value;

/// SplitMix64: small, fast, and the same on every machine for a seed.
pub(crate) struct Rng(u64);

impl Rng {
    /// The generator for one request: `index` of the endpoint named `label` in the run `seed`.
    pub(crate) fn for_request(seed: u64, label: &str, index: usize) -> Self {
        // FNV-1a of the label, so an endpoint's bodies do not depend on the list's order
        let name = label
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        let mut rng = Rng(seed ^ name ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        rng.next();
        rng
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True `per_mille` times in a thousand.
    pub(crate) fn chance(&mut self, per_mille: u32) -> bool {
        self.below(1000) < per_mille as usize
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub(crate) fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// What a generated body is, for the report and the reproducer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Valid,
    Mutated,
    WrongJson,
    Garbage,
    Random,
    Empty,
    Oversize,
}

/// Larger than every body limit the servers set (the fake model's 4 MiB is the largest).
pub(crate) const OVERSIZE: usize = 4 * 1024 * 1024 + 4096;

/// One body for an endpoint whose valid body is `template` (empty: none).
pub(crate) fn body(rng: &mut Rng, template: &[u8]) -> (Shape, Vec<u8>) {
    match rng.below(1000) {
        0..=79 => (Shape::Valid, template.to_vec()),
        80..=399 => (Shape::Mutated, mutate(rng, template)),
        400..=719 => match serde_json::from_slice::<Value>(template) {
            Ok(v) => (Shape::WrongJson, wrong_json(rng, &v)),
            Err(_) => (Shape::Garbage, garbage(rng, template)),
        },
        720..=849 => (Shape::Garbage, garbage(rng, template)),
        850..=949 => {
            let len = rng.below(4096);
            (Shape::Random, rng.bytes(len))
        }
        950..=997 => (Shape::Empty, Vec::new()),
        _ => (Shape::Oversize, oversize()),
    }
}

fn oversize() -> Vec<u8> {
    let mut body = b"{\"a\":\"".to_vec();
    body.resize(OVERSIZE, b'a');
    body.extend_from_slice(b"\"}");
    body
}

/// Bytes a mutation likes to insert: JSON's structure, escapes, NUL, broken UTF-8.
const INSERTS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b",",
    b":",
    b"\\",
    b"\\u0000",
    b"\\ud800",
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"-",
    b"e999",
    b"null",
    b" ",
    b"\n",
    b"0",
];

/// A valid body with 1 to 8 bytes flipped, inserted, deleted, repeated or cut.
pub(crate) fn mutate(rng: &mut Rng, template: &[u8]) -> Vec<u8> {
    let mut out = template.to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = if out.is_empty() { 0 } else { rng.below(out.len()) };
        match rng.below(6) {
            0 if !out.is_empty() => out[at] ^= 1 << rng.below(8),
            1 if !out.is_empty() => out[at] = rng.next() as u8,
            2 if !out.is_empty() => {
                out.remove(at);
            }
            3 if !out.is_empty() => {
                let end = (at + 1 + rng.below(16)).min(out.len());
                let copy = out[at..end].to_vec();
                out.splice(at..at, copy);
            }
            4 if rng.chance(200) => out.truncate(at),
            _ => {
                let insert = rng.pick(INSERTS);
                out.splice(at..at, insert.iter().copied());
            }
        }
    }
    out
}

/// JSON text a value of the right shape must never be, or only just may be.
fn weird(rng: &mut Rng) -> String {
    let depth = *rng.pick(&[64usize, 127, 129, 1000, 5000]);
    match rng.below(14) {
        0 => rng
            .pick(&["1e400", "-1e400", "18446744073709551616", "-9223372036854775809", "1e-400", "-0", "0.5"])
            .to_string(),
        1 => {
            rng.pick(&["null", "true", "false", "[]", "{}", "\"\"", "0", "-1", "[null]", "[{}]"]).to_string()
        }
        2 => format!("\"{}\"", "a".repeat(1 + rng.below(200_000))),
        3 => rng
            .pick(&[
                "\"\\u0000\"",
                "\"\\ud800\"",
                "\"\\udfff\\ud800\"",
                "\"a\\u0000b\"",
                "\"\\uDBFF\\uDFFF\"",
                "\"\\n\\r\\t\\b\\f\"",
            ])
            .to_string(),
        4 => "\"\u{202e}\u{feff}\u{1d11e}\u{fffd}\u{0301}ﬀ\"".to_string(),
        5 => format!("{}{}", "[".repeat(depth), "]".repeat(depth)),
        6 => format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth)),
        7 => format!("[{}1]", "1,".repeat(rng.below(50_000))),
        8 => rng
            .pick(&[
                "\"../../../etc/passwd\"",
                "\"%00%2f%2e%2e\"",
                "\"<script>x</script>\"",
                "\"\\r\\nx-injected: 1\"",
            ])
            .to_string(),
        9 => rng.pick(&["NaN", "Infinity", "undefined", "'single'", "0x10", "01", "+1", ".5"]).to_string(),
        10 => format!("\"{}\"", "é".repeat(1 + rng.below(20_000))),
        11 => rng
            .pick(&["\"ROLE_USER\"", "\"SendMessage\"", "\"2.0\"", "\"user\"", "\"tutor\"", "\"calculus\""])
            .to_string(),
        12 => (rng.next() as i64).to_string(),
        _ => format!("{{\"{}\":1}}", "k".repeat(1 + rng.below(1000))),
    }
}

/// Every place in `v` a value sits (JSON pointers), the root first.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                pointers(child, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Stands for the weird value in the serialized text, which then replaces it.
const MARK: &str = "\u{1}fuzz\u{1}";

/// The template's shape with one to three things wrong: a value of another type or
/// size, a field gone, an unknown field, a key twice.
pub(crate) fn wrong_json(rng: &mut Rng, template: &Value) -> Vec<u8> {
    let mut v = template.clone();
    let mut all = Vec::new();
    pointers(&v, String::new(), &mut all);
    let mut weird_values = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let at = rng.pick(&all).clone();
        match rng.below(4) {
            // another value where this one was
            0 | 1 => {
                if let Some(slot) = v.pointer_mut(&at) {
                    *slot = Value::String(format!("{MARK}{}", weird_values.len()));
                    weird_values.push(weird(rng));
                }
            }
            // a field gone
            2 => {
                if let Some((parent, key)) = at.rsplit_once('/')
                    && let Some(Value::Object(map)) = v.pointer_mut(parent)
                {
                    map.remove(&key.replace("~1", "/").replace("~0", "~"));
                }
            }
            // an unknown field
            _ => {
                if let Some(Value::Object(map)) = v.pointer_mut(&at) {
                    map.insert(
                        format!("fuzz{}", rng.below(10)),
                        Value::String(format!("{MARK}{}", weird_values.len())),
                    );
                    weird_values.push(weird(rng));
                }
            }
        }
    }
    let mut text = serde_json::to_string(&v).unwrap_or_default();
    for (i, raw) in weird_values.iter().enumerate() {
        let marked = serde_json::to_string(&format!("{MARK}{i}")).unwrap_or_default();
        text = text.replacen(&marked, raw, 1);
    }
    // a key twice, at the root
    if rng.chance(200)
        && let Some(Value::Object(map)) = Some(&v)
        && let Some((k, _)) = map.iter().next()
        && text.starts_with('{')
    {
        let first = format!("{{{}:{},", serde_json::to_string(k).unwrap_or_default(), weird(rng));
        text = format!("{first}{}", &text[1..]);
    }
    text.into_bytes()
}

/// Bodies that are hardly JSON: the template twice, cut, with a byte order mark, as
/// UTF-16, followed by junk; or a weird value alone.
pub(crate) fn garbage(rng: &mut Rng, template: &[u8]) -> Vec<u8> {
    match rng.below(8) {
        0 => [template, template].concat(),
        1 => template[..rng.below(template.len().max(1)).min(template.len())].to_vec(),
        2 => [b"\xef\xbb\xbf".as_slice(), template].concat(),
        3 => String::from_utf8_lossy(template).encode_utf16().flat_map(u16::to_le_bytes).collect(),
        4 => [template, b" }{,]junk\x00".as_slice()].concat(),
        5 => b"{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":{},\"method\":\"SendMessage\",\"method\":null}".to_vec(),
        _ => weird(rng).into_bytes(),
    }
}

/// `text` percent-encoded for a path segment or a query value.
pub(crate) fn percent(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Bytes fit for a header value (visible ASCII, spaces, tabs and obs-text), at most 4 KiB.
pub(crate) fn header_value(bytes: &[u8]) -> Vec<u8> {
    bytes.iter().copied().filter(|&b| b == b'\t' || (b >= 0x20 && b != 0x7f)).take(4096).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_a_function_of_seed_endpoint_and_index() {
        let template = br#"{"a":{"b":[1,"x"]},"c":true}"#;
        let one = |seed, label, i| body(&mut Rng::for_request(seed, label, i), template);
        assert_eq!(one(7, "hub POST /a2a/jsonrpc", 3), one(7, "hub POST /a2a/jsonrpc", 3));
        let distinct: std::collections::HashSet<Vec<u8>> = (0..200).map(|i| one(7, "x", i).1).collect();
        assert!(distinct.len() > 150, "{} distinct bodies of 200", distinct.len());
        assert_ne!(one(7, "x", 1), one(8, "x", 1));
    }

    #[test]
    fn wrong_json_keeps_the_weird_values_in_place() {
        let template = serde_json::json!({"a": {"b": [1, "x"]}, "c": true});
        for i in 0..300 {
            let text = wrong_json(&mut Rng::for_request(1, "w", i), &template);
            assert!(!String::from_utf8_lossy(&text).contains("fuzz\\u0001"), "a mark left in body {i}");
        }
    }
}
