// The page's reducer (web/store.js) under Node's test runner: node --test tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce, runStatus, hopReason, errorLabel, formStatus, sentModel, draftOf, draftBook, LIMITS, PLAY_DELAY_MS, PULSE_MS } from "../../web/store.js";

const ev = (channel, event, extra = {}) => ({ type: "event", channel, event, live: true, now: 1000, ...extra });
const apply = (state, actions) => actions.reduce(reduce, state);

function questionRun(threadId, runId, { answer = "2x", servedBy = { id: "tutor", name: "Tutor Agent" } } = {}) {
  return [
    ev("student", { type: "RUN_STARTED", threadId, runId }),
    ev("student", { type: "STATE_SNAPSHOT", snapshot: { threadId, conversationId: null, runs: {} } }),
    ev("student", { type: "TEXT_MESSAGE_START", messageId: `u-${runId}`, role: "user" }),
    ev("student", { type: "TEXT_MESSAGE_CONTENT", messageId: `u-${runId}`, delta: "what is d/dx x^2?" }),
    ev("student", { type: "TEXT_MESSAGE_END", messageId: `u-${runId}` }),
    ev("student", { type: "STATE_DELTA", delta: [{ op: "add", path: `/runs/${runId}`, value: { status: "sending", hops: [] } }] }),
    ev("student", { type: "STATE_DELTA", delta: [{ op: "replace", path: `/runs/${runId}/status`, value: "waiting" }] }),
    ev("student", { type: "TEXT_MESSAGE_START", messageId: `a-${runId}`, role: "assistant" }),
    ev("student", { type: "TEXT_MESSAGE_CONTENT", messageId: `a-${runId}`, delta: answer.slice(0, 1) }),
    ev("student", { type: "TEXT_MESSAGE_CONTENT", messageId: `a-${runId}`, delta: answer.slice(1) }),
    ev("student", { type: "TEXT_MESSAGE_END", messageId: `a-${runId}` }),
    ev("student", { type: "STATE_DELTA", delta: [{ op: "replace", path: `/runs/${runId}/status`, value: "completed" }] }),
    ev("student", { type: "RUN_FINISHED", threadId, runId, result: { servedBy, outcome: "route" } }),
  ];
}

test("a question run becomes two chat lines, the thread's state and an attributed result", () => {
  const s = apply(initialState(), questionRun("t1", "r1"));
  assert.equal(s.currentThread, "t1");
  assert.deepEqual(
    s.chat.map((m) => [m.role, m.text, m.busy, m.kind]),
    [
      ["user", "what is d/dx x^2?", false, "message"],
      ["assistant", "2x", false, "message"],
    ],
  );
  assert.equal(s.runs.r1.finished, true);
  assert.equal(s.runs.r1.result.servedBy.name, "Tutor Agent");
  assert.equal(runStatus(s, "r1"), "completed");
  assert.deepEqual(s.open, {});
});

test("two conversations' runs interleave on their own lanes; each run's snapshot keeps the earlier runs", () => {
  const lane = (thread) => (a) => ({ ...a, lane: `student/${thread}` });
  const a = questionRun("t1", "r1").map(lane("t1"));
  const b = questionRun("t2", "r2", { answer: "9:00" }).map(lane("t2"));
  const mixed = a.flatMap((x, i) => [x, b[i]]);
  let s = apply(initialState(), mixed);
  assert.equal(s.threads.t1.runs.r1.status, "completed");
  assert.equal(s.threads.t2.runs.r2.status, "completed");
  assert.equal(s.chat.find((m) => m.id === "a-r2").threadId, "t2");
  assert.equal(s.chat.find((m) => m.id === "a-r2").text, "9:00");
  s = apply(s, questionRun("t1", "r3").map(lane("t1")));
  assert.deepEqual(Object.keys(s.threads.t1.runs), ["r1", "r3"], "r1's final state survives r3's snapshot");
});

