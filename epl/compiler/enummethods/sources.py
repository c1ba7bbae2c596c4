"""What an enumeration method may run on, compiled to `fn(eps) -> list | None` with the
type of its elements: any expression yielding a list or tuple (`window(*)`, `prevwindow(s)`,
`sorted(...)`, array and list properties, `{1, 2}`, pattern repeat tags, earlier methods),
subqueries (every row, `select *` rows as events), and named windows and tables by name."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from engine import epl_types as T
from engine.bean import EventBean
from engine.epl_types import EPLType, PropertyType

from ... import ast as A
from ..compiled import Compiled
from ..expressions import compile_expr, compiles


@dataclass
class Source:
    """A collection: `fn(eps)` gives a list/tuple or None; `elem` is its elements' type (an
    EVENT type with its event type for events)."""

    fn: Callable[[Sequence[Any]], Optional[Sequence[Any]]]
    elem: PropertyType
    has_aggregation: bool = False

    @property
    def events(self) -> bool:
        return self.elem.kind is EPLType.EVENT and self.elem.event_type is not None


def compile_source(node: A.Expr, scope: Any) -> Optional[Source]:
    """The collection `node` yields, or None when it is not one (a string, a number...)."""
    while isinstance(node, A.Parens):
        node = node.inner
    if isinstance(node, A.Subquery):
        return _subquery(node, scope)
    infra = _infra_by_name(node, scope)
    if infra is not None:
        return _subquery(_select_all(infra), scope)
    c = compile_expr(node, scope)
    src = source_of(c)
    if src is not None and src.elem.kind is EPLType.OBJECT:
        et = _aggregated_event_type(node, scope)
        if et is not None:
            src.elem = PropertyType(EPLType.EVENT, event_type=et)
    elif src is not None and src.events:
        src.fn = _as_events(src.fn, src.elem.event_type)
    return src


def _as_events(f: Callable[[Any], Any], et: Any) -> Callable[[Any], Any]:
    """Nested events held as plain objects (`Item[]` of dicts) become events, so lambdas and
    results see events whatever the representation."""
    def events(eps):
        coll = f(eps)
        if not coll or coll[0].__class__ is EventBean:
            return coll
        return [x if x is None or x.__class__ is EventBean else EventBean(et, x) for x in coll]
    return events


# Aggregations whose value lists the aggregated events themselves.
_EVENT_LISTS = {"window", "sorted", "prevwindow"}


def _aggregated_event_type(node: A.Expr, scope: Any) -> Any:
    """The events' type of `window(*)`, `window(s.*)`, `sorted(...)`, `prevwindow(s)`."""
    if not (isinstance(node, A.Call) and node.name.lower() in _EVENT_LISTS) or not scope.streams:
        return None
    for a in node.args:
        if isinstance(a, A.StreamWildcard):
            s = scope.stream_by_alias(a.stream)
            return s.event_type if s is not None else None
        if isinstance(a, A.Property) and len(a.path) == 1 and node.name.lower() != "sorted":
            s = scope.stream_by_alias(a.path[0].name)
            if s is not None:
                return s.event_type
    if node.name.lower() == "window" and node.args and not isinstance(node.args[0], A.Wildcard):
        return None      # window(price): the values, not the events
    return scope.streams[0].event_type


def source_of(c: Compiled) -> Optional[Source]:
    t = c.type
    if t.kind is EPLType.ARRAY:
        return Source(_listed(c.fn), t.element or T.OBJECT, c.has_aggregation)
    if t.kind is EPLType.OBJECT and t.pyclass is None:
        # untyped (a dynamic property, a user function): a collection at run time or null
        return Source(_listed(c.fn), T.OBJECT, c.has_aggregation)
    return None


def _listed(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def collection(eps):
        v = f(eps)
        if v is None or type(v) is list or type(v) is tuple:
            return v
        if isinstance(v, (str, bytes, dict)) or not hasattr(v, "__iter__"):
            return None
        return list(v)
    return collection


def _subquery(node: A.Subquery, scope: Any) -> Source:
    from ..subqueries import compile_subquery
    sq = compile_subquery(node, scope)
    return Source(sq.results, sq.value_type)


def _infra_by_name(node: A.Expr, scope: Any) -> Any:
    """A named window or table named by a bare name that no stream, property or variable
    takes (`MyWindow.where(...)`)."""
    if not (isinstance(node, A.Property) and len(node.path) == 1):
        return None
    seg = node.path[0]
    if seg.index is not None or seg.key is not None:
        return None
    name = seg.name
    if scope.stream_by_alias(name) is not None:
        return None
    if any(s.event_type.property_type(name) is not None for s in scope.streams):
        return None
    if scope.variables is not None and scope.variables.has(name):
        return None
    engine = getattr(scope.services, "engine", None)
    svc = engine.services.get("named_windows") if engine is not None else None
    return name if svc is not None and svc.get(name) is not None else None


def _select_all(name: str) -> A.Subquery:
    sel = A.SelectStatement(A.SelectClause((A.SelectItem(A.Wildcard()),)),
                            A.FromClause((A.FilterStream(A.EventFilter(name)),)))
    return A.Subquery(sel)


@compiles(A.StreamWildcard)
def _stream_event(node: A.StreamWildcard, scope: Any) -> Compiled:
    """`s.*` as a value (`window(s.*)`): that stream's event."""
    s = scope.stream_by_alias(node.stream)
    if s is None:
        raise scope.fail(f"Stream selector '{node.stream}.*' does not match any stream name in "
                         f"the from clause")
    i = s.index
    return Compiled(lambda eps, _i=i: eps[_i], PropertyType(EPLType.EVENT, event_type=s.event_type))
