"""`#expr(expiry expression)`: a window that keeps events while the expiry expression,
evaluated against the oldest event, is true."""
from __future__ import annotations

from collections import deque
from typing import Any, Callable, ClassVar, Optional, Sequence

from engine.contracts.bean import EventBean
from engine.contracts.frozen import frozen_dataclass

from ._held import Stamped
from ._util import check_count, fail
from .base import Events, ViewArg, ViewContext

# Esper's built-in properties of expression windows.
BUILTIN_NAMES: tuple[str, ...] = (
    "current_count", "expired_count", "newest_event", "oldest_event",
    "newest_timestamp", "oldest_timestamp", "view_reference",
)

ExpiryFn = Callable[[Optional[EventBean], dict], Any]


def compile_expiry(view: str, arg: ViewArg) -> ExpiryFn:
    if arg.compile_with is None:
        raise fail(view, f"invalid parameter '{arg.text}', expected an expression")
    return arg.compile_with(BUILTIN_NAMES)


class ExprWindow(Stamped):
    """After each update the view evaluates the expression against its oldest event with
    current_count (events held), expired_count (expired so far in this pass), oldest/newest
    event and their arrival timestamps, and view_reference; while it is not true the oldest
    leaves. Arrivals and expiries post in one update. Time alone does not re-evaluate;
    `reevaluate()` does (Esper re-evaluates when a variable in the expression changes)."""

    __slots__ = ("_ctx", "_fn", "_values")

    def __init__(self, ctx: ViewContext, fn: ExpiryFn) -> None:
        super().__init__()
        self._ctx = ctx
        self._fn = fn
        self._times: deque[int] = deque()
        self._events: deque[EventBean] = deque()
        self._values: dict[str, Any] = dict.fromkeys(BUILTIN_NAMES)
        self._values["view_reference"] = self

    def update(self, new: Events, old: Events) -> None:
        times, events = self._times, self._events
        expired = None
        if new:
            now = self._ctx.now()
            for e in new:
                times.append(now)
                events.append(e)
        if old:
            expired = self._remove(old, expired)
        expired = self._expire(expired)
        if new or expired:
            self.child.update(new or None, expired)

    def _expire(self, expired: Optional[list]) -> Optional[list]:
        times, events = self._times, self._events
        if not events:
            return expired
        values, fn = self._values, self._fn
        values["newest_event"] = events[-1]
        values["newest_timestamp"] = times[-1]
        count = 0
        while events:
            first = events[0]
            values["current_count"] = len(events)
            values["expired_count"] = count
            values["oldest_event"] = first
            values["oldest_timestamp"] = times[0]
            if fn(first, values):
                break
            times.popleft()
            events.popleft()
            if expired is None:
                expired = []
            expired.append(first)
            count += 1
        return expired

    def reevaluate(self) -> None:
        """Apply the expiry expression again (e.g. after a variable it reads changed)."""
        expired = self._expire(None)
        if expired:
            self.child.update(None, expired)



@frozen_dataclass(slots=True)
class ExprWindowFactory:
    fn: ExpiryFn
    is_data_window: ClassVar[bool] = True

    @classmethod
    def from_args(cls, view: str, args: Sequence[ViewArg]) -> "ExprWindowFactory":
        check_count(view, args, 1, 1, "one parameter (the expiry expression)")
        return cls(compile_expiry(view, args[0]))

    def make(self, ctx: ViewContext) -> ExprWindow:
        return ExprWindow(ctx, self.fn)
