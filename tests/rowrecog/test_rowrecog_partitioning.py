"""A match_recognize partitioned by the key runs per key: `check_partitionable` accepts it,
engines that each see some keys' events output what one engine outputs, and so does a Spark
replay."""
from __future__ import annotations

import math
from collections import defaultdict

import pytest
from hypothesis import given, settings, strategies as st

from pipeline import check_partitionable, run_local, run_partitioned

SCHEMA = "create schema T(k string, v int, ts long, n long)"
STATEMENTS = [
    "@name('fall') select * from T match_recognize (partition by k measures A.k as k, A.v as top, "
    "last(B.v) as bottom, count(B.v) as falls, C.n as at pattern (A B+ C) "
    "define B as B.v < prev(B.v), C as C.v > prev(C.v))",
    "@name('win') select k, first_n, n_b from T#time(700 msec) match_recognize (partition by k "
    "measures A.k as k, A.n as first_n, count(B.n) as n_b all matches after match skip to next row "
    "pattern (A B* C) define A as A.v > 50, B as B.v between 20 and 80, C as C.v < 20)",
    "@name('iv') select * from T match_recognize (partition by k measures A.k as k, A.n as a, "
    "last(B.n) as b pattern (A B*) interval 1 sec or terminated define A as A.v > 60, B as B.v > 30)",
]


@st.composite
def keyed_events(draw, max_size: int = 50, keys: int = 4) -> list[dict]:
    steps = draw(st.lists(st.sampled_from([0, 1, 7, 50, 120, 333, 900, 1500]), min_size=1, max_size=max_size))
    out, t = [], 1_000_000
    for i, step in enumerate(steps):
        t += step
        out.append({"k": f"k{draw(st.integers(0, keys - 1))}", "v": draw(st.integers(0, 99)), "ts": t, "n": i})
    return out


def _per_key(rows: list[dict]) -> dict:
    out: dict = defaultdict(list)
    for r in sorted(rows, key=lambda r: (r["time"], r["seq"])):
        out[(r["statement"], r.get("k"))].append(
            tuple((c, round(v, 9) if isinstance(v, float) and math.isfinite(v) else v)
                  for c, v in sorted(r.items()) if c != "seq"))
    return dict(out)


def test_check_partitionable():
    verdicts = {v.statement: v for v in check_partitionable([SCHEMA] + STATEMENTS, "k")}
    assert all(verdicts[n].ok for n in ("fall", "win", "iv"))
    assert "match_recognize partitioned by k" in verdicts["fall"].reason
    [bad, counted] = check_partitionable([
        "@name('all') select * from T match_recognize (measures A.k as k pattern (A B))",
        "@name('len') select * from T#length(3) match_recognize (partition by k measures A.k as k pattern (A B))"],
        "k")
    assert not bad.ok and "without partition by k" in bad.reason
    assert not counted.ok and "#length" in counted.reason


@pytest.mark.parametrize("text", STATEMENTS)
@settings(max_examples=25, deadline=None)
@given(events=keyed_events(), partitions=st.integers(1, 3))
def test_partitioned_equals_one_engine(text, events, partitions):
    module = f"{SCHEMA};\n{text}"
    want = run_local(events, module, event_type="T", time_column="ts")
    got = run_partitioned(events, module, event_type="T", time_column="ts", key="k", partitions=partitions)
    assert _per_key(got) == _per_key(want)


@pytest.mark.spark
def test_spark_replay_equals_local_run(spark):
    from pipeline import replay
    events = [{"k": f"k{i % 3}", "v": (i * 37) % 100, "ts": 1_000_000 + 40 * i, "n": i} for i in range(300)]
    module = ";\n".join([SCHEMA] + STATEMENTS)
    want = run_local(events, module, event_type="T", time_column="ts")
    df = spark.createDataFrame(events, "k string, v int, ts long, n long")
    got = [r.asDict(recursive=True) for r in replay(df, module, event_type="T", time_column="ts", key="k",
                                                    spark=spark, partitions=2).collect()]
    assert want and _per_key(got) == _per_key(want)
