//! The skill configuration, its validation, and what is derived from it.

use a2a::wire::{AgentCard, AgentExtension, AgentSkill};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// One skill as configured. `answer_content` is private to the agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Skill {
    pub id: String,
    pub name: String,
    pub description: String,
    pub tags: Vec<String>,
    #[serde(default)]
    pub examples: Vec<String>,
    #[serde(default = "enabled_by_default")]
    pub enabled: bool,
    /// Topics this skill may cover.
    #[serde(default)]
    pub allowed_scope: Vec<String>,
    /// Topics it must decline.
    #[serde(default)]
    pub excluded: Vec<String>,
    /// The facts this skill answers from (Library: required when enabled).
    #[serde(default)]
    pub answer_content: String,
}

fn enabled_by_default() -> bool {
    true
}

/// A change to one skill: the revision it starts from and the fields to change (the id
/// stays). The body of `PATCH /api/settings/skills/{id}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SkillPatch {
    pub base_revision: u64,
    pub name: Option<String>,
    pub description: Option<String>,
    pub tags: Option<Vec<String>>,
    pub examples: Option<Vec<String>>,
    pub enabled: Option<bool>,
    pub allowed_scope: Option<Vec<String>>,
    pub excluded: Option<Vec<String>>,
    pub answer_content: Option<String>,
}

impl SkillPatch {
    /// Whether the patch names no field to change.
    pub fn is_empty(&self) -> bool {
        *self == SkillPatch { base_revision: self.base_revision, ..Default::default() }
    }

    pub fn apply(&self, skill: &mut Skill) {
        fn set<T: Clone>(field: &mut T, value: &Option<T>) {
            if let Some(v) = value {
                *field = v.clone();
            }
        }
        set(&mut skill.name, &self.name);
        set(&mut skill.description, &self.description);
        set(&mut skill.tags, &self.tags);
        set(&mut skill.examples, &self.examples);
        set(&mut skill.enabled, &self.enabled);
        set(&mut skill.allowed_scope, &self.allowed_scope);
        set(&mut skill.excluded, &self.excluded);
        set(&mut skill.answer_content, &self.answer_content);
    }
}

/// The editable part of an agent's configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SkillSet {
    pub skills: Vec<Skill>,
}

/// Agent-specific rules on top of the common validation.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rules {
    /// An enabled skill must have answer content (the Library answers only from it).
    pub require_content: bool,
}

/// One validation failure, naming the field (`skills[1].name`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

const MAX_SKILLS: usize = 20;
const MAX_TAGS: usize = 20;
/// Examples are the Hub router's training data: room for plain, misspelled and
/// mixed-language ways of asking.
const MAX_EXAMPLES: usize = 80;
const MAX_SCOPE_ITEMS: usize = 20;
const MAX_CONTENT: usize = 20_000;

fn check_text(errors: &mut Vec<FieldError>, field: String, value: &str, max: usize) {
    if value.trim().is_empty() {
        errors.push(FieldError { field, message: "must not be empty".into() });
    } else if value.chars().count() > max {
        errors.push(FieldError { field, message: format!("must be at most {max} characters") });
    } else if value.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        errors.push(FieldError { field, message: "must not contain control characters".into() });
    }
}

fn check_list(errors: &mut Vec<FieldError>, field: &str, items: &[String], max_items: usize, max_len: usize) {
    if items.len() > max_items {
        errors.push(FieldError { field: field.into(), message: format!("at most {max_items} entries") });
    }
    for (i, item) in items.iter().enumerate() {
        check_text(errors, format!("{field}[{i}]"), item, max_len);
    }
}

