"""Fire-and-forget queries against named windows: select, insert, update, delete."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError


def rows(beans):
    return [b.to_dict() for b in beans or ()]


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.epl("create schema T(k string, v int)")
    e.epl("create window W#keepall as T")
    e.epl("insert into W select * from T")
    for k, v in (("a", 1), ("b", 2), ("a", 3)):
        e.send({"k": k, "v": v}, "T")
    yield e
    e.close()


def test_select_where_order_limit(engine):
    assert rows(engine.execute_query("select * from W where v > 1 order by v desc")) == \
        [{"k": "a", "v": 3}, {"k": "b", "v": 2}]
    assert rows(engine.execute_query("select k from W(k = 'a') order by v limit 1")) == [{"k": "a"}]


def test_select_aggregates_and_groups(engine):
    assert rows(engine.execute_query("select count(*) as n, sum(v) as s from W")) == [{"n": 3, "s": 6}]
    assert rows(engine.execute_query("select k, sum(v) as s from W group by k order by k")) == \
        [{"k": "a", "s": 4}, {"k": "b", "s": 2}]
    assert rows(engine.execute_query("select count(*) as n from W where v > 100")) == [{"n": 0}]


def test_insert_values_and_select_form(engine):
    assert rows(engine.execute_query("insert into W values ('z', 26)")) == [{"k": "z", "v": 26}]
    assert rows(engine.execute_query("insert into W(v, k) values (7, 'y')")) == [{"k": "y", "v": 7}]
    assert rows(engine.execute_query("insert into W select 'x' as k, 1 + 1 as v")) == [{"k": "x", "v": 2}]
    assert rows(engine.execute_query("select count(*) as n from W")) == [{"n": 6}]


def test_update_and_delete_reach_consumers(engine):
    seen = []
    engine.epl("select irstream k, v from W").add_listener(
        lambda new, old: seen.append((rows(new), rows(old))))
    assert rows(engine.execute_query("update W as w set v = w.v * 10 where w.k = 'a'")) == \
        [{"k": "a", "v": 10}, {"k": "a", "v": 30}]
    assert seen == [([{"k": "a", "v": 10}, {"k": "a", "v": 30}], [{"k": "a", "v": 1}, {"k": "a", "v": 3}])]
    assert rows(engine.execute_query("delete from W where v > 20")) == [{"k": "a", "v": 30}]
    assert sorted(r["v"] for r in rows(engine.execute_query("select v from W"))) == [2, 10]


def test_errors(engine):
    with pytest.raises(EPLValidationError, match="named window or table"):
        engine.execute_query("select * from T")
    with pytest.raises(EPLValidationError, match="not available for write"):
        engine.execute_query("insert into W(nope) values (1)")
    with pytest.raises(EPLValidationError, match="does not match"):
        engine.execute_query("insert into W values (1)")
