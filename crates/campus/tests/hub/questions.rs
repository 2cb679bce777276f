//! What a student meets without a key: a table of questions asked through the real Hub,
//! Tutor, Library and Professor processes on their offline answerers, each with the service that
//! must answer it and the facts its answer must and must not hold. Five languages,
//! typos, dates against a fixed clock (the Library's `LIBRARY_CLOCK`: Thursday 24
//! December 2026, so tomorrow is Christmas Day), follow-ups and small talk in one
//! conversation, and things that must be declined. The Tutor's computed results are
//! exact strings.

use a2a::client::A2aClient;
use student::Student;
use testkit::{University, rt};

/// Thursday 24 December 2026, 10:00 in the demo's time zone.
const CLOCK: &str = "2026-12-24T10:00:00-08:00";

/// Who must answer.
#[derive(Debug, Clone, Copy, PartialEq)]
enum By {
    Tutor,
    Library,
    Professor,
    /// The Hub itself, with this outcome.
    Hub(&'static str),
}

/// One question: the conversation it is asked in (rows with the same one share it, in
/// order), who must answer, what the answer must hold and what it must not.
struct Row {
    conversation: &'static str,
    ask: &'static str,
    by: By,
    has: &'static [&'static str],
    lacks: &'static [&'static str],
}

const fn row(
    conversation: &'static str,
    ask: &'static str,
    by: By,
    has: &'static [&'static str],
    lacks: &'static [&'static str],
) -> Row {
    Row { conversation, ask, by, has, lacks }
}

use By::{Hub, Library, Professor, Tutor};

mod professor;
mod third;

/// Words no Library answer about one thing may carry from another skill.
const NOT_ROOMS: &[&str] = &["Book a room", "14 days ahead", "Do you mean"];

