// The page's state and its one pure reducer: reduce(state, action) → new state.
// Untouched parts keep their identity, so a view redraws only when its part changed.
// Everything that grows with traffic is bounded here.
import { applyPatch } from "./vendor/agui.js";

export const LIMITS = {
  chat: 200, // chat items kept across all threads
  console: 500, // lines per agent console
  events: 200, // recent topology events (list view, details)
  queue: 300, // live pulses waiting for their turn
  pulsesPerLink: 3, // pulses drawn at once on one link
  traces: 20, // trace ids offered for highlighting
  runs: 100, // runs remembered
  forms: 20, // forms remembered (a conversation has one open at a time)
};
export const PLAY_DELAY_MS = 350; // live pulses wait this long, then play in agent-timestamp order
export const PULSE_MS = 1200; // how long one pulse is drawn
export const CONSOLES = ["student", "hub", "tutor", "library"];

const ring = () => ({ items: [], total: 0 });

export function initialState(prefs = {}) {
  return {
    boot: null,
    stream: "reconnecting", // open | reconnecting | closed
    streamError: null, // text of the last verification or connection problem
    truncated: false, // the server said older history was dropped
    now: 0, // wall clock of the last tick, whole seconds
    currentThread: null,
    hubName: null, // the Hub's own name, as its own replies were attributed
    threads: {}, // threadId → thread state (STATE_SNAPSHOT + STATE_DELTA): {threadId, conversationId, runs}
    runs: {}, // runId → {runId, threadId, channel, finished, result, error, local}
    runOrder: [],
    open: {}, // lane ("<channel>/<thread>") → {runId, threadId, asked} of its open run
    chat: [], // {id, runId, threadId, role, text, busy, kind: message|error|notice|form}
    forms: {}, // "form-<formRef>" → the server's latest snapshot content + {threadId, local}
    formOrder: [],
    consoles: Object.fromEntries(CONSOLES.map((a) => [a, ring()])),
    monitor: {}, // monitor state (agents, links, hub, stream)
    events: [], // recent labelled topology events, oldest first
    eventSeq: 0,
    queue: [], // live pulses not yet played
    playing: {}, // link → [{...pulse, id, playAt}]
    traces: [], // recent trace ids, newest last
    prefs: {
      showHeartbeats: false,
      paused: false,
      reduceMotion: false,
      listView: false,
      trace: null,
      selected: null, // {kind: "node"|"link", id}
      ...prefs,
    },
  };
}

const last = (arr, n) => (arr.length > n ? arr.slice(arr.length - n) : arr);

function pushRing(r, item, max) {
  const items = r.items.length >= max ? r.items.slice(r.items.length - max + 1) : r.items.slice();
  items.push(item);
  return { items, total: r.total + 1 };
}

function patched(doc, delta) {
  try {
    return applyPatch(doc ?? {}, delta, false, false).newDocument;
  } catch {
    return null; // a delta that does not fit is dropped; the next snapshot repairs
  }
}

/** A chat line saying a question failed or was refused (never agent text). */
function errorItem(runId, threadId, message, code) {
  return { id: `error-${runId}`, runId, threadId, role: "system", text: message, code: code ?? null, busy: false, kind: "error" };
}

function rememberRun(state, run) {
  const known = state.runs[run.runId];
  const runs = { ...state.runs, [run.runId]: { ...(known || {}), ...run } };
  let runOrder = known ? state.runOrder : [...state.runOrder, run.runId];
  if (runOrder.length > LIMITS.runs) {
    const drop = runOrder.slice(0, runOrder.length - LIMITS.runs);
    runOrder = runOrder.slice(drop.length);
    for (const id of drop) delete runs[id];
  }
  return { ...state, runs, runOrder };
}

function rememberForm(state, id, form) {
  const forms = { ...state.forms, [id]: form };
  let formOrder = state.formOrder.includes(id) ? state.formOrder : [...state.formOrder, id];
  if (formOrder.length > LIMITS.forms) {
    for (const old of formOrder.slice(0, formOrder.length - LIMITS.forms)) delete forms[old];
    formOrder = formOrder.slice(formOrder.length - LIMITS.forms);
  }
  return { ...state, forms, formOrder };
}

function addChat(state, item) {
  return { ...state, chat: last([...state.chat, item], LIMITS.chat) };
}

