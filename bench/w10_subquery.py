"""W10: a correlated subquery, the last quote of the trade's symbol:
`select t.symbol, t.volume, (select q.price from Quote#unique(symbol) as q where q.symbol =
t.symbol) as last from Trade as t`, quotes and trades mixed half and half over 100 symbols,
sent one by one (two event types)."""
from __future__ import annotations

import random

from .harness import LoopRow, Row, Run, measure, send_typed, stopwatch

NAME = "W10 subquery"
SCHEMAS = ("create schema Quote(symbol string, price double)",
           "create schema Trade(symbol string, volume long)")
EPL = ("select t.symbol as symbol, t.volume as volume, (select q.price from Quote#unique(symbol) "
       "as q where q.symbol = t.symbol) as last from Trade as t")
SIZES = {False: 300_000, True: 20_000}


def events(n: int, seed: int = 7) -> list[tuple[str, dict]]:
    rng = random.Random(seed)
    pick, rand = rng.randrange, rng.random
    syms = [f"S{i}" for i in range(100)]
    return [("Quote", {"symbol": syms[pick(100)], "price": round(rand() * 100.0, 2)}) if pick(2)
            else ("Trade", {"symbol": syms[pick(100)], "volume": pick(1, 1000)}) for _ in range(n)]


def _listener(acc: list):
    def listen(new, old):
        for row in new:
            last = row.underlying["last"]
            acc[0] += 1
            if last is None:
                acc[2] += 1
            else:
                acc[1] += last
    return listen


def engine_run(evs: list[tuple[str, dict]]) -> Run:
    acc = [0, 0.0, 0]      # rows, total of the last prices, rows without a quote yet
    return send_typed(SCHEMAS, EPL, _listener(acc), evs), tuple(acc)


def loop_run(evs: list[tuple[str, dict]]) -> Run:
    acc = [0, 0.0, 0]
    listen = _listener(acc)
    last: dict = {}
    elapsed = stopwatch()
    for type_name, ev in evs:
        if type_name == "Quote":
            last[ev["symbol"]] = ev["price"]
        else:
            sym = ev["symbol"]
            listen([LoopRow({"symbol": sym, "volume": ev["volume"], "last": last.get(sym)})], None)
    return elapsed(), tuple(acc)


def run(quick: bool, repeat: int) -> list[Row]:
    evs = events(SIZES[quick])
    return [measure(NAME, "last quote by symbol (unique window)", len(evs),
                    lambda: engine_run(evs), lambda: loop_run(evs), repeat)]
