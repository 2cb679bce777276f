// Wiring: stream → store → views, drawn once per animation frame. The router picks the
// view; only the visible view draws (a view shown again draws from the current state).
import { initialState, reduce, draftBook } from "./store.js";
import { connect } from "./stream.js";
import { startRouter } from "./router.js";
import * as conversation from "./views/conversation.js";
import * as activity from "./views/activity.js";
import * as topology from "./views/topology.js";

const TICK_MS = 100;
const BANNER_GRACE_MS = 2000; // a first connection gets this long before "disconnected" shows

let state = initialState({ reduceMotion: matchMedia("(prefers-reduced-motion: reduce)").matches });
let current = null; // visible view name
let scheduled = false;
let everOpen = false;
const started = Date.now();

function dispatch(action) {
  const next = reduce(state, action);
  if (next !== state) {
    state = next;
    requestDraw();
  }
}

function requestDraw() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(draw);
}

async function postJson(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  return { ok: res.ok, status: res.status, json };
}

// begunAnew: the student pressed "New conversation" (the demo's loans start again in it);
// a conversation opened by the first question of a page keeps them
async function newConversation(begunAnew = false) {
  const { ok, json } = await postJson("/api/ui/conversations", begunAnew ? { begunAnew: true } : {});
  if (!ok || typeof json?.threadId !== "string") throw new Error(json?.error?.message || "could not start a new conversation");
  dispatch({ type: "thread", threadId: json.threadId });
  return json.threadId;
}

const newId = (prefix) => `${prefix}-${crypto.randomUUID()}`;

async function ask(question) {
  const runId = newId("run");
  let threadId = state.currentThread;
  try {
    if (!threadId) threadId = await newConversation();
  } catch (e) {
    dispatch({ type: "askFailed", runId, threadId: null, code: "no_conversation", message: e.message });
    return false;
  }
  dispatch({ type: "ask", runId, threadId, question, now: Date.now() });
  let res;
  try {
    res = await postJson("/api/ag-ui/runs", {
      threadId,
      runId,
      state: {},
      messages: [{ id: newId("msg"), role: "user", content: question }],
      tools: [],
      context: [],
      forwardedProps: {},
    });
  } catch {
    dispatch({ type: "askFailed", runId, threadId, code: "ui_server_unreachable", message: "The page could not reach the UI server; the question may not have been sent." });
    return false;
  }
  if (!res.ok) {
    const err = res.json?.error;
    dispatch({ type: "askFailed", runId, threadId, code: err?.code || `http_${res.status}`, message: err?.message || `The UI server refused the question (HTTP ${res.status}).` });
    return false;
  }
  return true; // 202 (a new run) or 200 (the same run again)
}

/**
 * Sends a form's action as an AG-UI run (no new user message): a fresh operation id per
 * press, or the pending one for "Check status" (a reconcile: the same action again).
 */
async function press(formId, form, action, operationId) {
  const op = operationId ?? crypto.randomUUID();
  dispatch({ type: "press", formId, operationId: op, name: typeof action?.name === "string" ? action.name : null });
  let res;
  try {
    res = await postJson("/api/ag-ui/runs", {
      threadId: form.threadId,
      runId: newId("run"),
      state: {},
      messages: [],
      tools: [],
      context: [],
      forwardedProps: { a2uiAction: { version: "v0.9", action }, formRef: form.formRef, operationId: op },
    });
  } catch {
    dispatch({ type: "pressFailed", formId, code: "ui_server_unreachable", message: "the page could not reach the UI server" });
    return false;
  }
  if (!res.ok) {
    const err = res.json?.error;
    dispatch({ type: "pressFailed", formId, code: err?.code || `http_${res.status}`, message: err?.message || `the UI server refused it (HTTP ${res.status})` });
    return false;
  }
  return true;
}

/** "Check for answer" on a run whose outcome is unknown: a new run with the same
 *  question and request id (the server keeps both), so nothing is asked twice. */
async function checkAnswer(checkRunId) {
  const threadId = state.runs[checkRunId]?.threadId ?? state.currentThread;
  let res;
  try {
    res = await postJson("/api/ag-ui/runs", {
      threadId,
      runId: newId("run"),
      state: {},
      messages: [],
      tools: [],
      context: [],
      forwardedProps: { checkAnswer: { runId: checkRunId } },
    });
  } catch {
    setStatus("The page could not reach the UI server; nothing was checked.");
    return false;
  }
  if (!res.ok) {
    setStatus(res.json?.error?.message || `The UI server refused the check (HTTP ${res.status}).`);
    return false;
  }
  return true;
}

const ctx = {
  dispatch,
  drafts: draftBook(),
  press,
  checkAnswer,
  getState: () => state,
  requestDraw,
  setStatus: (text) => setStatus(text),
  clearStatus: (text) => {
    if (statusEl.textContent === text) setStatus("");
  },
  ask,
  newConversation: () =>
    newConversation(true).catch((e) => {
      setStatus(e.message);
    }),
};

const views = {
  conversation: conversation.mount(document.getElementById("view-conversation"), ctx),
  activity: activity.mount(document.getElementById("view-activity"), ctx),
  topology: topology.mount(document.getElementById("view-topology"), ctx),
};

const statusEl = document.getElementById("status");
const banner = document.getElementById("banner");
const liveEl = document.getElementById("live-state");
function setStatus(text) {
  if (statusEl.textContent !== text) statusEl.textContent = text;
}

let lastStream = null;
let lastError = null;
let lastTruncated = false;
function drawChrome() {
  const open = state.stream === "open";
  const wasOpen = everOpen;
  if (open) everOpen = true;
  const down = !open && (everOpen || Date.now() - started > BANNER_GRACE_MS);
  const bannerText = down ? "Live view disconnected. Reconnecting…" : "";
  if (banner.textContent !== bannerText) banner.textContent = bannerText;
  banner.classList.toggle("on", down);
  liveEl.textContent = open ? "● Live" : "○ Not live";
  liveEl.className = `live ${open ? "is-live" : "not-live"}`;
  if (lastStream !== state.stream) {
    if (open && lastStream === "reconnecting" && wasOpen) setStatus("Live view reconnected.");
    lastStream = state.stream;
  }
  if (state.streamError && state.streamError !== lastError) setStatus(state.streamError);
  lastError = state.streamError;
  if (state.truncated && !lastTruncated) setStatus("Older history was dropped: the page shows what the server still keeps.");
  lastTruncated = state.truncated;
}

function draw() {
  scheduled = false;
  drawChrome();
  if (current && views[current].draw(state)) requestDraw();
}

startRouter(document.querySelector("nav"), (route) => {
  for (const name of Object.keys(views)) document.getElementById(`view-${name}`).hidden = name !== route.view;
  current = route.view;
  requestDraw();
});

setInterval(() => dispatch({ type: "tick", now: Date.now() }), TICK_MS);
setTimeout(requestDraw, BANNER_GRACE_MS + 50);
connect(dispatch);
