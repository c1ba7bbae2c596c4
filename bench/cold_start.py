"""Cold start: a fresh Python process imports the engine, makes an `Engine()`, declares a
schema, starts a grouped windowed statement and sends one event. `python -m bench.cold_start`
prints the median wall time of a few such processes (interpreter start included)."""
from __future__ import annotations

import os
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


def once() -> float:
    """Wall seconds of one fresh process running SCRIPT."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", SCRIPT], env=env, check=True, cwd=str(ROOT))
    return time.perf_counter() - t0


def measure(runs: int = 5) -> float:
    """Median wall seconds over `runs` processes (after one warm-up that may write bytecode)."""
    once()
    return statistics.median(once() for _ in range(runs))


def line(runs: int = 5) -> str:
    seconds = measure(runs)
    verdict = "within" if seconds <= BUDGET_S else "OVER"
    return (f"cold start (new process: import, Engine(), schema, grouped #time statement, one event): "
            f"{seconds * 1000:.0f} ms, median of {runs}; {verdict} the {BUDGET_S * 1000:.0f} ms budget")


if __name__ == "__main__":
    print(line())
