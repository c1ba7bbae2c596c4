"""Fused statements inside keyed-context partitions (engine/contexts/keyed_fused.py) against
the general chain (fusion off): random keyed contexts (several types, several keys, creator
filters, initiated by, terminated by), random context statements of the fused shapes beside
ones that keep the chain (@priority, context properties, output clauses, insert into between
statements, plain statements), random operations (sends of both types, send_many batches,
iteration, stop/start, checkpoint and restore): the same deliveries in the same order."""
from __future__ import annotations

from typing import Any

from hypothesis import assume, given, settings, strategies as st

from engine import Engine

SCHEMAS = ("create schema T(k string, k2 int, v double, i int)",
           "create schema U(k string, k2 int, v double, i int)")
CONTEXTS = [
    "create context C partition by k from T",
    "create context C partition by k from T, k from U",
    "create context C partition by k and k2 from T",
    "create context C partition by k from T terminated by T(i = 0)",
    "create context C partition by k from T terminated by U(i = 0)",
    "create context C partition by k from T(v > 1)",
    "create context C partition by k from T initiated by T(i > 3)",
    "create context C partition by k from T, k from U terminated by U(i = 0)",
]
AGGS = ("count(*)", "count(v)", "sum(v)", "avg(v)", "min(v)", "max(v)", "sum(i)", "avg(i)",
        "stddev(v)", "count(i)", "max(i)")
WHERES = (None, "v > 0.15", "i is not null", "k != 'b'", "v < 5 or i > 2")
OTHERS = (
    "context C select * from T(v != 2)",
    "select * from T",
    "context C select context.key1 as key, count(*) as n from T",
    "@priority(5) select k, v from T",
    "@priority(5) @drop select k from T(i = 5)",
    "context C select k, sum(v) as s from T#length(3) output every 2 events",
    "context C select k, i from U",
    "context C insert into Out select k, sum(v) as s from T#length(2)",
    "select k, s from Out",
)


@st.composite
def fused_statement(draw: Any, types: tuple = ("T",)) -> str:
    """A context statement of a fused shape (ungrouped, grouped, row per event)."""
    win = draw(st.sampled_from(("none", "length", "groupwin")))
    kind = draw(st.sampled_from(("all", "group", "event")))
    if kind == "group" and win == "length":
        win = "groupwin"
    n = draw(st.integers(1, 4))
    aggs = draw(st.lists(st.sampled_from(AGGS), min_size=1, max_size=3, unique=True))
    items = list(aggs)
    if kind == "group" and draw(st.booleans()):
        items.insert(0, "k2")
    if kind == "event":
        items.insert(draw(st.integers(0, len(items))), draw(st.sampled_from(("k", "i", "v"))))
    if draw(st.booleans()):
        items = [f"{x} as c{j}" for j, x in enumerate(items)]
    gw = "k2" if kind == "group" else draw(st.sampled_from(("k", "k2")))
    view = {"none": "", "length": f"#length({n})", "groupwin": f"#groupwin({gw})#length({n})"}[win]
    filt = draw(st.sampled_from(("", "", "(v > 0)", "(i in (1, 2, 3))")))
    typ = draw(st.sampled_from(types))
    prio = draw(st.sampled_from(("", "", "@priority(3) ", "@priority(-1) ")))
    text = f"{prio}context C select {', '.join(items)} from {typ}{filt}{view}"
    where = draw(st.sampled_from(WHERES))
    if where:
        text += f" where {where}"
    if kind == "group":
        text += " group by k2"
    return text


def event(type_name: str) -> Any:
    return st.tuples(st.just(type_name), st.fixed_dictionaries({
        "k": st.sampled_from(["a", "b", "b", "c", None]), "k2": st.sampled_from([1, 2]),
        "v": st.sampled_from([0.1, 0.2, 1.5, 3.0, None, -0.0, 7.0, 1e16]),
        "i": st.sampled_from([0, 1, 2, 3, 4, 5, None])}))


ops = st.one_of(
    event("T"), event("T"), event("U"),
    st.tuples(st.just("many"), st.lists(event("T").map(lambda e: e[1]), max_size=10)),
    st.tuples(st.sampled_from(("iter", "stop", "start", "checkpoint")), st.integers(0, 3)),
)


