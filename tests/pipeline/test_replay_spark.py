"""Batch replay on Spark equals the local single-engine run, row for row."""
from __future__ import annotations

import datetime as dt
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pipeline import replay, run_local
from pipeline.replay import prepare_replay

from _pipeline_helpers import MODULE, SCHEMA, assert_same_output, keyed_events

pytestmark = pytest.mark.spark


def _rows(df) -> list[dict]:
    return [r.asDict(recursive=True) for r in df.collect()]


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(events=keyed_events(max_size=80), partitions=st.integers(1, 3))
def test_replay_equals_local_run(spark, events, partitions):
    want = run_local(events, MODULE, event_type="T", time_column="ts")
    df = spark.createDataFrame(events, "k string, v int, ts long, n long")
    got = _rows(replay(df, MODULE, event_type="T", time_column="ts", key="k", spark=spark,
                       partitions=partitions))
    assert_same_output(got, want)


def test_output_columns_are_typed_from_the_select_lists(spark):
    events = [{"k": "a", "v": 1, "ts": 10, "n": 0}]
    df = spark.createDataFrame(events, "k string, v int, ts long, n long")
    out = replay(df, MODULE, event_type="T", time_column="ts", key="k")
    types = {f.name: f.dataType.simpleString() for f in out.schema}
    assert types == {"statement": "string", "stream": "string", "time": "bigint", "seq": "bigint",
                     "k": "string", "total": "int", "c": "bigint", "av": "int", "bv": "int"}


def test_refuses_statements_that_are_not_partitionable(spark):
    df = spark.createDataFrame([{"k": "a", "v": 1, "ts": 10, "n": 0}], "k string, v int, ts long, n long")
    module = f"{SCHEMA};\n@name('len') select count(*) as c from T#length(2)"
    with pytest.raises(ValueError, match="len: #length counts events of every key"):
        replay(df, module, event_type="T", time_column="ts", key="k")


def test_single_partition_when_allowed(spark):
    events = [{"k": f"k{i % 3}", "v": i, "ts": 10 * i, "n": i} for i in range(20)]
    module = f"{SCHEMA};\n@name('len') select irstream count(*) as c, sum(v) as total from T#length(4)"
    df = spark.createDataFrame(events, "k string, v int, ts long, n long")
    prepared = prepare_replay(df, module, event_type="T", time_column="ts", key="k",
                              allow_single_partition=True, partitions=2)
    assert prepared.partitions == 1
    got = _rows(prepared.output)
    assert got == run_local(events, module, event_type="T", time_column="ts")


def test_parquet_path_timestamps_and_an_undeclared_type(spark, tmp_path):
    base = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
    events = [{"account": f"a{i % 4}", "amount": 100 * i, "at": base + dt.timedelta(milliseconds=300 * i)}
              for i in range(30)]
    path = str(tmp_path / "w.parquet")
    spark.createDataFrame(events, "account string, amount long, at timestamp") \
        .write.parquet(path)
    module = ("@name('sum') select account, sum(amount) as total from Withdrawal#time_batch(1 sec) "
              "group by account")
    got = _rows(replay(path, module, event_type="Withdrawal", time_column="at", key="account"))
    want = run_local(events, module, event_type="Withdrawal", time_column="at")
    assert_same_output(got, want, key="account")
    t0 = int(base.timestamp() * 1000)
    assert min(r["time"] for r in got) == t0 + 1000


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("EPL_SLOW"), reason="1M events: set EPL_SLOW=1 (runs in make bench)")
def test_one_million_events(spark, tmp_path):
    from bench.spark_bench import check_million
    check_million(spark, str(tmp_path))
