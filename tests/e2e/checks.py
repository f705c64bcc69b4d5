"""What every browser test checks on every page it opens, besides its own assertions:

- axe-core (npm, node_modules/axe-core) finds no serious or critical accessibility violation;
- the page is no wider than the window (no sideways scrolling), at desktop and phone widths;
- no JavaScript error reaches the console;
- no Content-Security-Policy violation (the ``securitypolicyviolation`` event): an inline style
  or script, or a source the site's policy refuses. (A context made with ``bypass_csp=True``
  enforces no policy: the tour of tests/e2e/test_page_tour.py runs under the real one.)

Every context comes from ``ContextFactory.new_context`` (the ``browser`` fixture), which loads
axe-core and tests/e2e/page_checks.js before each page. A test fails, after its body, on what
its pages reported (see ``pytest_runtest_call`` in conftest.py)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PAGE_CHECKS_JS = Path(__file__).with_name("page_checks.js")

VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
}

# A refused move or a private page answers 4xx on purpose; Chromium logs each such response as
# a console error. Server errors (5xx) and every script error still count.
EXPECTED_CONSOLE = re.compile(r"^Failed to load resource: the server responded with a status of 4\d\d")
# Django's ``live_server`` serves no sockets: there, a game page's socket fails (and htmx logs
# the error event). Tests of the sockets use ``asgi_live_server``, where these count.
NO_SOCKET_CONSOLE = re.compile(r"^(WebSocket connection to '\S+' failed: .*404|\[object Event\])$")

# Page kinds already scanned by axe in this run: each kind once, each family a few times.
_scanned: set[str] = set()
_scans_by_family: dict[str, int] = {}
SCANS_PER_FAMILY = 4


def _init_script() -> str:
    if not AXE_JS.exists():
        raise RuntimeError(f"{AXE_JS} is missing: run `make install` (npm ci) first.")
    return AXE_JS.read_text() + "\n;\n" + PAGE_CHECKS_JS.read_text()


class PageChecks:
    """What the pages of one test reported."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.contexts: list = []
        self.pages: list = []
        self.recording = True
        self.sockets_served = True

    # Bindings (called from the page) ------------------------------------------------------

    def should_scan(self, source, key: str, family: str) -> bool:
        return key not in _scanned and _scans_by_family.get(family, 0) < SCANS_PER_FAMILY

    def report(self, source, data: dict) -> None:
        page = source["page"]
        if not self.recording:
            return
        width = page.context._hexsite_width
        if data["width"] > width:
            self.problems.append(f"{data['url']}: the page is {data['width']} px wide in a {width} px window (sideways scrolling)")
        if data["scanned"]:
            _scanned.add(data["key"])
            _scans_by_family[data["group"]] = _scans_by_family.get(data["group"], 0) + 1
            for v in data["violations"]:
                nodes = "\n      ".join(v["nodes"])
                self.problems.append(f"{data['url']}: axe {v['impact']} '{v['id']}': {v['help']}\n      {nodes}")

    def violation(self, source, data: dict) -> None:
        where = f" (at {data['source']}:{data['line']})" if data.get("source") else ""
        sample = f": {data['sample']!r}" if data.get("sample") else ""
        self._record(f"{data['url']}: Content-Security-Policy violation of {data['directive']}, "
                     f"blocked {data['blocked'] or '?'}{sample}{where}")

    # Console -------------------------------------------------------------------------------

    def watch(self, page) -> None:
        page.on("console", lambda message: self._console(page, message))
        page.on("pageerror", lambda error: self._record(f"{page.url}: uncaught JavaScript error: {error}"))
        self.pages.append(page)
        # A test that goes from page to page would leave each before its checks had run: going
        # on waits for them first. (A click that leaves a page comes after the test has used
        # it, by which time its checks are done.)
        for name in ("goto", "reload", "go_back"):
            go = getattr(page, name)

            def checked_first(*args, _go=go, **kwargs):
                self.wait_checked(page)
                return _go(*args, **kwargs)

            setattr(page, name, checked_first)

    def _console(self, page, message) -> None:
        if message.type != "error" or EXPECTED_CONSOLE.match(message.text):
            return
        if not self.sockets_served and NO_SOCKET_CONSOLE.match(message.text):
            return
        if not message.location.get("url") and message.text.startswith("Applying inline style violates"):
            # Raised by the checks' own injected scripts (axe measuring an element), which have
            # no address; the site's pages and scripts always have one.
            return
        self._record(f"{page.url}: console error: {message.text} (at {message.location.get('url')}:{message.location.get('lineNumber')})")

    def _record(self, problem: str) -> None:
        if self.recording:
            self.problems.append(problem)

    # After the test ------------------------------------------------------------------------

    def wait_checked(self, page) -> None:
        """Wait (15 s at most) until ``page`` has reported on the document it shows."""
        if not self.recording or page.is_closed() or not page.url.startswith("http"):
            return  # a new page's about:blank never reports: nothing to wait for (it cost 15 s a page)
        try:
            page.evaluate("() => Promise.race([window.__hexsiteWhenChecked, new Promise(r => setTimeout(r, 15000))])")
        except Exception:  # navigating or closed: that document is gone
            pass

    def finish(self) -> list[str]:
        """Wait until each open page has reported, stop recording, return the problems."""
        for page in self.pages:
            self.wait_checked(page)
        self.recording = False
        return self.problems

    def close(self) -> None:
        self.recording = False
        for context in self.contexts:
            try:
                context.close()
            except Exception:  # already closed by the test or its browser
                pass


class ContextFactory:
    """The ``browser`` of the e2e tests: ``new_context`` as Playwright's, with a named viewport
    ("desktop" or "phone") and the checks above on every page."""

    def __init__(self, browser) -> None:
        self._browser = browser
        self._script = _init_script()
        self.checks: PageChecks | None = None

    def new_context(self, viewport: str = "desktop", **options):
        settings = {**VIEWPORTS[viewport], **options}
        context = self._browser.new_context(**settings)
        context._hexsite_width = settings["viewport"]["width"]
        checks = self.checks
        if checks is None:
            raise RuntimeError("A browser context outside a test.")
        checks.contexts.append(context)
        if settings.get("java_script_enabled") is False:
            # The checks are scripts: a page without JavaScript could never report, and waiting
            # for it would hang the test. Such tests check the plain HTML themselves.
            return context
        context.expose_binding("__hexsiteShouldScan", checks.should_scan)
        context.expose_binding("__hexsiteReport", checks.report)
        context.expose_binding("__hexsiteViolation", checks.violation)
        context.add_init_script(script=self._script)
        context.on("page", checks.watch)
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)
