"""`create index` used by lookups where it was only accepted before: on-actions against
tables and context-partitioned named windows and tables, and subqueries reading tables.
Results equal a scan's (hypothesis against the same statements without the index), and a
lookup through an index evaluates the rest of the where-clause only for the rows it finds
(a counting function shows no scan)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from engine import Engine


class Counter:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, value):
        self.calls += 1
        return True


def _table_engine(with_index: bool, counter: Counter):
    e = Engine(time="simulated")
    e.register_function("seen", counter)
    e.epl("create schema SB(theString string, intPrimitive int)")
    e.epl("create schema S0(id int, p00 string)")
    e.epl("create schema D(g string)")
    e.epl("create schema U(g string, v int)")
    e.epl("create table T(k string primary key, grp string, v int)")
    if with_index:
        e.epl("create index TI on T(grp)")
    e.epl("on SB merge T where T.k = SB.theString "
          "when matched then update set v = SB.intPrimitive "
          "when not matched then insert select theString as k, "
          "'g' || cast(intPrimitive % 3, string) as grp, intPrimitive as v")
    e.epl("on D delete from T where seen(T.v) and T.grp = D.g")
    e.epl("on U update T set grp = 'g' || cast(U.v, string) where seen(T.v) and T.grp = U.g")
    sel = e.epl("on S0 select T.k as k, T.v as v from T where seen(T.v) and T.grp = S0.p00")
    sub = e.epl("select (select sum(v) from T where seen(v) and grp = S0.p00) as s from S0")
    got: list = []
    sel.add_listener(lambda new, old: got.append(sorted((b["k"], b["v"]) for b in new or ())))
    sub.add_listener(lambda new, old: got.append(new[0]["s"]))
    return e, got


def _contents(e):
    return sorted((r["k"], r["grp"], r["v"]) for r in e.execute_query("select * from T"))


def test_table_index_lookups_do_not_scan():
    counter = Counter()
    e, got = _table_engine(True, counter)
    for i in range(60):
        e.send({"theString": f"E{i}", "intPrimitive": i}, "SB")
    counter.calls = 0
    e.send({"id": 1, "p00": "g1"}, "S0")
    rows = [(f"E{i}", i) for i in range(60) if i % 3 == 1]
    assert got == [sorted(rows), sum(v for _, v in rows)]
    assert counter.calls == 2 * len(rows)          # on-select and subquery: the found rows only
    counter.calls = 0
    e.send({"g": "g2"}, "D")
    assert counter.calls == 20 and len(_contents(e)) == 40


def test_without_the_index_the_same_statements_scan():
    counter = Counter()
    e, _ = _table_engine(False, counter)
    for i in range(60):
        e.send({"theString": f"E{i}", "intPrimitive": i}, "SB")
    counter.calls = 0
    e.send({"id": 1, "p00": "g1"}, "S0")
    assert counter.calls == 120


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["ins", "sel", "del", "upd"]), st.sampled_from("abcd"),
                          st.integers(0, 5)), max_size=30))
def test_table_lookups_through_an_index_match_a_scan(ops):
    engines = [_table_engine(flag, Counter()) for flag in (False, True)]
    for op, s, i in ops:
        for e, _ in engines:
            if op == "ins":
                e.send({"theString": s, "intPrimitive": i}, "SB")
            elif op == "sel":
                e.send({"id": i, "p00": f"g{i % 3}"}, "S0")
            elif op == "del":
                e.send({"g": f"g{i % 3}"}, "D")
            else:
                e.send({"g": f"g{i % 3}", "v": i}, "U")
        assert _contents(engines[0][0]) == _contents(engines[1][0])
        assert engines[0][1] == engines[1][1]


def _context_engine(with_index: bool, counter: Counter, table: bool = False):
    e = Engine(time="simulated")
    e.register_function("seen", counter)
    e.epl("create schema SB(theString string, intPrimitive int)")
    e.epl("create schema S0(id int, p00 string)")
    e.epl("create context C partition by intPrimitive from SB, id from S0")
    if table:
        e.epl("context C create table W(theString string primary key, intPrimitive int)")
    else:
        e.epl("context C create window W#keepall as SB")
    e.epl("context C insert into W select * from SB")
    if with_index:
        e.epl("context C create index WI on W(intPrimitive, theString)")
    got: list = []
    e.epl("context C on S0 delete from W where seen(W.intPrimitive) and W.theString = S0.p00 "
          "and W.intPrimitive = S0.id").add_listener(
        lambda new, old: got.append(sorted(b["theString"] for b in new or ())))
    return e, got


def test_context_partitioned_window_and_table_index_lookups():
    for table in (False, True):
        counter = Counter()
        e, got = _context_engine(True, counter, table)
        for i in range(40):
            e.send({"theString": f"E{i}", "intPrimitive": i % 2}, "SB")
        counter.calls = 0
        e.send({"id": 1, "p00": "E7"}, "S0")
        assert got == [["E7"]]
        assert counter.calls == 1
        assert len(list(e.execute_query("select * from W"))) == 39


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["ins", "del"]), st.sampled_from("abc"),
                          st.integers(0, 2)), max_size=30))
def test_context_partitioned_lookups_match_a_scan(ops):
    engines = [_context_engine(flag, Counter()) for flag in (False, True)]
    for op, s, i in ops:
        for e, _ in engines:
            if op == "ins":
                e.send({"theString": s, "intPrimitive": i}, "SB")
            else:
                e.send({"id": i, "p00": s}, "S0")
        rows = [sorted((r["theString"], r["intPrimitive"]) for r in e.execute_query("select * from W"))
                for e, _ in engines]
        assert rows[0] == rows[1]
        assert engines[0][1] == engines[1][1]


def test_index_created_after_rows_and_destroyed():
    counter = Counter()
    e = Engine(time="simulated")
    e.register_function("seen", counter)
    e.epl("create schema S0(id int, p00 string)")
    e.epl("create table T(k string primary key, grp string)")
    e.epl("insert into T select p00 as k, cast(id, string) as grp from S0")
    for i in range(10):
        e.send({"id": i % 2, "p00": f"E{i}"}, "S0")
    idx = e.epl("create index TI on T(grp)")
    q = e.epl("select (select count(*) from T where seen(grp) and grp = cast(S0.id + 10, string)) as c from S0")
    got = []
    q.add_listener(lambda new, old: got.append(new[0]["c"]))
    e.send({"id": -9, "p00": "X"}, "S0")           # grp '1': five rows
    assert got == [5] and counter.calls == 5
    idx.destroy()
    e.epl("create index TI on T(k)")               # the name is free again


def test_an_index_created_after_the_on_statement_is_used():
    for table in (False, True):
        counter = Counter()
        e = Engine(time="simulated")
        e.register_function("seen", counter)
        e.epl("create schema S0(id int, p00 string)")
        if table:
            e.epl("create table W(k string primary key, g string)")
        else:
            e.epl("create window W#keepall as (k string, g string)")
        e.epl("insert into W select p00 as k, cast(id, string) as g from S0(id >= 0)")
        got = []
        e.epl("on S0(id < 0) select W.k as k from W where seen(W.g) and W.g = cast(-S0.id, string)"
              ).add_listener(lambda new, old: got.append(sorted(b["k"] for b in new or ())))
        for i in range(30):
            e.send({"id": i % 3, "p00": f"E{i}"}, "S0")
        e.epl("create index I on W(g)")
        counter.calls = 0
        e.send({"id": -1, "p00": "x"}, "S0")
        assert got == [sorted(f"E{i}" for i in range(30) if i % 3 == 1)]
        assert counter.calls == 10
