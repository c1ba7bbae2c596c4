"""Named windows: creation from a type, a column list or a select clause; insert into;
consumers' insert and remove streams; iteration; on-select, on-delete, on-update, on-merge."""
from __future__ import annotations

import pytest

from engine import Engine
from epl.errors import EPLValidationError


def rows(beans):
    return [b.to_dict() for b in beans or ()]


class Rec:
    def __init__(self, stmt):
        self.calls = []
        stmt.add_listener(lambda new, old: self.calls.append((rows(new), rows(old))))

    def pop(self):
        out, self.calls = self.calls, []
        return out


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema T(k string, v int)")
    e.epl("create schema Q(k string, v int)")
    yield e
    e.close()


def test_window_as_type_consumer_sees_insert_and_remove_streams(engine):
    engine.epl("create window W#length(2) as T")
    engine.epl("insert into W select * from T")
    c = Rec(engine.epl("select irstream k, v from W"))
    for i, k in enumerate("abc"):
        engine.send({"k": k, "v": i}, "T")
    assert c.pop() == [([{"k": "a", "v": 0}], []), ([{"k": "b", "v": 1}], []),
                       ([{"k": "c", "v": 2}], [{"k": "a", "v": 0}])]


def test_window_from_columns_and_from_select(engine):
    engine.epl("create window Cols#keepall as (name string, n int)")
    engine.epl("insert into Cols select k as name, v as n from T")
    engine.epl("create window Sel#keepall as select k, v * 2 as dbl from T")
    engine.epl("insert into Sel select k, v * 2 as dbl from T")
    engine.send({"k": "a", "v": 2}, "T")
    assert rows(engine.execute_query("select * from Cols")) == [{"name": "a", "n": 2}]
    assert rows(engine.execute_query("select * from Sel")) == [{"k": "a", "dbl": 4}]


def test_create_window_statement_listener_and_iterator(engine):
    w = engine.epl("create window W#length(1) as T")
    rec = Rec(w)
    engine.epl("insert into W select * from T")
    engine.send({"k": "a", "v": 1}, "T")
    engine.send({"k": "b", "v": 2}, "T")
    assert rec.pop() == [([{"k": "a", "v": 1}], []), ([{"k": "b", "v": 2}], [{"k": "a", "v": 1}])]
    assert w.rows() == [{"k": "b", "v": 2}]


def test_late_consumer_sees_only_new_changes_but_iterates_contents(engine):
    engine.epl("create window W#keepall as T")
    engine.epl("insert into W select * from T")
    engine.send({"k": "a", "v": 1}, "T")
    late = engine.epl("select * from W")
    rec = Rec(late)
    assert rec.pop() == []
    assert late.rows() == [{"k": "a", "v": 1}]
    engine.send({"k": "b", "v": 2}, "T")
    assert rec.pop() == [([{"k": "b", "v": 2}], [])]


def test_consumer_filter_and_own_window(engine):
    engine.epl("create window W#keepall as T")
    engine.epl("insert into W select * from T")
    rec = Rec(engine.epl("select irstream k from W(v > 1)#length(1)"))
    engine.send({"k": "a", "v": 1}, "T")
    engine.send({"k": "b", "v": 2}, "T")
    engine.send({"k": "c", "v": 3}, "T")
    assert rec.pop() == [([{"k": "b"}], []), ([{"k": "c"}], [{"k": "b"}])]


def test_on_delete_removes_from_window_and_consumers(engine):
    engine.epl("create window W#keepall as T")
    engine.epl("insert into W select * from T")
    agg = Rec(engine.epl("select count(*) as n from W"))
    deleted = Rec(engine.epl("on Q as q delete from W as w where w.k = q.k"))
    for k in "aab":
        engine.send({"k": k, "v": 0}, "T")
    agg.pop()
    engine.send({"k": "a", "v": 0}, "Q")
    assert deleted.pop() == [([{"k": "a", "v": 0}, {"k": "a", "v": 0}], [])]
    assert agg.pop() == [([{"n": 1}], [])]
    assert rows(engine.execute_query("select k from W")) == [{"k": "b"}]


