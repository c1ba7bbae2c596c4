"""Subqueries: scalar, exists, in, any/some/all; correlated and not; with their own windows
and aggregations; in the select clause, the where clause and stream filters."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine
from epl import EPLValidationError


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.epl("create schema A(id int, x int)")
    e.epl("create schema B(id int, y int, k string)")
    return e


def rows(engine, text):
    stmt = engine.epl(text)
    out = []
    stmt.add_listener(lambda new, old: out.extend(r.to_dict() for r in new or ()))
    return out


def a(engine, id, x):
    engine.send({"id": id, "x": x}, "A")


def b(engine, id, y, k="k"):
    engine.send({"id": id, "y": y, "k": k}, "B")


def test_scalar_lastevent(engine):
    out = rows(engine, "select id, (select y from B#lastevent) as ly from A")
    a(engine, 1, 0)
    b(engine, 1, 5)
    b(engine, 1, 6)
    a(engine, 2, 0)
    assert out == [{"id": 1, "ly": None}, {"id": 2, "ly": 6}]


def test_scalar_with_several_rows_is_null(engine):
    out = rows(engine, "select (select y from B#keepall) as v from A")
    b(engine, 1, 5)
    a(engine, 1, 0)
    b(engine, 1, 6)
    a(engine, 1, 0)
    assert out == [{"v": 5}, {"v": None}]


def test_scalar_star_is_the_event(engine):
    out = rows(engine, "select (select * from B#lastevent) as ev from A")
    b(engine, 3, 4, "q")
    a(engine, 1, 0)
    assert out[0]["ev"].to_dict() == {"id": 3, "y": 4, "k": "q"}


def test_several_columns_give_a_map(engine):
    out = rows(engine, "select (select y, k from B#lastevent) as m from A")
    b(engine, 3, 4, "q")
    a(engine, 1, 0)
    assert out == [{"m": {"y": 4, "k": "q"}}]


def test_uncorrelated_aggregation_follows_its_window(engine):
    out = rows(engine, "select (select sum(y) as s from B#length(2)) as s, "
                       "(select count(*) from B#length(2)) as n from A")
    a(engine, 0, 0)
    for y in (1, 2, 4):
        b(engine, 0, y)
        a(engine, 0, 0)
    assert out == [{"s": None, "n": 0}, {"s": 1, "n": 1}, {"s": 3, "n": 2}, {"s": 6, "n": 2}]


def test_aggregation_without_window_keeps_no_events(engine):
    stmt = engine.epl("select (select sum(y) from B) as s from A")
    out = []
    stmt.add_listener(lambda new, old: out.extend(r["s"] for r in new))
    for y in range(1, 5):
        b(engine, 0, y)
    a(engine, 0, 0)
    assert out == [10]
    runtime = stmt._instances[0].subqueries.runtimes[0]
    assert len(runtime.store) == 0


def test_correlated_aggregation(engine):
    out = rows(engine, "select id, (select sum(y) from B#keepall as b where b.id = a.id) as s, "
                       "(select count(*) from B#keepall as b where b.id = a.id) as n from A as a")
    b(engine, 1, 5)
    b(engine, 2, 7)
    b(engine, 1, 6)
    a(engine, 1, 0)
    a(engine, 3, 0)
    assert out == [{"id": 1, "s": 11, "n": 2}, {"id": 3, "s": None, "n": 0}]


def test_correlated_equality_uses_the_index(engine):
    stmt = engine.epl("select id from A as a where exists "
                      "(select * from B#keepall as b where b.id = a.id and b.y > 2)")
    out = []
    stmt.add_listener(lambda new, old: out.extend(r["id"] for r in new))
    for i in range(100):
        b(engine, i, i % 5)
    for i in (3, 4, 7, 8):
        a(engine, i, 0)
    assert out == [3, 4, 8]
    runtime = stmt._instances[0].subqueries.runtimes[0]
    assert runtime.store.scans == 0
    assert runtime.indexes[0].probes == 4
    # b.y > 2 only gates what enters the store
    assert len(runtime.store) == 40


def test_correlated_range_uses_sorted_index(engine):
    stmt = engine.epl("select id, (select count(*) from B#keepall as b where b.y < a.x) as n "
                      "from A as a")
    out = []
    stmt.add_listener(lambda new, old: out.extend(r["n"] for r in new))
    for y in range(50):
        b(engine, 0, y)
    a(engine, 0, 10)
    a(engine, 0, 0)
    assert out == [10, 0]
    runtime = stmt._instances[0].subqueries.runtimes[0]
    assert runtime.store.scans == 0 and runtime.indexes[0].probes == 2


def test_exists_and_not_exists(engine):
    out = rows(engine, "select id, exists (select * from B#keepall as b where b.id = a.id) as e, "
                       "not exists (select * from B#keepall as b where b.id = a.id) as ne from A as a")
    b(engine, 1, 0)
    a(engine, 1, 0)
    a(engine, 2, 0)
    assert out == [{"id": 1, "e": True, "ne": False}, {"id": 2, "e": False, "ne": True}]


def test_in_and_not_in_with_nulls(engine):
    out = rows(engine, "select x in (select y from B#keepall) as i, "
                       "x not in (select y from B#keepall) as ni from A")
    a(engine, 1, 5)                     # empty subquery: in is false, not in is true
    b(engine, 1, 5)
    engine.send({"id": 2, "y": None, "k": "n"}, "B")
    a(engine, 1, 5)
    a(engine, 1, 6)                     # not found, a null among the values: unknown
    assert out == [{"i": False, "ni": True}, {"i": True, "ni": False}, {"i": None, "ni": None}]


def test_any_some_all(engine):
    out = rows(engine, "select x > any (select y from B#keepall) as gany, "
                       "x = some (select y from B#keepall) as esome, "
                       "x > all (select y from B#keepall) as gall, "
                       "x != all (select y from B#keepall) as neall from A")
    a(engine, 1, 5)
    b(engine, 1, 3)
    b(engine, 1, 7)
    a(engine, 1, 5)
    a(engine, 1, 9)
    a(engine, 1, 7)
    assert out == [
        {"gany": False, "esome": False, "gall": True, "neall": True},
        {"gany": True, "esome": False, "gall": False, "neall": True},
        {"gany": True, "esome": False, "gall": True, "neall": True},
        {"gany": True, "esome": True, "gall": False, "neall": False},
    ]


def test_quantified_over_a_list(engine):
    out = rows(engine, "select x = any (1, 2) as a1, x < all (id, 10) as a2 from A")
    a(engine, 3, 2)
    a(engine, 1, 5)
    assert out == [{"a1": True, "a2": True}, {"a1": False, "a2": False}]


def test_subquery_in_a_stream_filter(engine):
    out = rows(engine, "select id from A(x > (select max(y) from B#length(2)))")
    a(engine, 1, 5)
    b(engine, 0, 3)
    a(engine, 2, 5)
    b(engine, 0, 9)
    a(engine, 3, 5)
    assert out == [{"id": 2}]


def test_subquery_sees_the_current_event_first(engine):
    """Esper: the subquery's stream processes an event before the outer stream does."""
    out = rows(engine, "select id, (select avg(x) from A#length(2)) as avgx, "
                       "(select count(*) from A#keepall as o where o.id = a.id) as same from A as a")
    a(engine, 1, 4)
    a(engine, 1, 6)
    a(engine, 2, 20)
    assert out == [{"id": 1, "avgx": 4.0, "same": 1}, {"id": 1, "avgx": 5.0, "same": 2},
                   {"id": 2, "avgx": 13.0, "same": 1}]


