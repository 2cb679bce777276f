//! The lexicon of [`super`]: synonyms and the key words of Spanish, French, German and
//! Hindi/Hinglish, each mapped onto the English word the Library's content uses (before
//! stemming). Weekdays come from the booking form's reader ([`forms::read::weekday`]), so
//! both read the same day names.

/// The English word a folded word stands for, when the lexicon has it.
pub(super) fn lexicon(w: &str) -> Option<&'static str> {
    // "mon" is French for "my", "thu" Vietnamese ("thư viện", the library)
    if let Some(day) = forms::read::weekday(w).filter(|_| !matches!(w, "mon" | "thu")) {
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
        | "pustak" | "textbook" | "textbooks" | "novel" | "books" => "book",
        "renovar" | "renovacion" | "renouveler" | "renouvellement" | "prolonger" | "verlangern"
        | "verlangerung" | "extend" | "renewal" | "renewals" | "renewed" | "renewing" | "renews" => "renew",
        "multa" | "multas" | "amende" | "amendes" | "penalite" | "gebuhr" | "gebuhren" | "mahngebuhr"
        | "strafe" | "jurmana" | "fee" | "fees" | "penalty" | "fines" | "fined" => "fine",
        "lose" | "loses" | "losing" | "perdi" | "perdido" | "perdida" | "perdu" | "perdue" | "verloren"
        | "kho" | "khoya" | "khoyi" | "khogaya" | "missing" | "stolen" | "nawala" | "misplaced"
        | "misplace" | "misplaces" | "misplacing" => "lost",
        "damaged" | "damage" | "broken" | "broke" | "spilled" | "chewed" | "ripped" | "torn" => "damage",
        "imprimir" | "impresion" | "impresiones" | "imprimer" | "impression" | "imprimante" | "drucken"
        | "ausdrucken" | "druck" | "drucker" | "printer" | "printers" | "printout" => "print",
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
        | "ausgeliehen" | "udhaar" | "loans" => "loan",
        "portatil" | "portatiles" | "ordinateur" | "ordi" | "laptops" | "notebook" | "computer" => "laptop",
        "color" | "couleur" | "farbe" | "farbig" | "rang" => "colour",
        "feriado" | "feriados" | "festivo" | "festivos" | "ferie" | "feiertag" | "feiertage" | "chutti"
        | "holidays" | "christmas" | "xmas" | "navidad" | "noel" | "weihnachten" | "thanksgiving" => {
            "holiday"
        }
        "eat" | "eating" | "comida" | "comer" | "nourriture" | "manger" | "essen" | "khana" | "pizza"
        | "snack" | "snacks" | "drink" | "drinks" => "food",
        "return" | "returned" | "returning" | "devolver" | "rendre" | "zuruckgeben" | "wapas" | "drop" => {
            "return"
        }
        "cancel" | "cancelled" | "canceled" | "cancelar" | "annuler" | "stornieren" => "cancel",
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
