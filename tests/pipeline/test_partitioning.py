"""check_partitionable: which statements run per key, and the reasons given."""
from __future__ import annotations

import doctest

import pytest

import pipeline.partitioning
from pipeline import check_partitionable
from pipeline.partitioning import analyse

S = "create schema T(k string, v int, ts long);\n"

PARTITIONABLE = [
    "select k, sum(v) from T#groupwin(k)#length(100) group by k",
    "select irstream k, v from T#groupwin(k)#length(3)",
    "select irstream k, v from T#groupwin(k, v)#length(3)",
    "select k, sum(v) from T#time(10 sec) group by k",
    "select k, sum(v) from T#time_batch(1 sec) group by k",
    "select k, sum(v) from T(v > 1)#time_batch(1 sec, 0L) group by k",
    "select k, sum(v) from T(v > 1)#time_batch(1 sec, 'START_EAGER') group by k",
    "select * from T#time(10 sec)",
    "select * from T",
    "select k, count(*) from T#unique(k) group by k",
    "select k, count(*) from T#keepall group by k",
    "select k, count(*) from T#firsttime(5 sec) group by k",
    "select k, v, count(*) from T#time(1 sec) group by k, v",
    "select t.k, sum(t.v) from T#time(1 sec) as t group by t.k",
    "select count(*) from T(k = 'x')#length(5)",
    "select k, sum(v) from T#time(1 sec) group by k output after 10 sec",
    "select a.k, b.v from pattern [every a=T -> b=T(k = a.k)]",
    "select a.k, b.v from pattern [every a=T(v > 5) -> b=T(a.k = k and v < 3) where timer:within(1 sec)]",
    "select a.k, count(*) from pattern [every a=T -> b=T(k = a.k) -> c=T(k = b.k)] group by a.k",
    "select a.k from pattern [every a=T -> (b=T(k = a.k) and not c=T(k = a.k and v > 5))]",
    "select a.k from pattern [every a=T -> timer:interval(1 sec) -> b=T(k = a.k)]",
    "create context ByK partition by k from T;\ncontext ByK select count(*) from T#length(10)",
    "create context ByK partition by k from T;\n"
    "context ByK select count(*) from T#length(10) output every 1 sec",
    "insert into U select k, v from T;\nselect k, sum(v) from U#time(1 sec) group by k",
    "create context ByK partition by k from T;\n"
    "context ByK select a.v from pattern [every a=T -> b=T(k = a.k and v > a.v)]",
]

REFUSED = [
    ("select count(*) from T#length(100)", "#length counts events of every key"),
    ("select k, sum(v) from T#length(100) group by k", "#length counts events of every key"),
    ("select k, sum(v) from T#length_batch(5) group by k", "#length_batch"),
    ("select avg(v) from T#time(10 sec)", "group by k"),
    ("select v, count(*) from T#time(10 sec) group by v", "group by k"),
    ("select k, count(*) from T#time(1 sec) group by rollup(k)", "rollup"),
    ("select k, sum(v) from T(v > 1)#time_batch(1 sec) group by k", "reference point"),
    ("select k, sum(v) from T#groupwin(v)#time_batch(1 sec) group by k", "reference point"),
    ("select k, count(*) from T#unique(v) group by k", "#unique without k"),
    ("select k, sum(v) from T#ext_timed(ts, 1 sec) group by k", "newest timestamp"),
    ("select distinct k from T#time(1 sec)", "distinct"),
    ("select k from T#time(1 sec) limit 3", "limit"),
    ("select k, sum(v) from T#time(1 sec) group by k output every 5 events", "event count"),
    ("select k, sum(v) from T#time(1 sec) group by k output last every 1 sec", "first result of any key"),
    ("select k from T#time(1 sec) output first every 1 sec", "first result of any key"),
    ("select * from T#time(1 sec) as a, T#time(1 sec) as b where a.k = b.k", "joins"),
    ("select k, (select count(*) from T#length(5)) from T", "subqueries"),
    ("select a.k from pattern [a=T -> b=T(k = a.k)]", "matches once"),
    ("select a.k from pattern [every (a=T -> b=T(k = a.k))]", "compound pattern"),
    ("select a.k from pattern [every a=T -> b=T(v = a.v)]", "not bound to the key"),
    ("select a.k from pattern [every a=T -[10]> b=T(k = a.k)]", "-[N]>"),
    ("select a.k from pattern [every timer:interval(1 sec) -> a=T]", "every"),
    ("select a.k from pattern [every a=T -> timer:interval(1 sec) -> b=T]", "not bound"),
    ("create context ByK partition by k from T;\n"
     "context ByK select a.v from pattern [every a=T -> b=T(v > a.v)]", "not bound to the key"),
    ("create context ByV partition by v from T;\ncontext ByV select count(*) from T", "does not partition by k"),
    ("create window W#keepall as T;\nselect * from W", "named window"),
    ("create variable int x = 1;\nselect k from T(v > x)", "variable"),
    ("insert into U select v as k, v from T;\nselect k, sum(v) from U#time(1 sec) group by k",
     "does not carry k"),
]


@pytest.mark.parametrize("text", PARTITIONABLE)
def test_partitionable(text):
    verdicts = check_partitionable(S + text, "k")
    assert all(v.ok for v in verdicts), verdicts


@pytest.mark.parametrize("text, reason", REFUSED)
def test_refused_with_reason(text, reason):
    verdicts = check_partitionable(S + text, "k")
    bad = [v for v in verdicts if not v.ok]
    assert bad[-1].statement == verdicts[-1].statement, verdicts   # the consumer is refused
    assert reason in bad[-1].reason


def test_verdicts_name_statements_as_the_engine_does():
    verdicts = check_partitionable(S + "@name('x') select * from T; select * from T", "k")
    assert [v.statement for v in verdicts] == ["stmt-0", "x", "stmt-2"]
    name, ok, reason = verdicts[1]
    assert (name, ok) == ("x", True) and reason


def test_accepts_a_list_of_statement_texts():
    verdicts = check_partitionable([S.strip().rstrip(";"), "select * from T#length(2)"], "k")
    assert [v.ok for v in verdicts] == [True, False]


def test_plain_time_batch_is_pinned_to_the_start_time():
    a = analyse(S + "@name('tb') select k, sum(v) from T#time_batch(1 sec, 'FORCE_UPDATE') group by k",
                "k", start_time=1234)
    assert a.ok and a.pinned == ("tb",)
    assert "#time_batch(1 sec, 1234L, 'FORCE_UPDATE')" in a.texts[1]


def test_refusal_message_lists_every_refused_statement():
    a = analyse(S + "@name('a') select count(*) from T#length(3); @name('b') select avg(v) from T", "k")
    msg = a.refusal("k")
    assert "a: #length" in msg and "b: aggregates over all keys" in msg
    assert "allow_single_partition" in msg


def test_doctests():
    assert doctest.testmod(pipeline.partitioning).failed == 0
