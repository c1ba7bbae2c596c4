"""Which single-stream select statements fuse, read from their AST: a Shape, or None for a
statement that keeps the general view/result-set chain."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import epl.ast as A

from .windows import SINK_WINDOWS

# aggregations a fused statement updates: inlined (count, sum, avg) or through the
# aggregator's own enter/leave/value methods (the rest); all take one property or count(*)
AGGREGATIONS = frozenset({"count", "sum", "avg", "min", "max", "median", "stddev", "avedev"})
# annotations that change nothing a fused statement does
_HARMLESS_ANNOTATIONS = frozenset({"name", "description", "tag"})


@dataclass(frozen=True)
class Agg:
    """One distinct aggregation of the statement: function name (lower case) and the property
    it reads (None for count(*))."""

    func: str
    prop: Optional[str]


@dataclass(frozen=True)
class Shape:
    """A fusable statement: `select <group property | aggregations> from T[(filter)]
    [#length(n) | #groupwin(p)#length(n)] [where ...] [group by p]`, insert stream only; a
    length window under a group by is a groupwin window of the group-by property."""

    length: Optional[int]                       # the length window's size, None without one
    groupwin: Optional[str]                     # the #groupwin property (with a length window)
    group: Optional[str]                        # the group-by property
    aggs: tuple[Agg, ...]                       # distinct aggregations, in order of appearance
    columns: tuple[tuple[str, Any], ...]        # ('prop', name) or ('agg', index), select order
    where: bool                                 # a where clause (called as compiled)
    # the one data window a fused sink takes the view's updates from (windows_sink.py):
    # its EPL name (time_batch, length_batch, time), None for the shapes above
    window: Optional[str] = None


def _simple_property(e: Any) -> Optional[str]:
    """The name of a one-segment property without index, key or dynamic marker."""
    while isinstance(e, A.Parens):
        e = e.inner
    if isinstance(e, A.Property) and len(e.path) == 1:
        seg = e.path[0]
        if seg.index is None and seg.key is None and not seg.dynamic and seg.name.isidentifier():
            return seg.name
    return None


def _int_literal(e: Any) -> Optional[int]:
    if isinstance(e, A.Literal) and e.kind in (A.LiteralKind.INT, A.LiteralKind.LONG) \
            and type(e.value) is int and e.value > 0:
        return e.value
    return None


def _agg(e: Any) -> Optional[Agg]:
    if not isinstance(e, A.Call) or e.distinct:
        return None
    name = e.name.lower()
    if name not in AGGREGATIONS or len(e.args) != 1:
        return None
    arg = e.args[0]
    if isinstance(arg, A.Wildcard):
        return Agg("count", None) if name == "count" else None
    prop = _simple_property(arg)
    return Agg(name, prop) if prop is not None else None


def analyze(node: Any) -> Optional[Shape]:
    """The Shape of a parsed statement, or None when it does not fuse."""
    if not isinstance(node, A.SelectStatement):
        return None
    if node.having is not None or node.output is not None or node.order_by or node.limit is not None \
            or node.context is not None or node.into_table is not None or node.for_clause is not None:
        return None
    if node.select.distinct:
        return None
    istream_only = node.select.selector in (None, A.StreamSelector.ISTREAM)
    if node.insert_into is not None and node.insert_into.selector not in (None, A.StreamSelector.ISTREAM):
        return None
    if any(a.name.lower() not in _HARMLESS_ANNOTATIONS for a in node.annotations):
        return None
    fc = node.from_
    if fc is None or len(fc.streams) != 1 or fc.match_recognize is not None or fc.joins:
        return None
    stream = fc.streams[0]
    if not isinstance(stream, A.FilterStream) or stream.contained or stream.unidirectional \
            or stream.retain_union or stream.retain_intersection:
        return None
    length = groupwin = window = None
    views = stream.views
    names = [v.name.lower() for v in views]
    if names == ["length"]:
        length = _int_literal(views[0].args[0]) if len(views[0].args) == 1 else None
        if length is None:
            return None
    elif names == ["groupwin", "length"]:
        if len(views[0].args) != 1 or len(views[1].args) != 1:
            return None
        groupwin, length = _simple_property(views[0].args[0]), _int_literal(views[1].args[0])
        if groupwin is None or length is None:
            return None
    elif len(names) == 1 and names[0] in SINK_WINDOWS:
        window = names[0]        # its arguments are the view's business: it is kept as built
    elif names:
        return None
    group = None
    if node.group_by:
        if len(node.group_by) != 1:
            return None
        group = _simple_property(node.group_by[0])
        if group is None:
            return None
    # a sliding window not grouped by the group-by property can post two groups in one
    # update (Java hash-map ordered): a #length window of those posts to a fused sink
    # (windows_sink.py), as the time and batch windows do
    if group is not None and length is not None and groupwin != group:
        if groupwin is not None:
            return None
        window, length = "length", None
    if not istream_only and window is None:
        return None
    aggs: list[Agg] = []
    columns: list[tuple[str, Any]] = []
    for item in node.select.items:
        if item.event_bean:
            return None
        prop = _simple_property(item.expr)
        if prop is not None:
            if prop != group:
                return None             # an ungrouped property: another result-set kind
            columns.append(("prop", prop))
            continue
        agg = _agg(item.expr)
        if agg is None:
            return None
        if agg not in aggs:
            aggs.append(agg)
        columns.append(("agg", aggs.index(agg)))
    if not aggs:
        return None
    return Shape(length, groupwin, group, tuple(aggs), tuple(columns), node.where is not None, window)
