"""W5: many statements, each `select * from Tick(symbol = 'S<i>')` with a counting listener;
1, 100, 1,000 and 10,000 of them over the same events (routing must stay near O(1))."""
from __future__ import annotations


from engine import Engine

from . import data
from .harness import Row, Run, measure, stopwatch

NAME = "W5 many statements"
EPL = "select * from Tick(symbol = '{symbol}')"
COUNTS = {False: (1, 100, 1_000, 10_000), True: (1, 100, 1_000)}
SIZES = {False: 500_000, True: 25_000}


def build_engine(statements: int) -> tuple[Engine, list]:
    engine = Engine(time="simulated")
    engine.epl(data.TICK_SCHEMA)
    seen = [0]

    def count(new, old):
        seen[0] += len(new)
    for i in range(statements):
        engine.epl(EPL.format(symbol=f"S{i}")).add_listener(count)
    return engine, seen


def engine_run(engine: Engine, seen: list, events: list[dict]) -> Run:
    """One timed pass over `events` with an engine from `build_engine` (no windows: the
    statements keep no state between passes)."""
    seen[0] = 0
    elapsed = stopwatch()
    engine.send_many(events, "Tick")
    return elapsed(), seen[0]


def loop_run(statements: int, events: list[dict]) -> Run:
    seen = [0]

    def count(new, old):
        seen[0] += len(new)
    by_symbol: dict = {}
    for i in range(statements):
        by_symbol.setdefault(f"S{i}", []).append(count)
    elapsed = stopwatch()
    get = by_symbol.get
    for ev in events:
        for listener in get(ev["symbol"], ()):
            listener([ev], None)
    return elapsed(), seen[0]


def run(quick: bool, repeat: int) -> list[Row]:
    events = data.ticks(SIZES[quick])
    rows = []
    first = None
    for n in COUNTS[quick]:
        setup = stopwatch()
        engine, seen = build_engine(n)
        setup_s = setup()
        row = measure(NAME, f"{n:,} statements", len(events), lambda: engine_run(engine, seen, events),
                      lambda: loop_run(n, events), repeat)
        engine.close()
        first = row.engine_eps if first is None else first
        note = f"{seen[0]:,} deliveries; created in {setup_s:.1f} s; ev/s vs 1 statement: {row.engine_eps / first:.2f}"
        rows.append(Row(row.workload, row.case, row.events, row.engine_eps, row.loop_eps,
                        note + ("; " + row.note if row.note else "")))
    return rows


