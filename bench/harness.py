"""Timing and reporting: medians of repeated runs, events per second, the engine/loop ratio."""
from __future__ import annotations

import gc
import math
import statistics
import time
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

    @property
    def ratio(self) -> Optional[float]:
        if self.engine_eps is None or not self.loop_eps:
            return None
        return self.engine_eps / self.loop_eps


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


def not_supported(workload: str, case: str, reason: str) -> Row:
    return Row(workload, case, 0, None, None, f"not supported ({reason})")


def _eps(v: Optional[float]) -> str:
    return "not supported" if v is None else f"{v:,.0f}"


def format_rows(rows: list[Row]) -> str:
    """A plain-text table: workload, case, events, engine ev/s, loop ev/s, ratio, note."""
    head = ("workload", "case", "events", "engine ev/s", "loop ev/s", "engine/loop", "note")
    lines = [head]
    for r in rows:
        ratio = "" if r.ratio is None else f"{r.ratio:.3f}"
        loop = "" if r.loop_eps is None and r.engine_eps is not None else _eps(r.loop_eps)
        lines.append((r.workload, r.case, f"{r.events:,}" if r.events else "", _eps(r.engine_eps),
                      loop if r.engine_eps is not None else "", ratio, r.note))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(head) - 1)]
    out = []
    for line in lines:
        cells = [str(c).rjust(w) if i >= 2 else str(c).ljust(w) for i, (c, w) in enumerate(zip(line, widths))]
        out.append("  ".join(cells + [line[-1]]).rstrip())
    return "\n".join(out)
