"""The reload-equivalence walk (issue 45): pages open for every role of a game while the test
drives it through its whole life; after each step, once the sockets are quiet, every page must
show what a fresh GET of its address draws for its viewer, and every form it shows must be one
its viewer may post (never a 403).

``Walk`` holds the pages (one browser context per role, each with its own session) and does the
checks; the scenarios (tests/e2e/test_reload_walk.py) drive the games through the services, and
through the pages where the page itself must follow (a rematch, a cancel, leaving).

How a page is compared (``PAGE_SNAPSHOT``, run inside the page): the page fetches its own
address with its own cookies and parses the answer (DOMParser: no script runs), then both
documents' regions (the elements with the game's region ids, and what the page shows outside
them) are written out in one canonical form: attributes sorted, whitespace collapsed, and what
the client legitimately changes left out (CSRF inputs, which a push never carries; data-dirty;
the open state of a <details>; the countdown; aria-busy; htmx's classes; the "you" mark that
live.js puts on the viewer's row; content loaded into a lazy region, whose address is kept;
what the enhancement scripts change: the copy button, Hextension's preview of the planned
tiles, Hextremadura's fields, Hexland's folding action bar). A choice (an option, a radio, a
check box) is compared by what is chosen, not by how its attribute is written. The invitation link's host is left out: a push has no request, so
it names the site's SITE_URL, which the test server's address is not. A difference is reported
as a unified diff of those lines.

How a form is checked: each visible POST form of the page (a form inside a closed <details>
counts when its summary is visible; a form with several submit buttons counts once per button)
and each clickable Hexland board target is posted by Django's test client logged in as the
viewer (as a plain form: htmx's requests are accepted or refused alike), inside
``transaction.atomic()`` rolled back at once; each kind of control once per situation of its
viewer (``Walk._situation``). The Daphne server and the test
share the test database (``transactional_db``): the test's connection commits nothing, so the
game is unchanged, no announcement or task fires (both wait for a commit), and the server never
sees the attempt. A state read during the attempt is kept out of the shared state cache (Redis),
and the test process's own caches of drawings, views and states are emptied after each attempt:
either may hold a version that was never committed. A refusal that names a real
race (409), a move the test filled in badly (400), or a rate limit is fine; 403 or a 5xx is not.
"""
from __future__ import annotations

import difflib
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable
from unittest import mock

from django.db import transaction
from django.test import Client

from games import live, state_store
from games.models import Game
from games.sites import get_site
from tests.e2e.conftest import log_in

