//! The offline tutor (`TUTOR_MODE=mock`, the default) in the real `campus tutor` process,
//! over real HTTP: a computed answer with its steps, a follow-up in the same conversation,
//! the label on every answer, and `TUTOR_MODE` values it refuses at startup.

use a2a::client::A2aClient;
use student::Student;
use testkit::{Proc, University, bin, rt};

#[test]
fn offline_tutor_computes_and_follows_up_in_one_conversation() {
    let tutor = Proc::start(&["tutor"], &[("TUTOR_MODE", "mock")]);
    rt().block_on(async {
        let me = Student::new(A2aClient::default(), tutor.url.clone());
        let first = me.ask("What is the derivative of x^3*sin(x)?").await.expect("ask");
        assert!(first.reply_text.starts_with(tutor::LABEL), "{}", first.reply_text);
        assert!(first.reply_text.contains("f'(x) = 3x^2·sin(x) + x^3·cos(x)"), "{}", first.reply_text);
        assert!(
            first
                .reply_text
                .contains("product rule: (x^3)'·sin(x) + x^3·(sin(x))' = 3x^2·sin(x) + x^3·cos(x)"),
            "{}",
            first.reply_text
        );

        // the follow-up names no function: the Tutor kept this conversation's last one
        let second = me.ask("what about at x=0?").await.expect("ask");
        assert_eq!(second.context_id, first.context_id, "one conversation");
        assert!(second.reply_text.starts_with(tutor::LABEL), "{}", second.reply_text);
        assert!(second.reply_text.contains("f'(0) = 0"), "{}", second.reply_text);
        let third = me.ask("and the second derivative?").await.expect("ask");
        assert!(
            third.reply_text.contains("f''(x) = 6x·sin(x) + 6x^2·cos(x) - x^3·sin(x)"),
            "{}",
            third.reply_text
        );

        // another conversation has no last function
        me.new_conversation();
        let other = me.ask("and the second derivative?").await.expect("ask");
        assert_ne!(other.context_id, first.context_id);
        assert!(other.reply_text.starts_with(tutor::LABEL), "{}", other.reply_text);
        assert!(other.reply_text.contains("Which function"), "{}", other.reply_text);
    });
    // the mode is on the reply's telemetry, and the log has ids but no question text
    let published = tutor.wait_for_log(|l| l.contains("publishing reply"));
    assert!(!published.contains("sin(x)"), "{published}");
}

#[test]
fn through_the_hub_a_follow_up_reaches_the_same_tutor_conversation() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    rt().block_on(async {
        let me = Student::new(A2aClient::default(), u.hub_url.clone());
        let first = me.ask("d/dx (2x+1)^5").await.expect("ask");
        assert_eq!(first.outcome.as_deref(), Some("route"), "{}", first.reply_text);
        assert!(first.reply_text.contains("f'(x) = 10(2x+1)^4"), "{}", first.reply_text);
        let second = me.ask("and the second derivative?").await.expect("ask");
        assert_eq!(second.outcome.as_deref(), Some("route"), "{}", second.reply_text);
        assert!(second.reply_text.starts_with(tutor::LABEL), "{}", second.reply_text);
        assert!(second.reply_text.contains("f''(x) = 80(2x+1)^3"), "{}", second.reply_text);
    });
}

#[test]
fn mock_is_the_default_and_fixed_keeps_the_part_one_reply() {
    let default = Proc::start(&["tutor"], &[]);
    let fixed = Proc::start(&["tutor"], &[("TUTOR_MODE", "fixed")]);
    let (a, b) =
        (testkit::ask(&default.url, "integrate 3x^2 + 2x"), testkit::ask(&fixed.url, "integrate 3x^2 + 2x"));
    assert!(a.reply_text.starts_with(tutor::LABEL), "{}", a.reply_text);
    assert!(a.reply_text.contains("= x^3 + x^2 + C"), "{}", a.reply_text);
    assert_eq!(b.reply_text, tutor::FIXED_REPLY);
}

#[test]
fn an_unknown_mode_or_live_model_stops_the_tutor_at_startup() {
    let cases =
        [("magic", "TUTOR_MODE", "must be fixed, mock or live"), ("live", "TUTOR_MODEL", "claude-haiku-5-5")];
    for (mode, var, says) in cases {
        let out = std::process::Command::new(bin())
            .arg("tutor")
            .env("TUTOR_MODE", mode)
            .env("TUTOR_MODEL", "claude-unknown-9")
            .env("PORT", "0")
            .output()
            .expect("run campus");
        assert_eq!(out.status.code(), Some(78), "{mode}");
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().filter(|l| !l.contains(" INFO ")).collect();
        assert_eq!(lines.len(), 1, "{err}");
        assert!(lines[0].starts_with(&format!("error: {var}")) && lines[0].contains(says), "{err}");
        assert!(out.stdout.is_empty(), "no ready line");
    }
}
