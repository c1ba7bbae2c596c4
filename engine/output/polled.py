"""Per-group output conditions for `output first ... ` with group by: each group decides on its
own, when one of its events arrives, whether this event is its first since the last output.

- time: at least the period since the group's last output (the group's first event passes);
- events: the group's first event passes, then every N-th;
- crontab: the group's first event passes, then the first one after each due time;
- when: the when-expression, evaluated with the group's own counters.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .at import AtCrontab
from .count import EveryEvents
from .periodic import EveryTime
from .when import WhenSpec


class PolledTime:
    __slots__ = ("msec", "ctx", "last")

    def __init__(self, msec: int, ctx: Any) -> None:
        self.msec = msec
        self.ctx = ctx
        self.last: Optional[int] = None

    def passes(self, new_count: int, old_count: int) -> bool:
        now = self.ctx.now()
        if self.last is None or now - self.last >= self.msec:
            self.last = now
            return True
        return False


class PolledCount:
    __slots__ = ("spec", "new_count", "old_count", "first")

    def __init__(self, spec: EveryEvents) -> None:
        self.spec = spec
        self.new_count = 0
        self.old_count = 0
        self.first = True

    def passes(self, new_count: int, old_count: int) -> bool:
        rate = self.spec.rate
        if self.spec.read_rate is not None:
            v = self.spec.read_rate()
            if v is not None:
                rate = int(v)
        self.new_count += new_count
        self.old_count += old_count
        if self.first or self.new_count >= rate or self.old_count >= rate:
            self.first = False
            self.new_count = self.old_count = 0
            return True
        return False


class PolledCrontab:
    __slots__ = ("at", "ctx", "next_due")

    def __init__(self, at: AtCrontab, ctx: Any) -> None:
        self.at = at
        self.ctx = ctx
        self.next_due: Optional[int] = None

    def passes(self, new_count: int, old_count: int) -> bool:
        now = self.ctx.now()
        out = False
        if self.next_due is None:
            self.next_due = self.at.spec.next_after(now, self.at.timezone)
            out = True
        if self.next_due <= now:
            self.next_due = self.at.spec.next_after(now, self.at.timezone)
            out = True
        return out


class PolledWhen:
    __slots__ = ("spec", "ctx", "count_insert", "count_remove", "total_insert", "total_remove", "last")

    def __init__(self, spec: WhenSpec, ctx: Any) -> None:
        self.spec = spec
        self.ctx = ctx
        self.count_insert = self.count_remove = self.total_insert = self.total_remove = 0
        self.last = ctx.now()

    def passes(self, new_count: int, old_count: int) -> bool:
        self.count_insert += new_count
        self.count_remove += old_count
        self.total_insert += new_count
        self.total_remove += old_count
        self.spec.holder.values = {
            "count_insert": self.count_insert, "count_remove": self.count_remove,
            "count_insert_total": self.total_insert, "count_remove_total": self.total_remove,
            "last_output_timestamp": self.last,
        }
        if self.spec.when is not None and self.spec.when(()) is True:
            self.count_insert = self.count_remove = 0
            self.last = self.ctx.now()
            return True
        return False


class PolledAlways:
    __slots__ = ()

    def passes(self, new_count: int, old_count: int) -> bool:
        return True


@dataclass(frozen=True)
class PolledFactory:
    """Makes one polled condition per group from the statement's condition spec."""

    condition: Any

    def make(self, ctx: Any) -> Any:
        c = self.condition
        if isinstance(c, EveryTime):
            return PolledTime(c.period(), ctx)
        if isinstance(c, EveryEvents):
            return PolledCount(c)
        if isinstance(c, AtCrontab):
            return PolledCrontab(c, ctx)
        if isinstance(c, WhenSpec):
            return PolledWhen(c, ctx)
        return PolledAlways()
