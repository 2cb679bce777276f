//! One failing composition for each rule, refused with its code: over the blocks (what a
//! composer writes) and over the compiled messages (a surface tampered after the
//! compiler, as a broken compiler or a composer speaking A2UI would make it).

use serde_json::{Value, json};
use vocab::loans::ComposeCheck as C;

use super::*;

fn codes(errors: &[CheckError]) -> Vec<C> {
    errors.iter().map(|e| e.code).collect()
}

/// The codes `accept` refuses `blocks` with, asked `question`.
fn refused(question: &str, blocks: Vec<Block>) -> Vec<CheckError> {
    let loans = loans();
    let composition = Composition::Screen { title: "Your loans".into(), blocks };
    accept(&composition, &facts_for(&loans, question), TARGET).unwrap_err()
}

fn card(id: &str, renew: bool) -> Block {
    Block::LoanCard { loan_id: id.into(), renew }
}

fn picker(id: &str, initial: Option<Date>) -> Block {
    Block::ReturnDatePicker { loan_id: id.into(), label: "New return date".into(), initial }
}

fn notice(text: &str) -> Block {
    Block::Notice { text: text.into() }
}

#[test]
fn a_loan_id_that_is_not_the_borrowers_is_refused() {
    // one that does not exist, and another borrower's (the composer never sees theirs)
    for id in ["ln-nothing", "ln-history"] {
        let errors = refused("q", vec![Block::LoanList { loan_ids: vec![id.into()], order: None }]);
        assert_eq!((codes(&errors)[0], errors[0].path.as_str()), (C::UnknownLoan, "/blocks/0/loanIds/0"));
        assert_eq!(codes(&refused("q", vec![card(id, false)])), [C::UnknownLoan]);
    }
}

#[test]
fn a_renew_choice_or_a_picker_for_an_ineligible_loan_is_refused() {
    let errors =
        refused("renew the chemistry book", vec![card("ln-chemistry", true), picker("ln-chemistry", None)]);
    assert_eq!(codes(&errors), [C::NotRenewable, C::NotRenewable]);
    assert_eq!(errors[0].path, "/blocks/0/renew");
    assert_eq!(codes(&refused("q", vec![card("ln-calculus", true)])), [C::RenewWithoutPicker]);
    assert_eq!(
        codes(&refused("q", vec![card("ln-calculus", false), picker("ln-calculus", None)])),
        [C::PickerWithoutRenew]
    );
    let twice = vec![card("ln-calculus", true), picker("ln-calculus", None), picker("ln-calculus", None)];
    assert_eq!(codes(&refused("q", twice)), [C::DuplicateLoan]);
}

#[test]
fn a_preselected_date_outside_the_range_or_unsaid_is_refused() {
    // the due date itself is one day before the range
    let errors = refused("q", vec![card("ln-calculus", true), picker("ln-calculus", Some(date(2027, 1, 2)))]);
    assert_eq!((codes(&errors), errors[0].path.as_str()), (vec![C::InitialOutOfRange], "/blocks/1/initial"));
    // inside the range but said by no one
    let errors =
        refused("q", vec![card("ln-calculus", true), picker("ln-calculus", Some(date(2027, 1, 12)))]);
    assert_eq!(codes(&errors), [C::InventedDate]);
}

#[test]
fn a_date_neither_in_the_loans_nor_in_the_question_is_refused_and_one_said_is_not() {
    for text in ["Renew by January 4 to be safe.", "Your exam is on 1/4.", "See you on 2027-01-04."] {
        let errors = refused("when are my books due", vec![notice(text)]);
        assert_eq!(
            (codes(&errors), errors[0].path.as_str()),
            (vec![C::InventedDate], "/blocks/0/text"),
            "{text}"
        );
    }
    assert_eq!(codes(&refused("q", vec![notice("Due on February 30.")])), [C::InventedDate]);
    let loans = loans();
    let said =
        Composition::Screen { title: "Your exam".into(), blocks: vec![notice("Your exam is on January 4.")] };
    assert!(
        accept(&said, &facts_for(&loans, "my exam is on 2027-01-04, when are my books due"), TARGET).is_ok()
    );
}

#[test]
fn markdown_is_refused_wherever_text_is() {
    for text in
        ["**Due soon**", "# Loans", "use `renew`", "see [the desk](http://x)", "- one\n- two", "* one"]
    {
        assert_eq!(codes(&refused("q", vec![notice(text)])), [C::Markdown], "{text}");
    }
    let follow = Block::FollowUps {
        buttons: vec![FollowUp { label: "Renew".into(), request: "renew **it**".into() }],
    };
    let errors = refused("q", vec![follow]);
    assert_eq!((codes(&errors), errors[0].path.as_str()), (vec![C::Markdown], "/blocks/0/buttons/0/request"));
    let loans = loans();
    let facts = facts_for(&loans, "q");
    assert_eq!(
        codes(&check_composition(&Composition::Ask { question: "## which?".into() }, &facts)),
        [C::Markdown]
    );
}

