"""W3: `select symbol, sum(volume) from Tick#time_batch(1 sec) group by symbol` on simulated
time, events 1 ms apart (the engine's time advanced before each event)."""
from __future__ import annotations

from . import data
from .harness import LoopRow, Row, Run, measure, stopwatch
from .timed import timed_ticks

NAME = "W3 time batch"
EPL = "select symbol, sum(volume) from Tick#time_batch(1 sec) group by symbol"
SIZES = {False: 500_000, True: 25_000}
BATCH_MS = 1000


def _listener(acc: list):
    def listen(new, old):
        for row in new:
            v = row.underlying["sum(volume)"]
            acc[0] += 1
            if v is None:
                acc[2] += 1
            else:
                acc[1] += v
    return listen


def engine_run(events: list[dict]) -> Run:
    acc = [0, 0, 0]
    return timed_ticks(EPL, _listener(acc), events, batch=False), tuple(acc)


def engine_many_run(events: list[dict]) -> Run:
    """The same events and times through one `send_many(events, "Tick", times=...)`: time is
    stepped inside the engine's loop."""
    acc = [0, 0, 0]
    return timed_ticks(EPL, _listener(acc), events, batch=True), tuple(acc)


def loop_run(events: list[dict]) -> Run:
    acc = [0, 0, 0]
    listen = _listener(acc)
    current: dict = {}
    previous: dict = {}
    batch_end = None
    elapsed = stopwatch()
    for t, ev in enumerate(events):
        if batch_end is not None and t >= batch_end:
            # a group that only left the window posts a null sum, as the engine does
            listen([LoopRow({"symbol": k, "sum(volume)": v}) for k, v in current.items()] +
                   [LoopRow({"symbol": k, "sum(volume)": None}) for k in previous if k not in current], None)
            previous, current = current, {}
            batch_end += BATCH_MS
        elif batch_end is None:
            batch_end = t + BATCH_MS
        sym = ev["symbol"]
        current[sym] = current.get(sym, 0) + ev["volume"]
    return elapsed(), tuple(acc)



def run(quick: bool, repeat: int) -> list[Row]:
    events = data.ticks(SIZES[quick])
    return [measure(NAME, "time_batch(1 sec) group by symbol", len(events),
                    lambda: engine_run(events), lambda: loop_run(events), repeat),
            measure(NAME, "... send_many with times", len(events),
                    lambda: engine_many_run(events), lambda: loop_run(events), repeat)]
