// What the page takes from the official A2UI v0.9 renderer (@a2ui/web_core and
// @a2ui/lit 0.11.0, with lit 3.3.3): the message processor that holds surfaces and the
// <a2ui-surface> element with the basic catalog. build.sh bundles this file into a2ui.js.
export { MessageProcessor } from "@a2ui/web_core/v0_9";
export { A2uiSurface, basicCatalog } from "@a2ui/lit/v0_9";
