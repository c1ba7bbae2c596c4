"""The schedule context a join gives its streams' views: callbacks due at the same instant
run together, then the join runs once. Esper dispatches a join after all of its statement's
callbacks for that time, so two batch windows releasing at the same instant are joined
with each other's new contents, not with a half-updated state."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:
    from .executor import JoinExecutor


class TimerEntry:
    """What `schedule` returns to a view: one callback in the group of its instant."""

    __slots__ = ("at", "callback", "active")

    def __init__(self, at: int, callback: Callable[[], None]) -> None:
        self.at = at
        self.callback = callback
        self.active = True


class JoinTimerContext:
    """A view context (views.base.ViewContext) over the statement's, grouping schedules by
    instant: one engine schedule per instant, firing every callback of the group."""

    def __init__(self, ctx: Any, join: "JoinExecutor") -> None:
        self._ctx = ctx
        self._join = join
        self._groups: dict[int, list[TimerEntry]] = {}
        self._handles: dict[int, Any] = {}

    def now(self) -> int:
        return self._ctx.now()

    def schedule(self, at: int, callback: Callable[[], None]) -> TimerEntry:
        entry = TimerEntry(at, callback)
        group = self._groups.get(at)
        if group is None:
            group = self._groups[at] = []
            self._handles[at] = self._ctx.schedule(at, lambda _at=at: self._fire(_at))
        group.append(entry)
        return entry

    def cancel(self, entry: Optional[TimerEntry]) -> None:
        if entry is None or not entry.active:
            return
        entry.active = False
        group = self._groups.get(entry.at)
        if group is None:
            return
        group.remove(entry)
        if not group:
            del self._groups[entry.at]
            self._ctx.cancel(self._handles.pop(entry.at, None))

    def _fire(self, at: int) -> None:
        group = self._groups.pop(at, [])
        self._handles.pop(at, None)
        join = self._join
        was = join.deferred
        join.deferred = True
        try:
            for entry in group:
                if entry.active:
                    entry.active = False
                    entry.callback()
        finally:
            join.deferred = was
        if not was:
            join.flush()

    def __getattr__(self, name: str) -> Any:
        # slot, statement, msec_per_unit and any other service of the statement's context
        return getattr(self._ctx, name)
