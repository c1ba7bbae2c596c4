"""Delivering results to Python: listeners (called with new and old events) and Esper-style
subscribers (called with row values as arguments)."""
from __future__ import annotations

import inspect
import logging
from typing import Any, Callable, Literal, Optional, Sequence

from engine.contracts.bean import EventBean

log = logging.getLogger("epl.engine")

Listener = Callable[..., object]
# "new_old": fn(new, old); "esper": fn(new, old, statement, engine), Esper's UpdateListener
ListenerSignature = Literal["new_old", "esper"]
SIGNATURES: dict[str, int] = {"new_old": 2, "esper": 4}


def listener_arity(fn: Listener, signature: Optional[str] = None) -> int:
    """How many arguments a listener gets: 2 unless `signature="esper"` asks for 4. Never
    guessed from the parameters (a lambda's default arguments are its own); a callable that
    requires four arguments without the keyword is refused with the fix in the message."""
    if signature is not None:
        if signature not in SIGNATURES:
            raise ValueError(f"signature must be 'new_old' or 'esper', not {signature!r}")
        return SIGNATURES[signature]
    if not callable(fn):
        raise TypeError(f"A listener must be callable, got {type(fn).__name__}")
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 2
    required = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                and p.default is p.empty]
    if len(required) > 2:
        raise TypeError(f"Listener {getattr(fn, '__name__', fn)!r} requires {len(required)} arguments: "
                        f"listeners get (new, old); for Esper's (new, old, statement, engine) "
                        f"pass signature='esper'")
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
