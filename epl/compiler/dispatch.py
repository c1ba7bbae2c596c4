"""The dispatch phase of a statement: whether it takes an event after the statements that
take it alone (Esper's "can self-join" statements). Within the early phase the filter tree's
order decides (filterindex/tree.py). See docs/dispatch-order.md."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

import epl.ast as A
from ..ast.walk import walk

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime

# phase 0: statements processed as the filter index hands them the event;
# phase 1: statements that may see one event through several of their filters (patterns,
# joins and subqueries over overlapping types, order-by): processed once every phase-0
# statement has, so their results come after those of phase 0 for the same event.
EARLY, LATE = 0, 1


def dispatch_phase(node: Any, engine: "Runtime") -> int:
    """EARLY or LATE for a statement's AST, by Esper's rule (docs/dispatch-order.md)."""
    if isinstance(node, A.OnStatement):
        if not isinstance(node.trigger, A.EventFilter):
            return LATE                                  # `on pattern [...]`
        streams: list = [node.trigger]
        order_by = ()
        root = node.action
    elif isinstance(node, A.SelectStatement):
        if node.from_ is None:
            return EARLY
        streams = list(node.from_.streams)
        order_by = node.order_by
        root = node
    else:
        return EARLY
    if order_by:
        return LATE
    if any(isinstance(s, A.PatternStream) for s in streams):
        return LATE
    subqueries = [n for n in walk(root) if isinstance(n, A.Subquery)]
    if len(streams) <= 1 and not subqueries:
        return EARLY
    filtered = [t for t in (_filter_type(s, engine) for s in streams) if t is not None]
    sub_types = set()
    for sq in subqueries:
        sub_types.update(_subquery_types(sq, engine))
    if not filtered:
        return EARLY
    for i, a in enumerate(filtered):
        for b in filtered[i + 1:]:
            if _related(a, b):
                return LATE
    for t in filtered:
        if any(s in sub_types for s in t.ancestors()):
            return LATE
    return EARLY


def _filter_type(stream: Any, engine: "Runtime") -> Any:
    """The event type a stream filters (None: a named window, table or pattern stream)."""
    ef = stream if isinstance(stream, A.EventFilter) else getattr(stream, "event_filter", None)
    if ef is None:
        return None
    nw = engine.services.named_windows
    if nw is not None and nw.get(ef.type_name) is not None:
        return None
    return engine.types.find(ef.type_name)


def _subquery_types(sq: A.Subquery, engine: "Runtime") -> Iterable[Any]:
    sel = sq.select
    frm = getattr(sel, "from_", None)
    if frm is None:
        return ()
    out = []
    for s in frm.streams:
        if isinstance(s, A.PatternStream):
            for n in walk(s.pattern):
                if isinstance(n, A.PatternFilter):
                    t = engine.types.find(n.event_filter.type_name)
                    if t is not None:
                        out.append(t)
        else:
            t = _filter_type(s, engine)
            if t is not None:
                out.append(t)
    return out


def _related(a: Any, b: Any) -> bool:
    return a is b or b in a.supertypes or a in b.supertypes
