//! The answerer's rules, one by one (the table of questions is in `table.rs`).

use std::collections::BTreeSet;

use super::*;
use crate::fixtures::{DefaultSkill, default_skills};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The fixed clock of the tests: Saturday 5 December 2026, 10:00 Pacific Time.
pub(crate) const NOW: &str = "2026-12-05T10:00:00-08:00";

/// A context at [`NOW`], with the skill the Hub chose if any.
pub(crate) fn context(hub_skill: Option<&str>) -> Context<'_> {
    Context { now: crate::Clock::fixed(NOW.parse().expect("an instant")).now(), hub_skill, last: None }
}

fn ask(question: &str) -> Answer {
    let skills = default_skills();
    let texts: Vec<SkillText<'_>> = skills.iter().map(DefaultSkill::text).collect();
    answer(question, &texts, &context(None))
}

fn content_of(id: &str) -> Vec<String> {
    let skills = default_skills();
    let skill = skills.iter().find(|s| s.id == id).expect("fixture");
    skill.content.lines().map(str::to_string).collect()
}

fn lines_from(answer: Answer, id: &str) -> Vec<String> {
    match answer {
        Answer::Lines { skill_id, lines, .. } if skill_id == id => lines,
        other => panic!("expected lines from {id}, got {other:?}"),
    }
}

fn owned(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|l| l.to_string()).collect()
}

#[test]
fn a_weekday_question_gets_only_that_line() {
    assert_eq!(lines_from(ask("hours on Mondays?"), "library-hours"), owned(&["Monday: 8:00–22:00"]));
    assert_eq!(
        lines_from(ask("When are you open on Saturday and Sunday?"), "library-hours"),
        owned(&["Saturday: 10:00–18:00", "Sunday: 12:00–18:00"])
    );
}

#[test]
fn naming_the_topic_gets_all_of_it() {
    assert_eq!(lines_from(ask("What are the library hours?"), "library-hours"), content_of("library-hours"));
    // A detail the content does not mention is not made up: the topic is returned as saved.
    assert_eq!(
        lines_from(ask("library hours over the winter break?"), "library-hours"),
        content_of("library-hours")
    );
}

#[test]
fn the_most_specific_lines_win() {
    assert_eq!(
        lines_from(ask("how much does double-sided printing cost"), "printing"),
        owned(&["Black-and-white, double-sided: €0.15 per sheet", "Colour, double-sided: €0.80 per sheet"])
    );
    assert_eq!(
        lines_from(ask("price of colour double sided copies?"), "printing"),
        owned(&["Colour, double-sided: €0.80 per sheet"])
    );
}

#[test]
fn a_common_word_does_not_push_out_a_specific_line() {
    assert_eq!(
        lines_from(ask("renew my loan please"), "borrowing"),
        owned(&[
            "You can renew an item online in your library account up to 2 times, unless someone has placed a hold on it.",
            "A renewal starts a new loan period from the day you renew.",
        ])
    );
    assert_eq!(
        lines_from(ask("black and white double-sided copies"), "printing"),
        owned(&["Black-and-white, double-sided: €0.15 per sheet"])
    );
}

#[test]
fn due_dates_are_never_worked_out() {
    let lines = lines_from(ask("when is my book due? I'd like to renew"), "borrowing");
    let content = content_of("borrowing");
    assert!(lines.iter().all(|l| content.contains(l)), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("You can renew")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("from the day you renew")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("Overdue fines")), "{lines:?}");

    let lines = lines_from(ask("I borrowed a book on 3 March, when is it due?"), "borrowing");
    assert!(lines.iter().all(|l| content.contains(l) && !l.contains("March")), "{lines:?}");
}

#[test]
fn transactions_are_never_claimed() {
    let content = content_of("borrowing");
    let lines = lines_from(ask("Please renew my book for me"), "borrowing");
    assert!(!lines.is_empty() && lines.iter().all(|l| content.contains(l)), "{lines:?}");
    let rooms = content_of("study-rooms");
    let lines = lines_from(ask("Book me a study room for tomorrow"), "study-rooms");
    assert!(lines.iter().all(|l| rooms.contains(l)), "{lines:?}");
    assert!(lines.iter().all(|l| l.to_lowercase().contains("book")), "{lines:?}");
}

