// The page's one connection: an EventSource on /api/ui/stream carrying every channel.
// Each AG-UI lane (a channel's thread: runs of one lane never overlap, runs of different
// lanes may) goes through its own official verification pipe (@ag-ui/client's schema
// stage, then verifyEvents) before anything is applied; fresh pipes after each reconnect.
// Kept frames carry `id: <boot>:<seq>`; one already applied (seq ≤ the last applied) is fed
// to its verifier on a replay but not applied twice. Live-only frames carry no id and are
// always applied. A new boot means the server restarted: reset.
import { enforceEvents, verifyEvents, Subject } from "./vendor/agui.js";
import { CHANNELS } from "./vocab.js";

const AGUI_CHANNELS = new Set([CHANNELS.student, CHANNELS.monitor]);
const MAX_LANES = 64; // verifier pipes kept per connection (lanes seen recently)
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 5000;

/** What this page's stream delivered (read by `campus bench --browser`): message frames
 *  and their characters, and connections opened. Three counters, nothing kept. */
export const stats = { frames: 0, chars: 0, opens: 0 };

function parseId(id) {
  const i = id ? id.lastIndexOf(":") : -1;
  if (i <= 0) return null;
  const seq = Number(id.slice(i + 1));
  return Number.isSafeInteger(seq) ? { boot: id.slice(0, i), seq } : null;
}

/**
 * Opens the stream. `dispatch` receives store actions: stream status, boot, reset,
 * notices and verified events ({type: "event", channel, lane, event, live, now}).
 * Returns {stop}.
 */
export function connect(dispatch, { url = "/api/ui/stream", body = document.body } = {}) {
  let es = null;
  let boot = null; // boot of the frames applied so far
  let applied = 0; // highest seq applied under that boot
  let lastId = null; // `<boot>:<seq>` of the last kept frame, for ?after=
  let prevEventId = ""; // the EventSource's last-event-id before this message (same → frame had no id)
  let liveFrom = Infinity; // kept frames above the hello's lastSeq are live, the rest replay
  let lanes = new Map(); // lane → Subject feeding that lane's verifier
  let current = null; // the frame being verified (the pipes are synchronous)
  let backoff = BACKOFF_MIN_MS;
  let timer = null;
  let stopped = false;

  const setStatus = (status, error) => {
    body.dataset.stream = status;
    dispatch({ type: "stream", status, error });
  };

  function pipe(channel, lane) {
    let subject = lanes.get(lane);
    if (subject) return subject;
    if (lanes.size >= MAX_LANES) lanes.delete(lanes.keys().next().value);
    subject = new Subject();
    const mine = lanes;
    subject.pipe(enforceEvents(), verifyEvents()).subscribe({
      next: (event) => {
        const f = current;
        if (!f) return;
        if (f.seq !== null) {
          if (f.seq <= applied) return; // a replayed frame already applied
          applied = f.seq;
        }
        dispatch({ type: "event", channel, lane, event, live: f.live, now: Date.now() });
      },
      error: (err) => {
        if (mine === lanes) fail(`stream error: ${lane} failed verification (${err?.message ?? err})`);
      },
    });
    lanes.set(lane, subject);
    return subject;
  }

  function onMessage(msg) {
    stats.frames += 1;
    stats.chars += msg.data.length;
    const sameId = msg.lastEventId === prevEventId;
    prevEventId = msg.lastEventId;
    let frame;
    try {
      frame = JSON.parse(msg.data);
    } catch {
      return fail("stream error: a frame was not JSON");
    }
    if (frame?.channel === "system") {
      if (frame.notice === "hello") {
        if (boot !== null && frame.boot !== boot) {
          // the server restarted: everything it told us before is gone
          dispatch({ type: "reset" });
          applied = 0;
          lastId = null;
        }
        boot = frame.boot;
        liveFrom = typeof frame.lastSeq === "number" ? frame.lastSeq : 0;
        dispatch({ type: "boot", boot });
        backoff = BACKOFF_MIN_MS;
        setStatus("open", null);
      } else {
        dispatch({ type: "notice", notice: frame.notice, reason: frame.reason });
      }
      return;
    }
    if (!AGUI_CHANNELS.has(frame?.channel)) return; // a channel this page does not know yet
    const id = sameId ? null : parseId(msg.lastEventId); // no id: a live-only frame
    if (id && boot !== null && id.boot !== boot) return fail("stream error: a frame from another server run");
    if (id) {
      lastId = msg.lastEventId;
      body.dataset.lastEventId = lastId;
    }
    const lane = `${frame.channel}/${frame.thread ?? frame.channel}`;
    current = { seq: id ? id.seq : null, live: id ? id.seq > liveFrom : true };
    try {
      pipe(frame.channel, lane).next(frame.event);
    } finally {
      current = null;
    }
  }

  function open() {
    timer = null;
    if (stopped) return;
    lanes = new Map();
    prevEventId = "";
    const u = new URL(url, location.href);
    if (lastId) u.searchParams.set("after", lastId);
    es = new EventSource(u);
    stats.opens += 1;
    es.onmessage = onMessage;
    es.onerror = () => fail(null);
  }

  function fail(error) {
    if (stopped) return;
    if (es) {
      es.close();
      es = null;
    }
    lanes = new Map(); // dropped, not completed: the next connection verifies from run boundaries
    setStatus("reconnecting", error);
    if (!timer) {
      const wait = backoff + Math.random() * backoff * 0.3;
      backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
      timer = setTimeout(open, wait);
    }
  }

  setStatus("reconnecting", null);
  open();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      if (es) es.close();
      setStatus("closed", null);
    },
  };
}