def test_unqualified_names_read_the_subquery_stream_first(engine):
    out = rows(engine, "select id, (select max(id) from B#keepall) as m from A")
    b(engine, 7, 0)
    a(engine, 1, 0)
    assert out == [{"id": 1, "m": 7}]


def test_group_by_and_having(engine):
    out = rows(engine, "select id, exists (select k from B#keepall group by k "
                       "having sum(y) > 10) as big, "
                       "(select sum(y) from B#keepall as b where b.id = a.id group by k) as s "
                       "from A as a")
    b(engine, 1, 6, "p")
    b(engine, 1, 6, "q")
    a(engine, 1, 0)                      # two groups: scalar null
    b(engine, 2, 6, "p")
    a(engine, 2, 0)
    assert out == [{"id": 1, "big": False, "s": None}, {"id": 2, "big": True, "s": 6}]


def test_nested_subquery(engine):
    out = rows(engine, "select id from A as a where exists (select * from B#keepall as b "
                       "where b.id = a.id and b.y = (select max(y) from B#keepall))")
    b(engine, 1, 5)
    b(engine, 2, 8)
    a(engine, 1, 0)
    a(engine, 2, 0)
    assert out == [{"id": 2}]


def test_subquery_in_a_join(engine):
    engine.epl("create schema C(id int, z int)")
    out = rows(engine, "select a.id as id, c.z as z from A#keepall as a, C#keepall as c "
                       "where a.id = c.id and c.z > (select max(y) from B#keepall)")
    b(engine, 0, 3)
    engine.send({"id": 1, "z": 5}, "C")
    engine.send({"id": 1, "z": 2}, "C")
    a(engine, 1, 0)
    assert out == [{"id": 1, "z": 5}]


