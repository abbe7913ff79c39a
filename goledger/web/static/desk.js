// goledger desk: keep the keyboard where the director types, show the ledger's head live in the
// header of every page, and bring the players' pages up to date when the head changes
// (server-sent events from /events/head; the page's <main> is fetched again and swapped in
// place, keeping the scroll position). No build step.
(function () {
  function focusAutofocus() {
    var el = document.querySelector("[autofocus]");
    if (el) { el.focus(); if (el.select) { el.select(); } }
  }
  var swaps = 0;
  document.addEventListener("htmx:afterSettle", function () {
    focusAutofocus();
    swaps += 1;
    document.body.setAttribute("data-swaps", String(swaps));  // tests wait on it
  });
  // print buttons (no inline handlers: the Content-Security-Policy allows scripts from files only)
  document.addEventListener("click", function (e) {
    var target = e.target && e.target.closest ? e.target.closest("[data-print]") : null;
    if (target) { window.print(); }
  });
  var body = document.body;
  var seen = body.getAttribute("data-head");
  var live = body.hasAttribute("data-live") || body.hasAttribute("data-live-parts");
  // data-live: the whole <main> is fetched again and swapped; data-live-parts="#a #b": only
  // those elements (a desk page keeps its forms, and what the director is typing, as they are)
  var parts = (body.getAttribute("data-live-parts") || "").split(" ").filter(Boolean);
  var busy = false, again = false;

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(window.location.href, { credentials: "same-origin", headers: { "X-Goledger-Live": "1" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { window.goledgerFetchedAt = Date.now(); return html; })
      .then(function (html) {
        if (html === null) { return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        if (parts.length) {
          parts.forEach(function (sel) {
            var now = document.querySelector(sel), next = doc.querySelector(sel);
            if (now && next) { now.replaceWith(document.importNode(next, true)); }
          });
        } else {
          var fresh = doc.querySelector("main"), main = document.querySelector("main");
          if (!fresh || !main) { return; }
          main.innerHTML = fresh.innerHTML;
        }
        var head = doc.body.getAttribute("data-head");
        body.setAttribute("data-head", head);
        var el = document.getElementById("head");
        if (el && head) { el.textContent = head; }
        window.goledgerUpdatedAt = Date.now();  // the live-update benchmark reads it
        body.setAttribute("data-updated", head || "");
        document.dispatchEvent(new CustomEvent("goledger:updated"));
      })
      .catch(function () { /* the next change tries again */ })
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  if (window.EventSource) {
    var source = new EventSource("/events/head");
    source.addEventListener("head", function (e) {
      window.goledgerHeadAt = Date.now();  // with goledgerFetchedAt: where the benchmark's time goes
      var el = document.getElementById("head");
      if (el) { el.textContent = e.data; }
      if (live && seen !== null && e.data !== seen) { refresh(); }
      seen = e.data;
    });
  }
})();
