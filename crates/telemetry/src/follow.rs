//! Following another agent's feed (the Hub relaying its specialists).

use std::future::Future;
use std::time::Duration;

use reqwest::{StatusCode, header};

use crate::Event;
use crate::parser::SseParser;
use crate::serve::KEEP_ALIVE;

/// The first reconnect delay; it doubles after each failed attempt.
pub const MIN_BACKOFF: Duration = Duration::from_millis(250);
/// The longest reconnect delay.
pub const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// A feed silent this long (no event, no keep-alive) is treated as dead and reconnected.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(KEEP_ALIVE.as_secs() * 3);

/// Why one connection to a feed ended.
#[derive(Debug, thiserror::Error)]
enum Ended {
    #[error("request failed: {0}")]
    Request(#[source] reqwest::Error),
    #[error("answered http {0}")]
    Status(StatusCode),
    #[error("connection lost: {0}")]
    Body(#[source] reqwest::Error),
    #[error("nothing received for {} s", IDLE_TIMEOUT.as_secs())]
    Idle,
    #[error("the feed ended")]
    Closed,
}

/// Follows the feed at `url` (the full `…/telemetry/events` address) until `shutdown`
/// completes, calling `on_event` for each event in order.
///
/// Starts after `last_event_id` if given. On any failure it reconnects after a delay
/// (250 ms doubling to 5 s, back to 250 ms once a connection succeeds), sending the last
/// `id:` it saw as `Last-Event-ID`, so nothing kept is missed or repeated while the feed
/// remembers it. Frames whose data is not an [`Event`] are skipped, and so are frames over
/// 256 KiB. Notices ([`crate::HISTORY_TRUNCATED`]) are passed on like any other event.
pub async fn follow(
    client: reqwest::Client,
    url: String,
    last_event_id: Option<String>,
    mut on_event: impl FnMut(Event) + Send,
    shutdown: impl Future<Output = ()>,
) {
    let mut shutdown = std::pin::pin!(shutdown);
    let mut last_id = last_event_id;
    let mut backoff = MIN_BACKOFF;
    let mut was_connected = false;
    loop {
        let mut connected = false;
        let ended = tokio::select! {
            ended = connect(&client, &url, &mut last_id, &mut on_event, &mut connected) => ended,
            () = &mut shutdown => break,
        };
        if connected {
            backoff = MIN_BACKOFF;
        }
        if connected || was_connected {
            tracing::info!(%url, reason = %ended, "telemetry feed disconnected, reconnecting");
        } else {
            tracing::debug!(%url, error = %ended, retry_ms = backoff.as_millis() as u64, "telemetry feed unavailable");
        }
        was_connected = connected;
        tokio::select! {
            () = tokio::time::sleep(backoff) => {}
            () = &mut shutdown => break,
        }
        if !connected {
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    }
    tracing::debug!(%url, "stopped following telemetry feed");
}

/// One connection: reads frames until the feed ends or fails.
async fn connect(
    client: &reqwest::Client,
    url: &str,
    last_id: &mut Option<String>,
    on_event: &mut (impl FnMut(Event) + Send),
    connected: &mut bool,
) -> Ended {
    let mut request = client.get(url).header(header::ACCEPT, "text/event-stream");
    if let Some(id) = last_id.as_deref() {
        request = request.header("last-event-id", id);
    }
    let mut response = match request.send().await {
        Ok(response) => response,
        Err(e) => return Ended::Request(e),
    };
    if response.status() != StatusCode::OK {
        return Ended::Status(response.status());
    }
    *connected = true;
    tracing::debug!(%url, last_event_id = ?last_id, "following telemetry feed");
    let mut parser = SseParser::new();
    loop {
        let chunk = match tokio::time::timeout(IDLE_TIMEOUT, response.chunk()).await {
            Err(_) => return Ended::Idle,
            Ok(Err(e)) => return Ended::Body(e),
            Ok(Ok(None)) => return Ended::Closed,
            Ok(Ok(Some(chunk))) => chunk,
        };
        let dropped = parser.dropped();
        for frame in parser.push(&chunk) {
            if frame.id.is_some() {
                *last_id = frame.id;
            }
            match serde_json::from_str::<Event>(&frame.data) {
                Ok(event) => on_event(event),
                Err(e) => {
                    tracing::warn!(%url, error = %unreadable(&e), "skipped a telemetry frame that is not an event")
                }
            }
        }
        if parser.dropped() > dropped {
            tracing::warn!(%url, "skipped an oversized telemetry frame");
        }
    }
}

/// Why a frame is not an event, without its text: serde's own message quotes the value it
/// choked on, which in a relayed frame may be what somebody wrote.
fn unreadable(e: &serde_json::Error) -> String {
    format!("{:?} error at line {} column {}", e.classify(), e.line(), e.column()).to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn why_a_frame_is_unreadable_never_quotes_it() {
        let wrong_type = r#"{"id":"x:1","ts":"SECRET question","agent":"a","kind":"k","data":{}}"#;
        let e = serde_json::from_str::<Event>(wrong_type).unwrap_err();
        assert!(e.to_string().contains("SECRET"), "serde's own message quotes the value");
        for frame in [wrong_type, r#"{"id":"x:1","ts":1,"data":{"text":"SECRET"}"#, "SECRET"] {
            let why = unreadable(&serde_json::from_str::<Event>(frame).unwrap_err());
            assert!(!why.contains("secret") && why.contains("error at line 1 column"), "{why}");
        }
    }
}
