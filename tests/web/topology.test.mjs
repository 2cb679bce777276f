// The topology view's pure parts (web/views/topology/layout.js, labels.js, pulses.js)
// under Node's test runner: node --test tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { NODE_W, NODE_H, FIXED, RIGHT, specialistsOf, slots, geometry, pts, linkIds, labelSpot, modeSpot } from "../../web/views/topology/layout.js";
import { color, shortTrace, firstWords, inFlightText, newest, statusOf, rateText, linkState, agentInfo, heartbeatText, eventText, visibleEvents, traceLinks } from "../../web/views/topology/labels.js";
import { pulseSpot } from "../../web/views/topology/pulses.js";
import { PULSE_MS } from "../../web/store.js";
import { AGENTS } from "../../web/vocab.js";
import { readFileSync } from "node:fs";

const near = (a, b, msg) => assert.ok(Math.abs(a - b) < 1e-9, `${msg ?? ""} ${a} ≈ ${b}`);

test("the Tutor, the Library and the Professor are always drawn; other agents the monitor reports join them, sorted", () => {
  assert.deepEqual(specialistsOf(undefined), ["library", "professor", "tutor"]);
  assert.deepEqual(specialistsOf({ agents: { student: {}, hub: {}, zeta: {}, alpha: {} } }), ["alpha", "library", "professor", "tutor", "zeta"]);
  assert.deepEqual(linkIds(["library", "tutor"]), [
    ["student-hub", "student", "hub"],
    ["hub-library", "hub", "library"],
    ["hub-tutor", "hub", "tutor"],
  ]);
});

test("the built-in specialists keep their slots; another takes the free one, then down the right", () => {
  const pos = slots(["alpha", "library", "professor", "tutor", "zeta"]);
  assert.deepEqual([pos.student, pos.hub, pos.tutor, pos.library, pos.professor], [FIXED.student, FIXED.hub, RIGHT[0], RIGHT[1], RIGHT[2]]);
  assert.deepEqual([pos.alpha, pos.zeta], [[860, 60], [860, 170]]);
  assert.deepEqual(slots(["alpha", "library", "tutor"]).alpha, RIGHT[2], "the Professor's slot is free when it is not drawn");
  assert.deepEqual(slots(["alpha", "library"]).alpha, RIGHT[0], "the Tutor's slot is free when it is not drawn");
  const many = slots([..."abcdefghi"]);
  assert.deepEqual(many.i, [860, 430], "never below the drawing");
});

test("a link has one lane per direction, parallel, starting clear of both nodes", () => {
  const g = geometry(FIXED.student, FIXED.hub);
  assert.deepEqual(g.fwd, [[194, 277], [376, 277]]);
  assert.deepEqual(g.back, [[376, 263], [194, 263]]);
  assert.deepEqual(g.mid, [285, 270]);
  const slanted = geometry(FIXED.hub, RIGHT[0]);
  const [[x0, y0], [x1, y1]] = slanted.fwd;
  const [[bx1, by1], [bx0, by0]] = slanted.back;
  near(Math.hypot(x0 - bx0, y0 - by0), 14, "the lanes' gap at the start");
  near(Math.hypot(x1 - bx1, y1 - by1), 14, "and at the end");
  assert.ok(x0 > FIXED.hub[0] + NODE_W / 2 || y0 < FIXED.hub[1] - NODE_H / 2, "outside the Hub's box");
  assert.ok(x1 < RIGHT[0][0] - NODE_W / 2 || y1 > RIGHT[0][1] + NODE_H / 2, "outside the Tutor's box");
  assert.equal(pts([[1, 2], [3.14, 4]]), "1.0,2.0 3.1,4.0");
});

test("a link's label sits away from the middle row; a level link's above the nodes", () => {
  assert.deepEqual(labelSpot(geometry(FIXED.student, FIXED.hub)), [285, 270 - NODE_H / 2 - 20]);
  const up = geometry(FIXED.hub, RIGHT[0]);
  const down = geometry(FIXED.hub, RIGHT[1]);
  assert.ok(labelSpot(up)[1] < up.mid[1], "the upper link's label above it");
  assert.ok(labelSpot(down)[1] > down.mid[1], "the lower link's label below it");
  near(Math.hypot(labelSpot(up)[0] - up.mid[0], labelSpot(up)[1] - up.mid[1]), 30);
});

