//! Where the Hub's components report events: one sink ([`Emit`]) for the Hub's feed, the
//! kinds named by [`vocab::HubEventKind`] and the payloads by `vocab::events`, plus the
//! two payloads that carry the Hub's own types.

use std::sync::Arc;

use serde::Serialize;
use telemetry::Data;
use vocab::HubEventKind;

use crate::decision::Outcome;

/// Where the Hub's components report events.
#[derive(Clone)]
pub struct Emit(Arc<EmitFn>);

type EmitFn = dyn Fn(HubEventKind, Data) + Send + Sync;

impl Emit {
    pub fn new(f: impl Fn(HubEventKind, Data) + Send + Sync + 'static) -> Self {
        Self(Arc::new(f))
    }

    /// Events go nowhere (tests).
    pub fn none() -> Self {
        Self::new(|_, _| {})
    }

    /// Reports one event: `data` is a `serde_json::Value`, or [`Data::new`] of anything
    /// `Serialize` (cheaper: no JSON tree is built).
    pub fn send(&self, kind: HubEventKind, data: impl Into<Data>) {
        (self.0)(kind, data.into())
    }

    /// Reports one event whose payload serializes as it is.
    pub fn report(&self, kind: HubEventKind, payload: &impl Serialize) {
        self.send(kind, Data::new(payload))
    }
}

/// `routed`: the validated decision (its `kind`, and for a route the specialist and skill).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Routed<'a> {
    pub(crate) request_id: &'a str,
    pub(crate) context_id: &'a str,
    pub(crate) decision: &'a Outcome,
}

/// `router_trained`: a classifier training, as reported.
#[derive(Serialize)]
pub(crate) struct Trained {
    pub(crate) targets: usize,
    pub(crate) skills: usize,
    pub(crate) temperature: f32,
    pub(crate) micros: u64,
}
