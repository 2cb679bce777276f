use super::*;

fn skill(target: &str, id: &str, texts: &[&str]) -> Skill {
    Skill { target: target.into(), skill: id.into(), texts: texts.iter().map(|t| t.to_string()).collect() }
}

/// A small catalogue in the shape the Hub builds from cards.
fn training() -> Training {
    Training {
        skills: vec![
            skill(
                "tutor",
                "calculus",
                &[
                    "Calculus tutoring",
                    "derivative",
                    "integral",
                    "limit",
                    "chain rule",
                    "What is the derivative of x^2?",
                    "Integrate 3x^2 + 2x",
                    "How do I find the limit of sin(x)/x as x goes to 0?",
                    "Explain the chain rule with an example",
                    "Differentiate e^(2x)",
                    "how steep is the graph of x^3 at x = 1",
                ],
            ),
            skill(
                "library",
                "hours",
                &[
                    "Library hours",
                    "opening",
                    "When is the library open on Sunday?",
                    "What time does the library close tonight?",
                ],
            ),
            skill(
                "library",
                "printing",
                &[
                    "Printing",
                    "print",
                    "price",
                    "How much does colour printing cost?",
                    "How do I pay for printing?",
                ],
            ),
            skill(
                "library",
                "borrowing",
                &[
                    "Borrowing and renewals",
                    "renew",
                    "loan",
                    "How do I renew a book?",
                    "How long can I borrow a book?",
                ],
            ),
        ],
        out_of_scope: [
            "How do I fix my leaking sink?",
            "What's the weather tomorrow?",
            "Where can I buy a parking permit?",
            "Recommend a pizza place",
            "How do I change my meal plan?",
            "Balance this chemical equation",
            "Write my history essay for me",
            "What is a good marketing strategy for a new brand?",
            "How should a small shop set its prices?",
        ]
        .map(String::from)
        .to_vec(),
    }
}

fn verdict(m: &Model, q: &str) -> Verdict {
    m.decide(q).verdict
}

fn route(target: &str, skill: &str) -> Verdict {
    Verdict::Route { target: target.into(), skill: skill.into() }
}

#[test]
fn routes_by_what_the_skills_say() {
    let m = Model::train(&training());
    assert_eq!(m.targets(), ["tutor", "library"]);
    assert_eq!(verdict(&m, "what's the derivative of x^3 sin x"), route("tutor", "calculus"));
    assert_eq!(verdict(&m, "library open sunday?"), route("library", "hours"));
    assert_eq!(verdict(&m, "how much is it to print 10 pages"), route("library", "printing"));
    assert_eq!(verdict(&m, "can i renew my books online"), route("library", "borrowing"));
    assert_eq!(verdict(&m, "my sink is leaking again"), Verdict::OutOfScope);
}

#[test]
fn probabilities_are_a_distribution_over_targets_and_out_of_scope() {
    let m = Model::train(&training());
    let p = m.decide("integrate x^2");
    let labels: Vec<&str> = p.probabilities.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(labels, ["tutor", "library", OUT_OF_SCOPE]);
    let sum: f32 = p.probabilities.iter().map(|(_, v)| v).sum();
    assert!((sum - 1.0).abs() < 1e-4, "{sum}");
    assert_eq!(p.confidence, Some(p.probabilities[0].1));
    assert!(m.temperature() > 0.0);
}

#[test]
fn clarify_when_nothing_routable_is_said() {
    let m = Model::train(&training());
    for q in [
        "help",
        "I have a question",
        "can you help me with my homework?",
        "it's not working",
        "Ayúdame porfa",
    ] {
        assert_eq!(verdict(&m, q), Verdict::Clarify { options: vec![], why: Why::Vague }, "{q}");
        assert_eq!(m.decide(q).confidence, None);
    }
}

#[test]
fn clarify_when_two_topics_or_the_top_two_are_close() {
    let m = Model::train(&training());
    let v = verdict(&m, "Can you renew my books and also explain the chain rule?");
    assert_eq!(v, Verdict::Clarify { options: vec!["tutor".into(), "library".into()], why: Why::TwoTopics });
    // a margin of 1 makes every question too close to call
    let always = Model::train_with(&training(), Fit::default(), Rules { margin: 1.0, ..Rules::default() });
    assert!(matches!(verdict(&always, "integrate x^2"), Verdict::Clarify { why: Why::Close, .. }));
    let unsure =
        Model::train_with(&training(), Fit::default(), Rules { min_route: 1.01, ..Rules::default() });
    assert_eq!(
        verdict(&unsure, "integrate x^2"),
        Verdict::Clarify { options: vec!["tutor".into()], why: Why::Unsure }
    );
}

