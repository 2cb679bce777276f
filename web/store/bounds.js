// How much the page's state keeps and how long pulses take: the limits on everything
// that grows with traffic, the pulse timings, the agents with a console, and the
// bounded-list helpers the reducer uses to stay within them.
import { AGENTS, SPECIALISTS } from "../vocab.js";

export const LIMITS = {
  chat: 200, // chat items kept across all threads
  console: 500, // lines per agent console
  events: 200, // recent topology events (list view, details)
  queue: 300, // live pulses waiting for their turn
  pulsesPerLink: 3, // pulses drawn at once on one link
  traces: 20, // trace ids offered for highlighting
  runs: 100, // runs remembered
  forms: 20, // forms remembered (a conversation has one open at a time)
  inspections: 5, // generated-UI inspector records kept (the newest loan answers)
};
export const PLAY_DELAY_MS = 350; // live pulses wait this long, then play in agent-timestamp order
export const PULSE_MS = 1200; // how long one pulse is drawn
export const CONSOLES = [AGENTS.student, AGENTS.hub, ...SPECIALISTS];

/** An empty console: its newest lines and how many it ever had. */
export const ring = () => ({ items: [], total: 0 });

/** The last `n` items of `arr` (the same array when it already fits). */
export const last = (arr, n) => (arr.length > n ? arr.slice(arr.length - n) : arr);

/** A console with `item` added, its oldest lines dropped beyond `max`. */
export function pushRing(r, item, max) {
  const items = r.items.length >= max ? r.items.slice(r.items.length - max + 1) : r.items.slice();
  items.push(item);
  return { items, total: r.total + 1 };
}