test("a message is busy from START until END", () => {
  const s = apply(initialState(), questionRun("t1", "r1").slice(0, 9));
  assert.equal(s.chat.at(-1).busy, true);
  assert.equal(s.chat.at(-1).text, "2");
});

test("RUN_ERROR ends the open run with a clear line and its code", () => {
  const s = apply(initialState(), [
    ...questionRun("t1", "r1").slice(0, 7),
    ev("student", { type: "RUN_ERROR", message: "the Hub could not be reached", code: "hub_unavailable" }),
  ]);
  const last = s.chat.at(-1);
  assert.equal(last.kind, "error");
  assert.equal(last.code, "hub_unavailable");
  assert.equal(s.runs.r1.error.code, "hub_unavailable");
  assert.equal(runStatus(s, "r1"), "failed", "an ended run never shows as still waiting");
  assert.deepEqual(s.open, {});
});

test("the stream's echo replaces this window's local copy of a question", () => {
  let s = reduce(initialState(), { type: "ask", runId: "r1", threadId: "t1", question: "hi", now: 5 });
  assert.equal(s.chat[0].id, "local-r1");
  assert.equal(runStatus(s, "r1"), "sending");
  s = apply(s, questionRun("t1", "r1").slice(0, 3));
  assert.deepEqual(
    s.chat.map((m) => m.id),
    ["u-r1"],
  );
  assert.equal(s.runs.r1.startedAt, 5, "the wait is timed from the press of Enter");
});

test("a refused POST shows the server's reason and marks the run failed", () => {
  let s = reduce(initialState(), { type: "ask", runId: "r2", threadId: "t1", question: "again", now: 5 });
  s = reduce(s, { type: "askFailed", runId: "r2", threadId: "t1", code: "run_in_progress", message: "wait for the answer" });
  assert.equal(s.chat.at(-1).code, "run_in_progress");
  assert.equal(runStatus(s, "r2"), "failed");
});

test("a run the server opened itself is a notice and does not switch the conversation", () => {
  let s = apply(initialState(), questionRun("t1", "r1"));
  s = apply(s, [
    ev("student", { type: "RUN_STARTED", threadId: "notices", runId: "n1" }),
    ev("student", { type: "TEXT_MESSAGE_START", messageId: "n1m", role: "assistant" }),
    ev("student", { type: "TEXT_MESSAGE_CONTENT", messageId: "n1m", delta: "Marketing 101 is now available." }),
    ev("student", { type: "TEXT_MESSAGE_END", messageId: "n1m" }),
    ev("student", { type: "RUN_FINISHED", threadId: "notices", runId: "n1" }),
  ]);
  assert.equal(s.currentThread, "t1");
  assert.equal(s.chat.at(-1).kind, "notice");
});

const consoleLine = (agent, n) =>
  ev("monitor", {
    type: "ACTIVITY_SNAPSHOT",
    messageId: `console:${agent}:${n}`,
    activityType: "campus.console",
    content: { agent, ts: n, kind: "heartbeat", summary: "beat", details: {} },
  });

test("a console keeps its newest lines only, and counts them all", () => {
  const actions = [ev("monitor", { type: "RUN_STARTED", threadId: "monitor", runId: "m1" })];
  for (let i = 0; i < LIMITS.console + 20; i++) actions.push(consoleLine("hub", i));
  const s = apply(initialState(), actions);
  assert.equal(s.consoles.hub.items.length, LIMITS.console);
  assert.equal(s.consoles.hub.total, LIMITS.console + 20);
  assert.equal(s.consoles.hub.items[0].ts, 20);
  assert.equal(s.consoles.tutor.items.length, 0);
  // an agent that is not a console is ignored
  assert.equal(apply(s, [consoleLine("mallory", 1)]).consoles, s.consoles);
});