#[test]
fn more_than_80_components_or_48_kb_is_refused() {
    let buttons =
        (0..40).map(|i| FollowUp { label: format!("Ask {i}"), request: "when are my books due".into() });
    let errors = refused("q", vec![Block::FollowUps { buttons: buttons.collect() }]);
    assert_eq!(codes(&errors), [C::TooManyComponents]);
    let errors = refused("q", vec![notice(&"A long line. ".repeat(4200))]);
    assert_eq!(codes(&errors), [C::TooLarge]);
}

/// The offline renew screen for the calculus book, compiled, and the checks of `change`d messages.
fn tampered(change: impl FnOnce(&mut Vec<Value>)) -> Vec<CheckError> {
    let mut messages = screen("renew the calculus book").messages;
    change(&mut messages);
    let loans = loans();
    check_surface(&messages, &facts_for(&loans, "renew the calculus book"))
}

fn component<'a>(messages: &'a mut [Value], id: &str) -> &'a mut Value {
    let list = messages[1]["updateComponents"]["components"].as_array_mut().unwrap();
    list.iter_mut().find(|c| c["id"] == id).unwrap()
}

#[test]
fn a_picker_bound_one_day_off_the_services_range_is_refused() {
    let errors = tampered(|m| component(m, "b1_date")["max"] = json!("2027-01-24"));
    assert_eq!(codes(&errors), [C::PickerRange]);
    assert_eq!(errors[0].path, "/1/updateComponents/components/8/max");
    let errors = tampered(|m| component(m, "b1_date")["min"] = json!("2027-01-02"));
    assert_eq!(codes(&errors), [C::PickerRange]);
    // a preselected date one day past the range
    let errors =
        tampered(|m| m[2]["updateDataModel"]["value"]["returnDate"]["ln-calculus"] = json!("2027-01-24"));
    assert_eq!(codes(&errors), [C::InitialOutOfRange]);
}

#[test]
fn a_button_for_an_unregistered_operation_or_with_other_inputs_is_refused() {
    let errors = tampered(|m| component(m, "b1_renew")["action"]["event"]["name"] = json!("delete_loan"));
    assert_eq!(
        (codes(&errors), errors[0].path.as_str()),
        (vec![C::OperationNotAllowed], "/1/updateComponents/components/10/action/event/name")
    );
    let errors = tampered(|m| component(m, "b1_renew")["action"]["event"]["context"]["version"] = json!(1));
    assert_eq!(codes(&errors), [C::OperationInputs]);
    let errors = tampered(|m| {
        component(m, "b1_renew")["action"]["event"]["context"]["loanId"] = json!("ln-chemistry")
    });
    assert_eq!(codes(&errors), [C::NotRenewable]);
    let errors =
        tampered(|m| component(m, "b1_renew")["action"]["event"]["context"]["loanId"] = json!("ln-history"));
    assert_eq!(codes(&errors), [C::UnknownLoan]);
    let errors = tampered(|m| {
        component(m, "b1_renew")["action"]["event"]["context"]["returnDate"] = json!("2027-01-10");
    });
    assert_eq!(codes(&errors), [C::OperationInputs]);
}

#[test]
fn a_dangling_reference_a_cycle_no_root_and_nesting_past_10_are_refused() {
    let errors = tampered(|m| component(m, "root")["children"].as_array_mut().unwrap().push(json!("ghost")));
    assert_eq!(
        (codes(&errors), errors[0].path.as_str()),
        (vec![C::DanglingReference], "/1/updateComponents/components/0/children/4")
    );
    let errors = tampered(|m| component(m, "b1_col")["children"].as_array_mut().unwrap().push(json!("b1")));
    assert_eq!(codes(&errors), [C::ReferenceCycle]);
    let errors = tampered(|m| component(m, "root")["id"] = json!("top"));
    assert_eq!(codes(&errors), [C::NoRoot]);
    let errors = tampered(|m| {
        let list = m[1]["updateComponents"]["components"].as_array_mut().unwrap();
        // root → b0 becomes root → n0 → … → n8 → b0: 11 deep
        for c in list.iter_mut().filter(|c| c["id"] == "root") {
            c["children"][1] = json!("n0");
        }
        for k in 0..9 {
            let next = if k == 8 { "b0".to_string() } else { format!("n{}", k + 1) };
            list.push(json!({"id": format!("n{k}"), "component": "Column", "children": [next]}));
        }
    });
    assert_eq!(codes(&errors), [C::TooDeep]);
}

#[test]
fn what_the_compiler_never_draws_is_refused_by_the_allowlist_and_the_schema() {
    let errors = tampered(|m| {
        component(m, "b0")["component"] = json!("Image");
        component(m, "b0")["url"] = json!("http://x");
    });
    assert!(codes(&errors).contains(&C::NotAllowed), "{errors:?}");
    let errors = tampered(|m| m[0]["version"] = json!("v0.8"));
    assert_eq!(codes(&errors), [C::SchemaInvalid]);
    let errors = tampered(|m| component(m, "b0")["text"] = json!("**Renew now**"));
    assert_eq!(codes(&errors), [C::Markdown]);
}

