"""The pytest plugin: fixtures on simulated time, a recorder of chosen statements, assertion
helpers whose failures show a readable diff; the entry point is declared."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from engine.testing import Recorder

ROOT = Path(__file__).resolve().parents[2]


def test_fixtures_run_on_simulated_time(epl_engine, epl_recorder):
    epl_engine.epl("create schema T(k string, v int)")
    epl_engine.epl("@name('w') select irstream k, sum(v) as total from T#time(10 sec) group by k")
    rec = epl_recorder("w")
    assert epl_engine.now == 0
    epl_engine.send({"k": "a", "v": 1}, "T")
    epl_engine.advance_time(5_000)
    epl_engine.send({"k": "a", "v": 2}, "T")
    epl_engine.advance_time(10_000)
    rec.assert_deliveries([
        (0, [{"k": "a", "total": 1}], [{"k": "a", "total": None}]),
        (5_000, [{"k": "a", "total": 3}], [{"k": "a", "total": 1}]),
        (10_000, [{"k": "a", "total": 2}], [{"k": "a", "total": 3}]),
    ])
    rec.assert_streams(new=[{"k": "a", "total": 1}, {"k": "a", "total": 3}, {"k": "a", "total": 2}])


def test_recorder_collects_several_statements_in_order(epl_engine, epl_recorder, epl_assert_streams):
    epl_engine.epl("create schema T(v int)")
    a = epl_engine.epl("@name('a') select v from T")
    epl_engine.epl("@name('b') select v * 10 as v from T")
    rec = epl_recorder(a, "b")
    epl_engine.send({"v": 1}, "T")
    assert [d.statement for d in rec.deliveries] == ["a", "b"]
    epl_assert_streams(rec, new=[{"v": 10}], statement="b")
    assert rec.new_rows("a") == [{"v": 1}] and rec.old_rows() == []
    assert len(rec.pop()) == 2 and len(rec) == 0


def test_assertion_diff_is_readable(epl_engine, epl_recorder):
    epl_engine.epl("create schema T(k string, v double)")
    rec = epl_recorder(epl_engine.epl("select irstream k, v from T#length(1)"))
    epl_engine.send({"k": "a", "v": 1.0}, "T")
    epl_engine.send({"k": "b", "v": 2.0}, "T")
    rec.assert_streams(new=[{"k": "a", "v": 1.0000000000001}, {"k": "b", "v": 2.0}])   # floats: rel 1e-9
    with pytest.raises(AssertionError) as err:
        rec.assert_streams(new=[{"k": "a", "v": 1.0}, {"k": "c", "v": 2.0}], old=[])
    text = str(err.value)
    assert "insert stream differs (- expected, + delivered)" in text
    assert "- {k: 'c', v: 2.0}" in text and "+ {k: 'b', v: 2.0}" in text
    assert "remove stream differs" in text and "+ {k: 'a', v: 1.0}" in text
    with pytest.raises(AssertionError) as err:
        rec.assert_deliveries([([{"k": "a", "v": 1.0}], None)])
    assert "1 expected, 2 delivered" in str(err.value)
    assert "+ new=[{k: 'b', v: 2.0}] old=[{k: 'a', v: 1.0}]" in str(err.value)


def test_recorder_as_dataframe(epl_engine, epl_recorder):
    pd = pytest.importorskip("pandas")
    epl_engine.epl("create schema T(k string, v int)")
    rec = epl_recorder(epl_engine.epl("@name('w') select irstream k, v from T#length(1)"))
    epl_engine.send_many(pd.DataFrame({"k": ["a", "b"], "v": [1, 2]}), "T")
    df = rec.to_dataframe()
    assert list(df.columns) == ["time", "statement", "stream", "k", "v"]
    assert df[["stream", "k"]].values.tolist() == [["insert", "a"], ["insert", "b"], ["remove", "a"]]


def test_entry_point_is_declared():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    # named after the module: `-p engine.pytest_plugin` and conftest's pytest_plugins then
    # find it registered, whether or not the package is installed
    assert meta["project"]["entry-points"]["pytest11"] == {"engine.pytest_plugin": "engine.pytest_plugin"}


def _fake_install(tmp_path: Path) -> Path:
    """A dist-info declaring the entry point, as an installed package would."""
    site = tmp_path / "site"
    info = site / "epl_engine-0.0.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: epl-engine\nVersion: 0.0.0\n")
    (info / "entry_points.txt").write_text("[pytest11]\nengine.pytest_plugin = engine.pytest_plugin\n")
    return site


@pytest.mark.parametrize("how", ["entry point", "entry point and -p", "-p"])
def test_a_user_test_file_with_the_plugin(tmp_path, how):
    (tmp_path / "test_mine.py").write_text(textwrap.dedent("""
        def test_big(epl_engine, epl_recorder):
            epl_engine.epl("create schema W(account string, amount int)")
            rec = epl_recorder(epl_engine.epl("select account from W(amount > 100)"))
            epl_engine.send({"account": "x", "amount": 500}, "W")
            rec.assert_streams(new=[{"account": "y"}])
    """))
    paths = [str(ROOT)] + ([str(_fake_install(tmp_path))] if how.startswith("entry") else [])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    plugin = ["-p", "engine.pytest_plugin"] if how.endswith("-p") else []
    done = subprocess.run([sys.executable, "-m", "pytest", *plugin, "-p", "no:cacheprovider",
                           "-q", "test_mine.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert "- {account: 'y'}" in done.stdout and "+ {account: 'x'}" in done.stdout
    assert "1 failed" in done.stdout


def test_recorder_without_pytest():
    from engine import Engine
    engine = Engine(time="simulated")
    engine.epl("create schema T(v int)")
    rec = Recorder(engine.epl("select v from T"))
    engine.send({"v": 1}, "T")
    rec.detach()
    engine.send({"v": 2}, "T")
    assert rec.new_rows() == [{"v": 1}]