/// Negation and decoys: the word that would mislead a keyword match, and what is meant.
#[test]
fn negation_and_decoys() {
    let m = Model::train(&training());
    let table: &[(&str, Verdict)] = &[
        ("Not about printing: how do I integrate x^2?", route("tutor", "calculus")),
        ("I'm not asking about a derivative, when does the library close?", route("library", "hours")),
        ("No calculus today, just tell me how to renew a loan", route("library", "borrowing")),
        ("I don't get limits", route("tutor", "calculus")),
        // the main request is marked; the other is an aside
        (
            "I'll renew my books later, but mainly: what is the limit of 1/x as x grows?",
            route("tutor", "calculus"),
        ),
        ("Not a library thing: my sink is leaking", Verdict::OutOfScope),
        // pure decoys: a served subject's word, used for something nobody here serves
        ("What will the weather be for our picnic by the library tomorrow?", Verdict::OutOfScope),
        ("Write my history essay on the printing press for me", Verdict::OutOfScope),
        // … or for the other specialist
        ("How do I pay for printing my calculus notes?", route("library", "printing")),
        ("When is the library open so I can study derivatives?", route("library", "hours")),
    ];
    for (q, want) in table {
        assert_eq!(&verdict(&m, q), want, "{q}");
    }
}

/// Something was said, but no word of it appears in any skill or example: out of scope
/// by rule, whatever the regression's biases would say.
#[test]
fn out_of_scope_when_no_word_is_known() {
    let m = Model::train(&training());
    for q in ["qqq zzz xjx", "東京は今何時ですか", "Жду ответа"] {
        let p = m.decide(q);
        assert_eq!(p.verdict, Verdict::OutOfScope, "{q}");
        assert_eq!(p.confidence, None, "{q}: decided by the rule, not the model");
    }
    // one known word is enough for the model to read the question
    assert_ne!(m.decide("qqq derivative zzz").confidence, None);
}

/// Known generic words ("help", "can you") do not make unknown topics known, and a word
/// sharing a few character n-grams with known words by chance is still unknown; a
/// misspelling of a known word is recognized and routed.
#[test]
fn a_question_whose_topic_no_example_mentions_is_out_of_scope() {
    let m = Model::train(&training());
    for q in ["Can you help me glorp my blarfs?", "Can you help me file my taxes?", "help me with taxes"] {
        let p = m.decide(q);
        assert_eq!(p.verdict, Verdict::OutOfScope, "{q}");
        assert_eq!(p.confidence, None, "{q}: decided by the rule");
    }
    assert_eq!(verdict(&m, "whats the derivitive of x^3"), route("tutor", "calculus"));
    assert_eq!(verdict(&m, "how much does colour printng cost"), route("library", "printing"));
}

/// Out of scope as the likeliest label but not more likely than not: the student is
/// asked what they need instead of being turned away; at or above it, out of scope.
#[test]
fn an_unsure_out_of_scope_asks_instead() {
    let m = Model::train(&training());
    let asked = |rules: Rules, q: &str| {
        let mut m = m.clone();
        m.rules = rules;
        m.decide(q)
    };
    let q = "Recommend a pizza place near the library";
    let p = m.decide(q);
    let oos = p.probabilities.last().unwrap().1;
    let top = p.probabilities.iter().map(|(_, v)| *v).fold(0f32, f32::max);
    assert_eq!(oos, top, "{q}: out of scope is the likeliest label: {:?}", p.probabilities);
    let below = Rules { min_out_of_scope: oos + 0.01, ..Rules::default() };
    assert_eq!(asked(below, q).verdict, Verdict::Clarify { options: vec![], why: Why::Unsure });
    let at = Rules { min_out_of_scope: oos, ..Rules::default() };
    assert_eq!(asked(at, q).verdict, Verdict::OutOfScope);
}

