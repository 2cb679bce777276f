// The topology as tables ("Show as list", the readable alternative to the drawing): the
// connections, the agents and the recent events, newest first. Text only as text nodes.
import { h, clock, duration, agentName } from "../../dom.js";
import { specialistsOf, linkIds } from "./layout.js";
import { linkState, agentInfo, statusOf, heartbeatText, eventText, newest, visibleEvents, shortTrace } from "./labels.js";
import { AGENTS } from "../../vocab.js";

const LIST_MAX = 60;

/** The list view's children: the connections table, the agents table and the events. */
export function listView(src, live, prefs) {
  const specialists = specialistsOf(src.monitor);
  const rows = linkIds(specialists).map(([id, a, b]) => {
    const link = src.monitor?.links?.[id];
    const st = linkState(src, id, live);
    const p50 = link?.p50Ms;
    return h(
      "tr",
      {},
      h("td", {}, agentName(a)),
      h("td", {}, agentName(b)),
      h("td", {}, live ? String(link?.perMin ?? 0) : "unknown"),
      h("td", {}, live && typeof p50 === "number" ? duration(p50) : live ? "n/a" : "unknown"),
      h("td", {}, st),
    );
  });
  const agents = [AGENTS.student, AGENTS.hub, ...specialists].map((id) => {
    const a = agentInfo(src, id, live);
    const [icon, word] = statusOf(a.status);
    return h("tr", {}, h("td", {}, agentName(id)), h("td", {}, `${icon} ${word}`), h("td", {}, heartbeatText(a, src.now || Date.now())), h("td", {}, typeof a.inFlight === "number" ? String(a.inFlight) : "–"), h("td", {}, a.mode || "–"), h("td", {}, a.model || (a.mode === "live" ? "unknown" : "–")));
  });
  const evs = newest(visibleEvents(src, prefs), LIST_MAX);
  return [
    h(
      "table",
      {},
      h("caption", {}, "Connections (last minute)"),
      h("thead", {}, h("tr", {}, ...["From", "To", "Messages per minute", "p50 latency", "Status"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows),
    ),
    h(
      "table",
      {},
      h("caption", {}, "Agents"),
      h("thead", {}, h("tr", {}, ...["Agent", "Status", "Heartbeat", "In flight", "Model mode", "Model"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, agents),
    ),
    h("h2", { id: "topo-events-title" }, "Recent events, newest first"),
    evs.length
      ? h("ol", { class: "event-list", "aria-labelledby": "topo-events-title", tabindex: "0" }, evs.map((e) => h("li", {}, h("span", { class: "ts" }, clock(e.ts)), " ", eventText(e), e.traceId ? ` · trace ${shortTrace(e.traceId)}` : "")))
      : h("p", {}, "No events yet."),
  ];
}
