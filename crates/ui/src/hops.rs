//! The hop-by-hop strip of one question (or one press on a form: [`press`]), built only
//! from what the agents reported: the Student's own steps, and what the Hub's feed said
//! ([`Hops::apply`]).

mod press;

use serde::Serialize;
use vocab::ReplyOutcome;

use crate::feed::FeedEvent;
use vocab::events::ForwardFailure;

/// The nine steps, in order: (step, from, to).
pub const STEPS: [(&str, &str, Option<&str>); 9] = [
    ("student_sent", "student", Some("hub")),
    ("hub_received", "hub", None),
    ("hub_decided", "hub", None),
    ("hub_forwarded", "hub", Some("specialist")),
    ("specialist_received", "specialist", None),
    ("specialist_replied", "specialist", Some("hub")),
    ("hub_got_answer", "hub", None),
    ("hub_replied", "hub", Some("student")),
    ("student_received", "student", None),
];

/// Indexes into [`STEPS`].
pub mod step {
    pub const STUDENT_SENT: usize = 0;
    pub const HUB_RECEIVED: usize = 1;
    pub const HUB_DECIDED: usize = 2;
    pub const HUB_FORWARDED: usize = 3;
    pub const SPECIALIST_RECEIVED: usize = 4;
    pub const SPECIALIST_REPLIED: usize = 5;
    pub const HUB_GOT_ANSWER: usize = 6;
    pub const HUB_REPLIED: usize = 7;
    pub const STUDENT_RECEIVED: usize = 8;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Pending,
    Active,
    Done,
    Skipped,
    Failed,
    Unknown,
}

impl State {
    fn settled(self) -> bool {
        matches!(self, State::Done | State::Skipped | State::Failed | State::Unknown)
    }

