//! Issue 20's third round: held-out paraphrases an independent checker asked, and more of
//! each kind that nothing was tuned on. The Library finds the one line that answers — in
//! the skill the Hub chose or, when that skill has nothing of the question, the line of
//! another enabled skill that clearly answers it — or says that it is not saved; the Tutor
//! reads the point, the bounds or the words of an expression inside the sentence; the Hub
//! answers small talk itself. The Tutor's fourth round (tut4-*): expressions inside
//! framing words, limits said without the word, bare follow-ups on a new expression or
//! point, another one in each language, improper integrals, and "I don't get it".

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
    // the Tutor's fourth round: an expression inside framing words it does not know
    row("tut4-1", "mujhe x^3 ka derivative chahiye", Tutor, &["f'(x) = 3x^2"], &["couldn't read"]),
    row("tut4-2", "kya aap x^2 ka derivative bata sakte ho", Tutor, &["f'(x) = 2x"], &["couldn't read"]),
    row("tut4-3", "mujhe sin(x) ka integral chahiye", Tutor, &["= -cos(x) + C"], &["couldn't read"]),
    row("tut4-4", "necesito la derivada de x^3 para mi tarea", Tutor, &["f'(x) = 3x^2"], &["couldn't read"]),
    row(
        "tut4-5",
        "j'ai besoin de la dérivée de x^4 s'il vous plaît",
        Tutor,
        &["f'(x) = 4x^3"],
        &["couldn't read"],
    ),
    row("tut4-6", "kannst du mir bitte x^2 ableiten", Tutor, &["f'(x) = 2x"], &["couldn't read"]),
    row(
        "tut4-7",
        "could you quickly get me the derivative of ln(x) for my homework",
        Tutor,
        &["f'(x) = 1/x"],
        &["couldn't read"],
    ),
    // limits said without the word "limit"
    row(
        "tut4-8",
        "what does sin(x)/x approach as x goes to 0",
        Tutor,
        &["lim x→0 sin(x)/x = 1"],
        &["couldn't read"],
    ),
    row(
        "tut4-9",
        "what happens to (x^2-1)/(x-1) as x gets close to 1",
        Tutor,
        &["lim x→1 (x^2-1)/(x-1) = 2"],
        &["couldn't read"],
    ),
    row(
        "tut4-10",
        "what value does (x^2-9)/(x-3) tend to as x approaches 3",
        Tutor,
        &["= 6"],
        &["couldn't read"],
    ),
    row("tut4-11", "qué pasa con sin(x)/x cuando x tiende a 0", Tutor, &["= 1"], &["couldn't read"]),
    row("tut4-12", "vers quoi tend (x^2-4)/(x-2) quand x tend vers 2", Tutor, &["= 4"], &["couldn't read"]),
    row(
        "tut4-13",
        "was passiert mit 1/x wenn x gegen unendlich geht",
        Tutor,
        &["lim x→∞ 1/x = 0"],
        &["couldn't read"],
    ),
    row("tut4-14", "jab x 0 ki taraf jaye to sin(x)/x kya hota hai", Tutor, &["= 1"], &["couldn't read"]),
    // a bare follow-up after a computed answer: the same on the new expression or point
    row("tut4-15", "derivative of x^3", Tutor, &["f'(x) = 3x^2"], &[]),
    row("tut4-15", "and x^4?", Tutor, &["f'(x) = 4x^3"], &["couldn't read", "say a little more"]),
    row(
        "tut4-15",
        "what about cos(x)?",
        Tutor,
        &["f'(x) = -sin(x)"],
        &["couldn't read", "say a little more"],
    ),
    row("tut4-15", "y e^(2x)?", Tutor, &["f'(x) = 2e^(2x)"], &["couldn't read", "say a little more"]),
    row("tut4-16", "limit of x^2 as x goes to 3", Tutor, &["= 9"], &[]),
    row("tut4-16", "x=4?", Tutor, &["lim x→4 x^2 = 16"], &["outside calculus", "isn't something"]),
    row("tut4-17", "derivative of x^2 at x=3", Tutor, &["f'(3) = 6"], &[]),
    row("tut4-17", "x=4?", Tutor, &["f'(4) = 8"], &["outside calculus", "isn't something"]),
    row("tut4-17", "und x^3?", Tutor, &["f'(4) = 48"], &["couldn't read"]),
    row("tut4-18", "explain the chain rule", Tutor, &["The chain rule."], &[]),
    row(
        "tut4-18",
        "otro más",
        Tutor,
        &["worked example 2 of"],
        &["I can help with calculus", "isn't something"],
    ),
    row("tut4-19", "integrate x^2 from 0 to 3", Tutor, &["= 9"], &[]),
    row("tut4-19", "et x^3 ?", Tutor, &["from 0 to 3 of x^3 dx = 81/4"], &["couldn't read"]),
    row("tut4-20", "limit of (x^2-4)/(x-2) as x -> 2", Tutor, &["= 4"], &[]),
    row("tut4-20", "what about (x^3-8)/(x-2)?", Tutor, &["lim x→2 (x^3-8)/(x-2) = 12"], &["couldn't read"]),
    row("tut4-20", "aur x=3?", Tutor, &["lim x→3 (x^3-8)/(x-2) = 19"], &["isn't something"]),
    row("tut4-21", "what is integration by parts", Tutor, &["Integration by parts."], &[]),
    row("tut4-21", "uno más", Tutor, &["worked example 2 of 3"], &["isn't something"]),
    row("tut4-21", "encore un", Tutor, &["worked example 3 of 3"], &["isn't something"]),
    row("tut4-21", "ek aur", Tutor, &["starting again from the first"], &["isn't something"]),
    // improper integrals to infinity: the limit, exact, or that it diverges
    row(
        "tut4-22",
        "integral of 1/x^2 from 1 to infinity",
        Tutor,
        &["= 1 (it converges)", "F(x) = -1/x"],
        &["couldn't read"],
    ),
    row("tut4-23", "integral of 1/x from 1 to infinity", Tutor, &["diverges (to ∞)"], &["converges"]),
    row("tut4-24", "integrate e^(-x) from 0 to infinity", Tutor, &["= 1 (it converges)"], &["couldn't read"]),
    row(
        "tut4-25",
        "integral de 1/x^3 de 1 a infinito",
        Tutor,
        &["= 1/2 ≈ 0.5 (it converges)"],
        &["couldn't read"],
    ),
    row(
        "tut4-26",
        "Integral von e^x von -unendlich bis 0",
        Tutor,
        &["from -∞ to 0 of e^x dx = 1"],
        &["couldn't read"],
    ),
    row(
        "tut4-27",
        "1/x^2 ka integral 1 se infinity tak",
        Tutor,
        &["from 1 to ∞ of 1/x^2 dx = 1"],
        &["couldn't read"],
    ),
    row(
        "tut4-28",
        "intégrale de 1/x^2 de 1 à l'infini",
        Tutor,
        &["from 1 to ∞ of 1/x^2 dx = 1"],
        &["couldn't read"],
    ),
    // not understood: said another way, never the same text again
    row("tut4-29", "explain the chain rule", Tutor, &["The chain rule."], &[]),
    row(
        "tut4-29",
        "I don't get it",
        Tutor,
        &["The idea behind the chain rule", "worked example 2 of"],
        &["couldn't read", "I didn't find", "say a little more"],
    ),
    row(
        "tut4-29",
        "can you explain it differently?",
        Tutor,
        &["worked example 3 of"],
        &["The idea behind", "couldn't read", "I didn't find"],
    ),
    row("tut4-30", "derivative of x^3", Tutor, &["f'(x) = 3x^2"], &[]),
    row("tut4-30", "I don't understand", Tutor, &["step by step", "power rule"], &["I didn't find"]),
    row("tut4-30", "no entiendo", Tutor, &["The power rule."], &["step by step", "I didn't find"]),
    row("tut4-31", "explain the product rule", Tutor, &["The product rule."], &[]),
    row("tut4-31", "je ne comprends pas", Tutor, &["The idea behind the product rule"], &["I didn't find"]),
    row("tut4-32", "what is the quotient rule", Tutor, &["The quotient rule."], &[]),
    row(
        "tut4-32",
        "ich verstehe das nicht",
        Tutor,
        &["The idea behind the quotient rule"],
        &["I didn't find"],
    ),
    row("tut4-33", "explain integration by parts", Tutor, &["Integration by parts."], &[]),
    row("tut4-33", "samajh nahi aaya", Tutor, &["The idea behind integration by parts"], &["I didn't find"]),
];
