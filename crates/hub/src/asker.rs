//! Who asks and what their client renders, read from the Student's message, and passed on
//! to the specialist with every forward (questions and form actions alike).

use std::collections::HashMap;

use a2a::wire::Message;
use serde_json::{Value, json};
use vocab::form::{ANONYMOUS_STUDENT, STUDENT_ID_KEY};
use vocab::meta::BEGUN_ANEW_KEY;

use crate::error::HubError;

/// Who asks and what their client renders.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Asker {
    pub(crate) student_id: String,
    /// The Student activated the A2UI extension (`A2A-Extensions`).
    a2ui: bool,
    /// Its `a2uiClientCapabilities`, when they pass the official schema.
    capabilities: Option<Value>,
    /// The student began this conversation anew (`conversationBegunAnew`).
    begun_anew: bool,
}

/// 1–`max` characters of `A-Za-z0-9_-`.
pub(crate) fn is_id(s: &str, max: usize) -> bool {
    (1..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The value of `key` in `message`'s metadata.
pub(crate) fn meta<'a>(message: &'a Message, key: &str) -> Option<&'a Value> {
    message.metadata.as_ref().and_then(|m| m.get(key))
}

impl Asker {
    /// The asker of `message`, sent with these `extensions`.
    pub(crate) fn of(message: &Message, extensions: &[String]) -> Result<Asker, HubError> {
        let student_id = match meta(message, STUDENT_ID_KEY) {
            None => ANONYMOUS_STUDENT.to_string(),
            Some(Value::String(s)) if is_id(s, 64) => s.clone(),
            Some(_) => return Err(HubError::StudentId),
        };
        let capabilities = meta(message, a2ui::part::CLIENT_CAPABILITIES_KEY).and_then(|c| {
            let valid = a2ui::validate_client_capabilities(c).is_ok();
            if !valid {
                tracing::info!("client capabilities that fail the a2ui schema are not passed on");
            }
            valid.then(|| c.clone())
        });
        let begun_anew = match meta(message, BEGUN_ANEW_KEY) {
            None => false,
            Some(Value::Bool(true)) => true,
            Some(_) => return Err(HubError::BegunAnew),
        };
        Ok(Asker { student_id, a2ui: a2ui::part::extension_requested(extensions), capabilities, begun_anew })
    }

    /// The student the Hub vouches for when it forwards (signed, `hublink::sign_forward`):
    /// the validated id the Student declared, never the anonymous one.
    pub(crate) fn vouched(&self) -> Option<&str> {
        (self.student_id != ANONYMOUS_STUDENT).then_some(self.student_id.as_str())
    }

    /// The extensions to activate with the specialist: A2UI when the Student did.
    pub(crate) fn extensions(&self) -> Vec<String> {
        if self.a2ui { vec![a2ui::EXTENSION_URI.to_string()] } else { Vec::new() }
    }

    /// Adds what the specialist should know of the asker to a forward's metadata.
    pub(crate) fn describe(&self, metadata: &mut HashMap<String, Value>) {
        metadata.insert(STUDENT_ID_KEY.into(), json!(self.student_id));
        // signed with the rest: the Library starts the demo's loans again on it
        if self.begun_anew {
            metadata.insert(BEGUN_ANEW_KEY.into(), json!(true));
        }
        if let Some(c) = &self.capabilities {
            metadata.insert(a2ui::part::CLIENT_CAPABILITIES_KEY.into(), c.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a::wire::{Part, Role};

    #[test]
    fn a_student_id_is_checked_and_capabilities_pass_only_when_valid() {
        let mut m = Message::new(Role::User, vec![Part::text("hi")]);
        assert_eq!(Asker::of(&m, &[]).unwrap().student_id, ANONYMOUS_STUDENT);
        assert_eq!(Asker::of(&m, &[]).unwrap().vouched(), None, "the Hub vouches for no anonymous asker");
        m.metadata = Some(a2ui::part::client_metadata());
        m.metadata.as_mut().unwrap().insert(STUDENT_ID_KEY.into(), json!("demo-student"));
        let c = Asker::of(&m, &[a2ui::EXTENSION_URI.to_string()]).unwrap();
        assert_eq!(c.vouched(), Some("demo-student"));
        assert_eq!(c.extensions(), vec![a2ui::EXTENSION_URI.to_string()]);
        let mut forwarded = HashMap::new();
        c.describe(&mut forwarded);
        assert_eq!(forwarded[STUDENT_ID_KEY], "demo-student");
        assert!(forwarded.contains_key(a2ui::part::CLIENT_CAPABILITIES_KEY));
        m.metadata.as_mut().unwrap().insert(a2ui::part::CLIENT_CAPABILITIES_KEY.into(), json!({"v0.9": 7}));
        let mut forwarded = HashMap::new();
        Asker::of(&m, &[]).unwrap().describe(&mut forwarded);
        assert!(!forwarded.contains_key(a2ui::part::CLIENT_CAPABILITIES_KEY), "invalid: not passed on");
        assert!(!forwarded.contains_key(BEGUN_ANEW_KEY), "not begun anew unless the student said so");
        m.metadata.as_mut().unwrap().insert(BEGUN_ANEW_KEY.into(), json!(true));
        let mut forwarded = HashMap::new();
        Asker::of(&m, &[]).unwrap().describe(&mut forwarded);
        assert_eq!(forwarded[BEGUN_ANEW_KEY], true, "passed on, to be signed with the forward");
        m.metadata.as_mut().unwrap().insert(BEGUN_ANEW_KEY.into(), json!("yes"));
        assert!(matches!(Asker::of(&m, &[]), Err(HubError::BegunAnew)));
        m.metadata.as_mut().unwrap().remove(BEGUN_ANEW_KEY);
        m.metadata.as_mut().unwrap().insert(STUDENT_ID_KEY.into(), json!("a b"));
        assert!(matches!(Asker::of(&m, &[]), Err(HubError::StudentId)));
    }
}
