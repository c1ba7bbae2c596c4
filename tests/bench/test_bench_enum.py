"""Smoke test of the W8 benchmark (enumeration methods): engine and hand loop agree."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:        # bench/ is not an installed package
    sys.path.insert(0, str(ROOT))

from bench import data, harness, w8_enum  # noqa: E402


def test_w8_engine_and_loop_agree():
    events = data.ticks(1500)
    _, got = w8_enum.engine_run(events)
    _, want = w8_enum.loop_run(events)
    assert harness.same_result(got, want), (got, want)
    assert got[0] == 1500
