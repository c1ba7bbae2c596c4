"""How the data windows hold their events, shared: iteration, size and stop over one
container (`Held`; `KeyedHeld` for events by key or identity, `UniqueKeyed` by unique key,
`Stamped` with their timestamps beside them), one event (`OneHeld`), and a batch with the
batch before it (`BatchHeld`)."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

from engine.contracts.bean import EventBean

from ._util import without
from .base import View, ViewContext


class Held(View):
    """Events in `_events`, oldest first."""

    __slots__ = ("_events",)

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._events)

    def __len__(self) -> int:
        return len(self._events)

    def stop(self) -> None:
        self._events.clear()


class KeyedHeld(Held):
    """Events in a dict (by key or identity), in order of arrival."""

    __slots__ = ()

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._events.values())

    def _leave(self, old: Any, key: Callable[[EventBean], Any], removed: Optional[list]) -> Optional[list]:
        """Events removed upstream leave when they are the ones held under their key;
        returns `removed` with them appended."""
        events = self._events
        for e in old:
            k = key(e)
            if events.get(k) is e:
                del events[k]
                if removed is None:
                    removed = []
                removed.append(e)
        return removed


class UniqueKeyed(KeyedHeld):
    """Events by their unique key, `_key(event)`."""

    __slots__ = ("_key",)

    def __init__(self, key: Callable[[EventBean], Any]) -> None:
        super().__init__()
        self._key = key
        self._events: dict[Any, EventBean] = {}


class Stamped(Held):
    """Events with their timestamps in the parallel deque `_times`."""

    __slots__ = ("_times",)

    def _remove(self, old: Any, expired: Optional[list]) -> Optional[list]:
        """Remove the events `old` (by identity) with their timestamps; returns `expired`
        with the removed events appended."""
        times, events = self._times, self._events
        for e in old:
            for i, x in enumerate(events):
                if x is e:
                    del events[i]
                    del times[i]
                    if expired is None:
                        expired = []
                    expired.append(e)
                    break
        return expired

    def stop(self) -> None:
        self._times.clear()
        self._events.clear()


class OneHeld(View):
    """At most one event, `_event`."""

    __slots__ = ("_event",)

    def __init__(self) -> None:
        super().__init__()
        self._event: Optional[EventBean] = None

    def __iter__(self) -> Iterator[EventBean]:
        return iter(() if self._event is None else (self._event,))

    def stop(self) -> None:
        self._event = None


class BatchHeld(View):
    """The batch being collected (`_batch`, what iteration shows) and the last one posted
    (`_last`, posted again as the remove stream of the next)."""

    __slots__ = ("_batch", "_last")

    def __iter__(self) -> Iterator[EventBean]:
        return iter(self._batch)

    def _drop(self, old: Any) -> None:
        # removed upstream: out of the current batch silently; an event of the previous batch
        # still leaves with it at the next post (Esper)
        self._batch = without(self._batch, old)

    def stop(self) -> None:
        self._batch = []
        self._last = None


def cancel_timer(ctx: ViewContext, handle: Any) -> None:
    """Cancel a pending timer (None: nothing pending); the caller forgets its handle."""
    if handle is not None:
        ctx.cancel(handle)
