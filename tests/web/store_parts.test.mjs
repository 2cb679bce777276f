// The store's parts on their own (web/store/words.js, web/store/bounds.js) under Node's
// test runner: node --test tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { hopReason, errorLabel, formStatus } from "../../web/store/words.js";
import { ring, last, pushRing } from "../../web/store/bounds.js";
import * as store from "../../web/store.js";

test("store.js still exports the words it always did", () => {
  assert.equal(store.hopReason, hopReason);
  assert.equal(store.errorLabel, errorLabel);
  assert.equal(store.formStatus, formStatus);
});

test("a hop's reason names the specialist when it is known", () => {
  assert.equal(hopReason("hub_got_answer", "unknown", "timeout", "Tutor"), "Outcome unknown: no answer from the Tutor in time");
  assert.equal(hopReason("hub_got_answer", "unknown", "timeout", null), "Outcome unknown: no answer from the specialist in time");
  assert.equal(hopReason("hub_got_answer", "unknown", "outcome_unknown", null), "Outcome unknown: the Hub could not tell whether the specialist handled it");
  assert.equal(hopReason("hub_got_answer", "failed", "failed", "Library"), "The Library answered with an error");
  assert.equal(hopReason("hub_got_answer", "failed", "error", null), "The specialist answered with an error");
  assert.equal(hopReason("student_received", "failed", "hub_error", null), "The Hub answered with an error");
  assert.equal(hopReason("hub_decided", "unknown", "", null), null, "an empty reason says nothing");
  assert.equal(hopReason("hub_decided", "unknown", "Not A Code", null), "Not A Code", "text that is not a code is kept");
});

test("an error's label: run_in_progress is not sent, without the ✕", () => {
  assert.deepEqual(errorLabel("run_in_progress"), { who: "Not sent", tone: "error", showCode: false });
  assert.deepEqual(errorLabel("timeout"), { who: "? Outcome unknown", tone: "pending", showCode: false });
  assert.deepEqual(errorLabel(undefined), { who: "✕ Problem", tone: "error", showCode: false });
  assert.deepEqual(errorLabel("bad_request"), { who: "✕ Problem", tone: "error", showCode: true });
});

test("a form's status line: the server's problem in words, this window's press over editable states only", () => {
  assert.equal(formStatus(null), null);
  assert.equal(formStatus({ state: "editing" }).text, "");
  assert.deepEqual(formStatus({ state: "editing", problem: { message: "pick a slot" } }), { state: "editing", text: "Not done: pick a slot", canReconcile: false, editable: true });
  assert.equal(formStatus({ state: "superseded", problem: { message: "booked elsewhere" } }).text, "Closed: booked elsewhere");
  // a refusal with a code Campus words is said in words, never as the agent's raw message
  const raw = "invalid params: message.parts[0]: no button of the form's current screen sends this action";
  const refused = formStatus({ state: "editing", problem: { code: "action_not_allowed", message: raw } }).text;
  assert.match(refused, /^Not done: that button is not on the form's current screen/);
  assert.ok(!refused.includes("message.parts"));
  assert.equal(formStatus({ state: "superseded", problem: { code: "form_closed", message: "x" } }).text, "Closed: it was sent, cancelled or replaced by a newer one.");
  assert.match(formStatus({ state: "editing", problem: { code: "a2ui_wrong_surface", message: "/action/surfaceId names another surface" } }).text, /did not match the form's screen/);
  assert.equal(formStatus({ state: "superseded" }).text, "Closed: a newer form took its place.");
  for (const state of ["editing", "rejected", "not_delivered", "confirmation_pending"]) {
    assert.deepEqual(formStatus({ state, local: { sending: true } }), { state: "submitting", text: "Sending…", canReconcile: false, editable: false }, state);
  }
  assert.equal(formStatus({ state: "submitted", local: { sending: true } }).state, "submitted", "the server's end wins over a press");
  assert.equal(formStatus({ state: "submitted", local: { refused: { message: "no" } } }).text, "Not sent: no", "a refusal is said first");
});

test("a form cancelled from this window says you cancelled it; otherwise only that it was cancelled", () => {
  assert.equal(formStatus({ state: "cancelled", pressedHere: "cancel_form" }).text, "You cancelled this form; nothing was submitted.");
  assert.equal(formStatus({ state: "cancelled", pressedHere: "find_times" }).text, "Cancelled: nothing was submitted.");
  assert.equal(formStatus({ state: "cancelled" }).text, "Cancelled: nothing was submitted.");
});

test("the button this window pressed stays with the form after the server's snapshot", () => {
  let s = store.initialState();
  s = store.reduce(s, { type: "event", channel: "student", lane: "student", event: { type: "RUN_STARTED", runId: "r1", threadId: "t1" }, now: 1 });
  const snapshot = (state) => ({ type: "event", channel: "student", lane: "student", now: 2, event: { type: "ACTIVITY_SNAPSHOT", messageId: "form-f1", activityType: "a2ui-surface", content: { formRef: "f1", state } } });
  s = store.reduce(s, snapshot("editing"));
  s = store.reduce(s, { type: "press", formId: "form-f1", operationId: "op-1", name: "cancel_form" });
  s = store.reduce(s, snapshot("cancelled"));
  assert.equal(s.forms["form-f1"].local, null, "the server's snapshot replaces the local press");
  // a Cancel press the UI server refused pressed nothing
  let t = store.reduce(store.reduce(s, snapshot("editing")), { type: "press", formId: "form-f1", operationId: "op-2", name: "cancel_form" });
  t = store.reduce(t, { type: "pressFailed", formId: "form-f1", code: "x", message: "no" });
  assert.equal(t.forms["form-f1"].pressedHere, null);
  assert.equal(formStatus(s.forms["form-f1"]).text, "You cancelled this form; nothing was submitted.");
});

test("bounded lists keep the newest items and count them all", () => {
  const a = [1, 2, 3];
  assert.equal(last(a, 3), a, "a list that fits is the same list");
  assert.deepEqual(last(a, 2), [2, 3]);
  let r = ring();
  for (let i = 1; i <= 5; i++) r = pushRing(r, i, 3);
  assert.deepEqual(r, { items: [3, 4, 5], total: 5 });
  const before = pushRing(ring(), "x", 3);
  const after = pushRing(before, "y", 3);
  assert.deepEqual(before.items, ["x"], "the old ring is untouched");
  assert.deepEqual(after.items, ["x", "y"]);
});

test("a receipt reads in its labels' order, whatever order the wire sent its keys in", async () => {
  const { receiptEntries } = await import("../../web/store/words.js");
  // as serde_json sends a loan receipt: keys in alphabetical order
  const wire = { loanId: "ln-calculus", newDueDate: "2027-01-10", note: "n", renewalsUsed: "1 of 2", title: "Calculus in Motion" };
  assert.deepEqual(receiptEntries(wire).map(([k]) => k), ["title", "newDueDate", "renewalsUsed", "loanId", "note"]);
  // a key without a label comes last, as sent
  assert.deepEqual(receiptEntries({ zeta: 1, room: "A", alpha: 2 }).map(([k]) => k), ["room", "zeta", "alpha"]);
});
