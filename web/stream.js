// The page's one connection: an EventSource on /api/ui/stream carrying every channel.
// Each AG-UI channel goes through its own official verification pipe (@ag-ui/client's
// schema stage, then verifyEvents) before anything is applied; a fresh pipe after each
// reconnect. Frames already applied (seq ≤ the last applied) are fed to the verifier on a
// replay but not applied twice. A new boot means the server restarted: reset.
import { enforceEvents, verifyEvents, Subject } from "./vendor/agui.js";

const AGUI_CHANNELS = ["student", "monitor"];
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 5000;

function parseId(id) {
  const i = id ? id.lastIndexOf(":") : -1;
  if (i <= 0) return null;
  const seq = Number(id.slice(i + 1));
  return Number.isSafeInteger(seq) ? { boot: id.slice(0, i), seq } : null;
}

/**
 * Opens the stream. `dispatch` receives store actions: stream status, boot, reset,
 * notices and verified events ({type: "event", channel, event, live, now}).
 * Returns {stop}.
 */
export function connect(dispatch, { url = "/api/ui/stream", body = document.body } = {}) {
  let es = null;
  let boot = null; // boot of the frames applied so far
  let applied = 0; // highest seq applied under that boot
  let lastId = null; // `<boot>:<seq>` of the last frame seen, for ?after=
  let liveFrom = Infinity; // frames above the hello's lastSeq are live, the rest replay
  let pipes = null;
  let current = null; // the frame being verified (the pipes are synchronous)
  let backoff = BACKOFF_MIN_MS;
  let timer = null;
  let stopped = false;

  const setStatus = (status, error) => {
    body.dataset.stream = status;
    dispatch({ type: "stream", status, error });
  };

  function newPipes() {
    const made = {};
    for (const channel of AGUI_CHANNELS) {
      const subject = new Subject();
      subject.pipe(enforceEvents(), verifyEvents()).subscribe({
        next: (event) => {
          const f = current;
          if (!f || f.seq <= applied) return; // replayed frame we already applied
          applied = f.seq;
          dispatch({ type: "event", channel, event, live: f.seq > liveFrom, now: Date.now() });
        },
        error: (err) => fail(`stream error: ${channel} channel failed verification (${err?.message ?? err})`),
      });
      made[channel] = subject;
    }
    return made;
  }

  function onMessage(msg) {
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
        }
        boot = frame.boot;
        liveFrom = typeof frame.lastSeq === "number" ? frame.lastSeq : 0;
        dispatch({ type: "boot", boot });
        backoff = BACKOFF_MIN_MS;
        setStatus("open", null);
      } else {
        dispatch({ type: "notice", notice: frame.notice });
      }
      return;
    }
    const id = parseId(msg.lastEventId);
    if (!id || !pipes || !pipes[frame?.channel]) return; // a channel this page does not know yet
    if (boot !== null && id.boot !== boot) return fail("stream error: a frame from another server run");
    lastId = msg.lastEventId;
    body.dataset.lastEventId = lastId;
    current = { seq: id.seq };
    try {
      pipes[frame.channel].next(frame.event);
    } finally {
      current = null;
    }
  }

  function open() {
    timer = null;
    if (stopped) return;
    pipes = newPipes();
    const u = new URL(url, location.href);
    if (lastId) u.searchParams.set("after", lastId);
    es = new EventSource(u);
    es.onmessage = onMessage;
    es.onerror = () => fail(null);
  }

  function fail(error) {
    if (stopped) return;
    if (es) {
      es.close();
      es = null;
    }
    pipes = null; // dropped, not completed: the next connection verifies from a run boundary
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
