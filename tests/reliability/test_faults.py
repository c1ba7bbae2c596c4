"""Faults inside evaluation never escape send nor corrupt state: a user function or getter
that raises is null (evaluation_error signal and a log line); a statement that still fails
skips that event alone (statement_error signal), the others and insert-into go on."""
from __future__ import annotations

import logging
from dataclasses import dataclass

from hypothesis import given, settings, strategies as st

from engine import Engine
from recording import Rec


def _collect(signal):
    seen = []
    signal.connect(lambda sender, **kw: seen.append(kw), weak=False)
    return seen


def test_math_sqrt_of_a_negative_is_nan_and_other_statements_are_unaffected():
    e = Engine(time="simulated")
    e.epl("create schema D(d double)")
    r1 = Rec(e.epl("select Math.sqrt(d) as r from D"))
    r2 = Rec(e.epl("select d from D"))
    for d in (1.0, -1.0, 4.0):
        e.send({"d": d}, "D")
    out = [c[0]["r"] for c in r1.pop()]
    assert out[0] == 1.0 and out[1] != out[1] and out[2] == 2.0
    assert r2.pop() == [[{"d": 1.0}], [{"d": -1.0}], [{"d": 4.0}]]


def test_user_function_that_raises_is_null_with_a_signal_and_a_log_line(caplog):
    e = Engine(time="simulated")
    e.epl("create schema D(d double)")

    def inverse(x):
        return 1 / x                       # ZeroDivisionError for 0: a Python function's
    e.register_function("inverse", inverse, result_type="double")
    errors = _collect(e.signals.evaluation_error)
    s = e.epl("@name('inv') select inverse(d) as r, sum(inverse(d)) as s from D")
    rec = Rec(s)
    with caplog.at_level(logging.WARNING, logger="epl.engine"):
        for d in (2.0, 0.0, 4.0):
            e.send({"d": d}, "D")
    assert [c[0] for c in rec.pop()] == [{"r": 0.5, "s": 0.5}, {"r": None, "s": 0.5},
                                         {"r": 0.25, "s": 0.75}]
    assert len(errors) == 2                # the select column and the aggregation argument
    assert errors[0]["statement"] is s and isinstance(errors[0]["error"], ZeroDivisionError)
    assert "inverse(d)" in errors[0]["expression"]
    assert any("evaluated as null" in r.getMessage() for r in caplog.records)


class Quote:
    sym: str

    def __init__(self, sym, fail=False):
        self.sym = sym
        self._fail = fail

    @property
    def mid(self) -> float:
        if self._fail:
            raise RuntimeError("feed down")
        return 1.5


def test_a_user_getter_that_raises_is_null_with_a_signal():
    e = Engine(time="simulated")
    e.register_type(Quote)
    errors = _collect(e.signals.evaluation_error)
    s = e.epl("select sym, mid, count(mid) as n from Quote")
    rec = Rec(s)
    for fail in (False, True, False):
        e.send(Quote("a", fail))
    assert [c[0] for c in rec.pop()] == [{"sym": "a", "mid": 1.5, "n": 1},
                                         {"sym": "a", "mid": None, "n": 1},
                                         {"sym": "a", "mid": 1.5, "n": 2}]
    assert errors and errors[0]["statement"] is s and "Quote.mid" in errors[0]["expression"]


class Exploding:
    """A user aggregation whose enter raises: an error nothing can turn into a value."""

    def __init__(self):
        self.n = 0

    def enter(self, v):
        if v == 13:
            raise ValueError("unlucky")
        self.n += 1

    def leave(self, v):
        self.n -= 1

    def value(self):
        return self.n

    def clear(self):
        self.n = 0


def test_a_failing_statement_skips_the_event_and_the_others_process_it():
    e = Engine(time="simulated")
    e.epl("create schema N(v int)")
    e.register_aggregation("boom", Exploding)
    failures = _collect(e.signals.statement_error)
    bad = e.epl("@name('bad') insert into Out select boom(v) as b from N")
    before = Rec(e.epl("@name('plain') select v from N"))
    derived = Rec(e.epl("insert into Doubled select v * 2 as w from N"))
    down = Rec(e.epl("select w from Doubled"))
    out = Rec(e.epl("select b from Out"))
    for v in (1, 13, 2):
        e.send({"v": v}, "N")
    assert before.pop() == [[{"v": 1}], [{"v": 13}], [{"v": 2}]]
    assert derived.pop() == [[{"w": 2}], [{"w": 26}], [{"w": 4}]]
    assert down.pop() == [[{"w": 2}], [{"w": 26}], [{"w": 4}]]     # insert-into not lost
    assert out.pop() == [[{"b": 1}], [{"b": 2}]]
    assert len(failures) == 1 and failures[0]["statement"] is bad


