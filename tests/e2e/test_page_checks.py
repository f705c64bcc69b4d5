"""The checks every browser test makes (tests/e2e/checks.py) do find what they look for: an
image without a text alternative, a page wider than a phone, a script error."""
import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BROKEN = """<!DOCTYPE html><html lang="en"><head><title>Broken</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Broken</h1><img src="data:,">
<div style="width: 600px">wide</div><script>undefinedFunction()</script></main></body></html>"""


def test_the_checks_report_an_inaccessible_wide_page_with_a_script_error(live_server, browser, page_checks):
    page = browser.new_context("phone").new_page()
    page.route("**/broken/", lambda route: route.fulfill(status=200, content_type="text/html", body=BROKEN))
    page.goto(f"{live_server.url}/broken/")
    problems = page_checks.finish()
    assert any("axe critical 'image-alt'" in p for p in problems), problems
    assert any("px wide in a 390 px window" in p for p in problems), problems
    assert any("undefinedFunction" in p for p in problems), problems
    page_checks.problems.clear()  # found as they should be: this test passes


INLINE_STYLE = """<!DOCTYPE html><html lang="en"><head><title>Inline style</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Inline style</h1><p style="color: #333">styled</p>
<script src="/inline-style.js"></script></main></body></html>"""


def test_the_checks_report_a_content_security_policy_violation(live_server, browser, page_checks):
    page = browser.new_context("desktop").new_page()
    csp = {"Content-Security-Policy": "default-src 'self'; style-src 'self'"}
    page.route("**/inline-style/", lambda route: route.fulfill(status=200, content_type="text/html", headers=csp,
                                                              body=INLINE_STYLE))
    page.route("**/inline-style.js", lambda route: route.fulfill(
        status=200, content_type="text/javascript", headers=csp,
        body="document.querySelector('h1').setAttribute('style', 'color: #000');"))
    page.goto(f"{live_server.url}/inline-style/")
    problems = [p for p in page_checks.finish() if "Content-Security-Policy violation of style-src" in p]
    assert any("inline-style/" in p and "inline-style.js" not in p for p in problems), page_checks.problems
    assert any("(at " in p and "inline-style.js" in p for p in problems), page_checks.problems
    page_checks.problems.clear()  # found as they should be: this test passes
