"""Result sets beyond the conformance cases: grouping levels, per-aggregation grouping,
insert/remove stream selection, ordering, limits, distinct and iteration."""
from __future__ import annotations


def send_all(engine, type_name, rows):
    for r in rows:
        engine.send(dict(r), type_name)


def test_cube_and_grouping_id(engine, recorder):
    engine.epl("create schema O(a string, b string, v int)")
    engine.epl("select a, b, sum(v) as s, grouping_id(a, b) as g from O#length_batch(2) "
               "group by cube(a, b)").add_listener(recorder)
    send_all(engine, "O", [{"a": "x", "b": "1", "v": 1}, {"a": "y", "b": "1", "v": 2}])
    rows = recorder.new
    assert {(r["a"], r["b"], r["s"], r["g"]) for r in rows} == {
        ("x", "1", 1, 0), ("y", "1", 2, 0),          # (a, b)
        ("x", None, 1, 1), ("y", None, 2, 1),        # (a)
        (None, "1", 3, 2),                           # (b)
        (None, None, 3, 3),                          # ()
    }
    # levels come out in order: (a, b) first, () last
    assert rows[-1] == {"a": None, "b": None, "s": 3, "g": 3}


def test_rollup_two_columns(engine, recorder):
    engine.epl("create schema O(a string, b string, v int)")
    engine.epl("select a, b, count(*) as c from O#keepall group by rollup(a, b)").add_listener(recorder)
    engine.send({"a": "x", "b": "1", "v": 1}, "O")
    assert recorder.new == [{"a": "x", "b": "1", "c": 1}, {"a": "x", "b": None, "c": 1},
                            {"a": None, "b": None, "c": 1}]


def test_per_aggregation_group_by(engine, recorder):
    engine.epl("create schema T(s string, p int)")
    engine.epl("select s, sum(p, group_by: s) as gs, sum(p) as t from T#length(3)").add_listener(recorder)
    send_all(engine, "T", [{"s": "a", "p": 1}, {"s": "b", "p": 2}, {"s": "a", "p": 3}, {"s": "b", "p": 4}])
    assert [(r["s"], r["gs"], r["t"]) for r in recorder.new] == [
        ("a", 1, 1), ("b", 2, 3), ("a", 4, 6), ("b", 6, 9)]


def test_select_rstream_delivers_removed_events(engine, recorder):
    engine.epl("create schema T(x int)")
    engine.epl("select rstream x from T#length(2)").add_listener(recorder)
    send_all(engine, "T", [{"x": i} for i in range(4)])
    assert recorder.new == [{"x": 0}, {"x": 1}] and recorder.old == []


def test_insert_rstream_into(engine, recorder):
    engine.deploy("""
        create schema T(x int);
        insert rstream into Gone select x from T#length(1);
        select x from Gone
    """)
    engine.statements[-1].add_listener(recorder)
    send_all(engine, "T", [{"x": 1}, {"x": 2}, {"x": 3}])
    assert recorder.new == [{"x": 1}, {"x": 2}]


def test_order_by_several_keys_nulls_first_and_limit_offset(engine, recorder):
    engine.epl("create schema T(a string, b int)")
    engine.epl("select a, b from T#length_batch(5) order by a asc, b desc limit 3 offset 1").add_listener(recorder)
    send_all(engine, "T", [{"a": "y", "b": 1}, {"a": None, "b": 5}, {"a": "x", "b": 1},
                           {"a": "x", "b": 3}, {"a": "y", "b": 9}])
    assert [(r["a"], r["b"]) for r in recorder.new] == [("x", 3), ("x", 1), ("y", 9)]


def test_distinct_rows(engine, recorder):
    engine.epl("create schema T(a string)")
    engine.epl("select distinct a from T#length_batch(4)").add_listener(recorder)
    send_all(engine, "T", [{"a": "p"}, {"a": "q"}, {"a": "p"}, {"a": "p"}])
    assert recorder.new == [{"a": "p"}, {"a": "q"}]


def test_iterate_grouped_aggregates(engine):
    engine.epl("create schema T(s string, p int)")
    stmt = engine.epl("select s, sum(p) as total from T#length(10) group by s")
    send_all(engine, "T", [{"s": "a", "p": 1}, {"s": "b", "p": 2}, {"s": "a", "p": 3}])
    assert sorted((r["s"], r["total"]) for r in stmt) == [("a", 4), ("b", 2)]


def test_groups_of_a_window_are_reclaimed_unbounded_groups_kept(engine, recorder):
    engine.epl("create schema T(s string, p int)")
    engine.epl("select s, countever(*) as n from T#length(1) group by s").add_listener(recorder)
    send_all(engine, "T", [{"s": "a", "p": 1}, {"s": "b", "p": 1}, {"s": "a", "p": 1}])
    # group a emptied when b pushed it out (row 0), so its countever starts again at 1
    assert [r["n"] for r in recorder.new if r["s"] == "a"] == [1, 0, 1]
    recorder.reset()
    engine.epl("select s, countever(*) as n from T group by s").add_listener(recorder)
    send_all(engine, "T", [{"s": "a", "p": 1}, {"s": "b", "p": 1}, {"s": "a", "p": 1}])
    assert [r["n"] for r in recorder.new if r["s"] == "a"][-1] == 2   # no window: kept


def test_user_aggregation(engine, recorder):
    class Product:
        def __init__(self):
            self.values = []

        def enter(self, v):
            self.values.append(v)

        def leave(self, v):
            self.values.remove(v)

        def value(self):
            out = 1
            for v in self.values:
                out *= v
            return out

        def clear(self):
            self.values = []

    engine.register_aggregation("product", Product)
    engine.epl("create schema T(p int)")
    engine.epl("select product(p) as x from T#length(2)").add_listener(recorder)
    send_all(engine, "T", [{"p": 2}, {"p": 3}, {"p": 5}])
    assert [r["x"] for r in recorder.new] == [2, 6, 15]
