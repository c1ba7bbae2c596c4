"""Interval algebra: Esper's date-time methods on events and timestamps (`a.before(b)`,
`a.overlaps(b, 5 sec)`, ...), and the intersection of lifetimes a join row gets.

Operands: an event (a stream alias, or an expression returning an event) is the interval
[start, end] of its type's start and end timestamp properties (end = start when the type
declares only a start, as Esper does); an event of a type without timestamp properties
that came from an application-time input uses its lifetime (a point is [t, t]); a
timestamp (int ms or aware datetime) is [t, t]. Null operands or parameters give null.

Methods, with l = this and r = the other ([ls, le], [rs, re]); parameters are time periods
or numbers of milliseconds, constant or not:
- before: le < rs; (lo[, hi]): lo <= rs - le <= hi (hi defaults to no bound; lo and hi
  are swapped when lo > hi).  after: ls > re; (lo[, hi]): lo <= ls - re <= hi.
- coincides: ls = rs and le = re; (t[, u]): |ls - rs| <= t and |le - re| <= u (u = t).
- during: rs < ls and le < re; (t): 0 < ls - rs <= t and 0 < re - le <= t;
  (min, max): max(min, 1) <= ls - rs <= max and min <= re - le <= max;
  (smin, smax, emin, emax) likewise with separate start and end ranges.
  includes: the same with l and r exchanged.
- finishes: rs < ls and le = re; (t): rs < ls and |le - re| <= t.
  finishedBy: ls < rs and le = re; (t): ls < rs and |le - re| <= t.
- meets: le = rs; (t): |rs - le| <= t.  metBy: re = ls; (t): |ls - re| <= t.
- overlaps: ls < rs < le < re; (t): and 0 <= le - rs <= t; (min, max): min <= le - rs <= max.
  overlappedBy: rs < ls < re < le; (t) / (min, max) on re - ls.
- starts: ls = rs and le < re; (t): |ls - rs| <= t and le < re.
  startedBy: ls = rs and le > re; (t): |ls - rs| <= t and le > re.
Negative constant thresholds of coincides, finishes, finishedBy, meets, metBy, starts and
startedBy are refused at compile time (null at runtime when computed).
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any, Callable, Optional, Sequence

from engine.contracts.bean import EventBean

from engine.contracts.timed import INFINITY, Shape, TimedBean, to_ms

Interval = tuple[int, int]
_MAX = INFINITY


def event_interval(bean: EventBean) -> Optional[Interval]:
    """[start, end] of an event for the algebra (see the module docstring)."""
    et = bean.event_type
    if et.start_timestamp:
        s = bean.get(et.start_timestamp)
        if s is None:
            return None
        try:    # a timestamp that is no point in time (1.5 ms) has no interval: null
            start = to_ms(s)
            if not et.end_timestamp:
                return start, start
            e = bean.get(et.end_timestamp)
            return None if e is None else (start, to_ms(e))
        except (TypeError, ValueError):
            return None
    if isinstance(bean, TimedBean):
        return (bean.start, bean.start) if bean.shape is Shape.POINT else (bean.start, bean.end)
    return None


def interval_of(value: Any) -> Optional[Interval]:
    """An operand's interval: an event's, or [t, t] for a timestamp."""
    if value is None:
        return None
    if isinstance(value, EventBean):
        return event_interval(value)
    try:
        t = to_ms(value)
    except (TypeError, ValueError):
        return None
    return t, t


def _ms(v: Any) -> Optional[int]:
    if v is None:
        return None
    if isinstance(v, timedelta):
        return v // timedelta(milliseconds=1)
    return int(v)


# -- the relations: f(ls, le, rs, re, params) -> bool ------------------------------------------

def _range(params: Sequence[int], swap: bool) -> tuple[int, int]:
    lo = params[0]
    hi = params[1] if len(params) > 1 else _MAX
    if swap and lo > hi:
        lo, hi = hi, lo
    return lo, hi


def _before(ls, le, rs, re, p):
    if not p:
        return le < rs
    lo, hi = _range(p, True)
    return lo <= rs - le <= hi


def _after(ls, le, rs, re, p):
    if not p:
        return ls > re
    lo, hi = _range(p, True)
    return lo <= ls - re <= hi


def _coincides(ls, le, rs, re, p):
    if not p:
        return ls == rs and le == re
    t = p[0]
    u = p[1] if len(p) > 1 else t
    if t < 0 or u < 0:
        return None
    return abs(ls - rs) <= t and abs(le - re) <= u


def _within(ds, de, p):
    """during/includes on the start distance ds and the end distance de."""
    if not p:
        return ds > 0 and de > 0
    if len(p) == 1:
        t = p[0]
        return 0 < ds <= t and 0 < de <= t
    if len(p) == 2:
        smin, smax, emin, emax = p[0], p[1], p[0], p[1]
    else:
        smin, smax, emin, emax = p[0], p[1], p[2], p[3]
    return max(smin, 1) <= ds <= smax and emin <= de <= emax


def _during(ls, le, rs, re, p):
    return _within(ls - rs, re - le, p)


def _includes(ls, le, rs, re, p):
    return _within(rs - ls, le - re, p)


def _threshold(p) -> Optional[int]:
    t = p[0]
    return None if t < 0 else t


def _finishes(ls, le, rs, re, p):
    if not p:
        return rs < ls and le == re
    t = _threshold(p)
    return None if t is None else (rs < ls and abs(le - re) <= t)


def _finished_by(ls, le, rs, re, p):
    if not p:
        return ls < rs and le == re
    t = _threshold(p)
    return None if t is None else (ls < rs and abs(le - re) <= t)


def _meets(ls, le, rs, re, p):
    if not p:
        return le == rs
    t = _threshold(p)
    return None if t is None else abs(rs - le) <= t


def _met_by(ls, le, rs, re, p):
    if not p:
        return re == ls
    t = _threshold(p)
    return None if t is None else abs(ls - re) <= t


def _overlap(ls, le, rs, re, p):
    if not (ls < rs < le < re):
        return False
    if not p:
        return True
    lo, hi = (0, p[0]) if len(p) == 1 else (p[0], p[1])
    return lo <= le - rs <= hi


def _overlaps(ls, le, rs, re, p):
    return _overlap(ls, le, rs, re, p)


def _overlapped_by(ls, le, rs, re, p):
    return _overlap(rs, re, ls, le, p)


def _starts(ls, le, rs, re, p):
    if not p:
        return ls == rs and le < re
    t = _threshold(p)
    return None if t is None else (abs(ls - rs) <= t and le < re)


def _started_by(ls, le, rs, re, p):
    if not p:
        return ls == rs and le > re
    t = _threshold(p)
    return None if t is None else (abs(ls - rs) <= t and le > re)


Relation = Callable[[int, int, int, int, Sequence[int]], Optional[bool]]

# lower-case EPL name -> (Esper name, relation, allowed parameter counts, thresholds >= 0)
RELATIONS: dict[str, tuple[str, Relation, tuple[int, ...], bool]] = {
    "before": ("before", _before, (0, 1, 2), False),
    "after": ("after", _after, (0, 1, 2), False),
    "coincides": ("coincides", _coincides, (0, 1, 2), True),
    "during": ("during", _during, (0, 1, 2, 4), False),
    "includes": ("includes", _includes, (0, 1, 2, 4), False),
    "finishes": ("finishes", _finishes, (0, 1), True),
    "finishedby": ("finishedBy", _finished_by, (0, 1), True),
    "meets": ("meets", _meets, (0, 1), True),
    "metby": ("metBy", _met_by, (0, 1), True),
    "overlaps": ("overlaps", _overlaps, (0, 1, 2), False),
    "overlappedby": ("overlappedBy", _overlapped_by, (0, 1, 2), False),
    "starts": ("starts", _starts, (0, 1), True),
    "startedby": ("startedBy", _started_by, (0, 1), True),
}


def relate(name: str, left: Any, right: Any, *params: Any) -> Optional[bool]:
    """Evaluate one method on two operands (events, timestamps or (start, end) tuples).

    >>> relate("before", (0, 100), (105, 200), 1, 60)
    True
    >>> relate("during", (50, 80), (0, 100))
    True
    >>> relate("meets", (0, 100), (100, 200))
    True
    """
    entry = RELATIONS.get(name.lower())
    if entry is None:
        raise ValueError(f"Unknown interval algebra method '{name}'")
    li = left if isinstance(left, tuple) else interval_of(left)
    ri = right if isinstance(right, tuple) else interval_of(right)
    ps = [_ms(p) for p in params]
    if li is None or ri is None or any(p is None for p in ps):
        return None
    return entry[1](li[0], li[1], ri[0], ri[1], ps)


# -- joins: the intersection of lifetimes ------------------------------------------------------

def intersection(*lifetimes: Optional[Interval]) -> Optional[Interval]:
    """The common part [max start, min end) of half-open lifetimes; None when empty or when
    any is None.

    >>> intersection((0, 10), (5, 20))
    (5, 10)
    >>> intersection((0, 5), (5, 20)) is None
    True
    """
    if not lifetimes:
        return None
    start, end = -INFINITY, INFINITY
    for lt in lifetimes:
        if lt is None:
            return None
        start = max(start, lt[0])
        end = min(end, lt[1])
    return (start, end) if start < end else None


def row_lifetime(row: Sequence[Optional[EventBean]]) -> Optional[Interval]:
    """The lifetime of a join row (Odysseus/StreamInsight temporal join): the intersection
    of the lifetimes of its events (`shapes.lifetime_of`: input lifetimes, else declared
    timestamps, a point being [t, t + 1)). Events without a lifetime (and outer-join
    nulls) do not constrain the row; None when no event has one or they do not overlap."""
    from engine.contracts.timed import lifetime_of
    lts = [lt for lt in (lifetime_of(b) for b in row if b is not None) if lt is not None]
    return intersection(*lts) if lts else None
