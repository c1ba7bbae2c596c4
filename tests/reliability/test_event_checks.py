"""Events whose values do not fit their type are refused by send before any statement sees
them: map events, dataclass events and annotated plain-class events alike."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings, strategies as st

from engine import Engine
from engine.errors import EventTypeError
from recording import Rec


@dataclass
class Tick:
    sym: str
    price: float


class Plain:
    sym: str
    qty: int

    def __init__(self, sym, qty):
        self.sym = sym
        self.qty = qty

    @property
    def doubled(self) -> int:
        raise AssertionError("send must not call property getters to check an event")


def test_dataclass_with_a_wrong_typed_value_is_refused_and_state_stays_right():
    e = Engine(time="simulated")
    e.register_type(Tick)
    s = e.epl("select avg(price) as a, sum(price) as s, count(*) as c from Tick#length(3)")
    rec = Rec(s)
    e.send(Tick("a", 1.0))
    with pytest.raises(EventTypeError, match="property 'price' expects a number, got str 'abc'"):
        e.send(Tick("a", "abc"))
    for p in (3.0, 5.0, 7.0):
        e.send(Tick("a", p))
    assert [c[0] for c in rec.pop()] == [
        {"a": 1.0, "s": 1.0, "c": 1}, {"a": 2.0, "s": 4.0, "c": 2},
        {"a": 3.0, "s": 9.0, "c": 3}, {"a": 5.0, "s": 15.0, "c": 3}]


def test_annotated_plain_class_is_checked_without_calling_properties():
    e = Engine(time="simulated")
    e.register_type(Plain)
    s = e.epl("select sym, qty from Plain")
    rec = Rec(s)
    e.send(Plain("a", 1))
    with pytest.raises(EventTypeError, match="'qty' expects an integer, got str"):
        e.send(Plain("a", "1"))
    with pytest.raises(EventTypeError, match="'qty' expects an integer, got bool"):
        e.send(Plain("a", True))
    assert rec.pop() == [[{"sym": "a", "qty": 1}]]


def test_an_event_no_filter_wants_is_not_checked():
    e = Engine(time="simulated")
    e.register_type(Tick)
    e.send(Tick("a", "abc"))          # nothing listens: nothing to protect, no cost


def test_send_many_refuses_the_same_events():
    e = Engine(time="simulated")
    e.register_type(Tick)
    rec = Rec(e.epl("select sum(price) as s from Tick"))
    with pytest.raises(EventTypeError):
        e.send_many([Tick("a", 1.0), Tick("a", "x")])
    assert rec.pop() == [[{"s": 1.0}]]


def _run(events, skip_bad: bool):
    e = Engine(time="simulated")
    e.register_type(Tick)
    stmts = [e.epl("select sym, avg(price) as a, sum(price) as s, count(*) as c "
                   "from Tick#length(3) group by sym"),
             e.epl("select irstream sym, price from Tick(price > 2)#length(2)"),
             e.epl("select max(price) as m, min(price) as n from Tick#time(2 sec)")]
    recs = [Rec(s) for s in stmts]
    t = 0
    for sym, price, dt in events:
        t += dt
        e.advance_time(t)
        if isinstance(price, str):
            if skip_bad:
                continue
            with pytest.raises(EventTypeError):
                e.send(Tick(sym, price))
        else:
            e.send(Tick(sym, price))
    return [r.pop() for r in recs]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ab"),
                          st.one_of(st.integers(0, 5).map(float), st.just("bad")),
                          st.integers(0, 1500)), max_size=25))
def test_refused_events_leave_every_statement_as_if_never_sent(events):
    assert _run(events, skip_bad=False) == _run(events, skip_bad=True)


class Slotted:
    __slots__ = ("sym", "qty")
    sym: str
    qty: int

    def __init__(self, sym, qty):
        self.sym = sym
        self.qty = qty


class Cached:
    sym: str

    def __init__(self, sym):
        self.sym = sym

    from functools import cached_property

    @cached_property
    def heavy(self) -> int:
        raise AssertionError("the check must not run user code")


def test_slotted_classes_are_checked_and_descriptors_are_never_read():
    e = Engine(time="simulated")
    e.register_type(Slotted)
    e.register_type(Cached)
    rec = Rec(e.epl("select sym from Slotted"))
    Rec(e.epl("select sym from Cached"))
    e.send(Slotted("a", 1))
    with pytest.raises(EventTypeError, match="'qty' expects an integer"):
        e.send(Slotted("a", 1.5))
    e.send(Cached(sym="b"))
    assert rec.pop() == [[{"sym": "a"}]]


# -- map types: the checker against a model of what each declared type accepts -------------
class _Int(int):
    pass


class _Str(str):
    pass


class _Float(float):
    pass


_DECLARED = {          # EPL type -> (accepts, label)
    "string": (lambda v: isinstance(v, str), "a string"),
    "boolean": (lambda v: type(v) is bool, "a boolean"),
    "int": (lambda v: isinstance(v, int) and type(v) is not bool, "an integer"),
    "long": (lambda v: isinstance(v, int) and type(v) is not bool, "an integer"),
    "double": (lambda v: isinstance(v, (int, float)) and type(v) is not bool, "a number"),
    "int[]": (lambda v: isinstance(v, (list, tuple)), "an array"),
    "java.util.Map": (lambda v: isinstance(v, dict), "a map"),
}
_MISSING = object()
_VALUES = [_MISSING, None, 0, 7, -1, True, False, _Int(3), 2.5, 0.0, _Float(1.5), "x", _Str("y"),
           "", [1], (2,), {"k": 1}, b"b"]


def _model(name: str, props: list[tuple[str, str]], ev: dict):
    """The first declared property whose value its type refuses (null or missing: fine)."""
    for p, t in props:
        v = ev.get(p)
        if v is None:
            continue
        accepts, label = _DECLARED[t]
        if not accepts(v):
            return f"Event of type '{name}': property '{p}' expects {label}, got {type(v).__name__} {v!r}"
    return None


@settings(max_examples=200, deadline=None)
@given(types=st.lists(st.sampled_from(sorted(_DECLARED)), min_size=1, max_size=4),
       values=st.lists(st.lists(st.sampled_from(_VALUES), min_size=4, max_size=4), min_size=1, max_size=8),
       many=st.booleans())
def test_a_map_event_is_refused_as_its_declared_types_say(types, values, many):
    """Whatever shortcut the checker (and send's front, which inlines it) takes for the
    common case: the same events pass, the same are refused, with the same message, through
    send (inlined after a few sends) and send_many."""
    props = [(f"p{i}", t) for i, t in enumerate(types)]
    e = Engine(time="simulated")
    e.epl(f"create schema M({', '.join(f'{p} {t}' for p, t in props)})")
    got: list = []
    e.epl("select * from M").add_listener(lambda new, old: got.extend(n.underlying for n in new))
    for vs in values * 12:           # rounds: the front inlines the type's routing
        ev = {p: v for (p, _), v in zip(props, vs) if v is not _MISSING}
        want = _model("M", props, ev)
        del got[:]
        try:
            if many:
                e.send_many([ev], types=["M"])
            else:
                e.send(ev, "M")
            err = None
        except EventTypeError as exc:
            err = str(exc)
        assert err == want
        assert got == ([] if want else [ev])
