"""The W7 benchmark's hand-written state machine and the engine agree (on more shapes of
data than the benchmark's), so the figures compare the same matching."""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:        # bench/ is not an installed package
    sys.path.insert(0, str(ROOT))

from bench import data, harness, w7_rowrecog  # noqa: E402


def test_engine_and_loop_agree_on_ticks():
    events = data.ticks(3000)
    _, got = w7_rowrecog.engine_run(events)
    _, want = w7_rowrecog.loop_run(events)
    assert got[0] > 0 and harness.same_result(got, want)


def test_engine_and_loop_agree_with_ties_and_few_keys():
    rng = random.Random(7)
    events = [{"symbol": f"S{rng.randrange(3)}", "price": float(rng.randrange(4)), "volume": 1}
              for _ in range(2000)]
    assert harness.same_result(w7_rowrecog.engine_run(events)[1], w7_rowrecog.loop_run(events)[1])


def test_memory_row_reports_partial_matches():
    row = w7_rowrecog.memory(200)
    assert "200 keys: 400 partial matches" in row.note and "after 100 matches 200 partial matches" in row.note
