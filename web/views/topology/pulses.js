// A playing pulse at a moment: which lane it is on, how far along (PULSE_MS from start
// to end), where it is drawn, and its SVG shapes. Sent and result pulses travel their
// lane; received and working mark the receiving end; a failure or an unknown outcome
// sits mid-lane with ✕ or ?. Reduce motion draws a brief static highlight instead.
import { s } from "../../dom.js";
import { PULSE_MS } from "../../store.js";
import { color } from "./labels.js";

/** Where pulse `p` on link `l` ({a, g}) is drawn at `now`: {p0, p1, t, x, y, bad, travels}. */
export function pulseSpot(p, l, now, reduceMotion) {
  const forward = p.from === l.a;
  const [p0, p1] = forward ? l.g.fwd : l.g.back;
  const t = Math.min(1, Math.max(0, (now - p.playAt) / PULSE_MS));
  const bad = p.phase === "failed" || p.phase === "unknown";
  // sent/result travel the lane; received/working mark the receiving end; a failure or
  // an unknown outcome sits mid-lane with ✕ or ?
  const travels = p.phase === "sent" || p.phase === "result";
  let x = p1[0];
  let y = p1[1];
  if (bad) {
    x = (p0[0] + p1[0]) / 2;
    y = (p0[1] + p1[1]) / 2;
  } else if (travels && !reduceMotion) {
    x = p0[0] + (p1[0] - p0[0]) * t;
    y = p0[1] + (p1[1] - p0[1]) * t;
  }
  return { p0, p1, t, x, y, bad, travels };
}

/** The SVG shapes of pulse `p` on link `l` at `now`, in drawing order. */
export function pulseShapes(p, l, prefs, now) {
  const out = [];
  const { p0, p1, t, x, y, bad, travels } = pulseSpot(p, l, now, prefs.reduceMotion);
  const c = color(p.sender || p.from);
  const r = p.count > 1 ? 9 : 7;
  const cls = bad ? "dot bad" : "dot";
  if (prefs.reduceMotion && travels) out.push(s("line", { class: "flash", x1: p0[0], y1: p0[1], x2: p1[0], y2: p1[1], stroke: c }));
  if (!travels && !bad && !prefs.reduceMotion) out.push(s("circle", { cx: x, cy: y, r: r + 10 * t, class: "ring", stroke: c }));
  out.push(s("circle", { cx: x, cy: y, r, fill: c, class: cls }));
  if (bad) out.push(s("text", { x, y: y - 12, class: "dot-mark", "text-anchor": "middle" }, p.phase === "failed" ? "✕" : "?"));
  if (p.count > 1) out.push(s("text", { x, y: y + 22, class: "dot-count", "text-anchor": "middle" }, `×${p.count}`));
  return out;
}
