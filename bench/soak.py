"""`python -m bench.soak` (`make soak`): millions of events through a mixed set of statements,
printing resident memory every million: it must stay flat after warm-up.

The statements hold only bounded state, so any growth is a leak: sliding and time windows,
groups with ever-new keys bounded by a window (a group leaves when its last event does;
there is no `reclaim_group_aged` hint), patterns with `timer:within`, keyed contexts whose
partitions end (`terminated by`), and an `initiated by`/`terminated by` context whose
partitions end by time. Time advances 1 ms per event (simulated), so time windows, pattern
guards and context ends all fire throughout the run.

    python -m bench.soak [--events 10000000] [--every 1000000]
"""
from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import time

from engine import Engine

STATEMENTS = (
    "create schema Tick(sym string, price double, qty int, seq long)",
    "create schema Open(id long)",
    "create schema Close(id long)",
    # windows, grouped and not
    "select sym, avg(price) as a, sum(qty) as q from Tick#length(500) group by sym",
    "select count(*) as n, max(price) as m from Tick#time(2 sec)",
    "select irstream sym, price from Tick(qty > 95)#length(20)",
    # groups with ever-new keys, bounded by the window they aggregate over
    "select seq % 100000 as k, count(*) as c from Tick#time(1 sec) group by seq % 100000",
    "select sym, stddev(price) as s from Tick#groupwin(sym)#length(10) group by sym",
    # patterns with timer:within: instances end by match or by time
    "select a.id as a, b.id as b from pattern [every a=Open -> b=Close(id = a.id) "
    "where timer:within(500 msec)]",
    # contexts whose partitions end
    "create context ById partition by id from Open, id from Close terminated by Close",
    "context ById select id, count(*) as c from Open",
    "create context Sess initiated by Open as o terminated after 300 msec",
    "context Sess select count(*) as c from Tick",
    # insert-into chain
    "insert into Big select sym, price from Tick(price > 99.0)",
    "select sym, count(*) as c from Big#time(5 sec) group by sym",
)


def rss_mb() -> float:
    """Current resident set size (MB) from /proc/self/statm, else the peak from getrusage."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except (OSError, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def run(events: int, every: int, out=sys.stdout) -> list[tuple[int, float]]:
    engine = Engine(time="simulated")
    delivered = [0]
    for text in STATEMENTS:
        stmt = engine.epl(text)
        if not text.startswith("create"):
            stmt.add_listener(lambda new, old: delivered.__setitem__(0, delivered[0] + 1))
    syms = [f"S{i}" for i in range(200)]
    figures: list[tuple[int, float]] = []
    start = time.perf_counter()
    t = 0
    send = engine.send
    late: list[int] = []        # ids whose Close comes after their pattern timed out
    for i in range(events):
        t += 1
        engine.advance_time(t)
        r = (i * 2654435761) & 0xFFFF               # cheap deterministic spread
        send({"sym": syms[r % 200], "price": (r % 10000) / 100.0, "qty": r % 100, "seq": i},
             "Tick")
        if i % 50 == 0:
            send({"id": i}, "Open")
        elif i % 50 == 25:
            if r % 3:
                send({"id": i - 25}, "Close")       # two thirds match in time
            else:
                late.append(i - 25)                 # the rest time out, closed later
            while late and late[0] < i - 1000:
                send({"id": late.pop(0)}, "Close")  # ends the partition all the same
        if (i + 1) % every == 0:
            gc.collect()
            figures.append((i + 1, rss_mb()))
            elapsed = time.perf_counter() - start
            print(f"{i + 1:>11,} events  rss {figures[-1][1]:8.1f} MB  "
                  f"{(i + 1) / elapsed:9,.0f} ev/s  filters {engine.filter_count():>5}  "
                  f"schedules {engine.schedule_count():>6}  deliveries {delivered[0]:,}",
                  file=out, flush=True)
    engine.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=10_000_000)
    p.add_argument("--every", type=int, default=1_000_000)
    args = p.parse_args(argv)
    figures = run(args.events, args.every)
    if len(figures) >= 3:
        warm = figures[1][1]
        print(f"growth after warm-up: {figures[-1][1] - warm:+.1f} MB "
              f"({figures[1][0]:,} -> {figures[-1][0]:,} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
