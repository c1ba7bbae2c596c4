"""Quick measurement of the filter index hot path (not a test): ns per event, best of
several interleaved rounds (so that machine load hits every case alike).

Run: .venv/bin/python tests/filterindex/perf_filterindex.py [rounds]
"""
from __future__ import annotations

import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.bean import EventBean  # noqa: E402
from engine.event_types import EventTypeRegistry  # noqa: E402
from filterindex import FilterIndex, FilterOp, FilterParam, FilterSpec  # noqa: E402

N = 1_000_000


def main(rounds: int) -> None:
    reg = EventTypeRegistry()
    tick = reg.register_map("Tick", {"symbol": "string", "price": "double", "volume": "long"})
    other = reg.register_map("Other", {"x": "int"})
    rnd = random.Random(1)
    raw = [{"symbol": f"S{rnd.randrange(10_000)}", "price": rnd.uniform(0, 100), "volume": 1}
           for _ in range(N)]
    beans = [EventBean(tick, e) for e in raw]
    other_beans = [EventBean(other, {"x": 1}) for _ in range(N)]
    s7_beans = [EventBean(tick, {"symbol": "S7", "price": rnd.uniform(0, 100), "volume": 1})
                for _ in range(N)]

    w1 = FilterIndex()
    w1.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, "S7"),
                              FilterParam("price", FilterOp.GT, 50)),)), "h")
    one = FilterIndex()
    one.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, "S7"),),)), 0)
    many = FilterIndex()
    for i in range(10_000):
        many.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, f"S{i}"),),)), i)
    m_w1, m_one, m_many = w1.matcher(tick), one.matcher(tick), many.matcher(tick)

    def hand():
        n = 0
        for e in raw:
            if e["symbol"] == "S7" and e["price"] > 50:
                n += 1

    def w1_match():
        for b in beans:
            w1.match(b)

    def w1_matcher():
        for b in beans:
            m_w1(b)

    def w1_with_bean():
        for e in raw:
            w1.match(EventBean(tick, e))

    def no_filter_type():
        for b in other_beans:
            w1.match(b)

    def one_eq():
        for b in beans:
            one.match(b)

    def one_eq_all_match():
        for b in s7_beans:
            one.match(b)

    def many_eq():
        for b in beans:
            many.match(b)

    def many_eq_matcher():
        for b in beans:
            m_many(b)

    def one_eq_matcher():
        for b in beans:
            m_one(b)

    cases = [
        ("hand-written loop `symbol=='S7' and price>50`", hand),
        ("W1 1 filter (EQ+GT), index.match(bean)", w1_match),
        ("W1 1 filter (EQ+GT), matcher(tick)(bean)", w1_matcher),
        ("W1 1 filter, EventBean(...) + index.match", w1_with_bean),
        ("no-filter type, index.match(bean)", no_filter_type),
        ("W5 1 EQ filter, index.match(bean)", one_eq),
        ("W5 1 EQ filter, matcher", one_eq_matcher),
        ("W5 1 EQ filter, every event matching it, index.match", one_eq_all_match),
        ("W5 10,000 EQ filters (every event matches one), index.match", many_eq),
        ("W5 10,000 EQ filters, matcher", many_eq_matcher),
    ]
    best = {name: float("inf") for name, _ in cases}
    for _ in range(rounds):
        for name, fn in cases:
            gc.collect()
            t0 = time.perf_counter()
            fn()
            best[name] = min(best[name], (time.perf_counter() - t0) / N * 1e9)
    hand_ns = best[cases[0][0]]
    for name, _ in cases:
        print(f"{name:64s} {best[name]:7.1f} ns/event  (hand loop / this: {hand_ns / best[name]:.2f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