test("a composed answer's record goes to the inspector too, its newest few only", () => {
  const record = (n) =>
    ev("monitor", {
      type: "ACTIVITY_SNAPSHOT",
      messageId: `console:library:${n}`,
      activityType: "campus.console",
      content: {
        agent: "library",
        ts: n,
        kind: "reply_published",
        relayedFrom: "library",
        details: { outcome: "form_open", inspector: { composer: "live", repairs: 1, decision: "screen", attempts: [{ attempt: 1, passed: false, errors: [{ code: "invented_date" }] }] } },
      },
    });
  let s = apply(initialState(), [consoleLine("library", 0), record(1)]);
  assert.equal(s.consoles.library.total, 2, "still a console line");
  assert.equal(s.inspections.length, 1, "a line with no record is no inspection");
  assert.deepEqual([s.inspections[0].agent, s.inspections[0].composer, s.inspections[0].repairs], ["library", "live", 1]);
  for (let i = 2; i < LIMITS.inspections + 4; i++) s = apply(s, [record(i)]);
  assert.equal(s.inspections.length, LIMITS.inspections);
  assert.equal(s.inspections.at(-1).ts, LIMITS.inspections + 3, "the newest kept");
  // a record that is not an object is not read
  const odd = ev("monitor", { type: "ACTIVITY_SNAPSHOT", messageId: "console:library:x", activityType: "campus.console", content: { agent: "library", ts: 99, kind: "reply_published", details: { inspector: "[redacted]" } } });
  assert.equal(apply(s, [odd]).inspections, s.inspections);
});

test("monitor state: a snapshot, then patches", () => {
  const s = apply(initialState(), [
    ev("monitor", { type: "RUN_STARTED", threadId: "monitor", runId: "m1" }),
    ev("monitor", { type: "STATE_SNAPSHOT", snapshot: { agents: { tutor: { status: "ready" } }, links: {} } }),
    ev("monitor", { type: "STATE_DELTA", delta: [{ op: "replace", path: "/agents/tutor/status", value: "stale" }] }),
    ev("monitor", { type: "STATE_DELTA", delta: [{ op: "replace", path: "/no/such/path", value: 1 }] }),
  ]);
  assert.equal(s.monitor.agents.tutor.status, "stale");
});

const pulses = (list, extra) => ev("monitor", { type: "CUSTOM", name: "campus.topology", value: { pulses: list } }, extra);
const p = (link, ts, category = "question", extra = {}) => ({ link, from: "student", to: "hub", category, phase: "sent", sender: "student", ts, count: 1, ...extra });

test("live pulses wait, then play in agent-timestamp order, at most three per link, and end", () => {
  let s = apply(initialState(), [pulses([p("student-hub", 30), p("student-hub", 10), p("student-hub", 20), p("student-hub", 5), p("student-hub", 40, "heartbeat")], { now: 1000 })]);
  assert.equal(s.queue.length, 5);
  s = reduce(s, { type: "tick", now: 1000 + PLAY_DELAY_MS - 1 });
  assert.equal(s.playing["student-hub"], undefined, "not before the buffer");
  s = reduce(s, { type: "tick", now: 1000 + PLAY_DELAY_MS });
  assert.deepEqual(
    s.playing["student-hub"].map((x) => x.ts),
    [10, 20, 30],
    "ordered by ts, heartbeat hidden, oldest dropped",
  );
  s = reduce(s, { type: "tick", now: 1000 + PLAY_DELAY_MS + PULSE_MS });
  assert.deepEqual(s.playing["student-hub"], []);
  assert.equal(s.events.length, 5, "the list keeps them all");
});

test("replayed pulses fill the list without playing", () => {
  let s = apply(initialState(), [pulses([p("student-hub", 1, "question", { traceId: "tr1" })], { live: false })]);
  s = reduce(s, { type: "tick", now: 999999 });
  assert.equal(s.queue.length, 0);
  assert.equal(s.events.length, 1);
  assert.deepEqual(s.traces, ["tr1"]);
});

test("the event list and the trace list are bounded", () => {
  const many = Array.from({ length: LIMITS.events + 50 }, (_, i) => p("hub-tutor", i, "answer", { traceId: `t${i}` }));
  const s = apply(initialState(), [pulses(many, { live: false })]);
  assert.equal(s.events.length, LIMITS.events);
  assert.equal(s.traces.length, LIMITS.traces);
});

