"""The API's docs page in a browser: drawn from the OpenAPI document by the site's own script,
under the site's CSP, on a phone and a desktop, with every check of tests/e2e/checks.py."""
import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_docs_page_lists_every_operation(live_server, browser, page_checks, viewport):
    page = browser.new_context(viewport).new_page()
    page.goto(f"{live_server.url}/api/v1/docs")
    page.wait_for_selector("#api-operations section#playMove")
    headings = page.locator("#api-operations h2").all_inner_texts()
    assert "POST /api/v1/games/{id}/moves" in headings and "GET /api/v1/account" in headings
    assert len(headings) >= 10
    assert page_checks.finish() == []
