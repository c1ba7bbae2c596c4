"""The engine side of the timed workloads (W3, W9): one statement with its listener over
Tick events 1 ms apart, time stepped per event (`advance_time` + `send`) or inside the
engine's loop (`send_many(..., times=...)`)."""
from __future__ import annotations

from typing import Callable

from engine import Engine

from . import data
from .harness import stopwatch


def timed_ticks(epl: str, listen: Callable, events: list[dict], batch: bool) -> float:
    """Seconds to process `events` at times 0, 1, 2, ... ms (the times list, as the events,
    made before the clock starts)."""
    engine = ticks_engine(epl, listen)
    if batch:
        times = list(range(len(events)))
        elapsed = stopwatch()
        engine.send_many(events, "Tick", times=times)
        return elapsed()
    advance, send = engine.advance_time, engine.send
    elapsed = stopwatch()
    for t, ev in enumerate(events):
        advance(t)
        send(ev, "Tick")
    return elapsed()


def ticks_engine(epl: str, listen: Callable) -> Engine:
    """A simulated-time engine with the Tick schema and `epl` started, `listen` its listener."""
    engine = Engine(time="simulated")
    engine.epl(data.TICK_SCHEMA)
    engine.epl(epl).add_listener(listen)
    return engine
