//! What the Hub remembers of each Student conversation, in one bounded map behind one
//! lock: the Hub's own context with each specialist, an open clarifying question, where
//! the last routed question went, and a specialist waiting for the answer to its
//! "continue or replace" question. A question reads it once when it starts
//! ([`Memory::begin`]) and writes it once when it ends ([`Memory::end`]).
//!
//! Kept in the Hub's store too, and read back at start: a restarted Hub still knows where
//! a conversation's follow-up goes, its open clarifying question, its awaited choice and
//! its own contexts with the specialists. Each change is queued with the ledger's writes
//! (not waited for) before the request's answer is, so it is committed no later than the
//! answer the student gets; the 4,096 conversations touched last are kept.
//!
//! Two requests of one conversation that overlap (the page sends one at a time; another
//! client may not) each read the memory as it was when they started: a new context with a
//! specialist made by both is kept from the first to end, and what one opened is never
//! erased by the other's end.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

use a2a::wire::new_context_id;
use bounded::BoundedMap;
use serde::{Deserialize, Serialize};

use crate::clarify::Pending;

/// Conversations remembered; the oldest are forgotten first.
pub(crate) const CONVERSATIONS: usize = 4_096;

/// A specialist and one of its skills.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Target {
    pub(crate) specialist: String,
    pub(crate) skill: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Conversation {
    /// Specialist → the Hub's own context with it (one per specialist: a handful).
    hub_contexts: Vec<(String, String)>,
    clarifying: Option<Pending>,
    last_route: Option<Target>,
    awaiting_choice: Option<Target>,
}

/// What a question starts from. The open clarifying question and the awaited choice are
/// taken: this message is their answer (or not), and [`After`] says what is open next.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Turn {
    pub(crate) clarifying: Option<Pending>,
    pub(crate) awaiting_choice: Option<Target>,
    pub(crate) last_route: Option<Target>,
    pub(crate) hub_contexts: Vec<(String, String)>,
}

impl Turn {
    /// The Hub's context with `specialist` in this conversation: the one it has, or a new
    /// one (kept by [`Memory::end`]).
    pub(crate) fn hub_context(&self, specialist: &str) -> (String, bool) {
        match self.hub_contexts.iter().find(|(s, _)| s == specialist) {
            Some((_, c)) => (c.clone(), false),
            None => (new_context_id(), true),
        }
    }
}

/// What a question leaves behind.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct After {
    /// A clarifying question the Hub asked and waits on.
    pub(crate) clarifying: Option<Pending>,
    /// The specialist that asked "continue or replace" and waits for the answer.
    pub(crate) awaiting_choice: Option<Target>,
    /// Where a validated route went (whether or not the forward succeeded).
    pub(crate) route: Option<Target>,
    /// A new context with a specialist.
    pub(crate) new_context: Option<(String, String)>,
    /// Whether the answer stands (the ledger keeps it for a retry). It does not when
    /// nothing was sent anywhere (the service was unavailable): then what the turn took is
    /// put back, so a retry of this message may still answer it.
    pub(crate) settled: bool,
}

/// What a forward leaves for the conversation to keep (`ask::forward`'s part of [`After`]).
#[derive(Debug, Default)]
pub(crate) struct Kept {
    /// Whether the answer stands (see [`After::settled`]).
    pub(crate) settled: bool,
    /// The specialist asked "continue or replace" and waits for the answer.
    pub(crate) awaiting_choice: Option<Target>,
    /// A new context with the specialist: (specialist, context).
    pub(crate) new_context: Option<(String, String)>,
}

impl After {
    /// Takes in what a forward left.
    pub(crate) fn took(&mut self, kept: Kept) {
        self.settled = kept.settled;
        self.awaiting_choice = kept.awaiting_choice;
        self.new_context = kept.new_context;
    }
}

/// Where a changed conversation is written: (id, its state as JSON, the change's number).
pub(crate) type Persist = Box<dyn Fn(String, String, i64) + Send + Sync>;

pub(crate) struct Memory {
    map: Mutex<BoundedMap<String, Conversation>>,
    persist: Option<Persist>,
    /// The number the next written change gets (after the newest one read at start).
    touched: AtomicI64,
}

impl Memory {
    /// A memory kept in this process only.
    pub(crate) fn new(capacity: usize) -> Self {
        Self { map: Mutex::new(BoundedMap::new(capacity)), persist: None, touched: AtomicI64::new(1) }
    }

