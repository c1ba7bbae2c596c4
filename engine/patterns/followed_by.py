"""`a -> b -> c` (and `-[N]>`): each time child i turns true, a new instance of child i+1
starts with the match so far; the last child's matches go up. The followed-by ends when no
instance of any child is left.

Instances of children after the first are Esper's "pattern sub-expressions": they count
against `-[N]>` (live instances of child i+1 started from child i) and against the engine-wide
limit (engine/patterns/limits.py); an instance that would exceed either is not started.
"""
from __future__ import annotations

import logging
from typing import Any, Optional

from .base import Match, StateNode, remove_from_children

log = logging.getLogger("epl.engine.patterns")


class FollowedByState(StateNode):
    __slots__ = ("plan", "nodes", "active")

    def __init__(self, parent: Any, run: Any, plan: Any) -> None:
        self.parent = parent
        self.run = run
        self.plan = plan
        self.nodes: dict[StateNode, int] = {}      # live child instance -> child index
        self.active: Optional[list[int]] = [0] * (len(plan.children) - 1) if plan.maxes else None

    def start(self, begin: Match) -> None:
        child = self.plan.children[0].make(self, self.run)
        self.nodes[child] = 0
        child.start(begin)

    def _released(self, index: int) -> None:
        if index > 0:
            if self.active is not None:
                self.active[index - 1] -= 1
            self.run.release_instance()

    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        nodes = self.nodes
        index = nodes.get(child)
        if quitted and index is not None:
            del nodes[child]
            self._released(index)
        if index is None:            # quit from above while this callback was under way
            return
        children = self.plan.children
        if index == len(children) - 1:
            self.parent.child_true(self, match, not nodes)
            return
        if self.active is not None:
            limit = self.plan.maxes[index]
            if limit is not None and self.active[index] >= limit:
                log.debug("Followed-by limit -[%s]> reached in statement '%s'", limit,
                          self.run.statement.name)
                self._blocked()
                return
        if not self.run.acquire_instance():
            self._blocked()
            return
        if self.active is not None:
            self.active[index] += 1
        nxt = children[index + 1].make(self, self.run)
        nodes[nxt] = index + 1
        nxt.start(match)

    def _blocked(self) -> None:
        # Esper leaves an emptied followed-by in place, waiting for nothing; ending it lets an
        # enclosing `every` start over instead of keeping a dead instance.
        if not self.nodes:
            self.parent.child_false(self, True)

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        child.quit()
        index = self.nodes.pop(child, None)
        if index is not None:
            self._released(index)
        if not self.nodes:
            self.parent.child_false(self, True)

    def quit(self) -> None:
        nodes, self.nodes = self.nodes, {}
        for child, index in nodes.items():
            child.quit()
            self._released(index)

    def remove_match(self, events: set) -> None:
        remove_from_children(events, self.nodes)
