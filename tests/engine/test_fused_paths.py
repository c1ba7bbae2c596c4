"""The per-event fast paths (grouped sliding and batch updates, float sums entering and
leaving, groupwin's merged output, pattern tag reads) against brute-force models."""
from __future__ import annotations


from hypothesis import given, settings, strategies as st

from engine import Engine

EVENTS = st.lists(st.tuples(st.sampled_from("abc"), st.one_of(st.none(), st.integers(-5, 5))),
                  max_size=30)
PRICES = st.lists(st.tuples(st.sampled_from("ab"),
                            st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False),
                                      st.sampled_from([0.1, 0.2, 0.3, 1e-300, 3.5e15]))),
                  max_size=30)


def _run(epl: str, schema: str, type_name: str, rows: list[dict]) -> list:
    engine = Engine(time="simulated")
    engine.epl(schema)
    calls: list = []
    engine.epl(epl).add_listener(lambda new, old: calls.append(
        ([e.to_dict() for e in new or []], [e.to_dict() for e in old or []])))
    for r in rows:
        engine.send(r, type_name)
    return calls


def _state(window: list, key: str) -> tuple:
    vals = [v for k, v in window if k == key and v is not None]
    return (key, sum(vals) if vals else None, sum(1 for k, _ in window if k == key))


@settings(max_examples=150, deadline=None)
@given(EVENTS, st.integers(1, 4))
def test_groupwin_length_rows_per_group(events, n):
    calls = _run(f"select irstream s, sum(v) as t, count(*) as c from T#groupwin(s)#length({n}) "
                 "group by s", "create schema T(s string, v int)", "T",
                 [{"s": s, "v": v} for s, v in events])
    windows: dict = {}
    expected = []
    for s, v in events:
        w = windows.setdefault(s, [])
        before = _state(w, s)
        w.append((s, v))
        if len(w) > n:
            w.pop(0)
        expected.append(([dict(zip(("s", "t", "c"), _state(w, s)))],
                         [dict(zip(("s", "t", "c"), before))]))
    assert calls == expected


@settings(max_examples=150, deadline=None)
@given(EVENTS, st.integers(1, 4))
def test_length_window_rows_per_group_of_two_groups(events, n):
    """The event entering and the one pushed out may be of different groups."""
    calls = _run(f"select irstream s, sum(v) as t, count(*) as c from T#length({n}) group by s",
                 "create schema T(s string, v int)", "T", [{"s": s, "v": v} for s, v in events])
    window: list = []
    assert len(calls) == len(events)
    for (s, v), (new, old) in zip(events, calls):
        touched = {s} | ({window[0][0]} if len(window) == n else set())
        before = {k: _state(window, k) for k in touched}
        window.append((s, v))
        if len(window) > n:
            window.pop(0)
        after = {k: _state(window, k) for k in touched}
        as_rows = lambda states: sorted(sorted(dict(zip(("s", "t", "c"), states[k])).items())
                                        for k in states)
        assert sorted(sorted(r.items()) for r in new) == as_rows(after)
        assert sorted(sorted(r.items()) for r in old) == as_rows(before)


@settings(max_examples=150, deadline=None)
@given(EVENTS, st.integers(1, 4))
def test_length_batch_rows_per_group(events, n):
    calls = _run(f"select s, sum(v) as t from T#length_batch({n}) group by s",
                 "create schema T(s string, v int)", "T", [{"s": s, "v": v} for s, v in events])
    batches = [events[i:i + n] for i in range(0, len(events) - len(events) % n, n)]
    assert len(calls) == len(batches)
    prev: list = []
    for batch, (new, old) in zip(batches, calls):
        keys = {k for k, _ in batch} | {k for k, _ in prev}
        want = []
        for k in keys:
            vals = [v for kk, v in batch if kk == k and v is not None]
            want.append({"s": k, "t": sum(vals) if vals else None})
        assert sorted(sorted(r.items()) for r in new) == sorted(sorted(r.items()) for r in want)
        assert old == []
        prev = batch


@settings(max_examples=150, deadline=None)
@given(PRICES, st.integers(1, 4))
def test_float_avg_and_sum_are_esper_running_sums_while_sliding(events, n):
    """Esper's double sums: per group, `+=` for the entering value, then `-=` for the leaving
    one, reset to 0 when the group's count drops to 0."""
    calls = _run(f"select s, avg(p) as a, sum(p) as t from T#groupwin(s)#length({n}) group by s",
                 "create schema T(s string, p double)", "T", [{"s": s, "p": p} for s, p in events])
    windows: dict = {}
    sums: dict = {}
    for (s, p), (new, _) in zip(events, calls):
        w = windows.setdefault(s, [])
        cnt, total = sums.get(s, (0, 0.0))
        w.append(p)
        if p is not None:
            cnt, total = cnt + 1, total + p
        if len(w) > n:
            q = w.pop(0)
            if q is not None:
                cnt, total = (0, 0.0) if cnt <= 1 else (cnt - 1, total - q)
        sums[s] = (cnt, total)
        assert new == [{"s": s, "a": total / cnt if cnt else None, "t": total if cnt else None}]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Base", "Sub", "B"]), st.integers(0, 2)), max_size=25))
def test_pattern_tag_reads_of_subtype_events(events):
    """`a.id` reads the tagged event whatever its type: the declared one or a subtype."""
    engine = Engine(time="simulated")
    engine.deploy("create schema Base(id int); create schema Sub(extra string) inherits Base; "
                  "create schema B(id int)")
    got: list = []
    engine.epl("select a.id as x, b.id as y from pattern [every a=Base -> b=B(id = a.id)]") \
        .add_listener(lambda new, old: got.extend((r.get("x"), r.get("y")) for r in new))
    waiting: list = []
    want: list = []
    for t, i in events:
        engine.send({"id": i}, t)
        if t == "B":
            want.extend((i, i) for w in waiting if w == i)
            waiting = [w for w in waiting if w != i]
        else:
            waiting.append(i)
    assert got == want


def test_groupwin_output_follows_a_relinked_child():
    from views import SimulatedViewContext, ViewArg, create_factories, make_chain
    from engine.bean import EventBean
    from engine.event_types import EventTypeRegistry

    et = EventTypeRegistry().register_map("E", {"k": "int", "id": "int"})
    key = ViewArg("k", evaluate=lambda b: b.get("k"))
    seen: dict = {"first": [], "second": []}

    class Sink:
        def __init__(self, name):
            self.name = name

        def update(self, new, old):
            seen[self.name].append(([e.get("id") for e in new or []], [e.get("id") for e in old or []]))

    first, views = make_chain(create_factories([("groupwin", [key]), ("length", [ViewArg("1", value=1)])]),
                              SimulatedViewContext(0), Sink("first"))
    first.update([EventBean(et, {"k": 1, "id": 1})], None)
    first.child = Sink("second")
    first.update([EventBean(et, {"k": 1, "id": 2})], None)
    first.update([EventBean(et, {"k": 2, "id": 3})], None)
    assert seen == {"first": [([1], [])], "second": [([2], [1]), ([3], [])]}
