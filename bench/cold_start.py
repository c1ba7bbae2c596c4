"""Cold start: a fresh Python process imports the engine, makes an `Engine()`, declares a
schema, starts a grouped windowed statement and sends one event. `python -m bench.cold_start`
prints the median wall time of a few such processes (interpreter start included)."""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
from engine import Engine
engine = Engine(time="simulated")
engine.epl("create schema Tick(symbol string, price double)")
stmt = engine.epl("select symbol, avg(price) as avg_price from Tick#time(10 sec) group by symbol")
got = []
stmt.add_listener(lambda new, old: got.append(new))
engine.send({"symbol": "A", "price": 1.0}, "Tick")
assert got
"""

BUDGET_S = 0.3


def once() -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process running SCRIPT. The CPU time is what a
    busy machine cannot inflate much: tests compare it, people read the wall time."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", SCRIPT], env=env, check=True, cwd=str(ROOT))
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(runs: int = 5) -> float:
    """Median wall seconds over `runs` processes (after one warm-up that may write bytecode)."""
    return measure_both(runs)[0]


def measure_both(runs: int = 5) -> tuple[float, float]:
    """Medians of (wall, CPU) seconds over `runs` processes, after one warm-up."""
    once()
    results = [once() for _ in range(runs)]
    return statistics.median(w for w, _ in results), statistics.median(c for _, c in results)


def line(runs: int = 5) -> str:
    wall, cpu = measure_both(runs)
    verdict = "within" if wall <= BUDGET_S else "OVER"
    return (f"cold start (new process: import, Engine(), schema, grouped #time statement, one event): "
            f"{wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU, median of {runs}; {verdict} the "
            f"{BUDGET_S * 1000:.0f} ms budget")


if __name__ == "__main__":
    print(line())
