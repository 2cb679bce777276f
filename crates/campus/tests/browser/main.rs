//! The page in a real browser (Debian chromium via chromedriver, fantoccini over
//! WebDriver) against real processes: Hub, Tutor, Library and `campus ui`.
//! Skips with a printed line when /usr/bin/chromedriver is absent; `.ci/run` installs it
//! and sets CAMPUS_REQUIRE_BROWSER so there a missing browser fails.
//! Screenshots of each tab go to target/screenshots/.

mod driver;
mod fake_model;
mod forms;

use std::sync::Mutex;

use driver::{Driver, ENTER, SPACE, axe, find, js, press, screenshot, tab_to, until};
use fantoccini::Client;
use serde_json::Value;
use testkit::{Proc, University, feed_events};

/// One browser test at a time: each runs a whole university and a browser on 2 cores.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const CALCULUS: &str = "What is the derivative of x^2?";

/// A university plus the UI server following its Hub.
struct Campus {
    u: University,
    ui: Proc,
}

impl Campus {
    fn start(hub_env: &[(&str, &str)], tutor_env: &[(&str, &str)]) -> Campus {
        let u = University::start_with(hub_env, tutor_env, &[]);
        u.wait_ready();
        let ui = testkit::ui::start_ui(&u.hub_url, &[]);
        Campus { u, ui }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.ui.url)
    }
}

/// How many questions the Hub's own feed says it received.
async fn hub_received(hub_url: &str) -> usize {
    let url = hub_url.to_string();
    tokio::task::spawn_blocking(move || {
        feed_events(&url).iter().filter(|e| e["agent"] == "hub" && e["kind"] == "message_received").count()
    })
    .await
    .unwrap()
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f).await.unwrap()
}

/// Runs blocking `f` that borrows the test's state (and may start a runtime of its own, as
/// the common helpers do) on a thread of its own while the test waits for it.
fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| s.spawn(f).join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
}

async fn open(c: &Client, url: &str) {
    c.goto(url).await.expect("open the page");
    find(c, "body[data-stream='open']").await;
}