test("a server restart drops what it said and keeps the person's choices", () => {
  let s = apply(initialState(), [...questionRun("t1", "r1"), { type: "pref", key: "showHeartbeats", value: true }]);
  s = reduce(s, { type: "reset" });
  assert.equal(s.chat.length, 0);
  assert.equal(s.currentThread, null);
  assert.equal(s.prefs.showHeartbeats, true);
});

test("an action that changes nothing keeps the same state object (no redraw)", () => {
  const s = initialState();
  assert.equal(reduce(s, { type: "tick", now: 0 }), s);
  assert.equal(reduce(s, ev("monitor", { type: "CUSTOM", name: "other", value: {} })), s);
});

test("a notice the server opened itself is one chat line, whatever conversation is shown", () => {
  let s = apply(initialState(), questionRun("t1", "r1"));
  const notice = (runId, code, message) => [
    ev("student", { type: "RUN_STARTED", threadId: "notices", runId }),
    ev("student", { type: "CUSTOM", name: "campus.notice", value: { code, message, at: 5 } }),
    ev("student", { type: "RUN_FINISHED", threadId: "notices", runId, result: { notice: code } }),
  ];
  s = apply(s, [...notice("n-1", "hub_unreachable", "The Hub can't be reached."), ...notice("n-2", "hub_reachable", "The Hub is back.")]);
  assert.equal(s.currentThread, "t1", "a notice does not switch the conversation");
  assert.deepEqual(
    s.chat.filter((m) => m.kind === "notice").map((m) => [m.text, m.code, m.threadId]),
    [
      // on the notices' own thread: shown in every conversation, not tied to the one shown
      ["The Hub can't be reached.", "hub_unreachable", "notices"],
      ["The Hub is back.", "hub_reachable", "notices"],
    ],
  );
  // a replayed notice is not shown twice, and another custom event is not a notice
  s = apply(s, [...notice("n-2", "hub_reachable", "The Hub is back."), ev("student", { type: "CUSTOM", name: "other", value: { message: "x" } })]);
  assert.equal(s.chat.filter((m) => m.kind === "notice").length, 2);
  // a new conversation another window started: this one (and one replaying the history)
  // shows it, with none of the last conversation's lines; no chat line of its own
  s = apply(s, [...notice("n-3", "conversation_started", "a new conversation started")]);
  assert.equal(s.currentThread, "t1", "without its thread id it switches nothing");
  s = apply(s, [
    ev("student", { type: "RUN_STARTED", threadId: "notices", runId: "n-4" }),
    ev("student", { type: "CUSTOM", name: "campus.notice", value: { code: "conversation_started", message: "a new conversation started", at: 6, threadId: "t2" } }),
    ev("student", { type: "RUN_FINISHED", threadId: "notices", runId: "n-4", result: { notice: "conversation_started" } }),
  ]);
  assert.equal(s.currentThread, "t2");
  assert.equal(s.chat.filter((m) => m.kind === "notice").length, 2, "no chat line for it");
});

test("hop reasons reach people in words, never as raw codes", () => {
  assert.equal(hopReason("hub_got_answer", "unknown", "outcome_unknown", "Tutor"), "Outcome unknown: the Hub could not tell whether the Tutor handled it");
  assert.match(hopReason("student_received", "unknown", "outcome_unknown", null), /^Outcome unknown: the connection to the Hub broke/);
  assert.match(hopReason("student_received", "unknown", "outcome_unknown", null, "press"), /broke after the press was sent/);
  assert.match(hopReason("student_received", "unknown", "timeout", null), /^Outcome unknown: no answer from the Hub in time/);
  assert.equal(hopReason("student_received", "failed", "hub_unavailable", null), "The Hub could not be reached; nothing was sent");
  assert.equal(hopReason("hub_forwarded", "skipped", "Hub answered itself (clarify)", null), "Hub answered itself (clarify)");
  assert.equal(hopReason("hub_decided", "unknown", "some_new_code", null), "Outcome unknown (some new code)");
  assert.equal(hopReason("hub_decided", "unknown", null, null), null);
  for (const code of ["outcome_unknown", "timeout", "hub_unavailable", "hub_error"]) {
    assert.ok(!hopReason("student_received", "unknown", code, "Tutor").includes(code), code);
  }
});

