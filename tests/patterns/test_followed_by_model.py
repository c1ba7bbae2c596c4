"""`every a=A -> b=B(id = a.id)` (with and without `where timer:within(w)` on the B side)
against a brute-force matcher on random sequences of A, B and time steps; live filters and
schedules are checked against the model's pending instances after each run: on the general
state machines (a filter and a schedule per pending instance) and on the keyed fast path
(engine/patterns/keyed_followed.py: two filters, no schedule for a positive period, expired
instances ended lazily)."""
from __future__ import annotations

from typing import Optional

from hypothesis import given, settings, strategies as st

from engine import Engine
from engine.fastpath_switch import set_fast_paths
from engine.patterns import install

WITHIN_MS = 1000

steps = st.lists(
    st.one_of(
        st.tuples(st.just("A"), st.integers(0, 3), st.integers(0, 99)),
        st.tuples(st.just("B"), st.integers(0, 3), st.integers(0, 99)),
        st.tuples(st.just("T"), st.integers(0, 1500)),
    ),
    max_size=40,
)


class Model:
    """Pending A instances in arrival order; a B completes every pending instance with its
    id (earliest first) that has not expired."""

    def __init__(self, within: Optional[int]) -> None:
        self.within = within
        self.now = 0
        self.pending: list[tuple[int, int, int]] = []     # (id, v, arrival time)

    def step(self, s: tuple) -> list[dict]:
        if s[0] == "T":
            self.now += s[1]
            if self.within is not None:
                self.pending = [p for p in self.pending if self.now < p[2] + self.within]
            return []
        if s[0] == "A":
            self.pending.append((s[1], s[2], self.now))
            return []
        done = [p for p in self.pending if p[0] == s[1]]
        self.pending = [p for p in self.pending if p[0] != s[1]]
        return [{"aid": p[0], "av": p[1], "bv": s[2]} for p in done]


def _run(seq: list, within: Optional[int], fast: bool = False) -> None:
    engine = Engine(time="simulated", start_time=0)
    install(engine)
    set_fast_paths(engine, fast)
    engine.epl("create schema A(id int, v int)")
    engine.epl("create schema B(id int, v int)")
    guard = f" where timer:within({within} msec)" if within is not None else ""
    base_filters = engine.filter_count()
    base_schedules = engine.schedule_count()
    stmt = engine.epl("select a.id as aid, a.v as av, b.v as bv from pattern "
                      f"[every a=A -> b=B(id = a.id){guard}]")
    got: list[dict] = []
    stmt.add_listener(lambda new, old: got.extend(e.to_dict() for e in new or []))
    model = Model(within)
    for s in seq:
        if s[0] == "T":
            engine.advance_time(engine.now + s[1])
        else:
            engine.send({"id": s[1], "v": s[2]}, s[0])
        want = model.step(s)
        assert got == want, f"after {s}"
        got.clear()
        if fast:
            # one filter for A, one for B; no schedule (expiry is lazy)
            assert engine.filter_count() == base_filters + 2
            assert engine.schedule_count() == base_schedules
        else:
            # one filter for `every a=A`, one per pending instance
            assert engine.filter_count() == base_filters + 1 + len(model.pending)
            if within is not None:
                assert engine.schedule_count() == base_schedules + len(model.pending)
    if within is not None:
        engine.advance_time(engine.now + within)
        assert engine.filter_count() == base_filters + (2 if fast else 1)
        assert engine.schedule_count() == base_schedules
    stmt.destroy()
    assert engine.filter_count() == base_filters
    assert engine.schedule_count() == base_schedules
    engine.close()


@settings(max_examples=150, deadline=None)
@given(steps)
def test_every_followed_by_matches_model(seq):
    _run(seq, None)


@settings(max_examples=150, deadline=None)
@given(steps)
def test_every_followed_by_within_matches_model(seq):
    _run(seq, WITHIN_MS)


@settings(max_examples=150, deadline=None)
@given(steps)
def test_keyed_fast_path_matches_model(seq):
    _run(seq, None, fast=True)


@settings(max_examples=150, deadline=None)
@given(steps)
def test_keyed_fast_path_within_matches_model(seq):
    _run(seq, WITHIN_MS, fast=True)