def test_on_select_with_aggregation_and_and_delete(engine):
    engine.epl("create window W#keepall as T")
    engine.epl("insert into W select * from T")
    sel = Rec(engine.epl("on Q as q select count(*) as n, sum(w.v) as total from W as w "
                         "where w.k = q.k"))
    for k, v in (("a", 1), ("a", 2), ("b", 5)):
        engine.send({"k": k, "v": v}, "T")
    engine.send({"k": "a", "v": 0}, "Q")
    assert sel.pop() == [([{"n": 2, "total": 3}], [])]
    engine.send({"k": "zz", "v": 0}, "Q")
    # Esper runs the select for every trigger: an aggregate over no rows still gives its row
    assert sel.pop() == [([{"n": 0, "total": None}], [])]
    taker = Rec(engine.epl("on Q(k = 'b') select and delete * from W"))
    engine.send({"k": "b", "v": 0}, "Q")
    assert taker.pop() == [([{"k": "a", "v": 1}, {"k": "a", "v": 2}, {"k": "b", "v": 5}], [])]
    assert engine.execute_query("select * from W") == []


def test_on_select_insert_into_another_stream(engine):
    engine.epl("create window W#keepall as T")
    engine.epl("insert into W select * from T")
    engine.epl("on Q as q insert into Found select w.k as k, w.v as v from W as w where w.v >= q.v")
    found = Rec(engine.epl("select * from Found"))
    engine.send({"k": "a", "v": 1}, "T")
    engine.send({"k": "b", "v": 5}, "T")
    engine.send({"k": "x", "v": 3}, "Q")
    assert found.pop() == [([{"k": "b", "v": 5}], [])]


def test_on_update_replaces_rows(engine):
    engine.epl("create window W#keepall as T")
    engine.epl("insert into W select * from T")
    cons = Rec(engine.epl("select irstream * from W"))
    upd = Rec(engine.epl("on Q as q update W as w set v = w.v + q.v, k = 'x' || w.k where w.k = q.k"))
    engine.send({"k": "a", "v": 1}, "T")
    cons.pop()
    engine.send({"k": "a", "v": 10}, "Q")
    assert upd.pop() == [([{"k": "xa", "v": 11}], [])]
    assert cons.pop() == [([{"k": "xa", "v": 11}], [{"k": "a", "v": 1}])]


def test_on_merge_matched_and_not_matched(engine):
    engine.epl("create window Kv#keepall as (k string, v int)")
    cons = Rec(engine.epl("select irstream k, v from Kv"))
    engine.epl("on Q as q merge Kv as kv where kv.k = q.k "
               "when matched and q.v < 0 then delete "
               "when matched then update set v = q.v "
               "when not matched and q.v >= 0 then insert select q.k as k, q.v as v")
    engine.send({"k": "a", "v": 1}, "Q")
    engine.send({"k": "a", "v": 2}, "Q")
    engine.send({"k": "b", "v": -1}, "Q")     # not matched, condition false: nothing
    engine.send({"k": "a", "v": -5}, "Q")
    assert cons.pop() == [([{"k": "a", "v": 1}], []), ([{"k": "a", "v": 2}], [{"k": "a", "v": 1}]),
                          ([], [{"k": "a", "v": 2}])]


def test_on_merge_insert_into_other_stream(engine):
    engine.epl("create window Kv#keepall as (k string, v int)")
    engine.epl("on Q as q merge Kv as kv where kv.k = q.k "
               "when not matched then insert into Missing select q.k as k")
    missing = Rec(engine.epl("select k from Missing"))
    engine.send({"k": "a", "v": 1}, "Q")
    assert missing.pop() == [([{"k": "a"}], [])]
    assert engine.execute_query("select * from Kv") == []


def test_time_window_expiry_reaches_consumers(engine):
    engine.epl("create window W#time(10 sec) as T")
    engine.epl("insert into W select * from T")
    cons = Rec(engine.epl("select rstream k from W"))
    engine.send({"k": "a", "v": 1}, "T")
    engine.advance_time(10_000)
    assert cons.pop() == [([{"k": "a"}], [])]


def test_destroy_releases_name_and_filters(engine):
    base = engine.filter_count()
    w = engine.epl("create window W#keepall as T")
    ins = engine.epl("insert into W select * from T")
    ins.destroy()
    w.destroy()
    assert engine.filter_count() == base
    engine.epl("create window W#keepall as (x int)")


def test_errors(engine):
    engine.epl("create window W#keepall as T")
    with pytest.raises(EPLValidationError, match="already exists"):
        engine.epl("create window W#keepall as T")
    with pytest.raises(EPLValidationError, match="has not been declared"):
        engine.epl("on Q delete from Nope")
    with pytest.raises(EPLValidationError, match="not available for write"):
        engine.epl("on Q update W set nope = 1")
    with pytest.raises(EPLValidationError, match="fire-and-forget"):
        engine.epl("delete from W")