/// Validates a skill set; every problem is reported, each naming its field.
pub fn validate(set: &SkillSet, rules: Rules) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    if set.skills.is_empty() || set.skills.len() > MAX_SKILLS {
        errors.push(FieldError {
            field: "skills".into(),
            message: format!("between 1 and {MAX_SKILLS} skills"),
        });
    }
    for (i, s) in set.skills.iter().enumerate() {
        let at = |f: &str| format!("skills[{i}].{f}");
        let id_ok = !s.id.is_empty()
            && s.id.len() <= 64
            && s.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !id_ok {
            errors.push(FieldError { field: at("id"), message: "1-64 characters of a-z, 0-9 and -".into() });
        } else if set.skills[..i].iter().any(|o| o.id == s.id) {
            errors.push(FieldError { field: at("id"), message: format!("duplicate skill id {}", s.id) });
        }
        check_text(&mut errors, at("name"), &s.name, 80);
        check_text(&mut errors, at("description"), &s.description, 500);
        if s.tags.is_empty() {
            errors.push(FieldError { field: at("tags"), message: "at least one tag".into() });
        }
        check_list(&mut errors, &at("tags"), &s.tags, MAX_TAGS, 40);
        check_list(&mut errors, &at("examples"), &s.examples, MAX_EXAMPLES, 200);
        check_list(&mut errors, &at("allowedScope"), &s.allowed_scope, MAX_SCOPE_ITEMS, 200);
        check_list(&mut errors, &at("excluded"), &s.excluded, MAX_SCOPE_ITEMS, 200);
        if s.answer_content.chars().count() > MAX_CONTENT {
            errors.push(FieldError {
                field: at("answerContent"),
                message: format!("must be at most {MAX_CONTENT} characters"),
            });
        }
        if rules.require_content && s.enabled && s.answer_content.trim().is_empty() {
            errors.push(FieldError {
                field: at("answerContent"),
                message: "an enabled skill needs answer content: the agent answers only from it".into(),
            });
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// What an agent enforces: its enabled skills, with scope and content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    pub revision: u64,
    pub skills: Vec<PolicySkill>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicySkill {
    pub id: String,
    pub name: String,
    pub description: String,
    pub tags: Vec<String>,
    pub allowed_scope: Vec<String>,
    pub excluded: Vec<String>,
    pub answer_content: String,
}

impl Policy {
    pub fn from_set(set: &SkillSet, revision: u64) -> Self {
        let skills = set
            .skills
            .iter()
            .filter(|s| s.enabled)
            .map(|s| PolicySkill {
                id: s.id.clone(),
                name: s.name.clone(),
                description: s.description.clone(),
                tags: s.tags.clone(),
                allowed_scope: s.allowed_scope.clone(),
                excluded: s.excluded.clone(),
                answer_content: s.answer_content.clone(),
            })
            .collect();
        Self { revision, skills }
    }

    pub fn skill(&self, id: &str) -> Option<&PolicySkill> {
        self.skills.iter().find(|s| s.id == id)
    }

    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }
}

/// The card for `identity` (name, interfaces, provider …) with the set's enabled skills
/// and the scope extension at `revision`.
pub fn build_card(identity: &AgentCard, set: &SkillSet, revision: u64) -> AgentCard {
    let mut card = identity.clone();
    let enabled: Vec<&Skill> = set.skills.iter().filter(|s| s.enabled).collect();
    card.skills = enabled
        .iter()
        .map(|s| AgentSkill {
            id: s.id.clone(),
            name: s.name.clone(),
            description: s.description.clone(),
            tags: s.tags.clone(),
            examples: (!s.examples.is_empty()).then(|| s.examples.clone()),
            input_modes: None,
            output_modes: None,
            security_requirements: None,
        })
        .collect();
    let scope: Vec<_> = enabled
        .iter()
        .map(|s| json!({"id": s.id, "allowedScope": s.allowed_scope, "excluded": s.excluded}))
        .collect();
    let params = [("revision".to_string(), json!(revision)), ("skills".to_string(), json!(scope))];
    let ext = AgentExtension {
        uri: crate::SCOPE_EXTENSION_URI.into(),
        description: Some("per-skill allowed scope and exclusions, and the configuration revision".into()),
        required: Some(false),
        params: Some(params.into_iter().collect()),
    };
    let mut exts: Vec<AgentExtension> = card
        .capabilities
        .extensions
        .take()
        .unwrap_or_default()
        .into_iter()
        .filter(|e| e.uri != crate::SCOPE_EXTENSION_URI)
        .collect();
    exts.push(ext);
    card.capabilities.extensions = Some(exts);
    card
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn skill(id: &str, content: &str) -> Skill {
        Skill {
            id: id.into(),
            name: format!("Skill {id}"),
            description: "does things".into(),
            tags: vec!["thing".into()],
            examples: vec![],
            enabled: true,
            allowed_scope: vec![],
            excluded: vec![],
            answer_content: content.into(),
        }
    }

    #[test]
    fn validation_names_fields() {
        let mut set = SkillSet { skills: vec![skill("a", "x"), skill("a", "")] };
        set.skills[1].name = " ".into();
        set.skills[1].tags.clear();
        let errs = validate(&set, Rules { require_content: true }).unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert!(fields.contains(&"skills[1].id"), "{fields:?}");
        assert!(fields.contains(&"skills[1].name"));
        assert!(fields.contains(&"skills[1].tags"));
        assert!(fields.contains(&"skills[1].answerContent"));
        assert!(validate(&SkillSet { skills: vec![] }, Rules::default()).is_err());
        let mut bad_id = SkillSet { skills: vec![skill("Bad Id", "x")] };
        assert_eq!(validate(&bad_id, Rules::default()).unwrap_err()[0].field, "skills[0].id");
        bad_id.skills[0].id = "ok-1".into();
        assert!(validate(&bad_id, Rules::default()).is_ok());
    }

    #[test]
    fn disabled_library_skill_may_be_empty() {
        let mut set = SkillSet { skills: vec![skill("a", "")] };
        set.skills[0].enabled = false;
        assert!(validate(&set, Rules { require_content: true }).is_ok());
        set.skills[0].enabled = true;
        assert!(validate(&set, Rules { require_content: true }).is_err());
        assert!(validate(&set, Rules { require_content: false }).is_ok());
    }

    #[test]
    fn card_and_policy_come_from_the_same_set() {
        let identity = a2a::basic_card("Agent", "d", "http://127.0.0.1:1");
        let mut set = SkillSet { skills: vec![skill("on", "secret facts"), skill("off", "x")] };
        set.skills[1].enabled = false;
        let card = build_card(&identity, &set, 7);
        let policy = Policy::from_set(&set, 7);
        let card_ids: Vec<&str> = card.skills.iter().map(|s| s.id.as_str()).collect();
        let policy_ids: Vec<&str> = policy.skills.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(card_ids, vec!["on"]);
        assert_eq!(card_ids, policy_ids);
        let json = serde_json::to_string(&card).unwrap();
        assert!(!json.contains("secret facts"), "answer content never reaches the card");
        let ext = &card.capabilities.extensions.as_ref().unwrap()[0];
        assert_eq!(ext.uri, crate::SCOPE_EXTENSION_URI);
        assert_eq!(ext.required, Some(false));
        assert_eq!(ext.params.as_ref().unwrap()["revision"], 7);
    }
}
