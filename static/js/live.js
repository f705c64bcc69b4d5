/* The live game page (docs/architecture.md, "The live page"). The page is named regions
 * (#live-game's elements with ids); the server sends those that changed, over the page's own
 * WebSocket and as the answer to the page's own requests, as JSON:
 *   {"type": "regions", "stamp": "V.R", "regions": [{"id", "html", "digest"}]}
 * A region is applied only if its stamp (version, revision) is newer than what the page shows,
 * or the same stamp with other content; it is morphed in (idiomorph), keeping what the player is
 * doing: a form they have started filling, focus, an open <details>, the scroll position.
 * Errors are shown beside the control that was used and stay until the player acts again.
 * The socket reconnects after any close, with backoff and jitter; a heartbeat notices a dead one
 * within 10 s; a banner shows while disconnected; on return the page resyncs by its stamp.
 * Also: the running clock's countdown, and "Your move" in the tab's title (with notifications
 * for those who ask). Progressive enhancement: without this script every form still posts. */
(function () {
  "use strict";
  if (window.hexsiteLive) return;
  window.hexsiteLive = true;
  // Django's JavaScript catalogue (base.html) defines these; should it fail to load, English.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };

  var HEARTBEAT_MS = 4000, DEAD_AFTER_MS = 10000, MAX_BACKOFF_MS = 30000;
  var root = null, shown = {}, socket = null, attempts = 0, lastHeard = 0, retryTimer = null, loadedStamp = "0.0";
  var askForAll = false;  // an answer was lost while the socket was down: the next one sends everything
  // The page's name: its socket says it (?page=) and so do its requests (X-Live-Page), so that
  // the answer to its own move is not sent again over its socket (games/consumers.py).
  var pageId = Array.prototype.map.call(crypto.getRandomValues(new Uint8Array(12)), function (b) {
    return ("0" + b.toString(16)).slice(-2);
  }).join("");

  // --- stamps ------------------------------------------------------------------------------
  function parts(stamp) { return String(stamp || "0.0").split(".").map(Number); }
  function compare(a, b) {
    var x = parts(a), y = parts(b);
    for (var i = 0; i < Math.max(x.length, y.length); i++) {
      if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) < (y[i] || 0) ? -1 : 1;
    }
    return 0;
  }
  function pageStamp() { return root ? root.dataset.stamp : "0.0"; }

  // --- morphing ----------------------------------------------------------------------------
  // A form the player has started filling is kept as it is while it still means the same thing
  // (data-live-form names it: an offer in this turn, a placement in this round).
  document.addEventListener("input", markDirty, true);
  document.addEventListener("change", markDirty, true);
  function markDirty(event) {
    var form = event.target && event.target.closest && event.target.closest("form[data-live-form]");
    if (form) form.dataset.dirty = "1";
    clearNotes(event.target.closest && event.target.closest("form"));
  }

  var morphOptions = {
    morphStyle: "outerHTML",
    ignoreActiveValue: true,
    restoreFocus: true,
    callbacks: {
      beforeNodeMorphed: function (old, fresh) {
        if (old.nodeType !== 1 || fresh.nodeType !== 1) return true;
        if (old.tagName === "FORM" && old.dataset.dirty && old.dataset.liveForm &&
            old.dataset.liveForm === fresh.getAttribute("data-live-form")) return false;
        if (old.hasAttribute("data-live-lazy") && old.getAttribute("data-live-lazy") === fresh.getAttribute("data-live-lazy")) {
          return false;  // loaded content that has not changed
        }
        return true;
      },
      beforeAttributeUpdated: function (name, node) {
        if (name === "open" && node.tagName === "DETAILS") return false;  // the player's choice
        if (name === "data-dirty") return false;
        return true;
      },
      beforeNodeRemoved: function (node) {
        return !(node.nodeType === 1 && node.hasAttribute("data-live-note"));
      }
    }
  };

  function applyRegion(region, stamp) {
    var element = document.getElementById(region.id);
    if (!element) return null;
    // A region not changed since the page loaded shows the page's first stamp, whatever others show.
    var was = shown[region.id] || {stamp: loadedStamp, digest: null};
    if (stamp !== null && stamp !== undefined) {
      var order = compare(stamp, was.stamp);
      if (order < 0 || (order === 0 && was.digest === region.digest)) return null;
    } else if (was.digest === region.digest) {
      return null;
    }
    if (window.Idiomorph) {
      Idiomorph.morph(element, region.html, morphOptions);
    } else {
      element.outerHTML = region.html;
    }
    shown[region.id] = {stamp: stamp || was.stamp, digest: region.digest};
    var morphed = document.getElementById(region.id);
    checkedAsDrawn(morphed);
    return morphed;
  }

  // A morph keeps a radio's or a checkbox's checked state when its checked attribute did not
  // change, though the player's earlier click had moved it: the new drawing's choice is the
  // page's, as a reload shows it, but in a form the player has started filling.
  function checkedAsDrawn(element) {
    if (!element) return;
    element.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (input) {
      var form = input.closest("form");
      if (form && form.dataset.dirty) return;
      input.checked = input.hasAttribute("checked");
    });
  }

  function applyFrame(frame) {
    if (!frame || !root) return;
    if (frame.type === "fetch") {
      fetchRegions(frame.ids);
      return;
    }
    if (frame.type !== "regions") return;
    var started = performance.now(), changed = [];
    (frame.regions || []).forEach(function (region) {
      var element = applyRegion(region, frame.stamp);
      if (element) changed.push(element);
    });
    if (frame.stamp && compare(frame.stamp, pageStamp()) > 0) root.dataset.stamp = frame.stamp;
    changed.forEach(function (element) {
      if (window.htmx) {
        htmx.process(element);
        htmx.trigger(element, "htmx:load", {elt: element});
      }
    });
    if (changed.length) afterChange();
    // What a swap costs, for profilers and benchmarks/live_swaps.py.
    if (changed.length && performance.measure) performance.measure("live-apply", {start: started});
    if (changed.length) checkLayout();
  }

  // --- the page around the regions -----------------------------------------------------------
  // Regions change within one layout of the page; the page around them (a board at all, the
  // chat, the notify choice) changes with the game's status and the viewer's seat. The status
  // bar names the layout it was drawn for (data-layout, games/live.py LiveView.layout): when it
  // is not the page's, the page reads itself again and morphs into what a reload draws, keeping
  // what the player is doing, or goes where the page now leads (a redirect).
  var relayoutRunning = false, relayoutAgain = false;
  function checkLayout() {
    var bar = document.getElementById("game-status");
    var wanted = bar && bar.getAttribute("data-layout");
    if (!root || !wanted || wanted === root.dataset.layout) return;
    if (relayoutRunning) { relayoutAgain = true; return; }
    relayoutRunning = true;
    fetch(location.href, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (response) {
        if (response.redirected && response.url.split("#")[0] !== location.href.split("#")[0]) {
          location.assign(response.url);
          return null;
        }
        return response.ok ? response.text() : null;
      })
      .then(function (html) { if (html) relayout(html); })
      .catch(function () { /* the next frame or reconnect checks again */ })
      .then(function () {
        relayoutRunning = false;
        if (relayoutAgain) { relayoutAgain = false; checkLayout(); }
      });
  }

  function relayout(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var main = document.getElementById("main"), freshMain = fresh.getElementById("main");
    if (!main || !freshMain || !fresh.getElementById("live-game") || !window.Idiomorph) {
      location.reload();
      return;
    }
    var loaded = {};
    document.querySelectorAll("script[src]").forEach(function (script) { loaded[script.src] = true; });
    Idiomorph.morph(main, freshMain.innerHTML, Object.assign({}, morphOptions, {morphStyle: "innerHTML"}));
    // A script parsed from a string does not run: the new layout's own (a board's) is added anew.
    main.querySelectorAll("script[src]").forEach(function (parsed) {
      if (loaded[parsed.src]) return;
      var script = document.createElement("script");
      script.src = parsed.src;
      parsed.replaceWith(script);
    });
    checkedAsDrawn(main);
    root = document.getElementById("live-game");
    shown = {};
    loadedStamp = pageStamp();
    baseTitle = fresh.title || baseTitle;
    if (window.htmx) htmx.process(main);
    afterChange();
  }

  function fetchRegions(ids) {
    var url = root.dataset.regionsUrl + (ids && ids.length ? "?ids=" + encodeURIComponent(ids.join(",")) : "");
    fetch(url, {credentials: "same-origin", headers: {"HX-Request": "true"}})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(applyFrame)
      .catch(function () { /* the next push or reconnect brings it */ });
  }

  // --- answers to the page's own requests (htmx, hx-swap="none") --------------------------
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (root && elt && root.contains(elt)) event.detail.headers["X-Live-Page"] = pageId;
  });
  // An answer that never came may have been a move that was played: its socket, told that the
  // answer carried it, sent nothing. Ask the socket for every region.
  function answerLost(event) {
    var elt = event.detail.elt;
    if (!root || !elt || !root.contains(elt)) return;
    var xhr = event.detail.xhr;
    if (event.type === "htmx:responseError" && xhr && xhr.status < 500) return;  // refused: nothing played
    if (socket && socket.readyState === 1) socket.send('{"type":"sync","stamp":""}'); else askForAll = true;
  }
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, answerLost);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || !root) return;
    // htmx tells a request's end again, from the nearest ancestor still on the page, when the
    // answer took the control away (a Roll once rolled): an answer is applied and noted once.
    if (xhr.hexsiteAnswered) return;
    xhr.hexsiteAnswered = true;
    var type = xhr.getResponseHeader("Content-Type") || "";
    if (type.indexOf("application/json") !== 0) return;
    var answer;
    try { answer = JSON.parse(xhr.responseText); } catch (e) { return; }
    var elt = event.detail.elt;
    if (answer.type === "error") {
      note(elt, answer.message, true);
      return;
    }
    var form = elt && elt.closest && elt.closest("form");
    if (form) delete form.dataset.dirty;  // sent: the answer's form replaces it
    var around = idsAround(elt);
    applyFrame(answer);
    // The control may be gone with the answer (a Roll once rolled): the note goes to the nearest
    // place around it that is still on the page.
    if (answer.notice) note(stillThere(elt, around), answer.notice, false);
  });

  function idsAround(elt) {
    var ids = [];
    for (var node = elt; node && node !== document.body; node = node.parentElement) if (node.id) ids.push(node.id);
    return ids;
  }
  function stillThere(elt, ids) {
    if (elt && elt.isConnected) return elt;
    for (var i = 0; i < ids.length; i++) {
      var found = document.getElementById(ids[i]);
      if (found) return found;
    }
    return root;
  }

  // The answer to a click: beside the control, until the player acts again in that place.
  function note(elt, text, isError) {
    if (!elt || !elt.isConnected) elt = root;
    var place = (elt.closest && (elt.closest("form") || elt.closest("[data-live-errors]"))) || elt;
    clearNotes(place);
    var p = document.createElement("p");
    p.className = "notice live-note" + (isError ? " error" : "");
    p.setAttribute("role", isError ? "alert" : "status");
    p.setAttribute("data-live-note", "");
    p.textContent = text;
    if (place.tagName === "FORM") place.appendChild(p); else place.insertBefore(p, place.firstChild);
  }
  function clearNotes(place) {
    if (!place || !place.querySelectorAll) return;
    place.querySelectorAll("[data-live-note]").forEach(function (n) { n.remove(); });
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    clearNotes(elt && elt.closest && (elt.closest("form") || elt.closest("[data-live-errors]")));
  });

  // --- the socket ----------------------------------------------------------------------------
  function status(text) {
    var banner = document.getElementById("socket-status");
    if (!banner) return;
    banner.textContent = text;
    banner.hidden = !text;
  }

  function connect() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (!root || (socket && socket.readyState <= 1)) return;
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    // Sockets may have processes of their own on another port of this host (hexsite/serve.py).
    var host = root.dataset.socketPort ? location.hostname + ":" + root.dataset.socketPort : location.host;
    var ws = new WebSocket(scheme + host + root.dataset.socket + "?stamp=" + encodeURIComponent(askForAll ? "" : pageStamp()) +
                           "&page=" + pageId);
    socket = ws;
    ws.onopen = function () {
      askForAll = false;
      attempts = 0;
      lastHeard = Date.now();
      status("");
      document.dispatchEvent(new CustomEvent("hexsite:live-open"));
    };
    ws.onmessage = function (event) {
      lastHeard = Date.now();
      var frame;
      try { frame = JSON.parse(event.data); } catch (e) { return; }
      if (frame.type !== "pong") applyFrame(frame);
    };
    ws.onclose = function (event) {
      if (socket !== ws) return;
      socket = null;
      if (event.code === 4403) {
        status(gettext("You can no longer watch this game. Reload the page to see why."));
        return;
      }
      if (event.code === 4409) {
        status(gettext("This game is open in too many tabs or windows: close some, then reload this page."));
        return;
      }
      status(gettext("Reconnecting…"));
      retry();
    };
  }

  function retry() {
    if (retryTimer) return;
    if (navigator.onLine === false) return;  // the "online" event reconnects
    var ceiling = Math.min(MAX_BACKOFF_MS, 500 * Math.pow(2, attempts++));
    retryTimer = setTimeout(connect, ceiling / 2 + Math.random() * ceiling / 2);  // jitter
  }

  // A socket that says nothing for DEAD_AFTER_MS is dead (a cut network may close nothing).
  function drop() {
    var ws = socket;
    socket = null;
    if (ws) {
      ws.onclose = ws.onmessage = null;
      try { ws.close(); } catch (e) { /* already closing */ }
    }
    status(gettext("Reconnecting…"));
    retry();
  }
  setInterval(function () {
    if (!socket || socket.readyState !== 1) return;
    if (Date.now() - lastHeard > DEAD_AFTER_MS) { drop(); return; }
    try { socket.send('{"type":"ping"}'); } catch (e) { drop(); }
  }, HEARTBEAT_MS);
  window.addEventListener("offline", function () { if (root) drop(); });
  window.addEventListener("online", function () { attempts = 0; if (root && !socket) connect(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && root && !socket) { attempts = 0; connect(); }
  });

  // A 503 (PostgreSQL or Redis briefly away) is not swapped (base.html's responseHandling): say so.
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status === 503) {
      status(gettext("The site is briefly unavailable. Reload the page in a few seconds to see where things stand."));
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    note(event.detail.elt, gettext("Your move could not be sent: the connection is down. Try again in a moment."), true);
  });

  // --- after each change ---------------------------------------------------------------------
  // Regions drawn once for everyone mark nobody as "you": the page marks its viewer's seat.
  function markViewer() {
    var seat = root && root.dataset.viewerSeat;
    document.querySelectorAll("[data-mark-viewer] [data-seat]").forEach(function (row) {
      row.classList.toggle("is-viewer", seat !== undefined && row.dataset.seat === seat);
    });
  }

  document.addEventListener("htmx:load", function () { if (root) markViewer(); });  // e.g. loaded diagrams

  function afterChange() {
    markViewer();
    tick();
    yourMove();
  }

  // --- the clock ------------------------------------------------------------------------------
  function left(seconds) {
    if (seconds <= 0) return gettext("time is up");
    var m = Math.floor(seconds / 60), s = seconds % 60;
    // Translators: the time left on a turn's clock, shown beside its deadline: "(2 h 5 min left)".
    if (m >= 60) return interpolate(gettext("%(h)s h %(m)s min left"), {h: Math.floor(m / 60), m: m % 60}, true);
    // Translators: the time left on a turn's clock: "(4 min 30 s left)".
    if (m) return interpolate(gettext("%(m)s min %(s)s s left"), {m: m, s: s}, true);
    // Translators: the time left on a turn's clock: "(30 s left)".
    return interpolate(gettext("%(s)s s left"), {s: s}, true);
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

  // --- "Your move" in the title, and notifications on request ---------------------------------
  var baseTitle = document.title, wasYourMove = null;
  // Translators: the tab's title while it is the viewer's move; %(title)s is the page's own title.
  function markedTitle(title) { return interpolate(gettext("(•) Your move — %(title)s"), {title: title}, true); }
  var canNotify = "Notification" in window;

  function notifyWanted() {
    try { return canNotify && Notification.permission === "granted" && localStorage.getItem("hexsite-notify") === "on"; }
    catch (e) { return false; }
  }

  function yourMove() {
    var bar = document.getElementById("game-status");
    var now = !!(bar && bar.hasAttribute("data-your-move"));
    document.title = now ? markedTitle(baseTitle) : baseTitle;
    if (now && wasYourMove === false && notifyWanted()) {
      try {
        var sent = new Notification(gettext("Your move"), {body: baseTitle.replace(/ · hexsite$/, ""), tag: "hexsite-" + location.pathname});
        sent.onclick = function () { window.focus(); sent.close(); };
      } catch (e) { /* some browsers allow notifications only from a service worker */ }
    }
    wasYourMove = now;
    offerNotifications(bar);
  }

  function offerNotifications(bar) {
    var box = document.getElementById("notify-choice");
    if (!box) return;
    var active = bar && String(bar.getAttribute("data-layout") || "").split(".")[0] === "active";
    if (!canNotify || !bar || !active || !bar.hasAttribute("data-seated") || Notification.permission === "denied") {
      box.hidden = true;
      return;
    }
    var button = box.querySelector("button");
    var on = notifyWanted();
    button.textContent = on ? gettext("Stop notifying me") : gettext("Notify me when it is my move");
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("#notify-choice button")) return;
    if (notifyWanted()) {
      localStorage.setItem("hexsite-notify", "off");
      yourMove();
      return;
    }
    Notification.requestPermission().then(function (permission) {
      try { localStorage.setItem("hexsite-notify", permission === "granted" ? "on" : "off"); } catch (e) { /* private mode */ }
      var box = document.getElementById("notify-choice");
      if (permission === "denied" && box) box.hidden = true;
      yourMove();
    });
  });

  function start() {
    root = document.getElementById("live-game");
    tick();
    if (!root) return;
    loadedStamp = pageStamp();
    afterChange();
    if (root.dataset.socket && "WebSocket" in window) connect();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();

  // For tests and tools: what the page shows.
  window.hexsiteLivePage = {
    stamp: pageStamp,
    shown: function () { return JSON.parse(JSON.stringify(shown)); },
    socket: function () { return socket; },
    apply: applyFrame
  };
})();
