"""W1: one filtered stream, `select * from Tick(symbol='S7' and price > 50)`, counting listener;
with the engine's default checking of map events against their declared types on send, and
without it (`Engine(check_events=False)`: routing alone, as the loop does no checking); and
through `engine.send` per event instead of `send_many`, on a default (thread-safe) engine and
on one made with `Engine(thread_safe=False)` (send skips the lock: one feeding thread only)."""
from __future__ import annotations

from engine import Engine

from . import data
from .harness import Row, Run, measure, stopwatch

NAME = "W1 filter"
EPL = "select * from Tick(symbol='S7' and price > 50)"
SIZES = {False: 1_000_000, True: 50_000}


def engine_run(events: list[dict], check_events: bool = True) -> Run:
    engine = Engine(time="simulated", check_events=check_events)
    engine.epl(data.TICK_SCHEMA)
    seen = [0]

    def count(new, old):
        seen[0] += len(new)
    engine.epl(EPL).add_listener(count)
    elapsed = stopwatch()
    engine.send_many(events, "Tick")
    return elapsed(), seen[0]


def engine_send_run(events: list[dict], thread_safe: bool = True) -> Run:
    """The same through `engine.send(event, "Tick")` per event."""
    engine = Engine(time="simulated", thread_safe=thread_safe)
    engine.epl(data.TICK_SCHEMA)
    seen = [0]

    def count(new, old):
        seen[0] += len(new)
    engine.epl(EPL).add_listener(count)
    send = engine.send
    elapsed = stopwatch()
    for ev in events:
        send(ev, "Tick")
    return elapsed(), seen[0]


def loop_run(events: list[dict]) -> Run:
    seen = [0]

    def count(new, old):
        seen[0] += len(new)
    elapsed = stopwatch()
    for ev in events:
        if ev["symbol"] == "S7":
            price = ev["price"]
            if price is not None and price > 50:
                count([ev], None)
    return elapsed(), seen[0]


def run(quick: bool, repeat: int) -> list[Row]:
    events = data.ticks(SIZES[quick])
    return [measure(NAME, "S7 and price > 50", len(events), lambda: engine_run(events),
                    lambda: loop_run(events), repeat),
            measure(NAME, "... check_events=False", len(events), lambda: engine_run(events, False),
                    lambda: loop_run(events), repeat),
            measure(NAME, "... engine.send per event", len(events), lambda: engine_send_run(events),
                    lambda: loop_run(events), repeat),
            measure(NAME, "... send per event, thread_safe=False", len(events),
                    lambda: engine_send_run(events, False), lambda: loop_run(events), repeat)]
