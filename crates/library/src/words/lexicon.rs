//! The lexicon of [`super`]: synonyms and the key words of Spanish, French, German and
//! Hindi/Hinglish, each mapped onto the English word the Library's content uses (before
//! stemming). Weekdays come from the booking form's reader ([`forms::read::weekday`]), so
//! both read the same day names.

/// The weekday a folded word names, as the booking form's reader reads it — but "mon" is
/// French for "my" and "thu" Vietnamese ("thư viện", the library).
pub fn weekday(w: &str) -> Option<jiff::civil::Weekday> {
    forms::read::weekday(w).filter(|_| !matches!(w, "mon" | "thu"))
}

/// Words that say one thing together, and the term they stand for (already stemmed):
/// "at once" is a limit, "another library" an interlibrary loan, "how late" the hours.
const PHRASES: &[(&[&str], &str)] = &[
    (&["at", "once"], "limit"),
    (&["at", "a", "time"], "limit"),
    (&["at", "one", "time"], "limit"),
    (&["at", "the", "same", "time"], "limit"),
    (&["a", "la", "vez"], "limit"),
    (&["al", "mismo", "tiempo"], "limit"),
    (&["a", "la", "fois"], "limit"),
    (&["en", "meme", "temps"], "limit"),
    (&["auf", "einmal"], "limit"),
    (&["ek", "saath"], "limit"),
    (&["ek", "sath"], "limit"),
    (&["how", "late"], "hour"),
    (&["inter", "library"], "interlibrary"),
    (&["bases", "de", "datos"], "databas"),
    (&["base", "de", "datos"], "databas"),
    (&["bases", "de", "donnees"], "databas"),
    (&["base", "de", "donnees"], "databas"),
    // collecting a hold
    (&["pick", "up"], "collect"),
    (&["picked", "up"], "collect"),
    (&["picking", "up"], "collect"),
    // a book's state, not what is asked about ("reserve a book that is checked out")
    (&["checked", "out"], ""),
    (&["on", "loan"], ""),
    // signing in
    (&["log", "in"], "sign"),
    (&["log", "into"], "sign"),
    (&["logging", "in"], "sign"),
    (&["sign", "into"], "sign"),
    // how far ahead a room can be booked
    (&["in", "advance"], "ahead"),
    // a later due date is a renewal
    (&["push", "back"], "renew"),
    // an item the catalogue does not have
    (&["isnt", "in", "the", "catalog"], "interlibrary"),
    (&["isnt", "in", "the", "catalogue"], "interlibrary"),
    (&["not", "in", "the", "catalog"], "interlibrary"),
    (&["not", "in", "the", "catalogue"], "interlibrary"),
    // taking something out, checking it out, is borrowing it
    (&["check", "out"], "loan"),
    (&["checking", "out"], "loan"),
    (&["took", "out"], "loan"),
    (&["take", "out"], "loan"),
    (&["taken", "out"], "loan"),
    (&["taking", "out"], "loan"),
    // from somewhere else is another library
    (&["from", "somewhere", "else"], "interlibrary"),
    (&["from", "elsewhere"], "interlibrary"),
    // a laptop in French
    (&["ordinateur", "portable"], "laptop"),
    (&["ordinateurs", "portables"], "laptop"),
    // Monday to Friday
    (&["week", "days"], "weekday"),
    (&["working", "days"], "weekday"),
    (&["entre", "semana"], "weekday"),
    (&["dias", "de", "semana"], "weekday"),
    (&["dias", "laborables"], "weekday"),
    (&["en", "semaine"], "weekday"),
    (&["jours", "de", "semaine"], "weekday"),
    (&["jours", "ouvrables"], "weekday"),
    (&["unter", "der", "woche"], "weekday"),
    (&["hafte", "ke", "din"], "weekday"),
    // asking what something costs
    (&["how", "much", "is"], "pric"),
    (&["how", "much", "are"], "pric"),
    (&["how", "much", "does"], "pric"),
    (&["how", "much", "do"], "pric"),
    (&["how", "much", "for"], "pric"),
    (&["cuanto", "es"], "pric"),
    (&["cuanto", "vale"], "pric"),
    (&["cuanto", "sale"], "pric"),
    (&["c", "est", "combien"], "pric"),
    (&["kitne", "ka"], "pric"),
    (&["kitne", "ki"], "pric"),
    (&["kitna", "hai"], "pric"),
];

