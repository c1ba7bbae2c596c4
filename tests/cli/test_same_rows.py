"""`epl run` and the pipeline (`run_local`, and on Spark `replay` / `epl spark`) give the same
rows for the same file: time steps through every scheduled instant on every path; the
`jump` stepping is Esper's advanceTime and differs where time windows expire between events.
On Spark: tests/pipeline/test_same_rows_spark.py."""
from __future__ import annotations

import json
import random

import pytest

from cli_support import SAMPLES, delivery_rows, pipeline_rows, run_epl

pytest.importorskip("pipeline", reason="the pipeline needs the 'spark' extra")

from engine import Engine  # noqa: E402
from pipeline import run_local  # noqa: E402

WINDOWS = """create schema Withdrawal(account string, amount int, ts long);
@name('large') select account, amount from Withdrawal(amount >= 500);
@name('recent') select irstream account, amount from Withdrawal#groupwin(account)#length(3);
@name('per-account') select irstream account, sum(amount) as total, count(*) as n
  from Withdrawal#time(2 sec) group by account;
@name('batch') select account, count(*) as n from Withdrawal#time_batch(3 sec) group by account;
@name('slow') select a.account as account, a.amount as first_amount, b.amount as next_amount
  from pattern [every a=Withdrawal(amount > 700) -> b=Withdrawal(account = a.account)
                where timer:within(1500 msec)]
"""


def _columns(module: str) -> dict[str, list[str]]:
    engine = Engine(time="simulated")
    try:
        return {s.name: list(s.column_names) for s in engine.deploy(module) if s.kind == "select"}
    finally:
        engine.close()


def _events(path) -> list[dict]:
    out = []
    for line in path.read_text().splitlines():
        if line.strip():
            e = json.loads(line)
            e.pop("type", None)
            out.append(e)
    return out


def _generated(tmp_path, n: int = 400, seed: int = 7):
    rnd = random.Random(seed)
    t = 1_700_000_000_000
    lines = []
    for _ in range(n):
        t += rnd.choice([0, 0, 13, 250, 700, 1100, 2600, 4000])
        lines.append(json.dumps({"type": "Withdrawal", "account": f"a{rnd.randrange(5)}",
                                 "amount": rnd.randrange(1000), "ts": t}))
    path = tmp_path / "generated.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("module_name", ["sample", "windows"])
def test_epl_run_equals_run_local_on_the_sample(tmp_path, module_name):
    epl = SAMPLES / "withdrawals.epl"
    if module_name == "windows":
        epl = tmp_path / "windows.epl"
        epl.write_text(WINDOWS)
    module = epl.read_text()
    data = SAMPLES / "withdrawals.jsonl"
    done = run_epl("run", str(epl), str(data), "--time-field", "ts", "--no-progress")
    assert done.returncode == 0, done.stderr
    want = pipeline_rows(run_local(_events(data), module, event_type="Withdrawal", time_column="ts"),
                         _columns(module))
    assert delivery_rows(done.stdout) == want
    assert want


def test_epl_run_equals_run_local_on_a_generated_file(tmp_path):
    epl = tmp_path / "windows.epl"
    epl.write_text(WINDOWS)
    data = _generated(tmp_path)
    done = run_epl("run", str(epl), str(data), "--time-field", "ts", "--no-progress")
    assert done.returncode == 0, done.stderr
    got = delivery_rows(done.stdout)
    want = pipeline_rows(run_local(_events(data), WINDOWS, event_type="Withdrawal", time_column="ts"),
                         _columns(WINDOWS))
    assert got == want
    assert {s for _, s, _, _ in got} == {"large", "recent", "per-account", "batch", "slow"}


def test_jump_stepping_is_esper_advance_time_on_both_paths(tmp_path):
    epl = tmp_path / "windows.epl"
    epl.write_text(WINDOWS)
    data = _generated(tmp_path, n=200, seed=3)
    jump = run_epl("run", str(epl), str(data), "--time-field", "ts", "--no-progress", "--stepping", "jump")
    span = run_epl("run", str(epl), str(data), "--time-field", "ts", "--no-progress")
    assert jump.returncode == 0 and span.returncode == 0
    assert delivery_rows(jump.stdout) != delivery_rows(span.stdout)
    want = pipeline_rows(run_local(_events(data), WINDOWS, event_type="Withdrawal", time_column="ts",
                                   stepping="jump"), _columns(WINDOWS))
    assert delivery_rows(jump.stdout) == want
