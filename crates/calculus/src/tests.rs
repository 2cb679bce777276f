use super::*;

pub(crate) fn f(text: &str) -> Function {
    read(text, 'x').unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub(crate) fn n(text: &str) -> Expr {
    read_number(text).unwrap()
}

#[test]
fn reads_and_simplifies_to_one_readable_form() {
    for (text, shown) in [
        ("3x^2", "3x^2"),
        ("2x+1", "2x + 1"),
        ("2sin(x)", "2sin(x)"),
        ("1*x^1 + 0*x + 0", "x"),
        ("x*x^2", "x^3"),
        ("2(x+1) + 3x", "5x + 2"),
        ("(x+1)(x-1)", "(x+1)·(x-1)"),
        ("-x^2 + 3x - 7", "-x^2 + 3x - 7"),
        ("x/2", "x/2"),
        ("1/x^2", "1/x^2"),
        ("sqrt(x)", "sqrt(x)"),
        ("exp(2x)", "e^(2x)"),
        ("log(x)", "ln(x)"),
        ("pi*x^2", "πx^2"),
        ("sin^2(x)", "sin(x)^2"),
        ("sin 2x", "sin(2x)"),
        ("x²+3x", "x^2 + 3x"),
        ("3.5x", "7x/2"),
        ("t^2+1", "t^2 + 1"),
        ("e^x^2", "e^(x^2)"),
        ("4^(1/2)*x", "2x"),
    ] {
        assert_eq!(f(text).shown(), shown, "{text}");
    }
    assert_eq!(f("t^2").var, 't');
}

#[test]
fn says_what_it_cannot_read() {
    assert_eq!(read("x*y", 'x'), Err(Error::MultipleVariables("x, y".into())));
    assert!(matches!(read("2x+", 'x'), Err(Error::Syntax(_))));
    assert!(matches!(read("((x)", 'x'), Err(Error::Syntax(_))));
    assert_eq!(read("sec(x)", 'x'), Err(Error::Unsupported("the function sec".into())));
    assert!(read_number("x+1").is_err());
    // a logarithm glued to digits is never a product (`log10(x)` is not x·ln(10))
    for text in ["log10(x)", "log2(x)", "log10 x", "2log10(x)+1"] {
        assert!(matches!(read(text, 'x'), Err(Error::Unsupported(w)) if w.starts_with("log")), "{text}");
    }
    for text in ["ln2x", "log3(x)", "xln2"] {
        assert!(matches!(read(text, 'x'), Err(Error::Syntax(w)) if w.contains("ambiguous")), "{text}");
    }
    assert_eq!(f("log(10x)").shown(), f("ln(10x)").shown());
}

#[test]
fn derivatives() {
    for (text, result) in [
        ("x^3*sin(x)", "3x^2·sin(x) + x^3·cos(x)"),
        ("(2x+1)^5", "10(2x+1)^4"),
        ("e^(2x)", "2e^(2x)"),
        ("3x^2+2x", "6x + 2"),
        ("x/(x+1)", "1/(x+1)^2"),
        ("sin(x)/x", "(x·cos(x)-sin(x))/x^2"),
        ("sqrt(x)", "1/(2sqrt(x))"),
        ("ln(x)", "1/x"),
        ("tan(x)", "1/cos(x)^2"),
        ("sin(x^2)", "2x·cos(x^2)"),
        ("x^x", "x^x·(ln(x)+1)"),
        ("2^x", "2^x·ln(2)"),
        ("1/x", "-1/x^2"),
        ("cos(3x+1)", "-3sin(3x+1)"),
        ("log(x^2+1)", "2x/(x^2+1)"),
        ("5", "0"),
        ("pi*x^2", "2πx"),
        ("(x+1)(x-1)", "2x"),
        ("x^2*e^(-x)", "2x·e^(-x) - x^2·e^(-x)"),
        ("sqrt(2x+1)", "1/sqrt(2x+1)"),
    ] {
        assert_eq!(derivative(&f(text), 1).map(|w| w.shown), Ok(result.to_string()), "{text}");
    }
    assert_eq!(derivative(&f("x^4"), 2).unwrap().shown, "12x^2");
    assert_eq!(derivative(&f("x^3*sin(x)"), 2).unwrap().shown, "6x·sin(x) + 6x^2·cos(x) - x^3·sin(x)");
}

#[test]
fn derivative_steps_name_the_rules() {
    let w = derivative(&f("x^3*sin(x)"), 1).unwrap();
    assert_eq!(
        w.steps,
        [
            "product rule: (x^3)'·sin(x) + x^3·(sin(x))' = 3x^2·sin(x) + x^3·cos(x)",
            "power rule: (x^3)' = 3x^2",
            "derivative of sin: (sin(x))' = cos(x)",
        ]
    );
    let w = derivative(&f("(2x+1)^5"), 1).unwrap();
    assert_eq!(w.steps, ["chain rule with the power rule: ((2x+1)^5)' = 5(2x+1)^4·(2x+1)' = 10(2x+1)^4"]);
    let w = derivative(&f("x/(x+1)"), 1).unwrap();
    assert_eq!(w.steps, ["quotient rule: ((x)'·(x+1) - x·(x+1)')/(x+1)^2 = 1/(x+1)^2"]);
}

#[test]
fn antiderivatives() {
    for (text, result) in [
        ("3x^2+2x", "x^3 + x^2"),
        ("cos(x)", "sin(x)"),
        ("1/x", "ln|x|"),
        ("x^-1", "ln|x|"),
        ("(2x+1)^5", "(2x+1)^6/12"),
        ("e^(2x)", "e^(2x)/2"),
        ("sin(3x)", "-cos(3x)/3"),
        ("sqrt(x)", "2x^(3/2)/3"),
        ("x(x+1)", "x^3/3 + x^2/2"),
        ("1/(2x+1)", "ln|2x+1|/2"),
        ("5", "5x"),
        ("2^x", "2^x/ln(2)"),
        ("-3x^4 + x - 1/2", "-3x^5/5 + x^2/2 - x/2"),
    ] {
        assert_eq!(antiderivative(&f(text)).map(|w| w.shown), Ok(result.to_string()), "{text}");
    }
    for text in ["e^(x^2)", "tan(x)", "sin(x)^2", "1/(x^2+1)", "e^x*sin(x)", "x*ln(x+1)"] {
        assert!(matches!(antiderivative(&f(text)), Err(Error::NoRule(_))), "{text}");
    }
}

#[test]
fn definite_integrals_and_values() {
    let def = |t: &str, a: &str, b: &str| definite(&f(t), &n(a), &n(b)).map(|(_, v)| v.display());
    assert_eq!(def("x^2", "0", "3"), Ok("9".into()));
    assert_eq!(def("sin(x)", "0", "pi"), Ok("2".into()));
    assert_eq!(def("e^x", "0", "1"), Ok("e - 1 ≈ 1.718282".into()));
    assert_eq!(def("sqrt(x)", "0", "4"), Ok("16/3 ≈ 5.333333".into()));
    assert_eq!(def("1/x", "1", "e"), Ok("1".into()));
    // 1/x has no integral across 0: the fundamental theorem does not apply
    let undefined = |at: &str, why: &str| Err(Error::NotDefined { order: 0, at: at.into(), why: why.into() });
    assert_eq!(def("1/x", "-1", "1"), undefined("0", "division by zero"));
    assert_eq!(def("1/x", "-1", "2"), undefined("0", "division by zero"));
    assert_eq!(def("1/(x-1)^2", "0", "3"), undefined("1", "division by zero"));
    assert_eq!(def("sqrt(x)", "-1", "1"), undefined("-1", "sqrt needs a non-negative argument"));
    // continuous on the interval, though not everywhere: the check must not refuse
    assert_eq!(def("1/x^2", "1", "2"), Ok("1/2 ≈ 0.5".into()));
    assert_eq!(def("1/x^2", "-2", "-1"), Ok("1/2 ≈ 0.5".into()));
    assert_eq!(def("1/(x+2)", "0", "2"), Ok("ln(4) - ln(2) ≈ 0.693147".into()));
    let at = |t: &str, order, p: &str| derivative_at(&f(t), order, &n(p)).map(|(_, v)| v.display());
    assert_eq!(at("x^2", 1, "3"), Ok("6".into()));
    assert_eq!(at("sin(x)", 1, "pi"), Ok("-1".into()));
    assert_eq!(at("x^3", 2, "2"), Ok("12".into()));
    assert_eq!(at("sin(x)", 1, "2"), Ok("cos(2) ≈ -0.416147".into()));
    assert_eq!(at("x^2", 0, "5"), Ok("25".into()));
    // the function, or a derivative, undefined at the point: no value is stated
    let undefined =
        |order, at: &str, why: &str| Err(Error::NotDefined { order, at: at.into(), why: why.into() });
    assert_eq!(at("ln(x)", 1, "-2"), undefined(0, "-2", "ln needs a positive argument"));
    assert_eq!(at("ln(x)", 2, "-1"), undefined(0, "-1", "ln needs a positive argument"));
    assert_eq!(at("ln(x)", 0, "0"), undefined(0, "0", "ln needs a positive argument"));
    assert_eq!(at("sqrt(x)", 1, "0"), undefined(1, "0", "division by zero"));
    assert_eq!(at("sqrt(x)", 1, "-4"), undefined(0, "-4", "sqrt needs a non-negative argument"));
    assert_eq!(at("1/x", 1, "0"), undefined(0, "0", "division by zero"));
    assert_eq!(at("sqrt(x)", 0, "0"), Ok("0".into()));
    assert_eq!(at("ln(x)", 1, "2"), Ok("1/2 ≈ 0.5".into()));
}

/// Power-rule and log integrals near a pole are checked by differentiating the
/// antiderivative, not by quadrature across the pole.
#[test]
fn integrals_with_a_pole_somewhere() {
    for (t, want) in [
        ("1/x^2", "-1/x"),
        ("x^-3", "-1/(2x^2)"),
        ("1/(x+1)^2", "-1/(x+1)"),
        ("1/(x+2)", "ln|x+2|"),
        ("3/(2x+4)", "3ln|2x+4|/2"),
    ] {
        assert_eq!(antiderivative(&f(t)).map(|w| w.shown), Ok(want.to_string()), "{t}");
    }
    let t = f("t^2");
    assert_eq!(t.var, 't');
    assert_eq!(antiderivative(&t).unwrap().steps, ["power rule: ∫t^2 dt = t^3/3"]);
    let steps = antiderivative(&f("(3t+1)^2")).unwrap().steps.join("\n");
    assert!(steps.contains("(du = 3 dt)") && !steps.contains("dx"), "{steps}");
}

/// ∫1/x dx = ln|x| is the log rule, not the power rule (which leaves out n = -1).
#[test]
fn the_reciprocal_integrates_by_the_log_rule() {
    for (t, want) in [("1/x", "log rule: ∫1/x dx = ln|x|"), ("x^-1", "log rule: ∫1/x dx = ln|x|")] {
        assert_eq!(antiderivative(&f(t)).unwrap().steps, [want], "{t}");
    }
    for t in ["1/(2x+1)", "3/(2x+4)"] {
        let steps = antiderivative(&f(t)).unwrap().steps.join("\n");
        assert!(steps.contains("log rule") && !steps.contains("power rule"), "{t}: {steps}");
    }
    let steps = antiderivative(&f("x^-3")).unwrap().steps.join("\n");
    assert!(steps.contains("power rule") && !steps.contains("log rule"), "{steps}");
}

/// The check is independent: a wrong result does not pass it.
#[test]
fn the_check_rejects_wrong_results() {
    let x3 = f("x^3*sin(x)");
    assert_eq!(check::derivative(&x3.expr, 'x', &f("3x^2·sin(x) + x^3·cos(x)").expr), Ok(()));
    assert_eq!(
        check::derivative(&x3.expr, 'x', &f("3x^2·cos(x) + x^3·sin(x)").expr),
        Err(Error::CheckFailed)
    );
    assert_eq!(check::antiderivative(&f("cos(x)").expr, 'x', &f("-sin(x)").expr), Err(Error::CheckFailed));
    assert_eq!(
        check::antiderivative(&f("1/x").expr, 'x', &f("ln(x)").expr),
        Ok(()),
        "positive points suffice"
    );
    assert_eq!(
        check::definite(&f("x^2").expr, 'x', &f("x^3/3").expr, (0.0, 3.0), 9.5),
        Err(Error::CheckFailed)
    );
}

#[test]
fn scientific_notation_and_e() {
    assert_eq!(n("1e9"), Expr::int(1_000_000_000));
    assert_eq!(n("1E9"), Expr::int(1_000_000_000));
    assert_eq!(n("2.5e-3"), Expr::q(Q::new(1, 400).unwrap()));
    assert_eq!(n("3e+2"), Expr::int(300));
    assert_eq!(f("3e2x").shown(), "300x");
    // e not followed by digits is the constant
    assert_eq!(f("2e^x").shown(), "2e^x");
    assert_eq!(f("2ex").shown(), "2ex");
    assert_eq!(show(&n("2e")), "2e");
    assert!(matches!(read_number("1e40"), Err(Error::Unsupported(_))));
    let big = definite(&f("x"), &n("1"), &n("1e9")).map(|(_, v)| v.display());
    assert_eq!(big, Ok("999999999999999999/2 ≈ 500000000000000000".into()));
}

/// exmex parses the explicit string written from the tokens, not from our tree.
#[test]
fn exmex_reads_the_students_text() {
    let written = |text: &str| explicit::explicit(&parse::tokenize(text).unwrap()).unwrap();
    for (text, exmex) in [
        ("3x^2 sin x", "3*x^(2)*sin(x)"),
        ("-x^2", "(0-x^(2))"),
        ("2^3^2", "2^(3^(2))"),
        ("x^-2", "x^((0-2))"),
        ("sin^2(x)", "(sin(x))^(2)"),
        ("π·x²", "PI*x^(2)"),
        ("ln(x) + log x", "ln(x)+ln(x)"),
        ("e^(2x) √x", "E^((2*x))*sqrt(x)"),
        ("1e9 x", "(1*10^9)*x"),
        ("2.5e-3", "(2.5/10^3)"),
        ("(x+1)(x-1)", "(x+1)*(x-1)"),
    ] {
        assert_eq!(written(text), exmex, "{text}");
        assert!(read(text, 'x').is_ok(), "{text}");
    }
    // a reading exmex does not share is refused, with what exmex was given
    let tried = written("x^2 + 1");
    assert_eq!(check::reading(&tried, &f("x^2 + 2").expr), Err(Error::Misread(tried.clone())));
    assert_eq!(check::reading("x^", &f("x").expr), Err(Error::Misread("x^".into())));
    assert_eq!(check::reading("x*y", &f("x").expr), Err(Error::Misread("x*y".into())));
    // defined only far out: the far points decide
    assert!(read("ln(x-20)", 'x').is_ok());
    assert!(read("sqrt(x - 25)", 'x').is_ok());
    // defined nowhere it looks: said so, not taken as a misreading
    assert!(matches!(read("sqrt(x - 400)", 'x'), Err(Error::Unsupported(w)) if w.contains("too few")));
}

#[test]
fn words_end_an_expression() {
    for (text, expr) in [
        ("x^2 with steps", "x^2"),
        ("x^2 please", "x^2"),
        ("x^3 - 2x using the chain rule", "x^3 - 2x"),
        ("sin x cos x for me", "sin x cos x"),
        ("xe^x step by step", "xe^x"),
        ("sinx + 2", "sinx + 2"),
        ("sec(x) please", "sec(x)"),
        ("x^2? thanks", "x^2"),
        // maths after the word: all of it, so the parser says what it could not read
        ("x to the power 3", "x to the power 3"),
        ("sin x times cos x", "sin x times cos x"),
    ] {
        assert_eq!(leading_expression(text), expr, "{text}");
    }
    assert!(matches!(read("x times x", 'x'), Err(Error::Syntax(w)) if w.contains("\"times\"")));
    assert!(matches!(read("x^2 with steps", 'x'), Err(Error::Syntax(_))));
}

#[test]
fn derivatives_up_to_the_tenth() {
    assert_eq!(derivative(&f("x^12"), 10).unwrap().shown, "239500800x^2");
    assert_eq!(
        derivative(&f("x^3*sin(x)"), 6).unwrap().shown,
        derivative(&f("x^3*sin(x)"), 6).unwrap().shown
    );
    assert!(derivative(&f("x^3*sin(x)"), 10).is_ok());
    assert!(matches!(derivative(&f("x^2"), 11), Err(Error::Unsupported(_))));
}
