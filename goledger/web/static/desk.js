// goledger desk: keep the keyboard where the director types, and refresh the players' view
// when the ledger head changes (server-sent events from /events/head). No build step.
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
  if (body.hasAttribute("data-live") && window.EventSource) {
    var source = new EventSource("/events/head");
    source.addEventListener("head", function (e) {
      if (seen !== null && e.data !== seen) {
        // spread the reloads of a hall full of phones over a second or two
        source.close();
        window.setTimeout(function () { window.location.reload(); }, 300 + Math.random() * 1500);
      }
      seen = e.data;
    });
  }
})();