test("a run that ended outcome_unknown is unknown, not failed", () => {
  const s = apply(initialState(), [
    ev("student", { type: "RUN_STARTED", threadId: "t1", runId: "r1" }),
    ev("student", { type: "RUN_ERROR", code: "outcome_unknown", message: "the connection to the hub broke" }),
  ]);
  assert.equal(runStatus(s, "r1"), "unknown");
});

test("a run whose outcome nobody can tell is labelled unknown, never a failure", () => {
  for (const code of ["outcome_unknown", "timeout"]) {
    const l = errorLabel(code);
    assert.equal(l.who, "? Outcome unknown");
    assert.notEqual(l.tone, "error");
    assert.equal(l.showCode, false);
  }
  assert.deepEqual(errorLabel("hub_unavailable"), { who: "✕ Not sent", tone: "error", showCode: false });
  assert.equal(errorLabel("run_in_progress").who, "Not sent");
  assert.deepEqual(errorLabel("hub_error"), { who: "✕ Problem", tone: "error", showCode: true });
  assert.equal(errorLabel(null).showCode, false);
});

const formSnap = (state, extra = {}) => ({
  type: "ACTIVITY_SNAPSHOT",
  messageId: "form-hf-1",
  activityType: "a2ui-surface",
  replace: true,
  content: { formRef: "hf-1", workflow: "study-room-booking", version: 1, state, surfaceId: "s-1", messages: [{ version: "v0.9", createSurface: { surfaceId: "s-1" } }], errors: [], receipt: null, operationId: null, pendingAction: null, problem: null, ...extra },
});

test("a form snapshot is one chat line where it first appeared; later snapshots replace it", () => {
  let s = apply(initialState(), [
    ev("student", { type: "RUN_STARTED", threadId: "t1", runId: "r1" }),
    ev("student", formSnap("editing")),
    ev("student", { type: "RUN_FINISHED", threadId: "t1", runId: "r1" }),
  ]);
  assert.deepEqual(s.chat.map((m) => [m.id, m.kind, m.threadId]), [["form-hf-1", "form", "t1"]]);
  assert.equal(formStatus(s.forms["form-hf-1"]).state, "editing");
  assert.equal(formStatus(s.forms["form-hf-1"]).editable, true);
  s = reduce(s, { type: "press", formId: "form-hf-1", operationId: "op-1" });
  assert.equal(formStatus(s.forms["form-hf-1"]).text, "Sending…");
  s = apply(s, [
    ev("student", { type: "RUN_STARTED", threadId: "t1", runId: "r2" }),
    ev("student", formSnap("submitting", { operationId: "op-1" })),
    ev("student", formSnap("confirmation_pending", { operationId: "op-1", pendingAction: { name: "confirm_booking" } })),
    ev("student", { type: "RUN_FINISHED", threadId: "t1", runId: "r2" }),
  ]);
  assert.equal(s.chat.length, 1, "still one line");
  const pending = formStatus(s.forms["form-hf-1"]);
  assert.deepEqual([pending.state, pending.canReconcile, pending.editable], ["confirmation_pending", true, false]);
  s = apply(s, [
    ev("student", { type: "RUN_STARTED", threadId: "t1", runId: "r3" }),
    ev("student", formSnap("submitted", { messages: [], receipt: { bookingId: "bk-1" } })),
    ev("student", { type: "RUN_FINISHED", threadId: "t1", runId: "r3" }),
  ]);
  const done = s.forms["form-hf-1"];
  assert.deepEqual([formStatus(done).state, formStatus(done).editable, done.messages.length, done.receipt.bookingId], ["submitted", false, 0, "bk-1"]);
});

