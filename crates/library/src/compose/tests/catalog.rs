//! Catalog mode: the schema built from the official catalog, the offline screens through
//! this mode's checks, and one failing composition for each rule only a free composer can
//! break (plus the shared ones, refused here too).

use serde_json::{Map, Value, json};
use vocab::loans::ComposeCheck as C;

use super::*;
use crate::compose::Written;
use crate::compose::catalog::{COMPONENTS, CatalogComposition, NOT_OFFERED, from_blocks, parse, schema};
use crate::compose::compile::{FactsAs, compile_as};

/// The offline composer's catalog-mode screen for `question`.
fn offline_catalog(question: &str) -> (Vec<Value>, Map<String, Value>) {
    let loans = loans();
    let facts = facts_for(&loans, question);
    match from_blocks(&compose_offline(&facts), &facts) {
        CatalogComposition::Screen { components, data, .. } => (components, data),
        other => panic!("a screen, not {other:?}"),
    }
}

fn accepted(
    components: Vec<Value>,
    data: Map<String, Value>,
    question: &str,
) -> Result<Composed, Vec<CheckError>> {
    let loans = loans();
    let facts = facts_for(&loans, question);
    CatalogComposition::Screen { title: "Your loans".into(), components, data }.accept(&facts, TARGET)
}

fn codes(r: Result<Composed, Vec<CheckError>>) -> Vec<C> {
    r.expect_err("refused").iter().map(|e| e.code).collect()
}

#[test]
fn the_schema_is_built_from_the_official_catalog_and_the_provider_accepts_it() {
    let schema = schema();
    llm::Schema::new(schema.clone()).expect("structured output accepts it");
    let items = &schema["anyOf"][2]["properties"]["components"]["items"]["anyOf"];
    let names: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["properties"]["component"]["enum"][0].as_str().unwrap())
        .collect();
    assert_eq!(names, COMPONENTS, "the 15 allowed, in the catalog's words");
    for gone in NOT_OFFERED {
        assert!(!names.contains(gone), "{gone}");
    }
    // a component's properties are the catalog's own (its definition and the common ones)
    let picker =
        items.as_array().unwrap().iter().find(|c| c["properties"]["component"]["enum"][0] == "DateTimeInput");
    let props = picker.unwrap()["properties"].as_object().unwrap();
    for p in ["id", "value", "min", "max", "enableDate", "label", "checks", "weight", "accessibility"] {
        assert!(props.contains_key(p), "{p}: {props:?}");
    }
    assert!(!props.contains_key("options"), "another component's property");
    // and the offline compositions are in its shape
    let (components, data) = offline_catalog("renew the calculus book");
    let written = json!({"decision": "screen", "title": "T", "components": components, "data": data});
    assert!(llm::Schema::new(schema.clone()).unwrap().accepts(&written), "{written}");
    assert_eq!(parse(&written).map(|c| c.decision()), Ok("screen"));
}

#[test]
fn the_offline_screens_pass_the_catalog_checks_as_the_same_surface() {
    for q in ["when are my books due", "renew the calculus book until 2027-01-10", "renew the chemistry book"]
    {
        let (components, data) = offline_catalog(q);
        assert!(!data.contains_key("loans"), "{q}: a composer writes only the return dates");
        let Ok(Composed::Screen(s)) = accepted(components, data, q) else { panic!("{q}: accepted") };
        let loans = loans();
        let facts = facts_for(&loans, q);
        let Composition::Screen { title, blocks } = compose_offline(&facts) else { panic!("{q}: a screen") };
        let bound = compile_as(&title, &blocks, &facts, SURFACE, 1, FactsAs::Bound);
        assert_eq!(s, bound, "{q}: the same surface as blocks mode draws, its facts bound");
        // every fact shows from the data model, which has the service's words
        let texts: Vec<&Value> = of_type(&s, "Text").into_iter().map(|t| &t["text"]).collect();
        let model = &s.messages[2]["updateDataModel"]["value"];
        for t in texts.iter().filter_map(|t| t["path"].as_str()) {
            let fact = model.pointer(t.trim_start_matches("/form")).and_then(Value::as_str);
            assert!(fact.is_some_and(|f| !f.is_empty()), "{q}: {t} shows nothing");
        }
        let titles = texts.iter().filter(|t| t["path"].as_str().is_some_and(|p| p.ends_with("/title")));
        assert!(titles.count() >= 1, "{q}: {texts:?}");
    }
}

