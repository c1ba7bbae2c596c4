"""Guards: `child where timer:within(t)`, `timer:withinmax(t, n)`, `child while (expr)`.

The guard starts its child, then itself. Child matches pass while the guard allows them;
when the guard expires (timer fires, more than n matches, the while-expression is false) the
child quits and the guard ends false, so an enclosing `every` may start over. A guard whose
child ended stops its timer at once.
"""
from __future__ import annotations

from typing import Any, Optional

from epl.plans.patterns import WhileGuard, WithinGuard

from .base import Match, StateNode, holds_any


class GuardState(StateNode):
    __slots__ = ("plan", "child", "begin", "timer", "count", "limit")

    def __init__(self, parent: Any, run: Any, plan: Any) -> None:
        self.parent = parent
        self.run = run
        self.plan = plan
        self.child: Optional[StateNode] = None
        self.begin: Match = {}
        self.timer: Any = None
        self.count = 0
        self.limit: Optional[int] = None

    def start(self, begin: Match) -> None:
        self.begin = begin
        guard = self.plan.guard
        child = self.child = self.plan.child.make(self, self.run)
        child.start(begin)
        if self.child is None:        # the child ended while starting: nothing to guard
            return
        if isinstance(guard, WithinGuard):
            if guard.max_count is not None:
                self.limit = guard.max_count(begin)
            self.timer = self.run.schedule_after(guard.delta_of(begin), self._expired)

    def _stop_timer(self) -> None:
        if self.timer is not None:
            self.run.cancel(self.timer)
            self.timer = None

    def _inspect(self, match: Match) -> bool:
        guard = self.plan.guard
        if isinstance(guard, WhileGuard):
            if guard.test(match):
                return True
            self._guard_quit()
            return False
        if self.limit is not None:
            self.count += 1
            if self.count > self.limit:
                self._guard_quit()
                return False
        return True

    def _expired(self) -> None:
        self.timer = None
        self._guard_quit()

    def _guard_quit(self) -> None:
        self._stop_timer()
        child, self.child = self.child, None
        if child is not None:
            child.quit()
        self.parent.child_false(self, True)

    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        had_child = self.child is not None
        if quitted:
            self.child = None
            self._stop_timer()
        if had_child and self._inspect(match):
            self.parent.child_true(self, match, quitted)

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        self.child = None
        self._stop_timer()
        self.parent.child_false(self, True)

    def quit(self) -> None:
        self._stop_timer()
        child, self.child = self.child, None
        if child is not None:
            child.quit()

    def remove_match(self, events: set) -> None:
        if holds_any(events, self.begin):
            self.quit()
            self.parent.child_false(self, True)
        elif self.child is not None:
            self.child.remove_match(events)
