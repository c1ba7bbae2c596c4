"""W7: match_recognize `partition by symbol ... pattern (A B+ C)` (a price, one or more
falls, a rise) over Tick events of 100 symbols, beside a hand-written per-symbol state
machine doing the same matching (Esper's rules: the earliest-starting match wins, then the
next match starts after its last row); and the memory of 100,000 partitions."""
from __future__ import annotations

import gc
import time
import tracemalloc

from engine import Engine

from . import data
from .harness import Row, Run, measure, stopwatch

NAME = "W7 match_recognize"
EPL = ("select * from Tick match_recognize (partition by symbol "
       "measures A.symbol as sym, A.price as a, last(B.price) as b, C.price as c, count(B.price) as falls "
       "pattern (A B+ C) define B as B.price < prev(B.price), C as C.price > prev(C.price))")
SIZES = {False: 1_000_000, True: 20_000}
MEMORY_KEYS = {False: 100_000, True: 5_000}


def _listener(acc: list):
    def listen(new, old):
        for row in new:
            m = row.underlying
            acc[0] += 1
            acc[1] += m["a"]
            acc[2] += m["c"]
            acc[3] += m["falls"]
    return listen


def _engine() -> tuple[Engine, list, object]:
    engine = Engine(time="simulated")
    engine.epl(data.TICK_SCHEMA)
    acc = [0, 0.0, 0.0, 0]     # matches, sum of A prices, sum of C prices, falls
    stmt = engine.epl(EPL)
    stmt.add_listener(_listener(acc))
    return engine, acc, stmt


def engine_run(events: list[dict]) -> Run:
    engine, acc, _ = _engine()
    send = engine.send
    elapsed = stopwatch()
    for ev in events:
        send(ev, "Tick")
    return elapsed(), (acc[0], acc[1], acc[2], acc[3])


def loop_run(events: list[dict]) -> Run:
    """Per symbol: the previous price, and the one live partial match that matters (the
    earliest: its first row's price and how many falls followed)."""
    acc = [0, 0.0, 0.0, 0]
    prev: dict = {}           # symbol -> previous price
    live: dict = {}           # symbol -> [A price, falls] of the earliest live partial match
    elapsed = stopwatch()
    for ev in events:
        sym = ev["symbol"]
        price = ev["price"]
        p = prev.get(sym)
        prev[sym] = price
        m = live.get(sym)
        if m is None:
            live[sym] = [price, 0]
        elif price < p:
            m[1] += 1
        elif price > p and m[1]:
            acc[0] += 1
            acc[1] += m[0]
            acc[2] += price
            acc[3] += m[1]
            del live[sym]     # skip past last row: this row starts nothing
        else:
            m[0], m[1] = price, 0
    return elapsed(), (acc[0], acc[1], acc[2], acc[3])


def memory(keys: int) -> Row:
    """Each of `keys` symbols gets a price and a fall (a live partial match per symbol, and
    the `prev` row), then half of them a rise (their matches complete)."""
    engine, acc, stmt = _engine()
    send = engine.send
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    t0 = time.perf_counter()
    names = [f"K{i}" for i in range(keys)]
    for n in names:
        send({"symbol": n, "price": 10.0, "volume": 1}, "Tick")
    for n in names:
        send({"symbol": n, "price": 9.0, "volume": 1}, "Tick")
    [instance] = stmt._instances
    view = instance.views[0][-1]
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    live = sum(len(p.entries) for p in view.partitions.values())
    for n in names[: keys // 2]:
        send({"symbol": n, "price": 11.0, "volume": 1}, "Tick")
    gc.collect()
    after = tracemalloc.get_traced_memory()[0] - base
    live_after = sum(len(p.entries) for p in view.partitions.values())
    seconds = time.perf_counter() - t0
    tracemalloc.stop()
    n_events = keys * 2 + keys // 2
    note = (f"{keys:,} keys: {live:,} partial matches, {held / 1e6:.1f} MB "
            f"({held / max(live, 1):.0f} B each incl. prev row); after {keys // 2:,} matches "
            f"{live_after:,} partial matches, {after / 1e6:.1f} MB; {acc[0]:,} matches (tracemalloc on)")
    return Row(NAME, f"memory, {keys:,} partitions", n_events, n_events / seconds, None, note)


def run(quick: bool, repeat: int) -> list[Row]:
    events = data.ticks(SIZES[quick])
    rows = [measure(NAME, "partition by symbol, pattern (A B+ C)", len(events),
                    lambda: engine_run(events), lambda: loop_run(events), repeat)]
    rows.append(memory(MEMORY_KEYS[quick]))
    return rows
