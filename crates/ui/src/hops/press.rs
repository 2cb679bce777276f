//! The strip of a press on a form: the same nine steps as a question's, moved by the
//! Hub's form events ([`Hops::apply`] hands them here).

use vocab::ReplyOutcome;
use vocab::events::ForwardFailure;

use super::{Hops, State, step};
use crate::feed::FeedEvent;

/// What the Hub's "decided" step says of a press it checked and passed on.
pub(crate) const FORM_CHECKED: &str = "form_checked";

impl Hops {
    /// The steps of a press on a form: the Hub receives it, checks it against the form it
    /// recorded (its "decided" step), forwards it to the specialist that opened the form
    /// and relays the answer — or answers itself: a refusal, a repeat from its record.
    pub(super) fn apply_press(&mut self, event: &FeedEvent, at: Option<i64>) -> Vec<usize> {
        let checked = |h: &mut Self| h.set(step::HUB_DECIDED, State::Done, at, Some(FORM_CHECKED.into()));
        match event {
            FeedEvent::ActionReceived => self.set(step::HUB_RECEIVED, State::Done, at, None),
            FeedEvent::ActionReplayed => {
                let mut hops = self.set(step::HUB_DECIDED, State::Done, at, Some("replayed".into()));
                hops.extend(self.skip_specialist("Hub answered from its record (the same press again)"));
                hops
            }
            FeedEvent::ActionForwarded { specialist, .. } => {
                let mut hops = checked(self);
                hops.extend(self.set(step::HUB_FORWARDED, State::Done, at, None));
                hops.extend(self.name_specialist(specialist));
                hops
            }
            FeedEvent::ActionRefused { specialist: None, code } => {
                let code = code.as_deref().unwrap_or("refused");
                let why = format!("the Hub refused the press ({code})");
                let mut hops = self.set(step::HUB_DECIDED, State::Failed, at, Some(why));
                hops.extend(self.skip_specialist("not sent: the Hub refused the press"));
                hops
            }
            FeedEvent::ActionRefused { specialist: Some(sp), code } => {
                let code = code.as_deref().unwrap_or("refused");
                let forwarded = self.state(step::HUB_FORWARDED) == State::Done;
                let mut hops = self.name_specialist(sp);
                match (code == ReplyOutcome::Unavailable.as_str(), forwarded) {
                    // sent for, never arrived
                    (true, true) => hops.extend(self.not_delivered(
                        &format!("{sp} could not be reached; the press never arrived"),
                        at,
                        &format!("{sp} unreachable"),
                    )),
                    // not ready: nothing was sent
                    (true, false) => {
                        hops.extend(checked(self));
                        hops.extend(self.skip_specialist(&format!("not sent: {sp} is unavailable")));
                    }
                    // the specialist refused it, or answered what the Hub cannot relay
                    _ => hops.extend(self.set(
                        step::HUB_GOT_ANSWER,
                        State::Failed,
                        at,
                        Some(format!("{sp} refused the press ({code})")),
                    )),
                }
                hops
            }
            FeedEvent::ActionUnknown => self.set(
                step::HUB_GOT_ANSWER,
                State::Unknown,
                at,
                Some(ForwardFailure::OutcomeUnknown.as_str().into()),
            ),
            FeedEvent::ActionResult => self.set(step::HUB_GOT_ANSWER, State::Done, at, None),
            FeedEvent::ActionReplied { .. } => self.set(step::HUB_REPLIED, State::Done, at, None),
            // a question's steps are read by `apply`
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hops::tests::{fed, states};

    #[test]
    fn a_press_has_steps_of_its_own() {
        use State::*;
        let received = || FeedEvent::ActionReceived;
        let forwarded =
            || FeedEvent::ActionForwarded { specialist: "library".into(), operation_id: "h".into() };
        let replied = |code: Option<&str>| FeedEvent::ActionReplied { code: code.map(Into::into) };
        let refused = |sp: Option<&str>, code: &str| FeedEvent::ActionRefused {
            specialist: sp.map(Into::into),
            code: Some(code.into()),
        };
        let table: Vec<(Vec<FeedEvent>, [State; 9])> = vec![
            // forwarded, answered, relayed
            (
                vec![
                    received(),
                    forwarded(),
                    FeedEvent::SpecialistReceived,
                    FeedEvent::SpecialistPublished,
                    FeedEvent::ActionResult,
                    replied(None),
                ],
                [Done, Done, Done, Done, Done, Done, Done, Done, Active],
            ),
            // the Hub refused it itself (a closed form): the specialist never saw it
            (
                vec![received(), refused(None, "form_closed"), replied(Some("form_closed"))],
                [Done, Done, Failed, Skipped, Skipped, Skipped, Skipped, Done, Active],
            ),
            // the same press again, from the Hub's record
            (
                vec![received(), FeedEvent::ActionReplayed, replied(None)],
                [Done, Done, Done, Skipped, Skipped, Skipped, Skipped, Done, Active],
            ),
            // the service was not ready: nothing was sent to it
            (
                vec![received(), refused(Some("library"), "unavailable"), replied(None)],
                [Done, Done, Done, Skipped, Skipped, Skipped, Skipped, Done, Active],
            ),
            // sent for, could not be reached
            (
                vec![received(), forwarded(), refused(Some("library"), "unavailable"), replied(None)],
                [Done, Done, Done, Done, Skipped, Skipped, Failed, Done, Active],
            ),
            // the specialist refused it
            (
                vec![
                    received(),
                    forwarded(),
                    FeedEvent::SpecialistReceived,
                    refused(Some("library"), "invalid_params"),
                ],
                [Done, Done, Done, Done, Done, Active, Failed, Active, Pending],
            ),
            // no confirmation in time
            (
                vec![received(), forwarded(), FeedEvent::ActionUnknown, replied(None)],
                [Done, Done, Done, Done, Active, Pending, Unknown, Done, Active],
            ),
        ];
        for (events, want) in table {
            let h = fed(&events);
            assert_eq!(states(&h), want, "{events:?}");
        }
        let h = fed(&[received(), forwarded()]);
        assert_eq!((h.0[2].reason.as_deref(), h.0[3].to.as_deref()), (Some(FORM_CHECKED), Some("library")));
        let h = fed(&[received(), refused(None, "form_closed")]);
        assert_eq!(h.0[2].reason.as_deref(), Some("the Hub refused the press (form_closed)"));
        let h = fed(&[received(), forwarded(), refused(Some("library"), "invalid_params")]);
        assert_eq!(h.0[6].reason.as_deref(), Some("library refused the press (invalid_params)"));
        // a question's events never move a press's steps the press way, and back
        assert!(Hops::default().apply_press(&FeedEvent::HubReceived, Some(1)).is_empty());
    }
}
