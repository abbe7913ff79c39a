// goledger desk: keep the keyboard where the director types, show the ledger's head live in the
// header of every page, and bring the players' pages up to date when the head changes
// (server-sent events from /events/head; the page's <main> is fetched again, rendered at the new
// head, and swapped in place, keeping the scroll position). No build step.
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

  function swapped(head) {
    body.setAttribute("data-head", head);
    var el = document.getElementById("head");
    if (el && head) { el.textContent = head; }
    window.goledgerUpdatedAt = Date.now();  // the live-update benchmark reads it
    body.setAttribute("data-updated", head || "");
    document.dispatchEvent(new CustomEvent("goledger:updated"));
    // the frame after the swap has been drawn: when the new standings are on the screen
    window.requestAnimationFrame(function () {
      setTimeout(function () { window.goledgerPaintedAt = Date.now(); body.setAttribute("data-painted", head || ""); }, 0);
    });
  }

  // Bring element `now` (on the page) to `next` (parsed, not on the page) touching only what
  // differs: a table's row groups (<tbody>, 50 rows each on the players' pages) and rows one by
  // one (a result moves a few dozen of 760 standings rows), any other element whole. Unchanged
  // rows keep their layout, so the browser lays out and paints the rows that changed, not the
  // whole table again. In a delta (X-Goledger-Delta: only the rows changed since the head the
  // page shows were sent), an empty <tr data-same> stands for a row the page keeps as it is;
  // false when the delta does not fit the page (then the whole <main> is fetched).
  var DESCEND = { MAIN: 1, TABLE: 1, THEAD: 1, TBODY: 1, TFOOT: 1 };
  function patch(now, next, delta) {
    var olds = now.childNodes, news = Array.prototype.slice.call(next.childNodes);
    if (olds.length !== news.length) {
      if (delta) { return false; }
      now.replaceChildren.apply(now, news);
      return true;
    }
    for (var k = news.length - 1; k >= 0; k--) {
      var a = olds[k], b = news[k];
      if (delta && b.nodeName === "TR" && b.hasAttribute("data-same")) {
        if (a.nodeName !== "TR") { return false; }
        continue;
      }
      if (a.isEqualNode(b)) { continue; }
      if (DESCEND[a.nodeName] && a.nodeName === b.nodeName && a.cloneNode(false).isEqualNode(b.cloneNode(false))) {
        if (!patch(a, b, delta)) { return false; }
      } else if (delta && b.querySelector && b.querySelector("tr[data-same]")) {
        return false;
      } else {
        a.replaceWith(b);
      }
    }
    return true;
  }

  function refresh(whole) {
    if (busy) { again = true; return; }
    busy = true;
    // a players' page (data-live) is answered with its <main> alone, as rendered at the head it
    // names (X-Goledger-Head): one parse, straight into the page; naming the head it shows
    // (X-Goledger-Shown), only the rows changed since (X-Goledger-Delta)
    var ask = { "X-Goledger-Live": "1" };
    var shown = body.getAttribute("data-head");
    if (!whole && !parts.length && shown) { ask["X-Goledger-Shown"] = shown; }
    fetch(window.location.href, { credentials: "same-origin", headers: ask })
      .then(function (r) {
        if (!r.ok) { return null; }
        var head = r.headers.get("X-Goledger-Head"), delta = r.headers.get("X-Goledger-Delta");
        return r.text().then(function (html) { return { html: html, head: head, delta: delta }; });
      })
      .then(function (got) { window.goledgerFetchedAt = Date.now(); return got; })
      .then(function (got) {
        if (got === null) { return; }
        var main = document.querySelector("main");
        if (got.head !== null && !parts.length && main) {
          var fresh = document.createElement("template");
          fresh.innerHTML = got.html;
          if (got.delta !== null && (got.delta !== body.getAttribute("data-head") || !patch(main, fresh.content, true))) {
            again = "whole";  // the delta is not for what the page shows: fetch the whole <main>
            return;
          }
          if (got.delta === null) { patch(main, fresh.content, false); }
          swapped(got.head);
          return;
        }
        var doc = new DOMParser().parseFromString(got.html, "text/html");
        if (parts.length) {
          parts.forEach(function (sel) {
            var now = document.querySelector(sel), next = doc.querySelector(sel);
            if (now && next) { now.replaceWith(document.importNode(next, true)); }
          });
        } else {
          var whole = doc.querySelector("main");
          if (!whole || !main) { return; }
          main.innerHTML = whole.innerHTML;
        }
        swapped(doc.body.getAttribute("data-head"));
      })
      .catch(function () { /* the next change tries again */ })
      .then(function () {
        busy = false;
        if (again) { var next = again; again = false; refresh(next === "whole"); }
      });
  }

  if (window.EventSource) {
    var source = new EventSource("/events/head");
    source.addEventListener("head", function (e) {
      window.goledgerHeadAt = Date.now();  // with goledgerFetchedAt: where the benchmark's time goes
      // a live page's header names the head of what it shows (set when that is swapped in)
      var el = document.getElementById("head");
      if (el && !live) { el.textContent = e.data; }
      if (live && seen !== null && e.data !== seen) { refresh(); }
      seen = e.data;
    });
  }
})();