/// Words that ask whether the library holds something ("do you have", "does the library
/// have", "is it available", "¿tienen", "avez-vous", "habt ihr", "hai kya").
const HELD: &[&[&str]] = &[
    &["do", "you", "have"],
    &["do", "you", "guys", "have"],
    &["do", "we", "have"],
    &["does", "the", "library", "have"],
    &["does", "library", "have"],
    &["have", "you", "got"],
    &["do", "you", "carry"],
    &["do", "you", "stock"],
    &["is", "there", "a", "copy"],
    &["any", "copies"],
    &["available"],
    &["tienen"],
    &["tiene", "la", "biblioteca"],
    &["disponible"],
    &["avez", "vous"],
    &["vous", "avez"],
    &["habt", "ihr"],
    &["haben", "sie"],
    &["hat", "die", "bibliothek"],
    &["verfugbar"],
    &["hai", "kya"],
];

/// Whether `words` (folded, [`super::split`]) say `said` from `words[i]` on.
pub fn says_at(words: &[String], i: usize, said: &[&str]) -> bool {
    said.iter().enumerate().all(|(j, w)| words.get(i + j).is_some_and(|x| x == w))
}

/// Whether `words` (folded, [`super::split`]) ask whether the library holds something.
pub fn asks_whether_held(words: &[String]) -> bool {
    (0..words.len()).any(|i| HELD.iter().any(|said| says_at(words, i, said)))
}

/// Whether `words` (folded) name a copy of a title ("a copy of Dune", "un ejemplar").
pub fn names_a_copy(words: &[String]) -> bool {
    words.windows(2).any(|p| matches!(p[0].as_str(), "copy" | "copies") && p[1] == "of")
        || words.iter().any(|w| {
            matches!(w.as_str(), "ejemplar" | "ejemplares" | "exemplaire" | "exemplaires" | "exemplar")
        })
}

/// Who may lack an item ("the library doesn't have it", "la biblioteca no tiene"), and the
/// words that say it does not: together an item to get through interlibrary loan.
const HOLDERS: &[&str] = &["library", "you", "they", "biblioteca", "bibliotheque", "bibliothek", "ustedes"];
const LACKS: &[&[&str]] = &[
    &["doesnt", "have"],
    &["does", "not", "have"],
    &["dont", "have"],
    &["do", "not", "have"],
    &["doesnt", "hold"],
    &["does", "not", "hold"],
    &["doesnt", "own"],
    &["dont", "own"],
    &["doesnt", "carry"],
    &["dont", "carry"],
    &["doesnt", "stock"],
    &["dont", "stock"],
    &["no", "tiene"],
    &["no", "tienen"],
    &["n", "a", "pas"],
    &["n", "ont", "pas"],
    &["hat", "nicht"],
    &["hat", "es", "nicht"],
    &["haben", "nicht"],
];

/// Words before a library or university that make it another one ("from another
/// university", "otra biblioteca", "une autre université", "einer anderen Bibliothek").
const OTHER: &[&str] = &[
    "another",
    "other",
    "different",
    "otra",
    "otro",
    "otras",
    "otros",
    "autre",
    "autres",
    "andere",
    "anderen",
    "anderer",
    "dusri",
    "doosri",
    "dusre",
    "doosre",
];
const INSTITUTIONS: &[&str] = &[
    "library",
    "libraries",
    "university",
    "universities",
    "uni",
    "unis",
    "college",
    "colleges",
    "campus",
    "school",
    "biblioteca",
    "bibliotecas",
    "universidad",
    "universidades",
    "bibliotheque",
    "bibliotheques",
    "universite",
    "universites",
    "bibliothek",
    "bibliotheken",
    "universitat",
    "hochschule",
];

