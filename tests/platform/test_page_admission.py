"""Writes before pages (hexsite/admission.py): full pages are drawn a few at a time per process,
and a move, or the live page's own read, never waits for a slot."""
from __future__ import annotations

import threading

import pytest
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from hexsite.admission import PageAdmissionMiddleware

WAIT = 10  # seconds: only a broken admission reaches it


class BlockingView:
    """A view that holds its request until told to answer; records who got in."""

    def __init__(self):
        self.entered: dict[str, threading.Event] = {}
        self.release: dict[str, threading.Event] = {}

    def expect(self, name: str) -> None:
        self.entered[name], self.release[name] = threading.Event(), threading.Event()

    def __call__(self, request):
        name = request.GET.get("name") or request.POST.get("name")
        self.entered[name].set()
        assert self.release[name].wait(WAIT), f"{name} was never released"
        if name.startswith("boom"):
            raise RuntimeError("the view failed")
        return HttpResponse(name)


def run(middleware, request) -> threading.Thread:
    def serve():
        try:
            middleware(request)
        except RuntimeError:
            pass
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def view():
    return BlockingView()


@override_settings(PAGE_SLOTS=1, PAGE_WAIT_SECONDS=WAIT)
def test_a_page_waits_for_a_slot_while_writes_and_live_reads_go_past(view):
    middleware, factory = PageAdmissionMiddleware(view), RequestFactory()
    for name in ("page-a", "page-b", "move", "regions"):
        view.expect(name)

    first = run(middleware, factory.get("/games/", {"name": "page-a"}))
    assert view.entered["page-a"].wait(WAIT)
    second = run(middleware, factory.get("/games/hexland/", {"name": "page-b"}))
    # While the first page holds the only slot, a move and an htmx read are served at once.
    move = run(middleware, factory.post("/games/1/move/", {"name": "move"}))
    assert view.entered["move"].wait(WAIT), "a move waited for a page's slot"
    regions = run(middleware, factory.get("/games/1/regions/", {"name": "regions"}, HTTP_HX_REQUEST="true"))
    assert view.entered["regions"].wait(WAIT), "the live page's read waited for a page's slot"
    assert not view.entered["page-b"].is_set(), "a second page was drawn beside the first with one slot"

    view.release["move"].set()
    view.release["regions"].set()
    view.release["page-a"].set()  # the slot passes to the waiting page
    assert view.entered["page-b"].wait(WAIT)
    view.release["page-b"].set()
    for thread in (first, second, move, regions):
        thread.join(WAIT)
    assert middleware.slots.acquire(blocking=False), "the slot was not given back"


@override_settings(PAGE_SLOTS=1, PAGE_WAIT_SECONDS=WAIT)
def test_a_failing_page_gives_its_slot_back(view):
    middleware, factory = PageAdmissionMiddleware(view), RequestFactory()
    view.expect("boom")
    view.release["boom"].set()
    with pytest.raises(RuntimeError):
        middleware(factory.get("/games/", {"name": "boom"}))
    view.expect("after")
    view.release["after"].set()
    assert middleware(factory.get("/games/", {"name": "after"})).content == b"after"


@override_settings(PAGE_SLOTS=1, PAGE_WAIT_SECONDS=0.2)
def test_a_page_that_waited_its_bound_is_drawn_and_gives_back_no_slot_it_did_not_take(view):
    middleware, factory = PageAdmissionMiddleware(view), RequestFactory()
    view.expect("stuck")
    view.expect("late")
    stuck = run(middleware, factory.get("/games/", {"name": "stuck"}))
    assert view.entered["stuck"].wait(WAIT)
    view.release["late"].set()
    assert middleware(factory.get("/games/", {"name": "late"})).content == b"late"  # after the bound
    view.release["stuck"].set()
    stuck.join(WAIT)
    # One slot, taken and given back once by the stuck page; the late page took none.
    assert middleware.slots.acquire(blocking=False)
    assert not middleware.slots.acquire(blocking=False)
