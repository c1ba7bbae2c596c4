"""Timing and reporting: medians of repeated runs, events per second, the engine/loop ratio."""
from __future__ import annotations

import gc
import math
import statistics
import time
import tracemalloc
from dataclasses import dataclass
from typing import Any, Callable, Optional

# A run returns (seconds spent on the timed part, a result to compare engine and loop by).
Run = tuple[float, Any]


@dataclass(frozen=True)
class Row:
    """One line of the report. A figure of None means the workload is not supported."""

    workload: str
    case: str
    events: int
    engine_eps: Optional[float] = None
    loop_eps: Optional[float] = None
    note: str = ""
    # "ev/s" (events per second: more is better) or "B/1k" (bytes per 1,000 units: less is
    # better); either way `ratio` is the engine's figure relative to the loop's, higher better
    unit: str = "ev/s"

    @property
    def ratio(self) -> Optional[float]:
        if self.engine_eps is None or not self.loop_eps:
            return None
        if self.unit != "ev/s":
            return self.loop_eps / self.engine_eps if self.engine_eps else None
        return self.engine_eps / self.loop_eps

    @property
    def key(self) -> str:
        """What identifies the row in a saved baseline."""
        return f"{self.workload} | {self.case}"


def stopwatch() -> Callable[[], float]:
    """Start timing; the returned function gives the seconds elapsed since."""
    start = time.perf_counter()
    return lambda: time.perf_counter() - start


def median_run(fn: Callable[[], Run], repeat: int) -> Run:
    """The median time of `repeat` runs (garbage collected between runs, not during), and
    the result of the first run."""
    times = []
    result: Any = None
    for i in range(max(1, repeat)):
        gc.collect()
        seconds, r = fn()
        times.append(seconds)
        if i == 0:
            result = r
    return statistics.median(times), result


def same_result(a: Any, b: Any) -> bool:
    """Results are counts, tuples of counts or float sums: floats compare with a tolerance
    (the engine sums floats exactly, a loop does not)."""
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6)
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same_result(x, y) for x, y in zip(a, b))
    return a == b


def measure(workload: str, case: str, events: int, engine: Callable[[], Run],
            loop: Callable[[], Run], repeat: int, note: str = "") -> Row:
    """Time the engine and the loop on the same events, runs interleaved (engine, loop,
    engine, ...) so that both see the same machine load; a differing result is flagged."""
    e_times, l_times = [], []
    e_res = l_res = None
    for i in range(max(1, repeat)):
        for fn, times in ((engine, e_times), (loop, l_times)):
            gc.collect()
            seconds, r = fn()
            times.append(seconds)
            if i == 0:
                if fn is engine:
                    e_res = r
                else:
                    l_res = r
    if not same_result(e_res, l_res):
        note = (note + "; " if note else "") + f"RESULTS DIFFER: engine {e_res!r}, loop {l_res!r}"
    return Row(workload, case, events, events / statistics.median(e_times),
               events / statistics.median(l_times), note)


def measure_memory(workload: str, case: str, units: int, engine: Callable[[], Any],
                   loop: Callable[[], Any], repeat: int, note: str = "") -> Row:
    """Bytes per 1,000 units (groups, pattern instances) that `engine()` and `loop()` keep
    allocated, by tracemalloc: each returns what must stay alive (its state) and is measured
    from before its call to after it, runs interleaved, medians."""
    e_sizes, l_sizes = [], []
    for _ in range(max(1, repeat)):
        for fn, sizes in ((engine, e_sizes), (loop, l_sizes)):
            gc.collect()
            tracemalloc.start()
            try:
                before = tracemalloc.get_traced_memory()[0]
                kept = fn()
                gc.collect()
                sizes.append(tracemalloc.get_traced_memory()[0] - before)
            finally:
                tracemalloc.stop()
            del kept
    per = 1000.0 / units
    return Row(workload, case, units, statistics.median(e_sizes) * per, statistics.median(l_sizes) * per,
               note, unit="B/1k")


def not_supported(workload: str, case: str, reason: str) -> Row:
    return Row(workload, case, 0, None, None, f"not supported ({reason})")


def _eps(v: Optional[float], unit: str = "ev/s") -> str:
    if v is None:
        return "not supported"
    return f"{v:,.0f}" if unit == "ev/s" else f"{v / 1024:,.1f} KiB/1k"


def format_rows(rows: list[Row]) -> str:
    """A plain-text table: workload, case, events, engine ev/s, loop ev/s, ratio, note."""
    head = ("workload", "case", "events", "engine ev/s", "loop ev/s", "engine/loop", "note")
    # memory rows: "events" is the number of units kept, the figures KiB per 1,000 units and
    # the ratio loop/engine (so that, as for speed, higher is better)
    lines = [head]
    for r in rows:
        ratio = "" if r.ratio is None else f"{r.ratio:.3f}"
        loop = "" if r.loop_eps is None and r.engine_eps is not None else _eps(r.loop_eps, r.unit)
        lines.append((r.workload, r.case, f"{r.events:,}" if r.events else "", _eps(r.engine_eps, r.unit),
                      loop if r.engine_eps is not None else "", ratio, r.note))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(head) - 1)]
    out = []
    for line in lines:
        cells = [str(c).rjust(w) if i >= 2 else str(c).ljust(w) for i, (c, w) in enumerate(zip(line, widths))]
        out.append("  ".join(cells + [line[-1]]).rstrip())
    return "\n".join(out)


class LoopRow:
    """A hand loop's output row, read like the engine's (`row.underlying`)."""

    __slots__ = ("underlying",)

    def __init__(self, underlying: dict) -> None:
        self.underlying = underlying


def send_typed(schemas: Any, epl: str, listener: Callable[[Any, Any], None],
               events: list[tuple[str, dict]]) -> float:
    """A simulated-time engine with `schemas` and one statement listened to by `listener`;
    the seconds it takes to send (type name, event) pairs one by one."""
    from engine import Engine
    engine = Engine(time="simulated")
    for schema in schemas:
        engine.epl(schema)
    engine.epl(epl).add_listener(listener)
    send = engine.send
    elapsed = stopwatch()
    for type_name, ev in events:
        send(ev, type_name)
    return elapsed()
