"""MEM: memory the engine keeps per 1,000 groups (`#groupwin(symbol)#length(100)` avg grouped
by symbol, one event per group) and per 1,000 pattern instances (`every a=A -> b=B(id = a.id)`,
A events whose B never comes), beside a hand loop keeping the same state, by tracemalloc.
The events themselves are allocated before measuring: only what is kept for them counts."""
from __future__ import annotations

from collections import deque
from typing import Any

from engine import Engine

from . import data
from .harness import Row, measure_memory

NAME = "MEM memory"
GROUPED = "select symbol, avg(price) from Tick#groupwin(symbol)#length(100) group by symbol"
PATTERN = "select * from pattern [every a=A -> b=B(id = a.id)]"
SIZES = {False: 20_000, True: 2_000}


def group_events(n: int) -> list[dict]:
    return [{"symbol": f"G{i}", "price": float(i % 100), "volume": i} for i in range(n)]


def engine_groups(events: list[dict]) -> Any:
    engine = Engine(time="simulated")
    engine.epl(data.TICK_SCHEMA)
    engine.epl(GROUPED).add_listener(lambda new, old: None)
    engine.send_many(events, "Tick")
    return engine


def loop_groups(events: list[dict]) -> Any:
    groups: dict = {}
    for ev in events:
        sym = ev["symbol"]
        g = groups.get(sym)
        if g is None:
            g = groups[sym] = [deque(), 0.0]
        g[0].append(ev)
        g[1] += ev["price"]
    return groups


def pattern_events(n: int) -> list[dict]:
    return [{"id": i, "seq": i} for i in range(n)]


def engine_patterns(events: list[dict]) -> Any:
    engine = Engine(time="simulated")
    for schema in data.PATTERN_SCHEMAS:
        engine.epl(schema)
    engine.epl(PATTERN).add_listener(lambda new, old: None)
    send = engine.send
    for ev in events:
        send(ev, "A")
    return engine


def loop_patterns(events: list[dict]) -> Any:
    waiting: dict = {}
    for ev in events:
        w = waiting.get(ev["id"])
        if w is None:
            waiting[ev["id"]] = [ev]
        else:
            w.append(ev)
    return waiting


def run(quick: bool, repeat: int) -> list[Row]:
    n = SIZES[quick]
    groups, instances = group_events(n), pattern_events(n)
    return [measure_memory(NAME, "per 1,000 groups (groupwin length avg)", n, lambda: engine_groups(groups),
                           lambda: loop_groups(groups), repeat),
            measure_memory(NAME, "per 1,000 pattern instances (every A -> B)", n,
                           lambda: engine_patterns(instances), lambda: loop_patterns(instances), repeat)]
