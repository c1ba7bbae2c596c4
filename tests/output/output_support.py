"""Helpers for output-limiting tests: a recording listener and an engine on simulated time."""
from __future__ import annotations

from engine import Engine


class Recorder:
    """Every listener call as (new rows, old rows), each a list of plain dicts (empty for none)."""

    def __init__(self) -> None:
        self.calls: list[tuple[list, list]] = []

    def __call__(self, new, old) -> None:
        self.calls.append(([e.to_dict() for e in new or []], [e.to_dict() for e in old or []]))

    def take(self) -> list[tuple[list, list]]:
        calls, self.calls = self.calls, []
        return calls


def make_engine() -> Engine:
    e = Engine(time="simulated")
    if not e.aggregations:
        # the built-in aggregations are wired into the engine elsewhere; until then, use the
        # registry directly so these tests do not depend on that integration
        from engine.aggregation import AGGREGATIONS
        e.aggregations.update(AGGREGATIONS)
    return e
