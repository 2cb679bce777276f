// What the page says for the server's codes: a form's status line, a hop's reason and
// the label of a run that ended in an error. Codes never reach the page raw.
import { CANCEL_ACTION, FORM_REFUSALS, FORM_VIEW, FORWARD_FAILURES, RUN_ERRORS, STEP } from "../vocab.js";

/** What a submitted form's status line says where "Submitted." is not the word. */
const SUBMITTED = { "loan-renewal": "Renewed: the loan service confirmed it." };

/**
 * What a form's status line says, from the server's state and this window's own press:
 * {state, text, canReconcile, editable}. Codes never reach the page raw.
 */
export function formStatus(form) {
  if (!form) return null;
  if (form.local?.refused) return { state: "refused", text: `Not sent: ${form.local.refused.message}`, canReconcile: false, editable: true };
  if (form.local?.sending && (form.state === FORM_VIEW.editing || form.state === FORM_VIEW.rejected || form.state === FORM_VIEW.notDelivered || form.state === FORM_VIEW.confirmationPending))
    return { state: FORM_VIEW.submitting, text: "Sending…", canReconcile: false, editable: false };
  switch (form.state) {
    case FORM_VIEW.submitting:
      return { state: FORM_VIEW.submitting, text: "Sending…", canReconcile: false, editable: false };
    case FORM_VIEW.confirmationPending:
      return { state: FORM_VIEW.confirmationPending, text: "Confirmation pending: it may have reached the university, but no confirmation came. Check its status before doing anything else.", canReconcile: true, editable: false };
    case FORM_VIEW.notDelivered:
      return { state: FORM_VIEW.notDelivered, text: "Not delivered: nothing reached the university. Your entries are kept; press the button again to send.", canReconcile: false, editable: true };
    case FORM_VIEW.rejected:
      return { state: FORM_VIEW.rejected, text: "The agent asked for changes: see below.", canReconcile: false, editable: true };
    case FORM_VIEW.submitted:
      return { state: FORM_VIEW.submitted, text: SUBMITTED[form.workflow] || "Submitted.", canReconcile: false, editable: false };
    case FORM_VIEW.cancelled:
      return form.pressedHere === CANCEL_ACTION
        ? { state: FORM_VIEW.cancelled, text: "You cancelled this form; nothing was submitted.", canReconcile: false, editable: false }
        : { state: FORM_VIEW.cancelled, text: "Cancelled: nothing was submitted.", canReconcile: false, editable: false };
    case FORM_VIEW.superseded:
      return { state: FORM_VIEW.superseded, text: form.problem ? `Closed: ${refusalWords(form.problem)}` : "Closed: a newer form took its place.", canReconcile: false, editable: false };
    default:
      return { state: FORM_VIEW.editing, text: form.problem ? `Not done: ${refusalWords(form.problem)}` : "", canReconcile: false, editable: true };
  }
}

/** Why a press was refused, in words, by its code; an agent's own message only for a code
 *  not worded here (it names no field paths for the known ones). */
export function refusalWords(problem) {
  switch (problem?.code) {
    case FORM_REFUSALS.formUnknown:
      return "the university no longer knows this form.";
    case FORM_REFUSALS.formClosed:
      return "it was sent, cancelled or replaced by a newer one.";
    case FORM_REFUSALS.formExpired:
      return "it is too old; ask again for a new one.";
    case FORM_REFUSALS.formNotYours:
      return "this form belongs to another conversation.";
    case FORM_REFUSALS.actionNotAllowed:
      return "that button is not on the form's current screen, so nothing was done. Use the buttons shown now.";
    case FORM_REFUSALS.formStale:
      return "the form changed since this screen was drawn, so nothing was done. Look at it again and press once more.";
    case FORM_REFUSALS.workflowDisabled:
      return "the service has turned this form off for now; nothing was done.";
    case FORM_REFUSALS.operationReused:
      return "this press was already used for a different action; nothing was done. Press the button again.";
    case FORM_REFUSALS.slotUnknown:
      return "that time is not one the form offered; find times again.";
    default:
      if (typeof problem?.code === "string" && problem.code.startsWith("a2ui_")) return "the press did not match the form's screen; nothing was done.";
      return problem?.message || "it was refused.";
  }
}

