//! A specialist's question the Hub cannot route the answer to by meaning: "you already
//! have this form open here; continue or replace?". The specialist marks its reply with
//! [`AWAITS_KEY`] = [`AWAITS_FORM_CHOICE`] in the message's metadata; the Hub remembers
//! that for the conversation (bounded, taken once) and sends the next message there when
//! [`OpenFormChoice::read`] reads it as the answer. Anything else is routed as usual.

/// Reply metadata key: what answer the specialist awaits next in this conversation.
pub const AWAITS_KEY: &str = "campusAwaits";
/// [`AWAITS_KEY`]'s value when the specialist asked "continue or replace".
pub const AWAITS_FORM_CHOICE: &str = "open_form_choice";

/// The student's answer to "continue or replace", when that is what the message says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenFormChoice {
    Continue,
    Replace,
}

impl OpenFormChoice {
    /// `continue`, `keep it`, `replace`, `start over`, `new one` (a short message only).
    pub fn read(text: &str) -> Option<OpenFormChoice> {
        let t = text.trim().trim_end_matches(['.', '!']).to_lowercase();
        if t.split_whitespace().count() > 4 {
            return None;
        }
        if ["continue", "keep", "resume", "continue it", "keep it", "the open one"].iter().any(|w| t == *w)
            || t.starts_with("continue")
        {
            return Some(OpenFormChoice::Continue);
        }
        if t.starts_with("replace") || t.contains("start over") || t.contains("new one") || t == "new form" {
            return Some(OpenFormChoice::Replace);
        }
        None
    }
}

/// Whether a reply's metadata says its agent awaits a "continue or replace" answer.
pub fn awaits_form_choice(metadata: Option<&std::collections::HashMap<String, serde_json::Value>>) -> bool {
    metadata.and_then(|m| m.get(AWAITS_KEY)).and_then(serde_json::Value::as_str) == Some(AWAITS_FORM_CHOICE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_and_anything_else_is_not() {
        for t in ["continue", "Continue.", "keep it", "continue with it", "resume"] {
            assert_eq!(OpenFormChoice::read(t), Some(OpenFormChoice::Continue), "{t}");
        }
        for t in ["replace", "Replace it!", "start over", "a new one", "new form"] {
            assert_eq!(OpenFormChoice::read(t), Some(OpenFormChoice::Replace), "{t}");
        }
        for t in [
            "what is the derivative of x^2?",
            "can I book a room for friday",
            "",
            "keep going and replace it all now",
        ] {
            assert_eq!(OpenFormChoice::read(t), None, "{t}");
        }
    }
}
