"""W2: sliding windows. Per-symbol `#groupwin(symbol)#length(100)` with avg per group and a
listener on every update; and an ungrouped `#length(n)` for n = 100 and 10,000, whose
per-event cost must not grow with the window."""
from __future__ import annotations

from collections import deque

from engine import Engine

from . import data
from .harness import Row, Run, measure, stopwatch

NAME = "W2 sliding window"
GROUPED = "select symbol, avg(price) from Tick#groupwin(symbol)#length({n}) group by symbol"
UNGROUPED = "select avg(price) from Tick#length({n})"
SIZES = {False: 500_000, True: 25_000}


def _engine(events: list[dict], epl: str, column: str, fusion: bool = True) -> Run:
    engine = Engine(time="simulated")
    engine.fusion = fusion      # False: the general view/result-set chain (engine/fused.py)
    engine.epl(data.TICK_SCHEMA)
    acc = [0, 0.0]

    def listen(new, old):
        for row in new:
            acc[0] += 1
            acc[1] += row.underlying[column]
    engine.epl(epl).add_listener(listen)
    elapsed = stopwatch()
    engine.send_many(events, "Tick")
    return elapsed(), (acc[0], acc[1])


def engine_grouped(events: list[dict], n: int = 100, fusion: bool = True) -> Run:
    return _engine(events, GROUPED.format(n=n), "avg(price)", fusion)


def engine_ungrouped(events: list[dict], n: int) -> Run:
    return _engine(events, UNGROUPED.format(n=n), "avg(price)")


def loop_grouped(events: list[dict], n: int = 100) -> Run:
    acc = [0, 0.0]

    def listen(new, old):
        for row in new:
            acc[0] += 1
            acc[1] += row["avg(price)"]
    windows: dict = {}
    elapsed = stopwatch()
    for ev in events:
        sym = ev["symbol"]
        w = windows.get(sym)
        if w is None:
            w = windows[sym] = [deque(), 0.0]
        q = w[0]
        price = ev["price"]
        q.append(price)
        w[1] += price
        if len(q) > n:
            w[1] -= q.popleft()
        listen([{"symbol": sym, "avg(price)": w[1] / len(q)}], None)
    return elapsed(), (acc[0], acc[1])


def loop_ungrouped(events: list[dict], n: int) -> Run:
    acc = [0, 0.0]

    def listen(new, old):
        for row in new:
            acc[0] += 1
            acc[1] += row["avg(price)"]
    q: deque = deque()
    total = 0.0
    elapsed = stopwatch()
    for ev in events:
        price = ev["price"]
        q.append(price)
        total += price
        if len(q) > n:
            total -= q.popleft()
        listen([{"avg(price)": total / len(q)}], None)
    return elapsed(), (acc[0], acc[1])


def run(quick: bool, repeat: int) -> list[Row]:
    events = data.ticks(SIZES[quick])
    rows = [measure(NAME, "groupwin(symbol)#length(100)", len(events),
                    lambda: engine_grouped(events), lambda: loop_grouped(events), repeat)]
    rows.append(measure(NAME, "... general chain (fusion off)", len(events),
                        lambda: engine_grouped(events, fusion=False), lambda: loop_grouped(events), repeat))
    for n in (100, 10_000):
        rows.append(measure(NAME, f"length({n:,}) ungrouped", len(events),
                            lambda: engine_ungrouped(events, n), lambda: loop_ungrouped(events, n),
                            repeat))
    small, large = rows[2].engine_eps, rows[3].engine_eps
    rows[3] = Row(rows[3].workload, rows[3].case, rows[3].events, rows[3].engine_eps, rows[3].loop_eps,
                  f"engine ev/s at 10,000 / at 100: {large / small:.2f}")
    return rows