/// The phrase at `words[i]`, if one starts there: how many words it takes and its term.
pub(super) fn phrase_at(words: &[String], i: usize) -> Option<(usize, &'static str)> {
    let at = |j: usize| words.get(i + j).map_or("", String::as_str);
    if OTHER.contains(&at(0)) && INSTITUTIONS.contains(&at(1)) {
        return Some((2, "interlibrary"));
    }
    // "library mein kitab nahi hai": the Hinglish postposition, the item, then "nahi"
    if HOLDERS.contains(&at(0))
        && matches!(at(1), "mein" | "me" | "main")
        && (at(2) == "nahi" || at(3) == "nahi")
    {
        return Some((2, "interlibrary"));
    }
    if HOLDERS.contains(&at(0))
        && let Some(lack) = LACKS.iter().find(|said| says_at(words, i + 1, said))
    {
        return Some((lack.len() + 1, "interlibrary"));
    }
    PHRASES.iter().find(|(said, _)| says_at(words, i, said)).map(|(said, term)| (said.len(), *term))
}

/// A German-style compound of two words the lexicon has ("Farbdruck": colour and print,
/// "Mathebücher": mathematics and book, "Raumbuchung"), each part at least four letters,
/// the left one also with its final "e" or without a joining "s" or "n".
pub(super) fn compound(w: &str) -> Option<(&'static str, &'static str)> {
    let reads = |part: &str| {
        lexicon(part).or(match part {
            "buch" => Some("book"),
            "lese" => Some("reading"),
            "saal" | "sale" | "saele" => Some("room"),
            "buchung" | "buchungen" => Some("reservation"),
            _ => None,
        })
    };
    if w.chars().count() < 8 || !w.is_ascii() {
        return None;
    }
    (4..=w.len() - 4).find_map(|i| {
        let (left, right) = w.split_at(i);
        let lefts = [
            Some(left.to_string()),
            Some(format!("{left}e")),
            left.strip_suffix('s').map(str::to_string),
            left.strip_suffix('n').map(str::to_string),
        ];
        let first = lefts.into_iter().flatten().filter(|l| l.len() >= 3).find_map(|l| reads(&l))?;
        let second = reads(right)
            .or_else(|| right.strip_suffix('e').and_then(reads))
            .or_else(|| right.strip_suffix('n').and_then(reads))?;
        Some((first, second))
    })
}

