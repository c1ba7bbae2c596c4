"""The interval of a join row (StreamInsight/Odysseus temporal join): the intersection of
the intervals of the row's events, [max(start), min(end)); None when they do not overlap.

Hook for issue 6 (application time): the join executor does not call this yet. Events of a
type without start/end timestamps do not constrain the row's interval unless `point_time`
gives their time (a point event then counts as [t, t+1))."""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from engine.contracts.bean import EventBean


def event_interval(bean: EventBean) -> Optional[tuple[Any, Any]]:
    """[start, end) of an interval event (its type's start/end timestamp properties); a
    type with only a start timestamp gives the zero-length interval [start, start]."""
    t = bean.event_type
    if not t.start_timestamp:
        return None
    start = bean.get(t.start_timestamp)
    end = bean.get(t.end_timestamp) if t.end_timestamp else start
    return start, end


def row_interval(row: Sequence[Optional[EventBean]],
                 point_time: Optional[Callable[[EventBean], Any]] = None) -> Optional[tuple[Any, Any]]:
    """The intersection of the intervals of a join row's events; None when it is empty or
    when no event carries an interval."""
    start = end = None
    zero_length = True
    for bean in row:
        if bean is None:
            continue
        iv = event_interval(bean)
        if iv is None and point_time is not None:
            t = point_time(bean)
            iv = None if t is None else (t, t + 1)
        if iv is None or iv[0] is None or iv[1] is None:
            continue
        s, e = iv
        zero_length = zero_length and s == e
        start = s if start is None or s > start else start
        end = e if end is None or e < end else end
    if start is None:
        return None
    if start > end or (start == end and not zero_length):
        return None
    return start, end
