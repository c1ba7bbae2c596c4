"""The `@consume(level)` filter attribute (Esper's "Controlling Event Consumption"): when one
event matches several filters of the same pattern, only the filters of the highest level
among them take it (no attribute: level 0, `@consume`: level 1); the others never see it."""
from __future__ import annotations

import dataclasses
from typing import Any


def has_consume(plan: Any) -> bool:
    """Whether a pattern plan tree holds a filter with `@consume` (walked once per run)."""
    seen: set[int] = set()
    stack = [plan]
    while stack:
        p = stack.pop()
        if id(p) in seen:
            continue
        seen.add(id(p))
        if getattr(p, "consume", None) is not None and hasattr(p, "template"):
            return True
        if dataclasses.is_dataclass(p) and not isinstance(p, type):
            for f in dataclasses.fields(p):
                v = getattr(p, f.name)
                if dataclasses.is_dataclass(v) and not isinstance(v, type):
                    stack.append(v)
                elif isinstance(v, (tuple, list)):
                    stack.extend(x for x in v if dataclasses.is_dataclass(x) and not isinstance(x, type))
    return False


class Consumption:
    """Per pattern run: decides, at the first of its filters an event reaches, which of the
    run's filters matching that event take it; the rest are skipped for that event."""

    __slots__ = ("run", "last", "takers")

    def __init__(self, run: Any) -> None:
        self.run = run
        self.last: Any = None
        self.takers: set[int] = set()

    def takes(self, state: Any, bean: Any) -> bool:
        if bean is not self.last:
            self.last = bean
            self.takers = self._takers(bean)
        return id(state) in self.takers

    def _takers(self, bean: Any) -> set[int]:
        run = self.run
        level = None
        out: set[int] = set()
        # the run's filters as the index had them when routing this event: this is the
        # first of them to be called, nothing of the run has changed since
        for h in run.index.match_filters(bean):
            if getattr(h, "run", None) is not run or not getattr(h, "is_filter", False):
                continue
            lv = h.plan.consume or 0
            if level is None or lv > level:
                level = lv
                out = set()
            if lv == level:
                out.add(id(h))
        return out
