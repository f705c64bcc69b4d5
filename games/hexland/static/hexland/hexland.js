/* Hexland: play by clicking (or Enter / Space on) a highlighted corner, edge or hex of the board.
 * Progressive enhancement only: the action panel's forms work without this script. Each target
 * carries the exact move it makes (data-move); the click posts it with the board's version,
 * as the panel's forms do. Listeners are delegated from the document once. */
(function () {
  "use strict";
  if (window.hexlandBoard) return;
  window.hexlandBoard = true;

  // The version the page shows (the island is drawn again only when it changes, so its own
  // data-version may be older than the page's).
  function shownVersion(board) {
    var page = window.hexsiteLivePage;
    var live = document.getElementById("live-game");
    return (page ? page.stamp() : (live && live.dataset.stamp) || "").split(".")[0];
  }

  // The answer (the live page's regions, or a refusal shown on the board) is handled by
  // static/js/live.js; the CSRF token travels in the page's hx-headers.
  function play(target) {
    var game = target.closest(".hl-game");
    var board = target.closest("#hl-board");
    if (!game || !board || board.dataset.busy) return;
    board.dataset.busy = "1";  // one click, one move: a second click waits for the answer
    htmx.ajax("POST", "/games/" + game.dataset.game + "/move/", {
      source: board,
      swap: "none",
      values: {move: target.dataset.move, version: shownVersion(board)}
    }).finally(function () { delete board.dataset.busy; });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest(".hl-target[data-move]");
    if (target) { event.preventDefault(); play(target); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var target = event.target.closest && event.target.closest(".hl-target[data-move]");
    if (target) { event.preventDefault(); play(target); }
  });

  // The action bar at a phone's foot (hexland.css): folded to the hand and the turn's buttons
  // until its "More" button unfolds the rest. The state is kept on <html>, outside the region,
  // so a push that redraws the bar leaves it as the player set it; the button (drawn hidden,
  // for pages without this script) is shown and told the state again after each redraw. The
  // bar's height is the page's bottom padding (--hl-bar-height), so nothing stays under it.
  var html = document.documentElement;
  if (!html.dataset.hlBar) html.dataset.hlBar = "folded";
  var watched = null;
  var sizes = "ResizeObserver" in window ? new ResizeObserver(padPage) : null;

  function padPage() {
    var bar = document.getElementById("hl-private");
    var height = bar && bar.firstElementChild ? bar.getBoundingClientRect().height : 0;
    html.style.setProperty("--hl-bar-height", Math.ceil(height) + "px");
  }

  function syncBar() {
    var bar = document.getElementById("hl-private");
    var toggle = bar && bar.querySelector(".hl-bar-toggle");
    if (toggle) {
      toggle.hidden = false;
      toggle.setAttribute("aria-expanded", html.dataset.hlBar === "open" ? "true" : "false");
    }
    if (sizes && bar !== watched) {
      if (watched) sizes.unobserve(watched);
      if (bar) sizes.observe(bar);
      watched = bar;
    }
    padPage();
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("#hl-private .hl-bar-toggle")) return;
    html.dataset.hlBar = html.dataset.hlBar === "open" ? "folded" : "open";
    syncBar();
  });
  document.addEventListener("htmx:load", syncBar);  // live.js, after each region it swaps in
  window.addEventListener("resize", padPage);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", syncBar); else syncBar();
})();
