//! Telemetry: every agent serves a read-only feed of its own events, and the Hub relays
//! its specialists' events, redacted.
//!
//! # The feed
//!
//! [`Telemetry`] is one agent's feed. [`Telemetry::emit`] records an [`Event`] in a ring of
//! the last 1000, and at most [`DEFAULT_MAX_BYTES`] of them (the history), and sends it to
//! every subscriber; a feed made [`Telemetry::without_content`] (each specialist's) passes
//! every event through [`redact`] first, so what people wrote is never in it;
//! [`Telemetry::emit_transient`] only sends it (heartbeats). [`Telemetry::router`] serves
//! it as Server-Sent Events at `GET /telemetry/events` (`text/event-stream`,
//! `Cache-Control: no-cache`), one frame per event:
//!
//! ```text
//! id: 18f3a2b4c5d9e1f20:42
//! event: reply_published
//! data: {"id":"18f3a2b4c5d9e1f20:42","ts":1767225600000,"agent":"tutor","kind":"reply_published","data":{…}}
//!
//! ```
//!
//! `data` is the whole [`Event`] as JSON (camelCase; `relayedFrom` only on relayed events).
//! A relayed event's details are passed on as the specialist wrote them (compacted only
//! where redaction rewrote them), so a line break in them continues on a further `data:`
//! line, which a reader joins back with `\n`. Transient events have no `id:` line, so they
//! never become a resume point. An idle feed sends `: keep-alive` every 15 s.
//!
//! # Ids and resuming
//!
//! An id is `<boot>:<seq>`: `boot` is hex chosen when the feed is created (start time plus
//! random bits, so a restarted agent never repeats an id) and `seq` counts from 1. A client
//! resumes with the `Last-Event-ID` header (what `EventSource` sends when it reconnects) or
//! `?after=<id>` (the header wins), and gets only the kept events after that id, then live ones. No id, or an
//! id this feed never had, gets the whole history. An id that has fallen out of the ring
//! gets a [`HISTORY_TRUNCATED`] event first (`data.reason` = `"evicted"`), then the whole
//! history. A subscriber too slow for the live channel catches up from the ring, and gets a
//! [`HISTORY_TRUNCATED`] notice (`"lagged"`) only if kept events it had not seen are gone;
//! the emitter never waits for anyone. Notices are per subscriber: never kept, no `id:`.
//!
//! On shutdown call [`Telemetry::disconnect_all`] before (or as) graceful shutdown starts:
//! an open feed never finishes by itself.
//!
//! # Relaying
//!
//! [`follow`] reads another agent's feed with reconnects and `Last-Event-ID`; the Hub
//! passes each event through [`redact`], sets [`Event::relayed_from`] and
//! [`Telemetry::publish`]es it, keeping the original id, time and agent.
//!
//! # Redaction
//!
//! [`redact`] walks `data` and, under any key naming content — `text`, `question`,
//! `answer`, `reply`, `content`, `values`, `value`, `form`, `notes`, `error_detail`,
//! `message_text`, matched ignoring case, `_` and `-` — replaces a string with
//! `"[N chars redacted]"` (N counts chars) and any other non-null value with
//! `"[redacted]"`. Everything else (ids, kinds, states, counts, agent and skill ids) stays,
//! as written. Details that are not one JSON value, or nest deeper than 128 levels, become
//! `{}`.

mod event;
mod feed;
mod follow;
mod parser;
mod redact;
mod serve;

pub use event::{Data, Event, HISTORY_TRUNCATED};
pub use feed::{DEFAULT_CAPACITY, DEFAULT_MAX_BYTES, Subscription, Telemetry};
pub use follow::{IDLE_TIMEOUT, MAX_BACKOFF, MIN_BACKOFF, follow};
pub use parser::{MAX_FRAME, SseFrame, SseParser};
pub use redact::{is_content_key, redact};
pub use serve::{EVENTS_PATH, KEEP_ALIVE};
