"""The fast-path batch loop's row delivery (epl/compiler/fused/codegen.py _typed_delivery):
the bean a row goes in is made after a delivery that handed it on, so the row steps never
test it. Against the general chain (fusion off), on random batches that fill windows or
not, with odd events in between: listeners that keep a row, change it (its type and its
event), send an event, add a second listener, or share the rows with a second listener or
a four-argument one, see the same rows in the same order, and every kept row stays as it
was delivered."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from engine import Engine
from engine.fused import is_fused
from tests.perf_fused.script_runner import rows_of

SCHEMA = "create schema T(sym string, v double, i int)"
STATEMENTS = (
    "select sym, avg(v) as a from T#groupwin(sym)#length({n}) group by sym",
    "select sym, sum(v) as s from T#groupwin(sym)#length({n}) group by sym",
    "select sym, count(*) as c, avg(v) as a from T#groupwin(sym)#length({n}) group by sym",
    "select avg(v) as a from T#length({n})",
)
# (3: an int in the double column, a plain bean; "x": a wrong type, send's check raises;
# a missing property reads as null)
event = st.builds(
    lambda sym, v, i, drop: {k: x for k, x in (("sym", sym), ("v", v), ("i", i)) if k not in drop},
    st.sampled_from(("a", "b", "c")),
    st.sampled_from((1.0, 2.5, -0.5, 4.0, 3, None) * 3 + ("x",)),
    st.sampled_from((1, 2, 1, 2, None, "y")),
    st.sampled_from(((),) * 8 + (("v",), ("i",))))
ACTS = ("read", "read", "keep", "mutate", "send", "add")


def _run(text: str, batches: list, acts: list, receivers: str, fusion: bool) -> list:
    """What the listener saw, call by call, what it and a second receiver kept (as they
    are at the end) and each batch's error."""
    engine = Engine(time="simulated")
    engine.fusion = fusion
    engine.epl(SCHEMA)
    stmt = engine.epl(text)
    assert is_fused(stmt) == fusion
    other_type = engine.event_type("T")
    seen: list = []
    kept: list = []
    kept2: list = []
    plan = iter(acts * 1000)
    sends = [2]

    def second(new: Any, old: Any) -> None:
        seen.append(("second", rows_of(new)))
        kept2.append(new[0])

    def act(new: Any) -> None:
        how = next(plan)
        seen.append(rows_of(new))
        if how == "keep":
            kept.append(new[0])
        elif how == "mutate":
            # changed and dropped: the next row must not show any of it
            new[0].underlying = {"sym": "changed", "v": 0.0, "i": 0}
            new[0].event_type = other_type
        elif how == "send" and sends[0] > 0:
            sends[0] -= 1
            engine.send({"sym": "a", "v": 8.0, "i": 1}, "T")
        elif how == "add" and len(stmt._listeners) == 1:
            stmt.add_listener(second)

    if receivers == "four":
        stmt.add_listener(lambda new, old, statement, runtime: act(new), signature="esper")
    else:
        stmt.add_listener(lambda new, old: act(new))
        if receivers == "two":
            stmt.add_listener(second)
    errors = []
    for batch in batches:
        try:
            engine.send_many([dict(e) for e in batch], "T")
            errors.append(None)
        except Exception as exc:    # (the wrong-typed events: EPL's error, in both chains)
            errors.append((type(exc).__name__, str(exc)))
    return [seen, rows_of(kept), rows_of(kept2), errors]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(STATEMENTS), st.integers(1, 4),
       st.lists(st.lists(event, max_size=14), min_size=1, max_size=4),
       st.lists(st.sampled_from(ACTS), min_size=1, max_size=6),
       st.sampled_from(("one", "one", "two", "four")))
def test_rows_as_the_general_chain(text: str, n: int, batches: list, acts: list, receivers: str) -> None:
    text = text.format(n=n)
    assert repr(_run(text, batches, acts, receivers, True)) == repr(_run(text, batches, acts, receivers, False))


def _ids(receivers: str, keep_at: int) -> tuple[list, list]:
    """The ids of the beans the listener got over ten events of one full group, and the
    rows it kept (at call `keep_at`)."""
    engine = Engine(time="simulated")
    engine.epl(SCHEMA)
    stmt = engine.epl("select sym, avg(v) as a from T#groupwin(sym)#length(2) group by sym")
    ids: list = []
    kept: list = []

    def listener(new: Any, old: Any) -> None:
        ids.append(id(new[0]))
        if len(ids) == keep_at:
            kept.append(new[0])
    stmt.add_listener(listener)
    if receivers == "two":
        stmt.add_listener(lambda new, old: None)
    engine.send_many([{"sym": "a", "v": float(x), "i": 1} for x in range(10)], "T")
    return ids, rows_of(kept)


def test_a_row_handed_on_is_never_reused() -> None:
    """One listener: the loop reuses the row's bean until the listener keeps one, then goes
    on with a new one. Two listeners (Statement._dispatch): each row in a new bean, so a kept
    one stays as it was."""
    ids, kept = _ids("one", 5)
    assert len(set(ids[:5])) == 1 and ids[5] != ids[4] and len(set(ids[5:])) == 1
    assert kept == [[("a", 3.5), ("sym", "a")]]
    ids, kept = _ids("two", 5)
    assert kept == [[("a", 3.5), ("sym", "a")]]
