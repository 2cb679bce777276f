// The monitor channel's slice of the reducer: the agents' state and patches, console
// lines, labelled topology events (the list, the traces, the live queue), and the tick
// that plays queued pulses on their links in agent-timestamp order and ends them.
import { LIMITS, PLAY_DELAY_MS, PULSE_MS, CONSOLES, last, pushRing } from "./bounds.js";
import { patched, setOpen } from "./common.js";

export function monitorEvent(state, ev, live, now, lane) {
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
      const consoles = { ...state.consoles, [agent]: pushRing(state.consoles[agent], line, LIMITS.console) };
      // a composed answer's record (what was composed, each check, the facts): the inspector's
      const record = c.details?.inspector;
      if (!record || typeof record !== "object" || Array.isArray(record)) return { ...state, consoles };
      const inspection = { id: ev.messageId, ts: c.ts, agent, relayedFrom: c.relayedFrom, outcome: c.details.outcome, ...record };
      return { ...state, consoles, inspections: last([...state.inspections, inspection], LIMITS.inspections) };
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
export function tick(state, now) {
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
