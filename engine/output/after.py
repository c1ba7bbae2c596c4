"""`output after <time period>` / `output after N events`: nothing is output until the
statement has run that long or seen that many events; then the after-clause is done for good.
The spec is the plan's (epl/plans/output.py); AfterState is one statement instance's."""
from __future__ import annotations

from typing import Any

from epl.plans.output import AfterSpec


class AfterState:
    """`passed(n)` counts n more events (the view's insert events, or for a statement with
    only an after-clause its output rows) and says whether output may happen now."""

    __slots__ = ("ctx", "until", "events", "seen", "satisfied")

    def __init__(self, spec: AfterSpec, ctx: Any) -> None:
        self.ctx = ctx
        self.until = None if spec.msec is None else ctx.now() + spec.msec
        self.events = spec.events
        self.seen = 0
        self.satisfied = spec.msec is None and spec.events is None

    def passed(self, new_count: int) -> bool:
        if self.satisfied:
            return True
        if self.until is not None:
            if self.ctx.now() < self.until:
                return False
        elif self.events is not None:
            self.seen += new_count
            if self.seen <= self.events:
                return False
        self.satisfied = True
        return True
