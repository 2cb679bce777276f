// Generated from the Rust types by crates/ui/tests/page_vocab.rs: do not edit by hand.
// After a change there: CAMPUS_WRITE_VOCAB=1 cargo test -p ui --test page_vocab
/** The steps of a question's path strip, in order (crates/ui/src/hops.rs). */
export const STEP_IDS = Object.freeze(["student_sent","hub_received","hub_decided","hub_forwarded","specialist_received","specialist_replied","hub_got_answer","hub_replied","student_received"]);
/** Each step's id by name (the same ids as STEP_IDS). */
export const STEP = Object.freeze({"hubDecided":"hub_decided","hubForwarded":"hub_forwarded","hubGotAnswer":"hub_got_answer","hubReceived":"hub_received","hubReplied":"hub_replied","specialistReceived":"specialist_received","specialistReplied":"specialist_replied","studentReceived":"student_received","studentSent":"student_sent"});
/** A reply's `outcome` (vocab::ReplyOutcome). */
export const OUTCOMES = Object.freeze(["route","clarify","unsupported","unavailable","form","invalid_answer","failed","outcome_unknown","courtesy"]);
/** `campusForm.state` (vocab::FormState). */
export const FORM_STATES = Object.freeze(["open","rejected","submitted","cancelled"]);
/** Where a form is as the page shows it, by name (ui::forms::ViewState). */
export const FORM_VIEW = Object.freeze({"cancelled":"cancelled","confirmationPending":"confirmation_pending","editing":"editing","notDelivered":"not_delivered","rejected":"rejected","submitted":"submitted","submitting":"submitting","superseded":"superseded"});
/** A specialist's status in the Hub's registry (vocab::registry::Status). */
export const STATUSES = Object.freeze(["ready","stale","unreachable","disconnected","disabled","invalid_card"]);
/** The kinds of event on the Hub's feed (vocab::HubEventKind). */
export const HUB_EVENTS = Object.freeze(["message_received","duplicate_request","routed","forwarded","specialist_replied","forward_failed","reply_published","router_trained","form_relayed","form_action_received","form_action_refused","form_action_replayed","form_action_forwarded","form_action_unknown","form_action_result","form_action_replied","registered","heartbeat","signed_out","card_change_notice","card_fetched"]);
/** The agents' ids, as telemetry, `servedBy` and the registry carry them (vocab::agents). */
export const AGENTS = Object.freeze({"hub":"hub","library":"library","professor":"professor","student":"student","tutor":"tutor"});
/** The specialists drawn before the Hub reports its registry, in order (vocab::agents). */
export const SPECIALISTS = Object.freeze(["tutor","library","professor"]);
/** The action name of every form's Cancel button (forms::action::CANCEL_FORM). */
export const CANCEL_ACTION = Object.freeze("cancel_form");
/** The action name of a composed screen's follow-up button: its question is asked as a new one, no form action (forms::action::FOLLOW_UP). */
export const FOLLOW_UP_ACTION = Object.freeze("follow_up");
/** Each form workflow's specialist (forms::Workflow::agent). */
export const WORKFLOW_AGENT = Object.freeze({"loan-renewal":"library","study-room-booking":"library","tutoring-request":"tutor"});
/** The stream's channels (crates/ui/src/stream.rs, monitor.rs) and the notices' lane. */
export const CHANNELS = Object.freeze({"monitor":"monitor","noticesThread":"notices","student":"student"});
/** The codes of the server's notices (crates/ui/src/notices.rs). */
export const NOTICES = Object.freeze({"conversationStarted":"conversation_started","historyTruncated":"history_truncated","hubReachable":"hub_reachable","hubUnreachable":"hub_unreachable"});
/** Why a forward brought no answer: a hop's reason (vocab::events::ForwardFailure). */
export const FORWARD_FAILURES = Object.freeze({"error":"error","outcomeUnknown":"outcome_unknown","unreachable":"unreachable"});
/** The codes a press on a form is refused with, by the Hub or its specialist (vocab::form::refusal). */
export const FORM_REFUSALS = Object.freeze({"actionNotAllowed":"action_not_allowed","formClosed":"form_closed","formExpired":"form_expired","formNotYours":"form_not_yours","formStale":"form_stale","formUnknown":"form_unknown","operationIdInvalid":"operation_id_invalid","operationReused":"operation_reused","slotUnknown":"slot_unknown","workflowDisabled":"workflow_disabled"});
/** The codes a run ends with in RUN_ERROR (ui::error::run_codes). */
export const RUN_ERRORS = Object.freeze({"hubError":"hub_error","hubUnavailable":"hub_unavailable","outcomeUnknown":"outcome_unknown","runInProgress":"run_in_progress","timeout":"timeout"});
