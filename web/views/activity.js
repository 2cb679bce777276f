// Agent activity: one console per agent (Student, Hub, Tutor, Library) from the monitor
// channel's console entries. Each console is role=log, aria-live=off (four live logs
// would talk over each other), focusable and labelled so it scrolls by keyboard.
// Lines are appended as they come; each console keeps at most LIMITS.console lines.
import { h, replace, clock, agentName } from "../dom.js";
import { CONSOLES, LIMITS } from "../store.js";

const FOLLOW_SLACK_PX = 24;
const DETAILS_MAX = 300;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An event's data as "key=value · …": ids shortened to their last 8 characters (the
 *  random part), nested values as compact JSON, the whole capped. */
function detailsText(details) {
  if (details === undefined || details === null) return "";
  if (typeof details !== "object") return String(details).slice(0, DETAILS_MAX);
  const parts = [];
  for (const [k, v] of Object.entries(details)) {
    let text;
    if (typeof v === "string") text = UUID.test(v) ? `…${v.slice(-8)}` : v;
    else {
      try {
        text = JSON.stringify(v);
      } catch {
        continue;
      }
    }
    parts.push(`${k}=${text}`);
  }
  const text = parts.join(" · ");
  return text.length > DETAILS_MAX ? `${text.slice(0, DETAILS_MAX)}…` : text;
}

function lineNode(entry) {
  const counts =
    entry.kind === "coalesced" && entry.counts
      ? Object.entries(entry.counts)
          .map(([k, n]) => `${k} ×${n}`)
          .join(", ")
      : "";
  const summary = counts ? `${entry.summary ? `${entry.summary} · ` : ""}${counts}` : entry.summary || "";
  const details = detailsText(entry.details);
  return h(
    "div",
    { class: `line kind-${String(entry.kind || "").replace(/[^a-z0-9_-]/gi, "")}` },
    h("span", { class: "ts" }, clock(entry.ts)),
    h("span", { class: "kind" }, entry.kind || ""),
    h("span", { class: "sum" }, summary),
    entry.relayedFrom ? h("span", { class: "via" }, "relayed by the Hub") : null,
    details ? h("span", { class: "line-details" }, details) : null,
  );
}

export function mount(section) {
  const consoles = {};
  const grid = h("div", { class: "consoles" });
  for (const agent of CONSOLES) {
    const titleId = `console-${agent}-title`;
    const log = h("div", {
      class: "console-log",
      role: "log",
      "aria-live": "off",
      tabindex: "0",
      "aria-labelledby": titleId,
      id: `console-${agent}`,
    });
    const count = h("span", { class: "console-count" });
    const empty = h("p", { class: "console-empty" }, "Nothing yet.");
    grid.append(
      h(
        "section",
        { class: `console tone-${agent}`, "aria-labelledby": titleId },
        h("h2", { id: titleId }, `${agentName(agent)} `, h("span", { class: "visually-hidden" }, "console")),
        count,
        log,
        empty,
      ),
    );
    const c = { log, count, empty, total: 0, follow: true, ring: null };
    log.addEventListener("scroll", () => {
      c.follow = log.scrollTop + log.clientHeight >= log.scrollHeight - FOLLOW_SLACK_PX;
    });
    consoles[agent] = c;
  }
  section.append(
    h("div", { class: "view-head" }, h("h1", { tabindex: "-1" }, "Agent activity")),
    h("p", { class: "lede" }, "What each agent reported, newest at the bottom. The Hub relays the specialists' events with message text removed."),
    grid,
  );

  return {
    draw(state) {
      for (const agent of CONSOLES) {
        const c = consoles[agent];
        const ring = state.consoles[agent];
        if (ring === c.ring) continue;
        const fresh = ring.total - c.total;
        if (fresh < 0 || fresh > ring.items.length || c.ring === null) {
          replace(c.log, ring.items.map(lineNode)); // reset, or more new lines than kept
        } else {
          for (const entry of ring.items.slice(ring.items.length - fresh)) c.log.append(lineNode(entry));
          while (c.log.childElementCount > LIMITS.console) c.log.firstElementChild.remove();
        }
        c.ring = ring;
        c.total = ring.total;
        c.empty.hidden = ring.items.length > 0;
        c.count.textContent = ring.total === 1 ? "1 event" : `${ring.total} events`;
        if (c.follow) c.log.scrollTop = c.log.scrollHeight;
      }
    },
  };
}
