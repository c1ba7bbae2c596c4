"""`every` and `every-distinct`: restart the sub-expression each time it turns true (or ends).

Esper's rules: when an instance of the child turns true, `every` first starts a fresh
instance (with the `every`'s own begin state), then reports the match upward, never quitting
itself. A filter directly under `every` keeps its registration instead of being replaced.
When a child ends false (a guard expired) a fresh one is started. `every-distinct` also drops
matches whose key (the distinct expressions over the match) it has already seen, for the
expiry period when one is given; restarted instances inherit the keys seen so far.
"""
from __future__ import annotations

from typing import Any

from .base import Match, SpawnCatcher, StateNode, holds_any, remove_from_children


class EveryState(StateNode):
    __slots__ = ("plan", "begin", "spawned")

    filter_child_stays = True

    def __init__(self, parent: Any, run: Any, plan: Any) -> None:
        self.parent = parent
        self.run = run
        self.plan = plan
        self.begin: Match = {}
        self.spawned: dict[StateNode, None] = {}

    def start(self, begin: Match) -> None:
        self.begin = begin
        self._spawn()

    def _spawn(self) -> None:
        catcher = SpawnCatcher()
        child = self.plan.child.make(catcher, self.run)
        child.start(self.begin)
        if catcher.fired:
            child.quit()
        else:
            child.parent = self
            self.spawned[child] = None

    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        if quitted:
            self.spawned.pop(child, None)
        if not child.is_filter:
            self._spawn()
        self.parent.child_true(self, match, False)

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        child.quit()
        self.spawned.pop(child, None)
        if not restartable:
            self.parent.child_false(self, False)
            return
        self._spawn()

    def quit(self) -> None:
        spawned, self.spawned = self.spawned, {}
        for c in spawned:
            c.quit()

    def remove_match(self, events: set) -> None:
        if holds_any(events, self.begin):
            self.quit()
            self.parent.child_false(self, True)
        else:
            remove_from_children(events, self.spawned)


class EveryDistinctState(StateNode):
    __slots__ = ("plan", "begin", "spawned")

    filter_child_stays = True

    def __init__(self, parent: Any, run: Any, plan: Any) -> None:
        self.parent = parent
        self.run = run
        self.plan = plan
        self.begin: Match = {}
        self.spawned: dict[StateNode, dict] = {}     # child -> key -> expiry time (or None)

    def start(self, begin: Match) -> None:
        self.begin = begin
        self._spawn({})

    def _spawn(self, keys: dict) -> None:
        catcher = SpawnCatcher()
        child = self.plan.child.make(catcher, self.run)
        child.start(self.begin)
        if catcher.fired:
            child.quit()
        else:
            child.parent = self
            self.spawned[child] = keys

    def child_true(self, child: StateNode, match: Match, quitted: bool) -> None:
        key = _hashable(self.plan.key_of(match))
        seen = False
        keys = self.spawned.get(child)
        if keys is not None:
            expiry = self.plan.expiry_ms
            if expiry is not None:
                now = self.run.now()
                for k in list(keys):          # oldest first: stop at the first live key
                    if now >= keys[k]:
                        del keys[k]
                    else:
                        break
                if key in keys:
                    seen = True
                else:
                    keys[key] = now + expiry
            elif key in keys:
                seen = True
            else:
                keys[key] = None
        if quitted:
            self.spawned.pop(child, None)
        if not child.is_filter:
            self._spawn(dict(keys) if keys is not None else {})
        if not seen:
            self.parent.child_true(self, match, False)

    def child_false(self, child: StateNode, restartable: bool = True) -> None:
        child.quit()
        self.spawned.pop(child, None)
        self._spawn({})

    def quit(self) -> None:
        spawned, self.spawned = self.spawned, {}
        for c in spawned:
            c.quit()

    def remove_match(self, events: set) -> None:
        if holds_any(events, self.begin):
            self.quit()
            self.parent.child_false(self, True)
        else:
            remove_from_children(events, self.spawned)


def _hashable(key: Any) -> Any:
    try:
        hash(key)
        return key
    except TypeError:
        return repr(key)
