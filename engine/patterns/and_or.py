"""`and` and `or`.

`and` starts all children; it keeps every match each child reported and, when the last child
without one reports, emits one match per combination (the reporting child's match merged
with the others'). It ends when its non-`not` children have all ended; a child ending false
ends it false.

`or` starts all children and passes their matches up; a child that ends with its match ends
the `or` (the other children quit); when all children ended false, the `or` is false.
"""
from __future__ import annotations

from typing import Any, Optional

from .base import Match, StateNode, holds_any, remove_from_children


class AndState(StateNode):
    __slots__ = ("plan", "active", "matches")

    def __init__(self, parent: Any, run: Any, plan: Any) -> None:
        self.parent = parent
        self.run = run
        self.plan = plan
        n = len(plan.children)
        self.active: list[Optional[StateNode]] = [None] * n
        self.matches: Optional[list[Optional[list[Match]]]] = [None] * n

    def start(self, begin: Match) -> None:
        active = self.active
        for i, c in enumerate(self.plan.children):
            active[i] = c.make(self, self.run)
        for i in range(len(active)):
            child = self.active[i]           # None once the `and` ended during start
            if child is not None:
                child.start(begin)

    def _index(self, child: StateNode) -> Optional[int]:
        for i, c in enumerate(self.active):
            if c is child:
                return i
        return None

    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        index = self._index(child)
        if quitted and index is not None:
            self.active[index] = None
        matches = self.matches
        if matches is None or index is None:
            return
        if any(m is None for i, m in enumerate(matches) if i != index):
            _add(matches, index, match)
            return
        others_live = any(c is not None for i, c in enumerate(self.active) if i != index)
        if others_live:
            _add(matches, index, match)
        results = [match]
        for i, ms in enumerate(matches):
            if i == index:
                continue
            results = [_merged(r, m) for r in results for m in ms]
        # done when every child that is still live is a `not` (those only wait to turn false)
        done = all(c is None or c.is_not for c in self.active)
        if done:
            self._quit_all()
        for r in results:
            self.parent.child_true(self, r, done)

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        index = self._index(child)
        if index is not None:
            self.active[index] = None
        self._quit_all()
        self.parent.child_false(self, restartable)

    def _quit_all(self) -> None:
        active = self.active
        self.active = [None] * len(active)
        self.matches = None
        for c in active:
            if c is not None:
                c.quit()

    def quit(self) -> None:
        if self.matches is not None:
            self._quit_all()

    def remove_match(self, events: set) -> None:
        if self.matches is not None and any(
                ms is not None and any(holds_any(events, m) for m in ms) for ms in self.matches):
            self.quit()
            self.parent.child_false(self, True)
        else:
            remove_from_children(events, [c for c in self.active if c is not None])


def _add(matches: list, index: int, match: Match) -> None:
    ms = matches[index]
    if ms is None:
        matches[index] = [match]
    else:
        ms.append(match)


def _merged(a: Match, b: Match) -> Match:
    m = dict(a)
    for k, v in b.items():
        if v is not None:
            m[k] = v
    return m


class OrState(StateNode):
    __slots__ = ("plan", "active")

    def __init__(self, parent: Any, run: Any, plan: Any) -> None:
        self.parent = parent
        self.run = run
        self.plan = plan
        self.active: list[Optional[StateNode]] = [None] * len(plan.children)

    def start(self, begin: Match) -> None:
        active = self.active
        for i, c in enumerate(self.plan.children):
            active[i] = c.make(self, self.run)
        for child in list(active):
            child.start(begin)
            if all(c is None for c in self.active):
                break                        # a child ended the `or` while starting

    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        if quitted:
            active = self.active
            for i, c in enumerate(active):
                if c is child:
                    active[i] = None
            self.quit()
        self.parent.child_true(self, match, quitted)

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        active = self.active
        for i, c in enumerate(active):
            if c is child:
                active[i] = None
        child.quit()
        if all(c is None for c in active):
            self.parent.child_false(self, True)

    def quit(self) -> None:
        active = self.active
        self.active = [None] * len(active)
        for c in active:
            if c is not None:
                c.quit()

    def remove_match(self, events: set) -> None:
        remove_from_children(events, [c for c in self.active if c is not None])
