"""`[n] child`, `[n:m] child until stop`, `child until stop` (Esper's match-until).

The matcher child is restarted (from the begin state) after each match; the events of tags
inside it are collected into arrays (`a[0]`, `a[1]`, ...). With exact bounds `[n]` the
expression is true at the n-th match. Otherwise the until child ends it: true when at least
the lower bound was matched, false when fewer were. After the upper bound the matcher stops
and only `until` is awaited. `until` starts before the matcher, so an event that satisfies
both ends the repetition without counting as a match.
"""
from __future__ import annotations

from typing import Any, Optional

from .base import Match, StateNode, holds_any


class RepeatState(StateNode):
    __slots__ = ("plan", "begin", "matcher", "stopper", "count", "low", "high", "arrays")

    filter_child_stays = True

    def __init__(self, parent: Any, run: Any, plan: Any) -> None:
        self.parent = parent
        self.run = run
        self.plan = plan
        self.begin: Match = {}
        self.matcher: Optional[StateNode] = None
        self.stopper: Optional[StateNode] = None
        self.count = 0
        self.low: Optional[int] = None
        self.high: Optional[int] = None
        self.arrays: dict[str, list] = {}

    def start(self, begin: Match) -> None:
        self.begin = begin
        plan = self.plan
        self.matcher = plan.child.make(self, self.run)
        if plan.until is not None:
            self.stopper = plan.until.make(self, self.run)
            self.stopper.start(begin)
        self.low = plan.low(begin) if plan.low is not None else None
        self.high = plan.high(begin) if plan.high is not None else None
        if self.matcher is not None:
            self.matcher.start(begin)

    def _tight(self) -> bool:
        return self.low is not None and self.low == self.high

    def _consolidated(self, match: Match) -> Match:
        out = dict(match)
        for tag, events in self.arrays.items():
            out[tag] = list(events)
        return out

    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        is_matcher = child is self.matcher
        if is_matcher:
            self.count += 1
            arrays = self.arrays
            for tag in self.plan.array_tags:
                v = match.get(tag)
                if v is None:
                    continue
                lst = arrays.get(tag)
                if lst is None:
                    lst = arrays[tag] = []
                if isinstance(v, list):
                    lst.extend(v)
                else:
                    lst.append(v)
        if quitted:
            if is_matcher:
                self.matcher = None
            elif child is self.stopper:
                self.stopper = None
        if is_matcher:
            if self._tight() and self.count == self.low:
                self._quit_all()
                self.parent.child_true(self, self._consolidated(match), True)
                return
            bounded = self.low is not None or self.high is not None
            restart = not bounded or self.high is None or self.high > self.count
            if self.matcher is None:
                if restart:
                    self.matcher = self.plan.child.make(self, self.run)
                    self.matcher.start(self.begin)
            elif not restart:
                m, self.matcher = self.matcher, None
                m.quit()
            return
        if child is not self.stopper and not quitted:
            return
        # the until child turned true
        self._quit_all()
        if self.low is not None and self.count < self.low:
            self.parent.child_false(self, True)
        else:
            self.parent.child_true(self, self._consolidated(match), True)

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        if child is self.matcher:
            self.matcher = None
        elif child is self.stopper:
            self.stopper = None
        child.quit()
        self._quit_all()
        self.parent.child_false(self, True)

    def _quit_all(self) -> None:
        m, self.matcher = self.matcher, None
        s, self.stopper = self.stopper, None
        if m is not None:
            m.quit()
        if s is not None:
            s.quit()

    def quit(self) -> None:
        self._quit_all()

    def remove_match(self, events: set) -> None:
        hit = holds_any(events, self.begin) or any(
            id(e) in events for lst in self.arrays.values() for e in lst)
        if hit:
            self.quit()
            self.parent.child_false(self, True)
        else:
            for c in (self.matcher, self.stopper):
                if c is not None:
                    c.remove_match(events)
