/* Hextension: place tiles by picking a tile, then a cell of your board.
 * Progressive enhancement only: the form's selects work without this script. Listeners are
 * delegated from the document once, so the live page's morphs of #hx-play need no re-binding; htmx.onLoad
 * only refreshes the swapped-in board. The script may be inserted again by a swap: the guard
 * below keeps it from binding twice. */
(function () {
  "use strict";
  if (window.hextensionBoard) return;
  window.hextensionBoard = true;

  function formOf(node) {
    var scope = node.closest("#hx-play") || document;
    return scope.querySelector("form.hx-form");
  }

  function boardOf(form) {
    var scope = form.closest("#hx-play") || document;
    return scope.querySelector("svg.hx-interactive");
  }

  function picked(form) {
    return form.querySelector('.hx-pick[aria-pressed="true"]');
  }

  function selectFor(form, tile) {
    return form.querySelector('select.hx-select[data-tile="' + tile + '"]');
  }

  function say(form, text) {
    var hint = form.querySelector(".hx-hint");
    if (hint) hint.textContent = text;
  }

  function pick(form, button) {
    form.querySelectorAll(".hx-pick").forEach(function (b) {
      b.setAttribute("aria-pressed", b === button ? "true" : "false");
    });
    var board = boardOf(form);
    if (board) board.classList.toggle("hx-picking", !!button);
    if (button) say(form, interpolate(gettext("Tile %(tile)s picked: now choose an empty cell of your board."), {tile: button.dataset.tile}, true));
  }

  // The first tile that has no cell yet, or null when every tile is placed.
  function nextUnplaced(form) {
    var buttons = form.querySelectorAll(".hx-pick");
    for (var i = 0; i < buttons.length; i++) {
      var select = selectFor(form, buttons[i].dataset.tile);
      if (select && !select.value) return buttons[i];
    }
    return null;
  }

  function place(form, tile, cell) {
    form.querySelectorAll("select.hx-select").forEach(function (select) {
      if (select.dataset.tile !== tile && select.value === cell) select.value = "";
    });
    var select = selectFor(form, tile);
    if (!select || !select.querySelector('option[value="' + cell + '"]')) return;
    select.value = cell;
    preview(form);
    var next = nextUnplaced(form);
    pick(form, next);
    if (!next) say(form, interpolate(gettext("Tile %(tile)s goes on %(cell)s. Every tile has a cell: submit when ready."), {tile: tile, cell: cell}, true));
  }

  // Redraw the planned tiles on the board from the selects.
  function preview(form) {
    var board = boardOf(form);
    if (!board) return;
    var planned = {};
    form.querySelectorAll("select.hx-select").forEach(function (select) {
      if (select.value) planned[select.value] = select.dataset.tile;
    });
    board.querySelectorAll("[data-cell]").forEach(function (cell) {
      var name = cell.dataset.cell;
      var tile = planned[name];
      var old = cell.querySelector(".hx-marks");
      if (old) old.remove();
      var title = cell.querySelector("title");
      if (title) title.remove();
      cell.classList.toggle("hx-pending", !!tile);
      cell.classList.toggle("hx-empty", !tile);
      if (tile) {
        var marks = form.querySelector('.hx-pick[data-tile="' + tile + '"] .hx-marks');
        if (marks) cell.appendChild(marks.cloneNode(true));
        cell.setAttribute("aria-label", interpolate(gettext("Cell %(cell)s, tile %(tile)s, your placement this round (not final yet)"), {cell: name, tile: tile}, true));
      } else {
        cell.setAttribute("aria-label", interpolate(gettext("Cell %(cell)s, empty"), {cell: name}, true));
      }
    });
  }

  function activateCell(cell) {
    var form = formOf(cell);
    if (!form) return;
    var button = picked(form) || nextUnplaced(form) || form.querySelector(".hx-pick");
    if (button) place(form, button.dataset.tile, cell.dataset.cell);
  }

  // One diagram enlarged at a time: opening one shrinks the others.
  document.addEventListener("toggle", function (event) {
    var opened = event.target;
    if (!opened.matches || !opened.matches("details.hx-zoom") || !opened.open) return;
    document.querySelectorAll("details.hx-zoom[open]").forEach(function (other) {
      if (other !== opened) other.open = false;
    });
  }, true);

  document.addEventListener("click", function (event) {
    var button = event.target.closest(".hx-pick");
    if (button) {
      var form = button.closest("form.hx-form");
      pick(form, button.getAttribute("aria-pressed") === "true" ? null : button);
      return;
    }
    var cell = event.target.closest("svg.hx-interactive [data-cell]");
    if (cell) activateCell(cell);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      // Escape shrinks an enlarged diagram and leaves the focus on it.
      var zoomed = document.querySelector("details.hx-zoom[open]");
      if (zoomed) {
        zoomed.open = false;
        zoomed.querySelector("summary").focus();
      }
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    var cell = event.target.closest && event.target.closest("svg.hx-interactive [data-cell]");
    if (!cell) return;
    event.preventDefault();
    activateCell(cell);
  });

  document.addEventListener("change", function (event) {
    if (!event.target.matches("select.hx-select")) return;
    var form = event.target.form;
    var cell = event.target.value;
    if (cell) {
      form.querySelectorAll("select.hx-select").forEach(function (select) {
        if (select !== event.target && select.value === cell) select.value = "";
      });
    }
    preview(form);
  });

  function enhance(root) {
    var forms = root.matches && root.matches("form.hx-form") ? [root] : root.querySelectorAll("form.hx-form");
    forms.forEach(function (form) {
      form.querySelectorAll(".hx-pick").forEach(function (b) { b.disabled = false; });
      preview(form);
    });
  }

  if (window.htmx) {
    htmx.onLoad(enhance);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  } else {
    enhance(document);
  }
})();
