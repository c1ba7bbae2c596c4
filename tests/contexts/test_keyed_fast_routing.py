"""Keyed contexts with the fast paths on (a partition's creating filter only sees keys without
a partition, so an event of an existing partition reaches its statements through one
handle) against the general path: random context declarations, context statements beside
plain ones, random events (null keys included); the same listener calls in the same order."""
from __future__ import annotations

from hypothesis import assume, given, settings, strategies as st

from engine import Engine
from engine.fastpath_switch import set_fast_paths

SCHEMAS = ("create schema T(k string, k2 int, v int)", "create schema U(k string, k2 int, v int)")
CONTEXTS = [
    "create context C partition by k from T",
    "create context C partition by k from T, k from U",
    "create context C partition by k and k2 from T",
    "create context C partition by k from T terminated by T(v = 0)",
    "create context C partition by k from T(v > 1)",
    "create context C partition by k from T initiated by T(v > 3)",
]
STATEMENTS = [
    "context C select k, sum(v) as s from T#length(3)",
    "context C select * from T(v != 2)",
    "select * from T",
    "context C select context.key1 as key, count(*) as n from T",
    "context C select k, v from U",
    "@priority(5) select k from T",
]

events = st.lists(
    st.tuples(st.sampled_from("TTU"), st.sampled_from(["a", "b", "b", None]), st.sampled_from([1, 2]),
              st.integers(0, 5)),
    min_size=3, max_size=40,
)


def _run(context: str, statements: list, seq: list, fast: bool) -> list:
    engine = Engine(time="simulated", start_time=0)
    set_fast_paths(engine, fast)
    for s in SCHEMAS:
        engine.epl(s)
    engine.epl(context)
    calls: list = []
    for i, text in enumerate(statements):
        stmt = engine.epl(text)

        def listen(new, old, _i=i):
            calls.append((_i, [dict(e.underlying) for e in new or []], [dict(e.underlying) for e in old or []]))
        stmt.add_listener(listen)
    for type_name, k, k2, v in seq:
        engine.send({"k": k, "k2": k2, "v": v}, type_name)
        calls.append("|")
    engine.close()
    return calls


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(CONTEXTS), st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=4), events)
def test_fast_routing_delivers_as_the_general_path(context, statements, seq):
    try:
        want = _run(context, statements, seq, False)
    except Exception as exc:    # a statement this context cannot host (e.g. U not listed)
        assume(not str(exc))
        raise
    assert _run(context, statements, seq, True) == want


def test_existing_partitions_match_one_handle():
    engine = Engine(time="simulated", start_time=0)
    for s in SCHEMAS:
        engine.epl(s)
    engine.epl(CONTEXTS[0])
    engine.epl(STATEMENTS[0])
    engine.send({"k": "a", "k2": 1, "v": 1}, "T")
    bean_type = engine.event_type("T")
    from engine.bean import EventBean
    handles = engine.filters.match(EventBean(bean_type, {"k": "a", "k2": 1, "v": 2}))
    assert len(handles) == 1            # the partition's statement; not the creator
    handles = engine.filters.match(EventBean(bean_type, {"k": "new", "k2": 1, "v": 2}))
    assert len(handles) == 1            # the creator only
    engine.close()
