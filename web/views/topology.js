// Topology: an SVG switchboard of the agents as the monitor channel reports them.
// Fixed slots (Student left, Hub centre, specialists right), one lane per direction,
// no Student↔specialist line. Pulses only for labelled events, coloured by sender,
// played in agent-timestamp order (the store's tick). Nodes and links are buttons that
// open a details panel; "Show as list" is the readable alternative. Pause freezes what
// is drawn; Reduce motion turns moving pulses into a brief static highlight.
import { h, s, replace, clock, duration, agentName } from "../dom.js";
import { PULSE_MS } from "../store.js";

const W = 1080;
const H = 480;
const NODE_W = 172;
const NODE_H = 92;
const LANE = 7; // half the gap between the two lanes of a link
const COLORS = {
  student: "#1f5fbf",
  hub: "#6b3fa0",
  tutor: "#0f7b5f",
  library: "#a3520f",
  professor: "#8f2d56",
};
const OTHER = "#595959";
const STATUS = {
  ready: ["✓", "Ready", "ok"],
  stale: ["⚠", "Stale", "warn"],
  unreachable: ["✕", "Unreachable", "bad"],
  disconnected: ["✕", "Disconnected", "bad"],
  disabled: ["⊘", "Disabled", "off"],
  invalid_card: ["⚠", "Invalid card", "bad"],
  unknown: ["?", "Unknown", "off"],
};
const FIXED = { student: [100, 270], hub: [470, 270], tutor: [860, 110], library: [860, 420], professor: [860, 270] };
const CATEGORY = { question: "question", answer: "answer", registration: "registration", card: "Agent Card", heartbeat: "heartbeat", form: "form" };
const PHASE = { sent: "sent", received: "received", working: "working", result: "result returned", failed: "failed", unknown: "outcome unknown" };
const LIST_MAX = 60;
const RECENT_FAIL_MS = 60_000;

const color = (id) => COLORS[id] || OTHER;
/** A trace id as people read it: its last 8 characters (the random part of a UUIDv7). */
const shortTrace = (t) => (t.length > 12 ? `…${t.slice(-8)}` : t);
/** The last `n` events, newest first by the agents' own timestamps (they arrive in another order). */
const newest = (events, n) =>
  events
    .slice(-n)
    .map((e, i) => [e, i])
    .sort((a, b) => (b[0].ts ?? 0) - (a[0].ts ?? 0) || b[1] - a[1])
    .map(([e]) => e);
const statusOf = (st) => STATUS[st] || STATUS.unknown;

function specialistsOf(monitor) {
  const ids = new Set(["tutor", "library"]);
  for (const id of Object.keys(monitor?.agents || {})) if (id !== "student" && id !== "hub") ids.add(id);
  return [...ids].sort();
}

function slots(specialists) {
  const pos = { student: FIXED.student, hub: FIXED.hub };
  let extra = 0;
  for (const id of specialists) {
    pos[id] = FIXED[id] || [860, Math.min(H - 50, 60 + 110 * extra++)];
  }
  return pos;
}

function edge(c, u) {
  const tx = u[0] ? NODE_W / 2 / Math.abs(u[0]) : Infinity;
  const ty = u[1] ? NODE_H / 2 / Math.abs(u[1]) : Infinity;
  return Math.min(tx, ty);
}

/** Lane geometry of a link between a (left) and b (right). */
function geometry(a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy);
  const u = [dx / len, dy / len];
  const n = [u[1], -u[0]]; // points "up" for a left-to-right link
  const ta = edge(a, u) + 8;
  const tb = edge(b, u) + 8;
  const start = [a[0] + u[0] * ta, a[1] + u[1] * ta];
  const end = [b[0] - u[0] * tb, b[1] - u[1] * tb];
  const off = (p, k) => [p[0] + n[0] * k, p[1] + n[1] * k];
  return {
    fwd: [off(start, -LANE), off(end, -LANE)], // a → b, upper lane
    back: [off(end, LANE), off(start, LANE)], // b → a, lower lane
    ring: [off(start, -16), off(end, -16), off(end, 16), off(start, 16)],
    mid: [(start[0] + end[0]) / 2, (start[1] + end[1]) / 2],
    n,
  };
}