    /// The memory `rows` (id, state, touched; oldest first) held when the Hub stopped,
    /// writing every change through `persist`. A row that does not read is skipped.
    pub(crate) fn restored(capacity: usize, rows: Vec<(String, String, i64)>, persist: Persist) -> Self {
        let mut map = BoundedMap::new(capacity);
        let mut newest = 0;
        for (id, state, touched) in rows {
            newest = newest.max(touched);
            match serde_json::from_str::<Conversation>(&state) {
                Ok(c) => map.insert(id, c),
                Err(_) => tracing::warn!("a remembered conversation does not read; it starts afresh"),
            }
        }
        Self { map: Mutex::new(map), persist: Some(persist), touched: AtomicI64::new(newest + 1) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BoundedMap<String, Conversation>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes the conversation's open question and awaited choice, and reads the rest.
    pub(crate) fn begin(&self, conversation: &str) -> Turn {
        let mut map = self.lock();
        let Some(c) = map.get_mut(&conversation.to_string()) else { return Turn::default() };
        Turn {
            clarifying: c.clarifying.take(),
            awaiting_choice: c.awaiting_choice.take(),
            last_route: c.last_route.clone(),
            hub_contexts: c.hub_contexts.clone(),
        }
    }

    /// The only write: what `after` leaves open, the last route and a new context; when
    /// the answer does not stand, what `turn` took is restored unless `after` opened another.
    pub(crate) fn end(&self, conversation: &str, turn: Turn, after: After) {
        let nothing_new = after.clarifying.is_none()
            && after.awaiting_choice.is_none()
            && after.route.is_none()
            && after.new_context.is_none();
        if nothing_new && (after.settled || (turn.clarifying.is_none() && turn.awaiting_choice.is_none())) {
            return; // on the request path: write only what changed
        }
        let mut map = self.lock();
        let key = conversation.to_string();
        if map.get(&key).is_none() {
            map.insert(key.clone(), Conversation::default());
        }
        let Some(c) = map.get_mut(&key) else { return };
        if let Some(route) = after.route {
            c.last_route = Some(route);
        }
        if let Some((specialist, context)) = after.new_context
            && !c.hub_contexts.iter().any(|(s, _)| *s == specialist)
        {
            c.hub_contexts.push((specialist, context));
        }
        // what this turn opens is set; what it took is put back only when its answer does not
        // stand and no request that overlapped it opened something since; anything else is
        // left as another request may have left it
        let restore = !after.settled;
        keep(&mut c.clarifying, after.clarifying, turn.clarifying.filter(|_| restore));
        keep(&mut c.awaiting_choice, after.awaiting_choice, turn.awaiting_choice.filter(|_| restore));
        if let Some(persist) = &self.persist
            && let Ok(state) = serde_json::to_string(&*c)
        {
            persist(key, state, self.touched.fetch_add(1, Ordering::Relaxed));
        }
    }
}

/// `slot` after a turn: what it opened, else what it took back when the slot is still empty.
fn keep<T>(slot: &mut Option<T>, opened: Option<T>, put_back: Option<T>) {
    if opened.is_some() {
        *slot = opened;
    } else if slot.is_none() {
        *slot = put_back;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(q: &str) -> Pending {
        Pending { question: q.into(), options: vec!["tutor".into(), "library".into()], tie: true }
    }

    fn target(s: &str) -> Target {
        Target { specialist: s.into(), skill: format!("{s}-skill") }
    }

    #[test]
    fn a_restored_memory_has_what_was_written_and_numbers_changes_after_it() {
        let written: std::sync::Arc<Mutex<Vec<(String, String, i64)>>> = Default::default();
        let sink = written.clone();
        let persist: Persist = Box::new(move |id, state, n| sink.lock().unwrap().push((id, state, n)));
        let m = Memory::restored(8, vec![], persist);
        let after = After {
            clarifying: Some(pending("q")),
            new_context: Some(("tutor".into(), "h-1".into())),
            route: Some(target("tutor")),
            settled: true,
            ..After::default()
        };
        m.end("c", Turn::default(), after);
        let rows = written.lock().unwrap().clone();
        assert_eq!(rows.len(), 1);
        // a restart: the rows as the store gives them back
        let again = Memory::restored(8, rows.clone(), Box::new(|_, _, _| {}));
        let turn = again.begin("c");
        assert_eq!(turn.clarifying, Some(pending("q")));
        assert_eq!(turn.last_route, Some(target("tutor")));
        assert_eq!(turn.hub_context("tutor"), ("h-1".to_string(), false));
        assert_eq!(again.touched.load(Ordering::Relaxed), rows[0].2 + 1);
        let broken = Memory::restored(8, vec![("d".into(), "not json".into(), 9)], Box::new(|_, _, _| {}));
        assert_eq!(broken.begin("d"), Turn::default(), "an unreadable row starts afresh");
    }

    #[test]
    fn an_open_question_is_taken_once_and_answered_by_a_dispatch() {
        let m = Memory::new(8);
        m.end(
            "c",
            Turn::default(),
            After { clarifying: Some(pending("q")), settled: true, ..After::default() },
        );
        let turn = m.begin("c");
        assert_eq!(turn.clarifying, Some(pending("q")));
        assert_eq!(m.begin("c").clarifying, None, "taken by the first reader");
        m.end("c", turn, After { route: Some(target("tutor")), settled: true, ..After::default() });
        let next = m.begin("c");
        assert_eq!((next.clarifying, next.last_route), (None, Some(target("tutor"))));
    }

    #[test]
    fn nothing_dispatched_puts_back_what_the_turn_took() {
        let m = Memory::new(8);
        m.end(
            "c",
            Turn::default(),
            After {
                clarifying: Some(pending("q")),
                awaiting_choice: Some(target("library")),
                settled: true,
                ..After::default()
            },
        );
        let turn = m.begin("c");
        // the chosen service was unavailable: nothing went anywhere
        m.end("c", turn, After { route: Some(target("tutor")), settled: false, ..After::default() });
        let again = m.begin("c");
        assert_eq!(again.clarifying, Some(pending("q")), "a retry may still answer the question");
        assert_eq!(again.awaiting_choice, Some(target("library")));
        assert_eq!(again.last_route, Some(target("tutor")), "the route is remembered either way");
        // a new question opened in its place wins over the one put back
        m.end("c", again, After { clarifying: Some(pending("other")), settled: false, ..After::default() });
        assert_eq!(m.begin("c").clarifying, Some(pending("other")));
    }

    #[test]
    fn a_context_with_a_specialist_is_made_once_per_conversation() {
        let m = Memory::new(8);
        let turn = m.begin("c");
        let (ctx, new) = turn.hub_context("tutor");
        assert!(new);
        m.end(
            "c",
            turn,
            After { new_context: Some(("tutor".into(), ctx.clone())), settled: true, ..After::default() },
        );
        let turn = m.begin("c");
        assert_eq!(turn.hub_context("tutor"), (ctx.clone(), false));
        assert!(turn.hub_context("library").1, "each specialist has its own");
        assert!(m.begin("other").hub_context("tutor").1, "and each conversation");
        // a second first question that raced the first keeps the first context
        m.end(
            "c",
            turn,
            After { new_context: Some(("tutor".into(), "late".into())), settled: true, ..After::default() },
        );
        assert_eq!(m.begin("c").hub_context("tutor").0, ctx);
    }

    #[test]
    fn a_turn_that_ends_late_leaves_what_an_overlapping_one_opened() {
        let m = Memory::new(8);
        let slow = m.begin("c"); // a question being forwarded (slow)
        let quick = m.begin("c"); // meanwhile: "Do you mean Tutoring or Library?"
        m.end("c", quick, After { clarifying: Some(pending("q")), settled: true, ..After::default() });
        m.end("c", slow, After { route: Some(target("tutor")), settled: true, ..After::default() });
        let next = m.begin("c");
        assert_eq!(next.clarifying, Some(pending("q")), "the slow turn's end does not erase it");
        assert_eq!(next.last_route, Some(target("tutor")));
        // nor does one that puts back what it took when the slot is taken meanwhile
        m.end(
            "c",
            Turn::default(),
            After { awaiting_choice: Some(target("library")), settled: true, ..After::default() },
        );
        let took = m.begin("c");
        m.end(
            "c",
            Turn::default(),
            After { awaiting_choice: Some(target("tutor")), settled: true, ..After::default() },
        );
        m.end("c", took, After { settled: false, ..After::default() });
        assert_eq!(m.begin("c").awaiting_choice, Some(target("tutor")), "the newer one stays");
    }

    #[test]
    fn conversations_are_bounded() {
        let m = Memory::new(2);
        for c in ["a", "b", "c"] {
            m.end(
                c,
                Turn::default(),
                After { route: Some(target("tutor")), settled: true, ..After::default() },
            );
        }
        assert_eq!(m.begin("a").last_route, None, "the oldest is forgotten");
        assert_eq!(m.begin("c").last_route, Some(target("tutor")));
    }
}
