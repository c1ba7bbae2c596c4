"""The filter index against a linear scan of every registered spec (hypothesis)."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    invariant,
    rule,
    run_state_machine_as_test,
)

import filterindex.codegen as codegen
from engine.bean import EventBean
from engine.event_types import EventTypeRegistry
from filterindex import NO_MATCH, FilterIndex, FilterOp, FilterParam, FilterSpec

# -- the model: every operator evaluated directly --------------------------------------
_LOW_IN = {FilterOp.RANGE_CLOSED, FilterOp.RANGE_HALF_OPEN,
           FilterOp.NOT_RANGE_CLOSED, FilterOp.NOT_RANGE_HALF_OPEN}
_HIGH_IN = {FilterOp.RANGE_CLOSED, FilterOp.RANGE_HALF_CLOSED,
            FilterOp.NOT_RANGE_CLOSED, FilterOp.NOT_RANGE_HALF_CLOSED}
_RANGES = {FilterOp.RANGE_CLOSED, FilterOp.RANGE_OPEN, FilterOp.RANGE_HALF_OPEN,
           FilterOp.RANGE_HALF_CLOSED}
_NOT_RANGES = {FilterOp.NOT_RANGE_CLOSED, FilterOp.NOT_RANGE_OPEN,
               FilterOp.NOT_RANGE_HALF_OPEN, FilterOp.NOT_RANGE_HALF_CLOSED}


class _Incomparable(Exception):
    pass


def _c(fn):
    try:
        return bool(fn())
    except TypeError:
        raise _Incomparable from None


def naive_param(p: FilterParam, bean: EventBean) -> bool:
    op, value = p.op, p.value
    if op is FilterOp.BOOL_EXPR:
        return bool(value(bean))
    v = bean.underlying.get(p.lookup)
    if op is FilterOp.IS:
        return (v is None and value is None) or (v is not None and value is not None and v == value)
    if op is FilterOp.IS_NOT:
        return not ((v is None and value is None)
                    or (v is not None and value is not None and v == value))
    if v is None:
        return False
    try:
        if op is FilterOp.EQ:
            return value is not None and v == value
        if op is FilterOp.NE:
            return value is not None and v != value
        if op is FilterOp.IN_LIST:
            return any(x is not None and v == x for x in value)
        if op is FilterOp.NOT_IN_LIST:
            return all(x is not None and v != x for x in value)
        if op is FilterOp.IN_KEYS:
            return v in value
        if op in (FilterOp.LT, FilterOp.LE, FilterOp.GT, FilterOp.GE):
            if value is None:
                return False
            return {FilterOp.LT: lambda: _c(lambda: v < value),
                    FilterOp.LE: lambda: _c(lambda: v <= value),
                    FilterOp.GT: lambda: _c(lambda: v > value),
                    FilterOp.GE: lambda: _c(lambda: v >= value)}[op]()
        low, high = value
        if low is None or high is None:
            return False
        # every comparison must be possible (a range over 1 and 'x' holds no value)
        lo_cmp = _c(lambda: low <= v) if op in _LOW_IN else _c(lambda: low < v)
        hi_cmp = _c(lambda: v <= high) if op in _HIGH_IN else _c(lambda: v < high)
        if op in _RANGES:
            return lo_cmp and hi_cmp
        assert op in _NOT_RANGES
        return not lo_cmp or not hi_cmp
    except _Incomparable:
        return False


def naive_matches(spec: FilterSpec, bean: EventBean) -> bool:
    if spec.event_type not in bean.event_type.ancestors():
        return False
    return any(all(naive_param(p, bean) for p in path) for path in spec.paths)


# -- strategies -------------------------------------------------------------------------
VALUES = [None, -1, 0, 1, 2, 0.5, 1.0, 2.5, "a", "b", "c"]
PROPS = ["symbol", "price", "volume"]
SCALAR_OPS = [FilterOp.EQ, FilterOp.IS, FilterOp.NE, FilterOp.IS_NOT,
              FilterOp.LT, FilterOp.LE, FilterOp.GT, FilterOp.GE]
RANGE_OPS = sorted(_RANGES | _NOT_RANGES, key=lambda o: o.value)
PREDICATES = {
    "price is positive": lambda b: (lambda v: isinstance(v, (int, float)) and v > 0)(
        b.underlying.get("price")),
    "symbol is null": lambda b: b.underlying.get("symbol") is None,
    "unknown": lambda b: None,
    "volume is a string": lambda b: isinstance(b.underlying.get("volume"), str),
}

values = st.sampled_from(VALUES)
props = st.sampled_from(PROPS)


@st.composite
def params(draw):
    kind = draw(st.sampled_from(["scalar"] * 6 + ["range"] * 3 + ["list"] * 2 + ["bool", "odd"]))
    prop = draw(props)
    if kind == "scalar":
        return FilterParam(prop, draw(st.sampled_from(SCALAR_OPS)), draw(values))
    if kind == "range":
        return FilterParam(prop, draw(st.sampled_from(RANGE_OPS)), (draw(values), draw(values)))
    if kind == "list":
        op = draw(st.sampled_from([FilterOp.IN_LIST, FilterOp.NOT_IN_LIST]))
        return FilterParam(prop, op, tuple(draw(st.lists(values, max_size=3))))
    if kind == "bool":
        key = draw(st.sampled_from(sorted(PREDICATES)))
        pred = PREDICATES[key]
        # a fresh function object each time: entries are shared by key
        return FilterParam("", FilterOp.BOOL_EXPR, lambda b, _p=pred: _p(b), key=key)
    # an unhashable constant cannot key an index; it must still behave
    return FilterParam(prop, draw(st.sampled_from([FilterOp.EQ, FilterOp.NE])), [draw(values)])


_rnd = random.Random(7)
PROBES = [{p: _rnd.choice(VALUES) for p in PROPS if _rnd.random() < 0.8} for _ in range(16)]

paths = st.lists(st.lists(params(), max_size=3).map(tuple), min_size=1, max_size=3).map(tuple)
events = st.fixed_dictionaries({}, optional={p: values for p in PROPS})


class Handle:
    def __init__(self, n: int) -> None:
        self.n = n

    def __repr__(self) -> str:
        return f"H{self.n}"


class FilterIndexModel(RuleBasedStateMachine):
    registrations = Bundle("registrations")

    def __init__(self) -> None:
        super().__init__()
        reg = EventTypeRegistry()
        self.tick = reg.register_map("Tick", {"symbol": "string", "price": "double",
                                              "volume": "long"})
        self.sub = reg.register_map("Sub", {"extra": "int"}, inherits=["Tick"])
        self.index = FilterIndex()
        self.kept_match = self.index.match       # a reference kept across every change
        self.live: dict[int, tuple[FilterSpec, Handle]] = {}
        self.handles: list[Handle] = []
        self.matchers: list = []
        self.next_id = 0

    @rule(target=registrations, on_sub=st.booleans(), ps=paths, reuse=st.integers(0, 5))
    def add(self, on_sub, ps, reuse):
        t = self.sub if on_sub else self.tick
        if reuse == 0 and self.handles:          # the same handle registered again
            handle = self.handles[-1]
        else:
            handle = Handle(len(self.handles))
            self.handles.append(handle)
        spec = FilterSpec(t, ps)
        token = self.index.add(spec, handle)
        self.next_id += 1
        self.live[self.next_id] = (spec, handle)
        return (self.next_id, token)

    @rule(r=consumes(registrations))
    def remove(self, r):
        rid, token = r
        self.index.remove(token)
        del self.live[rid]

    @rule(on_sub=st.booleans(), ev=events)
    def match(self, on_sub, ev):
        self.check(self.sub if on_sub else self.tick, ev)

    def check(self, t, ev):
        bean = EventBean(t, ev)
        expected = {id(h): h for spec, h in self.live.values() if naive_matches(spec, bean)}
        got = self.index.match(bean)
        assert len(got) == len(set(map(id, got))), f"duplicates in {got}"
        assert {id(h) for h in got} == set(expected), (ev, got, list(expected.values()))
        if not expected:
            assert got is NO_MATCH
        assert {id(h) for h in self.kept_match(bean)} == set(expected)
        m = self.index.matcher(t)
        if m is not None:
            self.matchers.append((t, m))
        for mt, old in self.matchers[-5:]:      # matchers handed out earlier stay correct
            if mt is t:
                assert {id(h) for h in old(bean)} == set(expected)

    @invariant()
    def counts(self):
        assert self.index.filter_count() == len(self.live)
        if not self.live:
            assert self.index.node_count() == 0

    @invariant()
    def probes_match(self):
        # a fixed sample of events after every step, so that each change meets events
        for i, ev in enumerate(PROBES):
            self.check(self.sub if i % 2 else self.tick, ev)


SETTINGS = settings(max_examples=100, stateful_step_count=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def test_index_matches_linear_scan():
    run_state_machine_as_test(FilterIndexModel, settings=SETTINGS)


@pytest.mark.parametrize("budget,depth", [(0, 0), (1, 1), (3, 2)])
def test_index_matches_linear_scan_with_little_inlining(monkeypatch, budget, depth):
    # generated code then calls child nodes' own functions instead of inlining them
    monkeypatch.setattr(codegen, "MAX_INLINE", budget)
    monkeypatch.setattr(codegen, "MAX_DEPTH", depth)
    run_state_machine_as_test(FilterIndexModel, settings=settings(
        SETTINGS, max_examples=40))


scripts = st.lists(st.tuples(st.booleans(), paths), min_size=1, max_size=25)


@settings(max_examples=150, deadline=None)
@given(scripts, st.randoms(use_true_random=False), st.lists(events, max_size=5))
def test_removing_everything_returns_to_the_empty_baseline(script, rnd, evs):
    reg = EventTypeRegistry()
    tick = reg.register_map("Tick", {"symbol": "string", "price": "double", "volume": "long"})
    sub = reg.register_map("Sub", {"extra": "int"}, inherits=["Tick"])
    index = FilterIndex()
    assert index.node_count() == 0
    tokens = []
    for i, (on_sub, ps) in enumerate(script):
        tokens.append(index.add(FilterSpec(sub if on_sub else tick, ps), Handle(i)))
        for ev in evs:                        # build the generated code on the way
            index.match(EventBean(sub, ev))
    rnd.shuffle(tokens)
    for tok in tokens:
        index.remove(tok)
        for ev in evs:
            index.match(EventBean(tick, ev))
    assert index.node_count() == 0
    assert index.filter_count() == 0
    assert index.event_types() == []
    assert index.matcher(tick) is None and index.matcher(sub) is None
    assert index.match(EventBean(sub, {"price": 1})) is NO_MATCH


def one_property_param(draw, op):
    if op is FilterOp.BOOL_EXPR:
        key = draw(st.sampled_from(sorted(PREDICATES)))
        return FilterParam("", op, PREDICATES[key], key=key)
    if op in _RANGES or op in _NOT_RANGES:
        return FilterParam("price", op, (draw(values), draw(values)))
    if op in (FilterOp.IN_LIST, FilterOp.NOT_IN_LIST):
        return FilterParam("price", op, tuple(draw(st.lists(values, min_size=1, max_size=3))))
    if op is FilterOp.IN_KEYS:       # a container of its own (shared by identity)
        return FilterParam("price", op, set(draw(st.lists(values.filter(lambda x: x is not None),
                                                          max_size=3))))
    return FilterParam("price", op, draw(values))


@st.composite
def one_property_filters(draw):
    # one or two operators per example, so that their indexes get many entries
    ops = draw(st.lists(st.sampled_from(list(FilterOp)), min_size=1, max_size=2))
    conj = st.lists(st.sampled_from(ops), min_size=1, max_size=2)
    return [tuple(one_property_param(draw, op) for op in draw(conj))
            for _ in range(draw(st.integers(1, 16)))]


@settings(max_examples=300, deadline=None)
@given(one_property_filters(), st.sets(st.integers(0, 15), max_size=8))
def test_many_filters_on_one_property_match_linear_scan(conjunctions, removed):
    # many entries per index: every index kind runs its multi-entry path
    reg = EventTypeRegistry()
    tick = reg.register_map("Tick", {"symbol": "string", "price": "double", "volume": "long"})
    index = FilterIndex()
    live = {}
    tokens = {}
    for i, conj in enumerate(conjunctions):
        spec = FilterSpec(tick, (conj,))
        tokens[i] = index.add(spec, Handle(i))
        live[i] = spec
    probes = [{"price": v} for v in VALUES] + [{}]
    for step in range(2):
        for ev in probes:
            bean = EventBean(tick, ev)
            got = sorted(h.n for h in index.match(bean))
            assert got == sorted(i for i, s in live.items() if naive_matches(s, bean)), ev
        for i in removed:
            if i in live:
                index.remove(tokens[i])
                del live[i]
