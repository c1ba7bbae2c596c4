"""Time observers: `timer:interval(t)` turns true t after it starts (at once when t <= 0);
`timer:at(minutes, hours, days, months, weekdays[, seconds[, timezone]])` turns true at the
next crontab instant (engine/output/crontab.py, shared with `output at`). Both end when they
fire."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from engine.output.crontab import CrontabSpec, next_occurrence

from .base import Match, StateNode, holds_any


@dataclass(frozen=True)
class IntervalPlan:
    delta_of: Callable[[Match], int]       # milliseconds

    def make(self, parent: Any, run: Any) -> "ObserverState":
        return ObserverState(parent, run, self)

    def due(self, begin: Match, now: int) -> int:
        return now + self.delta_of(begin)


@dataclass(frozen=True)
class AtPlan:
    spec: CrontabSpec

    def make(self, parent: Any, run: Any) -> "ObserverState":
        return ObserverState(parent, run, self)

    def due(self, begin: Match, now: int) -> int:
        return next_occurrence(self.spec, now)


class ObserverState(StateNode):
    __slots__ = ("plan", "begin", "timer")

    def __init__(self, parent: Any, run: Any, plan: Any) -> None:
        self.parent = parent
        self.run = run
        self.plan = plan
        self.begin: Match = {}
        self.timer: Any = None

    def start(self, begin: Match) -> None:
        self.begin = begin
        now = self.run.now()
        at = self.plan.due(begin, now)
        if at <= now:
            self.parent.child_true(self, begin, True)
        else:
            self.timer = self.run.schedule(at, self._fire)

    def _fire(self) -> None:
        self.timer = None
        self.parent.child_true(self, self.begin, True)

    def quit(self) -> None:
        if self.timer is not None:
            self.run.cancel(self.timer)
            self.timer = None

    def remove_match(self, events: set) -> None:
        if self.timer is not None and holds_any(events, self.begin):
            self.quit()
            self.parent.child_false(self, True)

    # an observer has no children
    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        raise AssertionError("observers have no children")

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        raise AssertionError("observers have no children")