test("an agent's model box: above Student and Hub, right of a specialist", () => {
  assert.deepEqual(modeSpot("hub", 470, 270), { mx: 470, my: 162, line: { x1: 470, y1: 224, x2: 470, y2: 178 } });
  assert.deepEqual(modeSpot("tutor", 860, 110), { mx: 1008, my: 110, line: { x1: 946, y1: 110, x2: 956, y2: 110 } });
});

test("statuses, rates and heartbeats in words", () => {
  assert.deepEqual(statusOf("ready"), ["✓", "Ready", "ok"]);
  assert.deepEqual(statusOf("something_new"), ["?", "Unknown", "off"]);
  assert.equal(rateText({ perMin: 4, p50Ms: 850 }, true), "4/min · p50 850 ms · 60 s");
  assert.equal(rateText({ perMin: 2, p50Ms: 2300, window: 30 }, true), "2/min · p50 2.3 s · 30 s");
  assert.equal(rateText(undefined, true), "0/min · p50 n/a · 60 s");
  assert.equal(rateText({ perMin: 4 }, false), "rate unknown · p50 unknown");
  assert.equal(heartbeatText({ status: "ready" }, 10_000), "no heartbeat");
  assert.equal(heartbeatText({ status: "unknown" }, 10_000), "heartbeat unknown", "not known is not none");
  assert.equal(heartbeatText({ heartbeatAt: 7_400 }, 10_000), "♥ 3 s ago");
  assert.equal(heartbeatText({ heartbeatAt: 12_000 }, 10_000), "♥ 0 s ago", "a clock ahead is not a negative age");
  assert.equal(color("tutor"), "#0f7b5f");
  assert.equal(color("someone"), "#595959");
  // the drawing's colours are style.css's (SVG attributes cannot read its variables)
  const css = readFileSync(new URL("../../web/style.css", import.meta.url), "utf8");
  for (const id of [...Object.values(AGENTS), "other"]) {
    const v = css.match(new RegExp(`--${id}:\\s*(#[0-9a-f]{6})`, "i"));
    assert.ok(v, `style.css has --${id}`);
    assert.equal(color(id === "other" ? "someone" : id), v[1], `--${id}`);
  }
});

test("an agent's info falls back to the Hub's own status, then unknown", () => {
  const state = { monitor: { agents: { tutor: { inFlight: 2 } }, hub: { status: "ready" } } };
  assert.deepEqual(agentInfo(state, "tutor"), { inFlight: 2, status: "unknown" });
  assert.equal(agentInfo(state, "hub").status, "ready");
  assert.equal(agentInfo({ monitor: {} }, "student").status, "unknown");
});

test("with the page's stream closed every agent is unknown, never the last status heard", () => {
  const state = { monitor: { agents: { tutor: { status: "ready", inFlight: 2, heartbeatAt: 5, mode: "mock" } }, hub: { status: "ready" } } };
  for (const id of ["tutor", "hub", "student"]) assert.equal(agentInfo(state, id, false).status, "unknown", id);
  const off = agentInfo(state, "tutor", false);
  assert.equal(off.inFlight, null, "no count anyone knows of");
  assert.equal(off.heartbeatAt, null);
  assert.equal(off.mode, "mock", "what it said of itself stays");
  assert.equal(agentInfo(state, "tutor", true).status, "ready");
});

test("an in-flight count is said when reported and left out when not", () => {
  assert.equal(inFlightText({ inFlight: 3 }), "3 in flight");
  assert.equal(inFlightText({ inFlight: 0 }), "0 in flight");
  assert.equal(inFlightText({ inFlight: null }), "");
  assert.equal(inFlightText({}), "");
});

test("a trace is named by the first words of its question", () => {
  assert.equal(firstWords("what is the derivative of x^3 * sin(x) please"), "what is the derivative of x^3…");
  assert.equal(firstWords("  library hours  "), "library hours");
});

