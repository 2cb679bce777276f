//! The page's copy of a form: compaction, chat-filling, carrying into a form sent again, and a loan screen's date placement.
use super::*;

pub(super) fn form(messages: Vec<Value>, state: Wire, version: u32) -> FormReply {
    FormReply {
        form_ref: "hf-1".into(),
        workflow: "study-room-booking".into(),
        version,
        state,
        messages,
        errors: vec![],
        receipt: None,
        text: String::new(),
    }
}

pub(super) fn noon() -> jiff::ZonedDateTime {
    // a Wednesday
    "2025-11-19T12:00:00-08:00[America/Los_Angeles]".parse().unwrap()
}

/// A loan screen on `s-1` offering `loans` for renewal (a picker and Renew each, bounded
/// 2025-11-21..2025-12-11), a follow-up and Close, as the Library's compiler draws one.
pub(super) fn loan_screen(loans: &[&str]) -> Vec<Value> {
    use forms::templates::{button_with, create_surface, date_input_at, path, update_components};
    let (min, max) = ("2025-11-21".parse().unwrap(), "2025-12-11".parse().unwrap());
    let mut components = vec![json!({"id": "root", "component": "Column", "children": []})];
    for id in loans {
        let field = format!("returnDate/{id}");
        let title = if *id == "ln-2" { "Statistics for the Curious" } else { "Calculus in Motion" };
        components.push(json!({"id": format!("{id}_col"), "component": "Column",
            "children": [format!("{id}_title"), format!("{id}_date"), format!("{id}_renew")]}));
        components
            .push(json!({"id": format!("{id}_title"), "component": "Text", "text": title, "variant": "h4"}));
        components.push(date_input_at(&format!("{id}_date"), &field, "New return date", min, max, "choose"));
        let context =
            Map::from_iter([("loanId".to_string(), json!(id)), ("returnDate".to_string(), path(&field))]);
        components.extend(button_with(&format!("{id}_renew"), "Renew", "primary", "renew_loan", context, 1));
    }
    let ask = Map::from_iter([("request".to_string(), json!("Renew Calculus in Motion"))]);
    components.extend(button_with("more", "Renew Calculus in Motion", "default", "follow_up", ask, 1));
    components.extend(button_with("close", "Close", "default", "cancel_form", Map::new(), 1));
    vec![create_surface("s-1"), update_components("s-1", components)]
}

pub(super) fn loan_form(loans: &[&str]) -> FormReply {
    FormReply { workflow: "loan-renewal".into(), ..form(loan_screen(loans), Wire::Open, 1) }
}

