// The page's state and its one pure reducer: reduce(state, action) → new state.
// Untouched parts keep their identity, so a view redraws only when its part changed.
// Everything that grows with traffic is bounded here. The monitor channel's slice is in
// store/monitor.js, the limits in store/bounds.js; the words for the server's codes
// (store/words.js) and the forms' drafts (store/drafts.js) are exported from here too.
import { AGENTS, CHANNELS, FOLLOW_UP_ACTION, NOTICES, RUN_ERRORS } from "./vocab.js";
import { LIMITS, CONSOLES, ring, last } from "./store/bounds.js";
import { patched, setOpen } from "./store/common.js";
import { monitorEvent, tick } from "./store/monitor.js";

export { LIMITS, PLAY_DELAY_MS, PULSE_MS, CONSOLES } from "./store/bounds.js";
export { formStatus, hopReason, errorLabel } from "./store/words.js";
export { sentModel, draftOf, draftBook } from "./store/drafts.js";

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
    inspections: [], // the generated-UI inspector's records (a composed answer each), oldest first
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

function studentEvent(state, ev, now, lane) {
  const open = state.open[lane];
  switch (ev.type) {
    case "RUN_STARTED": {
      state = setOpen(state, lane, { runId: ev.runId, threadId: ev.threadId });
      // a run with no question in it is one the server opened itself (a notice): it does
      // not switch the conversation shown
      return rememberRun(state, { runId: ev.runId, threadId: ev.threadId, channel: CHANNELS.student, finished: false, startedAt: state.runs[ev.runId]?.startedAt ?? now });
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
      state = rememberForm(state, ev.messageId, { ...ev.content, threadId, local: null, pressedHere: state.forms[ev.messageId]?.pressedHere ?? null });
      if (state.chat.some((m) => m.id === ev.messageId)) return state;
      return addChat(state, { id: ev.messageId, runId: open?.runId ?? null, threadId, role: "assistant", text: "", busy: false, kind: "form" });
    }
    case "CUSTOM": {
      // a notice nobody asked for (the Hub unreachable, or back): one line in the chat
      if (ev.name !== "campus.notice" || typeof ev.value?.message !== "string") return state;
      // a window started a new conversation: every window shows it, and so does one opened
      // later from the history (never the last conversation's messages or receipts)
      if (ev.value.code === NOTICES.conversationStarted) return typeof ev.value.threadId === "string" ? { ...state, currentThread: ev.value.threadId } : state;
      const id = `notice-${open?.runId ?? state.chat.length}`;
      if (state.chat.some((m) => m.id === id)) return state;
      // on the server's notices lane: shown in every conversation
      return addChat(state, { id, runId: open?.runId ?? null, threadId: open?.threadId ?? state.currentThread, role: "assistant", text: ev.value.message, busy: false, kind: "notice", code: ev.value.code ?? null });
    }
    case "RUN_FINISHED": {
      state = setOpen(state, lane, null);
      const by = ev.result?.servedBy;
      if (by?.id === AGENTS.hub && typeof by.name === "string" && by.name !== state.hubName) state = { ...state, hubName: by.name };
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
      return action.notice === NOTICES.historyTruncated ? { ...state, truncated: true } : state;
    case "event":
      return action.channel === CHANNELS.student
        ? studentEvent(state, action.event, action.now, action.lane ?? CHANNELS.student)
        : action.channel === CHANNELS.monitor
          ? monitorEvent(state, action.event, action.live, action.now, action.lane ?? CHANNELS.monitor)
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
        channel: CHANNELS.student,
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
      // a question of this window's, even when no conversation could be started for it
      state = rememberRun(state, { runId: action.runId, threadId: action.threadId, channel: CHANNELS.student, local: true, finished: true, error: { code: action.code, message: action.message } });
      return addChat(state, errorItem(action.runId, action.threadId, action.message, action.code));
    }
    case "press": {
      // this window sent a form's action: "Sending…" until the server's snapshot says more
      const form = state.forms[action.formId];
      if (!form) return state;
      // a follow-up button asks its question as a new one: the form itself sends nothing
      if (action.name === FOLLOW_UP_ACTION) return state;
      // which button this window pressed last stays with the form ("You cancelled this form")
      return rememberForm(state, action.formId, { ...form, pressedHere: action.name ?? null, local: { sending: true, operationId: action.operationId } });
    }
    case "pressFailed": {
      // the UI server refused the press: nothing was sent; the form stays as it was
      const form = state.forms[action.formId];
      if (!form) return state;
      // a press that was not sent pressed nothing: not "You cancelled" later
      return rememberForm(state, action.formId, { ...form, pressedHere: null, local: { sending: false, refused: { code: action.code, message: action.message } } });
    }
    case "pref":
      return { ...state, prefs: { ...state.prefs, [action.key]: action.value } };
    default:
      return state;
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
const UNKNOWN_CODES = new Set([RUN_ERRORS.timeout, RUN_ERRORS.outcomeUnknown]);