test("a link is unknown off the stream, failed for a minute after a failure, else active or idle", () => {
  const now = 100_000;
  const state = (events, perMin = 0) => ({ now, events, monitor: { links: { "hub-tutor": { perMin } } } });
  const fail = { link: "hub-tutor", phase: "failed", ts: now - 59_000 };
  assert.equal(linkState(state([fail]), "hub-tutor", false), "unknown");
  assert.equal(linkState(state([fail]), "hub-tutor", true), "failed");
  assert.equal(linkState(state([{ ...fail, phase: "unknown" }]), "hub-tutor", true), "failed");
  assert.equal(linkState(state([{ ...fail, ts: now - 60_000 }]), "hub-tutor", true), "idle");
  assert.equal(linkState(state([{ ...fail, link: "hub-library" }], 3), "hub-tutor", true), "active");
});

test("events: worded, newest first by the agents' clocks, heartbeats on request, traces by link", () => {
  assert.equal(eventText({ from: "hub", to: "tutor", category: "card", phase: "result", count: 2 }), "Hub → Tutor · Agent Card result returned ×2");
  assert.equal(eventText({ from: "zeta", to: "hub", category: "ping", phase: "odd" }), "Zeta → Hub · ping odd");
  assert.equal(eventText({ from: "student", to: "hub" }), "Student → Hub · event ");
  assert.equal(shortTrace("0190abcd-0000-7000-8000-000000001234"), "…00001234");
  assert.equal(shortTrace("t-1"), "t-1");
  const evs = [{ id: 1, ts: 5 }, { id: 2, ts: 9 }, { id: 3, ts: 5 }, { id: 4 }];
  assert.deepEqual(newest(evs, 4).map((e) => e.id), [2, 3, 1, 4], "ties: the later arrival first");
  assert.deepEqual(newest(evs, 2).map((e) => e.id), [3, 4], "only the last n");
  const src = { events: [{ category: "heartbeat", link: "hub-tutor" }, { category: "question", link: "student-hub", traceId: "t1" }, { category: "answer", link: "hub-tutor", traceId: "t1" }] };
  assert.equal(visibleEvents(src, { showHeartbeats: false }).length, 2);
  assert.equal(visibleEvents(src, { showHeartbeats: true }).length, 3);
  assert.equal(traceLinks({ ...src, prefs: { trace: null } }), null);
  assert.deepEqual([...traceLinks({ ...src, prefs: { trace: "t1" } })], ["student-hub", "hub-tutor"]);
});

test("a pulse travels its direction's lane over PULSE_MS; others mark the end or sit mid-lane", () => {
  const l = { a: "student", g: { fwd: [[0, 0], [100, 0]], back: [[100, 10], [0, 10]] } };
  const at = (p, now, reduce = false) => {
    const r = pulseSpot({ playAt: 1000, ...p }, l, now, reduce);
    return [r.x, r.y, r.t, r.bad, r.travels];
  };
  assert.deepEqual(at({ from: "student", phase: "sent" }, 1000 + PULSE_MS / 2), [50, 0, 0.5, false, true]);
  assert.deepEqual(at({ from: "hub", phase: "result" }, 1000 + PULSE_MS / 4), [75, 10, 0.25, false, true], "the back lane");
  assert.deepEqual(at({ from: "student", phase: "sent" }, 500), [0, 0, 0, false, true], "not before it starts");
  assert.deepEqual(at({ from: "student", phase: "sent" }, 1000 + 2 * PULSE_MS), [100, 0, 1, false, true], "not past the end");
  assert.deepEqual(at({ from: "student", phase: "sent" }, 1000 + PULSE_MS / 2, true), [100, 0, 0.5, false, true], "reduced motion: at the end");
  assert.deepEqual(at({ from: "student", phase: "received" }, 1000), [100, 0, 0, false, false], "the receiving end");
  assert.deepEqual(at({ from: "hub", phase: "failed" }, 1000 + PULSE_MS), [50, 10, 1, true, false], "mid-lane");
  assert.deepEqual(at({ from: "student", phase: "unknown" }, 1000), [50, 0, 0, true, false]);
});
