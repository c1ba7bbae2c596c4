"""Quick measurement of the filter index hot path (not a test): ns per event.

Run: .venv/bin/python tests/filterindex/perf_filterindex.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.bean import EventBean  # noqa: E402
from engine.event_types import EventTypeRegistry  # noqa: E402
from filterindex import FilterIndex, FilterOp, FilterParam, FilterSpec  # noqa: E402

N = 1_000_000


def _best(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best / N * 1e9


def main() -> None:
    reg = EventTypeRegistry()
    tick = reg.register_map("Tick", {"symbol": "string", "price": "double", "volume": "long"})
    other = reg.register_map("Other", {"x": "int"})
    rnd = random.Random(1)
    raw = [{"symbol": f"S{rnd.randrange(10_000)}", "price": rnd.uniform(0, 100), "volume": 1}
           for _ in range(N)]
    beans = [EventBean(tick, e) for e in raw]
    other_beans = [EventBean(other, {"x": 1}) for _ in range(N)]

    def hand():
        n = 0
        for e in raw:
            if e["symbol"] == "S7" and e["price"] > 50:
                n += 1
    print(f"hand-written loop (S7 and price>50):      {_best(hand):7.1f} ns/event")

    idx = FilterIndex()
    idx.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, "S7"),
                               FilterParam("price", FilterOp.GT, 50)),)), "h")
    m = idx.matcher(tick)
    match = idx.match

    def w1_matcher():
        for b in beans:
            m(b)

    def w1_match():
        for b in beans:
            match(b)

    def w1_bean():
        for e in raw:
            m(EventBean(tick, e))
    print(f"W1 1 filter (EQ+GT), matcher(bean):       {_best(w1_matcher):7.1f} ns/event")
    print(f"W1 1 filter (EQ+GT), index.match(bean):   {_best(w1_match):7.1f} ns/event")
    print(f"W1 1 filter, EventBean(...) + matcher:    {_best(w1_bean):7.1f} ns/event")

    def no_type():
        for b in other_beans:
            match(b)
    print(f"no-filter type, index.match(bean):        {_best(no_type):7.1f} ns/event")

    one = FilterIndex()
    one.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, "S7"),),)), 0)
    m1 = one.matcher(tick)

    def eq1():
        for b in beans:
            m1(b)
    print(f"W5 1 EQ filter, matcher:                  {_best(eq1):7.1f} ns/event")

    many = FilterIndex()
    for i in range(10_000):
        many.add(FilterSpec(tick, ((FilterParam("symbol", FilterOp.EQ, f"S{i}"),),)), i)
    mm = many.matcher(tick)

    def eq10k():
        for b in beans:
            mm(b)
    print(f"W5 10,000 EQ filters (each event matches one), matcher: {_best(eq10k):7.1f} ns/event")

    def loop_only():
        for b in beans:
            pass
    print(f"empty loop over beans:                    {_best(loop_only):7.1f} ns/event")


if __name__ == "__main__":
    main()
