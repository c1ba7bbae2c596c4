"""Filter atoms (`a=A(id = b.id)`): a live filter registered in the engine's filter index with
the values of earlier tags bound in, so routing an event to waiting instances is a lookup."""
from __future__ import annotations

from typing import Any

from .base import Match, StateNode, holds_any


class FilterState(StateNode):
    """One registered filter. It is its own filter-index handle (`on_event`, `order`, `drop`,
    `statement`); the index snapshot taken before callbacks run means a filter added while an
    event is processed first sees the next event."""

    __slots__ = ("plan", "begin", "token", "order", "drop", "statement")

    is_filter = True

    def __init__(self, parent: Any, run: Any, plan: Any) -> None:
        self.parent = parent
        self.run = run
        self.plan = plan
        self.begin: Match = {}
        self.token: Any = None
        self.order = run.order
        self.drop = run.drop
        self.statement = run.statement

    def start(self, begin: Match) -> None:
        self.begin = begin
        self.token = self.run.add_filter(self.plan.template, begin, self)

    def on_event(self, bean: Any) -> None:
        if self.token is None:        # quit while this event was being routed
            return
        if self.run.consumption is not None and not self.run.consumption.takes(self, bean):
            return                    # consumed by another filter of the pattern
        tag = self.plan.tag
        if tag is not None:
            match = dict(self.begin)
            match[tag] = bean
        else:
            match = self.begin
        parent = self.parent
        if parent.filter_child_stays:
            quitted = False
        else:
            self.run.remove_filter(self.token)
            self.token = None
            quitted = True
        parent.child_true(self, match, quitted)

    def quit(self) -> None:
        if self.token is not None:
            self.run.remove_filter(self.token)
            self.token = None

    def remove_match(self, events: set) -> None:
        if self.token is not None and holds_any(events, self.begin):
            self.quit()
            self.parent.child_false(self, True)

    def __repr__(self) -> str:
        return f"<pattern filter {self.plan.tag or ''}={self.plan.event_type.name}>"
