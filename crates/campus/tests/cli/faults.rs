//! `campus bench --faults`, short: every scenario of the fault suite once, with small
//! numbers, against real Hub, Tutor and Library processes, and its verdict: every question
//! answered or clearly refused, none lost, none left unknown, none done twice, every file
//! intact after kill -9. Where the machine can make a network namespace (root, iproute2,
//! nftables) the suite runs in one of its own and cuts the Tutor's network too; CI sets
//! `CAMPUS_REQUIRE_NETNS`, so there the cut must have run. The full run's figures are in
//! docs/reliability.md.

#[test]
fn a_short_fault_suite_loses_nothing_and_does_nothing_twice() {
    let args = [
        "bench",
        "--faults",
        "--load",
        "80",
        "--soak-seconds",
        "3",
        "--soak-rate",
        "30",
        "--slow-clients",
        "40",
    ];
    let (ok, out, err) = testkit::run(&args, &[]);
    assert!(ok, "the fault suite failed:\n{out}\n{err}");
    assert!(out.contains("verdict: every question answered or clearly refused; none lost"), "{out}");
    let row = |name: &str| {
        out.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} row in:\n{out}"))
    };
    // the scenario's name in 34 columns, then asked, answered, refused, unknown, lost,
    // duplicated, …
    let figures = |name: &str| -> Vec<u64> {
        let line = row(name);
        line.get(34..).unwrap_or_default().split_whitespace().take(6).map(|w| w.parse().unwrap()).collect()
    };
    let load = figures("load: 80 at once");
    assert_eq!(load[..2], [80, 80], "every question of the load answered: {}", row("load"));
    for name in ["load", "soak", "slow", "imperson", "kill"] {
        for line in out.lines().filter(|l| l.starts_with(name)) {
            let f = figures(&line[..20]);
            assert_eq!((f[3], f[4], f[5]), (0, 0, 0), "unknown, lost or done twice: {line}");
        }
    }
    let slow = figures("slow clients: 40 half-sent");
    assert_eq!(
        (slow[1], slow[2]),
        (50, 40),
        "questions answered while 40 slow ones were closed: {}",
        row("slow")
    );
    let forged = figures("impersonation");
    assert_eq!(
        (forged[1], forged[2]),
        (20, 20),
        "every forgery refused, every question answered: {}",
        row("imperson")
    );
    for victim in ["tutor", "hub"] {
        let name = format!("kill -9: {victim} mid-load");
        let killed = figures(&name);
        assert_eq!(killed[0], 200, "{}", row(&name));
        let note = format!("{victim} (pid ");
        assert!(
            out.lines().any(|l| l.contains(&note) && l.contains("integrity_check: ok; restarted, routable")),
            "{out}"
        );
    }
    let isolated = out.contains("in a network namespace of their own");
    if std::env::var_os("CAMPUS_REQUIRE_NETNS").is_some() {
        assert!(isolated, "CAMPUS_REQUIRE_NETNS is set but the suite ran without a namespace:\n{out}");
    }
    if isolated {
        let cut = figures("cut: tutor's network");
        assert_eq!(cut[0], 40, "{}", row("cut"));
    } else {
        eprintln!("skipped the cut: no network namespace here");
    }
}
