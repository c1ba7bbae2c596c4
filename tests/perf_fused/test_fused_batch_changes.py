"""A fused statement's send_many loop (alone on its type) when its own listener changes what
the loop snapshotted, mid-batch: listeners and subscribers added or removed, other statements
on the type created or destroyed, the statement stopped, the event type declared again. The
deliveries equal the general chain's (fusion off), in the same order."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from engine import Engine
from tests.perf_fused.script_runner import rows_of
from tests.perf_fused.test_fused_equivalence import SCHEMA, events, fused_statement

ACTIONS = ("listen", "esper", "unlisten", "sub", "unsub", "other", "filtered", "drop_other", "stop",
           "retype", "route", "nothing")
# (a filtered statement on the type: an index under the type's root, a change the loop sees
# only through the change counter that route changes bump, filterindex/tree.py)
FILTERED = "select sym, v from T(sym = 'b')"


class _Sub:
    def __init__(self, log: list) -> None:
        self.log = log

    def update(self, *row: Any) -> None:
        self.log.append(("sub", row))


def run(statement: str, batches: list, actions: dict, fusion: bool,
        context: bool = False) -> tuple[list, bool]:
    """`context`: the statement in a keyed context by `sym` (engine/contexts/keyed_fused.py's
    batch loop). A batch "checkpoint" restores the engine from a checkpoint (the main
    listener only goes along)."""
    engine = Engine(time="simulated")
    engine.fusion = fusion
    schema = [engine.epl(SCHEMA)]
    if context:
        engine.epl("create context C partition by sym from T")
        statement = "context C " + statement
    engine.epl("create schema U(n int)")
    log: list = []
    engine.epl("@name('u') select count(*) as n from U").add_listener(
        lambda new, old: log.append(("u", rows_of(new))))
    cur = {"engine": engine, "stmt": engine.epl(f"@name('s') {statement}")}
    others: list = []
    calls = [0]

    def second(new: Any, old: Any) -> None:
        log.append(("second", rows_of(new)))

    def main(new: Any, old: Any) -> None:
        log.append(("main", rows_of(new)))
        calls[0] += 1
        act = actions.get(calls[0])
        engine, stmt = cur["engine"], cur["stmt"]
        if act == "listen":
            stmt.add_listener(second)
        elif act == "esper":
            stmt.add_listener(lambda n, o, s, e: log.append(("esper", rows_of(n))), signature="esper")
        elif act == "unlisten":
            stmt.remove_listener(main)
        elif act == "sub":
            stmt.subscriber = _Sub(log)
        elif act == "unsub":
            stmt.subscriber = None
        elif act in ("other", "filtered"):
            s = engine.epl("select sym, v from T" if act == "other" else FILTERED)
            s.add_listener(lambda n, o: log.append(("other", rows_of(n))))
            others.append(s)
        elif act == "drop_other" and others:
            others.pop().destroy()
        elif act == "stop":
            stmt.stop()
        elif act == "retype":
            # the type leaves the registry and a new one takes its name: the rest of the
            # batch is of the new type (nothing selects it)
            schema.pop().destroy() if schema else None
            if engine.types.find("T") is None:
                schema.append(engine.epl("create schema T(sym string, v double, i int, x int)"))
        elif act == "route":
            engine.route({"n": 1}, "U")
    cur["stmt"].add_listener(main)
    fused = context or type(cur["stmt"]._instances[0].handles[0]).__name__ == "FusedHandle"
    for batch in batches:
        if batch == "checkpoint":
            if not schema:
                continue        # (the schema statement is gone: nothing to restore it from)
            engine = Engine.restore(cur["engine"].checkpoint(), listeners={"s": main})
            cur["engine"], cur["stmt"] = engine, engine.statement("s")
            schema[:] = [s for s in engine.statements if s.text == SCHEMA]
            others[:] = [s for s in engine.statements if s.text in ("select sym, v from T", FILTERED)]
            continue
        try:
            cur["engine"].send_many(batch, "T")
        except Exception as exc:        # (none expected: both runs would log the same)
            log.append(("raised", type(exc).__name__))
    return log, fused


batches = st.lists(st.one_of(st.lists(events, max_size=20), st.just("checkpoint")), min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(fused_statement(), batches,
       st.dictionaries(st.integers(1, 25), st.sampled_from(ACTIONS), max_size=4))
def test_changes_made_by_listeners_mid_batch(statement: str, batches: list, actions: dict) -> None:
    fused_log, fused = run(statement, batches, actions, True)
    chain_log, unfused = run(statement, batches, actions, False)
    assert fused and not unfused
    assert repr(fused_log) == repr(chain_log)


@settings(max_examples=100, deadline=None)
@given(fused_statement().map(lambda t: t.replace("(v > 0)", "").replace("(sym in ('a', 'b'))", "")),
       batches,
       st.dictionaries(st.integers(1, 25), st.sampled_from(ACTIONS), max_size=4))
def test_changes_made_by_listeners_mid_batch_in_a_keyed_context(statement: str, batches: list,
                                                                 actions: dict) -> None:
    fused_log, _ = run(statement, batches, actions, True, context=True)
    chain_log, _ = run(statement, batches, actions, False, context=True)
    assert repr(fused_log) == repr(chain_log)


def test_a_statement_created_mid_batch_without_a_listener_gets_the_next_events() -> None:
    """The loop returns once its listener created a statement on its type, with no
    listener of its own (no listener change): unfiltered (a second handle at the type's
    root) or filtered (an index under the root). The route's change moves the change
    counter (filterindex/tree.py), so the new statement counts the events after the one
    whose listener made it."""
    for filt in ("", "(sym = 'b')"):
        got = []
        for fusion in (True, False):
            engine = Engine(time="simulated")
            engine.fusion = fusion
            engine.epl(SCHEMA)
            made: list = []

            def main(new: Any, old: Any, engine: Engine = engine, made: list = made) -> None:
                if not made:
                    made.append(engine.epl(f"select count(*) as n from T{filt}"))
            engine.epl("select sym, count(*) as n from T#groupwin(sym)#length(3) group by sym").add_listener(main)
            engine.send_many([{"sym": "b", "v": 1.0, "i": 1}] * 4, "T")
            got.append(list(made[0].rows()))
        assert got == [[{"n": 3}], [{"n": 3}]], filt


def test_a_listener_added_mid_batch_gets_the_next_event() -> None:
    for fusion in (True, False):
        log, _ = run("select sym, count(*) as n from T#groupwin(sym)#length(3) group by sym",
                     [[{"sym": "a", "v": 1.0, "i": 1}] * 4], {2: "listen", 3: "unlisten"}, fusion)
        assert [e[0] for e in log] == ["main", "main", "main", "second", "second"]
