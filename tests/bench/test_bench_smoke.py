"""Smoke test of the benchmark suite: every workload runs on tiny sizes, engine and loop agree.
Not timed: it only keeps `python -m bench` from rotting."""
from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:        # bench/ is not an installed package
    sys.path.insert(0, str(ROOT))

from bench import __main__ as cli  # noqa: E402
from bench import data, harness, memory, w1_filter, w2_window, w3_time_batch, w4_pattern, w5_statements, w6_context  # noqa: E402


def _same(engine_run, loop_run):
    _, got = engine_run
    _, want = loop_run
    assert harness.same_result(got, want), (got, want)
    return got


def test_data_is_seeded():
    assert data.ticks(50) == data.ticks(50)
    assert data.pattern_events(50) == data.pattern_events(50)
    assert data.withdrawals(50) == data.withdrawals(50)


def test_w1_engine_and_loop_agree():
    events = data.ticks(3000)
    assert _same(w1_filter.engine_run(events), w1_filter.loop_run(events)) > 0


@pytest.mark.parametrize("n", [3, 100])
def test_w2_engine_and_loop_agree(n):
    events = data.ticks(1500)
    _same(w2_window.engine_grouped(events, n), w2_window.loop_grouped(events, n))
    _same(w2_window.engine_ungrouped(events, n), w2_window.loop_ungrouped(events, n))


def test_w3_engine_and_loop_agree():
    events = data.ticks(3500)
    rows, _, _ = _same(w3_time_batch.engine_run(events), w3_time_batch.loop_run(events))
    assert rows > 0


def test_w3_loop_posts_groups_that_only_left():
    # a group present in one batch and absent from the next posts a null sum, as the engine does
    events = [{"symbol": "S1" if t < 1000 else "S2", "price": 1.0, "volume": 1} for t in range(2500)]
    assert _same(w3_time_batch.engine_run(events), w3_time_batch.loop_run(events))[2] == 1


def test_w4_engine_and_loop_agree():
    events = data.pattern_events(3000, ids=50)
    assert _same(w4_pattern.engine_run(events), w4_pattern.loop_run(events))[0] > 0
    counts: list = []
    _same(w4_pattern.engine_within_run(events, counts), w4_pattern.loop_within_run(events))
    before, after, schedules = counts
    assert after == before and schedules == 0


def test_w5_engine_and_loop_agree():
    events = data.ticks(2000)
    engine, seen = w5_statements.build_engine(120)
    assert _same(w5_statements.engine_run(engine, seen, events), w5_statements.loop_run(120, events)) == 2000


def test_w6_engine_and_loop_agree_or_unsupported():
    if w6_context.supported():
        pytest.skip("keyed contexts not available: " + w6_context.supported())
    events = data.withdrawals(2000, accounts=30)
    _same(w6_context.engine_run(events), w6_context.loop_run(events))


def test_the_command_runs_every_workload(monkeypatch, capsys):
    for module, size in ((w1_filter, 600), (w2_window, 300), (w3_time_batch, 2100), (w4_pattern, 400),
                         (w5_statements, 300), (w6_context, 300)):
        monkeypatch.setitem(module.SIZES, True, size)
    monkeypatch.setitem(w5_statements.COUNTS, True, (1, 10))
    monkeypatch.setitem(memory.SIZES, True, 200)
    fake = types.ModuleType("bench.spark_bench")     # the real one starts Spark: too slow here
    fake.run = lambda quick: [{"workload": "Spark", "case": "replay", "events": 10, "engine_eps": 1.0,
                               "loop_eps": 2.0, "note": "fake"}]
    monkeypatch.setitem(sys.modules, "bench.spark_bench", fake)
    assert cli.main(["--quick", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    for name in ("W1", "W2", "W3", "W4", "W5", "W6", "MEM", "Spark"):
        assert name in out
    assert "0.500" in out                             # the Spark row's ratio
    assert "RESULTS DIFFER" not in out and "FAILED" not in out


def test_spark_row_says_not_supported_without_the_module(monkeypatch):
    monkeypatch.setitem(sys.modules, "bench.spark_bench", None)   # import raises ModuleNotFoundError
    rows = cli.spark_rows(True)
    assert rows[0].engine_eps is None and "not supported" in rows[0].note


def test_unknown_workload_is_refused(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--only", "W99"])


def test_report_marks_missing_features():
    rows = [harness.not_supported("W6 keyed context", "x", "no contexts"),
            harness.Row("W1 filter", "y", 10, 5.0, 20.0)]
    text = harness.format_rows(rows)
    assert "not supported (no contexts)" in text and "0.250" in text


def test_w3_parts_runs_every_stage(capsys):
    from bench import w3_parts
    w3_parts.main(["--events", "3000", "--repeat", "1"])
    out = capsys.readouterr().out
    for stage in ("hand loop", "of which the batch ends", "advance_time alone", "send alone", "engine / loop"):
        assert stage in out
