// A form inside the conversation: the official A2UI renderer (<a2ui-surface> with the
// bundled MessageProcessor and basic catalog) draws the server's message list; this view
// adds the delivery state, the agent's field errors and the read-only receipt, all as
// text nodes. Typing in the form sends nothing: only the renderer's actions (a button)
// and "Check status" (a reconcile) post, through ctx.press.
import { h, replace } from "../dom.js";
import { formStatus, sentModel, draftOf } from "../store.js";
import { RECEIPT_LABELS, receiptEntries } from "../store/words.js";
import { MessageProcessor, A2uiSurface, basicCatalog } from "../vendor/a2ui.js";
import { FORM_VIEW, WORKFLOW_AGENT } from "../vocab.js";

void A2uiSurface; // importing it defines <a2ui-surface>

const FIELD_LABELS = { groupSize: "Group size", date: "Date", room: "Room", duration: "Duration", slot: "Time", name: "Name", email: "Email", period: "Time of day", topic: "Topic", notes: "Notes" };
const TITLES = { "tutoring-request": "Tutoring request", "study-room-booking": "Study-room booking", "loan-renewal": "Your loans" };

// Adopted into each surface's shadow root, after the renderer's own sheets: the page's
// colours and WCAG 2.2 AA sizes through the renderer's CSS variables (error text 4.5:1 on
// the surface, 24 px radios), and a visible focus ring where the renderer removes it.
const SURFACE_CSS = `
:host {
  --a2ui-textfield-color-error: #b3261e;
  --a2ui-font-size-xs: 0.875rem;
  --a2ui-choicepicker-checkbox-size: 24px;
  --a2ui-choicepicker-gap: 6px;
  --a2ui-color-primary: #0b57d0;
  --a2ui-color-primary-hover: #0842a0;
}
:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
.a2ui-textfield:focus-visible, .a2ui-date-time-input:focus-visible { outline: 3px solid #0b57d0; outline-offset: 1px; }
.error { font-weight: 700; }
:host(.awaiting-confirmation) button { display: none; }
`;
let surfaceSheet = null;