const pts = (list) => list.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");

function linkIds(specialists) {
  return [["student-hub", "student", "hub"], ...specialists.map((id) => [`hub-${id}`, "hub", id])];
}

function rateText(link, live) {
  if (!live) return "rate unknown · p50 unknown";
  const per = link?.perMin ?? 0;
  const p50 = link?.p50Ms;
  const win = link?.window ?? 60;
  return `${per}/min · p50 ${typeof p50 === "number" ? duration(p50) : "n/a"} · ${win} s`;
}

function linkState(state, id, live) {
  if (!live) return "unknown";
  const failed = state.events.some(
    (e) => e.link === id && (e.phase === "failed" || e.phase === "unknown") && state.now - (e.ts ?? 0) < RECENT_FAIL_MS,
  );
  if (failed) return "failed";
  return (state.monitor?.links?.[id]?.perMin ?? 0) > 0 ? "active" : "idle";
}

function agentInfo(state, id) {
  const a = state.monitor?.agents?.[id] || {};
  const st = a.status || (id === "hub" ? state.monitor?.hub?.status : null) || "unknown";
  return { ...a, status: st };
}

function heartbeatText(a, now) {
  if (typeof a.heartbeatAt !== "number") return "no heartbeat";
  const age = Math.max(0, Math.round((now - a.heartbeatAt) / 1000));
  return `♥ ${age} s ago`;
}

function eventText(e) {
  const cat = CATEGORY[e.category] || e.category || "event";
  const phase = PHASE[e.phase] || e.phase || "";
  const count = e.count > 1 ? ` ×${e.count}` : "";
  return `${agentName(e.from)} → ${agentName(e.to)} · ${cat} ${phase}${count}`;
}

