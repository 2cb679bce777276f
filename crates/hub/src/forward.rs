//! One forward to one specialist, for questions and form actions alike: the handle of a
//! ready specialist, one send within the forward timeout, and one classification of what
//! came back — with one definition of "nothing was sent" ([`ClientError::nothing_sent`]:
//! the connection was refused or never made, or the address or card was unusable). Only
//! then is a specialist marked unreachable; a timeout or a broken answer is unknown.
//!
//! Every forward is authenticated by the Hub for its specialist (with the key the two
//! share, `keys::SharedKey`), naming the student the Hub vouches for (the asker's
//! validated id; none for an anonymous asker or the Hub's own lookups), and an answer counts only when authenticated with it for that
//! forward: an answer from any other
//! program at its address is discarded, and to the student the specialist was not reached.

use std::sync::Arc;
use std::time::Duration;

use a2a::client::{AgentHandle, ClientError};
use a2a::wire::{Message, Part, PartContent, SendMessageResponse};

use crate::registry::Registry;
use crate::view::Status;

/// What one send came to.
#[derive(Debug)]
pub(crate) enum SendOutcome {
    Answered(Box<SendMessageResponse>),
    /// The request certainly never reached the specialist.
    NotSent,
    /// The specialist answered with a JSON-RPC error (`reason`: its `ErrorInfo.reason`).
    Refused {
        code: i32,
        reason: Option<String>,
        message: String,
    },
    /// It may or may not have been handled: no answer in time, or a broken one.
    Unknown,
}

/// A forward about to be sent to a ready specialist.
pub(crate) struct Forward<'a> {
    registry: &'a Registry,
    specialist: &'a str,
    handle: Arc<AgentHandle>,
}

impl<'a> Forward<'a> {
    /// A forward to `specialist`, or its status when it is not ready (nothing is sent).
    pub(crate) fn to(registry: &'a Registry, specialist: &'a str) -> Result<Forward<'a>, Status> {
        let handle = registry.handle(specialist)?;
        Ok(Forward { registry, specialist, handle })
    }

    /// The name on the card this forward uses.
    pub(crate) fn card_name(&self) -> &str {
        &self.handle.card.name
    }

    /// Sends `message` once, signed by the Hub — vouching for `student`, the asker the Hub
    /// validated (`None`: for no one) —, activating `extensions`, and waits at most
    /// `timeout`. The specialist is marked reachable when it answered and unreachable when
    /// nothing was sent.
    pub(crate) async fn send(
        self,
        mut message: Message,
        student: Option<&str>,
        extensions: &[String],
        timeout: Duration,
    ) -> SendOutcome {
        // authenticated last, for this specialist only (with the key the two share): it
        // can tell the Hub from any other caller
        let Some(shared) = self.registry.shared_of(self.specialist) else {
            tracing::warn!(specialist = %self.specialist, "no key shared with this specialist; nothing sent");
            return SendOutcome::NotSent;
        };
        let nonce = hublink::sign_forward(&shared, self.specialist, student, &mut message);
        let sent = match tokio::time::timeout(timeout, self.handle.send_message(message, extensions)).await {
            Ok(Ok(response)) => {
                // the answer of whoever holds the specialist's key, to this very forward
                let checked = hublink::check_reply(&shared, &nonce, &response);
                match checked {
                    Ok(()) => SendOutcome::Answered(Box::new(response)),
                    Err(reason) => {
                        tracing::warn!(specialist = %self.specialist, reason, "discarded an answer not signed by the specialist's key; another program may hold its address");
                        SendOutcome::NotSent
                    }
                }
            }
            Ok(Err(e)) if e.nothing_sent() => SendOutcome::NotSent,
            Ok(Err(ClientError::Rpc { code, reason, message })) => {
                SendOutcome::Refused { code, reason, message }
            }
            Ok(Err(_)) | Err(_) => SendOutcome::Unknown,
        };
        match &sent {
            SendOutcome::Answered(_) => self.registry.mark_reachable(self.specialist, true),
            SendOutcome::NotSent => self.registry.mark_reachable(self.specialist, false),
            SendOutcome::Refused { .. } | SendOutcome::Unknown => {}
        }
        sent
    }
}

/// The content of a specialist's answer: a message's parts, or a task's status message
/// and artifacts. The Hub link's control media types never pass through (a form's
/// errors and receipt, `application/vnd.campus.form-…`, do).
pub(crate) fn reply_parts(resp: SendMessageResponse) -> Vec<Part> {
    let parts = match resp {
        SendMessageResponse::Message(m) => m.parts,
        SendMessageResponse::Task(t) => {
            let mut parts = t.status.message.map(|m| m.parts).unwrap_or_default();
            parts.extend(t.artifacts.unwrap_or_default().into_iter().flat_map(|a| a.parts));
            parts
        }
    };
    parts
        .into_iter()
        .filter(|p| {
            !p.media_type.as_deref().is_some_and(|m| hublink::CONTROL_TYPES.contains(&m) || m == hublink::ACK)
        })
        .filter(|p| !matches!(&p.content, PartContent::Text(t) if t.is_empty()))
        .collect()
}

/// A text part as the Hub writes one.
pub(crate) fn text_part(text: impl Into<String>) -> Part {
    Part::text(text).with_media_type("text/plain")
}
