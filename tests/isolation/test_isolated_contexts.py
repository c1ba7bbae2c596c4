"""Context-partitioned statements moved into an isolated service and back keep their
partitions: windows, aggregations, pattern runs, partition filters, and the context's own
filters and schedules (what creates and ends partitions), driven by the events and time of
wherever they run."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Engine
from engine.errors import EngineError


class Out:
    """Each delivery as (insert stream, remove stream) lists of dicts."""

    def __init__(self, stmt) -> None:
        self.calls: list = []
        stmt.add_listener(lambda new, old: self.calls.append(
            ([b.to_dict() for b in new or ()], [b.to_dict() for b in old or ()])))

    def pop(self) -> list:
        out, self.calls = self.calls, []
        return out

    def new(self) -> list:
        return [row for new, _ in self.pop() for row in new]


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema T(k string, v int)")
    yield e
    e.close()


def send(target, k, v=0):
    target.send({"k": k, "v": v}, "T")


def test_keyed_counts_continue_per_key(engine):
    engine.epl("create context ByKey partition by k from T")
    s = engine.epl("context ByKey select k, count(*) as c from T")
    out = Out(s)
    for k in "aab":
        send(engine, k)
    assert out.new() == [{"k": "a", "c": 1}, {"k": "a", "c": 2}, {"k": "b", "c": 1}]
    iso = engine.isolated("replay")
    iso.add(s)
    assert engine.filter_count() == 0
    send(engine, "a")                              # the engine's events no longer reach it
    assert out.new() == []
    for k in "acb":
        send(iso, k)
    assert out.new() == [{"k": "a", "c": 3}, {"k": "c", "c": 1}, {"k": "b", "c": 2}]
    iso.remove(s)
    assert iso.filter_count() == 0
    send(iso, "a")
    for k in "acd":
        send(engine, k)
    assert out.new() == [{"k": "a", "c": 4}, {"k": "c", "c": 2}, {"k": "d", "c": 1}]
    assert sorted(p["key1"] for p in engine.services["contexts"].partitions("ByKey")) == list("abcd")
    s.destroy()
    assert engine.filter_count() == 0 and engine.schedule_count() == 0


def test_keyed_time_window_expires_on_the_isolated_time(engine):
    engine.epl("create context ByKey partition by k from T")
    s = engine.epl("context ByKey select rstream k, v from T#time(10 sec)")
    out = Out(s)
    send(engine, "a", 1)                           # due at 10 000
    iso = engine.isolated("replay")
    iso.add(s)
    assert engine.schedule_count() == 0 and iso.schedule_count() == 1
    iso.advance_time(2_000)
    send(iso, "b", 2)                              # due at 12 000
    engine.advance_time(60_000)
    assert out.new() == []
    iso.advance_time(9_999)
    assert out.new() == []
    iso.advance_time(10_000)
    assert out.new() == [{"k": "a", "v": 1}]
    iso.remove(s)                                  # b has 2 s left: due at the engine's 62 000
    assert engine.schedule_count() == 1 and iso.schedule_count() == 0
    iso.advance_time(12_000)
    assert out.new() == []
    engine.advance_time(61_999)
    assert out.new() == []
    engine.advance_time(62_000)
    assert out.new() == [{"k": "b", "v": 2}]


def test_keyed_terminated_by_and_initiated_by_move_with_the_context(engine):
    engine.epl("create context ByKey partition by k from T "
               "initiated by T(v = 1) as s terminated by T(v = 9)")
    s = engine.epl("context ByKey select context.key1 as k, count(*) as c from T")
    out = Out(s)
    send(engine, "a", 0)                           # not initiating: no partition
    send(engine, "a", 1)
    assert out.new() == [{"k": "a", "c": 1}]
    iso = engine.isolated("iso")
    iso.add(s)
    send(engine, "a", 9)                           # would end a's partition in the engine
    send(engine, "b", 1)                           # would start b's
    assert out.new() == []
    send(iso, "a", 0)
    send(iso, "b", 0)                              # b has no partition here
    assert out.new() == [{"k": "a", "c": 2}]
    send(iso, "a", 9)                              # counted, then ends a's partition
    send(iso, "a", 0)
    assert out.new() == [{"k": "a", "c": 3}]
    send(iso, "b", 1)                              # initiates b's
    iso.remove(s)
    send(engine, "b", 0)
    send(engine, "a", 0)
    assert out.new() == [{"k": "b", "c": 1}, {"k": "b", "c": 2}]


def test_temporal_context_ends_on_the_isolated_time(engine):
    engine.epl("create context Win start T(v = 1) end after 10 sec")
    s = engine.epl("context Win select count(*) as c from T")
    out = Out(s)
    send(engine, "x", 1)
    send(engine, "x", 0)
    assert out.new() == [{"c": 1}, {"c": 2}]
    iso = engine.isolated("iso")
    iso.add(s)
    assert engine.filter_count() == 0 and engine.schedule_count() == 0
    assert iso.filter_count() == 1 and iso.schedule_count() == 1
    engine.advance_time(20_000)                    # no longer ends it
    send(iso, "x", 0)
    assert out.new() == [{"c": 3}]
    iso.advance_time(10_000)                       # ends it
    send(iso, "x", 0)
    assert out.new() == []
    send(iso, "x", 1)                              # the start condition moved too
    assert out.new() == [{"c": 1}]
    iso.remove(s)                                  # 10 s left: ends at the engine's 30 000
    send(engine, "x", 0)
    assert out.new() == [{"c": 2}]
    engine.advance_time(29_999)
    send(engine, "x", 0)
    assert out.new() == [{"c": 3}]
    engine.advance_time(30_000)
    send(engine, "x", 0)
    assert out.new() == []
    s.destroy()
    assert engine.filter_count() == 0 and engine.schedule_count() == 0


def test_overlapping_context_with_pattern_end_condition(engine):
    engine.epl("create context Sess initiated by T(v = 1) as s "
               "terminated by pattern [T(v = 2) -> T(v = 3)]")
    s = engine.epl("context Sess select context.s.k as sk, count(*) as c from T")
    out = Out(s)
    send(engine, "a", 1)
    send(engine, "x", 2)                           # the end pattern half way
    assert out.new() == [{"sk": "a", "c": 1}, {"sk": "a", "c": 2}]
    iso = engine.isolated("iso")
    iso.add(s)
    send(engine, "x", 3)
    send(iso, "x", 3)                              # counted, completes the end pattern: a ends
    send(iso, "y", 0)
    send(iso, "b", 1)
    assert out.new() == [{"sk": "a", "c": 3}, {"sk": "b", "c": 1}]


def test_pattern_and_timer_inside_partitions_move(engine):
    engine.epl("create context ByKey partition by k from T")
    s = engine.epl("context ByKey select a.k as k, a.v as v from pattern "
                   "[every a = T(v > 0) -> timer:interval(5 sec)]")
    out = Out(s)
    send(engine, "a", 1)                           # fires at 5 000
    iso = engine.isolated("iso")
    iso.add(s)
    engine.advance_time(5_000)
    assert out.new() == []
    send(iso, "b", 2)                              # iso time 0: fires at 5 000
    iso.advance_time(5_000)
    assert out.new() == [{"k": "a", "v": 1}, {"k": "b", "v": 2}]


def test_hash_and_category_contexts_keep_their_partitions(engine):
    engine.epl("create context ByHash coalesce by consistent_hash_crc32(k) from T granularity 4")
    engine.epl("create context BySize group by v < 10 as small, group by v >= 10 as large from T")
    h = engine.epl("context ByHash select k, count(*) as c from T(k = 'h')")
    c = engine.epl("context BySize select context.label as label, sum(v) as t from T")
    out_h, out_c = Out(h), Out(c)
    send(engine, "h", 1)
    send(engine, "z", 20)
    iso = engine.isolated("iso")
    iso.add(h, c)
    send(iso, "h", 2)
    send(iso, "z", 30)
    iso.remove(h, c)
    send(engine, "h", 3)
    assert out_h.new() == [{"k": "h", "c": 1}, {"k": "h", "c": 2}, {"k": "h", "c": 3}]
    assert out_c.new() == [{"label": "small", "t": 1}, {"label": "large", "t": 20},
                           {"label": "small", "t": 3}, {"label": "large", "t": 50},
                           {"label": "small", "t": 6}]


def test_statements_sharing_a_context_move_together(engine):
    engine.epl("create context ByKey partition by k from T")
    counts = engine.epl("context ByKey select k, count(*) as c from T", "counts")
    sums = engine.epl("context ByKey select k, sum(v) as t from T", "sums")
    out_c, out_s = Out(counts), Out(sums)
    send(engine, "a", 5)
    iso = engine.isolated("iso")
    with pytest.raises(EngineError, match="'counts' shares the partitions of context 'ByKey' "
                                          "with statement 'sums'"):
        iso.add(counts)
    assert iso.statements == [] and iso.filter_count() == 0     # nothing moved
    iso.add(counts, sums)
    send(iso, "a", 6)
    with pytest.raises(EngineError, match="'sums' shares the partitions of context 'ByKey'"):
        iso.remove(sums)
    # a statement of the context created in the engine meanwhile runs its own partitions
    later = engine.epl("context ByKey select k, count(*) as c from T", "later")
    out_l = Out(later)
    send(engine, "a", 1)
    iso.destroy()                                  # both back, beside the later one
    send(engine, "a", 7)
    assert out_c.new() == [{"k": "a", "c": 1}, {"k": "a", "c": 2}, {"k": "a", "c": 3}]
    assert out_s.new() == [{"k": "a", "t": 5}, {"k": "a", "t": 11}, {"k": "a", "t": 18}]
    assert out_l.new() == [{"k": "a", "c": 1}, {"k": "a", "c": 2}]
    for s in (counts, sums, later):
        s.destroy()
    assert engine.filter_count() == 0 and engine.schedule_count() == 0


def test_context_statement_created_in_the_service_moves_out(engine):
    engine.epl("create context ByKey partition by k from T")
    s = engine.epl("context ByKey select k, count(*) as c from T")
    out = Out(s)
    iso = engine.isolated("iso")
    iso.add(s)
    s.stop()
    s.start()                                      # starts in the service, empty
    send(iso, "a")
    iso.remove(s)
    send(engine, "a")
    assert out.new() == [{"k": "a", "c": 1}, {"k": "a", "c": 2}]


def test_output_when_terminated_fires_in_the_service(engine):
    engine.epl("create context Win start T(v = 1) end after 10 sec")
    s = engine.epl("context Win select count(*) as c from T output snapshot when terminated")
    out = Out(s)
    send(engine, "x", 1)
    send(engine, "x", 0)
    iso = engine.isolated("iso")
    iso.add(s)
    send(iso, "x", 0)
    engine.advance_time(10_000)
    assert out.new() == []
    iso.advance_time(10_000)
    assert out.new() == [{"c": 3}]


# -- against a model: the partitions live wherever the statement is ------------------------------

_steps = st.lists(st.one_of(
    st.tuples(st.sampled_from(["engine", "iso"]), st.sampled_from("abc"), st.integers(0, 9)),
    st.just(("move", "", 0))), max_size=40)


@settings(max_examples=100, deadline=None)
@given(_steps)
def test_keyed_state_follows_the_statement(steps):
    e = Engine(time="simulated")
    e.advance_time(0)
    e.epl("create schema T(k string, v int)")
    e.epl("create context ByKey partition by k from T")
    s = e.epl("context ByKey select k, count(*) as c, sum(v) as t from T#length(2)")
    out = Out(s)
    iso = e.isolated("iso")
    home = "engine"
    seen: dict[str, list[int]] = {}
    expected = []
    for where, k, v in steps:
        if where == "move":
            (iso.add if home == "engine" else iso.remove)(s)
            home = "iso" if home == "engine" else "engine"
            continue
        send(e if where == "engine" else iso, k, v)
        if where == home:
            vs = seen.setdefault(k, [])
            vs.append(v)
            del vs[:-2]
            expected.append({"k": k, "c": len(vs), "t": sum(vs)})
    assert out.new() == expected
    s.destroy()
    assert e.filter_count() == 0 and iso.filter_count() == 0
    assert e.schedule_count() == 0 and iso.schedule_count() == 0
    e.close()
