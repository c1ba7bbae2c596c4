"""`output every N events`: output once N insert events (or N remove events) have arrived."""
from __future__ import annotations

from epl.plans.output import EveryEvents
from .base import Fire


class CountCondition:
    """Counts insert and remove events separately; either reaching the rate fires, without
    forcing a listener call when the batch turns out empty (Esper's count condition)."""

    __slots__ = ("spec", "fire", "rate", "new_count", "old_count")

    def __init__(self, spec: EveryEvents, ctx: object, fire: Fire) -> None:
        self.spec = spec
        self.fire = fire
        self.rate = spec.rate
        self.new_count = 0
        self.old_count = 0

    def update(self, new_count: int, old_count: int) -> None:
        if self.spec.read_rate is not None:
            v = self.spec.read_rate()
            if v is not None:
                self.rate = int(v)
        self.new_count += new_count
        self.old_count += old_count
        if self.new_count >= self.rate or self.old_count >= self.rate:
            self.new_count = self.old_count = 0
            self.fire(True, False)

    def terminated(self) -> None:
        self.fire(True, True)

    def stop(self) -> None:
        pass
