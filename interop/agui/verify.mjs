// The official AG-UI checks over what `campus ui` streams: each frame's event against
// @ag-ui/core 1.0's schemas, and each lane (channel + thread) through @ag-ui/client's
// verifyEvents, fresh per connection, as the page does. The bodies we post are checked
// against RunAgentInputSchema first.
//
// Usage: node verify.mjs UI_URL ready    (waits until the monitor shows both specialists ready)
//        node verify.mjs UI_URL normal   (questions: routed, unsupported, interleaved)
//        node verify.mjs UI_URL hubdown  (the Hub is stopped: RUN_ERROR hub_unavailable, a notice)
//        node verify.mjs UI_URL resume   (a reconnect from inside a run, from its start)
// Prints one `ok …` / `FAIL …` line per check; exits 1 if any failed.
import { verifyEvents } from "@ag-ui/client";
import { EventSchemas, RunAgentInputSchema } from "@ag-ui/core/schemas";
import { from, lastValueFrom } from "rxjs";

const [ui, mode] = process.argv.slice(2);
let failed = 0;
const ok = (m) => console.log(`ok ${m}`);
const fail = (m) => { console.log(`FAIL ${m}`); failed++; };
const check = (cond, m, why = "") => (cond ? ok(m) : fail(`${m}${why ? `: ${why}` : ""}`));

// Reads the stream until `done(frames)` or `ms` pass.
async function read({ after, lastId, ms = 15000, done = () => false, onOpen }) {
  const ctl = new AbortController();
  const headers = { accept: "text/event-stream" };
  if (lastId) headers["last-event-id"] = lastId;
  const url = `${ui}/api/ui/stream${after ? `?after=${encodeURIComponent(after)}` : ""}`;
  const res = await fetch(url, { headers, signal: ctl.signal });
  if (res.status !== 200) throw new Error(`stream answered ${res.status}`);
  const frames = [];
  const timer = setTimeout(() => ctl.abort(), ms);
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  let opened = null;
  try {
    while (!done(frames)) {
      const { value, done: end } = await reader.read();
      if (end) break;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let id = null;
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) id = line.slice(4);
          else if (line.startsWith("data: ")) data.push(line.slice(6));
        }
        if (data.length) frames.push({ id, json: JSON.parse(data.join("\n")) });
      }
      // after the first chunk (the hello): the subscription exists; runs may start
      if (!opened && onOpen) opened = onOpen(frames);
    }
  } catch (e) {
    if (e.name !== "AbortError") throw e;
  } finally {
    clearTimeout(timer);
    ctl.abort();
  }
  if (opened) await opened;
  return frames;
}

// The pipe must refuse a stream that does not open with RUN_STARTED, or it checks nothing.
try {
  await lastValueFrom(from([{ type: "CUSTOM", name: "x", value: 1 }]).pipe(verifyEvents()));
  fail("verifyEvents accepted a stream opening with CUSTOM: the checks below would prove nothing");
} catch {
  // as it should
}

// Schema and order checks over one connection's frames; returns the lanes checked.
async function verify(frames, what) {
  const lanes = new Map();
  let bad = 0;
  for (const f of frames) {
    if (f.json.channel === "system") continue;
    const parsed = EventSchemas.safeParse(f.json.event);
    if (!parsed.success) {
      bad++;
      fail(`${what}: ${f.json.event.type} fails the @ag-ui/core schema: ${parsed.error.message.slice(0, 300)}`);
    }
    const lane = `${f.json.channel}/${f.json.thread}`;
    if (!lanes.has(lane)) lanes.set(lane, []);
    lanes.get(lane).push(f.json.event);
  }
  if (!bad) ok(`${what}: ${frames.length} frames pass the @ag-ui/core 1.0 event schemas`);
  for (const [lane, events] of lanes) {
    try {
      await lastValueFrom(from(events).pipe(verifyEvents()), { defaultValue: null });
    } catch (e) {
      fail(`${what}: lane ${lane} fails verifyEvents: ${e.message}`);
      return lanes;
    }
  }
  ok(`${what}: ${lanes.size} lanes pass @ag-ui/client verifyEvents`);
  return lanes;
}

function input(threadId, runId, text) {
  return {
    threadId, runId, state: {}, tools: [], context: [], forwardedProps: {},
    messages: [{ id: `${runId}-m`, role: "user", content: text }],
  };
}

