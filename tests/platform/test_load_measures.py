"""What `make load` counts as a version shown (benchmarks/load.py, ``every_version_shown``): a page
that skips versions (its socket fell behind, or the game's announcements were paced) shows each
skipped one only when a later one arrives, and that later time is what the measure must count."""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from unittest import mock

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def load():
    # The harness sets its own environment on import: kept out of the test process's.
    with mock.patch.dict(os.environ), mock.patch.object(sys, "path", [str(BENCHMARKS), *sys.path]), \
            mock.patch.dict(sys.modules):  # its dataclasses look their module up while it loads
        spec = importlib.util.spec_from_file_location("load_harness", BENCHMARKS / "load.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["load_harness"] = module
        spec.loader.exec_module(module)
    return module


def test_a_skipped_version_counts_from_its_commit_to_the_next_frame_the_page_got(load):
    committed = {(7, v): (100.0 + v, "move") for v in range(1, 7)}  # version v committed at 100 + v
    committed[(8, 1)] = (100.0, "move")
    shown = [
        # opened at 101.5: versions 2..6 count. Frames at 3 (t 103.2) and 6 (t 107.0); the
        # page's own move made version 4, answered at 104.1.
        (7, 101.5, {3: 103.2, 6: 107.0, 4: 104.1}),
        (8, 99.0, {}),  # a page that got nothing counts nothing
    ]
    latencies = load.every_version_shown(shown, committed, {7: "hextension", 8: "hexland"})
    assert dict(latencies) == {"hextension": pytest.approx([1.2, 0.2, 0.1, 2.0, 1.0])}
