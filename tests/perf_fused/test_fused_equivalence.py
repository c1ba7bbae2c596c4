"""Fused statements (engine/fused.py) against the general chain: random statements of each
fused shape and random operation scripts (send_many batches, single sends, stop/start,
destroy, iteration, listeners added, removed and failing, subscribers, checkpoint and
restore, insert-into chains) give the same deliveries in the same order with fusion on and
off."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from engine import Engine
from tests.perf_fused.script_runner import rows_of as _rows, run_script

SCHEMA = "create schema T(sym string, v double, i int)"
SYMS = ("a", "b", "c")
VALUES = (0.1, 0.2, 0.3, 1e16, -1.5, 3, None, -0.0, 2.5, 7, 0.001)
INTS = (1, -2, 7, None, 2**31 - 1, 0)
AGGS = ("count(*)", "count(v)", "sum(v)", "avg(v)", "min(v)", "max(v)", "sum(i)", "avg(i)",
        "stddev(v)", "median(v)", "count(i)", "max(i)")
WHERES = (None, "v > 0.15", "i is not null", "sym != 'b'", "v < 5 or i > 0")

events = st.fixed_dictionaries({"sym": st.sampled_from(SYMS), "v": st.sampled_from(VALUES),
                                "i": st.sampled_from(INTS)})


@st.composite
def fused_statement(draw: Any, into: bool = False) -> str:
    """A statement of a fused shape."""
    win = draw(st.sampled_from(("none", "length", "groupwin")))
    grouped = win != "length" and draw(st.booleans())
    n = draw(st.integers(1, 4))
    aggs = draw(st.lists(st.sampled_from(AGGS), min_size=1, max_size=3, unique=True))
    items = (["sym"] if grouped and draw(st.booleans()) else []) + aggs
    if draw(st.booleans()):
        items.reverse()
    if into or draw(st.booleans()):
        items = [f"{x} as c{k}" for k, x in enumerate(items)]
    view = {"none": "", "length": f"#length({n})", "groupwin": f"#groupwin(sym)#length({n})"}[win]
    filt = draw(st.sampled_from(("", "", "(v > 0)", "(sym in ('a', 'b'))")))
    where = draw(st.sampled_from(WHERES))
    text = f"select {', '.join(items)} from T{filt}{view}"
    if where:
        text += f" where {where}"
    if grouped:
        text += " group by sym"
    return ("insert into Out " if into else "") + text


OTHERS = ("select * from T(sym = 'a')", "select sym, v from T#length(2)",
          "select irstream count(*) as n from T#length(2)")

ops = st.one_of(
    st.tuples(st.just("many"), st.lists(events, max_size=12)),
    st.tuples(st.just("send"), events),
    st.tuples(st.sampled_from(("stop", "start", "iter", "raise", "sub", "unlisten", "destroy",
                               "relay", "send_in")),
              st.integers(0, 3)),
    st.tuples(st.just("checkpoint"), st.just(0)),
)


@st.composite
def scripts(draw: Any) -> tuple[list[str], list]:
    stmts = [draw(fused_statement())]
    if draw(st.booleans()):
        stmts.append(draw(fused_statement()))
    if draw(st.booleans()):
        stmts.append(draw(st.sampled_from(OTHERS)))
    if draw(st.booleans()):       # an insert-into chain: fused into Out, consumers of Out
        stmts.append(draw(fused_statement(into=True)))
        stmts.append("select count(*) as n from Out#length(2)")
    return stmts, draw(st.lists(ops, min_size=1, max_size=14)), draw(st.booleans())


def run(statements: list[str], script: list, fusion: bool,
        none_for_empty: bool = False) -> tuple[list, list]:
    """Run a script; returns (the log, per statement whether its instance was fused)."""
    return run_script(SCHEMA, statements, script, fusion, none_for_empty,
                      lambda s: type(s._instances[0].handles[0]).__name__ == "FusedHandle")


@settings(max_examples=150, deadline=None)
@given(scripts())
def test_fused_statements_deliver_as_the_general_chain(script: tuple) -> None:
    statements, steps, none_for_empty = script
    fused_log, fused = run(statements, steps, True, none_for_empty)
    chain_log, unfused = run(statements, steps, False, none_for_empty)
    assert fused == [True] and unfused == [False]
    # repr: exact float equality, -0.0 and 0.0 told apart
    assert repr(fused_log) == repr(chain_log)


@settings(max_examples=100, deadline=None)
@given(fused_statement(), st.lists(st.lists(events, max_size=30), min_size=1, max_size=4))
def test_send_many_batches_equal_single_sends(statement: str, batches: list) -> None:
    """The batch loop (the statement alone on its type) against per-event sends through the
    general chain."""
    fused_log, _ = run([statement], [("many", b) for b in batches], True)
    chain_log, _ = run([statement], [("send", e) for b in batches for e in b], False)
    assert repr(fused_log) == repr(chain_log)


# the batch loop's fast path (codegen._fast_block) by the types of the #groupwin key and of
# the aggregated property: keys of int, double and boolean columns (-0.0 and 0.0 one group
# whose rows show the leaving event's key, NaN, an int for a double), sums of longs (exact
# int, wrapped), values of other types and nulls falling back to the other steps
KEYED_SCHEMA = "create schema T(k int, f double, b boolean, v double, i long)"
KEYED_EVENTS = st.fixed_dictionaries({
    "k": st.sampled_from((1, 2, None, 2**40)), "f": st.sampled_from((0.0, -0.0, 1.5, 2, float("nan"), None)),
    "b": st.sampled_from((True, False, None)), "v": st.sampled_from(VALUES),
    "i": st.sampled_from((1, -3, 2**62, None, 0))})


@st.composite
def keyed_statement(draw: Any) -> str:
    key = draw(st.sampled_from(("k", "f", "b", None)))
    aggs = draw(st.lists(st.sampled_from(("sum(v)", "avg(v)", "count(*)", "count(v)", "sum(i)", "count(i)",
                                          "avg(i)")), min_size=1, max_size=3, unique=True))
    n = draw(st.integers(1, 3))
    if key is None:
        return f"select {', '.join(aggs)} from T#length({n})"
    grouped = draw(st.booleans())
    items = ([key] if grouped else []) + aggs
    text = f"select {', '.join(items)} from T#groupwin({key})#length({n})"
    return text + (f" group by {key}" if grouped else "")


@settings(max_examples=100, deadline=None)
@given(keyed_statement(), st.lists(st.one_of(
    st.tuples(st.just("many"), st.lists(KEYED_EVENTS, max_size=16)),
    st.tuples(st.just("send"), KEYED_EVENTS),
    st.tuples(st.sampled_from(("stop", "start", "iter", "checkpoint")), st.integers(0, 3))),
    min_size=1, max_size=8))
def test_fast_path_keys_and_values_of_other_types(statement: str, steps: list) -> None:
    logs = [run_script(KEYED_SCHEMA, [statement], steps, fusion, False,
                       lambda s: type(s._instances[0].handles[0]).__name__ == "FusedHandle")
            for fusion in (True, False)]
    assert logs[0][1] == [True] and logs[1][1] == [False]
    assert repr(logs[0][0]) == repr(logs[1][0])


def test_a_sum_restarts_when_its_window_empties() -> None:
    """Esper's AggregatorSum: the leave that takes the count to 0 resets the running sum, so
    the rounding residue of earlier additions does not survive (fused code does the same)."""
    for fusion in (True, False):
        engine = Engine(time="simulated")
        engine.fusion = fusion
        engine.epl(SCHEMA)
        stmt = engine.epl("select sum(v) as s, avg(v) as a from T#length(2) where v > 0")
        assert (type(stmt._instances[0].handles[0]).__name__ == "FusedHandle") is fusion
        got: list = []
        stmt.add_listener(lambda new, old: got.append(new[0].get("s")))
        engine.send_many([{"sym": "a", "v": v, "i": 1} for v in (0.1, 0.2, -1.0, -1.0, 0.001)], "T")
        # 0.1 + 0.2 - 0.1 leaves a residue; the window then empties and 0.001 starts afresh
        assert got == [0.1, 0.1 + 0.2, 0.1 + 0.2 - 0.1, None, 0.001]


def test_fusion_switches() -> None:
    """`engine.fusion = False` and EPL_FUSION=0 keep the general chain; shapes outside the
    fused ones keep it always."""
    import os
    text = "select sym, avg(v) from T#groupwin(sym)#length(3) group by sym"

    from engine.fused import is_fused

    def handle(epl: str, fusion: Any = None) -> str:
        engine = Engine(time="simulated")
        if fusion is not None:
            engine.fusion = fusion
        engine.epl(SCHEMA)
        stmt = engine.epl(epl)
        name = type(stmt._instances[0].handles[0]).__name__
        assert is_fused(stmt) is (name == "FusedHandle")
        return name
    assert handle(text) == "FusedHandle"
    assert handle(text, False) == "StreamHandle"
    os.environ["EPL_FUSION"] = "0"
    try:
        assert handle(text) == "StreamHandle"
        assert handle(text, True) == "FusedHandle"
    finally:
        del os.environ["EPL_FUSION"]
    for other in ("select sym, avg(v) from T#groupwin(sym)#length(3) group by sym having avg(v) > 1",
                  "select irstream sym, avg(v) from T#groupwin(sym)#length(3) group by sym",
                  "select sym, avg(v) from T#groupwin(i)#length(3) group by sym",
                  "select sym, avg(v) from T#unique(sym) group by sym",
                  "select sym, v, avg(v) from T group by sym",
                  "select count(distinct v) from T"):
        assert handle(other) == "StreamHandle", other


def test_subtype_events_reach_a_fused_statement_on_their_supertype() -> None:
    """Events of a subtype are checked against the subtype's declared properties."""
    import pytest
    from engine.errors import EventTypeError
    logs = []
    for fusion in (True, False):
        engine = Engine(time="simulated")
        engine.fusion = fusion
        engine.epl(SCHEMA)
        engine.epl("create schema T2(extra int) inherits T")
        log: list = []
        engine.epl("select sym, sum(v) as s from T#groupwin(sym)#length(2) group by sym").add_listener(
            lambda new, old: log.append(_rows(new)))
        engine.send_many([{"sym": "a", "v": 1.5, "i": 1, "extra": 2}] * 3, "T2")
        engine.send_many([{"sym": "a", "v": 2.5, "i": 1}] * 2, "T")
        with pytest.raises(EventTypeError):
            engine.send_many([{"sym": "a", "v": 1.0, "i": 1, "extra": "not an int"}], "T2")
        logs.append(log)
    assert logs[0] == logs[1] and len(logs[0]) == 5


def test_column_names_reach_generated_code_only_as_literals() -> None:
    text = "select count(*) as `it's\"}); x = ({`, sum(v) as `a\\nb` from T#length(2)"
    rows = []
    for fusion in (True, False):
        engine = Engine(time="simulated")
        engine.fusion = fusion
        engine.epl(SCHEMA)
        stmt = engine.epl(text)
        assert (type(stmt._instances[0].handles[0]).__name__ == "FusedHandle") is fusion
        got: list = []
        stmt.add_listener(lambda new, old: got.append(new[0].to_dict()))
        engine.send_many([{"sym": "a", "v": 1.0, "i": 1}] * 3, "T")
        rows.append(got)
    assert rows[0] == rows[1] and rows[0][-1] == {"it's\"}); x = ({": 2, "a\nb": 2.0}