function updateChat(state, id, fn) {
  const i = state.chat.findLastIndex((m) => m.id === id);
  if (i < 0) return state;
  const chat = state.chat.slice();
  chat[i] = fn(chat[i]);
  return { ...state, chat };
}

const THREAD_RUNS_KEPT = 20;

/** A run's STATE_SNAPSHOT holds that run only: earlier runs' final states are kept here. */
function mergeThread(old, snap) {
  const runs = { ...(old?.runs || {}), ...(snap.runs || {}) };
  const ids = Object.keys(runs);
  for (const id of ids.slice(0, Math.max(0, ids.length - THREAD_RUNS_KEPT))) delete runs[id];
  return { ...snap, runs };
}

function setOpen(state, lane, value) {
  const open = { ...state.open, [lane]: value };
  if (!value) delete open[lane]; // a lane without an open run holds nothing
  return { ...state, open };
}

function studentEvent(state, ev, now, lane) {
  const open = state.open[lane];
  switch (ev.type) {
    case "RUN_STARTED": {
      state = setOpen(state, lane, { runId: ev.runId, threadId: ev.threadId });
      // a run with no question in it is one the server opened itself (a notice): it does
      // not switch the conversation shown
      return rememberRun(state, { runId: ev.runId, threadId: ev.threadId, channel: "student", finished: false, startedAt: state.runs[ev.runId]?.startedAt ?? now });
    }
    case "TEXT_MESSAGE_START": {
      const role = ev.role || "assistant";
      const run = open?.runId ?? null;
      if (role === "user" && run) {
        // the server's echo of a question this window sent replaces the local copy
        state = { ...state, chat: state.chat.filter((m) => m.id !== `local-${run}`), currentThread: open.threadId };
        state = setOpen(state, lane, { ...open, asked: true });
      }
      return addChat(state, {
        id: ev.messageId,
        runId: run,
        threadId: open?.threadId ?? state.currentThread,
        role,
        text: "",
        busy: true,
        kind: role === "user" || open?.asked ? "message" : "notice",
      });
    }
    case "TEXT_MESSAGE_CONTENT":
      return updateChat(state, ev.messageId, (m) => ({ ...m, text: m.text + ev.delta }));
    case "TEXT_MESSAGE_END":
      return updateChat(state, ev.messageId, (m) => ({ ...m, busy: false }));
    case "STATE_SNAPSHOT": {
      const snap = ev.snapshot || {};
      const threadId = snap.threadId || open?.threadId;
      if (!threadId) return state;
      return { ...state, threads: { ...state.threads, [threadId]: mergeThread(state.threads[threadId], snap) } };
    }
    case "STATE_DELTA": {
      const threadId = open?.threadId;
      if (!threadId) return state;
      const doc = patched(state.threads[threadId] || { threadId, runs: {} }, ev.delta);
      return doc ? { ...state, threads: { ...state.threads, [threadId]: doc } } : state;
    }
    case "ACTIVITY_SNAPSHOT": {
      // a form: the server's snapshot replaces what the page held (it carries the whole
      // A2UI list to draw from); its chat line is added where it first appeared
      if (ev.activityType !== "a2ui-surface" || typeof ev.content?.formRef !== "string") return state;
      const threadId = open?.threadId ?? state.currentThread;
      state = rememberForm(state, ev.messageId, { ...ev.content, threadId, local: null });
      if (state.chat.some((m) => m.id === ev.messageId)) return state;
      return addChat(state, { id: ev.messageId, runId: open?.runId ?? null, threadId, role: "assistant", text: "", busy: false, kind: "form" });
    }
    case "CUSTOM": {
      // a notice nobody asked for (the Hub unreachable, or back): one line in the chat
      if (ev.name !== "campus.notice" || typeof ev.value?.message !== "string") return state;
      const id = `notice-${open?.runId ?? state.chat.length}`;
      if (state.chat.some((m) => m.id === id)) return state;
      return addChat(state, { id, runId: open?.runId ?? null, threadId: state.currentThread, role: "assistant", text: ev.value.message, busy: false, kind: "notice", code: ev.value.code ?? null });
    }
    case "RUN_FINISHED": {
      state = setOpen(state, lane, null);
      const by = ev.result?.servedBy;
      if (by?.id === "hub" && typeof by.name === "string" && by.name !== state.hubName) state = { ...state, hubName: by.name };
      return rememberRun(state, { runId: ev.runId, threadId: ev.threadId, finished: true, result: ev.result ?? null });
    }
    case "RUN_ERROR": {
      state = setOpen(state, lane, null);
      const runId = open?.runId ?? null;
      if (runId) state = rememberRun(state, { runId, finished: true, error: { code: ev.code ?? null, message: ev.message } });
      // a question still marked busy will get no more text
      state = { ...state, chat: state.chat.map((m) => (m.runId === runId && m.busy ? { ...m, busy: false } : m)) };
      return addChat(state, errorItem(runId ?? `n${state.chat.length}`, open?.threadId ?? state.currentThread, ev.message, ev.code));
    }
    default:
      return state;
  }
}

