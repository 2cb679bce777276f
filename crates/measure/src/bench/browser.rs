//! `campus bench --browser`: the page under load. The whole system runs as child processes
//! (as for `campus bench`); headless Debian chromium opens the page through chromedriver,
//! first on Topology, then on Conversation, and for each view questions are routed through
//! the Hub at the highest `--concurrency` level for `--seconds`. Prints what the stream
//! delivered, whether the UI server coalesced, what the page managed (animation frames,
//! long tasks, JS heap, whether it kept up) and the processes' memory. Asserts nothing.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde::Deserialize;
use serde_json::Value;

use crate::bench::agents::{mb, rss_kib, settle};
use crate::bench::args::Args;
use crate::bench::load::{measure, measure_until};
use crate::bench::system::{PeakRss, StreamReader, System};
use crate::webdriver::{Driver, Session};

/// Installed once per page load: counts animation frames, long tasks and stream drops.
const INSTRUMENT: &str = r#"
if (!window.__bench) {
  const b = window.__bench = { raf: 0, longN: 0, longMs: 0, longMax: 0, drops: 0,
    longSeen: (PerformanceObserver.supportedEntryTypes || []).includes("longtask") };
  const loop = () => { b.raf += 1; requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) { b.longN += 1; b.longMs += e.duration; b.longMax = Math.max(b.longMax, e.duration); }
    }).observe({ type: "longtask" });
  } catch {}
  new MutationObserver(() => { if (document.body.dataset.stream !== "open") b.drops += 1; })
    .observe(document.body, { attributes: true, attributeFilter: ["data-stream"] });
}
return true;
"#;

/// One reading of the page (the stream's counters come from the page's own stream module).
const SAMPLE: &str = r#"
const s = (await import("/assets/stream.js")).stats;
const b = window.__bench;
const id = document.body.dataset.lastEventId || "";
return { longSeen: b.longSeen, raf: b.raf, longN: b.longN, longMs: b.longMs, longMax: b.longMax, drops: b.drops,
  seq: Number(id.slice(id.lastIndexOf(":") + 1)) || 0,
  heap: performance.memory ? performance.memory.usedJSHeapSize : null,
  frames: s.frames, chars: s.chars, opens: s.opens,
  dom: document.getElementsByTagName("*").length };
"#;

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "camelCase")]
struct Page {
    /// Whether this browser reports long tasks at all.
    long_seen: bool,
    raf: u64,
    long_n: u64,
    long_ms: f64,
    long_max: f64,
    drops: u64,
    seq: u64,
    heap: Option<u64>,
    frames: u64,
    chars: u64,
    opens: u64,
    dom: u64,
}

/// A page reading with the server's newest kept frame just before it.
#[derive(Clone, Copy)]
struct Sample {
    at: Instant,
    server_seq: u64,
    page: Page,
}

async fn read_page(session: &Session) -> anyhow::Result<Page> {
    Ok(serde_json::from_value(session.js(SAMPLE).await?)?)
}

/// The UI server's newest kept frame (`lastSeq` of its health answer).
async fn server_seq(http: &reqwest::Client, ui: &str) -> anyhow::Result<u64> {
    let v: Value = http.get(format!("{ui}/api/ui/health")).send().await?.json().await?;
    v["lastSeq"].as_u64().context("the ui health answer has no lastSeq")
}

async fn sample(session: &Session, http: &reqwest::Client, ui: &str) -> anyhow::Result<Sample> {
    let server_seq = server_seq(http, ui).await?;
    Ok(Sample { at: Instant::now(), server_seq, page: read_page(session).await? })
}

/// What one view did under the load.
struct Phase {
    view: &'static str,
    routed: usize,
    load_secs: f64,
    fps_idle: f64,
    fps_load: f64,
    page_frames: u64,
    page_chars: u64,
    reader: (u64, u64, u64, u64, u64),
    long: Option<(u64, f64, f64)>,
    heap: (Option<u64>, Option<u64>, Option<u64>),
    dom: (u64, u64),
    lag_frames: u64,
    lag_ms: u128,
    longest_stall_ms: u128,
    catch_up_ms: Option<u128>,
    reconnects: u64,
    ui_peak: Option<u64>,
    samples: usize,
}

