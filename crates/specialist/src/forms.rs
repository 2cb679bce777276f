//! The form host, shared by the Tutor and the Library (docs/forms.md): a durable record
//! per form in the agent's store, at most one open per (context, workflow); an offered
//! form is an A2A Task `INPUT_REQUIRED` with a text part and an A2UI part; an action
//! (one `application/a2ui+json` data part with `[{version, action}]`, metadata `formId`
//! and `operationId`) is checked in order — `form_unknown`, `form_closed`,
//! `action_not_allowed` (the workflow's action, from a button of the current screen, on
//! this form's surface), `form_stale` (the button's `formVersion`), `workflow_disabled`,
//! then the operation id (`operation_reused`) — and only then does the workflow's
//! handler run, once: its effect, the form's change and the operation's result commit in
//! one transaction. An operation id already recorded is decided by its record before the
//! other checks: an identical retry gets the stored result (the form it closed is closed
//! now), other values `operation_reused`. Every refusal is a JSON-RPC
//! invalid-params error whose `ErrorInfo.reason` is the code. Every A2UI payload passes
//! the official schemas before it is stored or sent.
//!
//! The parts: the handler contract, refusal codes and shared checks (`contract`, a leaf
//! the others use), the data model among a form's values (`data`), the host itself with
//! offer and resend (`host`), an action's checks and its one transaction (`act`), a chat
//! message's reading and reply (`chat`), and the front the agents share (`front`).

mod act;
mod chat;
mod contract;
mod data;
mod front;
mod host;

pub use chat::{CONTINUE_OR_REPLACE, Chat, ChatRead, ChatTexts, OpenFormChoice, chat_reply};
pub use contract::{Action, Buttons, HandlerError, Outcome, Step, checked, code, store_failed};
pub use data::{
    BUTTONS_KEY, DATA_KEY, data_of, data_values, drawn_buttons, field_errors, pressed, with_data,
};
pub use front::Front;
pub use host::{FormHost, TEST_DELAY_ENV, hosting_forms, skill_enabled};

#[cfg(test)]
mod tests;