#[test]
fn a_return_date_typed_in_the_chat_fills_the_one_picker_inside_its_bounds() {
    let filling = |view: &FormView, text: &str| {
        let mut f = forms::fill::fill_from_chat(forms::Workflow::LoanRenewal, text, &noon());
        view.place_dates(&mut f, text);
        f
    };
    let one = FormView::open(&loan_form(&["ln-1"])).unwrap();
    let f = filling(&one, "until 2025-12-01 please");
    assert_eq!(f.filled, [("returnDate/ln-1".to_string(), json!("2025-12-01"))]);
    assert!(
        f.note().unwrap().starts_with("Filled in the form: new return date (2025-12-01)."),
        "{:?}",
        f.note()
    );
    let mut view = one.clone();
    view.fill(&f.filled);
    assert!(
        view.messages().iter().any(|m| m["updateDataModel"]["path"] == "/form/returnDate/ln-1"
            && m["updateDataModel"]["value"] == "2025-12-01"),
        "the picker's own path is filled"
    );
    // outside the picker's bounds: not filled, and the note says the range
    let far = filling(&one, "until 2026-01-30");
    assert!(far.filled.is_empty(), "{far:?}");
    assert_eq!(far.not_filled[0].0, "returnDate");
    assert!(far.not_filled[0].1.contains("2025-11-21 to 2025-12-11"), "{far:?}");
    // two loans offered: which one is not guessed, unless the words name its book
    let two = FormView::open(&loan_form(&["ln-1", "ln-2"])).unwrap();
    let f = filling(&two, "until 2025-12-01");
    assert!(f.filled.is_empty() && f.not_filled[0].1.contains("more than one loan"), "{f:?}");
    let f = filling(&two, "the statistics book until 2025-12-01");
    assert_eq!(f.filled, [("returnDate/ln-2".to_string(), json!("2025-12-01"))]);
    // a catalog screen binds its titles to the data model's loans: read as they show
    let mut messages = loan_screen(&["ln-1", "ln-2"]);
    for c in messages[1]["updateComponents"]["components"].as_array_mut().unwrap() {
        if let Some(id) = c["id"].as_str().and_then(|i| i.strip_suffix("_title")).map(str::to_string) {
            c["text"] = json!({"path": format!("/form/loans/{id}/title")});
        }
    }
    let titles = json!({"loans": {"ln-1": {"title": "Calculus in Motion"}, "ln-2": {"title": "Statistics for the Curious"}}});
    messages.push(update_data_model("s-1", "/form", titles));
    let bound =
        FormView::open(&FormReply { workflow: "loan-renewal".into(), ..form(messages, Wire::Open, 1) });
    let f = filling(&bound.unwrap(), "the statistics book until 2025-12-01");
    assert_eq!(f.filled, [("returnDate/ln-2".to_string(), json!("2025-12-01"))]);
    // a date for a book this screen has no picker for is no filling: it all goes to the Library
    let asked = "renew my chemistry book until 2025-12-01";
    let f = filling(&one, asked);
    assert!(f.filled.is_empty() && f.not_filled.is_empty() && f.note().is_none(), "{f:?}");
    assert_eq!(f.rest, asked);
    // none offered (an overview, a held loan's screen): the same
    let none = FormView::open(&loan_form(&[])).unwrap();
    let f = filling(&none, "renew my calculus book until 2025-12-01");
    assert!(f.filled.is_empty() && f.note().is_none(), "{f:?}");
    assert_eq!(f.rest, "renew my calculus book until 2025-12-01");
}

pub(super) fn first() -> Vec<Value> {
    let today = noon().date();
    forms::templates::booking_form("s-1", &forms::Prefill::default(), today, 1).messages
}

#[test]
fn updates_are_appended_and_compacted_and_a_closed_form_keeps_nothing_drawable() {
    let mut view = FormView::open(&form(first(), Wire::Open, 1)).unwrap();
    assert_eq!((view.surface_id.as_str(), view.messages().len()), ("s-1", 3));
    let slots = forms::templates::booking_slots("s-1", &[], 2);
    let carried: Map<String, Value> =
        serde_json::from_value(json!({"date": "2025-11-20", "room": ["A"], "formVersion": 1})).unwrap();
    for _ in 0..20 {
        view.apply(&form(slots.clone(), Wire::Open, 2), Some(&carried));
    }
    assert!(view.messages().len() <= 8, "compacted: {}", view.messages().len());
    assert_eq!(view.version, 2);
    let kinds: Vec<&str> =
        view.messages().iter().filter_map(a2ui::message_kind).map(|(k, _)| k.key()).collect();
    assert_eq!(kinds[0], "createSurface");
    let date = view.messages().iter().any(|m| m["updateDataModel"]["path"] == "/form/date");
    assert!(date, "the carried date is kept for a redraw");
    let done = vec![forms::templates::delete_surface("s-1")];
    view.apply(&form(done, Wire::Submitted, 3), None);
    assert_eq!(view.state, ViewState::Submitted);
    assert!(view.messages().is_empty());
    let Event::ActivitySnapshot(s) = view.snapshot(1) else { panic!() };
    assert_eq!(
        (s.message_id.as_str(), s.content["state"].as_str(), s.replace),
        ("form-hf-1", Some("submitted"), Some(true))
    );
}

