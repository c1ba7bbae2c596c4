"""Time observers: `timer:interval(t)` turns true t after it starts (at once when t <= 0);
`timer:at(minutes, hours, days, months, weekdays[, seconds[, timezone]])` turns true at the
next crontab instant (engine/contracts/crontab.py, shared with `output at`). Both end when they
fire."""
from __future__ import annotations

from typing import Any

from engine.contracts.crontab import next_occurrence

from .base import Match, StateNode, holds_any


class ObserverState(StateNode):
    """What both observers share; `due(begin, now)` says when one fires."""

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
        at = self.due(begin, now)
        if at <= now:
            self.parent.child_true(self, begin, True)
        else:
            self.timer = self.run.schedule(at, self._fire)

    def due(self, begin: Match, now: int) -> int:
        raise NotImplementedError

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


class IntervalState(ObserverState):
    """`timer:interval(t)` (an IntervalPlan)."""

    __slots__ = ()

    def due(self, begin: Match, now: int) -> int:
        return now + self.plan.delta_of(begin)


class AtState(ObserverState):
    """`timer:at(...)` (an AtPlan)."""

    __slots__ = ()

    def due(self, begin: Match, now: int) -> int:
        return next_occurrence(self.plan.spec, now)
