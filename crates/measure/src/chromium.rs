//! Debian chromium as `campus bench --browser` and the browser tests
//! (crates/campus/tests/browser, through this crate) start it through chromedriver.

pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Headless, one 1280×900 window, no background work of its own, timers never throttled,
/// the JS heap (`performance.memory`) reported precisely.
pub const ARGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-renderer-backgrounding",
    "--disable-background-timer-throttling",
    "--enable-precise-memory-info",
    "--window-size=1280,900",
];
