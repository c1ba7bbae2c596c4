"""The `epl` command: replay output format and the check mode's diff, and `epl run` stepping."""
from __future__ import annotations

import json
from pathlib import Path

from engine.cli import main

CASES = Path(__file__).parent.parent / "conformance" / "cases"


def test_replay_prints_expected_format(capsys):
    assert main(["replay", str(CASES / "length-window-irstream.json")]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    case = json.loads((CASES / "length-window-irstream.json").read_text())
    assert [json.loads(line) for line in lines] == case["expected"]


def test_replay_check_reports_mismatch(tmp_path, capsys):
    case = json.loads((CASES / "length-window-irstream.json").read_text())
    case["expected"][0]["new"][0]["amount"] = 999
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(case))
    assert main(["replay", "--check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out and "999" in out
    assert main(["replay", "--check", str(CASES / "length-window-irstream.json")]) == 0


def test_run_replays_an_event_file(tmp_path, capsys):
    epl = tmp_path / "s.epl"
    epl.write_text("create schema T(k string, v int, ts long);\n"
                   "@name('big') select k, v from T(v > 1);\n"
                   "@name('win') select irstream k from T#time(1 sec)")
    events = tmp_path / "e.jsonl"
    events.write_text("\n".join(json.dumps({"type": "T", "k": k, "v": v, "ts": ts})
                                for k, v, ts in [("a", 1, 100), ("b", 2, 600), ("c", 3, 1700)]))
    assert main(["run", str(epl), str(events), "--time-field", "ts", "--no-progress",
                 "--stepping", "jump", "--flush", "0"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["new"][0]["k"] for r in rows if r["statement"] == "big"] == ["b", "c"]
    removed = [(r["time"], [o["k"] for o in r["old"]]) for r in rows if r["statement"] == "win" and r["old"]]
    assert removed == [(1700, ["a", "b"])]   # one jump expires both in one delivery
    # the default steps through each instant: each expiry at its own time, then the flush
    assert main(["run", str(epl), str(events), "--time-field", "ts", "--no-progress"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    removed = [(r["time"], [o["k"] for o in r["old"]]) for r in rows if r["statement"] == "win" and r["old"]]
    assert removed == [(1100, ["a"]), (1600, ["b"]), (2700, ["c"])]
