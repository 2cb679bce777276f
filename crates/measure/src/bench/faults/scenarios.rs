//! The fault suite's scenarios, each one line of the table.

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::AsyncReadExt;

use super::campus::{Campus, Question, Row, half_requests, hub_disk, integrity, lock, questions, row, twice};

/// Moves this thread (the benchmark's only one: every child and socket is made from it)
/// into a new network namespace with only a loopback; why not, when it can't.
pub(super) fn own_network() -> Result<(), String> {
    nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWNET)
        .map_err(|e| format!("unshare: {e} (needs root)"))?;
    let up = Command::new("ip").args(["link", "set", "lo", "up"]).status();
    if !up.is_ok_and(|s| s.success()) {
        return Err("ip link set lo up failed (iproute2)".into());
    }
    Ok(())
}

/// Wraps a scenario: memory, disk and the Tutor's repeated operations around it.
async fn measured<F: Future<Output = Row>>(campus: &Campus, scenario: F) -> Row {
    let (memory, disk, twice_before) = (campus.memory(), hub_disk(), twice(&campus.ops));
    let mut row = scenario.await;
    row.memory = (memory, campus.memory());
    row.disk = (disk, hub_disk());
    row.duplicated = twice(&campus.ops) - twice_before;
    row
}

/// `n` questions at once.
pub(super) async fn load(campus: &Arc<Campus>, n: usize) -> Row {
    measured(campus, async {
        let mut asked = campus.ask_all(questions(&format!("load{n}"), n)).await;
        campus.settle(&mut asked).await;
        row(format!("load: {n} at once"), asked)
    })
    .await
}

/// `rate` questions a second for `seconds`; memory sampled throughout.
pub(super) async fn soak(campus: &Arc<Campus>, seconds: u64, rate: u64) -> Row {
    measured(campus, async {
        let (start, until) = (Instant::now(), Instant::now() + Duration::from_secs(seconds));
        let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate.max(1) as f64));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
        let mut tasks = Vec::new();
        let mut samples = vec![(0u64, campus.memory())];
        let mut n = 0;
        while Instant::now() < until {
            tick.tick().await;
            let q = Question { id: format!("soak-{n}"), power: (n % 20) as u32 + 2, context: None };
            n += 1;
            let me = campus.clone();
            tasks.push(tokio::spawn(async move {
                let t = Instant::now();
                let (fate, context) = me.ask(&q).await;
                (Question { context, ..q }, fate, t.elapsed())
            }));
            let at = start.elapsed().as_secs();
            if at >= samples.last().map_or(0, |s| s.0) + (seconds / 10).max(1) {
                samples.push((at, campus.memory()));
            }
        }
        let mut asked = Vec::new();
        for t in tasks {
            if let Ok(r) = t.await {
                asked.push(r);
            }
        }
        campus.settle(&mut asked).await;
        let timeline: Vec<String> =
            samples.iter().map(|(t, k)| format!("{t}s {:.1}", *k as f64 / 1024.0)).collect();
        let mut row = row(format!("soak: {rate}/s for {seconds} s"), asked);
        row.note = format!("agents' RSS MB over time: {}", timeline.join(", "));
        row
    })
    .await
}

/// `n` connections each holding half a request line, and 50 questions meanwhile.
pub(super) async fn slow_clients(campus: &Arc<Campus>, n: usize) -> Row {
    measured(campus, async {
        let addr = campus.hub_url.trim_start_matches("http://").to_string();
        let mut held = half_requests(&addr, n).await;
        let opened = held.len();
        let asked = campus.ask_all(questions("slow", 50)).await;
        // every held connection is closed by the Hub's head timeout
        let deadline = Instant::now()
            + Duration::from_millis(super::campus::HEAD_TIMEOUT_MS.parse().unwrap_or(2000) + 5000);
        let mut closed = 0;
        for s in &mut held {
            let mut buf = [0u8; 512];
            let left = deadline.saturating_duration_since(Instant::now());
            // end of stream, an error or an answer: closed by the Hub
            if tokio::time::timeout(left, s.read(&mut buf)).await.is_ok() {
                closed += 1;
            }
        }
        let mut row = row(format!("slow clients: {n} half-sent"), asked);
        row.refused_extra = closed;
        row.failed = closed < opened;
        row.note = format!("{opened} half-sent requests held; {closed} closed by the hub's head timeout");
        row
    })
    .await
}