export function mount(section, ctx) {
  const reduced = matchMedia("(prefers-reduced-motion: reduce)");
  const pause = h("button", { type: "button", "aria-pressed": "false", id: "topo-pause" }, "Pause");
  const motion = h("button", { type: "button", "aria-pressed": "false", id: "topo-motion" }, "Reduce motion");
  const listBtn = h("button", { type: "button", "aria-pressed": "false", id: "topo-list-toggle" }, "Show as list");
  const hbBox = h("input", { type: "checkbox", id: "topo-heartbeats" });
  const traceSel = h("select", { id: "topo-trace" });
  const controls = h(
    "div",
    { class: "topo-controls", role: "group", "aria-label": "Topology controls" },
    pause,
    motion,
    listBtn,
    h("label", { class: "check", for: "topo-heartbeats" }, hbBox, " Show heartbeats"),
    h("label", { for: "topo-trace" }, "Highlight a trace "),
    traceSel,
  );
  const title = s("title", { id: "topo-svg-title" }, "Agent switchboard");
  const desc = s("desc", { id: "topo-svg-desc" }, "The Student talks only to the Hub; the Hub talks to each specialist. Each connection has one lane per direction.");
  const linkLayer = s("g", { class: "links" });
  const nodeLayer = s("g", { class: "nodes" });
  const pulseLayer = s("g", { class: "pulses", "aria-hidden": "true" });
  const svg = s(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, role: "group", "aria-labelledby": "topo-svg-title", "aria-describedby": "topo-svg-desc", class: "topo-svg", id: "topo-svg" },
    title,
    desc,
    linkLayer,
    nodeLayer,
    pulseLayer,
  );
  const graph = h("div", { class: "topo-graph", id: "topo-graph" }, svg);
  const legend = h(
    "div",
    { class: "legend", "aria-label": "Legend", role: "group" },
    h("p", {}, "A pulse travels for a message sent or a result returned, and marks the receiving end when it arrives; its colour is the agent that reported it. Status as the Hub's registry reports it (", h("strong", {}, "? Unknown"), " when nothing did)."),
    h(
      "ul",
      {},
      ...["student", "hub", "tutor", "library"].map((id) => h("li", {}, h("span", { class: `swatch tone-${id}`, "aria-hidden": "true" }), agentName(id))),
      h("li", {}, h("span", { class: "line-sample active", "aria-hidden": "true" }), "busy connection"),
      h("li", {}, h("span", { class: "line-sample idle", "aria-hidden": "true" }), "idle (dashed)"),
      h("li", {}, h("span", { class: "line-sample failed", "aria-hidden": "true" }), "failed in the last minute (red, dashed)"),
    ),
  );
  const details = h("aside", { class: "details", id: "topo-details", "aria-labelledby": "topo-details-title", hidden: true });
  const table = h("div", { class: "topo-list", id: "topo-list", hidden: true });
  section.append(
    h("div", { class: "view-head" }, h("h1", { tabindex: "-1" }, "Topology")),
    controls,
    h("div", { class: "topo-body" }, h("div", { class: "topo-main" }, graph, table, legend), details),
  );

  const set = (key, value) => ctx.dispatch({ type: "pref", key, value });
  ctx.dispatch({ type: "pref", key: "reduceMotion", value: reduced.matches });
  reduced.addEventListener("change", () => set("reduceMotion", reduced.matches));
  pause.addEventListener("click", () => set("paused", !ctx.getState().prefs.paused));
  motion.addEventListener("click", () => set("reduceMotion", !ctx.getState().prefs.reduceMotion));
  listBtn.addEventListener("click", () => set("listView", !ctx.getState().prefs.listView));
  hbBox.addEventListener("change", () => set("showHeartbeats", hbBox.checked));
  traceSel.addEventListener("change", () => set("trace", traceSel.value || null));

  let built = null; // {key, pos, nodes: {id: {g, status, stat}}, links: {id: {...}}}
  let frozen = null;
  let opener = null;
  let lastDetails = "";
  let lastList = null;

  function select(kind, id, el) {
    opener = el;
    set("selected", { kind, id });
    requestAnimationFrame(() => details.querySelector("h2")?.focus());
  }

  details.addEventListener("keydown", (e) => {
    if (e.key === "Escape") details.querySelector("button.close")?.click();
  });

  function activate(el, kind, id) {
    el.addEventListener("click", () => select(kind, id, el));
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        select(kind, id, el);
      }
    });
  }

  function build(specialists) {
    const pos = slots(specialists);
    const nodes = {};
    const links = {};
    replace(linkLayer);
    replace(nodeLayer);
    for (const [id, a, b] of linkIds(specialists)) {
      const g = geometry(pos[a], pos[b]);
      const fwd = s("line", { class: "lane lane-fwd", x1: g.fwd[0][0], y1: g.fwd[0][1], x2: g.fwd[1][0], y2: g.fwd[1][1], "marker-end": "url(#arrow)" });
      const back = s("line", { class: "lane lane-back", x1: g.back[0][0], y1: g.back[0][1], x2: g.back[1][0], y2: g.back[1][1], "marker-end": "url(#arrow)" });
      const hit = s("polygon", { class: "hit", points: pts(g.ring) });
      const ring = s("polygon", { class: "focus-ring", points: pts(g.ring) });
      // the label sits on the side away from the graph's middle row (above for a level link)
      const away = g.mid[1] > FIXED.hub[1] + 1 ? -1 : 1;
      const gap = Math.abs(g.n[1]) > 0.99 ? NODE_H / 2 + 20 : 30; // a level link: above the nodes
      const lx = g.mid[0] + g.n[0] * gap * away;
      const ly = g.mid[1] + g.n[1] * gap * away;
      const labelBg = s("rect", { class: "label-bg", x: lx - 110, y: ly - 13, width: 220, height: 22, rx: 4 });
      const label = s("text", { class: "link-label", x: lx, y: ly + 3, "text-anchor": "middle" });
      const el = s("g", { class: "link", role: "button", tabindex: "0", "data-link": id }, hit, fwd, back, ring, labelBg, label);
      activate(el, "link", id);
      linkLayer.append(el);
      links[id] = { el, label, labelBg, lx, g, a, b };
    }
    for (const id of ["student", "hub", ...specialists]) {
      const [x, y] = pos[id];
      const name = s("text", { class: "node-name", x, y: y - 22, "text-anchor": "middle" }, `${agentName(id)} `);
      const status = s("text", { class: "node-status", x, y: y + 2, "text-anchor": "middle" });
      const stat = s("text", { class: "node-stat", x, y: y + 24, "text-anchor": "middle" });
      const box = s("rect", { class: "node-box", x: x - NODE_W / 2, y: y - NODE_H / 2, width: NODE_W, height: NODE_H, rx: 10, stroke: color(id) });
      const band = s("rect", { class: "node-band", x: x - NODE_W / 2, y: y - NODE_H / 2, width: 8, height: NODE_H, rx: 3, fill: color(id) });
      const ring = s("rect", { class: "focus-ring", x: x - NODE_W / 2 - 5, y: y - NODE_H / 2 - 5, width: NODE_W + 10, height: NODE_H + 10, rx: 13 });
      // the agent's own model: a small box on a dashed line (above for Student and Hub, right of specialists)
      const side = id === "student" || id === "hub";
      const mx = side ? x : x + NODE_W / 2 + 62;
      const my = side ? y - NODE_H / 2 - 62 : y;
      const modeLine = s("line", {
        class: "mode-line",
        x1: side ? x : x + NODE_W / 2,
        y1: side ? y - NODE_H / 2 : y,
        x2: side ? mx : mx - 52,
        y2: side ? my + 16 : my,
      });
      const modeBox = s("rect", { class: "mode-box", x: mx - 52, y: my - 16, width: 104, height: 32, rx: 5 });
      const modeText = s("text", { class: "mode-text", x: mx, y: my + 5, "text-anchor": "middle" });
      const mode = s("g", { class: "mode" }, modeLine, modeBox, modeText);
      const el = s("g", { class: "node", role: "button", tabindex: "0", "data-node": id }, box, band, ring, name, status, stat);
      activate(el, "node", id);
      nodeLayer.append(mode, el);
      nodes[id] = { el, status, stat, mode, modeText };
    }
    linkLayer.prepend(
      s(
        "defs",
        {},
        s("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, s("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow-head" })),
      ),
    );
    return { key: specialists.join(","), pos, nodes, links };
  }

  function traceLinks(state) {
    const t = state.prefs.trace;
    if (!t) return null;
    return new Set(state.events.filter((e) => e.traceId === t).map((e) => e.link));
  }

  function drawGraph(src, live, prefs) {
    const specialists = specialistsOf(src.monitor);
    if (!built || built.key !== specialists.join(",")) built = build(specialists);
    const inTrace = traceLinks({ ...src, prefs });
    for (const [id, n] of Object.entries(built.nodes)) {
      const a = agentInfo(src, id);
      const [icon, word, tone] = statusOf(a.status);
      // trailing space: the node's text reads as separate words when joined (Label in Name)
      const statusText = `${icon} ${word} `;
      if (n.status.textContent !== statusText) n.status.textContent = statusText;
      n.status.setAttribute("class", `node-status st-${tone}`);
      const inflight = typeof a.inFlight === "number" ? `${a.inFlight} in flight` : "? in flight"; // ? = unknown
      const stat = `${heartbeatText(a, src.now || Date.now())} · ${inflight}`;
      if (n.stat.textContent !== stat) n.stat.textContent = stat;
      // the name starts with the visible text (2.5.3 Label in Name), then what the icons mean
      n.el.setAttribute("aria-label", `${agentName(id)} ${statusText}${stat} (status ${word}${typeof a.inFlight === "number" ? "" : ", in flight unknown"}${a.mode ? `, model mode ${a.mode}` : ""}${a.model ? `, model ${a.model}` : ""})`);
      n.mode.style.display = a.mode ? "" : "none";
      n.modeText.textContent = a.mode ? `model: ${a.mode}` : "";
      const sel = prefs.selected?.kind === "node" && prefs.selected.id === id;
      n.el.classList.toggle("selected", sel);
    }
    for (const [id, l] of Object.entries(built.links)) {
      const link = src.monitor?.links?.[id];
      const st = linkState(src, id, live);
      const text = `${rateText(link, live)}${st === "failed" ? " · failed" : ""}`;
      if (l.label.textContent !== text) l.label.textContent = text;
      if (l.fitted !== text) {
        const w = l.label.getComputedTextLength(); // 0 while the view is hidden: fit it later
        if (w > 0) {
          l.labelBg.setAttribute("width", (w + 16).toFixed(1));
          l.labelBg.setAttribute("x", (l.lx - w / 2 - 8).toFixed(1));
          l.fitted = text;
        }
      }
      l.el.setAttribute("class", `link link-${st}${inTrace ? (inTrace.has(id) ? " in-trace" : " dimmed") : ""}${prefs.selected?.kind === "link" && prefs.selected.id === id ? " selected" : ""}`);
      l.el.setAttribute("aria-label", `${text} (${agentName(l.a)} to ${agentName(l.b)} connection, ${st})`);
    }
  }

  const drawnIds = new Set(); // test hook: pulses drawn at least once (bounded)
  let drawnCount = 0;
  function noteDrawn(p, l) {
    if (drawnIds.has(p.id)) return;
    drawnIds.add(p.id);
    if (drawnIds.size > 200) drawnIds.delete(drawnIds.values().next().value);
    drawnCount += 1;
    svg.dataset.pulsesDrawn = String(drawnCount);
    const seen = (l.el.dataset.drawn || "").split(" ").filter(Boolean);
    seen.push(`${p.from}>${p.to}:${p.category}:${p.phase}`);
    l.el.dataset.drawn = seen.slice(-8).join(" ");
  }

  function drawPulses(src, prefs, now) {
    const out = [];
    for (const [link, list] of Object.entries(src.playing || {})) {
      const l = built?.links[link];
      if (!l) continue;
      for (const p of list) {
        if (p.category === "heartbeat" && !prefs.showHeartbeats) continue;
        noteDrawn(p, l);
        const forward = p.from === l.a;
        const [p0, p1] = forward ? l.g.fwd : l.g.back;
        const t = Math.min(1, Math.max(0, (now - p.playAt) / PULSE_MS));
        const bad = p.phase === "failed" || p.phase === "unknown";
        const c = color(p.sender || p.from);
        const r = p.count > 1 ? 9 : 7;
        const cls = bad ? "dot bad" : "dot";
        // sent/result travel the lane; received/working mark the receiving end; a failure or
        // an unknown outcome sits mid-lane with ✕ or ?
        const travels = p.phase === "sent" || p.phase === "result";
        let x = p1[0];
        let y = p1[1];
        if (bad) {
          x = (p0[0] + p1[0]) / 2;
          y = (p0[1] + p1[1]) / 2;
        } else if (travels && !prefs.reduceMotion) {
          x = p0[0] + (p1[0] - p0[0]) * t;
          y = p0[1] + (p1[1] - p0[1]) * t;
        }
        if (prefs.reduceMotion && travels) out.push(s("line", { class: "flash", x1: p0[0], y1: p0[1], x2: p1[0], y2: p1[1], stroke: c }));
        if (!travels && !bad && !prefs.reduceMotion) out.push(s("circle", { cx: x, cy: y, r: r + 10 * t, class: "ring", stroke: c }));
        out.push(s("circle", { cx: x, cy: y, r, fill: c, class: cls }));
        if (bad) out.push(s("text", { x, y: y - 12, class: "dot-mark", "text-anchor": "middle" }, p.phase === "failed" ? "✕" : "?"));
        if (p.count > 1) out.push(s("text", { x, y: y + 22, class: "dot-count", "text-anchor": "middle" }, `×${p.count}`));
      }
    }
    replace(pulseLayer, out);
    return out.length > 0 && !prefs.reduceMotion;
  }

  function drawControls(state) {
    const p = state.prefs;
    pause.setAttribute("aria-pressed", String(p.paused));
    pause.textContent = p.paused ? "Paused" : "Pause";
    motion.setAttribute("aria-pressed", String(p.reduceMotion));
    listBtn.setAttribute("aria-pressed", String(p.listView));
    hbBox.checked = p.showHeartbeats;
    const traces = state.traces;
    const want = ["", ...traces].join("|");
    if (traceSel.dataset.options !== want) {
      replace(traceSel, h("option", { value: "" }, "None"), ...[...traces].reverse().map((t) => h("option", { value: t }, `trace ${shortTrace(t)}`)));
      traceSel.dataset.options = want;
    }
    traceSel.value = p.trace && traces.includes(p.trace) ? p.trace : "";
  }

  function visibleEvents(src, prefs) {
    return src.events.filter((e) => prefs.showHeartbeats || e.category !== "heartbeat");
  }

  function drawList(src, live, prefs) {
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
    const agents = ["student", "hub", ...specialists].map((id) => {
      const a = agentInfo(src, id);
      const [icon, word] = statusOf(a.status);
      return h("tr", {}, h("td", {}, agentName(id)), h("td", {}, `${icon} ${word}`), h("td", {}, heartbeatText(a, src.now || Date.now())), h("td", {}, String(a.inFlight ?? "unknown")), h("td", {}, a.mode || "–"), h("td", {}, a.model || (a.mode === "live" ? "unknown" : "–")));
    });
    const evs = newest(visibleEvents(src, prefs), LIST_MAX);
    replace(
      table,
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
    );
  }

  function drawDetails(src, live, prefs) {
    const sel = prefs.selected;
    if (!sel) {
      details.hidden = true;
      lastDetails = "";
      return;
    }
    const key = JSON.stringify([sel, src.events.length && src.events[src.events.length - 1].id, src.monitor, src.now, live, prefs.showHeartbeats]);
    if (key === lastDetails && !details.hidden) return;
    lastDetails = key;
    const close = h("button", { type: "button", class: "close" }, "Close details");
    close.addEventListener("click", () => {
      set("selected", null);
      opener?.focus();
    });
    const evs = visibleEvents(src, prefs);
    let body;
    let heading;
    if (sel.kind === "node") {
      const a = agentInfo(src, sel.id);
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
          h("dt", {}, "In flight"),
          h("dd", {}, String(a.inFlight ?? "unknown")),
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
    replace(details, h("div", { class: "details-head" }, h("h2", { id: "topo-details-title", tabindex: "-1" }, heading), close), body);
    details.hidden = false;
  }

  return {
    /** Returns true while pulses are moving (the caller draws again next frame). */
    draw(state) {
      const prefs = state.prefs;
      if (prefs.paused && !frozen) frozen = { ...state, frozenAt: Date.now() };
      if (!prefs.paused) frozen = null;
      const src = frozen || state;
      const live = state.stream === "open";
      drawControls(state);
      graph.classList.toggle("disconnected", !live);
      graph.hidden = prefs.listView;
      table.hidden = !prefs.listView;
      section.classList.toggle("reduce-motion", prefs.reduceMotion);
      drawGraph(src, live, prefs);
      const moving = drawPulses(src, prefs, frozen ? frozen.frozenAt : Date.now());
      const listKey = [src.events, src.monitor, src.now, live, prefs.showHeartbeats];
      if (prefs.listView && (!lastList || listKey.some((v, i) => v !== lastList[i]))) {
        drawList(src, live, prefs);
        lastList = listKey;
      }
      drawDetails(src, live, prefs);
      return moving && !frozen;
    },
  };
}
