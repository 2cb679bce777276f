// Steps both channels' slices of the reducer take: a JSON patch applied to a copy (a
// delta that does not fit is dropped), and a lane's open run set or cleared.
import { applyPatch } from "../vendor/agui.js";

/** `doc` with `delta` applied, or null when the delta does not fit. */
export function patched(doc, delta) {
  try {
    return applyPatch(doc ?? {}, delta, false, false).newDocument;
  } catch {
    return null; // a delta that does not fit is dropped; the next snapshot repairs
  }
}

export function setOpen(state, lane, value) {
  const open = { ...state.open, [lane]: value };
  if (!value) delete open[lane]; // a lane without an open run holds nothing
  return { ...state, open };
}