const ROWS: &[Row] = &[
    // the Library: hours, dates against the fixed clock, five languages
    row("h1", "is the library open today?", Library, &["Thursday", "8:00–22:00"], &["Saturday", "Sunday:"]),
    row("h2", "what time does the library close tonight", Library, &["22:00"], &["Saturday", "Sunday:"]),
    row(
        "h3",
        "is the library open tomorrow?",
        Library,
        &["25 December", "closed"],
        &["8:00–20:00", "Sunday:"],
    ),
    row(
        "h4",
        "what are the library hours on saturday",
        Library,
        &["Saturday: 10:00–18:00"],
        &["Sunday:", "Monday:"],
    ),
    row(
        "h5",
        "¿A qué hora abre la biblioteca el sábado?",
        Library,
        &["Saturday: 10:00–18:00"],
        &["Sunday:", "not in"],
    ),
    row("h6", "La bibliothèque est ouverte dimanche ?", Library, &["Sunday: 12:00–18:00"], &["Saturday:"]),
    row("h7", "Wann hat die Bibliothek am Montag geöffnet?", Library, &["Monday: 8:00–22:00"], &["Sunday:"]),
    // no word of "library" at all: the Hub reads them through its glosses
    row(
        "h9",
        "Quelles sont les heures d'ouverture le mardi ?",
        Library,
        &["Tuesday: 8:00–22:00"],
        &["Sunday:"],
    ),
    row("h10", "Öffnungszeiten am Sonntag?", Library, &["Sunday: 12:00–18:00"], &["Monday:"]),
    row("h8", "library kal khuli hai kya?", Library, &["closed"], &["8:00–20:00", "Monday:"]),
    row("h13", "aaj library kitne baje tak khuli hai", Library, &["Thursday", "22:00"], &["Saturday:"]),
    row("h14", "is the library open on new year's day?", Library, &["closed"], &["Friday:", "Monday:"]),
    row("h11", "library hours", Library, &["Monday: 8:00–22:00", "Sunday: 12:00–18:00"], &[]),
    row("h12", "libary open on sunday?", Library, &["Sunday: 12:00–18:00"], &["Saturday:"]),
    // the Library: borrowing; "book" the noun is not booking a room
    row("b1", "how many times can I renew a book?", Library, &["up to 2 times"], NOT_ROOMS),
    row(
        "b2",
        "I lost a library book, what do I do?",
        Library,
        &[NOT_SAVED, "service desk"],
        &["28-day", "Overdue fines", "Book a room", "Do you mean"],
    ),
    row("b3", "how much is the fine for an overdue laptop?", Library, &["€5.00 per day"], NOT_ROOMS),
    row("b4", "how long can I borrow a DVD", Library, &["7-day loan"], NOT_ROOMS),
    row("b5", "how long is the loan period for books", Library, &["28-day loan"], &["Colour"]),
    row("b6", "¿puedo renovar un libro?", Library, &["up to 2 times"], NOT_ROOMS),
    row("b7", "kitab renew kaise karte hain?", Library, &["up to 2 times"], NOT_ROOMS),
    row(
        "b8",
        "someone put a hold on my book, can I still renew it",
        Library,
        &["unless someone has placed a hold"],
        NOT_ROOMS,
    ),
    // the Library: printing, rooms, finding things
    row(
        "p1",
        "how much does colour printing cost?",
        Library,
        &["Colour, single-sided: €0.50 per page"],
        &["28-day"],
    ),
    row("p2", "¿cuánto cuesta imprimir en blanco y negro?", Library, &["€0.10 per page"], &["28-day"]),
    row("p3", "combien coûte une copie couleur ?", Library, &["€0.50"], &["28-day"]),
    row("p4", "can I pay for printing with cash?", Library, &["cash is not accepted"], &["28-day"]),
    row("p5", "can I scan pages to my email for free?", Library, &["Scanning to email is free"], &[]),
    row("r1", "how many people fit in study room C?", Library, &["10 people"], &["28-day"]),
    row("r2", "can we eat in the study rooms?", Library, &["no food in the rooms"], &["28-day"]),
    row("r3", "what happens if we are late for our room booking?", Library, &["15 minutes"], &["28-day"]),
    row("f1", "where are the course reserves?", Library, &["service desk"], &["28-day loan."]),
    row(
        "f2",
        "how do I request a book the library doesn't have?",
        Library,
        &["Interlibrary loan"],
        NOT_ROOMS,
    ),
    row("f3", "I forgot my library PIN", Library, &["reset the PIN"], NOT_ROOMS),
    // the Library: what its saved information does not say is said so, never another line
    row(
        "n1",
        "I can't find my library card anywhere, what should I do?",
        Library,
        &["service desk"],
        &["€", "8:00", "28-day"],
    ),
    // the Tutor: typos, embedded expressions, five languages
    row("t1", "wat is the derivitive of cos(x)", Tutor, &["-sin(x)"], &["couldn't read"]),
    row("t2", "whats the derivatve of x^3", Tutor, &["3x^2"], &["couldn't read"]),
    row(
        "t3",
        "hey can u help me, whats the derivative of x^2+3x pls thanks",
        Tutor,
        &["2x + 3"],
        &["couldn't read"],
    ),
    row("t4", "derivada de x^2", Tutor, &["2x"], &["couldn't read"]),
    row("t5", "dérivée de sin(x)", Tutor, &["cos(x)"], &["couldn't read"]),
    row("t6", "Ableitung von x^3", Tutor, &["3x^2"], &["couldn't read"]),
    row("t7", "x^2 ka derivative batao", Tutor, &["2x"], &["couldn't read"]),
    row("t8", "intergral of 2x", Tutor, &["x^2 + C"], &["couldn't read"]),
    row("t9", "x^2 ka integral", Tutor, &["x^3/3 + C"], &["couldn't read"]),
    row("t10", "integral de cos(x)", Tutor, &["sin(x) + C"], &["couldn't read"]),
    // the Tutor: limits
    row("l1", "limit of sin(x)/x as x goes to 0", Tutor, &["= 1"], &["can't"]),
    row("l2", "lim x->1 (x^2-1)/(x-1)", Tutor, &["= 2"], &["can't"]),
    row("l3", "limit of (1-cos(x))/x as x approaches 0", Tutor, &["= 0"], &["can't"]),
    row("l4", "limit of (e^x-1)/x as x -> 0", Tutor, &["= 1"], &["can't"]),
    row("l5", "limit of (3x^2+1)/(x^2-5) as x goes to infinity", Tutor, &["= 3"], &["can't"]),
    row("l6", "límite de (x^2-4)/(x-2) cuando x tiende a 2", Tutor, &["= 4"], &["can't"]),
    // the Tutor: integrals by parts, substitution, definite
    row("i1", "integrate x*e^x", Tutor, &["e^x", "+ C"], &["I can't compute"]),
    row("i2", "integrate x*sin(x)", Tutor, &["-x·cos(x) + sin(x) + C"], &["I can't compute"]),
    row("i3", "integrate ln(x)", Tutor, &["x·ln(x) - x + C"], &["I can't compute"]),
    row("i4", "integrate 2x*cos(x^2)", Tutor, &["sin(x^2) + C"], &["I can't compute"]),
    row("i5", "integrate x^2 from 0 to 3", Tutor, &["= 9"], &["I can't compute"]),
    row("i6", "integral of sin(x) from 0 to pi", Tutor, &["= 2"], &["I can't compute"]),
    // the Tutor: another example, each time a different one, through the Hub's thread
    row("e1", "what is the chain rule?", Tutor, &["chain rule"], &[]),
    row("e1", "can you give me another example of the chain rule", Tutor, &["chain rule"], &[]),
    row("e1", "another example please", Tutor, &["chain rule"], &["isn't something"]),
    row("e1", "one more example", Tutor, &["chain rule"], &["isn't something"]),
    row("e1", "thanks!", Hub("courtesy"), &["You're welcome"], &["say a little more"]),
    row("e1", "otro ejemplo", Tutor, &["chain rule"], &["isn't something"]),
    // follow-ups keep the thread
    row("u1", "derivative of x^3", Tutor, &["3x^2"], &[]),
    row("u1", "and at x=2?", Tutor, &["12"], &["isn't something"]),
    row("u1", "why?", Tutor, &["power rule", "3x^2"], &["isn't something", "say a little more"]),
    row("u3", "integrate x*e^x", Tutor, &["+ C"], &[]),
    row("u3", "warum?", Tutor, &["by parts", "x·e^x - e^x + C"], &["isn't something"]),
    row("u2", "when is the library open on sunday?", Library, &["Sunday: 12:00–18:00"], &[]),
    row("u2", "and on saturday?", Library, &["Saturday: 10:00–18:00"], &["isn't something"]),
    // small talk
    row("s1", "hi", Hub("courtesy"), &["Hello!", "Tutoring", "Library"], &["say a little more"]),
    row("s1", "thank you so much", Hub("courtesy"), &["You're welcome"], &["say a little more"]),
    row("s1", "bye", Hub("courtesy"), &["Goodbye"], &["say a little more"]),
    row("s2", "hola", Hub("courtesy"), &["Hello!"], &["say a little more"]),
    row("s3", "danke", Hub("courtesy"), &["You're welcome"], &[]),
    row("s4", "namaste", Hub("courtesy"), &["Hello!"], &[]),
    row("s5", "merci beaucoup", Hub("courtesy"), &["You're welcome"], &[]),
    row(
        "w1",
        "is the library open this weekend?",
        Library,
        &["Saturday: 10:00–18:00", "Sunday: 12:00–18:00"],
        &["Monday:"],
    ),
    row("w2", "are you open on christmas day?", Library, &["Public holidays: closed"], &["Friday:"]),
    row(
        "w3",
        "printing hours?",
        Library,
        &["Do you mean Library hours or Printing?"],
        &["Study", "Borrowing"],
    ),
    row(
        "l7",
        "limit of 1/x as x goes to 0",
        Tutor,
        &["does not exist", "-∞", "go where each side is said to go"],
        &["agree"],
    ),
    row("i7", "∫_0^1 x e^x dx", Tutor, &["= 1"], &["I can't compute"]),
    row("t11", "derivative of x^2*e^x", Tutor, &["2x·e^x + x^2·e^x"], &["couldn't read"]),
    // every worked example once, then it says it starts again, never silently the same
    row("e2", "explain the product rule", Tutor, &["product rule"], &[]),
    row("e2", "another example", Tutor, &["product rule"], &["starting again"]),
    row("e2", "another example", Tutor, &["product rule"], &["starting again"]),
    row("e2", "another example", Tutor, &["product rule"], &[]),
    row("e2", "another example", Tutor, &["product rule"], &[]),
    // things that must be declined, naming what is offered
    row("d1", "can you fix my kitchen sink?", Hub("unsupported"), &["I can help with"], &[]),
    row("d2", "what's the weather tomorrow?", Hub("unsupported"), &["I can help with"], &[]),
    row("d3", "another example please", Hub("unsupported"), &["I can help with"], &[]),
    row("d4", "write my history essay for me", Hub("unsupported"), &["I can help with"], &[]),
    // and ones that go to the right service despite the words they share
    row("x1", "can I book a study room?", Library, &["form"], &["28-day"]),
    row("x2", "what is a derivative?", Tutor, &["derivative"], &[]),
    row("x3", "explain integration by parts", Tutor, &["parts"], &[]),
    row("x4", "what is the limit of a function", Tutor, &["limit"], &[]),
    // issue 20's second round, the Tutor's part: a value at a point in each language
    row("tut2-p1", "Ableitung von x^2 an der Stelle x=3", Tutor, &["f'(3) = 6"], &["couldn't read"]),
    row("tut2-p2", "Ableitung von x^3 bei x=2", Tutor, &["f'(2) = 12"], &["couldn't read"]),
    row("tut2-p3", "dérivée de x^2 en x = 1", Tutor, &["f'(1) = 2"], &["couldn't read"]),
    row("tut2-p4", "derivada de x^2 en x = 1", Tutor, &["f'(1) = 2"], &["couldn't read"]),
    row("tut2-p5", "derivada de x^3 para x = -1", Tutor, &["f'(-1) = 3"], &["couldn't read"]),
    row("tut2-p6", "x^2 ka derivative x=3 par", Tutor, &["f'(3) = 6"], &["unexpected character"]),
    row("tut2-p7", "x^2 ka limit jab x 3 ki taraf jaye", Tutor, &["lim x→3 x^2 = 9"], &["couldn't read"]),
    row("tut2-p9", "derivada de x^2 en 3", Tutor, &["f'(3) = 6"], &["couldn't read"]),
    row("tut2-p10", "valor de x^3 en x = 2", Tutor, &["f(2) = 8"], &["couldn't read", "isn't something"]),
    row("tut2-p8", "derivative of x^2", Tutor, &["2x"], &[]),
    row("tut2-p8", "und bei x=5?", Tutor, &["f'(5) = 10"], &["couldn't read", "isn't something"]),
    // thanks with more words are small talk; thanks that also ask are questions
    row("tut2-c1", "thanks, that helped", Hub("courtesy"), &["You're welcome"], &["say a little more"]),
    row("tut2-c2", "gracias por la ayuda", Hub("courtesy"), &["You're welcome"], &["say a little more"]),
    row("tut2-c3", "merci pour ton aide", Hub("courtesy"), &["You're welcome"], &["isn't something"]),
    row("tut2-c4", "danke für die Hilfe", Hub("courtesy"), &["You're welcome"], &["isn't something"]),
    row("tut2-c5", "thank you so much!", Hub("courtesy"), &["You're welcome"], &["say a little more"]),
    row("tut2-c6", "thanks, and what is a derivative?", Tutor, &["derivative"], &["You're welcome"]),
    row("tut2-c7", "derivative of x^3", Tutor, &["3x^2"], &[]),
    row("tut2-c7", "thanks, that helped!", Hub("courtesy"), &["You're welcome"], &["3x^2"]),
    row("tut2-c7", "bis bald!", Hub("courtesy"), &["Goodbye"], &["isn't something"]),
    row("tut2-c8", "thanks tutor", Hub("courtesy"), &["You're welcome"], &["calculus"]),
    // rule names in Spanish and German (a German compound by its parts), a follow-up
    // example in German, and scanning
    row("tut2-r1", "explica la regla de la cadena", Tutor, &["The chain rule"], &["isn't something"]),
    row("tut2-r2", "was ist die Kettenregel?", Tutor, &["The chain rule"], &["isn't something"]),
    row("tut2-r3", "erkläre die Kettenregel", Tutor, &["The chain rule"], &["isn't something"]),
    row("tut2-r3", "noch ein Beispiel", Tutor, &["chain rule, worked example 2"], &["isn't something"]),
    row("tut2-r4", "was ist die Produktregel?", Tutor, &["The product rule"], &["isn't something"]),
    row(
        "tut2-r5",
        "is scanning free",
        Library,
        &["Scanning to email is free"],
        &["isn't something", "€0.50"],
    ),
    // "why?" after a computed limit, and the integral of 1/x is the log rule
    row("tut2-w1", "limit of sin(x)/x as x goes to 0", Tutor, &["= 1"], &[]),
    row(
        "tut2-w1",
        "why?",
        Tutor,
        &["standard limit sin(x)/x → 1", "So lim x→0 sin(x)/x = 1."],
        &["haven't computed", "isn't something"],
    ),
    row("tut2-w2", "integrate 1/x", Tutor, &["ln|x| + C", "log rule"], &["power rule"]),
    row("tut2-w2", "why?", Tutor, &["log rule", "ln|x|"], &["power rule", "isn't something"]),
    // the Library: a weekday alone is its next date (tomorrow, Christmas Day, is closed);
    // said as a habit it is the weekly line
    row(
        "lib2-1",
        "is the library open on friday?",
        Library,
        &[FRIDAY_XMAS, "closed"],
        &["Friday: 8:00–20:00"],
    ),
    row(
        "lib2-2",
        "¿la biblioteca abre el viernes?",
        Library,
        &[FRIDAY_XMAS, "closed"],
        &["Friday: 8:00–20:00"],
    ),
    row(
        "lib2-3",
        "Hat die Bibliothek am Freitag geöffnet?",
        Library,
        &[FRIDAY_XMAS, "closed"],
        &["Friday: 8:00–20:00"],
    ),
    row(
        "lib2-4",
        "is the library open on fridays?",
        Library,
        &["Friday: 8:00–20:00"],
        &["Friday is", "closed"],
    ),
    // what is not saved is said so; a line that answers is found where it is kept
    row(
        "lib2-5",
        "how many books can I borrow at once?",
        Library,
        &[NOT_SAVED],
        &["28-day loan", "Short-loan"],
    ),
    // a subject's books are its shelf: the floors line, though Borrowing (the Hub's pick)
    // does not keep it
    row("lib2-6", "where are the maths books?", Library, &[MATHS], &[NOT_SAVED, "28-day loan", "Short-loan"]),
    row(
        "lib2-7",
        "what floor is the quiet room on",
        Library,
        &["Fourth floor: quiet reading room"],
        &["Group study rooms A, B and C"],
    ),
    row(
        "lib2-8",
        "can I borrow a book from another university?",
        Library,
        &["Interlibrary loan"],
        &["28-day"],
    ),
    row(
        "lib2-9",
        "can I place a hold on a book?",
        Library,
        &["Place a hold at the service desk"],
        &["Interlibrary"],
    ),
    row(
        "lib2-10",
        "what happens if I return a laptop late",
        Library,
        &["laptops €5.00 per day"],
        &[NOT_SAVED],
    ),
    row("lib2-11", "where can I find a book on calculus?", Library, &[MATHS], &[NOT_SAVED, "28-day"]),
    row(
        "lib2-12",
        "can I use the databases from home?",
        Library,
        &["Databases and e-journals work off campus"],
        &["Course reserves"],
    ),
    // cancelling is a rule in the content, not the booking form; booking still is the form
    row(
        "lib2-13",
        "can I cancel my room booking",
        Library,
        &["Cancel a booking online"],
        &["form", NOT_SAVED],
    ),
    row("lib2-14", "how do I cancel a booking?", Library, &["Cancel a booking online"], &["form", NOT_SAVED]),
    row("lib2-15", "book a room for tomorrow", Library, &["form"], &["Cancel a booking"]),
    // the same in other languages
    row(
        "lib2-16",
        "¿en qué piso está la sala silenciosa?",
        Library,
        &["Fourth floor: quiet reading room"],
        &[],
    ),
    row("lib2-17", "¿puedo cancelar mi reserva de sala?", Library, &["Cancel a booking online"], &["form"]),
    row("lib2-18", "combien de livres puis-je emprunter à la fois ?", Library, &[NOT_SAVED], &["28-day"]),
    row(
        "lib2-19",
        "la bibliothèque ouvre à quelle heure vendredi ?",
        Library,
        &[FRIDAY_XMAS],
        &["8:00–20:00"],
    ),
];

