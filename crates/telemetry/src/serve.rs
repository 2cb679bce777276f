//! `GET /telemetry/events`: the feed as Server-Sent Events.

use std::convert::Infallible;
use std::time::Duration;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{self, KeepAlive, Sse};
use axum::routing::get;
use futures_util::stream::{self, Stream};
use serde::Deserialize;

use crate::Telemetry;
use crate::feed::Live;

/// Where the feed is served.
pub const EVENTS_PATH: &str = "/telemetry/events";

/// How often an idle feed sends a `: keep-alive` comment.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

#[derive(Debug, Deserialize)]
struct Resume {
    after: Option<String>,
}

impl Telemetry {
    /// The feed's route, `GET /telemetry/events`, unguarded (wrap it with the server's guard).
    pub fn router(&self) -> Router {
        Router::new().route(EVENTS_PATH, get(events)).with_state(self.clone())
    }
}

async fn events(
    State(telemetry): State<Telemetry>,
    Query(resume): Query<Resume>,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = Result<sse::Event, Infallible>>> {
    // a reconnecting EventSource sends the header; a first connection may use the query
    let header = headers.get("last-event-id").and_then(|v| v.to_str().ok()).filter(|v| !v.is_empty());
    let last_event_id = header.map(str::to_owned).or(resume.after);
    let subscription = telemetry.subscribe(last_event_id.as_deref());
    // marks the current generation seen: only a later `disconnect_all` ends this response
    let disconnect = telemetry.inner.disconnect.subscribe();
    let frames =
        stream::unfold((subscription, disconnect), |(mut subscription, mut disconnect)| async move {
            tokio::select! {
                live = subscription.recv_live() => Some((Ok(frame(&live)), (subscription, disconnect))),
                _ = disconnect.changed() => None,
            }
        });
    Sse::new(frames).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive"))
}

/// `id: <id>` (kept events only), `event: <kind>`, `data: <the event as JSON>` (more
/// `data:` lines if relayed details hold line breaks).
fn frame(live: &Live) -> sse::Event {
    let event: &crate::Event = &live.event;
    let mut frame = sse::Event::default();
    // a relayed id or kind could carry anything; the JSON keeps the original either way
    if live.position.is_some() && !event.id.contains(['\r', '\n', '\0']) {
        frame = frame.id(&event.id);
    }
    let kind: String = event.kind.chars().map(|c| if c.is_control() { '_' } else { c }).collect();
    // serialized straight into the frame; a relayed `data` may span lines, which become
    // several `data:` lines that a reader joins back with `\n`
    // (cannot fail: strings, numbers and JSON text always serialize)
    frame
        .event(kind)
        .json_data(event)
        .unwrap_or_else(|_| sse::Event::default().comment("unserializable event"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Event;
    use serde_json::json;

    fn bytes(frame: sse::Event) -> String {
        // the frame's wire form, read back through axum's own body
        let body = Sse::new(stream::iter([Ok::<_, Infallible>(frame)]));
        let response = axum::response::IntoResponse::into_response(body);
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let bytes = rt.block_on(axum::body::to_bytes(response.into_body(), 1 << 20)).unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    fn live(id: &str, kind: &str, kept: bool) -> Live {
        let event = Event {
            id: id.into(),
            ts: 1,
            agent: "tutor".into(),
            kind: kind.into(),
            data: json!({"text": "a\nb"}).into(),
            relayed_from: None,
        };
        Live { event: std::sync::Arc::new(event), position: kept.then_some(0) }
    }

    #[test]
    fn kept_events_carry_an_id_line_and_transient_ones_do_not() {
        let json = r#"{"id":"b:1","ts":1,"agent":"tutor","kind":"registered","data":{"text":"a\nb"}}"#;
        assert_eq!(
            bytes(frame(&live("b:1", "registered", true))),
            format!("id: b:1\nevent: registered\ndata: {json}\n\n")
        );
        let text = bytes(frame(&live("b:2", "heartbeat", false)));
        assert!(text.starts_with("event: heartbeat\ndata: {"), "{text}");
    }

    #[test]
    fn hostile_relayed_ids_and_kinds_do_not_break_the_frame() {
        let text = bytes(frame(&live("b:1\ndata: x", "evil\r\nid: 9", true)));
        assert!(text.starts_with("event: evil__id: 9\ndata: {"), "{text}");
        assert_eq!(text.matches('\n').count(), 3, "{text}");
    }
}
