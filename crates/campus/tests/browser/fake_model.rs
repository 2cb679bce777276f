//! `campus demo --fake-model` in the browser: the page says that answers come from a local
//! fake model on this machine (never that anything is sent to a provider) and names every
//! agent's model, the Student's included.

use std::process::{Child, Command};

use testkit::Lines;

use super::driver::{self, Driver, until};
use super::{ONE_AT_A_TIME, ask, open, reply};

/// The demo, stopped with one SIGINT (as a person would) when the test ends, passing or not.
struct Demo(Child);

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-INT", &self.0.id().to_string()]).status();
        let _ = self.0.wait();
    }
}

#[test]
fn with_the_fake_model_the_page_says_so_and_names_every_agent_s_model() {
    if !driver::available("browser: fake-model notice") {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let data = testkit::TempDir::new();
    std::fs::create_dir_all(data.path()).unwrap();
    let (mut cmd, [_, _, _, ui, _]) = testkit::demo(&["--fake-model"], data.path());
    let (child, mut out) = Lines::spawn(&mut cmd);
    let _demo = Demo(child);
    out.wait(&|l| l.contains("all agents ready"), "all agents ready");
    let driver = Driver::start();
    testkit::rt().block_on(async {
        let c = driver.session(true).await;
        open(&c, &format!("http://127.0.0.1:{ui}/")).await;
        // the notice is drawn from the agents' reports: wait until all four are in it
        let notice = until(
            &c,
            "the live notice naming every agent",
            "const n = document.getElementById('live-notice'); \
             return n && !n.hidden && ['Hub (', 'Tutor (', 'Library (', 'Student ('].every(w => n.textContent.includes(w)) ? n.textContent : null;",
        )
        .await;
        let notice = notice.as_str().unwrap();
        assert!(notice.contains("local fake model"), "{notice}");
        assert!(notice.contains("nothing leaves this machine"), "{notice}");
        assert!(!notice.contains("model provider"), "no word of a provider: {notice}");
        assert!(!notice.contains("model unknown"), "every model named: {notice}");
        for agent in ["Hub", "Tutor", "Library", "Student"] {
            assert!(notice.contains(&format!("{agent} (claude-")), "{agent}'s model: {notice}");
        }
        // and a question is answered in live mode, by the fake
        let run = ask(&c, "What is the derivative of x^2?").await;
        let answer = reply(&c, &run).await;
        assert!(answer["who"].as_str().unwrap().contains("Tutor"), "{answer}");
        c.close().await.unwrap();
    });
}