#[test]
fn what_only_a_free_composer_can_break_is_refused() {
    let (components, data) = offline_catalog("renew the calculus book");
    let with = |extra: Value| {
        let mut c = components.clone();
        let id = extra["id"].as_str().unwrap().to_string();
        c.push(extra);
        c[0]["children"].as_array_mut().unwrap().push(json!(id));
        c
    };
    let q = "renew the calculus book";
    // an image loads an address: not in the set offered
    let image = with(json!({"id": "img", "component": "Image", "url": "https://example.com/x.png"}));
    assert_eq!(codes(accepted(image, data.clone(), q)), [C::NotAllowed]);
    // a text field or a slider supplying the return date or the loan
    let field = with(
        json!({"id": "tf", "component": "TextField", "label": "Date", "value": {"path": "/form/returnDate/ln-calculus"}}),
    );
    assert!(codes(accepted(field, data.clone(), q)).contains(&C::OperationInputs));
    let slider =
        with(json!({"id": "sl", "component": "Slider", "max": 21, "value": {"path": "/form/loanId"}}));
    assert!(codes(accepted(slider, data.clone(), q)).contains(&C::OperationInputs));
    // the words of every component go through the text rules
    let markdown =
        with(json!({"id": "cb", "component": "CheckBox", "label": "**Remind me**", "value": false}));
    assert_eq!(codes(accepted(markdown, data.clone(), q)), [C::Markdown]);
    let invented = with(
        json!({"id": "tabs", "component": "Tabs", "tabs": [{"title": "Due 2027-02-02", "child": "title"}]}),
    );
    assert!(codes(accepted(invented, data.clone(), q)).contains(&C::InventedDate));
    // a loan fact in the composer's own words, true or not (a text binds to the service's);
    // a text bound to anything else; data beside the return dates; an empty text
    for said in
        ["Calculus in Motion cannot be renewed.", "Calculus in Motion is due 2027-01-02.", "Renewable"]
    {
        let wrong = with(json!({"id": "w", "component": "Text", "text": said}));
        let got = codes(accepted(wrong, data.clone(), q));
        assert!(!got.is_empty() && got.iter().all(|c| *c == C::StatedFact), "{said}: {got:?}");
    }
    let bound =
        with(json!({"id": "w", "component": "Text", "text": {"path": "/form/loans/ln-calculus/title"}}));
    assert!(accepted(bound, data.clone(), q).is_ok());
    // a loan's facts shown apart from its title, or nested beside another loan's
    let apart =
        with(json!({"id": "w", "component": "Text", "text": {"path": "/form/loans/ln-calculus/due"}}));
    assert_eq!(codes(accepted(apart, data.clone(), q)), [C::StatedFact]);
    let mut nested = with(json!({"id": "x_row", "component": "Row", "children": ["x_t", "x_col"]}));
    nested.extend([
        json!({"id": "x_t", "component": "Text", "text": {"path": "/form/loans/ln-chemistry/title"}}),
        json!({"id": "x_col", "component": "Column", "children": ["x_s"]}),
        json!({"id": "x_s", "component": "Text", "text": {"path": "/form/loans/ln-calculus/status"}}),
    ]);
    assert!(codes(accepted(nested, data.clone(), q)).contains(&C::StatedFact));
    // references through every property the catalog types as a component id
    let lost = [
        json!({"id": "m", "component": "Modal", "trigger": "nowhere", "content": "title"}),
        json!({"id": "tb", "component": "Tabs", "tabs": [{"title": "Details", "child": "missing"}]}),
    ];
    for c in lost {
        assert!(codes(accepted(with(c.clone()), data.clone(), q)).contains(&C::DanglingReference), "{c}");
    }
    let cycle = with(json!({"id": "m", "component": "Modal", "trigger": "title", "content": "root"}));
    assert!(codes(accepted(cycle, data.clone(), q)).contains(&C::ReferenceCycle));
    let mut deep = components.clone();
    let mut parent = "root".to_string();
    for i in 0..12 {
        let id = format!("tab{i}");
        deep.push(json!({"id": id, "component": "Tabs", "tabs": [{"title": "More", "child": "title"}]}));
        let at = deep.iter().position(|c| c["id"] == parent.as_str()).unwrap();
        match deep[at]["component"].as_str() {
            Some("Tabs") => deep[at]["tabs"][0]["child"] = json!(id),
            _ => deep[at]["children"].as_array_mut().unwrap().push(json!(id)),
        }
        parent = id;
    }
    assert!(codes(accepted(deep, data.clone(), q)).contains(&C::TooDeep));
    for path in ["/form/note", "/form/loans/ln-history/due", "/form/loans/ln-calculus/secret"] {
        let elsewhere = with(json!({"id": "w", "component": "Text", "text": {"path": path}}));
        assert!(codes(accepted(elsewhere, data.clone(), q)).contains(&C::DanglingReference), "{path}");
    }
    // words computed by a function, a literal value shown in a field, a label (an
    // independent check's): each refused
    let computed = [
        json!({"id": "w", "component": "Text", "text": {"call": "formatString",
            "args": {"value": "Calculus in Motion cannot be renewed: it is due 2030-01-01"}, "returnType": "string"}}),
        json!({"id": "w", "component": "Text", "text": {"call": "formatDate",
            "args": {"value": "2030-01-01", "format": "yyyy-MM-dd"}, "returnType": "string"}}),
    ];
    for c in computed {
        assert!(codes(accepted(with(c.clone()), data.clone(), q)).contains(&C::NotAllowed), "{c}");
    }
    for value in ["Calculus in Motion is overdue and cannot be renewed", "2027-01-02"] {
        let field = with(json!({"id": "w", "component": "TextField", "label": "Note", "value": value}));
        assert!(codes(accepted(field, data.clone(), q)).contains(&C::StatedFact), "{value}");
    }
    // every string a component carries: an accessibility label, a check's message
    let lie = "Calculus in Motion is overdue: a fine of 12 dollars, return it by 2030-01-01";
    let mut carried = components.clone();
    let labelled =
        |c: &&mut Value| matches!(c["component"].as_str(), Some("Text" | "Button" | "DateTimeInput"));
    for c in carried.iter_mut().filter(labelled) {
        c["accessibility"] = json!({"label": lie});
    }
    let errors = codes(accepted(carried, data.clone(), q));
    assert!(errors.contains(&C::StatedFact) && errors.contains(&C::InventedDate), "{errors:?}");
    let mut checked = components.clone();
    let picker = checked.iter_mut().find(|c| c["component"] == "DateTimeInput").unwrap();
    picker["checks"][0]["message"] = json!(lie);
    assert!(codes(accepted(checked, data.clone(), q)).contains(&C::StatedFact));
    // a loan's facts bound anywhere but a Text: a label, an option, a tab's title (an
    // independent check's: another loan's due date and hold shown on the calculus card)
    for stray in [
        json!({"id": "w", "component": "CheckBox", "label": {"path": "/form/loans/ln-chemistry/status"}, "value": false}),
        json!({"id": "w", "component": "ChoicePicker", "options": [{"label": {"path": "/form/loans/ln-marketing-research/due"}, "value": "a"}],
               "value": {"path": "/form/pick"}}),
        json!({"id": "w", "component": "Tabs", "tabs": [{"title": {"path": "/form/loans/ln-chemistry/status"}, "child": "title"}]}),
    ] {
        let mut card = components.clone();
        let col = card.iter().position(|c| c["id"] == "b1_col").unwrap();
        card[col]["children"].as_array_mut().unwrap().push(json!("w"));
        card.push(stray.clone());
        assert!(codes(accepted(card, data.clone(), q)).contains(&C::StatedFact), "{stray}");
    }
    let mut blind = components.clone();
    let picker = blind.iter_mut().find(|c| c["component"] == "DateTimeInput").unwrap();
    picker["enableDate"] = json!(false);
    assert!(codes(accepted(blind, data.clone(), q)).contains(&C::PickerRange));
    // a day said without digits, inside the loan's own card
    let mut eve = components.clone();
    let col = eve.iter().position(|c| c["id"] == "b1_col").unwrap();
    eve[col]["children"].as_array_mut().unwrap().push(json!("w"));
    eve.push(json!({"id": "w", "component": "Text", "text": "Due on New Year's Eve."}));
    assert_eq!(codes(accepted(eve, data.clone(), q)), [C::StatedFact]);
    // a preselected return date the student did not say (another loan's date)
    let mut unsaid = data.clone();
    unsaid.insert("returnDate".into(), json!({"ln-calculus": "2027-01-10"}));
    assert_eq!(codes(accepted(components.clone(), unsaid, q)), [C::InventedDate]);
    // a preselected return date that is no date
    let mut odd = data.clone();
    odd.insert("returnDate".into(), json!({"ln-calculus": {"date": "2027-01-05"}}));
    assert_eq!(codes(accepted(components.clone(), odd, q)), [C::OperationInputs]);
    let held = with(
        json!({"id": "w", "component": "CheckBox", "label": "Calculus in Motion is held", "value": false}),
    );
    assert!(codes(accepted(held, data.clone(), q)).contains(&C::StatedFact));
    // one loan's title beside another's status, in one card
    let mut mixed = with(json!({"id": "x_card", "component": "Card", "child": "x_col"}));
    mixed.extend([
        json!({"id": "x_col", "component": "Column", "children": ["x_t", "x_s"]}),
        json!({"id": "x_t", "component": "Text", "text": {"path": "/form/loans/ln-calculus/title"}}),
        json!({"id": "x_s", "component": "Text", "text": {"path": "/form/loans/ln-chemistry/status"}}),
    ]);
    assert_eq!(codes(accepted(mixed, data.clone(), q)), [C::StatedFact]);
    let mut noted = data.clone();
    noted.insert("note".into(), json!("Due 2027-01-02"));
    assert_eq!(codes(accepted(components.clone(), noted, q)), [C::OperationInputs]);
    let empty = with(json!({"id": "e", "component": "Text", "text": "  "}));
    assert_eq!(codes(accepted(empty, data.clone(), q)), [C::Empty]);
    // a component the official schema refuses (a Text with no text)
    let shapeless = with(json!({"id": "s", "component": "Text"}));
    assert!(codes(accepted(shapeless, data.clone(), q)).contains(&C::SchemaInvalid));
    // openUrl is refused whatever the set
    let mut open = components.clone();
    let renew = open.iter_mut().find(|c| c["component"] == "Button").unwrap();
    renew["action"] = json!({"functionCall": {"call": "openUrl", "args": {"url": "https://example.com"}}});
    assert!(!codes(accepted(open, data.clone(), q)).is_empty());
    // a picker not bounded by the service's range, as in blocks mode
    let mut wide = components.clone();
    let picker = wide.iter_mut().find(|c| c["component"] == "DateTimeInput").unwrap();
    picker["max"] = json!("2027-03-01");
    assert!(codes(accepted(wide, data.clone(), q)).contains(&C::PickerRange));
    // a date preselected that is the due date (not in the range)
    let mut due = data.clone();
    due.insert("returnDate".into(), json!({"ln-calculus": "2027-01-02"}));
    assert_eq!(codes(accepted(components.clone(), due, q)), [C::InitialOutOfRange]);
    // words with Markdown, and an unreadable composition
    let loans = loans();
    let facts = facts_for(&loans, q);
    assert!(
        CatalogComposition::Answer { text: "`due`".into(), loan_ids: vec![] }.accept(&facts, TARGET).is_err()
    );
    assert_eq!(parse(&json!({"decision": "screen", "title": "T"})).unwrap_err().code, C::BlocksInvalid);
}

