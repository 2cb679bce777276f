// Topology: an SVG switchboard of the agents as the monitor channel reports them.
// Fixed slots (Student left, Hub centre, specialists right), one lane per direction,
// no Student↔specialist line. Pulses only for labelled events, coloured by sender,
// played in agent-timestamp order (the store's tick). Nodes and links are buttons that
// open a details panel; "Show as list" is the readable alternative. Pause freezes what
// is drawn; Reduce motion turns moving pulses into a brief static highlight.
// The geometry, the words, the pulses' shapes, the list and the details panel's content
// are in views/topology/; this file builds the view and draws it.
import { h, s, replace, agentName } from "../dom.js";
import { W, H, NODE_W, NODE_H, specialistsOf, slots, geometry, pts, linkIds, labelSpot, modeSpot } from "./topology/layout.js";
import { color, shortTrace, firstWords, statusOf, rateText, linkState, agentInfo, inFlightText, heartbeatText, traceLinks } from "./topology/labels.js";
import { pulseShapes } from "./topology/pulses.js";
import { listView } from "./topology/list.js";
import { detailsContent } from "./topology/details.js";
import { AGENTS, SPECIALISTS } from "../vocab.js";

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
      ...[AGENTS.student, AGENTS.hub, ...SPECIALISTS].map((id) => h("li", {}, h("span", { class: `swatch tone-${id}`, "aria-hidden": "true" }), agentName(id))),
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

  let focusDetails = false; // Enter or a click chose a node or link: its details take the focus once drawn
  function select(kind, id, el) {
    opener = el;
    focusDetails = true;
    set("selected", { kind, id });
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
      const [lx, ly] = labelSpot(g);
      const labelBg = s("rect", { class: "label-bg", x: lx - 110, y: ly - 13, width: 220, height: 22, rx: 4 });
      const label = s("text", { class: "link-label", x: lx, y: ly + 3, "text-anchor": "middle" });
      const el = s("g", { class: "link", role: "button", tabindex: "0", "data-link": id }, hit, fwd, back, ring, labelBg, label);
      activate(el, "link", id);
      linkLayer.append(el);
      links[id] = { el, label, labelBg, lx, g, a, b };
    }
    for (const id of [AGENTS.student, AGENTS.hub, ...specialists]) {
      const [x, y] = pos[id];
      const name = s("text", { class: "node-name", x, y: y - 22, "text-anchor": "middle" }, `${agentName(id)} `);
      const status = s("text", { class: "node-status", x, y: y + 2, "text-anchor": "middle" });
      const stat = s("text", { class: "node-stat", x, y: y + 24, "text-anchor": "middle" });
      const box = s("rect", { class: "node-box", x: x - NODE_W / 2, y: y - NODE_H / 2, width: NODE_W, height: NODE_H, rx: 10, stroke: color(id) });
      const band = s("rect", { class: "node-band", x: x - NODE_W / 2, y: y - NODE_H / 2, width: 8, height: NODE_H, rx: 3, fill: color(id) });
      const ring = s("rect", { class: "focus-ring", x: x - NODE_W / 2 - 5, y: y - NODE_H / 2 - 5, width: NODE_W + 10, height: NODE_H + 10, rx: 13 });
      // the agent's own model: a small box on a dashed line (above for Student and Hub, right of specialists)
      const { mx, my, line } = modeSpot(id, x, y);
      const modeLine = s("line", { class: "mode-line", ...line });
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

  function drawGraph(src, live, prefs) {
    const specialists = specialistsOf(src.monitor);
    if (!built || built.key !== specialists.join(",")) built = build(specialists);
    const inTrace = traceLinks({ ...src, prefs });
    for (const [id, n] of Object.entries(built.nodes)) {
      const a = agentInfo(src, id, live);
      const [icon, word, tone] = statusOf(a.status);
      // trailing space: the node's text reads as separate words when joined (Label in Name)
      const statusText = `${icon} ${word} `;
      if (n.status.textContent !== statusText) n.status.textContent = statusText;
      n.status.setAttribute("class", `node-status st-${tone}`);
      // the count in flight only when the agent reported one: an unknown count is left out
      const stat = [heartbeatText(a, src.now || Date.now()), inFlightText(a)].filter(Boolean).join(" · ");
      if (n.stat.textContent !== stat) n.stat.textContent = stat;
      // the name starts with the visible text (2.5.3 Label in Name), then what the icons mean
      n.el.setAttribute("aria-label", `${agentName(id)} ${statusText}${stat} (status ${word}${live ? "" : ", this page is not connected to its server"}${a.mode ? `, model mode ${a.mode}` : ""}${a.model ? `, model ${a.model}` : ""})`);
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
        out.push(...pulseShapes(p, l, prefs, now));
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
    // keyed by the labels too: a question's words that arrive after its trace relabel it
    const labels = [...traces].reverse().map((t) => [t, traceLabel(state, t)]);
    const want = JSON.stringify(labels);
    if (traceSel.dataset.options !== want) {
      replace(traceSel, h("option", { value: "" }, "None"), ...labels.map(([t, label]) => h("option", { value: t }, label)));
      traceSel.dataset.options = want;
    }
    traceSel.value = p.trace && traces.includes(p.trace) ? p.trace : "";
  }

  // the question a trace (its request id) carried, by its first words; the id when this
  // page never saw the question (another window's, or one from before it opened)
  function traceLabel(state, trace) {
    for (const thread of Object.values(state.threads)) {
      for (const run of Object.values(thread.runs || {})) {
        if (run?.requestId === trace && typeof run.question === "string") return `“${firstWords(run.question)}” · ${shortTrace(trace)}`;
      }
    }
    return `trace ${shortTrace(trace)}`;
  }

  function drawList(src, live, prefs) {
    replace(table, listView(src, live, prefs));
  }

  function drawDetails(src, live, prefs) {
    const sel = prefs.selected;
    if (!sel) {
      details.hidden = true;
      lastDetails = "";
      return;
    }
    const key = JSON.stringify([sel, src.events.length && src.events[src.events.length - 1].id, src.monitor, src.now, live, prefs.showHeartbeats]);
    if (key === lastDetails && !details.hidden) {
      if (focusDetails) details.querySelector("h2")?.focus();
      focusDetails = false;
      return;
    }
    lastDetails = key;
    const close = h("button", { type: "button", class: "close" }, "Close details");
    close.addEventListener("click", () => {
      set("selected", null);
      opener?.focus();
    });
    const { heading, body } = detailsContent(sel, src, live, prefs);
    // redrawn every second (the heartbeat's age): the focus inside stays where it was
    const had = details.contains(document.activeElement) ? document.activeElement : null;
    const keep = had?.matches("button.close") ? "button.close" : had ? "h2" : null;
    replace(details, h("div", { class: "details-head" }, h("h2", { id: "topo-details-title", tabindex: "-1" }, heading), close), body);
    details.hidden = false;
    if (keep) details.querySelector(keep)?.focus();
    if (focusDetails) details.querySelector("h2")?.focus();
    focusDetails = false;
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
