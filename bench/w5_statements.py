"""W5: many statements, each `select * from Tick(symbol = 'S<i>')` with a counting listener;
1, 100, 1,000 and 10,000 of them over the same events (routing must stay near O(1)).

The events carry 100 symbols (S0..S99). Two series:
- "N statements, 1 matching": one statement on 'S7', the others on S100, S101, ... which no
  event carries. The deliveries stay those of one statement, so the series measures what
  the statement count costs: routing. This is the issue's criterion (10,000 statements at
  no less than half the events/s of 1).
- "N statements": S0, S1, ... so from 100 statements on every event is delivered, 100 times
  the deliveries of one statement. That measures delivery as much as routing: the
  hand-written loop itself falls to under half its one-statement speed here ("loop vs 1"),
  so no Python implementation can hold half of its one-statement speed on this series."""
from __future__ import annotations

from engine import Engine

from . import data
from .harness import Row, Run, measure, stopwatch

NAME = "W5 many statements"
EPL = "select * from Tick(symbol = '{symbol}')"
COUNTS = {False: (1, 100, 1_000, 10_000), True: (1, 100, 1_000)}
SIZES = {False: 500_000, True: 25_000}


def symbols(statements: int, all_matching: bool = True) -> list[str]:
    """The symbol of each statement: S0, S1, ...; or S7 then S100, S101, ... (no event has those)."""
    if all_matching:
        return [f"S{i}" for i in range(statements)]
    return ["S7"] + [f"S{data.SYMBOL_COUNT + i}" for i in range(statements - 1)]


def build_engine(statements: int, all_matching: bool = True) -> tuple[Engine, list]:
    engine = Engine(time="simulated")
    engine.epl(data.TICK_SCHEMA)
    seen = [0]

    def count(new, old):
        seen[0] += len(new)
    for symbol in symbols(statements, all_matching):
        engine.epl(EPL.format(symbol=symbol)).add_listener(count)
    return engine, seen


def engine_run(engine: Engine, seen: list, events: list[dict]) -> Run:
    """One timed pass over `events` with an engine from `build_engine` (no windows: the
    statements keep no state between passes)."""
    seen[0] = 0
    elapsed = stopwatch()
    engine.send_many(events, "Tick")
    return elapsed(), seen[0]


def loop_run(statements: int, events: list[dict], all_matching: bool = True) -> Run:
    seen = [0]

    def count(new, old):
        seen[0] += len(new)
    by_symbol: dict = {}
    for symbol in symbols(statements, all_matching):
        by_symbol.setdefault(symbol, []).append(count)
    elapsed = stopwatch()
    get = by_symbol.get
    for ev in events:
        for listener in get(ev["symbol"], ()):
            listener([ev], None)
    return elapsed(), seen[0]


def run(quick: bool, repeat: int) -> list[Row]:
    events = data.ticks(SIZES[quick])
    rows = []
    for all_matching in (False, True):
        first = first_loop = None
        for n in COUNTS[quick]:
            if n == 1 and all_matching:
                # the same single statement as the first row
                first, first_loop = rows[0].engine_eps, rows[0].loop_eps
                continue
            setup = stopwatch()
            engine, seen = build_engine(n, all_matching)
            setup_s = setup()
            case = "1 statement" if n == 1 else \
                f"{n:,} statements" + ("" if all_matching else ", 1 matching")
            row = measure(NAME, case, len(events), lambda: engine_run(engine, seen, events),
                          lambda: loop_run(n, events, all_matching), repeat)
            engine.close()
            if first is None:
                first, first_loop = row.engine_eps, row.loop_eps
            note = (f"{seen[0]:,} deliveries; created in {setup_s:.1f} s; "
                    f"ev/s vs 1 statement: {row.engine_eps / first:.2f} "
                    f"(loop vs 1: {row.loop_eps / first_loop:.2f})")
            rows.append(Row(row.workload, row.case, row.events, row.engine_eps, row.loop_eps,
                            note + ("; " + row.note if row.note else "")))
    return rows
