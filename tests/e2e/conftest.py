"""Browser tests: Playwright driving Debian's Chromium, installed here when missing."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def ensure_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    if shutil.which("apt-get") is None:
        pytest.fail("Chromium is missing and apt-get is not available to install it.")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "chromium"], check=True, env=env, stdout=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def browser():
    ensure_chromium()
    # Playwright's sync API runs an event loop in this thread; Django must allow sync DB calls.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
