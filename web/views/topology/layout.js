// The switchboard's geometry: the drawing's size, the fixed slots (Student left, Hub
// centre, specialists right), the links between them with one lane per direction, and
// where a link's label and an agent's model box sit. Pure: numbers in, numbers out.
import { AGENTS, SPECIALISTS } from "../../vocab.js";

export const W = 1080;
export const H = 480;
export const NODE_W = 172;
export const NODE_H = 92;
const LANE = 7; // half the gap between the two lanes of a link
/** The Student's and the Hub's centres. */
export const FIXED = { [AGENTS.student]: [100, 270], [AGENTS.hub]: [470, 270] };
/** The right-hand slots: the built-in specialists' (`SPECIALISTS`, in order: the Tutor
 *  above, the Library below, the Professor level with the Hub). */
export const RIGHT = [[860, 110], [860, 420], [860, 270]];

/** The specialists to draw: the built-in ones always, and any other agent the monitor reports. */
export function specialistsOf(monitor) {
  const ids = new Set(SPECIALISTS);
  for (const id of Object.keys(monitor?.agents || {})) if (id !== AGENTS.student && id !== AGENTS.hub) ids.add(id);
  return [...ids].sort();
}

/** Each agent's centre: the fixed slots; a built-in specialist its own right-hand slot, the
 *  others the free ones in the order given, then down the right. */
export function slots(specialists) {
  const pos = { ...FIXED };
  const free = RIGHT.filter((_, i) => !specialists.includes(SPECIALISTS[i]));
  let extra = 0;
  for (const id of specialists) {
    const own = SPECIALISTS.indexOf(id);
    pos[id] = own >= 0 ? RIGHT[own] : free.shift() || [860, Math.min(H - 50, 60 + 110 * extra++)];
  }
  return pos;
}

function edge(c, u) {
  const tx = u[0] ? NODE_W / 2 / Math.abs(u[0]) : Infinity;
  const ty = u[1] ? NODE_H / 2 / Math.abs(u[1]) : Infinity;
  return Math.min(tx, ty);
}

/** Lane geometry of a link between a (left) and b (right). */
export function geometry(a, b) {
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

/** An SVG points attribute. */
export const pts = (list) => list.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");

/** [id, from, to] of every link: Student↔Hub, then Hub↔each specialist. */
export function linkIds(specialists) {
  const { student, hub } = AGENTS;
  return [[`${student}-${hub}`, student, hub], ...specialists.map((id) => [`${hub}-${id}`, hub, id])];
}

/** The centre of a link's label, from its geometry. */
export function labelSpot(g) {
  // the label sits on the side away from the graph's middle row (above for a level link)
  const away = g.mid[1] > FIXED.hub[1] + 1 ? -1 : 1;
  const gap = Math.abs(g.n[1]) > 0.99 ? NODE_H / 2 + 20 : 30; // a level link: above the nodes
  const lx = g.mid[0] + g.n[0] * gap * away;
  const ly = g.mid[1] + g.n[1] * gap * away;
  return [lx, ly];
}

/** Where the agent's own model box sits (its centre) and the dashed line to it, for an
 *  agent centred at (x, y): above for Student and Hub, right of specialists. */
export function modeSpot(id, x, y) {
  const side = id === AGENTS.student || id === AGENTS.hub;
  const mx = side ? x : x + NODE_W / 2 + 62;
  const my = side ? y - NODE_H / 2 - 62 : y;
  const line = {
    x1: side ? x : x + NODE_W / 2,
    y1: side ? y - NODE_H / 2 : y,
    x2: side ? mx : mx - 52,
    y2: side ? my + 16 : my,
  };
  return { mx, my, line };
}
