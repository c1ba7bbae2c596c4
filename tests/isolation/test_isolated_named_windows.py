"""Named windows, tables and on-actions moved into an isolated service and back, with their
contents. As in Esper, a named window is one relation for every runtime: moving `create
window` moves where its `insert into` events come from and whose time expires its rows;
consumers see every change wherever they run; a moved on-action is triggered by the
service's events and changes the window wherever it is."""
from __future__ import annotations

import pytest

from engine import Engine


class Out:
    def __init__(self, stmt) -> None:
        self.calls: list = []
        stmt.add_listener(lambda new, old: self.calls.append(
            ([b.to_dict() for b in new or ()], [b.to_dict() for b in old or ()])))

    def pop(self) -> list:
        out, self.calls = self.calls, []
        return out


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema T(k string, v int)")
    e.epl("create schema A(id string, v int)")
    yield e
    e.close()


def send(target, k, v=0):
    target.send({"k": k, "v": v}, "T")


def trigger(target, id, v=0):
    target.send({"id": id, "v": v}, "A")


def keys(stmt) -> list:
    return sorted(row.to_dict()["k"] for row in stmt)


def test_window_contents_survive_the_move(engine):
    create = engine.epl("create window W#keepall as T", "create")
    insert = engine.epl("insert into W select * from T", "insert")
    engine.epl("on A delete from W where k = id", "delete")
    consume = engine.epl("select irstream k from W", "consume")
    out = Out(consume)
    send(engine, "E1")
    assert keys(create) == ["E1"] and out.pop() == [([{"k": "E1"}], [])]
    iso = engine.isolated("i1")
    iso.add(create)
    send(engine, "E2")                 # the engine's insert-into no longer reaches the window
    send(iso, "E3")                    # nor does the service's event (insert is in the engine)
    assert keys(create) == ["E1"] and out.pop() == []
    iso.add(insert)
    send(engine, "E4")
    send(iso, "E5")
    assert keys(create) == ["E1", "E5"]
    assert out.pop() == [([{"k": "E5"}], [])]     # the consumer in the engine sees it
    trigger(engine, "E1")              # on-delete in the engine changes the isolated window
    assert keys(create) == ["E5"]
    iso.remove(create)
    iso.remove(insert)
    send(engine, "E6")
    assert keys(create) == ["E5", "E6"]
    assert out.pop() == [([], [{"k": "E1"}]), ([{"k": "E6"}], [])]


def test_moved_on_actions_are_triggered_by_the_service(engine):
    create = engine.epl("create window W#keepall as T")
    engine.epl("insert into W select * from T")
    delete = engine.epl("on A(v = 0) delete from W where k = id")
    update = engine.epl("on A(v > 0) as a update W set v = a.v where k = a.id")
    select = engine.epl("on A(v < 0) select w.k as k, w.v as v from W as w")
    merge = engine.epl("on T(k = 'merge') as t merge W as w where w.k = 'M' "
                       "when matched then update set v = w.v + 1 "
                       "when not matched then insert select 'M' as k, 1 as v")
    out_sel = Out(select)
    for k in ("E1", "E2"):
        send(engine, k)
    iso = engine.isolated("i1")
    iso.add(delete, update, select, merge)
    trigger(engine, "E1")
    trigger(engine, "E2", 5)
    trigger(engine, "x", -1)
    send(engine, "merge")
    assert sorted((r["k"], r["v"]) for r in (b.to_dict() for b in create)) == \
        [("E1", 0), ("E2", 0), ("merge", 0)]
    assert out_sel.pop() == []
    trigger(iso, "E1")
    trigger(iso, "E2", 5)
    trigger(iso, "x", -1)
    send(iso, "merge")
    send(iso, "merge")
    assert sorted((r["k"], r["v"]) for r in (b.to_dict() for b in create)) == \
        [("E2", 5), ("M", 2), ("merge", 0)]
    assert [sorted(new, key=lambda r: r["k"]) for new, _ in out_sel.pop()] == \
        [[{"k": "E2", "v": 5}, {"k": "merge", "v": 0}]]
    iso.remove(delete, update, select, merge)
    trigger(engine, "E2")
    assert sorted(keys(create)) == ["M", "merge"]


def test_window_time_expiry_follows_the_service_time(engine):
    create = engine.epl("create window W#time(10 sec) as T")
    insert = engine.epl("insert into W select * from T")
    consume = engine.epl("select rstream k from W")
    out = Out(consume)
    iso = engine.isolated("i1")
    iso.add(create)
    iso.add(insert)
    iso.advance_time(1_000)
    send(iso, "E1")                    # due at 11 000
    iso.advance_time(2_000)
    send(iso, "E2")                    # due at 12 000
    iso.advance_time(9_000)
    send(iso, "E3")                    # due at 19 000
    engine.advance_time(15_000)        # not the window's time
    assert keys(create) == ["E1", "E2", "E3"] and out.pop() == []
    iso.advance_time(11_000)
    assert keys(create) == ["E2", "E3"] and out.pop() == [([{"k": "E1"}], [])]
    # back at the engine's 15 000 with the service at 11 000: what had 1 s and 8 s left
    # leaves 1 s and 8 s later on the engine's clock (Esper shifts by the clocks' gap)
    iso.remove(create)
    assert engine.schedule_count() > 0 and iso.schedule_count() == 0
    engine.advance_time(16_000)
    assert keys(create) == ["E3"] and out.pop() == [([{"k": "E2"}], [])]
    iso.advance_time(30_000)
    assert keys(create) == ["E3"]
    engine.advance_time(22_999)
    assert keys(create) == ["E3"]
    engine.advance_time(23_000)
    assert keys(create) == [] and out.pop() == [([{"k": "E3"}], [])]


def test_consumer_with_its_own_window_moves_with_it(engine):
    engine.epl("create window W#keepall as T")
    engine.epl("insert into W select * from T")
    consume = engine.epl("select k, count(*) as c from W#time(10 sec)")
    out = Out(consume)
    send(engine, "E1")                 # leaves the consumer's window at 10 000
    iso = engine.isolated("i1")
    iso.add(consume)
    send(engine, "E2")                 # the window changed: the consumer sees it anywhere
    engine.advance_time(20_000)
    assert [r for new, _ in out.pop() for r in new] == [{"k": "E1", "c": 1}, {"k": "E2", "c": 2}]
    iso.advance_time(10_000)           # E1 and E2 (entered at the service's 0) leave
    iso.remove(consume)
    send(engine, "E3")
    assert [r for new, _ in out.pop() for r in new] == [{"k": "E3", "c": 1}]


def test_table_rows_survive_the_move(engine):
    create = engine.epl("create table Tab(k string primary key, v int)")
    engine.epl("on T merge Tab as t where t.k = T.k "
               "when not matched then insert select T.k as k, T.v as v")
    insert = engine.epl("insert into Tab select id as k, v from A")
    send(engine, "a", 1)
    iso = engine.isolated("i1")
    iso.add(create)
    trigger(engine, "b", 2)            # the table's insert stream comes from the service now
    iso.add(insert)
    trigger(iso, "c", 3)
    iso.remove(create, insert)
    trigger(engine, "d", 4)
    assert sorted(row.to_dict()["k"] for row in create) == ["a", "c", "d"]
