//! The offline screens for each kind of question pass every check, the official schema
//! and the Student's allowlist; the block schema is one the provider accepts; the repair
//! loop stops after two repairs and keeps a fixed composition. Each rule's refusal is in
//! `tests/rules.rs`.

mod catalog;
mod rules;

use jiff::civil::{Date, date};
use serde_json::{Value, json};
use store::loans::Loan;
use vocab::loans::{ComposeCheck, DEMO_STUDENT_ID};

use super::*;
use crate::loans::{LoanFacts, facts, sample};

/// Thursday 24 December 2026.
const TODAY: Date = date(2026, 12, 24);
const SURFACE: &str = "loans-1";

/// The demo student's six loans on the day the sample was made.
fn loans() -> Vec<LoanFacts> {
    let mut loans: Vec<LoanFacts> = sample(TODAY)
        .into_iter()
        .filter(|l| l.borrower == DEMO_STUDENT_ID)
        .filter_map(|loan| facts(&Loan { loan, version: 1 }, TODAY))
        .collect();
    loans.sort_by_key(|l| l.due);
    loans
}

fn facts_for<'a>(loans: &'a [LoanFacts], question: &'a str) -> Facts<'a> {
    Facts { loans, question, today: TODAY }
}

const TARGET: Target<'static> = Target { surface_id: SURFACE, version: 1 };

/// The offline composer's answer to `question`, accepted.
fn offline(question: &str) -> Composed {
    let loans = loans();
    let facts = facts_for(&loans, question);
    let composition = compose_offline(&facts);
    match accept(&composition, &facts, TARGET) {
        Ok(done) => done,
        Err(errors) => panic!("{question}: {errors:?} for {composition:?}"),
    }
}

fn screen(question: &str) -> Surface {
    match offline(question) {
        Composed::Screen(s) => s,
        other => panic!("{question}: a screen, not {other:?}"),
    }
}

fn components(s: &Surface) -> &Vec<Value> {
    s.messages[1]["updateComponents"]["components"].as_array().unwrap()
}

fn of_type<'a>(s: &'a Surface, kind: &str) -> Vec<&'a Value> {
    components(s).iter().filter(|c| c["component"] == kind).collect()
}

fn texts(s: &Surface) -> Vec<&str> {
    of_type(s, "Text").iter().filter_map(|c| c["text"].as_str()).collect()
}

/// What every accepted screen must also be: valid against the official schema, allowed
/// by the Student's allowlist for composed screens, and clean by the surface rules.
fn sendable(s: &Surface, question: &str) {
    a2ui::validate_server_messages(&s.messages).unwrap();
    a2ui::check_payload(&POLICY, &s.messages).unwrap();
    let loans = loans();
    assert_eq!(check_surface(&s.messages, &facts_for(&loans, question)), vec![]);
}

#[test]
fn the_block_schema_is_one_the_provider_accepts_and_holds_the_offline_compositions() {
    let schema = llm::Schema::new(schema()).expect("structured output accepts it");
    let loans = loans();
    for question in ["when are my books due", "renew the calculus book", "renew the marketing book"] {
        let c = compose_offline(&facts_for(&loans, question));
        let value = serde_json::to_value(&c).unwrap();
        assert!(schema.accepts(&value), "{value}");
        assert_eq!(parse(&value), Ok(c));
    }
    // a field outside the blocks is refused by the schema and by the types, at its block
    let extra = json!({"decision": "screen", "title": "T", "blocks": [
        {"type": "notice", "text": "hello", "component": "Image"}]});
    assert!(!schema.accepts(&extra));
    let err = parse(&extra).unwrap_err();
    assert_eq!((err.code, err.path.as_str()), (ComposeCheck::BlocksInvalid, "/blocks/0"), "{err}");
    assert!(err.message.contains("unknown field 'component'"), "{err}");
    let unknown = json!({"decision": "screen", "title": "T", "blocks": [{"type": "image", "url": "x"}]});
    assert!(!schema.accepts(&unknown) && parse(&unknown).is_err());
}