async function post(body) {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) fail(`our RunAgentInput fails the schema: ${parsed.error.message}`);
  const res = await fetch(`${ui}/api/ag-ui/runs`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const ended = (frames, thread, run) => {
  let mine = false;
  for (const f of frames) {
    if (f.json.channel !== "student" || f.json.thread !== thread) continue;
    const e = f.json.event;
    if (e.type === "RUN_STARTED") mine = e.runId === run;
    else if ((e.type === "RUN_FINISHED" || e.type === "RUN_ERROR") && mine) return e;
  }
  return null;
};

const tag = `${process.pid}`;
if (mode === "normal") {
  const [a, b] = [`a${tag}`, `b${tag}`];
  const results = {};
  const frames = await read({
    done: (f) => ended(f, a, "a2") && ended(f, b, "b1"),
    onOpen: async (frames) => {
      results.a1 = await post(input(a, "a1", "what is the derivative of x^2"));
      results.b1 = await post(input(b, "b1", "When is the library open on Monday?"));
      // the next question in a once a1 has ended
      for (let i = 0; i < 200 && !ended(frames, a, "a1"); i++) await new Promise((r) => setTimeout(r, 50));
      results.a2 = await post(input(a, "a2", "can you fix my kitchen sink?"));
    },
  });
  check(results.a1.status === 202 && results.b1.status === 202, "two conversations ask at once (202)");
  await verify(frames, "normal, unsupported and interleaved runs");
  const r1 = ended(frames, a, "a1");
  check(r1?.type === "RUN_FINISHED" && r1.result?.servedBy?.id === "tutor", "the routed question is served by the tutor", JSON.stringify(r1));
  const r2 = ended(frames, a, "a2");
  check(r2?.type === "RUN_FINISHED" && r2.result?.outcome === "unsupported", "the unsupported question is the hub's own answer", JSON.stringify(r2));
  const rb = ended(frames, b, "b1");
  check(rb?.type === "RUN_FINISHED" && rb.result?.servedBy?.id === "library", "the other conversation is served by the library", JSON.stringify(rb));
} else if (mode === "ready") {
  // the UI server's monitor status says both specialists are ready (from the Hub's registry)
  const isReady = (f) => {
    const a = f.json.channel === "monitor" && f.json.event?.type === "STATE_SNAPSHOT" && f.json.event.snapshot.agents;
    return a && a.tutor?.status === "ready" && a.library?.status === "ready";
  };
  let frames = [];
  for (let i = 0; i < 30 && !frames.some(isReady); i++) frames = await read({ ms: 2000, done: (f) => f.some(isReady) });
  check(frames.some(isReady), "the monitor status shows the tutor and the library ready");
} else if (mode === "hubdown") {
  const t = `d${tag}`;
  let answer;
  const frames = await read({ done: (f) => ended(f, t, "d1"), onOpen: async () => { answer = await post(input(t, "d1", "what is a limit?")); } });
  check(answer.status === 202, "a question with the hub down is accepted as a run (202)");
  await verify(frames, "a hub-down run");
  const end = ended(frames, t, "d1");
  check(end?.type === "RUN_ERROR" && end.code === "hub_unavailable", "it ends with RUN_ERROR hub_unavailable", JSON.stringify(end));
  // the server's own notice of it: a short run in the student channel's `notices` lane
  const isNotice = (f) => f.json.channel === "student" && f.json.thread === "notices"
    && f.json.event.type === "RUN_FINISHED" && f.json.event.result?.notice === "hub_unreachable";
  const seen = await read({ ms: 10000, done: (f) => f.some(isNotice) });
  check(seen.some(isNotice), "the hub's absence is a notice run nobody asked for (hub_unreachable)");
  await verify(seen, "a connection with the server's notices");
} else if (mode === "resume") {
  const t = `r${tag}`;
  const first = await read({ done: (f) => ended(f, t, "r1"), onOpen: async () => { await post(input(t, "r1", "what is the derivative of x^3")); } });
  const mine = first.filter((f) => f.json.channel === "student" && f.json.thread === t);
  const inside = mine[3]?.id;
  for (const [how, opts] of [["Last-Event-ID", { lastId: inside }], ["?after=", { after: inside }]]) {
    const again = await read({ ...opts, ms: 5000, done: (f) => ended(f, t, "r1") });
    await verify(again, `a reconnect with ${how} from inside a run`);
    const ids = again.filter((f) => f.json.channel === "student" && f.json.thread === t).map((f) => f.id);
    check(JSON.stringify(ids) === JSON.stringify(mine.map((f) => f.id)), `the run is replayed from its RUN_STARTED (${how})`);
  }
} else {
  console.error("usage: node verify.mjs UI_URL normal|hubdown|resume");
  process.exit(2);
}
process.exit(failed ? 1 : 0);
