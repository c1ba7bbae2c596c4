"""What an enumeration method may run on, compiled to `fn(eps) -> list | None` with the
type of its elements: any expression yielding a list or tuple (`window(*)`, `prevwindow(s)`,
`sorted(...)`, array and list properties, `{1, 2}`, pattern repeat tags, earlier methods),
subqueries (every row, `select *` rows as events), and named windows and tables by name."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import engine.contracts.epl_types as T
from engine.contracts.bean import EventBean
from engine.contracts.epl_types import EPLType, PropertyType

import epl.ast as A
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
    stream = _stream_as_source(node, scope)
    if stream is not None:
        return stream
    infra = _infra_by_name(node, scope)
    if infra is not None:
        return _subquery(_select_all(infra), scope)
    if isinstance(node, A.Call) and not node.distinct and node.args and \
            _infra_name(node.name, scope) is not None and \
            not any(isinstance(a, (A.Wildcard, A.NamedArg, A.Lambda)) for a in node.args):
        # `MyWindow(key0 = sb.theString)`: the window's rows that pass the conditions
        return _subquery(_select_all(node.name, node.args), scope)
    column = _table_column(node, scope)
    if column is not None:
        node = column
    c = compile_expr(node, scope)
    if isinstance(node, A.Call) and node.name.lower() in _SINGLE_VALUE:
        src = _singleton(c)
        if src.elem.kind is EPLType.OBJECT and node.args and \
                isinstance(node.args[0], (A.Wildcard, A.StreamWildcard)):
            et = _aggregated_event_type(A.Call("window", node.args[:1]), scope)
            if et is not None:
                src.elem = PropertyType(EPLType.EVENT, event_type=et)
        return src
    src = source_of(c)
    if src is None and c.type.kind is EPLType.EVENT:
        return _singleton(c)
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
        # the same held list gives the same events, so that `x = contained.firstOf(...)`
        # compares an element with itself (events compare by identity)
        last = _LAST_WRAPPED[0]          # one read: another thread may replace it
        if last[0] is coll and last[1] is et and last[2] == len(coll):
            return last[3]
        out = [x if x is None or x.__class__ is EventBean else EventBean(et, x) for x in coll]
        _LAST_WRAPPED[0] = (coll, et, len(coll), out)
        return out
    return events


_LAST_WRAPPED: list = [(None, None, 0, None)]


# Aggregations whose value lists the aggregated events themselves.
_EVENT_LISTS = {"window", "sorted", "prevwindow"}


def _aggregated_event_type(node: A.Expr, scope: Any) -> Any:
    """The events' type of `window(*)`, `window(s.*)`, `sorted(...)`, `prevwindow(s)`
    (None when they hold values: `window(price)`, `prevwindow(id)`)."""
    if not (isinstance(node, A.Call) and node.name.lower() in _EVENT_LISTS) or not scope.streams:
        return None
    name = node.name.lower()
    if name == "sorted":
        return scope.streams[0].event_type
    arg = node.args[0] if node.args else None
    if arg is None or isinstance(arg, A.Wildcard):
        return scope.streams[0].event_type
    if isinstance(arg, A.StreamWildcard):
        s = scope.stream_by_alias(arg.stream)
        return s.event_type if s is not None else None
    if isinstance(arg, A.Property) and len(arg.path) == 1:
        s = scope.stream_by_alias(arg.path[0].name)
        return s.event_type if s is not None else None
    return None


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


# Aggregations and functions giving one event or value that Esper enumerates as a collection
# of that one element (`first(*).allOf(...)`, `prev(s, 1).allOf(...)`).
_SINGLE_VALUE = {"first", "last", "prev", "prevtail", "maxby", "minby", "maxbyever", "minbyever",
                 "firstever", "lastever"}


def _stream_as_source(node: A.Expr, scope: Any) -> Optional[Source]:
    """A stream's name or alias (`s0.where(x => ...)`, `s0.*`): its current event as a
    collection of one, as Esper enumerates a single event; None for anything else (a
    property of the same name wins)."""
    if isinstance(node, A.StreamWildcard):
        name = node.stream
    elif isinstance(node, A.Property) and len(node.path) == 1 and node.path[0].index is None \
            and node.path[0].key is None and not node.path[0].dynamic:
        name = node.path[0].name
    else:
        return None
    streams = getattr(scope, "streams", None) or ()
    stream = scope.stream_by_alias(name) if streams else None
    if stream is None or stream.event_type is None:
        return None
    if isinstance(node, A.Property) and any(
            s.event_type is not None and s.event_type.property_type(name) is not None
            for s in streams):
        return None
    k = stream.index

    def one(eps, _k=k):
        bean = eps[_k] if _k < len(eps) else None
        return None if bean is None else [bean]
    return Source(one, PropertyType(EPLType.EVENT, event_type=stream.event_type))


def _singleton(c: Compiled) -> Source:
    f = c.fn

    def one(eps):
        v = f(eps)
        return None if v is None else [v]
    return Source(one, c.type, c.has_aggregation)


def _subquery(node: A.Subquery, scope: Any) -> Source:
    from ..subqueries import compile_subquery
    sq = compile_subquery(node, scope)
    results = sq.results

    def rows(eps):
        out = results(eps)
        return out if out else None     # no row: a null collection, as in Esper
    src = Source(rows, sq.value_type)
    typed = getattr(sq, "columns_typed", None)
    if not sq.star and typed and len(typed) > 1:
        # rows of several columns enumerate as events of their own type (`v => cnt > 1`)
        from engine.contracts.event_types import EventType, Representation
        et = EventType(f"subquery_{id(node):x}", Representation.MAP, dict(typed))
        src.elem = PropertyType(EPLType.EVENT, event_type=et)
    if src.events:
        src.fn = _as_events(rows, src.elem.event_type)
    return src


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
    return _infra_name(name, scope)


def _infra_name(name: str, scope: Any) -> Any:
    engine = getattr(scope.services, "engine", None)
    svc = engine.services.named_windows if engine is not None else None
    return name if svc is not None and svc.get(name) is not None else None


def _table_column(node: A.Expr, scope: Any) -> Optional[A.TableAccess]:
    """`MyTable.col` on a table without primary key: that column of its one row."""
    if not (isinstance(node, A.Property) and len(node.path) == 2):
        return None
    first, col = node.path
    if first.index is not None or first.key is not None or col.key is not None or col.index is not None:
        return None
    if scope.stream_by_alias(first.name) is not None or \
            any(s.event_type.property_type(first.name) is not None for s in scope.streams):
        return None
    engine = getattr(scope.services, "engine", None)
    svc = engine.services.named_windows if engine is not None else None
    table = svc.get(first.name) if svc is not None else None
    if table is None or not getattr(table, "is_table", False) or table.primary_keys:
        return None
    return A.TableAccess(first.name, (), col.name, node.span)


def _select_all(name: str, conditions: Sequence[A.Expr] = ()) -> A.Subquery:
    where = None
    for c in conditions:
        where = c if where is None else A.BinaryOp(A.BinOp.AND, where, c)
    sel = A.SelectStatement(A.SelectClause((A.SelectItem(A.Wildcard()),)),
                            A.FromClause((A.FilterStream(A.EventFilter(name)),)), where)
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


@compiles(A.Wildcard)
def _the_event(node: A.Wildcard, scope: Any) -> Compiled:
    """`*` as a value (`first(*, 1)`): the event of the statement's only stream."""
    if len(scope.streams) != 1:
        raise scope.fail("A wildcard as a value requires a single stream (use 'alias.*')")
    et = scope.streams[0].event_type
    return Compiled(lambda eps: eps[0], PropertyType(EPLType.EVENT, event_type=et))