/// Forged register, heartbeat and sign-out for the Tutor, signed by a key nobody pinned,
/// with its live instance id; then 20 questions.
pub(super) async fn impersonation(campus: &Arc<Campus>) -> Row {
    measured(campus, async {
        let registry: serde_json::Value = match reqwest::get(format!("{}/dev/registry", campus.hub_url)).await
        {
            Ok(r) => r.json().await.unwrap_or_default(),
            Err(_) => serde_json::Value::Null,
        };
        let instance = registry["specialists"]
            .as_array()
            .and_then(|l| l.iter().find(|s| s["id"] == "tutor"))
            .and_then(|s| s["instanceId"].as_str())
            .unwrap_or("unknown")
            .to_string();
        let stranger = keys::AgentKey::from_seed([0x5a; 32]);
        let beat = hublink::Heartbeat { identity: "tutor".into(), instance_id: instance };
        let forged = [hublink::Control::Heartbeat(beat.clone()), hublink::Control::Deregister(beat)];
        let mut refused = 0;
        let mut sent = 0;
        if let Ok(hub) = campus.client.connect(&campus.hub_url).await {
            for c in forged.iter().cycle().take(20) {
                sent += 1;
                let ack = hub.send_message(c.to_message(&stranger), &[]).await.ok();
                if ack.as_ref().and_then(hublink::parse_ack).is_some_and(|a| !a.ok) {
                    refused += 1;
                }
            }
        }
        let mut asked = campus.ask_all(questions("after-forgery", 20)).await;
        campus.settle(&mut asked).await;
        let mut row = row("impersonation: forged control".into(), asked);
        row.refused_extra = refused;
        row.failed = refused < sent || sent == 0;
        row.note =
            format!("{sent} forged heartbeats and sign-outs with the tutor's instance id: {refused} refused");
        row
    })
    .await
}

/// nftables drops the Tutor's packets for 3 s while questions are in flight.
pub(super) async fn cut(campus: &Arc<Campus>) -> Row {
    measured(campus, async {
        let port = campus.ports.1.to_string();
        let nft = |args: &[&str]| Command::new("nft").args(args).status().is_ok_and(|s| s.success());
        let cutting = nft(&["add", "table", "inet", "campuscut"])
            && nft(&["add", "chain", "inet", "campuscut", "in", "{ type filter hook input priority 0; }"])
            && nft(&["add", "rule", "inet", "campuscut", "in", "tcp", "dport", &port, "drop"])
            && nft(&["add", "rule", "inet", "campuscut", "in", "tcp", "sport", &port, "drop"]);
        let in_flight = {
            let me = campus.clone();
            tokio::spawn(async move { me.ask_all(questions("cut", 40)).await })
        };
        tokio::time::sleep(Duration::from_secs(3)).await; // the cut's length
        nft(&["delete", "table", "inet", "campuscut"]);
        let mut asked = in_flight.await.unwrap_or_default();
        campus.settle(&mut asked).await;
        let mut row = row("cut: tutor's network for 3 s".into(), asked);
        row.note = if cutting { String::new() } else { "nft could not cut (nftables missing?)".into() };
        row
    })
    .await
}

/// Which agent the kill scenario kills.
#[derive(Clone, Copy)]
pub(super) enum Victim {
    Tutor,
    Hub,
}

/// 200 questions at once; once the Tutor has begun 40 of them, kill -9 of the victim,
/// `PRAGMA integrity_check` of its file as the kill left it, a restart as itself, and
/// "Check for answer" of everything left unknown.
pub(super) async fn kill(campus: &Arc<Campus>, victim: Victim) -> Row {
    let name = match victim {
        Victim::Tutor => "tutor",
        Victim::Hub => "hub",
    };
    measured(campus, async {
        let begun = campus.ops.total();
        let flight = {
            let me = campus.clone();
            tokio::spawn(async move { me.ask_all(questions(&format!("kill-{name}"), 200)).await })
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while campus.ops.total() < begun + 40 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(2)).await; // watching the Tutor's progress
        }
        let slot = match victim {
            Victim::Tutor => &campus.tutor,
            Victim::Hub => &campus.hub,
        };
        let agent = lock(slot).take();
        let pid = agent.as_ref().and_then(|a| a.pid());
        kill9(pid);
        drop(agent);
        let gone = Instant::now() + Duration::from_secs(5);
        while pid.is_some_and(|p| std::path::Path::new(&format!("/proc/{p}/stat")).exists())
            && Instant::now() < gone
        {
            tokio::time::sleep(Duration::from_millis(5)).await; // until the kernel has reaped it
        }
        let file = integrity(name);
        let restarted = match victim {
            Victim::Tutor => match Campus::start_tutor(campus.ports, &campus.ops).await {
                Ok(t) => {
                    *lock(&campus.tutor) = Some(t);
                    campus.wait_routable().await
                }
                Err(e) => Err(e),
            },
            Victim::Hub => campus.start_hub().await,
        };
        let mut asked = flight.await.unwrap_or_default();
        campus.settle(&mut asked).await;
        let mut row = row(format!("kill -9: {name} mid-load"), asked);
        row.note = format!(
            "{name} (pid {}) killed after the tutor began 40; its file's integrity_check: {file}; {}",
            pid.map_or("unknown".into(), |p| p.to_string()),
            match restarted {
                Ok(()) => "restarted, routable".to_string(),
                Err(e) => format!("restart failed: {e}"),
            }
        );
        row
    })
    .await
}

/// Kills a process with SIGKILL.
fn kill9(pid: Option<u32>) {
    if let Some(pid) = pid {
        let _ =
            nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), nix::sys::signal::Signal::SIGKILL);
    }
}
