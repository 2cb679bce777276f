// Agent activity: one console per agent (Student, Hub, Tutor, Library, Professor) from the
// monitor channel's console entries. Each console is role=log, aria-live=off (five live logs
// would talk over each other), focusable and labelled so it scrolls by keyboard.
// Lines are appended as they come; each console keeps at most LIMITS.console lines.
// Below them, the generated-UI inspector: each composed loan answer in three parts — what
// was composed (structure only: types, ids, bindings, actions, ranges; the words read
// "[N chars redacted]" unless the agents run with HUB_TELEMETRY_SHOW_CONTENT=1), the
// application's checks (catalog, version, each attempt and its errors, the surface and
// its revision) and the loan service's facts it rests on. No prompt, key or reasoning
// reaches the page: the agent never sends them.
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

/** A composition's JSON text, indented (as it came when it does not read). */
function pretty(text) {
  if (typeof text !== "string") return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Whether a record's words came through (HUB_TELEMETRY_SHOW_CONTENT=1), not redacted. */
const shownInFull = (content) => typeof content === "string" && content.startsWith("[{");

const WHO = { live: "composed by the model", offline: "composed by the offline rules (no model)" };

/** One inspector record as a disclosure: its summary line, then the three parts. */
function inspectionNode(r) {
  const attempts = Array.isArray(r.attempts) ? r.attempts : [];
  const repairs = Number.isInteger(r.repairs) ? r.repairs : 0;
  const passed = r.decision && r.decision !== "none passed";
  const verdict = passed ? `${r.decision} passed` : "no composition passed: answered in words";
  const head = `${clock(r.ts)} · ${agentName(r.agent)} · ${verdict}, ${repairs === 1 ? "1 repair" : `${repairs} repairs`}`;
  const attemptItems = attempts.map((a) => {
    const errors = Array.isArray(a.errors) ? a.errors : [];
    const said = errors.length ? errors.map((e) => `${e.code} at ${e.path || "/"}: ${e.message}`).join("; ") : "passed every check";
    return h("li", null, `Attempt ${a.attempt}: ${said}`);
  });
  const facts = Array.isArray(r.facts) ? r.facts : [];
  const factRows = facts.map((f) =>
    h(
      "tr",
      null,
      h("td", null, String(f.loanId)),
      h("td", null, String(f.due)),
      h("td", null, f.renewable === true ? "renewable" : `not renewable (${f.renewable})`),
      h("td", null, f.range ? `${f.range.min} to ${f.range.max}` : "none"),
      h("td", null, String(f.version)),
    ),
  );
  const surface = r.surface && typeof r.surface === "object" ? `surface ${r.surface.surfaceId}, revision ${r.surface.revision}, by ${agentName(r.surface.agent)}` : "no surface (answered in words)";
  return h(
    "details",
    { class: "inspection", "data-inspection": r.id },
    h("summary", null, head),
    h("h3", null, "Model output"),
    h("p", null, `${WHO[r.composer] || r.composer}; decision: ${r.decision}.`),
    r.structure ? h("pre", { class: "inspection-structure", tabindex: "0", "aria-label": "the composed surface's structure" }, pretty(r.structure)) : null,
    // the words too, only when the agents were started to show content
    shownInFull(r.content) ? h("pre", { class: "inspection-structure", tabindex: "0", "aria-label": "the composed surface in full" }, pretty(r.content)) : null,
    h("h3", null, "Application validation"),
    h("p", null, `Catalog ${r.catalog}, A2UI ${r.version}; ${surface}.`),
    h("ol", { class: "inspection-attempts" }, ...attemptItems),
    h("h3", null, "Backend facts"),
    h(
      "table",
      { class: "inspection-facts" },
      h("caption", null, "The loan service's facts this answer rests on"),
      h("thead", null, h("tr", null, ...["Loan", "Due", "Renewable", "Permitted return dates", "Version"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", null, ...factRows),
    ),
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
  const inspectorList = h("div", { class: "inspections" });
  const inspectorEmpty = h("p", { class: "console-empty" }, "No generated interface yet: ask the Library about your loans.");
  section.append(
    h(
      "section",
      { class: "inspector", "aria-labelledby": "inspector-title" },
      h("h2", { id: "inspector-title" }, "Generated UI inspector"),
      h("p", { class: "lede" }, "Each composed loan answer: what was composed (its words redacted unless the agents run with HUB_TELEMETRY_SHOW_CONTENT=1), every check it went through, and the loan service's facts behind it."),
      inspectorEmpty,
      inspectorList,
    ),
  );
  let drawnInspections = null;

  return {
    draw(state) {
      if (state.inspections !== drawnInspections) {
        drawnInspections = state.inspections;
        // newest first, the newest open
        const nodes = [...state.inspections].reverse().map(inspectionNode);
        if (nodes[0]) nodes[0].open = true;
        replace(inspectorList, nodes);
        inspectorEmpty.hidden = state.inspections.length > 0;
      }
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
