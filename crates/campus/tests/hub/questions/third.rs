//! Issue 20's third round: held-out paraphrases an independent checker asked, and more of
//! each kind that nothing was tuned on. The Library finds the one line that answers — in
//! the skill the Hub chose or, when that skill has nothing of the question, the line of
//! another enabled skill that clearly answers it — or says that it is not saved; the Tutor
//! reads the point, the bounds or the words of an expression inside the sentence; the Hub
//! answers small talk itself.

use super::By::{Hub, Library, Tutor};
use super::{NOT_SAVED, Row, row};

const ILL: &str = "Interlibrary loan: request an item";
const LOANS: &[&str] = &["28-day loan", "Short-loan", "7-day loan"];
const FLOORS: &str = "First floor: sciences and mathematics";
const HOLD: &str = "Place a hold at the service desk";
const PAY: &str = "Pay with your campus card";
const ROOMS: &str = "seat up to 4, 6 and 10 people";
const QUIET: &str = "Fourth floor: quiet reading room";

pub(super) const ROWS: &[Row] = &[
    // an item the library does not have is interlibrary loan, never the loan periods
    row("lib3-1", "can I get a book the library doesn't have?", Library, &[ILL], LOANS),
    row("lib3-2", "the library doesn't have my book, can you order it?", Library, &[ILL], LOANS),
    row("lib3-3", "how do I borrow from another library", Library, &[ILL], LOANS),
    row("lib3-4", "is it possible to get a book you don't have in the collection?", Library, &[ILL], LOANS),
    row("lib3-5", "¿puedo pedir prestado un libro que la biblioteca no tiene?", Library, &[ILL], LOANS),
    // a thing no line is about is not saved
    row("lib3-6", "can I borrow a calculator?", Library, &[NOT_SAVED], LOANS),
    row("lib3-7", "can I borrow headphones?", Library, &[NOT_SAVED], LOANS),
    // a subject's shelf is the floors line, though the Hub chose Borrowing
    row("lib3-8", "where are the physics books", Library, &[FLOORS], &[NOT_SAVED, "28-day"]),
    row("lib3-9", "où sont les livres de physique ?", Library, &[FLOORS], &[NOT_SAVED, "28-day"]),
    row("lib3-10", "wo sind die Mathebücher?", Library, &[FLOORS], &[NOT_SAVED, "28-day"]),
    row("lib3-11", "where are the biology books?", Library, &[FLOORS], &[NOT_SAVED, "28-day"]),
    row("lib3-12", "wo finde ich Bücher über Chemie?", Library, &[FLOORS], &[NOT_SAVED, "28-day"]),
    // finding a book is the catalogue; reserving one that is out is a hold
    row(
        "lib3-13",
        "how do I find a book in the library?",
        Library,
        &["Search the catalogue"],
        &[NOT_SAVED, ILL],
    ),
    row("lib3-14", "how do I search for a book?", Library, &["Search the catalogue"], &[NOT_SAVED, ILL]),
    row(
        "lib3-15",
        "how do I reserve a book that is checked out?",
        Library,
        &[HOLD],
        &[NOT_SAVED, ILL, "renew"],
    ),
    row(
        "lib3-16",
        "can I reserve a book someone else has borrowed?",
        Library,
        &[HOLD],
        &[NOT_SAVED, "renew"],
    ),
    row("lib3-17", "where do I collect a book I reserved?", Library, &[HOLD], &["renew", "28-day"]),
    // one line where one line answers
    row(
        "lib3-18",
        "Was kostet ein Farbdruck?",
        Library,
        &["€0.50 per page", "€0.80 per sheet"],
        &["€0.10", PAY],
    ),
    row(
        "lib3-19",
        "¿puedo pagar en efectivo la impresión?",
        Library,
        &["cash is not accepted"],
        &["€0.10", "Scanning"],
    ),
    row("lib3-20", "can I pay cash for copies?", Library, &["cash is not accepted"], &["€0.10", "Scanning"]),
    row("lib3-21", "can I print from my laptop?", Library, &[NOT_SAVED], &["€0.10", PAY, "7-day"]),
    row(
        "lib3-22",
        "¿cuántas personas caben en la sala B?",
        Library,
        &[ROOMS],
        &["14 days ahead", "no food", "Cancel"],
    ),
    row(
        "lib3-23",
        "la salle A peut accueillir combien de personnes ?",
        Library,
        &[ROOMS],
        &["14 days", "Cancel"],
    ),
    row("lib3-24", "how many people fit in room A?", Library, &[ROOMS], &["14 days ahead", "Cancel"]),
    row("lib3-25", "where can I study quietly?", Library, &[QUIET], &["14 days ahead", "Cancel", "no food"]),
    row(
        "lib3-27",
        "are e-journals available from home?",
        Library,
        &["work off campus"],
        &["Course reserves", "says no more than this"],
    ),
    row("lib3-29", "do you have a photocopier?", Library, &[NOT_SAVED], &["€0.10", PAY]),
    row("lib3-30", "can I print from my phone?", Library, &[NOT_SAVED], &["€0.10", PAY, "Scanning"]),
    row("lib3-31", "are the study rooms soundproof?", Library, &[NOT_SAVED], &[ROOMS, "14 days"]),
    row(
        "lib3-32",
        "Combien coûte une photocopie en noir et blanc ?",
        Library,
        &["€0.10 per page", "€0.15 per sheet"],
        &["€0.50", PAY],
    ),
    row(
        "lib3-33",
        "À quelle heure ferme la bibliothèque ce soir ?",
        Library,
        &["Thursday", "22:00"],
        &["Monday:"],
    ),
    row("lib3-34", "hay salas silenciosas en la biblioteca?", Library, &[QUIET], &[ROOMS, NOT_SAVED]),
    // more of each kind, asked once, never tuned on
    row("lib3-35", "I want a book you don't own", Library, &[ILL], LOANS),
    row("lib3-36", "library mein kitab nahi hai, kaise mangwau?", Library, &[ILL], LOANS),
    row("lib3-37", "can I borrow a projector?", Library, &[NOT_SAVED], LOANS),
    row("lib3-38", "can I put a hold on a book that's on loan?", Library, &[HOLD], &["renew", NOT_SAVED]),
    row(
        "lib3-39",
        "what's the price of a black and white copy?",
        Library,
        &["€0.10", "€0.15"],
        &["€0.50", PAY],
    ),
    row("lib3-40", "can I pay by card for printing?", Library, &[PAY], &["€0.10", "Scanning"]),
    row("lib3-41", "Kann ich bar bezahlen beim Drucken?", Library, &["cash is not accepted"], &["€0.10"]),
    row("lib3-42", "which study room is the biggest?", Library, &[ROOMS], &["14 days", "Cancel"]),
    row("lib3-43", "where can I study in silence?", Library, &[QUIET], &["14 days", NOT_SAVED]),
    row(
        "lib3-44",
        "¿dónde están los libros de historia?",
        Library,
        &["Third floor: humanities"],
        &["28-day"],
    ),
    row("lib3-45", "how do I look up a book in the catalogue?", Library, &["Search the catalogue"], &[ILL]),
    // a new day or new bounds alone goes where the last question went, whatever the router
    // makes of its few words
    row("hub3-9", "is the library open on monday?", Library, &["Monday"], &[]),
    row("hub3-9", "what about tuesday?", Library, &["Tuesday"], &["tutor", "Do you mean"]),
    row("hub3-10", "integrate x^2", Tutor, &["x^3/3"], &[]),
    row("hub3-10", "from 0 to 3?", Tutor, &["= 9"], &["say a little more"]),
    // another example, asked other ways, gives the next one each time
    row("tut3-22", "what is the chain rule?", Tutor, &["The chain rule"], &[]),
    row("tut3-22", "example please", Tutor, &["worked example 2 of"], &["Which function"]),
    row("tut3-22", "show me a different one", Tutor, &["worked example 3 of"], &["Which function"]),
    // what to do with a book one borrowed is a rules question, not one's own loans
    row(
        "lib3-46",
        "what happens if I lose a book I borrowed from the library?",
        Library,
        &["service desk"],
        &["Calculus in Motion", "Your loans", "due 20"],
    ),
    // small talk the Hub answers itself, in a conversation and out of one
    row("hub3-1", "kaise ho", Hub("courtesy"), &["Hello!"], &["say a little more", "isn't something"]),
    row("hub3-2", "ok cool", Hub("courtesy"), &["You're welcome"], &["say a little more", "isn't something"]),
    row("hub3-3", "hey, how are you?", Hub("courtesy"), &["Hello!"], &["say a little more"]),
    row("hub3-4", "¿qué tal?", Hub("courtesy"), &["Hello!"], &["say a little more", "isn't something"]),
    row("hub3-5", "derivative of x^3", Tutor, &["3x^2"], &[]),
    row("hub3-5", "got it, great", Hub("courtesy"), &["You're welcome"], &["3x^2", "isn't something"]),
    row("hub3-5", "ok bye", Hub("courtesy"), &["Goodbye"], &["isn't something"]),
    // the Tutor: "and another" after an example, "why?" after an explanation is why the
    // rule holds (after a computation, the rules it used)
    row("tut3-1", "explain the chain rule", Tutor, &["The chain rule."], &[]),
    row(
        "tut3-1",
        "and another",
        Tutor,
        &["chain rule, worked example 2 of 4"],
        &["I can help with calculus"],
    ),
    row("tut3-1", "why?", Tutor, &["The idea behind the chain rule", "rates multiply"], &["Why what?"]),
    row("tut3-2", "explain the power rule", Tutor, &["The power rule."], &[]),
    row("tut3-2", "why?", Tutor, &["The idea behind the power rule", "binomial theorem"], &["Why what?"]),
    row("tut3-2", "derivative of x^3", Tutor, &["f'(x) = 3x^2"], &[]),
    row("tut3-2", "why?", Tutor, &["power rule: (x^3)' = 3x^2"], &["The idea behind", "Why what?"]),
    row("tut3-3", "what is the product rule", Tutor, &["The product rule."], &[]),
    row(
        "tut3-3",
        "ok and another one",
        Tutor,
        &["product rule, worked example 2 of 3"],
        &["I can help with"],
    ),
    // a point said in words, in each language
    row("tut3-4", "derivative of x^3 when x is 2", Tutor, &["f'(2) = 12"], &["couldn't read"]),
    row("tut3-5", "derivative of x^3 if x = 2", Tutor, &["f'(2) = 12"], &["couldn't read"]),
    row("tut3-6", "derivada de x^2 cuando x vale 3", Tutor, &["f'(3) = 6"], &["couldn't read"]),
    row("tut3-7", "derivative of x^2 when x is 5", Tutor, &["f'(5) = 10"], &["couldn't read"]),
    row("tut3-8", "dérivez x^3 quand x vaut 1", Tutor, &["f'(1) = 3"], &["couldn't read"]),
    row("tut3-9", "find dy/dx if y = x^2", Tutor, &["f'(x) = 2x"], &["couldn't read", "f'(2)"]),
    // definite integrals with a verb of another language
    row("tut3-10", "intégrez x^2 de 0 à 1", Tutor, &["= 1/3"], &["couldn't read"]),
    row("tut3-11", "integra x de 0 a 2", Tutor, &["from 0 to 2 of x dx = 2"], &["couldn't read"]),
    // operators in words
    row("tut3-12", "3 x squared plus 2x", Tutor, &["f(x) = 3x^2 + 2x"], &["couldn't read"]),
    row("tut3-12", "differentiate it", Tutor, &["f'(x) = 6x + 2"], &["couldn't read"]),
    row("tut3-13", "differentiate x squared minus 3x", Tutor, &["f'(x) = 2x - 3"], &["couldn't read"]),
    // more of the Tutor's and the Hub's kinds, never tuned on
    row("tut3-14", "derivative of sin(x) when x equals 0", Tutor, &["f'(0) = 1"], &["couldn't read"]),
    row("tut3-15", "what's the derivative of x^4 if x is 1", Tutor, &["f'(1) = 4"], &["couldn't read"]),
    row("tut3-16", "derivative of x^2 + 1 when x is -1", Tutor, &["f'(-1) = -2"], &["couldn't read"]),
    row("tut3-17", "Ableitung von x^2 wenn x gleich 2", Tutor, &["f'(2) = 4"], &["couldn't read"]),
    row("tut3-18", "intègre x^3 de 0 à 2", Tutor, &["from 0 to 2 of x^3 dx = 4"], &["couldn't read"]),
    row(
        "tut3-19",
        "integrieren Sie x von 0 bis 2",
        Tutor,
        &["from 0 to 2 of x dx = 2"],
        &["Antiderivatives and"],
    ),
    row("tut3-20", "explain integration by parts", Tutor, &["Integration by parts."], &[]),
    row("tut3-20", "give me one more", Tutor, &["Integration by parts, worked example 2 of 3"], &[]),
    row(
        "tut3-20",
        "and why?",
        Tutor,
        &["The idea behind integration by parts", "product rule backwards"],
        &[],
    ),
    row("tut3-21", "x squared times sin(x)", Tutor, &["f(x) = x^2·sin(x)"], &["couldn't read"]),
    row("tut3-21", "differentiate it", Tutor, &["f'(x) = 2x·sin(x) + x^2·cos(x)"], &["couldn't read"]),
    row("hub3-6", "wie geht's?", Hub("courtesy"), &["Hello!"], &["say a little more"]),
    row("hub3-7", "ça va ?", Hub("courtesy"), &["Hello!"], &["say a little more"]),
    row("hub3-8", "cool thanks", Hub("courtesy"), &["You're welcome"], &["say a little more"]),
    // issue 20, fourth round: booking or reserving a book is a hold, never the room form
    row("lib4-1", "can I book a book?", Library, &[HOLD], &[ROOMS, "study room", "14 days"]),
    row("lib4-2", "can I reserve a book?", Library, &[HOLD], &[ROOMS, "study room", "14 days"]),
    row("lib4-3", "I want to book the chemistry textbook", Library, &[HOLD], &[FLOORS, "study room"]),
    row("lib4-4", "¿puedo reservar un libro?", Library, &[HOLD], &[ROOMS, "study room"]),
    row("lib4-5", "puis-je réserver un livre ?", Library, &[HOLD], &[ROOMS, "study room"]),
    row("lib4-6", "kann ich ein Buch reservieren?", Library, &[HOLD], &[ROOMS, "study room"]),
    // whether the library has a title: the catalogue (or not saved), never the loan periods
    row("lib4-7", "do you have the book Dune?", Library, &[], LOANS),
    row("lib4-8", "¿tienen el libro Rayuela?", Library, &[], LOANS),
    row("lib4-9", "does the library have a copy of Beloved?", Library, &[], LOANS),
    // a study room in French or German is the room form, as in English
    row("lib4-10", "est-ce que je peux réserver une salle d'étude ?", Library, &["form"], &[NOT_SAVED]),
    row("lib4-11", "Kann ich einen Gruppenraum reservieren?", Library, &["form"], &[NOT_SAVED]),
    row("lib4-12", "ich möchte einen Raum für Freitag buchen", Library, &["form"], &[NOT_SAVED]),
    // a follow-up keeps the last question's topic and changes what it names
    row("lib4-13", "what is the fine for a late book?", Library, &["€0.20 per item"], &[]),
    row("lib4-13", "and for laptops?", Library, &["laptops €5.00 per day"], &["7-day loan"]),
    row("lib4-14", "how much is the fine for an overdue book?", Library, &["€0.20 per item"], &[]),
    row("lib4-14", "¿y para los portátiles?", Library, &["laptops €5.00 per day"], &["7-day loan"]),
    row("lib4-15", "how long can I borrow a book?", Library, &["28-day loan"], &[]),
    row("lib4-15", "what about DVDs?", Library, &["7-day loan"], &["Overdue fines"]),
    // weekdays are Monday to Friday
    row("lib4-16", "library hours on weekdays?", Library, &["Monday:", "Friday:"], &["Saturday:", "Sunday:"]),
    row("lib4-17", "¿horario de la biblioteca entre semana?", Library, &["Monday:", "Friday:"], &["Sunday:"]),
    row("lib4-18", "Öffnungszeiten werktags?", Library, &["Monday:", "Friday:"], &["Sunday:"]),
    // what something costs is the price lines
    row("lib4-19", "photocopy kitne ka hai?", Library, &["€0.10 per page"], &[PAY, "Scanning"]),
    row("lib4-20", "how much is a photocopy?", Library, &["€0.10 per page"], &[PAY, "Scanning"]),
    row("lib4-21", "c'est combien une photocopie ?", Library, &["€0.10 per page"], &[PAY, "Scanning"]),
    // the router sends these to the Library: paying for prints in Spanish and French, the
    // quiet reading room in German
    row("lib4-22", "¿cómo pago las impresiones?", Library, &[PAY], &[NOT_SAVED, "€0.10"]),
    row("lib4-23", "comment je paie mes impressions ?", Library, &[PAY], &[NOT_SAVED, "€0.10"]),
    row("lib4-24", "comment payer l'impression ?", Library, &[PAY], &[NOT_SAVED, "€0.10"]),
    row("lib4-25", "wie bezahle ich das Drucken?", Library, &[PAY], &[NOT_SAVED, "€0.10"]),
    row("lib4-26", "wo ist der ruhige Lesesaal?", Library, &[QUIET], &[NOT_SAVED, ROOMS]),
    row("lib4-27", "wo ist der Lesesaal?", Library, &[QUIET], &[NOT_SAVED, ROOMS]),
    // holds, the service desk, sections, another campus, off campus, checking out
    row("lib4-28", "where do I pick up a hold?", Library, &[HOLD], &[NOT_SAVED, "renew"]),
    row("lib4-29", "how do I place a hold on a DVD?", Library, &[HOLD], &[NOT_SAVED, "7-day"]),
    row("lib4-30", "my hold is ready, where do I get it?", Library, &[HOLD], &[NOT_SAVED]),
    row("lib4-31", "where is the service desk?", Library, &["Ground floor: service desk"], &[NOT_SAVED]),
    row("lib4-32", "which floor is the service desk on?", Library, &["Ground floor: service desk"], &[]),
    row("lib4-33", "where's the maths section?", Library, &[FLOORS], &[NOT_SAVED]),
    row("lib4-34", "where is the history section?", Library, &["Third floor: humanities"], &[NOT_SAVED]),
    row("lib4-35", "can I get a book from another campus?", Library, &[ILL], LOANS),
    row("lib4-36", "can I borrow a book from the other campus?", Library, &[ILL], LOANS),
    row("lib4-37", "can I access e-journals off campus?", Library, &["work off campus"], &[NOT_SAVED]),
    row("lib4-38", "can I check out a camera?", Library, &[NOT_SAVED], LOANS),
    row("lib4-39", "can I borrow a camera?", Library, &[NOT_SAVED], LOANS),
];
