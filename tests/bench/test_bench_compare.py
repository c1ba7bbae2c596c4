"""The bench's W1 per-event row, memory rows, and the --save / --compare baseline mode."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:        # bench/ is not an installed package
    sys.path.insert(0, str(ROOT))

from bench import __main__ as cli  # noqa: E402
from bench import baseline, data, harness, memory, w1_filter  # noqa: E402


def test_w1_send_per_event_agrees_with_the_loop():
    events = data.ticks(3000)
    _, want = w1_filter.loop_run(events)
    assert w1_filter.engine_send_run(events)[1] == want > 0
    assert w1_filter.engine_send_run(events, thread_safe=False)[1] == want


def test_w1_has_send_per_event_rows_with_and_without_the_lock(monkeypatch):
    monkeypatch.setitem(w1_filter.SIZES, True, 500)
    rows = w1_filter.run(True, 1)
    assert [r.case for r in rows][-2:] == ["... engine.send per event",
                                          "... send per event, thread_safe=False"]
    assert all(r.ratio and "DIFFER" not in r.note for r in rows)


def test_memory_rows_measure_kept_state():
    rows = [
        harness.measure_memory("M", "groups", 500, lambda: memory.engine_groups(memory.group_events(500)),
                               lambda: memory.loop_groups(memory.group_events(500)), 1)]
    r = rows[0]
    assert r.unit == "B/1k" and r.engine_eps > 0 and r.loop_eps > 0
    assert r.ratio == r.loop_eps / r.engine_eps
    assert "KiB/1k" in harness.format_rows(rows)


def test_more_state_means_more_memory():
    small = harness.measure_memory("M", "x", 1000, lambda: [0] * 10, lambda: [0] * 10, 1)
    big = harness.measure_memory("M", "x", 1000, lambda: [0] * 100_000, lambda: [0] * 10, 1)
    assert big.engine_eps > small.engine_eps + 700_000
    assert big.ratio < small.ratio


def _row(case: str, engine: float, loop: float = 100.0, unit: str = "ev/s") -> harness.Row:
    return harness.Row("W1 filter", case, 10, engine, loop, unit=unit)


def test_compare_flags_a_row_more_than_ten_percent_slower(tmp_path):
    path = str(tmp_path / "base.json")
    baseline.save([_row("a", 50.0), _row("b", 50.0), _row("c", 50.0), _row("m", 200.0, unit="B/1k")], path)
    assert json.loads(Path(path).read_text())["rows"]["W1 filter | a"]["ratio"] == 0.5
    now = [_row("a", 46.0), _row("b", 44.0), _row("c", 80.0), _row("m", 250.0, unit="B/1k"), _row("d", 1.0)]
    text, worse = baseline.compare(now, path)
    lines = {line.split()[2]: line for line in text.splitlines()[1:]}
    assert "SLOWER" not in lines["a"]              # 8% slower: within the noise allowed
    assert "SLOWER by 12%" in lines["b"]
    assert "1.60" in lines["c"] and "SLOWER" not in lines["c"]
    assert "SLOWER by 20%" in lines["m"]           # memory grew 25%: ratio loop/engine fell 20%
    assert "new row" in lines["d"]
    assert worse == 2


def test_the_command_saves_and_compares(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(w1_filter.SIZES, True, 400)
    monkeypatch.setitem(memory.SIZES, True, 300)
    path = str(tmp_path / "b.json")
    assert cli.main(["--quick", "--repeat", "1", "--only", "W1,MEM", "--save", path]) == 0
    saved = json.loads(Path(path).read_text())["rows"]
    assert "W1 filter | ... engine.send per event" in saved
    assert any(k.startswith("MEM memory | per 1,000 pattern instances") for k in saved)
    capsys.readouterr()
    # a baseline far better than anything now: every row flagged, exit status 1
    for v in saved.values():
        v["ratio"] *= 1000
    Path(path).write_text(json.dumps({"version": 1, "rows": saved}))
    assert cli.main(["--quick", "--repeat", "1", "--only", "W1,MEM", "--compare", path]) == 1
    out = capsys.readouterr().out
    assert out.count("SLOWER by") == len(saved)
