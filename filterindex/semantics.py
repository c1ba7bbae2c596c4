"""What each filter operator means for one event value, as plain Python: the semantics the
indexes implement, used directly for parameters no index can hold (unhashable constants).

Null (None) satisfies no comparison except `is`/`is not`; comparing values that Python
cannot order (a string with a number) is no match, never an error; `in` lists skip null
members and `not in` a list holding null never matches (SQL's unknown).
"""
from __future__ import annotations

from typing import Any, Callable

from .spec import FilterOp

_LOW_IN = {FilterOp.RANGE_CLOSED, FilterOp.RANGE_HALF_OPEN,
           FilterOp.NOT_RANGE_CLOSED, FilterOp.NOT_RANGE_HALF_OPEN}
_HIGH_IN = {FilterOp.RANGE_CLOSED, FilterOp.RANGE_HALF_CLOSED,
            FilterOp.NOT_RANGE_CLOSED, FilterOp.NOT_RANGE_HALF_CLOSED}
_NOT_RANGE = {FilterOp.NOT_RANGE_CLOSED, FilterOp.NOT_RANGE_OPEN,
              FilterOp.NOT_RANGE_HALF_OPEN, FilterOp.NOT_RANGE_HALF_CLOSED}


def _eq(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:   # deliberate: a user value's __eq__ (or its truth) raised; no match
        return False


def param_matches(op: FilterOp, value: Any, v: Any) -> bool:
    """Whether event value `v` satisfies `op value` (not for BOOL_EXPR)."""
    if op is FilterOp.IS:
        return v is None if value is None else (v is not None and _eq(v, value))
    if op is FilterOp.IS_NOT:
        return not param_matches(FilterOp.IS, value, v)
    if v is None:
        return False
    if op is FilterOp.EQ:
        return value is not None and _eq(v, value)
    if op is FilterOp.NE:
        return value is not None and not _eq(v, value)
    if op is FilterOp.IN_LIST:
        return any(x is not None and _eq(v, x) for x in value)
    if op is FilterOp.NOT_IN_LIST:
        return all(x is not None and not _eq(v, x) for x in value)
    if op is FilterOp.IN_KEYS:
        try:
            return v in value
        except TypeError:
            return False
    try:
        if op is FilterOp.LT:
            return value is not None and bool(v < value)
        if op is FilterOp.LE:
            return value is not None and bool(v <= value)
        if op is FilterOp.GT:
            return value is not None and bool(v > value)
        if op is FilterOp.GE:
            return value is not None and bool(v >= value)
        low, high = value
        if low is None or high is None:
            return False
        if op in _NOT_RANGE:
            below = v < low if op in _LOW_IN else v <= low
            above = v > high if op in _HIGH_IN else v >= high
            return bool(below or above)
        above_low = low <= v if op in _LOW_IN else low < v
        below_high = v <= high if op in _HIGH_IN else v < high
        return bool(above_low and below_high)
    except TypeError:
        return False


def param_predicate(op: FilterOp, value: Any, getter: Callable[[Any], Any]) -> Callable[[Any], bool]:
    """`predicate(bean)` evaluating one parameter against the event's property."""
    def predicate(bean: Any) -> bool:
        return param_matches(op, value, getter(bean.underlying))
    return predicate