pub(crate) async fn run(args: &Args, system: &System) -> anyhow::Result<()> {
    let concurrency = args.concurrency.iter().copied().max().unwrap_or(64);
    if args.seconds == 0 {
        bail!("--seconds must be at least 1");
    }
    let pids = system.pids();
    settle(&pids).await;
    let idle: Vec<(&str, Option<u64>)> = pids.iter().map(|(n, p)| (*n, rss_kib(*p))).collect();
    let ui_pid = system.ui.pid().context("the ui server has no pid")?;
    say!(
        "campus bench --browser: the page in headless chromium under routed load ({concurrency} concurrent, \
         {} s per view, {} router, {} cores)",
        args.seconds,
        args.router,
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0)
    );
    measure(&system.routed, 2_000, 16).await?; // warm up connections and allocators
    settle(&pids).await;

    let driver = Driver::start().await?;
    let session = driver.session().await?;
    let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build()?;
    // a second subscriber, read by the benchmark: what the server sent, coalescing included
    let reader = StreamReader::start(&system.ui.url);
    let mut phases = Vec::new();
    let mut ui_with_page = None;
    for view in ["topology", "conversation"] {
        let phase = view_under_load(args, system, &session, &http, &reader, view, concurrency, ui_pid).await;
        if ui_with_page.is_none() {
            ui_with_page = rss_kib(ui_pid);
        }
        match phase {
            Ok(p) => phases.push(p),
            Err(e) => {
                session.close().await;
                return Err(e.context(format!("measuring the {view} view")));
            }
        }
    }
    session.close().await;
    drop(driver);
    drop(reader);
    settle(&pids).await;
    print_phases(&phases);

    say!("\nresident memory (RSS), idle before the page opened / after both loads");
    let mut total = 0;
    for (name, pid) in &pids {
        let before = idle.iter().find(|(n, _)| n == name).and_then(|(_, k)| *k);
        total += before.unwrap_or(0);
        say!("{name:>13} {:>9} / {:>9}", mb(before), mb(rss_kib(*pid)));
    }
    say!(
        "{:>13} {:>9}  (hub, tutor, library, ui: the processes `campus demo` starts)",
        "agents idle",
        mb(Some(total))
    );
    let peak = phases.iter().filter_map(|p| p.ui_peak).max();
    say!(
        "{:>13} {:>9} idle with a page open, {} at its peak under load",
        "ui server",
        mb(ui_with_page),
        mb(peak)
    );
    Ok(())
}

#[allow(clippy::too_many_arguments)]
async fn view_under_load(
    args: &Args,
    system: &System,
    session: &Session,
    http: &reqwest::Client,
    reader: &StreamReader,
    view: &'static str,
    concurrency: usize,
    ui_pid: u32,
) -> anyhow::Result<Phase> {
    let ui = system.ui.url.as_str();
    session.goto(&format!("{ui}/{view}")).await?;
    let deadline = Instant::now() + Duration::from_secs(20);
    while session.js("return document.body.dataset.stream === 'open';").await? != Value::Bool(true) {
        if Instant::now() > deadline {
            bail!("the page's stream did not open within 20 s");
        }
        tokio::time::sleep(Duration::from_millis(50)).await; // poll interval while the page loads
    }
    session.js(INSTRUMENT).await?;
    // the idle frame rate: two seconds with nothing routed
    let idle0 = read_page(session).await?;
    let t = Instant::now();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let idle1 = read_page(session).await?;
    let fps_idle = (idle1.raf - idle0.raf) as f64 / t.elapsed().as_secs_f64();

    let before = sample(session, http, ui).await?;
    let reader_before = reader_counts(reader);
    let peak = PeakRss::start(ui_pid);
    let start = Instant::now();
    let until = start + Duration::from_secs(args.seconds);
    let load = measure_until(&system.routed, usize::MAX, concurrency, Some(until));
    let sampling = async {
        let mut samples = vec![before];
        while Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(250)).await; // sampling interval
            samples.push(sample(session, http, ui).await?);
        }
        Ok::<_, anyhow::Error>(samples)
    };
    let (load, samples) = tokio::join!(load, sampling);
    let (elapsed, lat) = load?;
    let mut samples = samples?;
    let reader_after = reader_counts(reader);
    let ui_peak = peak.stop();
    let end = samples.last().copied().unwrap_or(before);
    // after the load: how long until the page has applied the newest frame the server kept
    let target = server_seq(http, ui).await?;
    let stop = Instant::now();
    let mut catch_up_ms = None;
    while stop.elapsed() < Duration::from_secs(10) {
        let s = sample(session, http, ui).await?;
        samples.push(s);
        if s.page.seq >= target {
            catch_up_ms = Some(stop.elapsed().as_millis());
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await; // poll interval
    }
    let last = samples.last().copied().unwrap_or(end);
    let loaded =
        &samples[..samples.len().min(samples.iter().position(|s| s.at > until).unwrap_or(samples.len()))];
    let (lag_frames, lag_ms) = lag(loaded);
    let secs = end.at.duration_since(before.at).as_secs_f64().max(0.001);
    let heap_peak = samples.iter().filter_map(|s| s.page.heap).max();
    let diff = |a: (u64, u64, u64, u64, u64), b: (u64, u64, u64, u64, u64)| {
        (b.0 - a.0, b.1 - a.1, b.2 - a.2, b.3 - a.3, b.4 - a.4)
    };
    Ok(Phase {
        view,
        routed: lat.len(),
        load_secs: elapsed.as_secs_f64(),
        fps_idle,
        fps_load: (end.page.raf - before.page.raf) as f64 / secs,
        page_frames: end.page.frames - before.page.frames,
        page_chars: end.page.chars - before.page.chars,
        reader: diff(reader_before, reader_after),
        long: end.page.long_seen.then(|| {
            (
                end.page.long_n - before.page.long_n,
                end.page.long_ms - before.page.long_ms,
                end.page.long_max.max(before.page.long_max),
            )
        }),
        heap: (before.page.heap, heap_peak, last.page.heap),
        dom: (before.page.dom, samples.iter().map(|s| s.page.dom).max().unwrap_or(0)),
        lag_frames,
        lag_ms,
        longest_stall_ms: longest_stall(loaded),
        catch_up_ms,
        reconnects: (last.page.opens - before.page.opens) + (last.page.drops - before.page.drops),
        ui_peak,
        samples: loaded.len(),
    })
}

