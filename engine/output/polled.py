"""Per-group output conditions for `output first ... ` with group by: each group decides on its
own, when one of its events arrives, whether this event is its first since the last output.

- time: at least the period since the group's last output (the group's first event passes);
- events: the group's first event passes, then every N-th;
- crontab: the group's first event passes, then the first one after each due time;
- when: the when-expression, evaluated with the group's own counters.

`GroupConditions` holds a statement instance's conditions by group; `FirstPerGroup` is the
per-update step the grouped `output first` batches share.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from engine.contracts.frozen import frozen_dataclass
from epl.plans.output import AtCrontab, EveryEvents, EveryTime, WhenSpec
from .rows import apply_grouped


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


@frozen_dataclass
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


class GroupConditions:
    """One polled condition per group, made at the group's first event."""

    __slots__ = ("polled", "ctx", "conditions")

    def __init__(self, polled: PolledFactory, ctx: Any) -> None:
        self.polled = polled
        self.ctx = ctx
        self.conditions: dict = {}

    def passes(self, key: Any, n_new: int, n_old: int) -> bool:
        cond = self.conditions.get(key)
        if cond is None:
            cond = self.conditions[key] = self.polled.make(self.ctx)
        return cond.passes(n_new, n_old)

    def forget_ended(self, aggs: Any, keys: Sequence[Any]) -> None:
        """A group whose aggregation ended starts over, as Esper drops its output state
        (the caller asks only when the aggregation reclaims groups)."""
        groups = aggs.groups
        for k in keys:
            if k not in groups:
                self.conditions.pop(k, None)


class FirstPerGroup:
    """Grouped `output first` (row-per-group and aggregate-grouped): per view update, `take(key,
    event)` for each event that passes its group's condition, before the event enters or
    leaves its group; with having, the update is applied first and each event's group must
    pass having as well. The batch provides `p`, `conditions` and `take`."""

    __slots__ = ()
    p: Any
    conditions: GroupConditions

    def take(self, key: Any, eps: Any) -> None:
        raise NotImplementedError

    def add(self, new: Sequence[Any], old: Sequence[Any]) -> None:
        p, take = self.p, self.take
        key_of, aggs, passes = p.key_of, p.aggs, self.conditions.passes
        having = p.shaper.having
        if having is None:
            old_keys = []
            for eps in new:
                k = key_of(eps)
                if passes(k, 1, 0):
                    take(k, eps)
                aggs.enter_group(k, eps)
            for eps in old:
                k = key_of(eps)
                old_keys.append(k)
                if passes(k, 0, 1):
                    take(k, eps)
                aggs.leave_group(k, eps)
        else:
            new_keys, old_keys = apply_grouped(p, new, old)
            ctx = p.ctx
            for keys, events, counts in ((new_keys, new, (1, 0)), (old_keys, old, (0, 1))):
                for k, eps in zip(keys, events):
                    ctx.row = aggs.peek(k)
                    if having(eps) is True and passes(k, *counts):
                        take(k, eps)
        if aggs.reclaim:
            self.conditions.forget_ended(aggs, old_keys)
