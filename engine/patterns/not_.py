"""`not child`: true from the start (it reports its begin state at once, without ending), and
permanently false when the child turns true and ends: then it tells its parent it is false."""
from __future__ import annotations

from typing import Any, Optional

from .base import Match, StateNode


class NotState(StateNode):
    __slots__ = ("plan", "child")

    is_not = True

    def __init__(self, parent: Any, run: Any, plan: Any) -> None:
        self.parent = parent
        self.run = run
        self.plan = plan
        self.child: Optional[StateNode] = None

    def start(self, begin: Match) -> None:
        self.child = self.plan.child.make(self, self.run)
        self.child.start(begin)
        self.parent.child_true(self, begin, False)

    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        if quitted:
            self.child = None
            self.parent.child_false(self, True)

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        pass          # the child can no longer turn true: the `not` stays true

    def quit(self) -> None:
        child, self.child = self.child, None
        if child is not None:
            child.quit()

    def remove_match(self, events: set) -> None:
        pass          # a `not` holds no events of its own