@st.composite
def scripts(draw: Any) -> tuple:
    context = draw(st.sampled_from(CONTEXTS))
    types = ("T", "T", "U") if "from U" in context else ("T",)
    stmts = draw(st.lists(fused_statement(types), min_size=1, max_size=3))
    others = draw(st.lists(st.sampled_from(OTHERS if "U" in types else OTHERS[:-3] + OTHERS[-2:]),
                           max_size=3, unique=True))
    for o in others:
        stmts.insert(draw(st.integers(0, len(stmts))), o)
    return context, stmts, draw(st.lists(ops, min_size=1, max_size=30))


def _rows(beans: Any) -> Any:
    return None if beans is None else [sorted(b.to_dict().items()) for b in beans]


def run(context: str, statements: list, script: list, fusion: bool) -> tuple[list, int]:
    """The log of a script, and how many statements ran fused in their partitions."""
    engine = Engine(time="simulated", start_time=0)
    engine.fusion = fusion
    for s in SCHEMAS:
        engine.epl(s)
    engine.epl("create schema Out(k string, s double)")
    engine.epl(context)
    log: list = []
    names = [f"s{j}" for j in range(len(statements))]

    def listener(name: str) -> Any:
        return lambda new, old: log.append((name, _rows(new), _rows(old)))
    for name, text in zip(names, statements):
        engine.epl(f"@name('{name}') {text}").add_listener(listener(name))
    fused = sum(len(getattr(inst, "runtime", None).fused) > 0 for n in names
                for inst in engine.statement(n)._instances if hasattr(inst, "runtime"))
    for op, arg in script:
        stmt = engine.statement(names[arg % len(names)]) if isinstance(arg, int) else None
        if op in ("T", "U"):
            engine.send(dict(arg), op)
        elif op == "many":
            engine.send_many([dict(e) for e in arg], "T")
        elif op == "iter":
            log.append(("iter", stmt.name, sorted(repr(sorted(r.items())) for r in stmt.rows())))
        elif op == "stop":
            stmt.stop()
        elif op == "start":
            stmt.start()
        elif op == "checkpoint":
            data = engine.checkpoint()
            engine = Engine.restore(data, listeners={n: listener(n) for n in names})
        log.append("|")
    engine.close()
    return log, fused


@settings(max_examples=150, deadline=None)
@given(scripts())
def test_fused_partitions_deliver_as_the_general_chain(script: tuple) -> None:
    context, statements, steps = script
    try:
        want, _ = run(context, statements, steps, False)
    except Exception as exc:    # a statement this context cannot host
        assume(not str(exc))
        raise
    got, fused = run(context, statements, steps, True)
    assert repr(got) == repr(want)     # repr: exact floats, -0.0 and 0.0 told apart


def _fusion_of(stmt: Any) -> Any:
    return stmt._instances[0].runtime.fused.get(stmt)


def test_the_bench_statement_runs_fused() -> None:
    engine = Engine(time="simulated")
    engine.epl("create schema W(account string, amount double)")
    engine.epl("create context ByAcc partition by account from W")
    stmt = engine.epl("context ByAcc select account, sum(amount) from W#length(10)")
    assert _fusion_of(stmt) is not None
    got: list = []
    stmt.add_listener(lambda new, old: got.append(new[0].get("sum(amount)")))
    engine.send_many([{"account": f"a{j % 50}", "amount": 1.0} for j in range(500)], "W")
    assert got[:50] == [1.0] * 50 and got[-1] == 10.0
    from engine.contracts.bean import EventBean
    w = engine.types.finder()("W")
    # an existing key reaches its partition's fused handle alone; a new one the creator
    handles = engine.filters.match(EventBean(w, {"account": "a1", "amount": 1.0}))
    assert [type(h).__name__ for h in handles] == ["FusedPartitionHandle"]
    handles = engine.filters.match(EventBean(w, {"account": "zz", "amount": 1.0}))
    assert [type(h).__name__ for h in handles] == ["CreateHandle"]
    engine.fusion = False
    other = engine.epl("context ByAcc select account, sum(amount) from W#length(10)")
    assert _fusion_of(other) is None


