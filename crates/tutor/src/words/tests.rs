//! The tests of [`super`]: typos, other languages, points and bounds.

use super::*;

#[test]
fn typos_of_its_own_words_are_corrected() {
    for (typed, meant) in [
        ("derivitive", "derivative"),
        ("derivatve", "derivative"),
        ("intergral", "integral"),
        ("integrel", "integral"),
        ("wat", "what"),
        ("diferentiate", "differentiate"),
        ("limt", "limit"),
        ("exmaple", "example"),
        ("anothr", "another"),
        ("substition", "substitution"),
    ] {
        assert_eq!(correct(typed), Some(meant), "{typed}");
    }
    for kept in [
        "form",
        "want",
        "sin",
        "sinx",
        "x",
        "the",
        "cos",
        "definitely",
        "integer",
        "sqrt",
        "with",
        "change",
        "interval",
        "differential",
        "defined",
        "integrand",
        "linear",
        "point",
        "problem",
    ] {
        assert_eq!(correct(kept), None, "{kept}");
    }
}

/// What the rest of Campus sends the Tutor reads as it was typed.
#[test]
fn ordinary_questions_are_left_as_they_are() {
    for q in [
        "can you fix the plumbing in my apartment kitchen",
        "when is the library open on monday",
        "what are the library hours on monday",
        "printing hours",
        "printing price",
        "how do i book a study room",
        "can i renew my library loan",
        "how do i find the derivative of x^2",
        "how does substitution work",
        "what does the fundamental theorem of calculus say",
        "the rate of change of the force over time",
        "solve the differential equation y' = y on the interval [0, 1]",
        "what force does a 2 kg mass feel under gravity",
    ] {
        assert_eq!(canonical(q), q, "{q}");
    }
}

#[test]
fn other_languages_read_as_english() {
    for (typed, reads) in [
        ("derivada de x^2", "derivative of x^2"),
        ("dérivée de sin(x)", "derivative of sin(x)"),
        ("ableitung von x^3", "derivative of x^3"),
        ("x^2 ka integral", "integral of x^2"),
        ("x^2 ka derivative batao", "derivative of x^2"),
        ("integral de x^2 de 0 a 3", "integral of x^2 from 0 to 3"),
        ("integral von x^2 von 0 bis 3", "integral of x^2 from 0 to 3"),
        ("límite de sin(x)/x cuando x tiende a 0", "limit of sin(x)/x as x -> 0"),
        ("grenzwert von sin(x)/x für x gegen 0", "limit of sin(x)/x for x -> 0"),
        ("otro ejemplo", "another example"),
        ("noch ein beispiel", "another example"),
        ("ek aur example", "another example"),
        ("derivada de sen(x)", "derivative of sin(x)"),
        ("derivative of x^2 pls thanks", "derivative of x^2"),
        ("∫_0^1 x e^x dx", "integral from 0 to 1 of x e^x dx"),
        ("∫_{0}^{pi} sin(x) dx", "integral from 0 to pi of sin(x) dx"),
    ] {
        assert_eq!(canonical(typed), reads, "{typed}");
    }
}

/// A value at a point, the way each language puts it, reads as "at v = a".
#[test]
fn a_point_in_other_languages_reads_as_at() {
    for (typed, reads) in [
        ("ableitung von x^2 an der stelle x=3", "derivative of x^2 at x=3"),
        ("ableitung von x^2 bei x=3", "derivative of x^2 at x=3"),
        ("ableitung von x^3 für x = 2", "derivative of x^3 at x = 2"),
        ("ableitung von x^2 im punkt x=3", "derivative of x^2 at the point x=3"),
        ("dérivée de x^2 en x = 1", "derivative of x^2 at x = 1"),
        ("dérivée de x^2 pour x=-1", "derivative of x^2 at x=-1"),
        ("dérivée de sin(x) au point x = pi", "derivative of sin(x) at the point x = pi"),
        ("derivada de x^2 en x = 1", "derivative of x^2 at x = 1"),
        ("derivada de x^2 para x = 1/2", "derivative of x^2 at x = 1/2"),
        ("derivada de x^2 cuando x=2", "derivative of x^2 at x=2"),
        ("derivada de x^2 en el punto x = 4", "derivative of x^2 at the point x = 4"),
        ("x^2 ka derivative x=3 par", "derivative of x^2 at x=3"),
        ("x^2 ka derivative x = 3 pe batao", "derivative of x^2 at x = 3"),
        ("x^3 ka derivative jab x=2", "derivative of x^3 at x=2"),
        ("und bei x=2", "und at x=2"),
        ("y en x = 2", "y at x = 2"),
        ("aur x=5 par", "aur at x=5"),
        // a value alone after the word, at the end; the point first; "equals" in words
        ("derivada de x^2 en 3", "derivative of x^2 at 3"),
        ("ableitung von x^2 bei 3", "derivative of x^2 at 3"),
        ("bei x=2 die ableitung von x^3", "die derivative of x^3 at x=2"),
        ("x = 3 par x^2 ka derivative", "derivative of x^2 at x = 3"),
        ("derivative of x^2 at x equals 3", "derivative of x^2 at x = 3"),
        ("derivada de x^2 en x igual a 3", "derivative of x^2 at x = 3"),
        ("ableitung von x^2 für x gleich 3", "derivative of x^2 at x = 3"),
        ("dérivée de x^2 évaluée en x = 3", "derivative of x^2 at x = 3"),
        ("x^2 ka integral 0 se 3 tak", "integral of x^2 from 0 to 3"),
        ("intégrale de x^2 de 0 à 3", "integral of x^2 from 0 to 3"),
        ("integral de x^2 de 0 a 3", "integral of x^2 from 0 to 3"),
    ] {
        assert_eq!(canonical(typed), reads, "{typed}");
    }
    // without `v = a` after them the words stay words
    for kept in [
        "the derivative en general",
        "en el examen",
        "para mi clase",
        "bei der prüfung",
        "pour demain",
        "for x in the interval",
        "x par y",
        "x == 3 par",
        "en x",
        "en 3 pasos",
        "the sum equals 3",
        "x equals y",
    ] {
        assert_eq!(canonical(kept), kept, "{kept}");
    }
}

/// The approach in other languages: the Hinglish "ki taraf", German "strebt gegen",
/// Spanish "se acerca a", French "lorsque".
#[test]
fn an_approach_in_other_languages_reads_as_an_arrow() {
    for (typed, reads) in [
        ("x^2 ka limit jab x 3 ki taraf jaye", "limit of x^2 as x -> 3"),
        ("sin(x)/x ka limit jab x 0 ki taraf jata hai", "limit of sin(x)/x as x -> 0"),
        ("limit of 1/x jab x anant ki or jaye", "limit of 1/x as x -> infinity"),
        ("x ke 0 ki taraf jaane par sin(x)/x ka limit", "limit of as x -> 0 sin(x)/x"),
        ("grenzwert von sin(x)/x wenn x gegen 0 geht", "limit of sin(x)/x when x -> 0 geht"),
        ("grenzwert von 1/x für x strebt gegen 0", "limit of 1/x for x -> 0"),
        ("límite de sin(x)/x cuando x se acerca a 0", "limit of sin(x)/x as x -> 0"),
        ("limite de sin(x)/x lorsque x tend vers 0", "limit of sin(x)/x as x -> 0"),
    ] {
        assert_eq!(canonical(typed), reads, "{typed}");
    }
    assert_eq!(canonical("meri taraf dekho"), "meri taraf dekho");
}
