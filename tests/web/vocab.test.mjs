// The page's words cover every name the server's types define (web/vocab.js is generated
// from them by crates/ui/tests/page_vocab.rs): a step, status or outcome added there
// without words here fails this test instead of reaching the page raw.
import { test } from "node:test";
import assert from "node:assert/strict";
import { STEP_IDS, STATUSES, OUTCOMES, CHANNELS } from "../../web/vocab.js";
import { STATUS } from "../../web/views/topology/labels.js";
import { STEP_LABELS, HUB_OUTCOMES } from "../../web/store/words.js";

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
