"""Delivering results to Python: listeners (called with new and old events) and Esper-style
subscribers (called with row values as arguments)."""
from __future__ import annotations

import inspect
import logging
from typing import Any, Callable, Optional, Sequence

from .bean import EventBean

log = logging.getLogger("epl.engine")

Listener = Callable[..., Any]


def listener_arity(fn: Listener) -> int:
    """2 for fn(new, old); 4 for Esper's update(new, old, statement, engine)."""
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        has_var = any(p.kind is p.VAR_POSITIONAL for p in inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return 2
    if has_var or len(params) >= 4:
        return 4
    return 2


class SubscriberAdapter:
    """Calls a subscriber object's `update(*row)` per insert-stream row, `update_rstream(*row)`
    per remove-stream row when it has one, and `update_start(n_new, n_old)` / `update_end()`
    around each delivery when it has them. A `select *` row is passed as the event's
    underlying object; a subscriber whose update takes one parameter while the row has
    several columns gets the row as a dict."""

    def __init__(self, subscriber: Any, columns: Sequence[str], passthrough: bool) -> None:
        if not callable(getattr(subscriber, "update", None)):
            raise TypeError("A subscriber must have an update method")
        self.subscriber = subscriber
        self.columns = tuple(columns)
        self.passthrough = passthrough
        self._update = subscriber.update
        self._rstream = getattr(subscriber, "update_rstream", None)
        self._start = getattr(subscriber, "update_start", None)
        self._end = getattr(subscriber, "update_end", None)
        try:
            n = len([p for p in inspect.signature(self._update).parameters.values()
                     if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])
        except (TypeError, ValueError):
            n = len(self.columns)
        self._as_dict = not passthrough and n == 1 and len(self.columns) != 1

    def _args(self, bean: EventBean) -> tuple:
        if self.passthrough:
            return (bean.underlying,)
        if self._as_dict:
            return (dict(bean.underlying),)
        u = bean.underlying
        return tuple(u.get(c) for c in self.columns)

    def deliver(self, new: Optional[list], old: Optional[list]) -> None:
        if self._start is not None:
            self._start(len(new or ()), len(old or ()))
        for bean in new or ():
            self._update(*self._args(bean))
        if self._rstream is not None:
            for bean in old or ():
                self._rstream(*self._args(bean))
        if self._end is not None:
            self._end()
