//! RFC 8785 (JSON Canonicalization Scheme): object members sorted by their UTF-16 code
//! units, no whitespace, strings escaped as ECMAScript's `JSON.stringify` does, numbers
//! in ECMAScript's shortest form. Two parties that parse the same JSON produce the same
//! bytes, whatever order or spacing they read it in.

use serde_json::Value;

/// The canonical form of `value`.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number(n)),
        Value::String(s) => string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            out.push('{');
            for (i, (k, v)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(k, out);
                out.push(':');
                write(v, out);
            }
            out.push('}');
        }
    }
}

/// serde_json escapes exactly what `JSON.stringify` does: `"`, `\`, and the control
/// characters (`\b \t \n \f \r` by name, the others as lowercase `\u00xx`).
fn string(s: &str, out: &mut String) {
    out.push_str(&serde_json::to_string(s).unwrap_or_default());
}

fn number(n: &serde_json::Number) -> String {
    if n.is_i64() || n.is_u64() {
        return n.to_string();
    }
    ecmascript(n.as_f64().unwrap_or(0.0))
}

/// ECMAScript's `Number.prototype.toString` for a finite double (JSON has no others).
fn ecmascript(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    // Rust's `{:e}` gives the shortest digits that round-trip: "d.ddde-n"
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i32;
    // the value is 0.digits × 10^n
    let n = exp.parse::<i32>().unwrap_or(0) + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let sign = if e < 0 { '-' } else { '+' };
        let rest = if k > 1 { format!(".{}", &digits[1..]) } else { String::new() };
        format!("{}{rest}e{sign}{}", &digits[..1], e.abs())
    };
    if x < 0.0 { format!("-{body}") } else { body }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn members_sorted_by_utf16_code_units_without_whitespace() {
        // RFC 8785 §3.2.3's example: "\r" < "1" < "\u0080" < "ö" < "€" < "😀" < "\ufb33"
        let v: Value = serde_json::from_str(
            r#"{"€":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","😀":"Emoji: Grinning Face","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis"}"#,
        )
        .unwrap();
        let keys: Vec<String> = canonical(&v)
            .split("\",\"")
            .map(|part| part.trim_start_matches("{\"").split("\":\"").next().unwrap().to_string())
            .collect();
        assert_eq!(keys, ["\\r", "1", "\u{80}", "ö", "€", "😀", "\u{fb33}"]);
        assert_eq!(
            canonical(&json!({"b": [1, {"d": null, "c": true}], "a": "x"})),
            r#"{"a":"x","b":[1,{"c":true,"d":null}]}"#
        );
    }

    #[test]
    fn strings_escaped_as_json_stringify_does() {
        assert_eq!(canonical(&json!("a\"b\\c\u{1}\n\u{7f}é/")), "\"a\\\"b\\\\c\\u0001\\n\u{7f}é/\"");
    }

    #[test]
    fn numbers_in_ecmascript_form() {
        // RFC 8785 Appendix B's samples, and the integers a card holds
        for (x, want) in [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (4.35, "4.35"),
            (0.1 + 0.2, "0.30000000000000004"),
            (9007199254740994.0, "9007199254740994"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (333333333.3333333, "333333333.3333333"),
        ] {
            assert_eq!(ecmascript(x), want, "{x}");
        }
        assert_eq!(canonical(&json!([1, -7, u64::MAX, 2.5])), "[1,-7,18446744073709551615,2.5]");
    }
}
