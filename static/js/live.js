/* The live parts every game page shares: the running clock counts down where it is short
 * (under a day), and a dropped socket says "reconnecting" until htmx's WebSocket extension has
 * reconnected (it then catches up by itself). Progressive enhancement: without this script the
 * deadline is shown as a time. */
(function () {
  "use strict";
  if (window.hexsiteLive) return;
  window.hexsiteLive = true;

  function left(seconds) {
    if (seconds <= 0) return "time is up";
    var m = Math.floor(seconds / 60), s = seconds % 60;
    if (m >= 60) return Math.floor(m / 60) + " h " + (m % 60) + " min left";
    return (m ? m + " min " : "") + s + " s left";
  }

  function tick() {
    document.querySelectorAll("time[data-countdown]").forEach(function (time) {
      var seconds = Math.round((Date.parse(time.getAttribute("datetime")) - Date.now()) / 1000);
      if (seconds > 86400) return;
      var out = time.parentNode.querySelector(".countdown");
      if (!out) {
        out = document.createElement("span");
        out.className = "countdown";
        time.after(" ", out);
      }
      out.textContent = "(" + left(seconds) + ")";
      out.classList.toggle("urgent", seconds <= 10);
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("htmx:load", tick);

  function status(text) {
    var banner = document.getElementById("socket-status");
    if (!banner) return;
    banner.textContent = text;
    banner.hidden = !text;
  }
  document.addEventListener("htmx:wsClose", function () { status("Reconnecting…"); });
  document.addEventListener("htmx:wsError", function () { status("Reconnecting…"); });
  document.addEventListener("htmx:wsOpen", function () { status(""); });
  // A 503 (PostgreSQL or Redis briefly away) is not swapped (base.html's responseHandling): say
  // so in the same banner; the server's text asks to reload and look before playing again.
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status === 503) {
      status("The site is briefly unavailable. Reload the page in a few seconds to see where things stand.");
    }
  });

  // The socket may replace #game-board while a request from it is on its way (the board of the
  // user's own move often comes first). The answer's target is then off the page: drop it. The
  // page already shows a board at least as new (a user's own move always gets them a pushed
  // board), and swapping into the lost target let htmx's hx-preserve move the live form into
  // the discarded answer: the form vanished, leaving "You have submitted". htmx announces the
  // swap on the old target itself, where no document listener hears it: listen there.
  function dropIfGone(event) {
    if (!event.detail.target.isConnected) event.detail.shouldSwap = false;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var target = event.detail.target;
    if (target) target.addEventListener("htmx:beforeSwap", dropIfGone);  // added once per element
  });
})();
