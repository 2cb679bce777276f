//! `campus student` on the command line against real processes: a chat driven through
//! stdin keeps one conversation until `/new`, refuses empty and over-long questions
//! without sending them, survives a Hub that is down, and ends at end of input; a
//! one-shot question needs no quotes and shows its ids only with `--verbose`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use testkit::{University, bin, field, free_port, poll, run};

/// Runs `campus student <args>` with `input` on its stdin (a pipe, so no prompt).
fn student(args: &[&str], hub_url: &str, input: &str) -> Output {
    let mut child = Command::new(bin())
        .arg("student")
        .args(args)
        .env("HUB_URL", hub_url)
        .env_remove("TUTOR_URL")
        .env_remove("STUDENT_CONFIG")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `sent …` and `reply …` lines of each exchange, in order.
fn exchanges(out: &str) -> Vec<(String, String)> {
    let sent = out.lines().filter(|l| l.starts_with("sent "));
    let reply = out.lines().filter(|l| l.starts_with("reply "));
    sent.zip(reply)
        .map(|(s, r)| {
            (field(s, "contextId").unwrap().to_string(), field(r, "contextId").unwrap().to_string())
        })
        .collect()
}

/// Questions the Hub routed or answered, by its log.
fn hub_questions(u: &University) -> usize {
    u.hub().stderr().iter().filter(|l| l.contains("routing decision")).count()
}

#[test]
fn the_chat_keeps_one_conversation_until_new_and_refuses_locally() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    let long = "why ".repeat(500) + "x"; // 2,001 characters
    let input = format!(
        "I need some help\nwith calculus please\n   \n{long}\n/help\n/new\nWhat are the library hours on Monday?\n"
    );
    let out = student(&["--verbose"], &u.hub_url, &input);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "the end of input ends the chat with 0: {stderr}");
    assert!(!stdout.contains("you> "), "no prompt when stdin is not a terminal: {stdout}");

    let ex = exchanges(&stdout);
    assert_eq!(ex.len(), 3, "three questions sent, the empty and the long one not: {stdout}");
    // the vague question is answered with a clarifying question, in a new conversation
    assert_eq!(ex[0].0, "(new)");
    assert!(stdout.lines().any(|l| l == "outcome clarify"), "{stdout}");
    // the answer to it goes in the same conversation
    assert_eq!(ex[1].0, ex[0].1, "the answer was sent in the clarifying question's context");
    // /new starts a new one
    assert!(stdout.lines().any(|l| l.starts_with("new conversation")), "{stdout}");
    assert_eq!(ex[2].0, "(new)", "{stdout}");
    assert_ne!(ex[2].1, ex[0].1);
    assert!(stdout.contains("Campus University (fictional demo) · Library Agent: "), "{stdout}");
    assert!(stdout.contains("/quit"), "/help lists the commands: {stdout}");

    // refused locally, one line each, and the chat went on
    let refused: Vec<&str> = stderr.lines().filter(|l| l.starts_with("not sent: ")).collect();
    assert_eq!(refused.len(), 2, "{stderr}");
    assert!(refused[0].contains("empty") && refused[1].contains("2001 characters"), "{stderr}");
    // the Hub saw exactly the three that were sent
    let last = ex[2].1.clone();
    poll(10, "the hub's log of the last question", || {
        u.hub().stderr().iter().any(|l| l.contains("routing decision") && l.contains(&last)).then_some(())
    });
    assert_eq!(hub_questions(&u), 3);

    // /quit ends too, before the rest of the input
    let out = student(&[], &u.hub_url, "/quit\nWhat are the library hours on Monday?\n");
    assert!(out.status.success() && out.stdout.is_empty(), "{}", text(&out.stdout));

    // one question without quotes: the attributed answer only, no ids
    let (ok, stdout, stderr) = run(
        &["student", "what", "are", "the", "library", "hours", "on", "Monday?"],
        &[("HUB_URL", &u.hub_url)],
    );
    assert!(ok, "{stderr}");
    // the reply's own lines: the next Monday's date, then its hours line
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(exchanges(&stdout).is_empty() && !stdout.lines().any(|l| l.starts_with("outcome ")), "{stdout}");
    assert!(stdout.starts_with("Campus University (fictional demo) · Library Agent: Monday is "), "{stdout}");
    assert!(stdout.contains("Monday"), "{stdout}");
    // with -v, the ids too
    let (ok, stdout, _) =
        run(&["student", "-v", "what", "is", "a", "derivative"], &[("HUB_URL", &u.hub_url)]);
    assert!(ok);
    assert!(stdout.starts_with("Campus University (fictional demo) · Tutor Agent: "), "{stdout}");
    assert_eq!(exchanges(&stdout).len(), 1, "{stdout}");
    assert!(stdout.lines().any(|l| l == "outcome route"), "{stdout}");
}

#[test]
fn the_chat_survives_a_hub_that_is_down() {
    let url = format!("http://127.0.0.1:{}", free_port());
    let out = student(&[], &url, "hello\nis anyone there\n/bogus\n");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error: could not ask")).collect();
    assert_eq!(errors.len(), 2, "one line per failed question, and the chat went on: {stderr}");
    assert!(errors.iter().all(|l| l.contains(&url) && l.contains("connection refused")), "{stderr}");
    assert!(stderr.lines().any(|l| l.starts_with("unknown command /bogus")), "{stderr}");
}

#[test]
fn a_refused_question_exits_2_without_contacting_anything() {
    // nothing listens here: a question that were sent would fail with connection refused
    let url = format!("http://127.0.0.1:{}", free_port());
    let long: Vec<&str> = std::iter::repeat_n("ab", 667).collect(); // 667 * 3 - 1 = 2,000 characters
    let mut over = long.clone();
    over.push("c"); // 2,002
    for (args, problem) in [(vec!["  "], "the question is empty"), (over, "2002 characters long")] {
        let out = Command::new(bin()).arg("student").args(&args).env("HUB_URL", &url).output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: not sent: ") && stderr.contains(problem), "{stderr}");
        assert!(out.stdout.is_empty());
    }
    // at the limit it is sent (and here fails to connect: exit 1, not 2)
    let out = Command::new(bin()).arg("student").args(&long).env("HUB_URL", &url).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("connection refused"));
}

#[test]
fn the_command_line_never_claims_forms_so_a_form_request_is_answered_in_words_that_say_why() {
    let u = University::start(&[], &[]);
    u.wait_ready();
    for (question, agent) in [
        (testkit::forms::TUTORING_QUESTION, "Tutor"),
        ("I want to reserve a group study room for 4 people tomorrow", "Library"),
    ] {
        let out = student(&[question], &u.hub_url, "");
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        assert!(stdout.contains(agent), "answered by the {agent}: {stdout}");
        assert!(
            stdout.contains("can't show forms. Open the Campus page in a browser"),
            "says why there is no form: {stdout}"
        );
    }
}