    /// Where the state stands in the only order a step may move: pending → active →
    /// settled (done, skipped, failed or unknown).
    fn rank(self) -> u8 {
        match self {
            State::Pending => 0,
            State::Active => 1,
            _ => 2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hop {
    pub step: &'static str,
    pub from: String,
    pub to: Option<String>,
    pub state: State,
    pub at: Option<i64>,
    pub ms: Option<i64>,
    pub reason: Option<String>,
}

impl Hop {
    /// The one place a step's state changes: only forward (pending → active → settled;
    /// a settled step never changes). Returns whether it moved.
    fn advance(&mut self, state: State) -> bool {
        let forward = state.rank() > self.state.rank();
        if forward {
            self.state = state;
        }
        forward
    }
}

/// The strip: nine hops; every change returns the indexes it touched.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Hops(pub Vec<Hop>);

impl Default for Hops {
    fn default() -> Self {
        let mut hops: Vec<Hop> = STEPS
            .iter()
            .map(|(step, from, to)| Hop {
                step,
                from: (*from).into(),
                to: to.map(str::to_owned),
                state: State::Pending,
                at: None,
                ms: None,
                reason: None,
            })
            .collect();
        hops[0].state = State::Active;
        Hops(hops)
    }
}

impl Hops {
    /// Names the specialist in the steps that say "specialist".
    pub fn name_specialist(&mut self, id: &str) -> Vec<usize> {
        let mut changed = Vec::new();
        for (i, hop) in self.0.iter_mut().enumerate() {
            let mut touched = false;
            if hop.from == "specialist" {
                hop.from = id.into();
                touched = true;
            }
            if hop.to.as_deref() == Some("specialist") {
                hop.to = Some(id.into());
                touched = true;
            }
            if touched {
                changed.push(i);
            }
        }
        changed
    }

    /// Sets step `i` to `state` at `at` (agent time), unless it is already settled; the
    /// next pending step becomes active. Returns the steps changed.
    pub fn set(&mut self, i: usize, state: State, at: Option<i64>, reason: Option<String>) -> Vec<usize> {
        let before = self.0[..i.min(self.0.len())].iter().rev().find_map(|h| h.at);
        let Some(hop) = self.0.get_mut(i) else { return Vec::new() };
        if !state.settled() || !hop.advance(state) {
            return Vec::new();
        }
        hop.at = at;
        hop.ms = at.zip(before).map(|(a, b)| (a - b).max(0));
        hop.reason = reason;
        let mut changed = vec![i];
        // the step after the furthest settled one is in progress; an earlier step still in
        // progress stays so (a step never moves back) until an event or the end settles it
        let last_settled = self.0.iter().rposition(|h| h.state.settled()).unwrap_or(0);
        if self.0.get_mut(last_settled + 1).is_some_and(|next| next.advance(State::Active)) {
            changed.push(last_settled + 1);
        }
        changed
    }

    /// Skips the specialist's steps (the Hub answered itself), with `reason`.
    pub fn skip_specialist(&mut self, reason: &str) -> Vec<usize> {
        let mut changed = Vec::new();
        for i in step::HUB_FORWARDED..=step::HUB_GOT_ANSWER {
            changed.extend(self.set(i, State::Skipped, None, Some(reason.into())));
        }
        changed.sort_unstable();
        changed.dedup();
        changed
    }

    /// The Hub's forward never reached the specialist (it could not be reached): the
    /// specialist's steps were not taken (skipped, with `reason`) and the Hub getting its
    /// answer failed (`at`, `why`).
    pub fn not_delivered(&mut self, reason: &str, at: Option<i64>, why: &str) -> Vec<usize> {
        let mut changed = Vec::new();
        for i in [step::SPECIALIST_RECEIVED, step::SPECIALIST_REPLIED] {
            changed.extend(self.set(i, State::Skipped, None, Some(reason.into())));
        }
        changed.extend(self.set(step::HUB_GOT_ANSWER, State::Failed, at, Some(why.into())));
        changed.sort_unstable();
        changed.dedup();
        changed
    }

    /// At the end of a run: every step no event confirmed becomes `unknown`.
    pub fn finish(&mut self) -> Vec<usize> {
        let mut changed = Vec::new();
        for (i, h) in self.0.iter_mut().enumerate() {
            if h.advance(State::Unknown) {
                changed.push(i);
            }
        }
        changed
    }

    /// Marks the steps after the Student's as skipped with `reason` (nothing was sent).
    pub fn nothing_sent(&mut self, reason: &str) -> Vec<usize> {
        let mut changed = Vec::new();
        for i in step::HUB_RECEIVED..step::STUDENT_RECEIVED {
            changed.extend(self.set(i, State::Skipped, None, Some(reason.into())));
        }
        changed
    }

    /// Whether every step before `i` is settled (done, skipped, failed or unknown).
    pub fn settled_before(&self, i: usize) -> bool {
        self.0[..i].iter().all(|h| h.state.settled())
    }

    pub fn state(&self, i: usize) -> State {
        self.0[i].state
    }

    /// What one event of the Hub's feed (its own, or a specialist's relayed) changes, at
    /// `at` (the agent's time): the steps it touched, in order.
    pub(crate) fn apply(&mut self, event: &FeedEvent, at: Option<i64>) -> Vec<usize> {
        let mut hops = match event {
            FeedEvent::HubReceived => self.set(step::HUB_RECEIVED, State::Done, at, None),
            FeedEvent::Decided(decision) => {
                let kind = decision.kind();
                let mut hops = self.set(step::HUB_DECIDED, State::Done, at, Some(kind.into()));
                match decision.routed_to() {
                    Some(specialist) => hops.extend(self.name_specialist(specialist)),
                    None => hops.extend(self.skip_specialist(&format!("Hub answered itself ({kind})"))),
                }
                hops
            }
            FeedEvent::Forwarded { specialist, .. } => {
                let mut hops = self.set(step::HUB_FORWARDED, State::Done, at, None);
                hops.extend(self.name_specialist(specialist));
                hops
            }
            FeedEvent::SpecialistReplied => self.set(step::HUB_GOT_ANSWER, State::Done, at, None),
            FeedEvent::ForwardFailed { specialist, reason } => {
                let reason = reason.clone().unwrap_or_else(|| "failed".into());
                match ForwardFailure::parse(&reason) {
                    // the Hub could not reach it: the specialist's steps never happened
                    Some(ForwardFailure::Unreachable) => self.not_delivered(
                        &format!("{specialist} could not be reached; the question never arrived"),
                        at,
                        &format!("{specialist} unreachable"),
                    ),
                    // sent, no proper answer: whether the specialist saw it is not known
                    Some(ForwardFailure::OutcomeUnknown) => {
                        self.set(step::HUB_GOT_ANSWER, State::Unknown, at, Some(reason))
                    }
                    _ => self.set(step::HUB_GOT_ANSWER, State::Failed, at, Some(reason)),
                }
            }
            FeedEvent::HubReplied { outcome } => {
                let mut hops = Vec::new();
                // routed, then found unavailable before any forward: the Hub answered itself
                if *outcome == Some(ReplyOutcome::Unavailable)
                    && matches!(self.state(step::HUB_FORWARDED), State::Pending | State::Active)
                {
                    hops.extend(self.skip_specialist("Hub answered itself (unavailable)"));
                }
                hops.extend(self.set(step::HUB_REPLIED, State::Done, at, None));
                hops
            }
            FeedEvent::SpecialistReceived => self.set(step::SPECIALIST_RECEIVED, State::Done, at, None),
            FeedEvent::SpecialistPublished => self.set(step::SPECIALIST_REPLIED, State::Done, at, None),
            other => self.apply_press(other, at),
        };
        hops.sort_unstable();
        hops.dedup();
        hops
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn states(h: &Hops) -> Vec<State> {
        h.0.iter().map(|h| h.state).collect()
    }

    #[test]
    fn a_routed_question_moves_step_by_step_and_ends_honestly() {
        use State::*;
        let mut h = Hops::default();
        assert_eq!(h.state(0), Active);
        assert_eq!(h.set(step::STUDENT_SENT, Done, Some(100), None), vec![0, 1]);
        h.set(step::HUB_RECEIVED, Done, Some(105), None);
        assert_eq!(h.0[1].ms, Some(5));
        h.set(step::HUB_DECIDED, Done, Some(106), Some("route".into()));
        h.name_specialist("tutor");
        assert_eq!((h.0[3].to.as_deref(), h.0[4].from.as_str()), (Some("tutor"), "tutor"));
        h.set(step::HUB_FORWARDED, Done, Some(107), None);
        // the specialist's own events never came (its feed lagged); the Hub got the answer
        h.set(step::HUB_GOT_ANSWER, Done, Some(150), None);
        assert_eq!(states(&h)[4..8], [Active, Pending, Done, Active], "an active step never moves back");
        assert_eq!(h.0[6].ms, Some(43), "timed from the last step that has a time");
        // a settled step never changes
        assert!(h.set(step::HUB_GOT_ANSWER, Failed, Some(151), None).is_empty());
        h.set(step::STUDENT_RECEIVED, Done, Some(160), None);
        assert_eq!(h.finish(), vec![4, 5, 7]);
        assert_eq!(states(&h), vec![Done, Done, Done, Done, Unknown, Unknown, Done, Unknown, Done]);
    }

    #[test]
    fn the_hub_answering_itself_skips_the_specialist() {
        let mut h = Hops::default();
        h.set(0, State::Done, Some(1), None);
        h.set(1, State::Done, Some(2), None);
        h.set(2, State::Done, Some(3), Some("unsupported".into()));
        h.skip_specialist("Hub answered itself (unsupported)");
        assert!(h.0[3..7].iter().all(|x| x.state == State::Skipped && x.reason.is_some()));
        assert_eq!(h.state(step::HUB_REPLIED), State::Active);
        // routed, forwarded, but the specialist could not be reached
        let mut h = Hops::default();
        for (i, at) in [(0, 1), (1, 2), (2, 3), (3, 4)] {
            h.set(i, State::Done, Some(at), None);
        }
        h.not_delivered("never reached tutor", Some(9), "unreachable");
        h.set(step::HUB_REPLIED, State::Done, Some(10), None);
        h.set(step::STUDENT_RECEIVED, State::Done, Some(11), None);
        assert!(h.finish().is_empty(), "nothing left unknown: every step is accounted for");
        use State::*;
        assert_eq!(states(&h), vec![Done, Done, Done, Done, Skipped, Skipped, Failed, Done, Done]);
        assert_eq!((h.0[6].ms, h.0[4].reason.as_deref()), (Some(5), Some("never reached tutor")));
        let mut down = Hops::default();
        down.set(0, State::Failed, Some(1), Some("hub unreachable".into()));
        down.nothing_sent("nothing was sent");
        assert_eq!(down.finish(), vec![8]);
    }

    /// The strip after `events`, each at the next millisecond, from a sent question.
    pub(super) fn fed(events: &[FeedEvent]) -> Hops {
        let mut h = Hops::default();
        h.set(step::STUDENT_SENT, State::Done, Some(0), None);
        for (i, e) in events.iter().enumerate() {
            h.apply(e, Some(i as i64 + 1));
        }
        h
    }

    #[test]
    fn the_feed_moves_the_strip_as_each_event_says() {
        use State::*;
        use vocab::events::RoutedDecision;
        let route = || {
            FeedEvent::Decided(RoutedDecision::Route {
                specialist: "tutor".into(),
                skill: "explain".into(),
                reason: String::new(),
            })
        };
        let forwarded = || FeedEvent::Forwarded { specialist: "tutor".into(), operation_id: "op".into() };
        let failed = |reason: &str| FeedEvent::ForwardFailed {
            specialist: "tutor".into(),
            reason: Some(reason.into()),
        };
        let replied = |o| FeedEvent::HubReplied { outcome: Some(o) };
        // (events, the states after them)
        let table: Vec<(Vec<FeedEvent>, [State; 9])> = vec![
            (
                vec![
                    FeedEvent::HubReceived,
                    route(),
                    forwarded(),
                    FeedEvent::SpecialistReceived,
                    FeedEvent::SpecialistPublished,
                    FeedEvent::SpecialistReplied,
                    replied(ReplyOutcome::Route),
                ],
                [Done, Done, Done, Done, Done, Done, Done, Done, Active],
            ),
            (
                vec![
                    FeedEvent::HubReceived,
                    FeedEvent::Decided(RoutedDecision::Clarify { options: vec![], tie: false }),
                    replied(ReplyOutcome::Clarify),
                ],
                [Done, Done, Done, Skipped, Skipped, Skipped, Skipped, Done, Active],
            ),
            (
                vec![FeedEvent::HubReceived, route(), forwarded(), failed("unreachable")],
                [Done, Done, Done, Done, Skipped, Skipped, Failed, Active, Pending],
            ),
            (
                vec![FeedEvent::HubReceived, route(), forwarded(), failed("outcome_unknown")],
                [Done, Done, Done, Done, Active, Pending, Unknown, Active, Pending],
            ),
            (
                vec![FeedEvent::HubReceived, route(), forwarded(), failed("error")],
                [Done, Done, Done, Done, Active, Pending, Failed, Active, Pending],
            ),
            // routed, then found unavailable before any forward: the Hub answered itself
            (
                vec![FeedEvent::HubReceived, route(), replied(ReplyOutcome::Unavailable)],
                [Done, Done, Done, Skipped, Skipped, Skipped, Skipped, Done, Active],
            ),
        ];
        for (events, want) in table {
            let h = fed(&events);
            assert_eq!(states(&h), want, "{events:?}");
        }
        let h = fed(&[FeedEvent::HubReceived, route()]);
        assert_eq!((h.0[2].reason.as_deref(), h.0[3].to.as_deref()), (Some("route"), Some("tutor")));
        let h = fed(&[FeedEvent::HubReceived, route(), forwarded(), failed("unreachable")]);
        assert_eq!(h.0[4].reason.as_deref(), Some("tutor could not be reached; the question never arrived"));
        assert_eq!(h.0[6].reason.as_deref(), Some("tutor unreachable"));
        let h = fed(&[
            FeedEvent::HubReceived,
            FeedEvent::Decided(RoutedDecision::Unsupported { reason: "x".into() }),
        ]);
        assert_eq!(h.0[3].reason.as_deref(), Some("Hub answered itself (unsupported)"));
        // what one event touched comes back in order, once
        let mut h = fed(&[FeedEvent::HubReceived]);
        assert_eq!(h.apply(&route(), Some(5)), vec![2, 3, 4, 5]);
        assert!(h.apply(&FeedEvent::HubReceived, Some(6)).is_empty(), "a settled step never changes");
    }

    #[test]
    fn a_step_only_ever_moves_forward() {
        use State::*;
        // the order the review saw: the specialist's reply in progress, then the Hub's
        // later steps settled first; it must stay in progress, never back to pending
        let mut h = Hops::default();
        for (i, at) in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)] {
            h.set(i, Done, Some(at), None);
        }
        assert_eq!(h.state(step::SPECIALIST_REPLIED), Active);
        h.set(step::HUB_GOT_ANSWER, Done, Some(7), None);
        h.set(step::HUB_REPLIED, Done, Some(8), None);
        assert_eq!(h.state(step::SPECIALIST_REPLIED), Active);
        // every order of every kind of change: no step's rank ever drops
        let changes = [Done, Skipped, Failed, Unknown, Active, Pending];
        let mut seed = 7u64;
        for _ in 0..500 {
            let mut h = Hops::default();
            for _ in 0..12 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let (i, what) = ((seed >> 33) as usize % 10, changes[(seed >> 45) as usize % changes.len()]);
                let old = h.clone();
                match (seed >> 20) % 5 {
                    0 => {
                        h.skip_specialist("s");
                    }
                    1 => {
                        h.not_delivered("r", Some(1), "w");
                    }
                    2 => {
                        h.nothing_sent("n");
                    }
                    _ => {
                        h.set(i, what, Some(1), None);
                    }
                }
                for (a, b) in old.0.iter().zip(&h.0) {
                    assert!(
                        b.state.rank() >= a.state.rank(),
                        "{} went {:?} -> {:?}",
                        a.step,
                        a.state,
                        b.state
                    );
                    assert!(!a.state.settled() || a == b, "{} changed once settled", a.step);
                }
            }
            h.finish();
            assert!(h.0.iter().all(|x| x.state.settled()));
        }
    }
}
