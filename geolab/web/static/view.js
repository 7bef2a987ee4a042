// The projector view: large type, nothing cut, for a class watching one screen. `?view=projector`
// (or `?view=normal`) on any page chooses it, the header's link toggles it, and the browser
// keeps the choice (localStorage), so every page after a move or a redirect stays in it.
// Loaded in <head> so the page is drawn in its view from the first paint.
(function () {
  "use strict";
  var KEY = "geolab-view", asked = new URLSearchParams(location.search).get("view"), view = asked;
  try {
    if (asked === "projector" || asked === "normal") localStorage.setItem(KEY, asked);
    view = localStorage.getItem(KEY);
  } catch (e) { /* no storage (a private window): the URL's choice alone */ }
  var on = view === "projector";
  document.documentElement.classList.toggle("projector", on);
  document.addEventListener("DOMContentLoaded", function () {
    var link = document.getElementById("view-toggle");
    if (!link) return;
    var url = new URL(location.href);
    url.searchParams.set("view", on ? "normal" : "projector");
    link.href = url.pathname + url.search;
    link.textContent = on ? "normal view" : "projector view";
  });
})();
