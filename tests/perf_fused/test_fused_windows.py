"""Fused statements over #time_batch, #length_batch and #time (engine/fused_windows.py)
against the general chain: random statements of those shapes (grouped or not, where
clauses, insert/remove streams, the batch options) and random scripts of sends, time
advances, stop/start, iteration, checkpoints and listener changes give the same deliveries
in the same order with fusion on and off."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from engine import Engine
from engine.fused import is_fused
from tests.perf_fused.script_runner import rows_of as _rows, run_script

SCHEMA = "create schema T(sym string, v double, i int, n long)"
SYMS = ("a", "b", "c", "d")
VALUES = (0.1, 0.2, 0.3, 1e16, -1.5, 3, None, -0.0, 2.5, 7, 0.001)
INTS = (1, -2, 7, None, 2**31 - 1, 0)
AGGS = ("count(*)", "count(v)", "sum(v)", "avg(v)", "min(v)", "max(v)", "sum(i)", "avg(i)",
        "stddev(v)", "median(v)", "count(i)", "max(i)", "sum(n)", "avg(n)")
WHERES = (None, "v > 0.15", "i is not null", "sym != 'b'", "v < 5 or i > 0")
STEPS = (0, 1, 99, 100, 250, 499, 500, 501, 1000, 1500, 3000)

events = st.fixed_dictionaries({"sym": st.sampled_from(SYMS), "v": st.sampled_from(VALUES),
                                "i": st.sampled_from(INTS), "n": st.sampled_from(INTS)})


@st.composite
def window_statement(draw: Any) -> str:
    """A statement of a fused window shape."""
    kind = draw(st.sampled_from(("time_batch", "length_batch", "time", "length")))
    if kind == "time_batch":
        args = [draw(st.sampled_from(("500 msec", "1 sec", "0.25 sec")))]
        if draw(st.booleans()):
            args.append(str(draw(st.sampled_from((0, 100, 1250)))))
        flags = draw(st.sampled_from((None, "FORCE_UPDATE", "START_EAGER", "FORCE_UPDATE, START_EAGER")))
        if flags:
            args.append(f"'{flags}'")
        view = f"#time_batch({', '.join(args)})"
    elif kind == "length_batch":
        view = f"#length_batch({draw(st.integers(1, 5))})"
    elif kind == "time":
        view = f"#time({draw(st.sampled_from(('250 msec', '1 sec', '2 sec')))})"
    else:
        view = f"#length({draw(st.integers(1, 4))})"
    grouped = kind == "length" or draw(st.booleans())   # (ungrouped #length: the older shape)
    aggs = draw(st.lists(st.sampled_from(AGGS), min_size=1, max_size=3, unique=True))
    items = (["sym"] if grouped and draw(st.booleans()) else []) + aggs
    if draw(st.booleans()):
        items.reverse()
    if draw(st.booleans()):
        items = [f"{x} as c{k}" for k, x in enumerate(items)]
    selector = draw(st.sampled_from(("", "", "irstream ", "rstream ", "istream ")))
    filt = draw(st.sampled_from(("", "", "(v > 0)", "(sym in ('a', 'b'))")))
    where = draw(st.sampled_from(WHERES))
    text = f"select {selector}{', '.join(items)} from T{filt}{view}"
    if where:
        text += f" where {where}"
    if grouped:
        text += " group by sym"
    return text


OTHERS = ("select * from T(sym = 'a')", "select sym, v from T#length(2)",
          "select irstream count(*) as n from T#time_batch(1 sec)")

ops = st.one_of(
    st.tuples(st.just("many"), st.lists(events, max_size=12)),
    st.tuples(st.just("send"), events),
    st.tuples(st.just("advance"), st.sampled_from(STEPS)),
    st.tuples(st.just("advance"), st.sampled_from(STEPS)),
    st.tuples(st.just("span"), st.sampled_from(STEPS)),
    st.tuples(st.sampled_from(("stop", "start", "iter", "raise", "unlisten", "destroy", "relay")),
              st.integers(0, 3)),
    st.tuples(st.just("checkpoint"), st.just(0)),
    # an isolated service: statements move in and out with their windows and timers
    st.tuples(st.sampled_from(("isolate", "unisolate")), st.integers(0, 3)),
    st.tuples(st.just("iso_send"), events),
    st.tuples(st.just("iso_advance"), st.sampled_from(STEPS)),
)


@st.composite
def scripts(draw: Any) -> tuple:
    stmts = [draw(window_statement())]
    if draw(st.booleans()):
        stmts.append(draw(window_statement()))
    if draw(st.booleans()):
        stmts.append(draw(st.sampled_from(OTHERS)))
    if draw(st.booleans()):       # an insert-into chain out of a fused statement
        stmts.append("insert into Out " + draw(window_statement()))
        stmts.append("select count(*) as n from Out#length(2)")
    return stmts, draw(st.lists(ops, min_size=1, max_size=20)), draw(st.booleans())


def run(statements: list[str], script: list, fusion: bool, none_for_empty: bool = False) -> tuple[list, list]:
    """Run a script; returns (the log, per statement whether it was fused). Besides the
    shared operations: statements moved into an isolated service and back, and sends and
    time steps there (no checkpoints once a service exists)."""
    iso: list = []

    def isolation(engine: Engine, op: str, arg: Any, names: list[str]) -> bool:
        if op not in ("isolate", "unisolate", "iso_send", "iso_advance"):
            return False
        if not iso:
            iso.append(engine.isolated("iso"))
            iso[0].advance_time(engine.now)
        service = iso[0]
        if op == "iso_send":
            service.send(arg, "T")
        elif op == "iso_advance":
            service.advance_time(service.now + arg)
        else:
            live = [s for s in engine.statements if s.name in names]
            stmt = live[arg % len(live)] if live else None
            if stmt is not None and stmt.is_started:
                if op == "isolate" and getattr(stmt, "_isolated", None) is None:
                    service.add(stmt)
                elif op == "unisolate" and getattr(stmt, "_isolated", None) is service:
                    service.remove(stmt)
        return True
    return run_script(SCHEMA, statements, script, fusion, none_for_empty, is_fused, start_at=1000,
                      extra_op=isolation, may_checkpoint=lambda: not iso)


@settings(max_examples=100, deadline=None)
@given(scripts())
def test_fused_windows_deliver_as_the_general_chain(script: tuple) -> None:
    statements, steps, none_for_empty = script
    fused_log, fused = run(statements, steps, True, none_for_empty)
    chain_log, unfused = run(statements, steps, False, none_for_empty)
    assert fused == [True] and unfused == [False]
    # repr: exact float equality, -0.0 and 0.0 told apart
    assert repr(fused_log) == repr(chain_log)


@settings(max_examples=40, deadline=None)
@given(window_statement(), st.lists(st.tuples(st.lists(events, max_size=40), st.sampled_from(STEPS)),
                                    min_size=1, max_size=6))
def test_large_batches(statement: str, batches: list) -> None:
    """Many events per batch and groups that come and go between batches."""
    script = [step for evs, dt in batches for step in (("many", evs), ("advance", dt))]
    fused_log, fused = run([statement], script, True)
    chain_log, _ = run([statement], script, False)
    assert fused == [True]
    assert repr(fused_log) == repr(chain_log)


def test_time_batch_posts_groups_that_went_empty() -> None:
    """Esper's time batch with group by: a row per group of the new or the old batch; a
    group only in the old batch posts its emptied aggregation (null sum, zero count)."""
    got: dict = {}
    for fusion in (True, False):
        engine = Engine(time="simulated")
        engine.fusion = fusion
        engine.epl(SCHEMA)
        stmt = engine.epl("select irstream sym, sum(v) as s, count(*) as c from T#time_batch(1 sec) group by sym")
        assert is_fused(stmt) is fusion
        log: list = []
        stmt.add_listener(lambda new, old: log.append((_rows(new), _rows(old))))
        engine.send_many([{"sym": "a", "v": 1.0, "i": 1, "n": 1}, {"sym": "b", "v": 2.0, "i": 1, "n": 1}], "T")
        engine.advance_time(1000)
        engine.send({"sym": "b", "v": 3.0, "i": 1, "n": 1}, "T")
        engine.advance_time(2000)
        engine.advance_time(3000)
        engine.advance_time(4000)
        got[fusion] = log
    assert got[True] == got[False]
    assert got[True] == [
        ([[("c", 1), ("s", 1.0), ("sym", "a")], [("c", 1), ("s", 2.0), ("sym", "b")]],
         [[("c", 0), ("s", None), ("sym", "a")], [("c", 0), ("s", None), ("sym", "b")]]),
        ([[("c", 0), ("s", None), ("sym", "a")], [("c", 1), ("s", 3.0), ("sym", "b")]],
         [[("c", 1), ("s", 1.0), ("sym", "a")], [("c", 1), ("s", 2.0), ("sym", "b")]]),
        ([[("c", 0), ("s", None), ("sym", "b")]], [[("c", 1), ("s", 3.0), ("sym", "b")]]),
    ]


def test_window_shapes_fuse() -> None:
    for text in ("select sym, sum(v) from T#time_batch(1 sec) group by sym",
                 "select irstream sum(v), count(*) from T#time_batch(1 sec, 0L, 'FORCE_UPDATE')",
                 "select rstream sym, avg(v) from T#length_batch(3) where v > 0 group by sym",
                 "select sym, max(v) from T#time(2 sec) group by sym",
                 "select irstream sym, avg(v) from T#length(3) group by sym"):
        engine = Engine(time="simulated")
        engine.epl(SCHEMA)
        assert is_fused(engine.epl(text)), text
    for text in ("select sym, sum(v) from T#time_batch(1 sec) group by sym output every 2 sec",
                 "select sym, sum(v) from T#time_batch(1 sec) group by sym having sum(v) > 1",
                 "select sym, v, sum(v) from T#time_batch(1 sec) group by sym",
                 "select sym, sum(v) from T#groupwin(sym)#time_batch(1 sec) group by sym"):
        engine = Engine(time="simulated")
        engine.epl(SCHEMA)
        assert not is_fused(engine.epl(text)), text
