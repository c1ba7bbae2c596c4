"""W9: a grouped sliding time window, `select symbol, avg(price) as a from Tick#time(10 sec)
group by symbol`, on simulated time with events 1 ms apart (the engine's time advanced before
each event): every event enters its group, and from the 10,001st on one event expires per
step, posting its group's new average."""
from __future__ import annotations

from collections import deque

from . import data
from .harness import LoopRow, Row, Run, measure, stopwatch
from .timed import timed_ticks

NAME = "W9 time window"
EPL = "select symbol, avg(price) as a from Tick#time(10 sec) group by symbol"
SIZES = {False: 200_000, True: 20_000}
WINDOW_MS = 10_000


def _listener(acc: list):
    def listen(new, old):
        for row in new:
            a = row.underlying["a"]
            acc[0] += 1
            if a is not None:
                acc[1] += a
    return listen


def engine_run(events: list[dict]) -> Run:
    acc = [0, 0.0]
    return timed_ticks(EPL, _listener(acc), events, batch=False), (acc[0], acc[1])


def engine_many_run(events: list[dict]) -> Run:
    """The same events and times through one `send_many(events, "Tick", times=...)`: time is
    stepped inside the engine's loop."""
    acc = [0, 0.0]
    return timed_ticks(EPL, _listener(acc), events, batch=True), (acc[0], acc[1])


def loop_run(events: list[dict]) -> Run:
    acc = [0, 0.0]
    listen = _listener(acc)
    window: deque = deque()          # (time, event), oldest first
    sums: dict = {}
    counts: dict = {}
    elapsed = stopwatch()
    for t, ev in enumerate(events):
        while window and window[0][0] + WINDOW_MS <= t:
            _, old = window.popleft()
            sym = old["symbol"]
            n = counts[sym] - 1
            counts[sym] = n
            s = sums[sym] - old["price"] if n else 0.0
            sums[sym] = s
            listen([LoopRow({"symbol": sym, "a": s / n if n else None})], None)
        window.append((t, ev))
        sym = ev["symbol"]
        n = counts.get(sym, 0) + 1
        counts[sym] = n
        s = sums[sym] = sums.get(sym, 0.0) + ev["price"]
        listen([LoopRow({"symbol": sym, "a": s / n})], None)
    return elapsed(), (acc[0], acc[1])


def run(quick: bool, repeat: int) -> list[Row]:
    events = data.ticks(SIZES[quick])
    return [measure(NAME, "time(10 sec) group by symbol, avg", len(events),
                    lambda: engine_run(events), lambda: loop_run(events), repeat),
            measure(NAME, "... send_many with times", len(events),
                    lambda: engine_many_run(events), lambda: loop_run(events), repeat)]
