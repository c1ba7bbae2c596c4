"""The time protocol and partitionability against the model: for partitionable statements,
engines that each see some keys' events output what one engine over all events outputs."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pipeline import DEFAULT_FLUSH_MS, run_local, run_partitioned

from _pipeline_helpers import GROUPWIN, PATTERN, SCHEMA, TIME_BATCH, assert_same_output, keyed_events

STATEMENTS = [
    GROUPWIN,
    TIME_BATCH,
    PATTERN,
    "select irstream k, avg(v) as a from T#time(700 msec) group by k",
    "select irstream * from T#time(700 msec)",
    "select irstream k, v from T#groupwin(k)#length_batch(2)",
    "select irstream k, count(*) as c from T#unique(k) group by k",
    "select irstream k, sum(v) as total from T#time_batch(1 sec, 'FORCE_UPDATE') group by k",
    "select irstream k, sum(v) as total from T#firsttime(3 sec) group by k",
    "select irstream k, sum(v) as total from T#time(1 sec) group by k output after 2 sec",
    "select k, count(*) as c from T(k = 'k1')#length(4)",
    "select a.k as k, b.v as bv from pattern [every a=T(v > 50) -> b=T(k = a.k and v < a.v)"
    " -> c=T(k = a.k)]",
    "create context ByK partition by k from T;\n"
    "context ByK select irstream k, count(*) as c, sum(v) as total from T#length(3)",
    "create context ByK partition by k from T;\n"
    "context ByK select k, count(*) as c from T#time_batch(1 sec)",
    "create context ByK partition by k from T;\n"
    "context ByK select irstream k, sum(v) as total from T#length(2) output last every 700 msec",
]


@pytest.mark.parametrize("text", STATEMENTS)
@settings(max_examples=40, deadline=None)
@given(events=keyed_events(), partitions=st.integers(1, 4))
def test_partitioned_equals_one_engine(text, events, partitions):
    module = f"{SCHEMA};\n{text}"
    want = run_local(events, module, event_type="T", time_column="ts")
    got = run_partitioned(events, module, event_type="T", time_column="ts", key="k",
                          partitions=partitions)
    assert_same_output(got, want)


def test_time_protocol_fires_schedules_at_their_own_time():
    # a time batch posts at each interval end, not at the next event's time
    events = [{"k": "a", "v": 1, "ts": 1000, "n": 0}, {"k": "a", "v": 2, "ts": 5500, "n": 1}]
    rows = run_local(events, f"{SCHEMA};\n{TIME_BATCH}", event_type="T", time_column="ts")
    assert [(r["time"], r["stream"], r["total"]) for r in rows] == [
        (2000, "insert", 1), (2000, "remove", None),   # row per group: the group's old row
        (3000, "insert", None), (3000, "remove", 1),
        (6000, "insert", 2), (6000, "remove", None),
        (7000, "insert", None), (7000, "remove", 2),
    ]


def test_end_time_defaults_to_last_event_plus_flush():
    events = [{"k": "a", "v": 1, "ts": 10, "n": 0}]
    rows = run_local(events, f"{SCHEMA};\nselect irstream k from T#time({DEFAULT_FLUSH_MS + 1} msec)",
                     event_type="T", time_column="ts")
    assert [r["stream"] for r in rows] == ["insert"]          # still in the window at the end
    rows = run_local(events, f"{SCHEMA};\nselect irstream k from T#time({DEFAULT_FLUSH_MS} msec)",
                     event_type="T", time_column="ts")
    assert [(r["stream"], r["time"]) for r in rows] == [("insert", 10), ("remove", 10 + DEFAULT_FLUSH_MS)]


def test_equal_times_go_in_sequence_order():
    events = [{"k": "a", "v": i, "ts": 5, "n": 10 - i} for i in range(3)]
    rows = run_local(events, f"{SCHEMA};\nselect v from T", event_type="T", time_column="ts",
                     sequence_column="n")
    assert [r["v"] for r in rows] == [2, 1, 0]
    rows = run_local(events, f"{SCHEMA};\nselect v from T", event_type="T", time_column="ts")
    assert [r["v"] for r in rows] == [0, 1, 2]


def test_refuses_statements_that_are_not_partitionable():
    with pytest.raises(ValueError, match="#length counts events of every key"):
        run_partitioned([], f"{SCHEMA};\nselect count(*) from T#length(3)", event_type="T",
                        time_column="ts", key="k")


def test_declares_the_event_type_when_the_statements_do_not():
    rows = run_local([{"k": "a", "v": 1, "ts": 3}], "select k, v * 2 as w from T",
                     event_type="T", time_column="ts")
    assert rows == [{"statement": "stmt-0", "stream": "insert", "time": 3, "seq": 0, "k": "a", "w": 2}]
