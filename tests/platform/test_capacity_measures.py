"""`make capacity` (benchmarks/capacity.py, issue 48): how its knee and ratios are worked out, and
the floor it measures against (hexsite/capacity_floor.py), which only the harness can switch on."""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.http import Http404
from django.test import RequestFactory
from django.urls import NoReverseMatch, reverse

from hexsite import capacity_floor

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def capacity():
    # The harness sets its own environment on import (the floor's switch among it): kept out of
    # the test process's.
    with mock.patch.dict(os.environ), mock.patch.object(sys, "path", [str(BENCHMARKS), *sys.path]), \
            mock.patch.dict(sys.modules):
        spec = importlib.util.spec_from_file_location("capacity_harness", BENCHMARKS / "capacity.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["capacity_harness"] = module
        spec.loader.exec_module(module)
    assert os.environ.get(capacity_floor.ENV_VAR) != "1"
    return module


def step(capacity, rate, *, achieved_share=1.0, p95=0.02, shown=0.05):
    seconds = 10.0
    ok = int(rate * seconds * achieved_share)
    made = capacity.Step(rate=rate, offered=int(rate * seconds), ok=ok, seconds=seconds, latencies=[p95] * 20)
    made.shown = None if shown is None else [shown] * 20
    return made


def test_the_knee_is_the_highest_rate_holding_every_limit(capacity):
    curve = [step(capacity, 25), step(capacity, 50), step(capacity, 100, shown=0.3),  # pages late
             step(capacity, 150, p95=0.09), step(capacity, 200, achieved_share=0.95)]
    assert capacity.knee(curve) == 150
    assert capacity.knee([step(capacity, 25, p95=0.2)]) == 0
    floor = [step(capacity, 100, shown=None), step(capacity, 300, shown=None, p95=0.101)]
    assert capacity.knee(floor) == 100  # the floor has no pages: its answers and rate only


def test_a_move_step_with_no_version_shown_does_not_hold(capacity):
    assert step(capacity, 25, shown=None).holds()  # the floor's form: no pages to show
    empty = step(capacity, 25)
    empty.shown = []
    assert not empty.holds()


def test_headlines_read_as_the_issue_quotes_them(capacity):
    assert capacity.headline_cpu(21.04, 4.0) == "cpu per committed move: 21.0 ms; floor 4.0 ms; ratio 5.26"
    assert capacity.headline_idle([0.030, 0.028, 0.160], [0.010, 0.012, 0.011]) == \
        "idle move: p50 30.0 ms, p95 160.0 ms; floor p50 11.0 ms; ratio 2.73"
    assert capacity.headline_knee(50, 200) == "knee: 50 moves/s; floor 200 requests/s; ratio 0.25"
    assert capacity.headline_pages([3.3, 9.5, 5.0], 4.0) == "page cpu: median 5.0 ms; floor 4.0 ms; ratio 1.25"
    assert capacity.headline_knee(0, 0) == "knee: 0 moves/s; floor 0 requests/s; ratio n/a"


def test_a_process_cpu_is_read_from_proc_and_a_gone_one_is_none(capacity):
    assert capacity.proc_ticks(os.getpid()) >= 0
    assert capacity.proc_ticks(2**22 + 17) is None


def test_the_floor_is_not_mounted_without_its_switch():
    with pytest.raises(NoReverseMatch):
        reverse("capacity_floor")
    with mock.patch.dict(os.environ, {capacity_floor.ENV_VAR: "0"}):
        assert capacity_floor.urlpatterns() == []
    with mock.patch.dict(os.environ, {capacity_floor.ENV_VAR: "1"}):
        assert [p.name for p in capacity_floor.urlpatterns()] == ["capacity_floor"]


def test_the_floor_view_refuses_without_its_switch():
    request = RequestFactory().post("/" + capacity_floor.PATH)
    with mock.patch.dict(os.environ, {capacity_floor.ENV_VAR: ""}), pytest.raises(Http404):
        capacity_floor.floor(request)
