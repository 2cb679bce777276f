//! The offline tutor's answers to a computed derivative (of an order, at a point) or
//! integral (indefinite, or between bounds): the function, the result, the steps the
//! `calculus` crate recorded, and plainly why not when there is no result.

use calculus::{Error, Function, Improper, Limit, Point};

use crate::answer::{Answer, cannot, reply};
use crate::phrase::{reading, shown_to};

/// Primes up to the third (`f'''`); then the order as a superscript (`f⁽⁴⁾`, `f⁽¹⁰⁾`).
pub(crate) fn prime(order: usize) -> String {
    if order <= 3 {
        return "'".repeat(order);
    }
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits: String =
        order.to_string().chars().filter_map(|c| c.to_digit(10)).map(|d| DIGITS[d as usize]).collect();
    format!("⁽{digits}⁾")
}

/// ` (ln needs a positive argument)`, or a general reason when none is named.
fn because(why: &str) -> String {
    if why.is_empty() {
        " (its value there is not a finite real number)".to_string()
    } else {
        format!(" ({why})")
    }
}

pub(crate) fn steps(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let list: Vec<String> = lines.iter().map(|l| format!("- {l}")).collect();
    format!("\nSteps:\n{}", list.join("\n"))
}

pub(crate) fn derivative(f: &Function, order: usize, at: Option<&str>) -> Answer {
    let v = f.var;
    let name = format!("f{}({v})", prime(order));
    let head = format!("f({v}) = {}", f.shown());
    let Some(at) = at else {
        return match calculus::derivative(f, order) {
            Ok(w) => {
                // a higher derivative shows the one before it, which its steps start from
                let before = match order {
                    1 => String::new(),
                    n => calculus::derivative(f, n - 1)
                        .map(|p| format!("\nf{}({v}) = {}", prime(n - 1), p.shown))
                        .unwrap_or_default(),
                };
                reply("answered", format!("{head}{before}\n{name} = {}{}", w.shown, steps(&w.steps)))
            }
            Err(e) => cannot(&format!("the derivative of {}", f.shown()), &e),
        };
    };
    let point = match calculus::read_number(at) {
        Ok(p) => p,
        Err(_) => return reply("unable", format!("I couldn't read \"{at}\" as a number.")),
    };
    let shown_at = calculus::show(&point);
    match calculus::derivative_at(f, order, &point) {
        Ok((_, value)) if order == 0 => {
            reply("answered", format!("{head}\nf({shown_at}) = {}", value.display()))
        }
        Ok((w, value)) => reply(
            "answered",
            format!("{head}\n{name} = {}\nf{}({shown_at}) = {}", w.shown, prime(order), value.display()),
        ),
        Err(Error::NotDefined { order: k, at, why }) => {
            let which = match k {
                0 => "f".to_string(),
                k => match calculus::derivative(f, k) {
                    Ok(d) => format!("f{}({v}) = {}", prime(k), d.shown),
                    Err(_) => format!("f{}", prime(k)),
                },
            };
            let asked = if order == 0 {
                "so it has no value there".to_string()
            } else if k == 0 {
                format!("so f{}({at}) does not exist", prime(order))
            } else {
                format!("so the derivative f{}({at}) does not exist", prime(order))
            };
            reply(
                "unable",
                format!(
                    "{head}
{which} is not defined at {v} = {at}{}, {asked}.",
                    because(&why)
                ),
            )
        }
        Err(e) => cannot(&format!("that value at {v} = {shown_at}"), &e),
    }
}