# Each page records when its socket opened and when a frame (not a pong) last arrived.
WATCH_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  if (!Native) return;
  const walk = window.__walk = {lastFrame: 0, frames: 0, lastOpen: 0, opens: 0};
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('open', () => { walk.lastOpen = Date.now(); walk.opens++; });
      this.addEventListener('message', (event) => {
        if (typeof event.data === 'string' && event.data.indexOf('"pong"') === -1) { walk.lastFrame = Date.now(); walk.frames++; }
      });
    }
  };
})();
"""

# Inside the page: its regions and a fresh GET's, both canonical; the page's visible controls.
PAGE_SNAPSHOT = r"""
async (regionIds) => {
  // Never compared: the CSRF input (a push has none), what live.js adds (the countdown, a note
  // beside a control), scripts, <noscript> (parsed as elements only where scripts do not run).
  const DROP = 'input[name=csrfmiddlewaretoken], span.countdown, [data-live-note], script, noscript';
  // What the pages' scripts change once a page or a region is in: [elements, the attributes].
  const PREVIEWED = 'svg.hx-interactive [data-cell]';  // Hextension's own board: the planned tiles
  const SCRIPTED = [
    ['button[data-copy]', ['hidden']],  // copy.js shows the copy button
    ['.hx-pick', ['disabled']],  // hextension.js enables the tile buttons...
    [PREVIEWED, ['aria-label']],  // ...and names the cells of its preview
    // hextremadura.js: its fields, the preview of the chosen tile at its rotation, pan and zoom
    ['.hxt-js-only, .hxt-cell-field, .hxt-preview, .hxt-face-field, .hxt-preview-tile, .hxt-round-banner', ['hidden']],
    ['.hxt-form select[name=face]', ['disabled']],
    ['.hxt-viewport, .hxt-preview .hxt-turn, .hxt-preview .hxt-req, .hxt-preview .hxt-icon, .hxt-preview .hxt-objective', ['transform']],
    ['.hxt-preview svg', ['data-rotation']],
    ['.hl-bar-toggle', ['hidden', 'aria-expanded']],  // hexland.js: the phone's action bar folds
  ];
  const SCRIPTED_CHILDREN = PREVIEWED + ' > title, ' + PREVIEWED + ' > .hx-marks, ' +
    'form.hxt-form > input[type=hidden][name=q], form.hxt-form > input[type=hidden][name=r]';
  const SCRIPTED_CLASSES = [['is-viewer', '*'], ['hx-pending', PREVIEWED], ['hx-empty', PREVIEWED], ['hxt-hinted', '*']];
  // Shown, or inside a closed <details> whose summary is shown (one click away).
  function shown(el) {
    let closed = el.parentElement && el.parentElement.closest('details:not([open])');
    if (closed && el.parentElement === closed && el.localName === 'summary') {
      closed = closed.parentElement && closed.parentElement.closest('details:not([open])');
    }
    if (closed) { const summary = closed.querySelector(':scope > summary'); return summary ? shown(summary) : false; }
    return el.checkVisibility({checkVisibilityCSS: true});
  }
  function canon(node, depth, out) {
    if (node.nodeType === 3) {
      const text = node.data.replace(/\s+/g, ' ').trim();
      if (text) out.push('  '.repeat(depth) + JSON.stringify(text));
      return;
    }
    if (node.nodeType !== 1 || node.matches(DROP) || node.matches(SCRIPTED_CHILDREN)) return;
    const tag = node.localName, attrs = [];
    const scripted = new Set(SCRIPTED.filter(([selector]) => node.matches(selector)).flatMap(([, names]) => names));
    for (const a of node.attributes) {
      let name = a.name, value = a.value;
      if (name === 'data-dirty' || name === 'aria-busy' || scripted.has(name)) continue;
      if (name === 'open' && tag === 'details') continue;  // the viewer's choice, kept by live.js
      // What is chosen, not how it is written: a morph may write the default choice out.
      if ((name === 'selected' && tag === 'option') || (name === 'checked' && tag === 'input')) continue;
      // A push has no request: the invitation link names SITE_URL, not the test server's address.
      if (name === 'value' && node.id === 'invite-link') value = value.replace(/^https?:\/\/[^/]+/, '');
      if (name === 'class') {
        value = value.split(/\s+/).filter(c => c && !c.startsWith('htmx-') &&
          !SCRIPTED_CLASSES.some(([cls, where]) => c === cls && node.matches(where))).sort().join(' ');
        if (!value) continue;
      }
      attrs.push(name + '=' + JSON.stringify(value));
    }
    if (tag === 'option' && node.selected) attrs.push('(selected)');
    if (tag === 'input' && node.checked) attrs.push('(checked)');
    attrs.sort();
    out.push('  '.repeat(depth) + '<' + tag + (attrs.length ? ' ' + attrs.join(' ') : '') + '>');
    if (node.hasAttribute('data-live-lazy')) return;  // loaded when seen: its address says what it holds
    for (const child of node.childNodes) canon(child, depth + 1, out);
  }
  function lines(el) { const out = []; if (el) canon(el, 0, out); return out.join('\n'); }
  // What the page shows outside its regions: the title, the notify button, the staff's decision,
  // the report links. The notify button is hidden by live.js unless the viewer has a seat.
  function outside(doc, live) {
    const main = doc.getElementById('main');
    if (!main) return null;
    const copy = main.cloneNode(true);
    copy.querySelectorAll('#live-game, #game-chat, #socket-status').forEach(n => n.remove());
    copy.querySelectorAll('ul.messages').forEach(n => n.parentElement.remove());  // said once, then gone
    const notify = copy.querySelector('#notify-choice');
    if (notify) {
      const bar = doc.getElementById('game-status');
      if (live ? notify.hidden : !(bar && bar.hasAttribute('data-seated'))) notify.remove();
      else notify.removeAttribute('hidden');
    }
    return lines(copy);
  }
  const answer = await fetch(location.href, {credentials: 'same-origin', headers: {'Accept': 'text/html'}});
  const fresh = new DOMParser().parseFromString(await answer.text(), 'text/html');
  const regions = {};
  for (const id of regionIds) {
    const mine = document.getElementById(id), theirs = fresh.getElementById(id);
    if (mine || theirs) regions[id] = {page: mine ? lines(mine) : null, fresh: theirs ? lines(theirs) : null};
  }
  regions['(outside the regions)'] = {page: outside(document, true), fresh: outside(fresh, false)};
  const live = document.getElementById('live-game');
  const controls = [];
  for (const form of document.querySelectorAll('#main form')) {
    if ((form.getAttribute('method') || '').toLowerCase() !== 'post' || !shown(form)) continue;
    const buttons = [...form.querySelectorAll('button:not([type]), button[type=submit], input[type=submit]')]
      .filter(b => !b.disabled && shown(b));
    for (const button of (buttons.length ? buttons : [null])) {
      const fields = [...new FormData(form, button || undefined).entries()].filter(([, v]) => typeof v === 'string');
      controls.push({action: form.getAttribute('hx-post') || form.getAttribute('action') || location.pathname,
                     htmx: form.hasAttribute('hx-post'), fields,
                     label: ((button && (button.textContent || button.value)) || form.className || '').trim().replace(/\s+/g, ' ').slice(0, 60)});
    }
  }
  for (const target of document.querySelectorAll('#main .hl-target[data-move]')) {
    if (!shown(target)) continue;
    controls.push({action: '/games/' + live.dataset.game + '/move/', htmx: true,
                   fields: [['move', target.dataset.move], ['version', live.dataset.stamp.split('.')[0]]],
                   label: 'board target'});
  }
  return {status: answer.status, freshUrl: answer.url, redirected: answer.redirected, regions, controls,
          stamp: live ? live.dataset.stamp : null};
}
"""

QUIET_SECONDS = 0.3  # no frame for this long: the sockets have said what they had to say
PRESENCE_SETTLE_SECONDS = 1.3  # presence is announced a second after a socket opens or closes
SETTLE_LIMIT_SECONDS = 5.0
RECHECK_SECONDS = (0.4, 1.2)  # a page that differs is looked at again after these waits
GAME_PATH = re.compile(r"/games/(\d+)/$")


class _Undo(Exception):
    pass


@dataclass
class Viewer:
    role: str
    user: Any
    page: Any
    client: Client


@dataclass
class Walk:
    browser: Any
    base_url: str
    name: str
    viewers: list[Viewer] = field(default_factory=list)
    transitions: int = 0
    moves: int = 0
    compared: int = 0
    forms_seen: int = 0
    forms_posted: int = 0
    differences: list[str] = field(default_factory=list)
    _signatures: dict = field(default_factory=dict)
    _last_socket_change: float = 0.0
    _refusals: dict = field(default_factory=dict)
    refusals_409: dict = field(default_factory=dict)  # not failures: said in the report
    _posted: set = field(default_factory=set)
    timings: dict = field(default_factory=lambda: {"actions": 0.0, "pages": 0.0, "settle": 0.0, "compare": 0.0,
                                                   "recheck": 0.0, "post": 0.0})

    # --- pages ------------------------------------------------------------------------------

    def open(self, role: str, user, path: str, viewport: str = "desktop") -> Viewer:
        context = self.browser.new_context(viewport)
        context.add_init_script(WATCH_SOCKETS)
        log_in(context, self.base_url, user)
        page = context.new_page()
        page.set_default_timeout(15_000)
        client = Client()
        client.force_login(user)
        viewer = Viewer(role, user, page, client)
        self.viewers.append(viewer)
        self.go(viewer, path)
        return viewer

    def go(self, viewer: Viewer, path: str) -> None:
        """The test takes the page there (only where the page was not meant to go by itself)."""
        started = time.monotonic()
        viewer.page.goto(self.base_url + path)
        self._wait_for_socket(viewer)
        self.timings["pages"] += time.monotonic() - started

    def _wait_for_socket(self, viewer: Viewer) -> None:
        self._last_socket_change = time.monotonic()
        if not GAME_PATH.search(viewer.page.url):
            return
        viewer.page.wait_for_load_state()
        limit = time.monotonic() + 10
        while time.monotonic() < limit:
            if viewer.page.evaluate("() => !!(window.__walk && window.__walk.opens >= 1)"):
                break
            time.sleep(0.05)
        self._last_socket_change = time.monotonic()

    @staticmethod
    def game_id(viewer: Viewer) -> int | None:
        match = GAME_PATH.search(viewer.page.url)
        return int(match.group(1)) if match else None

    # --- steps ------------------------------------------------------------------------------

    def step(self, label: str, action: Callable[[], Any] | None = None) -> Any:
        """Do ``action`` (a lifecycle transition), then check every page."""
        started = time.monotonic()
        result = action() if action else None
        self.timings["actions"] += time.monotonic() - started
        if action is not None:
            self.transitions += 1
        self.check(label)
        return result

    def click(self, viewer: Viewer, label: str, button: str, goes_to: Callable[[], str] | None) -> None:
        """``viewer`` clicks ``button``; the page must then go to ``goes_to()`` by itself (the
        dashboard after leaving or cancelling, the rematch after asking or joining it)."""
        before, started = viewer.page.url, time.monotonic()
        with viewer.page.expect_response(lambda r: r.request.method == "POST"):
            viewer.page.get_by_role("button", name=button).click()
        self.transitions += 1
        if goes_to is not None:
            goes_to = goes_to()
            wanted = self.base_url + goes_to
            limit = time.monotonic() + 6
            while viewer.page.url != wanted and time.monotonic() < limit:
                viewer.page.wait_for_timeout(100)
            if viewer.page.url != wanted:
                self._record(label, viewer, "(navigation)", f"the page stayed at {before} after '{button}'; "
                             f"it should have gone to {wanted} by itself (the test takes it there)")
                self.go(viewer, goes_to)
            else:
                self._wait_for_socket(viewer)
        self.timings["pages"] += time.monotonic() - started
        self.check(label)

    # --- quiet -------------------------------------------------------------------------------

    def settle(self) -> dict[str, str]:
        """Wait until every game page shows its game's current stamp and no frame has come for
        QUIET_SECONDS (and presence has had time to be announced); returns, by role, the pages
        that did not get there in SETTLE_LIMIT_SECONDS."""
        started = time.monotonic()
        limit = started + SETTLE_LIMIT_SECONDS
        while True:
            since_sockets = time.monotonic() - self._last_socket_change
            behind: dict[str, str] = {}
            now_ms = time.time() * 1000
            for viewer in self.viewers:
                game_id = self.game_id(viewer)
                if game_id is None:
                    continue
                state = viewer.page.evaluate("() => ({stamp: document.getElementById('live-game')?.dataset.stamp,"
                                             " last: window.__walk ? window.__walk.lastFrame : 0})")
                game = Game.objects.filter(pk=game_id).only("version", "revision").first()
                wanted = live.stamp_of(game) if game else None
                if state["stamp"] is not None and state["stamp"] != wanted:
                    behind[viewer.role] = f"the page shows stamp {state['stamp']}, the game is at {wanted}"
                elif now_ms - state["last"] < QUIET_SECONDS * 1000:
                    behind[viewer.role] = f"a frame came {now_ms - state['last']:.0f} ms before the limit"
            if (not behind and since_sockets >= PRESENCE_SETTLE_SECONDS) or time.monotonic() > limit:
                self.timings["settle"] += time.monotonic() - started
                return behind
            time.sleep(0.05)

    # --- checks ------------------------------------------------------------------------------

    def check(self, label: str) -> None:
        behind = self.settle()
        for viewer in self.viewers:
            if self.game_id(viewer) is None:
                continue
            started = time.monotonic()
            snapshot, problems = self._compare(viewer)
            self.timings["compare"] += time.monotonic() - started
            started = time.monotonic()
            for wait in RECHECK_SECONDS:
                # A difference already reported at an earlier step is not waited for again.
                if not any(self._is_new(viewer, region, text) for region, text in problems):
                    break
                viewer.page.wait_for_timeout(wait * 1000)  # a push late on a busy machine
                snapshot, problems = self._compare(viewer)
            self.timings["recheck"] += time.monotonic() - started
            self.compared += 1
            if problems and viewer.role in behind:
                problems.append(("(settling)", behind[viewer.role]))
            for region, text in problems:
                self._record(label, viewer, region, text)
            started = time.monotonic()
            self._post_controls(label, viewer, snapshot["controls"])
            self.timings["post"] += time.monotonic() - started

    def _region_ids(self, viewer: Viewer) -> list[str]:
        game = Game.objects.get(pk=self.game_id(viewer))
        site = get_site(game.kind)
        return [live.STATUS.id, live.WAITING_ROOM.id, *(r.id for r in site.regions or (live.WHOLE_BOARD,)),
                live.PRESENCE.id, live.CHAT.id]

    def _compare(self, viewer: Viewer) -> tuple[dict, list[tuple[str, str]]]:
        snapshot = viewer.page.evaluate(PAGE_SNAPSHOT, self._region_ids(viewer))
        problems = []
        if snapshot["redirected"] or snapshot["freshUrl"] != viewer.page.url:
            problems.append(("(navigation)", f"a fresh GET of {viewer.page.url} goes to {snapshot['freshUrl']} "
                                             f"({snapshot['status']}); the page is still at its old address"))
        for region, both in snapshot["regions"].items():
            if both["page"] == both["fresh"]:
                continue
            if both["page"] is None:
                problems.append((region, "missing on the page; a fresh GET has it"))
            elif both["fresh"] is None:
                problems.append((region, "on the page; a fresh GET has none"))
            else:
                diff = difflib.unified_diff(both["fresh"].splitlines(), both["page"].splitlines(),
                                            "fresh GET", "pushed page", n=2, lineterm="")
                problems.append((region, "\n".join(diff)))
        return snapshot, problems

    def _situation(self, viewer: Viewer) -> tuple:
        """What decides which controls a viewer may use: the game's status, the viewer's seat,
        whether it is awaited, stood in for or resigned, whether a rematch exists."""
        game = Game.objects.get(pk=self.game_id(viewer))
        seat = game.seats.filter(user=viewer.user).values_list("index", "standin_level", "resigned_at").first()
        return (game.pk, game.status, seat, seat is not None and seat[0] in game.awaiting,
                Game.objects.filter(rematch_of=game).values_list("status", flat=True).first())

    def _post_controls(self, label: str, viewer: Viewer, controls: list[dict]) -> None:
        """Post each kind of control once per situation of its viewer (``_situation``): the same
        form again in the same situation is answered alike."""
        situation = self._situation(viewer)
        for control in controls:
            self.forms_seen += 1
            fields: dict[str, list[str]] = {}
            for name, value in control["fields"]:
                fields.setdefault(name, []).append(value)
            move = fields.get("move", [""])[0]
            try:
                kind = json.loads(move).get("type") if move.startswith("{") else move
            except ValueError:
                kind = move
            key = (control["action"], tuple(sorted(fields)), kind or fields.get("type", [""])[0])
            if (viewer.role, situation, key) in self._posted:
                continue
            self._posted.add((viewer.role, situation, key))
            try:
                # A state read inside the attempt may be of a version never committed (a start
                # rolled back): it must not reach the cache the server reads too (Redis).
                with transaction.atomic(), mock.patch.object(state_store, "remember", lambda *args: None):
                    # Posted as a plain form (no HX-Request: the answer is not drawn); htmx's
                    # requests are refused or accepted alike, only answered in another form.
                    response = viewer.client.post(control["action"], fields)
                    raise _Undo
            except _Undo:
                pass
            finally:
                state_store.forget_local()
                live.forget_drawings()
            self.forms_posted += 1
            status = response.status_code
            self._refusals[status] = self._refusals.get(status, 0) + 1
            if status == 409:
                self.refusals_409.setdefault(f"{control['label']} ({_message(response)})", []).append(
                    f"{viewer.role} at {label}")
            if status == 403 or status >= 500:
                self._record(label, viewer, "(controls)", f"'{control['label']}' ({control['action']}) answered "
                             f"{status}: {_message(response)}")

    # --- report ------------------------------------------------------------------------------

    def _is_new(self, viewer: Viewer, region: str, text: str) -> bool:
        return (viewer.role, region, text) not in self._signatures

    def _record(self, label: str, viewer: Viewer, region: str, text: str) -> None:
        signature = (viewer.role, region, text)
        first = self._signatures.get(signature)
        if first is not None:
            first[1].append(label)
            return
        self._signatures[signature] = (len(self.differences), [label])
        self.differences.append(f"{viewer.role} / {region} / {{steps}}:\n{text}")

    def report(self) -> str:
        differences = list(self.differences)
        for (_role, _region, _text), (index, labels) in self._signatures.items():
            shown = ", ".join(labels[:6]) + (f" and {len(labels) - 6} more" if len(labels) > 6 else "")
            differences[index] = differences[index].replace("{steps}", f"at {shown}", 1)
        counts = (f"walk {self.name}: {self.transitions} lifecycle transitions and {self.moves} moves walked, "
                  f"{self.compared} (page, step) pairs compared, {self.forms_seen} visible controls checked "
                  f"({self.forms_posted} posted, answers {dict(sorted(self._refusals.items()))}), "
                  f"{len(differences)} differences; seconds spent "
                  + ", ".join(f"{name} {seconds:.1f}" for name, seconds in self.timings.items()))
        conflicts = "".join(f"\n  409 {what}: {len(where)} times, first {where[0]}" for what, where in self.refusals_409.items())
        return (counts + (f"\nControls answered 409 (allowed):{conflicts}" if conflicts else "")
                + ("\n\n" + "\n\n".join(differences) if differences else ""))


def _message(response) -> str:
    if response.get("Content-Type", "").startswith("application/json"):
        return str(response.json().get("message"))
    page = response.content.decode(errors="replace")
    alert = re.search(r'role="alert"[^>]*>(.*?)</', page, re.S)
    text = re.sub(r"<[^>]+>", " ", alert.group(1) if alert else page)
    return " ".join(text.split())[:200]