def test_stop_and_destroy_release_subquery_filters(engine):
    before = engine.filter_count()
    stmt = engine.epl("select (select y from B#lastevent) as v from A")
    assert engine.filter_count() == before + 2
    b(engine, 0, 4)
    stmt.stop()
    assert engine.filter_count() == before
    stmt.start()
    out = []
    stmt.add_listener(lambda new, old: out.extend(r["v"] for r in new))
    a(engine, 0, 0)
    assert out == [None]          # a fresh window after restart
    stmt.destroy()
    assert engine.filter_count() == before


def test_subquery_time_window_expires(engine):
    out = rows(engine, "select (select count(*) from B#time(10 sec)) as n from A")
    b(engine, 0, 1)
    engine.advance_time(5_000)
    b(engine, 0, 2)
    engine.advance_time(10_000)
    a(engine, 0, 0)
    engine.advance_time(15_000)
    a(engine, 0, 0)
    assert out == [{"n": 1}, {"n": 0}]


def test_errors(engine):
    with pytest.raises(EPLValidationError, match="exactly one column"):
        engine.epl("select * from A where x in (select y, k from B#keepall)")
    with pytest.raises(EPLValidationError, match="exactly one stream"):
        engine.epl("select (select y from B#keepall, A#keepall) from A")
    with pytest.raises(EPLValidationError, match="must select aggregation"):
        engine.epl("select (select y from B#keepall group by k) from A")
    with pytest.raises(EPLValidationError, match="Failed to resolve event type"):
        engine.epl("select (select y from Nope#keepall) from A")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3), st.integers(0, 4)), max_size=30))
def test_correlated_subqueries_match_brute_force(events):
    engine = Engine(time="simulated")
    engine.epl("create schema A(id int, x int)")
    engine.epl("create schema B(id int, y int, k string)")
    stmt = engine.epl(
        "select exists (select * from B#length(3) as b where b.id = a.id and b.y >= a.x) as e, "
        "(select sum(y) from B#length(3) as b where b.id = a.id) as s, "
        "a.x in (select y from B#length(3) as b where b.id != a.id) as i from A as a")
    got = []
    stmt.add_listener(lambda new, old: got.extend(r.to_dict() for r in new))
    window: list[dict] = []
    expected = []
    for is_a, ident, v in events:
        if is_a:
            engine.send({"id": ident, "x": v}, "A")
            same = [e for e in window if e["id"] == ident]
            others = [e["y"] for e in window if e["id"] != ident]
            expected.append({"e": any(e["y"] >= v for e in same),
                             "s": sum(e["y"] for e in same) if same else None,
                             "i": v in others})
        else:
            engine.send({"id": ident, "y": v, "k": "k"}, "B")
            window = (window + [{"id": ident, "y": v}])[-3:]
    assert got == expected


def test_identical_filters_with_subqueries_keep_their_own_windows(engine):
    first = engine.epl("select id from A(x > (select max(y) from B#length(2)))")
    second = engine.epl("select id from A(x > (select max(y) from B#length(2)))")
    out = []
    second.add_listener(lambda new, old: out.extend(r["id"] for r in new))
    b(engine, 0, 3)
    first.destroy()
    a(engine, 1, 5)
    assert out == [1]


# -- in / not in over an aggregated subquery, subqueries in on-statements ---------------------------

def test_in_over_aggregated_subquery_whose_having_removes_the_row_is_null():
    from engine import Engine
    e = Engine(time="simulated")
    e.epl("create schema SB(s string, v int)")
    e.epl("create schema S0(id int)")
    st = e.epl("select id in (select sum(v) from SB#keepall having sum(v) > 5) as isin, "
               "id not in (select sum(v) from SB#keepall having sum(v) > 5) as notin from S0")
    rows = []
    st.add_listener(lambda new, old: rows.extend(b.to_dict() for b in new))
    e.send({"s": "x", "v": 3}, "SB")
    e.send({"id": 3}, "S0")
    e.send({"s": "x", "v": 4}, "SB")
    e.send({"id": 7}, "S0")
    e.send({"id": 8}, "S0")
    assert rows == [{"isin": None, "notin": None}, {"isin": True, "notin": False},
                    {"isin": False, "notin": True}]


def test_on_set_and_on_delete_with_subqueries():
    from engine import Engine
    e = Engine(time="simulated")
    e.epl("create schema SB(s string, v int)")
    e.epl("create schema S0(id int)")
    e.epl("create variable int vv = 0")
    e.epl("create window W#keepall as SB")
    e.epl("insert into W select * from SB")
    e.epl("on S0 set vv = (select sum(v) from SB#keepall)")
    e.epl("on S0 delete from W where v = (select max(v) from SB#keepall)")
    e.send({"s": "x", "v": 3}, "SB")
    e.send({"s": "y", "v": 4}, "SB")
    e.send({"id": 1}, "S0")
    assert e.get_variable("vv") == 7
    assert [r["v"] for r in e.execute_query("select * from W")] == [3]
