//! A specialist that hangs (stopped with SIGSTOP) and one whose network is cut mid-request
//! (in a network namespace of the test's own): each question ends in the Hub's timeout
//! with the honest state `outcome_unknown`, the Hub goes on serving everyone else, and once
//! the specialist is back "Check for answer" finds the answer it made — the work done once.
//! The cut needs root, iproute2's `ip` and nftables' `nft`; without them the test says so and
//! passes, unless `CAMPUS_REQUIRE_NETNS` is set (CI), where their absence is a failure.

use std::process::Command;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use testkit::{University, ask_as, poll, received};

const QUESTION: &str = "How do I find the derivative of x^2?";

/// The Hub gives up on the Tutor after this long; the Tutor's first question takes
/// [`TUTOR_DELAY_MS`], well within it: the answer would arrive in time but for the fault.
const HUB_TIMEOUT_MS: &str = "1500";
const TUTOR_DELAY_MS: &str = "600";

/// While the Tutor is out of reach, the Hub still answers a Library question.
fn library_still_served(u: &University) {
    let ex = ask_as(&u.hub_url, None, "r-library", "When is the library open on Saturday?");
    assert_eq!((ex.outcome.as_deref(), ex.served_by_id()), (Some("route"), Some("library")), "{ex:?}");
}

/// "Check for answer" until settled: the Tutor's own answer, the work done once.
fn answer_found_once(u: &University, first: &student::Exchange, request_id: &str) {
    let settled = poll(20, "the outcome settled", || {
        let ex = ask_as(&u.hub_url, Some(&first.context_id), request_id, QUESTION);
        (ex.outcome.as_deref() != Some("outcome_unknown")).then_some(ex)
    });
    assert_eq!(
        (settled.outcome.as_deref(), settled.served_by_id()),
        (Some("route"), Some("tutor")),
        "{settled:?}"
    );
    assert!(
        settled.reply_text.contains("2x") || settled.reply_text.contains("2*x"),
        "{}",
        settled.reply_text
    );
    assert_eq!(received(&u.tutor), 1, "the tutor did the work once");
}

fn hanging_or_cut_university() -> University {
    let u = University::start_with(
        &[("HUB_FORWARD_TIMEOUT_MS", HUB_TIMEOUT_MS)],
        &[("CAMPUS_TEST_DELAY_FIRST_QUESTION_MS", TUTOR_DELAY_MS)],
        &[],
    );
    u.wait_ready();
    u
}

#[test]
fn a_hanging_tutor_ends_in_a_timeout_and_its_answer_is_found_after_it_resumes() {
    let u = hanging_or_cut_university();
    let tutor = Pid::from_raw(u.tutor.pid() as i32);
    // the question reaches the Tutor, which then hangs: the kernel keeps taking bytes,
    // nothing answers
    let hub_url = u.hub_url.clone();
    let asking = std::thread::spawn(move || {
        let started = std::time::Instant::now();
        (ask_as(&hub_url, None, "r-hang", QUESTION), started.elapsed())
    });
    u.tutor.wait_for_log(|l| l.contains("working on an operation"));
    kill(tutor, Signal::SIGSTOP).unwrap();
    let (first, waited) = asking.join().unwrap();
    assert_eq!(first.outcome.as_deref(), Some("outcome_unknown"), "{first:?}");
    assert!(waited < std::time::Duration::from_secs(10), "the student waited {waited:?}");
    assert!(first.reply_text.contains("Check for the answer"), "{}", first.reply_text);
    library_still_served(&u);
    // once its heartbeats stop the Hub reports it stale, and a question for it is told
    // so at once: nothing is sent to an agent that stopped answering
    u.wait_status("tutor", "stale");
    let second = ask_as(&u.hub_url, None, "r-hang-2", "what is the integral of x?");
    assert_eq!(second.outcome.as_deref(), Some("unavailable"), "{second:?}");
    kill(tutor, Signal::SIGCONT).unwrap();
    u.wait_status("tutor", "ready");
    answer_found_once(&u, &first, "r-hang");
}

/// Runs `test` on a thread of its own in a new network namespace with only a loopback
/// (every process it starts lives there too); `false` when this machine can't make one.
fn in_a_network_of_its_own(test: impl FnOnce() + Send + 'static) -> bool {
    let made = std::thread::spawn(move || {
        if nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWNET).is_err() {
            return Err("no network namespace (needs root)".to_string());
        }
        let up = Command::new("ip").args(["link", "set", "lo", "up"]).status();
        if !up.is_ok_and(|s| s.success()) || Command::new("nft").arg("--version").output().is_err() {
            return Err("no ip (iproute2) and nft (nftables)".to_string());
        }
        test();
        Ok(())
    })
    .join()
    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    match made {
        Ok(()) => true,
        Err(why) => {
            assert!(
                std::env::var_os("CAMPUS_REQUIRE_NETNS").is_none(),
                "CAMPUS_REQUIRE_NETNS is set but {why}"
            );
            eprintln!("skipped: {why}");
            false
        }
    }
}

/// nftables in the test's namespace: drops every packet to or from `port` (no reset, no
/// close: the other side hears nothing), or lifts that.
fn cut(port: &str, on: bool) {
    let nft = |args: &[&str]| {
        let ok = Command::new("nft").args(args).status().unwrap().success();
        assert!(ok, "nft {args:?}");
    };
    if on {
        nft(&["add", "table", "inet", "cut"]);
        nft(&["add", "chain", "inet", "cut", "in", "{ type filter hook input priority 0; }"]);
        for dir in ["dport", "sport"] {
            nft(&["add", "rule", "inet", "cut", "in", "tcp", dir, port, "drop"]);
        }
    } else {
        nft(&["delete", "table", "inet", "cut"]);
    }
}

#[test]
fn a_tutor_whose_network_is_cut_mid_request_ends_in_a_timeout_and_its_answer_is_found_once_it_is_back() {
    let ran = in_a_network_of_its_own(|| {
        let u = hanging_or_cut_university();
        let port = u.tutor_url.rsplit(':').next().unwrap().to_string();
        let hub_url = u.hub_url.clone();
        let asking = std::thread::spawn(move || ask_as(&hub_url, None, "r-cut", QUESTION));
        u.tutor.wait_for_log(|l| l.contains("working on an operation"));
        cut(&port, true);
        let first = asking.join().unwrap();
        assert_eq!(first.outcome.as_deref(), Some("outcome_unknown"), "{first:?}");
        library_still_served(&u);
        // asked again while cut: the lookup gets no answer either, and says so in time
        let during = ask_as(&u.hub_url, Some(&first.context_id), "r-cut", QUESTION);
        assert_eq!(during.outcome.as_deref(), Some("outcome_unknown"), "{during:?}");
        // the Tutor finished its work meanwhile; its answer was lost on the way
        u.tutor.wait_for_log(|l| l.contains("publishing reply"));
        cut(&port, false);
        answer_found_once(&u, &first, "r-cut");
    });
    if ran {
        eprintln!("ran in a network namespace of its own");
    }
}
