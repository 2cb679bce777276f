use super::*;

fn d(text: &str) -> String {
    derivative(&read(text, 'x').unwrap(), 1).map(|w| w.shown).unwrap_or_else(|e| format!("ERR {e}"))
}

fn i(text: &str) -> String {
    antiderivative(&read(text, 'x').unwrap()).map(|w| w.shown).unwrap_or_else(|e| format!("ERR {e}"))
}

#[test]
fn explore() {
    for t in [
        "x^3*sin(x)",
        "(2x+1)^5",
        "e^(2x)",
        "3x^2+2x",
        "x/(x+1)",
        "sin(x)/x",
        "sqrt(x)",
        "ln(x)",
        "tan(x)",
        "sin(x^2)",
        "x^x",
        "2^x",
        "1/x",
        "x*e^x",
        "cos(3x+1)",
        "log(x^2+1)",
        "5",
        "pi*x^2",
        "-x^2+3x-7",
        "(x+1)(x-1)",
        "2sin(x)cos(x)",
        "e^x*sin(x)",
        "x^2*e^(-x)",
        "1/x^2",
        "sqrt(2x+1)",
    ] {
        println!("d {t} = {}", d(t));
    }
    for t in [
        "3x^2+2x",
        "cos(x)",
        "x*e^x",
        "1/x",
        "x^-1",
        "(2x+1)^5",
        "e^(2x)",
        "sin(3x)",
        "sqrt(x)",
        "x(x+1)",
        "1/(2x+1)",
        "5",
        "x^2/3",
        "2^x",
        "e^(x^2)",
        "tan(x)",
        "-3x^4 + x - 1/2",
    ] {
        println!("i {t} = {}", i(t));
    }
}

#[test]
fn explore2() {
    let f = |t: &str| read(t, 'x').unwrap();
    let n = |t: &str| read_number(t).unwrap();
    for (t, a, b) in [
        ("x^2", "0", "3"),
        ("sin(x)", "0", "pi"),
        ("e^x", "0", "1"),
        ("1/x", "-1", "1"),
        ("1/x", "1", "e"),
        ("cos(x)", "0", "pi/2"),
        ("3x^2+2x", "1", "2"),
        ("sqrt(x)", "0", "4"),
    ] {
        println!(
            "def {t} {a}..{b} = {:?}",
            definite(&f(t), &n(a), &n(b)).map(|(w, v)| (w.shown, v.display()))
        );
    }
    for (t, o, p) in [
        ("x^2", 1, "3"),
        ("sin(x)", 1, "pi"),
        ("x^3", 2, "2"),
        ("e^(2x)", 1, "0"),
        ("ln(x)", 1, "2"),
        ("x^2", 0, "5"),
        ("sin(x)", 1, "2"),
    ] {
        println!(
            "at {t} {o} {p} = {:?}",
            derivative_at(&f(t), o, &n(p)).map(|(w, v)| (w.shown, v.display()))
        );
    }
    for t in ["x^3*sin(x)", "e^(2x)", "ln(x)", "x^4"] {
        let w = derivative(&f(t), 2).unwrap();
        println!("d2 {t} = {} steps {:?}", w.shown, w.steps);
    }
    for t in ["x^3*sin(x)", "(2x+1)^5", "3x^2+2x", "x/(x+1)", "sin(x^2)"] {
        println!("steps {t} = {:?}", derivative(&f(t), 1).unwrap().steps);
    }
    for t in ["3x^2+2x", "(2x+1)^5", "cos(x)", "x(x+1)", "2e^(3x)"] {
        println!("isteps {t} = {:?}", antiderivative(&f(t)).unwrap().steps);
    }
    for t in [
        "x*y",
        "2x+",
        "sec(x)",
        "x^2 from 0",
        "sin^2(x)",
        "sin 2x",
        "x²+3x",
        "2·x",
        "3.5x",
        "((x)",
        "t^2+1",
        "e^x^2",
    ] {
        println!("read {t} = {:?}", read(t, 'x').map(|f| f.shown()));
    }
}
