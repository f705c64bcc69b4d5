// The new-room form: only the seats of the chosen number of players are shown. Without this
// script every seat is shown and the server ignores those beyond the number.
(function () {
  "use strict";

  function showChosenSeats(form, players) {
    var count = parseInt(players.value, 10) || 4;
    form.querySelectorAll("select[data-seat]").forEach(function (select) {
      var row = select.closest("p") || select.parentElement;
      row.hidden = parseInt(select.getAttribute("data-seat"), 10) > count;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-room-form]").forEach(function (form) {
      var players = form.querySelector("select[name=players]");
      if (!players) return;
      players.addEventListener("change", function () { showChosenSeats(form, players); });
      showChosenSeats(form, players);
      var note = form.querySelector("[data-seats-note]");
      if (note) note.hidden = true;  // it explains the seats this script now hides
    });
  });
})();
