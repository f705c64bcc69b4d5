/* Hextremadura: pick a tile, turn it, click a highlighted cell of the map.
 * Progressive enhancement only: the plain form posts without this script. Listeners are
 * delegated from the document once, so the live page's morphs of its region need no re-binding; htmx.onLoad
 * only refreshes the swapped-in board. The script may be inserted again by a swap: the guard
 * keeps it from binding twice. Pan/zoom and the last seen version live here, across swaps. */
(function () {
  "use strict";
  if (window.hextremaduraBoard) return;
  window.hextremaduraBoard = true;

  var views = {};      // game id -> {x, y, scale}: the map's pan and zoom, kept across swaps
  var KEY = "hxt-seen-";
  var reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function sectionOf(node) { return node.closest(".hxt-game"); }
  function formIn(section) { return section && section.querySelector("form.hxt-form"); }

  // --- the chosen tile, face and rotation -----------------------------------------------------

  function chosenTile(form) { return form.querySelector('input[name="tile"]:checked'); }

  function rotation(form) { return parseInt(form.querySelector('select[name="rotation"]').value, 10) || 0; }

  function chosenFace(form, radio) {
    var face = form.querySelector('select[name="face"]');
    if (radio.dataset.river === "true" && face && face.value) return face.value;
    return radio.dataset.face;
  }

  function setRotation(form, k) {
    form.querySelector('select[name="rotation"]').value = String(((k % 6) + 6) % 6);
    refresh(form);
  }

  // Show the chosen tile's face at its rotation; the face select only matters for a river tile.
  function refresh(form) {
    var radio = chosenTile(form);
    var face = form.querySelector('select[name="face"]');
    if (face) {
      var river = !!radio && radio.dataset.river === "true";
      face.disabled = !river;
      face.closest(".hxt-face-field").hidden = !river;
    }
    if (!radio) return;
    var want = chosenFace(form, radio);
    var k = rotation(form);
    form.querySelectorAll(".hxt-preview-tile").forEach(function (box) {
      var show = box.dataset.tile === radio.value && box.dataset.face === want;
      box.hidden = !show;
      if (!show) return;
      var turn = box.querySelector(".hxt-turn");
      if (turn) turn.setAttribute("transform", "rotate(" + (-60 * k) + ")");
      // Labels counter-turn so they stay upright (their translate is kept).
      box.querySelectorAll(".hxt-req, .hxt-icon, .hxt-objective").forEach(function (g) {
        var t = g.getAttribute("transform") || "";
        g.setAttribute("transform", t.replace(/rotate\([^)]*\)/, "rotate(" + (60 * k) + ")"));
      });
      var svg = box.querySelector("svg");
      if (svg) svg.setAttribute("data-rotation", String(k));
    });
  }

  // --- placing -----------------------------------------------------------------------------------

  function chooseCell(form, q, r) {
    form.querySelector('input[name="q"]').value = q;
    form.querySelector('input[name="r"]').value = r;
    var select = form.querySelector(".hxt-cell-select");
    if (select) select.value = q + "," + r;
  }

  function place(cell) {
    var section = sectionOf(cell);
    var form = formIn(section);
    if (!form || !chosenTile(form)) return;
    chooseCell(form, cell.dataset.q, cell.dataset.r);
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  // --- pan and zoom ------------------------------------------------------------------------------

  function mapOf(section) { return section.querySelector("svg.hxt-map"); }

  function stateFor(section) {
    var id = section.dataset.game;
    if (!views[id]) views[id] = { x: 0, y: 0, scale: 1 };
    return views[id];
  }

  function applyView(section) {
    var svg = mapOf(section);
    if (!svg) return;
    var v = stateFor(section);
    var port = svg.querySelector(".hxt-viewport");
    var box = svg.viewBox.baseVal;
    // Zoom about the middle of the fitted view box.
    var cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    port.setAttribute("transform",
      "translate(" + (cx + v.x) + " " + (cy + v.y) + ") scale(" + v.scale + ") translate(" + (-cx) + " " + (-cy) + ")");
  }

  function zoom(section, how) {
    var v = stateFor(section);
    if (how === "reset") { v.x = 0; v.y = 0; v.scale = 1; }
    else v.scale = Math.min(4, Math.max(0.3, v.scale * (how === "in" ? 1.25 : 0.8)));
    applyView(section);
  }

  function pan(section, dx, dy) {
    var v = stateFor(section);
    v.x += dx; v.y += dy;
    applyView(section);
  }

  var PAN_STEP = 40;
  var PAN = { left: [PAN_STEP, 0], right: [-PAN_STEP, 0], up: [0, PAN_STEP], down: [0, -PAN_STEP] };

  // Drag: screen pixels to view box units; a drag longer than a few pixels is not a click.
  var drag = null;
  document.addEventListener("pointerdown", function (event) {
    var svg = event.target.closest && event.target.closest("svg.hxt-map");
    if (!svg || event.button !== 0) return;
    var ratio = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width;
    drag = { section: sectionOf(svg), x: event.clientX, y: event.clientY, ratio: ratio, moved: false };
  });
  document.addEventListener("pointermove", function (event) {
    if (!drag) return;
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
    drag.moved = true;
    pan(drag.section, dx * drag.ratio, dy * drag.ratio);
    drag.x = event.clientX; drag.y = event.clientY;
  });
  document.addEventListener("pointerup", function () {
    if (drag && drag.moved) {
      drag.suppressClick = true;
      var done = drag;
      setTimeout(function () { if (drag === done) drag = null; }, 0);
    } else drag = null;
  });
  document.addEventListener("pointercancel", function () { drag = null; });
  document.addEventListener("wheel", function (event) {
    var svg = event.target.closest && event.target.closest("svg.hxt-map");
    if (!svg) return;
    event.preventDefault();
    zoom(sectionOf(svg), event.deltaY < 0 ? "in" : "out");
  }, { passive: false });

  // --- events --------------------------------------------------------------------------------------

  document.addEventListener("click", function (event) {
    var t = event.target;
    if (drag && drag.suppressClick) { drag = null; event.preventDefault(); return; }
    var cell = t.closest("svg.hxt-interactive .hxt-legal");
    if (cell) { place(cell); return; }
    var rot = t.closest(".hxt-rotate");
    if (rot) { var f = rot.closest("form.hxt-form"); setRotation(f, rotation(f) + parseInt(rot.dataset.step, 10)); return; }
    var z = t.closest(".hxt-zoom");
    if (z) { zoom(sectionOf(z), z.dataset.zoom); return; }
    var p = t.closest(".hxt-pan");
    if (p) { var d = PAN[p.dataset.pan]; pan(sectionOf(p), d[0], d[1]); }
  });

  document.addEventListener("keydown", function (event) {
    var t = event.target;
    var cell = t.closest && t.closest("svg.hxt-interactive .hxt-legal");
    if (cell && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      place(cell);
      return;
    }
    if (event.key !== "r" && event.key !== "R") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (t.matches && t.matches("input[type=text], input:not([type]), textarea, select")) return;
    var form = document.querySelector("form.hxt-form");
    if (!form) return;
    event.preventDefault();
    setRotation(form, rotation(form) + (event.shiftKey ? -1 : 1));
  });

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form.hxt-form");
    if (!form) return;
    if (event.target.matches(".hxt-cell-select")) {
      var parts = event.target.value.split(",");
      form.querySelector('input[name="q"]').value = parts[0] || "";
      form.querySelector('input[name="r"]').value = parts[1] || "";
    }
    refresh(form);
  });

  // A hint arrived: choose its tile, face and rotation, and mark its cell.
  document.addEventListener("htmx:afterSwap", function (event) {
    var slot = event.detail && event.detail.target;
    if (!slot || slot.id !== "hxt-hint-slot") return;
    var hint = slot.querySelector("#hint");
    var section = sectionOf(slot);
    var form = formIn(section);
    if (!hint || !form) return;
    var radio = form.querySelector('input[name="tile"][value="' + hint.dataset.tile + '"]');
    if (radio) radio.checked = true;
    var face = form.querySelector('select[name="face"]');
    if (face) face.value = hint.dataset.face || "";
    form.querySelector('select[name="rotation"]').value = hint.dataset.rotation || "0";
    chooseCell(form, hint.dataset.q, hint.dataset.r);
    section.querySelectorAll(".hxt-hinted").forEach(function (c) { c.classList.remove("hxt-hinted"); });
    var cell = section.querySelector('.hxt-legal[data-q="' + hint.dataset.q + '"][data-r="' + hint.dataset.r + '"]');
    if (cell) cell.classList.add("hxt-hinted");
    refresh(form);
  });

  // --- after a placement: round banner and the flight of explored tiles ----------------------------

  function seen(section) {
    try { return JSON.parse(sessionStorage.getItem(KEY + section.dataset.game) || "null"); } catch (e) { return null; }
  }

  function remember(section, data) {
    try { sessionStorage.setItem(KEY + section.dataset.game, JSON.stringify(data)); } catch (e) { /* private mode */ }
  }

  function cellOnScreen(section, q, r) {
    var node = section.querySelector('.hxt-tile[data-q="' + q + '"][data-r="' + r + '"], .hxt-legal[data-q="' + q + '"][data-r="' + r + '"]');
    if (node) return node.getBoundingClientRect();
    return mapOf(section).getBoundingClientRect();
  }

  // The removed tiles' cells are empty now (often legal cells): each flies from there.
  function fly(section) {
    var pile = section.querySelector(".hxt-explored");
    var svg = mapOf(section);
    if (!pile || !svg || reducedMotion) return;
    var to = pile.getBoundingClientRect();
    var size = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width * 80 * stateFor(section).scale;
    section.querySelectorAll(".hxt-flyer").forEach(function (flyer, i) {
      var from = cellOnScreen(section, flyer.dataset.q, flyer.dataset.r);
      var ghost = flyer.cloneNode(true);
      ghost.className = "hxt-ghost";
      ghost.style.left = (from.left + from.width / 2 - size / 2) + "px";
      ghost.style.top = (from.top + from.height / 2 - size / 2) + "px";
      ghost.style.width = ghost.style.height = size + "px";
      document.body.appendChild(ghost);
      var dx = to.left + 20 - (from.left + from.width / 2), dy = to.top + 20 - (from.top + from.height / 2);
      var run = ghost.animate([
        { transform: "translate(0, 0) scale(1)", opacity: 1 },
        { transform: "translate(" + dx + "px, " + dy + "px) scale(.4)", opacity: .4 }
      ], { duration: 700, delay: 120 * i, easing: "ease-in", fill: "forwards" });
      run.onfinish = function () { ghost.remove(); };
    });
  }

  // Only a new placement (a later version and a later turn: an undo also raises the version)
  // plays the flight and may raise the round banner.
  function afterLoad(section) {
    var now = {
      version: parseInt(section.dataset.version, 10),
      round: parseInt(section.dataset.round, 10),
      turn: parseInt(section.dataset.turn, 10)
    };
    var last = seen(section);
    var placed = !!last && now.version > last.version && now.turn > last.turn;
    now.bannerAt = last ? last.bannerAt : null;
    if (placed && now.round > last.round) now.bannerAt = now.version;
    // A push may swap in the same version again: the banner stays for the version it belongs to.
    var banner = section.querySelector(".hxt-round-banner");
    if (banner && now.bannerAt === now.version) banner.hidden = false;
    if (placed) fly(section);
    if (!last || now.version >= last.version) remember(section, now);
  }

  function enhance(root) {
    var sections = root.matches && root.matches(".hxt-game") ? [root] : root.querySelectorAll(".hxt-game");
    sections.forEach(function (section) {
      var form = formIn(section);
      if (form) {
        // With the script, the cell comes from the map or the cell select, as hidden q and r.
        form.querySelectorAll("noscript").forEach(function (n) { n.remove(); });
        ["q", "r"].forEach(function (name) {
          if (form.querySelector('input[name="' + name + '"]')) return;
          var input = document.createElement("input");
          input.type = "hidden"; input.name = name;
          form.appendChild(input);
        });
        form.querySelector(".hxt-cell-field").hidden = false;
        form.querySelector(".hxt-preview").hidden = false;
        refresh(form);
      }
      section.querySelectorAll(".hxt-js-only").forEach(function (node) { node.hidden = false; });
      applyView(section);
      afterLoad(section);
    });
  }

  if (window.htmx) htmx.onLoad(enhance);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  } else {
    enhance(document);
  }
})();
