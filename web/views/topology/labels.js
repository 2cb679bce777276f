// What the topology reads from the state and how it says it: agents' colours and status
// words, link rates and states, heartbeats, event lines, short trace ids, and which
// events are shown (newest first, heartbeats only when asked for). No DOM here.
import { duration, agentName } from "../../dom.js";
import { AGENTS } from "../../vocab.js";

// the same colours as style.css's --student, --hub, … (SVG attributes can't read those)
const COLORS = {
  [AGENTS.student]: "#1f5fbf",
  [AGENTS.hub]: "#6b3fa0",
  [AGENTS.tutor]: "#0f7b5f",
  [AGENTS.library]: "#a3520f",
  [AGENTS.professor]: "#b0245e",
};
const OTHER = "#595959";
export const STATUS = {
  ready: ["✓", "Ready", "ok"],
  stale: ["⚠", "Stale", "warn"],
  unreachable: ["✕", "Unreachable", "bad"],
  disconnected: ["✕", "Disconnected", "bad"],
  disabled: ["⊘", "Disabled", "off"],
  invalid_card: ["⚠", "Invalid card", "bad"],
  unknown: ["?", "Unknown", "off"],
};
const CATEGORY = { question: "question", answer: "answer", registration: "registration", card: "Agent Card", heartbeat: "heartbeat", form: "form" };
const PHASE = { sent: "sent", received: "received", working: "working", result: "result returned", failed: "failed", unknown: "outcome unknown" };
const RECENT_FAIL_MS = 60_000;

/** An agent's colour (a grey for agents without one). */
export const color = (id) => COLORS[id] || OTHER;
/** A trace id as people read it: its last 8 characters (the random part of a UUIDv7). */
export const shortTrace = (t) => (t.length > 12 ? `…${t.slice(-8)}` : t);
const TRACE_WORDS = 6;
/** The first few words of a question, with "…" when there were more. */
export function firstWords(text) {
  const words = text.trim().split(/\s+/);
  return words.length > TRACE_WORDS ? `${words.slice(0, TRACE_WORDS).join(" ")}…` : words.join(" ");
}

/** The last `n` events, newest first by the agents' own timestamps (they arrive in another order). */
export const newest = (events, n) =>
  events
    .slice(-n)
    .map((e, i) => [e, i])
    .sort((a, b) => (b[0].ts ?? 0) - (a[0].ts ?? 0) || b[1] - a[1])
    .map(([e]) => e);
/** [icon, word, tone] of an agent status. */
export const statusOf = (st) => STATUS[st] || STATUS.unknown;

export function rateText(link, live) {
  if (!live) return "rate unknown · p50 unknown";
  const per = link?.perMin ?? 0;
  const p50 = link?.p50Ms;
  const win = link?.window ?? 60;
  return `${per}/min · p50 ${typeof p50 === "number" ? duration(p50) : "n/a"} · ${win} s`;
}

/** unknown (stream not open) | failed (in the last minute) | active | idle */
export function linkState(state, id, live) {
  if (!live) return "unknown";
  const failed = state.events.some(
    (e) => e.link === id && (e.phase === "failed" || e.phase === "unknown") && state.now - (e.ts ?? 0) < RECENT_FAIL_MS,
  );
  if (failed) return "failed";
  return (state.monitor?.links?.[id]?.perMin ?? 0) > 0 ? "active" : "idle";
}

/** What the monitor says of an agent, with a status always set (the Hub's own as a fallback).
 *  With the page's stream closed (`live` false) nothing says how any agent is now: every
 *  status is unknown, never the last one heard, and nothing is in flight that anyone knows of. */
export function agentInfo(state, id, live = true) {
  const a = state.monitor?.agents?.[id] || {};
  if (!live) return { ...a, status: "unknown", heartbeatAt: null, inFlight: null };
  const st = a.status || (id === AGENTS.hub ? state.monitor?.hub?.status : null) || "unknown";
  return { ...a, status: st };
}

/** "N in flight" when the agent reported it, else nothing (an unknown count is left out). */
export const inFlightText = (a) => (typeof a.inFlight === "number" ? `${a.inFlight} in flight` : "");

export function heartbeatText(a, now) {
  if (typeof a.heartbeatAt !== "number") return a.status === "unknown" ? "heartbeat unknown" : "no heartbeat";
  const age = Math.max(0, Math.round((now - a.heartbeatAt) / 1000));
  return `♥ ${age} s ago`;
}

export function eventText(e) {
  const cat = CATEGORY[e.category] || e.category || "event";
  const phase = PHASE[e.phase] || e.phase || "";
  const count = e.count > 1 ? ` ×${e.count}` : "";
  return `${agentName(e.from)} → ${agentName(e.to)} · ${cat} ${phase}${count}`;
}

/** The events shown: all, or all but heartbeats. */
export function visibleEvents(src, prefs) {
  return src.events.filter((e) => prefs.showHeartbeats || e.category !== "heartbeat");
}

/** The links the highlighted trace passed over, or null when no trace is highlighted. */
export function traceLinks(state) {
  const t = state.prefs.trace;
  if (!t) return null;
  return new Set(state.events.filter((e) => e.traceId === t).map((e) => e.link));
}
