"""`epl run` and Spark's `replay` give the same rows for the same file (the local paths:
tests/cli/test_same_rows.py)."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Engine

pytestmark = pytest.mark.spark
ROOT = Path(__file__).resolve().parents[2]

KEYED = """create schema Withdrawal(account string, amount int, ts long);
@name('large') select account, amount from Withdrawal(amount >= 500);
@name('per-account') select irstream account, sum(amount) as total, count(*) as n
  from Withdrawal#time(2 sec) group by account;
@name('slow') select a.account as account, a.amount as first_amount, b.amount as next_amount
  from pattern [every a=Withdrawal(amount > 700) -> b=Withdrawal(account = a.account)
                where timer:within(1500 msec)]
"""


def _rows_of_run(jsonl: str) -> list[tuple]:
    out = []
    for line in jsonl.splitlines():
        d = json.loads(line)
        for stream, key in (("insert", "new"), ("remove", "old")):
            for row in d[key] or ():
                out.append((d["time"], d["statement"], stream, tuple(sorted(row.items()))))
    return out


def test_spark_replay_equals_epl_run(spark, tmp_path):
    from pipeline import replay
    rnd = random.Random(11)
    t, events = 1_700_000_000_000, []
    for _ in range(150):
        t += rnd.choice([0, 13, 250, 700, 1100, 2600])
        events.append({"account": f"a{rnd.randrange(5)}", "amount": rnd.randrange(1000), "ts": t})
    data = tmp_path / "events.jsonl"
    data.write_text("".join(json.dumps(e) + "\n" for e in events))
    epl = tmp_path / "keyed.epl"
    epl.write_text(KEYED)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "engine.cli", "run", str(epl), str(data),
                           "--type", "Withdrawal", "--time-field", "ts", "--no-progress"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    engine = Engine(time="simulated")
    cols = {s.name: list(s.column_names) for s in engine.deploy(KEYED) if s.kind == "select"}
    engine.close()
    out = replay(str(data), KEYED, event_type="Withdrawal", time_column="ts", key="account",
                 spark=spark, partitions=2)
    got = sorted(((r["time"], r["statement"], r["stream"],
                   tuple(sorted((c, r[c]) for c in cols[r["statement"]])))
                  for r in (row.asDict() for row in out.collect())), key=repr)
    want = sorted(_rows_of_run(done.stdout), key=repr)
    assert got == want and want


def test_epl_spark_output_formats(spark, tmp_path, capsys):
    from engine.cli import main
    data = tmp_path / "events.jsonl"
    data.write_text("".join(json.dumps({"account": a, "amount": v, "ts": t}) + "\n"
                            for a, v, t in [("a1", 600, 1000), ("a2", 5, 2000)]))
    epl = tmp_path / "keyed.epl"
    epl.write_text(KEYED)
    args = ["spark", str(epl), str(data), "--type", "Withdrawal", "--time-column", "ts",
            "--key", "account", "--master", "local[2]", "--no-progress"]
    assert main(args + ["--output-format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("statement,stream,time,seq,") and "large,insert,1000,0,a1,600" in lines[1]
    assert main(args + ["--output-format", "table"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:4] == ["statement", "stream", "time", "seq"] and set(table[1]) <= {"-", " "}