/// Types a question in the focused composer and presses Enter; waits until the question
/// shows in this window and returns its run id.
async fn ask(c: &Client, text: &str) -> String {
    let before = js(c, "return document.querySelectorAll('#chat-log .role-user').length;").await;
    find(c, "#question").await.send_keys(text).await.expect("type");
    press(c, ENTER).await;
    let n = before.as_u64().unwrap() + 1;
    until(
        c,
        "the question in the chat",
        &format!(
            "const q = document.querySelectorAll('#chat-log .role-user'); \
             return q.length >= {n} && q[q.length - 1].dataset.runId && !q[q.length - 1].id.startsWith('local-') ? q[q.length - 1].dataset.runId : null;"
        ),
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

/// Waits for the reply of run `run` to finish; returns {who, text, cls}.
async fn reply(c: &Client, run: &str) -> Value {
    until(
        c,
        "the attributed reply",
        &format!(
            "const m = [...document.querySelectorAll('#chat-log .role-assistant')].find(m => m.dataset.runId === '{run}'); \
             if (!m || m.getAttribute('aria-busy') === 'true') return null; \
             const who = m.querySelector('.who').textContent; if (who === 'Reply') return null; \
             return {{who, text: m.querySelector('.text').textContent, cls: m.className}};"
        ),
    )
    .await
}

/// Waits until the hop strip shows run `run` with no step pending or in progress; returns the states.
async fn hops_settled(c: &Client, run: &str) -> Vec<String> {
    let v = until(
        c,
        "the hop strip to complete",
        &format!(
            "const ol = document.querySelector('ol#hops[aria-label=Progress]'); if (!ol || ol.dataset.runId !== '{run}') return null; \
             const s = [...ol.querySelectorAll('li')].map(li => li.dataset.state); \
             return s.length === 9 && s.every(x => x !== 'pending' && x !== 'active') ? s : null;"
        ),
    )
    .await;
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

async fn no_violations(c: &Client, what: &str) {
    let v = axe(c).await;
    if !v.is_empty() {
        let shot = screenshot(c, &format!("axe-{what}")).await;
        panic!(
            "axe found serious/critical violations on {what} (screenshot {}):\n{}",
            shot.display(),
            v.join("\n")
        );
    }
}

async fn goto_tab(c: &Client, label: &str, path: &str) {
    js(c, &format!("document.querySelector('nav a[href=\"{path}\"]').click();")).await;
    until(
        c,
        label,
        &format!("return location.pathname === '{path}' && document.title.startsWith('{label}');"),
    )
    .await;
}

/// Runs `test` with a fresh campus and chromedriver, one browser test at a time; skips
/// (printing why) where there is no chromedriver.
fn browser_test(name: &str, test: impl AsyncFnOnce(&Driver, &mut Campus)) {
    browser_test_in(name, &[], &[], test);
}

/// [`browser_test`] with extra environment for the Hub and the Tutor.
fn browser_test_in(
    name: &str,
    hub_env: &[(&str, &str)],
    tutor_env: &[(&str, &str)],
    test: impl AsyncFnOnce(&Driver, &mut Campus),
) {
    if !driver::available(name) {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut campus = Campus::start(hub_env, tutor_env);
    let driver = Driver::start();
    testkit::rt().block_on(test(&driver, &mut campus));
}

#[test]
fn a_question_gets_an_attributed_reply_a_complete_hop_strip_and_pulses_and_reload_resends_nothing() {
    browser_test("browser: question, hops, pulses, reload", async |d, campus| {
        let topo = d.session(false).await;
        open(&topo, &campus.url("/topology")).await;
        let c = d.session(false).await;
        open(&c, &campus.url("/")).await;
        assert_eq!(js(&c, "return document.title;").await, "Conversation · Campus");
        assert_eq!(
            js(&c, "return document.querySelector('a[aria-current=page]').getAttribute('href');").await,
            "/conversation"
        );

        let run = ask(&c, CALCULUS).await;
        let r = reply(&c, &run).await;
        assert!(r["who"].as_str().unwrap().contains("Tutor Agent"), "{r}");
        assert!(!r["text"].as_str().unwrap().is_empty(), "{r}");
        assert!(r["cls"].as_str().unwrap().contains("tone-tutor"), "{r}");
        until(&c, "the run completed", &format!("return document.querySelector('[data-run-id=\"{run}\"].role-user')?.dataset.runStatus === 'completed';")).await;
        let hops = hops_settled(&c, &run).await;
        assert!(hops.iter().all(|s| s == "done"), "a routed question has every step done: {hops:?}");
        assert!(
            js(&c, "return document.querySelector('#hops [aria-current=step]') === null;").await
                == Value::Bool(true)
        );

        // the other window drew this question's pulses: out and back on both links
        for (link, want) in [
            ("student-hub", "student>hub:question"),
            ("hub-tutor", "hub>tutor:question"),
            ("hub-tutor", "tutor>hub:answer"),
            ("student-hub", "hub>student:answer"),
        ] {
            until(
                &topo,
                &format!("a {want} pulse on {link}"),
                &format!("return (document.querySelector('[data-link=\"{link}\"]').dataset.drawn || '').includes('{want}');"),
            )
            .await;
        }

        screenshot(&topo, "topology-pulses").await;
        // the trace is listed by the first words of its question
        let option = js(&topo, "return document.getElementById('topo-trace').options[1].textContent;").await;
        assert!(option.as_str().unwrap().starts_with("“What is the derivative of x^2?”"), "{option}");
        // picking the question's trace highlights the links it used and dims the rest
        js(
            &topo,
            "const s = document.getElementById('topo-trace'); s.value = s.options[1].value; s.dispatchEvent(new Event('change'));",
        )
        .await;
        until(
            &topo,
            "the trace highlighted",
            "const c = (l) => document.querySelector(`[data-link=${l}]`).classList; \
             return c('student-hub').contains('in-trace') && c('hub-tutor').contains('in-trace') && c('hub-library').contains('dimmed');",
        )
        .await;

        // reload: the conversation comes back from the stream, nothing is sent again
        let hub_url = campus.u.hub_url.clone();
        let before = hub_received(&hub_url).await;
        assert!(before >= 1);
        c.refresh().await.unwrap();
        find(&c, "body[data-stream='open']").await;
        let again = reply(&c, &run).await;
        assert_eq!(again["text"], r["text"]);
        hops_settled(&c, &run).await;
        assert_eq!(hub_received(&hub_url).await, before, "a reload sent nothing to the Hub");
        assert_eq!(js(&c, "return document.querySelectorAll('#chat-log .role-user').length;").await, 1);

        for (tab, path) in
            [("conversation", "/conversation"), ("activity", "/activity"), ("topology", "/topology")]
        {
            if tab != "conversation" {
                let label = if tab == "activity" { "Agent activity" } else { "Topology" };
                goto_tab(&c, label, path).await;
            }
            if tab == "activity" {
                until(
                    &c,
                    "the Hub console",
                    "return document.querySelectorAll('#console-hub .line').length > 0;",
                )
                .await;
                until(
                    &c,
                    "the Tutor console (relayed)",
                    "return document.querySelectorAll('#console-tutor .line').length > 0;",
                )
                .await;
            }
            screenshot(&c, tab).await;
        }
        topo.close().await.unwrap();
        c.close().await.unwrap();
    });
}

#[test]
fn two_windows_both_keep_working() {
    browser_test("browser: two windows", async |d, campus| {
        let a = d.session(false).await;
        let b = d.session(false).await;
        open(&a, &campus.url("/conversation")).await;
        open(&b, &campus.url("/conversation")).await;
        let first = ask(&a, CALCULUS).await;
        let ra = reply(&a, &first).await;
        let rb = reply(&b, &first).await; // the other window sees the same conversation
        assert_eq!(ra["text"], rb["text"]);
        let second = ask(&b, "When is the library open on Monday?").await;
        let rb2 = reply(&b, &second).await;
        assert!(rb2["who"].as_str().unwrap().contains("Library Agent"), "{rb2}");
        let ra2 = reply(&a, &second).await;
        assert_eq!(ra2["text"], rb2["text"]);
        // each window's stream is still live
        for c in [&a, &b] {
            assert_eq!(js(c, "return document.body.dataset.stream;").await, "open");
        }

        // a second question while one runs is refused (409) and stays in the box to send again
        let tutor = campus.u.tutor.pid().to_string();
        let signal = |sig: &'static str, pid: String| {
            blocking(move || std::process::Command::new("kill").args([sig, &pid]).status().unwrap().success())
        };
        assert!(signal("-STOP", tutor.clone()).await);
        let slow = ask(&a, CALCULUS).await;
        assert_eq!(js(&a, "return document.getElementById('question').value;").await, "", "taken: cleared");
        until(
            &a,
            "the Hub asking the Tutor",
            "return document.getElementById('status').textContent.includes('Hub asked the Tutor');",
        )
        .await;
        let second = "And the integral of 2x?";
        find(&a, "#question").await.send_keys(second).await.expect("type");
        press(&a, ENTER).await;
        until(
            &a,
            "the refusal",
            "return [...document.querySelectorAll('#chat-log .kind-error')].some(m => m.textContent.includes('Not sent'));",
        )
        .await;
        assert_eq!(
            js(&a, "return document.getElementById('question').value;").await,
            second,
            "refused: kept"
        );
        assert!(signal("-CONT", tutor).await);
        reply(&a, &slow).await;
        hops_settled(&a, &slow).await;
        // the run ended: the status line no longer says a step of it is under way
        until(
            &a,
            "the milestone taken back",
            "return !document.getElementById('status').textContent.includes('Hub asked');",
        )
        .await;
        a.close().await.unwrap();
        b.close().await.unwrap();
    });
}

#[test]
fn a_stopped_tutor_shows_unavailable_honestly_and_a_dropped_stream_shows_the_banner() {
    browser_test("browser: stopped tutor, banner", async |d, campus| {
        let c = d.session(true).await;
        open(&c, &campus.url("/topology")).await;
        // the OS asks for less motion: Reduce motion starts pressed
        until(
            &c,
            "Reduce motion on",
            "return document.getElementById('topo-motion').getAttribute('aria-pressed') === 'true';",
        )
        .await;
        until(
            &c,
            "the Tutor ready",
            "return document.querySelector('[data-node=tutor] .node-status').textContent.includes('Ready');",
        )
        .await;
        // a clean stop: the Tutor signs out, the Hub marks it disconnected
        let pid = campus.u.tutor.pid();
        let ok = blocking(move || {
            std::process::Command::new("kill").args(["-INT", &pid.to_string()]).status().unwrap().success()
        })
        .await;
        assert!(ok);
        until(
            &c,
            "the Tutor shown not ready",
            "const t = document.querySelector('[data-node=tutor] .node-status').textContent; return !t.includes('Ready') && !t.includes('Unknown') ? t : null;",
        )
        .await;
        screenshot(&c, "topology-tutor-stopped").await;
        goto_tab(&c, "Conversation", "/conversation").await;
        let run = ask(&c, CALCULUS).await;
        let r = reply(&c, &run).await;
        assert!(r["cls"].as_str().unwrap().contains("tone-hub"), "the Hub answered itself: {r}");
        assert!(r["who"].as_str().unwrap().contains("Unavailable"), "{r}");
        let hops = hops_settled(&c, &run).await;
        assert_eq!(hops[3], "skipped", "nothing was forwarded: {hops:?}");
        assert_eq!(
            (hops[7].as_str(), hops[8].as_str()),
            ("done", "done"),
            "the Hub's answer arrived: {hops:?}"
        );
        screenshot(&c, "conversation-unavailable").await;

        // the UI server goes away: the banner says so and the graph greys out
        goto_tab(&c, "Topology", "/topology").await;
        let ui_pid = campus.ui.pid();
        blocking(move || {
            std::process::Command::new("kill").args(["-KILL", &ui_pid.to_string()]).status().unwrap()
        })
        .await;
        until(
            &c,
            "the disconnected banner",
            "return document.querySelector('[role=alert]').textContent.includes('Live view disconnected');",
        )
        .await;
        assert_eq!(
            js(&c, "return document.getElementById('topo-graph').classList.contains('disconnected');").await,
            true
        );
        assert!(
            js(&c, "return document.querySelector('[data-link=student-hub] .link-label').textContent;")
                .await
                .as_str()
                .unwrap()
                .contains("unknown")
        );
        // nothing says how any agent is now: none reads Ready, and no count is made up
        let nodes = until(
            &c,
            "every agent unknown",
            "const n = [...document.querySelectorAll('[data-node]')]; \
             return n.length >= 4 && n.every(x => x.querySelector('.node-status').textContent.includes('Unknown')) \
               ? n.map(x => x.textContent) : null;",
        )
        .await;
        assert!(!nodes.to_string().contains("Ready") && !nodes.to_string().contains("in flight"), "{nodes}");
        screenshot(&c, "topology-disconnected").await;
        no_violations(&c, "topology (disconnected)").await;

        // a question asked now never leaves the page: the strip shows its own failure,
        // never the last question's steps
        goto_tab(&c, "Conversation", "/conversation").await;
        find(&c, "#question").await.send_keys("When is the library open?").await.expect("type");
        press(&c, ENTER).await;
        let strip = until(
            &c,
            "the unsent question's own strip",
            &format!(
                "const ol = document.getElementById('hops'); const li = [...ol.querySelectorAll('li')]; \
                 return ol.dataset.runId && ol.dataset.runId !== '{run}' && li[0]?.dataset.state === 'unknown' \
                   ? {{states: li.map(x => x.dataset.state), first: li[0].textContent}} : null;"
            ),
        )
        .await;
        // the post broke off: whether it reached the page's server is not known, nor anything after
        let states = strip["states"].as_array().unwrap();
        assert!(states.iter().all(|s| s == "unknown"), "{strip}");
        assert!(strip["first"].as_str().unwrap().contains("could not reach"), "{strip}");
        screenshot(&c, "conversation-demo-stopped").await;
        c.close().await.unwrap();
    });
}

#[test]
fn every_tab_works_by_keyboard_and_passes_axe() {
    browser_test("browser: keyboard and axe", async |d, campus| {
        let c = d.session(false).await;
        open(&c, &campus.url("/")).await;
        // Conversation: Tab reaches the composer; Enter sends; Shift+Enter is a new line
        let f = tab_to(&c, "the question box", 12, |f| f["id"] == "question").await;
        assert_eq!(f["tag"], "textarea");
        press(&c, "first line").await;
        press(&c, "\u{E008}\u{E007}\u{E008}").await; // Shift down, Enter, Shift up
        press(&c, "second").await;
        assert_eq!(js(&c, "return document.getElementById('question').value;").await, "first line\nsecond");
        js(&c, "document.getElementById('question').value = '';").await;
        let run = ask(&c, CALCULUS).await;
        reply(&c, &run).await;
        hops_settled(&c, &run).await;
        assert_eq!(js(&c, "return document.getElementById('question').value;").await, "", "the box clears");
        screenshot(&c, "conversation-keyboard").await;
        no_violations(&c, "conversation").await;
        // New conversation by keyboard: an empty chat, the question box focused
        js(&c, "document.querySelector('nav a[href=\"/topology\"]').focus();").await;
        let f = tab_to(&c, "New conversation", 4, |f| f["id"] == "new-conversation").await;
        assert_eq!(f["tag"], "button");
        press(&c, ENTER).await;
        until(
            &c,
            "a new, empty conversation",
            "return document.querySelectorAll('#chat-log .msg').length === 0 && document.activeElement.id === 'question';",
        )
        .await;

        // to Agent activity by keyboard: the view's heading takes focus, consoles scroll by keyboard
        js(&c, "document.querySelector('nav a[href=\"/conversation\"]').focus();").await;
        let f = tab_to(&c, "the Agent activity link", 3, |f| f["href"] == "/activity").await;
        assert_eq!(f["tag"], "a");
        press(&c, ENTER).await;
        until(
            &c,
            "the activity view",
            "return location.pathname === '/activity' && document.activeElement.tagName === 'H1';",
        )
        .await;
        let f = tab_to(&c, "a console", 3, |f| f["role"] == "log").await;
        assert_eq!(f["id"], "console-student");
        for agent in ["hub", "tutor", "library"] {
            let f = tab_to(&c, "the next console", 2, |f| f["role"] == "log").await;
            assert_eq!(f["id"], format!("console-{agent}"));
        }
        no_violations(&c, "activity").await;

        // Back returns to Conversation (the page opened at /) with its heading focused
        c.back().await.unwrap();
        until(&c, "Back to Conversation", "return location.pathname === '/' && document.activeElement.tagName === 'H1' && document.title.startsWith('Conversation');").await;
        c.forward().await.unwrap();
        until(&c, "Forward to activity", "return location.pathname === '/activity';").await;

        // Topology: Tab to the controls, Space presses Pause, Enter on a node opens details,
        // Close returns focus to the node
        js(&c, "document.querySelector('nav a[href=\"/activity\"]').focus();").await;
        tab_to(&c, "the Topology link", 2, |f| f["href"] == "/topology").await;
        press(&c, ENTER).await;
        until(
            &c,
            "the topology view",
            "return location.pathname === '/topology' && document.activeElement.tagName === 'H1';",
        )
        .await;
        let f = tab_to(&c, "Pause", 3, |f| f["id"] == "topo-pause").await;
        assert_eq!(f["tag"], "button");
        press(&c, SPACE).await;
        until(
            &c,
            "paused",
            "return document.getElementById('topo-pause').getAttribute('aria-pressed') === 'true';",
        )
        .await;
        no_violations(&c, "topology (paused)").await;
        let f = tab_to(&c, "the Student node", 12, |f| f["node"] == "student" || f["link"] != "").await;
        assert!(f["link"] == "student-hub" || f["node"] == "student", "{f}");
        let f = tab_to(&c, "the Hub node", 12, |f| f["node"] == "hub").await;
        assert!(f["text"].as_str().unwrap().starts_with("Hub ✓ Ready"), "{f}");
        press(&c, ENTER).await;
        until(&c, "the details panel", "return !document.getElementById('topo-details').hidden && document.activeElement.id === 'topo-details-title';").await;
        screenshot(&c, "topology-details").await;
        no_violations(&c, "topology (details open)").await;
        let f = tab_to(&c, "Close details", 3, |f| f["text"] == "Close details").await;
        assert_eq!(f["tag"], "button");
        press(&c, ENTER).await;
        until(&c, "focus back on the Hub node", "return document.getElementById('topo-details').hidden && document.activeElement.dataset.node === 'hub';").await;
        // a link by keyboard too
        js(&c, "document.querySelector('[data-link=\"student-hub\"]').focus();").await;
        press(&c, SPACE).await;
        until(
            &c,
            "the link's details",
            "return document.getElementById('topo-details-title')?.textContent.includes('Student ↔ Hub');",
        )
        .await;
        // the list view
        js(&c, "document.getElementById('topo-list-toggle').focus();").await;
        press(&c, ENTER).await;
        until(&c, "the list view", "return !document.getElementById('topo-list').hidden && document.querySelectorAll('#topo-list table').length === 2;").await;
        assert!(
            js(&c, "return document.querySelector('#topo-list .event-list')?.textContent ?? '';")
                .await
                .as_str()
                .unwrap()
                .contains("Student → Hub")
        );
        screenshot(&c, "topology-list").await;
        no_violations(&c, "topology (list)").await;
        c.close().await.unwrap();
    });
}
