"""Helpers shared by the view modules: parameter checks, time periods in engine units,
batch flow-control flags, event keys and removal of events by identity."""
from __future__ import annotations

import math
import re
from typing import Any, Callable, Iterable, Optional, Sequence

from engine.contracts.bean import EventBean

from .base import ViewArg, ViewContext, ViewParameterError

KeyFn = Callable[[EventBean], Any]


def fail(view: str, message: str) -> ViewParameterError:
    return ViewParameterError(f"Error in view '{view}': {message}")


def check_count(view: str, args: Sequence[ViewArg], low: int, high: Optional[int], usage: str) -> None:
    """Raise unless `low <= len(args) <= high` (`high` None: no upper bound)."""
    n = len(args)
    if n < low or (high is not None and n > high):
        raise fail(view, f"expects {usage}, received {n} parameter{'' if n == 1 else 's'}")


def period_msec(view: str, arg: ViewArg) -> float:
    """A positive time period in milliseconds (a time period or a number of seconds)."""
    msec = arg.msec(view)
    if not msec > 0 or math.isinf(msec):
        raise fail(view, f"invalid parameter '{arg.text}', the time period must be greater than zero")
    return msec


def to_units(msec: float, ctx: ViewContext) -> int:
    """Milliseconds in the engine's time unit, rounded half up as Esper does, at least 1."""
    units = math.floor(msec * getattr(ctx, "msec_per_unit", 1.0) + 0.5)
    return units if units > 0 else 1


def is_string(arg: ViewArg) -> bool:
    return arg.is_constant and isinstance(arg.value, str)


def reference_point(view: str, arg: ViewArg) -> int:
    """An optional reference point: a constant time in the engine's unit."""
    v = arg.value
    if not arg.is_constant or isinstance(v, bool) or not isinstance(v, (int, float)):
        raise fail(view, f"invalid parameter '{arg.text}', expected a reference point (a long value)")
    return int(v)


def batch_flags(view: str, arg: ViewArg) -> tuple[bool, bool]:
    """Parse `'FORCE_UPDATE, START_EAGER'` into (force_update, start_eager)."""
    if not is_string(arg):
        raise fail(view, f"invalid parameter '{arg.text}', expected a string of flow-control "
                         f"keywords such as 'FORCE_UPDATE, START_EAGER'")
    force = eager = False
    for word in re.split(r"[\s,]+", arg.value.strip()):
        if not word:
            continue
        upper = word.upper()
        if upper == "FORCE_UPDATE":
            force = True
        elif upper == "START_EAGER":
            eager = True
        else:
            raise fail(view, f"invalid keyword '{word}' in parameter '{arg.text}', valid "
                             f"control keywords are: force_update, start_eager")
    return force, eager


def check_numeric(view: str, arg: ViewArg, what: str) -> None:
    rt = arg.result_type
    if rt is not None and getattr(rt, "is_numeric", True) is False:
        raise fail(view, f"invalid parameter '{arg.text}', {what} must return a numeric "
                         f"value but returns {rt}")


def key_function(evaluators: Sequence[KeyFn]) -> KeyFn:
    """One value for a single criterion, a tuple for several (usable as a dict key)."""
    if len(evaluators) == 1:
        return evaluators[0]
    evs = tuple(evaluators)
    return lambda bean: tuple([ev(bean) for ev in evs])


def remove_identical(container: Any, events: Iterable[EventBean]) -> Optional[list]:
    """Remove each of `events` found in `container` (deque or list, by identity: EventBean
    has no __eq__); return the removed ones in the given order, or None."""
    removed = None
    for e in events:
        for i, x in enumerate(container):
            if x is e:
                del container[i]
                if removed is None:
                    removed = []
                removed.append(e)
                break
    return removed


def without(events: list, gone: Iterable[EventBean]) -> list:
    """A new list without the events in `gone` (identity); never mutates `events`, which a
    child may still hold."""
    ids = {id(e) for e in gone}
    return [e for e in events if id(e) not in ids]
