"""`output at (minutes, hours, days, months, weekdays [, seconds [, zone]])`: output whenever
the crontab schedule comes due, from the statement's first update on."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .base import Fire, OutputCondition, Scheduled
from .crontab import CrontabSpec


@dataclass(frozen=True)
class AtCrontab:
    spec: CrontabSpec
    timezone: Optional[str] = None
    start_on_creation: bool = False

    def make(self, ctx: Any, fire: Fire) -> OutputCondition:
        return CrontabCondition(self, ctx, fire)


class CrontabCondition(Scheduled):
    __slots__ = ("at",)

    def __init__(self, at: AtCrontab, ctx: Any, fire: Fire) -> None:
        Scheduled.__init__(self, ctx, fire)
        self.at = at
        if at.start_on_creation:
            self.update(0, 0)

    def update(self, new_count: int, old_count: int) -> None:
        if self.handle is None and not self.stopped:
            self._schedule()

    def _schedule(self) -> None:
        at = self.at.spec.next_after(self.ctx.now(), self.at.timezone)
        self.handle = self.ctx.schedule(at, self._due)
