use super::*;

#[test]
fn explore() {
    let t = MockTutor::default();
    let policy = skills::Policy::from_set(&default_skills(), 1);
    for q in [
        "derivative of x^3*sin(x)",
        "and the second derivative?",
        "what about at x=2?",
        "now integrate it",
        "integrate 3x^2 + 2x",
        "integrate x^2 from 0 to 3",
        "hello",
        "solve 2x+3=7",
        "what is 17*23",
        "what is the chain rule?",
        "∫ cos(x) dx",
        "integral of x*e^x",
        "d/dx (2x+1)^5",
        "differentiate e^(2x)",
        "x^2+1",
        "differentiate it",
        "prove that the derivative of sin is cos",
        "partial derivative of x*y",
        "derivative of x*y",
        "how do i fix my leaking faucet",
        "what is the derivative of x^2 +",
        "limit of sin(x)/x as x->0",
        "what does the derivative mean",
        "Hello Tutor Agent. Can you help me with calculus?",
    ] {
        let a = t.answer("c1", q, &policy);
        println!("Q: {q}\n[{}] {}\n", a.outcome, a.text);
    }
}