#[test]
fn a_tie_asks_which_one() {
    let answer = ask("printing hours?");
    let Answer::Which { skill_ids, question } = &answer else { panic!("{answer:?}") };
    assert_eq!(skill_ids, &["library-hours", "printing"]);
    assert_eq!(question, "Do you mean Library hours or Printing?");
    assert_eq!(render(&answer, &[]), *question);
}

#[test]
fn unrelated_or_empty_questions_are_not_covered() {
    for q in ["fix my sink", "", "   \n\t ", "?!…", "what is it?", "what's 2 + 2?", "I'd like to"] {
        assert_eq!(ask(q), Answer::NotCovered, "{q:?}");
    }
    let skills = default_skills();
    let texts: Vec<_> = skills.iter().map(DefaultSkill::text).collect();
    let reply = render(&Answer::NotCovered, &texts);
    assert_eq!(
        reply,
        format!(
            "{NOT_COVERED} I can help with: Library hours; Borrowing and renewals; Study rooms; Printing; Finding and requesting items. For anything else, please ask at the library's service desk."
        )
    );
    assert!(render(&Answer::NotCovered, &[]).starts_with(NOT_COVERED));
    assert_eq!(answer("library hours", &[], &context(None)), Answer::NotCovered);
}

#[test]
fn a_skill_without_content_never_wins() {
    let tags = vec!["hours".to_string(), "monday".to_string()];
    let empty = |content| SkillText {
        id: "empty",
        name: "Library hours",
        description: "hours",
        tags: &tags,
        examples: &[],
        content,
    };
    for content in ["", " \n\t\n  ", "\r\n"] {
        assert_eq!(answer("library hours on monday", &[empty(content)], &context(None)), Answer::NotCovered);
        let skills = default_skills();
        let mut texts: Vec<_> = skills.iter().map(DefaultSkill::text).collect();
        texts.insert(0, empty(content));
        let lines = lines_from(answer("library hours on monday", &texts, &context(None)), "library-hours");
        assert_eq!(lines, owned(&["Monday: 8:00–22:00"]));
    }
}

#[test]
fn lines_are_trimmed_deduplicated_and_in_order() {
    let tags = vec!["hours".to_string()];
    let skill = SkillText {
        id: "h",
        name: "Hours",
        description: "",
        tags: &tags,
        examples: &[],
        content: "  Sunday: closed   \r\nMonday: 9–17\r\n\r\n  Sunday: closed\nMonday: 9–17",
    };
    assert_eq!(
        answer("hours on sunday or monday", &[skill], &context(None)),
        Answer::Lines {
            skill_id: "h".into(),
            lines: owned(&["  Sunday: closed", "Monday: 9–17"]),
            lead: Some("Sunday is 6 December 2026 and Monday is 7 December 2026 (Pacific Time).".into()),
            partial: false
        }
    );
    assert_eq!(
        render(&answer("hours", &[skill], &context(None)), &[skill]),
        "  Sunday: closed\nMonday: 9–17"
    );
}

#[test]
fn unicode_and_typos_do_not_panic() {
    for q in [
        "Ünïcödé 🙂 hóurs on Möndays??",
        "librray hourz mondy",
        "İSTANBUL ΣΊΣΥΦΟΣ ß ﬁ",
        "\u{0}\u{202e}\u{feff}'’''",
        "本は何時まで借りられますか",
        "a'b'c''d",
        "'s 's",
    ] {
        let _ = ask(q);
    }
    assert_eq!(lines_from(ask("HOURS ON MONDAYS!!!"), "library-hours"), owned(&["Monday: 8:00–22:00"]));
}

/// A seeded generator (reproducible runs) drawing text from pieces.
struct Rng(StdRng);

impl Rng {
    fn text(&mut self, pieces: &[&str], max: usize) -> String {
        let n = self.0.random_range(0..max);
        (0..n).map(|_| pieces[self.0.random_range(0..pieces.len())]).collect()
    }
}

const PIECES: &[&str] = &[
    "hours", "Monday", "mondays", "library", "print", "double", "-", "sided", "renew", "book", "due",
    "study", "room", "colour", "fines", "2", "8:00", " ", " ", " ", "\n", "\r\n", "\t", "?", "!", "'", "’",
    "–", "é", "İ", "ß", "🙂", "本", "\u{0}", "\u{301}", "ing", "ed", "s", "ies", "the", "on", "a", "x",
];