function monitorEvent(state, ev, live, now, lane) {
  switch (ev.type) {
    case "RUN_STARTED":
      return setOpen(state, lane, { runId: ev.runId, threadId: ev.threadId });
    case "RUN_FINISHED":
    case "RUN_ERROR":
      return setOpen(state, lane, null);
    case "STATE_SNAPSHOT":
      return { ...state, monitor: ev.snapshot || {} };
    case "STATE_DELTA": {
      const doc = patched(state.monitor, ev.delta);
      return doc ? { ...state, monitor: doc } : state;
    }
    case "ACTIVITY_SNAPSHOT": {
      if (ev.activityType !== "campus.console") return state;
      const c = ev.content || {};
      const agent = CONSOLES.includes(c.agent) ? c.agent : null;
      if (!agent) return state;
      const line = {
        id: ev.messageId,
        ts: c.ts,
        kind: c.kind,
        summary: c.summary,
        details: c.details,
        relayedFrom: c.relayedFrom,
        counts: c.counts,
      };
      return { ...state, consoles: { ...state.consoles, [agent]: pushRing(state.consoles[agent], line, LIMITS.console) } };
    }
    case "CUSTOM": {
      if (ev.name !== "campus.topology") return state;
      const pulses = Array.isArray(ev.value?.pulses) ? ev.value.pulses : [];
      if (!pulses.length) return state;
      let { eventSeq } = state;
      const added = pulses.map((p) => ({ ...p, id: ++eventSeq }));
      const events = last([...state.events, ...added], LIMITS.events);
      let traces = state.traces;
      for (const p of added) {
        if (p.traceId && !traces.includes(p.traceId)) traces = last([...traces, p.traceId], LIMITS.traces);
      }
      const queue = live ? last([...state.queue, ...added.map((p) => ({ ...p, arrivedAt: now }))], LIMITS.queue) : state.queue;
      return { ...state, eventSeq, events, traces, queue };
    }
    default:
      return state;
  }
}

/** Moves live pulses that waited long enough onto their links (agent-timestamp order) and drops finished ones. */
function tick(state, now) {
  let changed = false;
  let { queue, playing } = state;
  const ready = queue.filter((p) => now - p.arrivedAt >= PLAY_DELAY_MS);
  if (ready.length) {
    changed = true;
    queue = queue.filter((p) => now - p.arrivedAt < PLAY_DELAY_MS);
    playing = { ...playing };
    ready.sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0));
    for (const p of ready) {
      if (p.category === "heartbeat" && !state.prefs.showHeartbeats) continue;
      if (!p.link) continue;
      playing[p.link] = last([...(playing[p.link] || []), { ...p, playAt: now }], LIMITS.pulsesPerLink);
    }
  }
  for (const [link, list] of Object.entries(playing)) {
    const keep = list.filter((p) => now - p.playAt < PULSE_MS);
    if (keep.length !== list.length) {
      if (!changed) playing = { ...playing };
      changed = true;
      playing[link] = keep;
    }
  }
  const sec = Math.floor(now / 1000) * 1000;
  if (!changed && sec === state.now) return state;
  return { ...state, queue, playing, now: sec };
}