fn reader_counts(r: &StreamReader) -> (u64, u64, u64, u64, u64) {
    let (coalesced, pulses, messages) = r.topology.counts();
    (r.frames(), r.bytes(), coalesced, pulses, messages)
}

/// The most frames the page was behind the server, and the longest it was behind: for
/// each reading, the time since the server first had the page's newest frame (to the
/// 250 ms the readings are apart).
fn lag(samples: &[Sample]) -> (u64, u128) {
    let mut frames = 0;
    let mut ms = 0;
    for (i, s) in samples.iter().enumerate() {
        frames = frames.max(s.server_seq.saturating_sub(s.page.seq));
        if let Some(first) = samples[..=i].iter().find(|e| e.server_seq >= s.page.seq) {
            ms = ms.max(s.at.duration_since(first.at).as_millis());
        }
    }
    (frames, ms)
}

/// The longest time the page's newest applied frame did not move while the server's did.
fn longest_stall(samples: &[Sample]) -> u128 {
    let mut longest = 0;
    let mut since: Option<&Sample> = None;
    for s in samples {
        match since {
            Some(f) if s.page.seq == f.page.seq && s.server_seq > f.page.seq => {
                longest = longest.max(s.at.duration_since(f.at).as_millis());
            }
            _ => since = Some(s),
        }
    }
    longest
}

fn print_phases(phases: &[Phase]) {
    let row = |name: &str, f: &dyn Fn(&Phase) -> String| {
        let cells: String = phases.iter().map(|p| format!(" {:>22}", f(p))).collect();
        say!("{name:<44}{cells}");
    };
    let per_s = |p: &Phase, n: u64| n as f64 / p.load_secs;
    say!("");
    row("", &|p| p.view.to_string());
    row("questions routed /s", &|p| format!("{:.0}", p.routed as f64 / p.load_secs));
    row("stream frames /s delivered to the page", &|p| format!("{:.0}", per_s(p, p.page_frames)));
    row("stream KB/s delivered to the page", &|p| {
        format!("{:.1}", p.page_chars as f64 / 1024.0 / p.load_secs)
    });
    row("  (a second subscriber: frames /s, KB/s)", &|p| {
        format!("{:.0}, {:.1}", per_s(p, p.reader.0), p.reader.1 as f64 / 1024.0 / p.load_secs)
    });
    row("coalesced console entries /s", &|p| format!("{:.1}", per_s(p, p.reader.2)));
    row("topology pulses /s (messages they count /s)", &|p| {
        format!("{:.1} ({:.0})", per_s(p, p.reader.3), per_s(p, p.reader.4))
    });
    row("animation frames /s idle → under load", &|p| format!("{:.1} → {:.1}", p.fps_idle, p.fps_load));
    row("long tasks (over 50 ms): count, total ms, longest", &|p| {
        p.long.map(|(n, ms, max)| format!("{n}, {ms:.0}, {max:.0}")).unwrap_or_else(|| "not reported".into())
    });
    row("JS heap MB: start / peak / after", &|p| {
        let m =
            |b: Option<u64>| b.map(|b| format!("{:.1}", b as f64 / 1048576.0)).unwrap_or_else(|| "?".into());
        format!("{} / {} / {}", m(p.heap.0), m(p.heap.1), m(p.heap.2))
    });
    row("DOM elements: start / most", &|p| format!("{} / {}", p.dom.0, p.dom.1));
    row("page behind the server: most frames, ms", &|p| format!("{}, {}", p.lag_frames, p.lag_ms));
    row("longest the page's last id stood still, ms", &|p| p.longest_stall_ms.to_string());
    row("after the load, page caught up in ms", &|p| {
        p.catch_up_ms.map(|m| m.to_string()).unwrap_or_else(|| "not in 10 s".into())
    });
    row("stream drops / reconnects", &|p| p.reconnects.to_string());
    row("ui server peak RSS", &|p| mb(p.ui_peak));
    row("page readings (every 250 ms)", &|p| p.samples.to_string());
}
