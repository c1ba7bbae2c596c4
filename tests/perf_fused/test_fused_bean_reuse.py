"""The batch loop of a fused statement without a where clause gives the bean its full window
expels to the next event (engine/fused.py LoopBean): against the general chain, with
iteration, checkpoint and restore, stop and start and per-event sends between batches, the
same deliveries in the same order; with unchecked events whose values make an aggregation
raise, the same up to the first fault report, and a bean a fault report got never changes
afterwards."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from engine import Engine
from tests.perf_fused.script_runner import rows_of

SCHEMA = "create schema T(sym string, v double, i int)"
VALUES = (0.5, 2.0, 3, None, -1.25, "x", "2.5", 7)     # (strings: unchecked events only)
STATEMENTS = (
    "select sym, sum(v) as s, count(*) as n from T#groupwin(sym)#length({n}) group by sym",
    "select avg(v) as a, max(v) as m from T#length({n})",
    "select count(v) as c, sum(i) as s from T#groupwin(sym)#length({n})",
    "select sym, min(v) as m, avg(i) as a from T#groupwin(sym)#length({n}) group by sym",
    "select sum(v) as s from T",
    "select sym, count(*) as n, sum(v) as s from T group by sym",
    # the beans keep the one aggregated property and the group-by value (LoopBean.v, .k);
    # sums and averages leave their value in locals
    "select sym, avg(v) as a from T#groupwin(sym)#length({n}) group by sym",
    "select sum(i) as s, avg(i) as a from T#length({n})",
    "select sym, count(*) as n from T#groupwin(sym)#length({n}) group by sym",
    "select sym, sum(i) as s, count(i) as c from T#groupwin(sym)#length({n}) group by sym",
)

events = st.builds(
    # (an event may lack properties: the loops read them by subscript, then by get)
    lambda e, drop: {k: v for k, v in e.items() if k not in drop},
    st.fixed_dictionaries({"sym": st.sampled_from(("a", "b")), "v": st.sampled_from(VALUES),
                           "i": st.sampled_from((1, None, 4))}),
    st.sampled_from(((),) * 6 + (("v",), ("i",), ("sym",), ("v", "i"))))
ops = st.one_of(st.tuples(st.just("many"), st.lists(events, max_size=15)),
                st.tuples(st.just("send"), events),
                st.tuples(st.sampled_from(("iter", "checkpoint", "stop_start")), st.just(None)))


def _engine(text: str, fusion: bool, context: bool, **options: Any) -> tuple[Engine, str]:
    """An engine with the schema, fusion on or off, and the statement's text (in a keyed
    context by `sym` when `context`)."""
    engine = Engine(time="simulated", **options)
    engine.fusion = fusion
    engine.epl(SCHEMA)
    if context:
        engine.epl("create context C partition by sym from T")
        text = "context C " + text
    return engine, text


def run(text: str, script: list, fusion: bool, checked: bool, context: bool = False) -> tuple[list, list]:
    """`context`: the statement in a keyed context by `sym` (its partitions' batch loop)."""
    engine, text = _engine(text, fusion, context, check_events=checked)
    log: list = []
    reported: list = []             # (bean, its contents when reported)

    def on_fault(*_: Any, **kw: Any) -> None:
        bean = kw["event"]
        reported.append((bean, repr(bean.to_dict())))
        log.append(("fault", repr(bean.to_dict()), type(kw["error"]).__name__))
    engine.signals.statement_error.connect(on_fault, weak=False)

    def listener(new: Any, old: Any) -> None:
        log.append(("s", rows_of(new)))
    stmt = engine.epl(f"@name('s') {text}")
    stmt.add_listener(listener)
    for op, arg in script:
        try:
            if op == "many":
                engine.send_many([dict(e) for e in arg], "T")
            elif op == "send":
                engine.send(dict(arg), "T")
            elif op == "iter":
                log.append(("iter", sorted(repr(sorted(r.items())) for r in stmt.rows())))
            elif op == "checkpoint":
                engine = Engine.restore(engine.checkpoint(), listeners={"s": listener})
                engine.signals.statement_error.connect(on_fault, weak=False)
                stmt = engine.statement("s")
            elif op == "stop_start":
                stmt.stop()
                stmt.start()
        except Exception as exc:        # a checked event of a bad type
            log.append(("raised", type(exc).__name__))
    # what a fault report got stays as it was
    for bean, seen in reported:
        assert repr(bean.to_dict()) == seen
    return log


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(STATEMENTS), st.integers(1, 3), st.lists(ops, min_size=1, max_size=8),
       st.booleans(), st.booleans())
def test_reused_beans_deliver_as_the_general_chain(text: str, n: int, script: list, checked: bool,
                                                    context: bool) -> None:
    text = text.format(n=n)
    fused_log = run(text, script, True, checked, context)
    chain_log = run(text, script, False, checked, context)
    # (after an aggregation raised, fused and chain aggregation state may differ: the chain
    # enters the new event into every aggregation before the expelled one leaves, fused
    # code does both per aggregation, and skipped group counts drift: compared up to the
    # first fault; what the fault reports got is checked in full by `run`)
    faults = [k for k, entry in enumerate(chain_log) if entry[0] == "fault"]
    if faults:
        fused_log, chain_log = fused_log[:faults[0] + 1], chain_log[:faults[0] + 1]
    assert repr(fused_log) == repr(chain_log)


