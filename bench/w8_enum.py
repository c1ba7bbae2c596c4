"""W8: enumeration methods with lambdas. `window(*).where(v => v.price > 10).sumOf(v => v.price)`
over `#length(100)`: per event the engine runs both lambdas over the whole window (100
elements), beside a hand loop doing the same filter and sum over a deque."""
from __future__ import annotations

from collections import deque

from engine import Engine

from . import data
from .harness import Row, Run, measure, stopwatch

NAME = "W8 enumeration methods"
EPL = "select window(*).where(v => v.price > 10).sumOf(v => v.price) as s from Tick#length({n})"
SIZES = {False: 50_000, True: 5_000}


def engine_run(events: list[dict], n: int = 100) -> Run:
    engine = Engine(time="simulated")
    engine.epl(data.TICK_SCHEMA)
    acc = [0, 0.0]

    def listen(new, old):
        for row in new:
            acc[0] += 1
            s = row.underlying["s"]
            if s is not None:
                acc[1] += s
    engine.epl(EPL.format(n=n)).add_listener(listen)
    elapsed = stopwatch()
    engine.send_many(events, "Tick")
    return elapsed(), (acc[0], acc[1])


def loop_run(events: list[dict], n: int = 100) -> Run:
    acc = [0, 0.0]

    def listen(new, old):
        for row in new:
            acc[0] += 1
            s = row["s"]
            if s is not None:
                acc[1] += s
    window: deque = deque()
    elapsed = stopwatch()
    for ev in events:
        window.append(ev)
        if len(window) > n:
            window.popleft()
        total = None
        for w in window:             # where(price > 10), then sumOf(price), null when none
            p = w["price"]
            if p > 10:
                total = p if total is None else total + p
        listen([{"s": total}], None)
    return elapsed(), (acc[0], acc[1])


def run(quick: bool, repeat: int) -> list[Row]:
    events = data.ticks(SIZES[quick])
    return [measure(NAME, "where(...).sumOf(...) over length(100)", len(events),
                    lambda: engine_run(events), lambda: loop_run(events), repeat)]