#[test]
fn words_that_give_a_named_loan_another_loans_date_the_wrong_eligibility_or_a_false_count_are_refused() {
    let q = "when are my books due";
    for text in [
        // the statistics book's due date beside the calculus book
        "Calculus in Motion is due on 2027-01-09.",
        // a held loan called renewable, a renewable one called not
        "Organic Chemistry Step by Step can be renewed now.",
        "Calculus in Motion cannot be renewed.",
        // counts the data does not give
        "You have 5 loans.",
        "Statistics for the Curious has 0 renewals left.",
        "Marketing Basics is due in 3 days.",
        // the loans named as people name them
        "Your chemistry book can be renewed now.",
        "The chemistry book is due January 2.",
        "Your calculus book is due 2027-01-09.",
        "The physics book is renewable until 2027-01-02.",
        "Calculus in Motion has been renewed 2 times.",
        "Calculus in Motion is due in 7 days.",
        "All your books are due 2027-01-02.",
        // eligibility said other ways, and per loan in one sentence
        "Your chemistry book can still be renewed.",
        "You are able to renew your chemistry book.",
        "Good news: the chemistry book is eligible to be renewed.",
        "Renewing your chemistry book is possible.",
        "Calculus in Motion cannot be renewed, but Organic Chemistry Step by Step can be renewed.",
        "Organic Chemistry Step by Step and Calculus in Motion can both be renewed.",
        // days said in words (today is Thursday 2026-12-24; chemistry is due Tuesday 12-29)
        "Your chemistry book is due tomorrow.",
        "Your chemistry book is due on Saturday.",
        "Your chemistry book is due in a week.",
        "Everything is due 2027-01-02.",
        // counts of what they count
        "Three of your books are overdue.",
        "You have 3 overdue books.",
        "Only one of your books can be renewed.",
        "Two of your books have holds.",
        // said of every loan at once, of only some, or of one as overdue
        "None of your books can be renewed.",
        "You can't renew any of your books.",
        "You cannot renew anything right now.",
        "Nothing you have out can be renewed.",
        "You have no renewable books.",
        "Your books are due January 2.",
        "Your loans are all due on January 2.",
        "All six books are due on January 2.",
        "Only Calculus in Motion can be renewed.",
        "Only the calculus book can be renewed.",
        "Organic Chemistry Step by Step is overdue.",
        "The statistics book has been renewed twice.",
        "Renew the chemistry book by pressing Renew below.",
    ] {
        let errors = refused(q, vec![notice(text)]);
        assert!(
            !errors.is_empty() && codes(&errors).iter().all(|c| *c == C::MismatchedFact),
            "{text}: {errors:?}"
        );
        assert_eq!(errors[0].path, "/blocks/0/text", "{text}");
    }
    // what the service says passes: each loan's own dates, its eligibility, true counts
    let loans = loans();
    for text in [
        "Calculus in Motion is due on 2027-01-02 and can be renewed until 2027-01-23.",
        "Organic Chemistry Step by Step cannot be renewed: another borrower has placed a hold on it.",
        "You have 6 loans, 3 of them renewable now; 2 marketing books.",
        "Statistics for the Curious has 1 renewal left. Marketing Research Methods was renewed 2 times.",
        "Calculus in Motion is due in 9 days.",
        "Your chemistry book is due 2026-12-29 and cannot be renewed.",
        "The calculus book can be renewed up to 2 times, up to 21 days after its due date.",
        "Statistics for the Curious: 1 of 2 renewals used.",
        "Your chemistry book is due on Tuesday and cannot be renewed, but the calculus book can be.",
        "Three of your books can be renewed; one has a hold.",
        "Marketing Research Methods cannot be renewed: it has been renewed 2 times, the most a loan can be.",
        "Your chemistry book is due in 5 days.",
        "You have six books out; three of them can be renewed.",
        "Your books are listed below, soonest due first.",
        "The statistics book has been renewed once.",
        "Organic Chemistry Step by Step is not overdue.",
        "Renew the calculus book by pressing Renew below.",
    ] {
        let said = Composition::Screen { title: "Your loans".into(), blocks: vec![notice(text)] };
        assert_eq!(accept(&said, &facts_for(&loans, q), TARGET).err(), None, "{text}");
    }
    // a number the student said may be said back
    let said = Composition::Answer { text: "You asked about 4 books.".into() };
    assert!(accept(&said, &facts_for(&loans, "I have 4 books, when are they due?"), TARGET).is_ok());
}

#[test]
fn empty_words_are_refused_wherever_text_is() {
    assert_eq!(codes(&refused("q", vec![notice(" ")])), [C::Empty]);
    let loans = loans();
    let facts = facts_for(&loans, "q");
    for empty in [Composition::Answer { text: String::new() }, Composition::Ask { question: "\n".into() }] {
        let errors = accept(&empty, &facts, TARGET).unwrap_err();
        assert_eq!(codes(&errors), [C::Empty], "{empty:?}");
    }
    let no_blocks = Composition::Screen { title: "Your loans".into(), blocks: vec![] };
    assert_eq!(codes(&accept(&no_blocks, &facts, TARGET).unwrap_err()), [C::Empty]);
}
