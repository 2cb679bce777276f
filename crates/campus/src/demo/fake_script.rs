//! The fake model server's script for `campus demo --fake-model`.

/// `campus fake-anthropic --demo-script` (what `demo --fake-model` runs): enough for live
/// mode to behave sensibly without a model. The live router sends library words to that
/// Library skill, calculus words to the Tutor, marketing words to the Professor, and asks
/// back otherwise; the Tutor's scope and answer checks pass; its answers and the
/// Professor's say they come from the fake.
pub(crate) fn fake_script() -> llm::fake::Script {
    use llm::fake::{FakeReply, FakeRule, Script, When};
    use serde_json::json;
    const ROUTER: &str = "You route a student's message";
    let route = |words: &[&str], agent: &str, skill: &str| -> Vec<FakeRule> {
        words
            .iter()
            .map(|w| FakeRule {
                when: When {
                    system_contains: Some(ROUTER.into()),
                    field: Some("/question".into()),
                    contains: Some((*w).into()),
                    ..When::default()
                },
                reply: FakeReply::json(json!({"decision": "route", "agent": agent, "skill": skill,
                "question": "", "reason": "the fake model's keyword rule"})),
            })
            .collect()
    };
    let system = |text: &str, reply: FakeReply| FakeRule {
        when: When { system_contains: Some(text.into()), ..When::default() },
        reply,
    };
    let mut rules: Vec<FakeRule> = Vec::new();
    rules.extend(route(&["print"], "library", "printing"));
    rules.extend(route(&["room"], "library", "study-rooms"));
    rules.extend(route(&["borrow", "renew", "loan"], "library", "borrowing"));
    rules.extend(route(&["hours", "open", "close"], "library", "library-hours"));
    rules.extend(route(&["find", "catalog", "book"], "library", "finding-items"));
    rules.extend(route(
        &["deriv", "integr", "limit", "calculus", "differentiat", "x^", "dx", "tutor"],
        "tutor",
        "calculus-tutoring",
    ));
    rules.extend(route(
        &["marketing", "segmentation", "targeting", "positioning", "brand", "pricing", "4 Ps"],
        "professor",
        professor::TOPICS_SKILL,
    ));
    rules.extend(route(&["syllabus", "office hours", "grading"], "professor", professor::COURSE_SKILL));
    rules.push(system(
        ROUTER,
        FakeReply::json(json!({"decision": "clarify", "agent": "", "skill": "",
            "question": "Is your question about calculus, the library or Marketing 101?", "reason": "no keyword rule matched"})),
    ));
    rules.push(system(
        "You classify one student request for a calculus tutor",
        FakeReply::json(
            json!({"decision": "in_scope", "skill_id": "calculus-tutoring", "clarifying_question": ""}),
        ),
    ));
    rules.push(system("You check a draft answer", FakeReply::json(json!({"verdict": "within_scope"}))));
    // form intent: a form when the words ask for one, else the usual answer
    let intent = |agent: &str, words: &[&str], workflow: &str| -> Vec<FakeRule> {
        words
            .iter()
            .map(|w| FakeRule {
                when: When {
                    system_contains: Some(format!("You decide what a student's message to {agent}")),
                    contains: Some((*w).into()),
                    ..When::default()
                },
                reply: FakeReply::json(json!({"decision": "offer_form", "workflow": workflow})),
            })
            .collect()
    };
    rules.extend(intent(
        "the Tutor",
        &["tutoring session", "human tutor", "in-person help"],
        "tutoring-request",
    ));
    rules.extend(intent("the Library", &["book a", "reserve", "booking"], "study-room-booking"));
    rules.push(system(
        "You decide what a student's message to",
        FakeReply::json(json!({"decision": "answer", "workflow": "none"})),
    ));
    // the fake knows no library content, so it can quote none: the Library's fixed reply
    rules.push(system(
        "You are the Library Agent",
        FakeReply::json(json!({"verdict": "not_covered", "skill_id": "", "answer": "", "evidence": []})),
    ));
    rules.push(system(
        "You are the Professor of Marketing 101",
        FakeReply::text(
            "This answer comes from the fake model server (campus fake-anthropic), not a real model: a live \
             Professor would answer from the Marketing 101 course pack.",
        ),
    ));
    rules.push(system(
        "You are a student's own assistant",
        FakeReply::json(json!({"decision": "pass", "capability": "", "question": "", "confident": false})),
    ));
    rules.push(FakeRule {
        when: When {
            system_contains: Some("You are the Tutor Agent".into()),
            contains: Some("x^2".into()),
            ..When::default()
        },
        reply: FakeReply::text(
            "The derivative of x^2 is 2x. By the power rule, d/dx x^n = n·x^(n-1); with n = 2 that gives \
             2·x^1 = 2x. (This answer comes from the fake model server, campus fake-anthropic, not a real model.)",
        ),
    });
    Script {
        rules,
        default: Some(FakeReply::text(
            "This demo runs against the fake model server (campus fake-anthropic), so there is no real answer \
             here: a live model would work through your question step by step.",
        )),
        ..Script::default()
    }
}