fn drawn_value(view: &FormView, field: &str) -> Value {
    view.drawn_value(field)
}

#[test]
fn values_filled_from_the_chat_are_carried_into_the_same_form_sent_again_only() {
    let mut old = FormView::open(&form(first(), Wire::Open, 1)).unwrap();
    old.fill(&[("groupSize".into(), json!("5"))]);
    // "continue": the same surface under a new reference, the agent's values in it
    let mut again = form(first(), Wire::Open, 2);
    again.form_ref = "hf-2".into();
    let mut new = FormView::open(&again).unwrap();
    old.carry_into(&mut new);
    assert_eq!(drawn_value(&new, "groupSize"), json!("5"), "the chat's value wins");
    assert_eq!(drawn_value(&new, "room"), json!([]), "an untouched field keeps the agent's");
    // another form (a new surface) takes nothing
    let other = forms::templates::booking_form("s-2", &forms::Prefill::default(), noon().date(), 1);
    let mut replaced = form(other.messages, Wire::Open, 1);
    replaced.form_ref = "hf-3".into();
    let mut fresh = FormView::open(&replaced).unwrap();
    old.carry_into(&mut fresh);
    assert_eq!(drawn_value(&fresh, "groupSize"), json!(""));
}

/// The last screen drawn: the ids of the last `updateComponents`.
fn screen_ids(view: &FormView) -> Vec<String> {
    let last = view.messages().iter().rev().find_map(|m| m.get("updateComponents")).unwrap();
    last["components"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_criterion_changed_in_the_chat_while_times_show_takes_them_away_and_a_review_is_kept() {
    let slot = |start| forms::rooms::Slot {
        id: format!("slot-{start}"),
        date: noon().date().tomorrow().unwrap(),
        room: forms::Room::parse("A").unwrap(),
        start_hour: start,
        duration: 1,
    };
    let slots = [slot(10), slot(11)];
    let mut view = FormView::open(&form(first(), Wire::Open, 1)).unwrap();
    let pressed: Map<String, Value> =
        serde_json::from_value(json!({"room": ["A"], "formVersion": 1})).unwrap();
    view.apply(&form(forms::templates::booking_slots("s-1", &slots, 2), Wire::Open, 2), Some(&pressed));
    assert!(view.shows_times() && !view.reviewing());
    // the slot alone changes nothing, nor the room it already has; another room does
    view.fill(&[("slot".into(), json!(["slot-11"]))]);
    assert!(view.shows_times(), "{:?}", screen_ids(&view));
    view.fill(&[("room".into(), json!(["A"]))]);
    assert!(view.shows_times(), "the same room again: {:?}", screen_ids(&view));
    view.fill(&[("room".into(), json!(["B"]))]);
    let ids = screen_ids(&view);
    assert!(ids.contains(&"slots_changed".to_string()), "{ids:?}");
    assert!(ids.contains(&"find_btn".to_string()), "{ids:?}");
    assert!(!ids.iter().any(|id| id == "slot_field" || id == "review_btn"), "{ids:?}");
    assert_eq!(drawn_value(&view, "slot"), json!([]), "the old time's choice is reset");
    assert_eq!(drawn_value(&view, "room"), json!(["B"]));
    assert!(view.messages().iter().any(|m| m.to_string().contains("press Find times")));
    // under review: the chat fills nothing there (the UI server holds the values back)
    let criteria =
        forms::rooms::Criteria { date: slots[0].date, room: slots[0].room, duration: 1, group_size: 3 };
    view.apply(&form(forms::templates::booking_review("s-1", &criteria, &slots[0], 3), Wire::Open, 3), None);
    assert!(view.reviewing() && !view.shows_times());
    // on the first screen, filling redraws nothing
    let mut view = FormView::open(&form(first(), Wire::Open, 1)).unwrap();
    assert!(!view.reviewing());
    let before = view.messages().len();
    view.fill(&[("room".into(), json!(["B"]))]);
    assert_eq!(view.messages().len(), before + 1, "one updateDataModel only");
}

/// The page applies in place the messages numbered past the last it drew: the numbers
/// only grow, compaction drops a message with its number, a new surface starts over.
#[test]
fn each_message_keeps_its_number_through_compaction_so_the_page_can_apply_only_new_ones() {
    let seqs = |v: &FormView| -> Vec<u64> {
        let Event::ActivitySnapshot(s) = v.snapshot(1) else { panic!() };
        serde_json::from_value(s.content["seqs"].clone()).unwrap()
    };
    let mut view = FormView::open(&form(first(), Wire::Open, 1)).unwrap();
    assert_eq!(seqs(&view), [1, 2, 3]);
    let slots = forms::templates::booking_slots("s-1", &[], 2);
    let n = slots.len() as u64;
    let room = |r: &str| -> Map<String, Value> { serde_json::from_value(json!({"room": [r]})).unwrap() };
    view.apply(&form(slots.clone(), Wire::Open, 2), Some(&room("A")));
    let after_one = seqs(&view);
    assert_eq!(after_one.len(), view.messages().len());
    assert_eq!(*after_one.last().unwrap(), 3 + 1 + n);
    // the same value again (A, then B, then A): a new number, the old A dropped
    view.apply(&form(slots.clone(), Wire::Open, 2), Some(&room("B")));
    view.apply(&form(slots, Wire::Open, 2), Some(&room("A")));
    let s = seqs(&view);
    assert!(s.windows(2).all(|w| w[0] < w[1]), "increasing: {s:?}");
    assert_eq!(*s.last().unwrap(), 3 + 3 * (1 + n));
    let rooms: Vec<(u64, &Value)> = s
        .iter()
        .zip(view.messages())
        .filter(|(_, m)| m["updateDataModel"]["path"] == "/form/room")
        .map(|(n, m)| (*n, &m["updateDataModel"]["value"]))
        .collect();
    assert_eq!(rooms, [(3 + 2 * (1 + n) + 1, &json!(["A"]))], "only the last room, under its new number");
    view.apply(&form(first(), Wire::Open, 3), None);
    assert_eq!(seqs(&view).first(), Some(&(3 + 3 * (1 + n) + 1)), "a new surface: new numbers");
}

#[test]
fn a_rejected_press_puts_back_what_it_sent_where_the_button_read_it_and_the_chat_still_fills() {
    let mut view = FormView::open(&loan_form(&["ln-1"])).unwrap();
    let renew = json!({"name": "renew_loan", "surfaceId": "s-1", "sourceComponentId": "ln-1_renew",
        "timestamp": "2025-11-19T20:00:00.000Z",
        "context": {"loanId": "ln-1", "returnDate": "2026-03-01", "formVersion": 1}});
    // the picker's own path; the literal loan id and the version are the button's, not the model's
    let carried = view.bound_values(&renew);
    assert_eq!(Value::Object(carried.clone()), json!({"returnDate/ln-1": "2026-03-01"}));
    let mut rejected = loan_form(&["ln-1"]);
    rejected.messages.clear();
    rejected.state = Wire::Rejected;
    view.apply(&rejected, Some(&carried));
    let writes: Vec<&Value> = view.messages().iter().filter_map(|m| m.get("updateDataModel")).collect();
    assert!(
        writes.iter().all(|w| w["path"] != "/form/returnDate"),
        "the picker's object is never replaced: {writes:?}"
    );
    assert!(
        writes.iter().any(|w| w["path"] == "/form/returnDate/ln-1" && w["value"] == "2026-03-01"),
        "{writes:?}"
    );
    // a date typed in the chat afterwards goes to the same picker
    let mut f = forms::fill::fill_from_chat(forms::Workflow::LoanRenewal, "until 2025-12-01", &noon());
    view.place_dates(&mut f, "until 2025-12-01");
    assert_eq!(f.filled, [("returnDate/ln-1".to_string(), json!("2025-12-01"))]);
}
