//! What a run comes to: its [`Status`] (which only moves forward), and the codes of a
//! question that could not be asked ([`classify`]): only an ask that certainly never
//! reached the Hub is "nothing was sent".

use a2a::client::ClientError;

use crate::error::run_codes;

/// Where a run is. The order is the only way it may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Status {
    Sending,
    Waiting,
    Completed,
    Failed,
    Unknown,
}

impl Status {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Status::Sending => "sending",
            Status::Waiting => "waiting",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Unknown => "unknown",
        }
    }

    pub(crate) fn terminal(self) -> bool {
        self >= Status::Completed
    }
}

/// A run's failure: (code, status, message for the page).
pub(crate) type Failure = (&'static str, Status, &'static str);

/// A failed ask: (code, status, message for the page). Only an ask that certainly never
/// reached the Hub is "nothing was sent"; a connection that broke after the question went
/// out, or no answer in time, leaves the outcome unknown.
pub(crate) fn classify(e: &ClientError) -> Failure {
    if e.nothing_sent() {
        return HUB_UNAVAILABLE;
    }
    match e {
        ClientError::Timeout { .. } => (
            run_codes::TIMEOUT,
            Status::Unknown,
            "no answer from the hub in time; it may still have handled the question",
        ),
        ClientError::Broken { .. } => OUTCOME_UNKNOWN,
        _ => (run_codes::HUB_ERROR, Status::Failed, "the hub answered with an error"),
    }
}

/// The Hub was never reached: nothing was sent.
pub(crate) const HUB_UNAVAILABLE: Failure =
    (run_codes::HUB_UNAVAILABLE, Status::Failed, "the hub could not be reached; nothing was sent");
/// The question went out and no answer came back: whether it was handled is not known.
pub(crate) const OUTCOME_UNKNOWN: Failure = (
    run_codes::OUTCOME_UNKNOWN,
    Status::Unknown,
    "the connection to the hub broke after the question was sent; it may still have handled it",
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn statuses_and_codes() {
        assert!(Status::Sending < Status::Waiting && Status::Waiting < Status::Completed);
        assert!(Status::Unknown.terminal() && !Status::Waiting.terminal());
        let (code, status, _) = classify(&ClientError::Refused { url: "u".into() });
        assert_eq!((code, status), ("hub_unavailable", Status::Failed));
        let broken = ClientError::Broken { url: "u".into(), reason: "the connection broke".into() };
        let (code, status, _) = classify(&broken);
        assert_eq!(
            (code, status),
            ("outcome_unknown", Status::Unknown),
            "sent, then broken: not nothing sent"
        );
        let timeout = ClientError::Timeout { url: "u".into(), after: Duration::from_secs(1) };
        assert_eq!(classify(&timeout).1, Status::Unknown);
    }
}