def test_object_typed_arithmetic_on_a_non_number_is_null():
    e = Engine(time="simulated")
    e.epl("create schema O(o object)")
    errors = _collect(e.signals.evaluation_error)
    failures = _collect(e.signals.statement_error)
    rec = Rec(e.epl("select o + 1 as a, -o as b, o & 1 as c, Math.abs(o) as d, o > 5 as g from O"))
    e.send({"o": "abc"}, "O")
    e.send({"o": 2}, "O")
    assert rec.pop() == [[{"a": None, "b": None, "c": None, "d": None, "g": None}],
                         [{"a": 3, "b": -2, "c": 0, "d": 2, "g": False}]]
    assert not failures
    assert len(errors) == 4


# -- model: failing events equal a run where the failing value is null ---------------------------

@dataclass
class Tick:
    sym: str
    price: float
    fail: bool = False


STATEMENTS = (
    "select sym, avg(f(price)) as a, sum(f(price)) as s, count(f(price)) as c "
    "from Tick#length(3) group by sym",
    "select irstream sym, f(price) as v from Tick#length(2)",
    "select sym, price from Tick(price > 2)",
    "insert into Fwd select sym, f(price) as v from Tick",
    "select sym, sum(v) as t from Fwd#time(2 sec) group by sym",
)


def _run(events, failing: bool):
    """Statements calling f(price, fail): f raises for failing events (failing=True), or
    returns null for them (the model). Deterministic per event: Esper evaluates aggregation
    arguments again when the event leaves a window."""
    e = Engine(time="simulated")
    e.register_type(Tick)

    def f(x, fail):
        if fail:
            if failing:
                raise RuntimeError("user code failed")
            return None
        return x * 2
    e.register_function("f", f, result_type="double")
    recs = [Rec(e.epl(s.replace("f(price)", "f(price, fail)"))) for s in STATEMENTS]
    t = 0
    for sym, price, fail, dt in events:
        t += dt
        e.advance_time(t)
        e.send(Tick(sym, price, fail))
    return [r.pop() for r in recs]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ab"), st.integers(0, 5).map(float), st.booleans(),
                          st.integers(0, 1500)), max_size=20))
def test_failing_user_function_equals_a_run_with_null(events):
    assert _run(events, failing=True) == _run(events, failing=False)


def test_a_user_function_returning_another_type_than_declared_is_null():
    e = Engine(time="simulated")
    e.epl("create schema D(d double)")
    e.register_function("f", lambda x: "oops" if x < 0 else x, result_type="double")
    errors = _collect(e.signals.evaluation_error)
    rec = Rec(e.epl("select f(d) as v, sum(f(d)) as s, count(f(d)) as c from D#length(2)"))
    for d in (1.0, -1.0, 2.0, 3.0):
        e.send({"d": d}, "D")
    assert [c[0] for c in rec.pop()] == [{"v": 1.0, "s": 1.0, "c": 1}, {"v": None, "s": 1.0, "c": 1},
                                         {"v": 2.0, "s": 2.0, "c": 1}, {"v": 3.0, "s": 5.0, "c": 2}]
    assert errors and "declared a number" in str(errors[0]["error"])


OTHERS = (
    "select v, count(*) as c, sum(v) as s from N#length(3)",
    "insert into M select v * 2 as w from N(v > 0)",
    "select w, count(*) as c from M#time(1 sec) group by w",
    "select a.v as x, b.v as y from pattern [every a=N(v = 13) -> b=N(v > a.v)]",
)


def _others(events, with_failing: bool):
    e = Engine(time="simulated")
    e.epl("create schema N(v int)")
    e.register_aggregation("boom", Exploding)
    if with_failing:       # created first: it sees every event before the others
        e.epl("insert into Out select boom(v) as b from N#length(2)")
        e.epl("select b from Out")
    recs = [Rec(e.epl(s)) for s in OTHERS]
    t = 0
    for v, dt in events:
        t += dt
        e.advance_time(t)
        e.send({"v": v}, "N")
    return [r.pop() for r in recs]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([1, 2, 13, 20]), st.integers(0, 700)), max_size=25))
def test_a_failing_statement_changes_nothing_for_the_others(events):
    assert _others(events, with_failing=True) == _others(events, with_failing=False)


class _Feed:
    """A nested user object whose property getter raises."""

    @property
    def mid(self) -> float:
        raise RuntimeError("feed down")


def test_the_sandbox_names_user_code_faults_apart_from_its_own():
    from engine import sandbox
    import pytest
    with pytest.raises(sandbox.UserCodeError) as info:
        sandbox.step(_Feed(), "mid")
    assert isinstance(info.value.error, RuntimeError)
    assert sandbox.step({"mid": 1}, "mid") == 1


def test_a_nested_user_getter_that_raises_is_null_with_a_signal():
    e = Engine(time="simulated")
    e.epl("create schema Q(feed object)")
    errors = _collect(e.signals.evaluation_error)
    rec = Rec(e.epl("select feed.mid as m from Q"))
    e.send({"feed": _Feed()}, "Q")
    assert [c[0] for c in rec.pop()] == [{"m": None}]
    assert errors and "Q.feed.mid" in errors[0]["expression"]
