"""The output-condition contract, and the two trivial conditions (always; only when terminated).

A condition is told how many events each view update carried (`update`) and calls back
`fire(do_output, force)` when output is due. `force` asks for a listener call even when there
is nothing to deliver (Esper does so for time-driven and when-driven output, not for counts).
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

Fire = Callable[[bool, bool], None]


class OutputCondition(Protocol):
    def update(self, new_count: int, old_count: int) -> None:
        """One view update arrived with this many insert and remove events."""

    def terminated(self) -> None:
        """The statement's context partition ended (`output ... and when terminated`)."""

    def stop(self) -> None:
        """Cancel anything scheduled."""


class ConditionFactory(Protocol):
    def make(self, ctx: Any, fire: Fire) -> OutputCondition: ...


class Always:
    """Output after every update (grouped `output first`: the groups decide, see polled.py)."""

    __slots__ = ("fire",)

    def __init__(self, fire: Fire) -> None:
        self.fire = fire

    def update(self, new_count: int, old_count: int) -> None:
        self.fire(True, False)

    def terminated(self) -> None:
        self.fire(True, True)

    def stop(self) -> None:
        pass


class OnlyWhenTerminated:
    """`output when terminated`: everything waits for the end of the context partition."""

    __slots__ = ("fire",)

    def __init__(self, fire: Fire) -> None:
        self.fire = fire

    def update(self, new_count: int, old_count: int) -> None:
        pass

    def terminated(self) -> None:
        self.fire(True, True)

    def stop(self) -> None:
        pass


class AlwaysFactory:
    __slots__ = ()

    def make(self, ctx: Any, fire: Fire) -> OutputCondition:
        return Always(fire)



class Scheduled:
    """A condition that fires on a schedule (`every <period>`, `at (...)`): `_schedule` sets
    the next due time; after each firing the next one is scheduled, unless the firing stopped
    the statement."""

    __slots__ = ("ctx", "fire", "handle", "stopped")

    def __init__(self, ctx: Any, fire: Fire) -> None:
        self.ctx = ctx
        self.fire = fire
        self.handle: Any = None
        self.stopped = False

    def _schedule(self) -> None:
        raise NotImplementedError

    def _due(self) -> None:
        self.handle = None
        self.fire(True, True)
        if self.handle is None and not self.stopped:   # fire may have stopped the statement
            self._schedule()

    def terminated(self) -> None:
        self.fire(True, True)

    def stop(self) -> None:
        self.stopped = True
        if self.handle is not None:
            self.ctx.cancel(self.handle)
            self.handle = None


class OutputClock:
    """The statement context as output conditions use it: callbacks due at the same instant as
    the statement's view callbacks fire after them, so that an output sees a window's expiry of
    that instant (Esper gives the output condition its own, later schedule slot)."""

    __slots__ = ("ctx",)

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx

    @property
    def statement(self) -> Any:
        return getattr(self.ctx, "statement", None)

    def now(self) -> int:
        return self.ctx.now()

    def schedule(self, at: int, callback: Callable[[], None]) -> Any:
        late = getattr(self.ctx, "schedule_after_views", None)
        return late(at, callback) if late is not None else self.ctx.schedule(at, callback)

    def cancel(self, handle: Any) -> None:
        self.ctx.cancel(handle)
