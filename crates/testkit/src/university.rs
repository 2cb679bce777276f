//! A whole university of real processes, and what the tests ask of it: the Hub's
//! registry, a specialist's settings, a control message as a specialist sends it.

use a2a::client::A2aClient;
use hublink::{Control, parse_ack};
use serde_json::Value;
use student::{Exchange, Student};

use crate::http::{http_json, rt};
use crate::process::{Proc, TempDir, free_port, poll};

/// A whole university: Hub, Tutor, Library and Professor as real processes on free ports, with
/// fast heartbeats. The Hub keeps one data folder across [`University::start_hub`], as a
/// restarted Hub would.
pub struct University {
    pub hub: Option<Proc>,
    pub tutor: Proc,
    pub library: Proc,
    pub professor: Proc,
    pub hub_url: String,
    pub hub_port: u16,
    pub tutor_url: String,
    pub library_url: String,
    pub professor_url: String,
    pub hub_env: Vec<(String, String)>,
    hub_data: TempDir,
}

pub const FAST: [(&str, &str); 2] = [("HEARTBEAT_INTERVAL_MS", "100"), ("HEARTBEAT_EXPIRY_MS", "600")];

impl University {
    /// The Hub's data folder (its store and its agent key).
    pub fn hub_data_dir(&self) -> &std::path::Path {
        self.hub_data.path()
    }

    pub fn start(hub_env: &[(&str, &str)], library_env: &[(&str, &str)]) -> University {
        University::start_with(hub_env, &[], library_env)
    }

    /// [`University::start`] with extra environment for the Tutor too.
    pub fn start_with(
        hub_env: &[(&str, &str)],
        tutor_env: &[(&str, &str)],
        library_env: &[(&str, &str)],
    ) -> University {
        University::start_each(hub_env, tutor_env, library_env, &[])
    }

    /// [`University::start_with`] with extra environment for the Professor too.
    pub fn start_each(
        hub_env: &[(&str, &str)],
        tutor_env: &[(&str, &str)],
        library_env: &[(&str, &str)],
        professor_env: &[(&str, &str)],
    ) -> University {
        let (hub_port, tutor_port, library_port, professor_port) =
            (free_port(), free_port(), free_port(), free_port());
        let hub_url = format!("http://127.0.0.1:{hub_port}");
        let tutor_url = format!("http://127.0.0.1:{tutor_port}");
        let library_url = format!("http://127.0.0.1:{library_port}");
        let professor_url = format!("http://127.0.0.1:{professor_port}");
        let mut henv: Vec<(String, String)> = vec![
            ("TUTOR_URL".into(), tutor_url.clone()),
            ("LIBRARY_URL".into(), library_url.clone()),
            ("PROFESSOR_URL".into(), professor_url.clone()),
        ];
        henv.extend(FAST.iter().chain(hub_env).map(|(k, v)| (k.to_string(), v.to_string())));
        let tport = tutor_port.to_string();
        let lport = library_port.to_string();
        let mut tenv = vec![("PORT", tport.as_str()), ("HUB_URL", hub_url.as_str()), FAST[0]];
        tenv.extend_from_slice(tutor_env);
        let tutor = Proc::start(&["tutor"], &tenv);
        let mut lenv = vec![("PORT", lport.as_str()), ("HUB_URL", hub_url.as_str()), FAST[0]];
        lenv.extend_from_slice(library_env);
        let library = Proc::start(&["library"], &lenv);
        let pport = professor_port.to_string();
        let mut penv = vec![("PORT", pport.as_str()), ("HUB_URL", hub_url.as_str()), FAST[0]];
        penv.extend_from_slice(professor_env);
        let professor = Proc::start(&["professor"], &penv);
        let mut u = University {
            hub: None,
            tutor,
            library,
            professor,
            hub_url,
            hub_port,
            tutor_url,
            library_url,
            professor_url,
            hub_env: henv,
            hub_data: TempDir::new(),
        };
        u.start_hub();
        u
    }

