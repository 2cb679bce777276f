//! Which media types an agent accepts, from its card, and the check every incoming
//! message passes (A2A 1.0 `ContentTypeNotSupportedError`, -32005).
//!
//! The rule, from the spec: a part whose media type the agent does not support is
//! refused. A card declares `defaultInputModes` for the whole agent and may override
//! them per skill (`skills[].inputModes`). A message does not say which skill it is
//! for, so the server accepts a type when the defaults or any skill accept it; the
//! agent itself may refuse more narrowly once it has picked a skill.
//!
//! A part without a media type has the type its content implies: `text` is
//! `text/plain`, `data` is `application/json`, and a file (`raw` or `url`) of unknown
//! type is `application/octet-stream` (RFC 2046's "arbitrary binary data").
//! Types compare by essence (`type/subtype`, case-insensitive, parameters dropped); a
//! mode of `type/*` or `*/*` accepts a whole family.

use a2a_lf::{AgentCard, Message, Part, PartContent};

use crate::RpcError;

/// The media types a card accepts, as lowercase essences. Empty: the card declares
/// none (an incomplete card), and nothing is refused on its account.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Accepts(Vec<String>);

/// `type/subtype` of a media type, lowercased, parameters dropped.
fn essence(media_type: &str) -> String {
    media_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}

/// The media type a part has: its own, or the one its content implies.
pub fn part_media_type(part: &Part) -> String {
    match part.media_type.as_deref().map(essence).filter(|m| !m.is_empty()) {
        Some(m) => m,
        None => match part.content {
            PartContent::Text(_) => "text/plain".into(),
            PartContent::Data(_) => "application/json".into(),
            PartContent::Raw(_) | PartContent::Url(_) => "application/octet-stream".into(),
        },
    }
}

impl Accepts {
    pub fn from_card(card: &AgentCard) -> Self {
        let skill_modes = card.skills.iter().filter_map(|s| s.input_modes.as_ref()).flatten();
        let mut modes: Vec<String> = Vec::new();
        for m in card.default_input_modes.iter().chain(skill_modes) {
            let m = essence(m);
            if !m.is_empty() && !modes.contains(&m) {
                modes.push(m);
            }
        }
        Self(modes)
    }

    /// Whether `media_type` (an essence) is accepted.
    pub fn accepts(&self, media_type: &str) -> bool {
        if self.0.is_empty() {
            return true;
        }
        let family = media_type.split('/').next().unwrap_or("");
        self.0
            .iter()
            .any(|m| m == media_type || m == "*/*" || m.strip_suffix("/*").is_some_and(|f| f == family))
    }

    /// Refuses the first part of `message` whose media type is not accepted.
    pub fn check(&self, message: &Message) -> Result<(), RpcError> {
        for (i, part) in message.parts.iter().enumerate() {
            let media_type = part_media_type(part);
            if !self.accepts(&media_type) {
                return Err(RpcError::media_type_not_accepted(i, &media_type, &self.0));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_lf::{AgentSkill, Role};

    fn card(defaults: &[&str], skill_modes: Option<&[&str]>) -> AgentCard {
        let mut c = crate::basic_card("a", "d", "http://127.0.0.1:1");
        c.default_input_modes = defaults.iter().map(|m| m.to_string()).collect();
        c.skills = vec![AgentSkill {
            id: "s".into(),
            name: "s".into(),
            description: String::new(),
            tags: vec![],
            examples: None,
            input_modes: skill_modes.map(|l| l.iter().map(|m| m.to_string()).collect()),
            output_modes: None,
            security_requirements: None,
        }];
        c
    }

    fn message(parts: Vec<Part>) -> Message {
        Message::new(Role::User, parts)
    }

    #[test]
    fn parts_without_a_type_have_the_type_their_content_implies() {
        assert_eq!(part_media_type(&Part::text("x")), "text/plain");
        assert_eq!(part_media_type(&Part::data(serde_json::json!({}))), "application/json");
        assert_eq!(part_media_type(&Part::raw(vec![1])), "application/octet-stream");
        assert_eq!(part_media_type(&Part::url("http://x")), "application/octet-stream");
        assert_eq!(part_media_type(&Part::text("x").with_media_type("")), "text/plain");
        assert_eq!(
            part_media_type(&Part::text("x").with_media_type("Text/Plain; charset=utf-8")),
            "text/plain"
        );
    }

    #[test]
    fn a_text_agent_refuses_other_types_and_names_the_part() {
        let a = Accepts::from_card(&card(&["text/plain"], None));
        assert!(a.check(&message(vec![Part::text("hi")])).is_ok());
        let png = message(vec![Part::text("look"), Part::raw(vec![1]).with_media_type("image/png")]);
        let e = a.check(&png).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (-32005, Some("message.parts[1].mediaType")));
        assert!(e.message.contains("image/png") && e.message.contains("text/plain"), "{}", e.message);
        assert!(a.check(&message(vec![Part::data(serde_json::json!({"a": 1}))])).is_err());
        assert!(a.check(&message(vec![Part::text("# x").with_media_type("text/markdown")])).is_err());
    }

    #[test]
    fn skills_widen_the_defaults_and_wildcards_accept_families() {
        let a = Accepts::from_card(&card(&["text/plain"], Some(&["image/*"])));
        assert!(a.accepts("image/png"));
        assert!(!a.accepts("application/json"));
        let a = Accepts::from_card(&card(&["*/*"], None));
        assert!(a.accepts("application/octet-stream"));
        // an incomplete card (no modes at all) refuses nothing
        assert!(Accepts::from_card(&card(&[], Some(&[]))).accepts("image/png"));
    }
}
