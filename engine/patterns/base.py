"""The contract between pattern state nodes: how a live sub-expression starts, reports to its
parent, quits, and drops partial matches that overlap a delivered match.

A state node is one live instance of a pattern operator or atom. Its parent (another state
node, or the run at the root) is told about it through two calls, as in Esper:
- `child_true(child, match, quitted)`: the child turned true for `match` (a dict tag ->
  EventBean, or a list of EventBean for repeated tags); `quitted` says it ended with it.
- `child_false(child, restartable)`: the child ended without a match (a guard expired, a
  `not` saw its event); `restartable` lets an enclosing `every` start it again.
A node that quits releases its filters and schedules at once: nothing stays registered for
an instance that can no longer match.

Matches are plain dicts and are never mutated once passed on: a node that adds a tag copies.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

Match = dict


class StateNode:
    """Base of all state nodes: `parent` receives child_true/child_false, `run` is the
    pattern run (filter index, schedules, limits) the node lives in."""

    __slots__ = ("parent", "run")

    is_filter = False           # an atom that stays registered under every / repeat
    is_not = False              # `and` ends when only `not` children remain active
    filter_child_stays = False  # as a parent: a filter child keeps listening after a match

    def __init__(self, parent: Any, run: Any) -> None:
        self.parent = parent
        self.run = run

    def start(self, begin: Match) -> None:
        raise NotImplementedError

    def quit(self) -> None:
        raise NotImplementedError

    def remove_match(self, events: set) -> None:
        """@DiscardPartialsOnMatch: end this instance when it holds one of `events` (ids of
        EventBeans of delivered matches); otherwise ask the children."""

    # -- as a parent -----------------------------------------------------------------
    def child_true(self, child: "StateNode", match: Match, quitted: bool) -> None:
        raise NotImplementedError

    def child_false(self, child: "StateNode", restartable: bool = True) -> None:
        raise NotImplementedError


class SpawnCatcher:
    """Parent of a child while it starts under `every`: a child that is true at once (a
    `not`, a zero interval) would restart forever, so it is caught and quit instead."""

    __slots__ = ("fired",)

    filter_child_stays = False

    def __init__(self) -> None:
        self.fired = False

    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        self.fired = True

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        pass


def holds_any(events: set, match: Optional[Match]) -> bool:
    """Whether a match holds one of the events (by identity)."""
    if not match:
        return False
    for v in match.values():
        if v is None:
            continue
        if isinstance(v, list):
            if any(id(e) in events for e in v):
                return True
        elif id(v) in events:
            return True
    return False


def remove_from_children(events: set, children: Iterable[StateNode]) -> None:
    for c in list(children):
        c.remove_match(events)