#[test]
fn a_target_without_skills_cannot_be_predicted() {
    let mut t = training();
    t.skills.retain(|s| s.target != "library");
    let m = Model::train(&t);
    assert_eq!(m.targets(), ["tutor"]);
    for q in ["library opening hours", "how much does printing cost", "renew my book"] {
        assert!(!matches!(verdict(&m, q), Verdict::Route { ref target, .. } if target == "library"), "{q}");
    }
    let empty = Model::train(&Training { skills: vec![], out_of_scope: vec!["weather".into()] });
    assert_eq!(verdict(&empty, "integrate x^2"), Verdict::OutOfScope);
}

/// The same model over sentence embeddings (feature `embed`, model fetched by
/// `scripts/fetch-minilm.sh`, or at `EMBED_MODEL_DIR`; skipped with a line when it is not
/// there).
#[cfg(feature = "embed")]
mod embedded {
    use super::*;

    fn model() -> Option<Model> {
        Some(Model::train_embedded(&training(), crate::embed::tests::encoder()?).expect("trains"))
    }

    #[test]
    fn routes_by_meaning_and_keeps_the_rules() {
        let Some(m) = model() else { return };
        assert!(m.embedded());
        assert_eq!(m.targets(), ["tutor", "library"]);
        assert_eq!(verdict(&m, "what's the derivative of x^3 sin x"), route("tutor", "calculus"));
        assert_eq!(verdict(&m, "is the library open on sunday?"), route("library", "hours"));
        assert_eq!(verdict(&m, "can i renew my books online"), route("library", "borrowing"));
        assert_eq!(verdict(&m, "my kitchen sink is leaking again"), Verdict::OutOfScope);
        // the rules do not depend on the reading
        assert_eq!(verdict(&m, "I have a question"), Verdict::Clarify { options: vec![], why: Why::Vague });
        let v = verdict(&m, "Can you renew my books and also explain the chain rule?");
        assert!(matches!(v, Verdict::Clarify { why: Why::TwoTopics, .. }), "{v:?}");
        assert_eq!(verdict(&m, "Not about printing: how do I integrate x^2?"), route("tutor", "calculus"));
        let p = m.decide("integrate x^2");
        let sum: f32 = p.probabilities.iter().map(|(_, v)| v).sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
    }

    #[test]
    fn a_target_without_skills_cannot_be_predicted() {
        let Some(encoder) = crate::embed::tests::encoder() else { return };
        let mut t = training();
        t.skills.retain(|s| s.target != "library");
        let m = Model::train_embedded(&t, encoder).unwrap();
        for q in ["library opening hours", "how much does printing cost", "renew my book"] {
            assert!(
                !matches!(verdict(&m, q), Verdict::Route { ref target, .. } if target == "library"),
                "{q}"
            );
        }
    }
}

#[test]
fn a_skill_no_example_covers_still_reaches_its_target_through_its_siblings_words() {
    // borrowing is gone: a loan question shares only "library" and "book" with the
    // library's other skills, which the targets' regression reads as the library's
    let mut t = training();
    t.skills.retain(|s| s.skill != "borrowing");
    t.skills[1].texts.push("Is there a library book on calculus?".into());
    let m = Model::train(&t);
    let p = m.decide("how long may I keep a library book");
    let library = p.probabilities.iter().find(|(l, _)| l == "library").map(|(_, v)| *v).unwrap_or(0.0);
    let tutor = p.probabilities.iter().find(|(l, _)| l == "tutor").map(|(_, v)| *v).unwrap_or(0.0);
    assert!(library > tutor, "{:?}", p.probabilities);
    let sum: f32 = p.probabilities.iter().map(|(_, v)| v).sum();
    assert!((sum - 1.0).abs() < 1e-4, "{sum}");
}

#[test]
fn cross_validation_holds_out_sentences_only_and_scores_each_once() {
    let t = training();
    let sentences =
        |texts: &[String]| texts.iter().filter(|x| x.split_whitespace().count() >= cv::MIN_WORDS).count();
    let expected: usize =
        t.skills.iter().map(|s| sentences(&s.texts)).sum::<usize>() + sentences(&t.out_of_scope);
    let s = cv::cross_validate(&t, softmax::Fit::default(), Rules::default(), 4);
    assert_eq!(s.n, expected);
    assert!(s.correct + s.wrong_routes <= s.n);
    assert!(s.accuracy() > 0.5, "{s:?}");
    // only the library has several skills: each held out whole, its sentences scored
    let library: usize = t.skills.iter().filter(|k| k.target == "library").map(|k| sentences(&k.texts)).sum();
    assert_eq!(cv::leave_skill_out(&t, softmax::Fit::default(), Rules::default()).n, library);
}