test("a refused press keeps the form editable and says why; delivery states are worded", () => {
  let s = apply(initialState(), [ev("student", { type: "RUN_STARTED", threadId: "t1", runId: "r1" }), ev("student", formSnap("rejected", { errors: [{ field: "slot", code: "slot_taken", message: "taken" }] }))]);
  assert.equal(formStatus(s.forms["form-hf-1"]).state, "rejected");
  s = reduce(s, { type: "pressFailed", formId: "form-hf-1", code: "invalid_value", message: "at most 4 people" });
  const st = formStatus(s.forms["form-hf-1"]);
  assert.deepEqual([st.state, st.editable], ["refused", true]);
  assert.match(st.text, /at most 4 people/);
  for (const [state, editable] of [["not_delivered", true], ["superseded", false], ["cancelled", false], ["submitting", false]]) {
    const f = formStatus({ state });
    assert.equal(f.editable, editable, state);
    assert.ok(f.text.length > 0, state);
  }
  assert.equal(reduce(s, { type: "press", formId: "form-nope", operationId: "x" }), s, "an unknown form is left alone");
  assert.equal(formStatus({ state: "submitted", workflow: "loan-renewal" }).text, "Renewed: the loan service confirmed it.");
  assert.equal(formStatus({ state: "submitted", workflow: "study-room-booking" }).text, "Submitted.");
  // a follow-up button asks a question: its form is not "Sending…"
  const open = formStatus(s.forms["form-hf-1"]);
  const asked = reduce(s, { type: "press", formId: "form-hf-1", operationId: "op-f", name: "follow_up" });
  assert.deepEqual(formStatus(asked.forms["form-hf-1"]), open);
});

test("forms are bounded", () => {
  let s = initialState();
  for (let i = 0; i < LIMITS.forms + 5; i++) {
    s = reduce(s, ev("student", { ...formSnap("editing"), messageId: `form-hf-${i}`, content: { ...formSnap("editing").content, formRef: `hf-${i}` } }));
  }
  assert.equal(Object.keys(s.forms).length, LIMITS.forms);
  assert.equal(s.formOrder.length, LIMITS.forms);
});

test("a cancelled form says nothing was submitted, and claims no one closed it that this window does not know of", () => {
  const st = formStatus({ state: "cancelled" });
  assert.equal(st.state, "cancelled");
  assert.equal(st.text, "Cancelled: nothing was submitted.");
  assert.doesNotMatch(st.text, /agent closed|You cancelled/);
});

test("the draft of a form is what was typed over what the messages set", () => {
  const dm = (path, value) => ({ version: "v0.9", updateDataModel: { surfaceId: "s", path, value } });
  const sent = sentModel([
    { version: "v0.9", createSurface: { surfaceId: "s" } },
    dm("/form", { date: "2025-11-21", groupSize: "3", room: [], slot: [] }),
    dm("/form/room", ["B"]),
  ]);
  assert.deepEqual(sent, { date: "2025-11-21", groupSize: "3", room: ["B"], slot: [] });
  assert.equal(draftOf({ ...sent }, sent), null, "nothing typed");
  assert.deepEqual(draftOf({ ...sent, groupSize: "4" }, sent), { groupSize: "4" });
  assert.equal(draftOf(undefined, sent), null);
});

test("drafts are kept per conversation and surface, taken once, and bounded", () => {
  const book = draftBook(3);
  book.keep("t1", "s1", { groupSize: "4" });
  assert.equal(book.take("t2", "s1"), null, "another conversation");
  assert.deepEqual(book.take("t1", "s1"), { groupSize: "4" });
  assert.equal(book.take("t1", "s1"), null, "taken once");
  for (let i = 0; i < 5; i++) book.keep("t", `s${i}`, { n: i });
  assert.equal(book.size, 3);
  assert.equal(book.take("t", "s0"), null, "the oldest went");
  assert.deepEqual(book.take("t", "s4"), { n: 4 });
});
