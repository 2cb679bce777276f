// The URL owns which view shows. Links in <nav> are real links; plain left-clicks are
// handled here with pushState, everything else (new tab, middle-click) is the browser's.
// Each change sets the title, marks the link aria-current="page" and, when the person
// moved (click, Back, Forward), focuses the view's <h1 tabindex="-1">.

export const ROUTES = {
  "/conversation": { view: "conversation", title: "Conversation" },
  "/activity": { view: "activity", title: "Agent activity" },
  "/topology": { view: "topology", title: "Topology" },
};
const HOME = "/conversation";
const SITE = "Campus";

export function routeOf(pathname) {
  const path = pathname === "/" || pathname === "" ? HOME : pathname.replace(/\/+$/, "");
  return ROUTES[path] ? { path, ...ROUTES[path] } : null;
}

/**
 * Starts routing. `show(route)` is called on every change (and once now); it returns
 * nothing. Unknown paths show Conversation.
 */
export function startRouter(nav, show) {
  const apply = (focus) => {
    const route = routeOf(location.pathname) || { path: HOME, ...ROUTES[HOME] };
    for (const a of nav.querySelectorAll("a[href]")) {
      if (a.getAttribute("href") === route.path) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    document.title = `${route.title} · ${SITE}`;
    show(route);
    if (focus) {
      const h1 = document.querySelector(`#view-${route.view} h1`);
      if (h1) h1.focus();
    }
  };

  nav.addEventListener("click", (e) => {
    const a = e.target.closest("a[href]");
    if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.defaultPrevented) return;
    const route = routeOf(a.getAttribute("href"));
    if (!route) return;
    e.preventDefault();
    if (location.pathname !== route.path) history.pushState(null, "", route.path);
    apply(true);
  });
  window.addEventListener("popstate", () => apply(true));
  apply(false);
}