/// Every rule over a surface, broken in a catalog composition (the components a composer
/// writes, not blocks): each refused with its code, as blocks mode refuses it after its
/// compiler.
#[test]
fn every_surface_rule_holds_for_a_catalog_composition() {
    let q = "renew the calculus book";
    let (components, data) = offline_catalog(q);
    type Change = fn(&mut Vec<Value>, &mut Map<String, Value>);
    let cases: Vec<(&str, Change, C)> = vec![
        (
            "a renew button naming another's loan",
            |c, _| {
                let renew = c.iter_mut().find(|x| x["id"] == "b1_renew").unwrap();
                renew["action"]["event"]["context"]["loanId"] = json!("ln-history");
            },
            C::UnknownLoan,
        ),
        (
            "a renew button for a held loan",
            |c, _| {
                let renew = c.iter_mut().find(|x| x["id"] == "b1_renew").unwrap();
                renew["action"]["event"]["context"]["loanId"] = json!("ln-chemistry");
            },
            C::NotRenewable,
        ),
        (
            "an operation that is not registered",
            |c, _| {
                let renew = c.iter_mut().find(|x| x["id"] == "b1_renew").unwrap();
                renew["action"]["event"]["name"] = json!("pay_fine");
            },
            C::OperationNotAllowed,
        ),
        (
            "a renewal with another input",
            |c, _| {
                let renew = c.iter_mut().find(|x| x["id"] == "b1_renew").unwrap();
                renew["action"]["event"]["context"]["days"] = json!(21);
            },
            C::OperationInputs,
        ),
        (
            "a child that names nothing",
            |c, _| {
                c[0]["children"].as_array_mut().unwrap().push(json!("nowhere"));
            },
            C::DanglingReference,
        ),
        (
            "components that hold each other",
            |c, _| {
                c.push(json!({"id": "loop_a", "component": "Column", "children": ["loop_b"]}));
                c.push(json!({"id": "loop_b", "component": "Column", "children": ["loop_a"]}));
                c[0]["children"].as_array_mut().unwrap().push(json!("loop_a"));
            },
            C::ReferenceCycle,
        ),
        (
            "no root",
            |c, _| {
                c[0]["id"] = json!("top");
            },
            C::NoRoot,
        ),
        (
            "more than 80 components",
            |c, _| {
                for i in 0..90 {
                    c.push(json!({"id": format!("x{i}"), "component": "Divider"}));
                    c[0]["children"].as_array_mut().unwrap().push(json!(format!("x{i}")));
                }
            },
            C::TooManyComponents,
        ),
        (
            "nested past 10",
            |c, _| {
                for i in 0..12 {
                    let child = if i < 11 { json!([format!("n{}", i + 1)]) } else { json!([]) };
                    c.push(json!({"id": format!("n{i}"), "component": "Column", "children": child}));
                }
                c[0]["children"].as_array_mut().unwrap().push(json!("n0"));
            },
            C::TooDeep,
        ),
        (
            "over 48 KB",
            |c, _| {
                let title = c.iter_mut().find(|x| x["component"] == "Text").unwrap();
                title["text"] = json!("a".repeat(50 * 1024));
            },
            C::TooLarge,
        ),
        (
            "a preselected date out of range",
            |_, d| {
                d.insert("returnDate".into(), json!({"ln-calculus": "2027-02-01"}));
            },
            C::InitialOutOfRange,
        ),
    ];
    for (what, change, code) in cases {
        let (mut c, mut d) = (components.clone(), data.clone());
        change(&mut c, &mut d);
        let got = codes(accepted(c, d, q));
        assert!(got.contains(&code), "{what}: {got:?}");
    }
    // the untouched one passes
    assert!(accepted(components, data, q).is_ok());
}