#[test]
fn when_are_my_books_due_is_every_loan_as_a_card_soonest_first_labelled_offline() {
    let q = "when are my books due";
    let s = screen(q);
    sendable(&s, q);
    let t = texts(&s);
    assert!(t.iter().any(|t| t.starts_with("Offline Library (no model): from the loan service")), "{t:?}");
    let titles: Vec<&str> = of_type(&s, "Text")
        .iter()
        .filter(|c| c["variant"] == "h4")
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    let by_due: Vec<String> = loans().iter().map(|l| l.title.clone()).collect();
    assert_eq!(titles, by_due);
    assert_eq!(of_type(&s, "Card").len(), 6);
    assert!(
        t.contains(&"Due 2026-12-29 (Tuesday). Not renewable: another borrower has placed a hold on it.")
    );
    assert!(of_type(&s, "DateTimeInput").is_empty(), "no picker without a loan to renew");
    // a follow-up per renewable loan (soonest first), then Close
    let names: Vec<(&str, &str)> = s.buttons.iter().map(|(id, n)| (id.as_str(), n.as_str())).collect();
    assert_eq!(
        names,
        [("b2_0", "follow_up"), ("b2_1", "follow_up"), ("b2_2", "follow_up"), ("close", "cancel_form")]
    );
    let first = components(&s).iter().find(|c| c["id"] == "b2_0").unwrap();
    assert_eq!(
        first["action"]["event"]["context"],
        json!({"request": "Renew Calculus in Motion", "formVersion": 1})
    );
    // the same question gives the same messages
    assert_eq!(screen(q), s);
}

#[test]
fn renew_the_calculus_book_is_its_card_with_a_picker_bounded_by_the_service() {
    for q in ["renew the calculus book", "Renew Calculus in Motion"] {
        let s = screen(q);
        sendable(&s, q);
        let [picker] = of_type(&s, "DateTimeInput")[..] else { panic!("one picker") };
        assert_eq!(
            (picker["min"].as_str(), picker["max"].as_str()),
            (Some("2027-01-03"), Some("2027-01-23"))
        );
        assert_eq!(picker["value"], json!({"path": "/form/returnDate/ln-calculus"}));
        let renew = components(&s).iter().find(|c| c["id"] == "b1_renew").unwrap();
        assert_eq!(
            renew["action"]["event"],
            json!({"name": "renew_loan", "context": {"loanId": "ln-calculus",
                "returnDate": {"path": "/form/returnDate/ln-calculus"}, "formVersion": 1}})
        );
        assert_eq!(s.renewing, [("ln-calculus".to_string(), 1)]);
        assert_eq!(s.messages[2]["updateDataModel"]["value"], json!({"returnDate": {"ln-calculus": ""}}));
    }
}

#[test]
fn a_date_the_student_said_is_preselected_when_in_range_and_explained_when_not() {
    let q = "Can I keep the calculus book until January 20?";
    let s = screen(q);
    sendable(&s, q);
    assert_eq!(
        s.messages[2]["updateDataModel"]["value"],
        json!({"returnDate": {"ln-calculus": "2027-01-20"}})
    );
    let q = "renew the calculus book until February 1";
    let s = screen(q);
    sendable(&s, q);
    assert_eq!(s.messages[2]["updateDataModel"]["value"], json!({"returnDate": {"ln-calculus": ""}}));
    assert!(
        texts(&s).iter().any(|t| t.contains("the date you asked for, 2027-02-01, is outside")),
        "{:?}",
        texts(&s)
    );
}

#[test]
fn an_ineligible_loan_gets_its_card_saying_why_and_no_renew_choice() {
    for (q, why) in [
        ("renew the chemistry book", "another borrower has placed a hold on it"),
        ("can I renew marketing research methods", "it has been renewed 2 times, the most a loan can be"),
        ("extend the physics book", "it is a course-reserve copy"),
    ] {
        let s = screen(q);
        sendable(&s, q);
        // the card says why, in the service's words; the offline notice states nothing
        let t = texts(&s);
        assert!(t.iter().any(|t| *t == format!("Not renewable: {why}.")), "{q}: {t:?}");
        assert!(t.contains(&"Offline Library (no model): from the loan service."), "{q}");
        assert!(of_type(&s, "DateTimeInput").is_empty(), "{q}");
        assert!(s.buttons.iter().all(|(_, n)| n != "renew_loan") && s.renewing.is_empty(), "{q}");
    }
}

#[test]
fn the_marketing_book_is_one_question_naming_both() {
    let Composed::Ask(question) = offline("renew the marketing book") else { panic!("a question") };
    assert_eq!(
        question,
        "Offline Library (no model): which one do you mean?\n- Marketing Basics\n- Marketing Research Methods"
    );
    let Composed::Screen(s) = offline("renew marketing basics") else { panic!("naming it is a screen") };
    assert_eq!(s.renewing, [("ln-marketing-basics".to_string(), 1)]);
}