/** A hop's reason in words for people: the server's codes (`outcome_unknown`, `timeout`,
 *  `hub_unavailable`, `hub_error`, `unreachable`, …) never reach the page raw. `step` is the
 *  hop's step, `specialist` the specialist's display name (or null); other text is kept. */
export function hopReason(step, state, reason, specialist, what = "question") {
  if (!reason) return null;
  const who = specialist ? `the ${specialist}` : "the specialist";
  const fromHub = step === STEP.studentReceived;
  switch (reason) {
    case RUN_ERRORS.outcomeUnknown:
      return fromHub
        ? `Outcome unknown: the connection to the Hub broke after the ${what} was sent, so whether it was handled is not known`
        : `Outcome unknown: the Hub could not tell whether ${who} handled it`;
    case RUN_ERRORS.timeout:
      return fromHub ? "Outcome unknown: no answer from the Hub in time" : `Outcome unknown: no answer from ${who} in time`;
    case RUN_ERRORS.hubUnavailable:
      return "The Hub could not be reached; nothing was sent";
    case RUN_ERRORS.hubError:
      return "The Hub answered with an error";
    case "failed":
    case FORWARD_FAILURES.error:
      return `${specialist ? `The ${specialist}` : "The specialist"} answered with an error`;
    default:
      return state === "unknown" && /^[a-z_]+$/.test(reason) ? `Outcome unknown (${reason.replaceAll("_", " ")})` : reason;
  }
}

/**
 * How the chat labels a run that ended in an error: a question that was sent but whose
 * outcome nobody can tell is "unknown", never a failure; codes worded here are not shown
 * raw, any other code stays beside the message for reference.
 */
export function errorLabel(code) {
  switch (code) {
    case RUN_ERRORS.runInProgress:
      return { who: "Not sent", tone: "error", showCode: false };
    case RUN_ERRORS.outcomeUnknown:
    case RUN_ERRORS.timeout:
      return { who: "? Outcome unknown", tone: "pending", showCode: false };
    case RUN_ERRORS.hubUnavailable:
      return { who: "✕ Not sent", tone: "error", showCode: false };
    case "ui_server_unreachable": // the page's own: its post to the UI server broke off
      return { who: "? Maybe not sent", tone: "pending", showCode: false };
    default:
      return { who: "✕ Problem", tone: "error", showCode: Boolean(code) };
  }
}

/** Each step's label, by the step ids the server names (`STEP_IDS`, generated). */
export const STEP_LABELS = {
  student_sent: "Student sent",
  hub_received: "Hub received",
  hub_decided: "Hub decided",
  hub_forwarded: "Hub forwarded",
  specialist_received: "Specialist received",
  specialist_replied: "Specialist replied",
  hub_got_answer: "Hub got the answer",
  hub_replied: "Hub replied",
  student_received: "Student received",
};
/** A press on a form: the labels that differ from a question's (the Hub checks the form
 *  it recorded instead of deciding where a question goes). */
export const PRESS_STEP_LABELS = {
  student_sent: "Student sent the press",
  hub_decided: "Hub checked the form",
};
/** The strip's heading: a question's, or a press's on a form. */
export const STRIP_TITLES = { question: "This question's path", press: "This form press's path" };
/** The path strip's label for a question the Hub answered itself, by its outcome. */
export const HUB_OUTCOMES = { clarify: "Clarifying question", unsupported: "Not supported", unavailable: "Unavailable" };

// in the order a receipt lists them (a receipt's own key order is the wire's, not meant for reading)
export const RECEIPT_LABELS = { title: "Title", newDueDate: "New due date", renewalsUsed: "Renewals used", loanId: "Loan", requestId: "Request", bookingId: "Booking", topic: "Topic", preferredDate: "Preferred date", preferredPeriod: "Time of day", room: "Room", date: "Date", times: "Times", groupSize: "People", timezone: "Time zone", status: "Status", note: "Note" };
const LABEL_ORDER = Object.keys(RECEIPT_LABELS);
// a receipt's entries: the known keys in RECEIPT_LABELS' order, then any other as sent
export const receiptEntries = (r) => {
  const rank = (k) => (LABEL_ORDER.includes(k) ? LABEL_ORDER.indexOf(k) : LABEL_ORDER.length);
  return Object.entries(r).sort(([a], [b]) => rank(a) - rank(b));
};