fn check(question: &str, skills: &[SkillText<'_>]) {
    let answer = answer(question, skills, &context(None));
    assert!(!render(&answer, skills).is_empty(), "{question:?}");
    match answer {
        Answer::NotCovered => {}
        Answer::NotSaved { skill_id } => assert!(skills.iter().any(|s| s.id == skill_id), "{question:?}"),
        Answer::Lines { skill_id, lines, .. } => {
            let skill = skills.iter().find(|s| s.id == skill_id).expect("a given skill");
            let content: Vec<&str> = skill.content.lines().map(str::trim_end).collect();
            assert!(!lines.is_empty(), "{question:?}");
            for line in &lines {
                assert!(
                    content.contains(&line.as_str()) && !line.trim().is_empty(),
                    "{question:?}: {line:?}"
                );
            }
            let distinct: BTreeSet<&String> = lines.iter().collect();
            assert_eq!(distinct.len(), lines.len(), "{question:?}");
        }
        Answer::Which { skill_ids, question: which } => {
            assert!(skill_ids.len() >= 2, "{question:?}");
            assert!(skill_ids.iter().all(|id| skills.iter().any(|s| s.id == id)), "{question:?}");
            assert!(which.starts_with("Do you mean ") && which.ends_with('?'), "{which:?}");
        }
    }
}

#[test]
fn random_questions_never_panic_and_lines_are_verbatim() {
    let mut rng = Rng(StdRng::seed_from_u64(0x9e37_79b9_7f4a_7c15));
    let skills = default_skills();
    let texts: Vec<_> = skills.iter().map(DefaultSkill::text).collect();
    for _ in 0..1_500 {
        let question = rng.text(PIECES, 12);
        check(&question, &texts);
    }
    // Random skills too, including empty names and contents.
    for _ in 0..500 {
        let tags: Vec<Vec<String>> = (0..3).map(|_| vec![rng.text(PIECES, 3), rng.text(PIECES, 2)]).collect();
        let fields: Vec<[String; 3]> =
            (0..3).map(|_| [rng.text(PIECES, 3), rng.text(PIECES, 6), rng.text(PIECES, 40)]).collect();
        let ids = ["r0", "r1", "r2"];
        let random: Vec<SkillText<'_>> = (0..3)
            .map(|i| SkillText {
                id: ids[i],
                name: &fields[i][0],
                description: &fields[i][1],
                tags: &tags[i],
                examples: &[],
                content: &fields[i][2],
            })
            .collect();
        let question = rng.text(PIECES, 10);
        check(&question, &random);
    }
}

/// Two skills of a made-up library: a line of the other skill answers when it has more of
/// the question than any line of the chosen one (and the chosen one's topic words); a
/// question the chosen skill has nothing of stays there, not saved.
#[test]
fn a_better_line_of_another_enabled_skill_answers() {
    let none: Vec<String> = Vec::new();
    let skills = [
        SkillText {
            id: "parking",
            name: "Parking",
            description: "Where to park and what it costs.",
            tags: &none,
            examples: &[],
            content: "Bike racks are by the north door.\nCar parking costs €2 per day.",
        },
        SkillText {
            id: "map",
            name: "Building map",
            description: "Where things are in the building.",
            tags: &none,
            examples: &[],
            content: "The north door opens onto the canal path.\nThe roof terrace has bike racks with chargers for electric bikes.",
        },
    ];
    let ask = |q: &str| answer(q, &skills, &context(Some("parking")));
    // "electric" is in no parking line: the map's line has it, and "bike" too
    assert_eq!(
        lines_from(ask("where can I leave an electric bike?"), "map"),
        owned(&["The roof terrace has bike racks with chargers for electric bikes."])
    );
    // nothing of parking in the question: the Hub's choice stands, not saved
    assert_eq!(ask("is there a roof terrace?"), Answer::NotSaved { skill_id: "parking".into() });
    // a line elsewhere must have the chosen topic's words the question has ("park")
    assert!(
        matches!(ask("can I park an electric car?"), Answer::Lines { skill_id, .. } | Answer::NotSaved { skill_id } if skill_id == "parking")
    );
    // what both skills have the same of stays with the chosen one
    assert_eq!(
        lines_from(ask("where are the bike racks?"), "parking"),
        owned(&["Bike racks are by the north door."])
    );
}

/// Words that say one thing together are read as that thing, in five languages.
#[test]
fn phrases_and_subjects_are_read() {
    use crate::words::terms;
    for q in
        ["how many books at once?", "two DVDs at a time", "dos libros a la vez", "zwei Bücher auf einmal"]
    {
        assert!(terms(q).contains(&"limit".to_string()), "{q}: {:?}", terms(q));
    }
    for q in [
        "a book from another university",
        "de otra biblioteca",
        "d'une autre université",
        "von einer anderen Bibliothek",
    ] {
        assert!(terms(q).contains(&"interlibrary".to_string()), "{q}: {:?}", terms(q));
    }
    // a book of a subject is the subject's shelf
    assert_eq!(terms("where are the maths books?"), ["mathematic"]);
    assert_eq!(terms("calculus textbooks"), ["mathematic"]);
    let psychology = terms("¿dónde están los libros de psicología?");
    assert!(psychology.contains(&"social".to_string()) && !psychology.contains(&"book".to_string()));
    // late with a return is overdue; late alone only matches an overdue line
    assert_eq!(terms("I returned my laptop late"), ["return", "laptop", "overdu"]);
    assert_eq!(terms("late for our room"), ["lat", "room"]);
    assert_eq!(terms("can I use the databases from home?"), ["databas", "off"]);
}

/// A detail no line has: a topic saved as one line is still that line (said to be all that
/// is saved); a topic of several separate facts has none about it.
#[test]
fn a_detail_no_line_has_keeps_a_one_line_topic_only() {
    let tags = vec!["lost property".to_string(), "left behind".to_string()];
    let lost = SkillText {
        id: "lost",
        name: "Lost property",
        description: "Things left behind in the library.",
        tags: &tags,
        examples: &[],
        content: "Lost property is kept at the service desk for 30 days.",
    };
    let q = "Did someone hand in the umbrella I left behind?";
    match answer(q, &[lost], &context(Some("lost"))) {
        Answer::Lines { lines, partial, .. } => {
            assert_eq!(lines, owned(&["Lost property is kept at the service desk for 30 days."]));
            assert!(partial, "says the rest is not saved");
        }
        other => panic!("{other:?}"),
    }
    let two = SkillText { content: "Lost property is kept at the service desk.\nAsk after 30 days.", ..lost };
    assert_eq!(answer(q, &[two], &context(Some("lost"))), Answer::NotSaved { skill_id: "lost".into() });
}

/// A follow-up keeps the last question's topic and changes what it names: after the fine
/// for a book, "and for laptops?" is the laptop fine, not the laptop loan period; after a
/// loan period, "what about DVDs?" is the DVD loan period; a day after the hours is that
/// day's line.
#[test]
fn a_follow_up_keeps_the_last_topic() {
    let skills = default_skills();
    let texts: Vec<SkillText<'_>> = skills.iter().map(DefaultSkill::text).collect();
    let hub = Some("borrowing");
    let after = |first: &str, then: &str, hub: Option<&str>| {
        let last = asked(first, &texts, None);
        let context = Context { last: Some(&last), ..context(hub) };
        render(&answer(then, &texts, &context), &texts)
    };
    let fine = "what is the fine for a late book?";
    for then in [
        "and for laptops?",
        "¿y para los portátiles?",
        "et pour les ordinateurs portables ?",
        "und für Laptops?",
        "aur laptop ka?",
        "what about laptops?",
    ] {
        let reply = after(fine, then, hub);
        assert!(reply.contains("laptops €5.00 per day"), "{then}: {reply}");
        assert!(!reply.contains("7-day loan"), "{then}: {reply}");
    }
    // the same question alone is the loan period
    let alone = render(&answer("and for laptops?", &texts, &context(hub)), &texts);
    assert!(alone.contains("7-day loan"), "{alone}");
    let reply = after("how long can I borrow a book?", "what about DVDs?", hub);
    assert!(reply.contains("DVDs and laptops: 7-day loan."), "{reply}");
    // a key term of its own is a question of its own
    let reply = after(fine, "and renewals?", hub);
    assert!(reply.contains("renew an item online") && !reply.contains("Overdue fines"), "{reply}");
    let reply = after("is the library open on monday?", "and on sunday?", Some("library-hours"));
    assert!(reply.contains("Sunday: 12:00–18:00") && !reply.contains("Monday:"), "{reply}");
    // a new question is no follow-up
    let reply = after(fine, "how long can I keep a laptop?", hub);
    assert!(reply.contains("7-day loan") && !reply.contains("Overdue fines"), "{reply}");
}
