"""`epl spark`: replay from the command line."""
from __future__ import annotations

import json

import pytest

from engine.cli import main
from pipeline import run_local

from _pipeline_helpers import MODULE, assert_same_output

pytestmark = pytest.mark.spark


def _files(tmp_path):
    events = [{"k": f"k{i % 3}", "v": (i * 37) % 100, "ts": 1000 + 150 * i, "n": i} for i in range(40)]
    data = tmp_path / "events.jsonl"
    data.write_text("".join(json.dumps(e) + "\n" for e in events))
    stmts = tmp_path / "stmts.epl"
    stmts.write_text(MODULE)
    return events, str(stmts), str(data)


def test_epl_spark_writes_parquet(spark, tmp_path, capsys):
    events, stmts, data = _files(tmp_path)
    out = str(tmp_path / "out.parquet")
    assert main(["spark", stmts, data, "--type", "T", "--time-column", "ts", "--key", "k",
                 "--master", "local[2]", "--out", out, "--no-progress"]) == 0
    got = [r.asDict() for r in spark.read.parquet(out).collect()]
    assert_same_output(got, run_local(events, MODULE, event_type="T", time_column="ts"))
    err = capsys.readouterr().err
    assert "40 events" in err and "events/s" in err
    assert not spark.sparkContext._jsc.sc().isStopped()     # the caller's session stays


def test_epl_spark_check_and_refusal(spark, tmp_path, capsys):
    _, _, data = _files(tmp_path)
    bad = tmp_path / "bad.epl"
    bad.write_text("create schema T(k string, v int, ts long, n long);\n"
                   "@name('len') select count(*) as c from T#length(3)")
    assert main(["spark", str(bad), data, "--type", "T", "--time-column", "ts", "--key", "k",
                 "--check"]) == 1
    assert "NO  len: #length counts events of every key" in capsys.readouterr().out
    assert main(["spark", str(bad), data, "--type", "T", "--time-column", "ts", "--key", "k",
                 "--no-progress"]) == 2
    assert "--allow-single-partition" in capsys.readouterr().err
