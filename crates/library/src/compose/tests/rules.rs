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
    // inside the range and a date of the loan data, but another loan's (statistics' first)
    let errors =
        refused("q", vec![card("ln-calculus", true), picker("ln-calculus", Some(date(2027, 1, 10)))]);
    assert_eq!(codes(&errors), [C::InventedDate]);
    // said by the student: preselected
    let loans = loans();
    let said = Composition::Screen {
        title: "Your loan".into(),
        blocks: vec![card("ln-calculus", true), picker("ln-calculus", Some(date(2027, 1, 10)))],
    };
    assert!(accept(&said, &facts_for(&loans, "renew it until 2027-01-10"), TARGET).is_ok());
}

#[test]
fn a_date_neither_in_the_loans_nor_in_the_question_is_refused_and_one_said_is_not() {
    for text in ["Come by on January 4.", "Your exam is on 1/4.", "See you on 2027-01-04."] {
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
        ["**Note**", "# Note", "use `the button`", "see [the desk](http://x)", "- one\n- more", "* note"]
    {
        assert_eq!(codes(&refused("q", vec![notice(text)])), [C::Markdown], "{text}");
    }
    let follow = Block::FollowUps {
        buttons: vec![FollowUp { label: "Renew".into(), request: "renew **Calculus in Motion**".into() }],
    };
    let errors = refused("q", vec![follow]);
    assert_eq!((codes(&errors), errors[0].path.as_str()), (vec![C::Markdown], "/blocks/0/buttons/0/request"));
    let loans = loans();
    let facts = facts_for(&loans, "q");
    assert_eq!(
        codes(&check_composition(
            &Composition::Ask { question: "## which?".into(), loan_ids: vec![] },
            &facts
        )),
        [C::Markdown]
    );
}

#[test]
fn more_than_80_components_or_48_kb_is_refused() {
    let buttons =
        (0..40).map(|_| FollowUp { label: "Ask again".into(), request: "when are my books due".into() });
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
fn a_composers_words_state_no_loan_fact_true_or_false() {
    let q = "when are my books due";
    for text in [
        // dates, written or said as days (today is Thursday 2026-12-24)
        "Calculus in Motion is due on 2027-01-09.",
        "Calculus in Motion is due on 2027-01-02.",
        "The chemistry book is due January 2.",
        "Your chemistry book is due tomorrow.",
        "Your chemistry book is due on Saturday.",
        "Your chemistry book is due in a week.",
        "Everything is due 2027-01-02.",
        "Your books are due January 2.",
        // eligibility, false and true, however it is said
        "Organic Chemistry Step by Step can be renewed now.",
        "Calculus in Motion can be renewed.",
        "Calculus in Motion cannot be renewed.",
        "Your chemistry book can still be renewed.",
        "You are able to renew your chemistry book.",
        "Good news: the chemistry book is eligible to be renewed.",
        "Renewing your chemistry book is possible.",
        "Calculus in Motion cannot be renewed, but Organic Chemistry Step by Step can be renewed.",
        "You can renew the calculus book.",
        "Go ahead and renew it.",
        "Renew the chemistry book by pressing Renew below.",
        "Press Renew for the calculus book.",
        "You may keep the calculus book longer.",
        "The chemistry book has a hold.",
        "Organic Chemistry Step by Step is overdue.",
        "Organic Chemistry Step by Step is not overdue.",
        "The statistics book has been renewed twice.",
        "Principles of Marketing is a course reserve copy.",
        "You'd owe a fine if it were late.",
        // counts, false and true, and claims about every loan or only some
        "You have 5 loans.",
        "You have 6 loans.",
        "You have six books out.",
        "Statistics for the Curious has 0 renewals left.",
        "Marketing Basics is due in 3 days.",
        "Two of your books have holds.",
        "None of your books can be renewed.",
        "Nothing you have out can be changed.",
        "You have no books to worry about.",
        "All your books are fine.",
        "Only the calculus book is fine.",
        "Both marketing books are yours.",
        // the campus's other languages
        "Tu libro de química no se puede renovar.",
        "Le livre de chimie ne peut pas être prolongé.",
        "Das Chemiebuch ist überfällig.",
        "Tienes 3 libros.",
        // the loan named or pointed at, whatever is said of it (an independent check's)
        "Someone else has asked for Calculus in Motion.",
        "Calculus in Motion is wanted by another reader.",
        "Calculus in Motion is blocked.",
        "You cannot get more time on Calculus in Motion.",
        "Marketing Research Methods has used up its chances.",
        "You can have Calculus in Motion for another month.",
        "Someone else has asked for it.",
        "That one is blocked.",
        "Physics for Engineers can go out again after you bring it back.",
        "You are in good standing with Calculus in Motion.",
        // times said without a date
        "Your deadline is at the end of next month.",
        "Due this weekend.",
        "Due in a fortnight.",
        "Due next year.",
        "Due on Christmas.",
        "No action needed until January.",
        "Nothing to worry about.",
        "Everything is in order.",
        "Your books are all in good standing.",
        "Vous n'avez rien à rendre.",
        "Nada que devolver.",
        "No action needed.",
        "Due on the thirtieth.",
        "Due on the 30th.",
        "Due on New Year's Eve.",
        "Due on Hanukkah.",
        // an order is the compiler's (an independent check's)
        "Sorted by due date.",
        "Soonest due first.",
    ] {
        let errors = refused(q, vec![notice(text)]);
        assert!(
            !errors.is_empty() && codes(&errors).iter().all(|c| *c == C::StatedFact),
            "{text}: {errors:?}"
        );
        assert_eq!(errors[0].path, "/blocks/0/text", "{text}");
    }
    // words that frame the cards, naming loans or not, pass
    let loans = loans();
    for text in [
        "Here is what the loan service has.",
        "Choose a new return date and press Renew.",
        "Pick a date, then select Renew.",
        "Ask at the service desk if something looks wrong.",
        "Esto es lo que tiene el servicio.",
    ] {
        let said = Composition::Screen { title: "Your loans".into(), blocks: vec![notice(text)] };
        assert_eq!(accept(&said, &facts_for(&loans, q), TARGET).err(), None, "{text}");
    }
    // a number or a date the student said may be said back
    let said = Composition::Answer { text: "You asked about 4.".into(), loan_ids: vec![] };
    assert!(accept(&said, &facts_for(&loans, "I have 4 books, when are they due?"), TARGET).is_ok());
    let said = Composition::Screen {
        title: "Your loan".into(),
        blocks: vec![notice("The date you asked for, 2027-02-20, is outside the range on the card.")],
    };
    assert_eq!(accept(&said, &facts_for(&loans, "renew it until 2027-02-20"), TARGET).err(), None);
    // the screen's title and a picker's label are the composer's words too
    for title in ["Due 2027-01-02", "Your calculus loan", "Calculus in Motion"] {
        let titled = Composition::Screen { title: title.into(), blocks: vec![card("ln-calculus", false)] };
        assert_eq!(
            codes(&accept(&titled, &facts_for(&loans, q), TARGET).unwrap_err()),
            [C::StatedFact],
            "{title}"
        );
    }
    for title in ["Your loans", "Your loan", "Tus préstamos"] {
        let titled = Composition::Screen { title: title.into(), blocks: vec![card("ln-calculus", false)] };
        assert!(accept(&titled, &facts_for(&loans, q), TARGET).is_ok(), "{title}");
    }
    let labelled = vec![
        card("ln-calculus", true),
        Block::ReturnDatePicker {
            loan_id: "ln-calculus".into(),
            label: "Renewable until 23 January".into(),
            initial: None,
        },
    ];
    assert!(codes(&refused(q, labelled)).contains(&C::StatedFact));
}

#[test]
fn a_words_answer_gets_the_facts_of_the_loans_it_names_by_rule() {
    let loans = loans();
    let facts = facts_for(&loans, "when is my calculus book due?");
    let said = Composition::Answer {
        text: "Here is what the loan service has.".into(),
        loan_ids: vec!["ln-calculus".into(), "ln-calculus".into()],
    };
    let Ok(Composed::Answer(text)) = accept(&said, &facts, TARGET) else { panic!("accepted") };
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0], "Here is what the loan service has.");
    assert!(lines[1].contains("Calculus in Motion") && lines[1].contains("2027-01-02"), "{text}");
    // a loan that is not the borrower's
    let other =
        Composition::Answer { text: "From the loan service.".into(), loan_ids: vec!["ln-history".into()] };
    let errors = accept(&other, &facts, TARGET).unwrap_err();
    assert_eq!((codes(&errors), errors[0].path.as_str()), (vec![C::UnknownLoan], "/loanIds/0"));
    // a words answer stating a fact itself
    let stated = Composition::Answer { text: "It is due 2027-01-02.".into(), loan_ids: vec![] };
    let errors = accept(&stated, &facts, TARGET).unwrap_err();
    assert!(codes(&errors).iter().all(|c| *c == C::StatedFact) && errors.len() == 2, "{errors:?}");
    // the false hold an independent check had accepted, as an answer and as a question
    for text in ["Someone else has asked for Calculus in Motion.", "Calculus in Motion is blocked."] {
        let answer = Composition::Answer { text: text.into(), loan_ids: vec!["ln-calculus".into()] };
        let only_stated = |c: &Composition| {
            let errors = accept(c, &facts, TARGET).unwrap_err();
            !errors.is_empty() && codes(&errors).iter().all(|c| *c == C::StatedFact)
        };
        assert!(only_stated(&answer), "{text}");
        let ask = Composition::Ask { question: text.into(), loan_ids: vec![] };
        assert!(only_stated(&ask), "{text}");
    }
    // a question asks between loans it lists by id: their titles follow it by rule
    let which = Composition::Ask {
        question: "Which one do you mean?".into(),
        loan_ids: vec!["ln-marketing-basics".into(), "ln-marketing-research".into()],
    };
    let Ok(Composed::Ask(asked)) = accept(&which, &facts, TARGET) else { panic!("asked") };
    assert_eq!(asked, "Which one do you mean?\n- Marketing Basics\n- Marketing Research Methods");
    // a borrower with no loans is told so by rule
    let none = facts_for(&[], "when are my books due?");
    let said = Composition::Answer { text: "From the loan service.".into(), loan_ids: vec![] };
    let Ok(Composed::Answer(text)) = accept(&said, &none, TARGET) else { panic!("accepted") };
    assert!(text.ends_with("The loan service has no loans on record for you."), "{text}");
}