pub(crate) fn integral(f: &Function, bounds: Option<&(String, String)>) -> Answer {
    let v = f.var;
    let shown = match &f.expr {
        calculus::Expr::Add(_) => format!("({})", f.shown()),
        _ => f.shown(),
    };
    let Some((a, b)) = bounds else {
        return match calculus::antiderivative(f) {
            Ok(w) => reply("answered", format!("∫ {shown} d{v} = {} + C{}", w.shown, steps(&w.steps))),
            Err(e) => cannot(&format!("∫ {shown} d{v}"), &e),
        };
    };
    let (pa, pb) = match (reading(a), reading(b)) {
        (Ok(Point::At(pa)), Ok(Point::At(pb))) => (pa, pb),
        (Ok(pa), Ok(pb)) => return improper(f, &shown, &pa, &pb),
        _ => {
            return reply(
                "unable",
                format!("I couldn't read the bounds \"{a}\" and \"{b}\" as numbers (or infinity)."),
            );
        }
    };
    let (sa, sb) = (calculus::show(&pa), calculus::show(&pb));
    match calculus::definite(f, &pa, &pb) {
        Ok((w, value)) => reply(
            "answered",
            format!(
                "The integral from {sa} to {sb} of {shown} d{v} = {}\nAn antiderivative: F({v}) = {}\n\
                 Fundamental theorem: F({sb}) - F({sa}) = {}{}",
                value.display(),
                w.shown,
                value.display(),
                steps(&w.steps)
            ),
        ),
        Err(Error::NotDefined { at, why, .. }) => reply(
            "unable",
            format!(
                "I can't compute the integral from {sa} to {sb} of {shown} d{v}: {} is not defined at \
                 {v} = {at}, a point of the interval{}. That makes it an improper integral (or one \
                 that does not exist), which I don't evaluate offline.",
                f.shown(),
                because(&why)
            ),
        ),
        Err(e) => cannot(&format!("the integral from {sa} to {sb} of {shown} d{v}"), &e),
    }
}

/// An integral with an infinite bound: the limit of the antiderivative at each infinite
/// end, and whether the integral converges (to what) or diverges.
fn improper(f: &Function, shown: &str, a: &Point, b: &Point) -> Answer {
    let v = f.var;
    let (sa, sb) = (shown_to(a), shown_to(b));
    let what = format!("the integral from {sa} to {sb} of {shown} d{v}");
    let w = match calculus::improper(f, a, b) {
        Ok(w) => w,
        Err(Error::NotDefined { at, why, .. }) => {
            return reply(
                "unable",
                format!(
                    "I can't compute {what}: {} is not defined at {v} = {at}, a point of the interval{}, \
                     so it is improper there too, which I don't evaluate offline.",
                    f.shown(),
                    because(&why)
                ),
            );
        }
        Err(e) => return cannot(&what, &e),
    };
    let big_f = &w.antiderivative.shown;
    // F at each end: its limit at an infinite one, its value at a number
    let end = |p: &Point, name: char| match p {
        Point::At(e) => calculus::value_at(&w.antiderivative.result, e)
            .map(|value| format!("F({}) = {}", shown_to(p), value.display()))
            .unwrap_or_default(),
        _ => {
            let l = w.ends.iter().find(|(q, _)| q == p).map(|(_, l)| l.display()).unwrap_or_default();
            format!("lim {name}→{} F({name}) = {l}", shown_to(p))
        }
    };
    let ends = format!("{} and {}", end(b, 'b'), end(a, 'a'));
    let name = |p: &Point, name: char| match p {
        Point::At(_) => format!("F({})", shown_to(p)),
        _ => format!("F({name})"),
    };
    let difference = format!("{} - {}", name(b, 'b'), name(a, 'a'));
    let text = match &w.outcome {
        Improper::Converges(value) => format!(
            "The integral from {sa} to {sb} of {shown} d{v} = {} (it converges)\nAn antiderivative: \
             F({v}) = {big_f}\nIt is improper, so it is a limit: {ends}, so the integral is {}{}",
            value.display(),
            value.display(),
            steps(&w.antiderivative.steps)
        ),
        Improper::Diverges(sign) => {
            let to = match sign {
                Some(true) => format!(" (to {})", Limit::Infinity.display()),
                Some(false) => format!(" (to {})", Limit::MinusInfinity.display()),
                None => String::new(),
            };
            format!(
                "The integral from {sa} to {sb} of {shown} d{v} diverges{to}: it has no finite value.\n\
                 An antiderivative: F({v}) = {big_f}\nIt is improper, so it is a limit: {ends}, so \
                 {difference} has no finite limit{}",
                steps(&w.antiderivative.steps)
            )
        }
    };
    reply("answered", text)
}