export function reduce(state, action) {
  switch (action.type) {
    case "reset": // the server restarted: drop everything it told us, keep the person's choices
      return { ...initialState(state.prefs), stream: state.stream, now: state.now };
    case "boot":
      return { ...state, boot: action.boot };
    case "stream":
      return state.stream === action.status && state.streamError === (action.error ?? state.streamError)
        ? state
        : { ...state, stream: action.status, streamError: action.error ?? (action.status === "open" ? null : state.streamError) };
    case "notice":
      return action.notice === "history_truncated" ? { ...state, truncated: true } : state;
    case "event":
      return action.channel === "student"
        ? studentEvent(state, action.event, action.now, action.lane ?? "student")
        : action.channel === "monitor"
          ? monitorEvent(state, action.event, action.live, action.now, action.lane ?? "monitor")
          : state;
    case "tick":
      return tick(state, action.now);
    case "thread": // a new conversation this window started
      return { ...state, currentThread: action.threadId };
    case "ask": {
      // this window posted a question; the stream's echo replaces this local copy
      state = { ...state, currentThread: action.threadId };
      state = rememberRun(state, {
        runId: action.runId,
        threadId: action.threadId,
        channel: "student",
        local: true,
        finished: false,
        startedAt: action.now,
      });
      return addChat(state, {
        id: `local-${action.runId}`,
        runId: action.runId,
        threadId: action.threadId,
        role: "user",
        text: action.question,
        busy: false,
        kind: "message",
      });
    }
    case "askFailed": {
      // the server refused the POST: nothing was sent to any agent
      state = rememberRun(state, { runId: action.runId, finished: true, error: { code: action.code, message: action.message } });
      return addChat(state, errorItem(action.runId, action.threadId, action.message, action.code));
    }
    case "press": {
      // this window sent a form's action: "Sending…" until the server's snapshot says more
      const form = state.forms[action.formId];
      if (!form) return state;
      return rememberForm(state, action.formId, { ...form, local: { sending: true, operationId: action.operationId } });
    }
    case "pressFailed": {
      // the UI server refused the press: nothing was sent; the form stays as it was
      const form = state.forms[action.formId];
      if (!form) return state;
      return rememberForm(state, action.formId, { ...form, local: { sending: false, refused: { code: action.code, message: action.message } } });
    }
    case "pref":
      return { ...state, prefs: { ...state.prefs, [action.key]: action.value } };
    default:
      return state;
  }
}

/**
 * What a form's status line says, from the server's state and this window's own press:
 * {state, text, canReconcile, editable}. Codes never reach the page raw.
 */
export function formStatus(form) {
  if (!form) return null;
  if (form.local?.refused) return { state: "refused", text: `Not sent: ${form.local.refused.message}`, canReconcile: false, editable: true };
  if (form.local?.sending && (form.state === "editing" || form.state === "rejected" || form.state === "not_delivered" || form.state === "confirmation_pending"))
    return { state: "submitting", text: "Sending…", canReconcile: false, editable: false };
  switch (form.state) {
    case "submitting":
      return { state: "submitting", text: "Sending…", canReconcile: false, editable: false };
    case "confirmation_pending":
      return { state: "confirmation_pending", text: "Confirmation pending: it may have reached the university, but no confirmation came. Check its status before doing anything else.", canReconcile: true, editable: false };
    case "not_delivered":
      return { state: "not_delivered", text: "Not delivered: nothing reached the university. Your entries are kept; press the button again to send.", canReconcile: false, editable: true };
    case "rejected":
      return { state: "rejected", text: "The agent asked for changes: see below.", canReconcile: false, editable: true };
    case "submitted":
      return { state: "submitted", text: "Submitted.", canReconcile: false, editable: false };
    case "cancelled":
      return { state: "cancelled", text: "Cancelled: the agent closed this form; nothing was submitted.", canReconcile: false, editable: false };
    case "superseded":
      return { state: "superseded", text: form.problem?.message ? `Closed: ${form.problem.message}` : "Closed: a newer form took its place.", canReconcile: false, editable: false };
    default:
      return { state: "editing", text: form.problem?.message ? `Not done: ${form.problem.message}` : "", canReconcile: false, editable: true };
  }
}

/** The server's record of a run (status, hops), if the thread state has it. */
export function runRecord(state, runId) {
  const run = state.runs[runId];
  const thread = run ? state.threads[run.threadId] : null;
  return thread?.runs?.[runId] ?? null;
}

/** sending | waiting | completed | failed | unknown for a run: the server's status, unless
 *  the run ended (RUN_ERROR, a refused POST) while the server's record still said it was under way. */
