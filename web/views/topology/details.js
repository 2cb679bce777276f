// The details panel's content for a selected node (an agent's status, heartbeat, load,
// model and recent events) or link (its rate, latency, window and event timeline).
// The panel itself, its close button and focus stay with the view.
import { h, clock, duration, agentName } from "../../dom.js";
import { agentInfo, statusOf, heartbeatText, eventText, newest, visibleEvents, shortTrace } from "./labels.js";

/** {heading, body} of the panel for `sel` ({kind: "node"|"link", id}). */
export function detailsContent(sel, src, live, prefs) {
  const evs = visibleEvents(src, prefs);
  let body;
  let heading;
  if (sel.kind === "node") {
    const a = agentInfo(src, sel.id, live);
    const [icon, word] = statusOf(a.status);
    heading = `${agentName(sel.id)} details`;
    const extra = Object.entries(a).filter(([k]) => !["status", "heartbeatAt", "inFlight", "mode", "model"].includes(k));
    const mine = newest(evs.filter((e) => e.from === sel.id || e.to === sel.id), 15);
    body = [
      h(
        "dl",
        {},
        h("dt", {}, "Status"),
        h("dd", {}, `${icon} ${word}`),
        h("dt", {}, "Heartbeat"),
        h("dd", {}, heartbeatText(a, src.now || Date.now())),
        ...(typeof a.inFlight === "number" ? [h("dt", {}, "In flight"), h("dd", {}, String(a.inFlight))] : []),
        h("dt", {}, "Model mode"),
        h("dd", {}, a.mode || "not reported"),
        h("dt", {}, "Model"),
        h("dd", {}, a.model || (a.mode === "live" ? "unknown" : "none reported")),
        ...extra.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, typeof v === "string" ? v : JSON.stringify(v))]),
      ),
      h("h3", {}, "Recent events"),
      mine.length ? h("ol", { class: "event-list", tabindex: "0", "aria-label": "Recent events" }, mine.map((e) => h("li", {}, `${clock(e.ts)} ${eventText(e)}`))) : h("p", {}, "None yet."),
    ];
  } else {
    const link = src.monitor?.links?.[sel.id];
    const [a, b] = sel.id.split("-");
    heading = `${agentName(a)} ↔ ${agentName(b)} connection`;
    const mine = newest(evs.filter((e) => e.link === sel.id), 20);
    body = [
      h(
        "dl",
        {},
        h("dt", {}, "Messages per minute"),
        h("dd", {}, live ? String(link?.perMin ?? 0) : "unknown"),
        h("dt", {}, "p50 latency"),
        h("dd", {}, live && typeof link?.p50Ms === "number" ? duration(link.p50Ms) : "unknown"),
        h("dt", {}, "Window"),
        h("dd", {}, `${link?.window ?? 60} s`),
      ),
      h("h3", {}, "Event timeline"),
      mine.length ? h("ol", { class: "event-list", tabindex: "0", "aria-label": "Event timeline" }, mine.map((e) => h("li", {}, `${clock(e.ts)} ${eventText(e)}${e.traceId ? ` · trace ${shortTrace(e.traceId)}` : ""}`))) : h("p", {}, "None yet."),
    ];
  }
  return { heading, body };
}