def test_creating_event_reaches_the_new_partition_before_earlier_statements() -> None:
    """A plain statement created before the context statement still sees a partition's
    creating event after that partition's statements (the general chain's order)."""
    logs = []
    for fusion in (True, False):
        engine = Engine(time="simulated")
        engine.fusion = fusion
        engine.epl("create schema W(account string, amount double)")
        engine.epl("create context ByAcc partition by account from W")
        log: list = []
        engine.epl("select account from W").add_listener(lambda n, o: log.append("plain"))
        s = engine.epl("context ByAcc select count(*) as n from W#length(2)")
        s.add_listener(lambda n, o: log.append(("ctx", n[0].get("n"))))
        assert (_fusion_of(s) is not None) is fusion
        for a in ("x", "x", "y"):
            engine.send({"account": a, "amount": 1.0}, "W")
        logs.append(log)
    assert logs[0] == logs[1]
    assert logs[0][:2] == [("ctx", 1), "plain"]


BATCH_CONTEXTS = ("create context C partition by k from T",
                  "create context C partition by k from T(v > 0.15)",
                  "create context C partition by k from T initiated by T(i > 3)")


@st.composite
def batch_scripts(draw: Any) -> tuple:
    """One unfiltered fused statement alone on T (send_many's keyed batch loop), listener
    variations, batches of T events."""
    text = draw(fused_statement()).replace("(v > 0)", "").replace("(i in (1, 2, 3))", "")
    receivers = draw(st.sampled_from(("one", "two", "none", "raise", "esper", "into")))
    if receivers == "into":
        text = text.replace("context C select", "context C insert into Out2 select", 1)
    batches = draw(st.lists(st.lists(event("T").map(lambda e: e[1]), max_size=25), min_size=1, max_size=4))
    return draw(st.sampled_from(BATCH_CONTEXTS)), text, receivers, batches


def run_batches(context: str, text: str, receivers: str, batches: list, fusion: bool, many: bool) -> list:
    engine = Engine(time="simulated", start_time=0)
    engine.fusion = fusion
    for s in SCHEMAS:
        engine.epl(s)
    engine.epl(context)
    log: list = []
    stmt = engine.epl(f"@name('s') {text}")
    if receivers != "none":
        stmt.add_listener(lambda new, old: log.append(("s", _rows(new), _rows(old))))
    if receivers == "two":
        stmt.add_listener(lambda new, old: log.append(("s2", _rows(new))))
    elif receivers == "raise":
        def fail(new: Any, old: Any) -> None:
            raise RuntimeError("listener fails")
        stmt.add_listener(fail)
    elif receivers == "esper":
        stmt.add_listener(lambda new, old, s, e: log.append(("esper", _rows(new))), signature="esper")
    elif receivers == "into":
        engine.epl("select * from Out2").add_listener(lambda new, old: log.append(("out", _rows(new))))
    for batch in batches:
        if many:
            engine.send_many([dict(e) for e in batch], "T")
        else:
            for e in batch:
                engine.send(dict(e), "T")
        log.append(("iter", sorted(repr(sorted(r.items())) for r in stmt.rows())))
    engine.close()
    return log


@settings(max_examples=120, deadline=None)
@given(batch_scripts())
def test_send_many_batch_loop_delivers_as_the_general_chain(script: tuple) -> None:
    context, text, receivers, batches = script
    want = run_batches(context, text, receivers, batches, False, False)
    assert repr(run_batches(context, text, receivers, batches, True, True)) == repr(want)
    assert repr(run_batches(context, text, receivers, batches, True, False)) == repr(want)
    assert repr(run_batches(context, text, receivers, batches, False, True)) == repr(want)


def test_the_batch_loop_takes_a_keyed_context_alone_on_its_type() -> None:
    import engine.contexts.keyed_fused as kf
    calls: list = []
    real = kf.run_batch

    def spy(*args: Any) -> int:
        j = real(*args)
        calls.append(j - args[5])
        return j
    engine = Engine(time="simulated")
    engine.epl("create schema W(account string, amount double)")
    engine.epl("create context ByAcc partition by account from W")
    stmt = engine.epl("context ByAcc select account, sum(amount) from W#length(10)")
    stmt.add_listener(lambda new, old: None)
    from engine.fused import BATCH_RUNNERS
    k = BATCH_RUNNERS.index(real)
    BATCH_RUNNERS[k] = spy
    try:
        engine.send_many([{"account": f"a{j % 5}", "amount": 1.0} for j in range(100)], "W")
    finally:
        BATCH_RUNNERS[k] = real
    assert sum(calls) >= 95         # all but the first event (no partition yet: too short a check)