/// The Library's lead for a Friday asked on Thursday 24 December 2026.
const FRIDAY_XMAS: &str = "Friday is 25 December 2026 (Pacific Time): Christmas Day, a public holiday.";
/// The Library's reply when its saved information does not answer.
const NOT_SAVED: &str = "isn't in the Library's saved information";
/// The floors line's science and mathematics floor.
const MATHS: &str = "First floor: sciences and mathematics";

#[test]
fn a_table_of_questions_gets_the_right_service_and_the_right_facts() {
    assert!(ROWS.len() >= 80, "at least 80 questions: {}", ROWS.len());
    let rows: Vec<&Row> = ROWS.iter().chain(third::ROWS).chain(professor::ROWS).collect();
    let u = University::start(&[], &[("LIBRARY_CLOCK", CLOCK)]);
    u.wait_ready();
    let failures = rt().block_on(async {
        let mut failures = Vec::new();
        let mut me = Student::new(A2aClient::default(), u.hub_url.clone());
        let mut current = "";
        for r in &rows {
            if r.conversation != current {
                me = Student::new(A2aClient::default(), u.hub_url.clone());
                current = r.conversation;
            }
            let got = me.ask(r.ask).await.unwrap_or_else(|e| panic!("{}: {e}", r.ask));
            let by = got.attribution.as_ref().and_then(|a| a["id"].as_str()).unwrap_or_default().to_string();
            let outcome = got.outcome.clone().unwrap_or_default();
            let text = &got.reply_text;
            let served = match r.by {
                Tutor => by == "tutor" && (outcome == "route" || outcome == "form"),
                Library => by == "library" && (outcome == "route" || outcome == "form"),
                Professor => by == "professor" && outcome == "route",
                Hub(want) => by == "hub" && outcome == want,
            };
            let missing: Vec<&&str> = r.has.iter().filter(|f| !text.contains(**f)).collect();
            let wrong: Vec<&&str> = r.lacks.iter().filter(|f| text.contains(**f)).collect();
            if !served || !missing.is_empty() || !wrong.is_empty() {
                failures.push(format!(
                    "[{}] {:?} → {by}/{outcome} (want {:?}); missing {missing:?}; must not hold {wrong:?}:\n    {}",
                    r.conversation,
                    r.ask,
                    r.by,
                    text.replace('\n', "\n    ")
                ));
            }
        }
        failures
    });
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

/// "Another example", asked again and again through the Hub: a different worked example
/// each time (at least three), and once every one was shown it says it starts again —
/// never the same one silently.
#[test]
fn another_example_is_a_different_one_each_time_until_it_says_it_starts_again() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    rt().block_on(async {
        let me = Student::new(A2aClient::default(), u.hub_url.clone());
        let first = me.ask("explain the chain rule").await.expect("ask");
        let mut seen = vec![first.reply_text.clone()];
        for _ in 0..6 {
            let next = me.ask("another example please").await.expect("ask");
            assert_eq!(next.attribution.as_ref().unwrap()["id"], "tutor", "{}", next.reply_text);
            if next.reply_text.contains("starting again") {
                assert!(seen.len() >= 3, "at least three examples before starting again: {seen:#?}");
                return;
            }
            assert!(!seen.contains(&next.reply_text), "the same example again: {}", next.reply_text);
            seen.push(next.reply_text);
        }
        panic!("never said it starts again after {} examples", seen.len());
    });
}
