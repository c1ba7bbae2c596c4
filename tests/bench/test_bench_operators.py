"""Smoke test of the W9-W11 workloads (grouped time window, correlated subquery, join): engine
and hand loop agree on small sizes. Not timed."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:        # bench/ is not an installed package
    sys.path.insert(0, str(ROOT))

from bench import data, harness, w9_time_window, w10_subquery, w11_join  # noqa: E402


def _agree(engine_run, loop_run):
    _, got = engine_run
    _, want = loop_run
    assert harness.same_result(got, want), (got, want)
    return got


def test_w9_time_window_expires_and_agrees():
    events = data.ticks(12_000)          # past the 10 s window: expiries post rows too
    rows, _total = _agree(w9_time_window.engine_run(events), w9_time_window.loop_run(events))
    assert rows > len(events)


def test_w10_subquery_agrees():
    events = w10_subquery.events(4000)
    rows, _total, without_quote = _agree(w10_subquery.engine_run(events),
                                         w10_subquery.loop_run(events))
    assert rows > 0 and without_quote > 0


def test_w11_join_agrees():
    events = data.pattern_events(4000, ids=w11_join.IDS)
    rows, _x, _y = _agree(w11_join.engine_run(events), w11_join.loop_run(events))
    assert rows > len(events)