#[test]
fn no_loans_is_an_answer_in_words() {
    let facts = facts_for(&[], "when are my books due");
    let done = accept(&compose_offline(&facts), &facts, TARGET).unwrap();
    assert_eq!(
        done,
        Composed::Answer(
            "Offline Library (no model): what the loan service has for you.\nThe loan service has no loans on record for you."
                .into()
        )
    );
}

/// A composition with a date found nowhere in the facts.
fn invented() -> Composition {
    Composition::Screen {
        title: "Your loans".into(),
        blocks: vec![Block::Notice { text: "See you on 2027-01-04.".into() }],
    }
}

#[tokio::test]
async fn the_repair_loop_stops_after_two_repairs_with_the_last_errors() {
    let loans = loans();
    let facts = facts_for(&loans, "when are my books due");
    let mut seen: Vec<Vec<CheckError>> = Vec::new();
    let result = compose_checked(
        &facts,
        TARGET,
        |errors: Vec<CheckError>| {
            seen.push(errors);
            std::future::ready(Step::Composed(invented()))
        },
        MAX_REPAIRS,
    )
    .await;
    assert_eq!(result.repairs(), MAX_REPAIRS);
    assert_eq!(result.attempts.len(), seen.len());
    let errors = result.outcome.unwrap_err();
    assert_eq!(seen.len(), 1 + MAX_REPAIRS, "the first attempt and two repairs");
    assert!(seen[0].is_empty(), "the first attempt has no errors to repair");
    assert_eq!(seen[1], errors, "each repair is given the errors of the attempt before");
    assert_eq!(errors.iter().map(CheckError::code).collect::<Vec<_>>(), ["invented_date"]);
    assert_eq!(errors[0].path, "/blocks/0/text");
    // the honest reply: the facts in words, saying no screen was drawn
    let text = unrepaired_text(&loans, TODAY);
    assert!(
        text.starts_with("I could not draw a screen for this that passes the Library's checks"),
        "{text}"
    );
    assert!(text.contains("Calculus in Motion (Ines Okafor, loan ln-calculus): due 2027-01-02 (Saturday)."));
}

#[tokio::test]
async fn a_repair_that_fixes_the_errors_is_accepted_and_an_unreadable_reply_is_an_attempt() {
    let loans = loans();
    let facts = facts_for(&loans, "when is the calculus book due");
    let mut attempts = 0;
    let result = compose_checked(
        &facts,
        TARGET,
        |errors: Vec<CheckError>| {
            attempts += 1;
            std::future::ready(match attempts {
                1 => match parse(&json!({"decision": "screen", "title": "T"})) {
                    Ok(c) => Step::Composed(c),
                    Err(e) => Step::Unreadable(e),
                },
                2 => {
                    assert_eq!(errors[0].code, ComposeCheck::BlocksInvalid, "{errors:?}");
                    Step::Composed(invented())
                }
                _ => {
                    assert_eq!(errors[0].code, ComposeCheck::InventedDate);
                    Step::Composed(Composition::Answer {
                        text: "Here is what the loan service has.".into(),
                        loan_ids: vec!["ln-calculus".into()],
                    })
                }
            })
        },
        MAX_REPAIRS,
    )
    .await;
    let Ok((_, Composed::Answer(text))) = result.outcome else { panic!("answered: {:?}", result.outcome) };
    assert!(text.starts_with("Here is what the loan service has.\n- Calculus in Motion"), "{text}");
    assert_eq!(attempts, 3);
    let codes: Vec<Vec<&str>> =
        result.attempts.iter().map(|a| a.iter().map(CheckError::code).collect()).collect();
    assert_eq!(
        codes,
        [vec!["blocks_invalid"], vec!["invented_date"], vec![]],
        "each attempt's errors, in order"
    );
}

#[test]
fn a_question_naming_one_of_the_loans_with_any_form_of_renew_is_about_that_loan() {
    let loans = loans();
    for q in [
        "can my chemistry book be renewed?",
        "is my calculus book renewable?",
        "renewing the statistics book",
    ] {
        assert!(super::mock::asks_to_renew_one_of(&loans, q), "{q}");
    }
    assert!(!super::mock::asks_to_renew_one_of(&loans, "how many times can a book be renewed?"));
}