def test_the_loop_reuses_the_expelled_bean() -> None:
    engine = Engine(time="simulated")
    engine.epl(SCHEMA)
    stmt = engine.epl("select sym, sum(v) from T#groupwin(sym)#length(2) group by sym")
    stmt.add_listener(lambda new, old: None)
    engine.send_many([{"sym": "a", "v": 1.0, "i": 1}] * 2, "T")
    ns = stmt._instances[0].handles[0].namespace
    win = ns["_wins"]["a"][0]
    first = list(win)
    assert all(type(b) is ns["_LoopT"] for b in first)     # (a LoopBean whose v is a float)
    engine.send_many([{"sym": "a", "v": float(x), "i": 1} for x in (5, 6)], "T")
    assert [id(b) for b in win] == [id(b) for b in first]
    assert [b.underlying["v"] for b in win] == [5.0, 6.0]


def test_the_loop_keeps_what_a_leaving_event_gives() -> None:
    """A bean the loop makes carries the aggregated property's value and the group-by
    value, which the statement reads again when the event leaves; a bean a fault report got
    is a SpentBean: never reused."""
    from engine.fused import SpentBean
    engine = Engine(time="simulated", check_events=False)
    engine.epl(SCHEMA)
    stmt = engine.epl("select sym, avg(v) as a from T#groupwin(sym)#length(2) group by sym")
    got: list = []
    stmt.add_listener(lambda new, old: got.extend(r.underlying["a"] for r in new))
    reported: list = []
    engine.signals.statement_error.connect(lambda *_, **kw: reported.append(kw["event"]), weak=False)
    engine.send_many([{"sym": "a", "v": x, "i": 1} for x in (1.0, 2.0, 4.0)], "T")
    ns = stmt._instances[0].handles[0].namespace
    LoopBean, TypedLoopBean = ns["_Loop"], ns["_LoopT"]     # (beans keeping k and v only)
    win = ns["_wins"]["a"][0]
    assert [(type(b), b.k, b.v) for b in win] == [(TypedLoopBean, "a", 2.0), (TypedLoopBean, "a", 4.0)]
    assert got == [1.0, 1.5, 3.0]
    engine.send_many([{"sym": "a", "v": "x", "i": 1}], "T")
    assert [type(b) for b in reported] == [SpentBean] and reported[0].underlying["v"] == "x"
    assert [type(b) for b in win] == [TypedLoopBean, SpentBean]
    # a bean whose value is not of the fast path's type (an int for a double) is a plain
    # LoopBean; when it leaves, the fast path gives the event to the slow steps
    got.clear()
    engine.send_many([{"sym": "b", "v": x, "i": 1} for x in (1.0, 2.0, 7, 8.0)], "T")
    win = stmt._instances[0].handles[0].namespace["_wins"]["b"][0]
    assert [(type(b), b.v) for b in win] == [(LoopBean, 7), (TypedLoopBean, 8.0)]
    engine.send_many([{"sym": "b", "v": 9.0, "i": 1}], "T")
    assert [(type(b), b.v) for b in win] == [(TypedLoopBean, 8.0), (TypedLoopBean, 9.0)]
    assert got == [1.0, 1.5, 4.5, 7.5, 8.5]


def _kept_rows(text: str, batches: list, keep: list, fusion: bool, context: bool) -> list:
    """What a listener that keeps some rows' beans, some lists and some only reads shows
    at the end: every kept row as it was delivered."""
    engine, text = _engine(text, fusion, context)
    kept: list = []
    seen: list = []
    calls = iter(keep * 1000)

    def listener(new: Any, old: Any) -> None:
        how = next(calls)
        seen.append(rows_of(new))
        if how == "bean":
            kept.append(new[0])
        elif how == "list":
            kept.append(new)
        elif how == "clear":
            new.clear()
        elif how == "append":
            new.append(new[0])
    engine.epl(text).add_listener(listener)
    for batch in batches:
        engine.send_many([dict(e) for e in batch], "T")
    return [seen, [rows_of(k) if isinstance(k, list) else rows_of([k]) for k in kept]]


valid_events = events.filter(lambda e: not isinstance(e.get("v"), str))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(STATEMENTS), st.integers(1, 3),
       st.lists(st.lists(valid_events, max_size=12), min_size=1, max_size=4),
       st.lists(st.sampled_from(("read", "read", "bean", "list", "clear", "append")), min_size=1, max_size=5),
       st.booleans())
def test_a_kept_row_never_changes(text: str, n: int, batches: list, keep: list, context: bool) -> None:
    """The loop gives a delivered row's bean to the next row only when the listener kept
    neither the bean nor its list (reference counts): what it kept stays as delivered."""
    text = text.format(n=n)
    assert repr(_kept_rows(text, batches, keep, True, context)) == repr(_kept_rows(text, batches, keep, False, context))


def test_the_loop_reuses_a_row_nothing_kept() -> None:
    engine = Engine(time="simulated")
    engine.epl(SCHEMA)
    stmt = engine.epl("select sym, avg(v) as a from T#groupwin(sym)#length(2) group by sym")
    ids: list = []
    kept: list = []
    stmt.add_listener(lambda new, old: ids.append(id(new[0])) or (kept.append(new[0]) if len(ids) == 5 else None))
    engine.send_many([{"sym": "a", "v": float(x), "i": 1} for x in range(10)], "T")
    assert len(set(ids[:5])) == 1 and ids[5] != ids[4] and len(set(ids[5:])) == 1
    assert kept[0].underlying == {"sym": "a", "a": 3.5}
