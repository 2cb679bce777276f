// The page's words cover every name the server's types define (web/vocab.js is generated
// from them by crates/ui/tests/page_vocab.rs): a step, status or outcome added there
// without words here fails this test instead of reaching the page raw.
import { test } from "node:test";
import assert from "node:assert/strict";
import { FORM_VIEW, STEP, STEP_IDS, STATUSES, OUTCOMES, CHANNELS, RUN_ERRORS } from "../../web/vocab.js";
import { STATUS } from "../../web/views/topology/labels.js";
import { STEP_LABELS, HUB_OUTCOMES, errorLabel, hopReason, formStatus } from "../../web/store/words.js";

test("every step the server names has a label, and no label names a step it does not", () => {
  assert.deepEqual(Object.keys(STEP_LABELS).sort(), [...STEP_IDS].sort());
  for (const outcome of Object.keys(HUB_OUTCOMES)) assert.ok(OUTCOMES.includes(outcome), `${outcome} is an outcome`);
});

test("every registry status has words in the topology, and unknown too", () => {
  for (const s of STATUSES) assert.ok(STATUS[s], `no words for status ${s}`);
  assert.ok(STATUS.unknown);
  assert.deepEqual(Object.keys(STATUS).filter((s) => s !== "unknown").sort(), [...STATUSES].sort());
});

test("the channels are the server's", () => {
  assert.equal(CHANNELS.student, "student");
  assert.equal(CHANNELS.monitor, "monitor");
});

test("every code a run ends with has words, and the step names are the step ids", () => {
  assert.deepEqual(Object.values(STEP).sort(), [...STEP_IDS].sort());
  for (const code of [RUN_ERRORS.timeout, RUN_ERRORS.outcomeUnknown, RUN_ERRORS.hubUnavailable, RUN_ERRORS.runInProgress]) {
    assert.equal(errorLabel(code).showCode, false, `${code} is worded, not shown raw`);
  }
  for (const code of [RUN_ERRORS.timeout, RUN_ERRORS.outcomeUnknown, RUN_ERRORS.hubUnavailable, RUN_ERRORS.hubError]) {
    assert.ok(!hopReason(STEP.studentReceived, "failed", code, null).includes(code), `${code} is worded in a hop`);
  }
});

test("every state a form can be in on the page has its own status line", () => {
  for (const state of Object.values(FORM_VIEW)) {
    assert.equal(formStatus({ state }).state, state, `${state} is worded as itself`);
  }
});