#[test]
fn a_follow_up_that_renews_a_loan_that_cannot_be_renewed_is_refused() {
    let follow = |label: &str, request: &str| Block::FollowUps {
        buttons: vec![FollowUp { label: label.into(), request: request.into() }],
    };
    let errors =
        refused("q", vec![follow("Renew the chemistry book", "Renew Organic Chemistry Step by Step")]);
    assert_eq!(
        (codes(&errors), errors[0].path.as_str()),
        (vec![C::NotRenewable], "/blocks/0/buttons/0/request")
    );
    assert_eq!(codes(&refused("q", vec![follow("Ask", "extend my chemistry book")])), [C::NotRenewable]);
    // an offer on a loan that cannot be renewed, however it is worded, or a renewal of no
    // loan in particular (an independent check's)
    for (label, request) in [
        ("Extend Physics for Engineers", "Extend Physics for Engineers"),
        ("Get more time on Physics for Engineers", "Give me more time on Physics for Engineers"),
        ("Physics for Engineers: renew", "Physics for Engineers renew it"),
        ("Renew", "renew the physics book"),
        ("More time", "renew the physics one"),
        ("Renew the physics one", "tell me about physics"),
        ("Renew the reserve", "Renew the reserve copy"),
        ("Renew my loans", "renew all my loans"),
        ("Renew Physics for Engineers?", "Renew Physics for Engineers?"),
        ("Renew Calculus in Motion", "Renew Statistics for the Curious"),
        ("Why can't I renew Calculus in Motion?", "Why can't I renew Calculus in Motion?"),
        ("Chemistry: go for it", "Renew Organic Chemistry Step by Step?"),
    ] {
        assert!(codes(&refused("q", vec![follow(label, request)])).contains(&C::NotRenewable), "{label}");
    }
    // renewing a renewable one is an offer the service takes; asking about a held one is a question
    let loans = loans();
    for (label, request) in [
        ("Renew Calculus in Motion", "Renew Calculus in Motion"),
        ("Why can't I renew the chemistry book?", "why can't I renew the chemistry book?"),
    ] {
        let said = Composition::Screen { title: "Your loans".into(), blocks: vec![follow(label, request)] };
        assert_eq!(accept(&said, &facts_for(&loans, "q"), TARGET).err(), None, "{label}");
    }
    // a label's own claims: an order, a loan pointed at (an independent check's)
    for label in [
        "Calculus in Motion — someone else needs it back",
        "Calculus in Motion is due first",
        "Statistics for the Curious is due before Marketing Basics",
    ] {
        let said = Composition::Screen {
            title: "Your loans".into(),
            blocks: vec![follow(label, "when is my calculus book due?")],
        };
        let errors = accept(&said, &facts_for(&loans, "q"), TARGET).unwrap_err();
        assert!(codes(&errors).contains(&C::StatedFact), "{label}: {errors:?}");
    }
}

#[test]
fn empty_words_are_refused_wherever_text_is() {
    assert_eq!(codes(&refused("q", vec![notice(" ")])), [C::Empty]);
    let loans = loans();
    let facts = facts_for(&loans, "q");
    for empty in [
        Composition::Answer { text: String::new(), loan_ids: vec![] },
        Composition::Ask { question: "\n".into(), loan_ids: vec![] },
    ] {
        let errors = accept(&empty, &facts, TARGET).unwrap_err();
        assert_eq!(codes(&errors), [C::Empty], "{empty:?}");
    }
    let no_blocks = Composition::Screen { title: "Your loans".into(), blocks: vec![] };
    assert_eq!(codes(&accept(&no_blocks, &facts, TARGET).unwrap_err()), [C::Empty]);
}