    pub fn start_hub(&mut self) {
        let port = self.hub_port.to_string();
        let mut env: Vec<(&str, &str)> = vec![("PORT", &port)];
        if !self.hub_env.iter().any(|(k, _)| k == "CAMPUS_DATA_DIR") {
            env.push(("CAMPUS_DATA_DIR", self.hub_data.as_str()));
        }
        env.extend(self.hub_env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        self.hub = Some(Proc::start(&["hub"], &env));
    }

    /// Kills the Tutor with SIGKILL (no graceful path) and waits until it is gone.
    pub fn kill_tutor(&mut self) {
        kill(&mut self.tutor);
    }

    /// Kills the Tutor with SIGKILL, runs `meanwhile`, and starts it again on the same
    /// port with the data folder `data` (its key and store) and `env`.
    pub fn restart_tutor(&mut self, data: &TempDir, env: &[(&str, &str)], meanwhile: impl FnOnce()) {
        kill(&mut self.tutor);
        meanwhile();
        self.tutor = self.again("tutor", &self.tutor_url, data, env);
    }

    /// [`University::restart_tutor`] for the Library: SIGKILL, then the same port, `data`
    /// and `env`.
    pub fn restart_library(&mut self, data: &TempDir, env: &[(&str, &str)]) {
        kill(&mut self.library);
        self.library = self.again("library", &self.library_url, data, env);
    }

    /// `agent` started again on the port of `url`, with `data` and `env`.
    fn again(&self, agent: &str, url: &str, data: &TempDir, env: &[(&str, &str)]) -> Proc {
        let port = url.rsplit(':').next().unwrap().to_string();
        let mut all = vec![
            ("CAMPUS_DATA_DIR", data.as_str()),
            ("PORT", port.as_str()),
            ("HUB_URL", self.hub_url.as_str()),
            FAST[0],
        ];
        all.extend_from_slice(env);
        Proc::start(&[agent], &all)
    }

    pub fn hub(&self) -> &Proc {
        self.hub.as_ref().expect("hub running")
    }

    /// `GET /dev/registry` on the Hub.
    pub fn registry(&self) -> serde_json::Value {
        http_json("GET", &format!("{}/dev/registry", self.hub_url), None).1
    }

    pub fn status(&self, id: &str) -> String {
        let reg = self.registry();
        reg["specialists"]
            .as_array()
            .and_then(|l| l.iter().find(|s| s["id"] == id))
            .map(|s| s["status"].as_str().unwrap_or("").to_string())
            .unwrap_or_default()
    }

    pub fn specialist(&self, id: &str) -> serde_json::Value {
        let reg = self.registry();
        reg["specialists"]
            .as_array()
            .and_then(|l| l.iter().find(|s| s["id"] == id))
            .cloned()
            .unwrap_or_default()
    }

    pub fn wait_status(&self, id: &str, want: &str) {
        poll(15, &format!("{id} to be {want}"), || (self.status(id) == want).then_some(()));
    }

    pub fn wait_ready(&self) {
        self.wait_status("tutor", "ready");
        self.wait_status("library", "ready");
        self.wait_status("professor", "ready");
    }
}

/// How many tutoring requests the Tutor `tutor` has recorded for the demo student, read
/// from its own SQLite file beside the running agent.
/// Kills `p` with SIGKILL (no graceful path) and waits until it is gone.
fn kill(p: &mut Proc) {
    let pid = p.pid().to_string();
    assert!(std::process::Command::new("kill").args(["-9", &pid]).status().unwrap().success());
    poll(5, "the agent gone", || (!p.is_running()).then_some(()));
}

pub fn tutoring_requests(tutor: &Proc) -> usize {
    let dir = tutor.data_dir().expect("a tutor with the test's data folder");
    let store = store::Store::open(&store::file_for(dir, "tutor")).expect("the tutor's store");
    store.tutoring_requests_of(student::DEMO_STUDENT_ID, 100).expect("its requests").len()
}

/// Lines in a process's stderr that record a received message.
pub fn received(p: &Proc) -> usize {
    p.stderr().iter().filter(|l| l.contains("received message")).count()
}

/// Asks `text` with the request id `request_id` in the conversation `context` (the same
/// Student conversation each time, as "Check for answer" sends it).
pub fn ask_as(url: &str, context: Option<&str>, request_id: &str, text: &str) -> Exchange {
    rt().block_on(async {
        let s = Student::new(A2aClient::default(), url);
        s.set_conversation(context.map(str::to_string));
        s.ask_with_request_id(text, request_id).await
    })
    .expect("the hub answers")
}

pub fn ask(url: &str, text: &str) -> Exchange {
    rt().block_on(async { Student::new(A2aClient::default(), url).ask(text).await }).expect("ask")
}

/// Sends a control message to the Hub signed by `key` (a specialist's own, read with
/// [`agent_key`], or a stranger's); returns the ack.
pub fn control(u: &University, key: &keys::AgentKey, c: Control) -> hublink::Ack {
    rt().block_on(async {
        let hub = A2aClient::default().connect(&u.hub_url).await.unwrap();
        let resp = hub.send_message(c.to_message(key), &[]).await.unwrap();
        parse_ack(&resp).expect("an ack")
    })
}

/// The key of the agent `identity` running as `p`, read from its data folder as its
/// owner can (the test made the folder).
pub fn agent_key(p: &Proc, identity: &str) -> keys::AgentKey {
    let dir = p.data_dir().expect("an agent with the test's data folder");
    keys::AgentKey::load_or_create(dir, identity).expect("the agent's key")
}

/// A key no agent has: what another local program would sign with.
pub fn stranger_key() -> keys::AgentKey {
    keys::AgentKey::from_seed([0x5a; 32])
}

/// A specialist's settings through the Hub's developer proxy.
pub fn settings(u: &University, id: &str) -> Value {
    let (status, v) = http_json("GET", &format!("{}/dev/agents/{id}/settings", u.hub_url), None);
    assert_eq!(status, 200, "{v}");
    v
}
