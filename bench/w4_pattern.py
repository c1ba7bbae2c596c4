"""W4: the pattern `every a=A -> b=B(id = a.id)` over 1,000 ids; and the same with
`where timer:within(1 sec)` on simulated time (events 1 ms apart), reporting the filter
count before and after the run (pattern filters must not leak)."""
from __future__ import annotations

from engine import Engine

from . import data
from .harness import Row, Run, measure, not_supported, stopwatch

NAME = "W4 pattern"
EPL = "select * from pattern [every a=A -> b=B(id = a.id)]"
EPL_WITHIN = "select * from pattern [every a=A -> b=B(id = a.id) where timer:within(1 sec)]"
SIZES = {False: 200_000, True: 20_000}
IDS = 1000
WITHIN_MS = 1000


def _listener(acc: list):
    def listen(new, old):
        for row in new:
            m = row.underlying
            acc[0] += 1
            acc[1] += m["a"].underlying["seq"]
            acc[2] += m["b"].underlying["seq"]
    return listen


def _engine(within: bool) -> tuple[Engine, list]:
    engine = Engine(time="simulated")
    for schema in data.PATTERN_SCHEMAS:
        engine.epl(schema)
    acc = [0, 0, 0]       # matches, sum of a.seq, sum of b.seq
    engine.epl(EPL_WITHIN if within else EPL).add_listener(_listener(acc))
    return engine, acc


def engine_run(events: list[tuple[str, dict]]) -> Run:
    engine, acc = _engine(False)
    send = engine.send
    elapsed = stopwatch()
    for type_name, ev in events:
        send(ev, type_name)
    return elapsed(), tuple(acc)


def engine_many_run(events: list[tuple[str, dict]]) -> Run:
    """The same events through one `send_many(evs, types=...)` (the lists made before the
    clock starts)."""
    engine, acc = _engine(False)
    types = [tn for tn, _ in events]
    evs = [ev for _, ev in events]
    elapsed = stopwatch()
    engine.send_many(evs, types=types)
    return elapsed(), tuple(acc)


def loop_run(events: list[tuple[str, dict]]) -> Run:
    acc = [0, 0, 0]
    listen = _listener(acc)
    waiting: dict = {}                 # id -> A events waiting for their B, oldest first
    elapsed = stopwatch()
    for type_name, ev in events:
        if type_name == "A":
            w = waiting.get(ev["id"])
            if w is None:
                waiting[ev["id"]] = [ev]
            else:
                w.append(ev)
        else:
            w = waiting.pop(ev["id"], None)
            if w:
                listen([_Row({"a": _Row(a), "b": _Row(ev)}) for a in w], None)
    return elapsed(), tuple(acc)


def engine_within_run(events: list[tuple[str, dict]], counts: list) -> Run:
    """`counts` receives (filters before, after, schedules after) of the run."""
    engine, acc = _engine(True)
    before = engine.filter_count()
    send, advance = engine.send, engine.advance_time
    elapsed = stopwatch()
    for t, (type_name, ev) in enumerate(events):
        advance(t)
        send(ev, type_name)
    seconds = elapsed()
    advance(len(events) + 2 * WITHIN_MS)       # every guard has expired by now
    counts[:] = [before, engine.filter_count(), engine.schedule_count()]
    return seconds, tuple(acc)


def engine_within_many_run(events: list[tuple[str, dict]], counts: list) -> Run:
    """The same events and times through one `send_many(evs, times=..., types=...)`."""
    engine, acc = _engine(True)
    before = engine.filter_count()
    types = [tn for tn, _ in events]
    evs = [ev for _, ev in events]
    times = list(range(len(events)))
    elapsed = stopwatch()
    engine.send_many(evs, times=times, types=types)
    seconds = elapsed()
    engine.advance_time(len(events) + 2 * WITHIN_MS)       # every guard has expired by now
    counts[:] = [before, engine.filter_count(), engine.schedule_count()]
    return seconds, tuple(acc)


def loop_within_run(events: list[tuple[str, dict]]) -> Run:
    acc = [0, 0, 0]
    listen = _listener(acc)
    waiting: dict = {}                 # id -> [(deadline, A event)], oldest first
    elapsed = stopwatch()
    for t, (type_name, ev) in enumerate(events):
        if type_name == "A":
            w = waiting.get(ev["id"])
            if w is None:
                waiting[ev["id"]] = [(t + WITHIN_MS, ev)]
            else:
                w.append((t + WITHIN_MS, ev))
        else:
            w = waiting.pop(ev["id"], None)
            if w:
                # a guard ends at its deadline, before an event arriving at that instant
                rows = [_Row({"a": _Row(a), "b": _Row(ev)}) for deadline, a in w if t < deadline]
                if rows:
                    listen(rows, None)
    return elapsed(), tuple(acc)


class _Row:
    """The loop's output row, read like the engine's (`row.underlying`)."""

    __slots__ = ("underlying",)

    def __init__(self, underlying: dict) -> None:
        self.underlying = underlying


def run(quick: bool, repeat: int) -> list[Row]:
    events = data.pattern_events(SIZES[quick], IDS)
    rows = [measure(NAME, "every a=A -> b=B(id = a.id)", len(events),
                    lambda: engine_run(events), lambda: loop_run(events), repeat),
            measure(NAME, "... send_many with types", len(events),
                    lambda: engine_many_run(events), lambda: loop_run(events), repeat)]
    for case, engine_fn in (("... where timer:within(1 sec)", engine_within_run),
                            ("... within, send_many with times and types", engine_within_many_run)):
        counts: list = []
        try:
            row = measure(NAME, case, len(events), lambda: engine_fn(events, counts),
                          lambda: loop_within_run(events), repeat)
        except Exception as exc:  # a missing feature is reported, not fatal
            rows.append(not_supported(NAME, case, f"{type(exc).__name__}: {exc}"))
            continue
        before, after, schedules = counts
        note = f"filters before {before}, after {after}; schedules after {schedules}"
        rows.append(Row(row.workload, row.case, row.events, row.engine_eps, row.loop_eps,
                        note + ("; " + row.note if row.note else "")))
    return rows
