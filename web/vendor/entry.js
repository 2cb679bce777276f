// What the page takes from third-party code: the official AG-UI 1.0 client's event
// schema stage (enforceEvents: unknown event types dropped, malformed fields fatal) and
// order verification (verifyEvents), plus the rxjs Subject that feeds them.
// build.sh bundles this file into agui.js (the A2UI renderer is a2ui-entry.js → a2ui.js).
export { enforceEvents, verifyEvents } from "@ag-ui/client";
export { EventType } from "@ag-ui/core";
export { Subject } from "rxjs";
// RFC 6902 patches for STATE_DELTA (the same library @ag-ui/client applies them with)
export { applyPatch } from "fast-json-patch";
