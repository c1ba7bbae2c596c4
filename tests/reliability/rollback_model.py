"""Shared by the rollback tests: user aggregations that raise mid-update, and a run of a
statement over (time gap, v, g) steps that reports which events the statement failed on."""
from __future__ import annotations

import logging

import pytest
from hypothesis import strategies as st

from engine import Engine


def steps(max_size: int):
    """(time gap in ms, v, g) steps."""
    return st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 30), st.sampled_from("abc")),
                    max_size=max_size)


@pytest.fixture
def quiet_logs():
    """The faults these tests provoke are logged as errors: keep the output readable."""
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


class Fragile:
    """A user aggregation that keeps its values and raises on entering a 'bad' value, after
    having changed its own state (the worst case)."""

    def __init__(self) -> None:
        self.values: list = []

    def enter(self, v):
        if v is not None:
            self.values.append(v)
            if v % 7 == 3:
                raise ValueError(f"cannot take {v}")

    def leave(self, v):
        if v is not None:
            self.values.remove(v)

    def value(self):
        return sum(self.values) if self.values else None

    def clear(self):
        self.values = []


class FragileValue(Fragile):
    """Raises when read with a 'bad' total, after every state of the event changed."""

    def enter(self, v):
        if v is not None:
            self.values.append(v)

    def value(self):
        total = sum(self.values)
        if total % 11 == 5:
            raise ValueError(f"cannot read {total}")
        return total


def run(epl: str, steps, aggregation=Fragile, skip=()):
    eng = Engine(time="simulated")
    eng.register_aggregation("fragile", aggregation)
    eng.epl("create schema S(v int, g string)")
    stmt = eng.epl(epl)
    out = record(stmt, old=True)
    failed = failures(eng)
    sent = []
    now = 0
    eng.advance_time(0)
    for gap, v, g in steps:
        now += gap
        eng.advance_time(now)
        e = {"v": v, "g": g}
        sent.append(e)
        if len(sent) - 1 not in skip:    # a left-out event: time still moves
            eng.send(e, "S")
    bad = failed_positions(sent, failed)
    timer_faults = sum(1 for f in failed if f is None)
    try:
        rows = [r.to_dict() for r in stmt]
    except ValueError as exc:        # the pull API reads the aggregation too
        rows = repr(exc)
    return out, rows, bad, timer_faults


def record(stmt, old: bool = False) -> list:
    """The statement's deliveries as dicts: the insert stream of each, or with `old` the
    pair (insert stream, remove stream)."""
    out: list = []
    if old:
        stmt.add_listener(lambda new, rem: out.append(([b.to_dict() for b in new or ()],
                                                       [b.to_dict() for b in rem or ()])))
    else:
        stmt.add_listener(lambda new, rem: out.append([b.to_dict() for b in new or ()]))
    return out


def failures(eng) -> list:
    """The events (None for a timer) that `statement_error` signals will name."""
    failed: list = []
    eng.signals.statement_error.connect(lambda *a, **k: failed.append(k["event"]), weak=False)
    return failed


def failed_positions(sent: list, failed: list) -> list[int]:
    """Positions of the sent events (dicts) that a `statement_error` signal named."""
    return [i for i, e in enumerate(sent) if any(f is not None and f.underlying is e for f in failed)]