export function runStatus(state, runId) {
  const server = runRecord(state, runId)?.status;
  if (server === "completed" || server === "failed" || server === "unknown") return server;
  const run = state.runs[runId];
  if (run?.error) return UNKNOWN_CODES.has(run.error.code) ? "unknown" : "failed";
  if (server) return server;
  if (!run) return "unknown";
  return run.finished ? "completed" : "sending";
}

/** Error codes after which the question may still have been handled. */
const UNKNOWN_CODES = new Set(["timeout", "outcome_unknown"]);

/** A hop's reason in words for people: the server's codes (`outcome_unknown`, `timeout`,
 *  `hub_unavailable`, `hub_error`, `unreachable`, …) never reach the page raw. `step` is the
 *  hop's step, `specialist` the specialist's display name (or null); other text is kept. */
export function hopReason(step, state, reason, specialist) {
  if (!reason) return null;
  const who = specialist ? `the ${specialist}` : "the specialist";
  const fromHub = step === "student_received";
  switch (reason) {
    case "outcome_unknown":
      return fromHub
        ? "Outcome unknown: the connection to the Hub broke after the question was sent, so whether it was handled is not known"
        : `Outcome unknown: the Hub could not tell whether ${who} handled it`;
    case "timeout":
      return fromHub ? "Outcome unknown: no answer from the Hub in time" : `Outcome unknown: no answer from ${who} in time`;
    case "hub_unavailable":
      return "The Hub could not be reached; nothing was sent";
    case "hub_error":
      return "The Hub answered with an error";
    case "failed":
    case "error":
      return `${specialist ? `The ${specialist}` : "The specialist"} answered with an error`;
    default:
      return state === "unknown" && /^[a-z_]+$/.test(reason) ? `Outcome unknown (${reason.replaceAll("_", " ")})` : reason;
  }
}

/**
 * How the chat labels a run that ended in an error: a question that was sent but whose
 * outcome nobody can tell is "unknown", never a failure; codes worded here are not shown
 * raw, any other code stays beside the message for reference.
 */
export function errorLabel(code) {
  switch (code) {
    case "run_in_progress":
      return { who: "Not sent", tone: "error", showCode: false };
    case "outcome_unknown":
    case "timeout":
      return { who: "? Outcome unknown", tone: "pending", showCode: false };
    case "hub_unavailable":
      return { who: "✕ Not sent", tone: "error", showCode: false };
    default:
      return { who: "✕ Problem", tone: "error", showCode: Boolean(code) };
  }
}

/** The form's data model (`/form`) as a list of A2UI messages leaves it. */
export function sentModel(messages) {
  let model = {};
  for (const m of Array.isArray(messages) ? messages : []) {
    const u = m?.updateDataModel;
    if (!u || typeof u.path !== "string") continue;
    if (u.path === "/form" || u.path === "/") {
      const v = u.path === "/" ? u.value?.form : u.value;
      model = v && typeof v === "object" ? { ...v } : {};
    } else if (u.path.startsWith("/form/") && !u.path.slice(6).includes("/")) {
      model = { ...model, [u.path.slice(6)]: u.value };
    }
  }
  return model;
}

/**
 * What the student typed into a form and did not send: the fields whose value in the
 * drawn surface (`current`) differs from what the messages set (`sent`). Null when none.
 */
export function draftOf(current, sent) {
  if (!current || typeof current !== "object") return null;
  const draft = {};
  for (const [field, value] of Object.entries(current)) {
    if (JSON.stringify(value) !== JSON.stringify(sent?.[field])) draft[field] = JSON.parse(JSON.stringify(value ?? null));
  }
  return Object.keys(draft).length ? draft : null;
}

/**
 * Drafts of forms closed because the same form was sent again ("continue"), by
 * conversation and surface, until that form is drawn: the newest `limit` kept.
 */
export function draftBook(limit = LIMITS.forms) {
  const drafts = new Map();
  const key = (threadId, surfaceId) => `${threadId} ${surfaceId}`;
  return {
    keep(threadId, surfaceId, draft) {
      const k = key(threadId, surfaceId);
      drafts.delete(k);
      drafts.set(k, draft);
      while (drafts.size > limit) drafts.delete(drafts.keys().next().value);
    },
    take(threadId, surfaceId) {
      const k = key(threadId, surfaceId);
      const draft = drafts.get(k) ?? null;
      drafts.delete(k);
      return draft;
    },
    get size() {
      return drafts.size;
    },
  };
}
