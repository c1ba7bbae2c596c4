"""`output at (minutes, hours, days, months, weekdays [, seconds [, zone]])`: output whenever
the crontab schedule comes due, from the statement's first update on."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .base import Fire, OutputCondition
from .crontab import CrontabSpec


@dataclass(frozen=True)
class AtCrontab:
    spec: CrontabSpec
    timezone: Optional[str] = None
    start_on_creation: bool = False

    def make(self, ctx: Any, fire: Fire) -> OutputCondition:
        return CrontabCondition(self, ctx, fire)


class CrontabCondition:
    __slots__ = ("at", "ctx", "fire", "handle", "stopped")

    def __init__(self, at: AtCrontab, ctx: Any, fire: Fire) -> None:
        self.at = at
        self.ctx = ctx
        self.fire = fire
        self.handle: Any = None
        self.stopped = False
        if at.start_on_creation:
            self.update(0, 0)

    def update(self, new_count: int, old_count: int) -> None:
        if self.handle is None and not self.stopped:
            self._schedule()

    def _schedule(self) -> None:
        at = self.at.spec.next_after(self.ctx.now(), self.at.timezone)
        self.handle = self.ctx.schedule(at, self._due)

    def _due(self) -> None:
        self.handle = None
        self.fire(True, True)
        if self.handle is None and not self.stopped:
            self._schedule()

    def terminated(self) -> None:
        self.fire(True, True)

    def stop(self) -> None:
        self.stopped = True
        if self.handle is not None:
            self.ctx.cancel(self.handle)
            self.handle = None
