//! `campus fuzz`, short: a few hundred generated requests to every endpoint of every
//! agent (each a child process of the fuzzer), and no finding. The full run's figures are
//! in docs/reliability.md; the checker's own tests (a planted leak, a planted 500) are
//! beside it in crates/measure.

#[test]
fn a_short_fuzz_of_every_endpoint_finds_nothing() {
    let (ok, out, err) = testkit::run(&["fuzz", "--bodies", "300", "--seed", "19"], &[]);
    assert!(ok, "campus fuzz failed:\n{out}\n{err}");
    let summary = out.lines().last().unwrap_or_default();
    assert!(summary.contains(": 0 findings; every agent still answers normally"), "{out}");
    let rows: Vec<&str> =
        out.lines().filter(|l| l.starts_with(['h', 't', 'l', 'u', 'f']) && l.contains(" /")).collect();
    // the Hub's, the specialists', the UI server's and the fake model's endpoints, each fuzzed in full
    for server in ["hub", "tutor", "library", "ui", "fake"] {
        assert!(rows.iter().any(|r| r.starts_with(&format!("{server} "))), "no {server} endpoint in:\n{out}");
    }
    assert!(rows.len() >= 40, "{} endpoints:\n{out}", rows.len());
    for row in &rows {
        // endpoint, then sent, 2xx, 4xx, 5xx, transport errors, findings
        let columns: Vec<&str> = row.split_whitespace().collect();
        let figures = &columns[columns.len() - 6..];
        assert_eq!(figures[0], "300", "not every request was sent: {row}");
        assert_eq!((figures[3], figures[5]), ("0", "0"), "a 5xx or a finding: {row}");
    }
}
