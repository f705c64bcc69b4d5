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
})();