/// The English word a folded word stands for, when the lexicon has it.
pub(super) fn lexicon(w: &str) -> Option<&'static str> {
    if let Some(day) = weekday(w) {
        return Some(english_weekday(day));
    }
    Some(match w {
        "hora" | "horas" | "horario" | "horarios" | "heure" | "heures" | "horaire" | "horaires" | "uhr"
        | "uhrzeit" | "offnungszeiten" | "samay" | "baje" | "timing" | "timings" | "hrs" | "hr" | "open"
        | "opens" | "opening" | "abre" | "abren" | "abierta" | "abierto" | "abrir" | "apertura"
        | "ouvert" | "ouverte" | "ouvre" | "ouverture" | "offen" | "geoffnet" | "offnet" | "khuli"
        | "khula" | "khulta" | "khulti" | "khulegi" | "close" | "closes" | "closed" | "closing"
        | "cierra" | "cierran" | "cerrada" | "cerrado" | "cierre" | "ferme" | "fermee" | "fermeture"
        | "geschlossen" | "schliesst" | "shut" => "hour",
        "reservar" | "reserva" | "reserver" | "reservieren" | "reservierung" | "buchen" | "buchung"
        | "reserv" | "resrve" => "reservation",
        "libro" | "libros" | "livre" | "livres" | "buch" | "bucher" | "kitaab" | "kitab" | "kitabein"
        | "kitaabein" | "kitabe" | "pustak" | "textbook" | "textbooks" | "novel" | "books" => "book",
        "renovar" | "renovacion" | "renouveler" | "renouvellement" | "prolonger" | "verlangern"
        | "verlangerung" | "extend" | "renewal" | "renewals" | "renewed" | "renewing" | "renews" => "renew",
        "multa" | "multas" | "amende" | "amendes" | "penalite" | "gebuhr" | "gebuhren" | "mahngebuhr"
        | "strafe" | "jurmana" | "fee" | "fees" | "penalty" | "fines" | "fined" => "fine",
        "lose" | "loses" | "losing" | "perdi" | "perdido" | "perdida" | "perdu" | "perdue" | "verloren"
        | "kho" | "khoya" | "khoyi" | "khogaya" | "missing" | "stolen" | "nawala" | "misplaced"
        | "misplace" | "misplaces" | "misplacing" => "lost",
        "damaged" | "damage" | "broken" | "broke" | "spilled" | "chewed" | "ripped" | "torn" => "damage",
        "imprimir" | "impresion" | "impresiones" | "imprimer" | "impression" | "imprimante" | "drucken"
        | "ausdrucken" | "druck" | "drucker" | "printer" | "printers" | "printout" | "impressions"
        | "imprimes" => "print",
        "copia" | "copias" | "fotocopia" | "fotocopias" | "photocopie" | "photocopies" | "kopie"
        | "kopien" | "kopieren" | "photocopy" | "xerox" | "photocopying" => "copy",
        "escanear" | "scanner" | "scannen" | "scanning" | "scans" => "scan",
        "sala" | "salas" | "salle" | "salles" | "raum" | "raume" | "zimmer" | "kamra" | "kamre" => "room",
        "estudio" | "estudiar" | "etude" | "etudes" | "etudier" | "lernen" | "padhai" | "padhna" => "study",
        "grupo" | "grupos" | "groupe" | "gruppe" => "group",
        "precio" | "precios" | "cuesta" | "cuestan" | "costo" | "coste" | "prix" | "cout" | "coute"
        | "coutent" | "tarif" | "preis" | "preise" | "kostet" | "kosten" | "paise" | "paisa" | "daam"
        | "cost" | "costs" | "charge" | "charged" | "charges" | "prices" => "price",
        "borrow" | "borrowed" | "borrowing" | "checkout" | "prestar" | "prestamo" | "prestamos"
        | "prestado" | "emprunter" | "emprunt" | "emprunte" | "ausleihen" | "leihen" | "ausleihe"
        | "ausgeliehen" | "udhaar" | "loans" | "sacar" => "loan",
        "portatil" | "portatiles" | "ordinateur" | "ordi" | "laptops" | "notebook" | "computer" => "laptop",
        "color" | "couleur" | "farbe" | "farbig" | "rang" => "colour",
        "feriado" | "feriados" | "festivo" | "festivos" | "ferie" | "feiertag" | "feiertage" | "chutti"
        | "holidays" | "christmas" | "xmas" | "navidad" | "noel" | "weihnachten" | "thanksgiving" => {
            "holiday"
        }
        "eat" | "eating" | "comida" | "comer" | "nourriture" | "manger" | "essen" | "khana" | "pizza"
        | "snack" | "snacks" | "drink" | "drinks" => "food",
        "return" | "returned" | "returning" | "devolver" | "devuelvo" | "devolvi" | "devuelto" | "rendre"
        | "rendu" | "zuruckgeben" | "zuruckgebe" | "zuruckgegeben" | "wapas" | "drop" => "return",
        "cancel" | "cancelled" | "canceled" | "cancelar" | "annuler" | "stornieren" => "cancel",
        "late" | "lateness" | "atrasado" | "atrasada" | "atrasados" | "retraso" | "retard" | "verspatet"
        | "verspatung" => "late",
        "overdue" | "vencido" | "vencidos" | "uberfallig" => "overdue",
        "limit" | "limits" | "limite" | "limites" | "grenze" | "hochstzahl" | "gleichzeitig" | "seema" => {
            "limit"
        }
        "piso" | "planta" | "etage" | "stock" | "stockwerk" | "manzil" | "floors" => "floor",
        "silencio" | "silenciosa" | "silencioso" | "silence" | "silencieuse" | "silencieux" | "calme"
        | "ruhig" | "ruhige" | "ruhigen" | "leise" | "stille" | "shant" | "shaant" | "silent" => "quiet",
        "put" | "placing" | "poner" | "mettre" | "setzen" | "lagana" | "lagao" => "place",
        "pay" | "paying" | "paid" | "pagar" | "pago" | "payer" | "paie" | "paiement" | "bezahlen"
        | "zahlen" | "bezahle" | "zahle" | "bhugtan" => "pay",
        "cash" | "efectivo" | "especes" | "liquide" | "bargeld" | "nakad" | "coins" => "cash",
        "people" | "persons" | "personas" | "personnes" | "personen" | "leute" | "seats" => "people",
        "fit" | "fits" | "caben" | "cabe" | "caber" | "accueillir" | "accueille" | "contenir" | "passen"
        | "capacity" | "capacidad" | "capacite" | "kapazitat" | "platz" | "platze" | "seat" | "biggest"
        | "largest" | "smallest" | "size" => "seat",
        "quietly" | "calmly" | "tranquilo" | "tranquila" | "tranquilos" | "tranquilas" | "tranquille"
        | "tranquillement" | "silenciosas" | "silenciosos" | "silencieuses" | "shanti" | "shaanti" => "quiet",
        "noir" | "negro" | "schwarz" | "kala" => "black",
        "lectura" | "lesen" | "reading" => "reading",
        "blanc" | "blanco" | "weiss" | "safed" => "white",
        "tarjeta" | "carte" | "karte" => "card",
        "pizarra" | "pizarron" | "tableau" | "tafel" | "whiteboards" => "whiteboard",
        "advance" | "avance" | "antelacion" | "voraus" => "ahead",
        "weekdays" | "weekday" | "werktags" | "wochentags" | "werktage" | "werktagen" | "wochentage"
        | "wochentagen" => "weekday",
        "login" | "signin" => "sign",
        "find" | "finding" | "look" | "looking" | "locate" | "buscar" | "busco" | "encontrar"
        | "chercher" | "cherche" | "trouver" | "suchen" | "finden" | "finde" | "dhundh" | "dhundhna"
        | "dhoondh" => "search",
        // at home is off campus ("databases from home")
        "home" | "remote" | "remotely" | "casa" | "maison" | "zuhause" | "hause" | "ghar" => "off",
        "collect" | "collecting" | "pickup" | "recoger" | "recuperer" | "retirer" | "abholen" => "collect",
        "catalog" | "catalogo" | "catalogue" | "katalog" | "opac" => "catalogue",
        "interlibrary" | "interbibliotecario" | "interbibliotheques" | "fernleihe" => "interlibrary",
        "database" | "databases" | "datenbank" | "datenbanken" => "databases",
        // subjects, onto the floors the content names
        "math" | "maths" | "mathematics" | "matematicas" | "matematica" | "mathematiques" | "mathe"
        | "mathematik" | "ganit" | "calculus" | "calculo" | "calcul" | "algebra" | "geometry"
        | "statistics" | "stats" | "estadistica" | "statistik" => "mathematics",
        "science" | "sciences" | "ciencia" | "ciencias" | "physics" | "fisica" | "physique" | "physik"
        | "chemistry" | "quimica" | "chimie" | "chemie" | "biology" | "biologia" | "biologie"
        | "engineering" | "vigyan" => "sciences",
        "humanities" | "history" | "historia" | "histoire" | "geschichte" | "itihas" | "philosophy"
        | "filosofia" | "philosophie" | "literature" | "literatura" | "litterature" | "literatur" | "art"
        | "arts" | "languages" | "linguistics" => "humanities",
        "psychology" | "psicologia" | "psychologie" | "economics" | "economia" | "economie"
        | "wirtschaft" | "sociology" | "sociologia" | "sociologie" | "soziologie" | "politics" | "law"
        | "derecho" | "droit" | "jura" => "social",
        _ => return None,
    })
}

pub fn english_weekday(day: jiff::civil::Weekday) -> &'static str {
    use jiff::civil::Weekday::*;
    match day {
        Monday => "monday",
        Tuesday => "tuesday",
        Wednesday => "wednesday",
        Thursday => "thursday",
        Friday => "friday",
        Saturday => "saturday",
        Sunday => "sunday",
    }
}
