// A form's data model as its A2UI messages leave it, what the student typed over it
// and did not send, and the bounded book of such drafts kept until the form is drawn.
import { LIMITS } from "./bounds.js";

/** The form's data model (`/form`) as a list of A2UI messages leaves it. */
export function sentModel(messages) {
  let model = {};
  for (const m of Array.isArray(messages) ? messages : []) {
    const u = m?.updateDataModel;
    if (!u || typeof u.path !== "string") continue;
    if (u.path === "/form" || u.path === "/") {
      const v = u.path === "/" ? u.value?.form : u.value;
      model = v && typeof v === "object" ? { ...v } : {};
    } else if (u.path.startsWith("/form/") && !u.path.slice(6).includes("/")) {
      model = { ...model, [u.path.slice(6)]: u.value };
    }
  }
  return model;
}

/**
 * What the student typed into a form and did not send: the fields whose value in the
 * drawn surface (`current`) differs from what the messages set (`sent`). Null when none.
 */
export function draftOf(current, sent) {
  if (!current || typeof current !== "object") return null;
  const draft = {};
  for (const [field, value] of Object.entries(current)) {
    if (JSON.stringify(value) !== JSON.stringify(sent?.[field])) draft[field] = JSON.parse(JSON.stringify(value ?? null));
  }
  return Object.keys(draft).length ? draft : null;
}

/**
 * Drafts of forms closed because the same form was sent again ("continue"), by
 * conversation and surface, until that form is drawn: the newest `limit` kept.
 */
export function draftBook(limit = LIMITS.forms) {
  const drafts = new Map();
  const key = (threadId, surfaceId) => `${threadId} ${surfaceId}`;
  return {
    keep(threadId, surfaceId, draft) {
      const k = key(threadId, surfaceId);
      drafts.delete(k);
      drafts.set(k, draft);
      while (drafts.size > limit) drafts.delete(drafts.keys().next().value);
    },
    take(threadId, surfaceId) {
      const k = key(threadId, surfaceId);
      const draft = drafts.get(k) ?? null;
      drafts.delete(k);
      return draft;
    },
    get size() {
      return drafts.size;
    },
  };
}
