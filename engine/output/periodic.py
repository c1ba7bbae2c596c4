"""`output every <time period>`: output at the end of every interval.

The intervals start with the statement's first update (Esper starts the condition on creation
only for statements over tables) and keep firing, with or without updates, on a fixed grid
from that first update. After a jump in time the next output is the next grid point after now.
"""
from __future__ import annotations

from typing import Any, Optional

from epl.plans.output import EveryTime
from .base import Fire, Scheduled


def next_grid_point(now: int, reference: int, period: int) -> int:
    """The first `reference + k * period` (k >= 1 when now == reference) strictly after now."""
    if now < reference:
        return reference
    k = (now - reference) // period + 1
    return reference + k * period


class TimeCondition(Scheduled):
    __slots__ = ("spec", "reference")

    def __init__(self, spec: EveryTime, ctx: Any, fire: Fire) -> None:
        Scheduled.__init__(self, ctx, fire)
        self.spec = spec
        self.reference: Optional[int] = None
        if spec.start_on_creation:
            self.update(0, 0)

    def update(self, new_count: int, old_count: int) -> None:
        if self.reference is None:
            self.reference = self.ctx.now()
        if self.handle is None:
            self._schedule()

    def _schedule(self) -> None:
        period = self.spec.period()
        at = next_grid_point(self.ctx.now(), self.reference, period)
        self.handle = self.ctx.schedule(at, self._due)