function adoptSurfaceStyles(root) {
  if (!root || typeof CSSStyleSheet !== "function") return;
  if (!surfaceSheet) {
    surfaceSheet = new CSSStyleSheet();
    surfaceSheet.replaceSync(SURFACE_CSS);
  }
  if (!root.adoptedStyleSheets.includes(surfaceSheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, surfaceSheet];
}

/**
 * The renderer draws a field's `<label>` beside its input, not linked to it: each input
 * is given `aria-labelledby` its component's label (and `aria-describedby` its shown
 * errors, `aria-invalid` when the renderer marks it), each option group the role
 * radiogroup named by its label. Run after each render; ids are made from `prefix`.
 */
let nextId = 0;
export function labelFields(root, prefix) {
  const idFor = (el, kind) => {
    if (!el.id) el.id = `${prefix}-${kind}-${nextId++}`;
    return el.id;
  };
  for (const comp of root.querySelectorAll("a2ui-basic-textfield, a2ui-datetimeinput, a2ui-choicepicker, a2ui-slider")) {
    const label = [...comp.querySelectorAll("label")].find((l) => !l.querySelector("input") && l.closest("[class*=a2ui-option]") === null);
    const labelId = label && label.textContent.trim() ? idFor(label, "label") : null;
    const group = comp.querySelector(".a2ui-options-group");
    if (group && labelId) {
      group.setAttribute("role", group.querySelector("input[type=checkbox]") ? "group" : "radiogroup");
      group.setAttribute("aria-labelledby", labelId);
    }
    const errorIds = [...comp.querySelectorAll(".error")].map((e) => idFor(e, "error"));
    for (const input of comp.querySelectorAll("input:not(.a2ui-option-input):not(.filter-input), textarea")) {
      if (labelId) input.setAttribute("aria-labelledby", labelId);
      if (errorIds.length) input.setAttribute("aria-describedby", errorIds.join(" "));
      else input.removeAttribute("aria-describedby");
      if (/\binvalid\b/.test(input.className)) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
  }
}

/**
 * The fields an action carries whose checks the renderer shows as failing: a field's
 * component is the one bound to `/form/<field>`; it fails when one of its checks' messages
 * is shown as an error in the surface.
 */
export function invalidFields(messages, action, root) {
  if (!root || !action?.context || typeof action.context !== "object") return [];
  const shown = new Set([...root.querySelectorAll(".error")].map((e) => e.textContent.trim()));
  if (shown.size === 0) return [];
  const checks = new Map(); // field → its checks' messages (the latest definition wins)
  for (const m of Array.isArray(messages) ? messages : []) {
    for (const c of m?.updateComponents?.components || []) {
      const path = c?.value?.path;
      if (typeof path === "string" && path.startsWith("/form/") && Array.isArray(c.checks)) {
        checks.set(path.slice(6), c.checks.map((k) => k?.message).filter((x) => typeof x === "string"));
      }
    }
  }
  return Object.keys(action.context).filter((f) => (checks.get(f) || []).some((msg) => shown.has(msg)));
}

/** What the live region below a form's buttons says of a refusal: the status, and the
 *  fields the agent asked to change. */
function refusalText(st, errs) {
  const fields = errs.map((e) => `${FIELD_LABELS[e.field] || e.field}: ${e.message || e.code}`);
  if (st.state === FORM_VIEW.rejected) return fields.length ? `The agent asked for changes: ${fields.join("; ")}.` : st.text;
  return fields.length ? `${st.text} ${fields.join("; ")}` : st.text;
}

/** One form's node; draw(form) keeps the surface when only messages were appended. */
export function formNode(formId, ctx) {
  const title = h("p", { class: "who" });
  const status = h("p", { class: "form-status" });
  const reconcile = h("button", { type: "button", class: "primary", hidden: true }, "Check status");
  const errors = h("ul", { class: "form-errors" });
  // said once when it changes ("Not sent: check Email."); the form is not a log item
  const problem = h("p", { class: "form-problem", "aria-live": "polite" });
  const receipt = h("dl", { class: "form-receipt" });
  const host = h("div", { class: "form-host" });
  // a refusal is said below the surface, next to its buttons, and announced (polite live region)
  const el = h("div", { class: "msg kind-form", "data-form-id": formId }, title, status, reconcile, errors, host, problem, receipt);
  let processor = null;
  let surfaceEl = null;
  let observer = null;
  let refocus = null; // what had the focus when the form went inert
  let drawn = { surfaceId: null, first: null, last: 0, seqs: new Set() }; // what the processor has taken
  let form = null;
  let drawnMessages = []; // the list last drawn (what the agent and the UI server set)
  let saidRefusal = ""; // the refusal last put in the live region

  reconcile.addEventListener("click", () => {
    if (form?.pendingAction && form.operationId) ctx.press(formId, form, form.pendingAction, form.operationId);
  });

  function teardown() {
    try {
      processor?.model?.dispose();
    } catch {
      // a half-built surface: nothing to keep
    }
    processor = null;
    observer?.disconnect();
    observer = null;
    drawn = { surfaceId: null, first: null, last: 0, seqs: new Set() };
    if (surfaceEl) surfaceEl.remove();
    surfaceEl = null;
  }

  // Which of `messages` are new since the last draw, by the numbers the server gives each
  // message (they only grow; compaction drops a message with its number): the same
  // surface, every older number already drawn → only the new ones, applied in place, so
  // what the student typed meanwhile stays. Anything else → null (rebuild).
  function newSince(messages, seqs, surfaceId) {
    if (!processor || drawn.surfaceId !== surfaceId || !Array.isArray(seqs) || seqs.length !== messages.length) return null;
    if (seqs[0] !== drawn.first) return null;
    const fresh = [];
    for (let i = 0; i < seqs.length; i++) {
      if (seqs[i] > drawn.last) fresh.push(i);
      else if (!drawn.seqs.has(seqs[i]) || fresh.length) return null;
    }
    return fresh;
  }

  // a form closed for a newer one: what was typed and not sent is kept for the same form
  // sent again in this conversation (the draft book drops it if another form comes)
  function keepDraft(threadId) {
    try {
      const current = processor.model.getSurface(drawn.surfaceId)?.dataModel?.get("/form");
      const draft = draftOf(current, sentModel(drawnMessages));
      if (draft) ctx.drafts?.keep(threadId, drawn.surfaceId, draft);
    } catch {
      // a surface without a data model: nothing typed to keep
    }
  }

  function remember(seqs, surfaceId) {
    const nums = Array.isArray(seqs) ? seqs : [];
    drawn = { surfaceId, first: nums[0] ?? null, last: Math.max(drawn.last, ...nums), seqs: new Set(nums) };
  }

  function drawSurface(messages, seqs, surfaceId) {
    const fresh = newSince(messages, seqs, surfaceId);
    if (fresh && fresh.length === 0) return;
    try {
      if (!fresh) {
        teardown();
        // rebuilt from the whole list: what the server holds is what is drawn
        processor = new MessageProcessor([basicCatalog], (action) => {
          if (!form) return;
          // the renderer shows its checks but dispatches anyway: a press whose fields the
          // renderer marks wrong is held back here, and nothing is sent
          const wrong = invalidFields(form.messages, action, surfaceEl?.shadowRoot);
          if (wrong.length) {
            problem.textContent = `Not sent: check ${wrong.map((f) => FIELD_LABELS[f] || f).join(", ")}.`;
            return;
          }
          problem.textContent = "";
          ctx.press(formId, form, action, null);
        });
        // copies: the renderer's data model takes the objects it is given and writes what
        // is typed into them, and the list is the server's (what was sent stays readable)
        processor.processMessages(structuredClone(messages));
        // the same form sent again ("continue"): what the student typed into the one it
        // replaced and never sent wins over the values sent; untouched fields keep them
        const draft = ctx.drafts?.take(form?.threadId, surfaceId);
        if (draft) {
          processor.processMessages(
            Object.entries(draft).map(([field, value]) => ({ version: "v0.9", updateDataModel: { surfaceId, path: `/form/${field}`, value } })),
          );
        }
        surfaceEl = document.createElement("a2ui-surface");
        surfaceEl.surface = processor.model.getSurface(surfaceId);
        host.append(surfaceEl);
        // its shadow root exists once it is in the page and has drawn
        const mine = surfaceEl;
        mine.updateComplete?.then(() => {
          if (surfaceEl !== mine || !mine.shadowRoot) return;
          const root = mine.shadowRoot;
          adoptSurfaceStyles(root);
          const prefix = `f-${formId}`.replace(/[^A-Za-z0-9_-]/g, "_");
          // the renderer redraws parts of the surface on its own (a value typed, a check
          // failing): label what it drew each time (attributes only: no loop)
          observer = new MutationObserver(() => labelFields(root, prefix));
          observer.observe(root, { childList: true, subtree: true });
          labelFields(root, prefix);
        });
      } else {
        // only the new messages (a slot list, values filled from the chat)
        processor.processMessages(structuredClone(fresh.map((i) => messages[i])));
      }
      remember(seqs, surfaceId);
      drawnMessages = messages;
      problem.textContent = "";
    } catch (e) {
      teardown();
      problem.textContent = `The form could not be drawn: ${e?.message || e}`;
    }
  }

  return {
    el,
    draw(next) {
      form = next;
      const st = formStatus(next);
      el.dataset.formState = st.state;
      el.dataset.formRef = next.formRef;
      const agent = WORKFLOW_AGENT[next.workflow]; // the specialist that answers its presses
      el.className = `msg kind-form${agent ? ` tone-${agent}` : ""} form-${st.state}`;
      const t = `${TITLES[next.workflow] || "Form"} · form`;
      if (title.textContent !== t) title.textContent = t;
      if (status.textContent !== st.text) status.textContent = st.text;
      reconcile.hidden = !st.canReconcile;
      const errs = Array.isArray(next.errors) ? next.errors : [];
      replace(errors, errs.map((e) => h("li", { "data-field": e.field }, `${FIELD_LABELS[e.field] || e.field}: ${e.message || e.code}`)));
      errors.hidden = errs.length === 0;
      const messages = Array.isArray(next.messages) ? next.messages : [];
      if (st.state === FORM_VIEW.superseded && processor && drawn.surfaceId) keepDraft(next.threadId);
      if (messages.length && next.surfaceId) drawSurface(messages, next.seqs, next.surfaceId);
      else teardown();
      // a refusal (the UI server's, or the agent asking for changes) said next to the
      // buttons, in the live region: once each time it changes
      // (a press the server refused — "Not done: …", "Closed: …" — as well as one this
      // window held back)
      const refused = st.state === "refused" || st.state === FORM_VIEW.rejected || st.state === FORM_VIEW.notDelivered;
      const serverRefused = Boolean(next.problem) && (st.state === FORM_VIEW.editing || st.state === FORM_VIEW.superseded);
      const refusal = refused || serverRefused ? refusalText(st, errs) : "";
      // said again when a redraw of the surface cleared it while it still holds
      if (refusal && (refusal !== saidRefusal || problem.textContent === "")) problem.textContent = refusal;
      saidRefusal = refusal;
      // `inert` (while a press is on its way, or read-only) drops the focus to the body:
      // the element that had it gets it back when the form is editable again, so a
      // keyboard user goes on from "Find times" rather than from the top of the page
      if (!st.editable && !host.inert && host.contains(document.activeElement)) {
        refocus = surfaceEl?.shadowRoot?.activeElement || document.activeElement;
      }
      host.inert = !st.editable;
      // awaiting a confirmation, the form's own buttons are not offered (only "Check
      // status" is); a focus the form lost goes there
      surfaceEl?.classList.toggle("awaiting-confirmation", st.canReconcile);
      if (st.canReconcile && refocus) {
        const lost = !document.activeElement || document.activeElement === document.body;
        if (lost) reconcile.focus();
        refocus = null;
      }
      if (st.editable && refocus) {
        const lost = !document.activeElement || document.activeElement === document.body;
        if (lost && refocus.isConnected) refocus.focus();
        refocus = null;
      }
      host.setAttribute("aria-busy", st.state === FORM_VIEW.submitting ? "true" : "false");
      const r = next.state === FORM_VIEW.submitted && next.receipt && typeof next.receipt === "object" ? next.receipt : null;
      replace(receipt, r ? receiptEntries(r).flatMap(([k, v]) => [h("dt", null, RECEIPT_LABELS[k] || k), h("dd", null, String(v))]) : []);
      receipt.hidden = !r;
    },
    dispose: teardown,
  };
}
